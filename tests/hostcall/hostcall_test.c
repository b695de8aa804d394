/* AMD's hostcall mechanism: HIP device code (kernels.hip) compiled at test time into a device-only
 * code object, run through the library. printf output is captured with printf_fn and compared
 * with what the host's C printf makes of the same formats and values; malloc/free results are
 * checked against their closed forms; failing assertions, abort, a bad free and an unknown service
 * must end the launch with the error naming them.
 *
 *   hostcall_test compile COMPILER DEVICE_LIB_DIR SRC WORK OPT WAVE   build WORK/hip.O<opt>.w<wave>.co
 *   hostcall_test CASE WORK OPT WAVE                                  run one case on it
 *
 * COMPILER is clang++-19 (flags below) or hipcc (Debian's, clang-15, code object v4).
 * CASE: print_many print_threads conversions packets malloc malloc_keep errors assert
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "umbra/rdna3.h"
#include "umbra/umbra.h"

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { fprintf(stderr, "FAIL: " __VA_ARGS__); fputc('\n', stderr); failures++; } } while (0)

/* ---- captured printf output ---- */

typedef struct capture {
    char *text;
    size_t len, cap;
    uint32_t calls;
} capture;

static void on_printf(void *ctx, const char *text, size_t len)
{
    capture *c = ctx;
    if (c->len + len + 1 > c->cap) {
        c->cap = (c->len + len + 1) * 2;
        c->text = realloc(c->text, c->cap);
        if (!c->text) abort();
    }
    memcpy(c->text + c->len, text, len);
    c->len += len;
    c->text[c->len] = '\0';
    c->calls++;
}

typedef struct text {
    char *s;
    size_t len;
} text;

