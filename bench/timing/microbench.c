/* microbench: the timing model against published RX 7900 XTX figures (docs/TIMING.md).
 *
 *   microbench [--machine FILE|NAME] [--work DIR] [--quick] [--check] [--verbose] [--sweep]
 *              [--only TEXT]
 *
 * Runs the OpenCL C kernels of microbench.cl under the timing model: pointer chasing over growing
 * footprints (load-to-use latency of each level, scalar and vector), LDS latency, bandwidth of
 * L0, L1, L2, Infinity Cache and DRAM, LDS bandwidth, FP32 throughput with and without VOPD dual
 * issue. Each figure is the difference of two runs that differ only in the amount of work, so
 * launch and warm-up costs cancel. Prints a table (umbra, published, ratio); --check exits
 * non-zero when a row with a published figure is more than 20% off (or, for a published upper
 * bound, above it); --quick leaves out the rows marked slow; --verbose prints each row's host time on stderr; --sweep prints instead the scalar
 * and vector latency over footprints from 4 KB to 256 MB (the plateaus). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "umbra/rdna3.h"
#include "umbra/timing.h"

typedef struct mb {
    umb_device *dev;
    umb_rdna3_program *prog;
    umb_timing *tm;
    double ghz;
} mb;

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "microbench: %s: %s\n", what, detail);
    exit(1);
}

/* Cycles of one launch. */
static uint64_t launch(mb *m, const char *kernel, const umb_rdna3_arg *args, uint32_t nargs, uint64_t global,
                       uint32_t local)
{
    umb_rdna3_dispatch d = { .kernel = kernel, .work_dim = 1, .args = args, .nargs = nargs };
    d.global_size[0] = global, d.global_size[1] = d.global_size[2] = 1;
    d.local_size[0] = local, d.local_size[1] = d.local_size[2] = 1;
    uint64_t before = umb_timing_total_cycles(m->tm);
    umb_stats st = { 0 };
    if (umb_rdna3_run(m->dev, m->prog, &d, &st)) die(kernel, umb_device_last_error(m->dev));
    return umb_timing_total_cycles(m->tm) - before;
}

static uint64_t alloc(mb *m, uint64_t bytes)
{
    uint64_t a;
    if (umb_mem_alloc(m->dev, bytes, 65536, &a)) die("alloc", umb_device_last_error(m->dev));
    return a;
}

#define ARG(v) { &(v), sizeof(v) }

/* Cycles per step of a chase over `footprint` bytes with lines `stride` bytes apart. */
static double chase(mb *m, const char *kernel, uint64_t footprint, uint32_t stride)
{
    uint64_t next = alloc(m, footprint), out = alloc(m, 4096);
    uint32_t sw = stride / 4, nlines = (uint32_t)(footprint / stride);
    umb_rdna3_arg init[] = { ARG(next), ARG(sw), ARG(nlines) };
    launch(m, "chain_init", init, 3, nlines, 64);
    uint32_t steps = nlines < 2048 ? 2048 : nlines;
    uint64_t c[2];
    /* Warm: the same run twice. Once is not enough when the buffer reuses the addresses of an
     * earlier chase's: the model does not invalidate the scalar cache, L0 and L1 at a launch (the
     * hardware does), so the first warm run can hit stale scalar lines whose L1 lines it then
     * never loads, and the measured run misses them. */
    for (int k = 0; k < 2; k++) {
        uint32_t s = steps * (k + 1);
        if (!strcmp(kernel, "chase_lds")) {
            uint32_t n = (uint32_t)(footprint / 4);
            umb_rdna3_arg a[] = { ARG(next), ARG(out), ARG(s), ARG(n), { NULL, (uint32_t)footprint } };
            for (int w = 0; w < 2; w++) launch(m, kernel, a, 5, 1, 1);
            c[k] = launch(m, kernel, a, 5, 1, 1);
        } else {
            umb_rdna3_arg a[] = { ARG(next), ARG(out), ARG(s) };
            for (int w = 0; w < 2; w++) launch(m, kernel, a, 3, 1, 1);
            c[k] = launch(m, kernel, a, 3, 1, 1);
        }
    }
    umb_mem_free(m->dev, next);
    umb_mem_free(m->dev, out);
    return (double)(c[1] - c[0]) / steps;
}

#define GRID (96u * 2u * 8u * 32u)   /* 8 waves of 32 on each SIMD of the 7900 XTX */

/* Bytes per cycle reading a buffer of `bytes`, passes p1 vs p2; `warm`: one pass first, so that
 * the caches hold what they hold in the measured runs (not lines of an earlier buffer at the
 * same addresses). */
