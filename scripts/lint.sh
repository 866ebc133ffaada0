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
# Board tops also in their other builds: the ULX3S top without the core (make bitstream).
for variant in "simt_ulx3s_top -GWithCore=0"; do
  read -r top gen <<<"$variant"
  if ! out=$(verilator --lint-only -Wall -Wno-SYNCASYNCNET --top-module "$top" "$gen" \
       "${SRCS[@]}" 2>&1) || [[ -n "$out" ]]; then
    echo "lint: $top $gen FAILED"; echo "$out"; fail=1
  else
    echo "lint: $top $gen clean"
  fi
done
exit $fail
