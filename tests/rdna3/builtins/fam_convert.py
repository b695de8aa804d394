"""Explicit conversions (§6.2.3) between the ten scalar types with _sat and the four rounding modes,
checked exactly against Python's rational arithmetic (fractions.Fraction)."""

import functools
import math
from fractions import Fraction

from bt_core import F32, F64, INT_TYPES, TYPES, int_range, pack, rng, same_value, to_f32, unpack

SOURCES = ["i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64", "f32", "f64"]
WIDTH_OF_SOURCE = [1, 2, 3, 4, 8, 16, 3, 2, 1, 1, 4, 16]
INT_MODES = ["", "_sat", "_rte", "_rtz", "_rtp", "_rtn", "_sat_rte", "_sat_rtz", "_sat_rtp", "_sat_rtn"]
FLOAT_MODES = ["", "_rte", "_rtz", "_rtp", "_rtn"]
CL = {"i8": "char", "u8": "uchar", "i16": "short", "u16": "ushort", "i32": "int", "u32": "uint",
      "i64": "long", "u64": "ulong", "f32": "float", "f64": "double"}


@functools.lru_cache(maxsize=None)
def round_float_to_int(x, mode):
    """A finite float rounded to an integer (rte, rtz, rtp or rtn); shared by all destinations."""
    return round_int(Fraction(x), mode)


@functools.lru_cache(maxsize=None)
def round_cached(x, fmt_name, mode):
    return round_to_format(x, {"f32": F32, "f64": F64}[fmt_name], mode)


def round_int(v, mode):
    """A rational rounded to an integer: rte, rtz, rtp or rtn."""
    if mode == "rte":
        return round(v)  # Fraction rounds half to even
    if mode == "rtz":
        return math.trunc(v)
    return math.ceil(v) if mode == "rtp" else math.floor(v)


def round_to_format(x, fmt, mode):
    """The exact value x (int, or a float whose sign of zero counts) in the binary format fmt with
    rounding mode (rte, rtz, rtp, rtn), with denormals and the mode's overflow rule."""
    if isinstance(x, float):
        if math.isnan(x) or math.isinf(x):
            return x
        negative = math.copysign(1.0, x) < 0
    else:
        negative = x < 0
    m = abs(Fraction(x))
    if m == 0:
        return -0.0 if negative else 0.0
    e = m.numerator.bit_length() - m.denominator.bit_length()
    if Fraction(2) ** e > m:
        e -= 1
    q = Fraction(2) ** (max(e, fmt.emin) - fmt.p + 1)
    t = m / q
    away = mode == "rtp" and not negative or mode == "rtn" and negative
    if mode == "rte":
        k = round(t)
    elif mode == "rtz" or not away:
        k = math.floor(t)
    else:
        k = math.ceil(t)
    r = k * q
    if r > Fraction(fmt.max):
        toward_zero = mode == "rtz" or (mode == "rtp" and negative) or (mode == "rtn" and not negative)
        v = fmt.max if toward_zero else math.inf
    else:
        v = float(r)  # exact: r has at most fmt.p significant bits
    return -v if negative else v


def reference(src, dst, mode, x):
    """The converted value, or None where OpenCL leaves it undefined (out-of-range or NaN
    floating-point source without _sat)."""
    sat = "_sat" in mode
    rnd = mode.split("_")[-1] if mode and mode.split("_")[-1] in ("rte", "rtz", "rtp", "rtn") else None
    if dst in ("f32", "f64"):
        if isinstance(x, float) and (math.isnan(x) or x == 0):
            return round_to_format(x, F32 if dst == "f32" else F64, rnd or "rte")  # NaN, signed zero
        return round_cached(x, dst, rnd or "rte")
    lo, hi = int_range(dst)
    if src in ("f32", "f64"):
        if math.isnan(x):
            return 0 if sat else None
        if math.isinf(x):
            return (hi if x > 0 else lo) if sat else None
        v = round_float_to_int(x, rnd or "rtz")
        if sat:
            return max(lo, min(hi, v))
        return v if lo <= v <= hi else None
    if sat:
        return max(lo, min(hi, x))
    bits = TYPES[dst][1] * 8
    v = x & ((1 << bits) - 1)
    return v - (1 << bits) if lo < 0 and v >> (bits - 1) else v


