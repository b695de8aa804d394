/* RDNA3 memory executors: dispatch, per-lane access to the three targets, and the common
 * data loop shared by FLAT/GLOBAL/SCRATCH, DS and MUBUF. */
#include "isa/rdna3/exec_mem.h"

#include <string.h>

rdna3_exec_fn rdna3_mem_handler(const rdna3_inst *in)
{
    switch (in->fmt) {
    case RDNA3_FMT_SMEM: return rdna3_smem_handler(in);
    case RDNA3_FMT_DS: return rdna3_ds_handler(in);
    case RDNA3_FMT_FLAT: case RDNA3_FMT_GLOBAL: case RDNA3_FMT_SCRATCH: return rdna3_flat_handler(in);
    case RDNA3_FMT_MUBUF: case RDNA3_FMT_MTBUF: return rdna3_buf_handler(in);
    case RDNA3_FMT_MIMG: return rdna3_img_handler(in);
    default: return NULL;
    }
}

/* ---- the opcode table shared by FLAT/GLOBAL/SCRATCH and MUBUF (spec/rdna3.md §2) ---- */

#define LD(sz, sx) { VM_LOAD, sz, sx, 0, 0, 1 }
#define LD16(sz, sx, hi) { VM_LOAD_D16, sz, sx, hi, 0, 1 }
#define ST(sz, hi) { VM_STORE, sz, 0, hi, 0, 1 }
#define AT(sz, op) { VM_ATOMIC, sz, 0, 0, op, 1 }

static const vm_op vm_ops[0x57] = {
    [0x10] = LD(1, 0), [0x11] = LD(1, 1), [0x12] = LD(2, 0), [0x13] = LD(2, 1),
    [0x14] = LD(4, 0), [0x15] = LD(8, 0), [0x16] = LD(12, 0), [0x17] = LD(16, 0),
    [0x18] = ST(1, 0), [0x19] = ST(2, 0),
    [0x1A] = ST(4, 0), [0x1B] = ST(8, 0), [0x1C] = ST(12, 0), [0x1D] = ST(16, 0),
    [0x1E] = LD16(1, 0, 1), [0x1F] = LD16(1, 1, 1), [0x20] = LD16(2, 0, 1),
    [0x21] = LD16(1, 0, 2), [0x22] = LD16(1, 1, 2), [0x23] = LD16(2, 0, 2),
    [0x24] = ST(1, 2), [0x25] = ST(2, 2),
    [0x33] = AT(4, AMD_AT_SWAP), [0x34] = AT(4, AMD_AT_CMPSWAP), [0x35] = AT(4, AMD_AT_ADD),
    [0x36] = AT(4, AMD_AT_SUB), [0x37] = AT(4, AMD_AT_CSUB), [0x38] = AT(4, AMD_AT_SMIN),
    [0x39] = AT(4, AMD_AT_UMIN), [0x3A] = AT(4, AMD_AT_SMAX), [0x3B] = AT(4, AMD_AT_UMAX),
    [0x3C] = AT(4, AMD_AT_AND), [0x3D] = AT(4, AMD_AT_OR), [0x3E] = AT(4, AMD_AT_XOR),
    [0x3F] = AT(4, AMD_AT_INC), [0x40] = AT(4, AMD_AT_DEC),
    [0x41] = AT(8, AMD_AT_SWAP), [0x42] = AT(8, AMD_AT_CMPSWAP), [0x43] = AT(8, AMD_AT_ADD),
    [0x44] = AT(8, AMD_AT_SUB), [0x45] = AT(8, AMD_AT_SMIN), [0x46] = AT(8, AMD_AT_UMIN),
    [0x47] = AT(8, AMD_AT_SMAX), [0x48] = AT(8, AMD_AT_UMAX), [0x49] = AT(8, AMD_AT_AND),
    [0x4A] = AT(8, AMD_AT_OR), [0x4B] = AT(8, AMD_AT_XOR), [0x4C] = AT(8, AMD_AT_INC),
    [0x4D] = AT(8, AMD_AT_DEC),
    [0x50] = AT(4, AMD_AT_FCMPSWAP), [0x51] = AT(4, AMD_AT_FMIN), [0x52] = AT(4, AMD_AT_FMAX),
    [0x56] = AT(4, AMD_AT_FADD),
};

const vm_op *rdna3_vm_op(unsigned op)
{
    if (op >= sizeof vm_ops / sizeof vm_ops[0] || !vm_ops[op].valid) return NULL;
    return &vm_ops[op];
}

/* ---- scalar operands and faults ---- */

