/* bench_rdna3: umbra's RDNA3 front end on matrix multiply and n-body, and the same OpenCL C
 * kernels on the PoCL CPU runtime in the same run.
 *
 *   bench_rdna3 [--matmul N] [--nbody N] [--alu N] [--triad N] [--threads T] [--wave64] [--reps R]  (N = 0 leaves a case out)
 *               [--json FILE] [--jit off|auto|always]   (the translator, docs/TRANSLATOR.md; its
 *               time is in the first repetition: the device keeps the translation)
 *
 * The third case, alu_loop (bench/rdna3/alu_loop.cl), is ALU-bound: it measures the interpreter's
 * per-instruction cost without memory traffic. The fourth, triad (bench/rdna3/triad.cl, STREAM's
 * a = b + s * c over N floats, default 4 Mi), is memory-bound.
 *
 * umbra: wave-instructions per second (= stats.warp_insts / wall time of umb_rdna3_run) and
 * work-item instructions per second. PoCL: wall time of clEnqueueNDRangeKernel + clFinish (the
 * program is built and warmed up first). Both runs use the same sources (tests/rdna3/kernels), the
 * same NDRange and the same inputs; the outputs are compared so that the two did the same work.
 * PoCL's pthread device runs as many worker threads as --threads gives umbra (POCL_MAX_PTHREAD_COUNT,
 * unless it is set already): equal host threads in every column. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "umbra/rdna3.h"
#include "umbra/timing.h"

#ifdef BENCH_HAVE_OPENCL
#include <CL/cl.h>
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct barg {
    const void *host;          /* buffer contents or scalar value */
    size_t size;
    int is_buf, is_out;
} barg;

typedef struct bcase {
    const char *name;          /* kernel and file name */
    const char *dir;           /* where name.cl is */
    barg args[10];
    int nargs;
    uint32_t dim;
    size_t global[3], local[3];
    size_t out_arg;            /* buffer compared between umbra and PoCL */
    double flops;              /* useful floating-point operations, for the report */
} bcase;

typedef struct bresult {
    double umbra_s, pocl_s, wave_insts, thread_insts, max_rel_diff;
    int pocl_ok;
} bresult;

static void *xalloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p) exit(2);
    return p;
}

/* ---- umbra ---- */

static int run_umbra(const bcase *c, bool wave64, uint32_t threads, int reps, void *out, bresult *r, uint32_t jit)
{
    char src[1024], co[1024], err[1024];
    snprintf(src, sizeof src, "%s/%s.cl", c->dir, c->name);
    snprintf(co, sizeof co, "%s/%s.w%d.co", BENCH_WORK_DIR, c->name, wave64 ? 64 : 32);
    umb_rdna3_cc_options o = { .input = src, .output = co, .opt_level = 3, .wave64 = wave64, .build_options = "-cl-std=CL2.0" };
    if (umb_rdna3_compile(&o, err, sizeof err)) return fprintf(stderr, "compile: %s\n", err), 1;
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    cfg.host_threads = threads;
    cfg.compute_units = threads > 1 ? threads : 1;
    /* UMBRA_BENCH_TIMING=MACHINE: run under the timing model (docs/TIMING.md, speed of timing mode) */
    umb_timing *timing = NULL;
    if (getenv("UMBRA_BENCH_TIMING") && umb_timing_create(getenv("UMBRA_BENCH_TIMING"), &timing, err, sizeof err))
        return fprintf(stderr, "timing: %s\n", err), 1;
    cfg.timing = timing;
    umb_device *dev;
    umb_rdna3_program *p;
    if (umb_device_create(&cfg, &dev) || umb_rdna3_program_load_file(dev, co, &p, err, sizeof err))
        return fprintf(stderr, "load: %s\n", err), 1;
    umb_rdna3_arg args[10];
    uint64_t addr[10] = { 0 };
    for (int i = 0; i < c->nargs; i++) {
        if (c->args[i].is_buf) {
            if (umb_mem_alloc(dev, c->args[i].size, 4096, &addr[i]) ||
                umb_mem_copy_to_device(dev, addr[i], c->args[i].host, c->args[i].size))
                return fprintf(stderr, "buffers: %s\n", umb_device_last_error(dev)), 1;
            args[i] = (umb_rdna3_arg){ .value = &addr[i], .size = 8 };
        } else {
            args[i] = (umb_rdna3_arg){ .value = c->args[i].host, .size = (uint32_t)c->args[i].size };
        }
    }
    umb_rdna3_dispatch d = { .kernel = c->name, .work_dim = c->dim, .args = args, .nargs = (uint32_t)c->nargs, .jit = jit };
    for (int i = 0; i < 3; i++) d.global_size[i] = c->global[i], d.local_size[i] = (uint32_t)c->local[i];
    double best = 1e30;
    umb_stats s = { 0 };
    for (int k = 0; k < reps; k++) {
        umb_stats one = { 0 };
        double t0 = now();
        umb_status st = umb_rdna3_run(dev, p, &d, &one);
        double t = now() - t0;
        if (st) return fprintf(stderr, "run %s: %s\n", c->name, umb_device_last_error(dev)), 1;
        if (t < best) best = t, s = one;
    }
    r->umbra_s = best;
    r->wave_insts = (double)s.warp_insts;
    r->thread_insts = (double)s.thread_insts;
    umb_mem_copy_from_device(dev, addr[c->out_arg], out, c->args[c->out_arg].size);
    umb_rdna3_program_destroy(p);
    umb_device_destroy(dev);
    umb_timing_destroy(timing);
    return 0;
}

