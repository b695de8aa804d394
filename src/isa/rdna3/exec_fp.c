/* RDNA3 VALU: f64 and f16 arithmetic, conversions, division helpers, 16-bit integer ops.
 *
 * f16 values are computed in float or double and rounded once to binary16: float holds the
 * exact sum/product of two halves to within the 2p+2 bits that make the double rounding of
 * +, -, *, / and sqrt harmless; fma is computed in double. 16-bit results go to the low half of
 * the destination (the high half with VOP3 op_sel[3]) and the other half is kept.
 * Precision of the transcendental approximations: docs/RDNA3_PRECISION.md.
 */
#include "isa/rdna3/exec_alu.h"

#include <limits.h>

#define SRC(i, kind, name) uint32_t name##b_[RDNA3_MAX_LANES]; const uint32_t *name = rdna3_vsrc(w, in, i, kind, name##b_)
#define SRC64(i, kind, name) uint64_t name[RDNA3_MAX_LANES]; rdna3_vsrc64(w, in, i, kind, name)

/* ---- shared float helpers ---- */

static inline float quiet32(float x) { return f32_of(bits_f32(x) | 0x00400000u); }
static inline double quiet64(double x) { return f64_of(bits_f64(x) | 0x0008000000000000ull); }

float rdna3_fmin32_slow(const rdna3_wave *w, float a, float b)
{
    if (isnan(a) || isnan(b)) {
        if (w->mode & RDNA3_MODE_IEEE) {
            if (f32_is_snan(bits_f32(a))) return quiet32(a);
            if (f32_is_snan(bits_f32(b))) return quiet32(b);
        }
        return isnan(a) ? (isnan(b) ? quiet32(a) : b) : a;
    }
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}

float rdna3_fmax32_slow(const rdna3_wave *w, float a, float b)
{
    if (isnan(a) || isnan(b)) {
        if (w->mode & RDNA3_MODE_IEEE) {
            if (f32_is_snan(bits_f32(a))) return quiet32(a);
            if (f32_is_snan(bits_f32(b))) return quiet32(b);
        }
        return isnan(a) ? (isnan(b) ? quiet32(a) : b) : a;
    }
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}

double rdna3_fmin64(const rdna3_wave *w, double a, double b)
{
    if (isnan(a) || isnan(b)) {
        if (w->mode & RDNA3_MODE_IEEE) {
            if (f64_is_snan(bits_f64(a))) return quiet64(a);
            if (f64_is_snan(bits_f64(b))) return quiet64(b);
        }
        return isnan(a) ? (isnan(b) ? quiet64(a) : b) : a;
    }
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}

double rdna3_fmax64(const rdna3_wave *w, double a, double b)
{
    if (isnan(a) || isnan(b)) {
        if (w->mode & RDNA3_MODE_IEEE) {
            if (f64_is_snan(bits_f64(a))) return quiet64(a);
            if (f64_is_snan(bits_f64(b))) return quiet64(b);
        }
        return isnan(a) ? (isnan(b) ? quiet64(a) : b) : a;
    }
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}

/* v_med3_f32: with a NaN operand the ISA gives min3; otherwise the median. */
float rdna3_fmed3(const rdna3_wave *w, float a, float b, float c)
{
    if (isnan(a) || isnan(b) || isnan(c)) return rdna3_fmin32(w, rdna3_fmin32(w, a, b), c);
    float mx = rdna3_fmax32(w, rdna3_fmax32(w, a, b), c);
    if (mx == a) return rdna3_fmax32(w, b, c);
    if (mx == b) return rdna3_fmax32(w, a, c);
    return rdna3_fmax32(w, a, b);
}

/* Class bits: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf. */
static int class_bit(int nan, int snan, int inf, int zero, int denorm, int neg)
{
    if (nan) return snan ? 0 : 1;
    if (inf) return neg ? 2 : 9;
    if (zero) return neg ? 5 : 6;
    if (denorm) return neg ? 4 : 7;
    return neg ? 3 : 8;
}
int rdna3_class32(float x, uint32_t mask)
{
    uint32_t u = bits_f32(x);
    int b = class_bit(isnan(x), f32_is_snan(u), isinf(x), x == 0.0f, (u & 0x7f800000u) == 0, (int)(u >> 31));
    return (int)((mask >> b) & 1u);
}
int rdna3_class64(double x, uint32_t mask)
{
    uint64_t u = bits_f64(x);
    int b = class_bit(isnan(x), f64_is_snan(u), isinf(x), x == 0.0, (u & 0x7ff0000000000000ull) == 0, (int)(u >> 63));
    return (int)((mask >> b) & 1u);
}
int rdna3_class16(uint32_t h, uint32_t mask)
{
    int b = class_bit(f16_is_nan(h), f16_is_snan(h), (h & 0x7fffu) == 0x7c00u, (h & 0x7fffu) == 0,
                      (h & 0x7c00u) == 0, (int)((h >> 15) & 1u));
    return (int)((mask >> b) & 1u);
}

int32_t rdna3_cvt_i32(double x)
{
    if (isnan(x)) return 0;
    if (x >= 2147483647.0) return INT32_MAX;
    if (x <= -2147483648.0) return INT32_MIN;
    return (int32_t)x;
}
uint32_t rdna3_cvt_u32(double x)
{
    if (isnan(x) || x <= 0.0) return 0;
    if (x >= 4294967295.0) return UINT32_MAX;
    return (uint32_t)x;
}
int32_t rdna3_cvt_i16(double x)
{
    if (isnan(x)) return 0;
    if (x >= 32767.0) return 32767;
    if (x <= -32768.0) return -32768;
    return (int32_t)x;
}
uint32_t rdna3_cvt_u16(double x)
{
    if (isnan(x) || x <= 0.0) return 0;
    if (x >= 65535.0) return 65535;
    return (uint32_t)x;
}

/* ---- f64 ---- */

#define VD_BEGIN uint64_t m = rdna3_vexec(w, in); uint64_t R[RDNA3_MAX_LANES]
#define VD_END rdna3_vdst64(w, in->vdst, R, m)

