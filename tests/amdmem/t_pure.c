/* Unit tests of the pure memory-model layer (src/mem/amd_*.c): V# fields, buffer addressing,
 * OOB_SELECT, formats and conversions, alignment modes, apertures, scratch swizzle, atomics.
 * The expected values are worked out by hand from spec/rdna3.md and written here. */
#include <math.h>
#include <string.h>

#include "amt.h"
#include "mem/amd_buffer.h"
#include "mem/amd_format.h"
#include "mem/amd_mem.h"

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* Every V# field at its bit position ([ISA] Table 47). */
static void vsharp_fields(amt *t)
{
    const uint32_t w[4] = { 0x89abcdefu, 0xc0051234u | (0x3fffu << 16), 0x00001000u, 0 };
    amd_vsharp v;
    amd_vsharp_decode(w, &v);
    EQ(t, v.base, 0x123489abcdefull);
    EQ(t, v.stride, 0x3fff);
    EQ(t, v.swizzle_enable, 3);
    EQ(t, v.num_records, 0x1000);
    /* w3: dst_sel XYZW = 4,5,6,7; format 22; index_stride 3; add_tid; llc 2; oob 3; type 2 */
    uint32_t w3 = 4u | 5u << 3 | 6u << 6 | 7u << 9 | 22u << 12 | 3u << 21 | 1u << 23 | 2u << 26 | 3u << 28 | 2u << 30;
    const uint32_t w2[4] = { 0, 0, 0, w3 };
    amd_vsharp_decode(w2, &v);
    EQ(t, v.dst_sel[0], 4);
    EQ(t, v.dst_sel[1], 5);
    EQ(t, v.dst_sel[2], 6);
    EQ(t, v.dst_sel[3], 7);
    EQ(t, v.format, 22);
    EQ(t, v.index_stride, 3);
    EQ(t, amd_vsharp_index_stride(&v), 64);
    EQ(t, v.add_tid, 1);
    EQ(t, v.llc_noalloc, 2);
    EQ(t, v.oob_select, 3);
    EQ(t, v.type, 2);
    uint32_t back[4];
    amd_vsharp_encode(&v, back);
    EQ(t, back[3], w3);
    /* the reserved bits 116:114 and 121:120 are not part of any field */
    const uint32_t w4[4] = { 0, 0, 0, 7u << 18 | 3u << 24 };
    amd_vsharp_decode(w4, &v);
    EQ(t, v.format | v.index_stride | v.add_tid | v.llc_noalloc, 0);
    /* swizzle element sizes */
    v.swizzle_enable = 1;
    EQ(t, amd_vsharp_element_size(&v), 4);
    v.swizzle_enable = 2;
    EQ(t, amd_vsharp_element_size(&v), 0);   /* reserved: treated as off */
    v.swizzle_enable = 0;
    EQ(t, amd_vsharp_element_size(&v), 0);
}

static amd_vsharp mkv(uint64_t base, uint32_t stride, uint32_t nr, unsigned swz, unsigned is, unsigned oob, bool tid)
{
    amd_vsharp v;
    memset(&v, 0, sizeof v);
    v.base = base;
    v.stride = stride;
    v.num_records = nr;
    v.swizzle_enable = (uint8_t)swz;
    v.index_stride = (uint8_t)is;
    v.oob_select = (uint8_t)oob;
    v.add_tid = tid;
    v.format = 20;
    return v;
}

/* ADDR = base + sgpr_offset + offset + stride * index, index = vidx + tid. */
static void buffer_linear_address(amt *t)
{
    amd_vsharp v = mkv(0x1000, 16, 100, 0, 0, 3, false);
    EQ(t, amd_buf_address(&v, 8, 3, 5), 0x1000 + 8 + 5 + 48);
    EQ(t, amd_buf_index(&v, true, 7, 9), 7);        /* add_tid off */
    v.add_tid = 1;
    EQ(t, amd_buf_index(&v, true, 7, 9), 16);
    EQ(t, amd_buf_index(&v, false, 7, 63), 63);
    EQ(t, amd_buf_index(&v, false, 7, 64 + 5), 5);  /* thread_id[5:0] */
    v.stride = 0x3fff;
    EQ(t, amd_buf_address(&v, 0, 0xffffffffu, 0), 0x1000 + 0x3fffull * 0xffffffffull);
}

