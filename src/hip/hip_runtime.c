/* The runtime's one instance, the device as HIP describes it, device management and errors. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hip_internal.h"

/* Device memory lives at addresses the host never uses: a range of the host's address space is
 * reserved (no access, no backing) and given to libumbra as its heap, so that hipMemcpyDefault,
 * hipPointerGetAttributes and the host-mapped memory (mapped into the device at its own host
 * address) can never confuse a device pointer with a host one. */

static hip_runtime runtime;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool ready;
static _Thread_local hipError_t last_error;

static void fill_props(hip_runtime *rt);

/* The range is the platform layer's (plat_reserve_heap), shared with OpenCL's SVM. */
static bool reserve_device_range(hip_runtime *rt)
{
    plat_heap h;
    if (!plat_reserve_heap(&h)) return false;
    rt->va_base = h.base, rt->va_size = h.size;
    return true;
}

static void init(void)
{
    hip_runtime *rt = &runtime;
    pthread_mutex_init(&rt->lock, NULL);
    pthread_mutex_init(&rt->graph_lock, NULL);
    if (!reserve_device_range(rt)) {
        fprintf(stderr, "umbra hip: cannot reserve even 4 GiB of address space for device memory\n");
        return;
    }
    /* the top quarter of a large range: device addresses for virtual memory management
       (hipMemAddressReserve), outside the heap, where host pages are mapped (hip_vmm.c) */
    uint64_t vmm = rt->va_size >= (64ull << 30) ? rt->va_size / 4 : 0;
    if (!plat_init(&rt->plat, "umbra hip", (plat_heap){ rt->va_base, rt->va_size - vmm })) return;
    if (vmm && !hip_vmm_init(rt, rt->va_base + rt->va_size - vmm, vmm)) return;
    fill_props(rt);
    rt->null_stream = calloc(1, sizeof *rt->null_stream);
    if (!rt->null_stream || !(rt->null_stream->ps = plat_stream_create(rt->null_stream, 0))) {
        fprintf(stderr, "umbra hip: cannot start the null stream's thread\n");
        return;
    }
    rt->null_stream->is_null = true;
    ready = true;
}

hip_runtime *hip_rt(void)
{
    pthread_once(&once, init);
    return ready ? &runtime : NULL;
}

hipError_t hip_ret(hipError_t e)
{
    if (e != hipSuccess) last_error = e;
    return e;
}

hipError_t hip_fail(hipError_t e, const char *fn, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "umbra hip: %s: %s (%s)\n", fn, msg, hipGetErrorName(e));
    return hip_ret(e);
}

/* What a GPU reports for each way a launch can fail in umbra. */
hipError_t hip_status_error(umb_status st, const char *message)
{
    switch (st) {
    case UMB_OK: return hipSuccess;
    case UMB_ERR_GUEST_FAULT:
        return message && (strstr(message, "assert") || strstr(message, "abort")) ? hipErrorAssert : hipErrorIllegalAddress;
    case UMB_ERR_BUDGET: case UMB_ERR_DEADLOCK: return hipErrorLaunchTimeOut;
    case UMB_ERR_NOMEM: return hipErrorOutOfMemory;
    case UMB_ERR_UNSUPPORTED: return hipErrorLaunchFailure;   /* an instruction umbra does not run */
    case UMB_ERR_INVALID: return hipErrorLaunchFailure;
    default: return hipErrorUnknown;
    }
}

void hip_set_sticky(hipError_t e)
{
    pthread_mutex_lock(&runtime.lock);
    if (runtime.sticky == hipSuccess) runtime.sticky = e;
    pthread_mutex_unlock(&runtime.lock);
}

hipError_t hip_sticky(void)
{
    pthread_mutex_lock(&runtime.lock);
    hipError_t e = runtime.sticky;
    pthread_mutex_unlock(&runtime.lock);
    return e;
}

#define RT_OR_FAIL(fn)                                                                      \
    hip_runtime *rt = hip_rt();                                                             \
    if (!rt) return hip_ret(hipErrorNoDevice)

/* ---------------- the device ---------------- */

