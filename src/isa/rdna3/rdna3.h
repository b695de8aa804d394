/* RDNA3 (gfx1100) front end: the shared contract between decoder, executors and runtime.
 *
 * Files of this front end:
 *   decode.c / disasm.c / opcodes.c   encodings -> rdna3_inst, rdna3_inst -> llvm-objdump text
 *   exec_alu.c (+ exec_*.c)           SOP1/SOP2/SOPK/SOPC/SOPP, VOP1/VOP2/VOPC/VOP3/VOP3P/VOPD, DPP
 *   exec_mem.c (+ src/mem/amd_*.c)    SMEM, DS, FLAT/GLOBAL/SCRATCH, MUBUF, MTBUF, MIMG (exec_mem_img.c)
 *   mimg.h                            MIMG operand layout from the opcode table (decode, disasm, exec)
 *   wave.c                            the pre-decoded cache and the step loop (umb_frontend)
 *   src/runtime/rdna3_*.c             code objects, launch state, kernarg, dispatch
 *
 * Register file layout: sgpr[] is indexed by the 8-bit scalar operand encoding, so that
 * VCC_LO/HI (106/107), M0 (125) and EXEC_LO/HI (126/127) live at their encodings and a
 * 64-bit scalar operand at n is sgpr[n] | sgpr[n+1] << 32. VGPRs are structure-of-arrays:
 * vgpr[reg * RDNA3_MAX_LANES + lane], so a lane loop over one register is contiguous.
 */
#ifndef UMBRA_RDNA3_H
#define UMBRA_RDNA3_H

#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

#include "core/core.h"

#define RDNA3_MAX_LANES 64
#define RDNA3_NUM_VGPRS 256
#define RDNA3_NUM_SGPR_SLOTS 128   /* operand encodings 0..127 */

/* Scalar operand encodings (gfx11). */
enum {
    RDNA3_SRC_VCC_LO = 106, RDNA3_SRC_VCC_HI = 107,
    RDNA3_SRC_NULL = 124, RDNA3_SRC_M0 = 125,
    RDNA3_SRC_EXEC_LO = 126, RDNA3_SRC_EXEC_HI = 127,
    RDNA3_SRC_CONST_ZERO = 128,          /* 128..192: integers 0..64 */
    RDNA3_SRC_CONST_NEG1 = 193,          /* 193..208: integers -1..-16 */
    RDNA3_SRC_DPP8 = 233, RDNA3_SRC_DPP8FI = 234,
    RDNA3_SRC_SHARED_BASE = 235, RDNA3_SRC_SHARED_LIMIT = 236,
    RDNA3_SRC_PRIVATE_BASE = 237, RDNA3_SRC_PRIVATE_LIMIT = 238,
    RDNA3_SRC_POPS_EXITING_WAVE_ID = 239,
    RDNA3_SRC_F_HALF = 240,              /* 240..247: 0.5 -0.5 1.0 -1.0 2.0 -2.0 4.0 -4.0 */
    RDNA3_SRC_INV_2PI = 248,
    RDNA3_SRC_DPP16 = 250,
    RDNA3_SRC_VCCZ = 251, RDNA3_SRC_EXECZ = 252, RDNA3_SRC_SCC = 253,
    RDNA3_SRC_LDS_DIRECT = 254, RDNA3_SRC_LITERAL = 255,
    RDNA3_SRC_VGPR0 = 256,               /* 9-bit source fields: 256..511 = v0..v255 */
};

/* Encoding families. */
typedef enum rdna3_format {
    RDNA3_FMT_INVALID = 0,
    RDNA3_FMT_SOP1, RDNA3_FMT_SOP2, RDNA3_FMT_SOPK, RDNA3_FMT_SOPC, RDNA3_FMT_SOPP,
    RDNA3_FMT_SMEM,
    RDNA3_FMT_VOP1, RDNA3_FMT_VOP2, RDNA3_FMT_VOPC,
    RDNA3_FMT_VOP3,        /* VOP3 (incl. VOP1/VOP2/VOPC promoted to e64; op is the VOP3 opcode) */
    RDNA3_FMT_VOP3SD,      /* VOP3 with a scalar destination (carry-out, div_scale, mad_u64_u32) */
    RDNA3_FMT_VOP3P,
    RDNA3_FMT_VOPD,
    RDNA3_FMT_VINTERP, RDNA3_FMT_LDSDIR,
    RDNA3_FMT_DS,
    RDNA3_FMT_FLAT, RDNA3_FMT_GLOBAL, RDNA3_FMT_SCRATCH,
    RDNA3_FMT_MUBUF, RDNA3_FMT_MTBUF,
    RDNA3_FMT_MIMG, RDNA3_FMT_EXP,
    RDNA3_FMT_COUNT
} rdna3_format;

