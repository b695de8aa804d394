/* RDNA3 ALU executors: what exec_alu*.c, exec_salu.c, exec_valu*.c, exec_vopc.c, exec_vop3p.c
 * and exec_dpp.c share (not a public contract).
 *
 * A VALU handler runs in three steps:
 *   1. fetch: every source becomes a pointer to wave_size 32-bit lanes (a VGPR row of the SoA
 *      register file when it can be used as is; otherwise a stack buffer filled with the
 *      broadcast scalar/constant/literal, the DPP-permuted lanes or the modified values);
 *   2. a tight loop over all lanes computes the result and blends it into the destination
 *      under the write mask (EXEC, narrowed by DPP row/bank masks and invalid DPP lanes);
 *   3. float results get omod/clamp/denormal flushing in a separate pass, only when asked.
 * Operand kinds decide how inline constants read (f16/f32/f64 bit patterns) and whether the
 * abs/neg source modifiers apply.
 */
#ifndef UMBRA_RDNA3_EXEC_ALU_H
#define UMBRA_RDNA3_EXEC_ALU_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "isa/rdna3/rdna3.h"

/* ---- MODE register (gfx11) ---- */
#define RDNA3_MODE_ROUND_SHIFT 0      /* [1:0] f32, [3:2] f16/f64: 0 RNE, 1 +inf, 2 -inf, 3 RTZ */
#define RDNA3_MODE_DENORM_SHIFT 4     /* [5:4] f32, [7:6] f16/f64 */
#define RDNA3_MODE_DX10_CLAMP (1u << 8)
#define RDNA3_MODE_IEEE (1u << 9)
/* Denorm field values: bit 0 = keep input denormals, bit 1 = keep output denormals. */
static inline unsigned rdna3_denorm32(const rdna3_wave *w) { return (w->mode >> 4) & 3u; }
static inline unsigned rdna3_denorm64(const rdna3_wave *w) { return (w->mode >> 6) & 3u; }

