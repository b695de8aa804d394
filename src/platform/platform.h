/* The platform layer: what umbra's two API rooms, the OpenCL platform (src/opencl) and the HIP
 * runtime (src/hip), share. Both are clients of libumbra's public API through this layer:
 *
 *   plat_device.c   the simulated device as the UMBRA_* environment describes it (compute units,
 *                   memory size, host threads, budget, timing machine, trace, statistics file),
 *                   host <-> device copies under the device lock, and host memory the device
 *                   maps at its own address (HIP's pinned memory, OpenCL's SVM)
 *   plat_launch.c   one kernel launch: the device lock, the timing model's cycles as simulated
 *                   nanoseconds, umbra's report on stderr when it fails, the statistics line
 *   plat_clock.c    host time, and the simulated duration of transfers (PCIe model) and copies
 *   plat_stream.c   the one queue/event engine: command streams run by worker threads (in order
 *                   or out of order), events with statuses and hooks, dependencies on positions
 *                   in other streams and on events; HIP streams and OpenCL command queues both
 *                   run on it (docs/HIP.md "Architecture", docs/OPENCL.md "Execution")
 *
 * Environment (set by `umbra opencl` / `umbra hip` from their options): UMBRA_THREADS, UMBRA_CUS,
 * UMBRA_GLOBAL_MEM, UMBRA_MAX_INSTRUCTIONS, UMBRA_MAX_WORK_GROUP_SIZE, UMBRA_TIMING, UMBRA_TRACE,
 * UMBRA_CHECK_WAITCNT, UMBRA_STATS.
 */
#ifndef UMBRA_PLATFORM_H
#define UMBRA_PLATFORM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "umbra/rdna3.h"
#include "umbra/timing.h"
#include "umbra/umbra.h"

/* The device lock: one launch or copy at a time. Threads waiting for it are served most urgent
 * priority first (a stream's priority, plat_stream_set_priority), then in no particular order, so
 * that when streams contend for the device the higher-priority stream's next command starts
 * first, as a GPU's dispatcher favours a high-priority queue's work (CUDA/HIP stream priorities). */
enum { PLAT_PRIORITY_HIGH = -1, PLAT_PRIORITY_NORMAL = 0, PLAT_PRIORITY_LOW = 1, PLAT_PRIORITY_LEVELS = 3 };
typedef struct plat_device_lock {
    pthread_mutex_t m;
    pthread_cond_t free;
    bool held;
    uint32_t waiting[PLAT_PRIORITY_LEVELS];   /* by priority, most urgent first */
} plat_device_lock;

typedef struct umb_platform {
    const char *who;              /* "umbra opencl", "umbra hip": the prefix of every message */
    umb_device *dev;
    plat_device_lock run_lock;    /* one launch or copy at a time (plat_lock / plat_unlock) */
    uint64_t global_mem_size;     /* UMBRA_GLOBAL_MEM, default the RX 7900 XTX's 24 GiB */
    uint32_t compute_units;       /* UMBRA_CUS, default the XTX's 96 (or the timing machine's) */
    uint32_t reported_units;      /* what ROCm's OpenCL and HIP report: WGPs of 2 CUs (plat_reported_units) */
    uint32_t max_work_group;      /* UMBRA_MAX_WORK_GROUP_SIZE (OpenCL), default 256 */
    uint32_t max_work_item;       /* per dimension, and the bound of any kernel's work-group */
    uint32_t clock_mhz;           /* engine clock: 2500 (the XTX's boost), or the timing machine's */
    uint32_t host_threads;        /* UMBRA_THREADS */
    umb_timing *timing;           /* UMBRA_TIMING: every launch on this timing model */
    FILE *trace;                  /* UMBRA_TRACE */
    bool check_waitcnt;           /* UMBRA_CHECK_WAITCNT */
    bool rocm_identity;           /* UMBRA_IDENTITY=rocm: the OpenCL platform names itself as ROCm's
                                     does for an RX 7900 XTX (vendor, names, AMD's attribute queries),
                                     so that programs take the code paths they take on the card */
    uint32_t jit;                 /* UMBRA_JIT: UMB_RDNA3_JIT_* */
    bool jit_log;                 /* UMBRA_JIT_LOG: a line on stderr per translation */
    char jit_cache_dir[4096];     /* translations' machine code for later processes ("": none):
                                     the compile cache's folder (umb_cache_default_dir) */
    char stats_path[4096];        /* UMBRA_STATS: append each kernel's statistics */
} umb_platform;

/* Where device allocations go (0, 0: libumbra's default heap). */
typedef struct plat_heap {
    uint64_t base, size;
} plat_heap;

/* Take / release the device lock; the calling thread's priority (plat_thread_priority) decides
 * its turn among waiting threads. */
void plat_lock(umb_platform *pl);
void plat_unlock(umb_platform *pl);
/* The priority the calling thread waits for the device with (a stream's worker: its stream's;
 * other threads: PLAT_PRIORITY_NORMAL); values outside HIGH..LOW are clamped. */
