/* Image descriptors (src/mem/amd_image.c): every T# and S# field at the bit position given by
 * [ROCR] resource_gfx11.h / [MESA] ac_descriptors.c (see amd_image.h), decode and encode, and
 * umbra's linear layout. Expected dwords are built bit by bit here, by hand. */
#include <math.h>
#include <string.h>

#include "amt.h"
#include "mem/amd_format.h"
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

/* ======================================================================================== *
 * Instructions: llvm-mc-19 encodes them, the test builds T#/S# with amd_tsharp_encode /
 * amd_ssharp_encode, and the expected values come from small C references written here.
 * ======================================================================================== */

#define IMG 0x100000ull

static uint32_t fbits32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* A linear image at IMG: type, format (unified), size; identity DST_SEL. */
static amd_tsharp mkt(unsigned type, unsigned fmt, uint32_t w, uint32_t h, uint32_t depth_field)
{
    amd_tsharp d;
    memset(&d, 0, sizeof d);
    d.base = IMG;
    d.type = (uint8_t)type;
    d.format = (uint8_t)fmt;
    d.width = w;
    d.height = h;
    d.dst_sel[0] = SX; d.dst_sel[1] = SX + 1; d.dst_sel[2] = SX + 2; d.dst_sel[3] = SX + 3;
    d.depth = (uint16_t)depth_field;
    return d;
}

static void put_t(amt *t, unsigned n, const amd_tsharp *d)
{
    uint32_t w[8];
    amd_tsharp_encode(d, w);
    for (unsigned i = 0; i < 8; i++) amt_s(t, n + i, w[i]);
}

static void put_s(amt *t, unsigned n, const amd_ssharp *s)
{
    uint32_t w[4];
    amd_ssharp_encode(s, w);
    for (unsigned i = 0; i < 4; i++) amt_s(t, n + i, w[i]);
}

static void img_begin(amt *t, unsigned ws)
{
    amt_begin(t, ws);
    amt_map(t, IMG, 0x100000);
    amt_s(t, 126, 0xffffffffu);
    amt_s(t, 127, ws == 64 ? 0xffffffffu : 0);
}

/* 8_8_8_8_UNORM (42) 2D image, pitch 64 texels: byte (x, y, c) = x*16 + y*4 + c + 1 (mod 256). */
static uint8_t rgba_byte(unsigned x, unsigned y, unsigned c) { return (uint8_t)(x * 16u + y * 4u + c + 1u); }

static void load_store_2d(amt *t, unsigned ws)
{
    img_begin(t, ws);
    amd_tsharp d = mkt(AMD_IMG_2D, 42, 5, 3, 0);
    amd_tsharp_set_pitch(&d, 64);
    put_t(t, 0, &d);
    for (unsigned y = 0; y < 3; y++)
        for (unsigned x = 0; x < 5; x++)
            for (unsigned c = 0; c < 4; c++) amt_w8(t, IMG + (y * 64u + x) * 4u + c, rgba_byte(x, y, c));
    /* lane l reads (l % 7 - 1, l / 7 - 0): x = -1 and x = 5 are out of range */
    for (unsigned l = 0; l < ws; l++) {
        amt_v(t, 0, l, (uint32_t)((int)(l % 7u) - 1));
        amt_v(t, 1, l, l / 7u);
    }
    amt_code(t, "image_load v[4:7], v[0:1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm\n"
                "image_load v[8:9], v[0:1], s[0:7] dmask:0xa dim:SQ_RSRC_IMG_2D unorm\n"
                "image_load v10, v[0:1], s[0:7] dmask:0x3 dim:SQ_RSRC_IMG_2D d16");
    RUNS(t);
    for (unsigned l = 0; l < ws; l++) {
        int x = (int)(l % 7u) - 1, y = (int)(l / 7u);
        bool in = x >= 0 && x < 5 && y < 3;
        for (unsigned c = 0; c < 4; c++) {
            float want = in ? (float)rgba_byte((unsigned)x, (unsigned)y, c) / 255.0f : 0.0f;
            EQ(t, amt_gv(t, 4 + c, l), fbits32(want));
        }
        EQ(t, amt_gv(t, 8, l), in ? fbits32((float)rgba_byte((unsigned)x, (unsigned)y, 1) / 255.0f) : 0);
        EQ(t, amt_gv(t, 9, l), in ? fbits32((float)rgba_byte((unsigned)x, (unsigned)y, 3) / 255.0f) : 0);
        if (in) {
            uint32_t h = amt_gv(t, 10, l);
            uint32_t want_lo = amd_f32_to_f16_rne(fbits32((float)rgba_byte((unsigned)x, (unsigned)y, 0) / 255.0f));
            /* D16 of an 8-bit UNORM: the f16 nearest b/255 (one f16 ulp of slack for the f32 step) */
            OK(t, (h & 0xffffu) + 1u >= want_lo && (h & 0xffffu) <= want_lo + 1u);
        } else {
            EQ(t, amt_gv(t, 10, l), 0);
        }
    }
    /* stores: lane l writes texel (l % 5, l / 5 % 3) with floats l/64, 0.5, 1.0, 2.0 (clamped) */
    for (unsigned l = 0; l < ws; l++) {
        amt_v(t, 0, l, l % 5u);
        amt_v(t, 1, l, l / 5u % 3u);
        amt_v(t, 4, l, fbits32((float)l / 64.0f));
        amt_v(t, 5, l, fbits32(0.5f));
        amt_v(t, 6, l, fbits32(1.0f));
        amt_v(t, 7, l, fbits32(2.0f));
    }
    /* only the lanes whose texel no later lane writes: the order of lanes is not specified */
    uint64_t em = 0;
    for (unsigned l = 0; l < ws; l++) if (l + 15u >= ws) em |= 1ull << l;
    amt_s(t, 126, (uint32_t)em);
    amt_s(t, 127, (uint32_t)(em >> 32));
    amt_code(t, "image_store v[4:7], v[0:1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm");
    RUNS(t);
    for (unsigned l = 0; l < ws; l++) {
        if (!(em >> l & 1)) continue;
        uint64_t a = IMG + ((l / 5u % 3u) * 64u + l % 5u) * 4u;
        EQ(t, amt_r8(t, a), (uint8_t)lrintf((float)l / 64.0f * 255.0f));
        EQ(t, amt_r8(t, a + 1), 128);
        EQ(t, amt_r8(t, a + 2), 255);
        EQ(t, amt_r8(t, a + 3), 255);
    }
}
static void img_load_store_2d_w32(amt *t) { load_store_2d(t, 32); }
static void img_load_store_2d_w64(amt *t) { load_store_2d(t, 64); }

/* Integer stores saturate to the component's range (D3D11.3 3.2.3.13; docs/MEMORY_MODEL.md
 * §12a): 8_8_8_8_UINT (46), 16_16_SINT (28) and, through D16 halves, 8_8_8_8_SINT (47); lane l
 * writes texel l of a 32 x 1 image. 32-bit components are copied. */
