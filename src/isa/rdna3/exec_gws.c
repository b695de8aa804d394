/* Global Wave Sync: ds_gws_init, ds_gws_barrier and the GWS semaphores (DS opcodes 0x18..0x1d,
 * gds set), as the "Global Wave Sync" section of AMD's RDNA ISA guides describes them (text read:
 * the RDNA3.5 guide's, a gfx11 derivative; docs/MEMORY_MODEL.md §9a):
 *
 *   - 64 resources; each has a 12-bit counter, a flag, a type (barrier or semaphore) and a queue.
 *   - resource id = (M0[21:16] + OFFSET0[5:0]) % 64 (the per-VMID base is 0: a cooperative launch
 *     owns all 64, as ROCm's KFD gives a process's queue the whole GWS). A launch without GWS
 *     resources faults: the hardware clamps the id, NACKs and halts the wave.
 *   - the value operand (init, barrier, sema_br) is the VGPR in the ADDR field of the encoding
 *     (llvm-objdump's operand), read from the first lane of EXEC; with EXEC = 0 there is no such
 *     lane and umbra faults rather than guess.
 *   - ds_gws_init: counter = value, flag = 0; the wave goes on.
 *   - ds_gws_barrier: type = barrier; value is the count for the NEXT barrier ("total wave count
 *     minus one", LLVM's llvm.amdgcn.ds.gws.barrier: bar_val = waves - 1). The counter holds the
 *     number of waves still to come minus one: a wave that finds it 0 is the last one, flips the
 *     flag (releasing every wave waiting there), loads the counter with its value and goes on;
 *     any other wave decrements it and waits. (The guide's pseudo-code decrements before the
 *     test; with counts of "waves minus one", as ROCm's GWS init and ockl's __ockl_grid_sync pass
 *     them, only the test before the decrement lets all N waves in, and the guide itself calls the
 *     pseudo-code simplistic.)
 *   - ds_gws_sema_v: counter += 1; ds_gws_sema_br: counter += value; ds_gws_sema_release_all:
 *     counter += the number of waves queued; each sets type = semaphore and the waves queued at
 *     the resource are released in arrival order while the counter is above 0, each taking one.
 *   - ds_gws_sema_p: type = semaphore; takes one from the counter, or queues until released.
 *
 * A waiting wave is UMB_WARP_WAITING with the instruction retired (PC past it): the hardware holds
 * it at the s_waitcnt that LLVM places right after every GWS instruction, so the results are the
 * same. Waits are recorded by number, not by flag value (a barrier wave waits until the resource's
 * completion count moves past the one it arrived in; a semaphore wave until its place in the queue
 * is granted), so a released wave stays released however late its host thread looks.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "isa/rdna3/exec_mem.h"
#include "isa/rdna3/gws.h"

enum { GWS_TYPE_NONE = 0, GWS_TYPE_BARRIER, GWS_TYPE_SEMAPHORE };

typedef struct gws_resource {
    uint32_t counter;          /* 12 bits */
    uint8_t flag;              /* barrier: flips at each completion */
    uint8_t type;
    uint32_t at_barrier;       /* waves waiting for the barrier to complete */
    uint64_t completions;      /* barriers completed */
    uint64_t next_ticket;      /* semaphore queue: waves [granted, next_ticket) wait, in arrival order */
    uint64_t granted;
} gws_resource;

struct rdna3_gws {
    pthread_mutex_t lock;      /* host threads share the resources */
    gws_resource res[RDNA3_GWS_RESOURCES];
};

rdna3_gws *rdna3_gws_create(void)
{
    rdna3_gws *g = calloc(1, sizeof *g);
    if (g && pthread_mutex_init(&g->lock, NULL) != 0) {
        free(g);
        return NULL;
    }
    return g;
}

void rdna3_gws_destroy(rdna3_gws *g)
{
    if (!g) return;
    pthread_mutex_destroy(&g->lock);
    free(g);
}

