/* Conformance, the last memory rules of issue 13 (docs/MEMORY_MODEL.md names each test):
 * every MUBUF atomic on its own, TFE on every load class that allows it, format loads of
 * formats with fewer components than the instruction reads, and s_buffer_load_b512.
 * llvm-mc-19 encodes every instruction; the expected values are stated here from the rules. */
#include <stdbool.h>
#include <string.h>

#include "amt.h"

#define G AMT_BUF_GLOBAL


typedef struct vs {
    uint64_t base;
    uint32_t nr;
    unsigned fmt;
    unsigned sel[4];
} vs;

/* An unswizzled buffer without stride, OOB_SELECT 3 (raw: byte ranges), nr bytes. */
static vs raw(uint32_t nr, unsigned fmt) { return (vs){ G, nr, fmt, { SX, SY, SZ, SW } }; }

/* The V# into s[n:n+3], as spec/rdna3.md §1 lays it out (stride 0, OOB_SELECT 3, TYPE 0). */
static void put_vs(amt *t, unsigned n, const vs *v)
{
    amt_s(t, n, (uint32_t)v->base);
    amt_s(t, n + 1, (uint32_t)(v->base >> 32 & 0xffff));
    amt_s(t, n + 2, v->nr);
    amt_s(t, n + 3, v->sel[0] | v->sel[1] << 3 | v->sel[2] << 6 | v->sel[3] << 9 | (v->fmt & 63) << 12 | 3u << 28);
}

static void setup(amt *t, const vs *v)
{
    amt_begin(t, 32);
    amt_map(t, G, 0x10000);
    put_vs(t, 8, v);
    amt_s(t, 126, 1);   /* EXEC: lane 0 */
    amt_s(t, 127, 0);
}

/* "vN" or "v[N:M]" for n registers from N. */
static const char *vregs(char *buf, size_t len, unsigned first, unsigned n)
{
    if (n == 1) snprintf(buf, len, "v%u", first);
    else snprintf(buf, len, "v[%u:%u]", first, first + n - 1);
    return buf;
}

/* ---- every MUBUF atomic on its own ---- */

/* Memory before, the data operand (and the compare value of cmpswap), memory after. The
 * instruction with GLC returns the memory before. Floats: 1.5 = 0x3fc00000, -2.25 = 0xc0100000,
 * 2.25 = 0x40100000, 3.75 = 0x40700000, 1.0 = 0x3f800000, -1.0 = 0xbf800000, 2.0 = 0x40000000. */
typedef struct atomic_row { const char *op; uint64_t mem, src, cmp, want; } atomic_row;

