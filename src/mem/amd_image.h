/* gfx11 image resource descriptors (T#, 128 or 256 bits) and sampler descriptors (S#, 128 bits):
 * the fields as C structs, with decode (dwords -> struct) and encode (struct -> dwords), and the
 * layout helpers umbra's image executor and its OpenCL/HIP image objects share. Pure functions.
 *
 * Sources (facts only, cross-checked; see docs/MEMORY_MODEL.md §Images):
 *   [ROCR]  ROCm/ROCR-Runtime src/image/resource_gfx11.h (SQ_IMG_RSRC_WORD0..7, SQ_IMG_SAMP_WORD0..3,
 *           the SQ_RSRC_IMG_TYPE / SQ_TEX_* enums) and image_manager_gfx11.cpp (how ROCr fills them:
 *           PITCH = pitch-1 for 1D/2D, DEPTH = last slice for arrays / depth-1 for 3D, dwords 8..10
 *           = channel type, channel order, width for the device library).
 *   [MESA]  Mesa src/amd/common/ac_descriptors.c (gfx11: MAX_MIP in word1, MIN_LOD split over
 *           words 5/6, PITCH_MSB at word4 bit 13, LOD_BIAS in sampler word2 bits 13:0 as s5.8,
 *           BORDER_COLOR_PTR in sampler word3 bits 29:18).
 *
 * Bit positions are given as descriptor bits (dword n bit b = bit 32n+b).
 *
 * Stability: the structs hold the hardware fields one for one. Sizes and counts are stored as
 * their natural values where the hardware stores value-1 (width, height); fields whose meaning
 * depends on TYPE (DEPTH: pitch-1 / depth-1 / last slice) are kept raw and read through the
 * helpers below, so that decode(encode(x)) == x for every field value the hardware can hold. */
#ifndef UMBRA_AMD_IMAGE_H
#define UMBRA_AMD_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

/* ---- T# --------------------------------------------------------------------------------- */

/* TYPE (word3 31:28). 0..7 are buffer/reserved types: an image instruction given one faults. */
enum amd_img_type {
    AMD_IMG_1D = 8,
    AMD_IMG_2D = 9,
    AMD_IMG_3D = 10,
    AMD_IMG_CUBE = 11,          /* cube and cube array (6 faces per slice) */
    AMD_IMG_1D_ARRAY = 12,
    AMD_IMG_2D_ARRAY = 13,
    AMD_IMG_2D_MSAA = 14,
    AMD_IMG_2D_MSAA_ARRAY = 15,
};

/* SW_MODE (word3 24:20): 0 is SW_LINEAR, the only memory layout umbra implements. */
enum { AMD_IMG_SW_LINEAR = 0 };

typedef struct amd_tsharp {
    /* word0, word1 */
    uint64_t base;          /* byte address: word0 = base[39:8], word1[7:0] = base[47:40];
                             * 256-byte aligned (base[7:0] is not stored; word0 bits 7:0 would be
                             * tile-swizzle bits of tiled modes) */
    uint8_t llc_noalloc;    /* 46:45 (cache hint only) */
    uint8_t big_page;       /* 47 (hint only) */
    uint8_t max_mip;        /* 51:48: number of mip levels - 1 of the resource (MSAA: log2 samples) */
    uint8_t format;         /* 59:52: gfx11 unified format (1..63 as buffers, 64.. image-only) */
    /* word1[31:30] + word2[11:0]: WIDTH-1 (14 bits) */
    uint32_t width;         /* texels, 1..16384 */
    uint32_t height;        /* 91:78 HEIGHT-1; texels, 1..16384 */
    /* word3 */
    uint8_t dst_sel[4];     /* 98:96 X, 101:99 Y, 104:102 Z, 107:105 W: AMD_SEL_0/1/X/Y/Z/W */
    uint8_t base_level;     /* 111:108 */
    uint8_t last_level;     /* 115:112 */
    uint8_t sw_mode;        /* 120:116 */
    uint8_t bc_swizzle;     /* 123:121: border colour swizzle (0 XYZW ... 5 YXWZ) */
    uint8_t type;           /* 127:124: enum amd_img_type */
    /* word4 (256-bit T# only; a 128-bit T# reads as if words 4..7 were 0) */
    uint16_t depth;         /* 140:128 DEPTH, raw: 3D: depth-1; arrays/cube: last slice;
                             * 1D/2D/2D MSAA: (pitch-1)[12:0] */
    uint8_t pitch_msb;      /* 141: (pitch-1)[13] for 1D/2D/2D MSAA */
    uint16_t base_array;    /* 156:144: first array slice */
    /* word5 */
    uint8_t array_pitch;    /* 163:160 (3D as 2D array views; umbra: must be 0) */
    uint8_t depth_scale, height_scale, width_scale; /* 171:168, 175:172, 179:176 (PRT only) */
    uint8_t perf_mod;       /* 182:180 */
    uint8_t corner_samples; /* 183 */
    uint8_t linked_resource;/* 184 */
    uint8_t lod_hw_cnt_en;  /* 185 */
    uint8_t prt_default;    /* 186 */
    uint16_t min_lod;       /* 191:187 (low 5) + 198:192 (high 7): u4.8 resource min LOD */
    /* word6, word7 */
    uint8_t iterate_256;    /* 202 */
    uint8_t sample_pattern_offset; /* 206:203 */
    uint8_t max_uncompressed_block_size, max_compressed_block_size; /* 208:207, 210:209 */
    uint8_t meta_pipe_aligned;     /* 211 */
    uint8_t write_compress_enable; /* 212 */
    uint8_t compression_enable;    /* 213: DCC; umbra: must be 0 */
    uint8_t alpha_is_on_msb;       /* 214 */
    uint8_t color_transform;       /* 215 */
    uint64_t meta_data_address;    /* 223:216 = addr[15:8], 255:224 = addr[47:16] */
} amd_tsharp;

