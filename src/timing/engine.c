/* The timing engine: execution-driven and event-ordered.
 *
 * Every resident wave has the cycle at which its next instruction can issue (`ready`): after its
 * previous issue, once its source registers are written and, for s_waitcnt, once the counters
 * have dropped far enough. Those times are known when the previous instruction issues, because
 * every latency is decided at issue (the memory system answers when a request will be back).
 * The engine takes the wave with the earliest ready cycle (the oldest on a tie), checks that its
 * SIMD's pipeline is free then (else it waits: "pipe"), has the front end describe and execute
 * exactly that instruction, and computes the wave's next ready cycle. Workgroups are dispatched
 * onto CUs as their resources (wave slots, VGPRs, SGPRs, LDS) allow and retire when all their
 * waves have ended. Functional execution happens in issue order, one instruction at a time.
 */
#include "timing/engine.h"

#include "core/lines.h"
#include "core/slab.h"
#include "core/spin_barrier.h"

#include <assert.h>
#include <inttypes.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const tm_state_name[TM_ST_N] = { "issue", "wait_vmcnt", "wait_lgkmcnt", "wait_vscnt", "barrier",
                                             "dependency", "pipeline_busy", "valu_stall" };
const char *const tm_level_name[LVL_N] = { "scalar_cache", "l0", "l1", "l2", "l3" };

#define CNT_QUEUE 64   /* outstanding operations a counter tracks (its 6-bit range) */

/* ---- per-PC static information and profile ---- */

/* Registers [first, end) of a wave's scoreboard (twave.reg_ready: VGPRs, then SGPRs). */
typedef struct reg_span {
    uint16_t first, end;
} reg_span;

#define TM_PC_VREADS 12

typedef struct tm_pc {
    uint64_t pc;         /* key + 1 (0 = empty slot) */
    umb_tinst ti;
    /* what issue and schedule_next need, derived from ti once per launch */
    uint8_t port;        /* PORT_x */
    bool mem;            /* a memory instruction (lanes and addresses asked) */
    uint8_t nsrc, ndst;
    uint32_t cycles;     /* it holds its pipeline (issue_cycles) */
    uint32_t collect;    /* cycles in the operand collector (machine.operand_cycles), from issue
                            until its unit takes it: results and accesses count from then */
    uint32_t result;     /* ALU: cycles from leaving the collector (from issue without one) until
                            its destinations can be read */
    reg_span src[UMB_TINST_SRCS], dst[UMB_TINST_DSTS];
    uint8_t producer;    /* UMB_TDEP_VALU / _TRANS / _SALU: what s_delay_alu counts it as (else 0) */
    bool writes_vgpr, writes_sgpr;   /* a VALU instruction writing VGPRs / SGPRs (VA_VDST / VA_SDST) */
    bool waits_vdst, waits_sdst;     /* it waits for the wave's VALU writes of VGPRs / SGPRs */
    bool self_waits;                 /* s_waitcnt_depctr: dependencies it waits for itself */
    uint8_t vpasses;                 /* VGPR banks (VALU only): passes of one issue (wave64: 2) */
    uint64_t bank_reads, bank_writes;   /* ... VGPRs it reads / writes in each bank, a byte a bank */
    uint64_t issues, stall_cycles;
    struct tm_pc *succ;  /* the instruction that followed it last time (saves a lookup) */
    /* VGPR banks, for the operand cache: the VGPRs it reads, each once (the first TM_PC_VREADS) */
    uint8_t nvread;
    uint16_t vread[TM_PC_VREADS];
} tm_pc;

/* PC -> entry. Entries live in chunks that never move (waves keep pointers to them); the hash
 * table of pointers grows. */
#define PC_CHUNK 1024

typedef struct pc_table {
    tm_pc **slot;                /* open addressing; NULL = empty */
    size_t cap, n;
    tm_pc **chunk;
    size_t nchunk;
} pc_table;

static size_t pc_hash(uint64_t pc, size_t cap) { return (size_t)((pc >> 2) * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1); }

static bool pc_table_grow(pc_table *t)
{
    size_t cap = t->cap ? t->cap * 2 : 2048;
    tm_pc **s = calloc(cap, sizeof *s);
    if (!s) return false;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slot[i]) continue;
        size_t h = pc_hash(t->slot[i]->pc - 1, cap);
        while (s[h]) h = (h + 1) & (cap - 1);
        s[h] = t->slot[i];
    }
    free(t->slot);
    t->slot = s;
    t->cap = cap;
    return true;
}

/* A new zeroed entry (the n-th). */
static tm_pc *pc_entry_new(pc_table *t)
{
    if (t->n % PC_CHUNK == 0) {
        tm_pc **c = realloc(t->chunk, (t->nchunk + 1) * sizeof *c);
        if (!c) return NULL;
        t->chunk = c;
        if (!(c[t->nchunk] = calloc(PC_CHUNK, sizeof(tm_pc)))) return NULL;
        t->nchunk++;
    }
    return &t->chunk[t->n / PC_CHUNK][t->n % PC_CHUNK];
}

static void pc_table_free(pc_table *t)
{
    for (size_t i = 0; i < t->nchunk; i++) free(t->chunk[i]);
    free(t->chunk);
    free(t->slot);
}

/* ---- the run ---- */

typedef struct twg twg;

/* A resident wave. An issue touches its first two cache lines (and the scoreboard entries and
 * counters of its instruction), so what every issue reads or writes comes first; the prefetch
 * fetches those lines (prefetch_wave). */
typedef struct twave {
    /* line 0 */
    alignas(64) umb_warp *warp;
    tm_pc *next;                 /* the instruction at its PC */
    uint64_t seq;                /* instructions it has issued */
    uint64_t operand_ready;      /* its next instruction's sources are ready (a VALU instruction
                                    may issue before and stall the SIMD's VALU) */
    twg *g;
    uint32_t simd, cu;           /* global SIMD index, CU */
    uint32_t slot;               /* its place in its SIMD's lists (ready, port, wave) */
    bool at_barrier;
    bool waiting;                /* UMB_WARP_WAITING: at a GWS barrier or semaphore (trun.waiting) */
    uint8_t nannounced, valu_pos, trans_pos;
    uint8_t clause_left;         /* instructions left in the s_clause it holds */
    bool branch_resolving;       /* machine.branch_waits_fetch: its last instruction was a branch
                                    or barrier, which resolves in a cycle without icache misses
                                    (read at every issue: in the first line) */
    uint8_t ncnt[UMB_CNT_N];
    /* line 1: what s_delay_alu names and the VALU interlocks wait on */
    uint64_t valu_done[4];       /* result cycles of its last four (non-transcendental) VALU
                                    instructions, a ring at valu_pos */
    uint64_t salu_done;          /* ... of its latest SALU instruction */
    uint64_t va_vdst, va_sdst;   /* when its issued VALU writes of VGPRs / SGPRs are done */
    /* the rest */
    uint64_t trans_done[4];      /* ... of its last transcendental ones, at trans_pos */
    struct announced { uint64_t seq; uint8_t kind, back; } announced[6];   /* s_delay_alu waits, by
                                    the number of the instruction they apply to */
    uint64_t age;                /* dispatch order: the oldest issues first on a tie */
    uint64_t start;              /* dispatch cycle */
    uint64_t barrier_since;
    /* the in-order front end (machine.fetch_bytes): the fetch block (address / fetch_bytes + 1;
       0: none) its PC is in and the cycle its instructions were there, and the cycles the
       nahead blocks after it, fetched ahead while it runs this one (machine.fetch_ahead), are */
    uint64_t fetch_block, fetch_ready, ahead[TM_MAX_FETCH_AHEAD];
    uint32_t nahead;
    const struct tm_pc *block_first;   /* machine.block_waits_first_slot: the first instruction of
                                    the fetch block it is in, if it entered the block there */
    uint64_t reg_ready[256 + 128];   /* cycle each VGPR, then SGPR, is written */
    uint64_t cnt[UMB_CNT_N][CNT_QUEUE];   /* completion cycles of outstanding ops, ascending */
} twave;
static_assert(offsetof(twave, valu_done) == 64 && offsetof(twave, va_sdst) + 8 <= 128, "twave's hot lines");

struct twg {
    umb_workgroup wg;
    twave *waves;
    uint32_t arrived, exited;
    uint64_t barrier_at;         /* latest arrival at the current barrier */
    uint64_t start;
    umb_mem *local;
    uint32_t home;               /* the CU whose LDS and workgroup slot it holds */
    twg *prev, *next;            /* the run's resident workgroups */
};

/* The issue ports of a SIMD: one instruction of each kind per cycle (from different waves);
 * s_waitcnt, s_delay_alu, s_clause and other sequencer instructions take none. */
enum { PORT_VALU, PORT_SALU, PORT_VMEM, PORT_SMEM, PORT_LDS, PORT_BRANCH, PORT_N, PORT_NONE = PORT_N };

typedef struct tsimd {
    /* a SIMD's record on lines of its own: neighbours may be another host thread's */
    alignas(UMB_LINE) uint64_t port_free[PORT_N + 1];   /* next cycle each port takes an instruction ([PORT_NONE]: 0) */
    uint64_t next_time;          /* earliest cycle one of its waves can issue (UINT64_MAX: none);
                                    the wheel holds it at this cycle */
    struct twave *pick;          /* the oldest wave that can issue then */
    uint32_t index;
    int32_t over_pos;            /* its place in the wheel's overflow list, or -1 */
    /* its waves (up to waves_per_simd), oldest first, in parallel lists that the selection scans */
    uint64_t *ready;             /* cycle the wave's next instruction can issue (UINT64_MAX: at a
                                    barrier, or not scheduled yet) */
    uint8_t *port;               /* the issue port of that instruction */
    struct twave **wave;
    /* copies of the waves' fields for prefetching without touching the wave records */
    tm_pc **next;                /* the instruction at its PC (twave.next) */
    void **isa;                  /* the front end's state of its warp (umb_warp.isa) */
    umb_warp **warp;             /* its warp (twave.warp) */
    uint32_t nresident, pick_slot;
    /* the wave it issues next in the same cycle if the pick's issue changes nothing else: the
       oldest other wave ready then on another port (UINT32_MAX: none), for prefetching */
    uint32_t alt_slot;
    uint32_t waves, vgprs, sgprs;
    /* s_clause: while clause_owner issues its clause, no other wave issues on clause_port (the
       port of the clause's first instruction; PORT_NONE until that is known) */
    struct twave *clause_owner;
    uint8_t clause_port;
    /* VGPR banks: the last VALU instruction issued here, its wave and the cycle its VALU issue
       ended (its VGPR reads are the operand cache; its writes meet a VALU issue right after) */
    const tm_pc *vb_prev;
    const struct twave *vb_wave;
    uint64_t vb_end;
    uint64_t operand_free;       /* machine.operand_cycles: the cycle the operand crossbar is free */
} tsimd;

typedef struct tcu {
    /* a line each: vmem_free and lds_free are written at every memory issue, and the next CU may
       be another host thread's (shader arrays alternate between threads) */
    alignas(UMB_LINE) uint32_t lds, wgs;
    uint64_t vmem_free, lds_free;
} tcu;

/* The SIMDs by the cycle of their next issue. The engine always takes the SIMD with the earliest
 * one, the lowest index on a tie. Those cycles never go back (every latency is decided at issue;
 * nothing is scheduled before the cycle being issued), so the SIMDs wait in a ring of WHEEL
 * buckets, one per cycle of [cur, cur + WHEEL), each a bitmap of SIMD indices (its lowest set bit
 * is the lowest index), with a bitmap of the non-empty buckets; a SIMD due at or after
 * cur + WHEEL when queued waits in an overflow list until the ring reaches it. (A binary heap of
 * SIMDs cost about a hundred host instructions per issue.) */
#define WHEEL 4096u

typedef struct wheel {
    uint64_t *bits;              /* WHEEL buckets of `words` words each */
    uint64_t used[WHEEL / 64];   /* bit b: bucket b holds a SIMD */
    uint32_t words;
    uint64_t cur;                /* the ring holds cycles [cur, cur + WHEEL) */
    uint32_t *over;              /* SIMD indices due later than the ring reached when queued */
    uint32_t nover;
    uint64_t over_min;           /* at most the earliest cycle in `over` */
} wheel;

#define ARRAY_WAVES (UMB_LINE / sizeof(uint32_t))   /* trun.array_waves: one counter a line */

