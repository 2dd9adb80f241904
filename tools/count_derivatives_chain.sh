#!/usr/bin/env bash
# Chain scaling of the dynamics derivatives (issue #16): instructions per call of C-ABA, ∂C-RNEA
# (`grbda derivatives --what rnea`) and ∂C-ABA (`grbda derivatives`) on revolute-with-rotor chains
# of increasing length (tools/make_models.py rotor-chain N, written to a temporary directory), and
# the ratios to C-ABA. Each count is
#   (callgrind(--repeat N) - callgrind(--repeat 1)) / (N - 1)
# (fd: minus --repeat 0), so loading, preparing, sizing and printing are not counted. State: the
# fixed pseudo-random one of count_instructions.sh (inputs in [-0.5, 0.5]).
#
#   tools/count_derivatives_chain.sh [--grbda PATH] [--repeat N] [--lengths "2 4 8 ..."]
#                                    [--md FILE] [--dat FILE]
#
# Defaults: build/tools/grbda, N = 50, lengths 2 4 8 12 16 24 32 48, bench/results/derivatives_chain.{md,dat}.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
grbda="${GRBDA:-$repo/build/tools/grbda}"
repeat=50
lengths="2 4 8 12 16 24 32 48"
md="$repo/bench/results/derivatives_chain.md"
dat="$repo/bench/results/derivatives_chain.dat"
while [ $# -gt 0 ]; do
  case "$1" in
    --grbda) grbda="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --lengths) lengths="$2"; shift 2 ;;
    --md) md="$2"; shift 2 ;;
    --dat) dat="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "count_derivatives_chain.sh: unknown argument $1 (see --help)" >&2; exit 1 ;;
  esac
done
command -v valgrind >/dev/null || { echo "count_derivatives_chain.sh: valgrind is not installed" >&2; exit 1; }
[ "$repeat" -gt 1 ] || { echo "count_derivatives_chain.sh: --repeat must be at least 2" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

count() {
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$grbda" "$@" >/dev/null 2>&1
  awk '/^summary:/ { print $2 }' "$tmp/cg.out"
}
# (count(N) - count(base)) / (N - base) for the command line "$@"
per_call() {
  local base="$1"; shift
  echo $(( ($(count "$@" --repeat "$repeat") - $(count "$@" --repeat "$base")) / (repeat - base) ))
}
vec() { awk -v n="$1" -v seed="$2" 'BEGIN { srand(seed); s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") sprintf("%.6f", rand() - 0.5); print s }'; }

mkdir -p "$(dirname "$md")" "$(dirname "$dat")"
{
  echo "| chain length (nv) | C-ABA | ∂C-RNEA | ∂C-ABA | ∂C-RNEA / C-ABA | ∂C-ABA / C-ABA |"
  echo "|---:|---:|---:|---:|---:|---:|"
} > "$md"
echo "# nv aba rnea_derivatives aba_derivatives" > "$dat"
for n in $lengths; do
  python3 "$here/make_models.py" --out "$tmp" rotor-chain "$n" >/dev/null
  file="$tmp/revolute_rotor_chain_$n.urdf"
  q="$(vec "$n" 1)"; v="$(vec "$n" 2)"; u="$(vec "$n" 3)"
  aba=$(per_call 0 fd "$file" --q "$q" --v "$v" --tau "$u")
  rnea=$(per_call 1 derivatives "$file" --q "$q" --v "$v" --tau "$u" --what rnea)
  daba=$(per_call 1 derivatives "$file" --q "$q" --v "$v" --tau "$u")
  ratios=$(awk -v a="$aba" -v r="$rnea" -v d="$daba" 'BEGIN { printf "%.2f | %.2f", r / a, d / a }')
  echo "| $n | $aba | $rnea | $daba | $ratios |" >> "$md"
  echo "$n $aba $rnea $daba" >> "$dat"
  echo "| $n | $aba | $rnea | $daba | $ratios |"
done