static double read_bw(mb *m, uint64_t bytes, uint32_t p1, uint32_t p2, bool warm)
{
    uint64_t in = alloc(m, bytes), out = alloc(m, GRID * 4ull);
    uint32_t n4 = (uint32_t)(bytes / 16);
    uint64_t c[2];
    uint32_t passes[2] = { p1, p2 }, one = 1;
    umb_rdna3_arg w[] = { ARG(in), ARG(out), ARG(n4), ARG(one) };
    if (warm) launch(m, "read_bw", w, 4, GRID, 256);
    for (int k = 0; k < 2; k++) {
        umb_rdna3_arg a[] = { ARG(in), ARG(out), ARG(n4), ARG(passes[k]) };
        c[k] = launch(m, "read_bw", a, 4, GRID, 256);
    }
    umb_mem_free(m->dev, in);
    umb_mem_free(m->dev, out);
    return c[1] > c[0] ? (double)bytes * (p2 - p1) / (double)(c[1] - c[0]) : NAN;
}

/* Bytes per cycle of every workgroup reading the same `bytes` over and over (read_small_bw):
 * the L0's bandwidth when they fit it, the L1's when they fit only the L1. */
static double small_bw(mb *m, uint32_t bytes)
{
    uint64_t in = alloc(m, bytes), out = alloc(m, GRID * 4ull);
    uint32_t mask4 = bytes / 16 - 1, iters[3] = { 64, 64, 192 }, round = GRID / 256 / 4;
    uint64_t c[3];
    for (int k = 0; k < 3; k++) {   /* the first run warms the caches */
        umb_rdna3_arg a[] = { ARG(in), ARG(out), ARG(mask4), ARG(iters[k]), ARG(round) };
        c[k] = launch(m, "read_small_bw", a, 5, GRID, 256);
    }
    umb_mem_free(m->dev, in);
    umb_mem_free(m->dev, out);
    return (double)GRID * 16.0 * (iters[2] - iters[1]) / (double)(c[2] - c[1]);
}

static double lds_bw(mb *m)
{
    uint64_t out = alloc(m, GRID * 4ull);
    uint64_t c[3];
    uint32_t iters[3] = { 64, 64, 192 };
    for (int k = 0; k < 3; k++) {   /* the first run warms the caches (kernel arguments, out) */
        umb_rdna3_arg a[] = { ARG(out), ARG(iters[k]), { NULL, 256 * 16 } };
        c[k] = launch(m, "lds_bw", a, 3, GRID, 256);
    }
    umb_mem_free(m->dev, out);
    return (double)GRID * 16.0 * (iters[2] - iters[1]) / (double)(c[2] - c[1]);
}

/* Operations per cycle of an ALU kernel(in, out, iters) doing `ops_per_item` operations per
 * work-item and iteration: warm-up, then two runs that differ only in iterations (lo, hi). */
static double alu_rate(mb *m, const char *kernel, uint32_t lo, uint32_t hi, double ops_per_item)
{
    uint64_t in = alloc(m, 4096), out = alloc(m, GRID * 4ull);
    uint64_t c[3];
    uint32_t iters[3] = { lo, lo, hi };
    for (int k = 0; k < 3; k++) {   /* the first run warms the caches (the loads of the inputs) */
        umb_rdna3_arg a[] = { ARG(in), ARG(out), ARG(iters[k]) };
        c[k] = launch(m, kernel, a, 3, GRID, 256);
    }
    umb_mem_free(m->dev, in);
    umb_mem_free(m->dev, out);
    return (double)GRID * ops_per_item * (iters[2] - iters[1]) / (double)(c[2] - c[1]);
}

/* FP32 operations (an FMA is two: eight FMAs a work-item and iteration) per cycle. */
static double fp32(mb *m) { return alu_rate(m, "fp32_fma", 16, 48, 16.0); }

/* FP16 WMMA operations per cycle: four v_wmma_f32_16x16x16_f16 (8192 each) a wave and
 * iteration, so 4 x 8192 / 32 a work-item. */
static double wmma16(mb *m) { return alu_rate(m, "wmma_f16", 4, 12, 4.0 * 8192.0 / 32.0); }

