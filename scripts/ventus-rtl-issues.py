#!/usr/bin/env python3
"""Compare the Ventus RTL's issue trace with umbra's, instruction by instruction.

  scripts/ventus-rtl-issues.py RTL_LOG UMBRA_TRACE [--launch NAME] [--top N] [--pairs]

RTL_LOG: the output of the RTL testbench run with +ISSUETRACE (../shared/reference/ventus-rtl:
"ISSUE smS cyc=C wid=W pc=P inst=I" lines and a "KERNEL k DIR/NAME.metadata start S end E" line
per launch). UMBRA_TRACE: `umbra ventus run DIR --timing --machine ventus-rtl --issue-trace FILE`
("KERNEL CYCLE cuN wgX,Y,Z wW 0xPC" lines).

Within each launch, every RTL warp is paired with the umbra wave that issued the same sequence
of PCs (the same path through the code; warps that took another path stay unpaired). For each
pair of consecutive instructions of a paired warp the script compares the cycles between their
issues on the RTL and in umbra, and sums them by the kind of the two instructions (from the RTL's
instruction word) and whether the second reads a register the first writes ("dep") or not
("ind"). Rows are sorted by the total difference: what the model makes too fast or too slow,
and after which instructions. docs/VENTUS.md ("Against the Verilog RTL") shows how it was used.
"""
import argparse
import collections
import re
import sys

RTL_ISSUE = re.compile(r"ISSUE (sm\d+) cyc=(\d+) wid=(\d+) pc=([0-9a-fA-F]+) inst=([0-9a-fA-F]+)")
RTL_KERNEL = re.compile(r"KERNEL \d+ (\S+) start (\d+) end (\d+)")
UMBRA_ISSUE = re.compile(r"(\S+) (\d+) (cu\d+) wg(\d+,\d+,\d+) w(\d+) 0x([0-9a-fA-F]+)$")


def kind(word):
    """The kind of a Ventus instruction word: what the gap table is keyed by."""
    op, f3 = word & 0x7F, (word >> 12) & 7
    if op == 0x7B:   # Ventus vector memory with 12-bit offsets: vl{b,h,w,bu,hu}12.v, vs{b,h,w}12.v
        return "vload" if f3 in (0, 1, 2, 4, 5) else "vstore"
    return {0x03: "load", 0x23: "store", 0x07: "vload", 0x27: "vstore", 0x57: "vector",
            0x5B: "simt", 0x0B: "sync", 0x13: "alu", 0x33: "alu", 0x17: "alu", 0x37: "alu",
            0x63: "branch", 0x6F: "jump", 0x67: "jump", 0x73: "csr", 0x2F: "atomic",
            0x53: "fp", 0x43: "fp", 0x47: "fp", 0x4B: "fp", 0x4F: "fp"}.get(op, "other")


def registers(word):
    """(read, written) register sets of a Ventus instruction word, as ('x'|'f'|'v', n)."""
    op, f3 = word & 0x7F, (word >> 12) & 7
    rd, r1, r2 = (word >> 7) & 31, (word >> 15) & 31, (word >> 20) & 31
    read, written = set(), set()
    if op == 0x03:
        read, written = {("x", r1)}, {("x", rd)}
    elif op in (0x23, 0x63):
        read = {("x", r1), ("x", r2)}
    elif op == 0x33:
        read, written = {("x", r1), ("x", r2)}, {("x", rd)}
    elif op in (0x13, 0x67, 0x73):
        read, written = {("x", r1)}, {("x", rd)}
    elif op in (0x17, 0x37, 0x6F):
        written = {("x", rd)}
    elif op == 0x7B:
        if kind(word) == "vload":
            read, written = {("v", r1)}, {("v", rd)}
        else:
            read = {("v", r1), ("v", r2)}
    elif op == 0x57:
        read, written = {("v", r2)}, {("v", rd)}
        if f3 in (0, 1, 2):
            read.add(("v", r1))
        elif f3 in (4, 6):
            read.add(("x", r1))
        elif f3 == 5:
            read.add(("f", r1))
    read.discard(("x", 0))
    written.discard(("x", 0))
    return read, written


