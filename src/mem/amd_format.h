/* The 64 gfx11 unified buffer formats (spec/rdna3.md §3) and their conversions between memory
 * and 32-bit (or D16: 16-bit) register values. Pure functions. */
#ifndef UMBRA_AMD_FORMAT_H
#define UMBRA_AMD_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef enum amd_num {
    AMD_NUM_UNORM, AMD_NUM_SNORM, AMD_NUM_USCALED, AMD_NUM_SSCALED,
    AMD_NUM_UINT, AMD_NUM_SINT, AMD_NUM_FLOAT,
    AMD_NUM_SRGB,   /* image formats 64..66: 8-bit sRGB-encoded colour (alpha linear UNORM) */
} amd_num;

typedef struct amd_buf_format {
    const char *name;       /* "32_FLOAT", as llvm-mc prints BUF_FMT_<name> */
    uint8_t ncomp;          /* 1..4 */
    uint8_t bits[4];        /* component widths, X first (X in the least-significant bits) */
    uint8_t num;            /* amd_num */
    uint8_t bytes;          /* element size in bytes */
    uint8_t alpha_unorm;    /* SRGB formats: component W is plain UNORM, not sRGB-encoded */
} amd_buf_format;

#define AMD_BUF_FORMATS 64

/* Format 1..63; NULL for 0 (INVALID) and anything above 63 (image-only formats). */
const amd_buf_format *amd_buf_format_info(unsigned fmt);

/* The formats a T# may name: 1..63 as above and the image-only ones umbra implements (64 8_SRGB,
 * 65 8_8_SRGB, 66 8_8_8_8_SRGB, 68 5_6_5_UNORM, 69 1_5_5_5_UNORM, 70 5_5_5_1_UNORM, 71
 * 4_4_4_4_UNORM, 72 4_4_UNORM); NULL for the others (67 5_9_9_9_FLOAT, 73.. 1-bit, depth-stencil
 * and compressed formats). */
const amd_buf_format *amd_img_format_info(unsigned fmt);

/* The numeric type of component c of format f (SRGB formats: W is UNORM when alpha_unorm). */
static inline unsigned amd_fmt_comp_num(const amd_buf_format *f, unsigned c)
{
    return f->num == AMD_NUM_SRGB && c == 3 && f->alpha_unorm ? AMD_NUM_UNORM : f->num;
}

/* Is a register value of this format a float (UNORM/SNORM/SCALED/FLOAT) or an integer? */
static inline bool amd_num_is_float(unsigned num) { return num != AMD_NUM_UINT && num != AMD_NUM_SINT; }

/* The n bits (1..32) from bit pos of the little-endian bit string at mem: a format's component. */
static inline uint32_t amd_fmt_bits(const uint8_t *mem, unsigned pos, unsigned n)
{
    const uint8_t *p = mem + pos / 8;
    if (!(pos & 7u)) {   /* whole bytes (8/16/32-bit components): one little-endian load */
        if (n == 8) return p[0];
        if (n == 16) return (uint32_t)p[0] | (uint32_t)p[1] << 8;
        if (n == 32) {
            uint32_t w;
            memcpy(&w, p, 4);
            return w;
        }
    }
    uint64_t v = 0;
    unsigned first = pos / 8, last = (pos + n - 1) / 8;
    for (unsigned b = last + 1; b-- > first;) v = (v << 8) | mem[b];
    v >>= pos % 8;
    return n == 32 ? (uint32_t)v : (uint32_t)(v & ((1ull << n) - 1));
}

/* Raw component c of the element at mem (little-endian bit string). */
uint32_t amd_fmt_get_raw(const amd_buf_format *f, const uint8_t *mem, unsigned c);
void amd_fmt_put_raw(const amd_buf_format *f, uint8_t *mem, unsigned c, uint32_t raw);

/* Memory component (n bits, numeric type num) -> 32-bit register value (f32 bits for float
 * types) and -> 16-bit D16 value (f16 bits / 16-bit integer). */
uint32_t amd_fmt_load32(unsigned num, unsigned n, uint32_t raw);
uint16_t amd_fmt_load16(unsigned num, unsigned n, uint32_t raw);
/* Register value -> n-bit memory component. */
uint32_t amd_fmt_store32(unsigned num, unsigned n, uint32_t reg);
uint32_t amd_fmt_store16(unsigned num, unsigned n, uint16_t reg);

/* The value SEL_1 reads as: 1.0f for float formats, 1 for integer formats (D16: 0x3c00 / 1). */
static inline uint32_t amd_fmt_one32(unsigned num) { return amd_num_is_float(num) ? 0x3f800000u : 1u; }
static inline uint16_t amd_fmt_one16(unsigned num) { return amd_num_is_float(num) ? 0x3c00u : 1u; }

/* Half-precision helpers. */
uint16_t amd_f32_to_f16_rtz(uint32_t f32bits);
uint16_t amd_f32_to_f16_rne(uint32_t f32bits);
uint32_t amd_f16_to_f32(uint16_t h);

#endif