/* The swizzled formula with both element sizes and all four index strides. */
static void buffer_swizzle_address(amt *t)
{
    static const unsigned es_of[2] = { 4, 16 }, swz_of[2] = { 1, 3 };
    for (unsigned e = 0; e < 2; e++) {
        for (unsigned is = 0; is < 4; is++) {
            unsigned IS = 8u << is, ES = es_of[e];
            amd_vsharp v = mkv(0x10000, 32, 1000, swz_of[e], is, 3, false);
            /* index = IS + 3 (msb 1, lsb 3); offset = ES + 2 (msb 1, lsb 2) */
            uint64_t want = 0x10000 + 12 + (1ull * 32 + 1ull * ES) * IS + 3ull * ES + 2;
            uint64_t got = amd_buf_address(&v, 12, IS + 3, ES + 2);
            if (got != want)
                amt_fail(t, __FILE__, __LINE__, "ES %u IS %u: 0x%llx, expected 0x%llx", ES, IS,
                         (unsigned long long)got, (unsigned long long)want);
        }
    }
    /* worked example: scratch-like V#, ES 4, IS 32, stride 0: lane 5 dword 2 -> 2*4*32 + 5*4 */
    amd_vsharp v = mkv(0, 0, 0, 1, 2, 2, true);
    EQ(t, amd_buf_address(&v, 0, 5, 8), 256 + 20);
    EQ(t, amd_buf_address(&v, 0, 5, 9), 256 + 21);
}

/* OOB_SELECT 0..3 at the exact boundary and one past it. */
static void buffer_oob_modes(amt *t)
{
    /* mode 0: index >= NR or offset + payload > stride */
    amd_vsharp v = mkv(0, 16, 4, 0, 0, 0, false);
    OK(t, amd_buf_in_range(&v, 0, 3, 12, 4));
    OK(t, !amd_buf_in_range(&v, 0, 4, 0, 4));
    OK(t, !amd_buf_in_range(&v, 0, 3, 13, 4));
    OK(t, amd_buf_in_range(&v, 0, 3, 15, 1));
    /* mode 1: index only */
    v.oob_select = 1;
    OK(t, amd_buf_in_range(&v, 0, 3, 1000, 4));
    OK(t, !amd_buf_in_range(&v, 0, 4, 0, 4));
    /* mode 2: only an empty buffer */
    v.oob_select = 2;
    OK(t, amd_buf_in_range(&v, 0, 1000, 1000000, 4));
    v.num_records = 0;
    OK(t, !amd_buf_in_range(&v, 0, 0, 0, 4));
    /* mode 3 raw: offset + payload > NR - sgpr_offset */
    v = mkv(0, 0, 64, 0, 0, 3, false);
    OK(t, amd_buf_in_range(&v, 0, 0, 60, 4));
    OK(t, !amd_buf_in_range(&v, 0, 0, 61, 4));
    OK(t, amd_buf_in_range(&v, 0, 0, 63, 1));
    OK(t, amd_buf_in_range(&v, 8, 0, 52, 4));
    OK(t, !amd_buf_in_range(&v, 8, 0, 53, 4));
    OK(t, !amd_buf_in_range(&v, 65, 0, 0, 1));   /* sgpr_offset beyond NR */
    /* mode 3 with stride but no swizzle: raw, the index counts in the offset */
    v.stride = 16;
    OK(t, amd_buf_in_range(&v, 0, 3, 12, 4));
    OK(t, !amd_buf_in_range(&v, 0, 3, 13, 4));
    /* mode 3 swizzled with a stride: structured check */
    v = mkv(0, 16, 4, 1, 0, 3, false);
    OK(t, amd_buf_in_range(&v, 0, 3, 12, 4));
    OK(t, !amd_buf_in_range(&v, 0, 4, 0, 4));
    OK(t, !amd_buf_in_range(&v, 0, 0, 16, 1));
}

static void buffer_unbound(amt *t)
{
    amd_vsharp v = mkv(0, 0, 64, 0, 0, 3, false);
    v.format = 0;
    OK(t, amd_vsharp_unbound(&v, true));
    OK(t, amd_vsharp_unbound(&v, false));
    v.add_tid = 1;
    OK(t, !amd_vsharp_unbound(&v, true));   /* MUBUF with add_tid is bound */
    OK(t, amd_vsharp_unbound(&v, false));
    v.format = 22;
    OK(t, !amd_vsharp_unbound(&v, false));
}

