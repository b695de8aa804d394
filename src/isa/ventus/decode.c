/* Ventus decoder: match/mask over the one table, operand fields by format, regext folding,
 * and the pre-decoded cache (4 KiB pages of vt_insn, shared lock-free by every warp and host
 * thread of a launch). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "isa/ventus/ventus_isa.h"

const vt_insn_info vt_insn_table[VT_OP_COUNT] = {
#define VT_INSN(id, nm, mt, mk, fmt, cls, tf) [VT_OP_##id] = { nm, mt, mk, fmt, cls, tf, vt_x_##id },
#include "isa/ventus/insns.def"
#undef VT_INSN
};

static inline int32_t sext(uint32_t v, unsigned bits)
{
    return (int32_t)(v << (32 - bits)) >> (32 - bits);
}

static int32_t imm_b(uint32_t b)
{
    uint32_t v = ((b >> 31) & 1) << 12 | ((b >> 7) & 1) << 11 | ((b >> 25) & 0x3f) << 5 |
                 ((b >> 8) & 0xf) << 1;
    return sext(v, 13);
}

static int32_t imm_j(uint32_t b)
{
    uint32_t v = ((b >> 31) & 1) << 20 | ((b >> 12) & 0xff) << 12 | ((b >> 20) & 1) << 11 |
                 ((b >> 21) & 0x3ff) << 1;
    return sext(v, 21);
}

static int32_t imm_s(uint32_t b) { return sext(((b >> 25) << 5) | ((b >> 7) & 0x1f), 12); }

/* Bytes moved per element of a load/store format (the data width, not the index width). */
static uint8_t mem_size(const vt_insn_info *ti, uint32_t b)
{
    uint32_t f3 = (b >> 12) & 7;
    switch (ti->fmt) {
    case VT_F_LD: case VT_F_ST: case VT_F_VL12: case VT_F_VLP: case VT_F_VSP:
        return (uint8_t)(1u << (f3 & 3));
    case VT_F_VS12:
        return f3 == 6 ? 4 : f3 == 3 ? 2 : 1;
    case VT_F_FLD: case VT_F_FST: case VT_F_AMO: case VT_F_LR:
        return 4;
    case VT_F_VLU: case VT_F_VLS: case VT_F_VSU: case VT_F_VSS:
        return f3 == 0 ? 1 : f3 == 5 ? 2 : 4;
    case VT_F_VLX: case VT_F_VSX:
        return 4;   /* data is SEW = 32 bits; the width field is the index width */
    default:
        return 0;
    }
}

static int lookup(uint32_t bits)
{
    for (int i = 0; i < VT_OP_COUNT; i++)
        if ((bits & vt_insn_table[i].mask) == vt_insn_table[i].match) return i;
    return -1;
}

static void illegal_fn(vt_warp *w, const vt_insn *in) { vt_illegal(w, in); }

/* Fill *o for word b at pc, table row op (or -1: illegal). */
static void decode_row(int op, uint32_t b, uint32_t pc, vt_insn *o)
{
    memset(o, 0, sizeof *o);
    o->bits = b;
    o->pc = pc;
    o->rd = (b >> 7) & 0x1f;
    o->rs1 = (b >> 15) & 0x1f;
    o->rs2 = (b >> 20) & 0x1f;
    o->rs3 = (b >> 27) & 0x1f;
    o->xd = o->rd ? o->rd : VT_XSINK;
    o->rm = (b >> 12) & 7;
    o->vm = 1;
    o->cls = UMB_CLASS_OTHER;
    if (op < 0) {
        o->op = VT_OP_ILLEGAL;
        o->fn = illegal_fn;
        return;
    }
    const vt_insn_info *ti = &vt_insn_table[op];
    o->op = (uint16_t)op;
    o->fn = ti->fn;
    o->cls = ti->cls;
    o->msize = mem_size(ti, b);
    switch (ti->fmt) {
    case VT_F_I: case VT_F_LD: case VT_F_JALR: case VT_F_FLD: case VT_F_SETRPC:
    case VT_F_VADD12: case VT_F_VL12:
        o->imm = sext(b >> 20, 12);
        break;
    case VT_F_ISH: o->imm = (int32_t)((b >> 20) & 0x1f); break;
    case VT_F_ST: case VT_F_FST: case VT_F_VS12: o->imm = imm_s(b); break;
    case VT_F_B: case VT_F_VBR: case VT_F_JOIN: o->imm = imm_b(b); break;
    case VT_F_U: o->imm = (int32_t)(b & 0xfffff000u); break;
    case VT_F_J: o->imm = imm_j(b); break;
    case VT_F_CSR: case VT_F_CSRI: case VT_F_REGEXT: case VT_F_FENCE:
        o->imm = (int32_t)(b >> 20);
        break;
    case VT_F_VSETVLI: o->imm = (int32_t)((b >> 20) & 0x7ff); break;
    case VT_F_VSETIVLI: o->imm = (int32_t)((b >> 20) & 0x3ff); break;
    case VT_F_VI: case VT_F_VMV_VI: case VT_F_VMERGE_VI: o->imm = sext(o->rs1, 5); break;
    case VT_F_VIU: o->imm = (int32_t)o->rs1; break;
    case VT_F_VLP: o->imm = sext((b >> 20) & 0x7ff, 11); break;
    case VT_F_VSP: o->imm = sext((((b >> 25) & 0x3f) << 5) | ((b >> 7) & 0x1f), 11); break;
    case VT_F_BARRIER: o->imm = (int32_t)o->rs1; break;
    default: break;
    }
    switch (ti->fmt) {
    case VT_F_VLU: case VT_F_VLS: case VT_F_VLX: case VT_F_VSU: case VT_F_VSS: case VT_F_VSX:
    case VT_F_VV: case VT_F_VX: case VT_F_VI: case VT_F_VIU: case VT_F_VF:
    case VT_F_VMA_VV: case VT_F_VMA_VX: case VT_F_VMA_VF: case VT_F_V2: case VT_F_VID:
    case VT_F_VMERGE_VV: case VT_F_VMERGE_VX: case VT_F_VMERGE_VI: case VT_F_VFMERGE:
    case VT_F_VFEXP: case VT_F_VFTTA:
        o->vm = (b >> 25) & 1;
        break;
    default: break;
    }
    /* Multiply-add reads its accumulator from the rd field ("vs3"); regext can extend the
     * read (rs3 bits) and the write (rd bits) separately (manual §4.2.2). */
    if (ti->fmt == VT_F_VMA_VV || ti->fmt == VT_F_VMA_VX || ti->fmt == VT_F_VMA_VF ||
        ti->fmt == VT_F_VFTTA)
        o->rs3 = o->rd;
}

