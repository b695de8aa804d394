/* Texture references: `texture<T, dim, readMode>` variables of device code (CUDA's deprecated
 * texture API, which hipified programs still use) and the runtime calls that bind memory to them.
 *
 * A texture reference is a device variable holding a textureReference (registered by
 * __hipRegisterTexture as a variable, hip_module.c); the device headers' tex1Dfetch/tex2D/...
 * on it read its textureObject field, a texture object's descriptor address. Binding makes a
 * texture object of the memory (hipCreateTextureObject, with the reference's own addressing,
 * filter, read mode, normalisation and sRGB fields), stores it in the reference's host copy and
 * copies the reference into the device variable, as CLR does; unbinding destroys the object and
 * clears the field. Mipmapped arrays and the driver API's hipTexRef* calls are not supported
 * (hipErrorNotSupported, hip_unsupported.c). */
#include <stdlib.h>
#include <string.h>

#include "hip_internal.h"

typedef struct texref_binding {
    const textureReference *ref;
    hipTextureObject_t obj;
    size_t offset;                /* bytes the fetches must add (hipBindTexture of unaligned memory) */
    struct texref_binding *next;
} texref_binding;

static texref_binding *find_binding(hip_runtime *rt, const textureReference *ref, bool take)
{
    for (texref_binding **pp = &rt->texrefs; *pp; pp = &(*pp)->next)
        if ((*pp)->ref == ref) {
            texref_binding *b = *pp;
            if (take) *pp = b->next;
            return b;
        }
    return NULL;
}

/* The device copy of reference `ref` gets its host copy (with textureObject set to obj). */
static hipError_t publish(const textureReference *ref, hipTextureObject_t obj, const char *api)
{
    textureReference copy = *ref;
    copy.textureObject = obj;
    ((textureReference *)ref)->textureObject = obj;   /* the host copy too, as CLR writes it */
    hipError_t e = hipMemcpyToSymbol(ref, &copy, sizeof copy, 0, hipMemcpyHostToDevice);
    return e ? hip_fail(e, api, "cannot write the texture reference's device variable") : hipSuccess;
}

/* Drop ref's binding (if any): its texture object destroyed. */
static void unbind(hip_runtime *rt, const textureReference *ref)
{
    pthread_mutex_lock(&rt->lock);
    texref_binding *b = find_binding(rt, ref, true);
    pthread_mutex_unlock(&rt->lock);
    if (!b) return;
    hipDestroyTextureObject(b->obj);
    free(b);
}

/* Bind resource res to texture reference ref (a registered texture variable). */
static hipError_t bind(const textureReference *ref, const hipResourceDesc *res, size_t offset, const char *api)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!ref) return hip_fail(hipErrorInvalidValue, api, "NULL texture reference");
    uint64_t addr;
    size_t size;
    if (hip_symbol_lookup(rt, ref, &addr, &size, api) || size < sizeof(textureReference))
        return hip_fail(hipErrorInvalidValue, api, "%p is not a texture reference of the program", (const void *)ref);
    hipTextureDesc td;
    memset(&td, 0, sizeof td);
    memcpy(td.addressMode, ref->addressMode, sizeof td.addressMode);
    td.filterMode = ref->filterMode, td.readMode = ref->readMode, td.sRGB = ref->sRGB;
    td.normalizedCoords = ref->normalized;
    hipTextureObject_t obj;
    hipError_t e = hipCreateTextureObject(&obj, res, &td, NULL);
    if (e) return e;
    texref_binding *b = calloc(1, sizeof *b);
    if (!b) {
        hipDestroyTextureObject(obj);
        return hip_ret(hipErrorOutOfMemory);
    }
    unbind(rt, ref);   /* a reference holds one binding: the new one replaces it */
    if ((e = publish(ref, obj, api))) {
        hipDestroyTextureObject(obj);
        free(b);
        return e;
    }
    b->ref = ref, b->obj = obj, b->offset = offset;
    pthread_mutex_lock(&rt->lock);
    b->next = rt->texrefs, rt->texrefs = b;
    pthread_mutex_unlock(&rt->lock);
    return hipSuccess;
}

/* Texture memory starts on hipDeviceProp_t.textureAlignment (256 bytes): an unaligned pointer is
 * bound from the boundary below it, and the bytes between are the offset the caller must add to
 * its fetches (CUDA's rule); without a place for the offset, an unaligned pointer is an error. */
