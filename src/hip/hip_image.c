/* Arrays, texture objects and surface objects on the platform layer's images (plat_image.c), the
 * machinery the OpenCL platform's images use.
 *
 * A hipArray is host memory (as in ROCm): its `data` is the device address of the pixels, stored
 * in umbra's linear image layout (rows padded to 256 bytes), so copies to and from arrays are the
 * runtime's 2D copies (hip_copy2d: stream order, async forms). A texture object is the device
 * address of 20 dwords, what HIP's device headers read (texture_indirect_functions.h): the image
 * descriptor (T# or, for linear memory, V#, then the HSA channel type, order and width), then the
 * S# in dwords 12-15. A surface object is the address of an image descriptor alone. */
#include <stdlib.h>
#include <string.h>

#include "hip_internal.h"
#include "platform/plat_image.h"

typedef enum { OBJ_ARRAY, OBJ_TEXTURE, OBJ_SURFACE } obj_kind;

typedef struct hip_image_obj {
    struct hip_image_obj *next;
    obj_kind kind;
    hipArray array;               /* OBJ_ARRAY: what hipArray_t points to */
    plat_image pi;
    uint64_t desc_addr;           /* textures and surfaces: their descriptor */
    hipResourceDesc res;
    hipTextureDesc tex;
    struct hipResourceViewDesc view;
} hip_image_obj;

#define TEXTURE_DWORDS (HIP_IMAGE_OBJECT_SIZE_DWORD + HIP_SAMPLER_OBJECT_SIZE_DWORD)

/* ---------------- the registry (rt->lock) ---------------- */

static void add_obj(hip_runtime *rt, hip_image_obj *o)
{
    pthread_mutex_lock(&rt->lock);
    o->next = rt->images, rt->images = o;
    pthread_mutex_unlock(&rt->lock);
}

/* The object of a handle: the array struct's address, or a descriptor's device address. */
static hip_image_obj *find_obj(hip_runtime *rt, obj_kind kind, const void *handle, bool take)
{
    pthread_mutex_lock(&rt->lock);
    hip_image_obj *found = NULL;
    for (hip_image_obj **p = &rt->images; *p; p = &(*p)->next) {
        hip_image_obj *o = *p;
        const void *h = kind == OBJ_ARRAY ? (const void *)&o->array : (const void *)(uintptr_t)o->desc_addr;
        if (o->kind == kind && h == handle) {
            found = o;
            if (take) *p = o->next;
            break;
        }
    }
    pthread_mutex_unlock(&rt->lock);
    return found;
}

/* ---------------- formats ---------------- */

static bool channel_format(const hipChannelFormatDesc *d, plat_image_format *f, unsigned *channels)
{
    int bits = d->x;
    unsigned n = (d->x > 0) + (d->y > 0) + (d->z > 0) + (d->w > 0);
    if ((d->y && d->y != bits) || (d->z && d->z != bits) || (d->w && d->w != bits)) return false;
    static const uint32_t orders[5] = { 0, PLAT_ORDER_R, PLAT_ORDER_RG, 0, PLAT_ORDER_RGBA };
    if (n == 0 || n == 3 || n > 4) return false;
    f->order = orders[n];
    switch (d->f) {
    case hipChannelFormatKindSigned:
        f->type = bits == 8 ? PLAT_TYPE_SIGNED_INT8 : bits == 16 ? PLAT_TYPE_SIGNED_INT16
                : bits == 32 ? PLAT_TYPE_SIGNED_INT32 : PLAT_TYPE_COUNT;
        break;
    case hipChannelFormatKindUnsigned:
        f->type = bits == 8 ? PLAT_TYPE_UNSIGNED_INT8 : bits == 16 ? PLAT_TYPE_UNSIGNED_INT16
                : bits == 32 ? PLAT_TYPE_UNSIGNED_INT32 : PLAT_TYPE_COUNT;
        break;
    case hipChannelFormatKindFloat:
        f->type = bits == 16 ? PLAT_TYPE_HALF_FLOAT : bits == 32 ? PLAT_TYPE_FLOAT : PLAT_TYPE_COUNT;
        break;
    default: return false;
    }
    if (channels) *channels = n;
    return f->type != PLAT_TYPE_COUNT;
}

static hipArray_Format array_format(uint32_t type)
{
    switch (type) {
    case PLAT_TYPE_UNSIGNED_INT8: return HIP_AD_FORMAT_UNSIGNED_INT8;
    case PLAT_TYPE_UNSIGNED_INT16: return HIP_AD_FORMAT_UNSIGNED_INT16;
    case PLAT_TYPE_UNSIGNED_INT32: return HIP_AD_FORMAT_UNSIGNED_INT32;
    case PLAT_TYPE_SIGNED_INT8: return HIP_AD_FORMAT_SIGNED_INT8;
    case PLAT_TYPE_SIGNED_INT16: return HIP_AD_FORMAT_SIGNED_INT16;
    case PLAT_TYPE_SIGNED_INT32: return HIP_AD_FORMAT_SIGNED_INT32;
    case PLAT_TYPE_HALF_FLOAT: return HIP_AD_FORMAT_HALF;
    default: return HIP_AD_FORMAT_FLOAT;
    }
}

/* hipReadModeNormalizedFloat: 8- and 16-bit integer texels read as [0, 1] / [-1, 1] floats. */
static void normalized_view(plat_image_format *f)
{
    switch (f->type) {
    case PLAT_TYPE_UNSIGNED_INT8: f->type = PLAT_TYPE_UNORM_INT8; break;
    case PLAT_TYPE_UNSIGNED_INT16: f->type = PLAT_TYPE_UNORM_INT16; break;
    case PLAT_TYPE_SIGNED_INT8: f->type = PLAT_TYPE_SNORM_INT8; break;
    case PLAT_TYPE_SIGNED_INT16: f->type = PLAT_TYPE_SNORM_INT16; break;
    default: break;
    }
}

