#!/usr/bin/env bash
# Configure and build umbra into build/ (release) or build-asan/ (with UMBRA_SANITIZE=1).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh"
if [ "${UMBRA_SANITIZE:-0}" = 1 ]; then
  dir="$root/build-asan"; flags=(-DUMBRA_SANITIZE=ON)
else
  dir="$root/build"; flags=(-DCMAKE_BUILD_TYPE=Release)
fi
cmake -S "$root" -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j "$(nproc)" >/dev/null
echo "$dir"
