// OpenCL C 1.2 §6.12.6 relational functions. Float and double comparisons and classifications:
// scalar results are 0/1 (int), vector results 0/-1 (intn for float, longn for double); they are
// stored widened to long at out[(F * 6 + s) * n + j]. any/all/bitselect/select follow.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define BLK 48
#define vload1(j, p) ((p)[j])
#define vstore1(v, j, p) ((p)[j] = (v))
#define ST(W, WS, F, v) CAT(vstore, W)(CAT(convert_long, WS)(v), j, out + ((F) * 6 + s) * n)

#define REL_FUNCS(T, W, WS)                                                                  \
    CAT(T, WS) x = CAT(vload, W)(j, a), y = CAT(vload, W)(j, b);                            \
    ST(W, WS, 0, isequal(x, y)); ST(W, WS, 1, isnotequal(x, y));                             \
    ST(W, WS, 2, isgreater(x, y)); ST(W, WS, 3, isgreaterequal(x, y));                       \
    ST(W, WS, 4, isless(x, y)); ST(W, WS, 5, islessequal(x, y));                             \
    ST(W, WS, 6, islessgreater(x, y)); ST(W, WS, 7, isfinite(x)); ST(W, WS, 8, isinf(x));    \
    ST(W, WS, 9, isnan(x)); ST(W, WS, 10, isnormal(x)); ST(W, WS, 11, isordered(x, y));      \
    ST(W, WS, 12, isunordered(x, y)); ST(W, WS, 13, signbit(x));

#define WIDTH(T, W, WS, s_)                                                                  \
    {                                                                                        \
        const uint s = s_;                                                                   \
        for (uint k = 0; k < BLK / W; k++) {                                                 \
            size_t j = get_global_id(0) * (BLK / W) + k;                                     \
            REL_FUNCS(T, W, WS)                                                              \
        }                                                                                    \
    }
#define REL_KERNEL(T)                                                                        \
    kernel void rel_##T(global const T *a, global const T *b, global long *out)              \
    {                                                                                        \
        size_t n = get_global_size(0) * BLK;                                                 \
        WIDTH(T, 1, , 0) WIDTH(T, 2, 2, 1) WIDTH(T, 3, 3, 2) WIDTH(T, 4, 4, 3)               \
        WIDTH(T, 8, 8, 4) WIDTH(T, 16, 16, 5)                                                \
    }
REL_KERNEL(float)
REL_KERNEL(double)

// any/all (the most significant bit of each element), bitselect and select for an integer type
// T and a float type F of the same size: out[(F * 6 + s) * n + j] as ulong bits.
#define ST_U(W, WS, F, v) CAT(vstore, W)(v, j, out + ((F) * 6 + s) * n)
#define SEL_FUNCS(T, U, W, WS)                                                               \
    CAT(T, WS) x = CAT(vload, W)(j, a), y = CAT(vload, W)(j, b), z = CAT(vload, W)(j, c);   \
    CAT(vstore, W)(bitselect(x, y, z), j, o1 + s * n);                                       \
    CAT(vstore, W)(select(x, y, z), j, o2 + s * n);                                          \
    CAT(vstore, W)(select(x, y, CAT(CAT(as_, U), WS)(z)), j, o3 + s * n);

#define SWIDTH(T, U, W, WS, s_)                                                              \
    {                                                                                        \
        const uint s = s_;                                                                   \
        for (uint k = 0; k < BLK / W; k++) {                                                 \
            size_t j = get_global_id(0) * (BLK / W) + k;                                     \
            SEL_FUNCS(T, U, W, WS)                                                           \
        }                                                                                    \
    }
#define SEL_KERNEL(T, U)                                                                     \
    kernel void sel_##T(global const T *a, global const T *b, global const T *c,             \
                        global T *o1, global T *o2, global T *o3)                            \
    {                                                                                        \
        size_t n = get_global_size(0) * BLK;                                                 \
        SWIDTH(T, U, 1, , 0) SWIDTH(T, U, 2, 2, 1) SWIDTH(T, U, 3, 3, 2)                     \
        SWIDTH(T, U, 4, 4, 3) SWIDTH(T, U, 8, 8, 4) SWIDTH(T, U, 16, 16, 5)                  \
    }
SEL_KERNEL(char, uchar) SEL_KERNEL(uchar, char) SEL_KERNEL(short, ushort) SEL_KERNEL(ushort, short)
SEL_KERNEL(int, uint) SEL_KERNEL(uint, int) SEL_KERNEL(long, ulong) SEL_KERNEL(ulong, long)

// select/bitselect on float and double take an integer selector of the same size
#define FSEL_KERNEL(T, I, SI)                                                                \
    kernel void sel_##T(global const T *a, global const T *b, global const T *c,             \
                        global T *o1, global T *o2, global T *o3)                            \
    {                                                                                        \
        size_t n = get_global_size(0) * BLK;                                                 \
        FWIDTH(T, I, SI, 1, , 0) FWIDTH(T, I, SI, 2, 2, 1) FWIDTH(T, I, SI, 3, 3, 2)         \
        FWIDTH(T, I, SI, 4, 4, 3) FWIDTH(T, I, SI, 8, 8, 4) FWIDTH(T, I, SI, 16, 16, 5)      \
    }
#define FWIDTH(T, I, SI, W, WS, s_)                                                          \
    {                                                                                        \
        const uint s = s_;                                                                   \
        for (uint k = 0; k < BLK / W; k++) {                                                 \
            size_t j = get_global_id(0) * (BLK / W) + k;                                     \
            CAT(T, WS) x = CAT(vload, W)(j, a), y = CAT(vload, W)(j, b), z = CAT(vload, W)(j, c); \
            CAT(vstore, W)(bitselect(x, y, z), j, o1 + s * n);                               \
            CAT(vstore, W)(select(x, y, CAT(CAT(as_, I), WS)(z)), j, o2 + s * n);            \
            CAT(vstore, W)(select(x, y, CAT(CAT(as_, SI), WS)(z)), j, o3 + s * n);           \
        }                                                                                    \
    }
FSEL_KERNEL(float, int, uint)
FSEL_KERNEL(double, long, ulong)

// any / all of char..long vectors: one int per element group and width
#define ANYALL(T)                                                                            \
    kernel void anyall_##T(global const T *a, global int *out)                               \
    {                                                                                        \
        size_t i = get_global_id(0), n = get_global_size(0);                                 \
        out[0 * n + i] = any(a[i * 16]); out[1 * n + i] = all(a[i * 16]);                    \
        out[2 * n + i] = any(vload2(0, a + i * 16)); out[3 * n + i] = all(vload2(0, a + i * 16)); \
        out[4 * n + i] = any(vload3(0, a + i * 16)); out[5 * n + i] = all(vload3(0, a + i * 16)); \
        out[6 * n + i] = any(vload4(0, a + i * 16)); out[7 * n + i] = all(vload4(0, a + i * 16)); \
        out[8 * n + i] = any(vload8(0, a + i * 16)); out[9 * n + i] = all(vload8(0, a + i * 16)); \
        out[10 * n + i] = any(vload16(0, a + i * 16)); out[11 * n + i] = all(vload16(0, a + i * 16)); \
    }
ANYALL(char) ANYALL(short) ANYALL(int) ANYALL(long)