/* ---------------- arrays ---------------- */

static hipError_t new_array(hip_runtime *rt, hipArray **out, plat_image_format f, unsigned channels, plat_image_dim dim,
                            size_t w, size_t h, size_t d, size_t layers, unsigned flags, const char *api)
{
    hip_image_obj *o = calloc(1, sizeof *o);
    if (!o) return hip_ret(hipErrorOutOfMemory);
    plat_image *pi = &o->pi;
    pi->dim = dim, pi->format = f, pi->width = w, pi->height = h, pi->depth = d, pi->array_size = layers;
    plat_image_layout(pi);
    if (plat_alloc(&rt->plat, pi->size, &pi->addr)) {
        unsigned long long bytes = pi->size;
        free(o);
        return hip_fail(hipErrorOutOfMemory, api, "%llu bytes", bytes);
    }
    o->kind = OBJ_ARRAY;
    hipArray *a = &o->array;
    a->data = (void *)(uintptr_t)pi->addr;
    int bits = (int)(pi->elem_size / channels * 8);
    a->desc = (hipChannelFormatDesc){ bits, channels > 1 ? bits : 0, channels > 2 ? bits : 0, channels > 3 ? bits : 0,
                                      f.type == PLAT_TYPE_HALF_FLOAT || f.type == PLAT_TYPE_FLOAT ? hipChannelFormatKindFloat
                                      : plat_image_format_is_signed_integer(f) ? hipChannelFormatKindSigned
                                                                                : hipChannelFormatKindUnsigned };
    a->type = flags;
    a->width = (unsigned)w, a->height = (unsigned)h, a->depth = (unsigned)(dim == PLAT_IMAGE_3D ? d : layers);
    a->Format = array_format(f.type);
    a->NumChannels = channels;
    a->textureType = dim == PLAT_IMAGE_1D ? hipTextureType1D : dim == PLAT_IMAGE_2D ? hipTextureType2D
                   : dim == PLAT_IMAGE_3D ? hipTextureType3D : dim == PLAT_IMAGE_1D_ARRAY ? hipTextureType1DLayered
                                                                                          : hipTextureType2DLayered;
    add_obj(rt, o);
    *out = a;
    return hipSuccess;
}

/* Sizes of an array of this type within the device's image limits. */
static bool sizes_ok(plat_image_dim dim, size_t w, size_t h, size_t d, size_t layers)
{
    switch (dim) {
    case PLAT_IMAGE_1D: return w >= 1 && w <= PLAT_IMAGE1D_MAX_WIDTH;
    case PLAT_IMAGE_1D_ARRAY: return w >= 1 && w <= PLAT_IMAGE1D_MAX_WIDTH && layers >= 1 && layers <= PLAT_IMAGE_MAX_ARRAY_SIZE;
    case PLAT_IMAGE_2D: return w >= 1 && w <= PLAT_IMAGE2D_MAX_WIDTH && h >= 1 && h <= PLAT_IMAGE2D_MAX_HEIGHT;
    case PLAT_IMAGE_2D_ARRAY:
        return w >= 1 && w <= PLAT_IMAGE2D_MAX_WIDTH && h >= 1 && h <= PLAT_IMAGE2D_MAX_HEIGHT && layers >= 1 &&
               layers <= PLAT_IMAGE_MAX_ARRAY_SIZE;
    default:
        return w >= 1 && w <= PLAT_IMAGE3D_MAX_WIDTH && h >= 1 && h <= PLAT_IMAGE3D_MAX_HEIGHT && d >= 1 &&
               d <= PLAT_IMAGE3D_MAX_DEPTH;
    }
}

HIP_EXPORT hipError_t hipMallocArray(hipArray **array, const hipChannelFormatDesc *desc, size_t width, size_t height,
                                     unsigned int flags)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    plat_image_format f;
    unsigned n;
    if (!array || !desc || !channel_format(desc, &f, &n)) return hip_ret(hipErrorInvalidValue);
    if (flags & ~(unsigned)(hipArraySurfaceLoadStore | hipArrayTextureGather)) return hip_ret(hipErrorInvalidValue);
    plat_image_dim dim = height ? PLAT_IMAGE_2D : PLAT_IMAGE_1D;
    if (!sizes_ok(dim, width, height, 0, 0)) return hip_ret(hipErrorInvalidValue);
    return new_array(rt, array, f, n, dim, width, height, 0, 0, flags, "hipMallocArray");
}

HIP_EXPORT hipError_t hipMalloc3DArray(hipArray **array, const struct hipChannelFormatDesc *desc, struct hipExtent e,
                                       unsigned int flags)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    plat_image_format f;
    unsigned n;
    if (!array || !desc || !channel_format(desc, &f, &n)) return hip_ret(hipErrorInvalidValue);
    if (flags & hipArrayCubemap)   /* a valid flag: cube images are what umbra does not sample */
        return hip_fail(hipErrorNotSupported, "hipMalloc3DArray",
                        "cubemap arrays (hipArrayCubemap) are not supported: umbra's MIMG executor does not sample cube images");
    if (flags & ~(unsigned)(hipArrayLayered | hipArraySurfaceLoadStore | hipArrayTextureGather))
        return hip_ret(hipErrorInvalidValue);
    bool layered = flags & hipArrayLayered;
    plat_image_dim dim = layered ? (e.height ? PLAT_IMAGE_2D_ARRAY : PLAT_IMAGE_1D_ARRAY)
                       : e.depth ? PLAT_IMAGE_3D : e.height ? PLAT_IMAGE_2D : PLAT_IMAGE_1D;
    size_t layers = layered ? e.depth : 0, depth = layered ? 0 : e.depth;
    if (!sizes_ok(dim, e.width, e.height, depth, layers)) return hip_ret(hipErrorInvalidValue);
    return new_array(rt, array, f, n, dim, e.width, e.height, depth, layers, flags, "hipMalloc3DArray");
}