static const atomic_row atomic_rows[] = {
    { "swap_b32", 5, 9, 0, 9 }, { "swap_b32", 0xffffffff, 0, 0, 0 },
    { "cmpswap_b32", 5, 9, 5, 9 }, { "cmpswap_b32", 5, 9, 4, 5 },
    { "add_u32", 0xffffffff, 2, 0, 1 }, { "add_u32", 7, 8, 0, 15 },
    { "sub_u32", 1, 2, 0, 0xffffffff }, { "sub_u32", 10, 3, 0, 7 },
    { "csub_u32", 1, 2, 0, 0 }, { "csub_u32", 10, 3, 0, 7 },            /* clamped at 0 */
    { "min_i32", 0xfffffffe, 1, 0, 0xfffffffe }, { "min_i32", 5, 3, 0, 3 },
    { "min_u32", 0xfffffffe, 1, 0, 1 }, { "min_u32", 0, 0xffffffff, 0, 0 },
    { "max_i32", 0xfffffffe, 1, 0, 1 }, { "max_i32", 0x80000000, 0x7fffffff, 0, 0x7fffffff },
    { "max_u32", 0xfffffffe, 1, 0, 0xfffffffe }, { "max_u32", 0x80000000, 0x7fffffff, 0, 0x80000000 },
    { "and_b32", 0xff00ff00, 0x0ff00ff0, 0, 0x0f000f00 }, { "and_b32", 0xffffffff, 0, 0, 0 },
    { "or_b32", 0xff00ff00, 0x0ff00ff0, 0, 0xfff0fff0 }, { "or_b32", 0, 0, 0, 0 },
    { "xor_b32", 0xff00ff00, 0x0ff00ff0, 0, 0xf0f0f0f0 }, { "xor_b32", 0xffffffff, 0xffffffff, 0, 0 },
    { "inc_u32", 4, 5, 0, 5 }, { "inc_u32", 5, 5, 0, 0 }, { "inc_u32", 9, 5, 0, 0 },   /* mem >= src: 0 */
    { "dec_u32", 0, 5, 0, 5 }, { "dec_u32", 3, 5, 0, 2 }, { "dec_u32", 9, 5, 0, 5 },   /* 0 or > src: src */
    { "cmpswap_f32", 0x80000000, 0x40000000, 0, 0x40000000 },          /* -0 == +0: swapped */
    { "cmpswap_f32", 0x3f800000, 0x40000000, 0x3f800001, 0x3f800000 },
    { "min_f32", 0x3fc00000, 0xc0100000, 0, 0xc0100000 }, { "min_f32", 0x3f800000, 0x40000000, 0, 0x3f800000 },
    { "max_f32", 0x3fc00000, 0xc0100000, 0, 0x3fc00000 }, { "max_f32", 0x3f800000, 0x40000000, 0, 0x40000000 },
    { "add_f32", 0x3fc00000, 0x40100000, 0, 0x40700000 }, { "add_f32", 0x3f800000, 0xbf800000, 0, 0 },
    { "swap_b64", 1, 0x100000002ull, 0, 0x100000002ull }, { "swap_b64", ~0ull, 0, 0, 0 },
    { "cmpswap_b64", 7, 9, 7, 9 }, { "cmpswap_b64", 0x100000007ull, 9, 7, 0x100000007ull },
    { "add_u64", 0xffffffffull, 1, 0, 0x100000000ull }, { "add_u64", ~0ull, 1, 0, 0 },
    { "sub_u64", 0, 1, 0, ~0ull }, { "sub_u64", 0x100000000ull, 1, 0, 0xffffffffull },
    { "min_i64", ~0ull, 1, 0, ~0ull }, { "min_i64", 0x8000000000000000ull, 0x7fffffffffffffffull, 0, 0x8000000000000000ull },
    { "min_u64", ~0ull, 1, 0, 1 }, { "min_u64", 0x100000000ull, 0xffffffffull, 0, 0xffffffffull },
    { "max_i64", ~0ull, 1, 0, 1 }, { "max_i64", 0x8000000000000000ull, 0x7fffffffffffffffull, 0, 0x7fffffffffffffffull },
    { "max_u64", ~0ull, 1, 0, ~0ull }, { "max_u64", 0x100000000ull, 0xffffffffull, 0, 0x100000000ull },
    { "and_b64", 0xff00000000ull, 0xf000000001ull, 0, 0xf000000000ull }, { "and_b64", ~0ull, 0x8000000000000001ull, 0, 0x8000000000000001ull },
    { "or_b64", 0xff00000000ull, 1, 0, 0xff00000001ull }, { "or_b64", 0x8000000000000000ull, 1, 0, 0x8000000000000001ull },
    { "xor_b64", 0xff00000000ull, 0xf000000000ull, 0, 0x0f00000000ull }, { "xor_b64", ~0ull, ~0ull, 0, 0 },
    { "inc_u64", 3, 3, 0, 0 }, { "inc_u64", 0xffffffffull, 0x100000000ull, 0, 0x100000000ull },
    { "dec_u64", 0, 7, 0, 7 }, { "dec_u64", 0x100000000ull, 0x100000000ull, 0, 0xffffffffull },
};

static bool is_64(const char *op) { return strstr(op, "64") != NULL; }

static void put_data(amt *t, unsigned reg, unsigned dw, uint64_t v)
{
    amt_v(t, reg, 0, (uint32_t)v);
    if (dw == 2) amt_v(t, reg + 1, 0, (uint32_t)(v >> 32));
}

static uint64_t get_data(amt *t, unsigned reg, unsigned dw)
{
    return amt_gv(t, reg, 0) | (dw == 2 ? (uint64_t)amt_gv(t, reg + 1, 0) << 32 : 0);
}

