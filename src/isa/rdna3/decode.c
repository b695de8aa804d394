/* RDNA3 (gfx11) decoder: one or more dwords -> rdna3_inst.
 *
 * The family comes from the top bits of the first dword; the opcode row (op_table.h) says how
 * many sources the instruction reads and which modifiers exist. An encoding llvm-objdump would
 * reject (unknown opcode, modifier bits on an opcode without them, a source field set that the
 * opcode does not read, missing literal/DPP dword) is rejected here with a message, and the
 * decoder never reads past `avail` dwords.
 */
#include "isa/rdna3/op_table.h"
#include "isa/rdna3/mimg.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return false;
}

static inline uint32_t bits(uint32_t w, unsigned hi, unsigned lo)
{
    return (w >> lo) & ((hi - lo == 31) ? 0xffffffffu : ((1u << (hi - lo + 1)) - 1u));
}

/* Which table the family of the first dword uses; RDNA3_FMT_INVALID if none. */
static rdna3_format family_of(uint32_t w)
{
    unsigned top9 = w >> 23;
    if (top9 == 0x17d) return RDNA3_FMT_SOP1;
    if (top9 == 0x17e) return RDNA3_FMT_SOPC;
    if (top9 == 0x17f) return RDNA3_FMT_SOPP;
    if ((w >> 28) == 0xb) return RDNA3_FMT_SOPK;
    if ((w >> 30) == 2) return RDNA3_FMT_SOP2;
    if ((w >> 31) == 0) {
        unsigned op = bits(w, 30, 25);
        return op == 0x3f ? RDNA3_FMT_VOP1 : op == 0x3e ? RDNA3_FMT_VOPC : RDNA3_FMT_VOP2;
    }
    switch (w >> 24) {
    case 0xcc: return RDNA3_FMT_VOP3P;
    case 0xcd: return RDNA3_FMT_VINTERP;
    case 0xce: return RDNA3_FMT_LDSDIR;
    default: break;
    }
    switch (w >> 26) {
    case 0x32: return RDNA3_FMT_VOPD;
    case 0x35: return RDNA3_FMT_VOP3;
    case 0x36: return RDNA3_FMT_DS;
    case 0x37: {
        unsigned seg = bits(w, 17, 16);
        return seg == 0 ? RDNA3_FMT_FLAT : seg == 1 ? RDNA3_FMT_SCRATCH : seg == 2 ? RDNA3_FMT_GLOBAL : RDNA3_FMT_INVALID;
    }
    case 0x38: return RDNA3_FMT_MUBUF;
    case 0x3a: return RDNA3_FMT_MTBUF;
    case 0x3c: return RDNA3_FMT_MIMG;
    case 0x3d: return RDNA3_FMT_SMEM;
    case 0x3e: return RDNA3_FMT_EXP;
    default: return RDNA3_FMT_INVALID;
    }
}

static const char *const fmt_names[RDNA3_FMT_COUNT] = {
    [RDNA3_FMT_INVALID] = "unknown", [RDNA3_FMT_SOP1] = "SOP1", [RDNA3_FMT_SOP2] = "SOP2",
    [RDNA3_FMT_SOPK] = "SOPK", [RDNA3_FMT_SOPC] = "SOPC", [RDNA3_FMT_SOPP] = "SOPP",
    [RDNA3_FMT_SMEM] = "SMEM", [RDNA3_FMT_VOP1] = "VOP1", [RDNA3_FMT_VOP2] = "VOP2",
    [RDNA3_FMT_VOPC] = "VOPC", [RDNA3_FMT_VOP3] = "VOP3", [RDNA3_FMT_VOP3SD] = "VOP3SD",
    [RDNA3_FMT_VOP3P] = "VOP3P", [RDNA3_FMT_VOPD] = "VOPD", [RDNA3_FMT_VINTERP] = "VINTERP",
    [RDNA3_FMT_LDSDIR] = "LDSDIR", [RDNA3_FMT_DS] = "DS", [RDNA3_FMT_FLAT] = "FLAT",
    [RDNA3_FMT_GLOBAL] = "GLOBAL", [RDNA3_FMT_SCRATCH] = "SCRATCH", [RDNA3_FMT_MUBUF] = "MUBUF",
    [RDNA3_FMT_MTBUF] = "MTBUF", [RDNA3_FMT_MIMG] = "MIMG", [RDNA3_FMT_EXP] = "EXP",
};

const char *rdna3_format_name(unsigned fmt)
{
    return fmt < RDNA3_FMT_COUNT && fmt_names[fmt] ? fmt_names[fmt] : "unknown";
}

static rdna3_table table_of(unsigned fmt)
{
    switch (fmt) {
    case RDNA3_FMT_SOP1: return RDNA3_T_SOP1;
    case RDNA3_FMT_SOP2: return RDNA3_T_SOP2;
    case RDNA3_FMT_SOPK: return RDNA3_T_SOPK;
    case RDNA3_FMT_SOPC: return RDNA3_T_SOPC;
    case RDNA3_FMT_SOPP: return RDNA3_T_SOPP;
    case RDNA3_FMT_SMEM: return RDNA3_T_SMEM;
    case RDNA3_FMT_VOP1: return RDNA3_T_VOP1;
    case RDNA3_FMT_VOP2: return RDNA3_T_VOP2;
    case RDNA3_FMT_VOPC: return RDNA3_T_VOPC;
    case RDNA3_FMT_VOP3: case RDNA3_FMT_VOP3SD: return RDNA3_T_VOP3;
    case RDNA3_FMT_VOP3P: return RDNA3_T_VOP3P;
    case RDNA3_FMT_VOPD: return RDNA3_T_VOPDX;
    case RDNA3_FMT_DS: return RDNA3_T_DS;
    case RDNA3_FMT_FLAT: return RDNA3_T_FLAT;
    case RDNA3_FMT_GLOBAL: return RDNA3_T_GLOBAL;
    case RDNA3_FMT_SCRATCH: return RDNA3_T_SCRATCH;
    case RDNA3_FMT_MUBUF: return RDNA3_T_MUBUF;
    case RDNA3_FMT_MTBUF: return RDNA3_T_MTBUF;
    case RDNA3_FMT_MIMG: return RDNA3_T_MIMG;
    default: return RDNA3_T_COUNT;
    }
}

