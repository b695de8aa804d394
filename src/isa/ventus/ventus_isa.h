/* Ventus (乘影) front end: the contract between table, decoder, executors, tracer and driver.
 *
 * Files of this front end:
 *   insns.def        the one instruction table (X-macro): name, match/mask, operand format,
 *                    statistics class, trace flags; decode, disassembly and dispatch derive from it
 *   decode.c         match/mask decoding, operand fields, regext folding, the pre-decoded pages
 *   disasm.c         llvm-objdump-19 text (umb_ventus_disasm) and the golden model's text (trace)
 *   exec_int.c       RV32I, M, A, Zicsr and the Ventus CSRs
 *   exec_fp.c        F (exact RISC-V rounding, NaN and fflags rules) and the FP vector ops
 *   exec_vec.c       zve32f integer / move / memory instructions with per-thread semantics
 *   exec_custom.c    SIMT stack (vbranch/join/setrpc), regext, endprg, barrier, vlw12..vsb12,
 *                    private-memory loads/stores, vadd12/vsub12, vfexp, vftta
 *   warp.c           umb_frontend (workgroup / warp set-up, step loop, faults), umb_ventus_run
 *   trace.c          the commit trace in the golden model's .log format
 *
 * Execution model (spec §1): scalar instructions run once per warp; vector instructions once
 * per thread (lane) that is on in the SIMT mask. Vector registers are structure-of-arrays,
 * v[reg][lane], so that a lane loop over one register is contiguous and vectorisable.
 */
#ifndef UMBRA_VENTUS_ISA_H
#define UMBRA_VENTUS_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "umbra/ventus.h"

#define VT_MAX_LANES 32u
#define VT_NUM_REGS 256u        /* x, f and v numbers after regext reach 255 (golden: NXPR=256) */
#define VT_XSINK VT_NUM_REGS    /* writes to x0 land here and are never read */
#define VT_STACK_DEPTH 32u      /* SIMT stack entries (spec §3) */
#define VT_PCACHE 8u             /* per-warp page cache entries (direct mapped by page number) */
#define VT_LOCAL_BASE 0x70000000u
#define VT_LOCAL_SIZE 0x10000000u

/* Operand formats: how fields are extracted and printed. */
typedef enum vt_fmt {
    VT_F_NONE = 0,
    VT_F_R, VT_F_I, VT_F_ISH, VT_F_LD, VT_F_ST, VT_F_B, VT_F_U, VT_F_J, VT_F_JALR,
    VT_F_FENCE, VT_F_FENCEI, VT_F_CSR, VT_F_CSRI,
    VT_F_AMO, VT_F_LR,
    VT_F_FLD, VT_F_FST, VT_F_FR, VT_F_FRRM, VT_F_FR4, VT_F_F1RM, VT_F_F1, VT_F_FCMP,
    VT_F_FCVT_XF, VT_F_FCVT_FX, VT_F_FMV_XF, VT_F_FMV_FX, VT_F_FCLASS,
    VT_F_VSETVLI, VT_F_VSETIVLI, VT_F_VSETVL,
    VT_F_VLU, VT_F_VLS, VT_F_VLX, VT_F_VSU, VT_F_VSS, VT_F_VSX,
    VT_F_VV, VT_F_VX, VT_F_VI, VT_F_VIU, VT_F_VF,     /* vd, vs2, vs1|rs1|imm|fs1 */
    VT_F_VMA_VV, VT_F_VMA_VX, VT_F_VMA_VF,            /* vd, vs1|rs1|fs1, vs2 (multiply-add) */
    VT_F_V2,                                          /* vd, vs2 (unary) */
    VT_F_VID, VT_F_VMV_VV, VT_F_VMV_VX, VT_F_VMV_VI, VT_F_VFMV_VF,
    VT_F_VMV_XS, VT_F_VMV_SX, VT_F_VFMV_FS, VT_F_VFMV_SF,
    VT_F_VMERGE_VV, VT_F_VMERGE_VX, VT_F_VMERGE_VI, VT_F_VFMERGE,
    VT_F_VBR, VT_F_JOIN, VT_F_SETRPC, VT_F_REGEXT, VT_F_ENDPRG, VT_F_BARRIER,
    VT_F_VADD12, VT_F_VFEXP, VT_F_VFTTA, VT_F_VL12, VT_F_VS12, VT_F_VLP, VT_F_VSP,
    VT_F_COUNT
} vt_fmt;

