#!/usr/bin/env bash
# Build the HIP samples of ROCm's hip-tests unmodified and run each under `umbra hip --`.
#
# usage: scripts/hip-samples.sh [--hipcc] [--apis] [--only NAME]... HIP_TESTS_DIR [BUILD_DIR]
#   HIP_TESTS_DIR  a checkout of ROCm/hip-tests (the folder holding samples/), kept outside this
#                  repository, e.g. (rocm-5.4.0 is the oldest tag that has samples/):
#                    git --git-dir=/work/.mirror/ROCm+hip-tests/repo archive rocm-5.4.0 samples |
#                      tar -x -C /work/scratch/hip-tests
#   BUILD_DIR      umbra's build folder (default: build/; scripts/build.sh makes it)
#   --hipcc        also build each sample with Debian's hipcc (clang-15, code object v4)
#   --apis         print the HIP functions each program imports (nm -D --undefined-only)
#   --only NAME    run only the named samples (repeatable; e.g. --only square --only 4_shfl)
# Environment: UMBRA_SAMPLES_WORK (scratch folder, default /tmp/umbra-hip-samples; each sample's
# sources are copied there and built there), UMBRA_SAMPLES_TIMEOUT (seconds per run, default 900),
# UMBRA_HIP_ARGS (options for `umbra hip`, e.g. "--cus 8").
#
# Each sample is built as its own CMakeLists.txt / Makefile builds it, with clang++-19 in the
# place of hipcc (gfx1100, umbra's device-library folder; -O3, as hipcc adds, and -DNDEBUG where
# the CMakeLists sets CMAKE_BUILD_TYPE Release). Output: one line per program,
#   NAME  PASSED|FAILED|BUILD-FAILED  why
# with the build and run logs in the scratch folder. docs/HIP-SAMPLES.md records the results.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
use_hipcc=0 list_apis=0 only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --hipcc) use_hipcc=1; shift ;;
    --apis) list_apis=1; shift ;;
    --only) only+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "hip-samples: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 1 ]; then
  echo "usage: $0 [--hipcc] [--apis] [--only NAME]... HIP_TESTS_DIR [BUILD_DIR]" >&2
  exit 2
fi
samples=$(cd "$1" && pwd)/samples
build=$(cd "${2:-$root/build}" && pwd)
[ -d "$samples/2_Cookbook" ] || { echo "hip-samples: no samples/2_Cookbook under $1" >&2; exit 2; }
umbra=$build/umbra
dl=$build/devicelib
[ -x "$umbra" ] && [ -f "$dl/oclc_isa_version_1100.bc" ] ||
  { echo "hip-samples: $build has no umbra or devicelib (run scripts/build.sh)" >&2; exit 2; }
case "$(realpath -m "${UMBRA_SAMPLES_WORK:-/tmp/umbra-hip-samples}")/" in
  "$root"/*) echo "hip-samples: keep UMBRA_SAMPLES_WORK outside the repository" >&2; exit 2 ;;
esac
work=$(realpath -m "${UMBRA_SAMPLES_WORK:-/tmp/umbra-hip-samples}")
limit=${UMBRA_SAMPLES_TIMEOUT:-900}
read -r -a umbra_args <<<"${UMBRA_HIP_ARGS:-}"
mkdir -p "$work"

# The compilers. hipcc defaults to -O3; clang++-19 gets it explicitly.
CXX19=(clang++-19 -x hip --offload-arch=gfx1100 --rocm-path=/usr --rocm-device-lib-path="$dl")
HIPCC=(env HCC_AMDGPU_TARGET=gfx1100 DEVICE_LIB_PATH="$dl" hipcc)

wanted() {
  [ ${#only[@]} -eq 0 ] && return 0
  local o; for o in "${only[@]}"; do [ "$o" = "$1" ] && return 0; done
  return 1
}

# fresh_copy SAMPLE_SUBDIR TAG: a clean copy of the sample's sources; prints its path.
fresh_copy() {
  local dst="$work/$(basename "$1").$2"
  rm -rf "$dst" && mkdir -p "$dst" && cp -r "$samples/$1/." "$dst/" && echo "$dst"
}

# compile TOOL OUT SRC FLAGS...: one compile-and-link, as the sample's build does it.
compile() {
  local tool=$1 out=$2 src=$3; shift 3
  if [ "$tool" = clang19 ]; then
    "${CXX19[@]}" -O3 "$@" "$src" -o "$out"
  else
    "${HIPCC[@]}" "$@" "$src" -o "$out"
  fi
}

# why LOG: the most telling line of a log (by the first of these patterns that matches: a link
# error, a compiler or HIP error, a failure or fault, anything unusual), else its last line.
why() {
  local l="" p
  for p in "undefined reference|undefined symbol" "error:|Error:|hipError|fault|abort|not implemented|unsupported|not supported" \
           "error|FAILED|failed|mismatch|cannot|unknown|missing"; do
    l=$(grep -a -m1 -E "$p" "$1" | tr -s ' \t' ' ' | cut -c1-160)
    [ -n "$l" ] && break
  done
  [ -n "$l" ] || l=$(grep -a -v '^\s*$' "$1" | tail -n1 | tr -s ' \t' ' ' | cut -c1-160)
  echo "$l"
}

# report NAME RESULT WHY
report() { printf '%-40s %-13s %s\n' "$1" "$2" "$3"; }

apis() {
  [ $list_apis = 1 ] || return 0
  printf '    imports: %s\n' "$(nm -D -C --undefined-only "$1" 2>/dev/null | sed -E 's/^ *U //; s/@.*//; s/\(.*//' |
    grep -E '^(__)?hip' | sort -u | tr '\n' ' ')"
}

