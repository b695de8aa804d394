/* F (single precision) and the FP32 vector instructions with exact RISC-V semantics:
 * rounding modes (static rm or dynamic frm), canonical NaN results, fflags.
 *
 * The arithmetic runs on the host's IEEE single precision under the requested rounding mode
 * (C fenv), and the host exception flags become fflags; one clear/test pair per instruction,
 * not per lane. Only active lanes are computed so that inactive ones raise no flags.
 * Round-to-nearest-ties-to-max-magnitude (RMM) has no C rounding mode: those operations are
 * computed in long double (exact for add/sub/mul, far more precise than a float tie for div
 * and sqrt) and rounded to float by hand. Known limit: an fma under RMM whose product lies
 * exactly on a float midpoint while the addend is below 2^-64 of it rounds as a tie.
 * min/max, compares, sign injection, classify and float->int conversions follow the RISC-V
 * rules explicitly (the host instructions differ there).
 */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "isa/ventus/ventus_isa.h"

/* The rounding mode and exception flags are program state here. */
#if defined(__clang__)
#pragma STDC FENV_ACCESS ON
#elif defined(__GNUC__)
#pragma GCC optimize("rounding-math", "signaling-nans")
#endif

#define CANON_NAN 0x7fc00000u
enum { FX_NX = 1, FX_UF = 2, FX_OF = 4, FX_DZ = 8, FX_NV = 16 };
enum { RM_RNE = 0, RM_RTZ = 1, RM_RDN = 2, RM_RUP = 3, RM_RMM = 4 };

static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint32_t canon(float f) { return f != f ? CANON_NAN : f2u(f); }
static inline bool is_nan_u(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
static inline bool is_snan_u(uint32_t u) { return is_nan_u(u) && !(u & 0x00400000u); }

static uint32_t host_flags_to_rv(int e)
{
    uint32_t f = 0;
    if (e & FE_INEXACT) f |= FX_NX;
    if (e & FE_UNDERFLOW) f |= FX_UF;
    if (e & FE_OVERFLOW) f |= FX_OF;
    if (e & FE_DIVBYZERO) f |= FX_DZ;
    if (e & FE_INVALID) f |= FX_NV;
    return f;
}


/* Resolve the rounding mode (7 = dynamic frm); reserved modes are illegal. */
static bool fp_rm(vt_warp *w, const vt_insn *in, unsigned field, int *rm)
{
    /* The golden model also requires mstatus.FS != 0 (the crt sets it); umbra runs FP code
     * without the crt too (hand-written kernels), so FS only controls the x->f mirroring. */
    unsigned r = field == 7 ? w->frm : field;
    if (r > 4) {
        vt_fault(w, in, UMB_ERR_GUEST_FAULT, -1, 0, "illegal instruction: rounding mode %u", r);
        return false;
    }
    *rm = (int)r;
    return true;
}

#if defined(__x86_64__) && defined(__SSE__)
/* x86-64 fast path: the SSE control/status register (MXCSR) holds both the rounding mode and
 * the sticky flags of the float arithmetic used here; reading it is cheap, and it is written
 * only when flags were raised or the rounding mode changes. The x87 unit is used only by the
 * RMM path, whose flags rmm_round computes itself (and fetestexcept covers there). */
#include <xmmintrin.h>
static const unsigned mx_rc[4] = { 0u << 13, 3u << 13, 1u << 13, 2u << 13 };

/* MXCSR exception bits (IE, DE, ZE, OE, UE, PE) -> fflags; the denormal-operand flag has no
 * RISC-V counterpart. */
#define MXF(c) (uint8_t)(((c) & 0x01 ? FX_NV : 0) | ((c) & 0x04 ? FX_DZ : 0) | ((c) & 0x08 ? FX_OF : 0) | \
                         ((c) & 0x10 ? FX_UF : 0) | ((c) & 0x20 ? FX_NX : 0))
