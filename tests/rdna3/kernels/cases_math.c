/* Corpus cases: floating point (single, double, half) and the math built-ins. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"

static void conv2d(tctx *t)
{
    enum { W = 61, H = 37 };
    float *img = tc_alloc(W * H * 4), *got = tc_alloc(W * H * 4), *want = tc_alloc(W * H * 4), filt[9];
    for (int i = 0; i < W * H; i++) img[i] = tc_randf(t, -4, 4);
    for (int i = 0; i < 9; i++) filt[i] = tc_randf(t, -1, 1);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float acc = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int sx = x + dx < 0 ? 0 : x + dx > W - 1 ? W - 1 : x + dx;
                    int sy = y + dy < 0 ? 0 : y + dy > H - 1 ? H - 1 : y + dy;
                    float p = img[sy * W + sx] * filt[(dy + 1) * 3 + dx + 1];
                    acc = acc + p;
                }
            want[y * W + x] = acc;
        }
    tc_arg_buf(t, img, W * H * 4);
    tc_arg_buf(t, filt, sizeof filt);
    uint64_t dout = tc_arg_buf(t, NULL, W * H * 4);
    tc_arg_u32(t, W), tc_arg_u32(t, H);
    if (tc_launch(t, 2, W, H, 1, 8, 8, 1)) {   /* 61x37 over 8x8: partial groups in x and y */
        tc_read(t, dout, got, W * H * 4);
        tc_check_f32(t, "out", got, want, W * H, 0);   /* contraction off, same order: exact */
    }
    free(img), free(got), free(want);
}

static void nbody(tctx *t)
{
    enum { N = 200 };
    const float dt = 0.01f, eps2 = 0.01f;
    float *pos = tc_alloc(N * 16), *vel = tc_alloc(N * 16), *np = tc_alloc(N * 16), *nv = tc_alloc(N * 16);
    float *speed = tc_alloc(N * 4), *gv = tc_alloc(N * 3 * 4), *gp = tc_alloc(N * 3 * 4);
    double *wv = tc_alloc(N * 3 * 8), *sv = tc_alloc(N * 3 * 8), *wp = tc_alloc(N * 3 * 8), *sp = tc_alloc(N * 3 * 8);
    double *ws = tc_alloc(N * 8), *ss = tc_alloc(N * 8);
    for (int i = 0; i < N; i++) {
        for (int c = 0; c < 3; c++) pos[4 * i + c] = tc_randf(t, -2, 2), vel[4 * i + c] = tc_randf(t, -0.5f, 0.5f);
        pos[4 * i + 3] = tc_randf(t, 0.5f, 1.5f);
        vel[4 * i + 3] = 0;
    }
    for (int i = 0; i < N; i++) {
        double a[3] = { 0 }, as[3] = { 0 };
        for (int j = 0; j < N; j++) {
            double d[3], r2 = eps2;
            for (int c = 0; c < 3; c++) d[c] = (double)pos[4 * j + c] - pos[4 * i + c], r2 += d[c] * d[c];
            double s = pos[4 * j + 3] / (r2 * sqrt(r2));
            for (int c = 0; c < 3; c++) a[c] += d[c] * s, as[c] += fabs(d[c] * s);
        }
        double sq = 0, sqs = 0;
        for (int c = 0; c < 3; c++) {
            double v = vel[4 * i + c] + a[c] * dt;
            wv[3 * i + c] = v;
            sv[3 * i + c] = fabs(vel[4 * i + c]) + as[c] * dt;
            wp[3 * i + c] = pos[4 * i + c] + v * dt;
            sp[3 * i + c] = fabs(pos[4 * i + c]) + sv[3 * i + c] * dt;
            sq += v * v;
            sqs += sv[3 * i + c] * sv[3 * i + c];
        }
        ws[i] = sqrt(sq);
        ss[i] = sqrt(sqs);
    }
    tc_arg_buf(t, pos, N * 16);
    tc_arg_buf(t, vel, N * 16);
    uint64_t dnp = tc_arg_buf(t, NULL, N * 16), dnv = tc_arg_buf(t, NULL, N * 16), dsp = tc_arg_buf(t, NULL, N * 4);
    tc_arg_u32(t, N), tc_arg_f32(t, dt), tc_arg_f32(t, eps2);
    /* whole groups: every work-item of a group must help load the LDS tiles (the kernel guards i < n) */
    if (tc_launch(t, 1, (N + 63) / 64 * 64, 1, 1, 64, 1, 1)) {
        tc_read(t, dnp, np, N * 16);
        tc_read(t, dnv, nv, N * 16);
        tc_read(t, dsp, speed, N * 4);
        for (int i = 0; i < N; i++)
            for (int c = 0; c < 3; c++) gv[3 * i + c] = nv[4 * i + c], gp[3 * i + c] = np[4 * i + c];
        /* N terms with rsqrt (1 ulp) and cancellation: 4N ulp of the sum of |terms| */
        tc_check_f32_scaled(t, "velocity", gv, wv, sv, N * 3, 4 * N);
        tc_check_f32_scaled(t, "position", gp, wp, sp, N * 3, 4 * N);
        tc_check_f32_scaled(t, "speed", speed, ws, ss, N, 4 * N);
        float w[N];
        for (int i = 0; i < N; i++) w[i] = pos[4 * i + 3];
        float gw[N];
        for (int i = 0; i < N; i++) gw[i] = np[4 * i + 3];
        tc_check_f32(t, "mass", gw, w, N, 0);
    }
    free(pos), free(vel), free(np), free(nv), free(speed), free(gv), free(gp);
    free(wv), free(sv), free(wp), free(sp), free(ws), free(ss);
}

