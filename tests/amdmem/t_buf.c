/* Conformance: MUBUF and MTBUF through the single-step API (llvm-mc-19 encodes every
 * instruction). V#s are built here from the bit table of spec/rdna3.md §1, expected values come
 * from the spec's rules (fmt_cases.h: the Python oracle gen_formats.py). */
#include <string.h>

#include "amt.h"

#define G AMT_BUF_GLOBAL


typedef struct vs {
    uint64_t base;
    uint32_t stride, nr;
    unsigned swz, fmt, is, tid, oob, type;
    unsigned sel[4];
} vs;

/* A raw buffer: identity DST_SEL, FORMAT 32_FLOAT, OOB_SELECT 3. */
static vs raw(uint32_t nr) { return (vs){ G, 0, nr, 0, 22, 0, 0, 3, 0, { SX, SY, SZ, SW } }; }

/* Write the V# into s[n:n+3], field by field as spec/rdna3.md §1 lays it out. */
static void put_vs(amt *t, unsigned n, const vs *v)
{
    amt_s(t, n, (uint32_t)v->base);
    amt_s(t, n + 1, (uint32_t)(v->base >> 32 & 0xffff) | (v->stride & 0x3fff) << 16 | (uint32_t)(v->swz & 3) << 30);
    amt_s(t, n + 2, v->nr);
    amt_s(t, n + 3, v->sel[0] | v->sel[1] << 3 | v->sel[2] << 6 | v->sel[3] << 9 | (v->fmt & 63) << 12 |
                    (v->is & 3) << 21 | (v->tid & 1) << 23 | (v->oob & 3) << 28 | (v->type & 3) << 30);
}

static void setup(amt *t, unsigned ws, const vs *v)
{
    amt_begin(t, ws);
    amt_map(t, G, 0x40000);
    put_vs(t, 8, v);
    amt_s(t, 126, 1);
    amt_s(t, 127, 0);
}

static void fill(amt *t, uint64_t a, unsigned words, uint32_t first)
{
    for (unsigned i = 0; i < words; i++) amt_w32(t, a + 4 * i, first + i);
}

/* ---- non-format opcodes (0x10..0x25) ---- */

static void buf_data_opcodes(amt *t)
{
    vs v = raw(1024);
    setup(t, 32, &v);
    amt_w32(t, G, 0x1234fe80u);
    fill(t, G + 16, 8, 0xd0);
    amt_v(t, 0, 0, 16);
    for (unsigned r = 10; r < 16; r++) amt_v(t, r, 0, 0xaaaabbbbu);
    amt_code(t, "buffer_load_u8 v1, off, s[8:11], 0\n"
                "buffer_load_i8 v2, off, s[8:11], 0\n"
                "buffer_load_u16 v3, off, s[8:11], 0 offset:2\n"
                "buffer_load_i16 v4, off, s[8:11], 0\n"
                "buffer_load_b32 v5, v0, s[8:11], 0 offen\n"
                "buffer_load_b64 v[6:7], v0, s[8:11], 0 offen offset:4\n"
                "buffer_load_b96 v[20:22], v0, s[8:11], 0 offen offset:8\n"
                "buffer_load_b128 v[24:27], v0, s[8:11], 0 offen offset:16\n"
                "buffer_load_d16_u8 v10, off, s[8:11], 0\n"
                "buffer_load_d16_i8 v11, off, s[8:11], 0\n"
                "buffer_load_d16_b16 v12, off, s[8:11], 0 offset:2\n"
                "buffer_load_d16_hi_u8 v13, off, s[8:11], 0 offset:1\n"
                "buffer_load_d16_hi_i8 v14, off, s[8:11], 0 offset:1\n"
                "buffer_load_d16_hi_b16 v15, off, s[8:11], 0");
    RUNS(t);
    EQ(t, amt_gv(t, 1, 0), 0x80);
    EQ(t, amt_gv(t, 2, 0), 0xffffff80);
    EQ(t, amt_gv(t, 3, 0), 0x1234);
    EQ(t, amt_gv(t, 4, 0), 0xfffffe80);
    EQ(t, amt_gv(t, 5, 0), 0xd0);
    EQ(t, amt_gv(t, 7, 0), 0xd2);
    EQ(t, amt_gv(t, 22, 0), 0xd4);
    EQ(t, amt_gv(t, 27, 0), 0xd7);
    EQ(t, amt_gv(t, 10, 0), 0xaaaa0080);
    EQ(t, amt_gv(t, 11, 0), 0xaaaaff80);
    EQ(t, amt_gv(t, 12, 0), 0xaaaa1234);
    EQ(t, amt_gv(t, 13, 0), 0x00febbbb);
    EQ(t, amt_gv(t, 14, 0), 0xfffebbbb);
    EQ(t, amt_gv(t, 15, 0), 0xfe80bbbb);
    /* stores */
    amt_v(t, 1, 0, 0x11223344u);
    amt_v(t, 2, 0, 0x55667788u);
    amt_v(t, 3, 0, 0x99aabbccu);
    amt_v(t, 4, 0, 0xddeeff00u);
    amt_v(t, 0, 0, 0x100);
    amt_code(t, "buffer_store_b8 v1, v0, s[8:11], 0 offen\n"
                "buffer_store_b16 v1, v0, s[8:11], 0 offen offset:2\n"
                "buffer_store_b32 v2, v0, s[8:11], 0 offen offset:4\n"
                "buffer_store_b64 v[1:2], v0, s[8:11], 0 offen offset:8\n"
                "buffer_store_b96 v[1:3], v0, s[8:11], 0 offen offset:16\n"
                "buffer_store_b128 v[1:4], v0, s[8:11], 0 offen offset:32\n"
                "buffer_store_d16_hi_b8 v1, v0, s[8:11], 0 offen offset:48\n"
                "buffer_store_d16_hi_b16 v1, v0, s[8:11], 0 offen offset:50");
    RUNS(t);
    EQ(t, amt_r32(t, G + 0x100), 0x33440044u);
    EQ(t, amt_r32(t, G + 0x104), 0x55667788u);
    EQ(t, amt_r64(t, G + 0x108), 0x5566778811223344ull);
    EQ(t, amt_r32(t, G + 0x118), 0x99aabbccu);
    EQ(t, amt_r32(t, G + 0x11c), 0);
    EQ(t, amt_r32(t, G + 0x12c), 0xddeeff00u);
    EQ(t, amt_r32(t, G + 0x130), 0x11220022u);
}