bool hip_driver_channel_desc(hipArray_Format format, unsigned channels, hipChannelFormatDesc *cd)
{
    hipChannelFormatKind kind;
    int bits;
    switch (format) {
    case HIP_AD_FORMAT_UNSIGNED_INT8: kind = hipChannelFormatKindUnsigned, bits = 8; break;
    case HIP_AD_FORMAT_UNSIGNED_INT16: kind = hipChannelFormatKindUnsigned, bits = 16; break;
    case HIP_AD_FORMAT_UNSIGNED_INT32: kind = hipChannelFormatKindUnsigned, bits = 32; break;
    case HIP_AD_FORMAT_SIGNED_INT8: kind = hipChannelFormatKindSigned, bits = 8; break;
    case HIP_AD_FORMAT_SIGNED_INT16: kind = hipChannelFormatKindSigned, bits = 16; break;
    case HIP_AD_FORMAT_SIGNED_INT32: kind = hipChannelFormatKindSigned, bits = 32; break;
    case HIP_AD_FORMAT_HALF: kind = hipChannelFormatKindFloat, bits = 16; break;
    case HIP_AD_FORMAT_FLOAT: kind = hipChannelFormatKindFloat, bits = 32; break;
    default: return false;
    }
    if (channels != 1 && channels != 2 && channels != 4) return false;
    *cd = (hipChannelFormatDesc){ bits, channels > 1 ? bits : 0, channels > 2 ? bits : 0, channels > 3 ? bits : 0, kind };
    return true;
}

/* The driver API's (format, channels) of a channel format descriptor (the inverse of the above):
 * the array format of its platform format. */
static void driver_format(const hipChannelFormatDesc *cd, hipArray_Format *format, unsigned *channels)
{
    plat_image_format f = { 0 };
    if (!channel_format(cd, &f, channels)) *channels = 0;   /* (a stored descriptor was valid) */
    *format = array_format(f.type);
}

HIP_EXPORT hipError_t hipArrayCreate(hipArray **array, const HIP_ARRAY_DESCRIPTOR *d)
{
    hipChannelFormatDesc cd;
    if (!array || !d || !hip_driver_channel_desc(d->Format, d->NumChannels, &cd)) return hip_ret(hipErrorInvalidValue);
    hipError_t e = hipMallocArray(array, &cd, d->Width, d->Height, 0);
    if (!e) (*array)->isDrv = true;
    return e;
}

/* As ROCm 5.2's runtime: a depth of 0 makes a 2D array (1D with a height of 0), hipArrayLayered
 * makes Depth the number of layers; the surface, cubemap and gather flags are not supported by
 * its driver-API path (hipMalloc3DArray takes the first and the last). */
HIP_EXPORT hipError_t hipArray3DCreate(hipArray **array, const HIP_ARRAY3D_DESCRIPTOR *d)
{
    hipChannelFormatDesc cd;
    if (!array || !d || !hip_driver_channel_desc(d->Format, d->NumChannels, &cd)) return hip_ret(hipErrorInvalidValue);
    if (d->Flags & (hipArraySurfaceLoadStore | hipArrayCubemap | hipArrayTextureGather))
        return hip_fail(hipErrorNotSupported, "hipArray3DCreate",
                        "flags 0x%x: surface, cubemap and gather arrays are not created through the driver API "
                        "(as in ROCm 5.2; hipMalloc3DArray takes hipArraySurfaceLoadStore and hipArrayTextureGather)",
                        d->Flags);
    hipError_t e = hipMalloc3DArray(array, &cd, make_hipExtent(d->Width, d->Height, d->Depth), d->Flags);
    if (!e) (*array)->isDrv = true;
    return e;
}

HIP_EXPORT hipError_t hipFreeArray(hipArray *array)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!array) return hip_ret(hipErrorInvalidValue);
    hip_sync_all(rt);   /* as hipFree: the device may be using it */
    hip_image_obj *o = find_obj(rt, OBJ_ARRAY, array, true);
    if (!o) return hip_fail(hipErrorInvalidValue, "hipFreeArray", "%p is not an array", (void *)array);
    plat_free(&rt->plat, o->pi.addr);
    free(o);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipArrayDestroy(hipArray *array) { return hipFreeArray(array); }

HIP_EXPORT hipError_t hipGetChannelDesc(hipChannelFormatDesc *desc, hipArray_const_t array)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!desc || !array || !find_obj(rt, OBJ_ARRAY, array, false)) return hip_ret(hipErrorInvalidValue);
    *desc = array->desc;
    return hipSuccess;
}

/* ---------------- copies to and from arrays ----------------
 * Offsets and widths are in bytes (wOffset, width) and rows (hOffset, height) of the array's
 * first layer, as in HIP; the array's rows are row_pitch bytes apart in device memory. */

