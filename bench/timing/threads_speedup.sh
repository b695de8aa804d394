#!/usr/bin/env bash
# The parallel timing mode's speed-up (docs/PERFORMANCE.md "Timing mode on several host threads"):
# bench_rdna3's three kernels (matmul 256, nbody 2048, alu_loop 65536; the full 96-CU gfx1100
# machine) under the timing model at 1 and 2 host threads.
#   bench/timing/threads_speedup.sh wall [BUILD [ROUNDS]]   wall clock: the two alternate ROUNDS
#       times (default 5); best and median seconds of each, the ratio of the medians, and the
#       median user CPU time of each (two threads' total over one's: what they pay beyond the split)
#   bench/timing/threads_speedup.sh insts [BUILD]           callgrind, one count per host thread
#       (independent of the machine's load): the host instructions at 1 thread, and at 2 threads
#       those of each thread; the ratio of the 1-thread total to the busiest thread's is the
#       speed-up the partitioning allows if the threads run in parallel (no waiting counted)
# UMBRA_SPEEDUP_SIZE=big runs the kernels at sizes whose launches take seconds rather than a
# fraction of one (matmul 512, nbody 8192, alu_loop 524288: 2048 workgroups), so that the
# program's set-up and the first quanta, which run on one thread, weigh little.
set -euo pipefail
mode=${1:-wall}
build=${2:-build}
rounds=${3:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
k="$build/bench/rdna3"
[ -f "$k/matmul_tiled.w32.co" ] || UMBRA_BENCH_TIMING=gfx1100 "$build/bench/rdna3/bench_rdna3" --matmul 16 \
    --nbody 64 --alu 256 --reps 1 >/dev/null
case ${UMBRA_SPEEDUP_SIZE:-small} in
    small) mm=256 nb=2048 al=65536 ;;
    big) mm=512 nb=8192 al=524288 ;;
    *) echo "threads_speedup.sh: UMBRA_SPEEDUP_SIZE is small or big" >&2; exit 2 ;;
esac
matmul() { echo "$k/matmul_tiled.w32.co --kernel matmul_tiled --global $mm,$mm --local 16,16 --arg buf:rand:u32:$((mm * mm)) \
--arg buf:rand:u32:$((mm * mm)) --arg buf:zeros:$((mm * mm * 4)) --arg i32:$mm --arg i32:$mm --arg i32:$mm"; }
nbody() { echo "$k/nbody.w32.co --kernel nbody --global $nb --local 64 --arg buf:fill:f32:$((nb * 4)):0.5 \
--arg buf:fill:f32:$((nb * 4)):0.1 --arg buf:zeros:$((nb * 16)) --arg buf:zeros:$((nb * 16)) --arg buf:zeros:$((nb * 4)) \
--arg i32:$nb --arg f32:0.01 --arg f32:0.01"; }
alu() { echo "$k/alu_loop.w32.co --kernel alu_loop --global $al --local 256 --arg buf:zeros:$((al * 4)) --arg i32:256"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$mode" = insts ]; then
    for kern in matmul nbody alu; do
        for th in 1 2; do
            # shellcheck disable=SC2046
            valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$tmp/cg.$kern.$th" \
                "$build/umbra" run $($kern) --timing --threads "$th" --quiet >/dev/null 2>&1
        done
        python3 - "$kern" "$tmp" <<'PY'
import glob, re, sys
kern, tmp = sys.argv[1], sys.argv[2]
def totals(th):
    out = []
    for f in sorted(glob.glob(f"{tmp}/cg.{kern}.{th}*")):
        m = re.search(r"^(?:summary|totals): (\d+)", open(f).read(), re.M)
        if m: out.append(int(m.group(1)))
    return out
one, two = totals(1), totals(2)
print(f"{kern:8} 1 thread {sum(one)/1e9:7.3f} G host insts; 2 threads: " +
      " + ".join(f"{t/1e9:.3f}" for t in two) + f" G; speed-up allowed {sum(one)/max(two):.2f}x")
PY
    done
    exit 0
fi
for r in $(seq "$rounds"); do
    for th in 1 2; do
        for kern in matmul nbody alu; do
            s=$( { /usr/bin/time -f "%e %U" "$build/umbra" run $($kern) --timing --threads "$th" --quiet >/dev/null; } 2>&1 | tail -1)
            echo "$kern $th $s" >>"$tmp/wall"
        done
    done
done
python3 - "$tmp/wall" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
for kern in ("matmul", "nbody", "alu"):
    t = {th: sorted(float(s) for k, h, s, u in rows if k == kern and h == th) for th in ("1", "2")}
    cpu = {th: statistics.median(float(u) for k, h, s, u in rows if k == kern and h == th) for th in ("1", "2")}
    m1, m2 = statistics.median(t["1"]), statistics.median(t["2"])
    print(f"{kern:8} 1 thread best {t['1'][0]:.3f} s median {m1:.3f} s | 2 threads best {t['2'][0]:.3f} s "
          f"median {m2:.3f} s | speed-up {m1 / m2:.2f}x (best {t['1'][0] / t['2'][0]:.2f}x) | user CPU "
          f"{cpu['1']:.2f} -> {cpu['2']:.2f} s ({cpu['2'] / cpu['1'] - 1:+.0%}: the two threads' extra work and waits)")
PY