static uint64_t get_mem(amt *t, uint64_t a, unsigned dw) { return dw == 2 ? amt_r64(t, a) : amt_r32(t, a); }

static void put_mem(amt *t, uint64_t a, unsigned dw, uint64_t v)
{
    if (dw == 2) amt_w64(t, a, v);
    else amt_w32(t, a, (uint32_t)v);
}

/* Every row of op with GLC (memory after, value returned), then without GLC (the data VGPRs
 * keep their value), then out of range (memory untouched, GLC returns 0). */
static void atomic_case(amt *t, const char *op)
{
    unsigned dw = is_64(op) ? 2 : 1, nregs = dw * (strstr(op, "cmpswap") ? 2u : 1u), rows = 0;
    char regs[16];
    vs v = raw(64, 22);
    setup(t, &v);
    vregs(regs, sizeof regs, 2, nregs);
    const atomic_row *first = NULL;
    for (size_t i = 0; i < sizeof atomic_rows / sizeof atomic_rows[0]; i++) {
        const atomic_row *r = &atomic_rows[i];
        if (strcmp(r->op, op)) continue;
        if (!first) first = r;
        rows++;
        put_mem(t, G + 16, dw, r->mem);
        put_data(t, 2, dw, r->src);
        put_data(t, 2 + dw, dw, r->cmp);
        amt_code(t, "buffer_atomic_%s %s, off, s[8:11], 0 offset:16 glc", op, regs);
        RUNS(t);
        if (get_mem(t, G + 16, dw) != r->want || get_data(t, 2, dw) != r->mem)
            amt_fail(t, __FILE__, __LINE__, "buffer_atomic_%s on 0x%llx with 0x%llx: memory 0x%llx (want 0x%llx), "
                     "returned 0x%llx", op, (unsigned long long)r->mem, (unsigned long long)r->src,
                     (unsigned long long)get_mem(t, G + 16, dw), (unsigned long long)r->want,
                     (unsigned long long)get_data(t, 2, dw));
    }
    OK(t, rows >= 2);
    if (!first) return;
    put_mem(t, G + 16, dw, first->mem);
    put_data(t, 2, dw, first->src);
    put_data(t, 2 + dw, dw, first->cmp);
    amt_code(t, "buffer_atomic_%s %s, off, s[8:11], 0 offset:16", op, regs);
    RUNS(t);
    EQ(t, get_mem(t, G + 16, dw), first->want);
    EQ(t, get_data(t, 2, dw), first->src);       /* no GLC: nothing returned */
    put_mem(t, G + 64, dw, first->mem);           /* byte 64 of a 64-byte buffer: out of range */
    amt_code(t, "buffer_atomic_%s %s, off, s[8:11], 0 offset:64 glc", op, regs);
    RUNS(t);
    EQ(t, get_mem(t, G + 64, dw), first->mem);
    EQ(t, get_data(t, 2, dw), 0);
}

#define ATOMIC_TEST(op) static void buf_atomic_##op(amt *t) { atomic_case(t, #op); }
ATOMIC_TEST(swap_b32) ATOMIC_TEST(cmpswap_b32) ATOMIC_TEST(add_u32) ATOMIC_TEST(sub_u32) ATOMIC_TEST(csub_u32)
ATOMIC_TEST(min_i32) ATOMIC_TEST(min_u32) ATOMIC_TEST(max_i32) ATOMIC_TEST(max_u32) ATOMIC_TEST(and_b32)
ATOMIC_TEST(or_b32) ATOMIC_TEST(xor_b32) ATOMIC_TEST(inc_u32) ATOMIC_TEST(dec_u32)
ATOMIC_TEST(swap_b64) ATOMIC_TEST(cmpswap_b64) ATOMIC_TEST(add_u64) ATOMIC_TEST(sub_u64) ATOMIC_TEST(min_i64)
ATOMIC_TEST(min_u64) ATOMIC_TEST(max_i64) ATOMIC_TEST(max_u64) ATOMIC_TEST(and_b64) ATOMIC_TEST(or_b64)
ATOMIC_TEST(xor_b64) ATOMIC_TEST(inc_u64) ATOMIC_TEST(dec_u64)
ATOMIC_TEST(cmpswap_f32) ATOMIC_TEST(min_f32) ATOMIC_TEST(max_f32) ATOMIC_TEST(add_f32)

