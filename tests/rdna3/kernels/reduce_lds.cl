/* Per-workgroup sum of uints: tree reduction in LDS (static __local array). */
#define WG 256
__kernel void reduce_lds(__global const uint *in, __global uint *out, uint n)
{
    __local uint tmp[WG];
    uint lid = get_local_id(0);
    size_t gid = get_global_id(0);
    tmp[lid] = gid < n ? in[gid] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    /* works for any group size up to WG (the last group is partial) */
    uint ls = get_local_size(0);
    for (uint s = WG / 2; s > 0; s >>= 1) {
        if (lid < s && lid + s < ls) tmp[lid] += tmp[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) out[get_group_id(0)] = tmp[0];
}
