/* f16 VALU against the host compiler's _Float16 (IEEE binary16, round to nearest even): each
 * operation's exact result is computed in float/double and converted once by the compiler. */
#include <math.h>

#include "at.h"

static uint32_t hb(_Float16 h) { uint16_t u; memcpy(&u, &h, 2); return u; }
static _Float16 bh(uint32_t u) { uint16_t v = (uint16_t)u; _Float16 h; memcpy(&h, &v, 2); return h; }

static const uint16_t hedge[32] = {
    0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0x3e00, 0x4100, 0xc100,
    0x7c00, 0xfc00, 0x7e00, 0x0001, 0x8001, 0x7bff, 0xfbff, 0x0400,
    0x5640, 0xa001, 0x4248, 0x3555, 0x3bff, 0x5640, 0xd648, 0x7bff,
    0x4700, 0xc380, 0x03ff, 0x0200, 0x6400, 0xae66, 0x1400, 0x399a,
};
#define HA(l) hedge[(l) & 31u]
#define HB(l) hedge[((l) * 7u + 3u) & 31u]
#define HC(l) hedge[((l) * 11u + 6u) & 31u]

static bool hnan(uint32_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu); }

/* v1/v2/v3 low halves get the edge values, high halves 0xdead; the low half of v0 is compared. */
#define HCHECK(t, text, expr)                                                                  \
    do {                                                                                       \
        for (unsigned l = 0; l < 32; l++) {                                                    \
            at_v(t, 1, l, 0xdead0000u | HA(l));                                                \
            at_v(t, 2, l, 0xdead0000u | HB(l));                                                \
            at_v(t, 3, l, 0xdead0000u | HC(l));                                                \
        }                                                                                      \
        at_code(t, "%s", text);                                                                \
        RUNS(t);                                                                               \
        for (unsigned l = 0; l < 32; l++) {                                                    \
            float a = (float)bh(HA(l)), b = (float)bh(HB(l)), c = (float)bh(HC(l));            \
            (void)a; (void)b; (void)c;                                                         \
            uint32_t e = hb((_Float16)(expr)), g = at_gv(t, 0, l) & 0xffffu;                   \
            if (hnan(e) ? !hnan(g) : g != e) {                                                 \
                at_fail(t, __FILE__, __LINE__, "%s lane %u (a=%a b=%a c=%a): got 0x%04x, expected 0x%04x", \
                        text, l, (double)a, (double)b, (double)c, g, e);                       \
                break;                                                                         \
            }                                                                                  \
        }                                                                                      \
    } while (0)

static float ref_min(float a, float b)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}
static float ref_max(float a, float b)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}

static void vf16_arith(at *t)
{
    HCHECK(t, "v_add_f16_e32 v0, v1, v2", (double)a + b);
    HCHECK(t, "v_sub_f16_e32 v0, v1, v2", (double)a - b);
    HCHECK(t, "v_mul_f16_e32 v0, v1, v2", (double)a * b);
    HCHECK(t, "v_fma_f16 v0, v1, v2, v3", fma((double)a, b, c));
    HCHECK(t, "v_mov_b32_e32 v0, v3\nv_fmac_f16_e32 v0, v1, v2", fma((double)a, b, c));
    HCHECK(t, "v_add_f16_e64 v0, -v1, |v2|", (double)-a + fabsf(b));
    HCHECK(t, "v_max_f16_e32 v0, v1, v2", ref_max(a, b));
    HCHECK(t, "v_min_f16_e32 v0, v1, v2", ref_min(a, b));
    HCHECK(t, "v_max3_f16 v0, v1, v2, v3", ref_max(ref_max(a, b), c));
    HCHECK(t, "v_ldexp_f16_e32 v0, v1, v2", ldexp((double)a, (int16_t)HB(l) > 40 ? 40 : (int16_t)HB(l) < -40 ? -40 : (int16_t)HB(l)));
    HCHECK(t, "v_add_f16_e32 v0, 0.5, v2", 0.5 + (double)b);
    HCHECK(t, "v_fmamk_f16 v0, v1, 0x4200, v2", fma((double)a, 3.0, b));
    HCHECK(t, "v_fmaak_f16 v0, v1, v2, 0xc200", fma((double)a, b, -3.0));
    HCHECK(t, "v_sqrt_f16_e32 v0, v1", sqrt((double)a));
    HCHECK(t, "v_rcp_f16_e32 v0, v1", 1.0 / (double)a);
    HCHECK(t, "v_floor_f16_e32 v0, v1", floorf(a));
    HCHECK(t, "v_rndne_f16_e32 v0, v1", rintf(a));
    HCHECK(t, "v_trunc_f16_e32 v0, v1", truncf(a));
}

