/* 256-bin histogram of bytes: atomic_inc on a __local histogram, then atomic_add to global. */
__kernel void histogram(__global const uchar *data, uint n, __global uint *hist)
{
    __local uint lh[256];
    uint lid = get_local_id(0), ls = get_local_size(0);
    for (uint b = lid; b < 256; b += ls) lh[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&lh[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < 256; b += ls)
        if (lh[b]) atomic_add(&hist[b], lh[b]);
}
