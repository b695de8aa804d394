// OpenCL C 1.2 §6.12.2 math functions, compiled twice: -DREAL=float (math_f32) and -DREAL=double
// (math_f64). One kernel per function; each work-item takes 48 consecutive elements and writes
// them six times: as scalars (slot 0) and through float2/3/4/8/16 vectors (slots 1..5), so that
// out[s * n + j] must equal the reference of input j for every slot s (n = 48 * global size).
// Kernel arguments are always (a, b, c, out, out2); the driver (builtins_test.py) knows each
// kernel's input and output element types.
#if REAL_IS_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define INT_T int

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define BLK 48

// Run STMT for every width: scalar (w = 1, slot 0), then vectors of 2, 3, 4, 8, 16.
// With -DFEW_WIDTHS (the -O3 builds, whose inlining of 34 copies of every function would cost
// minutes of compile time) a function gets the scalar slot and the two vector slots
// (sizeof(name) % 5) and (sizeof(name) + 2) % 5 (of 2, 3, 4, 8, 16); the constant conditions
// leave the other slots out of the code. The driver knows the same rule.
#ifdef FEW_WIDTHS
#define WANT(fn, s) (sizeof(#fn) % 5 == (s) - 1 || (sizeof(#fn) + 2) % 5 == (s) - 1)
#else
#define WANT(fn, s) 1
#endif
#define ALL_WIDTHS(SCALAR, VECTOR, fn)                                                        \
    size_t n = get_global_size(0) * BLK;                                                      \
    for (uint k = 0; k < BLK; k++) { size_t j = get_global_id(0) * BLK + k; SCALAR(fn, j); } \
    VLOOP(VECTOR, fn, 2, 1) VLOOP(VECTOR, fn, 3, 2) VLOOP(VECTOR, fn, 4, 3)                   \
    VLOOP(VECTOR, fn, 8, 4) VLOOP(VECTOR, fn, 16, 5)
#define VLOOP(VECTOR, fn, w, s)                                  \
    if (WANT(fn, s))                                             \
        for (uint k = 0; k < BLK / w; k++) {                     \
            size_t j = get_global_id(0) * (BLK / w) + k;         \
            VECTOR(fn, w, j, s * n);                             \
        }

#define KERNEL(fn, TA, TB, TC, TO, TO2)                                                        \
    kernel void k_##fn(global const TA *a, global const TB *b, global const TC *c, global TO *out, \
                       global TO2 *out2)

// f(x)
#define S1(fn, j) out[j] = fn(a[j])
#define V1(fn, w, j, o) vstore##w(fn(vload##w(j, a)), j, out + (o))
#define UNARY(fn) KERNEL(fn, REAL, REAL, REAL, REAL, REAL) { ALL_WIDTHS(S1, V1, fn) }
// f(x, y), y of the kernel's type for b
#define S2(fn, j) out[j] = fn(a[j], b[j])
#define V2(fn, w, j, o) vstore##w(fn(vload##w(j, a), vload##w(j, b)), j, out + (o))
#define BINARY(fn) KERNEL(fn, REAL, REAL, REAL, REAL, REAL) { ALL_WIDTHS(S2, V2, fn) }
#define BINARY_INT(fn) KERNEL(fn, REAL, INT_T, REAL, REAL, REAL) { ALL_WIDTHS(S2, V2, fn) }
// f(x, y, z)
#define S3(fn, j) out[j] = fn(a[j], b[j], c[j])
#define V3(fn, w, j, o) vstore##w(fn(vload##w(j, a), vload##w(j, b), vload##w(j, c)), j, out + (o))
#define TERNARY(fn) KERNEL(fn, REAL, REAL, REAL, REAL, REAL) { ALL_WIDTHS(S3, V3, fn) }
// int f(x)
#define TO_INT(fn) KERNEL(fn, REAL, REAL, REAL, INT_T, INT_T) { ALL_WIDTHS(S1, V1, fn) }
// f(x, &p): the second result goes to out2
#define SP(fn, j) { PTYPE p; out[j] = fn(a[j], &p); out2[j] = p; }
#define VP(fn, w, j, o) { CAT(PTYPE, w) p; vstore##w(fn(vload##w(j, a), &p), j, out + (o)); vstore##w(p, j, out2 + (o)); }
// remquo(x, y, &q)
#define SQ(fn, j) { int q; out[j] = fn(a[j], b[j], &q); out2[j] = q; }
#define VQ(fn, w, j, o) { CAT(int, w) q; vstore##w(fn(vload##w(j, a), vload##w(j, b), &q), j, out + (o)); vstore##w(q, j, out2 + (o)); }
// x / y and 1 / x are operators, not functions
#define DIVIDE(x, y) ((x) / (y))

