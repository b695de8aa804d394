/* RDNA3 side of the timing interface (src/timing/event.h): what each instruction is for the
 * pipeline model, and which addresses its lanes touch. Timing mode only; the step loops never
 * call this. */
#include <string.h>

#include "isa/rdna3/exec_mem.h"
#include "isa/rdna3/mimg.h"
#include "isa/rdna3/op_table.h"
#include "isa/rdna3/waitcnt.h"
#include "isa/rdna3/wave.h"
#include "timing/event.h"

uint64_t rdna3_timing_pc(const umb_warp *warp)
{
    return ((const rdna3_wave *)warp->isa)->pc;
}

/* VOP1 opcodes of the transcendental unit (exp, log, rcp, rsq, sqrt, sin, cos; f32 and f16). */
static bool is_trans_vop1(unsigned op)
{
    switch (op) {
    case 0x25: case 0x27: case 0x2a: case 0x2b: case 0x2e: case 0x33: case 0x35: case 0x36:   /* f32 */
    case 0x54: case 0x55: case 0x56: case 0x57: case 0x58: case 0x61: case 0x62:              /* f16 */
        return true;
    default:
        return false;
    }
}

static bool is_f64(const rdna3_inst *in)
{
    const rdna3_opinfo *oi = rdna3_inst_info(in);
    if (!oi) return false;
    for (int i = 0; i < 4; i++)
        if (rdna3_k_type(oi->kind[i]) == RDNA3_TY_F64) return true;
    return false;
}

/* One s_delay_alu dependency ID (bits 3:0 or 10:7 of simm16) as an announced dependency:
 * 1-4 VALU_DEP_1..4, 5-7 TRANS32_DEP_1..3, 8 FMA_ACCUM_CYCLE_1, 9-11 SALU_CYCLE_1..3 (the
 * latest SALU's result is waited for; the cycle count is the compiler's estimate of it). */
static void delay_alu_dep(unsigned id, unsigned at, umb_tinst *ti, unsigned i)
{
    ti->dep_at[i] = (uint8_t)at;
    if (id >= 1 && id <= 4) ti->dep_kind[i] = UMB_TDEP_VALU, ti->dep_back[i] = (uint8_t)id;
    else if (id >= 5 && id <= 7) ti->dep_kind[i] = UMB_TDEP_TRANS, ti->dep_back[i] = (uint8_t)(id - 4);
    else if (id == 8) ti->dep_kind[i] = UMB_TDEP_CYCLES, ti->dep_back[i] = 1;
    else if (id >= 9 && id <= 11) ti->dep_kind[i] = UMB_TDEP_SALU, ti->dep_back[i] = 1;
    else ti->dep_kind[i] = UMB_TDEP_NONE;
}

/* s_delay_alu: ID0 (bits 3:0) for the next instruction; ID1 (bits 10:7) for the one SKIP
 * (bits 6:4) instructions after that (SKIP 0: the same instruction). */
static void classify_delay_alu(unsigned simm16, umb_tinst *ti)
{
    ti->cls = UMB_T_DELAY;
    ti->delay = 0;
    delay_alu_dep(simm16 & 0xfu, 1, ti, 0);
    delay_alu_dep((simm16 >> 7) & 0xfu, 1 + ((simm16 >> 4) & 7u), ti, 1);
}

/* s_waitcnt_depctr: the wave waits until at most VA_VDST (bits 15:12) VALU writes of VGPRs,
 * VA_SDST (bits 11:9) VALU writes of SGPRs (VA_VCC, bit 1, counted with them) and SA_SDST
 * (bit 0) SALU writes of SGPRs are outstanding. VM_VSRC, VA_SSRC and HOLD_CNT are not modelled
 * (a source read completes at issue here). */
static void classify_depctr(unsigned simm16, umb_tinst *ti)
{
    unsigned va_vdst = simm16 >> 12, va_sdst = (simm16 >> 9) & 7u, va_vcc = (simm16 >> 1) & 1u, sa_sdst = simm16 & 1u;
    unsigned n = 0;
    ti->cls = UMB_T_DELAY;
    ti->delay = 0;
    if (va_vdst < 15) ti->dep_kind[n] = UMB_TDEP_VA_VDST, ti->dep_back[n++] = (uint8_t)va_vdst;
    if (va_sdst < 7 || !va_vcc) ti->dep_kind[n] = UMB_TDEP_VA_SDST, ti->dep_back[n++] = (uint8_t)(va_vcc ? va_sdst : 0);
    if (!sa_sdst) ti->dep_kind[n] = UMB_TDEP_SA_SDST, ti->dep_back[n++] = 0;
}