static void img_store_int_saturate(amt *t)
{
    static const uint32_t u_in[8] = { 0, 255, 256, 65535, 7271820, 0x80000000u, 0xffffffffu, 17 };
    static const uint8_t u_out[8] = { 0, 255, 255, 255, 255, 255, 255, 17 };
    static const int32_t s_in[8] = { 0, 32767, 32768, -32768, -32769, INT32_MIN, INT32_MAX, -5 };
    static const int16_t s_out[8] = { 0, 32767, 32767, -32768, -32768, -32768, 32767, -5 };
    static const int16_t h_in[8] = { 0, 127, 128, -128, -129, INT16_MIN, INT16_MAX, -7 };
    static const int8_t h_out[8] = { 0, 127, 127, -128, -128, -128, 127, -7 };
    img_begin(t, 32);
    amd_tsharp u = mkt(AMD_IMG_2D, 46, 32, 1, 0), sg = mkt(AMD_IMG_2D, 28, 32, 1, 0), h = mkt(AMD_IMG_2D, 47, 32, 1, 0);
    sg.base = IMG + 0x1000;
    h.base = IMG + 0x2000;
    amd_tsharp_set_pitch(&u, 64), amd_tsharp_set_pitch(&sg, 64), amd_tsharp_set_pitch(&h, 64);
    put_t(t, 0, &u), put_t(t, 8, &sg), put_t(t, 16, &h);
    for (unsigned l = 0; l < 32; l++) {
        unsigned a = l % 8u, b = (l + 3u) % 8u;
        amt_v(t, 0, l, l);
        amt_v(t, 1, l, 0);
        for (unsigned c = 0; c < 4; c++) amt_v(t, 4 + c, l, u_in[(a + c) % 8u]);
        amt_v(t, 8, l, (uint32_t)s_in[a]);
        amt_v(t, 9, l, (uint32_t)s_in[b]);
        amt_v(t, 10, l, (uint32_t)(uint16_t)h_in[a] | (uint32_t)(uint16_t)h_in[b] << 16);
        amt_v(t, 11, l, (uint32_t)(uint16_t)h_in[(a + 2u) % 8u] | (uint32_t)(uint16_t)h_in[(a + 5u) % 8u] << 16);
    }
    amt_code(t, "image_store v[4:7], v[0:1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm\n"
                "image_store v[8:9], v[0:1], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm\n"
                "image_store v[10:11], v[0:1], s[16:23] dmask:0xf dim:SQ_RSRC_IMG_2D unorm d16");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        unsigned a = l % 8u, b = (l + 3u) % 8u;
        for (unsigned c = 0; c < 4; c++) EQ(t, amt_r8(t, IMG + l * 4u + c), u_out[(a + c) % 8u]);
        EQ(t, amt_r16(t, IMG + 0x1000 + l * 4u), (uint16_t)s_out[a]);
        EQ(t, amt_r16(t, IMG + 0x1000 + l * 4u + 2), (uint16_t)s_out[b]);
        EQ(t, amt_r8(t, IMG + 0x2000 + l * 4u), (uint8_t)h_out[a]);
        EQ(t, amt_r8(t, IMG + 0x2000 + l * 4u + 1), (uint8_t)h_out[b]);
        EQ(t, amt_r8(t, IMG + 0x2000 + l * 4u + 2), (uint8_t)h_out[(a + 2u) % 8u]);
        EQ(t, amt_r8(t, IMG + 0x2000 + l * 4u + 3), (uint8_t)h_out[(a + 5u) % 8u]);
    }
}

/* DST_SEL on loads (and its inverse on stores), a 2-component format, DMASK packing, TFE. */
static void img_swizzle_dmask_tfe(amt *t)
{
    img_begin(t, 32);
    amd_tsharp d = mkt(AMD_IMG_1D, 50 /* 32_32_FLOAT */, 8, 1, 0);
    amd_tsharp_set_pitch(&d, 64);
    d.dst_sel[0] = SX + 1; d.dst_sel[1] = SX; d.dst_sel[2] = 0; d.dst_sel[3] = 1;   /* Y X 0 1 */
    put_t(t, 0, &d);
    for (unsigned x = 0; x < 8; x++) {
        amt_w32(t, IMG + 8 * x, fbits32((float)x));
        amt_w32(t, IMG + 8 * x + 4, fbits32(100.0f + (float)x));
    }
    for (unsigned l = 0; l < 32; l++) amt_v(t, 0, l, l % 8u);
    amt_vall(t, 9, 0xdeadbeef);
    amt_code(t, "image_load v[4:7], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D unorm\n"
                "image_load v[8:9], v0, s[0:7] dmask:0x8 dim:SQ_RSRC_IMG_1D tfe\n"
                "image_load v[10:11], v0, s[0:7] dmask:0x6 dim:SQ_RSRC_IMG_1D");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        unsigned x = l % 8u;
        EQ(t, amt_gv(t, 4, l), fbits32(100.0f + (float)x));
        EQ(t, amt_gv(t, 5, l), fbits32((float)x));
        EQ(t, amt_gv(t, 6, l), 0);
        EQ(t, amt_gv(t, 7, l), fbits32(1.0f));
        EQ(t, amt_gv(t, 8, l), fbits32(1.0f));
        EQ(t, amt_gv(t, 9, l), 0);                  /* TFE status */
        EQ(t, amt_gv(t, 10, l), fbits32((float)x)); /* dmask 0x6: components 1 and 2 */
        EQ(t, amt_gv(t, 11, l), 0);
    }
    /* store through the same swizzle: register X (dst_sel Y) goes to memory Y */
    for (unsigned l = 0; l < 8; l++) {
        amt_v(t, 0, l, l);
        amt_v(t, 4, l, fbits32(-1.0f - (float)l));
        amt_v(t, 5, l, fbits32(-50.0f));
    }
    amt_s(t, 126, 0xff);
    amt_code(t, "image_store v[4:5], v0, s[0:7] dmask:0x3 dim:SQ_RSRC_IMG_1D");
    RUNS(t);
    for (unsigned x = 0; x < 8; x++) {
        EQ(t, amt_r32(t, IMG + 8 * x), fbits32(-50.0f));
        EQ(t, amt_r32(t, IMG + 8 * x + 4), fbits32(-1.0f - (float)x));
    }
}

/* A 2D array with mips: umbra's linear layout, image_load_mip / image_store_mip, BASE_ARRAY,
 * BASE_LEVEL, out-of-range slices and levels. 16_UINT (11), 8x4, 3 slices, levels 0..2. */
static uint64_t layout_addr(const amd_tsharp *d, unsigned bpe, unsigned slices, unsigned lv, unsigned x, unsigned y, unsigned s)
{
    amd_img_level l;
    amd_img_level_layout(d, bpe, slices, lv, &l);
    return d->base + l.offset + s * l.slice_bytes + ((uint64_t)y * l.pitch + x) * bpe;
}

static void img_array_mips(amt *t)
{
    img_begin(t, 64);
    amd_tsharp d = mkt(AMD_IMG_2D_ARRAY, 11, 8, 4, 2);
    d.last_level = 2;
    put_t(t, 0, &d);
    for (unsigned lv = 0; lv < 3; lv++)
        for (unsigned s = 0; s < 3; s++)
            for (unsigned y = 0; y < (4u >> lv); y++)
                for (unsigned x = 0; x < (8u >> lv); x++) {
                    uint64_t a = layout_addr(&d, 2, 3, lv, x, y, s);
                    uint16_t v = (uint16_t)(lv * 1000 + s * 100 + y * 10 + x);
                    amt_w8(t, a, (uint8_t)v);
                    amt_w8(t, a + 1, (uint8_t)(v >> 8));
                }
    /* lane: x = l % 8, y = l / 8 % 4, slice = l / 32 + (l % 3 == 0 ? 2 : 0), mip = l % 3 */
    for (unsigned l = 0; l < 64; l++) {
        amt_v(t, 0, l, l % 8u);
        amt_v(t, 1, l, l / 8u % 4u);
        amt_v(t, 2, l, l / 32u + (l % 3u == 0 ? 2u : 0u));
        amt_v(t, 3, l, l % 3u);
    }
    amt_code(t, "image_load_mip v5, v[0:3], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY\n"
                "image_load v6, v[0:2], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY");
    RUNS(t);
    for (unsigned l = 0; l < 64; l++) {
        unsigned x = l % 8u, y = l / 8u % 4u, s = l / 32u + (l % 3u == 0 ? 2u : 0u), lv = l % 3u;
        bool in = s < 3 && x < (8u >> lv) && y < (4u >> lv);
        EQ(t, amt_gv(t, 5, l), in ? lv * 1000 + s * 100 + y * 10 + x : 0);
        EQ(t, amt_gv(t, 6, l), s < 3 ? s * 100 + y * 10 + x : 0);
    }
    /* BASE_ARRAY 1, BASE_LEVEL 1: slice 0 / mip 0 of the view is slice 1 / level 1 */
    d.base_array = 1;
    d.base_level = 1;
    put_t(t, 0, &d);
    amt_code(t, "image_load_mip v5, v[0:3], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY\n"
                "image_store_mip v7, v[0:3], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY");
    amt_vall(t, 7, 0xbeef);
    for (unsigned l = 0; l < 64; l++) { amt_v(t, 0, l, 1); amt_v(t, 1, l, 0); amt_v(t, 2, l, l == 5 ? 1u : 9u); amt_v(t, 3, l, l == 5 ? 1u : 0u); }
    amt_s(t, 126, 1u << 5);
    amt_s(t, 127, 0);
    RUNS(t);
    EQ(t, amt_gv(t, 5, 5), 2000 + 200 + 1);   /* level 2 is 2x1 */
    EQ(t, amt_r16(t, layout_addr(&d, 2, 3, 2, 1, 0, 2)), 0xbeef);
}

