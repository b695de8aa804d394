#!/usr/bin/env bash
# The whole test suite: install what is missing, build with AddressSanitizer + UBSan, run CTest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(UMBRA_SANITIZE=1 "$root/scripts/build.sh")
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$dir"
ctest --output-on-failure -j "$(nproc)" "$@"
