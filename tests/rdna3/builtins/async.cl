// OpenCL C 1.2 §6.12.10 async copies between global and local memory and prefetch, for several
// element types: contiguous copies in and out, strided gather and scatter, one event per copy or
// one event shared by two copies, and prefetch of the next block.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define K 3  /* elements per work-item */
#define ASYNC_KERNEL(T, OP)                                                                  \
    kernel void async_##T(global const T *src, global T *dst, global T *sdst, local T *lds,  \
                          local T *lds2)                                                     \
    {                                                                                        \
        size_t L = get_local_size(0), l = get_local_id(0), g = get_group_id(0);              \
        size_t count = L * K, base = g * count;                                              \
        event_t e = async_work_group_copy(lds, src + base, count, 0);                        \
        /* strided gather: lds2[k] = src[base + k * 2] for the group's half block, on e */   \
        e = async_work_group_strided_copy(lds2, src + base, count / 2, 2, e);                \
        prefetch(src + base + count, count);                                                 \
        wait_group_events(1, &e);                                                            \
        for (size_t k = l; k < count; k += L) lds[k] = OP(lds[k]);                           \
        for (size_t k = l; k < count / 2; k += L) lds2[k] = OP(OP(lds2[k]));                 \
        barrier(CLK_LOCAL_MEM_FENCE);                                                        \
        event_t out[2];                                                                      \
        out[0] = async_work_group_copy(dst + base, lds, count, 0);                           \
        /* strided scatter: sdst[base + k * 2] = lds2[k] */                                  \
        out[1] = async_work_group_strided_copy(sdst + base, lds2, count / 2, 2, 0);          \
        wait_group_events(2, out);                                                           \
    }
#define OP_INT(x) ((x) * 3 + 1)
#define OP_FLOAT(x) ((x) * 0.5f + 1.0f)
#define OP_DOUBLE(x) ((x) * 0.25 - 2.0)
ASYNC_KERNEL(char, OP_INT)
ASYNC_KERNEL(int, OP_INT)
ASYNC_KERNEL(long, OP_INT)
ASYNC_KERNEL(float, OP_FLOAT)
ASYNC_KERNEL(double, OP_DOUBLE)
typedef float4 float4_t;
typedef short8 short8_t;
#define OP_F4(x) ((x) * 2.0f - (float4)(1, 2, 3, 4))
#define OP_S8(x) ((x) + (short8)(1, -1, 2, -2, 3, -3, 4, -4))
ASYNC_KERNEL(float4_t, OP_F4)
ASYNC_KERNEL(short8_t, OP_S8)
