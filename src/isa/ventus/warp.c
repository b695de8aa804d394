/* Ventus front end for the core: workgroup and warp launch state (spec §4), the step loop over
 * the pre-decoded cache, fault reports, and umb_ventus_run. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "isa/ventus/ventus_isa.h"

/* ---- faults ---- */

void vt_fault(vt_warp *w, const vt_insn *in, umb_status st, int lane, uint64_t addr,
              const char *fmt, ...)
{
    char what[512], dis[160], where[96] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (in->fetch_fault) snprintf(dis, sizeof dis, "(no instruction)");
    else {
        char t[120];
        vt_disasm_llvm(in, t, sizeof t);
        for (char *c = t; *c; c++) if (*c == '\t') *c = ' ';
        snprintf(dis, sizeof dis, "0x%08x %s", in->bits, t);
    }
    if (lane >= 0) snprintf(where, sizeof where, " (lane %d, address 0x%08" PRIx64 ")", lane, addr);
    w->uw->pc = in->pc;
    umb_fault_report(w->uw, st, "PC 0x%08x: %s: %s%s", in->pc, dis, what, where);
    w->stop = UMB_WARP_FAULTED;
}

void vt_illegal(vt_warp *w, const vt_insn *in)
{
    vt_fault(w, in, UMB_ERR_GUEST_FAULT, -1, 0, "illegal instruction");
}

void vt_unsupported(vt_warp *w, const vt_insn *in)
{
    const char *nm = in->op < VT_OP_COUNT ? vt_insn_table[in->op].name : "?";
    vt_fault(w, in, UMB_ERR_UNSUPPORTED, -1, 0, "%s is not supported by umbra", nm);
}

/* ---- memory ---- */

/* Remember the host page of addr when it has storage of its own. */
static void pcache_fill(vt_warp *w, umb_mem *m, uint32_t addr, bool for_write)
{
    uint8_t *p = for_write ? umb_mem_page_for_write(m, addr) : (uint8_t *)umb_mem_page_for_read(m, addr);
    if (!p || p == umb_zero_page) return;
    uint32_t pn = addr >> 12, e = pn & (VT_PCACHE - 1u);
    w->pcache_tag[e] = pn;
    w->pcache_host[e] = p;
}

bool vt_load_slow(vt_warp *w, const vt_insn *in, int lane, uint32_t addr, unsigned size, uint32_t *out)
{
    if (addr & (size - 1)) {
        vt_fault(w, in, UMB_ERR_GUEST_FAULT, lane < 0 ? 0 : lane, addr,
                 "misaligned %u-byte load", size);
        return false;
    }
    uint32_t v = 0;
    umb_mem *m = vt_mem_for(w, addr);
    if (!umb_mem_load(m, addr, &v, size)) {
        vt_fault(w, in, UMB_ERR_GUEST_FAULT, lane < 0 ? 0 : lane, addr,
                 "load from unmapped address 0x%08x", addr);
        return false;
    }
    pcache_fill(w, m, addr, false);
    *out = v;
    return true;
}

bool vt_store_slow(vt_warp *w, const vt_insn *in, int lane, uint32_t addr, unsigned size, uint32_t val)
{
    if (addr & (size - 1)) {
        vt_fault(w, in, UMB_ERR_GUEST_FAULT, lane < 0 ? 0 : lane, addr,
                 "misaligned %u-byte store", size);
        return false;
    }
    umb_mem *m = vt_mem_for(w, addr);
    if (!umb_mem_store(m, addr, &val, size)) {
        vt_fault(w, in, UMB_ERR_GUEST_FAULT, lane < 0 ? 0 : lane, addr,
                 "store to unmapped address 0x%08x", addr);
        return false;
    }
    pcache_fill(w, m, addr, false);   /* the store gave the page storage of its own */
    return true;
}

/* ---- the umb_frontend ---- */

