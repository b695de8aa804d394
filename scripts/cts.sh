#!/usr/bin/env bash
# Build the Khronos OpenCL CTS (KhronosGroup/OpenCL-CTS) from a checkout the user passes and run
# suites of it on umbra and on PoCL, one subtest per process, each under a timeout.
#
#   scripts/cts.sh CTS_CHECKOUT [SUITES...]
#
# CTS_CHECKOUT: a clone of https://github.com/KhronosGroup/OpenCL-CTS. Tested: tag v2023-12-12-00,
# which builds against Debian 12's opencl-c-headers 3.0~2023.02.06 and ocl-icd as they are; and
# tag v2026-07-09-00, which needs newer headers (CTS_HEADERS: a clone of
# https://github.com/KhronosGroup/OpenCL-Headers, tag v2026.05.29) and SPIR-V headers (Debian's
# spirv-headers, found in /usr/include). The sources stay outside umbra's repository.
# SUITES: names as in the list below (default: all of them). A suite may be narrowed to subtests
# with SUITE:SUB1,SUB2 (e.g. test_basic:vector_creation,hostptr).
#
# Environment:
#   CTS_BUILD      CTS build folder (default CTS_CHECKOUT/build-umbra)
#   CTS_HEADERS    OpenCL-Headers checkout to build against (default: the system's, /usr/include)
#   CTS_OUT        results folder (default ./cts-results): per-run logs, results.tsv, summary.txt
#   CTS_TIMEOUT    seconds per subtest and platform (default 600)
#   CTS_PLATFORMS  "umbra pocl" (default), or one of them
#   CTS_JOBS       1: platforms one after the other; 2 (default): umbra and PoCL side by side
#   CTS_MATH       functions of test_math_brute_force (default: a subset, below)
#   CTS_CONVERSIONS conversions of test_conversions, as its names (dest<_sat><_round>_src; default:
#                  the 100 plain dest_src pairs of its ten types: the CTS has no list option for
#                  them, and the 1000 names with every saturation and rounding take a day here)
#   UMBRA_BUILD    umbra's build folder with the umbra executable and umbra.icd (default build/)
#   CTS_UMBRA_OPTS options of `umbra opencl` for every run (e.g. "--global-mem 4G": the CTS sizes
#                  many buffers by CL_DEVICE_MAX_MEM_ALLOC_SIZE, a quarter of it; "--threads 2")
#   CTS_NO_BUILD=1 do not configure/build (use what CTS_BUILD holds)
#   CTS_IMAGE_ARGS arguments of the image suites before the subtest names (default "small_images":
#                  the full sizes take hours per geometry on a simulator; "" for the CTS's default)
#   CTS_ARGS_<suite> arguments of one suite before its subtest names, replacing the list's below
#                  (e.g. CTS_ARGS_test_allocations="single 1 5%": the CTS's own reduction option,
#                  allocations of 5% of the largest, which a simulator fills in minutes)
#
# Output: one line per subtest ("suite subtest umbra=pass pocl=pass"), then per suite a table of
# pass/fail/skip/timeout/crash counts per platform. Statuses: pass, fail, skip (the CTS's own), timeout
# (killed after CTS_TIMEOUT), crash (the process ended without the CTS writing its result).
set -uo pipefail

