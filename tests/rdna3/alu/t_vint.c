/* Vector integer ALU: every lane of v1/v2/v3 holds an edge value (at.c), each instruction's
 * result is checked lane by lane against a C expression of the ISA definition. */
#include "at.h"

static inline int32_t s24(uint32_t x) { return (int32_t)(x << 8) >> 8; }
static inline uint32_t ref_clz(uint32_t x) { return x ? (uint32_t)__builtin_clz(x) : 0xffffffffu; }
static inline uint32_t ref_ctz(uint32_t x) { return x ? (uint32_t)__builtin_ctz(x) : 0xffffffffu; }
static inline uint32_t ref_cls(uint32_t x) { return ref_clz((int32_t)x < 0 ? ~x : x); }
static inline uint32_t ref_brev(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
static inline uint32_t ref_bfe_u(uint32_t v, uint32_t o, uint32_t w)
{
    o &= 31; w &= 31;
    return w ? (uint32_t)(((uint64_t)v >> o) & ((1ull << w) - 1)) : 0;
}
/* S0 shifted arithmetically (a field past bit 31 takes S0's sign): what LLVM's constant folding of
 * llvm.amdgcn.sbfe computes (opt-19 -passes=instcombine: sbfe(0x99e83f5a, 29, 29) = -4) */
static inline uint32_t ref_bfe_i(uint32_t v, uint32_t o, uint32_t w)
{
    o &= 31; w &= 31;
    if (!w) return 0;
    uint64_t x = (uint64_t)(int64_t)((int32_t)v >> o) & ((1ull << w) - 1);
    if (x >> (w - 1)) x |= ~0ull << w;
    return (uint32_t)x;
}
static inline int32_t smin(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t smax(int32_t a, int32_t b) { return a > b ? a : b; }
static inline uint32_t umin(uint32_t a, uint32_t b) { return a < b ? a : b; }
static inline uint32_t umax(uint32_t a, uint32_t b) { return a > b ? a : b; }
static inline uint32_t sadu8(uint32_t a, uint32_t b)
{
    uint32_t s = 0;
    for (int i = 0; i < 4; i++) {
        int x = (a >> (8 * i)) & 255, y = (b >> (8 * i)) & 255;
        s += (uint32_t)(x > y ? x - y : y - x);
    }
    return s;
}

void vint_add_sub(at *t)
{
    VCHECK(t, "v_add_nc_u32_e32 v0, v1, v2", a + b);
    VCHECK(t, "v_sub_nc_u32_e32 v0, v1, v2", a - b);
    VCHECK(t, "v_subrev_nc_u32_e32 v0, v1, v2", b - a);
    VCHECK(t, "v_add_nc_u32_e64 v0, v1, v2 clamp", (uint64_t)a + b > 0xffffffffu ? 0xffffffffu : a + b);
    VCHECK(t, "v_sub_nc_u32_e64 v0, v1, v2 clamp", a > b ? a - b : 0);
    VCHECK(t, "v_add_nc_i32 v0, v1, v2", a + b);
    VCHECK(t, "v_sub_nc_i32 v0, v1, v2 clamp",
           (int64_t)(int32_t)a - (int32_t)b > INT32_MAX ? 0x7fffffffu
           : (int64_t)(int32_t)a - (int32_t)b < INT32_MIN ? 0x80000000u : a - b);
    VCHECK(t, "v_add_nc_u32_e32 v0, -16, v2", b - 16u);
    VCHECK(t, "v_add_nc_u32_e32 v0, 0x12345678, v2", b + 0x12345678u);
    VCHECK(t, "v_add_nc_u32_e64 v0, v1, 0x1000", a + 0x1000u);   /* VOP3 literal (gfx11) */
    VCHECK(t, "v_add3_u32 v0, v1, v2, v3", a + b + c);
}

static void vint_carry(at *t)
{
    at_fill_int(t);
    at_code(t, "v_add_co_u32 v0, vcc_lo, v1, v2\n"
               "v_add_co_ci_u32_e32 v4, vcc_lo, v3, v1, vcc_lo\n");
    RUNS(t);
    uint64_t vcc = 0;
    for (unsigned l = 0; l < 32; l++) {
        uint32_t a = AT_A(l), b = AT_B(l), c = AT_C(l);
        uint64_t s = (uint64_t)a + b;
        uint64_t s2 = (uint64_t)c + a + (s >> 32);
        EQ(t, at_gv(t, 0, l), (uint32_t)s);
        EQ(t, at_gv(t, 4, l), (uint32_t)s2);
        vcc |= (uint64_t)(s2 >> 32) << l;
    }
    EQ(t, umb_rdna3_step_get_vcc(t->s), vcc);

    at_fill_int(t);
    at_s(t, 5, 0xaaaaaaaau);   /* borrow in on odd lanes */
    at_code(t, "v_sub_co_ci_u32_e64 v0, s4, v1, v2, s5\n"
               "v_subrev_co_u32 v5, s6, v1, v2\n");
    RUNS(t);
    uint32_t s4 = 0, s6 = 0;
    for (unsigned l = 0; l < 32; l++) {
        uint32_t a = AT_A(l), b = AT_B(l), bi = (0xaaaaaaaau >> l) & 1u;
        uint64_t d = (uint64_t)a - b - bi;
        EQ(t, at_gv(t, 0, l), (uint32_t)d);
        s4 |= (uint32_t)((d >> 32) != 0) << l;
        EQ(t, at_gv(t, 5, l), b - a);
        s6 |= (uint32_t)(a > b) << l;
    }
    EQ(t, at_gs(t, 4), s4);
    EQ(t, at_gs(t, 6), s6);

    /* clamp: an unsigned overflow saturates (all ones / zero); the carry-out mask is unchanged */
    at_fill_int(t);
    at_code(t, "v_add_co_u32 v0, s4, v1, v2 clamp\n"
               "v_sub_co_u32 v5, s6, v1, v2 clamp\n");
    RUNS(t);
    s4 = s6 = 0;
    for (unsigned l = 0; l < 32; l++) {
        uint32_t a = AT_A(l), b = AT_B(l);
        uint64_t s = (uint64_t)a + b;
        EQ(t, at_gv(t, 0, l), s >> 32 ? 0xffffffffu : (uint32_t)s);
        EQ(t, at_gv(t, 5, l), a < b ? 0u : a - b);
        s4 |= (uint32_t)(s >> 32) << l;
        s6 |= (uint32_t)(a < b) << l;
    }
    EQ(t, at_gs(t, 4), s4);
    EQ(t, at_gs(t, 6), s6);
}

void vint_mul(at *t)
{
    VCHECK(t, "v_mul_lo_u32 v0, v1, v2", a * b);
    VCHECK(t, "v_mul_hi_u32 v0, v1, v2", (uint32_t)(((uint64_t)a * b) >> 32));
    VCHECK(t, "v_mul_hi_i32 v0, v1, v2", (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32));
    VCHECK(t, "v_mul_u32_u24_e32 v0, v1, v2", (a & 0xffffffu) * (b & 0xffffffu));
    VCHECK(t, "v_mul_hi_u32_u24_e32 v0, v1, v2", (uint32_t)(((uint64_t)(a & 0xffffffu) * (b & 0xffffffu)) >> 32));
    VCHECK(t, "v_mul_i32_i24_e32 v0, v1, v2", (uint32_t)((int64_t)s24(a) * s24(b)));
    VCHECK(t, "v_mul_hi_i32_i24_e32 v0, v1, v2", (uint32_t)((uint64_t)((int64_t)s24(a) * s24(b)) >> 32));
    VCHECK(t, "v_mad_u32_u24 v0, v1, v2, v3", (a & 0xffffffu) * (b & 0xffffffu) + c);
    VCHECK(t, "v_mad_i32_i24 v0, v1, v2, v3", (uint32_t)((int64_t)s24(a) * s24(b)) + c);
    VCHECK(t, "v_mad_u32_u16 v0, v1, v2, v3", (a & 0xffffu) * (b & 0xffffu) + c);
    VCHECK(t, "v_mad_i32_i16 v0, v1, v2, v3", (uint32_t)((int32_t)(int16_t)a * (int16_t)b) + c);
}

static void vint_mad64(at *t)
{
    at_fill_int(t);
    for (unsigned l = 0; l < 32; l++) at_v64(t, 6, l, 0xfffffffffffffff0ull + l);
    at_code(t, "v_mad_u64_u32 v[8:9], s10, v1, v2, v[6:7]\n"
               "v_mad_i64_i32 v[10:11], s11, v1, v2, v[6:7]\n");
    RUNS(t);
    uint32_t carry = 0;
    for (unsigned l = 0; l < 32; l++) {
        unsigned __int128 p = (unsigned __int128)((uint64_t)AT_A(l) * AT_B(l)) + (0xfffffffffffffff0ull + l);
        EQ(t, at_gv64(t, 8, l), (uint64_t)p);
        carry |= (uint32_t)((p >> 64) != 0) << l;
        int64_t q = (int64_t)(int32_t)AT_A(l) * (int32_t)AT_B(l);
        EQ(t, at_gv64(t, 10, l), (uint64_t)q + 0xfffffffffffffff0ull + l);
    }
    EQ(t, at_gs(t, 10), carry);
}

static void vint_shift(at *t)
{
    VCHECK(t, "v_lshlrev_b32_e32 v0, v1, v2", b << (a & 31));
    VCHECK(t, "v_lshrrev_b32_e32 v0, v1, v2", b >> (a & 31));
    VCHECK(t, "v_ashrrev_i32_e32 v0, v1, v2", (uint32_t)((int32_t)b >> (a & 31)));
    VCHECK(t, "v_lshl_add_u32 v0, v1, v2, v3", (a << (b & 31)) + c);
    VCHECK(t, "v_add_lshl_u32 v0, v1, v2, v3", (a + b) << (c & 31));
    VCHECK(t, "v_lshl_or_b32 v0, v1, v2, v3", (a << (b & 31)) | c);
    VCHECK(t, "v_alignbit_b32 v0, v1, v2, v3", (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31)));
    VCHECK(t, "v_alignbyte_b32 v0, v1, v2, v3", (uint32_t)((((uint64_t)a << 32) | b) >> (8 * (c & 3))));

    at_fill_int(t);
    for (unsigned l = 0; l < 32; l++) at_v64(t, 4, l, 0x8123456789abcdefull ^ ((uint64_t)l << 40));
    at_code(t, "v_lshlrev_b64 v[6:7], v1, v[4:5]\n"
               "v_lshrrev_b64 v[8:9], v1, v[4:5]\n"
               "v_ashrrev_i64 v[10:11], v1, v[4:5]\n");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        uint64_t x = 0x8123456789abcdefull ^ ((uint64_t)l << 40);
        unsigned s = AT_A(l) & 63u;
        EQ(t, at_gv64(t, 6, l), x << s);
        EQ(t, at_gv64(t, 8, l), x >> s);
        EQ(t, at_gv64(t, 10, l), (uint64_t)((int64_t)x >> s));
    }
}

