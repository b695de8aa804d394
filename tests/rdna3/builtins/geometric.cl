// OpenCL C 1.2 §6.12.5 geometric functions for float and double (-DREAL=...), on scalars and
// vectors of 2, 3, 4 (cross: 3 and 4). Work-item i uses elements [4i, 4i + n) of a and b; results
// go to out (scalar results) and vout (vector results), slot per function and width.
#if REAL_IS_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define vload1(j, p) ((p)[j])
#define vstore1(v, j, p) ((p)[j] = (v))

#define GEO(W, WS, s)                                                                         \
    {                                                                                         \
        CAT(REAL, WS) x = CAT(vload, W)(0, a + 4 * i), y = CAT(vload, W)(0, b + 4 * i);       \
        out[(0 * 4 + s) * n + i] = dot(x, y);                                                 \
        out[(1 * 4 + s) * n + i] = length(x);                                                 \
        out[(2 * 4 + s) * n + i] = distance(x, y);                                            \
        CAT(vstore, W)(normalize(x), 0, vout + (0 * 4 + s) * 4 * n + 4 * i);                  \
        FAST(W, s)                                                                            \
    }
#if REAL_IS_DOUBLE
#define FAST(W, s)
#else
#define FAST(W, s)                                                                            \
    out[(3 * 4 + s) * n + i] = fast_length(x);                                                \
    out[(4 * 4 + s) * n + i] = fast_distance(x, y);                                           \
    CAT(vstore, W)(fast_normalize(x), 0, vout + (1 * 4 + s) * 4 * n + 4 * i);
#endif

kernel void geometric(global const REAL *a, global const REAL *b, global REAL *out, global REAL *vout)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    GEO(1, , 0) GEO(2, 2, 1) GEO(3, 3, 2) GEO(4, 4, 3)
    vstore3(cross(vload3(0, a + 4 * i), vload3(0, b + 4 * i)), 0, vout + 2 * 4 * 4 * n + 4 * i);
    vstore4(cross(vload4(0, a + 4 * i), vload4(0, b + 4 * i)), 0, vout + 3 * 4 * 4 * n + 4 * i);
}
