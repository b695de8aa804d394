#!/usr/bin/env python3
"""Oracle for the buffer-format conformance tests: writes fmt_cases.h.

An independent statement of spec/rdna3.md §3 in Python (exact rational arithmetic; IEEE packing
by the struct module): for every one of the 63 buffer formats, the element bytes of a set of
edge patterns and what a format load returns (32-bit and D16), and for a set of edge register
values what a format store writes. Run: python3 gen_formats.py > fmt_cases.h
"""
import math
import struct
from fractions import Fraction

U, S, US, SS, UI, SI, F = "UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "FLOAT"
SIX = [U, S, US, SS, UI, SI]

# (number, name, numeric type, component widths X first = least significant)
FORMATS = []
def add(n, name, num, widths):
    FORMATS.append((n, name, num, widths))

n = 1
for t in SIX: add(n, "8_" + t, t, [8]); n += 1
for t in SIX: add(n, "16_" + t, t, [16]); n += 1
add(13, "16_FLOAT", F, [16]); n = 14
for t in SIX: add(n, "8_8_" + t, t, [8, 8]); n += 1
add(20, "32_UINT", UI, [32]); add(21, "32_SINT", SI, [32]); add(22, "32_FLOAT", F, [32])
n = 23
for t in SIX: add(n, "16_16_" + t, t, [16, 16]); n += 1
add(29, "16_16_FLOAT", F, [16, 16])
add(30, "10_11_11_FLOAT", F, [11, 11, 10])
add(31, "11_11_10_FLOAT", F, [10, 11, 11])
for i, t in enumerate([U, S, UI, SI]): add(32 + i, "10_10_10_2_" + t, t, [2, 10, 10, 10])
for i, t in enumerate(SIX): add(36 + i, "2_10_10_10_" + t, t, [10, 10, 10, 2])
for i, t in enumerate(SIX): add(42 + i, "8_8_8_8_" + t, t, [8, 8, 8, 8])
add(48, "32_32_UINT", UI, [32, 32]); add(49, "32_32_SINT", SI, [32, 32]); add(50, "32_32_FLOAT", F, [32, 32])
for i, t in enumerate(SIX): add(51 + i, "16_16_16_16_" + t, t, [16] * 4)
add(57, "16_16_16_16_FLOAT", F, [16] * 4)
add(58, "32_32_32_UINT", UI, [32] * 3); add(59, "32_32_32_SINT", SI, [32] * 3); add(60, "32_32_32_FLOAT", F, [32] * 3)
add(61, "32_32_32_32_UINT", UI, [32] * 4); add(62, "32_32_32_32_SINT", SI, [32] * 4); add(63, "32_32_32_32_FLOAT", F, [32] * 4)
assert len(FORMATS) == 63 and sorted(f[0] for f in FORMATS) == list(range(1, 64))

# ---- floats of any (exponent, mantissa) width, exact rounding ----

def enc_float(x, ebits, mbits, signed=True, rtz=False):
    """x: Fraction, or float('nan'/'inf'). Returns the bit pattern."""
    bias = (1 << (ebits - 1)) - 1
    emax = (1 << ebits) - 1
    sbit = 1 << (ebits + mbits) if signed else 0
    if isinstance(x, float) and math.isnan(x):
        return (emax << mbits) | (1 << (mbits - 1))
    neg = (x < 0) if not isinstance(x, float) else x < 0
    if isinstance(x, float) and math.isinf(x):
        if neg and not signed: return 0
        return (sbit if neg else 0) | (emax << mbits)
    x = Fraction(x)
    if neg:
        if not signed: return 0
        x = -x
    sign = sbit if neg else 0
    if x == 0: return sign
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** e > x: e -= 1
    if e < 1 - bias: e = 1 - bias          # subnormal range
    q = x / Fraction(2) ** (e - mbits)     # in units of the last mantissa bit
    fl = math.floor(q)
    if rtz:
        m = fl
    else:
        rem = q - fl
        m = fl + (1 if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1) else 0)
    if m >= (2 << mbits):
        m //= 2; e += 1
    if m < (1 << mbits):                  # subnormal (or rounded to min normal handled below)
        return sign | m
    be = e + bias
    if be >= emax:
        return sign | (((emax - 1) << mbits) | ((1 << mbits) - 1) if rtz else (emax << mbits))
    return sign | (be << mbits) | (m - (1 << mbits))