void vint_bits(at *t)
{
    VCHECK(t, "v_bfe_u32 v0, v1, v2, v3", ref_bfe_u(a, b, c));
    VCHECK(t, "v_bfe_i32 v0, v1, v2, v3", ref_bfe_i(a, b, c));
    VCHECK(t, "v_bfe_u32 v0, v1, 8, 16", ref_bfe_u(a, 8, 16));
    VCHECK(t, "v_bfi_b32 v0, v1, v2, v3", (a & b) | (~a & c));
    VCHECK(t, "v_bfm_b32 v0, v1, v2", (uint32_t)(((1ull << (a & 31)) - 1) << (b & 31)));
    VCHECK(t, "v_bfrev_b32_e32 v0, v1", ref_brev(a));
    VCHECK(t, "v_clz_i32_u32_e32 v0, v1", ref_clz(a));
    VCHECK(t, "v_ctz_i32_b32_e32 v0, v1", ref_ctz(a));
    VCHECK(t, "v_cls_i32_e32 v0, v1", ref_cls(a));
    VCHECK(t, "v_bcnt_u32_b32 v0, v1, v2", (uint32_t)__builtin_popcount(a) + b);
    VCHECK(t, "v_not_b32_e32 v0, v1", ~a);
    VCHECK(t, "v_xnor_b32_e32 v0, v1, v2", ~(a ^ b));
    VCHECK(t, "v_and_or_b32 v0, v1, v2, v3", (a & b) | c);
    VCHECK(t, "v_or3_b32 v0, v1, v2, v3", a | b | c);
    VCHECK(t, "v_xor3_b32 v0, v1, v2, v3", a ^ b ^ c);
    VCHECK(t, "v_xad_u32 v0, v1, v2, v3", (a ^ b) + c);
    /* v_perm_b32 selector 0x0c040500: bytes {S1.b0, S1.b5->S0.b1, S1.b4->S0.b0, 0} */
    VCHECK(t, "v_perm_b32 v0, v1, v2, 0x0c040500",
           (b & 0xffu) | (((a >> 8) & 0xffu) << 8) | ((a & 0xffu) << 16));
    VCHECK(t, "v_cvt_pk_u16_u32 v0, v1, v2", umin(a, 0xffff) | (umin(b, 0xffff) << 16));
}

