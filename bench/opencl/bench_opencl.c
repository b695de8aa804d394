/* bench_opencl: what the OpenCL platform costs on top of libumbra.
 *
 *   bench_opencl [--launches N] [--tiny-wgs W H] [--sample W H] [--matmul N] [--nbody N] [--alu N] [--reps R]
 *
 * 1. Launches per second of an empty kernel (one work-item) through the API: N enqueues then one
 *    clFinish (the queue's throughput), and N enqueue + clFinish pairs (a round trip each); and
 *    the cost of a work-group of one work-item: one launch of W x H of them (default 1023 x 255)
 *    copying an image, as the CTS's imagedim tests do (--tiny-wgs 0 0 skips it).
 * 1c. Image sampling (--sample W H, default 512 x 512; 0 0 skips it): read_imagef with a
 *    bilinear, normalised, clamp-to-edge sampler, four samples a work-item, from an RGBA8 unorm
 *    image and from an RGBA float image: samples per CPU second and a checksum of the output
 *    (a change to the sampler's code must leave it as it was).
 * 2. The corpus' matmul_tiled and nbody and bench/rdna3's alu_loop, compiled once to a code object:
 *    the wall time of umb_rdna3_run on it (what `umbra run` does) against clEnqueueNDRangeKernel +
 *    clFinish of the same code object through the ICD (clCreateProgramWithBinary), same NDRange,
 *    same inputs, best of R runs each, the two alternating; the outputs are compared. Both the
 *    process CPU time (all threads; what the overhead figure should use on a shared machine) and
 *    the wall time are reported.
 * 3. With umbra's HIP runtime (BENCH_HIP): the same code objects through HIP too (hipModuleLoadData,
 *    hipModuleLaunchKernel + hipDeviceSynchronize): the two API rooms side by side, with the
 *    wave-instructions each one's statistics line reports (UMBRA_STATS), which must be equal.
 * The ICD is the build tree's umbra.icd unless OCL_ICD_VENDORS says otherwise. One host thread. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "umbra/rdna3.h"
#ifdef BENCH_HIP
#define __HIP_PLATFORM_AMD__
#include <hip/hip_runtime_api.h>
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU time of the whole process (every thread): on a loaded machine it is what a run costs,
 * where wall time also counts other programs' turns. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct timing {
    double wall, cpu;
} timing;

static timing since(double wall0, double cpu0)
{
    return (timing){ now() - wall0, cpu_now() - cpu0 };
}

static void keep_best(timing *best, timing t)
{
    if (t.wall < best->wall) best->wall = t.wall;
    if (t.cpu < best->cpu) best->cpu = t.cpu;
}

#define CHECK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s: %d\n", #x, e_); exit(1); } } while (0)

static void *xalloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p) exit(2);
    return p;
}

static float frand(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (float)(*s >> 40) / (float)(1u << 24);
}

typedef struct barg {
    void *host;
    size_t size;
    int is_buf;
} barg;

typedef struct bcase {
    const char *name, *dir;
    barg args[8];
    int nargs, out;
    cl_uint dim;
    size_t global[3], local[3];
} bcase;

static cl_context ctx;
static cl_command_queue queue;
static cl_device_id dev;

static void open_platform(void)
{
    cl_platform_id plat;
    cl_int e;
    CHECK(clGetPlatformIDs(1, &plat, NULL));
    CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    CHECK(e);
    queue = clCreateCommandQueue(ctx, dev, 0, &e);
    CHECK(e);
}

/* Kernel `name` of an OpenCL C source built for the device; its program in *prog. */
static cl_kernel kernel_from_source(const char *src, const char *name, cl_program *prog)
{
    cl_int e;
    *prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    CHECK(e);
    CHECK(clBuildProgram(*prog, 1, &dev, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(*prog, name, &e);
    CHECK(e);
    return k;
}

/* ---------------- 1. empty-kernel launches ---------------- */

static void bench_launches(int n)
{
    cl_program p;
    cl_kernel k = kernel_from_source("__kernel void empty(void) {}\n", "empty", &p);
    size_t one = 1;
    CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, &one, 0, NULL, NULL));
    CHECK(clFinish(queue));
    double t0 = now();
    for (int i = 0; i < n; i++) CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, &one, 0, NULL, NULL));
    CHECK(clFinish(queue));
    double queued = now() - t0;
    t0 = now();
    for (int i = 0; i < n; i++) {
        CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, &one, 0, NULL, NULL));
        CHECK(clFinish(queue));
    }
    double roundtrip = now() - t0;
    printf("empty kernel, %d launches: %.0f launches/s queued (one clFinish), %.0f launches/s with clFinish after each "
           "(%.1f us a round trip)\n", n, n / queued, n / roundtrip, roundtrip / n * 1e6);
    clReleaseKernel(k), clReleaseProgram(p);
}