/* Decode a T#. `dwords` is 4 (R128) or 8; with 4, words 4..7 read as zero. */
void amd_tsharp_decode(const uint32_t *w, unsigned dwords, amd_tsharp *t);
/* Encode a T# into 8 dwords (a 128-bit T# is w[0..3]). Fields are masked to their widths;
 * base[7:0] is dropped (the caller keeps the base 256-byte aligned). */
void amd_tsharp_encode(const amd_tsharp *t, uint32_t w[8]);

/* Type predicates. */
static inline bool amd_img_type_valid(unsigned type) { return type >= AMD_IMG_1D && type <= AMD_IMG_2D_MSAA_ARRAY; }
static inline bool amd_img_type_arrayed(unsigned type)
{
    return type == AMD_IMG_1D_ARRAY || type == AMD_IMG_2D_ARRAY || type == AMD_IMG_2D_MSAA_ARRAY ||
           type == AMD_IMG_CUBE;
}
/* Does word4's DEPTH field hold pitch-1 (1D, 2D, 2D MSAA)? */
static inline bool amd_img_type_has_pitch(unsigned type)
{
    return type == AMD_IMG_1D || type == AMD_IMG_2D || type == AMD_IMG_2D_MSAA;
}

/* Row pitch in texels of mip level 0: (pitch_msb:depth)+1 for 1D/2D/2D MSAA; for the other
 * types the hardware derives it, and umbra's linear layout uses amd_img_linear_pitch(). */
uint32_t amd_tsharp_pitch(const amd_tsharp *t);
/* Set the PITCH field (1D/2D/2D MSAA). pitch in texels, 1..16384. */
void amd_tsharp_set_pitch(amd_tsharp *t, uint32_t pitch);
/* Depth of mip level 0 of a 3D image (DEPTH+1), 1 for other types. */
static inline uint32_t amd_tsharp_depth3d(const amd_tsharp *t) { return t->type == AMD_IMG_3D ? t->depth + 1u : 1u; }
/* Last array slice (arrays, cube: DEPTH; cube counts faces), 0 for other types. */
static inline uint32_t amd_tsharp_last_array(const amd_tsharp *t) { return amd_img_type_arrayed(t->type) ? t->depth : 0u; }

/* ---- umbra's linear (SW_LINEAR) layout ---------------------------------------------------- *
 * Mip levels are outermost, then slices (array slice, cube face, or 3D depth slice), then rows:
 *     texel (x, y, s) of level l is at base + level_offset(l) + s * slice_bytes(l)
 *                                        + y * pitch_l * bpe + x * bpe
 * with, for level l: w_l = max(1, width >> l), h_l = max(1, height >> l), d_l = max(1, depth >> l)
 * (3D), pitch_l = the PITCH field for level 0 of 1D/2D/2D MSAA, amd_img_linear_pitch(w_l, bpe)
 * otherwise, slice_bytes(l) = pitch_l * h_l * bpe, and level_offset(l) = the sum over k < l of
 * slice_bytes(k) * slices_k (slices_k = the array size, or d_k for 3D). Tiled SW_MODEs are not
 * implemented: an image instruction given one faults. */

/* Row pitch in texels of a linear row of `w` texels: rows are padded to 256 bytes when bpe
 * divides 256, else (12-byte texels) to 256 texels. */
uint32_t amd_img_linear_pitch(uint32_t w, uint32_t bpe);

typedef struct amd_img_level {
    uint32_t width, height, depth; /* of the level (depth: 3D only, else 1) */
    uint32_t pitch;                /* texels per row */
    uint64_t slice_bytes;          /* bytes per slice (one 2D plane) */
    uint64_t offset;               /* from base to slice 0 of the level */
} amd_img_level;

/* Layout of mip level `level` (absolute level number, 0 = the resource's level 0) of a linear
 * image with `slices` array slices (1 when not arrayed; cube: 6 * cubes) and texels of `bpe`
 * bytes. */
void amd_img_level_layout(const amd_tsharp *t, uint32_t bpe, uint32_t slices, unsigned level,
                          amd_img_level *out);

/* ---- S# --------------------------------------------------------------------------------- */

