#!/usr/bin/env bash
# Host instructions per wave-instruction in timing mode, counted by valgrind's callgrind
# (independent of the machine's load): bench/rdna3/host_insts.sh with --timing on every run.
#   bench/timing/host_insts_timing.sh [UMBRA [KERNEL_DIR] [MACHINE]]
# KERNEL_DIR holds the *.w32.co files bench_rdna3 builds (build/bench/rdna3).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
UMBRA_RUN_EXTRA="--timing --machine ${3:-gfx1100}" exec "$root/bench/rdna3/host_insts.sh" \
    "${1:-build/umbra}" "${2:-build/bench/rdna3}"
