#!/usr/bin/env bash
# Install the Debian packages umbra needs, if any are missing (run as root on Debian 12).
set -euo pipefail

packages=(
  build-essential cmake pkg-config python3
  clang-19 llvm-19 lld-19          # compile RDNA3 kernels; llvm-mc-19 / llvm-objdump-19 are test oracles
  libmsgpack-dev                   # AMDGPU metadata notes
)
if [ "${UMBRA_BENCH_DEPS:-0}" = 1 ]; then
  packages+=(pocl-opencl-icd ocl-icd-opencl-dev opencl-headers)   # native reference for bench/
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "umbra: installing missing packages: ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
  echo "umbra: run as root (or install them yourself): apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
