/* Buffer formats and conversions (see amd_format.h and docs/MEMORY_MODEL.md §Formats). */
#include "mem/amd_format.h"

#include <math.h>
#include <string.h>

#define F(nm, nc, x, y, z, w, num) { nm, nc, { x, y, z, w }, AMD_NUM_##num, (x + y + z + w) / 8, 0 }
#define SIX(pre, nc, x, y, z, w)                                                        \
    F(pre "_UNORM", nc, x, y, z, w, UNORM), F(pre "_SNORM", nc, x, y, z, w, SNORM),     \
    F(pre "_USCALED", nc, x, y, z, w, USCALED), F(pre "_SSCALED", nc, x, y, z, w, SSCALED), \
    F(pre "_UINT", nc, x, y, z, w, UINT), F(pre "_SINT", nc, x, y, z, w, SINT)

/* Component X is in the least-significant bits; the packed names list the widths from the most
 * significant component down (10_11_11: X = 11 bits [10:0], Z = 10 bits [31:22]). */
static const amd_buf_format formats[AMD_BUF_FORMATS] = {
    [0] = { "INVALID", 0, { 0 }, 0, 0 },
    SIX("8", 1, 8, 0, 0, 0),                                             /* 1..6 */
    SIX("16", 1, 16, 0, 0, 0), F("16_FLOAT", 1, 16, 0, 0, 0, FLOAT),      /* 7..13 */
    SIX("8_8", 2, 8, 8, 0, 0),                                           /* 14..19 */
    F("32_UINT", 1, 32, 0, 0, 0, UINT), F("32_SINT", 1, 32, 0, 0, 0, SINT),
    F("32_FLOAT", 1, 32, 0, 0, 0, FLOAT),                                 /* 20..22 */
    SIX("16_16", 2, 16, 16, 0, 0), F("16_16_FLOAT", 2, 16, 16, 0, 0, FLOAT), /* 23..29 */
    F("10_11_11_FLOAT", 3, 11, 11, 10, 0, FLOAT),                         /* 30 */
    F("11_11_10_FLOAT", 3, 10, 11, 11, 0, FLOAT),                         /* 31 */
    F("10_10_10_2_UNORM", 4, 2, 10, 10, 10, UNORM), F("10_10_10_2_SNORM", 4, 2, 10, 10, 10, SNORM),
    F("10_10_10_2_UINT", 4, 2, 10, 10, 10, UINT), F("10_10_10_2_SINT", 4, 2, 10, 10, 10, SINT), /* 32..35 */
    SIX("2_10_10_10", 4, 10, 10, 10, 2),                                  /* 36..41 */
    SIX("8_8_8_8", 4, 8, 8, 8, 8),                                        /* 42..47 */
    F("32_32_UINT", 2, 32, 32, 0, 0, UINT), F("32_32_SINT", 2, 32, 32, 0, 0, SINT),
    F("32_32_FLOAT", 2, 32, 32, 0, 0, FLOAT),                             /* 48..50 */
    SIX("16_16_16_16", 4, 16, 16, 16, 16), F("16_16_16_16_FLOAT", 4, 16, 16, 16, 16, FLOAT), /* 51..57 */
    F("32_32_32_UINT", 3, 32, 32, 32, 0, UINT), F("32_32_32_SINT", 3, 32, 32, 32, 0, SINT),
    F("32_32_32_FLOAT", 3, 32, 32, 32, 0, FLOAT),                         /* 58..60 */
    F("32_32_32_32_UINT", 4, 32, 32, 32, 32, UINT), F("32_32_32_32_SINT", 4, 32, 32, 32, 32, SINT),
    F("32_32_32_32_FLOAT", 4, 32, 32, 32, 32, FLOAT),                     /* 61..63 */
};

const amd_buf_format *amd_buf_format_info(unsigned fmt)
{
    if (fmt == 0 || fmt >= AMD_BUF_FORMATS) return NULL;
    return &formats[fmt];
}

/* The image-only formats (ROCr's gfx11 resource header numbers them; the widths follow the same
 * naming rule as above: 5_6_5 is X = 5 bits [4:0], Y = 6 [10:5], Z = 5 [15:11]; 1_5_5_5 has W = 1
 * bit [15], 5_5_5_1 has X = 1 bit [0]). */
