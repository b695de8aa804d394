/* The core: device -> compute units -> workgroups -> warps. It knows no instruction set.
 *
 * A front end (Ventus, RDNA3) plugs in through umb_frontend: it sets up each workgroup and
 * warp, runs a warp for a few instructions, and describes a PC for error messages. The core
 * dispatches workgroups, schedules warps round robin, completes barriers, detects deadlock,
 * enforces the instruction budget, counts statistics and reports faults.
 */
#ifndef UMBRA_CORE_H
#define UMBRA_CORE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "umbra/device.h"
#include "umbra/stats.h"
#include "mem/mem.h"

typedef struct umb_workgroup umb_workgroup;
typedef struct umb_warp umb_warp;
typedef struct umb_frontend umb_frontend;
struct umb_tinst;    /* timing mode: src/timing/event.h */
struct umb_tevent;

/* Why a warp stopped running (the result of umb_frontend.step). */
typedef enum umb_warp_state {
    UMB_WARP_RUNNABLE = 0,
    UMB_WARP_AT_BARRIER,   /* waiting at a workgroup barrier */
    UMB_WARP_EXITED,       /* finished (endprg / s_endpgm) */
    UMB_WARP_FAULTED,      /* the front end filled umb_fault via umb_fault_report */
    UMB_WARP_WAITING,      /* waiting for waves of other workgroups (RDNA3: a GWS barrier or
                              semaphore); the core asks umb_frontend.wait_poll when it may run */
} umb_warp_state;
#define UMB_WARP_STATES (UMB_WARP_WAITING + 1)

/* A fault raised by guest code: everything a user needs to find it. */
typedef struct umb_fault {
    umb_status status;          /* UMB_ERR_GUEST_FAULT, UMB_ERR_UNSUPPORTED, ... */
    char message[1024];         /* complete, human readable */
} umb_fault;

/* The core-visible part of a warp. Front ends keep their registers behind `isa`. */
struct umb_warp {
    umb_workgroup *wg;
    uint32_t id;                /* warp id inside the workgroup */
    uint32_t width;             /* lanes (threads per warp) */
    umb_warp_state state;
    uint32_t barrier_id;        /* which barrier it waits at (front-end defined) */
    uint64_t pc;                /* for reports; front ends keep it current */
    void *isa;                  /* front-end state of this warp */
};

/* A workgroup resident on a compute unit. */
struct umb_workgroup {
    struct umb_launch *launch;
    uint32_t id[3];             /* workgroup id in the grid */
    uint64_t linear_id;         /* x + y*gx + z*gx*gy */
    uint32_t cu;                /* compute unit it runs on */
    uint32_t nwarps;
    umb_warp *warps;
    umb_mem *local;             /* local memory (LDS) of this workgroup, front end maps it */
    umb_stats *stats;           /* where this workgroup's counters go (per host thread) */
    void *isa;                  /* front-end state of this workgroup */
    /* Progress the statistics cannot show: front ends add one when one of its warps gets work done
     * by the host (an RDNA3 hostcall serviced); like a memory write, it tells a wait from a spin. */
    uint64_t progress;
};

