/* __local kernel arguments (dynamic LDS after the static allocation): a sum and a max per group. */
__kernel void local_args(__global const uint *in, __global uint *out, __local uint *sums,
                         __local uint *maxes, uint n)
{
    __local uint fixed_tag;
    uint lid = get_local_id(0), ls = get_local_size(0);
    size_t g = get_global_id(0);
    if (lid == 0) fixed_tag = 0xabcd0000u + (uint)get_group_id(0);
    uint v = g < n ? in[g] : 0u;
    sums[lid] = v;
    maxes[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = ls / 2; s > 0; s >>= 1) {
        if (lid < s) {
            sums[lid] += sums[lid + s];
            maxes[lid] = max(maxes[lid], maxes[lid + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        out[3 * get_group_id(0)] = sums[0];
        out[3 * get_group_id(0) + 1] = maxes[0];
        out[3 * get_group_id(0) + 2] = fixed_tag;
    }
}