/* IDXEN/OFFEN/VADDR, SOFFSET (SGPR, M0, NULL, inline constant), instruction offset. */
static void buf_addressing(amt *t)
{
    vs v = raw(0x10000);
    v.stride = 32;
    setup(t, 32, &v);
    fill(t, G, 2048, 0);
    amt_v(t, 0, 0, 3);       /* index */
    amt_v(t, 1, 0, 8);       /* offset */
    amt_s(t, 3, 64);
    amt_s(t, 125, 128);
    amt_code(t, "buffer_load_b32 v4, v[0:1], s[8:11], s3 idxen offen offset:4\n"   /* 64 + 96 + 8 + 4 */
                "buffer_load_b32 v5, v0, s[8:11], 0 idxen\n"                       /* 96 */
                "buffer_load_b32 v6, v1, s[8:11], m0 offen\n"                      /* 128 + 8 */
                "buffer_load_b32 v7, off, s[8:11], null offset:4095\n"             /* 4095: unaligned */
                "buffer_load_b32 v8, off, s[8:11], 4 offset:12");                  /* inline 4 + 12 */
    RUNS(t);
    EQ(t, amt_gv(t, 4, 0), 172 / 4);
    EQ(t, amt_gv(t, 5, 0), 96 / 4);
    EQ(t, amt_gv(t, 6, 0), 136 / 4);
    EQ(t, amt_gv(t, 7, 0), (1023u >> 24) | (1024u << 8));   /* bytes 4095..4098 */
    EQ(t, amt_gv(t, 8, 0), 16 / 4);
}

/* add_tid_enable on a linear buffer: index = lane id, address += stride * lane. */
static void buf_add_tid_linear(amt *t)
{
    vs v = raw(0x10000);
    v.stride = 8;
    v.tid = 1;
    setup(t, 64, &v);
    amt_s64(t, 126, ~0ull);
    amt_v(t, 0, 5, 1);
    for (unsigned l = 0; l < 64; l++) amt_v(t, 2, l, 0x700 + l);
    amt_code(t, "buffer_store_b32 v2, off, s[8:11], 0 offset:4\n"
                "buffer_load_b32 v3, v0, s[8:11], 0 idxen offset:4");
    RUNS(t);
    EQ(t, amt_r32(t, G + 4), 0x700);
    EQ(t, amt_r32(t, G + 63 * 8 + 4), 0x700 + 63);
    EQ(t, amt_gv(t, 3, 4), 0x704);
    EQ(t, amt_gv(t, 3, 5), 0x706);   /* vidx 1 + tid 5 */
}

/* ---- swizzle: both element sizes, all four index strides ---- */

static void buf_swizzle(amt *t)
{
    static const unsigned swz[2] = { 1, 3 }, es[2] = { 4, 16 };
    for (unsigned e = 0; e < 2; e++) {
        for (unsigned is = 0; is < 4; is++) {
            unsigned IS = 8u << is, ES = es[e], stride = 48;
            vs v = raw(1u << 20);
            v.swz = swz[e];
            v.is = is;
            v.stride = stride;
            v.oob = 3;
            setup(t, 32, &v);
            amt_s(t, 3, 0x40);
            uint32_t index = IS + 5, offset = ES + 4;   /* msb 1, lsb 5; msb 1, lsb 4 (ES 16) or 0 (ES 4) */
            amt_v(t, 0, 0, index);
            amt_v(t, 1, 0, offset);
            amt_v(t, 4, 0, 0x5a5a0001u);
            amt_v(t, 5, 0, 0x5a5a0002u);
            amt_code(t, "buffer_store_b64 v[4:5], v[0:1], s[8:11], s3 idxen offen");
            RUNS(t);
            uint32_t omsb = offset / ES, olsb = offset % ES;
            uint64_t a = G + 0x40 + (1ull * stride + omsb * ES) * IS + 5ull * ES + olsb;
            /* the second dword: offset + 4, its own element when ES = 4 */
            uint32_t o2 = offset + 4;
            uint64_t a2 = G + 0x40 + (1ull * stride + (o2 / ES) * ES) * IS + 5ull * ES + o2 % ES;
            if (amt_r32(t, a) != 0x5a5a0001u || amt_r32(t, a2) != 0x5a5a0002u)
                amt_fail(t, __FILE__, __LINE__, "ES %u IS %u: expected the dwords at 0x%llx and 0x%llx", ES, IS,
                         (unsigned long long)a, (unsigned long long)a2);
            amt_code(t, "buffer_load_b64 v[6:7], v[0:1], s[8:11], s3 idxen offen");
            RUNS(t);
            EQ(t, amt_gv(t, 6, 0), 0x5a5a0001u);
            EQ(t, amt_gv(t, 7, 0), 0x5a5a0002u);
        }
    }
}

/* The HSA scratch V# (swizzle 1, stride 0, add_tid, index stride = wave size, OOB 2) lays out
 * a lane's dwords like the SCRATCH instructions do. */
