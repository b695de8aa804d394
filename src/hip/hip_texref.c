/* Texture references: `texture<T, dim, readMode>` variables of device code (CUDA's deprecated
 * texture API, which hipified programs still use) and the runtime calls that bind memory to them.
 *
 * A texture reference is a device variable holding a textureReference (registered by
 * __hipRegisterTexture as a variable, hip_module.c); the device headers' tex1Dfetch/tex2D/...
 * on it read its textureObject field, a texture object's descriptor address. Binding makes a
 * texture object of the memory (hipCreateTextureObject, with the reference's own addressing,
 * filter, read mode, normalisation and sRGB fields), stores it in the reference's host copy and
 * copies the reference into the device variable, as CLR does; unbinding destroys the object and
 * clears the field. The driver API's references are module variables (hipModuleGetTexRef): the
 * runtime keeps a host textureReference for each, which hipTexRef* set and bind as above, writing
 * the module's variable. Mipmapped arrays are not supported (hipErrorNotSupported,
 * hip_unsupported.c). */
#include <stdlib.h>
#include <string.h>

#include "hip_internal.h"

typedef struct texref_binding {
    const textureReference *ref;
    hipTextureObject_t obj;
    size_t offset;                /* bytes the fetches must add (hipBindTexture of unaligned memory) */
    struct texref_binding *next;
} texref_binding;

/* A texture reference of a module, handed out by hipModuleGetTexRef (ref first: the same address). */
typedef struct module_texref {
    textureReference ref;
    hipModule_t mod;
    uint64_t addr;                /* the module variable's device address */
    char *name;
    struct module_texref *next;
} module_texref;

static module_texref *find_module_texref(hip_runtime *rt, const textureReference *ref)
{
    pthread_mutex_lock(&rt->lock);
    module_texref *m = rt->module_texrefs;
    while (m && &m->ref != ref) m = m->next;
    pthread_mutex_unlock(&rt->lock);
    return m;
}

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

/* The device copy of reference `ref` gets its host copy (with textureObject set to obj): a
 * registered variable's through its host shadow, a module's at its address. */
