#!/usr/bin/env bash
# Build the Khronos OpenCL SDK's samples (KhronosGroup/OpenCL-SDK) unmodified and run the SDK's
# own CTest of them on umbra (`umbra opencl --`) and on PoCL, side by side.
#
# usage: scripts/opencl-sdk.sh [--no-pocl] SDK_CHECKOUT DEPS_DIR [BUILD_DIR]
#   SDK_CHECKOUT  a checkout of KhronosGroup/OpenCL-SDK without its submodules, kept outside this
#                 repository, e.g. (v2023.12.14 matches Debian 12's OpenCL headers best):
#                   git --git-dir=/work/.mirror/KhronosGroup+OpenCL-SDK/repo archive v2023.12.14 |
#                     tar -x -C /work/scratch/opencl-sdk
#   DEPS_DIR      a folder with the two libraries the SDK's CMake would download (FetchContent):
#                 DEPS_DIR/whereami (gpakosz/whereami at ba364cd) and DEPS_DIR/cargs (likle/cargs
#                 at v1.0.1), e.g. from the fetch tool's mirrors with git archive
#   BUILD_DIR     umbra's build folder (default: build/)
#   --no-pocl     run on umbra only
# Environment: UMBRA_SDK_WORK (scratch folder, default /tmp/umbra-opencl-sdk), UMBRA_SDK_TIMEOUT
# (seconds a sample, default 1800: `callback` runs 10000 reaction-diffusion steps on a 512 x 512
# image), UMBRA_OPENCL_ARGS (options for `umbra opencl`).
#
# The SDK builds its own OpenCL headers, C++ bindings and ICD loader from git submodules; the
# script gives it Debian's instead (opencl-c-headers, opencl-clhpp-headers and ocl-icd, through
# three one-line CMake files in its external/ folders) and Debian's TCLAP and stb
# (libtclap-dev, libstb-dev; installed when missing). The OpenGL samples are off (no display).
# Output: one line per sample, "NAME umbra-result pocl-result", then the counts; the CTest logs
# in the work folder. docs/OPENCL.md ("The Khronos OpenCL SDK's samples") records the results.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
pocl=1
while [ $# -gt 0 ]; do
  case "$1" in
    --no-pocl) pocl=0; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "opencl-sdk: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { echo "usage: $0 [--no-pocl] SDK_CHECKOUT DEPS_DIR [BUILD_DIR]" >&2; exit 2; }
sdk=$(cd "$1" 2>/dev/null && pwd) || { echo "opencl-sdk: no such folder: $1" >&2; exit 2; }
deps=$(cd "$2" 2>/dev/null && pwd) || { echo "opencl-sdk: no such folder: $2" >&2; exit 2; }
[ -f "$sdk/samples/CMakeLists.txt" ] || { echo "opencl-sdk: $sdk is no OpenCL-SDK checkout" >&2; exit 2; }
[ -f "$deps/whereami/src/whereami.c" ] && [ -f "$deps/cargs/include/cargs.h" ] ||
  { echo "opencl-sdk: $deps needs whereami/ and cargs/ checkouts" >&2; exit 2; }
build=$(cd "${3:-$root/build}" 2>/dev/null && pwd) || { echo "opencl-sdk: no build folder ${3:-build}" >&2; exit 2; }
[ -x "$build/umbra" ] || { echo "opencl-sdk: no umbra in $build (run scripts/build.sh)" >&2; exit 2; }
. "$root/scripts/suite_common.sh"
suite_work opencl-sdk UMBRA_SDK_WORK /tmp/umbra-opencl-sdk
limit=${UMBRA_SDK_TIMEOUT:-1800}
read -r -a umbra_args <<<"${UMBRA_OPENCL_ARGS:-}"
pocl_icd=/etc/OpenCL/vendors/pocl.icd
[ $pocl = 1 ] && [ ! -f "$pocl_icd" ] && { echo "opencl-sdk: no PoCL ($pocl_icd; apt-get install pocl-opencl-icd, or --no-pocl)" >&2; exit 2; }

