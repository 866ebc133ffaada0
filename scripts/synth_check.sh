#!/usr/bin/env bash
# Every RTL file read and synthesized by Yosys (the portable subset is enforced here): each
# module is synthesized as a top for iCE40, so RAM inference and the constructs Yosys 0.23
# accepts are checked. Fails on any Yosys error. Tops run two at a time.
#
# Most tops use their default parameters. The barrier unit uses 1 CTA x 1 warp: Yosys's proc
# pass on the barrier table's per-thread state takes minutes even there and far longer at the
# defaults (full-size figures are `make synth`'s, docs/synthesis.md). The table is checked
# inside the unit, not again as a top of its own (it would cost as much again).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/synth-check

declare -A PARAMS=(
  [simt_barrier_unit]="-set NumCtas 1 -set Warps 1 -set NumSlots 4"
)

check_one() {
  local top=${1%%|*} params=${1#*|}
  local log=build/synth-check/$top.log
  local srcs
  srcs=$(scripts/rtl_files.sh sources | tr '\n' ' ')
  local chp=""
  [[ -n "$params" ]] && chp="chparam $params $top;"
  if yosys -q -l "$log" -p "read_verilog -sv $srcs; $chp synth_ice40 -top $top; stat" \
       >/dev/null 2>&1; then
    cells=$(grep -E '^\s+Number of cells:' "$log" | tail -1 | awk '{print $4}')
    echo "synth-check: $top ok ($cells cells${params:+, $params})"
  else
    echo "synth-check: $top FAILED (see $log)"; grep -i error "$log" | head -5; return 1
  fi
}
export -f check_one

# Slowest first so the two lanes finish together.
tops=$(scripts/rtl_files.sh tops | sort)
ordered="simt_barrier_unit $(echo "$tops" | grep -v -e '^simt_barrier_table$' -e '^simt_barrier_unit$' | tr '\n' ' ')"
fail=0
for top in $ordered; do
  echo "$top|${PARAMS[$top]:-}"
done | xargs -P 2 -d '\n' -I{} bash -c 'check_one "$1"' _ {} || fail=1
exit $fail