# run NAME DIR PASS_REGEX FAIL_REGEX PROGRAM ARGS...: run under umbra in DIR and judge it: exit
# status 0, PASS_REGEX on stdout, FAIL_REGEX nowhere.
run() {
  local name=$1 dir=$2 pass=$3 fail=$4; shift 4
  local log="$dir/run.$(basename "$1").log" out="$dir/run.$(basename "$1").out" rc
  (cd "$dir" && timeout "$limit" "$umbra" hip "${umbra_args[@]}" -- "$@" >"$out" 2>"$log")
  rc=$?
  cat "$out" >>"$log"
  if [ $rc -eq 124 ]; then
    report "$name" FAILED "timed out after ${limit}s: $(why "$log")"
  elif [ $rc -ne 0 ]; then
    report "$name" FAILED "exit status $rc: $(why "$log")"
  elif [ -n "$fail" ] && grep -aqE "$fail" "$log"; then
    report "$name" FAILED "$(grep -a -m1 -E "$fail" "$log" | cut -c1-160)"
  elif ! grep -aqE "$pass" "$out"; then
    report "$name" FAILED "no \"$pass\" in the output: $(why "$log")"
  else
    report "$name" PASSED "$(grep -a -m1 -E "$pass" "$out" | tr -s ' ' | cut -c1-120)"
  fi
  apis "$dir/$1"
}

# simple SUBDIR PROGRAM SOURCE PASS FAIL [FLAGS...]: a one-source sample.
simple() {
  local sub=$1 prog=$2 src=$3 pass=$4 fail=$5; shift 5
  local name; name=$(basename "$sub")
  wanted "$name" || return 0
  local tool tag dir
  for tool in clang19 $([ $use_hipcc = 1 ] && echo hipcc); do
    tag=$tool; dir=$(fresh_copy "$sub" "$tag")
    local label="$name"; [ $tool = hipcc ] && label="$name [hipcc]"
    if ! (cd "$dir" && compile $tool "$prog" "$src" "$@") >"$dir/build.log" 2>&1; then
      report "$label" BUILD-FAILED "$(why "$dir/build.log")"
      continue
    fi
    run "$label" "$dir" "$pass" "$fail" "./$prog"
  done
}

# module_api / module_api_global: a --genco code object next to the host programs.
module_sample() {
  local sub=$1; shift
  local name; name=$(basename "$sub")
  wanted "$name" || return 0
  local tool dir p ok
  for tool in clang19 $([ $use_hipcc = 1 ] && echo hipcc); do
    dir=$(fresh_copy "$sub" "$tool")
    local label="$name"; [ $tool = hipcc ] && label="$name [hipcc]"
    ok=1
    if [ $tool = clang19 ]; then
      (cd "$dir" && "${CXX19[@]}" -O3 --cuda-device-only vcpy_kernel.cpp -o vcpy_kernel.code) >"$dir/build.log" 2>&1 || ok=0
    else
      (cd "$dir" && "${HIPCC[@]}" --genco vcpy_kernel.cpp -o vcpy_kernel.code) >"$dir/build.log" 2>&1 || ok=0
    fi
    if [ $ok = 0 ]; then
      report "$label" BUILD-FAILED "code object: $(why "$dir/build.log")"
      continue
    fi
    for p in "$@"; do
      if ! (cd "$dir" && compile $tool "$p.hip.out" "$p.cpp") >>"$dir/build.log" 2>&1; then
        report "$label/$p" BUILD-FAILED "$(why "$dir/build.log")"
        continue
      fi
      run "$label/$p" "$dir" "PASSED" "FAILED|[Ee]rror" "./$p.hip.out"
    done
  done
}