typedef struct trun {
    /* each partition's trun on cache lines of its own: its counters are written at every issue
       while the next partition's thread reads its own first fields */
    alignas(UMB_LINE) umb_timing *t;
    const tm_machine *m;
    tm_memsys *ms;
    umb_launch *l;
    const umb_frontend *fe;
    tm_launch_rec *rec;
    pc_table pcs;
    tsimd *simd;
    tcu *cu;
    wheel wh;                    /* the SIMDs by next_time, then index */
    uint64_t *ready_lists;       /* the SIMDs' lists, one block each (from a line boundary: a
                                    shader array's blocks do not share a line with the next's) */
    uint8_t *port_lists;
    struct twave **wave_lists;
    tm_pc **next_lists;
    void **isa_lists;
    umb_warp **warp_lists;
    uint64_t next_wg, total_wgs, resident_wgs;
    bool prefetch;               /* more than PREFETCH_WAVES resident waves */
    FILE *issue_trace;           /* umb_timing_set_issue_trace's file, or NULL */
    uint32_t rr_cu;              /* the next dispatch unit to try (round robin) */
    uint32_t group;              /* CUs of a dispatch unit: a WGP in WGP mode, else one CU */
    uint64_t age, now, executed, budget;
    umb_stats stats;
    twg *resident;               /* list of resident workgroups */
    umb_slab *wave_blocks;       /* a workgroup's twave array each (cache-line aligned) */
    umb_mem **local_pool;
    uint32_t nlocal;
    uint32_t wave_vgprs, wave_sgprs, wg_lds;   /* allocation of one wave / workgroup */
    umb_status status;
    umb_tevent ev;
    /* waves waiting for waves of other workgroups (UMB_WARP_WAITING), in the order they began;
       looked at again after an issue that woke the launch (umb_launch.wakes moved) */
    twave **waiting;
    uint32_t nwaiting, capwaiting;
    uint64_t wakes_seen;
    /* The parallel mode ("Several host threads", docs/TIMING.md). The launch's trun (the master)
       dispatches and retires workgroups and replays the shared levels' requests at the end of
       each quantum; its partitions (each a trun of its own, run by one host thread) own whole
       shader arrays and issue their waves up to the quantum's end. */
    struct trun *master;         /* a partition's master (NULL: this is the master) */
    struct trun *parts;          /* master in the quantum mode: its partitions */
    uint32_t nparts, unit_cus;   /* ... and the CUs of a shader array (one L1) */
    uint8_t *unit_off;           /* dispatch units (CU or WGP) the launch's CU mask leaves out (NULL: none) */
    tm_view *views;              /* one per shader array */
    uint32_t *array_waves;       /* resident waves of each shader array, a line each (ARRAY_WAVES
                                    apart): the master counts active arrays every quantum without
                                    reading the partitions' SIMD records */
    uint64_t qend;               /* a partition issues before this cycle */
    tm_memsys pms;               /* a partition's memory system (views of the shared levels) */
    tm_launch_rec prec;          /* a partition's totals (its per-CU rows are the master's) */
    struct ended { uint64_t t; twg *g; } *ended;   /* a partition's workgroups done this quantum */
    uint32_t nended, capended;
    struct deferred { uint64_t t; twave *w; } *deferred;   /* its atomics held to the quantum's end */
    uint32_t ndeferred, capdeferred;
} trun;

/* The partition that runs CU cu's waves (the launch's trun when not partitioned). */
static struct trun *part_of(struct trun *r, uint32_t cu)
{
    return r->parts ? &r->parts[cu / r->unit_cus % r->nparts] : r;
}

static void run_fail(trun *r, umb_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void run_fail(trun *r, umb_status st, const char *fmt, ...)
{
    if (r->status != UMB_OK) return;
    r->status = st;
    if (atomic_exchange(&r->l->failed, 1)) return;   /* a fault the front end (or a partition) reported */
    r->l->fault.status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->l->fault.message, sizeof r->l->fault.message, fmt, ap);
    va_end(ap);
}

static const char *kname(const trun *r) { return r->l->kernel_name ? r->l->kernel_name : "?"; }

static void pc_derive(trun *r, tm_pc *p);

static tm_pc *pc_lookup(trun *r, twave *w, uint64_t pc)
{
    pc_table *t = &r->pcs;
    if ((t->n + 1) * 2 > t->cap && !pc_table_grow(t)) return NULL;
    size_t h = pc_hash(pc, t->cap);
    while (t->slot[h] && t->slot[h]->pc != pc + 1) h = (h + 1) & (t->cap - 1);
    if (t->slot[h]) return t->slot[h];
    tm_pc *p = pc_entry_new(t);
    if (!p || !r->fe->timing_static(r->l->kernel, w->warp, &p->ti)) return NULL;   /* OOM, or the front end faulted */
    pc_derive(r, p);
    p->pc = pc + 1;
    t->slot[h] = p;
    t->n++;
    return p;
}

/* The static description of the instruction at the wave's PC (asked once per PC). */
static tm_pc *pc_info(trun *r, twave *w)
{
    uint64_t pc = r->fe->timing_pc(w->warp);
    tm_pc *prev = w->next;   /* the instruction that just issued */
    if (prev && prev->succ && prev->succ->pc == pc + 1) return prev->succ;
    tm_pc *p = pc_lookup(r, w, pc);
    if (p && prev) prev->succ = p;
    return p;
}

/* ---- scheduling: the wheel of SIMDs ---- */

static void wheel_put(trun *r, tsimd *s)
{
    wheel *h = &r->wh;
    uint64_t t = s->next_time;
    if (t == UINT64_MAX) return;
    assert(t >= h->cur);
    if (t - h->cur >= WHEEL) {
        s->over_pos = (int32_t)h->nover;
        h->over[h->nover++] = s->index;
        if (t < h->over_min) h->over_min = t;
        return;
    }
    uint32_t b = (uint32_t)(t & (WHEEL - 1));
    h->bits[(size_t)b * h->words + s->index / 64] |= 1ull << (s->index % 64);
    h->used[b / 64] |= 1ull << (b % 64);
}

static void wheel_take(trun *r, tsimd *s)
{
    wheel *h = &r->wh;
    if (s->next_time == UINT64_MAX) return;
    if (s->over_pos >= 0) {
        uint32_t last = h->over[--h->nover];
        h->over[s->over_pos] = last;
        r->simd[last].over_pos = s->over_pos;
        s->over_pos = -1;
        return;
    }
    uint32_t b = (uint32_t)(s->next_time & (WHEEL - 1));
    uint64_t *bucket = &h->bits[(size_t)b * h->words];
    bucket[s->index / 64] &= ~(1ull << (s->index % 64));
    for (uint32_t i = 0; i < h->words; i++)
        if (bucket[i]) return;
    h->used[b / 64] &= ~(1ull << (b % 64));
}

/* The first cycle at or after cur with a SIMD in the ring, or UINT64_MAX. */
static uint64_t wheel_first(const wheel *h)
{
    uint32_t p = (uint32_t)(h->cur & (WHEEL - 1));
    for (uint32_t k = 0; k <= WHEEL / 64; k++) {
        uint32_t word = (p / 64 + k) % (WHEEL / 64);
        uint64_t bits = h->used[word];
        if (k == 0) bits &= ~0ull << (p % 64);
        else if (k == WHEEL / 64) bits &= (p % 64) ? ~(~0ull << (p % 64)) : 0;
        if (bits) {
            uint32_t b = word * 64 + (uint32_t)__builtin_ctzll(bits);
            return h->cur + ((b - p) & (WHEEL - 1));
        }
    }
    return UINT64_MAX;
}

/* The ring reaches the overflow list's earliest cycle: move what now fits into it. */
static void wheel_refill(trun *r)
{
    wheel *h = &r->wh;
    h->cur = h->over_min;   /* at most every cycle in the ring (the caller checked) */
    uint32_t n = h->nover;
    h->nover = 0;
    h->over_min = UINT64_MAX;
    for (uint32_t i = 0; i < n; i++) {
        tsimd *s = &r->simd[h->over[i]];
        s->over_pos = -1;
        wheel_put(r, s);
    }
}

/* The SIMD to issue next (earliest cycle, then lowest index) before cycle `limit`, or NULL if
 * none can. */
static tsimd *wheel_next(trun *r, uint64_t limit)
{
    wheel *h = &r->wh;
    for (;;) {
        uint64_t t = wheel_first(h);
        if (h->nover && h->over_min < t) {
            if (h->over_min >= limit) return NULL;
            wheel_refill(r);
            continue;
        }
        if (t == UINT64_MAX || t >= limit) return NULL;
        h->cur = t;
        const uint64_t *bucket = &h->bits[(size_t)(t & (WHEEL - 1)) * h->words];
        uint32_t i = 0;
        while (!bucket[i]) i++;
        return &r->simd[i * 64 + (uint32_t)__builtin_ctzll(bucket[i])];
    }
}

static unsigned port_of(unsigned cls);

/* The scan of simd_touch, without (clause false) or with the waves an s_clause of another wave
 * keeps off its port, and with or without the alternative pick (only the prefetch uses it);
 * inlined in each form so that the common ones have no test they do not need. */
static inline __attribute__((always_inline)) uint64_t simd_scan(const tsimd *s, bool clause, bool want_alt,
                                                                uint32_t *pick_out, uint32_t *alt_out)
{
    uint64_t best = UINT64_MAX;
    uint32_t pick = 0, alt = UINT32_MAX;
    unsigned pick_port = PORT_N + 1;
    for (uint32_t i = 0; i < s->nresident; i++) {
        unsigned port = s->port[i];
        if (clause && port == s->clause_port && s->wave[i] != s->clause_owner) continue;
        uint64_t t = s->ready[i], free = s->port_free[port];
        if (free > t) t = free;
        if (t < best) {
            best = t, pick = i, alt = UINT32_MAX, pick_port = port;
        } else if (want_alt && t == best && port != pick_port && alt == UINT32_MAX) {
            alt = i;
        }
    }
    *pick_out = pick;
    *alt_out = alt;
    return best;
}

/* Recompute when the SIMD can issue next, and which wave: the earliest cycle a wave is ready and
 * its instruction's port free, the oldest wave on a tie (the lists are oldest first); then move
 * the SIMD in the wheel. */
static void simd_touch(trun *r, tsimd *s)
{
    uint32_t pick, alt;
    uint64_t best = s->clause_owner && s->clause_port != PORT_NONE ? simd_scan(s, true, true, &pick, &alt)
                  : r->prefetch ? simd_scan(s, false, true, &pick, &alt)
                                : simd_scan(s, false, false, &pick, &alt);
    s->pick = best == UINT64_MAX ? NULL : s->wave[pick];
    s->pick_slot = pick;
    s->alt_slot = alt;
    if (best == s->next_time) return;
    wheel_take(r, s);
    s->next_time = best;
    wheel_put(r, s);
}

static inline uint64_t *ready_of(trun *r, const twave *w) { return &r->simd[w->simd].ready[w->slot]; }

/* The first cycle after t whose bucket holds a SIMD, looking a few hundred cycles ahead within
 * the ring; UINT64_MAX if none. */
static uint64_t wheel_used_after(const wheel *h, uint64_t t)
{
    uint64_t c = t + 1, end = h->cur + WHEEL;
    for (unsigned words = 0; words < 8 && c < end; words++) {
        uint32_t b = (uint32_t)(c & (WHEEL - 1));
        uint64_t bits = h->used[b / 64] >> (b % 64);
        if (bits) {
            c += (uint64_t)__builtin_ctzll(bits);
            return c < end ? c : UINT64_MAX;
        }
        c += 64 - b % 64;
    }
    return UINT64_MAX;
}

/* The SIMD after s in the order the wheel will hand them out if nothing changes meanwhile: the
 * rest of s's bucket, then the next non-empty buckets; NULL if none is near. For prefetching. */
static tsimd *wheel_next_after(trun *r, const tsimd *s)
{
    const wheel *h = &r->wh;
    uint64_t t = s->next_time;
    uint32_t from = s->index + 1;
    for (unsigned buckets = 0; buckets < 4 && t != UINT64_MAX; buckets++) {
        const uint64_t *bucket = &h->bits[(size_t)(t & (WHEEL - 1)) * h->words];
        for (uint32_t word = from / 64; word < h->words; word++) {
            uint64_t bits = bucket[word];
            if (word == from / 64) bits &= ~0ull << (from % 64);
            if (bits) return &r->simd[word * 64 + (uint32_t)__builtin_ctzll(bits)];
        }
        t = wheel_used_after(h, t);
        from = 0;
    }
    return NULL;
}

/* ---- prefetching ----
 * With many resident waves (each RDNA3 wave is a 66 KiB state, of which a few KiB are touched),
 * a wave's state is rarely in the host's caches when its turn comes. The wave that issues next
 * is almost always known while the current one issues: another wave of the same SIMD ready in
 * the same cycle on another port (simd_touch keeps it), else the pick of the next SIMD in the
 * wheel. While the current wave issues, fetch what that one's instruction will touch (its
 * record, the scoreboard entries and counters it uses, the front end's state), from the SIMD's
 * lists without reading the wave's record. Below PREFETCH_WAVES resident waves
 * their states stay in the host's caches and prefetching would only cost instructions. No
 * effect on any result. */
#define PREFETCH_WAVES 512

static void prefetch_wave(trun *r, const tsimd *s, uint32_t slot)
{
    const twave *w = s->wave[slot];
    const tm_pc *p = s->next[slot];
    if (!w || !p) return;
    __builtin_prefetch(w);
    __builtin_prefetch((const char *)w + 64);
    __builtin_prefetch(s->warp[slot]);
    for (unsigned i = 0; i < p->nsrc; i++) __builtin_prefetch(&w->reg_ready[p->src[i].first]);
    for (unsigned i = 0; i < p->ndst; i++) __builtin_prefetch(&w->reg_ready[p->dst[i].first]);
    if (p->mem)
        for (unsigned c = 0; c < UMB_CNT_N; c++)
            if (p->ti.counters & (1u << c)) __builtin_prefetch(w->cnt[c]);
    if (r->fe->timing_prefetch) r->fe->timing_prefetch(r->l->kernel, s->isa[slot], &p->ti);
}

/* While s issues its pick: prefetch the wave that issues next (s's alternative in the same
 * cycle, else the next SIMD's pick). */
static void prefetch_next(trun *r, const tsimd *s)
{
    if (s->alt_slot != UINT32_MAX) {
        prefetch_wave(r, s, s->alt_slot);
    } else {
        const tsimd *n = wheel_next_after(r, s);
        if (n && n->pick) prefetch_wave(r, n, n->pick_slot);
    }
}