static void scratch_srd(amt *t, unsigned ws)
{
    vs v = { G, 0, 1, 1, 20, ws == 32 ? 2u : 3u, 1, 2, 0, { SX, SY, SZ, SW } };
    setup(t, ws, &v);
    amt_s64(t, 126, ws == 64 ? ~0ull : 0xffffffffull);
    for (unsigned l = 0; l < ws; l++) amt_v(t, 1, l, 0x900 + l);
    amt_s(t, 3, 0x1000);     /* the wave's offset */
    amt_code(t, "buffer_store_b32 v1, off, s[8:11], s3 offset:8\n"
                "buffer_load_b32 v2, off, s[8:11], s3 offset:8");
    RUNS(t);
    EQ(t, amt_r32(t, G + 0x1000 + 2 * 4 * ws + 0), 0x900);
    EQ(t, amt_r32(t, G + 0x1000 + 2 * 4 * ws + 4 * (ws - 1)), 0x900 + ws - 1);
    EQ(t, amt_gv(t, 2, ws - 1), 0x900 + ws - 1);
}
static void buf_scratch_srd_wave32(amt *t) { scratch_srd(t, 32); }
static void buf_scratch_srd_wave64(amt *t) { scratch_srd(t, 64); }

/* ---- OOB_SELECT: at the boundary and one past; single dword, multi-dword, format, atomics ---- */

static void buf_oob_mode3_raw(amt *t)
{
    vs v = raw(32);
    setup(t, 32, &v);
    fill(t, G, 16, 0xa0);
    amt_v(t, 0, 0, 28);
    amt_v(t, 1, 0, 29);
    amt_v(t, 2, 0, 24);
    amt_s(t, 3, 8);
    amt_code(t, "buffer_load_b32 v4, v0, s[8:11], 0 offen\n"          /* 28 + 4 = 32: in */
                "buffer_load_b32 v5, v1, s[8:11], 0 offen\n"          /* 29 + 4 > 32: out */
                "buffer_load_b128 v[8:11], v2, s[8:11], 0 offen\n"    /* dwords 24, 28 in; 32, 36 out */
                "buffer_load_b64 v[12:13], v0, s[8:11], 0 offen\n"    /* 28 in, 32 out */
                "buffer_load_u8 v14, off, s[8:11], 0 offset:31\n"     /* last byte: in */
                "buffer_load_u8 v15, off, s[8:11], 0 offset:32\n"     /* out */
                "buffer_load_b32 v16, off, s[8:11], s3 offset:20\n"   /* NR - 8 = 24: 20 + 4 in */
                "buffer_load_b32 v17, off, s[8:11], s3 offset:21");   /* out */
    for (unsigned r = 4; r < 18; r++) amt_v(t, r, 0, 0xeeee);
    RUNS(t);
    EQ(t, amt_gv(t, 4, 0), 0xa7);
    EQ(t, amt_gv(t, 5, 0), 0);
    EQ(t, amt_gv(t, 8, 0), 0xa6);
    EQ(t, amt_gv(t, 9, 0), 0xa7);
    EQ(t, amt_gv(t, 10, 0), 0);
    EQ(t, amt_gv(t, 11, 0), 0);
    EQ(t, amt_gv(t, 12, 0), 0xa7);
    EQ(t, amt_gv(t, 13, 0), 0);
    EQ(t, amt_gv(t, 14, 0), 0);    /* byte 31 of 0xa7 is 0 */
    EQ(t, amt_gv(t, 15, 0), 0);
    EQ(t, amt_gv(t, 16, 0), 0xa7);
    EQ(t, amt_gv(t, 17, 0), 0);
    /* stores: per dword */
    amt_v(t, 20, 0, 1); amt_v(t, 21, 0, 2); amt_v(t, 22, 0, 3); amt_v(t, 23, 0, 4);
    amt_code(t, "buffer_store_b128 v[20:23], v2, s[8:11], 0 offen\n"
                "buffer_store_b32 v20, v1, s[8:11], 0 offen");
    RUNS(t);
    EQ(t, amt_r32(t, G + 24), 1);
    EQ(t, amt_r32(t, G + 28), 2);
    EQ(t, amt_r32(t, G + 32), 0xa8);   /* dropped */
    EQ(t, amt_r32(t, G + 36), 0xa9);
}

/* Format operations and atomics are all or nothing; MTBUF makes the whole lane out of range;
 * SEL_1 components still read 1. */
static void buf_oob_all_or_nothing(amt *t)
{
    vs v = raw(32);
    v.fmt = 63;   /* 32_32_32_32_FLOAT */
    v.sel[3] = SEL_1;
    setup(t, 32, &v);
    fill(t, G, 16, 0xb0);
    for (unsigned r = 4; r < 16; r++) amt_v(t, r, 0, 0xeeee);
    amt_v(t, 2, 0, 77);
    amt_code(t, "buffer_load_format_xyzw v[4:7], off, s[8:11], 0 offset:16\n"      /* 16 + 16 = 32: in */
                "buffer_load_format_xyzw v[8:11], off, s[8:11], 0 offset:20\n"     /* 20 + 16 > 32: all out */
                "tbuffer_load_format_xy v[12:13], off, s[8:11], 0 format:[BUF_FMT_32_32_UINT] offset:28\n"
                "buffer_atomic_add_u32 v2, off, s[8:11], 0 offset:32 glc\n"
                "buffer_store_format_xyzw v[4:7], off, s[8:11], 0 offset:20");
    RUNS(t);
    EQ(t, amt_gv(t, 4, 0), 0xb4);
    EQ(t, amt_gv(t, 7, 0), 0x3f800000);   /* DST_SEL_W = SEL_1: 1.0 */
    EQ(t, amt_gv(t, 8, 0), 0);
    EQ(t, amt_gv(t, 10, 0), 0);
    EQ(t, amt_gv(t, 11, 0), 0x3f800000); /* out of range, SEL_1 still reads 1 */
    EQ(t, amt_gv(t, 12, 0), 0);           /* MTBUF: the in-range X is dropped with Y */
    EQ(t, amt_gv(t, 13, 0), 0);
    EQ(t, amt_gv(t, 2, 0), 0);            /* atomic out of range: dropped, returns 0 */
    EQ(t, amt_r32(t, G + 28), 0xb7);      /* untouched by the atomic and the format store */
    EQ(t, amt_r32(t, G + 20), 0xb5);
}

