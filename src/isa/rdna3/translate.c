/* The RDNA3 translator: a launch's decoded instructions -> one host function (translate.h,
 * docs/TRANSLATOR.md).
 *
 * The function is the interpreter's run-ahead turn (wave.c run_turn_and_ahead) unrolled over the
 * kernel's code: an entry switch on w->pc, then for each instruction a block that counts it exactly
 * as count_issue does (its class now, popcount(EXEC) before it runs), runs it, and goes on to the
 * next instruction's block under the interpreter's conditions (wave still RUNNABLE; past TURN_MAX
 * instructions, not after one that may jump; the next one register-only; MODE at round to
 * nearest). An instruction runs as a call of its interpreter handler with its decoded record
 * (exact by construction; a plain call goes through t->step, wave.c jit_step, which also counts
 * it), or as inline IR for the ones emit_inline and the memory paths know (bit-identical, tested
 * against the interpreter). Scalar branches whose targets are known are host branches; any other
 * next PC goes through a second switch, or back to the caller.
 */
#include "isa/rdna3/translate.h"

#if UMBRA_HAVE_JIT

#include "isa/rdna3/wave.h"
#include "jit/jit.h"
#include "mem/amd_mem.h"
#include "mem/mem.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

bool rdna3_jit_available(void) { return true; }

/* The interpreter's bound of a turn (wave.c RUN_AHEAD_MAX): it stops after the instruction
 * that makes n exceed it. */
#define TURN_MAX 64u

_Static_assert(sizeof(umb_warp_state) == 4, "wave state is an i32 in the IR");
_Static_assert(sizeof(((rdna3_wave *)0)->defer_fault) == 1, "defer_fault is an i8 in the IR");
_Static_assert(UMB_WARP_RUNNABLE == 0, "RUNNABLE is 0 in the IR");

typedef struct tr_inst {
    uint64_t pc;           /* offset from the code base (the code is translated position-independent) */
    const rdna3_inst *in;  /* the plan's copy of its decoded record */
    uint32_t index;        /* in the plan (its record is t->recs[index] when the code runs) */
    LLVMBasicBlockRef bb;
    LLVMBasicBlockRef gate;   /* an LDS load: its bb if t->lds_quiet(w) says it may run ahead */
    bool entry;            /* a turn may start here (mark_entries); else only its predecessor runs into it */
    bool emitted;
    uint8_t fall_preds;    /* instructions that fall through into it (at most 2 counted) */
} tr_inst;

typedef struct translator {
    const rdna3_jit_plan *plan;
    unsigned wave_size;
    uint32_t *index_of;    /* per code dword: 0 = not translated, else 1 + index in insts */
    tr_inst *insts;
    size_t ninsts;
    /* LLVM */
    LLVMContextRef ctx;
    LLVMModuleRef m;
    LLVMBuilderRef b;
    LLVMValueRef fn, w, st, t, n_slot, ti_slot, ctpop;
    LLVMValueRef recs, base, step;   /* t->recs, t->base and t->step, loaded at entry */
    LLVMTypeRef step_ty;
    LLVMTypeRef i8, i32, i64, ptr, handler_ty, ctpop_ty;
    LLVMBasicBlockRef exit_done, exit_fault, exit_continue, dyn_bb;
    uint32_t inlined;
    bool inline_ok;        /* emit inline IR where it can (else every instruction calls its handler) */
    bool big;              /* over TR_BIG_INSTS: the light pipeline and the non-optimising code generator */
    /* EXEC as the run has it (exec_mask, its popcount, its lanes): read once and kept while no
     * instruction can have written it (a handler call, an inline write of EXEC, a new run), made
     * only on the run's main line (vc_mode VC_ON) so that every later use is dominated by it */
    LLVMValueRef exec_val, exec_pop, exec_lanes;
    /* What the inline instructions of a run have counted and not yet written (flush): their
     * number, per class, the sum of their active lanes, and the PC after the last of them. */
    uint32_t pend_n, pend_class[UMB_CLASS_COUNT];
    LLVMValueRef pend_ti, pend_pc_val;
    uint64_t pend_pc_off;   /* UINT64_MAX: none (pend_pc_val, if set, is the PC) */
    /* The VGPR rows a run has read or written, as values (vc), written back to the wave when the
     * run is flushed (vdirty): the run's values stay in host registers instead of going through
     * memory from one instruction to the next. Inside the fast arm of an instruction that may
     * call its handler (VC_ARM) new rows are not kept and writes are collected (arm_reg/arm_val)
     * for the phis at the join; the memory paths (emit_ds, emit_global) use no cache (VC_OFF). */
    LLVMValueRef vc[256];
    bool vdirty[256];
    enum { VC_ON, VC_ARM, VC_OFF } vc_mode;
    unsigned arm_n, arm_reg[4];
    LLVMValueRef arm_val[4];
} translator;

/* ---- discovery: the instructions reachable from the entry ---- */

/* The instruction at code offset off, or NULL. */
static const tr_inst *inst_at(const translator *tr, uint64_t off)
{
    if (off >= tr->plan->code_size || (off & 3u)) return NULL;
    uint32_t i = tr->index_of[off >> 2];
    return i ? &tr->insts[i - 1] : NULL;
}

typedef struct work_list {
    uint64_t *pc;          /* PCs still to decode */
    size_t n, cap;
} work_list;

static bool push_work(work_list *wl, uint64_t pc)
{
    if (wl->n == wl->cap) {
        size_t cap = wl->cap ? wl->cap * 2 : 256;
        uint64_t *p = realloc(wl->pc, cap * sizeof *p);
        if (!p) return false;
        wl->pc = p;
        wl->cap = cap;
    }
    wl->pc[wl->n++] = pc;
    return true;
}

static bool is_sopp(const rdna3_inst *in, unsigned op) { return in->fmt == RDNA3_FMT_SOPP && in->op == op; }

/* Static branch target of a SOPP branch or s_call_b64 (exec_salu.c branch_if, SOPK 0x14). */
static uint64_t branch_target(uint64_t pc, const rdna3_inst *in)
{
    return pc + 4u + (uint64_t)((int64_t)(int16_t)in->simm16 * 4);
}
static bool has_static_target(const rdna3_inst *in)
{
    return (in->fmt == RDNA3_FMT_SOPP && in->op >= 0x20 && in->op <= 0x2a) ||
           (in->fmt == RDNA3_FMT_SOPK && in->op == 0x14);
}
/* Does execution go on at pc + size (when no branch is taken)? Not after s_endpgm, s_code_end,
 * s_branch and s_setpc_b64. */
static bool falls_through(const rdna3_inst *in)
{
    return !is_sopp(in, 0x30) && !is_sopp(in, 0x1f) && !is_sopp(in, 0x20) &&
           !(in->fmt == RDNA3_FMT_SOP1 && in->op == 0x48);
}
/* May the handler set next_pc to something other than pc + size? (rdna3_may_jump) */
static bool may_jump(const rdna3_inst *in) { return rdna3_may_jump(in); }

/* A 32-bit constant operand of an s_add/s_addc in a call sequence: the literal or an inline
 * integer constant; false for anything else. */
static bool call_constant(const rdna3_inst *in, unsigned enc, uint32_t *v)
{
    if (enc == RDNA3_SRC_LITERAL) *v = in->literal;
    else if (enc >= RDNA3_SRC_CONST_ZERO && enc <= 192) *v = enc - RDNA3_SRC_CONST_ZERO;
    else if (enc > 192 && enc <= 208) *v = (uint32_t)-(int32_t)(enc - 192);
    else return false;
    return true;
}

/* The callee of the call sequence clang emits for a function call,
 *     s_getpc_b64 s[n:n+1]; s_add_u32 sn, sn, lo; s_addc_u32 sn+1, sn+1, hi; ... s_swappc_b64
 * is (address after s_getpc) + hi:lo. Look a few instructions past s_getpc for the two adds and
 * queue the target, so that called functions are translated too. A wrong guess only adds code
 * that is never run (discovery of code is harmless; what runs is decided by the PC at run time). */
static bool push_call_target(rdna3_kernel *k, uint64_t pc, const rdna3_inst *getpc, work_list *wl)
{
    unsigned n = getpc->vdst;
    uint32_t lo = 0, hi = 0;
    bool have_lo = false, have_hi = false;
    uint64_t at = pc + getpc->size;
    for (unsigned i = 0; i < 8 && !(have_lo && have_hi); i++) {
        char why[128];
        const rdna3_inst *in = rdna3_kernel_decode(k, at, why, sizeof why);
        if (!in) break;
        if (in->fmt == RDNA3_FMT_SOP2 && in->op == 0x00 && in->vdst == n && in->src[0] == n)
            have_lo = call_constant(in, in->src[1], &lo);
        else if (in->fmt == RDNA3_FMT_SOP2 && in->op == 0x04 && in->vdst == n + 1u && in->src[0] == n + 1u)
            have_hi = call_constant(in, in->src[1], &hi);
        at += in->size;
    }
    if (!have_lo || !have_hi) return true;
    return push_work(wl, pc + getpc->size + (((uint64_t)hi << 32) | lo));
}

static bool plan_push(rdna3_jit_plan *p, uint64_t off, const rdna3_inst *in)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 256;
        uint64_t *o = realloc(p->offsets, cap * sizeof *o);
        if (o) p->offsets = o;
        rdna3_inst *r = o ? realloc(p->recs, cap * sizeof *r) : NULL;
        if (!r) return false;
        p->recs = r;
        p->cap = cap;
    }
    p->offsets[p->n] = off;
    p->recs[p->n] = *in;
    p->n++;
    return true;
}

bool rdna3_jit_discover(rdna3_kernel *k, uint64_t entry_pc, rdna3_jit_plan *p, char *err, size_t errlen)
{
    *p = (rdna3_jit_plan){ .code_size = k->code_size, .entry = entry_pc - k->code_base };
    uint8_t *seen = calloc((size_t)((k->code_size + 3u) / 4u) + 1u, 1);
    work_list wl = { 0 };
    bool ok = seen && push_work(&wl, entry_pc);
    while (ok && wl.n) {
        uint64_t pc = wl.pc[--wl.n];
        uint64_t off = pc - k->code_base;
        if (pc < k->code_base || off >= k->code_size || (off & 3u) || seen[off >> 2]) continue;
        seen[off >> 2] = 1;
        char why[256];
        const rdna3_inst *in = rdna3_kernel_decode(k, pc, why, sizeof why);
        if (!in) continue;   /* the interpreter reports it if it is ever reached */
        ok = plan_push(p, off, in) && (!falls_through(in) || push_work(&wl, pc + in->size)) &&
             (!has_static_target(in) || push_work(&wl, branch_target(pc, in))) &&
             (!(in->fmt == RDNA3_FMT_SOP1 && in->op == 0x47) || push_call_target(k, pc, in, &wl));
    }
    free(seen);
    free(wl.pc);
    if (!ok) {
        snprintf(err, errlen, "out of host memory translating %zu instructions", p->n);
        rdna3_jit_plan_free(p);
        return false;
    }
    return true;
}

void rdna3_jit_plan_free(rdna3_jit_plan *p)
{
    free(p->offsets);
    free(p->recs);
    *p = (rdna3_jit_plan){ 0 };
}

/* ---- IR helpers ---- */

static LLVMValueRef c32(translator *tr, uint64_t v) { return LLVMConstInt(tr->i32, v, false); }
static LLVMValueRef c64(translator *tr, uint64_t v) { return LLVMConstInt(tr->i64, v, false); }

/* Pointer to byte offset off of base. */
static LLVMValueRef field(translator *tr, LLVMValueRef base, uint64_t off)
{
    LLVMValueRef idx = c64(tr, off);
    return LLVMBuildInBoundsGEP2(tr->b, tr->i8, base, &idx, 1, "");
}
static LLVMValueRef load(translator *tr, LLVMTypeRef ty, LLVMValueRef base, uint64_t off)
{
    return LLVMBuildLoad2(tr->b, ty, field(tr, base, off), "");
}
static void exec_forget(translator *tr) { tr->exec_val = tr->exec_pop = tr->exec_lanes = NULL; }

static bool writes_exec(const translator *tr, LLVMValueRef v, LLVMValueRef base, uint64_t off);

static void store(translator *tr, LLVMValueRef v, LLVMValueRef base, uint64_t off)
{
    if (writes_exec(tr, v, base, off)) exec_forget(tr);
    LLVMBuildStore(tr->b, v, field(tr, base, off));
}
/* The guest address of code offset off (the launch's code base + off). */
static LLVMValueRef pc_at(translator *tr, uint64_t off) { return LLVMBuildAdd(tr->b, tr->base, c64(tr, off), ""); }
/* A guest PC as an offset from the code base. */
static LLVMValueRef offset_of(translator *tr, LLVMValueRef pc) { return LLVMBuildSub(tr->b, pc, tr->base, ""); }

/* Call ti's interpreter handler: in->exec(w, in), with in the running launch's copy of its record. */
static void call_handler(translator *tr, const tr_inst *ti)
{
    LLVMValueRef in = field(tr, tr->recs, (uint64_t)ti->index * sizeof(rdna3_inst));
    LLVMValueRef exec = LLVMBuildLoad2(tr->b, tr->ptr, field(tr, in, offsetof(rdna3_inst, exec)), "");
    LLVMValueRef args[2] = { tr->w, in };
    LLVMBuildCall2(tr->b, tr->handler_ty, exec, args, 2, "");
    exec_forget(tr);   /* a handler may write EXEC */
}

#define SGPR_OFF(n) (offsetof(rdna3_wave, sgpr) + 4u * (n))
#define VGPR_OFF(r) (offsetof(rdna3_wave, vgpr) + 4u * RDNA3_MAX_LANES * (r))

/* Does a store of v at base + off write a byte of EXEC? */
static bool writes_exec(const translator *tr, LLVMValueRef v, LLVMValueRef base, uint64_t off)
{
    if (base != tr->w) return false;
    LLVMTypeRef ty = LLVMTypeOf(v);
    uint64_t bytes = LLVMGetTypeKind(ty) == LLVMIntegerTypeKind ? (LLVMGetIntTypeWidth(ty) + 7u) / 8u : 512u;
    uint64_t lo = SGPR_OFF(RDNA3_SRC_EXEC_LO), hi = SGPR_OFF(RDNA3_SRC_EXEC_HI) + 4u;
    return off < hi && off + bytes > lo;
}

/* Values made here are kept for the run's later instructions only on its main line. */
static bool exec_keep(const translator *tr) { return tr->vc_mode == VC_ON; }

/* EXEC as rdna3_exec reads it: EXEC_LO | EXEC_HI << 32, masked to the wave's lanes. */
static LLVMValueRef exec_mask(translator *tr)
{
    if (tr->exec_val) return tr->exec_val;
    LLVMValueRef v = LLVMBuildZExt(tr->b, load(tr, tr->i32, tr->w, SGPR_OFF(RDNA3_SRC_EXEC_LO)), tr->i64, "");
    if (tr->wave_size == 64) {
        LLVMValueRef hi = LLVMBuildZExt(tr->b, load(tr, tr->i32, tr->w, SGPR_OFF(RDNA3_SRC_EXEC_HI)), tr->i64, "");
        v = LLVMBuildOr(tr->b, v, LLVMBuildShl(tr->b, hi, c64(tr, 32), ""), "");
    }
    if (exec_keep(tr)) tr->exec_val = v;
    return v;
}