#define VOP1_F64(fn, expr)                                                              \
    static void fn(rdna3_wave *w, const rdna3_inst *in)                                 \
    {                                                                                   \
        SRC64(0, RK_F64, A); VD_BEGIN;                                                  \
        RDNA3_LANES(w) { double a = f64_of(A[l]); R[l] = bits_f64(rdna3_post_f64(w, in, (expr))); } \
        VD_END;                                                                         \
    }
#define VOP2_F64(fn, expr)                                                              \
    static void fn(rdna3_wave *w, const rdna3_inst *in)                                 \
    {                                                                                   \
        SRC64(0, RK_F64, A); SRC64(1, RK_F64, B); VD_BEGIN;                             \
        RDNA3_LANES(w) { double a = f64_of(A[l]), b = f64_of(B[l]); R[l] = bits_f64(rdna3_post_f64(w, in, (expr))); } \
        VD_END;                                                                         \
    }
#define VOP3_F64(fn, expr)                                                              \
    static void fn(rdna3_wave *w, const rdna3_inst *in)                                 \
    {                                                                                   \
        SRC64(0, RK_F64, A); SRC64(1, RK_F64, B); SRC64(2, RK_F64, C); VD_BEGIN;        \
        RDNA3_LANES(w) { double a = f64_of(A[l]), b = f64_of(B[l]), c = f64_of(C[l]); R[l] = bits_f64(rdna3_post_f64(w, in, (expr))); } \
        VD_END;                                                                         \
    }
/* f64 source, 32-bit result. */
#define VOP1_D2U(fn, expr)                                                              \
    static void fn(rdna3_wave *w, const rdna3_inst *in)                                 \
    {                                                                                   \
        SRC64(0, RK_F64, A);                                                            \
        uint64_t m = rdna3_vexec(w, in);                                                \
        uint32_t *D = rdna3_vreg(w, in->vdst);                                          \
        RDNA3_LANES(w) { double a = f64_of(A[l]); uint32_t r = (uint32_t)(expr); D[l] = RDNA3_ON(m, l) ? r : D[l]; } \
    }
/* 32-bit source, f64 result. */
#define VOP1_U2D(fn, kind, expr)                                                        \
    static void fn(rdna3_wave *w, const rdna3_inst *in)                                 \
    {                                                                                   \
        SRC(0, kind, A); VD_BEGIN;                                                      \
        RDNA3_LANES(w) { uint32_t a = A[l]; R[l] = bits_f64(rdna3_post_f64(w, in, (expr))); } \
        VD_END;                                                                         \
    }

static inline double fract64(double a)
{
    double f = a - floor(a);
    return isnan(f) ? f : f < 0x1.fffffffffffffp-1 ? f : 0x1.fffffffffffffp-1;
}
static inline double frexp_mant64(double a)
{
    if (isnan(a) || isinf(a)) return a;
    int e;
    return frexp(a, &e);
}
static inline int32_t frexp_exp64(double a)
{
    if (isnan(a) || isinf(a)) return 0;
    int e;
    (void)frexp(a, &e);
    return e;
}
static inline double ldexp64(double a, uint32_t e)
{
    int32_t n = (int32_t)e;
    if (n > 4000) n = 4000;
    if (n < -4000) n = -4000;
    return ldexp(a, n);
}

VOP1_D2U(v_cvt_i32_f64, rdna3_cvt_i32(a))
VOP1_D2U(v_cvt_u32_f64, rdna3_cvt_u32(a))
VOP1_D2U(v_cvt_f32_f64, bits_f32((float)a))
VOP1_D2U(v_frexp_exp_i32_f64, frexp_exp64(a))
VOP1_U2D(v_cvt_f64_i32, RK_B32, (double)(int32_t)a)
VOP1_U2D(v_cvt_f64_u32, RK_B32, (double)a)
VOP1_U2D(v_cvt_f64_f32, RK_F32, (double)f32_of(a))
VOP1_F64(v_trunc_f64, trunc(a))
VOP1_F64(v_ceil_f64, ceil(a))
VOP1_F64(v_rndne_f64, roundeven(a))
VOP1_F64(v_floor_f64, floor(a))
VOP1_F64(v_rcp_f64, 1.0 / a)
VOP1_F64(v_rsq_f64, 1.0 / sqrt(a))
VOP1_F64(v_sqrt_f64, sqrt(a))
VOP1_F64(v_frexp_mant_f64, frexp_mant64(a))
VOP1_F64(v_fract_f64, fract64(a))
VOP2_F64(v_add_f64, a + b)
VOP2_F64(v_mul_f64, a * b)
VOP2_F64(v_min_f64, rdna3_fmin64(w, a, b))
VOP2_F64(v_max_f64, rdna3_fmax64(w, a, b))
/* The fused multiply-add of every lane at once (exec_fma.c: the host's FMA where it has one). */
static void v_fma_f64(rdna3_wave *w, const rdna3_inst *in)
{
    SRC64(0, RK_F64, A); SRC64(1, RK_F64, B); SRC64(2, RK_F64, C); VD_BEGIN;
    rdna3_fma64_lanes(w->wave_size, R, A, B, C);
    RDNA3_LANES(w) R[l] = bits_f64(rdna3_post_f64(w, in, f64_of(R[l])));
    VD_END;
}

static void v_ldexp_f64(rdna3_wave *w, const rdna3_inst *in)
{
    SRC64(0, RK_F64, A); SRC(1, RK_B32, B); VD_BEGIN;
    RDNA3_LANES(w) R[l] = bits_f64(rdna3_post_f64(w, in, ldexp64(f64_of(A[l]), B[l])));
    VD_END;
}

/* ---- v_trig_preop_f64: 53-bit segments of 2/pi for Payne-Hanek argument reduction ----
 * The first 1201 bits of the binary fraction of 2/pi (0.101000101111...), most significant first,
 * padded with zeros to whole dwords (a mathematical constant; computed with Machin's formula). */
