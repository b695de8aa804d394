/* Virtual memory management: physical allocations (hipMemCreate) mapped at device addresses a
 * program reserves (hipMemAddressReserve, hipMemMap), with access set per range (hipMemSetAccess).
 *
 * The device addresses come from the top quarter of the range the runtime reserved for device
 * memory (hip_runtime.c gives the rest to the device heap), so that every part of the runtime
 * takes them for device memory. A physical allocation is host memory taken page by page as it is
 * touched (MAP_NORESERVE), and hipMemMap maps its pages into the device at the reserved address
 * (libumbra's umb_mem_map_host): two mappings of one allocation see the same bytes, as on the
 * GPU. Access is the one device's read-write (read-only cannot be enforced: umbra's memory has no
 * protection bits, so it is refused as not supported); sharing between processes (shareable
 * handles) and sparse arrays are not supported. State lives in the runtime under rt->lock. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hip_internal.h"

#define VMM_PAGE 4096u

struct ihipMemGenericAllocationHandle {
    uint8_t *host;                /* the pages */
    size_t size;
    hipMemAllocationProp prop;
    uint32_t refs;                /* the creator's (until hipMemRelease), one per mapping and retain */
    struct ihipMemGenericAllocationHandle *next;
};

typedef struct vmm_range {        /* a reservation, or a mapping inside one */
    uint64_t base, size;
    hipMemGenericAllocationHandle_t h;   /* mappings: the allocation and where in it */
    size_t offset;
    struct vmm_range *next;
} vmm_range;

struct hip_vmm {
    uint64_t base, size;          /* the device addresses reservations come from */
    vmm_range *reserved, *mapped;
    hipMemGenericAllocationHandle_t handles;
};

bool hip_vmm_init(hip_runtime *rt, uint64_t base, uint64_t size)
{
    if (!(rt->vmm = calloc(1, sizeof *rt->vmm))) return false;
    rt->vmm->base = base, rt->vmm->size = size;
    return true;
}

static bool handle_live(const hip_vmm *v, hipMemGenericAllocationHandle_t h)
{
    for (hipMemGenericAllocationHandle_t o = v->handles; o && h; o = o->next)
        if (o == h) return true;
    return false;
}

static void handle_unref(hip_vmm *v, hipMemGenericAllocationHandle_t h)
{
    if (--h->refs) return;
    for (hipMemGenericAllocationHandle_t *pp = &v->handles; *pp; pp = &(*pp)->next)
        if (*pp == h) {
            *pp = h->next;
            break;
        }
    munmap(h->host, h->size);
    free(h);
}

static bool overlaps(uint64_t a, uint64_t an, uint64_t b, uint64_t bn) { return a < b + bn && b < a + an; }

static vmm_range *range_holding(vmm_range *l, uint64_t addr, uint64_t size)
{
    for (; l; l = l->next)
        if (addr >= l->base && addr - l->base <= l->size && size <= l->size - (addr - l->base)) return l;
    return NULL;
}

/* [addr, addr + size) is mapped in full (by one or more mappings). */
static bool fully_mapped(const hip_vmm *v, uint64_t addr, uint64_t size)
{
    while (size) {
        vmm_range *m = range_holding(v->mapped, addr, 1);
        if (!m) return false;
        uint64_t left = m->base + m->size - addr, n = left < size ? left : size;
        addr += n, size -= n;
    }
    return true;
}

bool hip_vmm_holds(hip_runtime *rt, uint64_t addr, uint64_t size)
{
    if (!rt->vmm) return false;
    pthread_mutex_lock(&rt->lock);
    bool ok = size && fully_mapped(rt->vmm, addr, size);
    pthread_mutex_unlock(&rt->lock);
    return ok;
}

static hipError_t prop_ok(const hipMemAllocationProp *prop, const char *api)
{
    if (!prop) return hip_fail(hipErrorInvalidValue, api, "NULL properties");
    if (prop->type != hipMemAllocationTypePinned)
        return hip_fail(hipErrorInvalidValue, api, "allocation type %d (hipMemAllocationTypePinned)", (int)prop->type);
    if (prop->location.type != hipMemLocationTypeDevice)
        return hip_fail(hipErrorInvalidValue, api, "location type %d (a device)", (int)prop->location.type);
    if (prop->location.id != 0) return hip_ret(hipErrorInvalidDevice);
    if (prop->requestedHandleType != hipMemHandleTypeNone)
        return hip_fail(hipErrorNotSupported, api, "shareable handles (sharing between processes) are not supported");
    return hipSuccess;
}