/* ---- counters ---- */

/* Add an operation completing at `done` to counter c; returns its completion (in-order
 * counters complete no earlier than the one before). */
static uint64_t counter_push(twave *w, unsigned c, uint64_t done, bool in_order, uint64_t now, uint64_t *stall)
{
    uint8_t n = w->ncnt[c];
    uint64_t *q = w->cnt[c];
    unsigned drop = 0;
    while (drop < n && q[drop] <= now) drop++;
    if (drop) memmove(q, q + drop, (n - drop) * sizeof *q), n -= (uint8_t)drop;
    if (n == CNT_QUEUE) {   /* the counter is saturated: issue waits for the oldest */
        if (q[0] > *stall) *stall = q[0];
        memmove(q, q + 1, (n - 1) * sizeof *q), n--;
    }
    if (in_order && n && q[n - 1] > done) done = q[n - 1];
    unsigned i = n;
    while (i && q[i - 1] > done) { q[i] = q[i - 1]; i--; }
    q[i] = done;
    w->ncnt[c] = (uint8_t)(n + 1);
    return done;
}

/* The cycle at which counter c is at most `limit` (0 if it already is at `now`). */
static uint64_t counter_wait(const twave *w, unsigned c, unsigned limit, uint64_t now)
{
    unsigned n = w->ncnt[c], first = 0;
    while (first < n && w->cnt[c][first] <= now) first++;
    unsigned pending = n - first;
    if (pending <= limit) return 0;
    return w->cnt[c][first + pending - limit - 1];
}

/* ---- readiness ---- */

static uint64_t regs_ready(const twave *w, const reg_span *rg, unsigned n)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = rg[i].first; k < rg[i].end; k++)
            if (w->reg_ready[k] > t) t = w->reg_ready[k];
    return t;
}

static void add_state(trun *r, twave *w, tm_state s, uint64_t cycles)
{
    r->rec->state_cycles[s] += cycles;
    r->rec->cu[w->cu].state_cycles[s] += cycles;
}

/* ---- announced dependencies (s_delay_alu), VALU interlocks, clauses ----
 * RDNA3 checks a VALU instruction's sources in hardware, but a dependency the code does not
 * announce stalls the SIMD's VALU (no other wave's VALU instruction issues meanwhile); one it
 * announces with s_delay_alu holds only the wave, so the SIMD issues other waves' work. The
 * engine keeps, per wave, the result cycles of its last VALU, transcendental and SALU
 * instructions, which is what an announcement names. */

/* When one announced dependency is satisfied (0: already). */
static uint64_t dependency_done(const twave *w, unsigned kind, unsigned back, uint64_t base)
{
    switch (kind) {
    case UMB_TDEP_VALU: return w->valu_done[(uint8_t)(w->valu_pos - back) & 3u];
    case UMB_TDEP_TRANS: return w->trans_done[(uint8_t)(w->trans_pos - back) & 3u];
    case UMB_TDEP_SALU: case UMB_TDEP_SA_SDST: return w->salu_done;
    case UMB_TDEP_CYCLES: return base + back;
    /* all outstanding writes, or (VGPRs, up to 3 left outstanding) the one before the `back`
       most recent VALU instructions; more are not tracked (no wait) */
    case UMB_TDEP_VA_VDST: return back == 0 ? w->va_vdst : back < 4 ? w->valu_done[(uint8_t)(w->valu_pos - back - 1) & 3u] : 0;
    case UMB_TDEP_VA_SDST: return back == 0 ? w->va_sdst : 0;
    default: return 0;
    }
}

/* s_waitcnt_depctr: when the dependencies it waits for itself are satisfied. */
static uint64_t self_wait(const twave *w, const umb_tinst *ti, uint64_t base)
{
    uint64_t t = base;
    for (unsigned i = 0; i < 3; i++) {
        if (ti->dep_kind[i] == UMB_TDEP_NONE || ti->dep_at[i] != 0) continue;
        uint64_t d = dependency_done(w, ti->dep_kind[i], ti->dep_back[i], base);
        if (d > t) t = d;
    }
    return t;
}

/* When the announced waits for the wave's next instruction (number w->seq) allow it to issue;
 * those waits are used up. */
static uint64_t announced_wait(twave *w, uint64_t base)
{
    uint64_t t = base;
    uint8_t keep = 0;
    for (uint8_t i = 0; i < w->nannounced; i++) {
        struct announced a = w->announced[i];
        if (a.seq > w->seq) {
            w->announced[keep++] = a;
            continue;
        }
        uint64_t d = a.seq == w->seq ? dependency_done(w, a.kind, a.back, base) : 0;
        if (d > t) t = d;
    }
    w->nannounced = keep;
    return t;
}

/* s_delay_alu number k issued: keep its waits for the instructions they apply to. */
static void announce(twave *w, const umb_tinst *ti, uint64_t k)
{
    for (unsigned i = 0; i < 3; i++)
        if (ti->dep_kind[i] != UMB_TDEP_NONE && ti->dep_at[i] != 0 && w->nannounced < 6)
            w->announced[w->nannounced++] = (struct announced){ k + ti->dep_at[i], ti->dep_kind[i], ti->dep_back[i] };
}

/* An ALU instruction issued whose results are ready at `done`. */
static void note_producer(twave *w, const tm_pc *p, uint64_t done)
{
    switch (p->producer) {
    case UMB_TDEP_VALU: w->valu_done[w->valu_pos++ & 3u] = done; break;
    case UMB_TDEP_TRANS: w->trans_done[w->trans_pos++ & 3u] = done; break;
    case UMB_TDEP_SALU: w->salu_done = done; break;
    default: break;
    }
    if (p->writes_vgpr && done > w->va_vdst) w->va_vdst = done;
    if (p->writes_sgpr && done > w->va_sdst) w->va_sdst = done;
}

static void clause_end(tsimd *s, twave *w)
{
    w->clause_left = 0;
    if (s->clause_owner != w) return;
    s->clause_owner = NULL;
    s->clause_port = PORT_NONE;
}

/* s_clause: the wave's next n instructions hold the port of the first one with a port, unless
 * another wave of the SIMD holds a clause already (then this one does not). */
static void clause_start(tsimd *s, twave *w, uint32_t n)
{
    if (s->clause_owner || !n) return;
    s->clause_owner = w;
    s->clause_port = PORT_NONE;
    w->clause_left = (uint8_t)(n < 255 ? n : 255);
}

/* The in-order front end: the cycle the instruction at pc is in the wave's instruction buffer,
 * if the wave asks for it from cycle `base` on (0: it is there already). The fetch runs
 * machine.fetch_ahead blocks ahead of issue in straight-line code (the buffer's entries): entering
 * a block fetches the blocks after it up to that depth, each once the one before it is there; a
 * block that was not fetched ahead (a taken branch, a return) is fetched from `base`. Each fetch
 * goes through the CU's icache. */
static uint64_t fetch_ready(trun *r, twave *w, uint64_t pc, uint64_t base)
{
    uint32_t fb = r->m->fetch_bytes, depth = r->m->fetch_ahead;
    uint64_t b = pc / fb + 1, step = b - w->fetch_block;
    if (!step) return 0;
    uint32_t kept = 0;
    if (w->fetch_block && step <= w->nahead) {   /* fetched ahead: drop the blocks before it */
        w->fetch_ready = w->ahead[step - 1];
        kept = w->nahead - (uint32_t)step;
        memmove(w->ahead, w->ahead + step, kept * sizeof *w->ahead);
    } else {
        w->fetch_ready = tm_mem_fetch(r->ms, w->cu, (b - 1) * fb, base);
    }
    w->fetch_block = b;
    uint64_t t = kept ? w->ahead[kept - 1] : w->fetch_ready;
    for (uint32_t i = kept; i < depth; i++) w->ahead[i] = t = tm_mem_fetch(r->ms, w->cu, (b + i) * fb, t);
    w->nahead = depth;
    return w->fetch_ready;
}

/* machine.block_waits_first_slot (the Ventus RTL's instruction buffer, slowdown.v and the
 * scoreboard): the next fetch block is loaded into the issue slot only once the slot is empty, and
 * the loaded instruction is seen a cycle later, so an instruction that starts a block, reached
 * from the instruction before it, issues a cycle after it otherwise could (`base`). And once a
 * wave has issued the last instruction of a block, the slot still shows the block's first
 * instruction, which the scoreboard checks like a new one (its valid bit is not an input): the
 * next block loads only when none of that instruction's registers, sources or destinations, has a
 * write pending, a cycle after the last of those writes. A taken branch or jump empties the slot:
 * neither wait. Keeps the wave's block_first. */
static uint64_t first_slot_wait(trun *r, twave *w, const tm_pc *prev, const tm_pc *p, uint64_t base)
{
    uint64_t pc = p->pc - 1;
    const tm_pc *first = w->block_first;
    bool starts = pc % r->m->fetch_bytes == 0;
    bool sequential = prev && prev->pc - 1 + prev->ti.size == pc;
    w->block_first = starts ? p : sequential ? first : NULL;
    if (!starts || !sequential) return 0;
    uint64_t t = base + 1;   /* the block is loaded once the slot is free, seen a cycle later */
    if (!first) return t;
    uint64_t s = regs_ready(w, first->src, first->nsrc), d = regs_ready(w, first->dst, first->ndst);
    if (d > s) s = d;
    return s + 1 > t ? s + 1 : t;
}

/* The wave may issue its next instruction from cycle `base`: find when it really can. */
static bool schedule_next(trun *r, twave *w, uint64_t base)
{
    const tm_pc *prev = w->next;   /* the instruction it issued last (NULL: none yet) */
    tm_pc *p = pc_info(r, w);
    if (!p) {
        if (r->status == UMB_OK) run_fail(r, UMB_ERR_GUEST_FAULT, "kernel %s: timing: cannot describe the next instruction", kname(r));
        return false;
    }
    w->next = p;
    const umb_tinst *ti = &p->ti;
    uint64_t ready = w->nannounced ? announced_wait(w, base) : base;
    if (p->self_waits) ready = self_wait(w, ti, ready);
    tm_state why = TM_ST_DEP;
    if (r->m->mem_waits_for_valu) {
        if (p->waits_vdst && w->va_vdst > ready) ready = w->va_vdst;
        if (p->waits_sdst && w->va_sdst > ready) ready = w->va_sdst;
    }
    uint64_t dep = regs_ready(w, p->src, p->nsrc);
    w->operand_ready = 0;
    if (p->port == PORT_VALU && r->m->unannounced_stall_simd) w->operand_ready = dep;   /* issue() stalls */
    else if (dep > ready) ready = dep;
    if (r->m->fetch_bytes) {
        uint64_t f = fetch_ready(r, w, p->pc - 1, base);
        if (f > ready) ready = f;
        if (r->m->block_waits_first_slot && (f = first_slot_wait(r, w, prev, p, base)) > ready) ready = f;
    }
    if (ti->cls == UMB_T_WAITCNT) {
        static const tm_state cnt_state[UMB_CNT_N] = { TM_ST_WAIT_VM, TM_ST_WAIT_LGKM, TM_ST_WAIT_VS, TM_ST_WAIT_VM };
        for (unsigned c = 0; c < UMB_CNT_N; c++) {
            if (!(ti->waits & (1u << c))) continue;
            uint64_t t = counter_wait(w, c, ti->wait[c], base);
            if (t > ready) {
                ready = t;
                why = cnt_state[c];
            }
        }
    }
    if (ready > base) {
        add_state(r, w, why, ready - base);
        p->stall_cycles += ready - base;
    }
    tsimd *s = &r->simd[w->simd];
    if (w->clause_left && s->clause_owner == w && s->clause_port == PORT_NONE) s->clause_port = p->port;
    s->ready[w->slot] = ready;
    s->port[w->slot] = p->port;
    s->next[w->slot] = p;
    return true;
}

/* ---- issue ---- */

static unsigned port_of(unsigned cls)
{
    switch (cls) {
    case UMB_T_VALU: case UMB_T_VALU_TRANS: case UMB_T_VALU_DUAL: case UMB_T_VALU_DP: case UMB_T_VALU_MATRIX:
        return PORT_VALU;
    case UMB_T_SALU: return PORT_SALU;
    case UMB_T_SMEM: return PORT_SMEM;
    case UMB_T_VMEM_LOAD: case UMB_T_VMEM_STORE: case UMB_T_VMEM_ATOMIC: return PORT_VMEM;
    case UMB_T_LDS: return PORT_LDS;
    case UMB_T_BRANCH: case UMB_T_BARRIER: case UMB_T_END: return PORT_BRANCH;
    default: return PORT_NONE;
    }
}

/* Cycles the instruction holds its pipeline. */
static uint32_t issue_cycles(const trun *r, const umb_tinst *ti)
{
    const tm_machine *m = r->m;
    uint32_t passes = r->l->threads_per_warp > 32 ? m->wave64_passes : 1;
    switch (ti->cls) {
    case UMB_T_VALU: return passes;
    case UMB_T_VALU_DUAL: return m->vopd_dual_issue ? passes : 2 * passes;
    case UMB_T_VALU_TRANS: return m->trans_issue * passes;
    case UMB_T_VALU_DP: return m->dp_issue * passes;
    case UMB_T_VALU_MATRIX: return ti->delay;   /* the whole wave's matrix, wave32 or wave64 */
    case UMB_T_DELAY: return ti->delay;
    case UMB_T_CLAUSE: return 0;
    default: return 1;
    }
}

