/* Conformance: GLOBAL, FLAT, SCRATCH, DS and SMEM through the single-step API. Every
 * instruction is assembled by llvm-mc-19 from the text below; expected values are stated. */
#include <string.h>

#include "amt.h"

#define G 0x100000ull            /* a global buffer */
#define SHARED 0x0001000000000000ull
#define PRIVATE 0x0002000000000000ull
#define SCR 0x400000ull          /* a wave's scratch base */

static void setup(amt *t, unsigned ws)
{
    amt_begin(t, ws);
    amt_map(t, G, 0x10000);
}

/* ---- GLOBAL ---- */

static void global_load_widths(amt *t)
{
    setup(t, 32);
    for (unsigned i = 0; i < 32; i++) amt_w32(t, G + 4 * i, 0x80c0e0f0u + i * 0x01010101u);
    amt_v64(t, 0, 0, G);
    amt_v64(t, 0, 1, G + 4);
    amt_s(t, 126, 3);   /* EXEC = lanes 0, 1 */
    amt_code(t, "global_load_u8 v10, v[0:1], off\n"
                "global_load_i8 v11, v[0:1], off offset:3\n"
                "global_load_u16 v12, v[0:1], off offset:2\n"
                "global_load_i16 v13, v[0:1], off offset:2\n"
                "global_load_b32 v14, v[0:1], off offset:4\n"
                "global_load_b64 v[16:17], v[0:1], off offset:8\n"
                "global_load_b96 v[20:22], v[0:1], off\n"
                "global_load_b128 v[24:27], v[0:1], off offset:16");
    RUNS(t);
    EQ(t, amt_gv(t, 10, 0), 0xf0);
    EQ(t, amt_gv(t, 11, 0), 0xffffff80);          /* byte 3 of 0x80c0e0f0, sign extended */
    EQ(t, amt_gv(t, 12, 0), 0x80c0);
    EQ(t, amt_gv(t, 13, 0), 0xffff80c0);
    EQ(t, amt_gv(t, 14, 0), 0x81c1e1f1);
    EQ(t, amt_gv(t, 16, 0), 0x82c2e2f2);
    EQ(t, amt_gv(t, 17, 0), 0x83c3e3f3);
    EQ(t, amt_gv(t, 22, 0), 0x82c2e2f2);
    EQ(t, amt_gv(t, 27, 0), 0x87c7e7f7);
    EQ(t, amt_gv(t, 10, 1), 0xf1);                /* lane 1 starts one dword later */
    EQ(t, amt_gv(t, 27, 1), 0x88c8e8f8);
    EQ(t, amt_gv(t, 10, 2), 0);                   /* lane 2 is off: untouched */
}

static void global_d16_loads(amt *t)
{
    setup(t, 32);
    amt_w32(t, G, 0x1234fe80u);
    amt_v64(t, 0, 0, G);
    amt_s(t, 126, 1);
    for (unsigned r = 10; r < 16; r++) amt_v(t, r, 0, 0xaaaabbbbu);
    amt_code(t, "global_load_d16_u8 v10, v[0:1], off\n"
                "global_load_d16_i8 v11, v[0:1], off\n"
                "global_load_d16_b16 v12, v[0:1], off offset:2\n"
                "global_load_d16_hi_u8 v13, v[0:1], off offset:1\n"
                "global_load_d16_hi_i8 v14, v[0:1], off offset:1\n"
                "global_load_d16_hi_b16 v15, v[0:1], off");
    RUNS(t);
    EQ(t, amt_gv(t, 10, 0), 0xaaaa0080);   /* low half written, high half kept */
    EQ(t, amt_gv(t, 11, 0), 0xaaaaff80);
    EQ(t, amt_gv(t, 12, 0), 0xaaaa1234);
    EQ(t, amt_gv(t, 13, 0), 0x00febbbb);   /* high half written, low half kept */
    EQ(t, amt_gv(t, 14, 0), 0xfffebbbb);
    EQ(t, amt_gv(t, 15, 0), 0xfe80bbbb);
}

static void global_store_widths(amt *t)
{
    setup(t, 32);
    amt_s64(t, 4, G);              /* saddr */
    amt_v(t, 0, 0, 0x100);         /* 32-bit VGPR offset (GVS mode) */
    amt_s(t, 126, 1);
    amt_v(t, 1, 0, 0x11223344u);
    amt_v(t, 2, 0, 0x55667788u);
    amt_v(t, 3, 0, 0x99aabbccu);
    amt_v(t, 4, 0, 0xddeeff00u);
    amt_code(t, "global_store_b8 v0, v1, s[4:5]\n"
                "global_store_b16 v0, v1, s[4:5] offset:2\n"
                "global_store_b32 v0, v1, s[4:5] offset:4\n"
                "global_store_b64 v0, v[1:2], s[4:5] offset:8\n"
                "global_store_b96 v0, v[1:3], s[4:5] offset:16\n"
                "global_store_b128 v0, v[1:4], s[4:5] offset:32\n"
                "global_store_d16_hi_b8 v0, v1, s[4:5] offset:48\n"
                "global_store_d16_hi_b16 v0, v1, s[4:5] offset:50\n"
                "global_store_b32 v0, v2, s[4:5] offset:-4");
    RUNS(t);
    EQ(t, amt_r32(t, G + 0x100), 0x33440044u);
    EQ(t, amt_r64(t, G + 0x108), 0x5566778811223344ull);
    EQ(t, amt_r32(t, G + 0x118), 0x99aabbccu);
    EQ(t, amt_r32(t, G + 0x11c), 0);
    EQ(t, amt_r32(t, G + 0x12c), 0xddeeff00u);
    EQ(t, amt_r32(t, G + 0x130), 0x11220022u);   /* hi b8 = 0x22 at +48, hi b16 = 0x1122 at +50 */
    EQ(t, amt_r32(t, G + 0xfc), 0x55667788u);    /* negative instruction offset */
}

static void global_addtid(amt *t)
{
    setup(t, 64);
    amt_s64(t, 4, G);
    for (unsigned l = 0; l < 64; l++) amt_v(t, 1, l, 1000 + l);
    amt_code(t, "global_store_addtid_b32 v1, s[4:5] offset:16\n"
                "global_load_addtid_b32 v2, s[4:5] offset:20");
    RUNS(t);
    EQ(t, amt_r32(t, G + 16), 1000);
    EQ(t, amt_r32(t, G + 16 + 63 * 4), 1063);
    EQ(t, amt_gv(t, 2, 0), 1001);       /* lane 0 reads what lane 1 stored */
    EQ(t, amt_gv(t, 2, 62), 1063);
    EQ(t, amt_gv(t, 2, 63), 0);         /* beyond the stored range: the zero-filled page */
}

/* One 32-bit atomic: memory starts at `mem`, data `src` (and `cmp`); expect the new memory
 * value and the returned old value. */
static void one_atomic32(amt *t, const char *op, uint32_t mem, uint32_t src, uint32_t cmp, uint32_t want)
{
    amt_w32(t, G, mem);
    amt_v(t, 2, 0, src);
    amt_v(t, 3, 0, cmp);
    amt_v(t, 1, 0, 0xdeadbeef);
    if (strstr(op, "cmpswap")) amt_code(t, "global_atomic_%s v1, v0, v[2:3], s[4:5] glc", op);
    else amt_code(t, "global_atomic_%s v1, v0, v2, s[4:5] glc", op);
    RUNS(t);
    if (amt_r32(t, G) != want || amt_gv(t, 1, 0) != mem)
        amt_fail(t, __FILE__, __LINE__, "%s: mem 0x%x src 0x%x -> 0x%x (want 0x%x), returned 0x%x", op, mem, src,
                 amt_r32(t, G), want, amt_gv(t, 1, 0));
}

