/* Ventus side of the timing interface (src/timing/event.h). Timing mode only; the step loops
 * never call this.
 *
 * Register files for dependencies: x0..x63 as scalar registers 0..63, f0..f63 as 64..127, v as
 * vector registers. Ventus has no s_waitcnt: a load's destination is simply not ready until the
 * data returns (the hardware's scoreboard), so loads increment no counter. The executors keep the
 * lane addresses of the last memory instruction in maddr[], so the addresses are read after the
 * instruction ran (umb_tinst.late_addr). */
#include <string.h>

#include "isa/ventus/ventus_isa.h"
#include "timing/event.h"

uint64_t vt_timing_pc(const umb_warp *uw)
{
    return ((const vt_warp *)uw->isa)->pc;
}

static void add_src(umb_tinst *ti, uint8_t file, unsigned reg)
{
    if (ti->nsrc < UMB_TINST_SRCS) ti->src[ti->nsrc++] = (umb_treg){ file, (uint16_t)reg, 1 };
}

/* The instructions the RTL executes on its special function unit (num_sfu = num_thread / 4
 * lanes): integer division and remainder, FP division and square root, vfexp, scalar and vector
 * (the `sfu` column of ventus-gpgpu's decode table, as THU-DSP-LAB/ventus-gpgpu-cpp-simulator's
 * init_decodetable.cpp ports it). They take the machine's trans_latency and trans_issue. */
static bool vt_is_sfu(unsigned op)
{
    switch (op) {
    case VT_OP_div: case VT_OP_divu: case VT_OP_rem: case VT_OP_remu:
    case VT_OP_fdiv_s: case VT_OP_fsqrt_s:
    case VT_OP_vdiv_vv: case VT_OP_vdiv_vx: case VT_OP_vdivu_vv: case VT_OP_vdivu_vx:
    case VT_OP_vrem_vv: case VT_OP_vrem_vx: case VT_OP_vremu_vv: case VT_OP_vremu_vx:
    case VT_OP_vfdiv_vv: case VT_OP_vfdiv_vf: case VT_OP_vfrdiv_vf: case VT_OP_vfsqrt_v: case VT_OP_vfexp_v:
        return true;
    default:
        return false;
    }
}

static umb_tclass vt_class(const vt_insn *in, const vt_insn_info *info)
{
    if (in->op == VT_OP_endprg) return UMB_T_END;
    if (in->op == VT_OP_barrier) return UMB_T_BARRIER;
    if (info->tflags & VT_T_AMO) return UMB_T_VMEM_ATOMIC;
    if (info->tflags & VT_T_VLD) return UMB_T_VMEM_LOAD;
    if (info->tflags & (VT_T_VST | VT_T_ST)) return UMB_T_VMEM_STORE;
    if (info->tflags & VT_T_LD) return UMB_T_SMEM;
    if (vt_is_sfu(in->op)) return UMB_T_VALU_TRANS;
    switch (in->cls) {
    case UMB_CLASS_VALU_INT: case UMB_CLASS_VALU_FP: return UMB_T_VALU;
    case UMB_CLASS_BRANCH: case UMB_CLASS_DIVERGENCE: return UMB_T_BRANCH;
    case UMB_CLASS_SALU: return UMB_T_SALU;
    default: return UMB_T_OTHER;
    }
}

bool vt_timing_static(void *kernel, umb_warp *uw, umb_tinst *ti)
{
    (void)kernel;
    vt_warp *w = uw->isa;
    const vt_page *p = (w->pc & 3u) ? NULL : vt_page_get(w->k, w->pc);
    if (!p) {
        uw->pc = w->pc;
        umb_fault_report(uw, UMB_ERR_GUEST_FAULT, "PC 0x%08x: no instruction to fetch", w->pc);
        return false;
    }
    const vt_insn *in = &p->insn[(w->pc & (VT_PAGE_BYTES - 1u)) >> 2];
    memset(ti, 0, sizeof *ti);
    ti->size = 4;
    if (in->op >= VT_OP_COUNT) {   /* illegal: it faults when it runs */
        ti->cls = UMB_T_OTHER;
        return true;
    }
    const vt_insn_info *info = &vt_insn_table[in->op];
    ti->cls = (uint8_t)vt_class(in, info);
    bool vec = info->tflags & VT_T_VEC, fp = in->cls == UMB_CLASS_VALU_FP && !vec;
    uint8_t file = vec ? UMB_TREG_V : UMB_TREG_S;
    unsigned base = fp ? 64u : 0u, lim = vec ? 256u : 64u;
    if (in->rs1 < lim) add_src(ti, file, base + in->rs1);
    if (in->rs2 < lim) add_src(ti, file, base + in->rs2);
    if (in->rs3 && in->rs3 < lim) add_src(ti, file, base + in->rs3);
    if (vec && !in->vm) add_src(ti, UMB_TREG_V, 0);   /* masked by v0 */
    if ((info->tflags & VT_T_WX) && in->rd && in->rd < 64) ti->dst[ti->ndst++] = (umb_treg){ UMB_TREG_S, in->rd, 1 };
    if ((info->tflags & VT_T_WF) && in->rd < 64) ti->dst[ti->ndst++] = (umb_treg){ UMB_TREG_S, (uint16_t)(64 + in->rd), 1 };
    if ((info->tflags & VT_T_WV) && in->rd < 256) ti->dst[ti->ndst++] = (umb_treg){ UMB_TREG_V, in->rd, 1 };
    if (ti->cls == UMB_T_SMEM || (ti->cls >= UMB_T_VMEM_LOAD && ti->cls <= UMB_T_VMEM_ATOMIC)) {
        ti->bytes_per_lane = in->msize ? in->msize : 4;
        ti->late_addr = 1;
    }
    return true;
}

void vt_timing_dynamic(void *kernel, const umb_warp *uw, const umb_tinst *ti, umb_tevent *ev)
{
    (void)kernel;
    const vt_warp *w = uw->isa;
    uint64_t mask = w->mask;
    /* a scalar access (one address in maddr[0]) counts as one lane */
    bool one = ti->cls == UMB_T_SMEM || (ti->cls == UMB_T_VMEM_STORE && ti->src[0].file == UMB_TREG_S);
    ev->exec = one ? 1u : mask;
    ev->active = (uint32_t)__builtin_popcountll(ev->exec);
    ev->has_addr = 1;
    ev->space = vt_space_for(w->maddr[0]) == UMB_SPACE_LOCAL ? UMB_TSPACE_LDS : UMB_TSPACE_GLOBAL;
    for (uint64_t m = ev->exec; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctzll(m);
        ev->addr[l] = ev->space == UMB_TSPACE_LDS ? w->maddr[l] - VT_LOCAL_BASE : w->maddr[l];
    }
}
