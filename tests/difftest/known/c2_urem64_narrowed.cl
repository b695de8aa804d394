/* C2 (docs/DIFFTEST.md): clang-19 -O3 for gfx1100 divides a 64-bit dividend with many sign bits
 * as a 32-bit number: (2^64-1) % 4 gives 0x3f instead of 3. */
__kernel void f(__global ulong *out, __global const uint *in, __global uint *unused)
{
    uint t = get_global_id(0);
    ulong x = (in[t] & 1u) ? 0xffffffffffffffffUL : (ulong)(in[t] & 2u);
    ulong d = popcount((ulong)in[t + 64u]);
    out[t] = d == 0 ? 99 : x % d;
}