/* ---- bit casts ---- */
static inline float f32_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t bits_f32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double f64_of(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static inline uint64_t bits_f64(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

static inline int f32_is_snan(uint32_t u) { return (u & 0x7fc00000u) == 0x7f800000u && (u & 0x3fffffu); }
static inline int f64_is_snan(uint64_t u)
{
    return (u & 0x7ff8000000000000ull) == 0x7ff0000000000000ull && (u & 0x7ffffffffffffull);
}
static inline int f16_is_nan(uint32_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu); }
static inline int f16_is_snan(uint32_t h) { return f16_is_nan(h) && !(h & 0x200u); }

/* Fused multiply-add of floats without a libm call per lane: the product of two floats is exact
 * in double, so double(a*b) + c rounded to float is the correctly rounded fma unless the double
 * sum sits exactly on a float rounding midpoint (then the double rounding could differ) or in the
 * float denormal range; those rare cases take libm's fmaf. */
static inline float rdna3_fma32(float a, float b, float c)
{
    double s = (double)a * (double)b + (double)c;
    uint64_t u = bits_f64(s);
    if (__builtin_expect((u & 0x1fffffffull) == 0x10000000ull || (fabs(s) < 0x1p-125 && s != 0.0), 0))
        return fmaf(a, b, c);
    return (float)s;   /* an exact zero sum has the IEEE sign already */
}

/* out[l] = fma(A[l], B[l], C[l]) for l < n, each rounded once in the host's current rounding
 * mode (the wave loop sets it from MODE); out may be C. On a host with FMA this is the host's fused multiply-add, eight lanes per host
 * instruction; elsewhere rdna3_fma32 per lane (exec_fma.c). */
void rdna3_fma32_lanes(unsigned n, uint32_t *out, const uint32_t *A, const uint32_t *B, const uint32_t *C);
/* out[l] = fma(A[l], B[l], C[l]) for doubles given as bits (v_fma_f64); out may be a source. */
void rdna3_fma64_lanes(unsigned n, uint64_t *out, const uint64_t *A, const uint64_t *B, const uint64_t *C);
/* The same into D under the write mask m. */
void rdna3_fma32_store(rdna3_wave *w, uint64_t m, uint32_t *D, const uint32_t *A, const uint32_t *B,
                       const uint32_t *C);

/* buf[0..n) = v: a broadcast operand as lanes. */
static inline void rdna3_fill_lanes(uint32_t *buf, unsigned n, uint32_t v)
{
    for (unsigned l = 0; l < n; l++) buf[l] = v;
}

/* ---- f16 <-> wider (exact IEEE binary16; exec_alu.c) ---- */
/* Inline: f16 instructions convert every operand of every lane. */
static inline float rdna3_f16_to_f32(uint32_t h)
{
    uint32_t s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (__builtin_expect(e - 1u < 30u, 1)) return f32_of(s | ((e + 112u) << 23) | (m << 13));   /* normal */
    if (e == 0x1f) return f32_of(s | 0x7f800000u | (m << 13));
    return f32_of(s | bits_f32((float)m * 0x1p-24f));   /* zero or subnormal: exact in float */
}
/* Round to binary16: rne = 1 round to nearest even, 0 toward zero. NaNs stay NaN (quieted).
 * On the bits: the double's 53-bit significand m is value * 2^(1075 - e) (e its biased exponent);
 * a normal half keeps m >> 42 (11 bits), a subnormal one m >> (1051 - e) (units of 2^-24), and the
 * bits shifted out decide the rounding. A carry out of the kept bits moves into the exponent. */
static inline uint32_t rdna3_f16_from_f64(double x, int rne)
{
    uint64_t u = bits_f64(x);
    uint32_t s = (uint32_t)(u >> 48) & 0x8000u;
    unsigned e = (unsigned)(u >> 52) & 0x7ffu;
    if (e == 0x7ffu) {
        if (u & 0x000fffffffffffffull) return s | 0x7e00u | (uint32_t)((u >> 42) & 0x1ffu);   /* NaN, quieted */
        return s | 0x7c00u;
    }
    if (e >= 1008u + 31u) return s | (rne ? 0x7c00u : 0x7bffu);   /* |x| >= 65536 */
    if (e < 1051u - 63u) return s;   /* below 2^-36 (and double subnormals): rounds to zero */
    uint64_t m = (u & 0x000fffffffffffffull) | (1ull << 52);
    bool normal = e > 1008u;   /* half exponent e - 1008 >= 1 */
    unsigned shift = normal ? 42u : 1051u - e;
    uint64_t q = m >> shift, rest = m & ((1ull << shift) - 1u), half = 1ull << (shift - 1u);
    if (rne && (rest > half || (rest == half && (q & 1u)))) q++;
    uint32_t h = normal ? ((e - 1009u) << 10) + (uint32_t)q : (uint32_t)q;
    return s | h;   /* at most 0x7c00: a carry out of 65504 is infinity */
}

/* double -> bf16, rounded once to nearest even: to f32 with round-to-odd first (f32 keeps more
 * than two bits beyond bf16's, so the second rounding then sees every bit that matters). */
static inline uint32_t rdna3_bf16_from_f64(double d)
{
    if (d != d) return 0x7fc0u;
    float f = (float)d;   /* nearest */
    uint32_t u = bits_f32(f);
    if ((double)f != d && !isinf(f)) {
        if (fabs((double)f) > fabs(d)) u -= 1u;   /* toward zero: the magnitude below */
        u |= 1u;                                  /* sticky */
    }
    if ((u & 0x7f800000u) == 0x7f800000u) return u >> 16;   /* infinity */
    return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
}
static inline uint32_t f16_from_f32(float x) { return rdna3_f16_from_f64((double)x, 1); }
static inline float f32_from_f16(uint32_t h) { return rdna3_f16_to_f32(h & 0xffffu); }

/* ---- operand kinds ---- */
enum {
    RK_B32 = 0,   /* 32-bit integer / raw bits */
    RK_F32,       /* 32-bit float: abs/neg apply, denormals per MODE */
    RK_B16,       /* 16-bit integer in the low half (op_sel picks the half) */
    RK_F16,       /* 16-bit float (op_sel picks the half; abs/neg apply to that half) */
    RK_B64,       /* 64-bit unsigned integer / raw bits (a 32-bit literal is zero-extended) */
    RK_I64,       /* 64-bit signed integer (a 32-bit literal is sign-extended) */
    RK_F64,       /* 64-bit float (literal is the high dword) */
};

/* Value of a non-VGPR source operand (SGPR, special register, inline constant, literal) read as
 * the given kind. 64-bit reads of an SGPR take the pair. */
uint32_t rdna3_scalar_src32(const rdna3_wave *w, const rdna3_inst *in, unsigned enc, unsigned kind);
uint64_t rdna3_scalar_src64(const rdna3_wave *w, const rdna3_inst *in, unsigned enc, unsigned kind);
/* Scalar destination writes (SGPRs, VCC, M0, EXEC; NULL ignored). */
void rdna3_sdst32(rdna3_wave *w, unsigned enc, uint32_t v);
void rdna3_sdst64(rdna3_wave *w, unsigned enc, uint64_t v);
/* Write a lane mask to a scalar destination: 32 bits in wave32, a pair in wave64. */
static inline void rdna3_sdst_mask(rdna3_wave *w, unsigned enc, uint64_t m)
{
    if (w->wave_size == 32) rdna3_sdst32(w, enc, (uint32_t)m);
    else rdna3_sdst64(w, enc, m);
}
/* Read a lane mask from a scalar source (VCC, an SGPR (pair), constant). */
static inline uint64_t rdna3_ssrc_mask(const rdna3_wave *w, const rdna3_inst *in, unsigned enc)
{
    uint64_t m = w->wave_size == 32 ? rdna3_scalar_src32(w, in, enc, RK_B32)
                                    : rdna3_scalar_src64(w, in, enc, RK_B64);
    return m & w->lane_mask;
}
static inline void rdna3_set_vcc(rdna3_wave *w, uint64_t m)
{
    m &= w->lane_mask;
    w->sgpr[RDNA3_SRC_VCC_LO] = (uint32_t)m;
    if (w->wave_size == 64) w->sgpr[RDNA3_SRC_VCC_HI] = (uint32_t)(m >> 32);
}

/* ---- DPP (exec_dpp.c) ---- */
/* The VGPR that a DPP instruction's src0 names (the DPP dword's src0 field). */
unsigned rdna3_dpp_src0(const rdna3_inst *in);
/* Lanes DPP lets the instruction write: exec minus disabled rows/banks and lanes whose source
 * lane is invalid when bound_ctrl is 0. */
uint64_t rdna3_dpp_exec(const rdna3_wave *w, const rdna3_inst *in, uint64_t exec);
/* buf[lane] = src0 of the lane DPP routes to it (0 for an invalid source with bound_ctrl). */
void rdna3_dpp_fetch(rdna3_wave *w, const rdna3_inst *in, uint32_t *buf);

/* ---- source fetch ---- */
/* Rare path of rdna3_vsrc: modifiers, 16-bit halves, DPP, denormal flushing. */
const uint32_t *rdna3_vsrc_slow(rdna3_wave *w, const rdna3_inst *in, unsigned i, unsigned kind, uint32_t *buf);

/* Source i as wave_size 32-bit lanes. buf must hold RDNA3_MAX_LANES values. Always inlined:
 * the common case (a VGPR, no modifiers) is a few compares and a pointer. */
static inline __attribute__((always_inline)) const uint32_t *rdna3_vsrc(rdna3_wave *w, const rdna3_inst *in, unsigned i, unsigned kind,
                                         uint32_t *buf)
{
    unsigned s = in->src[i];
    if (__builtin_expect(in->dpp != 0 || in->abs != 0 || in->neg != 0 || in->opsel != 0 ||
                         (kind == RK_F32 && rdna3_denorm32(w) != 3) || kind == RK_F16, 0))
        return rdna3_vsrc_slow(w, in, i, kind, buf);
    if (s >= RDNA3_SRC_VGPR0) return rdna3_vreg(w, s - RDNA3_SRC_VGPR0);
    rdna3_fill_lanes(buf, w->wave_size, rdna3_scalar_src32(w, in, s, kind));
    return buf;
}

/* True when source i is a plain scalar/constant operand (no DPP, no modifiers, no flushing): the
 * handler may then read it once instead of per lane. */
static inline bool rdna3_src_is_scalar(const rdna3_wave *w, const rdna3_inst *in, unsigned i, unsigned kind)
{
    return in->src[i] < RDNA3_SRC_VGPR0 && !in->dpp && !(in->abs | in->neg | in->opsel) &&
           (kind != RK_F32 || rdna3_denorm32(w) == 3) && kind != RK_F16;
}

/* Source i as 64-bit lanes (pairs of VGPRs, SGPR pairs, 64-bit constants). */
void rdna3_vsrc64(rdna3_wave *w, const rdna3_inst *in, unsigned i, unsigned kind, uint64_t *buf);

/* Lanes the instruction writes. */
static inline uint64_t rdna3_vexec(const rdna3_wave *w, const rdna3_inst *in)
{
    uint64_t e = rdna3_exec(w);
    if (__builtin_expect(in->dpp != 0, 0)) e = rdna3_dpp_exec(w, in, e);
    return e;
}

/* ---- result post-processing ---- */
/* omod, clamp and output denormal flushing of f32 results in D under mask. */
void rdna3_post_f32(rdna3_wave *w, const rdna3_inst *in, uint32_t *d, uint64_t mask);
static inline void rdna3_post32(rdna3_wave *w, const rdna3_inst *in, uint32_t *d, uint64_t mask)
{
    if (__builtin_expect(in->clamp || in->omod || rdna3_denorm32(w) != 3, 0)) rdna3_post_f32(w, in, d, mask);
}
/* The same for an f64 result held in a lane buffer (before it is written). Inline: the usual
 * case (no omod, no clamp, denormals kept) does nothing, and f64 instructions ask every lane. */
double rdna3_post_f64_slow(const rdna3_wave *w, const rdna3_inst *in, double r);
static inline double rdna3_post_f64(const rdna3_wave *w, const rdna3_inst *in, double r)
{
    if (__builtin_expect(!in->omod && !in->clamp && (rdna3_denorm64(w) & 2u), 1)) return r;
    return rdna3_post_f64_slow(w, in, r);
}
/* The same for an f16 result (bits). */
uint32_t rdna3_post_f16_slow(const rdna3_wave *w, const rdna3_inst *in, uint32_t h);
static inline uint32_t rdna3_post_f16(const rdna3_wave *w, const rdna3_inst *in, uint32_t h)
{
    if (__builtin_expect(!in->omod && !in->clamp && (rdna3_denorm64(w) & 2u), 1)) return h & 0xffffu;
    return rdna3_post_f16_slow(w, in, h);
}

/* Write 64-bit lane values to the VGPR pair vdst, vdst+1 under mask. */
static inline void rdna3_vdst64(rdna3_wave *w, unsigned vdst, const uint64_t *r, uint64_t mask)
{
    uint32_t *lo = rdna3_vreg(w, vdst), *hi = rdna3_vreg(w, vdst + 1u);
    for (unsigned l = 0; l < w->wave_size; l++) {
        if (!((mask >> l) & 1u)) continue;
        lo[l] = (uint32_t)r[l];
        hi[l] = (uint32_t)(r[l] >> 32);
    }
}

/* ---- float helpers shared by several files (exec_fp.c) ---- */
/* IEEE-mode minNum/maxNum as the VALU does them: a signalling NaN gives a quiet NaN, a quiet NaN
 * loses against a number, -0 < +0. */
float rdna3_fmin32_slow(const rdna3_wave *w, float a, float b);
float rdna3_fmax32_slow(const rdna3_wave *w, float a, float b);
static inline float rdna3_fmin32(const rdna3_wave *w, float a, float b)
{
    if (a < b) return a;
    if (b < a) return b;
    return rdna3_fmin32_slow(w, a, b);   /* equal (signed zeros) or NaN */
}
static inline float rdna3_fmax32(const rdna3_wave *w, float a, float b)
{
    if (a > b) return a;
    if (b > a) return b;
    return rdna3_fmax32_slow(w, a, b);
}
double rdna3_fmin64(const rdna3_wave *w, double a, double b);
double rdna3_fmax64(const rdna3_wave *w, double a, double b);
/* Median of three (v_med3_f32 rules: any NaN -> min3 semantics as the ISA describes). */
float rdna3_fmed3(const rdna3_wave *w, float a, float b, float c);
/* v_cmp_class mask test. */
int rdna3_class32(float x, uint32_t mask);
int rdna3_class64(double x, uint32_t mask);
int rdna3_class16(uint32_t h, uint32_t mask);
/* float -> integer with the VALU's rules: truncate, NaN -> 0, saturate. */
int32_t rdna3_cvt_i32(double x);
uint32_t rdna3_cvt_u32(double x);
int32_t rdna3_cvt_i16(double x);   /* saturates to 16 bits */
uint32_t rdna3_cvt_u16(double x);

/* ---- exec tables of the ALU files ---- */
rdna3_exec_fn rdna3_salu_handler(const rdna3_inst *in);       /* exec_salu.c */
/* Scheduling hints and waits (s_nop, s_delay_alu, s_waitcnt, ...): with memory operations complete
 * at issue they change nothing, unless waits are checked (waitcnt.c). */
bool rdna3_salu_is_hint(const rdna3_inst *in);                 /* exec_salu.c */
bool rdna3_salu_is_sleep(const rdna3_inst *in);                /* s_sleep (exec_salu.c) */
rdna3_exec_fn rdna3_valu_handler(unsigned vop3op);            /* exec_valu.c: 32-bit int/f32 */
rdna3_exec_fn rdna3_valu_fp_handler(unsigned vop3op);         /* exec_fp.c: f64, f16, conversions */
rdna3_exec_fn rdna3_vopc_handler(unsigned vop3op);            /* exec_vopc.c */
rdna3_exec_fn rdna3_vop3p_handler(unsigned op);               /* exec_vop3p.c */
rdna3_exec_fn rdna3_wmma_handler(unsigned op);                /* exec_wmma.c */
rdna3_exec_fn rdna3_lane_handler(unsigned vop3op);            /* exec_lane.c: cross-lane ops */
void rdna3_exec_vopd(rdna3_wave *w, const rdna3_inst *in);    /* exec_vopd.c */

/* The VOP3 opcode of any VOP1/VOP2/VOPC/VOP3 instruction (VOP2 = 256+op, VOP1 = 384+op). */
static inline unsigned rdna3_vop3_op(const rdna3_inst *in)
{
    switch (in->fmt) {
    case RDNA3_FMT_VOP2: return 256u + in->op;
    case RDNA3_FMT_VOP1: return 384u + in->op;
    default: return in->op;
    }
}

/* Lane loop helpers. */
#define RDNA3_LANES(w) for (unsigned l = 0, n_ = (w)->wave_size; l < n_; l++)
#define RDNA3_ON(mask, l) (((mask) >> (l)) & 1u)

/* For each lane of mask m: run stmt (which sets r, of type T, for lane l) and store r in D[l]. */
#define RDNA3_STORE_LANES(w, m, D, T, stmt) RDNA3_FOR_LANES(w, m, { T r; stmt; (D)[l] = r; })



#endif
