/* umbra/ventus.h — the Ventus (乘影) front end. */
#ifndef UMBRA_VENTUS_H
#define UMBRA_VENTUS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "umbra/device.h"
#include "umbra/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A launch in the Ventus driver's terms (the fields of a `.metadata` file and of
 * ventus-driver's struct meta_data). */
typedef struct umb_ventus_launch {
    uint64_t start_pc;          /* entry of the crt (_start), usually 0x80000000 */
    uint64_t kernel_id;
    uint64_t grid[3];           /* workgroups in x, y, z */
    uint64_t wf_size;           /* threads per warp */
    uint64_t wg_size;           /* warps per workgroup */
    uint64_t metadata_base;     /* CSR_KNL: address of the 64-byte kernel metadata block */
    uint64_t lds_size;          /* local memory bytes per workgroup */
    uint64_t pds_size;          /* private memory bytes per thread */
    uint64_t sgpr_usage, vgpr_usage;
    uint64_t pds_base;          /* CSR_PDS: private memory base */
    const char *name;           /* for reports (may be NULL) */
} umb_ventus_launch;

typedef struct umb_ventus_options {
    FILE *trace;                /* commit trace in the golden model's .log format, or NULL */
    /* A per-PC profile (umbra report's hottest instructions): NULL (no cost), or pc_words
     * counters for the code at [pc_base, pc_base + 4 * pc_words); each issued instruction in
     * that range adds one at (PC - pc_base) / 4. */
    uint64_t *pc_counts;
    uint64_t pc_base, pc_words;
} umb_ventus_options;

/* Run one launch on the device's memory (code and buffers must already be there). */
umb_status umb_ventus_run(umb_device *dev, const umb_ventus_launch *launch,
                          const umb_ventus_options *opt, umb_stats *stats);

/* Disassemble one 32-bit Ventus instruction at pc. Standard RISC-V instructions read as
 * llvm-objdump-19 prints them; custom ones as the Ventus toolchain names them. Returns the
 * length written (an unknown encoding gives "unknown 0x........"). */
int umb_ventus_disasm(uint32_t insn, uint64_t pc, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
