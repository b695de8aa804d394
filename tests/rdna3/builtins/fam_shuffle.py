"""shuffle and shuffle2 (§6.12.12) for all element types and width pairs: exact references."""

from bt_core import INT_TYPES, TYPES, pack, rng, unpack

CL = {"i8": "char", "u8": "uchar", "i16": "short", "u16": "ushort", "i32": "int", "u32": "uint",
      "i64": "long", "u64": "ulong", "f32": "float", "f64": "double"}
MASK = {1: "u8", 2: "u16", 4: "u32", 8: "u64"}
RAW = {1: "u8", 2: "u16", 4: "u32", 8: "u64"}
W = [2, 4, 8, 16]


def run(runner, family, report):
    runner.compile("shuffle.cl")
    r = rng(31)
    n = 64
    for ty in INT_TYPES + ["f32", "f64"]:
        size = TYPES[ty][1]
        raw = RAW[size]  # element bits: compared as raw patterns
        a = [r.getrandbits(8 * size) for _ in range(16 * n)]
        b = [r.getrandbits(8 * size) for _ in range(16 * n)]
        mask = [r.getrandbits(8 * size) for _ in range(16 * n)]
        o1, o2 = runner.run("shuffle_" + CL[ty], n, n, [("buf", pack(raw, a)), ("buf", pack(raw, b)),
                                                        ("buf", pack(MASK[size], mask)),
                                                        ("zeros", 16 * 16 * n * size), ("zeros", 16 * 16 * n * size)], [3, 4])
        g1, g2 = unpack(raw, o1), unpack(raw, o2)
        for mi, m in enumerate(W):
            for ni, nn in enumerate(W):
                slot = mi * 4 + ni
                bad1 = bad2 = 0
                for i in range(n):
                    x, y = a[i * m:(i + 1) * m], b[i * m:(i + 1) * m]
                    for k in range(nn):
                        sel = mask[i * nn + k]
                        want1 = x[sel % m]
                        want2 = (x + y)[sel % (2 * m)]
                        bad1 += g1[slot * 16 * n + i * nn + k] != want1
                        bad2 += g2[slot * 16 * n + i * nn + k] != want2
                report.check("shuffle_%s%d_to_%d" % (CL[ty], m, nn), bad1 == 0, "%d wrong elements" % bad1)
                report.check("shuffle2_%s%d_to_%d" % (CL[ty], m, nn), bad2 == 0, "%d wrong elements" % bad2)
