/* Launches: the triple-chevron configuration stack, hipLaunchKernel and its relatives, the module
 * API's launches, cooperative launches, function attributes and occupancy. */
#include <stdlib.h>
#include <string.h>

#include "hip_internal.h"

#define LDS_BYTES (64u << 10)

/* ---------------- <<<grid, block, shared, stream>>> ---------------- */

typedef struct call_config {
    dim3 grid, block;
    size_t shared;
    hipStream_t stream;
} call_config;

#define MAX_PUSHED 64
static _Thread_local call_config pushed[MAX_PUSHED];
static _Thread_local unsigned npushed;

HIP_EXPORT hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, hipStream_t stream)
{
    if (npushed == MAX_PUSHED) return hip_ret(hipErrorInvalidConfiguration);
    pushed[npushed++] = (call_config){ gridDim, blockDim, sharedMem, stream };
    return hipSuccess;
}

HIP_EXPORT hipError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, hipStream_t *stream)
{
    if (!npushed) return hip_ret(hipErrorMissingConfiguration);
    call_config c = pushed[--npushed];
    *gridDim = c.grid, *blockDim = c.block, *sharedMem = c.shared, *stream = c.stream;
    return hipSuccess;
}

/* ---------------- the launch command ---------------- */

typedef struct launch_job {
    hipFunction_t f;
    umb_rdna3_dispatch d;
    umb_rdna3_arg *args;
    uint8_t *values;
} launch_job;

static void free_launch(void *p)
{
    launch_job *j = p;
    free(j->args);
    free(j->values);
    free(j);
}

static void print_now(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    fwrite(text, 1, len, stdout);
    fflush(stdout);
}

static void exec_launch(hip_cmd *c)
{
    hip_runtime *rt = hip_rt();
    launch_job *j = c->payload;
    if (hip_sticky() != hipSuccess) {   /* the device is in an error state: later launches do not run */
        c->result = hip_sticky();
        return;
    }
    uint64_t ns = 0;
    j->d.cu_mask = c->stream->cu_mask_device;   /* the stream's CU mask (NULL: every CU) */
    j->d.cu_mask_words = c->stream->cu_mask_device_words;
    umb_status st = plat_run(&rt->plat, hip_function_program(j->f), &j->d, &ns);
    if (rt->plat.timing) hip_clock_advance(rt, ns);
    if (st) {
        c->result = hip_status_error(st, umb_device_last_error(rt->plat.dev));
        fprintf(stderr, "umbra hip: the kernel's failure is reported as %s by every later synchronising call\n",
                hipGetErrorName(c->result));
        hip_set_sticky(c->result);
    }
}