/* Mode 0 (structured): index >= NUM_RECORDS or offset + payload > stride. */
static void buf_oob_mode0(amt *t)
{
    vs v = raw(4);
    v.stride = 16;
    v.oob = 0;
    setup(t, 32, &v);
    fill(t, G, 32, 0xc0);
    for (unsigned r = 4; r < 12; r++) amt_v(t, r, 0, 0xeeee);
    amt_v(t, 0, 0, 3);
    amt_v(t, 0, 1, 4);
    amt_v(t, 1, 0, 12);
    amt_v(t, 1, 1, 0);
    amt_s(t, 126, 3);
    amt_code(t, "buffer_load_b32 v4, v[0:1], s[8:11], 0 idxen offen\n"            /* lane 0: 3/12 in; lane 1: index 4 out */
                "buffer_load_b32 v5, v[0:1], s[8:11], 0 idxen offen offset:1\n"   /* 13 + 4 > 16 */
                "buffer_load_b64 v[6:7], v[0:1], s[8:11], 0 idxen offen offset:0\n" /* 12 in, 16 out */
                "buffer_load_u8 v8, v[0:1], s[8:11], 0 idxen offen offset:3");    /* 15 + 1 = 16: in */
    RUNS(t);
    EQ(t, amt_gv(t, 4, 0), 0xcf);   /* 3*16 + 12 = 60 */
    EQ(t, amt_gv(t, 4, 1), 0);
    EQ(t, amt_gv(t, 5, 0), 0);
    EQ(t, amt_gv(t, 6, 0), 0xcf);
    EQ(t, amt_gv(t, 7, 0), 0);
    EQ(t, amt_gv(t, 8, 0), 0);      /* byte 63 of 0xcf */
}

static void buf_oob_mode1_mode2(amt *t)
{
    vs v = raw(4);
    v.stride = 16;
    v.oob = 1;
    setup(t, 32, &v);
    fill(t, G, 64, 0xd0);
    amt_v(t, 0, 0, 3);
    amt_v(t, 0, 1, 4);
    amt_v(t, 1, 0, 100);
    amt_v(t, 1, 1, 0);
    amt_s(t, 126, 3);
    amt_code(t, "buffer_load_b32 v4, v[0:1], s[8:11], 0 idxen offen");
    RUNS(t);
    EQ(t, amt_gv(t, 4, 0), 0xd0 + (48 + 100) / 4);   /* only the index is checked */
    EQ(t, amt_gv(t, 4, 1), 0);
    /* mode 2: no check except an empty buffer */
    v.oob = 2;
    v.nr = 1;
    put_vs(t, 8, &v);
    amt_v(t, 0, 1, 9);
    RUNS(t);
    EQ(t, amt_gv(t, 4, 1), 0xd0 + 144 / 4);
    v.nr = 0;
    put_vs(t, 8, &v);
    RUNS(t);
    EQ(t, amt_gv(t, 4, 0), 0);
    EQ(t, amt_gv(t, 4, 1), 0);
}

/* ---- every buffer format, load and store, edge values (fmt_cases.h) ---- */

#include "fmt_cases.h"

static void buf_formats_load(amt *t)
{
    vs v = raw(64);
    setup(t, 32, &v);
    for (unsigned f = 1; f < 64; f++) {
        v.fmt = f;
        put_vs(t, 8, &v);
        amt_code(t, "buffer_load_format_xyzw v[4:7], off, s[8:11], 0\n"
                    "tbuffer_load_format_xyzw v[8:11], off, s[8:11], 0 format:%u\n"
                    "buffer_load_d16_format_xyzw v[12:13], off, s[8:11], 0\n"
                    "tbuffer_load_d16_format_xyzw v[14:15], off, s[8:11], 0 format:%u", f, f);
        for (unsigned i = 0; i < sizeof fmt_load_rows / sizeof fmt_load_rows[0]; i++) {
            const fmt_load_row *r = &fmt_load_rows[i];
            if (r->fmt != f) continue;
            for (unsigned k = 0; k < 4; k++) amt_w32(t, G + 4 * k, r->elem[k]);
            if (amt_rerun(t) != UMB_OK) { amt_fail(t, __FILE__, __LINE__, "format %u: %s", f, amt_error(t)); return; }
            for (unsigned k = 0; k < 4; k++) {
                uint32_t got = amt_gv(t, 4 + k, 0), tgot = amt_gv(t, 8 + k, 0);
                uint32_t h = amt_gv(t, 12 + k / 2, 0) >> (16 * (k & 1)) & 0xffff;
                uint32_t th = amt_gv(t, 14 + k / 2, 0) >> (16 * (k & 1)) & 0xffff;
                if (got != r->want[k] || tgot != r->want[k] || h != r->want16[k] || th != r->want16[k])
                    amt_fail(t, __FILE__, __LINE__,
                             "format %u elem %08x.. comp %u: buffer 0x%x tbuffer 0x%x d16 0x%x/0x%x, expected 0x%x d16 0x%x",
                             f, r->elem[0], k, got, tgot, h, th, r->want[k], r->want16[k]);
            }
        }
    }
}

