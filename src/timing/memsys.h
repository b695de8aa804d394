/* The memory system of the timing model: caches, DRAM, the LDS banks. It works on addresses and
 * times only; the functional data lives in umbra's memory (src/mem). */
#ifndef UMBRA_TIMING_MEMSYS_H
#define UMBRA_TIMING_MEMSYS_H

#include <stdbool.h>
#include <stdint.h>

#include <stdalign.h>

#include "core/lines.h"
#include "timing/machine.h"

typedef struct tm_level_stats {
    uint64_t hits, misses, bytes;   /* bytes moved through this level (requests it served) */
} tm_level_stats;

typedef struct tm_cache {
    /* a line each: the port is written at every access, and neighbours may be another thread's */
    alignas(UMB_LINE) uint64_t *tag;          /* sets * assoc; 0 = empty, else (line address << 1 | dirty) + 2 */
    uint64_t *ready;        /* per tag: the cycle its data is there (a line still being filled
                               serves a later request no earlier than that) */
    uint32_t sets, assoc, line_shift;
    uint64_t free_at;       /* next cycle its port takes a request, in 1/256 cycles */
    uint64_t fill_until;    /* icache: the cycle its latest miss is filled */
    uint64_t *mshr_free;    /* tm_cache_cfg.mshrs entries: the cycle each miss register is free */
} tm_cache;

#define TM_LDS_SPAN_WORDS 16384u   /* 64 KiB of 4-byte words: any pass within one workgroup's LDS */

/* A pass of lanes whose LDS cycles were counted before: its cycles depend only on which lanes take
 * part, the bytes each asks for, and the lanes' addresses relative to the first one's (with that
 * one's place within a bank word), so a pattern seen again (every iteration of a loop over a tile) is
 * looked up instead of counted. */
#define TM_LDS_MEMO 256u
typedef struct tm_lds_memo {
    uint64_t pass;          /* lanes of the pass (0: an empty entry) */
    uint64_t phase;         /* the first lane's address modulo bank_bytes (banks * bank_bytes
                               with more than 64 banks) */
    uint32_t words, cycles, ideal;
    int32_t delta[64];      /* each lane's address minus the first lane's (0 for lanes not in it) */
} tm_lds_memo;

/* A DRAM bank: the row it holds open and when it can take commands (machine.h tm_dram_cfg). */
typedef struct tm_dram_bank {
    uint64_t row;           /* open row + 1; 0: precharged */
    uint64_t act_at;        /* cycle of its last activation (tRAS runs from it) */
    uint64_t ready;         /* next cycle it takes a command */
    uint64_t epoch;         /* refresh window it last saw (a refresh closes every row) */
} tm_dram_bank;

/* A resource booked in intervals (1/256 cycles): everything booked ends by `end`; up to
 * TM_DRAM_GAPS free intervals before it stay open to a later request that is ready sooner (a
 * controller's bounded first-ready reordering). gap_to 0: slot empty. */
#define TM_DRAM_GAPS 8
typedef struct tm_busy {
    uint64_t end;
    uint64_t gap_from[TM_DRAM_GAPS], gap_to[TM_DRAM_GAPS];
} tm_busy;

typedef struct tm_dram_chan {
    tm_busy bus;            /* the data bus */
    tm_busy acts;           /* activation slots (tRRD apart, four per tFAW) */
    uint32_t miss_q16;      /* recent fraction of its accesses that opened a row (x 65536, a
                               moving average over about 32 accesses): what a view charges each
                               access in activation slots */
    uint32_t writes;        /* writes since the last write batch began (turnaround accounting) */
} tm_dram_chan;

/* A request that reached the shared levels (L2 and below) during a quantum of the parallel mode
 * (engine.c): replayed on the shared state at the quantum's end in (t, cu, seq) order. */
typedef struct tm_req {
    uint64_t t, addr;
    uint32_t cu, seq;
    uint8_t level, kind, policy;
} tm_req;

#define TM_VIEW_FILLS 512u

/* One shader array's view of the shared levels during a quantum: the shared state as the quantum
 * began (read only) and, copied on first use, the parts of it the array's own requests change
 * (ports, DRAM channels and banks), with the lines it filled. It depends on nothing another array
 * does in the quantum. */
typedef struct tm_view {
    alignas(UMB_LINE) uint64_t quantum;   /* a line each: each shader array's, written by its thread */                    /* the quantum its copies belong to */
    uint64_t *free_at[LVL_N];            /* port copies of each shared level's instances */
    uint64_t port_q[LVL_N];              /* quantum of those copies */
    uint64_t dram_free_at, dram_q;       /* the queue model's port */
    tm_dram_chan *chan;                  /* channel copies (their data bus) ... */
    uint64_t *chan_q;                    /* ... and the quantum of each channel's copy */
    struct { uint64_t line, ready, quantum; int level; } fill[TM_VIEW_FILLS];
} tm_view;

typedef struct tm_memsys tm_memsys;