/* Check the configuration against the device and the kernel, as a GPU runtime does. */
static hipError_t check_config(hip_runtime *rt, const hip_launch_params *p, const char *api)
{
    const umb_rdna3_kernel_info *ki = p->f->ki;
    uint64_t threads = (uint64_t)p->block.x * p->block.y * p->block.z;
    if (!p->grid.x || !p->grid.y || !p->grid.z || !threads)
        return hip_fail(hipErrorInvalidConfiguration, api, "kernel %s: grid (%u, %u, %u) of blocks (%u, %u, %u)",
                        p->f->name, p->grid.x, p->grid.y, p->grid.z, p->block.x, p->block.y, p->block.z);
    if (p->block.x > 1024 || p->block.y > 1024 || p->block.z > 1024 || threads > 1024)
        return hip_fail(hipErrorInvalidConfiguration, api, "kernel %s: a block of (%u, %u, %u) threads exceeds 1024",
                        p->f->name, p->block.x, p->block.y, p->block.z);
    if (threads > ki->max_flat_workgroup_size)
        return hip_fail(hipErrorInvalidConfiguration, api,
                        "kernel %s: a block of %llu threads exceeds its launch bound of %u (__launch_bounds__)",
                        p->f->name, (unsigned long long)threads, ki->max_flat_workgroup_size);
    for (int i = 0; i < 3; i++) {
        uint64_t n = (uint64_t)(&p->grid.x)[i] * (&p->block.x)[i];
        if (n > 0xffffffffu)
            return hip_fail(hipErrorInvalidConfiguration, api, "kernel %s: %llu threads in dimension %d (at most 2^32 - 1)",
                            p->f->name, (unsigned long long)n, i);
    }
    if (ki->group_segment_fixed_size + p->shared > LDS_BYTES)
        return hip_fail(hipErrorInvalidValue, api, "kernel %s: %u bytes of static and %zu of dynamic shared memory exceed 64 KiB",
                        p->f->name, ki->group_segment_fixed_size, p->shared);
    if (p->cooperative) {
        uint64_t blocks = (uint64_t)p->grid.x * p->grid.y * p->grid.z;
        uint64_t fit = (uint64_t)hip_blocks_per_cu(p->f, (uint32_t)threads, p->shared) * rt->plat.compute_units;
        if (blocks > fit)
            return hip_fail(hipErrorCooperativeLaunchTooLarge, api,
                            "kernel %s: %llu blocks, but only %llu can be resident at once (%u compute units)",
                            p->f->name, (unsigned long long)blocks, (unsigned long long)fit, rt->plat.compute_units);
    }
    return hipSuccess;
}

/* Copy the explicit arguments (their sizes from the metadata). */
static hipError_t copy_args(const hip_launch_params *p, launch_job *j, const char *api)
{
    const umb_rdna3_kernel_info *ki = p->f->ki;
    uint32_t n = ki->nexplicit;
    size_t bytes = 0;
    for (uint32_t i = 0; i < n; i++) bytes += ki->args[i].size;
    j->args = calloc(n ? n : 1, sizeof *j->args);
    j->values = malloc(bytes ? bytes : 1);
    if (!j->args || !j->values) return hip_ret(hipErrorOutOfMemory);
    uint8_t *w = j->values;
    for (uint32_t i = 0; i < n; i++) {
        const umb_rdna3_arg_info *a = &ki->args[i];
        const void *src;
        if (p->arg_buffer) {
            if ((uint64_t)a->offset + a->size > p->arg_buffer_size)
                return hip_fail(hipErrorInvalidValue, api, "kernel %s: argument %u (bytes %u..%u) lies beyond the %zu-byte "
                                "argument buffer", p->f->name, i, a->offset, a->offset + a->size, p->arg_buffer_size);
            src = p->arg_buffer + a->offset;
        } else {
            if (!p->args || !p->args[i])
                return hip_fail(hipErrorInvalidValue, api, "kernel %s: argument %u of %u is missing", p->f->name, i, n);
            src = p->args[i];
        }
        if (a->kind != UMB_RDNA3_ARG_BY_VALUE && a->kind != UMB_RDNA3_ARG_GLOBAL_BUFFER)
            return hip_fail(hipErrorNotSupported, api, "kernel %s: argument %u is a %s, which umbra's HIP runtime does not pass yet",
                            p->f->name, i, umb_rdna3_value_kind_name(a->kind));
        memcpy(w, src, a->size);
        j->args[i] = (umb_rdna3_arg){ .value = w, .size = a->size };
        w += a->size;
    }
    return hipSuccess;
}

