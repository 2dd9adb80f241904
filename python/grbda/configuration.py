"""Rotation helpers in pure Python. Moving q along v (grbda.integrate, position_rate,
normalize_configuration) is the library's (C++), bound in grbda._grbda.
"""
import numpy as np


def quaternion_to_rotation(quaternion):
    """Rotation matrix (body -> world) of a quaternion [w, x, y, z] (normalised first)."""
    w, x, y, z = np.asarray(quaternion, dtype=float) / np.linalg.norm(quaternion)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