die() { echo "cts.sh: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: scripts/cts.sh CTS_CHECKOUT [SUITES...] (see the top of the script)"
root=$(cd "$(dirname "$0")/.." && pwd)
cts=$(cd "$1" 2>/dev/null && pwd) || die "no such folder: $1"
shift
[ -f "$cts/test_conformance/CMakeLists.txt" ] || die "$cts is not an OpenCL-CTS checkout"
build=${CTS_BUILD:-$cts/build-umbra}
out=$(mkdir -p "${CTS_OUT:-cts-results}" && cd "${CTS_OUT:-cts-results}" && pwd)
timeout_s=${CTS_TIMEOUT:-600}
platforms=${CTS_PLATFORMS:-umbra pocl}
jobs=${CTS_JOBS:-2}
umbra_build=${UMBRA_BUILD:-$root/build}
pocl_icd=/etc/OpenCL/vendors/pocl.icd
math_default="add subtract multiply divide sqrt rsqrt exp exp2 log log2 sin cos tan pow fma fmax fmin fabs floor ceil rint trunc copysign hypot atan2 mad"
math=${CTS_MATH:-$math_default}
conv_types="uchar char ushort short uint int float double ulong long"
conv_default=$(for d in $conv_types; do for s in $conv_types; do printf '%s_%s ' "$d" "$s"; done; done)
conversions=${CTS_CONVERSIONS:-$conv_default}

# suite -> "binary (relative to the build's test_conformance) | arguments before the subtest names"
declare -A bin args
def() { bin[$1]=$2; args[$1]=${3:-}; }
def test_basic basic/test_basic
def test_api api/test_api
def test_compiler compiler/test_compiler
def test_buffers buffers/test_buffers
def test_integer_ops integer_ops/test_integer_ops
def test_relationals relationals/test_relationals
def test_commonfns commonfns/test_commonfns
def test_geometrics geometrics/test_geometrics
def test_math_brute_force math_brute_force/test_bruteforce "-w"
def test_conversions conversions/test_conversions "-w"
def test_vectors vectors/test_vectors
def test_atomics atomics/test_atomics
def test_events events/test_events
def test_profiling profiling/test_profiling
def test_printf printf/test_printf
def test_allocations allocations/test_allocations "single 5 all"
def test_multiples multiple_device_context/test_multiples
def test_thread_dimensions thread_dimensions/test_thread_dimensions
# test_images: the image binaries, quick variants as the CTS's quick list runs them
def test_images_get_info images/clGetInfo/test_cl_get_info
def test_images_kernel_methods images/kernel_image_methods/test_kernel_image_methods
def test_images_streams images/kernel_read_write/test_image_streams "CL_FILTER_NEAREST"
def test_images_copy images/clCopyImage/test_cl_copy_images
def test_images_read_write images/clReadWriteImage/test_cl_read_write_images
def test_images_fill images/clFillImage/test_cl_fill_images
def test_images_samplerless images/samplerlessReads/test_samplerless_reads
default_suites="test_basic test_api test_compiler test_buffers test_images test_integer_ops test_relationals
test_commonfns test_geometrics test_math_brute_force test_conversions test_vectors test_atomics test_events
test_profiling test_printf test_allocations test_multiples"
image_args=${CTS_IMAGE_ARGS-small_images}
for s in test_images_get_info test_images_kernel_methods test_images_streams test_images_copy \
  test_images_read_write test_images_fill test_images_samplerless; do
  args[$s]="$image_args ${args[$s]}"
done
for s in "${!bin[@]}"; do
  v=CTS_ARGS_$s
  [ -n "${!v+set}" ] && args[$s]=${!v}
done
images="test_images_get_info test_images_kernel_methods test_images_streams test_images_copy test_images_read_write
test_images_fill test_images_samplerless"

suites=()
for s in ${@:-$default_suites}; do
  if [ "${s%%:*}" = test_images ]; then suites+=($images); else suites+=("$s"); fi
done
for s in "${suites[@]}"; do [ -n "${bin[${s%%:*}]:-}" ] || die "unknown suite ${s%%:*} (known: ${!bin[*]})"; done

# ---- build ----
if [ "${CTS_NO_BUILD:-0}" != 1 ]; then
  inc=/usr/include
  [ -n "${CTS_HEADERS:-}" ] && inc=$(cd "$CTS_HEADERS" && pwd)
  [ -f "$inc/CL/cl.h" ] || die "no CL/cl.h under $inc (apt-get install opencl-c-headers ocl-icd-opencl-dev, or CTS_HEADERS)"
  libdir=$(dirname "$(ldconfig -p | awk '/libOpenCL\.so /{print $NF; exit}')")
  [ -n "$libdir" ] && [ "$libdir" != . ] || die "no libOpenCL.so (apt-get install ocl-icd-opencl-dev)"
  spirv=()
  if grep -q SPIRV_INCLUDE_DIR "$cts/CMakeLists.txt"; then   # newer tags
    [ -f /usr/include/spirv/unified1/spirv.h ] || die "this CTS wants SPIR-V headers: apt-get install spirv-headers"
    spirv=(-DSPIRV_INCLUDE_DIR=/usr/include)
  fi
  if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$cts" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCL_INCLUDE_DIR="$inc" -DCL_LIB_DIR="$libdir" \
      -DOPENCL_LIBRARIES=OpenCL "${spirv[@]}" >"$out/configure.log" 2>&1 || die "configure failed: $out/configure.log"
  fi
  targets=()
  for s in "${suites[@]}"; do targets+=("$(basename "${bin[${s%%:*}]}")"); done
  cmake --build "$build" -j "${CTS_BUILD_JOBS:-2}" --target $(printf '%s\n' "${targets[@]}" | sort -u) \
    >"$out/build.log" 2>&1 || die "CTS build failed: $out/build.log"
fi

# ---- platforms ----
for p in $platforms; do
  case $p in
    umbra) [ -x "$umbra_build/umbra" ] || die "no $umbra_build/umbra: build umbra first (scripts/build.sh)" ;;
    pocl) [ -f "$pocl_icd" ] || die "no $pocl_icd (apt-get install pocl-opencl-icd)" ;;
    *) die "unknown platform $p (umbra, pocl)" ;;
  esac
done

