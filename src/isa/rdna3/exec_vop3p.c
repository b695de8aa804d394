/* RDNA3 VOP3P: packed 16-bit math, mixed-precision FMA, dot products.
 *
 * Each source register holds two 16-bit halves. For the low result half, source i supplies its
 * half op_sel[i] (0 = low, 1 = high); for the high result half, op_sel_hi[i]. neg (neg_lo)
 * negates the f16 operand of the low half, neg_hi that of the high half. Inline constants read
 * as a 32-bit value with the f16 constant in the low half (LLVM clears op_sel_hi to replicate
 * it). v_fma_mix*: op_sel_hi[i] = 1 makes source i an f16 (the half op_sel[i] picks), else an
 * f32; neg_lo is neg and neg_hi is abs.
 */
#include "isa/rdna3/exec_alu.h"

static const uint32_t *pk_src(rdna3_wave *w, const rdna3_inst *in, unsigned i, unsigned kind, uint32_t *buf)
{
    unsigned s = in->src[i];
    if (s >= RDNA3_SRC_VGPR0) return rdna3_vreg(w, s - RDNA3_SRC_VGPR0);
    rdna3_fill_lanes(buf, RDNA3_MAX_LANES, rdna3_scalar_src32(w, in, s, kind));
    return buf;
}

static inline uint32_t half_of(uint32_t v, unsigned hi) { return (hi ? v >> 16 : v) & 0xffffu; }
static inline int16_t s16(uint32_t v) { return (int16_t)(uint16_t)v; }
static inline float hf(uint32_t h) { return f32_from_f16(h); }
static inline uint32_t to_h(double v) { return rdna3_f16_from_f64(v, 1); }

static uint32_t sat16s(int v, bool clamp) { return (uint32_t)(clamp ? (v > 32767 ? 32767 : v < -32768 ? -32768 : v) : v) & 0xffffu; }
static uint32_t sat16u(int64_t v, bool clamp) { return (uint32_t)(clamp ? (v > 65535 ? 65535 : v < 0 ? 0 : v) : v) & 0xffffu; }

/* One 16-bit result half of a packed op. */
static uint32_t pk_half(const rdna3_wave *w, const rdna3_inst *in, uint32_t a, uint32_t b, uint32_t c)
{
    bool cl = in->clamp;
    switch (in->op) {
    case 0x00: return sat16s(s16(a) * s16(b) + s16(c), cl);           /* v_pk_mad_i16 */
    case 0x01: return (a * b) & 0xffffu;                               /* v_pk_mul_lo_u16 */
    case 0x02: return sat16s(s16(a) + s16(b), cl);                     /* v_pk_add_i16 */
    case 0x03: return sat16s(s16(a) - s16(b), cl);                     /* v_pk_sub_i16 */
    case 0x04: return (b << (a & 15u)) & 0xffffu;                      /* v_pk_lshlrev_b16 */
    case 0x05: return (b >> (a & 15u)) & 0xffffu;
    case 0x06: return (uint32_t)(s16(b) >> (a & 15u)) & 0xffffu;
    case 0x07: return (uint32_t)(s16(a) > s16(b) ? s16(a) : s16(b)) & 0xffffu;
    case 0x08: return (uint32_t)(s16(a) < s16(b) ? s16(a) : s16(b)) & 0xffffu;
    case 0x09: return sat16u((int64_t)a * b + c, cl);                  /* v_pk_mad_u16 */
    case 0x0a: return sat16u((int64_t)a + b, cl);
    case 0x0b: return sat16u((int64_t)a - b, cl);
    case 0x0c: return a > b ? a : b;
    case 0x0d: return a < b ? a : b;
    /* the product of two halves is exact in double, so this sum is the fused result (no libm call) */
    case 0x0e: return rdna3_post_f16(w, in, to_h((double)hf(a) * (double)hf(b) + (double)hf(c)));
    case 0x0f: return rdna3_post_f16(w, in, to_h((double)(hf(a) + hf(b))));
    case 0x10: return rdna3_post_f16(w, in, to_h((double)(hf(a) * hf(b))));
    case 0x11: return rdna3_post_f16(w, in, to_h((double)rdna3_fmin32(w, hf(a), hf(b))));
    default: return rdna3_post_f16(w, in, to_h((double)rdna3_fmax32(w, hf(a), hf(b))));   /* 0x12 */
    }
}

