#!/usr/bin/env bash
# Instructions per call of the dynamics algorithms (issue #7, the second metric next to timings).
# For every robot, command (fd, id, and osim when the grbda command has it) and --method
# (cluster, projection, lagrange, proximal with 1 and 5 iterations, approximate), and
# mass-matrix --inverse (ℳ⁻¹, shown as a multiple of C-ABA), runs
#   valgrind --tool=callgrind grbda CMD MODEL --q Q --v V --tau/--a U --method M --repeat N
# and the same with --repeat 1 (load, parse, prepare, the first call, which sizes the workspace,
# and printing the result), and prints a markdown table of
#   (count(N) - count(1)) / (N - 1)
# i.e. the cost of one call on a prepared model and state. The state is a fixed pseudo-random
# one (joint angles and inputs in [-0.5, 0.5], identity base orientation).
#
#   tools/count_instructions.sh [--grbda PATH] [--models DIR] [--repeat N] [--robots a,b,...]
#                               [--commands fd,id,osim,derivatives,derivatives-rnea]
#
# Defaults: grbda from build/tools/grbda (or GRBDA, or the PATH), the repository's models/,
# N = 100, the six per-robot benchmark models (Tello is built in code: `grbda ... builtin:tello`),
# every command the grbda build has (derivatives: ∂C-ABA, the analytic derivatives of fd;
# derivatives-rnea: ∂C-RNEA alone, `grbda derivatives --what rnea`, at the fd solution).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
grbda="${GRBDA:-}"
models="${GRBDA_MODELS_DIR:-$repo/models}"
repeat=100
robots="revolute_rotor_chain_12,revolute_belt_pair_chain_12,mini_cheetah,mit_humanoid,tello,jvrc1_humanoid"
only_commands=""

die() { echo "count_instructions.sh: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
  case "$1" in
    --grbda) grbda="${2:?--grbda needs a path}"; shift 2 ;;
    --models) models="${2:?--models needs a directory}"; shift 2 ;;
    --repeat) repeat="${2:?--repeat needs a count}"; shift 2 ;;
    --robots) robots="${2:?--robots needs a list}"; shift 2 ;;
    --commands) only_commands="${2:?--commands needs a list}"; shift 2 ;;
    -h|--help) sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] && [ "$repeat" -ge 2 ] || die "--repeat must be an integer of at least 2"

if ! command -v valgrind >/dev/null 2>&1; then
  die "valgrind is not installed; it counts the instructions (Debian: apt-get install valgrind, or run tools/install_deps.sh)"
fi
if [ -z "$grbda" ]; then
  if [ -x "$repo/build/tools/grbda" ]; then grbda="$repo/build/tools/grbda"
  elif command -v grbda >/dev/null 2>&1; then grbda="$(command -v grbda)"
  else die "cannot find the grbda command: build it (cmake --build build) or pass --grbda PATH"; fi
fi
[ -x "$grbda" ] || die "not an executable: $grbda"

model_file() {
  case "$1" in
    revolute_rotor_chain_12|revolute_belt_pair_chain_12) echo "$models/generated/$1.urdf" ;;
    tello) echo "builtin:tello" ;;
    */*|*.urdf) echo "$1" ;;
    *) echo "$models/$1.urdf" ;;
  esac
}

# Which methods the grbda command offers for CMD: the names listed after "algorithm:" in the
# --method help (older builds without --method: just the default algorithm). Proximal is counted
# with --prox-iters 1 and 5 (a maximum: the solver stops once the constraints hold to its tolerance).
methods_for() {
  local help list
  help="$("$grbda" help "$1" 2>/dev/null | tr '\n' ' ' | tr -s ' ')"
  if ! grep -q -- '--method' <<<"$help"; then echo "default"; return; fi
  list="$(sed -n 's/.*--method NAME algorithm: \([a-z, -]*\) (default.*/\1/p' <<<"$help" | tr -d ',')"
  for m in cluster projection lagrange proximal approximate; do
    case " $list " in
      *" $m "*) if [ "$m" = proximal ]; then echo proximal:1; echo proximal:5; else echo "$m"; fi ;;
    esac
  done
}

# End-effector of the osim count: the link `grbda bench` uses (the deepest leaf cluster; one
# 6-D end-effector per robot, as in the papers).
osim_points() {
  case "$1" in
    revolute_rotor_chain_12|revolute_belt_pair_chain_12) echo "link-11" ;;
    mini_cheetah) echo "FR_knee_link" ;;
    mit_humanoid) echo "right_ankle_link" ;;
    tello) echo "left-foot" ;;
    jvrc1_humanoid) echo "left-wrist-yaw" ;;
    *) echo "" ;;
  esac
}

has_command() { "$grbda" help "$1" >/dev/null 2>&1; }

# "a,b,c" of n pseudo-random numbers in [-0.5, 0.5]; quaternion coordinates (names ending
# :qw/:qx/:qy/:qz) are the identity.
vector_for_names() {
  awk -v seed="$2" -v names="$1" 'BEGIN {
    srand(seed); n = split(names, a, "\t"); s = "";
    for (i = 1; i <= n; i++) {
      if (a[i] ~ /:qw$/) x = 1; else if (a[i] ~ /:q[xyz]$/) x = 0; else x = rand() - 0.5;
      s = s (i > 1 ? "," : "") sprintf("%.6f", x);
    }
    print s }'
}

