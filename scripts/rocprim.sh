#!/usr/bin/env bash
# Build rocPRIM's own tests of reduce, scan, radix sort and histogram (block- and device-level)
# with clang++-19 for gfx1100 and run each binary under `umbra hip --`.
#
# usage: scripts/rocprim.sh [--only NAME]... [--rebuild] ROCPRIM_DIR [BUILD_DIR]
#   ROCPRIM_DIR  a rocPRIM source tree of the ROCm 5.2 line, kept outside this repository, e.g.
#                  git --git-dir=/work/.mirror/ROCm+rocPRIM/repo archive rocm-5.2.3 |
#                    tar -x -C /work/scratch/rocPRIM
#   BUILD_DIR    umbra's build folder (default: build/; scripts/build.sh makes it)
#   --only NAME  build and run only this test (repeatable), e.g. --only device_reduce
#   --rebuild    rebuild the test binaries even when they are newer than their sources
# Environment: UMBRA_ROCPRIM_WORK (scratch folder, default /tmp/umbra-rocprim),
# UMBRA_ROCPRIM_TIMEOUT (seconds per test binary, default 3600), UMBRA_HIP_ARGS (options for
# `umbra hip`), UMBRA_ROCPRIM_CXXFLAGS (compiler flags after rocPRIM's own, e.g.
# -fno-strict-aliasing, which rocPRIM 5.2's load_volatile needs under clang 19, see
# docs/HIP-SAMPLES.md; give another UMBRA_ROCPRIM_WORK or --rebuild when changing them),
# GTEST_FILTER (passed on to every binary as --gtest_filter; by default "-*LargeIndices*": those
# tests reduce and scan counting iterators of 2^30 to 2^37 elements, hours to days of
# simulation; GTEST_FILTER= runs everything).
#
# rocPRIM's CMake is not used: it needs rocm-cmake (package config ROCM >= 0.7.3), which Debian 12
# does not package, and otherwise downloads it from GitHub while configuring. rocPRIM is header-only,
# so each test source is compiled directly with the flags its CMake would give it: hip::device from
# Debian's hip-config.cmake (-x hip --offload-arch=gfx1100 -mllvm -amdgpu-early-inline-all=true
# -mllvm -amdgpu-function-calls=false, --hip-link), C++14, Release (-O3 -DNDEBUG), the include
# folders of the rocprim and rocprim_hip targets and of the tests (rocprim_version.hpp generated
# from its .in as configure_file would), googletest's gtest and gtest_main. googletest comes from
# Debian's libgtest-dev, installed here with apt-get when missing. One flag more than rocPRIM's
# build: -Wno-error=missing-template-arg-list-after-template-kw, as clang 19 made that an error
# and rocPRIM 5.2's device_radix_sort.hpp:634 writes `template` before a name without arguments.
#
# Output: one line per test binary, NAME PASSED|FAILED|BUILD-FAILED and why (googletest's summary
# or the first failure). docs/HIP-SAMPLES.md records the results.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
only=() rebuild=0
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only+=("$2"); shift 2 ;;
    --rebuild) rebuild=1; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "rocprim: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 1 ]; then
  echo "usage: $0 [--only NAME]... [--rebuild] ROCPRIM_DIR [BUILD_DIR]" >&2
  exit 2
fi
src=$(cd "$1" && pwd)
build=$(cd "${2:-$root/build}" && pwd)
[ -f "$src/rocprim/include/rocprim/rocprim.hpp" ] && [ -d "$src/test/rocprim" ] ||
  { echo "rocprim: $1 is not a rocPRIM source tree" >&2; exit 2; }
. "$root/scripts/suite_common.sh"
hip_suite_build rocprim "$build"
suite_work rocprim UMBRA_ROCPRIM_WORK /tmp/umbra-rocprim
limit=${UMBRA_ROCPRIM_TIMEOUT:-3600}
read -r -a umbra_args <<<"${UMBRA_HIP_ARGS:-}"
read -r -a extra_cxxflags <<<"${UMBRA_ROCPRIM_CXXFLAGS:-}"
mkdir -p "$work/include/rocprim"

# googletest (Debian's libgtest-dev: static libgtest.a and libgtest_main.a)
if ! dpkg-query -W -f='${Status}' libgtest-dev 2>/dev/null | grep -q "install ok installed"; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "rocprim: libgtest-dev is missing: apt-get install libgtest-dev" >&2
    exit 2
  fi
  echo "rocprim: installing libgtest-dev" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libgtest-dev >/dev/null || exit 2
fi

# rocprim_version.hpp, as rocprim/CMakeLists.txt's configure_file makes it from the version in
# the top CMakeLists.txt (set(VERSION_STRING "x.y.z")).
version=$(sed -n 's/^set(VERSION_STRING "\([0-9.]*\)").*/\1/p' "$src/CMakeLists.txt" | head -n1)
IFS=. read -r vmaj vmin vpat <<<"${version:-0.0.0}"
sed -e "s/@rocprim_VERSION_MAJOR@/${vmaj:-0}/g" -e "s/@rocprim_VERSION_MINOR@/${vmin:-0}/g" \
    -e "s/@rocprim_VERSION_PATCH@/${vpat:-0}/g" "$src/rocprim/include/rocprim/rocprim_version.hpp.in" \
    >"$work/include/rocprim/rocprim_version.hpp.new"
