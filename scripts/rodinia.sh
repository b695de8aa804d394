#!/usr/bin/env bash
# Rodinia's OpenCL programs (Rodinia 3.1 as kept in yuhc/gpu-rodinia, opencl/) on umbra's OpenCL
# platform, each run with the translator off, auto and always (issue 22: "larger workloads get
# faster end to end", docs/PERFORMANCE.md "Held-out-style suites"). The checkout is only read:
# each program's folder is copied to a work folder and built there with its own Makefile (the
# NVIDIA SDK paths pointed at Debian's OpenCL headers and ICD loader), unmodified.
#
# usage: scripts/rodinia.sh CHECKOUT [PROGRAM...]
#   CHECKOUT  a gpu-rodinia checkout (its opencl/ and common/ folders); fetch it outside this
#             repository (its data/ folder is not needed: these programs generate their inputs)
#   PROGRAM   backprop gaussian nw lud srad lavaMD pathfinder streamcluster (default: all)
# Environment: UMBRA_BUILD (default build/), RODINIA_WORK (default /tmp/umbra-rodinia),
#   RODINIA_MODES (default "off auto always"), RODINIA_TIMEOUT (seconds a run, default 1800).
# Output: one row per program: wall / CPU seconds of the whole program in each mode, and the
# check: the program's exit status, and its output (stdout without the lines that print host
# times, and every file it wrote) the same in every mode as with the interpreter alone (`off`);
# lud also verifies its result against its CPU code (-v: it prints mismatches).
set -uo pipefail
. "$(dirname "$0")/suite_common.sh"
[ $# -ge 1 ] || suite_usage "$0"
suite_checkout rodinia "$1"
[ -d "$src/opencl" ] && [ -d "$src/common" ] || { echo "rodinia: $1 has no opencl/ and common/ folders" >&2; exit 2; }
shift
suite_setup rodinia RODINIA

# program | folder under opencl/ | where it runs (under the folder) | extra make variable | command
# line. Sizes: a few seconds to a minute interpreted on one host thread (the programs' own `run`
# sizes take hours). pathfinder and streamcluster are C++ that C++17 (g++-12's default) rejects
# (std::data is ambiguous; dynamic exception specifications): built as C++14.
programs=(
    "backprop|backprop|.||./backprop.out -n 262144"
    "gaussian|gaussian|.||./gaussian.out -s 512"
    "nw|nw|.||./nw.out 2048 10 ./nw.cl"
    "lud|lud|ocl||./lud.out -s 1024 -v"
    "srad|srad|.||./srad.out -n 20 -l 0.5 -s 502 458"
    "lavaMD|lavaMD|.||./lavaMD.out -boxes1d 6"
    "pathfinder|pathfinder|.|CXX=g++ -std=c++14|./pathfinder.out -c 100000 -r 100 -h 20"
    "streamcluster|streamcluster|.|CC=g++ -std=c++14|./streamcluster.out 10 20 16 4096 4096 500 none output.txt 1 -p 0 -d 0"
)
# Not here: particlefilter launches work-groups of 512 work-items (threads_per_block = 512), more
# than the 256 a gfx1100 reports in ROCm's OpenCL and in umbra's (CL_INVALID_WORK_GROUP_SIZE on
# both); hotspot, kmeans, bfs, b+tree, cfd, nn and the others read input files from data/.
# Makefile variables: Debian's headers and loader for the SDK paths
make_vars=(OPENCL_INC=/usr/include OPENCL_LIB=/usr/lib/x86_64-linux-gnu
           NV_OPENCL_INC=/usr/include NV_OPENCL_LIB=/usr/lib/x86_64-linux-gnu)

# What a run printed and wrote, without what differs from run to run: the host-time lines of
# Rodinia's timing utility ("Name: 12.34"), the programs' own "... TOOK 0.30" and "Total ...",
# and streamcluster's PD_OCL.txt (its host times, appended at every run)
outputs_of() {   # run_dir marker stdout_file
    grep -Ev '^[A-Za-z2 ]+: [0-9.]+$|TOOK|[Tt]ime|^Total|MB\]' "$3" | grep -v '^umbra-rodinia-time' | md5sum | cut -c1-12
    find "$1" -type f -newer "$2" ! -name "$(basename "$2")" ! -name PD_OCL.txt -printf '%P\n' | sort |
        while read -r f; do echo "$f $(md5sum < "$1/$f" | cut -c1-12)"; done
}

printf '%-16s' program
for m in $modes; do printf ' %15s' "jit=$m"; done
printf '  check\n'
for row in "${programs[@]}"; do
    IFS='|' read -r name dir sub extra cmd <<<"$row"
    if [ $# -gt 0 ]; then
        keep=0
        for p in "$@"; do [ "$p" = "$name" ] && keep=1; done
        [ $keep = 1 ] || continue
    fi
    w=$work/src
    rm -rf "$w/opencl/$dir" && mkdir -p "$w/opencl" && cp -r "$src/common" "$w/" && cp -r "$src/opencl/util" "$w/opencl/" &&
        cp -r "$src/opencl/$dir" "$w/opencl/"
    if ! (cd "$w/opencl/$dir/$sub" && make "${make_vars[@]}" ${extra:+"$extra"}) >"$work/$name.build.log" 2>&1; then
        printf '%-16s %s\n' "$name" "build failed ($work/$name.build.log)"
        continue
    fi
    run=$w/opencl/$dir/$sub
    [ "$name" = lud ] && cp "$run/../lud_kernel.cl" "$run/"   # it opens ./lud_kernel.cl
    # a first run fills the OpenCL compile cache (clang-19 would otherwise be timed in the first
    # mode only); each timed run then starts without translations on disk (a program's first run)
    (cd "$run" && UMBRA_CACHE_DIR="$work/cache" timeout "$timeout_s" "$umbra" opencl --jit off -- $cmd) \
        >"$work/$name.warmup.stdout" 2>&1
    printf '%-16s' "$name"
    verdict="" ref=""
    for m in $modes; do
        out=$work/$name.$m.stdout
        rm -f "$work/cache"/*.rdna3jit
        touch "$run/.umbra-rodinia-start"
        sleep 1   # (file times have a second's grain on some file systems)
        (cd "$run" && UMBRA_CACHE_DIR="$work/cache" /usr/bin/time -f 'umbra-rodinia-time %e %U %S' \
            timeout "$timeout_s" "$umbra" opencl --jit "$m" -- $cmd) >"$out" 2>&1
        rc=$?
        read -r wall cpu < <(awk '/^umbra-rodinia-time/ {printf "%s %.2f\n", $2, $3 + $4}' "$out")
        sum=$(outputs_of "$run" "$run/.umbra-rodinia-start" "$out" | md5sum | cut -c1-12)
        [ -z "$ref" ] && ref=$sum
        if [ $rc -ne 0 ]; then v="exit $rc"
        elif [ "$sum" != "$ref" ]; then v="output differs from jit=${modes%% *}"
        elif [ "$name" = lud ] && grep -q "dismatch" "$out"; then v="$(grep -c dismatch "$out") lud -v mismatches"
        else v="same"; fi
        printf ' %7.2f/%7.2f' "${wall:-0}" "${cpu:-0}"
        verdict="$verdict $m:$v"
    done
    printf ' %s\n' "$verdict"
done
