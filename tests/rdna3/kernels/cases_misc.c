/* Corpus cases: 64-bit integers, scratch, flat pointers, NDRange shapes, __local arguments, atomics. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"

static uint64_t splitmix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static uint64_t fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    return k ^ (k >> 33);
}
static uint64_t rotl64(uint64_t x, uint64_t n)
{
    n &= 63;
    return n ? (x << n) | (x >> (64 - n)) : x;
}

static void hash64(tctx *t)
{
    enum { N = 1500, ROUNDS = 5 };
    uint64_t *in = tc_alloc(N * 8), *got = tc_alloc(N * 8), *want = tc_alloc(N * 8);
    for (int i = 0; i < N; i++) {
        in[i] = (uint64_t)tc_rand(t) << 32 | tc_rand(t);
        uint64_t h = in[i];
        for (uint32_t r = 0; r < ROUNDS; r++) {
            h = splitmix64(h) ^ rotl64(fmix64(h + r), r * 7 + 3);
            h += (uint64_t)i * 0x100000001b3ull;
        }
        want[i] = h;
    }
    tc_arg_buf(t, in, N * 8);
    uint64_t dout = tc_arg_buf(t, NULL, N * 8);
    tc_arg_u32(t, N), tc_arg_u32(t, ROUNDS);
    if (tc_launch(t, 1, N, 1, 1, 96, 1, 1)) {
        tc_read(t, dout, got, N * 8);
        tc_check_u64(t, "hash", got, want, N);
    }
    free(in), free(got), free(want);
}

static void private_array(tctx *t)
{
    enum { N = 300 };
    uint32_t *idx = tc_alloc(N * 4), *got = tc_alloc(N * 4), *want = tc_alloc(N * 4);
    for (uint32_t g = 0; g < N; g++) {
        idx[g] = tc_rand(t);
        uint32_t a[96], s = 0, k = idx[g];
        for (uint32_t i = 0; i < 96; i++) a[i] = i * 2654435761u + g;
        for (uint32_t r = 0; r < 16; r++) {
            uint32_t j = (k >> (r & 15)) % 96u;
            a[j] ^= s;
            s += a[(j * 7 + r) % 96u];
        }
        want[g] = s;
    }
    tc_arg_buf(t, idx, N * 4);
    uint64_t dout = tc_arg_buf(t, NULL, N * 4);
    tc_arg_u32(t, N);
    if (tc_launch(t, 1, N, 1, 1, 64, 1, 1)) {
        tc_read(t, dout, got, N * 4);
        tc_check_u32(t, "out", got, want, N);
    }
    free(idx), free(got), free(want);
}

static uint32_t weighted_sum(const uint32_t *p, uint32_t count)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i < count; i++) s += p[i] * (i + 1);
    return s;
}

static void generic_ptr(tctx *t)
{
    enum { N = 250, WG = 64 };
    uint32_t *in = tc_alloc(N * 4), *got = tc_alloc(N * 4), *want = tc_alloc(N * 4);
    for (int i = 0; i < N; i++) in[i] = tc_rand(t) & 0xfffff;
    for (uint32_t g = 0; g < N; g++) {
        uint32_t lid = g % WG, gbase = g & ~7u, base = g - lid + (lid & ~7u), tile[8];
        uint32_t a = weighted_sum(&in[gbase], gbase + 8 <= N ? 8u : N - gbase);
        for (uint32_t i = 0; i < 8; i++) tile[i] = base + i < N ? in[base + i] * 5u : 0u;
        uint32_t b = weighted_sum(tile, 8);
        uint32_t priv[4] = { g, g * 3u, 7u, g ^ 0xffu };
        uint32_t c = weighted_sum(priv, 4);
        want[g] = a ^ (b << 1) ^ (c << 2);
    }
    tc_arg_buf(t, in, N * 4);
    uint64_t dout = tc_arg_buf(t, NULL, N * 4);
    tc_arg_u32(t, N);
    if (tc_launch(t, 1, N, 1, 1, WG, 1, 1)) {
        tc_read(t, dout, got, N * 4);
        tc_check_u32(t, "out", got, want, N);
    }
    free(in), free(got), free(want);
}

static void ndrange2d(tctx *t)
{
    enum { GX = 37, GY = 19, LX = 8, LY = 4, OX = 3, OY = 5 };
    size_t n = (size_t)GX * GY * 12;
    uint32_t *got = tc_alloc(n * 4), *want = tc_alloc(n * 4);
    uint32_t ngx = (GX + LX - 1) / LX, ngy = (GY + LY - 1) / LY;
    for (uint32_t y = 0; y < GY; y++)
        for (uint32_t x = 0; x < GX; x++) {
            uint32_t *o = want + (y * GX + x) * 12;
            uint32_t gx = x / LX, gy = y / LY;
            uint32_t lsx = gx < GX / LX ? LX : GX % LX, lsy = gy < GY / LY ? LY : GY % LY;
            o[0] = x + OX, o[1] = y + OY, o[2] = x % LX, o[3] = y % LY, o[4] = gx, o[5] = gy;
            o[6] = lsx, o[7] = lsy, o[8] = ngx | ngy << 16, o[9] = GX | GY << 16;
            o[10] = 2u | LX << 8 | LY << 16;
            /* AMD's ockl (rocm-device-libs 5.2.3, what umbra cc links) computes get_local_linear_id
             * from the enqueued group size (the dispatch packet's workgroup_size_x), not from
             * get_local_size, so in a partial last group along x it differs from OpenCL 2.0's
             * formula (y * lsx + x); a real gfx1100 with this library gives the same answer. */
            o[11] = (y % LY) * LX + x % LX;
        }
    uint64_t dout = tc_arg_buf(t, NULL, n * 4);
    tc_arg_u32(t, GX);
    t->global_offset[0] = OX, t->global_offset[1] = OY;
    if (tc_launch(t, 2, GX, GY, 1, LX, LY, 1)) {
        tc_read(t, dout, got, n * 4);
        tc_check_u32(t, "work-item functions", got, want, n);
    }
    t->global_offset[0] = t->global_offset[1] = 0;
    free(got), free(want);
}

