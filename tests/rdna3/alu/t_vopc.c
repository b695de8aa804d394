/* VOPC: every float condition (ordered/unordered with NaN), integer conditions, class masks,
 * e32 -> VCC, e64 -> SGPR, cmpx -> EXEC only, inactive lanes -> 0. */
#include <math.h>

#include "at.h"

static const char *fconds[16] = {"f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "t"};

static bool fcond(unsigned c, double a, double b)
{
    switch (c) {
    case 0: return false;
    case 1: return a < b;
    case 2: return a == b;
    case 3: return a <= b;
    case 4: return a > b;
    case 5: return a < b || a > b;
    case 6: return a >= b;
    case 7: return !isnan(a) && !isnan(b);
    case 8: return isnan(a) || isnan(b);
    case 9: return !(a >= b);
    case 10: return !(a < b || a > b);
    case 11: return !(a > b);
    case 12: return !(a <= b);
    case 13: return !(a == b);
    case 14: return !(a < b);
    default: return true;
    }
}

static void vopc_f32_all_conditions(at *t)
{
    for (unsigned c = 0; c < 16; c++) {
        at_fill_float(t);
        umb_rdna3_step_set_vcc(t->s, 0x5a5a5a5au);
        at_code(t, "v_cmp_%s_f32_e32 vcc_lo, v1, v2", fconds[c]);
        RUNS(t);
        uint32_t want = 0;
        for (unsigned l = 0; l < 32; l++) want |= (uint32_t)fcond(c, AT_FA(l), AT_FB(l)) << l;
        if (umb_rdna3_step_get_vcc(t->s) != want)
            at_fail(t, __FILE__, __LINE__, "v_cmp_%s_f32: vcc 0x%llx, expected 0x%x", fconds[c],
                    (unsigned long long)umb_rdna3_step_get_vcc(t->s), want);
    }
}

static void vopc_f64_f16(at *t)
{
    static const double d[8] = {1.0, NAN, -0.0, 2.0, INFINITY, -1.0, 0.0, 3.0};
    static const double e[8] = {1.0, 1.0, 0.0, NAN, INFINITY, 5.0, -0.0, 2.0};
    static const uint16_t h[8] = {0x3c00, 0x7e00, 0x8000, 0x4000, 0x7c00, 0xbc00, 0x0000, 0x4200};
    static const uint16_t k[8] = {0x3c00, 0x3c00, 0x0000, 0x7e00, 0x7c00, 0x4500, 0x8000, 0x4000};
    for (unsigned l = 0; l < 8; l++) {
        at_v64(t, 2, l, db(d[l]));
        at_v64(t, 4, l, db(e[l]));
        at_v(t, 6, l, h[l]);
        at_v(t, 7, l, k[l]);
    }
    umb_rdna3_step_set_exec(t->s, 0xffu);
    at_code(t, "v_cmp_le_f64_e64 s10, v[2:3], v[4:5]\n"
               "v_cmp_nlg_f64_e64 s11, v[2:3], v[4:5]\n"
               "v_cmp_lt_f16_e64 s12, v6, v7\n"
               "v_cmp_u_f16_e64 s13, v6, v7\n");
    RUNS(t);
    uint32_t le = 0, nlg = 0, lt = 0, u = 0;
    for (unsigned l = 0; l < 8; l++) {
        le |= (uint32_t)fcond(3, d[l], e[l]) << l;
        nlg |= (uint32_t)fcond(10, d[l], e[l]) << l;
        lt |= (uint32_t)fcond(1, d[l], e[l]) << l;   /* the f16 pairs hold the same values */
        u |= (uint32_t)fcond(8, d[l], e[l]) << l;
    }
    EQ(t, at_gs(t, 10), le);
    EQ(t, at_gs(t, 11), nlg);
    EQ(t, at_gs(t, 12), lt);
    EQ(t, at_gs(t, 13), u);
}

static void vopc_int(at *t)
{
    static const char *ic[8] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "t"};
    for (unsigned c = 0; c < 8; c++) {
        at_fill_int(t);
        at_code(t, "v_cmp_%s_i32_e64 s10, v1, v2\n"
                   "v_cmp_%s_u32_e64 s11, v1, v2\n",
                ic[c], ic[c]);
        RUNS(t);
        uint32_t si = 0, su = 0;
        for (unsigned l = 0; l < 32; l++) {
            int32_t a = (int32_t)AT_A(l), b = (int32_t)AT_B(l);
            uint32_t x = AT_A(l), y = AT_B(l);
            bool ri = c == 0 ? 0 : c == 1 ? a < b : c == 2 ? a == b : c == 3 ? a <= b : c == 4 ? a > b : c == 5 ? a != b : c == 6 ? a >= b : 1;
            bool ru = c == 0 ? 0 : c == 1 ? x < y : c == 2 ? x == y : c == 3 ? x <= y : c == 4 ? x > y : c == 5 ? x != y : c == 6 ? x >= y : 1;
            si |= (uint32_t)ri << l;
            su |= (uint32_t)ru << l;
        }
        EQ(t, at_gs(t, 10), si);
        EQ(t, at_gs(t, 11), su);
    }
    /* 64-bit and 16-bit compares */
    at_fill_int(t);
    for (unsigned l = 0; l < 32; l++) {
        at_v64(t, 4, l, ((uint64_t)AT_A(l) << 32) | AT_B(l));
        at_v64(t, 6, l, ((uint64_t)AT_B(l) << 32) | AT_A(l));
    }
    at_code(t, "v_cmp_lt_i64_e64 s10, v[4:5], v[6:7]\n"
               "v_cmp_gt_u64_e64 s11, v[4:5], v[6:7]\n"
               "v_cmp_lt_i16_e64 s12, v1, v2\n"
               "v_cmp_ge_u16_e64 s13, v1, v2\n");
    RUNS(t);
    uint32_t a = 0, b = 0, c16 = 0, d16 = 0;
    for (unsigned l = 0; l < 32; l++) {
        uint64_t x = ((uint64_t)AT_A(l) << 32) | AT_B(l), y = ((uint64_t)AT_B(l) << 32) | AT_A(l);
        a |= (uint32_t)((int64_t)x < (int64_t)y) << l;
        b |= (uint32_t)(x > y) << l;
        c16 |= (uint32_t)((int16_t)AT_A(l) < (int16_t)AT_B(l)) << l;
        d16 |= (uint32_t)((uint16_t)AT_A(l) >= (uint16_t)AT_B(l)) << l;
    }
    EQ(t, at_gs(t, 10), a);
    EQ(t, at_gs(t, 11), b);
    EQ(t, at_gs(t, 12), c16);
    EQ(t, at_gs(t, 13), d16);
}

