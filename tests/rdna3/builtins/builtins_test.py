#!/usr/bin/env python3
"""The OpenCL C 1.2 builtin families (§6.12) on umbra's RDNA3 front end.

usage: builtins_test.py UMBRA SRCDIR WORKDIR FAMILY OPT WAVE

Compiles the family's kernels with `umbra cc` (-O0/-O3, wave32/wave64: AMD's device libraries),
runs each kernel with `umbra run` and checks every result against a Python reference within the
accuracy §7.4 of the specification requires. Prints a summary; exit status 1 on any mismatch."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bt_core import Report, Runner, TestFailure  # noqa: E402
import fam_common  # noqa: E402
import fam_convert  # noqa: E402
import fam_integer  # noqa: E402
import fam_math  # noqa: E402
import fam_parallel  # noqa: E402
import fam_relational  # noqa: E402
import fam_shuffle  # noqa: E402
import fam_vloadstore  # noqa: E402

FAMILIES = {
    "math_f32": fam_math.run,
    "math_f64": fam_math.run,
    "integer": fam_integer.run,
    "convert": fam_convert.run,
    "relational": fam_relational.run,
    "common": fam_common.run_common,
    "geometric": fam_common.run_geometric,
    "vloadstore": fam_vloadstore.run,
    "shuffle": fam_shuffle.run,
    "workitem": fam_parallel.run_workitem,
    "sync": fam_parallel.run_sync,
    "fences": fam_parallel.run_fences,
    "async": fam_parallel.run_async,
    "atomics": fam_parallel.run_atomics,
}


def main(argv):
    if len(argv) != 7 or argv[4] not in FAMILIES or argv[5] not in ("0", "3") or argv[6] not in ("32", "64"):
        print(__doc__ + "\nfamilies: " + " ".join(sorted(FAMILIES)), file=sys.stderr)
        return 2
    umbra, srcdir, workdir, family = argv[1:5]
    opt, wave = int(argv[5]), int(argv[6])
    runner = Runner(umbra, srcdir, workdir, family, opt, wave)
    report = Report()
    start = time.time()
    try:
        FAMILIES[family](runner, family, report)
    except TestFailure as e:
        print("FAIL %s -O%d wave%d: %s" % (family, opt, wave, e))
        return 1
    for line in report.notes():
        print(line)
    lines = report.summary()
    for line in lines:
        print(line)
    worst = ", ".join("%s %.3g" % (k, v) for k, v in sorted(report.worst.items()) if v > 0)
    if worst:
        print("largest errors (ulp, or fraction of a relative bound): " + worst)
    print("%s -O%d wave%d: %d checks in %d kernel runs, %d failing groups, %.1f s"
          % (family, opt, wave, report.checks, runner.runs, len(report.failures), time.time() - start))
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
