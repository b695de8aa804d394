/* Memory: device allocations in the reserved range, host memory the device maps (pinned,
 * registered, managed), and the copies and fills between any of them. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hip_internal.h"

#define PAGE 4096ull
#define PITCH_ALIGN 256u

static uint64_t page_down(uint64_t a) { return a & ~(PAGE - 1); }
static uint64_t page_up(uint64_t a) { return (a + PAGE - 1) & ~(PAGE - 1); }

static bool hip_is_device_ptr(const hip_runtime *rt, const void *p)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    return a >= rt->va_base && a - rt->va_base < rt->va_size;
}

/* ---------------- the registry of allocations (rt->lock held) ---------------- */

static size_t alloc_index(const hip_runtime *rt, uint64_t addr)   /* first with base > addr */
{
    size_t lo = 0, hi = rt->nallocs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (rt->allocs[mid].base <= addr) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static const hip_alloc *hip_find_alloc(hip_runtime *rt, const void *p)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    size_t i = alloc_index(rt, a);
    if (i == 0) return NULL;
    const hip_alloc *b = &rt->allocs[i - 1];
    return a - b->base < (b->size ? b->size : 1) ? b : NULL;
}

bool hip_alloc_lookup(hip_runtime *rt, const void *p, hip_alloc *out)
{
    pthread_mutex_lock(&rt->lock);
    const hip_alloc *a = hip_find_alloc(rt, p);
    if (a) *out = *a;
    pthread_mutex_unlock(&rt->lock);
    return a != NULL;
}

bool hip_in_device_heap(const hip_runtime *rt, const void *p) { return hip_is_device_ptr(rt, p); }

bool hip_pageable_host(hip_runtime *rt, const void *p)
{
    hip_alloc a;
    return !hip_is_device_ptr(rt, p) && !hip_alloc_lookup(rt, p, &a);
}

uint64_t hip_alloc_room(hip_runtime *rt, const void *p)
{
    hip_alloc a;
    if (!hip_alloc_lookup(rt, p, &a)) return UINT64_MAX;
    return a.base + a.size - (uint64_t)(uintptr_t)p;
}

static bool registry_add(hip_runtime *rt, hip_alloc a)
{
    if (rt->nallocs == rt->cap) {
        size_t cap = rt->cap ? rt->cap * 2 : 64;
        hip_alloc *n = realloc(rt->allocs, cap * sizeof *n);
        if (!n) return false;
        rt->allocs = n, rt->cap = cap;
    }
    size_t i = alloc_index(rt, a.base);
    memmove(&rt->allocs[i + 1], &rt->allocs[i], (rt->nallocs - i) * sizeof *rt->allocs);
    a.id = ++rt->last_alloc_id;
    rt->allocs[i] = a;
    rt->nallocs++;
    return true;
}

/* Remove the allocation starting exactly at base, of one of the kinds in mask; false if none. */
static bool registry_take(hip_runtime *rt, uint64_t base, unsigned kind_mask, hip_alloc *out)
{
    size_t i = alloc_index(rt, base);
    if (i == 0 || rt->allocs[i - 1].base != base || !(kind_mask & (1u << rt->allocs[i - 1].kind))) return false;
    *out = rt->allocs[i - 1];
    memmove(&rt->allocs[i - 1], &rt->allocs[i], (rt->nallocs - i) * sizeof *rt->allocs);
    rt->nallocs--;
    return true;
}

static uint64_t device_bytes_in_use(const hip_runtime *rt)
{
    uint64_t n = 0;
    for (size_t i = 0; i < rt->nallocs; i++)
        if (rt->allocs[i].kind == HIP_MEM_DEVICE) n += rt->allocs[i].size;
    return n;
}

/* ---------------- device memory ---------------- */

static hipError_t device_alloc_in(hip_runtime *rt, void **ptr, size_t size, unsigned flags, struct ihipMemPoolHandle_t *pool,
                                  const char *api);

static hipError_t device_alloc(hip_runtime *rt, void **ptr, size_t size, unsigned flags, const char *api)
{
    return device_alloc_in(rt, ptr, size, flags, NULL, api);
}

hipError_t hip_pool_alloc(hip_runtime *rt, void **ptr, size_t size, struct ihipMemPoolHandle_t *pool, const char *api)
{
    return device_alloc_in(rt, ptr, size, 0, pool, api);
}

static hipError_t device_alloc_in(hip_runtime *rt, void **ptr, size_t size, unsigned flags, struct ihipMemPoolHandle_t *pool,
                                  const char *api)
{
    if (!ptr) return hip_ret(hipErrorInvalidValue);
    *ptr = NULL;
    if (size == 0) return hipSuccess;
    pthread_mutex_lock(&rt->lock);
    uint64_t used = device_bytes_in_use(rt), total = rt->plat.global_mem_size;
    pthread_mutex_unlock(&rt->lock);
    if (size > total - used)
        return hip_fail(hipErrorOutOfMemory, api, "%zu bytes requested, %llu of the device's %llu bytes free "
                        "(UMBRA_GLOBAL_MEM sets the size)", size, (unsigned long long)(total - used), (unsigned long long)total);
    uint64_t addr;
    if (plat_alloc(&rt->plat, size, &addr)) return hip_fail(hipErrorOutOfMemory, api, "%zu bytes", size);
    pthread_mutex_lock(&rt->lock);
    bool ok = registry_add(rt, (hip_alloc){ .base = addr, .size = size, .kind = HIP_MEM_DEVICE, .flags = flags, .pool = pool });
    if (ok && pool) hip_pool_charge(pool, size);
    pthread_mutex_unlock(&rt->lock);
    if (!ok) {
        plat_free(&rt->plat, addr);
        return hip_ret(hipErrorOutOfMemory);
    }
    *ptr = (void *)(uintptr_t)addr;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMalloc(void **ptr, size_t size)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    return device_alloc(rt, ptr, size, 0, "hipMalloc");
}

HIP_EXPORT hipError_t hipExtMallocWithFlags(void **ptr, size_t size, unsigned int flags)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (flags & ~(unsigned)(hipDeviceMallocFinegrained | hipMallocSignalMemory)) return hip_ret(hipErrorInvalidValue);
    return device_alloc(rt, ptr, size, flags, "hipExtMallocWithFlags");
}

HIP_EXPORT hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!ptr || !pitch) return hip_ret(hipErrorInvalidValue);
    *pitch = (width + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
    return device_alloc(rt, ptr, *pitch * height, 0, "hipMallocPitch");
}

HIP_EXPORT hipError_t hipMemAllocPitch(hipDeviceptr_t *dptr, size_t *pitch, size_t width, size_t height, unsigned int elem)
{
    if (elem != 4 && elem != 8 && elem != 16) return hip_ret(hipErrorInvalidValue);
    return hipMallocPitch(dptr, pitch, width, height);
}