/* Cube images without a sampler: image_load and image_store address (x, y, face) as a 2D array
 * of 6 faces (ROCm's ockl uses them for surfCubemap*: face = the third coordinate); a face past
 * the last reads 0 and is not written; get_resinfo counts cubes (faces / 6). */
static void img_cube_load_store(amt *t)
{
    img_begin(t, 32);
    amd_tsharp d = mkt(AMD_IMG_CUBE, 11, 4, 4, 5);   /* 16_UINT, 4 x 4 faces, faces 0..5 */
    put_t(t, 0, &d);
    for (unsigned f = 0; f < 6; f++)
        for (unsigned y = 0; y < 4; y++)
            for (unsigned x = 0; x < 4; x++) {
                uint64_t a = layout_addr(&d, 2, 6, 0, x, y, f);
                uint16_t v = (uint16_t)(f * 100 + y * 10 + x);
                amt_w8(t, a, (uint8_t)v);
                amt_w8(t, a + 1, (uint8_t)(v >> 8));
            }
    /* lane l: x = l % 4, y = l / 4 % 4, face = l % 7 (6: past the last face) */
    for (unsigned l = 0; l < 32; l++) {
        amt_v(t, 0, l, l % 4u);
        amt_v(t, 1, l, l / 4u % 4u);
        amt_v(t, 2, l, l % 7u);
        amt_v(t, 8, l, 5000u + l);
    }
    amt_code(t, "image_load v5, v[0:2], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_CUBE\n"
                "image_get_resinfo v[10:13], v3, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_CUBE");
    amt_vall(t, 3, 0);
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        unsigned x = l % 4u, y = l / 4u % 4u, f = l % 7u;
        EQ(t, amt_gv(t, 5, l), f < 6 ? f * 100 + y * 10 + x : 0);
    }
    EQ(t, amt_gv(t, 10, 0), 4);
    EQ(t, amt_gv(t, 11, 0), 4);
    EQ(t, amt_gv(t, 12, 0), 1);   /* one cube */
    EQ(t, amt_gv(t, 13, 0), 1);   /* one level */
    /* lanes 0..6 store 5000 + l at (1, 2, face l): faces 0-5 written, face 6 dropped */
    for (unsigned l = 0; l < 32; l++) { amt_v(t, 0, l, 1); amt_v(t, 1, l, 2); amt_v(t, 2, l, l); }
    amt_s(t, 126, 0x7fu);
    amt_code(t, "image_store v8, v[0:2], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_CUBE");
    RUNS(t);
    for (unsigned f = 0; f < 6; f++) EQ(t, amt_r16(t, layout_addr(&d, 2, 6, 0, 1, 2, f)), 5000 + f);
    EQ(t, amt_r16(t, layout_addr(&d, 2, 6, 0, 2, 2, 5)), 5 * 100 + 2 * 10 + 2);   /* its neighbour untouched */
}

/* image_get_resinfo: width, height, slices, levels of BASE_LEVEL + mip. */
static void img_resinfo(amt *t)
{
    img_begin(t, 32);
    amd_tsharp d = mkt(AMD_IMG_2D_ARRAY, 22, 20, 9, 4);
    d.base_level = 1;
    d.last_level = 3;
    d.base_array = 1;
    put_t(t, 0, &d);
    for (unsigned l = 0; l < 32; l++) amt_v(t, 0, l, l % 4u);
    amt_code(t, "image_get_resinfo v[4:7], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY\n"
                "image_get_resinfo v8, v0, s[0:7] dmask:0x8 dim:SQ_RSRC_IMG_2D_ARRAY");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        unsigned m = l % 4u, lv = 1 + m;
        bool in = lv <= 3;
        EQ(t, amt_gv(t, 4, l), in ? (20u >> lv ? 20u >> lv : 1u) : 0);
        EQ(t, amt_gv(t, 5, l), in ? (9u >> lv ? 9u >> lv : 1u) : 0);
        EQ(t, amt_gv(t, 6, l), in ? 4 : 0);   /* slices 1..4 of the view */
        EQ(t, amt_gv(t, 7, l), in ? 3 : 0);
        EQ(t, amt_gv(t, 8, l), in ? 3 : 0);
    }
}

/* Atomics on 32_UINT (20): one texel per lane, returning (glc) and not. */
static void img_atomics(amt *t, unsigned ws)
{
    img_begin(t, ws);
    amd_tsharp d = mkt(AMD_IMG_1D, 20, 64, 1, 0);
    amd_tsharp_set_pitch(&d, 64);
    put_t(t, 0, &d);
    for (unsigned x = 0; x < 64; x++) amt_w32(t, IMG + 4 * x, 1000 + x);
    for (unsigned l = 0; l < ws; l++) {
        amt_v(t, 0, l, l);
        amt_v(t, 2, l, 7);            /* add */
        amt_v(t, 4, l, 5555);         /* cmpswap: new */
        amt_v(t, 5, l, l % 2 ? 1007 + l : 0);   /* cmpswap: compare (odd lanes match after the add) */
        amt_v(t, 6, l, 3);
    }
    amt_code(t, "image_atomic_add v2, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D glc\n"
                "image_atomic_cmpswap v[4:5], v0, s[0:7] dmask:0x3 dim:SQ_RSRC_IMG_1D glc\n"
                "image_atomic_sub v6, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D");
    RUNS(t);
    for (unsigned l = 0; l < ws; l++) {
        EQ(t, amt_gv(t, 2, l), 1000 + l);
        EQ(t, amt_gv(t, 4, l), 1007 + l);
        EQ(t, amt_gv(t, 6, l), 3);    /* no glc: vdata unchanged */
        EQ(t, amt_r32(t, IMG + 4 * l), (l % 2 ? 5555u : 1007u + l) - 3u);
    }
    /* out of range: dropped, returns 0 */
    amt_vall(t, 0, 64);
    amt_vall(t, 2, 9);
    amt_code(t, "image_atomic_add v2, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D glc");
    RUNS(t);
    EQ(t, amt_gv(t, 2, 0), 0);
}
static void img_atomics_w32(amt *t) { img_atomics(t, 32); }
static void img_atomics_w64(amt *t) { img_atomics(t, 64); }

