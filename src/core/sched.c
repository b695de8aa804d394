/* Workgroup dispatch, warp scheduling, barriers, the instruction budget, forward progress and
 * fault reports.
 *
 * Dispatch is deterministic: workgroup i (linear order x, then y, then z) goes to compute unit
 * i % CUs. Host thread t simulates CUs t, t+T, t+2T, ... so a launch gives the same result for a
 * given configuration whatever the host timing. Inside a workgroup, warps run round robin
 * `quantum` instructions at a time (1 by default, as the Ventus golden model does, which keeps
 * racy kernels reproducible).
 *
 * Resident workgroups. A launch with concurrent_wgs keeps as many workgroups resident as its
 * CUs hold (wgs_per_cu each), as the hardware does: a host thread gives its resident workgroups
 * turns in dispatch order. A turn lasts while the workgroup makes progress (finishes, completes
 * a barrier, writes global or local memory); one that has run QUIET_ROUNDS rounds without any
 * of these (a spin wait) yields to the next. So ordinary kernels run exactly as if one workgroup
 * ran after another, and workgroups that wait on each other (a software grid barrier) finish.
 * When the whole launch has run stall_limit warp-instructions with no progress anywhere, the
 * launch may be stuck, or may be a long computation that writes late (a loop over global loads
 * that stores once at the end). The count alone proves nothing, so a host thread then looks for
 * a proof (prove_stuck): each of its resident waves is run alone until it is back in exactly an
 * architectural state it was in (PC, registers, masks: umb_frontend.state_same) having written
 * nothing. Such a wave repeats that cycle for as long as no one else writes memory. A host thread
 * whose waves are all in such cycles parks until another one progresses; when every host thread
 * still running is parked or waits (below), nothing can ever write again: "no forward
 * progress". A wave that does not come back to its state in PROOF_STEPS instructions (a loop
 * counter, a clock read) is not stuck: the launch runs on, bounded only by the user's
 * --max-instructions.
 *
 * Waits across workgroups (UMB_WARP_WAITING: RDNA3's GWS barriers and semaphores) cost no host
 * time. A workgroup whose waves can only wait (the others at its barrier or exited) ends its turn
 * at once; a host thread all of whose resident workgroups wait sleeps until a front end calls
 * umb_launch_wake. When every host thread still running sleeps, no wave is left that could end a
 * wait: the launch stops with a deadlock report naming the waits.
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
    _Atomic uint64_t progress_epoch;   /* advanced by every turn in which a workgroup progressed */
    _Atomic uint64_t wgs_done;
    uint64_t wgs_total;
    uint64_t budget;             /* 0 = unlimited */
    double start;
    double last_progress;
    bool progress;
} launch_shared;

/* Where host threads whose workgroups all wait sleep (umb_launch.wake while the launch runs). */
typedef struct umb_wake {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    uint32_t live;               /* host threads still running the launch */
    uint32_t asleep;             /* ... asleep since the last wake (umb_launch.wakes unchanged) */
} umb_wake;

/* The launch_shared block hangs off the launch while it runs; no global state. */
typedef struct launch_run {
    umb_launch *launch;
    launch_shared shared;
    _Atomic uint64_t wgs_started;
    _Atomic uint32_t parked;     /* host threads parked with their waves proven in closed cycles */
    umb_wake wake;
} launch_run;

/* A resident workgroup of a host thread. A slot is filled in dispatch order and its workgroup
 * set up at its first turn, so that an ordinary kernel (each workgroup finishing in its first
 * turn) has one workgroup set up at a time, reusing the same warp state and local memory. */
typedef struct wg_slot {
    umb_workgroup wg;
    uint64_t linear;             /* the workgroup it holds */
    uint32_t inited;             /* warps whose warp_init ran (warp_fini releases them) */
    bool live;                   /* holds a workgroup */
    bool started;                /* ... whose launch state is set up */
} wg_slot;

