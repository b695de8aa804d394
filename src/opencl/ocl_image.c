/* Images and samplers: clCreateImage (every image type), formats, queries, the commands that move
 * an image's pixels (read, write, copy, fill, map, image <-> buffer) on the queue engine, and
 * samplers. The storage, formats and pixel moves are the platform layer's (src/platform/
 * plat_image.c), shared with the HIP runtime; this file is the OpenCL API over them.
 *
 * An image is a cl_mem with an ocl_image: its plat_image (layout in device memory), the format and
 * description as given, and the device address of its descriptor (what a kernel's image argument
 * points to: T# and metadata, plat_image.h). A 1D buffer image and a 2D image made from a buffer
 * (cl_khr_image2d_from_buffer) are their buffer's bytes (the buffer is their parent, retained while
 * the image lives; a 2D one's rows are its row pitch apart); a 2D image made from a 2D image is a
 * view of its pixels with a compatible order (the image is its parent). */
#include <stdlib.h>
#include <string.h>

#include "ocl.h"
#include "platform/plat_image.h"

typedef struct ocl_image {
    plat_image pi;
    cl_image_format format;
    cl_image_desc desc;           /* as created (buffer: the 1D buffer image's buffer) */
    uint64_t desc_addr;           /* descriptor in device memory (0: none yet) */
    size_t host_row, host_slice;  /* CL_MEM_USE_HOST_PTR: the host memory's pitches */
} ocl_image;

/* ---------------- formats: OpenCL's values <-> the platform's ---------------- */

static const struct { cl_channel_order cl; uint32_t plat; } orders[] = {
    { CL_R, PLAT_ORDER_R }, { CL_A, PLAT_ORDER_A }, { CL_RG, PLAT_ORDER_RG }, { CL_RA, PLAT_ORDER_RA },
    { CL_RGB, PLAT_ORDER_RGB }, { CL_RGBA, PLAT_ORDER_RGBA }, { CL_BGRA, PLAT_ORDER_BGRA },
    { CL_ARGB, PLAT_ORDER_ARGB }, { CL_INTENSITY, PLAT_ORDER_INTENSITY }, { CL_LUMINANCE, PLAT_ORDER_LUMINANCE },
    { CL_Rx, PLAT_ORDER_RX }, { CL_RGx, PLAT_ORDER_RGX }, { CL_RGBx, PLAT_ORDER_RGBX },
    { CL_DEPTH, PLAT_ORDER_DEPTH }, { CL_DEPTH_STENCIL, PLAT_ORDER_DEPTH_STENCIL }, { CL_sRGB, PLAT_ORDER_SRGB },
    { CL_sRGBx, PLAT_ORDER_SRGBX }, { CL_sRGBA, PLAT_ORDER_SRGBA }, { CL_sBGRA, PLAT_ORDER_SBGRA },
    { CL_ABGR, PLAT_ORDER_ABGR },
};

static const struct { cl_channel_type cl; uint32_t plat; } types[] = {
    { CL_SNORM_INT8, PLAT_TYPE_SNORM_INT8 }, { CL_SNORM_INT16, PLAT_TYPE_SNORM_INT16 },
    { CL_UNORM_INT8, PLAT_TYPE_UNORM_INT8 }, { CL_UNORM_INT16, PLAT_TYPE_UNORM_INT16 },
    { CL_UNORM_SHORT_565, PLAT_TYPE_UNORM_SHORT_565 }, { CL_UNORM_SHORT_555, PLAT_TYPE_UNORM_SHORT_555 },
    { CL_UNORM_INT_101010, PLAT_TYPE_UNORM_SHORT_101010 }, { CL_SIGNED_INT8, PLAT_TYPE_SIGNED_INT8 },
    { CL_SIGNED_INT16, PLAT_TYPE_SIGNED_INT16 }, { CL_SIGNED_INT32, PLAT_TYPE_SIGNED_INT32 },
    { CL_UNSIGNED_INT8, PLAT_TYPE_UNSIGNED_INT8 }, { CL_UNSIGNED_INT16, PLAT_TYPE_UNSIGNED_INT16 },
    { CL_UNSIGNED_INT32, PLAT_TYPE_UNSIGNED_INT32 }, { CL_HALF_FLOAT, PLAT_TYPE_HALF_FLOAT },
    { CL_FLOAT, PLAT_TYPE_FLOAT }, { CL_UNORM_INT24, PLAT_TYPE_UNORM_INT24 },
};

/* False: a value OpenCL does not define. */
static bool to_plat_format(const cl_image_format *f, plat_image_format *out)
{
    bool o = false, t = false;
    for (size_t i = 0; i < sizeof orders / sizeof *orders; i++)
        if (orders[i].cl == f->image_channel_order) out->order = orders[i].plat, o = true;
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (types[i].cl == f->image_channel_data_type) out->type = types[i].plat, t = true;
    return o && t;
}

static cl_image_format to_cl_format(plat_image_format f)
{
    cl_image_format r = { 0, 0 };
    for (size_t i = 0; i < sizeof orders / sizeof *orders; i++)
        if (orders[i].plat == f.order) r.image_channel_order = orders[i].cl;
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (types[i].plat == f.type) r.image_channel_data_type = types[i].cl;
    return r;
}

/* OpenCL 1.2 table 5.6: which data types each order may have (else the descriptor is invalid).
 * Orders of later versions (sRGB, depth, ABGR) are valid values the device does not offer. */
static bool format_descriptor_valid(const cl_image_format *f, plat_image_format *pf)
{
    if (!to_plat_format(f, pf)) return false;
    cl_channel_order o = f->image_channel_order;
    cl_channel_type t = f->image_channel_data_type;
    bool packed = t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010;
    if (o == CL_RGB || o == CL_RGBx) return packed;
    if (packed) return false;
    if (o == CL_ARGB || o == CL_BGRA)
        return t == CL_UNORM_INT8 || t == CL_SNORM_INT8 || t == CL_SIGNED_INT8 || t == CL_UNSIGNED_INT8;
    if (o == CL_INTENSITY || o == CL_LUMINANCE)
        return t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 || t == CL_SNORM_INT16 ||
               t == CL_HALF_FLOAT || t == CL_FLOAT;
    return true;
}

static bool image_type_valid(cl_mem_object_type t)
{
    return t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER || t == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
           t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
}

