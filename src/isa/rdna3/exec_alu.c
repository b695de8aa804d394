/* RDNA3 ALU: dispatch to the executors, operand fetch, result modifiers.
 *
 * rdna3_alu_handler maps an instruction to its handler once, at decode time. VOP1, VOP2 and VOPC
 * instructions use the VOP3 opcode space (VOPC = 0..255, VOP2 = 256 + op, VOP1 = 384 + op), so the
 * e32, e64 and DPP forms of an instruction share one handler.
 */
#include "isa/rdna3/exec_alu.h"

#include <stdio.h>

/* ---- dispatch ---- */

static rdna3_exec_fn valu_handler(unsigned op)
{
    rdna3_exec_fn f = rdna3_valu_handler(op);
    if (!f) f = rdna3_valu_fp_handler(op);
    if (!f) f = rdna3_vopc_handler(op);
    if (!f) f = rdna3_lane_handler(op);
    return f;
}

/* gfx11 has no LDS-direct VALU operand (llvm-mc rejects src_lds_direct for gfx1100; LDSDIR
 * replaced it): an instruction reading encoding 254 is left unsupported, so it faults with its
 * disassembly instead of reading a made-up value. */
static bool reads_lds_direct(const rdna3_inst *in)
{
    for (unsigned i = 0; i < 3 && i < in->nsrc; i++)
        if (in->src[i] == RDNA3_SRC_LDS_DIRECT) return true;
    return in->fmt == RDNA3_FMT_VOPD && in->srcy[0] == RDNA3_SRC_LDS_DIRECT;
}

rdna3_exec_fn rdna3_alu_handler(const rdna3_inst *in)
{
    if (in->fmt >= RDNA3_FMT_VOP1 && in->fmt <= RDNA3_FMT_VOPD && reads_lds_direct(in)) return NULL;
    switch (in->fmt) {
    case RDNA3_FMT_SOP1: case RDNA3_FMT_SOP2: case RDNA3_FMT_SOPK: case RDNA3_FMT_SOPC: case RDNA3_FMT_SOPP:
        return rdna3_salu_handler(in);
    case RDNA3_FMT_VOP1: case RDNA3_FMT_VOP2: case RDNA3_FMT_VOPC: case RDNA3_FMT_VOP3: case RDNA3_FMT_VOP3SD:
        return valu_handler(rdna3_vop3_op(in));
    case RDNA3_FMT_VOP3P:
        return rdna3_vop3p_handler(in->op);
    case RDNA3_FMT_VOPD:
        return rdna3_exec_vopd;
    default:
        return NULL;
    }
}

/* ---- scalar operands ---- */

/* Inline float constants 240..248 as f32, f64 and f16 bit patterns. */
static const uint32_t k_f32[9] = {0x3f000000u, 0xbf000000u, 0x3f800000u, 0xbf800000u, 0x40000000u,
                                  0xc0000000u, 0x40800000u, 0xc0800000u, 0x3e22f983u};
static const uint64_t k_f64[9] = {0x3fe0000000000000ull, 0xbfe0000000000000ull, 0x3ff0000000000000ull,
                                  0xbff0000000000000ull, 0x4000000000000000ull, 0xc000000000000000ull,
                                  0x4010000000000000ull, 0xc010000000000000ull, 0x3fc45f306dc9c882ull};
static const uint16_t k_f16[9] = {0x3800u, 0xb800u, 0x3c00u, 0xbc00u, 0x4000u, 0xc000u, 0x4400u, 0xc400u, 0x3118u};

static uint64_t aperture(const rdna3_wave *w, unsigned enc)
{
    const rdna3_kernel *k = w->kernel;
    uint64_t shared = k ? k->shared_base : 0, priv = k ? k->private_base : 0;
    switch (enc) {
    case RDNA3_SRC_SHARED_BASE: return shared;
    case RDNA3_SRC_SHARED_LIMIT: return shared | 0xffffffffull;
    case RDNA3_SRC_PRIVATE_BASE: return priv;
    default: return priv | 0xffffffffull;
    }
}

