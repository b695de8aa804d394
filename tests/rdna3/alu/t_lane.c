/* Cross-lane operations: readlane/writelane/readfirstlane, mbcnt, permlane16/x16/64, M0-relative
 * VGPR moves, v_swap_b32. */
#include "at.h"

static void lane_read_write(at *t)
{
    for (unsigned l = 0; l < 32; l++) at_v(t, 1, l, 500u + l);
    umb_rdna3_step_set_exec(t->s, 0xfff00000u);      /* first active lane: 20 */
    at_s(t, 3, 37);                                  /* lane select wraps to 37 & 31 = 5 */
    at_code(t, "v_readlane_b32 s0, v1, 7\n"
               "v_readlane_b32 s1, v1, s3\n"
               "v_readfirstlane_b32 s2, v1\n"
               "v_writelane_b32 v1, s0, 2\n"         /* ignores EXEC */
               "v_writelane_b32 v1, 0x1234, 31\n");
    RUNS(t);
    EQ(t, at_gs(t, 0), 507);
    EQ(t, at_gs(t, 1), 505);
    EQ(t, at_gs(t, 2), 520);
    EQ(t, at_gv(t, 1, 2), 507);
    EQ(t, at_gv(t, 1, 31), 0x1234);
    EQ(t, at_gv(t, 1, 3), 503);
    umb_rdna3_step_set_exec(t->s, 0);
    at_code(t, "v_readfirstlane_b32 s4, v1");       /* no active lane: lane 0 */
    RUNS(t);
    EQ(t, at_gs(t, 4), 500);
}

static void lane_mbcnt(at *t)
{
    at_s(t, 0, 0xf0f0f0f0u);
    at_code(t, "v_mbcnt_lo_u32_b32 v0, -1, 0\n"
               "v_mbcnt_lo_u32_b32 v1, s0, 100\n");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        EQ(t, at_gv(t, 0, l), l);
        EQ(t, at_gv(t, 1, l), 100u + (uint32_t)__builtin_popcount(0xf0f0f0f0u & ((1u << l) - 1u)));
    }
    at_begin(t, 64);
    at_code(t, "v_mbcnt_lo_u32_b32 v0, -1, 0\n"
               "v_mbcnt_hi_u32_b32 v0, -1, v0\n");
    RUNS(t);
    for (unsigned l = 0; l < 64; l++) EQ(t, at_gv(t, 0, l), l);
}

static void lane_permlane(at *t)
{
    at_begin(t, 64);
    for (unsigned l = 0; l < 64; l++) {
        at_v(t, 1, l, 1000u + l);
        at_v(t, 0, l, 0xccccccccu);
        at_v(t, 2, l, 0xccccccccu);
        at_v(t, 3, l, 0xccccccccu);
    }
    /* selects: lane i of a row reads lane (15 - i) of its row */
    at_s(t, 4, 0x89abcdefu);
    at_s(t, 5, 0x01234567u);
    at_code(t, "v_permlane16_b32 v0, v1, s4, s5\n"
               "v_permlanex16_b32 v2, v1, s4, s5\n"
               "v_permlane64_b32 v3, v1\n");
    RUNS(t);
    for (unsigned l = 0; l < 64; l++) {
        unsigned row = l & ~15u, i = l & 15u;
        EQ(t, at_gv(t, 0, l), 1000u + row + 15u - i);
        EQ(t, at_gv(t, 2, l), 1000u + (row ^ 16u) + 15u - i);
        EQ(t, at_gv(t, 3, l), 1000u + (l ^ 32u));
    }
}

static void lane_movrel_swap(at *t)
{
    for (unsigned l = 0; l < 32; l++) {
        at_v(t, 10, l, 10u * l);
        at_v(t, 12, l, 12u * l);
        at_v(t, 20, l, 0xccccccccu);
        at_v(t, 30, l, 30u);
        at_v(t, 31, l, 31u);
    }
    at_code(t, "s_mov_b32 m0, 2\n"
               "v_movrels_b32_e32 v0, v10\n"     /* v0 = v12 */
               "v_movreld_b32_e32 v18, v10\n"    /* v20 = v10 */
               "v_swap_b32 v30, v31\n");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        EQ(t, at_gv(t, 0, l), 12u * l);
        EQ(t, at_gv(t, 20, l), 10u * l);
        EQ(t, at_gv(t, 30, l), 31u);
        EQ(t, at_gv(t, 31, l), 30u);
    }
    at_code(t, "s_mov_b32 m0, 250\n"
               "v_movrels_b32_e32 v0, v10\n");
    FAULTS(t, "out of range");
}

const at_case at_lane_cases[] = {
    C(lane_read_write), C(lane_mbcnt), C(lane_permlane), C(lane_movrel_swap),
    {NULL, NULL},
};
