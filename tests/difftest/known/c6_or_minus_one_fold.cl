/* C6 (docs/DIFFTEST.md): clang-19's AMDGPU back end at -O3, wave32, folds `s_or_b32 x, -1` to x.
 * In `v1 = cond ? lid : ((char)lid >= 0 ? w0.s1 : pa[...])` clang knows lid < 32, so the inner
 * condition is an all-lanes mask (-1) and the -O3 IR branches on `or i1 cond, true`. SI Fold
 * Operands turns `S_OR_B32 %cond, %minus_one` into %cond (LLVM issue 189677, fixed by PR 189655 in
 * 2026: the fold of `or x, -1` removed the wrong operand), so the gfx1100 code runs the dead arm
 * `pa[...]` on the lanes where cond is false (`s_xor_b32 s15, vcc_lo, -1` then
 * `s_and_saveexec_b32`). umbra executes that code as written: a model of the miscompiled program
 * predicts umbra's -O3 wave32 output on all 256 work-items, the source's model its -O0 and -O3
 * wave64 outputs (tests/difftest/known_bugs.py). Found by difftest seed 13 k4 (session 10, every
 * -O3 wave32 configuration), reduced by reduce.py; explained in session 12. Launch: 256
 * work-items in workgroups of 32, out = ulong[256 * 8] (word 7 of each work-item), in = the 256
 * input words of seed 13 (run.py inputs). */
static ushort add_ushort(ushort a, ushort b) { return (ushort)((uint)a + (uint)b); }
static ushort sub_ushort(ushort a, ushort b) { return (ushort)((uint)a - (uint)b); }
static uint mul_uint(uint a, uint b) { return (uint)((uint)a * (uint)b); }
static uint shr_uint(uint a, uint b) { return (uint)(a >> (b & 31u)); }
static ulong shl_ulong(ulong a, uint b) { return (ulong)((ulong)a << (b & 63u)); }
__kernel __attribute__((reqd_work_group_size(32, 1, 1)))
void k4(__global ulong *out, __global const uint *in, __global uint *ctr)
{
    uint lid = get_local_id(0), gid = get_global_id(0), grp = get_group_id(0);
    __local uint lm[32];
    __local uint lc[4];
    if (lid < 4u) lc[lid] = in[lid + grp];
    barrier(CLK_LOCAL_MEM_FENCE);
    short v0 = ((short)0x7fffu);
    uint v1 = ((uint)0x0u);
    short v2 = ((short)(in[(gid * 1u + 120u) & 255u]));
    ushort v3 = ((ushort)0xa2b6u);
    ulong v4 = ((ulong)(in[(gid * 1u + 104u) & 255u]));
    int v5 = ((int)(in[(gid * 6u + 119u) & 255u]));
    ushort v6 = ((ushort)0x9du);
    uchar8 w0 = (uchar8)(((uchar)(in[(gid + 194u) & 255u])), ((uchar)(in[(gid + 214u) & 255u])), ((uchar)(in[(gid + 173u) & 255u])), ((uchar)(in[(gid + 219u) & 255u])), ((uchar)(in[(gid + 2u) & 255u])), ((uchar)(in[(gid + 164u) & 255u])), ((uchar)(in[(gid + 174u) & 255u])), ((uchar)(in[(gid + 107u) & 255u])));
    int4 w1 = (int4)(((int)(in[(gid + 33u) & 255u])), ((int)(in[(gid + 117u) & 255u])), ((int)(in[(gid + 102u) & 255u])), ((int)(in[(gid + 6u) & 255u])));
    short pa[8];
    for (uint q = 0; q < 8u; q++) pa[q] = ((short)(in[(gid + q * 3u) & 255u]));
    for (uint i0 = 0; i0 < (gid % 5u); i0++) {
        for (uint i1 = 0; i1 < (gid % 5u); i1++) {
            switch ((mul_uint(min(lid, ((uint)in[(mul_uint(v1, ((uint)(pa[(((uint)~i1)) & 7u])))) & 255u])), ((uint)0x7u))) & 3u) {
            case 0u:
                v1 = ((uint)((shl_ulong(v4, i0) < ((ulong)(((((char)(pa[(mul_uint(gid, ((uint)0x3u))) & 7u])) == ((char)(v5))) || (v5 == v5))))) ? lid : ((uint)((((char)(lid)) >= ((char)0x0u)) ? ((uint)(w0.s1)) : ((uint)(pa[(((uint)((v2 < ((short)in[(i0) & 255u])) ? gid : ((uint)in[(shr_uint(v1, gid)) & 255u])))) & 7u]))))));
            case 1u:
            case 2u:
                v6 = sub_ushort(v6, add_ushort(((ushort)(pa[(((uint)(((long)(lid))))) & 7u])), ((ushort)(lid))));
            default:
                v4 = rotate(v4, ((ulong)(v4 | ((ulong)(gid)))));
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong h = 0xcbf29ce484222325UL;
    out[gid * 8u + 7u] = (ulong)(v6);
}