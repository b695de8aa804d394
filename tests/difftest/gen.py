#!/usr/bin/env python3
"""Random OpenCL C kernels free of undefined behaviour, for differential testing (Csmith/CLsmith style).

One file holds many kernels `k0 .. kN-1`, all with the signature
    __kernel void kI(__global ulong *out, __global const uint *in, __global uint *ctr)
Every work-item writes NOUT ulongs to out[gid * NOUT ...]: a hash of every variable it holds at
the end, then a few variables themselves. `ctr` holds NCTR uints updated by order-independent
atomics (add, sub, inc, dec, min, max, and, or, xor). Each kernel's launch sizes go to a manifest.

What keeps the programs defined:
- signed + - * and negation are done in the unsigned type and converted back (two's complement
  wrap; the conversion is implementation-defined, and every clang target wraps);
- / and % return the dividend for a zero divisor and for MIN / -1;
- shift counts are masked to the promoted width, left shifts done unsigned;
- float -> integer conversions only when the value is in range (NaN fails the range test);
- float arithmetic is only what OpenCL specifies exactly (+ - * fma, conversions, comparisons,
  fabs, negation) with FP_CONTRACT OFF, so no compiler may fuse a*b+c; NaNs are hashed as one value;
- barriers only at the top level of the kernel (uniform control flow); atomics' return values
  are never used; private arrays and __local indices are masked into range;
- loops have constant or small per-work-item bounds.
Only core language and basic builtins (min, max, clz, popcount, rotate, mul_hi, fabs, fma, as_*).
"""
import argparse
import json
import random

NOUT = 8    # ulongs per work-item
NCTR = 8    # global atomic counters per kernel
NIN = 256   # uints of input
PRIV = 8    # private array length (power of 2)
NLC = 4     # __local atomic counters

INT_TYPES = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"]
FLOAT_TYPES = ["float", "double"]
BITS = {"char": 8, "uchar": 8, "short": 16, "ushort": 16, "int": 32, "uint": 32, "long": 64,
        "ulong": 64, "float": 32, "double": 64}


def signed(t):
    return not t.startswith("u")


def wide(t):
    """The unsigned type the arithmetic of t is done in (after integer promotion)."""
    return "ulong" if BITS[t] == 64 else "uint"


def prelude():
    """Helpers shared by every kernel in a file: safe arithmetic and hashing."""
    out = ["#pragma OPENCL FP_CONTRACT OFF",
           "#pragma OPENCL EXTENSION cl_khr_fp64 : enable", ""]
    for t in INT_TYPES:
        w = wide(t)
        pw = 64 if BITS[t] == 64 else 32
        for name, op in (("add", "+"), ("sub", "-"), ("mul", "*")):
            out.append(f"static {t} {name}_{t}({t} a, {t} b) {{ return ({t})(({w})a {op} ({w})b); }}")
        if signed(t) and BITS[t] >= 32:
            mn = f"({t})0x8{'0' * (BITS[t] // 4 - 1)}{'UL' if BITS[t] == 64 else 'u'}"
            bad = f"b == 0 || (a == {mn} && b == ({t})-1)"
        else:
            bad = "b == 0"
        # / and % out of line: clang-19 -O3 divides an unsigned dividend with many sign bits
        # (0xffffffff, 2^64-1) through the 24-bit float path (docs/DIFFTEST.md, C2); a call hides
        # the operands from it
        attr = "__attribute__((noinline)) "
        out.append(f"{attr}static {t} div_{t}({t} a, {t} b) {{ return ({bad}) ? a : ({t})(a / b); }}")
        out.append(f"{attr}static {t} mod_{t}({t} a, {t} b) {{ return ({bad}) ? a : ({t})(a % b); }}")
        out.append(f"static {t} shl_{t}({t} a, uint b) {{ return ({t})(({w})a << (b & {pw - 1}u)); }}")
        out.append(f"static {t} shr_{t}({t} a, uint b) {{ return ({t})(a >> (b & {pw - 1}u)); }}")
        out.append(f"static {t} neg_{t}({t} a) {{ return ({t})(-({w})a); }}")
    for t in INT_TYPES:
        lo, hi = int_range(t)
        for f in FLOAT_TYPES:
            sfx = "f" if f == "float" else ""
            out.append(f"static {t} {f}_to_{t}({f} x) {{ return (x > {lo}.0{sfx} && x < {hi}.0{sfx}) ? ({t})x : ({t})0; }}")
    out.append("static ulong hf(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }")
    out.append("static ulong hd(double x) { return x != x ? 0x7ff8000000000000UL : as_ulong(x); }")
    out.append("static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }")
    out.append("")
    return "\n".join(out)