/* Lines (of `line` bytes) the active lanes touch, in lane order without repeats. */
static unsigned coalesce(const umb_tevent *ev, unsigned bytes, unsigned line, uint64_t *out)
{
    unsigned n = 0;
    if (!bytes) bytes = 4;
    bool pow2 = !(line & (line - 1));   /* a shift, not a 64-bit division per lane */
    unsigned shift = (unsigned)__builtin_ctz(line);
    uint64_t highest = 0;   /* the highest line so far: a line above it is new without a search
                               (lanes usually go up through memory) */
    for (uint64_t m = ev->exec; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint64_t a = ev->addr[lane];
        uint64_t first = pow2 ? a >> shift : a / line, last = pow2 ? (a + bytes - 1) >> shift : (a + bytes - 1) / line;
        for (uint64_t ln = first; ln <= last; ln++) {
            bool seen = false;
            if (!n || ln > highest) highest = ln;
            else
                for (unsigned i = n; i-- > 0 && !seen;) seen = out[i] == ln;
            if (!seen && n < 2 * UMB_TEVENT_MAX_LANES) out[n++] = ln;
        }
    }
    return n;
}

/* The CU's vector memory unit takes an access of n lines at `now`, or when it is free: the cycle
 * it does. It hands the lines on at vmem_lines_per_cycle. */
static uint64_t take_memory_unit(const tm_machine *m, tcu *cu, uint64_t now, unsigned n)
{
    unsigned per = m->vmem_lines_per_cycle ? m->vmem_lines_per_cycle : 1;
    uint64_t start = now > cu->vmem_free ? now : cu->vmem_free;
    cu->vmem_free = start + (n + per - 1) / per;
    return start;
}

/* machine.in_order_memory_unit: the unit is free for the next access only once L0 has taken the
 * last line of this one (the Ventus RTL's LSU waits for the dcache's ready, which a full set of
 * miss registers holds low). */
static void release_memory_unit(trun *r, tcu *cu, uint32_t cu_index)
{
    cu->vmem_free = tm_mem_l0_accepts(r->ms, cu_index, cu->vmem_free);
}

/* A memory instruction issued at `now`: when its data is back (or it is acknowledged); *taken: the
 * cycle the memory unit that serves it took it (`now` where there is no unit to wait for). */
static uint64_t memory_time(trun *r, twave *w, const umb_tinst *ti, uint64_t now, uint64_t *taken)
{
    const tm_machine *m = r->m;
    tm_memsys *ms = r->ms;
    const umb_tevent *ev = &r->ev;
    *taken = now;
    if (!ev->active) return now + 1;
    if (ti->cls == UMB_T_LDS || ev->space == UMB_TSPACE_LDS) {
        uint32_t conflict = 0;
        uint32_t cycles = tm_lds_cycles(ms, ev->addr, ev->exec, ti->bytes_per_lane, 32, &conflict);
        /* machine.lds_at_home: in WGP mode a workgroup's waves run on both CUs, but its LDS lies in
         * its home CU's half of the WGP's LDS, whose port serves them all */
        tcu *cu = &r->cu[m->lds_at_home ? w->g->home : w->cu];
        uint64_t start = now > cu->lds_free ? now : cu->lds_free;
        cu->lds_free = start + cycles;
        ms->lds_accesses++;
        ms->lds_conflict_cycles += conflict;
        return start + cycles + m->lds_latency;
    }
    int kind = ti->cls == UMB_T_VMEM_STORE ? TM_WRITE : ti->cls == UMB_T_VMEM_ATOMIC ? TM_ATOMIC : TM_READ;
    tcu *cu = &r->cu[w->cu];
    if (ti->cls == UMB_T_SMEM) {
        unsigned line = m->cache[LVL_SCALAR].size ? m->cache[LVL_SCALAR].line : 64;
        uint64_t a = ev->addr[__builtin_ctzll(ev->exec)];
        unsigned bytes = ti->bytes_per_lane ? ti->bytes_per_lane : 4;
        uint64_t first = a / line, last = (a + bytes - 1) / line, start = now;
        if (m->in_order_memory_unit) start = *taken = take_memory_unit(m, cu, now, (unsigned)(last - first + 1));
        uint64_t done = start;
        for (uint64_t ln = first; ln <= last; ln++) {
            uint64_t d = tm_mem_line(ms, w->cu, LVL_SCALAR, ln * line, TM_READ, ti->policy, start);
            if (d > done) done = d;
        }
        if (m->in_order_memory_unit) release_memory_unit(r, cu, w->cu);
        return done;
    }
    unsigned line = m->cache[LVL_L0].size ? m->cache[LVL_L0].line : 128;
    uint64_t lines[2 * UMB_TEVENT_MAX_LANES];
    unsigned n = coalesce(ev, ti->bytes_per_lane, line, lines);
    unsigned per = m->vmem_lines_per_cycle ? m->vmem_lines_per_cycle : 1;
    uint64_t start = *taken = take_memory_unit(m, cu, now, n), done = start;
    for (unsigned i = 0; i < n; i++) {
        uint64_t d = tm_mem_line(ms, w->cu, LVL_L0, lines[i] * line, kind, ti->policy, start + i / per);
        if (d > done) done = d;
    }
    if (m->in_order_memory_unit) release_memory_unit(r, cu, w->cu);
    return done;
}

static uint32_t alu_latency(const tm_machine *m, unsigned cls)
{
    switch (cls) {
    case UMB_T_SALU: return m->salu_latency;
    case UMB_T_VALU: case UMB_T_VALU_DUAL: case UMB_T_VALU_MATRIX: return m->valu_latency;
    case UMB_T_VALU_TRANS: return m->trans_latency;
    case UMB_T_VALU_DP: return m->dp_latency;
    default: return 1;
    }
}

static void mark_dsts(twave *w, const tm_pc *p, uint64_t t)
{
    for (unsigned i = 0; i < p->ndst; i++)
        for (unsigned k = p->dst[i].first; k < p->dst[i].end; k++) w->reg_ready[k] = t;
}

/* A register range as a span of the scoreboard (registers beyond the file are not tracked). */
static reg_span span_of(const umb_treg *g)
{
    bool v = g->file == UMB_TREG_V;
    unsigned lim = v ? 256u : 128u, base = v ? 0u : 256u;
    unsigned first = g->first < lim ? g->first : lim, end = (unsigned)g->first + g->count;
    if (end > lim) end = lim;
    if (end < first) end = first;
    return (reg_span){ (uint16_t)(base + first), (uint16_t)(base + end) };
}

/* The VGPRs of the register ranges `g`, each once, at most `cap` of them (the rest ignored). */
static unsigned vgpr_list(const umb_treg *g, unsigned n, uint16_t *out, unsigned cap)
{
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (g[i].file != UMB_TREG_V) continue;
        for (unsigned v = g[i].first; v < (unsigned)g[i].first + g[i].count && k < cap; v++) {
            unsigned j = 0;
            while (j < k && out[j] != v) j++;
            if (j == k) out[k++] = (uint16_t)v;
        }
    }
    return k;
}

/* VGPRs per bank of a register list, a byte a bank. */
static uint64_t bank_counts(const uint16_t *v, unsigned n, unsigned banks)
{
    uint64_t c = 0;
    for (unsigned i = 0; i < n; i++) c += 1ull << (8 * (v[i] % banks));
    return c;
}

/* Extra cycles a VALU instruction holds the SIMD's VALU because its VGPR operands need more bank
 * accesses in one bank than the bank gives a cycle (docs/TIMING.md "VGPR banks"). `use` counts,
 * a byte a bank, its reads and the writes of the VALU instruction whose issue ended just now;
 * the reads the operand cache serves (the VGPRs the same wave's previous VALU instruction read)
 * are taken off here. Per pass (wave64: both halves). Called only when a byte of `use` exceeds
 * the ports (issue_one), which the cache may still bring down. */
static __attribute__((noinline)) uint32_t vgpr_bank_cycles(const tm_machine *m, const tsimd *s, const twave *w,
                                                           const tm_pc *p, uint64_t use)
{
    const tm_pc *q = s->vb_prev;
    if (q && m->vgpr_operand_reuse && s->vb_wave == w)
        for (unsigned i = 0; i < p->nvread; i++)
            for (unsigned k = 0; k < q->nvread; k++)
                if (q->vread[k] == p->vread[i]) {
                    use -= 1ull << (8 * (p->vread[i] % m->vgpr_banks));
                    break;
                }
    unsigned most = 0;
    for (unsigned b = 0; b < m->vgpr_banks; b++)
        if (((use >> (8 * b)) & 0xff) > most) most = (unsigned)(use >> (8 * b)) & 0xff;
    unsigned cycles = (most + m->vgpr_bank_ports - 1) / m->vgpr_bank_ports;
    return cycles > 1 ? (cycles - 1) * p->vpasses : 0;
}

static void pc_derive(trun *r, tm_pc *p)
{
    const umb_tinst *ti = &p->ti;
    unsigned cls = ti->cls;
    p->port = (uint8_t)(r->m->single_issue ? PORT_SALU : port_of(cls));   /* single issue: one port for all */
    p->mem = cls == UMB_T_SMEM || cls == UMB_T_LDS || (cls >= UMB_T_VMEM_LOAD && cls <= UMB_T_VMEM_ATOMIC);
    p->cycles = issue_cycles(r, ti);
    p->collect = r->m->collector_cycles + r->m->operand_cycles * ti->operands;
    p->result = (p->cycles ? p->cycles - 1 : 0) + alu_latency(r->m, cls);
    p->nsrc = ti->nsrc < UMB_TINST_SRCS ? ti->nsrc : UMB_TINST_SRCS;
    p->ndst = ti->ndst < UMB_TINST_DSTS ? ti->ndst : UMB_TINST_DSTS;
    for (unsigned i = 0; i < p->nsrc; i++) p->src[i] = span_of(&ti->src[i]);
    for (unsigned i = 0; i < p->ndst; i++) p->dst[i] = span_of(&ti->dst[i]);
    bool valu = p->port == PORT_VALU;
    p->producer = cls == UMB_T_SALU ? UMB_TDEP_SALU : cls == UMB_T_VALU_TRANS ? UMB_TDEP_TRANS
                : valu ? UMB_TDEP_VALU : UMB_TDEP_NONE;
    for (unsigned i = 0; i < p->ndst && valu; i++) {
        if (ti->dst[i].file == UMB_TREG_V) p->writes_vgpr = true;
        if (ti->dst[i].file == UMB_TREG_S) p->writes_sgpr = true;
    }
    p->waits_vdst = cls == UMB_T_LDS || (cls >= UMB_T_VMEM_LOAD && cls <= UMB_T_VMEM_ATOMIC);
    p->waits_sdst = cls == UMB_T_SALU || cls == UMB_T_SMEM;
    for (unsigned i = 0; i < 3; i++)
        if (ti->dep_kind[i] != UMB_TDEP_NONE && ti->dep_at[i] == 0) p->self_waits = true;
    if (valu && r->m->vgpr_banks && cls != UMB_T_VALU_MATRIX) {   /* WMMA's cycles include its operand reads */
        uint16_t vwrite[UMB_TINST_DSTS * 4];
        unsigned nw = vgpr_list(ti->dst, p->ndst, vwrite, UMB_TINST_DSTS * 4);
        p->nvread = (uint8_t)vgpr_list(ti->src, p->nsrc, p->vread, TM_PC_VREADS);
        p->bank_reads = bank_counts(p->vread, p->nvread, r->m->vgpr_banks);
        p->bank_writes = r->m->vgpr_bank_writes ? bank_counts(vwrite, nw, r->m->vgpr_banks) : 0;
        p->vpasses = (uint8_t)(r->l->threads_per_warp > 32 ? r->m->wave64_passes : 1);
    }
}

static bool wave_exit(trun *r, twave *w, uint64_t t);
static bool retire_wg(trun *r, twg *g, uint64_t t);
static bool barrier_check(trun *r, twg *g, uint64_t t);

/* A wave begins to wait for waves of other workgroups (a GWS barrier or semaphore). */
static bool wait_begin(trun *r, twave *w, uint64_t t)
{
    if (r->nwaiting == r->capwaiting) {
        uint32_t cap = r->capwaiting ? 2 * r->capwaiting : 64;
        twave **n = realloc(r->waiting, cap * sizeof *n);
        if (!n) return run_fail(r, UMB_ERR_NOMEM, "timing: out of host memory"), false;
        r->waiting = n;
        r->capwaiting = cap;
    }
    r->waiting[r->nwaiting++] = w;
    w->waiting = true;
    w->barrier_since = t;
    *ready_of(r, w) = UINT64_MAX;
    return true;
}

/* An issue at `t` woke the launch: waves whose wait is over go on barrier_cycles later (a GWS
 * barrier or semaphore is modelled as a workgroup barrier across CUs). */
static bool wait_release(trun *r, uint64_t t)
{
    r->wakes_seen = atomic_load(&r->l->wakes);
    uint64_t release = t + r->m->barrier_cycles;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < r->nwaiting; i++) {
        twave *w = r->waiting[i];
        if (!r->fe->wait_poll(r->l->kernel, w->warp)) {
            r->waiting[kept++] = w;
            continue;
        }
        w->waiting = false;
        w->warp->state = UMB_WARP_RUNNABLE;
        add_state(r, w, TM_ST_BARRIER, release - w->barrier_since);
        if (!schedule_next(r, w, release)) return false;
        simd_touch(r, &r->simd[w->simd]);
    }
    r->nwaiting = kept;
    return true;
}

