/* Inclusive prefix sum per workgroup (Hillis-Steele, double-buffered in LDS) and the group totals. */
#define WG 256
__kernel void prefix_scan(__global const uint *in, __global uint *out, __global uint *totals, uint n)
{
    __local uint buf[2][WG];
    uint lid = get_local_id(0), ls = get_local_size(0);
    size_t gid = get_global_id(0);
    int cur = 0;
    buf[0][lid] = gid < n ? in[gid] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < ls; off <<= 1) {
        uint v = buf[cur][lid];
        if (lid >= off) v += buf[cur][lid - off];
        buf[1 - cur][lid] = v;
        cur = 1 - cur;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (gid < n) out[gid] = buf[cur][lid];
    if (lid == ls - 1) totals[get_group_id(0)] = buf[cur][lid];
}