#define VMM_OR_FAIL(api)                                                                           \
    hip_runtime *rt = hip_rt();                                                                    \
    if (!rt) return hip_ret(hipErrorNoDevice);                                                     \
    if (!rt->vmm) return hip_fail(hipErrorNotSupported, api, "no address range for virtual memory")

HIP_EXPORT hipError_t hipMemGetAllocationGranularity(size_t *granularity, const hipMemAllocationProp *prop,
                                                     hipMemAllocationGranularity_flags option)
{
    static const char api[] = "hipMemGetAllocationGranularity";
    VMM_OR_FAIL(api);
    if (!granularity) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    if (option != hipMemAllocationGranularityMinimum && option != hipMemAllocationGranularityRecommended)
        return hip_fail(hipErrorInvalidValue, api, "option %d", (int)option);
    hipError_t e = prop_ok(prop, api);
    if (e) return e;
    *granularity = VMM_PAGE;   /* umbra maps memory a page at a time, both the least and the best */
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemCreate(hipMemGenericAllocationHandle_t *handle, size_t size, const hipMemAllocationProp *prop,
                                   unsigned long long flags)
{
    static const char api[] = "hipMemCreate";
    VMM_OR_FAIL(api);
    if (!handle || flags) return hip_fail(hipErrorInvalidValue, api, "NULL handle pointer or flags %llu", flags);
    hipError_t e = prop_ok(prop, api);
    if (e) return e;
    if (!size || size % VMM_PAGE) return hip_fail(hipErrorInvalidValue, api, "%zu bytes: not a multiple of the granularity", size);
    size_t free_bytes = 0, total = 0;
    if (hipMemGetInfo(&free_bytes, &total) == hipSuccess && size > free_bytes)
        return hip_fail(hipErrorOutOfMemory, api, "%zu bytes, %zu free", size, free_bytes);
    hipMemGenericAllocationHandle_t h = calloc(1, sizeof *h);
    if (!h) return hip_ret(hipErrorOutOfMemory);
    h->host = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (h->host == MAP_FAILED) return free(h), hip_fail(hipErrorOutOfMemory, api, "%zu bytes of host memory", size);
    h->size = size, h->prop = *prop, h->refs = 1;
    pthread_mutex_lock(&rt->lock);
    h->next = rt->vmm->handles, rt->vmm->handles = h;
    pthread_mutex_unlock(&rt->lock);
    *handle = h;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemRelease(hipMemGenericAllocationHandle_t handle)
{
    VMM_OR_FAIL("hipMemRelease");
    pthread_mutex_lock(&rt->lock);
    bool ok = handle_live(rt->vmm, handle);
    if (ok) handle_unref(rt->vmm, handle);   /* the memory goes once its last mapping does */
    pthread_mutex_unlock(&rt->lock);
    return ok ? hipSuccess : hip_fail(hipErrorInvalidValue, "hipMemRelease", "not an allocation handle");
}

HIP_EXPORT hipError_t hipMemGetAllocationPropertiesFromHandle(hipMemAllocationProp *prop, hipMemGenericAllocationHandle_t handle)
{
    VMM_OR_FAIL("hipMemGetAllocationPropertiesFromHandle");
    if (!prop) return hip_fail(hipErrorInvalidValue, "hipMemGetAllocationPropertiesFromHandle", "NULL pointer");
    pthread_mutex_lock(&rt->lock);
    bool ok = handle_live(rt->vmm, handle);
    if (ok) *prop = handle->prop;
    pthread_mutex_unlock(&rt->lock);
    return ok ? hipSuccess : hip_fail(hipErrorInvalidValue, "hipMemGetAllocationPropertiesFromHandle", "not an allocation handle");
}

/* A free stretch of the range for size bytes aligned to align (at addr if that is free). */
static uint64_t find_room(const hip_vmm *v, uint64_t size, uint64_t align, uint64_t addr)
{
    uint64_t end = v->base + v->size;
    if (addr && addr >= v->base && addr <= end - size && addr % align == 0) {
        bool free_here = true;
        for (const vmm_range *r = v->reserved; r && free_here; r = r->next) free_here = !overlaps(addr, size, r->base, r->size);
        if (free_here) return addr;
    }
    for (uint64_t at = (v->base + align - 1) / align * align; at <= end - size;) {
        const vmm_range *hit = NULL;
        for (const vmm_range *r = v->reserved; r && !hit; r = r->next)
            if (overlaps(at, size, r->base, r->size)) hit = r;
        if (!hit) return at;
        at = (hit->base + hit->size + align - 1) / align * align;
    }
    return 0;
}

HIP_EXPORT hipError_t hipMemAddressReserve(void **ptr, size_t size, size_t alignment, void *addr, unsigned long long flags)
{
    static const char api[] = "hipMemAddressReserve";
    VMM_OR_FAIL(api);
    if (!ptr || flags) return hip_fail(hipErrorInvalidValue, api, "NULL pointer or flags %llu", flags);
    if (!size || size % VMM_PAGE) return hip_fail(hipErrorInvalidValue, api, "%zu bytes: not a multiple of the granularity", size);
    uint64_t align = alignment ? alignment : VMM_PAGE;
    if (align & (align - 1) || align % VMM_PAGE) return hip_fail(hipErrorInvalidValue, api, "alignment %zu", alignment);
    vmm_range *r = calloc(1, sizeof *r);
    if (!r) return hip_ret(hipErrorOutOfMemory);
    pthread_mutex_lock(&rt->lock);
    uint64_t at = size <= rt->vmm->size ? find_room(rt->vmm, size, align, (uint64_t)(uintptr_t)addr) : 0;
    if (at) {
        r->base = at, r->size = size;
        r->next = rt->vmm->reserved, rt->vmm->reserved = r;
    }
    pthread_mutex_unlock(&rt->lock);
    if (!at) return free(r), hip_fail(hipErrorOutOfMemory, api, "no free %zu-byte range of device addresses", size);
    *ptr = (void *)(uintptr_t)at;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemAddressFree(void *devPtr, size_t size)
{
    static const char api[] = "hipMemAddressFree";
    VMM_OR_FAIL(api);
    uint64_t a = (uint64_t)(uintptr_t)devPtr;
    pthread_mutex_lock(&rt->lock);
    hipError_t e = hipErrorInvalidValue;
    for (vmm_range **pp = &rt->vmm->reserved; *pp; pp = &(*pp)->next) {
        vmm_range *r = *pp;
        if (r->base != a || r->size != size) continue;
        bool mapped = false;
        for (const vmm_range *m = rt->vmm->mapped; m && !mapped; m = m->next) mapped = overlaps(m->base, m->size, a, size);
        if (!mapped) *pp = r->next, free(r), e = hipSuccess;
        break;
    }
    pthread_mutex_unlock(&rt->lock);
    return e ? hip_fail(e, api, "%p + %zu is not a reservation, or parts of it are still mapped", devPtr, size) : hipSuccess;
}

HIP_EXPORT hipError_t hipMemMap(void *ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t handle,
                                unsigned long long flags)
{
    static const char api[] = "hipMemMap";
    VMM_OR_FAIL(api);
    uint64_t a = (uint64_t)(uintptr_t)ptr;
    if (flags || !size || a % VMM_PAGE || size % VMM_PAGE || offset % VMM_PAGE)
        return hip_fail(hipErrorInvalidValue, api, "flags, or a range or offset off the granularity");
    vmm_range *m = calloc(1, sizeof *m);
    if (!m) return hip_ret(hipErrorOutOfMemory);
    pthread_mutex_lock(&rt->lock);
    hip_vmm *v = rt->vmm;
    hipError_t e = !handle_live(v, handle) ? hipErrorInvalidValue
                 : offset > handle->size || size > handle->size - offset ? hipErrorInvalidValue
                 : !range_holding(v->reserved, a, size) ? hipErrorInvalidValue : hipSuccess;
    for (const vmm_range *o = v->mapped; o && !e; o = o->next)
        if (overlaps(o->base, o->size, a, size)) e = hipErrorInvalidValue;
    if (!e) {
        plat_lock(&rt->plat);
        umb_status st = umb_mem_map_host(rt->plat.dev, a, handle->host + offset, size);
        plat_unlock(&rt->plat);
        if (st) e = hipErrorOutOfMemory;
    }
    if (!e) {
        *m = (vmm_range){ .base = a, .size = size, .h = handle, .offset = offset, .next = v->mapped };
        v->mapped = m, handle->refs++;
    }
    pthread_mutex_unlock(&rt->lock);
    if (e) return free(m), hip_fail(e, api, "%p + %zu: not a free part of a reservation, a live handle, or "
                                    "inside the allocation", ptr, size);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemUnmap(void *ptr, size_t size)
{
    static const char api[] = "hipMemUnmap";
    VMM_OR_FAIL(api);
    uint64_t a = (uint64_t)(uintptr_t)ptr;
    hip_sync_all(rt);   /* as a free does: nothing running may still use the memory */
    pthread_mutex_lock(&rt->lock);
    hip_vmm *v = rt->vmm;
    bool ok = size && fully_mapped(v, a, size);
    for (const vmm_range *m = v->mapped; m && ok; m = m->next)   /* whole mappings only */
        if (overlaps(m->base, m->size, a, size) && (m->base < a || m->base + m->size > a + size)) ok = false;
    for (vmm_range **pp = &v->mapped; ok && *pp;) {
        vmm_range *m = *pp;
        if (!overlaps(m->base, m->size, a, size)) {
            pp = &m->next;
            continue;
        }
        plat_lock(&rt->plat);
        umb_mem_unmap(rt->plat.dev, m->base, m->size);
        plat_unlock(&rt->plat);
        *pp = m->next;
        handle_unref(v, m->h);
        free(m);
    }
    pthread_mutex_unlock(&rt->lock);
    return ok ? hipSuccess : hip_fail(hipErrorInvalidValue, api, "%p + %zu is not whole mappings", ptr, size);
}

HIP_EXPORT hipError_t hipMemSetAccess(void *ptr, size_t size, const hipMemAccessDesc *desc, size_t count)
{
    static const char api[] = "hipMemSetAccess";
    VMM_OR_FAIL(api);
    if (!desc || !count) return hip_fail(hipErrorInvalidValue, api, "no access descriptions");
    for (size_t i = 0; i < count; i++) {
        if (desc[i].location.type != hipMemLocationTypeDevice) return hip_fail(hipErrorInvalidValue, api, "location %zu", i);
        if (desc[i].location.id != 0) return hip_ret(hipErrorInvalidDevice);
        if (desc[i].flags == hipMemAccessFlagsProtRead)
            return hip_fail(hipErrorNotSupported, api, "read-only access cannot be enforced (umbra's memory has no protection bits)");
        if (desc[i].flags != hipMemAccessFlagsProtReadWrite)
            return hip_fail(hipErrorInvalidValue, api, "access flags %d for the memory's own device", (int)desc[i].flags);
    }
    return hip_vmm_holds(rt, (uint64_t)(uintptr_t)ptr, size) ? hipSuccess
         : hip_fail(hipErrorInvalidValue, api, "%p + %zu is not mapped", ptr, size);
}

HIP_EXPORT hipError_t hipMemGetAccess(unsigned long long *flags, const hipMemLocation *location, void *ptr)
{
    static const char api[] = "hipMemGetAccess";
    VMM_OR_FAIL(api);
    if (!flags || !location) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    if (location->type != hipMemLocationTypeDevice) return hip_fail(hipErrorInvalidValue, api, "not a device location");
    if (location->id != 0) return hip_ret(hipErrorInvalidDevice);
    *flags = hip_vmm_holds(rt, (uint64_t)(uintptr_t)ptr, 1) ? hipMemAccessFlagsProtReadWrite : hipMemAccessFlagsProtNone;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemRetainAllocationHandle(hipMemGenericAllocationHandle_t *handle, void *addr)
{
    VMM_OR_FAIL("hipMemRetainAllocationHandle");
    if (!handle) return hip_fail(hipErrorInvalidValue, "hipMemRetainAllocationHandle", "NULL pointer");
    pthread_mutex_lock(&rt->lock);
    vmm_range *m = range_holding(rt->vmm->mapped, (uint64_t)(uintptr_t)addr, 1);
    if (m) m->h->refs++, *handle = m->h;   /* released with hipMemRelease, as CUDA's */
    pthread_mutex_unlock(&rt->lock);
    return m ? hipSuccess : hip_fail(hipErrorInvalidValue, "hipMemRetainAllocationHandle", "%p is not mapped", addr);
}
