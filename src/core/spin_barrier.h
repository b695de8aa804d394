/* A barrier for host threads that meet thousands of times a second (the timing model's quanta).
 *
 * A pthread barrier puts every early thread to sleep and wakes it through the kernel: on a
 * virtual machine that costs 20-40 us a meeting, more than a 100-cycle quantum's work. Here an
 * early thread first spins (while a core is its own: the process's threads do not outnumber the
 * online CPUs), up to a bound in time, and only then sleeps on a futex; the last thread to arrive
 * wakes sleepers only if there are any. Reusable at once: a generation counter tells meetings
 * apart. Spinning adapts: after several meetings in a row in which a spin ran out (the other
 * threads were not running: a machine busy with other work), early threads sleep at once, and
 * try spinning again only now and then; a spin that succeeds turns it back on. On a loaded
 * machine a spin burns the time slice another thread of the same meeting is waiting for.
 *
 * Memory order: everything a thread wrote before umb_spin_barrier_wait is visible to every thread
 * after it returns (release by the arrival, acquire by the departure). */
#ifndef UMBRA_CORE_SPIN_BARRIER_H
#define UMBRA_CORE_SPIN_BARRIER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define UMB_SPIN_LOST_LIMIT 4u      /* lost spins in a row after which early threads sleep at once */
#define UMB_SPIN_RETRY_EVERY 64u    /* ... and spin again only at one meeting in this many */

typedef struct umb_spin_barrier {
    _Atomic uint32_t arrived;      /* threads at the current meeting */
    _Atomic uint32_t generation;   /* meetings completed; the futex word */
    _Atomic uint32_t sleepers;     /* threads in (or about to enter) futex wait */
    uint32_t count;                /* threads per meeting */
    uint32_t spin_ns;              /* how long an early thread spins before sleeping; 0: never */
    _Atomic uint32_t spins_lost;   /* meetings in a row whose spin ran out (capped) */
} umb_spin_barrier;

/* A barrier for `count` threads (>= 1). Spinning is on when count is at most the online CPUs. */
void umb_spin_barrier_init(umb_spin_barrier *b, uint32_t count);

/* Wait until `count` threads have called this for the current meeting. */
void umb_spin_barrier_wait(umb_spin_barrier *b);

#endif
