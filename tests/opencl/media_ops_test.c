/* cl_amd_media_ops and cl_amd_media_ops2 (reported as ROCm reports them for gfx1100; AMD's device
 * library implements the functions): every built-in of the two extensions, scalar and vector,
 * at -O0 and -O3, against C references written from the Khronos registry's extension texts
 * (extensions/amd/cl_amd_media_ops.txt and cl_amd_media_ops2.txt). Where a text is wrong or
 * ambiguous the reference follows the evident intent, and the comment says so (docs/BUILTINS.md
 * "cl_amd_media_ops"). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"

enum { N = 256 };

static cl_device_id dev;
static cl_context ctx;
static cl_command_queue q;

/* Each kernel reads three uint inputs per item (a, b, c), and for the 64-bit functions two ulongs
 * (la, lc), and writes one result word or more per item. */
static const char *src =
    "#pragma OPENCL EXTENSION cl_amd_media_ops : enable\n"
    "#pragma OPENCL EXTENSION cl_amd_media_ops2 : enable\n"
    "#define IN uint i = get_global_id(0); uint a = A[i], b = B[i], c = C[i];\n"
    "#define K(name) __kernel void name(__global const uint *A, __global const uint *B, __global const uint *C,"
    " __global const ulong *LA, __global const ulong *LC, __global uint *O, __global float *F, __global ulong *L)\n"
    "K(k_bitalign) { IN O[i] = amd_bitalign(a, b, c); }\n"
    "K(k_bytealign) { IN O[i] = amd_bytealign(a, b, c); }\n"
    "K(k_lerp) { IN O[i] = amd_lerp(a, b, c); }\n"
    "K(k_sad) { IN O[i] = amd_sad(a, b, c); }\n"
    "K(k_sadhi) { IN O[i] = amd_sadhi(a, b, c); }\n"
    "K(k_sad4) { IN uint4 x = (uint4)(a, b, c, a ^ b), y = (uint4)(c, a, b ^ c, b); O[i] = amd_sad4(x, y, c & 0xffff); }\n"
    "K(k_pack) { IN O[i] = amd_pack((float4)(a & 0xff, b & 0xff, c & 0xff, (a >> 8) & 0xff)); }\n"
    "K(k_unpack) { IN F[4 * i] = amd_unpack0(a); F[4 * i + 1] = amd_unpack1(a); F[4 * i + 2] = amd_unpack2(a);"
    " F[4 * i + 3] = amd_unpack3(a); }\n"
    "K(k_vec) { IN uint4 x = (uint4)(a, b, c, a + b), y = (uint4)(b, c, a, b + c), z = (uint4)(c, a, b, c ^ a);\n"
    "  vstore4(amd_bitalign(x, y, z), 0, O + 16 * i); vstore4(amd_lerp(x, y, z), 0, O + 16 * i + 4);\n"
    "  vstore4(amd_msad(x, y, z), 0, O + 16 * i + 8); vstore4(amd_bfe(x, y & 31, z & 31), 0, O + 16 * i + 12); }\n"
    "K(k_msad) { IN O[i] = amd_msad(a, b, c); }\n"
    "K(k_sadw) { IN O[i] = amd_sadw(a, b, c); }\n"
    "K(k_sadd) { IN O[i] = amd_sadd(a, b, c); }\n"
    "K(k_bfm) { IN O[i] = amd_bfm(a, b); }\n"
    "K(k_bfe_u) { IN O[i] = amd_bfe(a, b, c); }\n"
    "K(k_bfe_i) { IN O[i] = (uint)amd_bfe((int)a, b, c); }\n"
    "K(k_med3) { IN O[3 * i] = amd_median3(a, b, c); O[3 * i + 1] = amd_min3(a, b, c);"
    " O[3 * i + 2] = amd_max3(a, b, c); }\n"
    "K(k_med3_i) { IN O[3 * i] = (uint)amd_median3((int)a, (int)b, (int)c); O[3 * i + 1] = (uint)amd_min3((int)a, (int)b, (int)c);"
    " O[3 * i + 2] = (uint)amd_max3((int)a, (int)b, (int)c); }\n"
    "K(k_med3_f) { IN F[3 * i] = amd_median3(as_float(a), as_float(b), as_float(c));"
    " F[3 * i + 1] = amd_min3(as_float(a), as_float(b), as_float(c)); F[3 * i + 2] = amd_max3(as_float(a), as_float(b), as_float(c)); }\n"
    "K(k_qsad) { IN L[2 * i] = amd_qsad(LA[i], b, LC[i]); L[2 * i + 1] = amd_mqsad(LA[i], b, LC[i]); }\n";