/* A copy of the machine file with VOPD dual issue off, for the single-issue FP32 figure. */
static const char *single_issue_machine(const char *machine, const char *work, char *path, size_t len)
{
    char src[1024];
    if (strchr(machine, '/')) snprintf(src, sizeof src, "%s", machine);
    else snprintf(src, sizeof src, "%s/%s.yaml", umb_timing_machines_dir(), machine);
    FILE *in = fopen(src, "r");
    snprintf(path, len, "%s/single_issue.yaml", work);
    FILE *out = in ? fopen(path, "w") : NULL;
    if (!out) die("machine copy", src);
    char line[512];
    while (fgets(line, sizeof line, in))
        fputs(strstr(line, "vopd_dual_issue:") ? "  vopd_dual_issue: false\n" : line, out);
    fclose(in);
    fclose(out);
    return path;
}

/* A device under `machine` with microbench.cl loaded (compiled into `work` first if `compile`). */
static void setup(mb *m, const char *machine, const char *work, bool compile)
{
    char err[1024], co[1024];
    if (umb_timing_create(machine, &m->tm, err, sizeof err)) die("machine", err);
    m->ghz = umb_timing_clock_mhz(m->tm) / 1000.0;
    snprintf(co, sizeof co, "%s/microbench.co", work);
    umb_rdna3_cc_options o = { .input = MB_SOURCE_DIR "/microbench.cl", .output = co, .opt_level = 3 };
    if (compile && umb_rdna3_compile(&o, err, sizeof err)) die("compile", err);
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    cfg.timing = m->tm;
    if (umb_device_create(&cfg, &m->dev)) die("device", "cannot create");
    if (umb_rdna3_program_load_file(m->dev, co, &m->prog, err, sizeof err)) die("load", err);
}

static void teardown(mb *m)
{
    umb_rdna3_program_destroy(m->prog);
    umb_device_destroy(m->dev);
    umb_timing_destroy(m->tm);
}

/* What a row measures: a pointer chase (ns per step), a stream over a buffer larger than the
 * caches above the level (STREAM_COLD: on a device of its own, whose caches hold nothing, so no
 * warm-up pass is needed), the same small buffer read by every workgroup, LDS reads, FMAs. */
typedef enum how { CHASE, STREAM, STREAM_COLD, SMALL, LDS_BW, FP32, FP32_SINGLE, WMMA16 } how;

typedef struct row {
    const char *what, *unit;
    how how;
    const char *kernel;    /* CHASE: chase_scalar, chase_vector or chase_lds */
    uint64_t bytes;        /* footprint */
    uint32_t a, b;         /* CHASE: line stride in bytes; STREAM: passes of the two runs */
    bool slow;             /* left out by --quick: no published figure, and seconds of host time */
    double published;      /* < 0: no published figure found (docs/TIMING.md) */
    bool bound;            /* published is an upper bound read in the text, not a figure */
    const char *source;
} row;

/* The rows of docs/TIMING.md, which quotes each source's sentence. Measurements of the RX 7900
 * XTX by chipsandcheese.com: [C&C1] "Microbenchmarking AMD's RDNA 3 Graphics Architecture"
 * (2023-01-07), [C&C2] "Latency Testing is Hard (RDNA 3 Power Saving)" (2023-06-14, the card in
 * its high power state), [C&C3] "Raytracing on AMD's RDNA 2/3, and Nvidia's Turing and Pascal"
 * (2023-03-22), [C&C4] "Analyzing Starfield's Performance on Nvidia's 4090 and AMD's 7900 XTX"
 * (2023-09-14), [C&C5] "Nvidia's H100: Funny L2, and Tons of Bandwidth" (2023-07-03); a bound
 * read in [C&C1]'s text with [C&C7] "Blackwell: Nvidia's Massive GPU" (2025-06-29). Peaks
 * (labelled so): [AMD] the product's 61.4 TFLOPS FP32 with dual issue; the
 * LDS's 32 banks of 4 bytes a clock per CU ([C&C1]'s text) x 96 CUs x 2.5 GHz. [P1] a memtest_vulkan
 * log of a 7900 XTX (pastebin.com/Cd1f20Rc, 2024-04-19; ../shared/reference/rdna3-measurements.md).
 * [I2] vkpeak's fp16-matrix test on a 7900 XTX, "130Tflops+" (phoronix-test-suite/test-profiles
 * issue 284, Windows driver, its clock not stated; the model runs at 2.5 GHz). */
