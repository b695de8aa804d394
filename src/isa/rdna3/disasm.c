/* RDNA3 disassembler: rdna3_inst -> the text llvm-objdump-19 --mcpu=gfx1100 prints.
 *
 * The operand list comes from the opcode row's template (op_tables.def); this file knows how
 * each kind of operand prints (registers, inline constants and literals by operand type,
 * modifiers, DPP controls, memory modifiers) and the special immediates of SOPP/SOPK.
 */
#include "isa/rdna3/op_table.h"
#include "isa/rdna3/mimg.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A bounded string builder: never writes past len, always NUL-terminated. */
typedef struct sbuf {
    char *p;
    size_t len, n;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...)
{
    if (b->n >= b->len) return;
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(b->p + b->n, b->len - b->n, fmt, ap);
    va_end(ap);
    if (r < 0) return;
    b->n += (size_t)r;
    if (b->n >= b->len) b->n = b->len - 1;
}

/* ---- registers ---- */

static void put_range(sbuf *b, const char *pfx, unsigned lo, unsigned n)
{
    if (n <= 1) put(b, "%s%u", pfx, lo);
    else put(b, "%s[%u:%u]", pfx, lo, lo + n - 1);
}

/* A scalar register operand (encodings 0..127 and the named ones), n registers wide. */
static bool put_sreg(sbuf *b, unsigned e, unsigned n)
{
    if (n == 0) n = 1;
    /* a misaligned register tuple is read from the aligned-down register (objdump warns) */
    unsigned al = n >= 4 ? 4 : n;
    if (e <= 105) { put_range(b, "s", e / al * al, n); return true; }
    if (e >= 108 && e <= 123) { put_range(b, "ttmp", (e - 108) / al * al, n); return true; }
    switch (e) {
    case RDNA3_SRC_VCC_LO: put(b, n == 2 ? "vcc" : "vcc_lo"); return true;
    case RDNA3_SRC_VCC_HI: put(b, "vcc_hi"); return true;
    case RDNA3_SRC_NULL: put(b, "null"); return true;
    case RDNA3_SRC_M0: put(b, "m0"); return true;
    case RDNA3_SRC_EXEC_LO: put(b, n == 2 ? "exec" : "exec_lo"); return true;
    case RDNA3_SRC_EXEC_HI: put(b, "exec_hi"); return true;
    default: return false;
    }
}

/* ---- constants ---- */

static const char *const fconst[8] = { "0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0" };
static const uint32_t f32c[8] = { 0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000 };
static const uint16_t f16c[8] = { 0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400 };
static const uint16_t bf16c[8] = { 0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000, 0xc000, 0x4080, 0xc080 };
static const uint64_t f64c[8] = { 0x3fe0000000000000ull, 0xbfe0000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
                                  0x4000000000000000ull, 0xc000000000000000ull, 0x4010000000000000ull, 0xc010000000000000ull };

static bool put_f32_special(sbuf *b, uint32_t v)
{
    for (int i = 0; i < 8; i++) if (v == f32c[i]) { put(b, "%s", fconst[i]); return true; }
    if (v == 0x3e22f983) { put(b, "0.15915494"); return true; }
    return false;
}
static bool put_f16_special(sbuf *b, uint32_t v)
{
    for (int i = 0; i < 8; i++) if (v == f16c[i]) { put(b, "%s", fconst[i]); return true; }
    if (v == 0x3118) { put(b, "0.15915494"); return true; }
    return false;
}
static bool put_bf16_special(sbuf *b, uint32_t v)
{
    for (int i = 0; i < 8; i++) if (v == bf16c[i]) { put(b, "%s", fconst[i]); return true; }
    if (v == 0x3e22) { put(b, "0.15915494"); return true; }
    return false;
}
static bool inline_int(int64_t v) { return v >= -16 && v <= 64; }

/* A 32-bit value as LLVM prints an immediate of operand type ty. */
static void put_imm(sbuf *b, uint32_t v, unsigned ty, bool literal)
{
    switch (ty) {
    case RDNA3_TY_F16:
        if (inline_int((int16_t)v)) put(b, "%d", (int16_t)v);
        else if (!put_f16_special(b, v & 0xffff)) put(b, "0x%x", v & 0xffff);
        return;
    case RDNA3_TY_BF16:
        if (inline_int((int16_t)v)) put(b, "%d", (int16_t)v);
        else if (!put_bf16_special(b, v & 0xffff)) put(b, "0x%x", v & 0xffff);
        return;
    case RDNA3_TY_I16:
        if (inline_int((int32_t)v)) put(b, "%d", (int32_t)v);
        else if (!put_f32_special(b, v)) put(b, "0x%x", v & 0xffff);
        return;
    case RDNA3_TY_V2F16:
    case RDNA3_TY_V2B16:
        if (inline_int((int32_t)v)) { put(b, "%d", (int32_t)v); return; }
        if (v <= 0xffff) {
            if (ty == RDNA3_TY_V2F16 ? put_f16_special(b, v) : put_bf16_special(b, v)) return;
        }
        put(b, "0x%x", v);
        return;
    case RDNA3_TY_I64:
        if (inline_int((int64_t)v)) put(b, "%u", v);
        else put(b, "0x%x", v);
        return;
    case RDNA3_TY_F64: {
        /* a 32-bit literal of a double operand is its high half */
        uint64_t d = literal ? (uint64_t)v << 32 : v;
        if (!literal && inline_int((int32_t)v)) { put(b, "%d", (int32_t)v); return; }
        for (int i = 0; i < 8; i++) if (d == f64c[i]) { put(b, "%s", fconst[i]); return; }
        if (d == 0x3fc45f306dc9c882ull) { put(b, "0.15915494309189532"); return; }
        put(b, "0x%x", v);
        return;
    }
    default:
        if (inline_int((int32_t)v)) put(b, "%d", (int32_t)v);
        else if (!put_f32_special(b, v)) put(b, "0x%x", v);
        return;
    }
}