/* CLAMP_X/Y/Z (SQ_TEX_CLAMP). */
enum amd_tex_clamp {
    AMD_TEX_WRAP = 0,
    AMD_TEX_MIRROR = 1,
    AMD_TEX_CLAMP_LAST_TEXEL = 2,
    AMD_TEX_MIRROR_ONCE_LAST_TEXEL = 3,
    AMD_TEX_CLAMP_HALF_BORDER = 4,
    AMD_TEX_MIRROR_ONCE_HALF_BORDER = 5,
    AMD_TEX_CLAMP_BORDER = 6,
    AMD_TEX_MIRROR_ONCE_BORDER = 7,
};
/* XY_MAG_FILTER / XY_MIN_FILTER (SQ_TEX_XY_FILTER). */
enum { AMD_TEX_XY_POINT = 0, AMD_TEX_XY_BILINEAR = 1, AMD_TEX_XY_ANISO_POINT = 2, AMD_TEX_XY_ANISO_BILINEAR = 3 };
/* Z_FILTER (SQ_TEX_Z_FILTER). */
enum { AMD_TEX_Z_NONE = 0, AMD_TEX_Z_POINT = 1, AMD_TEX_Z_LINEAR = 2 };
/* MIP_FILTER (SQ_TEX_MIP_FILTER). */
enum { AMD_TEX_MIP_NONE = 0, AMD_TEX_MIP_POINT = 1, AMD_TEX_MIP_LINEAR = 2, AMD_TEX_MIP_POINT_ANISO_ADJ = 3 };
/* BORDER_COLOR_TYPE (SQ_TEX_BORDER_COLOR). */
enum { AMD_BORDER_TRANS_BLACK = 0, AMD_BORDER_OPAQUE_BLACK = 1, AMD_BORDER_OPAQUE_WHITE = 2, AMD_BORDER_REGISTER = 3 };
/* DEPTH_COMPARE_FUNC (SQ_TEX_DEPTH_COMPARE). */
enum {
    AMD_CMP_NEVER = 0, AMD_CMP_LESS = 1, AMD_CMP_EQUAL = 2, AMD_CMP_LESSEQUAL = 3,
    AMD_CMP_GREATER = 4, AMD_CMP_NOTEQUAL = 5, AMD_CMP_GREATEREQUAL = 6, AMD_CMP_ALWAYS = 7,
};
/* FILTER_MODE (SQ_IMG_FILTER_TYPE). */
enum { AMD_FILTER_BLEND = 0, AMD_FILTER_MIN = 1, AMD_FILTER_MAX = 2 };

typedef struct amd_ssharp {
    /* word0 */
    uint8_t clamp_x, clamp_y, clamp_z; /* 2:0, 5:3, 8:6 */
    uint8_t max_aniso_ratio;    /* 11:9 */
    uint8_t depth_compare_func; /* 14:12 */
    uint8_t force_unnormalized; /* 15: coordinates are in texels */
    uint8_t aniso_threshold;    /* 18:16 */
    uint8_t mc_coord_trunc;     /* 19 */
    uint8_t force_degamma;      /* 20 */
    uint8_t aniso_bias;         /* 26:21 */
    uint8_t trunc_coord;        /* 27 */
    uint8_t disable_cube_wrap;  /* 28 */
    uint8_t filter_mode;        /* 30:29 */
    uint8_t skip_degamma;       /* 31 */
    /* word1 */
    uint16_t min_lod;           /* 43:32, u4.8 */
    uint16_t max_lod;           /* 55:44, u4.8 */
    uint8_t perf_mip;           /* 59:56 */
    uint8_t perf_z;             /* 63:60 */
    /* word2 */
    int16_t lod_bias;           /* 77:64, s5.8 (two's complement, 14 bits) */
    uint8_t lod_bias_sec;       /* 83:78, s1.4 */
    uint8_t xy_mag_filter;      /* 85:84 */
    uint8_t xy_min_filter;      /* 87:86 */
    uint8_t z_filter;           /* 89:88 */
    uint8_t mip_filter;         /* 91:90 */
    uint8_t aniso_override;     /* 93 */
    uint8_t blend_prt;          /* 94 */
    uint8_t deriv_adjust_en;    /* 95 */
    /* word3 */
    uint16_t grad_adj;          /* 111:96 */
    uint16_t border_color_ptr;  /* 125:114: index into the border-colour table */
    uint8_t border_color_type;  /* 127:126 */
} amd_ssharp;

void amd_ssharp_decode(const uint32_t w[4], amd_ssharp *s);
void amd_ssharp_encode(const amd_ssharp *s, uint32_t w[4]);

/* Fixed-point LOD helpers: u4.8 (min/max LOD) and s5.8 (bias) <-> float. */
static inline float amd_lod_u4_8(uint16_t v) { return (float)(v & 0xfffu) / 256.0f; }
static inline float amd_lod_s5_8(int16_t v) { return (float)v / 256.0f; }
uint16_t amd_lod_to_u4_8(float lod);  /* clamped to [0, 15.996] */
int16_t amd_lod_to_s5_8(float bias);  /* clamped to [-32, 31.996] */

#endif