UNARY(acos) UNARY(acosh) UNARY(acospi) UNARY(asin) UNARY(asinh) UNARY(asinpi) UNARY(atan)
UNARY(atanh) UNARY(atanpi) UNARY(cbrt) UNARY(ceil) UNARY(cos) UNARY(cosh) UNARY(cospi)
UNARY(erfc) UNARY(erf) UNARY(exp) UNARY(exp2) UNARY(exp10) UNARY(expm1) UNARY(fabs) UNARY(floor)
UNARY(lgamma) UNARY(log) UNARY(log2) UNARY(log10) UNARY(log1p) UNARY(logb) UNARY(rint)
UNARY(round) UNARY(rsqrt) UNARY(sin) UNARY(sinh) UNARY(sinpi) UNARY(sqrt) UNARY(tan) UNARY(tanh)
UNARY(tanpi) UNARY(tgamma) UNARY(trunc)

BINARY(atan2) BINARY(atan2pi) BINARY(copysign) BINARY(fdim) BINARY(fmax) BINARY(fmin)
BINARY(fmod) BINARY(hypot) BINARY(maxmag) BINARY(minmag) BINARY(nextafter) BINARY(pow)
BINARY(powr) BINARY(remainder) BINARY(DIVIDE)

TERNARY(fma) TERNARY(mad)

BINARY_INT(ldexp) BINARY_INT(pown) BINARY_INT(rootn)

TO_INT(ilogb)

#define PTYPE REAL
KERNEL(fract, REAL, REAL, REAL, REAL, REAL) { ALL_WIDTHS(SP, VP, fract) }
KERNEL(modf, REAL, REAL, REAL, REAL, REAL) { ALL_WIDTHS(SP, VP, modf) }
KERNEL(sincos, REAL, REAL, REAL, REAL, REAL) { ALL_WIDTHS(SP, VP, sincos) }
#undef PTYPE
#define PTYPE int
KERNEL(frexp, REAL, REAL, REAL, REAL, int) { ALL_WIDTHS(SP, VP, frexp) }
KERNEL(lgamma_r, REAL, REAL, REAL, REAL, int) { ALL_WIDTHS(SP, VP, lgamma_r) }
#undef PTYPE
KERNEL(remquo, REAL, REAL, REAL, REAL, int) { ALL_WIDTHS(SQ, VQ, remquo) }

// nan(code): float takes uint, double ulong
#if REAL_IS_DOUBLE
#define NAN_CODE ulong
#else
#define NAN_CODE uint
#endif
KERNEL(nan, NAN_CODE, REAL, REAL, REAL, REAL) { ALL_WIDTHS(S1, V1, nan) }

#if !REAL_IS_DOUBLE
// half_ (<= 8192 ulp) and native_ (implementation-defined) forms exist for float only
UNARY(half_cos) UNARY(half_exp) UNARY(half_exp2) UNARY(half_exp10) UNARY(half_log)
UNARY(half_log2) UNARY(half_log10) UNARY(half_recip) UNARY(half_rsqrt) UNARY(half_sin)
UNARY(half_sqrt) UNARY(half_tan) BINARY(half_divide) BINARY(half_powr)
UNARY(native_cos) UNARY(native_exp) UNARY(native_exp2) UNARY(native_exp10) UNARY(native_log)
UNARY(native_log2) UNARY(native_log10) UNARY(native_recip) UNARY(native_rsqrt) UNARY(native_sin)
UNARY(native_sqrt) UNARY(native_tan) BINARY(native_divide) BINARY(native_powr)
#endif
