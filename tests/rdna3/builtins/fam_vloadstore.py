"""Vector data load and store (§6.12.7): vloadN/vstoreN of all types from global, local and private
memory, and the half forms with their rounding modes, checked exactly (fractions for rounding)."""

import math
import struct

from bt_core import F16, F32, F64, INT_TYPES, TYPES, int_range, pack, rng, to_f32, unpack
from fam_convert import round_to_format

CL = {"i8": "char", "u8": "uchar", "i16": "short", "u16": "ushort", "i32": "int", "u32": "uint",
      "i64": "long", "u64": "ulong", "f32": "float", "f64": "double"}
VWIDTHS = [2, 3, 4, 8, 16]
WIDTHS = [1, 2, 3, 4, 8, 16]
MODES = ["", "_rte", "_rtz", "_rtp", "_rtn"]


def half_bits(x, mode):
    """x (a float of the source precision) rounded to half with the mode, as bits."""
    if math.isnan(x):
        return None  # any NaN
    v = round_to_format(x, F16, mode)
    return struct.unpack("<H", struct.pack("<e", v))[0]


def is_half_nan(b):
    return (b & 0x7c00) == 0x7c00 and (b & 0x3ff) != 0


ALIGNED3_NOTE = ("vloada_half3 / vstorea_half3 use a stride of 3 halves, not 4 (§6.12.7: "
                 "(p + offset * 4)); the library treats them as vload_half3 / vstore_half3")


def same_half_value(g, src):
    want = struct.unpack("<e", struct.pack("<H", src))[0]
    if math.isnan(want):
        return math.isnan(g)
    return g == want and math.copysign(1, g) == math.copysign(1, want)


def run(runner, family, report):
    runner.compile("vloadstore.cl")
    r = rng(21)
    glob, local = 128, 64
    n = glob
    for ty in INT_TYPES + ["f32", "f64"]:
        size = TYPES[ty][1]
        if ty in INT_TYPES:
            lo, hi = int_range(ty)
            vals = [r.randint(lo, hi) for _ in range(16 * n + 1)]
            raw = None
        else:
            vals = [r.uniform(-1e6, 1e6) for _ in range(16 * n + 1)]
            if ty == "f32":
                vals = [to_f32(v) for v in vals]
            raw = "u32" if ty == "f32" else "u64"
        data = pack(ty, vals)
        (out,) = runner.run("vls_" + CL[ty], glob, local, [("buf", data), ("zeros", (15 * 16 * n + 1) * size)], [1])
        got = unpack(raw or ty, out)
        want = unpack(raw or ty, data)
        for s, w in enumerate(VWIDTHS):
            for where, base in (("global", s), ("private", 5 + s), ("local", 10 + s)):
                seg = got[base * 16 * n + 1:base * 16 * n + 1 + n * w]
                bad = [k for k in range(n * w) if seg[k] != want[1 + k]]
                name = "vload%d_vstore%d_%s_%s" % (w, w, CL[ty], where)
                report.check(name, not bad, "element %s: %r, expected %r" % (
                    bad[:1], [seg[k] for k in bad[:1]], [want[1 + k] for k in bad[:1]]))
    run_half(runner, report, r)


def run_half(runner, report, r):
    n = 64
    # every kind of half: zeros, denormals, normals, infinities, NaNs
    hbits = [0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x7c00,
             0xfc00, 0x7e00, 0x7c01, 0xfe01, 0x3555]
    hbits += [r.getrandbits(16) for _ in range(16 * n - len(hbits))]
    f_out, fa_out = runner.run("half_load", n, n, [("buf", pack("u16", hbits)), ("zeros", 6 * 16 * n * 4),
                                                   ("zeros", 6 * 16 * n * 4)], [1, 2])
    got, gota = unpack("f32", f_out), unpack("f32", fa_out)
    for s, w in enumerate(WIDTHS):
        stride = 4 if w == 3 else w  # vloada_half3 reads 4-aligned groups of halves
        for i in range(n):
            for k in range(w):
                for name, g, src in (("vload_half", got[s * 16 * n + i * w + k], hbits[i * w + k]),
                                     ("vloada_half", gota[s * 16 * n + i * w + k], hbits[i * stride + k])):
                    ok = same_half_value(g, src)
                    label = "%s%s" % (name, w if w > 1 else "")
                    if not ok and name == "vloada_half" and w == 3 and same_half_value(g, hbits[i * 3 + k]):
                        report.known("vloada_half3", ALIGNED3_NOTE, "vloada_half3(%d) element %d" % (i, k))
                        continue
                    report.check(label, ok, "%s of 0x%04x = %r" % (label, src, g))
    for ty, fmt in (("f32", F32), ("f64", F64)):
        rnd = to_f32 if ty == "f32" else (lambda v: v)
        src = [0.0, -0.0, 1.0, -1.0, 65504.0, 65519.99, 65520.0, -65520.0, 1e6, -1e6, math.inf, -math.inf,
               math.nan, 2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -26, -(2.0 ** -25), 2.0 ** -14, 1e-10, -1e-10,
               1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11, 1.0 + 2.0 ** -11 + 2.0 ** -30, fmt.min_denormal]
        while len(src) < 16 * n:
            h = struct.unpack("<e", struct.pack("<H", r.getrandbits(15)))[0]
            if math.isfinite(h):  # a half plus a fraction of its ulp: ties, near ties, anything
                src.append(rnd(h * (1 + r.choice([0.0, 2.0 ** -11, -(2.0 ** -11), r.uniform(-1e-3, 1e-3)]))))
            else:
                src.append(rnd(r.uniform(-70000, 70000)))
        src = [rnd(v) for v in src]
        h_out, ha_out = runner.run("half_store_" + ty, n, n, [("buf", pack(ty, src)), ("zeros", 30 * 16 * n * 2),
                                                             ("zeros", 30 * 16 * n * 2)], [1, 2])
        got, gota = unpack("u16", h_out), unpack("u16", ha_out)
        for s, w in enumerate(WIDTHS):
            stride = 4 if w == 3 else w
            for m, mode in enumerate(MODES):
                base = (s * 5 + m) * 16 * n
                for i in range(n):
                    for k in range(w):
                        x = src[i * w + k]
                        want = half_bits(x, mode[1:] or "rte")
                        for name, g in (("vstore_half", got[base + i * w + k]), ("vstorea_half", gota[base + i * stride + k])):
                            ok = is_half_nan(g) if want is None else g == want
                            if not ok and name == "vstorea_half" and w == 3:
                                g3 = gota[base + i * 3 + k]
                                if is_half_nan(g3) if want is None else g3 == want:
                                    report.known("vstorea_half3", ALIGNED3_NOTE, "vstorea_half3(%r)" % x)
                                    continue
                            label = "%s%s%s_%s" % (name, w if w > 1 else "", mode, "float" if ty == "f32" else "double")
                            if ok:
                                report.passed()
                            else:
                                report.check(label, False, "%s(%r) = 0x%04x, expected %s" % (label, x, g, "NaN" if want is None else "0x%04x" % want))