/* A16 coordinates and an NSA address. */
static void img_a16_nsa(amt *t)
{
    img_begin(t, 32);
    amd_tsharp d = mkt(AMD_IMG_2D, 20, 16, 16, 0);
    amd_tsharp_set_pitch(&d, 64);
    put_t(t, 0, &d);
    for (unsigned y = 0; y < 16; y++)
        for (unsigned x = 0; x < 16; x++) amt_w32(t, IMG + (y * 64u + x) * 4u, y * 100 + x);
    for (unsigned l = 0; l < 32; l++) {
        amt_v(t, 0, l, (l % 16u) | (l / 2u) << 16);
        amt_v(t, 20, l, l / 2u);
        amt_v(t, 23, l, l % 16u);
    }
    amt_code(t, "image_load v4, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D a16\n"
                "image_load_mip v5, [v23, v20, v30], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D");
    amt_vall(t, 30, 0);
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        EQ(t, amt_gv(t, 4, l), (l / 2u) * 100 + l % 16u);
        EQ(t, amt_gv(t, 5, l), (l / 2u) * 100 + l % 16u);
    }
}

/* ---- sampling ---- */

/* 4x2 32_FLOAT (22) image: texel (x, y) = 10y + x + 1. */
static float tex42(int x, int y) { return (float)(10 * y + x + 1); }

static void samp_image(amt *t, unsigned ws)
{
    img_begin(t, ws);
    amd_tsharp d = mkt(AMD_IMG_2D, 22, 4, 2, 0);
    amd_tsharp_set_pitch(&d, 64);
    put_t(t, 0, &d);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 4; x++) amt_w32(t, IMG + (uint64_t)(y * 64 + x) * 4u, fbits32(tex42(x, y)));
}

/* Reference addressing of texel index i in [0, n) (the OpenCL / D3D definitions); -1 = border. */
static int ref_wrap(unsigned mode, int i, int n)
{
    switch (mode) {
    case AMD_TEX_WRAP: return ((i % n) + n) % n;
    case AMD_TEX_MIRROR: { int p = ((i % (2 * n)) + 2 * n) % (2 * n); return p < n ? p : 2 * n - 1 - p; }
    case AMD_TEX_CLAMP_LAST_TEXEL: return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
    case AMD_TEX_MIRROR_ONCE_LAST_TEXEL: { int a = i < 0 ? -i - 1 : i; return a > n - 1 ? n - 1 : a; }
    default: return i < 0 || i >= n ? -1 : i;
    }
}

static void sample_nearest_modes(amt *t, unsigned ws)
{
    static const float s_vals[16] = { -1.3f, -0.9f, -0.3f, -0.1f, 0.0f, 0.1f, 0.3f, 0.49f,
                                      0.51f, 0.74f, 0.99f, 1.0f, 1.1f, 1.6f, 2.2f, 3.7f };
    static const unsigned modes[6] = { AMD_TEX_WRAP, AMD_TEX_MIRROR, AMD_TEX_CLAMP_LAST_TEXEL,
                                       AMD_TEX_MIRROR_ONCE_LAST_TEXEL, AMD_TEX_CLAMP_BORDER, AMD_TEX_CLAMP_BORDER };
    for (unsigned mi = 0; mi < 6; mi++) {
        samp_image(t, ws);
        amd_ssharp s;
        memset(&s, 0, sizeof s);
        s.clamp_x = s.clamp_y = s.clamp_z = (uint8_t)modes[mi];
        s.border_color_type = mi == 5 ? AMD_BORDER_OPAQUE_WHITE : AMD_BORDER_TRANS_BLACK;
        s.max_lod = 0xfff;
        put_s(t, 16, &s);
        for (unsigned l = 0; l < ws; l++) {
            amt_v(t, 0, l, fbits32(s_vals[l % 16u]));
            amt_v(t, 1, l, fbits32(l / 16u % 2u ? 0.75f : 0.25f - (l >= 32 ? 1.0f : 0.0f)));
        }
        amt_code(t, "image_sample_lz v[4:7], v[0:1], s[0:7], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D");
        RUNS(t);
        for (unsigned l = 0; l < ws; l++) {
            float sv = s_vals[l % 16u], tv = l / 16u % 2u ? 0.75f : 0.25f - (l >= 32 ? 1.0f : 0.0f);
            int x = ref_wrap(modes[mi], (int)floorf(sv * 4.0f), 4), y = ref_wrap(modes[mi], (int)floorf(tv * 2.0f), 2);
            bool border = x < 0 || y < 0;
            float bc = mi == 5 ? 1.0f : 0.0f;
            EQ(t, amt_gv(t, 4, l), fbits32(border ? bc : tex42(x, y)));
            EQ(t, amt_gv(t, 5, l), fbits32(border ? bc : 0.0f));   /* 32_FLOAT: Y, Z read 0, W 1 */
            EQ(t, amt_gv(t, 7, l), fbits32(border ? bc : 1.0f));
        }
        amt_end(t);
    }
}
static void img_sample_nearest_modes_w32(amt *t) { sample_nearest_modes(t, 32); }
static void img_sample_nearest_modes_w64(amt *t) { sample_nearest_modes(t, 64); }

/* An S# with clamp-to-last-texel addressing, unnormalized coordinates and bilinear filtering. */
static amd_ssharp bilinear_unnormalized(void)
{
    amd_ssharp s;
    memset(&s, 0, sizeof s);
    s.clamp_x = s.clamp_y = AMD_TEX_CLAMP_LAST_TEXEL;
    s.xy_mag_filter = s.xy_min_filter = AMD_TEX_XY_BILINEAR;
    s.force_unnormalized = 1;
    s.max_lod = 0xfff;
    return s;
}

/* Bilinear weights with 8 fractional bits: unnormalized coordinates whose fractions are exact
 * binary fractions, and some whose fraction is rounded to the nearest 1/256 (D3D11.3 7.18.8 and
 * 3.2.4.1: u - 0.5 converted to 16.8 fixed point, round to nearest even). */
static void img_sample_linear(amt *t)
{
    samp_image(t, 32);
    amd_ssharp s = bilinear_unnormalized();
    put_s(t, 16, &s);
    /* u - 0.5 = ui + fu (in texels); fu in {0, .25, .5, .75, 0.3}: 0.3 * 256 = 76.8 (76.79998 for
     * the f32 values 1.8f - 0.5f, 2.8f - 0.5f) rounds to 77/256 (truncation would give 76/256) */
    static const float fu[5] = { 0.0f, 0.25f, 0.5f, 0.75f, 0.3f };
    static const float fq[5] = { 0.0f, 0.25f, 0.5f, 0.75f, 77.0f / 256.0f };
    for (unsigned l = 0; l < 32; l++) {
        unsigned ui = l % 3u;
        amt_v(t, 0, l, fbits32((float)ui + 0.5f + fu[l % 5u]));
        amt_v(t, 1, l, fbits32(0.5f + fu[(l / 5u) % 5u]));
    }
    amt_code(t, "image_sample_lz v4, v[0:1], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        int ui = (int)(l % 3u);
        float a = fq[l % 5u], b = fq[(l / 5u) % 5u];
        /* texel values are 1..4 and 11..14: every product and sum below is exact */
        float want = (1 - a) * (1 - b) * tex42(ui, 0) + a * (1 - b) * tex42(ui + 1, 0) +
                     (1 - a) * b * tex42(ui, 1) + a * b * tex42(ui + 1, 1);
        EQ(t, amt_gv(t, 4, l), fbits32(want));
    }
}