/* ---- TFE: the status VGPR after the data ---- */

/* One load with TFE into v[10...]: ndata data VGPRs as stated, then the status VGPR (0: no
 * fetch failed — buffers have no partially resident memory), then v[10+ndata+1] untouched. */
typedef struct tfe_row { const char *insn; unsigned ndata; uint32_t want[4]; } tfe_row;

#define POISON 0xddddddddu

static void tfe_rows(amt *t, unsigned fmt, const tfe_row *rows, size_t n, unsigned offset)
{
    for (size_t i = 0; i < n; i++) {
        const tfe_row *r = &rows[i];
        char regs[16];
        for (unsigned k = 10; k < 20; k++) amt_v(t, k, 0, POISON);
        vregs(regs, sizeof regs, 10, r->ndata + 1);
        amt_code(t, "%s %s, off, s[8:11], 0 offset:%u tfe", r->insn, regs, offset);
        RUNS(t);
        for (unsigned k = 0; k < r->ndata; k++)
            if (amt_gv(t, 10 + k, 0) != r->want[k])
                amt_fail(t, __FILE__, __LINE__, "%s (format %u) tfe: v%u = 0x%x, expected 0x%x", r->insn, fmt, 10 + k,
                         amt_gv(t, 10 + k, 0), r->want[k]);
        if (amt_gv(t, 10 + r->ndata, 0) != 0)
            amt_fail(t, __FILE__, __LINE__, "%s tfe: status v%u = 0x%x, expected 0", r->insn, 10 + r->ndata,
                     amt_gv(t, 10 + r->ndata, 0));
        if (amt_gv(t, 11 + r->ndata, 0) != POISON)
            amt_fail(t, __FILE__, __LINE__, "%s tfe: v%u past the status written", r->insn, 11 + r->ndata);
    }
}

/* Memory at G: the bytes 0x80, 0x81, ... (sign bits set: sign extension shows). */
static void tfe_setup(amt *t, unsigned fmt)
{
    vs v = raw(256, fmt);
    setup(t, &v);
    for (unsigned i = 0; i < 16; i++) amt_w32(t, G + 4 * i, 0x83828180u + 0x04040404u * i);
}

static void buf_tfe_byte_short(amt *t)
{
    static const tfe_row rows[] = {
        { "buffer_load_u8", 1, { 0x80 } }, { "buffer_load_i8", 1, { 0xffffff80 } },
        { "buffer_load_u16", 1, { 0x8180 } }, { "buffer_load_i16", 1, { 0xffff8180 } },
    };
    tfe_setup(t, 22);
    tfe_rows(t, 22, rows, sizeof rows / sizeof rows[0], 0);
}

static void buf_tfe_dwords(amt *t)
{
    static const tfe_row rows[] = {
        { "buffer_load_b32", 1, { 0x83828180 } },
        { "buffer_load_b64", 2, { 0x83828180, 0x87868584 } },
        { "buffer_load_b96", 3, { 0x83828180, 0x87868584, 0x8b8a8988 } },
        { "buffer_load_b128", 4, { 0x83828180, 0x87868584, 0x8b8a8988, 0x8f8e8d8c } },
    };
    static const tfe_row out_of_range[] = {   /* offset 256 of 256 bytes: data 0, status 0 */
        { "buffer_load_b32", 1, { 0 } }, { "buffer_load_b128", 4, { 0, 0, 0, 0 } },
    };
    tfe_setup(t, 22);
    tfe_rows(t, 22, rows, sizeof rows / sizeof rows[0], 0);
    tfe_rows(t, 22, out_of_range, 2, 256);
}

static void buf_tfe_d16(amt *t)
{
    static const tfe_row rows[] = {   /* the other half of the VGPR is kept */
        { "buffer_load_d16_u8", 1, { 0xdddd0080 } }, { "buffer_load_d16_i8", 1, { 0xddddff80 } },
        { "buffer_load_d16_b16", 1, { 0xdddd8180 } }, { "buffer_load_d16_hi_u8", 1, { 0x0080dddd } },
        { "buffer_load_d16_hi_i8", 1, { 0xff80dddd } }, { "buffer_load_d16_hi_b16", 1, { 0x8180dddd } },
    };
    tfe_setup(t, 22);
    tfe_rows(t, 22, rows, sizeof rows / sizeof rows[0], 0);
}