hipError_t hip_array_region(hip_runtime *rt, const hipArray *a, const size_t off[3], const size_t ext[3], uint8_t **at,
                            size_t *pitch, size_t *slice, size_t *elem, const char *api)
{
    hip_image_obj *o = a ? find_obj(rt, OBJ_ARRAY, a, false) : NULL;
    if (!o) return hip_fail(hipErrorInvalidValue, api, "%p is not an array", (const void *)a);
    const plat_image *pi = &o->pi;
    const uint64_t size[3] = { pi->width * pi->elem_size, pi->rows, pi->slices };
    for (int i = 0; i < 3; i++)
        if (off[i] > size[i] || ext[i] > size[i] - off[i])
            return hip_fail(hipErrorInvalidValue, api, "the region (%zu + %zu bytes, %zu + %zu rows, %zu + %zu slices) is "
                            "outside the array (%llu bytes, %llu rows, %llu slices)", off[0], ext[0], off[1], ext[1],
                            off[2], ext[2], (unsigned long long)size[0], (unsigned long long)size[1],
                            (unsigned long long)size[2]);
    *at = (uint8_t *)(uintptr_t)pi->addr + off[2] * pi->slice_pitch + off[1] * pi->row_pitch + off[0];
    if (pitch) *pitch = pi->row_pitch;
    if (slice) *slice = pi->slice_pitch;
    if (elem) *elem = pi->elem_size;
    return hipSuccess;
}

static hipError_t array_box(hip_runtime *rt, const hipArray *a, size_t woff, size_t hoff, size_t width, size_t height,
                            uint8_t **at, size_t *pitch, const char *api)
{
    return hip_array_region(rt, a, (size_t[3]){ woff, hoff, 0 }, (size_t[3]){ width, height, 1 }, at, pitch, NULL, NULL,
                            api);
}

static hipError_t to_array(hipArray *dst, size_t woff, size_t hoff, const void *src, size_t spitch, size_t width,
                           size_t height, hipMemcpyKind kind, hipStream_t s, bool async, const char *api)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    uint8_t *at;
    size_t pitch;
    hipError_t e = array_box(rt, dst, woff, hoff, width, height, &at, &pitch, api);
    if (e) return e;
    return hip_copy2d(at, pitch, src, spitch, width, height, kind, s, async, api);
}

static hipError_t from_array(void *dst, size_t dpitch, const hipArray *src, size_t woff, size_t hoff, size_t width,
                             size_t height, hipMemcpyKind kind, hipStream_t s, bool async, const char *api)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    uint8_t *at;
    size_t pitch;
    hipError_t e = array_box(rt, src, woff, hoff, width, height, &at, &pitch, api);
    if (e) return e;
    return hip_copy2d(dst, dpitch, at, pitch, width, height, kind, s, async, api);
}

HIP_EXPORT hipError_t hipMemcpy2DToArray(hipArray *dst, size_t woff, size_t hoff, const void *src, size_t spitch,
                                         size_t width, size_t height, hipMemcpyKind kind)
{
    return to_array(dst, woff, hoff, src, spitch, width, height, kind, NULL, false, "hipMemcpy2DToArray");
}

HIP_EXPORT hipError_t hipMemcpy2DToArrayAsync(hipArray *dst, size_t woff, size_t hoff, const void *src, size_t spitch,
                                              size_t width, size_t height, hipMemcpyKind kind, hipStream_t s)
{
    return to_array(dst, woff, hoff, src, spitch, width, height, kind, s, true, "hipMemcpy2DToArrayAsync");
}

HIP_EXPORT hipError_t hipMemcpy2DFromArray(void *dst, size_t dpitch, hipArray_const_t src, size_t woff, size_t hoff,
                                           size_t width, size_t height, hipMemcpyKind kind)
{
    return from_array(dst, dpitch, src, woff, hoff, width, height, kind, NULL, false, "hipMemcpy2DFromArray");
}

HIP_EXPORT hipError_t hipMemcpy2DFromArrayAsync(void *dst, size_t dpitch, hipArray_const_t src, size_t woff,
                                                size_t hoff, size_t width, size_t height, hipMemcpyKind kind,
                                                hipStream_t s)
{
    return from_array(dst, dpitch, src, woff, hoff, width, height, kind, s, true, "hipMemcpy2DFromArrayAsync");
}

/* hipMemcpyToArray / FromArray: `count` bytes from (wOffset, hOffset) on, filling the rest of a
 * row and then whole rows, as the array's rows follow each other in the linear view. */
static hipError_t linear_array_copy(hipArray *arr, size_t woff, size_t hoff, void *mem, size_t count,
                                    hipMemcpyKind kind, bool to, const char *api)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    hip_image_obj *o = arr ? find_obj(rt, OBJ_ARRAY, arr, false) : NULL;
    if (!o) return hip_fail(hipErrorInvalidValue, api, "%p is not an array", (void *)arr);
    size_t row = o->pi.width * o->pi.elem_size;
    uint8_t *m = mem;
    while (count) {
        size_t n = row - woff < count ? row - woff : count;
        if (woff == 0 && count >= row) n = count / row * row;   /* whole rows in one 2D copy */
        size_t rows = woff == 0 && n >= row ? n / row : 1, width = rows > 1 ? row : n;
        hipError_t e = to ? to_array(arr, woff, hoff, m, width, width, rows, kind, NULL, false, api)
                          : from_array(m, width, arr, woff, hoff, width, rows, kind, NULL, false, api);
        if (e) return e;
        m += n, count -= n, hoff += rows, woff = 0;
    }
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemcpyToArray(hipArray *dst, size_t woff, size_t hoff, const void *src, size_t count,
                                       hipMemcpyKind kind)
{
    return linear_array_copy(dst, woff, hoff, (void *)src, count, kind, true, "hipMemcpyToArray");
}

HIP_EXPORT hipError_t hipMemcpyFromArray(void *dst, hipArray_const_t src, size_t woff, size_t hoff, size_t count,
                                         hipMemcpyKind kind)
{
    return linear_array_copy((hipArray *)src, woff, hoff, dst, count, kind, false, "hipMemcpyFromArray");
}

