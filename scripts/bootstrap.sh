#!/usr/bin/env bash
# Installs what simtcore needs, only what is missing:
#  1. the Debian packages (apt-get);
#  2. the project's Python virtualenv .venv/ at the repository root with the pinned PyPI tools
#     of scripts/venv-requirements.txt (YoWASP Yosys, nextpnr-ecp5 and ecppack for the ECP5
#     flow; pyslang and FuseSoC for lint). Never into the system Python.
# Idempotent and silent when everything is present: one dpkg-query and one file compare
# (about a second). The venv is rebuilt only when the requirements file differs from the stamp
# the last install left in .venv/ (SIMT_VENV overrides the venv's place).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config
  verilator yosys z3 nextpnr-ice40 fpga-icestorm
  gtkwave xvfb
  libgtest-dev libgmock-dev libboost-program-options-dev nlohmann-json3-dev libfmt-dev
  zlib1g-dev
  clang-16 llvm-16-dev libclang-16-dev libclc-16
  pocl-opencl-icd ocl-icd-opencl-dev
  python3 python3-venv
)

missing=()
for p in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -gt 0 ]]; then
  echo "bootstrap: installing ${missing[*]}" >&2
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || {
      echo "bootstrap: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "bootstrap: done" >&2
fi

# The virtualenv, from Debian's Python (not whatever python3 comes first on PATH).
VENV=${SIMT_VENV:-$ROOT/.venv}
REQ=$ROOT/scripts/venv-requirements.txt
STAMP=$VENV/simtcore-requirements.txt
if [[ -x $VENV/bin/python ]] && cmp -s "$REQ" "$STAMP"; then
  exit 0
fi
PY=/usr/bin/python3
[[ -x $PY ]] || PY=$(command -v python3)
echo "bootstrap: python virtualenv $VENV (scripts/venv-requirements.txt)" >&2
if ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
  rm -rf "$VENV"
  "$PY" -m venv "$VENV"
fi
rm -f "$STAMP"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$REQ"
cp "$REQ" "$STAMP"
echo "bootstrap: virtualenv done" >&2