/* DPP form of a VOP1/VOP2/VOPC/VOP3 instruction. */
typedef enum rdna3_dpp_kind { RDNA3_DPP_NONE = 0, RDNA3_DPP_16, RDNA3_DPP_8 } rdna3_dpp_kind;

typedef struct rdna3_wave rdna3_wave;
typedef struct rdna3_inst rdna3_inst;
typedef void (*rdna3_exec_fn)(rdna3_wave *w, const rdna3_inst *in);
struct rdna3_jit_turn;
struct rdna3_jit_code;

/* One pre-decoded instruction. Fields an encoding does not have are zero. */
struct rdna3_inst {
    rdna3_exec_fn exec;        /* resolved once at decode time */
    uint8_t fmt;               /* rdna3_format */
    uint8_t size;              /* bytes, including literal / DPP dword */
    uint16_t op;               /* opcode within the format (VOP3: the 10-bit VOP3 opcode) */
    uint8_t insn_class;        /* umb_insn_class, for statistics */
    uint8_t dpp;               /* rdna3_dpp_kind */
    uint8_t has_literal;
    uint8_t nsrc;              /* sources the instruction reads */
    uint8_t wave_local;        /* touches only this wave's registers (see wave.c: may run ahead) */
    uint8_t hint;              /* changes nothing unless waits are checked (s_nop, s_waitcnt, ...) */
    uint8_t lds_read;          /* an LDS load and nothing else: may run ahead while the workgroup's
                                * other waves cannot write LDS (lds_quiet.c) */
    uint8_t may_jump;          /* its handler may set next_pc to other than pc + size (rdna3_may_jump):
                                * where a run-ahead may stop (wave.c RUN_AHEAD_MAX) */
    uint32_t literal;
    uint32_t raw[4];           /* the encoding, dwords */

    /* ALU operands: 9-bit encodings (VGPRs are 256 + n). VOP2's vsrc1 is stored as 256 + n. */
    uint16_t src[3];
    uint16_t vdst;             /* VGPR number (0..255) or scalar dst encoding for SALU / VOPC e64 */
    uint16_t sdst;             /* VOP3SD scalar dst; VOPC e32 writes VCC */
    uint16_t simm16;           /* SOPK / SOPP immediate (raw) */
    uint8_t abs, neg, neg_hi;  /* bit i applies to source i */
    uint8_t opsel, opsel_hi;   /* VOP3 op_sel (bit 3 = dst), VOP3P op_sel_hi */
    uint8_t clamp, omod;

    union {
        struct {
            /* DPP */
            uint16_t dpp_ctrl;         /* DPP16 control */
            uint8_t row_mask, bank_mask, bound_ctrl, fetch_inactive;
            uint32_t dpp8_sel;         /* DPP8: 8 x 3-bit lane selects */

            /* VOPD: the X half uses op/src[0..1]/vdst, the Y half these. */
            uint16_t opy;
            uint16_t srcy[2];
            uint16_t vdsty;
        };
        /* MIMG (vdata in data0, srsrc in saddr, glc/slc/dlc/tfe below; see mimg.h). MIMG has no
         * DPP or VOPD fields: sharing their bytes keeps the record (and the decoded-instruction
         * cache) as small as before. */
        struct {
            uint8_t dmask, dim, unorm, r128, a16, d16, lwe, nsa;
            uint8_t naddr;             /* address VGPRs read (dwords) */
            uint8_t vaddr[5];          /* address registers: NSA, each operand; else vaddr[0] (a tuple) */
            uint16_t ssamp;            /* sampler SGPR number */
        };
    };

