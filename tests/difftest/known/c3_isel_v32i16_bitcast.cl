/* C3 (docs/DIFFTEST.md): clang-19 -O3 for gfx1100 aborts: "Cannot select: v32i16 = bitcast" of a
 * private ulong[8] array promoted to <8 x i64>. Reduced by reduce.py from seed 1 k4. -O0 compiles. */
static short add_short(short a, short b) { return (short)((uint)a + (uint)b); }
static short neg_short(short a) { return (short)(-(uint)a); }
static uint add_uint(uint a, uint b) { return (uint)((uint)a + (uint)b); }
static uint sub_uint(uint a, uint b) { return (uint)((uint)a - (uint)b); }
static uint mul_uint(uint a, uint b) { return (uint)((uint)a * (uint)b); }
static uint mod_uint(uint a, uint b) { return (b == 0) ? a : (uint)(a % b); }
static long mul_long(long a, long b) { return (long)((ulong)a * (ulong)b); }
static ulong add_ulong(ulong a, ulong b) { return (ulong)((ulong)a + (ulong)b); }
static ulong sub_ulong(ulong a, ulong b) { return (ulong)((ulong)a - (ulong)b); }
static ulong hf(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
__kernel __attribute__((reqd_work_group_size(96, 1, 1)))
void k4(__global ulong *out, __global const uint *in, __global uint *ctr)
{
    uint lid = get_local_id(0), gid = get_global_id(0), grp = get_group_id(0);
    __local uint lm[96];
    __local uint lc[4];
    if (lid < 4u) lc[lid] = in[lid + grp];
    barrier(CLK_LOCAL_MEM_FENCE);
    short v0 = ((short)(in[(gid * 12u + 6u) & 255u]));
    long v1 = ((long)0x2680d8d2e5aab83eUL);
    float v2 = ((float)((int)in[(gid + 94u) & 255u] % 2048) * (-7.5f));
    ulong v3 = ((ulong)(in[(gid * 12u + 113u) & 255u]));
    uchar v4 = ((uchar)0x3u);
    ulong pa[8];
    for (uint q = 0; q < 8u; q++) pa[q] = ((ulong)(in[(gid + q * 3u) & 255u]));
    if (((gid & 3u) == 0u)) {
    } else {
        switch ((((uint)0xa50ff44fu)) & 3u) {
        case 0u:
        case 1u:
        case 2u:
        default:
            v0 = add_short(((short)(gid)), ((short)(pa[(add_uint(((uint)0xffffffffu), ((uint)0xffffffffu))) & 7u])));
            if ((lid >= 48u)) {
                v1 = mul_long(v1, mul_long(((long)(((max(((ushort)0x3u), ((ushort)(pa[(mul_uint(grp, ((uint)0x80000000u))) & 7u]))) <= max(((ushort)in[(mod_uint(((uint)0x7fffffffu), ((uint)0x3u))) & 255u]), ((ushort)(v4)))) || (((int)0x3u) == ((int)(v0)))))), ((long)(pa[(rotate(lid, ((uint)in[(((uint)(v4))) & 255u]))) & 7u]))));
            }
        }
    }
    switch ((sub_uint(((uint)(((short)(pa[(((uint)0x7fffffffu)) & 7u])))), ((uint)0x3u))) & 3u) {
    case 0u:
    default:
        if ((v0 == neg_short(((short)(v0 ^ ((short)(lid))))))) {
            pa[(add_uint(((uint)(((uint)in[(((uint)((v2 == v2)))) & 255u]) ^ ((uint)0x4bfa30e9u))), mod_uint(((uint)0x7b6afae9u), grp))) & 7u] = add_ulong(sub_ulong(((ulong)(((uint)(v1)))), v3), ((ulong)((max(((long)(v4)), v1) > ((long)(v1 & ((long)(pa[(((uint)(((v3 > ((ulong)(lid))) || (((uchar)(grp)) <= v4))))) & 7u]))))))));
                v2 = ((float)(((355.9507757938454) + ((double)(pa[(((uint)0x2u)) & 7u])))));
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong h = 0xcbf29ce484222325UL;
    out[gid * 8u + 3u] = hf(v2);
}