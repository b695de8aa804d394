#!/usr/bin/env bash
# Configure and build umbra into build/ (release) or build-asan/ (with UMBRA_SANITIZE=1).
# Arguments are build targets (default: everything). Prints the build folder; the build log is
# shown only when the build fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh"
if [ "${UMBRA_SANITIZE:-0}" = 1 ]; then
  dir="$root/build-asan"; flags=(-DUMBRA_SANITIZE=ON)
else
  dir="$root/build"; flags=(-DCMAKE_BUILD_TYPE=Release)
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
log="$dir.log"
mkdir -p "$dir"
if ! { cmake -S "$root" -B "$dir" "${flags[@]}" && cmake --build "$dir" -j "$(nproc)" "${targets[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "umbra: build failed (log: $log)" >&2
  exit 1
fi
echo "$dir"