/* An inline constant encoding 240..248 of type ty. */
static void put_inline_float(sbuf *b, unsigned e, unsigned ty)
{
    unsigned i = e - RDNA3_SRC_F_HALF;
    switch (ty) {
    case RDNA3_TY_I16:
        put(b, "0x%x", e == RDNA3_SRC_INV_2PI ? 0x3118u : f16c[i]);
        return;
    case RDNA3_TY_I64: case RDNA3_TY_F64:
        put(b, "%s", e == RDNA3_SRC_INV_2PI ? "0.15915494309189532" : fconst[i]);
        return;
    default:
        put(b, "%s", e == RDNA3_SRC_INV_2PI ? "0.15915494" : fconst[i]);
        return;
    }
}

/* Any 8/9-bit source operand encoding with kind k. */
static void put_src(sbuf *b, const rdna3_inst *in, unsigned e, uint16_t k)
{
    unsigned n = rdna3_k_regs(k), ty = rdna3_k_type(k);
    if (e >= RDNA3_SRC_VGPR0) {
        unsigned r = e - RDNA3_SRC_VGPR0;
        if (k & RDNA3_KT16) put(b, "v%u.%c", r & 127, (r & 128) ? 'h' : 'l');
        else put_range(b, "v", r, n);
        return;
    }
    if (put_sreg(b, e, n)) return;
    if (e >= RDNA3_SRC_CONST_ZERO && e <= 192) { put(b, "%u", e - RDNA3_SRC_CONST_ZERO); return; }
    if (e >= RDNA3_SRC_CONST_NEG1 && e <= 208) { put(b, "%d", -(int)(e - 192)); return; }
    if (e >= RDNA3_SRC_F_HALF && e <= RDNA3_SRC_INV_2PI) { put_inline_float(b, e, ty); return; }
    switch (e) {
    case RDNA3_SRC_SHARED_BASE: put(b, "src_shared_base"); return;
    case RDNA3_SRC_SHARED_LIMIT: put(b, "src_shared_limit"); return;
    case RDNA3_SRC_PRIVATE_BASE: put(b, "src_private_base"); return;
    case RDNA3_SRC_PRIVATE_LIMIT: put(b, "src_private_limit"); return;
    case RDNA3_SRC_POPS_EXITING_WAVE_ID: put(b, "src_pops_exiting_wave_id"); return;
    case RDNA3_SRC_VCCZ: put(b, "src_vccz"); return;
    case RDNA3_SRC_EXECZ: put(b, "src_execz"); return;
    case RDNA3_SRC_SCC: put(b, "src_scc"); return;
    case RDNA3_SRC_LDS_DIRECT: put(b, "src_lds_direct"); return;
    case RDNA3_SRC_LITERAL: put_imm(b, in ? in->literal : 0, ty, true); return;
    default: put(b, "/*invalid operand %u*/", e); return;
    }
}

/* A VGPR-or-SGPR destination of kind k stored as a register number / scalar encoding. */
static void put_dst(sbuf *b, unsigned r, uint16_t k)
{
    if (rdna3_k_scalar(k)) {
        /* objdump names whatever the field holds, constants included */
        if (!put_sreg(b, r, rdna3_k_regs(k))) put_src(b, NULL, r, k);
    } else if (k & RDNA3_KT16) {
        put(b, "v%u.%c", r & 127, (r & 128) ? 'h' : 'l');
    } else {
        put_range(b, "v", r, rdna3_k_regs(k));
    }
}

/* ---- VALU ---- */

static uint64_t oi_flags(const rdna3_inst *in)
{
    const rdna3_opinfo *oi = rdna3_inst_info(in);
    return oi ? oi->flags : 0;
}

