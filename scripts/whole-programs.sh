#!/usr/bin/env bash
# Whole-program timing fidelity (issue 21): build real programs that time their own kernels, run
# them on umbra's full 96-CU gfx1100 machine under --timing, and compare the figure each prints (or
# the figure its kernel time converts to) with a published measurement on a real RX 7900 XTX.
#
# usage: scripts/whole-programs.sh [--only NAME]... CHECKOUT_DIR... 
#   CHECKOUT_DIR  checkouts kept outside this repository, recognised by their files:
#                   ProjectPhysX/FluidX3D  (src/lbm.cpp)                 -> fluidx3d-fp16s, fluidx3d-fp32
#                   seb-v/fp32_sgemm_amd  (src/kernel3_registers.cpp)    -> sgemm-k3, sgemm-k5
#                   ROCm/composable_kernel at commit 1837040a9 or a checkout with the same
#                     example (example/01_gemm/gemm_wmma_fp16.cpp)       -> ck-wmma-fp16
#                 Get them with the fetch tool / git clone; the checkouts are only read: each is
#                 copied into the work folder and the edits listed below are made in the copy.
#   --only NAME   run only this row (repeatable)
# Environment: UMBRA_BUILD (umbra's build folder, default build/), UMBRA_WP_WORK (work folder,
# default /tmp/umbra-whole-programs), UMBRA_WP_TIMEOUT (seconds per run, default 1800),
# UMBRA_WP_MACHINE (default gfx1100), UMBRA_WP_FLUIDX3D_FP32_GRID (edge of the cubic grid of the
# FP32/FP32 row, default 256 as published; 128 still fills the machine and its 161 MB of DDFs are
# 1.7x the Infinity Cache, docs/TIMING.md; the FP16S row stays at 256: at 128 its 82 MB of DDFs fit
# in the Infinity Cache and the figure is no longer a DRAM figure).
#
# What is set in each program (the programs choose their problem in the source; nothing else is
# changed, and no kernel is touched):
#   FluidX3D    src/setup.cpp, BENCHMARK setup: the published figure is its default 256^3 grid;
#               the grid is kept, the loop `for(i<1000) lbm.run(10u, 1000u*10u)` becomes one
#               `lbm.run(2u, 2u)` (one even and one odd Esoteric-Pull step). fluidx3d-fp16s uses
#               src/defines.hpp as shipped (FP16S storage); fluidx3d-fp32 comments out
#               `#define FP16S` (FP32 storage). FluidX3D times steps with the host clock, which
#               says nothing under simulation, so its MLUPs/s is recomputed from the simulated
#               time of its stream_collide launches: cells / mean launch seconds / 1e6.
#   fp32_sgemm  src/main.cpp: N 4096 -> 2048 (the 4096^3 runs are 137 GFLOP each, hours of
#               simulation), nbRun 16 -> 1, only kernels 3 and 5 (HIP C++; kernel 0 needs
#               rocBLAS, 1 and 2 are 30x and 8x slower to simulate for the same work, 6-8 load
#               hand-written .hsaco files), the rocBLAS include dropped. The program prints
#               "T ms -> G GFLOPS" from hipEventElapsedTime, which umbra reports in simulated time;
#               that G is umbra's figure. At 2048, a 128x128 tile gives 256 workgroups on 96 CUs
#               (2.67 a CU) where the published 4096 run has 1024 (10.67 a CU).
#   composable_kernel  include/ck/stream_config.hpp: the timer's 5 warm-up and 50 timed launches
#               become 0 and 1 (each launch of the published 16384^3 GEMM is 1.07e9 WMMA
#               instructions: 61 minutes of simulation with UMBRA_THREADS=2, about 100 on one
#               host thread, so raise UMBRA_WP_TIMEOUT for this row); include/ck/config.h
#               is written as CMake would with every data type enabled. The example is built with
#               clang++-19 (-Wno-missing-template-arg-list-after-template-kw: clang 19 rejects a
#               construct of this CK version that earlier clangs accepted) with CK's host utility
#               sources, and run as published: `0 2 1 16384 16384 16384 0 0 0` (no verification,
#               integer-valued random inputs, timed). It prints "Perf: T ms, F TFlops" from
#               hipEventElapsedTime, in simulated time under umbra: F is umbra's figure.
#               UMBRA_WP_CK_SIZE sets M = N = K (default 16384, the published size).
#
# Output: one line per row: NAME, published figure, umbra's figure, error; the statistics JSON of
# each run stays in the work folder (NAME.json; `umbra report NAME.json -o NAME.html`).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "whole-programs: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: $0 [--only NAME]... CHECKOUT_DIR..." >&2; exit 2; }
build=$(cd "${UMBRA_BUILD:-$root/build}" && pwd)
umbra=$build/umbra
dl=$build/devicelib
[ -x "$umbra" ] && [ -d "$dl" ] ||
  { echo "whole-programs: $build has no umbra or devicelib (run scripts/build.sh)" >&2; exit 2; }