static void classify_sopp(const rdna3_inst *in, umb_tinst *ti)
{
    switch (in->op) {
    case 0x00: ti->cls = UMB_T_DELAY; ti->delay = (uint16_t)((in->simm16 & 0xfu) + 1u); break;   /* s_nop */
    case 0x05: ti->cls = UMB_T_CLAUSE; ti->delay = (uint16_t)((in->simm16 & 0x3fu) + 1u); break;   /* s_clause */
    case 0x07: classify_delay_alu(in->simm16, ti); break;
    case 0x08: classify_depctr(in->simm16, ti); break;   /* s_waitcnt_depctr */
    case 0x09:                                                /* s_waitcnt: vmcnt [15:10], lgkmcnt [9:4] */
        ti->cls = UMB_T_WAITCNT;
        ti->waits = (1u << UMB_CNT_VM) | (1u << UMB_CNT_LGKM);
        ti->wait[UMB_CNT_VM] = (uint8_t)((in->simm16 >> 10) & 63u);
        ti->wait[UMB_CNT_LGKM] = (uint8_t)((in->simm16 >> 4) & 63u);
        break;
    case 0x30: case 0x31: ti->cls = UMB_T_END; break;
    case 0x3d: ti->cls = UMB_T_BARRIER; break;
    default:
        ti->cls = in->op >= 0x20 && in->op <= 0x2a ? UMB_T_BRANCH : UMB_T_OTHER;
        break;
    }
}

/* s_waitcnt_{vs,vm,exp,lgkm}cnt (SOPK 0x18..0x1b): SGPR + simm16; the SGPR part is taken as 0. */
static void classify_sopk_wait(const rdna3_inst *in, umb_tinst *ti)
{
    static const uint8_t which[4] = { UMB_CNT_VS, UMB_CNT_VM, UMB_CNT_EXP, UMB_CNT_LGKM };
    unsigned c = which[in->op - 0x18];
    ti->cls = UMB_T_WAITCNT;
    ti->waits = (uint8_t)(1u << c);
    ti->wait[c] = (uint8_t)(in->simm16 > 63 ? 63 : in->simm16);
}

static unsigned ds_bytes(const rdna3_inst *in)
{
    const rdna3_opinfo *oi = rdna3_inst_info(in);
    unsigned regs = 1;
    if (oi)
        for (int i = 0; i < 4; i++)
            if (rdna3_k_regs(oi->kind[i]) > regs) regs = rdna3_k_regs(oi->kind[i]);
    return regs * 4u;
}

static unsigned vm_bytes(const rdna3_inst *in)
{
    if (in->fmt == RDNA3_FMT_MTBUF || (in->fmt == RDNA3_FMT_MUBUF && in->op <= 0x0F)) return ((in->op & 3u) + 1u) * 4u;
    const vm_op *d = rdna3_vm_op(in->op);
    return d && d->valid ? d->size : 4u;
}

static umb_tclass vm_class(const rdna3_inst *in)
{
    if (in->fmt == RDNA3_FMT_MTBUF || (in->fmt == RDNA3_FMT_MUBUF && in->op <= 0x0F))
        return (in->op & 4u) ? UMB_T_VMEM_STORE : UMB_T_VMEM_LOAD;
    const vm_op *d = rdna3_vm_op(in->op);
    if (!d || !d->valid) return UMB_T_VMEM_LOAD;
    return d->kind == VM_STORE ? UMB_T_VMEM_STORE : d->kind == VM_ATOMIC ? UMB_T_VMEM_ATOMIC : UMB_T_VMEM_LOAD;
}