uint32_t rdna3_mem_scalar_operand(const rdna3_wave *w, unsigned enc)
{
    if (enc < RDNA3_NUM_SGPR_SLOTS) return enc == RDNA3_SRC_NULL ? 0 : w->sgpr[enc];
    if (enc >= RDNA3_SRC_CONST_ZERO && enc <= RDNA3_SRC_CONST_ZERO + 64) return enc - RDNA3_SRC_CONST_ZERO;
    if (enc >= RDNA3_SRC_CONST_NEG1 && enc <= RDNA3_SRC_CONST_NEG1 + 15)
        return (uint32_t)-(int32_t)(enc - RDNA3_SRC_CONST_NEG1 + 1);
    return 0;
}

void rdna3_memviol(rdna3_wave *w, const rdna3_inst *in, unsigned lane, uint64_t addr, const char *why)
{
    w->trapsts |= RDNA3_TRAPSTS_MEMVIOL;
    rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "MEMVIOL: %s (lane %u, address 0x%llx)", why, lane,
                (unsigned long long)addr);
}

static void unmapped(rdna3_wave *w, const rdna3_inst *in, unsigned lane, const char *space, uint64_t addr)
{
    rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "access to unmapped %s address 0x%llx (lane %u)", space,
                (unsigned long long)addr, lane);
}

/* ---- private segment: per-dword swizzle into global memory ---- */

/* Check that [off, off+size) lies in the lane's private segment; fault otherwise. */
static bool scratch_ok(rdna3_wave *w, const rdna3_inst *in, unsigned lane, uint64_t off, unsigned size)
{
    if (!w->flat_scratch) {
        rdna3_memviol(w, in, lane, off, "private access in a wave without a private segment");
        return false;
    }
    uint32_t per_lane = w->kernel ? w->kernel->scratch_per_lane : 0;
    if (per_lane && off + size > per_lane) {
        rdna3_memviol(w, in, lane, off, "private offset beyond the lane's private segment");
        return false;
    }
    return true;
}

/* Visit the pieces of a private access that do not cross a dword of the private offset: each
 * dword of a lane lives wave_size*4 bytes after the previous one. */
static bool scratch_xfer(rdna3_wave *w, const rdna3_inst *in, unsigned lane, uint64_t off,
                         uint8_t *buf, unsigned size, bool store)
{
    if (!scratch_ok(w, in, lane, off, size)) return false;
    umb_mem *g = w->kernel->global;
    unsigned done = 0;
    while (done < size) {
        uint64_t o = off + done;
        unsigned n = 4u - (unsigned)(o & 3u);
        if (n > size - done) n = size - done;
        uint64_t a = amd_scratch_addr(w->flat_scratch, w->wave_size, lane, o);
        bool ok = store ? umb_mem_store(g, a, buf + done, n) : umb_mem_load(g, a, buf + done, n);
        if (!ok) { unmapped(w, in, lane, "scratch", a); return false; }
        done += n;
    }
    return true;
}

/* ---- the three targets ---- */

/* LDS bytes [addr, addr+size) clipped to the allocation: how many are in range. */
static unsigned lds_in_range(uint64_t addr, unsigned size, uint64_t lim)
{
    if (addr >= lim) return 0;
    return addr + size > lim ? (unsigned)(lim - addr) : size;
}

bool rdna3_xm_load(rdna3_wave *w, const rdna3_inst *in, unsigned lane, xm_target t, uint64_t addr,
                   void *dst, unsigned size)
{
    if (t == XM_GLOBAL) {
        if (umb_mem_load(w->kernel->global, addr, dst, size)) return true;
        unmapped(w, in, lane, "global", addr);
        return false;
    }
    if (t == XM_SCRATCH) return scratch_xfer(w, in, lane, addr, dst, size, false);
    /* LDS: bytes beyond the allocation read as zero. */
    umb_mem *lds = rdna3_lds(w);
    unsigned n = lds ? lds_in_range(addr, size, rdna3_lds_size(w)) : 0;
    if (n < size) memset((uint8_t *)dst + n, 0, size - n);
    if (n && !umb_mem_load(lds, addr, dst, n)) { unmapped(w, in, lane, "LDS", addr); return false; }
    return true;
}

bool rdna3_xm_store(rdna3_wave *w, const rdna3_inst *in, unsigned lane, xm_target t, uint64_t addr,
                    const void *src, unsigned size)
{
    if (t == XM_GLOBAL) {
        if (umb_mem_store(w->kernel->global, addr, src, size)) return true;
        unmapped(w, in, lane, "global", addr);
        return false;
    }
    if (t == XM_SCRATCH) {
        uint8_t tmp[16];
        memcpy(tmp, src, size);
        return scratch_xfer(w, in, lane, addr, tmp, size, true);
    }
    umb_mem *lds = rdna3_lds(w);
    unsigned n = lds ? lds_in_range(addr, size, rdna3_lds_size(w)) : 0;   /* the rest is dropped */
    if (n && !umb_mem_store(lds, addr, src, n)) { unmapped(w, in, lane, "LDS", addr); return false; }
    return true;
}