/* ---- PoCL ---- */

#ifdef BENCH_HAVE_OPENCL
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = xalloc((size_t)n + 1);
    if (fread(b, 1, (size_t)n, f) != (size_t)n) n = 0;
    fclose(f);
    b[n] = 0;
    return b;
}

/* The PoCL CPU device (any platform whose name mentions "Portable"), else the first CPU device. */
static cl_device_id pick_device(char *name, size_t len)
{
    cl_platform_id plats[8];
    cl_uint np = 0;
    if (clGetPlatformIDs(8, plats, &np) != CL_SUCCESS) return NULL;
    cl_device_id any = NULL;
    for (cl_uint i = 0; i < np; i++) {
        char pname[256] = "";
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        cl_device_id dv;
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_CPU, 1, &dv, &nd) != CL_SUCCESS || !nd) continue;
        if (!any) any = dv;
        if (strstr(pname, "Portable")) {
            char dname[256] = "";
            clGetDeviceInfo(dv, CL_DEVICE_NAME, sizeof dname, dname, NULL);
            snprintf(name, len, "%s / %s", pname, dname);
            return dv;
        }
    }
    if (any) snprintf(name, len, "first CPU OpenCL device");
    return any;
}

static int run_pocl(const bcase *c, int reps, void *out, bresult *r, char *devname, size_t dlen)
{
    cl_device_id dev = pick_device(devname, dlen);
    if (!dev) return fprintf(stderr, "PoCL: no OpenCL CPU device (install pocl-opencl-icd)\n"), 1;
    cl_int e;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.cl", c->dir, c->name);
    char *text = slurp(path);
    const char *srcs[] = { text };
    cl_program prog = clCreateProgramWithSource(ctx, 1, srcs, NULL, &e);
    if (clBuildProgram(prog, 1, &dev, "-cl-std=CL1.2", NULL, NULL) != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "PoCL build of %s failed:\n%s\n", c->name, log);
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, c->name, &e);
    cl_mem bufs[10] = { 0 };
    for (int i = 0; i < c->nargs; i++) {
        if (c->args[i].is_buf) {
            bufs[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, c->args[i].size,
                                     (void *)c->args[i].host, &e);
            clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &bufs[i]);
        } else {
            clSetKernelArg(k, (cl_uint)i, c->args[i].size, c->args[i].host);
        }
    }
    double best = 1e30;
    for (int rep = 0; rep <= reps; rep++) {   /* rep 0 warms up (PoCL compiles work-group functions lazily) */
        double t0 = now();
        e = clEnqueueNDRangeKernel(q, k, c->dim, NULL, c->global, c->local, 0, NULL, NULL);
        clFinish(q);
        double t = now() - t0;
        if (e != CL_SUCCESS) return fprintf(stderr, "PoCL enqueue failed: %d\n", e), 1;
        if (rep && t < best) best = t;
    }
    /* fresh output: re-run once from the original inputs so that both outputs come from the same data */
    clEnqueueWriteBuffer(q, bufs[c->out_arg], CL_TRUE, 0, c->args[c->out_arg].size, c->args[c->out_arg].host, 0, NULL, NULL);
    clEnqueueNDRangeKernel(q, k, c->dim, NULL, c->global, c->local, 0, NULL, NULL);
    clEnqueueReadBuffer(q, bufs[c->out_arg], CL_TRUE, 0, c->args[c->out_arg].size, out, 0, NULL, NULL);
    r->pocl_s = best;
    r->pocl_ok = 1;
    for (int i = 0; i < c->nargs; i++)
        if (bufs[i]) clReleaseMemObject(bufs[i]);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(text);
    return 0;
}
#endif

/* ---- cases ---- */

static float frand(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return (float)((*s >> 40) & 0xffffff) / 16777216.0f;
}