def rtl_launches(path):
    """{launch name: [[(cycle, pc, word), ...] per warp]} of the RTL log."""
    issues, kernels = [], []
    for line in open(path, errors="replace"):
        m = RTL_ISSUE.match(line)
        if m:
            issues.append((m.group(1), int(m.group(3)), int(m.group(2)), int(m.group(4), 16), int(m.group(5), 16)))
            continue
        m = RTL_KERNEL.search(line)
        if m:
            name = m.group(1).rsplit("/", 1)[-1].removesuffix(".metadata")
            kernels.append((name, int(m.group(2)), int(m.group(3))))
    out = {}
    for name, start, end in kernels:
        warps = collections.OrderedDict()
        for sm, wid, cyc, pc, word in issues:
            if start <= cyc < end:
                warps.setdefault((sm, wid), []).append((cyc, pc, word))
        out[name] = list(warps.values())
    return out


def umbra_launches(path):
    """{launch name: [[(cycle, pc), ...] per wave]} of umbra's issue trace."""
    out = collections.OrderedDict()
    for line in open(path):
        m = UMBRA_ISSUE.match(line.strip())
        if m:
            waves = out.setdefault(m.group(1), collections.OrderedDict())
            waves.setdefault((m.group(3), m.group(4), m.group(5)), []).append((int(m.group(2)), int(m.group(6), 16)))
    return {k: list(v.values()) for k, v in out.items()}


def pair(rtl_warps, umbra_waves):
    """Pairs (rtl warp, umbra wave) with the same PC sequence, each wave used once."""
    free = list(umbra_waves)
    pairs = []
    for warp in rtl_warps:
        pcs = [pc for _, pc, _ in warp]
        for i, wave in enumerate(free):
            if [pc for _, pc in wave] == pcs:
                pairs.append((warp, wave))
                del free[i]
                break
    return pairs


def gap_table(pairs):
    """{(kind before, kind, 'dep'|'ind'): [count, rtl cycles, umbra cycles]}."""
    table = collections.defaultdict(lambda: [0, 0, 0])
    for warp, wave in pairs:
        for i in range(1, len(warp)):
            before, this = warp[i - 1][2], warp[i][2]
            dep = "dep" if registers(this)[0] & registers(before)[1] else "ind"
            row = table[(kind(before), kind(this), dep)]
            row[0] += 1
            row[1] += warp[i][0] - warp[i - 1][0]
            row[2] += wave[i][0] - wave[i - 1][0]
    return table


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rtl_log")
    ap.add_argument("umbra_trace")
    ap.add_argument("--launch", help="only this launch (e.g. BFS_1_0)")
    ap.add_argument("--top", type=int, default=20, help="rows of the gap table (0: all)")
    ap.add_argument("--pairs", action="store_true", help="also list every paired warp's span on both")
    args = ap.parse_args()
    rtl, umbra = rtl_launches(args.rtl_log), umbra_launches(args.umbra_trace)
    if not rtl:
        sys.exit(f"ventus-rtl-issues: no KERNEL lines in {args.rtl_log} (a log of the RTL testbench with +ISSUETRACE?)")
    all_pairs = []
    print(f"{'launch':16} {'RTL warps':>9} {'umbra waves':>11} {'paired':>6} {'instructions':>12}")
    for name, warps in rtl.items():
        if args.launch and name != args.launch:
            continue
        waves = umbra.get(name, [])
        pairs = pair(warps, waves)
        all_pairs += pairs
        print(f"{name:16} {len(warps):9} {len(waves):11} {len(pairs):6} {sum(len(w) for w, _ in pairs):12}")
        if args.pairs:
            for warp, wave in pairs:
                print(f"    {len(warp):5} instructions: RTL {warp[-1][0] - warp[0][0]:6} cycles, umbra {wave[-1][0] - wave[0][0]:6}")
    if not all_pairs:
        sys.exit("ventus-rtl-issues: no warp of the RTL log issued the same instructions as a wave of the umbra trace")
    table = gap_table(all_pairs)
    rows = sorted(table.items(), key=lambda kv: -abs(kv[1][1] - kv[1][2]))
    if args.top:
        rows = rows[:args.top]
    print()
    print(f"{'before':8} {'then':8} {'':4} {'count':>6} {'RTL gap':>8} {'umbra gap':>9} {'RTL - umbra':>11}")
    for (before, this, dep), (n, r, u) in rows:
        print(f"{before:8} {this:8} {dep:4} {n:6} {r / n:8.1f} {u / n:9.1f} {r - u:11}")
    total_r = sum(v[1] for v in table.values())
    total_u = sum(v[2] for v in table.values())
    print(f"\nall pairs of consecutive instructions: RTL {total_r} cycles, umbra {total_u} ({(total_u - total_r) / total_r:+.1%})")


if __name__ == "__main__":
    main()
