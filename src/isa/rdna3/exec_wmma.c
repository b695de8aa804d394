/* RDNA3 WMMA: v_wmma_{f32,f16,bf16,i32}_16x16x16_{f16,bf16,iu8,iu4} (VOP3P 0x40-0x45).
 *
 * One instruction computes D = A x B + C for 16 x 16 matrices with K = 16, the whole wave
 * together. Where each element lives (AMD's Matrix Instruction Calculator, `-a rdna3 -d`, and the
 * RDNA3 ISA guide's WMMA section):
 *   A[i][k]: lane i (and its copies in lanes i+16, i+32, i+48), register k / per, bits of element
 *            k % per (per = 2 sixteen-bit, 4 eight-bit or 8 four-bit elements a register);
 *   B[k][j]: lane j (and copies), the same register and bits for k;
 *   C, D[i][j]: lane (16 * i) % W + j, register i / (W / 16) (W the wave size: 8 registers in
 *            wave32, 4 in wave64); 16-bit results in the low halves, the high halves with
 *            op_sel[2] (which also picks C's half); the other halves keep what they held.
 * iu8/iu4: neg_lo[0] and neg_lo[1] make A and B signed, clamp saturates the i32 sum.
 *
 * What the sources leave open is refused, not guessed (docs/RDNA3_PRECISION.md "WMMA"): a wave
 * with inactive lanes, copies of A or B that differ between lane groups, neg/neg_hi on the float
 * forms, clamp on them. Float sums: every product of two 16-bit values is exact in double; umbra
 * adds them and C in double in k order and rounds once to the result type (the hardware's order
 * and internal width are not published: results agree whenever the sum is exact in the result
 * type, as for the integer-valued test matrices); a NaN sum is the type's default quiet NaN.
 */
#include "isa/rdna3/exec_alu.h"

#include <string.h>

enum { WMMA_N = 16 };

typedef enum { W_F32_F16, W_F32_BF16, W_F16_F16, W_BF16_BF16, W_I32_IU8, W_I32_IU4 } wmma_kind;

static unsigned bits_per_element(wmma_kind k) { return k == W_I32_IU8 ? 8u : k == W_I32_IU4 ? 4u : 16u; }
static bool float_kind(wmma_kind k) { return k <= W_BF16_BF16; }
static bool half_result(wmma_kind k) { return k == W_F16_F16 || k == W_BF16_BF16; }
static bool bf16_inputs(wmma_kind k) { return k == W_F32_BF16 || k == W_BF16_BF16; }

static double bf16_value(uint32_t h) { return (double)f32_of((h & 0xffffu) << 16); }

static int32_t int_input(uint32_t e, unsigned bits, bool is_signed)
{
    return is_signed && (e >> (bits - 1)) ? (int32_t)e - ((int32_t)1 << bits) : (int32_t)e;
}

/* The 256 16-bit floats of a matrix (f16, or bf16 when bf) to double, without branches so that the
 * loop vectorizes: an f16's normal, subnormal (an exact float product) and Inf/NaN forms are each
 * computed and masks choose one. */
RDNA3_LANE_FN static void halves_to_double(const uint32_t *h, double *out, bool bf)
{
    enum { N = WMMA_N * WMMA_N };
    if (bf) {
        for (unsigned t = 0; t < N; t++) out[t] = f32_of(h[t] << 16);
        return;
    }
    for (unsigned t = 0; t < N; t++) {
        uint32_t x = h[t], sign = (x & 0x8000u) << 16, e = (x >> 10) & 0x1fu, m = x & 0x3ffu;
        uint32_t zero_exp = 0u - (uint32_t)(e == 0), max_exp = 0u - (uint32_t)(e == 0x1f);
        uint32_t normal = sign | ((e + 112u) << 23) | (m << 13), special = sign | 0x7f800000u | (m << 13);
        uint32_t sub = sign | bits_f32((float)(int32_t)m * 0x1p-24f);
        out[t] = f32_of((normal & ~(zero_exp | max_exp)) | (sub & zero_exp) | (special & max_exp));
    }
}

/* The inputs, each element converted once: A[i][k] and B[k][j] (B's column j lives in lane j),
 * so that the product loops run over j in memory order. Element k of a lane is in register
 * k / 2, its low half for even k. */