static const uint32_t two_over_pi[38] = {
    0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu, 0xdebbc561u,
    0xb7246e3au, 0x424dd2e0u, 0x06492eeau, 0x09d1921cu, 0xfe1deb1cu, 0xb129a73eu, 0xe88235f5u, 0x2ebb4484u,
    0xe99c7026u, 0xb45f7e41u, 0x3991d639u, 0x835339f4u, 0x9c845f8bu, 0xbdf9283bu, 0x1ff897ffu, 0xde05980fu,
    0xef2f118bu, 0x5a0a6d1fu, 0x6d367ecfu, 0x27cb09b7u, 0x4f463f66u, 0x9e5fea2du, 0x7527bac7u, 0xebe5f17bu,
    0x3d0739f7u, 0x8a5292eau, 0x6bfb5fb1u, 0x1f8d5d08u, 0x56033046u, 0xfc7b0000u,
};

/* D = ldexp(bits [shift, shift+53) of 2/pi, -53 - shift), shift = S1[4:0] * 53, plus the
 * exponent of S0 beyond 1077 (so that large arguments pick later bits); bits past 1200 are 0. */
static double trig_preop(double x, uint32_t sel)
{
    int e = (int)((bits_f64(x) >> 52) & 0x7ffu);
    unsigned shift = (sel & 31u) * 53u + (e > 1077 ? (unsigned)(e - 1077) : 0u);
    uint64_t r = 0;
    for (unsigned i = 0; i < 53; i++) {
        unsigned b = shift + i;
        unsigned bit = b <= 1200 ? (two_over_pi[b >> 5] >> (31u - (b & 31u))) & 1u : 0u;
        r = (r << 1) | bit;
    }
    int scale = -53 - (int)shift;
    if (e >= 1968) scale += 128;
    return ldexp((double)r, scale);
}

static void v_trig_preop_f64(rdna3_wave *w, const rdna3_inst *in)
{
    SRC64(0, RK_F64, A); SRC(1, RK_B32, B); VD_BEGIN;
    RDNA3_LANES(w) R[l] = bits_f64(rdna3_post_f64(w, in, trig_preop(f64_of(A[l]), B[l])));
    VD_END;
}

/* ---- division helpers (the sequence LLVM emits for correctly rounded division) ----
 * div_scale(S0, S1 = denominator, S2 = numerator) pre-scales an operand by 2^+-64 (f32) or
 * 2^+-128 (f64) when the quotient or the reciprocal would leave the normal range, and sets VCC
 * when the quotient ends up scaled; div_fmas undoes that scaling (direction from S2's
 * exponent); div_fixup handles the special values. */

/* fma(a, b, c) * 2^scale with a single rounding (div_fmas): the product and sum are formed in a
 * wider format (binary128 where the compiler has it) so that a result scaled into the denormal
 * range is not rounded twice. */
#if defined(__SIZEOF_FLOAT128__)
typedef __float128 wide_t;
#else
typedef long double wide_t;
#endif
static wide_t wide_pow2(int e)
{
    wide_t r = 1;
    wide_t f = e < 0 ? (wide_t)0.5 : (wide_t)2;
    for (int i = e < 0 ? -e : e; i > 0; i--) r *= f;
    return r;
}
static double fma_scaled(double a, double b, double c, int scale)
{
    if (!isfinite(a) || !isfinite(b) || !isfinite(c)) return ldexp(fma(a, b, c), scale);
    wide_t r = (wide_t)a * (wide_t)b + (wide_t)c;
    if (r == 0) return ldexp(fma(a, b, c), scale);   /* keeps the IEEE sign of a zero sum */
    return (double)(r * wide_pow2(scale));
}
static float fma_scaled32(float a, float b, float c, int scale)
{
    if (!isfinite(a) || !isfinite(b) || !isfinite(c)) return ldexpf(fmaf(a, b, c), scale);
    wide_t r = (wide_t)a * (wide_t)b + (wide_t)c;
    if (r == 0) return ldexpf(fmaf(a, b, c), scale);
    return (float)(r * wide_pow2(scale));
}

static int exp32(float x) { return (int)((bits_f32(x) >> 23) & 0xffu); }
static int exp64(double x) { return (int)((bits_f64(x) >> 52) & 0x7ffu); }
static bool denorm32(float x) { return x != 0.0f && exp32(x) == 0; }
static bool denorm64(double x) { return x != 0.0 && exp64(x) == 0; }

static float div_scale32(float s0, float s1, float s2, bool *vcc)
{
    *vcc = false;
    if (s2 == 0.0f || s1 == 0.0f) return NAN;
    if (exp32(s2) - exp32(s1) >= 96) {
        *vcc = true;
        return s0 == s1 ? ldexpf(s0, 64) : s0;
    }
    if (denorm32(s1)) return ldexpf(s0, 64);
    if (denorm32(1.0f / s1) && denorm32(s2 / s1)) {
        /* huge denominator and tiny quotient: scale the denominator down, the quotient up */
        *vcc = true;
        return s0 == s1 ? ldexpf(s0, -64) : s0;
    }
    if (denorm32(1.0f / s1)) return ldexpf(s0, -64);
    if (denorm32(s2 / s1)) {
        *vcc = true;
        return s0 == s2 ? ldexpf(s0, 64) : s0;
    }
    if (exp32(s2) <= 23) return ldexpf(s0, 64);
    return s0;
}

static double div_scale64(double s0, double s1, double s2, bool *vcc)
{
    *vcc = false;
    if (s2 == 0.0 || s1 == 0.0) return NAN;
    if (exp64(s2) - exp64(s1) >= 768) {
        *vcc = true;
        return s0 == s1 ? ldexp(s0, 128) : s0;
    }
    if (denorm64(s1)) return ldexp(s0, 128);
    if (denorm64(1.0 / s1) && denorm64(s2 / s1)) {
        *vcc = true;
        return s0 == s1 ? ldexp(s0, -128) : s0;
    }
    if (denorm64(1.0 / s1)) return ldexp(s0, -128);
    if (denorm64(s2 / s1)) {
        *vcc = true;
        return s0 == s2 ? ldexp(s0, 128) : s0;
    }
    if (exp64(s2) <= 53) return ldexp(s0, 128);
    return s0;
}

