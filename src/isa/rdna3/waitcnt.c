/* --check-waitcnt (see waitcnt.h). */
#include "isa/rdna3/waitcnt.h"
#include "isa/rdna3/mimg.h"

#include <stdlib.h>
#include <string.h>

#include "isa/rdna3/exec_mem.h"
#include "isa/rdna3/op_table.h"

enum { CNT_VM, CNT_LGKM, CNT_VS, CNT_N };
static const char *const cnt_name[CNT_N] = { "vmcnt", "lgkmcnt", "vscnt" };

/* Event types: a counter decrements in issue order only while every pending event on it has
 * the same in-order type; SMEM returns out of order. FLAT counts on lgkmcnt as an LDS access
 * (EV_DS): from gfx10 on, FLAT decrements lgkmcnt and vmcnt in order (LLVM's
 * hasFlatLgkmVMemCountInOrder, true after gfx9, lets clang wait lgkmcnt(N > 0) for flat loads);
 * only gfx9 and older needed a wait for 0. */
enum { EV_NONE, EV_VMEM_LOAD, EV_VMEM_STORE, EV_DS, EV_SMEM };
static bool ev_in_order(unsigned ev) { return ev == EV_VMEM_LOAD || ev == EV_VMEM_STORE || ev == EV_DS; }

enum { RF_NONE, RF_V, RF_S };

typedef struct wc_op {
    uint64_t pc;
    const char *mnemonic;       /* for the report */
    uint8_t ev[CNT_N];          /* event type on each counter (EV_NONE: not counted there) */
    uint8_t file;               /* destination register file */
    uint16_t first, count;      /* destination registers */
} wc_op;

#define WC_MAX 256

typedef struct wc_state {
    wc_op op[WC_MAX];           /* outstanding, oldest first */
    unsigned n;
} wc_state;

/* A register range an instruction reads or writes. */
typedef struct wc_ref { uint8_t file; uint16_t first, count; } wc_ref;
typedef struct wc_refs { wc_ref r[12]; unsigned n; } wc_refs;

static void add_ref(wc_refs *rs, unsigned file, unsigned first, unsigned count)
{
    if (!count || rs->n >= sizeof rs->r / sizeof rs->r[0]) return;
    rs->r[rs->n++] = (wc_ref){ (uint8_t)file, (uint16_t)first, (uint16_t)count };
}

/* An operand encoding: SGPRs/VCC/M0/EXEC (not NULL), VGPRs; constants are not registers. */
static void add_enc(wc_refs *rs, unsigned enc, unsigned count)
{
    if (!count) count = 1;
    if (enc < RDNA3_NUM_SGPR_SLOTS && enc != RDNA3_SRC_NULL) add_ref(rs, RF_S, enc, count);
    else if (enc >= RDNA3_SRC_VGPR0 && enc < RDNA3_SRC_VGPR0 + 256) add_ref(rs, RF_V, enc - RDNA3_SRC_VGPR0, count);
}

static bool overlap(const wc_ref *a, unsigned file, unsigned first, unsigned count)
{
    return a->file == file && a->first < first + count && first < a->first + a->count;
}

static const char *rf_prefix(unsigned f) { return f == RF_V ? "v" : "s"; }

/* ---- what an instruction does to the counters and registers ---- */

typedef struct wc_effect {
    wc_refs reads, writes;
    uint8_t ev[CNT_N];
    bool mem;                   /* a memory instruction (its destination becomes outstanding) */
    wc_ref dest;
} wc_effect;

static unsigned vm_dest_regs(const vm_op *d)
{
    if (d->kind == VM_LOAD || d->kind == VM_ATOMIC) return d->size >= 4 ? d->size / 4u : 1u;
    return d->kind == VM_LOAD_D16 ? 1u : 0u;
}

static unsigned vm_data_regs(const vm_op *d)
{
    if (d->kind == VM_STORE) return d->size >= 4 ? d->size / 4u : 1u;
    if (d->kind != VM_ATOMIC) return 0;
    bool cmp = d->atomic == AMD_AT_CMPSWAP || d->atomic == AMD_AT_FCMPSWAP;
    return d->size / 4u * (cmp ? 2u : 1u);
}

