/* The one interface between the front ends and the timing model.
 *
 * In timing mode the engine (src/timing/engine.c) decides which wave issues next. For that wave
 * it asks the front end two things about the instruction at the wave's PC, both before the
 * instruction executes:
 *   - umb_frontend.timing_static: what the instruction is (class, registers, counters, waits);
 *     it depends on the code only, so the engine asks once per PC and keeps the answer;
 *   - umb_frontend.timing_dynamic: what this execution of it does (active lanes, per-lane
 *     addresses, the address space a generic access resolves to).
 * Then the engine has the front end execute exactly that instruction (umb_frontend.timing_step,
 * or step with one instruction), so the functional state stays exact. The engine knows no
 * instruction encoding.
 */
#ifndef UMBRA_TIMING_EVENT_H
#define UMBRA_TIMING_EVENT_H

#include <stdint.h>

/* What kind of work an instruction is for the pipeline model. */
typedef enum umb_tclass {
    UMB_T_SALU = 0,      /* scalar ALU (also s_mov, s_cmp, exec-mask updates) */
    UMB_T_VALU,          /* vector ALU */
    UMB_T_VALU_TRANS,    /* vector transcendental (exp, log, rcp, rsq, sqrt, sin, cos) */
    UMB_T_VALU_DUAL,     /* VOPD: two VALU operations issued together */
    UMB_T_VALU_DP,       /* vector double precision (quarter or lower rate) */
    UMB_T_SMEM,          /* scalar memory load */
    UMB_T_VMEM_LOAD,     /* vector memory load (global, buffer, scratch, flat) */
    UMB_T_VMEM_STORE,
    UMB_T_VMEM_ATOMIC,
    UMB_T_LDS,           /* LDS (DS) access */
    UMB_T_BRANCH,
    UMB_T_BARRIER,
    UMB_T_WAITCNT,       /* s_waitcnt*: wait for counters to drop to thresholds */
    UMB_T_DELAY,         /* s_delay_alu, s_nop: an explicit issue delay */
    UMB_T_CLAUSE,        /* s_clause: the next instructions issue back to back */
    UMB_T_END,           /* s_endpgm */
    UMB_T_OTHER,         /* hints, messages, anything without a pipeline of its own */
    UMB_T_VALU_MATRIX,   /* a matrix instruction (WMMA): holds the VALU `delay` cycles, and its
                            results come that much later */
    UMB_T_COUNT
} umb_tclass;

/* The counters an instruction increments and s_waitcnt waits on. */
enum { UMB_CNT_VM = 0, UMB_CNT_LGKM, UMB_CNT_VS, UMB_CNT_EXP, UMB_CNT_N };

/* Address spaces of a memory access as the memory system sees them. */
enum { UMB_TSPACE_GLOBAL = 0, UMB_TSPACE_LDS, UMB_TSPACE_SCRATCH, UMB_TSPACE_SCALAR };

/* Cache-policy bits of a memory instruction (docs/TIMING.md says what each does). */
enum { UMB_TPOL_GLC = 1, UMB_TPOL_SLC = 2, UMB_TPOL_DLC = 4 };

enum { UMB_TREG_NONE = 0, UMB_TREG_V, UMB_TREG_S };

/* Kinds of producer an announced dependency (umb_tinst.dep_kind) names. VALU counts the vector
 * ALU instructions other than transcendental ones (UMB_T_VALU, _DUAL, _DP); TRANS counts
 * UMB_T_VALU_TRANS; SALU is the most recent scalar ALU instruction. VA_VDST / VA_SDST are the
 * wave's outstanding VALU writes of VGPRs / SGPRs, SA_SDST its SALU writes of SGPRs. */
enum { UMB_TDEP_NONE = 0, UMB_TDEP_VALU, UMB_TDEP_TRANS, UMB_TDEP_SALU, UMB_TDEP_CYCLES, UMB_TDEP_VA_VDST,
       UMB_TDEP_VA_SDST, UMB_TDEP_SA_SDST };

typedef struct umb_treg {
    uint8_t file;            /* UMB_TREG_V / UMB_TREG_S */
    uint16_t first, count;   /* registers [first, first + count) */
} umb_treg;

#define UMB_TINST_SRCS 8
#define UMB_TINST_DSTS 3

/* What an instruction is (fixed per PC). */
typedef struct umb_tinst {
    uint8_t cls;                    /* umb_tclass */
    uint8_t nsrc, ndst;
    uint8_t size;                   /* bytes of the encoding (next PC of straight-line code) */
    umb_treg src[UMB_TINST_SRCS];
    umb_treg dst[UMB_TINST_DSTS];
    uint8_t counters;               /* bit UMB_CNT_x: the counters it increments */
    uint8_t out_of_order;           /* bit UMB_CNT_x: it may return out of order on that counter */
    uint8_t waits;                  /* s_waitcnt: bit UMB_CNT_x: wait on that counter */
    uint8_t wait[UMB_CNT_N];        /* ... until it is at most this */
    uint8_t bytes_per_lane;         /* memory: bytes each active lane moves */
    uint8_t policy;                 /* UMB_TPOL_x */
    uint16_t delay;                 /* UMB_T_DELAY: cycles; UMB_T_CLAUSE: instructions;
                                       UMB_T_VALU_MATRIX: cycles it holds the VALU */
    /* UMB_T_DELAY (s_delay_alu, s_waitcnt_depctr): dependencies the code announces, up to
       three. Entry i applies to the instruction dep_at[i] instructions after this one (1 = the
       next; 0 = this one): it waits for the result of the dep_back[i]-th most recent instruction
       of kind dep_kind[i] (UMB_TDEP_x) before it; for UMB_TDEP_CYCLES, dep_back[i] cycles after
       its earliest issue; for the VA_ and SA_ kinds, until at most dep_back[i] such writes are
       outstanding. */
    uint8_t dep_kind[3], dep_back[3], dep_at[3];
    uint8_t late_addr;              /* ask timing_dynamic after the instruction ran (the front
                                       end keeps the addresses it used), not before */
    uint8_t one_lane;               /* memory: a scalar access (one address, lane 0's) */
    uint8_t operands;               /* register operands it reads, x0 and the mask included: what
                                       an operand collector fetches (machine.operand_cycles) */
} umb_tinst;

#define UMB_TEVENT_MAX_LANES 64

/* What one execution of an instruction does (filled just before it runs). */
typedef struct umb_tevent {
    uint64_t exec;                  /* active lanes */
    uint32_t active;                /* popcount of exec */
    uint8_t space;                  /* UMB_TSPACE_x of the access (generic: resolved) */
    uint8_t has_addr;               /* addr[] filled for the active lanes */
    uint8_t wait[UMB_CNT_N];        /* thresholds with a register part resolved (else = static) */
    uint64_t addr[UMB_TEVENT_MAX_LANES];   /* byte address of each lane (index = lane) */
} umb_tevent;

#endif