hipError_t hip_launch_cmd(hip_runtime *rt, const hip_launch_params *p, const char *api, hip_cmd **out)
{
    hipError_t e = hip_function_ready(rt, p->f, api);
    if (e) return e;
    if ((e = check_config(rt, p, api))) return e;
    launch_job *j = calloc(1, sizeof *j);
    if (!j) return hip_ret(hipErrorOutOfMemory);
    if ((e = copy_args(p, j, api))) {
        free_launch(j);
        return e;
    }
    j->f = p->f;
    umb_rdna3_dispatch *d = &j->d;
    d->kernel = p->f->ki->name;
    d->work_dim = p->grid.z * p->block.z > 1 ? 3 : p->grid.y * p->block.y > 1 ? 2 : 1;
    const uint32_t grid[3] = { p->grid.x, p->grid.y, p->grid.z }, block[3] = { p->block.x, p->block.y, p->block.z };
    for (int i = 0; i < 3; i++) {
        d->global_size[i] = (uint64_t)grid[i] * block[i];
        d->local_size[i] = block[i];
    }
    d->args = j->args, d->nargs = p->f->ki->nexplicit;
    d->dynamic_lds_size = (uint32_t)p->shared;
    d->printf_fn = print_now;
    d->cooperative = p->cooperative;
    hip_cmd *c = hip_cmd_new(exec_launch, j, free_launch);
    if (!c) {
        free_launch(j);
        return hip_ret(hipErrorOutOfMemory);
    }
    *out = c;
    return hipSuccess;
}

/* A cooperative launch on a CU-masked stream: every block resident on the CUs the mask enables. */
static hipError_t masked_cooperative_fits(const hip_launch_params *p, hipStream_t s, const char *api)
{
    uint32_t cus = 0;
    for (uint32_t w = 0; w < s->cu_mask_device_words; w++) cus += (uint32_t)__builtin_popcount(s->cu_mask_device[w]);
    uint64_t threads = (uint64_t)p->block.x * p->block.y * p->block.z;
    uint64_t blocks = (uint64_t)p->grid.x * p->grid.y * p->grid.z;
    uint64_t fit = (uint64_t)hip_blocks_per_cu(p->f, (uint32_t)threads, p->shared) * cus;
    if (blocks <= fit) return hipSuccess;
    return hip_fail(hipErrorCooperativeLaunchTooLarge, api, "kernel %s: %llu blocks, but only %llu can be resident at "
                    "once on the %u compute units the stream's CU mask enables", p->f->name, (unsigned long long)blocks,
                    (unsigned long long)fit, cus);
}

hipError_t hip_launch(hip_runtime *rt, const hip_launch_params *p, hipStream_t stream, const char *api)
{
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_fail(hipErrorInvalidHandle, api, "not a stream");
    if (hip_capturing(s)) return hip_capture_launch(rt, s, p, api);
    hip_cmd *c;
    hipError_t e = hip_launch_cmd(rt, p, api, &c);
    if (e) return e;
    if (p->cooperative && s->cu_mask_device && (e = masked_cooperative_fits(p, s, api))) return c->pc.done(&c->pc), e;
    if (p->start && (e = hip_event_record(rt, p->start, s, api))) return c->pc.done(&c->pc), e;
    hip_enqueue(rt, s, c);
    if (p->stop) hip_event_record(rt, p->stop, s, api);
    return hip_sticky() ? hip_ret(hip_sticky()) : hipSuccess;
}

hipError_t hip_launch_extra(void **extra, hip_launch_params *p, const char *api)
{
    size_t *size = NULL;
    for (int i = 0; extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
        if (i > 64) return hip_fail(hipErrorInvalidValue, api, "extra is not terminated by HIP_LAUNCH_PARAM_END");
        if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER) p->arg_buffer = extra[i + 1];
        else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE) size = extra[i + 1];
        else return hip_fail(hipErrorInvalidValue, api, "extra[%d] is not a HIP_LAUNCH_PARAM_* key", i);
    }
    if (!p->arg_buffer || !size) return hip_fail(hipErrorInvalidValue, api, "extra lacks the buffer or its size");
    p->arg_buffer_size = *size;
    return hipSuccess;
}

#define RT_OR_FAIL()                                            \
    hip_runtime *rt = hip_rt();                                 \
    if (!rt) return hip_ret(hipErrorNoDevice)

