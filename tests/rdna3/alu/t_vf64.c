/* f64 VALU against the host's IEEE double: arithmetic, modifiers, min/max, rounding, ldexp,
 * frexp, the f64 division sequence LLVM emits, rcp/rsq/sqrt. */
#include <math.h>

#include "at.h"

static const double dedge[32] = {
    0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5,
    INFINITY, -INFINITY, NAN, 0x1p-1074, -0x1p-1074, 0x1.fffffffffffffp1023, -0x1.fffffffffffffp1023, 0x1p-1022,
    1e300, -1e-300, 3.141592653589793, 1.0 / 3.0, 0x1.fffffffffffffp-1, 100.0, -100.5, 4503599627370497.0,
    7.0, -3.75, 0x1.8p-1030, 1e-310, 123456.789, -0.1, 9007199254740993.0, 0.7,
};
#define DA(l) dedge[(l) & 31u]
#define DB(l) dedge[((l) * 7u + 3u) & 31u]
#define DC(l) dedge[((l) * 11u + 6u) & 31u]

static void fill_d(at *t)
{
    for (unsigned l = 0; l < 32; l++) {
        at_v64(t, 2, l, db(DA(l)));
        at_v64(t, 4, l, db(DB(l)));
        at_v64(t, 6, l, db(DC(l)));
    }
}

#define DCHECK(t, text, expr)                                                           \
    do {                                                                                \
        fill_d(t);                                                                      \
        at_code(t, "%s", text);                                                         \
        RUNS(t);                                                                        \
        for (unsigned l = 0; l < 32; l++) {                                             \
            double a = DA(l), b = DB(l), c = DC(l);                                     \
            (void)a; (void)b; (void)c;                                                  \
            EQD(t, at_gv64(t, 0, l), (expr));                                           \
        }                                                                               \
    } while (0)

static double ref_min(double a, double b)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}
static double ref_max(double a, double b)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}

static void vf64_arith(at *t)
{
    DCHECK(t, "v_add_f64 v[0:1], v[2:3], v[4:5]", a + b);
    DCHECK(t, "v_mul_f64 v[0:1], v[2:3], v[4:5]", a * b);
    DCHECK(t, "v_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]", fma(a, b, c));
    DCHECK(t, "v_add_f64 v[0:1], -v[2:3], |v[4:5]|", -a + fabs(b));
    DCHECK(t, "v_mul_f64 v[0:1], v[2:3], 0.5", a * 0.5);
    DCHECK(t, "v_add_f64 v[0:1], v[2:3], 1.0 mul:4", (a + 1.0) * 4.0);
    DCHECK(t, "v_min_f64 v[0:1], v[2:3], v[4:5]", ref_min(a, b));
    DCHECK(t, "v_max_f64 v[0:1], v[2:3], v[4:5]", ref_max(a, b));
    DCHECK(t, "v_ldexp_f64 v[0:1], v[2:3], 10", ldexp(a, 10));
    DCHECK(t, "v_ldexp_f64 v[0:1], v[2:3], -1100", ldexp(a, -1100));
    /* The 32-bit literal of an f64 operand is the high dword: 0x40080000 -> 3.0. */
    DCHECK(t, "v_mul_f64 v[0:1], v[2:3], 0x40080000", a * 3.0);
}

static void vf64_round(at *t)
{
    DCHECK(t, "v_trunc_f64_e32 v[0:1], v[2:3]", trunc(a));
    DCHECK(t, "v_ceil_f64_e32 v[0:1], v[2:3]", ceil(a));
    DCHECK(t, "v_floor_f64_e32 v[0:1], v[2:3]", floor(a));
    DCHECK(t, "v_rndne_f64_e32 v[0:1], v[2:3]", rint(a));
    DCHECK(t, "v_fract_f64_e32 v[0:1], v[2:3]", (isinf(a) || isnan(a)) ? NAN : fmin(a - floor(a), 0x1.fffffffffffffp-1));
    DCHECK(t, "v_frexp_mant_f64_e32 v[0:1], v[2:3]", (isinf(a) || isnan(a)) ? a : frexp(a, &(int){0}));
    DCHECK(t, "v_sqrt_f64_e32 v[0:1], v[2:3]", sqrt(a));
    fill_d(t);
    at_code(t, "v_frexp_exp_i32_f64_e32 v0, v[2:3]");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        int e = 0;
        if (!isinf(DA(l)) && !isnan(DA(l))) (void)frexp(DA(l), &e);
        EQ(t, at_gv(t, 0, l), (uint32_t)e);
    }
}

/* v_rcp_f64 / v_rsq_f64 are approximations on hardware; umbra's are correctly rounded, which is
 * within the 1 ulp the tests allow. */