/* ---------------- references (the extension texts) ---------------- */

static uint32_t absd(uint32_t x, uint32_t y) { return x > y ? x - y : y - x; }
static uint32_t byte_of(uint32_t x, int k) { return (x >> (8 * k)) & 0xff; }

static uint32_t ref_sad(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r = c;
    for (int k = 0; k < 4; k++) r += absd(byte_of(a, k), byte_of(b, k));
    return r;
}
/* amd_sadhi: each difference shifted left by 16, so the sum << 16 */
static uint32_t ref_sadhi(uint32_t a, uint32_t b, uint32_t c) { return c + ((ref_sad(a, b, 0)) << 16); }
static uint32_t ref_msad(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r = c;
    for (int k = 0; k < 4; k++) r += byte_of(b, k) == 0 ? 0 : absd(byte_of(a, k), byte_of(b, k));
    return r;
}
static uint32_t ref_lerp(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r = 0;
    for (int k = 0; k < 4; k++) r += ((byte_of(a, k) + byte_of(b, k) + ((c >> (8 * k)) & 1)) >> 1) << (8 * k);
    return r;
}
static uint32_t ref_bitalign(uint32_t a, uint32_t b, uint32_t c) { return (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31)); }
static uint32_t ref_bytealign(uint32_t a, uint32_t b, uint32_t c) { return (uint32_t)((((uint64_t)a << 32) | b) >> ((c & 3) * 8)); }
/* amd_sadw: the two 16-bit halves; amd_sadd: |a - b| as an unsigned difference (the text's
 * abs(src0 - src1) of uints is the absolute difference, as the instruction computes it) */
static uint32_t ref_sadw(uint32_t a, uint32_t b, uint32_t c) { return c + absd(a & 0xffff, b & 0xffff) + absd(a >> 16, b >> 16); }
static uint32_t ref_sadd(uint32_t a, uint32_t b, uint32_t c) { return c + absd(a, b); }
static uint32_t ref_bfm(uint32_t a, uint32_t b) { return (uint32_t)(((1ull << (a & 31)) - 1) << (b & 31)); }
static uint32_t ref_bfe_u(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t off = b & 31, w = c & 31;
    if (!w) return 0;
    if (off + w < 32) return (a << (32 - off - w)) >> (32 - w);
    return a >> off;
}
static uint32_t ref_bfe_i(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t off = b & 31, w = c & 31;
    if (!w) return 0;
    if (off + w < 32) return (uint32_t)((int32_t)(a << (32 - off - w)) >> (32 - w));
    return (uint32_t)((int32_t)a >> off);
}
static uint32_t umed3(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    return c < lo ? lo : c > hi ? hi : c;
}
static int32_t imed3(int32_t a, int32_t b, int32_t c)
{
    int32_t lo = a < b ? a : b, hi = a < b ? b : a;
    return c < lo ? lo : c > hi ? hi : c;
}
/* amd_qsad / amd_mqsad: four 16-bit fields, each the (masked) SAD of the 32-bit window of src0 at
 * byte k against src1 plus the field of src2, assigned to a ushort (so wrapping to 16 bits) */
