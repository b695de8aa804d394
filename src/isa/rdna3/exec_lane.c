/* RDNA3 cross-lane VALU operations: readlane/writelane/readfirstlane, mbcnt, permlane16/x16/64,
 * and the M0-relative VGPR moves (movrels/movreld/movrelsd). */
#include "isa/rdna3/exec_alu.h"

static inline uint32_t lane_sel(const rdna3_wave *w, const rdna3_inst *in, unsigned i)
{
    return rdna3_scalar_src32(w, in, in->src[i], RK_B32) & (w->wave_size - 1u);
}

static bool need_vgpr(rdna3_wave *w, const rdna3_inst *in, unsigned enc)
{
    if (enc >= RDNA3_SRC_VGPR0) return true;
    rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "operand must be a VGPR");
    return false;
}

/* v_readlane_b32 sdst, vsrc0, ssrc1: the value of one lane, regardless of EXEC. */
static void v_readlane_b32(rdna3_wave *w, const rdna3_inst *in)
{
    if (!need_vgpr(w, in, in->src[0])) return;
    uint32_t v = rdna3_vreg(w, in->src[0] - RDNA3_SRC_VGPR0)[lane_sel(w, in, 1)];
    rdna3_sdst32(w, in->vdst, v);
}

/* v_writelane_b32 vdst, ssrc0, ssrc1: write one lane, regardless of EXEC. */
static void v_writelane_b32(rdna3_wave *w, const rdna3_inst *in)
{
    uint32_t v = rdna3_scalar_src32(w, in, in->src[0], RK_B32);
    rdna3_vreg(w, in->vdst)[lane_sel(w, in, 1)] = v;
}

/* v_readfirstlane_b32 sdst, vsrc0: the first active lane (lane 0 if none is active). */
static void v_readfirstlane_b32(rdna3_wave *w, const rdna3_inst *in)
{
    uint64_t e = rdna3_exec(w);
    unsigned lane = e ? (unsigned)__builtin_ctzll(e) : 0;
    uint32_t v = in->src[0] >= RDNA3_SRC_VGPR0 ? rdna3_vreg(w, in->src[0] - RDNA3_SRC_VGPR0)[lane]
                                               : rdna3_scalar_src32(w, in, in->src[0], RK_B32);
    rdna3_sdst32(w, in->vdst, v);
}

/* v_mbcnt_lo/hi_u32_b32: bits of S0 set below this lane (low / high 32 lanes) plus S1. */
static void mbcnt(rdna3_wave *w, const rdna3_inst *in, bool hi)
{
    uint32_t ab[RDNA3_MAX_LANES], bb[RDNA3_MAX_LANES];
    const uint32_t *A = rdna3_vsrc(w, in, 0, RK_B32, ab), *B = rdna3_vsrc(w, in, 1, RK_B32, bb);
    uint64_t m = rdna3_vexec(w, in);
    uint32_t *D = rdna3_vreg(w, in->vdst);
    RDNA3_LANES(w) {
        uint64_t below = (1ull << l) - 1u;
        uint32_t part = hi ? (uint32_t)(below >> 32) : (uint32_t)below;
        uint32_t r = umb_popcount64(A[l] & part) + B[l];
        D[l] = RDNA3_ON(m, l) ? r : D[l];
    }
}
static void v_mbcnt_lo_u32_b32(rdna3_wave *w, const rdna3_inst *in) { mbcnt(w, in, false); }
static void v_mbcnt_hi_u32_b32(rdna3_wave *w, const rdna3_inst *in) { mbcnt(w, in, true); }

/* v_permlane16_b32 / v_permlanex16_b32 vdst, vsrc0, ssel_lo, ssel_hi: lane i of each row reads
 * lane sel[i] of the same row (x16: of the other row of the pair). op_sel[0] = fetch inactive,
 * op_sel[1] = bound_ctrl (an inactive source gives 0 instead of leaving the lane alone). */
static void permlane16(rdna3_wave *w, const rdna3_inst *in, bool cross)
{
    if (!need_vgpr(w, in, in->src[0])) return;
    uint64_t sel = (uint64_t)rdna3_scalar_src32(w, in, in->src[1], RK_B32) |
                   ((uint64_t)rdna3_scalar_src32(w, in, in->src[2], RK_B32) << 32);
    bool fi = in->opsel & 1u, bc = (in->opsel >> 1) & 1u;
    const uint32_t *S = rdna3_vreg(w, in->src[0] - RDNA3_SRC_VGPR0);
    uint32_t tmp[RDNA3_MAX_LANES];
    uint64_t e = rdna3_exec(w), m = 0;
    RDNA3_LANES(w) {
        unsigned row = (l & ~15u) ^ (cross ? 16u : 0u);
        unsigned s = row + (unsigned)((sel >> (4u * (l & 15u))) & 15u);
        if (!RDNA3_ON(e, l)) continue;
        if (fi || RDNA3_ON(e, s)) { tmp[l] = S[s]; m |= 1ull << l; }
        else if (bc) { tmp[l] = 0; m |= 1ull << l; }
    }
    uint32_t *D = rdna3_vreg(w, in->vdst);
    RDNA3_LANES(w) if (RDNA3_ON(m, l)) D[l] = tmp[l];
}
static void v_permlane16_b32(rdna3_wave *w, const rdna3_inst *in) { permlane16(w, in, false); }
static void v_permlanex16_b32(rdna3_wave *w, const rdna3_inst *in) { permlane16(w, in, true); }