static plat_image_dim dim_of(cl_mem_object_type t)
{
    switch (t) {
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return PLAT_IMAGE_1D_BUFFER;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return PLAT_IMAGE_1D_ARRAY;
    case CL_MEM_OBJECT_IMAGE2D: return PLAT_IMAGE_2D;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return PLAT_IMAGE_2D_ARRAY;
    case CL_MEM_OBJECT_IMAGE3D: return PLAT_IMAGE_3D;
    default: return PLAT_IMAGE_1D;
    }
}

/* Flags under which a kernel may write the image: the formats offered for reading only (CL_sRGBA)
 * are left out, as CLR leaves them out (it checks these three bits; flags 0 lists them too). */
static bool kernel_writes(cl_mem_flags flags)
{
    return (flags & (CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE)) != 0;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context ctx, cl_mem_flags flags, cl_mem_object_type type,
                                                           cl_uint n, cl_image_format *formats, cl_uint *num)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) return CL_INVALID_CONTEXT;
    if ((n == 0 && formats) || !image_type_valid(type)) return CL_INVALID_VALUE;
    const cl_mem_flags known = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR |
                               CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_WRITE_ONLY |
                               CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS | CL_MEM_KERNEL_READ_AND_WRITE;
    if (flags & ~known) return CL_INVALID_VALUE;
    /* ROCm's lists (CLR's Image::getSupportedFormats): the same formats for every access,
     * CL_MEM_KERNEL_READ_AND_WRITE (read_write arguments) included, but CL_sRGBA only where no
     * kernel writes and not for 1D buffer images, and CL_DEPTH for 2D images and 2D arrays; each
     * holds OpenCL 3.0's minimum list for reading and writing (CL_R and CL_RGBA with UNORM_INT8,
     * SIGNED/UNSIGNED_INT8/16/32, HALF_FLOAT, FLOAT). */
    plat_image_format all[128];
    size_t count = plat_image_supported_formats(dim_of(type), kernel_writes(flags), all, sizeof all / sizeof *all);
    for (size_t i = 0; formats && i < count && i < n; i++) formats[i] = to_cl_format(all[i]);
    if (num) *num = (cl_uint)count;
    return CL_SUCCESS;
}

/* ---------------- creation ---------------- */

static const cl_mem_flags access_flags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
static const cl_mem_flags host_access_flags = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
static const cl_mem_flags host_ptr_flags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

static bool at_most_one(cl_mem_flags f) { return (f & (f - 1)) == 0; }

static bool flags_valid(cl_mem_flags f)
{
    if (f & ~(access_flags | host_ptr_flags | host_access_flags)) return false;
    if (!at_most_one(f & access_flags) || !at_most_one(f & host_access_flags)) return false;
    return !((f & CL_MEM_USE_HOST_PTR) && (f & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)));
}

/* An image's flags against those of the memory object it is made from (a 1D buffer image's or 2D
 * image's buffer, OpenCL 1.2 §5.3.1; a view's image): contradicting ones are invalid, missing ones
 * are inherited, host-pointer flags come from the parent. */
static bool parent_flags(cl_mem parent, cl_mem_flags *flags)
{
    cl_mem_flags f = *flags, bf = parent->flags;
    if (f & host_ptr_flags) return false;
    if ((bf & CL_MEM_WRITE_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) return false;
    if ((bf & CL_MEM_READ_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) return false;
    if ((bf & CL_MEM_HOST_WRITE_ONLY) && (f & CL_MEM_HOST_READ_ONLY)) return false;
    if ((bf & CL_MEM_HOST_READ_ONLY) && (f & CL_MEM_HOST_WRITE_ONLY)) return false;
    if ((bf & CL_MEM_HOST_NO_ACCESS) && (f & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))) return false;
    if (!(f & access_flags)) f |= bf & access_flags;
    if (!(f & host_access_flags)) f |= bf & host_access_flags;
    *flags = f | (bf & host_ptr_flags);
    return true;
}

/* The sizes the type uses, within the device's limits. */
static cl_int check_size(const cl_image_desc *d)
{
    size_t w = d->image_width, h = d->image_height, z = d->image_depth, a = d->image_array_size;
    bool ok;
    switch (d->image_type) {
    case CL_MEM_OBJECT_IMAGE1D: ok = w >= 1 && w <= PLAT_IMAGE1D_MAX_WIDTH; break;
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: ok = w >= 1 && w <= PLAT_IMAGE_MAX_BUFFER_SIZE; break;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
        ok = w >= 1 && w <= PLAT_IMAGE1D_MAX_WIDTH && a >= 1 && a <= PLAT_IMAGE_MAX_ARRAY_SIZE;
        break;
    case CL_MEM_OBJECT_IMAGE2D:
        ok = w >= 1 && w <= PLAT_IMAGE2D_MAX_WIDTH && h >= 1 && h <= PLAT_IMAGE2D_MAX_HEIGHT;
        break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        ok = w >= 1 && w <= PLAT_IMAGE2D_MAX_WIDTH && h >= 1 && h <= PLAT_IMAGE2D_MAX_HEIGHT && a >= 1 &&
             a <= PLAT_IMAGE_MAX_ARRAY_SIZE;
        break;
    default:
        ok = w >= 1 && w <= PLAT_IMAGE3D_MAX_WIDTH && h >= 1 && h <= PLAT_IMAGE3D_MAX_HEIGHT && z >= 1 &&
             z <= PLAT_IMAGE3D_MAX_DEPTH;
        break;
    }
    return ok ? CL_SUCCESS : CL_INVALID_IMAGE_SIZE;
}

/* The host memory's pitches (given or their defaults); invalid ones are a descriptor error. */
static cl_int host_pitches(const cl_image_desc *d, uint32_t elem, bool has_ptr, size_t *row, size_t *slice)
{
    size_t r = d->image_row_pitch, s = d->image_slice_pitch;
    if (!has_ptr) return r || s ? CL_INVALID_IMAGE_DESCRIPTOR : CL_SUCCESS;
    size_t min_row = d->image_width * elem;
    if (!r) r = min_row;
    else if (r < min_row || r % elem) return CL_INVALID_IMAGE_DESCRIPTOR;
    cl_mem_object_type t = d->image_type;
    if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
        if (!s) s = r;
        else if (s < r || s % r) return CL_INVALID_IMAGE_DESCRIPTOR;
    } else if (t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D) {
        if (!s) s = r * d->image_height;
        else if (s < r * d->image_height || s % r) return CL_INVALID_IMAGE_DESCRIPTOR;
    } else {
        s = 0;
    }
    *row = r, *slice = s;
    return CL_SUCCESS;
}