const rdna3_opinfo *rdna3_inst_info(const rdna3_inst *in)
{
    rdna3_table t = table_of(in->fmt);
    return t == RDNA3_T_COUNT ? NULL : rdna3_opinfo_get(t, in->op);
}

const char *rdna3_mnemonic(const rdna3_inst *in)
{
    const rdna3_opinfo *oi = rdna3_inst_info(in);
    return oi ? oi->name : "<invalid>";
}

/* Sources the template reads, as a mask of operand slots 0..2. */
static unsigned src_mask(const rdna3_opinfo *oi)
{
    unsigned m = 0;
    for (const char *p = oi->tmpl; *p; p++) {
        if ((p == oi->tmpl || p[-1] == ',') && (p[1] == ',' || p[1] == 0) && p[0] >= '0' && p[0] <= '2')
            m |= 1u << (p[0] - '0');
    }
    return m;
}

/* A source operand encoding that names nothing (reserved) or that only src0 may use. */
static bool bad_src(unsigned e, bool src0)
{
    if (e >= RDNA3_SRC_VGPR0) return false;
    if (e >= 209 && e <= 232) return true;
    if (e == RDNA3_SRC_DPP8 || e == RDNA3_SRC_DPP8FI || e == RDNA3_SRC_DPP16) return !src0;
    return e == 249;
}

static unsigned popcount3(unsigned m) { return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1); }

/* The decode context: words available, and how many the instruction uses so far. */
typedef struct dctx {
    const uint32_t *w;
    unsigned avail, used;
    char *err;
    size_t errlen;
} dctx;

/* A register tuple of n registers starting at operand encoding e (scalar) must fit its file:
 * s0..s105, ttmp0..15, or the vcc/exec/null pairs. Misaligned starts are read aligned down. */
static bool sreg_tuple_ok(unsigned e, unsigned n)
{
    if (n <= 1 || e >= RDNA3_SRC_CONST_ZERO) return true;
    unsigned al = n >= 4 ? 4 : n;
    if (e <= 105) return e / al * al + n - 1 <= 105;
    if (e >= 108 && e <= 123) return (e - 108) / al * al + n - 1 <= 15;
    if (n == 2) return e == RDNA3_SRC_VCC_LO || e == RDNA3_SRC_NULL || e == RDNA3_SRC_EXEC_LO;
    return e == RDNA3_SRC_NULL;
}

/* A misaligned SGPR/TTMP tuple start as the hardware (and llvm-objdump) reads it: aligned down to
 * 2 registers for pairs, 4 for wider tuples. */
static uint16_t align_sreg(unsigned e, unsigned n)
{
    unsigned al = n >= 4 ? 4 : n;
    if (n <= 1) return (uint16_t)e;
    if (e <= 105) return (uint16_t)(e / al * al);
    if (e >= 108 && e <= 123) return (uint16_t)(108 + (e - 108) / al * al);
    return (uint16_t)e;
}

/* Operand encoding e (9-bit source or, with scalar set, an 8-bit scalar field) holding n registers. */
static bool tuple_ok(unsigned e, unsigned n)
{
    if (e >= RDNA3_SRC_VGPR0) return e - RDNA3_SRC_VGPR0 + (n ? n : 1) - 1 <= 255;
    return sreg_tuple_ok(e, n);
}

static bool vgpr_tuple_ok(unsigned r, unsigned n) { return r + (n ? n : 1) - 1 <= 255; }

/* Check the register operands of an ALU instruction against their widths from the table. */
static bool check_tuples(dctx *c, rdna3_inst *in, const rdna3_opinfo *oi, unsigned m)
{
    for (unsigned i = 0; i < 3; i++) {
        if (!(m >> i & 1)) continue;
        unsigned n = rdna3_k_regs(oi->kind[1 + i]);
        if (!tuple_ok(in->src[i], n))
            return fail(c->err, c->errlen, "%s: src%u register tuple out of range", oi->name, i);
        if (in->src[i] < RDNA3_SRC_VGPR0) in->src[i] = align_sreg(in->src[i], n);
    }
    if (strchr(oi->tmpl, 'D')) {
        uint16_t k = oi->kind[0];
        unsigned n = rdna3_k_regs(k);
        bool ok = rdna3_k_scalar(k) ? sreg_tuple_ok(in->vdst, n) : vgpr_tuple_ok(in->vdst, n);
        if (!ok) return fail(c->err, c->errlen, "%s: destination register tuple out of range", oi->name);
        if (rdna3_k_scalar(k)) in->vdst = align_sreg(in->vdst, n);
    }
    return true;
}