/* The best of reps launches of a 2D NDRange, each enqueued and finished. */
static timing best_2d_launch(cl_kernel k, const size_t global[2], const size_t local[2], int reps)
{
    timing best = { 1e30, 1e30 };
    for (int r = 0; r < reps; r++) {
        double w0 = now(), c0 = cpu_now();
        CHECK(clEnqueueNDRangeKernel(queue, k, 2, NULL, global, local, 0, NULL, NULL));
        CHECK(clFinish(queue));
        keep_best(&best, since(w0, c0));
    }
    return best;
}

/* ---------------- 1b. work-groups of one work-item ---------------- */

/* One launch of w x h work-groups of one work-item each, copying an RGBA8 image through
 * read_imagef/write_imagef (the CTS's test_basic imagedim_* kernels, which launch up to 2.7e8 such
 * work-groups a size): what a work-group costs to start, run and end when it is one wave of one
 * lane. CPU time per work-group, best of reps; the copy is checked. */
static void bench_tiny_workgroups(size_t w, size_t h, int reps)
{
    const char *src =
        "__kernel void copy(read_only image2d_t src, write_only image2d_t dst, sampler_t smp)\n"
        "{\n"
        "    int2 xy = (int2)(get_global_id(0), get_global_id(1));\n"
        "    write_imagef(dst, xy, read_imagef(src, smp, xy));\n"
        "}\n";
    cl_program p;
    cl_kernel k = kernel_from_source(src, "copy", &p);
    cl_int e;
    cl_image_format f = { CL_RGBA, CL_UNORM_INT8 };
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h };
    uint8_t *in = xalloc(w * h * 4), *out = xalloc(w * h * 4);
    for (size_t i = 0; i < w * h * 4; i++) in[i] = (uint8_t)(i * 7u + (i >> 8));
    cl_mem a = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d, in, &e);
    CHECK(e);
    cl_mem b = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &f, &d, NULL, &e);
    CHECK(e);
    cl_sampler smp = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &e);
    CHECK(e);
    CHECK(clSetKernelArg(k, 0, sizeof a, &a));
    CHECK(clSetKernelArg(k, 1, sizeof b, &b));
    CHECK(clSetKernelArg(k, 2, sizeof smp, &smp));
    size_t global[2] = { w, h }, local[2] = { 1, 1 };
    timing best = best_2d_launch(k, global, local, reps);
    size_t origin[3] = { 0, 0, 0 }, region[3] = { w, h, 1 };
    CHECK(clEnqueueReadImage(queue, b, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL));
    double n = (double)w * (double)h;
    printf("one-work-item work-groups, %zu x %zu image copy: %.3f us CPU a work-group (wall %.3f us)%s\n", w, h,
           best.cpu / n * 1e6, best.wall / n * 1e6, memcmp(in, out, w * h * 4) ? " (WRONG COPY)" : "");
    free(in), free(out);
    clReleaseSampler(smp), clReleaseMemObject(a), clReleaseMemObject(b);
    clReleaseKernel(k), clReleaseProgram(p);
}