/* The platform's host pitches for an image's host memory: a 1D array's rows are its slices. */
static void plat_host_pitches(const ocl_image *im, size_t row, size_t slice, uint64_t *prow, uint64_t *pslice)
{
    if (im->pi.dim == PLAT_IMAGE_1D_ARRAY) *prow = slice, *pslice = 0;
    else *prow = row, *pslice = slice;
}

static const uint64_t zero3[3] = { 0, 0, 0 };

static void whole_box(const plat_image *pi, uint64_t region[3])
{
    region[0] = pi->width, region[1] = pi->rows, region[2] = pi->slices;
}

cl_int ocl_image_host_sync(cl_mem m, bool to_host)
{
    ocl_image *im = m->image;
    if (m->parent) return ocl_mem_host_sync(m->parent, 0, m->parent->size, to_host);   /* made from a buffer */
    if (!m->host_ptr) return CL_COMPLETE;
    uint64_t region[3], row, slice;
    whole_box(&im->pi, region);
    plat_host_pitches(im, im->host_row, im->host_slice, &row, &slice);
    cl_device_id d = ocl_device();
    umb_status st = to_host ? plat_image_read(&d->p, &im->pi, zero3, region, m->host_ptr, row, slice)
                            : plat_image_write(&d->p, &im->pi, zero3, region, m->host_ptr, row, slice);
    return st ? CL_OUT_OF_RESOURCES : CL_COMPLETE;
}

/* The kernel-visible descriptor: built once the image's storage exists. */
static cl_int upload_descriptor(ocl_image *im)
{
    uint32_t words[PLAT_IMAGE_DESC_DWORDS];
    if (!plat_image_descriptor(&im->pi, words)) return CL_SUCCESS;   /* no kernel arguments (ocl_kernel.c) */
    cl_device_id d = ocl_device();
    if (plat_alloc(&d->p, sizeof words, &im->desc_addr)) return CL_MEM_OBJECT_ALLOCATION_FAILURE;
    if (plat_to_device(&d->p, im->desc_addr, words, sizeof words)) return CL_OUT_OF_RESOURCES;
    return CL_SUCCESS;
}

/* mem_object: a buffer for a 1D buffer image (required) or a 2D image (cl_khr_image2d_from_buffer);
 * nothing for the other types. A 2D image may also name a 2D image, to view its pixels with a
 * compatible channel order (OpenCL 3.0 §5.3.1.2; view_of_image checks the rest). */
static cl_int check_desc(const cl_image_desc *d)
{
    if (!d || !image_type_valid(d->image_type) || d->num_mip_levels || d->num_samples)
        return CL_INVALID_IMAGE_DESCRIPTOR;
    cl_mem_object_type t = d->image_type;
    cl_mem mo = d->mem_object;
    if (t == CL_MEM_OBJECT_IMAGE1D_BUFFER && !mo) return CL_INVALID_IMAGE_DESCRIPTOR;
    if (!mo) return CL_SUCCESS;
    if ((t != CL_MEM_OBJECT_IMAGE1D_BUFFER && t != CL_MEM_OBJECT_IMAGE2D) || !ocl_valid(mo, OCL_MEM))
        return CL_INVALID_IMAGE_DESCRIPTOR;
    if (mo->image && (t != CL_MEM_OBJECT_IMAGE2D || mo->image->pi.dim != PLAT_IMAGE_2D)) return CL_INVALID_IMAGE_DESCRIPTOR;
    return CL_SUCCESS;
}

/* A 2D image made from a 2D image (OpenCL 3.0 §5.3.1.2 and its table of compatible orders): the
 * same channel type, and the same order or one of the pairs CL_sRGBA/CL_RGBA, CL_sBGRA/CL_BGRA,
 * CL_sRGB/CL_RGB, CL_sRGBx/CL_RGBx, CL_DEPTH/CL_R (else CL_INVALID_IMAGE_FORMAT_DESCRIPTOR); the
 * parent's width and height, its row pitch or 0, no host pointer. The view shares the parent's
 * pixels (it is the view's parent, retained). */
static cl_int view_of_image(const cl_image_desc *d, plat_image_format f, cl_mem parent, const void *host_ptr)
{
    const plat_image *p = &parent->image->pi;
    static const uint32_t pairs[][2] = {
        { PLAT_ORDER_SRGBA, PLAT_ORDER_RGBA }, { PLAT_ORDER_SBGRA, PLAT_ORDER_BGRA }, { PLAT_ORDER_SRGB, PLAT_ORDER_RGB },
        { PLAT_ORDER_SRGBX, PLAT_ORDER_RGBX }, { PLAT_ORDER_DEPTH, PLAT_ORDER_R },
    };
    bool compatible = f.order == p->format.order;
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        if ((f.order == pairs[i][0] && p->format.order == pairs[i][1]) ||
            (f.order == pairs[i][1] && p->format.order == pairs[i][0]))
            compatible = true;
    if (!compatible || f.type != p->format.type) return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    if (d->image_width != p->width || d->image_height != p->height ||
        (d->image_row_pitch && d->image_row_pitch != p->row_pitch))
        return CL_INVALID_IMAGE_DESCRIPTOR;
    return host_ptr ? CL_INVALID_HOST_PTR : CL_SUCCESS;
}

/* The row pitch of a 2D image made from a buffer (OpenCL 3.0 §5.3.1.2, "Image Descriptor"): given
 * or width * pixel size; at least the row and a multiple of the pixel (else the descriptor is
 * invalid), a multiple of CL_DEVICE_IMAGE_PITCH_ALIGNMENT pixels, and a CL_MEM_USE_HOST_PTR
 * buffer's host memory aligned to CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT pixels (else, as the
 * specification says, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR); rows * pitch within the buffer. The
 * buffer's device address needs no check: allocations are 4096-byte aligned and sub-buffer
 * origins multiples of CL_DEVICE_MEM_BASE_ADDR_ALIGN (256 bytes), the T#'s base alignment. */
