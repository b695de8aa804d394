/* RDNA3 waves: the pre-decoded instruction cache, the step loop, faults and the umb_frontend.
 *
 * The cache holds one rdna3_inst per code dword, in chunks allocated on first use, so code of
 * any size costs memory only where it runs. Each slot is decoded once: the first host thread to
 * claim it (state 0 -> 1) decodes and publishes it (state 2, release); a thread that finds a slot
 * being decoded decodes into its own local copy instead of waiting. Readers need one acquire
 * load per instruction.
 */
#include "core/guest_text.h"
#include "core/slab.h"
#include "isa/rdna3/wave.h"
#include "isa/rdna3/exec_alu.h"
#include "isa/rdna3/exec_mem.h"
#include "isa/rdna3/gws.h"
#include "isa/rdna3/waitcnt.h"
#include "isa/rdna3/translate.h"

#include <fenv.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BITS 10u
#define CHUNK_SLOTS (1u << CHUNK_BITS)

enum { SLOT_EMPTY = 0, SLOT_BUSY = 1, SLOT_READY = 2 };

typedef struct icache_slot {
    _Atomic uint8_t state;
    rdna3_inst inst;
} icache_slot;

typedef struct rdna3_icache {
    /* The launch's waves, from a slab (src/core/slab.h): a wave is 66 KiB, of which a kernel
     * touches a few rows; a new one is zero without being written, and the waves of ended warps
     * are kept for the next warps (returning them to the C heap made the next allocation fault
     * their pages in again). */
    pthread_mutex_t pool_lock;
    umb_slab *pool;
    /* VGPR rows [0, vgpr_rows) bound every row any decoded instruction can write: the rows a
     * pooled wave may have dirtied, and so the rows a reused wave must clear. */
    _Atomic uint32_t vgpr_rows;
    uint64_t base, size;
    size_t nchunks;
    _Atomic(icache_slot *) chunk[];
} rdna3_icache;

/* ---- cache ---- */

umb_status rdna3_kernel_prepare(rdna3_kernel *k)
{
    if (k->icache) return UMB_OK;
    uint64_t slots = (k->code_size + 3u) / 4u;
    size_t nchunks = (size_t)((slots + CHUNK_SLOTS - 1u) / CHUNK_SLOTS);
    rdna3_icache *c = calloc(1, sizeof *c + nchunks * sizeof(c->chunk[0]));
    if (!c) return UMB_ERR_NOMEM;
    c->base = k->code_base;
    c->size = k->code_size;
    c->nchunks = nchunks;
    for (size_t i = 0; i < nchunks; i++) atomic_init(&c->chunk[i], NULL);
    atomic_init(&c->vgpr_rows, 0);
    if (!(c->pool = umb_slab_create(sizeof(rdna3_wave))) || pthread_mutex_init(&c->pool_lock, NULL) != 0) {
        umb_slab_destroy(c->pool);
        free(c);
        return UMB_ERR_NOMEM;
    }
    k->icache = c;
    return UMB_OK;
}

void rdna3_kernel_release(rdna3_kernel *k)
{
    rdna3_icache *c = k->icache;
    if (!c) return;
    for (size_t i = 0; i < c->nchunks; i++) free(atomic_load(&c->chunk[i]));
    umb_slab_destroy(c->pool);
    pthread_mutex_destroy(&c->pool_lock);
    free(c);
    k->icache = NULL;
    free(k->lds_quiet);
    k->lds_quiet = NULL;
}

static icache_slot *slot_for(rdna3_icache *c, uint64_t idx)
{
    _Atomic(icache_slot *) *cp = &c->chunk[idx >> CHUNK_BITS];
    icache_slot *ch = atomic_load_explicit(cp, memory_order_acquire);
    if (!ch) {
        icache_slot *fresh = calloc(CHUNK_SLOTS, sizeof *fresh);
        if (!fresh) return NULL;
        icache_slot *expect = NULL;
        if (atomic_compare_exchange_strong_explicit(cp, &expect, fresh, memory_order_acq_rel, memory_order_acquire)) {
            ch = fresh;
        } else {
            free(fresh);
            ch = expect;
        }
    }
    return &ch[idx & (CHUNK_SLOTS - 1u)];
}

/* Read up to 4 code dwords at pc (fewer at the end of the code or of mapped memory). */
static unsigned read_code(const rdna3_kernel *k, uint64_t pc, uint32_t words[4])
{
    uint64_t left = (k->code_base + k->code_size - pc) / 4u;
    unsigned n = left < 4 ? (unsigned)left : 4u;
    unsigned got = 0;
    while (got < n && umb_mem_read_bytes(k->global, pc + 4u * got, &words[got], 4)) got++;
    return got;
}

/* True for an instruction that reads and writes nothing but this wave's own registers and PC:
 * no memory, no LDS, no barrier, no message, no clock or hardware register (whose values
 * depend on other waves' progress), and no MODE change (the fast loop assumes round to nearest).
 * Such an instruction commutes with every instruction of every other wave, which is what lets
 * fe_round run it ahead of its round-robin turn without changing any result. */
static bool is_wave_local(const rdna3_inst *in)
{
    if (in->exec == rdna3_exec_unsupported) return false;
    switch (in->fmt) {
    case RDNA3_FMT_VOP1: case RDNA3_FMT_VOP2: case RDNA3_FMT_VOPC: case RDNA3_FMT_VOP3:
    case RDNA3_FMT_VOP3SD: case RDNA3_FMT_VOP3P: case RDNA3_FMT_VOPD:
    case RDNA3_FMT_SOP2: case RDNA3_FMT_SOPC:
        return true;
    case RDNA3_FMT_DS:   /* ds_swizzle/permute/bpermute (and ds_nop) read and write VGPRs only */
        return rdna3_ds_class(in) == RDNA3_DS_LANES;
    case RDNA3_FMT_SOP1:
        return in->op != 0x4c && in->op != 0x4d;               /* s_sendmsg_rtn reads a clock */
    case RDNA3_FMT_SOPK:
        return in->op < 0x11 || in->op > 0x13;                  /* s_getreg, s_setreg(_imm32) */
    case RDNA3_FMT_SOPP:
        return rdna3_salu_is_hint(in) || (in->op >= 0x20 && in->op <= 0x2a);   /* hints, branches */
    default:
        return false;
    }
}

