"""Configuration-space arithmetic in pure Python (the library has none yet): integrate a velocity.

Independent coordinates add up entry by entry, except a floating base, whose q = [x y z qw qx qy
qz] holds a unit quaternion and whose v = [w; v] is in the body frame.
"""
import numpy as np

from ._grbda import InputError


def _quaternion_product(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return np.array([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2])


def quaternion_to_rotation(quaternion):
    """Rotation matrix (body -> world) of a quaternion [w, x, y, z] (normalised first)."""
    w, x, y, z = np.asarray(quaternion, dtype=float) / np.linalg.norm(quaternion)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def integrate(model, q, v, dt):
    """integrate(model, q, v, dt) -> q_next

    Independent positions after moving with the constant independent velocity v for dt seconds:
    q + v dt for every cluster but a free one, whose position moves by R v_linear dt (R: body ->
    world at q) and whose quaternion turns by the body-frame angular velocity (exact exponential).
    """
    q = np.array(q, dtype=float)
    v = np.asarray(v, dtype=float)
    if q.shape != (model.nq,) or v.shape != (model.nv,):
        raise InputError("integrate: q needs %d entries and v %d, got %s and %s" % (model.nq, model.nv, q.shape, v.shape))
    for cluster in model.clusters:
        qs = slice(cluster.q_index, cluster.q_index + cluster.nq)
        vs = slice(cluster.v_index, cluster.v_index + cluster.nv)
        if cluster.type_name == "Free":
            position, quaternion = q[qs][:3], q[qs][3:]
            w, linear = v[vs][:3], v[vs][3:]
            angle = np.linalg.norm(w) * dt
            axis = w / np.linalg.norm(w) if angle != 0 else np.zeros(3)  # dt < 0 turns back
            turn = np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])
            position = position + quaternion_to_rotation(quaternion) @ linear * dt
            quaternion = _quaternion_product(quaternion, turn)
            q[qs] = np.concatenate([position, quaternion / np.linalg.norm(quaternion)])
        elif cluster.nq == cluster.nv:
            q[qs] += v[vs] * dt
        else:
            raise InputError("integrate: cluster '%s' (%s) has nq != nv" % (cluster.name, cluster.type_name))
    return q
