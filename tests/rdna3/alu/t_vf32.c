/* f32 VALU: arithmetic against the host's IEEE float (round to nearest even, denormals kept —
 * the MODE LLVM sets for compute kernels), modifiers, min/max NaN and signed-zero rules,
 * rounding ops, transcendentals within their documented error, denormal flushing per MODE. */
#include <math.h>

#include "at.h"

void vf32_arith(at *t)
{
    FCHECK(t, "v_add_f32_e32 v0, v1, v2", a + b);
    FCHECK(t, "v_sub_f32_e32 v0, v1, v2", a - b);
    FCHECK(t, "v_subrev_f32_e32 v0, v1, v2", b - a);
    FCHECK(t, "v_mul_f32_e32 v0, v1, v2", a * b);
    FCHECK(t, "v_fma_f32 v0, v1, v2, v3", fmaf(a, b, c));
    FCHECK(t, "v_add_f32_e64 v0, -v1, |v2|", -a + fabsf(b));
    FCHECK(t, "v_mul_f32_e64 v0, -|v1|, v2", -fabsf(a) * b);
    FCHECK(t, "v_add_f32_e32 v0, 0.5, v2", 0.5f + b);
    FCHECK(t, "v_mul_f32_e32 v0, 0x40490fdb, v2", 3.14159274f * b);
    FCHECK(t, "v_ldexp_f32 v0, v1, 3", ldexpf(a, 3));
    FCHECK(t, "v_ldexp_f32 v0, v1, -130", ldexpf(a, -130));
    FCHECK(t, "v_mul_dx9_zero_f32_e32 v0, v1, v2", (a == 0.0f || b == 0.0f) ? 0.0f : a * b);
}

static void vf32_fmac_fmak(at *t)
{
    FCHECK(t, "v_mov_b32_e32 v0, v3\nv_fmac_f32_e32 v0, v1, v2", fmaf(a, b, c));
    FCHECK(t, "v_fmamk_f32 v0, v1, 0x40400000, v2", fmaf(a, 3.0f, b));
    FCHECK(t, "v_fmaak_f32 v0, v1, v2, 0xc0400000", fmaf(a, b, -3.0f));
}

void vf32_omod_clamp(at *t)
{
    FCHECK(t, "v_add_f32_e64 v0, v1, v2 mul:2", (a + b) * 2.0f);
    FCHECK(t, "v_add_f32_e64 v0, v1, v2 div:2", (a + b) * 0.5f);
    /* clamp to [0, 1]; a NaN result clamps to 0 */
    FCHECK(t, "v_mul_f32_e64 v0, v1, v2 clamp",
           isnan(a * b) ? 0.0f : (a * b) < 0.0f ? 0.0f : (a * b) > 1.0f ? 1.0f : (a * b) == 0.0f ? 0.0f : a * b);
}

/* IEEE mode (LLVM's default for compute): a quiet NaN loses to a number, -0 < +0. */
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

void vf32_minmax(at *t)
{
    FCHECK(t, "v_min_f32_e32 v0, v1, v2", ref_min(a, b));
    FCHECK(t, "v_max_f32_e32 v0, v1, v2", ref_max(a, b));
    FCHECK(t, "v_min3_f32 v0, v1, v2, v3", ref_min(ref_min(a, b), c));
    FCHECK(t, "v_max3_f32 v0, v1, v2, v3", ref_max(ref_max(a, b), c));
    FCHECK(t, "v_maxmin_f32 v0, v1, v2, v3", ref_min(ref_max(a, b), c));
    /* A signalling NaN gives a (quiet) NaN in IEEE mode. */
    at_vall(t, 1, 0x7f800001u);
    at_vall(t, 2, fb(1.0f));
    at_code(t, "v_max_f32_e32 v0, v1, v2");
    RUNS(t);
    OK(t, isnan(bf(at_gv(t, 0, 0))));
    EQ(t, at_gv(t, 0, 0) & 0x00400000u, 0x00400000u);
}