static void timeline_event(trun *r, const char *name, uint32_t pid, uint32_t tid, uint64_t start, uint64_t end)
{
    FILE *f = r->t->timeline;
    if (!f) return;
    double us = 1.0 / r->m->clock_mhz;   /* microseconds per cycle */
    fprintf(f, "%s\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":%.4f,\"dur\":%.4f}",
            r->t->timeline_started ? "," : "", name, pid, tid, start * us, (end - start) * us);
    r->t->timeline_started = true;
}

/* One line of the issue trace (umb_timing_set_issue_trace): the launch, the cycle, the CU, the
 * wave (its workgroup and its warp in it) and the instruction's address. Only a run in one
 * partition writes it (setup_parts), so its lines are in issue order. */
static __attribute__((cold, noinline)) void trace_issue(trun *r, const twave *w, const tm_pc *p, uint64_t now)
{
    const umb_workgroup *wg = &w->g->wg;
    fprintf(r->issue_trace, "%s %" PRIu64 " cu%u wg%u,%u,%u w%u 0x%" PRIx64 "\n", kname(r), now, w->cu,
            wg->id[0], wg->id[1], wg->id[2], w->warp->id, p->pc - 1);
}

/* machine.branch_waits_fetch (the Ventus RTL): a branch resolves only in a cycle in which its
 * SM's fetch reports no icache miss, and a warp whose fetch missed asks again whenever the fetch
 * arbiter picks it, so the warp after a branch waits while any icache miss of its CU is
 * outstanding. Known only when the run reached `now` (later fetches of other warps extend it):
 * if a miss is still outstanding, the wave is put back until it is filled and asked again. */
static bool branch_resolved(trun *r, tsimd *s, twave *w, uint64_t now)
{
    uint64_t idle = tm_mem_fetch_idle(r->ms, w->cu, now);
    if (idle <= now) {
        w->branch_resolving = false;
        return true;
    }
    add_state(r, w, TM_ST_DEP, idle - now);
    w->next->stall_cycles += idle - now;
    s->ready[w->slot] = idle;
    simd_touch(r, s);
    return false;
}

/* machine.operand_cycles: the SIMD's operand collector serves one register read at a time for all
 * its waves (the Ventus RTL's crossbar.sv), so an instruction whose reads find it busy leaves the
 * collector that much later, and with it its results, its access and its wave's next issue. *at:
 * its issue cycle plus that wait. */
static void collect_operands(trun *r, tsimd *s, const umb_tinst *ti, uint64_t *at, uint64_t now)
{
    uint64_t start = now + 1 > s->operand_free ? now + 1 : s->operand_free;
    *at = start - 1;
    s->operand_free = start + (uint64_t)r->m->operand_cycles * ti->operands;
}

/* (inlined into the issue loop, as it was before the loop moved out of run) */
static inline __attribute__((always_inline)) bool issue_one(trun *r, twave *w, uint64_t now)
{
    tm_pc *p = w->next;
    const umb_tinst *ti = &p->ti;
    bool mem = p->mem;
    if (__builtin_expect(r->issue_trace != NULL, 0)) trace_issue(r, w, p, now);
    if (p->succ && r->prefetch)   /* what its successor reads */
        for (unsigned i = 0; i < p->succ->nsrc; i++) __builtin_prefetch(&w->reg_ready[p->succ->src[i].first]);
    if (mem) {   /* only memory instructions need lanes and addresses */
        r->ev.exec = 0, r->ev.active = 0;
        if (r->fe->timing_dynamic && !ti->late_addr) r->fe->timing_dynamic(r->l->kernel, w->warp, ti, &r->ev);
    }
    uint64_t n = 0, k = w->seq++;
    tsimd *s = &r->simd[w->simd];
    if (w->clause_left && --w->clause_left == 0) clause_end(s, w);
    umb_warp_state st = r->fe->timing_step ? r->fe->timing_step(r->l->kernel, w->warp, &n)
                                           : r->fe->step(r->l->kernel, w->warp, 1, &n);
    if (mem && ti->late_addr && st != UMB_WARP_FAULTED && r->fe->timing_dynamic)
        r->fe->timing_dynamic(r->l->kernel, w->warp, ti, &r->ev);
    w->warp->state = st;
    r->executed += n;
    p->issues++;
    r->rec->insts++;
    r->rec->cu[w->cu].insts++;
    if (st == UMB_WARP_FAULTED) {
        run_fail(r, UMB_ERR_GUEST_FAULT, "kernel %s: guest fault", kname(r));
        return false;
    }
    if (r->budget && r->executed > r->budget) {
        char at[512] = "";
        w->warp->pc = r->fe->timing_pc(w->warp);
        if (r->fe->describe_pc) r->fe->describe_pc(r->l->kernel, w->warp, at, sizeof at);
        run_fail(r, UMB_ERR_BUDGET, "kernel %s: instruction budget of %" PRIu64 " warp-instructions exhausted (a "
                 "kernel that never ends?) at workgroup (%u,%u,%u), warp %u, %s; raise it with --max-instructions",
                 kname(r), r->budget, w->g->wg.id[0], w->g->wg.id[1], w->g->wg.id[2], w->warp->id, at);
        return false;
    }
    if (w->operand_ready > now) {   /* a source the code did not announce: the VALU stalls */
        uint64_t stall = w->operand_ready - now;
        add_state(r, w, TM_ST_VALU_STALL, stall);
        p->stall_cycles += stall;
        now = w->operand_ready;
    }
    uint32_t c = p->cycles, bank = 0;
    unsigned port = p->port;
    if (port == PORT_VALU && r->m->vgpr_banks) {   /* VGPR bank conflicts hold the VALU longer */
        const tm_pc *q = s->vb_prev;   /* accesses a bank: a byte each, the top bit set above the ports */
        uint64_t use = p->bank_reads + (q && s->vb_end == now ? q->bank_writes : 0);
        if ((use + r->m->vgpr_bank_over) & 0x8080808080808080ull) {
            bank = vgpr_bank_cycles(r->m, s, w, p, use);
            c += bank;
            r->rec->vgpr_bank_cycles += bank;
            p->stall_cycles += bank;
        }
        s->vb_prev = p, s->vb_wave = w, s->vb_end = now + c;
    }
    if (port != PORT_NONE) s->port_free[port] = now + (port == PORT_VALU && c ? c : 1);
    add_state(r, w, TM_ST_ISSUE, c ? c : 1);
    uint64_t after = now + (c ? c : 1), stall = 0;
    uint64_t at = now;   /* its issue, later by what its operand reads waited (collect_operands) */
    if (r->m->operand_cycles && ti->operands) collect_operands(r, s, ti, &at, now);
    uint64_t out = at + p->collect;   /* it leaves the collector: results, accesses, branches */
    switch (ti->cls) {
    case UMB_T_SMEM: case UMB_T_VMEM_LOAD: case UMB_T_VMEM_STORE: case UMB_T_VMEM_ATOMIC: case UMB_T_LDS: {
        uint64_t taken, done = memory_time(r, w, ti, out, &taken);
        if (r->m->in_order_memory_unit && taken > after) after = taken;   /* its operands stay collected */
        for (unsigned k = 0; k < UMB_CNT_N; k++)
            if (ti->counters & (1u << k)) {
                uint64_t d = counter_push(w, k, done, !(ti->out_of_order & (1u << k)), now, &stall);
                if (d > done) done = d;
            }
        mark_dsts(w, p, done);
        break;
    }
    case UMB_T_BRANCH:
        after = out + r->m->branch_cycles;
        w->branch_resolving = r->m->branch_waits_fetch;
        break;
    case UMB_T_BARRIER:
        w->branch_resolving = r->m->branch_waits_fetch;
        break;
    case UMB_T_END:
        if (r->m->branch_waits_fetch) after = tm_mem_fetch_idle(r->ms, w->cu, after);
        break;
    case UMB_T_DELAY:
        announce(w, ti, k);
        break;
    case UMB_T_CLAUSE:
        clause_start(s, w, ti->delay);
        break;
    default:   /* operands read `bank` cycles late: results as much later */
        mark_dsts(w, p, out + bank + p->result);
        note_producer(w, p, out + bank + p->result);
        break;
    }
    if (stall > after) {
        add_state(r, w, TM_ST_PIPE, stall - after);
        after = stall;
    }
    if (after < out + r->m->wave_issue_interval) after = out + r->m->wave_issue_interval;
    if (r->nwaiting && atomic_load(&r->l->wakes) != r->wakes_seen && !wait_release(r, after)) return false;
    if (st == UMB_WARP_EXITED) return wave_exit(r, w, after);
    if (st == UMB_WARP_WAITING) {
        clause_end(s, w);
        return wait_begin(r, w, after);
    }
    if (st == UMB_WARP_AT_BARRIER) {
        twg *g = w->g;
        clause_end(s, w);
        w->at_barrier = true;
        w->barrier_since = after;
        *ready_of(r, w) = UINT64_MAX;
        g->arrived++;
        if (after > g->barrier_at) g->barrier_at = after;
        return barrier_check(r, g, after);
    }
    return schedule_next(r, w, after);
}

static bool issue(trun *r, twave *w, uint64_t now) { return issue_one(r, w, now); }

/* Release the workgroup's barrier if every wave it waits for arrived. */
static bool barrier_check(trun *r, twg *g, uint64_t t)
{
    if (!g->arrived) return true;
    uint32_t n = g->wg.nwarps;
    bool complete = r->fe->barrier_counts_exited ? g->arrived + g->exited == n : g->arrived == n;
    if (!complete) {
        if (g->arrived + g->exited == n) {
            run_fail(r, UMB_ERR_DEADLOCK, "kernel %s, workgroup (%u,%u,%u): deadlock: a barrier can never complete: "
                     "%u waves wait at a barrier but %u have exited", kname(r), g->wg.id[0], g->wg.id[1], g->wg.id[2],
                     g->arrived, g->exited);
            return false;
        }
        return true;
    }
    uint64_t release = (g->barrier_at > t ? g->barrier_at : t) + r->m->barrier_cycles;
    g->arrived = 0;
    g->barrier_at = 0;
    r->stats.barriers++;
    for (uint32_t i = 0; i < n; i++) {
        twave *w = &g->waves[i];
        if (!w->at_barrier) continue;
        w->at_barrier = false;
        w->warp->state = UMB_WARP_RUNNABLE;
        add_state(r, w, TM_ST_BARRIER, release - w->barrier_since);
        if (!schedule_next(r, w, release)) return false;
        simd_touch(r, &r->simd[w->simd]);
    }
    return true;
}

/* ---- dispatch and retirement ---- */

static uint32_t round_up(uint32_t v, uint32_t g) { return g ? (v + g - 1) / g * g : v; }

/* The CU of dispatch unit u (r->group CUs from u * group) that takes a workgroup's LDS and
 * workgroup slot: the one with the least LDS in use that has room; UINT32_MAX if none. */
static uint32_t home_cu(const trun *r, uint32_t u)
{
    const tm_machine *m = r->m;
    uint32_t best = UINT32_MAX;
    for (uint32_t c = u * r->group; c < (u + 1) * r->group; c++) {
        const tcu *cu = &r->cu[c];
        if (cu->wgs >= m->max_wgs_per_cu || cu->lds + r->wg_lds > m->lds_per_cu) continue;
        if (best == UINT32_MAX || cu->lds < r->cu[best].lds) best = c;
    }
    return best;
}

/* Pick SIMDs of dispatch unit u (one CU, or a WGP's CUs in WGP mode) for the workgroup's waves
 * (fewest waves first) and its home CU; false if they do not fit. */
static bool place(trun *r, uint32_t u, uint32_t nwaves, uint32_t *simd_of, uint32_t *home)
{
    const tm_machine *m = r->m;
    if ((*home = home_cu(r, u)) == UINT32_MAX) return false;
    uint32_t first = u * r->group * m->simds_per_cu;
    uint32_t waves[16], vg[16], sg[16], ns = r->group * m->simds_per_cu < 16 ? r->group * m->simds_per_cu : 16;
    for (uint32_t s = 0; s < ns; s++) {
        tsimd *x = &r->simd[first + s];
        waves[s] = x->waves, vg[s] = x->vgprs, sg[s] = x->sgprs;
    }
    for (uint32_t i = 0; i < nwaves; i++) {
        uint32_t best = ns;
        for (uint32_t s = 0; s < ns; s++) {
            if (waves[s] >= m->waves_per_simd || vg[s] + r->wave_vgprs > m->vgprs_per_simd ||
                sg[s] + r->wave_sgprs > m->sgprs_per_simd)
                continue;
            if (best == ns || waves[s] < waves[best]) best = s;
        }
        if (best == ns) return false;
        waves[best]++, vg[best] += r->wave_vgprs, sg[best] += r->wave_sgprs;
        simd_of[i] = first + best;
    }
    return true;
}

static umb_mem *take_local(trun *r)
{
    if (r->nlocal) {
        umb_mem *mm = r->local_pool[--r->nlocal];
        umb_mem_clear(mm);
        return mm;
    }
    return umb_mem_create();
}

static void free_wg(trun *r, twg *g, uint32_t inited)
{
    const umb_frontend *fe = r->fe;
    if (g->prev) g->prev->next = g->next;
    else if (r->resident == g) r->resident = g->next;
    if (g->next) g->next->prev = g->prev;
    for (uint32_t i = 0; i < inited; i++)
        if (fe->warp_fini) fe->warp_fini(r->l->kernel, &g->wg.warps[i]);
    if (fe->wg_fini) fe->wg_fini(r->l->kernel, &g->wg);
    if (g->local) r->local_pool[r->nlocal++] = g->local;
    free(g->wg.warps);
    umb_slab_free(r->wave_blocks, g->waves);
    free(g);
}