static cl_int buffer_image_pitch(const cl_image_desc *d, cl_mem buf, uint32_t elem, size_t *pitch)
{
    size_t r = d->image_row_pitch, min_row = d->image_width * elem;
    if (d->image_slice_pitch) return CL_INVALID_IMAGE_DESCRIPTOR;   /* no host_ptr: must be 0 */
    if (!r) r = min_row;
    else if (r < min_row || r % elem) return CL_INVALID_IMAGE_DESCRIPTOR;
    if (r % ((size_t)PLAT_IMAGE_BUFFER_PITCH_ALIGN * elem)) return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    if ((buf->flags & CL_MEM_USE_HOST_PTR) && (uintptr_t)buf->host_ptr % ((size_t)PLAT_IMAGE_BUFFER_BASE_ALIGN * elem))
        return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    if (r / elem > PLAT_IMAGE_MAX_PITCH) {
        fprintf(stderr, "umbra opencl: clCreateImage: a row pitch of %zu pixels is more than the T# holds (%u)\n",
                r / elem, PLAT_IMAGE_MAX_PITCH);
        return CL_INVALID_IMAGE_SIZE;
    }
    if (d->image_height > buf->size / r) return CL_INVALID_IMAGE_SIZE;   /* the buffer is too small */
    *pitch = r;
    return CL_SUCCESS;
}

static void free_image_storage(cl_mem m, ocl_image *im)
{
    cl_device_id d = ocl_device();
    if (im->desc_addr) plat_free(&d->p, im->desc_addr);
    if (!m->parent && m->addr) plat_free(&d->p, m->addr);
    free(im);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context ctx, cl_mem_flags flags, const cl_image_format *format,
                                              const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    if (!flags_valid(flags)) OCL_ERR(CL_INVALID_VALUE);
    plat_image_format pf;
    if (!format || !format_descriptor_valid(format, &pf)) OCL_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    cl_int st = check_desc(desc);
    if (st) OCL_ERR(st);
    cl_mem parent = desc->mem_object;   /* a buffer (1D buffer images, 2D from a buffer) or an image (a view) */
    cl_mem buffer = parent && !parent->image ? parent : NULL, view = parent && parent->image ? parent : NULL;
    if (parent && !parent_flags(parent, &flags)) OCL_ERR(CL_INVALID_VALUE);
    if ((st = check_size(desc))) OCL_ERR(st);
    if (view && (st = view_of_image(desc, pf, view, host_ptr))) OCL_ERR(st);
    uint32_t elem;
    plat_image_format_size(pf, &elem, NULL);
    bool wants_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) && !parent;
    if (!parent && wants_ptr != (host_ptr != NULL)) OCL_ERR(CL_INVALID_HOST_PTR);
    if (parent && host_ptr) OCL_ERR(CL_INVALID_HOST_PTR);
    bool buffer_2d = buffer && desc->image_type == CL_MEM_OBJECT_IMAGE2D;
    size_t row = 0, slice = 0, buffer_pitch = 0;
    if (!buffer_2d && !view && (st = host_pitches(desc, elem, wants_ptr, &row, &slice))) OCL_ERR(st);
    if (!plat_image_format_supported(pf, dim_of(desc->image_type), kernel_writes(flags)))
        OCL_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    if (buffer_2d && (st = buffer_image_pitch(desc, buffer, elem, &buffer_pitch))) OCL_ERR(st);
    if (buffer && !buffer_2d && desc->image_width * elem > buffer->size) OCL_ERR(CL_INVALID_IMAGE_SIZE);
    if (!(flags & access_flags)) flags |= CL_MEM_READ_WRITE;

    ocl_image *im = calloc(1, sizeof *im);
    cl_mem m = im ? ocl_obj_alloc(sizeof *m) : NULL;
    if (!m) {
        free(im);
        OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    }
    im->format = *format, im->desc = *desc;
    im->host_row = row, im->host_slice = slice;
    plat_image *pi = &im->pi;
    pi->dim = dim_of(desc->image_type), pi->format = pf;
    pi->width = desc->image_width;
    pi->height = desc->image_height, pi->depth = desc->image_depth, pi->array_size = desc->image_array_size;
    plat_image_layout(pi);
    if (buffer_2d) {   /* the buffer's rows, buffer_pitch bytes apart */
        pi->row_pitch = buffer_pitch;
        pi->slice_pitch = pi->size = buffer_pitch * pi->rows;
    }
    if (view) {   /* the parent's rows (same pixel size: compatible formats share the type and channels) */
        pi->row_pitch = view->image->pi.row_pitch;
        pi->slice_pitch = view->image->pi.slice_pitch, pi->size = view->image->pi.size;
    }
    if (!parent && pi->size > ocl_device_max_alloc()) {
        ocl_obj_free(m), free(im);
        OCL_ERR(CL_INVALID_IMAGE_SIZE);
    }
    m->ctx = ctx, m->flags = flags, m->size = pi->size, m->image = im;
    cl_device_id d = ocl_device();
    if (parent) {   /* the parent's bytes: writes through either are seen through the other */
        m->parent = parent, m->addr = parent->addr;
        m->host_ptr = NULL;   /* the parent's host memory is synchronised through the parent */
    } else if (plat_alloc(&d->p, pi->size, &m->addr)) {
        ocl_obj_free(m), free(im);
        OCL_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
    pi->addr = m->addr;
    if (flags & CL_MEM_USE_HOST_PTR) m->host_ptr = host_ptr;
    st = upload_descriptor(im);
    if (!st && wants_ptr) {
        uint64_t region[3], prow, pslice;
        whole_box(pi, region);
        plat_host_pitches(im, row, slice, &prow, &pslice);
        if (plat_image_write(&d->p, pi, zero3, region, host_ptr, prow, pslice)) st = CL_OUT_OF_RESOURCES;
    }
    if (st) {
        free_image_storage(m, im);
        ocl_obj_free(m);
        OCL_ERR(st);
    }
    if (parent) ocl_retain(parent);
    ocl_retain(ctx);
    m->serial = ocl_mem_new_serial();
    ocl_register(m, OCL_MEM);
    OCL_OK(m);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context ctx, const cl_mem_properties *props,
                                                            cl_mem_flags flags, const cl_image_format *format,
                                                            const cl_image_desc *desc, void *host_ptr,
                                                            cl_int *errcode_ret)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    if (props && props[0]) OCL_ERR(CL_INVALID_PROPERTY);
    cl_mem m = clCreateImage(ctx, flags, format, desc, host_ptr, errcode_ret);
    if (m && props) m->listed_props = true;
    return m;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context ctx, cl_mem_flags flags, const cl_image_format *format,
                                                size_t w, size_t h, size_t pitch, void *host_ptr, cl_int *errcode_ret)
{
    cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h,
                           .image_row_pitch = pitch };
    return clCreateImage(ctx, flags, format, &desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context ctx, cl_mem_flags flags, const cl_image_format *format,
                                                size_t w, size_t h, size_t d, size_t row_pitch, size_t slice_pitch,
                                                void *host_ptr, cl_int *errcode_ret)
{
    /* OpenCL 1.1: a depth of 1 is no 3D image. */
    if (ocl_valid(ctx, OCL_CONTEXT) && d < 2) OCL_ERR(CL_INVALID_IMAGE_SIZE);
    cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = w, .image_height = h,
                           .image_depth = d, .image_row_pitch = row_pitch, .image_slice_pitch = slice_pitch };
    return clCreateImage(ctx, flags, format, &desc, host_ptr, errcode_ret);
}

