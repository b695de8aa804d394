/* umbra/stats.h — what happened during a launch. */
#ifndef UMBRA_STATS_H
#define UMBRA_STATS_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Instruction classes shared by both instruction sets. */
#define UMB_INSN_CLASSES(X)                                                     \
    X(SALU, "scalar_alu")         /* scalar integer / control-register ops */   \
    X(VALU_INT, "vector_int")     /* per-lane integer ops */                    \
    X(VALU_FP, "vector_fp")       /* per-lane floating point (incl. scalar F on Ventus) */ \
    X(SCALAR_MEM, "scalar_mem")   /* SMEM, scalar RISC-V loads/stores */        \
    X(VECTOR_LOAD, "vector_load") /* per-lane loads (global/private/flat/buffer) */ \
    X(VECTOR_STORE, "vector_store")                                             \
    X(ATOMIC, "atomic")           /* atomics, LR/SC */                          \
    X(LDS, "local_mem")           /* LDS / local memory ops */                  \
    X(BRANCH, "branch")           /* scalar branches and jumps */               \
    X(DIVERGENCE, "simt_control") /* vbranch/join/setrpc, exec-mask updates */  \
    X(SYNC, "sync")               /* barriers, waitcnt, fences */               \
    X(OTHER, "other")

typedef enum umb_insn_class {
#define UMB_X_ENUM(name, str) UMB_CLASS_##name,
    UMB_INSN_CLASSES(UMB_X_ENUM)
#undef UMB_X_ENUM
    UMB_CLASS_COUNT
} umb_insn_class;

/* Address spaces for memory traffic. */
#define UMB_ADDR_SPACES(X) \
    X(GLOBAL, "global") X(LOCAL, "local") X(PRIVATE, "private") X(CONSTANT, "constant")

typedef enum umb_addr_space {
#define UMB_X_ENUM(name, str) UMB_SPACE_##name,
    UMB_ADDR_SPACES(UMB_X_ENUM)
#undef UMB_X_ENUM
    UMB_SPACE_COUNT
} umb_addr_space;

typedef struct umb_mem_traffic {
    uint64_t loads, stores, atomics;           /* lane accesses */
    uint64_t bytes_read, bytes_written;
} umb_mem_traffic;

typedef struct umb_stats {
    uint64_t launches;
    uint64_t workgroups;
    uint64_t warps;
    uint64_t warp_insts;              /* instructions issued, counted once per warp */
    uint64_t thread_insts;            /* sum over issued instructions of the active lanes */
    uint64_t lane_slots;              /* sum over issued instructions of the warp width */
    uint64_t by_class[UMB_CLASS_COUNT];
    uint64_t barriers;                /* workgroup barriers completed */
    uint64_t divergent_branches;      /* branches that split a warp */
    umb_mem_traffic mem[UMB_SPACE_COUNT];
    double host_seconds;              /* wall time of the launch(es) */
} umb_stats;

const char *umb_insn_class_name(umb_insn_class c);
const char *umb_addr_space_name(umb_addr_space s);

/* Add every counter of src into dst. */
void umb_stats_add(umb_stats *dst, const umb_stats *src);
/* SIMT efficiency: active lanes / lane slots (1.0 = no divergence). */
double umb_stats_simt_efficiency(const umb_stats *s);

/* Write as a JSON object (no trailing newline); indent = spaces for each nesting level. */
void umb_stats_write_json(const umb_stats *s, FILE *out, int indent);
/* The same object's members without the braces (each line indented; a newline after the last
 * when indent > 0), for documents that put more members before them. */
void umb_stats_write_json_members(const umb_stats *s, FILE *out, int indent);
/* Write a human-readable table. */
void umb_stats_write_text(const umb_stats *s, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