/* popcount of an i64. Big kernels count bits with shifts, masks and a multiply: LLVM's fast
 * instruction selector (the non-optimising code generator's) has no llvm.ctpop and builds a
 * selection DAG for each one, a tenth of such a kernel's translation time. */
static LLVMValueRef popcount64(translator *tr, LLVMValueRef x)
{
    if (!tr->big) return LLVMBuildCall2(tr->b, tr->ctpop_ty, tr->ctpop, &x, 1, "");
    LLVMBuilderRef b = tr->b;
    x = LLVMBuildSub(b, x, LLVMBuildAnd(b, LLVMBuildLShr(b, x, c64(tr, 1), ""), c64(tr, 0x5555555555555555ull), ""), "");
    x = LLVMBuildAdd(b, LLVMBuildAnd(b, x, c64(tr, 0x3333333333333333ull), ""),
                     LLVMBuildAnd(b, LLVMBuildLShr(b, x, c64(tr, 2), ""), c64(tr, 0x3333333333333333ull), ""), "");
    x = LLVMBuildAnd(b, LLVMBuildAdd(b, x, LLVMBuildLShr(b, x, c64(tr, 4), ""), ""), c64(tr, 0x0f0f0f0f0f0f0f0full), "");
    return LLVMBuildLShr(b, LLVMBuildMul(b, x, c64(tr, 0x0101010101010101ull), ""), c64(tr, 56), "");
}

/* popcount(EXEC): the instruction's active lanes */
static LLVMValueRef exec_popcount(translator *tr)
{
    if (tr->exec_pop) return tr->exec_pop;
    LLVMValueRef pop = popcount64(tr, exec_mask(tr));
    if (exec_keep(tr)) tr->exec_pop = pop;
    return pop;
}

/* count_issue: the class counter now, the active lanes into the turn's sum. */
static void count_issue(translator *tr, const rdna3_inst *in)
{
    LLVMValueRef pop = exec_popcount(tr);
    LLVMValueRef ti = LLVMBuildLoad2(tr->b, tr->i64, tr->ti_slot, "");
    LLVMBuildStore(tr->b, LLVMBuildAdd(tr->b, ti, pop, ""), tr->ti_slot);
    uint64_t off = offsetof(umb_stats, by_class) + 8u * in->insn_class;
    store(tr, LLVMBuildAdd(tr->b, load(tr, tr->i64, tr->st, off), c64(tr, 1), ""), tr->st, off);
}

/* An inline instruction of a run counted as count_issue would, in the translator's pending sums:
 * its class, and popcount(EXEC) now (before it runs). */
static void pend_issue(translator *tr, const rdna3_inst *in)
{
    LLVMValueRef pop = exec_popcount(tr);
    tr->pend_ti = tr->pend_ti ? LLVMBuildAdd(tr->b, tr->pend_ti, pop, "") : pop;
    tr->pend_n++;
    tr->pend_class[in->insn_class]++;
}

static void vc_write_back(translator *tr, bool keep);

/* Write what the run has counted (the turn's n and active lanes, the class counters) and the PC
 * after its last instruction: before anything that reads them (a handler, an exit, the caller)
 * and before control reaches a block that a turn may also enter. */
static void flush(translator *tr)
{
    vc_write_back(tr, false);
    if (tr->pend_n) {
        LLVMValueRef n = LLVMBuildLoad2(tr->b, tr->i32, tr->n_slot, "");
        LLVMBuildStore(tr->b, LLVMBuildAdd(tr->b, n, c32(tr, tr->pend_n), ""), tr->n_slot);
        LLVMValueRef ti = LLVMBuildLoad2(tr->b, tr->i64, tr->ti_slot, "");
        LLVMBuildStore(tr->b, LLVMBuildAdd(tr->b, ti, tr->pend_ti, ""), tr->ti_slot);
        for (unsigned c = 0; c < UMB_CLASS_COUNT; c++) {
            if (!tr->pend_class[c]) continue;
            uint64_t off = offsetof(umb_stats, by_class) + 8u * c;
            store(tr, LLVMBuildAdd(tr->b, load(tr, tr->i64, tr->st, off), c64(tr, tr->pend_class[c]), ""), tr->st, off);
            tr->pend_class[c] = 0;
        }
    }
    if (tr->pend_pc_val || tr->pend_pc_off != UINT64_MAX)
        store(tr, tr->pend_pc_val ? tr->pend_pc_val : pc_at(tr, tr->pend_pc_off), tr->w, offsetof(rdna3_wave, pc));
    tr->pend_n = 0;
    tr->pend_ti = tr->pend_pc_val = NULL;
    tr->pend_pc_off = UINT64_MAX;
}

/* Where the turn goes on at instruction ti after another of the same turn: its block if it is
 * wave-local, its gate if it is an LDS load (run ahead while the workgroup's LDS is quiet, as the
 * interpreter's run_turn_and_ahead decides), else the turn ends. */
static LLVMBasicBlockRef successor_bb(const translator *tr, const tr_inst *ti)
{
    if (!ti) return tr->exit_done;
    if (ti->in->wave_local) return ti->bb;
    return ti->gate ? ti->gate : tr->exit_done;
}

/* Go on after an instruction that retired (counted in *t or pending): the interpreter's
 * conditions for running the next instruction in the same turn (wave.c run_turn_and_ahead: past
 * TURN_MAX instructions the turn ends after one that may jump), then the next instruction's
 * block. Pending counts stay pending only into a successor no turn enters (it is emitted next). */
static void continue_at(translator *tr, const tr_inst *ti, LLVMValueRef next_pc)
{
    const rdna3_inst *in = ti->in;
    LLVMValueRef fn = tr->fn;
    const tr_inst *fall = falls_through(in) ? inst_at(tr, ti->pc + in->size) : NULL;
    if (!fall || fall->entry || next_pc) flush(tr);
    if (may_jump(in)) {
        LLVMValueRef n_after = LLVMBuildLoad2(tr->b, tr->i32, tr->n_slot, "");
        LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(tr->ctx, fn, "");
        LLVMBuildCondBr(tr->b, LLVMBuildICmp(tr->b, LLVMIntUGT, n_after, c32(tr, TURN_MAX), ""), tr->exit_done, go);
        LLVMPositionBuilderAtEnd(tr->b, go);
    }
    if (!in->wave_local) {   /* only such an instruction can change MODE (is_wave_local in wave.c) */
        LLVMValueRef mode = load(tr, tr->i32, tr->w, offsetof(rdna3_wave, mode));
        LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(tr->ctx, fn, "");
        LLVMValueRef round = LLVMBuildAnd(tr->b, mode, c32(tr, 3), "");
        LLVMBuildCondBr(tr->b, LLVMBuildICmp(tr->b, LLVMIntNE, round, c32(tr, 0), ""), tr->exit_done, ok);
        LLVMPositionBuilderAtEnd(tr->b, ok);
    }
    if (!next_pc) {   /* the next PC is pc + size */
        LLVMBuildBr(tr->b, successor_bb(tr, fall));
        return;
    }
    const tr_inst *taken = has_static_target(in) ? inst_at(tr, branch_target(ti->pc, in)) : NULL;
    LLVMValueRef sw = LLVMBuildSwitch(tr->b, offset_of(tr, next_pc), tr->dyn_bb, 2);
    if (taken && successor_bb(tr, taken) != tr->exit_done) LLVMAddCase(sw, c64(tr, taken->pc), successor_bb(tr, taken));
    if (fall && successor_bb(tr, fall) != tr->exit_done && (!taken || taken != fall))
        LLVMAddCase(sw, c64(tr, fall->pc), successor_bb(tr, fall));
}


/* ---- inline instructions ----
 * Integer VALU and scalar compare/branch instructions whose handler is a plain function of
 * plain operands: no DPP, no abs/neg/op_sel, no clamp/omod (every one of those calls the handler).
 * Each is the same expression as its handler in exec_valu.c / exec_salu.c over the whole wave as
 * one LLVM vector, written back under EXEC with a select (the lanes EXEC leaves off keep their
 * bits, as the handler's masked lane loop does). Float instructions call their handlers: LLVM may
 * commute a float add, and which NaN payload x86 keeps depends on the operand order. */

static bool plain_modifiers(const rdna3_inst *in)
{
    return !in->dpp && !in->abs && !in->neg && !in->opsel && !in->clamp && !in->omod;
}

/* A scalar operand encoding inline code reads as rdna3_scalar_src32 does for a 32-bit integer
 * or float operand (RK_B32, RK_F32): an SGPR slot (NULL reads 0), an integer constant, a float
 * constant (its f32 bits) or the literal. */
static bool plain_scalar_src(unsigned enc)
{
    return enc < RDNA3_NUM_SGPR_SLOTS || (enc >= RDNA3_SRC_CONST_ZERO && enc <= 208) ||
           (enc >= RDNA3_SRC_F_HALF && enc <= RDNA3_SRC_INV_2PI) || enc == RDNA3_SRC_LITERAL;
}

static LLVMValueRef scalar_src(translator *tr, const rdna3_inst *in, unsigned enc)
{
    /* 0.5, -0.5, 1, -1, 2, -2, 4, -4, 1/(2 pi) as f32 (exec_alu.c's table of the same facts) */
    static const uint32_t f32_consts[9] = { 0x3f000000u, 0xbf000000u, 0x3f800000u, 0xbf800000u, 0x40000000u,
                                            0xc0000000u, 0x40800000u, 0xc0800000u, 0x3e22f983u };
    if (enc == RDNA3_SRC_NULL) return c32(tr, 0);
    if (enc < RDNA3_NUM_SGPR_SLOTS) return load(tr, tr->i32, tr->w, SGPR_OFF(enc));
    if (enc == RDNA3_SRC_LITERAL) return c32(tr, in->literal);
    if (enc >= RDNA3_SRC_F_HALF) return c32(tr, f32_consts[enc - RDNA3_SRC_F_HALF]);
    if (enc <= 192) return c32(tr, enc - RDNA3_SRC_CONST_ZERO);
    return c32(tr, (uint32_t)-(int32_t)(enc - 192));
}

static LLVMTypeRef lanes_ty(translator *tr) { return LLVMVectorType(tr->i32, tr->wave_size); }

/* wave_size lanes of the scalar v (of any element type: i32 for registers, i64 for addresses) */
static LLVMValueRef splat(translator *tr, LLVMValueRef v)
{
    LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(v), tr->wave_size);
    LLVMValueRef one = LLVMBuildInsertElement(tr->b, LLVMGetUndef(vt), v, c32(tr, 0), "");
    LLVMValueRef zeros = LLVMConstNull(LLVMVectorType(tr->i32, tr->wave_size));
    return LLVMBuildShuffleVector(tr->b, one, LLVMGetUndef(vt), zeros, "");
}

static LLVMValueRef vgpr_ptr(translator *tr, unsigned reg) { return field(tr, tr->w, VGPR_OFF(reg & 0xffu)); }

static LLVMValueRef load_row_mem(translator *tr, unsigned reg)
{
    LLVMValueRef v = LLVMBuildLoad2(tr->b, lanes_ty(tr), vgpr_ptr(tr, reg), "");
    LLVMSetAlignment(v, 64);
    return v;
}

static void store_row_mem(translator *tr, unsigned reg, LLVMValueRef v)
{
    LLVMValueRef st = LLVMBuildStore(tr->b, v, vgpr_ptr(tr, reg));
    LLVMSetAlignment(st, 64);
}

/* VGPR row reg as the run has it (see translator.vc) */
static LLVMValueRef load_row(translator *tr, unsigned reg)
{
    reg &= 0xffu;
    if (tr->vc_mode == VC_ARM)
        for (unsigned i = tr->arm_n; i-- > 0;)
            if (tr->arm_reg[i] == reg) return tr->arm_val[i];
    if (tr->vc_mode != VC_OFF && tr->vc[reg]) return tr->vc[reg];
    LLVMValueRef v = load_row_mem(tr, reg);
    if (tr->vc_mode == VC_ON) tr->vc[reg] = v;
    return v;
}

/* Write the rows the run changed back to the wave; keep = leave them marked (a slow arm: the
 * fast arm has not written them) */
static void vc_write_back(translator *tr, bool keep)
{
    for (unsigned r = 0; r < 256; r++) {
        if (!tr->vdirty[r]) continue;
        store_row_mem(tr, r, tr->vc[r]);
        if (!keep) tr->vdirty[r] = false;
    }
}

/* Forget the rows (after code that may write any of them; nothing may be dirty) */
static void vc_forget(translator *tr)
{
    memset(tr->vc, 0, sizeof tr->vc);
    memset(tr->vdirty, 0, sizeof tr->vdirty);
    exec_forget(tr);
}

/* An instruction's fast arm / handler arm (the handler writes the rows the fast arm writes):
 * arm_begin before the fast arm's code; arm_slow in the handler arm before its call; arm_join at
 * the join (the builder there), with the two arms' last blocks. */
static void arm_begin(translator *tr)
{
    tr->vc_mode = VC_ARM;
    tr->arm_n = 0;
}

static void arm_slow(translator *tr)
{
    vc_write_back(tr, true);   /* the handler reads the wave's registers */
}

static void arm_join(translator *tr, LLVMBasicBlockRef fast_end, LLVMBasicBlockRef slow_end)
{
    LLVMBuilderRef b = tr->b;
    LLVMBasicBlockRef join = LLVMGetInsertBlock(b);
    for (unsigned i = 0; i < tr->arm_n; i++) {
        LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(slow_end));
        LLVMValueRef now = load_row_mem(tr, tr->arm_reg[i]);   /* what the handler wrote */
        LLVMPositionBuilderAtEnd(b, join);
        LLVMValueRef phi = LLVMBuildPhi(b, lanes_ty(tr), "");
        LLVMValueRef vals[2] = { tr->arm_val[i], now };
        LLVMBasicBlockRef from[2] = { fast_end, slow_end };
        LLVMAddIncoming(phi, vals, from, 2);
        tr->vc[tr->arm_reg[i]] = phi;
        tr->vdirty[tr->arm_reg[i]] = true;
    }
    LLVMPositionBuilderAtEnd(b, join);
    tr->vc_mode = VC_ON;
    tr->arm_n = 0;
}

/* Source i of a VALU instruction as wave_size lanes. */
static LLVMValueRef vsrc(translator *tr, const rdna3_inst *in, unsigned i)
{
    unsigned s = in->src[i];
    if (s >= RDNA3_SRC_VGPR0) return load_row(tr, s - RDNA3_SRC_VGPR0);
    return splat(tr, scalar_src(tr, in, s));
}

static bool vsrcs_plain(const rdna3_inst *in, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (in->src[i] < RDNA3_SRC_VGPR0 && !plain_scalar_src(in->src[i])) return false;
    return true;
}

static LLVMValueRef lanes_of_mask(translator *tr, LLVMValueRef m);

/* EXEC as wave_size i1 lanes */
static LLVMValueRef exec_lanes(translator *tr)
{
    if (tr->exec_lanes) return tr->exec_lanes;
    LLVMValueRef on = lanes_of_mask(tr, exec_mask(tr));
    if (exec_keep(tr)) tr->exec_lanes = on;
    return on;
}

