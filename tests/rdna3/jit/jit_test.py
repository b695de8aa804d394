#!/usr/bin/env python3
"""The translator (docs/TRANSLATOR.md) against the interpreter on what must behave the same:
   jit_test.py UMBRA SRC_DIR WORK_DIR CASE
Each case runs one launch with --jit=off and --jit=always (one host thread) and requires the same
exit status, the same error text on stderr, the same output bytes and the same statistics JSON
(all but the host's time and the command line). Cases:
  budget       alu_loop with instruction budgets that run out inside its translated loop
  fault_loop   a store to an unmapped address in iteration 77 of a loop (fault at its own turn)
  fault_order  tests/rdna3/kernels/fault_order.s: a fault of a run-ahead instruction, kept for its turn
  fault_turn   tests/rdna3/kernels/fault_turn.s: two waves fault with the first instruction of their
               turns (a handler call, then an inline slow path): the first in round order is reported
  unsupported  an instruction umbra does not implement after a translated loop (handler fault)
  invalid      a code word that is no gfx11 instruction after a translated loop (decode fault)
  calls        a kernel calling a function that is not inlined: the callee is translated too (its
               instructions are counted in the translation) and the results are the interpreter's
  background   --jit auto on a launch of 4096 waves that loops: it starts in the interpreter, asks
               for its translation on the translator thread once it has run its threshold of
               wave-instructions, and switches to the translated code mid-launch (output and
               statistics the interpreter's)
  work         --jit auto on a launch of 64 waves that loops long: translated once it has run its
               threshold of wave-instructions interpreted, while it runs, with the interpreter's
               output and statistics; a short launch of the same kernel is not translated
  edges        edges.s, wave32 and wave64: the inline carry arithmetic (v_add/sub/subrev_co(_ci)_u32,
               VOP2 and VOP3SD), the 64-bit shifts, v_mad_u64_u32 and v_rcp/rsq/sqrt_f32 at their edge values (a carry out of the carry
               in alone, zeros, denormals, infinities, negatives, NaNs), one lane of 32 off in EXEC;
               every value against a Python reference, in both modes
  global       global.s, wave32 and wave64: the inline global loads against the bytes of the data
               buffer (one page, two pages, across a page end, three pages, misaligned, GV and
               GVS forms, a destination that is its address pair)
  lds          lds.s, wave32 and wave64, 1 KiB and 8 KiB of LDS: the inline LDS loads and 32-bit
               store against a Python model of the LDS (in range, misaligned, out of range, wrapping
               addresses; several lanes storing to one address; an address VGPR also the destination)"""
import json
import os
import subprocess
import sys

umbra, src, work, case = sys.argv[1:5]
# A folder per case: CTest runs the cases at once, several build the same kernel under one name
# (alu_loop, unsupported.s), and clang and lld remove an output before writing it.
work = os.path.join(work, case)
os.makedirs(work, exist_ok=True)
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def fail(msg):
    sys.exit("FAIL: " + msg)


def sh(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"{' '.join(cmd)}: {p.stderr}")


