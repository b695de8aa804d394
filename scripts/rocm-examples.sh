#!/usr/bin/env bash
# Build AMD's HIP examples (ROCm/rocm-examples: HIP-Basic and Applications) unmodified, each with
# its own Makefile, and run each under `umbra hip --`.
#
# usage: scripts/rocm-examples.sh [--only NAME]... [--libraries DIR] [--tutorial-tests] CHECKOUT [BUILD_DIR]
#   CHECKOUT   a checkout of ROCm/rocm-examples (the folder holding HIP-Basic/, Applications/,
#              Libraries/ and Common/), kept outside this repository, e.g.
#                git --git-dir=/work/.mirror/ROCm+rocm-examples/repo archive rocm-6.2.0 \
#                  HIP-Basic Applications Libraries Common | tar -x -C /work/scratch/rocm-examples
#   BUILD_DIR  umbra's build folder (default: build/; scripts/build.sh makes it)
#   --only NAME  run only the named examples (the folder name, or LIBRARY/NAME; repeatable)
#   --libraries DIR  also build the examples of Libraries/rocPRIM, hipCUB and rocThrust
#              (header-only libraries, not in Debian 12) against the checkouts DIR/rocPRIM,
#              DIR/hipCUB, DIR/rocThrust (those present), e.g. at the tag of Debian's HIP:
#                for r in rocPRIM hipCUB rocThrust; do mkdir -p DIR/$r
#                  git --git-dir=/work/.mirror/ROCm+$r/repo archive rocm-5.2.3 | tar -x -C DIR/$r; done
#              Their headers are copied into the work folder with the version headers their
#              CMake would generate. These examples print results without checking them; the
#              script checks each against the value a host computation of its inputs gives
#              (expected_lib below).
#   --tutorial-tests  also build and run the reduction tutorial's googletest suites
#              (Tutorials/reduction/test/v1..v10: every kernel against std::reduce over many
#              sizes; 2-10 minutes each here), with Debian's libgtest-dev.
# A checkout from after rocm-6.2.0 also has Tutorials/reduction: its nine example programs
# (example/v1..v9, a reduction kernel made faster step by step, each checking its sum) are built
# as its CMake builds them (C++20, the tutorial's include/ folder) and run.
# Environment: UMBRA_ROCMEX_WORK (scratch folder, default /tmp/umbra-rocm-examples: a copy of the
# sources, the builds and the logs), UMBRA_ROCMEX_TIMEOUT (seconds a run, default 600),
# UMBRA_HIP_ARGS (options for `umbra hip`).
#
# The Makefiles call $(HIPCXX) (hipcc), and three examples also $(CLANG), $(LLVM_MC),
# $(LLVM_DIS) and $(CLANG_OFFLOAD_BUNDLER); the script passes a hipcc that is clang++-19 for
# gfx1100 with umbra's device libraries and Debian's HIP 5.2 headers (hipcc's -O3 added), a clang
# that is clang-19 with those device libraries, and LLVM 19's tools, with
# HIP_ARCHITECTURES=gfx1100. An example passes when it builds, exits 0 and
# prints no "Validation failed"; each example checks its own results against a host computation
# (most print "Validation passed."). Examples that need what this machine cannot give are
# listed with the reason and not built: OpenGL/Vulkan interop (a display), hipify (hipify-perl,
# not in Debian 12), monte_carlo_pi (hipRAND, not in Debian 12).
#
# Output: one line per example, "NAME pass|fail|build-failed|timeout|not-run  why", then the
# counts; results.tsv and each example's build and run log in the work folder.
# docs/HIP-SAMPLES.md records the results.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
only=() libs= tutorial_tests=0
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only+=("$2"); shift 2 ;;
    --libraries) libs=$(cd "$2" 2>/dev/null && pwd) || { echo "rocm-examples: no such folder: $2" >&2; exit 2; }; shift 2 ;;
    --tutorial-tests) tutorial_tests=1; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "rocm-examples: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: $0 [--only NAME]... [--libraries DIR] CHECKOUT [BUILD_DIR]" >&2; exit 2; }
