#!/usr/bin/env bash
# Everything behind bench/RESULTS.md: builds Release (with the benchmarks), then writes into
# bench/results/ and bench/plots/:
#   grbda_bench.txt, robots.json     grbda bench (the per-robot table, medians over 1000 states)
#   robots_gbench.json               bench_robots (Google Benchmark, the same comparisons)
#   scaling.json                     bench_scaling (chains 2-24, branch x depth, loop locality)
#   cfa.json                         bench_cfa (serial/parallel CFA vs ABA, chains 8-4096)
#   seed003_gbench.json              bench_seed003 (seed 003's Table II, chains beside KDL, ladder, stem)
#   accuracy.txt, accuracy_*.dat     grbda_accuracy (the MIT Humanoid leg experiment)
#   instruction_counts.md            tools/count_instructions.sh (callgrind, deterministic)
#   seed003_instructions.md, seed003_*.dat   tools/count_seed003.sh (callgrind, deterministic)
#   ../plots/*.png                   tools/plot_results.py (gnuplot)
# Takes 15-30 minutes; run it on an otherwise idle machine. Usage: tools/run_benchmarks.sh [--no-counts]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
counts=1
[ "${1:-}" = "--no-counts" ] && counts=0

build=${GRBDA_BUILD_DIR:-build}
bash tools/install_deps.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGRBDA_BUILD_BENCH=ON
cmake --build "$build" -j2 --target grbda_cli bench_robots bench_scaling bench_cfa grbda_accuracy \
  bench_seed003 seed003_counts

results=bench/results
mkdir -p "$results"
grbda=$build/tools/grbda
echo "== grbda bench"
"$grbda" bench --models models | tee "$results/grbda_bench.txt"
"$grbda" bench --models models --json > "$results/robots.json"
echo "== bench_robots"
"$build/bench/bench_robots" --benchmark_format=json > "$results/robots_gbench.json"
echo "== bench_scaling"
"$build/bench/bench_scaling" --benchmark_format=json > "$results/scaling.json"
echo "== bench_cfa"
"$build/bench/bench_cfa" --benchmark_format=json > "$results/cfa.json"
echo "== bench_seed003"
"$build/bench/bench_seed003" --benchmark_format=json > "$results/seed003_gbench.json"
echo "== accuracy experiment"
"$build/bench/grbda_accuracy" models/mit_humanoid_leg.urdf --out "$results" | tee "$results/accuracy.txt"
if [ "$counts" = 1 ]; then
  echo "== instruction counts"
  bash tools/count_instructions.sh --grbda "$grbda" | tee "$results/instruction_counts.md"
  bash tools/count_seed003.sh --build "$build" --out "$results"
fi
echo "== plots"
python3 tools/plot_results.py "$results" bench/plots