typedef struct host_thread {
    launch_run *run;
    uint32_t index, count;       /* this thread's index and the number of host threads */
    umb_stats stats;
    wg_slot *slots;              /* resident workgroups */
    uint32_t nslots;
    umb_mem **locals;            /* local memories not in use (at most nslots) */
    uint32_t nlocals;
    uint64_t next_wg;            /* next workgroup index to look at for this thread's CUs */
    uint64_t epoch_seen, executed_at_epoch;   /* forward-progress watch */
    umb_status status;
} host_thread;

/* A turn ends after this many rounds without progress, and progress is checked every
 * PROGRESS_CHECK rounds (a power of two). */
#define QUIET_ROUNDS 4096u
#define PROGRESS_CHECK 256u

/* A wave that has not come back to its state within this many instructions run alone is not
 * in a closed cycle (it is computing, or counting). */
#define PROOF_STEPS (1u << 20)

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

/* A new wake epoch: every sleeping host thread looks again (under the lock, so that a thread going
 * to sleep is counted in the epoch it saw). */
void umb_launch_wake(umb_launch *l)
{
    umb_wake *wk = l->wake;
    if (!wk) {
        atomic_fetch_add(&l->wakes, 1);
        return;
    }
    pthread_mutex_lock(&wk->lock);
    atomic_fetch_add(&l->wakes, 1);
    wk->asleep = 0;
    pthread_cond_broadcast(&wk->cond);
    pthread_mutex_unlock(&wk->lock);
}

/* Record the launch's first fault (the caller then wakes sleeping host threads). */
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
    umb_launch_wake(w->wg->launch);   /* sleeping host threads see the failure */
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
    umb_launch_wake(l);
}

