#!/usr/bin/env bash
# Build the libFuzzer targets (fuzz/) with clang-19 into build-fuzz/ and run every one of them,
# SECONDS in all (default 60) shared equally. Exit 0 only when no target found a crash, a leak, a
# sanitizer report or a timeout. See docs/FUZZING.md.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     e.g. scripts/fuzz.sh 600 rdna3_exec cli
#
# Seeds come from the repository's own test inputs, made at run time (build-fuzz/seeds/): the
# shipped Ventus test directories, RDNA3 test kernels compiled with clang-19, their .text and
# metadata notes, and the small hand-made CLI argument lists in fuzz/seeds/. The corpus each run
# grows is kept in build-fuzz/corpus/ (reused by the next run); the inputs that once crashed
# (fuzz/regressions/TARGET/) are replayed first. A crash leaves its input in
# build-fuzz/artifacts/ and the report in build-fuzz/logs/TARGET.log.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
dir=${UMBRA_FUZZ_DIR:-$root/build-fuzz}   # another folder for a second run alongside
shared=${UMBRA_SHARED_DIR:-$root/../shared}
all_targets=(ventus_launch elf amdgpu_co amdgpu_metadata rdna3_disasm ventus_disasm rdna3_exec ventus_exec cli)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

build() {
  "$root/scripts/deps.sh"
  mkdir -p "$dir"
  local log="$dir.log"
  if ! { CC=clang-19 cmake -S "$root" -B "$dir" -DUMBRA_FUZZ=ON -DUMBRA_TESTS=OFF \
           -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
         cmake --build "$dir" -j "$(nproc)" $(printf -- '--target fuzz_%s ' "${targets[@]}"); } >"$log" 2>&1; then
    cat "$log" >&2
    echo "fuzz.sh: build failed (log: $log)" >&2
    exit 1
  fi
}

# ---- seeds from the test inputs ----
text_of() {   # ELF -> its .text bytes
  llvm-objcopy-19 -O binary --only-section=.text "$1" "$2"
}

