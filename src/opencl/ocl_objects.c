/* The registry of live handles, reference counts, info helper; the platform and the device. */
#include <stdlib.h>
#include <string.h>

#include "ocl.h"
#include "platform/plat_image.h"

pthread_mutex_t ocl_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---------------- object memory: free lists by size, headers kept valid ---------------- */

typedef struct free_block {
    ocl_obj h;                   /* stays a valid header: dispatch pointer, kind 0, no references */
    struct free_block *next;
} free_block;

static struct {
    size_t size;
    free_block *head;
} pools[16];

/* Caller holds ocl_lock. */
static free_block **pool_of(size_t size)
{
    for (size_t i = 0; i < sizeof pools / sizeof pools[0]; i++) {
        if (pools[i].size == size) return &pools[i].head;
        if (!pools[i].size) {
            pools[i].size = size;
            return &pools[i].head;
        }
    }
    return NULL;
}

void *ocl_obj_alloc(size_t size)
{
    if (size < sizeof(free_block)) size = sizeof(free_block);
    pthread_mutex_lock(&ocl_lock);
    free_block **pool = pool_of(size), *b = pool ? *pool : NULL;
    if (b) *pool = b->next;
    pthread_mutex_unlock(&ocl_lock);
    if (!b) b = calloc(1, size);
    else memset(b, 0, size);
    if (b) b->h.block = size;
    return b;
}

/* Blocks come in the few sizes of the object kinds, so the pools never run out of slots. */
void ocl_obj_free(void *obj)
{
    free_block *b = obj;
    pthread_mutex_lock(&ocl_lock);
    free_block **pool = pool_of(b->h.block);
    b->h.dispatch = &ocl_dispatch;
    b->h.kind = 0;
    atomic_store(&b->h.refs, 0);
    if (pool) b->next = *pool, *pool = b;
    pthread_mutex_unlock(&ocl_lock);
    if (!pool) free(b);   /* not reached: more sizes than pools */
}

/* ---------------- registry: an open-addressing set of live object pointers ---------------- */

#define TOMBSTONE ((void *)1)

static struct {
    void **slots;
    size_t cap, used;   /* used counts live entries and tombstones */
} reg;

static size_t slot_of(const void *p, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 20) & (cap - 1);
}

static void reg_grow(void)
{
    size_t ncap = reg.cap ? reg.cap * 2 : 1024;
    void **ns = calloc(ncap, sizeof *ns);
    if (!ns) abort();   /* the host is out of memory; nothing sensible remains */
    size_t live = 0;
    for (size_t i = 0; i < reg.cap; i++) {
        void *p = reg.slots[i];
        if (!p || p == TOMBSTONE) continue;
        size_t s = slot_of(p, ncap);
        while (ns[s]) s = (s + 1) & (ncap - 1);
        ns[s] = p;
        live++;
    }
    free(reg.slots);
    reg.slots = ns, reg.cap = ncap, reg.used = live;
}

void ocl_register(void *obj, ocl_kind kind)
{
    ocl_obj *o = obj;
    o->dispatch = &ocl_dispatch;
    o->kind = kind;
    atomic_init(&o->refs, 1);
    pthread_mutex_lock(&ocl_lock);
    if ((reg.used + 1) * 2 > reg.cap) reg_grow();
    size_t s = slot_of(obj, reg.cap);
    while (reg.slots[s] && reg.slots[s] != TOMBSTONE) s = (s + 1) & (reg.cap - 1);
    if (!reg.slots[s]) reg.used++;
    reg.slots[s] = obj;
    pthread_mutex_unlock(&ocl_lock);
}

/* Caller holds ocl_lock. */
static size_t reg_find(const void *obj)
{
    if (!reg.cap) return SIZE_MAX;
    for (size_t s = slot_of(obj, reg.cap);; s = (s + 1) & (reg.cap - 1)) {
        if (!reg.slots[s]) return SIZE_MAX;
        if (reg.slots[s] == obj) return s;
    }
}

void ocl_unregister(void *obj)
{
    pthread_mutex_lock(&ocl_lock);
    size_t s = reg_find(obj);
    if (s != SIZE_MAX) reg.slots[s] = TOMBSTONE;
    pthread_mutex_unlock(&ocl_lock);
}

bool ocl_valid_locked(const void *obj, ocl_kind kind)
{
    return obj && reg_find(obj) != SIZE_MAX && ((const ocl_obj *)obj)->kind == kind &&
           atomic_load(&((const ocl_obj *)obj)->refs) > 0;
}

