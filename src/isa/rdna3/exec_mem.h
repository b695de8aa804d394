/* RDNA3 memory executors: what exec_mem*.c share (not a public contract).
 *
 * Every memory instruction runs in two steps: a segment-specific loop computes each active
 * lane's target (global memory, LDS, or the lane's private segment) and address, then a common
 * loop moves the data. Faults (unmapped memory, MEMVIOL) stop the wave through rdna3_fault with
 * the lane and address in the message.
 */
#ifndef UMBRA_RDNA3_EXEC_MEM_H
#define UMBRA_RDNA3_EXEC_MEM_H

#include <string.h>

#include "isa/rdna3/rdna3.h"
#include "mem/amd_mem.h"

/* TRAPSTS.EXCP[8] = MEM_VIOL. */
#define RDNA3_TRAPSTS_MEMVIOL (1u << 8)

typedef enum xm_target { XM_GLOBAL = 0, XM_LDS, XM_SCRATCH } xm_target;

/* What a VMEM/DS data opcode does, independent of how its address is formed. */
typedef enum vm_kind {
    VM_LOAD,        /* size bytes -> VGPRs (1/2-byte: zero/sign extended to 32 bits) */
    VM_LOAD_D16,    /* 1/2 bytes -> 16-bit half of the VGPR (d16 = 1 low, 2 high) */
    VM_STORE,       /* VGPRs -> size bytes (d16 = 2: from bits [31:16]) */
    VM_ATOMIC,      /* read-modify-write; glc returns the old value */
} vm_kind;

typedef struct vm_op {
    uint8_t kind;       /* vm_kind */
    uint8_t size;       /* bytes per lane in memory (atomics: 4 or 8) */
    uint8_t sext;       /* sub-dword loads: sign extend */
    uint8_t d16;        /* 0, 1 = low half, 2 = high half */
    uint8_t atomic;     /* amd_atomic_op */
    uint8_t valid;
} vm_op;

/* The data opcodes FLAT/GLOBAL/SCRATCH and MUBUF share (0x10..0x25, 0x33..0x56). */
const vm_op *rdna3_vm_op(unsigned op);

/* LDS of the wave's workgroup, or NULL (single-step use without a workgroup). */
static inline umb_mem *rdna3_lds(const rdna3_wave *w)
{
    return (w->warp && w->warp->wg) ? w->warp->wg->local : NULL;
}

static inline uint32_t rdna3_lds_size(const rdna3_wave *w)
{
    return w->kernel ? w->kernel->lds_size : 0;
}

static inline uint32_t rdna3_align_mode(const rdna3_wave *w)
{
    return w->kernel ? w->kernel->alignment_mode : AMD_ALIGN_UNALIGNED;
}

static inline uint64_t rdna3_sgpr64(const rdna3_wave *w, unsigned n)
{
    return (uint64_t)w->sgpr[n & 127u] | ((uint64_t)w->sgpr[(n + 1u) & 127u] << 32);
}

static inline uint64_t rdna3_vgpr64(rdna3_wave *w, unsigned reg, unsigned lane)
{
    return (uint64_t)rdna3_vreg(w, reg)[lane] | ((uint64_t)rdna3_vreg(w, reg + 1u)[lane] << 32);
}

/* The whole dwords [0, bytes / 4) (at most 4) of one lane: memory bytes -> VGPRs reg, reg+1, ...
 * and back. Aligned dwords are moved as relaxed atomics (plain moves on x86): a guest may load
 * a word that a workgroup on another host thread updates atomically at the same time (a
 * compare-and-swap loop's first read), a race of the guest program that must not be one of
 * the host's. */
static inline void rdna3_lane_from_bytes(rdna3_wave *w, unsigned reg, unsigned lane, const uint8_t *p, unsigned bytes)
{
    bool aligned = ((uintptr_t)p & 3u) == 0;
    for (unsigned i = 0; i < bytes / 4u && i < 4; i++) {
        uint32_t *v = &rdna3_vreg(w, reg + i)[lane];
        if (aligned) *v = __atomic_load_n((const uint32_t *)(const void *)(p + 4u * i), __ATOMIC_RELAXED);
        else memcpy(v, p + 4u * i, 4);
    }
}
static inline void rdna3_lane_to_bytes(rdna3_wave *w, unsigned reg, unsigned lane, uint8_t *p, unsigned bytes)
{
    bool aligned = ((uintptr_t)p & 3u) == 0;
    for (unsigned i = 0; i < bytes / 4u && i < 4; i++) {
        uint32_t v = rdna3_vreg(w, reg + i)[lane];
        if (aligned) __atomic_store_n((uint32_t *)(void *)(p + 4u * i), v, __ATOMIC_RELAXED);
        else memcpy(p + 4u * i, &v, 4);
    }
}

/* Value of an 8-bit scalar operand used as an offset (SGPR, M0, NULL, inline integer). */
uint32_t rdna3_mem_scalar_operand(const rdna3_wave *w, unsigned enc);

