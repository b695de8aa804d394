/* Images in device memory: formats, layout, and the host-side commands that move their pixels
 * (read, write, copy, fill, image <-> buffer). See plat_image.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mem/amd_format.h"
#include "platform/plat_image.h"

/* ---------------- formats ---------------- */

static uint32_t type_bytes(uint32_t type)
{
    switch (type) {
    case PLAT_TYPE_SNORM_INT8: case PLAT_TYPE_UNORM_INT8: case PLAT_TYPE_SIGNED_INT8: case PLAT_TYPE_UNSIGNED_INT8:
        return 1;
    case PLAT_TYPE_SNORM_INT16: case PLAT_TYPE_UNORM_INT16: case PLAT_TYPE_SIGNED_INT16:
    case PLAT_TYPE_UNSIGNED_INT16: case PLAT_TYPE_HALF_FLOAT:
        return 2;
    case PLAT_TYPE_SIGNED_INT32: case PLAT_TYPE_UNSIGNED_INT32: case PLAT_TYPE_FLOAT: return 4;
    default: return 0;   /* packed types: the whole pixel */
    }
}

static uint32_t order_channels(uint32_t order)
{
    switch (order) {
    case PLAT_ORDER_A: case PLAT_ORDER_R: case PLAT_ORDER_RX: case PLAT_ORDER_INTENSITY: case PLAT_ORDER_LUMINANCE:
    case PLAT_ORDER_DEPTH:
        return 1;
    case PLAT_ORDER_RG: case PLAT_ORDER_RGX: case PLAT_ORDER_RA: case PLAT_ORDER_DEPTH_STENCIL: return 2;
    case PLAT_ORDER_RGB: case PLAT_ORDER_RGBX: case PLAT_ORDER_SRGB: case PLAT_ORDER_SRGBX: return 3;
    case PLAT_ORDER_RGBA: case PLAT_ORDER_BGRA: case PLAT_ORDER_ARGB: case PLAT_ORDER_ABGR: case PLAT_ORDER_SRGBA:
    case PLAT_ORDER_SBGRA:
        return 4;
    default: return 0;
    }
}

static bool packed_type(uint32_t type)
{
    return type == PLAT_TYPE_UNORM_SHORT_555 || type == PLAT_TYPE_UNORM_SHORT_565 ||
           type == PLAT_TYPE_UNORM_SHORT_101010 || type == PLAT_TYPE_UNORM_INT24;
}

bool plat_image_format_size(plat_image_format f, uint32_t *elem_size, uint32_t *channels)
{
    uint32_t n = order_channels(f.order);
    if (!n || f.type >= PLAT_TYPE_COUNT) return false;
    uint32_t size;
    if (packed_type(f.type)) {
        if (f.type == PLAT_TYPE_UNORM_INT24) return false;   /* depth formats only */
        if (f.order != PLAT_ORDER_RGB && f.order != PLAT_ORDER_RGBX) return false;
        size = f.type == PLAT_TYPE_UNORM_SHORT_101010 ? 4 : 2;
    } else {
        if (f.order == PLAT_ORDER_RGB || f.order == PLAT_ORDER_RGBX) return false;
        size = n * type_bytes(f.type);
    }
    if (elem_size) *elem_size = size;
    if (channels) *channels = n;
    return true;
}

/* What the device offers: ROCm's list for a gfx1100 (CLR's Image::getSupportedFormats over ROCr's
 * gfx11 format table): OpenCL 1.2's required formats (RGBA and BGRA of their types), the other
 * orders with a hardware format and component swizzle, CL_sRGBA (8_8_8_8_SRGB: read only, and not
 * for 1D buffer images, which the hardware reads through a buffer descriptor without sRGB) and
 * CL_DEPTH (16_UNORM, 32_FLOAT: 2D images and 2D arrays only, cl_khr_depth_images). ROCr also
 * maps CL_RGB with UNORM_SHORT_565/555, but CLR does not list them, so neither does umbra. */