bool ocl_valid(const void *obj, ocl_kind kind)
{
    if (!obj) return false;
    pthread_mutex_lock(&ocl_lock);
    bool ok = ocl_valid_locked(obj, kind);
    pthread_mutex_unlock(&ocl_lock);
    return ok;
}

void ocl_retain(void *obj) { atomic_fetch_add(&((ocl_obj *)obj)->refs, 1); }

bool ocl_release_last(void *obj) { return atomic_fetch_sub(&((ocl_obj *)obj)->refs, 1) == 1; }

void ocl_free_object(void *obj)
{
    ocl_obj *o = obj;
    ocl_unregister(obj);
    switch (o->kind) {
    case OCL_CONTEXT:
        ocl_run_release_callbacks(obj, &((cl_context)obj)->destructors);
        ocl_obj_free(obj);
        break;
    case OCL_MEM: ocl_mem_destroy(obj); break;
    case OCL_PROGRAM: ocl_program_destroy(obj); break;
    case OCL_KERNEL: ocl_kernel_destroy(obj); break;
    case OCL_EVENT: {
        cl_event ev = obj;
        for (ocl_event_callback *c = ev->callbacks, *n; c; c = n) n = c->next, free(c);
        free(ev->printf_text);
        if (ev->pe) plat_event_release(ev->pe);
        cl_context ctx = ev->ctx;
        ocl_obj_free(ev);
        if (ocl_release_last(ctx)) ocl_free_object(ctx);
        break;
    }
    case OCL_SAMPLER: ocl_sampler_destroy(obj); break;
    default: break;   /* platform, device: static; queues are freed by their worker (ocl_queue.c) */
    }
}

cl_int ocl_add_release_callback(ocl_release_callback **list, const ocl_release_callback *from)
{
    ocl_release_callback *c = malloc(sizeof *c);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    *c = *from;
    pthread_mutex_lock(&ocl_lock);
    c->next = *list, *list = c;
    pthread_mutex_unlock(&ocl_lock);
    return CL_SUCCESS;
}

/* After the last release: no other thread can reach the object any more. */
void ocl_run_release_callbacks(cl_context obj, ocl_release_callback **list)
{
    for (ocl_release_callback *c = *list, *n; c; c = n) {
        n = c->next;
        c->fn(obj, c->data);
        free(c);
    }
    *list = NULL;
}

cl_int ocl_info(size_t size, void *value, size_t *ret, const void *src, size_t n)
{
    if (value && size < n) return CL_INVALID_VALUE;
    if (value && n) memcpy(value, src, n);
    if (ret) *ret = n;
    return CL_SUCCESS;
}

/* ---------------- the platform and its one device ---------------- */


static struct _cl_platform_id platform;
static struct _cl_device_id device;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static bool init_ok;

static void init_platform(void)
{
    ocl_register(&platform, OCL_PLATFORM);
    ocl_register(&device, OCL_DEVICE);
    /* device memory in a reserved range of the host's address space, so that SVM allocations
     * (host memory the device maps at its own address) never collide with it */
    plat_heap heap = { 0, 0 };
    if (!plat_reserve_heap(&heap))
        fprintf(stderr, "umbra opencl: cannot reserve address space for device memory: SVM allocations may fail\n");
    init_ok = plat_init(&device.p, "umbra opencl", heap);
    const char *f = getenv("UMBRA_KERNEL_FAULT");
    device.fault_continues = !(f && !strcmp(f, "abort"));
    if (f && *f && strcmp(f, "continue") && strcmp(f, "abort"))
        fprintf(stderr, "umbra opencl: UMBRA_KERNEL_FAULT=%s: give continue (the default) or abort\n", f);
}

cl_platform_id ocl_platform(void)
{
    pthread_once(&init_once, init_platform);
    return init_ok ? &platform : NULL;
}

cl_device_id ocl_device(void)
{
    return ocl_platform() ? &device : NULL;
}

cl_ulong ocl_device_max_alloc(void)
{
    return plat_max_alloc(&device.p);
}