/* hipMemcpyAtoH / HtoA: `count` bytes from byte `offset` of the array on, its rows laid end to
 * end (the driver API's cuMemcpyAtoH/HtoA, which take a byte offset into any array). */
static hipError_t offset_array_copy(hipArray *arr, size_t offset, void *host, size_t count, bool to, const char *api)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    hip_image_obj *o = arr ? find_obj(rt, OBJ_ARRAY, arr, false) : NULL;
    if (!o) return hip_fail(hipErrorInvalidValue, api, "%p is not an array", (void *)arr);
    if (!host) return hip_fail(hipErrorInvalidValue, api, "the host pointer is NULL");
    if (!count) return hipSuccess;
    if (o->pi.slices > 1)
        return hip_fail(hipErrorNotSupported, api, "byte offsets into 3D or layered arrays are not supported (use "
                        "hipMemcpy3D)");
    size_t row = o->pi.width * o->pi.elem_size, rows = o->pi.rows ? o->pi.rows : 1;
    if (offset > row * rows || count > row * rows - offset)
        return hip_fail(hipErrorInvalidValue, api, "%zu bytes from byte %zu run past the array's %zu bytes", count,
                        offset, row * rows);
    return linear_array_copy(arr, offset % row, offset / row, host, count,
                             to ? hipMemcpyHostToDevice : hipMemcpyDeviceToHost, to, api);
}

HIP_EXPORT hipError_t hipMemcpyAtoH(void *dst, hipArray *srcArray, size_t srcOffset, size_t count)
{
    return offset_array_copy(srcArray, srcOffset, dst, count, false, "hipMemcpyAtoH");
}

HIP_EXPORT hipError_t hipMemcpyHtoA(hipArray *dstArray, size_t dstOffset, const void *srcHost, size_t count)
{
    return offset_array_copy(dstArray, dstOffset, (void *)srcHost, count, true, "hipMemcpyHtoA");
}

/* ---------------- texture and surface objects ---------------- */

/* The image a resource describes (arrays: the array's own; linear and pitched memory: a view). */
static hipError_t resource_image(hip_runtime *rt, const hipResourceDesc *r, plat_image *pi, const char *api)
{
    memset(pi, 0, sizeof *pi);
    switch (r->resType) {
    case hipResourceTypeArray: {
        hip_image_obj *o = r->res.array.array ? find_obj(rt, OBJ_ARRAY, r->res.array.array, false) : NULL;
        if (!o) return hip_fail(hipErrorInvalidValue, api, "the resource's array is not an array");
        *pi = o->pi;
        return hipSuccess;
    }
    case hipResourceTypeLinear:
        if (!r->res.linear.devPtr || !channel_format(&r->res.linear.desc, &pi->format, NULL))
            return hip_ret(hipErrorInvalidValue);
        /* as CLR checks it: the memory starts on hipDeviceProp_t.textureAlignment (256 bytes) */
        if ((uintptr_t)r->res.linear.devPtr % 256)
            return hip_fail(hipErrorInvalidValue, api, "linear memory must start on a 256-byte boundary "
                            "(textureAlignment)");
        pi->dim = PLAT_IMAGE_1D_BUFFER, pi->width = 1;
        plat_image_layout(pi);
        pi->width = r->res.linear.sizeInBytes / pi->elem_size;
        if (pi->width == 0 || pi->width > PLAT_IMAGE_MAX_BUFFER_SIZE) return hip_ret(hipErrorInvalidValue);
        plat_image_layout(pi);
        pi->addr = (uint64_t)(uintptr_t)r->res.linear.devPtr;
        return hipSuccess;
    case hipResourceTypePitch2D:
        if (!r->res.pitch2D.devPtr || !channel_format(&r->res.pitch2D.desc, &pi->format, NULL))
            return hip_ret(hipErrorInvalidValue);
        pi->dim = PLAT_IMAGE_2D, pi->width = r->res.pitch2D.width, pi->height = r->res.pitch2D.height;
        if (!sizes_ok(PLAT_IMAGE_2D, pi->width, pi->height, 0, 0)) return hip_ret(hipErrorInvalidValue);
        plat_image_layout(pi);
        /* the memory's own pitch: whole pixels, 256-byte rows (hipDeviceProp_t.texturePitchAlignment) */
        if (r->res.pitch2D.pitchInBytes < pi->width * pi->elem_size || r->res.pitch2D.pitchInBytes % 256 ||
            (uintptr_t)r->res.pitch2D.devPtr % 256)
            return hip_fail(hipErrorInvalidValue, api, "pitched memory must start and have rows on 256-byte boundaries");
        pi->row_pitch = r->res.pitch2D.pitchInBytes;
        pi->slice_pitch = pi->size = pi->row_pitch * pi->height;
        pi->addr = (uint64_t)(uintptr_t)r->res.pitch2D.devPtr;
        return hipSuccess;
    default:
        return hip_fail(hipErrorNotSupported, api, "mipmapped arrays are not supported");
    }
}

static plat_address_mode address_mode(enum hipTextureAddressMode m)
{
    switch (m) {
    case hipAddressModeWrap: return PLAT_ADDRESS_REPEAT;
    case hipAddressModeMirror: return PLAT_ADDRESS_MIRRORED_REPEAT;
    case hipAddressModeBorder: return PLAT_ADDRESS_CLAMP;
    default: return PLAT_ADDRESS_CLAMP_TO_EDGE;
    }
}

static hipError_t upload(hip_runtime *rt, const uint32_t *words, size_t n, uint64_t *addr, const char *api)
{
    if (plat_alloc(&rt->plat, n * 4, addr)) return hip_fail(hipErrorOutOfMemory, api, "descriptor");
    if (plat_to_device(&rt->plat, *addr, words, n * 4)) {
        plat_free(&rt->plat, *addr);
        return hip_fail(hipErrorOutOfMemory, api, "descriptor");
    }
    return hipSuccess;
}

