/* Disassembly in two styles from the one table:
 *  - llvm: what llvm-objdump-19 -d --mattr=+m,+a,+f,+v prints for standard instructions (ABI
 *    register names, hex immediates, its aliases, "mnemonic\toperands"); custom instructions
 *    as the Ventus toolchain's object.dump names them;
 *  - spike: the golden model's commit-log text (xN names, "pc + N" targets, decimal
 *    immediates, "%-7s " mnemonic column), used by the trace.
 */
#include <stdarg.h>
#include <string.h>

#include "isa/ventus/ventus_isa.h"

static const char *const xabi[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
    "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
static const char *const fabi[32] = {
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2", "fa3",
    "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10",
    "fs11", "ft8", "ft9", "ft10", "ft11"};
static const char *const rm_names[8] = {"rne", "rtz", "rdn", "rup", "rmm", "frm5", "frm6", "dyn"};

const char *vt_csr_name(uint32_t csr)
{
    switch (csr) {
    case 0x001: return "fflags";
    case 0x002: return "frm";
    case 0x003: return "fcsr";
    case 0x008: return "vstart";
    case 0x009: return "vxsat";
    case 0x00a: return "vxrm";
    case 0x00f: return "vcsr";
    case 0xc20: return "vl";
    case 0xc21: return "vtype";
    case 0xc22: return "vlenb";
    case 0x300: return "mstatus";
    case 0x301: return "misa";
    case 0x304: return "mie";
    case 0x305: return "mtvec";
    case 0x340: return "mscratch";
    case 0x341: return "mepc";
    case 0x342: return "mcause";
    case 0x343: return "mtval";
    case 0x344: return "mip";
    case 0x180: return "satp";
    case 0xf11: return "mvendorid";
    case 0xf12: return "marchid";
    case 0xf13: return "mimpid";
    case 0xf14: return "mhartid";
    case 0xb00: return "mcycle";
    case 0xb02: return "minstret";
    case 0xb80: return "mcycleh";
    case 0xb82: return "minstreth";
    case 0xc00: return "cycle";
    case 0xc01: return "time";
    case 0xc02: return "instret";
    case 0xc80: return "cycleh";
    case 0xc81: return "timeh";
    case 0xc82: return "instreth";
    /* Ventus CSRs as the golden model names them */
    case 0x800: return "tid";
    case 0x801: return "numw";
    case 0x802: return "numt";
    case 0x803: return "knl";
    case 0x804: return "wgid";
    case 0x805: return "wid";
    case 0x806: return "lds";
    case 0x807: return "pds";
    case 0x808: return "gidx";
    case 0x809: return "gidy";
    case 0x80a: return "gidz";
    case 0x80b: return "print";
    case 0x80c: return "rpc";
    default: return NULL;
    }
}

typedef struct out { char *buf; size_t len, pos; } out;

static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out *o, const char *fmt, ...)
{
    if (o->pos >= o->len) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->pos, o->len - o->pos, fmt, ap);
    va_end(ap);
    if (n > 0) o->pos += (size_t)n;
    if (o->pos >= o->len) o->pos = o->len - 1;
}

typedef struct sty {
    bool spike;
} sty;

static const char *xr(bool spike, unsigned r, char *tmp)
{
    if (!spike && r < 32) return xabi[r];
    snprintf(tmp, 8, "x%u", r);
    return tmp;
}
static const char *fr(unsigned r, char *tmp)
{
    if (r < 32) return fabi[r];
    snprintf(tmp, 8, "f%u", r);
    return tmp;
}

/* llvm prints immediates in hex ("-0x2c"), the golden model in decimal. */
static void imm(out *o, bool spike, int32_t v)
{
    if (spike) put(o, "%d", v);
    else if (v < 0) put(o, "-0x%x", (unsigned)(-(int64_t)v));
    else put(o, "0x%x", (unsigned)v);
}

static void target(out *o, bool spike, const vt_insn *in, bool hex)
{
    if (spike) {
        int32_t off = in->imm;
        if (hex) put(o, off < 0 ? "pc - 0x%x" : "pc + 0x%x", (unsigned)(off < 0 ? -(int64_t)off : off));
        else put(o, off < 0 ? "pc - %d" : "pc + %d", off < 0 ? -off : off);
    } else {
        put(o, "0x%x", in->pc + (uint32_t)in->imm);
    }
}

