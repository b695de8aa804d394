#!/usr/bin/env bash
# Which cache lines umbra's host threads share while they run in parallel (line_sharing_rt.c):
# builds `umbra` with every C file instrumented by GCC's -fsanitize=thread and this directory's
# runtime in place of ThreadSanitizer's, runs it, and prints the access sites that met another
# thread's access of the same line between two synchronisations, most frequent first, with
# function and source line.
#   bench/timing/line_sharing/run.sh BUILD_DIR [TOP] -- UMBRA_ARGS...
# e.g. run.sh /tmp/ls 30 -- run nbody.w32.co --kernel nbody ... --timing --threads 2
# (the code object from bench_rdna3; see bench/timing/threads_speedup.sh for the arguments).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:?usage: run.sh BUILD_DIR [TOP] -- UMBRA_ARGS...}
shift
top=30
if [ "${1:-}" != "--" ]; then top=$1; shift; fi
[ "${1:-}" = "--" ] && shift
mkdir -p "$build"
gcc -O2 -c "$here/line_sharing_rt.c" -o "$build/line_sharing_rt.o"
# the compiler as CMake sees it: instrument what it compiles, link the runtime into what it links
cat >"$build/cc" <<CC
#!/bin/sh
for a in "\$@"; do [ "\$a" = "-c" ] && exec gcc -fsanitize=thread "\$@"; done
exec gcc "\$@" "$build/line_sharing_rt.o" -ldl
CC
chmod +x "$build/cc"
CC="$build/cc" cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)" --target umbra_cli >/dev/null
LINE_SHARING_OUT="$build/line_sharing.out" "$build/umbra" "$@" >/dev/null
sort -rn "$build/line_sharing.out" | head -n "$top" | while read -r hits obj off _ line; do
    where=$(addr2line -f -e "$obj" "$off" 2>/dev/null | paste -sd' ' - || echo "$obj+$off")
    printf '%10s  %s  line %s\n' "$hits" "$where" "$line"
done