static bool start_wg(trun *r, uint32_t c, const uint32_t *simd_of, uint64_t t)
{
    umb_launch *l = r->l;
    uint64_t linear = r->next_wg++;
    twg *g = calloc(1, sizeof *g);
    uint32_t nw = l->warps_per_wg;
    if (g) {
        g->wg.warps = umb_calloc_lines(nw, sizeof *g->wg.warps);   /* pc written at every issue */
        bool fresh = false;
        g->waves = umb_slab_alloc(r->wave_blocks, &fresh);
        if (g->waves && !fresh) memset(g->waves, 0, nw * sizeof *g->waves);
        g->local = take_local(r);
    }
    if (!g || !g->wg.warps || !g->waves || !g->local) {
        if (g) free_wg(r, g, 0);
        run_fail(r, UMB_ERR_NOMEM, "timing: out of host memory");
        return false;
    }
    g->next = r->resident;
    if (r->resident) r->resident->prev = g;
    r->resident = g;
    umb_workgroup *wg = &g->wg;
    wg->launch = l;
    wg->linear_id = linear;
    wg->id[0] = (uint32_t)(linear % l->grid[0]);
    wg->id[1] = (uint32_t)(linear / l->grid[0] % l->grid[1]);
    wg->id[2] = (uint32_t)(linear / ((uint64_t)l->grid[0] * l->grid[1]));
    wg->cu = c;
    wg->nwarps = nw;
    wg->local = g->local;
    wg->stats = &part_of(r, c)->stats;
    g->start = t;
    umb_status st = r->fe->wg_init ? r->fe->wg_init(l->kernel, wg) : UMB_OK;
    uint32_t inited = 0;
    for (; st == UMB_OK && inited < nw; inited++) {
        umb_warp *w = &wg->warps[inited];
        w->wg = wg;
        w->id = inited;
        w->width = l->threads_per_warp;
        w->state = UMB_WARP_RUNNABLE;
        st = r->fe->warp_init(l->kernel, w);
        if (st != UMB_OK) {
            inited++;
            break;
        }
    }
    r->stats.workgroups++;
    r->stats.warps += inited;
    if (st != UMB_OK) {
        free_wg(r, g, inited);
        run_fail(r, st, "kernel %s: workgroup setup failed (%s)", kname(r), umb_status_name(st));
        return false;
    }
    g->home = c;
    r->cu[c].wgs++;
    r->cu[c].lds += r->wg_lds;
    r->resident_wgs++;
    r->prefetch = r->resident_wgs * nw > PREFETCH_WAVES;
    r->rec->workgroups++;
    for (uint32_t k = 0; k < nw; k++) {
        /* the Ventus RTL puts a workgroup's last warp in the first slot: it is the oldest */
        uint32_t i = r->m->last_warp_first ? nw - 1 - k : k;
        twave *w = &g->waves[i];
        w->warp = &wg->warps[i];
        w->g = g;
        w->simd = simd_of[i];
        w->cu = simd_of[i] / r->m->simds_per_cu;   /* in WGP mode not always the home CU */
        w->age = r->age++;
        w->start = t;
        tsimd *s = &r->simd[w->simd];
        s->waves++, s->vgprs += r->wave_vgprs, s->sgprs += r->wave_sgprs;
        w->slot = s->nresident++;   /* the youngest: last */
        if (r->array_waves) r->array_waves[w->cu / r->unit_cus * ARRAY_WAVES]++;
        s->wave[w->slot] = w;
        s->isa[w->slot] = w->warp->isa;
        s->warp[w->slot] = w->warp;
        s->next[w->slot] = NULL;
        s->ready[w->slot] = UINT64_MAX;   /* until schedule_next */
        s->port[w->slot] = PORT_NONE;
        r->rec->waves++;
        r->rec->cu[w->cu].waves++;
    }
    /* A wave without work (no lane in the grid) ends at once; the others are scheduled. */
    for (uint32_t k = 0; k < nw; k++) {
        twave *w = &g->waves[r->m->last_warp_first ? nw - 1 - k : k];
        trun *pr = part_of(r, w->cu);
        bool last = g->exited + 1 == nw;   /* then wave_exit retires (and frees) the workgroup */
        bool exits = w->warp->state == UMB_WARP_EXITED;
        if (!(exits ? wave_exit(pr, w, t) : schedule_next(pr, w, t))) return pr != r ? (r->status = pr->status, false) : false;
        if (!exits) simd_touch(pr, &r->simd[w->simd]);
        if (last && exits) break;
    }
    return true;
}

/* Start workgroups, in order, while some dispatch unit (CU, or WGP in WGP mode) has room for the
 * next one; the units are tried round robin. */
static bool dispatch(trun *r, uint64_t t)
{
    const tm_machine *m = r->m;
    uint32_t nw = r->l->warps_per_wg, units = m->cus / r->group;
    uint32_t *simd_of = malloc(nw * sizeof *simd_of);
    if (!simd_of) return run_fail(r, UMB_ERR_NOMEM, "timing: out of host memory"), false;
    bool ok = true;
    while (ok && r->next_wg < r->total_wgs && r->status == UMB_OK) {
        uint32_t u = units, home = 0;
        for (uint32_t i = 0; i < units; i++) {
            uint32_t k = (r->rr_cu + i) % units;
            if (r->unit_off && r->unit_off[k]) continue;
            if (place(r, k, nw, simd_of, &home)) {
                u = k;
                break;
            }
        }
        if (u == units) break;
        r->rr_cu = (u + 1) % units;
        ok = start_wg(r, home, simd_of, t + m->dispatch_cycles);
    }
    free(simd_of);
    return ok;
}

static bool wave_exit(trun *r, twave *w, uint64_t t)
{
    twg *g = w->g;
    tsimd *s = &r->simd[w->simd];
    s->waves--, s->vgprs -= r->wave_vgprs, s->sgprs -= r->wave_sgprs;
    s->nresident--;
    if (r->array_waves) r->array_waves[w->cu / r->unit_cus * ARRAY_WAVES]--;
    clause_end(s, w);
    if (s->vb_wave == w) s->vb_wave = NULL;   /* its record may hold a new wave: no operand cache */
    for (uint32_t i = w->slot; i < s->nresident; i++) {   /* keep the lists oldest first */
        s->ready[i] = s->ready[i + 1];
        s->port[i] = s->port[i + 1];
        s->wave[i] = s->wave[i + 1];
        s->next[i] = s->next[i + 1];
        s->isa[i] = s->isa[i + 1];
        s->warp[i] = s->warp[i + 1];
        s->wave[i]->slot = i;
    }
    simd_touch(r, s);
    r->rec->resident_wave_cycles += t - w->start;
    r->rec->cu[w->cu].resident_wave_cycles += t - w->start;
    if (t > r->now) r->now = t;
    timeline_event(r, "wave", w->cu, w->simd % r->m->simds_per_cu + 1, w->start, t);
    g->exited++;
    if (g->exited < g->wg.nwarps) return r->fe->barrier_counts_exited ? barrier_check(r, g, t) : true;
    /* the workgroup is done */
    if (r->master) {   /* a partition: the master retires it at the quantum's end */
        if (r->nended == r->capended) {
            uint32_t cap = r->capended ? 2 * r->capended : 64;
            struct ended *n = realloc(r->ended, cap * sizeof *n);
            if (!n) return run_fail(r, UMB_ERR_NOMEM, "timing: out of host memory"), false;
            r->ended = n, r->capended = cap;
        }
        r->ended[r->nended++] = (struct ended){ t, g };
        return true;
    }
    return retire_wg(r, g, t);
}

/* Workgroup g ended at t: free its room and start the next ones. */
static bool retire_wg(trun *r, twg *g, uint64_t t)
{
    timeline_event(r, "workgroup", g->home, 0, g->start, t);
    uint32_t c = g->home;
    r->cu[c].wgs--;
    r->cu[c].lds -= r->wg_lds;
    r->resident_wgs--;
    r->prefetch = r->resident_wgs * g->wg.nwarps > PREFETCH_WAVES;
    free_wg(r, g, g->wg.nwarps);
    return dispatch(r, t);
}

/* The dispatch units the launch's CU mask leaves out: a unit (a CU, or a WGP in WGP mode, whose
 * workgroups use both CUs' SIMDs) takes workgroups only if the mask enables all its CUs. False if
 * it leaves every unit out (or on host OOM: then no unit is left out). */
static bool mask_units(trun *r)
{
    uint32_t units = r->m->cus / r->group;
    uint8_t *on = calloc(r->m->cus, 1);
    r->unit_off = calloc(units, 1);
    if (!on || !r->unit_off) {
        free(on), free(r->unit_off);
        r->unit_off = NULL;
        return true;
    }
    for (uint32_t i = 0; i < r->l->ncus; i++)
        if (r->l->cus[i] < r->m->cus) on[r->l->cus[i]] = 1;
    uint32_t left = 0;
    for (uint32_t u = 0; u < units; u++) {
        for (uint32_t c = u * r->group; c < (u + 1) * r->group; c++)
            if (!on[c]) r->unit_off[u] = 1;
        left += !r->unit_off[u];
    }
    free(on);
    return left > 0;
}

/* ---- occupancy ---- */

static void occupancy_limit(trun *r)
{
    const tm_machine *m = r->m;
    uint32_t nw = r->l->warps_per_wg;
    uint32_t lim = m->waves_per_simd;
    const char *why = "wave slots";
    uint32_t by_v = r->wave_vgprs ? m->vgprs_per_simd / r->wave_vgprs : lim;
    uint32_t by_s = r->wave_sgprs ? m->sgprs_per_simd / r->wave_sgprs : lim;
    uint32_t wgs_by_lds = r->wg_lds ? m->lds_per_cu / r->wg_lds : m->max_wgs_per_cu;
    if (wgs_by_lds > m->max_wgs_per_cu) wgs_by_lds = m->max_wgs_per_cu;
    uint32_t by_wg = (uint32_t)((uint64_t)wgs_by_lds * nw / m->simds_per_cu);
    if (by_v < lim) lim = by_v, why = "VGPRs";
    if (by_s < lim) lim = by_s, why = "SGPRs";
    if (by_wg < lim) lim = by_wg, why = r->wg_lds && m->lds_per_cu / r->wg_lds < m->max_wgs_per_cu ? "LDS" : "workgroups";
    r->rec->occ_limit = lim;
    r->rec->occ_limiter = why;
}

/* ---- the launch ---- */

static bool record_launch(umb_timing *t, umb_launch *l, tm_launch_rec **out)
{
    if (t->nrec == t->caprec) {
        size_t cap = t->caprec ? t->caprec * 2 : 8;
        tm_launch_rec *r = realloc(t->rec, cap * sizeof *r);
        if (!r) return false;
        t->rec = r;
        t->caprec = cap;
    }
    tm_launch_rec *rec = &t->rec[t->nrec];
    memset(rec, 0, sizeof *rec);
    rec->cu = umb_calloc_lines(t->m.cus, sizeof *rec->cu);
    if (!rec->cu) return false;
    rec->ncu = t->m.cus;
    snprintf(rec->kernel, sizeof rec->kernel, "%s", l->kernel_name ? l->kernel_name : "?");
    rec->start_cycle = t->total_cycles;
    t->nrec++;
    *out = rec;
    return true;
}

static int prof_cmp(const void *a, const void *b)
{
    const tm_pc_prof *x = a, *y = b;
    uint64_t kx = x->issues + x->stall_cycles, ky = y->issues + y->stall_cycles;
    return kx < ky ? 1 : kx > ky ? -1 : (x->pc > y->pc) - (x->pc < y->pc);
}

/* Keep the per-PC profile of the launch (with disassembly) in its record. */
static int prof_pc_cmp(const void *a, const void *b)
{
    const tm_pc_prof *x = a, *y = b;
    return (x->pc > y->pc) - (x->pc < y->pc);
}

/* Keep the per-PC profile of the launch (with disassembly) in its record: the master's PC table and
 * its partitions', the entries of one PC added up. */
static void keep_profile(trun *r)
{
    umb_warp fake = {0};   /* describe_pc reads the warp's PC only */
    tm_launch_rec *rec = r->rec;
    size_t total = r->pcs.n;
    for (uint32_t i = 0; i < r->nparts; i++) total += r->parts[i].pcs.n;
    rec->prof = calloc(total ? total : 1, sizeof *rec->prof);
    if (!rec->prof) return;
    size_t n = 0;
    for (uint32_t k = 0; k <= r->nparts; k++) {
        const pc_table *t = k == 0 ? &r->pcs : &r->parts[k - 1].pcs;
        for (size_t i = 0; i < t->n; i++) {
            const tm_pc *p = &t->chunk[i / PC_CHUNK][i % PC_CHUNK];
            rec->prof[n++] = (tm_pc_prof){ .pc = p->pc - 1, .issues = p->issues, .stall_cycles = p->stall_cycles };
        }
    }
    qsort(rec->prof, n, sizeof *rec->prof, prof_pc_cmp);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept && rec->prof[kept - 1].pc == rec->prof[i].pc) {
            rec->prof[kept - 1].issues += rec->prof[i].issues;
            rec->prof[kept - 1].stall_cycles += rec->prof[i].stall_cycles;
            continue;
        }
        rec->prof[kept++] = rec->prof[i];
    }
    for (size_t i = 0; i < kept && r->fe->describe_pc; i++) {
        fake.pc = rec->prof[i].pc;
        r->fe->describe_pc(r->l->kernel, &fake, rec->prof[i].text, sizeof rec->prof[i].text);
    }
    qsort(rec->prof, kept, sizeof *rec->prof, prof_cmp);
    rec->nprof = kept;
}