static hipError_t aligned_base(const void *p, size_t *offset, const void **base, size_t *off, const char *api)
{
    *off = (uintptr_t)p % 256;
    *base = (const uint8_t *)p - *off;
    if (*off && !offset) return hip_fail(hipErrorInvalidValue, api, "%p is not 256-byte aligned and offset is NULL", p);
    if (offset) *offset = *off;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipBindTexture(size_t *offset, const textureReference *tex, const void *devPtr,
                                     const hipChannelFormatDesc *desc, size_t size)
{
    static const char api[] = "hipBindTexture";
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!devPtr || !desc) return hip_fail(hipErrorInvalidValue, api, "NULL pointer or channel description");
    if (size == UINT_MAX) {   /* the default: the rest of the allocation */
        uint64_t room = hip_alloc_room(rt, devPtr);
        if (room == UINT64_MAX) return hip_fail(hipErrorInvalidValue, api, "%p is not device memory", devPtr);
        size = (size_t)room;
    }
    const void *base;
    size_t off;
    hipError_t e = aligned_base(devPtr, offset, &base, &off, api);
    if (e) return e;
    hipResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = hipResourceTypeLinear;
    res.res.linear.devPtr = (void *)base, res.res.linear.desc = *desc, res.res.linear.sizeInBytes = size + off;
    return bind(tex, &res, off, api);
}

HIP_EXPORT hipError_t hipBindTexture2D(size_t *offset, const textureReference *tex, const void *devPtr,
                                       const hipChannelFormatDesc *desc, size_t width, size_t height, size_t pitch)
{
    static const char api[] = "hipBindTexture2D";
    if (!devPtr || !desc) return hip_fail(hipErrorInvalidValue, api, "NULL pointer or channel description");
    const void *base;
    size_t off;
    hipError_t e = aligned_base(devPtr, offset, &base, &off, api);
    if (e) return e;
    if (off) return hip_fail(hipErrorInvalidValue, api, "2D texture memory must start on a 256-byte boundary");
    hipResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = hipResourceTypePitch2D;
    res.res.pitch2D.devPtr = (void *)devPtr, res.res.pitch2D.desc = *desc;
    res.res.pitch2D.width = width, res.res.pitch2D.height = height, res.res.pitch2D.pitchInBytes = pitch;
    return bind(tex, &res, 0, api);
}

HIP_EXPORT hipError_t hipBindTextureToArray(const textureReference *tex, hipArray_const_t array,
                                            const hipChannelFormatDesc *desc)
{
    (void)desc;   /* the array's own format is what a texture reads (CLR uses the array's too) */
    if (!array) return hip_fail(hipErrorInvalidValue, "hipBindTextureToArray", "NULL array");
    hipResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = hipResourceTypeArray;
    res.res.array.array = (hipArray *)array;
    return bind(tex, &res, 0, "hipBindTextureToArray");
}

HIP_EXPORT hipError_t hipUnbindTexture(const textureReference *tex)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!tex) return hip_fail(hipErrorInvalidValue, "hipUnbindTexture", "NULL texture reference");
    pthread_mutex_lock(&rt->lock);
    bool bound = find_binding(rt, tex, false) != NULL;
    pthread_mutex_unlock(&rt->lock);
    if (!bound) return hipSuccess;   /* unbinding an unbound reference does nothing (CUDA) */
    unbind(rt, tex);
    return publish(tex, NULL, "hipUnbindTexture");
}

HIP_EXPORT hipError_t hipGetTextureReference(const textureReference **texref, const void *symbol)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!texref || !symbol) return hip_fail(hipErrorInvalidValue, "hipGetTextureReference", "NULL pointer");
    uint64_t addr;
    size_t size;
    if (hip_symbol_lookup(rt, symbol, &addr, &size, "hipGetTextureReference") || size < sizeof(textureReference))
        return hip_fail(hipErrorInvalidValue, "hipGetTextureReference", "%p is not a texture reference", symbol);
    *texref = symbol;   /* the host shadow is the reference */
    return hipSuccess;
}

HIP_EXPORT hipError_t hipGetTextureAlignmentOffset(size_t *offset, const textureReference *texref)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!offset || !texref) return hip_fail(hipErrorInvalidValue, "hipGetTextureAlignmentOffset", "NULL pointer");
    pthread_mutex_lock(&rt->lock);
    texref_binding *b = find_binding(rt, texref, false);
    if (b) *offset = b->offset;
    pthread_mutex_unlock(&rt->lock);
    return b ? hipSuccess : hip_fail(hipErrorInvalidValue, "hipGetTextureAlignmentOffset", "the reference is not bound");
}