/* Read-modify-write on a host pointer; a compare-and-swap loop makes every operation atomic
 * against the other host threads running workgroups on the same memory. */
static uint64_t host_rmw(void *p, amd_atomic_op op, unsigned size, uint64_t src, uint64_t cmp)
{
    if (size == 8) {
        uint64_t *q = p, old = __atomic_load_n(q, __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(q, &old, amd_atomic_apply(op, 8, old, src, cmp), true,
                                            __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
        }
        return old;
    }
    uint32_t *q = p, old = __atomic_load_n(q, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(q, &old, (uint32_t)amd_atomic_apply(op, 4, old, src, cmp), true,
                                        __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
    }
    return old;
}

bool rdna3_xm_atomic(rdna3_wave *w, const rdna3_inst *in, unsigned lane, xm_target t, uint64_t addr,
                     amd_atomic_op op, unsigned size, uint64_t src, uint64_t cmp, uint64_t *old)
{
    *old = 0;
    if (addr & (size - 1u)) {
        rdna3_memviol(w, in, lane, addr, "misaligned atomic");
        return false;
    }
    if (t == XM_GLOBAL) {
        void *p = umb_mem_atomic_ptr(w->kernel->global, addr);
        if (!p) { unmapped(w, in, lane, "global", addr); return false; }
        *old = host_rmw(p, op, size, src, cmp);
        return true;
    }
    if (t == XM_LDS) {
        umb_mem *lds = rdna3_lds(w);
        if (!lds || addr + size > rdna3_lds_size(w)) return true;   /* dropped, returns 0 */
        void *p = umb_mem_atomic_ptr(lds, addr);
        if (!p) { unmapped(w, in, lane, "LDS", addr); return false; }
        *old = host_rmw(p, op, size, src, cmp);
        return true;
    }
    if (size == 8) {
        rdna3_memviol(w, in, lane, addr, "64-bit atomic to the private aperture");
        return false;
    }
    /* A private dword belongs to one lane: a plain read-modify-write is atomic enough. */
    uint32_t v;
    if (!scratch_xfer(w, in, lane, addr, (uint8_t *)&v, 4, false)) return false;
    *old = v;
    v = (uint32_t)amd_atomic_apply(op, 4, v, src, cmp);
    return scratch_xfer(w, in, lane, addr, (uint8_t *)&v, 4, true);
}

void rdna3_xm_count(rdna3_wave *w, const xm_traffic *t, int kind)
{
    if (!w->stats) return;
    static const umb_addr_space space[3] = { UMB_SPACE_GLOBAL, UMB_SPACE_LOCAL, UMB_SPACE_PRIVATE };
    for (int i = 0; i < 3; i++)
        if (t->lanes[i]) umb_count_mem(w->stats, space[i], kind, t->lanes[i], t->bytes[i]);
}

/* ---- the common data loop ---- */

static uint32_t extend(const uint8_t *b, unsigned size, bool sext)
{
    if (size == 1) return sext ? (uint32_t)(int32_t)(int8_t)b[0] : b[0];
    uint16_t h = (uint16_t)(b[0] | b[1] << 8);
    return sext ? (uint32_t)(int32_t)(int16_t)h : h;
}

static bool lane_load(rdna3_wave *w, const rdna3_inst *in, const vm_op *d, xm_pages *pc, unsigned lane,
                      xm_target t, uint64_t addr, unsigned vdst)
{
    uint8_t buf[16];
    uint64_t a = addr;
    if (!amd_align_check(rdna3_align_mode(w), &a, d->size, false)) {
        rdna3_vreg(w, vdst)[lane] = 0;
        rdna3_memviol(w, in, lane, addr, "misaligned load");
        return false;
    }
    const uint8_t *p = xm_page(pc, t, a, d->size, false);
    if (p) memcpy(buf, p, d->size);
    else if (!rdna3_xm_load(w, in, lane, t, a, buf, d->size)) return false;
    if (d->kind == VM_LOAD_D16) {
        uint32_t v = extend(buf, d->size, d->sext) & 0xffffu;
        uint32_t *r = &rdna3_vreg(w, vdst)[lane];
        *r = d->d16 == 2 ? (*r & 0xffffu) | (v << 16) : (*r & 0xffff0000u) | v;
    } else if (d->size < 4) {
        rdna3_vreg(w, vdst)[lane] = extend(buf, d->size, d->sext);
    } else {
        rdna3_lane_from_bytes(w, vdst, lane, buf, d->size);
    }
    return true;
}

static bool lane_store(rdna3_wave *w, const rdna3_inst *in, const vm_op *d, xm_pages *pc, unsigned lane,
                       xm_target t, uint64_t addr, unsigned vdata)
{
    uint8_t buf[16];
    if (d->size < 4) {
        uint32_t v = rdna3_vreg(w, vdata)[lane] >> (d->d16 == 2 ? 16 : 0);
        buf[0] = (uint8_t)v;
        buf[1] = (uint8_t)(v >> 8);
    } else {
        rdna3_lane_to_bytes(w, vdata, lane, buf, d->size);
    }
    uint64_t a = addr;
    if (!amd_align_check(rdna3_align_mode(w), &a, d->size, false)) {
        rdna3_memviol(w, in, lane, addr, "misaligned store");
        return false;
    }
    uint8_t *p = xm_page(pc, t, a, d->size, true);
    if (p) {
        memcpy(p, buf, d->size);
        return true;
    }
    return rdna3_xm_store(w, in, lane, t, a, buf, d->size);
}

/* Atomic data: cmpswap has src at VDATA and cmp right after it (b64: [0:1] and [2:3]). */
static bool lane_atomic(rdna3_wave *w, const rdna3_inst *in, const vm_op *d, unsigned lane, xm_target t,
                        uint64_t addr, unsigned vdata, unsigned vdst, bool ret)
{
    unsigned dw = d->size / 4u;
    uint64_t src = rdna3_vreg(w, vdata)[lane], cmp = 0;
    if (dw == 2) src |= (uint64_t)rdna3_vreg(w, vdata + 1)[lane] << 32;
    if (d->atomic == AMD_AT_CMPSWAP || d->atomic == AMD_AT_FCMPSWAP) {
        cmp = rdna3_vreg(w, vdata + dw)[lane];
        if (dw == 2) cmp |= (uint64_t)rdna3_vreg(w, vdata + 3)[lane] << 32;
    }
    uint64_t old;
    if (!rdna3_xm_atomic(w, in, lane, t, addr, (amd_atomic_op)d->atomic, d->size, src, cmp, &old))
        return false;
    if (ret) {
        rdna3_vreg(w, vdst)[lane] = (uint32_t)old;
        if (dw == 2) rdna3_vreg(w, vdst + 1)[lane] = (uint32_t)(old >> 32);
    }
    return true;
}

/* A whole-dword global load or store of one lane that lies in one page: a straight copy between
 * the page and the lane's VGPRs. False (nothing done) sends the lane to lane_load/lane_store,
 * which also report faults. */
static inline bool lane_global_simple(rdna3_wave *w, const vm_op *d, xm_pages *pc, unsigned lane, uint64_t addr,
                                      unsigned vdata, unsigned vdst)
{
    bool store = d->kind == VM_STORE;
    uint8_t *p = xm_page(pc, XM_GLOBAL, addr, d->size, store);
    if (!p) return false;
    if (store) rdna3_lane_to_bytes(w, vdata, lane, p, d->size);
    else rdna3_lane_from_bytes(w, vdst, lane, p, d->size);
    return true;
}

void rdna3_vm_lanes(rdna3_wave *w, const rdna3_inst *in, const vm_op *d, uint64_t mask,
                    const uint8_t *tgt, const uint64_t *addr, unsigned vdata, unsigned vdst, bool ret)
{
    xm_traffic tr = { { 0 }, { 0 } };
    int kind = d->kind == VM_STORE ? 1 : d->kind == VM_ATOMIC ? 2 : 0;
    xm_pages pc;
    xm_pages_init(&pc, w);
    /* whole dwords in the unaligned mode: no alignment rule can apply */
    bool simple = (d->kind == VM_LOAD || d->kind == VM_STORE) && d->size >= 4 &&
                  rdna3_align_mode(w) == AMD_ALIGN_UNALIGNED;
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        xm_target t = (xm_target)tgt[lane];
        if (simple && t == XM_GLOBAL && lane_global_simple(w, d, &pc, lane, addr[lane], vdata, vdst)) {
            tr.lanes[XM_GLOBAL]++;
            tr.bytes[XM_GLOBAL] += d->size;
            continue;
        }
        bool ok;
        switch (d->kind) {
        case VM_STORE: ok = lane_store(w, in, d, &pc, lane, t, addr[lane], vdata); break;
        case VM_ATOMIC: ok = lane_atomic(w, in, d, lane, t, addr[lane], vdata, vdst, ret); break;
        default: ok = lane_load(w, in, d, &pc, lane, t, addr[lane], vdst); break;
        }
        if (!ok) return;
        tr.lanes[t]++;
        tr.bytes[t] += d->size;
    }
    rdna3_xm_count(w, &tr, kind);
}