/* The 64-entry table: names as llvm-mc prints them, sizes and component layouts. */
static void format_table(amt *t)
{
    OK(t, amd_buf_format_info(0) == NULL);
    OK(t, amd_buf_format_info(64) == NULL);
    static const struct { unsigned n; const char *name; unsigned bytes, ncomp, x, w; } c[] = {
        { 1, "8_UNORM", 1, 1, 8, 0 }, { 6, "8_SINT", 1, 1, 8, 0 }, { 13, "16_FLOAT", 2, 1, 16, 0 },
        { 14, "8_8_UNORM", 2, 2, 8, 0 }, { 22, "32_FLOAT", 4, 1, 32, 0 }, { 29, "16_16_FLOAT", 4, 2, 16, 0 },
        { 30, "10_11_11_FLOAT", 4, 3, 11, 0 }, { 31, "11_11_10_FLOAT", 4, 3, 10, 0 },
        { 32, "10_10_10_2_UNORM", 4, 4, 2, 10 }, { 35, "10_10_10_2_SINT", 4, 4, 2, 10 },
        { 36, "2_10_10_10_UNORM", 4, 4, 10, 2 }, { 41, "2_10_10_10_SINT", 4, 4, 10, 2 },
        { 47, "8_8_8_8_SINT", 4, 4, 8, 8 }, { 50, "32_32_FLOAT", 8, 2, 32, 0 },
        { 57, "16_16_16_16_FLOAT", 8, 4, 16, 16 }, { 60, "32_32_32_FLOAT", 12, 3, 32, 0 },
        { 63, "32_32_32_32_FLOAT", 16, 4, 32, 32 },
    };
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        const amd_buf_format *f = amd_buf_format_info(c[i].n);
        if (!f || strcmp(f->name, c[i].name) || f->bytes != c[i].bytes || f->ncomp != c[i].ncomp ||
            f->bits[0] != c[i].x || f->bits[3] != c[i].w)
            amt_fail(t, __FILE__, __LINE__, "format %u is not %s", c[i].n, c[i].name);
    }
    for (unsigned n = 1; n < 64; n++) {
        const amd_buf_format *f = amd_buf_format_info(n);
        unsigned sum = 0;
        for (unsigned k = 0; k < 4; k++) sum += f->bits[k];
        if (sum != 8u * f->bytes) amt_fail(t, __FILE__, __LINE__, "format %u: bits %u vs bytes %u", n, sum, f->bytes);
    }
    /* the image-only formats a T# may name (ROCr's gfx11 resource header's numbers) */
    static const struct { unsigned n; const char *name; unsigned bytes, ncomp, x, w, num; } im[] = {
        { 64, "8_SRGB", 1, 1, 8, 0, AMD_NUM_SRGB }, { 65, "8_8_SRGB", 2, 2, 8, 0, AMD_NUM_SRGB },
        { 66, "8_8_8_8_SRGB", 4, 4, 8, 8, AMD_NUM_SRGB }, { 68, "5_6_5_UNORM", 2, 3, 5, 0, AMD_NUM_UNORM },
        { 69, "1_5_5_5_UNORM", 2, 4, 5, 1, AMD_NUM_UNORM }, { 70, "5_5_5_1_UNORM", 2, 4, 1, 5, AMD_NUM_UNORM },
        { 71, "4_4_4_4_UNORM", 2, 4, 4, 4, AMD_NUM_UNORM }, { 72, "4_4_UNORM", 1, 2, 4, 0, AMD_NUM_UNORM },
    };
    for (unsigned i = 0; i < sizeof im / sizeof im[0]; i++) {
        const amd_buf_format *f = amd_img_format_info(im[i].n);
        if (!f || strcmp(f->name, im[i].name) || f->bytes != im[i].bytes || f->ncomp != im[i].ncomp ||
            f->bits[0] != im[i].x || f->bits[3] != im[i].w || f->num != im[i].num)
            amt_fail(t, __FILE__, __LINE__, "image format %u is not %s", im[i].n, im[i].name);
        OK(t, amd_buf_format_info(im[i].n) == NULL);   /* never a buffer format */
    }
    OK(t, amd_img_format_info(22) == amd_buf_format_info(22));
    OK(t, amd_img_format_info(0) == NULL && amd_img_format_info(67) == NULL && amd_img_format_info(73) == NULL &&
          amd_img_format_info(255) == NULL);
    /* sRGB: W of 8_8_8_8_SRGB is linear, every component of 8_8_SRGB is encoded */
    OK(t, amd_fmt_comp_num(amd_img_format_info(66), 3) == AMD_NUM_UNORM);
    OK(t, amd_fmt_comp_num(amd_img_format_info(66), 2) == AMD_NUM_SRGB);
    OK(t, amd_fmt_comp_num(amd_img_format_info(65), 1) == AMD_NUM_SRGB);
    /* sRGB decoding (IEC 61966-2-1), rounded once: 0 -> 0, 255 -> 1, 10/255 on the linear
     * segment (10/255/12.92), 188 -> 0.5028864580325687 (the curve, in double) */
    EQ(t, amd_fmt_load32(AMD_NUM_SRGB, 8, 0), 0);
    EQ(t, amd_fmt_load32(AMD_NUM_SRGB, 8, 255), 0x3f800000u);
    float lin10 = (float)(10.0 / 255.0 / 12.92), lin188 = 0.5028864580325687f;
    uint32_t b10, b188;
    memcpy(&b10, &lin10, 4), memcpy(&b188, &lin188, 4);
    EQ(t, amd_fmt_load32(AMD_NUM_SRGB, 8, 10), b10);
    EQ(t, amd_fmt_load32(AMD_NUM_SRGB, 8, 188), b188);
    EQ(t, amd_fmt_load16(AMD_NUM_SRGB, 8, 255), 0x3c00);
    /* packed layout: 2_10_10_10 X = [9:0], W = [31:30]; 10_11_11 Z = [31:22] */
    const amd_buf_format *f = amd_buf_format_info(36);
    uint8_t m[4] = { 0xff, 0x03, 0x00, 0xc0 };   /* X = 0x3ff, W = 3 */
    EQ(t, amd_fmt_get_raw(f, m, 0), 0x3ff);
    EQ(t, amd_fmt_get_raw(f, m, 1), 0);
    EQ(t, amd_fmt_get_raw(f, m, 3), 3);
    f = amd_buf_format_info(30);
    uint32_t z = 0x3ffu << 22;
    memcpy(m, &z, 4);
    EQ(t, amd_fmt_get_raw(f, m, 2), 0x3ff);
    EQ(t, amd_fmt_get_raw(f, m, 1), 0);
    uint8_t o[4] = { 0 };
    amd_fmt_put_raw(f, o, 1, 0x7ff);
    uint32_t ov;
    memcpy(&ov, o, 4);
    EQ(t, ov, 0x7ffu << 11);
}