static const uint32_t all_types[] = {
    PLAT_TYPE_SNORM_INT8, PLAT_TYPE_SNORM_INT16, PLAT_TYPE_UNORM_INT8, PLAT_TYPE_UNORM_INT16,
    PLAT_TYPE_SIGNED_INT8, PLAT_TYPE_SIGNED_INT16, PLAT_TYPE_SIGNED_INT32, PLAT_TYPE_UNSIGNED_INT8,
    PLAT_TYPE_UNSIGNED_INT16, PLAT_TYPE_UNSIGNED_INT32, PLAT_TYPE_HALF_FLOAT, PLAT_TYPE_FLOAT,
};
static const uint32_t byte_types[] = {
    PLAT_TYPE_SNORM_INT8, PLAT_TYPE_UNORM_INT8, PLAT_TYPE_SIGNED_INT8, PLAT_TYPE_UNSIGNED_INT8,
};
static const uint32_t norm_float_types[] = {
    PLAT_TYPE_SNORM_INT8, PLAT_TYPE_SNORM_INT16, PLAT_TYPE_UNORM_INT8, PLAT_TYPE_UNORM_INT16,
    PLAT_TYPE_HALF_FLOAT, PLAT_TYPE_FLOAT,
};
static const uint32_t packed_types[] = { PLAT_TYPE_UNORM_SHORT_101010 };
static const uint32_t srgb_types[] = { PLAT_TYPE_UNORM_INT8 };
static const uint32_t depth_types[] = { PLAT_TYPE_UNORM_INT16, PLAT_TYPE_FLOAT };

enum offer_rule { OFFER_ALL, OFFER_READ_ONLY_NOT_BUFFER, OFFER_2D_ONLY };

#define TYPES(a) a, sizeof a / sizeof *a
static const struct {
    uint32_t order;
    const uint32_t *types;
    size_t ntypes;
    enum offer_rule rule;
} offered[] = {
    { PLAT_ORDER_R, TYPES(all_types), OFFER_ALL },
    { PLAT_ORDER_A, TYPES(all_types), OFFER_ALL },
    { PLAT_ORDER_RG, TYPES(all_types), OFFER_ALL },
    { PLAT_ORDER_RA, TYPES(all_types), OFFER_ALL },
    { PLAT_ORDER_RGBA, TYPES(all_types), OFFER_ALL },
    { PLAT_ORDER_BGRA, TYPES(byte_types), OFFER_ALL },
    { PLAT_ORDER_ARGB, TYPES(byte_types), OFFER_ALL },
    { PLAT_ORDER_INTENSITY, TYPES(norm_float_types), OFFER_ALL },
    { PLAT_ORDER_LUMINANCE, TYPES(norm_float_types), OFFER_ALL },
    { PLAT_ORDER_RGB, TYPES(packed_types), OFFER_ALL },
    { PLAT_ORDER_SRGBA, TYPES(srgb_types), OFFER_READ_ONLY_NOT_BUFFER },
    { PLAT_ORDER_DEPTH, TYPES(depth_types), OFFER_2D_ONLY },
};

static bool rule_allows(enum offer_rule r, plat_image_dim dim, bool kernel_writes)
{
    switch (r) {
    case OFFER_READ_ONLY_NOT_BUFFER: return !kernel_writes && dim != PLAT_IMAGE_1D_BUFFER;
    case OFFER_2D_ONLY: return dim == PLAT_IMAGE_2D || dim == PLAT_IMAGE_2D_ARRAY;
    default: return true;
    }
}

size_t plat_image_supported_formats(plat_image_dim dim, bool kernel_writes, plat_image_format *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof offered / sizeof *offered; i++) {
        if (!rule_allows(offered[i].rule, dim, kernel_writes)) continue;
        for (size_t j = 0; j < offered[i].ntypes; j++, n++)
            if (out && n < max) out[n] = (plat_image_format){ offered[i].order, offered[i].types[j] };
    }
    return n;
}

