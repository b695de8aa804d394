#!/usr/bin/env python3
"""Differential testing of umbra's RDNA3 path against PoCL on the host CPU.

Each batch is one generated .cl file of many kernels (gen.py). It is compiled by `umbra cc` at
-O0/-O3 in wave32/wave64 and run by `umbra run` with one and two host threads and, for -O3 wave32
and -O0 wave64, under the timing model (`--timing`: its results must be the functional ones), and
for -O3 wave32 under the timing model on two host threads too, whose statistics JSON must be the
one-thread run's byte for byte (eleven configurations), and built and run by PoCL through pyopencl. Every output byte (the per-work-item
results and the atomic counters) of every configuration is compared with PoCL's; without PoCL
(pyopencl or its platform absent) the configurations are compared with -O0 wave32.

A difference is written to WORK/diffs/ as a standalone kernel with its launch, ready for reduce.py.
A kernel that clang-19 cannot compile for gfx1100 is set aside (WORK/compile_failures/) with the
compiler's message; the rest of its batch still runs.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

# PoCL: no on-disk cache (every kernel is new) and the cheaper work-group method (compile time
# dominates; the choice does not change results)
os.environ.setdefault("POCL_KERNEL_CACHE", "0")
os.environ.setdefault("POCL_WORK_GROUP_METHOD", "loops")
sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

# (optimisation, wave size, host threads or "timing": one thread under the gfx1100 timing model,
# whose results must be the functional ones; "timing2": the same on two host threads, whose
# statistics must also be the one-thread run's)
# "jit": one thread, translated to host code (--jit always, docs/TRANSLATOR.md), whose statistics must
# also be the interpreter's one-thread run's.
CONFIGS = [(o, w, t) for o in (0, 3) for w in (32, 64) for t in (1, 2)] + [(3, 32, "timing"), (0, 64, "timing"),
                                                                           (3, 32, "timing2"), (3, 32, "jit"),
                                                                           (0, 64, "jit")]
JIT_BUILDS = [(o, w) for o, w, t in CONFIGS if t == "jit"]


def cname(o, w, t=None):
    return f"O{o}_w{w}" + (f"_{t}" if str(t).startswith("timing") or t == "jit" else f"_t{t}" if t else "")


def inputs(seed):
    """The input words and the initial atomic counters of a batch."""
    r = random.Random(seed * 7919 + 1)
    vals = [r.choice([0, 1, 2, 0xffffffff, 0x80000000, 0x7fffffff, r.getrandbits(8), r.getrandbits(16)])
            if r.random() < 0.3 else r.getrandbits(32) for _ in range(gen.NIN)]
    ctr = [r.getrandbits(32) for _ in range(gen.NCTR)]
    return (b"".join(v.to_bytes(4, "little") for v in vals),
            b"".join(v.to_bytes(4, "little") for v in ctr))


# ---------------------------------------------------------------- PoCL
class Pocl:
    """PoCL through pyopencl; `ok` is False (with `why`) when either is missing."""

    def __init__(self):
        self.ok, self.why = False, ""
        try:
            import pyopencl as cl
            import numpy  # noqa: F401
        except ImportError as e:
            self.why = f"pyopencl not importable by {sys.executable}: {e}"
            return
        self.cl = cl
        plats = [p for p in cl.get_platforms() if "Portable Computing Language" in p.name]
        if not plats or not plats[0].get_devices():
            self.why = "no PoCL platform or device"
            return
        self.ctx = cl.Context(plats[0].get_devices()[:1])
        self.queue = cl.CommandQueue(self.ctx)
        self.ok = True

    def build(self, src):
        # unoptimised: a reference that depends less on PoCL's optimiser, and three times faster
        # to build (PoCL's compile time dominates a batch)
        return self.cl.Program(self.ctx, src).build(options="-w -cl-opt-disable")

    def run(self, prog, k, inb, ctrb, nout):
        cl = self.cl
        mf = cl.mem_flags
        out = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=bytearray(k["global"] * nout * 8))
        inp = cl.Buffer(self.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=bytearray(inb))
        ctr = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=bytearray(ctrb))
        getattr(prog, k["name"])(self.queue, (k["global"],), (k["local"],), out, inp, ctr)
        o = bytearray(k["global"] * nout * 8)
        c = bytearray(len(ctrb))
        cl.enqueue_copy(self.queue, o, out)
        cl.enqueue_copy(self.queue, c, ctr)
        self.queue.finish()
        return bytes(o) + bytes(c)


# ---------------------------------------------------------------- umbra
def umbra_cc(umbra, src_path, co, o, w):
    cmd = [umbra, "cc", src_path, f"-O{o}", "-o", co, "-Xclang-arg", "-w"]
    if w == 64:
        cmd.append("--wave64")
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    return p.returncode == 0, p.stderr


# seconds one `umbra run` may take (the small kernels take well under one; a translation of a
# large -O0 kernel a few)
RUN_TIMEOUT = 300


def umbra_run(umbra, co, k, t, d, nout):
    """Runs kernel k; returns (output bytes or None, error text)."""
    o, c = os.path.join(d, f"{k['name']}.out"), os.path.join(d, f"{k['name']}.ctr")
    cmd = [umbra, "run", co, "--kernel", k["name"], "--global", str(k["global"]), "--local", str(k["local"]),
           "--arg", f"buf:zeros:{k['global'] * nout * 8}", "--arg", f"buf:{os.path.join(d, '..', 'in.bin')}",
           "--arg", f"buf:{os.path.join(d, '..', 'ctr.bin')}", "--out", f"0:{o}", "--out", f"2:{c}",
           "--quiet", "--max-instructions", "200000000"]
    if str(t).startswith("timing"):
        cmd += ["--timing", "--stats", os.path.join(d, f"{k['name']}.stats.json"), "--threads", "2" if t == "timing2" else "1"]
    elif t == "jit":
        cmd += ["--jit", "always", "--stats", os.path.join(d, f"{k['name']}.stats.json"), "--threads", "1"]
    else:   # the interpreter (`auto`, the default, would translate a long-running program)
        cmd += ["--threads", str(t), "--jit", "off"]
        if t == 1:   # the interpreter's statistics, which the translated run's must equal
            cmd += ["--stats", os.path.join(d, f"{k['name']}.stats.json")]
    try:   # (a run that never ends is a finding too: session 14's translation that looped in LLVM)
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, f"no result after {RUN_TIMEOUT} s (umbra {' '.join(cmd[1:])})"
    if p.returncode != 0:
        return None, p.stderr.strip()[-2000:]
    with open(o, "rb") as f1, open(c, "rb") as f2:
        return f1.read() + f2.read(), ""


def kernel_source(src, name):
    """The prelude plus one kernel of a generated file (a standalone program)."""
    head, _, rest = src.partition("__kernel ")
    for part in ("__kernel " + rest).split("__kernel ")[1:]:
        if f"void {name}(" in part:
            return head + "__kernel " + part
    raise KeyError(name)


def isolate_compile_failures(umbra, src, man, d, o, w):
    """Compiles each kernel alone; returns {name: message} of those clang-19 rejects."""
    bad = {}
    for k in man["kernels"]:
        p = os.path.join(d, f"{k['name']}.cl")
        with open(p, "w") as f:
            f.write(kernel_source(src, k["name"]))
        ok, err = umbra_cc(umbra, p, p + ".co", o, w)
        if not ok:
            bad[k["name"]] = first_error(err)
    return bad


def crash_in_context(err, man):
    """A back-end crash that only happens with the whole file (C3 in one kernel compiled beside
    others): clang names the function it was selecting; that kernel is set aside."""
    m = re.search(r"^In function: (\w+)$", err, re.M)
    names = {k["name"] for k in man["kernels"]}
    if m and m.group(1) in names:
        return {m.group(1): "only in the file: " + first_error(err)}
    return {}


def first_error(err):
    for line in err.splitlines():
        if "error" in line.lower() or "Cannot select" in line or "LLVM ERROR" in line:
            return line.strip()[:300]
    return err.strip().splitlines()[0][:300] if err.strip() else "?"


def without(src, names):
    parts = src.split("__kernel ")
    keep = [parts[0]] + [p for p in parts[1:] if not any(f"void {n}(" in p for n in names)]
    return "__kernel ".join(keep)


# ---------------------------------------------------------------- one batch
def run_batch(a, seed, pocl, pool, pool_pocl):
    d = os.path.join(a.work, f"s{seed}")
    os.makedirs(d, exist_ok=True)
    src, man = gen.generate_file(seed, a.kernels, a.size)
    inb, ctrb = inputs(seed)
    with open(os.path.join(d, "in.bin"), "wb") as f:
        f.write(inb)
    with open(os.path.join(d, "ctr.bin"), "wb") as f:
        f.write(ctrb)
    report = {"seed": seed, "kernels": len(man["kernels"]), "compile_failures": {}, "diffs": [], "errors": []}

    # compile the builds the configurations use (in parallel); kernels clang rejects are set aside
    builds = sorted({(o, w) for o, w, _ in CONFIGS})
    cur = src
    t0 = time.time()
    # PoCL builds and runs the whole file on its own thread while umbra compiles
    pocl_job = None
    if pocl.ok:
        pocl_job = pool_pocl.submit(lambda: {k["name"]: pocl.run(prog, k, inb, ctrb, gen.NOUT)
                                             for prog in [pocl.build(src)] for k in man["kernels"]})
    for attempt in range(3):
        path = os.path.join(d, "prog.cl")
        with open(path, "w") as f:
            f.write(cur)
        res = list(pool.map(lambda ow: umbra_cc(a.umbra, path, os.path.join(d, f"{cname(*ow)}.co"), *ow), builds))
        failed = [ow for ow, (ok, _) in zip(builds, res) if not ok]
        if not failed:
            break
        for ow, (ok, err) in zip(builds, res):
            if ok:
                continue
            sub = os.path.join(d, "iso_" + cname(*ow))
            os.makedirs(sub, exist_ok=True)
            bad = isolate_compile_failures(a.umbra, cur, man, sub, *ow)
            if not bad:
                bad = crash_in_context(err, man)
            for n, msg in bad.items():
                report["compile_failures"].setdefault(n, {})[cname(*ow)] = msg
                save_case(a, seed, n, src, man, "compile_" + cname(*ow), msg)
            if not bad:
                report["errors"].append(f"{cname(*ow)}: file fails, no kernel alone fails")
        man = dict(man, kernels=[k for k in man["kernels"] if k["name"] not in report["compile_failures"]])
        cur = without(src, list(report["compile_failures"]))
    else:
        report["errors"].append("compile failures persist")
        if pocl_job:
            pocl_job.result()
        return report

    # reference: PoCL, else umbra -O0 wave32 one thread
    report["t_compile"] = round(time.time() - t0, 1)
    t0 = time.time()
    try:
        ref = pocl_job.result() if pocl_job else {}
    except Exception as e:   # PoCL's compiler or runtime failed on this file
        report["errors"].append(f"PoCL: {str(e)[:500]}")
        return report
    report["t_pocl"] = round(time.time() - t0, 1)
    t0 = time.time()
    jobs = []
    for o, w, t in CONFIGS:
        rd = os.path.join(d, cname(o, w, t))
        os.makedirs(rd, exist_ok=True)
        for k in man["kernels"]:
            jobs.append(((o, w, t), k, rd))
    outs = list(pool.map(lambda j: umbra_run(a.umbra, os.path.join(d, f"{cname(j[0][0], j[0][1])}.co"),
                                             j[1], j[0][2], j[2], gen.NOUT), jobs))
    report["t_run"] = round(time.time() - t0, 1)
    if not pocl.ok:
        for (cfg, k, _), (b, _) in zip(jobs, outs):
            if cfg == (0, 32, 1):
                ref[k["name"]] = b
    for (cfg, k, _), (b, err) in zip(jobs, outs):
        r = ref[k["name"]]
        if b is None or r is None or b != r:
            what = err if b is None else first_difference(b, r, k["global"])
            report["diffs"].append({"kernel": k["name"], "config": cname(*cfg), "what": what})
            save_case(a, seed, k["name"], src, man, cname(*cfg), what)
    timing_pair = (3, 32, "timing") in CONFIGS and (3, 32, "timing2") in CONFIGS
    for k in man["kernels"]:   # the timing model's statistics do not depend on the host threads
        if not timing_pair:
            continue
        one, two = (timing_stats(os.path.join(d, cname(3, 32, t), f"{k['name']}.stats.json")) for t in ("timing", "timing2"))
        if one is None or one != two:
            what = "no timing statistics" if one is None else "timing statistics at 2 host threads differ from 1"
            report["diffs"].append({"kernel": k["name"], "config": cname(3, 32, "timing2"), "what": what})
            save_case(a, seed, k["name"], src, man, cname(3, 32, "timing2"), what)
    for k in man["kernels"]:
        for o, w in JIT_BUILDS:   # the translator's statistics are the interpreter's
            interp, jit = (functional_stats(os.path.join(d, cname(o, w, t), f"{k['name']}.stats.json")) for t in (1, "jit"))
            if interp is None or interp != jit:
                what = "no statistics" if interp is None else "translated statistics differ from the interpreter's"
                report["diffs"].append({"kernel": k["name"], "config": cname(o, w, "jit"), "what": what})
                save_case(a, seed, k["name"], src, man, cname(o, w, "jit"), what)
    if not a.keep:
        subprocess.run(["rm", "-rf", d])
    return report


def functional_stats(path):
    """A --stats file without what differs from run to run (host time, command line), or None."""
    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if k not in ("command", "host_seconds", "code_object") and
                    "per_second" not in k}
        return [strip(x) for x in v] if isinstance(v, list) else v
    try:
        with open(path) as f:
            return strip(json.load(f))
    except (OSError, ValueError):
        return None


def timing_stats(path):
    """The "timing" object of a --stats file, as text (None if absent)."""
    try:
        with open(path) as f:
            return json.dumps(json.load(f)["timing"], sort_keys=True)
    except (OSError, ValueError, KeyError):
        return None


def first_difference(b, r, nglobal):
    nout = gen.NOUT
    for i in range(0, min(len(b), len(r)), 8):
        if b[i:i + 8] != r[i:i + 8]:
            wi = i // 8
            where = f"work-item {wi // nout} word {wi % nout}" if wi < nglobal * nout else f"counter bytes {i - nglobal * nout * 8}"
            return f"{where}: umbra {b[i:i + 8].hex()} reference {r[i:i + 8].hex()}"
    return f"lengths {len(b)} vs {len(r)}"


def save_case(a, seed, name, src, man, cfg, what):
    d = os.path.join(a.work, "diffs" if not cfg.startswith("compile_") else "compile_failures", f"s{seed}_{name}")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "kernel.cl"), "w") as f:
        f.write(kernel_source(src, name))
    k = next(k for k in man["kernels"] if k["name"] == name)
    info = {"seed": seed, "kernel": k, "config": cfg, "what": what}
    with open(os.path.join(d, f"{cfg}.json"), "w") as f:
        json.dump(info, f, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--umbra", required=True)
    ap.add_argument("--seed", type=int, default=1, help="first batch seed")
    ap.add_argument("--programs", type=int, default=300, help="number of kernels in all")
    ap.add_argument("--kernels", type=int, default=30, help="kernels per batch (file)")
    ap.add_argument("--size", choices=sorted(gen.SIZES), default="normal", help="kernel size (gen.py)")
    ap.add_argument("--work", required=True, help="work directory")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--log", help="append one JSON line per batch here")
    ap.add_argument("--keep", action="store_true", help="keep the batch directories")
    ap.add_argument("--require-pocl", action="store_true")
    ap.add_argument("--no-jit", action="store_true", help="leave out the translated configurations (umbra built "
                    "without UMBRA_JIT)")
    ap.add_argument("--jit-only", action="store_true", help="only the translated configurations and the interpreter "
                    "runs their statistics are checked against (long runs recording programs for the translator)")
    a = ap.parse_args()
    if a.jit_only and a.no_jit:
        ap.error("--jit-only and --no-jit exclude each other")
    if a.jit_only:
        CONFIGS[:] = [c for c in CONFIGS if c[2] == "jit" or (c[2] == 1 and (c[0], c[1]) in JIT_BUILDS)]
    if a.no_jit:
        CONFIGS[:] = [c for c in CONFIGS if c[2] != "jit"]
        JIT_BUILDS.clear()
    os.makedirs(a.work, exist_ok=True)
    pocl = Pocl()
    if not pocl.ok:
        if a.require_pocl or a.jit_only:   # (without PoCL the reference is the O0 wave32 build, not run then)
            print(f"difftest: PoCL required: {pocl.why}", file=sys.stderr)
            return 2
        print(f"difftest: PoCL absent ({pocl.why}): comparing umbra configurations with each other")
    nb = (a.programs + a.kernels - 1) // a.kernels
    total = {"programs": 0, "diffs": 0, "compile_failures": 0, "errors": 0}
    t0 = time.time()
    with ThreadPoolExecutor(a.jobs) as pool, ThreadPoolExecutor(1) as pool_pocl:
        for b in range(nb):
            rep = run_batch(a, a.seed + b, pocl, pool, pool_pocl)
            rep["pocl"] = pocl.ok
            rep["seconds"] = round(time.time() - t0, 1)
            total["programs"] += rep["kernels"]
            total["diffs"] += len(rep["diffs"])
            total["compile_failures"] += len(rep["compile_failures"])
            total["errors"] += len(rep["errors"])
            if a.log:
                with open(a.log, "a") as f:
                    f.write(json.dumps(rep) + "\n")
            for dd in rep["diffs"]:
                print(f"DIFF seed {rep['seed']} {dd['kernel']} {dd['config']}: {dd['what']}")
            for n, m in rep["compile_failures"].items():
                print(f"COMPILE-FAIL seed {rep['seed']} {n}: {m}")
            for e in rep["errors"]:
                print(f"ERROR seed {rep['seed']}: {e}")
            sys.stdout.flush()
    print(f"difftest: {total['programs']} programs ({nb} batches from seed {a.seed}) x {len(CONFIGS)} configurations"
          f" vs {'PoCL' if pocl.ok else 'umbra O0 w32'}: {total['diffs']} differences,"
          f" {total['compile_failures']} kernels clang-19 could not compile, {total['errors']} errors,"
          f" {time.time() - t0:.0f} s")
    return 1 if total["diffs"] or total["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
