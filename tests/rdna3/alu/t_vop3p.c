/* VOP3P: packed 16-bit math with op_sel/op_sel_hi/neg_lo/neg_hi, v_fma_mix*, dot products.
 * f16 references come from the host compiler's _Float16. */
#include <math.h>

#include "at.h"

static uint32_t hb(double x) { _Float16 h = (_Float16)x; uint16_t u; memcpy(&u, &h, 2); return u; }
static uint32_t pk(double hi, double lo) { return (hb(hi) << 16) | hb(lo); }

static const double X[8] = {1.5, -2.0, 0.25, 100.0, -0.5, 3.0, 65504.0, 0x1.4p-10};   /* all exact in f16 */

static void fill_pk(at *t)
{
    for (unsigned l = 0; l < 8; l++) {
        at_v(t, 1, l, pk(X[l], X[(l + 1) & 7]));            /* hi, lo */
        at_v(t, 2, l, pk(X[(l + 2) & 7], X[(l + 3) & 7]));
        at_v(t, 3, l, pk(X[(l + 4) & 7], X[(l + 5) & 7]));
    }
    umb_rdna3_step_set_exec(t->s, 0xffu);
}
#define AH(l) X[(l)]
#define AL(l) X[((l) + 1) & 7]
#define BH(l) X[((l) + 2) & 7]
#define BL(l) X[((l) + 3) & 7]
#define CH(l) X[((l) + 4) & 7]
#define CL(l) X[((l) + 5) & 7]

static void vop3p_f16(at *t)
{
    fill_pk(t);
    at_code(t, "v_pk_add_f16 v0, v1, v2\n"
               "v_pk_mul_f16 v4, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]\n"
               "v_pk_fma_f16 v5, v1, v2, v3 neg_lo:[1,0,0] neg_hi:[0,0,1]\n"
               "v_pk_max_f16 v6, v1, v2\n"
               "v_pk_min_f16 v7, v1, v2 op_sel_hi:[0,0]\n");
    RUNS(t);
    for (unsigned l = 0; l < 8; l++) {
        EQ(t, at_gv(t, 0, l), pk(AH(l) + BH(l), AL(l) + BL(l)));
        EQ(t, at_gv(t, 4, l), pk(AL(l) * BH(l), AH(l) * BL(l)));
        EQ(t, at_gv(t, 5, l), pk(fma(AH(l), BH(l), -CH(l)), fma(-AL(l), BL(l), CL(l))));
        EQ(t, at_gv(t, 6, l), pk(fmax(AH(l), BH(l)), fmax(AL(l), BL(l))));
        EQ(t, at_gv(t, 7, l), pk(fmin(AL(l), BL(l)), fmin(AL(l), BL(l))));
    }
}

static void vop3p_int16(at *t)
{
    for (unsigned l = 0; l < 32; l++) {
        at_v(t, 1, l, AT_A(l));
        at_v(t, 2, l, AT_B(l));
        at_v(t, 3, l, AT_C(l));
    }
    at_code(t, "v_pk_add_u16 v0, v1, v2\n"
               "v_pk_sub_i16 v4, v1, v2 clamp\n"
               "v_pk_lshlrev_b16 v5, v1, v2\n"
               "v_pk_max_i16 v6, v1, v2\n"
               "v_pk_mad_u16 v7, v1, v2, v3\n"
               "v_pk_mul_lo_u16 v8, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]\n");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        uint32_t a = AT_A(l), b = AT_B(l), c = AT_C(l), r0 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0;
        for (unsigned h = 0; h < 32; h += 16) {
            uint32_t x = (a >> h) & 0xffffu, y = (b >> h) & 0xffffu, z = (c >> h) & 0xffffu;
            int d = (int16_t)x - (int16_t)y;
            d = d > 32767 ? 32767 : d < -32768 ? -32768 : d;
            r0 |= ((x + y) & 0xffffu) << h;
            r4 |= ((uint32_t)d & 0xffffu) << h;
            r5 |= ((y << (x & 15u)) & 0xffffu) << h;
            r6 |= ((uint32_t)((int16_t)x > (int16_t)y ? (int16_t)x : (int16_t)y) & 0xffffu) << h;
            r7 |= ((x * y + z) & 0xffffu) << h;
        }
        uint32_t mlo = ((a >> 16) * (b >> 16)) & 0xffffu;            /* op_sel: high halves */
        uint32_t mhi = ((a & 0xffffu) * (b & 0xffffu)) & 0xffffu;    /* op_sel_hi 0: low halves */
        EQ(t, at_gv(t, 0, l), r0);
        EQ(t, at_gv(t, 4, l), r4);
        EQ(t, at_gv(t, 5, l), r5);
        EQ(t, at_gv(t, 6, l), r6);
        EQ(t, at_gv(t, 7, l), r7);
        EQ(t, at_gv(t, 8, l), mlo | (mhi << 16));
    }
}

