#!/usr/bin/env python3
"""s_delay_alu, the VALU interlock, VA_VDST and s_clause under the gfx1100 timing model
(tests/timing/delay_alu.s; docs/TIMING.md, "How it works").

usage: delay_alu.py UMBRA CLANG LLD SRC_DIR MACHINE WORK_DIR

Every kernel's output is checked against a Python reference and against functional mode; the
timing assertions state the size each effect has by the machine file's latencies."""
import json
import os
import struct
import sys

from asm_test_util import machine_number, sh

umbra, clang, lld, src, machine, work = sys.argv[1:7]
os.makedirs(work, exist_ok=True)
failures = []
N = 256                       # one workgroup: eight wave32 waves, four per SIMD
WAVES = N // 32


def expect(cond, what):
    if not cond:
        failures.append(what)




VALU_LATENCY = machine_number(machine, "valu_latency")
obj, co = os.path.join(work, "delay_alu.o"), os.path.join(work, "delay_alu.co")
sh(clang, "-x", "assembler", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-c", os.path.join(src, "delay_alu.s"),
   "-o", obj)
sh(lld, "-shared", obj, "-o", co)


def launch(kernel, *extra):
    return ["run", co, "--kernel", kernel, "--global", str(N), "--local", str(N), "--arg", f"buf:iota:u32:{N}", *extra]


def run(kernel, reference, machine_file=machine):
    """Run in timing mode (and functional mode: same output); returns the launch's statistics."""
    plain, timed, stats = (os.path.join(work, f"{kernel}.{x}") for x in ("plain.bin", "timed.bin", "json"))
    sh(umbra, *launch(kernel, "--out", f"0:{plain}", "--quiet"))
    sh(umbra, *launch(kernel, "--out", f"0:{timed}", "--machine", machine_file, "--stats", stats, "--quiet"))
    out = list(struct.unpack(f"{N}I", open(timed, "rb").read()))
    expect(open(plain, "rb").read() == open(timed, "rb").read(), f"{kernel}: output differs in timing mode")
    expect(out == [reference(i) for i in range(N)], f"{kernel}: wrong output {out[:4]}...")
    return json.load(open(stats))["timing"]["launches"][0]


def stalls(kernel, opcode, issues, machine_file=machine):
    """Stall cycles of the instructions `opcode` issued `issues` times, in program order
    (umbra annotate with every line)."""
    out = sh(umbra, "annotate", *launch(kernel)[1:], "--machine", machine_file, "--lines", "0")
    rows = []
    for line in out.splitlines()[2:]:
        f = line.split()
        if len(f) > 4 and int(f[0]) == issues and opcode in line:
            rows.append((int(line.split("PC ")[1].split()[0], 16), int(f[1])))
    return [s for _, s in sorted(rows)]


# 1. A chain of dependent adds: announced, the wave waits and the SIMD issues the other waves
#    (about VALU_LATENCY cycles per add for the whole SIMD); not announced, every add holds the
#    SIMD's VALU for VALU_LATENCY - 1 cycles (four waves' chains one after another).
a = run("chain_announced", lambda i: i + 256)
u = run("chain_unannounced", lambda i: i + 256)
stall_each = VALU_LATENCY - 1
expect(a["wave_cycles"].get("valu_stall", -1) == 0, f"announced chain: valu_stall {a['wave_cycles'].get('valu_stall')}")
expect(a["wave_cycles"]["dependency"] >= 0.9 * WAVES * 256 * (stall_each - 1),
       f"announced chain: dependency {a['wave_cycles']['dependency']}")
expect(u["wave_cycles"]["valu_stall"] >= 0.95 * WAVES * 256 * stall_each,
       f"unannounced chain: valu_stall {u['wave_cycles']['valu_stall']} < {0.95 * WAVES * 256 * stall_each}")
expect(u["cycles"] > 2 * a["cycles"], f"unannounced chain {u['cycles']} cycles, not > 2 x announced {a['cycles']}")

# 1b. WGP mode (the RDNA3 default, COMPUTE_PGM_RSRC1.WGP_MODE): the workgroup's eight waves use
#     the four SIMDs of a WGP's two CUs, two per SIMD, so the SIMD-serialised chain takes about
#     half the cycles of CU mode's four waves per SIMD.
g = run("chain_unannounced_wgp", lambda i: i + 256)
cus_used = lambda la: len(la["per_cu"])   # the CUs that had waves
expect(cus_used(u) == 1 and cus_used(g) == 2, f"CUs with waves: CU mode {cus_used(u)}, WGP mode {cus_used(g)}")
expect(g["cycles"] < 0.7 * u["cycles"], f"WGP mode {g['cycles']} cycles, not < 0.7 x CU mode {u['cycles']}")

# 2. Transcendental dependencies announced with TRANS32_DEP_1: no stall of the SIMD.
t = run("trans_announced", lambda i: i)
expect(t["wave_cycles"].get("valu_stall", -1) == 0, f"trans chain: valu_stall {t['wave_cycles'].get('valu_stall')}")

# 2b. s_waitcnt_depctr depctr_va_vdst(0) before the use of a transcendental result (clang-19's
#     way): the wave waits, the SIMD does not stall; without it the use stalls the SIMD's VALU.
d = run("trans_depctr", lambda i: i)
nd = run("trans_no_depctr", lambda i: i)
expect(d["wave_cycles"].get("valu_stall", -1) == 0, f"depctr: valu_stall {d['wave_cycles'].get('valu_stall')}")
expect(nd["wave_cycles"]["valu_stall"] >= WAVES * 16 * stall_each,
       f"no depctr: valu_stall {nd['wave_cycles']['valu_stall']} < {WAVES * 16 * stall_each}")

# 3. VA_VDST: a store waits for the wave's outstanding VALU writes even when it does not read
#    them (the v_sqrt_f64 before it); with memory_waits_for_valu: false it does not.
no_wait = os.path.join(work, "no_va_vdst.yaml")
text = open(machine).read()
expect("memory_waits_for_valu: true" in text, "machine file without memory_waits_for_valu: true")
open(no_wait, "w").write(text.replace("memory_waits_for_valu: true", "memory_waits_for_valu: false"))
run("store_after_valu", lambda i: i)
run("store_after_valu", lambda i: i, no_wait)
with_wait = sum(stalls("store_after_valu", "global_store_b32", WAVES))
without = sum(stalls("store_after_valu", "global_store_b32", WAVES, no_wait))
expect(with_wait - without >= WAVES * 10, f"VA_VDST: store stalls {with_wait} vs {without} without the wait")

# 4. s_clause: wave 0 (the oldest) reaches its loads while a younger wave of its SIMD issues its
#    clause; it waits for the clause's end. Without the clause it takes the port at once.
run("loads_clause", lambda i: 8 * i)
run("loads_noclause", lambda i: 8 * i)
c = stalls("loads_clause", "global_load_b32", 1)
n = stalls("loads_noclause", "global_load_b32", 1)
expect(len(c) == 8 and len(n) == 8, f"wave 0's loads not found: {c} {n}")
if len(c) == 8 and len(n) == 8:
    expect(c[0] >= n[0] + 2, f"s_clause: wave 0's first load stalls {c[0]}, without the clause {n[0]}")
    expect(c[1:] == [0] * 7 and n[1:] == [0] * 7, f"wave 0's later loads stall: {c[1:]} {n[1:]}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"delay_alu: chain {a['cycles']} vs {u['cycles']} cycles (WGP mode {g['cycles']}), VA_VDST {with_wait} vs {without}, "
      f"clause {c[0]} vs {n[0]}: ok")
