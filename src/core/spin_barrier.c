/* A spin-then-sleep barrier (spin_barrier.h). */
#include "spin_barrier.h"

#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Spin at most this long: about the cost of one sleep and wake-up through the kernel on the
 * virtual machines umbra is measured on (docs/PERFORMANCE.md), so a meeting never costs more than
 * twice what sleeping at once would (the classic bound for spin-then-block). */
#define SPIN_NS 50000u

void umb_spin_barrier_init(umb_spin_barrier *b, uint32_t count)
{
    atomic_init(&b->arrived, 0);
    atomic_init(&b->generation, 0);
    atomic_init(&b->sleepers, 0);
    atomic_init(&b->spins_lost, 0);
    b->count = count ? count : 1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    b->spin_ns = cpus > 0 && b->count <= (uint64_t)cpus ? SPIN_NS : 0;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Adaptive spinning: after UMB_SPIN_LOST_LIMIT meetings in a row whose spin ran out, early threads
 * sleep at once, spinning again only at one meeting in UMB_SPIN_RETRY_EVERY (to notice that the
 * machine has cores for them again). Two threads of a timing run on a two-core machine busy with
 * another job took twice a one-thread run's time when they spun at every meeting.
 * Whether an early thread of the meeting of generation `gen` spins at all: */
static bool spinning_pays(umb_spin_barrier *b, uint32_t gen)
{
    if (!b->spin_ns) return false;
    return atomic_load_explicit(&b->spins_lost, memory_order_relaxed) < UMB_SPIN_LOST_LIMIT || gen % UMB_SPIN_RETRY_EVERY == 0;
}

/* Record how a spin ended: a success clears the count of lost spins, a loss adds one (capped). */
static void spin_outcome(umb_spin_barrier *b, bool won)
{
    uint32_t lost = atomic_load_explicit(&b->spins_lost, memory_order_relaxed);
    uint32_t next = won ? 0 : lost < UMB_SPIN_LOST_LIMIT ? lost + 1 : lost;
    if (next != lost) atomic_store_explicit(&b->spins_lost, next, memory_order_relaxed);
}

/* True once the meeting of generation `gen` is over, spinning at most b->spin_ns. */
static bool spin_until_next(umb_spin_barrier *b, uint32_t gen)
{
    if (!spinning_pays(b, gen)) return false;
    uint64_t deadline = 0;
    for (uint32_t i = 1;; i++) {
        if (atomic_load_explicit(&b->generation, memory_order_acquire) != gen) return spin_outcome(b, true), true;
        cpu_relax();
        if (i % 64) continue;   /* read the clock now and then: it costs more than a pause */
        uint64_t t = now_ns();
        if (!deadline) deadline = t + b->spin_ns;
        else if (t >= deadline) return spin_outcome(b, false), false;
    }
}

void umb_spin_barrier_wait(umb_spin_barrier *b)
{
    uint32_t gen = atomic_load_explicit(&b->generation, memory_order_acquire);
    if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) + 1 == b->count) {
        /* the last to arrive: reset for the next meeting, then release this one */
        atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
        atomic_fetch_add_explicit(&b->generation, 1, memory_order_seq_cst);
        if (atomic_load_explicit(&b->sleepers, memory_order_seq_cst))
            syscall(SYS_futex, &b->generation, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
        return;
    }
    if (spin_until_next(b, gen)) return;
    /* Sleep. The increment of `sleepers` and the releaser's store of `generation` are both
       sequentially consistent: either the releaser sees a sleeper and wakes it, or the futex call
       finds the generation changed and returns at once. */
    atomic_fetch_add_explicit(&b->sleepers, 1, memory_order_seq_cst);
    while (atomic_load_explicit(&b->generation, memory_order_acquire) == gen)
        syscall(SYS_futex, &b->generation, FUTEX_WAIT_PRIVATE, gen, NULL, NULL, 0);
    atomic_fetch_sub_explicit(&b->sleepers, 1, memory_order_relaxed);
}