static void buf_formats_store(amt *t)
{
    vs v = raw(256);
    setup(t, 32, &v);
    for (unsigned f = 1; f < 64; f++) {
        v.fmt = f;
        put_vs(t, 8, &v);
        amt_code(t, "buffer_store_format_xyzw v[4:7], off, s[8:11], 0\n"
                    "tbuffer_store_format_xyzw v[4:7], off, s[8:11], 0 format:%u offset:32\n"
                    "buffer_store_d16_format_xyzw v[8:9], off, s[8:11], 0 offset:64\n"
                    "tbuffer_store_d16_format_xyzw v[8:9], off, s[8:11], 0 format:%u offset:96", f, f);
        for (unsigned i = 0; i < sizeof fmt_store_rows / sizeof fmt_store_rows[0]; i++) {
            const fmt_store_row *r = &fmt_store_rows[i];
            if (r->fmt != f) continue;
            for (unsigned k = 0; k < 32; k++) amt_w32(t, G + 4 * k, 0xa5a5a5a5u);
            for (unsigned k = 0; k < 4; k++) amt_v(t, 4 + k, 0, r->reg[k]);
            amt_v(t, 8, 0, r->reg[0] | r->reg[1] << 16);
            amt_v(t, 9, 0, r->reg[2] | r->reg[3] << 16);
            if (amt_rerun(t) != UMB_OK) { amt_fail(t, __FILE__, __LINE__, "format %u: %s", f, amt_error(t)); return; }
            uint8_t want[16];
            memset(want, 0xa5, sizeof want);
            memcpy(want, r->elem, r->bytes);   /* the element, then untouched bytes */
            unsigned base = r->d16 ? 64 : 0;
            for (unsigned copy = 0; copy < 2; copy++) {
                for (unsigned b = 0; b < 16; b++) {
                    uint8_t got = amt_r8(t, G + base + 32 * copy + b);
                    if (got != want[b]) {
                        amt_fail(t, __FILE__, __LINE__, "%s format %u reg 0x%x%s: byte %u = 0x%02x, expected 0x%02x",
                                 copy ? "tbuffer" : "buffer", f, r->reg[0], r->d16 ? " (d16)" : "", b, got, want[b]);
                        break;
                    }
                }
            }
        }
    }
}

/* DST_SEL on loads and stores; MTBUF ignores it. */
static void buf_dst_sel(amt *t)
{
    vs v = raw(64);
    v.fmt = 46;   /* 8_8_8_8_UINT */
    v.sel[0] = SW; v.sel[1] = SEL_1; v.sel[2] = SEL_0; v.sel[3] = SX;
    setup(t, 32, &v);
    amt_w32(t, G, 0x44332211u);
    amt_code(t, "buffer_load_format_xyzw v[4:7], off, s[8:11], 0\n"
                "tbuffer_load_format_xyzw v[8:11], off, s[8:11], 0 format:[BUF_FMT_8_8_8_8_UINT]");
    RUNS(t);
    EQ(t, amt_gv(t, 4, 0), 0x44);
    EQ(t, amt_gv(t, 5, 0), 1);            /* integer format: SEL_1 is 1 */
    EQ(t, amt_gv(t, 6, 0), 0);
    EQ(t, amt_gv(t, 7, 0), 0x11);
    EQ(t, amt_gv(t, 8, 0), 0x11);         /* MTBUF: identity */
    EQ(t, amt_gv(t, 11, 0), 0x44);
    /* reserved selects (2, 3) read 0; float format SEL_1 = 1.0 */
    v.fmt = 42;   /* 8_8_8_8_UNORM */
    v.sel[0] = 2; v.sel[1] = 3; v.sel[2] = SEL_1; v.sel[3] = SY;
    put_vs(t, 8, &v);
    amt_code(t, "buffer_load_format_xyzw v[4:7], off, s[8:11], 0");
    RUNS(t);
    EQ(t, amt_gv(t, 4, 0), 0);
    EQ(t, amt_gv(t, 5, 0), 0);
    EQ(t, amt_gv(t, 6, 0), 0x3f800000);
    EQ(t, amt_gv(t, 7, 0), 0x3e088889);   /* 0x22 / 255 */
    /* store: memory component k takes what DST_SEL[k] names */
    v.fmt = 46;
    v.sel[0] = SY; v.sel[1] = SX; v.sel[2] = SEL_1; v.sel[3] = SEL_0;
    put_vs(t, 8, &v);
    amt_v(t, 4, 0, 0xa1); amt_v(t, 5, 0, 0xb2); amt_v(t, 6, 0, 0xc3); amt_v(t, 7, 0, 0xd4);
    amt_code(t, "buffer_store_format_xyzw v[4:7], off, s[8:11], 0 offset:8");
    RUNS(t);
    EQ(t, amt_r32(t, G + 8), 0x0001a1b2u);
}

/* Component-count mismatches between the opcode and the format ([ISA] §9.3.1). */
static void buf_format_mismatch(amt *t)
{
    vs v = raw(64);
    v.fmt = 61;   /* 32_32_32_32_UINT */
    setup(t, 32, &v);
    fill(t, G, 16, 0xe0);
    amt_v(t, 5, 0, 0x5555);
    amt_code(t, "buffer_load_format_x v4, off, s[8:11], 0");
    RUNS(t);
    EQ(t, amt_gv(t, 4, 0), 0xe0);
    EQ(t, amt_gv(t, 5, 0), 0x5555);        /* only X is returned */
    amt_v(t, 4, 0, 0x77);
    amt_code(t, "buffer_store_format_x v4, off, s[8:11], 0 offset:16");
    RUNS(t);
    EQ(t, amt_r32(t, G + 16), 0x77);       /* 4 dwords written per DST_SEL: X, then 0s */
    EQ(t, amt_r32(t, G + 20), 0);
    EQ(t, amt_r32(t, G + 28), 0);
    v.fmt = 20;   /* 32_UINT */
    put_vs(t, 8, &v);
    amt_code(t, "buffer_load_format_xyzw v[4:7], off, s[8:11], 0");
    RUNS(t);
    EQ(t, amt_gv(t, 4, 0), 0xe0);
    EQ(t, amt_gv(t, 5, 0), 0);             /* Y, Z, W of a 1-component format */
    EQ(t, amt_gv(t, 7, 0), 0);
    amt_v(t, 4, 0, 1); amt_v(t, 5, 0, 2); amt_v(t, 6, 0, 3); amt_v(t, 7, 0, 4);
    amt_code(t, "buffer_store_format_xyzw v[4:7], off, s[8:11], 0 offset:32");
    RUNS(t);
    EQ(t, amt_r32(t, G + 32), 1);          /* X only */
    EQ(t, amt_r32(t, G + 36), 0xe9);
}

