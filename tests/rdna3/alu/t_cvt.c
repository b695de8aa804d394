/* Conversions: float -> int truncates, NaN -> 0, out-of-range values saturate (RDNA3 ISA);
 * int -> float and narrowing float conversions round to nearest even (checked against the host
 * compiler's conversions, which are IEEE round-to-nearest-even). */
#include <math.h>

#include "at.h"

static uint32_t hb(_Float16 h) { uint16_t u; memcpy(&u, &h, 2); return u; }

static int32_t ref_i32(double x)
{
    if (isnan(x)) return 0;
    if (x >= 2147483647.0) return INT32_MAX;
    if (x <= -2147483648.0) return INT32_MIN;
    return (int32_t)x;
}
static uint32_t ref_u32(double x)
{
    if (isnan(x) || x <= 0.0) return 0;
    if (x >= 4294967295.0) return UINT32_MAX;
    return (uint32_t)x;
}

static void cvt_f32_to_int(at *t)
{
    at_fill_float(t);
    at_code(t, "v_cvt_i32_f32_e32 v0, v1\n"
               "v_cvt_u32_f32_e32 v4, v1\n"
               "v_cvt_floor_i32_f32_e32 v5, v1\n"
               "v_cvt_nearest_i32_f32_e32 v6, v1\n");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        float a = AT_FA(l);
        EQ(t, at_gv(t, 0, l), (uint32_t)ref_i32(a));
        EQ(t, at_gv(t, 4, l), ref_u32(a));
        EQ(t, at_gv(t, 5, l), (uint32_t)ref_i32(floor((double)a)));
        EQ(t, at_gv(t, 6, l), (uint32_t)ref_i32(floor((double)a + 0.5)));
    }
}

static void cvt_int_to_f32(at *t)
{
    VCHECK(t, "v_cvt_f32_i32_e32 v0, v1", fb((float)(int32_t)a));
    VCHECK(t, "v_cvt_f32_u32_e32 v0, v1", fb((float)a));          /* 0xffffffff -> 2^32 */
    VCHECK(t, "v_cvt_f32_ubyte0_e32 v0, v1", fb((float)(a & 0xffu)));
    VCHECK(t, "v_cvt_f32_ubyte3_e32 v0, v1", fb((float)(a >> 24)));
    VCHECK(t, "v_cvt_f64_i32_e32 v[4:5], v1\nv_mov_b32_e32 v0, v4", (uint32_t)db((double)(int32_t)a));
    VCHECK(t, "v_cvt_f64_u32_e32 v[4:5], v1\nv_mov_b32_e32 v0, v5", (uint32_t)(db((double)a) >> 32));
    VCHECK(t, "v_cvt_off_f32_i4_e32 v0, v1", fb((float)((int)(a & 15u) - ((a & 8u) ? 16 : 0)) / 16.0f));
}

static void cvt_f64(at *t)
{
    static const double xs[16] = {1.0, -2.5, 1e300, -1e300, 0x1.000001p0, 0x1.0000018p0, 3e-40, NAN,
                                  INFINITY, 4294967296.5, -2147483649.0, 2147483647.9, 0x1p-1074, -0.0, 1e-50, 123.456};
    for (unsigned l = 0; l < 16; l++) at_v64(t, 2, l, db(xs[l]));
    at_code(t, "v_cvt_f32_f64_e32 v0, v[2:3]\n"
               "v_cvt_i32_f64_e32 v4, v[2:3]\n"
               "v_cvt_u32_f64_e32 v5, v[2:3]\n"
               "v_cvt_f64_f32_e32 v[6:7], v0\n");
    RUNS(t);
    for (unsigned l = 0; l < 16; l++) {
        EQF(t, at_gv(t, 0, l), (float)xs[l]);
        EQ(t, at_gv(t, 4, l), (uint32_t)ref_i32(xs[l]));
        EQ(t, at_gv(t, 5, l), ref_u32(xs[l]));
        EQD(t, at_gv64(t, 6, l), (double)(float)xs[l]);
    }
}