/* A resource view's format (hipResViewFormat*: 1, 2 or 4 channels of 8/16/32-bit integers, 16/32-bit
 * floats) as a channel format descriptor; false for the block-compressed ones. */
static bool view_channel_desc(enum hipResourceViewFormat v, hipChannelFormatDesc *cd)
{
    if (v < hipResViewFormatUnsignedChar1 || v > hipResViewFormatFloat4) return false;
    unsigned k = (unsigned)v - hipResViewFormatUnsignedChar1;   /* groups of three: 1, 2, 4 channels */
    static const struct { int bits; hipChannelFormatKind kind; } group[8] = {
        { 8, hipChannelFormatKindUnsigned }, { 8, hipChannelFormatKindSigned },   { 16, hipChannelFormatKindUnsigned },
        { 16, hipChannelFormatKindSigned },  { 32, hipChannelFormatKindUnsigned }, { 32, hipChannelFormatKindSigned },
        { 16, hipChannelFormatKindFloat },   { 32, hipChannelFormatKindFloat },
    };
    unsigned n = k % 3 == 0 ? 1 : k % 3 == 1 ? 2 : 4;
    int b = group[k / 3].bits;
    *cd = (hipChannelFormatDesc){ b, n > 1 ? b : 0, n > 2 ? b : 0, n > 3 ? b : 0, group[k / 3].kind };
    return true;
}

/* A resource view of an array, as ROCm 5.2 makes it: the view's format reinterprets the array's
 * texels (an image view of another format, element sizes equal); the view's sizes, mip levels and
 * layers are kept for hipGetTextureObjectResourceViewDesc (ROCm 5.2 reads only the format). */
static hipError_t apply_view(const hipResourceDesc *res, const struct hipResourceViewDesc *view, plat_image *pi,
                             const char *api)
{
    if (res->resType != hipResourceTypeArray && res->resType != hipResourceTypeMipmappedArray)
        return hip_fail(hipErrorInvalidValue, api, "a resource view needs an array resource");
    if (view->format == hipResViewFormatNone) return hipSuccess;
    hipChannelFormatDesc cd;
    plat_image_format f;
    if (!view_channel_desc(view->format, &cd))
        return hip_fail(hipErrorNotSupported, api, "resource view format %d: block-compressed views are not supported",
                        (int)view->format);
    plat_image v = *pi;
    if (!channel_format(&cd, &f, NULL)) return hip_ret(hipErrorInvalidValue);
    v.format = f;
    plat_image_layout(&v);
    if (v.elem_size != pi->elem_size)
        return hip_fail(hipErrorInvalidValue, api, "resource view format %d has %u-byte texels, the array %u-byte ones",
                        (int)view->format, (unsigned)v.elem_size, (unsigned)pi->elem_size);
    pi->format = f;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipCreateTextureObject(hipTextureObject_t *out, const hipResourceDesc *res,
                                             const hipTextureDesc *td, const struct hipResourceViewDesc *view)
{
    static const char api[] = "hipCreateTextureObject";
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!out || !res || !td) return hip_ret(hipErrorInvalidValue);
    /* as ROCm 5.2's runtime: its sampler descriptor has no anisotropy, LOD bias or LOD clamps */
    if (td->maxAnisotropy || td->mipmapLevelBias != 0.0f || td->minMipmapLevelClamp != 0.0f ||
        td->maxMipmapLevelClamp != 0.0f)
        return hip_fail(hipErrorNotSupported, api, "anisotropic filtering, mipmap level bias and mipmap level "
                        "clamps are not supported (maxAnisotropy %u, bias %g, clamps %g..%g: set them to 0)",
                        td->maxAnisotropy, (double)td->mipmapLevelBias, (double)td->minMipmapLevelClamp,
                        (double)td->maxMipmapLevelClamp);
    hip_image_obj *o = calloc(1, sizeof *o);
    if (!o) return hip_ret(hipErrorOutOfMemory);
    hipError_t e = resource_image(rt, res, &o->pi, api);
    if (!e && view) e = apply_view(res, view, &o->pi, api);
    if (e) return free(o), e;
    if (td->readMode == hipReadModeNormalizedFloat) normalized_view(&o->pi.format);
    if (td->sRGB && o->pi.format.order == PLAT_ORDER_RGBA) {
        /* as ROCm: four channels read through an sRGB view (CL_sRGBA), valid for normalized 8-bit
         * unsigned texels only; one and two channels ignore the flag */
        if (o->pi.format.type != PLAT_TYPE_UNORM_INT8) {
            free(o);
            return hip_fail(hipErrorInvalidValue, api,
                            "sRGB reads need 4 x 8-bit unsigned texels read as normalized floats "
                            "(hipReadModeNormalizedFloat)");
        }
        o->pi.format.order = PLAT_ORDER_SRGBA;
    }
    uint32_t words[TEXTURE_DWORDS] = { 0 };
    plat_sampler s = { .normalized = td->normalizedCoords != 0, .address = address_mode(td->addressMode[0]),
                       .linear = td->filterMode == hipFilterModeLinear };
    if (!plat_image_descriptor(&o->pi, words) || !plat_sampler_descriptor(&s, words + HIP_SAMPLER_OBJECT_OFFSET_DWORD)) {
        free(o);
        return hip_fail(hipErrorNotSupported, api, "the format has no image descriptor umbra executes");
    }
    if ((e = upload(rt, words, TEXTURE_DWORDS, &o->desc_addr, api))) return free(o), e;
    o->kind = OBJ_TEXTURE, o->res = *res, o->tex = *td;
    if (view) o->view = *view;
    add_obj(rt, o);
    *out = (hipTextureObject_t)(uintptr_t)o->desc_addr;
    return hipSuccess;
}

