#!/usr/bin/env python3
"""Tests of `umbra cc`, `umbra run` and `umbra disasm`.

usage: cli_test.py UMBRA SRC_DIR WORK_DIR CASE
The expected values are written here (vec_add of iota + 0.5) or come from llvm-objdump-19.
"""
import json
import os
import struct
import subprocess
import sys

umbra, src, work, case = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
co = os.path.join(work, f"cli-{case}.co")


def run(args, ok=True):
    p = subprocess.run([umbra] + args, capture_output=True, text=True)
    if ok and p.returncode != 0:
        sys.exit(f"FAIL: umbra {' '.join(args)} exited {p.returncode}\n{p.stderr}")
    if not ok and p.returncode == 0:
        sys.exit(f"FAIL: umbra {' '.join(args)} should have failed\n{p.stdout}")
    return p


def check(cond, msg):
    if not cond:
        sys.exit("FAIL: " + msg)


def build(opt="-O3", extra=()):
    run(["cc", os.path.join(src, "vec_add.cl"), "-o", co, opt, *extra])


N = 1000
VEC_ARGS = ["--kernel", "vec_add", "--global", str(N), "--local", "64",
            "--arg", f"buf:iota:f32:{N}", "--arg", f"buf:fill:f32:{N}:0.5",
            "--arg", f"buf:zeros:{4 * N}", "--arg", f"u32:{N}"]

if case == "run":
    build()
    out = os.path.join(work, "cli-run-out.bin")
    stats = os.path.join(work, "cli-run-stats.json")
    p = run(["run", co, *VEC_ARGS, "--out", f"2:{out}", "--stats", stats, "--print", "2:f32:4"])
    got = struct.unpack(f"<{N}f", open(out, "rb").read())
    check(all(got[i] == i + 0.5 for i in range(N)), f"vec_add output wrong: {got[:8]}")
    check(p.stdout.split() == ["0.5", "1.5", "2.5", "3.5"], f"--print gave {p.stdout!r}")
    js = json.load(open(stats))
    check(js["warp_instructions"] > 0 and js["workgroups"] == 16 and js["warps"] == 32, f"stats: {js}")
    check("warp" in p.stderr.lower() or "inst" in p.stderr.lower(), "no text statistics on stderr")
    # buffers from files, --offset-free 2D-less run, default --local
    fa, fb = os.path.join(work, "cli-run-a.bin"), os.path.join(work, "cli-run-b.bin")
    open(fa, "wb").write(struct.pack(f"<{N}f", *[2.0 * i for i in range(N)]))
    open(fb, "wb").write(struct.pack(f"<{N}f", *[-1.0] * N))
    p = run(["run", co, "--kernel", "vec_add", "--global", str(N), "--arg", f"buf:{fa}", "--arg", f"buf:{fb}",
             "--arg", f"buf:zeros:{4 * N}", "--arg", f"u32:{N}", "--out", f"2:{out}", "--quiet"])
    got = struct.unpack(f"<{N}f", open(out, "rb").read())
    check(all(got[i] == 2.0 * i - 1.0 for i in range(N)), f"buf:FILE run wrong: {got[:8]}")
elif case == "wave64":
    build(extra=["--wave64", "-DUNUSED_MACRO=1"])
    p = run(["disasm", co, "--kernels"])
    check("wave64" in p.stdout, p.stdout)
    out = os.path.join(work, "cli-w64-out.bin")
    run(["run", co, *VEC_ARGS, "--out", f"2:{out}", "--quiet"])
    got = struct.unpack(f"<{N}f", open(out, "rb").read())
    check(all(got[i] == i + 0.5 for i in range(N)), "wave64 vec_add output wrong")
    # 1024 items in full waves and no divergence: every instruction has all lanes active, in
    # both wave sizes (thread instructions = wave size x wave instructions)
    for wave, extra in ((64, ["--wave64"]), (32, [])):
        build(extra=extra)
        stats = os.path.join(work, f"cli-w{wave}-stats.json")
        run(["run", co, "--kernel", "vec_add", "--global", "1024", "--local", "128", "--arg", "buf:iota:f32:1024",
             "--arg", "buf:iota:f32:1024", "--arg", "buf:zeros:4096", "--arg", "u32:1024", "--stats", stats, "--quiet"])
        js = json.load(open(stats))
        check(js["thread_instructions"] == wave * js["warp_instructions"] and js["simt_efficiency"] == 1.0,
              f"wave{wave}: {js['thread_instructions']} thread instructions for {js['warp_instructions']} wave instructions")
