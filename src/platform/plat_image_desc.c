/* The descriptors a kernel's image and sampler arguments point to (plat_image.h), encoded with
 * src/mem/amd_image.h (the one owner of the T# and S# bit layouts).
 *
 * Image: dwords 0-7 the T# of umbra's linear layout (amd_image.h: rows padded to 256 bytes, the
 * layout plat_image_layout gives), dwords 8-10 what ROCm's image manager writes after it and AMD's
 * device libraries read for the image queries (ROCm-Device-Libs ockl/src/image.cl: "the runtime
 * allocates 12 words for the T# or V# and fills words 8, 9, and 10"): the HSA channel type, the
 * HSA channel order, the width. A 1D buffer image has a V# in dwords 0-3 (ockl reads it with
 * buffer_load_format / buffer_store_format, index = x): stride the pixel, NUM_RECORDS the width.
 *
 * Sampler: the S# ROCm's runtime builds for a sampler object on gfx11 (ROCr's image manager):
 * clamp modes per addressing mode, FORCE_UNNORMALIZED, MAX_LOD 4095, bilinear or point XY
 * filters, no Z or mip filter, a transparent-black border, so that CL_ADDRESS_CLAMP reads
 * (0, 0, 0, 0), or (0, 0, 0, 1) through the swizzle of a format without alpha, as OpenCL says.
 * Samplers declared in a kernel are not the runtime's: clang-19 calls the device library's
 * __translate_sampler_initializer, a table of S#s in the code object, which agrees in those fields
 * and also sets DEPTH_COMPARE_FUNC, DISABLE_CUBE_WRAP, ANISO_OVERRIDE and an opaque-black border. */
#include <string.h>

#include "mem/amd_buffer.h"
#include "mem/amd_format.h"
#include "mem/amd_image.h"
#include "platform/plat_image.h"

/* The unified format whose name is `name` ("8_8_8_8_UNORM"), 0 when there is none. */
static unsigned format_by_name(const char *name)
{
    for (unsigned f = 1; f < 256; f++) {
        const amd_buf_format *bf = amd_img_format_info(f);
        if (bf && !strcmp(bf->name, name)) return f;
    }
    return 0;
}

/* The hardware format and component selects of an image format; false when the hardware format
 * is not one umbra's image executor knows (the image-only packed 16-bit formats). */
static bool hw_format(plat_image_format f, unsigned *fmt, uint8_t sel[4])
{
    static const char *const num[PLAT_TYPE_COUNT] = {
        [PLAT_TYPE_SNORM_INT8] = "SNORM", [PLAT_TYPE_SNORM_INT16] = "SNORM", [PLAT_TYPE_UNORM_INT8] = "UNORM",
        [PLAT_TYPE_UNORM_INT16] = "UNORM", [PLAT_TYPE_SIGNED_INT8] = "SINT", [PLAT_TYPE_SIGNED_INT16] = "SINT",
        [PLAT_TYPE_SIGNED_INT32] = "SINT", [PLAT_TYPE_UNSIGNED_INT8] = "UINT", [PLAT_TYPE_UNSIGNED_INT16] = "UINT",
        [PLAT_TYPE_UNSIGNED_INT32] = "UINT", [PLAT_TYPE_HALF_FLOAT] = "FLOAT", [PLAT_TYPE_FLOAT] = "FLOAT",
    };
    enum { X = AMD_SEL_X, Y = AMD_SEL_Y, Z = AMD_SEL_Z, W = AMD_SEL_W, S0 = AMD_SEL_0, S1 = AMD_SEL_1 };
    static const uint8_t sels[PLAT_ORDER_COUNT][4] = {
        [PLAT_ORDER_R] = { X, S0, S0, S1 }, [PLAT_ORDER_A] = { S0, S0, S0, X }, [PLAT_ORDER_RG] = { X, Y, S0, S1 },
        [PLAT_ORDER_RA] = { X, S0, S0, Y }, [PLAT_ORDER_RGBA] = { X, Y, Z, W }, [PLAT_ORDER_BGRA] = { Z, Y, X, W },
        [PLAT_ORDER_ARGB] = { Y, Z, W, X }, [PLAT_ORDER_INTENSITY] = { X, X, X, X },
        [PLAT_ORDER_LUMINANCE] = { X, X, X, S1 },
        /* packed: the hardware's X is the low bits, where OpenCL keeps blue */
        [PLAT_ORDER_RGB] = { Z, Y, X, S1 },
        [PLAT_ORDER_SRGBA] = { X, Y, Z, W }, [PLAT_ORDER_DEPTH] = { X, S0, S0, S1 },
    };
    uint32_t elem, channels;
    if (!plat_image_format_size(f, &elem, &channels) || f.order >= PLAT_ORDER_COUNT) return false;
    char name[32];
    if (f.type == PLAT_TYPE_UNORM_SHORT_101010) {
        strcpy(name, "2_10_10_10_UNORM");
    } else if (f.order == PLAT_ORDER_SRGBA && f.type == PLAT_TYPE_UNORM_INT8) {
        strcpy(name, "8_8_8_8_SRGB");
    } else if (f.type < PLAT_TYPE_COUNT && num[f.type]) {
        unsigned bits = elem / channels * 8;
        name[0] = 0;
        for (uint32_t c = 0; c < channels; c++)
            snprintf(name + strlen(name), sizeof name - strlen(name), "%s%u", c ? "_" : "", bits);
        snprintf(name + strlen(name), sizeof name - strlen(name), "_%s", num[f.type]);
    } else {
        return false;
    }
    *fmt = format_by_name(name);
    memcpy(sel, sels[f.order], 4);
    return *fmt != 0;
}