def int_range(t):
    """Open bounds (lo, hi) for a float -> t conversion, as exactly representable in float:
    any x with lo < x < hi truncates into t's range."""
    b = BITS[t]
    if signed(t):
        return -(1 << (b - 1)) - (1 if b < 32 else 0), (1 << (b - 1))
    return -1, (1 << b)


SIZES = {  # expression depth, top-level phases, statements per phase
    "small": (2, (1, 3), (2, 4)),
    "normal": (3, (1, 4), (2, 5)),
}


class Kernel:
    def __init__(self, rng, name, lsize, ngroups, size="normal"):
        self.r = rng
        self.name = name
        self.lsize = lsize
        self.ngroups = ngroups
        self.vars = {}        # name -> type
        self.vecs = {}        # name -> (elem type, n)
        self.arr = None       # (name, type)
        self.lines = []
        self.loop_depth = 0
        self.nloop = 0
        self.loopvars = set()   # loop counters: read, never assigned
        self.depth, self.phases, self.stmts = SIZES[size]

    # ---- leaves and constants ----
    def const(self, t):
        r = self.r
        if t in FLOAT_TYPES:
            v = r.choice([0.0, 1.0, -1.0, 0.5, 2.0, 3.0, 0.25, -7.5, 100.0, 1e6, -1e-3, 1e30, 1e-30,
                          r.uniform(-1000, 1000), r.uniform(-2, 2)])
            s = repr(float(v))
            if "e" not in s and "." not in s:
                s += ".0"
            return f"({s}f)" if t == "float" else f"({s})"
        b = BITS[t]
        v = r.choice([0, 1, 2, 3, 7, (1 << b) - 1, 1 << (b - 1), (1 << (b - 1)) - 1,
                      r.getrandbits(b), r.getrandbits(b), r.randrange(0, 100)])
        v &= (1 << b) - 1
        sfx = "UL" if b == 64 else "u"
        return f"(({t})0x{v:x}{sfx})"

    def leaf(self, t):
        r = self.r
        cands = [n for n, vt in self.vars.items() if vt == t]
        c = r.randrange(10)
        if c < 4 and cands:
            return r.choice(cands)
        if c < 5:
            return self.const(t)
        if c < 6:
            return f"(({t})in[({self.expr('uint', 1)}) & {NIN - 1}u])"
        if c < 7 and self.arr:
            an, at = self.arr
            return self.convert(f"{an}[({self.expr('uint', 1)}) & {PRIV - 1}u]", at, t)
        if c < 8 and self.vecs:
            vn, (vt, vk) = r.choice(list(self.vecs.items()))
            comp = r.choice(["x", "y", "z", "w", "s0", "s1", "s2", "s3"][: 4 if vk >= 4 else 2] if vk <= 4
                            else [f"s{i:x}" for i in range(vk)])
            return self.convert(f"{vn}.{comp}", vt, t)
        if c < 9:
            return self.convert(r.choice(["lid", "gid", "grp"]), "uint", t)
        if self.vars:
            n = r.choice(list(self.vars))
            return self.convert(n, self.vars[n], t)
        return self.const(t)

    def convert(self, e, src, dst):
        if src == dst:
            return e
        if dst in INT_TYPES and src in FLOAT_TYPES:
            return f"{src}_to_{dst}({e})"
        return f"(({dst})({e}))"

    # ---- expressions ----
    def expr(self, t, depth):
        if depth <= 0 or self.r.random() < 0.25:
            return self.leaf(t)
        if t in FLOAT_TYPES:
            return self.fexpr(t, depth)
        return self.iexpr(t, depth)

    def iexpr(self, t, d):
        r = self.r
        c = r.randrange(16)
        a = lambda: self.expr(t, d - 1)
        if c < 5:
            op = r.choice(["add", "sub", "mul", "add", "sub", "mul", "div", "mod"])
            return f"{op}_{t}({a()}, {a()})"
        if c < 7:
            return f"(({t})({a()} {r.choice(['&', '|', '^'])} {a()}))"
        if c < 8:
            return f"{r.choice(['shl', 'shr'])}_{t}({a()}, {self.expr('uint', d - 1)})"
        if c < 9:
            # no ~ on 64-bit values: clang-19 miscompiles `x | ~(ulong)y` at -O3 (docs/DIFFTEST.md, C1)
            return r.choice([f"neg_{t}({a()})", f"(({t})!{a()})"] + ([f"(({t})~{a()})"] if BITS[t] < 64 else []))
        if c < 10:
            s = r.choice(INT_TYPES + FLOAT_TYPES)
            return f"(({t})({self.cmp(s, d - 1)}))"
        if c < 11:
            s = r.choice(INT_TYPES + FLOAT_TYPES)
            return f"(({t})({self.cmp(s, d - 1)} ? {a()} : {a()}))"
        if c < 13:
            s = r.choice(INT_TYPES + FLOAT_TYPES)
            return self.convert(self.expr(s, d - 1), s, t)
        if c < 14:
            return f"{r.choice(['min', 'max'])}({a()}, {a()})"
        if c < 15 and t in ("uint", "int", "ulong"):
            fn = r.choice(["rotate", "mul_hi", "popcount", "clz"] if t != "int" else ["mul_hi", "popcount"])
            if fn in ("popcount", "clz"):
                if t == "ulong" and fn == "clz":
                    fn = "popcount"
                return f"{fn}({a()})"
            return f"{fn}({a()}, {a()})"
        return f"(({t})({self.logic(d - 1)}))"

    def cmp(self, s, d):
        op = self.r.choice(["<", "<=", ">", ">=", "==", "!="])
        return f"({self.expr(s, d)} {op} {self.expr(s, d)})"

    def logic(self, d):
        r = self.r
        s1, s2 = r.choice(INT_TYPES + FLOAT_TYPES), r.choice(INT_TYPES)
        return f"({self.cmp(s1, d)} {r.choice(['&&', '||'])} {self.cmp(s2, d)})"

    def fexpr(self, t, d):
        r = self.r
        c = r.randrange(12)
        a = lambda: self.expr(t, d - 1)
        if c < 5:
            return f"({a()} {r.choice(['+', '-', '*'])} {a()})"
        if c < 6:
            return f"fma({a()}, {a()}, {a()})"
        if c < 7:
            return r.choice([f"(-{a()})", f"fabs({a()})"])
        if c < 8:
            s = r.choice(INT_TYPES + FLOAT_TYPES)
            return f"({self.cmp(s, d - 1)} ? {a()} : {a()})"
        return self.convert_any_to(t, d - 1)

    def convert_any_to(self, t, d):
        s = self.r.choice(INT_TYPES + FLOAT_TYPES)
        return self.convert(self.expr(s, d), s, t)

    def cond(self, d):
        """A branch condition; often on the work-item id, so waves diverge."""
        r = self.r
        c = r.randrange(5)
        if c < 2:
            return f"(({r.choice(['lid', 'gid'])} {r.choice(['%', '&'])} {r.randrange(2, 9)}u) {r.choice(['==', '<', '!='])} {r.randrange(0, 4)}u)"
        if c < 3:
            return f"(lid {r.choice(['<', '>=', '>'])} {r.randrange(0, self.lsize)}u)"
        return self.cmp(r.choice(INT_TYPES + FLOAT_TYPES), d) if c < 4 else self.logic(d)

    # ---- statements ----
    def emit(self, s, ind):
        self.lines.append("    " * ind + s)

    def vec_stmt(self, ind):
        r = self.r
        vn, (vt, vk) = r.choice(list(self.vecs.items()))
        same = [n for n, (t, k) in self.vecs.items() if t == vt and k == vk]
        o = r.choice(same)
        sw = self.swizzle(o, vk)
        if vt == "float":
            op = r.choice(["+", "-", "*"])
            self.emit(f"{vn} = {vn} {op} {sw};", ind)
            return
        if vt == "int":   # signed vector arithmetic wraps through uint lanes
            op = r.choice(["+", "-", "*", "^", "&", "|"])
            self.emit(f"{vn} = as_int{vk}(as_uint{vk}({vn}) {op} as_uint{vk}({sw}));", ind)
            return
        c = r.randrange(5)
        if c == 0:
            self.emit(f"{vn} = {vn} {r.choice(['<<', '>>'])} ({sw} & ({vt}){BITS[vt] - 1});", ind)
        elif c == 1:
            s = self.expr(vt, 2)
            self.emit(f"{vn} = {vn} {r.choice(['+', '*', '^'])} ({vt}{vk})({s});", ind)
        elif c == 2:   # comparison results are -1/0 per lane
            self.emit(f"{vn} = {vn} + as_{vt}{vk}({vn} {r.choice(['<', '>', '==', '!='])} {sw});"
                      if BITS[vt] == 32 else f"{vn} = {vn} ^ {sw};", ind)
        else:
            self.emit(f"{vn} = {vn} {r.choice(['+', '-', '*', '^', '&', '|'])} {sw};", ind)

    def swizzle(self, v, k):
        r = self.r
        if k == 4:
            return f"{v}.{''.join(r.choice('xyzw') for _ in range(4))}"
        if k == 8:
            c = r.randrange(3)
            if c == 0:
                return f"{v}.s{''.join(r.choice('01234567') for _ in range(8))}"
            half = r.choice(["lo", "hi", "even", "odd"])
            half2 = r.choice(["lo", "hi", "even", "odd"])
            return f"(({self.vecs[v][0]}8)({v}.{half}, {v}.{half2}))"
        return v

    def assign(self, ind):
        r = self.r
        n = r.choice([v for v in self.vars if v not in self.loopvars])
        t = self.vars[n]
        if r.random() < 0.3 and t in INT_TYPES:
            op = r.choice(["add", "sub", "mul", "div", "mod"])
            self.emit(f"{n} = {op}_{t}({n}, {self.expr(t, self.depth - 1)});", ind)
        elif r.random() < 0.15 and t in FLOAT_TYPES:
            self.emit(f"{n} = {n} {r.choice(['+', '-', '*'])} {self.expr(t, self.depth - 1)};", ind)
        else:
            self.emit(f"{n} = {self.expr(t, self.depth)};", ind)

    def stmt(self, ind, depth):
        r = self.r
        c = r.randrange(20)
        if c < 8 or depth <= 0:
            self.assign(ind)
        elif c < 9 and self.arr:
            an, at = self.arr
            self.emit(f"{an}[({self.expr('uint', 2)}) & {PRIV - 1}u] = {self.expr(at, 3)};", ind)
        elif c < 11 and self.vecs:
            self.vec_stmt(ind)
        elif c < 13:
            self.emit(f"if ({self.cond(2)}) {{", ind)
            self.block(ind + 1, depth - 1)
            if r.random() < 0.6:
                self.emit("} else {", ind)
                self.block(ind + 1, depth - 1)
            self.emit("}", ind)
        elif c < 15:
            self.loop(ind, depth)
        elif c < 16:
            self.emit(f"switch (({self.expr('uint', 2)}) & 3u) {{", ind)
            for k in range(r.randrange(1, 4)):
                self.emit(f"case {k}u:", ind)
                self.block(ind + 1, depth - 1)
                if r.random() < 0.8:
                    self.emit("    break;", ind)
            self.emit("default:", ind)
            self.block(ind + 1, depth - 1)
            self.emit("}", ind)
        elif c < 18:
            self.atomic(ind)
        elif self.loop_depth > 0 and c < 19:
            self.emit(f"if ({self.cond(1)}) {r.choice(['break', 'continue'])};", ind)
        else:
            self.assign(ind)

    # Each counter has one family of operations, so its final value is independent of the order
    # in which work-items apply them (add/sub/inc/dec commute with each other, min with max do not).
    GLOBAL_CTR_OPS = [("uint", ("add", "sub", "inc", "dec")), ("uint", ("min",)), ("uint", ("max",)),
                      ("uint", ("and",)), ("uint", ("or",)), ("uint", ("xor",)), ("int", ("min",)),
                      ("int", ("max",))]
    LOCAL_CTR_OPS = [("uint", ("add", "sub", "inc", "dec")), ("uint", ("max",)), ("uint", ("xor", )),
                     ("int", ("min",))]

    def atomic(self, ind):
        r = self.r
        if r.random() < 0.5:
            k = r.randrange(NCTR)
            t, ops = self.GLOBAL_CTR_OPS[k]
            p = f"&ctr[{k}]" if t == "uint" else f"(__global int *)&ctr[{k}]"
        else:
            k = r.randrange(NLC)
            t, ops = self.LOCAL_CTR_OPS[k]
            p = f"&lc[{k}]" if t == "uint" else f"(__local int *)&lc[{k}]"
        op = r.choice(ops)
        if op in ("inc", "dec"):
            self.emit(f"atomic_{op}({p});", ind)
        else:
            self.emit(f"atomic_{op}({p}, {self.expr(t, 2)});", ind)

    def loop(self, ind, depth):
        r = self.r
        i = f"i{self.nloop}"
        self.nloop += 1
        bound = r.choice([f"{r.randrange(1, 6)}", f"{r.randrange(1, 6)}", "(lid & 3u)", "(gid % 5u)"])
        self.emit(f"for (uint {i} = 0; {i} < {bound}; {i}++) {{", ind)
        self.vars[i] = "uint"
        self.loopvars.add(i)
        self.loop_depth += 1
        self.block(ind + 1, depth - 1)
        self.loop_depth -= 1
        del self.vars[i]
        self.loopvars.discard(i)
        self.emit("}", ind)

    def block(self, ind, depth):
        for _ in range(self.r.randrange(1, 4)):
            self.stmt(ind, depth)

    def local_phase(self, ind):
        """Exchange through __local memory between barriers (top level only: uniform flow)."""
        r = self.r
        n = r.choice([v for v in self.vars if v not in self.loopvars])
        t = self.vars[n]
        self.emit(f"lm[lid] = {self.convert(self.expr('uint', 3), 'uint', 'uint')};", ind)
        self.emit("barrier(CLK_LOCAL_MEM_FENCE);", ind)
        idx = r.choice([f"(lid + {r.randrange(1, self.lsize)}u) % {self.lsize}u",
                        f"{self.lsize - 1}u - lid", f"lid ^ {r.randrange(1, 32)}u & {self.lsize - 1}u"
                        if self.lsize & (self.lsize - 1) == 0 else f"(lid * 7u) % {self.lsize}u"])
        self.emit(f"{n} = {self.convert(f'lm[{idx}]', 'uint', t)};", ind)
        self.emit("barrier(CLK_LOCAL_MEM_FENCE);", ind)

    def generate(self):
        r = self.r
        nv = r.randrange(5, 11)
        decl = []
        for k in range(nv):
            t = r.choice(INT_TYPES * 2 + FLOAT_TYPES)
            self.vars[f"v{k}"] = t
        for k in range(r.randrange(0, 3)):
            vt, vk = r.choice([("uint", 4), ("int", 4), ("float", 4), ("ushort", 8), ("uchar", 8),
                               ("uint", 8), ("ulong", 4)])
            self.vecs[f"w{k}"] = (vt, vk)
        if r.random() < 0.7:
            self.arr = ("pa", r.choice(INT_TYPES + FLOAT_TYPES))
        # initial values from the input (different per work-item) and constants
        for n, t in list(self.vars.items()):
            init = self.convert(f"in[(gid * {r.randrange(1, 16)}u + {r.randrange(NIN)}u) & {NIN - 1}u]", "uint", t) \
                if r.random() < 0.7 else self.const(t)
            if t in FLOAT_TYPES and r.random() < 0.7:
                init = f"(({t})((int)in[(gid + {r.randrange(NIN)}u) & {NIN - 1}u] % 2048) * {self.const(t)})"
            decl.append(f"    {t} {n} = {init};")
        for n, (vt, vk) in self.vecs.items():
            comps = ", ".join(self.convert(f"in[(gid + {r.randrange(NIN)}u) & {NIN - 1}u]", "uint", vt)
                              if vt != "float" else f"(float)((int)in[(lid + {r.randrange(NIN)}u) & {NIN - 1}u] % 1000)"
                              for _ in range(vk))
            decl.append(f"    {vt}{vk} {n} = ({vt}{vk})({comps});")
        if self.arr:
            an, at = self.arr
            decl.append(f"    {at} {an}[{PRIV}];")
            decl.append(f"    for (uint q = 0; q < {PRIV}u; q++) {an}[q] = {self.convert(f'in[(gid + q * 3u) & {NIN - 1}u]', 'uint', at)};")
        nphase = r.randrange(*self.phases)
        for p in range(nphase):
            for _ in range(r.randrange(*self.stmts)):
                self.stmt(1, 3)
            if r.random() < 0.6:
                self.local_phase(1)
        body = self.lines
        self.lines = []
        # results: hash of everything, then a few values
        self.emit("barrier(CLK_LOCAL_MEM_FENCE);", 1)
        self.emit("ulong h = 0xcbf29ce484222325UL;", 1)
        for n, t in self.vars.items():
            self.emit(f"h = mix(h, {self.hash_of(n, t)});", 1)
        for n, (vt, vk) in self.vecs.items():
            for k in range(vk):
                self.emit(f"h = mix(h, {self.hash_of(f'{n}.s{k:x}', vt)});", 1)
        if self.arr:
            an, at = self.arr
            self.emit(f"for (uint q = 0; q < {PRIV}u; q++) h = mix(h, {self.hash_of(f'{an}[q]', at)});", 1)
        self.emit(f"for (uint q = 0; q < {NLC}u; q++) h = mix(h, (ulong)lc[q]);", 1)
        self.emit(f"out[gid * {NOUT}u] = h;", 1)
        names = list(self.vars)
        for k in range(1, NOUT):
            n = names[(k - 1) % len(names)]
            self.emit(f"out[gid * {NOUT}u + {k}u] = {self.hash_of(n, self.vars[n])};", 1)
        tail = self.lines
        head = [f"__kernel __attribute__((reqd_work_group_size({self.lsize}, 1, 1)))",
                f"void {self.name}(__global ulong *out, __global const uint *in, __global uint *ctr)", "{",
                "    uint lid = get_local_id(0), gid = get_global_id(0), grp = get_group_id(0);",
                f"    __local uint lm[{self.lsize}];",
                f"    __local uint lc[{NLC}];",
                f"    if (lid < {NLC}u) lc[lid] = in[lid + grp];",
                "    barrier(CLK_LOCAL_MEM_FENCE);"]
        return "\n".join(head + decl + body + tail + ["}", ""])

    @staticmethod
    def hash_of(n, t):
        if t == "float":
            return f"hf({n})"
        if t == "double":
            return f"hd({n})"
        return f"(ulong)({n})"