/* Raise MEMVIOL: set TRAPSTS and fault the wave with lane and address. */
void rdna3_memviol(rdna3_wave *w, const rdna3_inst *in, unsigned lane, uint64_t addr, const char *why);

/* Operand fields whose placement in rdna3_inst the decoder defines (decode.c). */
static inline unsigned smem_sdata(const rdna3_inst *in) { return in->vdst; }
static inline unsigned buf_vdata(const rdna3_inst *in) { return in->data0; }

/* Per-lane accesses. addr is the global address, the LDS address or the private offset.
 * Return false after faulting the wave. LDS bytes beyond the allocation read as 0 and are not
 * written. */
bool rdna3_xm_load(rdna3_wave *w, const rdna3_inst *in, unsigned lane, xm_target t, uint64_t addr,
                   void *dst, unsigned size);
bool rdna3_xm_store(rdna3_wave *w, const rdna3_inst *in, unsigned lane, xm_target t, uint64_t addr,
                    const void *src, unsigned size);
bool rdna3_xm_atomic(rdna3_wave *w, const rdna3_inst *in, unsigned lane, xm_target t, uint64_t addr,
                     amd_atomic_op op, unsigned size, uint64_t src, uint64_t cmp, uint64_t *old);

/* A page cache for one instruction's lane loop: the lanes of a wave mostly touch the same page,
 * so the radix walk is done once per page instead of once per lane. Targets GLOBAL and LDS. An
 * instruction either reads or writes plain memory (atomics do not use it), so a cached read
 * pointer never goes stale inside the loop. */
typedef struct xm_pages {
    umb_mem *mem[2];
    uint64_t lds_size;
    uint64_t pn[2];
    uint8_t *page[2];
} xm_pages;

static inline void xm_pages_init(xm_pages *c, rdna3_wave *w)
{
    c->mem[XM_GLOBAL] = w->kernel->global;
    c->mem[XM_LDS] = rdna3_lds(w);
    c->lds_size = rdna3_lds_size(w);
    c->pn[0] = c->pn[1] = ~0ull;
    c->page[0] = c->page[1] = NULL;
}

/* The page holding [addr, addr+size) if the access is simple (one page, in the LDS allocation,
 * mapped); NULL sends the caller to the general path, which also reports faults. */
static inline uint8_t *xm_page(xm_pages *c, xm_target t, uint64_t addr, unsigned size, bool write)
{
    if (t == XM_SCRATCH || (addr & UMB_PAGE_MASK) + size > UMB_PAGE_SIZE) return NULL;
    if (t == XM_LDS && (!c->mem[XM_LDS] || addr + size > c->lds_size)) return NULL;
    uint64_t pn = addr >> UMB_PAGE_BITS;
    if (pn != c->pn[t]) {
        c->page[t] = write ? umb_mem_page_for_write(c->mem[t], addr) : (uint8_t *)umb_mem_page_for_read(c->mem[t], addr);
        c->pn[t] = c->page[t] ? pn : ~0ull;
    }
    return c->page[t] ? c->page[t] + (addr & UMB_PAGE_MASK) : NULL;
}

/* Traffic of one instruction, counted once it completes. */
typedef struct xm_traffic {
    uint64_t lanes[3], bytes[3];
} xm_traffic;
void rdna3_xm_count(rdna3_wave *w, const xm_traffic *t, int kind /* 0 ld, 1 st, 2 atomic */);

/* The common data loop: lanes in `mask` access tgt[lane]/addr[lane] as `d` says. VDATA is the
 * data VGPR (stores/atomics), VDST where loads and returning atomics write. */
void rdna3_vm_lanes(rdna3_wave *w, const rdna3_inst *in, const vm_op *d, uint64_t mask,
                    const uint8_t *tgt, const uint64_t *addr, unsigned vdata, unsigned vdst, bool ret);

/* Handler tables of each family (NULL: not an opcode umbra executes). */
rdna3_exec_fn rdna3_smem_handler(const rdna3_inst *in);
rdna3_exec_fn rdna3_ds_handler(const rdna3_inst *in);
/* What a DS instruction touches: RDNA3_DS_READS (an LDS load and nothing else), RDNA3_DS_LANES
 * (ds_swizzle/permute/bpermute/nop: the wave's own registers only) or RDNA3_DS_OTHER (stores,
 * atomics, GDS and GWS). */
enum { RDNA3_DS_OTHER = 0, RDNA3_DS_READS, RDNA3_DS_LANES };
int rdna3_ds_class(const rdna3_inst *in);
rdna3_exec_fn rdna3_flat_handler(const rdna3_inst *in);
rdna3_exec_fn rdna3_buf_handler(const rdna3_inst *in);
rdna3_exec_fn rdna3_img_handler(const rdna3_inst *in);
/* Timing: the global address of each lane's first texel (exec_mem_img.c). */
void rdna3_img_addrs(rdna3_wave *w, const rdna3_inst *in, uint64_t *addr);

#endif