/* What an instruction writes, for the commit trace (derived from the table). */
enum {
    VT_T_WX = 1u << 0,    /* writes x[rd] */
    VT_T_WF = 1u << 1,    /* writes f[rd] */
    VT_T_WV = 1u << 2,    /* writes v[rd] */
    VT_T_VEC = 1u << 3,   /* a vector instruction (logs vstart and the e32 m1 lN prefix) */
    VT_T_LD = 1u << 4,    /* scalar load, address in maddr[0] */
    VT_T_ST = 1u << 5,    /* scalar store */
    VT_T_VLD = 1u << 6,   /* vector load, lane addresses in maddr[] */
    VT_T_VST = 1u << 7,   /* vector store */
    VT_T_CSR = 1u << 8,   /* CSR instruction */
    VT_T_SIMT = 1u << 9,  /* prints the SIMT stack (opcode 0x5b) */
    VT_T_FP = 1u << 10,   /* may raise fflags */
    VT_T_VSET = 1u << 11, /* vsetvl family */
    VT_T_AMO = 1u << 12,  /* atomic: load then store */
    VT_T_RPC = 1u << 13,  /* setrpc: logs CSR_RPC */
};

typedef enum vt_op {
#define VT_INSN(id, name, match, mask, fmt, cls, tflags) VT_OP_##id,
#include "isa/ventus/insns.def"
#undef VT_INSN
    VT_OP_COUNT,
    VT_OP_ILLEGAL = VT_OP_COUNT
} vt_op;

typedef struct vt_insn vt_insn;
typedef struct vt_warp vt_warp;
typedef struct vt_kernel vt_kernel;
typedef void (*vt_exec_fn)(vt_warp *w, const vt_insn *in);

/* One pre-decoded instruction. Register numbers have regext already applied. */
struct vt_insn {
    vt_exec_fn fn;
    uint32_t bits;
    uint32_t pc;
    int32_t imm;            /* sign-extended immediate of the format (branch/jump: offset) */
    uint16_t op;            /* vt_op */
    uint16_t rd, rs1, rs2, rs3;
    uint16_t xd;            /* x destination: rd, or VT_XSINK for x0 */
    uint8_t vm;             /* 1 = unmasked (vm bit), 0 = masked by v0 */
    uint8_t rm;             /* rounding-mode field */
    uint8_t msize;          /* memory access bytes */
    uint8_t fetch_fault;    /* the word could not be fetched */
    uint8_t cls;            /* umb_insn_class for statistics */
    const vt_insn *ext_next; /* regext/regexti: the next instruction decoded with the extension */
};

/* A page of pre-decoded instructions: 1 KiB of code, decoded on first use (smaller than a
 * memory page so that a short kernel's launch decodes little beyond its code). */
#define VT_PAGE_INSNS 256u
#define VT_PAGE_BYTES (VT_PAGE_INSNS * 4u)
typedef struct vt_page {
    uint64_t base;
    struct vt_page *next;           /* hash chain */
    vt_insn insn[VT_PAGE_INSNS];
    vt_insn *ext;                   /* extended decodes for regext successors */
} vt_page;

#define VT_PAGE_HASH 256u

/* Candidate table rows by major opcode and funct3 (bits 6:0 and 14:12 of the word), in table
 * order, so that decoding scans a handful of rows instead of the whole table. */
#define VT_DECODE_KEYS 1024u
typedef struct vt_decode_index {
    uint16_t start[VT_DECODE_KEYS + 1];
    uint16_t row[VT_OP_COUNT * 8u + VT_DECODE_KEYS];
    bool ok;                /* false: the table outgrew row[]; decoding scans the table */
} vt_decode_index;

/* A launch: shared by every warp and host thread of it. */
struct vt_kernel {
    umb_device *dev;
    umb_mem *global;
    umb_ventus_launch launch;
    uint32_t nlanes, nwarps;
    FILE *trace;
    _Atomic(vt_page *) pages[VT_PAGE_HASH];   /* pre-decoded cache, lock-free insert */
    vt_decode_index dix;                      /* built once per launch, read-only after */
};

typedef struct vt_simt_entry { uint32_t rpc, pc, mask; } vt_simt_entry;