static uint64_t ref_qsad(uint64_t a, uint32_t b, uint64_t c, bool masked)
{
    uint64_t r = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t win = (uint32_t)(a >> (8 * k)), acc = (uint32_t)(c >> (16 * k)) & 0xffff;
        uint32_t v = masked ? ref_msad(win, b, acc) : ref_sad(win, b, acc);
        r |= (uint64_t)(v & 0xffff) << (16 * k);
    }
    return r;
}

/* ---------------- running ---------------- */

static uint32_t A[N], B[N], C[N];
static uint64_t LA[N], LC[N];

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next32(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static void inputs(void)
{
    for (int i = 0; i < N; i++) {
        A[i] = next32(), B[i] = next32(), C[i] = next32();
        if (i % 8 == 1) B[i] &= 0xff00ff00u;   /* zero reference bytes for the masked SADs */
        if (i % 8 == 2) C[i] = 0xffffffffu - (uint32_t)i;   /* accumulators that wrap */
        if (i % 16 == 3) A[i] = B[i];
        LA[i] = (uint64_t)next32() << 32 | next32();
        LC[i] = (uint64_t)next32() << 32 | next32();
        if (i % 4 == 0) LC[i] |= 0xff80ff80ff80ff80ull;   /* u16 accumulators near the top */
    }
}

typedef struct { cl_mem a, b, c, la, lc, o, f, l; } bufs;

static cl_mem buffer(size_t size, const void *host)
{
    cl_int e;
    cl_mem m = clCreateBuffer(ctx, host ? CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE, size, (void *)host, &e);
    if (e) fprintf(stderr, "clCreateBuffer: %d\n", e), exit(1);
    return m;
}

static void run(cl_program p, const char *name, bufs *bf)
{
    cl_int e;
    cl_kernel k = clCreateKernel(p, name, &e);
    if (e) {
        fprintf(stderr, "clCreateKernel %s: %d\n", name, e);
        failures++;
        return;
    }
    cl_mem args[8] = { bf->a, bf->b, bf->c, bf->la, bf->lc, bf->o, bf->f, bf->l };
    for (cl_uint i = 0; i < 8; i++) OK(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]));
    size_t g = N;
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    OK(clFinish(q));
    clReleaseKernel(k);
}

static uint32_t out_u[16 * N];
static float out_f[4 * N];
static uint64_t out_l[2 * N];

static void fetch(bufs *bf)
{
    OK(clEnqueueReadBuffer(q, bf->o, CL_TRUE, 0, sizeof out_u, out_u, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, bf->f, CL_TRUE, 0, sizeof out_f, out_f, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, bf->l, CL_TRUE, 0, sizeof out_l, out_l, 0, NULL, NULL));
}

#define CHECK_U(name, idx, got, want)                                                                  \
    do {                                                                                               \
        uint32_t g_ = (got), w_ = (want);                                                              \
        if (g_ != w_) {                                                                                \
            fprintf(stderr, "%s %s[%d] (a=0x%08x b=0x%08x c=0x%08x): got 0x%08x, expected 0x%08x\n", opt, \
                    name, idx, A[i], B[i], C[i], g_, w_);                                              \
            failures++;                                                                                \
        }                                                                                              \
    } while (0)

typedef uint32_t (*ref3)(uint32_t, uint32_t, uint32_t);

static void scalar(cl_program p, bufs *bf, const char *opt, const char *kernel, ref3 ref)
{
    run(p, kernel, bf);
    fetch(bf);
    for (int i = 0; i < N; i++) CHECK_U(kernel, i, out_u[i], ref(A[i], B[i], C[i]));
}