static void fill_props(hip_runtime *rt)
{
    hipDeviceProp_t *p = &rt->props;
    const umb_platform *pl = &rt->plat;
    memset(p, 0, sizeof *p);
    /* UMBRA_IDENTITY=rocm: the name ROCm gives the card (rocminfo's marketing name), as the
     * OpenCL room reports ROCm's names then (docs/OPENCL.md "Identity") */
    if (pl->rocm_identity)
        snprintf(p->name, sizeof p->name, "%s", plat_board_name(pl));
    else
        snprintf(p->name, sizeof p->name, "umbra AMD Radeon RX 7900 XTX (simulated gfx1100)");
    snprintf(p->gcnArchName, sizeof p->gcnArchName, "gfx1100");
    p->gcnArch = 1100;
    p->major = 11, p->minor = 0;
    p->totalGlobalMem = pl->global_mem_size;
    p->sharedMemPerBlock = 64 << 10;
    p->maxSharedMemoryPerMultiProcessor = 64 << 10;
    p->regsPerBlock = 65536;
    p->warpSize = 32;                      /* HIP's default for gfx11: wave32 */
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = p->maxThreadsDim[2] = 1024;
    p->maxGridSize[0] = p->maxGridSize[1] = p->maxGridSize[2] = 0x7fffffff;
    p->clockRate = (int)pl->clock_mhz * 1000;
    p->memoryClockRate = 1250000;          /* GDDR6 at 20 Gbps: 1250 MHz */
    p->memoryBusWidth = 384;
    p->totalConstMem = 0x7fffffff;
    p->multiProcessorCount = (int)pl->reported_units;   /* WGPs, as ROCm (platform.h) */
    p->l2CacheSize = 6 << 20;
    /* 16 wave slots on each SIMD32, 2 SIMDs per CU, per multiprocessor (WGP) as ROCm counts it */
    p->maxThreadsPerMultiProcessor = (int)(32 * 32 * (pl->compute_units / pl->reported_units));
    p->computeMode = 0;
    p->clockInstructionRate = 100000;      /* s_memrealtime: 100 MHz */
    p->arch.hasGlobalInt32Atomics = p->arch.hasGlobalFloatAtomicExch = p->arch.hasSharedInt32Atomics = 1;
    p->arch.hasSharedFloatAtomicExch = p->arch.hasFloatAtomicAdd = p->arch.hasGlobalInt64Atomics = 1;
    p->arch.hasSharedInt64Atomics = p->arch.hasDoubles = p->arch.hasWarpVote = p->arch.hasWarpBallot = 1;
    /* as CLR sets them, equal to the device code's __HIP_ARCH_HAS_* macros (hip-tests'
       Unit_hipGetDeviceProperties_ArchPropertiesTst compares the two): no funnel shift, no
       __syncthreads_{count,and,or} flag, no surface functions, no dynamic parallelism */
    p->arch.hasWarpShuffle = p->arch.hasThreadFenceSystem = p->arch.has3dGrid = 1;
    p->concurrentKernels = 1;
    p->pciDomainID = 0, p->pciBusID = 3, p->pciDeviceID = 0;
    p->canMapHostMemory = 1;
    p->cooperativeLaunch = 1;
    p->maxTexture1DLinear = 1 << 27;
    p->maxTexture1D = 16384;
    p->maxTexture2D[0] = p->maxTexture2D[1] = 16384;
    p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 2048;
    p->memPitch = 0x7fffffff;
    p->textureAlignment = 256;
    p->texturePitchAlignment = 256;
    p->managedMemory = 1;
    p->directManagedMemAccessFromHost = 1;   /* managed memory is host memory the device maps */
    p->concurrentManagedAccess = 1;
    p->asicRevision = 0;
    p->hdpMemFlushCntl = &rt->hdp_mem_flush;
    p->hdpRegFlushCntl = &rt->hdp_reg_flush;
}

HIP_EXPORT hipError_t hipInit(unsigned int flags)
{
    if (flags) return hip_ret(hipErrorInvalidValue);
    return hip_ret(hip_rt() ? hipSuccess : hipErrorNoDevice);
}

HIP_EXPORT hipError_t hipGetDeviceCount(int *count)
{
    if (!count) return hip_ret(hipErrorInvalidValue);
    *count = hip_rt() ? 1 : 0;
    return hip_ret(*count ? hipSuccess : hipErrorNoDevice);
}