static bool check_srcs(dctx *c, const rdna3_inst *in, const char *name, unsigned m, bool dpp_ok)
{
    const rdna3_opinfo *oi = rdna3_inst_info(in);
    for (unsigned i = 0; i < 3; i++) {
        if (!(m >> i & 1)) continue;
        if (bad_src(in->src[i], i == 0 && dpp_ok))
            return fail(c->err, c->errlen, "%s: src%u has the reserved operand encoding %u", name, i, in->src[i]);
        /* LDS direct reads deliver one dword: not a 64-bit or wider operand */
        if (in->src[i] == RDNA3_SRC_LDS_DIRECT && oi && rdna3_k_regs(oi->kind[1 + i]) > 1)
            return fail(c->err, c->errlen, "%s: src_lds_direct cannot be a %u-register operand", name,
                        rdna3_k_regs(oi->kind[1 + i]));
    }
    return true;
}

static bool take(dctx *c, rdna3_inst *in, const char *what)
{
    if (c->used >= c->avail)
        return fail(c->err, c->errlen, "%s %s: truncated, the %s dword is missing (only %u dwords)",
                    rdna3_format_name(in->fmt), rdna3_mnemonic(in), what, c->avail);
    if (c->used < 4) in->raw[c->used] = c->w[c->used];
    c->used++;
    return true;
}

/* A literal dword follows when any source reads encoding 255 (or the opcode has a K constant). */
static bool take_literal(dctx *c, rdna3_inst *in, unsigned mask, bool litk)
{
    bool lit = litk;
    for (unsigned i = 0; i < 3; i++)
        if ((mask >> i & 1) && in->src[i] == RDNA3_SRC_LITERAL) lit = true;
    if (!lit) return true;
    if (!take(c, in, "literal")) return false;
    in->has_literal = 1;
    in->literal = c->w[c->used - 1];
    return true;
}

static bool decode_sop(dctx *c, rdna3_inst *in, const rdna3_opinfo *oi)
{
    uint32_t w = c->w[0];
    unsigned m = src_mask(oi);
    switch (in->fmt) {
    case RDNA3_FMT_SOP2:
        in->src[0] = bits(w, 7, 0); in->src[1] = bits(w, 15, 8); in->vdst = bits(w, 22, 16);
        break;
    case RDNA3_FMT_SOP1:
        in->src[0] = bits(w, 7, 0); in->vdst = bits(w, 22, 16);
        break;
    case RDNA3_FMT_SOPC:
        in->src[0] = bits(w, 7, 0); in->src[1] = bits(w, 15, 8);
        break;
    case RDNA3_FMT_SOPK:
        in->simm16 = (uint16_t)bits(w, 15, 0); in->vdst = bits(w, 22, 16);
        break;
    default: /* SOPP */
        in->simm16 = (uint16_t)bits(w, 15, 0);
        break;
    }
    /* SOP1 s_sendmsg_rtn reads its message id from the src0 field: not a register. */
    if (in->fmt == RDNA3_FMT_SOP1 && strncmp(oi->name, "s_sendmsg_rtn", 13) == 0) {
        in->simm16 = in->src[0];
        in->src[0] = 0;
        m = 0;
    }
    in->nsrc = (uint8_t)popcount3(m);
    if (!check_srcs(c, in, oi->name, m, false)) return false;
    for (unsigned i = 0; i < 2; i++)
        if ((m >> i & 1) && in->src[i] == RDNA3_SRC_LDS_DIRECT)
            return fail(c->err, c->errlen, "%s: src_lds_direct is not a scalar operand", oi->name);
    if (!check_tuples(c, in, oi, m)) return false;
    if (in->fmt == RDNA3_FMT_SOPP && !oi->tmpl[0] && in->simm16)
        return fail(c->err, c->errlen, "%s takes no immediate (0x%x)", oi->name, in->simm16);
    return take_literal(c, in, m, (oi->flags & RDNA3_F_LITK) != 0);
}

static bool decode_smem(dctx *c, rdna3_inst *in, const rdna3_opinfo *oi)
{
    uint32_t w0 = c->w[0];
    if (!take(c, in, "second")) return false;
    uint32_t w1 = c->w[1];
    in->saddr = (uint16_t)(bits(w0, 5, 0) << 1);
    in->vdst = bits(w0, 12, 6);
    in->dlc = bits(w0, 13, 13);
    in->glc = bits(w0, 14, 14);
    in->offset = (int32_t)(w1 << 11) >> 11;      /* 21-bit signed */
    in->soffset = bits(w1, 31, 25);
    if (!oi->tmpl[0]) {     /* cache invalidations: the operand fields are ignored, glc/dlc are not */
        if (in->glc || in->dlc) return fail(c->err, c->errlen, "%s takes no glc/dlc", oi->name);
        return true;
    }
    bool buffer = strstr(oi->name, "buffer") != NULL;
    if (!strncmp(oi->name, "s_atc_probe", 11) && (in->glc || in->dlc))
        return fail(c->err, c->errlen, "%s takes no glc/dlc", oi->name);
    if (!sreg_tuple_ok(in->saddr, buffer ? 4 : 2) ||
        (strchr(oi->tmpl, 'D') && !sreg_tuple_ok(in->vdst, rdna3_k_regs(oi->kind[0]))))
        return fail(c->err, c->errlen, "%s: scalar register tuple out of range", oi->name);
    in->saddr = align_sreg(in->saddr, buffer ? 4 : 2);
    if (strchr(oi->tmpl, 'D')) in->vdst = align_sreg(in->vdst, rdna3_k_regs(oi->kind[0]));
    return true;
}