static void put_vsrc_mod(sbuf *b, const rdna3_inst *in, unsigned i, unsigned e, uint16_t k)
{
    bool neg = in->neg >> i & 1, abs = in->abs >> i & 1;
    if (neg && !abs && e < RDNA3_SRC_VGPR0 && e >= RDNA3_SRC_CONST_ZERO && e != RDNA3_SRC_LDS_DIRECT &&
        !(e >= RDNA3_SRC_SHARED_BASE && e <= RDNA3_SRC_POPS_EXITING_WAVE_ID) && !(e >= RDNA3_SRC_VCCZ && e <= RDNA3_SRC_SCC)) {
        /* a negated constant prints as neg(...) so that "-1" stays unambiguous */
        put(b, "neg(");
        put_src(b, in, e, k);
        put(b, ")");
        return;
    }
    uint64_t fl = oi_flags(in);
    bool vop3 = in->fmt == RDNA3_FMT_VOP3 || in->fmt == RDNA3_FMT_VOP3SD;
    /* VOP3 DPP keeps neg bits the plain encoding ignores: on integer operands they mean sext */
    if (vop3 && in->dpp && !neg && (in->raw[1] >> (29 + i) & 1) && (rdna3_f_negign(fl) >> i & 1)) neg = true;
    if (neg && ((in->dpp && !vop3 && i < 2 && (fl & (RDNA3_F_SEXT0 << i))) ||
                (vop3 && ((rdna3_f_sextm(fl) | (in->dpp ? rdna3_f_negign(fl) : 0)) >> i & 1)))) {   /* sign-extend */
        put(b, "sext(");
        put_src(b, in, e, k);
        put(b, ")");
        return;
    }
    if (neg) put(b, "-");
    if (abs) put(b, "|");
    put_src(b, in, e, k);
    if (abs) put(b, "|");
}

static void put_bits(sbuf *b, const char *name, unsigned v, unsigned n)
{
    put(b, " %s:[", name);
    for (unsigned i = 0; i < n; i++) put(b, i ? ",%u" : "%u", v >> i & 1);
    put(b, "]");
}

static void put_dpp16(sbuf *b, const rdna3_inst *in)
{
    unsigned c = in->dpp_ctrl;
    if (c <= 0xff) put(b, " quad_perm:[%u,%u,%u,%u]", c & 3, c >> 2 & 3, c >> 4 & 3, c >> 6 & 3);
    else if (c >= 0x101 && c <= 0x10f) put(b, " row_shl:%u", c & 15);
    else if (c >= 0x111 && c <= 0x11f) put(b, " row_shr:%u", c & 15);
    else if (c >= 0x121 && c <= 0x12f) put(b, " row_ror:%u", c & 15);
    else if (c == 0x140) put(b, " row_mirror");
    else if (c == 0x141) put(b, " row_half_mirror");
    else if (c >= 0x150 && c <= 0x15f) put(b, " row_share:%u", c & 15);
    else if (c >= 0x160 && c <= 0x16f) put(b, " row_xmask:%u", c & 15);
    else put(b, " /* invalid dpp_ctrl 0x%x */", c);
    put(b, " row_mask:0x%x bank_mask:0x%x", in->row_mask, in->bank_mask);
    if (in->bound_ctrl) put(b, " bound_ctrl:1");
    if (in->fetch_inactive) put(b, " fi:1");
}

static void put_dpp8(sbuf *b, const rdna3_inst *in)
{
    put(b, " dpp8:[");
    for (unsigned i = 0; i < 8; i++) put(b, i ? ",%u" : "%u", in->dpp8_sel >> (3 * i) & 7);
    put(b, "]");
    if (in->fetch_inactive) put(b, " fi:1");
}

/* Print the operand list of a template; fields come from in, kinds from oi. */
static void put_template(sbuf *b, const rdna3_inst *in, const rdna3_opinfo *oi, const char *tmpl,
                         const uint16_t *src, unsigned vdst, bool mods)
{
    const char *p = tmpl;
    bool first = true;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        put(b, first ? " " : ", ");
        first = false;
        if (n == 1 && p[0] == 'D') put_dst(b, vdst, oi->kind[0]);
        else if (n == 1 && p[0] == 'S') put_sreg(b, in->sdst, 1);
        else if (n == 1 && p[0] >= '0' && p[0] <= '2') {
            unsigned i = (unsigned)(p[0] - '0');
            if (mods) put_vsrc_mod(b, in, i, src[i], oi->kind[1 + i]);
            else put_src(b, in, src[i], oi->kind[1 + i]);
            if (i == 2 && (oi->flags & RDNA3_F_XEXEC2) && (src[2] == RDNA3_SRC_EXEC_LO || src[2] == RDNA3_SRC_EXEC_HI))
                put(b, "/*Invalid register, operand has 'SReg_1_XEXEC' register class*/");
        } else if (n == 1 && p[0] == 'K') {
            put_imm(b, in->literal, RDNA3_TY_B32, true);   /* K prints all 32 bits, even for f16 */
        } else {
            put(b, "%.*s", (int)n, p);
        }
        p += n;
        if (*p == ',') p++;
    }
}

static void disasm_vop(sbuf *b, const rdna3_inst *in, const rdna3_opinfo *oi)
{
    bool vop3 = in->fmt == RDNA3_FMT_VOP3 || in->fmt == RDNA3_FMT_VOP3SD;
    put(b, "%s", oi->name);
    if (vop3) {
        if (in->dpp) put(b, "_e64_dpp");
        else if (oi->flags & RDNA3_F_E64) put(b, "_e64");
    } else if (in->dpp) {
        if (in->fmt != RDNA3_FMT_VOPC) put(b, "_dpp");   /* VOPC DPP prints the bare name */
    } else if (oi->flags & RDNA3_F_E32) {
        put(b, "_e32");
    }
    put_template(b, in, oi, oi->tmpl, in->src, in->vdst, true);
    if (vop3) {
        if ((oi->flags & RDNA3_F_OPSEL) && in->opsel) {
            /* entries for the sources the encoding has, then the destination; v_permlane*16
             * print two entries (fi, bound_ctrl) that are plain op_sel bits 0 and 1 */
            unsigned ne = rdna3_f_opseln(oi->flags), ns = ne - 1;
            unsigned v = ne > in->nsrc ? (in->opsel & ((1u << ns) - 1)) | ((in->opsel >> 3 & 1) << ns)
                                       : in->opsel & ((1u << ne) - 1);
            put_bits(b, "op_sel", v, ne);
        }
        if (in->clamp) put(b, " clamp");
        if (in->omod == 1) put(b, " mul:2");
        else if (in->omod == 2) put(b, " mul:4");
        else if (in->omod == 3) put(b, " div:2");
    }
    if (in->dpp == RDNA3_DPP_16) put_dpp16(b, in);
    else if (in->dpp == RDNA3_DPP_8) put_dpp8(b, in);
}