/* The fixed-point snap of texel-space coordinates (D3D11.3 7.18.7/7.18.8: the scaled coordinate,
 * or u - 0.5 for bilinear, converted to 16.8 fixed point; 3.2.4.1: rounding to nearest even),
 * on a 177 x 1 32_FLOAT image whose texel x holds x:
 *  v10: normalized nearest at c = k * (1/177) (how AMD's device library snaps a normalized
 *       coordinate for point filtering): in f32, c * 177 is k - epsilon for k = 55, 93, 95, 110,
 *       125, 127 (a plain floor picks k - 1); the snap gives k;
 *  v11: unnormalized nearest at u = k + d: d = -1/256 -> k - 1, d = -1/512 (a tie: 256k - 0.5
 *       -> 256k, even) -> k, d = -1/1024 -> k, d = 255.5/256 (tie -> 256k + 256) -> k + 1,
 *       d = 254.5/256 (tie -> 256k + 254) -> k, d = 0.5 -> k;
 *  v12: unnormalized bilinear at u - 0.5 = k + f: f = -1/1024 -> texel k with weight 0 (k),
 *       f = 2.5/256 (tie -> 2/256) -> k + 2/256, f = 3.5/256 (tie -> 4/256) -> k + 4/256,
 *       f = 1.4/256 -> k + 1/256, f = 0.6/256 -> k + 1/256. */
static void img_sample_fixed_point(amt *t)
{
    img_begin(t, 32);
    amd_tsharp d = mkt(AMD_IMG_2D, 22, 177, 1, 0);
    amd_tsharp_set_pitch(&d, 192);
    put_t(t, 0, &d);
    for (unsigned x = 0; x < 177; x++) amt_w32(t, IMG + x * 4u, fbits32((float)x));
    amd_ssharp s;
    memset(&s, 0, sizeof s);
    s.clamp_x = s.clamp_y = AMD_TEX_CLAMP_LAST_TEXEL;
    s.max_lod = 0xfff;
    put_s(t, 16, &s);
    s.xy_mag_filter = s.xy_min_filter = AMD_TEX_XY_BILINEAR;
    put_s(t, 20, &s);
    static const float dn[6] = { -1.0f / 256, -1.0f / 512, -1.0f / 1024, 255.5f / 256, 254.5f / 256, 0.5f };
    static const int dn_texel[6] = { -1, 0, 0, 1, 0, 0 };
    static const float fl[5] = { -1.0f / 1024, 2.5f / 256, 3.5f / 256, 1.4f / 256, 0.6f / 256 };
    static const float fl_weight[5] = { 0.0f, 2.0f / 256, 4.0f / 256, 1.0f / 256, 1.0f / 256 };
    static const unsigned kn[8] = { 55, 93, 95, 110, 125, 127, 3, 176 };
    unsigned below = 0;
    for (unsigned l = 0; l < 32; l++) {
        unsigned k = kn[l % 8u];
        float c = (float)k * (1.0f / 177.0f);
        if (floorf(c * 177.0f) < (float)k) below++;   /* cases a plain floor would get wrong */
        amt_v(t, 0, l, fbits32(c));
        amt_v(t, 1, l, fbits32(0.5f));
        amt_v(t, 2, l, fbits32((float)(10u + l) + dn[l % 6u]));
        amt_v(t, 3, l, fbits32(0.5f));
        amt_v(t, 4, l, fbits32((float)(10u + l) + 0.5f + fl[l % 5u]));
        amt_v(t, 5, l, fbits32(0.5f));
    }
    OK(t, below == 24);
    amt_code(t, "image_sample_lz v10, v[0:1], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n"
                "image_sample_lz v11, v[2:3], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n"
                "image_sample_lz v12, v[4:5], s[0:7], s[20:23] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        EQ(t, amt_gv(t, 10, l), fbits32((float)kn[l % 8u]));
        EQ(t, amt_gv(t, 11, l), fbits32((float)((int)(10u + l) + dn_texel[l % 6u])));
        EQ(t, amt_gv(t, 12, l), fbits32((float)(10u + l) + fl_weight[l % 5u]));
    }
}

/* Mip selection for image_sample_l: levels hold the constant level + 1; POINT rounds the LOD,
 * LINEAR blends the two nearest levels; the LOD is clamped to the levels and MAX_LOD. */
static void img_sample_l_mips(amt *t)
{
    img_begin(t, 32);
    amd_tsharp d = mkt(AMD_IMG_2D, 22, 8, 8, 0);
    d.last_level = 3;
    amd_tsharp_set_pitch(&d, 64);
    put_t(t, 0, &d);
    for (unsigned lv = 0; lv < 4; lv++)
        for (unsigned y = 0; y < (8u >> lv); y++)
            for (unsigned x = 0; x < (8u >> lv); x++) amt_w32(t, layout_addr(&d, 4, 1, lv, x, y, 0), fbits32((float)(lv + 1)));
    static const float lods[8] = { -1.0f, 0.0f, 0.4f, 0.5f, 1.25f, 2.75f, 3.0f, 9.0f };
    for (unsigned mf = AMD_TEX_MIP_POINT; mf <= AMD_TEX_MIP_LINEAR; mf++) {
        amd_ssharp s;
        memset(&s, 0, sizeof s);
        s.mip_filter = (uint8_t)mf;
        s.max_lod = 0xfff;
        put_s(t, 16, &s);
        for (unsigned l = 0; l < 32; l++) {
            amt_v(t, 0, l, fbits32(0.3f));
            amt_v(t, 1, l, fbits32(0.6f));
            amt_v(t, 2, l, fbits32(lods[l % 8u]));
        }
        amt_code(t, "image_sample_l v4, v[0:2], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D");
        RUNS(t);
        for (unsigned l = 0; l < 32; l++) {
            float lod = lods[l % 8u];
            lod = lod < 0 ? 0 : lod > 3 ? 3 : lod;
            float want = mf == AMD_TEX_MIP_POINT ? floorf(lod + 0.5f) + 1.0f : lod + 1.0f;
            EQ(t, amt_gv(t, 4, l), fbits32(want));
        }
    }
    /* MAX_LOD 1.0 (u4.8 = 0x100) caps the level */
    amd_ssharp s;
    memset(&s, 0, sizeof s);
    s.mip_filter = AMD_TEX_MIP_POINT;
    s.max_lod = 0x100;
    put_s(t, 16, &s);
    RUNS(t);
    EQ(t, amt_gv(t, 4, 7), fbits32(2.0f));
}

/* The image-only formats (docs/MEMORY_MODEL.md §12a): 5_6_5 (68) and 1_5_5_5 (69) read through
 * OpenCL's CL_RGB selects (Z Y X 1: red in the high bits) and written back, 4_4_4_4 (71), and
 * 8_8_8_8_SRGB (66): colour decoded to linear before filtering, alpha linear; D16; a store to an
 * sRGB format is refused. References: the OpenCL 1.2 §5.3.1.1 bit layouts (x:R:G:B), raw / (2^n - 1),
 * and IEC 61966-2-1's decoding in double. */