/* VGPR vdst = r under EXEC (the lanes EXEC leaves off keep their bits). */
static void store_vgpr_lanes(translator *tr, unsigned vdst, LLVMValueRef r)
{
    LLVMValueRef on = exec_lanes(tr);
    vdst &= 0xffu;
    LLVMValueRef merged = LLVMBuildSelect(tr->b, on, r, load_row(tr, vdst), "");
    if (tr->vc_mode == VC_OFF) {
        store_row_mem(tr, vdst, merged);
    } else if (tr->vc_mode == VC_ARM) {
        unsigned i = 0;
        while (i < tr->arm_n && tr->arm_reg[i] != vdst) i++;
        if (i == tr->arm_n) tr->arm_n++;   /* (at most two rows: VOPD, a 64-bit result) */
        tr->arm_reg[i] = vdst;
        tr->arm_val[i] = merged;
    } else {
        tr->vc[vdst] = merged;
        tr->vdirty[vdst] = true;
    }
}

/* D = r under EXEC. */
static void store_vdst(translator *tr, const rdna3_inst *in, LLVMValueRef r) { store_vgpr_lanes(tr, in->vdst, r); }

static LLVMValueRef shift_amount(translator *tr, LLVMValueRef v)
{
    return LLVMBuildAnd(tr->b, v, splat(tr, c32(tr, 31)), "");
}

/* The unified opcode (rdna3_vop3_op) of an inline VALU instruction, with its source count in
 * *nsrc; 0 if it is not one. */
static unsigned valu_inline_op(const rdna3_inst *in, unsigned *nsrc)
{
    if (in->fmt != RDNA3_FMT_VOP1 && in->fmt != RDNA3_FMT_VOP2 && in->fmt != RDNA3_FMT_VOP3) return 0;
    if (!plain_modifiers(in)) return 0;
    unsigned op = in->fmt == RDNA3_FMT_VOP2 ? 256u + in->op : in->fmt == RDNA3_FMT_VOP1 ? 384u + in->op : in->op;
    switch (op) {
    case 0x181: *nsrc = 1; break;                                                   /* v_mov_b32 */
    case 0x185: case 0x186: case 0x187: case 0x188: *nsrc = 1; break;                 /* v_cvt_{f32_i32,f32_u32,u32_f32,i32_f32} */
    case 0x118: case 0x119: case 0x11a: case 0x11b: case 0x11c: case 0x11d:
    case 0x125: case 0x126: case 0x127: case 0x32c: *nsrc = 2; break;
    case 0x245: case 0x246: case 0x255: case 0x256: case 0x257: case 0x258: *nsrc = 3; break;
    default: return 0;
    }
    return vsrcs_plain(in, *nsrc) ? op : 0;
}

/* The lanes of the inline VALU instruction in (valu_inline_op gave op). */
static LLVMTypeRef flanes_ty(translator *tr) { return LLVMVectorType(LLVMFloatTypeInContext(tr->ctx), tr->wave_size); }

/* llvm.fpto{s,u}i.sat over the lanes: truncation toward zero, saturated to the 32-bit range, NaN
 * to 0 (rdna3_cvt_i32 / rdna3_cvt_u32 exactly; a denormal input the handler flushes truncates to 0
 * either way). */
static LLVMValueRef f32_to_int_sat(translator *tr, LLVMValueRef bits, bool sgn)
{
    LLVMTypeRef fty = flanes_ty(tr), ity = lanes_ty(tr);
    char name[48];
    snprintf(name, sizeof name, "llvm.fpto%ci.sat.v%ui32.v%uf32", sgn ? 's' : 'u', tr->wave_size, tr->wave_size);
    LLVMValueRef f = LLVMGetNamedFunction(tr->m, name);
    LLVMTypeRef ft = LLVMFunctionType(ity, &fty, 1, false);
    if (!f) f = LLVMAddFunction(tr->m, name, ft);
    LLVMValueRef x = LLVMBuildBitCast(tr->b, bits, fty, "");
    return LLVMBuildCall2(tr->b, ft, f, &x, 1, "");
}

static LLVMValueRef valu_expr(translator *tr, const rdna3_inst *in, unsigned op, unsigned nsrc)
{
    LLVMBuilderRef b = tr->b;
    LLVMValueRef a = vsrc(tr, in, 0), bb = nsrc > 1 ? vsrc(tr, in, 1) : NULL, c = nsrc > 2 ? vsrc(tr, in, 2) : NULL;
    switch (op) {
    case 0x181: return a;
    /* int -> f32 rounds to nearest (turns run under round-to-nearest) and is never a denormal,
     * so MODE's flushing does not apply */
    case 0x185: return LLVMBuildBitCast(b, LLVMBuildSIToFP(b, a, flanes_ty(tr), ""), lanes_ty(tr), "");
    case 0x186: return LLVMBuildBitCast(b, LLVMBuildUIToFP(b, a, flanes_ty(tr), ""), lanes_ty(tr), "");
    case 0x187: return f32_to_int_sat(tr, a, false);
    case 0x188: return f32_to_int_sat(tr, a, true);
    case 0x118: return LLVMBuildShl(b, bb, shift_amount(tr, a), "");                /* v_lshlrev_b32 */
    case 0x119: return LLVMBuildLShr(b, bb, shift_amount(tr, a), "");               /* v_lshrrev_b32 */
    case 0x11a: return LLVMBuildAShr(b, bb, shift_amount(tr, a), "");               /* v_ashrrev_i32 */
    case 0x11b: return LLVMBuildAnd(b, a, bb, "");
    case 0x11c: return LLVMBuildOr(b, a, bb, "");
    case 0x11d: return LLVMBuildXor(b, a, bb, "");
    case 0x125: return LLVMBuildAdd(b, a, bb, "");                                  /* v_add_nc_u32 */
    case 0x126: return LLVMBuildSub(b, a, bb, "");                                  /* v_sub_nc_u32 */
    case 0x127: return LLVMBuildSub(b, bb, a, "");                                  /* v_subrev_nc_u32 */
    case 0x32c: return LLVMBuildMul(b, a, bb, "");                                  /* v_mul_lo_u32 */
    case 0x245: return LLVMBuildAdd(b, LLVMBuildXor(b, a, bb, ""), c, "");          /* v_xad_u32 */
    case 0x246: return LLVMBuildAdd(b, LLVMBuildShl(b, a, shift_amount(tr, bb), ""), c, "");   /* v_lshl_add_u32 */
    case 0x255: return LLVMBuildAdd(b, LLVMBuildAdd(b, a, bb, ""), c, "");          /* v_add3_u32 */
    case 0x256: return LLVMBuildOr(b, LLVMBuildShl(b, a, shift_amount(tr, bb), ""), c, "");    /* v_lshl_or_b32 */
    case 0x257: return LLVMBuildOr(b, LLVMBuildAnd(b, a, bb, ""), c, "");           /* v_and_or_b32 */
    default: return LLVMBuildOr(b, LLVMBuildOr(b, a, bb, ""), c, "");               /* 0x258 v_or3_b32 */
    }
}

/* ---- inline f32 arithmetic ----
 * v_add/sub/subrev/mul_f32, v_fma_f32, v_fmac/fmamk/fmaak_f32, v_rcp/rsq/sqrt_f32 with plain operands: IEEE
 * operations rounded to nearest (a translated turn runs only with MODE.FP_ROUND = 0), the same
 * bits as the handlers' host arithmetic whenever no input is a NaN (exactly rounded results; a
 * NaN the operation creates is the host's default NaN in both). Where the handlers' result depends
 * on more than IEEE says (which input NaN's payload survives, as the host compiler ordered the
 * operands; flushed denormals under MODE.FP_DENORM != 3) the instruction calls its handler: a
 * runtime test per instruction of MODE's f32 denormal bits and of NaN in any lane's input. */

enum { FP_ADD = 1, FP_SUB, FP_SUBREV, FP_MUL, FP_FMA, FP_FMAC, FP_FMAMK, FP_FMAAK, FP_RCP, FP_RSQ, FP_SQRT };

static unsigned fp_inline_kind(const rdna3_inst *in, unsigned *nsrc)
{
    if (in->fmt != RDNA3_FMT_VOP1 && in->fmt != RDNA3_FMT_VOP2 && in->fmt != RDNA3_FMT_VOP3) return 0;
    if (!plain_modifiers(in)) return 0;
    unsigned op = in->fmt == RDNA3_FMT_VOP2 ? 256u + in->op : in->fmt == RDNA3_FMT_VOP1 ? 384u + in->op : in->op, kind;
    switch (op) {
    /* exec_valu.c: rcp32 is 1.0f / a, rsq32 1.0 / sqrt((double)a) rounded to f32, sqrt sqrtf:
     * IEEE operations the same IR computes bit for bit (v_rcp_iflag_f32 is v_rcp_f32) */
    case 0x1aa: case 0x1ab: kind = FP_RCP; *nsrc = 1; break;
    case 0x1ae: kind = FP_RSQ; *nsrc = 1; break;
    case 0x1b3: kind = FP_SQRT; *nsrc = 1; break;
    case 0x103: kind = FP_ADD; *nsrc = 2; break;
    case 0x104: kind = FP_SUB; *nsrc = 2; break;
    case 0x105: kind = FP_SUBREV; *nsrc = 2; break;
    case 0x108: kind = FP_MUL; *nsrc = 2; break;
    case 0x12b: kind = FP_FMAC; *nsrc = 2; break;
    case 0x12c: kind = FP_FMAMK; *nsrc = 2; break;
    case 0x12d: kind = FP_FMAAK; *nsrc = 2; break;
    case 0x213: kind = FP_FMA; *nsrc = 3; break;
    default: return 0;
    }
    return vsrcs_plain(in, *nsrc) ? kind : 0;
}


/* true if any lane of the float vector v is a NaN */
static LLVMValueRef any_nan(translator *tr, LLVMValueRef v)
{
    LLVMValueRef uno = LLVMBuildFCmp(tr->b, LLVMRealUNO, v, v, "");
    LLVMTypeRef ity = LLVMIntTypeInContext(tr->ctx, tr->wave_size);
    return LLVMBuildICmp(tr->b, LLVMIntNE, LLVMBuildBitCast(tr->b, uno, ity, ""), LLVMConstInt(ity, 0, false), "");
}

/* llvm.sqrt over a vector of lanes (f32 or f64 elements): the host's correctly rounded square root */
static LLVMValueRef sqrt_lanes(translator *tr, LLVMValueRef v, bool f64)
{
    LLVMTypeRef ety = f64 ? LLVMDoubleTypeInContext(tr->ctx) : LLVMFloatTypeInContext(tr->ctx);
    LLVMTypeRef vty = LLVMVectorType(ety, tr->wave_size);
    char name[32];
    snprintf(name, sizeof name, "llvm.sqrt.v%u%s", tr->wave_size, f64 ? "f64" : "f32");
    LLVMValueRef f = LLVMGetNamedFunction(tr->m, name);
    LLVMTypeRef ft = LLVMFunctionType(vty, &vty, 1, false);
    if (!f) f = LLVMAddFunction(tr->m, name, ft);
    return LLVMBuildCall2(tr->b, ft, f, &v, 1, "");
}

/* rsq32: 1.0 / sqrt((double)a) in double, rounded once to f32 */
static LLVMValueRef rsq_lanes(translator *tr, LLVMValueRef a)
{
    LLVMTypeRef dty = LLVMVectorType(LLVMDoubleTypeInContext(tr->ctx), tr->wave_size);
    LLVMValueRef d = sqrt_lanes(tr, LLVMBuildFPExt(tr->b, a, dty, ""), true);
    LLVMValueRef ones = splat(tr, LLVMConstReal(LLVMDoubleTypeInContext(tr->ctx), 1.0));
    return LLVMBuildFPTrunc(tr->b, LLVMBuildFDiv(tr->b, ones, d, ""), flanes_ty(tr), "");
}

static LLVMValueRef fma_lanes(translator *tr, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
    LLVMTypeRef fty = flanes_ty(tr);
    char name[32];
    snprintf(name, sizeof name, "llvm.fma.v%uf32", tr->wave_size);
    LLVMValueRef f = LLVMGetNamedFunction(tr->m, name);
    LLVMTypeRef args[3] = { fty, fty, fty };
    LLVMTypeRef ft = LLVMFunctionType(fty, args, 3, false);
    if (!f) f = LLVMAddFunction(tr->m, name, ft);
    LLVMValueRef v[3] = { a, b, c };
    return LLVMBuildCall2(tr->b, ft, f, v, 3, "");
}

/* The inline f32 instruction: its fast path, or its handler (see above). Leaves the builder at
 * the join. */
static void emit_fp(translator *tr, const tr_inst *ti, unsigned kind, unsigned nsrc)
{
    const rdna3_inst *in = ti->in;
    LLVMBuilderRef b = tr->b;
    LLVMTypeRef fty = flanes_ty(tr);
    LLVMValueRef x[3] = { NULL, NULL, NULL };
    for (unsigned i = 0; i < nsrc; i++) x[i] = LLVMBuildBitCast(b, vsrc(tr, in, i), fty, "");
    if (kind == FP_FMAC) x[2] = LLVMBuildBitCast(b, load_row(tr, in->vdst), fty, "");
    if (kind == FP_FMAMK || kind == FP_FMAAK) x[2] = LLVMBuildBitCast(b, splat(tr, c32(tr, in->literal)), fty, "");
    unsigned nin = kind >= FP_RCP ? 1u : kind >= FP_FMA ? 3u : 2u;
    LLVMValueRef mode = load(tr, tr->i32, tr->w, offsetof(rdna3_wave, mode));
    LLVMValueRef slow = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, mode, c32(tr, 0x30), ""), c32(tr, 0x30), "");
    for (unsigned i = 0; i < nin; i++) slow = LLVMBuildOr(b, slow, any_nan(tr, x[i]), "");
    LLVMBasicBlockRef fast_bb = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
    LLVMBasicBlockRef slow_bb = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
    LLVMBuildCondBr(b, slow, slow_bb, fast_bb);

    LLVMPositionBuilderAtEnd(b, fast_bb);
    arm_begin(tr);
    LLVMValueRef r;
    switch (kind) {
    case FP_ADD: r = LLVMBuildFAdd(b, x[0], x[1], ""); break;
    case FP_SUB: r = LLVMBuildFSub(b, x[0], x[1], ""); break;
    case FP_SUBREV: r = LLVMBuildFSub(b, x[1], x[0], ""); break;
    case FP_MUL: r = LLVMBuildFMul(b, x[0], x[1], ""); break;
    case FP_FMAMK: r = fma_lanes(tr, x[0], x[2], x[1]); break;    /* S0 * K + S1 */
    case FP_RCP: r = LLVMBuildFDiv(b, splat(tr, LLVMConstReal(LLVMFloatTypeInContext(tr->ctx), 1.0)), x[0], ""); break;
    case FP_RSQ: r = rsq_lanes(tr, x[0]); break;
    case FP_SQRT: r = sqrt_lanes(tr, x[0], false); break;
    default: r = fma_lanes(tr, x[0], x[1], x[2]); break;          /* fma, fmac (D), fmaak (K) */
    }
    store_vdst(tr, in, LLVMBuildBitCast(b, r, lanes_ty(tr), ""));
    LLVMBasicBlockRef fast_end = LLVMGetInsertBlock(b);
    LLVMBuildBr(b, join);

    LLVMPositionBuilderAtEnd(b, slow_bb);   /* f32 handlers never fault nor read the PC */
    arm_slow(tr);
    call_handler(tr, ti);
    LLVMBuildBr(b, join);
    LLVMPositionBuilderAtEnd(b, join);
    arm_join(tr, fast_end, slow_bb);
}