static bcase make_matmul(uint32_t n)
{
    static uint32_t dims[3];
    uint64_t seed = 1;
    float *A = xalloc((size_t)n * n * 4), *B = xalloc((size_t)n * n * 4), *C = xalloc((size_t)n * n * 4);
    for (size_t i = 0; i < (size_t)n * n; i++) A[i] = frand(&seed), B[i] = frand(&seed);
    dims[0] = dims[1] = dims[2] = n;
    size_t g = (n + 15) / 16 * 16;
    bcase c = { .name = "matmul_tiled", .dir = BENCH_KERNEL_DIR, .nargs = 6, .dim = 2, .global = { g, g, 1 }, .local = { 16, 16, 1 },
                .out_arg = 2, .flops = 2.0 * n * n * n };
    c.args[0] = (barg){ A, (size_t)n * n * 4, 1, 0 };
    c.args[1] = (barg){ B, (size_t)n * n * 4, 1, 0 };
    c.args[2] = (barg){ C, (size_t)n * n * 4, 1, 1 };
    for (int i = 0; i < 3; i++) c.args[3 + i] = (barg){ &dims[i], 4, 0, 0 };
    return c;
}

static bcase make_nbody(uint32_t n)
{
    static uint32_t nn;
    static float dt = 0.01f, eps2 = 0.01f;
    uint64_t seed = 2;
    float *pos = xalloc((size_t)n * 16), *vel = xalloc((size_t)n * 16);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) pos[4 * i + k] = 4 * frand(&seed) - 2, vel[4 * i + k] = frand(&seed) - 0.5f;
        pos[4 * i + 3] = 0.5f + frand(&seed);
    }
    nn = n;
    bcase c = { .name = "nbody", .dir = BENCH_KERNEL_DIR, .nargs = 8, .dim = 1, .global = { (n + 63) / 64 * 64, 1, 1 }, .local = { 64, 1, 1 },
                .out_arg = 3, .flops = 20.0 * n * n };
    c.args[0] = (barg){ pos, (size_t)n * 16, 1, 0 };
    c.args[1] = (barg){ vel, (size_t)n * 16, 1, 0 };
    c.args[2] = (barg){ xalloc((size_t)n * 16), (size_t)n * 16, 1, 1 };
    c.args[3] = (barg){ xalloc((size_t)n * 16), (size_t)n * 16, 1, 1 };
    c.args[4] = (barg){ xalloc((size_t)n * 4), (size_t)n * 4, 1, 1 };
    c.args[5] = (barg){ &nn, 4, 0, 0 };
    c.args[6] = (barg){ &dt, 4, 0, 0 };
    c.args[7] = (barg){ &eps2, 4, 0, 0 };
    return c;
}

static bcase make_alu_loop(uint32_t n)
{
    static int32_t iters = 256;
    bcase c = { .name = "alu_loop", .dir = BENCH_SOURCE_DIR, .nargs = 2, .dim = 1,
                .global = { (n + 255) / 256 * 256, 1, 1 }, .local = { 256, 1, 1 }, .out_arg = 0,
                .flops = 7.0 * iters * n };
    c.args[0] = (barg){ xalloc((size_t)c.global[0] * 4), (size_t)c.global[0] * 4, 1, 1 };
    c.args[1] = (barg){ &iters, 4, 0, 0 };
    return c;
}

/* STREAM triad over n floats by 65536 work-items (memory-bound: two loads, an FMA, a store). */
static bcase make_triad(uint32_t n)
{
    static float scale = 3.0f;
    static int32_t count;
    count = (int32_t)n;
    bcase c = { .name = "triad", .dir = BENCH_SOURCE_DIR, .nargs = 5, .dim = 1, .global = { 65536, 1, 1 },
                .local = { 256, 1, 1 }, .out_arg = 0, .flops = 2.0 * n };
    float *b = xalloc((size_t)n * 4), *cc = xalloc((size_t)n * 4);
    for (uint32_t i = 0; i < n; i++) b[i] = (float)(i % 1000) * 0.5f, cc[i] = (float)(i % 77) * 0.25f;
    c.args[0] = (barg){ xalloc((size_t)n * 4), (size_t)n * 4, 1, 1 };
    c.args[1] = (barg){ b, (size_t)n * 4, 1, 0 };
    c.args[2] = (barg){ cc, (size_t)n * 4, 1, 0 };
    c.args[3] = (barg){ &scale, 4, 0, 0 };
    c.args[4] = (barg){ &count, 4, 0, 0 };
    return c;
}

static double max_rel_diff(const float *a, const float *b, size_t n)
{
    double m = 0, scale = 0;
    for (size_t i = 0; i < n; i++) scale = fmax(scale, fabs(b[i]));
    for (size_t i = 0; i < n; i++) m = fmax(m, fabs((double)a[i] - b[i]) / (scale > 0 ? scale : 1));
    return m;
}