static void global_atomics32(amt *t)
{
    setup(t, 32);
    amt_s64(t, 4, G);
    amt_v(t, 0, 0, 0);
    amt_s(t, 126, 1);
    one_atomic32(t, "swap_b32", 5, 9, 0, 9);
    one_atomic32(t, "cmpswap_b32", 5, 9, 5, 9);           /* cmp matches: src stored */
    one_atomic32(t, "cmpswap_b32", 5, 9, 4, 5);           /* no match: unchanged */
    one_atomic32(t, "add_u32", 0xffffffff, 2, 0, 1);
    one_atomic32(t, "sub_u32", 1, 2, 0, 0xffffffff);
    one_atomic32(t, "csub_u32", 1, 2, 0, 0);              /* clamps at 0 */
    one_atomic32(t, "csub_u32", 7, 2, 0, 5);
    one_atomic32(t, "min_i32", 0xfffffffe, 1, 0, 0xfffffffe);
    one_atomic32(t, "min_u32", 0xfffffffe, 1, 0, 1);
    one_atomic32(t, "max_i32", 0xfffffffe, 1, 0, 1);
    one_atomic32(t, "max_u32", 0xfffffffe, 1, 0, 0xfffffffe);
    one_atomic32(t, "and_b32", 0xff00ff00, 0x0ff00ff0, 0, 0x0f000f00);
    one_atomic32(t, "or_b32", 0xff00ff00, 0x0ff00ff0, 0, 0xfff0fff0);
    one_atomic32(t, "xor_b32", 0xff00ff00, 0x0ff00ff0, 0, 0xf0f0f0f0);
    one_atomic32(t, "inc_u32", 4, 5, 0, 5);               /* tmp >= src ? 0 : tmp + 1 */
    one_atomic32(t, "inc_u32", 5, 5, 0, 0);
    one_atomic32(t, "dec_u32", 0, 5, 0, 5);               /* tmp == 0 || tmp > src ? src : tmp - 1 */
    one_atomic32(t, "dec_u32", 6, 5, 0, 5);
    one_atomic32(t, "dec_u32", 3, 5, 0, 2);
    one_atomic32(t, "add_f32", 0x3fc00000, 0x40100000, 0, 0x40700000);     /* 1.5 + 2.25 = 3.75 */
    one_atomic32(t, "min_f32", 0x3fc00000, 0xc0100000, 0, 0xc0100000);    /* min(1.5, -2.25) */
    one_atomic32(t, "max_f32", 0x7fc00000, 0x3f800000, 0, 0x3f800000);    /* NaN loses */
    one_atomic32(t, "cmpswap_f32", 0x80000000, 0x40000000, 0x00000000, 0x40000000); /* -0 == +0 */
}

static void global_atomics64(amt *t)
{
    setup(t, 32);
    amt_s64(t, 4, G);
    amt_v(t, 0, 0, 8);
    amt_s(t, 126, 1);
    static const struct { const char *op; uint64_t mem, src, cmp, want; } c[] = {
        { "swap_b64", 1, 0x100000002ull, 0, 0x100000002ull },
        { "cmpswap_b64", 0x500000005ull, 9, 0x500000005ull, 9 },
        { "cmpswap_b64", 0x500000005ull, 9, 5, 0x500000005ull },
        { "add_u64", 0xffffffffull, 1, 0, 0x100000000ull },
        { "sub_u64", 0, 1, 0, ~0ull },
        { "min_i64", ~0ull, 1, 0, ~0ull },
        { "min_u64", ~0ull, 1, 0, 1 },
        { "max_i64", ~0ull, 1, 0, 1 },
        { "max_u64", ~0ull, 1, 0, ~0ull },
        { "and_b64", 0xff00000000ull, 0xf000000001ull, 0, 0xf000000000ull },
        { "or_b64", 0xff00000000ull, 1, 0, 0xff00000001ull },
        { "xor_b64", 0xff00000000ull, 0xf000000000ull, 0, 0x0f00000000ull },
        { "inc_u64", 0x100000000ull, 0x100000005ull, 0, 0x100000001ull },
        { "dec_u64", 0, 7, 0, 7 },
    };
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        amt_w64(t, G + 8, c[i].mem);
        amt_v64(t, 2, 0, c[i].src);
        amt_v64(t, 4, 0, c[i].cmp);
        if (strstr(c[i].op, "cmpswap")) amt_code(t, "global_atomic_%s v[6:7], v0, v[2:5], s[4:5] glc", c[i].op);
        else amt_code(t, "global_atomic_%s v[6:7], v0, v[2:3], s[4:5] glc", c[i].op);
        RUNS(t);
        uint64_t got = amt_r64(t, G + 8), ret = (uint64_t)amt_gv(t, 6, 0) | (uint64_t)amt_gv(t, 7, 0) << 32;
        if (got != c[i].want || ret != c[i].mem)
            amt_fail(t, __FILE__, __LINE__, "%s: got 0x%llx ret 0x%llx", c[i].op, (unsigned long long)got,
                     (unsigned long long)ret);
    }
}

/* Without GLC the old value is not returned; all lanes hitting one address add up. */
static void global_atomic_noret(amt *t)
{
    setup(t, 64);
    amt_s64(t, 4, G);
    amt_vall(t, 0, 0x40);
    amt_vall(t, 1, 3);
    amt_vall(t, 2, 0x77);
    amt_code(t, "global_atomic_add_u32 v0, v1, s[4:5]");
    RUNS(t);
    EQ(t, amt_r32(t, G + 0x40), 3 * 64);
    EQ(t, amt_gv(t, 2, 5), 0x77);
}

static void global_unmapped_faults(amt *t)
{
    setup(t, 32);
    amt_v64(t, 0, 0, G);
    amt_v64(t, 0, 3, 0x9000000ull);   /* unmapped */
    amt_s(t, 126, 9);
    amt_code(t, "global_load_b32 v2, v[0:1], off");
    FAULTS(t, "unmapped global address 0x9000000 (lane 3)");
}

/* ---- alignment modes ---- */

static void align_run(amt *t, unsigned mode, const char *inst, uint64_t addr)
{
    setup(t, 32);
    umb_rdna3_step_set_alignment_mode(t->s, mode);
    amt_w64(t, G, 0x8877665544332211ull);
    amt_w64(t, G + 8, 0xffeeddccbbaa9988ull);
    amt_v64(t, 0, 0, addr);
    amt_v(t, 4, 0, 0xabcdef01u);
    amt_v(t, 5, 0, 0x23456789u);
    amt_v(t, 2, 0, 0x5555);
    amt_s(t, 126, 1);
    amt_code(t, "%s", inst);
}

static void align_mode0_dword(amt *t)
{
    align_run(t, 0, "global_load_b32 v2, v[0:1], off", G + 3);
    RUNS(t);
    EQ(t, amt_gv(t, 2, 0), 0x44332211u);          /* address bits [1:0] ignored */
    align_run(t, 0, "global_load_u16 v2, v[0:1], off", G + 3);
    RUNS(t);
    EQ(t, amt_gv(t, 2, 0), 0x4433u);              /* 2-byte access: bit 0 ignored */
    align_run(t, 0, "global_load_u8 v2, v[0:1], off", G + 3);
    RUNS(t);
    EQ(t, amt_gv(t, 2, 0), 0x44u);
    align_run(t, 0, "global_store_b64 v[0:1], v[4:5], off", G + 6);
    RUNS(t);
    EQ(t, amt_r32(t, G + 4), 0xabcdef01u);        /* 8-byte store aligned down to 4 */
}