/* ---------------- 1c. image sampling ---------------- */

/* FNV-1a of n bytes: the output's fingerprint, compared across builds. */
static uint64_t fnv1a(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* One launch of w x h work-items, each taking four bilinear samples around its texel (the
 * sampling paths of image-heavy programs: blur, resampling, the CTS's read tests). */
static void bench_sample_format(size_t w, size_t h, int reps, cl_channel_type type)
{
    const char *src =
        "__kernel void samp(read_only image2d_t src, sampler_t smp, __global float4 *out, float sx, float sy)\n"
        "{\n"
        "    int x = get_global_id(0), y = get_global_id(1);\n"
        "    float u = (x + 0.37f) * sx, v = (y + 0.61f) * sy;\n"
        "    float4 a = read_imagef(src, smp, (float2)(u, v));\n"
        "    a += read_imagef(src, smp, (float2)(u + 0.5f * sx, v));\n"
        "    a += read_imagef(src, smp, (float2)(u, v + 0.5f * sy));\n"
        "    a += read_imagef(src, smp, (float2)(u - 0.25f * sx, v - 0.75f * sy));\n"
        "    out[y * get_global_size(0) + x] = a;\n"
        "}\n";
    cl_program p;
    cl_kernel k = kernel_from_source(src, "samp", &p);
    cl_int e;
    cl_image_format f = { CL_RGBA, type };
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h };
    size_t texel = type == CL_FLOAT ? 16 : 4;
    uint8_t *in = xalloc(w * h * texel);
    uint64_t seed = 12345;
    if (type == CL_FLOAT)
        for (size_t i = 0; i < w * h * 4; i++) ((float *)in)[i] = frand(&seed);
    else
        for (size_t i = 0; i < w * h * 4; i++) in[i] = (uint8_t)(i * 7u + (i >> 8));
    cl_mem img = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d, in, &e);
    CHECK(e);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, w * h * 16, NULL, &e);
    CHECK(e);
    cl_sampler smp = clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR, &e);
    CHECK(e);
    float sx = 1.0f / (float)w, sy = 1.0f / (float)h;
    CHECK(clSetKernelArg(k, 0, sizeof img, &img));
    CHECK(clSetKernelArg(k, 1, sizeof smp, &smp));
    CHECK(clSetKernelArg(k, 2, sizeof out, &out));
    CHECK(clSetKernelArg(k, 3, sizeof sx, &sx));
    CHECK(clSetKernelArg(k, 4, sizeof sy, &sy));
    size_t global[2] = { w, h }, local[2] = { 16, 16 };
    timing best = best_2d_launch(k, global, local, reps);
    float *res = xalloc(w * h * 16);
    CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, w * h * 16, res, 0, NULL, NULL));
    double n = 4.0 * (double)w * (double)h;
    printf("image sampling, %s RGBA %zu x %zu, bilinear: %.2f M samples per CPU second (%.3f s CPU, %.3f s wall), "
           "output %016llx\n", type == CL_FLOAT ? "float" : "unorm8", w, h, n / best.cpu * 1e-6, best.cpu, best.wall,
           (unsigned long long)fnv1a(res, w * h * 16));
    free(in), free(res);
    clReleaseSampler(smp), clReleaseMemObject(img), clReleaseMemObject(out);
    clReleaseKernel(k), clReleaseProgram(p);
}

/* ---------------- 2. corpus kernels: libumbra directly vs the ICD ---------------- */

static int compile(const bcase *c, char *co, size_t len)
{
    char src[1024], err[1024];
    snprintf(src, sizeof src, "%s/%s.cl", c->dir, c->name);
    snprintf(co, len, "%s/%s.co", BENCH_WORK_DIR, c->name);
    umb_rdna3_cc_options o = { .input = src, .output = co, .opt_level = 3, .build_options = "-cl-std=CL2.0" };
    if (umb_rdna3_compile(&o, err, sizeof err)) return fprintf(stderr, "compile %s: %s\n", c->name, err), 1;
    return 0;
}

