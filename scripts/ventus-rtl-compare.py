#!/usr/bin/env python3
"""Ventus against its Verilog RTL, launch by launch (docs/VENTUS.md, "Against the Verilog RTL").

Takes the RTL's cycle table (cycles.tsv as ../shared/reference/ventus-rtl/build.sh writes it:
program, launch, cycles, result-correct; one row per launch) and umbra's statistics of the same
programs under `umbra ventus run DIR --timing --machine machines/ventus-rtl.yaml`, and prints
every launch: RTL cycles, umbra cycles, error. The programs are the RTL repository's own
(THU-DSP-LAB/ventus-gpgpu-verilog, testcase/test_gpgpu_top/tc_<name>/<shape>/); umbra runs them
from their .metadata/.data, launches in the RTL testbench's order, memory kept between launches.

    ventus-rtl-compare.py --rtl cycles.tsv (--testcases DIR | --rtl-git GITDIR)
                          [--umbra build/umbra] [--machine machines/ventus-rtl.yaml]
                          [--stats-dir DIR] [--work DIR] [--markdown] [--tolerance PCT]

--testcases: the RTL tree's testcase/test_gpgpu_top folder. --rtl-git: a git dir of the RTL
repository (the fetch tool's mirror); the test programs of commit 192d1e05 are extracted from it
into --work. --stats-dir: read <program>.json (umbra's --stats) from there instead of running
umbra. --tolerance: exit 1 if a launch's |umbra - RTL| / RTL exceeds PCT percent (the CTest
timing_ventus_rtl). Exit 77 if the programs are not available (the test is then skipped).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

COMMIT = "192d1e054d8628fe188894927c0e1976f4c25cde"
PREFIX = "testcase/test_gpgpu_top/"


def read_rtl(path):
    rows = []
    with open(path) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 3 or cols[0] == "program" or line.startswith("#") or not cols[2].isdigit():
                continue
            rows.append((cols[0], cols[1], int(cols[2]), cols[3] if len(cols) > 3 else ""))
    return rows


def program_dir(program):
    """vecadd_8w4t -> tc_vecadd/8w4t"""
    name, shape = program.rsplit("_", 1)
    return os.path.join(f"tc_{name}", shape)


def extract(git, dirs, work):
    """The .metadata/.data files of the programs' folders at COMMIT, from a git dir."""
    out = os.path.join(work, "testcases")
    ls = subprocess.run(["git", "--git-dir", git, "ls-tree", "-r", COMMIT, "--", PREFIX], capture_output=True,
                        text=True)
    if ls.returncode != 0:
        return None
    for line in ls.stdout.splitlines():
        meta, path = line.split("\t", 1)
        sha = meta.split()[2]
        rel = path[len(PREFIX):]
        if os.path.dirname(rel) not in dirs or not rel.endswith((".metadata", ".data")):
            continue
        dst = os.path.join(out, rel)
        if os.path.exists(dst):
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        blob = subprocess.run(["git", "--git-dir", git, "cat-file", "blob", sha], capture_output=True)
        if blob.returncode != 0:
            return None
        with open(dst, "wb") as f:
            f.write(blob.stdout)
    return out


def umbra_launches(args, program, testcases):
    if args.stats_dir:
        stats = os.path.join(args.stats_dir, f"{program}.json")
    else:
        stats = os.path.join(args.work, f"{program}.json")
        p = subprocess.run([args.umbra, "ventus", "run", os.path.join(testcases, program_dir(program)), "--timing",
                            "--machine", args.machine, "--stats", stats, "--quiet"], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"ventus-rtl-compare: {program}: umbra exit {p.returncode}\n{p.stderr}")
    return [(l["kernel"], l["cycles"]) for l in json.load(open(stats))["timing"]["launches"]]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rtl", required=True)
    ap.add_argument("--testcases")
    ap.add_argument("--rtl-git")
    ap.add_argument("--umbra", default="build/umbra")
    ap.add_argument("--machine", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "machines",
                                                      "ventus-rtl.yaml"))
    ap.add_argument("--stats-dir")
    ap.add_argument("--work")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--tolerance", type=float)
    args = ap.parse_args()
    args.work = args.work or tempfile.mkdtemp(prefix="umbra-vrtl-")
    os.makedirs(args.work, exist_ok=True)
    rows = read_rtl(args.rtl)
    programs = list(dict.fromkeys(r[0] for r in rows))
    testcases = args.testcases
    if not testcases and not args.stats_dir:
        if not args.rtl_git or not os.path.isdir(args.rtl_git):
            print(f"ventus-rtl-compare: no RTL test programs (--testcases, or --rtl-git {args.rtl_git}): skipped")
            return 77
        testcases = extract(args.rtl_git, {program_dir(p) for p in programs}, args.work)
        if not testcases:
            print(f"ventus-rtl-compare: {args.rtl_git} lacks commit {COMMIT}: skipped")
            return 77
    ours = {p: umbra_launches(args, p, testcases) for p in programs}
    seen = {p: 0 for p in programs}
    worst, errs, bad = 0.0, [], []
    lines = []
    for prog, launch, rtl, ok in rows:
        i = seen[prog]
        seen[prog] += 1
        if i >= len(ours[prog]) or ours[prog][i][0] != launch:
            sys.exit(f"ventus-rtl-compare: {prog}: RTL launch {i} is {launch}, umbra's is "
                     f"{ours[prog][i][0] if i < len(ours[prog]) else 'missing'}")
        u = ours[prog][i][1]
        err = 100.0 * (u - rtl) / rtl
        errs.append(abs(err))
        worst = max(worst, abs(err))
        if args.tolerance is not None and abs(err) > args.tolerance:
            bad.append(f"{prog}/{launch}")
        lines.append((prog, launch, rtl, u, err, ok))
    for p in programs:
        if seen[p] != len(ours[p]):
            sys.exit(f"ventus-rtl-compare: {p}: the RTL ran {seen[p]} launches, umbra {len(ours[p])}")
    if args.markdown:
        print("| program | launch | RTL cycles | umbra cycles | error |")
        print("|---|---|---|---|---|")
        for prog, launch, rtl, u, err, ok in lines:
            print(f"| {prog} | {launch} | {rtl} | {u} | {err:+.1f}% |")
    else:
        print(f"{'program':16} {'launch':10} {'RTL':>7} {'umbra':>7} {'error':>7}")
        for prog, launch, rtl, u, err, ok in lines:
            print(f"{prog:16} {launch:10} {rtl:7d} {u:7d} {err:+6.1f}%")
    within = lambda pct: sum(e <= pct for e in errs)
    print(f"\n{len(lines)} launches: mean |error| {sum(errs) / len(errs):.1f}%, worst {worst:.1f}%, "
          f"within 10%: {within(10)}, within 25%: {within(25)}")
    if bad:
        print(f"beyond {args.tolerance}%: {' '.join(bad)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
