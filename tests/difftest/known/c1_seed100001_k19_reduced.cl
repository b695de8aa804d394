/* C1 as the long run met it (seed 100001 k19, generator of ce4bb15), reduced by reduce.py with the
 * div/mod helpers out of line: out word 2 (v1) keeps (long)w0.x | ~(long)in[...]. */
static uint sub_uint(uint a, uint b) { return (uint)((uint)a - (uint)b); }
static uint mul_uint(uint a, uint b) { return (uint)((uint)a * (uint)b); }
static uint neg_uint(uint a) { return (uint)(-(uint)a); }
static long add_long(long a, long b) { return (long)((ulong)a + (ulong)b); }
static ulong add_ulong(ulong a, ulong b) { return (ulong)((ulong)a + (ulong)b); }
static ulong sub_ulong(ulong a, ulong b) { return (ulong)((ulong)a - (ulong)b); }
static ulong mul_ulong(ulong a, ulong b) { return (ulong)((ulong)a * (ulong)b); }
static ulong shr_ulong(ulong a, uint b) { return (ulong)(a >> (b & 63u)); }
static uint float_to_uint(float x) { return (x > -1.0f && x < 4294967296.0f) ? (uint)x : (uint)0; }
static ulong float_to_ulong(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? (ulong)x : (ulong)0; }
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void k19(__global ulong *out, __global const uint *in, __global uint *ctr)
{
    uint lid = get_local_id(0), gid = get_global_id(0), grp = get_group_id(0);
    __local uint lm[256];
    __local uint lc[4];
    if (lid < 4u) lc[lid] = in[lid + grp];
    barrier(CLK_LOCAL_MEM_FENCE);
    char v0 = ((char)(in[(gid * 15u + 211u) & 255u]));
    long v1 = ((long)(in[(gid * 6u + 93u) & 255u]));
    ushort v2 = ((ushort)(in[(gid * 13u + 190u) & 255u]));
    uint v3 = in[(gid * 1u + 247u) & 255u];
    short v4 = ((short)(in[(gid * 9u + 230u) & 255u]));
    uchar v5 = ((uchar)(in[(gid * 14u + 218u) & 255u]));
    char v6 = ((char)0x80u);
    char v7 = ((char)(in[(gid * 3u + 106u) & 255u]));
    ulong v8 = ((ulong)0x1UL);
    uint4 w0 = (uint4)(in[(gid + 247u) & 255u], in[(gid + 223u) & 255u], in[(gid + 31u) & 255u], in[(gid + 6u) & 255u]);
    char pa[8];
    for (uint q = 0; q < 8u; q++) pa[q] = ((char)(in[(gid + q * 3u) & 255u]));
    if ((mul_ulong(sub_ulong(((ulong)(pa[(v3) & 7u])), ((ulong)(w0.x))), shr_ulong(v8, v3)) < add_ulong(mul_ulong(((ulong)(grp)), v8), float_to_ulong(((float)(pa[(mul_uint(((uint)(v0)), v3)) & 7u])))))) {
    } else {
        atomic_and(&ctr[3], sub_uint(((uint)((((char)(v8)) <= ((char)in[(float_to_uint(((float)(gid)))) & 255u])))), neg_uint(gid)));
    }
    v1 = add_long(v1, ((long)(((long)(w0.x)) | ((long)~((long)in[(mul_uint(((uint)(v6)), v3)) & 255u])))));
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong h = 0xcbf29ce484222325UL;
    out[gid * 8u + 2u] = (ulong)(v1);
}