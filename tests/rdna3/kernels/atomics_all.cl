/* Every OpenCL 1.x atomic on global int/uint/long and on local uint, with order-independent results.
 * 64-bit ones are the cl_khr_int64_base/extended_atomics atom_* functions. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void atomics_all(__global int *gi, __global uint *gu, __global long *gl, __global uint *lres,
                          __global uint *counter_out)
{
    __local uint lu[8];
    uint lid = get_local_id(0);
    int g = (int)get_global_id(0);
    if (lid < 8) lu[lid] = lid == 2 ? 0xffffffffu : (lid == 6 ? 1000u : 0u);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&gi[0], g);
    atomic_sub(&gi[1], g);
    atomic_min(&gi[2], g - 100);
    atomic_max(&gi[3], g * 3);
    atomic_and(&gu[0], ~(1u << (g & 31)));
    atomic_or(&gu[1], 1u << (g & 31));
    atomic_xor(&gu[2], (uint)g * 0x9e3779b9u);
    atomic_inc(&gu[3]);
    atomic_dec(&gu[4]);
    atom_add(&gl[0], (long)g << 33);
    atom_max(&gl[1], (long)g * -5000000000L);
    atom_min(&gl[2], (long)g * -5000000000L);
    atom_xor(&gl[3], (long)g << 40 | g);
    atomic_xchg(&gu[5], 7u);
    /* a counter built from compare-and-swap retries */
    uint old = gu[6], seen;
    while ((seen = atomic_cmpxchg(&gu[6], old, old + 2u)) != old) old = seen;
    atomic_add(&lu[0], (uint)g);
    atomic_inc(&lu[1]);
    atomic_min(&lu[2], (uint)g + 10u);
    atomic_max(&lu[3], (uint)g);
    atomic_or(&lu[4], 1u << (lid & 31));
    atomic_xor(&lu[5], (uint)g);
    atomic_dec(&lu[6]);
    uint lo = lu[7], ls;
    while ((ls = atomic_cmpxchg(&lu[7], lo, lo + 1u)) != lo) lo = ls;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 8) atomic_add(&lres[lid], lu[lid]);
    if (lid == 0) atomic_inc(counter_out);
}