static void align_mode1_dword_strict(amt *t)
{
    align_run(t, 1, "global_load_b32 v2, v[0:1], off", G + 2);
    FAULTS(t, "MEMVIOL: misaligned load (lane 0, address 0x100002)");
    EQ(t, amt_gv(t, 2, 0), 0);                    /* the load returns 0 */
    align_run(t, 1, "global_load_b64 v[2:3], v[0:1], off", G + 4);
    RUNS(t);                                      /* min(8, 4) = 4-byte alignment suffices */
    EQ(t, amt_gv(t, 3, 0), 0xbbaa9988u);
    align_run(t, 1, "global_load_u16 v2, v[0:1], off", G + 1);
    FAULTS(t, "MEMVIOL");
    align_run(t, 1, "global_store_b32 v[0:1], v4, off", G + 1);
    FAULTS(t, "misaligned store");
    EQ(t, amt_r32(t, G), 0x44332211u);            /* the store is dropped */
}

static void align_mode2_strict(amt *t)
{
    align_run(t, 2, "global_load_b64 v[2:3], v[0:1], off", G + 4);
    FAULTS(t, "MEMVIOL: misaligned load");
    align_run(t, 2, "global_load_b128 v[2:5], v[0:1], off", G + 8);
    FAULTS(t, "MEMVIOL");                         /* 16-byte access needs 16-byte alignment */
    align_run(t, 2, "global_load_b64 v[2:3], v[0:1], off", G + 8);
    RUNS(t);
    EQ(t, amt_gv(t, 2, 0), 0xbbaa9988u);
}

static void align_mode3_unaligned(amt *t)
{
    align_run(t, 3, "global_load_b32 v2, v[0:1], off", G + 3);
    RUNS(t);
    EQ(t, amt_gv(t, 2, 0), 0x77665544u);
    align_run(t, 3, "global_load_b64 v[2:3], v[0:1], off", G + 5);
    RUNS(t);
    EQ(t, amt_gv(t, 2, 0), 0x88887766u);
    EQ(t, amt_gv(t, 3, 0), 0xccbbaa99u);
}

static void align_atomic_always(amt *t)
{
    for (unsigned mode = 0; mode < 4; mode++) {
        align_run(t, mode, "global_atomic_add_u32 v2, v[0:1], v4, off glc", G + 2);
        FAULTS(t, "MEMVIOL: misaligned atomic");
    }
    align_run(t, 3, "global_atomic_add_u64 v[2:3], v[0:1], v[4:5], off glc", G + 4);
    FAULTS(t, "MEMVIOL: misaligned atomic");
}

/* ---- SCRATCH: swizzled, element size 4, index stride = wave size ---- */

static void scratch_setup(amt *t, unsigned ws, uint32_t per_lane)
{
    setup(t, ws);
    amt_map(t, SCR, 0x10000);
    umb_rdna3_step_set_scratch(t->s, SCR, per_lane);
}

static void scratch_modes(amt *t, unsigned ws)
{
    scratch_setup(t, ws, 64);
    for (unsigned l = 0; l < ws; l++) {
        amt_v(t, 1, l, 0x1000 + l);
        amt_v(t, 2, l, 4 * (l & 1));   /* SV offsets 0 / 4 */
    }
    amt_s(t, 3, 8);                    /* SS offset */
    amt_code(t, "scratch_store_b32 off, v1, off offset:4\n"      /* ST: ioff */
                "scratch_store_b32 v2, v1, off offset:16\n"      /* SV: voff + ioff */
                "scratch_store_b32 off, v1, s3 offset:24\n"      /* SS: soff + ioff */
                "scratch_store_b32 v2, v1, s3 offset:36\n"       /* SVS */
                "scratch_load_b32 v5, v2, s3 offset:36");
    RUNS(t);
    uint64_t row = 4ull * ws;   /* one private dword of every lane */
    EQ(t, amt_r32(t, SCR + 1 * row + 0 * 4), 0x1000);        /* ST, offset 4 -> row 1 */
    EQ(t, amt_r32(t, SCR + 1 * row + 7 * 4), 0x1007);
    EQ(t, amt_r32(t, SCR + 4 * row + 0 * 4), 0x1000);        /* SV lane 0: 16 -> row 4 */
    EQ(t, amt_r32(t, SCR + 5 * row + 1 * 4), 0x1001);        /* SV lane 1: 20 -> row 5 */
    EQ(t, amt_r32(t, SCR + 8 * row + (ws - 1) * 4), 0x1000 + ws - 1);  /* SS: 32 -> row 8 */
    EQ(t, amt_r32(t, SCR + 11 * row + 0 * 4), 0x1000);       /* SVS lane 0: 44 -> row 11 */
    EQ(t, amt_r32(t, SCR + 12 * row + 3 * 4), 0x1003);       /* SVS lane 3: 48 -> row 12 */
    EQ(t, amt_gv(t, 5, 3), 0x1003);
}
static void scratch_modes_wave32(amt *t) { scratch_modes(t, 32); }
static void scratch_modes_wave64(amt *t) { scratch_modes(t, 64); }

/* A 64-bit private value: its two dwords are one row (wave_size*4 bytes) apart; an unaligned
 * dword is split across rows. */
static void scratch_multi_dword(amt *t, unsigned ws)
{
    scratch_setup(t, ws, 32);
    amt_vall(t, 1, 0x11111111u);
    amt_vall(t, 2, 0x22222222u);
    amt_s(t, 126, 0x4);   /* lane 2 only */
    amt_code(t, "scratch_store_b64 off, v[1:2], off offset:8\n"
                "scratch_load_b32 v3, off, off offset:10");
    RUNS(t);
    uint64_t row = 4ull * ws;
    EQ(t, amt_r32(t, SCR + 2 * row + 8), 0x11111111u);
    EQ(t, amt_r32(t, SCR + 3 * row + 8), 0x22222222u);
    EQ(t, amt_gv(t, 3, 2), 0x22221111u);
}
static void scratch_multi_dword_wave32(amt *t) { scratch_multi_dword(t, 32); }
static void scratch_multi_dword_wave64(amt *t) { scratch_multi_dword(t, 64); }

static void scratch_errors(amt *t)
{
    scratch_setup(t, 32, 16);
    amt_s(t, 126, 1);
    amt_code(t, "scratch_load_b32 v1, off, off offset:16");
    FAULTS(t, "beyond the lane's private segment");
    scratch_setup(t, 32, 16);
    amt_s(t, 126, 1);
    amt_code(t, "scratch_load_b32 v1, off, off offset:-4");
    FAULTS(t, "negative scratch offset");
    setup(t, 32);
    amt_s(t, 126, 1);
    amt_code(t, "scratch_load_b32 v1, off, off");
    FAULTS(t, "without a private segment");
}

/* ---- FLAT through the apertures ---- */

static void flat_apertures(amt *t, unsigned ws)
{
    scratch_setup(t, ws, 64);
    umb_rdna3_step_set_lds_size(t->s, 256);
    amt_lds_w32(t, 16, 0x1d5);
    amt_w32(t, G + 32, 0x610ba1);
    /* lane 0 -> global, lane 1 -> LDS, lane 2 -> private, last lane -> private */
    amt_v64(t, 0, 0, G + 28);
    amt_v64(t, 0, 1, SHARED + 12);
    amt_v64(t, 0, 2, PRIVATE + 12);
    amt_v64(t, 0, ws - 1, PRIVATE + 12);
    for (unsigned l = 0; l < ws; l++) amt_v(t, 4, l, 0x5000 + l);
    amt_s64(t, 126, 0x7ull | 1ull << (ws - 1));
    amt_code(t, "flat_store_b32 v[0:1], v4 offset:8\n"   /* global G+36, LDS 20, private 20 */
                "flat_load_b32 v5, v[0:1] offset:4\n"    /* global G+32, LDS 16, private 16 */
                "flat_load_b32 v6, v[0:1] offset:8");
    RUNS(t);
    EQ(t, amt_r32(t, G + 36), 0x5000);
    EQ(t, amt_lds_r32(t, 20), 0x5001);
    uint64_t row = 4ull * ws;
    EQ(t, amt_r32(t, SCR + 5 * row + 2 * 4), 0x5002);               /* private offset 20 -> row 5 */
    EQ(t, amt_r32(t, SCR + 5 * row + (ws - 1) * 4), 0x5000 + ws - 1);
    EQ(t, amt_gv(t, 5, 0), 0x610ba1);
    EQ(t, amt_gv(t, 5, 1), 0x1d5);
    EQ(t, amt_gv(t, 5, 2), 0);
    EQ(t, amt_gv(t, 6, 2), 0x5002);
    EQ(t, amt_gv(t, 6, ws - 1), 0x5000 + ws - 1);
}
static void flat_apertures_wave32(amt *t) { flat_apertures(t, 32); }
static void flat_apertures_wave64(amt *t) { flat_apertures(t, 64); }

