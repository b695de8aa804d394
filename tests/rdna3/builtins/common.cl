// OpenCL C 1.2 §6.12.4 common functions for float and double (-DREAL=...), scalar and vectors of
// 2, 3, 4, 8, 16, including the forms with scalar arguments. Results at out[(F * 6 + s) * n + j].
#if REAL_IS_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define BLK 48
#define vload1(j, p) ((p)[j])
#define vstore1(v, j, p) ((p)[j] = (v))
#define ST(W, F, v) CAT(vstore, W)(v, j, out + ((F) * 6 + s) * n)

#define COMMON_FUNCS(W, WS)                                                                   \
    CAT(REAL, WS) x = CAT(vload, W)(j, a), y = CAT(vload, W)(j, b), z = CAT(vload, W)(j, c);  \
    REAL xs = a[j], ys = b[j], zs = c[j];                                                     \
    CAT(REAL, WS) lo = fmin(y, z), hi = fmax(y, z);                                           \
    REAL los = fmin(ys, zs), his = fmax(ys, zs);                                              \
    ST(W, 0, clamp(x, lo, hi)); ST(W, 1, degrees(x)); ST(W, 2, max(x, y)); ST(W, 3, min(x, y)); \
    ST(W, 4, mix(x, y, z)); ST(W, 5, radians(x)); ST(W, 6, step(y, x));                       \
    ST(W, 7, smoothstep(lo, hi, x)); ST(W, 8, sign(x));                                       \
    ST(W, 9, clamp(x, los, his)); ST(W, 10, max(x, ys)); ST(W, 11, min(x, ys));               \
    ST(W, 12, mix(x, y, zs)); ST(W, 13, step(ys, x)); ST(W, 14, smoothstep(los, his, x));

#define WIDTH(W, WS, s_)                                                                      \
    {                                                                                         \
        const uint s = s_;                                                                    \
        for (uint k = 0; k < BLK / W; k++) {                                                  \
            size_t j = get_global_id(0) * (BLK / W) + k;                                      \
            COMMON_FUNCS(W, WS)                                                               \
        }                                                                                     \
    }

kernel void common_funcs(global const REAL *a, global const REAL *b, global const REAL *c,
                         global REAL *out)
{
    size_t n = get_global_size(0) * BLK;
    WIDTH(1, , 0) WIDTH(2, 2, 1) WIDTH(3, 3, 2) WIDTH(4, 4, 3) WIDTH(8, 8, 4) WIDTH(16, 16, 5)
}