bool plat_image_format_supported(plat_image_format f, plat_image_dim dim, bool kernel_writes)
{
    for (size_t i = 0; i < sizeof offered / sizeof *offered; i++)
        if (offered[i].order == f.order && rule_allows(offered[i].rule, dim, kernel_writes))
            for (size_t j = 0; j < offered[i].ntypes; j++)
                if (offered[i].types[j] == f.type) return true;
    return false;
}

bool plat_image_format_is_signed_integer(plat_image_format f)
{
    return f.type == PLAT_TYPE_SIGNED_INT8 || f.type == PLAT_TYPE_SIGNED_INT16 || f.type == PLAT_TYPE_SIGNED_INT32;
}

bool plat_image_format_is_integer(plat_image_format f)
{
    return plat_image_format_is_signed_integer(f) || f.type == PLAT_TYPE_UNSIGNED_INT8 ||
           f.type == PLAT_TYPE_UNSIGNED_INT16 || f.type == PLAT_TYPE_UNSIGNED_INT32;
}

/* ---------------- layout ---------------- */

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

bool plat_image_layout(plat_image *im)
{
    if (!plat_image_format_size(im->format, &im->elem_size, &im->channels)) return false;
    im->rows = im->slices = 1;
    switch (im->dim) {
    case PLAT_IMAGE_1D_ARRAY: im->rows = im->array_size; break;
    case PLAT_IMAGE_2D: im->rows = im->height; break;
    case PLAT_IMAGE_2D_ARRAY: im->rows = im->height, im->slices = im->array_size; break;
    case PLAT_IMAGE_3D: im->rows = im->height, im->slices = im->depth; break;
    default: break;
    }
    uint64_t row = im->width * im->elem_size;
    im->row_pitch = im->dim == PLAT_IMAGE_1D_BUFFER ? row : align_up(row, PLAT_IMAGE_PITCH_ALIGN);
    im->slice_pitch = im->row_pitch * im->rows;
    im->size = im->slice_pitch * im->slices;
    return true;
}

bool plat_image_box_inside(const plat_image *im, const uint64_t origin[3], const uint64_t region[3])
{
    const uint64_t ext[3] = { im->width, im->rows, im->slices };
    for (int i = 0; i < 3; i++)
        if (region[i] == 0 || origin[i] > ext[i] || region[i] > ext[i] - origin[i]) return false;
    return true;
}

/* ---------------- moving pixels ---------------- */

static uint64_t pixel_addr(const plat_image *im, const uint64_t origin[3], uint64_t y, uint64_t z)
{
    return im->addr + (origin[2] + z) * im->slice_pitch + (origin[1] + y) * im->row_pitch +
           origin[0] * im->elem_size;
}

umb_status plat_image_read(umb_platform *pl, const plat_image *im, const uint64_t origin[3],
                           const uint64_t region[3], void *host, uint64_t host_row, uint64_t host_slice)
{
    uint64_t bytes = region[0] * im->elem_size;
    for (uint64_t z = 0; z < region[2]; z++)
        for (uint64_t y = 0; y < region[1]; y++) {
            umb_status st = plat_from_device(pl, pixel_addr(im, origin, y, z),
                                             (uint8_t *)host + z * host_slice + y * host_row, bytes);
            if (st) return st;
        }
    return UMB_OK;
}

umb_status plat_image_write(umb_platform *pl, const plat_image *im, const uint64_t origin[3],
                            const uint64_t region[3], const void *host, uint64_t host_row, uint64_t host_slice)
{
    uint64_t bytes = region[0] * im->elem_size;
    for (uint64_t z = 0; z < region[2]; z++)
        for (uint64_t y = 0; y < region[1]; y++) {
            umb_status st = plat_to_device(pl, pixel_addr(im, origin, y, z),
                                           (const uint8_t *)host + z * host_slice + y * host_row, bytes);
            if (st) return st;
        }
    return UMB_OK;
}