static void set_vm_events(wc_effect *e, const vm_op *d, bool ret, bool flat)
{
    bool load = d->kind == VM_LOAD || d->kind == VM_LOAD_D16 || (d->kind == VM_ATOMIC && ret);
    e->ev[load ? CNT_VM : CNT_VS] = load ? EV_VMEM_LOAD : EV_VMEM_STORE;
    if (flat) e->ev[CNT_LGKM] = EV_DS;
}

static void effect_flat(const rdna3_inst *in, wc_effect *e)
{
    const vm_op *d = rdna3_vm_op(in->op);
    static const vm_op addtid_ld = { VM_LOAD, 4, 0, 0, 0, 1 }, addtid_st = { VM_STORE, 4, 0, 0, 0, 1 };
    bool addtid = in->fmt == RDNA3_FMT_GLOBAL && (in->op == 0x28 || in->op == 0x29);
    if (addtid) d = in->op == 0x28 ? &addtid_ld : &addtid_st;
    if (!d) return;
    bool saddr = in->saddr < RDNA3_SRC_NULL, ret = d->kind != VM_ATOMIC || in->glc;
    unsigned aregs = in->fmt == RDNA3_FMT_FLAT ? 2u
                   : in->fmt == RDNA3_FMT_GLOBAL ? (addtid ? 0u : saddr ? 1u : 2u)
                   : (in->sve ? 1u : 0u);
    add_ref(&e->reads, RF_V, in->addr, aregs);
    if (saddr) add_ref(&e->reads, RF_S, in->saddr, in->fmt == RDNA3_FMT_SCRATCH ? 1u : 2u);
    add_ref(&e->reads, RF_V, in->data0, vm_data_regs(d));
    if (ret) e->dest = (wc_ref){ RF_V, in->vdst, (uint16_t)vm_dest_regs(d) };
    set_vm_events(e, d, ret, in->fmt == RDNA3_FMT_FLAT);
}

static void effect_buf(const rdna3_inst *in, wc_effect *e)
{
    add_ref(&e->reads, RF_V, in->addr, (unsigned)in->idxen + in->offen);
    add_ref(&e->reads, RF_S, in->saddr, 4);
    add_enc(&e->reads, in->soffset, 1);
    unsigned op = in->op, nd = 0;
    bool load = true;
    if (in->fmt == RDNA3_FMT_MTBUF || op <= 0x0F || op == 0x26 || op == 0x27) {
        unsigned n = (in->fmt == RDNA3_FMT_MUBUF && op >= 0x26) ? 1u : (op & 3u) + 1u;
        bool d16 = (in->fmt == RDNA3_FMT_MUBUF && op >= 0x26) || (op & 8u);
        load = in->fmt == RDNA3_FMT_MUBUF && op >= 0x26 ? op == 0x26 : !(op & 4u);
        nd = d16 ? (n + 1u) / 2u : n;
        if (!load) add_ref(&e->reads, RF_V, in->data0, nd);
    } else if (op == 0x2B || op == 0x2C) {
        return;                                  /* cache invalidates: no counter */
    } else if (op >= 0x2D && op <= 0x32) {
        nd = 0;                                  /* into LDS: no VGPR written */
    } else {
        const vm_op *d = rdna3_vm_op(op);
        if (!d) return;
        add_ref(&e->reads, RF_V, in->data0, vm_data_regs(d));
        load = d->kind != VM_STORE && (d->kind != VM_ATOMIC || in->glc);
        nd = load ? vm_dest_regs(d) : 0;
    }
    if (load && nd) e->dest = (wc_ref){ RF_V, in->data0, (uint16_t)(nd + in->tfe) };
    e->ev[load ? CNT_VM : CNT_VS] = load ? EV_VMEM_LOAD : EV_VMEM_STORE;
}

/* MIMG: address VGPRs (NSA: each operand), T# (4 or 8 SGPRs), S#, store/atomic data; loads,
 * samples and returning atomics write vdata (see mimg.h). */
