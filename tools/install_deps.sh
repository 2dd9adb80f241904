#!/usr/bin/env bash
# Installs the Debian packages grbda needs to build, test, benchmark and plot. Idempotent and
# non-interactive: when every package is already installed it does nothing (no network needed).
set -euo pipefail

packages=(
  cmake g++ make ninja-build ccache    # toolchain (Ninja: per-file compile times; ccache: CI reuses the objects)
  libeigen3-dev                       # linear algebra (public dependency)
  liburdfdom-dev libtinyxml2-dev      # URDF / URDF+ parsing
  libspdlog-dev                       # logging
  libfcl-dev                          # collision: mesh hulls and shape–shape pairs (src/collision/)
  libgtest-dev libbenchmark-dev       # tests and benchmarks
  liborocos-kdl-dev                   # KDL's Vereshchagin solver beside ours (bench_seed003; optional in CMake)
  libmujoco-dev                       # MuJoCo 2.2.2 beside grbda (bench_mujoco, bench/RESULTS.md; optional in CMake)
  valgrind gnuplot-nox                # instruction counts and plots for the benchmarks
  python3                             # tools/make_models.py (writes models/)
  python3-dev pybind11-dev python3-pybind11   # the Python bindings (python/); python3-pybind11 for the offline wheel build
  python3-numpy python3-pytest python3-matplotlib   # their tests and examples
  python3-dask python3-distributed    # examples/python/dask_sweep.py (rollouts on a Dask cluster)
  graphviz                            # `grbda info --dot` pictures (docs/) and their test
  libjs-three                         # three.js, inlined by `grbda view` into its pages
  chromium                            # the headless browser of the viewer's test (tests/viewer/)
  clang-14 libfuzzer-14-dev libclang-rt-14-dev   # the sanitizers and fuzzers (clang runtimes; docs/reliability.md)
  python3-setuptools python3-wheel python3-build python3-venv   # the wheel (pyproject.toml, offline)
  dpkg-dev file debootstrap           # the .deb packages (cpack, dpkg-shlibdeps) and their clean-root test
  doxygen                             # the API reference (docs/Doxyfile)
)

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "install_deps.sh: this script needs a Debian-based system (dpkg/apt-get)." >&2
  exit 1
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install_deps.sh: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "install_deps.sh: not root and no sudo; install these as root: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "install_deps.sh: installing ${missing[*]}"
"${sudo[@]}" apt-get -q update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q --no-install-recommends "${missing[@]}"
