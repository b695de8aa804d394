/* RDNA3 scalar ALU and program control: SOP1, SOP2, SOPK, SOPC, SOPP.
 *
 * Each format has one handler that switches on the opcode: the operations are one-liners on
 * 32/64-bit scalars and a switch keeps them together in opcode order (the numbers are gfx11's,
 * checked with llvm-mc-19). SCC rules follow the RDNA3 ISA: arithmetic sets carry/overflow,
 * logic and shifts set "result != 0", min/max set "S0 was chosen".
 */
#include "isa/rdna3/exec_alu.h"

static inline uint32_t s0_32(const rdna3_wave *w, const rdna3_inst *in) { return rdna3_scalar_src32(w, in, in->src[0], RK_B32); }
static inline uint32_t s1_32(const rdna3_wave *w, const rdna3_inst *in) { return rdna3_scalar_src32(w, in, in->src[1], RK_B32); }
static inline uint64_t s0_64(const rdna3_wave *w, const rdna3_inst *in) { return rdna3_scalar_src64(w, in, in->src[0], RK_B64); }
static inline uint64_t s1_64(const rdna3_wave *w, const rdna3_inst *in) { return rdna3_scalar_src64(w, in, in->src[1], RK_B64); }
static inline uint64_t s0_i64(const rdna3_wave *w, const rdna3_inst *in) { return rdna3_scalar_src64(w, in, in->src[0], RK_I64); }

static inline void d32(rdna3_wave *w, const rdna3_inst *in, uint32_t v) { rdna3_sdst32(w, in->vdst, v); }
static inline void d64(rdna3_wave *w, const rdna3_inst *in, uint64_t v) { rdna3_sdst64(w, in->vdst, v); }

static uint32_t bfe_u32(uint32_t v, uint32_t ctl)
{
    unsigned off = ctl & 31u, wd = (ctl >> 16) & 127u;
    if (wd == 0) return 0;
    uint32_t x = v >> off;
    return wd >= 32 ? x : x & ((1u << wd) - 1u);
}
/* Signed fields: S0 shifted arithmetically, so bits past the top are S0's sign (as v_bfe_i32). */
static int32_t bfe_i32(uint32_t v, uint32_t ctl)
{
    unsigned off = ctl & 31u, wd = (ctl >> 16) & 127u;
    if (wd == 0) return 0;
    uint32_t x = (uint32_t)((int32_t)v >> off);
    if (wd >= 32) return (int32_t)x;
    uint32_t m = 1u << (wd - 1);
    x &= (1u << wd) - 1u;
    return (int32_t)((x ^ m) - m);
}
static uint64_t bfe_u64(uint64_t v, uint32_t ctl)
{
    unsigned off = ctl & 63u, wd = (ctl >> 16) & 127u;
    if (wd == 0) return 0;
    uint64_t x = v >> off;
    return wd >= 64 ? x : x & ((1ull << wd) - 1u);
}
static int64_t bfe_i64(uint64_t v, uint32_t ctl)
{
    unsigned off = ctl & 63u, wd = (ctl >> 16) & 127u;
    if (wd == 0) return 0;
    uint64_t x = (uint64_t)((int64_t)v >> off);
    if (wd >= 64) return (int64_t)x;
    uint64_t m = 1ull << (wd - 1);
    x &= (1ull << wd) - 1u;
    return (int64_t)((x ^ m) - m);
}