static void vf32_med3(at *t)
{
    at_v(t, 1, 0, fb(3.0f)); at_v(t, 2, 0, fb(1.0f)); at_v(t, 3, 0, fb(2.0f));
    at_v(t, 1, 1, fb(-1.0f)); at_v(t, 2, 1, fb(-5.0f)); at_v(t, 3, 1, fb(7.0f));
    at_v(t, 1, 2, fb(NAN)); at_v(t, 2, 2, fb(4.0f)); at_v(t, 3, 2, fb(2.0f));   /* NaN: min3 rule */
    at_code(t, "v_med3_f32 v0, v1, v2, v3");
    RUNS(t);
    EQF(t, at_gv(t, 0, 0), 2.0f);
    EQF(t, at_gv(t, 0, 1), -1.0f);
    EQF(t, at_gv(t, 0, 2), 2.0f);
}

void vf32_round(at *t)
{
    FCHECK(t, "v_trunc_f32_e32 v0, v1", truncf(a));
    FCHECK(t, "v_ceil_f32_e32 v0, v1", ceilf(a));
    FCHECK(t, "v_floor_f32_e32 v0, v1", floorf(a));
    FCHECK(t, "v_rndne_f32_e32 v0, v1", rintf(a));   /* 2.5 -> 2, -2.5 -> -2, 1.5 -> 2 */
    FCHECK(t, "v_fract_f32_e32 v0, v1",
           (isinf(a) || isnan(a)) ? NAN : fminf(a - floorf(a), 0x1.fffffep-1f));
    FCHECK(t, "v_frexp_mant_f32_e32 v0, v1", (isinf(a) || isnan(a)) ? a : frexpf(a, &(int){0}));
    at_fill_float(t);
    at_code(t, "v_frexp_exp_i32_f32_e32 v0, v1");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        float a = AT_FA(l);
        int e = 0;
        if (!isinf(a) && !isnan(a)) (void)frexpf(a, &e);
        EQ(t, at_gv(t, 0, l), (uint32_t)e);
    }
}

/* Transcendentals: umbra computes them in double and rounds once, so they are within 1 ulp of
 * the exact value (hardware: 1 ulp, see docs/RDNA3_PRECISION.md). */
static int ulp_diff(float x, float y)
{
    if (isnan(x) || isnan(y)) return isnan(x) && isnan(y) ? 0 : 1000;
    if (x == y) return 0;
    int32_t ix = (int32_t)fb(x), iy = (int32_t)fb(y);
    if (ix < 0) ix = (int32_t)0x80000000 - ix;
    if (iy < 0) iy = (int32_t)0x80000000 - iy;
    int64_t d = (int64_t)ix - iy;
    return d < 0 ? (int)-d : (int)d;
}

/* Within maxulp ulps of the reference, or (abs_tol > 0) within abs_tol absolutely: sin/cos near
 * their zeros are judged absolutely, as their argument is a multiple of 2pi. */
static void check_trans(at *t, const char *op, const float *in, unsigned n, double (*ref)(double), int maxulp,
                        double abs_tol)
{
    for (unsigned l = 0; l < n; l++) at_v(t, 1, l, fb(in[l]));
    at_code(t, "%s v0, v1", op);
    RUNS(t);
    for (unsigned l = 0; l < n; l++) {
        float want = (float)ref((double)in[l]), got = bf(at_gv(t, 0, l));
        if (ulp_diff(got, want) > maxulp && !(abs_tol > 0 && fabs((double)got - (double)want) <= abs_tol))
            at_fail(t, __FILE__, __LINE__, "%s(%a) = %a, expected %a", op, (double)in[l], (double)got, (double)want);
    }
}
static double r_exp2(double x) { return exp2(x); }
static double r_log2(double x) { return log2(x); }
static double r_rcp(double x) { return 1.0 / x; }
static double r_rsq(double x) { return 1.0 / sqrt(x); }
static double r_sqrt(double x) { return sqrt(x); }
static double r_sin(double x) { return isinf(x) ? NAN : sin(2.0 * M_PI * x); }
static double r_cos(double x) { return isinf(x) ? NAN : cos(2.0 * M_PI * x); }

