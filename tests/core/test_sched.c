/* The core scheduler with a scripted toy front end: barriers, deadlock, budget, faults,
 * multi-threaded dispatch, waits across workgroups (UMB_WARP_WAITING). */
#include <pthread.h>
#include <stdlib.h>

#include "check.h"
#include "core/core.h"
#include "umbra/umbra.h"

enum toy_op { TOY_STORE_ID, TOY_SUM_ALL, TOY_BARRIER, TOY_EXIT, TOY_JUMP0, TOY_FAULT, TOY_GRID_WAIT, TOY_SUM_GRID };

typedef struct toy_kernel {
    umb_device *dev;
    const enum toy_op *script[8]; /* per warp id */
    uint64_t base;                /* global buffer */
    /* TOY_GRID_WAIT: a barrier of `grid_warps` warps across workgroups (like a GWS barrier) */
    pthread_mutex_t lock;
    uint32_t grid_warps, arrived;
    uint64_t completions;
    uint32_t grid_wgs;            /* TOY_SUM_GRID: workgroups whose first slot it sums */
} toy_kernel;

typedef struct toy_warp { uint32_t pc; uint64_t ticket; } toy_warp;

static umb_status toy_warp_init(void *k, umb_warp *w)
{
    (void)k;
    w->isa = calloc(1, sizeof(toy_warp));
    return w->isa ? UMB_OK : UMB_ERR_NOMEM;
}

static void toy_warp_fini(void *k, umb_warp *w) { (void)k; free(w->isa); }

static uint64_t slot(const toy_kernel *k, const umb_warp *w, uint32_t warp)
{
    return k->base + (w->wg->linear_id * 8 + warp) * 4;
}

static umb_warp_state toy_step(void *kp, umb_warp *w, uint32_t max, uint64_t *executed)
{
    toy_kernel *k = kp;
    toy_warp *t = w->isa;
    umb_mem *mem = umb_device_memory(k->dev);
    for (uint32_t n = 0; n < max; n++) {
        enum toy_op op = k->script[w->id][t->pc++];
        w->pc = t->pc;
        ++*executed;
        umb_count_insn(w->wg->stats, UMB_CLASS_OTHER, w->width, w->width);
        switch (op) {
        case TOY_STORE_ID: {
            uint32_t v = (uint32_t)(w->wg->linear_id * 100 + w->id + 1);
            umb_mem_store(mem, slot(k, w, w->id), &v, 4);
            break;
        }
        case TOY_SUM_ALL: {
            uint32_t sum = 0, v;
            for (uint32_t i = 0; i < w->wg->nwarps; i++) {
                umb_mem_load(mem, slot(k, w, i), &v, 4);
                sum += v;
            }
            umb_mem_store(mem, slot(k, w, w->id) + 0x1000, &sum, 4);
            break;
        }
        case TOY_BARRIER: return UMB_WARP_AT_BARRIER;
        case TOY_GRID_WAIT: {
            pthread_mutex_lock(&k->lock);
            bool last = ++k->arrived == k->grid_warps;
            if (last) k->arrived = 0, k->completions++;
            t->ticket = k->completions;
            pthread_mutex_unlock(&k->lock);
            if (!last) return UMB_WARP_WAITING;
            w->wg->stats->barriers++;
            umb_launch_wake(w->wg->launch);
            break;
        }
        case TOY_SUM_GRID: {
            uint32_t sum = 0, v;
            for (uint32_t g = 0; g < k->grid_wgs; g++) {
                umb_mem_load(mem, k->base + g * 8 * 4, &v, 4);
                sum += v;
            }
            umb_mem_store(mem, slot(k, w, w->id) + 0x1000, &sum, 4);
            break;
        }
        case TOY_EXIT: return UMB_WARP_EXITED;
        case TOY_JUMP0: t->pc = 0; break;
        case TOY_FAULT: return umb_fault_report(w, UMB_ERR_GUEST_FAULT, "toy fault at step %u", t->pc - 1);
        }
    }
    return UMB_WARP_RUNNABLE;
}

