#!/bin/sh
# hip.cu_mask: tests/hip/cu_mask.hip under the timing model on the 96-CU gfx1100 machine, then the
# CUs each launch's waves ran on from its statistics: fill_masked (a stream masked to reported
# units 0 and 5, i.e. WGPs 0 and 5 = CUs 0, 1, 10, 11) only there, fill_all (the null stream) on
# more CUs than those four.
# usage: cu_mask.sh UMBRA PROGRAM WORKDIR
set -u
umbra=$1 prog=$2 work=$3
rm -f "$work/cu_mask.json"
"$umbra" hip --timing gfx1100 --stats "$work/cu_mask.json" -- "$prog" || { echo "FAIL: the program failed"; exit 1; }
python3 - "$work/cu_mask.json" <<'PY'
import json, sys
cus = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    cus[d["kernel"]["name"]] = sorted(c["cu"] for c in d["timing"]["launches"][-1]["per_cu"]) if "launches" in d["timing"] else None
masked = next((v for k, v in cus.items() if "fill_masked" in k), None)
full = next((v for k, v in cus.items() if "fill_all" in k), None)
print("fill_masked ran on CUs", masked, "; fill_all on", len(full or []), "CUs")
if masked is None or full is None: sys.exit("FAIL: a launch's statistics are missing")
if masked != [0, 1, 10, 11]: sys.exit("FAIL: the masked launch ran on CUs %s, want [0, 1, 10, 11]" % masked)
if len(full) <= 4: sys.exit("FAIL: the unmasked launch ran on only %d CUs" % len(full))
print("PASS")
PY
