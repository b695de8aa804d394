#!/usr/bin/env bash
# Build the HIP runtime's own Catch2 unit tests (ROCm's hip-tests) unmodified and run every test
# case under `umbra hip --`, one process per test case, each under a timeout.
#
# usage: scripts/hip-tests.sh [--only EXE]... [--no-build] CHECKOUT [BUILD_DIR]
#   CHECKOUT   the tests, kept outside this repository: a checkout of ROCm/HIP at the tag that
#              matches Debian's HIP headers (its tests/catch), e.g.
#                git --git-dir=/work/.mirror/ROCm+HIP/repo archive rocm-5.2.3 tests/catch |
#                  tar -x -C /work/scratch/hiptests
#              or a checkout of ROCm/hip-tests (its catch/; newer tests assume newer headers)
#   BUILD_DIR  umbra's build folder (default: build/; scripts/build.sh makes it)
#   --only EXE run only the named test programs (repeatable; e.g. --only EventTest)
#   --no-build run what the work folder holds
# Environment: UMBRA_HIPTESTS_WORK (scratch folder, default /tmp/umbra-hip-tests: the CMake
# build of the tests and the logs), UMBRA_HIPTESTS_TIMEOUT (seconds a test case, default 600),
# UMBRA_HIP_ARGS (options for `umbra hip`).
#
# The tests' CMake build wants a HIP installation (HIP_PATH/bin/hipcc, hipconfig, include); the
# script makes one in the work folder whose hipcc is clang++-19 for gfx1100 with umbra's device
# libraries and Debian's HIP headers, and adds CATCH_CONFIG_NO_POSIX_SIGNALS (the bundled Catch2
# 2.13 does not compile against glibc 2.34+, whose MINSIGSTKSZ is no longer a constant) and
# -Wno-error (the tests build with -Werror, and clang 19 warns where the clang of their day did
# not: `[[nodiscard]]` HIP calls, empty variadic macro arguments). Test
# programs that do not compile are listed as BUILD-FAILED with the compiler's first error.
#
# Output: one line per test case, "PROGRAM TEST-CASE pass|fail|skip|timeout|crash", then one per
# program with its counts; results.tsv and each case's log in the work folder. A case is "skip"
# when it passes having printed hip-tests' own skip notice. docs/HIP-SAMPLES.md records the results.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
only=() build_tests=1
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only+=("$2"); shift 2 ;;
    --no-build) build_tests=0; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "hip-tests: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: $0 [--only EXE]... [--no-build] CHECKOUT [BUILD_DIR]" >&2; exit 2; }
src=$(cd "$1" 2>/dev/null && pwd) || { echo "hip-tests: no such folder: $1" >&2; exit 2; }
if [ -f "$src/tests/catch/CMakeLists.txt" ]; then catch=$src/tests/catch
elif [ -f "$src/catch/CMakeLists.txt" ]; then catch=$src/catch
else echo "hip-tests: $src holds neither tests/catch (ROCm/HIP) nor catch (ROCm/hip-tests)" >&2; exit 2; fi
build=$(cd "${2:-$root/build}" 2>/dev/null && pwd) || { echo "hip-tests: no build folder ${2:-build}" >&2; exit 2; }
. "$root/scripts/suite_common.sh"
hip_suite_build hip-tests "$build"
suite_work hip-tests UMBRA_HIPTESTS_WORK /tmp/umbra-hip-tests
limit=${UMBRA_HIPTESTS_TIMEOUT:-600}
read -r -a umbra_args <<<"${UMBRA_HIP_ARGS:-}"
mkdir -p "$work/hip/bin" "$work/hip/lib" "$work/logs"

# ---- the HIP installation the tests' CMake build expects ----
version=$(awk '/#define HIP_VERSION_(MAJOR|MINOR|PATCH)/{printf "%s%s", sep, $3; sep="."}' /usr/include/hip/hip_version.h)
[ -n "$version" ] || { echo "hip-tests: no /usr/include/hip/hip_version.h (apt-get install libamdhip64-dev)" >&2; exit 2; }
ln -sfn /usr/include "$work/hip/include"
printf 'print "%s-0\\n";\n' "$version" >"$work/hip/bin/hipconfig"   # the build runs it with perl
cat >"$work/hip/bin/hipcc" <<EOF
#!/usr/bin/env bash
# clang++-19 in the place of hipcc: HIP sources for gfx1100 with umbra's device libraries
flags=(--offload-arch=gfx1100 --rocm-path=/usr --rocm-device-lib-path=$dl -O3 -Wno-unused-command-line-argument)
for a in "\$@"; do [ "\$a" = -c ] && exec clang++-19 -x hip "\${flags[@]}" -DCATCH_CONFIG_NO_POSIX_SIGNALS "\$@" -Wno-error; done
exec clang++-19 --hip-link "\${flags[@]}" -L$work/hip/lib "\$@" -lamdhip64 -lpthread
EOF
chmod +x "$work/hip/bin/hipcc" "$work/hip/bin/hipconfig"
# HIP 5.2 keeps hipRTC in libamdhip64 (and so does umbra's runtime); the tests link -lhiprtc
echo 'INPUT(-lamdhip64)' >"$work/hip/lib/libhiprtc.so"

