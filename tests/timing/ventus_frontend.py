#!/usr/bin/env python3
"""The in-order front end of machines/ventus-rtl.yaml, read off umbra's issue trace.

usage: ventus_frontend.py UMBRA LLVM_MC LD_LLD MACHINE.yaml PRELUDE_DIR SOURCE.s WORKDIR

The kernels are in ventus_frontend.s (one warp of 32 lanes each). Oracles: the machine file's
numbers and the rules docs/VENTUS.md gives for them:
- the operand collector (collector_cycles, operand_cycles): an instruction leaves it collect(k) =
  collector_cycles + operand_cycles x k cycles after issue, k its register operands; the next
  instruction of the warp issues wave_issue_interval after that, a load's data is l0 latency after
  it; so a vector instruction reading a scalar register (vadd.vx) issues collect(1) + l0 latency
  after the load writing it, vadd.vi, which reads no loaded register, collect(1) +
  wave_issue_interval after it; the collector reads one operand at a time for the SM, so four
  warps issue at most one one-operand instruction per operand_cycles;
- block_waits_first_slot: an instruction that starts a fetch block, reached from the one before,
  issues a cycle later than it otherwise could, and not before a cycle after the last pending
  write to a register of the previous block's first instruction: in vx_chain each vadd.vx starts
  a block whose previous block began with a vadd.vx reading t0, so it waits a cycle past the load
  (but the first of a pass, after the loop's taken branch); without the key neither cycle;
- in_order_memory_unit: an instruction after a memory instruction issues no earlier than the
  cycle the memory unit takes that instruction, and the unit takes one access after the other,
  each for its lines (vmem_lines_per_cycle = 1): after two 32-line gathers, the next instruction
  issues at least 32 cycles after the first; without the key, wave_issue_interval after the second;
- a cache with miss registers takes a write only once none of its read misses is in flight: a
  scalar load that hits, behind a store issued while a vector load's two misses are out, is used
  more than the DRAM latency later than the same load behind a nop (which is used l0 latency after
  it issued);
- fetch_ahead: a jump over one fetch block lands on a block fetched while the jump's block ran
  with fetch_ahead 2, and misses the icache with fetch_ahead 1: the target issues sooner with 2;
- the trace has one line per issued instruction (the statistics' warp instructions), its cycles
  never decrease, and each line names the kernel, the CU, the workgroup and the warp.
"""
import json
import os
import re
import subprocess
import sys

umbra, mc, lld, machine, prelude, src, work = sys.argv[1:8]
os.makedirs(work, exist_ok=True)
obj, elf = os.path.join(work, "ventus_frontend.o"), os.path.join(work, "ventus_frontend.elf")
failures = []


