/* umbra_ocl.h — the OpenCL C device header of umbra for amdgcn-amd-amdhsa (gfx1100), code object v5.
 *
 * `umbra cc` force-includes it. It lets clang-19 compile OpenCL C without the ROCm device
 * libraries: clang's default header declares the builtins (types, CLK_* macros) and this file
 * defines the ones clang does not lower by itself, each mapped to a __builtin_* or
 * __builtin_amdgcn_* that the AMDGPU back end turns into instructions:
 *   - work-item functions (workitem/workgroup id intrinsics and the COV5 hidden kernel arguments),
 *   - barrier / work_group_barrier / mem_fence (fence + s_barrier),
 *   - OpenCL 1.x atomics (atomic_* and atom_*) on __global, __local and generic pointers for
 *     int, uint, long, ulong (and atomic_xchg on float),
 *   - scalar math for float, double and half.
 * Accuracy (tests/rdna3/kernels math_accuracy states the bounds): sqrt, exp, log, exp2, log2, rsqrt
 * use the back end's expansions around the hardware instructions; sin and cos reduce the argument
 * by pi/2 first; pow is repeated squaring for integral |y| <= 64, else exp2(y*log2|x|) (its error
 * grows with |log2 pow(x, y)|) plus the special cases (x == 0, integral y for x < 0, y == 0).
 */
#ifndef UMBRA_OCL_H
#define UMBRA_OCL_H

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

/* clang predefines these only in HIP mode; values of clang's SyncScope (HIPSingleThread=1..HIPSystem=5) */
#ifndef __HIP_MEMORY_SCOPE_WORKGROUP
#define __HIP_MEMORY_SCOPE_SINGLETHREAD 1
#define __HIP_MEMORY_SCOPE_WAVEFRONT 2
#define __HIP_MEMORY_SCOPE_WORKGROUP 3
#define __HIP_MEMORY_SCOPE_AGENT 4
#define __HIP_MEMORY_SCOPE_SYSTEM 5
#endif

/* static: a helper the kernel does not use is never emitted (not even at -O0) */
#define UMB_OVL static __attribute__((overloadable, always_inline))
#define UMB_OVLC static __attribute__((overloadable, always_inline, const))

/* ---------------- work-item functions ---------------- */

/* COV5 hidden kernel arguments, relative to __builtin_amdgcn_implicitarg_ptr(). block_count is the
 * number of full workgroups and remainder the size of the partial last one (0 if none). */
#define UMB_HID_BLOCK_COUNT_X 0   /* u32 x3 */
#define UMB_HID_GROUP_SIZE_X 12   /* u16 x3 */
#define UMB_HID_REMAINDER_X 18    /* u16 x3 */
#define UMB_HID_GLOBAL_OFF_X 40   /* u64 x3 */
#define UMB_HID_GRID_DIMS 64      /* u16 */

static __attribute__((always_inline)) __constant char *umb_iap(void)
{
    return (__constant char *)__builtin_amdgcn_implicitarg_ptr();
}
static __attribute__((always_inline)) uint umb_hid_u32(int off) { return *(__constant uint *)(umb_iap() + off); }
static __attribute__((always_inline)) ushort umb_hid_u16(int off) { return *(__constant ushort *)(umb_iap() + off); }
static __attribute__((always_inline)) ulong umb_hid_u64(int off) { return *(__constant ulong *)(umb_iap() + off); }