if [ ! -f /usr/include/tclap/CmdLine.h ] || [ ! -f /usr/include/stb/stb_image.h ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q libtclap-dev libstb-dev >/dev/null ||
    { echo "opencl-sdk: cannot install libtclap-dev libstb-dev" >&2; exit 2; }
fi

# The sources, with Debian's headers, bindings and ICD loader in place of the submodules.
rm -rf "$work/src" "$work/build"
mkdir -p "$work/src" "$work/build/_deps" "$work/logs"
cp -r "$sdk/." "$work/src/"
ext=$work/src/external
mkdir -p "$ext/OpenCL-Headers" "$ext/OpenCL-CLHPP" "$ext/OpenCL-ICD-Loader"
printf 'set(CMAKE_FIND_PACKAGE_TARGETS_GLOBAL ON)\nfind_package(OpenCLHeaders REQUIRED)\n' >"$ext/OpenCL-Headers/CMakeLists.txt"
printf 'set(CMAKE_FIND_PACKAGE_TARGETS_GLOBAL ON)\nfind_package(OpenCLHeadersCpp REQUIRED)\n' >"$ext/OpenCL-CLHPP/CMakeLists.txt"
cat >"$ext/OpenCL-ICD-Loader/CMakeLists.txt" <<'EOF'
find_library(OCL_ICD_LIB OpenCL REQUIRED)
add_library(OpenCL SHARED IMPORTED GLOBAL)
set_target_properties(OpenCL PROPERTIES IMPORTED_LOCATION ${OCL_ICD_LIB} INTERFACE_LINK_LIBRARIES OpenCL::Headers)
add_library(OpenCL::OpenCL ALIAS OpenCL)
EOF
# FetchContent's sources where the SDK's CMake expects them (its whereami.cmake names the folder),
# cargs with the CMakeLists the SDK patches in.
cp -r "$deps/whereami" "$work/build/_deps/whereami-external-src"
cp -r "$deps/cargs" "$work/build/_deps/cargs-external-src"
cp "$work/src/cmake/Dependencies/cargs/CMakeLists.txt" "$work/build/_deps/cargs-external-src/CMakeLists.txt"

cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DOPENCL_SDK_BUILD_OPENGL_SAMPLES=OFF \
  -DFETCHCONTENT_FULLY_DISCONNECTED=ON >"$work/logs/configure.log" 2>&1 ||
  { echo "opencl-sdk: configure failed: $work/logs/configure.log" >&2; exit 1; }
cmake --build "$work/build" -j "${UMBRA_SDK_JOBS:-2}" -- -k >"$work/logs/build.log" 2>&1   # -k: every sample that builds

# The samples' tests (the SDK's own CTest entries), once per platform.
samples=$(ctest --test-dir "$work/build" -N | sed -n 's/^ *Test *#[0-9]*: //p' | grep -v '^option_')
run_ctest() {   # LABEL COMMAND-PREFIX...: ctest of every sample, its environment set by the prefix
  local label=$1; shift
  (cd "$work/build" && "$@" ctest --timeout "$limit" -E '^option_' >"$work/logs/ctest.$label.log" 2>&1)
}
run_ctest umbra "$build/umbra" opencl "${umbra_args[@]}" --
[ $pocl = 1 ] && run_ctest pocl env OCL_ICD_VENDORS="$pocl_icd"

result() {   # LABEL SAMPLE -> pass|fail|timeout|not-built|not-run
  local log=$work/logs/ctest.$1.log line
  [ -f "$log" ] || { echo not-run; return; }
  line=$(grep -E "Test +#[0-9]+: $2 " "$log")
  case "$line" in
    *Passed*) echo pass ;; *Timeout*) echo timeout ;; *"Not Run"*) echo not-built ;; "") echo not-run ;; *) echo fail ;;
  esac
}
echo
printf '%-20s %-10s %s\n' sample umbra pocl
for s in $samples; do printf '%-20s %-10s %s\n' "$s" "$(result umbra "$s")" "$(result pocl "$s")"; done