static cl_int get_platforms(cl_uint n, cl_platform_id *out, cl_uint *num)
{
    if ((!out && !num) || (out && n == 0)) return CL_INVALID_VALUE;
    cl_platform_id p = ocl_platform();
    if (!p) return CL_PLATFORM_NOT_FOUND_KHR;
    if (out) out[0] = p;
    if (num) *num = 1;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint n, cl_platform_id *out, cl_uint *num)
{
    return get_platforms(n, out, num);
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint n, cl_platform_id *out, cl_uint *num)
{
    return get_platforms(n, out, num);
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p, cl_platform_info param, size_t size,
                                                  void *value, size_t *ret)
{
    if (p && p != ocl_platform()) return CL_INVALID_PLATFORM;
    switch (param) {
    case CL_PLATFORM_PROFILE: OCL_INFO_STR("FULL_PROFILE");
    case CL_PLATFORM_VERSION: OCL_INFO_STR(OCL_VERSION_STRING);
    case CL_PLATFORM_NUMERIC_VERSION: OCL_INFO(cl_version, OCL_NUMERIC_VERSION);
    case CL_PLATFORM_NAME: OCL_INFO_STR(ocl_platform_name());
    case CL_PLATFORM_VENDOR: OCL_INFO_STR(ocl_platform_vendor());
    case CL_PLATFORM_EXTENSIONS: OCL_INFO_STR("cl_khr_icd");
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
        cl_name_version icd = { CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd" };
        return ocl_info(size, value, ret, &icd, sizeof icd);
    }
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: OCL_INFO(cl_ulong, 1);   /* clGetHostTimer: nanoseconds */
    case CL_PLATFORM_ICD_SUFFIX_KHR: OCL_INFO_STR("umbra");
    default: return CL_INVALID_VALUE;
    }
}

static bool device_type_matches(cl_device_type t)
{
    return t == CL_DEVICE_TYPE_ALL || (t & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT));
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id p, cl_device_type type, cl_uint n,
                                               cl_device_id *out, cl_uint *num)
{
    if (p != ocl_platform() && !(p == NULL && ocl_platform())) return CL_INVALID_PLATFORM;
    const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                 CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
    if (type != CL_DEVICE_TYPE_ALL && (type & ~known)) return CL_INVALID_DEVICE_TYPE;
    if ((!out && !num) || (out && n == 0)) return CL_INVALID_VALUE;
    if (!device_type_matches(type)) {
        if (num) *num = 0;
        return CL_DEVICE_NOT_FOUND;
    }
    if (out) out[0] = ocl_device();
    if (num) *num = 1;
    return CL_SUCCESS;
}

/* Answers that are strings or arrays; the scalar ones follow in device_scalar_info. */
static cl_int device_array_info(cl_device_info param, size_t size, void *value, size_t *ret, bool *found)
{
    *found = true;
    switch (param) {
    case CL_DEVICE_NAME: OCL_INFO_STR(ocl_device_name());
    case CL_DEVICE_VENDOR: OCL_INFO_STR(ocl_device_vendor());
    case CL_DRIVER_VERSION: OCL_INFO_STR(UMBRA_VERSION_STRING);
    case CL_DEVICE_PROFILE: OCL_INFO_STR("FULL_PROFILE");
    case CL_DEVICE_VERSION: OCL_INFO_STR(OCL_VERSION_STRING);
    case CL_DEVICE_OPENCL_C_VERSION: OCL_INFO_STR(OCL_OPENCL_C_VERSION_STRING);
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS: return ocl_opencl_c_all_versions(size, value, ret);
    case CL_DEVICE_OPENCL_C_FEATURES: return ocl_opencl_c_features(size, value, ret);
    case CL_DEVICE_EXTENSIONS: return ocl_extensions_string(size, value, ret);
    case CL_DEVICE_EXTENSIONS_WITH_VERSION: return ocl_extensions_with_version(size, value, ret);
    case CL_DEVICE_BUILT_IN_KERNELS: OCL_INFO_STR("");
    case CL_DEVICE_IL_VERSION: OCL_INFO_STR("");   /* no intermediate language (SPIR-V) is taken */
    /* the CTS is not run in full yet (docs/OPENCL.md): the value for "none passed" */
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: OCL_INFO_STR("v0000-01-01-00");
    case CL_DEVICE_ILS_WITH_VERSION: case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
        return ocl_info(size, value, ret, NULL, 0);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
        size_t n = ocl_device()->p.max_work_item, s[3] = { n, n, n };
        return ocl_info(size, value, ret, s, sizeof s);
    }
    case CL_DEVICE_PARTITION_PROPERTIES: {
        cl_device_partition_property none = 0;
        return ocl_info(size, value, ret, &none, sizeof none);
    }
    case CL_DEVICE_PARTITION_TYPE: return ocl_info(size, value, ret, NULL, 0);
    case CL_DEVICE_PLATFORM: OCL_INFO(cl_platform_id, ocl_platform());
    case CL_DEVICE_PARENT_DEVICE: OCL_INFO(cl_device_id, NULL);
    default: *found = false; return CL_INVALID_VALUE;
    }
}

static const cl_device_fp_config fp_config = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                             CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;

