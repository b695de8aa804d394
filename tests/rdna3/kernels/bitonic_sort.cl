/* Bitonic sort of 2*WG uints per workgroup in LDS; each work-item owns one compare-exchange. */
#define WG 128
__kernel void bitonic_sort(__global uint *data)
{
    __local uint s[2 * WG];
    uint lid = get_local_id(0);
    size_t base = get_group_id(0) * 2 * WG;
    s[lid] = data[base + lid];
    s[lid + WG] = data[base + lid + WG];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 2; k <= 2 * WG; k <<= 1) {
        for (uint j = k >> 1; j > 0; j >>= 1) {
            uint i = 2 * lid - (lid & (j - 1));   /* lower index of this item's pair */
            uint p = i + j;
            bool up = (i & k) == 0;
            uint a = s[i], b = s[p];
            if ((a > b) == up) { s[i] = b; s[p] = a; }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    data[base + lid] = s[lid];
    data[base + lid + WG] = s[lid + WG];
}