    /* Memory: DS, FLAT/GLOBAL/SCRATCH, MUBUF/MTBUF, SMEM */
    int32_t offset;            /* instruction offset (signed where the encoding is) */
    uint8_t offset1;           /* DS second offset */
    uint8_t glc, slc, dlc, gds, tfe, offen, idxen, sve;
    uint8_t mem_format;        /* MTBUF unified format */
    uint16_t addr;             /* VGPR address (DS/FLAT/VADDR) */
    uint16_t data0, data1;     /* VGPR data operands */
    uint16_t saddr;            /* FLAT saddr / SMEM sbase (SGPR number) / MUBUF srsrc (SGPR number) */
    uint16_t soffset;          /* MUBUF/MTBUF/SMEM soffset encoding */
};

/* Per-wave architectural state. */
#define RDNA3_SMEM_PAGES 4u   /* a kernel's s_loads read its kernarg page and a few descriptor pages */

struct rdna3_wave {
    /* What every instruction (and the timing model's issue) touches is in the first cache line
     * (wave.c asserts it); the rest of the header and the SGPRs (EXEC, VCC) follow, then the
     * 64 KiB VGPR file. */
    alignas(64) uint64_t pc;   /* byte address of the current instruction */
    uint64_t next_pc;          /* set to pc + size before exec; branches overwrite it */
    struct rdna3_kernel *kernel; /* launch context (code, memory, apertures) */
    umb_stats *stats;
    uint64_t lane_mask;        /* all lanes of the wave: (1 << wave_size) - 1 */
    uint32_t wave_size;        /* 32 or 64 */
    umb_warp_state state;      /* executors set AT_BARRIER / EXITED / FAULTED */
    uint32_t mode;             /* MODE register */
    uint32_t ahead;            /* round-robin turns already used by run-ahead (wave.c fe_round) */
    bool scc;
    /* A fault of an instruction run ahead of its turn waits for that turn (wave.c). */
    bool defer_fault;          /* set while such an instruction runs */
    /* end of the first line */
    umb_status deferred_status;
    char *deferred_msg;        /* non-NULL: it faulted; reported at its turn */
    uint32_t trapsts;
    uint64_t flat_scratch;     /* scratch base of this wave (0: none) */
    umb_warp *warp;            /* core warp (NULL in single-step use) */
    /* --check-waitcnt state lives here too (see exec_mem.c) */
    void *waitcnt;
    /* While the wave is UMB_WARP_WAITING at a GWS resource (exec_gws.c): which one, and since when */
    uint64_t gws_ticket;       /* barrier: the resource's releases when it arrived; semaphore: its place in the queue */
    uint8_t gws_rid;           /* resource id 0..63 */
    uint8_t gws_wait;          /* RDNA3_GWS_WAIT_* */
    /* The pages of the wave's recent s_loads (exec_mem_smem.c), direct-mapped by page number:
     * page number + 1 (0: none) and the page's host bytes. Only pages with storage (own or the
     * host's) are kept: their host address does not change while waves run, where a zero page is
     * replaced when some wave writes it. */
    uint64_t smem_page_tag[RDNA3_SMEM_PAGES];
    const uint8_t *smem_page[RDNA3_SMEM_PAGES];
    uint32_t sgpr[RDNA3_NUM_SGPR_SLOTS];
    alignas(64) uint32_t vgpr[RDNA3_NUM_VGPRS * RDNA3_MAX_LANES];
};

/* The front end's part of a workgroup (umb_workgroup.isa): its LDS pages, materialised when the
 * workgroup starts, so that DS instructions reach them without walking wg->local's radix table.
 * wg->local keeps holding the same pages for every other path. */
typedef struct rdna3_wg {
    uint32_t lds_size;
    umb_mem *local;            /* the memory the LDS is mapped into (at address 0) */
    /* The LDS bytes in one block of host memory, mapped into `local` page by page, so that an
     * access may cross a page (the whole-wave paths of exec_mem_ds.c and the translator's inline
     * LDS use lds directly); NULL when lds_size is 0. */
    uint8_t *lds;
    size_t lds_bytes;          /* lds_size rounded up to whole pages: what is mapped */
} rdna3_wg;

/* The host side of AMD's hostcall mechanism (HIP printf, device malloc, assert), when the launch's
 * kernel has a hostcall buffer (src/runtime/rdna3_hostcall.c). The device pushes a packet on the
 * buffer's ready stack and rings the doorbell signal, whose event mailbox makes it execute
 * s_sendmsg(MSG_INTERRUPT); then it sleeps (s_sleep) until the host clears the packet's ready bit.
 * Both instructions call `service`, which serves every ready packet at once, so that a wave never
 * waits for the host. */
