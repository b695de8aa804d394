/* Workgroup dispatch, warp scheduling, barriers, the instruction budget and fault reports.
 *
 * Dispatch is deterministic: workgroup i (linear order x, then y, then z) goes to compute unit
 * i % CUs, and each CU runs its workgroups one after another. Host thread t simulates CUs
 * t, t+T, t+2T, ... so a launch gives the same result for a given configuration whatever the
 * host timing. Inside a workgroup, warps run round robin `quantum` instructions at a time
 * (1 by default, as the Ventus golden model does, which keeps racy kernels reproducible).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "timing/timing.h"

typedef struct launch_shared {
    _Atomic uint64_t executed;   /* warp-instructions of the whole launch */
    _Atomic uint64_t wgs_done;
    uint64_t wgs_total;
    uint64_t budget;             /* 0 = unlimited */
    double start;
    double last_progress;
    bool progress;
} launch_shared;

/* The launch_shared block hangs off the launch while it runs; no global state. */
typedef struct launch_run {
    umb_launch *launch;
    launch_shared shared;
} launch_run;

typedef struct host_thread {
    launch_run *run;
    uint32_t index, count;       /* this thread's index and the number of host threads */
    umb_stats stats;
    umb_mem *local;              /* local memory reused by this thread's workgroups */
    umb_status status;
} host_thread;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- faults ---- */

static bool claim_failure(umb_launch *l)
{
    int expected = 0;
    return atomic_compare_exchange_strong(&l->failed, &expected, 1);
}

static void set_fault(umb_launch *l, umb_status st, const char *prefix, const char *fmt, va_list ap)
{
    if (!claim_failure(l)) return;
    l->fault.status = st;
    int n = snprintf(l->fault.message, sizeof l->fault.message, "%s", prefix);
    if (n < 0) n = 0;
    if ((size_t)n < sizeof l->fault.message)
        vsnprintf(l->fault.message + n, sizeof l->fault.message - (size_t)n, fmt, ap);
}

static void where_prefix(const umb_warp *w, char *buf, size_t len)
{
    const umb_workgroup *wg = w->wg;
    const umb_launch *l = wg->launch;
    snprintf(buf, len, "kernel %s, workgroup (%u,%u,%u), warp %u: ", l->kernel_name ? l->kernel_name : "?",
             wg->id[0], wg->id[1], wg->id[2], w->id);
}

umb_warp_state umb_fault_report(umb_warp *w, umb_status status, const char *fmt, ...)
{
    char prefix[256];
    where_prefix(w, prefix, sizeof prefix);
    va_list ap;
    va_start(ap, fmt);
    set_fault(w->wg->launch, status, prefix, fmt, ap);
    va_end(ap);
    w->state = UMB_WARP_FAULTED;
    return UMB_WARP_FAULTED;
}

