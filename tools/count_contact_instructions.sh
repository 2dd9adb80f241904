#!/usr/bin/env bash
# Instructions per call of constrained forward dynamics (callgrind), the contacts table of
# bench/RESULTS.md. For each robot and constraint set and each method (cluster = C-ABA without
# the constraints, pv, pv-soft, kkt, proximal with 1 iteration, pv-early, ltl, ltl-soft) it runs
#   valgrind --tool=callgrind grbda fd MODEL CONSTRAINTS --method M --q Q --v V --tau U --repeat N
# and the same with --repeat 1, and prints (count(N) - count(1)) / (N - 1) as a markdown table, plus a
# data file (robot, set, rows, then one column per method) for the plot when --data FILE is given.
#
#   tools/count_contact_instructions.sh [--grbda PATH] [--repeat N] [--data FILE]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
grbda="${GRBDA:-$repo/build/tools/grbda}"
repeat=50
data=""
while [ $# -gt 0 ]; do
  case "$1" in
    --grbda) grbda="${2:?}"; shift 2 ;;
    --repeat) repeat="${2:?}"; shift 2 ;;
    --data) data="${2:?}"; shift 2 ;;
    -h|--help) sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "count_contact_instructions.sh: unknown argument '$1'" >&2; exit 1 ;;
  esac
done
command -v valgrind >/dev/null || { echo "count_contact_instructions.sh: needs valgrind" >&2; exit 1; }
[ -x "$grbda" ] || { echo "count_contact_instructions.sh: no grbda at $grbda (build it or pass --grbda)" >&2; exit 1; }

# A fixed state: joint angles and inputs in [-0.5, 0.5], identity base orientation.
state() {  # nq nv -> "--q Q --v V --tau U"
  local nq=$1 nv=$2
  awk -v nq="$nq" -v nv="$nv" 'BEGIN { srand(7);
    q = "0,0,0.3,1,0,0,0"; for (i = 7; i < nq; i++) q = q "," sprintf("%.3f", rand() - 0.5);
    v = ""; for (i = 0; i < nv; i++) v = v (i ? "," : "") sprintf("%.3f", rand() - 0.5);
    t = ""; for (i = 0; i < nv; i++) t = t (i ? "," : "") sprintf("%.3f", rand() - 0.5);
    printf "--q %s --v %s --tau %s", q, v, t }'
}

count() {  # args... -> instructions of the whole run
  local out
  out=$(mktemp "${TMPDIR:-/tmp}/callgrind.XXXXXX")
  valgrind --tool=callgrind --callgrind-out-file="$out" "$grbda" "$@" >/dev/null 2>&1
  awk '/^summary:/ { print $2 }' "$out"
  rm -f "$out"
}

per_call() {  # model constraints... -- method
  local n0 n1
  n0=$(count fd "$@" --repeat 1)  # load, prepare, the first (sizing) call and the printing
  n1=$(count fd "$@" --repeat "$repeat")
  echo $(( (n1 - n0) / (repeat - 1) ))
}

declare -a sets=(
  "mini_cheetah|0 feet|"
  "mini_cheetah|1 foot (F3)|--contact FR_foot"
  "mini_cheetah|2 feet|--contact FR_foot --contact FL_foot"
  "mini_cheetah|3 feet|--contact FR_foot --contact FL_foot --contact HR_foot"
  "mini_cheetah|4 feet (4F3)|--contact FR_foot --contact FL_foot --contact HR_foot --contact HL_foot"
  "mit_humanoid|2F weld + 2H point|--weld right_foot --weld left_foot --contact right_hand --contact left_hand"
  "jvrc1_humanoid|2F + 2H welds|--weld right-foot --weld left-foot --weld right-hand --weld left-hand"
)

echo "| robot | constraints | rows | C-ABA (no constraints) | pv | pv-soft | kkt | proximal (1 it.) | pv-early | ltl | ltl-soft | proximal-sparse (1 it.) | pv / C-ABA | pv-soft / C-ABA | pv / kkt | pv / proximal-sparse |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
[ -n "$data" ] && echo "# robot set rows cluster pv pv-soft kkt proximal1 pv-early ltl ltl-soft proximal-sparse1" > "$data"
for entry in "${sets[@]}"; do
  IFS='|' read -r robot label constraints <<<"$entry"
  model="$repo/models/$robot.urdf"
  info=$("$grbda" info "$model" --json)
  nq=$(grep -o '"nq": *[0-9]*' <<<"$info" | head -n 1 | grep -o '[0-9]*$')
  nv=$(grep -o '"nv": *[0-9]*' <<<"$info" | head -n 1 | grep -o '[0-9]*$')
  # shellcheck disable=SC2046
  st=$(state "$nq" "$nv")
  read -r -a cargs <<<"$constraints"
  rows=0
  for word in $constraints; do
    case "$word" in --contact) rows=$((rows + 3)) ;; --weld) rows=$((rows + 6)) ;; esac
  done
  # shellcheck disable=SC2086
  aba=$(per_call "$model" $st --method cluster)
  if [ "$rows" -eq 0 ]; then
    # shellcheck disable=SC2086
    pv=$(per_call "$model" $st --method pv); soft="-"; kkt=$(per_call "$model" $st --method kkt); prox="-"
    # shellcheck disable=SC2086
    early=$(per_call "$model" $st --method pv-early); ltl=$(per_call "$model" $st --method ltl); ltlsoft="-"
    # shellcheck disable=SC2086
    sparse=$(per_call "$model" $st --method proximal-sparse --prox-iters 1)
  else
    # shellcheck disable=SC2086
    pv=$(per_call "$model" "${cargs[@]}" $st --method pv)
    # shellcheck disable=SC2086
    soft=$(per_call "$model" "${cargs[@]}" $st --method pv-soft --compliance 1e-6)
    # shellcheck disable=SC2086
    kkt=$(per_call "$model" "${cargs[@]}" $st --method kkt)
    # shellcheck disable=SC2086
    prox=$(per_call "$model" "${cargs[@]}" $st --method proximal --prox-iters 1)
    # shellcheck disable=SC2086
    early=$(per_call "$model" "${cargs[@]}" $st --method pv-early)
    # shellcheck disable=SC2086
    ltl=$(per_call "$model" "${cargs[@]}" $st --method ltl)
    # shellcheck disable=SC2086
    ltlsoft=$(per_call "$model" "${cargs[@]}" $st --method ltl-soft --compliance 1e-6)
    # shellcheck disable=SC2086
    sparse=$(per_call "$model" "${cargs[@]}" $st --method proximal-sparse --prox-iters 1)
  fi
  ratio() { [ "$1" = "-" ] && echo "-" || awk -v a="$1" -v b="${2:-$aba}" 'BEGIN { printf "%.2f", a / b }'; }
  echo "| $robot | $label | $rows | $aba | $pv | $soft | $kkt | $prox | $early | $ltl | $ltlsoft | $sparse | $(ratio "$pv") | $(ratio "$soft") | $(ratio "$pv" "$kkt") | $(ratio "$pv" "$sparse") |"
  [ -n "$data" ] && echo "$robot \"$label\" $rows $aba $pv ${soft/-/nan} $kkt ${prox/-/nan} $early $ltl ${ltlsoft/-/nan} $sparse" >> "$data"
done
