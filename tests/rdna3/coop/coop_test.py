#!/usr/bin/env python3
"""Cooperative launches and GWS (ds_gws_*) through `umbra run --cooperative`.

usage: coop_test.py UMBRA CLANGXX LLVM_MC LLD LLVM_OBJDUMP DEVICE_LIB SRC_DIR WORK CASE [ARGS]

  hip OPT WAVE THREADS   grid_sync.hip (cooperative_groups grid.sync(), grid.is_valid()) built with
                         clang++-19 -x hip at -O<OPT> for wave<WAVE>, run on THREADS host threads;
                         results against the reference below
  asm                    gws.s: disassembly against llvm-objdump-19; barriers through M0 and the
                         offset field, ds_gws_init, semaphores; the errors (no GWS outside a
                         cooperative launch, EXEC = 0, a barrier that can never complete)
  oversubscribed         a cooperative grid larger than the device holds fails before it runs
  timing                 the same kernels in timing mode
"""
import os
import struct
import subprocess
import sys

umbra, clangxx, llvm_mc, lld, objdump, devlib, src, work, case = sys.argv[1:10]
extra = sys.argv[10:]
os.makedirs(work, exist_ok=True)
M = 0xffffffff


def fail(msg):
    sys.exit("FAIL: " + msg)


def check(cond, msg):
    if not cond:
        fail(msg)


def sh(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"{' '.join(cmd)} exited {p.returncode}\n{p.stderr}")
    return p


def umbra_run(args, ok=True):
    p = subprocess.run([umbra, "run", *args, "--quiet"], capture_output=True, text=True, timeout=600)
    if ok and p.returncode != 0:
        fail(f"umbra run {' '.join(args)} exited {p.returncode}\n{p.stderr}")
    if not ok and p.returncode != 1:   # 1: the error reported; anything else (a sanitizer's report) is not
        fail(f"umbra run {' '.join(args)} exited {p.returncode}, want 1 (an error)\n{p.stdout}\n{p.stderr}")
    if "Sanitizer" in p.stderr:
        fail(f"umbra run {' '.join(args)}: sanitizer report\n{p.stderr}")
    return p


def words(path):
    data = open(path, "rb").read()
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def out(name):
    return os.path.join(work, name)


# ---- grid_sync.hip ----

def build_hip(opt, wave):
    # One file per test case: CTest runs the cases in parallel, and clang removes an existing output
    # before writing it, so a shared name lets one case run while another is rebuilding it.
    co = out(f"grid_sync.O{opt}.w{wave}.{case}{''.join('.' + e for e in extra)}.co")
    sh([clangxx, "-x", "hip", "--offload-arch=gfx1100", "--cuda-device-only", "--no-gpu-bundle-output",
        "--rocm-path=/usr", f"--rocm-device-lib-path={devlib}", f"-O{opt}",
        "-mwavefrontsize64" if wave == 64 else "-mno-wavefrontsize64", os.path.join(src, "grid_sync.hip"), "-o", co])
    return co


def reference(n, rounds):
    prev, res = list(range(n)), []
    for r in range(rounds):
        vals = [(p * 2654435761 + r) & M for p in prev]
        prev = [sum(vals[i] * (i + g + 1) for i in range(n)) & M for g in range(n)]
        res += prev
    return res


def run_rounds(co, tag, glob, local, n, threads, rounds=5, more=()):
    fres, finfo = out(f"{tag}.res.bin"), out(f"{tag}.info.bin")
    umbra_run([co, "--kernel", "grid_rounds", "--global", glob, "--local", local,
               "--arg", f"buf:zeros:{4 * n}", "--arg", f"buf:zeros:{4 * n * rounds}", "--arg", f"u32:{rounds}",
               "--arg", "buf:zeros:16", "--out", f"1:{fres}", "--out", f"3:{finfo}", "--cooperative",
               "--threads", str(threads), *more])
    got, want = words(fres), reference(n, rounds)
    bad = [i for i in range(len(want)) if got[i] != want[i]]
    check(not bad, f"{tag}: {len(bad)} wrong results, first res[{bad[0] if bad else 0}] = "
                   f"{got[bad[0]] if bad else 0}, want {want[bad[0]] if bad else 0}")
    info = words(finfo)
    items = 1
    for gl in glob.split(","):
        items *= int(gl)
    check(info[:3] == [1, items, n], f"{tag}: is_valid/size/groups = {info[:3]}, want [1, {items}, {n}]")


