#!/usr/bin/env bash
# Installs the Debian packages simtcore needs, only those missing.
# Idempotent: when everything is present it only runs one dpkg-query (about a second).
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config
  verilator yosys z3 nextpnr-ice40 fpga-icestorm
  gtkwave xvfb
  libgtest-dev libgmock-dev libboost-program-options-dev nlohmann-json3-dev libfmt-dev
  zlib1g-dev
  clang-16 llvm-16-dev libclang-16-dev libclc-16
)

missing=()
for p in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

echo "bootstrap: installing ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null 2>&1 || { echo "bootstrap: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "bootstrap: done" >&2