/* Through host memory, the whole box at once (so a copy within one image reads before it writes). */
umb_status plat_image_copy(umb_platform *pl, const plat_image *src, const uint64_t sorigin[3],
                           const plat_image *dst, const uint64_t dorigin[3], const uint64_t region[3])
{
    uint64_t row = region[0] * src->elem_size, slice = row * region[1];
    uint8_t *tmp = malloc(slice * region[2]);
    if (!tmp) return UMB_ERR_NOMEM;
    umb_status st = plat_image_read(pl, src, sorigin, region, tmp, row, slice);
    if (!st) st = plat_image_write(pl, dst, dorigin, region, tmp, row, slice);
    free(tmp);
    return st;
}

umb_status plat_image_to_linear(umb_platform *pl, const plat_image *im, const uint64_t origin[3],
                                const uint64_t region[3], uint64_t dst)
{
    uint64_t row = region[0] * im->elem_size, slice = row * region[1];
    uint8_t *tmp = malloc(slice * region[2]);
    if (!tmp) return UMB_ERR_NOMEM;
    umb_status st = plat_image_read(pl, im, origin, region, tmp, row, slice);
    if (!st) st = plat_to_device(pl, dst, tmp, slice * region[2]);
    free(tmp);
    return st;
}

umb_status plat_image_from_linear(umb_platform *pl, const plat_image *im, const uint64_t origin[3],
                                  const uint64_t region[3], uint64_t src)
{
    uint64_t row = region[0] * im->elem_size, slice = row * region[1];
    uint8_t *tmp = malloc(slice * region[2]);
    if (!tmp) return UMB_ERR_NOMEM;
    umb_status st = plat_from_device(pl, src, tmp, slice * region[2]);
    if (!st) st = plat_image_write(pl, im, origin, region, tmp, row, slice);
    free(tmp);
    return st;
}

umb_status plat_image_fill(umb_platform *pl, const plat_image *im, const uint64_t origin[3],
                           const uint64_t region[3], const uint8_t *pixel)
{
    uint64_t row = region[0] * im->elem_size;
    uint8_t *tmp = malloc(row);
    if (!tmp) return UMB_ERR_NOMEM;
    for (uint64_t x = 0; x < region[0]; x++) memcpy(tmp + x * im->elem_size, pixel, im->elem_size);
    umb_status st = plat_image_write(pl, im, origin, (const uint64_t[3]){ region[0], region[1], region[2] }, tmp,
                                     0, 0);
    free(tmp);
    return st;
}

/* ---------------- colours ---------------- */

/* Round to nearest even and saturate: OpenCL's conversion of a float to a normalized channel. */
static uint32_t unorm(float v, uint32_t max)
{
    if (!(v > 0.0f)) return 0;   /* NaN too */
    if (v >= 1.0f) return max;
    return (uint32_t)rintf(v * (float)max);
}

static int32_t snorm(float v, int32_t max)
{
    if (isnan(v)) return 0;
    if (v <= -1.0f) return -max;
    if (v >= 1.0f) return max;
    return (int32_t)rintf(v * (float)max);
}