/* 16_16_16_16_FLOAT at G + 64: 1.0, 2.0, 3.0, 4.0. */
static void tfe_format_setup(amt *t)
{
    tfe_setup(t, 57);
    amt_w64(t, G + 64, 0x4400420040003c00ull);
}

static void buf_tfe_format(amt *t)
{
    static const tfe_row rows[] = {
        { "buffer_load_format_x", 1, { 0x3f800000 } },
        { "buffer_load_format_xy", 2, { 0x3f800000, 0x40000000 } },
        { "buffer_load_format_xyz", 3, { 0x3f800000, 0x40000000, 0x40400000 } },
        { "buffer_load_format_xyzw", 4, { 0x3f800000, 0x40000000, 0x40400000, 0x40800000 } },
    };
    static const tfe_row out_of_range[] = { { "buffer_load_format_xyzw", 4, { 0, 0, 0, 0 } } };
    tfe_format_setup(t);
    tfe_rows(t, 57, rows, sizeof rows / sizeof rows[0], 64);
    tfe_rows(t, 57, out_of_range, 1, 256);
}

static void buf_tfe_d16_format(amt *t)
{
    static const tfe_row rows[] = {
        { "buffer_load_d16_format_x", 1, { 0xdddd3c00 } },
        { "buffer_load_d16_format_xy", 1, { 0x40003c00 } },
        { "buffer_load_d16_format_xyz", 2, { 0x40003c00, 0xdddd4200 } },
        { "buffer_load_d16_format_xyzw", 2, { 0x40003c00, 0x44004200 } },
        { "buffer_load_d16_hi_format_x", 1, { 0x3c00dddd } },
    };
    tfe_format_setup(t);
    tfe_rows(t, 57, rows, sizeof rows / sizeof rows[0], 64);
}

/* gfx11 has no TFE on MTBUF, on atomics or on loads into LDS (llvm-mc-19 refuses all three):
 * their encodings with the TFE bit (bit 21 of the second dword) set are refused with a message.
 * The words are llvm-mc-19's encodings of tbuffer_load_format_x v1, off, s[8:11], 0
 * format:[BUF_FMT_32_FLOAT] / buffer_atomic_add_u32 v1, off, s[8:11], 0 glc /
 * buffer_load_lds_b32 off, s[8:11], 0, with that bit added. */
static void buf_tfe_not_allowed(amt *t)
{
    static const char *const words[] = {
        ".long 0xe8b00000, 0x80220100", ".long 0xe0d44000, 0x80220100", ".long 0xe0c40000, 0x80220000",
    };
    for (unsigned i = 0; i < 3; i++) {
        vs v = raw(256, 22);
        setup(t, &v);
        amt_code(t, "%s", words[i]);
        FAULTS(t, "tfe not allowed");
    }
}

/* ---- format loads of formats with fewer components than the instruction reads ----
 * (docs/MEMORY_MODEL.md §5 "Missing components"): a component the format does not have reads 0
 * — also W, which is not 1 — for MUBUF with the identity DST_SEL, for MTBUF, and for D16; a
 * DST_SEL of SEL_1 gives 1.0 (float formats) or 1 (UINT/SINT). */
typedef struct missing_row {
    unsigned fmt;
    const char *name;       /* BUF_FMT_... for tbuffer */
    uint32_t mem;           /* the element (its first dword) */
    uint32_t want[4];       /* load_format_xyzw, 32-bit */
    uint16_t want16[4];     /* d16_format_xyzw */
    uint32_t one;           /* what SEL_1 gives */
} missing_row;