static umb_status vt_wg_init(void *kernel, umb_workgroup *wg)
{
    vt_kernel *k = kernel;
    (void)k;
    wg->isa = NULL;
    if (!wg->local) {
        wg->local = umb_mem_create();
        if (!wg->local) return UMB_ERR_NOMEM;
        wg->isa = wg->local;   /* we own it */
    }
    /* The whole local window is addressable (pocl places __local arguments at its top);
     * pages stay the shared zero page until written. */
    if (!umb_mem_map_range(wg->local, VT_LOCAL_BASE, VT_LOCAL_SIZE)) return UMB_ERR_NOMEM;
    return UMB_OK;
}

static void vt_wg_fini(void *kernel, umb_workgroup *wg)
{
    (void)kernel;
    if (wg->isa) {
        umb_mem_destroy(wg->isa);
        wg->local = NULL;
        wg->isa = NULL;
    }
}

void vt_update_fs_mirror(vt_warp *w)
{
    w->fm = (w->mstatus & 0x6000u) ? w->f : w->fsink;
}

static umb_status vt_warp_init(void *kernel, umb_warp *uw)
{
    vt_kernel *k = kernel;
    vt_warp *w = calloc(1, sizeof *w);
    if (!w) return UMB_ERR_NOMEM;
    const umb_workgroup *wg = uw->wg;
    w->k = k;
    w->uw = uw;
    w->global = k->global;
    w->local = wg->local;
    w->stats = wg->stats;
    w->nlanes = k->nlanes;
    w->full = k->nlanes >= 32 ? 0xffffffffu : ((1u << k->nlanes) - 1u);
    w->mask = w->full;
    w->nactive = k->nlanes;
    w->vl = k->nlanes;
    w->vtype = 0xd0;            /* e32, m1, ta, ma: what the crt's vsetvli sets */
    w->mstatus = 0x00000200;    /* VS = initial, FS = off (the crt turns FS on) */
    vt_update_fs_mirror(w);
    w->pc = (uint32_t)k->launch.start_pc;
    w->page_limit = 0;
    w->csr_wid = uw->id;
    w->csr_numw = k->nwarps;
    w->csr_numt = k->nlanes;
    w->csr_tid = uw->id * k->nlanes;
    w->csr_knl = (uint32_t)k->launch.metadata_base;
    w->csr_wgid = 0;            /* one workgroup slot per simulated SM */
    w->csr_lds = VT_LOCAL_BASE;
    w->csr_pds = (uint32_t)k->launch.pds_base;
    for (int i = 0; i < 3; i++) w->csr_gid[i] = wg->id[i];
    w->tr_last_pc = 1;          /* no disassembly line printed yet */
    w->traced = k->trace != NULL || k->pc_counts != NULL;
    for (unsigned i = 0; i < VT_PCACHE; i++) w->pcache_tag[i] = ~0u;
    uw->isa = w;
    uw->pc = w->pc;
    return UMB_OK;
}

static void vt_warp_fini(void *kernel, umb_warp *uw)
{
    (void)kernel;
    free(uw->isa);
    uw->isa = NULL;
}

/* Find the decoded instruction at pc when it is outside the current page. */
static const vt_insn *slow_lookup(vt_warp *w, uint32_t pc)
{
    if (pc & 3) {
        vt_insn tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.pc = pc;
        tmp.fetch_fault = 1;
        vt_fault(w, &tmp, UMB_ERR_GUEST_FAULT, -1, pc, "misaligned PC 0x%08x", pc);
        return NULL;
    }
    const vt_page *p = vt_page_get(w->k, pc);
    if (!p) {
        vt_insn tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.pc = pc;
        tmp.fetch_fault = 1;
        vt_fault(w, &tmp, UMB_ERR_NOMEM, -1, pc, "out of host memory decoding code");
        return NULL;
    }
    w->page = p->insn;
    w->page_base = (uint32_t)p->base;
    w->page_limit = VT_PAGE_BYTES;
    return &p->insn[(pc & (VT_PAGE_BYTES - 1u)) >> 2];
}

static inline const vt_insn *fetch(vt_warp *w, uint32_t pc)
{
    uint32_t off = pc - w->page_base;
    if (__builtin_expect(off < w->page_limit, 1)) return &w->page[off >> 2];
    return slow_lookup(w, pc);
}