/* VOP3 op_sel: source halves and the destination half. */
static void vf16_opsel(at *t)
{
    at_vall(t, 1, 0x3c004000u);   /* hi 1.0, lo 2.0 */
    at_vall(t, 2, 0x42004400u);   /* hi 3.0, lo 4.0 */
    at_vall(t, 0, 0x11112222u);
    at_code(t, "v_fma_f16 v0, v1, v2, v1 op_sel:[1,0,0,1]");   /* hi(v1)*lo(v2)+lo(v1) = 6.0 -> hi */
    RUNS(t);
    EQ(t, at_gv(t, 0, 0), 0x46002222u);
    at_code(t, "v_fma_f16 v0, v1, v2, v1 op_sel:[0,1,1,0]");   /* 2*3+1 = 7 -> lo */
    RUNS(t);
    EQ(t, at_gv(t, 0, 0) & 0xffffu, 0x4700u);
}

static void vf16_pack_cvt(at *t)
{
    at_vall(t, 1, 0x3c00u);
    at_vall(t, 2, 0xc000u);
    at_code(t, "v_pack_b32_f16 v0, v1, -v2");
    RUNS(t);
    EQ(t, at_gv(t, 0, 0), 0x40003c00u);
    /* v_cvt_pk_rtz_f16_f32 rounds toward zero: 1 + 2^-11 (a tie) -> 1.0; 65520 -> 65504 */
    at_vall(t, 1, fb(1.0f + 0x1p-11f));
    at_vall(t, 2, fb(65520.0f));
    at_code(t, "v_cvt_pk_rtz_f16_f32_e32 v0, v1, v2");
    RUNS(t);
    EQ(t, at_gv(t, 0, 0), 0x7bff3c00u);
}

/* v_dot2_bf16_bf16: lo*lo + hi*hi + c in bfloat16 (7 stored fraction bits: an ulp of 1 is 2^-7),
 * one rounding to nearest even: exact sums, and sums that need rounding (1 + 2^-8 is a tie and
 * goes to 1.0 = 0x3f80; 1 + 2^-8 + 2^-10 goes up to 1 + 2^-7 = 0x3f81); -0 + 0 + -0 = +0; 2^128
 * overflows to infinity; op_sel[3] writes the high half, keeping the low. */
static uint32_t bf16_of(float f) { return fb(f) >> 16; }   /* the values below are exact in bf16 */
static void vf16_dot2_bf16(at *t)
{
    static const float v[8][5] = {   /* a.lo, a.hi, b.lo, b.hi, c */
        { 1, 2, 3, 4, 5 }, { -1.5f, 0.25f, 2, -8, 0.5f }, { 1, 0x1p-8f, 1, 1, 0 }, { 1, 0x1p-8f, 1, 1.25f, 0 },
        { 100, 0, 3, 7, -300 }, { -0.0f, 0, 1, 1, -0.0f }, { 0x1p100f, 0x1p100f, 0x1p27f, 0x1p27f, 0 }, { 6, -6, 6, 6, 1 },
    };
    static const uint32_t want[8] = { 0x4180, 0xc090, 0x3f80, 0x3f81, 0x0000, 0x0000, 0x7f80, 0x3f80 };
    for (unsigned l = 0; l < 32; l++) {
        const float *x = v[l % 8];
        at_v(t, 1, l, bf16_of(x[0]) | bf16_of(x[1]) << 16);
        at_v(t, 2, l, bf16_of(x[2]) | bf16_of(x[3]) << 16);
        at_v(t, 3, l, bf16_of(x[4]));
        at_v(t, 4, l, 0xdead0000u);
        at_v(t, 5, l, 0x0000beefu);
    }
    at_code(t, "v_dot2_bf16_bf16 v4, v1, v2, v3\nv_dot2_bf16_bf16 v5, v1, v2, v3 op_sel:[0,0,0,1]\n");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        EQ(t, at_gv(t, 4, l), 0xdead0000u | want[l % 8]);
        EQ(t, at_gv(t, 5, l), (want[l % 8] << 16) | 0xbeefu);
    }
}

const at_case at_vf16_cases[] = {
    C(vf16_arith), C(vf16_opsel), C(vf16_pack_cvt), C(vf16_dot2_bf16),
    {NULL, NULL},
};