work=$(realpath -m "${UMBRA_WP_WORK:-/tmp/umbra-whole-programs}")
case "$work/" in "$root"/*) echo "whole-programs: keep UMBRA_WP_WORK outside the repository" >&2; exit 2 ;; esac
mkdir -p "$work"
timeout_s=${UMBRA_WP_TIMEOUT:-1800}
machine=${UMBRA_WP_MACHINE:-gfx1100}

wanted() {
  [ ${#only[@]} -eq 0 ] && return 0
  local n; for n in "${only[@]}"; do [ "$n" = "$1" ] && return 0; done; return 1
}

# row NAME PUBLISHED UMBRA UNIT: one result line with the relative error.
row() {
  python3 - "$@" <<'EOF'
import sys
name, pub, got, unit = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
if got == "FAILED":
    print(f"{name:16s} published {pub:10.1f} {unit:8s} umbra FAILED")
else:
    g = float(got)
    print(f"{name:16s} published {pub:10.1f} {unit:8s} umbra {g:10.1f} {unit:8s} error {100*(g-pub)/pub:+6.1f}%")
EOF
}

# breakdown NAME KERNEL: where KERNEL's wave-cycles went (summed over its launches), its DRAM
# bandwidth and its cache hit rates, from the statistics JSON.
breakdown() {
  python3 - "$work/$1.json" "$2" <<'EOF'
import json, sys
wc, caches, dram, cyc, secs = {}, {}, [0, 0], 0, 0.0
for line in open(sys.argv[1]):
    d = json.loads(line)
    if sys.argv[2] not in d["kernel"]["name"]:
        continue
    for l in d["timing"]["launches"]:
        cyc += l["cycles"]; secs += l["seconds"]
        for k, v in l["wave_cycles"].items():
            wc[k] = wc.get(k, 0) + v
        for c, v in l["caches"].items():
            h, m = caches.get(c, (0, 0))
            caches[c] = (h + v.get("hits", 0), m + v.get("misses", 0))
        dram[0] += l["dram"]["read_bytes"]; dram[1] += l["dram"]["write_bytes"]
if not cyc:
    sys.exit(0)
busy = sum(v for k, v in wc.items() if k != "idle")
parts = ", ".join(f"{k} {100*v/busy:.0f}%" for k, v in sorted(wc.items(), key=lambda x: -x[1])
                  if k != "idle" and v / busy >= 0.01)
hits = ", ".join(f"{c} {100*h/(h+m):.0f}%" for c, (h, m) in caches.items() if h + m)
print(f"    {sys.argv[2]}: {cyc} cycles; resident wave-cycles: {parts}; idle wave slots "
      f"{100*wc.get('idle', 0)/(busy+wc.get('idle', 0)):.0f}%; DRAM {(dram[0]+dram[1])/secs/1e9:.0f} GB/s; "
      f"hit rates {hits}")
EOF
}

# copy_checkout SRC DEST: a fresh copy of the tracked files (the checkout is not modified).
copy_checkout() {
  rm -rf "$2"; mkdir -p "$2"
  if git -C "$1" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$1" ls-files -z -- src main.cpp 2>/dev/null | (cd "$1" && xargs -0 cp --parents -t "$2")
  else
    cp -r "$1/src" "$2/"
  fi
}

# run_umbra API NAME BINARY...: run under the timing model, statistics to NAME.json.
run_umbra() {
  local api=$1 name=$2; shift 2
  rm -f "$work/$name.json"
  (cd "$(dirname "$1")" && nice -n 10 timeout "$timeout_s" "$umbra" "$api" --timing "$machine" \
     --stats "$work/$name.json" -- "$@") >"$work/$name.out" 2>"$work/$name.err"
}

fluidx3d() {
  local src=$1 variant=$2 name=fluidx3d-$2 pub=$3
  wanted "$name" || return 0
  local dir=$work/$name
  copy_checkout "$src" "$dir"
  sed -i -e 's|for(uint i=0u; i<1000u; i++) {|for(uint i=0u; i<1u; i++) { // umbra: one run|' \
         -e 's|lbm.run(10u, 1000u\*10u);|lbm.run(2u, 2u); // umbra: two steps|' "$dir/src/setup.cpp"
  local edge=256
  [ "$variant" = fp32 ] && edge=${UMBRA_WP_FLUIDX3D_FP32_GRID:-256}
  [ "$edge" = 256 ] || sed -i "s|LBM lbm(256u, 256u, 256u, 1.0f); // default|LBM lbm(${edge}u, ${edge}u, ${edge}u, 1.0f); // umbra|" \
    "$dir/src/setup.cpp"
  grep -q 'lbm.run(2u, 2u)' "$dir/src/setup.cpp" ||
    { echo "$name: src/setup.cpp has no BENCHMARK loop to shorten" >&2; row "$name" "$pub" FAILED MLUPs/s; return; }
  if [ "$variant" = fp32 ]; then
    sed -i 's|^#define FP16S|//#define FP16S|' "$dir/src/defines.hpp"
  fi
  if ! (cd "$dir" && nice -n 10 g++ src/*.cpp -o FluidX3D -std=c++17 -pthread -O -Wno-comment \
          -I./src/OpenCL/include -lOpenCL) >"$work/$name.build.log" 2>&1; then
    echo "$name: build failed ($work/$name.build.log)" >&2; row "$name" "$pub" FAILED MLUPs/s; return
  fi
  run_umbra opencl "$name" "$dir/FluidX3D" || { echo "$name: run failed ($work/$name.err)" >&2; }
  local got
  got=$(python3 - "$work/$name.json" <<'EOF'
import json, sys
secs, cells = [], None
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d["kernel"]["name"] != "stream_collide":
        continue
    cells = d["grid"]["global_size"][0]
    secs += [l["seconds"] for l in d["timing"]["launches"]]
print(cells / (sum(secs) / len(secs)) / 1e6 if secs else "FAILED")
EOF
  ) || got=FAILED
  row "$name" "$pub" "$got" MLUPs/s
  breakdown "$name" stream_collide
}

sgemm() {
  local src=$1
  wanted sgemm-k3 || wanted sgemm-k5 || return 0
  local dir=$work/sgemm
  copy_checkout "$src" "$dir"
  sed -e 's|#include "kernel0_rocblas.h"|// umbra: no rocBLAS|' \
      -e 's|const int N = 4096;|const int N = 2048; // umbra: 4096 in the original|' \
      -e 's|constexpr int nbRun = 16;|constexpr int nbRun = 1; // umbra: 16 in the original|' \
      -e '/kernels.push_back(std::make_unique<Kernel[0124678]/d' "$dir/src/main.cpp" >"$dir/src/main_umbra.cpp"
  local f ok=1
  for f in main_umbra kernel3_registers kernel5_lds_optim; do
    local extra=; [ $f = kernel5_lds_optim ] && extra=-mcumode   # as the program's build.sh
    nice -n 10 clang++-19 -x hip --offload-arch=gfx1100 --rocm-path=/usr --rocm-device-lib-path="$dl" \
      -std=c++17 -O3 $extra -c "$dir/src/$f.cpp" -o "$dir/$f.o" >>"$work/sgemm.build.log" 2>&1 || ok=0
  done
  [ $ok = 1 ] && clang++-19 "$dir"/main_umbra.o "$dir"/kernel3_registers.o "$dir"/kernel5_lds_optim.o \
    -lamdhip64 -o "$dir/sgemm" >>"$work/sgemm.build.log" 2>&1 || ok=0
  if [ $ok = 0 ]; then
    echo "sgemm: build failed ($work/sgemm.build.log)" >&2
    row sgemm-k3 22777.0 FAILED GFLOPS; row sgemm-k5 33526.6 FAILED GFLOPS; return
  fi
  run_umbra hip sgemm "$dir/sgemm" || echo "sgemm: run failed ($work/sgemm.err)" >&2
  # The program prints each kernel's name, then "T ms -> G GFLOPS".
  local k3 k5
  k3=$(awk '/^Kernel 3/{f=1;next} f&&/GFLOPS/{print $4; exit}' "$work/sgemm.out"); k3=${k3:-FAILED}
  k5=$(awk '/^Kernel 5/{f=1;next} f&&/GFLOPS/{print $4; exit}' "$work/sgemm.out"); k5=${k5:-FAILED}
  wanted sgemm-k3 && row sgemm-k3 22777.0 "$k3" GFLOPS
  wanted sgemm-k5 && row sgemm-k5 33526.6 "$k5" GFLOPS
  breakdown sgemm kernel3_registers
  breakdown sgemm kernel5_lds_optim
}

ck_wmma() {
  local src=$1 name=ck-wmma-fp16 pub=83.4141 size=${UMBRA_WP_CK_SIZE:-16384}
  wanted "$name" || return 0
  local dir=$work/$name
  rm -rf "$dir"; mkdir -p "$dir"
  cp -r "$src/include" "$src/library" "$dir/"
  mkdir -p "$dir/example"; cp -r "$src/example/01_gemm" "$dir/example/"
  sed -i -e 's|int cold_niters_       = 5;|int cold_niters_       = 0; // umbra: 5 in the original|' \
         -e 's|int nrepeat_           = 50;|int nrepeat_           = 1; // umbra: 50 in the original|' "$dir/include/ck/stream_config.hpp"
  grep -q 'umbra: 50 in the original' "$dir/include/ck/stream_config.hpp" ||
    { echo "$name: include/ck/stream_config.hpp has no cold_niters_/nrepeat_ defaults to set" >&2; row "$name" "$pub" FAILED TFLOPS; return; }
  sed -e 's|#cmakedefine DTYPES "@DTYPES@"||' -e 's|#cmakedefine CK_ENABLE_ALL_DTYPES @CK_ENABLE_ALL_DTYPES@|#define CK_ENABLE_ALL_DTYPES ON|' \
      -e 's|#cmakedefine \([A-Z0-9_]*\) @.*@|/* \1: not set */|' "$dir/include/ck/config.h.in" >"$dir/include/ck/config.h"
  local cxx=(clang++-19 -x hip --offload-arch=gfx1100 --rocm-path=/usr --rocm-device-lib-path="$dl" -O3 -std=c++17
             -Wno-missing-template-arg-list-after-template-kw -I "$dir/include" -I "$dir/library/include")
  local f ok=1
  for f in example/01_gemm/gemm_wmma_fp16 library/src/utility/host_tensor library/src/utility/device_memory; do
    nice -n 10 "${cxx[@]}" -I "$dir/example/01_gemm" -c "$dir/$f.cpp" -o "$dir/$(basename "$f").o" \
      >>"$work/$name.build.log" 2>&1 || ok=0
  done
  [ $ok = 1 ] && clang++-19 --rocm-path=/usr --hip-link -fuse-ld=lld "$dir"/gemm_wmma_fp16.o "$dir"/host_tensor.o \
    "$dir"/device_memory.o -o "$dir/example_gemm_wmma_fp16" >>"$work/$name.build.log" 2>&1 || ok=0
  if [ $ok = 0 ]; then
    echo "$name: build failed ($work/$name.build.log)" >&2; row "$name" "$pub" FAILED TFLOPS; return
  fi
  run_umbra hip "$name" "$dir/example_gemm_wmma_fp16" 0 2 1 "$size" "$size" "$size" 0 0 0 ||
    echo "$name: run failed ($work/$name.err)" >&2
  local got
  got=$(awk '/^Perf:/{print $4; exit}' "$work/$name.out"); got=${got:-FAILED}
  [ "$size" = 16384 ] || echo "$name: M = N = K = $size; the published figure is for 16384" >&2
  row "$name" "$pub" "$got" TFLOPS
  breakdown "$name" kernel_gemm_wmma
}

