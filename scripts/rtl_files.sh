#!/usr/bin/env bash
# Lists the RTL sources in dependency order (package first) and the block tops.
# Usage: rtl_files.sh sources | packages | tops
set -euo pipefail
cd "$(dirname "$0")/.."
packages() {
  echo rtl/common/simt_pkg.sv
  echo rtl/mem/simt_mem_pkg.sv
  echo rtl/sm/simt_sm_pkg.sv
  echo rtl/fpu/simt_fpu_pkg.sv
}
case "${1:-sources}" in
  sources)
    packages
    find rtl -name '*.sv' ! -name '*_pkg.sv' | sort
    ;;
  packages) packages ;;
  tops)
    # Every module is checked as a top of its own: one module per file, named after it.
    find rtl -name '*.sv' ! -name '*_pkg.sv' -exec basename {} .sv \; | sort
    ;;
  *) echo "usage: $0 sources|packages|tops" >&2; exit 2 ;;
esac
