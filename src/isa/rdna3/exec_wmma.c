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
 * type, as for the integer-valued test matrices).
 */
#include "isa/rdna3/exec_alu.h"

enum { WMMA_N = 16 };

typedef enum { W_F32_F16, W_F32_BF16, W_F16_F16, W_BF16_BF16, W_I32_IU8, W_I32_IU4 } wmma_kind;

static unsigned bits_per_element(wmma_kind k) { return k == W_I32_IU8 ? 8u : k == W_I32_IU4 ? 4u : 16u; }
static bool float_kind(wmma_kind k) { return k <= W_BF16_BF16; }
static bool half_result(wmma_kind k) { return k == W_F16_F16 || k == W_BF16_BF16; }
static bool bf16_inputs(wmma_kind k) { return k == W_F32_BF16 || k == W_BF16_BF16; }

static double bf16_value(uint32_t h) { return (double)f32_of((h & 0xffffu) << 16); }

/* Element `k` of a row (A) or column (B) in lane `l` starting at VGPR `reg`. */
static uint32_t element(rdna3_wave *w, unsigned reg, unsigned l, unsigned k, unsigned bits)
{
    unsigned per = 32u / bits;
    uint32_t v = rdna3_vreg(w, reg + k / per)[l];
    return (v >> (bits * (k % per))) & ((1u << bits) - 1u);
}

static double float_input(uint32_t e, bool bf16) { return bf16 ? bf16_value(e) : (double)f32_from_f16(e); }

static int64_t int_input(uint32_t e, unsigned bits, bool is_signed)
{
    return is_signed && (e >> (bits - 1)) ? (int64_t)e - ((int64_t)1 << bits) : (int64_t)e;
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

/* The bits of C[i][j] (its 16-bit half for the 16-bit forms): from VGPRs at its lane and register, or a
 * broadcast constant. */
static uint32_t c_bits(rdna3_wave *w, const rdna3_inst *in, wmma_kind kind, unsigned i, unsigned j, uint32_t scalar)
{
    unsigned groups = w->wave_size / WMMA_N;   /* rows a register holds */
    uint32_t v = scalar;
    if (in->src[2] >= RDNA3_SRC_VGPR0)
        v = rdna3_vreg(w, in->src[2] - RDNA3_SRC_VGPR0 + i / groups)[(WMMA_N * i) % w->wave_size + j];
    if (half_result(kind)) v = ((in->opsel >> 2) & 1u) ? v >> 16 : v & 0xffffu;
    return v;
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
    uint32_t out[WMMA_N][WMMA_N];   /* D[i][j] as bits of the result type; written after all reads */
    bool sa = in->neg & 1u, sb = (in->neg >> 1) & 1u;
    for (unsigned i = 0; i < WMMA_N; i++)
        for (unsigned j = 0; j < WMMA_N; j++) {
            uint32_t c = c_bits(w, in, kind, i, j, scalar);
            if (!float_kind(kind)) {
                int64_t s = (int32_t)c;
                for (unsigned k = 0; k < WMMA_N; k++)
                    s += int_input(element(w, a, i, k, bits), bits, sa) * int_input(element(w, b, j, k, bits), bits, sb);
                if (in->clamp) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                out[i][j] = (uint32_t)s;
                continue;
            }
            bool bf = bf16_inputs(kind);
            double s = kind == W_F16_F16 ? (double)f32_from_f16(c) : kind == W_BF16_BF16 ? bf16_value(c) : (double)f32_of(c);
            for (unsigned k = 0; k < WMMA_N; k++)
                s += float_input(element(w, a, i, k, bits), bf) * float_input(element(w, b, j, k, bits), bf);
            out[i][j] = kind == W_F16_F16 ? rdna3_f16_from_f64(s, 1) : kind == W_BF16_BF16 ? rdna3_bf16_from_f64(s)
                                                                        : bits_f32((float)s);
        }
    bool high = (in->opsel >> 2) & 1u;
    for (unsigned i = 0; i < WMMA_N; i++)
        for (unsigned j = 0; j < WMMA_N; j++) {
            uint32_t *d = &rdna3_vreg(w, in->vdst + i / groups)[(WMMA_N * i) % w->wave_size + j];
            if (!half_result(kind)) *d = out[i][j];
            else *d = high ? (*d & 0xffffu) | (out[i][j] << 16) : (*d & 0xffff0000u) | out[i][j];
        }
}

rdna3_exec_fn rdna3_wmma_handler(unsigned op)
{
    return op >= 0x40 && op <= 0x45 ? exec_wmma : NULL;
}
