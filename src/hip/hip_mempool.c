/* Memory pools of stream-ordered allocation (hipMallocAsync, hipMallocFromPoolAsync): the device's
 * default pool, pools a program creates, the device's current pool, their attributes and access.
 *
 * umbra's allocations exist at once and a free returns the memory at once (hipFreeAsync waits for
 * the device as hipFree does), so a pool caches nothing: its reserved memory is its used memory,
 * hipMemPoolTrimTo has nothing to release, and the reuse and release-threshold attributes are
 * kept and reported but change no behaviour. What a pool does count is its allocations: used and
 * reserved bytes, current and high-water marks (hipMemPoolGetAttribute), as CUDA defines them.
 * Sharing pools between processes (export/import) is not supported (hip_unsupported.c).
 *
 * Pools live in rt->pools under rt->lock. A destroyed pool leaves the list at once (its handle is
 * then refused) and is freed when its last allocation is. */
#include <stdlib.h>
#include <string.h>

#include "hip_internal.h"

struct ihipMemPoolHandle_t {
    bool is_default, destroyed;
    int reuse[3];                 /* hipMemPoolReuse* attributes 1..3 (0 or 1) */
    uint64_t release_threshold;
    uint64_t used, used_high, reserved_high;
    struct ihipMemPoolHandle_t *next;
};

static hipMemPool_t pool_new(hip_runtime *rt, bool is_default)
{
    hipMemPool_t p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->is_default = is_default;
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;   /* CUDA's defaults: every reuse allowed */
    p->next = rt->pools, rt->pools = p;
    return p;
}

/* The device's default pool, made on first use (under rt->lock); NULL on host OOM. */
static hipMemPool_t default_pool(hip_runtime *rt)
{
    if (!rt->default_pool && (rt->default_pool = pool_new(rt, true)) && !rt->current_pool)
        rt->current_pool = rt->default_pool;
    return rt->default_pool;
}

hipMemPool_t hip_pool_current(hip_runtime *rt)
{
    pthread_mutex_lock(&rt->lock);
    hipMemPool_t p = default_pool(rt) ? rt->current_pool : NULL;
    pthread_mutex_unlock(&rt->lock);
    return p;
}

static bool pool_live(hip_runtime *rt, hipMemPool_t p)
{
    for (hipMemPool_t o = rt->pools; o && p; o = o->next)
        if (o == p) return true;
    return false;
}

/* pool_live under the lock, for the calls that only need to know the handle is a pool */
static bool pool_checked(hip_runtime *rt, hipMemPool_t p)
{
    pthread_mutex_lock(&rt->lock);
    bool ok = pool_live(rt, p);
    pthread_mutex_unlock(&rt->lock);
    return ok;
}

void hip_pool_charge(hipMemPool_t pool, uint64_t size)
{
    pool->used += size;
    if (pool->used > pool->used_high) pool->used_high = pool->used;
    if (pool->used > pool->reserved_high) pool->reserved_high = pool->used;
}

void hip_pool_release(hipMemPool_t pool, uint64_t size)
{
    pool->used -= size < pool->used ? size : pool->used;
    if (pool->destroyed && !pool->used) free(pool);   /* its last allocation is gone */
}

static bool device_ok(int device) { return device == 0; }

HIP_EXPORT hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t *mem_pool, int device)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!mem_pool) return hip_fail(hipErrorInvalidValue, "hipDeviceGetDefaultMemPool", "NULL pointer");
    if (!device_ok(device)) return hip_ret(hipErrorInvalidDevice);
    pthread_mutex_lock(&rt->lock);
    hipMemPool_t p = default_pool(rt);
    pthread_mutex_unlock(&rt->lock);
    if (!p) return hip_ret(hipErrorOutOfMemory);
    *mem_pool = p;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipDeviceGetMemPool(hipMemPool_t *mem_pool, int device)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!mem_pool) return hip_fail(hipErrorInvalidValue, "hipDeviceGetMemPool", "NULL pointer");
    if (!device_ok(device)) return hip_ret(hipErrorInvalidDevice);
    pthread_mutex_lock(&rt->lock);
    hipMemPool_t p = default_pool(rt) ? rt->current_pool : NULL;
    pthread_mutex_unlock(&rt->lock);
    if (!p) return hip_ret(hipErrorOutOfMemory);
    *mem_pool = p;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipDeviceSetMemPool(int device, hipMemPool_t mem_pool)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!device_ok(device)) return hip_ret(hipErrorInvalidDevice);
    pthread_mutex_lock(&rt->lock);
    bool ok = pool_live(rt, mem_pool) && default_pool(rt);
    if (ok) rt->current_pool = mem_pool;
    pthread_mutex_unlock(&rt->lock);
    return ok ? hipSuccess : hip_fail(hipErrorInvalidValue, "hipDeviceSetMemPool", "not a memory pool");
}

