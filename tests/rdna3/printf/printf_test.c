/* printf on RDNA3: kernels of printf_kernels.cl compiled by umb_rdna3_compile (AMD's device
 * libraries), run through the library with a capturing callback; the expected text is made by the
 * host's C printf from the same formats and values (the oracle: C printf itself).
 *
 *   printf_test SRC_DIR WORK_DIR CASE OPT WAVE     CASE: conversions vectors many full fault
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "umbra/rdna3.h"
#include "umbra/umbra.h"

typedef struct capture {
    char *text;
    size_t len, cap;
    uint32_t records;
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
    c->records++;
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

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { fprintf(stderr, "FAIL: " __VA_ARGS__); fputc('\n', stderr); failures++; } } while (0)

static umb_device *dev;
static umb_rdna3_program *prog;

static umb_status run(const char *kernel, uint64_t global, uint32_t local, const umb_rdna3_arg *args, uint32_t nargs,
                      uint64_t printf_size, capture *cap)
{
    umb_rdna3_dispatch d = { .kernel = kernel, .work_dim = 1, .global_size = { global }, .local_size = { local },
                             .args = args, .nargs = nargs, .printf_buffer_size = printf_size,
                             .printf_fn = on_printf, .printf_ctx = cap };
    return umb_rdna3_run(dev, prog, &d, NULL);
}

static void compare(const char *what, const capture *got, const text *want)
{
    if (got->len == want->len && !memcmp(got->text, want->s, want->len)) return;
    size_t i = 0;
    while (i < got->len && i < want->len && got->text[i] == want->s[i]) i++;
    size_t line = i;
    while (line > 0 && want->s[line - 1] != '\n') line--;
    fprintf(stderr, "FAIL %s: output differs at byte %zu\n  got:  %.120s\n  want: %.120s\n", what, i,
            got->text ? got->text + line : "", want->s + line);
    failures++;
}

/* ---- conversions: every scalar conversion, flags, widths, precisions, length modifiers ---- */
static void case_conversions(void)
{
    enum { N = 40, BASE = 7 };
    int32_t base = BASE;
    umb_rdna3_arg a = { &base, 4 };
    capture cap = { 0 };
    CHECK(run("conversions", N, 8, &a, 1, 0, &cap) == UMB_OK, "conversions: %s", umb_device_last_error(dev));
    text want = { 0 };
    /* records come in allocation order: per wave in program order, waves of one workgroup
     * interleaved; compare per work-item instead of globally */
    for (int g = 0; g < N; g++) {
        int i = g * 37 - 100 + BASE;
        uint32_t u = (uint32_t)g * 2654435761u;
        long long l = (long long)g * -1234567890123LL;
        unsigned long long ul = (unsigned long long)g * 0x9e3779b97f4a7c15ULL;
        float f = (float)g * 1.25f - 3.0f;
        double d = (double)g * -2.5e10 + 0.125;
        add(&want, "%d %i %u %x %X %o|%5d|%-5d|%05d|%+d|% d|%#x|%#o\n", i, i, u, u, u, u, i, i, i, i, i, u, u);
        add(&want, "%c%c %s|%-6s|%6s|%.2s|%s|\n", 'A' + g % 26, 'a' + g % 26, "str", "ab", "cd", "xyz", "");
        add(&want, "%f %e %g %a %E %G %.3f|%10.2e|%-12.4g|%+f\n", f, f, f, f, f, f, f, f, f, f);
        add(&want, "%f %e %g %a %.10f\n", d, d, d, d, d);
        add(&want, "%hhd %hd %hhu %hu %lld %llu %llx %llo %% literal\n", (signed char)i, (short)i, (unsigned char)u,
            (unsigned short)u, l, ul, ul, ul);
        add(&want, "%p %s\n", (void *)(uintptr_t)(0x1000 + g * 16), "a longer constant string: 123");
    }
    /* sort both by line to compare as multisets, then check per-work-item order separately */
    CHECK(cap.records == 6u * N, "conversions: %u records, want %u", cap.records, 6u * N);
    /* every line of the output must be one of the expected, and vice versa, with multiplicity */
    size_t nl = 0;
    char **gl = NULL, **wl = NULL, *copies[2] = { NULL, NULL };
    for (int pass = 0; pass < 2; pass++) {
        char *copy = copies[pass] = strdup(pass ? want.s : (cap.text ? cap.text : ""));
        char ***lines = pass ? &wl : &gl;
        size_t n = 0;
        for (char *save, *tok = strtok_r(copy, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save)) {
            *lines = realloc(*lines, (n + 1) * sizeof **lines);
            (*lines)[n++] = tok;
        }
        if (pass == 0) nl = n;
        else CHECK(n == nl, "conversions: %zu lines, want %zu", nl, n);
    }
    for (size_t i = 0; i < nl; i++) {
        bool found = false;
        for (size_t j = 0; j < nl && !found; j++)
            if (wl[j] && !strcmp(gl[i], wl[j])) found = true, wl[j] = NULL;
        CHECK(found, "conversions: unexpected line '%s'", gl[i]);
        if (!found) break;
    }
    free(cap.text), free(want.s), free(gl), free(wl), free(copies[0]), free(copies[1]);
}