static void toy_describe(void *k, const umb_warp *w, char *buf, size_t len)
{
    (void)k;
    snprintf(buf, len, "toy PC %llu", (unsigned long long)w->pc);
}

static bool toy_wait_poll(void *kp, umb_warp *w)
{
    toy_kernel *k = kp;
    toy_warp *t = w->isa;
    pthread_mutex_lock(&k->lock);
    bool over = k->completions != t->ticket;
    pthread_mutex_unlock(&k->lock);
    return over;
}

static void toy_wait_describe(void *kp, const umb_warp *w, char *buf, size_t len)
{
    toy_kernel *k = kp;
    (void)w;
    pthread_mutex_lock(&k->lock);
    snprintf(buf, len, "waits at the toy grid barrier (%u of %u arrived)", k->arrived, k->grid_warps);
    pthread_mutex_unlock(&k->lock);
}

static umb_frontend toy_fe(bool counts_exited)
{
    return (umb_frontend){.name = "toy", .barrier_counts_exited = counts_exited, .warp_init = toy_warp_init,
                          .warp_fini = toy_warp_fini, .step = toy_step, .describe_pc = toy_describe,
                          .wait_poll = toy_wait_poll, .wait_describe = toy_wait_describe};
}

static umb_device *new_device(uint32_t cus, uint32_t threads, uint64_t budget)
{
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    cfg.compute_units = cus, cfg.host_threads = threads, cfg.max_instructions = budget, cfg.progress = false;
    umb_device *dev;
    if (umb_device_create(&cfg, &dev) != UMB_OK) abort();
    return dev;
}

static umb_status run(umb_device *dev, toy_kernel *k, const umb_frontend *fe, uint32_t wgs, uint32_t warps,
                      umb_stats *st)
{
    umb_launch l = {.dev = dev, .fe = fe, .kernel = k, .grid = {wgs, 1, 1}, .warps_per_wg = warps,
                    .threads_per_warp = 4, .kernel_name = "toy"};
    return umb_launch_run(&l, st);
}

/* Values stored before a barrier are visible to every warp after it. */
static void test_barrier_orders_memory(uint32_t cus, uint32_t threads)
{
    static const enum toy_op s0[] = {TOY_STORE_ID, TOY_BARRIER, TOY_SUM_ALL, TOY_EXIT};
    static const enum toy_op s1[] = {TOY_STORE_ID, TOY_STORE_ID, TOY_STORE_ID, TOY_BARRIER, TOY_SUM_ALL, TOY_EXIT};
    umb_device *dev = new_device(cus, threads, 0);
    toy_kernel k = {.dev = dev, .script = {s0, s1, s0}};
    CHECK(umb_mem_alloc(dev, 0x2000, 0, &k.base) == UMB_OK);
    umb_frontend fe = toy_fe(false);
    umb_stats st = {0};
    const uint32_t wgs = 16;
    CHECK(run(dev, &k, &fe, wgs, 3, &st) == UMB_OK);
    for (uint32_t g = 0; g < wgs; g++)
        for (uint32_t w = 0; w < 3; w++) {
            uint32_t v = 0;
            umb_mem_copy_from_device(dev, k.base + 0x1000 + (g * 8 + w) * 4, &v, 4);
            CHECK_EQ_U64(v, 3 * (g * 100) + 1 + 2 + 3);
        }
    CHECK_EQ_U64(st.workgroups, wgs);
    CHECK_EQ_U64(st.warps, wgs * 3);
    CHECK_EQ_U64(st.barriers, wgs);
    CHECK_EQ_U64(st.warp_insts, wgs * (4 + 6 + 4));
    CHECK_EQ_U64(st.launches, 1);
    umb_device_destroy(dev);
}