/* LDS through FLAT: out of range loads read 0, stores vanish; the aperture test is made on the
 * address before the offset. */
static void flat_lds_range(amt *t)
{
    setup(t, 32);
    umb_rdna3_step_set_lds_size(t->s, 64);
    amt_v64(t, 0, 0, SHARED + 60);
    amt_v64(t, 0, 1, SHARED + 0xffffffffull);   /* the aperture limit: still LDS */
    amt_vall(t, 4, 0x77);
    amt_vall(t, 5, 0x99);
    amt_s(t, 126, 3);
    amt_lds_w32(t, 60, 0xabc);
    amt_code(t, "flat_store_b32 v[0:1], v4 offset:4\n"
                "flat_load_b32 v5, v[0:1] offset:4\n"
                "flat_load_b32 v6, v[0:1]");
    RUNS(t);
    EQ(t, amt_gv(t, 5, 0), 0);        /* LDS address 64 >= lds_size 64 */
    EQ(t, amt_gv(t, 5, 1), 0);
    EQ(t, amt_gv(t, 6, 0), 0xabc);
    EQ(t, amt_gv(t, 6, 1), 0);
    EQ(t, amt_lds_r32(t, 60), 0xabc);
}

static void flat_hole_and_private_atomics(amt *t)
{
    setup(t, 32);
    amt_v64(t, 0, 0, 0x0000900000000000ull);   /* addr[63:47] = 1: the hole */
    amt_s(t, 126, 1);
    amt_code(t, "flat_load_b32 v2, v[0:1]");
    FAULTS(t, "non-canonical hole");
    scratch_setup(t, 32, 16);
    amt_v64(t, 0, 0, PRIVATE + 8);
    amt_v(t, 4, 0, 5);
    amt_v(t, 5, 0, 0);
    amt_s(t, 126, 1);
    amt_code(t, "flat_atomic_add_u32 v2, v[0:1], v4 glc\n"
                "flat_atomic_add_u32 v3, v[0:1], v4 glc");
    RUNS(t);
    EQ(t, amt_gv(t, 3, 0), 5);
    EQ(t, amt_r32(t, SCR + 2 * 128), 10);
    amt_code(t, "flat_atomic_add_u64 v[2:3], v[0:1], v[4:5] glc");
    FAULTS(t, "64-bit atomic to the private aperture");
}

/* ---- DS ---- */

static void ds_setup(amt *t, unsigned ws)
{
    amt_begin(t, ws);
    umb_rdna3_step_set_lds_size(t->s, 1024);
}

static void ds_load_store_widths(amt *t)
{
    ds_setup(t, 32);
    for (unsigned i = 0; i < 16; i++) amt_lds_w32(t, 4 * i, 0x80c0e0f0u + i * 0x01010101u);
    amt_v(t, 0, 0, 0);
    amt_v(t, 0, 1, 4);
    amt_s(t, 126, 3);
    amt_vall(t, 30, 0xaaaabbbb);
    amt_vall(t, 31, 0xaaaabbbb);
    amt_code(t, "ds_load_u8 v1, v0\n"
                "ds_load_i8 v2, v0 offset:3\n"
                "ds_load_u16 v3, v0 offset:2\n"
                "ds_load_i16 v4, v0 offset:2\n"
                "ds_load_b32 v5, v0 offset:4\n"
                "ds_load_b64 v[6:7], v0 offset:8\n"
                "ds_load_b96 v[8:10], v0 offset:16\n"
                "ds_load_b128 v[12:15], v0 offset:32\n"
                "ds_load_u8_d16_hi v30, v0 offset:3\n"
                "ds_load_i8_d16 v31, v0 offset:3");
    RUNS(t);
    EQ(t, amt_gv(t, 1, 0), 0xf0);
    EQ(t, amt_gv(t, 2, 0), 0xffffff80);
    EQ(t, amt_gv(t, 3, 0), 0x80c0);
    EQ(t, amt_gv(t, 4, 0), 0xffff80c0);
    EQ(t, amt_gv(t, 5, 0), 0x81c1e1f1);
    EQ(t, amt_gv(t, 7, 0), 0x83c3e3f3);
    EQ(t, amt_gv(t, 10, 0), 0x86c6e6f6);
    EQ(t, amt_gv(t, 15, 1), 0x8cccecfc);
    EQ(t, amt_gv(t, 30, 0), 0x0080bbbb);
    EQ(t, amt_gv(t, 31, 0), 0xaaaaff80);
    /* stores */
    ds_setup(t, 32);
    amt_v(t, 0, 0, 0x100);
    amt_s(t, 126, 1);
    amt_v(t, 1, 0, 0x11223344u);
    amt_v(t, 2, 0, 0x55667788u);
    amt_v(t, 3, 0, 0x99aabbccu);
    amt_v(t, 4, 0, 0xddeeff00u);
    amt_code(t, "ds_store_b8 v0, v1\n"
                "ds_store_b16 v0, v1 offset:2\n"
                "ds_store_b32 v0, v2 offset:4\n"
                "ds_store_b64 v0, v[1:2] offset:8\n"
                "ds_store_b96 v0, v[1:3] offset:16\n"
                "ds_store_b128 v0, v[1:4] offset:32\n"
                "ds_store_b8_d16_hi v0, v1 offset:48\n"
                "ds_store_b16_d16_hi v0, v1 offset:50");
    RUNS(t);
    EQ(t, amt_lds_r32(t, 0x100), 0x33440044u);
    EQ(t, amt_lds_r32(t, 0x104), 0x55667788u);
    EQ(t, amt_lds_r32(t, 0x10c), 0x55667788u);
    EQ(t, amt_lds_r32(t, 0x118), 0x99aabbccu);
    EQ(t, amt_lds_r32(t, 0x12c), 0xddeeff00u);
    EQ(t, amt_lds_r32(t, 0x130), 0x11220022u);
}

static void ds_2addr(amt *t)
{
    ds_setup(t, 32);
    for (unsigned i = 0; i < 256; i++) amt_lds_w32(t, 4 * i, i);
    amt_v(t, 0, 0, 8);
    amt_s(t, 126, 1);
    amt_v(t, 1, 0, 0xa1);
    amt_v(t, 2, 0, 0xb2);
    amt_code(t, "ds_load_2addr_b32 v[4:5], v0 offset0:1 offset1:5\n"          /* 8+4, 8+20 */
                "ds_load_2addr_stride64_b32 v[6:7], v0 offset0:1 offset1:2\n"  /* 8+256, 8+512 */
                "ds_load_2addr_b64 v[8:11], v0 offset0:1 offset1:3\n"          /* 8+8, 8+24 */
                "ds_store_2addr_b32 v0, v1, v2 offset0:100 offset1:101\n"      /* 408, 412 */
                "ds_store_2addr_stride64_b64 v0, v[1:2], v[1:2] offset0:1 offset1:0\n"); /* 8+512, 8 */
    RUNS(t);
    EQ(t, amt_gv(t, 4, 0), 3);
    EQ(t, amt_gv(t, 5, 0), 7);
    EQ(t, amt_gv(t, 6, 0), 66);
    EQ(t, amt_gv(t, 7, 0), 130);
    EQ(t, amt_gv(t, 8, 0), 4);
    EQ(t, amt_gv(t, 9, 0), 5);
    EQ(t, amt_gv(t, 10, 0), 8);
    EQ(t, amt_gv(t, 11, 0), 9);
    EQ(t, amt_lds_r32(t, 408), 0xa1);
    EQ(t, amt_lds_r32(t, 412), 0xb2);
    EQ(t, amt_lds_r32(t, 520), 0xa1);
    EQ(t, amt_lds_r32(t, 524), 0xb2);
    EQ(t, amt_lds_r32(t, 8), 0xa1);
}