static void cvt_f16(at *t)
{
    at_fill_float(t);
    at_code(t, "v_mov_b32_e32 v0, 0\n"
               "v_cvt_f16_f32_e32 v0, v1\n"
               "v_cvt_f32_f16_e32 v4, v0\n");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        float a = AT_FA(l);
        uint32_t want = hb((_Float16)a), got = at_gv(t, 0, l) & 0xffffu;
        bool wn = (want & 0x7c00u) == 0x7c00u && (want & 0x3ffu);
        OK(t, wn ? ((got & 0x7c00u) == 0x7c00u && (got & 0x3ffu)) : got == want);
        EQF(t, at_gv(t, 4, l), (float)(_Float16)a);
    }
    /* Ties round to even: 1 + 2^-11 -> 1.0, 1 + 3*2^-11 -> 1 + 2^-9; 65520 -> inf. */
    at_v(t, 1, 0, fb(1.0f + 0x1p-11f));
    at_v(t, 1, 1, fb(1.0f + 0x3p-11f));
    at_v(t, 1, 2, fb(65520.0f));
    at_v(t, 1, 3, fb(0x1p-25f));      /* half of the smallest denormal: rounds to 0 */
    at_v(t, 1, 4, fb(0x1.8p-25f));    /* rounds up to the smallest denormal */
    at_code(t, "v_cvt_f16_f32_e32 v0, v1");
    RUNS(t);
    EQ(t, at_gv(t, 0, 0) & 0xffffu, 0x3c00u);
    EQ(t, at_gv(t, 0, 1) & 0xffffu, 0x3c02u);
    EQ(t, at_gv(t, 0, 2) & 0xffffu, 0x7c00u);
    EQ(t, at_gv(t, 0, 3) & 0xffffu, 0x0000u);
    EQ(t, at_gv(t, 0, 4) & 0xffffu, 0x0001u);
    /* f16 <-> 16-bit integers */
    at_v(t, 1, 0, 0xc500u);   /* -5.0 */
    at_v(t, 1, 1, 0x7c00u);   /* inf */
    at_v(t, 1, 2, 0x7e00u);   /* NaN */
    at_v(t, 1, 3, 0x4d00u);   /* 20.0 */
    at_code(t, "v_cvt_i16_f16_e32 v0, v1\nv_cvt_u16_f16_e32 v4, v1");
    RUNS(t);
    EQ(t, at_gv(t, 0, 0) & 0xffffu, 0xfffbu);
    EQ(t, at_gv(t, 0, 1) & 0xffffu, 0x7fffu);
    EQ(t, at_gv(t, 0, 2) & 0xffffu, 0);
    EQ(t, at_gv(t, 4, 0) & 0xffffu, 0);
    EQ(t, at_gv(t, 4, 1) & 0xffffu, 0xffffu);
    EQ(t, at_gv(t, 4, 3) & 0xffffu, 20);
    at_v(t, 1, 0, 0xfffbu);
    at_v(t, 1, 1, 0x7fffu);
    at_code(t, "v_cvt_f16_i16_e32 v0, v1\nv_cvt_f16_u16_e32 v4, v1");
    RUNS(t);
    EQ(t, at_gv(t, 0, 0) & 0xffffu, 0xc500u);
    EQ(t, at_gv(t, 0, 1) & 0xffffu, hb((_Float16)32767.0f));   /* 32768 after rounding */
    EQ(t, at_gv(t, 4, 0) & 0xffffu, 0x7c00u);                  /* 65531 >= 65520 rounds to inf */
}

static void cvt_pk(at *t)
{
    at_v(t, 1, 0, fb(-2.0f)); at_v(t, 2, 0, fb(0.5f));
    at_v(t, 1, 1, fb(NAN));   at_v(t, 2, 1, fb(1e9f));
    at_code(t, "v_cvt_pk_norm_i16_f32 v0, v1, v2\n"
               "v_cvt_pk_norm_u16_f32 v4, v1, v2\n"
               "v_cvt_pk_i16_f32 v5, v1, v2\n"
               "v_cvt_pk_u16_f32 v6, v1, v2\n");
    RUNS(t);
    EQ(t, at_gv(t, 0, 0), 0x40008001u);   /* -1.0 -> -32767, 0.5*32767 = 16383.5 -> 16384 */
    EQ(t, at_gv(t, 4, 0), 0x80000000u);   /* 0, 0.5*65535 = 32767.5 -> 32768 */
    EQ(t, at_gv(t, 5, 0), 0x0000fffeu);
    EQ(t, at_gv(t, 6, 0), 0x00000000u);
    EQ(t, at_gv(t, 5, 1), 0x7fff0000u);
    EQ(t, at_gv(t, 6, 1), 0xffff0000u);
    at_v(t, 1, 0, fb(254.5f));
    at_v(t, 1, 1, fb(-3.0f));
    at_code(t, "v_mov_b32_e32 v0, 0x11223344\nv_cvt_pk_u8_f32 v0, v1, 2, v0");
    RUNS(t);
    EQ(t, at_gv(t, 0, 0), 0x11fe3344u);   /* 254.5 -> 254 (even) into byte 2 */
    EQ(t, at_gv(t, 0, 1), 0x11003344u);
}

const at_case at_cvt_cases[] = {
    C(cvt_f32_to_int), C(cvt_int_to_f32), C(cvt_f64), C(cvt_f16), C(cvt_pk),
    {NULL, NULL},
};