UMB_OVLC size_t get_local_id(uint d)
{
    switch (d) {
    case 0: return __builtin_amdgcn_workitem_id_x();
    case 1: return __builtin_amdgcn_workitem_id_y();
    case 2: return __builtin_amdgcn_workitem_id_z();
    default: return 0;
    }
}
UMB_OVLC size_t get_group_id(uint d)
{
    switch (d) {
    case 0: return __builtin_amdgcn_workgroup_id_x();
    case 1: return __builtin_amdgcn_workgroup_id_y();
    case 2: return __builtin_amdgcn_workgroup_id_z();
    default: return 0;
    }
}
UMB_OVLC size_t get_enqueued_local_size(uint d)
{
    return d > 2 ? 1 : umb_hid_u16(UMB_HID_GROUP_SIZE_X + 2 * (int)d);
}
UMB_OVLC size_t get_num_groups(uint d)
{
    if (d > 2) return 1;
    return (size_t)umb_hid_u32(UMB_HID_BLOCK_COUNT_X + 4 * (int)d) +
           (umb_hid_u16(UMB_HID_REMAINDER_X + 2 * (int)d) != 0);
}
UMB_OVLC size_t get_local_size(uint d)
{
    if (d > 2) return 1;
    uint full = umb_hid_u32(UMB_HID_BLOCK_COUNT_X + 4 * (int)d);
    return get_group_id(d) < full ? get_enqueued_local_size(d)
                                  : (size_t)umb_hid_u16(UMB_HID_REMAINDER_X + 2 * (int)d);
}
UMB_OVLC size_t get_global_offset(uint d)
{
    return d > 2 ? 0 : umb_hid_u64(UMB_HID_GLOBAL_OFF_X + 8 * (int)d);
}
UMB_OVLC size_t get_global_id(uint d)
{
    return get_group_id(d) * get_enqueued_local_size(d) + get_local_id(d) + get_global_offset(d);
}
UMB_OVLC size_t get_global_size(uint d)
{
    if (d > 2) return 1;
    return (size_t)umb_hid_u32(UMB_HID_BLOCK_COUNT_X + 4 * (int)d) * get_enqueued_local_size(d) +
           umb_hid_u16(UMB_HID_REMAINDER_X + 2 * (int)d);
}
UMB_OVLC uint get_work_dim(void) { return umb_hid_u16(UMB_HID_GRID_DIMS); }
UMB_OVLC size_t get_local_linear_id(void)
{
    return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + get_local_id(0);
}
UMB_OVLC size_t get_global_linear_id(void)
{
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    return (z * get_global_size(1) + y) * get_global_size(0) + x;
}

/* ---------------- synchronisation ---------------- */

/* A workgroup-scope release fence, s_barrier, and an acquire fence: what the AMD OpenCL runtime's
 * barrier does (the acquire also invalidates the L0 cache, buffer_gl0_inv). */
