#!/usr/bin/env bash
# Build AMD's HIP examples (ROCm/rocm-examples: HIP-Basic and Applications) unmodified, each with
# its own Makefile, and run each under `umbra hip --`.
#
# usage: scripts/rocm-examples.sh [--only NAME]... CHECKOUT [BUILD_DIR]
#   CHECKOUT   a checkout of ROCm/rocm-examples (the folder holding HIP-Basic/, Applications/ and
#              Common/), kept outside this repository, e.g.
#                git --git-dir=/work/.mirror/ROCm+rocm-examples/repo archive rocm-6.2.0 \
#                  HIP-Basic Applications Common | tar -x -C /work/scratch/rocm-examples
#   BUILD_DIR  umbra's build folder (default: build/; scripts/build.sh makes it)
#   --only NAME  run only the named examples (the folder name; repeatable)
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
only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "rocm-examples: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: $0 [--only NAME]... CHECKOUT [BUILD_DIR]" >&2; exit 2; }
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

declare -A not_run=(
  [opengl_interop]="needs an OpenGL display" [vulkan_interop]="needs a Vulkan display"
  [hipify]="needs hipify-perl (not in Debian 12)" [monte_carlo_pi]="needs hipRAND (not in Debian 12)"
)

wanted() {
  [ ${#only[@]} -eq 0 ] && return 0
  local o; for o in "${only[@]}"; do [ "$o" = "$1" ] && return 0; done; return 1
}

record() { printf '%-28s %-12s %s\n' "$1" "$2" "$3"; printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$work/results.tsv"; }

for dir in "$work"/src/HIP-Basic/*/ "$work"/src/Applications/*/; do
  name=$(basename "$dir")
  [ -f "$dir/Makefile" ] || continue
  wanted "$name" || continue
  if [ -n "${not_run[$name]:-}" ]; then record "$name" not-run "${not_run[$name]}"; continue; fi
  exe=$(sed -n 's/^EXAMPLE *:= *//p' "$dir/Makefile" | head -1)
  if ! make -C "$dir" "${make_vars[@]}" >"$work/logs/$name.build" 2>&1 || [ ! -x "$dir/$exe" ]; then
    record "$name" build-failed "$(grep -m1 -E 'error' "$work/logs/$name.build" | cut -c1-160)"
    continue
  fi
  (cd "$dir" && timeout -k 10 "$limit" "$build/umbra" hip "${umbra_args[@]}" -- "./$exe") >"$work/logs/$name.run" 2>&1
  rc=$?
  last=$(grep -v '^\s*$' "$work/logs/$name.run" | tail -1 | cut -c1-120)
  if [ $rc = 124 ] || [ $rc = 137 ]; then record "$name" timeout "after ${limit} s"
  elif [ $rc != 0 ]; then record "$name" fail "exit $rc: $last"
  elif grep -q -i "validation failed" "$work/logs/$name.run"; then record "$name" fail "$last"
  else record "$name" pass "$last"
  fi
done

echo
for s in pass fail build-failed timeout not-run; do
  printf '%s %d  ' "$s" "$(awk -F'\t' -v s="$s" '$2 == s' "$work/results.tsv" | wc -l)"
done
echo
