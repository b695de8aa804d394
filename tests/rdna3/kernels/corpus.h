/* The RDNA3 kernel corpus: shared test-driver helpers (corpus.c) for the per-kernel cases
 * (cases_*.c). Each case makes its inputs, passes the arguments, launches, reads the outputs back and
 * compares them with a C reference: integers bit-exact, floats within a stated ulp bound. */
#ifndef UMBRA_TESTS_RDNA3_CORPUS_H
#define UMBRA_TESTS_RDNA3_CORPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "umbra/rdna3.h"

#define TC_MAX_ARGS 16
#define TC_MAX_BUFS 16

typedef struct tctx {
    umb_device *dev;
    umb_rdna3_program *prog;
    const char *kernel;
    uint32_t wave;                         /* 32 or 64 */
    int opt;
    umb_rdna3_arg args[TC_MAX_ARGS];
    uint8_t argstore[TC_MAX_ARGS][8];
    uint32_t nargs;
    uint64_t bufs[TC_MAX_BUFS];
    size_t bufsize[TC_MAX_BUFS];
    uint32_t nbufs;
    int jit_diff;                          /* UMBRA_CORPUS_JIT_DIFF: every launch twice, compared */
    int jit_launches;                      /* launches compared so far */
    uint64_t global_offset[3];
    uint64_t rng;
    umb_stats stats;
    int failures;
} tctx;

/* Inputs */
uint32_t tc_rand(tctx *t);
float tc_randf(tctx *t, float lo, float hi);
void *tc_alloc(size_t size);               /* zeroed host memory; exits on OOM */

/* Arguments in kernel order */
uint64_t tc_arg_buf(tctx *t, const void *data, size_t size);   /* data NULL: zeros */
/* Device memory the case allocated itself (not an argument): freed at the end, and saved and
 * restored around the interpreter's run of a launch under UMBRA_CORPUS_JIT_DIFF. */
void tc_track(tctx *t, uint64_t addr, size_t size);
void tc_arg_u32(tctx *t, uint32_t v);
void tc_arg_f32(tctx *t, float v);
void tc_arg_f64(tctx *t, double v);
void tc_arg_local(tctx *t, uint32_t bytes);

/* Launch: returns false (and counts a failure) if the run failed */
bool tc_launch(tctx *t, uint32_t dim, uint64_t gx, uint64_t gy, uint64_t gz, uint32_t lx, uint32_t ly, uint32_t lz);
void tc_read(tctx *t, uint64_t addr, void *dst, size_t size);

/* Checks: print the first mismatches and count failures */
void tc_check_u32(tctx *t, const char *what, const uint32_t *got, const uint32_t *want, size_t n);
void tc_check_u64(tctx *t, const char *what, const uint64_t *got, const uint64_t *want, size_t n);
void tc_check_f32(tctx *t, const char *what, const float *got, const float *want, size_t n, uint32_t ulps);
/* |got - want| <= ulps * ulp(scale[i]): for sums with cancellation (scale = sum of |terms|) */
void tc_check_f32_scaled(tctx *t, const char *what, const float *got, const double *want, const double *scale,
                         size_t n, uint32_t ulps);
void tc_check_f64(tctx *t, const char *what, const double *got, const double *want, size_t n, uint32_t ulps);
void tc_check_f16(tctx *t, const char *what, const uint16_t *got, const uint16_t *want, size_t n, uint32_t ulps);

uint16_t tc_f32_to_f16(float f);           /* round to nearest even */
float tc_f16_to_f32(uint16_t h);

typedef struct tcase {
    const char *name;                      /* kernel and .cl file name */
    void (*run)(tctx *t);
} tcase;

/* cases_basic.c, cases_math.c, cases_misc.c, cases_image.c */
extern const tcase tc_cases_basic[], tc_cases_math[], tc_cases_misc[], tc_cases_image[];
extern const size_t tc_ncases_basic, tc_ncases_math, tc_ncases_misc, tc_ncases_image;

#endif