static bool decode_at(const rdna3_kernel *k, uint64_t pc, rdna3_inst *out, char *err, size_t errlen)
{
    uint32_t words[4] = {0};
    unsigned n = read_code(k, pc, words);
    if (n == 0) {
        snprintf(err, errlen, "instruction fetch from unmapped address 0x%" PRIx64, pc);
        return false;
    }
    memset(out, 0, sizeof *out);
    char why[160] = "";
    if (!rdna3_decode(words, n, out, why, sizeof why)) {
        snprintf(err, errlen, "invalid instruction encoding %08x%s%s: %s", (unsigned)words[0], n > 1 ? " " : "",
                 n > 1 ? "..." : "", why);
        return false;
    }
    if (!out->exec) out->exec = rdna3_exec_unsupported;
    out->wave_local = is_wave_local(out);
    out->may_jump = rdna3_may_jump(out);
    out->lds_read = out->exec != rdna3_exec_unsupported && rdna3_ds_class(out) == RDNA3_DS_READS;
    out->hint = out->exec != rdna3_exec_unsupported && rdna3_salu_is_hint(out);   /* the fast loop skips its call */
    if (k->host && rdna3_salu_is_sleep(out)) out->hint = out->wave_local = 0;   /* it calls the host (rdna3_host) */
    return true;
}

/* One past the highest VGPR row the instruction can write, with room for its widest operand
 * (a 16-byte load with TFE writes 5 rows; 16 covers every operand). Registers of every VGPR
 * field count, read or written, so that a missed destination form cannot slip through. */
static uint32_t vgpr_reach(const rdna3_inst *in)
{
    switch (rdna3_vop3_op(in)) {
    case 0x1c2: case 0x1c3: case 0x1c4: case 0x1c8: case 0x1e8:
        return RDNA3_NUM_VGPRS;   /* v_movrel*, v_swaprel: M0-relative, any row */
    default:
        break;
    }
    bool scalar_dst = in->fmt == RDNA3_FMT_SOP1 || in->fmt == RDNA3_FMT_SOP2 || in->fmt == RDNA3_FMT_SOPK ||
                      in->fmt == RDNA3_FMT_SOPC || in->fmt == RDNA3_FMT_SOPP || in->fmt == RDNA3_FMT_SMEM;
    uint32_t top = scalar_dst ? 0 : in->vdst;
    uint32_t regs[] = { in->vdsty, in->addr, in->data0, in->data1 };
    for (unsigned i = 0; i < sizeof regs / sizeof regs[0]; i++) top = regs[i] > top ? regs[i] : top;
    const uint16_t srcs[] = { in->src[0], in->src[1], in->src[2], in->srcy[0], in->srcy[1] };
    for (unsigned i = 0; i < sizeof srcs / sizeof srcs[0]; i++)
        if (srcs[i] >= RDNA3_SRC_VGPR0 && (uint32_t)(srcs[i] - RDNA3_SRC_VGPR0) > top) top = (uint32_t)(srcs[i] - RDNA3_SRC_VGPR0);
    if (in->dpp) top = rdna3_dpp_src0(in) > top ? rdna3_dpp_src0(in) : top;
    top = (top & 0xffu) + 16u;
    return top < RDNA3_NUM_VGPRS ? top : RDNA3_NUM_VGPRS;
}

static void note_vgpr_reach(rdna3_icache *c, const rdna3_inst *in)
{
    uint32_t reach = vgpr_reach(in), seen = atomic_load_explicit(&c->vgpr_rows, memory_order_relaxed);
    while (reach > seen &&
           !atomic_compare_exchange_weak_explicit(&c->vgpr_rows, &seen, reach, memory_order_release, memory_order_relaxed)) {
    }
}

static const rdna3_inst *fetch_k(rdna3_kernel *k, uint64_t pc, rdna3_inst *local, char *err, size_t errlen)
{
    rdna3_icache *c = k->icache;
    uint64_t off = pc - k->code_base;
    if (pc < k->code_base || off >= k->code_size || (pc & 3u)) {
        snprintf(err, errlen, "PC 0x%" PRIx64 " is outside the code [0x%" PRIx64 ", 0x%" PRIx64 ")%s", pc,
                 k->code_base, k->code_base + k->code_size, (pc & 3u) ? " or misaligned" : "");
        return NULL;
    }
    icache_slot *s = c ? slot_for(c, off >> 2) : NULL;
    if (s && atomic_load_explicit(&s->state, memory_order_acquire) == SLOT_READY) return &s->inst;
    if (!decode_at(k, pc, local, err, errlen)) return NULL;
    if (c) note_vgpr_reach(c, local);   /* before any wave can run it */
    uint8_t expect = SLOT_EMPTY;
    if (s && atomic_compare_exchange_strong_explicit(&s->state, &expect, SLOT_BUSY, memory_order_acq_rel,
                                                     memory_order_acquire)) {
        s->inst = *local;
        atomic_store_explicit(&s->state, SLOT_READY, memory_order_release);
        return &s->inst;
    }
    return local;
}

const rdna3_inst *rdna3_fetch(rdna3_wave *w, uint64_t pc, rdna3_inst *local, char *err, size_t errlen)
{
    return fetch_k(w->kernel, pc, local, err, errlen);
}