static void vtype_str(out *o, uint32_t vt, bool spike)
{
    uint32_t sew = (vt >> 3) & 7, lmul = vt & 7;
    if ((vt & ~0xffu) || sew > 3 || lmul == 4) { imm(o, spike, (int32_t)vt); return; }
    static const char *const lm[8] = {"m1", "m2", "m4", "m8", "", "mf8", "mf4", "mf2"};
    put(o, "e%u, %s, %s, %s", 8u << sew, lm[lmul], (vt >> 6) & 1 ? "ta" : "tu", (vt >> 7) & 1 ? "ma" : "mu");
}

static void csr_str(out *o, uint32_t csr, bool spike)
{
    const char *n = vt_csr_name(csr);
    /* llvm-objdump-19 does not know the Ventus CSRs: it prints their number. */
    if (n && (spike || csr < 0x800 || csr > 0x80c)) put(o, "%s", n);
    else if (spike) put(o, "0x%x", csr);
    else put(o, "0x%x", csr);
}

static void mnem(out *o, bool spike, const char *name)
{
    if (spike) put(o, "%-7s ", name);
    else put(o, "%s\t", name);
}

/* Strip a trailing separator when an instruction has no operands. */
static void finish(out *o)
{
    while (o->pos > 0 && (o->buf[o->pos - 1] == '\t' || o->buf[o->pos - 1] == ' ')) o->buf[--o->pos] = 0;
}

static const char *amo_suffix(uint32_t b)
{
    static const char *const s[4] = {"", ".rl", ".aq", ".aqrl"};
    return s[(b >> 25) & 3];
}

static void fence_set(out *o, uint32_t v)
{
    if (v & 8) put(o, "i");
    if (v & 4) put(o, "o");
    if (v & 2) put(o, "r");
    if (v & 1) put(o, "w");
    if (!v) put(o, "0");
}

static void vmask(out *o, const vt_insn *in)
{
    if (!in->vm) put(o, ", v0.t");
}

