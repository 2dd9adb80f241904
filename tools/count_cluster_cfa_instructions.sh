#!/usr/bin/env bash
# Instructions per call of the cluster CFA (spec §3.6 C5, `grbda fd --method cfa` on a model with
# loops) against C-ABA (`--method cluster`) on chains of clusters: geared-rotor chains, belt
# pairs and triples (their rotors given 0.05 kg, since the CFA inverts every body's inertia and
# the bundled rotors are massless), chains of four-bars, and the locality family's parallel chains.
# Each count is (callgrind(--repeat N) − callgrind(--repeat 1)) / (N − 1) at the model's neutral state
# (loading, the first call and printing the result are not counted).
#
#   tools/count_cluster_cfa_instructions.sh [--grbda PATH] [--repeat N] [--data FILE]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
grbda="${GRBDA:-$repo/build/tools/grbda}"
bench_models="$repo/build/bench/models"
repeat=50
data=""
while [ $# -gt 0 ]; do
  case "$1" in
    --grbda) grbda="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --data) data="$2"; shift 2 ;;
    *) echo "count_cluster_cfa_instructions.sh: unknown argument $1" >&2; exit 1 ;;
  esac
done
command -v valgrind >/dev/null || { echo "count_cluster_cfa_instructions.sh: valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cluster-cfa.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

count() {
  valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$grbda" "$@" >/dev/null 2>&1
  awk '/^summary:/ { print $2 }' "$tmp/out"
}
per_call() { echo $(( ($(count fd "$@" --repeat "$repeat") - $(count fd "$@" --repeat 1)) / (repeat - 1) )); }
field() { "$grbda" info "$1" --json | python3 -c "import json,sys; d=json.load(sys.stdin); print($2)"; }

with_massive_rotors() {  # $1: a bundled model; prints the path of a copy whose massless bodies weigh 0.05 kg
  local out="$tmp/$(basename "$1")"
  sed 's|<mass value="0"/>|<mass value="0.05"/>|' "$1" > "$out"
  echo "$out"
}

models=()
for n in 2 4 12 24; do models+=("$(with_massive_rotors "$repo/models/generated/revolute_rotor_chain_$n.urdf")"); done
for n in 12 24; do
  models+=("$(with_massive_rotors "$repo/models/generated/revolute_belt_pair_chain_$n.urdf")")
  models+=("$(with_massive_rotors "$repo/models/generated/revolute_belt_triple_chain_$n.urdf")")
done
for n in 1 2 4 10; do [ -f "$bench_models/four_bar_branch_1_$n.urdf" ] && models+=("$bench_models/four_bar_branch_1_$n.urdf"); done
models+=("$repo/models/four_bar.urdf" "$repo/models/six_bar.urdf"
         "$repo/models/generated/parallel_chain_explicit_d5_l4.urdf" "$repo/models/generated/parallel_chain_implicit_d5_l5.urdf")

echo "| model | bodies | nv | Σ r_k (rows of A) | C-ABA | cluster CFA | CFA / C-ABA |"
echo "|---|---:|---:|---:|---:|---:|---:|"
[ -n "$data" ] && echo "# model bodies nv rows c_aba cluster_cfa" > "$data"
for m in "${models[@]}"; do
  name=$(basename "$m" .urdf)
  bodies=$(field "$m" "len(d['bodies'])")
  nv=$(field "$m" "d['nv']")
  rows=$(( 6 * bodies - nv ))
  aba=$(per_call "$m" --method cluster --loops embed)
  cfa=$(per_call "$m" --method cfa)
  ratio=$(awk -v a="$cfa" -v b="$aba" 'BEGIN { printf "%.2f", a / b }')
  echo "| $name | $bodies | $nv | $rows | $aba | $cfa | $ratio × |"
  [ -n "$data" ] && echo "$name $bodies $nv $rows $aba $cfa" >> "$data"
done
