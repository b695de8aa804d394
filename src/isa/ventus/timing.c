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

/* The register a source operand names: x0..x63 are scalar registers 0..63, f0..f63 64..127, v
 * the vector file (numbers past a file's end, which regext cannot make, are not tracked). */
enum { SRC_X, SRC_F, SRC_V };

static void add_src(umb_tinst *ti, unsigned kind, unsigned reg)
{
    unsigned lim = kind == SRC_V ? 256u : 64u;
    ti->operands++;   /* the collector reads x0 like any register */
    if (reg >= lim || (kind == SRC_X && reg == 0) || ti->nsrc >= UMB_TINST_SRCS) return;
    uint8_t file = kind == SRC_V ? UMB_TREG_V : UMB_TREG_S;
    ti->src[ti->nsrc++] = (umb_treg){ file, (uint16_t)(kind == SRC_F ? 64u + reg : reg), 1 };
}

/* The registers an instruction of format `fmt` reads, as its encoding says (the decoder fills
 * rs1, rs2 and rs3 from their bit fields whatever the format; immediates live there too). */
static void add_sources(umb_tinst *ti, const vt_insn *in, unsigned fmt)
{
    unsigned r1 = in->rs1, r2 = in->rs2, r3 = in->rs3, rd = in->rd;
    switch (fmt) {
    case VT_F_R: case VT_F_ST: case VT_F_B: case VT_F_AMO: case VT_F_VSETVL:
    case VT_F_VLS: case VT_F_JOIN:
        add_src(ti, SRC_X, r1), add_src(ti, SRC_X, r2);
        break;
    case VT_F_I: case VT_F_ISH: case VT_F_LD: case VT_F_JALR: case VT_F_CSR: case VT_F_LR:
    case VT_F_FLD: case VT_F_FCVT_FX: case VT_F_FMV_FX: case VT_F_VSETVLI: case VT_F_VLU:
    case VT_F_SETRPC:
        add_src(ti, SRC_X, r1);
        break;
    case VT_F_FST: add_src(ti, SRC_X, r1), add_src(ti, SRC_F, r2); break;
    case VT_F_FR: case VT_F_FRRM: case VT_F_FCMP: add_src(ti, SRC_F, r1), add_src(ti, SRC_F, r2); break;
    case VT_F_FR4: add_src(ti, SRC_F, r1), add_src(ti, SRC_F, r2), add_src(ti, SRC_F, r3); break;
    case VT_F_F1RM: case VT_F_F1: case VT_F_FCVT_XF: case VT_F_FMV_XF: case VT_F_FCLASS:
        add_src(ti, SRC_F, r1);
        break;
    case VT_F_VLX: add_src(ti, SRC_X, r1), add_src(ti, SRC_V, r2); break;
    case VT_F_VSU: add_src(ti, SRC_X, r1), add_src(ti, SRC_V, rd); break;   /* data in the rd field */
    case VT_F_VSS: add_src(ti, SRC_X, r1), add_src(ti, SRC_X, r2), add_src(ti, SRC_V, rd); break;
    case VT_F_VSX: add_src(ti, SRC_X, r1), add_src(ti, SRC_V, r2), add_src(ti, SRC_V, rd); break;
    case VT_F_VV: case VT_F_VMERGE_VV: case VT_F_VBR: case VT_F_VS12: case VT_F_VSP:
        add_src(ti, SRC_V, r1), add_src(ti, SRC_V, r2);
        break;
    case VT_F_VX: case VT_F_VMERGE_VX: add_src(ti, SRC_X, r1), add_src(ti, SRC_V, r2); break;
    case VT_F_VF: case VT_F_VFMERGE: add_src(ti, SRC_F, r1), add_src(ti, SRC_V, r2); break;
    case VT_F_VI: case VT_F_VIU: case VT_F_V2: case VT_F_VMERGE_VI: case VT_F_VMV_XS:
    case VT_F_VFMV_FS: case VT_F_VFEXP:
        add_src(ti, SRC_V, r2);
        break;
    case VT_F_VMA_VV: case VT_F_VFTTA:   /* the accumulator (rs3: the rd field, regext-extended) */
        add_src(ti, SRC_V, r1), add_src(ti, SRC_V, r2), add_src(ti, SRC_V, r3);
        break;
    case VT_F_VMA_VX: add_src(ti, SRC_X, r1), add_src(ti, SRC_V, r2), add_src(ti, SRC_V, r3); break;
    case VT_F_VMA_VF: add_src(ti, SRC_F, r1), add_src(ti, SRC_V, r2), add_src(ti, SRC_V, r3); break;
    case VT_F_VMV_VV: case VT_F_VADD12: case VT_F_VL12: case VT_F_VLP: add_src(ti, SRC_V, r1); break;
    case VT_F_VMV_VX: case VT_F_VMV_SX: add_src(ti, SRC_X, r1); break;
    case VT_F_VFMV_VF: case VT_F_VFMV_SF: add_src(ti, SRC_F, r1); break;
    default:   /* U, J, fences, CSR immediates, vsetivli, vid, vmv.v.i, regext, endprg, barrier */
        break;
    }
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
    add_sources(ti, in, info->fmt);
    if (info->fmt == VT_F_JOIN) ti->operands = 0;   /* the RTL's decode selects no operand for join */
    if ((info->tflags & VT_T_VEC) && !in->vm) add_src(ti, SRC_V, 0);   /* the mask, v0 (vmerge's too) */
    if ((info->tflags & VT_T_WX) && in->rd && in->rd < 64) ti->dst[ti->ndst++] = (umb_treg){ UMB_TREG_S, in->rd, 1 };
    if ((info->tflags & VT_T_WF) && in->rd < 64) ti->dst[ti->ndst++] = (umb_treg){ UMB_TREG_S, (uint16_t)(64 + in->rd), 1 };
    if ((info->tflags & VT_T_WV) && in->rd < 256) ti->dst[ti->ndst++] = (umb_treg){ UMB_TREG_V, in->rd, 1 };
    if (ti->cls == UMB_T_SMEM || (ti->cls >= UMB_T_VMEM_LOAD && ti->cls <= UMB_T_VMEM_ATOMIC)) {
        ti->bytes_per_lane = in->msize ? in->msize : 4;
        ti->late_addr = 1;
        ti->one_lane = (info->tflags & (VT_T_LD | VT_T_ST)) != 0;
    }
    return true;
}

void vt_timing_dynamic(void *kernel, const umb_warp *uw, const umb_tinst *ti, umb_tevent *ev)
{
    (void)kernel;
    const vt_warp *w = uw->isa;
    uint64_t mask = w->mask;
    ev->exec = ti->one_lane ? 1u : mask;   /* a scalar access: one address, in maddr[0] */
    ev->active = (uint32_t)__builtin_popcountll(ev->exec);
    ev->has_addr = 1;
    ev->space = vt_space_for(w->maddr[0]) == UMB_SPACE_LOCAL ? UMB_TSPACE_LDS : UMB_TSPACE_GLOBAL;
    for (uint64_t m = ev->exec; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctzll(m);
        ev->addr[l] = ev->space == UMB_TSPACE_LDS ? w->maddr[l] - VT_LOCAL_BASE : w->maddr[l];
    }
}