static const amd_buf_format image_formats[] = {
    F("8_SRGB", 1, 8, 0, 0, 0, SRGB),                           /* 64 */
    F("8_8_SRGB", 2, 8, 8, 0, 0, SRGB),                         /* 65 */
    { "8_8_8_8_SRGB", 4, { 8, 8, 8, 8 }, AMD_NUM_SRGB, 4, 1 },  /* 66 */
    { NULL, 0, { 0 }, 0, 0, 0 },                                /* 67: 5_9_9_9_FLOAT, not implemented */
    F("5_6_5_UNORM", 3, 5, 6, 5, 0, UNORM),                     /* 68 */
    F("1_5_5_5_UNORM", 4, 5, 5, 5, 1, UNORM),                   /* 69 */
    F("5_5_5_1_UNORM", 4, 1, 5, 5, 5, UNORM),                   /* 70 */
    F("4_4_4_4_UNORM", 4, 4, 4, 4, 4, UNORM),                   /* 71 */
    F("4_4_UNORM", 2, 4, 4, 0, 0, UNORM),                       /* 72 */
};

const amd_buf_format *amd_img_format_info(unsigned fmt)
{
    if (fmt < AMD_BUF_FORMATS) return amd_buf_format_info(fmt);
    unsigned i = fmt - AMD_BUF_FORMATS;
    if (i >= sizeof image_formats / sizeof *image_formats || !image_formats[i].name) return NULL;
    return &image_formats[i];
}

static unsigned comp_pos(const amd_buf_format *f, unsigned c)
{
    unsigned p = 0;
    for (unsigned i = 0; i < c; i++) p += f->bits[i];
    return p;
}

uint32_t amd_fmt_get_raw(const amd_buf_format *f, const uint8_t *mem, unsigned c)
{
    return amd_fmt_bits(mem, comp_pos(f, c), f->bits[c]);
}

void amd_fmt_put_raw(const amd_buf_format *f, uint8_t *mem, unsigned c, uint32_t raw)
{
    unsigned pos = comp_pos(f, c), n = f->bits[c];
    if (!n) return;
    /* the component spans at most 5 bytes (32 bits at a bit offset up to 7): read them, replace
     * the component's bits, write them back */
    unsigned first = pos / 8, last = (pos + n - 1) / 8, shift = pos % 8;
    uint64_t mask = (n == 32 ? 0xffffffffull : (1ull << n) - 1) << shift, v = 0;
    for (unsigned b = last + 1; b-- > first;) v = (v << 8) | mem[b];
    v = (v & ~mask) | (((uint64_t)raw << shift) & mask);
    for (unsigned b = first; b <= last; b++, v >>= 8) mem[b] = (uint8_t)v;
}

/* ---- small floats: 5-bit exponent (bias 15), mbits mantissa, optional sign ---- */

static uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float f32_val(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* Encode x; rtz = round toward zero (overflow gives the largest finite value), otherwise
 * round to nearest even (overflow gives infinity). NaN becomes the quiet NaN; a negative value
 * becomes 0 when there is no sign bit. */
static uint32_t small_float(double x, unsigned mbits, bool has_sign, bool rtz)
{
    uint32_t inf = 31u << mbits, sign = 0;
    if (isnan(x)) return inf | (1u << (mbits - 1));
    if (signbit(x)) {
        if (!has_sign) return 0;
        sign = 1u << (mbits + 5);
        x = -x;
    }
    if (isinf(x)) return sign | inf;
    double one = ldexp(1.0, (int)mbits);
    if (x < 0x1p-14) {   /* subnormal: units of 2^(-14-mbits); rounding up to 2^mbits is the min normal */
        double q = ldexp(x, 14 + (int)mbits);
        return sign | (uint32_t)(rtz ? trunc(q) : rint(q));
    }
    int e;
    double m = frexp(x, &e);   /* x = m * 2^e, m in [0.5, 1) */
    double q = rtz ? trunc(m * 2 * one) : rint(m * 2 * one);
    if (q >= 2 * one) { q = one; e++; }
    int be = e - 1 + 15;
    if (be >= 31) return sign | (rtz ? ((30u << mbits) | (uint32_t)(one - 1)) : inf);
    return sign | ((uint32_t)be << mbits) | ((uint32_t)q - (uint32_t)one);
}

/* Decode to f32 bits (exact: every small float is a float). */
static uint32_t small_float_f32(uint32_t v, unsigned mbits, bool has_sign)
{
    uint32_t m = v & ((1u << mbits) - 1u), e = (v >> mbits) & 31u;
    uint32_t sign = has_sign && ((v >> (mbits + 5)) & 1u) ? 0x80000000u : 0u;
    if (e == 31) return sign | 0x7f800000u | (m << (23 - mbits));
    double r = e == 0 ? ldexp((double)m, -14 - (int)mbits) : ldexp((double)(m + (1u << mbits)), (int)e - 15 - (int)mbits);
    return sign | f32_bits((float)r);
}

uint16_t amd_f32_to_f16_rtz(uint32_t u) { return (uint16_t)small_float(f32_val(u), 10, true, true); }
uint16_t amd_f32_to_f16_rne(uint32_t u) { return (uint16_t)small_float(f32_val(u), 10, true, false); }
uint32_t amd_f16_to_f32(uint16_t h) { return small_float_f32(h, 10, true); }

/* ---- component conversions ---- */

static int32_t sext(uint32_t raw, unsigned n)
{
    if (n >= 32) return (int32_t)raw;
    uint32_t s = 1u << (n - 1);
    return (int32_t)((raw ^ s) - s);
}

/* An sRGB-encoded component decoded to linear (IEC 61966-2-1's transfer function, evaluated in
 * double; the result is rounded once, to the register's f32 or f16). */
static double srgb_to_linear(double c)
{
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

/* The exact value of a float-typed component. */
static double comp_value(unsigned num, unsigned n, uint32_t raw)
{
    switch (num) {
    case AMD_NUM_SRGB: return srgb_to_linear((double)raw / (double)((1ull << n) - 1));
    case AMD_NUM_UNORM: return (double)raw / (double)((1ull << n) - 1);
    case AMD_NUM_SNORM: {
        double v = (double)sext(raw, n) / (double)((1ull << (n - 1)) - 1);
        return v < -1.0 ? -1.0 : v;
    }
    case AMD_NUM_USCALED: return (double)raw;
    case AMD_NUM_SSCALED: return (double)sext(raw, n);
    default: return f32_val(amd_fmt_load32(num, n, raw));
    }
}

uint32_t amd_fmt_load32(unsigned num, unsigned n, uint32_t raw)
{
    switch (num) {
    case AMD_NUM_UINT: return raw;
    case AMD_NUM_SINT: return (uint32_t)sext(raw, n);
    case AMD_NUM_FLOAT:
        if (n == 32) return raw;
        if (n == 16) return amd_f16_to_f32((uint16_t)raw);
        return small_float_f32(raw, n - 5, false);   /* 11 bits: 6-bit mantissa; 10: 5 */
    default: return f32_bits((float)comp_value(num, n, raw));
    }
}

uint16_t amd_fmt_load16(unsigned num, unsigned n, uint32_t raw)
{
    switch (num) {
    case AMD_NUM_UINT: return (uint16_t)raw;
    case AMD_NUM_SINT: return (uint16_t)sext(raw, n);
    case AMD_NUM_FLOAT:
        if (n == 32) return amd_f32_to_f16_rtz(raw);   /* "float32 to float16 uses truncation" */
        if (n == 16) return (uint16_t)raw;
        return (uint16_t)small_float(f32_val(small_float_f32(raw, n - 5, false)), 10, true, false);
    default: return (uint16_t)small_float(comp_value(num, n, raw), 10, true, false);
    }
}

/* Clamp to [lo, hi] with NaN -> 0. */
static double clampd(double x, double lo, double hi)
{
    if (isnan(x)) return 0.0;
    return x < lo ? lo : x > hi ? hi : x;
}

static uint32_t mask_n(uint32_t v, unsigned n) { return n >= 32 ? v : v & ((1u << n) - 1u); }

static uint32_t store_value(unsigned num, unsigned n, double x)
{
    double umax = (double)((1ull << n) - 1), smax = (double)((1ull << (n - 1)) - 1);
    switch (num) {
    case AMD_NUM_UNORM: return (uint32_t)rint(clampd(x, 0.0, 1.0) * umax);
    case AMD_NUM_SNORM: return mask_n((uint32_t)(int32_t)rint(clampd(x, -1.0, 1.0) * smax), n);
    case AMD_NUM_USCALED: return (uint32_t)trunc(clampd(x, 0.0, umax));
    default: /* SSCALED */ return mask_n((uint32_t)(int64_t)trunc(clampd(x, -smax - 1, smax)), n);
    }
}

uint32_t amd_fmt_store32(unsigned num, unsigned n, uint32_t reg)
{
    switch (num) {
    case AMD_NUM_UINT: case AMD_NUM_SINT: return mask_n(reg, n);
    case AMD_NUM_FLOAT:
        if (n == 32) return reg;
        if (n == 16) return amd_f32_to_f16_rtz(reg);
        return small_float(f32_val(reg), n - 5, false, true);
    default: return store_value(num, n, f32_val(reg));
    }
}

uint32_t amd_fmt_store16(unsigned num, unsigned n, uint16_t reg)
{
    if (num == AMD_NUM_UINT) return mask_n(reg, n);
    if (num == AMD_NUM_SINT) return mask_n((uint32_t)(int32_t)(int16_t)reg, n);
    return amd_fmt_store32(num, n, amd_f16_to_f32(reg));
}