__attribute__((format(printf, 2, 3))) static void add(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    t->s = realloc(t->s, t->len + (size_t)n + 1);
    if (!t->s) abort();
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

static int cmp_lines(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The lines of s (a copy, sorted); *n their number. */
static char **sorted_lines(const char *s, size_t *n, char **copy)
{
    *copy = strdup(s ? s : "");
    char **lines = NULL;
    *n = 0;
    for (char *save, *tok = strtok_r(*copy, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save)) {
        lines = realloc(lines, (*n + 1) * sizeof *lines);
        lines[(*n)++] = tok;
    }
    if (*n) qsort(lines, *n, sizeof *lines, cmp_lines);
    return lines;
}

/* Same lines with the same multiplicity, in any order. */
static void compare_lines(const char *what, const char *got, const char *want)
{
    size_t ng, nw;
    char *cg, *cw;
    char **g = sorted_lines(got, &ng, &cg), **w = sorted_lines(want, &nw, &cw);
    CHECK(ng == nw, "%s: %zu lines, want %zu", what, ng, nw);
    for (size_t i = 0; i < ng && i < nw; i++)
        if (strcmp(g[i], w[i])) {
            CHECK(0, "%s: line '%s', want '%s'", what, g[i], w[i]);
            break;
        }
    free(g), free(w), free(cg), free(cw);
}

static void compare_exact(const char *what, const capture *got, const text *want)
{
    if (got->len == want->len && !memcmp(got->text, want->s, want->len)) return;
    size_t i = 0;
    while (i < got->len && i < want->len && got->text[i] == want->s[i]) i++;
    size_t line = i;
    while (line > 0 && want->s[line - 1] != '\n') line--;
    fprintf(stderr, "FAIL %s: output differs at byte %zu\n  got:  %.160s\n  want: %.160s\n", what, i,
            got->text ? got->text + line : "", want->s + line);
    failures++;
}

/* ---- the device ---- */

static umb_device *dev;
static umb_rdna3_program *prog;

static void open_device(const char *co, uint32_t cus, uint32_t threads)
{
    char err[1024];
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    cfg.compute_units = cus;
    cfg.host_threads = threads;
    cfg.progress = false;
    if (umb_device_create(&cfg, &dev) || umb_rdna3_program_load_file(dev, co, &prog, err, sizeof err)) {
        fprintf(stderr, "FAIL load %s: %s\n", co, err);
        exit(1);
    }
}

static void close_device(void)
{
    umb_rdna3_program_destroy(prog);
    umb_device_destroy(dev);
    prog = NULL, dev = NULL;
}

static uint64_t buffer(uint64_t bytes)
{
    uint64_t a = 0;
    if (umb_mem_alloc(dev, bytes, 4096, &a)) abort();
    return a;
}

static void read_back(uint64_t addr, void *dst, uint64_t bytes)
{
    if (umb_mem_copy_from_device(dev, addr, dst, bytes)) abort();
}

static umb_status run(const char *kernel, uint64_t global, uint32_t local, const umb_rdna3_arg *args, uint32_t nargs,
                      capture *cap)
{
    umb_rdna3_dispatch d = { .kernel = kernel, .work_dim = 1, .global_size = { global }, .local_size = { local },
                             .args = args, .nargs = nargs, .printf_fn = cap ? on_printf : NULL, .printf_ctx = cap };
    return umb_rdna3_run(dev, prog, &d, NULL);
}

/* ---- cases ---- */

static void want_many(text *t, int n)
{
    for (int i = 0; i < n; i++)
        add(t, "item %d of %d: %f %s|%c|%x\n", i, n, (double)(i * 0.25f), (i & 1) ? "odd" : "even", 'a' + i % 26,
            (unsigned)(i * 7));
}

/* 256 work-items of 4 workgroups print one line each: every line once, one printf_fn call per
 * printf, and the same text in the same order when run again (one host thread). */
static void case_print_many(const char *co)
{
    enum { N = 256 };
    open_device(co, 4, 1);
    int32_t n = N;
    umb_rdna3_arg a = { &n, 4 };
    capture c1 = { 0 }, c2 = { 0 };
    CHECK(run("print_many", N, 64, &a, 1, &c1) == UMB_OK, "print_many: %s", umb_device_last_error(dev));
    CHECK(run("print_many", N, 64, &a, 1, &c2) == UMB_OK, "print_many again: %s", umb_device_last_error(dev));
    text want = { 0 };
    want_many(&want, N);
    compare_lines("print_many", c1.text, want.s);
    CHECK(c1.calls == N, "print_many: %u printf_fn calls, want %d", c1.calls, N);
    CHECK(c1.len == c2.len && !memcmp(c1.text, c2.text, c1.len), "print_many: a second run printed another order");
    /* each wave's lanes come in lane order */
    int last[N / 32 + 1];
    for (int w = 0; w <= N / 32; w++) last[w] = -1;
    for (const char *p = c1.text; p && *p; p = strchr(p, '\n') + 1) {
        int i = -1;
        sscanf(p, "item %d", &i);
        if (i < 0 || i >= N) break;
        CHECK(i > last[i / 32], "print_many: item %d after item %d of the same wave", i, last[i / 32]);
        last[i / 32] = i;
    }
    free(c1.text), free(c2.text), free(want.s);
    close_device();
}

/* Two host threads run workgroups at once: every line still once. */
static void case_print_threads(const char *co)
{
    enum { N = 512 };
    open_device(co, 8, 2);
    int32_t n = N;
    umb_rdna3_arg a = { &n, 4 };
    capture c = { 0 };
    CHECK(run("print_many", N, 64, &a, 1, &c) == UMB_OK, "print_threads: %s", umb_device_last_error(dev));
    text want = { 0 };
    want_many(&want, N);
    compare_lines("print_threads", c.text, want.s);
    free(c.text), free(want.s);
    close_device();
}

/* One CU: the buffer has 32 packets (one per wave slot), the grid 128 waves (wave32; 64 in wave64),
 * 8 workgroups resident at a time: packets are reused by later waves. */
static void case_packets(const char *co)
{
    enum { N = 4096 };
    open_device(co, 1, 1);
    int32_t n = N;
    umb_rdna3_arg a = { &n, 4 };
    capture c = { 0 };
    CHECK(run("print_many", N, 64, &a, 1, &c) == UMB_OK, "packets: %s", umb_device_last_error(dev));
    text want = { 0 };
    want_many(&want, N);
    compare_lines("packets", c.text, want.s);
    free(c.text), free(want.s);
    close_device();
}

/* Every conversion, against the host's printf; ret[k] = printf's return value, the text's length. */
static void case_conversions(const char *co)
{
    open_device(co, 1, 1);
    static const char s[] = "hello world, this string is longer than fifty-six bytes for sure";
    uint64_t sbuf = buffer(4096), rbuf = buffer(4096);
    if (umb_mem_copy_to_device(dev, sbuf, s, sizeof s)) abort();
    umb_rdna3_arg a[2] = { { &sbuf, 8 }, { &rbuf, 8 } };
    capture c = { 0 };
    CHECK(run("print_conversions", 1, 1, a, 2, &c) == UMB_OK, "conversions: %s", umb_device_last_error(dev));
    text want = { 0 };
    size_t lens[9], at = 0;
#define W(...) (add(&want, __VA_ARGS__), lens[at++] = want.len)
    W("%d %i %u %x %X %o|%5d|%-5d|%05d|%+d|% d|%#x|%#o\n", -42, 42, 42u, 0xbeefu, 0xbeefu, 8u, 7, 7, 7, 7, 7, 255u, 8u);
    W("%ld %lld %lu %hd %hhd %hu %hhu %zu %llx\n", -1234567890123L, 1234567890123LL, 18446744073709551615UL,
      (short)-2, (signed char)-3, (unsigned short)65535, (unsigned char)255, (size_t)123, 0x123456789abcdefULL);
    W("%f %.3f %10.2f %-10.1f| %e %E %g %G %a %A\n", (double)3.14159f, 2.5, -1.125, 0.5, 12345.678, 0.00012, 1e-5,
      1e20, 1.0, -0.5);
    W("%c%c%c [%s] %10s|%-10s|%.3s|%s|\n", 'x', 'y', 'z', s, "right", "left", "truncate", "");
    W("%*d|%-*d|%.*f|%*.*f|\n", 6, 42, 6, 42, 2, 3.14159, 8, 3, 2.71828);
    W("%p %p %%d 100%%\n", (void *)0x1234, (void *)0);
    W("no arguments at all\n");
    W("a constant string longer than one packet's fifty-six bytes: %s, then %d\n",
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789", 99);
    W("%s|%5.1s|%c\n", s + 5, s, s[1]);
#undef W
    compare_exact("conversions", &c, &want);
    int32_t ret[9];
    read_back(rbuf, ret, sizeof ret);
    for (int k = 0; k < 9; k++) {
        int32_t expect = (int32_t)(lens[k] - (k ? lens[k - 1] : 0));
        CHECK(ret[k] == expect, "conversions: printf %d returned %d, want %d", k, ret[k], expect);
    }
    free(c.text), free(want.s);
    close_device();
}

/* Each of 256 work-items mallocs n ints, fills, sums, frees: n = 10 (ockl's slabs, 2 MiB blocks
 * from the host) and n = 1000 (4000 bytes: one host allocation each); then malloc of 2^50 bytes
 * returns NULL and free(NULL) does nothing. */
static void case_malloc(const char *co)
{
    enum { N = 256 };
    open_device(co, 4, 1);
    uint64_t out = buffer(N * 8);
    static const int32_t sizes[] = { 10, 1000 };
    for (unsigned s = 0; s < 2; s++) {
        int32_t n = sizes[s];
        umb_rdna3_arg a[2] = { { &out, 8 }, { &n, 4 } };
        CHECK(run("malloc_sum", N, 64, a, 2, NULL) == UMB_OK, "malloc n=%d: %s", n, umb_device_last_error(dev));
        uint64_t got[N];
        read_back(out, got, sizeof got);
        for (int i = 0; i < N; i++) {
            uint64_t want = (uint64_t)n * (uint64_t)i * 1000u + (uint64_t)n * (uint64_t)(n - 1) / 2u;
            CHECK(got[i] == want, "malloc n=%d: work-item %d got %" PRIu64 ", want %" PRIu64, n, i, got[i], want);
            if (got[i] != want) break;
        }
    }
    umb_rdna3_arg h = { &out, 8 };
    CHECK(run("malloc_huge", 1, 1, &h, 1, NULL) == UMB_OK, "malloc_huge: %s", umb_device_last_error(dev));
    uint64_t r[2];
    read_back(out, r, sizeof r);
    CHECK(r[0] == 0 && r[1] == 1, "malloc_huge: malloc(2^50) = 0x%" PRIx64 " (want NULL), after free(NULL) %" PRIu64,
          r[0], r[1]);
    close_device();
}

/* Memory a kernel allocates outlives the launch: the host reads it, another launch frees it. */
static void case_malloc_keep(const char *co)
{
    enum { N = 128 };
    open_device(co, 4, 1);
    uint64_t ptrs = buffer(N * 8), sums = buffer(N * 8);
    static const int32_t sizes[] = { 6, 1500 };
    for (unsigned s = 0; s < 2; s++) {
        int32_t n = sizes[s];
        umb_rdna3_arg a[2] = { { &ptrs, 8 }, { &n, 4 } };
        CHECK(run("malloc_keep", N, 64, a, 2, NULL) == UMB_OK, "malloc_keep n=%d: %s", n, umb_device_last_error(dev));
        uint64_t p[N];
        read_back(ptrs, p, sizeof p);
        for (int i = 0; i < N; i++) {
            int32_t v[1500];
            CHECK(p[i] != 0, "malloc_keep n=%d: work-item %d got NULL", n, i);
            if (!p[i]) break;
            CHECK(umb_mem_copy_from_device(dev, p[i], v, (uint64_t)n * 4) == UMB_OK,
                  "malloc_keep n=%d: 0x%" PRIx64 " is not readable after the kernel", n, p[i]);
            bool ok = true;
            for (int k = 0; k < n; k++) ok = ok && v[k] == i + k;
            CHECK(ok, "malloc_keep n=%d: work-item %d's memory changed after the kernel", n, i);
            for (int j = 0; j < i; j++) CHECK(p[j] != p[i], "malloc_keep: work-items %d and %d got one block", j, i);
        }
        umb_rdna3_arg b[3] = { { &ptrs, 8 }, { &sums, 8 }, { &n, 4 } };
        CHECK(run("malloc_release", N, 64, b, 3, NULL) == UMB_OK, "malloc_release n=%d: %s", n,
              umb_device_last_error(dev));
        uint64_t got[N];
        read_back(sums, got, sizeof got);
        for (int i = 0; i < N; i++) {
            uint64_t want = (uint64_t)n * (uint64_t)i + (uint64_t)n * (uint64_t)(n - 1) / 2u;
            CHECK(got[i] == want, "malloc_release n=%d: work-item %d summed %" PRIu64 ", want %" PRIu64, n, i, got[i],
                  want);
            if (got[i] != want) break;
        }
    }
    close_device();
}

static void expect_error(const char *kernel, uint64_t global, uint32_t local, umb_status want_st, const char *const *parts,
                         capture *cap)
{
    uint64_t out = buffer(4096);
    umb_rdna3_arg a = { &out, 8 };
    umb_status st = run(kernel, global, local, &a, 1, cap);
    const char *msg = umb_device_last_error(dev);
    CHECK(st == want_st, "%s: status %s, want %s (%s)", kernel, umb_status_name(st), umb_status_name(want_st), msg);
    for (const char *const *p = parts; *p; p++) CHECK(strstr(msg, *p) != NULL, "%s: message without '%s': %s", kernel, *p, msg);
    umb_mem_free(dev, out);
}

/* A free of an address malloc did not return, and a service nobody provides. */
static void case_errors(const char *co)
{
    open_device(co, 4, 1);
    expect_error("free_bad", 1, 1, UMB_ERR_GUEST_FAULT,
                 (const char *const[]){ "kernel free_bad", "frees 0x10000, which device malloc did not return", NULL },
                 NULL);
    expect_error("unknown_service", 32, 32, UMB_ERR_UNSUPPORTED,
                 (const char *const[]){ "kernel unknown_service", "service 9", "umbra does not provide", NULL }, NULL);
    close_device();
}

/* assert() failing in work-item 37 (workgroup 1, lane 5), in lanes 3-6 of one wave, and abort()
 * after printing: the error names kernel, workgroup, wave, lane and the assertion's text. */
static void case_assert(const char *co)
{
    open_device(co, 4, 1);
    expect_error("assert_one", 64, 32, UMB_ERR_GUEST_FAULT,
                 (const char *const[]){ "kernel assert_one, workgroup (1,0,0), warp 0", "s_trap 2", "failed assert()",
                                        "lane 5:", "kernels.hip:", "void assert_one(int *): Device-side assertion `i != 37' failed.\"",
                                        NULL },
                 NULL);
    expect_error("assert_lanes", 32, 32, UMB_ERR_GUEST_FAULT,
                 (const char *const[]){ "kernel assert_lanes", "lane 3 (of 4 lanes that sent one)",
                                        "Device-side assertion `i < 3 || i > 6' failed.", NULL },
                 NULL);
    capture c = { 0 };
    expect_error("print_abort", 8, 8, UMB_ERR_GUEST_FAULT,
                 (const char *const[]){ "kernel print_abort, workgroup (0,0,0), warp 0", "abort()", NULL }, &c);
    text want = { 0 };
    for (int i = 0; i < 8; i++) add(&want, "before abort %d\n", i);
    compare_exact("print_abort", &c, &want);
    free(c.text), free(want.s);
    close_device();
}

/* ---- compiling ---- */

static int compile(const char *compiler, const char *devlib, const char *src, const char *co, int opt, bool wave64)
{
    char o[8], libflag[1200], libenv[1200];
    snprintf(o, sizeof o, "-O%d", opt);
    const char *argv[24];
    int n = 0;
    bool hipcc = strstr(compiler, "hipcc") != NULL;
    if (hipcc) {   /* Debian's hipcc 5.2.3 (clang-15, code object v4); -c: no host link step */
        snprintf(libenv, sizeof libenv, "DEVICE_LIB_PATH=%s", devlib);
        putenv(libenv);
        putenv("HCC_AMDGPU_TARGET=gfx1100");
        argv[n++] = compiler;
        argv[n++] = "--cuda-device-only";
        argv[n++] = "--no-gpu-bundle-output";
        argv[n++] = "-c";
    } else {
        snprintf(libflag, sizeof libflag, "--rocm-device-lib-path=%s", devlib);
        argv[n++] = compiler;
        argv[n++] = "-x";
        argv[n++] = "hip";
        argv[n++] = "--offload-arch=gfx1100";
        argv[n++] = "--rocm-path=/usr";
        argv[n++] = libflag;
        argv[n++] = "--cuda-device-only";
        argv[n++] = "--no-gpu-bundle-output";
        if (wave64) argv[n++] = "-mwavefrontsize64";
    }
    argv[n++] = o;
    argv[n++] = "-o";
    argv[n++] = co;
    argv[n++] = src;
    argv[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[0], (char *const *)argv);
        perror(argv[0]);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
        fprintf(stderr, "FAIL: %s could not compile %s\n", compiler, src);
        return 1;
    }
    printf("compiled %s\n", co);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 8 && !strcmp(argv[1], "compile")) {
        char co[1024];
        snprintf(co, sizeof co, "%s/hip.%s.O%s.w%s.co", argv[5], strstr(argv[2], "hipcc") ? "hipcc" : "clang",
                 argv[6], argv[7]);
        return compile(argv[2], argv[3], argv[4], co, atoi(argv[6]), atoi(argv[7]) == 64);
    }
    if (argc != 6) {
        fprintf(stderr, "usage: hostcall_test compile COMPILER DEVICE_LIB_DIR SRC WORK OPT WAVE\n"
                        "       hostcall_test CASE WORK clang|hipcc OPT WAVE\n");
        return 2;
    }
    const char *which = argv[1];
    char co[1024];
    snprintf(co, sizeof co, "%s/hip.%s.O%s.w%s.co", argv[2], argv[3], argv[4], argv[5]);
    static const struct { const char *name; void (*fn)(const char *); } cases[] = {
        { "print_many", case_print_many }, { "print_threads", case_print_threads }, { "packets", case_packets },
        { "conversions", case_conversions }, { "malloc", case_malloc }, { "malloc_keep", case_malloc_keep },
        { "errors", case_errors }, { "assert", case_assert },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(cases[i].name, which)) {
            cases[i].fn(co);
            if (!failures) printf("hostcall %s (%s -O%s wave%s): ok\n", which, argv[3], argv[4], argv[5]);
            return failures ? 1 : 0;
        }
    fprintf(stderr, "no case '%s'\n", which);
    return 2;
}