/* Memory -> register: UNORM, SNORM, SCALED, INT, FLOAT (incl. the 11/10-bit floats). */
static void format_load_conversions(amt *t)
{
    EQ(t, amd_fmt_load32(AMD_NUM_UNORM, 8, 0), fbits(0.0f));
    EQ(t, amd_fmt_load32(AMD_NUM_UNORM, 8, 255), fbits(1.0f));
    EQ(t, amd_fmt_load32(AMD_NUM_UNORM, 8, 51), fbits(0.2f));
    EQ(t, amd_fmt_load32(AMD_NUM_UNORM, 2, 1), fbits(1.0f / 3.0f));
    EQ(t, amd_fmt_load32(AMD_NUM_UNORM, 16, 65535), fbits(1.0f));
    EQ(t, amd_fmt_load32(AMD_NUM_SNORM, 8, 127), fbits(1.0f));
    EQ(t, amd_fmt_load32(AMD_NUM_SNORM, 8, 0x81), fbits(-1.0f));     /* -127 */
    EQ(t, amd_fmt_load32(AMD_NUM_SNORM, 8, 0x80), fbits(-1.0f));     /* -128 clamps to -1 */
    EQ(t, amd_fmt_load32(AMD_NUM_SNORM, 16, 0x8000), fbits(-1.0f));
    EQ(t, amd_fmt_load32(AMD_NUM_SNORM, 2, 2), fbits(-1.0f));
    EQ(t, amd_fmt_load32(AMD_NUM_SNORM, 10, 511), fbits(1.0f));
    EQ(t, amd_fmt_load32(AMD_NUM_USCALED, 8, 255), fbits(255.0f));
    EQ(t, amd_fmt_load32(AMD_NUM_SSCALED, 16, 0x8000), fbits(-32768.0f));
    EQ(t, amd_fmt_load32(AMD_NUM_UINT, 8, 0xff), 0xff);
    EQ(t, amd_fmt_load32(AMD_NUM_SINT, 8, 0xff), 0xffffffff);
    EQ(t, amd_fmt_load32(AMD_NUM_SINT, 10, 0x200), 0xfffffe00);
    EQ(t, amd_fmt_load32(AMD_NUM_UINT, 32, 0xdeadbeef), 0xdeadbeef);  /* 32-bit: no conversion */
    EQ(t, amd_fmt_load32(AMD_NUM_FLOAT, 32, 0x7fc00001), 0x7fc00001);
    EQ(t, amd_fmt_load32(AMD_NUM_FLOAT, 16, 0x3c00), fbits(1.0f));
    EQ(t, amd_fmt_load32(AMD_NUM_FLOAT, 16, 0x0001), fbits(0x1p-24f));   /* f16 denormal */
    EQ(t, amd_fmt_load32(AMD_NUM_FLOAT, 16, 0xfc00), 0xff800000);         /* -inf */
    EQ(t, amd_fmt_load32(AMD_NUM_FLOAT, 16, 0x7e00), 0x7fc00000);         /* NaN */
    EQ(t, amd_fmt_load32(AMD_NUM_FLOAT, 11, 15u << 6), fbits(1.0f));      /* 11-bit: e 15, m 0 */
    EQ(t, amd_fmt_load32(AMD_NUM_FLOAT, 11, 0x7bf), fbits(65024.0f));     /* largest 11-bit */
    EQ(t, amd_fmt_load32(AMD_NUM_FLOAT, 10, 0x3df), fbits(64512.0f));     /* largest 10-bit */
    EQ(t, amd_fmt_load32(AMD_NUM_FLOAT, 11, 1), fbits(0x1p-20f));         /* 11-bit denormal */
    EQ(t, amd_fmt_load32(AMD_NUM_FLOAT, 10, 0x3e0), 0x7f800000);          /* inf */
}