const rdna3_inst *rdna3_kernel_decode(rdna3_kernel *k, uint64_t pc, char *err, size_t errlen)
{
    rdna3_icache *c = k->icache;
    if (!c) {
        snprintf(err, errlen, "no instruction cache");
        return NULL;
    }
    rdna3_inst local;
    const rdna3_inst *in = fetch_k(k, pc, &local, err, errlen);
    if (!in || in != &local) return in;
    /* another thread is publishing the slot: it will be ready in a moment */
    icache_slot *s = slot_for(c, (pc - c->base) >> 2);
    if (!s) {
        snprintf(err, errlen, "out of host memory for the instruction cache");
        return NULL;
    }
    while (atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_READY) sched_yield();
    return &s->inst;
}

/* ---- description and faults ---- */

static void describe_inst(const rdna3_inst *in, uint64_t pc, const rdna3_kernel *k, char *buf, size_t len)
{
    char dis[160];
    rdna3_disasm(in, dis, sizeof dis);
    char enc[48] = "";
    size_t o = 0;
    unsigned nw = in->size / 4u;
    if (nw > 4) nw = 4;
    for (unsigned i = 0; i < nw && o < sizeof enc; i++)
        o += (size_t)snprintf(enc + o, sizeof enc - o, "%s%08x", i ? " " : "", (unsigned)in->raw[i]);
    umb_guest_text_buf name;   /* the kernel's name comes from the guest's metadata */
    snprintf(buf, len, "PC 0x%" PRIx64 " (%s+0x%" PRIx64 "): %s [%s]", pc,
             k && k->name ? umb_guest_text(&name, k->name) : "code", k ? pc - k->code_base : pc, dis, enc);
}

void rdna3_describe(rdna3_kernel *k, uint64_t pc, char *buf, size_t len)
{
    rdna3_inst local;
    char err[200];
    const rdna3_inst *in = fetch_k(k, pc, &local, err, sizeof err);
    if (!in) snprintf(buf, len, "PC 0x%" PRIx64 ": %s", pc, err);
    else describe_inst(in, pc, k, buf, len);
}

static void fault_message(rdna3_wave *w, umb_status st, const char *msg)
{
    if (w->defer_fault) {   /* run ahead of its turn: keep the fault for the turn (fe_round) */
        char *copy = strdup(msg);
        if (copy) {
            w->deferred_status = st;
            w->deferred_msg = copy;
            w->state = UMB_WARP_FAULTED;   /* ends the run-ahead loop, which makes it runnable again */
            return;
        }   /* no memory to keep it: report it now */
    }
    w->state = UMB_WARP_FAULTED;
    if (w->warp) {
        w->warp->pc = w->pc;
        umb_fault_report(w->warp, st, "%s", msg);
    }
}

void rdna3_fault(rdna3_wave *w, const rdna3_inst *in, umb_status st, const char *fmt, ...)
{
    enum { WHERE = UMB_GUEST_TEXT_MAX + 300, DETAIL = 600 };   /* room for the whole message */
    char where[WHERE], detail[DETAIL], msg[WHERE + DETAIL + 32];
    describe_inst(in, w->pc, w->kernel, where, sizeof where);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    snprintf(msg, sizeof msg, "wave%u %s: %s", w->wave_size, where, detail);
    fault_message(w, st, msg);
}

void rdna3_exec_unsupported(rdna3_wave *w, const rdna3_inst *in)
{
    rdna3_fault(w, in, UMB_ERR_UNSUPPORTED, "instruction not supported by umbra");
}

/* ---- the step loop ---- */

/* The decoded instruction at pc if the cache has it (the hot path of every step). */
static inline const rdna3_inst *cached(rdna3_icache *c, uint64_t pc)
{
    if (!c) return NULL;
    uint64_t off = pc - c->base;
    if (off >= c->size || (off & 3u)) return NULL;
    uint64_t idx = off >> 2;
    icache_slot *ch = atomic_load_explicit(&c->chunk[idx >> CHUNK_BITS], memory_order_acquire);
    if (!ch) return NULL;
    icache_slot *s = &ch[idx & (CHUNK_SLOTS - 1u)];
    return atomic_load_explicit(&s->state, memory_order_acquire) == SLOT_READY ? &s->inst : NULL;
}

static void trace_inst(rdna3_wave *w, const rdna3_inst *in)
{
    char d[UMB_GUEST_TEXT_MAX + 300];
    describe_inst(in, w->pc, w->kernel, d, sizeof d);
    if (w->warp && w->warp->wg) {
        const umb_workgroup *wg = w->warp->wg;
        fprintf(w->kernel->trace, "wg(%u,%u,%u) wave %u exec %016" PRIx64 " %s\n", wg->id[0], wg->id[1], wg->id[2],
                w->warp->id, rdna3_exec(w), d);
    } else {
        fprintf(w->kernel->trace, "exec %016" PRIx64 " %s\n", rdna3_exec(w), d);
    }
}

/* MODE.FP_ROUND[1:0] (f32; f64/f16 follow it here) as a host rounding mode. The host's FP
 * environment is per thread; the loop switches it only while a wave with a non-default mode
 * runs and restores it before returning. */
