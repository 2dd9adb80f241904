"""grbda: recursive rigid-body dynamics for robots with kinematic loops.

The C++ library's API with snake_case names (grbda._grbda), numpy in and out, plus `load`.
Functions return new arrays; Data's properties (data.qdd, data.tau, data.H, data.C,
data.q_spanning) are read-only views of the workspace, overwritten by the next call on that Data.

    import grbda, numpy as np
    model = grbda.load("models/mini_cheetah.urdf")
    data = grbda.Data(model)
    zeros = np.zeros(model.nv)
    qdd = grbda.forward_dynamics(model, data, model.neutral_configuration(), zeros, zeros)
"""
import os as _os
import sys as _sys

try:
    from ._grbda import *  # noqa: F401,F403  (the bound API)
except ImportError as _error:  # another interpreter than the one it was built for, most often
    try:
        from ._build_info import interpreter as _built_for, version as _built_version
    except ImportError:
        _built_for, _built_version = "an unknown interpreter", "?"
    raise ImportError(
        f"grbda's extension module could not be loaded ({_error}). It was built for Python "
        f"{_built_version} ({_built_for}); this is Python {_sys.version.split()[0]} ({_sys.executable}). "
        "Run the interpreter it was built for (build/python/python3 in the build tree), or rebuild "
        "with -DPython3_EXECUTABLE=<this interpreter>."
    ) from _error
from ._grbda import __version__  # noqa: F401  (CMake's project version)
from ._grbda import robots, tree  # noqa: F401  (submodules)
from ._grbda import InputError, is_mjcf_path, load_mjcf, load_urdf
from .configuration import quaternion_to_rotation  # noqa: F401

__all__ = [name for name in dir() if not name.startswith("_") and name != "configuration"] + ["load"]

# Robots built in code, by the name the grbda command knows them ("builtin:NAME"): the library's registry.
_BUILTIN = ["builtin:" + _name for _name in robots.builtin_names()]


def load(*models, loops="embed", floating_base=False, transmissions="exact"):
    """load(*models, loops="embed", floating_base=False, transmissions="exact") -> Model

    Load a robot as the grbda command does: one URDF / URDF+ file, several files describing one
    robot, one MuJoCo MJCF file (.xml or .mjcf: load_mjcf), or a built-in robot ("builtin:tello", "builtin:tello_no_arms"). Paths may be str or
    os.PathLike. `loops` is "embed", "constrain" or "auto", as the command's --loops (see
    load_urdf). floating_base=True adds a free joint at the root of a robot written fixed-base
    (as the command's --floating). transmissions="exact" turns a URDF <transmission> carrying
    drake:rotor_inertia into an exact rotor cluster, "ignore" reads no transmission (see load_urdf;
    built-in robots have none). Raises ModelError (naming file and line) for a bad model, InputError for a bad
    argument.
    """
    if len(models) == 1 and isinstance(models[0], (list, tuple)):
        models = tuple(models[0])
    if not models:
        raise InputError("load: no model given")
    try:
        names = [_os.fspath(m) for m in models]
    except TypeError as error:
        raise InputError("load: a model is a file path or 'builtin:NAME' (%s)" % error) from None
    if len(names) == 1 and names[0].startswith("builtin:"):
        if names[0] not in _BUILTIN:
            raise InputError("unknown built-in robot '%s' (built-in robots: %s)" % (names[0], ", ".join(_BUILTIN)))
        builder = robots.builtin_builder(names[0])
        builder.loop_treatment = loops
        if floating_base:
            builder.add_floating_base()
        return builder.build()
    if any(is_mjcf_path(n) for n in names):
        if len(names) != 1:
            raise InputError("load: an MJCF file (%s) describes the whole robot; give it alone" % next(
                n for n in names if is_mjcf_path(n)))
        return load_mjcf(names[0], loops=loops, floating_base=floating_base)
    return load_urdf(names[0] if len(names) == 1 else names, loops=loops, floating_base=floating_base,
                     transmissions=transmissions)