HIP_EXPORT hipError_t hipMemPoolCreate(hipMemPool_t *mem_pool, const hipMemPoolProps *props)
{
    static const char api[] = "hipMemPoolCreate";
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!mem_pool || !props) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    if (props->allocType != hipMemAllocationTypePinned)
        return hip_fail(hipErrorInvalidValue, api, "allocation type %d (hipMemAllocationTypePinned)", (int)props->allocType);
    if (props->location.type != hipMemLocationTypeDevice)
        return hip_fail(hipErrorInvalidValue, api, "location type %d (a device)", (int)props->location.type);
    if (!device_ok(props->location.id)) return hip_ret(hipErrorInvalidDevice);
    if (props->handleTypes != hipMemHandleTypeNone)
        return hip_fail(hipErrorNotSupported, api, "shareable handles (sharing a pool between processes) are not supported");
    pthread_mutex_lock(&rt->lock);
    hipMemPool_t p = default_pool(rt) ? pool_new(rt, false) : NULL;
    pthread_mutex_unlock(&rt->lock);
    if (!p) return hip_ret(hipErrorOutOfMemory);
    *mem_pool = p;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemPoolDestroy(hipMemPool_t mem_pool)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    pthread_mutex_lock(&rt->lock);
    bool ok = pool_live(rt, mem_pool) && !mem_pool->is_default;
    if (ok) {
        for (hipMemPool_t *pp = &rt->pools; *pp; pp = &(*pp)->next)
            if (*pp == mem_pool) {
                *pp = mem_pool->next;
                break;
            }
        if (rt->current_pool == mem_pool) rt->current_pool = rt->default_pool;
        mem_pool->destroyed = true;
        if (!mem_pool->used) free(mem_pool);   /* else its last allocation's free frees it */
    }
    pthread_mutex_unlock(&rt->lock);
    return ok ? hipSuccess : hip_fail(hipErrorInvalidValue, "hipMemPoolDestroy", "not a pool a program created");
}

HIP_EXPORT hipError_t hipMallocFromPoolAsync(void **dev_ptr, size_t size, hipMemPool_t mem_pool, hipStream_t stream)
{
    static const char api[] = "hipMallocFromPoolAsync";
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!dev_ptr) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    if (!hip_stream_resolve(rt, stream)) return hip_ret(hipErrorInvalidHandle);
    bool ok = pool_checked(rt, mem_pool);
    if (!ok) return hip_fail(hipErrorInvalidValue, api, "not a memory pool");
    return hip_pool_alloc(rt, dev_ptr, size, mem_pool, api);
}

HIP_EXPORT hipError_t hipMemPoolTrimTo(hipMemPool_t mem_pool, size_t min_bytes_to_hold)
{
    (void)min_bytes_to_hold;   /* a pool caches no memory: nothing to release */
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    bool ok = pool_checked(rt, mem_pool);
    return ok ? hipSuccess : hip_fail(hipErrorInvalidValue, "hipMemPoolTrimTo", "not a memory pool");
}