static void mandelbrot(tctx *t)
{
    enum { W = 72, H = 40 };
    const float x0 = -2.1f, y0 = -1.2f, step = 0.06f;
    const uint32_t maxit = 200;
    uint32_t *got = tc_alloc(W * H * 4), *want = tc_alloc(W * H * 4);
    for (int py = 0; py < H; py++)
        for (int px = 0; px < W; px++) {
            float cx = x0 + (float)px * step, cy = y0 + (float)py * step, x = 0, y = 0;
            uint32_t it = 0;
            while (it < maxit && fmaf(x, x, y * y) <= 4.0f) {
                float xt = fmaf(x, x, fmaf(-y, y, cx));
                y = fmaf(2.0f * x, y, cy);
                x = xt;
                it++;
            }
            want[py * W + px] = it;
        }
    uint64_t dout = tc_arg_buf(t, NULL, W * H * 4);
    tc_arg_u32(t, W), tc_arg_u32(t, H), tc_arg_f32(t, x0), tc_arg_f32(t, y0), tc_arg_f32(t, step);
    tc_arg_u32(t, maxit);
    if (tc_launch(t, 2, W, H, 1, 16, 4, 1)) {
        tc_read(t, dout, got, W * H * 4);
        tc_check_u32(t, "iterations", got, want, W * H);
    }
    free(got), free(want);
}