static void ndrange3d(tctx *t)
{
    enum { X = 13, Y = 7, Z = 5, LX = 4, LY = 2, LZ = 3 };
    size_t n = (size_t)X * Y * Z * 4;
    uint32_t *got = tc_alloc(n * 4), *want = tc_alloc(n * 4);
    const uint32_t G[3] = { X, Y, Z }, L[3] = { LX, LY, LZ };
    for (uint32_t z = 0; z < Z; z++)
        for (uint32_t y = 0; y < Y; y++)
            for (uint32_t x = 0; x < X; x++) {
                uint32_t id[3] = { x, y, z }, ls[3];
                for (int d = 0; d < 3; d++) {
                    uint32_t g = id[d] / L[d];
                    ls[d] = g < G[d] / L[d] ? L[d] : G[d] % L[d];
                }
                uint32_t *o = want + ((z * Y + y) * X + x) * 4;
                o[0] = x % LX | (y % LY) << 10 | (z % LZ) << 20;
                o[1] = x / LX | (y / LY) << 10 | (z / LZ) << 20;
                o[2] = ls[0] | ls[1] << 10 | ls[2] << 20;
                o[3] = (z * Y + y) * X + x;
            }
    uint64_t dout = tc_arg_buf(t, NULL, n * 4);
    tc_arg_u32(t, X), tc_arg_u32(t, Y);
    if (tc_launch(t, 3, X, Y, Z, LX, LY, LZ)) {
        tc_read(t, dout, got, n * 4);
        tc_check_u32(t, "ids", got, want, n);
    }
    free(got), free(want);
}

static void local_args(tctx *t)
{
    enum { N = 1000, WG = 128, G = (N + WG - 1) / WG };
    uint32_t *in = tc_alloc(N * 4), got[3 * G], want[3 * G];
    memset(want, 0, sizeof want);
    for (int i = 0; i < N; i++) {
        in[i] = tc_rand(t);
        want[3 * (i / WG)] += in[i];
        if (in[i] > want[3 * (i / WG) + 1]) want[3 * (i / WG) + 1] = in[i];
    }
    for (int g = 0; g < G; g++) want[3 * g + 2] = 0xabcd0000u + (uint32_t)g;
    tc_arg_buf(t, in, N * 4);
    uint64_t dout = tc_arg_buf(t, NULL, sizeof got);
    tc_arg_local(t, WG * 4);
    tc_arg_local(t, WG * 4);
    tc_arg_u32(t, N);
    if (tc_launch(t, 1, G * WG, 1, 1, WG, 1, 1)) {
        tc_read(t, dout, got, sizeof got);
        tc_check_u32(t, "sum,max,tag", got, want, 3 * G);
    }
    free(in);
}