/* DPP16 / DPP8 dword of a VOP1/VOP2/VOPC/VOP3 whose src0 field is 250 / 233 / 234. */
static bool take_dpp(dctx *c, rdna3_inst *in, const rdna3_opinfo *oi, bool vop3)
{
    unsigned s0 = in->src[0];
    if (s0 == RDNA3_SRC_DPP16) {
        if (!(oi->flags & RDNA3_F_DPP16))
            return fail(c->err, c->errlen, "%s has no DPP16 form", oi->name);
        if (!take(c, in, "DPP16")) return false;
        uint32_t d = c->w[c->used - 1];
        in->dpp = RDNA3_DPP_16;
        in->src[0] = (uint16_t)(RDNA3_SRC_VGPR0 + bits(d, 7, 0));
        in->dpp_ctrl = (uint16_t)bits(d, 16, 8);
        in->fetch_inactive = bits(d, 18, 18);
        in->bound_ctrl = bits(d, 19, 19);
        if (!vop3) {
            unsigned neg = bits(d, 20, 20) | bits(d, 22, 22) << 1, abs = bits(d, 21, 21) | bits(d, 23, 23) << 1;
            unsigned neg_ok = rdna3_f_negm(oi->flags) | (oi->flags & RDNA3_F_SEXT0 ? 1u : 0) | (oi->flags & RDNA3_F_SEXT1 ? 2u : 0);
            if ((neg & ~neg_ok) || (abs & ~rdna3_f_absm(oi->flags)))
                return fail(c->err, c->errlen, "%s DPP: source modifiers not allowed", oi->name);
            in->neg = (uint8_t)neg;
            in->abs = (uint8_t)abs;
        }   /* VOP3 DPP takes its modifiers from the VOP3 dwords; the DPP dword's are ignored */
        in->bank_mask = bits(d, 27, 24);
        in->row_mask = bits(d, 31, 28);
        return true;
    }
    if (s0 == RDNA3_SRC_DPP8 || s0 == RDNA3_SRC_DPP8FI) {
        if (!(oi->flags & RDNA3_F_DPP8))
            return fail(c->err, c->errlen, "%s has no DPP8 form", oi->name);
        if (!take(c, in, "DPP8")) return false;
        uint32_t d = c->w[c->used - 1];
        in->dpp = RDNA3_DPP_8;
        in->fetch_inactive = s0 == RDNA3_SRC_DPP8FI;
        in->src[0] = (uint16_t)(RDNA3_SRC_VGPR0 + bits(d, 7, 0));
        in->dpp8_sel = bits(d, 31, 8);
        return true;
    }
    return true;
}

static bool is_dpp_src(unsigned s) { return s == RDNA3_SRC_DPP16 || s == RDNA3_SRC_DPP8 || s == RDNA3_SRC_DPP8FI; }

static bool decode_vop_e32(dctx *c, rdna3_inst *in, const rdna3_opinfo *oi)
{
    uint32_t w = c->w[0];
    unsigned m = src_mask(oi);
    in->src[0] = bits(w, 8, 0);
    if (in->fmt == RDNA3_FMT_VOP1) {
        in->vdst = bits(w, 24, 17);
    } else {
        in->src[1] = (uint16_t)(RDNA3_SRC_VGPR0 + bits(w, 16, 9));
        if (in->fmt == RDNA3_FMT_VOP2) in->vdst = bits(w, 24, 17);
    }
    if (in->fmt == RDNA3_FMT_VOPC && !strncmp(oi->tmpl, "vcc_lo", 6)) {
        /* e32 compares write VCC (v_cmpx writes EXEC only and has no destination). */
        in->vdst = RDNA3_SRC_VCC_LO;
        in->sdst = RDNA3_SRC_VCC_LO;
    }
    /* v_readfirstlane and friends write an SGPR: vdst is then a scalar encoding. */
    in->nsrc = (uint8_t)popcount3(m);
    if (!(m & 1)) in->src[0] = 0;      /* v_nop, v_pipeflush: the field is ignored */
    if (in->fmt == RDNA3_FMT_VOP1 && !strchr(oi->tmpl, 'D') && in->vdst)
        return fail(c->err, c->errlen, "%s: vdst field must be 0", oi->name);
    if (!check_srcs(c, in, oi->name, m & 1, true)) return false;
    if (in->fmt != RDNA3_FMT_VOPC && !check_tuples(c, in, oi, m & 1)) return false;
    if (in->fmt != RDNA3_FMT_VOP1 && !vgpr_tuple_ok(bits(w, 16, 9), rdna3_k_regs(oi->kind[2])))
        return fail(c->err, c->errlen, "%s: vsrc1 register tuple out of range", oi->name);
    if (in->fmt == RDNA3_FMT_VOPC && !tuple_ok(in->src[0], rdna3_k_regs(oi->kind[1])))
        return fail(c->err, c->errlen, "%s: src0 register tuple out of range", oi->name);
    if (in->fmt == RDNA3_FMT_VOPC && in->src[0] < RDNA3_SRC_VGPR0) in->src[0] = align_sreg(in->src[0], rdna3_k_regs(oi->kind[1]));
    unsigned lo = rdna3_f_lo128(oi->flags);
    bool sdst = strchr(oi->tmpl, 'D') && rdna3_k_scalar(oi->kind[0]);   /* v_readfirstlane */
    if (sdst && bad_src(in->vdst, false))
        return fail(c->err, c->errlen, "%s: invalid scalar destination %u", oi->name, in->vdst);
    if (((lo & 1) && !sdst && bits(w, 24, 17) >= 128 && in->fmt != RDNA3_FMT_VOPC) ||
        ((lo & 2) && in->src[0] >= RDNA3_SRC_VGPR0 + 128) || ((lo & 4) && bits(w, 16, 9) >= 128))
        return fail(c->err, c->errlen, "%s: 16-bit operand register above v127", oi->name);
    if (is_dpp_src(in->src[0])) return take_dpp(c, in, oi, false);
    return take_literal(c, in, m, (oi->flags & RDNA3_F_LITK) != 0);
}