/* ---- lane masks: VOPC compares and v_cndmask_b32 ----
 * v_cmp_<cond>_{i32,u32} (VOPC 0x40..0x4f) and v_cmp_<cond>_f32 (0x10..0x1f), e32 (to VCC) and
 * their VOP3 form (to an SGPR (pair)), and v_cmpx_* (+0x80: to EXEC only, both halves), plain
 * operands (exec_vopc.c exec_cmp): the result bit of each lane, 0 where EXEC is off. f32 sources are exact IEEE comparisons (the
 * handler widens to double, which compares the same), so NaN needs no fallback; MODE flushing
 * input denormals does (the handler reads flushed values): then the handler runs. v_cndmask_b32
 * (VOP2 0x01 with VCC; VOP3 0x101 with an SGPR (pair) as the mask), plain operands. */

enum { CMP_NONE = 0, CMP_INT, CMP_F32 };

static int vopc_inline_kind(const rdna3_inst *in)
{
    bool e32 = in->fmt == RDNA3_FMT_VOPC;
    if (!e32 && !(in->fmt == RDNA3_FMT_VOP3 && in->op < 0x100)) return CMP_NONE;
    if (!plain_modifiers(in) || !vsrcs_plain(in, 2)) return CMP_NONE;
    unsigned op = in->op & 0x7fu;
    /* the VOP3 form's destination as rdna3_sdst_mask writes it: an SGPR slot (a pair for wave64);
     * cmpx writes EXEC whatever it names */
    if (!e32 && !(in->op & 0x80u) && (in->vdst == RDNA3_SRC_NULL || in->vdst >= RDNA3_NUM_SGPR_SLOTS - 1u))
        return CMP_NONE;
    if (op >= 0x40 && op <= 0x4f) return CMP_INT;
    if (op >= 0x10 && op <= 0x1f) return CMP_F32;
    return CMP_NONE;
}

/* The wave's lanes as an integer mask of wave_size bits, from <wave_size x i1>. */
static LLVMValueRef mask_of_lanes(translator *tr, LLVMValueRef bits)
{
    LLVMValueRef m = LLVMBuildBitCast(tr->b, bits, LLVMIntTypeInContext(tr->ctx, tr->wave_size), "");
    return tr->wave_size == 32 ? LLVMBuildZExt(tr->b, m, tr->i64, "") : m;
}

/* <wave_size x i1> from a lane mask (i64): lane i is bit i, tested as (mask half & 1 << i % 32) != 0
 * and not as a bitcast of the integer: LLVM 19's DAG combiner loops forever on some chains of
 * selects whose masks are bitcasts of related integers (a 25-line module of two such selects
 * hangs `llc-19 -O2`; found by the difftest, seed 40042, once a run's instructions shared one
 * block), and compiles this form to the same vptestmd/kmov. */
static LLVMValueRef lanes_of_mask(translator *tr, LLVMValueRef m)
{
    LLVMBuilderRef b = tr->b;
    LLVMTypeRef two = LLVMVectorType(tr->i32, 2);
    LLVMValueRef halves = LLVMBuildInsertElement(b, LLVMGetUndef(two), LLVMBuildTrunc(b, m, tr->i32, ""), c32(tr, 0), "");
    halves = LLVMBuildInsertElement(b, halves, LLVMBuildTrunc(b, LLVMBuildLShr(b, m, c64(tr, 32), ""), tr->i32, ""),
                                    c32(tr, 1), "");
    LLVMValueRef pick[64], bit[64];
    for (unsigned i = 0; i < tr->wave_size; i++) {
        pick[i] = c32(tr, i / 32u);
        bit[i] = c32(tr, 1u << (i % 32u));
    }
    LLVMValueRef lanes = LLVMBuildShuffleVector(b, halves, LLVMGetUndef(two), LLVMConstVector(pick, tr->wave_size), "");
    LLVMValueRef set = LLVMBuildAnd(b, lanes, LLVMConstVector(bit, tr->wave_size), "");
    return LLVMBuildICmp(b, LLVMIntNE, set, LLVMConstNull(lanes_ty(tr)), "");
}

/* A lane mask (i64, the wave's lanes) into VCC or the SGPR (pair) enc. */
static void store_mask(translator *tr, unsigned enc, LLVMValueRef m)
{
    store(tr, LLVMBuildTrunc(tr->b, m, tr->i32, ""), tr->w, SGPR_OFF(enc));
    if (tr->wave_size == 64)
        store(tr, LLVMBuildTrunc(tr->b, LLVMBuildLShr(tr->b, m, c64(tr, 32), ""), tr->i32, ""), tr->w, SGPR_OFF(enc + 1u));
}

/* A lane mask read from VCC or the SGPR (pair) enc, limited to the wave's lanes. */
static LLVMValueRef load_mask(translator *tr, unsigned enc)
{
    LLVMValueRef lo = LLVMBuildZExt(tr->b, load(tr, tr->i32, tr->w, SGPR_OFF(enc)), tr->i64, "");
    if (tr->wave_size == 32) return lo;
    LLVMValueRef hi = LLVMBuildZExt(tr->b, load(tr, tr->i32, tr->w, SGPR_OFF((enc + 1u) & 127u)), tr->i64, "");
    return LLVMBuildOr(tr->b, lo, LLVMBuildShl(tr->b, hi, c64(tr, 32), ""), "");
}

static LLVMValueRef compare_lanes(translator *tr, const rdna3_inst *in, int kind)
{
    LLVMBuilderRef b = tr->b;
    unsigned cond = kind == CMP_INT ? in->op & 7u : in->op & 15u;
    LLVMTypeRef bty = LLVMVectorType(LLVMInt1TypeInContext(tr->ctx), tr->wave_size);
    unsigned top = kind == CMP_INT ? 7u : 15u;
    if (cond == 0 || cond == top) return cond ? LLVMConstAllOnes(bty) : LLVMConstNull(bty);
    LLVMValueRef x = vsrc(tr, in, 0), y = vsrc(tr, in, 1);
    if (kind == CMP_INT) {
        static const LLVMIntPredicate sp[7] = { 0, LLVMIntSLT, LLVMIntEQ, LLVMIntSLE, LLVMIntSGT, LLVMIntNE, LLVMIntSGE };
        static const LLVMIntPredicate up[7] = { 0, LLVMIntULT, LLVMIntEQ, LLVMIntULE, LLVMIntUGT, LLVMIntNE, LLVMIntUGE };
        return LLVMBuildICmp(b, (in->op & 0x7fu) < 0x48 ? sp[cond] : up[cond], x, y, "");
    }
    static const LLVMRealPredicate fp[15] = { 0, LLVMRealOLT, LLVMRealOEQ, LLVMRealOLE, LLVMRealOGT, LLVMRealONE,
                                              LLVMRealOGE, LLVMRealORD, LLVMRealUNO, LLVMRealULT, LLVMRealUEQ,
                                              LLVMRealULE, LLVMRealUGT, LLVMRealUNE, LLVMRealUGE };
    LLVMTypeRef fty = flanes_ty(tr);
    return LLVMBuildFCmp(b, fp[cond], LLVMBuildBitCast(b, x, fty, ""), LLVMBuildBitCast(b, y, fty, ""), "");
}

/* Emit the compare; an f32 one under a MODE that flushes denormals calls its handler. */
static void emit_vopc(translator *tr, const tr_inst *ti, int kind)
{
    const rdna3_inst *in = ti->in;
    LLVMBasicBlockRef join = NULL, slow_bb = NULL;
    if (kind == CMP_F32) {
        LLVMValueRef mode = load(tr, tr->i32, tr->w, offsetof(rdna3_wave, mode));
        LLVMValueRef slow = LLVMBuildICmp(tr->b, LLVMIntNE, LLVMBuildAnd(tr->b, mode, c32(tr, 0x30), ""), c32(tr, 0x30), "");
        LLVMBasicBlockRef fast_bb = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
        slow_bb = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
        join = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
        LLVMBuildCondBr(tr->b, slow, slow_bb, fast_bb);
        LLVMPositionBuilderAtEnd(tr->b, slow_bb);   /* compares never fault nor read the PC */
        arm_slow(tr);
        call_handler(tr, ti);
        LLVMBuildBr(tr->b, join);
        LLVMPositionBuilderAtEnd(tr->b, fast_bb);
        arm_begin(tr);
    }
    LLVMValueRef r = LLVMBuildAnd(tr->b, mask_of_lanes(tr, compare_lanes(tr, in, kind)), exec_mask(tr), "");
    if (in->op & 0x80u) {   /* v_cmpx: EXEC (rdna3_set_exec writes both halves) */
        store(tr, LLVMBuildTrunc(tr->b, r, tr->i32, ""), tr->w, SGPR_OFF(RDNA3_SRC_EXEC_LO));
        store(tr, LLVMBuildTrunc(tr->b, LLVMBuildLShr(tr->b, r, c64(tr, 32), ""), tr->i32, ""), tr->w,
              SGPR_OFF(RDNA3_SRC_EXEC_HI));
    } else {
        store_mask(tr, in->fmt == RDNA3_FMT_VOPC ? RDNA3_SRC_VCC_LO : in->vdst, r);
    }
    if (join) {
        LLVMBasicBlockRef fast_end = LLVMGetInsertBlock(tr->b);
        LLVMBuildBr(tr->b, join);
        LLVMPositionBuilderAtEnd(tr->b, join);
        arm_join(tr, fast_end, slow_bb);
    }
}

static bool cndmask_inline_ok(const rdna3_inst *in)
{
    if (!plain_modifiers(in) || !vsrcs_plain(in, 2)) return false;
    if (in->fmt == RDNA3_FMT_VOP2) return in->op == 0x01;
    return in->fmt == RDNA3_FMT_VOP3 && in->op == 0x101 && in->src[2] < RDNA3_NUM_SGPR_SLOTS &&
           in->src[2] != RDNA3_SRC_NULL;
}

static void emit_cndmask(translator *tr, const rdna3_inst *in)
{
    unsigned enc = in->fmt == RDNA3_FMT_VOP2 ? RDNA3_SRC_VCC_LO : in->src[2];
    LLVMValueRef sel = lanes_of_mask(tr, load_mask(tr, enc));
    store_vdst(tr, in, LLVMBuildSelect(tr->b, sel, vsrc(tr, in, 1), vsrc(tr, in, 0), ""));
}

/* ---- 32-bit adds and subtracts with carry (exec_valu.c addsub_carry) ----
 * v_add/sub/subrev_co_ci_u32 (VOP2 0x20-0x22: carry in and out in VCC; their VOP3SD form with the
 * carry in from an SGPR (pair) and out to SDST) and v_add/sub/subrev_co_u32 (VOP3SD 0x300-0x302:
 * carry out only), plain operands, no clamp: D = x + y + c with the unsigned carry, or x - y - c
 * with the borrow, in 32-bit lanes; the carry-out mask is the lanes' carries under EXEC. The
 * 64-bit address arithmetic of every kernel is a pair of these. */

enum { CARRY_NONE = 0, CARRY_ADD, CARRY_SUB, CARRY_SUBREV };

static bool mask_sdst_ok(unsigned enc) { return enc != RDNA3_SRC_NULL && enc < RDNA3_NUM_SGPR_SLOTS - 1u; }
/* a carry-out destination: an SGPR (pair) as above, or NULL (rdna3_sdst32/64 write nothing) */
static bool carry_sdst_ok(unsigned enc) { return enc == RDNA3_SRC_NULL || mask_sdst_ok(enc); }

static int carry_inline_kind(const rdna3_inst *in, bool *with_ci)
{
    unsigned op;
    if (in->fmt == RDNA3_FMT_VOP2) op = 256u + in->op;
    else if (in->fmt == RDNA3_FMT_VOP3SD) op = in->op;
    else return CARRY_NONE;
    if (!plain_modifiers(in) || !vsrcs_plain(in, 2)) return CARRY_NONE;
    if (in->fmt == RDNA3_FMT_VOP3SD && !carry_sdst_ok(in->sdst)) return CARRY_NONE;
    *with_ci = op >= 0x120 && op <= 0x122;
    if (*with_ci && in->fmt == RDNA3_FMT_VOP3SD && !mask_sdst_ok(in->src[2])) return CARRY_NONE;
    if (in->fmt == RDNA3_FMT_VOP2 && !*with_ci) return CARRY_NONE;
    if (*with_ci) return CARRY_ADD + (int)(op - 0x120);
    if (op >= 0x300 && op <= 0x302) return CARRY_ADD + (int)(op - 0x300);
    return CARRY_NONE;
}

static void emit_carry(translator *tr, const rdna3_inst *in, int kind, bool with_ci)
{
    LLVMBuilderRef b = tr->b;
    bool vop2 = in->fmt == RDNA3_FMT_VOP2;
    LLVMValueRef a = vsrc(tr, in, 0), bb = vsrc(tr, in, 1);
    LLVMValueRef x = kind == CARRY_SUBREV ? bb : a, y = kind == CARRY_SUBREV ? a : bb;
    LLVMValueRef c = LLVMConstNull(lanes_ty(tr));
    if (with_ci)   /* the carry in, limited to the wave's lanes (rdna3_vcc / rdna3_ssrc_mask) */
        c = LLVMBuildZExt(b, lanes_of_mask(tr, load_mask(tr, vop2 ? RDNA3_SRC_VCC_LO : in->src[2])), lanes_ty(tr), "");
    LLVMValueRef res, cf;
    if (kind == CARRY_ADD) {
        LLVMValueRef s = LLVMBuildAdd(b, x, y, "");
        res = LLVMBuildAdd(b, s, c, "");
        cf = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntULT, s, x, ""), LLVMBuildICmp(b, LLVMIntULT, res, s, ""), "");
    } else {
        LLVMValueRef d = LLVMBuildSub(b, x, y, "");
        res = LLVMBuildSub(b, d, c, "");
        cf = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntULT, x, y, ""), LLVMBuildICmp(b, LLVMIntULT, d, c, ""), "");
    }
    LLVMValueRef co = LLVMBuildAnd(b, mask_of_lanes(tr, cf), exec_mask(tr), "");
    store_vdst(tr, in, res);
    if (vop2 || in->sdst != RDNA3_SRC_NULL) store_mask(tr, vop2 ? RDNA3_SRC_VCC_LO : in->sdst, co);
}

/* ---- 64-bit lanes: v_lshlrev_b64, v_lshrrev_b64, v_ashrrev_i64 (D64 = S1 shifted by S0[5:0]) and
 * v_mad_u64_u32 (D64 = S0 * S1 + S2, SDST = the carry out of the 64-bit sum, under EXEC), VOP3,
 * plain operands, the 64-bit operand a VGPR pair (exec_valu.c shift64 / mad64): every source read
 * before the pair is written. */

enum { W64_NONE = 0, W64_SHL, W64_SHR, W64_ASHR, W64_MAD_U };

static int wide_inline_kind(const rdna3_inst *in)
{
    if (!plain_modifiers(in)) return W64_NONE;
    if (in->fmt == RDNA3_FMT_VOP3 && in->op >= 0x33c && in->op <= 0x33e)
        return vsrcs_plain(in, 1) && in->src[1] >= RDNA3_SRC_VGPR0 ? W64_SHL + (int)(in->op - 0x33c) : W64_NONE;
    if (in->fmt == RDNA3_FMT_VOP3SD && in->op == 0x2fe)
        return vsrcs_plain(in, 2) && in->src[2] >= RDNA3_SRC_VGPR0 && carry_sdst_ok(in->sdst) ? W64_MAD_U : W64_NONE;
    return W64_NONE;
}

