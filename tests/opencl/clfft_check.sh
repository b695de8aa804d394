#!/bin/sh
# clFFT's client (Debian clfft-client), unmodified, with umbra as the only platform. The client
# transforms a constant signal (or, for a Hermitian input, its transform) and checks the result
# exactly: N at the first element of each transform and 0 everywhere else, or all ones back for
# a complex-to-real transform. It prints "Internal Client Test *****PASS*****" when it holds.
# usage: clfft_check.sh UMBRA CACHE_DIR CLFFT_CLIENT "OPTIONS"...
set -u
umbra=$1 cache=$2 client=$3
shift 3
status=0
for options in "$@"; do
  # shellcheck disable=SC2086 # each argument is one configuration's option list
  out=$("$umbra" opencl --cache-dir "$cache" -- "$client" $options 2>&1)
  rc=$?
  if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "Internal Client Test \*\*\*\*\*PASS"; then
    echo "ok: $options"
  else
    echo "FAIL: $options (exit status $rc)"
    printf '%s\n' "$out" | tail -5
    status=1
  fi
done
[ "$status" -eq 0 ] && echo PASS
exit "$status"