/* Modifier bits the opcode does not have are rejected, as llvm-objdump does. */
static bool check_mods(dctx *c, rdna3_inst *in, const rdna3_opinfo *oi, unsigned m)
{
    uint64_t f = oi->flags;
    if (in->abs & ~((rdna3_f_absm(f) | rdna3_f_absign(f)) & m)) return fail(c->err, c->errlen, "%s: abs modifier not allowed", oi->name);
    if (in->neg & ~((rdna3_f_negm(f) | rdna3_f_negign(f)) & m)) return fail(c->err, c->errlen, "%s: neg modifier not allowed", oi->name);
    in->abs &= (uint8_t)rdna3_f_absm(f);    /* bits the opcode accepts but ignores */
    in->neg &= (uint8_t)rdna3_f_negm(f);
    if (in->clamp && !(f & RDNA3_F_CLAMP)) return fail(c->err, c->errlen, "%s: clamp not allowed", oi->name);
    if (in->omod && !(f & RDNA3_F_OMOD)) return fail(c->err, c->errlen, "%s: omod not allowed", oi->name);
    if (in->opsel & ~rdna3_f_opselokm(f))
        return fail(c->err, c->errlen, "%s: op_sel not allowed", oi->name);
    in->opsel &= (uint8_t)rdna3_f_opselpm(f);   /* bits meaningless for this opcode */
    return true;
}

static bool decode_vop3(dctx *c, rdna3_inst *in, const rdna3_opinfo *oi)
{
    uint32_t w0 = c->w[0];
    if (!take(c, in, "second")) return false;
    uint32_t w1 = c->w[1];
    unsigned m = src_mask(oi);
    in->vdst = bits(w0, 7, 0);
    in->clamp = bits(w0, 15, 15);
    if (oi->flags & RDNA3_F_SD) {
        in->fmt = RDNA3_FMT_VOP3SD;
        in->sdst = bits(w0, 14, 8);
    } else {
        in->abs = bits(w0, 10, 8);
        in->opsel = bits(w0, 14, 11);
    }
    in->src[0] = bits(w1, 8, 0);
    in->src[1] = bits(w1, 17, 9);
    in->src[2] = bits(w1, 26, 18);
    in->omod = bits(w1, 28, 27);
    in->neg = bits(w1, 31, 29);
    in->nsrc = (uint8_t)popcount3(m);
    for (unsigned i = 0; i < 3; i++)
        if (!(m >> i & 1) && in->src[i] != 0)
            return fail(c->err, c->errlen, "%s: unused src%u field must be 0", oi->name, i);
    if (!check_mods(c, in, oi, m)) return false;
    if (!check_srcs(c, in, oi->name, m, true)) return false;
    if (!check_tuples(c, in, oi, is_dpp_src(in->src[0]) ? m & 6 : m)) return false;
    if (is_dpp_src(in->src[0])) return take_dpp(c, in, oi, true);
    return take_literal(c, in, m, false);
}

static bool decode_vop3p(dctx *c, rdna3_inst *in, const rdna3_opinfo *oi)
{
    uint32_t w0 = c->w[0];
    if (!take(c, in, "second")) return false;
    uint32_t w1 = c->w[1];
    unsigned m = src_mask(oi);
    if (bits(w0, 23, 23)) return fail(c->err, c->errlen, "%s: reserved bit 23 of VOP3P set", oi->name);
    in->vdst = bits(w0, 7, 0);
    in->neg_hi = bits(w0, 10, 8);
    in->opsel = bits(w0, 13, 11);
    in->opsel_hi = (uint8_t)(bits(w1, 28, 27) | bits(w0, 14, 14) << 2);
    in->clamp = bits(w0, 15, 15);
    in->src[0] = bits(w1, 8, 0);
    in->src[1] = bits(w1, 17, 9);
    in->src[2] = bits(w1, 26, 18);
    in->neg = bits(w1, 31, 29);
    in->nsrc = (uint8_t)popcount3(m);
    for (unsigned i = 0; i < 3; i++)
        if (!(m >> i & 1) && in->src[i] != 0)
            return fail(c->err, c->errlen, "%s: unused src%u field must be 0", oi->name, i);
    uint64_t f = oi->flags;
    if (in->clamp && !(f & RDNA3_F_CLAMP)) return fail(c->err, c->errlen, "%s: clamp not allowed", oi->name);
    if (in->opsel & ~rdna3_f_opselm(f)) return fail(c->err, c->errlen, "%s: op_sel not allowed", oi->name);
    if ((in->opsel_hi ^ 7) & ~rdna3_f_opselhim(f) & m) return fail(c->err, c->errlen, "%s: op_sel_hi not allowed", oi->name);
    if (in->neg & ~rdna3_f_negm(f)) return fail(c->err, c->errlen, "%s: neg_lo not allowed", oi->name);
    if (in->neg_hi & ~rdna3_f_neghim(f)) return fail(c->err, c->errlen, "%s: neg_hi not allowed", oi->name);
    if (!check_srcs(c, in, oi->name, m, true)) return false;
    if (!check_tuples(c, in, oi, is_dpp_src(in->src[0]) ? m & 6 : m)) return false;
    if (is_dpp_src(in->src[0])) return take_dpp(c, in, oi, true);
    return take_literal(c, in, m, false);
}