static bool pk_is_float(unsigned op) { return op >= 0x0e && op <= 0x12; }

/* v_pk_fma_f16 as compilers emit it: each result half from the same half of every source, no
 * negation. The lane loop without the per-half operand selection of exec_pk (the same values). */
static bool pk_fma_plain(const rdna3_inst *in)
{
    return in->op == 0x0e && (in->opsel & 7u) == 0 && (in->opsel_hi & 7u) == 7u && !(in->neg & 7u) &&
           !(in->neg_hi & 7u);
}

static inline uint32_t fma_half(const rdna3_wave *w, const rdna3_inst *in, uint32_t a, uint32_t b, uint32_t c)
{
    return rdna3_post_f16(w, in, to_h((double)hf(a) * (double)hf(b) + (double)hf(c)));   /* exact product */
}

static void exec_pk_fma_plain(rdna3_wave *w, const rdna3_inst *in, const uint32_t *const S[3], uint64_t m, uint32_t *D)
{
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        uint32_t a = S[0][l], b = S[1][l], c = S[2][l];
        D[l] = fma_half(w, in, a & 0xffffu, b & 0xffffu, c & 0xffffu) | (fma_half(w, in, a >> 16, b >> 16, c >> 16) << 16);
    }
}

static void exec_pk(rdna3_wave *w, const rdna3_inst *in)
{
    unsigned kind = pk_is_float(in->op) ? RK_F16 : RK_B32;
    uint32_t b0[RDNA3_MAX_LANES], b1[RDNA3_MAX_LANES], b2[RDNA3_MAX_LANES];
    const uint32_t *S[3] = {pk_src(w, in, 0, kind, b0), pk_src(w, in, 1, kind, b1), pk_src(w, in, 2, kind, b2)};
    uint64_t m = rdna3_exec(w);
    uint32_t *D = rdna3_vreg(w, in->vdst);
    if (pk_fma_plain(in)) {
        exec_pk_fma_plain(w, in, S, m, D);
        return;
    }
    bool fl = pk_is_float(in->op);
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        uint32_t r = 0;
        for (unsigned h = 0; h < 2; h++) {
            unsigned sel = h ? in->opsel_hi : in->opsel, ng = h ? in->neg_hi : in->neg;
            uint32_t x[3];
            for (unsigned i = 0; i < 3; i++) {
                x[i] = half_of(S[i][l], (sel >> i) & 1u);
                if (fl && ((ng >> i) & 1u)) x[i] ^= 0x8000u;
            }
            r |= pk_half(w, in, x[0], x[1], x[2]) << (16u * h);
        }
        D[l] = r;
    }
}

/* v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16. */
static void exec_fma_mix(rdna3_wave *w, const rdna3_inst *in)
{
    uint32_t b0[RDNA3_MAX_LANES], b1[RDNA3_MAX_LANES], b2[RDNA3_MAX_LANES];
    const uint32_t *S[3];
    for (unsigned i = 0; i < 3; i++)
        S[i] = pk_src(w, in, i, ((in->opsel_hi >> i) & 1u) ? RK_F16 : RK_F32, i == 0 ? b0 : i == 1 ? b1 : b2);
    uint64_t m = rdna3_exec(w);
    uint32_t *D = rdna3_vreg(w, in->vdst);
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        double x[3];
        for (unsigned i = 0; i < 3; i++) {
            double v = ((in->opsel_hi >> i) & 1u) ? (double)hf(half_of(S[i][l], (in->opsel >> i) & 1u))
                                                   : (double)f32_of(S[i][l]);
            if ((in->neg_hi >> i) & 1u) v = fabs(v);
            if ((in->neg >> i) & 1u) v = -v;
            x[i] = v;
        }
        if (in->op == 0x20) {
            float r = (float)fma(x[0], x[1], x[2]);   /* exact product in double; see RDNA3_PRECISION.md */
            if (in->clamp) r = isnan(r) ? 0.0f : r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
            D[l] = bits_f32(r);
        } else {
            uint32_t h = rdna3_post_f16(w, in, to_h(fma(x[0], x[1], x[2])));
            D[l] = in->op == 0x21 ? (D[l] & 0xffff0000u) | h : (D[l] & 0xffffu) | (h << 16);
        }
    }
}

