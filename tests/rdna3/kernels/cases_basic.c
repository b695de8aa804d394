/* Corpus cases: data-parallel basics, reductions, LDS and atomics. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"

static void vec_add(tctx *t)
{
    enum { N = 5000 };   /* not a multiple of 64: partial last group */
    float *a = tc_alloc(N * 4), *b = tc_alloc(N * 4), *c = tc_alloc(N * 4), *want = tc_alloc(N * 4);
    for (int i = 0; i < N; i++) {
        a[i] = tc_randf(t, -100, 100);
        b[i] = tc_randf(t, -1, 1);
        want[i] = a[i] + b[i];
    }
    tc_arg_buf(t, a, N * 4);
    tc_arg_buf(t, b, N * 4);
    uint64_t dc = tc_arg_buf(t, NULL, N * 4);
    tc_arg_u32(t, N);
    if (tc_launch(t, 1, N, 1, 1, 64, 1, 1)) {
        tc_read(t, dc, c, N * 4);
        tc_check_f32(t, "c", c, want, N, 0);   /* one IEEE addition: exact */
    }
    free(a), free(b), free(c), free(want);
}

static void saxpy(tctx *t)
{
    enum { N = 4099 };
    float *x = tc_alloc(N * 4), *y = tc_alloc(N * 4), *got = tc_alloc(N * 4);
    double *want = tc_alloc(N * 8), *scale = tc_alloc(N * 8);
    const float a = 1.75f;
    for (int i = 0; i < N; i++) {
        x[i] = tc_randf(t, -10, 10);
        y[i] = tc_randf(t, -10, 10);
        want[i] = (double)a * x[i] + y[i];   /* exact */
        scale[i] = fabs((double)a * x[i]) + fabs((double)y[i]);
    }
    tc_arg_f32(t, a);
    tc_arg_buf(t, x, N * 4);
    uint64_t dy = tc_arg_buf(t, y, N * 4);
    tc_arg_u32(t, N);
    if (tc_launch(t, 1, N, 1, 1, 128, 1, 1)) {
        tc_read(t, dy, got, N * 4);
        /* fused: 0.5 ulp of the result; unfused: also 0.5 ulp of |a*x|. With cancellation the result's
         * ulp is tiny, so the bound is 1 ulp of |a*x| + |y| */
        tc_check_f32_scaled(t, "y", got, want, scale, N, 1);
    }
    free(x), free(y), free(got), free(want), free(scale);
}

static void reduce_lds(tctx *t)
{
    enum { N = 3000, WG = 256, G = (N + WG - 1) / WG };
    uint32_t *in = tc_alloc(N * 4), got[G], want[G] = { 0 };
    for (int i = 0; i < N; i++) {
        in[i] = tc_rand(t);
        want[i / WG] += in[i];
    }
    tc_arg_buf(t, in, N * 4);
    uint64_t dout = tc_arg_buf(t, NULL, G * 4);
    tc_arg_u32(t, N);
    if (tc_launch(t, 1, N, 1, 1, WG, 1, 1)) {
        tc_read(t, dout, got, sizeof got);
        /* the last group is partial: its tree runs over get_local_size(0) = N % WG items */
        tc_check_u32(t, "sums", got, want, G);
    }
    free(in);
}

static void reduce_atomic(tctx *t)
{
    enum { N = 2500 };
    uint32_t *in = tc_alloc(N * 4), res0[4] = { 0, 0, 0x7fffffff, 0 }, got[4], want[4] = { 0, 0, 0x7fffffff, 0 };
    for (int i = 0; i < N; i++) {
        in[i] = tc_rand(t) >> 4;
        want[0] += in[i];
        if (in[i] > want[1]) want[1] = in[i];
        int32_t m = (int32_t)(in[i] ^ 0x5a5a5a5au);
        if (m < (int32_t)want[2]) want[2] = (uint32_t)m;
        want[3] += in[i] & 0xff;
    }
    tc_arg_buf(t, in, N * 4);
    uint64_t dres = tc_arg_buf(t, res0, sizeof res0);
    tc_arg_u32(t, N);
    if (tc_launch(t, 1, N, 1, 1, 128, 1, 1)) {
        tc_read(t, dres, got, sizeof got);
        tc_check_u32(t, "sum,max,min,bytes", got, want, 4);
    }
    free(in);
}

