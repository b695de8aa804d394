/* Integer operations LLVM expands into long sequences: 32- and 64-bit division and remainder
 * (signed and unsigned), sub-dword loads/stores and arithmetic, mul_hi, popcount, clz, rotate. */
__kernel void int_ops(__global const int *a, __global const int *b, __global const long *la,
                      __global const long *lb, __global const uchar *c8, __global const short *s16,
                      __global uint *out, __global ulong *out64, __global uchar *out8, __global short *out16,
                      uint n)
{
    size_t i = get_global_id(0);
    if (i >= n) return;
    int x = a[i], y = b[i];
    long lx = la[i], ly = lb[i];
    out[8 * i + 0] = (uint)(x / y);
    out[8 * i + 1] = (uint)(x % y);
    out[8 * i + 2] = (uint)x / (uint)y;
    out[8 * i + 3] = (uint)x % (uint)y;
    out[8 * i + 4] = mul_hi((uint)x, (uint)y) ^ (uint)mul_hi(x, y);
    out[8 * i + 5] = popcount((uint)x) | clz((uint)y) << 8;
    out[8 * i + 6] = rotate((uint)x, (uint)y);
    out[8 * i + 7] = mad24((uint)x, (uint)y, 7u);
    out64[4 * i + 0] = (ulong)(lx / ly);
    out64[4 * i + 1] = (ulong)(lx % ly);
    out64[4 * i + 2] = (ulong)lx / (ulong)ly;
    out64[4 * i + 3] = (ulong)lx % (ulong)ly;
    uchar u = c8[i];
    short s = s16[i];
    out8[i] = (uchar)(u * 3 + (u >> 2));
    out16[i] = (short)(s * -3 + (s >> 3));
}
