#!/usr/bin/env bash
# The bundled example: build umbra, then run a compiled Ventus program (Gaussian elimination,
# 8 launches), an OpenCL C kernel compiled for RDNA3 (examples/saxpy) and a HIP program
# (examples/hip_vadd) on umbra's HIP runtime, printing results and statistics.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$("$root/scripts/build.sh" umbra_cli umbra_hip)
umbra="$dir/umbra"
shared=${UMBRA_SHARED_DIR:-$root/../shared}

echo "== Ventus: gaussian_4x8 (compiled by the Ventus toolchain, from $shared)"
"$umbra" ventus run "$shared/testcases/ventus/gaussian_4x8" --dump "$dir/gaussian.dump" --stats "$dir/gaussian.json"
echo "   final buffers: $dir/gaussian.dump   statistics: $dir/gaussian.json"
echo
echo "== RDNA3: examples/saxpy/saxpy.cl compiled with clang-19 for gfx1100"
"$umbra" cc "$root/examples/saxpy/saxpy.cl" -O3 -o "$dir/saxpy.co"
"$umbra" run "$dir/saxpy.co" --kernel saxpy --global 4096 --local 256 \
  --arg buf:iota:f32:4096 --arg buf:iota:f32:4096 --arg f32:2.5 --out 1:"$dir/saxpy.out" --print 1:f32:8
echo
echo "== HIP: examples/hip_vadd/vadd.hip built with clang++-19 for gfx1100, run by umbra hip"
clang++-19 -x hip --offload-arch=gfx1100 --rocm-path=/usr --rocm-device-lib-path="$dir/devicelib" -O2 \
  "$root/examples/hip_vadd/vadd.hip" -o "$dir/vadd"
"$umbra" hip --stats "$dir/vadd.json" -- "$dir/vadd"
echo "   statistics: $dir/vadd.json"
