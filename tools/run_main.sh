#!/usr/bin/env bash
# The main job, from a fresh Debian machine: install dependencies, build (Release, in build/)
# and show what grbda computes for one robot model.
# Usage: tools/run_main.sh [MODEL.urdf]   (default: models/mini_cheetah.urdf)
#        GRBDA_BUILD_DIR=dir picks another build directory.
set -euo pipefail

# A model given on the command line is relative to the caller's directory, not the repo's.
model_arg=""
if [ $# -gt 0 ]; then model_arg=$(realpath -m -- "$1"); fi

cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${GRBDA_BUILD_DIR:-build}
bash tools/install_deps.sh
bash tools/configure_release.sh "$build"
cmake --build "$build" -j2 --target grbda_cli
grbda=$build/tools/grbda

model=${model_arg:-models/mini_cheetah.urdf}
if [ -z "$model_arg" ] && [ ! -f "$model" ]; then
  # Fall back to any bundled model rather than fail on a renamed default.
  model=$(find models -maxdepth 1 -name '*.urdf' 2>/dev/null | sort | head -n 1)
  if [ -z "$model" ]; then
    echo "run_main.sh: no model in models/; pass one: tools/run_main.sh path/to/robot.urdf" >&2
    exit 1
  fi
fi

# The main job: the robot's cluster tree, its dynamics at one state, then the headline result of
# the papers: the cluster algorithms against the baselines on the benchmark robots.
run() {
  echo
  echo "\$ grbda $*"
  "$grbda" "$@"
}
run info "$model"
# Unit joint speeds and accelerations, sized from the model's nv, make every term visible.
nv=$("$grbda" info "$model" --json | sed -n 's/.*"nv": *\([0-9][0-9]*\).*/\1/p' | head -n 1)
ones=$(printf '1,%.0s' $(seq "${nv:-0}"))
ones=${ones%,}
run fd "$model" --v "$ones"  # accelerations at the neutral configuration, zero torque
run id "$model" --a "$ones"  # torques that start the robot from rest with qdd = 1
run bench --quick --models models