static void disasm_vop3p(sbuf *b, const rdna3_inst *in, const rdna3_opinfo *oi)
{
    unsigned n = in->nsrc, all = (1u << n) - 1;
    put(b, "%s%s", oi->name, in->dpp ? "_e64_dpp" : "");
    rdna3_inst t = *in;
    if (oi->flags & RDNA3_F_MIX) {
        /* v_fma_mix*: neg_lo is -x and neg_hi is |x| of the (f16 or f32) source */
        t.abs = in->neg_hi;
        put_template(b, &t, oi, oi->tmpl, in->src, in->vdst, true);
    } else {
        t.neg = t.abs = 0;
        put_template(b, &t, oi, oi->tmpl, in->src, in->vdst, false);
    }
    unsigned hi_default = (oi->flags & RDNA3_F_MIX) ? 0 : all;
    if (in->opsel & all) put_bits(b, "op_sel", in->opsel, n);
    if ((oi->flags & RDNA3_F_OPSELHI) && (in->opsel_hi & all) != hi_default) put_bits(b, "op_sel_hi", in->opsel_hi, n);
    if (!(oi->flags & RDNA3_F_MIX)) {
        if ((oi->flags & RDNA3_F_NEG) && (in->neg & all)) put_bits(b, "neg_lo", in->neg, n);
        if ((oi->flags & RDNA3_F_NEGHI) && (in->neg_hi & all)) put_bits(b, "neg_hi", in->neg_hi, n);
    }
    if (in->clamp) put(b, " clamp");
    if (in->dpp == RDNA3_DPP_16) put_dpp16(b, in);
    else if (in->dpp == RDNA3_DPP_8) put_dpp8(b, in);
}

static void disasm_vopd(sbuf *b, const rdna3_inst *in, const rdna3_opinfo *ox)
{
    const rdna3_opinfo *oy = rdna3_opinfo_get(RDNA3_T_VOPDY, in->opy);
    put(b, "%s", ox->name);
    put_template(b, in, ox, ox->tmpl, in->src, in->vdst, false);
    if (!oy) { put(b, " :: <invalid>"); return; }
    put(b, " :: %s", oy->name);
    put_template(b, in, oy, oy->tmpl, in->srcy, in->vdsty, false);
}

/* ---- scalar ---- */

static const char *hwreg_name(unsigned id)
{
    switch (id) {
    case 1: return "HW_REG_MODE";
    case 2: return "HW_REG_STATUS";
    case 3: return "HW_REG_TRAPSTS";
    case 5: return "HW_REG_GPR_ALLOC";
    case 6: return "HW_REG_LDS_ALLOC";
    case 7: return "HW_REG_IB_STS";
    case 15: return "HW_REG_SH_MEM_BASES";
    case 18: return "HW_REG_PERF_SNAPSHOT_PC_LO";
    case 19: return "HW_REG_PERF_SNAPSHOT_PC_HI";
    case 20: return "HW_REG_FLAT_SCR_LO";
    case 21: return "HW_REG_FLAT_SCR_HI";
    case 23: return "HW_REG_HW_ID1";
    case 24: return "HW_REG_HW_ID2";
    case 27: return "HW_REG_PERF_SNAPSHOT_DATA";
    case 29: return "HW_REG_SHADER_CYCLES";
    default: return NULL;
    }
}

static void put_hwreg(sbuf *b, unsigned v)
{
    unsigned id = v & 63, off = v >> 6 & 31, size = (v >> 11 & 31) + 1;
    const char *nm = hwreg_name(id);
    put(b, "hwreg(");
    if (nm) put(b, "%s", nm);
    else put(b, "%u", id);
    if (!(off == 0 && size == 32)) put(b, ", %u, %u", off, size);
    put(b, ")");
}

static const char *msg_name(unsigned id)
{
    switch (id) {
    case 1: return "MSG_INTERRUPT";
    case 2: return "MSG_HS_TESSFACTOR";
    case 3: return "MSG_DEALLOC_VGPRS";
    case 5: return "MSG_STALL_WAVE_GEN";
    case 6: return "MSG_HALT_WAVES";
    case 9: return "MSG_GS_ALLOC_REQ";
    case 0x80: return "MSG_RTN_GET_DOORBELL";
    case 0x81: return "MSG_RTN_GET_DDID";
    case 0x82: return "MSG_RTN_GET_TMA";
    case 0x83: return "MSG_RTN_GET_REALTIME";
    case 0x84: return "MSG_RTN_SAVE_WAVE";
    case 0x85: return "MSG_RTN_GET_TBA";
    case 0x86: return "MSG_RTN_GET_TBA_TO_PC";
    default: return NULL;
    }
}