typedef struct tm_memsys {
    const tm_machine *m;
    tm_cache *inst[LVL_N];  /* instances of each level */
    uint32_t ninst[LVL_N];
    uint64_t dram_free_at;  /* 1/256 cycles (no bank model) */
    tm_dram_chan *chan;     /* the bank model: channels, channels * banks banks, channels * bank
                               groups bookings of each bank group's column path */
    tm_dram_bank *bank;
    tm_busy *group_free;
    uint64_t dram_row_hits, dram_row_misses;
    tm_level_stats level[LVL_N];
    uint64_t dram_read_bytes, dram_write_bytes;
    uint64_t lds_accesses, lds_conflict_cycles;
    /* the distinct LDS words of one pass: a bitmap over the words from the pass's lowest one
     * (all zero between passes), or for a pass spanning more words than it has, a hash set
     * emptied by bumping the generation */
    uint64_t lds_seen[TM_LDS_SPAN_WORDS / 64];
    uint64_t lds_word[512];
    uint32_t lds_stamp[512], lds_gen;
    tm_lds_memo *lds_memo;  /* TM_LDS_MEMO entries, direct mapped by a hash of the pattern */
    tm_cache *icache;       /* the front end's instruction caches, one per CU (machine.icache) */
    uint32_t nicache;
    tm_level_stats ifetch;  /* their hits and misses */
    /* a partition of the parallel mode: its CUs' private levels are the shared memsys's
       instances; requests for L2 and below are answered from views[cu / unit_cus] and logged */
    tm_memsys *shared;
    tm_view *views;
    uint32_t unit_cus;
    uint32_t *cu_seq;
    tm_req *log;
    size_t nlog, caplog;
    bool log_failed;
    /* the shared memsys of the parallel mode: the shader arrays with resident waves as a quantum
       begins; a view books a shared port or DRAM channel for that many times a request's bytes
       (its fair share of the bandwidth while the others' requests are not known) */
    uint32_t share;
} tm_memsys;

bool tm_memsys_init(tm_memsys *ms, const tm_machine *m);

/* The parallel mode (engine.c). Views of the shared levels for `units` shader arrays; a partition
 * memsys working on shared's private-level instances (its own counters and LDS scratch); the
 * replay of the quantum's requests (sorted here) on the shared state. */
tm_view *tm_views_create(const tm_memsys *shared, uint32_t units);
void tm_views_destroy(tm_view *v, uint32_t units);
bool tm_memsys_partition(tm_memsys *part, tm_memsys *shared, tm_view *views, uint32_t unit_cus);
void tm_memsys_partition_fini(tm_memsys *part);
void tm_mem_replay(tm_memsys *shared, tm_req *reqs, size_t n);
void tm_memsys_fini(tm_memsys *ms);

/* A kernel dispatch begins: the levels with invalidate_at_launch are emptied (on gfx1100 the
 * command processor invalidates the scalar cache, L0 and L1; L2 and the Infinity Cache keep
 * their contents). */
void tm_memsys_begin_launch(tm_memsys *ms, uint64_t t);

enum { TM_READ = 0, TM_WRITE, TM_ATOMIC };

/* One line request of CU cu reaching `first` (LVL_SCALAR or LVL_L0) at cycle t; returns the
 * cycle its data is back (reads) or it is acknowledged (writes). policy: UMB_TPOL_x. */
uint64_t tm_mem_line(tm_memsys *ms, uint32_t cu, int first, uint64_t line_addr, int kind, unsigned policy,
                     uint64_t t);

/* An instruction fetch of CU cu (machine.fetch_bytes at byte_addr) asked at cycle t: the
 * cycle the instructions are there. A miss goes to L2 (or what is below it). */
uint64_t tm_mem_fetch(tm_memsys *ms, uint32_t cu, uint64_t byte_addr, uint64_t t);

/* The first cycle from t on at which no miss of CU cu's icache is outstanding (as far as the
 * fetches asked so far go). */
uint64_t tm_mem_fetch_idle(const tm_memsys *ms, uint32_t cu, uint64_t t);

/* The first cycle from t on at which CU cu's first level (L0, or the level below it) takes a
 * request: its port is free, and so is one of its miss registers. */
uint64_t tm_mem_l0_accepts(const tm_memsys *ms, uint32_t cu, uint64_t t);

/* Write L2's dirty lines back to DRAM, from cycle t (they stay valid, now clean); returns the
 * cycle the last write is done (t if none was dirty). */
uint64_t tm_memsys_flush_l2(tm_memsys *ms, uint64_t t);

/* Cycles the LDS needs for the lanes' dword addresses (bank conflicts serialise), per pass of
 * `lanes_per_pass` lanes; *conflict gets the cycles beyond one per pass. */
uint32_t tm_lds_cycles(tm_memsys *ms, const uint64_t *addr, uint64_t exec, unsigned bytes_per_lane,
                       unsigned lanes_per_pass, uint32_t *conflict);

#endif