/* The direct side: libumbra's own device, buffers and dispatch, as `umbra run` sets them up. */
typedef struct direct_run {
    umb_device *d;
    umb_rdna3_program *p;
    umb_rdna3_arg args[8];
    uint64_t addr[8];
    umb_rdna3_dispatch disp;
} direct_run;

static void direct_setup(const bcase *c, const char *co, direct_run *r)
{
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    char err[1024];
    if (umb_device_create(&cfg, &r->d) || umb_rdna3_program_load_file(r->d, co, &r->p, err, sizeof err)) exit(1);
    for (int i = 0; i < c->nargs; i++) {
        if (c->args[i].is_buf) {
            if (umb_mem_alloc(r->d, c->args[i].size, 4096, &r->addr[i]) ||
                umb_mem_copy_to_device(r->d, r->addr[i], c->args[i].host, c->args[i].size))
                exit(1);
            r->args[i] = (umb_rdna3_arg){ &r->addr[i], 8 };
        } else {
            r->args[i] = (umb_rdna3_arg){ c->args[i].host, (uint32_t)c->args[i].size };
        }
    }
    r->disp = (umb_rdna3_dispatch){ .kernel = c->name, .work_dim = c->dim, .args = r->args, .nargs = (uint32_t)c->nargs };
    for (int i = 0; i < 3; i++) r->disp.global_size[i] = c->global[i], r->disp.local_size[i] = (uint32_t)c->local[i];
}

static timing direct_once(direct_run *r, uint64_t *wave_insts)
{
    umb_stats s = { 0 };
    double w0 = now(), c0 = cpu_now();
    if (umb_rdna3_run(r->d, r->p, &r->disp, &s)) fprintf(stderr, "%s\n", umb_device_last_error(r->d)), exit(1);
    timing t = since(w0, c0);
    *wave_insts = s.warp_insts;
    return t;
}

static void direct_finish(const bcase *c, direct_run *r, void *out)
{
    umb_mem_copy_from_device(r->d, r->addr[c->out], out, c->args[c->out].size);
    umb_rdna3_program_destroy(r->p);
    umb_device_destroy(r->d);
}

/* The ICD side: the same code object through clCreateProgramWithBinary. */
typedef struct icd_run {
    cl_program p;
    cl_kernel k;
    cl_mem mems[8];
} icd_run;

static void icd_setup(const bcase *c, const char *co, icd_run *r)
{
    FILE *f = fopen(co, "rb");
    if (!f) exit(1);
    fseek(f, 0, SEEK_END);
    size_t n = (size_t)ftell(f);
    rewind(f);
    unsigned char *bin = xalloc(n);
    if (fread(bin, 1, n, f) != n) exit(1);
    fclose(f);
    cl_int e;
    const unsigned char *cb = bin;
    r->p = clCreateProgramWithBinary(ctx, 1, &dev, &n, &cb, NULL, &e);
    CHECK(e);
    CHECK(clBuildProgram(r->p, 1, &dev, NULL, NULL, NULL));
    r->k = clCreateKernel(r->p, c->name, &e);
    CHECK(e);
    for (int i = 0; i < c->nargs; i++) {
        if (c->args[i].is_buf) {
            r->mems[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, c->args[i].size, c->args[i].host, &e);
            CHECK(e);
            CHECK(clSetKernelArg(r->k, (cl_uint)i, sizeof(cl_mem), &r->mems[i]));
        } else {
            CHECK(clSetKernelArg(r->k, (cl_uint)i, c->args[i].size, c->args[i].host));
        }
    }
    free(bin);
}

static timing icd_once(const bcase *c, icd_run *r)
{
    double w0 = now(), c0 = cpu_now();
    CHECK(clEnqueueNDRangeKernel(queue, r->k, c->dim, NULL, c->global, c->local, 0, NULL, NULL));
    CHECK(clFinish(queue));
    return since(w0, c0);
}