static void effect_mimg(const rdna3_inst *in, const rdna3_opinfo *oi, wc_effect *e)
{
    if (!oi) return;
    if (in->nsa) {
        for (unsigned i = 0; i < 5 && i < in->naddr; i++)
            add_ref(&e->reads, RF_V, in->vaddr[i], (i == 4 && in->naddr > 5) ? in->naddr - 4u : 1u);
    } else {
        add_ref(&e->reads, RF_V, in->vaddr[0], in->naddr);
    }
    bool bvh = rdna3_mimg_has(oi, 'Y'), store = rdna3_mimg_has(oi, 'W'), atomic = (oi->flags & RDNA3_F_ATOMIC) != 0;
    add_ref(&e->reads, RF_S, in->saddr, bvh || in->r128 ? 4u : 8u);
    if (rdna3_mimg_has(oi, 'S')) add_ref(&e->reads, RF_S, in->ssamp, 4);
    unsigned nd = bvh ? 4u : rdna3_mimg_vdata_regs(oi, in->dmask, in->d16, false);
    if (store || atomic) add_ref(&e->reads, RF_V, in->data0, nd);
    bool load = !store && (!atomic || in->glc);
    if (load) e->dest = (wc_ref){ RF_V, in->data0, (uint16_t)((atomic ? nd / (strstr(oi->name, "cmpswap") ? 2u : 1u) : nd) + in->tfe) };
    e->ev[load ? CNT_VM : CNT_VS] = load ? EV_VMEM_LOAD : EV_VMEM_STORE;
}

/* DS operands follow the opcode table's template: D = vdst, A = addr, 0/1 = data0/data1. */
static void effect_ds(const rdna3_inst *in, const rdna3_opinfo *oi, wc_effect *e)
{
    e->ev[CNT_LGKM] = EV_DS;
    if (!oi) return;
    unsigned k = 1;
    for (const char *p = oi->tmpl; *p; p++) {
        if (p != oi->tmpl && p[-1] != ',') continue;
        unsigned regs = *p == 'D' ? rdna3_k_regs(oi->kind[0]) : rdna3_k_regs(oi->kind[k < 4 ? k : 3]);
        switch (*p) {
        case 'D': e->dest = (wc_ref){ RF_V, in->vdst, (uint16_t)(regs ? regs : 1u) }; continue;
        case 'A': add_ref(&e->reads, RF_V, in->addr, regs ? regs : 1u); break;
        case '0': add_ref(&e->reads, RF_V, in->data0, regs ? regs : 1u); break;
        case '1': add_ref(&e->reads, RF_V, in->data1, regs ? regs : 1u); break;
        default: break;
        }
        k++;
    }
}

static void effect_smem(const rdna3_inst *in, wc_effect *e)
{
    e->ev[CNT_LGKM] = EV_SMEM;
    if (in->op >= 0x20) return;                  /* invalidates, probes: nothing written */
    add_ref(&e->reads, RF_S, in->saddr, in->op >= 8 ? 4u : 2u);
    add_enc(&e->reads, in->soffset, 1);
    e->dest = (wc_ref){ RF_S, in->vdst, (uint16_t)(1u << (in->op & 7u)) };
}

/* ALU: sources and destination from the opcode table's operand kinds. */
static void effect_alu(unsigned wave_size, const rdna3_inst *in, const rdna3_opinfo *oi, wc_effect *e)
{
    if (!oi) return;
    bool scalar_fmt = in->fmt <= RDNA3_FMT_SOPP;
    for (unsigned i = 0; i < 3; i++)
        if (oi->kind[i + 1]) add_enc(&e->reads, in->src[i], rdna3_k_regs(oi->kind[i + 1]));
    if (oi->kind[0]) {
        unsigned regs = rdna3_k_regs(oi->kind[0]);
        if (scalar_fmt || rdna3_k_scalar(oi->kind[0])) add_enc(&e->writes, in->vdst, regs);
        else add_ref(&e->writes, RF_V, in->vdst, regs ? regs : 1u);
    }
    if (in->fmt == RDNA3_FMT_VOP3SD) add_enc(&e->writes, in->sdst, wave_size == 64 ? 2u : 1u);
    if (in->fmt == RDNA3_FMT_VOPD) {
        const rdna3_opinfo *oy = rdna3_opinfo_get(RDNA3_T_VOPDY, in->opy);
        if (!oy) return;
        for (unsigned i = 0; i < 2; i++)
            if (oy->kind[i + 1]) add_enc(&e->reads, in->srcy[i], 1);
        add_ref(&e->writes, RF_V, in->vdsty, 1);
    }
}