static void v_div_scale_f32(rdna3_wave *w, const rdna3_inst *in)
{
    SRC(0, RK_F32, A); SRC(1, RK_F32, B); SRC(2, RK_F32, C);
    uint64_t m = rdna3_exec(w), vcc = 0;
    uint32_t *D = rdna3_vreg(w, in->vdst);
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        bool v;
        D[l] = bits_f32(div_scale32(f32_of(A[l]), f32_of(B[l]), f32_of(C[l]), &v));
        vcc |= (uint64_t)v << l;
    }
    rdna3_sdst_mask(w, in->sdst, vcc);
}

static void v_div_scale_f64(rdna3_wave *w, const rdna3_inst *in)
{
    SRC64(0, RK_F64, A); SRC64(1, RK_F64, B); SRC64(2, RK_F64, C);
    uint64_t m = rdna3_exec(w), vcc = 0, R[RDNA3_MAX_LANES];
    RDNA3_LANES(w) {
        bool v;
        R[l] = bits_f64(div_scale64(f64_of(A[l]), f64_of(B[l]), f64_of(C[l]), &v));
        if (RDNA3_ON(m, l)) vcc |= (uint64_t)v << l;
    }
    rdna3_vdst64(w, in->vdst, R, m);
    rdna3_sdst_mask(w, in->sdst, vcc);
}

static void v_div_fmas_f32(rdna3_wave *w, const rdna3_inst *in)
{
    SRC(0, RK_F32, A); SRC(1, RK_F32, B); SRC(2, RK_F32, C);
    uint64_t m = rdna3_vexec(w, in), vcc = rdna3_vcc(w);
    uint32_t *D = rdna3_vreg(w, in->vdst);
    RDNA3_LANES(w) {
        float c = f32_of(C[l]);
        float r = RDNA3_ON(vcc, l) ? fma_scaled32(f32_of(A[l]), f32_of(B[l]), c, exp32(c) > 127 ? 64 : -64)
                                   : fmaf(f32_of(A[l]), f32_of(B[l]), c);
        D[l] = RDNA3_ON(m, l) ? bits_f32(r) : D[l];
    }
    rdna3_post32(w, in, D, m);
}

static void v_div_fmas_f64(rdna3_wave *w, const rdna3_inst *in)
{
    SRC64(0, RK_F64, A); SRC64(1, RK_F64, B); SRC64(2, RK_F64, C); VD_BEGIN;
    uint64_t vcc = rdna3_vcc(w);
    RDNA3_LANES(w) {
        double c = f64_of(C[l]);
        double r = RDNA3_ON(vcc, l) ? fma_scaled(f64_of(A[l]), f64_of(B[l]), c, exp64(c) > 1023 ? 128 : -128)
                                    : fma(f64_of(A[l]), f64_of(B[l]), c);
        R[l] = bits_f64(rdna3_post_f64(w, in, r));
    }
    VD_END;
}

/* div_fixup(S0 = quotient, S1 = denominator, S2 = numerator). */
static double div_fixup(double q, double d, double n, int min_exp_diff, double tiny_q)
{
    (void)tiny_q;
    bool neg = signbit(d) != signbit(n);
    if (isnan(n)) return n;
    if (isnan(d)) return d;
    if (d == 0.0 && n == 0.0) return NAN;
    if (isinf(d) && isinf(n)) return NAN;
    if (d == 0.0 || isinf(n)) return neg ? -INFINITY : INFINITY;
    if (isinf(d) || n == 0.0) return neg ? -0.0 : 0.0;
    int en, ed;
    (void)frexp(n, &en);
    (void)frexp(d, &ed);
    if (en - ed < min_exp_diff) return neg ? -0.0 : 0.0;   /* underflows to zero */
    if (isnan(q)) return neg ? -INFINITY : INFINITY;
    return neg ? -fabs(q) : fabs(q);
}

static void v_div_fixup_f32(rdna3_wave *w, const rdna3_inst *in)
{
    SRC(0, RK_F32, A); SRC(1, RK_F32, B); SRC(2, RK_F32, C);
    uint64_t m = rdna3_vexec(w, in);
    uint32_t *D = rdna3_vreg(w, in->vdst);
    RDNA3_LANES(w) {
        float n = f32_of(C[l]), d = f32_of(B[l]);
        float r;
        if (isnan(n)) r = quiet32(n);
        else if (isnan(d)) r = quiet32(d);
        else r = (float)div_fixup(f32_of(A[l]), d, n, -150, 0);
        D[l] = RDNA3_ON(m, l) ? bits_f32(r) : D[l];
    }
    rdna3_post32(w, in, D, m);
}

static void v_div_fixup_f64(rdna3_wave *w, const rdna3_inst *in)
{
    SRC64(0, RK_F64, A); SRC64(1, RK_F64, B); SRC64(2, RK_F64, C); VD_BEGIN;
    RDNA3_LANES(w) {
        double n = f64_of(C[l]), d = f64_of(B[l]), r;
        if (isnan(n)) r = quiet64(n);
        else if (isnan(d)) r = quiet64(d);
        else r = div_fixup(f64_of(A[l]), d, n, -1075, 0);
        R[l] = bits_f64(rdna3_post_f64(w, in, r));
    }
    VD_END;
}

/* ---- f16 ---- */

static inline bool dst_hi(const rdna3_inst *in)
{
    return (in->fmt == RDNA3_FMT_VOP3 || in->fmt == RDNA3_FMT_VOP3SD) && ((in->opsel >> 3) & 1u);
}
static inline uint32_t put16(uint32_t old, uint32_t v, bool hi)
{
    return hi ? (old & 0xffffu) | (v << 16) : (old & 0xffff0000u) | (v & 0xffffu);
}
static inline float h2f(uint32_t h) { return f32_from_f16(h); }

#define VH_BEGIN(n)                                                                         \
    uint64_t m = rdna3_vexec(w, in);                                                        \
    uint32_t *D = rdna3_vreg(w, in->vdst);                                                  \
    bool hi_ = dst_hi(in)

/* f16 result from a float expression of f16 sources a, b, c (floats). */
#define VOP1_F16(fn, expr)                                                                  \
    static void fn(rdna3_wave *w, const rdna3_inst *in)                                     \
    {                                                                                       \
        SRC(0, RK_F16, A); VH_BEGIN(1);                                                     \
        RDNA3_LANES(w) { if (!RDNA3_ON(m, l)) continue; float a = h2f(A[l]);                \
            D[l] = put16(D[l], rdna3_post_f16(w, in, rdna3_f16_from_f64((double)(expr), 1)), hi_); } \
    }