static void vf32_transcendental(at *t)
{
    static const float xs[16] = {0.0f, -0.0f, 1.0f, 2.0f, 0.5f, 3.0f, 100.0f, 1e-3f,
                                 -1.0f, INFINITY, -INFINITY, 0x1p-140f, 10.5f, 7.25f, -0.3f, 123.456f};
    check_trans(t, "v_exp_f32_e32", xs, 16, r_exp2, 1, 0);
    check_trans(t, "v_log_f32_e32", xs, 16, r_log2, 1, 0);
    check_trans(t, "v_rcp_f32_e32", xs, 16, r_rcp, 1, 0);
    check_trans(t, "v_rsq_f32_e32", xs, 16, r_rsq, 1, 0);
    check_trans(t, "v_sqrt_f32_e32", xs, 16, r_sqrt, 0, 0);
    static const float rev[12] = {0.0f, 0.25f, 0.5f, 0.125f, -0.25f, 1.75f, 0.1f, 3.3f, -7.6f, 0.01f, 0.9f, 2.0f};
    check_trans(t, "v_sin_f32_e32", rev, 12, r_sin, 2, 0x1p-24);
    check_trans(t, "v_cos_f32_e32", rev, 12, r_cos, 2, 0x1p-24);
    /* Exact special values from the ISA tables. */
    at_v(t, 1, 0, fb(-0.0f)); at_v(t, 1, 1, fb(INFINITY)); at_v(t, 1, 2, fb(-4.0f));
    at_code(t, "v_rsq_f32_e32 v0, v1\nv_log_f32_e32 v2, v1\nv_rcp_f32_e32 v3, v1\nv_sqrt_f32_e32 v4, v1");
    RUNS(t);
    EQF(t, at_gv(t, 0, 0), -INFINITY);
    EQF(t, at_gv(t, 0, 1), 0.0f);
    EQF(t, at_gv(t, 0, 2), NAN);
    EQF(t, at_gv(t, 2, 0), -INFINITY);
    EQF(t, at_gv(t, 2, 2), NAN);
    EQF(t, at_gv(t, 3, 0), -INFINITY);
    EQF(t, at_gv(t, 3, 1), 0.0f);
    EQF(t, at_gv(t, 4, 0), -0.0f);
    EQF(t, at_gv(t, 4, 2), NAN);
}

/* MODE.FP_DENORM[1:0] = 0: f32 denormal inputs and results are flushed to zero (sign kept). */
static void vf32_denorm_flush(at *t)
{
    umb_rdna3_step_set_mode(t->s, 0x3c0u | 0x000u);   /* f32 denorm 0, f64/f16 3, DX10, IEEE */
    at_v(t, 1, 0, fb(0x1p-149f)); at_v(t, 2, 0, fb(1.0f));
    at_v(t, 1, 1, fb(0x1p-126f)); at_v(t, 2, 1, fb(0.5f));
    at_v(t, 1, 2, fb(-0x1p-140f)); at_v(t, 2, 2, fb(0x1p+20f));
    at_code(t, "v_mul_f32_e32 v0, v1, v2");
    RUNS(t);
    EQF(t, at_gv(t, 0, 0), 0.0f);            /* denormal input flushed */
    EQF(t, at_gv(t, 0, 1), 0.0f);            /* 2^-127 result flushed */
    EQF(t, at_gv(t, 0, 2), -0.0f);           /* input flushed, sign kept */
    umb_rdna3_step_set_mode(t->s, 0x3f0u);   /* denormals kept */
    at_code(t, "v_mul_f32_e32 v0, v1, v2");
    RUNS(t);
    EQF(t, at_gv(t, 0, 0), 0x1p-149f);
    EQF(t, at_gv(t, 0, 1), 0x1p-127f);
    EQF(t, at_gv(t, 0, 2), -0x1p-120f);
}

