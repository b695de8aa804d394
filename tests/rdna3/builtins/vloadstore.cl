// OpenCL C 1.2 §6.12.7 vector data load and store functions.
// vls_T: vloadN / vstoreN (N = 2, 3, 4, 8, 16) of every scalar type at an element offset of 1
// (so a vector is not aligned to its size), from __global, __local and __private memory.
// half_*: vload_half[N], vloada_half[N], vstore_half[N][_rte|_rtz|_rtp|_rtn] and vstorea_half[N]
// with the same modes, from float and from double.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define vload1(j, p) ((p)[j])
#define vstore1(v, j, p) ((p)[j] = (v))

// global -> global at slot s: out[s * 16 * n + 1 + ...] = in[1 + ...]
#define VLS(T, W, s)                                                                         \
    CAT(vstore, W)(CAT(vload, W)(i, in + 1), i, out + (s) * 16 * n + 1);                     \
    {                                                                                        \
        T priv[W + 1];                                                                       \
        CAT(vstore, W)(CAT(vload, W)(i, in + 1), 0, priv + 1);                               \
        CAT(vstore, W)(CAT(vload, W)(0, priv + 1), i, out + (5 + (s)) * 16 * n + 1);         \
    }                                                                                        \
    CAT(vstore, W)(CAT(vload, W)(i, in + 1), get_local_id(0), lds + 1);                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                                            \
    CAT(vstore, W)(CAT(vload, W)(get_local_size(0) - 1 - get_local_id(0), lds + 1),          \
                   get_local_size(0) - 1 - get_local_id(0) + get_group_id(0) * get_local_size(0), \
                   out + (10 + (s)) * 16 * n + 1);                                           \
    barrier(CLK_LOCAL_MEM_FENCE);

#define VLS_KERNEL(T)                                                                        \
    kernel void vls_##T(global const T *in, global T *out)                                   \
    {                                                                                        \
        local T lds[64 * 16 + 1];                                                            \
        size_t i = get_global_id(0), n = get_global_size(0);                                 \
        VLS(T, 2, 0) VLS(T, 3, 1) VLS(T, 4, 2) VLS(T, 8, 3) VLS(T, 16, 4)                    \
    }
VLS_KERNEL(char) VLS_KERNEL(uchar) VLS_KERNEL(short) VLS_KERNEL(ushort) VLS_KERNEL(int)
VLS_KERNEL(uint) VLS_KERNEL(long) VLS_KERNEL(ulong) VLS_KERNEL(float) VLS_KERNEL(double)

// vloada_half / vstorea_half exist only for n = 2, 3, 4, 8, 16: the scalar slot uses the plain forms
#define vloada_half vload_half
#define vstorea_half vstore_half
#define vstorea_half_rte vstore_half_rte
#define vstorea_half_rtz vstore_half_rtz
#define vstorea_half_rtp vstore_half_rtp
#define vstorea_half_rtn vstore_half_rtn

// halves: work-item i handles vector i of each width (element i of the scalar forms)
#define HLOAD(W, WS, s)                                                                      \
    CAT(vstore, W)(CAT(vload_half, WS)(i, h), i, f_out + (s) * 16 * n);                      \
    CAT(vstore, W)(CAT(vloada_half, WS)(i, h), i, fa_out + (s) * 16 * n);

#define HSTORE1(SRC, W, WS, MODE, s, m)                                                      \
    CAT(CAT(vstore_half, WS), MODE)(CAT(vload, W)(i, SRC), i, h_out + ((s) * 5 + (m)) * 16 * n); \
    CAT(CAT(vstorea_half, WS), MODE)(CAT(vload, W)(i, SRC), i, ha_out + ((s) * 5 + (m)) * 16 * n);
#define HSTORE(SRC, W, WS, s)                                                                \
    HSTORE1(SRC, W, WS, , s, 0) HSTORE1(SRC, W, WS, _rte, s, 1) HSTORE1(SRC, W, WS, _rtz, s, 2) \
    HSTORE1(SRC, W, WS, _rtp, s, 3) HSTORE1(SRC, W, WS, _rtn, s, 4)
#define ALLW(M, ...) M(__VA_ARGS__ 1, , 0) M(__VA_ARGS__ 2, 2, 1) M(__VA_ARGS__ 3, 3, 2) \
    M(__VA_ARGS__ 4, 4, 3) M(__VA_ARGS__ 8, 8, 4) M(__VA_ARGS__ 16, 16, 5)

kernel void half_load(global const half *h, global float *f_out, global float *fa_out)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    ALLW(HLOAD, )
}
kernel void half_store_f32(global const float *src, global half *h_out, global half *ha_out)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    ALLW(HSTORE, src, )
}
kernel void half_store_f64(global const double *src, global half *h_out, global half *ha_out)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    ALLW(HSTORE, src, )
}