HIP_EXPORT hipError_t hipMalloc3D(hipPitchedPtr *p, hipExtent e)
{
    if (!p) return hip_ret(hipErrorInvalidValue);
    size_t pitch = 0;
    void *ptr = NULL;
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    pitch = (e.width + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
    hipError_t err = device_alloc(rt, &ptr, pitch * e.height * e.depth, 0, "hipMalloc3D");
    if (err) return err;
    *p = (hipPitchedPtr){ .ptr = ptr, .pitch = pitch, .xsize = e.width, .ysize = e.height };
    return hipSuccess;
}

HIP_EXPORT hipError_t hipFree(void *ptr)
{
    if (!ptr) return hipSuccess;
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    hip_sync_all(rt);   /* as on ROCm: freeing waits for the device */
    hip_alloc a;
    pthread_mutex_lock(&rt->lock);
    bool found = registry_take(rt, (uint64_t)(uintptr_t)ptr, 1u << HIP_MEM_DEVICE | 1u << HIP_MEM_MANAGED, &a);
    if (found && a.pool) hip_pool_release(a.pool, a.size);
    pthread_mutex_unlock(&rt->lock);
    if (!found)
        return hip_fail(hipErrorInvalidValue, "hipFree", "%p is not the start of a device allocation", ptr);
    if (a.kind == HIP_MEM_MANAGED) {
        free(a.advice);
        plat_lock(&rt->plat);
        umb_mem_unmap(rt->plat.dev, a.map_base, a.map_size);
        plat_unlock(&rt->plat);
        munmap((void *)(uintptr_t)a.map_base, a.map_size);
        return hipSuccess;
    }
    plat_free(&rt->plat, a.base);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemGetInfo(size_t *free_bytes, size_t *total)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!free_bytes || !total) return hip_ret(hipErrorInvalidValue);
    pthread_mutex_lock(&rt->lock);
    uint64_t used = device_bytes_in_use(rt);
    pthread_mutex_unlock(&rt->lock);
    *total = rt->plat.global_mem_size;
    *free_bytes = used < *total ? *total - used : 0;
    return hipSuccess;
}

/* ---------------- host memory the device maps ---------------- */

static hipError_t hip_map_host(hip_runtime *rt, void *p, size_t size, hip_mem_kind kind, unsigned flags)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    hip_alloc al = { .base = a, .size = size, .kind = kind, .flags = flags,
                     .map_base = page_down(a), .map_size = page_up(a + size) - page_down(a) };
    pthread_mutex_lock(&rt->lock);
    for (size_t i = 0; i < rt->nallocs; i++) {
        const hip_alloc *o = &rt->allocs[i];
        if (o->kind != HIP_MEM_DEVICE && a < o->base + o->size && o->base < a + size) {
            pthread_mutex_unlock(&rt->lock);
            return hipErrorHostMemoryAlreadyRegistered;
        }
    }
    pthread_mutex_unlock(&rt->lock);
    if (plat_map_host(&rt->plat, (void *)(uintptr_t)al.map_base, al.map_size)) return hipErrorOutOfMemory;
    pthread_mutex_lock(&rt->lock);
    bool ok = registry_add(rt, al);
    pthread_mutex_unlock(&rt->lock);
    return ok ? hipSuccess : hipErrorOutOfMemory;
}

/* Unmap a host range from the device, keeping the pages that other registrations share. */
static void unmap_host(hip_runtime *rt, const hip_alloc *a)
{
    pthread_mutex_lock(&rt->lock);
    plat_lock(&rt->plat);
    umb_mem_unmap(rt->plat.dev, a->map_base, a->map_size);
    for (size_t i = 0; i < rt->nallocs; i++) {   /* pages shared with another registration */
        const hip_alloc *o = &rt->allocs[i];
        if (o->kind == HIP_MEM_DEVICE || o->map_base >= a->map_base + a->map_size || a->map_base >= o->map_base + o->map_size)
            continue;
        umb_mem_map_host(rt->plat.dev, o->map_base, (void *)(uintptr_t)o->map_base, o->map_size);
    }
    plat_unlock(&rt->plat);
    pthread_mutex_unlock(&rt->lock);
}

static hipError_t host_alloc(void **ptr, size_t size, unsigned flags, hip_mem_kind kind, const char *api)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!ptr) return hip_ret(hipErrorInvalidValue);
    *ptr = NULL;
    if (size == 0) return hipSuccess;
    /* managed memory takes host pages as they are touched, as device memory does (a program may
       ask for as much as the device's free memory, 24 GiB, and use a little); pinned memory is
       reserved at once, as pinning it would */
    int lazy = kind == HIP_MEM_MANAGED ? MAP_NORESERVE : 0;
    void *p = mmap(NULL, page_up(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | lazy, -1, 0);
    if (p == MAP_FAILED) return hip_fail(hipErrorOutOfMemory, api, "%zu bytes of host memory", size);
    hipError_t e = hip_map_host(rt, p, size, kind, flags);
    if (e) {
        munmap(p, page_up(size));
        return hip_fail(e, api, "cannot map %zu bytes of host memory into the device", size);
    }
    *ptr = p;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags)
{
    const unsigned known = hipHostMallocPortable | hipHostMallocMapped | hipHostMallocWriteCombined |
                           hipHostMallocNumaUser | hipHostMallocCoherent | hipHostMallocNonCoherent;
    if (flags & ~known) return hip_ret(hipErrorInvalidValue);
    if ((flags & hipHostMallocCoherent) && (flags & hipHostMallocNonCoherent)) return hip_ret(hipErrorInvalidValue);
    return host_alloc(ptr, size, flags, HIP_MEM_HOST, "hipHostMalloc");
}

HIP_EXPORT hipError_t hipHostAlloc(void **ptr, size_t size, unsigned int flags) { return hipHostMalloc(ptr, size, flags); }
HIP_EXPORT hipError_t hipMallocHost(void **ptr, size_t size) { return hipHostMalloc(ptr, size, 0); }
HIP_EXPORT hipError_t hipMemAllocHost(void **ptr, size_t size) { return hipHostMalloc(ptr, size, 0); }

HIP_EXPORT hipError_t hipMallocManaged(void **ptr, size_t size, unsigned int flags)
{
    if (flags != hipMemAttachGlobal && flags != hipMemAttachHost) return hip_ret(hipErrorInvalidValue);
    if (ptr && size == 0) return hip_ret(hipErrorInvalidValue);
    /* On a GPU without XNACK (gfx1100) ROCm places managed memory in device memory: more than its
       free memory is refused, as CLR refuses it (its pages are taken lazily here, so the host would
       not refuse it itself) */
    size_t free_bytes = 0, total = 0;
    if (hipMemGetInfo(&free_bytes, &total) == hipSuccess && size > free_bytes)
        return hip_fail(hipErrorOutOfMemory, "hipMallocManaged", "%zu bytes, but the device has %zu free", size, free_bytes);
    return host_alloc(ptr, size, flags, HIP_MEM_MANAGED, "hipMallocManaged");
}