static void launch_fail(umb_launch *l, umb_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void launch_fail(umb_launch *l, umb_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_fault(l, st, "", fmt, ap);
    va_end(ap);
}

/* ---- progress ---- */

static void maybe_progress(launch_run *run, bool final)
{
    launch_shared *s = &run->shared;
    if (!s->progress) return;
    double t = now_seconds();
    if (!final && (t - s->start < 1.0 || t - s->last_progress < 0.5)) return;
    s->last_progress = t;
    uint64_t n = atomic_load(&s->executed);
    double el = t - s->start;
    fprintf(stderr, "\rumbra: %s: %" PRIu64 "/%" PRIu64 " workgroups, %.1fM warp-insts, %.1fM/s, %.1fs%s",
            run->launch->kernel_name ? run->launch->kernel_name : "kernel", atomic_load(&s->wgs_done),
            s->wgs_total, n / 1e6, el > 0 ? n / el / 1e6 : 0.0, el, final ? "\n" : "   ");
    fflush(stderr);
}

/* ---- one workgroup ---- */

static void describe_warp(const umb_launch *l, const umb_warp *w, char *buf, size_t len)
{
    if (l->fe->describe_pc) l->fe->describe_pc(l->kernel, w, buf, len);
    else snprintf(buf, len, "PC 0x%" PRIx64, w->pc);
}

static void report_deadlock(umb_launch *l, umb_workgroup *wg)
{
    char waiting[256] = "", exited[256] = "", at[512] = "";
    size_t nw = 0, ne = 0;
    for (uint32_t i = 0; i < wg->nwarps; i++) {
        umb_warp *w = &wg->warps[i];
        if (w->state == UMB_WARP_AT_BARRIER) {
            nw += (size_t)snprintf(waiting + nw, nw < sizeof waiting ? sizeof waiting - nw : 0, "%s%u", nw ? "," : "", i);
            if (!at[0]) describe_warp(l, w, at, sizeof at);
        } else if (w->state == UMB_WARP_EXITED) {
            ne += (size_t)snprintf(exited + ne, ne < sizeof exited ? sizeof exited - ne : 0, "%s%u", ne ? "," : "", i);
        }
    }
    launch_fail(l, UMB_ERR_DEADLOCK,
                "kernel %s, workgroup (%u,%u,%u): deadlock: a barrier can never complete: warps %s wait at a "
                "barrier (first after %s) but warps %s have exited",
                l->kernel_name ? l->kernel_name : "?", wg->id[0], wg->id[1], wg->id[2], waiting, at, exited);
}

static void report_budget(launch_run *run, umb_workgroup *wg, umb_warp *w)
{
    umb_launch *l = run->launch;
    char at[512];
    describe_warp(l, w, at, sizeof at);
    launch_fail(l, UMB_ERR_BUDGET,
                "kernel %s: instruction budget of %" PRIu64 " warp-instructions exhausted (a kernel that never "
                "ends?) at workgroup (%u,%u,%u), warp %u, %s; raise it with --max-instructions",
                l->kernel_name ? l->kernel_name : "?", run->shared.budget, wg->id[0], wg->id[1], wg->id[2], w->id,
                at);
}

/* Barrier bookkeeping after a round in which no warp could run. Returns false on deadlock. */
static bool complete_barrier(umb_launch *l, umb_workgroup *wg, uint32_t at_barrier, uint32_t exited)
{
    bool all_arrived = l->fe->barrier_counts_exited ? at_barrier + exited == wg->nwarps
                                                    : at_barrier == wg->nwarps;
    if (!all_arrived) {
        report_deadlock(l, wg);
        return false;
    }
    for (uint32_t i = 0; i < wg->nwarps; i++)
        if (wg->warps[i].state == UMB_WARP_AT_BARRIER) wg->warps[i].state = UMB_WARP_RUNNABLE;
    wg->stats->barriers++;
    return true;
}

/* The executed count is published to the launch-wide counter in batches (an atomic add per
 * round would cost more than the instruction it counts). A batch ends early when the budget
 * could be crossed, so with one host thread the budget stops at exactly the same round. */
#define EXECUTED_BATCH 65536u

/* Add `pending` to the launch counter; return the pending count at which to come back. */
static uint64_t publish_executed(launch_run *run, uint64_t pending, uint64_t *total)
{
    *total = atomic_fetch_add_explicit(&run->shared.executed, pending, memory_order_relaxed) + pending;
    uint64_t budget = run->shared.budget;
    if (!budget) return EXECUTED_BATCH;
    if (*total > budget) return 1;   /* another host thread crossed it: check after this round */
    return budget - *total + 1 < EXECUTED_BATCH ? budget - *total + 1 : EXECUTED_BATCH;
}

static umb_status run_warps(launch_run *run, umb_workgroup *wg)
{
    umb_launch *l = run->launch;
    const umb_frontend *fe = l->fe;
    umb_warp_state (*step)(void *, umb_warp *, uint32_t, uint64_t *) = fe->step;
    uint64_t (*round)(void *, umb_workgroup *, uint32_t, uint32_t *) = fe->round;
    void *kernel = l->kernel;
    umb_warp *warps = wg->warps;
    const uint32_t nwarps = wg->nwarps;
    uint32_t quantum = umb_device_get_config(l->dev)->quantum;
    uint64_t budget = run->shared.budget;
    uint64_t total = 0, pending = 0;
    uint64_t batch_end = publish_executed(run, 0, &total);
    umb_status st;
    for (;;) {
        /* per state: how many warps are in it after this round */
        uint32_t count[UMB_WARP_FAULTED + 1] = {0};
        if (round) {
            pending += round(kernel, wg, quantum, count);
        } else {
            for (uint32_t i = 0; i < nwarps; i++) {
                umb_warp *w = &warps[i];
                if (w->state == UMB_WARP_RUNNABLE) {
                    uint64_t n = 0;
                    w->state = step(kernel, w, quantum, &n);
                    pending += n;
                }
                count[w->state & 3u]++;   /* the four states; never index past count[] */
                if (__builtin_expect(w->state == UMB_WARP_FAULTED, 0)) break;
            }
        }
        if (__builtin_expect(count[UMB_WARP_FAULTED] != 0, 0)) {
            st = l->fault.status ? l->fault.status : UMB_ERR_GUEST_FAULT;
            goto out;
        }
        if (atomic_load_explicit(&l->failed, memory_order_relaxed)) {
            st = l->fault.status;
            goto out;
        }
        if (count[UMB_WARP_EXITED] == nwarps) {
            st = UMB_OK;
            goto out;
        }
        if (__builtin_expect(pending >= batch_end, 0)) {
            batch_end = publish_executed(run, pending, &total);
            pending = 0;
            if (budget && total > budget) {
                for (uint32_t i = 0; i < nwarps; i++)
                    if (warps[i].state != UMB_WARP_EXITED) {
                        report_budget(run, wg, &warps[i]);
                        break;
                    }
                return UMB_ERR_BUDGET;
            }
        }
        if (count[UMB_WARP_RUNNABLE] == 0 &&
            !complete_barrier(l, wg, count[UMB_WARP_AT_BARRIER], count[UMB_WARP_EXITED])) {
            st = UMB_ERR_DEADLOCK;
            goto out;
        }
    }
out:
    if (pending) publish_executed(run, pending, &total);
    return st;
}

static umb_status run_workgroup(launch_run *run, host_thread *ht, uint64_t linear)
{
    umb_launch *l = run->launch;
    const umb_frontend *fe = l->fe;
    umb_workgroup wg = {0};
    wg.launch = l;
    wg.linear_id = linear;
    wg.id[0] = (uint32_t)(linear % l->grid[0]);
    wg.id[1] = (uint32_t)(linear / l->grid[0] % l->grid[1]);
    wg.id[2] = (uint32_t)(linear / ((uint64_t)l->grid[0] * l->grid[1]));
    wg.cu = (uint32_t)(linear % umb_device_get_config(l->dev)->compute_units);
    wg.nwarps = l->warps_per_wg;
    wg.local = ht->local;
    wg.stats = &ht->stats;
    umb_mem_clear(ht->local);

    umb_warp *warps = calloc(wg.nwarps, sizeof *warps);
    if (!warps) return UMB_ERR_NOMEM;
    wg.warps = warps;
    umb_status st = fe->wg_init ? fe->wg_init(l->kernel, &wg) : UMB_OK;
    uint32_t inited = 0;
    for (; st == UMB_OK && inited < wg.nwarps; inited++) {
        umb_warp *w = &warps[inited];
        w->wg = &wg;
        w->id = inited;
        w->width = l->threads_per_warp;
        w->state = UMB_WARP_RUNNABLE;
        st = fe->warp_init(l->kernel, w);
        if (st != UMB_OK) {
            inited++; /* its partial state is released by warp_fini too */
            break;
        }
    }
    ht->stats.workgroups++;
    ht->stats.warps += inited;
    if (st == UMB_OK) st = run_warps(run, &wg);
    else if (!atomic_load(&l->failed)) launch_fail(l, st, "kernel %s: workgroup setup failed (%s)",
                                                   l->kernel_name ? l->kernel_name : "?", umb_status_name(st));
    for (uint32_t i = 0; i < inited; i++)
        if (fe->warp_fini) fe->warp_fini(l->kernel, &warps[i]);
    if (fe->wg_fini) fe->wg_fini(l->kernel, &wg);
    free(warps);
    return st;
}

/* Workgroups of the CUs this host thread simulates, in dispatch order. */
static void *host_thread_main(void *arg)
{
    host_thread *ht = arg;
    launch_run *run = ht->run;
    umb_launch *l = run->launch;
    uint32_t ncu = umb_device_get_config(l->dev)->compute_units;
    uint64_t total = run->shared.wgs_total;
    for (uint64_t i = 0; i < total && !atomic_load_explicit(&l->failed, memory_order_relaxed); i++) {
        if ((i % ncu) % ht->count != ht->index) continue;
        ht->status = run_workgroup(run, ht, i);
        if (ht->status != UMB_OK) break;
        atomic_fetch_add(&run->shared.wgs_done, 1);
        if (ht->index == 0) maybe_progress(run, false);
    }
    return NULL;
}

static umb_status check_launch(umb_launch *l)
{
    if (!l->fe || !l->fe->step || !l->fe->warp_init) return UMB_ERR_INVALID;
    for (int d = 0; d < 3; d++)
        if (l->grid[d] == 0) {
            umb_device_set_error(l->dev, "launch %s: grid dimension %d is 0", l->kernel_name ? l->kernel_name : "?", d);
            return UMB_ERR_INVALID;
        }
    if (l->warps_per_wg == 0 || l->threads_per_warp == 0) {
        umb_device_set_error(l->dev, "launch %s: %u warps of %u threads per workgroup",
                             l->kernel_name ? l->kernel_name : "?", l->warps_per_wg, l->threads_per_warp);
        return UMB_ERR_INVALID;
    }
    return UMB_OK;
}

umb_status umb_launch_run(umb_launch *l, umb_stats *stats)
{
    umb_device_clear_error(l->dev);
    umb_status st = check_launch(l);
    if (st != UMB_OK) return st;
    atomic_store(&l->failed, 0);
    memset(&l->fault, 0, sizeof l->fault);

    const umb_device_config *cfg = umb_device_get_config(l->dev);
    if (cfg->timing) return umb_timing_run_launch(cfg->timing, l, stats);   /* src/timing */
    launch_run run = {.launch = l};
    run.shared.wgs_total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    run.shared.budget = cfg->max_instructions;
    run.shared.start = now_seconds();
    run.shared.progress = cfg->progress && isatty(STDERR_FILENO);

    uint32_t nthreads = cfg->host_threads;
    if (nthreads > cfg->compute_units) nthreads = cfg->compute_units;
    if (nthreads > run.shared.wgs_total) nthreads = (uint32_t)run.shared.wgs_total;
    host_thread *hts = calloc(nthreads, sizeof *hts);
    pthread_t *tids = calloc(nthreads, sizeof *tids);
    if (!hts || !tids) {
        free(hts), free(tids);
        return UMB_ERR_NOMEM;
    }
    st = UMB_OK;
    uint32_t started = 0;
    for (uint32_t t = 0; t < nthreads; t++) {
        hts[t] = (host_thread){.run = &run, .index = t, .count = nthreads};
        hts[t].local = umb_mem_create();
        if (!hts[t].local) st = UMB_ERR_NOMEM;
    }
    if (st == UMB_OK) {
        /* Thread 0 runs on the calling thread; the others on their own. */
        for (uint32_t t = 1; t < nthreads; t++) {
            if (pthread_create(&tids[t], NULL, host_thread_main, &hts[t]) != 0) {
                launch_fail(l, UMB_ERR_NOMEM, "could not start host thread %u", t);
                break;
            }
            started = t;
        }
        host_thread_main(&hts[0]);
        for (uint32_t t = 1; t <= started; t++) pthread_join(tids[t], NULL);
    }
    if (run.shared.progress && now_seconds() - run.shared.start >= 1.0) maybe_progress(&run, true);

    umb_stats sum = {0};
    for (uint32_t t = 0; t < nthreads; t++) {
        umb_stats_add(&sum, &hts[t].stats);
        umb_mem_destroy(hts[t].local);
    }
    sum.launches = 1;
    sum.host_seconds = now_seconds() - run.shared.start;
    if (stats) umb_stats_add(stats, &sum);
    free(hts);
    free(tids);

    if (st == UMB_OK && atomic_load(&l->failed)) st = l->fault.status ? l->fault.status : UMB_ERR_GUEST_FAULT;
    if (st != UMB_OK && l->fault.message[0]) umb_device_set_error(l->dev, "%s", l->fault.message);
    return st;
}
