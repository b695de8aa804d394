/* Images in device memory, shared by the OpenCL platform (images, samplers) and the HIP runtime
 * (arrays, texture and surface objects).
 *
 * An image is stored linearly: pixel (x, y, z) of a plat_image is at
 *   addr + z * slice_pitch + y * row_pitch + x * elem_size
 * where y counts rows (2D, 3D, 2D array) or the slices of a 1D array, and z counts the slices of
 * a 3D image or a 2D array. Rows start on 256-byte boundaries (the T#'s base and pitch unit); a
 * 1D buffer image is the buffer's bytes, rows of width * elem_size; an image on memory the
 * platform did not allocate (OpenCL's 2D image from a buffer, HIP's pitched 2D textures) has that
 * memory's row pitch, set after plat_image_layout.
 *
 * Channel orders and types are the HSA values (hsa_ext_image_channel_order_t / _type_t): the
 * values ROCm's image manager writes into the descriptor's metadata words and AMD's device
 * libraries read back (get_image_channel_order / _data_type map them to the CLK_ values). */
#ifndef UMBRA_PLAT_IMAGE_H
#define UMBRA_PLAT_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "platform/platform.h"

typedef enum plat_image_dim {
    PLAT_IMAGE_1D, PLAT_IMAGE_1D_BUFFER, PLAT_IMAGE_1D_ARRAY, PLAT_IMAGE_2D, PLAT_IMAGE_2D_ARRAY, PLAT_IMAGE_3D,
} plat_image_dim;

enum plat_channel_order {
    PLAT_ORDER_A = 0, PLAT_ORDER_R, PLAT_ORDER_RX, PLAT_ORDER_RG, PLAT_ORDER_RGX, PLAT_ORDER_RA, PLAT_ORDER_RGB,
    PLAT_ORDER_RGBX, PLAT_ORDER_RGBA, PLAT_ORDER_BGRA, PLAT_ORDER_ARGB, PLAT_ORDER_ABGR, PLAT_ORDER_SRGB,
    PLAT_ORDER_SRGBX, PLAT_ORDER_SRGBA, PLAT_ORDER_SBGRA, PLAT_ORDER_INTENSITY, PLAT_ORDER_LUMINANCE,
    PLAT_ORDER_DEPTH, PLAT_ORDER_DEPTH_STENCIL, PLAT_ORDER_COUNT
};

enum plat_channel_type {
    PLAT_TYPE_SNORM_INT8 = 0, PLAT_TYPE_SNORM_INT16, PLAT_TYPE_UNORM_INT8, PLAT_TYPE_UNORM_INT16,
    PLAT_TYPE_UNORM_INT24, PLAT_TYPE_UNORM_SHORT_555, PLAT_TYPE_UNORM_SHORT_565, PLAT_TYPE_UNORM_SHORT_101010,
    PLAT_TYPE_SIGNED_INT8, PLAT_TYPE_SIGNED_INT16, PLAT_TYPE_SIGNED_INT32, PLAT_TYPE_UNSIGNED_INT8,
    PLAT_TYPE_UNSIGNED_INT16, PLAT_TYPE_UNSIGNED_INT32, PLAT_TYPE_HALF_FLOAT, PLAT_TYPE_FLOAT, PLAT_TYPE_COUNT
};

typedef struct plat_image_format {
    uint32_t order, type;         /* enum plat_channel_order, enum plat_channel_type */
} plat_image_format;

/* The device's limits: ROCm's for a gfx1100 (ROCr's image limits table, CLR's OpenCL device),
 * each at least OpenCL 1.2's minimum. */
#define PLAT_IMAGE1D_MAX_WIDTH 16384u
#define PLAT_IMAGE2D_MAX_WIDTH 16384u
#define PLAT_IMAGE2D_MAX_HEIGHT 16384u
#define PLAT_IMAGE3D_MAX_WIDTH 16384u
#define PLAT_IMAGE3D_MAX_HEIGHT 16384u
#define PLAT_IMAGE3D_MAX_DEPTH 8192u
#define PLAT_IMAGE_MAX_ARRAY_SIZE 8192u
#define PLAT_IMAGE_MAX_BUFFER_SIZE (1u << 27)   /* pixels of a 1D buffer image (CLR: 1 << 27) */
#define PLAT_IMAGE_MAX_READ_ARGS 128u
#define PLAT_IMAGE_MAX_WRITE_ARGS 8u
#define PLAT_IMAGE_MAX_READ_WRITE_ARGS 64u      /* ROCr: HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES */
#define PLAT_IMAGE_MAX_SAMPLERS 16u
#define PLAT_IMAGE_PITCH_ALIGN 256u           /* bytes of a device row; also the base alignment */
/* A 2D image made from a buffer (OpenCL's cl_khr_image2d_from_buffer), in pixels, as CLR reports
 * them for gfx1100: its row pitch is a multiple of 256 pixels (so of 256 bytes, as the T# needs),
 * and a CL_MEM_USE_HOST_PTR buffer's host memory starts on a multiple of 256 pixels. */