static void icd_finish(const bcase *c, icd_run *r, void *out)
{
    CHECK(clEnqueueReadBuffer(queue, r->mems[c->out], CL_TRUE, 0, c->args[c->out].size, out, 0, NULL, NULL));
    for (int i = 0; i < c->nargs; i++)
        if (r->mems[i]) clReleaseMemObject(r->mems[i]);
    clReleaseKernel(r->k), clReleaseProgram(r->p);
}

#ifdef BENCH_HIP
/* The HIP side: the same code object through umbra's HIP runtime. */
#define HCHECK(x) do { hipError_t e_ = (x); if (e_) { fprintf(stderr, "%s: %s\n", #x, hipGetErrorName(e_)); exit(1); } } while (0)

typedef struct hip_run {
    hipModule_t m;
    hipFunction_t f;
    void *dev[8];
    void *params[8];
    unsigned char *image;
} hip_run;

static void hip_setup(const bcase *c, const char *co, hip_run *r)
{
    FILE *f = fopen(co, "rb");
    if (!f) exit(1);
    fseek(f, 0, SEEK_END);
    size_t n = (size_t)ftell(f);
    rewind(f);
    r->image = xalloc(n);
    if (fread(r->image, 1, n, f) != n) exit(1);
    fclose(f);
    HCHECK(hipModuleLoadData(&r->m, r->image));
    HCHECK(hipModuleGetFunction(&r->f, r->m, c->name));
    for (int i = 0; i < c->nargs; i++) {
        if (c->args[i].is_buf) {
            HCHECK(hipMalloc(&r->dev[i], c->args[i].size));
            HCHECK(hipMemcpy(r->dev[i], c->args[i].host, c->args[i].size, hipMemcpyHostToDevice));
            r->params[i] = &r->dev[i];
        } else {
            r->params[i] = c->args[i].host;
        }
    }
}

static timing hip_once(const bcase *c, hip_run *r)
{
    double w0 = now(), c0 = cpu_now();
    HCHECK(hipModuleLaunchKernel(r->f, (unsigned)(c->global[0] / c->local[0]), (unsigned)(c->global[1] / c->local[1]),
                                 (unsigned)(c->global[2] / c->local[2]), (unsigned)c->local[0], (unsigned)c->local[1],
                                 (unsigned)c->local[2], 0, NULL, r->params, NULL));
    HCHECK(hipDeviceSynchronize());
    return since(w0, c0);
}

static void hip_finish(const bcase *c, hip_run *r, void *out)
{
    HCHECK(hipMemcpy(out, r->dev[c->out], c->args[c->out].size, hipMemcpyDeviceToHost));
    for (int i = 0; i < c->nargs; i++)
        if (r->dev[i]) HCHECK(hipFree(r->dev[i]));
    HCHECK(hipModuleUnload(r->m));
    free(r->image);
}

/* Wave-instructions of kernel `name`'s statistics lines (UMBRA_STATS) after its first `from`: odd
 * ones are the ICD's, even ones HIP's (the runs alternate); false if any two of a pair differ. */
static bool stats_pairs_equal(const char *path, const char *name, int from, uint64_t *icd_insts, uint64_t *hip_insts)
{
    char key[256];
    snprintf(key, sizeof key, "{\"kernel\": {\"name\": \"%s\"}", name);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[1 << 16];
    bool equal = true;
    int n = 0;
    uint64_t prev = 0;
    while (fgets(line, sizeof line, f)) {
        const char *w = strstr(line, "\"warp_instructions\": ");
        if (!w || strncmp(line, key, strlen(key)) || n++ < from) continue;
        uint64_t v = strtoull(w + 21, NULL, 10);
        if ((n - from) % 2) prev = v, *icd_insts = v;
        else equal &= v == prev, *hip_insts = v;
    }
    fclose(f);
    return equal;
}
#endif