static void classify(const rdna3_inst *in, umb_tinst *ti)
{
    switch (in->fmt) {
    case RDNA3_FMT_SOPP: classify_sopp(in, ti); return;
    case RDNA3_FMT_SOPK:
        if (in->op >= 0x18 && in->op <= 0x1b) classify_sopk_wait(in, ti);
        else ti->cls = UMB_T_SALU;
        return;
    case RDNA3_FMT_SOP1: case RDNA3_FMT_SOP2: case RDNA3_FMT_SOPC: ti->cls = UMB_T_SALU; return;
    case RDNA3_FMT_SMEM:
        ti->cls = UMB_T_SMEM;
        ti->bytes_per_lane = (uint8_t)(4u << ((in->op & 7u) < 5 ? (in->op & 7u) : 0));
        return;
    case RDNA3_FMT_VOPD: ti->cls = UMB_T_VALU_DUAL; return;
    case RDNA3_FMT_VOP1:
        ti->cls = is_trans_vop1(in->op) ? UMB_T_VALU_TRANS : is_f64(in) ? UMB_T_VALU_DP : UMB_T_VALU;
        return;
    case RDNA3_FMT_VOP2: case RDNA3_FMT_VOPC: case RDNA3_FMT_VOP3: case RDNA3_FMT_VOP3SD: case RDNA3_FMT_VOP3P:
        if (in->fmt == RDNA3_FMT_VOP3 && in->op >= 0x180 && in->op < 0x200 && is_trans_vop1(in->op - 0x180u))
            ti->cls = UMB_T_VALU_TRANS;
        else if (in->fmt == RDNA3_FMT_VOP3P && in->op >= 0x40 && in->op <= 0x45) {
            /* WMMA: AMD's Matrix Instruction Calculator gives 32 execution cycles (16 for iu4),
               not co-executing with other VALU work */
            ti->cls = UMB_T_VALU_MATRIX;
            ti->delay = in->op == 0x45 ? 16 : 32;
        }
        else ti->cls = is_f64(in) ? UMB_T_VALU_DP : UMB_T_VALU;
        return;
    case RDNA3_FMT_DS:
        if (in->gds) {   /* GWS: no LDS access; a wave that must wait is held by the engine (wait_begin) */
            ti->cls = UMB_T_OTHER;
            return;
        }
        ti->cls = UMB_T_LDS;
        ti->bytes_per_lane = (uint8_t)ds_bytes(in);
        return;
    case RDNA3_FMT_MIMG: {   /* through the texture path like every vector memory access */
        const rdna3_opinfo *oi = rdna3_inst_info(in);
        bool store = oi && rdna3_mimg_has(oi, 'W'), atomic = oi && (oi->flags & RDNA3_F_ATOMIC);
        ti->cls = (uint8_t)(store ? UMB_T_VMEM_STORE : atomic ? UMB_T_VMEM_ATOMIC : UMB_T_VMEM_LOAD);
        ti->bytes_per_lane = (uint8_t)(4u * (oi ? rdna3_mimg_components(oi, in->dmask) : 1u));
        return;
    }
    case RDNA3_FMT_FLAT: case RDNA3_FMT_GLOBAL: case RDNA3_FMT_SCRATCH: case RDNA3_FMT_MUBUF: case RDNA3_FMT_MTBUF:
        ti->cls = (uint8_t)vm_class(in);
        ti->bytes_per_lane = (uint8_t)vm_bytes(in);
        return;
    default:
        ti->cls = UMB_T_OTHER;
        return;
    }
}

static umb_treg treg(const rdna3_regref *r)
{
    return (umb_treg){ r->vector ? UMB_TREG_V : UMB_TREG_S, r->first, r->count };
}

/* An accumulating opcode (v_fmac_*, v_pk_fmac_f16, v_dot2acc_*) also reads its destination, through
 * the SRC2 port (RDNA3 ISA 7.6: "The following operations use SRC2: FMAMK_F32 (second input
 * operand); DOT2ACC_F32_F16, DOT2ACC_F32_BF16, FMAC_F32 (destination operand)"). */
static bool accumulates(const rdna3_opinfo *oi)
{
    return oi && oi->name && (strstr(oi->name, "fmac") || strstr(oi->name, "dot2acc"));
}

/* The accumulator reads of a VALU instruction, which the register analysis (waitcnt.c: its
 * checker faults on a write of a register a load is pending on, so it needs no read) leaves out:
 * the scoreboard waits for them and the VGPR bank model counts them. */
static void add_accumulators(const rdna3_inst *in, umb_tinst *ti)
{
    if (accumulates(rdna3_inst_info(in)) && ti->nsrc < UMB_TINST_SRCS)
        ti->src[ti->nsrc++] = (umb_treg){ UMB_TREG_V, in->vdst, 1 };
    if (in->fmt == RDNA3_FMT_VOPD && accumulates(rdna3_opinfo_get(RDNA3_T_VOPDY, in->opy)) && ti->nsrc < UMB_TINST_SRCS)
        ti->src[ti->nsrc++] = (umb_treg){ UMB_TREG_V, in->vdsty, 1 };
}