static void atomics_all(tctx *t)
{
    enum { WG = 64, G = 5, N = WG * G };
    int32_t gi[4] = { 1000, 1000, 0, -7 }, gi_got[4], gi_want[4];
    uint32_t gu[7] = { 0xffffffffu, 0, 0x12345678u, 0, 5000, 3, 0 }, gu_got[7], gu_want[7];
    int64_t gl[4] = { 0, 0, 0, 0 }, gl_got[4], gl_want[4];
    uint32_t lres_got[8], lres_want[8] = { 0 }, cnt_got, cnt_want = G;
    memcpy(gi_want, gi, sizeof gi), memcpy(gu_want, gu, sizeof gu), memcpy(gl_want, gl, sizeof gl);
    for (int g = 0; g < N; g++) {
        gi_want[0] += g;
        gi_want[1] -= g;
        if (g - 100 < gi_want[2]) gi_want[2] = g - 100;
        if (g * 3 > gi_want[3]) gi_want[3] = g * 3;
        gu_want[0] &= ~(1u << (g & 31));
        gu_want[1] |= 1u << (g & 31);
        gu_want[2] ^= (uint32_t)g * 0x9e3779b9u;
        gu_want[3]++;
        gu_want[4]--;
        gl_want[0] += (int64_t)g << 33;
        if ((int64_t)g * -5000000000LL > gl_want[1]) gl_want[1] = (int64_t)g * -5000000000LL;
        if ((int64_t)g * -5000000000LL < gl_want[2]) gl_want[2] = (int64_t)g * -5000000000LL;
        gl_want[3] ^= (int64_t)g << 40 | g;
    }
    gu_want[5] = 7;
    gu_want[6] = 2 * N;
    for (int grp = 0; grp < G; grp++) {
        uint32_t lu[8] = { 0, 0, 0xffffffffu, 0, 0, 0, 1000, 0 };
        for (uint32_t lid = 0; lid < WG; lid++) {
            uint32_t g = grp * WG + lid;
            lu[0] += g, lu[1]++;
            if (g + 10 < lu[2]) lu[2] = g + 10;
            if (g > lu[3]) lu[3] = g;
            lu[4] |= 1u << (lid & 31), lu[5] ^= g, lu[6]--, lu[7]++;
        }
        for (int i = 0; i < 8; i++) lres_want[i] += lu[i];
    }
    uint64_t dgi = tc_arg_buf(t, gi, sizeof gi), dgu = tc_arg_buf(t, gu, sizeof gu), dgl = tc_arg_buf(t, gl, sizeof gl);
    uint64_t dl = tc_arg_buf(t, NULL, sizeof lres_got), dc = tc_arg_buf(t, NULL, 4);
    if (tc_launch(t, 1, N, 1, 1, WG, 1, 1)) {
        tc_read(t, dgi, gi_got, sizeof gi_got), tc_read(t, dgu, gu_got, sizeof gu_got);
        tc_read(t, dgl, gl_got, sizeof gl_got), tc_read(t, dl, lres_got, sizeof lres_got), tc_read(t, dc, &cnt_got, 4);
        tc_check_u32(t, "global int add,sub,min,max", (uint32_t *)gi_got, (uint32_t *)gi_want, 4);
        tc_check_u32(t, "global uint and,or,xor,inc,dec,xchg,cmpxchg", gu_got, gu_want, 7);
        tc_check_u64(t, "global long add,max,min,xor", (uint64_t *)gl_got, (uint64_t *)gl_want, 4);
        tc_check_u32(t, "local uint add,inc,min,max,or,xor,dec,cmpxchg", lres_got, lres_want, 8);
        tc_check_u32(t, "groups", &cnt_got, &cnt_want, 1);
    }
}

static void dispatch_packet(tctx *t)
{
    /* the packet's private segment size is the kernel's (-O0 spills to scratch) */
    uint32_t priv = umb_rdna3_program_find_kernel(t->prog, "dispatch_packet")->private_segment_fixed_size;
    uint32_t got[12], want[12] = { 2, 8, 4, 1, 37, 19, 1, 400, 1, priv, 1, 1 };
    uint64_t dout = tc_arg_buf(t, NULL, sizeof got);
    if (tc_launch(t, 2, 37, 19, 1, 8, 4, 1)) {
        tc_read(t, dout, got, sizeof got);
        tc_check_u32(t, "dims,wg xyz,grid xyz,lds,kernarg,private,queue,lds[1]", got, want, 12);
    }
}

static uint32_t rotl32(uint32_t x, uint32_t n)
{
    n &= 31;
    return n ? (x << n) | (x >> (32 - n)) : x;
}

