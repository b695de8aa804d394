#!/usr/bin/env python3
"""Every shipped Ventus program under the timing model (the bundled ventus machine): the memory
dump must equal the functional run's, and the statistics JSON must hold the cycles of every launch.

usage: ventus_timing.py UMBRA TESTCASES_DIR WORK_DIR PROGRAM [MACHINE.yaml]

With MACHINE (machines/ventus-fixed-latency.yaml: no caches), the statistics must also show no
cache access and every memory access going to DRAM.
"""
import json
import os
import subprocess
import sys

umbra, cases, work, prog = sys.argv[1:5]
machine = sys.argv[5] if len(sys.argv) > 5 else None
d = os.path.join(cases, prog)
tag = prog + ("_" + os.path.basename(machine).split(".")[0] if machine else "")
plain, timed, stats = (os.path.join(work, f"ventus_{tag}_{k}") for k in ("plain.txt", "timed.txt", "stats.json"))
r1 = subprocess.run([umbra, "ventus", "run", d, "--quiet", "--dump", plain], capture_output=True, text=True)
r2 = subprocess.run([umbra, "ventus", "run", d, "--quiet", "--timing", "--dump", timed, "--stats", stats] +
                    (["--machine", machine] if machine else []), capture_output=True, text=True)
failures = []
if r1.returncode or r2.returncode:
    failures.append(f"exit {r1.returncode} / {r2.returncode}: {r1.stderr[-300:]} {r2.stderr[-300:]}")
else:
    if open(plain).read() != open(timed).read():
        failures.append("memory dump differs under --timing")
    s = json.load(open(stats))
    t = s["timing"]
    if not t["machine"].startswith("Ventus"):
        failures.append("machine " + t["machine"])
    if len(t["launches"]) != len(s["launches"]):
        failures.append(f"{len(t['launches'])} timed launches, {len(s['launches'])} run")
    if not all(l["cycles"] > 0 and l["wave_instructions"] == sl["stats"]["warp_instructions"]
               for l, sl in zip(t["launches"], s["launches"])):
        failures.append("cycles or instruction counts of a launch")
    if machine and any(l["caches"] or not l["dram"]["read_bytes"] for l in t["launches"]):
        failures.append("a cache level was used, or no DRAM read, on a machine without caches")
    print(prog, t["machine"], "cycles", t["cycles"], [l["cycles"] for l in t["launches"]])
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