void plat_set_thread_priority(int priority);
int plat_thread_priority(void);

/* Read the environment and create the device. False: a message naming the variable was printed. */
bool plat_init(umb_platform *pl, const char *who, plat_heap heap);
/* The compute units ROCm's OpenCL (CL_DEVICE_MAX_COMPUTE_UNITS) and HIP (multiProcessorCount)
 * report for a gfx10+ GPU: its runtime (CLR) runs these in WGP mode and divides the CU count by two,
 * so an RX 7900 XTX (96 CUs) reports 48; a 1-CU device reports 1. */
uint32_t plat_reported_units(uint32_t compute_units);
/* The card's name as ROCm gives it (rocminfo's marketing name; OpenCL's CL_DEVICE_BOARD_NAME_AMD,
 * HIP's device name with UMBRA_IDENTITY=rocm): "Radeon RX 7900 XTX" for the XTX's 96 CUs, else the
 * name ROCm gives a board it does not know. */
const char *plat_board_name(const umb_platform *pl);
/* The largest single allocation: a quarter of the memory, at least 128 MiB (OpenCL's rule). */
uint64_t plat_max_alloc(const umb_platform *pl);

/* Device memory, each call under the device lock. */
umb_status plat_alloc(umb_platform *pl, uint64_t size, uint64_t *addr);
umb_status plat_free(umb_platform *pl, uint64_t addr);
umb_status plat_to_device(umb_platform *pl, uint64_t addr, const void *src, uint64_t size);
umb_status plat_from_device(umb_platform *pl, uint64_t addr, void *dst, uint64_t size);
umb_status plat_device_copy(umb_platform *pl, uint64_t dst, uint64_t src, uint64_t size);
umb_status plat_fill(umb_platform *pl, uint64_t addr, const void *pattern, uint32_t pattern_size, uint64_t size);

/* Device addresses equal to host ones (HIP's host-mapped memory, OpenCL's SVM): a range of the
 * host's address space reserved (no access, no backing) for the device heap, so that no host
 * allocation can ever land where device memory is, and host pages mapped into the device at
 * their own address.
 * plat_reserve_heap: 256 GiB, or less where the address space is limited (under valgrind, with
 * ulimit -v): halving down to 4 GiB; false if even that fails. */
bool plat_reserve_heap(plat_heap *out);
/* Map [host, host+size) (page aligned) into the device at the same address; under the device
 * lock. plat_unmap_host removes it (the host memory stays the caller's). */
umb_status plat_map_host(umb_platform *pl, void *host, uint64_t size);
void plat_unmap_host(umb_platform *pl, void *host, uint64_t size);
/* Host memory (zeroed, page aligned) that the device sees at the same address; NULL if the host
 * is out of memory. plat_host_free takes the size given to plat_host_alloc. */
void *plat_host_alloc(umb_platform *pl, uint64_t size);
void plat_host_free(umb_platform *pl, void *p, uint64_t size);

/* One launch. d->trace, d->check_waitcnt, d->jit come from the platform; the caller fills the rest
 * (kernel, sizes, arguments, printf callback). *device_ns (may be NULL) gets the simulated
 * duration when a timing machine is set, else 0. A failure is reported on stderr
 * ("<who>: kernel K failed (STATUS):" and libumbra's message) and returned. */
umb_status plat_run(umb_platform *pl, const umb_rdna3_program *p, umb_rdna3_dispatch *d, uint64_t *device_ns);

/* ---- clocks: plat_clock.c ---- */
uint64_t plat_host_ns(void);
uint64_t plat_cycles_to_ns(const umb_platform *pl, uint64_t cycles);
uint64_t plat_host_link_ns(uint64_t bytes);     /* a DMA transfer over PCIe 4.0 x16 */
uint64_t plat_device_copy_ns(uint64_t bytes);   /* bytes read and written once each in VRAM */
uint64_t plat_device_fill_ns(uint64_t bytes);   /* bytes written in VRAM */