static double srgb_ref(unsigned b)
{
    double c = b / 255.0;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static void img_packed_srgb_formats(amt *t)
{
    img_begin(t, 32);
    amd_tsharp p565 = mkt(AMD_IMG_2D, 68, 32, 1, 0), p555 = mkt(AMD_IMG_2D, 69, 32, 1, 0);
    amd_tsharp p4444 = mkt(AMD_IMG_2D, 71, 32, 1, 0), srgb = mkt(AMD_IMG_2D, 66, 32, 1, 0);
    p555.base = IMG + 0x1000, p4444.base = IMG + 0x2000, srgb.base = IMG + 0x3000;
    p565.dst_sel[0] = SX + 2, p565.dst_sel[1] = SX + 1, p565.dst_sel[2] = SX, p565.dst_sel[3] = 1;   /* Z Y X 1 */
    p555.dst_sel[0] = SX + 2, p555.dst_sel[1] = SX + 1, p555.dst_sel[2] = SX, p555.dst_sel[3] = 1;
    amd_tsharp_set_pitch(&p565, 64), amd_tsharp_set_pitch(&p555, 64), amd_tsharp_set_pitch(&p4444, 64);
    amd_tsharp_set_pitch(&srgb, 64);
    put_t(t, 0, &p565), put_t(t, 8, &p555), put_t(t, 16, &p4444), put_t(t, 24, &srgb);
    uint16_t w565[32], w555[32], w4444[32];
    uint8_t sb[32][4];
    for (unsigned x = 0; x < 32; x++) {
        w565[x] = (uint16_t)(x * 2053u + 7u);
        w555[x] = (uint16_t)(x * 3079u + 0x8000u * (x & 1u));
        w4444[x] = (uint16_t)(x * 4099u + 17u);
        for (unsigned c = 0; c < 4; c++) sb[x][c] = (uint8_t)(x * 8u + c * 61u + 3u);
        amt_w8(t, IMG + x * 2u, (uint8_t)w565[x]), amt_w8(t, IMG + x * 2u + 1, (uint8_t)(w565[x] >> 8));
        amt_w8(t, IMG + 0x1000 + x * 2u, (uint8_t)w555[x]), amt_w8(t, IMG + 0x1000 + x * 2u + 1, (uint8_t)(w555[x] >> 8));
        amt_w8(t, IMG + 0x2000 + x * 2u, (uint8_t)w4444[x]), amt_w8(t, IMG + 0x2000 + x * 2u + 1, (uint8_t)(w4444[x] >> 8));
        for (unsigned c = 0; c < 4; c++) amt_w8(t, IMG + 0x3000 + x * 4u + c, sb[x][c]);
    }
    amd_ssharp s = bilinear_unnormalized();
    put_s(t, 32, &s);
    for (unsigned l = 0; l < 32; l++) {
        amt_v(t, 0, l, l);
        amt_v(t, 1, l, 0);
        amt_v(t, 2, l, fbits32((float)(l + 1u)));   /* halfway between texels l and l + 1 (32 clamps to 31) */
        amt_v(t, 3, l, fbits32(0.5f));
    }
    amt_code(t, "image_load v[4:7], v[0:1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm\n"
                "image_load v[8:11], v[0:1], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm\n"
                "image_load v[12:15], v[0:1], s[16:23] dmask:0xf dim:SQ_RSRC_IMG_2D unorm\n"
                "image_load v[16:19], v[0:1], s[24:31] dmask:0xf dim:SQ_RSRC_IMG_2D unorm\n"
                "image_load v[20:21], v[0:1], s[24:31] dmask:0xf dim:SQ_RSRC_IMG_2D unorm d16\n"
                "image_sample_lz v[22:25], v[2:3], s[24:31], s[32:35] dmask:0xf dim:SQ_RSRC_IMG_2D unorm");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        unsigned r = w565[l] >> 11, g = w565[l] >> 5 & 63u, b = w565[l] & 31u;
        EQ(t, amt_gv(t, 4, l), fbits32((float)(r / 31.0)));
        EQ(t, amt_gv(t, 5, l), fbits32((float)(g / 63.0)));
        EQ(t, amt_gv(t, 6, l), fbits32((float)(b / 31.0)));
        EQ(t, amt_gv(t, 7, l), fbits32(1.0f));
        r = w555[l] >> 10 & 31u, g = w555[l] >> 5 & 31u, b = w555[l] & 31u;
        EQ(t, amt_gv(t, 8, l), fbits32((float)(r / 31.0)));
        EQ(t, amt_gv(t, 9, l), fbits32((float)(g / 31.0)));
        EQ(t, amt_gv(t, 10, l), fbits32((float)(b / 31.0)));
        EQ(t, amt_gv(t, 11, l), fbits32(1.0f));
        for (unsigned c = 0; c < 4; c++)
            EQ(t, amt_gv(t, 12 + c, l), fbits32((float)((w4444[l] >> (4u * c) & 15u) / 15.0)));
        for (unsigned c = 0; c < 3; c++) EQ(t, amt_gv(t, 16 + c, l), fbits32((float)srgb_ref(sb[l][c])));
        EQ(t, amt_gv(t, 19, l), fbits32((float)(sb[l][3] / 255.0)));
        uint32_t h0 = amd_f32_to_f16_rne(fbits32((float)srgb_ref(sb[l][0])));
        uint32_t h0v = amt_gv(t, 20, l) & 0xffffu;
        OK(t, h0v + 1u >= h0 && h0v <= h0 + 1u);   /* one f16 ulp: the f16 is rounded from the exact value */
        unsigned n = l < 31 ? l + 1u : l;
        for (unsigned c = 0; c < 4; c++) {
            float a = c < 3 ? (float)srgb_ref(sb[l][c]) : (float)(sb[l][c] / 255.0);
            float z = c < 3 ? (float)srgb_ref(sb[n][c]) : (float)(sb[n][c] / 255.0);
            EQ(t, amt_gv(t, 22 + c, l), fbits32(0.5f * a + 0.5f * z));
        }
    }
    /* stores: lane l writes (l/31, 0.5, 1) into texel l of the 5_6_5 image through Z Y X 1 */
    for (unsigned l = 0; l < 32; l++) {
        amt_v(t, 4, l, fbits32((float)l / 31.0f));
        amt_v(t, 5, l, fbits32(0.5f));
        amt_v(t, 6, l, fbits32(1.0f));
    }
    amt_code(t, "image_store v[4:6], v[0:1], s[0:7] dmask:0x7 dim:SQ_RSRC_IMG_2D unorm");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) EQ(t, amt_r16(t, IMG + l * 2u), (uint16_t)(l << 11 | 32u << 5 | 31u));
    amt_code(t, "image_store v[4:7], v[0:1], s[24:31] dmask:0xf dim:SQ_RSRC_IMG_2D unorm");
    FAULTS(t, "image_store to an sRGB format (FORMAT 66 8_8_8_8_SRGB) is not supported");
    amt_end(t);
}

/* ---- malformed descriptors fault, naming the field ---- */

/* One bad T# (or S#) per run: the fault names the descriptor field. */
static void bad_t(amt *t, const amd_tsharp *d, const amd_ssharp *s, const char *code, const char *text)
{
    img_begin(t, 32);
    put_t(t, 0, d);
    if (s) put_s(t, 16, s);
    amt_code(t, "%s", code);
    FAULTS(t, text);
    amt_end(t);
}

static void img_bad_descriptors(amt *t)
{
    const char *ld = "image_load v4, v[0:1], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    amd_tsharp d = mkt(0, 22, 4, 4, 0);
    bad_t(t, &d, NULL, ld, "TYPE 0 is not an image type");
    d = mkt(AMD_IMG_2D, 0, 4, 4, 0);
    bad_t(t, &d, NULL, ld, "FORMAT 0 is INVALID");
    d = mkt(AMD_IMG_2D, 67, 4, 4, 0);
    bad_t(t, &d, NULL, ld, "FORMAT 67 is an image format umbra does not implement");
    d = mkt(AMD_IMG_2D, 80, 4, 4, 0);
    bad_t(t, &d, NULL, ld, "FORMAT 80 is an image format umbra does not implement");
    d = mkt(AMD_IMG_2D, 22, 4, 4, 0);
    d.sw_mode = 9;
    bad_t(t, &d, NULL, ld, "SW_MODE 9 is a tiled layout");
    d.sw_mode = 0;
    d.base_level = 2;
    bad_t(t, &d, NULL, ld, "BASE_LEVEL 2 > LAST_LEVEL 0");
    d.base_level = 0;
    amd_ssharp s;
    memset(&s, 0, sizeof s);
    s.clamp_x = AMD_TEX_CLAMP_BORDER;
    s.border_color_type = AMD_BORDER_REGISTER;
    bad_t(t, &d, &s, "image_sample_lz v[4:7], v[0:1], s[0:7], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D", "BORDER_COLOR_TYPE 3");
    d.format = 20;
    bad_t(t, &d, NULL, "image_atomic_add v[2:3], v[0:1], s[0:7] dmask:0x3 dim:SQ_RSRC_IMG_2D", "umbra implements 32-bit atomics");
    d = mkt(AMD_IMG_2D_MSAA, 22, 4, 4, 0);
    bad_t(t, &d, NULL, "image_load v4, v[0:2], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA", "multisampled images (TYPE 14)");
    d = mkt(AMD_IMG_CUBE, 22, 4, 4, 5);
    bad_t(t, &d, NULL, "image_sample_lz v4, v[0:2], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_CUBE", "on a cube image");
    bad_t(t, &d, NULL, "image_bvh_intersect_ray v[4:7], v[9:19], s[4:7]", "image_bvh_intersect_ray");
}