void vint_minmax(at *t)
{
    VCHECK(t, "v_min_i32_e32 v0, v1, v2", (uint32_t)smin((int32_t)a, (int32_t)b));
    VCHECK(t, "v_max_u32_e32 v0, v1, v2", umax(a, b));
    VCHECK(t, "v_min3_i32 v0, v1, v2, v3", (uint32_t)smin(smin((int32_t)a, (int32_t)b), (int32_t)c));
    VCHECK(t, "v_max3_u32 v0, v1, v2, v3", umax(umax(a, b), c));
    VCHECK(t, "v_med3_i32 v0, v1, v2, v3",
           (uint32_t)smax(smin((int32_t)a, (int32_t)b), smin(smax((int32_t)a, (int32_t)b), (int32_t)c)));
    VCHECK(t, "v_med3_u32 v0, v1, v2, v3", umax(umin(a, b), umin(umax(a, b), c)));
    VCHECK(t, "v_maxmin_i32 v0, v1, v2, v3", (uint32_t)smin(smax((int32_t)a, (int32_t)b), (int32_t)c));
    VCHECK(t, "v_minmax_u32 v0, v1, v2, v3", umax(umin(a, b), c));
    VCHECK(t, "v_sad_u8 v0, v1, v2, v3", sadu8(a, b) + c);
    VCHECK(t, "v_sad_u32 v0, v1, v2, v3", (a > b ? a - b : b - a) + c);
}

