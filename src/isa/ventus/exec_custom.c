/* Ventus custom control instructions: the SIMT stack (spec §3), regext, endprg, barriers. */
#include "isa/ventus/ventus_isa.h"

/* vbranch: threads where (vs2 OP vs1) go to PC+offset, the rest to PC+4. A split pushes the
 * reconvergence entry {rpc, rpc, mask} and the side with MORE threads; the warp continues with
 * the side with fewer (the taken side on a tie, as the golden model does). */
static void vbranch(vt_warp *w, const vt_insn *in, uint32_t taken)
{
    uint32_t m = w->mask & (w->vl >= 32 ? 0xffffffffu : (1u << w->vl) - 1u);
    taken &= m;
    uint32_t target = in->pc + (uint32_t)in->imm, fall = in->pc + 4;
    if (taken == 0) { w->simt_npc = fall; return; }
    if (taken == m) { w->pc = target; w->simt_npc = target; return; }
    if (w->sp + 2 > VT_STACK_DEPTH) {
        vt_fault(w, in, UMB_ERR_GUEST_FAULT, -1, 0,
                 "SIMT stack overflow: a divergent branch needs 2 entries, %u of %u are in use",
                 w->sp, VT_STACK_DEPTH);
        return;
    }
    uint32_t nt = m & ~taken, rpc = w->csr_rpc;
    w->stack[w->sp++] = (vt_simt_entry){ rpc, rpc, m };
    if (__builtin_popcount(taken) <= __builtin_popcount(nt)) {
        w->stack[w->sp++] = (vt_simt_entry){ rpc, fall, nt };
        w->mask = taken;
        w->pc = target;
        w->nactive = (uint32_t)__builtin_popcount(taken);
    } else {
        w->stack[w->sp++] = (vt_simt_entry){ rpc, target, taken };
        w->mask = nt;
        w->pc = fall;
        w->nactive = (uint32_t)__builtin_popcount(nt);
    }
    w->simt_npc = w->pc;
    w->stats->divergent_branches++;
}

#define VBR(id, T, op) \
    void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        const uint32_t *a = w->v[in->rs2], *b = w->v[in->rs1]; \
        uint32_t t = 0; \
        for (uint32_t i = 0; i < w->nlanes; i++) t |= (uint32_t)((T)a[i] op (T)b[i]) << i; \
        vbranch(w, in, t); \
    }
VBR(vbeq, uint32_t, ==)
VBR(vbne, uint32_t, !=)
VBR(vblt, int32_t, <)
VBR(vbge, int32_t, >=)
VBR(vbltu, uint32_t, <)
VBR(vbgeu, uint32_t, >=)

/* join: at the reconvergence PC of the top entry, resume that entry (PC and mask) and pop. */
void vt_x_join(vt_warp *w, const vt_insn *in)
{
    if (w->sp == 0 || w->stack[w->sp - 1].rpc != in->pc) return;
    vt_simt_entry e = w->stack[--w->sp];
    w->pc = e.pc;
    w->mask = e.mask;
    w->nactive = (uint32_t)__builtin_popcount(e.mask);
    w->simt_npc = e.pc;
}

/* setrpc: CSR_RPC = rd = rs1 + sext(imm). */
void vt_x_setrpc(vt_warp *w, const vt_insn *in)
{
    uint32_t v = w->x[in->rs1] + (uint32_t)in->imm;
    w->csr_rpc = v;
    vt_wx(w, in, v);
}

/* regext / regexti: the next instruction runs from a record decoded with the extension
 * (decode.c), installed as a one-instruction "page" at pc+4. */
static void route_next(vt_warp *w, const vt_insn *in)
{
    if (!in->ext_next) return;
    w->page = in->ext_next;
    w->page_base = in->pc + 4;
    w->page_limit = 4;
}
void vt_x_regext(vt_warp *w, const vt_insn *in) { route_next(w, in); }
void vt_x_regexti(vt_warp *w, const vt_insn *in) { route_next(w, in); }

/* regpair/regpairi exist only in the manual: neither the golden model nor LLVM implements
 * them, so there is no reference behaviour to follow. */
void vt_x_regpair(vt_warp *w, const vt_insn *in)
{
    vt_fault(w, in, UMB_ERR_UNSUPPORTED, -1, 0,
             "regpair is in the manual only (not implemented by the golden model or LLVM)");
}
void vt_x_regpairi(vt_warp *w, const vt_insn *in) { vt_x_regpair(w, in); }

void vt_x_endprg(vt_warp *w, const vt_insn *in)
{
    (void)in;
    w->stop = UMB_WARP_EXITED;
}

/* barrier: wait for every warp of the workgroup (the core completes it). */
void vt_x_barrier(vt_warp *w, const vt_insn *in)
{
    (void)in;
    w->stop = UMB_WARP_AT_BARRIER;
}

/* barriersub: a subgroup is one warp here, so it completes at once (golden: a no-op). */
void vt_x_barriersub(vt_warp *w, const vt_insn *in) { (void)w; (void)in; }