static uint32_t brev32(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
static uint64_t brev64(uint64_t x) { return ((uint64_t)brev32((uint32_t)x) << 32) | brev32((uint32_t)(x >> 32)); }

/* Instructions this wave's counters have seen so far (the per-class counts are current while a
 * wave runs): a deterministic, increasing "clock" for MSG_RTN_GET_REALTIME and SHADER_CYCLES. */
static uint64_t retired(const rdna3_wave *w)
{
    uint64_t n = 0;
    if (w->stats)
        for (unsigned c = 0; c < UMB_CLASS_COUNT; c++) n += w->stats->by_class[c];
    return n;
}

/* ---- SOP2 ---- */

static void exec_sop2(rdna3_wave *w, const rdna3_inst *in)
{
    uint32_t a = s0_32(w, in), b = s1_32(w, in), r;
    uint64_t A, B, R;
    switch (in->op) {
    case 0x00: r = a + b; w->scc = r < a; d32(w, in, r); return;                          /* s_add_u32 */
    case 0x01: r = a - b; w->scc = b > a; d32(w, in, r); return;                          /* s_sub_u32 */
    case 0x02: r = a + b; w->scc = ((~(a ^ b) & (a ^ r)) >> 31) & 1u; d32(w, in, r); return; /* s_add_i32 */
    case 0x03: r = a - b; w->scc = (((a ^ b) & (a ^ r)) >> 31) & 1u; d32(w, in, r); return;  /* s_sub_i32 */
    case 0x04: R = (uint64_t)a + b + w->scc; w->scc = (R >> 32) != 0; d32(w, in, (uint32_t)R); return;
    case 0x05: R = (uint64_t)a - b - w->scc; w->scc = (R >> 32) != 0; d32(w, in, (uint32_t)R); return;
    case 0x06: { int64_t t = (int64_t)(int32_t)a - (int32_t)b; r = (uint32_t)(t < 0 ? -t : t);
                 w->scc = r != 0; d32(w, in, r); return; }                                  /* s_absdiff_i32 */
    case 0x08: r = a << (b & 31u); w->scc = r != 0; d32(w, in, r); return;
    case 0x09: R = s0_64(w, in) << (b & 63u); w->scc = R != 0; d64(w, in, R); return;
    case 0x0a: r = a >> (b & 31u); w->scc = r != 0; d32(w, in, r); return;
    case 0x0b: R = s0_64(w, in) >> (b & 63u); w->scc = R != 0; d64(w, in, R); return;
    case 0x0c: r = (uint32_t)((int32_t)a >> (b & 31u)); w->scc = r != 0; d32(w, in, r); return;
    case 0x0d: R = (uint64_t)((int64_t)s0_i64(w, in) >> (b & 63u)); w->scc = R != 0; d64(w, in, R); return;
    case 0x0e: case 0x0f: case 0x10: case 0x11: {                                           /* s_lshlN_add_u32 */
        R = ((uint64_t)a << (in->op - 0x0d)) + b;
        w->scc = (R >> 32) != 0;
        d32(w, in, (uint32_t)R);
        return;
    }
    case 0x12: w->scc = (int32_t)a < (int32_t)b; d32(w, in, w->scc ? a : b); return;
    case 0x13: w->scc = a < b; d32(w, in, w->scc ? a : b); return;
    case 0x14: w->scc = (int32_t)a > (int32_t)b; d32(w, in, w->scc ? a : b); return;
    case 0x15: w->scc = a > b; d32(w, in, w->scc ? a : b); return;
    case 0x16: r = a & b; break;
    case 0x18: r = a | b; break;
    case 0x1a: r = a ^ b; break;
    case 0x1c: r = ~(a & b); break;
    case 0x1e: r = ~(a | b); break;
    case 0x20: r = ~(a ^ b); break;
    case 0x22: r = a & ~b; break;
    case 0x24: r = a | ~b; break;
    case 0x17: case 0x19: case 0x1b: case 0x1d: case 0x1f: case 0x21: case 0x23: case 0x25:
        A = s0_64(w, in); B = s1_64(w, in);
        switch (in->op) {
        case 0x17: R = A & B; break;
        case 0x19: R = A | B; break;
        case 0x1b: R = A ^ B; break;
        case 0x1d: R = ~(A & B); break;
        case 0x1f: R = ~(A | B); break;
        case 0x21: R = ~(A ^ B); break;
        case 0x23: R = A & ~B; break;
        default: R = A | ~B; break;
        }
        w->scc = R != 0;
        d64(w, in, R);
        return;
    case 0x26: r = bfe_u32(a, b); break;
    case 0x27: r = (uint32_t)bfe_i32(a, b); break;
    case 0x28: R = bfe_u64(s0_64(w, in), b); w->scc = R != 0; d64(w, in, R); return;
    case 0x29: R = (uint64_t)bfe_i64(s0_i64(w, in), b); w->scc = R != 0; d64(w, in, R); return;
    case 0x2a: d32(w, in, ((uint32_t)((1ull << (a & 31u)) - 1u)) << (b & 31u)); return;    /* s_bfm_b32 */
    case 0x2b: {                                                                              /* s_bfm_b64 */
        unsigned wd = a & 63u;
        d64(w, in, (wd ? (~0ull >> (64 - wd)) : 0) << (b & 63u));
        return;
    }
    case 0x2c: d32(w, in, a * b); return;
    case 0x2d: d32(w, in, (uint32_t)(((uint64_t)a * b) >> 32)); return;
    case 0x2e: d32(w, in, (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32)); return;
    case 0x30: d32(w, in, w->scc ? a : b); return;
    case 0x31: d64(w, in, w->scc ? s0_64(w, in) : s1_64(w, in)); return;
    case 0x32: d32(w, in, (a & 0xffffu) | (b << 16)); return;
    case 0x33: d32(w, in, (a & 0xffffu) | (b & 0xffff0000u)); return;
    case 0x34: d32(w, in, (a >> 16) | (b & 0xffff0000u)); return;
    case 0x35: d32(w, in, (a >> 16) | (b << 16)); return;
    default:
        rdna3_exec_unsupported(w, in);
        return;
    }
    w->scc = r != 0;
    d32(w, in, r);
}

/* ---- SOP1 ---- */

static uint64_t saveexec_op(unsigned k, uint64_t s, uint64_t e)
{
    switch (k) {
    case 0: return s & e;          /* and */
    case 1: return s | e;          /* or */
    case 2: return s ^ e;          /* xor */
    case 3: return ~(s & e);       /* nand */
    case 4: return ~(s | e);       /* nor */
    case 5: return ~(s ^ e);       /* xnor */
    case 6: return ~s & e;         /* and_not0 */
    case 7: return ~s | e;         /* or_not0 */
    case 8: return s & ~e;         /* and_not1 */
    default: return s | ~e;        /* or_not1 */
    }
}

/* s_*_saveexec_b32/b64 (0x20..0x33) and s_and_not{0,1}_wrexec (0x34..0x37). */
static void sop1_exec_mask(rdna3_wave *w, const rdna3_inst *in)
{
    int wide = in->op & 1u;
    uint64_t old = rdna3_exec(w);
    uint64_t s = wide ? s0_64(w, in) : s0_32(w, in);
    uint64_t e = wide ? old : (uint32_t)old;
    if (in->op >= 0x34) {
        uint64_t nw = saveexec_op(in->op >= 0x36 ? 8 : 6, s, e);
        if (!wide) nw = (uint32_t)nw | (old & 0xffffffff00000000ull);
        rdna3_set_exec(w, nw);
        w->scc = rdna3_exec(w) != 0;
        if (wide) d64(w, in, rdna3_exec(w)); else d32(w, in, (uint32_t)rdna3_exec(w));
        return;
    }
    uint64_t nw = saveexec_op((in->op - 0x20u) >> 1, s, e);
    if (!wide) nw = (uint32_t)nw | (old & 0xffffffff00000000ull);
    if (wide) d64(w, in, old); else d32(w, in, (uint32_t)old);
    rdna3_set_exec(w, nw);
    w->scc = (wide ? rdna3_exec(w) : (uint32_t)rdna3_exec(w)) != 0;
}

static int32_t clz_or_m1(uint64_t x, unsigned bits)
{
    if (!x) return -1;
    return bits == 32 ? __builtin_clz((uint32_t)x) : __builtin_clzll(x);
}

static uint32_t quad_or(uint64_t s, unsigned nquads)
{
    uint32_t r = 0;
    for (unsigned q = 0; q < nquads; q++)
        if ((s >> (4 * q)) & 0xfu) r |= 1u << q;
    return r;
}

static uint64_t wqm(uint64_t s)
{
    uint64_t r = 0;
    for (unsigned q = 0; q < 16; q++)
        if ((s >> (4 * q)) & 0xfu) r |= 0xfull << (4 * q);
    return r;
}

static void exec_sop1(rdna3_wave *w, const rdna3_inst *in)
{
    if (in->op >= 0x20 && in->op <= 0x37) {
        sop1_exec_mask(w, in);
        return;
    }
    uint32_t a, r;
    uint64_t A, R;
    switch (in->op) {
    case 0x00: d32(w, in, s0_32(w, in)); return;
    case 0x01: d64(w, in, s0_64(w, in)); return;
    case 0x02: if (w->scc) d32(w, in, s0_32(w, in)); return;
    case 0x03: if (w->scc) d64(w, in, s0_64(w, in)); return;
    case 0x04: d32(w, in, brev32(s0_32(w, in))); return;
    case 0x05: d64(w, in, brev64(s0_64(w, in))); return;
    case 0x08: a = s0_32(w, in); d32(w, in, a ? (uint32_t)__builtin_ctz(a) : 0xffffffffu); return;
    case 0x09: A = s0_64(w, in); d32(w, in, A ? (uint32_t)__builtin_ctzll(A) : 0xffffffffu); return;
    case 0x0a: d32(w, in, (uint32_t)clz_or_m1(s0_32(w, in), 32)); return;
    case 0x0b: d32(w, in, (uint32_t)clz_or_m1(s0_64(w, in), 64)); return;
    case 0x0c: a = s0_32(w, in); d32(w, in, (uint32_t)clz_or_m1(a ^ (uint32_t)((int32_t)a >> 31), 32)); return;
    case 0x0d: A = s0_64(w, in); d32(w, in, (uint32_t)clz_or_m1(A ^ (uint64_t)((int64_t)A >> 63), 64)); return;
    case 0x0e: d32(w, in, (uint32_t)(int32_t)(int8_t)s0_32(w, in)); return;
    case 0x0f: d32(w, in, (uint32_t)(int32_t)(int16_t)s0_32(w, in)); return;
    case 0x10: d32(w, in, rdna3_scalar_src32(w, in, in->vdst, RK_B32) & ~(1u << (s0_32(w, in) & 31u))); return;
    case 0x11: d64(w, in, rdna3_scalar_src64(w, in, in->vdst, RK_B64) & ~(1ull << (s0_32(w, in) & 63u))); return;
    case 0x12: d32(w, in, rdna3_scalar_src32(w, in, in->vdst, RK_B32) | (1u << (s0_32(w, in) & 31u))); return;
    case 0x13: d64(w, in, rdna3_scalar_src64(w, in, in->vdst, RK_B64) | (1ull << (s0_32(w, in) & 63u))); return;
    case 0x14:                                                                   /* s_bitreplicate_b64_b32 */
        a = s0_32(w, in);
        R = 0;
        for (unsigned i = 0; i < 32; i++)
            if ((a >> i) & 1u) R |= 3ull << (2 * i);
        d64(w, in, R);
        return;
    case 0x15: a = s0_32(w, in); r = (int32_t)a < 0 ? 0u - a : a; w->scc = r != 0; d32(w, in, r); return;
    case 0x16: r = 32u - (uint32_t)__builtin_popcount(s0_32(w, in)); w->scc = r != 0; d32(w, in, r); return;
    case 0x17: r = 64u - (uint32_t)__builtin_popcountll(s0_64(w, in)); w->scc = r != 0; d32(w, in, r); return;
    case 0x18: r = (uint32_t)__builtin_popcount(s0_32(w, in)); w->scc = r != 0; d32(w, in, r); return;
    case 0x19: r = (uint32_t)__builtin_popcountll(s0_64(w, in)); w->scc = r != 0; d32(w, in, r); return;
    case 0x1a: r = quad_or(s0_32(w, in), 8); w->scc = r != 0; d32(w, in, r); return;
    case 0x1b: R = quad_or(s0_64(w, in), 16); w->scc = R != 0; d64(w, in, R); return;
    case 0x1c: r = (uint32_t)wqm(s0_32(w, in)); w->scc = r != 0; d32(w, in, r); return;
    case 0x1d: R = wqm(s0_64(w, in)); w->scc = R != 0; d64(w, in, R); return;
    case 0x1e: r = ~s0_32(w, in); w->scc = r != 0; d32(w, in, r); return;
    case 0x1f: R = ~s0_64(w, in); w->scc = R != 0; d64(w, in, R); return;
    case 0x40: case 0x41: case 0x42: case 0x43: {                               /* s_movrel{s,d}_b32/b64 */
        unsigned m0 = w->sgpr[RDNA3_SRC_M0], wide = in->op & 1u;
        unsigned src = in->src[0], dst = in->vdst;
        if (in->op <= 0x41) src += m0; else dst += m0;
        unsigned lim = RDNA3_SRC_VCC_LO - (wide ? 1u : 0u);   /* s0..s105 only */
        if ((in->op <= 0x41 && src >= lim) || (in->op > 0x41 && dst >= lim)) {
            rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "s_movrel index out of range (M0 = 0x%x)", m0);
            return;
        }
        if (wide) rdna3_sdst64(w, dst, rdna3_scalar_src64(w, in, src, RK_B64));
        else rdna3_sdst32(w, dst, rdna3_scalar_src32(w, in, src, RK_B32));
        return;
    }
    case 0x44: {                                                                 /* s_movrelsd_2_b32 */
        unsigned m0 = w->sgpr[RDNA3_SRC_M0];
        unsigned src = in->src[0] + (m0 & 0x3ffu), dst = in->vdst + ((m0 >> 16) & 0x3ffu);
        if ((in->src[0] < RDNA3_SRC_VCC_LO && src >= RDNA3_SRC_VCC_LO) || dst >= RDNA3_SRC_VCC_LO) {
            rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "s_movrel index out of range (M0 = 0x%x)", m0);
            return;
        }
        rdna3_sdst32(w, dst, rdna3_scalar_src32(w, in, in->src[0] < RDNA3_SRC_VCC_LO ? src : in->src[0], RK_B32));
        return;
    }
    case 0x4c: case 0x4d: {                                                      /* s_sendmsg_rtn_b32/b64 */
        /* MSG_RTN_GET_REALTIME (131) reads a clock: umbra gives the wave's retired instruction
         * count, which is deterministic and increasing. Doorbell/DDID/TMA/TBA/save-wave ids
         * (128..133) describe a real queue and read as 0. */
        unsigned msg = in->simm16 & 0xffu;
        if (msg < 128 || msg > 133) {
            rdna3_fault(w, in, UMB_ERR_UNSUPPORTED, "s_sendmsg_rtn message %u is not modelled", msg);
            return;
        }
        uint64_t v = msg == 131 ? retired(w) : 0;
        if (in->op == 0x4d) d64(w, in, v); else d32(w, in, (uint32_t)v);
        return;
    }
    case 0x47: d64(w, in, w->pc + 4u); return;                                 /* s_getpc_b64 */
    case 0x48: w->next_pc = s0_64(w, in); return;                                /* s_setpc_b64 */
    case 0x49: A = s0_64(w, in); d64(w, in, w->pc + 4u); w->next_pc = A; return; /* s_swappc_b64 */
    default:
        rdna3_exec_unsupported(w, in);
        return;
    }
}