/* The 64-bit lanes of the VGPR pair reg, reg + 1 */
static LLVMValueRef load_pair(translator *tr, unsigned reg)
{
    LLVMTypeRef wide = LLVMVectorType(tr->i64, tr->wave_size);
    LLVMValueRef lo = LLVMBuildZExt(tr->b, load_row(tr, reg), wide, "");
    LLVMValueRef hi = LLVMBuildZExt(tr->b, load_row(tr, reg + 1u), wide, "");
    return LLVMBuildOr(tr->b, lo, LLVMBuildShl(tr->b, hi, splat(tr, c64(tr, 32)), ""), "");
}

static void emit_wide(translator *tr, const rdna3_inst *in, int kind)
{
    LLVMBuilderRef b = tr->b;
    LLVMTypeRef wide = LLVMVectorType(tr->i64, tr->wave_size);
    LLVMValueRef r, co = NULL;
    if (kind == W64_MAD_U) {
        LLVMValueRef p = LLVMBuildMul(b, LLVMBuildZExt(b, vsrc(tr, in, 0), wide, ""), LLVMBuildZExt(b, vsrc(tr, in, 1), wide, ""), "");
        r = LLVMBuildAdd(b, p, load_pair(tr, in->src[2] - RDNA3_SRC_VGPR0), "");
        co = LLVMBuildAnd(b, mask_of_lanes(tr, LLVMBuildICmp(b, LLVMIntULT, r, p, "")), exec_mask(tr), "");
    } else {
        LLVMValueRef amt = LLVMBuildZExt(b, LLVMBuildAnd(b, vsrc(tr, in, 0), splat(tr, c32(tr, 63)), ""), wide, "");
        LLVMValueRef v = load_pair(tr, in->src[1] - RDNA3_SRC_VGPR0);
        r = kind == W64_SHL ? LLVMBuildShl(b, v, amt, "") : kind == W64_SHR ? LLVMBuildLShr(b, v, amt, "")
                                                                           : LLVMBuildAShr(b, v, amt, "");
    }
    LLVMValueRef lo = LLVMBuildTrunc(b, r, lanes_ty(tr), "");
    LLVMValueRef hi = LLVMBuildTrunc(b, LLVMBuildLShr(b, r, splat(tr, c64(tr, 32)), ""), lanes_ty(tr), "");
    store_vgpr_lanes(tr, in->vdst, lo);
    store_vgpr_lanes(tr, in->vdst + 1u, hi);
    if (co && in->sdst != RDNA3_SRC_NULL) store_mask(tr, in->sdst, co);
}

/* ---- VOPD (exec_vopd.c): two VALU operations, both reading every source before either writes ----
 * Inline halves: fmac (0), fmaak (1), fmamk (2), mul (3), add (4), sub (5), subrev (6) in f32,
 * mov (8), cndmask with VCC (9), and Y's add_nc_u32 (16), lshlrev_b32 (17), and_b32 (18). The f32
 * halves follow emit_fp's rule: the handler runs the whole instruction when MODE flushes f32
 * denormals or any f32 half has a NaN in an input lane. */

static bool vopd_half_inline(unsigned op) { return op <= 6 || op == 8 || op == 9 || (op >= 16 && op <= 18); }
static bool vopd_half_f32(unsigned op) { return op <= 6; }

static bool vopd_src_plain(unsigned enc) { return enc >= RDNA3_SRC_VGPR0 || plain_scalar_src(enc); }

static bool vopd_inline_ok(const rdna3_inst *in)
{
    return in->fmt == RDNA3_FMT_VOPD && in->op <= 13 && vopd_half_inline(in->op) && vopd_half_inline(in->opy) &&
           vopd_src_plain(in->src[0]) && vopd_src_plain(in->src[1]) && vopd_src_plain(in->srcy[0]) &&
           vopd_src_plain(in->srcy[1]);
}

static LLVMValueRef vopd_src(translator *tr, const rdna3_inst *in, unsigned enc)
{
    return enc >= RDNA3_SRC_VGPR0 ? load_row(tr, enc - RDNA3_SRC_VGPR0) : splat(tr, scalar_src(tr, in, enc));
}

/* The f32 inputs of a half (A, B, and D or K), for the NaN test; n of them. */
static unsigned vopd_f32_inputs(translator *tr, const rdna3_inst *in, unsigned op, unsigned s0, unsigned s1,
                                unsigned vdst, LLVMValueRef x[3])
{
    LLVMTypeRef fty = flanes_ty(tr);
    x[0] = LLVMBuildBitCast(tr->b, vopd_src(tr, in, s0), fty, "");
    x[1] = LLVMBuildBitCast(tr->b, vopd_src(tr, in, s1), fty, "");
    if (op == 0) x[2] = LLVMBuildBitCast(tr->b, load_row(tr, vdst), fty, "");
    else if (op == 1 || op == 2) x[2] = LLVMBuildBitCast(tr->b, splat(tr, c32(tr, in->literal)), fty, "");
    else return 2;
    return 3;
}

/* The lanes a half computes (before any write). */
static LLVMValueRef vopd_half(translator *tr, const rdna3_inst *in, unsigned op, unsigned s0, unsigned s1,
                              unsigned vdst)
{
    LLVMBuilderRef b = tr->b;
    if (vopd_half_f32(op)) {
        LLVMValueRef x[3];
        vopd_f32_inputs(tr, in, op, s0, s1, vdst, x);
        LLVMValueRef r;
        switch (op) {
        case 0: case 1: r = fma_lanes(tr, x[0], x[1], x[2]); break;   /* A * B + D, A * B + K */
        case 2: r = fma_lanes(tr, x[0], x[2], x[1]); break;            /* A * K + B */
        case 3: r = LLVMBuildFMul(b, x[0], x[1], ""); break;
        case 4: r = LLVMBuildFAdd(b, x[0], x[1], ""); break;
        case 5: r = LLVMBuildFSub(b, x[0], x[1], ""); break;
        default: r = LLVMBuildFSub(b, x[1], x[0], ""); break;
        }
        return LLVMBuildBitCast(b, r, lanes_ty(tr), "");
    }
    LLVMValueRef a = vopd_src(tr, in, s0), bb = vopd_src(tr, in, s1);
    switch (op) {
    case 8: return a;
    case 9: return LLVMBuildSelect(b, lanes_of_mask(tr, load_mask(tr, RDNA3_SRC_VCC_LO)), bb, a, "");
    case 16: return LLVMBuildAdd(b, a, bb, "");
    case 17: return LLVMBuildShl(b, bb, shift_amount(tr, a), "");
    default: return LLVMBuildAnd(b, a, bb, "");
    }
}

static void emit_vopd(translator *tr, const tr_inst *ti)
{
    const rdna3_inst *in = ti->in;
    LLVMBuilderRef b = tr->b;
    LLVMBasicBlockRef join = NULL, slow_bb = NULL;
    if (vopd_half_f32(in->op) || vopd_half_f32(in->opy)) {
        LLVMValueRef mode = load(tr, tr->i32, tr->w, offsetof(rdna3_wave, mode));
        LLVMValueRef slow = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, mode, c32(tr, 0x30), ""), c32(tr, 0x30), "");
        LLVMValueRef x[3];
        if (vopd_half_f32(in->op))
            for (unsigned i = 0, n = vopd_f32_inputs(tr, in, in->op, in->src[0], in->src[1], in->vdst, x); i < n; i++)
                slow = LLVMBuildOr(b, slow, any_nan(tr, x[i]), "");
        if (vopd_half_f32(in->opy))
            for (unsigned i = 0, n = vopd_f32_inputs(tr, in, in->opy, in->srcy[0], in->srcy[1], in->vdsty, x); i < n; i++)
                slow = LLVMBuildOr(b, slow, any_nan(tr, x[i]), "");
        LLVMBasicBlockRef fast_bb = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
        slow_bb = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
        join = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
        LLVMBuildCondBr(b, slow, slow_bb, fast_bb);
        LLVMPositionBuilderAtEnd(b, slow_bb);   /* these halves never fault nor read the PC */
        arm_slow(tr);
        call_handler(tr, ti);
        LLVMBuildBr(b, join);
        LLVMPositionBuilderAtEnd(b, fast_bb);
        arm_begin(tr);
    }
    LLVMValueRef rx = vopd_half(tr, in, in->op, in->src[0], in->src[1], in->vdst);
    LLVMValueRef ry = vopd_half(tr, in, in->opy, in->srcy[0], in->srcy[1], in->vdsty);
    store_vgpr_lanes(tr, in->vdst, rx);   /* X, then Y: the handler's order per lane */
    store_vgpr_lanes(tr, in->vdsty, ry);
    if (join) {
        LLVMBasicBlockRef fast_end = LLVMGetInsertBlock(b);
        LLVMBuildBr(b, join);
        LLVMPositionBuilderAtEnd(b, join);
        arm_join(tr, fast_end, slow_bb);
    }
}

/* s_cmp_{eq,lg,gt,ge,lt,le}_{i32,u32} (SOPC 0x00..0x0b): SCC = the comparison. */
static void scalar_compare(translator *tr, const rdna3_inst *in)
{
    static const LLVMIntPredicate pred[12] = { LLVMIntEQ, LLVMIntNE, LLVMIntSGT, LLVMIntSGE, LLVMIntSLT, LLVMIntSLE,
                                               LLVMIntEQ, LLVMIntNE, LLVMIntUGT, LLVMIntUGE, LLVMIntULT, LLVMIntULE };
    LLVMValueRef c = LLVMBuildICmp(tr->b, pred[in->op], scalar_src(tr, in, in->src[0]), scalar_src(tr, in, in->src[1]), "");
    store(tr, LLVMBuildZExt(tr->b, c, tr->i8, ""), tr->w, offsetof(rdna3_wave, scc));
}


/* Scalar ALU (exec_salu.c exec_sop1/exec_sop2) with plain sources: s_mov_b32; s_add/sub_u32,
 * s_add/sub_i32, s_addc_u32, s_lshl/lshr_b32, s_ashr_i32, the 32-bit bitwise ops, s_mul_i32,
 * s_cselect_b32. SCC as the handler sets it; the destination written as rdna3_sdst32 does (an SGPR
 * slot, not NULL). Returns false for any other instruction. */
static bool salu_inline_ok(const rdna3_inst *in)
{
    if (in->fmt == RDNA3_FMT_SOP1) return in->op == 0x00 && plain_scalar_src(in->src[0]);
    if (in->fmt != RDNA3_FMT_SOP2 || !plain_scalar_src(in->src[0]) || !plain_scalar_src(in->src[1])) return false;
    switch (in->op) {
    case 0x00: case 0x01: case 0x02: case 0x03: case 0x04: case 0x08: case 0x0a: case 0x0c:
    case 0x16: case 0x18: case 0x1a: case 0x1c: case 0x1e: case 0x20: case 0x22: case 0x24:
    case 0x2c: case 0x30:
        return true;
    default:
        return false;
    }
}

static void set_scc(translator *tr, LLVMValueRef bit)   /* bit: i1 */
{
    store(tr, LLVMBuildZExt(tr->b, bit, tr->i8, ""), tr->w, offsetof(rdna3_wave, scc));
}

static LLVMValueRef scc_i1(translator *tr)
{
    LLVMValueRef scc = load(tr, tr->i8, tr->w, offsetof(rdna3_wave, scc));
    return LLVMBuildICmp(tr->b, LLVMIntNE, scc, LLVMConstInt(tr->i8, 0, false), "");
}

static void emit_salu(translator *tr, const rdna3_inst *in)
{
    LLVMBuilderRef b = tr->b;
    LLVMValueRef a = scalar_src(tr, in, in->src[0]), r;
    LLVMValueRef zero = c32(tr, 0), sign = c32(tr, 31);
    if (in->fmt == RDNA3_FMT_SOP1) {
        r = a;   /* s_mov_b32 */
    } else {
        LLVMValueRef bb = scalar_src(tr, in, in->src[1]);
        bool scc_nonzero = false;
        switch (in->op) {
        case 0x00: r = LLVMBuildAdd(b, a, bb, ""); set_scc(tr, LLVMBuildICmp(b, LLVMIntULT, r, a, "")); break;
        case 0x01: r = LLVMBuildSub(b, a, bb, ""); set_scc(tr, LLVMBuildICmp(b, LLVMIntUGT, bb, a, "")); break;
        case 0x02: case 0x03: {   /* signed overflow: bit 31 of (~(a^b) & (a^r)) / ((a^b) & (a^r)) */
            r = in->op == 0x02 ? LLVMBuildAdd(b, a, bb, "") : LLVMBuildSub(b, a, bb, "");
            LLVMValueRef x = LLVMBuildXor(b, a, bb, "");
            if (in->op == 0x02) x = LLVMBuildNot(b, x, "");
            LLVMValueRef o = LLVMBuildAnd(b, x, LLVMBuildXor(b, a, r, ""), "");
            set_scc(tr, LLVMBuildICmp(b, LLVMIntNE, LLVMBuildLShr(b, o, sign, ""), zero, ""));
            break;
        }
        case 0x04: {   /* s_addc_u32: 33-bit sum with SCC in */
            LLVMValueRef s = LLVMBuildAdd(b, LLVMBuildAdd(b, LLVMBuildZExt(b, a, tr->i64, ""), LLVMBuildZExt(b, bb, tr->i64, ""), ""),
                                          LLVMBuildZExt(b, scc_i1(tr), tr->i64, ""), "");
            r = LLVMBuildTrunc(b, s, tr->i32, "");
            set_scc(tr, LLVMBuildICmp(b, LLVMIntNE, LLVMBuildLShr(b, s, c64(tr, 32), ""), c64(tr, 0), ""));
            break;
        }
        case 0x08: r = LLVMBuildShl(b, a, LLVMBuildAnd(b, bb, sign, ""), ""); scc_nonzero = true; break;
        case 0x0a: r = LLVMBuildLShr(b, a, LLVMBuildAnd(b, bb, sign, ""), ""); scc_nonzero = true; break;
        case 0x0c: r = LLVMBuildAShr(b, a, LLVMBuildAnd(b, bb, sign, ""), ""); scc_nonzero = true; break;
        case 0x16: r = LLVMBuildAnd(b, a, bb, ""); scc_nonzero = true; break;
        case 0x18: r = LLVMBuildOr(b, a, bb, ""); scc_nonzero = true; break;
        case 0x1a: r = LLVMBuildXor(b, a, bb, ""); scc_nonzero = true; break;
        case 0x1c: r = LLVMBuildNot(b, LLVMBuildAnd(b, a, bb, ""), ""); scc_nonzero = true; break;
        case 0x1e: r = LLVMBuildNot(b, LLVMBuildOr(b, a, bb, ""), ""); scc_nonzero = true; break;
        case 0x20: r = LLVMBuildNot(b, LLVMBuildXor(b, a, bb, ""), ""); scc_nonzero = true; break;
        case 0x22: r = LLVMBuildAnd(b, a, LLVMBuildNot(b, bb, ""), ""); scc_nonzero = true; break;
        case 0x24: r = LLVMBuildOr(b, a, LLVMBuildNot(b, bb, ""), ""); scc_nonzero = true; break;
        case 0x2c: r = LLVMBuildMul(b, a, bb, ""); break;                                   /* s_mul_i32 */
        default: r = LLVMBuildSelect(b, scc_i1(tr), a, bb, ""); break;                      /* 0x30 s_cselect_b32 */
        }
        if (scc_nonzero) set_scc(tr, LLVMBuildICmp(b, LLVMIntNE, r, zero, ""));
    }
    if (in->vdst < RDNA3_NUM_SGPR_SLOTS && in->vdst != RDNA3_SRC_NULL) store(tr, r, tr->w, SGPR_OFF(in->vdst));
}