/* gfx11 messages have no operation or stream fields: the id is the low byte. A value with
 * other bits set and no known id prints as a plain number. */
static void put_sendmsg(sbuf *b, unsigned v)
{
    const char *nm = msg_name(v & 0xff);
    if (nm) put(b, "sendmsg(%s)", nm);
    else if (v <= 0xff) put(b, "sendmsg(%u, 0, 0)", v);
    else put(b, "%u", v);
}

static void put_waitcnt(sbuf *b, unsigned v)
{
    unsigned vm = v >> 10 & 63, exp = v & 7, lgkm = v >> 4 & 63;
    bool all = vm == 63 && exp == 7 && lgkm == 63;
    bool any = false;
    if (vm != 63 || all) { put(b, "vmcnt(%u)", vm); any = true; }
    if (exp != 7 || all) { put(b, "%sexpcnt(%u)", any ? " " : "", exp); any = true; }
    if (lgkm != 63 || all) put(b, "%slgkmcnt(%u)", any ? " " : "", lgkm);
}

static void put_depctr(sbuf *b, unsigned v)
{
    static const struct { const char *name; unsigned shift, width; } f[] = {
        { "depctr_hold_cnt", 7, 1 }, { "depctr_sa_sdst", 0, 1 }, { "depctr_va_vdst", 12, 4 },
        { "depctr_va_sdst", 9, 3 }, { "depctr_va_ssrc", 8, 1 }, { "depctr_va_vcc", 1, 1 },
        { "depctr_vm_vsrc", 2, 3 },
    };
    /* bits 5 and 6 belong to no field: such values print as a number */
    bool any = false;
    if (v & 0x60) { put(b, "0x%x", v); return; }
    for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++) {
        unsigned x = v >> f[i].shift & ((1u << f[i].width) - 1);
        if (x == (1u << f[i].width) - 1) continue;
        put(b, "%s%s(%u)", any ? " " : "", f[i].name, x);
        any = true;
    }
    if (!any) put(b, "0x%x", v);
}

static void put_delay_alu(sbuf *b, unsigned v)
{
    static const char *const id[] = { "NO_DEP", "VALU_DEP_1", "VALU_DEP_2", "VALU_DEP_3", "VALU_DEP_4",
                                      "TRANS32_DEP_1", "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1",
                                      "SALU_CYCLE_1", "SALU_CYCLE_2", "SALU_CYCLE_3" };
    static const char *const skip[] = { "SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4" };
    unsigned i0 = v & 15, sk = v >> 4 & 7, i1 = v >> 7 & 15;
    bool any = false;
    if (v == 0) { put(b, "0"); return; }
    if (i0) {
        put(b, "instid0(%s)", i0 < 12 ? id[i0] : "/* invalid instid value */");
        any = true;
    }
    if (sk) {
        put(b, "%sinstskip(%s)", any ? " | " : "", sk < 6 ? skip[sk] : "/* invalid instskip value */");
        any = true;
    }
    if (i1) { put(b, "%sinstid1(%s)", any ? " | " : "", i1 < 12 ? id[i1] : "/* invalid instid value */"); any = true; }
    if (!any) put(b, "0");
}

/* s_version: a version number (named for known ones) with flag bits "|"-ed on. */
static void put_version(sbuf *b, unsigned v)
{
    static const char *const flag[3] = { "UC_VERSION_W64_BIT", "UC_VERSION_W32_BIT", "UC_VERSION_MDP_BIT" };
    if (v & ~0xe0ffu) { put(b, v <= 64 ? "%u" : "0x%x", v); return; }
    unsigned ver = v & 0xff, nflags = 0;
    for (unsigned i = 0; i < 3; i++) nflags += v >> (13 + i) & 1;
    for (unsigned i = 1; i < nflags; i++) put(b, "(");
    const char *nm = ver == 0 ? "GFX7" : ver == 4 ? "GFX10" : ver == 6 ? "GFX11" : ver == 9 ? "GFX12" : NULL;
    if (nm) put(b, "UC_VERSION_%s", nm);
    else put(b, "%u", ver);
    for (unsigned i = 0, k = 0; i < 3; i++) {
        if (!(v >> (13 + i) & 1)) continue;
        put(b, "|%s%s", flag[i], (++k < nflags) ? ")" : "");
    }
}

