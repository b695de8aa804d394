/* The platform layer: what umbra's two API rooms, the OpenCL platform (src/opencl) and the HIP
 * runtime (src/hip), share. Both are clients of libumbra's public API through this layer:
 *
 *   plat_device.c   the simulated device as the UMBRA_* environment describes it (compute units,
 *                   memory size, host threads, budget, timing machine, trace, statistics file),
 *                   and host <-> device copies under the device lock
 *   plat_launch.c   one kernel launch: the device lock, the timing model's cycles as simulated
 *                   nanoseconds, umbra's report on stderr when it fails, the statistics line
 *   plat_clock.c    host time, and the simulated duration of transfers (PCIe model) and copies
 *   plat_stream.c   an ordered command stream run by a worker thread, with events that other
 *                   streams and the host wait on (HIP streams; see docs/HIP.md)
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

typedef struct umb_platform {
    const char *who;              /* "umbra opencl", "umbra hip": the prefix of every message */
    umb_device *dev;
    pthread_mutex_t run_lock;     /* one launch or copy at a time */
    uint64_t global_mem_size;     /* UMBRA_GLOBAL_MEM, default the RX 7900 XTX's 24 GiB */
    uint32_t compute_units;       /* UMBRA_CUS, default the XTX's 96 (or the timing machine's) */
    uint32_t max_work_group;      /* UMBRA_MAX_WORK_GROUP_SIZE (OpenCL), default 256 */
    uint32_t max_work_item;       /* per dimension, and the bound of any kernel's work-group */
    uint32_t clock_mhz;           /* engine clock: 2500 (the XTX's boost), or the timing machine's */
    uint32_t host_threads;        /* UMBRA_THREADS */
    umb_timing *timing;           /* UMBRA_TIMING: every launch on this timing model */
    FILE *trace;                  /* UMBRA_TRACE */
    bool check_waitcnt;           /* UMBRA_CHECK_WAITCNT */
    char stats_path[4096];        /* UMBRA_STATS: append each kernel's statistics */
} umb_platform;

/* Where device allocations go (0, 0: libumbra's default heap). */
typedef struct plat_heap {
    uint64_t base, size;
} plat_heap;

/* Read the environment and create the device. False: a message naming the variable was printed. */
bool plat_init(umb_platform *pl, const char *who, plat_heap heap);
/* The largest single allocation: a quarter of the memory, at least 128 MiB (OpenCL's rule). */
uint64_t plat_max_alloc(const umb_platform *pl);

/* Device memory, each call under the device lock. */
umb_status plat_alloc(umb_platform *pl, uint64_t size, uint64_t *addr);
umb_status plat_free(umb_platform *pl, uint64_t addr);
umb_status plat_to_device(umb_platform *pl, uint64_t addr, const void *src, uint64_t size);
umb_status plat_from_device(umb_platform *pl, uint64_t addr, void *dst, uint64_t size);
umb_status plat_device_copy(umb_platform *pl, uint64_t dst, uint64_t src, uint64_t size);
umb_status plat_fill(umb_platform *pl, uint64_t addr, const void *pattern, uint32_t pattern_size, uint64_t size);

/* One launch. d->trace, d->check_waitcnt come from the platform; the caller fills the rest
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


/* ---- ordered command streams: plat_stream.c ----
 * A stream runs its commands one after another on a worker thread of its own, in the order they
 * were enqueued. Command n of a stream has sequence number n (from 1); a dependency (stream, seq)
 * holds once that stream has completed its command seq, so that a command can wait for work of
 * other streams (events, the null stream's rules) without the streams knowing each other. One
 * lock and one condition serve every stream; a stream lives while it is referenced (by its
 * creator, by events recorded on it, by commands depending on it). */
typedef struct plat_stream plat_stream;

typedef struct plat_dep {
    plat_stream *stream;
    uint64_t seq;
} plat_dep;

typedef struct plat_cmd plat_cmd;
struct plat_cmd {
    plat_cmd *next;
    void (*run)(plat_cmd *c);     /* on the worker thread, once every dependency holds */
    void (*done)(plat_cmd *c);    /* frees the command (NULL: free(c)) */
    plat_dep *deps;               /* retained; freed by the stream */
    uint32_t ndeps;
    uint64_t seq;
};

plat_stream *plat_stream_create(void *owner);   /* NULL: out of memory or no thread */
void *plat_stream_owner(const plat_stream *s);
void plat_stream_retain(plat_stream *s);
void plat_stream_release(plat_stream *s);
/* The creator lets go: the stream finishes what it holds, then its worker ends. */
void plat_stream_close(plat_stream *s);
/* Append c (its deps array is taken over and each dependency's stream retained); returns c's
 * sequence number. */
uint64_t plat_stream_enqueue(plat_stream *s, plat_cmd *c, plat_dep *deps, uint32_t ndeps);
uint64_t plat_stream_last(plat_stream *s);            /* sequence number of the newest command */
bool plat_stream_reached(plat_stream *s, uint64_t seq);
void plat_stream_wait(plat_stream *s, uint64_t seq);  /* until command seq has completed */
/* The calling thread is one of the streams' workers (a host callback calling back into the API). */
bool plat_stream_on_worker(void);

#endif