/* The OpenCL 2.x and 3.0 queries (docs/OPENCL.md "OpenCL 3.0"). */
static cl_int device_info_2x(cl_device_info param, size_t size, void *value, size_t *ret)
{
    const cl_device_atomic_capabilities orders =
        CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_ORDER_SEQ_CST;
    const cl_device_atomic_capabilities scopes =
        CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
    switch (param) {
    case CL_DEVICE_NUMERIC_VERSION: OCL_INFO(cl_version, OCL_NUMERIC_VERSION);
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES: OCL_INFO(cl_device_atomic_capabilities, orders | scopes);
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
        OCL_INFO(cl_device_atomic_capabilities, orders | scopes | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM);
    case CL_DEVICE_SVM_CAPABILITIES: OCL_INFO(cl_device_svm_capabilities, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER);
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    /* partial last work-groups: the launch gives them their size (hidden remainder arguments) */
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: OCL_INFO(cl_bool, CL_TRUE);
    case CL_DEVICE_PIPE_SUPPORT: case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: OCL_INFO(cl_bool, CL_FALSE);
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: OCL_INFO(cl_device_device_enqueue_capabilities, 0);
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
        OCL_INFO(cl_command_queue_properties, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: OCL_INFO(cl_command_queue_properties, 0);
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE: case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES: case CL_DEVICE_MAX_ON_DEVICE_EVENTS: case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS: case CL_DEVICE_PIPE_MAX_PACKET_SIZE: OCL_INFO(cl_uint, 0);
    /* __opencl_c_read_write_images: ROCm's limit (ROCr's HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES) */
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: OCL_INFO(cl_uint, PLAT_IMAGE_MAX_READ_WRITE_ARGS);
    /* a sub-group is a wave of 32 (OpenCL kernels are built for wave32): as many as the largest
     * work-group holds */
    case CL_DEVICE_MAX_NUM_SUB_GROUPS: OCL_INFO(cl_uint, (ocl_device()->p.max_work_item + 31) / 32);
    /* 0: the natural alignment of the type (as ROCm reports) */
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT: case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: OCL_INFO(cl_uint, 0);
    /* program-scope variables live in the code object's loaded image: any size a buffer may have */
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: OCL_INFO(size_t, ocl_device_max_alloc());
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: OCL_INFO(size_t, ocl_device_max_alloc());
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: OCL_INFO(size_t, 32);   /* a wave32 wave */
    default: return CL_INVALID_VALUE;
    }
}

static cl_int device_scalar_info(cl_device_info param, size_t size, void *value, size_t *ret)
{
    switch (param) {
    case CL_DEVICE_TYPE: OCL_INFO(cl_device_type, CL_DEVICE_TYPE_GPU);
    case CL_DEVICE_VENDOR_ID: OCL_INFO(cl_uint, 0x1002);
    case CL_DEVICE_MAX_COMPUTE_UNITS: OCL_INFO(cl_uint, ocl_device()->p.reported_units);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: OCL_INFO(cl_uint, 3);
    /* 256 by default, as ROCm reports for its GPUs: clang gives an OpenCL kernel without
     * reqd_work_group_size a flat work-group size of at most 256 (amdgpu-flat-work-group-size) */
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: OCL_INFO(size_t, ocl_device()->p.max_work_group);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR: case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: OCL_INFO(cl_uint, 4);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT: case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: OCL_INFO(cl_uint, 2);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT: case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG: case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT: case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE: case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF: case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: OCL_INFO(cl_uint, 1);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: OCL_INFO(cl_uint, ocl_device()->p.clock_mhz);
    case CL_DEVICE_ADDRESS_BITS: OCL_INFO(cl_uint, 64);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: OCL_INFO(cl_ulong, ocl_device_max_alloc());
    case CL_DEVICE_IMAGE_SUPPORT: OCL_INFO(cl_bool, CL_TRUE);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS: OCL_INFO(cl_uint, PLAT_IMAGE_MAX_READ_ARGS);
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: OCL_INFO(cl_uint, PLAT_IMAGE_MAX_WRITE_ARGS);
    case CL_DEVICE_MAX_SAMPLERS: OCL_INFO(cl_uint, PLAT_IMAGE_MAX_SAMPLERS);
    /* 2D images made from buffers (cl_khr_image2d_from_buffer), in pixels: ROCm's values (CLR's
     * rocdevice.cpp reports 256 for both) */
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT: OCL_INFO(cl_uint, PLAT_IMAGE_BUFFER_PITCH_ALIGN);
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: OCL_INFO(cl_uint, PLAT_IMAGE_BUFFER_BASE_ALIGN);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH: OCL_INFO(size_t, PLAT_IMAGE2D_MAX_WIDTH);
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT: OCL_INFO(size_t, PLAT_IMAGE2D_MAX_HEIGHT);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH: OCL_INFO(size_t, PLAT_IMAGE3D_MAX_WIDTH);
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT: OCL_INFO(size_t, PLAT_IMAGE3D_MAX_HEIGHT);
    case CL_DEVICE_IMAGE3D_MAX_DEPTH: OCL_INFO(size_t, PLAT_IMAGE3D_MAX_DEPTH);
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: OCL_INFO(size_t, PLAT_IMAGE_MAX_BUFFER_SIZE);
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: OCL_INFO(size_t, PLAT_IMAGE_MAX_ARRAY_SIZE);
    case CL_DEVICE_MAX_PARAMETER_SIZE: OCL_INFO(size_t, 1024);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: OCL_INFO(cl_uint, OCL_BASE_ADDR_ALIGN_BITS);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: OCL_INFO(cl_uint, 128);
    case CL_DEVICE_SINGLE_FP_CONFIG: case CL_DEVICE_DOUBLE_FP_CONFIG: OCL_INFO(cl_device_fp_config, fp_config);
    case CL_DEVICE_HALF_FP_CONFIG: OCL_INFO(cl_device_fp_config, fp_config);
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: OCL_INFO(cl_device_mem_cache_type, CL_READ_WRITE_CACHE);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: OCL_INFO(cl_uint, 128);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: OCL_INFO(cl_ulong, 6u << 20);
    case CL_DEVICE_GLOBAL_MEM_SIZE: OCL_INFO(cl_ulong, ocl_device()->p.global_mem_size);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: OCL_INFO(cl_ulong, 64u << 10);
    case CL_DEVICE_MAX_CONSTANT_ARGS: OCL_INFO(cl_uint, 8);
    case CL_DEVICE_LOCAL_MEM_TYPE: OCL_INFO(cl_device_local_mem_type, CL_LOCAL);
    case CL_DEVICE_LOCAL_MEM_SIZE: OCL_INFO(cl_ulong, 64u << 10);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: OCL_INFO(cl_bool, CL_FALSE);
    case CL_DEVICE_HOST_UNIFIED_MEMORY: OCL_INFO(cl_bool, CL_FALSE);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: OCL_INFO(size_t, 1);
    case CL_DEVICE_ENDIAN_LITTLE: case CL_DEVICE_AVAILABLE: case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_LINKER_AVAILABLE: case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: OCL_INFO(cl_bool, CL_TRUE);
    case CL_DEVICE_EXECUTION_CAPABILITIES: OCL_INFO(cl_device_exec_capabilities, CL_EXEC_KERNEL);
    case CL_DEVICE_QUEUE_PROPERTIES:
        OCL_INFO(cl_command_queue_properties, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_PRINTF_BUFFER_SIZE: OCL_INFO(size_t, 1u << 20);
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: OCL_INFO(cl_uint, 0);
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: OCL_INFO(cl_device_affinity_domain, 0);
    case CL_DEVICE_REFERENCE_COUNT: OCL_INFO(cl_uint, 1);
    default: return device_info_2x(param, size, value, ret);
    }
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id d, cl_device_info param, size_t size, void *value,
                                                size_t *ret)
{
    if (!d || d != ocl_device()) return CL_INVALID_DEVICE;
    bool found;
    cl_int st = device_array_info(param, size, value, ret, &found);
    if (!found) st = ocl_amd_device_info(param, size, value, ret, &found);
    return found ? st : device_scalar_info(param, size, value, ret);
}

CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(cl_device_id d, const cl_device_partition_property *props,
                                                   cl_uint n, cl_device_id *out, cl_uint *num)
{
    if (!d || d != ocl_device()) return CL_INVALID_DEVICE;
    if (!props) return CL_INVALID_VALUE;
    return CL_INVALID_VALUE;   /* CL_DEVICE_PARTITION_PROPERTIES names no partition type */
}

CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id d)
{
    return d && d == ocl_device() ? CL_SUCCESS : CL_INVALID_DEVICE;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id d)
{
    return d && d == ocl_device() ? CL_SUCCESS : CL_INVALID_DEVICE;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id p)
{
    return p && p == ocl_platform() ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
    if (name && !strcmp(name, "clIcdGetPlatformIDsKHR")) return (void *)clIcdGetPlatformIDsKHR;
    return NULL;
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id p, const char *name)
{
    return p == ocl_platform() ? clGetExtensionFunctionAddress(name) : NULL;
}