elif case == "trace":
    build()
    p = run(["run", co, "--kernel", "vec_add", "--global", "40", "--local", "32", "--arg", "buf:iota:f32:40",
             "--arg", "buf:iota:f32:40", "--arg", "buf:zeros:160", "--arg", "u32:40", "--trace", "-", "--quiet"])
    lines = [l for l in p.stdout.splitlines() if "s_endpgm" in l]
    check(len(lines) == 2, f"want one s_endpgm per wave (2 waves), trace:\n{p.stdout[:2000]}")
elif case == "schedule":
    # Results that depend on the interleaving of waves: the fast path must give the same bytes
    # (and statistics) as the traced run, which steps every wave one instruction per turn.
    G, ROUNDS = 256, 9
    for wave, extra_cc in ((32, []), (64, ["--wave64"])):
        run(["cc", os.path.join(src, "race_order.cl"), "-o", co, "-O3", *extra_cc])
        outs = {}
        for mode in ("fast", "traced"):
            files = [os.path.join(work, f"cli-sched-{mode}-{i}.bin") for i in range(3)]
            extra = ["--trace", os.path.join(work, "cli-sched.trace")] if mode == "traced" else []
            stats = os.path.join(work, f"cli-sched-{mode}.json")
            run(["run", co, "--kernel", "race_order", "--global", str(G), "--local", "128",
                 "--arg", f"buf:zeros:{4 * G * ROUNDS}", "--arg", "buf:zeros:4", "--arg", f"buf:zeros:{4 * (G + 1)}",
                 "--arg", f"u32:{ROUNDS}", "--quiet", "--stats", stats, *extra] +
                [a for i, f in enumerate(files) for a in ("--out", f"{i}:{f}")])
            js = json.load(open(stats))
            for varies in ("host_seconds", "warp_instructions_per_second", "umbra"):   # "umbra": the command line
                js.pop(varies)
            outs[mode] = [open(f, "rb").read() for f in files] + [js]
        order = struct.unpack(f"<{G * ROUNDS}I", outs["fast"][0])
        check(sorted(order) == list(range(G * ROUNDS)), f"wave{wave}: tickets are not a permutation")
        check(struct.unpack("<I", outs["fast"][1])[0] == G * ROUNDS, f"wave{wave}: ticket counter wrong")
        for i, what in enumerate(("ticket order", "ticket counter", "racy shared value", "statistics")):
            check(outs["fast"][i] == outs["traced"][i],
                  f"wave{wave}: {what} differs between the fast path and the traced run")
elif case == "schedule_lds":
    # LDS loads run ahead of their turns only while no other wave can write LDS before a barrier
    # (src/isa/rdna3/lds_quiet.c): lds_race.cl's racy phase must give the traced run's bytes, in
    # the interpreter and translated.
    G = 1024
    for wave, extra_cc in ((32, []), (64, ["--wave64"])):
        run(["cc", os.path.join(src, "lds_race.cl"), "-o", co, "-O3", *extra_cc])
        outs = {}
        modes = [("traced", ["--trace", os.path.join(work, "cli-sched-lds.trace")]), ("fast", ["--jit", "off"])]
        if os.environ.get("UMBRA_TEST_JIT") == "1":   # a build with the translator (UMBRA_JIT)
            modes.append(("translated", ["--jit", "always", "--jit-cache", "off"]))
        for mode, extra in modes:
            out = os.path.join(work, f"cli-sched-lds-{mode}.bin")
            stats = os.path.join(work, f"cli-sched-lds-{mode}.json")
            run(["run", co, "--kernel", "lds_race", "--global", str(G), "--local", "256", "--arg", f"buf:zeros:{4 * G}",
                 "--arg", "u32:40", "--quiet", "--threads", "1", "--stats", stats, "--out", f"0:{out}", *extra])
            js = json.load(open(stats))
            for varies in ("host_seconds", "warp_instructions_per_second", "umbra"):
                js.pop(varies)
            outs[mode] = (open(out, "rb").read(), js)
        for mode in [m for m, _ in modes if m != "traced"]:
            check(outs[mode][0] == outs["traced"][0], f"wave{wave}: lds_race output differs between {mode} and traced")
            check(outs[mode][1] == outs["traced"][1], f"wave{wave}: lds_race statistics differ between {mode} and traced")
