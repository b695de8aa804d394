#!/usr/bin/env python3
"""Run clpeak on umbra and check what it printed.

usage: clpeak_check.py UMBRA [umbra opencl options] -- CLPEAK [clpeak options]

clpeak must exit with status 0, skip no test, and print a positive number for every measurement
of every test it was asked for (all of them without a test option): five vector widths for the
bandwidth and compute tests, eight transfer figures, the launch latency in microseconds. Prints
clpeak's output, the wall time, and PASS.
"""
import math
import re
import subprocess
import sys
import time

# clpeak option -> (section heading, number of measurements under it)
TESTS = {
    "--global-bandwidth": ("Global memory bandwidth (GBPS)", 5),
    "--compute-sp": ("Single-precision compute (GFLOPS)", 5),
    "--compute-hp": ("Half-precision compute (GFLOPS)", 5),
    "--compute-dp": ("Double-precision compute (GFLOPS)", 5),
    "--compute-integer": ("Integer compute (GIOPS)", 5),
    "--compute-intfast": ("Integer compute Fast 24bit (GIOPS)", 5),
    "--transfer-bandwidth": ("Transfer bandwidth (GBPS)", 8),
    "--kernel-latency": ("Kernel launch latency", 1),
}


def sections(text):
    """{heading: [numbers]} from clpeak's output. A heading is indented four spaces; its
    measurements follow as 'name : number' lines; the latency is 'Kernel launch latency : N us'."""
    found, current = {}, None
    for line in text.splitlines():
        m = re.match(r"^ {4}(Kernel launch latency) : (\S+) us$", line)
        if m:
            found[m.group(1)] = [m.group(2)]
            current = None
            continue
        m = re.match(r"^ {4}(\S.*\))\s*$", line)
        if m:
            current = m.group(1)
            found[current] = []
            continue
        m = re.match(r"^ {6,}\S.*:\s*(\S*)\s*$", line)
        if m and current:
            found[current].append(m.group(1))
    return found


def positive(s):
    try:
        v = float(s)
    except ValueError:
        return False
    return math.isfinite(v) and v > 0


def main():
    args = sys.argv[1:]
    if "--" not in args or len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    sep = args.index("--")
    umbra, options, clpeak = args[0], args[1:sep], args[sep + 1:]
    asked = [a for a in clpeak[1:] if a in TESTS]
    wanted = [TESTS[a] for a in asked] if asked else [v for k, v in TESTS.items()]
    start = time.monotonic()
    run = subprocess.run([umbra, "opencl", *options, "--", *clpeak], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    seconds = time.monotonic() - start
    print(run.stdout)
    print(f"clpeak on umbra: {seconds:.1f} s, exit status {run.returncode}")
    failures = []
    if run.returncode != 0:
        failures.append(f"exit status {run.returncode}")
    if "Tests skipped" in run.stdout or "No half precision" in run.stdout or "No double precision" in run.stdout:
        failures.append("clpeak skipped a test")
    found = sections(run.stdout)
    for heading, count in wanted:
        values = found.get(heading)
        if values is None:
            failures.append(f"no '{heading}'")
        elif len(values) != count or not all(positive(v) for v in values):
            failures.append(f"'{heading}': want {count} positive numbers, got {values}")
    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