static hipError_t launch_host_fn(const void *fn, dim3 grid, dim3 block, void **args, size_t shared, hipStream_t stream,
                                 bool cooperative, hipEvent_t start, hipEvent_t stop, const char *api)
{
    RT_OR_FAIL();
    hip_launch_params p = { .grid = grid, .block = block, .shared = shared, .args = args,
                            .cooperative = cooperative, .start = start, .stop = stop };
    hipError_t e = hip_function_for_host(rt, fn, &p.f, api);
    return e ? e : hip_launch(rt, &p, stream, api);
}

HIP_EXPORT hipError_t hipLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks, void **args,
                                      size_t sharedMemBytes, hipStream_t stream)
{
    return launch_host_fn(function_address, numBlocks, dimBlocks, args, sharedMemBytes, stream, false, NULL, NULL,
                          "hipLaunchKernel");
}

HIP_EXPORT hipError_t hipLaunchKernel_spt(const void *function_address, dim3 numBlocks, dim3 dimBlocks, void **args,
                                          size_t sharedMemBytes, hipStream_t stream)
{
    return launch_host_fn(function_address, numBlocks, dimBlocks, args, sharedMemBytes,
                          stream ? stream : hipStreamPerThread, false, NULL, NULL, "hipLaunchKernel_spt");
}

HIP_EXPORT hipError_t hipExtLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks, void **args,
                                         size_t sharedMemBytes, hipStream_t stream, hipEvent_t startEvent,
                                         hipEvent_t stopEvent, int flags)
{
    (void)flags;
    return launch_host_fn(function_address, numBlocks, dimBlocks, args, sharedMemBytes, stream, false, startEvent,
                          stopEvent, "hipExtLaunchKernel");
}

HIP_EXPORT hipError_t hipLaunchCooperativeKernel(const void *f, dim3 gridDim, dim3 blockDimX, void **kernelParams,
                                                 unsigned int sharedMemBytes, hipStream_t stream)
{
    return launch_host_fn(f, gridDim, blockDimX, kernelParams, sharedMemBytes, stream, true, NULL, NULL,
                          "hipLaunchCooperativeKernel");
}

HIP_EXPORT hipError_t hipLaunchCooperativeKernel_spt(const void *f, dim3 gridDim, dim3 blockDimX, void **kernelParams,
                                                     uint32_t sharedMemBytes, hipStream_t stream)
{
    return launch_host_fn(f, gridDim, blockDimX, kernelParams, sharedMemBytes, stream ? stream : hipStreamPerThread,
                          true, NULL, NULL, "hipLaunchCooperativeKernel_spt");
}

/* hipModuleLaunchKernel's `extra`: {HIP_LAUNCH_PARAM_BUFFER_POINTER, buf, HIP_LAUNCH_PARAM_BUFFER_SIZE,
 * &size, HIP_LAUNCH_PARAM_END}. */
static hipError_t module_launch(hipFunction_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                unsigned bz, size_t shared, hipStream_t stream, void **params, void **extra,
                                hipEvent_t start, hipEvent_t stop, bool cooperative, const char *api)
{
    RT_OR_FAIL();
    if (!f) return hip_fail(hipErrorInvalidResourceHandle, api, "NULL function");
    hip_launch_params p = { .f = f, .grid = { gx, gy, gz }, .block = { bx, by, bz }, .shared = shared, .args = params,
                            .cooperative = cooperative, .start = start, .stop = stop };
    if (params && extra) return hip_fail(hipErrorInvalidValue, api, "both kernelParams and extra given");
    if (extra) {
        hipError_t e = hip_launch_extra(extra, &p, api);
        if (e) return e;
    }
    return hip_launch(rt, &p, stream, api);
}

HIP_EXPORT hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                            unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                            unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream,
                                            void **kernelParams, void **extra)
{
    return module_launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, stream,
                         kernelParams, extra, NULL, NULL, false, "hipModuleLaunchKernel");
}