#define MXF8(b) MXF(b), MXF(b + 1), MXF(b + 2), MXF(b + 3), MXF(b + 4), MXF(b + 5), MXF(b + 6), MXF(b + 7)
static const uint8_t mx_flags[64] = {
    MXF8(0), MXF8(8), MXF8(16), MXF8(24), MXF8(32), MXF8(40), MXF8(48), MXF8(56),
};

/* The compiler does not order float arithmetic against the MXCSR accesses by itself: the
 * barriers keep operand loads after fp_begin and result stores before fp_end, and results kept
 * in registers go through fp_result (an empty volatile asm, ordered like the MXCSR ones). */
static inline void fp_begin(int rm)
{
    unsigned csr = _mm_getcsr();
    unsigned want = (csr & ~(0x3fu | 0x6000u)) | (rm >= RM_RTZ && rm <= RM_RUP ? mx_rc[rm] : 0u);
    if (csr != want) _mm_setcsr(want);
    if (__builtin_expect(rm == RM_RMM, 0)) feclearexcept(FE_ALL_EXCEPT);
    __asm__ volatile("" ::: "memory");
}

/* Leaves MXCSR as fp_begin(RM_RNE) wants it (no flags, nearest), so that a run of FP
 * instructions under RNE writes it only when one raised a flag. */
