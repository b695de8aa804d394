/* Generic (flat) pointers: one helper called with __global, __local and private pointers. */
__attribute__((noinline)) static uint weighted_sum(const uint *p, uint count, uint stride)
{
    uint s = 0;
    for (uint i = 0; i < count; i++) s += p[i * stride] * (i + 1);
    return s;
}
__kernel void generic_ptr(__global const uint *in, __global uint *out, uint n)
{
    __local uint tile[64];
    uint lid = get_local_id(0);
    size_t g = get_global_id(0);
    uint priv[4] = { (uint)g, (uint)g * 3u, 7u, (uint)g ^ 0xffu };
    tile[lid] = g < n ? in[g] * 5u : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (g >= n) return;
    uint base = lid & ~7u;
    uint a = weighted_sum(&in[g & ~7u], (g & ~7u) + 8 <= n ? 8u : (uint)(n - (g & ~7u)), 1);
    uint b = weighted_sum(&tile[base], 8, 1);
    uint c = weighted_sum(priv, 4, 1);
    out[g] = a ^ (b << 1) ^ (c << 2);
}
