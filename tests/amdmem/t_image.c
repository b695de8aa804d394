/* Image descriptors (src/mem/amd_image.c): every T# and S# field at the bit position given by
 * [ROCR] resource_gfx11.h / [MESA] ac_descriptors.c (see amd_image.h), decode and encode, and
 * umbra's linear layout. Expected dwords are built bit by bit here, by hand. */
#include <string.h>

#include "amt.h"
#include "mem/amd_image.h"

/* One T# with every field non-zero, as dwords written from the bit table. */
static void tsharp_fields(amt *t)
{
    uint32_t w[8];
    w[0] = 0x12345678u;                                  /* base[39:8] */
    w[1] = 0x9au | 2u << 13 | 1u << 15 | 0xbu << 16 | 0x3fu << 20 | 3u << 30; /* base hi, llc, big, max_mip, fmt, width lo */
    w[2] = 0x5a5u | 0x1234u << 14;                        /* width-1 hi bits, height-1 */
    w[3] = 4u | 5u << 3 | 6u << 6 | 1u << 9 | 3u << 12 | 9u << 16 | 0u << 20 | 2u << 25 | 13u << 28;
    w[4] = 0x1abcu | 1u << 13 | 0x0fedu << 16;
    w[5] = 0xau | 1u << 8 | 2u << 12 | 3u << 16 | 4u << 20 | 1u << 23 | 1u << 24 | 1u << 25 | 1u << 26 | 0x15u << 27;
    w[6] = 0x6bu | 1u << 10 | 0xcu << 11 | 2u << 15 | 1u << 17 | 1u << 19 | 1u << 20 | 1u << 21 | 1u << 22 | 1u << 23 | 0xeeu << 24;
    w[7] = 0xcafef00du;
    amd_tsharp d;
    amd_tsharp_decode(w, 8, &d);
    EQ(t, d.base, 0x9a1234567800ull);
    EQ(t, d.llc_noalloc, 2);
    EQ(t, d.big_page, 1);
    EQ(t, d.max_mip, 0xb);
    EQ(t, d.format, 0x3f);
    EQ(t, d.width, ((0x5a5u << 2) | 3u) + 1u);
    EQ(t, d.height, 0x1234u + 1u);
    EQ(t, d.dst_sel[0], 4);
    EQ(t, d.dst_sel[1], 5);
    EQ(t, d.dst_sel[2], 6);
    EQ(t, d.dst_sel[3], 1);
    EQ(t, d.base_level, 3);
    EQ(t, d.last_level, 9);
    EQ(t, d.sw_mode, 0);
    EQ(t, d.bc_swizzle, 2);
    EQ(t, d.type, AMD_IMG_2D_ARRAY);
    EQ(t, d.depth, 0x1abc);
    EQ(t, d.pitch_msb, 1);
    EQ(t, d.base_array, 0x0fed);
    EQ(t, amd_tsharp_last_array(&d), 0x1abc);
    EQ(t, d.array_pitch, 0xa);
    EQ(t, d.depth_scale, 1);
    EQ(t, d.height_scale, 2);
    EQ(t, d.width_scale, 3);
    EQ(t, d.perf_mod, 4);
    EQ(t, d.corner_samples + d.linked_resource + d.lod_hw_cnt_en + d.prt_default, 4);
    EQ(t, d.min_lod, 0x15u | 0x6bu << 5);
    EQ(t, d.iterate_256, 1);
    EQ(t, d.sample_pattern_offset, 0xc);
    EQ(t, d.max_uncompressed_block_size, 2);
    EQ(t, d.max_compressed_block_size, 1);
    EQ(t, d.meta_pipe_aligned + d.write_compress_enable + d.compression_enable + d.alpha_is_on_msb + d.color_transform, 5);
    EQ(t, d.meta_data_address, 0xcafef00dee00ull);
    uint32_t back[8];
    amd_tsharp_encode(&d, back);
    for (unsigned i = 0; i < 8; i++) EQ(t, back[i], w[i]);
    /* reserved bits (w1 12:8, 29:28; w2 13:12, 31:28; w4 15:14, 31:29; w5 7:4; w6 9:7) belong to
     * no field */
    const uint32_t r[8] = { 0, 0x1fu << 8 | 3u << 28, 3u << 12 | 0xfu << 28, 0, 3u << 14 | 7u << 29, 0xfu << 4, 7u << 7, 0 };
    amd_tsharp_decode(r, 8, &d);
    amd_tsharp_encode(&d, back);
    for (unsigned i = 0; i < 8; i++) EQ(t, back[i], 0);
    /* a 128-bit T# reads words 4..7 as zero */
    amd_tsharp_decode(w, 4, &d);
    EQ(t, d.depth | d.base_array | d.min_lod, 0);
    EQ(t, d.meta_data_address, 0);
    EQ(t, d.type, AMD_IMG_2D_ARRAY);
}

