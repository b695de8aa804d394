#!/usr/bin/env bash
# ThreadSanitizer run of umbra's multi-threaded paths: build libumbra and the CLI with clang-19
# -fsanitize=thread into build-tsan/ (gcc's TSan dies at start-up in the target_clones resolvers
# of the lane functions; clang's does not), then run with --threads 2:
#   - every shipped Ventus program (workgroups on two host threads, one shared memory image),
#   - RDNA3 test kernels compiled with `umbra cc`, global atomics included.
# Each run must be free of TSan reports, and its output must equal the one-thread run's (the
# kernels' results do not depend on the order of their atomics). Exit 0 only then.
#
# Extending it: put a script in scripts/tsan.d/ (e.g. the OpenCL platform's worker thread); it
# is run with UMBRA_TSAN_BUILD (this build folder, its targets built on request with
# `cmake --build "$UMBRA_TSAN_BUILD" --target X`), UMBRA_SHARED_DIR and TSAN_OPTIONS set, and
# must exit 0 when clean.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/build-tsan"
shared=${UMBRA_SHARED_DIR:-$root/../shared}
work="$dir/work"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"

"$root/scripts/deps.sh"
mkdir -p "$dir"
if ! { CC=clang-19 cmake -S "$root" -B "$dir" -DUMBRA_TSAN=ON -DUMBRA_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
       cmake --build "$dir" -j "$(nproc)" --target umbra_cli; } >"$dir.log" 2>&1; then
  cat "$dir.log" >&2
  echo "tsan.sh: build failed (log: $dir.log)" >&2
  exit 1
fi
umbra="$dir/umbra"
rm -rf "$work"
mkdir -p "$work"
failed=0

# run NAME -- COMMAND...: once with --threads 1, once with --threads 2; the outputs (stdout minus
# the timing lines, and the files the command writes to OUT1/OUT2) must match, stderr must hold
# no TSan report. order_dependent=1 skips the comparison (a kernel whose result depends on the
# order of its waves' memory operations).
check() {
  local name=$1; shift
  local ok=1 t
  for t in 1 2; do
    local args=("${@//@OUT@/$work/$name.out$t}")
    if ! "${args[@]}" --threads $t >"$work/$name.stdout$t" 2>"$work/$name.stderr$t"; then
      ok=0
    fi
  done
  if grep -q "ThreadSanitizer" "$work/$name.stderr2" "$work/$name.stderr1"; then
    ok=0
    sed -n '/WARNING: ThreadSanitizer/,/SUMMARY/p' "$work/$name.stderr2" "$work/$name.stderr1" | head -60 >&2
  fi
  if [ "${order_dependent:-0}" = 0 ] && ! cmp -s "$work/$name.out1" "$work/$name.out2"; then
    echo "tsan.sh: $name: the output of --threads 2 differs from --threads 1" >&2
    ok=0
  fi
  if [ $ok = 1 ]; then echo "ok    $name"; else echo "FAIL  $name (logs: $work/$name.*)"; failed=1; fi
}

# 1. the shipped Ventus programs, final memory compared
for d in vecadd_4x8 matadd_4x4 nn_4x8 gaussian_4x8 bfs_4x16 kmeans_4w16t; do
  check "ventus_$d" "$umbra" ventus run "$shared/testcases/ventus/$d" --dump @OUT@ --quiet \
    --max-instructions 50000000
done

# 2. RDNA3 kernels: global atomics (histogram, reduce_atomic, atomics_all) and a plain one
cc() { "$umbra" cc "$root/tests/rdna3/kernels/$1.cl" -O3 ${2:-} -o "$work/$1$3.co" >/dev/null; }
cc histogram "" "" && cc reduce_atomic "" "" && cc atomics_all "" "" && cc vec_add "" "" && cc race_order "" "" &&
  cc histogram --wave64 _w64 || { echo "tsan.sh: umbra cc failed" >&2; exit 1; }
check rdna3_histogram "$umbra" run "$work/histogram.co" --kernel histogram --global 4096 --local 128 \
  --arg buf:rand:u32:4096:7 --arg u32:16384 --arg buf:zeros:1024 --out 2:@OUT@ --quiet
