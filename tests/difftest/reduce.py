#!/usr/bin/env python3
"""Reduces a difference found by run.py to a small kernel.

    reduce.py --umbra build/umbra CASE_DIR/CONFIG.json [-o reduced.cl]

CASE_DIR/kernel.cl is one generated kernel with its prelude. A candidate is "interesting" when it
still compiles and umbra's output in CONFIG (O?_w??_t?) differs from PoCL's, or, for a case from
compile_failures/, when clang-19 still fails with the same message. Lines are deleted one by one
and block by block (a `{ ... }` with its header, or just the header and its closing brace) while
the candidate stays interesting. Lines whose removal would make the program racy or read
undefined memory are kept: barriers, the stores into __local memory that precede them,
declarations. Finally unused helpers of the prelude are dropped.
"""
import argparse
import json
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (also sets the PoCL environment)
import gen  # noqa: E402

PROTECT = re.compile(r"barrier\(|pa\[q\] = |lm\[lid\] =|__local|lc\[lid\] = in|^\s*(char|uchar|short|ushort|int|uint|long|"
                     r"ulong|float|double)[0-9]* [a-z]|^\s*(__kernel|void k|\{|\}$)|get_local_id")


class Tester:
    def __init__(self, a, info, tmp):
        self.a, self.info, self.tmp = a, info, tmp
        self.k = info["kernel"]
        self.cfg = info["config"]
        self.pocl = run.Pocl()
        self.inb, self.ctrb = run.inputs(info["seed"])
        for n, b in (("in.bin", self.inb), ("ctr.bin", self.ctrb)):
            with open(os.path.join(tmp, n), "wb") as f:
                f.write(b)
        self.rd = os.path.join(tmp, "r")
        os.makedirs(self.rd, exist_ok=True)
        self.tries = 0

    def interesting(self, src):
        self.tries += 1
        p = os.path.join(self.tmp, "c.cl")
        with open(p, "w") as f:
            f.write(src)
        co = os.path.join(self.tmp, "c.co")
        m = re.match(r"(compile_)?O(\d)_w(\d+)(?:_t(\d))?", self.cfg)
        o, w, t = int(m.group(2)), int(m.group(3)), int(m.group(4) or 1)
        ok, err = run.umbra_cc(self.a.umbra, p, co, o, w)
        if m.group(1):
            return not ok and signature(run.first_error(err)) == signature(self.info["what"])
        if not ok:
            return False
        b, _ = run.umbra_run(self.a.umbra, co, self.k, t, self.rd, gen.NOUT)
        try:
            r = self.pocl.run(self.pocl.build(src), self.k, self.inb, self.ctrb, gen.NOUT)
        except Exception:
            return False
        return b != r


def signature(msg):
    """A compiler message without addresses, so the same failure matches."""
    return re.sub(r"0x[0-9a-f]+|t\d+|:\d+:\d+", "", msg)


def blocks(lines):
    """index of `{`-ending line -> index of its matching closing line."""
    stack, match = [], {}
    for i, l in enumerate(lines):
        s = l.strip()
        if s.startswith("}") and stack:
            match[stack.pop()] = i
        if s.endswith("{"):
            stack.append(i)
    return match


def candidates(lines):
    match = blocks(lines)
    for i in sorted(match, key=lambda i: match[i] - i, reverse=True):
        j = match[i]
        if PROTECT.search(lines[i]) or lines[i].strip().startswith("} else"):
            continue
        if any("barrier(" in lines[x] or "lm[lid] =" in lines[x] for x in range(i, j + 1)):
            continue
        yield list(range(i, j + 1))
        yield [i, j]
    for i, l in enumerate(lines):
        s = l.strip()
        if s.startswith("} else {"):
            j = match.get(i)
            if j is not None:
                yield list(range(i, j))   # drop the else part, keep the closing brace
        elif not PROTECT.search(l) and not s.endswith("{") and not s.startswith("}") and not s.startswith("case ") \
                and s not in ("default:",):
            yield [i]


def deletable(lines):
    return [i for i, l in enumerate(lines) if not PROTECT.search(l) and not l.strip().endswith("{")
            and not l.strip().startswith("}") and not l.strip().startswith("case ") and l.strip() != "default:"]


def ddmin_lines(t, lines):
    """Deletes chunks of single statements, halving the chunk size (delta debugging)."""
    n = 2
    while True:
        cand = deletable(lines)
        if not cand:
            return lines
        size = max(1, len(cand) // n)
        removed = False
        for k in range(0, len(cand), size):
            chunk = set(cand[k:k + size])
            trial = [l for i, l in enumerate(lines) if i not in chunk]
            if t.interesting("\n".join(trial)):
                lines, removed = trial, True
                break
        if removed:
            n = max(2, n - 1)
        elif size == 1:
            return lines
        else:
            n *= 2


def reduce_lines(t, src):
    lines = ddmin_lines(t, src.split("\n"))
    progress = True
    while progress:
        progress = False
        for cand in list(candidates(lines)):
            if any(c >= len(lines) for c in cand):
                continue
            trial = [l for i, l in enumerate(lines) if i not in set(cand)]
            if t.interesting("\n".join(trial)):
                lines = trial
                progress = True
                break
    return "\n".join(lines)


def drop_unused_helpers(t, src):
    lines = src.split("\n")
    for i in range(len(lines) - 1, -1, -1):
        m = re.match(r"(?:__attribute__\(\(noinline\)\) )?static \w+ (\w+)\(", lines[i])
        if not m:
            continue
        rest = "\n".join(lines[:i] + lines[i + 1:])
        if not re.search(r"\b%s\(" % m.group(1), rest):
            lines = lines[:i] + lines[i + 1:]
    out = "\n".join(lines)
    return out if t.interesting(out) else src


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--umbra", required=True)
    ap.add_argument("case", help="CASE_DIR/CONFIG.json written by run.py")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    with open(a.case) as f:
        info = json.load(f)
    with open(os.path.join(os.path.dirname(a.case), "kernel.cl")) as f:
        src = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        t = Tester(a, info, tmp)
        if not t.interesting(src):
            print("reduce: the case is not reproducible", file=sys.stderr)
            return 1
        src = drop_unused_helpers(t, reduce_lines(t, src))
    out = a.output or os.path.join(os.path.dirname(a.case), f"reduced_{info['config']}.cl")
    with open(out, "w") as f:
        f.write(src)
    print(f"reduce: {len(src.splitlines())} lines after {t.tries} tries -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
