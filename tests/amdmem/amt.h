/* amdmem test harness: assemble with llvm-mc-19 at test time, run through the single-step API,
 * compare with the values each test states. One binary, one CTest test per named case. */
#ifndef UMBRA_AMT_H
#define UMBRA_AMT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "umbra/device.h"
#include "umbra/rdna3_step.h"

typedef struct amt {
    umb_device *dev;
    umb_rdna3_stepper *s;
    unsigned wave_size;
    unsigned ninsts;         /* instructions of the last amt_code */
    int fails;
    const char *name;
} amt;

/* Fresh device and wave (wave32 or wave64). */
void amt_begin(amt *t, unsigned wave_size);
void amt_end(amt *t);
/* Assemble the lines (printf format) for gfx1100 and load them; aborts the test on an
 * assembler error. */
void amt_code(amt *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Run every instruction of the last amt_code; returns the status (UMB_OK unless it faulted). */
umb_status amt_run(amt *t);
/* Run the same code again from its first instruction. */
umb_status amt_rerun(amt *t);
const char *amt_error(amt *t);

void amt_map(amt *t, uint64_t addr, uint64_t size);
void amt_w8(amt *t, uint64_t addr, uint8_t v);
void amt_w32(amt *t, uint64_t addr, uint32_t v);
void amt_w64(amt *t, uint64_t addr, uint64_t v);
uint8_t amt_r8(amt *t, uint64_t addr);
uint16_t amt_r16(amt *t, uint64_t addr);
uint32_t amt_r32(amt *t, uint64_t addr);
uint64_t amt_r64(amt *t, uint64_t addr);
void amt_lds_w32(amt *t, uint32_t addr, uint32_t v);
uint32_t amt_lds_r32(amt *t, uint32_t addr);

void amt_s(amt *t, unsigned n, uint32_t v);
uint32_t amt_gs(amt *t, unsigned n);
void amt_s64(amt *t, unsigned n, uint64_t v);
void amt_v(amt *t, unsigned reg, unsigned lane, uint32_t v);
void amt_vall(amt *t, unsigned reg, uint32_t v);                   /* every lane */
void amt_v64(amt *t, unsigned reg, unsigned lane, uint64_t v);     /* v[reg:reg+1] */
uint32_t amt_gv(amt *t, unsigned reg, unsigned lane);

/* Record a failure (message names the test, file, line). */
void amt_fail(amt *t, const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#define EQ(t, got, want)                                                                             \
    do {                                                                                             \
        unsigned long long g_ = (unsigned long long)(got), w_ = (unsigned long long)(want);          \
        if (g_ != w_) amt_fail(t, __FILE__, __LINE__, "%s = 0x%llx, expected 0x%llx", #got, g_, w_); \
    } while (0)
#define OK(t, cond)                                                          \
    do {                                                                     \
        if (!(cond)) amt_fail(t, __FILE__, __LINE__, "failed: %s", #cond);   \
    } while (0)
/* The run must fault with a message containing `text`. */
#define FAULTS(t, text)                                                                             \
    do {                                                                                            \
        umb_status st_ = amt_run(t);                                                                \
        if (st_ == UMB_OK) amt_fail(t, __FILE__, __LINE__, "expected a fault containing \"%s\"", text); \
        else if (!strstr(amt_error(t), text))                                                       \
            amt_fail(t, __FILE__, __LINE__, "fault \"%s\" lacks \"%s\"", amt_error(t), text);       \
    } while (0)
#define RUNS(t)                                                                                      \
    do {                                                                                             \
        if (amt_run(t) != UMB_OK) amt_fail(t, __FILE__, __LINE__, "unexpected fault: %s", amt_error(t)); \
    } while (0)

/* Test registry: each test file lists its cases with AMT_CASES. */
typedef struct amt_case {
    const char *name;
    void (*fn)(amt *t);
} amt_case;

/* V# DST_SEL values (0, 1, or component X/Y/Z/W) and the global buffer address shared by the
 * buffer tests (t_buf.c, t_rules.c). */
#define AMT_BUF_GLOBAL 0x100000ull
#define SEL_0 0
#define SEL_1 1
#define SX 4
#define SY 5
#define SZ 6
#define SW 7

#endif
