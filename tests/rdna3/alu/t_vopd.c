/* VOPD dual issue: both halves read their sources before either writes. */
#include <math.h>

#include "at.h"

static void vopd_swap_reads_first(at *t)
{
    for (unsigned l = 0; l < 32; l++) {
        at_v(t, 0, l, 1000u + l);
        at_v(t, 1, l, 2000u + l);
    }
    at_code(t, "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v1, v0");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        EQ(t, at_gv(t, 0, l), 2000u + l);
        EQ(t, at_gv(t, 1, l), 1000u + l);
    }
}

static void vopd_ops(at *t)
{
    for (unsigned l = 0; l < 32; l++) {
        at_v(t, 2, l, fb(1.5f + (float)l));
        at_v(t, 3, l, fb(-2.0f));
        at_v(t, 4, l, fb(0.25f));
        at_v(t, 5, l, 7u + l);
        at_v(t, 6, l, 3u);
        at_v(t, 8, l, fb(10.0f));
        at_v(t, 7, l, 3u);
        at_v(t, 20, l, fb(1.5f + (float)l));   /* copies in other VGPR banks (VOPD needs */
        at_v(t, 21, l, fb(-2.0f));             /* the two halves' sources in different banks) */
    }
    umb_rdna3_step_set_vcc(t->s, 0x0000ffffu);
    at_code(t, "v_dual_fmac_f32 v8, v2, v3 :: v_dual_add_nc_u32 v9, v5, v6\n"
               "v_dual_mul_f32 v10, v2, v4 :: v_dual_lshlrev_b32 v11, v7, v5\n"
               "v_dual_fmaak_f32 v12, v2, v3, 0x40400000 :: v_dual_and_b32 v13, v5, v6\n"
               "v_dual_cndmask_b32 v14, v2, v3 :: v_dual_max_f32 v15, v20, v21\n"
               "v_dual_sub_f32 v16, v2, v3 :: v_dual_subrev_f32 v17, v20, v21\n"
               "v_dual_min_f32 v18, v2, v3 :: v_dual_fmamk_f32 v19, v20, 0x40400000, v4\n");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        float a = 1.5f + (float)l;
        EQF(t, at_gv(t, 8, l), fmaf(a, -2.0f, 10.0f));
        EQ(t, at_gv(t, 9, l), 10u + l);
        EQF(t, at_gv(t, 10, l), a * 0.25f);
        EQ(t, at_gv(t, 11, l), (7u + l) << 3);
        EQF(t, at_gv(t, 12, l), fmaf(a, -2.0f, 3.0f));
        EQ(t, at_gv(t, 13, l), (7u + l) & 3u);
        EQF(t, at_gv(t, 14, l), l < 16 ? -2.0f : a);
        EQF(t, at_gv(t, 15, l), a);
        EQF(t, at_gv(t, 16, l), a + 2.0f);
        EQF(t, at_gv(t, 17, l), -2.0f - a);
        EQF(t, at_gv(t, 18, l), -2.0f);
        EQF(t, at_gv(t, 19, l), fmaf(a, 3.0f, 0.25f));
    }
}

static void vopd_exec_mask(at *t)
{
    for (unsigned l = 0; l < 32; l++) {
        at_v(t, 0, l, 5u);
        at_v(t, 1, l, 6u);
        at_v(t, 2, l, 0xccccccccu);
        at_v(t, 3, l, 0xccccccccu);
    }
    umb_rdna3_step_set_exec(t->s, 0xf0u);
    at_code(t, "v_dual_mov_b32 v2, v0 :: v_dual_mov_b32 v3, v1");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        bool on = l >= 4 && l < 8;
        EQ(t, at_gv(t, 2, l), on ? 5u : 0xccccccccu);
        EQ(t, at_gv(t, 3, l), on ? 6u : 0xccccccccu);
    }
}

/* With f32 denormals off, the f32 halves flush inputs and results; moves do not. */
static void vopd_denorm_flush(at *t)
{
    umb_rdna3_step_set_mode(t->s, 0x3c0u);   /* f32 denorm field 0 */
    for (unsigned l = 0; l < 32; l++) {
        at_v(t, 2, l, fb(0x1p-130f));
        at_v(t, 3, l, fb(1.0f));
        at_v(t, 5, l, fb(0x1p-130f));
    }
    at_code(t, "v_dual_mul_f32 v0, v2, v3 :: v_dual_mov_b32 v1, v5");
    RUNS(t);
    EQF(t, at_gv(t, 0, 0), 0.0f);
    EQ(t, at_gv(t, 1, 0), fb(0x1p-130f));
}

const at_case at_vopd_cases[] = {
    C(vopd_swap_reads_first), C(vopd_ops), C(vopd_exec_mask), C(vopd_denorm_flush),
    {NULL, NULL},
};