void vt_decode(uint32_t b, uint32_t pc, vt_insn *o) { decode_row(lookup(b), b, pc, o); }

/* A key: major opcode (bits 6:0) and funct3 (bits 14:12) of a word. */static inline unsigned key_of(uint32_t b) { return (b & 0x7fu) | ((b >> 12) & 7u) << 7; }

void vt_decode_index_build(vt_decode_index *ix)
{
    /* Row r belongs to every key whose opcode and funct3 bits agree with it under its mask.
     * Two passes (count, then fill) keep each key's rows in table order: first match wins. */
    uint16_t count[VT_DECODE_KEYS] = {0};
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            unsigned total = 0;
            for (unsigned k = 0; k < VT_DECODE_KEYS; k++) total += count[k];
            ix->ok = total <= sizeof ix->row / sizeof ix->row[0];
            if (!ix->ok) return;
            ix->start[0] = 0;
            for (unsigned k = 0; k < VT_DECODE_KEYS; k++) ix->start[k + 1] = (uint16_t)(ix->start[k] + count[k]);
            memset(count, 0, sizeof count);
        }
        for (int r = 0; r < VT_OP_COUNT; r++) {
            uint32_t mk = vt_insn_table[r].mask, mt = vt_insn_table[r].match;
            /* the usual case, a fixed major opcode, has one opcode to try */
            bool fixed = (mk & 0x7fu) == 0x7fu;
            for (uint32_t op = fixed ? (mt & 0x7fu) : 0; op < 128; op = fixed ? 128 : op + 1) {
                if ((op & mk) != (mt & 0x7fu)) continue;
                /* most rows fix funct3 too: one key */
                bool f3_fixed = (mk & 0x7000u) == 0x7000u;
                for (uint32_t f3 = f3_fixed ? (mt >> 12) & 7u : 0; f3 < 8; f3 = f3_fixed ? 8 : f3 + 1) {
                    if (((f3 << 12) & mk) != (mt & 0x7000u)) continue;
                    unsigned k = op | f3 << 7;
                    if (pass == 1) ix->row[ix->start[k] + count[k]] = (uint16_t)r;
                    count[k]++;
                }
            }
        }
    }
}

void vt_decode_indexed(const vt_decode_index *ix, uint32_t b, uint32_t pc, vt_insn *o)
{
    if (!ix->ok) {
        vt_decode(b, pc, o);
        return;
    }
    unsigned k = key_of(b);
    int op = -1;
    for (unsigned j = ix->start[k]; j < ix->start[k + 1]; j++) {
        unsigned r = ix->row[j];
        if ((b & vt_insn_table[r].mask) == vt_insn_table[r].match) {
            op = (int)r;
            break;
        }
    }
    decode_row(op, b, pc, o);
}