/* Every format opcode width: x, xy, xyz, xyzw; D16 and D16_HI; MTBUF's 16 opcodes. */
static void buf_format_opcodes(amt *t)
{
    vs v = raw(256);
    v.fmt = 57;   /* 16_16_16_16_FLOAT */
    setup(t, 32, &v);
    amt_w64(t, G, 0x4400420040003c00ull);   /* 1, 2, 3, 4 */
    for (unsigned r = 1; r < 40; r++) amt_v(t, r, 0, 0xdddddddd);
    amt_code(t, "buffer_load_format_x v1, off, s[8:11], 0\n"
                "buffer_load_format_xy v[2:3], off, s[8:11], 0\n"
                "buffer_load_format_xyz v[4:6], off, s[8:11], 0\n"
                "buffer_load_d16_format_x v10, off, s[8:11], 0\n"
                "buffer_load_d16_format_xy v11, off, s[8:11], 0\n"
                "buffer_load_d16_format_xyz v[12:13], off, s[8:11], 0\n"
                "buffer_load_d16_hi_format_x v14, off, s[8:11], 0\n"
                "tbuffer_load_format_x v20, off, s[8:11], 0 format:[BUF_FMT_16_16_16_16_FLOAT]\n"
                "tbuffer_load_format_xy v[21:22], off, s[8:11], 0 format:[BUF_FMT_16_16_16_16_FLOAT]\n"
                "tbuffer_load_format_xyz v[23:25], off, s[8:11], 0 format:[BUF_FMT_16_16_16_16_FLOAT]\n"
                "tbuffer_load_d16_format_x v26, off, s[8:11], 0 format:[BUF_FMT_16_16_16_16_FLOAT]\n"
                "tbuffer_load_d16_format_xy v27, off, s[8:11], 0 format:[BUF_FMT_16_16_16_16_FLOAT]\n"
                "tbuffer_load_d16_format_xyz v[28:29], off, s[8:11], 0 format:[BUF_FMT_16_16_16_16_FLOAT]");
    RUNS(t);
    EQ(t, amt_gv(t, 1, 0), 0x3f800000);
    EQ(t, amt_gv(t, 3, 0), 0x40000000);
    EQ(t, amt_gv(t, 6, 0), 0x40400000);
    EQ(t, amt_gv(t, 7, 0), 0xdddddddd);
    EQ(t, amt_gv(t, 10, 0), 0xdddd3c00);   /* D16 x: the high half is kept */
    EQ(t, amt_gv(t, 11, 0), 0x40003c00);
    EQ(t, amt_gv(t, 12, 0), 0x40003c00);
    EQ(t, amt_gv(t, 13, 0), 0xdddd4200);
    EQ(t, amt_gv(t, 14, 0), 0x3c00dddd);   /* D16_HI: the low half is kept */
    EQ(t, amt_gv(t, 20, 0), 0x3f800000);
    EQ(t, amt_gv(t, 22, 0), 0x40000000);
    EQ(t, amt_gv(t, 25, 0), 0x40400000);
    EQ(t, amt_gv(t, 26, 0), 0xdddd3c00);
    EQ(t, amt_gv(t, 27, 0), 0x40003c00);
    EQ(t, amt_gv(t, 29, 0), 0xdddd4200);
    /* stores */
    amt_v(t, 1, 0, 0x3f800000); amt_v(t, 2, 0, 0x40000000); amt_v(t, 3, 0, 0x40400000);
    amt_v(t, 4, 0, 0x42004000); amt_v(t, 5, 0, 0x00004400); amt_v(t, 6, 0, 0x4500aaaa);
    amt_code(t, "buffer_store_format_x v1, off, s[8:11], 0 offset:16\n"
                "buffer_store_format_xy v[1:2], off, s[8:11], 0 offset:24\n"
                "buffer_store_format_xyz v[1:3], off, s[8:11], 0 offset:32\n"
                "buffer_store_d16_format_x v4, off, s[8:11], 0 offset:40\n"
                "buffer_store_d16_format_xy v4, off, s[8:11], 0 offset:48\n"
                "buffer_store_d16_format_xyz v[4:5], off, s[8:11], 0 offset:56\n"
                "buffer_store_d16_hi_format_x v6, off, s[8:11], 0 offset:64\n"
                "tbuffer_store_format_x v1, off, s[8:11], 0 format:[BUF_FMT_32_FLOAT] offset:72\n"
                "tbuffer_store_format_xy v[1:2], off, s[8:11], 0 format:[BUF_FMT_16_16_FLOAT] offset:80\n"
                "tbuffer_store_format_xyz v[1:3], off, s[8:11], 0 format:[BUF_FMT_32_32_32_FLOAT] offset:88\n"
                "tbuffer_store_d16_format_x v4, off, s[8:11], 0 format:[BUF_FMT_16_FLOAT] offset:104\n"
                "tbuffer_store_d16_format_xy v4, off, s[8:11], 0 format:[BUF_FMT_16_16_FLOAT] offset:108\n"
                "tbuffer_store_d16_format_xyz v[4:5], off, s[8:11], 0 format:[BUF_FMT_16_16_16_16_FLOAT] offset:112");
    RUNS(t);
    EQ(t, amt_r64(t, G + 16), 0x0000000000003c00ull);     /* x, then Y Z W = 0 */
    EQ(t, amt_r64(t, G + 24), 0x0000000040003c00ull);
    EQ(t, amt_r64(t, G + 32), 0x0000420040003c00ull);
    EQ(t, amt_r64(t, G + 40), 0x0000000000004000ull);
    EQ(t, amt_r64(t, G + 48), 0x0000000042004000ull);
    EQ(t, amt_r64(t, G + 56), 0x0000440042004000ull);
    EQ(t, amt_r64(t, G + 64), 0x0000000000004500ull);     /* D16_HI: bits 31:16 */
    EQ(t, amt_r32(t, G + 72), 0x3f800000);
    EQ(t, amt_r32(t, G + 80), 0x40003c00);
    EQ(t, amt_r32(t, G + 96), 0x40400000);
    EQ(t, amt_r16(t, G + 104), 0x4000);
    EQ(t, amt_r32(t, G + 108), 0x42004000);
    EQ(t, amt_r64(t, G + 112), 0x0000440042004000ull);
}

