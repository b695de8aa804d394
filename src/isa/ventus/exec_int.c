/* RV32I, M, A, Zicsr and the CSRs (standard ones the crt touches and the Ventus ones, spec §4).
 * Scalar instructions run once per warp. */
#include "isa/ventus/ventus_isa.h"

#define X(r) (w->x[(r)])
#define RS1 X(in->rs1)
#define RS2 X(in->rs2)
#define SRS1 ((int32_t)RS1)
#define SRS2 ((int32_t)RS2)
#define WRD(v) vt_wx(w, in, (uint32_t)(v))

/* ---- RV32I ---- */
void vt_x_lui(vt_warp *w, const vt_insn *in) { WRD(in->imm); }
void vt_x_auipc(vt_warp *w, const vt_insn *in) { WRD(in->pc + (uint32_t)in->imm); }
void vt_x_jal(vt_warp *w, const vt_insn *in)
{
    WRD(in->pc + 4);
    w->pc = in->pc + (uint32_t)in->imm;
}
void vt_x_jalr(vt_warp *w, const vt_insn *in)
{
    uint32_t t = (RS1 + (uint32_t)in->imm) & ~1u;
    WRD(in->pc + 4);
    w->pc = t;
}
#define BR(id, cond) \
    void vt_x_##id(vt_warp *w, const vt_insn *in) { if (cond) w->pc = in->pc + (uint32_t)in->imm; }
BR(beq, RS1 == RS2)
BR(bne, RS1 != RS2)
BR(blt, SRS1 < SRS2)
BR(bge, SRS1 >= SRS2)
BR(bltu, RS1 < RS2)
BR(bgeu, RS1 >= RS2)

static inline void count_scalar_mem(vt_warp *w, uint32_t addr, int kind, unsigned size)
{
    umb_count_mem(w->stats, vt_space_for(addr), kind, 1, size);
}

#define LOAD(id, size, conv) \
    void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        uint32_t a = RS1 + (uint32_t)in->imm, v; \
        w->maddr[0] = a; \
        if (!vt_load(w, in, -1, a, size, &v)) return; \
        count_scalar_mem(w, a, 0, size); \
        WRD(conv); \
    }
LOAD(lb, 1, (int32_t)(int8_t)v)
LOAD(lh, 2, (int32_t)(int16_t)v)
LOAD(lw, 4, v)
LOAD(lbu, 1, v)
LOAD(lhu, 2, v)

#define STORE(id, size) \
    void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        uint32_t a = RS1 + (uint32_t)in->imm; \
        w->maddr[0] = a; \
        if (vt_store(w, in, -1, a, size, RS2)) count_scalar_mem(w, a, 1, size); \
    }
STORE(sb, 1)
STORE(sh, 2)
STORE(sw, 4)

#define ALUI(id, expr) void vt_x_##id(vt_warp *w, const vt_insn *in) { int32_t imm = in->imm; (void)imm; WRD(expr); }
ALUI(addi, RS1 + (uint32_t)imm)
ALUI(slti, SRS1 < imm)
ALUI(sltiu, RS1 < (uint32_t)imm)
ALUI(xori, RS1 ^ (uint32_t)imm)
ALUI(ori, RS1 | (uint32_t)imm)
ALUI(andi, RS1 & (uint32_t)imm)
ALUI(slli, RS1 << (imm & 31))
ALUI(srli, RS1 >> (imm & 31))
ALUI(srai, SRS1 >> (imm & 31))

#define ALU(id, expr) void vt_x_##id(vt_warp *w, const vt_insn *in) { WRD(expr); }
ALU(add, RS1 + RS2)
ALU(sub, RS1 - RS2)
ALU(sll, RS1 << (RS2 & 31))
ALU(slt, SRS1 < SRS2)
ALU(sltu, RS1 < RS2)
ALU(xor, RS1 ^ RS2)
ALU(srl, RS1 >> (RS2 & 31))
ALU(sra, SRS1 >> (RS2 & 31))
ALU(or, RS1 | RS2)
ALU(and, RS1 & RS2)

/* A single warp sees its own memory in program order; other warps' and workgroups' accesses
 * are ordered by the scheduler, so fences have nothing to do. */
void vt_x_fence(vt_warp *w, const vt_insn *in) { (void)w; (void)in; }
void vt_x_fence_i(vt_warp *w, const vt_insn *in) { (void)w; (void)in; }