/* s_<op>_saveexec_b32 in wave32 and _b64 in wave64 (SOP1 0x20..0x33; exec_salu.c
 * sop1_exec_mask): sdst = the old EXEC, EXEC = op(S0, EXEC) on the wave's lanes, SCC = EXEC != 0. */
static bool saveexec_inline_ok(const translator *tr, const rdna3_inst *in)
{
    if (in->fmt != RDNA3_FMT_SOP1 || in->op < 0x20 || in->op > 0x33) return false;
    bool wide = in->op & 1u;
    if (wide != (tr->wave_size == 64)) return false;
    return wide ? in->src[0] < RDNA3_NUM_SGPR_SLOTS - 1u && in->src[0] != RDNA3_SRC_NULL : plain_scalar_src(in->src[0]);
}

static void emit_saveexec(translator *tr, const rdna3_inst *in)
{
    LLVMBuilderRef b = tr->b;
    bool wide = tr->wave_size == 64;
    LLVMValueRef old = exec_mask(tr);
    LLVMValueRef x = wide ? load_mask(tr, in->src[0]) : LLVMBuildZExt(b, scalar_src(tr, in, in->src[0]), tr->i64, "");
    LLVMValueRef e = old, r;
    switch ((in->op - 0x20u) >> 1) {
    case 0: r = LLVMBuildAnd(b, x, e, ""); break;
    case 1: r = LLVMBuildOr(b, x, e, ""); break;
    case 2: r = LLVMBuildXor(b, x, e, ""); break;
    case 3: r = LLVMBuildNot(b, LLVMBuildAnd(b, x, e, ""), ""); break;
    case 4: r = LLVMBuildNot(b, LLVMBuildOr(b, x, e, ""), ""); break;
    case 5: r = LLVMBuildNot(b, LLVMBuildXor(b, x, e, ""), ""); break;
    case 6: r = LLVMBuildAnd(b, LLVMBuildNot(b, x, ""), e, ""); break;
    case 7: r = LLVMBuildOr(b, LLVMBuildNot(b, x, ""), e, ""); break;
    case 8: r = LLVMBuildAnd(b, x, LLVMBuildNot(b, e, ""), ""); break;
    default: r = LLVMBuildOr(b, x, LLVMBuildNot(b, e, ""), ""); break;
    }
    if (!wide) r = LLVMBuildAnd(b, r, c64(tr, 0xffffffffu), "");   /* the wave's lanes (rdna3_set_exec) */
    /* the old EXEC into sdst first, as the handler (an sdst of EXEC is then overwritten) */
    if (in->vdst != RDNA3_SRC_NULL && in->vdst < RDNA3_NUM_SGPR_SLOTS - (wide ? 1u : 0u)) {
        if (wide) store_mask(tr, in->vdst, old);
        else store(tr, LLVMBuildTrunc(b, old, tr->i32, ""), tr->w, SGPR_OFF(in->vdst));
    }
    store(tr, LLVMBuildTrunc(b, r, tr->i32, ""), tr->w, SGPR_OFF(RDNA3_SRC_EXEC_LO));
    store(tr, LLVMBuildTrunc(b, LLVMBuildLShr(b, r, c64(tr, 32), ""), tr->i32, ""), tr->w, SGPR_OFF(RDNA3_SRC_EXEC_HI));
    set_scc(tr, LLVMBuildICmp(b, LLVMIntNE, r, c64(tr, 0), ""));
}

/* Emit ti's instruction inline if it is one of the above; false (nothing emitted) otherwise. */
static bool emit_inline(translator *tr, const tr_inst *ti)
{
    const rdna3_inst *in = ti->in;
    unsigned nsrc = 0, op = valu_inline_op(in, &nsrc), fnsrc = 0, fkind = op ? 0 : fp_inline_kind(in, &fnsrc);
    bool valu = op != 0;
    bool cmp = in->fmt == RDNA3_FMT_SOPC && in->op <= 0x0b && plain_scalar_src(in->src[0]) && plain_scalar_src(in->src[1]);
    bool scc_branch = is_sopp(in, 0x21) || is_sopp(in, 0x22);   /* s_cbranch_scc0 / scc1 */
    bool salu = salu_inline_ok(in);
    int vopc = vopc_inline_kind(in);
    bool cndmask = cndmask_inline_ok(in);
    bool vopd = vopd_inline_ok(in);
    bool saveexec = saveexec_inline_ok(tr, in);
    bool with_ci = false;
    int carry = carry_inline_kind(in, &with_ci);
    int wide = wide_inline_kind(in);
    /* a hint (s_nop, s_delay_alu, s_waitcnt...) that may run ahead: counted, nothing to run */
    bool hint = in->hint && in->wave_local;
    if (!valu && !fkind && !cmp && !scc_branch && !salu && !hint && !vopc && !cndmask && !vopd && !saveexec && !carry && !wide) return false;
    pend_issue(tr, in);
    LLVMValueRef next_pc = NULL;
    if (valu) {
        store_vdst(tr, in, valu_expr(tr, in, op, nsrc));
    } else if (fkind) {
        emit_fp(tr, ti, fkind, fnsrc);
    } else if (cmp) {
        scalar_compare(tr, in);
    } else if (salu) {
        emit_salu(tr, in);
    } else if (vopc) {
        emit_vopc(tr, ti, vopc);
    } else if (cndmask) {
        emit_cndmask(tr, in);
    } else if (vopd) {
        emit_vopd(tr, ti);
    } else if (saveexec) {
        emit_saveexec(tr, in);
    } else if (carry) {
        emit_carry(tr, in, carry, with_ci);
    } else if (wide) {
        emit_wide(tr, in, wide);
    } else if (hint) {
        /* the interpreter does not call a hint's handler either */
    } else {
        LLVMValueRef scc = load(tr, tr->i8, tr->w, offsetof(rdna3_wave, scc));
        LLVMValueRef set = LLVMBuildICmp(tr->b, LLVMIntNE, scc, LLVMConstInt(tr->i8, 0, false), "");
        LLVMValueRef taken = in->op == 0x22 ? set : LLVMBuildNot(tr->b, set, "");
        next_pc = LLVMBuildAdd(tr->b, tr->base,
                               LLVMBuildSelect(tr->b, taken, c64(tr, branch_target(ti->pc, in)), c64(tr, ti->pc + in->size), ""),
                               "");
    }
    if (next_pc) tr->pend_pc_val = next_pc;
    else tr->pend_pc_off = ti->pc + in->size;
    tr->inlined++;
    continue_at(tr, ti, next_pc);
    return true;
}

/* An instruction as a call of its interpreter handler (run_turn_and_ahead's loop body), once
 * counted (n: the turn's count before it). */
static void emit_handler_call(translator *tr, const tr_inst *ti, LLVMValueRef n)
{
    const rdna3_inst *in = ti->in;
    store(tr, pc_at(tr, ti->pc), tr->w, offsetof(rdna3_wave, pc));
    store(tr, pc_at(tr, ti->pc + in->size), tr->w, offsetof(rdna3_wave, next_pc));
    /* the interpreter's defer_fault: false for the turn's first instruction, true after it */
    LLVMValueRef later = LLVMBuildICmp(tr->b, LLVMIntNE, n, c32(tr, 0), "");
    store(tr, LLVMBuildZExt(tr->b, later, tr->i8, ""), tr->w, offsetof(rdna3_wave, defer_fault));
    if (!in->hint) call_handler(tr, ti);
    vc_forget(tr);   /* (written back before: emit_call flushed, the memory paths keep none) */
    LLVMValueRef state = load(tr, tr->i32, tr->w, offsetof(rdna3_wave, state));
    LLVMValueRef n1 = LLVMBuildAdd(tr->b, n, c32(tr, 1), "");
    LLVMBasicBlockRef stop = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
    LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
    LLVMBuildCondBr(tr->b, LLVMBuildICmp(tr->b, LLVMIntNE, state, c32(tr, UMB_WARP_RUNNABLE), ""), stop, cont);

    /* left RUNNABLE: a fault keeps the PC on it; a barrier, s_endpgm or a wait retires it */
    LLVMPositionBuilderAtEnd(tr->b, stop);
    LLVMBasicBlockRef retire = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
    LLVMBuildCondBr(tr->b, LLVMBuildICmp(tr->b, LLVMIntEQ, state, c32(tr, UMB_WARP_FAULTED), ""), tr->exit_fault,
                    retire);
    LLVMPositionBuilderAtEnd(tr->b, retire);
    LLVMBuildStore(tr->b, n1, tr->n_slot);
    store(tr, load(tr, tr->i64, tr->w, offsetof(rdna3_wave, next_pc)), tr->w, offsetof(rdna3_wave, pc));
    LLVMBuildBr(tr->b, tr->exit_done);

    LLVMPositionBuilderAtEnd(tr->b, cont);
    LLVMBuildStore(tr->b, n1, tr->n_slot);
    LLVMValueRef next_pc = may_jump(in) ? load(tr, tr->i64, tr->w, offsetof(rdna3_wave, next_pc)) : NULL;
    store(tr, next_pc ? next_pc : pc_at(tr, ti->pc + in->size), tr->w, offsetof(rdna3_wave, pc));
    continue_at(tr, ti, next_pc);
}

/* An instruction by its handler through t->step (wave.c jit_step: counted, run, the turn's count
 * and the PC updated), then the exits emit_handler_call takes. */
static void emit_call(translator *tr, const tr_inst *ti)
{
    LLVMBuilderRef b = tr->b;
    flush(tr);   /* the handler reads the PC, and the turn's count (defer_fault) */
    LLVMValueRef args[5] = { tr->w, tr->st, tr->t, c32(tr, ti->index), c64(tr, ti->pc) };
    LLVMValueRef r = LLVMBuildCall2(b, tr->step_ty, tr->step, args, 5, "");
    vc_forget(tr);   /* (written back by the flush; the handler may write any register, EXEC too) */
    LLVMBasicBlockRef stop = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
    LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, r, c32(tr, RDNA3_JIT_STEP_GO), ""), stop, cont);
    LLVMPositionBuilderAtEnd(b, stop);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, r, c32(tr, RDNA3_JIT_FAULT), ""), tr->exit_fault, tr->exit_done);
    LLVMPositionBuilderAtEnd(b, cont);
    continue_at(tr, ti, may_jump(ti->in) ? load(tr, tr->i64, tr->w, offsetof(rdna3_wave, pc)) : NULL);
}

/* ---- LDS loads and 32-bit stores (exec_mem_ds.c ds_whole_wave) ----
 * ds_load_b32/b64/b96/b128, ds_load_2addr(_stride64)_b32/b64 and ds_store_b32 when the handler's
 * whole-wave path would take them: the alignment mode UNALIGNED, and every active lane's access
 * inside the workgroup's LDS allocation (one block of host memory, rdna3_wg.lds, whatever its
 * size; anything else calls the handler, which also reports faults).
 * Loads gather every lane's dwords before any VGPR is written (an address VGPR may be a
 * destination); the store scatters in lane order (LLVM orders overlapping scatter elements from
 * the first lane up, as the handler's lane loop). The traffic is counted as rdna3_xm_count does. */

typedef struct ds_inline {
    unsigned dwords;   /* per access */
    bool two, store;
    uint32_t off[2];   /* byte offsets of the one or two accesses */
} ds_inline;

static bool ds_inline_of(const rdna3_inst *in, ds_inline *d)
{
    if (in->fmt != RDNA3_FMT_DS || in->gds) return false;
    uint32_t off16 = ((uint32_t)in->offset & 0xffu) | ((uint32_t)in->offset1 << 8), o0 = (uint32_t)in->offset & 0xffu;
    *d = (ds_inline){ 0 };
    switch (in->op) {
    case 0x0d: d->dwords = 1; d->store = true; break;          /* ds_store_b32 */
    case 0x36: d->dwords = 1; break;                           /* ds_load_b32 */
    case 0x76: d->dwords = 2; break;                           /* ds_load_b64 */
    case 0xfe: d->dwords = 3; break;                           /* ds_load_b96 */
    case 0xff: d->dwords = 4; break;                           /* ds_load_b128 */
    case 0x37: case 0x38: d->dwords = 1; d->two = true; break; /* ds_load_2addr(_stride64)_b32 */
    case 0x77: case 0x78: d->dwords = 2; d->two = true; break; /* ds_load_2addr(_stride64)_b64 */
    default: return false;
    }
    if (d->two) {
        uint32_t scale = 4u * d->dwords * ((in->op == 0x38 || in->op == 0x78) ? 64u : 1u);
        d->off[0] = o0 * scale;
        d->off[1] = (uint32_t)in->offset1 * scale;
    } else {
        d->off[0] = off16;
    }
    return true;
}

static LLVMValueRef masked_intrinsic(translator *tr, bool scatter)
{
    char name[48];
    snprintf(name, sizeof name, "llvm.masked.%s.v%ui32.v%up0", scatter ? "scatter" : "gather", tr->wave_size,
             tr->wave_size);
    LLVMValueRef f = LLVMGetNamedFunction(tr->m, name);
    if (f) return f;
    LLVMTypeRef ity = lanes_ty(tr), pty = LLVMVectorType(tr->ptr, tr->wave_size);
    LLVMTypeRef mty = LLVMVectorType(LLVMInt1TypeInContext(tr->ctx), tr->wave_size);
    LLVMTypeRef gargs[4] = { pty, tr->i32, mty, ity }, sargs[4] = { ity, pty, tr->i32, mty };
    LLVMTypeRef ft = scatter ? LLVMFunctionType(LLVMVoidTypeInContext(tr->ctx), sargs, 4, false)
                             : LLVMFunctionType(ity, gargs, 4, false);
    return LLVMAddFunction(tr->m, name, ft);
}

/* llvm.vector.reduce.<op> over the wave's lanes of v (i32 or i64 elements) */
static LLVMValueRef reduce(translator *tr, const char *op, LLVMValueRef v)
{
    LLVMTypeRef vty = LLVMTypeOf(v), ety = LLVMGetElementType(vty);
    char name[64];
    snprintf(name, sizeof name, "llvm.vector.reduce.%s.v%ui%u", op, tr->wave_size, LLVMGetIntTypeWidth(ety));
    LLVMValueRef f = LLVMGetNamedFunction(tr->m, name);
    LLVMTypeRef ft = LLVMFunctionType(ety, &vty, 1, false);
    if (!f) f = LLVMAddFunction(tr->m, name, ft);
    return LLVMBuildCall2(tr->b, ft, f, &v, 1, "");
}

/* true (i1) if every lane of the i1 vector m is true */
static LLVMValueRef reduce_i1_and(translator *tr, LLVMValueRef m)
{
    LLVMTypeRef ity = LLVMIntTypeInContext(tr->ctx, tr->wave_size);
    return LLVMBuildICmp(tr->b, LLVMIntEQ, LLVMBuildBitCast(tr->b, m, ity, ""), LLVMConstAllOnes(ity), "");
}

/* The lanes' byte pointers p0 + a (a: <n x i32> LDS addresses) */
static LLVMValueRef lds_ptrs(translator *tr, LLVMValueRef p0, LLVMValueRef a)
{
    LLVMValueRef idx = LLVMBuildZExt(tr->b, a, LLVMVectorType(tr->i64, tr->wave_size), "");
    return LLVMBuildInBoundsGEP2(tr->b, tr->i8, p0, &idx, 1, "");
}