/* ---- atomics ---- */

static void buf_atomics(amt *t)
{
    vs v = raw(256);
    setup(t, 32, &v);
    static const struct { const char *op; uint32_t mem, src, cmp, want; } c[] = {
        { "swap_b32", 5, 9, 0, 9 }, { "cmpswap_b32", 5, 9, 5, 9 }, { "cmpswap_b32", 5, 9, 4, 5 },
        { "add_u32", 0xffffffff, 2, 0, 1 }, { "sub_u32", 1, 2, 0, 0xffffffff }, { "csub_u32", 1, 2, 0, 0 },
        { "min_i32", 0xfffffffe, 1, 0, 0xfffffffe }, { "min_u32", 0xfffffffe, 1, 0, 1 },
        { "max_i32", 0xfffffffe, 1, 0, 1 }, { "max_u32", 0xfffffffe, 1, 0, 0xfffffffe },
        { "and_b32", 0xff00ff00, 0x0ff00ff0, 0, 0x0f000f00 }, { "or_b32", 0xff00ff00, 0x0ff00ff0, 0, 0xfff0fff0 },
        { "xor_b32", 0xff00ff00, 0x0ff00ff0, 0, 0xf0f0f0f0 }, { "inc_u32", 4, 5, 0, 5 }, { "inc_u32", 5, 5, 0, 0 },
        { "dec_u32", 0, 5, 0, 5 }, { "dec_u32", 3, 5, 0, 2 },
        { "cmpswap_f32", 0x80000000, 0x40000000, 0, 0x40000000 }, { "min_f32", 0x3fc00000, 0xc0100000, 0, 0xc0100000 },
        { "max_f32", 0x3fc00000, 0xc0100000, 0, 0x3fc00000 }, { "add_f32", 0x3fc00000, 0x40100000, 0, 0x40700000 },
    };
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        amt_w32(t, G + 8, c[i].mem);
        amt_v(t, 1, 0, c[i].src);
        amt_v(t, 2, 0, c[i].cmp);
        if (strstr(c[i].op, "cmpswap")) amt_code(t, "buffer_atomic_%s v[1:2], off, s[8:11], 0 offset:8 glc", c[i].op);
        else amt_code(t, "buffer_atomic_%s v1, off, s[8:11], 0 offset:8 glc", c[i].op);
        RUNS(t);
        if (amt_r32(t, G + 8) != c[i].want || amt_gv(t, 1, 0) != c[i].mem)
            amt_fail(t, __FILE__, __LINE__, "buffer_atomic_%s: mem 0x%x ret 0x%x", c[i].op, amt_r32(t, G + 8), amt_gv(t, 1, 0));
    }
    static const struct { const char *op; uint64_t mem, src, cmp, want; } d[] = {
        { "swap_b64", 1, 0x100000002ull, 0, 0x100000002ull }, { "cmpswap_b64", 7, 9, 7, 9 },
        { "add_u64", 0xffffffffull, 1, 0, 0x100000000ull }, { "sub_u64", 0, 1, 0, ~0ull },
        { "min_i64", ~0ull, 1, 0, ~0ull }, { "min_u64", ~0ull, 1, 0, 1 }, { "max_i64", ~0ull, 1, 0, 1 },
        { "max_u64", ~0ull, 1, 0, ~0ull }, { "and_b64", 0xff00000000ull, 0xf000000001ull, 0, 0xf000000000ull },
        { "or_b64", 0xff00000000ull, 1, 0, 0xff00000001ull }, { "xor_b64", 0xff00000000ull, 0xf000000000ull, 0, 0x0f00000000ull },
        { "inc_u64", 3, 3, 0, 0 }, { "dec_u64", 0, 7, 0, 7 },
    };
    for (unsigned i = 0; i < sizeof d / sizeof d[0]; i++) {
        amt_w64(t, G + 16, d[i].mem);
        amt_v64(t, 2, 0, d[i].src);
        amt_v64(t, 4, 0, d[i].cmp);
        if (strstr(d[i].op, "cmpswap")) amt_code(t, "buffer_atomic_%s v[2:5], off, s[8:11], 0 offset:16 glc", d[i].op);
        else amt_code(t, "buffer_atomic_%s v[2:3], off, s[8:11], 0 offset:16 glc", d[i].op);
        RUNS(t);
        uint64_t ret = (uint64_t)amt_gv(t, 2, 0) | (uint64_t)amt_gv(t, 3, 0) << 32;
        if (amt_r64(t, G + 16) != d[i].want || ret != d[i].mem)
            amt_fail(t, __FILE__, __LINE__, "buffer_atomic_%s: mem 0x%llx ret 0x%llx", d[i].op,
                     (unsigned long long)amt_r64(t, G + 16), (unsigned long long)ret);
    }
    /* without GLC the data VGPR keeps its value; 64 lanes add to one address */
    amt_begin(t, 64);
    amt_map(t, G, 0x1000);
    put_vs(t, 8, &v);
    amt_vall(t, 1, 2);
    amt_code(t, "buffer_atomic_add_u32 v1, off, s[8:11], 0 offset:4");
    RUNS(t);
    EQ(t, amt_r32(t, G + 4), 128);
    EQ(t, amt_gv(t, 1, 63), 2);
    /* misaligned atomic: MEMVIOL */
    amt_code(t, "buffer_atomic_add_u32 v1, off, s[8:11], 0 offset:6 glc");
    FAULTS(t, "MEMVIOL: misaligned atomic");
}

/* ---- loads into LDS, TFE, invalidates, unbound and mismatched resources, alignment ---- */