static void int_ops(tctx *t)
{
    enum { N = 500 };
    int32_t *a = tc_alloc(N * 4), *b = tc_alloc(N * 4);
    int64_t *la = tc_alloc(N * 8), *lb = tc_alloc(N * 8);
    uint8_t *c8 = tc_alloc(N), *g8 = tc_alloc(N), *w8 = tc_alloc(N);
    int16_t *s16 = tc_alloc(N * 2), *g16 = tc_alloc(N * 2), *w16 = tc_alloc(N * 2);
    uint32_t *g = tc_alloc(8 * N * 4), *w = tc_alloc(8 * N * 4);
    uint64_t *g64 = tc_alloc(4 * N * 8), *w64 = tc_alloc(4 * N * 8);
    for (int i = 0; i < N; i++) {
        a[i] = (int32_t)tc_rand(t);
        b[i] = (int32_t)(tc_rand(t) >> (tc_rand(t) % 31));   /* divisors of every magnitude */
        if (i % 5 == 0) b[i] = -b[i];
        if (b[i] == 0 || (a[i] == INT32_MIN && b[i] == -1)) b[i] = 3;   /* no division by 0 or overflow */
        la[i] = (int64_t)((uint64_t)tc_rand(t) << 32 | tc_rand(t));
        lb[i] = (int64_t)(((uint64_t)tc_rand(t) << 32 | tc_rand(t)) >> (tc_rand(t) % 63));
        if (i % 3 == 0) lb[i] = -lb[i];
        if (lb[i] == 0 || (la[i] == INT64_MIN && lb[i] == -1)) lb[i] = 7;
        c8[i] = (uint8_t)tc_rand(t);
        s16[i] = (int16_t)tc_rand(t);
        int32_t x = a[i], y = b[i];
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
        w[8 * i + 0] = (uint32_t)(x / y);
        w[8 * i + 1] = (uint32_t)(x % y);
        w[8 * i + 2] = ux / uy;
        w[8 * i + 3] = ux % uy;
        w[8 * i + 4] = (uint32_t)(((uint64_t)ux * uy) >> 32) ^ (uint32_t)(int32_t)(((int64_t)x * y) >> 32);
        w[8 * i + 5] = (uint32_t)__builtin_popcount(ux) | (uint32_t)(uy ? __builtin_clz(uy) : 32) << 8;
        w[8 * i + 6] = rotl32(ux, uy);
        w[8 * i + 7] = (ux & 0xffffff) * (uy & 0xffffff) + 7u;
        w64[4 * i + 0] = (uint64_t)(la[i] / lb[i]);
        w64[4 * i + 1] = (uint64_t)(la[i] % lb[i]);
        w64[4 * i + 2] = (uint64_t)la[i] / (uint64_t)lb[i];
        w64[4 * i + 3] = (uint64_t)la[i] % (uint64_t)lb[i];
        w8[i] = (uint8_t)(c8[i] * 3 + (c8[i] >> 2));
        w16[i] = (int16_t)(s16[i] * -3 + (s16[i] >> 3));
    }
    tc_arg_buf(t, a, N * 4), tc_arg_buf(t, b, N * 4), tc_arg_buf(t, la, N * 8), tc_arg_buf(t, lb, N * 8);
    tc_arg_buf(t, c8, N), tc_arg_buf(t, s16, N * 2);
    uint64_t dg = tc_arg_buf(t, NULL, 8 * N * 4), dg64 = tc_arg_buf(t, NULL, 4 * N * 8);
    uint64_t dg8 = tc_arg_buf(t, NULL, N), dg16 = tc_arg_buf(t, NULL, N * 2);
    tc_arg_u32(t, N);
    if (tc_launch(t, 1, N, 1, 1, 64, 1, 1)) {
        tc_read(t, dg, g, 8 * N * 4), tc_read(t, dg64, g64, 4 * N * 8);
        tc_read(t, dg8, g8, N), tc_read(t, dg16, g16, N * 2);
        tc_check_u32(t, "i32 div,rem, u32 div,rem, mul_hi, popcount|clz, rotate, mad24", g, w, 8 * N);
        tc_check_u64(t, "i64 div,rem, u64 div,rem", g64, w64, 4 * N);
        uint32_t gb[N], wb[N];
        for (int i = 0; i < N; i++) gb[i] = g8[i] | (uint32_t)(uint16_t)g16[i] << 8, wb[i] = w8[i] | (uint32_t)(uint16_t)w16[i] << 8;
        tc_check_u32(t, "u8, i16 arithmetic", gb, wb, N);
    }
    free(a), free(b), free(la), free(lb), free(c8), free(g8), free(w8), free(s16), free(g16), free(w16);
    free(g), free(w), free(g64), free(w64);
}

#define CASE(n) { #n, n }
const tcase tc_cases_misc[] = {
    CASE(hash64), CASE(private_array), CASE(generic_ptr), CASE(ndrange2d), CASE(ndrange3d),
    CASE(local_args), CASE(atomics_all), CASE(dispatch_packet), CASE(int_ops),
};
const size_t tc_ncases_misc = sizeof tc_cases_misc / sizeof tc_cases_misc[0];
