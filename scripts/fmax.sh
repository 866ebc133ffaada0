#!/usr/bin/env bash
# Fmax of one top on iCE40 HX8K: Yosys synth_ice40, then nextpnr-ice40 with three placement
# seeds; prints "<median MHz> <seed MHz...> <LUTs> <FFs>" (nextpnr results vary by seed).
# Usage: fmax.sh TOP "chparam arguments" [freq-target-MHz]
set -euo pipefail
cd "$(dirname "$0")/.."
top=$1; params=${2:-}; target=${3:-50}
mapfile -t SRCS < <(scripts/rtl_files.sh sources)
work=build/fmax/$top${params// /}; work=${work//-set/_}
mkdir -p "$work"
chp=""; [[ -n "$params" ]] && chp="chparam $params $top;"
yosys -q -l "$work/yosys.log" -p "read_verilog -sv ${SRCS[*]}; $chp synth_ice40 -top $top -json $work/top.json" >/dev/null 2>&1
luts=$(grep -E '^\s+SB_LUT4' "$work/yosys.log" | tail -1 | awk '{print $2}')
ffs=$(grep -E '^\s+SB_DFF' "$work/yosys.log" | awk '{s+=$2} END {print s+0}')
mhz=()
for seed in 1 2 3; do
  nextpnr-ice40 --hx8k --package ct256 --json "$work/top.json" --pcf constraints/hx8k_shell.pcf \
    --freq "$target" --seed "$seed" --quiet --log "$work/pnr$seed.log" >/dev/null 2>&1 || true
  f=$(grep -E "Max frequency for clock" "$work/pnr$seed.log" | tail -1 | sed -E 's/.*: ([0-9.]+) MHz.*/\1/')
  mhz+=("${f:-fail}")
done
median=$(printf '%s\n' "${mhz[@]}" | grep -v fail | sort -n | awk '{a[NR]=$1} END {if (NR==0) print "fail"; else print a[int((NR+1)/2)]}')
echo "$median ${mhz[*]} $luts $ffs"