#define PLAT_IMAGE_BUFFER_PITCH_ALIGN 256u
#define PLAT_IMAGE_BUFFER_BASE_ALIGN 256u
/* The largest row pitch a 1D/2D T# holds (its PITCH field, pitch - 1 in 14 bits), in pixels. */
#define PLAT_IMAGE_MAX_PITCH 16384u

/* The descriptor a kernel's image argument points to: the 8-dword T# (or for a 1D buffer image
 * the V# in dwords 0-3), then dword 8 the channel type, 9 the channel order, 10 the width (what
 * ROCm-Device-Libs' ockl image queries read), 11 zero. */
#define PLAT_IMAGE_DESC_DWORDS 12u

typedef struct plat_image {
    plat_image_dim dim;
    plat_image_format format;
    uint32_t elem_size, channels;
    uint64_t width, height, depth, array_size;   /* as created: unused ones are 0 */
    uint64_t rows, slices;        /* the storage's y and z extents (see above) */
    uint64_t row_pitch, slice_pitch, size;       /* device layout in bytes */
    uint64_t addr;                /* device address of pixel (0, 0, 0) */
} plat_image;

/* Bytes of one pixel and its channels; false for a combination that is no image format. */
bool plat_image_format_size(plat_image_format f, uint32_t *elem_size, uint32_t *channels);
/* The formats the device offers for images of type dim that kernels may write (kernel_writes) or
 * only read (plat_image.c lists them: CL_sRGBA is read-only, CL_DEPTH 2D and 2D-array only). */
size_t plat_image_supported_formats(plat_image_dim dim, bool kernel_writes, plat_image_format *out, size_t max);
bool plat_image_format_supported(plat_image_format f, plat_image_dim dim, bool kernel_writes);
/* Integer formats (read_imagei/ui, the fill colour is int4/uint4). */
bool plat_image_format_is_integer(plat_image_format f);
bool plat_image_format_is_signed_integer(plat_image_format f);

/* Fill im's layout (rows, slices, pitches, size) from dim, format and sizes; for a 1D buffer image
 * the row pitch is width * elem_size. False: the format is unknown. */
bool plat_image_layout(plat_image *im);

/* A box in pixels (x, y, z as above) lies inside the image. */
bool plat_image_box_inside(const plat_image *im, const uint64_t origin[3], const uint64_t region[3]);

/* Host memory <-> image box; host rows are host_row bytes apart, host slices host_slice. */
umb_status plat_image_read(umb_platform *pl, const plat_image *im, const uint64_t origin[3],
                           const uint64_t region[3], void *host, uint64_t host_row, uint64_t host_slice);
umb_status plat_image_write(umb_platform *pl, const plat_image *im, const uint64_t origin[3],
                            const uint64_t region[3], const void *host, uint64_t host_row, uint64_t host_slice);
/* Image -> image of the same format (boxes may be of one image when they do not overlap). */
umb_status plat_image_copy(umb_platform *pl, const plat_image *src, const uint64_t sorigin[3],
                           const plat_image *dst, const uint64_t dorigin[3], const uint64_t region[3]);
/* Image box <-> tightly packed bytes at a device address (buffer copies). */
umb_status plat_image_to_linear(umb_platform *pl, const plat_image *im, const uint64_t origin[3],
                                const uint64_t region[3], uint64_t dst);
umb_status plat_image_from_linear(umb_platform *pl, const plat_image *im, const uint64_t origin[3],
                                  const uint64_t region[3], uint64_t src);
/* Every pixel of the box set to one packed pixel (plat_image_pack_color). */
umb_status plat_image_fill(umb_platform *pl, const plat_image *im, const uint64_t origin[3],
                           const uint64_t region[3], const uint8_t *pixel);

/* A colour as the image stores it: color is float[4] (normalized, half and float formats),
 * int32_t[4] (signed integer formats) or uint32_t[4] (unsigned), in R, G, B, A order; the
 * conversion rounds to nearest even and saturates, as OpenCL's conversion rules for images say. */
void plat_image_pack_color(plat_image_format f, const void *color, uint8_t pixel[16]);

/* Samplers: OpenCL's three properties (and HIP's texture descriptors reduced to them). */
typedef enum plat_address_mode {
    PLAT_ADDRESS_NONE, PLAT_ADDRESS_CLAMP_TO_EDGE, PLAT_ADDRESS_CLAMP, PLAT_ADDRESS_REPEAT,
    PLAT_ADDRESS_MIRRORED_REPEAT,
} plat_address_mode;

typedef struct plat_sampler {
    bool normalized;
    plat_address_mode address;
    bool linear;                  /* filter: linear, else nearest */
} plat_sampler;

/* An S# is 4 dwords; a sampler argument points to one. */
#define PLAT_SAMPLER_DESC_DWORDS 4u

/* The descriptors kernels read (the T# and S# bit layouts are src/mem/amd_image.h's). False when
 * this build has no descriptor encoder: the words are then not usable by a kernel (the metadata
 * words 8-11 of an image's are filled either way). */
bool plat_image_descriptor(const plat_image *im, uint32_t words[PLAT_IMAGE_DESC_DWORDS]);
bool plat_sampler_descriptor(const plat_sampler *s, uint32_t words[PLAT_SAMPLER_DESC_DWORDS]);

#endif