void rdna3_gws_init(rdna3_gws *g, unsigned rid, uint32_t value)
{
    pthread_mutex_lock(&g->lock);
    gws_resource *r = &g->res[rid % RDNA3_GWS_RESOURCES];
    r->counter = value & RDNA3_GWS_COUNTER_MASK;
    r->flag = 0;
    pthread_mutex_unlock(&g->lock);
}

/* ---- executors ---- */

static unsigned gws_rid(const rdna3_wave *w, const rdna3_inst *in)
{
    return (((w->sgpr[RDNA3_SRC_M0] >> 16) & 63u) + ((uint32_t)in->offset & 63u)) % RDNA3_GWS_RESOURCES;
}

/* The launch's resources, or NULL after faulting the wave (a launch that owns none). */
static rdna3_gws *gws_of(rdna3_wave *w, const rdna3_inst *in)
{
    rdna3_gws *g = w->kernel ? w->kernel->gws : NULL;
    if (!g)
        rdna3_fault(w, in, UMB_ERR_GUEST_FAULT,
                    "GWS instruction in a launch that owns no GWS resources (the hardware NACKs it and halts the "
                    "wave): only cooperative launches get them (umbra run --cooperative, "
                    "umb_rdna3_dispatch.cooperative, hipLaunchCooperativeKernel)");
    return g;
}

/* The value operand: the first active lane of the VGPR in the ADDR field. False (the wave
 * faulted) when no lane is active. */
static bool gws_value(rdna3_wave *w, const rdna3_inst *in, uint32_t *v)
{
    uint64_t exec = rdna3_exec(w);
    if (!exec) {
        rdna3_fault(w, in, UMB_ERR_UNSUPPORTED,
                    "EXEC is 0: the ISA takes the value from the first active lane and there is none");
        return false;
    }
    *v = rdna3_vreg(w, in->addr)[__builtin_ctzll(exec)];
    return true;
}

/* Waves were released: host threads whose workgroups all wait look again. */
static void gws_wake(rdna3_wave *w)
{
    if (w->warp && w->warp->wg && w->warp->wg->launch) umb_launch_wake(w->warp->wg->launch);
}

static void gws_wait(rdna3_wave *w, unsigned rid, uint8_t kind, uint64_t ticket)
{
    w->gws_rid = (uint8_t)rid;
    w->gws_wait = kind;
    w->gws_ticket = ticket;
    w->state = UMB_WARP_WAITING;
}

/* Release queued semaphore waves while the counter allows; how many. */
static uint64_t gws_grant(gws_resource *r)
{
    uint64_t n = 0;
    while (r->counter > 0 && r->granted < r->next_ticket) {
        r->granted++;
        r->counter--;
        n++;
    }
    return n;
}

static void exec_gws_init(rdna3_wave *w, const rdna3_inst *in)
{
    rdna3_gws *g = gws_of(w, in);
    uint32_t v;
    if (!g || !gws_value(w, in, &v)) return;
    rdna3_gws_init(g, gws_rid(w, in), v);
}

static void exec_gws_barrier(rdna3_wave *w, const rdna3_inst *in)
{
    rdna3_gws *g = gws_of(w, in);
    uint32_t next;
    if (!g || !gws_value(w, in, &next)) return;
    unsigned rid = gws_rid(w, in);
    bool released = false;
    pthread_mutex_lock(&g->lock);
    gws_resource *r = &g->res[rid];
    r->type = GWS_TYPE_BARRIER;
    if (r->counter == 0) {   /* the last wave: release the others, count the next barrier */
        r->flag ^= 1u;
        r->counter = next & RDNA3_GWS_COUNTER_MASK;
        r->completions++;
        released = r->at_barrier != 0;
        r->at_barrier = 0;
    } else {
        r->counter--;
        r->at_barrier++;
        gws_wait(w, rid, RDNA3_GWS_WAIT_BARRIER, r->completions);
    }
    pthread_mutex_unlock(&g->lock);
    if (w->state != UMB_WARP_WAITING) w->stats->barriers++;
    if (released) gws_wake(w);
}