void vt_apply_regext(vt_insn *in, bool immediate_form, uint32_t imm12)
{
    const vt_insn_info *ti = in->op < VT_OP_COUNT ? &vt_insn_table[in->op] : NULL;
    uint32_t f_rd = (in->bits >> 7) & 0x1f, f_rs1 = (in->bits >> 15) & 0x1f;
    uint32_t f_rs2 = (in->bits >> 20) & 0x1f, f_rs3 = (in->bits >> 27) & 0x1f;
    bool vma = ti && (ti->fmt == VT_F_VMA_VV || ti->fmt == VT_F_VMA_VX ||
                      ti->fmt == VT_F_VMA_VF || ti->fmt == VT_F_VFTTA);
    if (!immediate_form) {
        in->rd = (uint16_t)(f_rd | (imm12 & 7) << 5);
        in->rs1 = (uint16_t)(f_rs1 | ((imm12 >> 3) & 7) << 5);
        in->rs2 = (uint16_t)(f_rs2 | ((imm12 >> 6) & 7) << 5);
        in->rs3 = (uint16_t)((vma ? f_rd : f_rs3) | ((imm12 >> 9) & 7) << 5);
    } else {
        /* regexti: rd and rs2 high bits, and immediate bits [10:5] over the 5-bit immediate */
        in->rd = (uint16_t)(f_rd | (imm12 & 7) << 5);
        in->rs2 = (uint16_t)(f_rs2 | ((imm12 >> 3) & 7) << 5);
        if (vma) in->rs3 = in->rd;
        uint32_t v = ((imm12 >> 6) & 0x3f) << 5 | f_rs1;
        if (ti && ti->fmt == VT_F_VIU) in->imm = (int32_t)v;
        else in->imm = sext(v, 11);
    }
    in->xd = in->rd ? in->rd : VT_XSINK;
}

/* ---- pre-decoded pages ---- */

static void fetch_fault_fn(vt_warp *w, const vt_insn *in)
{
    vt_fault(w, in, UMB_ERR_GUEST_FAULT, -1, in->pc,
             "instruction fetch from unmapped address 0x%08x", in->pc);
}

static bool fetch(vt_kernel *k, uint64_t addr, uint32_t *out)
{
    return umb_mem_load(k->global, addr, out, 4);
}

static vt_page *decode_page(vt_kernel *k, uint64_t base)
{
    vt_page *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->base = base;
    unsigned next_ext = 0, n_ext = 0;
    uint32_t words[VT_PAGE_INSNS + 1];
    bool ok[VT_PAGE_INSNS + 1];
    for (unsigned i = 0; i < VT_PAGE_INSNS + 1; i++) ok[i] = fetch(k, base + 4ull * i, &words[i]);
    for (unsigned i = 0; i < VT_PAGE_INSNS; i++) {
        vt_insn *in = &p->insn[i];
        uint32_t pc = (uint32_t)(base + 4u * i);
        if (!ok[i]) {
            memset(in, 0, sizeof *in);
            in->pc = pc;
            in->op = VT_OP_ILLEGAL;
            in->fetch_fault = 1;
            in->fn = fetch_fault_fn;
            continue;
        }
        vt_decode_indexed(&k->dix, words[i], pc, in);
        if (in->op == VT_OP_regext || in->op == VT_OP_regexti) n_ext++;
    }
    if (n_ext) {
        p->ext = calloc(n_ext, sizeof(vt_insn));
        if (!p->ext) { free(p); return NULL; }
    }
    for (unsigned i = 0; i < VT_PAGE_INSNS; i++) {
        vt_insn *in = &p->insn[i];
        if (in->op != VT_OP_regext && in->op != VT_OP_regexti) continue;
        vt_insn *e = &p->ext[next_ext++];
        uint32_t npc = in->pc + 4;
        if (!ok[i + 1]) {
            memset(e, 0, sizeof *e);
            e->pc = npc;
            e->op = VT_OP_ILLEGAL;
            e->fetch_fault = 1;
            e->fn = fetch_fault_fn;
        } else {
            vt_decode_indexed(&k->dix, words[i + 1], npc, e);
            vt_apply_regext(e, in->op == VT_OP_regexti, (uint32_t)in->imm);
        }
        in->ext_next = e;
    }
    return p;
}

const vt_page *vt_page_get(vt_kernel *k, uint32_t pc)
{
    uint64_t base = pc & ~(uint64_t)(VT_PAGE_BYTES - 1u);
    _Atomic(vt_page *) *slot = &k->pages[(base / VT_PAGE_BYTES) % VT_PAGE_HASH];
    vt_page *head = atomic_load_explicit(slot, memory_order_acquire);
    for (vt_page *p = head; p; p = p->next)
        if (p->base == base) return p;
    vt_page *np = decode_page(k, base);
    if (!np) return NULL;
    for (;;) {
        np->next = head;
        if (atomic_compare_exchange_weak_explicit(slot, &head, np, memory_order_acq_rel,
                                                  memory_order_acquire))
            return np;
        /* another host thread inserted meanwhile: maybe our page */
        for (vt_page *p = head; p; p = p->next)
            if (p->base == base) {
                free(np->ext);
                free(np);
                return p;
            }
    }
}

void vt_pages_free(vt_kernel *k)
{
    for (unsigned i = 0; i < VT_PAGE_HASH; i++) {
        vt_page *p = atomic_load(&k->pages[i]);
        while (p) {
            vt_page *n = p->next;
            free(p->ext);
            free(p);
            p = n;
        }
        atomic_store(&k->pages[i], NULL);
    }
}