static void ds_atomic32(amt *t, const char *op, uint32_t mem, uint32_t d0, uint32_t d1, uint32_t want, bool two)
{
    ds_setup(t, 32);
    amt_lds_w32(t, 16, mem);
    amt_v(t, 0, 0, 0);
    amt_v(t, 1, 0, d0);
    amt_v(t, 2, 0, d1);
    amt_s(t, 126, 1);
    if (two) amt_code(t, "ds_%s v3, v0, v1, v2 offset:16", op);
    else amt_code(t, "ds_%s v3, v0, v1 offset:16", op);
    RUNS(t);
    if (amt_lds_r32(t, 16) != want || amt_gv(t, 3, 0) != mem)
        amt_fail(t, __FILE__, __LINE__, "ds_%s: mem 0x%x -> 0x%x (want 0x%x), returned 0x%x", op, mem,
                 amt_lds_r32(t, 16), want, amt_gv(t, 3, 0));
}

static void ds_atomics(amt *t)
{
    ds_atomic32(t, "add_rtn_u32", 1, 2, 0, 3, false);
    ds_atomic32(t, "sub_rtn_u32", 1, 2, 0, 0xffffffff, false);
    ds_atomic32(t, "rsub_rtn_u32", 1, 5, 0, 4, false);
    ds_atomic32(t, "inc_rtn_u32", 3, 3, 0, 0, false);
    ds_atomic32(t, "dec_rtn_u32", 0, 3, 0, 3, false);
    ds_atomic32(t, "min_rtn_i32", 0xffffffff, 1, 0, 0xffffffff, false);
    ds_atomic32(t, "max_rtn_u32", 0xffffffff, 1, 0, 0xffffffff, false);
    ds_atomic32(t, "and_rtn_b32", 0xf0f0, 0xff00, 0, 0xf000, false);
    ds_atomic32(t, "or_rtn_b32", 0xf0f0, 0xff00, 0, 0xfff0, false);
    ds_atomic32(t, "xor_rtn_b32", 0xf0f0, 0xff00, 0, 0x0ff0, false);
    ds_atomic32(t, "mskor_rtn_b32", 0xffff, 0x00f0, 0x0300, 0xff0f | 0x0300, true);   /* (tmp & ~d0) | d1 */
    ds_atomic32(t, "storexchg_rtn_b32", 7, 9, 0, 9, false);
    ds_atomic32(t, "cmpstore_rtn_b32", 7, 9, 7, 9, true);     /* d0 = new value, d1 = compare */
    ds_atomic32(t, "cmpstore_rtn_b32", 7, 9, 8, 7, true);
    ds_atomic32(t, "cmpstore_rtn_f32", 0x80000000, 0x3f800000, 0, 0x3f800000, true);
    ds_atomic32(t, "wrap_rtn_b32", 5, 3, 10, 2, true);       /* tmp >= d0 ? tmp - d0 : tmp + d1 */
    ds_atomic32(t, "wrap_rtn_b32", 2, 3, 10, 12, true);
    ds_atomic32(t, "add_rtn_f32", 0x3f800000, 0x40000000, 0, 0x40400000, false);
    ds_atomic32(t, "min_rtn_f32", 0x3f800000, 0xbf800000, 0, 0xbf800000, false);
    ds_atomic32(t, "max_rtn_f32", 0x3f800000, 0x7fc00000, 0, 0x3f800000, false);
}

/* No-return forms, 64-bit forms, and many lanes on one address. */
static void ds_atomics_noret_64(amt *t)
{
    ds_setup(t, 64);
    amt_vall(t, 0, 8);
    amt_vall(t, 1, 1);
    amt_vall(t, 2, 0);
    amt_vall(t, 3, 0x12345);
    amt_code(t, "ds_add_u32 v0, v1\n"
                "ds_add_f32 v0, v1 offset:4\n"
                "ds_max_u64 v0, v[1:2] offset:16\n"
                "ds_add_rtn_u64 v[4:5], v0, v[1:2] offset:24\n"
                "ds_cmpstore_b32 v0, v3, v2 offset:40");
    RUNS(t);
    EQ(t, amt_lds_r32(t, 8), 64);
    EQ(t, amt_lds_r32(t, 12), 64);                 /* 64 * f32 bits 0x00000001 (denormal adds) */
    EQ(t, amt_lds_r32(t, 24), 1);
    EQ(t, amt_lds_r32(t, 32), 64);
    EQ(t, amt_gv(t, 4, 63), 63);                   /* lanes run in order: lane 63 sees 63 */
    EQ(t, amt_lds_r32(t, 48), 0x12345);            /* compare 0 matched the zero memory */
}

static void ds_out_of_range(amt *t)
{
    ds_setup(t, 32);
    umb_rdna3_step_set_lds_size(t->s, 64);
    amt_lds_w32(t, 60, 0x60);
    amt_v(t, 0, 0, 60);
    amt_v(t, 0, 1, 64);
    amt_vall(t, 1, 0x99);
    amt_vall(t, 2, 0xdead);
    amt_s(t, 126, 3);
    amt_code(t, "ds_load_b32 v2, v0\n"
                "ds_store_b32 v0, v1 offset:4\n"
                "ds_add_rtn_u32 v3, v0, v1 offset:4\n"
                "ds_load_b64 v[4:5], v0");
    RUNS(t);
    EQ(t, amt_gv(t, 2, 0), 0x60);
    EQ(t, amt_gv(t, 2, 1), 0);         /* address 64 >= LDS size 64: reads 0 */
    EQ(t, amt_gv(t, 3, 0), 0);         /* atomic beyond the allocation: dropped, returns 0 */
    EQ(t, amt_gv(t, 4, 0), 0x60);      /* bytes 60..63 in range, 64..67 read 0 */
    EQ(t, amt_gv(t, 5, 0), 0);
}

/* Whole waves: every lane in range (umbra's whole-wave copy), one lane whose b64 crosses a 4 KiB
 * page or leaves the allocation (the per-lane path for the instruction), colliding stores (the
 * highest lane wins), and inactive lanes whose stale addresses are out of range. */
