"""Shared machinery of the builtin-family tests: compiling a family's kernels with `umbra cc`,
running one kernel with `umbra run`, packing and unpacking typed buffers, and measuring errors in
ULPs the way OpenCL 1.2 §7.4 defines them (against the infinitely precise result, given here by
mpmath or, for float, by the C library in double precision)."""

import math
import os
import random
import struct
import subprocess

import mpmath

# element type -> (struct code, size in bytes)
TYPES = {
    "i8": ("b", 1), "u8": ("B", 1), "i16": ("h", 2), "u16": ("H", 2), "i32": ("i", 4),
    "u32": ("I", 4), "i64": ("q", 8), "u64": ("Q", 8), "f16": ("e", 2), "f32": ("f", 4),
    "f64": ("d", 8),
}
# OpenCL C scalar type names of the element types
CL_NAMES = {
    "i8": "char", "u8": "uchar", "i16": "short", "u16": "ushort", "i32": "int", "u32": "uint",
    "i64": "long", "u64": "ulong", "f16": "half", "f32": "float", "f64": "double",
}
INT_TYPES = ["i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"]
WIDTHS = [1, 2, 3, 4, 8, 16]


class TestFailure(Exception):
    pass


def pack(ty, values):
    code, _ = TYPES[ty]
    return struct.pack("<%d%s" % (len(values), code), *values)


