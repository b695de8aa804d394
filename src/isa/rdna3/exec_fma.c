/* RDNA3 f32 fused multiply-add over a wave's lanes (v_fma_f32, v_fmac_f32, v_fmamk/fmaak_f32 and
 * their VOPD forms).
 *
 * FMA is the most frequent floating-point operation in compiled kernels, so it must not cost a
 * libm call per lane. The lane loop is built for x86-64-v3 and for baseline x86-64 (GCC function
 * multiversioning). On a host with FMA it is the host's exact fused multiply-add, eight lanes per
 * instruction in the x86-64-v3 build. Without FMA the sums are formed in double (exact products;
 * a loop that vectorises), and only a wave with a lane whose double sum could round differently
 * from the fused result takes rdna3_fma32 per lane.
 */
#include "isa/rdna3/exec_alu.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__)
#define FMA_LANE_FN __attribute__((target_clones("arch=x86-64-v3", "default")))
#define HOST_HAS_FMA() __builtin_cpu_supports("fma")
#else
#define FMA_LANE_FN
#define HOST_HAS_FMA() 0
#endif

/* Some lane needs libm's fmaf: its double sum sits on a float rounding midpoint, or is nonzero
 * below 2^-125 (float denormal range; a nonzero sum of float products is at least 2^-298, so its
 * high dword is never 0). Branch-free 32-bit arithmetic on the dwords, so that it vectorises. */
static bool any_lane_needs_fmaf(const double *s, unsigned n)
{
    uint32_t dw[2 * RDNA3_MAX_LANES], bad = 0;
    memcpy(dw, s, sizeof(double) * n);
    for (unsigned l = 0; l < n; l++) {
        uint32_t lo = dw[2 * l], hi = dw[2 * l + 1] & 0x7fffffffu;   /* little-endian dword order */
        bad |= (uint32_t)((lo & 0x1fffffffu) == 0x10000000u) | ((uint32_t)(hi != 0) & (uint32_t)(hi < 0x38200000u));
    }
    return bad != 0;
}

static void fma_lanes_without_host_fma(unsigned n, uint32_t *out, const uint32_t *A, const uint32_t *B,
                                       const uint32_t *C)
{
    double s[RDNA3_MAX_LANES];
    for (unsigned l = 0; l < n; l++) s[l] = (double)f32_of(A[l]) * (double)f32_of(B[l]) + (double)f32_of(C[l]);
    if (__builtin_expect(any_lane_needs_fmaf(s, n), 0)) {
        for (unsigned l = 0; l < n; l++) out[l] = bits_f32(rdna3_fma32(f32_of(A[l]), f32_of(B[l]), f32_of(C[l])));
        return;
    }
    for (unsigned l = 0; l < n; l++) out[l] = bits_f32((float)s[l]);
}

/* The lanes with the host's fused multiply-add (a vector instruction in the x86-64-v3 build). */
static inline __attribute__((always_inline)) void fma_lanes_host(unsigned n, uint32_t *out, const uint32_t *A,
                                                                 const uint32_t *B, const uint32_t *C)
{
    if (n == 32) {   /* constant trip counts: no remainder loop */
        for (unsigned l = 0; l < 32; l++) out[l] = bits_f32(__builtin_fmaf(f32_of(A[l]), f32_of(B[l]), f32_of(C[l])));
    } else {
        for (unsigned l = 0; l < n; l++) out[l] = bits_f32(__builtin_fmaf(f32_of(A[l]), f32_of(B[l]), f32_of(C[l])));
    }
}

static inline __attribute__((always_inline)) void fma_lanes(unsigned n, uint32_t *out, const uint32_t *A,
                                                            const uint32_t *B, const uint32_t *C)
{
    if (HOST_HAS_FMA()) fma_lanes_host(n, out, A, B, C);
    else fma_lanes_without_host_fma(n, out, A, B, C);
}

FMA_LANE_FN void rdna3_fma32_lanes(unsigned n, uint32_t *out, const uint32_t *A, const uint32_t *B,
                                   const uint32_t *C)
{
    fma_lanes(n, out, A, B, C);
}

/* f64: the host's fused multiply-add where it has one (no exact shortcut through a wider type
 * exists), libm's fma per lane elsewhere. */
FMA_LANE_FN void rdna3_fma64_lanes(unsigned n, uint64_t *out, const uint64_t *A, const uint64_t *B, const uint64_t *C)
{
    if (HOST_HAS_FMA()) {
        for (unsigned l = 0; l < n; l++) out[l] = bits_f64(__builtin_fma(f64_of(A[l]), f64_of(B[l]), f64_of(C[l])));
    } else {
        for (unsigned l = 0; l < n; l++) out[l] = bits_f64(fma(f64_of(A[l]), f64_of(B[l]), f64_of(C[l])));
    }
}

FMA_LANE_FN void rdna3_fma32_store(rdna3_wave *w, uint64_t m, uint32_t *D, const uint32_t *A, const uint32_t *B,
                                   const uint32_t *C)
{
    if (m == w->lane_mask) {   /* every lane: in place (an elementwise loop, so D may be a source) */
        fma_lanes(w->wave_size, D, A, B, C);
        return;
    }
    uint32_t res[RDNA3_MAX_LANES];
    fma_lanes(w->wave_size, res, A, B, C);
    RDNA3_STORE_LANES(w, m, D, uint32_t, r = res[l]);
}
