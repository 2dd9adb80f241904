"""setuptools glue for pyproject.toml: the extension grbda._grbda is built by CMake.

The wheel's grbda/ directory is a small install prefix of its own:
    grbda/*.py                          the pure-Python part (python/grbda)
    grbda/_grbda.cpython-*.so           the extension, RUNPATH $ORIGIN/lib
    grbda/lib/libgrbda.so.0             the shared library
    grbda/lib/libgrbda_backends.so.0    its readers and FCL queries, which it loads privately
    grbda/lib/glibc-hwcaps/x86-64-v3/libgrbda.so.0   the same library for AVX2 + FMA (when built),
                                        which the dynamic loader picks on a CPU that has them
    grbda/bin/grbda                     the command (RUNPATH $ORIGIN/../lib), run by the `grbda` script
    grbda/share/grbda/models/           the robot models (the command finds them beside itself)

GRBDA_CMAKE_BUILD_DIR=DIR reuses a configured and built CMake tree (relative to this directory):
only `cmake --build` of the three targets (a no-op when up to date) and `cmake --install` of the
runtime, tools and python components into a staging prefix. When DIR was configured for another
interpreter than the one running pip, only the extension is compiled, for this interpreter and
against DIR's libgrbda (python/ built alone, under build-py/python-TAG/). Without the variable a
Release tree without tests or benchmarks is configured under build-py/. pybind11 comes from the
build environment when it has the Python package (`pybind11>=2.12` understands numpy 2), else from
CMake's search (Debian's pybind11-dev). docs/packaging.md explains the choices.
"""
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
BUILD_BASE = "build-py"  # setuptools' own build/ would land inside CMake's build/


def cmake_project_version():
    """The one version of grbda: project(grbda VERSION x.y.z) in CMakeLists.txt."""
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"project\(\s*grbda\s+VERSION\s+([0-9][0-9.]*)", text)
    if not match:
        raise RuntimeError("setup.py: no project(grbda VERSION ...) in CMakeLists.txt")
    return match.group(1)


def run(*cmd):
    print("setup.py:", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True)


def cache_value(build_dir, name):
    for line in (build_dir / "CMakeCache.txt").read_text().splitlines():
        if line.startswith(name + ":"):
            return line.split("=", 1)[1]
    return None


class CMakeExtension(Extension):
    def __init__(self):
        super().__init__("grbda._grbda", sources=[])