/* Branch to slow unless v (i1) holds; continue in a new block. */
static void require(translator *tr, LLVMValueRef v, LLVMBasicBlockRef slow)
{
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
    LLVMBuildCondBr(tr->b, v, ok, slow);
    LLVMPositionBuilderAtEnd(tr->b, ok);
}

/* The end of an inline memory instruction (n: the turn's count before it): its traffic as
 * umb_count_mem counts it (lanes accesses of size bytes, a load or a store), the turn's count and
 * PC, the next instruction; then the slow block (where its conditions failed) calls the handler. */
static void finish_inline_mem(translator *tr, const tr_inst *ti, LLVMValueRef n, umb_addr_space space, bool is_store,
                              LLVMValueRef lanes, unsigned size, LLVMBasicBlockRef slow)
{
    LLVMBuilderRef b = tr->b;
    uint64_t t = offsetof(umb_stats, mem) + sizeof(umb_mem_traffic) * space;
    uint64_t cnt = t + (is_store ? offsetof(umb_mem_traffic, stores) : offsetof(umb_mem_traffic, loads));
    uint64_t byt = t + (is_store ? offsetof(umb_mem_traffic, bytes_written) : offsetof(umb_mem_traffic, bytes_read));
    store(tr, LLVMBuildAdd(b, load(tr, tr->i64, tr->st, cnt), lanes, ""), tr->st, cnt);
    store(tr, LLVMBuildAdd(b, load(tr, tr->i64, tr->st, byt), LLVMBuildMul(b, lanes, c64(tr, size), ""), ""), tr->st, byt);
    LLVMValueRef n1 = LLVMBuildAdd(b, n, c32(tr, 1), "");
    LLVMBuildStore(b, n1, tr->n_slot);
    store(tr, pc_at(tr, ti->pc + ti->in->size), tr->w, offsetof(rdna3_wave, pc));
    tr->inlined++;
    continue_at(tr, ti, NULL);
    LLVMPositionBuilderAtEnd(b, slow);
    emit_handler_call(tr, ti, n);
}

static void emit_ds(translator *tr, const tr_inst *ti, const ds_inline *d)
{
    const rdna3_inst *in = ti->in;
    LLVMBuilderRef b = tr->b;
    flush(tr);
    LLVMValueRef n = LLVMBuildLoad2(b, tr->i32, tr->n_slot, "");
    count_issue(tr, in);
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
    unsigned sz = 4u * d->dwords;
    /* the handler's conditions, each a branch to its call */
    LLVMValueRef kernel = load(tr, tr->ptr, tr->w, offsetof(rdna3_wave, kernel));
    require(tr, LLVMBuildIsNotNull(b, kernel, ""), slow);
    LLVMValueRef align = load(tr, tr->i32, kernel, offsetof(rdna3_kernel, alignment_mode));
    require(tr, LLVMBuildICmp(b, LLVMIntEQ, align, c32(tr, AMD_ALIGN_UNALIGNED), ""), slow);
    LLVMValueRef warp = load(tr, tr->ptr, tr->w, offsetof(rdna3_wave, warp));
    require(tr, LLVMBuildIsNotNull(b, warp, ""), slow);
    LLVMValueRef wg = load(tr, tr->ptr, warp, offsetof(umb_warp, wg));
    require(tr, LLVMBuildIsNotNull(b, wg, ""), slow);
    LLVMValueRef g = load(tr, tr->ptr, wg, offsetof(umb_workgroup, isa));
    require(tr, LLVMBuildIsNotNull(b, g, ""), slow);
    LLVMValueRef lds_size = load(tr, tr->i32, g, offsetof(rdna3_wg, lds_size));
    require(tr, LLVMBuildICmp(b, LLVMIntUGE, lds_size, c32(tr, sz), ""), slow);
    LLVMValueRef ex = exec_mask(tr);
    LLVMValueRef last = splat(tr, LLVMBuildSub(b, lds_size, c32(tr, sz), ""));
    LLVMValueRef base = load_row(tr, in->addr), a[2] = { NULL, NULL }, bad = NULL;
    for (unsigned i = 0; i < (d->two ? 2u : 1u); i++) {   /* LDS addresses wrap at 32 bits */
        a[i] = LLVMBuildAdd(b, base, splat(tr, c32(tr, d->off[i])), "");
        LLVMValueRef out = LLVMBuildICmp(b, LLVMIntUGT, a[i], last, "");
        bad = bad ? LLVMBuildOr(b, bad, out, "") : out;
    }
    LLVMValueRef bad_active = LLVMBuildAnd(b, mask_of_lanes(tr, bad), ex, "");
    require(tr, LLVMBuildICmp(b, LLVMIntEQ, bad_active, c64(tr, 0), ""), slow);

    LLVMValueRef p0 = load(tr, tr->ptr, g, offsetof(rdna3_wg, lds));
    LLVMValueRef on = lanes_of_mask(tr, ex);
    LLVMValueRef one = c32(tr, 1);
    if (d->store) {
        LLVMValueRef f = masked_intrinsic(tr, true);
        LLVMValueRef args[4] = { load_row(tr, in->data0), lds_ptrs(tr, p0, a[0]), one, on };
        LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, 4, "");
    } else {
        /* every active lane at one address (a loop over an array in LDS, as in a tiled kernel):
         * one load per dword, the same bytes as the gathers */
        LLVMBasicBlockRef uni_bb = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
        LLVMBasicBlockRef gather_bb = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
        LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
        LLVMValueRef u = reduce(tr, "umax", LLVMBuildSelect(b, on, base, splat(tr, c32(tr, 0)), ""));
        LLVMValueRef su = splat(tr, u);
        LLVMValueRef same = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildSelect(b, on, base, su, ""), su, "");
        LLVMBuildCondBr(b, reduce_i1_and(tr, same), uni_bb, gather_bb);
        LLVMValueRef uni_rows[8], gather_rows[8], rows[8];
        unsigned nrows = 0;
        LLVMPositionBuilderAtEnd(b, uni_bb);
        for (unsigned i = 0; i < (d->two ? 2u : 1u); i++)
            for (unsigned k = 0; k < d->dwords; k++, nrows++) {
                LLVMValueRef idx = LLVMBuildZExt(b, LLVMBuildAdd(b, u, c32(tr, d->off[i] + 4u * k), ""), tr->i64, "");
                LLVMValueRef v = LLVMBuildLoad2(b, tr->i32, LLVMBuildInBoundsGEP2(b, tr->i8, p0, &idx, 1, ""), "");
                LLVMSetAlignment(v, 1);
                uni_rows[nrows] = LLVMBuildSelect(b, on, splat(tr, v), load_row(tr, in->vdst + nrows), "");
            }
        LLVMBuildBr(b, join);
        LLVMPositionBuilderAtEnd(b, gather_bb);
        LLVMValueRef f = masked_intrinsic(tr, false);
        nrows = 0;
        for (unsigned i = 0; i < (d->two ? 2u : 1u); i++)
            for (unsigned k = 0; k < d->dwords; k++, nrows++) {
                LLVMValueRef ak = LLVMBuildAdd(b, a[i], splat(tr, c32(tr, 4u * k)), "");
                LLVMValueRef args[4] = { lds_ptrs(tr, p0, ak), one, on, load_row(tr, in->vdst + nrows) };
                gather_rows[nrows] = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, 4, "");
            }
        LLVMBuildBr(b, join);
        LLVMPositionBuilderAtEnd(b, join);
        for (unsigned r = 0; r < nrows; r++) {
            rows[r] = LLVMBuildPhi(b, lanes_ty(tr), "");
            LLVMValueRef vals[2] = { uni_rows[r], gather_rows[r] };
            LLVMBasicBlockRef from[2] = { uni_bb, gather_bb };
            LLVMAddIncoming(rows[r], vals, from, 2);
        }
        for (unsigned r = 0; r < nrows; r++) {
            LLVMValueRef st = LLVMBuildStore(b, rows[r], vgpr_ptr(tr, in->vdst + r));
            LLVMSetAlignment(st, 64);
        }
    }
    LLVMValueRef lanes = popcount64(tr, ex);
    if (d->two) lanes = LLVMBuildShl(b, lanes, c64(tr, 1), "");
    finish_inline_mem(tr, ti, n, UMB_SPACE_LOCAL, d->store, lanes, sz, slow);
}

/* ---- global loads and 32-bit stores (exec_mem_flat.c exec_global, exec_mem.c rdna3_vm_lanes) ----
 * global_load_b32/b64/b96/b128 and global_store_b32 (GV: vaddr64 + offset; GVS: saddr64 +
 * vaddr32 + offset) in the UNALIGNED alignment mode when every active lane's access lies in one
 * page and the active lanes span at most two consecutive pages, both mapped (t->global_page, or
 * t->global_page_write for the store): the handler's per-lane path takes exactly these through its
 * page cache. Every lane's dwords are gathered before any VGPR is written (the handler computes
 * every address first, so a destination overlapping the address registers changes nothing); the
 * store is a scatter, whose overlapping elements LLVM orders from the first lane up, the handler's
 * lane order (stores of more dwords stay handler calls, as for LDS). Anything else, no lane active
 * included, calls the handler. */

static bool global_inline_ok(const rdna3_inst *in, unsigned *dwords, bool *is_store)
{
    if (in->fmt != RDNA3_FMT_GLOBAL) return false;
    *is_store = in->op == 0x1a;   /* global_store_b32 */
    if (!*is_store && (in->op < 0x14 || in->op > 0x17)) return false;
    *dwords = *is_store ? 1u : in->op - 0x14u + 1u;
    return true;
}

static void emit_global(translator *tr, const tr_inst *ti, unsigned dwords, bool is_store)
{
    const rdna3_inst *in = ti->in;
    LLVMBuilderRef b = tr->b;
    LLVMTypeRef wide = LLVMVectorType(tr->i64, tr->wave_size);
    flush(tr);
    LLVMValueRef n = LLVMBuildLoad2(b, tr->i32, tr->n_slot, "");
    count_issue(tr, in);
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
    unsigned size = 4u * dwords;
    LLVMValueRef kernel = load(tr, tr->ptr, tr->w, offsetof(rdna3_wave, kernel));
    require(tr, LLVMBuildIsNotNull(b, kernel, ""), slow);
    LLVMValueRef align = load(tr, tr->i32, kernel, offsetof(rdna3_kernel, alignment_mode));
    require(tr, LLVMBuildICmp(b, LLVMIntEQ, align, c32(tr, AMD_ALIGN_UNALIGNED), ""), slow);
    LLVMValueRef ex = exec_mask(tr);
    require(tr, LLVMBuildICmp(b, LLVMIntNE, ex, c64(tr, 0), ""), slow);
    uint64_t ioff = (uint64_t)(int64_t)in->offset;
    LLVMValueRef addr;
    if (in->saddr >= RDNA3_SRC_NULL) {   /* GV */
        addr = LLVMBuildAdd(b, load_pair(tr, in->addr), splat(tr, c64(tr, ioff)), "");
    } else {   /* GVS: the SGPR pair's 64-bit base plus the offset, then the lane's 32-bit VGPR */
        unsigned s = in->saddr & 127u;
        LLVMValueRef lo = LLVMBuildZExt(b, load(tr, tr->i32, tr->w, SGPR_OFF(s)), tr->i64, "");
        LLVMValueRef hi = LLVMBuildZExt(b, load(tr, tr->i32, tr->w, SGPR_OFF((s + 1u) & 127u)), tr->i64, "");
        LLVMValueRef base = LLVMBuildAdd(b, LLVMBuildOr(b, lo, LLVMBuildShl(b, hi, c64(tr, 32), ""), ""), c64(tr, ioff), "");
        addr = LLVMBuildAdd(b, splat(tr, base), LLVMBuildZExt(b, load_row(tr, in->addr), wide, ""), "");
    }
    LLVMValueRef on = lanes_of_mask(tr, ex);
    LLVMValueRef in_page = LLVMBuildAnd(b, addr, splat(tr, c64(tr, UMB_PAGE_MASK)), "");
    /* no active lane's access crosses a page end */
    LLVMValueRef cross = LLVMBuildICmp(b, LLVMIntUGT, in_page, splat(tr, c64(tr, UMB_PAGE_SIZE - size)), "");
    require(tr, LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, mask_of_lanes(tr, cross), ex, ""), c64(tr, 0), ""), slow);
    LLVMValueRef amin = reduce(tr, "umin", LLVMBuildSelect(b, on, addr, splat(tr, c64(tr, UINT64_MAX)), ""));
    LLVMValueRef amax = reduce(tr, "umax", LLVMBuildSelect(b, on, addr, splat(tr, c64(tr, 0)), ""));
    LLVMValueRef pg0 = LLVMBuildLShr(b, amin, c64(tr, UMB_PAGE_BITS), ""), pg1 = LLVMBuildLShr(b, amax, c64(tr, UMB_PAGE_BITS), "");
    require(tr, LLVMBuildICmp(b, LLVMIntULE, LLVMBuildSub(b, pg1, pg0, ""), c64(tr, 1), ""), slow);
    LLVMTypeRef pargs[2] = { tr->ptr, tr->i64 };
    LLVMTypeRef pty = LLVMFunctionType(tr->ptr, pargs, 2, false);
    LLVMValueRef pfn = load(tr, tr->ptr, tr->t, is_store ? offsetof(rdna3_jit_turn, global_page_write)
                                                         : offsetof(rdna3_jit_turn, global_page));
    LLVMValueRef a0[2] = { tr->w, amin }, a1[2] = { tr->w, amax };
    LLVMValueRef p0 = LLVMBuildCall2(b, pty, pfn, a0, 2, "");
    require(tr, LLVMBuildIsNotNull(b, p0, ""), slow);
    LLVMValueRef p1 = LLVMBuildCall2(b, pty, pfn, a1, 2, "");   /* the same page when pg1 == pg0 */
    require(tr, LLVMBuildIsNotNull(b, p1, ""), slow);
    /* each lane's host pointer: its page's base + the offset in the page */
    LLVMValueRef b0 = LLVMBuildPtrToInt(b, p0, tr->i64, ""), b1 = LLVMBuildPtrToInt(b, p1, tr->i64, "");
    LLVMValueRef second = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildLShr(b, addr, splat(tr, c64(tr, UMB_PAGE_BITS)), ""), splat(tr, pg0), "");
    LLVMValueRef host = LLVMBuildAdd(b, LLVMBuildSelect(b, second, splat(tr, b1), splat(tr, b0), ""), in_page, "");
    LLVMTypeRef pvty = LLVMVectorType(tr->ptr, tr->wave_size);
    if (is_store) {
        LLVMValueRef sf = masked_intrinsic(tr, true);
        LLVMValueRef args[4] = { load_row(tr, in->data0), LLVMBuildIntToPtr(b, host, pvty, ""), c32(tr, 1), on };
        LLVMBuildCall2(b, LLVMGlobalGetValueType(sf), sf, args, 4, "");
        LLVMValueRef lanes = popcount64(tr, ex);
        finish_inline_mem(tr, ti, n, UMB_SPACE_GLOBAL, true, lanes, size, slow);
        return;
    }
    LLVMValueRef f = masked_intrinsic(tr, false), rows[4];
    for (unsigned k = 0; k < dwords; k++) {
        LLVMValueRef hk = k ? LLVMBuildAdd(b, host, splat(tr, c64(tr, 4u * k)), "") : host;
        LLVMValueRef args[4] = { LLVMBuildIntToPtr(b, hk, pvty, ""), c32(tr, 1), on, load_row(tr, in->vdst + k) };
        rows[k] = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, 4, "");
    }
    for (unsigned k = 0; k < dwords; k++) {
        LLVMValueRef st = LLVMBuildStore(b, rows[k], vgpr_ptr(tr, in->vdst + k));
        LLVMSetAlignment(st, 64);
    }
    LLVMValueRef lanes = popcount64(tr, ex);
    finish_inline_mem(tr, ti, n, UMB_SPACE_GLOBAL, false, lanes, size, slow);
}