HIP_EXPORT hipError_t hipHostFree(void *ptr)
{
    if (!ptr) return hipSuccess;
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    hip_sync_all(rt);
    hip_alloc a;
    pthread_mutex_lock(&rt->lock);
    bool found = registry_take(rt, (uint64_t)(uintptr_t)ptr, 1u << HIP_MEM_HOST, &a);
    pthread_mutex_unlock(&rt->lock);
    if (!found) return hip_fail(hipErrorInvalidValue, "hipHostFree", "%p was not allocated by hipHostMalloc", ptr);
    unmap_host(rt, &a);
    munmap(ptr, page_up(a.size));
    return hipSuccess;
}

HIP_EXPORT hipError_t hipFreeHost(void *ptr) { return hipHostFree(ptr); }

HIP_EXPORT hipError_t hipHostRegister(void *ptr, size_t size, unsigned int flags)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!ptr || !size) return hip_ret(hipErrorInvalidValue);
    if (flags & ~(unsigned)(hipHostRegisterPortable | hipHostRegisterMapped | hipHostRegisterIoMemory))
        return hip_ret(hipErrorInvalidValue);
    if (hip_is_device_ptr(rt, ptr)) return hip_fail(hipErrorInvalidValue, "hipHostRegister", "%p is device memory", ptr);
    hipError_t e = hip_map_host(rt, ptr, size, HIP_MEM_REGISTERED, flags);
    return e ? hip_fail(e, "hipHostRegister", "[%p, +%zu)", ptr, size) : hipSuccess;
}

HIP_EXPORT hipError_t hipHostUnregister(void *ptr)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    hip_sync_all(rt);
    hip_alloc a;
    pthread_mutex_lock(&rt->lock);
    bool found = registry_take(rt, (uint64_t)(uintptr_t)ptr, 1u << HIP_MEM_REGISTERED, &a);
    pthread_mutex_unlock(&rt->lock);
    if (!found) return hip_fail(hipErrorHostMemoryNotRegistered, "hipHostUnregister", "%p", ptr);
    unmap_host(rt, &a);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr, unsigned int flags)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!devPtr || flags) return hip_ret(hipErrorInvalidValue);
    hip_alloc a;
    bool host = hip_alloc_lookup(rt, hstPtr, &a) && a.kind != HIP_MEM_DEVICE;
    if (!host) return hip_fail(hipErrorInvalidValue, "hipHostGetDevicePointer", "%p is not pinned or registered host memory", hstPtr);
    *devPtr = hstPtr;   /* mapped at its own address: one address space */
    return hipSuccess;
}

HIP_EXPORT hipError_t hipHostGetFlags(unsigned int *flags, void *hostPtr)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!flags) return hip_ret(hipErrorInvalidValue);
    pthread_mutex_lock(&rt->lock);
    const hip_alloc *a = hip_find_alloc(rt, hostPtr);
    bool host = a && a->kind == HIP_MEM_HOST;
    if (host) *flags = a->flags;
    pthread_mutex_unlock(&rt->lock);
    return host ? hipSuccess : hip_ret(hipErrorInvalidValue);
}

HIP_EXPORT hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attr, const void *ptr)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!attr || !ptr) return hip_ret(hipErrorInvalidValue);
    hip_alloc copy;
    bool known = hip_alloc_lookup(rt, ptr, &copy);
    memset(attr, 0, sizeof *attr);
    if (!known) return hip_ret(hipErrorInvalidValue);   /* as ROCm: memory HIP does not know */
    attr->device = 0;
    attr->allocationFlags = copy.flags;
    attr->isManaged = copy.kind == HIP_MEM_MANAGED;
    attr->devicePointer = (void *)ptr;
    if (copy.kind == HIP_MEM_DEVICE) {
        attr->memoryType = hipMemoryTypeDevice;
        attr->hostPointer = NULL;
    } else {
        attr->memoryType = copy.kind == HIP_MEM_MANAGED ? hipMemoryTypeUnified : hipMemoryTypeHost;
        attr->hostPointer = (void *)ptr;
    }
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemGetAddressRange(hipDeviceptr_t *pbase, size_t *psize, hipDeviceptr_t dptr)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    hip_alloc copy;
    if (!hip_alloc_lookup(rt, dptr, &copy)) return hip_ret(hipErrorNotFound);
    if (pbase) *pbase = (void *)(uintptr_t)copy.base;
    if (psize) *psize = copy.size;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemPtrGetInfo(void *ptr, size_t *size)
{
    void *base;
    if (!size) return hip_ret(hipErrorInvalidValue);
    return hipMemGetAddressRange(&base, size, ptr);
}

/* Managed memory is host memory the device maps: every range is coherent for both, so advice and
 * prefetches have nothing to move; they are checked and accepted. */
/* ---------------- managed memory: advice, prefetches and what they left ---------------- */

/* What the hints said of one page of a managed allocation. umbra's device and host share the
 * memory, so the hints move nothing; they are kept to be reported (hipMemRangeGetAttribute). */
typedef struct hip_page_advice {
    uint8_t read_mostly, coarse;
    uint8_t accessed_by;          /* bit 0: the device, bit 1: the CPU */
    int8_t preferred, prefetched; /* a device id, hipCpuDeviceId, or hipInvalidDeviceId (none) */
} hip_page_advice;

enum { ADVICE_PAGE = 4096 };

/* The managed allocation holding [ptr, ptr + count) (rt->lock held) and the pages it spans, its
 * advice array made if `make`; NULL with *e set when the range is not managed memory. */
static hip_alloc *managed_range(hip_runtime *rt, const void *ptr, size_t count, bool make, size_t *first,
                                size_t *last, hipError_t *e)
{
    hip_alloc *a = (hip_alloc *)hip_find_alloc(rt, ptr);
    uint64_t at = (uint64_t)(uintptr_t)ptr;
    *e = hipErrorInvalidValue;
    if (!ptr || !count || !a || a->kind != HIP_MEM_MANAGED || count > a->base + a->size - at) return NULL;
    size_t pages = (a->size + ADVICE_PAGE - 1) / ADVICE_PAGE;
    if (!a->advice && make) {
        if (!(a->advice = malloc(pages * sizeof *a->advice))) return *e = hipErrorOutOfMemory, NULL;
        for (size_t i = 0; i < pages; i++)
            a->advice[i] = (hip_page_advice){ .preferred = hipInvalidDeviceId, .prefetched = hipInvalidDeviceId };
    }
    *first = (at - a->base) / ADVICE_PAGE, *last = (at + count - 1 - a->base) / ADVICE_PAGE;
    *e = hipSuccess;
    return a;
}