#define VOP2_F16(fn, expr)                                                                  \
    static void fn(rdna3_wave *w, const rdna3_inst *in)                                     \
    {                                                                                       \
        SRC(0, RK_F16, A); SRC(1, RK_F16, B); VH_BEGIN(2);                                  \
        RDNA3_LANES(w) { if (!RDNA3_ON(m, l)) continue; float a = h2f(A[l]), b = h2f(B[l]); \
            D[l] = put16(D[l], rdna3_post_f16(w, in, rdna3_f16_from_f64((double)(expr), 1)), hi_); } \
    }
#define VOP3_F16(fn, expr)                                                                  \
    static void fn(rdna3_wave *w, const rdna3_inst *in)                                     \
    {                                                                                       \
        SRC(0, RK_F16, A); SRC(1, RK_F16, B); SRC(2, RK_F16, C); VH_BEGIN(3);               \
        RDNA3_LANES(w) { if (!RDNA3_ON(m, l)) continue; float a = h2f(A[l]), b = h2f(B[l]), c = h2f(C[l]); \
            D[l] = put16(D[l], rdna3_post_f16(w, in, rdna3_f16_from_f64((double)(expr), 1)), hi_); } \
    }
/* 16-bit integer result (no float post-processing). */
#define VOP1_H2U(fn, kind, expr)                                                            \
    static void fn(rdna3_wave *w, const rdna3_inst *in)                                     \
    {                                                                                       \
        SRC(0, kind, A); VH_BEGIN(1);                                                       \
        RDNA3_LANES(w) { if (!RDNA3_ON(m, l)) continue; uint32_t a = A[l];                  \
            D[l] = put16(D[l], (uint32_t)(expr), hi_); }                                    \
    }
#define VOP2_U16(fn, expr)                                                                  \
    static void fn(rdna3_wave *w, const rdna3_inst *in)                                     \
    {                                                                                       \
        SRC(0, RK_B16, A); SRC(1, RK_B16, B); VH_BEGIN(2);                                  \
        RDNA3_LANES(w) { if (!RDNA3_ON(m, l)) continue; uint32_t a = A[l] & 0xffffu, b = B[l] & 0xffffu; \
            D[l] = put16(D[l], (uint32_t)(expr), hi_); }                                    \
    }
#define VOP3_U16(fn, expr)                                                                  \
    static void fn(rdna3_wave *w, const rdna3_inst *in)                                     \
    {                                                                                       \
        SRC(0, RK_B16, A); SRC(1, RK_B16, B); SRC(2, RK_B16, C); VH_BEGIN(3);               \
        RDNA3_LANES(w) { if (!RDNA3_ON(m, l)) continue;                                     \
            uint32_t a = A[l] & 0xffffu, b = B[l] & 0xffffu, c = C[l] & 0xffffu;            \
            D[l] = put16(D[l], (uint32_t)(expr), hi_); }                                    \
    }

static inline float fmin16(const rdna3_wave *w, float a, float b) { return rdna3_fmin32(w, a, b); }
static inline float fmax16(const rdna3_wave *w, float a, float b) { return rdna3_fmax32(w, a, b); }
static inline float fract16(float a)
{
    float f = a - floorf(a);
    return isnan(f) ? f : f < 0x1.ffcp-1f ? f : 0x1.ffcp-1f;   /* largest half below 1 */
}
static inline float sin_rev16(float a) { return isinf(a) ? NAN : (float)sin(((double)a - floor((double)a)) * 6.283185307179586); }
static inline float cos_rev16(float a) { return isinf(a) ? NAN : (float)cos(((double)a - floor((double)a)) * 6.283185307179586); }
static inline int16_t sx16(uint32_t v) { return (int16_t)(uint16_t)v; }
static inline uint32_t norm_i16(float x)
{
    if (isnan(x)) return 0;
    double v = roundeven((double)(x < -1.0f ? -1.0f : x > 1.0f ? 1.0f : x) * 32767.0);
    return (uint32_t)(int32_t)v & 0xffffu;
}
static inline uint32_t norm_u16(float x)
{
    if (isnan(x)) return 0;
    return (uint32_t)roundeven((double)(x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x) * 65535.0);
}
static inline uint32_t sat_u8(int v) { return v < 0 ? 0u : v > 255 ? 255u : (uint32_t)v; }
static inline uint32_t mn16u(uint32_t a, uint32_t b) { return a < b ? a : b; }
static inline uint32_t mx16u(uint32_t a, uint32_t b) { return a > b ? a : b; }
static inline int mn16i(int a, int b) { return a < b ? a : b; }
static inline int mx16i(int a, int b) { return a > b ? a : b; }

VOP1_F16(v_rcp_f16, 1.0 / (double)a)
VOP1_F16(v_sqrt_f16, sqrt((double)a))
VOP1_F16(v_rsq_f16, 1.0 / sqrt((double)a))
VOP1_F16(v_log_f16, log2((double)a))
VOP1_F16(v_exp_f16, exp2((double)a))
VOP1_F16(v_frexp_mant_f16, (isnan(a) || isinf(a)) ? a : frexpf(a, &(int){0}))
VOP1_F16(v_floor_f16, floorf(a))
VOP1_F16(v_ceil_f16, ceilf(a))
VOP1_F16(v_trunc_f16, truncf(a))
VOP1_F16(v_rndne_f16, roundevenf(a))
VOP1_F16(v_fract_f16, fract16(a))
VOP1_F16(v_sin_f16, sin_rev16(a))
VOP1_F16(v_cos_f16, cos_rev16(a))
VOP1_H2U(v_cvt_f16_u16, RK_B16, rdna3_f16_from_f64((double)(a & 0xffffu), 1))
VOP1_H2U(v_cvt_f16_i16, RK_B16, rdna3_f16_from_f64((double)sx16(a), 1))
VOP1_H2U(v_cvt_u16_f16, RK_F16, rdna3_cvt_u16((double)h2f(a)))
VOP1_H2U(v_cvt_i16_f16, RK_F16, (uint32_t)rdna3_cvt_i16((double)h2f(a)))
VOP1_H2U(v_frexp_exp_i16_f16, RK_F16, (uint32_t)((f16_is_nan(a) || (a & 0x7fffu) == 0x7c00u) ? 0 : frexp_exp64((double)h2f(a))))
VOP1_H2U(v_cvt_norm_i16_f16, RK_F16, norm_i16(h2f(a)))
VOP1_H2U(v_cvt_norm_u16_f16, RK_F16, norm_u16(h2f(a)))
VOP1_H2U(v_sat_pk_u8_i16, RK_B32, sat_u8(sx16(a)) | (sat_u8(sx16(a >> 16)) << 8))
VOP1_H2U(v_mov_b16, RK_B16, a)
VOP1_H2U(v_not_b16, RK_B16, ~a)