/* Aliases that both llvm-objdump and the golden model print. Returns true when handled. */
static bool alias(out *o, const vt_insn *in, bool spike)
{
    char t1[8], t2[8], t3[8];
    unsigned rd = in->rd, rs1 = in->rs1, rs2 = in->rs2;
    const char *d = xr(spike, rd, t1), *s1 = xr(spike, rs1, t2), *s2 = xr(spike, rs2, t3);
    switch (in->op) {
    case VT_OP_addi:
        if (rd == 0 && rs1 == 0 && in->imm == 0) { put(o, "nop"); return true; }
        if (rs1 == 0) { mnem(o, spike, "li"); put(o, "%s, ", d); imm(o, spike, in->imm); return true; }
        if (in->imm == 0) { mnem(o, spike, "mv"); put(o, "%s, %s", d, s1); return true; }
        return false;
    case VT_OP_xori:
        if (in->imm == -1) { mnem(o, spike, "not"); put(o, "%s, %s", d, s1); return true; }
        return false;
    case VT_OP_sub:
        if (rs1 == 0) { mnem(o, spike, "neg"); put(o, "%s, %s", d, s2); return true; }
        return false;
    case VT_OP_sltiu:
        if (in->imm == 1) { mnem(o, spike, "seqz"); put(o, "%s, %s", d, s1); return true; }
        return false;
    case VT_OP_sltu:
        if (rs1 == 0) { mnem(o, spike, "snez"); put(o, "%s, %s", d, s2); return true; }
        return false;
    case VT_OP_slt:
        if (rs2 == 0 && !spike) { mnem(o, spike, "sltz"); put(o, "%s, %s", d, s1); return true; }
        if (rs1 == 0 && !spike) { mnem(o, spike, "sgtz"); put(o, "%s, %s", d, s2); return true; }
        return false;
    case VT_OP_beq: case VT_OP_bne: case VT_OP_blt: case VT_OP_bge: {
        static const char *const z1[4] = {"beqz", "bnez", "bltz", "bgez"};
        static const char *const z0[4] = {NULL, NULL, "bgtz", "blez"};
        int k = in->op == VT_OP_beq ? 0 : in->op == VT_OP_bne ? 1 : in->op == VT_OP_blt ? 2 : 3;
        if (rs2 == 0) { mnem(o, spike, z1[k]); put(o, "%s, ", s1); target(o, spike, in, false); return true; }
        if (rs1 == 0 && z0[k] && !spike) { mnem(o, spike, z0[k]); put(o, "%s, ", s2); target(o, spike, in, false); return true; }
        return false;
    }
    case VT_OP_jal:
        if (rd == 0) { mnem(o, spike, "j"); target(o, spike, in, true); return true; }
        if (rd == 1) { mnem(o, spike, "jal"); target(o, spike, in, true); return true; }
        return false;
    case VT_OP_jalr:
        if (rd == 0 && rs1 == 1 && in->imm == 0) { put(o, "ret"); return true; }
        if (rd == 0 || rd == 1) {
            mnem(o, spike, rd == 0 ? "jr" : "jalr");
            if (in->imm == 0) put(o, "%s", s1);
            else { imm(o, spike, in->imm); put(o, "(%s)", s1); }
            return true;
        }
        return false;
    case VT_OP_csrrs: case VT_OP_csrrw: case VT_OP_csrrc: {
        uint32_t csr = (uint32_t)in->imm & 0xfff;
        if (!spike) {
            /* llvm's FP-CSR and counter aliases */
            if (in->op == VT_OP_csrrs && rs1 == 0) {
                const char *a = csr == 1 ? "frflags" : csr == 2 ? "frrm" : csr == 3 ? "frcsr" :
                                csr == 0xc00 ? "rdcycle" : csr == 0xc01 ? "rdtime" : csr == 0xc02 ? "rdinstret" :
                                csr == 0xc80 ? "rdcycleh" : csr == 0xc81 ? "rdtimeh" : csr == 0xc82 ? "rdinstreth" : NULL;
                if (a) { mnem(o, spike, a); put(o, "%s", d); return true; }
            }
            if (in->op == VT_OP_csrrw && csr >= 1 && csr <= 3) {
                const char *a = csr == 1 ? "fsflags" : csr == 2 ? "fsrm" : "fscsr";
                mnem(o, spike, a);
                if (rd) put(o, "%s, %s", d, s1); else put(o, "%s", s1);
                return true;
            }
        }
        if (in->op == VT_OP_csrrs && rs1 == 0) { mnem(o, spike, "csrr"); put(o, "%s, ", d); csr_str(o, csr, spike); return true; }
        if (rd == 0) {
            mnem(o, spike, in->op == VT_OP_csrrw ? "csrw" : in->op == VT_OP_csrrs ? "csrs" : "csrc");
            csr_str(o, csr, spike);
            put(o, ", %s", s1);
            return true;
        }
        return false;
    }
    case VT_OP_csrrwi: case VT_OP_csrrsi: case VT_OP_csrrci: {
        uint32_t csr = (uint32_t)in->imm & 0xfff;
        if (!spike && in->op == VT_OP_csrrwi && (csr == 1 || csr == 2)) {
            mnem(o, spike, csr == 1 ? "fsflagsi" : "fsrmi");
            if (rd) put(o, "%s, ", d);
            imm(o, spike, (int32_t)rs1);
            return true;
        }
        if (rd == 0) {
            mnem(o, spike, in->op == VT_OP_csrrwi ? "csrwi" : in->op == VT_OP_csrrsi ? "csrsi" : "csrci");
            csr_str(o, csr, spike);
            put(o, ", ");
            imm(o, spike, (int32_t)rs1);
            return true;
        }
        return false;
    }
    case VT_OP_fsgnj_s: case VT_OP_fsgnjn_s: case VT_OP_fsgnjx_s:
        if (rs1 == rs2) {
            mnem(o, spike, in->op == VT_OP_fsgnj_s ? "fmv.s" : in->op == VT_OP_fsgnjn_s ? "fneg.s" : "fabs.s");
            put(o, "%s, %s", fr(rd, t1), fr(rs1, t2));
            return true;
        }
        return false;
    case VT_OP_fence:
        if (((in->bits >> 20) & 0xff) == 0xff && !(in->bits >> 28)) { put(o, "fence"); return true; }
        return false;
    case VT_OP_vrsub_vx:
        if (rs1 == 0 && !spike) { mnem(o, spike, "vneg.v"); put(o, "v%u, v%u", rd, rs2); vmask(o, in); return true; }
        return false;
    case VT_OP_vxor_vi:
        if (in->imm == -1 && !spike) { mnem(o, spike, "vnot.v"); put(o, "v%u, v%u", rd, rs2); vmask(o, in); return true; }
        return false;
    case VT_OP_vfsgnjn_vv: case VT_OP_vfsgnjx_vv:
        if (rs1 == rs2 && !spike) {
            mnem(o, spike, in->op == VT_OP_vfsgnjn_vv ? "vfneg.v" : "vfabs.v");
            put(o, "v%u, v%u", rd, rs2);
            vmask(o, in);
            return true;
        }
        return false;
    default:
        return false;
    }
}