/* Register -> memory: clamping, rounding, NaN, infinities, denormals, out of range. */
static void format_store_conversions(amt *t)
{
    EQ(t, amd_fmt_store32(AMD_NUM_UNORM, 8, fbits(0.5f)), 128);           /* 127.5 rounds to even */
    EQ(t, amd_fmt_store32(AMD_NUM_UNORM, 8, fbits(2.0f)), 255);
    EQ(t, amd_fmt_store32(AMD_NUM_UNORM, 8, fbits(-1.0f)), 0);
    EQ(t, amd_fmt_store32(AMD_NUM_UNORM, 8, fbits(NAN)), 0);
    EQ(t, amd_fmt_store32(AMD_NUM_UNORM, 16, fbits(INFINITY)), 65535);
    EQ(t, amd_fmt_store32(AMD_NUM_UNORM, 2, fbits(0.5f)), 2);             /* 1.5 -> 2 (even) */
    EQ(t, amd_fmt_store32(AMD_NUM_SNORM, 8, fbits(-1.0f)), 0x81);
    EQ(t, amd_fmt_store32(AMD_NUM_SNORM, 8, fbits(-5.0f)), 0x81);
    EQ(t, amd_fmt_store32(AMD_NUM_SNORM, 8, fbits(1.0f)), 0x7f);
    EQ(t, amd_fmt_store32(AMD_NUM_SNORM, 16, fbits(NAN)), 0);
    EQ(t, amd_fmt_store32(AMD_NUM_SNORM, 10, fbits(-INFINITY)), 0x201);
    EQ(t, amd_fmt_store32(AMD_NUM_USCALED, 8, fbits(300.0f)), 255);
    EQ(t, amd_fmt_store32(AMD_NUM_USCALED, 8, fbits(3.9f)), 3);           /* truncates */
    EQ(t, amd_fmt_store32(AMD_NUM_USCALED, 8, fbits(-3.0f)), 0);
    EQ(t, amd_fmt_store32(AMD_NUM_SSCALED, 8, fbits(-300.0f)), 0x80);
    EQ(t, amd_fmt_store32(AMD_NUM_SSCALED, 16, fbits(-2.7f)), 0xfffe);
    EQ(t, amd_fmt_store32(AMD_NUM_UINT, 8, 0x12345678), 0x78);            /* low bits kept */
    EQ(t, amd_fmt_store32(AMD_NUM_SINT, 2, 0xffffffff), 3);
    EQ(t, amd_fmt_store32(AMD_NUM_FLOAT, 32, 0xff800000), 0xff800000);
    EQ(t, amd_fmt_store32(AMD_NUM_FLOAT, 16, fbits(1.0f)), 0x3c00);
    EQ(t, amd_fmt_store32(AMD_NUM_FLOAT, 16, fbits(65520.0f)), 0x7bff);   /* RTZ: no overflow to inf */
    EQ(t, amd_fmt_store32(AMD_NUM_FLOAT, 16, fbits(1e9f)), 0x7bff);
    EQ(t, amd_fmt_store32(AMD_NUM_FLOAT, 16, fbits(INFINITY)), 0x7c00);
    EQ(t, amd_fmt_store32(AMD_NUM_FLOAT, 16, fbits(NAN)), 0x7e00);
    EQ(t, amd_fmt_store32(AMD_NUM_FLOAT, 16, 0x3f800fffu), 0x3c00);       /* 1.00049 truncates */
    EQ(t, amd_fmt_store32(AMD_NUM_FLOAT, 16, fbits(0x1p-25f)), 0);        /* below the f16 denormals */
    EQ(t, amd_fmt_store32(AMD_NUM_FLOAT, 16, fbits(-0x1p-24f)), 0x8001);  /* f16 denormal */
    EQ(t, amd_fmt_store32(AMD_NUM_FLOAT, 11, fbits(-1.0f)), 0);           /* unsigned float: negative -> 0 */
    EQ(t, amd_fmt_store32(AMD_NUM_FLOAT, 11, fbits(1.0f)), 15u << 6);
    EQ(t, amd_fmt_store32(AMD_NUM_FLOAT, 11, fbits(1e9f)), 0x7bf);        /* RTZ to the largest */
    EQ(t, amd_fmt_store32(AMD_NUM_FLOAT, 10, fbits(INFINITY)), 0x3e0);
    EQ(t, amd_fmt_store32(AMD_NUM_FLOAT, 10, fbits(NAN)) & 0x3e0, 0x3e0);
    OK(t, (amd_fmt_store32(AMD_NUM_FLOAT, 10, fbits(NAN)) & 0x1f) != 0);
}

