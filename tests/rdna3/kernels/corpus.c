/* RDNA3 corpus driver:  rdna3_corpus SRC_DIR INCLUDE_DIR WORK_DIR KERNEL OPT WAVE
 *
 * Compiles SRC_DIR/KERNEL.cl with clang-19 at -O<OPT> for wave<WAVE> (umb_rdna3_compile, the same
 * code as `umbra cc`), loads it, runs the case's launch(es) in umbra and checks every output against
 * the case's C reference. Exit 0 = pass. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "umbra/timing.h"

uint32_t tc_rand(tctx *t)
{
    t->rng ^= t->rng << 13;
    t->rng ^= t->rng >> 7;
    t->rng ^= t->rng << 17;
    return (uint32_t)(t->rng >> 16);
}

float tc_randf(tctx *t, float lo, float hi)
{
    return lo + (hi - lo) * (float)(tc_rand(t) & 0xffffffu) / 16777216.0f;
}

void *tc_alloc(size_t size)
{
    void *p = calloc(1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "out of host memory\n");
        exit(2);
    }
    return p;
}

static void fatal(tctx *t, const char *what)
{
    fprintf(stderr, "FAIL %s: %s: %s\n", t->kernel, what, umb_device_last_error(t->dev));
    exit(1);
}

uint64_t tc_arg_buf(tctx *t, const void *data, size_t size)
{
    uint64_t addr = 0;
    if (t->nbufs >= TC_MAX_BUFS || umb_mem_alloc(t->dev, size ? size : 1, 4096, &addr)) fatal(t, "buffer allocation");
    t->bufsize[t->nbufs] = size ? size : 1;
    t->bufs[t->nbufs++] = addr;
    if (data && umb_mem_copy_to_device(t->dev, addr, data, size)) fatal(t, "buffer copy");
    memcpy(t->argstore[t->nargs], &addr, 8);
    t->args[t->nargs] = (umb_rdna3_arg){ .value = t->argstore[t->nargs], .size = 8 };
    t->nargs++;
    return addr;
}

void tc_track(tctx *t, uint64_t addr, size_t size)
{
    if (t->nbufs >= TC_MAX_BUFS) fatal(t, "too many buffers");
    t->bufsize[t->nbufs] = size;
    t->bufs[t->nbufs++] = addr;
}

static void arg_bytes(tctx *t, const void *v, uint32_t size)
{
    memcpy(t->argstore[t->nargs], v, size);
    t->args[t->nargs] = (umb_rdna3_arg){ .value = t->argstore[t->nargs], .size = size };
    t->nargs++;
}

void tc_arg_u32(tctx *t, uint32_t v) { arg_bytes(t, &v, 4); }
void tc_arg_f32(tctx *t, float v) { arg_bytes(t, &v, 4); }
void tc_arg_f64(tctx *t, double v) { arg_bytes(t, &v, 8); }
void tc_arg_local(tctx *t, uint32_t bytes)
{
    t->args[t->nargs] = (umb_rdna3_arg){ .value = NULL, .size = bytes };
    t->nargs++;
}

/* Every buffer's bytes, in one allocation. */
static uint8_t *snapshot(tctx *t)
{
    size_t total = 0;
    for (uint32_t i = 0; i < t->nbufs; i++) total += t->bufsize[i];
    uint8_t *p = tc_alloc(total + 1), *q = p;
    for (uint32_t i = 0; i < t->nbufs; i++, q += t->bufsize[i - 1]) tc_read(t, t->bufs[i], q, t->bufsize[i]);
    return p;
}

static void restore(tctx *t, const uint8_t *p)
{
    for (uint32_t i = 0; i < t->nbufs; p += t->bufsize[i], i++)
        if (umb_mem_copy_to_device(t->dev, t->bufs[i], p, t->bufsize[i])) fatal(t, "buffer restore");
}

/* The statistics a launch's JSON holds, but for the host time: the same numbers in both modes. */
static bool same_stats(umb_stats a, umb_stats b)
{
    a.host_seconds = b.host_seconds = 0;
    return !memcmp(&a, &b, sizeof a);
}

/* UMBRA_CORPUS_JIT_DIFF: the launch in the interpreter, then again from the same inputs with the
 * translator (--jit=always): every buffer byte and every statistic must be the same, and the
 * status and error text. */
