#!/usr/bin/env bash
# Steady-state host instructions per wave-instruction of the RDNA3 benchmark kernels, counted by
# valgrind's callgrind (independent of the machine's load): each kernel runs at two problem sizes,
# and the difference of the host instruction counts is divided by the difference of the
# wave-instructions, which leaves out launch and set-up.
#   bench/rdna3/host_insts.sh [UMBRA [KERNEL_DIR]]
# UMBRA defaults to build-rel/umbra; KERNEL_DIR (the *.w32.co files bench_rdna3 builds) to
# build-rel/bench/rdna3. UMBRA_RUN_EXTRA adds options to every run (timing mode:
# bench/timing/host_insts_timing.sh).
set -euo pipefail
umbra=${1:-build-rel/umbra}
k=${2:-build-rel/bench/rdna3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# prints "<host instructions> <wave-instructions>" of one run
count() {
    # shellcheck disable=SC2086  # UMBRA_RUN_EXTRA is a list of options
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$umbra" run "$@" ${UMBRA_RUN_EXTRA:-} \
        --stats "$tmp/s.json" --quiet 2>&1 |
        sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,
    python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['warp_instructions'])" "$tmp/s.json"
}
steady() {   # name, counts of the small run, counts of the large run
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
        --arg "buf:rand:u32:$(($1 * $1))" --arg "buf:rand:u32:$(($1 * $1))" --arg "buf:zeros:$(($1 * $1 * 4))" \
        --arg "i32:$1" --arg "i32:$1" --arg "i32:$1"
}
steady alu_loop "$(alu 256)" "$(alu 512)"
steady nbody "$(nbody 256)" "$(nbody 512)"
steady matmul "$(matmul 64)" "$(matmul 96)"