check rdna3_histogram_w64 "$umbra" run "$work/histogram_w64.co" --kernel histogram --global 4096 --local 256 \
  --arg buf:rand:u32:4096:9 --arg u32:16384 --arg buf:zeros:1024 --out 2:@OUT@ --quiet
check rdna3_reduce_atomic "$umbra" run "$work/reduce_atomic.co" --kernel reduce_atomic --global 8192 --local 256 \
  --arg buf:rand:u32:8192:3 --arg buf:zeros:12 --arg u32:8192 --out 1:@OUT@ --quiet
check rdna3_atomics_all "$umbra" run "$work/atomics_all.co" --kernel atomics_all --global 2048 --local 128 \
  --arg buf:zeros:16 --arg buf:zeros:28 --arg buf:zeros:32 --arg buf:zeros:32 --arg buf:zeros:4 --out 2:@OUT@ --quiet
check rdna3_vec_add "$umbra" run "$work/vec_add.co" --kernel vec_add --global 8192 --local 64 \
  --arg buf:iota:f32:8192 --arg buf:fill:f32:8192:0.5 --arg buf:zeros:32768 --arg u32:8192 --out 2:@OUT@ --quiet
# the timing model's parallel mode: shader arrays partitioned over the host threads, meeting at
# every quantum's end (src/core/spin_barrier.c), global atomics executed at the quanta's ends
check rdna3_timing_histogram "$umbra" run "$work/histogram.co" --kernel histogram --global 4096 --local 128 \
  --arg buf:rand:u32:4096:7 --arg u32:16384 --arg buf:zeros:1024 --out 2:@OUT@ --quiet --timing
check rdna3_timing_vec_add "$umbra" run "$work/vec_add.co" --kernel vec_add --global 65536 --local 64 \
  --arg buf:iota:f32:65536 --arg buf:fill:f32:65536:0.5 --arg buf:zeros:262144 --arg u32:65536 --out 2:@OUT@ \
  --quiet --timing
# the translator (when built): --jit auto on 4096 waves, so that the launch starts interpreted and
# switches to code made on the device's translator thread, beside the workgroups' host threads
if "$umbra" run --help 2>&1 | grep -q -- "--jit-cache" && "$umbra" cc "$root/bench/rdna3/alu_loop.cl" -O3 -o "$work/alu_loop.co" >/dev/null; then
  check rdna3_jit_background "$umbra" run "$work/alu_loop.co" --kernel alu_loop --global 131072 --local 256 \
    --arg buf:zeros:524288 --arg i32:300 --jit auto --jit-cache off --out 0:@OUT@ --quiet
  # few waves running long: a host thread running the launch asks for the translation mid-launch
  check rdna3_jit_work "$umbra" run "$work/alu_loop.co" --kernel alu_loop --global 2048 --local 256 \
    --arg buf:zeros:8192 --arg i32:60000 --jit auto --jit-cache off --out 0:@OUT@ --quiet
fi
# unsynchronised read-modify-writes of the guest (a race of the guest, not of the host)
order_dependent=1 check rdna3_race_order "$umbra" run "$work/race_order.co" --kernel race_order --global 1024 \
  --local 128 --arg buf:zeros:16384 --arg buf:zeros:4 --arg buf:zeros:4100 --arg u32:4 --out 2:@OUT@ --quiet

# 3. hooks: other multi-threaded paths (scripts/tsan.d/*)
export UMBRA_TSAN_BUILD="$dir" UMBRA_SHARED_DIR="$shared"
for hook in "$root"/scripts/tsan.d/*; do
  [ -x "$hook" ] || continue
  if "$hook" >"$work/hook_$(basename "$hook").log" 2>&1; then echo "ok    hook $(basename "$hook")"
  else echo "FAIL  hook $(basename "$hook") (log: $work/hook_$(basename "$hook").log)"; failed=1; fi
done

if [ $failed != 0 ]; then echo "tsan.sh: ThreadSanitizer run failed" >&2; exit 1; fi
echo "tsan.sh: clean"