def dec_float(bits, ebits, mbits, signed=True):
    bias = (1 << (ebits - 1)) - 1
    emax = (1 << ebits) - 1
    m = bits & ((1 << mbits) - 1)
    e = (bits >> mbits) & emax
    neg = signed and (bits >> (ebits + mbits)) & 1
    if e == emax:
        return float("nan") if m else (float("-inf") if neg else float("inf"))
    v = Fraction(m, 1 << mbits) * Fraction(2) ** (1 - bias) if e == 0 else \
        (1 + Fraction(m, 1 << mbits)) * Fraction(2) ** (e - bias)
    return -v if neg else v

def f32_bits(v):
    """Exact value (Fraction / special float) -> f32 bits, round to nearest even."""
    if isinstance(v, float) and math.isnan(v): return 0x7fc00000
    return enc_float(v, 8, 23)

def f32_of_f16(h):
    """f16 -> f32 bits, keeping a NaN's sign and payload."""
    if (h >> 10) & 31 == 31 and h & 0x3ff:
        return ((h & 0x8000) << 16) | 0x7f800000 | ((h & 0x3ff) << 13)
    v = dec_float(h, 5, 10)
    if v == 0 and h & 0x8000: return 0x80000000
    return f32_bits(v)

def small_to_f32(raw, mbits):
    if (raw >> mbits) & 31 == 31 and raw & ((1 << mbits) - 1):
        return 0x7f800000 | ((raw & ((1 << mbits) - 1)) << (23 - mbits))
    return f32_bits(dec_float(raw, 5, mbits, signed=False))

def val_of_f32(u):
    if (u >> 23) & 255 == 255:
        return float("nan") if u & 0x7fffff else (float("-inf") if u >> 31 else float("inf"))
    v = dec_float(u, 8, 23)
    return v

def sext(raw, n):
    return raw - (1 << n) if raw >> (n - 1) & 1 else raw

# ---- the conversions as spec/rdna3.md §3 states them ----

def exact_value(num, n, raw):
    if num == U: return Fraction(raw, (1 << n) - 1)
    if num == S: return max(Fraction(sext(raw, n), (1 << (n - 1)) - 1), Fraction(-1))
    if num == US: return Fraction(raw)
    if num == SS: return Fraction(sext(raw, n))
    raise ValueError

def load32(num, n, raw):
    if num == UI: return raw
    if num == SI: return sext(raw, n) & 0xffffffff
    if num == F:
        if n == 32: return raw
        if n == 16: return f32_of_f16(raw)
        return small_to_f32(raw, n - 5)
    return f32_bits(exact_value(num, n, raw))

def load16(num, n, raw):
    if num == UI: return raw & 0xffff
    if num == SI: return sext(raw, n) & 0xffff
    if num == F:
        if n == 16: return raw
        if n == 32:
            v = val_of_f32(raw)
            if isinstance(v, float) and math.isnan(v): return 0x7e00
            if not isinstance(v, float) and v == 0: return (raw >> 16) & 0x8000
            return enc_float(v, 5, 10, rtz=True)
        v = dec_float(raw, 5, n - 5, signed=False)
        return 0x7e00 if isinstance(v, float) and math.isnan(v) else enc_float(v, 5, 10)
    return enc_float(exact_value(num, n, raw), 5, 10)

def clamp(x, lo, hi):
    if isinstance(x, float) and math.isnan(x): return Fraction(0)
    if isinstance(x, float): return Fraction(hi) if x > 0 else Fraction(lo)
    return min(max(x, Fraction(lo)), Fraction(hi))

def rne(x):
    fl = math.floor(x); r = x - fl
    return fl + (1 if r > Fraction(1, 2) or (r == Fraction(1, 2) and fl % 2) else 0)

def trunc(x):
    return math.floor(x) if x >= 0 else -math.floor(-x)

def store32(num, n, reg):
    mask = (1 << n) - 1
    if num in (UI, SI): return reg & mask
    v = val_of_f32(reg)
    if num == F:
        if n == 32: return reg
        if n == 16:
            if isinstance(v, float) and math.isnan(v): return 0x7e00
            if v == 0 and reg >> 31: return 0x8000
            return enc_float(v, 5, 10, rtz=True)
        if isinstance(v, float) and math.isnan(v): return enc_float(v, 5, n - 5, signed=False)
        return enc_float(v, 5, n - 5, signed=False, rtz=True)
    umax, smax = (1 << n) - 1, (1 << (n - 1)) - 1
    if num == U: return rne(clamp(v, 0, 1) * umax) & mask
    if num == S: return rne(clamp(v, -1, 1) * smax) & mask
    if num == US: return trunc(clamp(v, 0, umax)) & mask
    return trunc(clamp(v, -smax - 1, smax)) & mask