/* The division sequence LLVM emits for a correctly rounded f32 a/b (div_scale, rcp, fma
 * refinement, div_fmas, div_fixup) must give exactly the host's a / b. */
static void vf32_div_sequence(at *t)
{
    static const float num[8] = {1.0f, 10.0f, 0x1p-140f, 3e38f, -7.0f, 1.0f, 0.0f, 5.0f};
    static const float den[8] = {3.0f, 7.0f, 3.0f, 0.25f, 0x1p-130f, 0x1.8p127f, 0.0f, INFINITY};
    for (unsigned l = 0; l < 8; l++) {
        at_v(t, 1, l, fb(num[l]));
        at_v(t, 2, l, fb(den[l]));
    }
    at_code(t, "v_div_scale_f32 v3, null, v2, v2, v1\n"
               "v_div_scale_f32 v4, vcc_lo, v1, v2, v1\n"
               "v_rcp_f32_e32 v5, v3\n"
               "v_fma_f32 v6, -v3, v5, 1.0\n"
               "v_fmac_f32_e32 v5, v6, v5\n"
               "v_mul_f32_e32 v6, v4, v5\n"
               "v_fma_f32 v7, -v3, v6, v4\n"
               "v_fmac_f32_e32 v6, v7, v5\n"
               "v_fma_f32 v3, -v3, v6, v4\n"
               "v_div_fmas_f32 v3, v3, v5, v6\n"
               "v_div_fixup_f32 v0, v3, v2, v1\n");
    RUNS(t);
    for (unsigned l = 0; l < 8; l++) EQF(t, at_gv(t, 0, l), num[l] / den[l]);

    /* Random operands over the whole exponent range (a fixed LCG, so the test is repeatable). */
    uint32_t x = 12345u;
    for (unsigned round = 0; round < 8; round++) {
        float n[32], d[32];
        for (unsigned l = 0; l < 32; l++) {
            x = x * 1664525u + 1013904223u;
            n[l] = bf((x & 0x807fffffu) | ((((x >> 23) % 254u) + 1u) << 23));
            x = x * 1664525u + 1013904223u;
            d[l] = bf((x & 0x807fffffu) | ((((x >> 23) % 254u) + 1u) << 23));
            at_v(t, 1, l, fb(n[l]));
            at_v(t, 2, l, fb(d[l]));
        }
        umb_rdna3_step_set_pc(t->s, UMB_RDNA3_STEP_CODE_BASE);
        RUNS(t);
        for (unsigned l = 0; l < 32; l++) EQF(t, at_gv(t, 0, l), n[l] / d[l]);
    }
}

/* MODE.FP_ROUND: s_round_mode switches f32 rounding; v_rndne keeps rounding to even. */
static void vf32_round_mode(at *t)
{
    at_vall(t, 1, fb(1.0f));
    at_vall(t, 2, fb(0x1.8p-24f));          /* 1 + 1.5 ulp/2: RNE -> 1 + 2^-23 */
    at_vall(t, 3, 16777217u);
    at_vall(t, 4, fb(2.5f));
    at_code(t, "v_add_f32_e32 v5, v1, v2\n"
               "s_round_mode 0x3\n"             /* toward zero */
               "v_add_f32_e32 v6, v1, v2\n"
               "v_sub_f32_e32 v7, 0, v2\n"
               "s_round_mode 0x1\n"             /* toward +inf */
               "v_cvt_f32_i32_e32 v8, v3\n"
               "v_rndne_f32_e32 v9, v4\n"
               "s_round_mode 0x2\n"             /* toward -inf */
               "v_fma_f32 v10, v2, v2, v1\n"
               "s_round_mode 0x0\n"
               "v_add_f32_e32 v11, v1, v2\n");
    RUNS(t);
    EQF(t, at_gv(t, 5, 0), 1.0f + 0x1p-23f);
    EQF(t, at_gv(t, 6, 0), 1.0f);
    EQF(t, at_gv(t, 7, 0), -0x1.8p-24f);
    EQF(t, at_gv(t, 8, 0), 16777218.0f);
    EQF(t, at_gv(t, 9, 0), 2.0f);
    EQF(t, at_gv(t, 10, 0), 1.0f);
    EQF(t, at_gv(t, 11, 0), 1.0f + 0x1p-23f);
    /* the host's rounding mode is restored after the run */
    volatile float x = 1.0f, y = 0x1.8p-24f;
    EQF(t, fb(x + y), 1.0f + 0x1p-23f);
}

