// OpenCL C 1.2 §6.12.12 shuffle and shuffle2 for every element type, input widths m = 2, 4, 8, 16
// and mask/result widths n = 2, 4, 8, 16. Masks are random full-range values: only the low
// log2(m) (shuffle) or log2(2m) (shuffle2) bits of each element may count.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

#define SH(T, U, M, N, slot)                                                                 \
    CAT(vstore, N)(shuffle(CAT(vload, M)(i, a), CAT(vload, N)(i, mask)), i, o1 + (slot) * 16 * n); \
    CAT(vstore, N)(shuffle2(CAT(vload, M)(i, a), CAT(vload, M)(i, b), CAT(vload, N)(i, mask)), i, \
                   o2 + (slot) * 16 * n);
#define SH_N(T, U, M, ms)                                                                    \
    SH(T, U, M, 2, ms * 4 + 0) SH(T, U, M, 4, ms * 4 + 1) SH(T, U, M, 8, ms * 4 + 2)         \
    SH(T, U, M, 16, ms * 4 + 3)
#define SHUFFLE_KERNEL(T, U)                                                                 \
    kernel void shuffle_##T(global const T *a, global const T *b, global const U *mask,      \
                            global T *o1, global T *o2)                                      \
    {                                                                                        \
        size_t i = get_global_id(0), n = get_global_size(0);                                 \
        SH_N(T, U, 2, 0) SH_N(T, U, 4, 1) SH_N(T, U, 8, 2) SH_N(T, U, 16, 3)                 \
    }
SHUFFLE_KERNEL(char, uchar) SHUFFLE_KERNEL(uchar, uchar) SHUFFLE_KERNEL(short, ushort)
SHUFFLE_KERNEL(ushort, ushort) SHUFFLE_KERNEL(int, uint) SHUFFLE_KERNEL(uint, uint)
SHUFFLE_KERNEL(long, ulong) SHUFFLE_KERNEL(ulong, ulong) SHUFFLE_KERNEL(float, uint)
SHUFFLE_KERNEL(double, ulong)
