"""Common (§6.12.4) and geometric (§6.12.5) functions for float and double."""

import math

import mpmath
from mpmath import mpf

from bt_core import F32, F64, AnyOf, Approx, error_of, pack, rng, to_f32, unpack

WIDTHS = [1, 2, 3, 4, 8, 16]
PI = mpmath.pi


def compile_real(runner, source, ty):
    defines = ["REAL=double", "REAL_IS_DOUBLE=1"] if ty == "f64" else ["REAL=float"]
    runner.compile(source, defines, tag="_" + ty)


def sign_ref(x):
    if math.isnan(x):
        return 0.0
    if x == 0:
        return x
    return 1.0 if x > 0 else -1.0


def smoothstep_ref(e0, e1, x):
    if e0 >= e1:
        return None  # undefined for edge0 >= edge1
    t = min(max((mpf(x) - e0) / (mpf(e1) - e0), 0), 1)
    return t * t * (3 - 2 * t)


def common_refs(fmt, x, y, z):
    """(reference, bound) per function slot: bound is ULPs, ('abs', tol) or None (exact)."""
    lo, hi = min(y, z), max(y, z)
    mix = mpf(x) + (mpf(y) - x) * z
    ss = smoothstep_ref(lo, hi, x)
    step = 0.0 if x < y else 1.0
    sstol = ("abs", 1e-5)
    return [(min(max(x, lo), hi), None), (Approx(mpf(x) * 180 / PI), 2), (max(x, y), None),
            (min(x, y), None), (Approx(mix), ("abs", 1e-3)), (Approx(mpf(x) * PI / 180), 2),
            (step, None), (Approx(ss) if ss is not None else None, sstol), (sign_ref(x), None),
            (min(max(x, lo), hi), None), (max(x, y), None), (min(x, y), None),
            (Approx(mix), ("abs", 1e-3)), (step, None), (Approx(ss) if ss is not None else None, sstol)]


COMMON_NAMES = ["clamp", "degrees", "max", "min", "mix", "radians", "step", "smoothstep", "sign",
                "clamp_s", "max_s", "min_s", "mix_s", "step_s", "smoothstep_s"]


def within(fmt, got, ref, bound):
    if ref is None:
        return True, 0.0
    if bound is None:
        if ref == 0:  # the sign of a zero result of max/min/clamp of +0 and -0 is not specified
            return got == 0, 0.0
        return error_of(fmt, got, ref) == 0, 0.0
    if isinstance(bound, tuple):
        if not math.isfinite(got):
            return False, math.inf
        err = float(abs(mpf(got) - ref.value))
        return err <= bound[1], err
    err = error_of(fmt, got, ref)
    return err <= bound + 2.0 ** -20, err