static const missing_row missing_rows[] = {
    { 1, "BUF_FMT_8_UNORM", 0xff, { 0x3f800000, 0, 0, 0 }, { 0x3c00, 0, 0, 0 }, 0x3f800000 },
    { 6, "BUF_FMT_8_SINT", 0x80, { 0xffffff80, 0, 0, 0 }, { 0xff80, 0, 0, 0 }, 1 },
    { 13, "BUF_FMT_16_FLOAT", 0x3c00, { 0x3f800000, 0, 0, 0 }, { 0x3c00, 0, 0, 0 }, 0x3f800000 },
    { 20, "BUF_FMT_32_UINT", 7, { 7, 0, 0, 0 }, { 7, 0, 0, 0 }, 1 },
    { 22, "BUF_FMT_32_FLOAT", 0x40400000, { 0x40400000, 0, 0, 0 }, { 0x4200, 0, 0, 0 }, 0x3f800000 },
    { 14, "BUF_FMT_8_8_UNORM", 0x00ff, { 0x3f800000, 0, 0, 0 }, { 0x3c00, 0, 0, 0 }, 0x3f800000 },
    { 29, "BUF_FMT_16_16_FLOAT", 0xc0004000, { 0x40000000, 0xc0000000, 0, 0 }, { 0x4000, 0xc000, 0, 0 }, 0x3f800000 },
    { 27, "BUF_FMT_16_16_UINT", 0x00050004, { 4, 5, 0, 0 }, { 4, 5, 0, 0 }, 1 },
    /* 10_11_11_FLOAT: X = 11 bits [10:0] 1.0 (0x3c0), Y = 11 bits [21:11] 2.0 (0x400), Z = 10 bits
     * [31:22] 1.0 (0x1e0) */
    { 30, "BUF_FMT_10_11_11_FLOAT", 0x782003c0, { 0x3f800000, 0x40000000, 0x3f800000, 0 },
      { 0x3c00, 0x4000, 0x3c00, 0 }, 0x3f800000 },
};

static void missing_setup(amt *t, const missing_row *r, unsigned sel_w)
{
    vs v = raw(256, r->fmt);
    v.sel[3] = sel_w;
    setup(t, &v);
    amt_w32(t, G, r->mem);
    amt_w32(t, G + 4, 0x3f800000);   /* what a 2-dword read of the element would see: never returned */
    amt_w32(t, G + 8, 0x40000000);
    amt_w32(t, G + 12, 0x40400000);
    for (unsigned k = 10; k < 20; k++) amt_v(t, k, 0, POISON);
}

static void check4(amt *t, const char *what, const missing_row *r, unsigned first, const uint32_t want[4])
{
    for (unsigned k = 0; k < 4; k++)
        if (amt_gv(t, first + k, 0) != want[k])
            amt_fail(t, __FILE__, __LINE__, "%s of %s: component %u = 0x%x, expected 0x%x", what, r->name, k,
                     amt_gv(t, first + k, 0), want[k]);
}

static void check16(amt *t, const char *what, const missing_row *r, unsigned first, const uint16_t want[4])
{
    uint32_t w[2] = { want[0] | (uint32_t)want[1] << 16, want[2] | (uint32_t)want[3] << 16 };
    for (unsigned k = 0; k < 2; k++)
        if (amt_gv(t, first + k, 0) != w[k])
            amt_fail(t, __FILE__, __LINE__, "%s of %s: VGPR %u = 0x%x, expected 0x%x", what, r->name, k,
                     amt_gv(t, first + k, 0), w[k]);
}

static void buf_format_missing_components(amt *t)
{
    for (size_t i = 0; i < sizeof missing_rows / sizeof missing_rows[0]; i++) {
        const missing_row *r = &missing_rows[i];
        missing_setup(t, r, SW);
        amt_code(t, "buffer_load_format_xyzw v[10:13], off, s[8:11], 0\n"
                    "buffer_load_d16_format_xyzw v[14:15], off, s[8:11], 0\n"
                    "tbuffer_load_format_xyzw v[16:19], off, s[8:11], 0 format:[%s]", r->name);
        RUNS(t);
        check4(t, "buffer_load_format_xyzw", r, 10, r->want);
        check16(t, "buffer_load_d16_format_xyzw", r, 14, r->want16);
        check4(t, "tbuffer_load_format_xyzw", r, 16, r->want);
        missing_setup(t, r, SW);
        amt_code(t, "tbuffer_load_d16_format_xyzw v[14:15], off, s[8:11], 0 format:[%s]", r->name);
        RUNS(t);
        check16(t, "tbuffer_load_d16_format_xyzw", r, 14, r->want16);
    }
}