static bool location_ok(int device) { return device == 0 || device == hipCpuDeviceId; }

HIP_EXPORT hipError_t hipMemAdvise(const void *ptr, size_t count, hipMemoryAdvise advice, int device)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    bool coarse = advice == hipMemAdviseSetCoarseGrain || advice == hipMemAdviseUnsetCoarseGrain;
    if (advice < hipMemAdviseSetReadMostly || (advice > hipMemAdviseUnsetAccessedBy && !coarse))
        return hip_fail(hipErrorInvalidValue, "hipMemAdvise", "advice %d is none HIP defines", (int)advice);
    if (!location_ok(device)) return hip_fail(hipErrorInvalidDevice, "hipMemAdvise", "device %d", device);
    size_t first, last;
    hipError_t e;
    pthread_mutex_lock(&rt->lock);
    hip_alloc *a = managed_range(rt, ptr, count, true, &first, &last, &e);
    for (size_t i = first; a && i <= last; i++) {
        hip_page_advice *p = &a->advice[i];
        uint8_t who = device == hipCpuDeviceId ? 2 : 1;
        switch (advice) {
        case hipMemAdviseSetReadMostly: p->read_mostly = 1; break;
        case hipMemAdviseUnsetReadMostly: p->read_mostly = 0; break;
        case hipMemAdviseSetPreferredLocation: p->preferred = (int8_t)device; break;
        case hipMemAdviseUnsetPreferredLocation: p->preferred = hipInvalidDeviceId; break;
        case hipMemAdviseSetAccessedBy: p->accessed_by |= who; break;
        case hipMemAdviseUnsetAccessedBy: p->accessed_by &= (uint8_t)~who; break;
        case hipMemAdviseSetCoarseGrain: p->coarse = 1; break;
        default: p->coarse = 0; break;
        }
    }
    pthread_mutex_unlock(&rt->lock);
    if (e) return hip_fail(e, "hipMemAdvise", "%zu bytes at %p are not inside one managed allocation", count, ptr);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemPrefetchAsync(const void *ptr, size_t count, int device, hipStream_t stream)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!location_ok(device)) return hip_fail(hipErrorInvalidDevice, "hipMemPrefetchAsync", "device %d", device);
    if (!hip_stream_resolve(rt, stream)) return hip_ret(hipErrorInvalidHandle);
    size_t first, last;
    hipError_t e;
    pthread_mutex_lock(&rt->lock);
    hip_alloc *a = managed_range(rt, ptr, count, true, &first, &last, &e);
    for (size_t i = first; a && i <= last; i++) a->advice[i].prefetched = (int8_t)device;
    pthread_mutex_unlock(&rt->lock);
    if (e) return hip_fail(e, "hipMemPrefetchAsync", "%zu bytes at %p are not inside one managed allocation", count, ptr);
    return hipSuccess;   /* the memory is where both the device and the host read it: nothing to move */
}

/* One attribute of [first, last]'s pages into data (data_size bytes, checked by the caller) */
static void range_attribute(const hip_alloc *a, size_t first, size_t last, hipMemRangeAttribute attr, void *data,
                            size_t data_size)
{
    static const hip_page_advice none = { .preferred = hipInvalidDeviceId, .prefetched = hipInvalidDeviceId };
    const hip_page_advice *p0 = a->advice ? &a->advice[first] : &none;
    int32_t v = 0;
    uint8_t all_access = 3;
    bool same_pref = true, same_pref_loc = true, all_ro = true, any_coarse = false, all_coarse = true;
    for (size_t i = first; i <= last; i++) {
        const hip_page_advice *p = a->advice ? &a->advice[i] : &none;
        all_ro &= p->read_mostly != 0;
        same_pref &= p->preferred == p0->preferred;
        same_pref_loc &= p->prefetched == p0->prefetched;
        all_access &= p->accessed_by;
        any_coarse |= p->coarse != 0, all_coarse &= p->coarse != 0;
    }
    switch (attr) {
    case hipMemRangeAttributeReadMostly: v = all_ro; break;
    case hipMemRangeAttributePreferredLocation: v = same_pref ? p0->preferred : hipInvalidDeviceId; break;
    case hipMemRangeAttributeLastPrefetchLocation: v = same_pref_loc ? p0->prefetched : hipInvalidDeviceId; break;
    case hipMemRangeAttributeCoherencyMode:
        v = all_coarse ? hipMemRangeCoherencyModeCoarseGrain
          : any_coarse ? hipMemRangeCoherencyModeIndeterminate : hipMemRangeCoherencyModeFineGrain;
        break;
    default: {   /* AccessedBy: the locations advised for the whole range, then hipInvalidDeviceId */
        int32_t *out = data;
        size_t n = data_size / 4, k = 0;
        if ((all_access & 1) && k < n) out[k++] = 0;
        if ((all_access & 2) && k < n) out[k++] = hipCpuDeviceId;
        while (k < n) out[k++] = hipInvalidDeviceId;
        return;
    }
    }
    memcpy(data, &v, 4);
}

static hipError_t range_attribute_checked(hip_runtime *rt, void *data, size_t data_size, hipMemRangeAttribute attr,
                                          const void *ptr, size_t count, const char *api)
{
    bool list = attr == hipMemRangeAttributeAccessedBy;
    if (!data || (list ? !data_size || data_size % 4 : data_size != 4))
        return hip_fail(hipErrorInvalidValue, api, "attribute %d wants %s, not %zu bytes at %p", (int)attr,
                        list ? "a multiple of 4 bytes" : "4 bytes", data_size, data);
    if (attr != hipMemRangeAttributeReadMostly && attr != hipMemRangeAttributePreferredLocation && !list &&
        attr != hipMemRangeAttributeLastPrefetchLocation && attr != hipMemRangeAttributeCoherencyMode)
        return hip_fail(hipErrorInvalidValue, api, "attribute %d is none HIP defines", (int)attr);
    size_t first, last;
    hipError_t e;
    pthread_mutex_lock(&rt->lock);
    hip_alloc *a = managed_range(rt, ptr, count, false, &first, &last, &e);
    if (a) range_attribute(a, first, last, attr, data, data_size);
    pthread_mutex_unlock(&rt->lock);
    if (e) return hip_fail(e, api, "%zu bytes at %p are not inside one managed allocation", count, ptr);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemRangeGetAttribute(void *data, size_t data_size, hipMemRangeAttribute attribute,
                                              const void *dev_ptr, size_t count)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    return range_attribute_checked(rt, data, data_size, attribute, dev_ptr, count, "hipMemRangeGetAttribute");
}