/* ---- SOPC ---- */

static void exec_sopc(rdna3_wave *w, const rdna3_inst *in)
{
    uint32_t a = s0_32(w, in), b = s1_32(w, in);
    int32_t x = (int32_t)a, y = (int32_t)b;
    bool c;
    switch (in->op) {
    case 0x00: c = x == y; break;
    case 0x01: c = x != y; break;
    case 0x02: c = x > y; break;
    case 0x03: c = x >= y; break;
    case 0x04: c = x < y; break;
    case 0x05: c = x <= y; break;
    case 0x06: c = a == b; break;
    case 0x07: c = a != b; break;
    case 0x08: c = a > b; break;
    case 0x09: c = a >= b; break;
    case 0x0a: c = a < b; break;
    case 0x0b: c = a <= b; break;
    case 0x0c: c = ((a >> (b & 31u)) & 1u) == 0; break;
    case 0x0d: c = ((a >> (b & 31u)) & 1u) == 1; break;
    case 0x0e: c = ((s0_64(w, in) >> (b & 63u)) & 1u) == 0; break;
    case 0x0f: c = ((s0_64(w, in) >> (b & 63u)) & 1u) == 1; break;
    case 0x10: c = s0_64(w, in) == s1_64(w, in); break;
    case 0x11: c = s0_64(w, in) != s1_64(w, in); break;
    default:
        rdna3_exec_unsupported(w, in);
        return;
    }
    w->scc = c;
}