/* LOD from the quad's derivatives (image_sample, image_get_lod), plus a bias (_b), from explicit
 * gradients (_d, _d_g16), and _cl: an 8x8 image whose levels hold level + 1, MIP_FILTER point. */
static void img_sample_lod_sources(amt *t)
{
    img_begin(t, 32);
    amd_tsharp d = mkt(AMD_IMG_2D, 22, 8, 8, 0);
    d.last_level = 3;
    amd_tsharp_set_pitch(&d, 64);
    put_t(t, 0, &d);
    for (unsigned lv = 0; lv < 4; lv++)
        for (unsigned y = 0; y < (8u >> lv); y++)
            for (unsigned x = 0; x < (8u >> lv); x++) amt_w32(t, layout_addr(&d, 4, 1, lv, x, y, 0), fbits32((float)(lv + 1)));
    amd_ssharp s;
    memset(&s, 0, sizeof s);
    s.mip_filter = AMD_TEX_MIP_POINT;
    s.max_lod = 0xfff;
    put_s(t, 16, &s);
    /* quads: lane q+1 is 2 texels right of q, q+2 is 2 texels below: rho = 2, lod 1 */
    for (unsigned l = 0; l < 32; l++) {
        amt_v(t, 0, l, fbits32(0.1f + (l & 1u ? 2.0f / 8.0f : 0.0f)));
        amt_v(t, 1, l, fbits32(0.1f + (l & 2u ? 2.0f / 8.0f : 0.0f)));
        amt_v(t, 10, l, fbits32(1.0f));                       /* _b: bias */
        amt_v(t, 20, l, fbits32(4.0f / 8.0f));                /* _d: ds/dh = 4 texels, others 0 */
        amt_v(t, 21, l, 0); amt_v(t, 22, l, 0); amt_v(t, 23, l, 0);
        amt_v(t, 24, l, fbits32(0.3f)); amt_v(t, 25, l, fbits32(0.3f));
        amt_v(t, 26, l, 0x3800);                              /* _d_g16: ds/dh = 0.5 (f16), dt/dh = 0 */
        amt_v(t, 27, l, 0);                                   /*          ds/dv = dt/dv = 0 */
        amt_v(t, 30, l, fbits32(2.0f));                       /* _cl: clamp at lod 2 */
    }
    amt_code(t, "image_sample v4, v[0:1], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n"
                "image_sample_b v5, [v10, v0, v1], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n"
                "image_sample_d v6, v[20:25], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n"
                "image_sample_d_g16 v7, [v26, v27, v24, v25], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n"
                "image_sample_cl v8, [v0, v1, v30], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n"
                "image_get_lod v[12:13], v[0:1], s[0:7], s[16:19] dmask:0x3 dim:SQ_RSRC_IMG_2D");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        EQ(t, amt_gv(t, 12, l), fbits32(1.0f));   /* image_get_lod: clamped, unclamped */
        EQ(t, amt_gv(t, 13, l), fbits32(1.0f));
    }
    s.max_lod = 0x80;                               /* MAX_LOD 0.5 clamps X only */
    put_s(t, 16, &s);
    amt_code(t, "image_get_lod v[12:13], v[0:1], s[0:7], s[16:19] dmask:0x3 dim:SQ_RSRC_IMG_2D");
    RUNS(t);
    EQ(t, amt_gv(t, 12, 5), fbits32(0.5f));
    EQ(t, amt_gv(t, 13, 5), fbits32(1.0f));
    s.max_lod = 0xfff;
    put_s(t, 16, &s);
    amt_code(t, "image_sample v4, v[0:1], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        EQ(t, amt_gv(t, 4, l), fbits32(2.0f));   /* lod 1 */
        EQ(t, amt_gv(t, 5, l), fbits32(3.0f));   /* lod 1 + bias 1 */
        EQ(t, amt_gv(t, 6, l), fbits32(3.0f));   /* rho 4: lod 2 */
        EQ(t, amt_gv(t, 7, l), fbits32(3.0f));   /* 16-bit gradients: the same */
        EQ(t, amt_gv(t, 8, l), fbits32(3.0f));   /* lod 1 clamped up to 2 */
    }
}

/* gather4 (the footprint order and DMASK's component), texel offsets (_o), depth compare (_c). */
static void img_gather4_offset_compare(amt *t)
{
    samp_image(t, 32);
    amd_ssharp s;
    memset(&s, 0, sizeof s);
    s.clamp_x = s.clamp_y = AMD_TEX_CLAMP_LAST_TEXEL;
    s.force_unnormalized = 1;
    s.depth_compare_func = AMD_CMP_LESS;
    s.max_lod = 0xfff;
    put_s(t, 16, &s);
    for (unsigned l = 0; l < 32; l++) {
        amt_v(t, 0, l, fbits32(1.5f + (float)(l % 2u)));  /* u - 0.5 = 1 or 2: footprint x = 1,2 or 2,3 */
        amt_v(t, 1, l, fbits32(1.0f));                     /* v - 0.5 = 0.5: rows 0, 1 */
        amt_v(t, 2, l, (uint32_t)(-1 & 0x3f));             /* _o: x offset -1, y 0 */
        amt_v(t, 3, l, fbits32(12.5f));                    /* _c: reference */
    }
    amt_code(t, "image_gather4_lz v[4:7], v[0:1], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n"
                "image_sample_lz_o v8, [v2, v0, v1], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n"
                "image_sample_c_lz v9, [v3, v0, v1], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n"
                "image_gather4_c_lz v[10:13], [v3, v0, v1], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        int i0 = 1 + (int)(l % 2u);
        /* (i0, j1) (i1, j1) (i1, j0) (i0, j0) */
        EQ(t, amt_gv(t, 4, l), fbits32(tex42(i0, 1)));
        EQ(t, amt_gv(t, 5, l), fbits32(tex42(i0 + 1, 1)));
        EQ(t, amt_gv(t, 6, l), fbits32(tex42(i0 + 1, 0)));
        EQ(t, amt_gv(t, 7, l), fbits32(tex42(i0, 0)));
        EQ(t, amt_gv(t, 8, l), fbits32(tex42(i0, 1) - 1.0f));  /* nearest at (u, 1) moved one texel left */
        /* compare 12.5 < texel: point sample at (floor(u), 1) */
        EQ(t, amt_gv(t, 9, l), fbits32(12.5f < tex42(i0, 1) ? 1.0f : 0.0f));
        EQ(t, amt_gv(t, 10, l), fbits32(12.5f < tex42(i0, 1) ? 1.0f : 0.0f));
        EQ(t, amt_gv(t, 13, l), fbits32(12.5f < tex42(i0, 0) ? 1.0f : 0.0f));
    }
}