/* Everything but SGPRs 0..127: constants, literal, special registers. */
static uint64_t special_src(const rdna3_wave *w, const rdna3_inst *in, unsigned enc, unsigned kind, int wide)
{
    if (enc >= RDNA3_SRC_CONST_ZERO && enc <= 192) {
        return enc - RDNA3_SRC_CONST_ZERO;
    }
    if (enc >= RDNA3_SRC_CONST_NEG1 && enc <= 208) {
        int64_t v = -(int64_t)(enc - 192);
        return wide ? (uint64_t)v : (uint64_t)(uint32_t)v;
    }
    if (enc >= RDNA3_SRC_F_HALF && enc <= RDNA3_SRC_INV_2PI) {
        unsigned i = enc - RDNA3_SRC_F_HALF;
        if (kind == RK_F16 || kind == RK_B16) return k_f16[i];
        if (wide) return k_f64[i];
        return k_f32[i];
    }
    switch (enc) {
    case RDNA3_SRC_LITERAL:
        /* A 32-bit literal of a 64-bit operand: the high dword of an f64; sign- or zero-extended
         * for signed / unsigned integers (what LLVM's encoder assumes of the hardware). */
        if (wide && kind == RK_F64) return (uint64_t)in->literal << 32;
        if (wide && kind == RK_I64) return (uint64_t)(int64_t)(int32_t)in->literal;
        return in->literal;
    case RDNA3_SRC_SHARED_BASE: case RDNA3_SRC_SHARED_LIMIT:
    case RDNA3_SRC_PRIVATE_BASE: case RDNA3_SRC_PRIVATE_LIMIT: {
        uint64_t a = aperture(w, enc);
        return wide ? a : (uint32_t)a;
    }
    case RDNA3_SRC_VCCZ: return rdna3_vcc(w) == 0;
    case RDNA3_SRC_EXECZ: return rdna3_exec(w) == 0;
    case RDNA3_SRC_SCC: return w->scc;
    default: return 0;   /* NULL, POPS_EXITING_WAVE_ID; the decoder rejects the rest */
    }
}

uint32_t rdna3_scalar_src32(const rdna3_wave *w, const rdna3_inst *in, unsigned enc, unsigned kind)
{
    if (enc < RDNA3_NUM_SGPR_SLOTS) return enc == RDNA3_SRC_NULL ? 0 : w->sgpr[enc];
    return (uint32_t)special_src(w, in, enc, kind, 0);
}

uint64_t rdna3_scalar_src64(const rdna3_wave *w, const rdna3_inst *in, unsigned enc, unsigned kind)
{
    if (enc < RDNA3_NUM_SGPR_SLOTS) {
        if (enc == RDNA3_SRC_NULL) return 0;
        return (uint64_t)w->sgpr[enc] | ((uint64_t)w->sgpr[(enc + 1u) & 127u] << 32);
    }
    return special_src(w, in, enc, kind, 1);
}

void rdna3_sdst32(rdna3_wave *w, unsigned enc, uint32_t v)
{
    if (enc < RDNA3_NUM_SGPR_SLOTS && enc != RDNA3_SRC_NULL) w->sgpr[enc] = v;
}

void rdna3_sdst64(rdna3_wave *w, unsigned enc, uint64_t v)
{
    if (enc >= RDNA3_NUM_SGPR_SLOTS - 1 || enc == RDNA3_SRC_NULL) return;
    w->sgpr[enc] = (uint32_t)v;
    w->sgpr[enc + 1] = (uint32_t)(v >> 32);
}

/* ---- vector operands ---- */

static inline uint32_t flush_f32(uint32_t u)
{
    return (u & 0x7f800000u) == 0 ? (u & 0x80000000u) : u;
}

const uint32_t *rdna3_vsrc_slow(rdna3_wave *w, const rdna3_inst *in, unsigned i, unsigned kind, uint32_t *buf)
{
    unsigned s = in->src[i];
    const uint32_t *p;
    if (i == 0 && in->dpp) {
        rdna3_dpp_fetch(w, in, buf);
        p = buf;
    } else if (s >= RDNA3_SRC_VGPR0) {
        p = rdna3_vreg(w, s - RDNA3_SRC_VGPR0);
    } else {
        rdna3_fill_lanes(buf, RDNA3_MAX_LANES, rdna3_scalar_src32(w, in, s, kind));
        p = buf;
    }
    unsigned n = w->wave_size;
    unsigned ab = (in->abs >> i) & 1u, ng = (in->neg >> i) & 1u;
    if (kind == RK_F32) {
        int flush = !(rdna3_denorm32(w) & 1u);
        if (!ab && !ng && !flush) return p;
        uint32_t andm = ab ? 0x7fffffffu : 0xffffffffu, xorm = ng ? 0x80000000u : 0;
        for (unsigned l = 0; l < n; l++) {
            uint32_t v = (p[l] & andm) ^ xorm;
            buf[l] = flush ? flush_f32(v) : v;
        }
        return buf;
    }
    if (kind == RK_F16 || kind == RK_B16) {
        /* op_sel picks the half (VOP3 forms); the value sits in the low 16 bits. */
        unsigned hi = (in->fmt == RDNA3_FMT_VOP3 || in->fmt == RDNA3_FMT_VOP3SD) ? (in->opsel >> i) & 1u : 0;
        int fl = kind == RK_F16;
        if (!hi && !(fl && (ab || ng))) return p;
        uint32_t andm = (fl && ab) ? 0x7fffu : 0xffffu, xorm = (fl && ng) ? 0x8000u : 0;
        for (unsigned l = 0; l < n; l++) buf[l] = (((hi ? p[l] >> 16 : p[l]) & andm) ^ xorm);
        return buf;
    }
    return p;   /* integer 32-bit sources: no modifiers */
}