def generate_file(seed, nkernels, size="normal"):
    """Returns (source, manifest) for nkernels kernels from seed."""
    rng = random.Random(seed)
    src = [f"/* difftest seed {seed}, {nkernels} kernels */", prelude()]
    kernels = []
    for k in range(nkernels):
        lsize = rng.choice([32, 64, 64, 96, 128, 256])
        ngroups = rng.choice([1, 2, 3])
        kern = Kernel(random.Random(rng.getrandbits(64)), f"k{k}", lsize, ngroups, size)
        src.append(kern.generate())
        kernels.append({"name": kern.name, "local": lsize, "global": lsize * ngroups})
    return "\n".join(src), {"seed": seed, "nout": NOUT, "nctr": NCTR, "nin": NIN, "kernels": kernels}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--kernels", type=int, default=30)
    ap.add_argument("--size", choices=sorted(SIZES), default="normal")
    ap.add_argument("-o", "--output", required=True, help="the .cl file; the manifest goes to OUTPUT.json")
    a = ap.parse_args()
    src, man = generate_file(a.seed, a.kernels, a.size)
    with open(a.output, "w") as f:
        f.write(src)
    with open(a.output + ".json", "w") as f:
        json.dump(man, f, indent=1)


if __name__ == "__main__":
    main()