static hipError_t destroy(obj_kind kind, const void *handle, const char *api)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!handle) return hipSuccess;
    hip_sync_all(rt);
    hip_image_obj *o = find_obj(rt, kind, handle, true);
    if (!o) return hip_fail(hipErrorInvalidValue, api, "%p is not a live object", handle);
    plat_free(&rt->plat, o->desc_addr);
    free(o);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipDestroyTextureObject(hipTextureObject_t t)
{
    return destroy(OBJ_TEXTURE, t, "hipDestroyTextureObject");
}

HIP_EXPORT hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc *r, hipTextureObject_t t)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    hip_image_obj *o = find_obj(rt, OBJ_TEXTURE, t, false);
    if (!r || !o) return hip_ret(hipErrorInvalidValue);
    *r = o->res;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc *d, hipTextureObject_t t)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    hip_image_obj *o = find_obj(rt, OBJ_TEXTURE, t, false);
    if (!d || !o) return hip_ret(hipErrorInvalidValue);
    *d = o->tex;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipGetTextureObjectResourceViewDesc(struct hipResourceViewDesc *v, hipTextureObject_t t)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    hip_image_obj *o = find_obj(rt, OBJ_TEXTURE, t, false);
    if (!v || !o) return hip_ret(hipErrorInvalidValue);
    *v = o->view;   /* without a view: zero */
    return hipSuccess;
}

/* ---------------- texture objects through the driver API ----------------
 * The HIP_* descriptors converted to the runtime API's as ROCm 5.2 does (hip_conversions.hpp):
 * resource and address/filter mode enums are the same numbers; HIP_TRSF_READ_AS_INTEGER is
 * hipReadModeElementType (without it integer texels read as normalized floats),
 * HIP_TRSF_NORMALIZED_COORDINATES and HIP_TRSF_SRGB the runtime's two switches. */

static bool runtime_resource(const HIP_RESOURCE_DESC *d, hipResourceDesc *r)
{
    memset(r, 0, sizeof *r);
    r->resType = (enum hipResourceType)d->resType;
    switch (d->resType) {
    case HIP_RESOURCE_TYPE_ARRAY: r->res.array.array = d->res.array.hArray; return true;
    case HIP_RESOURCE_TYPE_MIPMAPPED_ARRAY: r->res.mipmap.mipmap = d->res.mipmap.hMipmappedArray; return true;
    case HIP_RESOURCE_TYPE_LINEAR:
        r->res.linear.devPtr = d->res.linear.devPtr;
        r->res.linear.sizeInBytes = d->res.linear.sizeInBytes;
        return hip_driver_channel_desc(d->res.linear.format, d->res.linear.numChannels, &r->res.linear.desc);
    case HIP_RESOURCE_TYPE_PITCH2D:
        r->res.pitch2D.devPtr = d->res.pitch2D.devPtr;
        r->res.pitch2D.width = d->res.pitch2D.width;
        r->res.pitch2D.height = d->res.pitch2D.height;
        r->res.pitch2D.pitchInBytes = d->res.pitch2D.pitchInBytes;
        return hip_driver_channel_desc(d->res.pitch2D.format, d->res.pitch2D.numChannels, &r->res.pitch2D.desc);
    default: return false;
    }
}

static void driver_resource(const hipResourceDesc *r, HIP_RESOURCE_DESC *d)
{
    memset(d, 0, sizeof *d);
    d->resType = (HIPresourcetype)r->resType;
    switch (r->resType) {
    case hipResourceTypeArray: d->res.array.hArray = r->res.array.array; break;
    case hipResourceTypeMipmappedArray: d->res.mipmap.hMipmappedArray = r->res.mipmap.mipmap; break;
    case hipResourceTypeLinear:
        d->res.linear.devPtr = r->res.linear.devPtr;
        d->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
        driver_format(&r->res.linear.desc, &d->res.linear.format, &d->res.linear.numChannels);
        break;
    default:
        d->res.pitch2D.devPtr = r->res.pitch2D.devPtr;
        d->res.pitch2D.width = r->res.pitch2D.width;
        d->res.pitch2D.height = r->res.pitch2D.height;
        d->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
        driver_format(&r->res.pitch2D.desc, &d->res.pitch2D.format, &d->res.pitch2D.numChannels);
        break;
    }
}

static void runtime_texture(const HIP_TEXTURE_DESC *d, hipTextureDesc *t)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < 3; i++) t->addressMode[i] = (enum hipTextureAddressMode)d->addressMode[i];
    t->filterMode = (enum hipTextureFilterMode)d->filterMode;
    t->readMode = d->flags & HIP_TRSF_READ_AS_INTEGER ? hipReadModeElementType : hipReadModeNormalizedFloat;
    t->sRGB = (d->flags & HIP_TRSF_SRGB) != 0;
    t->normalizedCoords = (d->flags & HIP_TRSF_NORMALIZED_COORDINATES) != 0;
    memcpy(t->borderColor, d->borderColor, sizeof t->borderColor);
    t->maxAnisotropy = d->maxAnisotropy;
    t->mipmapFilterMode = (enum hipTextureFilterMode)d->mipmapFilterMode;
    t->mipmapLevelBias = d->mipmapLevelBias;
    t->minMipmapLevelClamp = d->minMipmapLevelClamp;
    t->maxMipmapLevelClamp = d->maxMipmapLevelClamp;
}

