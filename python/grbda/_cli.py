"""The `grbda` console script of the wheel: runs the command bundled in the package (grbda/bin)."""
import os
import sys


def main():
    exe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "grbda")
    if not os.access(exe, os.X_OK):
        sys.exit("grbda: this installation of the Python package has no bundled command "
                 "(%s); install the wheel built by pip / python3 -m build, or grbda-tools" % exe)
    os.execv(exe, ["grbda"] + sys.argv[1:])


if __name__ == "__main__":
    main()