/* v_cvt_f16_f32 (f32 source, f16 result) and v_cvt_f32_f16 (f16 source, f32 result). */
static void v_cvt_f16_f32(rdna3_wave *w, const rdna3_inst *in)
{
    SRC(0, RK_F32, A); VH_BEGIN(1);
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        D[l] = put16(D[l], rdna3_post_f16(w, in, f16_from_f32(f32_of(A[l]))), hi_);
    }
}
static void v_cvt_f32_f16(rdna3_wave *w, const rdna3_inst *in)
{
    SRC(0, RK_F16, A);
    uint64_t m = rdna3_vexec(w, in);
    uint32_t *D = rdna3_vreg(w, in->vdst);
    RDNA3_LANES(w) { uint32_t r = bits_f32(h2f(A[l])); D[l] = RDNA3_ON(m, l) ? r : D[l]; }
    rdna3_post32(w, in, D, m);
}

VOP2_F16(v_add_f16, a + b)
VOP2_F16(v_sub_f16, a - b)
VOP2_F16(v_subrev_f16, b - a)
VOP2_F16(v_mul_f16, a * b)
VOP2_F16(v_max_f16, fmax16(w, a, b))
VOP2_F16(v_min_f16, fmin16(w, a, b))
/* the product of two halves is exact in double, so this sum is the fused result (no libm call) */
VOP3_F16(v_fma_f16, (double)a * (double)b + (double)c)
VOP3_F16(v_min3_f16, fmin16(w, fmin16(w, a, b), c))
VOP3_F16(v_max3_f16, fmax16(w, fmax16(w, a, b), c))
VOP3_F16(v_med3_f16, rdna3_fmed3(w, a, b, c))
VOP3_F16(v_maxmin_f16, fmin16(w, fmax16(w, a, b), c))
VOP3_F16(v_minmax_f16, fmax16(w, fmin16(w, a, b), c))
VOP3_F16(v_div_fixup_f16, isnan(c) ? c : isnan(b) ? b : (float)div_fixup(a, b, c, -25, 0))

static void v_ldexp_f16(rdna3_wave *w, const rdna3_inst *in)
{
    SRC(0, RK_F16, A); SRC(1, RK_B32, B); VH_BEGIN(2);
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        int32_t e = (int16_t)(uint16_t)B[l];   /* S1.i16 */
        e = e > 100 ? 100 : e < -100 ? -100 : e;
        D[l] = put16(D[l], rdna3_post_f16(w, in, rdna3_f16_from_f64(ldexp((double)h2f(A[l]), e), 1)), hi_);
    }
}

static void v_fmac_f16(rdna3_wave *w, const rdna3_inst *in)
{
    SRC(0, RK_F16, A); SRC(1, RK_F16, B); VH_BEGIN(2);
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        double r = fma((double)h2f(A[l]), (double)h2f(B[l]), (double)h2f(hi_ ? D[l] >> 16 : D[l]));
        D[l] = put16(D[l], rdna3_post_f16(w, in, rdna3_f16_from_f64(r, 1)), hi_);
    }
}

/* v_fmamk_f16: D = S0 * K + S1; v_fmaak_f16: D = S0 * S1 + K. */
static void fmak16(rdna3_wave *w, const rdna3_inst *in, bool mk)
{
    SRC(0, RK_F16, A); SRC(1, RK_F16, B); VH_BEGIN(2);
    double k = h2f(in->literal & 0xffffu);
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        double a = h2f(A[l]), b = h2f(B[l]);
        double r = mk ? fma(a, k, b) : fma(a, b, k);
        D[l] = put16(D[l], rdna3_post_f16(w, in, rdna3_f16_from_f64(r, 1)), hi_);
    }
}
static void v_fmamk_f16(rdna3_wave *w, const rdna3_inst *in) { fmak16(w, in, true); }
static void v_fmaak_f16(rdna3_wave *w, const rdna3_inst *in) { fmak16(w, in, false); }

/* v_pk_fmac_f16 (VOP2): both halves D = S0 * S1 + D. */
static void v_pk_fmac_f16(rdna3_wave *w, const rdna3_inst *in)
{
    SRC(0, RK_B32, A); SRC(1, RK_B32, B);
    uint64_t m = rdna3_vexec(w, in);
    uint32_t *D = rdna3_vreg(w, in->vdst);
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        uint32_t r = 0;
        for (unsigned h = 0; h < 32; h += 16) {
            double v = fma((double)h2f(A[l] >> h), (double)h2f(B[l] >> h), (double)h2f(D[l] >> h));
            r |= rdna3_f16_from_f64(v, 1) << h;
        }
        D[l] = r;
    }
}

/* v_dot2acc_f32_f16 (VOP2): D.f32 = S0.lo * S1.lo + S0.hi * S1.hi + D (exact products, one rounding). */
static void v_dot2acc_f32_f16(rdna3_wave *w, const rdna3_inst *in)
{
    SRC(0, RK_B32, A); SRC(1, RK_B32, B);
    uint64_t m = rdna3_vexec(w, in);
    uint32_t *D = rdna3_vreg(w, in->vdst);
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        double s = (double)h2f(A[l]) * h2f(B[l]) + (double)h2f(A[l] >> 16) * h2f(B[l] >> 16) + f32_of(D[l]);
        D[l] = bits_f32((float)s);
    }
    rdna3_post32(w, in, D, m);
}

