"""Forward dynamics of a robot at rest: python3 examples/python/forward_dynamics.py [MODEL...]"""
import pathlib
import sys

import numpy as np

import grbda

models = sys.argv[1:] or [pathlib.Path(__file__).resolve().parents[2] / "models" / "mini_cheetah.urdf"]
model = grbda.load(*models)  # URDF / URDF+ file(s) or builtin:tello
data = grbda.Data(model)
q, v, tau = model.neutral_configuration(), np.zeros(model.nv), np.zeros(model.nv)
qdd = grbda.forward_dynamics(model, data, q, v, tau)  # falls under gravity
for name, acceleration in zip(model.velocity_names, qdd):
    print(f"{name:32s} {acceleration: .6f}")
