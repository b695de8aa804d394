/* The per-thread default stream forms (-fgpu-default-stream=per-thread): the same calls on
 * hipStreamPerThread when they name the null stream. */
#include "hip_internal.h"
#include <hip/amd_detail/amd_hip_runtime_pt_api.h>

static hipStream_t pt(hipStream_t s) { return s ? s : hipStreamPerThread; }

/* The synchronous forms: enqueue on the thread's stream, then wait for it. */
static hipError_t then_sync(hipError_t e)
{
    if (e) return e;
    return hipStreamSynchronize(hipStreamPerThread);
}

HIP_EXPORT hipError_t hipMemcpy_spt(void *dst, const void *src, size_t size, hipMemcpyKind kind)
{
    return hipMemcpyWithStream(dst, src, size, kind, hipStreamPerThread);
}

HIP_EXPORT hipError_t hipMemcpyToSymbol_spt(const void *symbol, const void *src, size_t size, size_t offset, hipMemcpyKind kind)
{
    return then_sync(hipMemcpyToSymbolAsync(symbol, src, size, offset, kind, hipStreamPerThread));
}

HIP_EXPORT hipError_t hipMemcpyFromSymbol_spt(void *dst, const void *symbol, size_t size, size_t offset, hipMemcpyKind kind)
{
    return then_sync(hipMemcpyFromSymbolAsync(dst, symbol, size, offset, kind, hipStreamPerThread));
}

HIP_EXPORT hipError_t hipMemcpy2D_spt(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                                      hipMemcpyKind kind)
{
    return then_sync(hipMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, hipStreamPerThread));
}

HIP_EXPORT hipError_t hipMemcpy3D_spt(const struct hipMemcpy3DParms *p) { return then_sync(hipMemcpy3DAsync(p, hipStreamPerThread)); }

HIP_EXPORT hipError_t hipMemset_spt(void *dst, int value, size_t size) { return then_sync(hipMemsetAsync(dst, value, size, hipStreamPerThread)); }

HIP_EXPORT hipError_t hipMemset2D_spt(void *dst, size_t pitch, int value, size_t width, size_t height)
{
    return then_sync(hipMemset2DAsync(dst, pitch, value, width, height, hipStreamPerThread));
}

HIP_EXPORT hipError_t hipMemset3D_spt(hipPitchedPtr p, int value, hipExtent e) { return then_sync(hipMemset3DAsync(p, value, e, hipStreamPerThread)); }

HIP_EXPORT hipError_t hipMemcpyAsync_spt(void *dst, const void *src, size_t size, hipMemcpyKind kind, hipStream_t s)
{
    return hipMemcpyAsync(dst, src, size, kind, pt(s));
}

HIP_EXPORT hipError_t hipStreamQuery_spt(hipStream_t s) { return hipStreamQuery(pt(s)); }
HIP_EXPORT hipError_t hipStreamSynchronize_spt(hipStream_t s) { return hipStreamSynchronize(pt(s)); }
HIP_EXPORT hipError_t hipStreamGetPriority_spt(hipStream_t s, int *priority) { return hipStreamGetPriority(pt(s), priority); }
HIP_EXPORT hipError_t hipStreamWaitEvent_spt(hipStream_t s, hipEvent_t e, unsigned int flags) { return hipStreamWaitEvent(pt(s), e, flags); }
HIP_EXPORT hipError_t hipStreamGetFlags_spt(hipStream_t s, unsigned int *flags) { return hipStreamGetFlags(pt(s), flags); }

HIP_EXPORT hipError_t hipMemcpy2DToArray_spt(hipArray *dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                             size_t width, size_t height, hipMemcpyKind kind)
{
    return then_sync(hipMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch, width, height, kind, hipStreamPerThread));
}

HIP_EXPORT hipError_t hipMemcpy2DFromArray_spt(void *dst, size_t dpitch, hipArray_const_t src, size_t wOffset, size_t hOffset,
                                               size_t width, size_t height, hipMemcpyKind kind)
{
    return then_sync(hipMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset, width, height, kind, hipStreamPerThread));
}