make_seeds() {
  local s="$dir/seeds" work="$dir/seeds/work"
  [ -f "$s/.done" ] && return 0
  rm -rf "$s"
  mkdir -p "$work"
  for t in "${all_targets[@]}"; do mkdir -p "$s/$t"; done
  # Ventus: every launch (.metadata NUL .data) and every object.riscv of the shipped programs
  for m in "$shared"/testcases/ventus/*/*.metadata; do
    local base=${m%.metadata} name
    name=$(basename "$(dirname "$m")")_$(basename "$base")
    { cat "$m"; printf '\0'; cat "$base.data"; } >"$s/ventus_launch/$name"
  done
  for elf in "$shared"/testcases/ventus/*/object.riscv; do
    local name
    name=$(basename "$(dirname "$elf")")
    cp "$elf" "$s/elf/$name.riscv"
    text_of "$elf" "$work/$name.text"
    cp "$work/$name.text" "$s/ventus_disasm/$name"
    # header: 8 threads per warp; and the same with the commit trace on
    { printf '\x07'; cat "$work/$name.text"; } >"$s/ventus_exec/$name"
    { printf '\x27'; cat "$work/$name.text"; } >"$s/ventus_exec/${name}_trace"
  done
  # RDNA3: test kernels compiled as `umbra cc` does (rdna3_cc.c), wave32 and wave64
  local k w
  for k in vec_add reduce_lds atomics_all local_args histogram private_array int_ops half_prec; do
    for w in 32 64; do
      local co="$work/${k}_w$w.co" flag=-mno-wavefrontsize64
      [ $w = 64 ] && flag=-mwavefrontsize64
      clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -mcode-object-version=5 $flag -O3 \
        --rocm-device-lib-path="$dir/devicelib" -mllvm -amdgpu-internalize-symbols \
        -c "$root/tests/rdna3/kernels/$k.cl" -o "$work/${k}_w$w.o" 2>/dev/null || continue
      ld.lld-19 -shared "$work/${k}_w$w.o" -o "$co"
      cp "$co" "$s/amdgpu_co/"
      cp "$co" "$s/elf/"
      # the metadata note's msgpack document: after the 12-byte header and the "AMDGPU\0" name
      llvm-objcopy-19 --dump-section=.note="$work/${k}_w$w.note" "$co" /dev/null 2>/dev/null &&
        tail -c +21 "$work/${k}_w$w.note" >"$s/amdgpu_metadata/${k}_w$w"
      text_of "$co" "$work/${k}_w$w.text"
      cp "$work/${k}_w$w.text" "$s/rdna3_disasm/${k}_w$w"
      # header: flags (bit 0 wave64), EXEC = all lanes
      { if [ $w = 64 ]; then printf '\x01'; else printf '\x00'; fi
        printf '\xff\xff\xff\xff\xff\xff\xff\xff'; cat "$work/${k}_w$w.text"; } >"$s/rdna3_exec/${k}_w$w"
    done
  done
  cp "$root"/fuzz/seeds/cli/* "$s/cli/"
  # and two that name real files (disassembly: bounded work whatever the options)
  printf 'disasm\0%s' "$work/vec_add_w32.co" >"$s/cli/disasm_real"
  printf 'ventus\0disasm\0%s' "$shared/testcases/ventus/matadd_4x4/object.riscv" >"$s/cli/ventus_disasm_real"
  # a dictionary of the CLI's option names, from its sources
  grep -oh '"--[a-z0-9-]*"\|"-[a-zA-Z]"' "$root"/tools/umbra/*.c | sort -u >"$dir/cli.dict"
  local n
  for t in "${all_targets[@]}"; do
    n=$(find "$s/$t" -type f | wc -l)
    [ "$n" -gt 0 ] || { echo "fuzz.sh: no seeds for $t (is $shared there?)" >&2; exit 1; }
  done
  touch "$s/.done"
}

# ---- run ----
options_for() {   # extra libFuzzer options of a target
  case $1 in
    cli) echo "-close_fd_mask=3 -dict=$dir/cli.dict" ;;
    amdgpu_co|elf) echo "-max_len=262144" ;;
    ventus_launch) echo "-max_len=65536" ;;
    *) echo "-max_len=8192" ;;
  esac
}

build
make_seeds
mkdir -p "$dir/logs" "$dir/artifacts" "$dir/scratch"
per=$(( seconds / ${#targets[@]} ))
[ "$per" -ge 1 ] || per=1
failed=()
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
printf '%-16s %10s %8s %8s %8s  %s\n' target runs cov ft corpus result
for t in "${targets[@]}"; do
  bin="$dir/fuzz/fuzz_$t" log="$dir/logs/$t.log"
  mkdir -p "$dir/corpus/$t"
  result=ok
  # 1. inputs that crashed once, each run once
  reg=("$root/fuzz/regressions/$t"/*)
  if [ -e "${reg[0]}" ]; then
    (cd "$dir/scratch" && "$bin" $(options_for "$t") "${reg[@]}") >"$log.regressions" 2>&1 ||
      { result="REGRESSION (see $log.regressions)"; }
  fi
  # 2. fuzzing from the grown corpus and the seeds
  if [ "$result" = ok ]; then
    (cd "$dir/scratch" && "$bin" -max_total_time="$per" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$dir/artifacts/$t-" $(options_for "$t") "$dir/corpus/$t" "$dir/seeds/$t") >"$log" 2>&1 ||
      result="CRASH (see $log)"
  fi
  last=$(grep -E '^#[0-9]+' "$log" 2>/dev/null | tail -1 || true)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" 2>/dev/null | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
  printf '%-16s %10s %8s %8s %8s  %s\n' "$t" "${runs:--}" "${cov:--}" "${ft:--}" "${corp:--}" "$result"
  [ "$result" = ok ] || failed+=("$t")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: ${#failed[@]} target(s) failed: ${failed[*]}" >&2
  for t in "${failed[@]}"; do grep -m3 -E 'ERROR|runtime error|SUMMARY' "$dir/logs/$t.log"* >&2 || true; done
  exit 1
fi
echo "fuzz.sh: ${#targets[@]} target(s), no crash"