/* Front-end interface: the only thing the core knows of an instruction set. */
struct umb_frontend {
    const char *name;
    /* A barrier completes when every warp that has not exited arrived (AMD) — or only when every
     * warp of the workgroup arrived, an exited warp making it a deadlock (Ventus). */
    bool barrier_counts_exited;
    /* Set up a workgroup (map local memory, allocate isa state). */
    umb_status (*wg_init)(void *kernel, umb_workgroup *wg);
    void (*wg_fini)(void *kernel, umb_workgroup *wg);
    /* Set up warp launch state (registers, PC, masks). */
    umb_status (*warp_init)(void *kernel, umb_warp *w);
    void (*warp_fini)(void *kernel, umb_warp *w);
    /* Run up to max_insts instructions; count them in *executed. Return the new state. A
     * fault sets UMB_WARP_FAULTED after umb_fault_report. Reaching a barrier returns
     * UMB_WARP_AT_BARRIER with the instruction retired (PC past it). */
    umb_warp_state (*step)(void *kernel, umb_warp *w, uint32_t max_insts, uint64_t *executed);
    /* Waits that span workgroups. A step that returns UMB_WARP_WAITING (instruction retired, PC
     * past it) leaves the warp waiting for waves of other workgroups. wait_poll (required then;
     * any host thread may call it) returns true when the wait is over, after making the warp
     * runnable in the front end's state. After every event that may end a wait the front end
     * calls umb_launch_wake (holding no lock of its own), so that host threads whose workgroups
     * all wait look again instead of sleeping. wait_describe says what a waiting warp waits for
     * (for deadlock reports; optional). */
    bool (*wait_poll)(void *kernel, umb_warp *w);
    void (*wait_describe)(void *kernel, const umb_warp *w, char *buf, size_t len);
    /* Optional, for speed (saves a call per warp and instruction): one round robin pass over
     * the workgroup's warps, doing exactly what calling step(kernel, w, quantum, &n) on each
     * RUNNABLE warp in order and storing the result in w->state does, and stopping right after
     * a warp that faults. Adds one to count[state] for each warp passed (the faulting one
     * included, the ones after it not) and returns the instructions executed. */
    uint64_t (*round)(void *kernel, umb_workgroup *wg, uint32_t quantum, uint32_t count[UMB_WARP_STATES]);
    /* "PC 0x... : <encoding> <disassembly>" for the instruction at the warp's PC. */
    void (*describe_pc)(void *kernel, const umb_warp *w, char *buf, size_t len);
    /* Timing mode (src/timing/event.h): describe the instruction at the warp's PC before it
     * executes. timing_pc: the PC of its next instruction; timing_static returns false (and
     * reports the warp's fault) if there is no valid instruction there. */
    uint64_t (*timing_pc)(const umb_warp *w);
    bool (*timing_static)(void *kernel, umb_warp *w, struct umb_tinst *out);
    void (*timing_dynamic)(void *kernel, const umb_warp *w, const struct umb_tinst *ti, struct umb_tevent *out);
    /* Optional, for speed: exactly step(kernel, w, 1, executed) (one instruction, issued by the
     * timing model), without the set-up of the general step loop. */
    umb_warp_state (*timing_step)(void *kernel, umb_warp *w, uint64_t *executed);
    /* Optional, for speed: the timing model will soon issue `ti` on the warp whose front-end
     * state (umb_warp.isa) is `isa`; prefetch the host memory that state and that instruction
     * will touch (no effect on any result). */
    void (*timing_prefetch)(void *kernel, const void *isa, const struct umb_tinst *ti);
    /* Optional: what proves "no forward progress" (sched.c). A warp's architectural state is
     * everything that decides what it does next (PC, registers, masks, control stacks), and not
     * what only counts (cycle and instruction counters, statistics). state_size: the bytes it
     * takes; state_save copies it into buf (false: it cannot be compared now, e.g. a fault is
     * pending); state_same: the warp is exactly in the state saved in buf. Without them a launch
     * is never declared stuck (only --max-instructions bounds it). */
    size_t (*state_size)(void *kernel);
    bool (*state_save)(void *kernel, const umb_warp *w, void *buf);
    bool (*state_same)(void *kernel, const umb_warp *w, const void *buf);
};