static void effect_of(unsigned wave_size, const rdna3_inst *in, wc_effect *e)
{
    memset(e, 0, sizeof *e);
    const rdna3_opinfo *oi = rdna3_inst_info(in);
    switch (in->fmt) {
    case RDNA3_FMT_SMEM: effect_smem(in, e); e->mem = true; break;
    case RDNA3_FMT_DS: effect_ds(in, oi, e); e->mem = true; break;
    case RDNA3_FMT_FLAT: case RDNA3_FMT_GLOBAL: case RDNA3_FMT_SCRATCH: effect_flat(in, e); e->mem = true; break;
    case RDNA3_FMT_MUBUF: case RDNA3_FMT_MTBUF: effect_buf(in, e); e->mem = true; break;
    case RDNA3_FMT_MIMG: effect_mimg(in, oi, e); e->mem = true; break;
    default: effect_alu(wave_size, in, oi, e); break;
    }
}

/* ---- the wave's outstanding operations ---- */

static void drop(wc_state *s, unsigned i)
{
    memmove(&s->op[i], &s->op[i + 1], (s->n - i - 1) * sizeof s->op[0]);
    s->n--;
}

/* Counter c has dropped to at most `limit`: retire what is then certainly complete. */
static void wait_counter(wc_state *s, unsigned c, unsigned limit)
{
    unsigned pending = 0, ev = EV_NONE;
    bool ordered = true;
    for (unsigned i = 0; i < s->n; i++) {
        if (!s->op[i].ev[c]) continue;
        if (pending++ && s->op[i].ev[c] != ev) ordered = false;
        ev = s->op[i].ev[c];
        if (!ev_in_order(ev)) ordered = false;
    }
    if (pending <= limit) return;
    /* In order: the oldest pending-limit are done. Out of order: only a wait for 0 is sure. */
    unsigned retire = ordered ? pending - limit : (limit == 0 ? pending : 0);
    for (unsigned i = 0; i < s->n && retire; i++) {
        if (!s->op[i].ev[c]) continue;
        s->op[i].ev[c] = EV_NONE;
        retire--;
    }
    for (unsigned i = s->n; i-- > 0;) {
        const wc_op *o = &s->op[i];
        if (!o->ev[CNT_VM] && !o->ev[CNT_LGKM] && !o->ev[CNT_VS]) drop(s, i);
    }
}

/* s_waitcnt (SOPP 9: vmcnt [15:10], lgkmcnt [9:4]) and s_waitcnt_{vs,vm,lgkm}cnt (SOPK 0x18,
 * 0x19, 0x1b: the count is SGPR (or NULL = 0) + simm16). True if `in` was one. */
static bool do_wait(const rdna3_wave *w, wc_state *s, const rdna3_inst *in)
{
    if (in->fmt == RDNA3_FMT_SOPP && in->op == 9) {
        wait_counter(s, CNT_VM, (in->simm16 >> 10) & 63u);
        wait_counter(s, CNT_LGKM, (in->simm16 >> 4) & 63u);
        return true;
    }
    if (in->fmt != RDNA3_FMT_SOPK || in->op < 0x18 || in->op > 0x1b) return false;
    if (in->op == 0x1a) return true;             /* s_waitcnt_expcnt: exports/GDS, not tracked */
    uint32_t n = in->simm16 + (in->vdst < RDNA3_NUM_SGPR_SLOTS && in->vdst != RDNA3_SRC_NULL ? w->sgpr[in->vdst] : 0u);
    static const unsigned which[4] = { CNT_VS, CNT_VM, 0, CNT_LGKM };
    wait_counter(s, which[in->op - 0x18], n > 63 ? 63 : n);
    return true;
}

