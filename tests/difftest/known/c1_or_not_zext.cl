/* C1 (docs/DIFFTEST.md): clang-19 -O3 for gfx1100 drops the all-ones high dword of x | ~(ulong)y.
 * Run in/out: umbra cc -O3 vs -O0 (or PoCL); out[t] must be 0xffffffffffffffff for every t. */
__kernel void f(__global ulong *out, __global const uint *in, __global uint *unused)
{
    uint t = get_global_id(0);
    long a = (long)(short)in[t] + 0x8fad982aL;
    out[t] = (ulong)a | ~(ulong)in[t + 64u];
}
