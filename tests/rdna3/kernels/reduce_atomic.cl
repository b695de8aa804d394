/* Sum, max and min with atomics: every item into a __local partial, one global atomic per group;
 * plus one global atomic per item into a second counter. */
__kernel void reduce_atomic(__global const uint *in, __global uint *res, uint n)
{
    __local uint lsum, lmax;
    __local int lmin;
    size_t gid = get_global_id(0);
    if (get_local_id(0) == 0) { lsum = 0; lmax = 0; lmin = 0x7fffffff; }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (gid < n) {
        uint v = in[gid];
        atomic_add(&lsum, v);
        atomic_max(&lmax, v);
        atomic_min(&lmin, (int)(v ^ 0x5a5a5a5au));
        atomic_add(&res[3], v & 0xffu);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        atomic_add(&res[0], lsum);
        atomic_max(&res[1], lmax);
        atomic_min((__global int *)&res[2], lmin);
    }
}