/* hipExtModuleLaunchKernel and hipHccModuleLaunchKernel take the grid in work-items. */
static hipError_t ext_module_launch(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx, uint32_t by,
                                    uint32_t bz, size_t shared, hipStream_t stream, void **params, void **extra,
                                    hipEvent_t start, hipEvent_t stop, const char *api)
{
    if (!bx || !by || !bz || gx % bx || gy % by || gz % bz)
        return hip_fail(hipErrorInvalidValue, api, "the global size (%u, %u, %u) is not a multiple of the block (%u, %u, %u)",
                        gx, gy, gz, bx, by, bz);
    return module_launch(f, gx / bx, gy / by, gz / bz, bx, by, bz, shared, stream, params, extra, start, stop, false, api);
}

HIP_EXPORT hipError_t _Z24hipExtModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_j(
    hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx, uint32_t by, uint32_t bz, size_t shared,
    hipStream_t stream, void **params, void **extra, hipEvent_t start, hipEvent_t stop, uint32_t flags)
{
    (void)flags;
    return ext_module_launch(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra, start, stop, "hipExtModuleLaunchKernel");
}

HIP_EXPORT hipError_t _Z24hipHccModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_(
    hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx, uint32_t by, uint32_t bz, size_t shared,
    hipStream_t stream, void **params, void **extra, hipEvent_t start, hipEvent_t stop)
{
    return ext_module_launch(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra, start, stop, "hipHccModuleLaunchKernel");
}

/* hipLaunchKernelGGL in HIP's headers of old: hip_impl::hipLaunchKernelGGLImpl(function address, grid,
 * block, shared, stream, args). */
HIP_EXPORT void _ZN8hip_impl22hipLaunchKernelGGLImplEmRK4dim3S2_jP12ihipStream_tPPv(uintptr_t function_address,
                                                                                  const dim3 *numBlocks,
                                                                                  const dim3 *dimBlocks,
                                                                                  uint32_t sharedMemBytes,
                                                                                  hipStream_t stream, void **kernarg)
{
    launch_host_fn((const void *)function_address, *numBlocks, *dimBlocks, kernarg, sharedMemBytes, stream, false,
                   NULL, NULL, "hipLaunchKernelGGL");
}

/* ---------------- the old configure / setup-argument / launch API ---------------- */

#define MAX_SETUP_BYTES 4096
static _Thread_local uint8_t setup_args[MAX_SETUP_BYTES];
static _Thread_local size_t setup_size;

HIP_EXPORT hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem, hipStream_t stream)
{
    setup_size = 0;
    return __hipPushCallConfiguration(gridDim, blockDim, sharedMem, stream);
}