/* ---- command streams and events: plat_stream.c ----
 * The one queue/event engine of both API rooms: HIP streams and OpenCL command queues are
 * plat_streams, OpenCL events are plat_events.
 *
 * A stream runs its commands on a worker thread of its own. Command n of a stream has sequence
 * number n (from 1). In order (the default), a command starts once the one before it has
 * finished and its dependencies hold; out of order (PLAT_STREAM_OUT_OF_ORDER) the worker runs,
 * one at a time, the oldest command whose dependencies hold, so a command blocked on an event the
 * host has not set does not hold back later independent ones.
 *
 * A dependency is either a position (stream, seq): it holds once that stream has completed every
 * command up to seq (its "completed" mark; out of order, the commands before the oldest one still
 * pending), so that a command can wait for work of other streams (HIP's events, the null stream's
 * rules) without the streams knowing each other; or an event: it holds once the event is
 * complete or failed. A command with a failed event among its dependencies does not run: it
 * completes with PLAT_DEPENDENCY_FAILED.
 *
 * An event has a status: PLAT_QUEUED, PLAT_SUBMITTED, PLAT_RUNNING, then PLAT_COMPLETE or a
 * negative error (the values of OpenCL's execution statuses). A command's event (plat_cmd.event)
 * is moved by the worker: SUBMITTED and RUNNING when it starts, then the command's status after
 * run. A host event (clCreateUserEvent) is set by plat_event_set. An event's hooks see each
 * change: stamp before the new status can be seen (profiling times, output that must precede
 * completion), notify after it (callbacks); both run outside the engine's lock, on the thread
 * that made the change.
 *
 * A command of an out-of-order stream always has an event (the engine makes one if the client
 * gave none). There, PLAT_CMD_AFTER_ALL makes a command also wait for every command of the
 * stream not complete when it is enqueued, and PLAT_CMD_FENCE makes every later command wait for
 * it (OpenCL's barriers and markers); in order, both say nothing more than the order does.
 *
 * One lock and one condition serve every stream and event. A stream lives while it is referenced
 * (by its creator, by commands depending on it, by whoever holds a position in it); an event while
 * it is referenced (by its owner, by the command it belongs to, by commands depending on it). */
typedef struct plat_stream plat_stream;
typedef struct plat_event plat_event;

enum {
    PLAT_COMPLETE = 0, PLAT_RUNNING = 1, PLAT_SUBMITTED = 2, PLAT_QUEUED = 3,
    PLAT_DEPENDENCY_FAILED = -14,  /* = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST */
};

typedef struct plat_event_hooks {
    void (*stamp)(plat_event *e, int status);    /* before status becomes visible (may be NULL) */
    void (*notify)(plat_event *e, int status);   /* after (may be NULL) */
} plat_event_hooks;

/* A new event with one reference (the caller's) and the given status; hooks (may be NULL) and
 * owner are the client's. NULL: out of memory. */
plat_event *plat_event_create(int status, const plat_event_hooks *hooks, void *owner);
void *plat_event_owner(const plat_event *e);
void plat_event_retain(plat_event *e);
void plat_event_release(plat_event *e);
int plat_event_status(plat_event *e);
/* The host sets an event (status PLAT_COMPLETE or negative, or an intermediate one); false if it
 * was already complete or failed, or another thread is completing it. */
bool plat_event_set(plat_event *e, int status);
/* Until the event is complete or failed; returns that status. */
int plat_event_wait(plat_event *e);

typedef struct plat_dep {
    plat_stream *stream;          /* a position: (stream, seq) */
    uint64_t seq;
    plat_event *event;            /* or, when not NULL, this event */
} plat_dep;

enum { PLAT_CMD_AFTER_ALL = 1u << 0, PLAT_CMD_FENCE = 1u << 1 };   /* plat_cmd.flags */

typedef struct plat_cmd plat_cmd;
struct plat_cmd {
    plat_cmd *next;
    /* On the worker thread, once every dependency holds and none failed; status is
     * PLAT_COMPLETE on entry, run may set a negative one (it becomes the event's). */
    void (*run)(plat_cmd *c);
    void (*done)(plat_cmd *c);    /* frees the command (NULL: free(c)); it has completed */
    plat_event *event;            /* optional: the engine takes over one reference */
    unsigned flags;               /* PLAT_CMD_* */
    int status;
    plat_dep *deps;               /* retained; freed by the stream */
    uint32_t ndeps;
    uint64_t seq;
};

enum { PLAT_STREAM_OUT_OF_ORDER = 1u << 0 };

plat_stream *plat_stream_create(void *owner, unsigned flags);   /* NULL: out of memory or no thread */
/* The priority the stream's commands wait for the device with (PLAT_PRIORITY_*; default NORMAL). */
void plat_stream_set_priority(plat_stream *s, int priority);
void plat_stream_retain(plat_stream *s);
void plat_stream_release(plat_stream *s);
/* The creator lets go: the stream finishes what it holds, then its worker calls ended(owner) (if
 * not NULL) and ends. */
void plat_stream_close(plat_stream *s, void (*ended)(void *owner));
/* Append c; returns its sequence number. Each dependency is retained, and the deps array is
 * taken over when ndeps > 0 (with 0 the caller keeps it). 0: out of memory (out of order only);
 * c is not enqueued and the caller keeps c and deps. */
uint64_t plat_stream_enqueue(plat_stream *s, plat_cmd *c, plat_dep *deps, uint32_t ndeps);
uint64_t plat_stream_last(plat_stream *s);            /* sequence number of the newest command */
bool plat_stream_reached(plat_stream *s, uint64_t seq);
/* Until every command up to seq has completed (run, event set, done called). */
void plat_stream_wait(plat_stream *s, uint64_t seq);

#endif