/* ---- SOPK ---- */

/* Hardware registers s_getreg/s_setreg reach (gfx11 ids). */
enum {
    HWREG_MODE = 1, HWREG_STATUS = 2, HWREG_TRAPSTS = 3, HWREG_SH_MEM_BASES = 15, HWREG_FLAT_SCR_LO = 20,
    HWREG_FLAT_SCR_HI = 21, HWREG_HW_ID1 = 23, HWREG_HW_ID2 = 24, HWREG_SHADER_CYCLES = 29,
};

static bool hwreg_read(rdna3_wave *w, unsigned id, uint32_t *v)
{
    switch (id) {
    case HWREG_MODE: *v = w->mode; return true;
    case HWREG_STATUS: *v = (w->scc ? 1u : 0u) | (rdna3_exec(w) == 0 ? 1u << 9 : 0) | (rdna3_vcc(w) == 0 ? 1u << 10 : 0); return true;
    case HWREG_TRAPSTS: *v = w->trapsts; return true;
    case HWREG_HW_ID1:
        *v = w->warp ? (w->warp->id & 31u) : 0;   /* WAVE_ID; the rest describes the CU and is 0 */
        return true;
    case HWREG_HW_ID2: *v = 0; return true;
    case HWREG_SH_MEM_BASES: {   /* [15:0] private aperture base[63:48], [31:16] shared base[63:48] */
        const rdna3_kernel *k = w->kernel;
        *v = k ? (uint32_t)((k->private_base >> 48) & 0xffffu) | (uint32_t)(((k->shared_base >> 48) & 0xffffu) << 16) : 0;
        return true;
    }
    case HWREG_FLAT_SCR_LO: *v = (uint32_t)w->flat_scratch; return true;
    case HWREG_FLAT_SCR_HI: *v = (uint32_t)(w->flat_scratch >> 32); return true;
    case HWREG_SHADER_CYCLES:    /* a 20-bit clock: the retired instruction count (deterministic) */
        *v = (uint32_t)(retired(w) & 0xfffffu);
        return true;
    default: return false;
    }
}