bool rdna3_timing_static(void *kernel, umb_warp *warp, umb_tinst *ti)
{
    (void)kernel;
    rdna3_wave *w = warp->isa;
    rdna3_inst local;
    char err[256];
    const rdna3_inst *in = rdna3_fetch(w, w->pc, &local, err, sizeof err);
    if (!in) {
        warp->pc = w->pc;
        umb_fault_report(warp, UMB_ERR_GUEST_FAULT, "wave%u PC 0x%llx: %s", w->wave_size, (unsigned long long)w->pc, err);
        return false;
    }
    memset(ti, 0, sizeof *ti);
    ti->size = in->size;
    classify(in, ti);
    rdna3_effect e;
    rdna3_inst_effect(w->wave_size, in, &e);
    for (unsigned i = 0; i < e.nreads && ti->nsrc < UMB_TINST_SRCS; i++) ti->src[ti->nsrc++] = treg(&e.reads[i]);
    for (unsigned i = 0; i < e.nwrites && ti->ndst < UMB_TINST_DSTS; i++) ti->dst[ti->ndst++] = treg(&e.writes[i]);
    if (ti->cls == UMB_T_VALU || ti->cls == UMB_T_VALU_DUAL) add_accumulators(in, ti);
    bool mem = ti->cls == UMB_T_SMEM || ti->cls == UMB_T_LDS || (ti->cls >= UMB_T_VMEM_LOAD && ti->cls <= UMB_T_VMEM_ATOMIC);
    if (mem) {
        ti->counters = e.counters;
        ti->out_of_order = e.out_of_order;
        ti->policy = (uint8_t)((in->glc ? UMB_TPOL_GLC : 0) | (in->slc ? UMB_TPOL_SLC : 0) | (in->dlc ? UMB_TPOL_DLC : 0));
    }
    return true;
}

/* The timing model keeps every resident wave of the grid live (thousands of 66 KiB states), so a
 * wave's state is rarely in the host's caches when its turn comes: fetch what the instruction
 * will touch ahead of time. The header, EXEC and the first two VGPR rows of each vector operand
 * (one prefetch per row: the host fetches a row's 128-byte pair of lines together). */
void rdna3_timing_prefetch(void *kernel, const void *isa, const umb_tinst *ti)
{
    (void)kernel;
    const rdna3_wave *w = isa;
    __builtin_prefetch(w);
    __builtin_prefetch(&w->sgpr[RDNA3_SRC_EXEC_LO]);
    unsigned n = ti->nsrc + ti->ndst < UMB_TINST_SRCS + UMB_TINST_DSTS ? ti->nsrc + ti->ndst : UMB_TINST_SRCS + UMB_TINST_DSTS;
    for (unsigned i = 0; i < n; i++) {
        const umb_treg *r = i < ti->nsrc ? &ti->src[i] : &ti->dst[i - ti->nsrc];
        if (r->file == UMB_TREG_S && r->first < RDNA3_NUM_SGPR_SLOTS) __builtin_prefetch(&w->sgpr[r->first]);
        if (r->file != UMB_TREG_V) continue;
        for (unsigned k = 0; k < r->count && k < 2; k++) {   /* a wave32 row is two lines */
            const char *row = (const char *)&w->vgpr[((r->first + k) & 0xffu) * RDNA3_MAX_LANES];
            __builtin_prefetch(row);
            __builtin_prefetch(row + 64);
        }
    }
}

/* ---- per-lane addresses ----
 * Global and LDS addresses are computed for every lane of the wave in loops the compiler
 * vectorises (the engine reads the active lanes' only). */

static void global_addrs(rdna3_wave *w, const rdna3_inst *in, umb_tevent *ev)
{
    unsigned n = w->wave_size;
    const uint32_t *lo = rdna3_vreg(w, in->addr);
    if (in->saddr < RDNA3_SRC_NULL) {
        uint64_t base = rdna3_sgpr64(w, in->saddr) + (uint64_t)(int64_t)in->offset;
        for (unsigned l = 0; l < n; l++) ev->addr[l] = base + lo[l];
    } else {
        const uint32_t *hi = rdna3_vreg(w, in->addr + 1u);
        uint64_t off = (uint64_t)(int64_t)in->offset;
        for (unsigned l = 0; l < n; l++) ev->addr[l] = ((uint64_t)lo[l] | (uint64_t)hi[l] << 32) + off;
    }
}

/* A generic address in the shared aperture is LDS, in the private one scratch. */
static void flat_addrs(rdna3_wave *w, const rdna3_inst *in, umb_tevent *ev)
{
    const rdna3_kernel *k = w->kernel;
    bool lds = false, scratch = false;
    for (uint64_t m = ev->exec; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctzll(m);
        uint64_t a = rdna3_vgpr64(w, in->addr, l) + (int64_t)in->offset;
        if (a >> 32 == k->shared_base >> 32) lds = true, a &= 0xffffffffu;
        else if (a >> 32 == k->private_base >> 32) scratch = true, a = w->flat_scratch + (a & 0xffffffffu) * 64u + l * 4u;
        ev->addr[l] = a;
    }
    ev->space = lds ? UMB_TSPACE_LDS : scratch ? UMB_TSPACE_SCRATCH : UMB_TSPACE_GLOBAL;
}