/* Called by ocl_mem_destroy, which frees the pixels (or releases the 1D buffer image's buffer). */
void ocl_image_destroy(cl_mem m)
{
    ocl_image *im = m->image;
    cl_device_id d = ocl_device();
    if (im->desc_addr) plat_free(&d->p, im->desc_addr);
    free(im);
    m->image = NULL;
}

cl_mem_object_type ocl_image_type(cl_mem m) { return m->image->desc.image_type; }

uint64_t ocl_image_arg_addr(cl_mem m) { return m->image->desc_addr; }

static bool is_image(cl_mem m) { return ocl_valid(m, OCL_MEM) && m->image; }

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem m, cl_image_info param, size_t size, void *value, size_t *ret)
{
    if (!is_image(m)) return CL_INVALID_MEM_OBJECT;
    const ocl_image *im = m->image;
    cl_mem_object_type t = im->desc.image_type;
    bool has_height = t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
    bool arrayed = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    bool sliced = arrayed || t == CL_MEM_OBJECT_IMAGE3D;
    switch (param) {
    case CL_IMAGE_FORMAT: OCL_INFO(cl_image_format, im->format);
    case CL_IMAGE_ELEMENT_SIZE: OCL_INFO(size_t, im->pi.elem_size);
    case CL_IMAGE_ROW_PITCH: OCL_INFO(size_t, im->pi.row_pitch);
    case CL_IMAGE_SLICE_PITCH: OCL_INFO(size_t, sliced ? im->pi.slice_pitch : 0);
    case CL_IMAGE_WIDTH: OCL_INFO(size_t, im->pi.width);
    case CL_IMAGE_HEIGHT: OCL_INFO(size_t, has_height ? im->pi.height : 0);
    case CL_IMAGE_DEPTH: OCL_INFO(size_t, t == CL_MEM_OBJECT_IMAGE3D ? im->pi.depth : 0);
    case CL_IMAGE_ARRAY_SIZE: OCL_INFO(size_t, arrayed ? im->pi.array_size : 0);
    case CL_IMAGE_BUFFER: OCL_INFO(cl_mem, m->parent && !m->parent->image ? m->parent : NULL);   /* not a view's image */
    case CL_IMAGE_NUM_MIP_LEVELS: case CL_IMAGE_NUM_SAMPLES: OCL_INFO(cl_uint, 0);
    default: return CL_INVALID_VALUE;
    }
}

/* ---------------- the commands ---------------- */

static cl_int check_queue_image(cl_command_queue q, cl_mem m)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    if (!is_image(m)) return CL_INVALID_MEM_OBJECT;
    return m->ctx == q->ctx ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

static bool host_may_read(cl_mem m) { return !(m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)); }
static bool host_may_write(cl_mem m) { return !(m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)); }

/* origin and region as the image's type reads them (OpenCL 1.2 §5.3.3): unused coordinates are
 * 0 and 1; the box lies inside the image. */
static cl_int check_box(const cl_mem m, const size_t *origin, const size_t *region)
{
    if (!origin || !region) return CL_INVALID_VALUE;
    const plat_image *pi = &m->image->pi;
    int used = pi->slices > 1 || pi->dim == PLAT_IMAGE_2D_ARRAY || pi->dim == PLAT_IMAGE_3D ? 3
             : pi->dim == PLAT_IMAGE_2D || pi->dim == PLAT_IMAGE_1D_ARRAY ? 2 : 1;
    for (int i = used; i < 3; i++)
        if (origin[i] != 0 || region[i] != 1) return CL_INVALID_VALUE;
    const uint64_t o[3] = { origin[0], origin[1], origin[2] }, r[3] = { region[0], region[1], region[2] };
    return plat_image_box_inside(pi, o, r) ? CL_SUCCESS : CL_INVALID_VALUE;
}

/* Host pitches of a read/write/map: defaults, and their rules (§5.3.3). */
static cl_int check_host_pitches(const cl_mem m, const size_t *region, size_t *row, size_t *slice)
{
    const plat_image *pi = &m->image->pi;
    size_t min_row = region[0] * pi->elem_size;
    if (!*row) *row = min_row;
    else if (*row < min_row) return CL_INVALID_VALUE;
    if (pi->dim == PLAT_IMAGE_1D_ARRAY) {
        if (!*slice) *slice = *row;
        else if (*slice < *row) return CL_INVALID_VALUE;
    } else if (pi->dim == PLAT_IMAGE_2D_ARRAY || pi->dim == PLAT_IMAGE_3D) {
        if (!*slice) *slice = *row * region[1];
        else if (*slice < *row * region[1]) return CL_INVALID_VALUE;
    } else if (*slice) {
        return CL_INVALID_VALUE;   /* 1D and 2D images have no slices */
    }
    return CL_SUCCESS;
}

static ocl_cmd *image_cmd(cl_mem a, cl_mem b)
{
    ocl_cmd *c = ocl_cmd_new();
    if (!c) return NULL;
    if (a) ocl_retain(a), c->mem[0] = a;
    if (b) ocl_retain(b), c->mem[1] = b;
    return c;
}

static void box_of(const ocl_cmd *c, int i, uint64_t origin[3], uint64_t region[3])
{
    for (int k = 0; k < 3; k++) origin[k] = c->origin[i][k], region[k] = c->region[k];
}

static cl_int status_of(umb_status st) { return st ? CL_OUT_OF_RESOURCES : CL_COMPLETE; }

static cl_int run_read_image(ocl_cmd *c)
{
    uint64_t o[3], r[3], row, slice;
    box_of(c, 0, o, r);
    plat_host_pitches(c->mem[0]->image, c->pitch[1][0], c->pitch[1][1], &row, &slice);
    return status_of(plat_image_read(&ocl_device()->p, &c->mem[0]->image->pi, o, r, c->ptr, row, slice));
}