/* ---- vectors: %vN with every length modifier, elements joined by ',' ---- */
static void join(text *t, const char *fmt, int n, const double *v, bool is_float)
{
    for (int i = 0; i < n; i++) {
        if (i) add(t, ",");
        if (is_float) add(t, fmt, v[i]);
        else add(t, fmt, (long long)v[i]);
    }
}

static void case_vectors(void)
{
    enum { N = 5 };
    capture cap = { 0 };
    CHECK(run("vectors", N, N, NULL, 0, 0, &cap) == UMB_OK, "vectors: %s", umb_device_last_error(dev));
    text want = { 0 };
    for (int g = 0; g < N; g++) {
        float f4[4] = { (float)g, g + 0.5f, (float)-g, 1.0f / (float)(g + 1) };
        double df4[4] = { f4[0], f4[1], f4[2], f4[3] };
        double i2[2] = { g, -g };
        double c4[4] = { (signed char)g, (signed char)-g, 100, -100 };
        double c2[2] = { (signed char)(g * 3), -7 };
        double s8[8] = { g, -g, 2 * g, -2 * g, 300, -300, 32767, -32768 };
        double u16[16] = { g, g + 1, g + 2, g + 3, 4, 5, 6, 7, 8, 9, 10, 11, 200, 250, 255, 0 };
        double d2[2] = { g * 0.25, -1e300 };
        double f3[3] = { 1.5, -g, 0.0 };
        double h4[4] = { g, 0.5, -2.0, 1024.0 };   /* 1024.25 rounds to 1024 in half */
        join(&want, "%f", 4, df4, true), add(&want, "|");
        join(&want, "%lld", 2, i2, false), add(&want, "|");
        join(&want, "%lld", 4, c4, false), add(&want, "|");
        join(&want, "%lld", 2, c2, false), add(&want, "|");
        join(&want, "%lld", 8, s8, false), add(&want, "|");
        join(&want, "%llx", 16, u16, false), add(&want, "|");
        add(&want, "%lld,%lld|", (long long)g << 40, -((long long)g << 33));
        join(&want, "%f", 2, d2, true), add(&want, "|");
        join(&want, "%f", 3, f3, true), add(&want, "|");
        join(&want, "%f", 4, h4, true), add(&want, "|");
        join(&want, "%e", 4, df4, true), add(&want, "\n");
    }
    compare("vectors", &cap, &want);   /* one workgroup, one printf per work-item: lane order */
    free(cap.text), free(want.s);
}

/* Parse "a G", "b G G*G", "c -G" lines: every work-item's three lines present once, in order. */
static void check_many(const char *what, const capture *cap, int n, bool complete)
{
    int *seen = calloc((size_t)n, sizeof *seen);
    const char *p = cap->text ? cap->text : "";
    int lines = 0;
    while (*p) {
        char kind;
        int g, sq;
        if (sscanf(p, "%c %d", &kind, &g) != 2) break;
        if (kind == 'c') g = -g;
        bool ok = g >= 0 && g < n && ((kind == 'a' && seen[g] == 0) || (kind == 'b' && seen[g] == 1) ||
                                      (kind == 'c' && seen[g] == 2));
        if (kind == 'b') ok = ok && sscanf(p, "b %*d %d", &sq) == 1 && sq == g * g;
        CHECK(ok, "%s: line %d '%.20s' out of order or wrong", what, lines, p);
        if (!ok) break;
        seen[g]++;
        lines++;
        p = strchr(p, '\n');
        if (!p) break;
        p++;
    }
    if (complete) {
        for (int g = 0; g < n; g++) CHECK(seen[g] == 3, "%s: work-item %d printed %d of its 3 lines", what, g, seen[g]);
        CHECK(lines == 3 * n, "%s: %d lines, want %d", what, lines, 3 * n);
    }
    free(seen);
}