/* How the 16-bit immediate of a SOPP/SOPK opcode prints. */
static void put_simm(sbuf *b, const rdna3_inst *in, const char *nm)
{
    unsigned v = in->simm16;
    if (!strcmp(nm, "s_waitcnt")) put_waitcnt(b, v);
    else if (!strcmp(nm, "s_waitcnt_depctr")) put_depctr(b, v);
    else if (!strcmp(nm, "s_delay_alu")) put_delay_alu(b, v);
    else if (!strcmp(nm, "s_version")) put_version(b, v);
    else if (!strncmp(nm, "s_sendmsg", 9)) put_sendmsg(b, v);
    else if (!strncmp(nm, "s_getreg", 8) || !strncmp(nm, "s_setreg", 8)) put_hwreg(b, v);
    else if (!strcmp(nm, "s_set_inst_prefetch_distance") || !strcmp(nm, "s_clause") ||
             !strcmp(nm, "s_wait_event") || !strcmp(nm, "s_round_mode") || !strcmp(nm, "s_ttracedata_imm") ||
             !strncmp(nm, "s_movk", 6) || !strncmp(nm, "s_cmovk", 7) || !strncmp(nm, "s_cmpk", 6) ||
             !strncmp(nm, "s_addk", 6) || !strncmp(nm, "s_mulk", 6) || !strncmp(nm, "s_waitcnt_", 10))
        put(b, "0x%x", v);
    else if (!strncmp(nm, "s_branch", 8) || !strncmp(nm, "s_cbranch", 9) || !strncmp(nm, "s_call", 6) ||
             !strncmp(nm, "s_subvector", 11) || !strcmp(nm, "s_endpgm"))
        put(b, "%u", v);                 /* branch targets: the raw word offset */
    else if (v <= 64) put(b, "%u", v);
    else put(b, "0x%x", v);
}

static void disasm_sop(sbuf *b, const rdna3_inst *in, const rdna3_opinfo *oi)
{
    put(b, "%s", oi->name);
    /* s_endpgm prints its immediate only when it is not 0 */
    if (!strcmp(oi->name, "s_endpgm") && in->simm16 == 0) return;
    const char *p = oi->tmpl;
    bool first = true;
    while (*p) {
        put(b, first ? " " : ", ");
        first = false;
        switch (*p) {
        case 'D': put_dst(b, in->vdst, oi->kind[0]); break;
        case '0':
            if (!strncmp(oi->name, "s_sendmsg_rtn", 13)) put_sendmsg(b, in->src[0]);
            else put_src(b, in, in->src[0], oi->kind[1]);
            break;
        case '1': put_src(b, in, in->src[1], oi->kind[2]); break;
        case 'K': put(b, "0x%x", in->literal); break;
        default: put_simm(b, in, oi->name); break;
        }
        p++;
        if (*p == ',') p++;
    }
}

/* ---- memory ---- */

static void disasm_smem(sbuf *b, const rdna3_inst *in, const rdna3_opinfo *oi)
{
    put(b, "%s", oi->name);
    if (!oi->tmpl[0]) return;
    bool buffer = strstr(oi->name, "buffer") != NULL;
    put(b, " ");
    if (!strncmp(oi->name, "s_atc_probe", 11)) put(b, in->vdst <= 64 ? "%u" : "0x%x", in->vdst);
    else put_dst(b, in->vdst, oi->kind[0]);
    put(b, ", ");
    put_sreg(b, in->saddr, buffer ? 4 : 2);
    if (in->soffset != RDNA3_SRC_NULL) {
        put(b, ", ");
        put_sreg(b, in->soffset, 1);
        if (in->offset < 0) put(b, " offset:-0x%x", (unsigned)-in->offset);
        else if (in->offset) put(b, " offset:0x%x", (unsigned)in->offset);
    } else if (in->offset < 0) {
        put(b, ", -0x%x", (unsigned)-in->offset);
    } else if (in->offset) {
        put(b, ", 0x%x", (unsigned)in->offset);
    } else {
        put(b, ", null");
    }
    if (in->glc) put(b, " glc");
    if (in->dlc) put(b, " dlc");
}

/* ds_swizzle_b32's offset in LLVM's swizzle() notation. */
static void put_swizzle(sbuf *b, unsigned v)
{
    if ((v & 0xff00) == 0x8000) {
        put(b, " offset:swizzle(QUAD_PERM,%u,%u,%u,%u)", v & 3, v >> 2 & 3, v >> 4 & 3, v >> 6 & 3);
        return;
    }
    if (v & 0x8000) { put(b, " offset:%u", v); return; }
    unsigned and_m = v & 31, or_m = v >> 5 & 31, xor_m = v >> 10 & 31;
    if (and_m == 31 && or_m == 0 && xor_m && !(xor_m & (xor_m - 1))) {
        put(b, " offset:swizzle(SWAP,%u)", xor_m);
    } else if (and_m == 31 && or_m == 0 && xor_m && !((xor_m + 1) & xor_m)) {
        put(b, " offset:swizzle(REVERSE,%u)", xor_m + 1);
    } else {
        unsigned group = 32 - and_m;
        if (group > 1 && !(group & (group - 1)) && or_m < group && xor_m == 0) {
            put(b, " offset:swizzle(BROADCAST,%u,%u)", group, or_m);
            return;
        }
        put(b, " offset:swizzle(BITMASK_PERM,\"");
        for (int i = 4; i >= 0; i--) {
            unsigned m = 1u << i;
            put(b, "%c", (or_m & m) ? '1' : !(and_m & m) ? '0' : (xor_m & m) ? 'i' : 'p');
        }
        put(b, "\")");
    }
}

