#!/bin/sh
# The compile cache: a program's second run does not run clang. A clang-19 wrapper first in PATH
# logs each call and runs the real compiler.
# usage: cache_check.sh UMBRA PROGRAM WORKDIR
set -eu
umbra=$1 prog=$2 work=$3
real=$(command -v clang-19)
rm -rf "$work" && mkdir -p "$work/bin"
printf '#!/bin/sh\necho "$@" >> %s/calls\nexec %s "$@"\n' "$work" "$real" > "$work/bin/clang-19"
chmod +x "$work/bin/clang-19"
PATH="$work/bin:$PATH" "$umbra" opencl --cache-dir "$work/cache" -- "$prog" | grep -q PASS
[ -s "$work/calls" ] || { echo "FAIL: the first run did not compile"; exit 1; }
rm "$work/calls"
PATH="$work/bin:$PATH" "$umbra" opencl --cache-dir "$work/cache" -- "$prog" | grep -q PASS
[ ! -e "$work/calls" ] || { echo "FAIL: the second run ran clang:"; cat "$work/calls"; exit 1; }
echo PASS