static inline void fp_end(vt_warp *w, int rm, uint32_t extra)
{
    __asm__ volatile("" ::: "memory");
    unsigned csr = _mm_getcsr();
    uint32_t f = extra | mx_flags[csr & 0x3fu];
    if (__builtin_expect(rm == RM_RMM, 0)) f |= host_flags_to_rv(fetestexcept(FE_INVALID | FE_DIVBYZERO));
    if (csr & (0x3fu | 0x6000u)) _mm_setcsr(csr & ~(0x3fu | 0x6000u));
    w->fexc |= f;
    w->fflags |= f;
    vt_mark_fs_dirty(w);
}
#else
static const int host_rm[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

static void fp_begin(int rm)
{
    if (rm >= RM_RTZ && rm <= RM_RUP) fesetround(host_rm[rm]);
    feclearexcept(FE_ALL_EXCEPT);
    __asm__ volatile("" ::: "memory");
}

static void fp_end(vt_warp *w, int rm, uint32_t extra)
{
    __asm__ volatile("" ::: "memory");
    uint32_t f = host_flags_to_rv(fetestexcept(FE_ALL_EXCEPT)) | extra;
    if (rm >= RM_RTZ && rm <= RM_RUP) fesetround(FE_TONEAREST);
    w->fexc |= f;
    w->fflags |= f;
    vt_mark_fs_dirty(w);
}
#endif

/* A result computed between fp_begin and fp_end, forced to exist before fp_end reads the flags. */
static inline uint32_t fp_result(uint32_t r)
{
    __asm__ volatile("" : "+r"(r));
    return r;
}

/* Round a long double to float, ties away from zero. Invalid and divide-by-zero come from the
 * long double operation itself; NX/OF/UF are computed here. */
static float rmm_round(long double x, uint32_t *flags)
{
    if (x != x) return u2f(CANON_NAN);
    if (isinf(x)) return (float)x;
    fesetround(FE_TOWARDZERO);
    float t = (float)x;
    fesetround(FE_TONEAREST);
    float away = nextafterf(t, x > 0 ? INFINITY : -INFINITY);
    feclearexcept(FE_INEXACT | FE_UNDERFLOW | FE_OVERFLOW);
    if ((long double)t == x) return t;
    long double mid = ((long double)t + (long double)away) / 2;
    float r = fabsl(x) >= fabsl(mid) ? away : t;
    uint32_t f = FX_NX;
    if (isinf(r)) f |= FX_OF;
    if (fabsf(r) < FLT_MIN) f |= FX_UF;
    *flags |= f;
    return r;
}

/* ---- operations: the float form (host rounding) and the wide form (for RMM) ---- */
#define FOP(nm, expr, wexpr) \
    static inline float op_##nm(float a, float b, float c) { (void)c; return expr; } \
    static inline long double wop_##nm(float a, float b, float c) { (void)c; return wexpr; }
FOP(add, a + b, (long double)a + b)
FOP(sub, a - b, (long double)a - b)
FOP(mul, a * b, (long double)a * b)
FOP(div, a / b, (long double)a / b)
FOP(sqrt, sqrtf(a), sqrtl((long double)a))
FOP(fma, fmaf(a, b, c), (long double)a * b + c)

typedef float (*fop_fn)(float, float, float);
typedef long double (*wop_fn)(float, float, float);

static inline uint32_t do_op(fop_fn op, wop_fn wop, int rm, float a, float b, float c, uint32_t *extra)
{
    if (rm == RM_RMM) return canon(rmm_round(wop(a, b, c), extra));
    return canon(op(a, b, c));
}

/* ---- scalar F ---- */
#define FREG(r) u2f(w->f[(r)])

#define SCALAR3(id, opn, A, B, C) \
    void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        int rm; \
        if (!fp_rm(w, in, in->rm, &rm)) return; \
        uint32_t extra = 0; \
        fp_begin(rm); \
        uint32_t r = fp_result(do_op(op_##opn, wop_##opn, rm, A, B, C, &extra)); \
        fp_end(w, rm, extra); \
        vt_wf(w, in, r); \
    }
SCALAR3(fadd_s, add, FREG(in->rs1), FREG(in->rs2), 0.0f)
SCALAR3(fsub_s, sub, FREG(in->rs1), FREG(in->rs2), 0.0f)
SCALAR3(fmul_s, mul, FREG(in->rs1), FREG(in->rs2), 0.0f)
SCALAR3(fdiv_s, div, FREG(in->rs1), FREG(in->rs2), 0.0f)
SCALAR3(fsqrt_s, sqrt, FREG(in->rs1), 0.0f, 0.0f)
SCALAR3(fmadd_s, fma, FREG(in->rs1), FREG(in->rs2), FREG(in->rs3))
SCALAR3(fmsub_s, fma, FREG(in->rs1), FREG(in->rs2), -FREG(in->rs3))
SCALAR3(fnmsub_s, fma, -FREG(in->rs1), FREG(in->rs2), FREG(in->rs3))
SCALAR3(fnmadd_s, fma, -FREG(in->rs1), FREG(in->rs2), -FREG(in->rs3))

static inline uint32_t sgnj(uint32_t a, uint32_t b, int kind)
{
    uint32_t s = kind == 0 ? b : kind == 1 ? ~b : (a ^ b);
    return (a & 0x7fffffffu) | (s & 0x80000000u);
}

/* RISC-V fmin/fmax: a NaN operand yields the other one, two NaNs the canonical NaN, signaling
 * NaNs raise NV, and -0 is below +0. */
static inline uint32_t fminmax(uint32_t a, uint32_t b, bool is_max, uint32_t *flags)
{
    if (is_snan_u(a) || is_snan_u(b)) *flags |= FX_NV;
    bool na = is_nan_u(a), nb = is_nan_u(b);
    if (na && nb) return CANON_NAN;
    if (na) return b;
    if (nb) return a;
    float fa = u2f(a), fb = u2f(b);
    if (fa == fb) {   /* equal, or +0 / -0 */
        bool a_neg = a >> 31;
        return is_max ? (a_neg ? b : a) : (a_neg ? a : b);
    }
    return (fa < fb) == !is_max ? a : b;
}

/* Compares: kind 0 eq (quiet), 1 lt, 2 le (signaling), 3 ne (quiet), 4 gt, 5 ge. */
static inline uint32_t fcmp(uint32_t a, uint32_t b, int kind, uint32_t *flags)
{
    bool na = is_nan_u(a), nb = is_nan_u(b);
    if (na || nb) {
        bool quiet = kind == 0 || kind == 3;
        if (!quiet || is_snan_u(a) || is_snan_u(b)) *flags |= FX_NV;
        return kind == 3;
    }
    float fa = u2f(a), fb = u2f(b);
    switch (kind) {
    case 0: return fa == fb;
    case 1: return fa < fb;
    case 2: return fa <= fb;
    case 3: return fa != fb;
    case 4: return fa > fb;
    default: return fa >= fb;
    }
}

static inline uint32_t fclass(uint32_t u)
{
    bool neg = u >> 31;
    uint32_t e = (u >> 23) & 0xff, m = u & 0x7fffffu;
    if (e == 0xff) {
        if (m == 0) return neg ? 1u << 0 : 1u << 7;
        return (m & 0x400000u) ? 1u << 9 : 1u << 8;
    }
    if (e == 0) {
        if (m == 0) return neg ? 1u << 3 : 1u << 4;
        return neg ? 1u << 2 : 1u << 5;
    }
    return neg ? 1u << 1 : 1u << 6;
}

/* float -> int32/uint32 with RISC-V saturation. */
static inline float round_int(float a, int rm)
{
    switch (rm) {
    case RM_RTZ: return truncf(a);
    case RM_RDN: return floorf(a);
    case RM_RUP: return ceilf(a);
    case RM_RMM: return roundf(a);
    default: return nearbyintf(a);
    }
}
static inline uint32_t cvt_f2i(uint32_t u, int rm, bool is_unsigned, uint32_t *flags)
{
    if (is_nan_u(u)) { *flags |= FX_NV; return is_unsigned ? 0xffffffffu : 0x7fffffffu; }
    float a = u2f(u), r = round_int(a, rm);
    if (is_unsigned) {
        if (r < 0.0f) { *flags |= FX_NV; return 0; }
        if (r >= 4294967296.0f) { *flags |= FX_NV; return 0xffffffffu; }
        if (r != a) *flags |= FX_NX;
        return (uint32_t)r;
    }
    if (r < -2147483648.0f) { *flags |= FX_NV; return 0x80000000u; }
    if (r >= 2147483648.0f) { *flags |= FX_NV; return 0x7fffffffu; }
    if (r != a) *flags |= FX_NX;
    return (uint32_t)(int32_t)r;
}
/* int -> float under rm (host conversion, or by hand for RMM); call between fp_begin/fp_end. */
static inline uint32_t cvt_i2f(uint32_t v, bool is_unsigned, int rm, uint32_t *flags)
{
    long double x = is_unsigned ? (long double)v : (long double)(int32_t)v;
    if (rm == RM_RMM) return f2u(rmm_round(x, flags));
    return f2u(is_unsigned ? (float)v : (float)(int32_t)v);
}

#define SIMPLE_F(id, body) \
    void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        int rm; \
        if (!fp_rm(w, in, 0, &rm)) return; \
        uint32_t a = w->f[in->rs1], b = w->f[in->rs2], fl = 0; \
        (void)a; (void)b; \
        body; \
        if (fl) { w->fexc |= fl; w->fflags |= fl; } \
        vt_mark_fs_dirty(w); \
    }
SIMPLE_F(fsgnj_s, vt_wf(w, in, sgnj(a, b, 0)))
SIMPLE_F(fsgnjn_s, vt_wf(w, in, sgnj(a, b, 1)))
SIMPLE_F(fsgnjx_s, vt_wf(w, in, sgnj(a, b, 2)))
SIMPLE_F(fmin_s, vt_wf(w, in, fminmax(a, b, false, &fl)))
SIMPLE_F(fmax_s, vt_wf(w, in, fminmax(a, b, true, &fl)))
SIMPLE_F(feq_s, vt_wx(w, in, fcmp(a, b, 0, &fl)))
SIMPLE_F(flt_s, vt_wx(w, in, fcmp(a, b, 1, &fl)))
SIMPLE_F(fle_s, vt_wx(w, in, fcmp(a, b, 2, &fl)))
SIMPLE_F(fclass_s, vt_wx(w, in, fclass(a)))
SIMPLE_F(fmv_x_w, vt_wx(w, in, a))

void vt_x_fmv_w_x(vt_warp *w, const vt_insn *in)
{
    int rm;
    if (!fp_rm(w, in, 0, &rm)) return;
    vt_wf(w, in, w->x[in->rs1]);
    vt_mark_fs_dirty(w);
}

#define CVT_F2I(id, uns) \
    void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        int rm; \
        if (!fp_rm(w, in, in->rm, &rm)) return; \
        uint32_t fl = 0, r = cvt_f2i(w->f[in->rs1], rm, uns, &fl); \
        w->fexc |= fl; w->fflags |= fl; \
        vt_mark_fs_dirty(w); \
        vt_wx(w, in, r); \
    }
