#!/usr/bin/env bash
# Measures simt_warp_scheduler: iCE40 HX8K Fmax (median of 3 nextpnr seeds) through the
# measurement shell at a barrier table that fits the HX8K (2 CTAs x 4 ids, 8-bit tags), and
# Yosys synth_xilinx -family xc7 LUT/FF of the bare block at the default barrier table
# (4 CTAs x 16 ids, 22-bit tags), at 8, 16 and 32 warps. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t SRCS < <(scripts/rtl_files.sh sources)
mkdir -p build/measure
echo "| warps | prio bits | iCE40 Fmax MHz (median; seeds 1,2,3) | iCE40 LUT4 / FF (shell) | xc7 LUT / FF (default table) |"
echo "|---|---|---|---|---|"
for n in 8 16 32; do
  p=6; [[ $n == 32 ]] && p=10
  read -r med s1 s2 s3 luts ffs < <(scripts/fmax.sh simt_fpga_shell_scheduler \
      "-set NumWarps $n -set PrioW $p -set NumCtas 2 -set NumBarIds 4 -set TagW 8")
  log=build/measure/xc7_sched_$n.log
  yosys -q -l "$log" -p "read_verilog -sv ${SRCS[*]}; \
      chparam -set NumWarps $n -set PrioW $p simt_warp_scheduler; \
      synth_xilinx -family xc7 -top simt_warp_scheduler; stat" >/dev/null 2>&1
  xl=$(awk '/Printing statistics/{f=1} f && /^ +LUT[1-6] /{s+=$2} END{print s+0}' "$log")
  xf=$(awk '/Printing statistics/{f=1} f && /^ +FD[A-Z]* /{s+=$2} END{print s+0}' "$log")
  echo "| $n | $p | $med ($s1, $s2, $s3) | $luts / $ffs | $xl / $xf |"
done