HIP_EXPORT hipError_t hipMemRangeGetAttributes(void **data, size_t *data_sizes, hipMemRangeAttribute *attributes,
                                               size_t num_attributes, const void *dev_ptr, size_t count)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!data || !data_sizes || !attributes || !num_attributes) return hip_ret(hipErrorInvalidValue);
    for (size_t i = 0; i < num_attributes; i++) {
        hipError_t e = range_attribute_checked(rt, data[i], data_sizes[i], attributes[i], dev_ptr, count,
                                               "hipMemRangeGetAttributes");
        if (e) return e;
    }
    return hipSuccess;
}

HIP_EXPORT hipError_t hipStreamAttachMemAsync(hipStream_t stream, void *ptr, size_t length, unsigned int flags)
{
    (void)ptr, (void)length, (void)flags;
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!hip_stream_resolve(rt, stream)) return hip_ret(hipErrorInvalidHandle);
    return hipSuccess;
}

/* ---------------- copies and fills ---------------- */

static hipError_t hip_copy_now(hip_runtime *rt, void *dst, const void *src, size_t size)
{
    if (!size) return hipSuccess;
    bool dd = hip_is_device_ptr(rt, dst), sd = hip_is_device_ptr(rt, src);
    uint64_t d = (uint64_t)(uintptr_t)dst, s = (uint64_t)(uintptr_t)src;
    umb_status st;
    if (!dd && !sd) {
        memmove(dst, src, size);
        return hipSuccess;
    }
    if (dd && !sd) st = plat_to_device(&rt->plat, d, src, size);
    else if (!dd && sd) st = plat_from_device(&rt->plat, s, dst, size);
    else st = plat_device_copy(&rt->plat, d, s, size);
    return st ? hipErrorInvalidValue : hipSuccess;
}

typedef hip_copy_job copy_job;

static hipError_t fill_now(hip_runtime *rt, uint8_t *dst, const copy_job *j, size_t bytes)
{
    if (!bytes) return hipSuccess;
    if (!hip_is_device_ptr(rt, dst)) {
        for (size_t i = 0; i < bytes; i += j->pattern_size) memcpy(dst + i, j->pattern, j->pattern_size);
        return hipSuccess;
    }
    umb_status st = plat_fill(&rt->plat, (uint64_t)(uintptr_t)dst, j->pattern, j->pattern_size, bytes);
    return st ? hipErrorInvalidValue : hipSuccess;
}

static hipError_t run_job(hip_runtime *rt, const copy_job *j)
{
    bool contiguous = (j->height == 1 || (j->dpitch == j->width && (j->fill || j->spitch == j->width))) && j->depth == 1;
    if (contiguous) {
        size_t bytes = j->width * j->height;
        return j->fill ? fill_now(rt, j->dst, j, bytes) : hip_copy_now(rt, j->dst, j->src, bytes);
    }
    for (size_t z = 0; z < j->depth; z++)
        for (size_t y = 0; y < j->height; y++) {
            uint8_t *d = j->dst + z * j->dslice + y * j->dpitch;
            hipError_t e = j->fill ? fill_now(rt, d, j, j->width)
                                   : hip_copy_now(rt, d, j->src + z * j->sslice + y * j->spitch, j->width);
            if (e) return e;
        }
    return hipSuccess;
}

/* The simulated duration of a job on the device's clock (timing machines only). */
static uint64_t job_ns(hip_runtime *rt, const copy_job *j)
{
    uint64_t bytes = (uint64_t)j->width * j->height * j->depth;
    if (j->fill) return plat_device_fill_ns(bytes);
    bool dd = hip_is_device_ptr(rt, j->dst), sd = hip_is_device_ptr(rt, j->src);
    if (dd && sd) return plat_device_copy_ns(bytes);
    if (dd || sd) return plat_host_link_ns(bytes);
    return 0;
}

void hip_copy_exec(hip_cmd *c)
{
    hip_runtime *rt = hip_rt();
    const copy_job *j = c->payload;
    c->result = run_job(rt, j);
    if (rt->plat.timing) hip_clock_advance(rt, job_ns(rt, j));
    if (c->result) {
        fprintf(stderr, "umbra hip: a %s of %zu bytes failed: %s\n", j->fill ? "fill" : "copy",
                j->width * j->height * j->depth, umb_device_last_error(rt->plat.dev));
        hip_set_sticky(c->result);
    }
}

/* Queue (or, synchronous, queue and wait for) a job on a stream. */
/* Memory the runtime knows nothing of: neither a device, pinned, registered nor managed allocation */
static bool pageable(hip_runtime *rt, const void *p)
{
    hip_alloc a;
    return !hip_alloc_lookup(rt, p, &a);
}

static hipError_t submit(const copy_job *job, hipStream_t stream, bool async, const char *api)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_fail(hipErrorInvalidHandle, api, "not a stream");
    if (job->width * job->height * job->depth == 0) return hipSuccess;
    if (!job->dst || (!job->fill && !job->src)) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    if (hip_capturing(s)) return hip_capture_copy(rt, s, job, !async, api);
    copy_job *j = malloc(sizeof *j);
    if (!j) return hip_ret(hipErrorOutOfMemory);
    *j = *job;
    hip_cmd *c = hip_cmd_new(hip_copy_exec, j, free);
    if (!c) return free(j), hip_ret(hipErrorOutOfMemory);
    if (!async) return hip_ret(hip_run_sync(rt, s, c));
    hip_enqueue(rt, s, c);
    return hipSuccess;
}

static copy_job linear(void *dst, const void *src, size_t size)
{
    return (copy_job){ .dst = dst, .src = src, .dpitch = size, .spitch = size, .width = size, .height = 1, .depth = 1 };
}

static bool kind_ok(hipMemcpyKind k) { return k >= hipMemcpyHostToHost && k <= hipMemcpyDefault; }

/* An asynchronous linear copy to or from pageable host memory completes before the call returns,
 * as in CLR (ihipMemcpy makes such a copy synchronous: the host buffer may be reused or read at
 * once) and as CUDA documents for pageable memory; programs read the result without a sync. */
static hipError_t linear_copy(void *dst, const void *src, size_t size, hipStream_t s, bool async, const char *api)
{
    copy_job j = linear(dst, src, size);
    hip_runtime *rt = async && size ? hip_rt() : NULL;
    hipStream_t resolved = rt ? hip_stream_resolve(rt, s) : NULL;
    if (rt && dst && src && !(resolved && hip_capturing(resolved)) && (pageable(rt, dst) || pageable(rt, src))) async = false;
    return submit(&j, s, async, api);
}

#define COPY_ENTRY(name, async, stream_expr, dst, src, size)                                       \
    return linear_copy((void *)(dst), (src), (size), (stream_expr), (async), name)

HIP_EXPORT hipError_t hipMemcpy(void *dst, const void *src, size_t size, hipMemcpyKind kind)
{
    if (!kind_ok(kind)) return hip_ret(hipErrorInvalidMemcpyDirection);
    COPY_ENTRY("hipMemcpy", false, NULL, dst, src, size);
}