# 16_assembly_to_executable / 17_llvm_ir_to_executable: the Makefile's steps, host and device
# halves compiled apart, the device code object bundled by clang-offload-bundler and embedded by
# llvm-mc with the sample's own hip_obj_gen.mcin, gfx1100 as the one GPU_ARCH. Three toolchains:
#   clang19  clang++-19 for HIPCC, clang-19, llvm-mc-19, clang-offload-bundler-19, llvm-dis-19 and
#            llvm-as-19 for the Makefile's LLVM tools. It cannot link: since LLVM 17 or so a
#            --cuda-host-only object refers to __hip_fatbin_ and __hip_gpubin_handle_, which only
#            clang's own offload link defines, while hip_obj_gen.mcin defines __hip_fatbin;
#   hipcc    Debian's hipcc with the LLVM it is built on (/usr/lib/llvm-15/bin), the pairing the
#            Makefile assumes (HIP_PATH/../llvm/bin). LLVM 15's assembler rejects the gfx1100
#            assembly LLVM 15 writes for square (v_mad_u64_u32 with overlapping operands), so 16
#            cannot build this way;
#   mixed    hipcc and LLVM 15 for the host half, clang-19 and its tools for the device half.
split_sample() {
  local sub=$1 kind=$2 exe=$3
  local name; name=$(basename "$sub")
  wanted "$name" || return 0
  local tool dir label rc
  local a=gfx1100 dev=square-hip-amdgcn-amd-amdhsa-gfx1100 l15=/usr/lib/llvm-15/bin
  # clang finds the device libraries next to itself in a ROCm install; here they are umbra's.
  local devlibs=(--rocm-path=/usr --rocm-device-lib-path="$dl")
  for tool in clang19 hipcc mixed; do
    dir=$(fresh_copy "$sub" "$tool")
    label=$name; [ $tool != clang19 ] && label="$name [$tool]"
    # host half: hhip (HIPCC on square.cpp), hobj (HIPCC on the host .s / .bc: hipcc adds -x hip
    # only for sources), has/hdis; device half: dhip, clang, das/ddis, bundler, mc
    local hhip hobj has hdis dhip clang das ddis bundler mc link
    if [ $tool = clang19 ]; then
      hhip=(clang++-19 -x hip --rocm-path=/usr --rocm-device-lib-path="$dl" -O3) hobj=(clang++-19 -O3)
      has=llvm-as-19 hdis=llvm-dis-19 link=(clang++-19 --rocm-path=/usr --hip-link -O3)
    else
      hhip=("${HIPCC[@]}") hobj=("${HIPCC[@]}") has=$l15/llvm-as hdis=$l15/llvm-dis link=("${HIPCC[@]}")
    fi
    if [ $tool = hipcc ]; then
      dhip=("${HIPCC[@]}") clang=$l15/clang das=$l15/llvm-as ddis=$l15/llvm-dis
      bundler=$l15/clang-offload-bundler mc=$l15/llvm-mc
    else
      dhip=(clang++-19 -x hip --rocm-path=/usr --rocm-device-lib-path="$dl" -O3) clang=clang-19
      das=llvm-as-19 ddis=llvm-dis-19 bundler=clang-offload-bundler-19 mc=llvm-mc-19
    fi
    (
      set -e
      cd "$dir"
      if [ "$kind" = asm ]; then
        "${hhip[@]}" -c -S --cuda-host-only -target x86_64-linux-gnu -o square_host.s square.cpp
        "${dhip[@]}" -c -S --cuda-device-only --offload-arch=$a square.cpp
        "${hobj[@]}" -c square_host.s -o square_host.o
        $clang -target amdgcn-amd-amdhsa -mcpu=$a "${devlibs[@]}" $dev.s -o $dev.o
      else
        "${hhip[@]}" -c -emit-llvm --cuda-host-only -target x86_64-linux-gnu -o square_host.bc square.cpp
        "${dhip[@]}" -c -emit-llvm --cuda-device-only --offload-arch=$a square.cpp
        $hdis square_host.bc -o square_host.ll
        $ddis $dev.bc -o $dev.ll
        $has square_host.ll -o square_host.bc
        $das $dev.ll -o $dev.bc
        "${hobj[@]}" -c square_host.bc -o square_host.o
        $clang -target amdgcn-amd-amdhsa -mcpu=$a "${devlibs[@]}" $dev.bc -o $dev.o
      fi
      $bundler -type=o -bundle-align=4096 -targets=host-x86_64-unknown-linux,hip-amdgcn-amd-amdhsa-$a \
        -inputs=/dev/null,$dev.o -outputs=offload_bundle.hipfb
      $mc hip_obj_gen.mcin -o square_device.o --filetype=obj
      "${link[@]}" square_host.o square_device.o -o "$exe"
    ) >"$dir/build.log" 2>&1   # not in an `if`: set -e must stay in force inside
    rc=$?
    if [ $rc -ne 0 ]; then
      report "$label" BUILD-FAILED "$(why "$dir/build.log")"
      continue
    fi
    run "$label" "$dir" "PASSED" "FAILED|[Ee]rror" "./$exe"
  done
}