def run_common(runner, family, report):
    local = 64
    count = local * 48
    r = rng(11)
    for ty, fmt in (("f32", F32), ("f64", F64)):
        compile_real(runner, "common.cl", ty)
        rnd = to_f32 if fmt is F32 else (lambda v: v)
        # finite inputs: max/min/clamp/step are undefined for NaN and infinite arguments
        cols = [[rnd(r.uniform(-10, 10)) if r.random() < 0.8 else rnd(r.choice([0.0, -0.0, 1.0, -1.0]))
                 for _ in range(count)] for _ in range(3)]
        cols[0][0], cols[0][1], cols[0][2] = math.nan, -0.0, 0.0
        args = [("buf", pack(ty, c)) for c in cols] + [("zeros", len(COMMON_NAMES) * 6 * count * 8)]
        (out,) = runner.run("common_funcs", local, local, args, [3])
        got = unpack(ty, out)
        for j in range(count):
            x, y, z = cols[0][j], cols[1][j], cols[2][j]
            refs = common_refs(fmt, x, y, z)
            for s, w in enumerate(WIDTHS):
                # the _s forms take y and z as scalars: element j of a width-w vector gets the
                # scalars of the vector's index, b[j // w] and c[j // w]
                scalar_refs = common_refs(fmt, x, cols[1][j // w], cols[2][j // w])
                scalar_refs[12] = common_refs(fmt, x, y, cols[2][j // w])[12]  # mix(x, y, scalar)
                for f, name in enumerate(COMMON_NAMES):
                    ref, bound = (scalar_refs if name.endswith("_s") else refs)[f]
                    if math.isnan(x) and name != "sign":
                        continue
                    g = got[(f * 6 + s) * count + j]
                    ok, err = within(fmt, g, ref, bound)
                    report.note_error(name, err)
                    if ok:
                        report.passed()
                    else:
                        label = "%s_%s%s" % (name, "float" if ty == "f32" else "double", w if w > 1 else "")
                        report.check(label, False, "%s(%r, %r, %r) = %r, reference %r (bound %s)"
                                     % (name, x, y, z, g, ref, bound))


def run_geometric(runner, family, report):
    local = 64
    r = rng(12)
    for ty, fmt in (("f32", F32), ("f64", F64)):
        compile_real(runner, "geometric.cl", ty)
        rnd = to_f32 if fmt is F32 else (lambda v: v)
        eps = 2.0 ** (1 - fmt.p)
        a, b = [], []
        for i in range(local):
            # scales whose products stay normal and finite (the dot and cross bounds assume it)
            scale = r.choice([1.0, 1.0, 1e-15, 1e15]) if fmt is F32 else r.choice([1.0, 1e-100, 1e100, 1.0])
            a += [rnd(r.uniform(-100, 100) * scale) for _ in range(4)]
            b += [rnd(r.uniform(-100, 100) * scale) for _ in range(4)]
        n = local
        (out, vout) = runner.run("geometric", local, local,
                                 [("buf", pack(ty, a)), ("buf", pack(ty, b)), ("zeros", 5 * 4 * n * 8),
                                  ("zeros", 4 * 4 * 4 * n * 8)], [2, 3])
        got, vgot = unpack(ty, out), unpack(ty, vout)
        tname = "float" if ty == "f32" else "double"
        for i in range(n):
            for s, w in enumerate((1, 2, 3, 4)):
                x = [mpf(v) for v in a[4 * i:4 * i + w]]
                y = [mpf(v) for v in b[4 * i:4 * i + w]]
                mx = max(abs(v) for v in x + y)
                dot = sum(p * q for p, q in zip(x, y))
                length = mpmath.sqrt(sum(p * p for p in x))
                dist = mpmath.sqrt(sum((p - q) ** 2 for p, q in zip(x, y)))
                f64 = fmt is F64
                checks = [("dot", got[(0 * 4 + s) * n + i], Approx(dot), ("abs", float(mx * mx * max(2 * (w - 1), 1) * eps))),
                          ("length", got[(1 * 4 + s) * n + i], Approx(length), (0.5 if f64 else 3) + 0.5 * (0.5 * w + 0.5 * (w - 1))),
                          ("distance", got[(2 * 4 + s) * n + i], Approx(dist), (0.5 if f64 else 3) + 1.5 * w + 0.5 * (w - 1))]
                nb = (1.5 if f64 else 2.5) + 0.5 * w + 0.5 * (w - 1)
                for k in range(w):
                    ref = Approx(x[k] / length) if length != 0 else AnyOf(0.0, -0.0)
                    checks.append(("normalize", vgot[(0 * 4 + s) * 4 * n + 4 * i + k], ref, nb))
                if not f64:
                    checks += [("fast_length", got[(3 * 4 + s) * n + i], Approx(length), 8192 + 0.5 * w + 0.5 * (w - 1)),
                               ("fast_distance", got[(4 * 4 + s) * n + i], Approx(dist), 8192 + 1.5 * w + 0.5 * (w - 1))]
                    if mx > 1e-15 and mx < 1e15:  # fast_ functions need no scaling (no denormals or overflow)
                        for k in range(w):
                            checks.append(("fast_normalize", vgot[(1 * 4 + s) * 4 * n + 4 * i + k],
                                           Approx(x[k] / length), 8192.5 + 0.5 * w + 0.5 * (w - 1)))
                    else:
                        checks = [c for c in checks if not c[0].startswith("fast")]
                for name, g, ref, bound in checks:
                    ok, err = within(fmt, g, ref, bound)
                    report.note_error(name, err)
                    label = "%s_%s%s" % (name, tname, w if w > 1 else "")
                    report.check(label, ok, "%s(%r, %r) = %r, reference %r (bound %s)"
                                 % (name, a[4 * i:4 * i + w], b[4 * i:4 * i + w], g, ref, bound))
            for w, slot in ((3, 2), (4, 3)):
                x = [mpf(v) for v in a[4 * i:4 * i + 3]]
                y = [mpf(v) for v in b[4 * i:4 * i + 3]]
                mx = max(abs(v) for v in a[4 * i:4 * i + w] + b[4 * i:4 * i + w])
                cr = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0], mpf(0)]
                for k in range(w):
                    g = vgot[slot * 4 * 4 * n + 4 * i + k]
                    ok, err = within(fmt, g, Approx(cr[k]), ("abs", float(mx * mx * 3 * eps)))
                    report.check("cross_%s%d" % (tname, w), ok, "cross%d element %d of %r x %r = %r, reference %r"
                                 % (w, k, a[4 * i:4 * i + w], b[4 * i:4 * i + w], g, cr[k]))
