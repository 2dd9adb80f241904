#!/usr/bin/env python3
"""One version everywhere: CMake's project version (the one place it is set) is the CHANGELOG's
latest release, what `grbda --version` prints and the Python package's __version__.

Usage: check_version.py PROJECT_VERSION CHANGELOG GRBDA_COMMAND PYTHON_PACKAGE_DIR
(PYTHON_PACKAGE_DIR: the directory holding the built `grbda` package, or - when there is none)
"""
import re
import subprocess
import sys


def main(version, changelog, command, package_dir):
    found = {"CMake project(VERSION)": version}
    released = re.search(r"^## \[(\d+\.\d+\.\d+)\]", open(changelog, encoding="utf-8").read(), re.M)
    found["CHANGELOG's latest release"] = released.group(1) if released else "none"
    said = subprocess.run([command, "--version"], capture_output=True, text=True, check=True).stdout
    found["grbda --version"] = (re.findall(r"\d+\.\d+\.\d+", said) or ["none"])[0]
    if package_dir != "-":
        sys.path.insert(0, package_dir)
        import grbda
        found["Python grbda.__version__"] = grbda.__version__
    for where, value in found.items():
        print(f"{value:>10}  {where}")
    if len(set(found.values())) != 1:
        sys.exit("the versions differ (CMakeLists.txt's project(VERSION) is the one to set)")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