/* BC_SWIZZLE: where the border colour's alpha lands, from the component selects (the rule of
 * ROCr's gfx11 image manager): 0 XYZW, 1 XWYZ, 2 WZYX, 3 WXYZ, 4 ZYXW, 5 YXWZ. */
static uint8_t border_swizzle(const uint8_t sel[4])
{
    enum { X = AMD_SEL_X, Y = AMD_SEL_Y };
    uint8_t r = sel[0], g = sel[1], b = sel[2], a = sel[3];
    if (a == X) return b == Y ? 2 : (r == X && g == X && b == X) ? 0 : 3;
    if (r == X) return g == Y || (g == X && b == X && a == AMD_SEL_W) ? 0 : 1;
    if (g == X) return 5;
    if (b == X) return 4;
    return 0;
}

static unsigned img_type(plat_image_dim d)
{
    switch (d) {
    case PLAT_IMAGE_1D_ARRAY: return AMD_IMG_1D_ARRAY;
    case PLAT_IMAGE_2D: return AMD_IMG_2D;
    case PLAT_IMAGE_2D_ARRAY: return AMD_IMG_2D_ARRAY;
    case PLAT_IMAGE_3D: return AMD_IMG_3D;
    default: return AMD_IMG_1D;
    }
}

bool plat_image_descriptor(const plat_image *im, uint32_t words[PLAT_IMAGE_DESC_DWORDS])
{
    memset(words, 0, PLAT_IMAGE_DESC_DWORDS * sizeof *words);
    words[8] = im->format.type;
    words[9] = im->format.order;
    words[10] = (uint32_t)im->width;
    unsigned fmt;
    amd_tsharp t = { 0 };
    if (!hw_format(im->format, &fmt, t.dst_sel)) return false;
    if (im->dim == PLAT_IMAGE_1D_BUFFER) {   /* a structured buffer of pixels: index = x */
        amd_vsharp v = { .base = im->addr, .stride = im->elem_size, .num_records = (uint32_t)im->width,
                         .format = (uint8_t)fmt };
        memcpy(v.dst_sel, t.dst_sel, 4);
        amd_vsharp_encode(&v, words);
        return true;
    }
    t.base = im->addr;
    t.format = (uint8_t)fmt;
    t.type = (uint8_t)img_type(im->dim);
    t.sw_mode = AMD_IMG_SW_LINEAR;
    t.bc_swizzle = border_swizzle(t.dst_sel);
    t.width = (uint32_t)im->width;
    t.height = im->dim == PLAT_IMAGE_2D || im->dim == PLAT_IMAGE_2D_ARRAY || im->dim == PLAT_IMAGE_3D
                   ? (uint32_t)im->height : 1;
    if (amd_img_type_has_pitch(t.type)) amd_tsharp_set_pitch(&t, (uint32_t)(im->row_pitch / im->elem_size));
    else if (t.type == AMD_IMG_3D) t.depth = (uint16_t)(im->depth - 1);
    else t.depth = (uint16_t)(im->array_size - 1);   /* arrays: the last slice */
    amd_tsharp_encode(&t, words);
    return true;
}

bool plat_sampler_descriptor(const plat_sampler *s, uint32_t words[PLAT_SAMPLER_DESC_DWORDS])
{
    uint8_t clamp;
    switch (s->address) {
    case PLAT_ADDRESS_CLAMP_TO_EDGE: clamp = AMD_TEX_CLAMP_LAST_TEXEL; break;
    case PLAT_ADDRESS_REPEAT: clamp = AMD_TEX_WRAP; break;
    case PLAT_ADDRESS_MIRRORED_REPEAT: clamp = AMD_TEX_MIRROR; break;
    default: clamp = AMD_TEX_CLAMP_BORDER; break;   /* NONE and CLAMP: the border colour */
    }
    uint8_t filter = s->linear ? AMD_TEX_XY_BILINEAR : AMD_TEX_XY_POINT;
    amd_ssharp ss = {
        .clamp_x = clamp, .clamp_y = clamp, .clamp_z = clamp,
        .force_unnormalized = !s->normalized,
        .max_lod = 4095,
        .xy_mag_filter = filter, .xy_min_filter = filter,
        .z_filter = AMD_TEX_Z_NONE, .mip_filter = AMD_TEX_MIP_NONE,
        .border_color_type = AMD_BORDER_TRANS_BLACK,
    };
    amd_ssharp_encode(&ss, words);
    return true;
}
