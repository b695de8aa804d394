"""Work-item functions (§6.12.1), barriers (§6.12.8), explicit memory fences (§6.12.9), async
copies and prefetch (§6.12.10) and atomics (§6.12.11): exact references computed in Python."""

from collections import Counter

from bt_core import TYPES, pack, rng, unpack

NV = 28


def wrap(v, ty):
    bits = TYPES[ty][1] * 8
    v &= (1 << bits) - 1
    return v - (1 << bits) if not ty.startswith("u") and v >> (bits - 1) else v


# ---------------------------------------------------------------------------------------------
def run_workitem(runner, family, report):
    runner.compile("workitem.cl")
    for gsize, lsize, offset in (((96,), (32,), (5,)), ((16, 6), (8, 3), (3, 4)),
                                 ((8, 4, 6), (4, 2, 3), (1, 2, 3)), ((64,), (64,), (0,))):
        dim = len(gsize)
        G = list(gsize) + [1] * (3 - dim)
        Lz = list(lsize) + [1] * (3 - dim)
        O = list(offset) + [0] * (3 - dim)
        total = G[0] * G[1] * G[2]
        (out,) = runner.run("workitem", list(gsize), list(lsize), [("zeros", total * NV * 4)], [0],
                            offset=list(offset))
        got = unpack("u32", out)
        bad = []
        for z in range(G[2]):
            for y in range(G[1]):
                for x in range(G[0]):
                    idx = (z * G[1] + y) * G[0] + x
                    ids = [x, y, z]
                    want = [dim] + G + [ids[d] + O[d] for d in range(3)] + Lz + [ids[d] % Lz[d] for d in range(3)] \
                        + [G[d] // Lz[d] for d in range(3)] + [ids[d] // Lz[d] for d in range(3)] + O \
                        + [1, 0, 1, 0, 1, 0]
                    rec = got[idx * NV:(idx + 1) * NV]
                    if rec != want:
                        bad.append((ids, rec, want))
        report.check("workitem_%dd" % dim, not bad, "work-item %s: %s, expected %s" % bad[0] if bad else "")


# ---------------------------------------------------------------------------------------------
def run_sync(runner, family, report):
    runner.compile("sync.cl")
    r = rng(41)
    L, groups = 64, 3
    n = L * groups
    vals = [r.getrandbits(32) for _ in range(n)]
    (out,) = runner.run("barrier_local", n, L, [("buf", pack("u32", vals)), ("zeros", 4 * n), ("local", 4 * L)], [1])
    want = []
    for g in range(groups):
        v = vals[g * L:(g + 1) * L]
        for rnd in range(4):
            v = [(v[(l + 1 + rnd) % L] * 3 + rnd) & 0xffffffff for l in range(L)]
        want += v
    report.check("barrier_local", unpack("u32", out) == want, "results differ from the exchange rounds")
    (out,) = runner.run("barrier_global", n, L, [("buf", pack("u32", vals)), ("zeros", 4 * n), ("zeros", 4 * n)], [1])
    want = []
    for g in range(groups):
        v = vals[g * L:(g + 1) * L]
        for rnd in range(4):
            v = [v[(l + 5 + rnd) % L] ^ ((rnd * 0x9e3779b9) & 0xffffffff) for l in range(L)]
        want += v
    report.check("barrier_global", unpack("u32", out) == want, "results differ from the exchange rounds")


def run_fences(runner, family, report):
    runner.compile("sync.cl")
    L, groups = 64, 3
    n = L * groups
    (out,) = runner.run("fences", n, L, [("zeros", 4 * n), ("zeros", 4 * n), ("zeros", 4 * n), ("local", 4 * L)], [2])
    got = unpack("u32", out)
    want = []
    for g in range(n):
        p = (g // L) * L + (g % L + 1) % L
        want.append((p * 12 + 1) & 0xffffffff)
    bad = [i for i in range(n) if got[i] != want[i]]
    report.check("fences", not bad, "item %s: %s, expected %s" % (bad[:1], [got[i] for i in bad[:1]], [want[i] for i in bad[:1]]))


# ---------------------------------------------------------------------------------------------
ASYNC_TYPES = [("char", "i8", 1, lambda x: wrap(x * 3 + 1, "i8")), ("int", "i32", 1, lambda x: wrap(x * 3 + 1, "i32")),
               ("long", "i64", 1, lambda x: wrap(x * 3 + 1, "i64")), ("float", "f32", 1, lambda x: x * 0.5 + 1.0),
               ("double", "f64", 1, lambda x: x * 0.25 - 2.0)]


def run_async(runner, family, report):
    runner.compile("async.cl")
    r = rng(51)
    L, groups, K = 64, 2, 3
    count = L * K
    total = count * groups
    f4_off = [1, 2, 3, 4]
    s8_off = [1, -1, 2, -2, 3, -3, 4, -4]
    cases = ASYNC_TYPES + [("float4_t", "f32", 4, None), ("short8_t", "i16", 8, None)]
    for name, ty, vec, op in cases:
        elems = (total + count) * vec  # one block more: prefetch's range of the last group
        if ty.startswith("f"):
            src = [float(r.randint(-1000, 1000)) for _ in range(elems)]
        else:
            src = [wrap(r.getrandbits(TYPES[ty][1] * 8), ty) for _ in range(elems)]
        if name == "float4_t":
            op = None
            def op_vec(xs):
                return [x * 2.0 - f4_off[k] for k, x in enumerate(xs)]
        elif name == "short8_t":
            def op_vec(xs):
                return [wrap(x + s8_off[k], "i16") for k, x in enumerate(xs)]
        else:
            def op_vec(xs, op=op):
                return [op(x) for x in xs]
        size = TYPES[ty][1] * vec
        dst, sdst = runner.run("async_" + name, L * groups, L,
                               [("buf", pack(ty, src)), ("zeros", total * size), ("zeros", total * size),
                                ("local", count * size), ("local", count // 2 * size)], [1, 2])
        got, sgot = unpack(ty, dst), unpack(ty, sdst)
        want = []
        swant = [0] * (total * vec)
        for i in range(total):
            want += op_vec(src[i * vec:(i + 1) * vec])
        for g in range(groups):
            base = g * count
            for k in range(count // 2):
                e = base + 2 * k
                swant[(base + 2 * k) * vec:(base + 2 * k + 1) * vec] = op_vec(op_vec(src[e * vec:(e + 1) * vec]))
        report.check("async_work_group_copy_" + name, got == want, "copied-and-transformed block differs")
        report.check("async_work_group_strided_copy_" + name, sgot == swant, "gathered/scattered block differs")


# ---------------------------------------------------------------------------------------------
def atomic_values(ty, g):
    bits = TYPES[ty][1] * 8
    return {
        4: wrap(wrap((g * 2654435761) % 100003, ty) - 50000, ty),
        5: wrap(wrap((g * 40503) % 99991, ty) - 50000, ty),
        6: wrap(~(1 << (g % bits)), ty),
        7: wrap(1 << ((g * 7) % bits), ty),
        8: wrap(g * 0x9e3779b9, ty),
        9: wrap(g + 1000, ty),
    }


def check_atomic_group(report, label, ty, init, final, olds, items):
    """One set of counters (global, or one workgroup's local ones) updated by items."""
    cnt = len(items)
    vals = {g: atomic_values(ty, g) for g in items}
    checks = []
    for slot, step in ((0, 1), (1, -1), (2, 1), (3, -1), (10, 1)):
        expect_old = sorted(wrap(init[slot] + step * k, ty) for k in range(cnt))
        checks.append((slot, final[slot] == wrap(init[slot] + step * cnt, ty) and sorted(olds[slot]) == expect_old))
    fold = {4: min, 5: max}
    for slot in (4, 5):
        checks.append((slot, final[slot] == fold[slot]([init[slot]] + [vals[g][slot] for g in items])))
    acc = [init[6], init[7], init[8]]
    for g in items:
        acc[0] &= vals[g][6]
        acc[1] |= vals[g][7]
        acc[2] ^= vals[g][8]
    for slot, v in zip((6, 7, 8), acc):
        checks.append((slot, final[slot] == wrap(v, ty)))
    checks.append((9, Counter(olds[9] + [final[9]]) == Counter([init[9]] + [vals[g][9] for g in items])))
    names = ["add", "sub", "inc", "dec", "min", "max", "and", "or", "xor", "xchg", "cmpxchg"]
    for slot, ok in checks:
        report.check("%s_%s" % (label, names[slot]), ok, "final %r from %r" % (final[slot], init[slot]))


def run_atomics(runner, family, report):
    runner.compile("atomics.cl")
    L, groups = 64, 4
    n = L * groups
    for kernel, ty in (("atomic_int", "i32"), ("atomic_uint", "u32"), ("atom_int", "i32"), ("atom_uint", "u32"),
                       ("atom_long", "i64"), ("atom_ulong", "u64")):
        size = TYPES[ty][1]
        init = [wrap(v, ty) for v in (100, 1000000, 5, 100000, 40000, -40000, -1, 0, 0x1234, 7, 0)]
        c, old, lc, lold = runner.run(kernel, n, L, [("buf", pack(ty, init + init)), ("zeros", 11 * n * size),
                                                      ("zeros", 11 * groups * size), ("zeros", 11 * n * size)],
                                      [0, 1, 2, 3])
        c, old, lc, lold = (unpack(ty, x) for x in (c, old, lc, lold))
        check_atomic_group(report, kernel + "_global", ty, init, c[:11], [old[s * n:(s + 1) * n] for s in range(11)],
                           list(range(n)))
        for g in range(groups):
            items = list(range(g * L, (g + 1) * L))
            check_atomic_group(report, kernel + "_local", ty, init, lc[g * 11:(g + 1) * 11],
                               [lold[s * n + g * L:s * n + (g + 1) * L] for s in range(11)], items)
    c, old, lc, lold = runner.run("atomic_xchg_float", n, L, [("zeros", 4), ("zeros", 4 * n), ("zeros", 4 * groups),
                                                              ("zeros", 4 * n)], [0, 1, 2, 3])
    c, old, lc, lold = (unpack("f32", x) for x in (c, old, lc, lold))
    report.check("atomic_xchg_float_global", Counter(old + c) == Counter([0.0] + [g + 0.5 for g in range(n)]),
                  "exchanged values are not a permutation")
    for g in range(groups):
        ok = Counter(lold[g * L:(g + 1) * L] + [lc[g]]) == Counter([-1.0] + [i + 0.25 for i in range(g * L, (g + 1) * L)])
        report.check("atomic_xchg_float_local", ok, "group %d: exchanged values are not a permutation" % g)
