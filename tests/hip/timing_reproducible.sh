#!/bin/sh
# A HIP program under --timing gives the same cycles in every run: its device memory lies at the
# same addresses whatever the address-space randomisation (src/platform/plat_device.c
# plat_reserve_heap), so caches and DRAM see the same sets, channels and banks. Before, vectoradd's
# launch took 3546, 3484 or 3527 cycles from run to run. Runs the program three times.
# usage: timing_reproducible.sh UMBRA PROGRAM WORKDIR
set -u
umbra=$1 prog=$2 work=$3
first=""
for i in 1 2 3; do
  rm -f "$work/repro$i.json"
  "$umbra" hip --timing gfx1100 --stats "$work/repro$i.json" -- "$prog" >/dev/null || { echo "FAIL: run $i"; exit 1; }
  cycles=$(grep -o '"cycles": [0-9]*' "$work/repro$i.json" | tr '\n' ' ')
  echo "run $i: $cycles"
  [ -n "$cycles" ] || { echo "FAIL: no cycles in the statistics"; exit 1; }
  [ -z "$first" ] && first=$cycles
  [ "$cycles" = "$first" ] || { echo "FAIL: run $i differs from run 1"; exit 1; }
done
echo PASS