int main(int argc, char **argv)
{
    uint32_t mm = 256, nb = 2048, alu = 65536, triad = 1u << 22, threads = 1;
    int reps = 3;
    bool wave64 = false;
    uint32_t jit = UMB_RDNA3_JIT_OFF;
    const char *json = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--matmul") && i + 1 < argc) mm = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--nbody") && i + 1 < argc) nb = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--alu") && i + 1 < argc) alu = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--triad") && i + 1 < argc) triad = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!strcmp(argv[i], "--wave64")) wave64 = true;
        else if (!strcmp(argv[i], "--jit") && i + 1 < argc && umb_rdna3_jit_mode(argv[i + 1]) >= 0)
            jit = (uint32_t)umb_rdna3_jit_mode(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_rdna3 [--matmul N] [--nbody N] [--alu N] [--triad N] [--threads T] [--wave64] [--reps R] [--json FILE] [--jit off|auto|always]\n");
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    char pocl_threads[16];   /* (read when PoCL's device starts, after this) */
    snprintf(pocl_threads, sizeof pocl_threads, "%u", threads ? threads : 1u);
    setenv("POCL_MAX_PTHREAD_COUNT", pocl_threads, 0);
    enum { NCASES = 4 };
    bcase cases[NCASES] = { make_matmul(mm), make_nbody(nb), make_alu_loop(alu), make_triad(triad) };
    const char *labels[NCASES] = { "matmul", "nbody", "alu_loop", "triad" };
    uint32_t sizes[NCASES] = { mm, nb, alu, triad };
    bresult res[NCASES] = { { 0 } };
    char devname[512] = "PoCL not built (no OpenCL headers)";
    FILE *jf = json ? fopen(json, "w") : NULL;
    if (jf) fprintf(jf, "{\n  \"wave\": %d, \"threads\": %u, \"cases\": [\n", wave64 ? 64 : 32, threads);
    printf("%-8s %6s | %12s %10s %12s %12s | %10s %9s | %s\n", "kernel", "size", "wave-insts", "umbra s",
           "wave-inst/s", "item-inst/s", "PoCL s", "umbra/PoCL", "max rel diff");
    int rc = 0;
    /* Every umbra run first, then every PoCL run: PoCL's worker threads outlive a kernel and
     * would compete with umbra's host thread for the cores. */
    void *outs[NCASES][2];
    bool ran[NCASES] = { false };
    int json_rows = 0;   /* rows written: a comma goes before every row but the first */
    for (int i = 0; i < NCASES; i++) {
        bcase *c = &cases[i];
        size_t osz = c->args[c->out_arg].size;
        outs[i][0] = xalloc(osz), outs[i][1] = xalloc(osz);
        if (!sizes[i]) continue;   /* size 0: the case is left out */
        if (run_umbra(c, wave64, threads, reps, outs[i][0], &res[i], jit)) rc = 1;
        else ran[i] = true;
    }
    for (int i = 0; i < NCASES; i++) {
        bcase *c = &cases[i];
        size_t osz = c->args[c->out_arg].size;
        if (ran[i]) {
#ifdef BENCH_HAVE_OPENCL
            if (run_pocl(c, reps, outs[i][1], &res[i], devname, sizeof devname) == 0)
                res[i].max_rel_diff = max_rel_diff(outs[i][0], outs[i][1], osz / 4);
#endif
            bresult *r = &res[i];
            printf("%-8s %6u | %12.0f %10.3f %12.3e %12.3e | %10.4f %9.1f | %.2e\n", labels[i], sizes[i], r->wave_insts,
                   r->umbra_s, r->wave_insts / r->umbra_s, r->thread_insts / r->umbra_s, r->pocl_ok ? r->pocl_s : NAN,
                   r->pocl_ok ? r->umbra_s / r->pocl_s : NAN, r->max_rel_diff);
            if (jf)
                fprintf(jf, "%s    {\"kernel\": \"%s\", \"size\": %u, \"wave_insts\": %.0f, \"umbra_seconds\": %.6f, "
                            "\"wave_insts_per_second\": %.1f, \"pocl_seconds\": %.6f, \"max_rel_diff\": %.3g}",
                        json_rows++ ? ",\n" : "", labels[i], sizes[i], r->wave_insts, r->umbra_s,
                        r->wave_insts / r->umbra_s, r->pocl_ok ? r->pocl_s : -1.0, r->max_rel_diff);
        }
        free(outs[i][0]), free(outs[i][1]);
    }
    for (int i = 0; i < NCASES; i++)
        for (int a = 0; a < cases[i].nargs; a++)
            if (cases[i].args[a].is_buf) free((void *)cases[i].args[a].host);
    printf("PoCL device: %s\n", devname);
    if (jf) fprintf(jf, "\n  ],\n  \"pocl_device\": \"%s\"\n}\n", devname), fclose(jf);
    return rc;
}