/* The widths and heights at their limits, pitch over DEPTH + PITCH_MSB, as ROCr fills them. */
static void tsharp_sizes_and_pitch(amt *t)
{
    amd_tsharp d;
    memset(&d, 0, sizeof d);
    d.width = 16384;
    d.height = 1;
    d.type = AMD_IMG_2D;
    amd_tsharp_set_pitch(&d, 16384);
    uint32_t w[8];
    amd_tsharp_encode(&d, w);
    EQ(t, w[1] >> 30, 3);                /* (16383)[1:0] */
    EQ(t, w[2] & 0xfffu, 0xfff);         /* (16383)[13:2] */
    EQ(t, (w[2] >> 14) & 0x3fffu, 0);    /* height 1 */
    EQ(t, w[4] & 0x3fffu, 0x3fff);       /* pitch-1 over bits 13:0 */
    EQ(t, amd_tsharp_pitch(&d), 16384);
    amd_tsharp_set_pitch(&d, 64);
    EQ(t, d.depth, 63);
    EQ(t, d.pitch_msb, 0);
    EQ(t, amd_tsharp_depth3d(&d), 1);
    d.type = AMD_IMG_3D;
    d.depth = 6;
    EQ(t, amd_tsharp_depth3d(&d), 7);
    EQ(t, amd_tsharp_last_array(&d), 0);
    /* base: only bits 47:8 are kept */
    d.base = 0xffff123456789affull;
    amd_tsharp_encode(&d, w);
    amd_tsharp_decode(w, 8, &d);
    EQ(t, d.base, 0xff123456789a00ull & 0xffffffffff00ull);
    OK(t, amd_img_type_valid(AMD_IMG_1D) && amd_img_type_valid(AMD_IMG_2D_MSAA_ARRAY));
    OK(t, !amd_img_type_valid(0) && !amd_img_type_valid(7));
}