static void all(cl_program p, bufs *bf, const char *opt)
{
    scalar(p, bf, opt, "k_bitalign", ref_bitalign);
    scalar(p, bf, opt, "k_bytealign", ref_bytealign);
    scalar(p, bf, opt, "k_lerp", ref_lerp);
    scalar(p, bf, opt, "k_sad", ref_sad);
    scalar(p, bf, opt, "k_sadhi", ref_sadhi);
    scalar(p, bf, opt, "k_msad", ref_msad);
    scalar(p, bf, opt, "k_sadw", ref_sadw);
    scalar(p, bf, opt, "k_sadd", ref_sadd);
    scalar(p, bf, opt, "k_bfe_u", ref_bfe_u);
    scalar(p, bf, opt, "k_bfe_i", ref_bfe_i);
    run(p, "k_bfm", bf);
    fetch(bf);
    for (int i = 0; i < N; i++) CHECK_U("k_bfm", i, out_u[i], ref_bfm(A[i], B[i]));
    /* amd_sad4: the text's 5th term pairs src0.s1 with src1.s0, a typo among fifteen s1/s1, s2/s2,
     * s3/s3 terms; the reference sums |x.sK byte - y.sK byte| over the four components */
    run(p, "k_sad4", bf);
    fetch(bf);
    for (int i = 0; i < N; i++) {
        uint32_t a = A[i], b = B[i], c = C[i];
        uint32_t x[4] = { a, b, c, a ^ b }, y[4] = { c, a, b ^ c, b }, r = c & 0xffff;
        for (int k = 0; k < 4; k++) r = ref_sad(x[k], y[k], r);
        CHECK_U("k_sad4", i, out_u[i], r);
    }
    /* amd_pack of integral floats in [0, 255] (the text's (uint)f & 0xff) */
    run(p, "k_pack", bf);
    fetch(bf);
    for (int i = 0; i < N; i++)
        CHECK_U("k_pack", i, out_u[i],
                (A[i] & 0xff) | (B[i] & 0xff) << 8 | (C[i] & 0xff) << 16 | ((A[i] >> 8) & 0xff) << 24);
    run(p, "k_unpack", bf);
    fetch(bf);
    for (int i = 0; i < N; i++)
        for (int k = 0; k < 4; k++)
            if (out_f[4 * i + k] != (float)byte_of(A[i], k)) {
                fprintf(stderr, "%s amd_unpack%d[%d]: got %g, expected %u\n", opt, k, i, out_f[4 * i + k], byte_of(A[i], k));
                failures++;
            }
    /* vectors: each component as the scalar function */
    run(p, "k_vec", bf);
    fetch(bf);
    for (int i = 0; i < N; i++) {
        uint32_t a = A[i], b = B[i], c = C[i];
        uint32_t x[4] = { a, b, c, a + b }, y[4] = { b, c, a, b + c }, z[4] = { c, a, b, c ^ a };
        for (int k = 0; k < 4; k++) {
            CHECK_U("vec amd_bitalign", i, out_u[16 * i + k], ref_bitalign(x[k], y[k], z[k]));
            CHECK_U("vec amd_lerp", i, out_u[16 * i + 4 + k], ref_lerp(x[k], y[k], z[k]));
            CHECK_U("vec amd_msad", i, out_u[16 * i + 8 + k], ref_msad(x[k], y[k], z[k]));
            CHECK_U("vec amd_bfe", i, out_u[16 * i + 12 + k], ref_bfe_u(x[k], y[k] & 31, z[k] & 31));
        }
    }
    run(p, "k_med3", bf);
    fetch(bf);
    for (int i = 0; i < N; i++) {
        uint32_t a = A[i], b = B[i], c = C[i];
        CHECK_U("amd_median3(uint)", i, out_u[3 * i], umed3(a, b, c));
        CHECK_U("amd_min3(uint)", i, out_u[3 * i + 1], a < b ? (a < c ? a : c) : (b < c ? b : c));
        CHECK_U("amd_max3(uint)", i, out_u[3 * i + 2], a > b ? (a > c ? a : c) : (b > c ? b : c));
    }
    run(p, "k_med3_i", bf);
    fetch(bf);
    for (int i = 0; i < N; i++) {
        int32_t a = (int32_t)A[i], b = (int32_t)B[i], c = (int32_t)C[i];
        CHECK_U("amd_median3(int)", i, out_u[3 * i], (uint32_t)imed3(a, b, c));
        CHECK_U("amd_min3(int)", i, out_u[3 * i + 1], (uint32_t)(a < b ? (a < c ? a : c) : (b < c ? b : c)));
        CHECK_U("amd_max3(int)", i, out_u[3 * i + 2], (uint32_t)(a > b ? (a > c ? a : c) : (b > c ? b : c)));
    }
    /* floats: the inputs' bit patterns as floats (NaNs among them are skipped: the text defines
     * no NaN rule) */
    run(p, "k_med3_f", bf);
    fetch(bf);
    for (int i = 0; i < N; i++) {
        float a, b, c;
        memcpy(&a, &A[i], 4), memcpy(&b, &B[i], 4), memcpy(&c, &C[i], 4);
        if (isnan(a) || isnan(b) || isnan(c)) continue;
        float lo = fminf(a, b), hi = fmaxf(a, b), med = fminf(fmaxf(lo, c), hi);
        float want[3] = { med, fminf(fminf(a, b), c), fmaxf(fmaxf(a, b), c) };
        for (int k = 0; k < 3; k++)
            if (out_f[3 * i + k] != want[k] && !(out_f[3 * i + k] == 0 && want[k] == 0)) {
                fprintf(stderr, "%s amd_median3/min3/max3(float)[%d].%d: got %g, expected %g\n", opt, i, k,
                        out_f[3 * i + k], want[k]);
                failures++;
            }
    }
    run(p, "k_qsad", bf);
    fetch(bf);
    for (int i = 0; i < N; i++) {
        uint64_t wq = ref_qsad(LA[i], B[i], LC[i], false), wm = ref_qsad(LA[i], B[i], LC[i], true);
        if (out_l[2 * i] != wq || out_l[2 * i + 1] != wm) {
            fprintf(stderr, "%s amd_qsad/mqsad[%d]: got 0x%016llx / 0x%016llx, expected 0x%016llx / 0x%016llx\n", opt, i,
                    (unsigned long long)out_l[2 * i], (unsigned long long)out_l[2 * i + 1], (unsigned long long)wq,
                    (unsigned long long)wm);
            failures++;
        }
    }
}