/* The driver's way to get (x, 0, 0, 1): DST_SEL_W = SEL_1 in the V# (MUBUF only; MTBUF ignores
 * DST_SEL and still reads 0). */
static void buf_format_missing_sel1(amt *t)
{
    for (size_t i = 0; i < sizeof missing_rows / sizeof missing_rows[0]; i++) {
        const missing_row *r = &missing_rows[i];
        missing_setup(t, r, SEL_1);
        amt_code(t, "buffer_load_format_xyzw v[10:13], off, s[8:11], 0\n"
                    "tbuffer_load_format_xyzw v[16:19], off, s[8:11], 0 format:[%s]", r->name);
        RUNS(t);
        uint32_t want[4] = { r->want[0], r->want[1], r->want[2], r->one };
        check4(t, "buffer_load_format_xyzw (DST_SEL_W = SEL_1)", r, 10, want);
        check4(t, "tbuffer_load_format_xyzw (DST_SEL ignored)", r, 16, r->want);
    }
}

/* ---- s_buffer_load_b512 ---- */

/* 16 dwords; a dword is out of range (reads 0) when its offset >= (stride ? stride : 1) *
 * num_records; the base's two LSBs are ignored. */
static void smem_buffer_load_b512(amt *t)
{
    amt_begin(t, 32);
    amt_map(t, G, 0x10000);
    for (unsigned i = 0; i < 64; i++) amt_w32(t, G + 4 * i, 0x5c000000u + i);
    amt_s(t, 0, (uint32_t)G + 3);
    amt_s(t, 1, 0);
    amt_s(t, 2, 72);                   /* bytes: dwords 0..17 */
    amt_s(t, 3, 0);
    amt_s(t, 100, 0x5a5a5a5a);
    amt_code(t, "s_buffer_load_b512 s[16:31], s[0:3], 0x20");   /* dwords 8..23: 8..17 in range */
    RUNS(t);
    for (unsigned i = 0; i < 16; i++) EQ(t, amt_gs(t, 16 + i), i < 10 ? 0x5c000008u + i : 0);
    EQ(t, amt_gs(t, 100), 0x5a5a5a5a);
    amt_s(t, 1, 16u << 16);            /* stride 16, 5 records: 80 bytes = dwords 0..19 */
    amt_s(t, 2, 5);
    amt_s(t, 30, 0x10);
    amt_code(t, "s_buffer_load_b512 s[32:47], s[0:3], s30");     /* dwords 4..19: all in range */
    RUNS(t);
    for (unsigned i = 0; i < 16; i++) EQ(t, amt_gs(t, 32 + i), 0x5c000004u + i);
    amt_code(t, "s_buffer_load_b512 s[32:47], s[0:3], 0x40");       /* dwords 16..31: 16..19 in range */
    RUNS(t);
    for (unsigned i = 0; i < 16; i++) EQ(t, amt_gs(t, 32 + i), i < 4 ? 0x5c000010u + i : 0);
}

/* ---- s_load and the wave's page cache (exec_mem_smem.c) ---- */

/* A wave keeps the host address of the pages its s_loads read. A zero page (mapped, never
 * written) is not kept: a store gives it storage and the next s_load reads what was stored (umbra
 * models no scalar cache). Six pages over four cache slots; the host's writes and a remapping
 * between two runs of the single-step API are seen. */
