/* RDNA3 ALU test harness (see at.h). */
#include "at.h"

#include <stdarg.h>
#include <stdlib.h>
#include <math.h>
#include <unistd.h>

void at_fail(at *t, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s (%s:%d): ", t->name ? t->name : "?", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    t->fails++;
}

void at_begin(at *t, unsigned wave_size)
{
    at_end(t);
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    if (umb_device_create(&cfg, &t->dev) != UMB_OK || umb_rdna3_step_create(t->dev, wave_size, &t->s) != UMB_OK) {
        fprintf(stderr, "cannot create device / stepper\n");
        exit(2);
    }
    t->wave_size = wave_size;
}

void at_end(at *t)
{
    if (t->s) umb_rdna3_step_destroy(t->s);
    if (t->dev) umb_device_destroy(t->dev);
    t->s = NULL;
    t->dev = NULL;
}

/* Parse "encoding: [0x01,0x02,...]" lines of llvm-mc --show-encoding. */
static size_t parse_encodings(FILE *f, uint8_t *out, size_t cap, unsigned *ninsts, char *errs, size_t errcap)
{
    char line[1024];
    size_t n = 0, el = 0;
    *ninsts = 0;
    while (fgets(line, sizeof line, f)) {
        char *e = strstr(line, "encoding: [");
        if (!e) {
            if (strstr(line, "error") && el + strlen(line) < errcap) {
                memcpy(errs + el, line, strlen(line) + 1);
                el += strlen(line);
            }
            continue;
        }
        (*ninsts)++;
        if (strstr(e, "A,") || strstr(e, ",A")) {
            snprintf(errs, errcap, "unresolved fixup (use numeric branch offsets): %s", line);
            return 0;
        }
        for (char *p = e + 11; *p && *p != ']';) {
            char *end;
            unsigned long b = strtoul(p, &end, 16);
            if (end == p) break;
            if (n < cap) out[n++] = (uint8_t)b;
            p = end;
            if (*p == ',') p++;
        }
    }
    return n;
}

void at_code(at *t, const char *fmt, ...)
{
    char src[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(src, sizeof src, fmt, ap);
    va_end(ap);
    uint8_t code[4096];
    size_t n = at_assemble(t, src, code, sizeof code, &t->ninsts);
    if (!n) return;
    if (umb_rdna3_step_load(t->s, code, n) != UMB_OK) at_fail(t, __FILE__, __LINE__, "load failed");
}

size_t at_assemble(at *t, const char *src, uint8_t *code, size_t cap, unsigned *ninsts)
{
    char path[] = "/tmp/umbra_at_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) { perror("mkstemp"); exit(2); }
    FILE *f = fdopen(fd, "w");
    fprintf(f, "%s\n", src);
    fclose(f);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s -arch=amdgcn -mcpu=gfx1100 %s --show-encoding %s 2>&1", AT_LLVM_MC,
             t->wave_size == 64 ? "-mattr=+wavefrontsize64" : "-mattr=+wavefrontsize32", path);
    FILE *p = popen(cmd, "r");
    char errs[2048] = "";
    size_t n = p ? parse_encodings(p, code, cap, ninsts, errs, sizeof errs) : 0;
    if (p) pclose(p);
    unlink(path);
    if (errs[0] || n == 0 || (n & 3u)) {
        at_fail(t, __FILE__, __LINE__, "assembler failed on:\n%s\n%s", src, errs);
        *ninsts = 0;
        return 0;
    }
    return n;
}

umb_status at_run(at *t) { return at_run_n(t, t->ninsts); }
umb_status at_run_n(at *t, uint64_t n)
{
    if (!t->ninsts) return UMB_ERR_INVALID;
    return umb_rdna3_step_run(t->s, n, NULL);
}
const char *at_error(at *t) { return umb_rdna3_step_error(t->s); }

void at_s(at *t, unsigned n, uint32_t v) { umb_rdna3_step_set_sgpr(t->s, n, v); }
void at_s64(at *t, unsigned n, uint64_t v)
{
    at_s(t, n, (uint32_t)v);
    at_s(t, n + 1, (uint32_t)(v >> 32));
}
uint32_t at_gs(at *t, unsigned n) { return umb_rdna3_step_get_sgpr(t->s, n); }
uint64_t at_gs64(at *t, unsigned n) { return at_gs(t, n) | ((uint64_t)at_gs(t, n + 1) << 32); }
void at_v(at *t, unsigned reg, unsigned lane, uint32_t v) { umb_rdna3_step_set_vgpr(t->s, reg, lane, v); }
void at_vall(at *t, unsigned reg, uint32_t v)
{
    for (unsigned l = 0; l < 64; l++) at_v(t, reg, l, v);
}
void at_v64(at *t, unsigned reg, unsigned lane, uint64_t v)
{
    at_v(t, reg, lane, (uint32_t)v);
    at_v(t, reg + 1, lane, (uint32_t)(v >> 32));
}
void at_v64all(at *t, unsigned reg, uint64_t v)
{
    for (unsigned l = 0; l < 64; l++) at_v64(t, reg, l, v);
}
uint32_t at_gv(at *t, unsigned reg, unsigned lane) { return umb_rdna3_step_get_vgpr(t->s, reg, lane); }
uint64_t at_gv64(at *t, unsigned reg, unsigned lane) { return at_gv(t, reg, lane) | ((uint64_t)at_gv(t, reg + 1, lane) << 32); }

const uint32_t at_edge32[32] = {
    0u, 1u, 2u, 3u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xfffffffeu,
    0x12345678u, 0xdeadbeefu, 31u, 32u, 33u, 0x00ffffffu, 0x00800000u, 0xff800000u,
    0x0000ffffu, 0x00008000u, 0x00007fffu, 0x80000001u, 0x55555555u, 0xaaaaaaaau, 0x0f0f0f0fu, 0x10000u,
    100u, 0xffffff9cu, 7u, 0x40000000u, 0xc0000000u, 0x01020304u, 0xfedcba98u, 16u,
};

const float at_edgef[32] = {
    0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.5f, 2.5f, -2.5f,
    INFINITY, -INFINITY, NAN, 0x1p-149f, -0x1p-149f, 0x1.fffffep127f, -0x1.fffffep127f, 0x1p-126f,
    1e10f, -1e-10f, 3.14159274f, 0.333333343f, 0x1.fffffep-1f, 100.0f, -100.5f, 65504.0f,
    7.0f, -3.75f, 0x1.8p-130f, 1e-40f, 123456.789f, -0.1f, 16777217.0f, 0.7f,
};

void at_fill_int(at *t)
{
    for (unsigned l = 0; l < 64; l++) {
        at_v(t, 1, l, AT_A(l));
        at_v(t, 2, l, AT_B(l));
        at_v(t, 3, l, AT_C(l));
        at_v(t, 0, l, 0xccccccccu);
    }
}

void at_fill_float(at *t)
{
    for (unsigned l = 0; l < 64; l++) {
        at_v(t, 1, l, fb(AT_FA(l)));
        at_v(t, 2, l, fb(AT_FB(l)));
        at_v(t, 3, l, fb(AT_FC(l)));
        at_v(t, 0, l, 0xccccccccu);
    }
}
