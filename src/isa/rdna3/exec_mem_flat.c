/* FLAT, GLOBAL and SCRATCH (spec/rdna3.md §2, §4 "Scratch", §5): address generation per
 * segment, then the common data loop of exec_mem.c. */
#include "isa/rdna3/exec_mem.h"

/* SADDR = NULL ("off") is encoded as 0x7C. */
static bool saddr_off(const rdna3_inst *in) { return in->saddr >= RDNA3_SRC_NULL; }

static void run(rdna3_wave *w, const rdna3_inst *in, uint64_t mask, const uint8_t *tgt, const uint64_t *addr)
{
    const vm_op *d = rdna3_vm_op(in->op);
    bool ret = d->kind != VM_ATOMIC || in->glc;
    rdna3_vm_lanes(w, in, d, mask, tgt, addr, in->data0, in->vdst, ret);
}

/* FLAT: the aperture test looks at the 64-bit VGPR address before the offset is added. */
static void exec_flat(rdna3_wave *w, const rdna3_inst *in)
{
    uint64_t mask = rdna3_exec(w), addr[RDNA3_MAX_LANES];
    uint8_t tgt[RDNA3_MAX_LANES];
    const rdna3_kernel *k = w->kernel;
    uint64_t ioff = (uint64_t)(int64_t)in->offset;
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint64_t va = rdna3_vgpr64(w, in->addr, lane);
        switch (amd_flat_classify(va, k->shared_base, k->private_base)) {
        case AMD_FLAT_LDS: tgt[lane] = XM_LDS; addr[lane] = va + ioff - k->shared_base; break;
        case AMD_FLAT_PRIVATE: tgt[lane] = XM_SCRATCH; addr[lane] = va + ioff - k->private_base; break;
        case AMD_FLAT_HOLE:
            rdna3_memviol(w, in, lane, va, "FLAT address in the non-canonical hole");
            return;
        default: tgt[lane] = XM_GLOBAL; addr[lane] = va + ioff; break;
        }
    }
    run(w, in, mask, tgt, addr);
}

/* GLOBAL: GV = vaddr64 + ioff; GVS = saddr64 + vaddr32 + ioff. */
static void exec_global(rdna3_wave *w, const rdna3_inst *in)
{
    uint64_t mask = rdna3_exec(w), addr[RDNA3_MAX_LANES];
    uint8_t tgt[RDNA3_MAX_LANES] = { 0 };   /* XM_GLOBAL */
    uint64_t ioff = (uint64_t)(int64_t)in->offset;
    if (saddr_off(in)) {
        for (uint64_t m = mask; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            addr[lane] = rdna3_vgpr64(w, in->addr, lane) + ioff;
        }
    } else {
        uint64_t base = rdna3_sgpr64(w, in->saddr) + ioff;
        const uint32_t *v = rdna3_vreg(w, in->addr);
        for (uint64_t m = mask; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            addr[lane] = base + v[lane];
        }
    }
    run(w, in, mask, tgt, addr);
}

/* GLOBAL addtid (GT): saddr64 + ioff + lane*4, no address VGPR. */
static void exec_global_addtid(rdna3_wave *w, const rdna3_inst *in)
{
    static const vm_op ld = { VM_LOAD, 4, 0, 0, 0, 1 }, st = { VM_STORE, 4, 0, 0, 0, 1 };
    uint64_t mask = rdna3_exec(w), addr[RDNA3_MAX_LANES];
    uint8_t tgt[RDNA3_MAX_LANES] = { 0 };
    uint64_t base = (saddr_off(in) ? 0 : rdna3_sgpr64(w, in->saddr)) + (uint64_t)(int64_t)in->offset;
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        addr[lane] = base + 4ull * lane;
    }
    rdna3_vm_lanes(w, in, in->op == 0x28 ? &ld : &st, mask, tgt, addr, in->data0, in->vdst, true);
}

/* SCRATCH: offset = (SVE ? vaddr : 0) + (SADDR ? sgpr : 0) + ioff, must be >= 0; the lane's
 * dwords are then swizzled with element size 4 and index stride = wave size. */
static void exec_scratch(rdna3_wave *w, const rdna3_inst *in)
{
    uint64_t mask = rdna3_exec(w), addr[RDNA3_MAX_LANES];
    uint8_t tgt[RDNA3_MAX_LANES];
    uint32_t base = (uint32_t)in->offset + (saddr_off(in) ? 0u : w->sgpr[in->saddr & 127u]);
    const uint32_t *v = rdna3_vreg(w, in->addr);
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint32_t off = base + (in->sve ? v[lane] : 0u);
        if ((int32_t)off < 0) {
            rdna3_memviol(w, in, lane, off, "negative scratch offset");
            return;
        }
        tgt[lane] = XM_SCRATCH;
        addr[lane] = off;
    }
    run(w, in, mask, tgt, addr);
}

rdna3_exec_fn rdna3_flat_handler(const rdna3_inst *in)
{
    if (in->fmt == RDNA3_FMT_GLOBAL && (in->op == 0x28 || in->op == 0x29)) return exec_global_addtid;
    const vm_op *d = rdna3_vm_op(in->op);
    if (!d) return NULL;
    switch (in->fmt) {
    case RDNA3_FMT_FLAT:
        return in->op == 0x37 ? NULL : exec_flat;   /* csub is GLOBAL only */
    case RDNA3_FMT_GLOBAL:
        return exec_global;
    case RDNA3_FMT_SCRATCH:
        return d->kind == VM_ATOMIC ? NULL : exec_scratch;
    default:
        return NULL;
    }
}