/* Per-warp architectural state. */
struct vt_warp {
    /* hot: the step loop and lane loops */
    uint32_t pc;
    uint32_t mask;          /* SIMT active mask */
    uint32_t nactive;       /* popcount(mask), kept with it for the statistics */
    uint32_t vl;
    uint32_t nlanes;
    uint32_t full;          /* (1 << nlanes) - 1 */
    int stop;               /* 0 running, else the umb_warp_state to return */
    const vt_insn *page;    /* current decoded page */
    uint32_t page_base, page_limit;
    umb_mem *global, *local;
    umb_stats *stats;
    uint32_t *fm;           /* x writes mirror here: f when mstatus.FS is on, else fsink */
    uint32_t fexc;          /* FP exceptions raised by the current instruction */
    bool traced;            /* the launch writes a commit trace */
    /* guest page -> host page, for pages with storage of their own (never the shared zero
     * page: a write elsewhere would replace it). Such pages stay put until the memory is
     * cleared or unmapped, which never happens while the warp runs. Empty tags are ~0. */
    uint32_t pcache_tag[VT_PCACHE];
    uint8_t *pcache_host[VT_PCACHE];
    uint32_t maddr[VT_MAX_LANES];   /* addresses of the last memory instruction (trace) */
    uint32_t x[VT_NUM_REGS + 1];
    uint32_t f[VT_NUM_REGS + 1];
    uint32_t fsink[VT_NUM_REGS + 1];
    uint32_t v[VT_NUM_REGS][VT_MAX_LANES];
    /* CSRs */
    uint32_t csr_tid, csr_numw, csr_numt, csr_knl, csr_wgid, csr_wid, csr_lds, csr_pds;
    uint32_t csr_gid[3], csr_print, csr_rpc;
    uint32_t mstatus, fflags, frm, vtype, vstart, mtvec, mscratch, mepc, mcause, mtval;
    uint32_t mie, mip, satp;
    uint64_t cycle, instret;
    /* SIMT stack */
    vt_simt_entry stack[VT_STACK_DEPTH];
    uint32_t sp;
    uint32_t simt_npc;      /* the golden model's "current npc" (trace) */
    /* LR/SC */
    uint32_t resv_addr, resv_value;
    bool resv_valid;
    uint32_t amo_stored;    /* the last AMO/SC wrote memory (trace) */
    /* links */
    vt_kernel *k;
    umb_warp *uw;
    /* trace: the golden model's disassembly line is printed only when pc/bits change */
    uint32_t tr_last_pc, tr_last_bits, tr_execs;
    uint32_t mstatus_before;
    uint32_t tr_csr;        /* CSR written by the current instruction + 1 (trace), 0 = none */
};

/* ---- table lookups ---- */
typedef struct vt_insn_info {
    const char *name;
    uint32_t match, mask;
    uint8_t fmt;
    uint8_t cls;            /* umb_insn_class */
    uint16_t tflags;
    vt_exec_fn fn;
} vt_insn_info;

extern const vt_insn_info vt_insn_table[VT_OP_COUNT];

/* Decode one word at pc (no regext). Unknown words decode to VT_OP_ILLEGAL. */
void vt_decode(uint32_t bits, uint32_t pc, vt_insn *out);
/* Build the decode index; vt_decode_indexed gives the same result as vt_decode, faster. */
void vt_decode_index_build(vt_decode_index *ix);
void vt_decode_indexed(const vt_decode_index *ix, uint32_t bits, uint32_t pc, vt_insn *out);
/* Apply a regext/regexti prefix (its imm12) to a decoded instruction. */
void vt_apply_regext(vt_insn *in, bool immediate_form, uint32_t imm12);
/* The decoded page holding pc (decoding it on first use); NULL on host OOM. */
const vt_page *vt_page_get(vt_kernel *k, uint32_t pc);
void vt_pages_free(vt_kernel *k);

/* Disassembly: llvm-objdump-19 style (tab after the mnemonic) and golden-model style. */
int vt_disasm_llvm(const vt_insn *in, char *buf, size_t len);
int vt_disasm_spike(uint32_t bits, uint32_t pc, char *buf, size_t len);
const char *vt_csr_name(uint32_t csr);