/* 3D (trilinear over x, y, z) and 1D-array sampling (slice = rint(coordinate), clamped). */
static void img_sample_3d_1darray(amt *t)
{
    img_begin(t, 32);
    amd_tsharp d = mkt(AMD_IMG_3D, 22, 2, 2, 1);   /* 2x2x2 */
    put_t(t, 0, &d);
    for (unsigned z = 0; z < 2; z++)
        for (unsigned y = 0; y < 2; y++)
            for (unsigned x = 0; x < 2; x++) amt_w32(t, layout_addr(&d, 4, 1, 0, x, y, z), fbits32((float)(1u << (z * 4 + y * 2 + x))));
    amd_ssharp s;
    memset(&s, 0, sizeof s);
    s.clamp_x = s.clamp_y = s.clamp_z = AMD_TEX_CLAMP_LAST_TEXEL;
    s.xy_mag_filter = s.xy_min_filter = AMD_TEX_XY_BILINEAR;
    s.max_lod = 0xfff;
    put_s(t, 16, &s);
    amd_tsharp a = mkt(AMD_IMG_1D_ARRAY, 22, 4, 1, 2);   /* 4 texels x 3 slices */
    a.base = IMG + 0x10000;
    put_t(t, 8, &a);
    for (unsigned sl = 0; sl < 3; sl++)
        for (unsigned x = 0; x < 4; x++) amt_w32(t, layout_addr(&a, 4, 3, 0, x, 0, sl), fbits32((float)(sl * 10 + x)));
    amd_ssharp n;
    memset(&n, 0, sizeof n);
    n.max_lod = 0xfff;
    put_s(t, 20, &n);
    static const float slc[8] = { -3.0f, 0.4f, 0.5f, 0.6f, 1.5f, 2.5f, 2.49f, 7.0f };
    for (unsigned l = 0; l < 32; l++) {
        amt_v(t, 0, l, fbits32(0.5f));
        amt_v(t, 1, l, fbits32(0.5f));
        amt_v(t, 2, l, fbits32(l % 2u ? 0.5f : 0.25f));
        amt_v(t, 3, l, fbits32(0.6f));
        amt_v(t, 4, l, fbits32(slc[l % 8u]));
    }
    amt_code(t, "image_sample_lz v10, v[0:2], s[0:7], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_3D\n"
                "image_sample_lz v11, v[3:4], s[8:15], s[20:23] dmask:0x1 dim:SQ_RSRC_IMG_1D_ARRAY");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        /* x, y at the centre (weights 1/2); z = 0.5 -> 1/2, z = 0.25 -> u - 0.5 = 0: slice 0 only */
        float xy0 = (1 + 2 + 4 + 8) / 4.0f, xy1 = (16 + 32 + 64 + 128) / 4.0f;
        EQ(t, amt_gv(t, 10, l), fbits32(l % 2u ? (xy0 + xy1) / 2.0f : xy0));
        float sv = slc[l % 8u];
        int sl = (int)rintf(sv);
        sl = sl < 0 ? 0 : sl > 2 ? 2 : sl;
        EQ(t, amt_gv(t, 11, l), fbits32((float)(sl * 10 + 2)));   /* x = floor(0.6 * 4) = 2 */
    }
}

/* Random T#s, S#s and address VGPRs through every executed MIMG class: each run must either
 * complete or stop with a guest fault (never crash, never touch the host out of bounds: run it
 * under ASan/UBSan). Half of the descriptors are well-formed linear images at IMG with random
 * sizes, so the texel paths are reached too. */
static uint64_t xs64(uint64_t *s) { *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17; return *s; }

static void img_fuzz(amt *t)
{
    static const char *const code[] = {
        "image_load v[4:7], v[0:2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY",
        "image_load_mip v4, v[0:3], s[0:7] dmask:0x9 dim:SQ_RSRC_IMG_3D d16",
        "image_store v[4:7], v[0:1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D",
        "image_atomic_add v4, v[0:1], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D glc",
        "image_get_resinfo v[4:7], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D",
        "image_sample v[4:7], v[0:1], s[0:7], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D",
        "image_sample_l v[4:7], v[0:2], s[0:7], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D",
        "image_sample_d_o v[4:7], v[0:6], s[0:7], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D",
        "image_sample_c_b_cl v[10:14], v[0:5], s[0:7], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY tfe",
        "image_gather4_lz v[4:7], v[0:1], s[0:7], s[16:19] dmask:0x2 dim:SQ_RSRC_IMG_3D a16",
        "image_sample_lz v[4:7], v[0:2], s[0:7], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_3D",
        "image_get_lod v[4:5], v[0:1], s[0:7], s[16:19] dmask:0x3 dim:SQ_RSRC_IMG_1D_ARRAY",
    };
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    unsigned faults = 0, runs = 0;
    for (unsigned it = 0; it < 240; it++) {
        img_begin(t, it % 3 ? 32 : 64);
        uint32_t w[8];
        if (it & 1) {
            for (unsigned i = 0; i < 8; i++) w[i] = (uint32_t)xs64(&seed);
        } else {
            amd_tsharp d = mkt(8 + (unsigned)(xs64(&seed) % 8), 1 + (unsigned)(xs64(&seed) % 63),
                               1 + (uint32_t)(xs64(&seed) % 40), 1 + (uint32_t)(xs64(&seed) % 20), (uint32_t)(xs64(&seed) % 6));
            d.last_level = (uint8_t)(xs64(&seed) % 4);
            for (unsigned c = 0; c < 4; c++) d.dst_sel[c] = (uint8_t)(xs64(&seed) % 8);
            amd_tsharp_encode(&d, w);
        }
        for (unsigned i = 0; i < 8; i++) amt_s(t, i, w[i]);
        for (unsigned i = 16; i < 20; i++) amt_s(t, i, (uint32_t)xs64(&seed));
        for (unsigned r = 0; r < 8; r++)
            for (unsigned l = 0; l < 64; l++) {
                uint64_t v = xs64(&seed);
                /* small integers, small floats and raw bits */
                amt_v(t, r, l, v % 3 == 0 ? (uint32_t)(v >> 40) % 48 : v % 3 == 1 ? fbits32((float)((int64_t)(v >> 32) % 4096) / 1024.0f) : (uint32_t)(v >> 16));
            }
        amt_code(t, "%s", code[it % (sizeof code / sizeof code[0])]);
        umb_status st = amt_run(t);
        runs++;
        if (st != UMB_OK) {
            faults++;
            OK(t, st == UMB_ERR_GUEST_FAULT || st == UMB_ERR_UNSUPPORTED);
            OK(t, strlen(amt_error(t)) > 0);
        }
        amt_end(t);
    }
    OK(t, runs == 240);
    OK(t, faults > 0 && faults < runs);   /* both outcomes were reached */
}

const amt_case amt_cases_image_exec[] = {
    C(img_load_store_2d_w32), C(img_load_store_2d_w64), C(img_store_int_saturate), C(img_packed_srgb_formats), C(img_swizzle_dmask_tfe), C(img_array_mips),
    C(img_cube_load_store),
    C(img_resinfo), C(img_atomics_w32), C(img_atomics_w64), C(img_a16_nsa),
    C(img_sample_nearest_modes_w32), C(img_sample_nearest_modes_w64), C(img_sample_linear), C(img_sample_fixed_point),
    C(img_sample_l_mips), C(img_sample_lod_sources), C(img_gather4_offset_compare), C(img_sample_3d_1darray),
    C(img_bad_descriptors), C(img_fuzz),
    { NULL, NULL },
};