static umb_warp_state finish(vt_warp *w, umb_warp *uw, uint64_t n, uint64_t *executed)
{
    *executed = n;
    uw->pc = w->pc;
    int st = w->stop;
    if (st == UMB_WARP_AT_BARRIER) {
        w->stop = 0;
        uw->barrier_id = 0;
    }
    return (umb_warp_state)st;
}

/* The loop of traced and profiled launches (the general one: any quantum, one instruction at a
 * time with the hooks). */
static umb_warp_state step_traced(vt_warp *w, umb_warp *uw, uint32_t max, uint64_t *executed)
{
    uint64_t n = 0;
    const vt_kernel *k = w->k;
    while (n < max && !w->stop) {
        const vt_insn *in = fetch(w, w->pc);
        if (!in) break;
        uint64_t at = ((uint64_t)in->pc - k->pc_base) >> 2;
        if (k->pc_counts && in->pc >= k->pc_base && at < k->pc_words)
            __atomic_fetch_add(&k->pc_counts[at], 1, __ATOMIC_RELAXED);   /* host threads share it */
        uint32_t ff = w->fflags;
        w->fexc = 0;
        w->mstatus_before = w->mstatus;
        w->tr_csr = 0;
        w->pc = in->pc + 4;
        in->fn(w, in);
        n++;
        umb_count_insn(w->stats, (umb_insn_class)in->cls,
                       w->nactive, w->nlanes);
        if (k->trace && w->stop != UMB_WARP_FAULTED) vt_trace_insn(w, in, ff);
    }
    return finish(w, uw, n, executed);
}

/* The hot loop. With the default quantum of 1 it runs one instruction per call, so its fixed
 * cost matters as much as the loop: one predictable branch for the trace, the page check, the
 * handler call, and two statistics updates; the per-call counts are added once at the end. */
static umb_warp_state vt_step(void *kernel, umb_warp *uw, uint32_t max, uint64_t *executed)
{
    (void)kernel;
    vt_warp *w = uw->isa;
    if (__builtin_expect(w->traced, 0)) return step_traced(w, uw, max, executed);
    umb_stats *s = w->stats;
    uint32_t n = 0;
    while (n < max) {
        uint32_t pc = w->pc, off = pc - w->page_base;
        const vt_insn *in;
        if (__builtin_expect(off < w->page_limit, 1)) in = &w->page[off >> 2];
        else if (!(in = slow_lookup(w, pc))) break;
        w->pc = pc + 4;
        in->fn(w, in);
        n++;
        s->by_class[in->cls]++;
        s->thread_insts += w->nactive;
        if (__builtin_expect(w->stop != 0, 0)) break;
    }
    s->warp_insts += n;
    s->lane_slots += (uint64_t)n * w->nlanes;
    return finish(w, uw, n, executed);
}

/* A round robin pass with any quantum or with the trace on: step on each warp. */
static uint64_t round_general(void *kernel, umb_workgroup *wg, uint32_t quantum, uint32_t *count)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < wg->nwarps; i++) {
        umb_warp *uw = &wg->warps[i];
        if (uw->state == UMB_WARP_RUNNABLE) {
            uint64_t n = 0;
            uw->state = vt_step(kernel, uw, quantum, &n);
            total += n;
        }
        count[uw->state]++;
        if (uw->state == UMB_WARP_FAULTED) break;
    }
    return total;
}

/* One round robin pass (umb_frontend.round). With the default quantum of 1 and no trace, the
 * instruction runs inline here: per warp and instruction, a state test, the page check, the
 * handler call and two counters; few enough live values to stay in registers across the
 * call. The per-instruction-constant counters are added once per pass. */
