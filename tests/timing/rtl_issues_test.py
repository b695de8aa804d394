#!/usr/bin/env python3
"""scripts/ventus-rtl-issues.py on a hand-made pair of traces whose answer is known.

usage: rtl_issues_test.py SCRIPT WORKDIR

The RTL log has two warps in one launch: warp 0 issues addi, lw, vadd.vx (which reads the lw's t0)
at cycles 100, 110, 140; warp 2 issues one addi. umbra's trace has the first warp's three PCs at
cycles 5, 9, 21 and a wave of another PC. Expected: one pair (warp 0 with the first wave), rows
"alu -> load ind" (RTL 10, umbra 4, difference 6) and "load -> vector dep" (30, 12, 18), totals
40 and 16; a log without KERNEL lines is refused.
"""
import os
import subprocess
import sys

script, work = sys.argv[1:3]
os.makedirs(work, exist_ok=True)
rtl, umbra = os.path.join(work, "rtl.log"), os.path.join(work, "umbra.trace")
open(rtl, "w").write("ISSUE sm0 cyc=100 wid=0 pc=80000000 inst=00000293\n"
                     "ISSUE sm0 cyc=110 wid=0 pc=80000004 inst=00032283\n"
                     "ISSUE sm1 cyc=112 wid=2 pc=80000000 inst=00000293\n"
                     "ISSUE sm0 cyc=140 wid=0 pc=80000008 inst=0212c0d7\n"
                     "KERNEL 0 4x8/k_0.metadata start 90 end 200 cycles 110\n")
open(umbra, "w").write("k_0 5 cu0 wg0,0,0 w0 0x80000000\n"
                       "k_0 9 cu0 wg0,0,0 w0 0x80000004\n"
                       "k_0 10 cu1 wg1,0,0 w0 0x80000010\n"
                       "k_0 21 cu0 wg0,0,0 w0 0x80000008\n")
out = subprocess.run([sys.executable, script, rtl, umbra], capture_output=True, text=True)
rows = [l.split() for l in out.stdout.splitlines()]
failures = []
if out.returncode:
    failures.append(f"exit {out.returncode}: {out.stderr}")
if ["k_0", "2", "2", "1", "3"] not in rows:
    failures.append("launch row: 2 RTL warps, 2 umbra waves, 1 pair, 3 instructions")
if ["alu", "load", "ind", "1", "10.0", "4.0", "6"] not in rows:
    failures.append("row alu -> load ind 1 10.0 4.0 6")
if ["load", "vector", "dep", "1", "30.0", "12.0", "18"] not in rows:
    failures.append("row load -> vector dep 1 30.0 12.0 18")
if "RTL 40 cycles, umbra 16" not in out.stdout:
    failures.append("totals RTL 40, umbra 16")
open(rtl, "w").write("ISSUE sm0 cyc=100 wid=0 pc=80000000 inst=00000293\n")
bad = subprocess.run([sys.executable, script, rtl, umbra], capture_output=True, text=True)
if bad.returncode == 0 or "no KERNEL lines" not in bad.stderr:
    failures.append(f"a log without KERNEL lines is refused: {bad.returncode} {bad.stderr}")
print(out.stdout)
for f in failures:
    print("FAIL", f)
print("PASS" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
