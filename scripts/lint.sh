#!/usr/bin/env bash
# Verilator -Wall lint of every RTL module as a top: zero warnings allowed.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
export VENV=${SIMT_VENV:-.venv}
# One Verilator run per line "TOP [-Gname=value ...]", on every core at once (one after the
# other they took about 50 s of the target's minute). A line
# "fusesoc TARGET" is FuseSoC's lint target of the core file instead: the same Verilator
# -Wall run of the SM core (lint) and of the UART-bridged FPGA top (lint_fpga) through
# FuseSoC and edalize, so those two tops are not linted directly as well (that was 14 s of
# the minute done twice; make lint had run past it, 2026-12-07).
lint_one() {
  local top gen out
  read -r top gen <<<"$1"
  if [[ "$top" == fusesoc ]]; then
    if out=$("$VENV/bin/fusesoc" --cores-root . run --build-root build/fusesoc \
               --target="$gen" simtcore:simtcore:sm 2>&1); then
      echo "lint: fusesoc --target=$gen clean"; return 0
    fi
    echo "lint: fusesoc --target=$gen FAILED"; echo "$out"; return 1
  fi
  # The packages, the top's file, and the RTL folders as libraries (-y): Verilator reads only
  # the modules the top instantiates (one module per file, named after it), not all 62 files
  # for each of the 60-odd runs (14 of the pool's 50 CPU seconds, 2026-12-07).
  local srcs
  mapfile -t srcs < <(scripts/rtl_files.sh packages; find rtl -name "$top.sv";
                      find rtl -type d -printf '-y\n%p\n')
  # -Wno-SYNCASYNCNET: assertions sample the asynchronous reset synchronously (see the
  # conventions file); everything else is on.
  # shellcheck disable=SC2086  # gen: several -G options
  if ! out=$(verilator --lint-only -Wall -Wno-SYNCASYNCNET --top-module "$top" $gen \
       "${srcs[@]}" 2>&1); then
    echo "lint: $1 FAILED"; echo "$out"; return 1
  elif [[ -n "$out" ]]; then
    echo "lint: $1 has warnings"; echo "$out"; return 1
  fi
  echo "lint: $1 clean"
}
export -f lint_one
# Every module as a top at its defaults, and tops in their other builds: the ULX3S top without
# the core (make bitstream) and with the core on 8 lanes at the board's 1 CTA x 1 warp (the
# ECP5 configuration) and 2 CTAs of up to 4 warps in 8 slots; the SM at 2 CTAs of one warp on
# 8 lanes with 8 FP lanes (an FP instruction in passes), and at CTAs of one warp in 4 slots on
# 8 lanes with 4 FP lanes beside them (degenerate index widths are where lint finds overruns;
# the lane and warp parameters touch different logic, so each SM run covers one of each, the
# SM's own defaults, 32 lanes, in FuseSoC's lint target). The slowest first, so the pool's
# lanes finish together.
{
  printf '%s\n' "fusesoc lint" "simt_sm -GNumWarps=1 -GNumCtas=2 -GNumLanes=8" \
    "simt_sm -GNumWarps=4 -GNumCtas=2 -GCtaWarps=1 -GNumLanes=8 -GFpLanes=4" \
    "simt_ulx3s_top -GNumWarps=1 -GNumCtas=1 -GNumLanes=8" \
    "simt_ulx3s_top -GNumWarps=8 -GNumCtas=2 -GCtaWarps=4 -GNumLanes=8" \
    "fusesoc lint_fpga" "simt_ulx3s_top -GWithCore=0"
  scripts/rtl_files.sh tops | grep -vx -e simt_sm -e simt_fpga_uart_top
} | xargs -P "$(nproc)" -d '\n' -I{} bash -c 'lint_one "$1"' _ {} || fail=1

# slang, the strictest IEEE 1800 front end (pyslang, pinned in the project virtualenv): every
# top in the Verilator, synthesis and formal views; errors and warnings fail
# (scripts/slang_lint.py, docs/portable-sv.md).
"$VENV/bin/python" scripts/slang_lint.py || fail=1

# FuseSoC: the core file lists exactly rtl_files.sh's sources (it is generated from them); its
# lint targets ran in the pool above.
"$VENV/bin/python" scripts/gen_core.py --check || fail=1
exit $fail