static void load_float_inputs(rdna3_wave *w, unsigned a, unsigned b, bool bf, double A[WMMA_N][WMMA_N],
                              double B[WMMA_N][WMMA_N])
{
    uint32_t ha[WMMA_N][WMMA_N], hb[WMMA_N][WMMA_N];
    for (unsigned r = 0; r < WMMA_N / 2; r++) {
        const uint32_t *va = rdna3_vreg(w, a + r), *vb = rdna3_vreg(w, b + r);
        for (unsigned l = 0; l < WMMA_N; l++) {
            ha[l][2 * r] = va[l] & 0xffffu, ha[l][2 * r + 1] = va[l] >> 16;
            hb[2 * r][l] = vb[l] & 0xffffu, hb[2 * r + 1][l] = vb[l] >> 16;
        }
    }
    halves_to_double(&ha[0][0], &A[0][0], bf);
    halves_to_double(&hb[0][0], &B[0][0], bf);
}

static void load_int_inputs(rdna3_wave *w, const rdna3_inst *in, unsigned a, unsigned b, unsigned bits,
                            int32_t A[WMMA_N][WMMA_N], int32_t B[WMMA_N][WMMA_N])
{
    bool sa = in->neg & 1u, sb = (in->neg >> 1) & 1u;
    unsigned per = 32u / bits;
    uint32_t mask = (1u << bits) - 1u;
    for (unsigned r = 0; r < WMMA_N / per; r++) {
        const uint32_t *va = rdna3_vreg(w, a + r), *vb = rdna3_vreg(w, b + r);
        for (unsigned l = 0; l < WMMA_N; l++)
            for (unsigned e = 0; e < per; e++) {
                A[l][r * per + e] = int_input((va[l] >> (bits * e)) & mask, bits, sa);
                B[r * per + e][l] = int_input((vb[l] >> (bits * e)) & mask, bits, sb);
            }
    }
}

typedef double wmma_v4d __attribute__((vector_size(32)));   /* GCC/clang vectors: AVX2 or two SSE2 halves */

/* Four doubles from p into a vector (a macro: a function returning a vector changes the ABI with
 * and without AVX). */
#define V4D_LOAD(vec, p) memcpy(&(vec), (p), sizeof(wmma_v4d))

/* acc[i][j] += A[i][k] * B[k][j], k = 0..15 in order for every element: each product of two 16-bit
 * floats is exact in double, so the sums are those of the element-by-element loop, whatever the
 * vector width (and a fused multiply-add gives the same: the product needs no rounding). Two rows
 * at a time, their 32 sums in eight named vector registers (an array of them stayed in memory):
 * eight independent chains of 16 additions. */
RDNA3_LANE_FN static void float_products(const double A[WMMA_N][WMMA_N], const double B[WMMA_N][WMMA_N],
                                         double acc[WMMA_N][WMMA_N])
{
    for (unsigned i = 0; i < WMMA_N; i += 2) {
        double *u = acc[i], *v = acc[i + 1];
        wmma_v4d u0, u1, u2, u3, v0, v1, v2, v3, b0, b1, b2, b3;
        V4D_LOAD(u0, u), V4D_LOAD(u1, u + 4), V4D_LOAD(u2, u + 8), V4D_LOAD(u3, u + 12);
        V4D_LOAD(v0, v), V4D_LOAD(v1, v + 4), V4D_LOAD(v2, v + 8), V4D_LOAD(v3, v + 12);
        for (unsigned k = 0; k < WMMA_N; k++) {
            const double *b = B[k];
            V4D_LOAD(b0, b), V4D_LOAD(b1, b + 4), V4D_LOAD(b2, b + 8), V4D_LOAD(b3, b + 12);
            double p = A[i][k], q = A[i + 1][k];
            wmma_v4d x = { p, p, p, p }, y = { q, q, q, q };
            u0 += x * b0, u1 += x * b1, u2 += x * b2, u3 += x * b3;
            v0 += y * b0, v1 += y * b1, v2 += y * b2, v3 += y * b3;
        }
        memcpy(u, &u0, sizeof u0), memcpy(u + 4, &u1, sizeof u1), memcpy(u + 8, &u2, sizeof u2), memcpy(u + 12, &u3, sizeof u3);
        memcpy(v, &v0, sizeof v0), memcpy(v + 4, &v1, sizeof v1), memcpy(v + 8, &v2, sizeof v2), memcpy(v + 12, &v3, sizeof v3);
    }
}

typedef int32_t wmma_v8si __attribute__((vector_size(32)));
#define V8SI_LOAD(vec, p) memcpy(&(vec), (p), sizeof(wmma_v8si))