static cl_int run_write_image(ocl_cmd *c)
{
    uint64_t o[3], r[3], row, slice;
    box_of(c, 0, o, r);
    plat_host_pitches(c->mem[0]->image, c->pitch[1][0], c->pitch[1][1], &row, &slice);
    cl_int st = status_of(plat_image_write(&ocl_device()->p, &c->mem[0]->image->pi, o, r, c->ptr, row, slice));
    return st == CL_COMPLETE ? ocl_image_host_sync(c->mem[0], true) : st;
}

static void free_ptr(ocl_cmd *c) { free(c->ptr); }

static cl_int enqueue_host_image(cl_command_queue q, cl_mem m, bool write, cl_bool blocking, const size_t *origin,
                                 const size_t *region, size_t row, size_t slice, void *ptr, cl_uint n,
                                 const cl_event *list, cl_event *out)
{
    cl_int st = check_queue_image(q, m);
    if (!st) st = ocl_check_wait_list(q, n, list);
    if (!st) st = check_box(m, origin, region);
    if (!st && !ptr) st = CL_INVALID_VALUE;
    if (!st) st = check_host_pitches(m, region, &row, &slice);
    if (st) return st;
    if (write ? !host_may_write(m) : !host_may_read(m)) return CL_INVALID_OPERATION;
    ocl_cmd *c = image_cmd(m, NULL);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    memcpy(c->origin[0], origin, sizeof c->origin[0]);
    memcpy(c->region, region, sizeof c->region);
    c->pitch[1][0] = row, c->pitch[1][1] = slice;
    c->run = write ? run_write_image : run_read_image;
    c->ptr = ptr;
    if (write && !blocking) {   /* the host may reuse its memory at once */
        size_t layers = m->image->pi.dim == PLAT_IMAGE_1D_ARRAY ? region[1] : region[2];
        size_t rows = m->image->pi.dim == PLAT_IMAGE_1D_ARRAY ? 1 : region[1];
        size_t bytes = (layers - 1) * slice + (rows - 1) * row + region[0] * m->image->pi.elem_size;
        c->ptr = malloc(bytes);
        if (!c->ptr) return ocl_cmd_free(c), CL_OUT_OF_HOST_MEMORY;
        memcpy(c->ptr, ptr, bytes);
        c->done = free_ptr;
    }
    return ocl_enqueue(q, c, write ? CL_COMMAND_WRITE_IMAGE : CL_COMMAND_READ_IMAGE, n, list, out, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q, cl_mem m, cl_bool blocking, const size_t *origin,
                                                   const size_t *region, size_t row, size_t slice, void *ptr,
                                                   cl_uint n, const cl_event *list, cl_event *out)
{
    return enqueue_host_image(q, m, false, blocking, origin, region, row, slice, ptr, n, list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q, cl_mem m, cl_bool blocking,
                                                    const size_t *origin, const size_t *region, size_t row,
                                                    size_t slice, const void *ptr, cl_uint n, const cl_event *list,
                                                    cl_event *out)
{
    return enqueue_host_image(q, m, true, blocking, origin, region, row, slice, (void *)ptr, n, list, out);
}

static cl_int run_fill_image(ocl_cmd *c)
{
    uint64_t o[3], r[3];
    box_of(c, 0, o, r);
    cl_int st = status_of(plat_image_fill(&ocl_device()->p, &c->mem[0]->image->pi, o, r, c->pattern));
    return st == CL_COMPLETE ? ocl_image_host_sync(c->mem[0], true) : st;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q, cl_mem m, const void *color,
                                                   const size_t *origin, const size_t *region, cl_uint n,
                                                   const cl_event *list, cl_event *out)
{
    cl_int st = check_queue_image(q, m);
    if (!st) st = ocl_check_wait_list(q, n, list);
    if (!st && !color) st = CL_INVALID_VALUE;
    if (!st) st = check_box(m, origin, region);
    if (st) return st;
    ocl_cmd *c = image_cmd(m, NULL);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    plat_image_pack_color(m->image->pi.format, color, c->pattern);
    memcpy(c->origin[0], origin, sizeof c->origin[0]);
    memcpy(c->region, region, sizeof c->region);
    c->run = run_fill_image;
    return ocl_enqueue(q, c, CL_COMMAND_FILL_IMAGE, n, list, out, false);
}

static cl_int run_copy_image(ocl_cmd *c)
{
    uint64_t so[3], doo[3], r[3];
    box_of(c, 0, so, r), box_of(c, 1, doo, r);
    cl_int st = status_of(plat_image_copy(&ocl_device()->p, &c->mem[0]->image->pi, so, &c->mem[1]->image->pi, doo, r));
    return st == CL_COMPLETE ? ocl_image_host_sync(c->mem[1], true) : st;
}

static bool boxes_overlap(const size_t *a, const size_t *b, const size_t *region)
{
    for (int i = 0; i < 3; i++)
        if (a[i] >= b[i] + region[i] || b[i] >= a[i] + region[i]) return false;
    return true;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *sorigin,
                                                   const size_t *dorigin, const size_t *region, cl_uint n,
                                                   const cl_event *list, cl_event *out)
{
    cl_int st = check_queue_image(q, src);
    if (!st) st = check_queue_image(q, dst);
    if (!st) st = ocl_check_wait_list(q, n, list);
    if (st) return st;
    const cl_image_format *sf = &src->image->format, *df = &dst->image->format;
    if (sf->image_channel_order != df->image_channel_order || sf->image_channel_data_type != df->image_channel_data_type)
        return CL_IMAGE_FORMAT_MISMATCH;
    if ((st = check_box(src, sorigin, region)) || (st = check_box(dst, dorigin, region))) return st;
    if (src == dst && boxes_overlap(sorigin, dorigin, region)) return CL_MEM_COPY_OVERLAP;
    ocl_cmd *c = image_cmd(src, dst);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    memcpy(c->origin[0], sorigin, sizeof c->origin[0]);
    memcpy(c->origin[1], dorigin, sizeof c->origin[1]);
    memcpy(c->region, region, sizeof c->region);
    c->run = run_copy_image;
    return ocl_enqueue(q, c, CL_COMMAND_COPY_IMAGE, n, list, out, false);
}

static cl_int check_queue_buffer(cl_command_queue q, cl_mem m)
{
    if (!ocl_valid(m, OCL_MEM) || m->image) return CL_INVALID_MEM_OBJECT;
    return m->ctx == q->ctx ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

static size_t box_bytes(const cl_mem img, const size_t *region)
{
    return region[0] * region[1] * region[2] * img->image->pi.elem_size;
}

static cl_int run_image_to_buffer(ocl_cmd *c)
{
    uint64_t o[3], r[3];
    box_of(c, 0, o, r);
    cl_mem b = c->mem[1];
    cl_int st = status_of(plat_image_to_linear(&ocl_device()->p, &c->mem[0]->image->pi, o, r, b->addr + c->off[0]));
    return st == CL_COMPLETE ? ocl_mem_host_sync(b, c->off[0], c->size, true) : st;
}

static cl_int run_buffer_to_image(ocl_cmd *c)
{
    uint64_t o[3], r[3];
    box_of(c, 0, o, r);
    cl_mem img = c->mem[1];
    cl_int st = status_of(plat_image_from_linear(&ocl_device()->p, &img->image->pi, o, r, c->mem[0]->addr + c->off[0]));
    return st == CL_COMPLETE ? ocl_image_host_sync(img, true) : st;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
                                                           const size_t *sorigin, const size_t *region, size_t off,
                                                           cl_uint n, const cl_event *list, cl_event *out)
{
    cl_int st = check_queue_image(q, src);
    if (!st) st = check_queue_buffer(q, dst);
    if (!st) st = ocl_check_wait_list(q, n, list);
    if (!st) st = check_box(src, sorigin, region);
    if (st) return st;
    size_t bytes = box_bytes(src, region);
    if (off > dst->size || bytes > dst->size - off) return CL_INVALID_VALUE;
    ocl_cmd *c = image_cmd(src, dst);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    memcpy(c->origin[0], sorigin, sizeof c->origin[0]);
    memcpy(c->region, region, sizeof c->region);
    c->off[0] = off, c->size = bytes, c->run = run_image_to_buffer;
    return ocl_enqueue(q, c, CL_COMMAND_COPY_IMAGE_TO_BUFFER, n, list, out, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem src, cl_mem dst, size_t off,
                                                           const size_t *dorigin, const size_t *region, cl_uint n,
                                                           const cl_event *list, cl_event *out)
{
    cl_int st = ocl_valid(q, OCL_QUEUE) ? check_queue_buffer(q, src) : CL_INVALID_COMMAND_QUEUE;
    if (!st) st = check_queue_image(q, dst);
    if (!st) st = ocl_check_wait_list(q, n, list);
    if (!st) st = check_box(dst, dorigin, region);
    if (st) return st;
    size_t bytes = box_bytes(dst, region);
    if (off > src->size || bytes > src->size - off) return CL_INVALID_VALUE;
    ocl_cmd *c = image_cmd(src, dst);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    memcpy(c->origin[0], dorigin, sizeof c->origin[0]);
    memcpy(c->region, region, sizeof c->region);
    c->off[0] = off, c->size = bytes, c->run = run_buffer_to_image;
    return ocl_enqueue(q, c, CL_COMMAND_COPY_BUFFER_TO_IMAGE, n, list, out, false);
}

/* ---------------- map and unmap ----------------
 * A CL_MEM_USE_HOST_PTR image maps to its host memory (with its pitches); others to a host copy
 * of the box, rows packed, written back at unmap when mapped for writing. */

static cl_int run_map_image(ocl_cmd *c)
{
    ocl_mapping *mp = c->map;
    if (mp->flags & CL_MAP_WRITE_INVALIDATE_REGION) return CL_COMPLETE;
    cl_mem m = c->mem[0];
    uint64_t row = mp->row, slice = mp->slice;
    if (m->image->pi.dim == PLAT_IMAGE_1D_ARRAY) row = mp->slice, slice = 0;
    return status_of(plat_image_read(&ocl_device()->p, &m->image->pi, mp->origin, mp->region, mp->ptr, row, slice));
}

cl_int ocl_image_unmap(cl_mem m, const ocl_mapping *mp)
{
    if (!(mp->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))) return CL_COMPLETE;
    uint64_t row = mp->row, slice = mp->slice;
    if (m->image->pi.dim == PLAT_IMAGE_1D_ARRAY) row = mp->slice, slice = 0;
    return status_of(plat_image_write(&ocl_device()->p, &m->image->pi, mp->origin, mp->region, mp->ptr, row, slice));
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(cl_command_queue q, cl_mem m, cl_bool blocking, cl_map_flags flags,
                                                 const size_t *origin, const size_t *region, size_t *row_pitch,
                                                 size_t *slice_pitch, cl_uint n, const cl_event *list,
                                                 cl_event *out, cl_int *errcode_ret)
{
    cl_int st = check_queue_image(q, m);
    if (!st) st = ocl_check_wait_list(q, n, list);
    if (!st) st = check_box(m, origin, region);
    if (st) OCL_ERR(st);
    const plat_image *pi = &m->image->pi;
    bool sliced = pi->dim == PLAT_IMAGE_1D_ARRAY || pi->dim == PLAT_IMAGE_2D_ARRAY || pi->dim == PLAT_IMAGE_3D;
    if (!row_pitch || (sliced && !slice_pitch)) OCL_ERR(CL_INVALID_VALUE);
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if ((flags & ~known) || ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
        OCL_ERR(CL_INVALID_VALUE);
    if ((flags & CL_MAP_READ) && !host_may_read(m)) OCL_ERR(CL_INVALID_OPERATION);
    if ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && !host_may_write(m)) OCL_ERR(CL_INVALID_OPERATION);
    ocl_mapping *mp = calloc(1, sizeof *mp);
    ocl_cmd *c = image_cmd(m, NULL);
    if (!mp || !c) {
        free(mp);
        if (c) ocl_cmd_free(c);
        OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    }
    mp->image = true, mp->flags = flags;
    for (int i = 0; i < 3; i++) mp->origin[i] = origin[i], mp->region[i] = region[i];
    if (m->host_ptr) {   /* the host memory itself, at the box's first pixel */
        const ocl_image *im = m->image;
        mp->row = im->host_row, mp->slice = im->host_slice;
        size_t layer = pi->dim == PLAT_IMAGE_1D_ARRAY ? origin[1] : origin[2];
        size_t y = pi->dim == PLAT_IMAGE_1D_ARRAY ? 0 : origin[1];
        mp->ptr = (uint8_t *)m->host_ptr + layer * im->host_slice + y * im->host_row + origin[0] * pi->elem_size;
    } else {
        mp->row = region[0] * pi->elem_size;
        mp->slice = pi->dim == PLAT_IMAGE_1D_ARRAY ? mp->row : mp->row * region[1];
        size_t layers = pi->dim == PLAT_IMAGE_1D_ARRAY ? region[1] : region[2];
        mp->owned = true;
        mp->ptr = malloc(mp->slice * layers);
        if (!mp->ptr) {
            free(mp), ocl_cmd_free(c);
            OCL_ERR(CL_OUT_OF_HOST_MEMORY);
        }
    }
    *row_pitch = mp->row;
    if (slice_pitch) *slice_pitch = sliced ? mp->slice : 0;
    c->map = mp, c->run = run_map_image;
    return ocl_enqueue_map(q, m, c, CL_COMMAND_MAP_IMAGE, n, list, out, blocking, errcode_ret);
}

/* ---------------- samplers ---------------- */

static bool sampler_valid(cl_bool norm, cl_addressing_mode am, cl_filter_mode fm)
{
    if (norm != CL_TRUE && norm != CL_FALSE) return false;
    if (fm != CL_FILTER_NEAREST && fm != CL_FILTER_LINEAR) return false;
    switch (am) {
    case CL_ADDRESS_NONE: case CL_ADDRESS_CLAMP_TO_EDGE: case CL_ADDRESS_CLAMP: return true;
    case CL_ADDRESS_REPEAT: case CL_ADDRESS_MIRRORED_REPEAT: return norm == CL_TRUE;   /* §5.5: need normalized */
    default: return false;
    }
}

static plat_sampler to_plat_sampler(const struct _cl_sampler *s)
{
    plat_sampler p = { .normalized = s->normalized == CL_TRUE, .linear = s->filter == CL_FILTER_LINEAR };
    switch (s->address) {
    case CL_ADDRESS_CLAMP_TO_EDGE: p.address = PLAT_ADDRESS_CLAMP_TO_EDGE; break;
    case CL_ADDRESS_CLAMP: p.address = PLAT_ADDRESS_CLAMP; break;
    case CL_ADDRESS_REPEAT: p.address = PLAT_ADDRESS_REPEAT; break;
    case CL_ADDRESS_MIRRORED_REPEAT: p.address = PLAT_ADDRESS_MIRRORED_REPEAT; break;
    default: p.address = PLAT_ADDRESS_NONE; break;
    }
    return p;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context ctx, cl_bool norm, cl_addressing_mode am,
                                                    cl_filter_mode fm, cl_int *errcode_ret)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    if (!sampler_valid(norm, am, fm)) OCL_ERR(CL_INVALID_VALUE);
    cl_sampler s = ocl_obj_alloc(sizeof *s);
    if (!s) OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    s->ctx = ctx, s->normalized = norm, s->address = am, s->filter = fm;
    uint32_t words[PLAT_SAMPLER_DESC_DWORDS];
    plat_sampler ps = to_plat_sampler(s);
    cl_device_id d = ocl_device();
    if (!plat_sampler_descriptor(&ps, words)) {   /* no S#: no kernel arguments (ocl_kernel.c) */
        ocl_retain(ctx);
        ocl_register(s, OCL_SAMPLER);
        OCL_OK(s);
    }
    if (plat_alloc(&d->p, sizeof words, &s->addr)) {
        ocl_obj_free(s);
        OCL_ERR(CL_OUT_OF_RESOURCES);
    }
    if (plat_to_device(&d->p, s->addr, words, sizeof words)) {
        plat_free(&d->p, s->addr);
        ocl_obj_free(s);
        OCL_ERR(CL_OUT_OF_RESOURCES);
    }
    ocl_retain(ctx);
    ocl_register(s, OCL_SAMPLER);
    OCL_OK(s);
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context ctx, const cl_sampler_properties *props,
                                                                  cl_int *errcode_ret)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    cl_bool norm = CL_TRUE;
    cl_addressing_mode am = CL_ADDRESS_CLAMP;
    cl_filter_mode fm = CL_FILTER_NEAREST;
    bool seen[3] = { false, false, false };
    for (const cl_sampler_properties *p = props; p && p[0]; p += 2) {
        int k = p[0] == CL_SAMPLER_NORMALIZED_COORDS ? 0 : p[0] == CL_SAMPLER_ADDRESSING_MODE ? 1
              : p[0] == CL_SAMPLER_FILTER_MODE ? 2 : -1;
        if (k < 0 || seen[k]) OCL_ERR(CL_INVALID_VALUE);
        seen[k] = true;
        if (k == 0) norm = (cl_bool)p[1];
        else if (k == 1) am = (cl_addressing_mode)p[1];
        else fm = (cl_filter_mode)p[1];
    }
    cl_sampler s = clCreateSampler(ctx, norm, am, fm, errcode_ret);
    if (s && props) {   /* kept as given, for CL_SAMPLER_PROPERTIES (at most 3 pairs, checked above) */
        uint32_t n = 0;
        while (props[n]) n += 2;
        memcpy(s->props, props, (n + 1) * sizeof *props);
        s->nprops = n + 1;
    }
    return s;
}

void ocl_sampler_destroy(cl_sampler s)
{
    cl_device_id d = ocl_device();
    if (s->addr) plat_free(&d->p, s->addr);
    cl_context ctx = s->ctx;
    ocl_obj_free(s);
    if (ocl_release_last(ctx)) ocl_free_object(ctx);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler s)
{
    if (!ocl_valid(s, OCL_SAMPLER)) return CL_INVALID_SAMPLER;
    ocl_retain(s);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler s)
{
    if (!ocl_valid(s, OCL_SAMPLER)) return CL_INVALID_SAMPLER;
    if (ocl_release_last(s)) ocl_free_object(s);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s, cl_sampler_info param, size_t size, void *value,
                                                 size_t *ret)
{
    if (!ocl_valid(s, OCL_SAMPLER)) return CL_INVALID_SAMPLER;
    switch (param) {
    case CL_SAMPLER_REFERENCE_COUNT: OCL_INFO(cl_uint, atomic_load(&s->h.refs));
    case CL_SAMPLER_CONTEXT: OCL_INFO(cl_context, s->ctx);
    case CL_SAMPLER_NORMALIZED_COORDS: OCL_INFO(cl_bool, s->normalized);
    case CL_SAMPLER_ADDRESSING_MODE: OCL_INFO(cl_addressing_mode, s->address);
    case CL_SAMPLER_FILTER_MODE: OCL_INFO(cl_filter_mode, s->filter);
    case CL_SAMPLER_PROPERTIES: return ocl_info(size, value, ret, s->props, s->nprops * sizeof *s->props);
    default: return CL_INVALID_VALUE;
    }
}