void rdna3_vsrc64(rdna3_wave *w, const rdna3_inst *in, unsigned i, unsigned kind, uint64_t *buf)
{
    unsigned s = in->src[i], n = w->wave_size;
    if (s >= RDNA3_SRC_VGPR0) {
        const uint32_t *lo = rdna3_vreg(w, s - RDNA3_SRC_VGPR0), *hi = rdna3_vreg(w, s - RDNA3_SRC_VGPR0 + 1u);
        for (unsigned l = 0; l < n; l++) buf[l] = (uint64_t)lo[l] | ((uint64_t)hi[l] << 32);
    } else {
        uint64_t v = rdna3_scalar_src64(w, in, s, kind);
        for (unsigned l = 0; l < n; l++) buf[l] = v;
    }
    if (kind != RK_F64) return;
    unsigned ab = (in->abs >> i) & 1u, ng = (in->neg >> i) & 1u;
    int flush = !(rdna3_denorm64(w) & 1u);
    if (!ab && !ng && !flush) return;
    for (unsigned l = 0; l < n; l++) {
        uint64_t v = buf[l];
        if (ab) v &= 0x7fffffffffffffffull;
        if (ng) v ^= 0x8000000000000000ull;
        if (flush && (v & 0x7ff0000000000000ull) == 0) v &= 0x8000000000000000ull;
        buf[l] = v;
    }
}

/* ---- output modifiers ---- */

static const float omod_f32[4] = {1.0f, 2.0f, 4.0f, 0.5f};

static float clamp01(const rdna3_wave *w, float r)
{
    (void)w;
    if (isnan(r)) return 0.0f;   /* DX10_CLAMP and IEEE both give +0 for a clamped NaN on gfx11 */
    if (r < 0.0f) return 0.0f;
    if (r > 1.0f) return 1.0f;
    return r == 0.0f ? 0.0f : r;
}

void rdna3_post_f32(rdna3_wave *w, const rdna3_inst *in, uint32_t *d, uint64_t mask)
{
    int flush = !(rdna3_denorm32(w) & 2u);
    float om = omod_f32[in->omod & 3u];
    for (unsigned l = 0; l < w->wave_size; l++) {
        if (!RDNA3_ON(mask, l)) continue;
        float r = f32_of(d[l]);
        if (in->omod) r *= om;
        if (in->clamp) r = clamp01(w, r);
        uint32_t u = bits_f32(r);
        d[l] = flush ? flush_f32(u) : u;
    }
}

double rdna3_post_f64_slow(const rdna3_wave *w, const rdna3_inst *in, double r)
{
    static const double om[4] = {1.0, 2.0, 4.0, 0.5};
    if (in->omod) r *= om[in->omod & 3u];
    if (in->clamp) r = isnan(r) ? 0.0 : r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
    if (!(rdna3_denorm64(w) & 2u) && r != 0.0 && fabs(r) < 0x1p-1022) r = copysign(0.0, r);
    return r;
}

uint32_t rdna3_post_f16_slow(const rdna3_wave *w, const rdna3_inst *in, uint32_t h)
{
    if (in->omod || in->clamp) {
        static const float om[4] = {1.0f, 2.0f, 4.0f, 0.5f};
        float r = f32_from_f16(h);
        if (in->omod) r *= om[in->omod & 3u];
        if (in->clamp) r = clamp01(w, r);
        h = f16_from_f32(r);
    }
    if (!(rdna3_denorm64(w) & 2u) && (h & 0x7c00u) == 0) h &= 0x8000u;
    return h & 0xffffu;
}