/* name is one of the space-separated words of list */
static bool has_word(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *s = strstr(list, name); s; s = strstr(s + 1, name))
        if ((s == list || s[-1] == ' ') && (s[n] == ' ' || s[n] == 0)) return true;
    return false;
}

int main(void)
{
    cl_platform_id plat;
    cl_int e;
    if (clGetPlatformIDs(1, &plat, NULL) || clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL)) {
        fprintf(stderr, "no OpenCL platform\n");
        return 1;
    }
    char ext[4096] = "";
    OK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    EXPECT(has_word(ext, "cl_amd_media_ops") && has_word(ext, "cl_amd_media_ops2"));
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    q = clCreateCommandQueue(ctx, dev, 0, &e);
    inputs();
    bufs bf = { buffer(sizeof A, A), buffer(sizeof B, B), buffer(sizeof C, C), buffer(sizeof LA, LA),
                buffer(sizeof LC, LC), buffer(sizeof out_u, NULL), buffer(sizeof out_f, NULL), buffer(sizeof out_l, NULL) };
    const char *opts[] = { "-O0", "-O3" };
    for (int o = 0; o < 2; o++) {
        cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
        if (!e) e = clBuildProgram(p, 1, &dev, opts[o], NULL, NULL);
        if (e) {
            char log[16384] = "";
            clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
            fprintf(stderr, "build %s: %d\n%s\n", opts[o], e, log);
            return 1;
        }
        all(p, &bf, opts[o]);
        clReleaseProgram(p);
    }
    cl_mem *m = &bf.a;
    for (int i = 0; i < 8; i++) clReleaseMemObject(m[i]);
    clReleaseCommandQueue(q), clReleaseContext(ctx);
    printf("%s\n", failures ? "FAIL" : "ok");
    return failures != 0;
}