/* ds_gws_sema_v (+1), _sema_br (+value), _sema_release_all (+ waves queued). */
static void exec_gws_release(rdna3_wave *w, const rdna3_inst *in)
{
    rdna3_gws *g = gws_of(w, in);
    uint32_t add = 1;
    if (!g || (in->op == 0x1b && !gws_value(w, in, &add))) return;
    unsigned rid = gws_rid(w, in);
    pthread_mutex_lock(&g->lock);
    gws_resource *r = &g->res[rid];
    r->type = GWS_TYPE_SEMAPHORE;
    if (in->op == 0x18) add = (uint32_t)(r->next_ticket - r->granted);
    r->counter = (r->counter + add) & RDNA3_GWS_COUNTER_MASK;
    uint64_t n = gws_grant(r);
    pthread_mutex_unlock(&g->lock);
    if (n) gws_wake(w);
}

static void exec_gws_sema_p(rdna3_wave *w, const rdna3_inst *in)
{
    rdna3_gws *g = gws_of(w, in);
    if (!g) return;
    unsigned rid = gws_rid(w, in);
    pthread_mutex_lock(&g->lock);
    gws_resource *r = &g->res[rid];
    r->type = GWS_TYPE_SEMAPHORE;
    if (r->counter > 0 && r->granted == r->next_ticket) r->counter--;
    else gws_wait(w, rid, RDNA3_GWS_WAIT_SEMAPHORE, r->next_ticket++);
    pthread_mutex_unlock(&g->lock);
}

rdna3_exec_fn rdna3_gws_handler(const rdna3_inst *in)
{
    switch (in->op) {
    case 0x18: case 0x1a: case 0x1b: return exec_gws_release;   /* release_all, sema_v, sema_br */
    case 0x19: return exec_gws_init;
    case 0x1c: return exec_gws_sema_p;
    case 0x1d: return exec_gws_barrier;
    default: return NULL;
    }
}

/* ---- waiting ---- */

bool rdna3_gws_poll(rdna3_wave *w)
{
    rdna3_gws *g = w->kernel ? w->kernel->gws : NULL;
    if (!g || w->state != UMB_WARP_WAITING) return w->state != UMB_WARP_WAITING;
    pthread_mutex_lock(&g->lock);
    const gws_resource *r = &g->res[w->gws_rid % RDNA3_GWS_RESOURCES];
    bool over = w->gws_wait == RDNA3_GWS_WAIT_BARRIER ? r->completions != w->gws_ticket : w->gws_ticket < r->granted;
    pthread_mutex_unlock(&g->lock);
    if (over) {
        w->gws_wait = RDNA3_GWS_WAIT_NONE;
        w->state = UMB_WARP_RUNNABLE;
    }
    return over;
}

void rdna3_gws_describe(rdna3_wave *w, char *buf, size_t len)
{
    rdna3_gws *g = w->kernel ? w->kernel->gws : NULL;
    if (!g || w->gws_wait == RDNA3_GWS_WAIT_NONE) {
        snprintf(buf, len, "waits");
        return;
    }
    pthread_mutex_lock(&g->lock);
    gws_resource r = g->res[w->gws_rid % RDNA3_GWS_RESOURCES];
    pthread_mutex_unlock(&g->lock);
    if (w->gws_wait == RDNA3_GWS_WAIT_BARRIER)
        snprintf(buf, len,
                 "waits at ds_gws_barrier on GWS resource %u (%u waves wait there; %u more must arrive)",
                 w->gws_rid, r.at_barrier, r.counter + 1u);
    else
        snprintf(buf, len, "waits at ds_gws_sema_p on GWS resource %u (semaphore count %u, %" PRIu64 " waves queued)",
                 w->gws_rid, r.counter, r.next_ticket - r.granted);
}