static uint64_t vt_round(void *kernel, umb_workgroup *wg, uint32_t quantum, uint32_t *count)
{
    vt_kernel *k = kernel;
    if (quantum != 1 || k->hooks) return round_general(kernel, wg, quantum, count);
    umb_warp *uw = wg->warps, *end = uw + wg->nwarps;
    umb_stats *s = wg->stats;
    uint64_t stepped = 0;
    for (; uw != end; uw++) {
        if (uw->state != UMB_WARP_RUNNABLE) {
            count[uw->state]++;
            continue;
        }
        vt_warp *w = uw->isa;
        uint32_t pc = w->pc, off = pc - w->page_base;
        const vt_insn *in;
        if (__builtin_expect(off < w->page_limit, 1)) in = &w->page[off >> 2];
        else if (!(in = slow_lookup(w, pc))) goto stopped;
        w->pc = pc + 4;
        s->by_class[in->cls]++;
        in->fn(w, in);
        stepped++;
        s->thread_insts += w->nactive;
        uw->pc = w->pc;
        if (__builtin_expect(w->stop == 0, 1)) {
            count[UMB_WARP_RUNNABLE]++;
            continue;
        }
    stopped:;
        uint64_t none;
        uw->state = finish(w, uw, 0, &none);
        count[uw->state]++;
        if (uw->state == UMB_WARP_FAULTED) break;
    }
    s->warp_insts += stepped;
    s->lane_slots += stepped * k->nlanes;
    return stepped;
}

static void vt_describe_pc(void *kernel, const umb_warp *uw, char *buf, size_t len)
{
    vt_kernel *k = kernel;
    uint32_t pc = (uint32_t)uw->pc, bits;
    if (!umb_mem_load(k->global, pc, &bits, 4)) {
        snprintf(buf, len, "PC 0x%08x : (unmapped)", pc);
        return;
    }
    char t[128];
    umb_ventus_disasm(bits, pc, t, sizeof t);
    for (char *c = t; *c; c++) if (*c == '\t') *c = ' ';
    snprintf(buf, len, "PC 0x%08x : 0x%08x %s", pc, bits, t);
}

/* umb_frontend.state_*: what decides a warp's next instructions, for the proof of "no forward
 * progress" (src/core/sched.c): PC, SIMT mask and stack, vector length and type, the CSRs a
 * program can change, the LR/SC reservation, and the x, f and v registers (not the cycle and
 * instret counters, which only count, nor the sinks of writes to x0). */
typedef struct warp_scalars {
    uint32_t pc, mask, vl, sp;
    uint32_t mstatus, fflags, frm, vtype, vstart, mtvec, mscratch, mepc, mcause, mtval, mie, mip, satp;
    uint32_t csr_print, csr_rpc, resv_addr, resv_value, resv_valid;
} warp_scalars;

#define VT_STATE_X (sizeof(uint32_t) * VT_NUM_REGS)
#define VT_STATE_V (sizeof(((vt_warp *)0)->v))
#define VT_STATE_STACK (sizeof(((vt_warp *)0)->stack))

static size_t vt_state_size(void *kernel)
{
    (void)kernel;
    return sizeof(warp_scalars) + 2 * VT_STATE_X + VT_STATE_V + VT_STATE_STACK;
}

static warp_scalars scalars_of(const vt_warp *w)
{
    warp_scalars sc = {
        .pc = w->pc, .mask = w->mask, .vl = w->vl, .sp = w->sp, .mstatus = w->mstatus, .fflags = w->fflags,
        .frm = w->frm, .vtype = w->vtype, .vstart = w->vstart, .mtvec = w->mtvec, .mscratch = w->mscratch,
        .mepc = w->mepc, .mcause = w->mcause, .mtval = w->mtval, .mie = w->mie, .mip = w->mip, .satp = w->satp,
        .csr_print = w->csr_print, .csr_rpc = w->csr_rpc, .resv_addr = w->resv_addr, .resv_value = w->resv_value,
        .resv_valid = w->resv_valid,
    };
    return sc;
}

static bool vt_state_save(void *kernel, const umb_warp *uw, void *buf)
{
    (void)kernel;
    const vt_warp *w = uw->isa;
    warp_scalars sc = scalars_of(w);
    uint8_t *p = buf;
    memcpy(p, &sc, sizeof sc), p += sizeof sc;
    memcpy(p, w->x, VT_STATE_X), p += VT_STATE_X;
    memcpy(p, w->f, VT_STATE_X), p += VT_STATE_X;
    memcpy(p, w->stack, VT_STATE_STACK), p += VT_STATE_STACK;
    memcpy(p, w->v, VT_STATE_V);
    return true;
}