/* ---- M: RISC-V division rules (no traps) ---- */
static inline uint32_t rv_div(int32_t a, int32_t b)
{
    if (b == 0) return 0xffffffffu;
    if (a == INT32_MIN && b == -1) return (uint32_t)INT32_MIN;
    return (uint32_t)(a / b);
}
static inline uint32_t rv_divu(uint32_t a, uint32_t b) { return b ? a / b : 0xffffffffu; }
static inline uint32_t rv_rem(int32_t a, int32_t b)
{
    if (b == 0) return (uint32_t)a;
    if (a == INT32_MIN && b == -1) return 0;
    return (uint32_t)(a % b);
}
static inline uint32_t rv_remu(uint32_t a, uint32_t b) { return b ? a % b : a; }

ALU(mul, RS1 * RS2)
ALU(mulh, (uint32_t)(((int64_t)SRS1 * (int64_t)SRS2) >> 32))
ALU(mulhsu, (uint32_t)(((int64_t)SRS1 * (int64_t)(uint64_t)RS2) >> 32))
ALU(mulhu, (uint32_t)(((uint64_t)RS1 * (uint64_t)RS2) >> 32))
ALU(div, rv_div(SRS1, SRS2))
ALU(divu, rv_divu(RS1, RS2))
ALU(rem, rv_rem(SRS1, SRS2))
ALU(remu, rv_remu(RS1, RS2))

/* ---- A: the address is a scalar register, so an AMO runs once per warp ---- */
static uint32_t *amo_ptr(vt_warp *w, const vt_insn *in, uint32_t a)
{
    w->maddr[0] = a;
    if (a & 3) {
        vt_fault(w, in, UMB_ERR_GUEST_FAULT, 0, a, "misaligned atomic access");
        return NULL;
    }
    uint32_t *p = umb_mem_atomic_ptr(vt_mem_for(w, a), a);
    if (!p) vt_fault(w, in, UMB_ERR_GUEST_FAULT, 0, a, "atomic access to unmapped address 0x%08x", a);
    else umb_count_mem(w->stats, vt_space_for(a), 2, 1, 4);
    return p;
}

void vt_x_lr_w(vt_warp *w, const vt_insn *in)
{
    uint32_t *p = amo_ptr(w, in, RS1);
    if (!p) return;
    uint32_t v = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    w->resv_addr = RS1;
    w->resv_valid = true;
    w->resv_value = v;
    WRD(v);
}

/* sc.w succeeds when the reserved word still holds the value lr.w read (compare-and-swap). */
void vt_x_sc_w(vt_warp *w, const vt_insn *in)
{
    uint32_t a = RS1;
    uint32_t *p = amo_ptr(w, in, a);
    if (!p) return;
    uint32_t ok = 0;
    if (w->resv_valid && w->resv_addr == a) {
        uint32_t expect = w->resv_value;
        ok = __atomic_compare_exchange_n(p, &expect, RS2, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    }
    w->resv_valid = false;
    w->amo_stored = ok;
    WRD(ok ? 0 : 1);
}

#define AMO(id, builtin) \
    void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        uint32_t *p = amo_ptr(w, in, RS1); \
        if (!p) return; \
        uint32_t v = builtin(p, RS2, __ATOMIC_SEQ_CST); \
        w->amo_stored = 1; \
        WRD(v); \
    }
AMO(amoswap_w, __atomic_exchange_n)
AMO(amoadd_w, __atomic_fetch_add)
AMO(amoxor_w, __atomic_fetch_xor)
AMO(amoand_w, __atomic_fetch_and)
AMO(amoor_w, __atomic_fetch_or)

#define AMO_MINMAX(id, T, pick) \
    void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        uint32_t *p = amo_ptr(w, in, RS1); \
        if (!p) return; \
        uint32_t old = __atomic_load_n(p, __ATOMIC_SEQ_CST), b = RS2, nv; \
        do { nv = ((T)old pick (T)b) ? old : b; } \
        while (!__atomic_compare_exchange_n(p, &old, nv, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)); \
        w->amo_stored = 1; \
        WRD(old); \
    }
AMO_MINMAX(amomin_w, int32_t, <)
AMO_MINMAX(amomax_w, int32_t, >)
AMO_MINMAX(amominu_w, uint32_t, <)
AMO_MINMAX(amomaxu_w, uint32_t, >)

/* ---- CSRs ---- */
#define MSTATUS_FS 0x6000u
#define MSTATUS_VS 0x0600u
#define MSTATUS_SD 0x80000000u