class CMakeBuild(build_ext):
    def cmake_tree(self):
        given = os.environ.get("GRBDA_CMAKE_BUILD_DIR")
        if given:
            build_dir = Path(given)
            if not build_dir.is_absolute():
                build_dir = ROOT / build_dir
            if not (build_dir / "CMakeCache.txt").is_file():
                raise RuntimeError(f"GRBDA_CMAKE_BUILD_DIR={given}: no CMakeCache.txt in {build_dir} "
                                   "(configure it first, or unset the variable)")
            return build_dir
        build_dir = ROOT / BUILD_BASE / "cmake"
        run("cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
            "-DGRBDA_BUILD_TESTS=OFF", "-DGRBDA_BUILD_BENCH=OFF", "-DGRBDA_BUILD_EXAMPLES=OFF",
            "-DGRBDA_BUILD_PYTHON=ON", *interpreter_options())
        return build_dir

    def extension_tree(self, build_dir):
        """The tree whose `python` component holds an extension for this interpreter: build_dir
        itself when it was configured for it, else python/ built alone against build_dir's library."""
        if same_interpreter(cache_value(build_dir, "Python3_EXECUTABLE")):
            if cache_value(build_dir, "GRBDA_BUILD_PYTHON") not in ("ON", "1", "TRUE", "YES"):
                raise RuntimeError(f"{build_dir} was configured without the Python module "
                                   "(GRBDA_BUILD_PYTHON=OFF; is pybind11-dev installed?)")
            return build_dir, "grbda_python"
        extension_dir = ROOT / BUILD_BASE / f"python-{sys.implementation.cache_tag}"
        run("cmake", "-S", ROOT / "python", "-B", extension_dir, "-DCMAKE_BUILD_TYPE=Release",
            f"-Dgrbda_DIR={build_dir}", *interpreter_options())
        return extension_dir, None

    def build_extension(self, ext):
        build_dir = self.cmake_tree()
        extension_dir, in_tree_target = self.extension_tree(build_dir)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        run("cmake", "--build", build_dir, "-j", jobs, "--target", "grbda", "grbda_cli",
            *([in_tree_target] if in_tree_target else []))
        if extension_dir != build_dir:
            run("cmake", "--build", extension_dir, "-j", jobs, "--target", "grbda_python")

        stage = Path(self.build_temp).resolve() / "stage"
        shutil.rmtree(stage, ignore_errors=True)
        for component in ("runtime", "tools"):
            run("cmake", "--install", build_dir, "--prefix", stage, "--component", component)
        run("cmake", "--install", extension_dir, "--prefix", stage, "--component", "python")

        extension = self.one(stage.rglob("_grbda*.so"))
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        if not extension.name.endswith(suffix):
            raise RuntimeError(f"{extension.name} was built for another Python than this one ({suffix}); "
                               f"configure {build_dir} with -DPython3_EXECUTABLE={sys.executable}")
        package = Path(self.get_ext_fullpath(ext.name)).parent
        shutil.rmtree(package / "lib", ignore_errors=True)
        shutil.rmtree(package / "bin", ignore_errors=True)
        shutil.rmtree(package / "share", ignore_errors=True)
        package.mkdir(parents=True, exist_ok=True)
        target = Path(self.get_ext_fullpath(ext.name))
        shutil.copy2(extension, target)
        set_runpath(target, "$ORIGIN/lib")
        # the soname files only (a wheel stores no symlinks): libgrbda, and beside it the backend it
        # opens from its own directory (loaders/backends.cpp)
        (package / "lib").mkdir()
        for name in ("libgrbda.so.*", "libgrbda_backends.so.*"):
            library = self.one(p for p in stage.rglob(name) if p.name.count(".") == 2 and "glibc-hwcaps" not in p.parts)
            shutil.copy2(library.resolve(), package / "lib" / library.name)
        # the x86-64-v3 flavour, where the dynamic loader looks for it on a CPU that has AVX2 and FMA
        for flavour in stage.rglob("glibc-hwcaps/*/libgrbda.so.0"):
            into = package / "lib" / "glibc-hwcaps" / flavour.parent.name
            into.mkdir(parents=True)
            shutil.copy2(flavour.resolve(), into / flavour.name)
        (package / "bin").mkdir()
        shutil.copy2(stage / (cache_value(build_dir, "CMAKE_INSTALL_BINDIR") or "bin") / "grbda", package / "bin" / "grbda")
        # GNUInstallDirs leaves CMAKE_INSTALL_DATADIR empty in the cache (it defaults to DATAROOTDIR)
        datadir = cache_value(build_dir, "CMAKE_INSTALL_DATADIR") or cache_value(build_dir, "CMAKE_INSTALL_DATAROOTDIR") or "share"
        shutil.copytree(stage / datadir / "grbda",
                        package / "share" / "grbda", symlinks=False)

    @staticmethod
    def one(paths):
        found = list(paths)
        if len(found) != 1:
            raise RuntimeError(f"setup.py: expected one file in the staged install, found {found}")
        return found[0]


def same_interpreter(executable):
    """Whether a CMake tree's Python3_EXECUTABLE is the interpreter running this build (a venv's
    python is a link to its base interpreter)."""
    return bool(executable) and Path(executable).resolve() == Path(sys.executable).resolve()


def interpreter_options():
    """CMake options that build the extension for this interpreter, with the build environment's
    pybind11 when it has one (else CMake finds a system pybind11)."""
    options = [f"-DPython3_EXECUTABLE={sys.executable}"]
    try:
        import pybind11
        options.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
    except ImportError:
        pass
    return options


def set_runpath(path, runpath):
    """Rewrite an ELF file's RUNPATH with CMake's own editor (the new one must not be longer)."""
    script = Path(path).with_suffix(".rpath.cmake")
    script.write_text(f'file(RPATH_SET FILE "{path}" NEW_RPATH "{runpath}")\n')
    try:
        run("cmake", "-P", script)
    finally:
        script.unlink()


setup(
    version=cmake_project_version(),
    ext_modules=[CMakeExtension()],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": BUILD_BASE}},
)