def assemble(name):
    obj, co = os.path.join(work, f"jit-{name}.o"), os.path.join(work, f"jit-{name}.co")
    sh(["clang-19", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-c", os.path.join(src, name + ".s"), "-o", obj])
    sh(["ld.lld-19", "-shared", obj, "-o", co])
    return co


def compile_cl(path, name, extra=()):
    co = os.path.join(work, f"jit-{name}.co")
    sh([umbra, "cc", path, "-o", co, "-O3", *extra])
    return co


def stats_of(path):
    """The statistics JSON without what differs from run to run (host time, command line)."""
    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items()
                    if k not in ("command", "host_seconds") and "per_second" not in k}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v
    try:
        return strip(json.load(open(path)))
    except (OSError, ValueError):
        return None


def both(tag, args, want_rc=None, buffers=(0,)):
    """Run args in both modes; return the interpreter's result after checking they agree. The output
    is the bytes of the buffers given (argument numbers), one after the other."""
    res = {}
    for mode in ("off", "always"):
        outs = [os.path.join(work, f"jit-{tag}-{mode}.{n}.bin") for n in buffers]
        st = os.path.join(work, f"jit-{tag}-{mode}.json")
        for f in (*outs, st):
            if os.path.exists(f):
                os.remove(f)
        p = subprocess.run([umbra, "run", *args, "--threads", "1", "--jit", mode, "--stats", st, "--quiet"] +
                           [a for n, f in zip(buffers, outs) for a in ("--out", f"{n}:{f}")], capture_output=True, text=True)
        data = b"".join(open(f, "rb").read() for f in outs) if all(os.path.exists(f) for f in outs) else None
        res[mode] = (p.returncode, p.stderr, data, stats_of(st))
    a, b = res["off"], res["always"]
    for i, what in enumerate(("exit status", "stderr", "output buffer", "statistics")):
        if a[i] != b[i]:
            fail(f"{tag}: {what} differs: interpreter {str(a[i])[:600]!r}, translated {str(b[i])[:600]!r}")
    if want_rc is not None and (a[0] == 0) != (want_rc == 0):
        fail(f"{tag}: exit status {a[0]}, expected {'0' if want_rc == 0 else 'non-zero'}: {a[1]}")
    return a


M32 = 0xffffffff
M64 = (1 << 64) - 1
# f32 bit patterns as (x, y) inputs: integer corners for the carries and float edge values
EDGE_WORDS = [0x00000000, 0x00000001, 0x007fffff, 0x00800000, 0x3f800000, 0x40800000, 0x7f7fffff,
              0x7f800000, 0xff800000, 0x80000000, 0xbf800000, 0x7f000000, 0x3e800000, 0x41c80000,
              0x80000001, 0x40490fdb, 0xff7fffff, 0x807fffff, 0x00000002, 0x3f800001, 0x5f3759df,
              0x1e3ce508, 0x0000ffff, 0xc0000000, 0x3f7fffff, 0x4b000001]
# integer corners for the carries (several are NaNs as f32)
EDGE_INTS = [0xffffffff, 0x00000000, 0x00000001, 0x80000000, 0x7fffffff, 0xfffffffe, 0x00000002]
EDGE_NANS = [0x7fc00000, 0x7f800001, 0xffc12345, 0x7fbfffff, 0xffffffff]


def kernel_footer(name, wave, nargs, lds=0, denorm32=False, wg_id=False, vgprs=40, sgprs=24):
    """The kernel descriptor and code object metadata of a hand-written test kernel: nargs global
    buffer arguments, wave32 or wave64, lds bytes of LDS, f32 denormals kept (MODE 3) or ROCm's
    default, the workgroup id in s2 or not."""
    desc = [".rodata", ".p2align 6", f".amdhsa_kernel {name}", "  .amdhsa_user_sgpr_kernarg_segment_ptr 1",
            "  .amdhsa_user_sgpr_count 2", f"  .amdhsa_wavefront_size32 {int(wave == 32)}",
            "  .amdhsa_system_vgpr_workitem_id 0", f"  .amdhsa_kernarg_size {8 * nargs}",
            f"  .amdhsa_next_free_vgpr {vgprs}", f"  .amdhsa_next_free_sgpr {sgprs}"]
    if lds:
        desc.append(f"  .amdhsa_group_segment_fixed_size {lds}")
    if denorm32:
        desc.append("  .amdhsa_float_denorm_mode_32 3")
    if wg_id:
        desc.append("  .amdhsa_system_sgpr_workgroup_id_x 1")
    desc.append(".end_amdhsa_kernel")
    args = "".join(f"      - {{ .size: 8, .offset: {8 * i}, .value_kind: global_buffer, .address_space: global }}\n"
                   for i in range(nargs))
    meta = (".amdgpu_metadata\n---\namdhsa.version: [ 1, 2 ]\namdhsa.target: amdgcn-amd-amdhsa--gfx1100\n"
            f"amdhsa.kernels:\n  - .name: {name}\n    .symbol: {name}.kd\n    .kernarg_segment_size: {8 * nargs}\n"
            f"    .group_segment_fixed_size: {lds}\n    .private_segment_fixed_size: 0\n"
            f"    .kernarg_segment_align: 8\n    .wavefront_size: {wave}\n    .sgpr_count: {sgprs}\n"
            f"    .vgpr_count: {vgprs}\n    .max_flat_workgroup_size: 64\n    .args:\n{args}...\n.end_amdgpu_metadata\n")
    return "\n".join(desc) + "\n\n" + meta


def assemble_test_kernel(source, tag, wave, name, nargs, **footer):
    """tests/rdna3/jit/SOURCE (code only) with its descriptor and metadata, for wave32 or wave64
    (--defsym W64=1 selects the wave64 register names in the source)."""
    asm, obj, co = (os.path.join(work, f"jit-{tag}.{e}") for e in ("s", "o", "co"))
    open(asm, "w").write(open(os.path.join(src, source)).read() + "\n" + kernel_footer(name, wave, nargs, **footer))
    flags = ["-mwavefrontsize64", "-Wa,--defsym,W64=1"] if wave == 64 else []
    sh(["clang-19", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", *flags, "-c", asm, "-o", obj])
    sh(["ld.lld-19", "-shared", obj, "-o", co])
    return co


def f32_bits(v):
    import ctypes
    import struct
    return struct.unpack("<I", struct.pack("<f", ctypes.c_float(v).value))[0]


def f32_of(u):
    import struct
    return struct.unpack("<f", struct.pack("<I", u))[0]


def f32_unary(u, op):
    """exec_valu.c's rcp32 (1.0f / a), rsq32 (1.0 / sqrt((double)a) to f32) and sqrtf on x86-64:
    a NaN input comes back quieted, a new NaN is the default NaN 0xffc00000."""
    import math
    if (u & 0x7f800000) == 0x7f800000 and (u & 0x7fffff):
        return u | 0x00400000
    x = f32_of(u)
    neg = u >> 31
    if op == "rcp":
        if x == 0:
            return 0xff800000 if neg else 0x7f800000
        return f32_bits(1.0 / x)
    if x < 0:
        return 0xffc00000
    if op == "sqrt":
        return u if x == 0 else f32_bits(math.sqrt(x))
    if x == 0:
        return 0xff800000 if neg else 0x7f800000
    return f32_bits(1.0 / math.sqrt(x))


def edges_expected(pairs):
    out = []
    for i, (x, y) in enumerate(pairs):
        if i % 32 == 5:   # off in EXEC: the initial value stays
            out.append([0xdeadbeef] * 31)
            continue
        c = int(y < x)
        s = x + y + c
        co = s >> 32
        c2 = int(x < y)
        row = [s & M32, co, (x - y - c2) & M32, int(x - y - c2 < 0), (y - x - co) & M32, int(y - x - co < 0),
               (x + y) & M32, (x + y) >> 32, (x - y) & M32, int(x < y), (y - x) & M32, int(y < x)]
        row += [f32_unary(x, "rsq"), f32_unary(x, "sqrt"), f32_unary(x, "rcp"),
                f32_unary(y, "rsq"), f32_unary(y, "sqrt"), f32_unary(y, "rcp")]
        x64 = x | y << 32
        signed = x64 - (1 << 64) if x64 >> 63 else x64
        mad = x * y + x64
        for v in ((x64 << (x & 63)) & M64, x64 >> (y & 63), (signed >> (x & 63)) & M64, mad & M64):
            row += [v & M32, v >> 32]
        row.append(mad >> 64)
        v = (x64 << (y & 63)) & M64
        row += [v & M32, v >> 32, mad & M32, (mad >> 32) & M32]
        out.append(row)
    return out


def edges_case():
    """Three inputs of 64 (x, y) pairs: edge floats without NaN (every float instruction inline in
    every wave), integer corners for the carries (all pairs of EDGE_INTS; a carry in of 1 onto a
    sum of 0xffffffff makes the carry alone), and the floats with NaNs in lanes 32-63 (those
    waves' float instructions call their handlers, the first wave32 wave's stay inline)."""
    import itertools
    import struct
    w = EDGE_WORDS
    floats = [(w[i % len(w)], w[(i * 7 + 3) % len(w)]) for i in range(64)]
    ints = list(itertools.islice(itertools.cycle(itertools.product(EDGE_INTS, EDGE_INTS)), 64))
    nans = list(floats)
    for i, n in zip(range(32, 64, 3), itertools.cycle(EDGE_NANS)):
        nans[i] = (n, nans[i][1])
        nans[i + 1] = (nans[i + 1][0], n)
    for wave in (32, 64):
        co = assemble_test_kernel("edges.s", f"edges{wave}", wave, "jit_edges", 2, denorm32=True)
        for tag, pairs in (("floats", floats), ("ints", ints), ("nans", nans)):
            inp = os.path.join(work, f"jit-edges-{tag}.in")
            open(inp, "wb").write(b"".join(struct.pack("<II", x, y) for x, y in pairs))
            _, _, data, _ = both(f"edges{wave}-{tag}", [co, "--kernel", "jit_edges", "--global", "64", "--local",
                                                         "64", "--arg", f"buf:zeros:{64 * 124}", "--arg", f"buf:{inp}"], 0)
            got = [list(struct.unpack_from("<31I", data, 124 * i)) for i in range(64)]
            for i, (g, e) in enumerate(zip(got, edges_expected(pairs))):
                if g != e:
                    bad = [f"v{4 + k}: got {a:#010x} expected {b:#010x}" for k, (a, b) in enumerate(zip(g, e)) if a != b]
                    fail(f"edges wave{wave} {tag}: work-item {i} (x {pairs[i][0]:#010x}, y {pairs[i][1]:#010x}): "
                         + "; ".join(bad))
    print("ok edges: wave32 and wave64, 64 work-items x 31 results x 3 inputs as the reference")


def runs_expected(pairs):
    """runs.s's v4..v7 where no value is a NaN (float32 products and sums of the inputs here are exact
    in double, so one rounding to float32 gives the IEEE result)."""
    out = []
    for i, (x, y) in enumerate(pairs):
        if i % 32 == 5:
            out.append(None)
            continue
        v4 = (x + 1) & M32
        v5 = f32_bits(f32_of(v4) * f32_of(y))
        v6 = f32_bits(f32_of(v5) + f32_of(v4))
        out.append((v4, v5, v6, v6 ^ v4))
    return out


def runs_case():
    """Inputs of 64 (x, y) pairs: ordinary floats, then NaNs made by x + 1 or given as y in lanes
    32-63 (those waves' float instructions call their handlers inside the run). Interpreter and
    translator must agree on every byte and statistic; v4..v7 of the lanes without NaN are checked
    against float32 arithmetic."""
    import itertools
    import struct
    ordinary = [(0x3f800000 + 0x1000 * i, 0x40000000 - 0x800 * i) for i in range(64)]
    nans = list(ordinary)
    for i, n in zip(range(32, 64, 3), itertools.cycle(EDGE_NANS)):
        nans[i] = ((n - 1) & M32, nans[i][1])
        nans[i + 1] = (nans[i + 1][0], n)
    for wave in (32, 64):
        co = assemble_test_kernel("runs.s", f"runs{wave}", wave, "jit_runs", 2, denorm32=True)
        for tag, pairs in (("ordinary", ordinary), ("nans", nans)):
            inp = os.path.join(work, f"jit-runs-{tag}.in")
            open(inp, "wb").write(b"".join(struct.pack("<II", x, y) for x, y in pairs))
            _, _, data, _ = both(f"runs{wave}-{tag}", [co, "--kernel", "jit_runs", "--global", "64", "--local",
                                                        "64", "--arg", f"buf:zeros:{64 * 48}", "--arg", f"buf:{inp}"], 0)
            for i, e in enumerate(runs_expected(pairs)):
                g = struct.unpack_from("<12I", data, 48 * i)
                if e is None:
                    if g != (0xdeadbeef,) * 12:
                        fail(f"runs wave{wave} {tag}: work-item {i} (off in EXEC) was written: {g}")
                elif i < 32 or tag == "ordinary":
                    if g[:4] != e:
                        fail(f"runs wave{wave} {tag}: work-item {i}: v4..v7 {[hex(v) for v in g[:4]]}, "
                             f"expected {[hex(v) for v in e]}")
    print("ok runs: wave32 and wave64, a run with handler calls inside and a jump into a run, as the interpreter")


def mask_chain_case():
    """Kernel k35 of the differential tester's seed 40042 (tests/difftest/gen.py, regenerated here):
    a run of integer code whose lane-mask selects, once the run shared one LLVM block, sent LLVM 19's
    DAG combiner into an endless loop when masks were bitcasts of integers (translate.c
    lanes_of_mask). It must translate (within the test's timeout) and give the interpreter's bytes
    and statistics. (If gen.py changes, the kernel is another one: still a check, maybe not of this.)"""
    sys.path.insert(0, os.path.join(root, "tests", "difftest"))
    import gen
    import run as difftest
    seed, name = 40042, "k35"
    text, man = gen.generate_file(seed, 40, "small")
    k = next(k for k in man["kernels"] if k["name"] == name)
    cl = os.path.join(work, "jit-mask-chain.cl")
    open(cl, "w").write(difftest.kernel_source(text, name))
    co = compile_cl(cl, name)
    inb, ctrb = difftest.inputs(seed)
    ins = [os.path.join(work, f"jit-mask-chain.{e}") for e in ("in", "ctr")]
    for path, data in zip(ins, (inb, ctrb)):
        open(path, "wb").write(data)
    _, err, _, _ = both("mask_chain", [co, "--kernel", name, "--global", str(k["global"]), "--local", str(k["local"]),
                                       "--arg", f"buf:zeros:{k['global'] * gen.NOUT * 8}", "--arg", f"buf:{ins[0]}",
                                       "--arg", f"buf:{ins[1]}"], 0, buffers=(0, 2))
    log = subprocess.run([umbra, "run", co, "--kernel", name, "--global", str(k["global"]), "--local", str(k["local"]),
                          "--arg", f"buf:zeros:{k['global'] * gen.NOUT * 8}", "--arg", f"buf:{ins[0]}", "--arg",
                          f"buf:{ins[1]}", "--quiet", "--jit", "always", "--jit-log", "--jit-cache", "off"],
                         capture_output=True, text=True, timeout=120).stderr
    if "translated" not in log:
        fail(f"mask_chain: {name} was not translated: {log!r}")
    print("ok mask_chain: " + log.strip().splitlines()[-1])


def lds_expected(addrs, wave, size):
    """lds.s per workgroup (one wave): lane l stores 0xa0000000 | wg << 16 | l * 0x101 at 4 * l, then
    0xc0000000 | l at 0x80 + 4 * (l & 3) (the last lane wins), then 0xb0000000 | l at 0xfe0 + 4 * l; bytes at or beyond the allocation
    read as 0 and are not written; an access's address (base + offset) wraps at 32 bits, the bytes
    of one access do not (exec_mem_ds.c)."""
    import struct
    out = []
    for wg in range(len(addrs) // wave):
        lds = bytearray(size)

        def write(a, v):
            for j, byte in enumerate(struct.pack("<I", v)):
                if a + j < size:
                    lds[a + j] = byte

        def read(a, n):
            return [int.from_bytes(bytes(lds[a + 4 * k + j] if a + 4 * k + j < size else 0 for j in range(4)),
                                   "little") for k in range(n)]
        for lane in range(wave):
            write(4 * lane, 0xa0000000 | wg << 16 | lane * 0x101)
        for lane in range(wave):
            write(0x80 + 4 * (lane & 3), 0xc0000000 | lane)
        for lane in range(wave):
            write(0xfe0 + 4 * lane, 0xb0000000 | lane)
        for lane in range(wave):
            a = addrs[wg * wave + lane]
            if lane % 32 == 5:
                out.append([0xdeadbeef] * 19)
                continue
            # the offsets of lds.s, each access's address wrapping at 32 bits
            a4, a8, a12, a16, a256 = ((a + k) & M32 for k in (4, 8, 12, 16, 256))
            out.append(read(a, 1) + read(a4, 2) + read(a8, 3) + read(a, 4) + read(a4, 1) + read(a12, 1) +
                       read(a, 1) + read(a256, 1) + read(a8, 2) + read(a16, 2) + read((a + 2) & M32, 1))
    return out


def lds_case():
    """Inputs of 64 LDS addresses: all in range (aligned and not), mixed (lanes 32-63 partly out of
    range or wrapping), and one address for all (misaligned; near the end of 1 KiB or 8 KiB; wrapping);
    each lane 5 of 32 (off in EXEC) has a wild address."""
    import struct
    inrange = [(i * 4 + (i % 3) * (i % 5 == 0)) % 300 for i in range(64)]
    mixed = list(inrange)
    for i, a in zip(range(32, 64, 3), (1020, 1022, 0xfffffffc, 0xfffffffe, 760, 8190, 4094, 0x80000000, 4090,
                                       4100, 4064)):
        mixed[i] = a
    # one address for every active lane (translate.c: one load per dword instead of gathers):
    # misaligned, in range only for 8 KiB, and wrapping at 2^32 (the handler's path)
    uniform = [0x42] * 64
    uniform_hi = [0xff2] * 32 + [0x1ff6] * 32
    uniform_wrap = [0xfffffffe] * 64
    for lst in (inrange, mixed, uniform, uniform_hi, uniform_wrap):
        lst[5] = lst[37] = 0x7ffffff0
    for wave in (32, 64):
        for big in (False, True):
            tag = f"lds{wave}{'big' if big else ''}"
            co = assemble_test_kernel("lds.s", tag, wave, "jit_lds", 2, lds=8192 if big else 1024, wg_id=True)
            for name, addrs in (("inrange", inrange), ("mixed", mixed), ("uniform", uniform),
                                ("uniform_hi", uniform_hi), ("uniform_wrap", uniform_wrap)):
                inp = os.path.join(work, f"jit-lds-{name}.in")
                open(inp, "wb").write(b"".join(struct.pack("<I", a) for a in addrs))
                _, _, data, _ = both(f"{tag}-{name}", [co, "--kernel", "jit_lds", "--global", "64", "--local",
                                                        str(wave), "--arg", f"buf:zeros:{64 * 76}", "--arg",
                                                        f"buf:{inp}"], 0)
                got = [list(struct.unpack_from("<19I", data, 76 * i)) for i in range(64)]
                for i, (g, e) in enumerate(zip(got, lds_expected(addrs, wave, 8192 if big else 1024))):
                    if g != e:
                        bad = [f"dword {k}: got {x:#010x} expected {y:#010x}" for k, (x, y) in enumerate(zip(g, e))
                               if x != y]
                        fail(f"{tag} {name}: work-item {i} (address {addrs[i]:#x}): " + "; ".join(bad[:6]))
    print("ok lds: wave32 and wave64, 1 and 8 KiB of LDS, 64 work-items x 19 loads x 5 inputs as the model")


def global_case():
    """64 byte offsets into a 16 KiB data buffer (dword i holds 0x5a000000 + i; the offsets of the
    first 32 work-items stay within two pages, the others reach over three pages and across page
    ends, several misaligned); lane 5 of each 32 is off in EXEC with a wild offset."""
    import struct
    size = 16384
    data = b"".join(struct.pack("<I", 0x5A000000 + i) for i in range(size // 4))
    offs = [(i * 52) % 4000 for i in range(32)] + [(i * 509 + (i % 3)) % (size - 64) for i in range(32)]
    offs[40], offs[41], offs[42], offs[43] = 4088, 4094, 8190, 12287
    offs[7] = offs[6]   # two lanes storing to one address: the later lane's value stays
    offs[5] = offs[37] = 0x7ffffff0
    inp_d, inp_o = os.path.join(work, "jit-global-data.bin"), os.path.join(work, "jit-global-offs.bin")
    open(inp_d, "wb").write(data)
    open(inp_o, "wb").write(b"".join(struct.pack("<I", o) for o in offs))

    def read(o, n):
        return list(struct.unpack_from(f"<{n}I", data, o))
    want = []
    for i, o in enumerate(offs):
        if i % 32 == 5:
            want.append([0xdeadbeef] * 10 + [(o + 0) & 0, 0] + [0xdeadbeef] * 6)   # v20/v21: data + o (checked below)
            continue
        want.append(read(o, 1) + read(o + 4, 2) + read(o + 8, 3) + read(o, 4) + [None, None] + read(o + 16, 4) +
                    read(o + 4, 2))
    for wave in (32, 64):
        co = assemble_test_kernel("global.s", f"global{wave}", wave, "jit_global", 4, vgprs=32)
        _, _, out, _ = both(f"global{wave}", [co, "--kernel", "jit_global", "--global", "64", "--local", "64", "--arg",
                                              f"buf:zeros:{64 * 72}", "--arg", f"buf:{inp_d}", "--arg", f"buf:{inp_o}",
                                              "--arg", f"buf:zeros:{size}"], 0, buffers=(0, 3))
        # sink: each store instruction in round-robin order (the waves in order), lanes in order
        sink = bytearray(size)
        for base, tag in ((0, 0xAB000000), (2, 0xCD000000)):
            for i, o in enumerate(offs):
                if i % 32 != 5:
                    sink[o + base:o + base + 4] = struct.pack("<I", tag | i)
        if out[64 * 72:] != bytes(sink):
            at = next(k for k in range(size) if out[64 * 72 + k] != sink[k])
            fail(f"global wave{wave}: sink differs from the model first at byte {at:#x}")
        got = [list(struct.unpack_from("<18I", out, 72 * i)) for i in range(64)]
        for i, (g, e) in enumerate(zip(got, want)):
            g = g[:10] + g[12:]   # v20/v21 hold the data address, which the test does not know
            e = e[:10] + e[12:]
            if g != e:
                bad = [f"dword {k}: got {x:#010x} expected {y:#010x}" for k, (x, y) in enumerate(zip(g, e)) if x != y]
                fail(f"global wave{wave}: work-item {i} (offset {offs[i]:#x}): " + "; ".join(bad[:6]))
    print("ok global: wave32 and wave64, 64 work-items x 16 loaded dwords as the data buffer's bytes, two stores each")


if case == "budget":
    co = compile_cl(os.path.join(root, "bench", "rdna3", "alu_loop.cl"), "alu_loop")
    args = [co, "--kernel", "alu_loop", "--global", "1024", "--local", "256", "--arg", "buf:zeros:4096",
            "--arg", "i32:300"]
    full = both("budget-full", args, 0)
    total = full[3]["warp_instructions"]
    for budget in (1, 7, 65, 66, 1000, 12345, total // 3):
        rc, err, _, _ = both(f"budget-{budget}", args + ["--max-instructions", str(budget)], 1)
        if "instruction budget" not in err:
            fail(f"budget {budget}: no budget report: {err}")
    # the budget is looked at after each round: a launch whose last round crosses it completes
    both(f"budget-{total - 1}", args + ["--max-instructions", str(total - 1)])
    both(f"budget-{total}", args + ["--max-instructions", str(total)], 0)
    print(f"ok budget: {total} wave-instructions; budgets 1 .. {total} give the same reports")
elif case == "fault_loop":
    co = compile_cl(os.path.join(src, "fault_loop.cl"), "fault_loop")
    rc, err, _, _ = both("fault_loop", [co, "--kernel", "fault_loop", "--global", "256", "--local", "64",
                                         "--arg", "buf:zeros:1024", "--arg", "i32:200"], 1)
    if "global_store_b32" not in err or "warp 1" not in err:
        fail(f"fault_loop: unexpected report: {err}")
    print("ok fault_loop: " + err.strip().splitlines()[0][:160])
elif case in ("fault_order", "fault_turn"):
    co = os.path.join(work, f"jit-{case}.co")
    obj = co[:-3] + ".o"
    sh(["clang-19", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-c",
        os.path.join(root, "tests", "rdna3", "kernels", f"{case}.s"), "-o", obj])
    sh(["ld.lld-19", "-shared", obj, "-o", co])
    glob, want = ("128", ("workgroup (1,0,0), warp 1", "global_store_b32")) if case == "fault_order" else \
                 ("64", ("workgroup (0,0,0), warp 0", "s_movrels_b32"))
    rc, err, _, _ = both(case, [co, "--kernel", case, "--global", glob, "--local", "64", "--arg", "buf:zeros:8"], 1)
    if any(w not in err for w in want):
        fail(f"{case}: unexpected report (wanted {want}): {err}")
    print(f"ok {case}: " + err.strip().splitlines()[0][:160])
elif case == "unsupported":
    co = assemble("unsupported")
    rc, err, _, _ = both("unsupported", [co, "--kernel", "jit_unsupported", "--global", "64", "--local", "32",
                                          "--arg", "buf:zeros:256"], 1)
    if "ds_bvh_stack_rtn_b32" not in err or "not supported" not in err:
        fail(f"unsupported: unexpected report: {err}")
    print("ok unsupported")
elif case == "invalid":
    # unsupported.s with its ds_bvh_stack_rtn_b32 words replaced by words no gfx11 encoding has
    co = assemble("unsupported")
    blob = bytearray(open(co, "rb").read())
    enc = subprocess.run(["llvm-mc-19", "-triple=amdgcn", "-mcpu=gfx1100", "-show-encoding"],
                         input="ds_bvh_stack_rtn_b32 v5, v0, v1, v[0:3]\n", capture_output=True, text=True).stdout
    words = bytes(int(x, 16) for x in enc.split("encoding: [")[1].split("]")[0].split(","))
    i = blob.find(words)
    if i < 0:
        fail("invalid: ds_bvh_stack_rtn_b32 not found in the code object")
    blob[i:i + 8] = bytes.fromhex("ffffffffffffffff")
    bad = os.path.join(work, "jit-invalid.co")
    open(bad, "wb").write(blob)
    rc, err, _, _ = both("invalid", [bad, "--kernel", "jit_unsupported", "--global", "64", "--local", "32",
                                      "--arg", "buf:zeros:256"], 1)
    if "invalid instruction encoding" not in err:
        fail(f"invalid: unexpected report: {err}")
    print("ok invalid")
elif case == "calls":
    co = compile_cl(os.path.join(src, "calls.cl"), "calls")
    args = [co, "--kernel", "calls", "--global", "512", "--local", "64", "--arg", "buf:zeros:2048", "--arg", "i32:50"]
    both("calls", args, 0)
    dis = subprocess.run(["llvm-objdump-19", "-d", co], capture_output=True, text=True).stdout

    def count(symbol, last):
        """Instructions of symbol up to and including the first `last`."""
        body = dis.split(f"<{symbol}>:")[1].split("\n")
        n = 0
        for line in body[1:]:
            if not line.startswith("\t"):
                break
            n += 1
            if last in line:
                break
        return n
    kernel, callee = count("calls", "s_endpgm"), count("mix", "s_setpc_b64")
    p = subprocess.run([umbra, "run", *args, "--jit", "always", "--jit-log", "--jit-cache", "off", "--quiet"],
                       capture_output=True, text=True)
    got = int(p.stderr.split("(wave32): ")[1].split(" instructions")[0]) if "(wave32): " in p.stderr else 0
    if got < kernel + callee:
        fail(f"calls: {got} instructions translated, expected at least {kernel} of the kernel + {callee} of mix: {p.stderr}")
    print(f"ok calls: {got} instructions translated (kernel {kernel}, callee {callee})")
elif case == "background":
    co = compile_cl(os.path.join(root, "bench", "rdna3", "alu_loop.cl"), "alu_loop")
    args = [co, "--kernel", "alu_loop", "--global", "131072", "--local", "256", "--arg", "buf:zeros:524288",
            "--arg", "i32:2000", "--threads", "1", "--jit-cache", "off", "--quiet"]
    res = {}
    for mode in ("off", "auto"):
        out, st = os.path.join(work, f"jit-bg-{mode}.bin"), os.path.join(work, f"jit-bg-{mode}.json")
        p = subprocess.run([umbra, "run", *args, "--jit", mode, "--jit-log", "--out", f"0:{out}", "--stats", st],
                           capture_output=True, text=True)
        if p.returncode != 0:
            fail(f"background: --jit {mode}: {p.stderr}")
        res[mode] = (open(out, "rb").read(), stats_of(st), p.stderr)
    if res["off"][0] != res["auto"][0]:
        fail("background: output buffer differs from the interpreter's")
    if res["off"][1] != res["auto"][1]:
        fail("background: statistics differ from the interpreter's")
    log = res["auto"][2]
    if "translation asked after" not in log or "its later rounds ran translated" not in log:
        fail(f"background: the launch did not switch to translated code: {log!r}")
    print("ok background: " + " / ".join(log.strip().splitlines()))
elif case == "work":
    co = compile_cl(os.path.join(root, "bench", "rdna3", "alu_loop.cl"), "alu_loop")
    def run_alu(iters, mode, tag):
        out, st = os.path.join(work, f"jit-work-{tag}-{mode}.bin"), os.path.join(work, f"jit-work-{tag}-{mode}.json")
        p = subprocess.run([umbra, "run", co, "--kernel", "alu_loop", "--global", "2048", "--local", "256",
                            "--arg", "buf:zeros:8192", "--arg", f"i32:{iters}", "--threads", "1", "--jit-cache", "off",
                            "--quiet", "--jit", mode, "--jit-log", "--out", f"0:{out}", "--stats", st],
                           capture_output=True, text=True)
        if p.returncode != 0:
            fail(f"work: --jit {mode}, {iters} iterations: {p.stderr}")
        return open(out, "rb").read(), stats_of(st), p.stderr
    for iters, long_run in ((60000, True), (20, False)):
        off, auto = run_alu(iters, "off", iters), run_alu(iters, "auto", iters)
        if off[0] != auto[0]:
            fail(f"work: {iters} iterations: output buffer differs from the interpreter's")
        if off[1] != auto[1]:
            fail(f"work: {iters} iterations: statistics differ from the interpreter's")
        log = auto[2]
        if long_run and ("translation asked after" not in log or "its later rounds ran translated" not in log):
            fail(f"work: 64 waves x {iters} iterations were not translated while they ran: {log!r}")
        if not long_run and log.strip():
            fail(f"work: a short launch ({iters} iterations) was translated: {log!r}")
    print("ok work: 64 waves x 60000 iterations translated while they ran; 64 waves x 20 iterations interpreted")
elif case == "edges":
    edges_case()
elif case == "mask_chain":
    mask_chain_case()
elif case == "runs":
    runs_case()
elif case == "lds":
    lds_case()
elif case == "global":
    global_case()
else:
    fail(f"unknown case {case}")