static void exec_hwreg(rdna3_wave *w, const rdna3_inst *in, bool set, uint32_t value)
{
    unsigned id = in->simm16 & 63u, off = (in->simm16 >> 6) & 31u, size = ((in->simm16 >> 11) & 31u) + 1u;
    uint32_t mask = (size >= 32 ? 0xffffffffu : ((1u << size) - 1u)) << off;
    uint32_t cur;
    if (!hwreg_read(w, id, &cur)) {
        rdna3_fault(w, in, UMB_ERR_UNSUPPORTED, "hardware register %u is not modelled", id);
        return;
    }
    if (!set) {
        d32(w, in, (cur & mask) >> off);
        return;
    }
    uint32_t nv = (cur & ~mask) | ((value << off) & mask);
    if (id == HWREG_MODE) w->mode = nv;
    else if (id == HWREG_TRAPSTS) w->trapsts = nv;
    /* The other registers are read-only here (writes to STATUS, HW_ID, ... are ignored). */
}

static void exec_sopk(rdna3_wave *w, const rdna3_inst *in)
{
    uint32_t k = in->simm16, sk = (uint32_t)(int32_t)(int16_t)in->simm16;
    uint32_t d = rdna3_scalar_src32(w, in, in->vdst, RK_B32);
    switch (in->op) {
    case 0x00: d32(w, in, sk); return;
    case 0x01: return;                                                              /* s_version: a hint */
    case 0x02: if (w->scc) d32(w, in, sk); return;
    case 0x03: w->scc = (int32_t)d == (int32_t)sk; return;
    case 0x04: w->scc = (int32_t)d != (int32_t)sk; return;
    case 0x05: w->scc = (int32_t)d > (int32_t)sk; return;
    case 0x06: w->scc = (int32_t)d >= (int32_t)sk; return;
    case 0x07: w->scc = (int32_t)d < (int32_t)sk; return;
    case 0x08: w->scc = (int32_t)d <= (int32_t)sk; return;
    case 0x09: w->scc = d == k; return;
    case 0x0a: w->scc = d != k; return;
    case 0x0b: w->scc = d > k; return;
    case 0x0c: w->scc = d >= k; return;
    case 0x0d: w->scc = d < k; return;
    case 0x0e: w->scc = d <= k; return;
    case 0x0f: { uint32_t r = d + sk; w->scc = ((~(d ^ sk) & (d ^ r)) >> 31) & 1u; d32(w, in, r); return; }
    case 0x10: d32(w, in, d * sk); return;
    case 0x11: exec_hwreg(w, in, false, 0); return;
    case 0x12: exec_hwreg(w, in, true, d); return;
    case 0x13: exec_hwreg(w, in, true, in->literal); return;                        /* s_setreg_imm32_b32 */
    case 0x14: d64(w, in, w->pc + 4u); w->next_pc = w->pc + 4u + (int64_t)(int16_t)in->simm16 * 4; return;
    case 0x18: case 0x19: case 0x1a: case 0x1b: return;                               /* s_waitcnt_*cnt */
    default:
        rdna3_exec_unsupported(w, in);
        return;
    }
}