static bcase make_matmul(uint32_t n)
{
    static uint32_t dims[3];
    uint64_t seed = 1;
    float *A = xalloc((size_t)n * n * 4), *B = xalloc((size_t)n * n * 4);
    for (size_t i = 0; i < (size_t)n * n; i++) A[i] = frand(&seed), B[i] = frand(&seed);
    dims[0] = dims[1] = dims[2] = n;
    size_t g = (n + 15) / 16 * 16;
    bcase c = { .name = "matmul_tiled", .dir = BENCH_KERNEL_DIR, .nargs = 6, .out = 2, .dim = 2,
                .global = { g, g, 1 }, .local = { 16, 16, 1 } };
    c.args[0] = (barg){ A, (size_t)n * n * 4, 1 };
    c.args[1] = (barg){ B, (size_t)n * n * 4, 1 };
    c.args[2] = (barg){ xalloc((size_t)n * n * 4), (size_t)n * n * 4, 1 };
    for (int i = 0; i < 3; i++) c.args[3 + i] = (barg){ &dims[i], 4, 0 };
    return c;
}

static bcase make_nbody(uint32_t n)
{
    static uint32_t nn;
    static float dt = 0.01f, eps2 = 0.01f;
    uint64_t seed = 2;
    float *pos = xalloc((size_t)n * 16), *vel = xalloc((size_t)n * 16);
    for (size_t i = 0; i < (size_t)n * 4; i++) pos[i] = 4 * frand(&seed) - 2, vel[i] = frand(&seed) - 0.5f;
    nn = n;
    bcase c = { .name = "nbody", .dir = BENCH_KERNEL_DIR, .nargs = 8, .out = 3, .dim = 1,
                .global = { (n + 63) / 64 * 64, 1, 1 }, .local = { 64, 1, 1 } };
    c.args[0] = (barg){ pos, (size_t)n * 16, 1 };
    c.args[1] = (barg){ vel, (size_t)n * 16, 1 };
    c.args[2] = (barg){ xalloc((size_t)n * 16), (size_t)n * 16, 1 };
    c.args[3] = (barg){ xalloc((size_t)n * 16), (size_t)n * 16, 1 };
    c.args[4] = (barg){ xalloc((size_t)n * 4), (size_t)n * 4, 1 };
    c.args[5] = (barg){ &nn, 4, 0 };
    c.args[6] = (barg){ &dt, 4, 0 };
    c.args[7] = (barg){ &eps2, 4, 0 };
    return c;
}

static bcase make_alu_loop(uint32_t n)
{
    static int32_t iters = 256;
    bcase c = { .name = "alu_loop", .dir = BENCH_SOURCE_DIR, .nargs = 2, .out = 0, .dim = 1,
                .global = { (n + 255) / 256 * 256, 1, 1 }, .local = { 256, 1, 1 } };
    c.args[0] = (barg){ xalloc(c.global[0] * 4), c.global[0] * 4, 1 };
    c.args[1] = (barg){ &iters, 4, 0 };
    return c;
}