/* Scratch is interleaved per lane in dwords (swizzled), so a wave's same offset is one run. */
static void scratch_addrs(rdna3_wave *w, const rdna3_inst *in, umb_tevent *ev)
{
    uint64_t soff = in->saddr < RDNA3_SRC_NULL ? w->sgpr[in->saddr & 127u] : 0;
    for (uint64_t m = ev->exec; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctzll(m);
        uint64_t off = soff + (in->sve ? rdna3_vreg(w, in->addr)[l] : 0) + (int64_t)in->offset;
        ev->addr[l] = w->flat_scratch + (off & ~3ull) * w->wave_size + l * 4u + (off & 3u);
    }
    ev->space = UMB_TSPACE_SCRATCH;
}

static void buffer_addrs(rdna3_wave *w, const rdna3_inst *in, umb_tevent *ev)
{
    uint64_t base = rdna3_sgpr64(w, in->saddr) & 0xffffffffffffull;
    uint32_t stride = (w->sgpr[(in->saddr + 1u) & 127u] >> 16) & 0x3fffu;
    uint64_t soff = rdna3_mem_scalar_operand(w, in->soffset);
    for (uint64_t m = ev->exec; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctzll(m);
        uint64_t idx = in->idxen ? rdna3_vreg(w, in->addr)[l] : 0;
        uint64_t off = in->offen ? rdna3_vreg(w, in->addr + (in->idxen ? 1u : 0u))[l] : 0;
        ev->addr[l] = base + soff + (uint64_t)in->offset + off + idx * stride;
    }
}

static void ds_addrs(rdna3_wave *w, const rdna3_inst *in, umb_tevent *ev)
{
    const rdna3_opinfo *oi = rdna3_inst_info(in);
    uint32_t off = oi && (oi->flags & RDNA3_F_2ADDR) ? (uint32_t)in->offset * 4u
                                                      : (uint32_t)in->offset | (uint32_t)in->offset1 << 8;
    const uint32_t *v = rdna3_vreg(w, in->addr);
    for (unsigned l = 0, n = w->wave_size; l < n; l++) ev->addr[l] = (uint32_t)(v[l] + off);
    ev->space = UMB_TSPACE_LDS;
}

void rdna3_timing_dynamic(void *kernel, const umb_warp *warp, const umb_tinst *ti, umb_tevent *ev)
{
    (void)kernel;
    rdna3_wave *w = warp->isa;
    ev->exec = rdna3_exec(w);
    ev->space = UMB_TSPACE_GLOBAL;
    ev->has_addr = 0;
    bool vmem = ti->cls == UMB_T_LDS || (ti->cls >= UMB_T_VMEM_LOAD && ti->cls <= UMB_T_VMEM_ATOMIC);
    if (ti->cls == UMB_T_SMEM) {
        rdna3_inst local;
        char err[64];
        const rdna3_inst *in = rdna3_fetch(w, w->pc, &local, err, sizeof err);
        ev->exec = 1;
        ev->addr[0] = in ? rdna3_sgpr64(w, in->saddr) + (uint64_t)(int64_t)in->offset +
                           (in->soffset != RDNA3_SRC_NULL ? rdna3_mem_scalar_operand(w, in->soffset) : 0)
                         : 0;
        ev->space = UMB_TSPACE_SCALAR;
        ev->has_addr = 1;
    } else if (vmem) {
        rdna3_inst local;
        char err[64];
        const rdna3_inst *in = rdna3_fetch(w, w->pc, &local, err, sizeof err);
        if (in) {
            switch (in->fmt) {
            case RDNA3_FMT_GLOBAL: global_addrs(w, in, ev); break;
            case RDNA3_FMT_FLAT: flat_addrs(w, in, ev); break;
            case RDNA3_FMT_SCRATCH: scratch_addrs(w, in, ev); break;
            case RDNA3_FMT_DS: ds_addrs(w, in, ev); break;
            case RDNA3_FMT_MIMG: rdna3_img_addrs(w, in, ev->addr); break;
            default: buffer_addrs(w, in, ev); break;
            }
            ev->has_addr = 1;
        }
    }
    ev->active = umb_popcount64(ev->exec);
    if (vmem && !ev->has_addr) ev->active = 0;   /* no addresses: the engine charges no memory time */
}