typedef struct rdna3_host rdna3_host;
struct rdna3_host {
    /* Serve the ready packets; a broken request faults w (rdna3_fault on `in`). */
    void (*service)(rdna3_host *h, rdna3_wave *w, const rdna3_inst *in);
    /* w executes s_trap: why, as far as the host knows (a failed assertion's message, which the
     * device sent as a hostcall just before), into buf; "" if nothing is known. */
    void (*trap_reason)(rdna3_host *h, rdna3_wave *w, char *buf, size_t len);
};

/* The launch context shared by every wave of a dispatch. */
typedef struct rdna3_kernel {
    umb_device *dev;
    umb_mem *global;           /* device memory */
    uint64_t code_base, code_size;   /* where the code object's text is, for fetch */
    const char *name;
    uint64_t shared_base, private_base; /* apertures (64-bit bases; limits = base | 0xffffffff) */
    uint32_t lds_size;         /* bytes of LDS per workgroup (static + dynamic) */
    uint32_t scratch_per_lane; /* private segment bytes per work-item */
    uint32_t alignment_mode;   /* SH_MEM_CONFIG.alignment_mode 0..3 (default 3, UNALIGNED) */
    /* NULL, or per code dword 1 where no LDS write can follow before a barrier (lds_quiet.c;
     * rdna3_lds_quiet_map at launch, freed by rdna3_kernel_release) */
    uint8_t *lds_quiet;
    bool check_waitcnt;
    FILE *trace;
    void *runtime;             /* src/runtime's launch data (kernarg, dispatch, ...) */
    /* src/runtime fills a new wave's launch state here: PC, SGPRs, VGPRs, EXEC, FLAT_SCRATCH,
     * MODE (see wave.h; wave.c has already zeroed the wave and set wave_size/lane_mask). */
    umb_status (*init_wave)(struct rdna3_kernel *k, umb_workgroup *wg, umb_warp *warp, rdna3_wave *w);
    void *icache;              /* wave.c: the pre-decoded instruction cache (rdna3_kernel_prepare) */
    /* NULL, or one counter per code dword ((PC - code_base) / 4): each issued instruction adds
     * one at its PC (umbra report's hottest instructions; relaxed atomics, host threads share it) */
    uint64_t *pc_counts;
    /* NULL, or the host services of a launch with a hostcall buffer: then s_sendmsg(MSG_INTERRUPT)
     * and s_sleep call host->service (and s_sleep is no longer a hint that may run ahead). */
    rdna3_host *host;
    /* The launch's Global Wave Sync resources (exec_gws.c), or NULL: the launch owns none (not a
     * cooperative launch) and ds_gws_* fault, as the hardware NACKs them */
    struct rdna3_gws *gws;
    /* NULL, or where the launch's translated code is published (src/runtime/rdna3_jit_cache.c):
     * the front end rdna3_frontend_jit reads it at each round and runs turns with the code once it
     * is there (a translation made in the background arrives while the launch runs). Set before
     * the launch, or while it runs by its jit_trigger. */
    _Atomic(_Atomic(const struct rdna3_jit_code *) *) jit;
    /* NULL, or `auto`'s trigger on work (rdna3_jit_trigger): the rounds that run interpreted add
     * their wave-instructions, and the round that passes the threshold asks for a translation */
    struct rdna3_jit_trigger *jit_trigger;
} rdna3_kernel;

/* `auto` on work done (src/runtime/rdna3_launch.c): a launch whose translation was not asked for
 * at its start counts the wave-instructions it runs interpreted; the first round that brings them
 * to `threshold` calls fire once, on its host thread, which may set rdna3_kernel.jit. */
typedef struct rdna3_jit_trigger {
    _Atomic uint64_t work;
    uint64_t threshold;
    _Atomic int fired;
    void (*fire)(struct rdna3_jit_trigger *t, rdna3_kernel *k);
} rdna3_jit_trigger;

/* Run the statements for each lane l of mask, in lane order. With every lane on (the common
 * case) the loop has no per-lane test and a constant trip count per wave size, so it vectorises
 * without a remainder loop. */