def source_values(ty, count, seed):
    r = rng(seed)
    if ty in INT_TYPES:
        lo, hi = int_range(ty)
        edges = [0, 1, -1, 2, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535,
                 65536, (1 << 31) - 1, 1 << 31, -(1 << 31), -(1 << 31) - 1, (1 << 32) - 1, 1 << 32,
                 (1 << 24) + 1, (1 << 53) + 1, (1 << 63) - 1, 1 << 63, -(1 << 63), (1 << 64) - 1,
                 16777217, -16777217, (1 << 62) + (1 << 38) + 1, lo, hi]
        vals = [v for v in edges if lo <= v <= hi]
        bits = TYPES[ty][1] * 8
        while len(vals) < count:
            v = r.getrandbits(bits) >> r.randint(0, bits - 1)
            vals.append(v - (1 << bits) if lo < 0 and v >> (bits - 1) else v)
        return vals
    fmt = F32 if ty == "f32" else F64
    rnd = to_f32 if ty == "f32" else (lambda v: v)
    edges = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, -0.49999997, 127.5, 128.5,
             -128.5, -129.5, 255.5, 256.0, 32767.5, -32768.5, 65535.5, 2147483520.0, 2147483648.0,
             -2147483648.0, -2147483904.0, 4294967040.0, 4294967296.0, 9.2233720368547758e18,
             -9.2233720368547758e18, 1.8446744073709552e19, 1e30, -1e30, math.inf, -math.inf,
             math.nan, fmt.min_denormal, -fmt.min_denormal, fmt.min_normal, fmt.max, -fmt.max,
             16777217.0, 3.4028235677973366e38, 1e-300, -1e-300, 1e300, 1.0000000000000002,
             1.00000011920928955]
    vals = [rnd(v) for v in edges]
    while len(vals) < count:
        kind = r.random()
        if kind < 0.3:
            v = r.randint(-300, 300) + r.choice([0.0, 0.5, 0.25, 0.75, 0.4999, 0.5001])
        elif kind < 0.6:
            v = r.choice([-1.0, 1.0]) * 2.0 ** r.uniform(-10, 70)
        else:
            v = r.choice([-1.0, 1.0]) * 2.0 ** r.uniform(fmt.emin - 20, fmt.emax)
        vals.append(rnd(v))
    return vals


SAT_NAN_NOTE = ("convert_<signed>_sat(NaN) is the type's minimum, not 0 (§6.2.3.3): the library "
                "clamps with fmax/fmin (v_med3_f32, which gives min(lo, hi) for a NaN input, as on "
                "hardware) and never tests for NaN; unsigned destinations clamp to 0 and are right")


def run(runner, family, report):
    runner.compile("convert.cl")
    local = 64
    count = local * 48
    srcs = [source_values(ty, count, 300 + i) for i, ty in enumerate(SOURCES[:10])]
    srcs += [srcs[8], srcs[9]]
    args = [("buf", pack(ty, vals)) for ty, vals in zip(SOURCES[:10], srcs[:10])]
    for dst in INT_TYPES + ["f32", "f64"]:
        modes = FLOAT_MODES if dst in ("f32", "f64") else INT_MODES
        size = len(SOURCES) * len(modes) * count * TYPES[dst][1]
        (out,) = runner.run("conv_" + CL[dst], local, local, args + [("zeros", size)], [10])
        got = unpack(dst, out)
        for si, src in enumerate(SOURCES):
            for mi, mode in enumerate(modes):
                base = (si * len(modes) + mi) * count
                name = "convert_%s%s%s_from_%s" % (CL[dst], WIDTH_OF_SOURCE[si] if WIDTH_OF_SOURCE[si] > 1 else "",
                                                   mode, CL[src])
                slot = got[base:base + count]
                want = [reference(src, dst, mode, x) for x in srcs[si]]
                if dst in ("f32", "f64"):
                    # compared as bits (NaN: any NaN) unless the whole slot matches as values
                    if all(w is not None and not math.isnan(w) for w in want) and slot == want and \
                            all(math.copysign(1, g) == math.copysign(1, w) for g, w in zip(slot, want)):
                        report.checks += count
                        continue
                elif slot == [w if w is not None else g for g, w in zip(slot, want)]:
                    report.checks += count
                    continue
                for j in range(count):
                    x, g, w = srcs[si][j], slot[j], want[j]
                    if w is None:
                        continue
                    ok = same_value(g, w) if dst in ("f32", "f64") else g == w
                    if ok:
                        report.passed()
                    elif "_sat" in mode and src in ("f32", "f64") and math.isnan(x) and g == int_range(dst)[0]:
                        report.known("convert_sat_nan", SAT_NAN_NOTE, "%s(nan) = %d" % (name, g))
                    else:
                        report.check(name, False, "%s(%r) = %r, expected %r" % (name, x, g, w))