def store16(num, n, h):
    if num == UI: return h & ((1 << n) - 1)
    if num == SI: return sext(h, 16) & ((1 << n) - 1)
    return store32(num, n, f32_of_f16(h))

# ---- element packing ----

def pack(widths, comps):
    v, pos = 0, 0
    for w, c in zip(widths, comps):
        v |= (c & ((1 << w) - 1)) << pos
        pos += w
    nbytes = pos // 8
    words = [(v >> (32 * i)) & 0xffffffff for i in range(4)]
    return words, nbytes

def patterns(num, w):
    top = 1 << (w - 1)
    p = [0, (1 << w) - 1, top, top - 1, 1]
    if num == F and w == 16: p += [0x3c00, 0x7c00, 0x7bff, 0x0200]
    if num == F and w == 32: p += [0x3f800000, 0x7f800000, 0x00000001]
    if num == F and w in (10, 11): p += [15 << (w - 5), 31 << (w - 5), 1 << (w - 6)]
    return p

FLOAT_IN = [0x00000000, 0x3f800000, 0xbf800000, 0x3f000000, 0x40000000, 0xff800000, 0x7f800000,
            0x7fc00000, 0x00000001, 0x501502f9, 0x3eaaaaab, 0x80000000, 0x477fe000, 0x477ff000]
INT_IN = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x12345678, 0x00000080, 0x00008000]
F16_IN = [0x0000, 0x3c00, 0xbc00, 0x3800, 0x4000, 0xfc00, 0x7c00, 0x7e00, 0x0001, 0x3555, 0x8000]
I16_IN = [0x0000, 0x0001, 0xffff, 0x8000, 0x7fff, 0x1234, 0x0080]

def out(*a): print(*a)

out("/* GENERATED by gen_formats.py (the Python oracle of spec/rdna3.md §3); do not edit. */")
out("typedef struct fmt_load_row { uint8_t fmt, bytes; uint32_t elem[4], want[4]; uint16_t want16[4]; } fmt_load_row;")
out("typedef struct fmt_store_row { uint8_t fmt, bytes, d16; uint32_t reg[4]; uint32_t elem[4]; } fmt_store_row;")
out("static const fmt_load_row fmt_load_rows[] = {")
for (fnum, name, num, widths) in FORMATS:
    for i in range(len(patterns(num, widths[0]))):
        # pattern i at each component's own width (packed formats mix 10/11 or 10/2 bits)
        comps = [patterns(num, w)[i] for w in widths]
        words, nbytes = pack(widths, comps)
        want = [load32(num, w, c) for w, c in zip(widths, comps)] + [0] * (4 - len(widths))
        want16 = [load16(num, w, c) for w, c in zip(widths, comps)] + [0] * (4 - len(widths))
        out("    { %d, %d, { 0x%x, 0x%x, 0x%x, 0x%x }, { 0x%x, 0x%x, 0x%x, 0x%x }, { 0x%x, 0x%x, 0x%x, 0x%x } }, /* %s */"
            % ((fnum, nbytes) + tuple(words) + tuple(want) + tuple(want16) + (name,)))
out("};")
out("static const fmt_store_row fmt_store_rows[] = {")
for (fnum, name, num, widths) in FORMATS:
    ins = INT_IN if num in (UI, SI) else FLOAT_IN
    for r in ins:
        comps = [store32(num, w, r) for w in widths]
        words, nbytes = pack(widths, comps)
        out("    { %d, %d, 0, { 0x%x, 0x%x, 0x%x, 0x%x }, { 0x%x, 0x%x, 0x%x, 0x%x } }, /* %s */"
            % ((fnum, nbytes, r, r, r, r) + tuple(words) + (name,)))
    ins16 = I16_IN if num in (UI, SI) else F16_IN
    for h in ins16:
        comps = [store16(num, w, h) for w in widths]
        words, nbytes = pack(widths, comps)
        out("    { %d, %d, 1, { 0x%x, 0x%x, 0x%x, 0x%x }, { 0x%x, 0x%x, 0x%x, 0x%x } }, /* %s d16 */"
            % ((fnum, nbytes, h, h, h, h) + tuple(words) + (name,)))
out("};")