/* The integer dot products, at most 16 x 255 x 255 in magnitude (exact in int32): two rows at a
 * time in four named vector registers, as float_products. */
RDNA3_LANE_FN static void int_products(const int32_t A[WMMA_N][WMMA_N], const int32_t B[WMMA_N][WMMA_N],
                                       int32_t acc[WMMA_N][WMMA_N])
{
    for (unsigned i = 0; i < WMMA_N; i += 2) {
        wmma_v8si u0 = { 0 }, u1 = { 0 }, v0 = { 0 }, v1 = { 0 }, b0, b1;
        for (unsigned k = 0; k < WMMA_N; k++) {
            V8SI_LOAD(b0, B[k]), V8SI_LOAD(b1, B[k] + 8);
            int32_t p = A[i][k], q = A[i + 1][k];
            wmma_v8si x = { p, p, p, p, p, p, p, p }, y = { q, q, q, q, q, q, q, q };
            u0 += x * b0, u1 += x * b1, v0 += y * b0, v1 += y * b1;
        }
        memcpy(acc[i], &u0, sizeof u0), memcpy(acc[i] + 8, &u1, sizeof u1);
        memcpy(acc[i + 1], &v0, sizeof v0), memcpy(acc[i + 1] + 8, &v1, sizeof v1);
    }
}

/* The checks the sources leave no rule for; true when the instruction may run. */
static bool wmma_defined(rdna3_wave *w, const rdna3_inst *in, wmma_kind kind, unsigned ab_regs, unsigned cd_regs)
{
    uint64_t exec = rdna3_exec(w);
    if (exec != w->lane_mask) {
        rdna3_fault(w, in, UMB_ERR_UNSUPPORTED, "WMMA with inactive lanes (EXEC 0x%016llx): the ISA defines it for "
                    "the whole wave only", (unsigned long long)exec);
        return false;
    }
    if (in->src[0] < RDNA3_SRC_VGPR0 || in->src[1] < RDNA3_SRC_VGPR0) {
        rdna3_fault(w, in, UMB_ERR_UNSUPPORTED, "WMMA with A or B not in VGPRs");
        return false;
    }
    unsigned a = in->src[0] - RDNA3_SRC_VGPR0, b = in->src[1] - RDNA3_SRC_VGPR0;
    unsigned c = in->src[2] >= RDNA3_SRC_VGPR0 ? in->src[2] - RDNA3_SRC_VGPR0 : 0;
    if (a + ab_regs > 256u || b + ab_regs > 256u || c + cd_regs > 256u || in->vdst + cd_regs > 256u) {
        rdna3_fault(w, in, UMB_ERR_UNSUPPORTED, "WMMA register range past v255");
        return false;
    }
    unsigned neg_ok = float_kind(kind) ? 0u : 3u;   /* iu: neg_lo[0..1] are the signs */
    if ((in->neg & ~neg_ok & 7u) || (in->neg_hi & 7u) || (float_kind(kind) && in->clamp)) {
        rdna3_fault(w, in, UMB_ERR_UNSUPPORTED, "WMMA with neg/neg_hi or clamp modifiers whose meaning for this "
                    "form no public source gives");
        return false;
    }
    for (unsigned r = 0; r < ab_regs; r++)   /* every lane group holds the same rows and columns */
        for (unsigned src = 0; src < 2; src++) {
            const uint32_t *v = rdna3_vreg(w, (src ? b : a) + r);
            bool same = true;
            for (unsigned g = WMMA_N; g < w->wave_size; g += WMMA_N) same &= !memcmp(v + g, v, WMMA_N * sizeof *v);
            if (same) continue;
            for (unsigned l = WMMA_N; l < w->wave_size; l++)
                if (v[l] != v[l % WMMA_N]) {
                    rdna3_fault(w, in, UMB_ERR_UNSUPPORTED, "WMMA %c in v%u: lane %u holds 0x%08x, lane %u 0x%08x; "
                                "the ISA defines the result only for equal copies in every group of 16 lanes",
                                src ? 'B' : 'A', (src ? b : a) + r, l, v[l], l % WMMA_N, v[l % WMMA_N]);
                    return false;
                }
        }
    return true;
}

/* The bits of every C[i][j] (its 16-bit half for the 16-bit forms): from VGPRs, element (i, j) at
 * register i / (W / 16), lane (16 i) mod W + j, or a broadcast constant. */
