// OpenCL C 1.2 §6.12.11 atomic functions (atomic_*) and the cl_khr_*_atomics spellings (atom_*,
// with 64-bit ones from cl_khr_int64_base/extended_atomics), on __global and __local memory.
// Slot layout of the counters c and of the returned old values (old[slot * N + item]):
// 0 add 1, 1 sub 1, 2 inc, 3 dec, 4 min, 5 max, 6 and, 7 or, 8 xor, 9 xchg, 10 cmpxchg loop.
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_global_int32_extended_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_extended_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#define NSLOT 11

#define OPS(A, T, p, o, g, n)                                                                \
    o[0 * n] = A##_add(&p[0], (T)1);                                                         \
    o[1 * n] = A##_sub(&p[1], (T)1);                                                         \
    o[2 * n] = A##_inc(&p[2]);                                                               \
    o[3 * n] = A##_dec(&p[3]);                                                               \
    o[4 * n] = A##_min(&p[4], (T)(((g) * 2654435761u) % 100003u) - (T)50000);                \
    o[5 * n] = A##_max(&p[5], (T)(((g) * 40503u) % 99991u) - (T)50000);                      \
    o[6 * n] = A##_and(&p[6], ~((T)1 << ((g) % (8 * sizeof(T)))));                           \
    o[7 * n] = A##_or(&p[7], (T)1 << (((g) * 7) % (8 * sizeof(T))));                         \
    o[8 * n] = A##_xor(&p[8], (T)((g) * 0x9e3779b9u));                                       \
    o[9 * n] = A##_xchg(&p[9], (T)((g) + 1000));                                             \
    {                                                                                        \
        T seen;                                                                              \
        do { seen = p[10]; } while (A##_cmpxchg(&p[10], seen, seen + (T)1) != seen);         \
        o[10 * n] = seen;                                                                    \
    }

#define ATOMIC_KERNEL(NAME, A, T)                                                            \
    kernel void NAME(global T *c, global T *old, global T *lc, global T *lold)               \
    {                                                                                        \
        local T lcnt[NSLOT];                                                                 \
        size_t g = get_global_id(0), n = get_global_size(0), l = get_local_id(0);            \
        if (l < NSLOT) lcnt[l] = c[NSLOT + l]; /* the initial values, after the counters */  \
        barrier(CLK_LOCAL_MEM_FENCE);                                                        \
        OPS(A, T, c, (old + g), g, n)                                                        \
        OPS(A, T, lcnt, (lold + g), g, n)                                                    \
        barrier(CLK_LOCAL_MEM_FENCE);                                                        \
        if (l < NSLOT) lc[get_group_id(0) * NSLOT + l] = lcnt[l];                            \
    }
ATOMIC_KERNEL(atomic_int, atomic, int)
ATOMIC_KERNEL(atomic_uint, atomic, uint)
ATOMIC_KERNEL(atom_int, atom, int)
ATOMIC_KERNEL(atom_uint, atom, uint)
ATOMIC_KERNEL(atom_long, atom, long)
ATOMIC_KERNEL(atom_ulong, atom, ulong)

// atomic_xchg on float (global and local)
kernel void atomic_xchg_float(global float *c, global float *old, global float *lc, global float *lold)
{
    local float lcnt;
    size_t g = get_global_id(0), l = get_local_id(0);
    if (l == 0) lcnt = -1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    old[g] = atomic_xchg(c, (float)g + 0.5f);
    lold[g] = atomic_xchg(&lcnt, (float)g + 0.25f);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) lc[get_group_id(0)] = lcnt;
}