static void matmul_tiled(tctx *t)
{
    enum { M = 40, N = 56, K = 72 };
    float *A = tc_alloc(M * K * 4), *B = tc_alloc(K * N * 4), *C = tc_alloc(M * N * 4);
    double *want = tc_alloc(M * N * 8);
    for (int i = 0; i < M * K; i++) A[i] = tc_randf(t, 0, 1);
    for (int i = 0; i < K * N; i++) B[i] = tc_randf(t, 0, 1);
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            double s = 0;
            for (int k = 0; k < K; k++) s += (double)A[r * K + k] * B[k * N + c];
            want[r * N + c] = s;
        }
    tc_arg_buf(t, A, M * K * 4);
    tc_arg_buf(t, B, K * N * 4);
    uint64_t dc = tc_arg_buf(t, NULL, M * N * 4);
    tc_arg_u32(t, M), tc_arg_u32(t, N), tc_arg_u32(t, K);
    if (tc_launch(t, 2, (N + 15) / 16 * 16, (M + 15) / 16 * 16, 1, 16, 16, 1)) {
        tc_read(t, dc, C, M * N * 4);
        /* K float multiply-adds of positive terms: error <= K ulp of the exact sum */
        tc_check_f32_scaled(t, "C", C, want, want, M * N, K);
    }
    free(A), free(B), free(C), free(want);
}

static void transpose_lds(tctx *t)
{
    enum { W = 67, H = 45 };
    uint32_t *in = tc_alloc(W * H * 4), *got = tc_alloc(W * H * 4), *want = tc_alloc(W * H * 4);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            in[y * W + x] = tc_rand(t);
            want[x * H + y] = in[y * W + x];
        }
    tc_arg_buf(t, in, W * H * 4);
    uint64_t dout = tc_arg_buf(t, NULL, W * H * 4);
    tc_arg_u32(t, W), tc_arg_u32(t, H);
    /* whole tiles: a work-item loads for (x, y) but stores for the transposed position */
    if (tc_launch(t, 2, (W + 15) / 16 * 16, (H + 15) / 16 * 16, 1, 16, 16, 1)) {
        tc_read(t, dout, got, W * H * 4);
        tc_check_u32(t, "out", got, want, W * H);
    }
    free(in), free(got), free(want);
}

static void histogram(tctx *t)
{
    enum { N = 20000 };
    uint8_t *data = tc_alloc(N);
    uint32_t got[256], want[256] = { 0 };
    for (int i = 0; i < N; i++) {
        uint32_t r = tc_rand(t);
        data[i] = (uint8_t)((r & 0x100) ? r : (r & 0x1f));   /* skewed: many collisions */
        want[data[i]]++;
    }
    tc_arg_buf(t, data, N);
    tc_arg_u32(t, N);
    uint64_t dh = tc_arg_buf(t, NULL, sizeof got);
    if (tc_launch(t, 1, 8 * 128, 1, 1, 128, 1, 1)) {
        tc_read(t, dh, got, sizeof got);
        tc_check_u32(t, "hist", got, want, 256);
    }
    free(data);
}

static void prefix_scan(tctx *t)
{
    enum { N = 1000, WG = 256, G = (N + WG - 1) / WG };
    uint32_t *in = tc_alloc(N * 4), *got = tc_alloc(N * 4), *want = tc_alloc(N * 4), tot[G], wtot[G];
    for (int i = 0; i < N; i++) in[i] = tc_rand(t) & 0xffff;
    for (int g = 0; g < G; g++) {
        uint32_t s = 0;
        for (int i = g * WG; i < N && i < (g + 1) * WG; i++) want[i] = s += in[i];
        wtot[g] = s;
    }
    tc_arg_buf(t, in, N * 4);
    uint64_t dout = tc_arg_buf(t, NULL, N * 4);
    uint64_t dtot = tc_arg_buf(t, NULL, sizeof tot);
    tc_arg_u32(t, N);
    if (tc_launch(t, 1, N, 1, 1, WG, 1, 1)) {
        tc_read(t, dout, got, N * 4);
        tc_read(t, dtot, tot, sizeof tot);
        tc_check_u32(t, "scan", got, want, N);
        tc_check_u32(t, "totals", tot, wtot, G);
    }
    free(in), free(got), free(want);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void bitonic_sort(tctx *t)
{
    enum { WG = 128, BLK = 2 * WG, G = 6, N = BLK * G };
    uint32_t *data = tc_alloc(N * 4), *got = tc_alloc(N * 4);
    for (int i = 0; i < N; i++) data[i] = (i % 7 == 0) ? 42u : tc_rand(t);   /* with duplicates */
    uint64_t dd = tc_arg_buf(t, data, N * 4);
    for (int g = 0; g < G; g++) qsort(data + g * BLK, BLK, 4, cmp_u32);
    if (tc_launch(t, 1, G * WG, 1, 1, WG, 1, 1)) {
        tc_read(t, dd, got, N * 4);
        tc_check_u32(t, "sorted", got, data, N);
    }
    free(data), free(got);
}

#define CASE(n) { #n, n }
const tcase tc_cases_basic[] = {
    CASE(vec_add), CASE(saxpy), CASE(reduce_lds), CASE(reduce_atomic), CASE(matmul_tiled),
    CASE(transpose_lds), CASE(histogram), CASE(prefix_scan), CASE(bitonic_sort),
};
const size_t tc_ncases_basic = sizeof tc_cases_basic / sizeof tc_cases_basic[0];