static void vop3p_mix(at *t)
{
    for (unsigned l = 0; l < 8; l++) {
        at_v(t, 1, l, pk(X[l], X[(l + 1) & 7]));
        at_v(t, 2, l, fb((float)X[(l + 2) & 7]));
        at_v(t, 3, l, fb(-1.25f));
        at_v(t, 4, l, 0xabcd0000u);
    }
    umb_rdna3_step_set_exec(t->s, 0xffu);
    at_code(t, "v_fma_mix_f32 v0, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[1,0,0]\n"   /* hi(v1) f16 */
               "v_fma_mix_f32 v5, -v1, |v2|, v3 op_sel_hi:[1,0,0]\n"
               "v_fma_mixlo_f16 v4, v1, v2, v3 op_sel_hi:[1,0,0]\n");
    RUNS(t);
    for (unsigned l = 0; l < 8; l++) {
        double b = (float)X[(l + 2) & 7];
        EQF(t, at_gv(t, 0, l), (float)fma(X[l], b, -1.25));
        EQF(t, at_gv(t, 5, l), (float)fma(-X[(l + 1) & 7], fabs(b), -1.25));
        EQ(t, at_gv(t, 4, l), 0xabcd0000u | hb(fma(X[(l + 1) & 7], b, -1.25)));
    }
}

static void vop3p_dot(at *t)
{
    for (unsigned l = 0; l < 32; l++) {
        at_v(t, 1, l, AT_A(l));
        at_v(t, 2, l, AT_B(l));
        at_v(t, 3, l, AT_C(l));
    }
    at_code(t, "v_dot4_u32_u8 v0, v1, v2, v3\n"
               "v_dot4_i32_iu8 v4, v1, v2, v3 neg_lo:[1,1,0]\n"
               "v_dot8_u32_u4 v5, v1, v2, v3\n");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        uint32_t a = AT_A(l), b = AT_B(l), c = AT_C(l), u = c, s = c, u4 = c;
        for (unsigned i = 0; i < 32; i += 8) {
            u += ((a >> i) & 0xffu) * ((b >> i) & 0xffu);
            s += (uint32_t)((int8_t)(a >> i) * (int8_t)(b >> i));
        }
        for (unsigned i = 0; i < 32; i += 4) u4 += ((a >> i) & 0xfu) * ((b >> i) & 0xfu);
        EQ(t, at_gv(t, 0, l), u);
        EQ(t, at_gv(t, 4, l), s);
        EQ(t, at_gv(t, 5, l), u4);
    }
    fill_pk(t);
    for (unsigned l = 0; l < 8; l++) at_v(t, 3, l, fb(0.5f));
    at_code(t, "v_dot2_f32_f16 v0, v1, v2, v3\n"
               "v_dot2acc_f32_f16 v3, v1, v2\n");
    RUNS(t);
    for (unsigned l = 0; l < 8; l++) {
        float want = (float)(AH(l) * BH(l) + AL(l) * BL(l) + 0.5);
        EQF(t, at_gv(t, 0, l), want);
        EQF(t, at_gv(t, 3, l), want);
    }
}

const at_case at_vop3p_cases[] = {
    C(vop3p_f16), C(vop3p_int16), C(vop3p_mix), C(vop3p_dot),
    {NULL, NULL},
};