static int64_t clamp_i(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static void put(uint8_t *p, uint32_t bytes, uint32_t v) { memcpy(p, &v, bytes); }   /* little endian */

/* One channel's value as `type` stores it. */
static void pack_channel(uint32_t type, const void *color, int i, uint8_t *p)
{
    const float *f = color;
    const int32_t *s = color;
    const uint32_t *u = color;
    uint32_t fb;
    switch (type) {
    case PLAT_TYPE_SNORM_INT8: put(p, 1, (uint32_t)snorm(f[i], 127)); break;
    case PLAT_TYPE_SNORM_INT16: put(p, 2, (uint32_t)snorm(f[i], 32767)); break;
    case PLAT_TYPE_UNORM_INT8: put(p, 1, unorm(f[i], 255)); break;
    case PLAT_TYPE_UNORM_INT16: put(p, 2, unorm(f[i], 65535)); break;
    case PLAT_TYPE_SIGNED_INT8: put(p, 1, (uint32_t)clamp_i(s[i], INT8_MIN, INT8_MAX)); break;
    case PLAT_TYPE_SIGNED_INT16: put(p, 2, (uint32_t)clamp_i(s[i], INT16_MIN, INT16_MAX)); break;
    case PLAT_TYPE_SIGNED_INT32: put(p, 4, (uint32_t)s[i]); break;
    case PLAT_TYPE_UNSIGNED_INT8: put(p, 1, u[i] > UINT8_MAX ? UINT8_MAX : u[i]); break;
    case PLAT_TYPE_UNSIGNED_INT16: put(p, 2, u[i] > UINT16_MAX ? UINT16_MAX : u[i]); break;
    case PLAT_TYPE_UNSIGNED_INT32: put(p, 4, u[i]); break;
    case PLAT_TYPE_HALF_FLOAT: memcpy(&fb, &f[i], 4), put(p, 2, amd_f32_to_f16_rne(fb)); break;
    case PLAT_TYPE_FLOAT: memcpy(p, &f[i], 4); break;
    default: break;
    }
}

/* Linear to sRGB-encoded (IEC 61966-2-1), before the UNORM rounding; NaN and below 0 give 0. */
static float linear_to_srgb(float x)
{
    if (!(x > 0.0f)) return 0.0f;
    if (x >= 1.0f) return 1.0f;
    double v = x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1.0 / 2.4) - 0.055;
    return (float)v;
}

void plat_image_pack_color(plat_image_format f, const void *color, uint8_t pixel[16])
{
    memset(pixel, 0, 16);
    const float *c = color;
    if (f.type == PLAT_TYPE_UNORM_SHORT_101010) {
        put(pixel, 4, unorm(c[0], 1023) << 20 | unorm(c[1], 1023) << 10 | unorm(c[2], 1023));
        return;
    }
    if (f.order == PLAT_ORDER_SRGBA) {   /* colour encoded to sRGB, alpha linear */
        for (int k = 0; k < 4; k++) pixel[k] = (uint8_t)unorm(k < 3 ? linear_to_srgb(c[k]) : c[k], 255);
        return;
    }
    /* Which colour channel (0 R, 1 G, 2 B, 3 A) each stored channel holds, in memory order (a
     * depth image's fill colour is its first component). */
    static const int8_t layout[PLAT_ORDER_COUNT][4] = {
        [PLAT_ORDER_DEPTH] = { 0 },
        [PLAT_ORDER_A] = { 3 }, [PLAT_ORDER_R] = { 0 }, [PLAT_ORDER_RX] = { 0 }, [PLAT_ORDER_RG] = { 0, 1 },
        [PLAT_ORDER_RGX] = { 0, 1 }, [PLAT_ORDER_RA] = { 0, 3 }, [PLAT_ORDER_RGBA] = { 0, 1, 2, 3 },
        [PLAT_ORDER_BGRA] = { 2, 1, 0, 3 }, [PLAT_ORDER_ARGB] = { 3, 0, 1, 2 }, [PLAT_ORDER_ABGR] = { 3, 2, 1, 0 },
        [PLAT_ORDER_INTENSITY] = { 0 }, [PLAT_ORDER_LUMINANCE] = { 0 },
    };
    uint32_t n = order_channels(f.order), bytes = type_bytes(f.type);
    if (f.order >= PLAT_ORDER_COUNT || n == 0 || bytes == 0) return;
    for (uint32_t k = 0; k < n; k++) pack_channel(f.type, color, layout[f.order][k], pixel + k * bytes);
}