int main(int argc, char **argv)
{
    int launches = 2000, reps = 3;
    uint32_t mm = 128, nb = 1024, alu = 16384;
    size_t tiny_w = 1023, tiny_h = 255, sample_w = 512, sample_h = 512;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--launches") && i + 1 < argc) launches = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--matmul") && i + 1 < argc) mm = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--nbody") && i + 1 < argc) nb = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--alu") && i + 1 < argc) alu = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--tiny-wgs") && i + 2 < argc) {
            tiny_w = (size_t)atol(argv[++i]);
            tiny_h = (size_t)atol(argv[++i]);
        } else if (!strcmp(argv[i], "--sample") && i + 2 < argc) {
            sample_w = (size_t)atol(argv[++i]);
            sample_h = (size_t)atol(argv[++i]);
        } else {
            fprintf(stderr, "usage: bench_opencl [--launches N] [--tiny-wgs W H] [--sample W H] [--matmul N] [--nbody N] [--alu N] [--reps R]\n");
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    setenv("OCL_ICD_VENDORS", BENCH_ICD, 0);
#ifdef BENCH_HIP
    char stats[] = "/tmp/bench_api_stats.XXXXXX";
    int fd = mkstemp(stats);
    if (fd < 0) return 1;
    close(fd);
    setenv("UMBRA_STATS", stats, 1);   /* both rooms append a line per launch */
#endif
    open_platform();
    bench_launches(launches);
    if (tiny_w && tiny_h) bench_tiny_workgroups(tiny_w, tiny_h, reps);
    if (sample_w && sample_h) {
        bench_sample_format(sample_w, sample_h, reps, CL_UNORM_INT8);
        bench_sample_format(sample_w, sample_h, reps, CL_FLOAT);
    }
    bcase cases[3] = { make_matmul(mm), make_nbody(nb), make_alu_loop(alu) };
    for (int i = 0; i < 3; i++) {
        bcase *c = &cases[i];
        char co[1024];
        if (compile(c, co, sizeof co)) return 1;
        size_t osize = c->args[c->out].size;
        void *a = xalloc(osize), *b = xalloc(osize);
        uint64_t wi = 0;
        direct_run dr = { 0 };
        icd_run ir = { 0 };
        direct_setup(c, co, &dr);
        icd_setup(c, co, &ir);
        timing direct = { 1e30, 1e30 }, icd = { 1e30, 1e30 };
        for (int r = 0; r < reps; r++) {   /* alternate, so that both see the same machine load */
            keep_best(&direct, direct_once(&dr, &wi));
            keep_best(&icd, icd_once(c, &ir));
        }
        direct_finish(c, &dr, a);
        icd_finish(c, &ir, b);
        printf("%-13s %8llu wave-insts: CPU libumbra %.4f s, ICD %.4f s (%+.1f%%); wall %.4f s, %.4f s (%+.1f%%)%s\n",
               c->name, (unsigned long long)wi, direct.cpu, icd.cpu, (icd.cpu / direct.cpu - 1) * 100, direct.wall,
               icd.wall, (icd.wall / direct.wall - 1) * 100, memcmp(a, b, osize) ? " (OUTPUTS DIFFER)" : "");
#ifdef BENCH_HIP
        /* OpenCL and HIP, the same code object, alternating */
        hip_run hr = { 0 };
        icd_setup(c, co, &ir);
        hip_setup(c, co, &hr);
        timing icd2 = { 1e30, 1e30 }, hip = { 1e30, 1e30 };
        for (int r = 0; r < reps; r++) {
            keep_best(&icd2, icd_once(c, &ir));
            keep_best(&hip, hip_once(c, &hr));
        }
        void *h = xalloc(osize);
        icd_finish(c, &ir, b);
        hip_finish(c, &hr, h);
        uint64_t icd_insts = 0, hip_insts = 0;
        bool same = stats_pairs_equal(stats, c->name, reps, &icd_insts, &hip_insts);   /* after the first round's */
        printf("%-13s OpenCL %llu, HIP %llu wave-insts%s: CPU OpenCL %.4f s, HIP %.4f s (%+.1f%%); wall %.4f s, %.4f s (%+.1f%%)%s\n",
               c->name, (unsigned long long)icd_insts, (unsigned long long)hip_insts, same ? " (equal)" : " (DIFFER)",
               icd2.cpu, hip.cpu, (hip.cpu / icd2.cpu - 1) * 100, icd2.wall, hip.wall, (hip.wall / icd2.wall - 1) * 100,
               memcmp(b, h, osize) ? " (OUTPUTS DIFFER)" : "");
        free(h);
#endif
        free(a), free(b);
    }
#ifdef BENCH_HIP
    if (!getenv("BENCH_KEEP_STATS")) unlink(stats);
#endif
    return 0;
}