static int format(const vt_insn *in, bool spike, char *buf, size_t len)
{
    out o = {buf, len, 0};
    if (len) buf[0] = 0;
    if (in->op >= VT_OP_COUNT) {
        put(&o, spike ? "unknown" : "unknown 0x%08x", in->bits);
        return (int)o.pos;
    }
    const vt_insn_info *ti = &vt_insn_table[in->op];
    if (alias(&o, in, spike)) { finish(&o); return (int)o.pos; }
    char t1[8], t2[8], t3[8], t4[8];
    unsigned rd = in->rd, rs1 = in->rs1, rs2 = in->rs2, rs3 = (in->bits >> 27) & 0x1f;
    uint32_t b = in->bits;
    const char *d = xr(spike, rd, t1), *s1 = xr(spike, rs1, t2), *s2 = xr(spike, rs2, t3);
    const char *name = ti->name;
    char nm[40];
    if (ti->fmt == VT_F_AMO || ti->fmt == VT_F_LR) {
        snprintf(nm, sizeof nm, "%s%s", name, amo_suffix(b));
        name = nm;
    }
    mnem(&o, spike, name);
    bool rm_shown = !spike && in->rm != 7;
    switch (ti->fmt) {
    case VT_F_R: put(&o, "%s, %s, %s", d, s1, s2); break;
    case VT_F_I: case VT_F_ISH: put(&o, "%s, %s, ", d, s1); imm(&o, spike, in->imm); break;
    case VT_F_LD: put(&o, "%s, ", d); imm(&o, spike, in->imm); put(&o, "(%s)", s1); break;
    case VT_F_ST: put(&o, "%s, ", s2); imm(&o, spike, in->imm); put(&o, "(%s)", s1); break;
    case VT_F_B: put(&o, "%s, %s, ", s1, s2); target(&o, spike, in, false); break;
    case VT_F_U: put(&o, "%s, 0x%x", d, (uint32_t)in->imm >> 12); break;
    case VT_F_J: put(&o, "%s, ", d); target(&o, spike, in, true); break;
    case VT_F_JALR: put(&o, "%s, ", d); imm(&o, spike, in->imm); put(&o, "(%s)", s1); break;
    case VT_F_FENCE: fence_set(&o, (b >> 24) & 0xf); put(&o, ", "); fence_set(&o, (b >> 20) & 0xf); break;
    case VT_F_FENCEI: break;
    case VT_F_CSR: put(&o, "%s, ", d); csr_str(&o, (uint32_t)in->imm & 0xfff, spike); put(&o, ", %s", s1); break;
    case VT_F_CSRI: put(&o, "%s, ", d); csr_str(&o, (uint32_t)in->imm & 0xfff, spike); put(&o, ", "); imm(&o, spike, (int32_t)rs1); break;
    case VT_F_AMO: put(&o, "%s, %s, (%s)", d, s2, s1); break;
    case VT_F_LR: put(&o, "%s, (%s)", d, s1); break;
    case VT_F_FLD: put(&o, "%s, ", fr(rd, t4)); imm(&o, spike, in->imm); put(&o, "(%s)", s1); break;
    case VT_F_FST: put(&o, "%s, ", fr(rs2, t4)); imm(&o, spike, in->imm); put(&o, "(%s)", s1); break;
    case VT_F_FR: put(&o, "%s, %s, ", fr(rd, t4), fr(rs1, t1)); put(&o, "%s", fr(rs2, t2)); break;
    case VT_F_FRRM:
        put(&o, "%s, %s, ", fr(rd, t4), fr(rs1, t1));
        put(&o, "%s", fr(rs2, t2));
        if (rm_shown) put(&o, ", %s", rm_names[in->rm]);
        break;
    case VT_F_FR4:
        put(&o, "%s, %s, ", fr(rd, t4), fr(rs1, t1));
        put(&o, "%s, ", fr(rs2, t2));
        put(&o, "%s", fr(rs3, t1));
        if (rm_shown) put(&o, ", %s", rm_names[in->rm]);
        break;
    case VT_F_F1RM:
        put(&o, "%s, %s", fr(rd, t4), fr(rs1, t1));
        if (rm_shown) put(&o, ", %s", rm_names[in->rm]);
        break;
    case VT_F_F1: put(&o, "%s, %s", fr(rd, t4), fr(rs1, t1)); break;
    case VT_F_FCMP: put(&o, "%s, %s, ", d, fr(rs1, t4)); put(&o, "%s", fr(rs2, t1)); break;
    case VT_F_FCVT_XF: put(&o, "%s, %s", d, fr(rs1, t4)); if (rm_shown) put(&o, ", %s", rm_names[in->rm]); break;
    case VT_F_FCVT_FX: put(&o, "%s, %s", fr(rd, t4), s1); if (rm_shown) put(&o, ", %s", rm_names[in->rm]); break;
    case VT_F_FMV_XF: case VT_F_FCLASS: put(&o, "%s, %s", d, fr(rs1, t4)); break;
    case VT_F_FMV_FX: put(&o, "%s, %s", fr(rd, t4), s1); break;
    case VT_F_VSETVLI: put(&o, "%s, %s, ", d, s1); vtype_str(&o, (uint32_t)in->imm, spike); break;
    case VT_F_VSETIVLI: put(&o, "%s, ", d); imm(&o, spike, (int32_t)rs1); put(&o, ", "); vtype_str(&o, (uint32_t)in->imm, spike); break;
    case VT_F_VSETVL: put(&o, "%s, %s, %s", d, s1, s2); break;
    case VT_F_VLU: case VT_F_VSU: put(&o, "v%u, (%s)", rd, s1); vmask(&o, in); break;
    case VT_F_VLS: case VT_F_VSS: put(&o, "v%u, (%s), %s", rd, s1, s2); vmask(&o, in); break;
    case VT_F_VLX: case VT_F_VSX: put(&o, "v%u, (%s), v%u", rd, s1, rs2); vmask(&o, in); break;
    case VT_F_VV: put(&o, "v%u, v%u, v%u", rd, rs2, rs1); vmask(&o, in); break;
    case VT_F_VX: put(&o, "v%u, v%u, %s", rd, rs2, s1); vmask(&o, in); break;
    case VT_F_VI: case VT_F_VIU: put(&o, "v%u, v%u, ", rd, rs2); imm(&o, spike, in->imm); vmask(&o, in); break;
    case VT_F_VF: put(&o, "v%u, v%u, %s", rd, rs2, fr(rs1, t4)); vmask(&o, in); break;
    case VT_F_VMA_VV:
        if (spike) put(&o, "v%u, v%u, v%u", rd, rs2, rs1); else put(&o, "v%u, v%u, v%u", rd, rs1, rs2);
        vmask(&o, in);
        break;
    case VT_F_VMA_VX:
        if (spike) put(&o, "v%u, v%u, %s", rd, rs2, s1); else put(&o, "v%u, %s, v%u", rd, s1, rs2);
        vmask(&o, in);
        break;
    case VT_F_VMA_VF:
        if (spike) put(&o, "v%u, v%u, %s", rd, rs2, fr(rs1, t4)); else put(&o, "v%u, %s, v%u", rd, fr(rs1, t4), rs2);
        vmask(&o, in);
        break;
    case VT_F_V2: put(&o, "v%u, v%u", rd, rs2); vmask(&o, in); break;
    case VT_F_VID: put(&o, "v%u", rd); vmask(&o, in); break;
    case VT_F_VMV_VV: put(&o, "v%u, v%u", rd, rs1); break;
    case VT_F_VMV_VX: case VT_F_VMV_SX: put(&o, "v%u, %s", rd, s1); break;
    case VT_F_VMV_VI: put(&o, "v%u, ", rd); imm(&o, spike, in->imm); break;
    case VT_F_VFMV_VF: case VT_F_VFMV_SF: put(&o, "v%u, %s", rd, fr(rs1, t4)); break;
    case VT_F_VMV_XS: put(&o, "%s, v%u", d, rs2); break;
    case VT_F_VFMV_FS: put(&o, "%s, v%u", fr(rd, t4), rs2); break;
    case VT_F_VMERGE_VV: put(&o, "v%u, v%u, v%u, v0", rd, rs2, rs1); break;
    case VT_F_VMERGE_VX: put(&o, "v%u, v%u, %s, v0", rd, rs2, s1); break;
    case VT_F_VMERGE_VI: put(&o, "v%u, v%u, ", rd, rs2); imm(&o, spike, in->imm); put(&o, ", v0"); break;
    case VT_F_VFMERGE: put(&o, "v%u, v%u, %s, v0", rd, rs2, fr(rs1, t4)); break;
    /* Ventus custom */
    case VT_F_VBR: case VT_F_JOIN:
        if (!spike && ti->fmt == VT_F_JOIN) { put(&o, "%s, %s, %d", s2, s1, in->imm); break; }
        put(&o, "v%u, v%u, ", rs2, rs1);
        if (spike) target(&o, true, in, false);
        else put(&o, "0x%x", in->pc + (uint32_t)in->imm);
        break;
    case VT_F_SETRPC: put(&o, "%s, %s, %d", d, s1, in->imm); break;
    case VT_F_REGEXT:
        if (spike) {
            uint32_t v = (uint32_t)in->imm;
            /* the golden model prints the four 3-bit fields with a trailing space */
            put(&o, "%s, %s,  %u %u %u %u ", d, s1, (v >> 9) & 7, (v >> 6) & 7, (v >> 3) & 7, v & 7);
            return (int)o.pos;
        } else {
            put(&o, "%s, %s, %d", d, s1, in->imm);
        }
        break;
    case VT_F_ENDPRG: put(&o, "x%u, x%u, x%u", rd, rs1, rs2); break;
    case VT_F_BARRIER: put(&o, "x%u, x%u, %d", rd, rs2, in->imm); break;
    case VT_F_VADD12: put(&o, "v%u, v%u, %d", rd, rs1, in->imm); break;
    case VT_F_VFEXP: put(&o, "v%u, v%u", rd, rs2); vmask(&o, in); break;
    case VT_F_VFTTA: put(&o, "v%u, v%u, v%u", rd, rs1, rs2); vmask(&o, in); break;
    case VT_F_VL12: case VT_F_VLP:
        if (spike) put(&o, "v%u, v%u, %d", rd, rs1, in->imm); else put(&o, "v%u, %d(v%u)", rd, in->imm, rs1);
        break;
    case VT_F_VS12: case VT_F_VSP:
        if (spike) put(&o, "v%u, v%u, %d", rs2, rs1, in->imm); else put(&o, "v%u, %d(v%u)", rs2, in->imm, rs1);
        break;
    default:
        break;
    }
    finish(&o);
    return (int)o.pos;
}

int vt_disasm_llvm(const vt_insn *in, char *buf, size_t len) { return format(in, false, buf, len); }

int vt_disasm_spike(uint32_t bits, uint32_t pc, char *buf, size_t len)
{
    vt_insn in;
    vt_decode(bits, pc, &in);
    return format(&in, true, buf, len);
}

int umb_ventus_disasm(uint32_t insn, uint64_t pc, char *buf, size_t len)
{
    vt_insn in;
    vt_decode(insn, (uint32_t)pc, &in);
    return format(&in, false, buf, len);
}