static void buf_lds_loads(amt *t)
{
    vs v = raw(256);
    v.fmt = 1;   /* 8_UNORM for load_lds_format_x */
    setup(t, 32, &v);
    umb_rdna3_step_set_lds_size(t->s, 1024);
    amt_s(t, 126, 3);
    amt_w32(t, G, 0x80ff8081u);
    amt_s(t, 125, 0x100);   /* M0: LDS base */
    amt_code(t, "buffer_load_lds_u8 off, s[8:11], 0\n"
                "buffer_load_lds_i8 off, s[8:11], 0 offset:16\n"
                "buffer_load_lds_u16 off, s[8:11], 0 offset:32\n"
                "buffer_load_lds_i16 off, s[8:11], 0 offset:48\n"
                "buffer_load_lds_b32 off, s[8:11], 0 offset:64\n"
                "buffer_load_lds_format_x off, s[8:11], 0 offset:80");
    amt_w32(t, G + 16, 0x81);
    amt_w32(t, G + 32, 0x8081);
    amt_w32(t, G + 48, 0x8081);
    amt_w32(t, G + 64, 0xcafef00d);
    amt_w32(t, G + 80, 0xff);
    RUNS(t);
    EQ(t, amt_lds_r32(t, 0x100), 0x81);
    EQ(t, amt_lds_r32(t, 0x104), 0x81);          /* lane 1, same data */
    EQ(t, amt_lds_r32(t, 0x110), 0xffffff81);
    EQ(t, amt_lds_r32(t, 0x120), 0x8081);
    EQ(t, amt_lds_r32(t, 0x130), 0xffff8081);
    EQ(t, amt_lds_r32(t, 0x140), 0xcafef00d);
    EQ(t, amt_lds_r32(t, 0x150), 0x3f800000);    /* 8_UNORM 255 -> 1.0 */
}

static void buf_tfe_and_invalidates(amt *t)
{
    vs v = raw(256);
    setup(t, 32, &v);
    amt_w32(t, G, 0x1234);
    amt_v(t, 6, 0, 0x77);
    amt_v(t, 9, 0, 0x77);
    amt_code(t, "buffer_load_b32 v[5:6], off, s[8:11], 0 tfe\n"
                "buffer_load_format_xyzw v[5:9], off, s[8:11], 0 tfe\n"
                "buffer_gl0_inv\n"
                "buffer_gl1_inv\n"
                "s_dcache_inv");
    RUNS(t);
    EQ(t, amt_gv(t, 5, 0), 0x1234);
    EQ(t, amt_gv(t, 9, 0), 0);                   /* the status VGPR after the data: 0 */
    EQ(t, amt_r32(t, G), 0x1234);
}

static void buf_unbound_and_type(amt *t)
{
    vs v;
    memset(&v, 0, sizeof v);   /* all-zero resource: unbound */
    setup(t, 32, &v);
    amt_map(t, 0, 0x1000);
    amt_w32(t, 0, 0xabc);
    amt_v(t, 4, 0, 0x1234);
    amt_v(t, 5, 0, 0x99);
    amt_code(t, "buffer_load_b32 v4, off, s[8:11], 0\n"
                "buffer_store_b32 v5, off, s[8:11], 0\n"
                "buffer_load_format_x v6, off, s[8:11], 0");
    RUNS(t);
    EQ(t, amt_gv(t, 4, 0), 0);
    EQ(t, amt_r32(t, 0), 0xabc);
    /* TYPE != 0 (an image resource): the instruction is a no-op */
    v = raw(256);
    v.type = 2;
    put_vs(t, 8, &v);
    amt_map(t, G, 0x1000);
    amt_w32(t, G, 0xabc);
    amt_v(t, 4, 0, 0x1234);
    amt_code(t, "buffer_load_b32 v4, off, s[8:11], 0\n"
                "buffer_store_b32 v5, off, s[8:11], 0 offset:4\n"
                "buffer_atomic_add_u32 v5, off, s[8:11], 0 glc");
    RUNS(t);
    EQ(t, amt_gv(t, 4, 0), 0x1234);
    EQ(t, amt_r32(t, G + 4), 0);
    EQ(t, amt_r32(t, G), 0xabc);
}

static void buf_alignment(amt *t)
{
    vs v = raw(256);
    v.fmt = 22;
    setup(t, 32, &v);
    amt_code(t, "buffer_load_format_x v4, off, s[8:11], 0 offset:2");
    FAULTS(t, "MEMVIOL: misaligned format access");     /* 4-byte formats need 4-byte alignment */
    v.fmt = 13;   /* 16_FLOAT */
    setup(t, 32, &v);
    amt_code(t, "buffer_load_format_x v4, off, s[8:11], 0 offset:1");
    FAULTS(t, "MEMVIOL");
    v.fmt = 1;    /* 8_UNORM: any byte */
    setup(t, 32, &v);
    amt_code(t, "buffer_load_format_x v4, off, s[8:11], 0 offset:3");
    RUNS(t);
    /* non-format: SH_MEM_CONFIG.alignment_mode */
    setup(t, 32, &v);
    umb_rdna3_step_set_alignment_mode(t->s, 1);
    amt_code(t, "buffer_load_b32 v4, off, s[8:11], 0 offset:2");
    FAULTS(t, "MEMVIOL: misaligned buffer access");
    setup(t, 32, &v);
    umb_rdna3_step_set_alignment_mode(t->s, 0);
    amt_w32(t, G, 0x1111);
    amt_code(t, "buffer_load_b32 v4, off, s[8:11], 0 offset:3");
    RUNS(t);
    EQ(t, amt_gv(t, 4, 0), 0x1111);
}

#define C(fn) { #fn, fn }
const amt_case amt_cases_buf[] = {
    C(buf_data_opcodes), C(buf_addressing), C(buf_add_tid_linear), C(buf_swizzle),
    C(buf_scratch_srd_wave32), C(buf_scratch_srd_wave64),
    C(buf_oob_mode3_raw), C(buf_oob_all_or_nothing), C(buf_oob_mode0), C(buf_oob_mode1_mode2),
    C(buf_formats_load), C(buf_formats_store), C(buf_dst_sel), C(buf_format_mismatch), C(buf_format_opcodes),
    C(buf_atomics), C(buf_lds_loads), C(buf_tfe_and_invalidates), C(buf_unbound_and_type), C(buf_alignment),
    { NULL, NULL },
};