#define RDNA3_FOR_LANES(w, mask, ...)                                                         \
    do {                                                                                      \
        if ((mask) == (w)->lane_mask && (w)->wave_size == 32) {                               \
            for (unsigned l = 0; l < 32; l++) __VA_ARGS__                                     \
        } else if ((mask) == (w)->lane_mask) {                                                \
            for (unsigned l = 0; l < 64; l++) __VA_ARGS__                                     \
        } else {                                                                              \
            for (uint64_t m_ = (mask); m_; m_ &= m_ - 1) {                                    \
                unsigned l = (unsigned)__builtin_ctzll(m_);                                   \
                __VA_ARGS__                                                                   \
            }                                                                                 \
        }                                                                                     \
    } while (0)

/* Lane-loop handlers are built for x86-64-v3 (AVX2, FMA, BMI2) and for baseline x86-64; the
 * loader picks one by CPU (GCC function multiversioning, resolved once at start-up). Host FMA
 * never changes a result: the build forbids contraction (-ffp-contract=off). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__)
#define RDNA3_LANE_FN __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define RDNA3_LANE_FN
#endif

/* Exec mask and 64-bit scalar helpers. */
/* May in's handler set next_pc to something other than pc + size? Only these do (exec_salu.c):
 * the SOPP branches (0x20..0x2a), s_call_b64 (SOPK 0x14), s_setpc_b64 and s_swappc_b64 (SOP1). */
static inline bool rdna3_may_jump(const rdna3_inst *in)
{
    return (in->fmt == RDNA3_FMT_SOPP && in->op >= 0x20 && in->op <= 0x2a) ||
           (in->fmt == RDNA3_FMT_SOPK && in->op == 0x14) ||
           (in->fmt == RDNA3_FMT_SOP1 && (in->op == 0x48 || in->op == 0x49));
}

static inline uint64_t rdna3_exec(const rdna3_wave *w)
{
    return ((uint64_t)w->sgpr[RDNA3_SRC_EXEC_LO] | ((uint64_t)w->sgpr[RDNA3_SRC_EXEC_HI] << 32)) & w->lane_mask;
}
static inline void rdna3_set_exec(rdna3_wave *w, uint64_t m)
{
    m &= w->lane_mask;
    w->sgpr[RDNA3_SRC_EXEC_LO] = (uint32_t)m;
    w->sgpr[RDNA3_SRC_EXEC_HI] = (uint32_t)(m >> 32);
}
static inline uint64_t rdna3_vcc(const rdna3_wave *w)
{
    return ((uint64_t)w->sgpr[RDNA3_SRC_VCC_LO] | ((uint64_t)w->sgpr[RDNA3_SRC_VCC_HI] << 32)) & w->lane_mask;
}
static inline uint32_t *rdna3_vreg(rdna3_wave *w, unsigned reg)
{
    return &w->vgpr[(reg & 0xffu) * RDNA3_MAX_LANES];
}

/* Decode the instruction at words[0..avail); returns false (and fills err) if it is not a valid
 * gfx11 encoding. The decoder picks in->exec from the executors' tables below, or
 * rdna3_exec_unsupported. */
bool rdna3_decode(const uint32_t *words, unsigned avail, rdna3_inst *in, char *err, size_t errlen);
/* llvm-objdump-19 --mcpu=gfx1100 text of the instruction (mnemonic and operands only). */
void rdna3_disasm(const rdna3_inst *in, char *buf, size_t len);
/* Mnemonic of an instruction ("v_add_f32"; e64/dpp suffixes not included). */
const char *rdna3_mnemonic(const rdna3_inst *in);

/* Executor tables: NULL = not implemented. */
rdna3_exec_fn rdna3_alu_handler(const rdna3_inst *in);   /* exec_alu*.c */
rdna3_exec_fn rdna3_mem_handler(const rdna3_inst *in);   /* exec_mem*.c */
void rdna3_exec_unsupported(rdna3_wave *w, const rdna3_inst *in);

/* Raise a fault from an executor: the message gets PC, wave, workgroup, kernel and
 * the disassembly of `in` prepended by the implementation. */
void rdna3_fault(rdna3_wave *w, const rdna3_inst *in, umb_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