/* D16: to 16 bits on load (f32 -> f16 truncates, everything else rounds to nearest even) and
 * from 16 bits on store. */
static void format_d16_conversions(amt *t)
{
    EQ(t, amd_fmt_load16(AMD_NUM_FLOAT, 32, 0x3f800fffu), 0x3c00);       /* truncation */
    EQ(t, amd_fmt_load16(AMD_NUM_FLOAT, 32, fbits(1e9f)), 0x7bff);
    EQ(t, amd_fmt_load16(AMD_NUM_FLOAT, 16, 0xabcd), 0xabcd);
    EQ(t, amd_fmt_load16(AMD_NUM_UNORM, 8, 255), 0x3c00);
    EQ(t, amd_fmt_load16(AMD_NUM_UNORM, 8, 1), 0x1c04);                  /* 1/255 rounds to nearest */
    EQ(t, amd_fmt_load16(AMD_NUM_SNORM, 8, 0x80), 0xbc00);
    EQ(t, amd_fmt_load16(AMD_NUM_USCALED, 16, 65535), 0x7c00);           /* rounds up to inf */
    EQ(t, amd_fmt_load16(AMD_NUM_UINT, 8, 200), 200);
    EQ(t, amd_fmt_load16(AMD_NUM_SINT, 8, 0x80), 0xff80);
    EQ(t, amd_fmt_load16(AMD_NUM_FLOAT, 11, 15u << 6), 0x3c00);
    EQ(t, amd_fmt_store16(AMD_NUM_UNORM, 8, 0x3800), 128);               /* 0.5 */
    EQ(t, amd_fmt_store16(AMD_NUM_FLOAT, 32, 0x3c00), fbits(1.0f));
    EQ(t, amd_fmt_store16(AMD_NUM_SINT, 32, 0xff80), 0xffffff80);
    EQ(t, amd_fmt_store16(AMD_NUM_UINT, 32, 0xff80), 0xff80);
    EQ(t, amd_f32_to_f16_rne(0x3f801001u), 0x3c01);   /* just above half an ulp: up */
    EQ(t, amd_f32_to_f16_rtz(0x3f801001u), 0x3c00);
    EQ(t, amd_f32_to_f16_rne(0x3f801000u), 0x3c00);   /* exactly half: to even */
    EQ(t, amd_f16_to_f32(0x8000), 0x80000000);
}

