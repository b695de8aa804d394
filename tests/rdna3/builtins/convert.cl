// OpenCL C 1.2 §6.2.3 explicit conversions convert_<dest>[n][_sat][_rte|_rtz|_rtp|_rtn] from each of
// the ten scalar types (float and double twice, at two widths) to each destination type. One kernel
// per destination: slot (source * NMODES + mode) of out holds the results for that source buffer
// and rounding mode; each source is converted at its own width (1, 2, 3, 4, 8, 16 all occur).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define BLK 48
#define vload1(j, p) ((p)[j])
#define vstore1(v, j, p) ((p)[j] = (v))

#define CV(D, P, MODE, W, WS, slot)                                                          \
    for (uint k = 0; k < BLK / W; k++) {                                                     \
        size_t j = get_global_id(0) * (BLK / W) + k;                                         \
        CAT(vstore, W)(CAT(CAT(convert_, CAT(D, WS)), MODE)(CAT(vload, W)(j, P)), j,         \
                       out + (slot) * n);                                                    \
    }

// the twelve sources, in the driver's order, each at its width
#define SOURCES(D, MODE, m, NM)                                                              \
    CV(D, p0, MODE, 1, , 0 * NM + m) CV(D, p1, MODE, 2, 2, 1 * NM + m)                       \
    CV(D, p2, MODE, 3, 3, 2 * NM + m) CV(D, p3, MODE, 4, 4, 3 * NM + m)                      \
    CV(D, p4, MODE, 8, 8, 4 * NM + m) CV(D, p5, MODE, 16, 16, 5 * NM + m)                    \
    CV(D, p6, MODE, 3, 3, 6 * NM + m) CV(D, p7, MODE, 2, 2, 7 * NM + m)                      \
    CV(D, p8, MODE, 1, , 8 * NM + m) CV(D, p9, MODE, 1, , 9 * NM + m)                        \
    CV(D, p8, MODE, 4, 4, 10 * NM + m) CV(D, p9, MODE, 16, 16, 11 * NM + m)

#define PARAMS(D)                                                                            \
    global const char *p0, global const uchar *p1, global const short *p2,                  \
    global const ushort *p3, global const int *p4, global const uint *p5,                    \
    global const long *p6, global const ulong *p7, global const float *p8,                   \
    global const double *p9, global D *out

// integer destinations: default (rtz), _sat, the four rounding modes, and _sat with each
#define TO_INT(D)                                                                            \
    kernel void conv_##D(PARAMS(D))                                                          \
    {                                                                                        \
        size_t n = get_global_size(0) * BLK;                                                 \
        SOURCES(D, , 0, 10) SOURCES(D, _sat, 1, 10) SOURCES(D, _rte, 2, 10)                  \
        SOURCES(D, _rtz, 3, 10) SOURCES(D, _rtp, 4, 10) SOURCES(D, _rtn, 5, 10)              \
        SOURCES(D, _sat_rte, 6, 10) SOURCES(D, _sat_rtz, 7, 10) SOURCES(D, _sat_rtp, 8, 10)  \
        SOURCES(D, _sat_rtn, 9, 10)                                                          \
    }
// floating-point destinations: default (rte) and the four rounding modes
#define TO_FLOAT(D)                                                                          \
    kernel void conv_##D(PARAMS(D))                                                          \
    {                                                                                        \
        size_t n = get_global_size(0) * BLK;                                                 \
        SOURCES(D, , 0, 5) SOURCES(D, _rte, 1, 5) SOURCES(D, _rtz, 2, 5)                     \
        SOURCES(D, _rtp, 3, 5) SOURCES(D, _rtn, 4, 5)                                        \
    }

TO_INT(char) TO_INT(uchar) TO_INT(short) TO_INT(ushort) TO_INT(int) TO_INT(uint) TO_INT(long)
TO_INT(ulong) TO_FLOAT(float) TO_FLOAT(double)
