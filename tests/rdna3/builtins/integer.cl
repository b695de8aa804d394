// OpenCL C 1.2 §6.12.3 integer functions for char, uchar, short, ushort, int, uint, long, ulong,
// scalar and vectors of 2, 3, 4, 8, 16. One kernel per type: for each function F and width slot s
// (0 = scalar, 1..5 = 2, 3, 4, 8, 16) it writes the results, widened with convert_ulong (C
// modular conversion), to out[(F * 6 + s) * n + j], n = 48 * global size.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define BLK 48
#define vload1(j, p) ((p)[j])
#define vstore1(v, j, p) ((p)[j] = (v))
#define LD(W, p) CAT(vload, W)(j, p)
#define ST(W, WS, F, v) CAT(vstore, W)(CAT(convert_ulong, WS)(v), j, out + ((F) * 6 + s) * n)

// the 24-bit operands mad24/mul24 are defined for (§6.12.3): sign-extended or masked low 24 bits
#define LOW24_int(x) (((x) << 8) >> 8)
#define LOW24_uint(x) ((x) & 0xffffffu)

#define COMMON_FUNCS(T, W, WS)                                                              \
    CAT(T, WS) x = LD(W, a), y = LD(W, b), z = LD(W, c);                                   \
    CAT(T, WS) lo = min(y, z), hi = max(y, z);                                              \
    ST(W, WS, 0, abs(x));                                                                   \
    ST(W, WS, 1, abs_diff(x, y));                                                           \
    ST(W, WS, 2, add_sat(x, y));                                                            \
    ST(W, WS, 3, hadd(x, y));                                                               \
    ST(W, WS, 4, rhadd(x, y));                                                              \
    ST(W, WS, 5, clamp(x, lo, hi));                                                         \
    ST(W, WS, 6, clz(x));                                                                   \
    ST(W, WS, 7, mad_hi(x, y, z));                                                          \
    ST(W, WS, 8, mad_sat(x, y, z));                                                         \
    ST(W, WS, 9, max(x, y));                                                                \
    ST(W, WS, 10, min(x, y));                                                               \
    ST(W, WS, 11, mul_hi(x, y));                                                            \
    ST(W, WS, 12, rotate(x, y));                                                            \
    ST(W, WS, 13, sub_sat(x, y));                                                           \
    ST(W, WS, 14, popcount(x));

#define UPSAMPLE(T, UT, W, WS) ST(W, WS, 15, upsample(x, CAT(CAT(convert_, UT), WS)(y)));
#define MAD24(T, W, WS)                                                                     \
    ST(W, WS, 16, mad24(CAT(LOW24_, T)(x), CAT(LOW24_, T)(y), z));                         \
    ST(W, WS, 17, mul24(CAT(LOW24_, T)(x), CAT(LOW24_, T)(y)));

#define WIDTH(T, EXTRA, W, WS, s_)                                                          \
    {                                                                                       \
        const uint s = s_;                                                                  \
        for (uint k = 0; k < BLK / W; k++) {                                                \
            size_t j = get_global_id(0) * (BLK / W) + k;                                    \
            COMMON_FUNCS(T, W, WS) EXTRA(W, WS)                                             \
        }                                                                                   \
    }

#define INT_KERNEL(T, EXTRA)                                                                \
    kernel void int_##T(global const T *a, global const T *b, global const T *c,            \
                        global ulong *out)                                                  \
    {                                                                                       \
        size_t n = get_global_size(0) * BLK;                                                \
        WIDTH(T, EXTRA, 1, , 0) WIDTH(T, EXTRA, 2, 2, 1) WIDTH(T, EXTRA, 3, 3, 2)           \
        WIDTH(T, EXTRA, 4, 4, 3) WIDTH(T, EXTRA, 8, 8, 4) WIDTH(T, EXTRA, 16, 16, 5)        \
    }

#define X_char(W, WS) UPSAMPLE(char, uchar, W, WS)
#define X_uchar(W, WS) UPSAMPLE(uchar, uchar, W, WS)
#define X_short(W, WS) UPSAMPLE(short, ushort, W, WS)
#define X_ushort(W, WS) UPSAMPLE(ushort, ushort, W, WS)
#define X_int(W, WS) UPSAMPLE(int, uint, W, WS) MAD24(int, W, WS)
#define X_uint(W, WS) UPSAMPLE(uint, uint, W, WS) MAD24(uint, W, WS)
#define X_long(W, WS)
#define X_ulong(W, WS)

INT_KERNEL(char, X_char)
INT_KERNEL(uchar, X_uchar)
INT_KERNEL(short, X_short)
INT_KERNEL(ushort, X_ushort)
INT_KERNEL(int, X_int)
INT_KERNEL(uint, X_uint)
INT_KERNEL(long, X_long)
INT_KERNEL(ulong, X_ulong)

// The case of issue 9: signed mad24(-3, 5, 1) must be -14, scalar and vector.
kernel void mad24_case(global int *out)
{
    out[0] = mad24(-3, 5, 1);
    int4 v = mad24((int4)(-3, 3, -3, -8388608), (int4)(5, -5, -5, 2), (int4)(1, 1, 1, 0));
    vstore4(v, 0, out + 1);
    out[5] = mul24(-3, 5);
    vstore4(mul24((int4)(-3, 3, -3, 8388607), (int4)(5, -5, -5, 3)), 0, out + 6);
}