static void ds_whole_wave(amt *t)
{
    ds_setup(t, 32);
    umb_rdna3_step_set_lds_size(t->s, 8192);
    for (unsigned i = 0; i < 2048; i++) amt_lds_w32(t, 4 * i, 0x10000u + i);
    for (unsigned l = 0; l < 32; l++) amt_v(t, 0, l, 128u * l);
    amt_s(t, 126, 0xffffffffu);
    amt_code(t, "ds_load_b64 v[2:3], v0 offset:4\n"
                "ds_load_2addr_b32 v[4:5], v0 offset0:0 offset1:3\n"
                "ds_load_b128 v[8:11], v0 offset:16");
    RUNS(t);
    EQ(t, amt_gv(t, 2, 31), 0x10000u + 32u * 31u + 1u);
    EQ(t, amt_gv(t, 3, 31), 0x10000u + 32u * 31u + 2u);
    EQ(t, amt_gv(t, 5, 7), 0x10000u + 32u * 7u + 3u);
    EQ(t, amt_gv(t, 11, 0), 0x10007u);
    /* lane 5 at 4092: its b64 crosses into the second page; lane 6 at 8188: its second dword is
     * beyond the allocation and reads 0 */
    amt_v(t, 0, 5, 4092);
    amt_v(t, 0, 6, 8188);
    amt_code(t, "ds_load_b64 v[2:3], v0");
    RUNS(t);
    EQ(t, amt_gv(t, 2, 5), 0x10000u + 1023u);
    EQ(t, amt_gv(t, 3, 5), 0x10000u + 1024u);
    EQ(t, amt_gv(t, 2, 6), 0x10000u + 2047u);
    EQ(t, amt_gv(t, 3, 6), 0);
    EQ(t, amt_gv(t, 2, 7), 0x10000u + 32u * 7u);
    /* every lane stores to one address: lane 31 wins; inactive lanes 0-3 hold wild addresses */
    amt_vall(t, 0, 256);
    for (unsigned l = 0; l < 4; l++) amt_v(t, 0, l, 0xfffff000u);
    for (unsigned l = 0; l < 32; l++) amt_v(t, 1, l, 0xa000u + l);
    amt_s(t, 126, 0xfffffff0u);
    amt_code(t, "ds_store_b32 v0, v1\n"
                "ds_store_2addr_b32 v0, v1, v1 offset0:1 offset1:1\n"
                "ds_load_b32 v6, v0 offset:4");
    RUNS(t);
    EQ(t, amt_lds_r32(t, 256), 0xa000u + 31u);
    EQ(t, amt_lds_r32(t, 260), 0xa000u + 31u);
    EQ(t, amt_gv(t, 6, 4), 0xa000u + 31u);
    /* one address in every lane (a broadcast): each lane gets the four dwords; with lanes 0-15
     * off, those keep their old value */
    amt_vall(t, 0, 4096 + 32);
    amt_vall(t, 9, 0x77);
    amt_s(t, 126, 0xffffffffu);
    amt_code(t, "ds_load_b128 v[8:11], v0 offset:16");
    RUNS(t);
    for (unsigned l = 0; l < 32; l += 31) {
        EQ(t, amt_gv(t, 8, l), 0x10000u + 1036u);
        EQ(t, amt_gv(t, 11, l), 0x10000u + 1039u);
    }
    amt_vall(t, 9, 0x77);
    amt_s(t, 126, 0xffff0000u);
    RUNS(t);
    EQ(t, amt_gv(t, 9, 15), 0x77);
    EQ(t, amt_gv(t, 9, 16), 0x10000u + 1037u);
}

static void ds_swizzle_permute(amt *t)
{
    ds_setup(t, 32);
    for (unsigned l = 0; l < 32; l++) {
        amt_v(t, 1, l, 100 + l);
        amt_v(t, 2, l, 4 * (31 - l));   /* permute index: reverse */
    }
    amt_code(t, "ds_swizzle_b32 v3, v1 offset:swizzle(QUAD_PERM,1,0,3,2)\n"
                "ds_swizzle_b32 v4, v1 offset:swizzle(BITMASK_PERM,\"01pi0\")\n"
                "ds_permute_b32 v5, v2, v1\n"
                "ds_bpermute_b32 v6, v2, v1 offset:4");
    RUNS(t);
    EQ(t, amt_gv(t, 3, 0), 101);
    EQ(t, amt_gv(t, 3, 1), 100);
    EQ(t, amt_gv(t, 3, 6), 107);
    /* bitmask "01pi0": src = ((lane & 0b00110) | 0b01000) ^ 0b00010 */
    EQ(t, amt_gv(t, 4, 0), 100 + 10);
    EQ(t, amt_gv(t, 4, 5), 114);       /* ((5 & 6) | 8) ^ 2 = 14 */
    EQ(t, amt_gv(t, 5, 0), 131);       /* lane 31 wrote to lane 0 */
    EQ(t, amt_gv(t, 6, 0), 100 + 0);   /* (124 + 4) / 4 = 32 -> lane 0 (mod 32) */
    EQ(t, amt_gv(t, 6, 1), 131);
}

/* ---- SMEM ---- */

static void smem_loads(amt *t)
{
    setup(t, 32);
    for (unsigned i = 0; i < 32; i++) amt_w32(t, G + 0x100 + 4 * i, 0xc0de0000u + i);
    amt_s64(t, 0, G + 0x100 + 3);      /* the two LSBs of the address are ignored */
    amt_s(t, 30, 8);
    amt_s(t, 125, 0x20);
    amt_code(t, "s_load_b32 s4, s[0:1], 0x4\n"
                "s_load_b64 s[6:7], s[0:1], 0x8\n"
                "s_load_b128 s[8:11], s[0:1], 0x10\n"
                "s_load_b256 s[12:19], s[0:1], 0x0\n"
                "s_load_b512 s[40:55], s[0:1], 0x1\n"
                "s_load_b32 s20, s[0:1], s30 offset:0x4\n"
                "s_load_b32 s21, s[0:1], m0\n"
                "s_load_b32 s22, s[0:1], -0x4\n"
                "s_dcache_inv\n"
                "s_gl1_inv");
    RUNS(t);
    EQ(t, amt_gs(t, 4), 0xc0de0001);
    EQ(t, amt_gs(t, 7), 0xc0de0003);
    EQ(t, amt_gs(t, 11), 0xc0de0007);
    EQ(t, amt_gs(t, 19), 0xc0de0007);
    EQ(t, amt_gs(t, 40), 0xc0de0001);   /* base + 3 + 1 = +0x104 */
    EQ(t, amt_gs(t, 55), 0xc0de0010);
    EQ(t, amt_gs(t, 20), 0xc0de0003);   /* 4 + s30 = 12 */
    EQ(t, amt_gs(t, 21), 0xc0de0008);   /* M0 = 0x20 */
    amt_s64(t, 0, G + 0x100);
    amt_code(t, "s_load_b32 s22, s[0:1], -0x4");
    RUNS(t);
    EQ(t, amt_gs(t, 22), 0);            /* G + 0xfc: nothing written there */
    amt_s64(t, 0, 0x7000000ull);
    amt_code(t, "s_load_b64 s[2:3], s[0:1], 0x0");
    FAULTS(t, "s_load from unmapped address 0x7000000");
}

/* s_buffer_load: out of range when offset >= (stride ? stride : 1) * num_records, per dword. */
static void smem_buffer_loads(amt *t)
{
    setup(t, 32);
    for (unsigned i = 0; i < 32; i++) amt_w32(t, G + 4 * i, 0x5b000000u + i);
    amt_s(t, 0, (uint32_t)G + 1);        /* base: LSBs ignored */
    amt_s(t, 1, 0);                      /* stride 0 */
    amt_s(t, 2, 24);                     /* 24 bytes */
    amt_s(t, 3, 0);
    amt_s(t, 30, 16);
    amt_code(t, "s_buffer_load_b128 s[4:7], s[0:3], 0x10\n"     /* dwords at 16, 20 in; 24, 28 out */
                "s_buffer_load_b32 s8, s[0:3], s30 offset:0x4\n" /* 20: in */
                "s_buffer_load_b32 s9, s[0:3], 0x18\n"           /* 24: out */
                "s_buffer_load_b64 s[10:11], s[0:3], 0x0");
    RUNS(t);
    EQ(t, amt_gs(t, 4), 0x5b000004);
    EQ(t, amt_gs(t, 5), 0x5b000005);
    EQ(t, amt_gs(t, 6), 0);
    EQ(t, amt_gs(t, 7), 0);
    EQ(t, amt_gs(t, 8), 0x5b000005);
    EQ(t, amt_gs(t, 9), 0);
    EQ(t, amt_gs(t, 11), 0x5b000001);
    /* stride 8, 4 records: 32 bytes */
    amt_s(t, 1, 8u << 16);
    amt_s(t, 2, 4);
    amt_code(t, "s_buffer_load_b256 s[40:47], s[0:3], 0x8");
    RUNS(t);
    EQ(t, amt_gs(t, 45), 0x5b000007);
    EQ(t, amt_gs(t, 46), 0);
}