static void driver_texture(const hipTextureDesc *t, HIP_TEXTURE_DESC *d)
{
    memset(d, 0, sizeof *d);
    for (int i = 0; i < 3; i++) d->addressMode[i] = (HIPaddress_mode)t->addressMode[i];
    d->filterMode = (HIPfilter_mode)t->filterMode;
    d->flags = (t->readMode == hipReadModeElementType ? HIP_TRSF_READ_AS_INTEGER : 0u) |
               (t->sRGB == 1 ? HIP_TRSF_SRGB : 0u) | (t->normalizedCoords == 1 ? HIP_TRSF_NORMALIZED_COORDINATES : 0u);
    d->maxAnisotropy = t->maxAnisotropy;
    d->mipmapFilterMode = (HIPfilter_mode)t->mipmapFilterMode;
    d->mipmapLevelBias = t->mipmapLevelBias;
    d->minMipmapLevelClamp = t->minMipmapLevelClamp;
    d->maxMipmapLevelClamp = t->maxMipmapLevelClamp;
    memcpy(d->borderColor, t->borderColor, sizeof d->borderColor);
}

HIP_EXPORT hipError_t hipTexObjectCreate(hipTextureObject_t *out, const HIP_RESOURCE_DESC *res, const HIP_TEXTURE_DESC *td,
                                         const HIP_RESOURCE_VIEW_DESC *view)
{
    if (!out || !res || !td) return hip_ret(hipErrorInvalidValue);
    hipResourceDesc r;
    if (!runtime_resource(res, &r))
        return hip_fail(hipErrorInvalidValue, "hipTexObjectCreate",
                        "resource type %d: an array, a mipmapped array, or linear or pitched memory of a format "
                        "HIP_AD_FORMAT_* with 1, 2 or 4 channels", (int)res->resType);
    hipTextureDesc t;
    runtime_texture(td, &t);
    if (!view) return hipCreateTextureObject(out, &r, &t, NULL);
    struct hipResourceViewDesc v = { (enum hipResourceViewFormat)view->format, view->width, view->height, view->depth,
                                     view->firstMipmapLevel, view->lastMipmapLevel, view->firstLayer, view->lastLayer };
    return hipCreateTextureObject(out, &r, &t, &v);
}

HIP_EXPORT hipError_t hipTexObjectDestroy(hipTextureObject_t t) { return destroy(OBJ_TEXTURE, t, "hipTexObjectDestroy"); }

HIP_EXPORT hipError_t hipTexObjectGetResourceDesc(HIP_RESOURCE_DESC *d, hipTextureObject_t t)
{
    hipResourceDesc r;
    if (!d || !t) return hip_ret(hipErrorInvalidValue);
    hipError_t e = hipGetTextureObjectResourceDesc(&r, t);
    if (!e) driver_resource(&r, d);
    return e;
}

HIP_EXPORT hipError_t hipTexObjectGetTextureDesc(HIP_TEXTURE_DESC *d, hipTextureObject_t t)
{
    hipTextureDesc td;
    if (!d || !t) return hip_ret(hipErrorInvalidValue);
    hipError_t e = hipGetTextureObjectTextureDesc(&td, t);
    if (!e) driver_texture(&td, d);
    return e;
}

HIP_EXPORT hipError_t hipTexObjectGetResourceViewDesc(HIP_RESOURCE_VIEW_DESC *d, hipTextureObject_t t)
{
    struct hipResourceViewDesc v;
    if (!d || !t) return hip_ret(hipErrorInvalidValue);
    hipError_t e = hipGetTextureObjectResourceViewDesc(&v, t);
    if (e) return e;
    memset(d, 0, sizeof *d);
    d->format = (HIPresourceViewFormat)v.format;
    d->width = v.width, d->height = v.height, d->depth = v.depth;
    d->firstMipmapLevel = v.firstMipmapLevel, d->lastMipmapLevel = v.lastMipmapLevel;
    d->firstLayer = v.firstLayer, d->lastLayer = v.lastLayer;
    return hipSuccess;
}

/* Debian's HIP 5.2 declares the surface functions with C++ linkage: their mangled names. */
hipError_t create_surface(hipSurfaceObject_t *out, const hipResourceDesc *res)
    __asm__("_Z22hipCreateSurfaceObjectPP13__hip_surfacePK15hipResourceDesc");
hipError_t destroy_surface(hipSurfaceObject_t s) __asm__("_Z23hipDestroySurfaceObjectP13__hip_surface");

HIP_EXPORT hipError_t create_surface(hipSurfaceObject_t *out, const hipResourceDesc *res)
{
    static const char api[] = "hipCreateSurfaceObject";
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!out || !res) return hip_ret(hipErrorInvalidValue);
    if (res->resType != hipResourceTypeArray) return hip_fail(hipErrorInvalidValue, api, "surfaces are made of arrays");
    hip_image_obj *o = calloc(1, sizeof *o);
    if (!o) return hip_ret(hipErrorOutOfMemory);
    hipError_t e = resource_image(rt, res, &o->pi, api);
    if (e) return free(o), e;
    uint32_t words[HIP_IMAGE_OBJECT_SIZE_DWORD];
    if (!plat_image_descriptor(&o->pi, words)) {
        free(o);
        return hip_fail(hipErrorNotSupported, api, "the format has no image descriptor umbra executes");
    }
    if ((e = upload(rt, words, HIP_IMAGE_OBJECT_SIZE_DWORD, &o->desc_addr, api))) return free(o), e;
    o->kind = OBJ_SURFACE, o->res = *res;
    add_obj(rt, o);
    *out = (hipSurfaceObject_t)(uintptr_t)o->desc_addr;
    return hipSuccess;
}

HIP_EXPORT hipError_t destroy_surface(hipSurfaceObject_t s) { return destroy(OBJ_SURFACE, s, "hipDestroySurfaceObject"); }