cmp -s "$work/include/rocprim/rocprim_version.hpp.new" "$work/include/rocprim/rocprim_version.hpp" ||
  mv "$work/include/rocprim/rocprim_version.hpp.new" "$work/include/rocprim/rocprim_version.hpp"
rm -f "$work/include/rocprim/rocprim_version.hpp.new"

CXX=(clang++-19 -x hip --offload-arch=gfx1100 --rocm-path=/usr --rocm-device-lib-path="$dl"
     -mllvm -amdgpu-early-inline-all=true -mllvm -amdgpu-function-calls=false
     -Wno-error=missing-template-arg-list-after-template-kw
     -std=c++14 -O3 -DNDEBUG -D__HIP_PLATFORM_HCC__=1 -D__HIP_PLATFORM_AMD__=1
     -I"$work/include" -I"$work/include/rocprim" -I"$src/rocprim/include" -isystem "$src/test"
     ${extra_cxxflags[@]+"${extra_cxxflags[@]}"})
LINK=(--hip-link -lgtest -lgtest_main -pthread)

# The tests (rocPRIM's test/rocprim/CMakeLists.txt names them rocprim.NAME, source test_NAME.cpp).
tests=(block_reduce block_scan block_radix_sort block_histogram
       device_reduce device_scan device_radix_sort device_histogram)

wanted() {
  [ ${#only[@]} -eq 0 ] && return 0
  local o; for o in "${only[@]}"; do [ "$o" = "$1" ] && return 0; done
  return 1
}

why() {
  local l="" p
  for p in "error:|hipError|fault|abort|not supported|not implemented" "Failure|FAILED|Expected|Which is" "error|failed"; do
    l=$(grep -a -m1 -E "$p" "$1" | tr -s ' \t' ' ' | cut -c1-160)
    [ -n "$l" ] && break
  done
  [ -n "$l" ] || l=$(grep -a -v '^\s*$' "$1" | tail -n1 | tr -s ' \t' ' ' | cut -c1-160)
  echo "$l"
}

report() { printf '%-26s %-13s %s\n' "$1" "$2" "$3"; }

echo "# rocPRIM $version tests ($src) on umbra ($build)"
for t in "${tests[@]}"; do
  wanted "$t" || continue
  name=rocprim.$t
  cpp=$src/test/rocprim/test_$t.cpp
  exe=$work/test_$t
  if [ ! -f "$cpp" ]; then
    report "$name" BUILD-FAILED "no $cpp"
    continue
  fi
  newest=$( { find "$src/rocprim/include" "$src/test" -newer "$exe" -name '*.?pp' -print -quit
              find -L "$dl" -newer "$exe" -name '*.bc' -print -quit; } 2>/dev/null)
  if [ $rebuild = 1 ] || [ ! -x "$exe" ] || [ -n "$newest" ]; then
    start=$SECONDS
    if ! "${CXX[@]}" "$cpp" -o "$exe" "${LINK[@]}" >"$work/$t.build.log" 2>&1; then
      rm -f "$exe"
      report "$name" BUILD-FAILED "$(why "$work/$t.build.log")"
      continue
    fi
    echo "# built $name in $((SECONDS - start)) s" >&2
  fi
  log=$work/$t.run.log
  filter=()
  f=${GTEST_FILTER--*LargeIndices*}
  [ -n "$f" ] && filter=(--gtest_filter="$f")
  start=$SECONDS
  (cd "$work" && timeout "$limit" "$umbra" hip "${umbra_args[@]}" -- "$exe" --gtest_color=no "${filter[@]}") >"$log" 2>&1
  rc=$?
  secs=$((SECONDS - start))
  passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n1)
  failed=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n1)
  ran=$(sed -n 's/^\[==========\] \([0-9]*\) tests\{0,1\} from .* ran.*/\1/p' "$log" | tail -n1)
  if [ $rc -eq 124 ]; then
    report "$name" FAILED "timed out after ${limit}s ($(grep -c '^\[       OK \]' "$log") tests passed so far): $(why "$log")"
  elif [ $rc -ne 0 ] || [ -n "$failed" ] || [ -z "$passed" ]; then
    first=$(grep -a -m1 '^\[  FAILED  \] [A-Za-z]' "$log" | sed 's/^\[  FAILED  \] //' | cut -c1-80)
    report "$name" FAILED "exit status $rc, ${passed:-0} of ${ran:-?} passed${first:+, first failure $first}: $(why "$log")"
  else
    report "$name" PASSED "$passed of $ran tests in ${secs} s"
  fi
done