/* v_cube*_f32 against the values LLVM 19 constant-folds llvm.amdgcn.cubeid/sc/tc/ma to for these
 * directions (clang-19 -O3 on __builtin_amdgcn_cube*(x, y, z) with constant arguments; its fold
 * follows the ISA guide's rules): ties (z before y before x), -0 and NaN as positive, NaN losing
 * every magnitude comparison, infinity, an overflowing 2 x major axis. */
static void vf32_cube(at *t)
{
    static const float in[14][3] = {
        { 1, 2, 3 }, { -1, 2, -3 }, { 0.5f, -4, 1 }, { 0.5f, 4, -1 }, { -5, 1, 2 }, { 5, -1, -2 }, { 2, 2, 2 },
        { -2, 2, -2 }, { 3, -3, 1 }, { -0.0f, 0.0f, -0.0f }, { __builtin_nanf(""), 1, 2 }, { 1, __builtin_inff(), -2 },
        { 1e38f, -3e38f, 2e38f }, { 0.25f, -0.0f, -0.75f },
    };
    static const float folded[14][4] = {   /* id, sc, tc, ma */
        { 4, 1, -2, 6 }, { 5, 1, -2, -6 }, { 3, 0.5f, -1, -8 }, { 2, 0.5f, -1, 8 }, { 1, 2, -1, -10 }, { 0, 2, 1, 10 },
        { 4, 2, -2, 4 }, { 5, 2, -2, -4 }, { 3, 3, -1, -6 }, { 4, -0.0f, -0.0f, -0.0f }, { 0, -2, -1, __builtin_nanf("") },
        { 2, 1, -2, __builtin_inff() }, { 3, 1e38f, -2e38f, -__builtin_inff() }, { 5, -0.25f, 0.0f, -1.5f },
    };
    for (unsigned l = 0; l < 32; l++)
        for (unsigned k = 0; k < 3; k++) at_v(t, 1 + k, l, fb(in[l % 14][k]));
    at_code(t, "v_cubeid_f32 v4, v1, v2, v3\nv_cubesc_f32 v5, v1, v2, v3\nv_cubetc_f32 v6, v1, v2, v3\n"
               "v_cubema_f32 v7, v1, v2, v3\n");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++)
        for (unsigned k = 0; k < 4; k++) EQF(t, at_gv(t, 4 + k, l), folded[l % 14][k]);
    /* input modifiers apply before the selection: |x|, -y */
    at_code(t, "v_cubeid_f32 v4, |v1|, -v2, v3\n");
    RUNS(t);
    EQF(t, at_gv(t, 4, 4), 0.0f);   /* (5, -1, 2): +x */
    EQF(t, at_gv(t, 4, 2), 2.0f);   /* (0.5, 4, 1): +y */
}

const at_case at_vf32_cases[] = {
    C(vf32_arith), C(vf32_fmac_fmak), C(vf32_omod_clamp), C(vf32_minmax), C(vf32_med3), C(vf32_round),
    C(vf32_transcendental), C(vf32_denorm_flush), C(vf32_div_sequence), C(vf32_round_mode), C(vf32_cube),
    {NULL, NULL},
};