/* ---- SOPP ---- */

static void branch_if(rdna3_wave *w, const rdna3_inst *in, bool taken)
{
    if (taken) w->next_pc = w->pc + 4u + (int64_t)(int16_t)in->simm16 * 4;
}

bool rdna3_salu_is_hint(const rdna3_inst *in)
{
    if (in->fmt == RDNA3_FMT_SOPK) return in->op == 0x01 || (in->op >= 0x18 && in->op <= 0x1b);   /* s_version, s_waitcnt_*cnt */
    if (in->fmt != RDNA3_FMT_SOPP) return false;
    switch (in->op) {
    case 0x00: case 0x01: case 0x03: case 0x04: case 0x05: case 0x07: case 0x08: case 0x09:
    case 0x0a: case 0x0b: case 0x35: case 0x38: case 0x39: case 0x3a: case 0x3b: case 0x3c:
        return true;   /* nop, setkill, sleep, prefetch distance, clause, delay_alu, waits, prio, perf, trace */
    default:
        return false;
    }
}

bool rdna3_salu_is_sleep(const rdna3_inst *in) { return in->fmt == RDNA3_FMT_SOPP && in->op == 0x03; }

/* s_trap: an exception the hardware hands to the trap handler, which umbra does not have. LLVM
 * emits `s_trap 2` for llvm.trap (abort(), __builtin_trap(), a failed HIP assert() after its
 * message). The host services may know the assertion's text (rdna3_host.trap_reason). */