HIP_EXPORT hipError_t hipMemcpyWithStream(void *dst, const void *src, size_t size, hipMemcpyKind kind, hipStream_t s)
{
    if (!kind_ok(kind)) return hip_ret(hipErrorInvalidMemcpyDirection);
    COPY_ENTRY("hipMemcpyWithStream", false, s, dst, src, size);
}

HIP_EXPORT hipError_t hipMemcpyAsync(void *dst, const void *src, size_t size, hipMemcpyKind kind, hipStream_t s)
{
    if (!kind_ok(kind)) return hip_ret(hipErrorInvalidMemcpyDirection);
    COPY_ENTRY("hipMemcpyAsync", true, s, dst, src, size);
}

HIP_EXPORT hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t size) { COPY_ENTRY("hipMemcpyHtoD", false, NULL, dst, src, size); }
HIP_EXPORT hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t size) { COPY_ENTRY("hipMemcpyDtoH", false, NULL, dst, src, size); }
HIP_EXPORT hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t size) { COPY_ENTRY("hipMemcpyDtoD", false, NULL, dst, src, size); }
HIP_EXPORT hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void *src, size_t size, hipStream_t s) { COPY_ENTRY("hipMemcpyHtoDAsync", true, s, dst, src, size); }
HIP_EXPORT hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t size, hipStream_t s) { COPY_ENTRY("hipMemcpyDtoHAsync", true, s, dst, src, size); }
HIP_EXPORT hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t size, hipStream_t s) { COPY_ENTRY("hipMemcpyDtoDAsync", true, s, dst, src, size); }

HIP_EXPORT hipError_t hipMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t size)
{
    if (dstDevice != 0 || srcDevice != 0) return hip_ret(hipErrorInvalidDevice);
    COPY_ENTRY("hipMemcpyPeer", false, NULL, dst, src, size);
}

HIP_EXPORT hipError_t hipMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t size, hipStream_t s)
{
    if (dstDevice != 0 || srcDevice != 0) return hip_ret(hipErrorInvalidDevice);
    COPY_ENTRY("hipMemcpyPeerAsync", true, s, dst, src, size);
}

static hipError_t copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         hipMemcpyKind kind, hipStream_t s, bool async, const char *api)
{
    if (!kind_ok(kind)) return hip_ret(hipErrorInvalidMemcpyDirection);
    if (width > dpitch || width > spitch) return hip_fail(hipErrorInvalidPitchValue, api, "width %zu exceeds a pitch", width);
    copy_job j = { .dst = dst, .src = src, .dpitch = dpitch, .spitch = spitch, .width = width, .height = height, .depth = 1 };
    return submit(&j, s, async, api);
}

hipError_t hip_copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                      hipMemcpyKind kind, hipStream_t s, bool async, const char *api)
{
    return copy2d(dst, dpitch, src, spitch, width, height, kind, s, async, api);
}

HIP_EXPORT hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                                  hipMemcpyKind kind)
{
    return copy2d(dst, dpitch, src, spitch, width, height, kind, NULL, false, "hipMemcpy2D");
}

HIP_EXPORT hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                       size_t height, hipMemcpyKind kind, hipStream_t s)
{
    return copy2d(dst, dpitch, src, spitch, width, height, kind, s, true, "hipMemcpy2DAsync");
}

static hipError_t param2d(const hip_Memcpy2D *p, hipStream_t s, bool async, const char *api)
{
    if (!p) return hip_ret(hipErrorInvalidValue);
    const uint8_t *src = p->srcMemoryType == hipMemoryTypeDevice ? p->srcDevice : p->srcHost;
    uint8_t *dst = p->dstMemoryType == hipMemoryTypeDevice ? p->dstDevice : p->dstHost;
    /* a pitch of 0 is the row's width (tightly packed rows), as CLR's rectangle copies take it
       (ROCclr's BufferRect, with OpenCL's rule for a zero row pitch) */
    size_t spitch = p->srcPitch ? p->srcPitch : p->WidthInBytes, dpitch = p->dstPitch ? p->dstPitch : p->WidthInBytes;
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    const size_t ext[3] = { p->WidthInBytes, p->Height, 1 };
    uint8_t *at;
    if (p->srcMemoryType == hipMemoryTypeArray) {   /* arrays: X in bytes, Y in rows */
        hipError_t e = hip_array_region(rt, p->srcArray, (size_t[3]){ p->srcXInBytes, p->srcY, 0 }, ext, &at, &spitch,
                                        NULL, NULL, api);
        if (e) return e;
        src = at;
    } else if (src) {
        src += p->srcY * spitch + p->srcXInBytes;
    }
    if (p->dstMemoryType == hipMemoryTypeArray) {
        hipError_t e = hip_array_region(rt, p->dstArray, (size_t[3]){ p->dstXInBytes, p->dstY, 0 }, ext, &at, &dpitch,
                                        NULL, NULL, api);
        if (e) return e;
        dst = at;
    } else if (dst) {
        dst += p->dstY * dpitch + p->dstXInBytes;
    }
    if (!src || !dst) return hip_ret(hipErrorInvalidValue);
    return copy2d(dst, dpitch, src, spitch, p->WidthInBytes, p->Height, hipMemcpyDefault, s, async, api);
}

HIP_EXPORT hipError_t hipMemcpyParam2D(const hip_Memcpy2D *p) { return param2d(p, NULL, false, "hipMemcpyParam2D"); }
HIP_EXPORT hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D *p, hipStream_t s) { return param2d(p, s, true, "hipMemcpyParam2DAsync"); }

