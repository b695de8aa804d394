/* A machine description: the numbers the timing model runs on, read from a YAML file. */
#ifndef UMBRA_TIMING_MACHINE_H
#define UMBRA_TIMING_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "umbra/device.h"

#define TM_MSHRS_MAX 64u        /* tm_cache_cfg.mshrs at most */
#define TM_MAX_VGPR_BANKS 8u    /* tm_machine.vgpr_banks at most (the engine counts a byte a bank) */
#define TM_MAX_FETCH_AHEAD 8u   /* tm_machine.fetch_ahead at most (a wave keeps their cycles) */

/* Cache levels, nearest first. The scalar path is scalar cache -> L1 -> L2 -> L3 -> DRAM; the
 * vector path L0 -> L1 -> L2 -> L3 -> DRAM. A level of size 0 is absent (skipped). */
enum { LVL_SCALAR = 0, LVL_L0, LVL_L1, LVL_L2, LVL_L3, LVL_N };

typedef struct tm_cache_cfg {
    uint64_t size;              /* bytes (0: no such level) */
    uint32_t line;              /* bytes */
    uint32_t assoc;             /* ways */
    uint32_t latency;           /* load-to-use cycles of an access that hits here */
    double bytes_per_cycle;     /* of one instance */
    uint32_t cus_per_instance;  /* CUs sharing one instance (0: one for the whole device) */
    uint32_t mshrs;             /* read misses of one instance in flight at once (0: no limit); the
                                   levels above L2 only (memsys.c miss_register) */
    uint32_t miss_cycles;       /* cycles a read miss adds on its way back through this level (its
                                   refill and response stages; 0: none); above L2 only */
    bool invalidate_at_launch;  /* emptied when a launch begins (not coherent with the host's
                                   writes between launches) */
} tm_cache_cfg;

/* GDDR-style DRAM behind the last cache level (memsys.c): independent channels, each with banks
 * holding one open row; the timings in core clock cycles (the file gives nanoseconds). */
typedef struct tm_dram_cfg {
    uint32_t channels;          /* 0: no bank model, DRAM is one queue with a bandwidth */
    uint32_t banks, bank_groups;            /* per channel */
    uint32_t row_bytes, burst_bytes, interleave_bytes;
    uint32_t ccdl_bursts;       /* tCCDL in burst times (tCCDL / tCCDS) */
    uint32_t t_rcd, t_rp, t_ras, t_cl, t_wtr, t_rtw, t_rfc, t_refi;   /* cycles */
    uint32_t t_rrd, t_faw;      /* activations of a channel: apart, and four within (cycles) */
} tm_dram_cfg;

