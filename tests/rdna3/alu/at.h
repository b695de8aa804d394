/* RDNA3 ALU test harness: assemble with llvm-mc-19 at test time, run through the single-step API
 * (umbra/rdna3_step.h), compare with the values each test states. One binary; every case is its
 * own CTest test (rdna3_alu.<case>), listed from the C(...) entries of the t_*.c tables.
 *
 * Expected values are written in the tests as literal constants derived from the ISA rules, or as
 * C reference expressions evaluated by the host compiler — never read back from umbra.
 */
#ifndef UMBRA_AT_H
#define UMBRA_AT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "umbra/device.h"
#include "umbra/rdna3_step.h"

typedef struct at {
    umb_device *dev;
    umb_rdna3_stepper *s;
    unsigned wave_size;
    unsigned ninsts;         /* instructions of the last at_code */
    int fails;
    const char *name;
} at;

void at_begin(at *t, unsigned wave_size);
void at_end(at *t);
/* Assemble the lines (printf format, one instruction per line) and load them. */
void at_code(at *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Assemble src (for the harness's wave size) into code; returns the bytes (0 after a failure). */
size_t at_assemble(at *t, const char *src, uint8_t *code, size_t cap, unsigned *ninsts);
/* Run every instruction of the last at_code (or until s_endpgm). */
umb_status at_run(at *t);
umb_status at_run_n(at *t, uint64_t n);
const char *at_error(at *t);

void at_s(at *t, unsigned n, uint32_t v);
void at_s64(at *t, unsigned n, uint64_t v);
uint32_t at_gs(at *t, unsigned n);
uint64_t at_gs64(at *t, unsigned n);
void at_v(at *t, unsigned reg, unsigned lane, uint32_t v);
void at_vall(at *t, unsigned reg, uint32_t v);
void at_v64(at *t, unsigned reg, unsigned lane, uint64_t v);
void at_v64all(at *t, unsigned reg, uint64_t v);
uint32_t at_gv(at *t, unsigned reg, unsigned lane);
uint64_t at_gv64(at *t, unsigned reg, unsigned lane);

static inline uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float bf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t db(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline double bd(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

void at_fail(at *t, const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#define EQ(t, got, want)                                                                             \
    do {                                                                                             \
        unsigned long long g_ = (unsigned long long)(got), w_ = (unsigned long long)(want);          \
        if (g_ != w_) at_fail(t, __FILE__, __LINE__, "%s = 0x%llx, expected 0x%llx", #got, g_, w_);  \
    } while (0)
#define OK(t, cond)                                                          \
    do {                                                                     \
        if (!(cond)) at_fail(t, __FILE__, __LINE__, "failed: %s", #cond);    \
    } while (0)
/* f32 result equal to the reference bit pattern; any NaN matches any NaN when want is a NaN. */
#define EQF(t, got, want)                                                                            \
    do {                                                                                             \
        uint32_t g_ = (got), w_ = fb(want);                                                          \
        bool n_ = (w_ & 0x7f800000u) == 0x7f800000u && (w_ & 0x7fffffu);                             \
        bool gn_ = (g_ & 0x7f800000u) == 0x7f800000u && (g_ & 0x7fffffu);                            \
        if (n_ ? !gn_ : g_ != w_)                                                                    \
            at_fail(t, __FILE__, __LINE__, "%s = 0x%08x (%a), expected 0x%08x (%a)", #got, g_, (double)bf(g_), w_, (double)(want)); \
    } while (0)
#define EQD(t, got, want)                                                                            \
    do {                                                                                             \
        uint64_t g_ = (got), w_ = db(want);                                                          \
        bool n_ = (want) != (want), gn_ = bd(g_) != bd(g_);                                          \
        if (n_ ? !gn_ : g_ != w_)                                                                    \
            at_fail(t, __FILE__, __LINE__, "%s = 0x%016llx (%a), expected %a", #got, (unsigned long long)g_, bd(g_), (double)(want)); \
    } while (0)
#define RUNS(t)                                                                                      \
    do {                                                                                             \
        if (at_run(t) != UMB_OK) at_fail(t, __FILE__, __LINE__, "unexpected fault: %s", at_error(t)); \
    } while (0)
#define FAULTS(t, text)                                                                             \
    do {                                                                                            \
        umb_status st_ = at_run(t);                                                                 \
        if (st_ == UMB_OK) at_fail(t, __FILE__, __LINE__, "expected a fault containing \"%s\"", text); \
        else if (!strstr(at_error(t), text))                                                        \
            at_fail(t, __FILE__, __LINE__, "fault \"%s\" lacks \"%s\"", at_error(t), text);         \
    } while (0)

/* Cases that the wave64 suite (t_wave.c) runs again with 64 lanes. */
void vint_add_sub(at *t);
void vint_mul(at *t);
void vint_bits(at *t);
void vint_minmax(at *t);
void vint_16bit(at *t);
void vf32_arith(at *t);
void vf32_round(at *t);
void vf32_omod_clamp(at *t);
void vf32_minmax(at *t);
void dpp_row_patterns(at *t);

typedef struct at_case {
    const char *name;
    void (*fn)(at *t);
} at_case;
#define C(fn) {#fn, fn}

/* Each t_*.c file exports one table ending with {NULL, NULL}. */
extern const at_case at_salu_cases[], at_vint_cases[], at_vf32_cases[], at_vf64_cases[], at_vf16_cases[],
    at_cvt_cases[], at_vopc_cases[], at_dpp_cases[], at_vopd_cases[], at_lane_cases[], at_vop3p_cases[],
    at_wave_cases[], at_wmma_cases[];

#endif

/* ---- lane-pattern checks: v1/v2/v3 get edge values per lane, v0 the result ---- */
extern const uint32_t at_edge32[32];   /* integer edge cases */
extern const float at_edgef[32];       /* float edge cases (inf, NaN, denormals, ...) */
#define AT_A(l) at_edge32[(l) & 31u]
#define AT_B(l) at_edge32[((l) * 7u + 3u) & 31u]
#define AT_C(l) at_edge32[((l) * 13u + 5u) & 31u]
#define AT_FA(l) at_edgef[(l) & 31u]
#define AT_FB(l) at_edgef[((l) * 7u + 3u) & 31u]
#define AT_FC(l) at_edgef[((l) * 11u + 6u) & 31u]
void at_fill_int(at *t);     /* v1 = AT_A, v2 = AT_B, v3 = AT_C, v0 = 0xcccccccc */
void at_fill_float(at *t);   /* v1 = AT_FA, v2 = AT_FB, v3 = AT_FC (bit patterns) */

/* Run one instruction writing v0 from v1, v2, v3 and check every lane against a C expression of
 * a, b, c (uint32_t lanes of v1..v3). */
#define VCHECK(t, text, expr) VCHECKM(t, text, 0xffffffffu, expr)
/* Only the bits of mask are compared (16-bit results: the ISA leaves the other half to the
 * implementation's d16 rules, which these tests do not pin down). */
#define VCHECKM(t, text, mask, expr)                                                                 \
    do {                                                                                             \
        at_fill_int(t);                                                                              \
        at_code(t, "%s", text);                                                                      \
        RUNS(t);                                                                                     \
        for (unsigned l = 0; l < (t)->wave_size; l++) {                                              \
            uint32_t a = AT_A(l), b = AT_B(l), c = AT_C(l);                                          \
            (void)a; (void)b; (void)c;                                                               \
            uint32_t g = at_gv(t, 0, l) & (mask), e = (uint32_t)(expr) & (mask);                     \
            if (g != e) { at_fail(t, __FILE__, __LINE__, "%s lane %u (a=0x%x b=0x%x c=0x%x): got 0x%x, expected 0x%x", text, l, a, b, c, g, e); break; } \
        }                                                                                            \
    } while (0)
/* The same over float lanes: a, b, c are floats; the expected value is a float expression. */
#define FCHECK(t, text, expr)                                                                        \
    do {                                                                                             \
        at_fill_float(t);                                                                            \
        at_code(t, "%s", text);                                                                      \
        RUNS(t);                                                                                     \
        for (unsigned l = 0; l < (t)->wave_size; l++) {                                              \
            float a = AT_FA(l), b = AT_FB(l), c = AT_FC(l);                                          \
            (void)a; (void)b; (void)c;                                                               \
            uint32_t g = at_gv(t, 0, l), e = fb((float)(expr));                                      \
            bool en = (e & 0x7f800000u) == 0x7f800000u && (e & 0x7fffffu);                          \
            bool gn = (g & 0x7f800000u) == 0x7f800000u && (g & 0x7fffffu);                          \
            if (en ? !gn : g != e) { at_fail(t, __FILE__, __LINE__, "%s lane %u (a=%a b=%a c=%a): got 0x%x (%a), expected 0x%x (%a)", text, l, (double)a, (double)b, (double)c, g, (double)bf(g), e, (double)bf(e)); break; } \
        }                                                                                            \
    } while (0)