static void vint_cndmask_exec(at *t)
{
    at_fill_int(t);
    umb_rdna3_step_set_vcc(t->s, 0x0000ffffu);
    at_s(t, 8, 0xf0f0f0f0u);
    at_code(t, "v_cndmask_b32_e32 v0, v1, v2, vcc_lo\n"
               "v_cndmask_b32_e64 v4, v1, v2, s8\n");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        EQ(t, at_gv(t, 0, l), l < 16 ? AT_B(l) : AT_A(l));
        EQ(t, at_gv(t, 4, l), ((0xf0f0f0f0u >> l) & 1u) ? AT_B(l) : AT_A(l));
    }
    /* Inactive lanes keep their value. */
    at_fill_int(t);
    umb_rdna3_step_set_exec(t->s, 0x5u);
    at_code(t, "v_add_nc_u32_e32 v0, v1, v2\n");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) EQ(t, at_gv(t, 0, l), (l == 0 || l == 2) ? AT_A(l) + AT_B(l) : 0xccccccccu);
}

void vint_16bit(at *t)
{
    /* 16-bit results go to the low half (only the low half is compared). */
    VCHECKM(t, "v_add_nc_u16 v0, v1, v2", 0xffffu, ((a + b) & 0xffffu));
    VCHECKM(t, "v_sub_nc_u16 v0, v1, v2", 0xffffu, ((a - b) & 0xffffu));
    VCHECKM(t, "v_mul_lo_u16 v0, v1, v2", 0xffffu, ((a * b) & 0xffffu));
    VCHECKM(t, "v_lshlrev_b16 v0, v1, v2", 0xffffu, (((b & 0xffffu) << (a & 15)) & 0xffffu));
    VCHECKM(t, "v_ashrrev_i16 v0, v1, v2", 0xffffu, ((uint32_t)((int16_t)b >> (a & 15)) & 0xffffu));
    VCHECKM(t, "v_max_i16 v0, v1, v2", 0xffffu, ((uint32_t)smax((int16_t)a, (int16_t)b) & 0xffffu));
    VCHECKM(t, "v_min_u16 v0, v1, v2", 0xffffu, umin(a & 0xffffu, b & 0xffffu));
    VCHECKM(t, "v_mad_u16 v0, v1, v2, v3", 0xffffu, ((a * b + c) & 0xffffu));
    VCHECKM(t, "v_add_nc_u16 v0, v1, v2 clamp", 0xffffu, umin((a & 0xffffu) + (b & 0xffffu), 0xffff));
    VCHECK(t, "v_cvt_u32_u16_e32 v0, v1", a & 0xffffu);
    VCHECK(t, "v_cvt_i32_i16_e32 v0, v1", (uint32_t)(int32_t)(int16_t)a);
}

/* The SAD family as cl_amd_media_ops/ops2 define the functions built on it (the Khronos registry's
 * cl_amd_media_ops.txt and cl_amd_media_ops2.txt: amd_sad, amd_sadhi, amd_sadw, amd_sadd, amd_msad,
 * amd_qsad, amd_mqsad), written here from those texts; CLAMP saturates the accumulation. */
static uint32_t spec_absd(uint32_t x, uint32_t y) { return x > y ? x - y : y - x; }
static uint32_t spec_sad(uint32_t s0, uint32_t s1)
{
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) r += spec_absd((s0 >> (8 * i)) & 0xff, (s1 >> (8 * i)) & 0xff);
    return r;
}
static uint32_t spec_msad(uint32_t s0, uint32_t s1)
{
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t ref = (s1 >> (8 * i)) & 0xff;
        r += ref == 0 ? 0 : spec_absd((s0 >> (8 * i)) & 0xff, ref);
    }
    return r;
}
static uint32_t sat32(uint64_t x) { return x > 0xffffffffull ? 0xffffffffu : (uint32_t)x; }

