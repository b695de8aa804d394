/* The driver-style context API over the one device's primary context, peer access on a
 * one-device system, the device's UUID and stream-ordered allocation. */
#include <string.h>

#include "hip_internal.h"

/* The primary context of device 0; hipCtx_t handles are this one object. */
static struct ihipCtx_t { int unused; } primary;
static _Thread_local hipCtx_t current;
static _Thread_local bool current_set;

static hipCtx_t cur(void) { return current_set ? current : &primary; }

HIP_EXPORT hipError_t hipCtxCreate(hipCtx_t *ctx, unsigned int flags, hipDevice_t device)
{
    (void)flags;
    if (!ctx) return hip_ret(hipErrorInvalidValue);
    if (!hip_rt()) return hip_ret(hipErrorNoDevice);
    if (device != 0) return hip_ret(hipErrorInvalidDevice);
    *ctx = &primary;
    current = &primary, current_set = true;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipCtxDestroy(hipCtx_t ctx)
{
    if (ctx != &primary) return hip_ret(hipErrorInvalidContext);
    if (current == ctx) current = NULL;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipCtxGetCurrent(hipCtx_t *ctx)
{
    if (!ctx) return hip_ret(hipErrorInvalidValue);
    *ctx = cur();
    return hipSuccess;
}

HIP_EXPORT hipError_t hipCtxSetCurrent(hipCtx_t ctx)
{
    if (ctx && ctx != &primary) return hip_ret(hipErrorInvalidContext);
    current = ctx, current_set = true;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipCtxPushCurrent(hipCtx_t ctx) { return hipCtxSetCurrent(ctx); }

HIP_EXPORT hipError_t hipCtxPopCurrent(hipCtx_t *ctx)
{
    if (ctx) *ctx = cur();
    current = NULL, current_set = true;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipCtxGetDevice(hipDevice_t *device)
{
    if (!device) return hip_ret(hipErrorInvalidValue);
    if (!cur()) return hip_ret(hipErrorInvalidContext);
    *device = 0;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipCtxGetApiVersion(hipCtx_t ctx, int *version)
{
    if (!version) return hip_ret(hipErrorInvalidValue);
    if (ctx && ctx != &primary) return hip_ret(hipErrorInvalidContext);
    *version = HIP_VERSION;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipCtxSynchronize(void) { return hipDeviceSynchronize(); }
HIP_EXPORT hipError_t hipCtxGetFlags(unsigned int *flags) { return hipGetDeviceFlags(flags); }
HIP_EXPORT hipError_t hipCtxGetCacheConfig(hipFuncCache_t *c) { return hipDeviceGetCacheConfig(c); }
HIP_EXPORT hipError_t hipCtxSetCacheConfig(hipFuncCache_t c) { return hipDeviceSetCacheConfig(c); }
HIP_EXPORT hipError_t hipCtxGetSharedMemConfig(hipSharedMemConfig *c) { return hipDeviceGetSharedMemConfig(c); }
HIP_EXPORT hipError_t hipCtxSetSharedMemConfig(hipSharedMemConfig c) { return hipDeviceSetSharedMemConfig(c); }

HIP_EXPORT hipError_t hipDevicePrimaryCtxRetain(hipCtx_t *ctx, hipDevice_t device)
{
    if (!ctx) return hip_ret(hipErrorInvalidValue);
    if (device != 0) return hip_ret(hipErrorInvalidDevice);
    *ctx = &primary;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipDevicePrimaryCtxRelease(hipDevice_t device) { return device == 0 ? hipSuccess : hip_ret(hipErrorInvalidDevice); }
HIP_EXPORT hipError_t hipDevicePrimaryCtxReset(hipDevice_t device) { return device == 0 ? hipDeviceReset() : hip_ret(hipErrorInvalidDevice); }

HIP_EXPORT hipError_t hipDevicePrimaryCtxGetState(hipDevice_t device, unsigned int *flags, int *active)
{
    if (!flags || !active) return hip_ret(hipErrorInvalidValue);
    if (device != 0) return hip_ret(hipErrorInvalidDevice);
    *flags = 0, *active = 1;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipDevicePrimaryCtxSetFlags(hipDevice_t device, unsigned int flags)
{
    (void)flags;
    return device == 0 ? hipSuccess : hip_ret(hipErrorInvalidDevice);
}

/* One device: there is no peer to enable. */
HIP_EXPORT hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags)
{
    (void)flags;
    return hip_ret(peerDeviceId == 0 ? hipErrorInvalidDevice : hipErrorInvalidDevice);
}

HIP_EXPORT hipError_t hipDeviceDisablePeerAccess(int peerDeviceId)
{
    (void)peerDeviceId;
    return hip_ret(hipErrorPeerAccessNotEnabled);
}

HIP_EXPORT hipError_t hipCtxEnablePeerAccess(hipCtx_t peerCtx, unsigned int flags)
{
    (void)peerCtx, (void)flags;
    return hip_ret(hipErrorInvalidDevice);
}

HIP_EXPORT hipError_t hipCtxDisablePeerAccess(hipCtx_t peerCtx)
{
    (void)peerCtx;
    return hip_ret(hipErrorPeerAccessNotEnabled);
}

HIP_EXPORT hipError_t hipDeviceGetUuid(hipUUID *uuid, hipDevice_t device)
{
    if (!uuid) return hip_ret(hipErrorInvalidValue);
    if (device != 0) return hip_ret(hipErrorInvalidDevice);
    memset(uuid, 0, sizeof *uuid);
    memcpy(uuid->bytes, "umbra-gfx1100-00", 16);
    return hipSuccess;
}

/* Stream-ordered allocation: the allocation exists at once, which every stream order allows; a free
 * waits for the stream's earlier work. */
HIP_EXPORT hipError_t hipMallocAsync(void **ptr, size_t size, hipStream_t stream)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!hip_stream_resolve(rt, stream)) return hip_ret(hipErrorInvalidHandle);
    return hip_pool_alloc(rt, ptr, size, hip_pool_current(rt), "hipMallocAsync");   /* the device's current pool */
}

HIP_EXPORT hipError_t hipFreeAsync(void *ptr, hipStream_t stream)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!hip_stream_resolve(rt, stream)) return hip_ret(hipErrorInvalidHandle);
    return hipFree(ptr);
}

/* Several attributes at once: each as hipPointerGetAttribute answers it, the first error returned. */
HIP_EXPORT hipError_t hipDrvPointerGetAttributes(unsigned int numAttributes, hipPointer_attribute *attributes, void **data,
                                                 hipDeviceptr_t ptr)
{
    if (numAttributes && (!attributes || !data)) return hip_ret(hipErrorInvalidValue);
    for (unsigned i = 0; i < numAttributes; i++) {
        hipError_t e = hipPointerGetAttribute(data[i], attributes[i], ptr);
        if (e) return e;
    }
    return hipSuccess;
}

HIP_EXPORT hipError_t hipPointerGetAttribute(void *data, hipPointer_attribute attribute, hipDeviceptr_t ptr)
{
    if (!data) return hip_ret(hipErrorInvalidValue);
    hipPointerAttribute_t a;
    hipError_t e = hipPointerGetAttributes(&a, ptr);
    if (e) return e;
    /* each answer has the type and width CLR writes (IS_MANAGED and MAPPED a bool, RANGE_SIZE a
       32-bit count): a caller's variable of that size is not overrun */
    switch (attribute) {
    case HIP_POINTER_ATTRIBUTE_MEMORY_TYPE: *(uint32_t *)data = (uint32_t)a.memoryType; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_DEVICE_POINTER: *(void **)data = a.devicePointer; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_HOST_POINTER:
        *(void **)data = a.hostPointer;
        return a.hostPointer ? hipSuccess : hip_ret(hipErrorInvalidValue);   /* device memory: CLR's answer */
    case HIP_POINTER_ATTRIBUTE_IS_MANAGED: *(bool *)data = a.isManaged; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = 0; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS: *(bool *)data = true; return hipSuccess;   /* the only behaviour */
    case HIP_POINTER_ATTRIBUTE_MAPPED: *(bool *)data = true; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_BUFFER_ID:
    case HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    case HIP_POINTER_ATTRIBUTE_RANGE_SIZE: {   /* the allocation itself */
        hip_alloc al;
        hip_runtime *rt = hip_rt();
        if (!rt || !hip_alloc_lookup(rt, ptr, &al)) return hip_ret(hipErrorInvalidValue);
        if (attribute == HIP_POINTER_ATTRIBUTE_BUFFER_ID) *(uint32_t *)data = al.id;
        else if (attribute == HIP_POINTER_ATTRIBUTE_RANGE_SIZE) *(uint32_t *)data = (uint32_t)al.size;
        else *(hipDeviceptr_t *)data = (hipDeviceptr_t)(uintptr_t)al.base;
        return hipSuccess;
    }
    default:
        return hip_fail(hipErrorNotSupported, "hipPointerGetAttribute", "attribute %d is not one umbra answers", (int)attribute);
    }
}