/* One kernel launch as the core sees it. */
typedef struct umb_launch {
    umb_device *dev;
    const umb_frontend *fe;
    void *kernel;               /* front-end launch context */
    uint32_t grid[3];           /* workgroups in each dimension */
    uint32_t warps_per_wg;
    uint32_t threads_per_warp;
    const char *kernel_name;    /* for reports */
    /* Workgroups resident at once: false runs each CU's workgroups one after another (Ventus, as
     * its golden model does); true keeps up to wgs_per_cu of them resident on every CU, as the
     * hardware's dispatcher does, so workgroups that wait on each other (a software grid
     * barrier) finish. */
    bool concurrent_wgs;
    uint32_t wgs_per_cu;        /* occupancy of one CU for this kernel (front end's resource limits) */
    /* Every workgroup must be resident at once (a cooperative launch, whose waves wait for each
     * other): a grid larger than the device (or the timing model's machine) holds fails with
     * UMB_ERR_INVALID before anything runs. Needs concurrent_wgs. */
    bool all_resident;
    /* resources, for occupancy in timing mode (0 = unknown: not a limit) */
    uint32_t vgprs_per_warp, sgprs_per_warp, lds_per_wg;
    bool wgp_mode;              /* RDNA: a workgroup runs on a WGP (its CUs' SIMDs), not on one CU */
    /* the CUs workgroups may run on, in increasing order (a CU mask); NULL: every CU */
    const uint32_t *cus;
    uint32_t ncus;
    /* filled by the core */
    _Atomic int failed;         /* set once: stop every host thread */
    umb_fault fault;            /* the first fault */
    _Atomic uint64_t wakes;     /* umb_launch_wake calls so far */
    struct umb_wake *wake;      /* while the launch runs on host threads: where they sleep */
} umb_launch;

/* Run every workgroup of the launch. Statistics are added into *stats. On a fault, budget
 * exhaustion or deadlock the device's last error is set and the status returned. */
umb_status umb_launch_run(umb_launch *l, umb_stats *stats);

/* For front ends: a wait of some UMB_WARP_WAITING warp may be over (see umb_frontend.wait_poll).
 * Call it holding no lock of the front end's. */
void umb_launch_wake(umb_launch *l);

/* For front ends: record a fault of warp w (first one wins) and return UMB_WARP_FAULTED. */
umb_warp_state umb_fault_report(umb_warp *w, umb_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Device internals shared with front ends and the runtime. */
umb_mem *umb_device_memory(umb_device *dev);
/* State a runtime keeps per device for as long as the device lives (RDNA3: the device-malloc heap
 * of HIP kernels, src/runtime/rdna3_hostcall.c). NULL until set; umb_device_destroy calls
 * release(state). Like the device's memory map, used by the host thread that runs launches. */
typedef enum umb_device_slot {
    UMB_DEVICE_SLOT_RDNA3 = 0,
    UMB_DEVICE_SLOT_RDNA3_JIT,   /* the translator's cache (src/runtime/rdna3_jit_cache.c) */
    UMB_DEVICE_SLOT_COUNT
} umb_device_slot;
void *umb_device_slot_get(const umb_device *dev, umb_device_slot slot);
void umb_device_slot_set(umb_device *dev, umb_device_slot slot, void *state, void (*release)(void *state));
void umb_device_set_error(umb_device *dev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void umb_device_clear_error(umb_device *dev);

/* Per-instruction statistics (hot path: inline). */
/* Set bits of a lane mask. Without -mpopcnt GCC calls libgcc's table-driven __popcountdi2;
 * this bit-slicing form is a dozen inline ALU operations. */
static inline uint32_t umb_popcount64(uint64_t x)
{
#ifdef __POPCNT__
    return (uint32_t)__builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (uint32_t)((x * 0x0101010101010101ull) >> 56);
#endif
}

static inline void umb_count_insn(umb_stats *s, umb_insn_class c, uint32_t active, uint32_t width)
{
    s->warp_insts++;
    s->by_class[c]++;
    s->thread_insts += active;
    s->lane_slots += width;
}

static inline void umb_count_mem(umb_stats *s, umb_addr_space sp, int kind /*0 ld,1 st,2 atomic*/,
                                 uint64_t lanes, uint64_t bytes)
{
    umb_mem_traffic *t = &s->mem[sp];
    if (kind == 0) { t->loads += lanes; t->bytes_read += bytes; }
    else if (kind == 1) { t->stores += lanes; t->bytes_written += bytes; }
    else { t->atomics += lanes; t->bytes_read += bytes; t->bytes_written += bytes; }
}

#endif