elif case == "fault_order":
    # Two waves of workgroup 1 fault; plain round robin (a traced run) reaches wave 1's store
    # first. The fast path runs wave 0's register-only instructions ahead and must still report
    # wave 1's fault, with the same message.
    obj = os.path.join(work, "cli-fault_order.o")
    for tool in (["clang-19", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-c",
                  os.path.join(src, "fault_order.s"), "-o", obj], ["ld.lld-19", "-shared", obj, "-o", co]):
        p = subprocess.run(tool, capture_output=True, text=True)
        check(p.returncode == 0, f"{tool[0]}: {p.stderr}")
    msgs = {}
    for mode in ("fast", "traced"):
        extra = ["--trace", os.path.join(work, "cli-fault_order.trace")] if mode == "traced" else []
        p = run(["run", co, "--kernel", "fault_order", "--global", "128", "--local", "64", "--arg", "buf:zeros:8",
                 "--quiet", *extra], ok=False)
        msgs[mode] = [l for l in p.stderr.splitlines() if "guest fault" in l]
    check(len(msgs["traced"]) == 1 and "workgroup (1,0,0), warp 1" in msgs["traced"][0] and
          "global_store_b32" in msgs["traced"][0], f"traced run: {msgs['traced']}")
    check(msgs["fast"] == msgs["traced"], f"fast path reported {msgs['fast']}, plain round robin {msgs['traced']}")
elif case == "byvalue":
    # a struct and a float4 passed by value as hex bytes
    cl = os.path.join(work, "cli-byvalue.cl")
    open(cl, "w").write("typedef struct { float a; int b; float2 c; } params;\n"
                        "__kernel void st(params p, float4 q, __global float *out)\n"
                        "{ out[0] = p.a; out[1] = (float)p.b; out[2] = p.c.y; out[3] = q.w; }\n")
    run(["cc", cl, "-o", co, "-O0"])
    p_hex = struct.pack("<fiff", 1.5, 7, 0.0, -10.0).hex()
    q_hex = struct.pack("<ffff", 0, 0, 0, 1.0).hex()
    p = run(["run", co, "--kernel", "st", "--global", "1", "--arg", "hex:" + p_hex, "--arg", "hex:" + q_hex,
             "--arg", "buf:zeros:16", "--print", "2:f32", "--quiet"])
    check(p.stdout.split() == ["1.5", "7", "-10", "1"], p.stdout)
    p = run(["run", co, "--kernel", "st", "--global", "1", "--arg", "hex:00", "--arg", "hex:" + q_hex,
             "--arg", "buf:zeros:16"], ok=False)
    check("does not fit" in p.stderr and "16 bytes" in p.stderr, p.stderr)
elif case == "link":
    # units compiled with --bitcode; two merged with --bitcode into a library (one bitcode module,
    # linked later); the library and the kernel's unit linked into a code object that runs
    units = {"twice": "int twice(int x) { return 2 * x; }\n",
             "plus7": "int plus7(int x) { return x + 7; }\n",
             "again": "int twice(int x) { return 3 * x; }\n",
             "main": "int twice(int x); int plus7(int x);\n"
                     "__kernel void k(__global int *o) { int i = get_global_id(0); o[i] = twice(plus7(i)); }\n"}
    bc = {}
    for name, text in units.items():
        cl = os.path.join(work, f"cli-link-{name}.cl")
        open(cl, "w").write(text)
        bc[name] = os.path.join(work, f"cli-link-{name}.bc")
        run(["cc", cl, "-o", bc[name], "--bitcode"])
    lib = os.path.join(work, "cli-link-lib.bc")
    run(["cc", bc["twice"], bc["plus7"], "-o", lib, "--bitcode"])
    check(open(lib, "rb").read(4) == b"BC\xc0\xde", "the merged library is not LLVM bitcode")
    run(["cc", lib, bc["main"], "-o", co])
    out = os.path.join(work, "cli-link-out.bin")
    run(["run", co, "--kernel", "k", "--global", "64", "--arg", "buf:zeros:256", "--out", f"0:{out}", "--quiet"])
    got = struct.unpack("<64i", open(out, "rb").read())
    check(list(got) == [2 * (i + 7) for i in range(64)], f"linked kernel gave {got[:8]}")
    p = run(["cc", bc["twice"], bc["again"], "-o", lib, "--bitcode"], ok=False)
    check("twice" in p.stderr and "multiply defined" in p.stderr, p.stderr)