static void test_deadlock(void)
{
    static const enum toy_op ex[] = {TOY_EXIT};
    static const enum toy_op bar[] = {TOY_STORE_ID, TOY_BARRIER, TOY_EXIT};
    umb_device *dev = new_device(1, 1, 0);
    toy_kernel k = {.dev = dev, .script = {bar, ex, bar}};
    CHECK(umb_mem_alloc(dev, 0x2000, 0, &k.base) == UMB_OK);
    umb_frontend strict = toy_fe(false);
    CHECK(run(dev, &k, &strict, 1, 3, NULL) == UMB_ERR_DEADLOCK);
    CHECK_CONTAINS(umb_device_last_error(dev), "deadlock");
    CHECK_CONTAINS(umb_device_last_error(dev), "warps 0,2 wait at a barrier");
    CHECK_CONTAINS(umb_device_last_error(dev), "warps 1 have exited");
    /* AMD semantics: an exited wave no longer takes part in the barrier. */
    umb_frontend lenient = toy_fe(true);
    CHECK(run(dev, &k, &lenient, 1, 3, NULL) == UMB_OK);
    CHECK_EQ_U64(umb_device_last_error(dev)[0], 0);
    umb_device_destroy(dev);
}

static void test_budget_and_fault(void)
{
    static const enum toy_op spin[] = {TOY_STORE_ID, TOY_JUMP0};
    static const enum toy_op ok[] = {TOY_EXIT};
    static const enum toy_op bad[] = {TOY_STORE_ID, TOY_FAULT};
    umb_device *dev = new_device(1, 1, 1000);
    toy_kernel k = {.dev = dev, .script = {ok, spin}};
    CHECK(umb_mem_alloc(dev, 0x2000, 0, &k.base) == UMB_OK);
    umb_frontend fe = toy_fe(true);
    umb_stats st = {0};
    CHECK(run(dev, &k, &fe, 1, 2, &st) == UMB_ERR_BUDGET);
    CHECK_CONTAINS(umb_device_last_error(dev), "instruction budget of 1000");
    CHECK_CONTAINS(umb_device_last_error(dev), "warp 1, toy PC");
    CHECK(st.warp_insts > 1000 && st.warp_insts < 1010);
    toy_kernel k2 = {.dev = dev, .script = {ok, bad}, .base = k.base};
    CHECK(run(dev, &k2, &fe, 4, 2, NULL) == UMB_ERR_GUEST_FAULT);
    CHECK_CONTAINS(umb_device_last_error(dev), "kernel toy, workgroup (0,0,0), warp 1: toy fault at step 1");
    umb_device_destroy(dev);
}

static umb_status run_resident(umb_device *dev, toy_kernel *k, const umb_frontend *fe, uint32_t wgs, uint32_t warps,
                               uint32_t wgs_per_cu, umb_stats *st)
{
    umb_launch l = {.dev = dev, .fe = fe, .kernel = k, .grid = {wgs, 1, 1}, .warps_per_wg = warps,
                    .threads_per_warp = 4, .kernel_name = "toy", .concurrent_wgs = true, .wgs_per_cu = wgs_per_cu};
    return umb_launch_run(&l, st);
}

/* Waits across workgroups: every warp of the grid stores, waits at the toy grid barrier (a warp
 * that waits costs no instructions: its host thread sleeps when all its workgroups wait), then
 * sums what the first warp of every workgroup stored. Same results on 1..3 host threads; the
 * per-workgroup barrier after the wait still completes. */