static umb_status launch_jit_diff(tctx *t, umb_rdna3_dispatch *d)
{
    uint8_t *in = snapshot(t);
    umb_stats sa = { 0 }, sb = { 0 };
    d->jit = UMB_RDNA3_JIT_OFF;
    umb_status st_a = umb_rdna3_run(t->dev, t->prog, d, &sa);
    char err_a[1024];
    snprintf(err_a, sizeof err_a, "%s", st_a ? umb_device_last_error(t->dev) : "");
    uint8_t *out_a = snapshot(t);
    restore(t, in);
    d->jit = UMB_RDNA3_JIT_ALWAYS;
    umb_status st_b = umb_rdna3_run(t->dev, t->prog, d, &sb);
    uint8_t *out_b = snapshot(t);
    size_t total = 0;
    for (uint32_t i = 0; i < t->nbufs; i++) total += t->bufsize[i];
    if (st_a != st_b || (st_a && strcmp(err_a, umb_device_last_error(t->dev)))) {
        fprintf(stderr, "FAIL %s: jit diff: launch %d: status %s '%s' (interpreter) vs %s '%s' (translated)\n",
                t->kernel, t->jit_launches, umb_status_name(st_a), err_a, umb_status_name(st_b),
                st_b ? umb_device_last_error(t->dev) : "");
        t->failures++;
    }
    if (memcmp(out_a, out_b, total)) {
        size_t i = 0;
        while (out_a[i] == out_b[i]) i++;
        fprintf(stderr, "FAIL %s: jit diff: launch %d: buffer bytes differ from byte %zu\n", t->kernel,
                t->jit_launches, i);
        t->failures++;
    }
    if (!same_stats(sa, sb)) {
        fprintf(stderr, "FAIL %s: jit diff: launch %d: statistics differ (warp_insts %llu vs %llu, thread_insts %llu vs %llu)\n",
                t->kernel, t->jit_launches, (unsigned long long)sa.warp_insts, (unsigned long long)sb.warp_insts,
                (unsigned long long)sa.thread_insts, (unsigned long long)sb.thread_insts);
        t->failures++;
    }
    t->jit_launches++;
    umb_stats_add(&t->stats, &sb);
    free(in);
    free(out_a);
    free(out_b);
    return st_b;
}

bool tc_launch(tctx *t, uint32_t dim, uint64_t gx, uint64_t gy, uint64_t gz, uint32_t lx, uint32_t ly, uint32_t lz)
{
    umb_rdna3_dispatch d = {
        .kernel = t->kernel,
        .work_dim = dim,
        .global_size = { gx, gy, gz },
        .local_size = { lx, ly, lz },
        .global_offset = { t->global_offset[0], t->global_offset[1], t->global_offset[2] },
        .args = t->args,
        .nargs = t->nargs,
        .check_waitcnt = getenv("UMBRA_CHECK_WAITCNT") != NULL,
    };
    umb_status st = t->jit_diff ? launch_jit_diff(t, &d) : umb_rdna3_run(t->dev, t->prog, &d, &t->stats);
    t->nargs = 0;
    if (st) {
        fprintf(stderr, "FAIL %s: launch: %s: %s\n", t->kernel, umb_status_name(st), umb_device_last_error(t->dev));
        t->failures++;
        return false;
    }
    return true;
}

void tc_read(tctx *t, uint64_t addr, void *dst, size_t size)
{
    if (umb_mem_copy_from_device(t->dev, addr, dst, size)) fatal(t, "read back");
}

static bool report(tctx *t, const char *what, size_t i, size_t *bad, const char *fmt_got_want)
{
    if (++*bad <= 8) fprintf(stderr, "FAIL %s: %s[%zu]: %s\n", t->kernel, what, i, fmt_got_want);
    return true;
}

static void summary(tctx *t, const char *what, size_t bad, size_t n)
{
    if (bad) {
        fprintf(stderr, "FAIL %s: %s: %zu of %zu values differ\n", t->kernel, what, bad, n);
        t->failures++;
    } else {
        printf("ok   %s: %s: %zu values\n", t->kernel, what, n);
    }
}

void tc_check_u32(tctx *t, const char *what, const uint32_t *got, const uint32_t *want, size_t n)
{
    size_t bad = 0;
    char m[96];
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            snprintf(m, sizeof m, "got 0x%08" PRIx32 ", want 0x%08" PRIx32, got[i], want[i]);
            report(t, what, i, &bad, m);
        }
    summary(t, what, bad, n);
}

void tc_check_u64(tctx *t, const char *what, const uint64_t *got, const uint64_t *want, size_t n)
{
    size_t bad = 0;
    char m[96];
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            snprintf(m, sizeof m, "got 0x%016" PRIx64 ", want 0x%016" PRIx64, got[i], want[i]);
            report(t, what, i, &bad, m);
        }
    summary(t, what, bad, n);
}

