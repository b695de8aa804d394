/* DPP16 and DPP8 lane movement. The expected source lane of each pattern is written out here from
 * the RDNA3 ISA definitions (rows of 16 lanes, banks of 4): -1 = no valid source lane. */
#include "at.h"

enum { INVALID = -1 };

static int src_quad(unsigned l, const unsigned sel[4]) { return (int)((l & ~3u) + sel[l & 3u]); }
static int src_shl(unsigned l, unsigned n) { return (l & 15u) + n < 16 ? (int)(l + n) : INVALID; }
static int src_shr(unsigned l, unsigned n) { return (l & 15u) >= n ? (int)(l - n) : INVALID; }
static int src_ror(unsigned l, unsigned n) { return (int)((l & ~15u) | (((l & 15u) + 16u - n) & 15u)); }
static int src_mirror(unsigned l) { return (int)((l & ~15u) | (15u - (l & 15u))); }
static int src_half_mirror(unsigned l) { return (int)((l & ~7u) | (7u - (l & 7u))); }
static int src_share(unsigned l, unsigned n) { return (int)((l & ~15u) | n); }
static int src_xmask(unsigned l, unsigned n) { return (int)((l & ~15u) | ((l & 15u) ^ n)); }

/* Run v_mov_b32_dpp v0, v1 <ctl> with v1 = 100 + lane and check each lane: a valid source gives
 * 100 + src; an invalid one gives 0 with bound_ctrl:1, or leaves v0 (0xcccccccc) alone. */
static void check_mov(at *t, const char *ctl, int (*src)(unsigned l, unsigned arg), unsigned arg, bool bc)
{
    for (unsigned l = 0; l < 64; l++) {
        at_v(t, 1, l, 100u + l);
        at_v(t, 0, l, 0xccccccccu);
    }
    at_code(t, "v_mov_b32_dpp v0, v1 %s%s", ctl, bc ? " bound_ctrl:1" : "");
    RUNS(t);
    for (unsigned l = 0; l < t->wave_size; l++) {
        int s = src(l, arg);
        uint32_t want = s != INVALID ? 100u + (unsigned)s : bc ? 0u : 0xccccccccu;
        if (at_gv(t, 0, l) != want) {
            at_fail(t, __FILE__, __LINE__, "%s%s lane %u: got 0x%x, expected 0x%x", ctl, bc ? " bc" : "", l,
                    at_gv(t, 0, l), want);
            return;
        }
    }
}

static const unsigned rev4[4] = {3, 2, 1, 0};
static int quad_rev(unsigned l, unsigned a) { (void)a; return src_quad(l, rev4); }
static int mirror(unsigned l, unsigned a) { (void)a; return src_mirror(l); }
static int half_mirror(unsigned l, unsigned a) { (void)a; return src_half_mirror(l); }

void dpp_row_patterns(at *t)
{
    check_mov(t, "quad_perm:[3,2,1,0]", quad_rev, 0, false);
    check_mov(t, "row_shl:1", src_shl, 1, false);
    check_mov(t, "row_shl:1", src_shl, 1, true);
    check_mov(t, "row_shl:15", src_shl, 15, true);
    check_mov(t, "row_shr:3", src_shr, 3, false);
    check_mov(t, "row_shr:3", src_shr, 3, true);
    check_mov(t, "row_ror:4", src_ror, 4, false);
    check_mov(t, "row_mirror", mirror, 0, false);
    check_mov(t, "row_half_mirror", half_mirror, 0, false);
    check_mov(t, "row_share:5", src_share, 5, false);
    check_mov(t, "row_xmask:3", src_xmask, 3, false);
}

static void dpp_wave64_rows(at *t)
{
    at_begin(t, 64);
    check_mov(t, "row_shr:1", src_shr, 1, true);
    check_mov(t, "row_share:15", src_share, 15, false);
    check_mov(t, "row_xmask:9", src_xmask, 9, false);
}

/* row_mask / bank_mask disable writes; an inactive source lane is invalid unless fi:1. */
static void dpp_masks_fi(at *t)
{
    for (unsigned l = 0; l < 32; l++) {
        at_v(t, 1, l, 100u + l);
        at_v(t, 0, l, 0xccccccccu);
    }
    at_code(t, "v_mov_b32_dpp v0, v1 quad_perm:[1,1,1,1] row_mask:0x1 bank_mask:0x5");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        bool on = l < 16 && (((l >> 2) & 3u) == 0 || ((l >> 2) & 3u) == 2);
        EQ(t, at_gv(t, 0, l), on ? 100u + (l & ~3u) + 1u : 0xccccccccu);
    }
    /* lanes 1, 5, 9, ... inactive: with fi:0 their readers are invalid (bound_ctrl:1 -> 0) */
    for (unsigned fi = 0; fi < 2; fi++) {
        for (unsigned l = 0; l < 32; l++) at_v(t, 0, l, 0xccccccccu);
        umb_rdna3_step_set_exec(t->s, ~0x22222222u & 0xffffffffu);
        at_code(t, "v_mov_b32_dpp v0, v1 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf bound_ctrl:1%s",
                fi ? " fi:1" : "");
        RUNS(t);
        for (unsigned l = 0; l < 32; l++) {
            bool active = !((0x22222222u >> l) & 1u);
            uint32_t want = !active ? 0xccccccccu : fi ? 100u + (l & ~3u) + 1u : 0u;
            EQ(t, at_gv(t, 0, l), want);
        }
    }
}

static void dpp8_and_arith(at *t)
{
    for (unsigned l = 0; l < 32; l++) {
        at_v(t, 1, l, fb((float)l));
        at_v(t, 2, l, fb(-0.5f * (float)l));
        at_v(t, 0, l, 0xccccccccu);
    }
    at_code(t, "v_add_f32_dpp v0, v1, v2 dpp8:[7,6,5,4,3,2,1,0]");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) EQF(t, at_gv(t, 0, l), (float)((l & ~7u) + 7u - (l & 7u)) - 0.5f * (float)l);
    /* DPP16 with source modifiers in the DPP dword */
    at_code(t, "v_add_f32_dpp v0, -v1, |v2| row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        float s0 = (l & 15u) ? (float)(l - 1) : 0.0f;
        EQF(t, at_gv(t, 0, l), -s0 + 0.5f * (float)l);
    }
    /* VOP3 DPP */
    at_code(t, "v_add_nc_u32_e64_dpp v0, v1, v2 row_mirror row_mask:0xf bank_mask:0xf");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) EQ(t, at_gv(t, 0, l), fb((float)src_mirror(l)) + fb(-0.5f * (float)l));
    /* DPP compare */
    at_code(t, "v_cmp_lt_f32_dpp vcc_lo, v1, v1 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf");
    RUNS(t);
    uint32_t want = 0;
    for (unsigned l = 0; l < 32; l++) want |= (uint32_t)((float)(l & ~3u) < (float)l) << l;
    EQ(t, umb_rdna3_step_get_vcc(t->s), want);
}

const at_case at_dpp_cases[] = {
    C(dpp_row_patterns), C(dpp_wave64_rows), C(dpp_masks_fi), C(dpp8_and_arith),
    {NULL, NULL},
};
