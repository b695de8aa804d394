#!/usr/bin/env bash
# The whole test suite: install what is missing, build with AddressSanitizer + UBSan, run CTest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(UMBRA_SANITIZE=1 "$root/scripts/build.sh")
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# The whole suite (no CTest arguments) also fuzzes every target for a minute in all and runs the
# multi-threaded paths under ThreadSanitizer (docs/FUZZING.md; UMBRA_SKIP_FUZZ=1 leaves both out);
# first, so that CTest's summary closes the output.
if [ $# -eq 0 ] && [ "${UMBRA_SKIP_FUZZ:-0}" != 1 ]; then
  "$root/scripts/fuzz.sh" "${UMBRA_FUZZ_SECONDS:-60}"
  "$root/scripts/tsan.sh"
fi
cd "$dir"
ctest --output-on-failure -j "$(nproc)" "$@"