static void report(rdna3_wave *w, const rdna3_inst *in, const wc_op *o, unsigned file, unsigned reg, const char *what)
{
    char cnts[40] = "";
    for (unsigned c = 0; c < CNT_N; c++) {
        if (!o->ev[c]) continue;
        if (cnts[0]) strcat(cnts, "/");
        strcat(cnts, cnt_name[c]);
    }
    rdna3_fault(w, in, UMB_ERR_GUEST_FAULT,
                "waitcnt: %s %s%u before the %s issued at PC 0x%llx that writes it completes "
                "(missing s_waitcnt %s)", what, rf_prefix(file), reg, o->mnemonic,
                (unsigned long long)o->pc, cnts);
}

/* The first outstanding operation whose destination overlaps r, or NULL. */
static const wc_op *pending_dest(const wc_state *s, const wc_ref *r, unsigned *reg)
{
    for (unsigned i = 0; i < s->n; i++) {
        const wc_op *o = &s->op[i];
        wc_ref d = { o->file, o->first, o->count };
        if (!overlap(&d, r->file, r->first, r->count)) continue;
        *reg = r->first > d.first ? r->first : d.first;
        return o;
    }
    return NULL;
}

void rdna3_waitcnt_step(rdna3_wave *w, const rdna3_inst *in)
{
    wc_state *s = w->waitcnt;
    if (!s) {
        s = calloc(1, sizeof *s);
        if (!s) {
            rdna3_fault(w, in, UMB_ERR_NOMEM, "waitcnt: out of host memory");
            return;
        }
        w->waitcnt = s;
    }
    if (do_wait(w, s, in)) return;
    wc_effect e;
    effect_of(w->wave_size, in, &e);
    unsigned reg;
    for (unsigned i = 0; i < e.reads.n; i++) {
        const wc_op *o = pending_dest(s, &e.reads.r[i], &reg);
        if (o) { report(w, in, o, e.reads.r[i].file, reg, "reads"); return; }
    }
    /* Write after write: an ALU result would be clobbered when the load lands. */
    for (unsigned i = 0; i < e.writes.n; i++) {
        const wc_op *o = pending_dest(s, &e.writes.r[i], &reg);
        if (o) { report(w, in, o, e.writes.r[i].file, reg, "overwrites"); return; }
    }
    if (!e.mem || (!e.ev[CNT_VM] && !e.ev[CNT_LGKM] && !e.ev[CNT_VS])) return;
    if (s->n == WC_MAX) drop(s, 0);   /* beyond any counter's range: the oldest must be done */
    wc_op *o = &s->op[s->n++];
    memset(o, 0, sizeof *o);
    o->pc = w->pc;
    o->mnemonic = rdna3_mnemonic(in);
    memcpy(o->ev, e.ev, sizeof o->ev);
    o->file = e.dest.file;
    o->first = e.dest.first;
    o->count = e.dest.count;
}

void rdna3_waitcnt_free(rdna3_wave *w)
{
    free(w->waitcnt);
    w->waitcnt = NULL;
}

/* timing mode (src/isa/rdna3/timing.c): the same analysis, as registers and counters */
static void copy_refs(const wc_refs *from, rdna3_regref *to, unsigned max, unsigned *n)
{
    for (unsigned i = 0; i < from->n && *n < max; i++)
        to[(*n)++] = (rdna3_regref){ from->r[i].file == RF_V, from->r[i].first, from->r[i].count };
}

void rdna3_inst_effect(unsigned wave_size, const rdna3_inst *in, rdna3_effect *out)
{
    wc_effect e;
    effect_of(wave_size, in, &e);
    memset(out, 0, sizeof *out);
    copy_refs(&e.reads, out->reads, RDNA3_EFFECT_REFS, &out->nreads);
    copy_refs(&e.writes, out->writes, RDNA3_EFFECT_REFS, &out->nwrites);
    if (e.dest.count && out->nwrites < RDNA3_EFFECT_REFS)
        out->writes[out->nwrites++] = (rdna3_regref){ e.dest.file == RF_V, e.dest.first, e.dest.count };
    for (unsigned c = 0; c < CNT_N; c++) {
        if (!e.ev[c]) continue;
        out->counters |= (uint8_t)(1u << c);
        if (!ev_in_order(e.ev[c])) out->out_of_order |= (uint8_t)(1u << c);
    }
}
