#!/usr/bin/env python3
"""The timing options of `umbra run`: results identical to functional mode, the "timing" object of
the statistics JSON, annotate, the Chrome trace-event timeline, machine files and their errors.

usage: cli_timing.py UMBRA SRC_DIR WORK_DIR
"""
import json
import os
import re
import subprocess
import sys

umbra, src, work = sys.argv[1:4]
co = os.path.join(work, "cli_shapes.co")
failures = []


def run(*args, check=True):
    p = subprocess.run([umbra, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        failures.append(f"umbra {' '.join(args)}: exit {p.returncode}: {p.stderr[-500:]}")
    return p


def expect(cond, what):
    if not cond:
        failures.append(what)


run("cc", os.path.join(src, "shapes.cl"), "-O3", "-o", co)
n = 4096
gather = ["run", co, "--kernel", "gather", "--global", str(n), "--local", "256",
          "--arg", f"buf:iota:u32:{n * 4}", "--arg", f"buf:zeros:{n * 4}", "--arg", "u32:4"]
plain = os.path.join(work, "cli_out_plain.bin")
timed = os.path.join(work, "cli_out_timed.bin")
stats = os.path.join(work, "cli_stats.json")
timeline = os.path.join(work, "cli_timeline.json")
run(*gather, "--out", f"1:{plain}", "--quiet")
p = run(*gather, "--out", f"1:{timed}", "--timing", "--stats", stats, "--timeline", timeline)
expect(open(plain, "rb").read() == open(timed, "rb").read(), "results differ with --timing")
expect(list(range(0, n * 4, 4)) == list(memoryview(open(timed, "rb").read()).cast("I")), "gather result wrong")
expect("timing (AMD Radeon RX 7900 XTX" in p.stderr, "no timing summary on stderr")

s = json.load(open(stats))
t = s.get("timing", {})
expect(s.get("warp_insts", 0) > 0 or s.get("warp_instructions", 0) > 0 or len(s) > 1, "statistics missing")
expect(t.get("machine", "").startswith("AMD Radeon RX 7900 XTX"), "timing.machine")
la = t.get("launches", [{}])[0]
expect(la.get("kernel") == "gather", "launch kernel name")
expect(la.get("cycles", 0) > 0 and abs(t["cycles"] - la["cycles"]) == 0, "cycles")
expect(abs(la["seconds"] - la["cycles"] / 2.5e9) < 1e-12, "seconds at 2500 MHz")
for key in ("ipc", "occupancy", "wave_cycles", "caches", "dram", "lds", "per_cu", "hottest"):
    expect(key in la, f"launch has no {key}")
for key in ("issue", "wait_vmcnt", "wait_lgkmcnt", "wait_vscnt", "barrier", "dependency", "idle"):
    expect(key in la.get("wave_cycles", {}), f"wave_cycles has no {key}")
expect(la["waves"] == n // 32, "waves")
expect(la["dram"]["read_bytes"] > 0, "DRAM bytes")

tl = json.load(open(timeline))
events = tl["traceEvents"]
expect(sum(e["name"] == "wave" for e in events) == n // 32, "one timeline event per wave")
expect(sum(e["name"] == "workgroup" for e in events) == n // 256, "one timeline event per workgroup")
expect(all(e["ph"] == "X" and e["dur"] >= 0 for e in events), "complete events")

p = run("annotate", *gather[1:], "--lines", "5")
lines = p.stdout.splitlines()
expect(lines and lines[0].startswith("kernel gather:"), "annotate header")
expect(len(lines) == 2 + 5, f"annotate printed {len(lines)} lines")
p = run("annotate", *gather[1:], "--lines", "0")
expect(any("global_load_b32" in l for l in p.stdout.splitlines()), "annotate --lines 0 shows the load")

# --issue-trace: a line per wave-instruction; the run, on one host thread, gives the same statistics
trace, stats2 = os.path.join(work, "cli_issues.txt"), os.path.join(work, "cli_stats_traced.json")
run(*gather, "--timing", "--threads", "2", "--issue-trace", trace, "--stats", stats2, "--quiet")
lines = open(trace).read().splitlines()
t1, t2 = json.load(open(stats))["timing"], json.load(open(stats2))["timing"]
expect(len(lines) == t1["launches"][0]["wave_instructions"],
       f"issue trace: {len(lines)} lines, {t1['launches'][0]['wave_instructions']} wave-instructions")
expect(all(re.fullmatch(r"gather \d+ cu\d+ wg\d+,0,0 w[0-7] 0x[0-9a-f]+", l) for l in lines),
       f"issue trace lines: {lines[:1]}")
expect(t1["cycles"] == t2["cycles"] and t1["launches"][0]["caches"] == t2["launches"][0]["caches"],
       "the same cycles and caches with the issue trace")
p = run(*gather, "--timing", "--issue-trace", os.path.join(work, "no", "such", "dir", "t.txt"), check=False)
expect(p.returncode != 0 and "cannot write" in p.stderr, f"an issue trace that cannot be written: {p.stderr}")

# a copied machine with a smaller clock gives the same cycles and a longer time (the DRAM timings are
# nanoseconds, not cycles: they double with the clock period)
machine = os.path.join(work, "slow.yaml")
text = open(os.path.join(src, "..", "..", "machines", "gfx1100.yaml")).read()
slow = re.sub(r"(t_\w+_ns: +)([0-9.]+)", lambda m: m.group(1) + repr(2 * float(m.group(2))), text)
expect(slow.count("_ns: ") >= 8 and slow != text, "the DRAM timings found in gfx1100.yaml")
open(machine, "w").write(slow.replace("clock_mhz: 2500", "clock_mhz: 1250"))
run(*gather, "--machine", machine, "--stats", stats, "--quiet")
la2 = json.load(open(stats))["timing"]["launches"][0]
expect(la2["cycles"] == la["cycles"], "same cycles at another clock")
expect(abs(la2["seconds"] - 2 * la["seconds"]) < 1e-12, "twice the time at half the clock")

# errors name the file, line and key
open(machine, "w").write(text.replace("  banks: 32", "  banks: many"))
p = run(*gather, "--machine", machine, check=False)
expect(p.returncode != 0 and "slow.yaml" in p.stderr and "/lds/banks" in p.stderr, f"bad value error: {p.stderr}")
open(machine, "w").write(text.replace("  l2:\n", "  l2x:\n"))
p = run(*gather, "--machine", machine, check=False)
expect(p.returncode != 0 and "/memory/l2/size" in p.stderr and "missing" in p.stderr, f"missing key error: {p.stderr}")
open(machine, "w").write(text.replace("unannounced_dependency: stall_simd", "unannounced_dependency: sometimes"))
p = run(*gather, "--machine", machine, check=False)
expect(p.returncode != 0 and "/pipeline/unannounced_dependency" in p.stderr and "stall_simd or wave_waits" in p.stderr,
       f"bad choice error: {p.stderr}")
p = run(*gather, "--machine", os.path.join(work, "nonexistent.yaml"), check=False)
expect(p.returncode != 0 and "cannot open" in p.stderr, "missing file error")

# miss registers (`mshrs`, machines/ventus-rtl.yaml's L1): with one per L0 every read miss waits for
# the one before it, so the gather takes longer with as many L0 accesses; L2 and below refuse the key
one_mshr = text.replace("    cus_per_instance: 1\n    invalidate_at_launch: true  # [LLVM] vector caches",
                        "    cus_per_instance: 1\n    mshrs: 1\n    invalidate_at_launch: true  # [LLVM] vector caches", 1)
expect(one_mshr != text, "the L0 found in gfx1100.yaml")
open(machine, "w").write(one_mshr)
run(*gather, "--machine", machine, "--stats", stats, "--quiet")
la3 = json.load(open(stats))["timing"]["launches"][0]
l0a, l0b = la["caches"]["l0"], la3["caches"]["l0"]
expect(la3["cycles"] > 1.5 * la["cycles"], f"one L0 miss register: {la3['cycles']} cycles, without the limit {la['cycles']}")
expect(l0a["hits"] + l0a["misses"] == l0b["hits"] + l0b["misses"], "the same L0 accesses with one miss register")
open(machine, "w").write(one_mshr.replace("mshrs: 1", "mshrs: 65"))
p = run(*gather, "--machine", machine, check=False)
expect(p.returncode != 0 and "/memory/l0/mshrs" in p.stderr and "more than 64" in p.stderr, f"mshrs bound error: {p.stderr}")
open(machine, "w").write(text.replace("  l2:\n", "  l2:\n    mshrs: 4\n", 1))
p = run(*gather, "--machine", machine, check=False)
expect(p.returncode != 0 and "/memory/l2/mshrs" in p.stderr and "only l0, l1 and scalar_cache" in p.stderr,
       f"mshrs on L2 error: {p.stderr}")

# the optional in-order front end (machines/ventus-rtl.yaml): every key required once the section is
# there; with it, the report has the icache
frontend = ("\nfrontend:\n  single_issue: true\n  last_warp_first: false\n  branch_waits_fetch: true\n"
            "  wave_issue_interval: 4\n  collector_cycles: 0\n  operand_cycles: 0\n  fetch_bytes: 8\n"
            "  fetch_ahead: 2\n  in_order_memory_unit: true\n  block_waits_first_slot: false\n"
            "  icache:\n    size: 512\n    line: 8\n    assoc: 2\n"
            "    latency: 4\n    bytes_per_cycle: 8\n  l2_flush_at_end: true\n")
open(machine, "w").write(text + frontend)
p = run(*gather, "--machine", machine, "--stats", stats, "--quiet", check=False)
ic = json.load(open(stats))["timing"]["launches"][0]["caches"].get("icache", {}) if p.returncode == 0 else {}
expect(ic.get("hits", 0) + ic.get("misses", 0) > 0, f"frontend: icache hits and misses reported: {p.stderr}")
open(machine, "w").write(text + frontend.replace("  wave_issue_interval: 4\n", ""))
p = run(*gather, "--machine", machine, check=False)
expect(p.returncode != 0 and "/frontend/wave_issue_interval" in p.stderr and "missing" in p.stderr,
       f"frontend missing key error: {p.stderr}")
open(machine, "w").write(text + frontend.replace("fetch_bytes: 8", "fetch_bytes: 6"))
p = run(*gather, "--machine", machine, check=False)
expect(p.returncode != 0 and "/frontend/fetch_bytes" in p.stderr and "power of two" in p.stderr,
       f"frontend fetch_bytes error: {p.stderr}")

for bad in ("0", "9"):
    open(machine, "w").write(text + frontend.replace("fetch_ahead: 2", "fetch_ahead: " + bad))
    p = run(*gather, "--machine", machine, check=False)
    expect(p.returncode != 0 and "/frontend/fetch_ahead" in p.stderr, f"frontend fetch_ahead {bad} error: {p.stderr}")

# miss_cycles: a read miss's way back through L0 costs that much more; L2 and L3 refuse the key
open(machine, "w").write(text)
p = run(*gather, "--machine", machine, "--stats", stats, "--quiet")
base = json.load(open(stats))["timing"]["launches"][0]["cycles"]
open(machine, "w").write(text.replace("  l0:\n", "  l0:\n    miss_cycles: 50\n", 1))
p = run(*gather, "--machine", machine, "--stats", stats, "--quiet")
slow = json.load(open(stats))["timing"]["launches"][0]["cycles"]
expect(slow >= base + 50, f"l0 miss_cycles 50: {slow} cycles, without {base}")
open(machine, "w").write(text.replace("  l2:\n", "  l2:\n    miss_cycles: 4\n", 1))
p = run(*gather, "--machine", machine, check=False)
expect(p.returncode != 0 and "/memory/l2/miss_cycles" in p.stderr and "only l0, l1 and scalar_cache" in p.stderr,
       f"miss_cycles on L2 error: {p.stderr}")

for f in failures:
    print("FAIL", f)
print("PASS" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