static double cnd(double d)
{
    const double a1 = 0.31938153, a2 = -0.356563782, a3 = 1.781477937, a4 = -1.821255978, a5 = 1.330274429,
                 rsqrt2pi = 0.39894228040143267794;
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double c = rsqrt2pi * exp(-0.5 * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0 ? 1.0 - c : c;
}

static void black_scholes(tctx *t)
{
    enum { N = 1000 };
    const float r = 0.02f, v = 0.30f;
    float *S = tc_alloc(N * 4), *X = tc_alloc(N * 4), *T = tc_alloc(N * 4), *call = tc_alloc(N * 4),
          *put = tc_alloc(N * 4);
    double *wc = tc_alloc(N * 8), *wp = tc_alloc(N * 8), *scale = tc_alloc(N * 8);
    for (int i = 0; i < N; i++) {
        S[i] = tc_randf(t, 5, 30), X[i] = tc_randf(t, 1, 100), T[i] = tc_randf(t, 0.25f, 10);
        double sq = sqrt((double)T[i]);
        double d1 = (log((double)S[i] / X[i]) + (r + 0.5 * (double)v * v) * T[i]) / (v * sq), d2 = d1 - v * sq;
        double e = exp(-(double)r * T[i]);
        wc[i] = S[i] * cnd(d1) - X[i] * e * cnd(d2);
        wp[i] = X[i] * e * (1.0 - cnd(d2)) - S[i] * (1.0 - cnd(d1));
        scale[i] = S[i] > X[i] ? S[i] : X[i];
    }
    tc_arg_buf(t, S, N * 4), tc_arg_buf(t, X, N * 4), tc_arg_buf(t, T, N * 4);
    uint64_t dc = tc_arg_buf(t, NULL, N * 4), dp = tc_arg_buf(t, NULL, N * 4);
    tc_arg_f32(t, r), tc_arg_f32(t, v), tc_arg_u32(t, N);
    if (tc_launch(t, 1, N, 1, 1, 128, 1, 1)) {
        tc_read(t, dc, call, N * 4);
        tc_read(t, dp, put, N * 4);
        /* exp/log/sqrt within a few ulp, a few dozen float operations: 64 ulp of max(S, X) */
        tc_check_f32_scaled(t, "call", call, wc, scale, N, 64);
        tc_check_f32_scaled(t, "put", put, wp, scale, N, 64);
    }
    free(S), free(X), free(T), free(call), free(put), free(wc), free(wp), free(scale);
}

static void double_prec(tctx *t)
{
    enum { N = 777 };
    const double a = -1.2345678901234567;
    double *x = tc_alloc(N * 8), *y = tc_alloc(N * 8), *got = tc_alloc(N * 24), *want = tc_alloc(N * 24);
    for (int i = 0; i < N; i++) {
        x[i] = 0.5 + (double)tc_rand(t) / 4294967296.0 * (1 + i % 13);
        y[i] = (double)tc_rand(t) / 65536.0 + 1e-3;
        want[3 * i] = fma(a, x[i], y[i]);
        want[3 * i + 1] = y[i] / x[i];
        want[3 * i + 2] = sqrt(x[i] * y[i]);
    }
    tc_arg_buf(t, x, N * 8), tc_arg_buf(t, y, N * 8);
    uint64_t dout = tc_arg_buf(t, NULL, N * 24);
    tc_arg_f64(t, a), tc_arg_u32(t, N);
    if (tc_launch(t, 1, N, 1, 1, 64, 1, 1)) {
        tc_read(t, dout, got, N * 24);
        /* fma, division and sqrt are correctly rounded on gfx11 (LLVM's expansions): 1 ulp allowed */
        tc_check_f64(t, "fma,div,sqrt", got, want, 3 * N, 1);
    }
    free(x), free(y), free(got), free(want);
}

static void half_prec(tctx *t)
{
    enum { N = 600 };
    uint16_t *a = tc_alloc(N * 2), *b = tc_alloc(N * 2), *got = tc_alloc(N * 6), *want = tc_alloc(N * 6);
    float *c = tc_alloc(N * 4);
    for (int i = 0; i < N; i++) {
        a[i] = tc_f32_to_f16(tc_randf(t, -30, 30));
        b[i] = tc_f32_to_f16(tc_randf(t, -8, 8));
        c[i] = tc_randf(t, -40, 40);
        float x = tc_f16_to_f32(a[i]), y = tc_f16_to_f32(b[i]);
        uint16_t z = tc_f32_to_f16(c[i]);
        want[3 * i] = tc_f32_to_f16(x * y);   /* exact in float, so one rounding */
        uint16_t s = tc_f32_to_f16(x + y);
        want[3 * i + 1] = tc_f32_to_f16(tc_f16_to_f32(s) - tc_f16_to_f32(z));
        float zf = tc_f16_to_f32(z);
        want[3 * i + 2] = tc_f32_to_f16((x > zf ? x : zf) * 0.5f);
    }
    tc_arg_buf(t, a, N * 2), tc_arg_buf(t, b, N * 2), tc_arg_buf(t, c, N * 4);
    uint64_t dout = tc_arg_buf(t, NULL, N * 6);
    tc_arg_u32(t, N);
    if (tc_launch(t, 1, N, 1, 1, 64, 1, 1)) {
        tc_read(t, dout, got, N * 6);
        /* each operation rounds once in half; the sum of two roundings may differ by 1 ulp if the
         * compiler keeps x + y in f32 */
        tc_check_f16(t, "mul,add-sub,max", got, want, 3 * N, 1);
    }
    free(a), free(b), free(c), free(got), free(want);
}

static void builtins(tctx *t)
{
    enum { N = 300 };
    float *in = tc_alloc(7 * N * 4), *gf = tc_alloc(14 * N * 4), *wf = tc_alloc(14 * N * 4);
    int32_t *gi = tc_alloc(6 * N * 4), *wi = tc_alloc(6 * N * 4);
    for (int i = 0; i < 7 * N; i++) in[i] = tc_randf(t, -2, 2);
    for (int i = 0; i < N; i++) {
        const float *v = in + 4 * i, *w = in + 4 * N + 3 * i;
        for (int k = 0; k < 4; k++) wf[4 * i + k] = sqrtf(fabsf(v[k])) + fminf(v[k], 0.5f) + fmaxf(v[k], -0.5f);
        float d = v[0] * v[0];
        d = d + v[1] * v[1], d = d + v[2] * v[2], d = d + v[3] * v[3];
        wf[4 * N + i] = d;
        float dw = w[0] * w[0];
        dw = dw + w[1] * w[1], dw = dw + w[2] * w[2];
        wf[5 * N + i] = sqrtf(dw);
        wf[6 * N + 3 * i] = w[1] * 3.0f - w[2] * 2.0f;
        wf[6 * N + 3 * i + 1] = w[2] * 1.0f - w[0] * 3.0f;
        wf[6 * N + 3 * i + 2] = w[0] * 2.0f - w[1] * 1.0f;
        wf[9 * N + i] = fmodf(v[0] * 10.0f, 3.0f);
        wf[10 * N + i] = ldexpf(v[1], 5);
        wf[11 * N + i] = v[0] + (v[1] - v[0]) * 0.25f;
        wf[12 * N + i] = (v[2] < 0.0f ? 0.0f : 1.0f) + (v[3] > 0.0f ? 2.0f : 1.0f);
        float c[4];
        for (int k = 0; k < 4; k++) c[k] = fminf(fmaxf(v[k], -1.0f), 1.0f);
        wf[13 * N + i] = c[0] + c[1] * 2.0f + c[2] * 4.0f + c[3] * 8.0f;
        uint32_t sum = 0;
        for (int k = 0; k < 4; k++) {
            wi[4 * i + k] = (int32_t)(v[k] * 100.0f);
            sum += (uint32_t)(wi[4 * i + k] & 255);
        }
        wi[4 * N + i] = (v[0] < 0.0f) | 0 << 1;   /* 1/(y - y) is 1/0 = inf: isinf is 1 */
        wi[4 * N + i] |= 1 << 1;
        wi[5 * N + i] = (int32_t)sum + (wi[4 * i] > 0 ? wi[4 * i] : 0) * 1000;
    }
    tc_arg_buf(t, in, 7 * N * 4);
    uint64_t df = tc_arg_buf(t, NULL, 14 * N * 4), di = tc_arg_buf(t, NULL, 6 * N * 4);
    tc_arg_u32(t, N);
    if (tc_launch(t, 1, N, 1, 1, 64, 1, 1)) {
        tc_read(t, df, gf, 14 * N * 4);
        tc_read(t, di, gi, 6 * N * 4);
        tc_check_f32(t, "vector sqrt/fabs/fmin/fmax", gf, wf, 4 * N, 0);
        /* the header is compiled with contraction on (the kernel's pragma comes after it), so dot,
         * length and cross may fuse: positive sums within 2 ulp, cross within 1 ulp of its terms */
        tc_check_f32(t, "dot, length", gf + 4 * N, wf + 4 * N, 2 * N, 2);
        double *cw = tc_alloc(3 * N * 8), *cs = tc_alloc(3 * N * 8);
        for (int i = 0; i < N; i++) {
            const float *w = in + 4 * N + 3 * i;
            const double a[3][2] = { { w[1] * 3.0, w[2] * 2.0 }, { w[2] * 1.0, w[0] * 3.0 }, { w[0] * 2.0, w[1] * 1.0 } };
            for (int k = 0; k < 3; k++) cw[3 * i + k] = a[k][0] - a[k][1], cs[3 * i + k] = fabs(a[k][0]) + fabs(a[k][1]);
        }
        tc_check_f32_scaled(t, "cross", gf + 6 * N, cw, cs, 3 * N, 1);
        free(cw), free(cs);
        tc_check_f32(t, "fmod, ldexp, mix, step+select, clamp", gf + 9 * N, wf + 9 * N, 5 * N, 0);
        tc_check_u32(t, "convert_int4, isnan|isinf, convert_uchar4, max", (uint32_t *)gi, (uint32_t *)wi, 6 * N);
    }
    free(in), free(gf), free(wf), free(gi), free(wi);
}

static void math_accuracy(tctx *t)
{
    enum { N = 1000, K = 11 };
    float *x = tc_alloc(N * 4), *y = tc_alloc(N * 4), *got = tc_alloc(K * N * 4);
    double *want = tc_alloc(K * N * 8), *scale = tc_alloc(K * N * 8);
    for (int i = 0; i < N; i++) {
        x[i] = tc_randf(t, -20, 20);                       /* exp, sin, cos, pow exponents */
        y[i] = ldexpf(tc_randf(t, 1, 2), (int)(tc_rand(t) % 40) - 20);   /* positive, wide range */
        double a = x[i], b = y[i];
        double w[K] = { exp(a), exp2(a), log(b), log2(b), sqrt(b), 1 / sqrt(b), sin(a), cos(a),
                        pow(b, (double)(x[i] * 0.25f)), pow(-b, 3.0), a / b };
        for (int k = 0; k < K; k++) {
            want[k * N + i] = w[k];
            scale[k * N + i] = fabs(w[k]);
        }
        /* sin and cos: absolute error, in ulp of 1 (the reduction by 2*pi is not exact) */
        scale[6 * N + i] = scale[7 * N + i] = 1.0;
        /* log near 1 has a tiny result: the error is bounded in ulp of max(1, |log|) */
        scale[2 * N + i] = fabs(w[2]) > 1 ? fabs(w[2]) : 1.0;
        scale[3 * N + i] = fabs(w[3]) > 1 ? fabs(w[3]) : 1.0;
        /* pow = exp2(y * log2 x): the error grows with the exponent |log2 pow|, so the bound is in
         * ulp of |pow| * max(1, |log2 pow|) */
        double l2 = fabs(log2(fabs(w[8])));
        scale[8 * N + i] = fabs(w[8]) * (l2 > 1 ? l2 : 1);
    }
    tc_arg_buf(t, x, N * 4), tc_arg_buf(t, y, N * 4);
    uint64_t dout = tc_arg_buf(t, NULL, K * N * 4);
    tc_arg_u32(t, N);
    if (tc_launch(t, 1, N, 1, 1, 64, 1, 1)) {
        tc_read(t, dout, got, K * N * 4);
        static const char *const names[K] = { "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos",
                                              "pow", "pow(-b, 3)", "divide" };
        /* OpenCL full profile: exp/exp2/log/log2 3 ulp, sqrt 3, rsqrt 2, sin/cos 4 (here absolute, in
         * ulp of 1), pow 16 (here 2 ulp of the scale above; integral exponents by squaring: 8),
         * divide 2.5 */
        static const uint32_t bound[K] = { 3, 3, 3, 3, 3, 2, 4, 4, 2, 8, 3 };
        for (int k = 0; k < K; k++)
            tc_check_f32_scaled(t, names[k], got + k * N, want + k * N, scale + k * N, N, bound[k]);
    }
    free(x), free(y), free(got), free(want), free(scale);
}

#define CASE(n) { #n, n }
const tcase tc_cases_math[] = {
    CASE(conv2d), CASE(nbody), CASE(mandelbrot), CASE(black_scholes), CASE(double_prec), CASE(half_prec), CASE(builtins), CASE(math_accuracy),
};
const size_t tc_ncases_math = sizeof tc_cases_math / sizeof tc_cases_math[0];