static inline float bf16f(uint32_t h) { return f32_of((h & 0xffffu) << 16); }

/* Dot products: v_dot2_f32_f16, v_dot2_f32_bf16, v_dot4_*8, v_dot8_*4. */
static void exec_dot(rdna3_wave *w, const rdna3_inst *in)
{
    bool f16op = in->op == 0x13 || in->op == 0x1a;
    uint32_t b0[RDNA3_MAX_LANES], b1[RDNA3_MAX_LANES], b2[RDNA3_MAX_LANES];
    const uint32_t *A = pk_src(w, in, 0, f16op ? RK_F16 : RK_B32, b0);
    const uint32_t *B = pk_src(w, in, 1, f16op ? RK_F16 : RK_B32, b1);
    const uint32_t *C = pk_src(w, in, 2, f16op ? RK_F32 : RK_B32, b2);
    uint64_t m = rdna3_exec(w);
    uint32_t *D = rdna3_vreg(w, in->vdst);
    bool sa = in->neg & 1u, sb = (in->neg >> 1) & 1u;   /* iu8/iu4: neg_lo marks signed sources */
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        uint32_t a = A[l], b = B[l];
        if (f16op) {
            double s = f32_of(C[l]);
            if ((in->neg >> 2) & 1u) s = -s;
            if ((in->neg_hi >> 2) & 1u) s = fabs(s);
            for (unsigned h = 0; h < 2; h++) {
                unsigned sel = h ? in->opsel_hi : in->opsel;
                uint32_t x = half_of(a, sel & 1u), y = half_of(b, (sel >> 1) & 1u);
                double fx = in->op == 0x13 ? hf(x) : bf16f(x), fy = in->op == 0x13 ? hf(y) : bf16f(y);
                if (in->op == 0x13 && ((in->neg >> 0) & 1u)) fx = -fx;
                if (in->op == 0x13 && ((in->neg >> 1) & 1u)) fy = -fy;
                s += fx * fy;
            }
            float r = (float)s;
            if (in->clamp) r = isnan(r) ? 0.0f : r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
            D[l] = bits_f32(r);
            continue;
        }
        int64_t s = (int32_t)C[l];
        if (in->op == 0x17) s = (int64_t)C[l];   /* unsigned accumulator */
        unsigned bits = (in->op == 0x16 || in->op == 0x17) ? 8u : 4u;
        bool sx = in->op == 0x16 || in->op == 0x18 ? sa : false, sy = in->op == 0x16 || in->op == 0x18 ? sb : false;
        for (unsigned i = 0; i < 32; i += bits) {
            uint32_t mk = (1u << bits) - 1u, xa = (a >> i) & mk, yb = (b >> i) & mk;
            int64_t xv = sx && (xa >> (bits - 1)) ? (int64_t)xa - (1 << bits) : (int64_t)xa;
            int64_t yv = sy && (yb >> (bits - 1)) ? (int64_t)yb - (1 << bits) : (int64_t)yb;
            s += xv * yv;
        }
        if (in->clamp) {
            bool uns = in->op == 0x17 || in->op == 0x19;
            if (uns) s = s > 0xffffffffll ? 0xffffffffll : s;
            else s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
        }
        D[l] = (uint32_t)s;
    }
}

rdna3_exec_fn rdna3_vop3p_handler(unsigned op)
{
    if (op <= 0x12) return exec_pk;
    if (op == 0x13 || op == 0x1a || (op >= 0x16 && op <= 0x19)) return exec_dot;
    if (op >= 0x20 && op <= 0x22) return exec_fma_mix;
    if (op >= 0x40 && op <= 0x45) return rdna3_wmma_handler(op);
    return NULL;
}