HIP_EXPORT hipError_t hipSetupArgument(const void *arg, size_t size, size_t offset)
{
    if (!arg || offset > MAX_SETUP_BYTES || size > MAX_SETUP_BYTES - offset) return hip_ret(hipErrorInvalidValue);
    memcpy(setup_args + offset, arg, size);
    if (offset + size > setup_size) setup_size = offset + size;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipLaunchByPtr(const void *func)
{
    RT_OR_FAIL();
    dim3 grid, block;
    size_t shared;
    hipStream_t stream;
    hipError_t e = __hipPopCallConfiguration(&grid, &block, &shared, &stream);
    if (e) return e;
    hip_launch_params p = { .grid = grid, .block = block, .shared = shared, .arg_buffer = setup_args,
                            .arg_buffer_size = setup_size };
    if ((e = hip_function_for_host(rt, func, &p.f, "hipLaunchByPtr"))) return e;
    return hip_launch(rt, &p, stream, "hipLaunchByPtr");
}

/* ---------------- attributes and occupancy ---------------- */

uint32_t hip_blocks_per_cu(hipFunction_t f, uint32_t block_threads, size_t dynamic_lds)
{
    const umb_rdna3_kernel_info *ki = f->ki;
    uint64_t lds = ki->group_segment_fixed_size + dynamic_lds;
    if (lds > LDS_BYTES || block_threads > ki->max_flat_workgroup_size) return 0;
    return umb_rdna3_workgroups_per_cu(ki, block_threads, (uint32_t)lds);
}

static hipError_t host_function(const void *func, hipFunction_t *f, const char *api)
{
    RT_OR_FAIL();
    if (!func) return hip_ret(hipErrorInvalidDeviceFunction);
    return hip_function_for_host(rt, func, f, api);
}

static void fill_attributes(hipFunction_t f, hipFuncAttributes *a)
{
    const umb_rdna3_kernel_info *ki = f->ki;
    memset(a, 0, sizeof *a);
    a->binaryVersion = 110;   /* gfx1100: 11.0 */
    a->localSizeBytes = ki->private_segment_fixed_size;
    a->sharedSizeBytes = ki->group_segment_fixed_size;
    a->maxDynamicSharedSizeBytes = (int)(LDS_BYTES - ki->group_segment_fixed_size);
    a->maxThreadsPerBlock = (int)ki->max_flat_workgroup_size;
    a->numRegs = (int)ki->vgpr_count;
    a->ptxVersion = 110;
}

HIP_EXPORT hipError_t hipFuncGetAttributes(struct hipFuncAttributes *attr, const void *func)
{
    if (!attr) return hip_ret(hipErrorInvalidValue);
    hipFunction_t f;
    hipError_t e = host_function(func, &f, "hipFuncGetAttributes");
    if (e) return e;
    fill_attributes(f, attr);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipFuncGetAttribute(int *value, hipFunction_attribute attrib, hipFunction_t hfunc)
{
    RT_OR_FAIL();
    if (!value || !hfunc) return hip_ret(hipErrorInvalidValue);
    hipError_t e = hip_function_ready(rt, hfunc, "hipFuncGetAttribute");
    if (e) return e;
    hipFuncAttributes a;
    fill_attributes(hfunc, &a);
    switch (attrib) {
    case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = a.maxThreadsPerBlock; break;
    case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = (int)a.sharedSizeBytes; break;
    case HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *value = (int)a.constSizeBytes; break;
    case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *value = (int)a.localSizeBytes; break;
    case HIP_FUNC_ATTRIBUTE_NUM_REGS: *value = a.numRegs; break;
    case HIP_FUNC_ATTRIBUTE_PTX_VERSION: *value = a.ptxVersion; break;
    case HIP_FUNC_ATTRIBUTE_BINARY_VERSION: *value = a.binaryVersion; break;
    case HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA: *value = a.cacheModeCA; break;
    case HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *value = a.maxDynamicSharedSizeBytes; break;
    case HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *value = a.preferredShmemCarveout; break;
    default: return hip_ret(hipErrorInvalidValue);
    }
    return hipSuccess;
}

HIP_EXPORT hipError_t hipFuncSetAttribute(const void *func, hipFuncAttribute attr, int value)
{
    hipFunction_t f;
    hipError_t e = host_function(func, &f, "hipFuncSetAttribute");
    if (e) return e;
    switch (attr) {
    case hipFuncAttributeMaxDynamicSharedMemorySize:   /* every kernel may use the whole LDS */
        return value >= 0 && (uint64_t)value + f->ki->group_segment_fixed_size <= LDS_BYTES ? hipSuccess
                                                                                             : hip_ret(hipErrorInvalidValue);
    case hipFuncAttributePreferredSharedMemoryCarveout:
        return value >= -1 && value <= 100 ? hipSuccess : hip_ret(hipErrorInvalidValue);
    default: return hip_ret(hipErrorInvalidValue);
    }
}

/* Resident blocks per "multiprocessor" as the device reports them (multiProcessorCount): a WGP
 * of two CUs, so that blocks per multiprocessor x multiProcessorCount is what fits at once. */
static hipError_t active_blocks(int *numBlocks, hipFunction_t f, int blockSize, size_t dynShared)
{
    RT_OR_FAIL();
    if (!numBlocks || blockSize <= 0) return hip_ret(hipErrorInvalidValue);
    uint32_t cus_per_unit = rt->plat.compute_units / rt->plat.reported_units;
    *numBlocks = (int)(hip_blocks_per_cu(f, (uint32_t)blockSize, dynShared) * cus_per_unit);
    return hipSuccess;
}

/* The block size (a multiple of the wave size, up to the limit) with the most resident threads per
 * CU, the larger one on a tie (as CUDA's calculator); the grid that fills the device with it. */
static hipError_t potential_block(int *gridSize, int *blockSize, hipFunction_t f, size_t dynShared, int limit)
{
    RT_OR_FAIL();
    if (!gridSize || !blockSize || limit < 0) return hip_ret(hipErrorInvalidValue);
    uint32_t max = f->ki->max_flat_workgroup_size, w = f->ki->wavefront_size;
    if (limit && (uint32_t)limit < max) max = (uint32_t)limit;
    uint32_t best = 0, best_threads = 0;
    for (uint32_t b = w; b <= max; b += w) {
        uint32_t threads = hip_blocks_per_cu(f, b, dynShared) * b;
        if (threads >= best_threads) best = b, best_threads = threads;   /* ties: the larger block */
    }
    if (!best) return hip_ret(hipErrorInvalidValue);
    *blockSize = (int)best;
    *gridSize = (int)(hip_blocks_per_cu(f, best, dynShared) * rt->plat.compute_units);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *f, int blockSize,
                                                                   size_t dynSharedMemPerBlk)
{
    hipFunction_t fn;
    hipError_t e = host_function(f, &fn, "hipOccupancyMaxActiveBlocksPerMultiprocessor");
    return e ? e : active_blocks(numBlocks, fn, blockSize, dynSharedMemPerBlk);
}

HIP_EXPORT hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *f, int blockSize,
                                                                            size_t dynSharedMemPerBlk, unsigned int flags)
{
    (void)flags;
    return hipOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, f, blockSize, dynSharedMemPerBlk);
}

