#!/usr/bin/env bash
# Install the Debian packages umbra needs, if any are missing (run as root on Debian 12).
set -euo pipefail

packages=(
  build-essential cmake pkg-config python3
  clang-19 llvm-19 lld-19          # compile RDNA3 kernels; llvm-mc-19 / llvm-objdump-19 are test oracles
  llvm-19-dev                      # the translator (UMBRA_JIT): LLVM 19 ORC JIT, C API (docs/TRANSLATOR.md)
  libmsgpack-dev                   # AMDGPU metadata notes
  rocm-device-libs                 # AMD's OpenCL builtins (opencl.bc, ocml.bc, ockl.bc, oclc_*.bc)
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers   # the OpenCL platform (ICD loader, headers)
  pocl-opencl-icd clinfo clpeak python3-pyopencl python3-numpy   # independent OpenCL clients and references
  libjansson-dev                   # reading statistics JSON (umbra report)
  libfyaml-dev                     # machine descriptions (timing model)
  libclang-rt-19-dev               # libFuzzer and ThreadSanitizer runtimes for clang-19
  chromium                         # headless rendering test of the HTML report
  python3-mpmath                   # arbitrary-precision references of the builtin-function tests
  clblast-tests clfft-client       # CLBlast's correctness tests and clFFT's client: unmodified OpenCL applications (opencl.clblast, opencl.clfft)
  python3-simtk libopenmm-plugins  # OpenMM 7.7 and its OpenCL platform: an unmodified application (opencl.openmm)
  libamdhip64-dev hipcc            # the HIP runtime is built against Debian's HIP 5.2 headers; HIP test programs built with hipcc too
  clang-tools-19                   # clang-offload-bundler-19 (HIP fat binaries: scripts/hip-samples.sh)
  spirv-headers                    # building newer Khronos OpenCL CTS tags (scripts/cts.sh)
)

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