HIP_EXPORT hipError_t hipMemPoolSetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void *value)
{
    static const char api[] = "hipMemPoolSetAttribute";
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!value) return hip_fail(hipErrorInvalidValue, api, "NULL value");
    hipError_t e = hipSuccess;
    pthread_mutex_lock(&rt->lock);
    if (!pool_live(rt, mem_pool)) {
        e = hipErrorInvalidValue;
    } else {
        switch (attr) {
        case hipMemPoolReuseFollowEventDependencies: case hipMemPoolReuseAllowOpportunistic:
        case hipMemPoolReuseAllowInternalDependencies:
            mem_pool->reuse[attr - hipMemPoolReuseFollowEventDependencies] = *(int *)value != 0;
            break;
        case hipMemPoolAttrReleaseThreshold: mem_pool->release_threshold = *(uint64_t *)value; break;
        case hipMemPoolAttrReservedMemHigh: case hipMemPoolAttrUsedMemHigh:   /* may only be reset */
            if (*(uint64_t *)value) e = hipErrorInvalidValue;
            else if (attr == hipMemPoolAttrUsedMemHigh) mem_pool->used_high = mem_pool->used;
            else mem_pool->reserved_high = mem_pool->used;
            break;
        default: e = hipErrorInvalidValue; break;   /* the current values are read-only */
        }
    }
    pthread_mutex_unlock(&rt->lock);
    return e ? hip_fail(e, api, "not a pool, or attribute %d cannot be set to that", (int)attr) : hipSuccess;
}

HIP_EXPORT hipError_t hipMemPoolGetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void *value)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!value) return hip_fail(hipErrorInvalidValue, "hipMemPoolGetAttribute", "NULL value");
    hipError_t e = hipSuccess;
    pthread_mutex_lock(&rt->lock);
    if (!pool_live(rt, mem_pool)) {
        e = hipErrorInvalidValue;
    } else {
        switch (attr) {
        case hipMemPoolReuseFollowEventDependencies: case hipMemPoolReuseAllowOpportunistic:
        case hipMemPoolReuseAllowInternalDependencies:
            *(int *)value = mem_pool->reuse[attr - hipMemPoolReuseFollowEventDependencies];
            break;
        case hipMemPoolAttrReleaseThreshold: *(uint64_t *)value = mem_pool->release_threshold; break;
        case hipMemPoolAttrReservedMemCurrent: case hipMemPoolAttrUsedMemCurrent: *(uint64_t *)value = mem_pool->used; break;
        case hipMemPoolAttrReservedMemHigh: *(uint64_t *)value = mem_pool->reserved_high; break;
        case hipMemPoolAttrUsedMemHigh: *(uint64_t *)value = mem_pool->used_high; break;
        default: e = hipErrorInvalidValue; break;
        }
    }
    pthread_mutex_unlock(&rt->lock);
    return e ? hip_fail(e, "hipMemPoolGetAttribute", "not a pool, or attribute %d", (int)attr) : hipSuccess;
}

/* One device: it reaches its pools' memory read-write, and that cannot be taken away. */
HIP_EXPORT hipError_t hipMemPoolSetAccess(hipMemPool_t mem_pool, const hipMemAccessDesc *desc_list, size_t count)
{
    static const char api[] = "hipMemPoolSetAccess";
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (count && !desc_list) return hip_fail(hipErrorInvalidValue, api, "no descriptions");
    bool live = pool_checked(rt, mem_pool);
    if (!live) return hip_fail(hipErrorInvalidValue, api, "not a memory pool");
    for (size_t i = 0; i < count; i++) {
        if (desc_list[i].location.type != hipMemLocationTypeDevice) return hip_fail(hipErrorInvalidValue, api, "location %zu", i);
        if (!device_ok(desc_list[i].location.id)) return hip_ret(hipErrorInvalidDevice);
        if (desc_list[i].flags != hipMemAccessFlagsProtReadWrite)
            return hip_fail(hipErrorInvalidValue, api, "the pool's own device keeps read-write access");
    }
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemPoolGetAccess(hipMemAccessFlags *flags, hipMemPool_t mem_pool, hipMemLocation *location)
{
    static const char api[] = "hipMemPoolGetAccess";
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!flags || !location) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    bool live = pool_checked(rt, mem_pool);
    if (!live) return hip_fail(hipErrorInvalidValue, api, "not a memory pool");
    if (location->type != hipMemLocationTypeDevice) return hip_fail(hipErrorInvalidValue, api, "not a device location");
    if (!device_ok(location->id)) return hip_ret(hipErrorInvalidDevice);
    *flags = hipMemAccessFlagsProtReadWrite;
    return hipSuccess;
}