static void disasm_ds(sbuf *b, const rdna3_inst *in, const rdna3_opinfo *oi)
{
    put(b, "%s", oi->name);
    const char *p = oi->tmpl;
    bool first = true;
    while (*p) {
        put(b, first ? " " : ", ");
        first = false;
        switch (*p) {
        case 'D': put_range(b, "v", in->vdst, rdna3_k_regs(oi->kind[0])); break;
        case 'A': put_range(b, "v", in->addr, rdna3_k_regs(oi->kind[1])); break;
        case '0': put_range(b, "v", in->data0, rdna3_k_regs(oi->kind[2])); break;
        case '1': put_range(b, "v", in->data1, rdna3_k_regs(oi->kind[3])); break;
        default: break;
        }
        p++;
        if (*p == ',') p++;
    }
    unsigned off0 = (unsigned)in->offset & 0xff, off1 = in->offset1;
    if (oi->flags & RDNA3_F_SWIZZLE) {
        if (off0 | off1 << 8) put_swizzle(b, off0 | off1 << 8);
    } else if (oi->flags & RDNA3_F_2ADDR) {
        if (off0) put(b, " offset0:%u", off0);
        if (off1) put(b, " offset1:%u", off1);
    } else if (!(oi->flags & RDNA3_F_NOOFF) && (off0 | off1 << 8)) {
        put(b, " offset:%u", off0 | off1 << 8);
    }
    if (in->gds) put(b, " gds");
}

static void put_cache(sbuf *b, const rdna3_inst *in)
{
    if (in->glc) put(b, " glc");
    if (in->slc) put(b, " slc");
    if (in->dlc) put(b, " dlc");
}

static unsigned atomic_rtn_regs(const rdna3_opinfo *oi)
{
    unsigned n = rdna3_k_regs(oi->kind[2]);
    return strstr(oi->name, "cmpswap") ? n / 2 : n;
}

static void disasm_flat(sbuf *b, const rdna3_inst *in, const rdna3_opinfo *oi)
{
    bool atomic_rtn = (oi->flags & RDNA3_F_ATOMIC) && in->glc;
    bool saddr_off = in->saddr == RDNA3_SRC_NULL;
    put(b, "%s", oi->name);
    bool first = true;
    if (atomic_rtn) { put(b, " "); put_range(b, "v", in->vdst, atomic_rtn_regs(oi)); first = false; }
    for (const char *p = oi->tmpl; *p; p++) {
        if (*p == ',') continue;
        put(b, first ? " " : ", ");
        first = false;
        if (*p == 'D') put_range(b, "v", in->vdst, rdna3_k_regs(oi->kind[0]));
        else if (*p == '0') put_range(b, "v", in->data0, rdna3_k_regs(oi->kind[2]));
        else if (*p == 'A') {
            if (in->fmt == RDNA3_FMT_SCRATCH) {
                if (in->sve) put(b, "v%u", in->addr);
                else put(b, "off");
            } else if (in->fmt == RDNA3_FMT_GLOBAL && !saddr_off) {
                put(b, "v%u", in->addr);
            } else {
                put_range(b, "v", in->addr, 2);
            }
        }
    }
    if (in->fmt != RDNA3_FMT_FLAT) {
        put(b, first ? " " : ", ");
        if (saddr_off) put(b, "off");
        else put_sreg(b, in->saddr, in->fmt == RDNA3_FMT_GLOBAL ? 2 : 1);
    }
    if (in->fmt == RDNA3_FMT_FLAT) {
        /* objdump shows all 13 offset bits of FLAT (the hardware ignores bit 12) */
        if (in->raw[0] & 0x1fff) put(b, " offset:%u", in->raw[0] & 0x1fff);
    } else if (in->offset) {
        put(b, " offset:%d", in->offset);
    }
    put_cache(b, in);
}

static const char *const buf_fmt_names[64] = {
    "INVALID", "8_UNORM", "8_SNORM", "8_USCALED", "8_SSCALED", "8_UINT", "8_SINT", "16_UNORM", "16_SNORM",
    "16_USCALED", "16_SSCALED", "16_UINT", "16_SINT", "16_FLOAT", "8_8_UNORM", "8_8_SNORM", "8_8_USCALED",
    "8_8_SSCALED", "8_8_UINT", "8_8_SINT", "32_UINT", "32_SINT", "32_FLOAT", "16_16_UNORM", "16_16_SNORM",
    "16_16_USCALED", "16_16_SSCALED", "16_16_UINT", "16_16_SINT", "16_16_FLOAT", "10_11_11_FLOAT",
    "11_11_10_FLOAT", "10_10_10_2_UNORM", "10_10_10_2_SNORM", "10_10_10_2_UINT", "10_10_10_2_SINT",
    "2_10_10_10_UNORM", "2_10_10_10_SNORM", "2_10_10_10_USCALED", "2_10_10_10_SSCALED", "2_10_10_10_UINT",
    "2_10_10_10_SINT", "8_8_8_8_UNORM", "8_8_8_8_SNORM", "8_8_8_8_USCALED", "8_8_8_8_SSCALED", "8_8_8_8_UINT",
    "8_8_8_8_SINT", "32_32_UINT", "32_32_SINT", "32_32_FLOAT", "16_16_16_16_UNORM", "16_16_16_16_SNORM",
    "16_16_16_16_USCALED", "16_16_16_16_SSCALED", "16_16_16_16_UINT", "16_16_16_16_SINT", "16_16_16_16_FLOAT",
    "32_32_32_UINT", "32_32_32_SINT", "32_32_32_FLOAT", "32_32_32_32_UINT", "32_32_32_32_SINT",
    "32_32_32_32_FLOAT",
};