if case == "hip":
    opt, wave, threads = int(extra[0]), int(extra[1]), int(extra[2])
    co = build_hip(opt, wave)
    tag = f"hip.O{opt}.w{wave}.t{threads}"
    # 60 workgroups of 96 work-items on 8 CUs (all resident: 10 per CU in wave32, 16 in wave64),
    # spread over the host threads; then a 2D grid of 8 x 5 workgroups of 32 x 2
    run_rounds(co, tag, str(60 * 96), "96", 60, threads, more=["--cus", "8"])
    run_rounds(co, tag + ".2d", "256,10", "32,2", 40, threads, rounds=3)
    # grid.is_valid(): only a cooperative launch has a multi-grid sync block
    fv = out(f"{tag}.valid.bin")
    for coop, want in ((False, 0), (True, 1)):
        umbra_run([co, "--kernel", "grid_valid", "--global", "256", "--local", "64", "--arg", "buf:zeros:16",
                   "--out", f"0:{fv}", "--threads", str(threads)] + (["--cooperative"] if coop else []))
        check(words(fv) == [want] * 4, f"{tag}: grid.is_valid() = {words(fv)} (cooperative: {coop})")
    print(f"{tag}: ok")

elif case == "asm":
    obj, co = out("gws.o"), out("gws.co")
    sh([llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-filetype=obj", os.path.join(src, "gws.s"), "-o", obj])
    sh([lld, "-shared", obj, "-o", co])
    # every instruction line as umbra disasm and llvm-objdump-19 print it
    def lines(text):
        return [" ".join(l.split()) for l in text.splitlines() if l.startswith("\t")]
    ours = lines(subprocess.run([umbra, "disasm", co], capture_output=True, text=True).stdout)
    ref = lines(sh([objdump, "-d", "--mcpu=gfx1100", co]).stdout)
    check(len(ref) > 100 and sum("ds_gws_" in l for l in ref) >= 24, f"llvm-objdump listing: {len(ref)} lines")
    diff = [(a, b) for a, b in zip(ours, ref) if a != b]
    check(not diff and len(ours) == len(ref), f"disassembly differs from llvm-objdump-19: {diff[:4]} "
                                              f"({len(ours)} vs {len(ref)} lines)")
    # barriers: resource 0 through M0[21:16] = 63 + offset 1, resource 9 set up by ds_gws_init; the
    # count from the first active lane
    n, rounds = 37, 4
    for threads in (1, 2):
        fres = out(f"asm.rounds.t{threads}.bin")
        umbra_run([co, "--kernel", "gws_rounds", "--global", str(32 * n), "--local", "32", "--arg", f"buf:zeros:{4 * n}",
                   "--arg", f"buf:zeros:{4 * n * rounds}", "--arg", f"u32:{rounds}", "--arg", f"u32:{n}",
                   "--out", f"1:{fres}", "--cooperative", "--threads", str(threads), "--cus", "4"])
        want = [((g + 1) % n) * 7 + r for r in range(rounds) for g in range(n)]
        check(words(fres) == want, f"gws_rounds on {threads} host threads: {words(fres)[:12]}..., want {want[:12]}...")
        # semaphores: n - 1 waves released by ds_gws_sema_br (n - 2) and ds_gws_sema_v; none passed before
        fres = out(f"asm.sema.t{threads}.bin")
        umbra_run([co, "--kernel", "gws_sema", "--global", str(32 * 9), "--local", "32", "--arg", "buf:zeros:40",
                   "--arg", "buf:zeros:8", "--arg", "u32:9", "--out", f"0:{fres}", "--cooperative",
                   "--threads", str(threads), "--cus", "3"])
        check(words(fres) == [8] * 9 + [0], f"gws_sema on {threads} host threads: {words(fres)}")
    fres = out("asm.release_all.bin")
    umbra_run([co, "--kernel", "gws_release_all", "--global", "128", "--local", "128", "--arg", "buf:zeros:32",
               "--out", f"0:{fres}", "--cooperative"])
    check(words(fres)[:5] == [0, 1, 1, 1, 3], f"gws_release_all: {words(fres)}")
    # a barrier that can never complete ends the launch and names it, on one and on two host threads
    for threads in (1, 2):
        p = umbra_run([co, "--kernel", "gws_deadlock", "--global", str(32 * 6), "--local", "32", "--arg", "u32:6",
                       "--cooperative", "--threads", str(threads), "--cus", "2"], ok=False)
        for s in ("deadlock: kernel gws_deadlock: waves wait at a GWS barrier or semaphore that can never release them",
                  "0 of 6 workgroups done", "waits at ds_gws_barrier on GWS resource 3 (", "1 more must arrive)",
                  "s_waitcnt"):
            check(s in p.stderr, f"gws_deadlock ({threads} threads): no '{s}' in: {p.stderr}")
    # GWS outside a cooperative launch: the hardware NACKs it; umbra faults with the reason
    p = umbra_run([co, "--kernel", "gws_rounds", "--global", "64", "--local", "32", "--arg", "buf:zeros:8",
                   "--arg", "buf:zeros:8", "--arg", "u32:1", "--arg", "u32:2"], ok=False)
    check("ds_gws_init v1 offset:1 gds" in p.stderr and "owns no GWS resources" in p.stderr and
          "--cooperative" in p.stderr, f"non-cooperative GWS: {p.stderr}")
    p = umbra_run([co, "--kernel", "gws_exec0", "--global", "32", "--local", "32", "--cooperative"], ok=False)
    check("unsupported" in p.stderr and "EXEC is 0" in p.stderr, f"EXEC = 0: {p.stderr}")
    print("asm: ok")

elif case == "oversubscribed":
    co = build_hip(3, 32)
    # 1 CU holds 10 workgroups of 3 waves: 11 cannot all be resident
    p = umbra_run([co, "--kernel", "grid_rounds", "--global", str(11 * 96), "--local", "96", "--arg", "buf:zeros:44",
                   "--arg", "buf:zeros:44", "--arg", "u32:1", "--arg", "buf:zeros:16", "--cooperative", "--cus", "1"],
                  ok=False)
    for s in ("invalid argument", "cooperative launch of 11 workgroups, but only 10 can be resident at once",
              "10 per CU x 1 CUs"):
        check(s in p.stderr, f"oversubscribed: no '{s}' in: {p.stderr}")
    # a GWS barrier counts at most 4096 waves (12 bits): more workgroups are refused even on a device
    # that would hold them
    p = umbra_run([co, "--kernel", "grid_rounds", "--global", str(4097 * 32), "--local", "32",
                   "--arg", f"buf:zeros:{4 * 4097}", "--arg", f"buf:zeros:{4 * 4097}", "--arg", "u32:1",
                   "--arg", "buf:zeros:16", "--cooperative", "--cus", "200"], ok=False)
    check("cooperative launch of 4097 workgroups: a GWS barrier's 12-bit counter counts at most 4096 waves" in p.stderr,
          f"4097 workgroups: {p.stderr}")
    # the same grid runs when it fits
    run_rounds(co, "fits", str(10 * 96), "96", 10, 1, rounds=2, more=["--cus", "1"])
    print("oversubscribed: ok")

elif case == "timing":
    co = build_hip(3, 32)
    run_rounds(co, "timing", str(24 * 96), "96", 24, 1, rounds=3, more=["--timing"])
    obj, aco = out("gws-t.o"), out("gws-t.co")
    sh([llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-filetype=obj", os.path.join(src, "gws.s"), "-o", obj])
    sh([lld, "-shared", obj, "-o", aco])
    n, rounds = 37, 3
    fres = out("timing.rounds.bin")
    umbra_run([aco, "--kernel", "gws_rounds", "--global", str(32 * n), "--local", "32", "--arg", f"buf:zeros:{4 * n}",
               "--arg", f"buf:zeros:{4 * n * rounds}", "--arg", f"u32:{rounds}", "--arg", f"u32:{n}",
               "--out", f"1:{fres}", "--cooperative", "--timing"])
    check(words(fres) == [((g + 1) % n) * 7 + r for r in range(rounds) for g in range(n)], "timing gws_rounds")
    fres = out("timing.sema.bin")
    umbra_run([aco, "--kernel", "gws_sema", "--global", str(32 * 9), "--local", "32", "--arg", "buf:zeros:40",
               "--arg", "buf:zeros:8", "--arg", "u32:9", "--out", f"0:{fres}", "--cooperative", "--timing"])
    check(words(fres) == [8] * 9 + [0], f"timing gws_sema: {words(fres)}")
    p = umbra_run([aco, "--kernel", "gws_deadlock", "--global", str(32 * 6), "--local", "32", "--arg", "u32:6",
                   "--cooperative", "--timing"], ok=False)
    check("waits at ds_gws_barrier on GWS resource 3" in p.stderr and "1 more must arrive" in p.stderr,
          f"timing gws_deadlock: {p.stderr}")
    # the machine holds 16 one-wave workgroups per CU (machines/gfx1100.yaml), 1536 in all
    p = umbra_run([aco, "--kernel", "gws_rounds", "--global", str(32 * 1600), "--local", "32",
                   "--arg", "buf:zeros:6400", "--arg", "buf:zeros:6400", "--arg", "u32:1", "--arg", "u32:1600",
                   "--cooperative", "--timing"], ok=False)
    check("1600 workgroups must be resident at once (a cooperative launch)" in p.stderr and
          "holds only 1536 of them" in p.stderr, f"timing oversubscribed: {p.stderr}")
    print("timing: ok")

else:
    fail(f"unknown case {case}")
