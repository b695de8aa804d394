"""Relational functions (§6.12.6): comparisons and classification of float and double (scalar
0/1, vector 0/-1), select and bitselect for all ten types, any/all: exact references."""

import math
import struct

from bt_core import F32, F64, INT_TYPES, TYPES, int_range, pack, rng, to_f32, unpack

WIDTHS = [1, 2, 3, 4, 8, 16]
CL = {"i8": "char", "u8": "uchar", "i16": "short", "u16": "ushort", "i32": "int", "u32": "uint",
      "i64": "long", "u64": "ulong", "f32": "float", "f64": "double"}


def classify(fmt, x, y):
    u = math.isnan(x) or math.isnan(y)
    sign = math.copysign(1.0, x) < 0
    return [not u and x == y, u or x != y, not u and x > y, not u and x >= y, not u and x < y,
            not u and x <= y, not u and x != y, math.isfinite(x), math.isinf(x), math.isnan(x),
            math.isfinite(x) and abs(x) >= fmt.min_normal, not u, u, sign]


def float_values(fmt, count, r):
    rnd = to_f32 if fmt is F32 else (lambda v: v)
    sp = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, fmt.min_normal, fmt.min_denormal,
          -fmt.min_denormal, fmt.max, -fmt.max, 2.5]
    a, b = [], []
    for i in range(count):
        if i < len(sp) ** 2:
            a.append(rnd(sp[i // len(sp)]))
            b.append(rnd(sp[i % len(sp)]))
        else:
            x = rnd(r.uniform(-4, 4) if r.random() < 0.5 else r.choice([-1, 1]) * 2.0 ** r.uniform(-140, 120))
            a.append(x)
            b.append(x if r.random() < 0.2 else rnd(r.uniform(-4, 4)))
    if fmt is F32:  # a float NaN with the sign bit set, and a signaling one
        a[-1] = struct.unpack("<f", struct.pack("<I", 0xffc00001))[0]
        a[-2] = struct.unpack("<f", struct.pack("<I", 0x7f800001))[0]
    return a, b


def bits_of(ty, values):
    code = {"f32": "I", "f64": "Q"}.get(ty)
    if code:
        return list(struct.unpack("<%d%s" % (len(values), code), pack(ty, values)))
    size = TYPES[ty][1] * 8
    return [v & ((1 << size) - 1) for v in values]


def run(runner, family, report):
    runner.compile("relational.cl")
    local = 64
    count = local * 48
    r = rng(5)
    for ty, fmt in (("f32", F32), ("f64", F64)):
        a, b = float_values(fmt, count, r)
        (out,) = runner.run("rel_" + CL[ty], local, local,
                            [("buf", pack(ty, a)), ("buf", pack(ty, b)), ("zeros", 14 * 6 * count * 8)], [2])
        got = unpack("i64", out)
        names = ["isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal",
                 "islessgreater", "isfinite", "isinf", "isnan", "isnormal", "isordered", "isunordered",
                 "signbit"]
        wants = [classify(fmt, a[j], b[j]) for j in range(count)]
        for f, name in enumerate(names):
            for s, w in enumerate(WIDTHS):
                expect = [(1 if w == 1 else -1) if wants[j][f] else 0 for j in range(count)]
                slot = got[(f * 6 + s) * count:(f * 6 + s + 1) * count]
                bad = [j for j in range(count) if slot[j] != expect[j]]
                report.checks += count - len(bad)
                for j in bad:
                    report.check("%s_%s%s" % (name, CL[ty], w if w > 1 else ""), False,
                                 "%s(%r, %r) = %d, expected %d" % (name, a[j], b[j], slot[j], expect[j]))
    run_select(runner, report, count, local, r)
    run_anyall(runner, report, local, r)


def run_select(runner, report, count, local, r):
    for ty in INT_TYPES + ["f32", "f64"]:
        size = TYPES[ty][1] * 8
        if ty in INT_TYPES:
            lo, hi = int_range(ty)
            vals = [[r.randint(lo, hi) for _ in range(count)] for _ in range(3)]
            for i in range(0, count, 7):
                vals[2][i] = r.choice([0, 1, -1 if lo < 0 else hi, lo])
        else:
            fmt = F32 if ty == "f32" else F64
            vals = [float_values(fmt, count, r)[0] for _ in range(2)] + [float_values(fmt, count, r)[1]]
        args = [("buf", pack(ty, v)) for v in vals] + [("zeros", 6 * count * size // 8)] * 3
        outs = runner.run("sel_" + CL[ty], local, local, args, [3, 4, 5])
        bx, by, bz = (bits_of(ty, v) for v in vals)
        raw = {"f32": "u32", "f64": "u64"}.get(ty)  # float results as bits: a NaN must not be quieted
        got = [unpack(raw, o) if raw else bits_of(ty, unpack(ty, o)) for o in outs]
        msb = 1 << (size - 1)
        for j in range(count):
            bitsel = (bx[j] & ~bz[j]) | (by[j] & bz[j])
            for s, w in enumerate(WIDTHS):
                # scalar select tests c != 0, vector select the most significant bit (§6.12.6)
                pick = (bz[j] != 0) if w == 1 else bool(bz[j] & msb)
                sel = by[j] if pick else bx[j]
                # float/double scalar select with an integer selector compares that integer to 0
                for k, want in enumerate((bitsel, sel, sel)):
                    g = got[k][s * count + j]
                    name = "%s_%s%s" % (("bitselect", "select", "select_u")[k], CL[ty], w if w > 1 else "")
                    if g == want:
                        report.passed()
                    else:
                        report.check(name, False, "%s(0x%x, 0x%x, 0x%x) = 0x%x, expected 0x%x"
                                     % (name, bx[j], by[j], bz[j], g, want))


def run_anyall(runner, report, local, r):
    for ty in ("i8", "i16", "i32", "i64"):
        lo, hi = int_range(ty)
        count = local * 16
        vals = [r.choice([0, 1, -1, lo, hi, r.randint(lo, hi)]) if r.random() < 0.3 else r.choice([0, 5])
                for _ in range(count)]
        (out,) = runner.run("anyall_" + CL[ty], local, local, [("buf", pack(ty, vals)), ("zeros", 12 * local * 4)], [1])
        got = unpack("i32", out)
        for i in range(local):
            for s, w in enumerate(WIDTHS):
                elems = vals[i * 16:i * 16 + w]
                for k, f in enumerate((any, all)):
                    want = int(f(v < 0 for v in elems))
                    g = got[(2 * s + k) * local + i]
                    name = "%s_%s%s" % (f.__name__, CL[ty], w if w > 1 else "")
                    report.check(name, g == want, "%s(%r) = %d, expected %d" % (name, elems, g, want))