hipError_t hip_copy3d_job(const struct hipMemcpy3DParms *p, hip_copy_job *out, const char *api)
{
    if (!p) return hip_ret(hipErrorInvalidValue);
    if (!kind_ok(p->kind)) return hip_ret(hipErrorInvalidMemcpyDirection);
    const hipPitchedPtr *sp = &p->srcPtr, *dp = &p->dstPtr;
    size_t sslice = sp->pitch * sp->ysize, dslice = dp->pitch * dp->ysize;
    copy_job j = {
        .src = (const uint8_t *)sp->ptr + p->srcPos.z * sslice + p->srcPos.y * sp->pitch + p->srcPos.x,
        .dst = (uint8_t *)dp->ptr + p->dstPos.z * dslice + p->dstPos.y * dp->pitch + p->dstPos.x,
        .spitch = sp->pitch, .dpitch = dp->pitch, .sslice = sslice, .dslice = dslice,
        .width = p->extent.width, .height = p->extent.height, .depth = p->extent.depth,
    };
    if (p->srcArray || p->dstArray) {
        /* With an array taking part, the extent and the array's x position count its elements; a
         * pointer's x position stays in bytes (CUDA's rule, which HIP follows). */
        hip_runtime *rt = hip_rt();
        if (!rt) return hip_ret(hipErrorNoDevice);
        size_t elem = 0;
        uint8_t *at;
        const hipArray *ea = p->srcArray ? p->srcArray : p->dstArray;
        size_t one[3] = { 0, 0, 0 }, none[3] = { 0, 0, 0 };
        hipError_t e = hip_array_region(rt, ea, one, none, &at, NULL, NULL, &elem, api);
        if (e) return e;
        j.width = p->extent.width * elem;
        size_t ext[3] = { j.width, p->extent.height ? p->extent.height : 1, p->extent.depth ? p->extent.depth : 1 };
        if (p->srcArray) {
            e = hip_array_region(rt, p->srcArray, (size_t[3]){ p->srcPos.x * elem, p->srcPos.y, p->srcPos.z }, ext, &at,
                                 &j.spitch, &j.sslice, NULL, api);
            if (e) return e;
            j.src = at;
        }
        if (p->dstArray) {
            e = hip_array_region(rt, p->dstArray, (size_t[3]){ p->dstPos.x * elem, p->dstPos.y, p->dstPos.z }, ext, &at,
                                 &j.dpitch, &j.dslice, NULL, api);
            if (e) return e;
            j.dst = at;
        }
        j.height = ext[1], j.depth = ext[2];
    }
    if (j.width > j.spitch || j.width > j.dpitch) return hip_fail(hipErrorInvalidPitchValue, api, "width exceeds a pitch");
    *out = j;
    return hipSuccess;
}

/* One side of a driver-API 3D copy: where its first byte is, and its row and slice pitches. */
static hipError_t drv_side(hip_runtime *rt, hipMemoryType type, const void *host, hipDeviceptr_t dev, hipArray_t arr,
                           unsigned x, unsigned y, unsigned z, unsigned pitch, unsigned height, const size_t ext[3],
                           const uint8_t **at, size_t *row, size_t *slice, const char *api)
{
    if (type == hipMemoryTypeArray) {
        uint8_t *a;
        hipError_t e = hip_array_region(rt, arr, (size_t[3]){ x, y, z }, ext, &a, row, slice, NULL, api);
        if (!e) *at = a;
        return e;
    }
    const uint8_t *base = type == hipMemoryTypeHost ? host : (const uint8_t *)dev;
    if (!base) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    *row = pitch ? pitch : ext[0];
    *slice = *row * (height ? height : ext[1]);
    if (ext[0] > *row) return hip_fail(hipErrorInvalidPitchValue, api, "width exceeds a pitch");
    *at = base + (size_t)z * *slice + (size_t)y * *row + x;
    return hipSuccess;
}

/* hipDrvMemcpy3D's parameters (X in bytes, memory types, each side's pitch and height). */
static hipError_t drv_copy3d(const HIP_MEMCPY3D *p, hipStream_t s, bool async, const char *api)
{
    if (!p) return hip_ret(hipErrorInvalidValue);
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (p->srcLOD || p->dstLOD) return hip_fail(hipErrorNotSupported, api, "mipmap levels are not supported");
    const size_t ext[3] = { p->WidthInBytes, p->Height ? p->Height : 1, p->Depth ? p->Depth : 1 };
    copy_job j = { .width = ext[0], .height = ext[1], .depth = ext[2] };
    const uint8_t *src = NULL, *dst = NULL;
    hipError_t e = drv_side(rt, p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY,
                            p->srcZ, p->srcPitch, p->srcHeight, ext, &src, &j.spitch, &j.sslice, api);
    if (!e) e = drv_side(rt, p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, p->dstZ,
                         p->dstPitch, p->dstHeight, ext, &dst, &j.dpitch, &j.dslice, api);
    if (e) return e;
    j.src = src, j.dst = (uint8_t *)dst;
    return submit(&j, s, async, api);
}

HIP_EXPORT hipError_t hipDrvMemcpy3D(const HIP_MEMCPY3D *p) { return drv_copy3d(p, NULL, false, "hipDrvMemcpy3D"); }
HIP_EXPORT hipError_t hipDrvMemcpy3DAsync(const HIP_MEMCPY3D *p, hipStream_t s) { return drv_copy3d(p, s, true, "hipDrvMemcpy3DAsync"); }
/* rows that need not be aligned: what every umbra copy allows */
HIP_EXPORT hipError_t hipDrvMemcpy2DUnaligned(const hip_Memcpy2D *p) { return param2d(p, NULL, false, "hipDrvMemcpy2DUnaligned"); }

static hipError_t copy3d(const struct hipMemcpy3DParms *p, hipStream_t s, bool async, const char *api)
{
    copy_job j;
    hipError_t e = hip_copy3d_job(p, &j, api);
    return e ? e : submit(&j, s, async, api);
}

HIP_EXPORT hipError_t hipMemcpy3D(const struct hipMemcpy3DParms *p) { return copy3d(p, NULL, false, "hipMemcpy3D"); }
HIP_EXPORT hipError_t hipMemcpy3DAsync(const struct hipMemcpy3DParms *p, hipStream_t s) { return copy3d(p, s, true, "hipMemcpy3DAsync"); }

/* ---- symbols ---- */

hipError_t hip_symbol_range(const void *symbol, size_t count, size_t offset, uint8_t **addr, const char *api)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    uint64_t a;
    size_t size;
    hipError_t e = hip_symbol_lookup(rt, symbol, &a, &size, api);
    if (e) return e;
    if (offset > size || count > size - offset)
        return hip_fail(hipErrorInvalidValue, api, "%zu bytes at offset %zu of a %zu-byte variable", count, offset, size);
    *addr = (uint8_t *)(uintptr_t)(a + offset);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset, hipMemcpyKind kind)
{
    uint8_t *a = NULL;
    hipError_t e = hip_symbol_range(symbol, count, offset, &a, "hipMemcpyToSymbol");
    if (e) return e;
    return hipMemcpy(a, src, count, kind);
}

HIP_EXPORT hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, hipMemcpyKind kind)
{
    uint8_t *a = NULL;
    hipError_t e = hip_symbol_range(symbol, count, offset, &a, "hipMemcpyFromSymbol");
    if (e) return e;
    return hipMemcpy(dst, a, count, kind);
}

HIP_EXPORT hipError_t hipMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                             hipMemcpyKind kind, hipStream_t s)
{
    uint8_t *a = NULL;
    hipError_t e = hip_symbol_range(symbol, count, offset, &a, "hipMemcpyToSymbolAsync");
    if (e) return e;
    return hipMemcpyAsync(a, src, count, kind, s);
}

HIP_EXPORT hipError_t hipMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                               hipMemcpyKind kind, hipStream_t s)
{
    uint8_t *a = NULL;
    hipError_t e = hip_symbol_range(symbol, count, offset, &a, "hipMemcpyFromSymbolAsync");
    if (e) return e;
    return hipMemcpyAsync(dst, a, count, kind, s);
}