static bool decode_vopd(dctx *c, rdna3_inst *in, const rdna3_opinfo *ox)
{
    uint32_t w0 = c->w[0];
    if (!take(c, in, "second")) return false;
    uint32_t w1 = c->w[1];
    in->opy = (uint16_t)bits(w0, 21, 17);
    const rdna3_opinfo *oy = rdna3_opinfo_get(RDNA3_T_VOPDY, in->opy);
    if (!oy) return fail(c->err, c->errlen, "VOPD: invalid Y opcode %u", in->opy);
    in->src[0] = bits(w0, 8, 0);
    in->src[1] = (uint16_t)(RDNA3_SRC_VGPR0 + bits(w0, 16, 9));
    in->srcy[0] = bits(w1, 8, 0);
    in->srcy[1] = (uint16_t)(RDNA3_SRC_VGPR0 + bits(w1, 16, 9));
    in->vdst = bits(w1, 31, 24);
    /* vdstY stores bits 7:1; bit 0 is the complement of vdstX's (the halves use different banks). */
    in->vdsty = (uint16_t)(bits(w1, 23, 17) << 1 | ((in->vdst & 1) ^ 1));
    unsigned mx = src_mask(ox), my = src_mask(oy);
    in->nsrc = (uint8_t)popcount3(mx);
    if (!(mx & 2) && bits(w0, 16, 9)) return fail(c->err, c->errlen, "%s: unused vsrc1 field must be 0", ox->name);
    if (!(my & 2) && bits(w1, 16, 9)) return fail(c->err, c->errlen, "%s: unused vsrc1 field must be 0", oy->name);
    if (!(mx & 2)) in->src[1] = 0;
    if (!(my & 2)) in->srcy[1] = 0;
    bool lit = (ox->flags | oy->flags) & RDNA3_F_LITK;
    if (in->src[0] == RDNA3_SRC_LITERAL || in->srcy[0] == RDNA3_SRC_LITERAL) lit = true;
    if (bad_src(in->src[0], false) || bad_src(in->srcy[0], false))
        return fail(c->err, c->errlen, "VOPD: reserved or DPP source operand encoding");
    if (lit) {
        if (!take(c, in, "literal")) return false;
        in->has_literal = 1;
        in->literal = c->w[c->used - 1];
    }
    return true;
}

static bool decode_ds(dctx *c, rdna3_inst *in, const rdna3_opinfo *oi)
{
    uint32_t w0 = c->w[0];
    if (!take(c, in, "second")) return false;
    uint32_t w1 = c->w[1];
    in->offset = (int32_t)bits(w0, 7, 0);
    in->offset1 = (uint8_t)bits(w0, 15, 8);
    in->gds = bits(w0, 17, 17);
    in->addr = bits(w1, 7, 0);
    in->data0 = bits(w1, 15, 8);
    in->data1 = bits(w1, 23, 16);
    in->vdst = bits(w1, 31, 24);
    if (in->gds && !(oi->flags & RDNA3_F_GDS)) return fail(c->err, c->errlen, "%s: gds not allowed", oi->name);
    /* GWS and the other GDS-only opcodes are invalid encodings without gds (llvm-objdump-19 too) */
    if (!in->gds && (oi->flags & RDNA3_F_GDSONLY))
        return fail(c->err, c->errlen, "invalid DS opcode %u without gds in encoding 0x%08x", in->op, w0);
    /* fields the opcode does not use must be 0 */
    static const char fields[4] = { 'D', 'A', '0', '1' };
    const uint16_t vals[4] = { in->vdst, in->addr, in->data0, in->data1 };
    for (unsigned i = 0; i < 4; i++)
        if (vals[i] && !strchr(oi->tmpl, fields[i]))
            return fail(c->err, c->errlen, "%s: unused %s field must be 0", oi->name,
                        i == 0 ? "vdst" : i == 1 ? "addr" : i == 2 ? "data0" : "data1");
    for (unsigned i = 0; i < 4; i++)
        if (strchr(oi->tmpl, fields[i]) && !vgpr_tuple_ok(vals[i], rdna3_k_regs(oi->kind[i])))
            return fail(c->err, c->errlen, "%s: register tuple out of range", oi->name);
    return true;
}

