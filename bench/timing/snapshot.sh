#!/usr/bin/env bash
# The timing model's answers, for checking that a speed change leaves them unchanged: the
# statistics JSON (its "timing" object and the functional counts, not the host time) and the output buffer's checksum of corpus runs at the
# benchmark sizes (bench/rdna3), wave32 and wave64, and the timeline of one run. Host times are
# left out. Compare two snapshots with diff.
#   bench/timing/snapshot.sh OUT_DIR [UMBRA [KERNEL_DIR]]
# KERNEL_DIR holds the *.w32.co / *.w64.co files bench_rdna3 builds (build/bench/rdna3).
set -euo pipefail
out=$1
umbra=${2:-build/umbra}
k=${3:-build/bench/rdna3}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name, wave width, umbra run arguments...: the timing object and the checksum of buffer OUTARG
snap() {
    local name=$1 w=$2 outarg=$3
    shift 3
    "$umbra" run "$@" --timing --machine gfx1100 --stats "$tmp/s.json" --out "$outarg:$tmp/o.bin" \
        --timeline "$tmp/t.json" --quiet 2>/dev/null
    python3 - "$tmp/s.json" > "$out/$name.w$w.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for k in ("host_seconds", "warp_instructions_per_second", "umbra"):
    s.pop(k, None)
print(json.dumps(s, indent=1, sort_keys=True))
PY
    sha256sum < "$tmp/o.bin" | cut -d' ' -f1 > "$out/$name.w$w.out"
    sha256sum < "$tmp/t.json" | cut -d' ' -f1 > "$out/$name.w$w.timeline"
}
for w in 32 64; do
    [ -f "$k/alu_loop.w$w.co" ] || continue
    snap alu_loop $w 0 "$k/alu_loop.w$w.co" --kernel alu_loop --global 8192 --local 256 --arg buf:zeros:32768 --arg i32:256
    n=2048
    snap nbody $w 2 "$k/nbody.w$w.co" --kernel nbody --global $n --local 64 --arg "buf:fill:f32:$((n * 4)):0.5" \
        --arg "buf:fill:f32:$((n * 4)):0.1" --arg "buf:zeros:$((n * 16))" --arg "buf:zeros:$((n * 16))" \
        --arg "buf:zeros:$((n * 4))" --arg "i32:$n" --arg f32:0.01 --arg f32:0.01
    # 128: 512 waves, all resident; 256: 2048 resident waves, with prefetching; 384: 4608 waves,
    # more than fit, so waves and workgroup records are reused
    for n in 128 256 384; do
        name=matmul; [ $n = 128 ] || name=matmul$n
        snap $name $w 2 "$k/matmul_tiled.w$w.co" --kernel matmul_tiled --global "$n,$n" --local 16,16 \
            --arg "buf:rand:u32:$((n * n))" --arg "buf:rand:u32:$((n * n))" --arg "buf:zeros:$((n * n * 4))" \
            --arg "i32:$n" --arg "i32:$n" --arg "i32:$n"
    done
done
