#!/usr/bin/env bash
# Host instructions per wave-instruction in timing mode, counted by valgrind's callgrind
# (independent of the machine's load), as bench/rdna3/host_insts.sh does for functional mode: each
# kernel at two problem sizes, the difference of host instructions over the difference of
# wave-instructions.
#   bench/timing/host_insts_timing.sh [UMBRA [KERNEL_DIR] [MACHINE]]
# KERNEL_DIR holds the *.w32.co files bench_rdna3 builds (build/bench/rdna3).
set -euo pipefail
umbra=${1:-build/umbra}
k=${2:-build/bench/rdna3}
machine=${3:-gfx1100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

count() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$umbra" run "$@" --timing --machine "$machine" \
        --stats "$tmp/s.json" --quiet 2>&1 | sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,
    python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['warp_instructions'])" "$tmp/s.json"
}
steady() {
    python3 -c "import sys; a, b = sys.argv[2].split(), sys.argv[3].split(); \
print(f'{sys.argv[1]:8} {(int(b[0]) - int(a[0])) / (int(b[1]) - int(a[1])):7.1f} host instructions per wave-instruction')" "$@"
}
alu() { count "$k/alu_loop.w32.co" --kernel alu_loop --global 8192 --local 256 --arg buf:zeros:32768 --arg "i32:$1"; }
nbody() {
    count "$k/nbody.w32.co" --kernel nbody --global "$1" --local 64 --arg "buf:fill:f32:$(($1 * 4)):0.5" \
        --arg "buf:fill:f32:$(($1 * 4)):0.1" --arg "buf:zeros:$(($1 * 16))" --arg "buf:zeros:$(($1 * 16))" \
        --arg "buf:zeros:$(($1 * 4))" --arg "i32:$1" --arg f32:0.01 --arg f32:0.01
}
matmul() {
    count "$k/matmul_tiled.w32.co" --kernel matmul_tiled --global "$1,$1" --local 16,16 \
        --arg "buf:fill:f32:$(($1 * $1)):1" --arg "buf:fill:f32:$(($1 * $1)):2" --arg "buf:zeros:$(($1 * $1 * 4))" \
        --arg "u32:$1" --arg "u32:$1" --arg "u32:$1"
}
steady alu_loop "$(alu 256 | tr '\n' ' ')" "$(alu 512 | tr '\n' ' ')"
steady nbody "$(nbody 256 | tr '\n' ' ')" "$(nbody 512 | tr '\n' ' ')"
steady matmul "$(matmul 64 | tr '\n' ' ')" "$(matmul 96 | tr '\n' ' ')"
