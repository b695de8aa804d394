"""Integer functions (§6.12.3) for the eight integer types, all widths: exact Python references."""

from bt_core import INT_TYPES, TYPES, int_range, pack, rng, unpack

WIDTHS = [1, 2, 3, 4, 8, 16]
NAMES = ["abs", "abs_diff", "add_sat", "hadd", "rhadd", "clamp", "clz", "mad_hi", "mad_sat", "max",
         "min", "mul_hi", "rotate", "sub_sat", "popcount", "upsample", "mad24", "mul24"]


def wrap(v, bits, signed):
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >> (bits - 1) else v


def references(ty, x, y, z):
    """The value of every function for one element (None where the type lacks it)."""
    bits = TYPES[ty][1] * 8
    signed = not ty.startswith("u")
    lo, hi = int_range(ty)
    sat = lambda v: max(lo, min(hi, v))  # noqa: E731
    ux = x & ((1 << bits) - 1)
    mlo, mhi = min(y, z), max(y, z)
    r = [abs(x), abs(x - y), sat(x + y), (x + y) >> 1, (x + y + 1) >> 1, min(max(x, mlo), mhi),
         bits - ux.bit_length(), wrap(((x * y) >> bits) + z, bits, signed), sat(x * y + z),
         max(x, y), min(x, y), (x * y) >> bits,
         wrap((ux << (y % bits)) | (ux >> (bits - y % bits)), bits, signed) if y % bits else x,
         sat(x - y), bin(ux).count("1")]
    if bits < 64:
        r.append(wrap((x << bits) | (y & ((1 << bits) - 1)), 2 * bits, signed))
    else:
        r.append(None)
    if bits == 32:
        x24, y24 = (wrap(x, 24, True), wrap(y, 24, True)) if signed else (x & 0xffffff, y & 0xffffff)
        r += [wrap(x24 * y24 + z, 32, signed), wrap(x24 * y24, 32, signed)]
    else:
        r += [None, None]
    return r


def inputs(ty, count, seed):
    r = rng(seed)
    lo, hi = int_range(ty)
    bits = TYPES[ty][1] * 8
    edges = sorted({lo, lo + 1, -1 if lo < 0 else 1, 0, 1, 2, hi - 1, hi, hi // 2, lo // 2, 3, -3 if lo < 0 else 5})
    cols = []
    for k in range(3):
        col = []
        for i in range(count):
            if i < len(edges) ** 2:
                col.append(edges[i // len(edges)] if k == 0 else edges[(i + 5 * k * (i // len(edges))) % len(edges)])
            elif r.random() < 0.25:
                col.append(r.randint(-50 if lo < 0 else 0, 50))
            else:
                col.append(wrap(r.getrandbits(bits), bits, lo < 0))
        cols.append(col)
    # the case of issue 9 where the types have it: mad24(-3, 5, 1) = -14
    if lo < 0:
        cols[0][-1], cols[1][-1], cols[2][-1] = -3, 5, 1
    return cols


def run(runner, family, report):
    runner.compile("integer.cl")
    local = 64
    count = local * 48
    for t_index, ty in enumerate(INT_TYPES):
        a, b, c = inputs(ty, count, 77 + t_index)
        args = [("buf", pack(ty, a)), ("buf", pack(ty, b)), ("buf", pack(ty, c)),
                ("zeros", len(NAMES) * 6 * count * 8)]
        (out,) = runner.run("int_" + CL_NAME[ty], local, local, args, [3])
        got = unpack("u64", out)
        refs = [references(ty, a[j], b[j], c[j]) for j in range(count)]
        for f, name in enumerate(NAMES):
            if refs[0][f] is None:
                continue
            want = [ref[f] & 0xffffffffffffffff for ref in refs]
            for s, w in enumerate(WIDTHS):
                slot = got[(f * 6 + s) * count:(f * 6 + s + 1) * count]
                if slot == want:  # the whole slot at once; element by element only on a mismatch
                    report.checks += count
                    continue
                for j in range(count):
                    g = slot[j]
                    if g == want[j]:
                        report.passed()
                    elif name == "abs_diff" and ty in ("i32", "i64") and g == wrapped_abs_diff(ty, a[j], b[j]):
                        report.known("abs_diff", ABS_DIFF_NOTE, "abs_diff_%s(%d, %d) = %d, expected %d"
                                     % (CL_NAME[ty], a[j], b[j], g, want[j]))
                    else:
                        report.check("%s_%s%s" % (name, CL_NAME[ty], "" if w == 1 else w), False,
                                     "%s(%d, %d, %d) = %d, expected %d" % (name, a[j], b[j], c[j], g, want[j]))
    (out,) = runner.run("mad24_case", 1, 1, [("zeros", 40)], [0])
    got = unpack("i32", out)
    want = [-14, -14, -14, 16, -16777216, -15, -15, -15, 15, 25165821]
    for i, (g, w) in enumerate(zip(got, want)):
        report.check("mad24_case", g == w, "element %d: %d, expected %d" % (i, g, w))


ABS_DIFF_NOTE = ("abs_diff(x, y) of int/long at -O3 is |x - y| computed in the signed type, wrong "
                 "when x - y overflows (e.g. abs_diff(INT_MIN, 1) = INT_MAX): the library's signed "
                 "subtraction lets LLVM fold it to v_sub + v_max_i32 (at -O0 the result is right)")


def wrapped_abs_diff(ty, x, y):
    bits = TYPES[ty][1] * 8
    return abs(wrap(x - y, bits, True)) & ((1 << 64) - 1)


CL_NAME = {"i8": "char", "u8": "uchar", "i16": "short", "u16": "ushort", "i32": "int",
           "u32": "uint", "i64": "long", "u64": "ulong"}