static void vf64_rcp_rsq(at *t)
{
    fill_d(t);
    at_code(t, "v_rcp_f64_e32 v[0:1], v[2:3]\nv_rsq_f64_e32 v[8:9], v[2:3]");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        double r = 1.0 / DA(l), q = 1.0 / sqrt(DA(l));
        double gr = bd(at_gv64(t, 0, l)), gq = bd(at_gv64(t, 8, l));
        OK(t, (isnan(r) && isnan(gr)) || gr == r || fabs(gr - r) <= fabs(r) * 0x1p-52);
        OK(t, (isnan(q) && isnan(gq)) || gq == q || fabs(gq - q) <= fabs(q) * 0x1p-52);
    }
}

static void vf64_div_sequence(at *t)
{
    static const char *seq =
        "v_div_scale_f64 v[4:5], null, v[12:13], v[12:13], v[10:11]\n"
        "v_rcp_f64_e32 v[6:7], v[4:5]\n"
        "v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0\n"
        "v_fma_f64 v[6:7], v[6:7], v[8:9], v[6:7]\n"
        "v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0\n"
        "v_div_scale_f64 v[14:15], vcc_lo, v[10:11], v[12:13], v[10:11]\n"
        "v_fma_f64 v[6:7], v[6:7], v[8:9], v[6:7]\n"
        "v_mul_f64 v[8:9], v[14:15], v[6:7]\n"
        "v_fma_f64 v[4:5], -v[4:5], v[8:9], v[14:15]\n"
        "v_div_fmas_f64 v[4:5], v[4:5], v[6:7], v[8:9]\n"
        "v_div_fixup_f64 v[0:1], v[4:5], v[12:13], v[10:11]\n";
    at_code(t, "%s", seq);
    static const double num[10] = {1.0, 10.0, 0x1p-1070, 1e308, -7.0, 1.0, 0.0, 5.0, 1.0, INFINITY};
    static const double den[10] = {3.0, 7.0, 3.0, 0.25, 0x1p-1060, 0x1.8p1023, 0.0, INFINITY, 0.0, 2.0};
    for (unsigned l = 0; l < 10; l++) {
        at_v64(t, 10, l, db(num[l]));
        at_v64(t, 12, l, db(den[l]));
    }
    RUNS(t);
    for (unsigned l = 0; l < 10; l++) EQD(t, at_gv64(t, 0, l), num[l] / den[l]);
    uint64_t x = 987654321u;
    for (unsigned round = 0; round < 8; round++) {
        double n[32], d[32];
        for (unsigned l = 0; l < 32; l++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            n[l] = bd((x & 0x800fffffffffffffull) | ((((x >> 52) % 2046u) + 1u) << 52));
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            d[l] = bd((x & 0x800fffffffffffffull) | ((((x >> 52) % 2046u) + 1u) << 52));
            at_v64(t, 10, l, db(n[l]));
            at_v64(t, 12, l, db(d[l]));
        }
        umb_rdna3_step_set_pc(t->s, UMB_RDNA3_STEP_CODE_BASE);
        RUNS(t);
        for (unsigned l = 0; l < 32; l++) EQD(t, at_gv64(t, 0, l), n[l] / d[l]);
    }
}

/* Segments of 2/pi (0x1.45f306dc9c882a53f84eafa3ea69bb81b6c52...p-1): the values below are the
 * 53-bit chunks of that constant at bit offsets 0, 53, 106, 23 (exponent 1100 - 1077) and 282. */
static void vf64_trig_preop(at *t)
{
    at_v64(t, 2, 0, db(1.0));    at_v(t, 4, 0, 0);
    at_v64(t, 2, 1, db(1.0));    at_v(t, 4, 1, 1);
    at_v64(t, 2, 2, db(-3.0));   at_v(t, 4, 2, 2);
    at_v64(t, 2, 3, db(0x1p77)); at_v(t, 4, 3, 0);    /* biased exponent 1100 */
    at_v64(t, 2, 4, db(0x1p177)); at_v(t, 4, 4, 3);   /* biased exponent 1200 */
    umb_rdna3_step_set_exec(t->s, 0x1f);
    at_code(t, "v_trig_preop_f64 v[0:1], v[2:3], v4");
    RUNS(t);
    EQ(t, at_gv64(t, 0, 0), 0x3fe45f306dc9c882ull);
    EQ(t, at_gv64(t, 0, 1), 0x3c94a7f09d5f47d4ull);
    EQ(t, at_gv64(t, 0, 2), 0x394a6ee06db14accull);
    EQ(t, at_gv64(t, 0, 3), 0x3e76e4e441529fc2ull);
    EQ(t, at_gv64(t, 0, 4), 0x2e4d2126e9700324ull);
}

const at_case at_vf64_cases[] = {
    C(vf64_arith), C(vf64_round), C(vf64_rcp_rsq), C(vf64_div_sequence), C(vf64_trig_preop),
    {NULL, NULL},
};