/* Distance in units in the last place: map the floats onto a monotonic integer line. */
static int64_t ord32(float f)
{
    int32_t i;
    memcpy(&i, &f, 4);
    return i < 0 ? -(int64_t)(i & 0x7fffffff) : i;
}
static int64_t ord64(double f)
{
    int64_t i;
    memcpy(&i, &f, 8);
    return i < 0 ? -(i & INT64_MAX) : i;
}
static int64_t ord16(uint16_t h) { return (h & 0x8000) ? -(int64_t)(h & 0x7fff) : h; }
static uint64_t dist(int64_t a, int64_t b) { return a > b ? (uint64_t)(a - b) : (uint64_t)(b - a); }

void tc_check_f32(tctx *t, const char *what, const float *got, const float *want, size_t n, uint32_t ulps)
{
    size_t bad = 0;
    char m[128];
    for (size_t i = 0; i < n; i++) {
        if (isnan(got[i]) && isnan(want[i])) continue;
        uint64_t d = dist(ord32(got[i]), ord32(want[i]));
        if (isnan(got[i]) || isnan(want[i]) || d > ulps) {
            snprintf(m, sizeof m, "got %.9g, want %.9g (%" PRIu64 " ulp, bound %u)", got[i], want[i], d, ulps);
            report(t, what, i, &bad, m);
        }
    }
    summary(t, what, bad, n);
}

void tc_check_f32_scaled(tctx *t, const char *what, const float *got, const double *want, const double *scale,
                         size_t n, uint32_t ulps)
{
    size_t bad = 0;
    char m[160];
    for (size_t i = 0; i < n; i++) {
        double s = fabs(scale[i]) > 1e-30 ? fabs(scale[i]) : 1e-30;
        double ulp = ldexp(1.0, ilogb(s) - 23);
        double err = fabs((double)got[i] - want[i]);
        if (!(err <= ulps * ulp)) {
            snprintf(m, sizeof m, "got %.9g, want %.9g (error %.3g = %.1f ulp of %.3g, bound %u)", got[i], want[i],
                     err, err / ulp, s, ulps);
            report(t, what, i, &bad, m);
        }
    }
    summary(t, what, bad, n);
}

void tc_check_f64(tctx *t, const char *what, const double *got, const double *want, size_t n, uint32_t ulps)
{
    size_t bad = 0;
    char m[128];
    for (size_t i = 0; i < n; i++) {
        if (isnan(got[i]) && isnan(want[i])) continue;
        uint64_t d = dist(ord64(got[i]), ord64(want[i]));
        if (isnan(got[i]) || isnan(want[i]) || d > ulps) {
            snprintf(m, sizeof m, "got %.17g, want %.17g (%" PRIu64 " ulp, bound %u)", got[i], want[i], d, ulps);
            report(t, what, i, &bad, m);
        }
    }
    summary(t, what, bad, n);
}

void tc_check_f16(tctx *t, const char *what, const uint16_t *got, const uint16_t *want, size_t n, uint32_t ulps)
{
    size_t bad = 0;
    char m[128];
    for (size_t i = 0; i < n; i++) {
        uint64_t d = dist(ord16(got[i]), ord16(want[i]));
        if (d > ulps) {
            snprintf(m, sizeof m, "got 0x%04x (%g), want 0x%04x (%g) (%" PRIu64 " ulp, bound %u)", got[i],
                     tc_f16_to_f32(got[i]), want[i], tc_f16_to_f32(want[i]), d, ulps);
            report(t, what, i, &bad, m);
        }
    }
    summary(t, what, bad, n);
}

uint16_t tc_f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t ax = x & 0x7fffffff;
    if (ax >= 0x7f800000) return sign | (ax > 0x7f800000 ? 0x7e00 : 0x7c00);
    if (ax >= 0x477ff000) return sign | 0x7c00;             /* rounds to >= 65520: infinity */
    if (ax < 0x38800000) {                                    /* subnormal half (or zero) */
        float a;
        memcpy(&a, &ax, 4);
        /* a * 2^24 rounded to nearest even integer = the subnormal's mantissa */
        return sign | (uint16_t)lrintf(a * 16777216.0f);
    }
    uint32_t mant = ax & 0x7fffff, exp = (ax >> 23) - 112;   /* rebias 127 -> 15 */
    uint32_t h = exp << 10 | mant >> 13, rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) h++;   /* carries into the exponent correctly */
    return sign | (uint16_t)h;
}