HIP_EXPORT hipError_t hipGetSymbolAddress(void **devPtr, const void *symbol)
{
    if (!devPtr) return hip_ret(hipErrorInvalidValue);
    uint8_t *a = NULL;
    hipError_t e = hip_symbol_range(symbol, 0, 0, &a, "hipGetSymbolAddress");
    if (!e) *devPtr = a;
    return e;
}

HIP_EXPORT hipError_t hipGetSymbolSize(size_t *size, const void *symbol)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!size) return hip_ret(hipErrorInvalidValue);
    uint64_t a;
    return hip_symbol_lookup(rt, symbol, &a, size, "hipGetSymbolSize");
}

/* ---- fills ---- */

/* The bytes [dst, dst + span) may be filled: CLR's memset validation (its target must be memory
 * the runtime gave out, an allocation or a module's __device__ variables, and the fill must end
 * inside it). */
static hipError_t fill_target_ok(hip_runtime *rt, void *dst, uint64_t span, const char *api)
{
    uint64_t a = (uint64_t)(uintptr_t)dst;
    hip_alloc al;
    bool known = hip_alloc_lookup(rt, dst, &al);
    uint64_t room = known ? al.base + al.size - a : 0;
    if (known && span <= room) return hipSuccess;
    if (known)
        return hip_fail(hipErrorInvalidValue, api, "%" PRIu64 " bytes from %p run past the end of its allocation "
                        "(%" PRIu64 " bytes left)", span, dst, room);
    if (!hip_is_device_ptr(rt, dst))
        return hip_fail(hipErrorInvalidValue, api, "%p is not device memory (a host pointer the runtime did not "
                        "allocate or register?)", dst);
    if (!hip_module_holds(a, span) && !hip_vmm_holds(rt, a, span))
        return hip_fail(hipErrorInvalidValue, api, "%" PRIu64 " bytes from %p are not in one allocation, module or "
                        "virtual memory mapping", span, dst);
    return hipSuccess;
}

hipError_t hip_fill_job(void *dst, size_t pitch, size_t width, size_t height, size_t depth, size_t slice, uint32_t value,
                        uint32_t psize, hip_copy_job *out, const char *api)
{
    if (!width || !height || !depth) return hip_fail(hipErrorInvalidValue, api, "an empty fill (%zu x %zu x %zu)", width, height, depth);
    if (width > SIZE_MAX / psize) return hip_fail(hipErrorInvalidValue, api, "%zu elements overflow", width);
    copy_job j = { .dst = dst, .dpitch = pitch, .dslice = slice, .width = width * psize, .height = height,
                   .depth = depth, .fill = true, .pattern_size = psize };
    memcpy(j.pattern, &value, psize);   /* little-endian: the low bytes */
    if (j.width > pitch) return hip_fail(hipErrorInvalidPitchValue, api, "width exceeds the pitch");
    if (!dst) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    if (depth > 1 && slice < pitch * height) return hip_fail(hipErrorInvalidValue, api, "the slices overlap");
    /* the bytes the fill touches, from the first to the last: (depth-1) slices, (height-1) rows, a row */
    unsigned __int128 span = (unsigned __int128)(depth - 1) * slice + (unsigned __int128)(height - 1) * pitch + j.width;
    if (span > UINT64_MAX) return hip_fail(hipErrorInvalidValue, api, "the extent overflows");
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    hipError_t e = fill_target_ok(rt, dst, (uint64_t)span, api);
    if (!e) *out = j;
    return e;
}

static hipError_t fill(void *dst, size_t pitch, size_t width, size_t height, size_t depth, size_t slice,
                       uint32_t value, uint32_t psize, hipStream_t s, bool async, const char *api)
{
    if (!width || !height || !depth) return hipSuccess;   /* nothing to fill: the pointer is not looked at */
    copy_job j;
    hipError_t e = hip_fill_job(dst, pitch, width, height, depth, slice, value, psize, &j, api);
    return e ? e : submit(&j, s, async, api);
}

#define FILL1(dst, n, v, ps, s, async, api) fill((dst), (size_t)(n) * (ps), (n), 1, 1, 0, (v), (ps), (s), (async), (api))

HIP_EXPORT hipError_t hipMemset(void *dst, int value, size_t size) { return FILL1(dst, size, (uint8_t)value, 1, NULL, false, "hipMemset"); }
HIP_EXPORT hipError_t hipMemsetAsync(void *dst, int value, size_t size, hipStream_t s) { return FILL1(dst, size, (uint8_t)value, 1, s, true, "hipMemsetAsync"); }
HIP_EXPORT hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char v, size_t n) { return FILL1(dst, n, v, 1, NULL, false, "hipMemsetD8"); }
HIP_EXPORT hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char v, size_t n, hipStream_t s) { return FILL1(dst, n, v, 1, s, true, "hipMemsetD8Async"); }
HIP_EXPORT hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short v, size_t n) { return FILL1(dst, n, v, 2, NULL, false, "hipMemsetD16"); }
HIP_EXPORT hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short v, size_t n, hipStream_t s) { return FILL1(dst, n, v, 2, s, true, "hipMemsetD16Async"); }
HIP_EXPORT hipError_t hipMemsetD32(hipDeviceptr_t dst, int v, size_t n) { return FILL1(dst, n, (uint32_t)v, 4, NULL, false, "hipMemsetD32"); }
HIP_EXPORT hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int v, size_t n, hipStream_t s) { return FILL1(dst, n, (uint32_t)v, 4, s, true, "hipMemsetD32Async"); }

HIP_EXPORT hipError_t hipMemset2D(void *dst, size_t pitch, int value, size_t width, size_t height)
{
    return fill(dst, pitch, width, height, 1, 0, (uint8_t)value, 1, NULL, false, "hipMemset2D");
}

HIP_EXPORT hipError_t hipMemset2DAsync(void *dst, size_t pitch, int value, size_t width, size_t height, hipStream_t s)
{
    return fill(dst, pitch, width, height, 1, 0, (uint8_t)value, 1, s, true, "hipMemset2DAsync");
}

HIP_EXPORT hipError_t hipMemset3D(hipPitchedPtr p, int value, hipExtent e)
{
    return fill(p.ptr, p.pitch, e.width, e.height, e.depth, p.pitch * p.ysize, (uint8_t)value, 1, NULL, false, "hipMemset3D");
}

HIP_EXPORT hipError_t hipMemset3DAsync(hipPitchedPtr p, int value, hipExtent e, hipStream_t s)
{
    return fill(p.ptr, p.pitch, e.width, e.height, e.depth, p.pitch * p.ysize, (uint8_t)value, 1, s, true, "hipMemset3DAsync");
}
