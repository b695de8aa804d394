/* RDNA3 DPP: lane movement of src0 for DPP16 and DPP8 forms.
 *
 * DPP16 (gfx10+ controls): quad_perm, row_shl/shr/ror 1..15, row_mirror, row_half_mirror,
 * row_share 0..15, row_xmask 0..15. A row is 16 lanes. A lane whose source lane lies outside
 * its row, or is inactive (unless fi = 1), reads 0 with bound_ctrl = 1 and is not written with
 * bound_ctrl = 0. row_mask/bank_mask bits (4 rows of 16 lanes, 4 banks of 4 lanes per row)
 * disable writes. DPP8: lane l reads lane (l & ~7) + sel[l & 7]; an inactive source reads 0
 * unless fi (the DPP8FI form).
 */
#include "isa/rdna3/exec_alu.h"

/* The decoder has unpacked the DPP dword: src[0] is the source VGPR (256 + n), dpp_ctrl /
 * row_mask / bank_mask / bound_ctrl / fetch_inactive (DPP16) or dpp8_sel / fetch_inactive (DPP8,
 * the DPP8FI form), and the DPP16 abs/neg bits are merged into in->abs / in->neg. */
unsigned rdna3_dpp_src0(const rdna3_inst *in)
{
    return (unsigned)(in->src[0] - RDNA3_SRC_VGPR0) & 0xffu;
}

/* Source lane of lane l under DPP16 control ctl, or -1 if it is outside the row. */
static int dpp16_src(unsigned ctl, unsigned l)
{
    unsigned row = l & ~15u, i = l & 15u;
    if (ctl <= 0xffu) return (int)((l & ~3u) + ((ctl >> (2u * (l & 3u))) & 3u));
    if (ctl >= 0x101 && ctl <= 0x10f) { unsigned s = i + (ctl & 15u); return s < 16 ? (int)(row + s) : -1; }
    if (ctl >= 0x111 && ctl <= 0x11f) { int s = (int)i - (int)(ctl & 15u); return s >= 0 ? (int)row + s : -1; }
    if (ctl >= 0x121 && ctl <= 0x12f) return (int)(row + ((i - (ctl & 15u)) & 15u));
    if (ctl == 0x140) return (int)(row + 15u - i);
    if (ctl == 0x141) return (int)(row + (i & 8u) + 7u - (i & 7u));
    if (ctl >= 0x150 && ctl <= 0x15f) return (int)(row + (ctl & 15u));
    if (ctl >= 0x160 && ctl <= 0x16f) return (int)(row + (i ^ (ctl & 15u)));
    return -1;
}

static int dpp8_src(uint32_t sel24, unsigned l)
{
    unsigned sel = (sel24 >> (3u * (l & 7u))) & 7u;
    return (int)((l & ~7u) + sel);
}

/* Source lane of lane l; *valid = 0 if it is out of range or an inactive lane not fetched. */
static int src_lane(const rdna3_wave *w, const rdna3_inst *in, unsigned l, uint64_t exec, bool *valid)
{
    int s = in->dpp == RDNA3_DPP_8 ? dpp8_src(in->dpp8_sel, l) : dpp16_src(in->dpp_ctrl, l);
    *valid = s >= 0 && (unsigned)s < w->wave_size && (in->fetch_inactive || ((exec >> s) & 1u));
    return s;
}

uint64_t rdna3_dpp_exec(const rdna3_wave *w, const rdna3_inst *in, uint64_t exec)
{
    if (in->dpp == RDNA3_DPP_8) return exec;   /* an invalid DPP8 source reads 0 */
    unsigned bank_mask = in->bank_mask & 15u, row_mask = in->row_mask & 15u, bc = in->bound_ctrl;
    uint64_t m = 0;
    for (unsigned l = 0; l < w->wave_size; l++) {
        if (!((exec >> l) & 1u)) continue;
        if (!((row_mask >> (l >> 4)) & 1u) || !((bank_mask >> ((l >> 2) & 3u)) & 1u)) continue;
        bool valid;
        (void)src_lane(w, in, l, exec, &valid);
        if (!valid && !bc) continue;
        m |= 1ull << l;
    }
    return m;
}

void rdna3_dpp_fetch(rdna3_wave *w, const rdna3_inst *in, uint32_t *buf)
{
    const uint32_t *v = rdna3_vreg(w, rdna3_dpp_src0(in));
    uint64_t exec = rdna3_exec(w);
    for (unsigned l = 0; l < w->wave_size; l++) {
        bool valid;
        int s = src_lane(w, in, l, exec, &valid);
        buf[l] = valid ? v[s] : 0u;
    }
}