static void alignment_modes(amt *t)
{
    uint64_t a = 0x1003;
    OK(t, amd_align_check(0, &a, 4, false));
    EQ(t, a, 0x1000);
    a = 0x1003;
    OK(t, amd_align_check(0, &a, 2, false));
    EQ(t, a, 0x1002);
    a = 0x1006;
    OK(t, amd_align_check(0, &a, 16, false));
    EQ(t, a, 0x1004);
    a = 0x1002;
    OK(t, !amd_align_check(1, &a, 4, false));
    a = 0x1004;
    OK(t, amd_align_check(1, &a, 16, false));
    a = 0x1004;
    OK(t, !amd_align_check(2, &a, 8, false));
    a = 0x1004;
    OK(t, amd_align_check(2, &a, 12, false));   /* 12 bytes: natural alignment 4 */
    a = 0x1001;
    OK(t, amd_align_check(3, &a, 16, false));
    EQ(t, a, 0x1001);
    a = 0x1004;
    OK(t, !amd_align_check(3, &a, 8, true));   /* atomics: always natural */
    a = 0x1004;
    OK(t, amd_align_check(0, &a, 4, true));
}

static void apertures(amt *t)
{
    const uint64_t S = AMD_SHARED_BASE_DEFAULT, P = AMD_PRIVATE_BASE_DEFAULT;
    EQ(t, amd_aperture_limit(S), 0x00010000ffffffffull);
    EQ(t, amd_flat_classify(S, S, P), AMD_FLAT_LDS);
    EQ(t, amd_flat_classify(S + 0xffffffffull, S, P), AMD_FLAT_LDS);
    EQ(t, amd_flat_classify(S + 0x100000000ull, S, P), AMD_FLAT_HOLE);
    EQ(t, amd_flat_classify(P + 5, S, P), AMD_FLAT_PRIVATE);
    EQ(t, amd_flat_classify(0x00007fffffffffffull, S, P), AMD_FLAT_GLOBAL);
    EQ(t, amd_flat_classify(0xffff800000000000ull, S, P), AMD_FLAT_GLOBAL);
    EQ(t, amd_flat_classify(0x0000800000000000ull, S, P), AMD_FLAT_HOLE);
    EQ(t, amd_flat_classify(S, 0, P), AMD_FLAT_HOLE);     /* a zero base disables the aperture */
    /* scratch swizzle: base + (off/4)*4*wavesize + lane*4 + off%4 */
    EQ(t, amd_scratch_addr(0x1000, 32, 5, 8 + 3), 0x1000 + 2 * 128 + 20 + 3);
    EQ(t, amd_scratch_addr(0x1000, 64, 63, 4), 0x1000 + 256 + 252);
}

static void atomic_ops(amt *t)
{
    EQ(t, amd_atomic_apply(AMD_AT_RSUB, 4, 3, 10, 0), 7);
    EQ(t, amd_atomic_apply(AMD_AT_SMIN, 8, 1, ~0ull, 0), ~0ull);
    EQ(t, amd_atomic_apply(AMD_AT_CSUB, 4, 3, 10, 0), 0);
    EQ(t, amd_atomic_apply(AMD_AT_MSKOR, 4, 0xff, 0x0f, 0x100), 0x1f0);
    EQ(t, amd_atomic_apply(AMD_AT_WRAP, 4, 2, 3, 10), 12);
    EQ(t, amd_atomic_apply(AMD_AT_FMIN, 4, fbits(0.0f), fbits(-0.0f), 0), fbits(-0.0f));
    EQ(t, amd_atomic_apply(AMD_AT_FMAX, 4, fbits(-0.0f), fbits(0.0f), 0), fbits(0.0f));
    EQ(t, amd_atomic_apply(AMD_AT_FADD, 8, 0x3ff0000000000000ull, 0x3ff0000000000000ull, 0), 0x4000000000000000ull);
    EQ(t, amd_atomic_apply(AMD_AT_FCMPSWAP, 4, fbits(NAN), 5, fbits(NAN)), fbits(NAN));
}

#define C(fn) { #fn, fn }
const amt_case amt_cases_pure[] = {
    C(vsharp_fields), C(buffer_linear_address), C(buffer_swizzle_address), C(buffer_oob_modes),
    C(buffer_unbound), C(format_table), C(format_load_conversions), C(format_store_conversions),
    C(format_d16_conversions), C(alignment_modes), C(apertures), C(atomic_ops),
    { NULL, NULL },
};