# Run one subtest on one platform; print its status.
run_one() {
  local plat=$1 suite=$2 sub=$3 exe=$4 log json rc
  log="$out/logs/$plat/$suite.$sub.log"
  json="$out/logs/$plat/$suite.$sub.json"
  mkdir -p "$(dirname "$log")"
  rm -f "$json"
  local cmd=("$exe" ${args[$suite]} "$sub")
  (
    cd "$out/logs/$plat" || exit 1
    export CL_CONFORMANCE_RESULTS_FILENAME="$json"
    if [ "$plat" = umbra ]; then
      exec timeout -k 10 "$timeout_s" "$umbra_build/umbra" opencl ${CTS_UMBRA_OPTS:-} -- "${cmd[@]}"
    else
      OCL_ICD_VENDORS=$pocl_icd POCL_CACHE_DIR="$out/pocl-cache" exec timeout -k 10 "$timeout_s" "${cmd[@]}"
    fi
  ) >"$log" 2>&1
  rc=$?
  local key=$sub
  [ "$suite" = test_conversions ] && key=conversions   # it reports every conversion under this name
  if [ $rc = 124 ] || [ $rc = 137 ]; then echo timeout
  elif [ -f "$json" ] && grep -q "\"$key\": \"pass\"" "$json"; then echo pass
  elif [ -f "$json" ] && grep -q "\"$key\": \"skip\"" "$json"; then echo skip
  elif [ -f "$json" ] && grep -q "\"$key\": \"fail\"" "$json"; then echo fail
  else echo "crash"
  fi
}

# The subtests of a suite: the CTS's own list (-list), or the math and conversion subsets.
subtests_of() {
  local suite=$1 exe=$2
  if [ "$suite" = test_math_brute_force ]; then echo $math; return; fi
  if [ "$suite" = test_conversions ]; then echo $conversions; return; fi
  # the harness prints "Test names:" then one per line; test_printf its own usage, one per line
  OCL_ICD_VENDORS=$pocl_icd "$exe" -list 2>&1 | sed -n '/^Test names:/,$p; /default is to run/,$p' | tail -n +2 |
    awk 'NF == 1 && /^\t/ {print $1}'
}

results="$out/results.tsv"
: >"$results"
for entry in "${suites[@]}"; do
  suite=${entry%%:*}
  exe="$build/test_conformance/${bin[$suite]}"
  [ -x "$exe" ] || { echo "$suite: not built ($exe)"; continue; }
  if [ "$entry" != "$suite" ]; then subs=$(echo "${entry#*:}" | tr ',' ' ')
  else subs=$(subtests_of "$suite" "$exe"); fi
  for sub in $subs; do
    line="$suite $sub"
    declare -A st=()
    if [ "$jobs" -ge 2 ]; then
      for p in $platforms; do run_one "$p" "$suite" "$sub" "$exe" >"$out/.st.$p" & done
      wait
      for p in $platforms; do st[$p]=$(cat "$out/.st.$p"); done
    else
      for p in $platforms; do st[$p]=$(run_one "$p" "$suite" "$sub" "$exe"); done
    fi
    for p in $platforms; do line+=" $p=${st[$p]}"; done
    echo "$line"
    printf '%s\t%s' "$suite" "$sub" >>"$results"
    for p in $platforms; do printf '\t%s' "${st[$p]}" >>"$results"; done
    printf '\n' >>"$results"
    unset st
  done
done
rm -f "$out"/.st.*

# ---- per-suite table ----
{
  echo
  printf '%-28s' suite
  for p in $platforms; do printf ' %-32s' "$p pass/fail/skip/timeout/crash"; done
  echo
  awk -F'\t' -v plats="$platforms" '
    BEGIN { np = split(plats, P, " ") }
    { s = $1; if (!(s in seen)) { seen[s] = 1; order[++n] = s }
      for (i = 1; i <= np; i++) c[s, i, $(i + 2)]++ }
    END { for (k = 1; k <= n; k++) { s = order[k]; printf "%-28s", s
            for (i = 1; i <= np; i++)
              printf " %-32s", c[s,i,"pass"]+0 "/" c[s,i,"fail"]+0 "/" c[s,i,"skip"]+0 "/" c[s,i,"timeout"]+0 "/" c[s,i,"crash"]+0
            printf "\n" } }' "$results"
  echo
  echo "Subtests that pass on PoCL but not on umbra:"
  awk -F'\t' -v plats="$platforms" 'BEGIN { np = split(plats, P, " "); for (i = 1; i <= np; i++) col[P[i]] = i + 2 }
    ("umbra" in col) && ("pocl" in col) && $(col["pocl"]) == "pass" && $(col["umbra"]) != "pass" {
      print "  " $1 " " $2 ": umbra " $(col["umbra"]) }' "$results"
} | tee "$out/summary.txt"
