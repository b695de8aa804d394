#!/usr/bin/env python3
"""The parallel timing mode (docs/TIMING.md "Several host threads"): corpus kernels under the gfx1100
model at 1, 2 and 3 host threads give byte-identical statistics JSON (cycles, breakdown, caches,
DRAM, per CU, hottest instructions), and the corpus's own C-reference checks pass at each count.
    threads_same.py CORPUS KERNEL_DIR WORK_DIR WAVE KERNEL...
"""
import os
import subprocess
import sys


def run(corpus, kdir, work, kernel, wave, threads):
    out = os.path.join(work, f"{kernel}.w{wave}.t{threads}.json")
    env = dict(os.environ, UMBRA_TIMING="gfx1100", UMBRA_HOST_THREADS=str(threads), UMBRA_TIMING_JSON=out,
               UMBRA_CORPUS_TAG="threads")
    p = subprocess.run([corpus, kdir, "-cl-std=CL2.0", work, kernel, "3", wave], env=env, capture_output=True,
                       text=True)
    if p.returncode != 0 or "FAIL" in p.stdout + p.stderr:
        sys.exit(f"FAIL {kernel} wave{wave} at {threads} threads:\n{p.stdout}{p.stderr}")
    return open(out).read()


def main():
    corpus, kdir, work, wave = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    bad = 0
    for k in sys.argv[5:]:
        one = run(corpus, kdir, work, k, wave, 1)
        if '"cycles"' not in one:
            sys.exit(f"FAIL {k}: no timing statistics")
        for n in (2, 3):
            if run(corpus, kdir, work, k, wave, n) != one:
                print(f"FAIL {k} wave{wave}: statistics at {n} threads differ from 1 thread")
                bad += 1
        print(f"{k} wave{wave}: identical at 1, 2, 3 threads")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