# 23_cmake_hiprtc: saxpy.cpp against hiprtc, which HIP 5.2 keeps inside libamdhip64 (Debian ships
# no hiprtc package config, so -lamdhip64 stands for hiprtc::hiprtc).
hiprtc_sample() {
  local sub=2_Cookbook/23_cmake_hiprtc name=23_cmake_hiprtc
  wanted "$name" || return 0
  local dir; dir=$(fresh_copy "$sub" clang19)
  if ! (cd "$dir" && "${CXX19[@]}" -O3 saxpy.cpp -o test -lamdhip64) >"$dir/build.log" 2>&1; then
    report "$name" BUILD-FAILED "$(why "$dir/build.log")"
    return
  fi
  run "$name" "$dir" "SAXPY test completed" "[Ff]ailed" ./test
}

echo "# hip-tests samples ($samples) on umbra ($build)"
# square: its build first runs hipify-perl on square.cu; Debian has no hipify-perl, so the sample's
# own hipified reference (square.hipref.cpp, what hipify-perl produces) stands for square.cpp.
simple 0_Intro/square square.out square.hipref.cpp "PASSED" "FAILED|error"
# bit_extract: CMake defines __HIP_ENABLE_PCH (not on Windows), so the program checks __hipGetPCH.
simple 0_Intro/bit_extract bit_extract bit_extract.cpp "PASSED" "FAILED|failed|error" -D__HIP_ENABLE_PCH
module_sample 0_Intro/module_api runKernel launchKernelHcc defaultDriver
module_sample 0_Intro/module_api_global runKernel
simple 1_Utils/hipInfo hipInfo hipInfo.cpp "gfx1100" "error" -DNDEBUG
simple 2_Cookbook/0_MatrixTranspose MatrixTranspose MatrixTranspose.cpp "PASSED" "FAILED" -DNDEBUG
simple 2_Cookbook/1_hipEvent hipEvent hipEvent.cpp "PASSED" "FAILED" -DNDEBUG
simple 2_Cookbook/3_shared_memory sharedMemory sharedMemory.cpp "PASSED" "FAILED" -DNDEBUG
simple 2_Cookbook/4_shfl shfl shfl.cpp "PASSED" "FAILED" -DNDEBUG
simple 2_Cookbook/5_2dshfl 2dshfl 2dshfl.cpp "PASSED" "FAILED"
simple 2_Cookbook/6_dynamic_shared dynamic_shared dynamic_shared.cpp "PASSED" "FAILED"
simple 2_Cookbook/7_streams stream stream.cpp "PASSED" "FAILED"
simple 2_Cookbook/9_unroll unroll unroll.cpp "PASSED" "FAILED"
simple 2_Cookbook/10_inline_asm inline_asm inline_asm.cpp "PASSED" "FAILED" -DNDEBUG
# occupancy prints "Manual Test PASSED!" and "Automatic Test PASSED!" (both must appear).
simple 2_Cookbook/13_occupancy occupancy occupancy.cpp "Automatic Test PASSED" "FAILED" -DNDEBUG
# gpu_arch: the kernel computes only on gfx908; on any other GPU the program's correct answer is
# "Error: Kernel is supported for gfx908 architecture" (NOT_SUPPORTED everywhere, no mismatch).
simple 2_Cookbook/14_gpu_arch gpuarch gpuarch.cpp "Kernel is supported for gfx908 architecture" "mismatch|Got Status" -DNDEBUG
split_sample 2_Cookbook/16_assembly_to_executable asm square_asm.out
split_sample 2_Cookbook/17_llvm_ir_to_executable ir square_ir.out
hiprtc_sample
