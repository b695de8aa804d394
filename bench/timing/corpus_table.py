#!/usr/bin/env python3
"""The corpus table of docs/TIMING.md: every corpus kernel (tests/rdna3/kernels, -O3, wave32) under
the timing model; per kernel the launch with the most cycles, its wave-instructions and its
wave-cycle breakdown, as a Markdown table.

    corpus_table.py BUILD_DIR [MACHINE] [WORK_DIR]

BUILD_DIR is a release build with rdna3_corpus built; MACHINE defaults to gfx1100. The corpus
binary's own checks must pass (a FAIL stops the table)."""
import os
import re
import subprocess
import sys
import tempfile

KERNELS = """vec_add saxpy reduce_lds reduce_atomic matmul_tiled transpose_lds histogram prefix_scan
bitonic_sort conv2d nbody mandelbrot black_scholes double_prec half_prec hash64 private_array
generic_ptr ndrange2d ndrange3d local_args atomics_all dispatch_packet builtins math_accuracy
int_ops""".split()
STATES = ["issue", "wait_vmcnt", "wait_lgkmcnt", "wait_vscnt", "barrier", "dependency", "pipeline_busy", "valu_stall"]
LAUNCH = re.compile(r"^  \S+: (\d+) cycles .*?, (\d+) wave-insts")
BREAKDOWN = re.compile(r"^    wave-cycles: (.*)$")


def heaviest_launch(output):
    """(cycles, wave-insts, {state: percent}) of the launch with the most cycles."""
    best, launch = None, None
    for line in output.splitlines():
        m = LAUNCH.match(line)
        if m:
            launch = (int(m.group(1)), int(m.group(2)))
            continue
        m = BREAKDOWN.match(line)
        if m and launch:
            shares = dict((k, v.rstrip("%")) for k, v in (f.split(" ") for f in re.findall(r"\S+ \S+%", m.group(1))))
            if best is None or launch[0] > best[0]:
                best = (launch[0], launch[1], shares)
            launch = None
    return best


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = sys.argv[1]
    machine = sys.argv[2] if len(sys.argv) > 2 else "gfx1100"
    work = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="umbra-corpus-")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    corpus = os.path.join(build, "tests", "rdna3", "kernels", "rdna3_corpus")
    env = dict(os.environ, UMBRA_TIMING=machine, UMBRA_CORPUS_TAG="timing")
    print("| kernel | cycles | wave-insts | " + " | ".join(s.replace("_", " ") for s in STATES) + " |")
    print("|---" * (3 + len(STATES)) + "|")
    for k in KERNELS:
        run = subprocess.run([corpus, os.path.join(root, "tests", "rdna3", "kernels"), "-cl-std=CL2.0", work, k, "3",
                              "32"], env=env, capture_output=True, text=True)
        if run.returncode != 0 or "FAIL" in run.stdout + run.stderr:
            sys.exit(f"corpus_table: {k} failed:\n{run.stdout}{run.stderr}")
        cycles, insts, shares = heaviest_launch(run.stdout)
        print(f"| {k} | {cycles} | {insts} | " + " | ".join(shares[s] + "%" for s in STATES) + " |")


if __name__ == "__main__":
    main()