src=$(cd "$1" 2>/dev/null && pwd) || { echo "rocm-examples: no such folder: $1" >&2; exit 2; }
[ -d "$src/HIP-Basic" ] && [ -d "$src/Common" ] ||
  { echo "rocm-examples: $src holds no HIP-Basic/ and Common/ (a ROCm/rocm-examples checkout)" >&2; exit 2; }
build=$(cd "${2:-$root/build}" 2>/dev/null && pwd) || { echo "rocm-examples: no build folder ${2:-build}" >&2; exit 2; }
. "$root/scripts/suite_common.sh"
hip_suite_build rocm-examples "$build"
suite_work rocm-examples UMBRA_ROCMEX_WORK /tmp/umbra-rocm-examples
limit=${UMBRA_ROCMEX_TIMEOUT:-600}
read -r -a umbra_args <<<"${UMBRA_HIP_ARGS:-}"
for tool in clang++-19 clang-19 llvm-mc-19 llvm-dis-19 clang-offload-bundler-19 make; do
  command -v "$tool" >/dev/null || { echo "rocm-examples: $tool not found (scripts/deps.sh installs it)" >&2; exit 2; }
done

rm -rf "$work/src"
mkdir -p "$work/src" "$work/bin" "$work/logs"
cp -r "$src/HIP-Basic" "$src/Applications" "$src/Common" "$work/src/"
[ -n "$libs" ] && [ -d "$src/Libraries" ] && cp -r "$src/Libraries" "$work/src/"
[ -d "$src/Tutorials/reduction" ] && mkdir -p "$work/src/Tutorials" && cp -r "$src/Tutorials/reduction" "$work/src/Tutorials/"

