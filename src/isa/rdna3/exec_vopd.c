/* RDNA3 VOPD: two VALU operations issued together (v_dual_X :: v_dual_Y).
 *
 * Both halves read all their sources (including the accumulator of fmac and VCC of cndmask)
 * before either writes, so each half computes into a lane buffer first and the buffers are
 * committed afterwards. Opcodes: X 0..13, Y 0..18 (16..18 = add_nc_u32, lshlrev_b32, and_b32).
 * fmaak/fmamk use the instruction's literal.
 */
#include "isa/rdna3/exec_alu.h"

static const uint32_t *lanes_of(rdna3_wave *w, const rdna3_inst *in, unsigned enc, uint32_t *buf)
{
    if (enc >= RDNA3_SRC_VGPR0) return rdna3_vreg(w, enc - RDNA3_SRC_VGPR0);
    rdna3_fill_lanes(buf, w->wave_size, rdna3_scalar_src32(w, in, enc, RK_F32));
    return buf;
}

static inline uint32_t flush32(uint32_t u) { return (u & 0x7f800000u) == 0 ? (u & 0x80000000u) : u; }

/* The f32 halves (everything but mov, cndmask, dot2acc and the integer Y ops) follow MODE's f32
 * denormal field like their VOP2 forms. */
static bool vopd_is_f32(unsigned op) { return op <= 7 || op == 10 || op == 11; }

static bool vopd_half(rdna3_wave *w, const rdna3_inst *in, unsigned op, unsigned s0, unsigned s1, unsigned vdst,
                      uint32_t *out)
{
    uint32_t b0[RDNA3_MAX_LANES], b1[RDNA3_MAX_LANES], b2[RDNA3_MAX_LANES];
    const uint32_t *A = lanes_of(w, in, s0, b0), *B = lanes_of(w, in, s1, b1);
    const uint32_t *Dv = rdna3_vreg(w, vdst);
    unsigned dn = rdna3_denorm32(w);
    if (__builtin_expect(dn != 3 && vopd_is_f32(op), 0) && !(dn & 1u)) {
        for (unsigned l = 0; l < w->wave_size; l++) {
            b0[l] = flush32(A[l]);
            b1[l] = flush32(B[l]);
            b2[l] = flush32(Dv[l]);
        }
        A = b0;
        B = b1;
        Dv = b2;
    }
    uint64_t vcc = rdna3_vcc(w);
    unsigned n = w->wave_size;
    switch (op) {
    case 0: rdna3_fma32_lanes(n, out, A, B, Dv); break;
    case 1: /* b2 is free: Dv is not read */ rdna3_fill_lanes(b2, n, in->literal); rdna3_fma32_lanes(n, out, A, B, b2); break;
    case 2: rdna3_fill_lanes(b2, n, in->literal); rdna3_fma32_lanes(n, out, A, b2, B); break;
    case 3: for (unsigned l = 0; l < n; l++) out[l] = bits_f32(f32_of(A[l]) * f32_of(B[l])); break;
    case 4: for (unsigned l = 0; l < n; l++) out[l] = bits_f32(f32_of(A[l]) + f32_of(B[l])); break;
    case 5: for (unsigned l = 0; l < n; l++) out[l] = bits_f32(f32_of(A[l]) - f32_of(B[l])); break;
    case 6: for (unsigned l = 0; l < n; l++) out[l] = bits_f32(f32_of(B[l]) - f32_of(A[l])); break;
    case 7:
        for (unsigned l = 0; l < n; l++) {
            float a = f32_of(A[l]), b = f32_of(B[l]);
            out[l] = bits_f32((a == 0.0f || b == 0.0f) ? 0.0f : a * b);
        }
        break;
    case 8: for (unsigned l = 0; l < n; l++) out[l] = A[l]; break;
    case 9: for (unsigned l = 0; l < n; l++) out[l] = RDNA3_ON(vcc, l) ? B[l] : A[l]; break;
    case 10: for (unsigned l = 0; l < n; l++) out[l] = bits_f32(rdna3_fmax32(w, f32_of(A[l]), f32_of(B[l]))); break;
    case 11: for (unsigned l = 0; l < n; l++) out[l] = bits_f32(rdna3_fmin32(w, f32_of(A[l]), f32_of(B[l]))); break;
    case 12:
        for (unsigned l = 0; l < n; l++) {
            double s = (double)f32_from_f16(A[l]) * f32_from_f16(B[l]) +
                       (double)f32_from_f16(A[l] >> 16) * f32_from_f16(B[l] >> 16) + f32_of(Dv[l]);
            out[l] = bits_f32((float)s);
        }
        break;
    case 13:
        for (unsigned l = 0; l < n; l++) {
            double s = (double)f32_of(A[l] << 16) * f32_of(B[l] << 16) +
                       (double)f32_of(A[l] & 0xffff0000u) * f32_of(B[l] & 0xffff0000u) + f32_of(Dv[l]);
            out[l] = bits_f32((float)s);
        }
        break;
    case 16: for (unsigned l = 0; l < n; l++) out[l] = A[l] + B[l]; break;
    case 17: for (unsigned l = 0; l < n; l++) out[l] = B[l] << (A[l] & 31u); break;
    case 18: for (unsigned l = 0; l < n; l++) out[l] = A[l] & B[l]; break;
    default: return false;
    }
    if (__builtin_expect(!(dn & 2u) && vopd_is_f32(op), 0))
        for (unsigned l = 0; l < n; l++) out[l] = flush32(out[l]);
    return true;
}

void rdna3_exec_vopd(rdna3_wave *w, const rdna3_inst *in)
{
    uint32_t x[RDNA3_MAX_LANES], y[RDNA3_MAX_LANES];
    if (in->op > 13 || !vopd_half(w, in, in->op, in->src[0], in->src[1], in->vdst, x)) {
        rdna3_fault(w, in, UMB_ERR_UNSUPPORTED, "VOPD X opcode %u is not valid", in->op);
        return;
    }
    if (!vopd_half(w, in, in->opy, in->srcy[0], in->srcy[1], in->vdsty, y)) {
        rdna3_fault(w, in, UMB_ERR_UNSUPPORTED, "VOPD Y opcode %u is not valid", in->opy);
        return;
    }
    uint64_t m = rdna3_exec(w);
    uint32_t *DX = rdna3_vreg(w, in->vdst), *DY = rdna3_vreg(w, in->vdsty);
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        DX[l] = x[l];
        DY[l] = y[l];
    }
}