typedef struct tm_machine {
    char name[96];
    double clock_mhz;
    /* compute */
    uint32_t cus, simds_per_cu, waves_per_simd;
    uint32_t vgprs_per_simd, vgpr_granule;     /* per lane, in wave32 registers */
    uint32_t sgprs_per_simd, sgpr_granule;
    uint32_t lds_per_cu, lds_granule;          /* bytes */
    uint32_t max_wgs_per_cu;
    uint32_t cus_per_wgp;                      /* CUs a WGP-mode workgroup may use (1: none) */
    uint32_t dispatch_cycles;                  /* a workgroup's launch to its first issue */
    /* pipeline */
    uint32_t salu_latency, valu_latency, trans_latency, dp_latency;
    uint32_t trans_issue, dp_issue;            /* cycles the SIMD's VALU is busy per wave32 op */
    uint32_t wave64_passes;                    /* VALU passes of a wave64 instruction */
    bool vopd_dual_issue;                      /* a VOPD pair issues in one cycle */
    uint32_t branch_cycles, barrier_cycles;
    /* A VALU instruction whose source is not ready and whose wait the code did not announce
       (s_delay_alu): true: it issues and holds the SIMD's VALU until the source is ready (a
       hardware interlock, RDNA3); false: the wave waits and other waves issue. */
    bool unannounced_stall_simd;
    /* Memory instructions wait until the wave's VALU writes of VGPRs are done, scalar ALU and
       memory instructions until its VALU writes of SGPRs are (RDNA3's VA_VDST / VA_SDST). */
    bool mem_waits_for_valu;
    /* VGPR banks (docs/TIMING.md "VGPR banks"): a VALU instruction's VGPR operands are read from
       vgpr_banks banks (register mod vgpr_banks), each giving vgpr_bank_ports accesses a cycle; an
       instruction needing more holds the SIMD's VALU for the extra cycles. vgpr_operand_reuse: the
       VGPRs the wave's previous VALU instruction on the SIMD read come from the operand cache, not
       the banks; vgpr_bank_writes: the destination writes of the VALU instruction issued just
       before take bank accesses too. vgpr_banks 0: no bank model (the others are then unused). */
    uint32_t vgpr_banks, vgpr_bank_ports;
    bool vgpr_operand_reuse, vgpr_bank_writes;
    uint64_t vgpr_bank_over;    /* derived: 127 - vgpr_bank_ports in every byte (a byte of bank
                                   counts above the ports then has its top bit set) */
    /* memory */
    tm_cache_cfg cache[LVL_N];
    uint32_t dram_latency;                     /* load-to-use cycles of a DRAM access (gddr: one that
                                                  finds another row open in its bank) */
    double dram_bytes_per_cycle;               /* whole device, at the core clock */
    tm_dram_cfg dram;                          /* channels 0: one queue at dram_bytes_per_cycle */
    uint32_t store_latency;                    /* cycles until a store is acknowledged (vscnt) */
    uint32_t lds_latency, lds_banks, lds_bank_bytes;
    bool lds_at_home;                          /* a workgroup's LDS accesses go to its home CU's LDS (the
                                                  half of a WGP's LDS holding its allocation), also
                                                  from waves on the WGP's other CU */
    uint32_t vmem_lines_per_cycle;             /* lines the CU's texture path handles per cycle */
    /* An in-order SIMT front end (optional `frontend:` section; the Ventus RTL): all zero/false
       when the section is absent, and then none of it is modelled. */
    bool single_issue;                         /* one instruction per cycle per SIMD, of any class */
    bool last_warp_first;                      /* a workgroup's last warp is its oldest (first
                                                  priority); else its first warp is */
    bool branch_waits_fetch;                   /* a branch, barrier or end resolves only when no icache
                                                  miss of its CU is outstanding */
    uint32_t wave_issue_interval;              /* cycles between two issues of one wave (at least;
                                                  with an operand collector: after it let the
                                                  first go) */
    uint32_t collector_cycles, operand_cycles; /* an operand collector (0, 0: none): an instruction
                                                  leaves it collector_cycles + operand_cycles x its
                                                  register operands after issue; ALU latencies and
                                                  memory accesses count from then */
    uint32_t fetch_bytes;                      /* bytes a wave fetches at once (0: no fetch model) */
    uint32_t fetch_ahead;                      /* fetch blocks fetched ahead of the one issuing */
    bool in_order_memory_unit;                 /* one memory unit a CU for scalar and vector accesses,
                                                  taking the next once L0 took the last line of the
                                                  one before; a wave issues on once it took its access */
    bool block_waits_first_slot;               /* an instruction that starts a fetch block, reached from
                                                  the one before, waits until no register of the
                                                  previous block's first instruction has a write
                                                  pending (engine.c first_slot_wait) */
    tm_cache_cfg icache;                       /* per CU; misses go to L2 (size 0: fetches always hit) */
    bool l2_flush_at_end;                      /* a launch ends when L2's dirty lines are written back */
} tm_machine;

/* Read path (YAML). On an error: non-OK and a message naming file, line and key. */
umb_status tm_machine_load(const char *path, tm_machine *m, char *err, size_t errlen);

#endif