float tc_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 31, m = h & 0x3ff;
    float f;
    if (e == 0) {
        f = ldexpf((float)m, -24);
        return sign ? -f : f;
    }
    uint32_t x = sign | (e == 31 ? 0x7f800000 | m << 13 : (e + 112) << 23 | m << 13);
    memcpy(&f, &x, 4);
    return f;
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: rdna3_corpus SRC_DIR BUILD_OPTIONS WORK_DIR KERNEL OPT WAVE\n");
        return 2;
    }
    const char *src_dir = argv[1], *options = argv[2], *work = argv[3], *name = argv[4];
    int opt = atoi(argv[5]);
    uint32_t wave = (uint32_t)atoi(argv[6]);
    const tcase *c = NULL;
    const struct { const tcase *cases; size_t n; } tables[] = {
        { tc_cases_basic, tc_ncases_basic }, { tc_cases_math, tc_ncases_math }, { tc_cases_misc, tc_ncases_misc },
        { tc_cases_image, tc_ncases_image } };
    for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++)
        for (size_t i = 0; i < tables[k].n; i++)
            if (!strcmp(tables[k].cases[i].name, name)) c = &tables[k].cases[i];
    if (!c) {
        fprintf(stderr, "no case '%s'\n", name);
        return 2;
    }
    char src[1024], co[1024], err[1024];
    snprintf(src, sizeof src, "%s/%s.cl", src_dir, name);
    /* UMBRA_CORPUS_TAG keeps variants of one (kernel, -O, wave) that may run at once apart */
    const char *tag = getenv("UMBRA_CORPUS_TAG");
    snprintf(co, sizeof co, "%s/%s.O%d.w%u%s%s.co", work, name, opt, wave, tag ? "." : "", tag ? tag : "");
    umb_rdna3_cc_options o = { .input = src, .output = co, .opt_level = opt, .wave64 = wave == 64, .build_options = options };
    if (umb_rdna3_compile(&o, err, sizeof err)) {
        fprintf(stderr, "FAIL %s: compile: %s\n", name, err);
        return 1;
    }
    tctx t = { .kernel = name, .wave = wave, .opt = opt, .rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)strlen(name) * 977 };
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    cfg.max_instructions = 4000000000ull;
    /* UMBRA_HOST_THREADS=N: N host threads (and 2N compute units) run workgroups concurrently */
    const char *ht = getenv("UMBRA_HOST_THREADS");
    if (ht && atoi(ht) > 0) cfg.host_threads = (uint32_t)atoi(ht), cfg.compute_units = 2 * cfg.host_threads;
    /* UMBRA_TIMING=MACHINE: run under the timing model (same checks: results must not change) */
    const char *machine = getenv("UMBRA_TIMING");
    umb_timing *timing = NULL;
    if (machine && umb_timing_create(machine, &timing, err, sizeof err)) {
        fprintf(stderr, "FAIL %s: timing model: %s\n", name, err);
        return 1;
    }
    cfg.timing = timing;
    if (umb_device_create(&cfg, &t.dev)) {
        fprintf(stderr, "FAIL %s: no device\n", name);
        return 1;
    }
    if (umb_rdna3_program_load_file(t.dev, co, &t.prog, err, sizeof err)) {
        fprintf(stderr, "FAIL %s: load: %s\n", name, err);
        return 1;
    }
    const umb_rdna3_kernel_info *ki = umb_rdna3_program_find_kernel(t.prog, name);
    if (!ki || ki->wavefront_size != wave) {
        fprintf(stderr, "FAIL %s: kernel missing or built for the wrong wave size\n", name);
        return 1;
    }
    t.jit_diff = getenv("UMBRA_CORPUS_JIT_DIFF") != NULL;
    c->run(&t);
    if (t.jit_diff) printf("%s -O%d wave%u: %d launches bit-identical with the translator\n", name, opt, wave, t.jit_launches);
    printf("%s -O%d wave%u: %" PRIu64 " wave-instructions, %" PRIu64 " workgroups, %.3f s\n", name, opt, wave,
           t.stats.warp_insts, t.stats.workgroups, t.stats.host_seconds);
    if (timing) umb_timing_write_text(timing, stdout);
    /* UMBRA_TIMING_JSON=FILE: the model's statistics JSON too (tests/timing/threads_same.py) */
    const char *json_path = getenv("UMBRA_TIMING_JSON");
    FILE *json = timing && json_path ? fopen(json_path, "w") : NULL;
    if (json) {
        umb_timing_write_json(timing, json, 1);
        fclose(json);
    }
    umb_rdna3_program_destroy(t.prog);
    for (uint32_t i = 0; i < t.nbufs; i++) umb_mem_free(t.dev, t.bufs[i]);
    umb_device_destroy(t.dev);
    umb_timing_destroy(timing);
    if (t.failures) {
        fprintf(stderr, "FAIL %s -O%d wave%u: %d check(s) failed\n", name, opt, wave, t.failures);
        return 1;
    }
    printf("PASS %s -O%d wave%u\n", name, opt, wave);
    return 0;
}