CVT_F2I(fcvt_w_s, false)
CVT_F2I(fcvt_wu_s, true)

#define CVT_I2F(id, uns) \
    void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        int rm; \
        if (!fp_rm(w, in, in->rm, &rm)) return; \
        uint32_t fl = 0; \
        fp_begin(rm); \
        uint32_t r = fp_result(cvt_i2f(w->x[in->rs1], uns, rm, &fl)); \
        fp_end(w, rm, fl); \
        vt_wf(w, in, r); \
    }
CVT_I2F(fcvt_s_w, false)
CVT_I2F(fcvt_s_wu, true)

void vt_x_flw(vt_warp *w, const vt_insn *in)
{
    int rm;
    if (!fp_rm(w, in, 0, &rm)) return;
    uint32_t a = w->x[in->rs1] + (uint32_t)in->imm, v;
    w->maddr[0] = a;
    if (!vt_load(w, in, -1, a, 4, &v)) return;
    umb_count_mem(w->stats, vt_space_for(a), 0, 1, 4);
    vt_wf(w, in, v);
    vt_mark_fs_dirty(w);
}

void vt_x_fsw(vt_warp *w, const vt_insn *in)
{
    int rm;
    if (!fp_rm(w, in, 0, &rm)) return;
    uint32_t a = w->x[in->rs1] + (uint32_t)in->imm;
    w->maddr[0] = a;
    if (vt_store(w, in, -1, a, 4, w->f[in->rs2])) umb_count_mem(w->stats, vt_space_for(a), 1, 1, 4);
}