def unpack(ty, data):
    code, size = TYPES[ty]
    return list(struct.unpack("<%d%s" % (len(data) // size, code), data))


def int_range(ty):
    bits = TYPES[ty][1] * 8
    if ty.startswith("u"):
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def to_f32(x):
    """x rounded to the nearest float (round to nearest even, overflow to infinity)."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def same_value(a, b):
    """Equal as IEEE values including the sign of zero; any NaN equals any NaN."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


class Format:
    """A binary floating-point format: mantissa bits (with the hidden one), exponent range."""

    def __init__(self, name, precision, emin, emax):
        self.name, self.p, self.emin, self.emax = name, precision, emin, emax
        self.max = (2.0 - 2.0 ** (1 - precision)) * 2.0 ** emax
        self.min_normal = 2.0 ** emin
        self.min_denormal = 2.0 ** (emin - precision + 1)

    def ulp(self, ref):
        """ulp of a finite real ref (a float, or an mpf for double): the gap of the binade holding
        ref, never below the smallest denormal (§7.4: ulp(x) = |b - a| for the floats around x)."""
        if ref == 0:
            return self.min_denormal if isinstance(ref, float) else mpmath.mpf(self.min_denormal)
        e = math.frexp(ref)[1] if isinstance(ref, float) else mpmath.frexp(ref)[1]
        k = max(e - 1, self.emin) - self.p + 1  # ref = m * 2^e with 0.5 <= |m| < 1
        return math.ldexp(1.0, k) if isinstance(ref, float) else mpmath.ldexp(1, k)


F32 = Format("f32", 24, -126, 127)
F64 = Format("f64", 53, -1022, 1023)
F16 = Format("f16", 11, -14, 15)
FORMATS = {"f32": F32, "f64": F64, "f16": F16}


def ulp_error(fmt, got, ref):
    """Error of the device value got against the real ref, in ULPs of ref. For float the
    arithmetic is done in double (exact enough: the reference is only needed to 2^-29 float
    ulp); for double in mpmath. A reference beyond the format's range is measured with the
    largest finite value's ulp; infinity of the right sign is as good as the largest finite
    value plus one ulp."""
    if fmt is not F64:
        ref = float(ref)
        gotv = got
    else:
        gotv = mpmath.mpf(got) if math.isfinite(got) else got
    big = fmt.max if fmt is not F64 else mpmath.mpf(fmt.max)
    big_ulp = fmt.ulp(big)
    if math.isnan(got) or (ref > 0) != (got > 0) and got != 0 and ref != 0:
        return math.inf
    if math.isinf(got):
        if abs(ref) <= big:
            return math.inf
        return max(0.0, float((big + big_ulp - abs(ref)) / big_ulp))
    if abs(ref) > big:
        return float((abs(ref) - abs(gotv)) / big_ulp)
    return float(abs(gotv - ref) / fmt.ulp(ref))


class Approx:
    """A reference that is a real number (mpf): the result must lie within the bound in ULPs."""

    def __init__(self, value):
        self.value = mpmath.mpf(value)

    def __repr__(self):
        return mpmath.nstr(self.value, 20)


class AnyOf:
    """Several acceptable references (e.g. mad: the fused or the unfused result)."""

    def __init__(self, *refs):
        self.refs = refs

    def __repr__(self):
        return " or ".join(repr(r) for r in self.refs)


def error_of(fmt, got, ref):
    """ULPs between got and ref: ref is an exact float (0 if the same IEEE value, including the
    sign of zero and NaN-ness, else inf), an Approx or an AnyOf (the best of them)."""
    if isinstance(ref, AnyOf):
        return min(error_of(fmt, got, r) for r in ref.refs)
    if isinstance(ref, Approx):
        return ulp_error(fmt, got, ref.value)
    return 0.0 if same_value(got, ref) else math.inf


class Runner:
    """Compiles one family's source for one configuration and runs its kernels."""

    def __init__(self, umbra, srcdir, workdir, family, opt, wave):
        self.umbra, self.srcdir = umbra, srcdir
        self.opt, self.wave = opt, wave
        self.dir = os.path.join(workdir, "%s.O%d.w%d" % (family, opt, wave))
        os.makedirs(self.dir, exist_ok=True)
        self.co = None
        self.runs = 0

    def compile(self, source, defines=(), options=(), tag=""):
        co = os.path.join(self.dir, os.path.splitext(source)[0] + tag + ".co")
        cmd = [self.umbra, "cc", os.path.join(self.srcdir, source), "-O%d" % self.opt, "-o", co]
        if self.wave == 64:
            cmd.append("--wave64")
        cmd += ["-D" + d for d in defines] + list(options)
        run_checked(cmd, "compile " + source)
        self.co = co

    def run(self, kernel, global_size, local_size, args, outputs, offset=None, extra=()):
        """args: list of ('buf', bytes) | ('zeros', nbytes) | ('local', nbytes) | (TYPE, value);
        outputs: argument indexes whose buffers come back (as bytes), in that order."""
        cmd = [self.umbra, "run", self.co, "--kernel", kernel, "--global", dims(global_size),
               "--local", dims(local_size), "--quiet"]
        if offset is not None:
            cmd += ["--offset", dims(offset)]
        for i, (kind, value) in enumerate(args):
            if kind == "buf":
                path = os.path.join(self.dir, "%s.in%d.bin" % (kernel, i))
                with open(path, "wb") as f:
                    f.write(value)
                cmd += ["--arg", "buf:" + path]
            elif kind == "zeros":
                cmd += ["--arg", "buf:zeros:%d" % value]
            elif kind == "local":
                cmd += ["--arg", "local:%d" % value]
            else:
                cmd += ["--arg", "%s:%s" % (kind, value)]
        paths = []
        for i in outputs:
            path = os.path.join(self.dir, "%s.out%d.bin" % (kernel, i))
            paths.append(path)
            cmd += ["--out", "%d:%s" % (i, path)]
        cmd += list(extra)
        run_checked(cmd, "run " + kernel)
        self.runs += 1
        result = []
        for path in paths:
            with open(path, "rb") as f:
                result.append(f.read())
        return result


def dims(d):
    return ",".join(str(x) for x in d) if isinstance(d, (list, tuple)) else str(d)


def run_checked(cmd, what):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise TestFailure("%s failed (exit %d): %s\n%s%s" % (what, p.returncode, " ".join(cmd),
                                                             p.stdout[-2000:], p.stderr[-4000:]))
    return p


class Report:
    """Collects failures (the first few of each check are kept verbatim) and counts checks."""

    def __init__(self):
        self.checks = 0
        self.failures = {}
        self.worst = {}
        self.known_deviations = {}

    def check(self, name, ok, detail):
        self.checks += 1
        if not ok:
            self.failures.setdefault(name, []).append(detail)

    def passed(self):
        self.checks += 1

    def known(self, name, reason, detail):
        """A mismatch the test knows the cause of (documented, outside umbra): a note."""
        self.checks += 1
        entry = self.known_deviations.setdefault(name, [reason, 0, detail])
        entry[1] += 1

    def notes(self):
        return ["NOTE known deviation %s (%d values, e.g. %s): %s" % (name, n, detail, reason)
                for name, (reason, n, detail) in sorted(self.known_deviations.items())]

    def note_error(self, name, err):
        if err > self.worst.get(name, -1.0):
            self.worst[name] = err

    def summary(self):
        lines = []
        for name, details in sorted(self.failures.items()):
            lines.append("FAIL %s: %d mismatches" % (name, len(details)))
            lines += ["    " + d for d in details[:6]]
        return lines


def rng(seed):
    return random.Random(seed)