UMB_OVL void barrier(cl_mem_fence_flags f)
{
    (void)f;
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
UMB_OVL void work_group_barrier(cl_mem_fence_flags f) { barrier(f); }
UMB_OVL void mem_fence(cl_mem_fence_flags f)
{
    (void)f;
    __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
}
UMB_OVL void read_mem_fence(cl_mem_fence_flags f)
{
    (void)f;
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
UMB_OVL void write_mem_fence(cl_mem_fence_flags f)
{
    (void)f;
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
}

/* ---------------- atomics ---------------- */

/* One macro per (name, address space, type): global atomics are agent scope, local ones workgroup
 * scope, generic ones agent scope (a flat atomic may land in LDS or global memory). */
#define UMB_ATOMIC_RMW(NAME, BUILTIN, AS, SCOPE, T)                                  \
    UMB_OVL T NAME(volatile AS T *p, T v)                                            \
    {                                                                                \
        return BUILTIN((AS T *)p, v, __ATOMIC_RELAXED, SCOPE);                       \
    }
#define UMB_ATOMIC_UNARY(NAME, BUILTIN, AS, SCOPE, T)                                \
    UMB_OVL T NAME(volatile AS T *p)                                                 \
    {                                                                                \
        return BUILTIN((AS T *)p, (T)1, __ATOMIC_RELAXED, SCOPE);                    \
    }
#define UMB_ATOMIC_CMPXCHG(NAME, AS, SCOPE, T)                                       \
    UMB_OVL T NAME(volatile AS T *p, T cmp, T val)                                   \
    {                                                                                \
        T expected = cmp;                                                            \
        __hip_atomic_compare_exchange_strong((AS T *)p, &expected, val, __ATOMIC_RELAXED, \
                                             __ATOMIC_RELAXED, SCOPE);                \
        return expected;                                                             \
    }
/* inc/dec as OpenCL defines them: (old + 1) and (old - 1) with wrap-around, i.e. add/sub of 1. */
#define UMB_ATOMIC_ALL_OPS(PFX, AS, SCOPE, T)                                        \
    UMB_ATOMIC_RMW(PFX##add, __hip_atomic_fetch_add, AS, SCOPE, T)                   \
    UMB_ATOMIC_RMW(PFX##sub, __hip_atomic_fetch_sub, AS, SCOPE, T)                   \
    UMB_ATOMIC_RMW(PFX##xchg, __hip_atomic_exchange, AS, SCOPE, T)                   \
    UMB_ATOMIC_RMW(PFX##min, __hip_atomic_fetch_min, AS, SCOPE, T)                   \
    UMB_ATOMIC_RMW(PFX##max, __hip_atomic_fetch_max, AS, SCOPE, T)                   \
    UMB_ATOMIC_RMW(PFX##and, __hip_atomic_fetch_and, AS, SCOPE, T)                   \
    UMB_ATOMIC_RMW(PFX##or, __hip_atomic_fetch_or, AS, SCOPE, T)                     \
    UMB_ATOMIC_RMW(PFX##xor, __hip_atomic_fetch_xor, AS, SCOPE, T)                   \
    UMB_ATOMIC_UNARY(PFX##inc, __hip_atomic_fetch_add, AS, SCOPE, T)                 \
    UMB_ATOMIC_UNARY(PFX##dec, __hip_atomic_fetch_sub, AS, SCOPE, T)                 \
    UMB_ATOMIC_CMPXCHG(PFX##cmpxchg, AS, SCOPE, T)
#define UMB_ATOMIC_SPACES(PFX, T)                                                    \
    UMB_ATOMIC_ALL_OPS(PFX, __global, __HIP_MEMORY_SCOPE_AGENT, T)                   \
    UMB_ATOMIC_ALL_OPS(PFX, __local, __HIP_MEMORY_SCOPE_WORKGROUP, T)                \
    UMB_ATOMIC_ALL_OPS(PFX, , __HIP_MEMORY_SCOPE_AGENT, T)

UMB_ATOMIC_SPACES(atomic_, int)
UMB_ATOMIC_SPACES(atomic_, uint)
UMB_ATOMIC_SPACES(atomic_, long)
UMB_ATOMIC_SPACES(atomic_, ulong)
/* cl_khr_*_atomics spellings */
UMB_ATOMIC_SPACES(atom_, int)
UMB_ATOMIC_SPACES(atom_, uint)
UMB_ATOMIC_SPACES(atom_, long)
UMB_ATOMIC_SPACES(atom_, ulong)

#define UMB_ATOMIC_XCHG_F(AS, SCOPE)                                                 \
    UMB_OVL float atomic_xchg(volatile AS float *p, float v)                         \
    {                                                                                \
        return __hip_atomic_exchange((AS float *)p, v, __ATOMIC_RELAXED, SCOPE);     \
    }
UMB_ATOMIC_XCHG_F(__global, __HIP_MEMORY_SCOPE_AGENT)
UMB_ATOMIC_XCHG_F(__local, __HIP_MEMORY_SCOPE_WORKGROUP)
UMB_ATOMIC_XCHG_F(, __HIP_MEMORY_SCOPE_AGENT)

/* ---------------- math ---------------- */

/* Functions that are one builtin for every precision: float (f suffix), double, half (f16). */
#define UMB_MATH1(NAME, BF, BD, BH)                                                  \
    UMB_OVLC float NAME(float x) { return BF(x); }                                   \
    UMB_OVLC double NAME(double x) { return BD(x); }                                 \
    UMB_OVLC half NAME(half x) { return BH(x); }
#define UMB_MATH2(NAME, BF, BD, BH)                                                  \
    UMB_OVLC float NAME(float x, float y) { return BF(x, y); }                       \
    UMB_OVLC double NAME(double x, double y) { return BD(x, y); }                    \
    UMB_OVLC half NAME(half x, half y) { return BH(x, y); }

UMB_MATH1(sqrt, __builtin_sqrtf, __builtin_sqrt, __builtin_sqrtf16)
UMB_MATH1(fabs, __builtin_fabsf, __builtin_fabs, __builtin_fabsf16)
UMB_MATH1(floor, __builtin_floorf, __builtin_floor, __builtin_floorf16)
UMB_MATH1(ceil, __builtin_ceilf, __builtin_ceil, __builtin_ceilf16)
UMB_MATH1(trunc, __builtin_truncf, __builtin_trunc, __builtin_truncf16)
UMB_MATH1(rint, __builtin_rintf, __builtin_rint, __builtin_rintf16)
UMB_MATH1(round, __builtin_roundf, __builtin_round, __builtin_roundf16)
UMB_MATH2(fmin, __builtin_fminf, __builtin_fmin, __builtin_fminf16)
UMB_MATH2(fmax, __builtin_fmaxf, __builtin_fmax, __builtin_fmaxf16)
UMB_MATH2(copysign, __builtin_copysignf, __builtin_copysign, __builtin_copysignf16)

/* exp/log family: the AMDGPU back end expands llvm.exp/log/exp2/log2 for f32 and f16 itself. */
UMB_OVLC float exp(float x) { return __builtin_expf(x); }
UMB_OVLC float exp2(float x) { return __builtin_exp2f(x); }
UMB_OVLC float log(float x) { return __builtin_logf(x); }
UMB_OVLC float log2(float x) { return __builtin_log2f(x); }
UMB_OVLC float log10(float x) { return __builtin_log10f(x); }
/* sin/cos: the back end scales the argument by 1/(2*pi) before v_sin/v_cos, an error that grows with
 * |x|. Reduce by pi/2 first (Cody-Waite, pi/2 in three floats, fused steps; accurate for |x| up to
 * about 1e5), then evaluate on [-pi/4, pi/4] and pick the quadrant. */
static __attribute__((always_inline)) float umb_reduce_half_pi(float x, int *quadrant)
{
    float k = __builtin_rintf(x * 0x1.45f306p-1f);          /* x * 2/pi */
    float r = __builtin_fmaf(-k, 0x1.921fb6p+0f, x);        /* pi/2 = c1 + c2 + c3 */
    r = __builtin_fmaf(-k, -0x1.777a5cp-25f, r);
    r = __builtin_fmaf(-k, -0x1.ee59dap-50f, r);
    *quadrant = (int)k & 3;
    return r;
}
UMB_OVLC float sin(float x)
{
    if (!(__builtin_fabsf(x) < 1e5f)) return __builtin_sinf(x);
    int q;
    float r = umb_reduce_half_pi(x, &q);
    float v = (q & 1) ? __builtin_cosf(r) : __builtin_sinf(r);
    return (q & 2) ? -v : v;
}
UMB_OVLC float cos(float x)
{
    if (!(__builtin_fabsf(x) < 1e5f)) return __builtin_cosf(x);
    int q;
    float r = umb_reduce_half_pi(x, &q);
    float v = (q & 1) ? __builtin_sinf(r) : __builtin_cosf(r);
    return ((q + 1) & 2) ? -v : v;
}
UMB_OVLC half exp(half x) { return __builtin_expf16(x); }
UMB_OVLC half exp2(half x) { return __builtin_exp2f16(x); }
UMB_OVLC half log(half x) { return __builtin_logf16(x); }
UMB_OVLC half log2(half x) { return __builtin_log2f16(x); }
UMB_OVLC half sin(half x) { return __builtin_sinf16(x); }
UMB_OVLC half cos(half x) { return __builtin_cosf16(x); }
UMB_OVLC float tan(float x) { return __builtin_sinf(x) / __builtin_cosf(x); }

/* rsqrt: v_rsq (1 ulp on hardware); double uses the correctly rounded sqrt and a division. */
UMB_OVLC float rsqrt(float x) { return __builtin_amdgcn_rsqf(x); }
UMB_OVLC double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
UMB_OVLC half rsqrt(half x) { return (half)__builtin_amdgcn_rsqf((float)x); }

UMB_OVLC float pow(float x, float y)
{
    if (y == 0.0f) return 1.0f;
    /* small integral exponents: repeated squaring (a few roundings instead of exp2/log2) */
    if (__builtin_truncf(y) == y && __builtin_fabsf(y) <= 64.0f) {
        float r = 1.0f, b = x;
        for (uint e = (uint)__builtin_fabsf(y); e; e >>= 1, b *= b)
            if (e & 1u) r *= b;
        return y < 0.0f ? 1.0f / r : r;
    }
    if (x == 0.0f) return y < 0.0f ? __builtin_inff() : 0.0f;
    float ax = __builtin_fabsf(x);
    float r = __builtin_exp2f(y * __builtin_log2f(ax));
    if (x < 0.0f) {
        if (__builtin_truncf(y) != y) return __builtin_nanf("");
        /* odd integral exponent keeps the sign */
        if (__builtin_fmodf(y, 2.0f) != 0.0f) r = -r;
    }
    return r;
}
UMB_OVLC float powr(float x, float y) { return __builtin_exp2f(y * __builtin_log2f(x)); }
UMB_OVLC float pown(float x, int n)
{
    float r = 1.0f, b = x;
    uint e = n < 0 ? (uint)-n : (uint)n;
    for (; e; e >>= 1, b *= b)
        if (e & 1u) r *= b;
    return n < 0 ? 1.0f / r : r;
}

/* mad/fma: fma is the fused operation; mad may be either, umbra uses fma (v_fma / v_fmac). */
UMB_OVLC float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
UMB_OVLC double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
UMB_OVLC half fma(half a, half b, half c) { return __builtin_fmaf16(a, b, c); }
UMB_OVLC float mad(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
UMB_OVLC double mad(double a, double b, double c) { return __builtin_fma(a, b, c); }
UMB_OVLC half mad(half a, half b, half c) { return __builtin_fmaf16(a, b, c); }

/* native_* and half_*: the hardware approximations. */
UMB_OVLC float native_sqrt(float x) { return __builtin_amdgcn_sqrtf(x); }
UMB_OVLC float native_rsqrt(float x) { return __builtin_amdgcn_rsqf(x); }
UMB_OVLC float native_recip(float x) { return __builtin_amdgcn_rcpf(x); }
UMB_OVLC float native_exp2(float x) { return __builtin_amdgcn_exp2f(x); }
UMB_OVLC float native_log2(float x) { return __builtin_amdgcn_logf(x); }
UMB_OVLC float native_exp(float x) { return __builtin_amdgcn_exp2f(x * 1.44269504088896341f); }
UMB_OVLC float native_log(float x) { return __builtin_amdgcn_logf(x) * 0.693147180559945309f; }
UMB_OVLC float native_divide(float x, float y) { return x * __builtin_amdgcn_rcpf(y); }
UMB_OVLC float native_sin(float x) { return __builtin_sinf(x); }
UMB_OVLC float native_cos(float x) { return __builtin_cosf(x); }
UMB_OVLC float half_sqrt(float x) { return __builtin_amdgcn_sqrtf(x); }
UMB_OVLC float half_rsqrt(float x) { return __builtin_amdgcn_rsqf(x); }
UMB_OVLC float half_recip(float x) { return __builtin_amdgcn_rcpf(x); }
UMB_OVLC float half_exp(float x) { return __builtin_expf(x); }
UMB_OVLC float half_log(float x) { return __builtin_logf(x); }

/* ---------------- integer and common functions ---------------- */

#define UMB_INT_MINMAX(T)                                                            \
    UMB_OVLC T min(T a, T b) { return a < b ? a : b; }                               \
    UMB_OVLC T max(T a, T b) { return a > b ? a : b; }                               \
    UMB_OVLC T clamp(T x, T lo, T hi) { return x < lo ? lo : (x > hi ? hi : x); }
UMB_INT_MINMAX(char)
UMB_INT_MINMAX(uchar)
UMB_INT_MINMAX(short)
UMB_INT_MINMAX(ushort)
UMB_INT_MINMAX(int)
UMB_INT_MINMAX(uint)
UMB_INT_MINMAX(long)
UMB_INT_MINMAX(ulong)
UMB_OVLC float min(float a, float b) { return __builtin_fminf(a, b); }
UMB_OVLC float max(float a, float b) { return __builtin_fmaxf(a, b); }
UMB_OVLC double min(double a, double b) { return __builtin_fmin(a, b); }
UMB_OVLC double max(double a, double b) { return __builtin_fmax(a, b); }
UMB_OVLC float clamp(float x, float lo, float hi) { return __builtin_fminf(__builtin_fmaxf(x, lo), hi); }
UMB_OVLC double clamp(double x, double lo, double hi) { return __builtin_fmin(__builtin_fmax(x, lo), hi); }

UMB_OVLC uint popcount(uint x) { return (uint)__builtin_popcount(x); }
UMB_OVLC int popcount(int x) { return __builtin_popcount((uint)x); }
UMB_OVLC ulong popcount(ulong x) { return (ulong)__builtin_popcountl(x); }
UMB_OVLC uint clz(uint x) { return x ? (uint)__builtin_clz(x) : 32u; }
UMB_OVLC uint ctz(uint x) { return x ? (uint)__builtin_ctz(x) : 32u; }
UMB_OVLC uint rotate(uint x, uint n) { n &= 31u; return (x << n) | (x >> ((32u - n) & 31u)); }
UMB_OVLC ulong rotate(ulong x, ulong n) { n &= 63u; return (x << n) | (x >> ((64u - n) & 63u)); }
UMB_OVLC uint mul_hi(uint a, uint b) { return (uint)(((ulong)a * b) >> 32); }
UMB_OVLC int mul_hi(int a, int b) { return (int)(((long)a * b) >> 32); }
UMB_OVLC ulong mul_hi(ulong a, ulong b) { return (ulong)(((__uint128_t)a * b) >> 64); }
UMB_OVLC uint mad24(uint a, uint b, uint c) { return (a & 0xffffffu) * (b & 0xffffffu) + c; }
UMB_OVLC uint mul24(uint a, uint b) { return (a & 0xffffffu) * (b & 0xffffffu); }
UMB_OVLC uint abs(int x) { return x < 0 ? (uint)-x : (uint)x; }

/* ---------------- vectors, conversions, geometry, loads and stores ---------------- */

/* Vector forms through clang's element-wise builtins (no per-element loops: a dynamic index into
 * a 3-element vector crashes the gfx11 back end at -O0). */
#define UMB_VEW1(NAME, B, T, N) UMB_OVLC T##N NAME(T##N x) { return B(x); }
#define UMB_VEW2(NAME, B, T, N) UMB_OVLC T##N NAME(T##N x, T##N y) { return B(x, y); }
#define UMB_VEW3(NAME, B, T, N) UMB_OVLC T##N NAME(T##N x, T##N y, T##N z) { return B(x, y, z); }
#define UMB_VSIZES(M, NAME, B, T) M(NAME, B, T, 2) M(NAME, B, T, 3) M(NAME, B, T, 4) M(NAME, B, T, 8) M(NAME, B, T, 16)
#define UMB_VFP(M, NAME, B) UMB_VSIZES(M, NAME, B, float) UMB_VSIZES(M, NAME, B, double)
UMB_VFP(UMB_VEW1, sqrt, __builtin_elementwise_sqrt)
UMB_VFP(UMB_VEW1, fabs, __builtin_elementwise_abs)
UMB_VFP(UMB_VEW1, floor, __builtin_elementwise_floor)
UMB_VFP(UMB_VEW1, ceil, __builtin_elementwise_ceil)
UMB_VFP(UMB_VEW1, trunc, __builtin_elementwise_trunc)
UMB_VFP(UMB_VEW1, rint, __builtin_elementwise_rint)
UMB_VFP(UMB_VEW1, round, __builtin_elementwise_round)
UMB_VFP(UMB_VEW2, fmin, __builtin_elementwise_min)
UMB_VFP(UMB_VEW2, fmax, __builtin_elementwise_max)
UMB_VFP(UMB_VEW2, min, __builtin_elementwise_min)
UMB_VFP(UMB_VEW2, max, __builtin_elementwise_max)
UMB_VFP(UMB_VEW2, copysign, __builtin_elementwise_copysign)
UMB_VFP(UMB_VEW3, fma, __builtin_elementwise_fma)
UMB_VFP(UMB_VEW3, mad, __builtin_elementwise_fma)
UMB_VSIZES(UMB_VEW1, exp, __builtin_elementwise_exp, float)
UMB_VSIZES(UMB_VEW1, exp2, __builtin_elementwise_exp2, float)
UMB_VSIZES(UMB_VEW1, log, __builtin_elementwise_log, float)
UMB_VSIZES(UMB_VEW1, log2, __builtin_elementwise_log2, float)
UMB_VSIZES(UMB_VEW1, sin, __builtin_elementwise_sin, float)
UMB_VSIZES(UMB_VEW1, cos, __builtin_elementwise_cos, float)
UMB_VSIZES(UMB_VEW2, min, __builtin_elementwise_min, int)
UMB_VSIZES(UMB_VEW2, max, __builtin_elementwise_max, int)
UMB_VSIZES(UMB_VEW2, min, __builtin_elementwise_min, uint)
UMB_VSIZES(UMB_VEW2, max, __builtin_elementwise_max, uint)
#define UMB_VRSQRT(NAME, B, T, N) UMB_OVLC T##N NAME(T##N x) { return (T)1 / B(x); }
UMB_VFP(UMB_VRSQRT, rsqrt, __builtin_elementwise_sqrt)
#define UMB_VCLAMP(NAME, B, T, N)                                                    \
    UMB_OVLC T##N NAME(T##N x, T##N lo, T##N hi)                                     \
    {                                                                                \
        return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);      \
    }
UMB_VFP(UMB_VCLAMP, clamp, _) UMB_VSIZES(UMB_VCLAMP, clamp, _, int) UMB_VSIZES(UMB_VCLAMP, clamp, _, uint)

/* Common functions. */
UMB_OVLC float fmod(float x, float y) { return __builtin_fmodf(x, y); }
UMB_OVLC double fmod(double x, double y) { return __builtin_fmod(x, y); }
UMB_OVLC float ldexp(float x, int n) { return __builtin_ldexpf(x, n); }
UMB_OVLC double ldexp(double x, int n) { return __builtin_ldexp(x, n); }
UMB_OVLC float mix(float x, float y, float a) { return x + (y - x) * a; }
UMB_OVLC float step(float edge, float x) { return x < edge ? 0.0f : 1.0f; }
UMB_OVLC float sign(float x) { return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x; }
UMB_OVLC float hypot(float x, float y) { return __builtin_sqrtf(x * x + y * y); }
UMB_OVLC int isnan(float x) { return __builtin_isnan(x); }
UMB_OVLC int isinf(float x) { return __builtin_isinf(x); }
UMB_OVLC int isfinite(float x) { return __builtin_isfinite(x); }
UMB_OVLC int isnan(double x) { return __builtin_isnan(x); }
UMB_OVLC int isinf(double x) { return __builtin_isinf(x); }
UMB_OVLC int isfinite(double x) { return __builtin_isfinite(x); }
#define UMB_SELECT(T, C) UMB_OVLC T select(T a, T b, C c) { return c ? b : a; }
UMB_SELECT(int, int) UMB_SELECT(uint, uint) UMB_SELECT(float, int) UMB_SELECT(float, uint)
UMB_SELECT(long, long) UMB_SELECT(ulong, ulong) UMB_SELECT(double, long)

/* Geometric functions on float2/3/4 and double2/3/4. */
#define UMB_DOT(T)                                                                   \
    UMB_OVLC T dot(T a, T b) { return a * b; }                                       \
    UMB_OVLC T dot(T##2 a, T##2 b) { return a.x * b.x + a.y * b.y; }                  \
    UMB_OVLC T dot(T##3 a, T##3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }      \
    UMB_OVLC T dot(T##4 a, T##4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
#define UMB_GEOM(T, N)                                                               \
    UMB_OVLC T length(T##N a) { return sqrt(dot(a, a)); }                            \
    UMB_OVLC T distance(T##N a, T##N b) { return length(a - b); }                    \
    UMB_OVLC T##N normalize(T##N a) { return a * ((T)1 / sqrt(dot(a, a))); }
UMB_DOT(float) UMB_DOT(double)
UMB_GEOM(float, 2) UMB_GEOM(float, 3) UMB_GEOM(float, 4)
UMB_GEOM(double, 2) UMB_GEOM(double, 3) UMB_GEOM(double, 4)
UMB_OVLC float length(float a) { return __builtin_fabsf(a); }
UMB_OVLC float3 cross(float3 a, float3 b)
{
    return (float3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
UMB_OVLC float4 cross(float4 a, float4 b)
{
    return (float4)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, 0.0f);
}

/* convert_T[n](S[n]) without rounding/saturation suffixes: C conversions (float -> int truncates). */
#define UMB_CONVERT_N(D, S, N)                                                       \
    UMB_OVLC D##N convert_##D##N(S##N x) { return __builtin_convertvector(x, D##N); }
#define UMB_CONVERT(D, S)                                                            \
    UMB_OVLC D convert_##D(S x) { return (D)x; }                                     \
    UMB_CONVERT_N(D, S, 2) UMB_CONVERT_N(D, S, 3) UMB_CONVERT_N(D, S, 4)             \
    UMB_CONVERT_N(D, S, 8) UMB_CONVERT_N(D, S, 16)
#define UMB_CONVERT_FROM_ALL(D)                                                      \
    UMB_CONVERT(D, char) UMB_CONVERT(D, uchar) UMB_CONVERT(D, short) UMB_CONVERT(D, ushort) \
    UMB_CONVERT(D, int) UMB_CONVERT(D, uint) UMB_CONVERT(D, long) UMB_CONVERT(D, ulong) \
    UMB_CONVERT(D, float) UMB_CONVERT(D, double)
UMB_CONVERT_FROM_ALL(char) UMB_CONVERT_FROM_ALL(uchar) UMB_CONVERT_FROM_ALL(short)
UMB_CONVERT_FROM_ALL(ushort) UMB_CONVERT_FROM_ALL(int) UMB_CONVERT_FROM_ALL(uint)
UMB_CONVERT_FROM_ALL(long) UMB_CONVERT_FROM_ALL(ulong) UMB_CONVERT_FROM_ALL(float)
UMB_CONVERT_FROM_ALL(double)

/* vloadN / vstoreN (generic and __constant pointers) and vload_half / vstore_half. The vector is
 * filled through a scalar pointer to it (memory, not a dynamic vector index). */
#define UMB_VLOAD_FROM(T, N, AS)                                                     \
    UMB_OVL T##N vload##N(size_t i, AS const T *p)                                   \
    {                                                                                \
        T##N r;                                                                      \
        T *d = (T *)&r;                                                              \
        for (int k = 0; k < N; k++) d[k] = p[i * N + k];                             \
        return r;                                                                    \
    }
#define UMB_VLOAD(T, N)                                                              \
    UMB_VLOAD_FROM(T, N, ) UMB_VLOAD_FROM(T, N, __constant)                          \
    UMB_OVL void vstore##N(T##N v, size_t i, T *p)                                   \
    {                                                                                \
        const T *s = (const T *)&v;                                                  \
        for (int k = 0; k < N; k++) p[i * N + k] = s[k];                             \
    }
#define UMB_VLOAD_ALL(T) UMB_VLOAD(T, 2) UMB_VLOAD(T, 3) UMB_VLOAD(T, 4) UMB_VLOAD(T, 8) UMB_VLOAD(T, 16)
UMB_VLOAD_ALL(float) UMB_VLOAD_ALL(int) UMB_VLOAD_ALL(uint) UMB_VLOAD_ALL(double)
UMB_VLOAD_ALL(uchar) UMB_VLOAD_ALL(short) UMB_VLOAD_ALL(ushort) UMB_VLOAD_ALL(long) UMB_VLOAD_ALL(ulong)
UMB_OVL float vload_half(size_t i, const half *p) { return (float)p[i]; }
UMB_OVL float vload_half(size_t i, __constant half *p) { return (float)p[i]; }
UMB_OVL void vstore_half(float v, size_t i, half *p) { p[i] = (half)v; }   /* round to nearest even */

#endif