static void mstatus_fix_sd(vt_warp *w)
{
    uint32_t m = w->mstatus & ~MSTATUS_SD;
    if ((m & MSTATUS_FS) == MSTATUS_FS || (m & MSTATUS_VS) == MSTATUS_VS) m |= MSTATUS_SD;
    w->mstatus = m;
}
void vt_mark_vs_dirty(vt_warp *w) { w->mstatus |= MSTATUS_VS | MSTATUS_SD; }
void vt_mark_fs_dirty(vt_warp *w) { w->mstatus |= MSTATUS_FS | MSTATUS_SD; }

static bool fp_csr_ok(const vt_warp *w) { (void)w; return true; }   /* see exec_fp.c: fp_rm */

bool vt_csr_read(vt_warp *w, uint32_t csr, uint32_t *out)
{
    uint32_t v;
    switch (csr) {
    case 0x001: if (!fp_csr_ok(w)) return false; v = w->fflags; break;
    case 0x002: if (!fp_csr_ok(w)) return false; v = w->frm; break;
    case 0x003: if (!fp_csr_ok(w)) return false; v = w->frm << 5 | w->fflags; break;
    case 0x008: v = w->vstart; break;
    case 0x009: case 0x00a: case 0x00f: v = 0; break;     /* vxsat, vxrm, vcsr */
    case 0xc20: v = w->vl; break;
    case 0xc21: v = w->vtype; break;
    case 0xc22: v = w->nlanes * 4; break;                 /* vlenb */
    case 0x300: v = w->mstatus; break;
    case 0x301: v = 0x40000000u | 1u << 0 | 1u << 5 | 1u << 8 | 1u << 12 | 1u << 21; break; /* RV32IMAFV */
    case 0x304: v = w->mie; break;
    case 0x305: v = w->mtvec; break;
    case 0x340: v = w->mscratch; break;
    case 0x341: v = w->mepc; break;
    case 0x342: v = w->mcause; break;
    case 0x343: v = w->mtval; break;
    case 0x344: v = w->mip; break;
    case 0x180: v = w->satp; break;
    case 0xf11: case 0xf13: v = 0; break;
    case 0xf12: v = 5; break;                             /* marchid of the golden model */
    case 0xf14: v = w->csr_wid; break;                    /* mhartid = warp (golden: core id) */
    case 0xb00: case 0xc00: case 0xc01: v = (uint32_t)w->cycle; break;
    case 0xb02: case 0xc02: v = (uint32_t)w->instret; break;
    case 0xb80: case 0xc80: case 0xc81: v = (uint32_t)(w->cycle >> 32); break;
    case 0xb82: case 0xc82: v = (uint32_t)(w->instret >> 32); break;
    case 0x800: v = w->csr_tid; break;
    case 0x801: v = w->csr_numw; break;
    case 0x802: v = w->csr_numt; break;
    case 0x803: v = w->csr_knl; break;
    case 0x804: v = w->csr_wgid; break;
    case 0x805: v = w->csr_wid; break;
    case 0x806: v = w->csr_lds; break;
    case 0x807: v = w->csr_pds; break;
    case 0x808: case 0x809: case 0x80a: v = w->csr_gid[csr - 0x808]; break;
    case 0x80b: v = w->csr_print; break;
    case 0x80c: v = w->csr_rpc; break;
    default: return false;
    }
    *out = v;
    return true;
}