/* launch_fail for a caller holding the wake lock (it wakes the sleepers itself). */
static void launch_fail_locked(umb_launch *l, umb_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void launch_fail_locked(umb_launch *l, umb_status st, const char *fmt, ...)
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

/* What tells a workgroup's progress apart from a spin: memory written, barriers completed, and
 * work the host did for it (umb_workgroup.progress: hostcalls serviced). */
static uint64_t progress_marks(const umb_workgroup *wg)
{
    const umb_stats *s = wg->stats;
    const umb_mem_traffic *g = &s->mem[UMB_SPACE_GLOBAL], *loc = &s->mem[UMB_SPACE_LOCAL];
    return g->stores + g->atomics + loc->stores + loc->atomics + s->barriers + wg->progress;
}

/* Ask the front end about each waiting warp; true if one may run again. */
static bool release_waiting(umb_launch *l, umb_workgroup *wg)
{
    bool any = false;
    for (uint32_t i = 0; i < wg->nwarps; i++) {
        umb_warp *w = &wg->warps[i];
        if (w->state == UMB_WARP_WAITING && l->fe->wait_poll(l->kernel, w)) {
            w->state = UMB_WARP_RUNNABLE;
            any = true;
        }
    }
    return any;
}

/* Run a workgroup's warps until it ends (*finished), faults, has gone QUIET_ROUNDS rounds
 * without progress, or can only wait for other workgroups (*blocked: every warp that has not
 * exited is UMB_WARP_WAITING or at the barrier, and no wait is over). *progressed tells whether
 * it wrote memory, completed a barrier or ended a wait during the turn. */
static umb_status run_warps(launch_run *run, umb_workgroup *wg, bool *finished, bool *progressed, bool *blocked)
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
    uint64_t marks = progress_marks(wg), rounds = 0, last_progress = 0;
    umb_status st;
    *finished = false;
    *progressed = false;
    *blocked = false;
    for (;;) {
        /* per state: how many warps are in it after this round */
        uint32_t count[UMB_WARP_STATES] = {0};
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
                count[w->state < UMB_WARP_STATES ? w->state : UMB_WARP_FAULTED]++;
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
            *finished = true;
            goto out;
        }
        if (__builtin_expect((++rounds & (PROGRESS_CHECK - 1)) == 0, 0)) {
            uint64_t now = progress_marks(wg);
            if (now != marks) {
                marks = now;
                last_progress = rounds;
                *progressed = true;
            } else if (rounds - last_progress >= QUIET_ROUNDS) {
                st = UMB_OK;
                goto out;
            }
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
        /* Waits for other workgroups: looked at when nothing else can run, and every
         * PROGRESS_CHECK rounds (a wave spinning on what a waiting one will do) */
        if (__builtin_expect(count[UMB_WARP_WAITING] != 0, 0) &&
            (count[UMB_WARP_RUNNABLE] == 0 || (rounds & (PROGRESS_CHECK - 1)) == 0)) {
            if (release_waiting(l, wg)) {
                *progressed = true;
                continue;
            }
            if (count[UMB_WARP_RUNNABLE] == 0) {
                *blocked = true;
                st = UMB_OK;
                goto out;
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
    if (progress_marks(wg) != marks) *progressed = true;
    return st;
}

/* Set up the launch state of slot s's workgroup (its first turn). */
/* The CUs the launch's workgroups run on (a CU mask's, else every CU of the device), and the
 * i-th of them: workgroup w runs on the (w mod count)-th. */
static uint32_t launch_cus(const umb_launch *l)
{
    return l->cus ? l->ncus : umb_device_get_config(l->dev)->compute_units;
}

static uint32_t launch_cu(const umb_launch *l, uint64_t i) { return l->cus ? l->cus[i] : (uint32_t)i; }

static umb_status start_workgroup(launch_run *run, host_thread *ht, wg_slot *s)
{
    umb_launch *l = run->launch;
    const umb_frontend *fe = l->fe;
    umb_workgroup *wg = &s->wg;
    uint64_t linear = s->linear;
    memset(wg, 0, sizeof *wg);
    s->started = true;
    if (ht->nlocals) wg->local = ht->locals[--ht->nlocals];
    else if (!(wg->local = umb_mem_create())) return UMB_ERR_NOMEM;
    umb_mem_clear(wg->local);
    wg->launch = l;
    wg->linear_id = linear;
    wg->id[0] = (uint32_t)(linear % l->grid[0]);
    wg->id[1] = (uint32_t)(linear / l->grid[0] % l->grid[1]);
    wg->id[2] = (uint32_t)(linear / ((uint64_t)l->grid[0] * l->grid[1]));
    wg->cu = launch_cu(l, linear % launch_cus(l));
    wg->nwarps = l->warps_per_wg;
    wg->stats = &ht->stats;
    s->inited = 0;

    wg->warps = calloc(wg->nwarps, sizeof *wg->warps);
    if (!wg->warps) return UMB_ERR_NOMEM;
    atomic_fetch_add(&run->wgs_started, 1);
    umb_status st = fe->wg_init ? fe->wg_init(l->kernel, wg) : UMB_OK;
    for (; st == UMB_OK && s->inited < wg->nwarps; s->inited++) {
        umb_warp *w = &wg->warps[s->inited];
        w->wg = wg;
        w->id = s->inited;
        w->width = l->threads_per_warp;
        w->state = UMB_WARP_RUNNABLE;
        st = fe->warp_init(l->kernel, w);
        if (st != UMB_OK) {
            s->inited++; /* its partial state is released by warp_fini too */
            break;
        }
    }
    ht->stats.workgroups++;
    ht->stats.warps += s->inited;
    if (st != UMB_OK && !atomic_load(&l->failed))
        launch_fail(l, st, "kernel %s: workgroup setup failed (%s)", l->kernel_name ? l->kernel_name : "?",
                    umb_status_name(st));
    return st;
}

static void finish_workgroup(launch_run *run, host_thread *ht, wg_slot *s)
{
    umb_launch *l = run->launch;
    const umb_frontend *fe = l->fe;
    if (s->started) {
        for (uint32_t i = 0; i < s->inited; i++)
            if (fe->warp_fini) fe->warp_fini(l->kernel, &s->wg.warps[i]);
        if (s->wg.warps && fe->wg_fini) fe->wg_fini(l->kernel, &s->wg);
        free(s->wg.warps);
        s->wg.warps = NULL;
        if (s->wg.local) ht->locals[ht->nlocals++] = s->wg.local;
        s->wg.local = NULL;
    }
    s->live = s->started = false;
}

/* The next workgroup of this thread's CUs, or false when none is left. */
static bool next_workgroup(launch_run *run, host_thread *ht, uint64_t *linear)
{
    uint32_t ncu = launch_cus(run->launch);
    for (; ht->next_wg < run->shared.wgs_total; ht->next_wg++)
        if ((ht->next_wg % ncu) % ht->count == ht->index) {
            *linear = ht->next_wg++;
            return true;
        }
    return false;
}

/* Fill an empty slot with the next workgroup, if there is one (set up at its first turn). */
static void refill(launch_run *run, host_thread *ht, wg_slot *s)
{
    s->live = next_workgroup(run, ht, &s->linear);
    s->started = false;
}

/* Called with the wake lock held. */
static void report_no_progress(launch_run *run, host_thread *ht, uint64_t executed)
{
    umb_launch *l = run->launch;
    char waves[640] = "";
    size_t n = 0;
    uint32_t resident = 0, listed = 0;
    for (uint32_t i = 0; i < ht->nslots; i++) {
        if (!ht->slots[i].started) continue;
        resident++;
        umb_workgroup *wg = &ht->slots[i].wg;
        for (uint32_t w = 0; w < wg->nwarps && listed < 4 && n < sizeof waves; w++) {
            if (wg->warps[w].state == UMB_WARP_EXITED) continue;
            char at[256];
            describe_warp(l, &wg->warps[w], at, sizeof at);
            n += (size_t)snprintf(waves + n, sizeof waves - n, "%sworkgroup (%u,%u,%u) warp %u %s %s",
                                  listed ? "; " : "", wg->id[0], wg->id[1], wg->id[2], w,
                                  wg->warps[w].state == UMB_WARP_AT_BARRIER ? "waits at a barrier, next" : "at", at);
            listed++;
        }
    }
    launch_fail_locked(l, UMB_ERR_DEADLOCK,
                "kernel %s: no forward progress: %" PRIu64 " warp-instructions ran while no workgroup finished, no "
                "barrier completed and nothing was written to memory, and every resident wave is in a closed "
                "loop (back in a state it was in, registers and PC, having written nothing) or waits; %u "
                "resident workgroups on this host thread (the device holds %u per CU x %u CUs; %" PRIu64 " of %" PRIu64
                " workgroups done): %s",
                l->kernel_name ? l->kernel_name : "?", executed - ht->executed_at_epoch, resident,
                l->concurrent_wgs ? (l->wgs_per_cu ? l->wgs_per_cu : 1u) : 1u, launch_cus(l),
                atomic_load(&run->shared.wgs_done), run->shared.wgs_total, waves);
}

/* Everything a wave does that another wave (or its own next pass) could see: stores and atomics
 * to any memory, barriers completed, work the host did for it. */
static uint64_t effects_of(const umb_workgroup *wg)
{
    const umb_stats *s = wg->stats;
    uint64_t n = s->barriers + wg->progress;
    for (int sp = 0; sp < UMB_SPACE_COUNT; sp++) n += s->mem[sp].stores + s->mem[sp].atomics;
    return n;
}

/* Run the runnable warp w alone, one instruction at a time, until it is back in the state it
 * started from (true: a closed cycle in which it wrote nothing, which it repeats for as long as
 * nobody writes memory). False when it wrote, stopped being runnable (barrier, wait, exit,
 * fault) or has not come back within PROOF_STEPS instructions. Running one wave alone is a
 * schedule the hardware may choose too, so the instructions count as executed. */
static bool in_closed_cycle(launch_run *run, umb_workgroup *wg, umb_warp *w, void *state)
{
    umb_launch *l = run->launch;
    const umb_frontend *fe = l->fe;
    if (!fe->state_save(l->kernel, w, state)) return false;
    uint64_t effects = effects_of(wg), wakes = atomic_load(&l->wakes), executed = 0;
    bool closed = false;
    for (uint32_t i = 0; i < PROOF_STEPS && !closed; i++) {
        uint64_t n = 0;
        w->state = fe->step(l->kernel, w, 1, &n);
        executed += n;
        if (w->state != UMB_WARP_RUNNABLE || effects_of(wg) != effects || atomic_load(&l->wakes) != wakes) break;
        closed = fe->state_same(l->kernel, w, state);
    }
    atomic_fetch_add_explicit(&run->shared.executed, executed, memory_order_relaxed);
    return closed;
}

/* True when every resident wave of this host thread is in a closed cycle that writes nothing,
 * waits at a barrier, or waits for waves of other workgroups. */
static bool prove_stuck(launch_run *run, host_thread *ht)
{
    umb_launch *l = run->launch;
    const umb_frontend *fe = l->fe;
    if (!fe->state_size || !fe->state_save || !fe->state_same) return false;   /* no proof possible */
    void *state = malloc(fe->state_size(l->kernel));
    if (!state) return false;
    bool stuck = true;
    for (uint32_t i = 0; i < ht->nslots && stuck; i++) {
        wg_slot *s = &ht->slots[i];
        if (!s->live) continue;
        if (!s->started) {
            stuck = false;   /* a workgroup that has not had its first turn */
            break;
        }
        for (uint32_t w = 0; w < s->wg.nwarps && stuck; w++) {
            umb_warp *wp = &s->wg.warps[w];
            if (wp->state == UMB_WARP_RUNNABLE) stuck = in_closed_cycle(run, &s->wg, wp, state);
            else if (wp->state == UMB_WARP_WAITING) stuck = !fe->wait_poll(l->kernel, wp);
            if (!stuck && wp->state == UMB_WARP_WAITING) wp->state = UMB_WARP_RUNNABLE;   /* its wait is over */
        }
    }
    free(state);
    return stuck;
}

/* This host thread's waves are all proven stuck: sleep until another host thread progresses
 * (its writes may end the cycles). When every host thread still running is parked or asleep
 * waiting, nothing can ever write again: report and return false. */
static bool park_until_progress(launch_run *run, host_thread *ht, uint64_t executed)
{
    umb_launch *l = run->launch;
    umb_wake *wk = &run->wake;
    bool ok = true;
    atomic_fetch_add(&run->parked, 1);   /* before the epoch is looked at: see watch_progress */
    pthread_mutex_lock(&wk->lock);
    uint64_t wakes = atomic_load(&l->wakes);
    if (atomic_load(&run->shared.progress_epoch) == ht->epoch_seen && !atomic_load(&l->failed)) {
        wk->asleep++;
        while (atomic_load(&l->wakes) == wakes && atomic_load(&run->shared.progress_epoch) == ht->epoch_seen &&
               !atomic_load(&l->failed)) {
            if (wk->asleep == wk->live) {   /* nobody left who could write */
                report_no_progress(run, ht, executed);
                pthread_cond_broadcast(&wk->cond);
                ok = false;
                break;
            }
            pthread_cond_wait(&wk->cond, &wk->lock);
        }
        if (atomic_load(&l->wakes) == wakes && wk->asleep) wk->asleep--;   /* a wake resets the count */
    }
    pthread_mutex_unlock(&wk->lock);
    atomic_fetch_sub(&run->parked, 1);
    return ok;
}

/* After a pass over the resident workgroups: advance the launch's progress epoch, or, when no
 * host thread has progressed for stall_limit warp-instructions, look for the proof that the
 * launch is stuck (then park, and stop the launch when every host thread is stuck). */
static bool watch_progress(launch_run *run, host_thread *ht, bool progressed)
{
    uint64_t executed = atomic_load_explicit(&run->shared.executed, memory_order_relaxed);
    if (progressed) {
        ht->epoch_seen = atomic_fetch_add(&run->shared.progress_epoch, 1) + 1;
        ht->executed_at_epoch = executed;
        if (atomic_load(&run->parked)) umb_launch_wake(run->launch);   /* parked threads look again */
        return true;
    }
    uint64_t epoch = atomic_load(&run->shared.progress_epoch);
    if (epoch != ht->epoch_seen) {
        ht->epoch_seen = epoch;
        ht->executed_at_epoch = executed;
        return true;
    }
    if (executed - ht->executed_at_epoch < umb_device_get_config(run->launch->dev)->stall_limit) return true;
    if (!prove_stuck(run, ht)) {
        /* a long computation, or the proof's own steps wrote: as progress (parked threads look again) */
        ht->epoch_seen = atomic_fetch_add(&run->shared.progress_epoch, 1) + 1;
        ht->executed_at_epoch = atomic_load_explicit(&run->shared.executed, memory_order_relaxed);
        if (atomic_load(&run->parked)) umb_launch_wake(run->launch);
        return true;
    }
    ht->executed_at_epoch = executed;
    return park_until_progress(run, ht, executed);
}

/* Every host thread still running sleeps with all its workgroups waiting (called with the wake
 * lock held): no wave is left that could end a wait. */
static void report_wait_deadlock(launch_run *run, host_thread *ht)
{
    umb_launch *l = run->launch;
    char waves[700] = "";
    size_t n = 0;
    uint32_t resident = 0, listed = 0;
    for (uint32_t i = 0; i < ht->nslots; i++) {
        if (!ht->slots[i].live || !ht->slots[i].started) continue;
        resident++;
        umb_workgroup *wg = &ht->slots[i].wg;
        for (uint32_t w = 0; w < wg->nwarps && listed < 3 && n < sizeof waves; w++) {
            umb_warp *wp = &wg->warps[w];
            if (wp->state != UMB_WARP_WAITING) continue;
            char why[256] = "waits", at[256];
            if (l->fe->wait_describe) l->fe->wait_describe(l->kernel, wp, why, sizeof why);
            describe_warp(l, wp, at, sizeof at);
            n += (size_t)snprintf(waves + n, sizeof waves - n, "%sworkgroup (%u,%u,%u) warp %u %s, next %s",
                                  listed ? "; " : "", wg->id[0], wg->id[1], wg->id[2], w, why, at);
            listed++;
        }
    }
    uint64_t total = run->shared.wgs_total, started = atomic_load(&run->wgs_started);
    char unstarted[256] = "";
    if (started < total)
        snprintf(unstarted, sizeof unstarted, ", %" PRIu64 " never started: the device holds %u per CU x %u CUs at once",
                 total - started, l->concurrent_wgs ? (l->wgs_per_cu ? l->wgs_per_cu : 1u) : 1u, launch_cus(l));
    char msg[sizeof l->fault.message];
    snprintf(msg, sizeof msg,
             "kernel %s: waves wait at a GWS barrier or semaphore that can never release them: every wave that "
             "has not ended waits for waves of other workgroups (%" PRIu64 " of %" PRIu64
             " workgroups done%s; %u resident on this host thread): %s",
             l->kernel_name ? l->kernel_name : "?", atomic_load(&run->shared.wgs_done), total, unstarted, resident,
             waves);
    if (!claim_failure(l)) return;
    l->fault.status = UMB_ERR_DEADLOCK;
    memcpy(l->fault.message, msg, sizeof msg);
}

/* All of this host thread's resident workgroups wait (for waves of other workgroups): sleep until
 * umb_launch_wake, unless one came since the pass began (`wakes` then). False on deadlock. */
static bool sleep_until_woken(launch_run *run, host_thread *ht, uint64_t wakes)
{
    umb_launch *l = run->launch;
    umb_wake *wk = &run->wake;
    bool ok = true;
    pthread_mutex_lock(&wk->lock);
    if (atomic_load(&l->wakes) == wakes && !atomic_load(&l->failed)) {
        wk->asleep++;
        while (atomic_load(&l->wakes) == wakes && !atomic_load(&l->failed)) {
            if (wk->asleep == wk->live) {   /* nobody left to wake anyone */
                report_wait_deadlock(run, ht);
                pthread_cond_broadcast(&wk->cond);
                ok = false;
                break;
            }
            pthread_cond_wait(&wk->cond, &wk->lock);
        }
        if (atomic_load(&l->wakes) == wakes && wk->asleep) wk->asleep--;   /* a wake resets the count */
    }
    pthread_mutex_unlock(&wk->lock);
    return ok;
}

/* This host thread is done with the launch: if every other one still running sleeps, one of them
 * must see that nobody is left to wake it. */
static void leave_launch(launch_run *run)
{
    umb_wake *wk = &run->wake;
    pthread_mutex_lock(&wk->lock);
    wk->live--;
    if (wk->live && wk->asleep == wk->live) pthread_cond_broadcast(&wk->cond);
    pthread_mutex_unlock(&wk->lock);
}

/* Workgroups of the CUs this host thread simulates, resident in ht->slots, in dispatch order. */
static void *host_thread_main(void *arg)
{
    host_thread *ht = arg;
    launch_run *run = ht->run;
    umb_launch *l = run->launch;
    umb_status st = UMB_OK;
    uint32_t live = 0;
    for (uint32_t i = 0; i < ht->nslots; i++) {
        refill(run, ht, &ht->slots[i]);
        live += ht->slots[i].live;
    }
    while (st == UMB_OK && live && !atomic_load_explicit(&l->failed, memory_order_relaxed)) {
        bool pass_progressed = false, all_blocked = true;
        uint64_t wakes = atomic_load(&l->wakes);   /* before any wait is looked at */
        for (uint32_t i = 0; i < ht->nslots && st == UMB_OK; i++) {
            wg_slot *s = &ht->slots[i];
            if (!s->live) continue;
            if (!s->started && (st = start_workgroup(run, ht, s)) != UMB_OK) break;
            bool finished, progressed, blocked;
            st = run_warps(run, &s->wg, &finished, &progressed, &blocked);
            pass_progressed |= progressed | finished;
            all_blocked &= blocked && !progressed;
            if (st != UMB_OK || !finished) continue;
            finish_workgroup(run, ht, s);
            live--;
            atomic_fetch_add(&run->shared.wgs_done, 1);
            if (ht->index == 0) maybe_progress(run, false);
            refill(run, ht, s);
            live += s->live;
        }
        if (st == UMB_OK && !watch_progress(run, ht, pass_progressed)) st = UMB_ERR_DEADLOCK;
        if (st == UMB_OK && live && all_blocked && !sleep_until_woken(run, ht, wakes)) st = UMB_ERR_DEADLOCK;
    }
    leave_launch(run);
    for (uint32_t i = 0; i < ht->nslots; i++) finish_workgroup(run, ht, &ht->slots[i]);
    ht->status = st;
    return NULL;
}

/* Resident workgroups of host thread t: wgs_per_cu on each of its CUs (CU c holds workgroups
 * i with i % ncu == c; its CUs are t, t + nthreads, ...), never more than it has workgroups. */
static uint32_t slots_of_thread(const umb_launch *l, uint32_t ncu, uint32_t t, uint32_t nthreads, uint64_t wgs)
{
    if (!l->concurrent_wgs) return 1;
    uint64_t per_cu = l->wgs_per_cu ? l->wgs_per_cu : 1, n = 0, mine = 0;
    for (uint32_t c = t; c < ncu; c += nthreads) {
        n += per_cu;
        mine += wgs / ncu + (c < wgs % ncu);
    }
    if (n > mine) n = mine;
    return n ? (uint32_t)(n < UINT32_MAX ? n : UINT32_MAX) : 1;
}

static umb_status check_launch(umb_launch *l)
{
    if (!l->fe || !l->fe->step || !l->fe->warp_init) return UMB_ERR_INVALID;
    if (l->all_resident && !umb_device_get_config(l->dev)->timing) {   /* (the timing model checks its own) */
        uint64_t wgs = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
        uint64_t holds = l->concurrent_wgs ? (uint64_t)(l->wgs_per_cu ? l->wgs_per_cu : 1) * launch_cus(l) : 1;
        if (wgs > holds) {
            umb_device_set_error(l->dev, "launch %s: %" PRIu64 " workgroups must be resident at once, but the device "
                                 "holds %" PRIu64, l->kernel_name ? l->kernel_name : "?", wgs, holds);
            return UMB_ERR_INVALID;
        }
    }
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
    atomic_store(&l->wakes, 0);
    l->wake = NULL;

    const umb_device_config *cfg = umb_device_get_config(l->dev);
    if (cfg->timing) return umb_timing_run_launch(cfg->timing, l, stats);   /* src/timing */
    launch_run run = {.launch = l};
    run.shared.wgs_total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    run.shared.budget = cfg->max_instructions;
    run.shared.start = now_seconds();
    run.shared.progress = cfg->progress && isatty(STDERR_FILENO);

    uint32_t nthreads = cfg->host_threads, ncus = launch_cus(l);
    if (nthreads > ncus) nthreads = ncus;
    if (nthreads > run.shared.wgs_total) nthreads = (uint32_t)run.shared.wgs_total;
    host_thread *hts = calloc(nthreads, sizeof *hts);
    pthread_t *tids = calloc(nthreads, sizeof *tids);
    if (!hts || !tids) {
        free(hts), free(tids);
        return UMB_ERR_NOMEM;
    }
    st = UMB_OK;
    uint32_t started = 0;
    for (uint32_t t = 0; t < nthreads && st == UMB_OK; t++) {
        hts[t] = (host_thread){.run = &run, .index = t, .count = nthreads};
        hts[t].nslots = slots_of_thread(l, ncus, t, nthreads, run.shared.wgs_total);
        hts[t].slots = calloc(hts[t].nslots, sizeof *hts[t].slots);
        hts[t].locals = calloc(hts[t].nslots, sizeof *hts[t].locals);
        if (!hts[t].slots || !hts[t].locals) st = UMB_ERR_NOMEM;
    }
    pthread_mutex_init(&run.wake.lock, NULL);
    pthread_cond_init(&run.wake.cond, NULL);
    run.wake.live = nthreads;
    l->wake = &run.wake;
    if (st == UMB_OK) {
        /* Thread 0 runs on the calling thread; the others on their own. */
        for (uint32_t t = 1; t < nthreads; t++) {
            if (pthread_create(&tids[t], NULL, host_thread_main, &hts[t]) != 0) {
                pthread_mutex_lock(&run.wake.lock);
                run.wake.live -= nthreads - t;   /* threads t.. never run */
                pthread_mutex_unlock(&run.wake.lock);
                launch_fail(l, UMB_ERR_NOMEM, "could not start host thread %u", t);
                break;
            }
            started = t;
        }
        host_thread_main(&hts[0]);
        for (uint32_t t = 1; t <= started; t++) pthread_join(tids[t], NULL);
    }
    l->wake = NULL;
    pthread_cond_destroy(&run.wake.cond);
    pthread_mutex_destroy(&run.wake.lock);
    if (run.shared.progress && now_seconds() - run.shared.start >= 1.0) maybe_progress(&run, true);

    umb_stats sum = {0};
    for (uint32_t t = 0; t < nthreads; t++) {
        umb_stats_add(&sum, &hts[t].stats);
        for (uint32_t i = 0; i < hts[t].nlocals; i++) umb_mem_destroy(hts[t].locals[i]);
        free(hts[t].locals);
        free(hts[t].slots);
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