# The header-only libraries as their installation would lay them out: include/rocprim, hipcub,
# thrust, each with the version header its CMake generates from VERSION_STRING.
lib_dirs=()
if [ -n "$libs" ]; then
  inc=$work/include
  rm -rf "$inc"; mkdir -p "$inc"
  version_header() {   # TEMPLATE.in PREFIX CMAKELISTS
    local v; v=$(grep -oE '(VERSION_STRING|rocm_setup_version\(VERSION) "[0-9]+\.[0-9]+\.[0-9]+"' "$3" | head -1 |
                 grep -oE '[0-9]+\.[0-9]+\.[0-9]+')
    IFS=. read -r ma mi pa <<<"${v:-0.0.0}"
    sed -e "s/@$2_VERSION_MAJOR@/$ma/g; s/@$2_VERSION_MINOR@/$mi/g; s/@$2_VERSION_PATCH@/$pa/g" "$1" >"${1%.in}"
  }
  if [ -d "$libs/rocPRIM/rocprim/include/rocprim" ]; then
    cp -r "$libs/rocPRIM/rocprim/include/rocprim" "$inc/"
    version_header "$inc/rocprim/rocprim_version.hpp.in" rocprim "$libs/rocPRIM/CMakeLists.txt"
    lib_dirs+=("$work"/src/Libraries/rocPRIM/*/)
  fi
  if [ -d "$libs/hipCUB/hipcub/include/hipcub" ] && [ -d "$inc/rocprim" ]; then
    cp -r "$libs/hipCUB/hipcub/include/hipcub" "$inc/"
    version_header "$inc/hipcub/hipcub_version.hpp.in" hipcub "$libs/hipCUB/CMakeLists.txt"
    lib_dirs+=("$work"/src/Libraries/hipCUB/*/)
  fi
  if [ -d "$libs/rocThrust/thrust" ] && [ -d "$inc/rocprim" ]; then
    cp -r "$libs/rocThrust/thrust" "$inc/"
    version_header "$inc/thrust/rocthrust_version.hpp.in" rocthrust "$libs/rocThrust/CMakeLists.txt"
    lib_dirs+=("$work"/src/Libraries/rocThrust/*/)
  fi
fi

# What the library examples print, from a host computation of their inputs (each example's
# main.hip): a line of the run's output must hold the text. block_sum prints its own expectation.
declare -A expected_lib=(
  [hipCUB/device_radix_sort]="Sorted (key, value) pairs: [ (0, 9), (1.1, 8), (2.1, 1), (2.2, 4), (2.7, 7), (3.6, 6), (4, 3), (5, 5), (7.3, 2), (9.3, 0) ]"
  [hipCUB/device_sum]="Reduced summation result: 42"       # 0+1+2+3+4+5+6+6+7+8
  [rocPRIM/device_sum]="Reduced summation result: 42"
  [rocThrust/device_ptr]="The sum of values in \"wrapped_ptr\" is 66"   # 1+11+12+3+...+9
  [rocThrust/norm]="The Euclidean norm is: 5.5"             # sqrt(0.25 + 1 + 4 + 25)
  [rocThrust/reduce_sum]="The sum is: 542"                  # 500 + 33 - 1 + 0 + 10
  [rocThrust/remove_points]="15 points remain"              # 5 of its 20 points lie outside
  [rocThrust/saxpy]="By Fused Multiply-Add operation = [ 9, 8, 7, 6 ]"
  [rocThrust/vectors]="device_vector after setting elements: [ 99, 88 ]"
)
rm -f "$work/results.tsv"

# hipcc: clang++-19 for gfx1100 (no second --offload-arch when the Makefile names one), linking
# umbra's libamdhip64 (what `umbra hip` then loads in ROCm's place).
cat >"$work/bin/hipcc" <<EOF
#!/usr/bin/env bash
flags=(--rocm-path=/usr --rocm-device-lib-path=$dl -O3 -Wno-unused-command-line-argument)
arch=(--offload-arch=gfx1100)
link=1 hip=1
for a in "\$@"; do
  case "\$a" in
    --offload-arch=*) arch=() ;;
    -c|--genco|-emit-llvm) link=0 ;;
    *.o|*.a) hip=0 ;;
  esac
done
args=()
for a in "\$@"; do [ "\$a" = --genco ] && args+=(--cuda-device-only) || args+=("\$a"); done
lang=(); [ \$hip = 1 ] && lang=(-x hip)
if [ \$link = 1 ]; then
  exec clang++-19 "\${lang[@]}" "\${arch[@]}" "\${flags[@]}" --hip-link "\${args[@]}" -L$build/hip -lamdhip64 -lpthread
fi
exec clang++-19 "\${lang[@]}" "\${arch[@]}" "\${flags[@]}" "\${args[@]}"
EOF
# clang: clang-19 with the device libraries where ROCm's own clang finds them in its installation
printf '#!/bin/sh\nexec clang-19 --rocm-device-lib-path=%s "$@"\n' "$dl" >"$work/bin/clang"
chmod +x "$work/bin/hipcc" "$work/bin/clang"
make_vars=(HIPCXX="$work/bin/hipcc" CLANG="$work/bin/clang" LLVM_MC=llvm-mc-19 LLVM_DIS=llvm-dis-19
           CLANG_OFFLOAD_BUNDLER=clang-offload-bundler-19 HIP_ARCHITECTURES=gfx1100 GPU_RUNTIME=HIP)
[ -n "$libs" ] && make_vars+=(CPPFLAGS="-isystem $work/include")

declare -A not_run=(
  [opengl_interop]="needs an OpenGL display" [vulkan_interop]="needs a Vulkan display"
  [hipify]="needs hipify-perl (not in Debian 12)" [monte_carlo_pi]="needs hipRAND (not in Debian 12)"
)

wanted() {
  [ ${#only[@]} -eq 0 ] && return 0
  local o; for o in "${only[@]}"; do [ "$o" = "$1" ] && return 0; done; return 1
}

record() { printf '%-28s %-12s %s\n' "$1" "$2" "$3"; printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$work/results.tsv"; }

for dir in "$work"/src/HIP-Basic/*/ "$work"/src/Applications/*/ "${lib_dirs[@]}"; do
  name=$(basename "$dir")
  case "$dir" in */Libraries/*) name=$(basename "$(dirname "$dir")")/$name ;; esac
  [ -f "$dir/Makefile" ] || continue
  wanted "$name" || continue
  if [ -n "${not_run[$name]:-}" ]; then record "$name" not-run "${not_run[$name]}"; continue; fi
  exe=$(sed -n 's/^EXAMPLE *:= *//p' "$dir/Makefile" | head -1)
  if ! make -C "$dir" "${make_vars[@]}" >"$work/logs/${name//\//_}.build" 2>&1 || [ ! -x "$dir/$exe" ]; then
    record "$name" build-failed "$(grep -m1 -E 'error' "$work/logs/${name//\//_}.build" | cut -c1-160)"
    continue
  fi
  log=$work/logs/${name//\//_}
  (cd "$dir" && timeout -k 10 "$limit" "$build/umbra" hip "${umbra_args[@]}" -- "./$exe") >"$log.run" 2>&1
  rc=$?
  last=$(grep -a -v '^\s*$' "$log.run" | tail -1 | cut -c1-120)
  want=${expected_lib[$name]:-}
  if [ $rc = 124 ] || [ $rc = 137 ]; then record "$name" timeout "after ${limit} s"
  elif [ $rc != 0 ]; then record "$name" fail "exit $rc: $last"
  elif grep -a -q -i "validation failed" "$log.run"; then record "$name" fail "$last"
  elif [ -n "$want" ] && ! grep -a -q -F "$want" "$log.run"; then record "$name" fail "no line holds: $want"
  elif [ "$name" = rocPRIM/block_sum ] && { got=$(sed -n 's/^Reduced Summation Result:\t//p' "$log.run")
         [ -z "$got" ] || [ "$got" != "$(sed -n 's/^Expected Summation Result:\t//p' "$log.run")" ]; }; then
    record "$name" fail "its reduced sums are missing or differ from its expected sums"
  else record "$name" pass "$last"
  fi
done

# The reduction tutorial: no Makefile; built as its CMake builds it (C++20, its include/ folder).
# A program passes when it exits 0 and prints "Validation passed!" (examples) or googletest's
# "[  PASSED  ]" with no failed test (tests).
tutorial=$work/src/Tutorials/reduction
run_tutorial() {   # NAME SOURCE PASS-TEXT EXTRA-FLAGS... (after the source: libraries)
  local name=$1 source=$2 want=$3; shift 3
  wanted "$name" || return 0
  local log=$work/logs/${name//\//_}
  if ! "$work/bin/hipcc" -std=c++20 -I "$work/src/Common" -I "$tutorial/include" "$source" "$@" \
       -o "$log.exe" >"$log.build" 2>&1; then
    record "$name" build-failed "$(grep -m1 -E 'error' "$log.build" | cut -c1-160)"; return 0
  fi
  timeout -k 10 "$limit" "$build/umbra" hip "${umbra_args[@]}" -- "$log.exe" >"$log.run" 2>&1
  local rc=$?
  local last; last=$(grep -a -v '^\s*$' "$log.run" | tail -1 | cut -c1-120)
  if [ $rc = 124 ] || [ $rc = 137 ]; then record "$name" timeout "after ${limit} s"
  elif [ $rc != 0 ] || ! grep -a -q -F "$want" "$log.run" || grep -a -q -F "[  FAILED  ]" "$log.run"; then
    record "$name" fail "exit $rc: $last"
  else record "$name" pass "$last"
  fi
}
if [ -d "$tutorial" ]; then
  for v in 1 2 3 4 5 6 7 8 9; do
    [ -f "$tutorial/example/v$v.hip" ] && run_tutorial "reduction/example_v$v" "$tutorial/example/v$v.hip" "Validation passed!"
  done
  if [ $tutorial_tests = 1 ]; then
    for v in 1 2 3 4 5 6 7 8 9 10; do
      [ -f "$tutorial/test/v$v.hip" ] &&
        run_tutorial "reduction/test_v$v" "$tutorial/test/v$v.hip" "[  PASSED  ]" -I "$tutorial/test" -lgtest
    done
  fi
fi

echo
for s in pass fail build-failed timeout not-run; do
  printf '%s %d  ' "$s" "$(awk -F'\t' -v s="$s" '$2 == s' "$work/results.tsv" | wc -l)"
done
echo
