#!/bin/sh
# CLBlast's own correctness tests (Debian clblast-tests), unmodified, with umbra as the only
# platform: each checks CLBlast's OpenCL kernels in every precision (single, double, complex,
# double complex, half) against a CPU BLAS. A routine passes when the program exits 0, every
# result summary (one or more per precision) reports "0 test(s) failed", and the summaries
# together count at least one passed test.
# usage: clblast_check.sh UMBRA CACHE_DIR CLBLAST_TEST_DIR ROUTINE...
set -u
umbra=$1 cache=$2 dir=$3
shift 3
status=0
for routine in "$@"; do
  log=$("$umbra" opencl --cache-dir "$cache" -- "$dir/clblast_test_$routine" 2>&1)
  rc=$?
  # The results are coloured with ANSI escapes: strip them before reading the counts.
  plain=$(printf '%s\n' "$log" | sed 's/\x1b\[[0-9;]*m//g')
  summaries=$(printf '%s\n' "$plain" | grep -c "Completed all test-cases")
  failed=$(printf '%s\n' "$plain" | grep "test(s) failed" | grep -vc "^ *0 test(s) failed")
  passed=$(printf '%s\n' "$plain" | awk '/test\(s\) passed/ { n += $1 } END { print n + 0 }')
  if [ "$rc" -ne 0 ] || [ "$summaries" -eq 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
    echo "FAIL: $routine (exit status $rc, $summaries summaries, $failed with failures, $passed passed)"
    printf '%s\n' "$plain" | grep -E "Starting tests|test\\(s\\) failed|Error rate|rror:" | head -40
    status=1
  else
    echo "ok: $routine ($summaries summaries, $passed tests passed)"
  fi
done
[ "$status" -eq 0 ] && echo PASS
exit "$status"
