#!/usr/bin/env python3
"""The Ventus SFU under the timing model: a chain of dependent vdivu.vx (the RTL's special function
unit) must take the machine's trans_issue/trans_latency, a chain of vadd.vx its valu_latency.

usage: ventus_sfu.py UMBRA LLVM_MC LD_LLD MACHINE.yaml PRELUDE_DIR SOURCE.s WORKDIR

Oracle: the machine file's numbers and the engine's issue rule (docs/TIMING.md): an instruction
of issue cost c issued at cycle t makes its result ready at t + (c - 1) + latency, and the next
instruction of the wave issues no earlier than t + c. In a chain of N dependent instructions the
SFU kernel is therefore (N - 1) * ((trans_issue - 1) + trans_latency - valu_latency)
+ (trans_issue - 1) cycles longer than the VALU one (one 8-lane warp: one pass each).
"""
import json
import os
import re
import subprocess
import sys

umbra, mc, lld, machine, prelude, src, work = sys.argv[1:8]
N = 16                                  # the .rept count in the source
os.makedirs(work, exist_ok=True)
obj, elf = os.path.join(work, "ventus_sfu.o"), os.path.join(work, "ventus_sfu.elf")


def must(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"FAIL {' '.join(cmd)}: exit {r.returncode}\n{r.stderr}")
    return r


def number(key):
    m = re.search(rf"^\s*{key}:\s*(\d+)", open(machine).read(), re.M)
    if not m:
        sys.exit(f"FAIL {machine}: no {key}")
    return int(m.group(1))


must([mc, "-triple=riscv32", "-mattr=+m,+a,+f,+zve32f", "-filetype=obj", "-I", prelude, src, "-o", obj])
must([lld, "-Ttext=0x80000000", "-e", "add_chain", obj, "-o", elf])
cycles = {}
for entry in ("add_chain", "div_chain"):
    stats = os.path.join(work, f"ventus_sfu_{entry}.json")
    must([umbra, "ventus", "run-elf", elf, "--entry", entry, "--quiet", "--timing", "--machine", machine,
          "--stats", stats])
    cycles[entry] = json.load(open(stats))["timing"]["launches"][0]["cycles"]
ti, tl, vl = number("trans_issue"), number("trans_latency"), number("valu_latency")
want = (N - 1) * ((ti - 1) + tl - vl) + (ti - 1)
got = cycles["div_chain"] - cycles["add_chain"]
print(f"vadd chain {cycles['add_chain']} cycles, vdivu chain {cycles['div_chain']}: {got} more, expected {want}")
sys.exit(0 if got == want else 1)