/* ---- execution helpers shared by the exec_*.c files ---- */
void vt_fault(vt_warp *w, const vt_insn *in, umb_status st, int lane, uint64_t addr,
              const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void vt_illegal(vt_warp *w, const vt_insn *in);
void vt_unsupported(vt_warp *w, const vt_insn *in);

/* Memory routing: local window -> the workgroup's memory, anything else -> global. */
static inline umb_mem *vt_mem_for(const vt_warp *w, uint32_t addr)
{
    return (uint32_t)(addr - VT_LOCAL_BASE) < VT_LOCAL_SIZE ? w->local : w->global;
}
static inline umb_addr_space vt_space_for(uint32_t addr)
{
    return (uint32_t)(addr - VT_LOCAL_BASE) < VT_LOCAL_SIZE ? UMB_SPACE_LOCAL : UMB_SPACE_GLOBAL;
}
/* Guest load/store of 1, 2 or 4 bytes; false after reporting a fault. The inline part hits
 * the warp's page cache; the rest (misaligned, unmapped, zero page, cache miss) goes to the
 * out-of-line slow path, which also refills the cache. */
bool vt_load_slow(vt_warp *w, const vt_insn *in, int lane, uint32_t addr, unsigned size, uint32_t *out);
bool vt_store_slow(vt_warp *w, const vt_insn *in, int lane, uint32_t addr, unsigned size, uint32_t val);

static inline uint8_t *vt_pcache_lookup(const vt_warp *w, uint32_t addr)
{
    uint32_t pn = addr >> 12, e = pn & (VT_PCACHE - 1u);
    return w->pcache_tag[e] == pn ? w->pcache_host[e] + (addr & 0xfffu) : NULL;
}

static inline bool vt_load(vt_warp *w, const vt_insn *in, int lane, uint32_t addr, unsigned size, uint32_t *out)
{
    uint8_t *p = vt_pcache_lookup(w, addr);
    if (__builtin_expect(p != NULL && (addr & (size - 1u)) == 0, 1)) {
        if (size == 4) { uint32_t v; memcpy(&v, p, 4); *out = v; }
        else if (size == 2) { uint16_t v; memcpy(&v, p, 2); *out = v; }
        else *out = *p;
        return true;
    }
    return vt_load_slow(w, in, lane, addr, size, out);
}

static inline bool vt_store(vt_warp *w, const vt_insn *in, int lane, uint32_t addr, unsigned size, uint32_t val)
{
    uint8_t *p = vt_pcache_lookup(w, addr);
    if (__builtin_expect(p != NULL && (addr & (size - 1u)) == 0, 1)) {
        if (size == 4) memcpy(p, &val, 4);
        else if (size == 2) { uint16_t v = (uint16_t)val; memcpy(p, &v, 2); }
        else *p = (uint8_t)val;
        return true;
    }
    return vt_store_slow(w, in, lane, addr, size, val);
}

/* Effective lane mask of a vector instruction: SIMT mask, vl, and v0 when vm=0. */
static inline uint32_t vt_emask(const vt_warp *w, const vt_insn *in)
{
    uint32_t m = w->mask & (w->vl >= 32 ? 0xffffffffu : ((1u << w->vl) - 1u));
    if (!in->vm) m &= w->v[0][0];   /* RVV bit mask: bit i of v0 (lanes < 32 live in element 0) */
    return m;
}

/* Handlers whose lane loops the compiler vectorises are built twice, for AVX2 (eight lanes a
 * host instruction) and for baseline x86-64 (four), and the loader picks one by CPU (GCC
 * function multiversioning: the same symbol, resolved once at start-up). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__)
#define VT_LANE_FN __attribute__((target_clones("avx2", "default")))
#else
#define VT_LANE_FN
#endif

/* Bit i of a lane mask, one per lane, so that lane loops test the mask with a vector AND
 * (the host has no per-lane variable shift). */
static const uint32_t vt_lane_bit[VT_MAX_LANES] = {
    1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7,
    1u << 8, 1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31,
};

/* Store the lanes of r that are on in m into d (all VT_MAX_LANES lanes computed). */
static inline void vt_lane_store(uint32_t *d, const uint32_t *r, uint32_t m)
{
    if (m == 0xffffffffu) {
        memcpy(d, r, VT_MAX_LANES * sizeof *d);
        return;
    }
    for (uint32_t i = 0; i < VT_MAX_LANES; i++) {
        uint32_t on = -(uint32_t)((m & vt_lane_bit[i]) != 0);
        d[i] = (r[i] & on) | (d[i] & ~on);
    }
}

/* x register write that follows the golden model: x0 stays zero; when mstatus.FS is on the
 * value is mirrored into f[rd] (the golden model's WRITE_REG, zfinx-style sharing). */
static inline void vt_wx(vt_warp *w, const vt_insn *in, uint32_t v)
{
    w->x[in->xd] = v;
    w->fm[in->rd] = v;
}
/* f register write; mirrored into x[rd] (golden WRITE_FREG), x0 excepted. */
static inline void vt_wf(vt_warp *w, const vt_insn *in, uint32_t v)
{
    w->f[in->rd] = v;
    w->x[in->xd] = v;
}
void vt_update_fs_mirror(vt_warp *w);

/* CSR access (exec_int.c). Return false for an unknown CSR. */
bool vt_csr_read(vt_warp *w, uint32_t csr, uint32_t *out);
bool vt_csr_write(vt_warp *w, uint32_t csr, uint32_t val);
void vt_mark_vs_dirty(vt_warp *w);
void vt_mark_fs_dirty(vt_warp *w);

/* Trace (trace.c): called after an instruction retired when tracing is on. */
void vt_trace_insn(vt_warp *w, const vt_insn *in, uint32_t fflags_before);

/* Handlers: one per table row (exec_*.c). */
#define VT_INSN(id, name, match, mask, fmt, cls, tflags) void vt_x_##id(vt_warp *w, const vt_insn *in);
#include "isa/ventus/insns.def"
#undef VT_INSN

/* Timing mode: the umb_frontend timing callbacks (timing.c, src/timing/event.h). */
struct umb_tinst;
struct umb_tevent;
uint64_t vt_timing_pc(const umb_warp *uw);
bool vt_timing_static(void *kernel, umb_warp *uw, struct umb_tinst *ti);
void vt_timing_dynamic(void *kernel, const umb_warp *uw, const struct umb_tinst *ti, struct umb_tevent *ev);

#endif
