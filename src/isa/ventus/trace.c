/* The commit trace in the Ventus golden model's .log format (spec §5):
 *
 *   core   N: 0xPC (0xINSN) <disassembly>            printed when (pc, insn) changes, as spike's
 *                                                     debug output does ("Executed K times" when
 *                                                     one instruction ran K times in a row)
 *   core   N: 3 0xPC (0xINSN) <writes> [SIMT stack] <memory>
 *
 * Writes: " xN 0x%08x", " fN 0x%016x" (NaN-boxed), " cNNN_name 0x%08x", vector registers as
 * " vN  MASK 0xEK-1 .. E0 " after " e32 m1 lVL"; loads " mem ADDR", stores " mem ADDR VALUE"
 * (VALUE as wide as the store). The order of the entries per instruction kind follows the
 * reference logs. Nothing here runs unless a trace FILE was given.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "isa/ventus/ventus_isa.h"

typedef struct line { char b[4096]; size_t n; } line;

static void add(line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(line *l, const char *fmt, ...)
{
    if (l->n >= sizeof l->b) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(l->b + l->n, sizeof l->b - l->n, fmt, ap);
    va_end(ap);
    if (k > 0) l->n += (size_t)k;
    if (l->n >= sizeof l->b) l->n = sizeof l->b - 1;
}

static void vec_prefix(line *l, const vt_warp *w, bool *shown)
{
    if (*shown) return;
    uint32_t lmul = w->vtype & 7;
    if (lmul < 4) add(l, " e%u m%u l%u", 8u << ((w->vtype >> 3) & 7), 1u << lmul, w->vl);
    else add(l, " e%u mf%u l%u", 8u << ((w->vtype >> 3) & 7), 1u << (8 - lmul), w->vl);
    *shown = true;
}

static void csr_entry(line *l, uint32_t csr, uint32_t val)
{
    const char *n = vt_csr_name(csr);
    add(l, " c%u_%s 0x%08x", csr, n ? n : "unknown", val);
}

static void vreg_entry(line *l, const vt_warp *w, unsigned r)
{
    add(l, " v%-2u %08x 0x", r, w->mask);
    for (int i = (int)w->vl - 1; i >= 0; i--) add(l, "%08x ", w->v[r][i]);
}

static void xreg_entry(line *l, const vt_warp *w, const vt_insn *in)
{
    if (in->rd != 0) add(l, " x%-2u 0x%08x", in->rd, w->x[in->rd]);
}

static void simt_text(line *l, const vt_warp *w)
{
    add(l, " current mask:\t%08x current npc:\t%08x stack size: %u", w->mask, w->simt_npc, w->sp);
    for (int i = (int)w->sp - 1; i >= 0; i--)
        add(l, "\n[r_pc] %08x [else_pc] %08x [else_mask] %08x ", w->stack[i].rpc, w->stack[i].pc,
            w->stack[i].mask);
}

static void store_value(line *l, unsigned size, uint32_t v)
{
    if (size == 1) add(l, " 0x%x", v & 0xff);
    else if (size == 2) add(l, " 0x%04x", v & 0xffff);
    else add(l, " 0x%08x", v);
}

static uint32_t lanes_of(const vt_warp *w, const vt_insn *in)
{
    uint32_t m = w->mask & (w->vl >= 32 ? 0xffffffffu : (1u << w->vl) - 1u);
    if (!in->vm) m &= w->v[0][0];
    return m;
}

void vt_trace_insn(vt_warp *w, const vt_insn *in, uint32_t fflags_before)
{
    (void)fflags_before;
    FILE *f = w->k->trace;
    unsigned core = w->uw->id;
    line l;
    l.n = 0;
    l.b[0] = 0;
    if (in->pc != w->tr_last_pc || in->bits != w->tr_last_bits) {
        if (w->tr_execs != 1 && w->tr_execs != 0) add(&l, "core %3u: Executed %u times\n", core, w->tr_execs);
        char dis[128];
        vt_disasm_spike(in->bits, in->pc, dis, sizeof dis);
        add(&l, "core %3u: 0x%08x (0x%08x) %s\n", core, in->pc, in->bits, dis);
        w->tr_last_pc = in->pc;
        w->tr_last_bits = in->bits;
        w->tr_execs = 1;
    } else {
        w->tr_execs++;
    }
    add(&l, "core %3u: 3 0x%08x (0x%08x)", core, in->pc, in->bits);

    uint16_t tf = in->op < VT_OP_COUNT ? vt_insn_table[in->op].tflags : 0;
    bool shown = false;
    bool ms_changed = w->mstatus != w->mstatus_before;
    if (tf & VT_T_VSET) {
        xreg_entry(&l, w, in);
        csr_entry(&l, 0x008, w->vstart);
        csr_entry(&l, 0xc20, w->vl);
        csr_entry(&l, 0xc21, w->vtype);
        if (ms_changed) csr_entry(&l, 0x300, w->mstatus);
    } else if (tf & VT_T_CSR) {
        xreg_entry(&l, w, in);
        if (w->tr_csr) {
            uint32_t v = 0;
            vt_csr_read(w, w->tr_csr - 1, &v);
            csr_entry(&l, w->tr_csr - 1, v);
        }
        if (ms_changed && w->tr_csr != 0x301) csr_entry(&l, 0x300, w->mstatus);
    } else if (tf & VT_T_SIMT) {
        if (tf & VT_T_RPC) {
            xreg_entry(&l, w, in);
            csr_entry(&l, 0x80c, w->csr_rpc);
        }
        if (tf & VT_T_VEC) {
            csr_entry(&l, 0x008, w->vstart);
            vec_prefix(&l, w, &shown);
        }
        simt_text(&l, w);
    } else if (tf & VT_T_VLD) {
        vec_prefix(&l, w, &shown);
        vreg_entry(&l, w, in->rd);
        csr_entry(&l, 0x008, w->vstart);
        for (uint32_t m = lanes_of(w, in); m; m &= m - 1)
            add(&l, " mem 0x%08x", w->maddr[__builtin_ctz(m)]);
    } else if (tf & VT_T_VST) {
        csr_entry(&l, 0x008, w->vstart);
        vec_prefix(&l, w, &shown);
        unsigned src = (in->op >= VT_OP_vse8_v && in->op <= VT_OP_vsoxei32_v) ? in->rd : in->rs2;
        for (uint32_t m = lanes_of(w, in); m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctz(m);
            add(&l, " mem 0x%08x", w->maddr[i]);
            store_value(&l, in->msize, w->v[src][i]);
        }
    } else if (tf & VT_T_VEC) {
        csr_entry(&l, 0x008, w->vstart);
        if (w->fexc) csr_entry(&l, 0x001, w->fflags);
        vec_prefix(&l, w, &shown);
        if (tf & VT_T_WV) vreg_entry(&l, w, in->rd);
        if (tf & VT_T_WX) xreg_entry(&l, w, in);
        if (tf & VT_T_WF) add(&l, " f%-2u 0xffffffff%08x", in->rd, w->f[in->rd]);
    } else {
        if ((tf & VT_T_FP) && w->fexc) csr_entry(&l, 0x001, w->fflags);
        if (tf & VT_T_WX) xreg_entry(&l, w, in);
        if (tf & VT_T_WF) add(&l, " f%-2u 0xffffffff%08x", in->rd, w->f[in->rd]);
        if (tf & (VT_T_LD | VT_T_AMO)) add(&l, " mem 0x%08x", w->maddr[0]);
        if (tf & VT_T_ST) {
            add(&l, " mem 0x%08x", w->maddr[0]);
            uint32_t v = in->op == VT_OP_fsw ? w->f[in->rs2] : w->x[in->rs2];
            store_value(&l, in->msize, v);
        }
        if ((tf & VT_T_AMO) && w->amo_stored) {
            uint32_t v = 0;
            umb_mem_load(vt_mem_for(w, w->maddr[0]), w->maddr[0], &v, 4);
            add(&l, " mem 0x%08x 0x%08x", w->maddr[0], v);
        }
    }
    add(&l, "\n");
    fwrite(l.b, 1, l.n, f);
}