static void test_grid_wait(uint32_t cus, uint32_t threads)
{
    static const enum toy_op s0[] = {TOY_STORE_ID, TOY_GRID_WAIT, TOY_SUM_GRID, TOY_BARRIER, TOY_GRID_WAIT, TOY_EXIT};
    static const enum toy_op s1[] = {TOY_STORE_ID, TOY_STORE_ID, TOY_GRID_WAIT, TOY_BARRIER, TOY_GRID_WAIT, TOY_EXIT};
    const uint32_t wgs = 12, warps = 2;
    umb_device *dev = new_device(cus, threads, 0);
    toy_kernel k = {.dev = dev, .script = {s0, s1}, .grid_warps = wgs * warps, .grid_wgs = wgs};
    pthread_mutex_init(&k.lock, NULL);
    CHECK(umb_mem_alloc(dev, 0x2000, 0, &k.base) == UMB_OK);
    umb_frontend fe = toy_fe(true);
    umb_stats st = {0};
    CHECK(run_resident(dev, &k, &fe, wgs, warps, (wgs + cus - 1) / cus, &st) == UMB_OK);
    uint32_t want = 0;
    for (uint32_t g = 0; g < wgs; g++) want += g * 100 + 1;
    for (uint32_t g = 0; g < wgs; g++) {
        uint32_t v = 0;
        umb_mem_copy_from_device(dev, k.base + 0x1000 + g * 8 * 4, &v, 4);
        CHECK_EQ_U64(v, want);
    }
    CHECK_EQ_U64(k.completions, 2);
    CHECK_EQ_U64(st.barriers, wgs + 2);   /* one workgroup barrier each, two grid barriers */
    CHECK_EQ_U64(st.warp_insts, wgs * (6 + 6));
    pthread_mutex_destroy(&k.lock);
    umb_device_destroy(dev);
}

/* More workgroups wait for each other than the device holds: the resident ones wait, the others
 * never start, and the launch stops naming the wait instead of hanging. */
static void test_grid_wait_deadlock(uint32_t cus, uint32_t threads)
{
    static const enum toy_op s0[] = {TOY_STORE_ID, TOY_GRID_WAIT, TOY_EXIT};
    const uint32_t wgs = 8;
    umb_device *dev = new_device(cus, threads, 0);
    toy_kernel k = {.dev = dev, .script = {s0}, .grid_warps = wgs, .grid_wgs = wgs};
    pthread_mutex_init(&k.lock, NULL);
    CHECK(umb_mem_alloc(dev, 0x2000, 0, &k.base) == UMB_OK);
    umb_frontend fe = toy_fe(true);
    CHECK(run_resident(dev, &k, &fe, wgs, 1, 2, NULL) == UMB_ERR_DEADLOCK);
    const char *e = umb_device_last_error(dev);
    CHECK_CONTAINS(e, "kernel toy: waves wait at a GWS barrier or semaphore that can never release them: every wave that has not ended waits for waves of other workgroups");
    CHECK_CONTAINS(e, "0 of 8 workgroups done");
    CHECK_CONTAINS(e, cus == 1 ? "6 never started" : "4 never started");
    CHECK_CONTAINS(e, "warp 0 waits at the toy grid barrier");
    pthread_mutex_destroy(&k.lock);
    umb_device_destroy(dev);
}

static void test_bad_launch(void)
{
    umb_device *dev = new_device(1, 1, 0);
    toy_kernel k = {.dev = dev};
    umb_frontend fe = toy_fe(true);
    CHECK(run(dev, &k, &fe, 0, 2, NULL) == UMB_ERR_INVALID);
    CHECK_CONTAINS(umb_device_last_error(dev), "grid dimension 0 is 0");
    umb_device_destroy(dev);
}

int main(void)
{
    test_barrier_orders_memory(1, 1);
    test_barrier_orders_memory(4, 2);   /* two host threads, four CUs: same results */
    test_barrier_orders_memory(3, 8);   /* more threads than CUs */
    test_deadlock();
    test_budget_and_fault();
    test_grid_wait(1, 1);
    test_grid_wait(4, 2);
    test_grid_wait(3, 3);
    test_grid_wait_deadlock(1, 1);
    test_grid_wait_deadlock(2, 2);
    test_bad_launch();
    return check_report("test_sched");
}