static void load_c(rdna3_wave *w, const rdna3_inst *in, wmma_kind kind, uint32_t scalar, uint32_t C[WMMA_N][WMMA_N])
{
    unsigned groups = w->wave_size / WMMA_N;   /* rows a register holds */
    bool in_vgprs = in->src[2] >= RDNA3_SRC_VGPR0, half = half_result(kind), high = (in->opsel >> 2) & 1u;
    for (unsigned i = 0; i < WMMA_N; i++) {
        const uint32_t *row = in_vgprs ? rdna3_vreg(w, in->src[2] - RDNA3_SRC_VGPR0 + i / groups) + WMMA_N * (i % groups)
                                       : NULL;
        for (unsigned j = 0; j < WMMA_N; j++) {
            uint32_t v = row ? row[j] : scalar;
            C[i][j] = !half ? v : high ? v >> 16 : v & 0xffffu;
        }
    }
}

static void exec_wmma(rdna3_wave *w, const rdna3_inst *in)
{
    wmma_kind kind = (wmma_kind)(in->op - 0x40u);
    unsigned bits = bits_per_element(kind), ab_regs = WMMA_N * bits / 32u, groups = w->wave_size / WMMA_N;
    unsigned cd_regs = WMMA_N / groups;
    if (!wmma_defined(w, in, kind, ab_regs, cd_regs)) return;
    unsigned a = in->src[0] - RDNA3_SRC_VGPR0, b = in->src[1] - RDNA3_SRC_VGPR0;
    uint32_t scalar = 0;
    if (in->src[2] < RDNA3_SRC_VGPR0) {
        unsigned rk = kind == W_F32_F16 || kind == W_F32_BF16 ? RK_F32 : kind == W_F16_F16 ? RK_F16 : RK_B32;
        scalar = rdna3_scalar_src32(w, in, in->src[2], rk);
    }
    uint32_t C[WMMA_N][WMMA_N], out[WMMA_N][WMMA_N];   /* out: D[i][j] as bits of the result type */
    load_c(w, in, kind, scalar, C);
    if (!float_kind(kind)) {
        int32_t A[WMMA_N][WMMA_N], B[WMMA_N][WMMA_N], dot[WMMA_N][WMMA_N];
        load_int_inputs(w, in, a, b, bits, A, B);
        int_products(A, B, dot);
        for (unsigned i = 0; i < WMMA_N; i++)
            for (unsigned j = 0; j < WMMA_N; j++) {
                int64_t sum = (int64_t)(int32_t)C[i][j] + dot[i][j];
                if (in->clamp) sum = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum;
                out[i][j] = (uint32_t)sum;
            }
    } else {
        double A[WMMA_N][WMMA_N], B[WMMA_N][WMMA_N], acc[WMMA_N][WMMA_N];
        load_float_inputs(w, a, b, bf16_inputs(kind), A, B);
        for (unsigned i = 0; i < WMMA_N; i++)
            for (unsigned j = 0; j < WMMA_N; j++) {
                uint32_t c = C[i][j];
                acc[i][j] = kind == W_F16_F16 ? (double)f32_from_f16(c) : kind == W_BF16_BF16 ? bf16_value(c) : (double)f32_of(c);
            }
        float_products(A, B, acc);
        for (unsigned i = 0; i < WMMA_N; i++)
            for (unsigned j = 0; j < WMMA_N; j++) {
                double sum = acc[i][j];
                if (sum != sum)   /* the default quiet NaN: which input's payload would win is the summation order's */
                    out[i][j] = kind == W_F16_F16 ? 0x7e00u : kind == W_BF16_BF16 ? 0x7fc0u : 0x7fc00000u;
                else
                    out[i][j] = kind == W_F16_F16 ? rdna3_f16_from_f64(sum, 1) : kind == W_BF16_BF16 ? rdna3_bf16_from_f64(sum)
                                                                                : bits_f32((float)sum);
            }
    }
    bool high = (in->opsel >> 2) & 1u, half = half_result(kind);
    for (unsigned i = 0; i < WMMA_N; i++) {   /* row i: register i / groups, lanes from 16 (i mod groups) */
        uint32_t *d = rdna3_vreg(w, in->vdst + i / groups) + WMMA_N * (i % groups);
        for (unsigned j = 0; j < WMMA_N; j++)
            d[j] = !half ? out[i][j] : high ? (d[j] & 0xffffu) | (out[i][j] << 16) : (d[j] & 0xffff0000u) | out[i][j];
    }
}

rdna3_exec_fn rdna3_wmma_handler(unsigned op)
{
    return op >= 0x40 && op <= 0x45 ? exec_wmma : NULL;
}
