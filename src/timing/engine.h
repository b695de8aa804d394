/* Internal state of the timing model shared by engine.c and report.c. */
#ifndef UMBRA_TIMING_ENGINE_H
#define UMBRA_TIMING_ENGINE_H

#include <pthread.h>
#include <stdalign.h>
#include <stdio.h>

#include "core/lines.h"
#include "timing/event.h"
#include "timing/machine.h"
#include "timing/memsys.h"
#include "timing/timing.h"

/* Where a wave's cycles go. */
typedef enum tm_state {
    TM_ST_ISSUE = 0,     /* issuing (its instruction holds the pipeline) */
    TM_ST_WAIT_VM,       /* s_waitcnt on vmcnt (vector loads) */
    TM_ST_WAIT_LGKM,     /* s_waitcnt on lgkmcnt (LDS, scalar loads) */
    TM_ST_WAIT_VS,       /* s_waitcnt on vscnt (vector stores) */
    TM_ST_BARRIER,
    TM_ST_DEP,           /* a source register not ready yet (ALU latency, s_nop, branch) */
    TM_ST_PIPE,          /* ready, but another wave had the SIMD's pipeline (or its s_clause) */
    TM_ST_VALU_STALL,    /* its VALU instruction holds the SIMD's VALU until a source the code did
                            not announce (s_delay_alu) is ready */
    TM_ST_N
} tm_state;

extern const char *const tm_state_name[TM_ST_N];
extern const char *const tm_level_name[LVL_N];

/* One PC's profile (umbra annotate). */
typedef struct tm_pc_prof {
    uint64_t pc;
    uint64_t issues, stall_cycles;
    char text[120];      /* disassembly */
} tm_pc_prof;

typedef struct tm_cu_rec {
    alignas(UMB_LINE) uint64_t insts, waves;   /* a line each: CUs of two host threads side by side */
    uint64_t state_cycles[TM_ST_N];
    uint64_t resident_wave_cycles;
} tm_cu_rec;

/* What one launch did. */
typedef struct tm_launch_rec {
    char kernel[128];
    uint64_t start_cycle, cycles;
    uint64_t insts, workgroups, waves;
    uint64_t state_cycles[TM_ST_N];
    uint64_t resident_wave_cycles;   /* sum over waves of their lifetime */
    uint32_t occ_limit;              /* waves per SIMD the resources allow */
    const char *occ_limiter;         /* "wave slots", "VGPRs", "SGPRs", "LDS", "workgroups" */
    tm_level_stats level[LVL_N];
    tm_level_stats ifetch;           /* the front end's icache (machine.icache) */
    uint64_t dram_read_bytes, dram_write_bytes;
    uint64_t dram_row_hits, dram_row_misses;   /* accesses that found their row open / had to open it */
    uint64_t lds_accesses, lds_conflict_cycles;
    uint64_t vgpr_bank_cycles;       /* VALU cycles added by VGPR bank conflicts (machine.vgpr_banks) */
    uint32_t ncu;
    tm_cu_rec *cu;
    tm_pc_prof *prof;                /* hottest first */
    size_t nprof;
} tm_launch_rec;

struct umb_timing {
    tm_machine m;
    tm_memsys ms;
    pthread_mutex_t lock;
    uint64_t total_cycles;
    tm_launch_rec *rec;
    size_t nrec, caprec;
    FILE *timeline;
    bool timeline_started;
    FILE *issue_trace;               /* umb_timing_set_issue_trace */
};

#endif
