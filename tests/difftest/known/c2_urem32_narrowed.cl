/* C2, 32-bit form (docs/DIFFTEST.md): 0xffffffff % d for a ushort d is computed by the 24-bit
 * float division; umbra -O3 gives e.g. 0xb2 for d = 61 (0x38 is right), which is what the code computes. */
static ushort mod_ushort(ushort a, ushort b) { return (b == 0) ? a : (ushort)(a % b); }
static uint mod_uint(uint a, uint b) { return (b == 0) ? a : (uint)(a % b); }
__kernel void f(__global ulong *out, __global const uint *in, __global uint *unused)
{
    uint gid = get_global_id(0);
    ushort v4 = (ushort)((uint)(ushort)(char)in[gid] + (uint)(uchar)in[gid + 64u]);
    for (uint i1 = 0; i1 < (gid % 5u); i1++)
        v4 = mod_ushort(v4, (ushort)0x7fu);
    out[gid] = mod_uint(0xffffffffu, (uint)v4);
}