static bool vt_state_same(void *kernel, const umb_warp *uw, const void *buf)
{
    (void)kernel;
    const vt_warp *w = uw->isa;
    warp_scalars sc = scalars_of(w);
    const uint8_t *p = buf;
    if (memcmp(p, &sc, sizeof sc)) return false;
    p += sizeof sc;
    if (memcmp(p, w->x, VT_STATE_X)) return false;
    p += VT_STATE_X;
    if (memcmp(p, w->f, VT_STATE_X)) return false;
    p += VT_STATE_X;
    if (memcmp(p, w->stack, VT_STATE_STACK)) return false;
    p += VT_STATE_STACK;
    return !memcmp(p, w->v, VT_STATE_V);
}

static const umb_frontend vt_frontend = {
    .name = "ventus",
    .barrier_counts_exited = false,
    .wg_init = vt_wg_init,
    .wg_fini = vt_wg_fini,
    .warp_init = vt_warp_init,
    .warp_fini = vt_warp_fini,
    .step = vt_step,
    .round = vt_round,
    .describe_pc = vt_describe_pc,
    /* timing mode (src/isa/ventus/timing.c) */
    .timing_pc = vt_timing_pc,
    .timing_static = vt_timing_static,
    .timing_dynamic = vt_timing_dynamic,
    .state_size = vt_state_size,
    .state_save = vt_state_save,
    .state_same = vt_state_same,
};

umb_status umb_ventus_run(umb_device *dev, const umb_ventus_launch *launch,
                          const umb_ventus_options *opt, umb_stats *stats)
{
    if (!dev || !launch) return UMB_ERR_INVALID;
    const char *nm = launch->name ? launch->name : "ventus kernel";
    if (launch->wf_size < 1 || launch->wf_size > VT_MAX_LANES) {
        umb_device_set_error(dev, "%s: wf_size %" PRIu64 " is not 1..%u threads per warp", nm,
                             launch->wf_size, VT_MAX_LANES);
        return UMB_ERR_INVALID;
    }
    if (launch->wg_size < 1 || launch->wg_size > 1024) {
        umb_device_set_error(dev, "%s: wg_size %" PRIu64 " is not 1..1024 warps", nm, launch->wg_size);
        return UMB_ERR_INVALID;
    }
    for (int i = 0; i < 3; i++)
        if (launch->grid[i] < 1 || launch->grid[i] > 0xffffffffu) {
            umb_device_set_error(dev, "%s: grid dimension %d is %" PRIu64 " workgroups", nm, i,
                                 launch->grid[i]);
            return UMB_ERR_INVALID;
        }
    if ((launch->start_pc & 3) || launch->start_pc > 0xffffffffu) {
        umb_device_set_error(dev, "%s: start_pc 0x%" PRIx64 " is not a 4-aligned 32-bit address", nm,
                             launch->start_pc);
        return UMB_ERR_INVALID;
    }
    vt_kernel *k = calloc(1, sizeof *k);
    if (!k) return UMB_ERR_NOMEM;
    k->dev = dev;
    k->global = umb_device_memory(dev);
    k->launch = *launch;
    k->nlanes = (uint32_t)launch->wf_size;
    k->nwarps = (uint32_t)launch->wg_size;
    k->trace = opt ? opt->trace : NULL;
    if (opt && opt->pc_counts) k->pc_counts = opt->pc_counts, k->pc_base = opt->pc_base, k->pc_words = opt->pc_words;
    k->hooks = k->trace || k->pc_counts;
    vt_decode_index_build(&k->dix);
    umb_launch l;
    memset(&l, 0, sizeof l);
    l.dev = dev;
    l.fe = &vt_frontend;
    l.kernel = k;
    for (int i = 0; i < 3; i++) l.grid[i] = (uint32_t)launch->grid[i];
    l.warps_per_wg = k->nwarps;
    l.threads_per_warp = k->nlanes;
    l.kernel_name = nm;
    umb_stats local_stats;
    memset(&local_stats, 0, sizeof local_stats);
    umb_status st = umb_launch_run(&l, stats ? stats : &local_stats);
    if (k->trace) fflush(k->trace);
    vt_pages_free(k);
    free(k);
    return st;
}