# Published figures (docs/TIMING.md "Whole programs" cites them):
#   FluidX3D README, performance table, row "Radeon RX 7900 XTX": 3665 (FP32/FP32), 7644 (FP32/FP16S)
#   seb-v/fp32_sgemm_amd README: Kernel 3 6.0341 ms 22777.0 GFLOPS; Kernel 5 4.0994 ms 33526.6 GFLOPS
#   composable_kernel example_gemm_wmma_fp16 on an RX 7900 XTX, evshiron/rocm_lab issue 14 (2023-10-09):
#     "Perf: 105.451 ms, 83.4141 TFlops, ... DeviceGemmWmma_CShuffle<128, 64, 128, 64, 8, 16, 16, 2, 4>"

for co in "$@"; do
  co=$(cd "$co" && pwd) || exit 2
  if [ -f "$co/src/lbm.cpp" ] && [ -f "$co/src/setup.cpp" ]; then
    fluidx3d "$co" fp16s 7644
    fluidx3d "$co" fp32 3665
  elif [ -f "$co/src/kernel3_registers.cpp" ]; then
    sgemm "$co"
  elif [ -f "$co/example/01_gemm/gemm_wmma_fp16.cpp" ] && [ -f "$co/include/ck/stream_config.hpp" ]; then
    ck_wmma "$co"
  else
    echo "whole-programs: $co is neither FluidX3D, fp32_sgemm_amd nor composable_kernel" >&2
  fi
done