static const row ROWS[] = {
    { "scalar cache latency (8 KB)", "ns", CHASE, "chase_scalar", 8 << 10, 64, 0, false, 15.4, false, "C&C1" },
    { "vector L0 latency (16 KB)", "ns", CHASE, "chase_vector", 16 << 10, 128, 0, false, -1, false, "" },
    /* [C&C3] does not say which path; the scalar one is its default test (docs/TIMING.md) */
    { "scalar L1 latency (128 KB)", "ns", CHASE, "chase_scalar", 128 << 10, 64, 0, false, 35, false,
      "C&C3 (path not stated)" },
    { "vector L1 latency (128 KB)", "ns", CHASE, "chase_vector", 128 << 10, 128, 0, false, -1, false, "" },
    /* [C&C1]'s scalar section: Ada's big L2 "pushes up L2 latency a bit compared to AMD's recent
     * GPUs"; [C&C7]: "107 ns on Ada Lovelace". Lines 128 B apart: no two steps share an L1 line. */
    { "scalar L2 latency (2 MB)", "ns", CHASE, "chase_scalar", 2 << 20, 128, 0, false, 107, true,
      "C&C1+C&C7 (upper bound)" },
    { "vector L2 latency (2 MB)", "ns", CHASE, "chase_vector", 2 << 20, 128, 0, false, -1, false, "" },
    { "scalar Infinity Cache latency (32 MB)", "ns", CHASE, "chase_scalar", 32 << 20, 4096, 0, false, 128.4, false, "C&C2" },
    { "vector Infinity Cache latency (32 MB)", "ns", CHASE, "chase_vector", 32 << 20, 4096, 0, false, 150.3, false, "C&C2" },
    { "scalar DRAM latency (192 MB)", "ns", CHASE, "chase_scalar", 192ull << 20, 8192, 0, false, 221.24, false, "C&C2 (1 GB)" },
    { "vector DRAM latency (192 MB)", "ns", CHASE, "chase_vector", 192ull << 20, 8192, 0, false, 234.55, false, "C&C2 (1 GB)" },
    /* RDNA 2's LDS latency was about its scalar cache's (17.4 ns), RDNA 3's "a massive improvement" */
    { "LDS latency (8 KB)", "ns", CHASE, "chase_lds", 8 << 10, 4, 0, false, 17.4, true, "C&C1 (upper bound)" },
    { "L0 bandwidth (16 KB)", "GB/s", SMALL, NULL, 16 << 10, 0, 0, true, -1, false, "" },
    { "L1 bandwidth (128 KB)", "GB/s", SMALL, NULL, 128 << 10, 0, 0, true, -1, false, "" },
    { "L2 bandwidth (4 MB)", "GB/s", STREAM, NULL, 4 << 20, 1, 3, false, 5782, false, "C&C4" },
    /* 16 MB streamed through LRU caches misses the 6 MB L2 every time and stays in the 96 MB
     * Infinity Cache; [C&C5]: "just short of 3 TB/s" */
    { "Infinity Cache bandwidth (16 MB)", "GB/s", STREAM, NULL, 16 << 20, 1, 2, false, 3000, false, "C&C5 (just short of)" },
    /* 112 MB cycled through LRU caches of 6 + 96 MB (16-way) misses every line: every set of the
     * Infinity Cache gets 18 or 19 of its lines */
    /* [P1] memtest_vulkan on a 7900 XTX wrote 797.0-825.3 GB/s over its intervals (the middle: 811);
     * no read-stream figure of the XTX was found (the 7900 XT reads 706 of its 800 GB/s peak) */
    { "DRAM bandwidth (112 MB)", "GB/s", STREAM_COLD, NULL, 112 << 20, 1, 2, false, 811, false,
      "P1 (memtest_vulkan, 797-825 written)" },
    { "LDS bandwidth", "GB/s", LDS_BW, NULL, 0, 0, 0, false, 30720, false, "C&C1 (peak: 128 B/clk/CU)" },
    { "FP32 FMA throughput, VOPD dual issue", "TFLOPS", FP32, NULL, 0, 0, 0, false, 62.9, false, "C&C1 (Vulkan)" },
    { "FP32 FMA throughput, single issue", "TFLOPS", FP32_SINGLE, NULL, 0, 0, 0, false, 30.7, false, "AMD (peak / 2)" },
    { "FP16 WMMA throughput", "TFLOPS", WMMA16, NULL, 0, 0, 0, false, 130, false, "I2 (vkpeak fp16-matrix, 130+)" },
};

/* Load-to-use latency (ns) over footprints 4 KB .. 256 MB, scalar and vector: the plateaus of the
 * levels. At most 8192 lines per chase (the stride grows with the footprint; with power-of-two
 * strides every level still holds its capacity's worth of the footprint). */