/* v_cvt_pk_rtz_f16_f32: D = {rtz(S1), rtz(S0)}. */
static void v_cvt_pk_rtz_f16_f32(rdna3_wave *w, const rdna3_inst *in)
{
    SRC(0, RK_F32, A); SRC(1, RK_F32, B);
    uint64_t m = rdna3_vexec(w, in);
    uint32_t *D = rdna3_vreg(w, in->vdst);
    RDNA3_LANES(w) {
        uint32_t r = rdna3_f16_from_f64(f32_of(A[l]), 0) | (rdna3_f16_from_f64(f32_of(B[l]), 0) << 16);
        D[l] = RDNA3_ON(m, l) ? r : D[l];
    }
}

/* Two f32 sources packed into a 32-bit result of two 16-bit conversions. */
#define VOP_PK32(fn, conv)                                                                  \
    static void fn(rdna3_wave *w, const rdna3_inst *in)                                     \
    {                                                                                       \
        SRC(0, RK_F32, A); SRC(1, RK_F32, B);                                               \
        uint64_t m = rdna3_vexec(w, in);                                                    \
        uint32_t *D = rdna3_vreg(w, in->vdst);                                              \
        RDNA3_LANES(w) { uint32_t r = ((conv(f32_of(A[l]))) & 0xffffu) | ((conv(f32_of(B[l]))) << 16); \
            D[l] = RDNA3_ON(m, l) ? r : D[l]; }                                             \
    }
static inline uint32_t pk_i16(float x) { return (uint32_t)rdna3_cvt_i16((double)x) & 0xffffu; }
static inline uint32_t pk_u16(float x) { return rdna3_cvt_u16((double)x); }
VOP_PK32(v_cvt_pk_i16_f32, pk_i16)
VOP_PK32(v_cvt_pk_u16_f32, pk_u16)
VOP_PK32(v_cvt_pk_norm_i16_f32, norm_i16)
VOP_PK32(v_cvt_pk_norm_u16_f32, norm_u16)

/* Two f16 sources (with op_sel / modifiers) packed. */
#define VOP_PK16(fn, conv)                                                                  \
    static void fn(rdna3_wave *w, const rdna3_inst *in)                                     \
    {                                                                                       \
        SRC(0, RK_F16, A); SRC(1, RK_F16, B);                                               \
        uint64_t m = rdna3_vexec(w, in);                                                    \
        uint32_t *D = rdna3_vreg(w, in->vdst);                                              \
        RDNA3_LANES(w) { uint32_t r = ((conv(A[l])) & 0xffffu) | ((conv(B[l])) << 16);      \
            D[l] = RDNA3_ON(m, l) ? r : D[l]; }                                             \
    }
static inline uint32_t id16(uint32_t h) { return h & 0xffffu; }
static inline uint32_t normi_h(uint32_t h) { return norm_i16(h2f(h)); }
static inline uint32_t normu_h(uint32_t h) { return norm_u16(h2f(h)); }
VOP_PK16(v_pack_b32_f16, id16)
VOP_PK16(v_cvt_pk_norm_i16_f16, normi_h)
VOP_PK16(v_cvt_pk_norm_u16_f16, normu_h)

/* v_dot2_f16_f16: D.f16 = S0.lo*S1.lo + S0.hi*S1.hi + S2.f16. */
static void v_dot2_f16_f16(rdna3_wave *w, const rdna3_inst *in)
{
    SRC(0, RK_B32, A); SRC(1, RK_B32, B); SRC(2, RK_F16, C); VH_BEGIN(3);
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        double s = (double)h2f(A[l]) * h2f(B[l]) + (double)h2f(A[l] >> 16) * h2f(B[l] >> 16) + h2f(C[l]);
        D[l] = put16(D[l], rdna3_post_f16(w, in, rdna3_f16_from_f64(s, 1)), hi_);
    }
}

/* v_dot2_bf16_bf16: D.bf16 = S0.lo*S1.lo + S0.hi*S1.hi + S2.bf16, as v_dot2_f16_f16: the products
 * are exact in double, the sum rounded once (to nearest even). */
static inline double bf2d(uint32_t h) { return (double)f32_of((h & 0xffffu) << 16); }
static void v_dot2_bf16_bf16(rdna3_wave *w, const rdna3_inst *in)
{
    SRC(0, RK_B32, A); SRC(1, RK_B32, B); SRC(2, RK_F16, C); VH_BEGIN(3);
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        double s = bf2d(A[l]) * bf2d(B[l]) + bf2d(A[l] >> 16) * bf2d(B[l] >> 16) + bf2d(C[l]);
        D[l] = put16(D[l], rdna3_bf16_from_f64(s), hi_);
    }
}

/* 16-bit integer ops. */
VOP2_U16(v_add_nc_u16, in->clamp ? mn16u(a + b, 0xffffu) : a + b)
VOP2_U16(v_sub_nc_u16, in->clamp ? (a > b ? a - b : 0) : a - b)
VOP2_U16(v_mul_lo_u16, a * b)
VOP2_U16(v_max_u16, mx16u(a, b))
VOP2_U16(v_max_i16, mx16i(sx16(a), sx16(b)))
VOP2_U16(v_min_u16, mn16u(a, b))
VOP2_U16(v_min_i16, mn16i(sx16(a), sx16(b)))
VOP2_U16(v_add_nc_i16, in->clamp ? mx16i(mn16i(sx16(a) + sx16(b), 32767), -32768) : (int)(a + b))
VOP2_U16(v_sub_nc_i16, in->clamp ? mx16i(mn16i(sx16(a) - sx16(b), 32767), -32768) : (int)(a - b))
VOP2_U16(v_lshlrev_b16, b << (a & 15u))
VOP2_U16(v_lshrrev_b16, b >> (a & 15u))
VOP2_U16(v_ashrrev_i16, (uint32_t)(sx16(b) >> (a & 15u)))
VOP2_U16(v_and_b16, a & b)
VOP2_U16(v_or_b16, a | b)
VOP2_U16(v_xor_b16, a ^ b)
VOP3_U16(v_mad_u16, a * b + c)
VOP3_U16(v_mad_i16, (uint32_t)(sx16(a) * sx16(b) + sx16(c)))
VOP3_U16(v_min3_i16, mn16i(mn16i(sx16(a), sx16(b)), sx16(c)))
VOP3_U16(v_min3_u16, mn16u(mn16u(a, b), c))
VOP3_U16(v_max3_i16, mx16i(mx16i(sx16(a), sx16(b)), sx16(c)))
VOP3_U16(v_max3_u16, mx16u(mx16u(a, b), c))
VOP3_U16(v_med3_i16, mx16i(mn16i(sx16(a), sx16(b)), mn16i(mx16i(sx16(a), sx16(b)), sx16(c))))
VOP3_U16(v_med3_u16, mx16u(mn16u(a, b), mn16u(mx16u(a, b), c)))

