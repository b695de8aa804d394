#!/usr/bin/env bash
# PolyBench/GPU's OpenCL programs (cavazos-lab/PolyBench-ACC, OpenCL/) on umbra's OpenCL platform,
# each run with the translator off, auto and always (issue 22: "larger workloads get faster end to
# end", docs/PERFORMANCE.md "Held-out-style suites"). The checkout is only read: each program is
# built in a work folder, unmodified, against Debian's OpenCL headers and ICD loader.
#
# usage: scripts/polybench.sh CHECKOUT [PROGRAM...]
#   CHECKOUT  a PolyBench-ACC checkout (its OpenCL/ folder); fetch it outside this repository
#   PROGRAM   a program's folder name (gemm, 2mm, atax, ...); default: every OpenCL program
# Needs /usr/bin/time (Debian package time). Environment: UMBRA_BUILD (default build/), POLYBENCH_WORK (default /tmp/umbra-polybench),
#   POLYBENCH_DATASET (MINI, SMALL, STANDARD (the programs' default), LARGE; default SMALL),
#   POLYBENCH_MODES (default "off auto always"), POLYBENCH_TIMEOUT (seconds a run, default 1800).
# Output: a table, one row per program: wall / CPU seconds of the whole program in each mode, and
# whether it passed its own check (each program compares the device's result with its CPU
# reference and prints "Non-Matching CPU-GPU Outputs Beyond Error Threshold of 0.05 Percent: N",
# or "Number of misses: N"; N = 0 is a pass). The programs' outputs stay in the work folder.
set -uo pipefail
. "$(dirname "$0")/suite_common.sh"
[ $# -ge 1 ] || suite_usage "$0"
src=$(cd "$1/OpenCL" 2>/dev/null && pwd) || { echo "polybench: $1 has no OpenCL/ folder" >&2; exit 2; }
shift
suite_setup polybench POLYBENCH
dataset=${POLYBENCH_DATASET:-SMALL}

mapfile -t dirs < <(find "$src" -mindepth 2 -name Makefile -printf '%h\n' | sort)
printf '%-20s' program
for m in $modes; do printf ' %13s' "jit=$m"; done
printf '  check\n'
for dir in "${dirs[@]}"; do
    name=$(basename "$dir")
    if [ $# -gt 0 ]; then
        keep=0
        for p in "$@"; do [ "$p" = "$name" ] && keep=1; done
        [ $keep = 1 ] || continue
    fi
    w=$work/$name
    rm -rf "$w" && mkdir -p "$w" && cp "$dir"/*.c "$dir"/*.h "$dir"/*.cl "$w"/ 2>/dev/null
    # the programs' Makefiles name an NVIDIA SDK path; the build is theirs otherwise: gcc -O3 and
    # the utilities folder's headers
    if ! gcc -O3 -w -D"${dataset}_DATASET" -I"$src/utilities" "$w"/*.c -o "$w/$name.exe" -lOpenCL -lm \
        >"$w/build.log" 2>&1; then
        printf '%-20s %s\n' "$name" "build failed ($w/build.log)"
        continue
    fi
    # a first run fills the OpenCL compile cache (clang-19 would otherwise be timed in the first
    # mode only); each timed run then starts without translations on disk, so `auto` and `always`
    # pay for translating (a program's first run)
    (cd "$w" && UMBRA_CACHE_DIR="$work/cache" timeout "$timeout_s" "$umbra" opencl --jit off -- "./$name.exe") \
        >"$w/warmup.out" 2>&1
    printf '%-20s' "$name"
    verdict=""
    for m in $modes; do
        out=$w/run.$m.out
        rm -f "$work/cache"/*.rdna3jit
        (cd "$w" && UMBRA_CACHE_DIR="$work/cache" /usr/bin/time -f 'umbra-polybench-time %e %U %S' \
            timeout "$timeout_s" "$umbra" opencl --jit "$m" -- "./$name.exe") >"$out" 2>&1
        rc=$?
        read -r wall cpu < <(awk '/^umbra-polybench-time/ {printf "%s %.2f\n", $2, $3 + $4}' "$out")
        checks='Threshold of [0-9.]* Percent: [0-9]*|Number of misses: [0-9]*'
        bad=$(grep -Eo "$checks" "$out" | awk '{s += $NF} END {print s + 0}')
        n=$(grep -Ec "$checks" "$out")
        if [ $rc -ne 0 ]; then v="exit $rc"
        elif [ "$n" -eq 0 ]; then v="no check printed"
        elif [ "$bad" -ne 0 ]; then v="$bad mismatches"
        else v="pass"; fi
        printf ' %6.2f/%6.2f' "${wall:-0}" "${cpu:-0}"
        verdict="$verdict $m:$v"
    done
    printf ' %s\n' "$verdict"
done