/* A negative s_buffer_load offset is a MEMVIOL; llvm-mc will not assemble one, so the encoding
 * of "s_buffer_load_b32 s4, s[0:3], -0x4" (as llvm-mc-19 --disassemble prints it) is given raw. */
static void smem_buffer_negative_offset(amt *t)
{
    setup(t, 32);
    amt_s(t, 0, (uint32_t)G);
    amt_s(t, 2, 64);
    amt_code(t, ".long 0xf4200100, 0xf81ffffc");
    FAULTS(t, "MEMVIOL: negative s_buffer_load offset");
}

/* Memory instructions umbra does not execute fault with a clear message. */
static void mem_unsupported(amt *t)
{
    ds_setup(t, 32);
    amt_code(t, "ds_append v4");
    FAULTS(t, "not supported");
    ds_setup(t, 32);
    amt_code(t, "ds_add_u32 v1, v2 gds");
    FAULTS(t, "not supported");
}

/* Every FLAT load/store width, D16 and D16_HI, through all three apertures at once: lane 0 to
 * global memory, lane 1 to LDS, lane 2 to its private segment. */
static const char *const width_stores =
    "%1$s_store_b8 %2$s, v10%3$s offset:0\n"
    "%1$s_store_b16 %2$s, v10%3$s offset:2\n"
    "%1$s_store_b32 %2$s, v11%3$s offset:4\n"
    "%1$s_store_b64 %2$s, v[10:11]%3$s offset:8\n"
    "%1$s_store_b96 %2$s, v[10:12]%3$s offset:16\n"
    "%1$s_store_b128 %2$s, v[10:13]%3$s offset:32\n"
    "%1$s_store_d16_hi_b8 %2$s, v10%3$s offset:48\n"
    "%1$s_store_d16_hi_b16 %2$s, v10%3$s offset:50\n"
    "%1$s_load_u8 v20, %2$s%3$s offset:4\n"
    "%1$s_load_i8 v21, %2$s%3$s offset:4\n"
    "%1$s_load_u16 v22, %2$s%3$s offset:6\n"
    "%1$s_load_i16 v23, %2$s%3$s offset:6\n"
    "%1$s_load_b32 v24, %2$s%3$s offset:0\n"
    "%1$s_load_b64 v[26:27], %2$s%3$s offset:8\n"
    "%1$s_load_b96 v[28:30], %2$s%3$s offset:16\n"
    "%1$s_load_b128 v[32:35], %2$s%3$s offset:32\n"
    "%1$s_load_b32 v25, %2$s%3$s offset:48\n"
    "%1$s_load_d16_u8 v40, %2$s%3$s offset:4\n"
    "%1$s_load_d16_i8 v41, %2$s%3$s offset:4\n"
    "%1$s_load_d16_b16 v42, %2$s%3$s offset:6\n"
    "%1$s_load_d16_hi_u8 v43, %2$s%3$s offset:4\n"
    "%1$s_load_d16_hi_i8 v44, %2$s%3$s offset:4\n"
    "%1$s_load_d16_hi_b16 v45, %2$s%3$s offset:6";

static void width_inputs(amt *t)
{
    amt_vall(t, 10, 0x11223344u);
    amt_vall(t, 11, 0x55667788u);
    amt_vall(t, 12, 0x99aabbccu);
    amt_vall(t, 13, 0xddeeff00u);
    for (unsigned r = 40; r < 46; r++) amt_vall(t, r, 0xaaaabbbbu);
}

static void width_check(amt *t, unsigned lane)
{
    static const struct { unsigned reg; uint32_t want; } w[] = {
        { 20, 0x88 }, { 21, 0xffffff88 }, { 22, 0x5566 }, { 23, 0x5566 }, { 24, 0x33440044 },
        { 26, 0x11223344 }, { 27, 0x55667788 }, { 28, 0x11223344 }, { 30, 0x99aabbcc },
        { 32, 0x11223344 }, { 35, 0xddeeff00 }, { 25, 0x11220022 },
        { 40, 0xaaaa0088 }, { 41, 0xaaaaff88 }, { 42, 0xaaaa5566 }, { 43, 0x0088bbbb },
        { 44, 0xff88bbbb }, { 45, 0x5566bbbb },
    };
    for (unsigned i = 0; i < sizeof w / sizeof w[0]; i++)
        if (amt_gv(t, w[i].reg, lane) != w[i].want)
            amt_fail(t, __FILE__, __LINE__, "lane %u v%u = 0x%x, expected 0x%x", lane, w[i].reg,
                     amt_gv(t, w[i].reg, lane), w[i].want);
}

static void flat_all_widths(amt *t, unsigned ws)
{
    scratch_setup(t, ws, 64);
    umb_rdna3_step_set_lds_size(t->s, 256);
    amt_v64(t, 0, 0, G + 0x100);
    amt_v64(t, 0, 1, SHARED + 0x40);
    amt_v64(t, 0, 2, PRIVATE);
    amt_s64(t, 126, 7);
    width_inputs(t);
    amt_code(t, width_stores, "flat", "v[0:1]", "");
    RUNS(t);
    for (unsigned l = 0; l < 3; l++) width_check(t, l);
    EQ(t, amt_lds_r32(t, 0x40 + 48), 0x11220022);
    EQ(t, amt_r32(t, G + 0x100 + 36), 0x55667788);
    EQ(t, amt_r32(t, SCR + 9 * 4 * ws + 2 * 4), 0x55667788);   /* private offset 36, lane 2 */
}
static void flat_all_widths_wave32(amt *t) { flat_all_widths(t, 32); }
static void flat_all_widths_wave64(amt *t) { flat_all_widths(t, 64); }

static void scratch_all_widths(amt *t, unsigned ws)
{
    scratch_setup(t, ws, 64);
    amt_s64(t, 126, ws == 64 ? ~0ull : 0xffffffffull);
    width_inputs(t);
    amt_code(t, width_stores, "scratch", "off", ", off");
    RUNS(t);
    width_check(t, 0);
    width_check(t, ws - 1);
    EQ(t, amt_r32(t, SCR + 9 * 4 * ws + (ws - 1) * 4), 0x55667788);
}
static void scratch_all_widths_wave32(amt *t) { scratch_all_widths(t, 32); }
static void scratch_all_widths_wave64(amt *t) { scratch_all_widths(t, 64); }