static hipError_t publish(const textureReference *ref, hipTextureObject_t obj, const char *api)
{
    textureReference copy = *ref;
    copy.textureObject = obj;
    ((textureReference *)ref)->textureObject = obj;   /* the host copy too, as CLR writes it */
    hip_runtime *rt = hip_rt();
    module_texref *m = rt ? find_module_texref(rt, ref) : NULL;
    if (m && !m->addr) return hipSuccess;   /* its module is gone (hip_texref_forget_module) */
    hipError_t e = m ? hipMemcpyHtoD((hipDeviceptr_t)(uintptr_t)m->addr, &copy, sizeof copy)
                     : hipMemcpyToSymbol(ref, &copy, sizeof copy, 0, hipMemcpyHostToDevice);
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
    module_texref *m = find_module_texref(rt, ref);
    if (m && !m->addr) return hip_fail(hipErrorInvalidHandle, api, "the texture reference's module was unloaded");
    if (!m && (hip_symbol_lookup(rt, ref, &addr, &size, api) || size < sizeof(textureReference)))
        return hip_fail(hipErrorInvalidValue, api, "%p is not a texture reference of the program", (const void *)ref);
    hipTextureDesc td;
    memset(&td, 0, sizeof td);
    memcpy(td.addressMode, ref->addressMode, sizeof td.addressMode);
    td.filterMode = ref->filterMode, td.readMode = ref->readMode, td.sRGB = ref->sRGB;
    td.normalizedCoords = ref->normalized;
    td.maxAnisotropy = ref->maxAnisotropy, td.mipmapFilterMode = ref->mipmapFilterMode;
    td.mipmapLevelBias = ref->mipmapLevelBias;
    td.minMipmapLevelClamp = ref->minMipmapLevelClamp, td.maxMipmapLevelClamp = ref->maxMipmapLevelClamp;
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

/* Bind linear memory from the texture alignment at or below devPtr (*offset: the bytes the fetches
 * must add; see aligned_base). */
static hipError_t bind_linear(const textureReference *tex, const void *devPtr, const hipChannelFormatDesc *desc,
                              size_t size, size_t *offset, const char *api)
{
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

/* Bind pitched memory, which must start on the texture alignment. */
static hipError_t bind_pitch2d(const textureReference *tex, const void *devPtr, const hipChannelFormatDesc *desc,
                               size_t width, size_t height, size_t pitch, const char *api)
{
    if ((uintptr_t)devPtr % 256) return hip_fail(hipErrorInvalidValue, api, "2D texture memory must start on a 256-byte boundary");
    hipResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = hipResourceTypePitch2D;
    res.res.pitch2D.devPtr = (void *)devPtr, res.res.pitch2D.desc = *desc;
    res.res.pitch2D.width = width, res.res.pitch2D.height = height, res.res.pitch2D.pitchInBytes = pitch;
    return bind(tex, &res, 0, api);
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
    return bind_linear(tex, devPtr, desc, size, offset, api);
}

HIP_EXPORT hipError_t hipBindTexture2D(size_t *offset, const textureReference *tex, const void *devPtr,
                                       const hipChannelFormatDesc *desc, size_t width, size_t height, size_t pitch)
{
    static const char api[] = "hipBindTexture2D";
    if (!devPtr || !desc) return hip_fail(hipErrorInvalidValue, api, "NULL pointer or channel description");
    if (offset) *offset = 0;
    return bind_pitch2d(tex, devPtr, desc, width, height, pitch, api);
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

/* ---------------- the driver API: module references and hipTexRef* ---------------- */

HIP_EXPORT hipError_t hipModuleGetTexRef(textureReference **texRef, hipModule_t hmod, const char *name)
{
    static const char api[] = "hipModuleGetTexRef";
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!texRef || !name) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    hipDeviceptr_t dptr;
    size_t bytes;
    hipError_t e = hipModuleGetGlobal(&dptr, &bytes, hmod, name);
    if (e) return e;
    if (bytes < sizeof(textureReference))
        return hip_fail(hipErrorInvalidValue, api, "%s is %zu bytes, not a texture reference", name, bytes);
    pthread_mutex_lock(&rt->lock);
    module_texref *m = rt->module_texrefs;
    while (m && !(m->mod == hmod && !strcmp(m->name, name))) m = m->next;
    if (!m && (m = calloc(1, sizeof *m)) && (m->name = strdup(name))) {
        m->mod = hmod, m->addr = (uint64_t)(uintptr_t)dptr;
        m->ref.readMode = hipReadModeNormalizedFloat;   /* the driver API's default (as CLR sets it) */
        m->next = rt->module_texrefs, rt->module_texrefs = m;
    } else if (m && !m->name) {
        free(m), m = NULL;
    }
    pthread_mutex_unlock(&rt->lock);
    if (!m) return hip_ret(hipErrorOutOfMemory);
    *texRef = &m->ref;
    return hipSuccess;
}

void hip_texref_forget_module(hip_runtime *rt, hipModule_t mod)
{
    pthread_mutex_lock(&rt->lock);
    module_texref *m = rt->module_texrefs;
    pthread_mutex_unlock(&rt->lock);
    for (; m; m = m->next) {   /* (entries are never removed: the walk needs no lock) */
        if (m->mod != mod || !m->addr) continue;
        unbind(rt, &m->ref);
        m->ref.textureObject = NULL;
        m->addr = 0, m->mod = NULL;
    }
}

/* hipTexRefSetArray's flags must be HIP_TRSA_OVERRIDE_FORMAT (CUDA's CU_TRSA_OVERRIDE_FORMAT): the
 * reference's format applies. umbra reads the array in its own format, so a reference whose format
 * is set and differs from the array's is refused. */
HIP_EXPORT hipError_t hipTexRefSetArray(textureReference *tex, hipArray_const_t array, unsigned int flags)
{
    static const char api[] = "hipTexRefSetArray";
    if (!tex || !array) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    if (flags != HIP_TRSA_OVERRIDE_FORMAT) return hip_fail(hipErrorInvalidValue, api, "flags %#x: HIP_TRSA_OVERRIDE_FORMAT is the only value", flags);
    if (tex->numChannels && (tex->format != array->Format || (unsigned)tex->numChannels != array->NumChannels))
        return hip_fail(hipErrorNotSupported, api, "the reference's format (%#x x %d) differs from the array's (%#x x %u): "
                        "reading an array through another format is not supported",
                        (unsigned)tex->format, tex->numChannels, (unsigned)array->Format, array->NumChannels);
    hipResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = hipResourceTypeArray;
    res.res.array.array = (hipArray *)array;
    return bind(tex, &res, 0, api);
}

/* Linear memory in the reference's format (hipTexRefSetFormat), from the 256-byte boundary at or
 * below dptr: *ByteOffset the bytes the fetches must add, as hipBindTexture. */
HIP_EXPORT hipError_t hipTexRefSetAddress(size_t *ByteOffset, textureReference *tex, hipDeviceptr_t dptr, size_t bytes)
{
    static const char api[] = "hipTexRefSetAddress";
    if (!tex || !dptr) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    hipChannelFormatDesc cd;
    if (!hip_driver_channel_desc(tex->format, (unsigned)tex->numChannels, &cd))
        return hip_fail(hipErrorInvalidValue, api, "the reference has no format (hipTexRefSetFormat: 1, 2 or 4 channels)");
    return bind_linear(tex, dptr, &cd, bytes, ByteOffset, api);
}

HIP_EXPORT hipError_t hipTexRefSetAddress2D(textureReference *tex, const HIP_ARRAY_DESCRIPTOR *desc, hipDeviceptr_t dptr,
                                            size_t pitch)
{
    static const char api[] = "hipTexRefSetAddress2D";
    if (!tex || !desc || !dptr) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    hipChannelFormatDesc cd;
    if (!hip_driver_channel_desc(desc->Format, desc->NumChannels, &cd))
        return hip_fail(hipErrorInvalidValue, api, "format %#x with %u channels", (unsigned)desc->Format, desc->NumChannels);
    return bind_pitch2d(tex, dptr, &cd, desc->Width, desc->Height, pitch, api);
}

/* The memory a reference reads: linear or pitched memory's address (an array: hipErrorInvalidValue). */
HIP_EXPORT hipError_t hipTexRefGetAddress(hipDeviceptr_t *dptr, const textureReference *tex)
{
    if (!dptr || !tex) return hip_ret(hipErrorInvalidValue);
    hipResourceDesc res;
    if (!tex->textureObject || hipGetTextureObjectResourceDesc(&res, tex->textureObject))
        return hip_fail(hipErrorInvalidValue, "hipTexRefGetAddress", "the reference is not bound");
    if (res.resType == hipResourceTypeLinear) *dptr = res.res.linear.devPtr;
    else if (res.resType == hipResourceTypePitch2D) *dptr = res.res.pitch2D.devPtr;
    else return hip_fail(hipErrorInvalidValue, "hipTexRefGetAddress", "the reference is bound to an array");
    return hipSuccess;
}

/* The setters change the host reference; the next bind (hipTexRefSetArray / SetAddress /
 * SetAddress2D) applies them, as in CUDA and CLR. */
HIP_EXPORT hipError_t hipTexRefSetAddressMode(textureReference *tex, int dim, enum hipTextureAddressMode am)
{
    if (!tex || dim < 0 || dim > 2) return hip_ret(hipErrorInvalidValue);
    tex->addressMode[dim] = am;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipTexRefSetFilterMode(textureReference *tex, enum hipTextureFilterMode fm)
{
    if (!tex) return hip_ret(hipErrorInvalidValue);
    tex->filterMode = fm;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipTexRefSetFlags(textureReference *tex, unsigned int flags)
{
    if (!tex) return hip_ret(hipErrorInvalidValue);
    tex->readMode = flags & HIP_TRSF_READ_AS_INTEGER ? hipReadModeElementType : hipReadModeNormalizedFloat;
    tex->normalized = (flags & HIP_TRSF_NORMALIZED_COORDINATES) != 0;
    tex->sRGB = (flags & HIP_TRSF_SRGB) != 0;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipTexRefSetFormat(textureReference *tex, hipArray_Format fmt, int channels)
{
    if (!tex) return hip_ret(hipErrorInvalidValue);
    tex->format = fmt, tex->numChannels = channels;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipTexRefSetMaxAnisotropy(textureReference *tex, unsigned int maxAniso)
{
    if (!tex) return hip_ret(hipErrorInvalidValue);
    tex->maxAnisotropy = maxAniso;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipTexRefSetMipmapFilterMode(textureReference *tex, enum hipTextureFilterMode fm)
{
    if (!tex) return hip_ret(hipErrorInvalidValue);
    tex->mipmapFilterMode = fm;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipTexRefSetMipmapLevelBias(textureReference *tex, float bias)
{
    if (!tex) return hip_ret(hipErrorInvalidValue);
    tex->mipmapLevelBias = bias;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipTexRefSetMipmapLevelClamp(textureReference *tex, float lo, float hi)
{
    if (!tex) return hip_ret(hipErrorInvalidValue);
    tex->minMipmapLevelClamp = lo, tex->maxMipmapLevelClamp = hi;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipTexRefGetAddressMode(enum hipTextureAddressMode *pam, const textureReference *tex, int dim)
{
    if (!pam || !tex || dim < 0 || dim > 2) return hip_ret(hipErrorInvalidValue);
    *pam = tex->addressMode[dim];
    return hipSuccess;
}

HIP_EXPORT hipError_t hipTexRefGetFilterMode(enum hipTextureFilterMode *pfm, const textureReference *tex)
{
    if (!pfm || !tex) return hip_ret(hipErrorInvalidValue);
    *pfm = tex->filterMode;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipTexRefGetFlags(unsigned int *flags, const textureReference *tex)
{
    if (!flags || !tex) return hip_ret(hipErrorInvalidValue);
    *flags = (tex->readMode == hipReadModeElementType ? HIP_TRSF_READ_AS_INTEGER : 0u) |
             (tex->normalized == 1 ? HIP_TRSF_NORMALIZED_COORDINATES : 0u) | (tex->sRGB == 1 ? HIP_TRSF_SRGB : 0u);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipTexRefGetFormat(hipArray_Format *fmt, int *channels, const textureReference *tex)
{
    if (!fmt || !channels || !tex) return hip_ret(hipErrorInvalidValue);
    *fmt = tex->format, *channels = tex->numChannels;
    return hipSuccess;
}

/* (CLR 5.2 returns hipErrorInvalidValue after storing the value, a slip; CUDA's is success.) */
HIP_EXPORT hipError_t hipTexRefGetMaxAnisotropy(int *maxAniso, const textureReference *tex)
{
    if (!maxAniso || !tex) return hip_ret(hipErrorInvalidValue);
    *maxAniso = (int)tex->maxAnisotropy;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipTexRefGetMipmapFilterMode(enum hipTextureFilterMode *pfm, const textureReference *tex)
{
    if (!pfm || !tex) return hip_ret(hipErrorInvalidValue);
    *pfm = tex->mipmapFilterMode;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipTexRefGetMipmapLevelBias(float *bias, const textureReference *tex)
{
    if (!bias || !tex) return hip_ret(hipErrorInvalidValue);
    *bias = tex->mipmapLevelBias;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipTexRefGetMipmapLevelClamp(float *lo, float *hi, const textureReference *tex)
{
    if (!lo || !hi || !tex) return hip_ret(hipErrorInvalidValue);
    *lo = tex->minMipmapLevelClamp, *hi = tex->maxMipmapLevelClamp;
    return hipSuccess;
}