/* v_permlane64_b32: swap the two halves of a wave64 (a plain move in wave32). */
static void v_permlane64_b32(rdna3_wave *w, const rdna3_inst *in)
{
    if (!need_vgpr(w, in, in->src[0])) return;
    const uint32_t *S = rdna3_vreg(w, in->src[0] - RDNA3_SRC_VGPR0);
    uint32_t tmp[RDNA3_MAX_LANES];
    unsigned x = w->wave_size == 64 ? 32u : 0u;
    RDNA3_LANES(w) tmp[l] = S[l ^ x];
    uint64_t m = rdna3_exec(w);
    uint32_t *D = rdna3_vreg(w, in->vdst);
    RDNA3_LANES(w) if (RDNA3_ON(m, l)) D[l] = tmp[l];
}

/* M0-relative VGPR moves. */
static void movrel(rdna3_wave *w, const rdna3_inst *in, bool rel_src, bool rel_dst, bool two)
{
    uint32_t m0 = w->sgpr[RDNA3_SRC_M0];
    uint32_t src_off = rel_src ? (m0 & (two ? 0x3ffu : 0xffffffffu)) : 0;
    uint32_t dst_off = rel_dst ? (two ? (m0 >> 16) & 0x3ffu : m0) : 0;
    uint64_t dreg = (uint64_t)in->vdst + dst_off;
    bool src_v = in->src[0] >= RDNA3_SRC_VGPR0;
    uint64_t sreg = src_v ? (uint64_t)(in->src[0] - RDNA3_SRC_VGPR0) + src_off : 0;
    if (dreg >= RDNA3_NUM_VGPRS || sreg >= RDNA3_NUM_VGPRS) {
        rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "M0-relative VGPR index out of range (M0 = 0x%x)", m0);
        return;
    }
    uint32_t buf[RDNA3_MAX_LANES];
    const uint32_t *S;
    if (src_v) S = rdna3_vreg(w, (unsigned)sreg);
    else S = rdna3_vsrc(w, in, 0, RK_B32, buf);
    uint64_t m = rdna3_exec(w);
    uint32_t *D = rdna3_vreg(w, (unsigned)dreg);
    RDNA3_LANES(w) if (RDNA3_ON(m, l)) D[l] = S[l];
}
static void v_movreld_b32(rdna3_wave *w, const rdna3_inst *in) { movrel(w, in, false, true, false); }
static void v_movrels_b32(rdna3_wave *w, const rdna3_inst *in) { movrel(w, in, true, false, false); }
static void v_movrelsd_b32(rdna3_wave *w, const rdna3_inst *in) { movrel(w, in, true, true, false); }
static void v_movrelsd_2_b32(rdna3_wave *w, const rdna3_inst *in) { movrel(w, in, true, true, true); }

/* v_swaprel_b32: swap VGPR[vdst + M0[25:16]] and VGPR[src0 + M0[9:0]] in active lanes. */
static void v_swaprel_b32(rdna3_wave *w, const rdna3_inst *in)
{
    if (!need_vgpr(w, in, in->src[0])) return;
    uint32_t m0 = w->sgpr[RDNA3_SRC_M0];
    uint64_t d = (uint64_t)in->vdst + ((m0 >> 16) & 0x3ffu), s = (uint64_t)(in->src[0] - RDNA3_SRC_VGPR0) + (m0 & 0x3ffu);
    if (d >= RDNA3_NUM_VGPRS || s >= RDNA3_NUM_VGPRS) {
        rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "M0-relative VGPR index out of range (M0 = 0x%x)", m0);
        return;
    }
    uint32_t *X = rdna3_vreg(w, (unsigned)d), *Y = rdna3_vreg(w, (unsigned)s);
    uint64_t m = rdna3_exec(w);
    RDNA3_LANES(w) {
        if (!RDNA3_ON(m, l)) continue;
        uint32_t t = X[l];
        X[l] = Y[l];
        Y[l] = t;
    }
}

rdna3_exec_fn rdna3_lane_handler(unsigned op)
{
    switch (op) {
    case 0x182: return v_readfirstlane_b32;
    case 0x1c2: return v_movreld_b32;
    case 0x1c3: return v_movrels_b32;
    case 0x1c4: return v_movrelsd_b32;
    case 0x1c8: return v_movrelsd_2_b32;
    case 0x1e7: return v_permlane64_b32;
    case 0x1e8: return v_swaprel_b32;
    case 0x25b: return v_permlane16_b32;
    case 0x25c: return v_permlanex16_b32;
    case 0x31f: return v_mbcnt_lo_u32_b32;
    case 0x320: return v_mbcnt_hi_u32_b32;
    case 0x360: return v_readlane_b32;
    case 0x361: return v_writelane_b32;
    default: return NULL;
    }
}