static void smem_load_pages(amt *t)
{
    amt_begin(t, 32);
    amt_map(t, G, 0x8000);
    for (unsigned p = 1; p < 6; p++) amt_w32(t, G + 0x1000u * p + 8, 0x70000000u + p);
    amt_s64(t, 0, G);
    amt_v64(t, 2, 0, G);
    amt_v(t, 1, 0, 0xabcd);
    umb_rdna3_step_set_exec(t->s, 1);
    amt_code(t, "s_load_b32 s10, s[0:1], 0x0\n"          /* page 0, never written: 0 */
                "global_store_b32 v[2:3], v1, off\n"
                "s_waitcnt vmcnt(0)\n"
                "s_load_b32 s11, s[0:1], 0x0\n"           /* the stored value */
                "s_load_b32 s12, s[0:1], 0x1008\n"
                "s_load_b32 s13, s[0:1], 0x2008\n"
                "s_load_b32 s14, s[0:1], 0x3008\n"
                "s_load_b32 s15, s[0:1], 0x4008\n"
                "s_load_b32 s16, s[0:1], 0x5008\n"        /* evicts page 1's slot */
                "s_load_b64 s[18:19], s[0:1], 0x1008\n"
                "s_load_b512 s[32:47], s[0:1], 0x2ff0\n"  /* crosses into page 3 */
                "s_waitcnt lgkmcnt(0)");
    RUNS(t);
    EQ(t, amt_gs(t, 10), 0);
    EQ(t, amt_gs(t, 11), 0xabcd);
    for (unsigned p = 1; p < 6; p++) EQ(t, amt_gs(t, 11 + p), 0x70000000u + p);
    EQ(t, amt_gs(t, 18), 0x70000001u);
    EQ(t, amt_gs(t, 19), 0);
    for (unsigned i = 0; i < 16; i++) EQ(t, amt_gs(t, 32 + i), i == 6 ? 0x70000003u : 0);
    /* between runs: the host writes page 1, and page 2 is unmapped and mapped again as host
     * memory (other storage, the old freed) */
    static _Alignas(4096) uint32_t host_page[1024];
    host_page[2] = 0x22222222u;
    amt_w32(t, G + 0x1008, 0x11111111u);
    EQ(t, umb_mem_unmap(t->dev, G + 0x2000, 0x1000), UMB_OK);
    EQ(t, umb_mem_map_host(t->dev, G + 0x2000, host_page, sizeof host_page), UMB_OK);
    amt_code(t, "s_load_b32 s12, s[0:1], 0x1008\n"
                "s_load_b32 s13, s[0:1], 0x2008\n"
                "s_waitcnt lgkmcnt(0)");
    RUNS(t);
    EQ(t, amt_gs(t, 12), 0x11111111u);
    EQ(t, amt_gs(t, 13), 0x22222222u);
    /* an unmapped page faults, whatever the cache held for its slot */
    EQ(t, umb_mem_unmap(t->dev, G + 0x5000, 0x1000), UMB_OK);
    amt_code(t, "s_load_b32 s16, s[0:1], 0x5008");
    FAULTS(t, "s_load from unmapped address");
    EQ(t, umb_mem_unmap(t->dev, G + 0x2000, 0x1000), UMB_OK);
}

#define C(fn) { #fn, fn }
const amt_case amt_cases_rules[] = {
    C(buf_atomic_swap_b32), C(buf_atomic_cmpswap_b32), C(buf_atomic_add_u32), C(buf_atomic_sub_u32),
    C(buf_atomic_csub_u32), C(buf_atomic_min_i32), C(buf_atomic_min_u32), C(buf_atomic_max_i32),
    C(buf_atomic_max_u32), C(buf_atomic_and_b32), C(buf_atomic_or_b32), C(buf_atomic_xor_b32),
    C(buf_atomic_inc_u32), C(buf_atomic_dec_u32),
    C(buf_atomic_swap_b64), C(buf_atomic_cmpswap_b64), C(buf_atomic_add_u64), C(buf_atomic_sub_u64),
    C(buf_atomic_min_i64), C(buf_atomic_min_u64), C(buf_atomic_max_i64), C(buf_atomic_max_u64),
    C(buf_atomic_and_b64), C(buf_atomic_or_b64), C(buf_atomic_xor_b64), C(buf_atomic_inc_u64),
    C(buf_atomic_dec_u64),
    C(buf_atomic_cmpswap_f32), C(buf_atomic_min_f32), C(buf_atomic_max_f32), C(buf_atomic_add_f32),
    C(buf_tfe_byte_short), C(buf_tfe_dwords), C(buf_tfe_d16), C(buf_tfe_format), C(buf_tfe_d16_format),
    C(buf_tfe_not_allowed),
    C(buf_format_missing_components), C(buf_format_missing_sel1),
    C(smem_buffer_load_b512), C(smem_load_pages),
    { NULL, NULL },
};
