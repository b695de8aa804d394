/* umb_spin_barrier (src/core/spin_barrier.h): after each meeting every thread sees what every
 * other thread wrote before it, meetings never overlap, and it works both spinning (threads <= CPUs)
 * and sleeping (more threads than CPUs, and a thread that arrives long after the others). And the
 * spinning adapts: a thread that is late at every meeting makes the early one give up spinning
 * (UMB_SPIN_LOST_LIMIT lost spins in a row), and meetings stay correct while it sleeps at once. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "core/spin_barrier.h"

#define MAX_THREADS 16

typedef struct shared {
    umb_spin_barrier b;
    uint32_t threads, rounds;
    uint64_t slot[MAX_THREADS];   /* plain writes: the barrier orders them */
    _Atomic uint64_t wrong;       /* rounds in which a thread saw a stale or early value */
    uint32_t late_every;          /* thread 0 sleeps 2 ms before arriving at every n-th round */
} shared;

typedef struct arg {
    shared *s;
    uint32_t index;
} arg;

static void *run(void *p)
{
    arg *a = p;
    shared *s = a->s;
    for (uint32_t r = 1; r <= s->rounds; r++) {
        s->slot[a->index] = r;   /* this round's value */
        if (a->index == 0 && s->late_every && r % s->late_every == 0) {
            struct timespec ts = { 0, 2000000 };
            nanosleep(&ts, NULL);   /* beyond the spin bound: the others sleep */
        }
        umb_spin_barrier_wait(&s->b);
        for (uint32_t k = 0; k < s->threads; k++)   /* everyone's write of round r, none of r + 1 */
            if (s->slot[k] != r) atomic_fetch_add(&s->wrong, 1);
        umb_spin_barrier_wait(&s->b);   /* nobody writes round r + 1 before all have read */
    }
    return NULL;
}

static void meet(uint32_t threads, uint32_t rounds, uint32_t late_every)
{
    shared *s = calloc(1, sizeof *s);
    CHECK(s != NULL);
    if (!s) return;
    s->threads = threads, s->rounds = rounds, s->late_every = late_every;
    umb_spin_barrier_init(&s->b, threads);
    pthread_t th[MAX_THREADS];
    arg args[MAX_THREADS];
    uint32_t started = 0;
    for (; started < threads; started++) {
        args[started] = (arg){ s, started };
        if (pthread_create(&th[started], NULL, run, &args[started])) break;
    }
    CHECK_EQ_U64(started, threads);
    for (uint32_t i = 0; i < started; i++) pthread_join(th[i], NULL);
    CHECK_EQ_U64(atomic_load(&s->wrong), 0);
    CHECK_EQ_U64(atomic_load(&s->b.generation), 2ull * rounds);   /* one generation a meeting */
    CHECK_EQ_U64(atomic_load(&s->b.sleepers), 0);
    free(s);
}

/* Thread 0 of two arrives 2 ms late at `late` meetings in a row (far beyond the 50 us spin), then
 * both meet `quick` more times checking each other's writes. Returns the largest count of lost
 * spins thread 1 saw after a late meeting. */
typedef struct lateness {
    umb_spin_barrier b;
    uint32_t late, quick;
    uint64_t slot[2];
    _Atomic uint64_t wrong;
    uint32_t most_lost;
} lateness;

typedef struct late_arg {
    lateness *s;
    uint32_t index;
} late_arg;

static void *late_run(void *p)
{
    late_arg *a = p;
    lateness *s = a->s;
    for (uint32_t r = 1; r <= s->late; r++) {
        if (a->index == 0) {
            struct timespec ts = { 0, 2000000 };
            nanosleep(&ts, NULL);
        }
        umb_spin_barrier_wait(&s->b);
        uint32_t lost = atomic_load(&s->b.spins_lost);
        if (a->index == 1 && lost > s->most_lost) s->most_lost = lost;
    }
    for (uint32_t r = 1; r <= s->quick; r++) {
        s->slot[a->index] = r;
        umb_spin_barrier_wait(&s->b);
        if (s->slot[0] != r || s->slot[1] != r) atomic_fetch_add(&s->wrong, 1);
        umb_spin_barrier_wait(&s->b);
    }
    return NULL;
}

static void adaptive_spinning(void)
{
    lateness *s = calloc(1, sizeof *s);
    CHECK(s != NULL);
    if (!s) return;
    s->late = 40, s->quick = 500;
    umb_spin_barrier_init(&s->b, 2);
    pthread_t th[2];
    late_arg args[2] = { { s, 0 }, { s, 1 } };
    CHECK(pthread_create(&th[0], NULL, late_run, &args[0]) == 0);
    CHECK(pthread_create(&th[1], NULL, late_run, &args[1]) == 0);
    pthread_join(th[0], NULL);
    pthread_join(th[1], NULL);
    if (s->b.spin_ns)   /* (a one-CPU machine never spins) */
        CHECK_EQ_U64(s->most_lost, UMB_SPIN_LOST_LIMIT);   /* the early thread gave up spinning */
    CHECK_EQ_U64(atomic_load(&s->wrong), 0);               /* and meetings stayed correct */
    CHECK_EQ_U64(atomic_load(&s->b.generation), s->late + 2ull * s->quick);
    free(s);
}

int main(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    meet(1, 1000, 0);                          /* alone: never waits */
    meet(2, 20000, 0);                         /* the timing model's case */
    meet(2, 200, 10);                          /* a late thread: the other sleeps on the futex */
    uint32_t many = cpus > 0 && cpus < 8 ? (uint32_t)cpus * 2 : 16;
    meet(many, 2000, 0);                       /* more threads than CPUs: no spinning at all */
    adaptive_spinning();
    umb_spin_barrier lone;
    umb_spin_barrier_init(&lone, (uint32_t)(cpus > 0 ? cpus + 1 : 2));
    CHECK_EQ_U64(lone.spin_ns, 0);             /* spinning only while each thread has a CPU */
    umb_spin_barrier_init(&lone, 1);
    CHECK(lone.spin_ns > 0);
    fprintf(stderr, "test_spin_barrier: %d passed, %d failed\n", check_passes, check_failures);
    return check_failures ? 1 : 0;
}