/* v_cndmask_b16 (VOP3): S2 is the lane mask. */
static void v_cndmask_b16(rdna3_wave *w, const rdna3_inst *in)
{
    SRC(0, RK_F16, A); SRC(1, RK_F16, B); VH_BEGIN(2);
    uint64_t sel = rdna3_ssrc_mask(w, in, in->src[2]);
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        D[l] = put16(D[l], RDNA3_ON(sel, l) ? B[l] : A[l], hi_);
    }
}

rdna3_exec_fn rdna3_valu_fp_handler(unsigned op)
{
    static const rdna3_exec_fn t[1024] = {
        /* VOP2 (256 + op) */
        [0x102] = v_dot2acc_f32_f16, [0x12f] = v_cvt_pk_rtz_f16_f32, [0x132] = v_add_f16, [0x133] = v_sub_f16,
        [0x134] = v_subrev_f16, [0x135] = v_mul_f16, [0x136] = v_fmac_f16, [0x137] = v_fmamk_f16,
        [0x138] = v_fmaak_f16, [0x139] = v_max_f16, [0x13a] = v_min_f16, [0x13b] = v_ldexp_f16,
        [0x13c] = v_pk_fmac_f16,
        /* VOP1 (384 + op) */
        [0x183] = v_cvt_i32_f64, [0x184] = v_cvt_f64_i32, [0x18a] = v_cvt_f16_f32, [0x18b] = v_cvt_f32_f16,
        [0x18f] = v_cvt_f32_f64, [0x190] = v_cvt_f64_f32, [0x195] = v_cvt_u32_f64, [0x196] = v_cvt_f64_u32,
        [0x197] = v_trunc_f64, [0x198] = v_ceil_f64, [0x199] = v_rndne_f64, [0x19a] = v_floor_f64,
        [0x19c] = v_mov_b16, [0x1af] = v_rcp_f64, [0x1b1] = v_rsq_f64, [0x1b4] = v_sqrt_f64,
        [0x1bc] = v_frexp_exp_i32_f64, [0x1bd] = v_frexp_mant_f64, [0x1be] = v_fract_f64,
        [0x1d0] = v_cvt_f16_u16, [0x1d1] = v_cvt_f16_i16, [0x1d2] = v_cvt_u16_f16, [0x1d3] = v_cvt_i16_f16,
        [0x1d4] = v_rcp_f16, [0x1d5] = v_sqrt_f16, [0x1d6] = v_rsq_f16, [0x1d7] = v_log_f16,
        [0x1d8] = v_exp_f16, [0x1d9] = v_frexp_mant_f16, [0x1da] = v_frexp_exp_i16_f16,
        [0x1db] = v_floor_f16, [0x1dc] = v_ceil_f16, [0x1dd] = v_trunc_f16, [0x1de] = v_rndne_f16,
        [0x1df] = v_fract_f16, [0x1e0] = v_sin_f16, [0x1e1] = v_cos_f16, [0x1e2] = v_sat_pk_u8_i16,
        [0x1e3] = v_cvt_norm_i16_f16, [0x1e4] = v_cvt_norm_u16_f16, [0x1e9] = v_not_b16,
        /* VOP3 */
        [0x214] = v_fma_f64, [0x227] = v_div_fixup_f32, [0x228] = v_div_fixup_f64,
        [0x237] = v_div_fmas_f32, [0x238] = v_div_fmas_f64, [0x241] = v_mad_u16, [0x248] = v_fma_f16,
        [0x249] = v_min3_f16, [0x24a] = v_min3_i16, [0x24b] = v_min3_u16, [0x24c] = v_max3_f16,
        [0x24d] = v_max3_i16, [0x24e] = v_max3_u16, [0x24f] = v_med3_f16, [0x250] = v_med3_i16,
        [0x251] = v_med3_u16, [0x253] = v_mad_i16, [0x254] = v_div_fixup_f16, [0x25d] = v_cndmask_b16,
        [0x260] = v_maxmin_f16, [0x261] = v_minmax_f16, [0x266] = v_dot2_f16_f16, [0x267] = v_dot2_bf16_bf16,
        [0x2fc] = v_div_scale_f32, [0x2fd] = v_div_scale_f64,
        [0x303] = v_add_nc_u16, [0x304] = v_sub_nc_u16, [0x305] = v_mul_lo_u16, [0x306] = v_cvt_pk_i16_f32,
        [0x307] = v_cvt_pk_u16_f32, [0x309] = v_max_u16, [0x30a] = v_max_i16, [0x30b] = v_min_u16,
        [0x30c] = v_min_i16, [0x30d] = v_add_nc_i16, [0x30e] = v_sub_nc_i16, [0x311] = v_pack_b32_f16,
        [0x312] = v_cvt_pk_norm_i16_f16, [0x313] = v_cvt_pk_norm_u16_f16, [0x321] = v_cvt_pk_norm_i16_f32,
        [0x322] = v_cvt_pk_norm_u16_f32, [0x327] = v_add_f64, [0x328] = v_mul_f64, [0x329] = v_min_f64,
        [0x32a] = v_max_f64, [0x32b] = v_ldexp_f64, [0x32f] = v_trig_preop_f64, [0x338] = v_lshlrev_b16, [0x339] = v_lshrrev_b16,
        [0x33a] = v_ashrrev_i16, [0x362] = v_and_b16, [0x363] = v_or_b16, [0x364] = v_xor_b16,
    };
    return op < 1024 ? t[op] : NULL;
}