static bool decode_flat(dctx *c, rdna3_inst *in, const rdna3_opinfo *oi)
{
    uint32_t w0 = c->w[0];
    if (!take(c, in, "second")) return false;
    uint32_t w1 = c->w[1];
    if (in->fmt == RDNA3_FMT_FLAT)
        in->offset = (int32_t)bits(w0, 11, 0);        /* FLAT ignores the offset MSB */
    else
        in->offset = (int32_t)(w0 << 19) >> 19;       /* 13-bit signed */
    in->dlc = bits(w0, 13, 13);
    in->glc = bits(w0, 14, 14);
    in->slc = bits(w0, 15, 15);
    in->addr = bits(w1, 7, 0);
    in->data0 = bits(w1, 15, 8);
    in->saddr = bits(w1, 22, 16);
    in->sve = bits(w1, 23, 23);
    in->vdst = bits(w1, 31, 24);
    if (in->fmt == RDNA3_FMT_FLAT && (in->saddr != RDNA3_SRC_NULL || in->sve))
        return fail(c->err, c->errlen, "FLAT: saddr must be off and sve 0");
    if (in->fmt == RDNA3_FMT_GLOBAL && (in->sve || in->saddr == RDNA3_SRC_M0))
        return fail(c->err, c->errlen, "GLOBAL: sve must be 0 and saddr an SGPR pair or off");
    if (in->fmt == RDNA3_FMT_GLOBAL && in->saddr != RDNA3_SRC_NULL && !sreg_tuple_ok(in->saddr, 2))
        return fail(c->err, c->errlen, "GLOBAL: saddr pair out of range");
    if (in->fmt == RDNA3_FMT_GLOBAL && in->saddr != RDNA3_SRC_NULL) in->saddr = align_sreg(in->saddr, 2);
    unsigned an = (in->fmt == RDNA3_FMT_FLAT || (in->fmt == RDNA3_FMT_GLOBAL && in->saddr == RDNA3_SRC_NULL)) ? 2 : 1;
    unsigned dn = rdna3_k_regs(oi->kind[0]);
    if ((oi->flags & RDNA3_F_ATOMIC) && in->glc) dn = rdna3_k_regs(oi->kind[2]) / (strstr(oi->name, "cmpswap") ? 2 : 1);
    if (!vgpr_tuple_ok(in->addr, an) || (strchr(oi->tmpl, '0') && !vgpr_tuple_ok(in->data0, rdna3_k_regs(oi->kind[2]))) ||
        !vgpr_tuple_ok(in->vdst, dn))
        return fail(c->err, c->errlen, "%s: register tuple out of range", oi->name);
    return true;
}

static bool decode_buf(dctx *c, rdna3_inst *in, const rdna3_opinfo *oi)
{
    uint32_t w0 = c->w[0];
    if (!take(c, in, "second")) return false;
    uint32_t w1 = c->w[1];
    in->offset = (int32_t)bits(w0, 11, 0);
    in->slc = bits(w0, 12, 12);
    in->dlc = bits(w0, 13, 13);
    in->glc = bits(w0, 14, 14);
    if (in->fmt == RDNA3_FMT_MTBUF) in->mem_format = (uint8_t)bits(w0, 25, 19);
    in->addr = bits(w1, 7, 0);
    in->data0 = bits(w1, 15, 8);
    in->saddr = (uint16_t)(bits(w1, 20, 16) << 2);
    in->tfe = bits(w1, 21, 21);
    in->offen = bits(w1, 22, 22);
    in->idxen = bits(w1, 23, 23);
    in->soffset = bits(w1, 31, 24);
    unsigned so = in->soffset;
    if ((so >= 209 && so <= 234) || so == 249 || so == 250)
        return fail(c->err, c->errlen, "%s: invalid soffset operand %u", oi->name, so);
    if (oi->tmpl[0]) {
        unsigned dn = rdna3_k_regs(oi->kind[0]) + (in->tfe ? 1 : 0);
        if (!sreg_tuple_ok(in->saddr, 4) || !vgpr_tuple_ok(in->data0, dn) ||
            !vgpr_tuple_ok(in->addr, in->offen && in->idxen ? 2 : 1))
            return fail(c->err, c->errlen, "%s: register tuple out of range", oi->name);
    }
    if (so == 255) {       /* a literal soffset follows */
        if (!take(c, in, "literal")) return false;
        in->has_literal = 1;
        in->literal = c->w[c->used - 1];
    }
    if (in->tfe && (in->fmt == RDNA3_FMT_MTBUF || in->op > 0x27))
        return fail(c->err, c->errlen, "%s: tfe not allowed", oi->name);
    if (!oi->tmpl[0] && (in->glc || in->dlc || in->tfe || in->offen || in->idxen))
        return fail(c->err, c->errlen, "%s takes no glc/dlc/tfe/offen/idxen", oi->name);
    return true;
}

/* MIMG: 64 bits, plus one dword of NSA address registers (gfx11: up to 5 addresses; the
 * fifth holds the remaining components as a tuple, "partial NSA"). */
static bool decode_mimg(dctx *c, rdna3_inst *in, const rdna3_opinfo *oi)
{
    uint32_t w0 = c->w[0];
    if (!take(c, in, "second")) return false;
    uint32_t w1 = c->w[1];
    in->nsa = bits(w0, 0, 0);
    in->dim = bits(w0, 4, 2);
    in->unorm = bits(w0, 7, 7);
    in->dmask = bits(w0, 11, 8);
    in->slc = bits(w0, 12, 12);
    in->dlc = bits(w0, 13, 13);
    in->glc = bits(w0, 14, 14);
    in->r128 = bits(w0, 15, 15);
    in->a16 = bits(w0, 16, 16);
    in->d16 = bits(w0, 17, 17);
    in->vaddr[0] = (uint8_t)bits(w1, 7, 0);
    in->addr = in->vaddr[0];
    in->data0 = bits(w1, 15, 8);
    in->saddr = (uint16_t)(bits(w1, 20, 16) << 2);
    in->tfe = bits(w1, 21, 21);
    in->lwe = bits(w1, 22, 22);
    in->ssamp = (uint16_t)(bits(w1, 30, 26) << 2);
    bool bvh = rdna3_mimg_has(oi, 'Y');
    if (in->ssamp && !rdna3_mimg_has(oi, 'S'))
        return fail(c->err, c->errlen, "%s takes no sampler (ssamp field is %u)", oi->name, in->ssamp);
    if (bvh) in->naddr = (uint8_t)((in->op == 0x1a ? 12 : 11) - (in->a16 ? 3 : 0));
    else in->naddr = (uint8_t)rdna3_mimg_addr_dwords(oi, in->dim, in->a16);
    if (in->nsa) {
        if (!take(c, in, "NSA address")) return false;
        uint32_t w2 = c->w[2];
        for (unsigned i = 1; i < 5; i++) in->vaddr[i] = (uint8_t)(w2 >> (8 * (i - 1)));
        for (unsigned i = 0; i < 5 && i < in->naddr; i++) {
            unsigned n = (i == 4 && in->naddr > 5) ? in->naddr - 4u : 1u;
            if (!vgpr_tuple_ok(in->vaddr[i], n))
                return fail(c->err, c->errlen, "%s: address register tuple out of range", oi->name);
        }
    } else if (!vgpr_tuple_ok(in->vaddr[0], in->naddr)) {
        return fail(c->err, c->errlen, "%s: address register tuple out of range", oi->name);
    }
    if (in->d16 && strcmp(oi->name, "image_get_lod") == 0)   /* its result is two floats */
        return fail(c->err, c->errlen, "%s takes no d16", oi->name);
    unsigned dn = bvh ? 4u : rdna3_mimg_vdata_regs(oi, in->dmask, in->d16, in->tfe);
    if (!vgpr_tuple_ok(in->data0, dn))
        return fail(c->err, c->errlen, "%s: data register tuple out of range", oi->name);
    return true;
}

