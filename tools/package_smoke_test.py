"""Smoke test of an installed grbda (wheel in a venv, or python3-grbda in a clean Debian root).

    python3 tools/package_smoke_test.py MODEL GRBDA_COMMAND

Imports grbda (it must come from an installation, not from the source tree), runs forward
dynamics on MODEL at a random state, checks that inverse dynamics gives the torques back, and
that the installed `grbda fd --json` command computes the same accelerations.
"""
import json
import subprocess
import sys

import numpy as np

import grbda


def main(model_path, command):
    model = grbda.load(model_path)
    data = grbda.Data(model)
    rng = np.random.default_rng(7)
    q = model.neutral_configuration()
    v = rng.uniform(-1.0, 1.0, model.nv)
    tau = rng.uniform(-1.0, 1.0, model.nv)
    qdd = grbda.forward_dynamics(model, data, q, v, tau)
    back = grbda.inverse_dynamics(model, data, q, v, qdd)
    assert np.all(np.isfinite(qdd)), qdd
    assert np.max(np.abs(back - tau)) < 1e-8, (back, tau)

    vec = lambda x: ",".join(repr(float(e)) for e in x)  # noqa: E731
    out = subprocess.run([command, "fd", model_path, "--json", "--v", vec(v), "--tau", vec(tau)],
                         check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    assert report["quantity"] == "qdd", report
    cli = np.array(report["result"], dtype=float)
    assert np.allclose(cli, qdd, rtol=1e-9, atol=1e-9), (cli, qdd)
    print("smoke test: grbda from %s, %s nv=%d, |qdd|=%.6g, id(fd) error %.1e, command agrees"
          % (grbda.__file__, model_path.split("/")[-1], model.nv, np.linalg.norm(qdd),
             np.max(np.abs(back - tau))))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