static void vopc_class(at *t)
{
    /* lanes: sNaN, qNaN, -inf, -normal, -denormal, -0, +0, +denormal, +normal, +inf */
    static const uint32_t v[10] = {0x7f800001u, 0x7fc00000u, 0xff800000u, 0xbf800000u, 0x80000001u,
                                   0x80000000u, 0x00000000u, 0x00000001u, 0x3f800000u, 0x7f800000u};
    for (unsigned l = 0; l < 10; l++) {
        at_v(t, 1, l, v[l]);
        at_v(t, 2, l, 1u << l);                 /* each lane asks for its own class */
        at_v(t, 3, l, 1u << ((l + 1) % 10));    /* ... or the next one */
    }
    umb_rdna3_step_set_exec(t->s, 0x3ffu);
    at_code(t, "v_cmp_class_f32_e64 s10, v1, v2\n"
               "v_cmp_class_f32_e64 s11, v1, v3\n"
               "v_mov_b32_e32 v4, 0x3c\n"                   /* -inf|-normal|-denormal|-0: bits 2..5 */
               "v_cmp_class_f32_e32 vcc_lo, v1, v4\n");
    RUNS(t);
    EQ(t, at_gs(t, 10), 0x3ffu);
    EQ(t, at_gs(t, 11), 0);
    EQ(t, umb_rdna3_step_get_vcc(t->s), 0x3cu);
    /* f64 and f16 classes */
    at_v64(t, 4, 0, 0x7ff0000000000001ull);   /* sNaN */
    at_v64(t, 4, 1, 0x8000000000000001ull);   /* -denormal */
    at_v64(t, 4, 2, db(-INFINITY));
    at_v(t, 6, 0, 0x7d00u);                   /* f16 sNaN */
    at_v(t, 6, 1, 0x8001u);                   /* f16 -denormal */
    at_v(t, 6, 2, 0x3c00u);                   /* +normal */
    umb_rdna3_step_set_exec(t->s, 0x7u);
    at_code(t, "v_cmp_class_f64_e64 s12, v[4:5], 0x15\n"   /* sNaN | -inf | -denormal */
               "v_cmp_class_f16_e64 s13, v6, 0x111\n");    /* sNaN | -denormal | +normal */
    RUNS(t);
    EQ(t, at_gs(t, 12), 0x7u);
    EQ(t, at_gs(t, 13), 0x7u);
}

static void vopc_cmpx_and_inactive(at *t)
{
    at_fill_int(t);
    umb_rdna3_step_set_exec(t->s, 0x0000ffffu);
    umb_rdna3_step_set_vcc(t->s, 0x12345678u);
    at_code(t, "v_cmpx_gt_u32_e32 v1, v2");
    RUNS(t);
    uint32_t want = 0;
    for (unsigned l = 0; l < 16; l++) want |= (uint32_t)(AT_A(l) > AT_B(l)) << l;
    EQ(t, umb_rdna3_step_get_exec(t->s), want);
    EQ(t, umb_rdna3_step_get_vcc(t->s), 0x12345678u);   /* cmpx does not write VCC on gfx11 */

    at_fill_int(t);
    umb_rdna3_step_set_exec(t->s, 0xffff0000u);
    at_code(t, "v_cmp_t_u32_e64 s10, v1, v2\nv_cmpx_ne_u32_e64 v1, v1");
    RUNS(t);
    EQ(t, at_gs(t, 10), 0xffff0000u);                   /* inactive lanes read as 0 */
    EQ(t, umb_rdna3_step_get_exec(t->s), 0);
}

const at_case at_vopc_cases[] = {
    C(vopc_f32_all_conditions), C(vopc_f64_f16), C(vopc_int), C(vopc_class), C(vopc_cmpx_and_inactive),
    {NULL, NULL},
};