/* ---- vector FP: lane loops over the active lanes ---- */

/* For each active lane i: a = vs2[i]; b = vs1[i] or the scalar f[rs1]; c = accumulator. */
#define VLANES(m, ...) \
    for (uint32_t mm = (m); mm; mm &= mm - 1) { unsigned i = (unsigned)__builtin_ctz(mm); __VA_ARGS__; }

#define VFP_ARITH(id, opn, SRC_B, A, B, C) \
    void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        int rm; \
        if (!fp_rm(w, in, 7, &rm)) return; \
        uint32_t m = vt_emask(w, in), extra = 0; \
        uint32_t *d = w->v[in->rd]; \
        const uint32_t *s2 = w->v[in->rs2], *s1 = w->v[in->rs1], *acc = w->v[in->rs3]; \
        uint32_t fs = w->f[in->rs1]; \
        (void)s1; (void)fs; (void)acc; \
        fp_begin(rm); \
        if (rm == RM_RMM) { \
            VLANES(m, { uint32_t bb = SRC_B; (void)bb; \
                        d[i] = canon(rmm_round(wop_##opn(A, B, C), &extra)); }) \
        } else { \
            VLANES(m, { uint32_t bb = SRC_B; (void)bb; d[i] = canon(op_##opn(A, B, C)); }) \
        } \
        fp_end(w, rm, extra); \
    }

/* add/sub/mul/div under a host rounding mode: every lane in one plain loop the compiler
 * vectorises (packed SSE arithmetic sets the same MXCSR flags as the scalar one, element by
 * element). Inactive lanes compute 1.0 op 1.0, exact in every rounding mode and for every
 * operation here, so they raise no flag; their results are dropped by the masked store.
 * NaN results become the canonical NaN. RMM keeps the per-lane wide path. */
#define FP_ONE 0x3f800000u
#define FP_LANES(opn, SRC_B, SWAP, ON) \
    for (uint32_t i = 0; i < VT_MAX_LANES; i++) { \
        uint32_t on = (ON); \
        float x = u2f((s2[i] & on) | (FP_ONE & ~on)), y = u2f(((SRC_B) & on) | (FP_ONE & ~on)); \
        uint32_t r = f2u(SWAP ? op_##opn(y, x, 0.0f) : op_##opn(x, y, 0.0f)); \
        r_[i] = is_nan_u(r) ? CANON_NAN : r; \
    }
#define VFP_FAST(id, opn, SRC_B, SWAP) \
    VT_LANE_FN void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        int rm; \
        if (!fp_rm(w, in, 7, &rm)) return; \
        uint32_t m = vt_emask(w, in), extra = 0; \
        uint32_t *d = w->v[in->rd]; \
        const uint32_t *s2 = w->v[in->rs2], *s1 = w->v[in->rs1]; \
        uint32_t fs = w->f[in->rs1]; \
        (void)s1; (void)fs; \
        fp_begin(rm); \
        if (__builtin_expect(rm == RM_RMM, 0)) { \
            VLANES(m, { uint32_t bb = SRC_B; float x = u2f(s2[i]), y = u2f(bb); \
                        d[i] = canon(rmm_round(SWAP ? wop_##opn(y, x, 0.0f) : wop_##opn(x, y, 0.0f), &extra)); }) \
        } else { \
            uint32_t r_[VT_MAX_LANES]; \
            if (m == 0xffffffffu) { \
                FP_LANES(opn, SRC_B, SWAP, ~0u); \
                memcpy(d, r_, sizeof r_); \
            } else { \
                FP_LANES(opn, SRC_B, SWAP, -(uint32_t)((m & vt_lane_bit[i]) != 0)); \
                vt_lane_store(d, r_, m); \
            } \
        } \
        fp_end(w, rm, extra); \
    }
VFP_FAST(vfadd_vv, add, s1[i], 0)
VFP_FAST(vfadd_vf, add, fs, 0)
VFP_FAST(vfsub_vv, sub, s1[i], 0)
VFP_FAST(vfsub_vf, sub, fs, 0)
VFP_FAST(vfrsub_vf, sub, fs, 1)
VFP_FAST(vfmul_vv, mul, s1[i], 0)
VFP_FAST(vfmul_vf, mul, fs, 0)
VFP_FAST(vfdiv_vv, div, s1[i], 0)
VFP_FAST(vfdiv_vf, div, fs, 0)
VFP_FAST(vfrdiv_vf, div, fs, 1)

#define VV_B s1[i]
#define VF_B fs
#define fa u2f(s2[i])
#define fb u2f(bb)
#define fd u2f(acc[i])
VFP_ARITH(vfsqrt_v, sqrt, 0u, fa, 0.0f, 0.0f)
/* multiply-add: vfmadd vd = vd*vs1 + vs2; vfmacc vd = vs1*vs2 + vd (vd read as rs3) */
VFP_ARITH(vfmadd_vv, fma, VV_B, fd, fb, fa)
VFP_ARITH(vfmadd_vf, fma, VF_B, fd, fb, fa)
VFP_ARITH(vfnmadd_vv, fma, VV_B, -fd, fb, -fa)
VFP_ARITH(vfnmadd_vf, fma, VF_B, -fd, fb, -fa)
VFP_ARITH(vfmsub_vv, fma, VV_B, fd, fb, -fa)
VFP_ARITH(vfmsub_vf, fma, VF_B, fd, fb, -fa)
VFP_ARITH(vfnmsub_vv, fma, VV_B, -fd, fb, fa)
VFP_ARITH(vfnmsub_vf, fma, VF_B, -fd, fb, fa)
VFP_ARITH(vfmacc_vv, fma, VV_B, fb, fa, fd)
VFP_ARITH(vfmacc_vf, fma, VF_B, fb, fa, fd)
VFP_ARITH(vfnmacc_vv, fma, VV_B, -fb, fa, -fd)
VFP_ARITH(vfnmacc_vf, fma, VF_B, -fb, fa, -fd)
VFP_ARITH(vfmsac_vv, fma, VV_B, fb, fa, -fd)
VFP_ARITH(vfmsac_vf, fma, VF_B, fb, fa, -fd)
VFP_ARITH(vfnmsac_vv, fma, VV_B, -fb, fa, fd)
VFP_ARITH(vfnmsac_vf, fma, VF_B, -fb, fa, fd)
#undef fa
#undef fb
#undef fd
#undef VV_B
#undef VF_B

/* Bitwise/compare lane ops: no host arithmetic, flags computed by hand. */
#define VFP_BITS(id, SRC_B, expr) \
    void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        int rm; \
        if (!fp_rm(w, in, 0, &rm)) return; \
        uint32_t m = vt_emask(w, in), fl = 0; \
        uint32_t *d = w->v[in->rd]; \
        const uint32_t *s2 = w->v[in->rs2], *s1 = w->v[in->rs1]; \
        uint32_t fs = w->f[in->rs1]; \
        (void)s1; (void)fs; \
        VLANES(m, { uint32_t a = s2[i], b = SRC_B; (void)b; d[i] = (expr); }) \
        if (fl) { w->fexc |= fl; w->fflags |= fl; } \
        vt_mark_fs_dirty(w); \
    }
VFP_BITS(vfmin_vv, s1[i], fminmax(a, b, false, &fl))
VFP_BITS(vfmin_vf, fs, fminmax(a, b, false, &fl))
VFP_BITS(vfmax_vv, s1[i], fminmax(a, b, true, &fl))
VFP_BITS(vfmax_vf, fs, fminmax(a, b, true, &fl))
VFP_BITS(vfsgnj_vv, s1[i], sgnj(a, b, 0))
VFP_BITS(vfsgnj_vf, fs, sgnj(a, b, 0))
VFP_BITS(vfsgnjn_vv, s1[i], sgnj(a, b, 1))
VFP_BITS(vfsgnjn_vf, fs, sgnj(a, b, 1))
VFP_BITS(vfsgnjx_vv, s1[i], sgnj(a, b, 2))
VFP_BITS(vfsgnjx_vf, fs, sgnj(a, b, 2))
/* Compares write 0/1 into each thread's own element (spec §1). */
VFP_BITS(vmfeq_vv, s1[i], fcmp(a, b, 0, &fl))
VFP_BITS(vmfeq_vf, fs, fcmp(a, b, 0, &fl))
VFP_BITS(vmflt_vv, s1[i], fcmp(a, b, 1, &fl))
VFP_BITS(vmflt_vf, fs, fcmp(a, b, 1, &fl))
VFP_BITS(vmfle_vv, s1[i], fcmp(a, b, 2, &fl))
VFP_BITS(vmfle_vf, fs, fcmp(a, b, 2, &fl))
VFP_BITS(vmfne_vv, s1[i], fcmp(a, b, 3, &fl))
VFP_BITS(vmfne_vf, fs, fcmp(a, b, 3, &fl))
VFP_BITS(vmfgt_vf, fs, fcmp(a, b, 4, &fl))
VFP_BITS(vmfge_vf, fs, fcmp(a, b, 5, &fl))
VFP_BITS(vfclass_v, 0u, fclass(a))
VFP_BITS(vfcvt_xu_f_v, 0u, cvt_f2i(a, (int)(w->frm > 4 ? 0 : w->frm), true, &fl))
VFP_BITS(vfcvt_x_f_v, 0u, cvt_f2i(a, (int)(w->frm > 4 ? 0 : w->frm), false, &fl))
VFP_BITS(vfcvt_rtz_xu_f_v, 0u, cvt_f2i(a, RM_RTZ, true, &fl))
VFP_BITS(vfcvt_rtz_x_f_v, 0u, cvt_f2i(a, RM_RTZ, false, &fl))

#define VCVT_I2F(id, uns) \
    void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        int rm; \
        if (!fp_rm(w, in, 7, &rm)) return; \
        uint32_t m = vt_emask(w, in), fl = 0; \
        uint32_t *d = w->v[in->rd]; \
        const uint32_t *s2 = w->v[in->rs2]; \
        fp_begin(rm); \
        VLANES(m, { d[i] = cvt_i2f(s2[i], uns, rm, &fl); }) \
        fp_end(w, rm, fl); \
    }
VCVT_I2F(vfcvt_f_xu_v, true)
VCVT_I2F(vfcvt_f_x_v, false)

void vt_x_vfmv_v_f(vt_warp *w, const vt_insn *in)
{
    int rm;
    if (!fp_rm(w, in, 0, &rm)) return;
    uint32_t m = vt_emask(w, in), s = w->f[in->rs1], *d = w->v[in->rd];
    VLANES(m, { d[i] = s; })
}

/* vfmv.s.f behaves like vfmv.v.f (as vmv.s.x like vmv.v.x, spec §1). */
void vt_x_vfmv_s_f(vt_warp *w, const vt_insn *in) { vt_x_vfmv_v_f(w, in); }

void vt_x_vfmerge_vfm(vt_warp *w, const vt_insn *in)
{
    int rm;
    if (!fp_rm(w, in, 0, &rm)) return;
    uint32_t m = w->mask & (w->vl >= 32 ? 0xffffffffu : (1u << w->vl) - 1u);
    uint32_t sel = w->v[0][0], s = w->f[in->rs1], *d = w->v[in->rd];
    const uint32_t *s2 = w->v[in->rs2];
    VLANES(m, { d[i] = (sel >> i & 1) ? s : s2[i]; })
}

/* Every active thread writes the scalar register; the highest active lane writes last. */
void vt_x_vfmv_f_s(vt_warp *w, const vt_insn *in)
{
    int rm;
    if (!fp_rm(w, in, 0, &rm)) return;
    uint32_t m = w->mask & (w->vl >= 32 ? 0xffffffffu : (1u << w->vl) - 1u);
    if (!m) return;
    unsigned last = 31u - (unsigned)__builtin_clz(m);
    vt_wf(w, in, w->v[in->rs2][last]);
}

/* vfexp.v: exp of each thread's element (the golden model calls the host exp: no fflags). */
void vt_x_vfexp_v(vt_warp *w, const vt_insn *in)
{
    uint32_t m = vt_emask(w, in), *d = w->v[in->rd];
    const uint32_t *s2 = w->v[in->rs2];
    VLANES(m, { d[i] = f2u(expf(u2f(s2[i]))); })
}

/* vftta.vv: the golden model's tensor test operation. For element i < vl/2:
 * vd[i] = fma over j < vl/4 of vs1[(i>>2)*8 + j] * vs2[(i&3)*8 + j] + vd[i], where element
 * indices beyond the warp width continue into the following registers (flat register file);
 * for i >= vl/2, vd[i] = the bit pattern of the integer i + 7. */
void vt_x_vftta_vv(vt_warp *w, const vt_insn *in)
{
    int rm;
    if (!fp_rm(w, in, 7, &rm)) return;
    uint32_t vl = w->vl, n = w->nlanes, m = vt_emask(w, in), extra = 0;
    fp_begin(RM_RNE);
    VLANES(m, {
        if (i >= vl / 2) {
            w->v[in->rd][i] = i + 7;
        } else {
            uint32_t acc = w->v[in->rs3][i];
            for (uint32_t j = 0; j < vl / 4; j++) {
                uint32_t e1 = ((i >> 2) << 3) + j, e2 = ((i & 3) << 3) + j;
                uint32_t r1 = in->rs1 + e1 / n, r2 = in->rs2 + e2 / n;
                if (r1 >= VT_NUM_REGS || r2 >= VT_NUM_REGS) {
                    fp_end(w, RM_RNE, extra);
                    vt_fault(w, in, UMB_ERR_GUEST_FAULT, (int)i, 0, "vftta.vv reads past v255");
                    return;
                }
                acc = canon(fmaf(u2f(w->v[r1][e1 % n]), u2f(w->v[r2][e2 % n]), u2f(acc)));
            }
            w->v[in->rd][i] = acc;
        }
    })
    fp_end(w, RM_RNE, extra);
}