elif case == "errors":
    build()
    p = run(["cc", os.path.join(src, "vec_add.cl"), "-o", co, "--clang", "/nonexistent/clang-19"], ok=False)
    check("cannot run /nonexistent/clang-19" in p.stderr, p.stderr)
    p = run(["cc", os.path.join(src, "no_such_file.cl"), "-o", co], ok=False)
    check("no_such_file.cl" in p.stderr, p.stderr)
    p = run(["run", co, "--kernel", "nope", "--global", "4"], ok=False)
    check("no kernel 'nope'" in p.stderr and "vec_add" in p.stderr, p.stderr)
    p = run(["run", co, "--kernel", "vec_add", "--global", "4", "--arg", "u32:1"], ok=False)
    check("takes 4 arguments, 1 --arg given" in p.stderr, p.stderr)
    p = run(["run", co, "--kernel", "vec_add", "--global", "4", "--arg", "u32:1", "--arg", "buf:zeros:16",
             "--arg", "buf:zeros:16", "--arg", "u32:4"], ok=False)
    check("argument 0" in p.stderr and "global_buffer" in p.stderr, p.stderr)
    p = run(["run", co, *VEC_ARGS, "--max-instructions", "50", "--quiet"], ok=False)
    check("budget" in p.stderr, p.stderr)
    p = run(["run", co, *VEC_ARGS[:4], "--local", "2048", *VEC_ARGS[6:]], ok=False)
    check("--local" in p.stderr, p.stderr)
    p = run(["run", os.path.join(src, "vec_add.cl"), *VEC_ARGS], ok=False)
    check("vec_add.cl" in p.stderr and "ELF" in p.stderr, p.stderr)
    # workgroup larger than the kernel's .max_flat_workgroup_size (256 for OpenCL without attributes)
    p = run(["run", co, *VEC_ARGS[:4], "--local", "512", *VEC_ARGS[6:]], ok=False)
    check("exceeds its .max_flat_workgroup_size 256" in p.stderr, p.stderr)
    p = run(["run", co, "--kernel", "vec_add", "--global", "4,4,4,4", *VEC_ARGS[6:]], ok=False)
    check("--global" in p.stderr, p.stderr)
    # __local arguments beyond the 64 KiB of LDS
    lco = os.path.join(work, "cli-errors-local.co")
    run(["cc", os.path.join(src, "local_args.cl"), "-o", lco])
    p = run(["run", lco, "--kernel", "local_args", "--global", "128", "--local", "128", "--arg", "buf:zeros:512",
             "--arg", "buf:zeros:1536", "--arg", "local:40000", "--arg", "local:40000", "--arg", "u32:128"], ok=False)
    check("exceed 64 KiB" in p.stderr, p.stderr)
elif case == "disasm":
    build()
    ours = run(["disasm", co]).stdout
    ref = subprocess.run(["llvm-objdump-19", "-d", "--mcpu=gfx1100", co], capture_output=True, text=True).stdout

    def insns(text):   # instruction lines of the vec_add function: text and encoding
        out, inside = [], False
        for l in text.splitlines():
            if l.endswith("<vec_add>:"):
                inside = True
            elif inside and l.startswith("\t"):
                out.append(" ".join(l.split()))
            elif inside and l.strip() == "" and out:
                break
        return out
    a, b = insns(ours), insns(ref)
    check(len(b) > 10, "llvm-objdump listing not found")
    diff = [(x, y) for x, y in zip(a, b) if x != y]
    check(len(a) == len(b) and not diff, f"{len(a)} vs {len(b)} lines; first differences: {diff[:5]}")
else:
    sys.exit(f"unknown case {case}")
print(f"ok   cli {case}")