def expect(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def must(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"FAIL {' '.join(cmd)}: exit {r.returncode}\n{r.stderr}")
    return r


text = open(machine).read()


def number(section, key):
    m = re.search(rf"^{section}:\n(?:(?:  .*)?\n)*?\s+{key}:\s*(\d+)", text, re.M) if section else \
        re.search(rf"^\s*{key}:\s*(\d+)", text, re.M)
    if not m:
        sys.exit(f"FAIL {machine}: no {key}")
    return int(m.group(1))


def variant(name, **keys):
    """The machine with frontend keys set to other values."""
    t = text
    for k, v in keys.items():
        t, n = re.subn(rf"^(  {k}:)\s*\S+", rf"\g<1> {v}", t, flags=re.M)
        if n != 1:
            sys.exit(f"FAIL {machine}: no frontend key {k}")
    path = os.path.join(work, f"machine_{name}.yaml")
    open(path, "w").write(t)
    return path


def run(entry, m=machine, tag=""):
    """(issue trace as [(cycle, pc)], lines as written, the launch's statistics)."""
    trace, stats = (os.path.join(work, f"{entry}{tag}.{k}") for k in ("trace", "json"))
    must([umbra, "ventus", "run-elf", elf, "--entry", entry, "--warps", "1", "--lanes", "32", "--quiet",
          "--timing", "--machine", m, "--issue-trace", trace, "--stats", stats])
    lines = open(trace).read().splitlines()
    issues = []
    for line in lines:
        f = line.split()
        issues.append((int(f[1]), int(f[5], 16)))
    return issues, lines, json.load(open(stats))


def gaps_after(issues, predicate):
    """Cycles from each issue whose PC satisfies predicate to the next issue."""
    return [issues[i + 1][0] - issues[i][0] for i in range(len(issues) - 1) if predicate(issues[i][1])]


must([mc, "-triple=riscv32", "-mattr=+m,+a,+f,+zve32f", "-filetype=obj", "-I", prelude, src, "-o", obj])
must([lld, "-Ttext=0x80000000", "-e", "vx_chain", obj, "-o", elf])
interval, l0_latency = number(None, "wave_issue_interval"), number("memory", "latency")
collector, per_operand = number(None, "collector_cycles"), number(None, "operand_cycles")
collect1 = collector + per_operand   # one register operand (lw, vadd.vi, vlw12)
load_use = collect1 + l0_latency


def second_pass_pairs(issues):
    """Cycles from each of the loop's 8 loads to the instruction after it, in the second pass."""
    seen, twice = set(), []
    for _, pc in issues:
        if pc in seen and pc not in twice:
            twice.append(pc)
        seen.add(pc)
    loads = {twice[0] + 8 * k for k in range(8)} if twice else set()
    second = [i for i, (_, pc) in enumerate(issues) if pc in loads][8:]
    return [issues[i + 1][0] - issues[i][0] for i in second]


# 1. the collector, and a scalar source of a vector instruction waits for its load (the second pass:
#    from the icache); each vadd starts a fetch block
slot_off = variant("slot_off", block_waits_first_slot="false")
for entry, want, want_off in (("vx_chain", [load_use] + [load_use + 1] * 7, [load_use] * 8),
                              ("vi_chain", [collect1 + interval + 1] * 8, [collect1 + interval] * 8)):
    issues, lines, stats = run(entry)
    n = stats["launches"][0]["stats"]["warp_instructions"]
    expect(len(lines) == n, f"{entry}: {len(lines)} trace lines, {n} warp instructions")
    expect(all(b[0] >= a[0] for a, b in zip(issues, issues[1:])), f"{entry}: the trace's cycles never decrease")
    name = os.path.basename(elf)   # run-elf names its launch after the file
    expect(all(re.fullmatch(rf"{re.escape(name)} \d+ cu\d+ wg0,0,0 w0 0x[0-9a-f]+", l) for l in lines),
           f"{entry}: every line is 'KERNEL CYCLE cuN wg0,0,0 w0 0xPC' ({lines[0]})")
    pair_gaps = second_pass_pairs(issues)
    expect(pair_gaps == want, f"{entry}: load -> vector instruction {pair_gaps} cycles apart (expected {want})")
    pair_gaps = second_pass_pairs(run(entry, slot_off, "_slot_off")[0])
    expect(pair_gaps == want_off,
           f"{entry} without block_waits_first_slot: {pair_gaps} cycles apart (expected {want_off})")

# 1b. one operand at a time for the SM: four warps running 16 independent vadd.vv each (two operands)
#     issue them at most one per 2 x operand_cycles (one warp alone: one per collect(2) + interval)
trace4 = os.path.join(work, "vv_run_w4.trace")
must([umbra, "ventus", "run-elf", elf, "--entry", "vv_run", "--warps", "4", "--lanes", "32", "--quiet",
      "--timing", "--machine", machine, "--issue-trace", trace4])
rows = [(int(f[1]), int(f[5], 16)) for f in (line.split() for line in open(trace4))]
first = min(pc for _, pc in rows if sum(1 for r in rows if r[1] == pc) == 4 and
            sum(1 for r in rows if r[1] == pc + 4) == 4 and sum(1 for r in rows if r[1] == pc + 60) == 4)
body = sorted(c for c, pc in rows if first <= pc < first + 64)
span = body[-1] - body[0]
expect(len(body) == 64 and span >= 2 * per_operand * (len(body) - 4),
       f"four warps: {len(body)} two-operand instructions in {span} cycles (at least {2 * per_operand} each)")

# 2. in_order_memory_unit
on, off = variant("unit_on", in_order_memory_unit="true"), variant("unit_off", in_order_memory_unit="false")
issues, _, _ = run("gather_alu", on, "_inorder")
g = issues[-2][0] - issues[-4][0]   # the first gather -> vadd.vi (then endprg)
expect(g >= 32, f"gather_alu: first gather -> vadd.vi {g} cycles with in_order_memory_unit (expected >= 32)")
issues, _, _ = run("gather_alu", off, "_outoforder")
g = issues[-2][0] - issues[-3][0]   # the second gather -> vadd.vi
expect(g == collect1 + interval,
       f"gather_alu: second gather -> vadd.vi {g} cycles without it (expected {collect1 + interval})")

# 3. a write waits for the read misses in flight
dram_latency = int(re.search(r"^  dram:\n\s+latency:\s*(\d+)", text, re.M).group(1))
after_store, _, _ = run("gather_store")
after_nop, _, _ = run("gather_load")
g_store, g_nop = (iss[-2][0] - iss[-3][0] for iss in (after_store, after_nop))   # lw -> vadd.vx
expect(g_nop == load_use and g_store > g_nop + dram_latency,
       f"a load behind a store waiting for read misses: used {g_store} cycles after it, behind a nop {g_nop} "
       f"(expected {load_use}, and more than {dram_latency} more behind the store)")

# 4. fetch_ahead: the issue after each jump
ahead1, ahead2 = variant("ahead1", fetch_ahead=1), variant("ahead2", fetch_ahead=2)
i1, _, _ = run("jumps", ahead1, "_ahead1")
i2, _, _ = run("jumps", ahead2, "_ahead2")


def jump_gaps(issues):
    return [issues[i + 1][0] - issues[i][0] for i in range(len(issues) - 1) if issues[i + 1][1] == issues[i][1] + 12]


j1, j2 = jump_gaps(i1), jump_gaps(i2)
expect(len(j1) == 8 and len(j2) == 8 and sum(j2) < sum(j1) and all(b <= a for a, b in zip(j1, j2)),
       f"jumps: jump -> target {j2} cycles with fetch_ahead 2, {j1} with 1")

print("PASS" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