# ---- build ----
if [ $build_tests = 1 ]; then
  HIP_PATH=$work/hip ROCM_PATH=/usr cmake -S "$catch" -B "$work/build" -DHIP_PLATFORM=amd -DHIP_COMPILER=clang \
    -DOFFLOAD_ARCH_STR=--offload-arch=gfx1100 >"$work/logs/configure.log" 2>&1 ||
    { echo "hip-tests: configure failed: $work/logs/configure.log" >&2; exit 1; }
  targets=(build_tests)
  [ ${#only[@]} -gt 0 ] && targets=("${only[@]}")
  cmake --build "$work/build" -j "${UMBRA_HIPTESTS_JOBS:-2}" --target "${targets[@]}" -- -k >"$work/logs/build.log" 2>&1
  # programs whose build failed, each with the first error line of its log
  grep -oE "\*\*\* \[[^]]*CMakeFiles/[A-Za-z0-9_]+\.dir/build.make" "$work/logs/build.log" |
    sed -E 's/.*CMakeFiles\/([A-Za-z0-9_]+)\.dir.*/\1/' | sort -u | while read -r t; do
      why=$(grep -E "error:|cannot find|undefined reference" "$work/logs/build.log" | grep -v "linker command failed" |
            grep -m1 -F "$t" || grep -m1 -E "error:|cannot find|undefined reference" "$work/logs/build.log")
      printf '%s\tBUILD-FAILED\t%s\n' "$t" "$why"
    done >"$work/build_failed.tsv"
fi

# ---- run: one process per test case ----
mapfile -t exes < <(find "$work/build" -type f -perm -u+x -path '*/unit/*' ! -name '*.so' ! -path '*/CMakeFiles/*' | sort)
: >"$work/results.tsv"
wanted() { [ ${#only[@]} -eq 0 ] && return 0; local o; for o in "${only[@]}"; do [ "$o" = "$1" ] && return 0; done; return 1; }
for exe in "${exes[@]}"; do
  name=$(basename "$exe")
  wanted "$name" || continue
  grep -q "host application" "$exe" 2>/dev/null || continue   # helpers the tests run (printfExe's), not Catch tests
  mapfile -t cases < <(cd "$(dirname "$exe")" && "$umbra" hip -- "$exe" --list-test-names-only 2>/dev/null | sed '/^$/d')
  for tc in "${cases[@]}"; do
    log="$work/logs/$name.$(printf '%s' "$tc" | tr -c 'A-Za-z0-9_.-' '_').log"
    spec=$(printf '%s' "$tc" | sed 's/[][,\\*]/\\&/g')   # Catch's test-spec characters, escaped
    (cd "$(dirname "$exe")" && timeout -k 10 "$limit" "$umbra" hip "${umbra_args[@]}" -- "$exe" "$spec") >"$log" 2>&1
    rc=$?
    if [ $rc = 124 ] || [ $rc = 137 ]; then st=timeout
    elif grep -q "^HIP_SKIP_THIS_TEST" "$log"; then st=skip   # disabled in the tests' own config
    elif [ $rc = 0 ] && grep -q "^All tests passed\|^test cases: .* passed" "$log" && ! grep -q "FAILED:" "$log"; then
      if grep -qi "skip" "$log"; then st=skip; else st=pass; fi
    elif grep -q "FAILED:\|^test cases:.*failed" "$log"; then st=fail
    else st=crash; fi
    printf '%s\t%s\t%s\n' "$name" "$tc" "$st" | tee -a "$work/results.tsv"
  done
done

# ---- summary ----
echo
[ -s "$work/build_failed.tsv" ] && { echo "Programs that did not build:"; cut -f1,3 "$work/build_failed.tsv" | sed 's/^/  /'; echo; }
awk -F'\t' '{ n[$1]++; c[$1, $3]++; t[$3]++ }
  END { printf "%-28s %5s %5s %5s %5s %7s %5s\n", "program", "cases", "pass", "fail", "skip", "timeout", "crash";
        for (p in n) printf "%-28s %5d %5d %5d %5d %7d %5d\n", p, n[p], c[p,"pass"], c[p,"fail"], c[p,"skip"], c[p,"timeout"], c[p,"crash"];
        printf "%-28s %5d %5d %5d %5d %7d %5d\n", "all", NR, t["pass"], t["fail"], t["skip"], t["timeout"], t["crash"] }' \
  "$work/results.tsv"