HIP_EXPORT hipError_t hipGetDevice(int *device)
{
    if (!device) return hip_ret(hipErrorInvalidValue);
    RT_OR_FAIL(hipGetDevice);
    *device = 0;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipSetDevice(int device)
{
    RT_OR_FAIL(hipSetDevice);
    return hip_ret(device == 0 ? hipSuccess : hipErrorInvalidDevice);
}

HIP_EXPORT hipError_t hipDeviceGet(hipDevice_t *device, int ordinal)
{
    if (!device) return hip_ret(hipErrorInvalidValue);
    RT_OR_FAIL(hipDeviceGet);
    if (ordinal != 0) return hip_ret(hipErrorInvalidDevice);
    *device = 0;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device)
{
    if (!prop) return hip_ret(hipErrorInvalidValue);
    RT_OR_FAIL(hipGetDeviceProperties);
    if (device != 0) return hip_ret(hipErrorInvalidDevice);
    *prop = rt->props;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipDeviceGetName(char *name, int len, hipDevice_t device)
{
    if (!name || len <= 0) return hip_ret(hipErrorInvalidValue);
    RT_OR_FAIL(hipDeviceGetName);
    if (device != 0) return hip_ret(hipErrorInvalidDevice);
    snprintf(name, (size_t)len, "%s", rt->props.name);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t device)
{
    if (!bytes) return hip_ret(hipErrorInvalidValue);
    RT_OR_FAIL(hipDeviceTotalMem);
    if (device != 0) return hip_ret(hipErrorInvalidDevice);
    *bytes = rt->props.totalGlobalMem;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipDeviceComputeCapability(int *major, int *minor, hipDevice_t device)
{
    if (!major || !minor) return hip_ret(hipErrorInvalidValue);
    RT_OR_FAIL(hipDeviceComputeCapability);
    if (device != 0) return hip_ret(hipErrorInvalidDevice);
    *major = rt->props.major, *minor = rt->props.minor;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    if (!pciBusId || len <= 0) return hip_ret(hipErrorInvalidValue);
    RT_OR_FAIL(hipDeviceGetPCIBusId);
    if (device != 0) return hip_ret(hipErrorInvalidDevice);
    snprintf(pciBusId, (size_t)len, "%04x:%02x:%02x.0", rt->props.pciDomainID, rt->props.pciBusID, rt->props.pciDeviceID);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
    if (!device || !pciBusId) return hip_ret(hipErrorInvalidValue);
    RT_OR_FAIL(hipDeviceGetByPCIBusId);
    char mine[32];
    snprintf(mine, sizeof mine, "%04x:%02x:%02x.0", rt->props.pciDomainID, rt->props.pciBusID, rt->props.pciDeviceID);
    if (strncasecmp(pciBusId, mine, 12) && strncasecmp(pciBusId, mine + 5, 7)) return hip_ret(hipErrorInvalidDevice);
    *device = 0;
    return hipSuccess;
}

static int attribute(const hip_runtime *rt, hipDeviceAttribute_t a, bool *ok)
{
    const hipDeviceProp_t *p = &rt->props;
    *ok = true;
    switch (a) {
    case hipDeviceAttributeEccEnabled: return p->ECCEnabled;
    case hipDeviceAttributeAsyncEngineCount: return 2;
    case hipDeviceAttributeCanMapHostMemory: return p->canMapHostMemory;
    case hipDeviceAttributeCanUseHostPointerForRegisteredMem: return 1;
    case hipDeviceAttributeClockRate: return p->clockRate;
    case hipDeviceAttributeComputeMode: return p->computeMode;
    case hipDeviceAttributeComputePreemptionSupported: return 0;
    case hipDeviceAttributeConcurrentKernels: return p->concurrentKernels;
    case hipDeviceAttributeConcurrentManagedAccess: return p->concurrentManagedAccess;
    case hipDeviceAttributeCooperativeLaunch: return p->cooperativeLaunch;
    case hipDeviceAttributeCooperativeMultiDeviceLaunch: return p->cooperativeMultiDeviceLaunch;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc: return p->cooperativeMultiDeviceUnmatchedFunc;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim: return p->cooperativeMultiDeviceUnmatchedGridDim;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim: return p->cooperativeMultiDeviceUnmatchedBlockDim;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem: return p->cooperativeMultiDeviceUnmatchedSharedMem;
    case hipDeviceAttributeDeviceOverlap: return 1;
    case hipDeviceAttributeDirectManagedMemAccessFromHost: return p->directManagedMemAccessFromHost;
    case hipDeviceAttributeGlobalL1CacheSupported: return 1;
    case hipDeviceAttributeHostNativeAtomicSupported: return 1;
    case hipDeviceAttributeIntegrated: return p->integrated;
    case hipDeviceAttributeIsMultiGpuBoard: return p->isMultiGpuBoard;
    case hipDeviceAttributeKernelExecTimeout: return p->kernelExecTimeoutEnabled;
    case hipDeviceAttributeL2CacheSize: return p->l2CacheSize;
    case hipDeviceAttributeLocalL1CacheSupported: return 1;
    case hipDeviceAttributeComputeCapabilityMajor: return p->major;
    case hipDeviceAttributeComputeCapabilityMinor: return p->minor;
    case hipDeviceAttributeManagedMemory: return p->managedMemory;
    case hipDeviceAttributeMaxBlocksPerMultiProcessor: return 32;
    case hipDeviceAttributeMaxBlockDimX: return p->maxThreadsDim[0];
    case hipDeviceAttributeMaxBlockDimY: return p->maxThreadsDim[1];
    case hipDeviceAttributeMaxBlockDimZ: return p->maxThreadsDim[2];
    case hipDeviceAttributeMaxGridDimX: return p->maxGridSize[0];
    case hipDeviceAttributeMaxGridDimY: return p->maxGridSize[1];
    case hipDeviceAttributeMaxGridDimZ: return p->maxGridSize[2];
    case hipDeviceAttributeMaxTexture1DWidth: return p->maxTexture1D;
    case hipDeviceAttributeMaxTexture1DLinear: return p->maxTexture1DLinear;
    case hipDeviceAttributeMaxTexture2DWidth: return p->maxTexture2D[0];
    case hipDeviceAttributeMaxTexture2DHeight: return p->maxTexture2D[1];
    case hipDeviceAttributeMaxTexture3DWidth: return p->maxTexture3D[0];
    case hipDeviceAttributeMaxTexture3DHeight: return p->maxTexture3D[1];
    case hipDeviceAttributeMaxTexture3DDepth: return p->maxTexture3D[2];
    case hipDeviceAttributeMaxThreadsPerBlock: return p->maxThreadsPerBlock;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor: return p->maxThreadsPerMultiProcessor;
    case hipDeviceAttributeMaxPitch: return (int)p->memPitch;
    case hipDeviceAttributeMemoryBusWidth: return p->memoryBusWidth;
    case hipDeviceAttributeMemoryClockRate: return p->memoryClockRate;
    case hipDeviceAttributeMultiprocessorCount: return p->multiProcessorCount;
    case hipDeviceAttributePageableMemoryAccess: return p->pageableMemoryAccess;
    case hipDeviceAttributePageableMemoryAccessUsesHostPageTables: return p->pageableMemoryAccessUsesHostPageTables;
    case hipDeviceAttributePciBusId: return p->pciBusID;
    case hipDeviceAttributePciDeviceId: return p->pciDeviceID;
    case hipDeviceAttributePciDomainID: return p->pciDomainID;
    case hipDeviceAttributeMaxRegistersPerBlock: return p->regsPerBlock;
    case hipDeviceAttributeMaxRegistersPerMultiprocessor: return p->regsPerBlock;
    case hipDeviceAttributeMaxSharedMemoryPerBlock: return (int)p->sharedMemPerBlock;
    case hipDeviceAttributeSharedMemPerBlockOptin: return (int)p->sharedMemPerBlock;
    case hipDeviceAttributeSharedMemPerMultiprocessor: return (int)p->maxSharedMemoryPerMultiProcessor;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: return (int)p->maxSharedMemoryPerMultiProcessor;
    case hipDeviceAttributeSingleToDoublePrecisionPerfRatio: return 32;
    case hipDeviceAttributeStreamPrioritiesSupported: return 1;   /* kept and reported: hip_stream.c */
    case hipDeviceAttributeTccDriver: return p->tccDriver;
    case hipDeviceAttributeTextureAlignment: return (int)p->textureAlignment;
    case hipDeviceAttributeTexturePitchAlignment: return (int)p->texturePitchAlignment;
    case hipDeviceAttributeTotalConstantMemory: return (int)p->totalConstMem;
    case hipDeviceAttributeUnifiedAddressing: return 1;
    case hipDeviceAttributeWarpSize: return p->warpSize;
    case hipDeviceAttributeMemoryPoolsSupported: return 1;   /* hip_mempool.c */
    case hipDeviceAttributeClockInstructionRate: return p->clockInstructionRate;
    case hipDeviceAttributeGcnArch: return p->gcnArch;
    case hipDeviceAttributeIsLargeBar: return p->isLargeBar;
    case hipDeviceAttributeAsicRevision: return p->asicRevision;
    case hipDeviceAttributeCanUseStreamWaitValue: return 1;   /* hipStreamWaitValue32/64 (hip_stream.c) */
    case hipDeviceAttributeImageSupport: return 1;   /* arrays, texture and surface objects (hip_image.c) */
    case hipDeviceAttributePhysicalMultiProcessorCount: return p->multiProcessorCount;
    case hipDeviceAttributeFineGrainSupport: return 1;
    default: *ok = false; return 0;
    }
}

HIP_EXPORT hipError_t hipDeviceGetAttribute(int *pi, hipDeviceAttribute_t attr, int device)
{
    if (!pi) return hip_ret(hipErrorInvalidValue);
    RT_OR_FAIL(hipDeviceGetAttribute);
    if (device != 0) return hip_ret(hipErrorInvalidDevice);
    if (attr == hipDeviceAttributeHdpMemFlushCntl || attr == hipDeviceAttributeHdpRegFlushCntl) {
        /* a pointer, written through pi as CLR does: the caller passes pointer-sized storage */
        unsigned int *reg = attr == hipDeviceAttributeHdpMemFlushCntl ? rt->props.hdpMemFlushCntl : rt->props.hdpRegFlushCntl;
        memcpy(pi, &reg, sizeof reg);
        return hipSuccess;
    }
    bool ok;
    int v = attribute(rt, attr, &ok);
    if (!ok) return hip_fail(hipErrorInvalidValue, "hipDeviceGetAttribute", "attribute %d is not one umbra answers", (int)attr);
    *pi = v;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipChooseDevice(int *device, const hipDeviceProp_t *prop)
{
    if (!device || !prop) return hip_ret(hipErrorInvalidValue);
    RT_OR_FAIL(hipChooseDevice);
    *device = 0;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipDeviceSynchronize(void)
{
    RT_OR_FAIL(hipDeviceSynchronize);
    hipError_t e = hip_capture_forbids_sync(NULL, "hipDeviceSynchronize");
    return e ? e : hip_ret(hip_sync_all(rt));
}

HIP_EXPORT hipError_t hipDeviceReset(void)
{
    RT_OR_FAIL(hipDeviceReset);
    hip_sync_all(rt);
    pthread_mutex_lock(&rt->lock);
    rt->sticky = hipSuccess;
    pthread_mutex_unlock(&rt->lock);
    last_error = hipSuccess;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipSetDeviceFlags(unsigned flags)
{
    RT_OR_FAIL(hipSetDeviceFlags);
    if (flags & ~(hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax)) return hip_ret(hipErrorInvalidValue);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipGetDeviceFlags(unsigned *flags)
{
    if (!flags) return hip_ret(hipErrorInvalidValue);
    RT_OR_FAIL(hipGetDeviceFlags);
    *flags = hipDeviceMapHost;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipDeviceGetLimit(size_t *value, enum hipLimit_t limit)
{
    if (!value) return hip_ret(hipErrorInvalidValue);
    RT_OR_FAIL(hipDeviceGetLimit);
    switch (limit) {
    case hipLimitMallocHeapSize: *value = 4u << 20 << 5; return hipSuccess;
    case hipLimitPrintfFifoSize: *value = UMB_RDNA3_PRINTF_BUFFER_DEFAULT; return hipSuccess;
    default: return hip_fail(hipErrorUnsupportedLimit, "hipDeviceGetLimit", "limit %d", (int)limit);
    }
}

HIP_EXPORT hipError_t hipDeviceSetCacheConfig(hipFuncCache_t c) { (void)c; return hip_rt() ? hipSuccess : hip_ret(hipErrorNoDevice); }
HIP_EXPORT hipError_t hipDeviceGetCacheConfig(hipFuncCache_t *c)
{
    if (!c) return hip_ret(hipErrorInvalidValue);
    *c = hipFuncCachePreferNone;
    return hipSuccess;
}
HIP_EXPORT hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig c) { (void)c; return hipSuccess; }
HIP_EXPORT hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig *c)
{
    if (!c) return hip_ret(hipErrorInvalidValue);
    *c = hipSharedMemBankSizeFourByte;
    return hipSuccess;
}
HIP_EXPORT hipError_t hipFuncSetCacheConfig(const void *func, hipFuncCache_t c) { (void)func, (void)c; return hipSuccess; }
HIP_EXPORT hipError_t hipFuncSetSharedMemConfig(const void *func, hipSharedMemConfig c) { (void)func, (void)c; return hipSuccess; }

HIP_EXPORT hipError_t hipDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least) *least = HIP_STREAM_PRIORITY_LOW;
    if (greatest) *greatest = HIP_STREAM_PRIORITY_HIGH;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipDeviceCanAccessPeer(int *can, int device, int peer)
{
    if (!can) return hip_ret(hipErrorInvalidValue);
    if (device != 0 || peer != 0) return hip_ret(hipErrorInvalidDevice);
    *can = 0;   /* one device: no peer */
    return hipSuccess;
}

HIP_EXPORT hipError_t hipDriverGetVersion(int *v)
{
    if (!v) return hip_ret(hipErrorInvalidValue);
    *v = HIP_VERSION;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipRuntimeGetVersion(int *v)
{
    if (!v) return hip_ret(hipErrorInvalidValue);
    *v = HIP_VERSION;
    return hipSuccess;
}

/* ---------------- errors ---------------- */

HIP_EXPORT hipError_t hipGetLastError(void)
{
    hipError_t e = last_error;
    last_error = hipSuccess;
    if (e == hipSuccess && hip_rt()) e = hip_sticky();
    return e;
}

HIP_EXPORT hipError_t hipPeekAtLastError(void)
{
    hipError_t e = last_error;
    if (e == hipSuccess && hip_rt()) e = hip_sticky();
    return e;
}

#define HIP_ERRORS(X)                                                                                \
    X(hipSuccess, "no error")                                                                        \
    X(hipErrorInvalidValue, "invalid argument")                                                      \
    X(hipErrorOutOfMemory, "out of memory")                                                          \
    X(hipErrorNotInitialized, "initialization error")                                                \
    X(hipErrorDeinitialized, "driver shutting down")                                                 \
    X(hipErrorProfilerDisabled, "profiler disabled while using external profiling tool")             \
    X(hipErrorProfilerNotInitialized, "profiler is not initialized")                                 \
    X(hipErrorProfilerAlreadyStarted, "profiler already started")                                    \
    X(hipErrorProfilerAlreadyStopped, "profiler already stopped")                                    \
    X(hipErrorInvalidConfiguration, "invalid configuration argument")                                \
    X(hipErrorInvalidPitchValue, "invalid pitch argument")                                           \
    X(hipErrorInvalidSymbol, "invalid device symbol")                                                \
    X(hipErrorInvalidDevicePointer, "invalid device pointer")                                        \
    X(hipErrorInvalidMemcpyDirection, "invalid copy direction for memcpy")                           \
    X(hipErrorInsufficientDriver, "driver version is insufficient for runtime version")              \
    X(hipErrorMissingConfiguration, "__global__ function call is not configured")                    \
    X(hipErrorPriorLaunchFailure, "unspecified launch failure in prior launch")                      \
    X(hipErrorInvalidDeviceFunction, "invalid device function")                                      \
    X(hipErrorNoDevice, "no ROCm-capable device is detected")                                        \
    X(hipErrorInvalidDevice, "invalid device ordinal")                                               \
    X(hipErrorInvalidImage, "device kernel image is invalid")                                        \
    X(hipErrorInvalidContext, "invalid device context")                                              \
    X(hipErrorContextAlreadyCurrent, "context is already current context")                           \
    X(hipErrorMapFailed, "mapping of buffer object failed")                                          \
    X(hipErrorUnmapFailed, "unmapping of buffer object failed")                                      \
    X(hipErrorArrayIsMapped, "array is mapped")                                                      \
    X(hipErrorAlreadyMapped, "resource already mapped")                                              \
    X(hipErrorNoBinaryForGpu, "no kernel image is available for execution on the device")           \
    X(hipErrorAlreadyAcquired, "resource already acquired")                                          \
    X(hipErrorNotMapped, "resource not mapped")                                                      \
    X(hipErrorNotMappedAsArray, "resource not mapped as array")                                      \
    X(hipErrorNotMappedAsPointer, "resource not mapped as pointer")                                  \
    X(hipErrorECCNotCorrectable, "uncorrectable ECC error encountered")                              \
    X(hipErrorUnsupportedLimit, "limit is not supported on this architecture")                       \
    X(hipErrorContextAlreadyInUse, "exclusive-thread device already in use by a different thread")   \
    X(hipErrorPeerAccessUnsupported, "peer access is not supported between these two devices")      \
    X(hipErrorInvalidKernelFile, "invalid kernel file")                                              \
    X(hipErrorInvalidGraphicsContext, "invalid OpenGL or DirectX context")                           \
    X(hipErrorInvalidSource, "device kernel image is invalid")                                       \
    X(hipErrorFileNotFound, "file not found")                                                        \
    X(hipErrorSharedObjectSymbolNotFound, "shared object symbol not found")                          \
    X(hipErrorSharedObjectInitFailed, "shared object initialization failed")                         \
    X(hipErrorOperatingSystem, "OS call failed or operation not supported on this OS")               \
    X(hipErrorInvalidHandle, "invalid resource handle")                                              \
    X(hipErrorIllegalState, "the operation cannot be performed in the present state")                \
    X(hipErrorNotFound, "named symbol not found")                                                    \
    X(hipErrorNotReady, "device not ready")                                                          \
    X(hipErrorIllegalAddress, "an illegal memory access was encountered")                            \
    X(hipErrorLaunchOutOfResources, "too many resources requested for launch")                      \
    X(hipErrorLaunchTimeOut, "the launch timed out and was terminated")                              \
    X(hipErrorPeerAccessAlreadyEnabled, "peer access is already enabled")                            \
    X(hipErrorPeerAccessNotEnabled, "peer access has not been enabled")                              \
    X(hipErrorSetOnActiveProcess, "cannot set while device is active in this process")              \
    X(hipErrorContextIsDestroyed, "context is destroyed")                                            \
    X(hipErrorAssert, "device-side assert triggered")                                                \
    X(hipErrorHostMemoryAlreadyRegistered, "part or all of the requested memory range is already mapped") \
    X(hipErrorHostMemoryNotRegistered, "pointer does not correspond to a registered memory region") \
    X(hipErrorLaunchFailure, "unspecified launch failure")                                           \
    X(hipErrorCooperativeLaunchTooLarge, "too many blocks in cooperative launch")                    \
    X(hipErrorNotSupported, "operation not supported")                                               \
    X(hipErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing")          \
    X(hipErrorStreamCaptureInvalidated, "operation failed due to a previous error during capture")   \
    X(hipErrorStreamCaptureMerge, "operation would result in a merge of separate capture sequences") \
    X(hipErrorStreamCaptureUnmatched, "capture was not ended in the same stream as it began")        \
    X(hipErrorStreamCaptureUnjoined, "capturing stream has unjoined work")                           \
    X(hipErrorStreamCaptureIsolation, "dependency created on uncaptured work in another stream")     \
    X(hipErrorStreamCaptureImplicit, "operation would make the legacy stream depend on a capturing blocking stream") \
    X(hipErrorCapturedEvent, "operation not permitted on an event last recorded in a capturing stream") \
    X(hipErrorStreamCaptureWrongThread, "attempt to terminate a thread-local capture sequence from another thread") \
    X(hipErrorGraphExecUpdateFailure, "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update") \
    X(hipErrorUnknown, "unknown error")                                                              \
    X(hipErrorRuntimeMemory, "runtime memory call returned error")                                   \
    X(hipErrorRuntimeOther, "runtime call other than memory returned error")

HIP_EXPORT const char *hipGetErrorName(hipError_t e)
{
    switch (e) {
#define X(name, text) case name: return #name;
        HIP_ERRORS(X)
#undef X
    default: return "hipErrorUnknown";
    }
}

HIP_EXPORT const char *hipGetErrorString(hipError_t e)
{
    switch (e) {
#define X(name, text) case name: return text;
        HIP_ERRORS(X)
#undef X
    default: return "unknown error";
    }
}

int hip_unsupported_ret(int e);
int hip_unsupported_ret(int e) { return hip_ret((hipError_t)e); }
