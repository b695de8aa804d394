#!/usr/bin/env bash
# SHOC's OpenCL level-1 benchmarks (vetter/shoc) on umbra's OpenCL platform, each run with the
# translator off, auto and always (issue 22: "larger workloads get faster end to end",
# docs/PERFORMANCE.md "Held-out-style suites"). The checkout is only read: it is copied to a work
# folder and built there with its own configure (OpenCL from Debian's headers and ICD loader; no
# CUDA, no MPI), unmodified.
#
# usage: scripts/shoc.sh CHECKOUT [PROGRAM...]
#   CHECKOUT  a SHOC checkout (its configure and src/opencl/); fetch it outside this repository
#   PROGRAM   Reduction Scan Sort MD Spmv FFT GEMM Stencil2D BFS Triad MD5Hash (default: all)
# Environment: UMBRA_BUILD (default build/), SHOC_WORK (default /tmp/umbra-shoc),
#   SHOC_MODES (default "off auto always"), SHOC_TIMEOUT (seconds a run, default 1800),
#   SHOC_ARGS (default "-s 1 -n 1": the smallest problem size, one pass).
# Output: one row per program: wall / CPU seconds of the whole program in each mode, and the
# check: exit status 0, no line saying a test failed, and the program's own checks ("Test
# Passed" / "PASSED" lines: Reduction, Scan, Sort, MD, Spmv, FFT; Stencil2D's "0 validation
# errors") as many in every mode as with the interpreter alone; BFS's visited vertices equal to
# the interpreter's. GEMM, Triad and MD5Hash print rates only (their "_Parity" lines are
# transfer-to-kernel time ratios, not errors).
set -uo pipefail
. "$(dirname "$0")/suite_common.sh"
[ $# -ge 1 ] || suite_usage "$0"
suite_checkout shoc "$1"
[ -x "$src/configure" ] && [ -d "$src/src/opencl/level1" ] || { echo "shoc: $1 is not a SHOC checkout" >&2; exit 2; }
shift
suite_setup shoc SHOC
read -r -a shoc_args <<<"${SHOC_ARGS:--s 1 -n 1}"
programs=(reduction/Reduction scan/Scan sort/Sort md/MD spmv/Spmv fft/FFT gemm/GEMM stencil2d/Stencil2D
          bfs/BFS triad/Triad md5hash/MD5Hash)

tree=$work/shoc
if [ ! -x "$tree/src/opencl/level1/md/MD" ]; then
    echo "shoc: building in $tree (configure, make: a few minutes)" >&2
    rm -rf "$tree" && cp -r "$src" "$tree" || exit 2
    # g++-12 defaults to C++17, which SHOC's dynamic exception specifications are not
    (cd "$tree" && ./configure --with-opencl --without-cuda --without-mpi >"$work/configure.log" 2>&1 &&
        make -j"$(nproc)" CXXFLAGS="-O2 -std=c++14 -w" >"$work/make.log" 2>&1) ||
        { echo "shoc: the build failed ($work/configure.log, $work/make.log)" >&2; exit 1; }
fi

# The one result line that is not a rate or a time
results_of() { grep -E 'visited_vertices' "$1" | awk '{print $1, $2, $4}'; }

printf '%-12s' program
for m in $modes; do printf ' %15s' "jit=$m"; done
printf '  check\n'
for p in "${programs[@]}"; do
    name=${p#*/}
    if [ $# -gt 0 ]; then
        keep=0
        for a in "$@"; do [ "$a" = "$name" ] && keep=1; done
        [ $keep = 1 ] || continue
    fi
    dir=$tree/src/opencl/level1/${p%/*}
    # a first run fills the OpenCL compile cache; each timed run starts without translations on disk
    (cd "$dir" && UMBRA_CACHE_DIR="$work/cache" timeout "$timeout_s" "$umbra" opencl --jit off -- "./$name" \
        "${shoc_args[@]}") >"$work/$name.warmup.out" 2>&1
    printf '%-12s' "$name"
    verdict="" ref_pass="" ref_res=""
    for m in $modes; do
        out=$work/$name.$m.out
        rm -f "$work/cache"/*.rdna3jit
        (cd "$dir" && UMBRA_CACHE_DIR="$work/cache" /usr/bin/time -f 'umbra-shoc-time %e %U %S' \
            timeout "$timeout_s" "$umbra" opencl --jit "$m" -- "./$name" "${shoc_args[@]}") >"$out" 2>&1
        rc=$?
        read -r wall cpu < <(awk '/^umbra-shoc-time/ {printf "%s %.2f\n", $2, $3 + $4}' "$out")
        passes=$(grep -Eci 'test passed|^passed| 0 validation errors' "$out")
        res=$(results_of "$out" | md5sum | cut -c1-12)
        [ -z "$ref_pass" ] && ref_pass=$passes ref_res=$res
        if [ $rc -ne 0 ]; then v="exit $rc"
        elif grep -Eqi 'test failed|failed$|[1-9][0-9]* validation errors' "$out"; then v="a failure printed"
        elif [ "$passes" != "$ref_pass" ]; then v="$passes checks passed, $ref_pass with jit=${modes%% *}"
        elif [ "$res" != "$ref_res" ]; then v="results differ from jit=${modes%% *}"
        else v="ok($passes)"; fi
        printf ' %7.2f/%7.2f' "${wall:-0}" "${cpu:-0}"
        verdict="$verdict $m:$v"
    done
    printf ' %s\n' "$verdict"
done