static void sweep(mb *m)
{
    printf("%12s %10s %10s\n", "footprint", "scalar ns", "vector ns");
    for (uint64_t fp = 4 << 10; fp <= 256ull << 20; fp *= 2) {
        uint32_t s_stride = fp / 8192 > 64 ? (uint32_t)(fp / 8192) : 64;
        uint32_t v_stride = fp / 8192 > 128 ? (uint32_t)(fp / 8192) : 128;
        double sc = chase(m, "chase_scalar", fp, s_stride) / m->ghz;
        double vc = chase(m, "chase_vector", fp, v_stride) / m->ghz;
        if (fp < (1 << 20)) printf("%9" PRIu64 " KB %10.1f %10.1f\n", fp >> 10, sc, vc);
        else printf("%9" PRIu64 " MB %10.1f %10.1f\n", fp >> 20, sc, vc);
        fflush(stdout);
    }
}

typedef struct bench {
    mb main, single;              /* the machine, and a copy with VOPD dual issue off */
    const char *machine, *work;
} bench;

/* The row's figure in its unit (ns, GB/s = bytes per cycle * GHz, TFLOPS). */
static double measure(bench *b, const row *r)
{
    mb *m = &b->main;
    const double g = m->ghz;
    switch (r->how) {
    case CHASE: return chase(m, r->kernel, r->bytes, r->a) / g;
    case STREAM: return read_bw(m, r->bytes, r->a, r->b, true) * g;
    case STREAM_COLD: {
        mb cold = { 0 };
        setup(&cold, b->machine, b->work, false);
        double v = read_bw(&cold, r->bytes, r->a, r->b, false) * g;
        teardown(&cold);
        return v;
    }
    case SMALL: return small_bw(m, (uint32_t)r->bytes) * g;
    case LDS_BW: return lds_bw(m) * g;
    case FP32: return fp32(m) * g / 1000.0;
    case FP32_SINGLE: return fp32(&b->single) * g / 1000.0;
    case WMMA16: return wmma16(m) * g / 1000.0;
    }
    return NAN;
}

int main(int argc, char **argv)
{
    const char *machine = "gfx1100", *work = MB_WORK_DIR;
    bool check = false, quick = false, verbose = false, sweeping = false;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--machine") && i + 1 < argc) machine = argv[++i];
        else if (!strcmp(argv[i], "--verbose")) verbose = true;
        else if (!strcmp(argv[i], "--sweep")) sweeping = true;
        else if (!strcmp(argv[i], "--work") && i + 1 < argc) work = argv[++i];
        else if (!strcmp(argv[i], "--check")) check = true;
        else if (!strcmp(argv[i], "--quick")) quick = true;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else return fprintf(stderr, "usage: microbench [--machine FILE|NAME] [--work DIR] [--quick] [--check] [--verbose] "
                                    "[--sweep] [--only TEXT]\n"), 2;
    }
    bench b = { .machine = machine, .work = work };
    char single_path[1024];
    setup(&b.main, machine, work, true);
    if (sweeping) {
        sweep(&b.main);
        teardown(&b.main);
        return 0;
    }
    setup(&b.single, single_issue_machine(machine, work, single_path, sizeof single_path), work, false);
    printf("%-42s %10s %10s %7s  %s\n", "figure", "umbra", "published", "ratio", "unit / source");
    int bad = 0;
    for (size_t i = 0; i < sizeof ROWS / sizeof ROWS[0]; i++) {
        const row *r = &ROWS[i];
        if ((quick && r->slow) || (only && !strstr(r->what, only))) continue;
        clock_t host = clock();
        double v = measure(&b, r);
        if (verbose) fprintf(stderr, "%s: %.1f s of host time\n", r->what, (double)(clock() - host) / CLOCKS_PER_SEC);
        if (r->published > 0) {
            double ratio = v / r->published;
            /* NaN is off too */
            bool off = r->bound ? !(ratio <= 1.0) : !(fabs(ratio - 1.0) <= 0.20);
            bad += off;
            char pub[32];
            snprintf(pub, sizeof pub, "%s%.1f", r->bound ? "< " : "", r->published);
            printf("%-42s %10.1f %10s %7.2f  %s / %s%s\n", r->what, v, pub, ratio, r->unit, r->source,
                   off ? (r->bound ? "  (above the bound)" : "  (more than 20% off)") : "");
        } else {
            printf("%-42s %10.1f %10s %7s  %s / no published figure found\n", r->what, v, "-", "-", r->unit);
        }
        fflush(stdout);
    }
    teardown(&b.single);
    teardown(&b.main);
    return check && bad ? 1 : 0;
}