static void case_many(void)
{
    enum { N = 1000 };
    capture cap = { 0 };
    CHECK(run("many", N, 128, NULL, 0, 0, &cap) == UMB_OK, "many: %s", umb_device_last_error(dev));
    check_many("many", &cap, N, true);
    free(cap.text);
}

/* A buffer with room for a few records: the ones that fit are printed, the rest lost, and stderr
 * says the buffer was full. */
static void case_full(const char *work)
{
    enum { N = 64, SIZE = 8 + 200 };
    capture cap = { 0 };
    char path[1024];
    snprintf(path, sizeof path, "%s/full.stderr.%d", work, (int)getpid());
    /* the library's warning goes to stderr: point fd 2 at a file for the run */
    fflush(stderr);
    int saved = dup(2), fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    if (saved < 0 || fd < 0 || dup2(fd, 2) < 0) abort();
    close(fd);
    umb_status st = run("many", N, 64, NULL, 0, SIZE, &cap);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    CHECK(st == UMB_OK, "full: %s", umb_device_last_error(dev));
    /* records are 8 ("a %d"), 12 ("b %d %d") and 8 ("c %d") bytes: at most 200 bytes of them */
    size_t bytes = 0;
    for (const char *p = cap.text ? cap.text : ""; *p; p = strchr(p, '\n') + 1) bytes += *p == 'b' ? 12 : 8;
    CHECK(bytes <= 200 && bytes > 200 - 12, "full: %zu bytes of records printed (want 189..200)", bytes);
    check_many("full", &cap, N, false);
    FILE *f = fopen(path, "r");
    char msg[512] = "";
    if (f) {
        size_t n = fread(msg, 1, sizeof msg - 1, f);
        msg[n] = '\0';
        fclose(f);
    }
    unlink(path);
    CHECK(strstr(msg, "printf buffer (208 bytes) is full") != NULL, "full: stderr says '%s'", msg);
    free(cap.text);
}

/* A kernel that prints and then faults: its records reach the callback before umb_rdna3_run
 * returns the fault. */
static void case_fault(void)
{
    enum { N = 32 };
    uint64_t buf;
    CHECK(umb_mem_alloc(dev, 4096, 4096, &buf) == UMB_OK, "fault: alloc");
    umb_rdna3_arg a = { &buf, 8 };
    capture cap = { 0 };
    umb_status st = run("print_then_fault", N, N, &a, 1, 0, &cap);
    CHECK(st == UMB_ERR_GUEST_FAULT, "fault: status %s", umb_status_name(st));
    CHECK(strstr(umb_device_last_error(dev), "unmapped") != NULL, "fault: message '%s'", umb_device_last_error(dev));
    text want = { 0 };
    for (int g = 0; g < N; g++) add(&want, "before %d\n", g);
    compare("fault", &cap, &want);
    free(cap.text), free(want.s);
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: printf_test SRC_DIR WORK_DIR CASE OPT WAVE\n");
        return 2;
    }
    const char *src_dir = argv[1], *work = argv[2], *which = argv[3];
    int opt = atoi(argv[4]);
    bool wave64 = atoi(argv[5]) == 64;
    char src[1024], co[1024], err[1024];
    snprintf(src, sizeof src, "%s/printf_kernels.cl", src_dir);
    snprintf(co, sizeof co, "%s/printf.%s.O%d.w%d.co", work, which, opt, wave64 ? 64 : 32);
    umb_rdna3_cc_options o = { .input = src, .output = co, .opt_level = opt, .wave64 = wave64 };
    if (umb_rdna3_compile(&o, err, sizeof err)) return fprintf(stderr, "FAIL compile: %s\n", err), 1;
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    cfg.compute_units = 4;
    if (umb_device_create(&cfg, &dev) || umb_rdna3_program_load_file(dev, co, &prog, err, sizeof err))
        return fprintf(stderr, "FAIL load: %s\n", err), 1;
    if (!strcmp(which, "conversions")) case_conversions();
    else if (!strcmp(which, "vectors")) case_vectors();
    else if (!strcmp(which, "many")) case_many();
    else if (!strcmp(which, "full")) case_full(work);
    else if (!strcmp(which, "fault")) case_fault();
    else return fprintf(stderr, "no case '%s'\n", which), 2;
    umb_rdna3_program_destroy(prog);
    umb_device_destroy(dev);
    if (!failures) printf("printf %s -O%d wave%d: ok\n", which, opt, wave64 ? 64 : 32);
    return failures ? 1 : 0;
}