HIP_EXPORT hipError_t hipOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize, const void *f,
                                                        size_t dynSharedMemPerBlk, int blockSizeLimit)
{
    hipFunction_t fn;
    hipError_t e = host_function(f, &fn, "hipOccupancyMaxPotentialBlockSize");
    return e ? e : potential_block(gridSize, blockSize, fn, dynSharedMemPerBlk, blockSizeLimit);
}

HIP_EXPORT hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, hipFunction_t f, int blockSize,
                                                                         size_t dynSharedMemPerBlk)
{
    RT_OR_FAIL();
    if (!f) return hip_ret(hipErrorInvalidValue);
    hipError_t e = hip_function_ready(rt, f, "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor");
    return e ? e : active_blocks(numBlocks, f, blockSize, dynSharedMemPerBlk);
}

HIP_EXPORT hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, hipFunction_t f,
                                                                                  int blockSize, size_t dynSharedMemPerBlk,
                                                                                  unsigned int flags)
{
    (void)flags;
    return hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, f, blockSize, dynSharedMemPerBlk);
}

HIP_EXPORT hipError_t hipModuleOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize, hipFunction_t f,
                                                              size_t dynSharedMemPerBlk, int blockSizeLimit)
{
    RT_OR_FAIL();
    if (!f) return hip_ret(hipErrorInvalidValue);
    hipError_t e = hip_function_ready(rt, f, "hipModuleOccupancyMaxPotentialBlockSize");
    return e ? e : potential_block(gridSize, blockSize, f, dynSharedMemPerBlk, blockSizeLimit);
}

HIP_EXPORT hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int *gridSize, int *blockSize, hipFunction_t f,
                                                                       size_t dynSharedMemPerBlk, int blockSizeLimit,
                                                                       unsigned int flags)
{
    (void)flags;
    return hipModuleOccupancyMaxPotentialBlockSize(gridSize, blockSize, f, dynSharedMemPerBlk, blockSizeLimit);
}