/* A partition's wave reached a global atomic at `now`: the atomic waits for the quantum's end,
 * where the master executes the quantum's atomics in (cycle, CU, SIMD slot) order, so that their
 * order (and the values they return) does not depend on which host thread ran which partition.
 * Other waves of the SIMD go on meanwhile. */
static bool defer_atomic(trun *r, tsimd *s, twave *w, uint64_t now)
{
    if (r->ndeferred == r->capdeferred) {
        uint32_t cap = r->capdeferred ? 2 * r->capdeferred : 64;
        struct deferred *n = realloc(r->deferred, cap * sizeof *n);
        if (!n) return run_fail(r, UMB_ERR_NOMEM, "timing: out of host memory"), false;
        r->deferred = n, r->capdeferred = cap;
    }
    r->deferred[r->ndeferred++] = (struct deferred){ now, w };
    s->ready[w->slot] = UINT64_MAX;
    simd_touch(r, s);
    return true;
}

/* Issue the partition's (or the whole launch's) waves whose turn comes before cycle `limit`. */
static void issue_until(trun *r, uint64_t limit)
{
    while (r->status == UMB_OK) {
        tsimd *s = wheel_next(r, limit);
        if (!s) break;   /* nothing can issue before the limit: done (or deadlocked) */
        uint64_t now = s->next_time;
        twave *w = s->pick;   /* the oldest wave that can issue now */
        uint64_t ready = s->ready[s->pick_slot];
        if (r->prefetch) prefetch_next(r, s);
        if (now > ready) {   /* it was ready; another wave had the port */
            add_state(r, w, TM_ST_PIPE, now - ready);
            w->next->stall_cycles += now - ready;
        }
        if (__builtin_expect(r->master && w->next->ti.cls == UMB_T_VMEM_ATOMIC, 0)) {   /* executed at the quantum's end */
            if (!defer_atomic(r, s, w, now)) break;
            continue;
        }
        if (w->branch_resolving && !branch_resolved(r, s, w, now)) continue;
        if (!issue_one(r, w, now)) break;
        simd_touch(r, s);
    }
}

/* The earliest cycle one of the partition's SIMDs can issue (UINT64_MAX: none). */
static uint64_t next_issue(const trun *r)
{
    uint64_t t = wheel_first(&r->wh);
    return r->wh.nover && r->wh.over_min < t ? r->wh.over_min : t;
}

/* ---- the parallel mode: quanta ---- */

typedef struct quantum_pool {
    trun *r;
    umb_spin_barrier start, end;   /* quanta: thousands of meetings a second */
    pthread_mutex_t gate_lock;   /* the workers wait at the gate until the barriers exist */
    pthread_cond_t gate;
    bool open;
    pthread_t *threads;
    uint32_t nthreads;
    bool stop;
} quantum_pool;

typedef struct worker_arg {
    quantum_pool *pool;
    uint32_t index;
} worker_arg;

/* The partitions host thread `index` runs (index, index + threads, ...) up to the quantum's end. */
static void run_parts(quantum_pool *p, uint32_t index)
{
    trun *r = p->r;
    for (uint32_t i = index; i < r->nparts; i += p->nthreads) issue_until(&r->parts[i], r->parts[i].qend);
}

static void *quantum_worker(void *arg)
{
    worker_arg *a = arg;
    pthread_mutex_lock(&a->pool->gate_lock);
    while (!a->pool->open) pthread_cond_wait(&a->pool->gate, &a->pool->gate_lock);
    pthread_mutex_unlock(&a->pool->gate_lock);
    for (;;) {
        umb_spin_barrier_wait(&a->pool->start);
        if (a->pool->stop) break;
        run_parts(a->pool, a->index);
        umb_spin_barrier_wait(&a->pool->end);
    }
    return NULL;
}

static int ended_cmp(const void *a, const void *b)
{
    const struct ended *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    if (x->g->home != y->g->home) return x->g->home < y->g->home ? -1 : 1;
    return (x->g->wg.linear_id > y->g->wg.linear_id) - (x->g->wg.linear_id < y->g->wg.linear_id);
}

/* The end of a quantum, on the master: the shared levels' requests replayed in (cycle, CU, order)
 * order, then the workgroups that ended retired in (cycle, home CU) order, each starting the next
 * ones as the dispatcher does (their waves begin dispatch_cycles later: after the quantum). */
static bool quantum_end(trun *r)
{
    size_t n = 0;
    for (uint32_t i = 0; i < r->nparts; i++) {
        trun *p = &r->parts[i];
        if (p->status != UMB_OK) return r->status = p->status, false;
        if (p->pms.log_failed) return run_fail(r, UMB_ERR_NOMEM, "timing: out of host memory"), false;
        n += p->pms.nlog;
    }
    tm_req *all = r->parts[0].pms.log;
    if (r->nparts > 1 && n) {
        all = malloc(n * sizeof *all);
        if (!all) return run_fail(r, UMB_ERR_NOMEM, "timing: out of host memory"), false;
        size_t k = 0;
        for (uint32_t i = 0; i < r->nparts; i++) {
            if (r->parts[i].pms.nlog) memcpy(all + k, r->parts[i].pms.log, r->parts[i].pms.nlog * sizeof *all);
            k += r->parts[i].pms.nlog;
        }
    }
    tm_mem_replay(r->ms, all, n);
    if (all != r->parts[0].pms.log) free(all);
    for (uint32_t i = 0; i < r->nparts; i++) r->parts[i].pms.nlog = 0;
    for (;;) {   /* retiring starts workgroups, and a workgroup without work ends at once */
        uint32_t ne = 0;
        for (uint32_t i = 0; i < r->nparts; i++) ne += r->parts[i].nended;
        if (!ne) break;
        struct ended *e = malloc(ne * sizeof *e);
        if (!e) return run_fail(r, UMB_ERR_NOMEM, "timing: out of host memory"), false;
        uint32_t k = 0;
        for (uint32_t i = 0; i < r->nparts; i++) {
            if (r->parts[i].nended) memcpy(e + k, r->parts[i].ended, r->parts[i].nended * sizeof *e);
            k += r->parts[i].nended;
            r->parts[i].nended = 0;
        }
        qsort(e, ne, sizeof *e, ended_cmp);
        bool ok = true;
        for (uint32_t i = 0; i < ne && ok; i++) ok = retire_wg(r, e[i].g, e[i].t);
        free(e);
        if (!ok) return false;
    }
    for (uint32_t i = 0; i < r->nparts; i++) {
        trun *p = &r->parts[i];
        if (p->status != UMB_OK) return r->status = p->status, false;
        if (p->now > r->now) r->now = p->now;
        p->prefetch = r->prefetch;
    }
    return true;
}

static int deferred_cmp(const void *a, const void *b)
{
    const struct deferred *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    if (x->w->simd != y->w->simd) return x->w->simd < y->w->simd ? -1 : 1;
    return (x->w->age > y->w->age) - (x->w->age < y->w->age);
}

/* The quantum's atomics, at its end `t`, in (cycle, SIMD, age) order, on the master thread. */
static bool issue_deferred(trun *r, uint64_t t)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->nparts; i++) n += r->parts[i].ndeferred;
    if (!n) return true;
    struct deferred *d = malloc(n * sizeof *d);
    if (!d) return run_fail(r, UMB_ERR_NOMEM, "timing: out of host memory"), false;
    uint32_t k = 0;
    for (uint32_t i = 0; i < r->nparts; i++) {
        if (r->parts[i].ndeferred)   /* (a partition with none may have no list yet: memcpy(NULL)) */
            memcpy(d + k, r->parts[i].deferred, r->parts[i].ndeferred * sizeof *d);
        k += r->parts[i].ndeferred;
        r->parts[i].ndeferred = 0;
    }
    qsort(d, n, sizeof *d, deferred_cmp);
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        twave *w = d[i].w;
        trun *p = part_of(r, w->cu);
        add_state(p, w, TM_ST_DEP, t - d[i].t);
        w->next->stall_cycles += t - d[i].t;
        ok = issue(p, w, t);
        if (ok) simd_touch(p, &r->simd[w->simd]);
        else r->status = p->status;
    }
    free(d);
    return ok;
}

/* Shader arrays with resident waves (at least 1): the views' share of the shared bandwidth. */
static uint32_t active_arrays(const trun *r)
{
    uint32_t n = 0;
    for (uint32_t u = 0; u < r->m->cus / r->unit_cus; u++) n += r->array_waves[u * ARRAY_WAVES] != 0;
    return n ? n : 1;
}

/* The launch in quanta of r->qend cycles (set by run) on min(host threads, partitions) threads. */
static void run_quanta(trun *r)
{
    uint64_t q = r->qend, start = r->now;
    quantum_pool pool = { .r = r };
    uint32_t threads = umb_device_get_config(r->l->dev)->host_threads;
    pool.nthreads = threads > r->nparts ? r->nparts : threads ? threads : 1;
    worker_arg *args = NULL;
    if (pool.nthreads > 1) {
        pool.threads = calloc(pool.nthreads, sizeof *pool.threads);
        args = calloc(pool.nthreads, sizeof *args);
        uint32_t started = 1;
        if (pool.threads && args) {
            pthread_mutex_init(&pool.gate_lock, NULL);
            pthread_cond_init(&pool.gate, NULL);
            for (; started < pool.nthreads; started++) {
                args[started] = (worker_arg){ &pool, started };
                if (pthread_create(&pool.threads[started], NULL, quantum_worker, &args[started])) break;
            }
        }
        /* the threads that started share the partitions (fewer threads: the same results) */
        pool.nthreads = started;
        if (started > 1) {
            umb_spin_barrier_init(&pool.start, started);
            umb_spin_barrier_init(&pool.end, started);
            pthread_mutex_lock(&pool.gate_lock);
            pool.open = true;
            pthread_cond_broadcast(&pool.gate);
            pthread_mutex_unlock(&pool.gate_lock);
        }
    }
    uint64_t from = start;
    while (r->status == UMB_OK) {
        uint64_t next = UINT64_MAX;
        for (uint32_t i = 0; i < r->nparts; i++) {
            uint64_t t = next_issue(&r->parts[i]);
            if (t < next) next = t;
        }
        if (next == UINT64_MAX) break;   /* nothing can issue: done (or deadlocked) */
        if (next > from) from = next;   /* skip quanta in which nothing issues */
        for (uint32_t i = 0; i < r->nparts; i++) r->parts[i].qend = from + q;
        r->ms->share = active_arrays(r);
        if (pool.nthreads > 1) {
            umb_spin_barrier_wait(&pool.start);
            run_parts(&pool, 0);
            umb_spin_barrier_wait(&pool.end);
        } else {
            run_parts(&pool, 0);
        }
        if (!quantum_end(r)) break;
        for (uint32_t u = 0; u < r->m->cus / r->unit_cus; u++) r->views[u].quantum++;
        if (!issue_deferred(r, from + q)) break;
        from += q;
    }
    if (pool.nthreads > 1) {
        pool.stop = true;
        umb_spin_barrier_wait(&pool.start);
        for (uint32_t i = 1; i < pool.nthreads; i++) pthread_join(pool.threads[i], NULL);
    }
    if (pool.threads && args) {
        pthread_cond_destroy(&pool.gate);
        pthread_mutex_destroy(&pool.gate_lock);
    }
    free(pool.threads);
    free(args);
}

/* The quantum mode, if the machine has shader arrays (L1 instances of whole dispatch units) in
 * front of shared levels: partitions of the launch, one per host thread up to the arrays
 * (timeline and cooperative launches: one). Every launch on such a machine runs in quanta, at one
 * thread too, so that the results do not depend on the number of threads. Machines with an in-order
 * front end (the Ventus RTL's) run as one partition-less launch. */
