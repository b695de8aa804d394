/* The memory system of the timing model: caches, DRAM, the LDS banks. It works on addresses and
 * times only; the functional data lives in umbra's memory (src/mem). */
#ifndef UMBRA_TIMING_MEMSYS_H
#define UMBRA_TIMING_MEMSYS_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/machine.h"

typedef struct tm_level_stats {
    uint64_t hits, misses, bytes;   /* bytes moved through this level (requests it served) */
} tm_level_stats;

typedef struct tm_cache {
    uint64_t *tag;          /* sets * assoc; 0 = empty, else (line address << 1 | dirty) + 2 */
    uint64_t *ready;        /* per tag: the cycle its data is there (a line still being filled
                               serves a later request no earlier than that) */
    uint32_t sets, assoc, line_shift;
    uint64_t free_at;       /* next cycle its port takes a request, in 1/256 cycles */
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

typedef struct tm_dram_chan {
    uint64_t bus_free;      /* data bus: next free cycle, in 1/256 cycles */
    uint8_t last;           /* 0: no transfer yet, 1: the last one read, 2: wrote */
} tm_dram_chan;

typedef struct tm_memsys {
    const tm_machine *m;
    tm_cache *inst[LVL_N];  /* instances of each level */
    uint32_t ninst[LVL_N];
    uint64_t dram_free_at;  /* 1/256 cycles (no bank model) */
    tm_dram_chan *chan;     /* the bank model: channels, channels * banks banks, channels * bank
                               groups next-free cycles (1/256) of each bank group's column path */
    tm_dram_bank *bank;
    uint64_t *group_free;
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
} tm_memsys;

bool tm_memsys_init(tm_memsys *ms, const tm_machine *m);
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

/* Cycles the LDS needs for the lanes' dword addresses (bank conflicts serialise), per pass of
 * `lanes_per_pass` lanes; *conflict gets the cycles beyond one per pass. */
uint32_t tm_lds_cycles(tm_memsys *ms, const uint64_t *addr, uint64_t exec, unsigned bytes_per_lane,
                       unsigned lanes_per_pass, uint32_t *conflict);

#endif