/* Every S# field at its bit position, the LOD fixed-point forms. */
static void ssharp_fields(amt *t)
{
    uint32_t w[4];
    w[0] = 6u | 2u << 3 | 1u << 6 | 5u << 9 | 3u << 12 | 1u << 15 | 4u << 16 | 1u << 19 | 1u << 20 | 0x2au << 21 | 1u << 27 | 1u << 28 | 2u << 29 | 1u << 31;
    w[1] = 0x123u | 0xfffu << 12 | 7u << 24 | 9u << 28;
    w[2] = (0x4000u - 0x180u) | 0x15u << 14 | 1u << 20 | 1u << 22 | 2u << 24 | 2u << 26 | 1u << 29 | 1u << 30 | 1u << 31;
    w[3] = 0xbeefu | 0xabcu << 18 | 2u << 30;
    amd_ssharp s;
    amd_ssharp_decode(w, &s);
    EQ(t, s.clamp_x, AMD_TEX_CLAMP_BORDER);
    EQ(t, s.clamp_y, AMD_TEX_CLAMP_LAST_TEXEL);
    EQ(t, s.clamp_z, AMD_TEX_MIRROR);
    EQ(t, s.max_aniso_ratio, 5);
    EQ(t, s.depth_compare_func, AMD_CMP_LESSEQUAL);
    EQ(t, s.force_unnormalized, 1);
    EQ(t, s.aniso_threshold, 4);
    EQ(t, s.mc_coord_trunc + s.force_degamma + s.trunc_coord + s.disable_cube_wrap + s.skip_degamma, 5);
    EQ(t, s.aniso_bias, 0x2a);
    EQ(t, s.filter_mode, AMD_FILTER_MAX);
    EQ(t, s.min_lod, 0x123);
    EQ(t, s.max_lod, 0xfff);
    EQ(t, s.perf_mip, 7);
    EQ(t, s.perf_z, 9);
    EQ(t, s.lod_bias, -0x180);           /* -1.5 in s5.8 */
    OK(t, amd_lod_s5_8(s.lod_bias) == -1.5f);
    EQ(t, s.lod_bias_sec, 0x15);
    EQ(t, s.xy_mag_filter, AMD_TEX_XY_BILINEAR);
    EQ(t, s.xy_min_filter, AMD_TEX_XY_BILINEAR);
    EQ(t, s.z_filter, AMD_TEX_Z_LINEAR);
    EQ(t, s.mip_filter, AMD_TEX_MIP_LINEAR);
    EQ(t, s.aniso_override + s.blend_prt + s.deriv_adjust_en, 3);
    EQ(t, s.grad_adj, 0xbeef);
    EQ(t, s.border_color_ptr, 0xabc);
    EQ(t, s.border_color_type, AMD_BORDER_OPAQUE_WHITE);
    uint32_t back[4];
    amd_ssharp_encode(&s, back);
    for (unsigned i = 0; i < 4; i++) EQ(t, back[i], w[i]);
    EQ(t, amd_lod_to_u4_8(2.5f), 0x280);
    EQ(t, amd_lod_to_u4_8(100.0f), 0xfff);
    EQ(t, amd_lod_to_u4_8(-1.0f), 0);
    EQ(t, (uint16_t)amd_lod_to_s5_8(-40.0f), (uint16_t)-8192);
    EQ(t, amd_lod_to_s5_8(0.25f), 64);
}

/* umbra's linear layout: rows padded to 256 bytes, levels outermost, slices inside a level. */
static void linear_layout(amt *t)
{
    EQ(t, amd_img_linear_pitch(1, 4), 64);
    EQ(t, amd_img_linear_pitch(65, 4), 128);
    EQ(t, amd_img_linear_pitch(3, 16), 16);
    EQ(t, amd_img_linear_pitch(3, 12), 256);   /* 12-byte texels: 256-texel rows */
    amd_tsharp d;
    memset(&d, 0, sizeof d);
    d.type = AMD_IMG_2D_ARRAY;
    d.width = 100;
    d.height = 10;
    d.depth = 2;                      /* 3 slices */
    amd_img_level l;
    amd_img_level_layout(&d, 4, 3, 0, &l);
    EQ(t, l.pitch, 128);
    EQ(t, l.slice_bytes, 128u * 10u * 4u);
    EQ(t, l.offset, 0);
    amd_img_level_layout(&d, 4, 3, 1, &l);
    EQ(t, l.width, 50);
    EQ(t, l.height, 5);
    EQ(t, l.pitch, 64);
    EQ(t, l.offset, 3u * 128u * 10u * 4u);
    amd_img_level_layout(&d, 4, 3, 2, &l);
    EQ(t, l.offset, 3u * 128u * 10u * 4u + 3u * 64u * 5u * 4u);
    /* a 2D image takes its level-0 pitch from the descriptor */
    d.type = AMD_IMG_2D;
    amd_tsharp_set_pitch(&d, 112);
    amd_img_level_layout(&d, 4, 1, 0, &l);
    EQ(t, l.pitch, 112);
    /* 3D: the slices of a level are its depth */
    d.type = AMD_IMG_3D;
    d.depth = 3;                      /* depth 4 */
    amd_img_level_layout(&d, 4, 1, 1, &l);
    EQ(t, l.depth, 2);
    EQ(t, l.offset, 4u * 128u * 10u * 4u);
}

#define C(fn) { #fn, fn }
const amt_case amt_cases_image[] = {
    C(tsharp_fields), C(tsharp_sizes_and_pitch), C(ssharp_fields), C(linear_layout),
    { NULL, NULL },
};