/* ---- the function ---- */

static void build_types(translator *tr)
{
    tr->i8 = LLVMInt8TypeInContext(tr->ctx);
    tr->i32 = LLVMInt32TypeInContext(tr->ctx);
    tr->i64 = LLVMInt64TypeInContext(tr->ctx);
    tr->ptr = LLVMPointerTypeInContext(tr->ctx, 0);
    LLVMTypeRef hargs[2] = { tr->ptr, tr->ptr };
    tr->handler_ty = LLVMFunctionType(LLVMVoidTypeInContext(tr->ctx), hargs, 2, false);
    LLVMTypeRef sargs[5] = { tr->ptr, tr->ptr, tr->ptr, tr->i32, tr->i64 };
    tr->step_ty = LLVMFunctionType(tr->i32, sargs, 5, false);
    tr->ctpop_ty = LLVMFunctionType(tr->i64, &tr->i64, 1, false);
    tr->ctpop = LLVMAddFunction(tr->m, "llvm.ctpop.i64", tr->ctpop_ty);
}

/* An exit: the caller gets code (t has the turn's counts). */
static LLVMBasicBlockRef exit_block(translator *tr, uint32_t code)
{
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
    LLVMPositionBuilderAtEnd(tr->b, bb);
    LLVMBuildRet(tr->b, c32(tr, code));
    return bb;
}

/* The instructions at which a turn may start, as wave.c run_turn_and_ahead ends turns: the
 * kernel's entry, every instruction that is not register-only and the one after it, the targets
 * and the next instruction of those that may jump (a turn ends only after one of those, or before
 * or after one that is not register-only), and anything no single instruction falls into (called
 * functions, code reached through computed addresses). A turn that starts anywhere else runs its
 * first instructions in the interpreter (RDNA3_JIT_NOT_ENTERED) until it reaches one of these. */
#define TR_RUN_MAX 64u
static void mark_entries(translator *tr)
{
    for (size_t j = 0; j < tr->ninsts; j++) {
        tr_inst *tj = &tr->insts[j];
        const rdna3_inst *in = tj->in;
        if (!in->wave_local) tj->entry = true;
        tr_inst *k = falls_through(in) ? (tr_inst *)inst_at(tr, tj->pc + in->size) : NULL;
        if (k) {
            if (k->fall_preds < 2) k->fall_preds++;
            if (!in->wave_local || may_jump(in)) k->entry = true;
        }
        tr_inst *t = has_static_target(in) ? (tr_inst *)inst_at(tr, branch_target(tj->pc, in)) : NULL;
        if (t) t->entry = true;
    }
    for (size_t i = 0; i < tr->ninsts; i++)
        if (tr->insts[i].fall_preds != 1 || tr->insts[i].pc == tr->plan->entry) tr->insts[i].entry = true;
    /* runs of at most TR_RUN_MAX instructions (an extra entry costs a flush and nothing else) */
    for (size_t i = 0; i < tr->ninsts; i++) {
        if (!tr->insts[i].entry) continue;
        unsigned len = 1;
        for (const tr_inst *t = &tr->insts[i]; falls_through(t->in);) {
            tr_inst *k = (tr_inst *)inst_at(tr, t->pc + t->in->size);
            if (!k || k->entry) break;
            if (++len > TR_RUN_MAX) {
                k->entry = true;
                len = 1;
            }
            t = k;
        }
    }
}

/* Instruction ti in its block (the builder at it), its counts pending from its run if any. */
static void emit_one(translator *tr, tr_inst *ti)
{
    /* (at an entry nothing is pending: the predecessor flushed before a block a turn enters) */
    LLVMPositionBuilderAtEnd(tr->b, ti->bb);
    if (ti->entry) vc_forget(tr);
    ds_inline d;
    unsigned gdw = 0;
    bool gst = false;
    bool ds = tr->inline_ok && ds_inline_of(ti->in, &d);
    bool global = !ds && tr->inline_ok && global_inline_ok(ti->in, &gdw, &gst);
    if (ds || global) {   /* (entries: nothing cached) their paths load and store rows in blocks of their own */
        tr->vc_mode = VC_OFF;
        if (ds) emit_ds(tr, ti, &d);
        else emit_global(tr, ti, gdw, gst);
        tr->vc_mode = VC_ON;
    } else if (!(tr->inline_ok && emit_inline(tr, ti))) {
        emit_call(tr, ti);
    }
    ti->emitted = true;
}

static void build_function(translator *tr, const char *name)
{
    LLVMTypeRef args[3] = { tr->ptr, tr->ptr, tr->ptr };
    LLVMTypeRef fty = LLVMFunctionType(tr->i32, args, 3, false);
    tr->fn = LLVMAddFunction(tr->m, name, fty);
    tr->w = LLVMGetParam(tr->fn, 0);
    tr->st = LLVMGetParam(tr->fn, 1);
    tr->t = LLVMGetParam(tr->fn, 2);
    /* w, st and t are three distinct objects (a handler reaches st only through a call) */
    unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
    for (unsigned i = 1; i <= 3; i++) LLVMAddAttributeAtIndex(tr->fn, i, LLVMCreateEnumAttribute(tr->ctx, noalias, 0));

    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "entry");
    LLVMPositionBuilderAtEnd(tr->b, entry);
    /* The turn's counters stay in *t (no alloca): as SSA values they became phis with an incoming
     * value per exit edge, which made machine code generation superlinear in the code size. */
    tr->n_slot = field(tr, tr->t, offsetof(rdna3_jit_turn, n));
    tr->ti_slot = field(tr, tr->t, offsetof(rdna3_jit_turn, thread_insts));
    tr->recs = load(tr, tr->ptr, tr->t, offsetof(rdna3_jit_turn, recs));
    tr->base = load(tr, tr->i64, tr->t, offsetof(rdna3_jit_turn, base));
    tr->step = load(tr, tr->ptr, tr->t, offsetof(rdna3_jit_turn, step));
    LLVMValueRef pc = load(tr, tr->i64, tr->w, offsetof(rdna3_wave, pc));
    LLVMBasicBlockRef not_entered = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
    for (size_t i = 0; i < tr->ninsts; i++) tr->insts[i].bb = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
    LLVMValueRef sw = LLVMBuildSwitch(tr->b, offset_of(tr, pc), not_entered, (unsigned)tr->ninsts);
    for (size_t i = 0; i < tr->ninsts; i++)
        if (tr->insts[i].entry) LLVMAddCase(sw, c64(tr, tr->insts[i].pc), tr->insts[i].bb);
    LLVMPositionBuilderAtEnd(tr->b, not_entered);
    LLVMBuildRet(tr->b, c32(tr, RDNA3_JIT_NOT_ENTERED));

    tr->exit_done = exit_block(tr, RDNA3_JIT_DONE);
    tr->exit_fault = exit_block(tr, RDNA3_JIT_FAULT);
    tr->exit_continue = exit_block(tr, RDNA3_JIT_CONTINUE);

    /* a next PC no static successor covers: a register-only instruction of this code, or back */
    tr->dyn_bb = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
    LLVMPositionBuilderAtEnd(tr->b, tr->dyn_bb);
    LLVMValueRef npc = load(tr, tr->i64, tr->w, offsetof(rdna3_wave, pc));
    LLVMValueRef dsw = LLVMBuildSwitch(tr->b, offset_of(tr, npc), tr->exit_continue, (unsigned)tr->ninsts);
    for (size_t i = 0; i < tr->ninsts; i++)
        if (tr->insts[i].in->wave_local && tr->insts[i].entry) LLVMAddCase(dsw, c64(tr, tr->insts[i].pc), tr->insts[i].bb);

    /* the gates of LDS loads: t->lds_quiet(w) decides whether one runs ahead (a call, as the
     * interpreter's; the workgroup's other waves are not visible to translated code) */
    LLVMTypeRef qty = LLVMFunctionType(tr->i32, &tr->ptr, 1, false);
    for (size_t i = 0; i < tr->ninsts; i++) {
        if (!tr->insts[i].in->lds_read || tr->insts[i].in->wave_local) continue;
        tr_inst *ti = &tr->insts[i];
        ti->gate = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
        LLVMPositionBuilderAtEnd(tr->b, ti->gate);
        LLVMValueRef slot = field(tr, tr->t, offsetof(rdna3_jit_turn, quiet));
        LLVMValueRef known = LLVMBuildLoad2(tr->b, tr->i32, slot, "");
        LLVMBasicBlockRef ask = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
        LLVMBasicBlockRef decide = LLVMAppendBasicBlockInContext(tr->ctx, tr->fn, "");
        LLVMBuildCondBr(tr->b, LLVMBuildICmp(tr->b, LLVMIntSLT, known, c32(tr, 0), ""), ask, decide);
        LLVMPositionBuilderAtEnd(tr->b, ask);   /* once per turn: the other waves do not move */
        LLVMValueRef fn = load(tr, tr->ptr, tr->t, offsetof(rdna3_jit_turn, lds_quiet));
        LLVMBuildStore(tr->b, LLVMBuildCall2(tr->b, qty, fn, &tr->w, 1, ""), slot);
        LLVMBuildBr(tr->b, decide);
        LLVMPositionBuilderAtEnd(tr->b, decide);
        LLVMValueRef q = LLVMBuildLoad2(tr->b, tr->i32, slot, "");
        LLVMBuildCondBr(tr->b, LLVMBuildICmp(tr->b, LLVMIntNE, q, c32(tr, 0), ""), ti->bb, tr->exit_done);
    }
    /* a run from each entry, each instruction's block right after its predecessor's (what the
     * predecessor counted is still pending there) */
    for (size_t i = 0; i < tr->ninsts; i++) {
        if (!tr->insts[i].entry) continue;
        for (tr_inst *ti = &tr->insts[i]; ti && !ti->emitted;) {
            emit_one(tr, ti);
            const tr_inst *fall = falls_through(ti->in) ? inst_at(tr, ti->pc + ti->in->size) : NULL;
            ti = fall && !fall->entry ? &tr->insts[fall - tr->insts] : NULL;
        }
    }
    for (size_t i = 0; i < tr->ninsts; i++)   /* (none: every other one has a predecessor run into it) */
        if (!tr->insts[i].emitted) {
            vc_forget(tr);   /* (nothing of another run is visible there) */
            emit_one(tr, &tr->insts[i]);
        }
}

/* The optimisation pipeline: clean-up, and redundant loads of guest registers within a block
 * (early-cse); the handler calls keep every guest register in memory, so heavier pipelines buy
 * little here. GVN and DSE were in it until session 13: without them translation takes 27-45%
 * less CPU (CTS test_geometrics' 45 kernels 1.20-1.24 -> 0.88-0.90 ms an instruction, alu_loop
 * 0.098 -> 0.055 s) and the code runs about as fast (docs/PERFORMANCE.md). */
#define TR_PASSES "function(early-cse,instcombine<no-verify-fixpoint>,simplifycfg)"
/* Above TR_BIG_INSTS instructions, LLVM's optimising code generator (and GVN) take time that grows
 * faster than the code (a kernel of 1073 instructions: 7 s at the default level, 0.7 s without
 * optimisation, measured 2026-11-27), so such a kernel gets the light pipeline and the
 * non-optimising code generator (its code runs about 3x slower than optimised code; still exact).
 * No simplifycfg there: it merges each handler call's two state tests into a switch, which the
 * fast instruction selector cannot select, and a selection DAG per switch took over half of the
 * code generator's time (a 4092-instruction kernel: 2.0 -> 1.1 s, session 15); an unconditional
 * branch to the next block costs nothing (the fast selector leaves out branches to the block laid
 * out next). Splitting big kernels into regions compiled separately is a later phase
 * (docs/TRANSLATOR.md). */
#define TR_BIG_INSTS 400u
#define TR_PASSES_BIG "function(early-cse)"

bool rdna3_jit_generate(const rdna3_jit_plan *plan, unsigned wave_size, bool inline_ok, const char *name,
                        void **obj, size_t *len, uint32_t *inlined, char *err, size_t errlen)
{
    translator tr = { .plan = plan, .wave_size = wave_size == 64 ? 64u : 32u, .inline_ok = inline_ok,
                      .ninsts = plan->n };
    tr.index_of = calloc((size_t)((plan->code_size + 3u) / 4u) + 1u, sizeof *tr.index_of);
    tr.insts = calloc(plan->n ? plan->n : 1, sizeof *tr.insts);
    if (!tr.index_of || !tr.insts) {
        free(tr.index_of);
        free(tr.insts);
        snprintf(err, errlen, "out of host memory for the translator");
        return false;
    }
    for (size_t i = 0; i < plan->n; i++) {
        tr.insts[i] = (tr_inst){ .pc = plan->offsets[i], .in = &plan->recs[i], .index = (uint32_t)i };
        tr.index_of[plan->offsets[i] >> 2] = (uint32_t)i + 1u;
    }
    if (!umb_jit_enter(err, errlen)) {   /* the process is exiting */
        free(tr.index_of);
        free(tr.insts);
        return false;
    }
    bool big = plan->n > TR_BIG_INSTS;
    tr.big = big;
    tr.pend_pc_off = UINT64_MAX;
    mark_entries(&tr);
    tr.ctx = LLVMContextCreate();
    tr.m = LLVMModuleCreateWithNameInContext("rdna3", tr.ctx);
    tr.b = LLVMCreateBuilderInContext(tr.ctx);
    build_types(&tr);
    build_function(&tr, name);
    LLVMDisposeBuilder(tr.b);
    bool ok = umb_jit_compile(tr.m, big ? LLVMCodeGenLevelNone : LLVMCodeGenLevelDefault, big ? TR_PASSES_BIG : TR_PASSES,
                              obj, len, err, errlen);
    LLVMDisposeModule(tr.m);
    LLVMContextDispose(tr.ctx);
    umb_jit_leave();
    free(tr.index_of);
    free(tr.insts);
    if (inlined) *inlined = tr.inlined;
    return ok;
}

#else   /* built without UMBRA_JIT */

#include <stdio.h>
#include <stdlib.h>

bool rdna3_jit_available(void) { return false; }

bool rdna3_jit_discover(rdna3_kernel *k, uint64_t entry_pc, rdna3_jit_plan *p, char *err, size_t errlen)
{
    (void)k, (void)entry_pc;
    *p = (rdna3_jit_plan){ 0 };
    snprintf(err, errlen, "umbra was built without the translator (UMBRA_JIT=OFF: no llvm-19-dev)");
    return false;
}

void rdna3_jit_plan_free(rdna3_jit_plan *p)
{
    free(p->offsets);
    free(p->recs);
    *p = (rdna3_jit_plan){ 0 };
}

bool rdna3_jit_generate(const rdna3_jit_plan *plan, unsigned wave_size, bool inline_ok, const char *name,
                        void **obj, size_t *len, uint32_t *inlined, char *err, size_t errlen)
{
    (void)plan, (void)wave_size, (void)inline_ok, (void)name, (void)inlined;
    *obj = NULL, *len = 0;
    snprintf(err, errlen, "umbra was built without the translator (UMBRA_JIT=OFF: no llvm-19-dev)");
    return false;
}

#endif