static bool setup_parts(trun *r)
{
    const tm_machine *m = r->m;
    const tm_cache_cfg *l1 = &m->cache[LVL_L1];
    uint32_t unit = l1->size ? l1->cus_per_instance : 0;
    if (!unit || m->cus % unit || unit % r->group || !m->cache[LVL_L2].size) return true;
    /* The in-order front end's icaches and fetch interlock live in the shared memsys only: a
     * machine with a `frontend:` section runs unpartitioned. */
    if (m->icache.size || m->single_issue) return true;
    uint32_t units = m->cus / unit, threads = umb_device_get_config(r->l->dev)->host_threads;
    uint32_t n = r->t->timeline || r->t->issue_trace || r->l->all_resident || threads <= 1 ? 1
               : threads < units ? threads : units;
    uint32_t q = m->dispatch_cycles;
    if (m->cache[LVL_L2].latency < q) q = m->cache[LVL_L2].latency;
    if (m->store_latency < q) q = m->store_latency;
    r->unit_cus = unit;
    r->qend = q ? q : 1;   /* the master keeps the quantum's length here */
    r->views = tm_views_create(r->ms, units);
    r->array_waves = umb_calloc_lines(units, ARRAY_WAVES * sizeof *r->array_waves);
    r->parts = umb_calloc_lines(n, sizeof *r->parts);
    if (!r->views || !r->array_waves || !r->parts) return run_fail(r, UMB_ERR_NOMEM, "timing: out of host memory"), false;
    uint32_t nsimd = m->cus * m->simds_per_cu;
    for (uint32_t i = 0; i < n; i++) {
        trun *p = &r->parts[i];
        *p = *r;
        p->master = r;
        p->parts = NULL;
        p->views = NULL;
        p->nparts = 0;
        p->resident = NULL;
        p->local_pool = NULL;
        p->wave_blocks = NULL;
        memset(&p->pcs, 0, sizeof p->pcs);
        memset(&p->stats, 0, sizeof p->stats);
        p->waiting = NULL, p->nwaiting = p->capwaiting = 0;
        p->ended = NULL, p->nended = p->capended = 0;
        p->deferred = NULL, p->ndeferred = p->capdeferred = 0;
        p->executed = 0;
        memset(&p->wh, 0, sizeof p->wh);
        p->wh.words = r->wh.words;
        p->wh.cur = r->wh.cur;
        p->wh.over_min = UINT64_MAX;
        memset(&p->prec, 0, sizeof p->prec);
        p->prec.cu = r->rec->cu;
        p->rec = &p->prec;
        p->ms = &p->pms;
        r->nparts = i + 1;   /* what the clean-up frees */
        p->wh.bits = calloc((size_t)WHEEL * p->wh.words, sizeof *p->wh.bits);
        p->wh.over = calloc(nsimd, sizeof *p->wh.over);
        if (!p->wh.bits || !p->wh.over || !tm_memsys_partition(&p->pms, r->ms, r->views, unit))
            return run_fail(r, UMB_ERR_NOMEM, "timing: out of host memory"), false;
    }
    return true;
}

static void free_parts(trun *r)
{
    for (uint32_t i = 0; i < r->nparts && r->parts; i++) {
        trun *p = &r->parts[i];
        free(p->wh.bits);
        free(p->wh.over);
        pc_table_free(&p->pcs);
        tm_memsys_partition_fini(&p->pms);
        free(p->ended);
        free(p->deferred);
        free(p->waiting);
    }
    free(r->parts);
    free(r->array_waves);
    if (r->views) tm_views_destroy(r->views, r->m->cus / r->unit_cus);
}

/* What the partitions counted, into the launch's record and statistics. */
static void merge_parts(trun *r)
{
    for (uint32_t i = 0; i < r->nparts; i++) {
        trun *p = &r->parts[i];
        r->rec->insts += p->prec.insts;
        r->rec->resident_wave_cycles += p->prec.resident_wave_cycles;
        for (int k = 0; k < TM_ST_N; k++) r->rec->state_cycles[k] += p->prec.state_cycles[k];
        for (int k = 0; k < LVL_N; k++) {
            r->rec->level[k].hits += p->pms.level[k].hits;
            r->rec->level[k].misses += p->pms.level[k].misses;
            r->rec->level[k].bytes += p->pms.level[k].bytes;
        }
        r->rec->lds_accesses += p->pms.lds_accesses;
        r->rec->lds_conflict_cycles += p->pms.lds_conflict_cycles;
        r->rec->vgpr_bank_cycles += p->prec.vgpr_bank_cycles;
        umb_stats_add(&r->stats, &p->stats);
    }
}

static umb_status run(trun *r)
{
    umb_launch *l = r->l;
    const tm_machine *m = r->m;
    uint32_t width_factor = l->threads_per_warp > 32 ? 2 : 1;
    r->wave_vgprs = round_up(l->vgprs_per_warp ? l->vgprs_per_warp : 1, m->vgpr_granule) * width_factor;
    r->wave_sgprs = round_up(l->sgprs_per_warp ? l->sgprs_per_warp : 1, m->sgpr_granule);
    r->wg_lds = round_up(l->lds_per_wg, m->lds_granule);
    /* WGP mode (the RDNA3 default): a workgroup's waves may use every SIMD of a WGP's CUs */
    r->group = l->wgp_mode && m->cus_per_wgp > 1 && m->cus % m->cus_per_wgp == 0 ? m->cus_per_wgp : 1;
    if (l->cus && !mask_units(r))
        return run_fail(r, UMB_ERR_INVALID, "kernel %s: the CU mask enables no whole %s of %s", kname(r),
                        r->group > 1 ? "WGP" : "CU", m->name),
               r->status;
    occupancy_limit(r);
    if (r->wg_lds > m->lds_per_cu || !r->rec->occ_limit ||
        (uint64_t)r->rec->occ_limit * m->simds_per_cu * r->group < l->warps_per_wg)
        return run_fail(r, UMB_ERR_INVALID, "kernel %s: a workgroup of %u waves (%u VGPRs, %u bytes of LDS) does not fit "
                        "on one %s of %s", kname(r), l->warps_per_wg, l->vgprs_per_warp, l->lds_per_wg,
                        r->group > 1 ? "WGP" : "CU", m->name),
               r->status;
    uint32_t nsimd = m->cus * m->simds_per_cu;
    if (nsimd >= 65536)
        return run_fail(r, UMB_ERR_INVALID, "timing: %s has %u SIMDs; at most 65535 are supported", m->name, nsimd),
               r->status;
    r->local_pool = calloc(m->cus * m->max_wgs_per_cu + 1, sizeof *r->local_pool);
    r->wave_blocks = umb_slab_create((size_t)l->warps_per_wg * sizeof(twave));
    r->wh.words = (nsimd + 63) / 64;
    r->wh.bits = calloc((size_t)WHEEL * r->wh.words, sizeof *r->wh.bits);
    r->wh.over = calloc(nsimd, sizeof *r->wh.over);
    size_t nslots = (size_t)nsimd * m->waves_per_simd;
    r->ready_lists = umb_calloc_lines(nslots, sizeof *r->ready_lists);
    r->port_lists = umb_calloc_lines(nslots, sizeof *r->port_lists);
    r->wave_lists = umb_calloc_lines(nslots, sizeof *r->wave_lists);
    r->next_lists = umb_calloc_lines(nslots, sizeof *r->next_lists);
    r->isa_lists = umb_calloc_lines(nslots, sizeof *r->isa_lists);
    r->warp_lists = umb_calloc_lines(nslots, sizeof *r->warp_lists);
    if (!r->local_pool || !r->wave_blocks || !r->wh.bits || !r->wh.over || !r->ready_lists || !r->port_lists || !r->wave_lists ||
        !r->next_lists || !r->isa_lists || !r->warp_lists)
        return UMB_ERR_NOMEM;
    for (uint32_t i = 0; i < nsimd; i++) {   /* every SIMD idle */
        tsimd *x = &r->simd[i];
        x->index = i;
        x->next_time = UINT64_MAX;
        x->over_pos = -1;
        x->ready = &r->ready_lists[(size_t)i * m->waves_per_simd];
        x->port = &r->port_lists[(size_t)i * m->waves_per_simd];
        x->wave = &r->wave_lists[(size_t)i * m->waves_per_simd];
        x->next = &r->next_lists[(size_t)i * m->waves_per_simd];
        x->isa = &r->isa_lists[(size_t)i * m->waves_per_simd];
        x->warp = &r->warp_lists[(size_t)i * m->waves_per_simd];
    }
    uint64_t start = r->t->total_cycles;
    r->now = start;
    r->wh.cur = start;
    r->wh.over_min = UINT64_MAX;
    if (!setup_parts(r)) return r->status;
    if (!dispatch(r, start)) return r->status;
    if (l->all_resident && r->next_wg < r->total_wgs)   /* a cooperative launch: they wait for each other */
        return run_fail(r, UMB_ERR_INVALID, "kernel %s: %" PRIu64 " workgroups must be resident at once (a "
                        "cooperative launch), but %s holds only %" PRIu64 " of them (workgroups of %u waves, %u VGPRs, "
                        "%u bytes of LDS)", kname(r), r->total_wgs, m->name, r->next_wg, l->warps_per_wg,
                        l->vgprs_per_warp, l->lds_per_wg),
               r->status;
    if (r->parts) run_quanta(r);
    else issue_until(r, UINT64_MAX);
    trun *wr = r->parts ? &r->parts[0] : r;   /* (a cooperative launch has one partition) */
    if (r->status == UMB_OK && wr->nwaiting) {
        twave *w = wr->waiting[0];
        char why[256] = "waits", at[512] = "";
        if (r->fe->wait_describe) r->fe->wait_describe(l->kernel, w->warp, why, sizeof why);
        w->warp->pc = r->fe->timing_pc(w->warp);
        if (r->fe->describe_pc) r->fe->describe_pc(l->kernel, w->warp, at, sizeof at);
        run_fail(r, UMB_ERR_DEADLOCK, "kernel %s: waves wait at a GWS barrier or semaphore that can never release "
                 "them: %u waves wait for waves of other workgroups and no other wave can run (%" PRIu64 " of %"
                 PRIu64 " workgroups never dispatched: %s holds %u waves per SIMD): workgroup (%u,%u,%u) warp %u %s, "
                 "next %s",
                 kname(r), wr->nwaiting, r->total_wgs - r->next_wg, r->total_wgs, m->name, r->rec->occ_limit,
                 w->g->wg.id[0], w->g->wg.id[1], w->g->wg.id[2], w->warp->id, why, at);
    }
    if (r->status == UMB_OK && (r->resident_wgs || r->next_wg < r->total_wgs))
        run_fail(r, UMB_ERR_DEADLOCK, "kernel %s: deadlock: waves wait at a barrier that can never complete", kname(r));
    /* the launch is over when L2's dirty lines are in memory (the Ventus RTL answers the host then) */
    if (r->status == UMB_OK && m->l2_flush_at_end) r->now = tm_memsys_flush_l2(r->ms, r->now);
    r->rec->cycles = r->now - start;
    return r->status;
}

umb_status umb_timing_run_launch(umb_timing *t, umb_launch *l, umb_stats *stats)
{
    const umb_frontend *fe = l->fe;
    if (!fe->timing_static || !fe->timing_pc) {
        umb_device_set_error(l->dev, "launch %s: the %s front end has no timing model", l->kernel_name ? l->kernel_name : "?",
                             fe->name);
        return UMB_ERR_UNSUPPORTED;
    }
    pthread_mutex_lock(&t->lock);
    trun *r = umb_calloc_lines(1, sizeof *r);
    umb_status st = UMB_ERR_NOMEM;
    if (!r) goto out;
    r->t = t;
    r->issue_trace = t->issue_trace;
    r->m = &t->m;
    r->ms = &t->ms;
    r->l = l;
    r->fe = fe;
    r->total_wgs = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    r->budget = umb_device_get_config(l->dev)->max_instructions;
    r->simd = umb_calloc_lines((size_t)t->m.cus * t->m.simds_per_cu, sizeof *r->simd);
    r->cu = umb_calloc_lines(t->m.cus, sizeof *r->cu);
    if (!r->simd || !r->cu || !record_launch(t, l, &r->rec)) goto out;
    tm_memsys_begin_launch(&t->ms, t->total_cycles);
    tm_memsys before = t->ms;
    double t0 = 0;
    {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        t0 = ts.tv_sec + ts.tv_nsec * 1e-9;
    }
    st = run(r);
    /* memory-system counters of this launch (the partitions' are added by merge_parts) */
    for (int k = 0; k < LVL_N; k++) {
        r->rec->level[k].hits = t->ms.level[k].hits - before.level[k].hits;
        r->rec->level[k].misses = t->ms.level[k].misses - before.level[k].misses;
        r->rec->level[k].bytes = t->ms.level[k].bytes - before.level[k].bytes;
    }
    r->rec->ifetch.hits = t->ms.ifetch.hits - before.ifetch.hits;
    r->rec->ifetch.misses = t->ms.ifetch.misses - before.ifetch.misses;
    r->rec->ifetch.bytes = t->ms.ifetch.bytes - before.ifetch.bytes;
    r->rec->dram_read_bytes = t->ms.dram_read_bytes - before.dram_read_bytes;
    r->rec->dram_write_bytes = t->ms.dram_write_bytes - before.dram_write_bytes;
    r->rec->dram_row_hits = t->ms.dram_row_hits - before.dram_row_hits;
    r->rec->dram_row_misses = t->ms.dram_row_misses - before.dram_row_misses;
    r->rec->lds_accesses = t->ms.lds_accesses - before.lds_accesses;
    r->rec->lds_conflict_cycles = t->ms.lds_conflict_cycles - before.lds_conflict_cycles;
    merge_parts(r);
    t->total_cycles += r->rec->cycles;
    keep_profile(r);
    /* clean up whatever is still resident after a failure */
    while (r->resident) free_wg(r, r->resident, r->resident->wg.nwarps);
    {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        r->stats.host_seconds = ts.tv_sec + ts.tv_nsec * 1e-9 - t0;
    }
    r->stats.launches = 1;
    if (stats) umb_stats_add(stats, &r->stats);
out:
    if (r) {
        for (uint32_t i = 0; i < r->nlocal; i++) umb_mem_destroy(r->local_pool[i]);
        free(r->local_pool);
        free(r->unit_off);
        umb_slab_destroy(r->wave_blocks);
        free_parts(r);
        pc_table_free(&r->pcs);
        free(r->wh.bits);
        free(r->wh.over);
        free(r->ready_lists);
        free(r->port_lists);
        free(r->wave_lists);
        free(r->next_lists);
        free(r->isa_lists);
        free(r->warp_lists);
        free(r->simd);
        free(r->cu);
        free(r->waiting);
        free(r);
    }
    pthread_mutex_unlock(&t->lock);
    if (st != UMB_OK && l->fault.message[0]) umb_device_set_error(l->dev, "%s", l->fault.message);
    return st;
}