static void disasm_buf(sbuf *b, const rdna3_inst *in, const rdna3_opinfo *oi)
{
    put(b, "%s", oi->name);
    bool first = true;
    for (const char *p = oi->tmpl; *p; p++) {
        if (*p == ',') continue;
        put(b, first ? " " : ", ");
        first = false;
        switch (*p) {
        case 'D': {
            unsigned n = rdna3_k_regs(oi->kind[0]);
            if ((oi->flags & RDNA3_F_ATOMIC) == 0 && in->tfe) n++;
            put_range(b, "v", in->data0, n);
            break;
        }
        case 'A':
            if (in->offen && in->idxen) put_range(b, "v", in->addr, 2);
            else if (in->offen || in->idxen) put(b, "v%u", in->addr);
            else put(b, "off");
            break;
        case 'R': put_sreg(b, in->saddr, 4); break;
        case 'O': put_src(b, in, in->soffset, RDNA3_K(1, 1, B32)); break;   /* 255: literal */
        default: break;
        }
    }
    if (in->fmt == RDNA3_FMT_MTBUF && in->mem_format != 1) {
        if (in->mem_format < 64) put(b, " format:[BUF_FMT_%s]", buf_fmt_names[in->mem_format]);
        else put(b, " format:%u", in->mem_format);
    }
    if (!oi->tmpl[0]) return;     /* buffer_gl*_inv: the other fields are ignored */
    if (in->idxen) put(b, " idxen");
    if (in->offen) put(b, " offen");
    if (in->offset) put(b, " offset:%d", in->offset);
    put_cache(b, in);
    if (in->tfe) put(b, " tfe");
}

static const char *const dim_names[8] = {
    "1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY",
};

static void disasm_mimg(sbuf *b, const rdna3_inst *in, const rdna3_opinfo *oi)
{
    bool bvh = rdna3_mimg_has(oi, 'Y');
    /* llvm-objdump prints the NSA forms of sampler opcodes with two spaces after the mnemonic */
    put(b, "%s%s", oi->name, in->nsa && rdna3_mimg_has(oi, 'S') ? "  " : " ");
    put_range(b, "v", in->data0, bvh ? 4u : rdna3_mimg_vdata_regs(oi, in->dmask, in->d16, in->tfe));
    put(b, ", ");
    if (in->nsa) {
        put(b, "[");
        for (unsigned i = 0; i < 5 && i < in->naddr; i++) {
            if (i) put(b, ", ");
            put_range(b, "v", in->vaddr[i], (i == 4 && in->naddr > 5) ? in->naddr - 4u : 1u);
        }
        put(b, "]");
    } else {
        put_range(b, "v", in->vaddr[0], in->naddr);
    }
    put(b, ", ");
    put_sreg(b, in->saddr, bvh ? 4 : 8);   /* objdump prints eight even with r128 */
    if (rdna3_mimg_has(oi, 'S')) {
        put(b, ", ");
        put_sreg(b, in->ssamp, 4);
    }
    if (bvh) {
        if (in->a16) put(b, " a16");
        return;
    }
    if (in->dmask) put(b, " dmask:0x%x", in->dmask);
    put(b, " dim:SQ_RSRC_IMG_%s", dim_names[in->dim & 7]);
    if (in->unorm) put(b, " unorm");
    put_cache(b, in);
    if (in->r128) put(b, " r128");
    if (in->a16) put(b, " a16");
    if (in->tfe) put(b, " tfe");
    if (in->lwe) put(b, " lwe");
    if (in->d16) put(b, " d16");
}

void rdna3_disasm(const rdna3_inst *in, char *buf, size_t len)
{
    if (!buf || len == 0) return;
    sbuf b = { buf, len, 0 };
    buf[0] = 0;
    const rdna3_opinfo *oi = rdna3_inst_info(in);
    if (!oi || in->size == 0) { put(&b, "<invalid>"); return; }
    switch (in->fmt) {
    case RDNA3_FMT_SOP1: case RDNA3_FMT_SOP2: case RDNA3_FMT_SOPK: case RDNA3_FMT_SOPC: case RDNA3_FMT_SOPP:
        disasm_sop(&b, in, oi); break;
    case RDNA3_FMT_SMEM: disasm_smem(&b, in, oi); break;
    case RDNA3_FMT_VOP1: case RDNA3_FMT_VOP2: case RDNA3_FMT_VOPC: case RDNA3_FMT_VOP3: case RDNA3_FMT_VOP3SD:
        disasm_vop(&b, in, oi); break;
    case RDNA3_FMT_VOP3P: disasm_vop3p(&b, in, oi); break;
    case RDNA3_FMT_VOPD: disasm_vopd(&b, in, oi); break;
    case RDNA3_FMT_DS: disasm_ds(&b, in, oi); break;
    case RDNA3_FMT_FLAT: case RDNA3_FMT_GLOBAL: case RDNA3_FMT_SCRATCH: disasm_flat(&b, in, oi); break;
    case RDNA3_FMT_MUBUF: case RDNA3_FMT_MTBUF: disasm_buf(&b, in, oi); break;
    case RDNA3_FMT_MIMG: disasm_mimg(&b, in, oi); break;
    default: put(&b, "<unsupported>"); break;
    }
}