static unsigned opcode_of(uint32_t w, rdna3_format f)
{
    switch (f) {
    case RDNA3_FMT_SOP1: return bits(w, 15, 8);
    case RDNA3_FMT_SOP2: return bits(w, 29, 23);
    case RDNA3_FMT_SOPK: return bits(w, 27, 23);
    case RDNA3_FMT_SOPC: case RDNA3_FMT_SOPP: return bits(w, 22, 16);
    case RDNA3_FMT_SMEM: return bits(w, 25, 18);
    case RDNA3_FMT_VOP1: return bits(w, 16, 9);
    case RDNA3_FMT_VOP2: return bits(w, 30, 25);
    case RDNA3_FMT_VOPC: return bits(w, 24, 17);
    case RDNA3_FMT_VOP3: return bits(w, 25, 16);
    case RDNA3_FMT_VOP3P: return bits(w, 22, 16);
    case RDNA3_FMT_VOPD: return bits(w, 25, 22);
    case RDNA3_FMT_DS: return bits(w, 25, 18);
    case RDNA3_FMT_FLAT: case RDNA3_FMT_GLOBAL: case RDNA3_FMT_SCRATCH: return bits(w, 24, 18);
    case RDNA3_FMT_MUBUF: return bits(w, 25, 18);
    case RDNA3_FMT_MTBUF: return bits(w, 18, 15);
    case RDNA3_FMT_MIMG: return bits(w, 25, 18);
    default: return 0;
    }
}

static bool decode_body(dctx *c, rdna3_inst *in, const rdna3_opinfo *oi)
{
    switch (in->fmt) {
    case RDNA3_FMT_SOP1: case RDNA3_FMT_SOP2: case RDNA3_FMT_SOPK: case RDNA3_FMT_SOPC: case RDNA3_FMT_SOPP:
        return decode_sop(c, in, oi);
    case RDNA3_FMT_SMEM: return decode_smem(c, in, oi);
    case RDNA3_FMT_VOP1: case RDNA3_FMT_VOP2: case RDNA3_FMT_VOPC: return decode_vop_e32(c, in, oi);
    case RDNA3_FMT_VOP3: return decode_vop3(c, in, oi);
    case RDNA3_FMT_VOP3P: return decode_vop3p(c, in, oi);
    case RDNA3_FMT_VOPD: return decode_vopd(c, in, oi);
    case RDNA3_FMT_DS: return decode_ds(c, in, oi);
    case RDNA3_FMT_FLAT: case RDNA3_FMT_GLOBAL: case RDNA3_FMT_SCRATCH: return decode_flat(c, in, oi);
    case RDNA3_FMT_MUBUF: case RDNA3_FMT_MTBUF: return decode_buf(c, in, oi);
    case RDNA3_FMT_MIMG: return decode_mimg(c, in, oi);
    default: return fail(c->err, c->errlen, "unsupported encoding family");
    }
}

bool rdna3_decode(const uint32_t *words, unsigned avail, rdna3_inst *in, char *err, size_t errlen)
{
    memset(in, 0, sizeof *in);
    if (!words || avail == 0) return fail(err, errlen, "no instruction dword to decode");
    uint32_t w = words[0];
    in->raw[0] = w;
    rdna3_format f = family_of(w);
    if (f == RDNA3_FMT_INVALID || table_of(f) == RDNA3_T_COUNT)
        return fail(err, errlen, "invalid or unsupported gfx11 encoding 0x%08x (%s family)", w, rdna3_format_name(f));
    in->fmt = (uint8_t)f;
    in->op = (uint16_t)opcode_of(w, f);
    const rdna3_opinfo *oi = rdna3_opinfo_get(table_of(f), in->op);
    if (!oi) return fail(err, errlen, "invalid %s opcode %u in encoding 0x%08x", rdna3_format_name(f), in->op, w);
    dctx c = { words, avail, 1, err, errlen };
    if (!decode_body(&c, in, oi)) {
        uint8_t fmt = in->fmt;
        memset(in, 0, sizeof *in);
        in->raw[0] = w;
        in->fmt = fmt;
        return false;
    }
    in->size = (uint8_t)(4 * c.used);
    in->insn_class = oi->cls;
    rdna3_exec_fn fn = rdna3_alu_handler(in);
    if (!fn) fn = rdna3_mem_handler(in);
    in->exec = fn ? fn : rdna3_exec_unsupported;
    return true;
}

