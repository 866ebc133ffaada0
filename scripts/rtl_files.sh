#!/usr/bin/env bash
# Lists the RTL sources in dependency order (package first) and the block tops.
# Usage: rtl_files.sh sources | tops
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-sources}" in
  sources)
    echo rtl/common/simt_pkg.sv
    echo rtl/mem/simt_mem_pkg.sv
    echo rtl/sm/simt_sm_pkg.sv
    echo rtl/fpu/simt_fpu_pkg.sv
    find rtl -name '*.sv' ! -name '*_pkg.sv' | sort
    ;;
  tops)
    # Every module is checked as a top of its own: one module per file, named after it.
    find rtl -name '*.sv' ! -name '*_pkg.sv' -exec basename {} .sv \; | sort
    ;;
  *) echo "usage: $0 sources|tops" >&2; exit 2 ;;
esac