bool vt_csr_write(vt_warp *w, uint32_t csr, uint32_t v)
{
    switch (csr) {
    case 0x001: if (!fp_csr_ok(w)) return false; w->fflags = v & 0x1f; vt_mark_fs_dirty(w); break;
    case 0x002: if (!fp_csr_ok(w)) return false; w->frm = v & 7; vt_mark_fs_dirty(w); break;
    case 0x003:
        if (!fp_csr_ok(w)) return false;
        w->fflags = v & 0x1f;
        w->frm = (v >> 5) & 7;
        vt_mark_fs_dirty(w);
        break;
    case 0x008: w->vstart = v; break;
    case 0x009: case 0x00a: case 0x00f: break;
    case 0x300:
        /* Writable: MIE, MPIE, MPP, VS, FS. Turning FS on dirties it at once: the CSR
         * instruction's own register write mirrors into f (golden WRITE_REG). */
        w->mstatus = v & (0x8u | 0x80u | 0x1800u | MSTATUS_VS | MSTATUS_FS);
        if (w->mstatus & MSTATUS_FS) w->mstatus |= MSTATUS_FS;
        mstatus_fix_sd(w);
        vt_update_fs_mirror(w);
        break;
    case 0x301: break;                                    /* misa: WARL, fixed */
    case 0x304: w->mie = v; break;
    case 0x305: w->mtvec = v; break;
    case 0x340: w->mscratch = v; break;
    case 0x341: w->mepc = v & ~1u; break;
    case 0x342: w->mcause = v; break;
    case 0x343: w->mtval = v; break;
    case 0x344: w->mip = v; break;
    case 0x180: w->satp = v; break;
    case 0xb00: w->cycle = (w->cycle & ~0xffffffffull) | v; break;
    case 0xb02: w->instret = (w->instret & ~0xffffffffull) | v; break;
    case 0x800: w->csr_tid = v; break;
    case 0x801: w->csr_numw = v; break;
    case 0x802: w->csr_numt = v; break;
    case 0x803: w->csr_knl = v; break;
    case 0x804: w->csr_wgid = v; break;
    case 0x805: w->csr_wid = v; break;
    case 0x806: w->csr_lds = v; break;
    case 0x807: w->csr_pds = v; break;
    case 0x808: case 0x809: case 0x80a: w->csr_gid[csr - 0x808] = v; break;
    case 0x80b: w->csr_print = v; break;
    case 0x80c: w->csr_rpc = v; break;
    default: return false;
    }
    w->tr_csr = csr + 1;
    return true;
}

/* The name a fault message shows for a CSR (vt_csr_name has none for unknown numbers). */
static const char *csr_label(uint32_t csr)
{
    const char *n = vt_csr_name(csr);
    return n ? n : "no such CSR";
}

/* Read-modify-write of a CSR; `write` is false for csrrs/csrrc with x0 / uimm 0. */
static void csr_op(vt_warp *w, const vt_insn *in, int kind, uint32_t src, bool write)
{
    uint32_t csr = (uint32_t)in->imm & 0xfff, old = 0;
    bool read_ok = vt_csr_read(w, csr, &old);
    if (!read_ok) {
        vt_fault(w, in, UMB_ERR_GUEST_FAULT, -1, 0, "illegal instruction: CSR 0x%03x (%s) is not accessible",
                 csr, csr_label(csr));
        return;
    }
    if (write) {
        uint32_t nv = kind == 0 ? src : kind == 1 ? (old | src) : (old & ~src);
        if (!vt_csr_write(w, csr, nv)) {
            vt_fault(w, in, UMB_ERR_GUEST_FAULT, -1, 0, "illegal instruction: CSR 0x%03x (%s) is read-only",
                     csr, csr_label(csr));
            return;
        }
    }
    WRD(old);
}

void vt_x_csrrw(vt_warp *w, const vt_insn *in) { csr_op(w, in, 0, RS1, true); }
void vt_x_csrrs(vt_warp *w, const vt_insn *in) { csr_op(w, in, 1, RS1, in->rs1 != 0); }
void vt_x_csrrc(vt_warp *w, const vt_insn *in) { csr_op(w, in, 2, RS1, in->rs1 != 0); }
void vt_x_csrrwi(vt_warp *w, const vt_insn *in) { csr_op(w, in, 0, in->rs1 & 0x1f, true); }
void vt_x_csrrsi(vt_warp *w, const vt_insn *in) { csr_op(w, in, 1, in->rs1 & 0x1f, (in->rs1 & 0x1f) != 0); }
void vt_x_csrrci(vt_warp *w, const vt_insn *in) { csr_op(w, in, 2, in->rs1 & 0x1f, (in->rs1 & 0x1f) != 0); }

/* ---- encodings umbra recognises but does not implement ---- */
void vt_x_fp_op_other(vt_warp *w, const vt_insn *in) { vt_unsupported(w, in); }
void vt_x_fp_fma_other(vt_warp *w, const vt_insn *in) { vt_unsupported(w, in); }
void vt_x_flh_other(vt_warp *w, const vt_insn *in) { vt_unsupported(w, in); }
void vt_x_fld_other(vt_warp *w, const vt_insn *in) { vt_unsupported(w, in); }
void vt_x_fsh_other(vt_warp *w, const vt_insn *in) { vt_unsupported(w, in); }
void vt_x_fsd_other(vt_warp *w, const vt_insn *in) { vt_unsupported(w, in); }