/* FLAT atomics on global memory and LDS (and a 32-bit one on private memory). */
static void flat_atomics(amt *t)
{
    scratch_setup(t, 32, 64);
    umb_rdna3_step_set_lds_size(t->s, 256);
    amt_v64(t, 0, 0, G + 0x200);
    amt_v64(t, 0, 1, SHARED + 0x80);
    amt_v64(t, 0, 2, PRIVATE + 8);
    amt_w32(t, G + 0x200, 10);
    amt_lds_w32(t, 0x80, 10);
    amt_vall(t, 4, 3);
    amt_vall(t, 5, 0);
    amt_vall(t, 6, 0x3f800000);
    amt_s64(t, 126, 7);
    amt_code(t, "flat_atomic_sub_u32 v7, v[0:1], v4 glc\n"
                "flat_atomic_max_i32 v[0:1], v4\n"
                "flat_atomic_add_f32 v8, v[0:1], v6 offset:4 glc");
    RUNS(t);
    EQ(t, amt_gv(t, 7, 0), 10);
    EQ(t, amt_gv(t, 7, 1), 10);
    EQ(t, amt_gv(t, 7, 2), 0);
    EQ(t, amt_r32(t, G + 0x200), 7);
    EQ(t, amt_lds_r32(t, 0x80), 7);
    EQ(t, amt_r32(t, SCR + 2 * 128 + 2 * 4), 3);     /* private: max(0 - 3, 3) as signed = 3 */
    EQ(t, amt_r32(t, G + 0x204), 0x3f800000);
    EQ(t, amt_lds_r32(t, 0x84), 0x3f800000);
    amt_v64(t, 2, 0, 0);
    amt_v64(t, 2, 1, 0);
    amt_vall(t, 10, 0x12345678);
    amt_vall(t, 11, 0x9abcdef0);
    amt_vall(t, 12, 7);
    amt_vall(t, 13, 0);
    amt_lds_w32(t, 0x88, 7);
    amt_w32(t, G + 0x208, 7);
    amt_s64(t, 126, 3);
    amt_code(t, "flat_atomic_cmpswap_b64 v[14:15], v[0:1], v[10:13] offset:8 glc");
    RUNS(t);
    EQ(t, amt_r64(t, G + 0x208), 0x9abcdef012345678ull);
    EQ(t, amt_lds_r32(t, 0x8c), 0x9abcdef0);
    EQ(t, amt_gv(t, 14, 1), 7);
}

/* ds_bpermute in wave64: lane indices are taken modulo 64. */
static void ds_permute_wave64(amt *t)
{
    ds_setup(t, 64);
    for (unsigned l = 0; l < 64; l++) {
        amt_v(t, 1, l, 1000 + l);
        amt_v(t, 2, l, 4 * (l + 40));
    }
    amt_code(t, "ds_bpermute_b32 v3, v2, v1\n"
                "ds_permute_b32 v4, v2, v1");
    RUNS(t);
    EQ(t, amt_gv(t, 3, 0), 1040);
    EQ(t, amt_gv(t, 3, 30), 1006);    /* (30 + 40) mod 64 = 6 */
    EQ(t, amt_gv(t, 4, 40), 1000);    /* lane 0 wrote to lane 40 */
    EQ(t, amt_gv(t, 4, 6), 1030);
}

/* The aperture registers, and FLAT addresses built from them as LLVM's addrspacecast does
 * ({hi = aperture_base[63:32], lo = 32-bit offset}). */
static void flat_aperture_registers(amt *t, unsigned ws)
{
    scratch_setup(t, ws, 64);
    umb_rdna3_step_set_lds_size(t->s, 256);
    amt_vall(t, 0, 0x20);
    amt_vall(t, 2, 0xfeed);
    amt_code(t, "s_mov_b64 s[0:1], src_shared_base\n"
                "s_mov_b64 s[2:3], src_shared_limit\n"
                "s_mov_b64 s[4:5], src_private_base\n"
                "s_mov_b64 s[6:7], src_private_limit\n"
                "v_mov_b32 v1, s1\n"
                "flat_store_b32 v[0:1], v2\n"
                "v_mov_b32 v1, s5\n"
                "flat_store_b32 v[0:1], v2 offset:4");
    RUNS(t);
    EQ(t, amt_gs(t, 0), 0);
    EQ(t, amt_gs(t, 1), SHARED >> 32);
    EQ(t, amt_gs(t, 2), 0xffffffffu);
    EQ(t, amt_gs(t, 3), SHARED >> 32);
    EQ(t, amt_gs(t, 5), PRIVATE >> 32);
    EQ(t, amt_gs(t, 6), 0xffffffffu);
    EQ(t, amt_lds_r32(t, 0x20), 0xfeed);
    EQ(t, amt_r32(t, SCR + 9 * 4 * ws + (ws - 1) * 4), 0xfeed);   /* private offset 0x24 = row 9 */
}
static void flat_aperture_registers_wave32(amt *t) { flat_aperture_registers(t, 32); }
static void flat_aperture_registers_wave64(amt *t) { flat_aperture_registers(t, 64); }

/* Traffic per address space (umb_count_mem): active lanes and the bytes actually moved. */
static void mem_traffic_stats(amt *t)
{
    scratch_setup(t, 32, 64);
    umb_rdna3_step_set_lds_size(t->s, 256);
    amt_s(t, 126, 0xf);
    for (unsigned l = 0; l < 4; l++) amt_v64(t, 0, l, G + 16 * l);
    amt_vall(t, 2, 0);
    amt_s64(t, 20, G);
    amt_code(t, "global_load_b64 v[4:5], v[0:1], off\n"
                "global_store_b32 v[0:1], v4, off offset:8\n"
                "global_atomic_add_u32 v[0:1], v4, off offset:12\n"
                "ds_store_b32 v2, v4\n"
                "ds_load_2addr_b32 v[6:7], v2 offset1:1\n"
                "scratch_store_b128 off, v[4:7], off\n"
                "s_load_b128 s[4:7], s[20:21], 0x0");
    RUNS(t);
    const umb_stats *st = umb_rdna3_step_stats(t->s);
    EQ(t, st->mem[UMB_SPACE_GLOBAL].loads, 4);
    EQ(t, st->mem[UMB_SPACE_GLOBAL].stores, 4);
    EQ(t, st->mem[UMB_SPACE_GLOBAL].atomics, 4);
    EQ(t, st->mem[UMB_SPACE_GLOBAL].bytes_read, 32 + 16);
    EQ(t, st->mem[UMB_SPACE_GLOBAL].bytes_written, 16 + 16);
    EQ(t, st->mem[UMB_SPACE_LOCAL].stores, 4);
    EQ(t, st->mem[UMB_SPACE_LOCAL].loads, 8);            /* two accesses per lane */
    EQ(t, st->mem[UMB_SPACE_LOCAL].bytes_read, 32);
    EQ(t, st->mem[UMB_SPACE_PRIVATE].bytes_written, 64);
    EQ(t, st->mem[UMB_SPACE_CONSTANT].loads, 1);
    EQ(t, st->mem[UMB_SPACE_CONSTANT].bytes_read, 16);
}

#define C(fn) { #fn, fn }
const amt_case amt_cases_vmem[] = {
    C(global_load_widths), C(global_d16_loads), C(global_store_widths), C(global_addtid),
    C(global_atomics32), C(global_atomics64), C(global_atomic_noret), C(global_unmapped_faults),
    C(align_mode0_dword), C(align_mode1_dword_strict), C(align_mode2_strict), C(align_mode3_unaligned),
    C(align_atomic_always),
    C(scratch_modes_wave32), C(scratch_modes_wave64), C(scratch_multi_dword_wave32),
    C(scratch_multi_dword_wave64), C(scratch_errors),
    C(flat_apertures_wave32), C(flat_apertures_wave64), C(flat_lds_range), C(flat_hole_and_private_atomics),
    C(ds_load_store_widths), C(ds_2addr), C(ds_atomics), C(ds_atomics_noret_64), C(ds_out_of_range), C(ds_whole_wave),
    C(ds_swizzle_permute),
    C(smem_loads), C(smem_buffer_loads), C(smem_buffer_negative_offset), C(mem_unsupported),
    C(mem_traffic_stats), C(flat_all_widths_wave32), C(flat_all_widths_wave64), C(scratch_all_widths_wave32),
    C(scratch_all_widths_wave64), C(flat_atomics), C(ds_permute_wave64),
    C(flat_aperture_registers_wave32), C(flat_aperture_registers_wave64),
    { NULL, NULL },
};
