/* AMD (gfx11) memory model, the parts that are not buffers: apertures and FLAT routing, the
 * swizzled scratch layout, the SH_MEM_CONFIG alignment modes and the atomic operations.
 * Pure functions: no guest state, no memory access. See docs/MEMORY_MODEL.md for the rules and
 * where the source documents state them. */
#ifndef UMBRA_AMD_MEM_H
#define UMBRA_AMD_MEM_H

#include <stdbool.h>
#include <stdint.h>

/* ---- apertures (spec/rdna3.md §5) ---- */

typedef enum amd_flat_target {
    AMD_FLAT_GLOBAL = 0,
    AMD_FLAT_LDS,       /* inside [shared_base, shared_base | 0xffffffff] */
    AMD_FLAT_PRIVATE,   /* inside [private_base, private_base | 0xffffffff] */
    AMD_FLAT_HOLE,      /* addr[63:47] neither all zeros nor all ones: MEMVIOL */
} amd_flat_target;

/* Linux KFD values, used when the runtime sets no others. */
#define AMD_SHARED_BASE_DEFAULT  0x0001000000000000ull
#define AMD_PRIVATE_BASE_DEFAULT 0x0002000000000000ull

static inline uint64_t amd_aperture_limit(uint64_t base) { return base | 0xffffffffull; }

/* Classify a FLAT address. The test looks at the address *before* the instruction offset is
 * added ([ISA] §11.1.1). A zero base disables that aperture. */
static inline amd_flat_target amd_flat_classify(uint64_t addr, uint64_t shared_base, uint64_t private_base)
{
    if (shared_base && (addr >> 32) == (shared_base >> 32)) return AMD_FLAT_LDS;
    if (private_base && (addr >> 32) == (private_base >> 32)) return AMD_FLAT_PRIVATE;
    uint64_t top = addr >> 47;
    if (top != 0 && top != 0x1ffff) return AMD_FLAT_HOLE;
    return AMD_FLAT_GLOBAL;
}

/* ---- scratch: swizzle hard-wired to element size 4, index stride = wave size ---- */

/* Global address of byte `off` of lane `lane`'s private segment ([ISA] §11.2):
 * base + (off/4)*4*wavesize + lane*4 + off%4. */
static inline uint64_t amd_scratch_addr(uint64_t base, uint32_t wave_size, uint32_t lane, uint64_t off)
{
    return base + (off >> 2) * 4u * wave_size + (uint64_t)lane * 4u + (off & 3u);
}

/* ---- alignment (SH_MEM_CONFIG.alignment_mode, [ISA] §9.5) ---- */

enum {
    AMD_ALIGN_DWORD = 0,         /* aligned down to min(size, 4) by the hardware */
    AMD_ALIGN_DWORD_STRICT = 1,  /* must be aligned to min(size, 4), else MEMVIOL */
    AMD_ALIGN_STRICT = 2,        /* must be aligned to the access size, else MEMVIOL */
    AMD_ALIGN_UNALIGNED = 3,     /* anything goes (the default, as ROCm sets it) */
};

/* Largest power of two dividing size (the natural alignment of a 12-byte access is 4). */
static inline uint32_t amd_natural_align(uint32_t size)
{
    return size & (~size + 1u);
}

/* Check (and in mode 0 adjust) the address of a non-format access of `size` bytes. Returns
 * false for a MEMVIOL. Atomics must be naturally aligned in every mode. Inline: every lane of
 * every memory instruction passes here. */
static inline bool amd_align_check(uint32_t mode, uint64_t *addr, uint32_t size, bool atomic)
{
    uint32_t nat = amd_natural_align(size);
    if (atomic) return (*addr & (nat - 1u)) == 0;
    uint32_t dw = nat < 4u ? nat : 4u;   /* min(size, DWORD), as a power of two */
    switch (mode & 3u) {
    case AMD_ALIGN_DWORD:
        /* "the two LSBs of the byte address are ignored" for >= dword; bit 0 for 2-byte. */
        *addr &= ~(uint64_t)(dw - 1u);
        return true;
    case AMD_ALIGN_DWORD_STRICT:
        return (*addr & (dw - 1u)) == 0;
    case AMD_ALIGN_STRICT:
        return (*addr & (nat - 1u)) == 0;
    default:
        return true;
    }
}

/* ---- atomics ---- */

typedef enum amd_atomic_op {
    AMD_AT_SWAP, AMD_AT_CMPSWAP, AMD_AT_ADD, AMD_AT_SUB, AMD_AT_RSUB, AMD_AT_CSUB,
    AMD_AT_SMIN, AMD_AT_UMIN, AMD_AT_SMAX, AMD_AT_UMAX,
    AMD_AT_AND, AMD_AT_OR, AMD_AT_XOR, AMD_AT_INC, AMD_AT_DEC,
    AMD_AT_MSKOR,   /* DS: (tmp & ~src) | cmp  (cmp = DATA1) */
    AMD_AT_WRAP,    /* DS: tmp >= src ? tmp - src : tmp + cmp */
    AMD_AT_FADD, AMD_AT_FMIN, AMD_AT_FMAX, AMD_AT_FCMPSWAP,
    AMD_AT_COUNT
} amd_atomic_op;

/* The value memory holds after the operation, given its old value `tmp`, the data `src` and
 * the second data `cmp` (cmpswap compare value, mskor/wrap second operand). size is 4 or 8;
 * floating-point operations interpret the bits as f32 (size 4) or f64 (size 8). */
uint64_t amd_atomic_apply(amd_atomic_op op, uint32_t size, uint64_t tmp, uint64_t src, uint64_t cmp);

const char *amd_atomic_name(amd_atomic_op op);

#endif