# Names from `grbda info --json`: the one-line array after "KEY":, tab-separated.
json_names() {
  grep -m1 "\"$2\":" <<<"$1" | sed -e 's/^[^[]*\[//' -e 's/\][^]]*$//' -e 's/", "/\t/g' -e 's/"//g'
}

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Instructions executed by one grbda run (callgrind's "Collected" total).
count() {
  if ! valgrind --tool=callgrind --callgrind-out-file="$tmp/callgrind.out" "$grbda" "$@" >"$tmp/out" 2>"$tmp/err"; then
    echo "count_instructions.sh: grbda $* failed:" >&2
    grep -v '^==' "$tmp/err" >&2 || true
    return 1
  fi
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/err" | tail -1
}

echo "Instructions per call: (callgrind count with --repeat $repeat - count with --repeat 1) / $((repeat - 1))"
echo "(neither loading, the first call, which sizes the workspace, nor printing the result is counted)"
# Reports are committed: name the command relative to the repository, never by a machine path.
case "$grbda" in
  "$repo"/*) shown="${grbda#"$repo"/}" ;;
  /*) shown="$(basename "$grbda") (outside the repository)" ;;
  *) shown="$grbda" ;;
esac
echo "grbda: $shown"
echo
echo "| robot | command | method | instructions per call | vs cluster |"
echo "|---|---|---|---:|---:|"
commands=(fd id)
has_command osim && commands+=(osim)
has_command derivatives && commands+=(derivatives)
"$grbda" help derivatives 2>/dev/null | grep -q -- '--what' && commands+=(derivatives-rnea)
if [ -n "$only_commands" ]; then IFS=',' read -r -a commands <<<"$only_commands"; fi
IFS=',' read -r -a robot_list <<<"$robots"
for robot in "${robot_list[@]}"; do
  file="$(model_file "$robot")"
  case "$file" in
    builtin:*) ;;
    *) [ -f "$file" ] || die "no model file for '$robot': $file" ;;
  esac
  info="$("$grbda" info "$file" --json)"
  q="$(vector_for_names "$(json_names "$info" position_names)" 1)"
  v="$(vector_for_names "$(json_names "$info" velocity_names)" 2)"
  u="$(vector_for_names "$(json_names "$info" velocity_names)" 3)"
  for cmd in "${commands[@]}"; do
    case "$cmd" in
      fd) inputs=(--q "$q" --v "$v" --tau "$u") ;;
      id) inputs=(--q "$q" --v "$v" --a "$u") ;;
      derivatives) inputs=(--q "$q" --v "$v" --tau "$u") ;;
      derivatives-rnea) inputs=(--q "$q" --v "$v" --tau "$u" --what rnea) ;;
      osim)
        inputs=(--q "$q")
        for link in $(osim_points "$robot"); do inputs+=(--point "$link"); done
        [ ${#inputs[@]} -gt 2 ] || { echo "| $robot | osim | - | (no end-effectors known for this model) | |"; continue; } ;;
    esac
    cluster=""
    for method in $(methods_for "$cmd"); do
      case "$method" in
        default) flags=() ;;
        proximal:*) flags=(--method proximal --prox-iters "${method#proximal:}") ;;
        *) flags=(--method "$method") ;;
      esac
      # the base run computes and prints once, so neither the printing (five nv x nv matrices
      # for derivatives, an nv x nv one for mass-matrix) nor the first (sizing) call is counted
      base_repeat=1
      run="$cmd"
      [ "$cmd" = derivatives-rnea ] && run=derivatives
      if ! full="$(count "$run" "$file" "${inputs[@]}" "${flags[@]}" --repeat "$repeat")" ||
         ! base="$(count "$run" "$file" "${inputs[@]}" "${flags[@]}" --repeat "$base_repeat")"; then
        echo "| $robot | $cmd | $method | (failed) | |"
        continue
      fi
      per=$(( (full - base) / (repeat - base_repeat) ))
      if [ "$method" = cluster ] || [ "$method" = default ]; then cluster="$per"; fi
      if [ "$cmd" = fd ] && [ "$method" = cluster ]; then aba="$per"; fi
      rel=""
      if [ -n "$cluster" ] && [ "$method" != cluster ] && [ "$method" != default ]; then
        rel="$(awk -v a="$per" -v b="$cluster" 'BEGIN { printf "%+.1f %%", 100 * (a / b - 1) }')"
      fi
      echo "| $robot | $cmd | $method | $per | $rel |"
    done
  done
  # ℳ⁻¹ from the articulated pass (mass-matrix --inverse), relative to C-ABA (fd, cluster) above.
  if has_command mass-matrix && full="$(count mass-matrix "$file" --q "$q" --inverse --repeat "$repeat")" &&
     base="$(count mass-matrix "$file" --q "$q" --inverse --repeat 1)"; then
    per=$(( (full - base) / (repeat - 1) ))
    rel=""
    [ -n "${aba:-}" ] && rel="$(awk -v a="$per" -v b="$aba" 'BEGIN { printf "%.2f x C-ABA", a / b }')"
    echo "| $robot | mass-matrix --inverse | cluster | $per | $rel |"
  fi
done