static int host_round(uint32_t mode)
{
    static const int map[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    return map[mode & 3u];
}

/* Statistics of one issued instruction in the step loops: its class now; its active lanes into
 * *thread_insts (the warp and lane-slot sums are added once after the loop). EXEC rarely
 * changes, so its lanes are recounted only when it does. */
static inline void count_issue(umb_stats *st, const rdna3_inst *in, uint64_t exec, uint64_t *counted_exec,
                               uint32_t *active, uint64_t *thread_insts)
{
    if (exec != *counted_exec) {
        *counted_exec = exec;
        *active = umb_popcount64(exec);
    }
    st->by_class[in->insn_class]++;
    *thread_insts += *active;
}

/* Statistics of one instruction issued outside the step loops (a kept fault's turn, the timing
 * model's single steps): all four sums at once. */
static inline void count_single_issue(umb_stats *st, const rdna3_wave *w, const rdna3_inst *in)
{
    if (in) st->by_class[in->insn_class]++;
    st->thread_insts += umb_popcount64(rdna3_exec(w));
    st->warp_insts++;
    st->lane_slots += w->wave_size;
}

/* One more issue of the instruction at pc (only when a per-PC profile is asked for). */
static inline void count_pc(uint64_t *counts, uint64_t code_base, uint64_t pc)
{
    __atomic_fetch_add(&counts[(pc - code_base) >> 2], 1, __ATOMIC_RELAXED);
}

umb_warp_state rdna3_wave_run(rdna3_wave *w, uint64_t max_insts, uint64_t *executed)
{
    int saved_round = FE_TONEAREST;
    uint32_t applied_round = 0;   /* RNE: the host default */
    uint64_t done = 0;
    rdna3_inst local;
    umb_stats *st = w->stats;
    /* Launch constants kept in locals: the handler calls would otherwise force reloads. */
    FILE *trace = w->kernel->trace;
    uint64_t *pc_counts = w->kernel->pc_counts;
    bool hooks = trace || pc_counts;   /* one test per instruction for both */
    rdna3_icache *icache = w->kernel->icache;
    bool check_waitcnt = w->kernel->check_waitcnt;
    uint64_t last_exec = 0, thread_insts = 0;
    uint32_t last_active = 0;
    if (w->state == UMB_WARP_AT_BARRIER) w->state = UMB_WARP_RUNNABLE;   /* the core released it */
    while (done < max_insts && w->state == UMB_WARP_RUNNABLE) {
        char err[256];
        const rdna3_inst *in = cached(icache, w->pc);
        if (__builtin_expect(!in, 0)) in = rdna3_fetch(w, w->pc, &local, err, sizeof err);
        if (__builtin_expect(!in, 0)) {
            char msg[400];
            snprintf(msg, sizeof msg, "wave%u PC 0x%" PRIx64 ": %s", w->wave_size, w->pc, err);
            fault_message(w, UMB_ERR_GUEST_FAULT, msg);
            break;
        }
        if (__builtin_expect(hooks, 0)) {
            if (trace) trace_inst(w, in);
            if (pc_counts) count_pc(pc_counts, w->kernel->code_base, w->pc);
        }
        if (__builtin_expect((w->mode & 3u) != applied_round, 0)) {
            if (!applied_round) saved_round = fegetround();
            applied_round = w->mode & 3u;
            fesetround(host_round(applied_round));
        }
        count_issue(st, in, rdna3_exec(w), &last_exec, &last_active, &thread_insts);
        w->next_pc = w->pc + in->size;
        if (__builtin_expect(check_waitcnt, 0)) {   /* --check-waitcnt (waitcnt.c) */
            rdna3_waitcnt_step(w, in);
            if (w->state == UMB_WARP_FAULTED) {
                done++;   /* counted as issued above */
                break;
            }
        }
        in->exec(w, in);
        done++;
        if (__builtin_expect(w->state == UMB_WARP_FAULTED, 0)) break;
        w->pc = w->next_pc;
    }
    if (applied_round) fesetround(saved_round);
    st->warp_insts += done;
    st->thread_insts += thread_insts;
    st->lane_slots += done * w->wave_size;
    if (w->warp) w->warp->pc = w->pc;
    *executed += done;
    return w->state;
}

/* ---- launch state ---- */

uint32_t rdna3_mode_from_rsrc1(uint32_t rsrc1)
{
    uint32_t m = (rsrc1 >> 12) & 0xffu;           /* FLOAT_ROUND_MODE_32/16_64, FLOAT_DENORM_MODE_32/16_64 */
    if (rsrc1 & (1u << 21)) m |= RDNA3_MODE_DX10_CLAMP_BIT;
    if (rsrc1 & (1u << 23)) m |= RDNA3_MODE_IEEE_BIT;
    return m;
}

static void wave_setup(rdna3_wave *w, rdna3_kernel *k, unsigned wave_size, umb_stats *stats);

void rdna3_wave_reset(rdna3_wave *w, rdna3_kernel *k, unsigned wave_size, umb_stats *stats)
{
    memset(w, 0, sizeof *w);
    wave_setup(w, k, wave_size, stats);
}

/* The launch values of a zeroed wave. */
static void wave_setup(rdna3_wave *w, rdna3_kernel *k, unsigned wave_size, umb_stats *stats)
{
    w->wave_size = wave_size == 64 ? 64u : 32u;
    w->lane_mask = w->wave_size == 64 ? ~0ull : 0xffffffffull;
    w->kernel = k;
    w->stats = stats;
    w->state = UMB_WARP_RUNNABLE;
    /* LLVM's default for compute kernels: denormals kept, round to nearest even, IEEE, DX10 clamp. */
    w->mode = 0xf0u | RDNA3_MODE_DX10_CLAMP_BIT | RDNA3_MODE_IEEE_BIT;
}

/* ---- umb_frontend ---- */

static void fe_wg_fini(void *kernel, umb_workgroup *wg)
{
    (void)kernel;
    rdna3_wg_destroy(wg->isa);
    wg->isa = NULL;
}

rdna3_wg *rdna3_wg_create(umb_mem *local, uint32_t lds_size)
{
    rdna3_wg *g = malloc(sizeof *g);
    if (!g) return NULL;
    size_t bytes = ((size_t)lds_size + UMB_PAGE_SIZE - 1u) & ~(size_t)UMB_PAGE_MASK;
    *g = (rdna3_wg){ .lds_size = lds_size, .local = local, .lds_bytes = bytes };
    if (!bytes) return g;
    g->lds = aligned_alloc(UMB_PAGE_SIZE, bytes);
    if (!g->lds || !umb_mem_map_host_range(local, 0, g->lds, bytes)) {
        free(g->lds);
        free(g);
        return NULL;
    }
    memset(g->lds, 0, bytes);   /* LDS starts zeroed (deterministic runs; the hardware's is undefined) */
    return g;
}

void rdna3_wg_destroy(rdna3_wg *g)
{
    if (!g) return;
    if (g->lds) {   /* (the local memory keeps no pointer into freed storage) */
        umb_mem_unmap_range(g->local, 0, g->lds_bytes);
        free(g->lds);
    }
    free(g);
}

static umb_status fe_wg_init(void *kernel, umb_workgroup *wg)
{
    rdna3_kernel *k = kernel;
    if (!k->icache) {
        /* Normally done by the runtime before the launch; create it here once, race-free. */
        rdna3_kernel tmp = *k;
        tmp.icache = NULL;
        if (rdna3_kernel_prepare(&tmp) != UMB_OK) return UMB_ERR_NOMEM;
        void *expect = NULL;
        if (!__atomic_compare_exchange_n(&k->icache, &expect, tmp.icache, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            rdna3_kernel_release(&tmp);
    }
    /* LDS lives in the core's local memory of the host thread, empty at this point; creating a
     * memory per workgroup cost a 64 KiB radix root each. */
    wg->isa = wg->local ? rdna3_wg_create(wg->local, k->lds_size) : NULL;
    return wg->isa ? UMB_OK : UMB_ERR_NOMEM;
}

/* A zeroed wave: a new one from the launch's slab (zero as mapped), or a reused one, clearing only
 * the VGPR rows its earlier warps can have written (zeroing the whole 64 KiB file was a fifth of a
 * short kernel's time). */
static rdna3_wave *wave_alloc(rdna3_icache *c)
{
    bool fresh = false;
    pthread_mutex_lock(&c->pool_lock);
    rdna3_wave *w = umb_slab_alloc(c->pool, &fresh);
    pthread_mutex_unlock(&c->pool_lock);
    if (!w || fresh) return w;
    uint32_t rows = atomic_load_explicit(&c->vgpr_rows, memory_order_acquire);
    memset(w, 0, offsetof(rdna3_wave, vgpr) + (size_t)rows * RDNA3_MAX_LANES * sizeof w->vgpr[0]);
    return w;
}

static void wave_free(rdna3_icache *c, rdna3_wave *w)
{
    pthread_mutex_lock(&c->pool_lock);
    umb_slab_free(c->pool, w);
    pthread_mutex_unlock(&c->pool_lock);
}

static umb_status fe_warp_init(void *kernel, umb_warp *warp)
{
    rdna3_kernel *k = kernel;
    rdna3_wave *w = wave_alloc(k->icache);
    if (!w) return UMB_ERR_NOMEM;
    wave_setup(w, k, warp->width, warp->wg->stats);
    w->warp = warp;
    w->pc = k->code_base;
    if (k->init_wave) {
        umb_status st = k->init_wave(k, warp->wg, warp, w);
        if (st != UMB_OK) {
            rdna3_waitcnt_free(w);
            wave_free(k->icache, w);
            return st;
        }
    }
    warp->isa = w;
    warp->pc = w->pc;
    return UMB_OK;
}

static void fe_warp_fini(void *kernel, umb_warp *warp)
{
    rdna3_kernel *k = kernel;
    rdna3_wave *w = warp->isa;
    if (!w) return;
    rdna3_waitcnt_free(w);
    free(w->deferred_msg);   /* a fault whose turn never came: another wave's fault came first */
    w->deferred_msg = NULL;
    wave_free(k->icache, w);
    warp->isa = NULL;
}

static umb_warp_state fe_step(void *kernel, umb_warp *warp, uint32_t max_insts, uint64_t *executed)
{
    (void)kernel;
    rdna3_wave *w = warp->isa;
    w->stats = warp->wg->stats;   /* the host thread running the workgroup may change */
    if (warp->state == UMB_WARP_RUNNABLE && w->state == UMB_WARP_AT_BARRIER) w->state = UMB_WARP_RUNNABLE;
    return rdna3_wave_run(w, max_insts, executed);
}

/* umb_frontend.timing_step: the timing model issues one instruction at a time, so the step loop's
 * set-up (trace, profile, waitcnt checking and rounding mode kept in locals) costs as much as the
 * loop itself; the common case runs the cached instruction directly, everything else takes
 * fe_step. Same statistics, PC and state as fe_step(kernel, warp, 1, executed). */
_Static_assert(offsetof(rdna3_wave, defer_fault) < 64, "the wave's hot fields in its first cache line");

static umb_warp_state fe_timing_step(void *kernel, umb_warp *warp, uint64_t *executed)
{
    rdna3_wave *w = warp->isa;
    const rdna3_kernel *k = w->kernel;
    const rdna3_inst *in = cached(k->icache, w->pc);
    if (!in || k->trace || k->pc_counts || k->check_waitcnt || (w->mode & 3u) || warp->state != UMB_WARP_RUNNABLE ||
        (w->state != UMB_WARP_RUNNABLE && w->state != UMB_WARP_AT_BARRIER))
        return fe_step(kernel, warp, 1, executed);
    umb_stats *st = w->stats;   /* the timing model's: a workgroup never changes host thread */
    w->state = UMB_WARP_RUNNABLE;   /* released from a barrier by the timing model */
    count_single_issue(st, w, in);
    w->next_pc = w->pc + in->size;
    in->exec(w, in);
    if (__builtin_expect(w->state != UMB_WARP_FAULTED, 1)) w->pc = w->next_pc;
    warp->pc = w->pc;
    *executed += 1;
    return w->state;
}

/* The instruction at pc for a turn when the cache does not have it yet: decoded now (NULL if it
 * cannot be: the turn ends there, and the step loop reports it at the next turn). Decoding on
 * the spot instead of ending the turn makes where turns end depend only on the wave's own
 * instructions, not on which host thread decoded what first: the same turns in every run, and in
 * the translated rounds, which decode all their code up front. */
static __attribute__((noinline)) const rdna3_inst *decode_for_turn(rdna3_kernel *k, uint64_t pc, rdna3_inst *local)
{
    char err[256];
    return fetch_k(k, pc, local, err, sizeof err);
}

bool rdna3_lds_quiet(const rdna3_wave *w)
{
    const rdna3_kernel *k = w->kernel;
    if (!k || !k->lds_quiet || k->alignment_mode != AMD_ALIGN_UNALIGNED || !w->warp || !w->warp->wg) return false;
    const umb_workgroup *wg = w->warp->wg;
    for (const umb_warp *uw = wg->warps, *end = uw + wg->nwarps; uw != end; uw++) {
        if (uw == w->warp || uw->state == UMB_WARP_EXITED) continue;
        uint64_t off = ((const rdna3_wave *)uw->isa)->pc - k->code_base;
        if (off >= k->code_size || !k->lds_quiet[off >> 2]) return false;
    }
    return true;
}

/* The page of global memory holding addr, for translated loads (translate.c emit_global_load) */
static const uint8_t *global_page(const rdna3_wave *w, uint64_t addr)
{
    return umb_mem_page_for_read(w->kernel->global, addr);
}

static uint8_t *global_page_write(const rdna3_wave *w, uint64_t addr)
{
    return umb_mem_page_for_write(w->kernel->global, addr);
}

/* rdna3_lds_quiet for translated code (an int return: no ABI question of bool across LLVM) */
static int lds_quiet_int(const rdna3_wave *w) { return rdna3_lds_quiet(w); }

/* rdna3_jit_turn.step: an instruction translated code runs by its handler, as the loop below runs
 * it (one call instead of the twenty-odd IR instructions it took inline: a big kernel's code
 * generation is mostly these). The translated code has flushed its counts into t. */
static uint32_t jit_step(rdna3_wave *w, umb_stats *st, rdna3_jit_turn *t, uint32_t index, uint64_t off)
{
    const rdna3_inst *in = &t->recs[index];
    const uint64_t pc = t->base + off;
    w->pc = pc;
    w->next_pc = pc + in->size;
    w->defer_fault = t->n != 0;   /* the turn's first instruction reports its fault now */
    st->by_class[in->insn_class]++;
    t->thread_insts += umb_popcount64(rdna3_exec(w));
    if (!in->hint) in->exec(w, in);
    if (w->state == UMB_WARP_FAULTED) return RDNA3_JIT_FAULT;   /* the PC stays on it (not in t->n) */
    t->n++;
    w->pc = w->next_pc;   /* (only a handler that may jump sets next_pc: rdna3_may_jump) */
    /* a barrier, s_endpgm or a wait retired it and ends the turn */
    return w->state == UMB_WARP_RUNNABLE ? RDNA3_JIT_STEP_GO : RDNA3_JIT_DONE;
}

/* How far a wave runs ahead in one turn: once it has run more than RUN_AHEAD_MAX instructions,
 * the turn ends after the next one that may jump (rdna3_may_jump). That bounds the work of a
 * round (and so how late the instruction budget is checked) when a wave loops on its registers
 * only, while a straight run of register-only code is never cut in the middle: translated code
 * (translate.c) then enters only at a few points and counts a run's instructions once. Where a
 * run-ahead stops changes no result (see round_robin). */
#define RUN_AHEAD_MAX 64u

/* Run in, then the wave-local instructions after it, up to RUN_AHEAD_MAX: the wave's turn and,
 * ahead of time, the turns in which quantum-1 round robin would run those instructions. The
 * cache geometry and the counters live in locals (registers) across the handler calls.
 * Always inlined: fe_round calls it with pc_counts NULL (the loop without profiling code) or not. */
static inline __attribute__((always_inline)) uint32_t run_turn_and_ahead(rdna3_wave *w, rdna3_icache *c,
                                                                         const rdna3_inst *in, umb_stats *st,
                                                                         uint64_t *pc_counts, const rdna3_jit_code *jit)
{
    const uint64_t base = c->base, size = c->size;
    uint64_t counted_exec = rdna3_exec(w), thread_insts = 0;
    uint32_t n = 0, active = umb_popcount64(counted_exec);
    rdna3_inst local;   /* an instruction another host thread is decoding (decode_for_turn) */
    int32_t quiet = -1;   /* rdna3_lds_quiet for this turn, once asked (nobody else moves meanwhile) */
    w->defer_fault = false;   /* the first instruction is this turn's, the others run ahead */
    for (;;) {
        if (jit) {   /* the translated round (rdna3_frontend_jit): translated code runs what it has */
            rdna3_jit_turn t = { .thread_insts = thread_insts, .n = n, .recs = jit->recs, .base = base,
                                 .lds_quiet = lds_quiet_int, .quiet = quiet, .global_page = global_page,
                                 .global_page_write = global_page_write, .step = jit_step };
            uint32_t r = jit->fn(w, st, &t);
            if (r != RDNA3_JIT_NOT_ENTERED) {
                thread_insts = t.thread_insts;
                n = t.n;
                quiet = t.quiet;
                if (r == RDNA3_JIT_DONE) break;
                if (__builtin_expect(r == RDNA3_JIT_FAULT, 0)) {   /* as below: reported now or at its turn */
                    if (!w->deferred_msg) {
                        n++;
                        break;
                    }
                    w->state = UMB_WARP_RUNNABLE;
                    st->by_class[cached(c, w->pc)->insn_class]--;
                    thread_insts -= umb_popcount64(rdna3_exec(w));
                    break;
                }
                goto next;   /* RDNA3_JIT_CONTINUE: the turn goes on at w->pc */
            }
        }
        count_issue(st, in, rdna3_exec(w), &counted_exec, &active, &thread_insts);
        if (pc_counts) count_pc(pc_counts, base, w->pc);
        w->next_pc = w->pc + in->size;
        if (!in->hint) in->exec(w, in);   /* (this loop never runs with waitcnt checking) */
        if (__builtin_expect(w->state == UMB_WARP_FAULTED, 0)) {   /* the PC stays on it */
            if (!w->deferred_msg) {
                n++;
                break;
            }
            /* Run ahead: handlers fault before they write anything, so the wave is as it will be
             * at the instruction's turn; it is counted, and its fault reported, then. */
            w->state = UMB_WARP_RUNNABLE;
            st->by_class[in->insn_class]--;
            thread_insts -= active;
            if (pc_counts) __atomic_fetch_sub(&pc_counts[(w->pc - base) >> 2], 1, __ATOMIC_RELAXED);
            break;
        }
        n++;
        w->defer_fault = true;
        w->pc = w->next_pc;
        if (w->state != UMB_WARP_RUNNABLE || (n > RUN_AHEAD_MAX && in->may_jump)) break;
    next:;
        uint64_t off = w->pc - base;
        if (off >= size || (off & 3u)) break;
        const icache_slot *ch = atomic_load_explicit(&c->chunk[off >> (2u + CHUNK_BITS)], memory_order_acquire);
        const icache_slot *slot = ch ? &ch[(off >> 2) & (CHUNK_SLOTS - 1u)] : NULL;
        if (__builtin_expect(slot && atomic_load_explicit(&slot->state, memory_order_acquire) == SLOT_READY, 1))
            in = &slot->inst;
        else if (!(in = decode_for_turn(w->kernel, w->pc, &local)))
            break;
        if (w->mode & 3u) break;
        if (!in->wave_local) {
            if (!in->lds_read) break;
            if (quiet < 0) quiet = rdna3_lds_quiet(w);
            if (!quiet) break;
        }
    }
    w->defer_fault = false;
    st->warp_insts += n;
    st->thread_insts += thread_insts;
    st->lane_slots += (uint64_t)n * w->wave_size;
    w->ahead = n - 1u;
    return n;
}

/* The turn of an instruction whose fault was kept (run_turn_and_ahead): it issues now, as in
 * plain round robin, and its fault is reported. Returns the instructions issued (1). */
static uint32_t report_deferred_fault(rdna3_wave *w, rdna3_icache *c, umb_stats *st)
{
    const rdna3_inst *in = cached(c, w->pc);   /* it ran from the cache */
    count_single_issue(st, w, in);
    if (w->kernel->pc_counts) count_pc(w->kernel->pc_counts, c->base, w->pc);
    fault_message(w, w->deferred_status, w->deferred_msg);
    free(w->deferred_msg);
    w->deferred_msg = NULL;
    return 1;
}

/* When every runnable wave is ahead by at least m turns, the next m rounds would run nothing:
 * let them pass at once (a barrier cannot complete meanwhile, as those waves are runnable). */
static void pass_rounds_of_waves_ahead(umb_workgroup *wg)
{
    uint32_t m = UINT32_MAX;
    umb_warp *end = wg->warps + wg->nwarps;
    for (umb_warp *uw = wg->warps; uw != end && m; uw++)
        if (uw->state == UMB_WARP_RUNNABLE) {
            uint32_t a = ((const rdna3_wave *)uw->isa)->ahead;
            m = a < m ? a : m;
        }
    if (m == 0 || m == UINT32_MAX) return;
    for (umb_warp *uw = wg->warps; uw != end; uw++)
        if (uw->state == UMB_WARP_RUNNABLE) ((rdna3_wave *)uw->isa)->ahead -= m;
}

/* One round robin pass over the workgroup's waves (umb_frontend.round), quantum 1: each
 * runnable wave gets one turn, in which it runs one instruction.
 *
 * With no trace, no waitcnt checking and the default rounding mode, a wave whose turn comes
 * also runs the wave-local instructions that follow (see is_wave_local), and then lets the
 * turns pass in which round robin would have run them (w->ahead). Memory, LDS, barrier and
 * message instructions therefore run in exactly the round and order that plain quantum-1
 * round robin gives them, and as the skipped instructions touch only the wave's own registers,
 * every result is the same; what is saved is the per-turn overhead of every register-only
 * instruction, and rounds in which every wave is ahead pass at once. A run-ahead instruction
 * that faults is reported at its own turn, so even which fault stops a launch is as in plain
 * round robin (report_deferred_fault). Anything else
 * takes the general step loop, one instruction per turn; a traced run therefore shows the
 * plain round-robin order, and tests/rdna3/kernels/cli_test.py "schedule" checks that both
 * give the same bytes for a kernel whose results depend on the interleaving. */
static inline __attribute__((always_inline)) uint64_t round_robin(void *kernel, umb_workgroup *wg, uint32_t quantum,
                                                                  uint32_t count[UMB_WARP_STATES], const rdna3_jit_code *jit)
{
    rdna3_kernel *k = kernel;
    rdna3_inst local;   /* an instruction another host thread is decoding (decode_for_turn) */
    rdna3_icache *c = k->icache;
    umb_stats *st = wg->stats;
    bool fast = quantum == 1 && !k->trace && !k->check_waitcnt;
    uint64_t done = 0;
    if (fast) pass_rounds_of_waves_ahead(wg);
    for (umb_warp *uw = wg->warps, *end = uw + wg->nwarps; uw != end; uw++) {
        if (uw->state != UMB_WARP_RUNNABLE) {
            count[uw->state]++;
            continue;
        }
        rdna3_wave *w = uw->isa;
        if (w->ahead) {   /* this turn's instruction ran in an earlier turn */
            w->ahead--;
            count[UMB_WARP_RUNNABLE]++;
            continue;
        }
        w->stats = st;
        if (w->state == UMB_WARP_AT_BARRIER) w->state = UMB_WARP_RUNNABLE;   /* released by the core */
        bool turn = fast && !(w->mode & 3u);
        const rdna3_inst *in = turn ? cached(c, w->pc) : NULL;
        if (__builtin_expect(w->deferred_msg != NULL, 0)) {
            done += report_deferred_fault(w, c, st);
        } else if (__builtin_expect(in != NULL, 1) || (turn && (in = decode_for_turn(k, w->pc, &local)))) {
            if (jit) done += run_turn_and_ahead(w, c, in, st, NULL, jit);   /* (no jit with pc_counts) */
            else done += k->pc_counts ? run_turn_and_ahead(w, c, in, st, k->pc_counts, NULL)
                                      : run_turn_and_ahead(w, c, in, st, NULL, NULL);
        } else {
            uint64_t n = 0;
            rdna3_wave_run(w, quantum, &n);
            done += n;
        }
        uw->pc = w->pc;
        uw->state = w->state;
        count[uw->state]++;
        if (uw->state == UMB_WARP_FAULTED) break;
    }
    return done;
}

static uint64_t fe_round(void *kernel, umb_workgroup *wg, uint32_t quantum, uint32_t count[UMB_WARP_STATES])
{
    return round_robin(kernel, wg, quantum, count, NULL);
}

/* The translated rounds: the same round robin, with each turn run by the launch's translated code
 * (rdna3_kernel.jit, translate.c) where it has the instruction. */
static uint64_t fe_round_jit(void *kernel, umb_workgroup *wg, uint32_t quantum, uint32_t count[UMB_WARP_STATES])
{
    rdna3_kernel *k = kernel;
    /* a translation made in the background is used from the first round after it is published */
    _Atomic(const rdna3_jit_code *) *slot = atomic_load_explicit(&k->jit, memory_order_acquire);
    const rdna3_jit_code *jit = slot ? atomic_load_explicit(slot, memory_order_acquire) : NULL;
    if (jit) return round_robin(kernel, wg, quantum, count, jit);
    uint64_t done = round_robin(kernel, wg, quantum, count, NULL);
    rdna3_jit_trigger *t = k->jit_trigger;
    if (t && !slot && atomic_fetch_add_explicit(&t->work, done, memory_order_relaxed) + done >= t->threshold &&
        !atomic_exchange_explicit(&t->fired, 1, memory_order_acq_rel))
        t->fire(t, k);
    return done;
}

static void fe_describe_pc(void *kernel, const umb_warp *warp, char *buf, size_t len)
{
    rdna3_describe(kernel, warp->pc, buf, len);
}

/* A wave waiting at a GWS barrier or semaphore (exec_gws.c). */
static bool fe_wait_poll(void *kernel, umb_warp *warp)
{
    (void)kernel;
    return rdna3_gws_poll(warp->isa);
}

static void fe_wait_describe(void *kernel, const umb_warp *warp, char *buf, size_t len)
{
    (void)kernel;
    rdna3_gws_describe(warp->isa, buf, len);
}

/* umb_frontend.state_*: what decides a wave's next instructions, for the proof of "no forward
 * progress" (src/core/sched.c): PC, SCC, MODE, TRAPSTS, the SGPRs (EXEC, VCC and M0 among them)
 * and the VGPR file. */
typedef struct wave_scalars {
    uint64_t pc;
    uint32_t mode, trapsts, scc;
} wave_scalars;

static size_t fe_state_size(void *kernel)
{
    (void)kernel;
    return sizeof(wave_scalars) + sizeof(((rdna3_wave *)0)->sgpr) + sizeof(((rdna3_wave *)0)->vgpr);
}

static wave_scalars scalars_of(const rdna3_wave *w)
{
    wave_scalars sc;
    memset(&sc, 0, sizeof sc);   /* no padding bytes of a stale value in the comparison */
    sc.pc = w->pc;
    sc.mode = w->mode;
    sc.trapsts = w->trapsts;
    sc.scc = w->scc;
    return sc;
}

static bool fe_state_save(void *kernel, const umb_warp *warp, void *buf)
{
    (void)kernel;
    const rdna3_wave *w = warp->isa;
    if (w->deferred_msg) return false;   /* a fault waits for its turn */
    wave_scalars sc = scalars_of(w);
    uint8_t *p = buf;
    memcpy(p, &sc, sizeof sc);
    memcpy(p + sizeof sc, w->sgpr, sizeof w->sgpr);
    memcpy(p + sizeof sc + sizeof w->sgpr, w->vgpr, sizeof w->vgpr);
    return true;
}

static bool fe_state_same(void *kernel, const umb_warp *warp, const void *buf)
{
    (void)kernel;
    const rdna3_wave *w = warp->isa;
    wave_scalars sc = scalars_of(w);
    const uint8_t *p = buf;
    return !w->deferred_msg && !memcmp(p, &sc, sizeof sc) && !memcmp(p + sizeof sc, w->sgpr, sizeof w->sgpr) &&
           !memcmp(p + sizeof sc + sizeof w->sgpr, w->vgpr, sizeof w->vgpr);
}

#define RDNA3_FRONTEND_HOOKS \
    .name = "rdna3", \
    .barrier_counts_exited = true, \
    .wg_init = fe_wg_init, \
    .wg_fini = fe_wg_fini, \
    .warp_init = fe_warp_init, \
    .warp_fini = fe_warp_fini, \
    .step = fe_step, \
    .wait_poll = fe_wait_poll, \
    .wait_describe = fe_wait_describe, \
    .describe_pc = fe_describe_pc, \
    /* timing mode (src/isa/rdna3/timing.c) */ \
    .timing_pc = rdna3_timing_pc, \
    .timing_static = rdna3_timing_static, \
    .timing_dynamic = rdna3_timing_dynamic, \
    .timing_step = fe_timing_step, \
    .timing_prefetch = rdna3_timing_prefetch, \
    .state_size = fe_state_size, \
    .state_save = fe_state_save, \
    .state_same = fe_state_same,

const umb_frontend rdna3_frontend = {
    RDNA3_FRONTEND_HOOKS
    .round = fe_round,
};

/* The same front end with translated turns (docs/TRANSLATOR.md), for launches that have
 * rdna3_kernel.jit and no trace, profile, waitcnt checking or timing model. */
const umb_frontend rdna3_frontend_jit = {
    RDNA3_FRONTEND_HOOKS
    .round = fe_round_jit,
};
