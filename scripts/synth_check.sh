#!/usr/bin/env bash
# Every RTL file read and synthesized by Yosys (the portable subset is enforced here): each
# module is synthesized as a top for iCE40 at its default parameters, so RAM inference and
# the constructs Yosys 0.23 accepts are checked. Fails on any Yosys error.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t SRCS < <(scripts/rtl_files.sh sources)
mkdir -p build/synth-check
fail=0
for top in $(scripts/rtl_files.sh tops); do
  log=build/synth-check/$top.log
  if yosys -q -l "$log" -p "read_verilog -sv ${SRCS[*]}; synth_ice40 -top $top; stat" \
       >/dev/null 2>&1; then
    cells=$(grep -E '^\s+Number of cells:' "$log" | tail -1 | awk '{print $4}')
    echo "synth-check: $top ok ($cells cells)"
  else
    echo "synth-check: $top FAILED (see $log)"; grep -i error "$log" | head -5; fail=1
  fi
done
exit $fail