static void vint_sad_media(at *t)
{
    VCHECK(t, "v_sad_u8 v0, v1, v2, v3", spec_sad(a, b) + c);
    VCHECK(t, "v_sad_hi_u8 v0, v1, v2, v3", (spec_sad(a, b) << 16) + c);
    VCHECK(t, "v_sad_u16 v0, v1, v2, v3", spec_absd(a & 0xffff, b & 0xffff) + spec_absd(a >> 16, b >> 16) + c);
    VCHECK(t, "v_sad_u32 v0, v1, v2, v3", spec_absd(a, b) + c);
    VCHECK(t, "v_msad_u8 v0, v1, v2, v3", spec_msad(a, b) + c);
    VCHECK(t, "v_sad_u8 v0, v1, v2, v3 clamp", sat32((uint64_t)spec_sad(a, b) + c));
    VCHECK(t, "v_sad_hi_u8 v0, v1, v2, v3 clamp", sat32(((uint64_t)spec_sad(a, b) << 16) + c));
    VCHECK(t, "v_sad_u32 v0, v1, v2, v3 clamp", sat32((uint64_t)spec_absd(a, b) + c));
    VCHECK(t, "v_msad_u8 v0, v1, v2, v3 clamp", sat32((uint64_t)spec_msad(a, b) + c));

    /* quad SADs: S0 = v[4:5] (eight bytes), S1 = v1, accumulators v[8:9] (four u16, some near
     * 0xffff so that the sums wrap) and v[16:19] (four u32) */
    at_fill_int(t);
    for (unsigned l = 0; l < 32; l++) {
        at_v64(t, 4, l, 0x0123456789abcdefull * (l + 1) ^ ((uint64_t)AT_B(l) << 13));
        at_v64(t, 8, l, (l & 1) ? 0xfff0ffa0fffffe00ull + l : 0x0001002000300040ull * l);
        for (unsigned k = 0; k < 4; k++) at_v(t, 16 + k, l, (l & 2) ? 0xffffff00u + k * 64 : AT_C(l) >> k);
    }
    at_code(t, "v_qsad_pk_u16_u8 v[6:7], v[4:5], v1, v[8:9]\n"
               "v_mqsad_pk_u16_u8 v[10:11], v[4:5], v1, v[8:9]\n"
               "v_mqsad_u32_u8 v[20:23], v[4:5], v1, v[16:19]\n"
               "v_qsad_pk_u16_u8 v[12:13], v[4:5], v1, v[8:9] clamp\n"
               "v_mqsad_u32_u8 v[24:27], v[4:5], v1, v[16:19] clamp\n");
    RUNS(t);
    for (unsigned l = 0; l < 32; l++) {
        uint64_t s0 = at_gv64(t, 4, l), acc = at_gv64(t, 8, l);
        uint32_t s1 = AT_A(l);
        uint64_t q = 0, mq = 0, qc = 0;
        for (unsigned k = 0; k < 4; k++) {
            uint32_t win = (uint32_t)(s0 >> (8 * k)), a16 = (uint32_t)(acc >> (16 * k)) & 0xffff;
            uint32_t sq = spec_sad(win, s1) + a16, smq = spec_msad(win, s1) + a16;
            q |= (uint64_t)(sq & 0xffff) << (16 * k);    /* ushort: the sum wraps */
            mq |= (uint64_t)(smq & 0xffff) << (16 * k);
            qc |= (uint64_t)(sq > 0xffff ? 0xffff : sq) << (16 * k);
            uint32_t a32 = at_gv(t, 16 + k, l);
            EQ(t, at_gv(t, 20 + k, l), spec_msad(win, s1) + a32);
            EQ(t, at_gv(t, 24 + k, l), sat32((uint64_t)spec_msad(win, s1) + a32));
        }
        EQ(t, at_gv64(t, 6, l), q);
        EQ(t, at_gv64(t, 10, l), mq);
        EQ(t, at_gv64(t, 12, l), qc);
    }
}

const at_case at_vint_cases[] = {
    C(vint_add_sub), C(vint_carry), C(vint_mul), C(vint_mad64), C(vint_shift), C(vint_bits),
    C(vint_minmax), C(vint_cndmask_exec), C(vint_16bit), C(vint_sad_media),
    {NULL, NULL},
};
