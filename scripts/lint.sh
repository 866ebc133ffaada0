#!/usr/bin/env bash
# Verilator -Wall lint of every RTL module as a top: zero warnings allowed.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t SRCS < <(scripts/rtl_files.sh sources)
fail=0
for top in $(scripts/rtl_files.sh tops); do
  # -Wno-SYNCASYNCNET: assertions sample the asynchronous reset synchronously (see the
  # conventions file); everything else is on.
  if ! out=$(verilator --lint-only -Wall -Wno-SYNCASYNCNET --top-module "$top" "${SRCS[@]}" 2>&1); then
    echo "lint: $top FAILED"; echo "$out"; fail=1
  elif [[ -n "$out" ]]; then
    echo "lint: $top has warnings"; echo "$out"; fail=1
  else
    echo "lint: $top clean"
  fi
done
# Tops also in their other builds: the ULX3S top without the core (make bitstream) and with
# the core on 8 lanes at the board's 1 CTA x 1 warp (the ECP5 configuration) and 2 CTAs x 4 warps,
# and the SM at 2 CTAs of one warp (degenerate index widths are where lint finds overruns).
for variant in "simt_ulx3s_top -GWithCore=0" \
               "simt_ulx3s_top -GNumWarps=1 -GNumCtas=1 -GNumLanes=8" \
               "simt_ulx3s_top -GNumWarps=4 -GNumCtas=2 -GNumLanes=8" \
               "simt_sm -GNumWarps=1 -GNumCtas=2"; do
  read -r top gen <<<"$variant"
  # shellcheck disable=SC2086  # gen: several -G options
  if ! out=$(verilator --lint-only -Wall -Wno-SYNCASYNCNET --top-module "$top" $gen \
       "${SRCS[@]}" 2>&1) || [[ -n "$out" ]]; then
    echo "lint: $top $gen FAILED"; echo "$out"; fail=1
  else
    echo "lint: $top $gen clean"
  fi
done

# slang, the strictest IEEE 1800 front end (pyslang, pinned in the project virtualenv): every
# top in the Verilator, synthesis and formal views; errors and warnings fail
# (scripts/slang_lint.py, docs/portable-sv.md).
VENV=${SIMT_VENV:-.venv}
"$VENV/bin/python" scripts/slang_lint.py || fail=1

# FuseSoC: the core file lists exactly rtl_files.sh's sources (it is generated from them), and
# its lint targets pass through FuseSoC and edalize (Verilator -Wall on the core and on the
# UART-bridged FPGA top).
"$VENV/bin/python" scripts/gen_core.py --check || fail=1
for target in lint lint_fpga; do
  if out=$("$VENV/bin/fusesoc" --cores-root . run --build-root build/fusesoc \
             --target="$target" simtcore:simtcore:sm 2>&1); then
    echo "lint: fusesoc --target=$target clean"
  else
    echo "lint: fusesoc --target=$target FAILED"; echo "$out"; fail=1
  fi
done
exit $fail