static void exec_trap(rdna3_wave *w, const rdna3_inst *in)
{
    unsigned id = in->simm16 & 0xffu;
    char why[420] = "";
    rdna3_host *host = w->kernel ? w->kernel->host : NULL;
    if (host) host->trap_reason(host, w, why, sizeof why);
    if (id == 2)
        rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "trap 2: abort(), __builtin_trap() or a failed assert() (umbra has no "
                    "trap handler)%s%s", why[0] ? "; " : "", why);
    else
        rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "trap %u (umbra has no trap handler)%s%s", id, why[0] ? "; " : "", why);
}

static void exec_sopp(rdna3_wave *w, const rdna3_inst *in)
{
    if (rdna3_salu_is_hint(in)) {
        if (in->op == 0x03 && w->kernel && w->kernel->host) w->kernel->host->service(w->kernel->host, w, in);   /* s_sleep */
        return;
    }
    switch (in->op) {
    case 0x11: w->mode = (w->mode & ~0xfu) | (in->simm16 & 0xfu); return;                    /* s_round_mode */
    case 0x12: w->mode = (w->mode & ~0xf0u) | ((in->simm16 & 0xfu) << 4); return;             /* s_denorm_mode */
    case 0x20: branch_if(w, in, true); return;
    case 0x21: branch_if(w, in, !w->scc); return;
    case 0x22: branch_if(w, in, w->scc); return;
    case 0x23: branch_if(w, in, rdna3_vcc(w) == 0); return;
    case 0x24: branch_if(w, in, rdna3_vcc(w) != 0); return;
    case 0x25: branch_if(w, in, rdna3_exec(w) == 0); return;
    case 0x26: branch_if(w, in, rdna3_exec(w) != 0); return;
    case 0x27: case 0x28: case 0x29: case 0x2a: return;   /* no debugger: cdbg branches never taken */
    case 0x30: w->state = UMB_WARP_EXITED; return;        /* s_endpgm */
    case 0x36:                                            /* s_sendmsg */
        /* MSG_INTERRUPT (1) from a hostcall kernel is the doorbell; no other message has an effect here */
        if ((in->simm16 & 0xffu) == 1u && w->kernel && w->kernel->host) w->kernel->host->service(w->kernel->host, w, in);
        return;
    case 0x3d: w->state = UMB_WARP_AT_BARRIER; return;    /* s_barrier */
    case 0x1f:
        rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "executed s_code_end (padding after the last kernel)");
        return;
    case 0x10: exec_trap(w, in); return;
    default:
        rdna3_exec_unsupported(w, in);
        return;
    }
}

rdna3_exec_fn rdna3_salu_handler(const rdna3_inst *in)
{
    switch (in->fmt) {
    case RDNA3_FMT_SOP1: return exec_sop1;
    case RDNA3_FMT_SOP2: return exec_sop2;
    case RDNA3_FMT_SOPK: return exec_sopk;
    case RDNA3_FMT_SOPC: return exec_sopc;
    case RDNA3_FMT_SOPP: return exec_sopp;
    default: return NULL;
    }
}
