/* amdmem test harness (see amt.h). */
#include "amt.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef AMT_LLVM_MC
#define AMT_LLVM_MC "llvm-mc-19"
#endif

void amt_fail(amt *t, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s (%s:%d): ", t->name, file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    t->fails++;
}

void amt_begin(amt *t, unsigned wave_size)
{
    amt_end(t);
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    if (umb_device_create(&cfg, &t->dev) != UMB_OK ||
        umb_rdna3_step_create(t->dev, wave_size, &t->s) != UMB_OK) {
        fprintf(stderr, "cannot create a device / stepper\n");
        exit(2);
    }
    t->wave_size = wave_size;
}

void amt_end(amt *t)
{
    if (t->s) umb_rdna3_step_destroy(t->s);
    if (t->dev) umb_device_destroy(t->dev);
    t->s = NULL;
    t->dev = NULL;
}

/* Parse "encoding: [0x01,0x02,...]" of every instruction llvm-mc prints, and the words of
 * ".long" lines (raw encodings the assembler would refuse, written as data). */
static size_t parse_encodings(FILE *f, uint8_t *out, size_t cap)
{
    char line[1024];
    size_t n = 0;
    while (fgets(line, sizeof line, f)) {
        char *p = strstr(line, "encoding: [");
        if (!p) {
            char *q = strstr(line, ".long");
            if (!q || n + 4 > cap) continue;
            uint32_t w = (uint32_t)strtoul(q + 5, NULL, 0);
            memcpy(out + n, &w, 4);
            n += 4;
            continue;
        }
        p += strlen("encoding: [");
        while (*p && *p != ']') {
            char *end;
            unsigned long b = strtoul(p, &end, 16);
            if (end == p || n >= cap) break;
            out[n++] = (uint8_t)b;
            p = end;
            while (*p == ',' || *p == ' ') p++;
        }
    }
    return n;
}

/* One instruction per non-empty source line (".long a, b" is one 8-byte instruction). */
static unsigned count_lines(const char *src)
{
    unsigned n = 0;
    bool text = false;
    for (const char *p = src;; p++) {
        if (*p == '\n' || *p == 0) {
            n += text;
            text = false;
            if (!*p) break;
        } else if (*p != ' ' && *p != '\t') {
            text = true;
        }
    }
    return n;
}

void amt_code(amt *t, const char *fmt, ...)
{
    char src[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(src, sizeof src, fmt, ap);
    va_end(ap);
    char in_path[] = "/tmp/amtXXXXXX";
    int fd = mkstemp(in_path);
    if (fd < 0 || write(fd, src, strlen(src)) != (ssize_t)strlen(src) || write(fd, "\n", 1) != 1) {
        fprintf(stderr, "cannot write a temporary file\n");
        exit(2);
    }
    close(fd);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s -triple=amdgcn -mcpu=gfx1100 -show-encoding %s", AMT_LLVM_MC, in_path);
    FILE *p = popen(cmd, "r");
    uint8_t code[8192];
    size_t n = p ? parse_encodings(p, code, sizeof code) : 0;
    t->ninsts = count_lines(src);
    int rc = p ? pclose(p) : -1;
    unlink(in_path);
    if (rc != 0 || n == 0 || (n & 3u)) {
        fprintf(stderr, "FAIL %s: llvm-mc could not assemble:\n%s\n", t->name, src);
        exit(1);
    }
    if (umb_rdna3_step_load(t->s, code, n) != UMB_OK) {
        fprintf(stderr, "FAIL %s: cannot load the code\n", t->name);
        exit(1);
    }
}

/* Every run starts at the first instruction, so a test can change inputs and run again. */
umb_status amt_run(amt *t)
{
    umb_rdna3_step_set_pc(t->s, UMB_RDNA3_STEP_CODE_BASE);
    return umb_rdna3_step_run(t->s, t->ninsts, NULL);
}
umb_status amt_rerun(amt *t) { return amt_run(t); }
const char *amt_error(amt *t) { return umb_rdna3_step_error(t->s); }

void amt_map(amt *t, uint64_t addr, uint64_t size)
{
    if (umb_mem_map(t->dev, addr, size) != UMB_OK) {
        fprintf(stderr, "cannot map 0x%llx\n", (unsigned long long)addr);
        exit(2);
    }
}

static void wr(amt *t, uint64_t a, const void *p, unsigned n)
{
    if (umb_mem_copy_to_device(t->dev, a, p, n) != UMB_OK) amt_fail(t, __FILE__, __LINE__, "host write 0x%llx", (unsigned long long)a);
}
static void rd(amt *t, uint64_t a, void *p, unsigned n)
{
    memset(p, 0, n);
    if (umb_mem_copy_from_device(t->dev, a, p, n) != UMB_OK) amt_fail(t, __FILE__, __LINE__, "host read 0x%llx", (unsigned long long)a);
}
void amt_w8(amt *t, uint64_t a, uint8_t v) { wr(t, a, &v, 1); }
void amt_w32(amt *t, uint64_t a, uint32_t v) { wr(t, a, &v, 4); }
void amt_w64(amt *t, uint64_t a, uint64_t v) { wr(t, a, &v, 8); }
uint8_t amt_r8(amt *t, uint64_t a) { uint8_t v; rd(t, a, &v, 1); return v; }
uint16_t amt_r16(amt *t, uint64_t a) { uint16_t v; rd(t, a, &v, 2); return v; }
uint32_t amt_r32(amt *t, uint64_t a) { uint32_t v; rd(t, a, &v, 4); return v; }
uint64_t amt_r64(amt *t, uint64_t a) { uint64_t v; rd(t, a, &v, 8); return v; }
void amt_lds_w32(amt *t, uint32_t a, uint32_t v)
{
    if (umb_rdna3_step_lds_write(t->s, a, &v, 4) != UMB_OK) amt_fail(t, __FILE__, __LINE__, "LDS write 0x%x", a);
}
uint32_t amt_lds_r32(amt *t, uint32_t a)
{
    uint32_t v = 0;
    if (umb_rdna3_step_lds_read(t->s, a, &v, 4) != UMB_OK) amt_fail(t, __FILE__, __LINE__, "LDS read 0x%x", a);
    return v;
}

void amt_s(amt *t, unsigned n, uint32_t v) { umb_rdna3_step_set_sgpr(t->s, n, v); }
uint32_t amt_gs(amt *t, unsigned n) { return umb_rdna3_step_get_sgpr(t->s, n); }
void amt_s64(amt *t, unsigned n, uint64_t v) { amt_s(t, n, (uint32_t)v); amt_s(t, n + 1, (uint32_t)(v >> 32)); }
void amt_v(amt *t, unsigned reg, unsigned lane, uint32_t v) { umb_rdna3_step_set_vgpr(t->s, reg, lane, v); }
void amt_vall(amt *t, unsigned reg, uint32_t v)
{
    for (unsigned l = 0; l < t->wave_size; l++) amt_v(t, reg, l, v);
}
void amt_v64(amt *t, unsigned reg, unsigned lane, uint64_t v)
{
    amt_v(t, reg, lane, (uint32_t)v);
    amt_v(t, reg + 1, lane, (uint32_t)(v >> 32));
}
uint32_t amt_gv(amt *t, unsigned reg, unsigned lane) { return umb_rdna3_step_get_vgpr(t->s, reg, lane); }
