/* DS: LDS loads, stores, atomics and the cross-lane ds_swizzle/ds_permute/ds_bpermute (GWS, the
 * DS opcodes with gds set, are in exec_gws.c).
 * Opcode numbers are the gfx1100 ones (llvm-mc-19 sweep, see docs/MEMORY_MODEL.md). The LDS of
 * the workgroup is mapped at address 0; bytes at or beyond the allocation (lds_size) read as 0
 * and are not written. */
#include "isa/rdna3/exec_mem.h"
#include "isa/rdna3/gws.h"

#include <string.h>

typedef enum ds_kind {
    DS_NONE = 0, DS_LOAD, DS_LOAD_D16, DS_STORE, DS_LOAD2, DS_STORE2, DS_ATOMIC, DS_XCHG2,
    DS_NOP, DS_SWIZZLE, DS_PERMUTE, DS_BPERMUTE,
} ds_kind;

typedef struct ds_op {
    uint8_t kind, size, sext, d16, atomic, rtn, st64;
} ds_op;

#define L(sz, sx) { DS_LOAD, sz, sx, 0, 0, 1, 0 }
#define LD16(sz, sx, hi) { DS_LOAD_D16, sz, sx, hi, 0, 1, 0 }
#define S(sz, hi) { DS_STORE, sz, 0, hi, 0, 0, 0 }
#define L2(sz, s64) { DS_LOAD2, sz, 0, 0, 0, 1, s64 }
#define S2(sz, s64) { DS_STORE2, sz, 0, 0, 0, 0, s64 }
#define A(sz, op, r) { DS_ATOMIC, sz, 0, 0, op, r, 0 }
#define X2(sz, s64) { DS_XCHG2, sz, 0, 0, AMD_AT_SWAP, 1, s64 }

/* The 13 integer operations in the order of both the 32- and the 64-bit rows. */
#define INT_ATOMICS(base, sz, r)                                                         \
    [base + 0] = A(sz, AMD_AT_ADD, r), [base + 1] = A(sz, AMD_AT_SUB, r),               \
    [base + 2] = A(sz, AMD_AT_RSUB, r), [base + 3] = A(sz, AMD_AT_INC, r),              \
    [base + 4] = A(sz, AMD_AT_DEC, r), [base + 5] = A(sz, AMD_AT_SMIN, r),              \
    [base + 6] = A(sz, AMD_AT_SMAX, r), [base + 7] = A(sz, AMD_AT_UMIN, r),             \
    [base + 8] = A(sz, AMD_AT_UMAX, r), [base + 9] = A(sz, AMD_AT_AND, r),              \
    [base + 10] = A(sz, AMD_AT_OR, r), [base + 11] = A(sz, AMD_AT_XOR, r),              \
    [base + 12] = A(sz, AMD_AT_MSKOR, r)

static const ds_op ds_ops[256] = {
    INT_ATOMICS(0x00, 4, 0),
    [0x0D] = S(4, 0), [0x0E] = S2(4, 0), [0x0F] = S2(4, 1),
    [0x10] = A(4, AMD_AT_CMPSWAP, 0), [0x11] = A(4, AMD_AT_FCMPSWAP, 0),
    [0x12] = A(4, AMD_AT_FMIN, 0), [0x13] = A(4, AMD_AT_FMAX, 0),
    [0x14] = { DS_NOP, 0, 0, 0, 0, 0, 0 }, [0x15] = A(4, AMD_AT_FADD, 0),
    [0x1E] = S(1, 0), [0x1F] = S(2, 0),
    INT_ATOMICS(0x20, 4, 1),
    [0x2D] = A(4, AMD_AT_SWAP, 1), [0x2E] = X2(4, 0), [0x2F] = X2(4, 1),
    [0x30] = A(4, AMD_AT_CMPSWAP, 1), [0x31] = A(4, AMD_AT_FCMPSWAP, 1),
    [0x32] = A(4, AMD_AT_FMIN, 1), [0x33] = A(4, AMD_AT_FMAX, 1), [0x34] = A(4, AMD_AT_WRAP, 1),
    [0x35] = { DS_SWIZZLE, 4, 0, 0, 0, 1, 0 },
    [0x36] = L(4, 0), [0x37] = L2(4, 0), [0x38] = L2(4, 1),
    [0x39] = L(1, 1), [0x3A] = L(1, 0), [0x3B] = L(2, 1), [0x3C] = L(2, 0),
    INT_ATOMICS(0x40, 8, 0),
    [0x4D] = S(8, 0), [0x4E] = S2(8, 0), [0x4F] = S2(8, 1),
    [0x50] = A(8, AMD_AT_CMPSWAP, 0), [0x51] = A(8, AMD_AT_FCMPSWAP, 0),
    [0x52] = A(8, AMD_AT_FMIN, 0), [0x53] = A(8, AMD_AT_FMAX, 0),
    INT_ATOMICS(0x60, 8, 1),
    [0x6D] = A(8, AMD_AT_SWAP, 1), [0x6E] = X2(8, 0), [0x6F] = X2(8, 1),
    [0x70] = A(8, AMD_AT_CMPSWAP, 1), [0x71] = A(8, AMD_AT_FCMPSWAP, 1),
    [0x72] = A(8, AMD_AT_FMIN, 1), [0x73] = A(8, AMD_AT_FMAX, 1),
    [0x76] = L(8, 0), [0x77] = L2(8, 0), [0x78] = L2(8, 1),
    [0x79] = A(4, AMD_AT_FADD, 1),
    [0xA0] = S(1, 2), [0xA1] = S(2, 2),
    [0xA2] = LD16(1, 0, 1), [0xA3] = LD16(1, 0, 2), [0xA4] = LD16(1, 1, 1), [0xA5] = LD16(1, 1, 2),
    [0xA6] = LD16(2, 0, 1), [0xA7] = LD16(2, 0, 2),
    [0xB2] = { DS_PERMUTE, 4, 0, 0, 0, 1, 0 }, [0xB3] = { DS_BPERMUTE, 4, 0, 0, 0, 1, 0 },
    [0xDE] = S(12, 0), [0xDF] = S(16, 0), [0xFE] = L(12, 0), [0xFF] = L(16, 0),
};

/* offset0 | offset1 << 8: the 16-bit offset of single-address opcodes. */
static uint32_t off16(const rdna3_inst *in) { return ((uint32_t)in->offset & 0xffu) | ((uint32_t)in->offset1 << 8); }
static uint32_t off0(const rdna3_inst *in) { return (uint32_t)in->offset & 0xffu; }

/* One element: alignment mode, then the LDS access. Misaligned: load 0 / store dropped, MEMVIOL. */
static bool ds_load_elem(rdna3_wave *w, const rdna3_inst *in, xm_pages *pc, unsigned lane, uint32_t addr,
                         void *buf, unsigned size)
{
    uint64_t a = addr;
    if (!amd_align_check(rdna3_align_mode(w), &a, size, false)) {
        memset(buf, 0, size);
        rdna3_memviol(w, in, lane, addr, "misaligned LDS load");
        return false;
    }
    const uint8_t *p = xm_page(pc, XM_LDS, a, size, false);
    if (p) {
        memcpy(buf, p, size);
        return true;
    }
    return rdna3_xm_load(w, in, lane, XM_LDS, a, buf, size);
}

static bool ds_store_elem(rdna3_wave *w, const rdna3_inst *in, xm_pages *pc, unsigned lane, uint32_t addr,
                          const void *buf, unsigned size)
{
    uint64_t a = addr;
    if (!amd_align_check(rdna3_align_mode(w), &a, size, false)) {
        rdna3_memviol(w, in, lane, addr, "misaligned LDS store");
        return false;
    }
    uint8_t *p = xm_page(pc, XM_LDS, a, size, true);
    if (p) {
        memcpy(p, buf, size);
        return true;
    }
    return rdna3_xm_store(w, in, lane, XM_LDS, a, buf, size);
}

static uint64_t get64(rdna3_wave *w, unsigned reg, unsigned lane, unsigned size)
{
    uint64_t v = rdna3_vreg(w, reg)[lane];
    if (size == 8) v |= (uint64_t)rdna3_vreg(w, reg + 1)[lane] << 32;
    return v;
}

static void put64(rdna3_wave *w, unsigned reg, unsigned lane, uint64_t v, unsigned size)
{
    rdna3_vreg(w, reg)[lane] = (uint32_t)v;
    if (size == 8) rdna3_vreg(w, reg + 1)[lane] = (uint32_t)(v >> 32);
}

static bool ds_lane(rdna3_wave *w, const rdna3_inst *in, const ds_op *d, xm_pages *pc, unsigned lane, uint32_t base,
                    xm_traffic *tr)
{
    uint8_t buf[16];
    unsigned sz = d->size;
    uint32_t scale = d->st64 ? sz * 64u : sz;
    switch (d->kind) {
    case DS_LOAD: {
        if (!ds_load_elem(w, in, pc, lane, base + off16(in), buf, sz)) return false;
        if (sz >= 4) rdna3_lane_from_bytes(w, in->vdst, lane, buf, sz);
        else if (sz == 1) rdna3_vreg(w, in->vdst)[lane] = d->sext ? (uint32_t)(int32_t)(int8_t)buf[0] : buf[0];
        else {
            uint16_t h = (uint16_t)(buf[0] | buf[1] << 8);
            rdna3_vreg(w, in->vdst)[lane] = d->sext ? (uint32_t)(int32_t)(int16_t)h : h;
        }
        break;
    }
    case DS_LOAD_D16: {
        if (!ds_load_elem(w, in, pc, lane, base + off16(in), buf, sz)) return false;
        uint32_t v = sz == 1 ? (d->sext ? (uint32_t)(int32_t)(int8_t)buf[0] : buf[0]) : (uint32_t)(buf[0] | buf[1] << 8);
        v &= 0xffffu;
        uint32_t *r = &rdna3_vreg(w, in->vdst)[lane];
        *r = d->d16 == 2 ? (*r & 0xffffu) | (v << 16) : (*r & 0xffff0000u) | v;
        break;
    }
    case DS_STORE: {
        if (sz >= 4) rdna3_lane_to_bytes(w, in->data0, lane, buf, sz);
        else {
            uint32_t v = rdna3_vreg(w, in->data0)[lane] >> (d->d16 == 2 ? 16 : 0);
            buf[0] = (uint8_t)v;
            buf[1] = (uint8_t)(v >> 8);
        }
        if (!ds_store_elem(w, in, pc, lane, base + off16(in), buf, sz)) return false;
        break;
    }
    case DS_LOAD2: {
        uint8_t b2[16];
        if (!ds_load_elem(w, in, pc, lane, base + off0(in) * scale, buf, sz)) return false;
        if (!ds_load_elem(w, in, pc, lane, base + in->offset1 * scale, b2, sz)) return false;
        rdna3_lane_from_bytes(w, in->vdst, lane, buf, sz);
        rdna3_lane_from_bytes(w, in->vdst + sz / 4u, lane, b2, sz);
        tr->lanes[XM_LDS]++;
        tr->bytes[XM_LDS] += sz;
        break;
    }
    case DS_STORE2: {
        uint8_t b2[16];
        rdna3_lane_to_bytes(w, in->data0, lane, buf, sz);
        rdna3_lane_to_bytes(w, in->data1, lane, b2, sz);
        if (!ds_store_elem(w, in, pc, lane, base + off0(in) * scale, buf, sz)) return false;
        if (!ds_store_elem(w, in, pc, lane, base + in->offset1 * scale, b2, sz)) return false;
        tr->lanes[XM_LDS]++;
        tr->bytes[XM_LDS] += sz;
        break;
    }
    case DS_XCHG2: {
        uint64_t o0, o1;
        uint64_t s0 = get64(w, in->data0, lane, sz), s1 = get64(w, in->data1, lane, sz);
        if (!rdna3_xm_atomic(w, in, lane, XM_LDS, base + off0(in) * scale, AMD_AT_SWAP, sz, s0, 0, &o0)) return false;
        if (!rdna3_xm_atomic(w, in, lane, XM_LDS, base + in->offset1 * scale, AMD_AT_SWAP, sz, s1, 0, &o1)) return false;
        put64(w, in->vdst, lane, o0, sz);
        put64(w, in->vdst + sz / 4u, lane, o1, sz);
        tr->lanes[XM_LDS]++;
        tr->bytes[XM_LDS] += sz;
        break;
    }
    default: { /* DS_ATOMIC */
        uint64_t old, src = get64(w, in->data0, lane, sz), cmp = get64(w, in->data1, lane, sz);
        if (!rdna3_xm_atomic(w, in, lane, XM_LDS, base + off16(in), (amd_atomic_op)d->atomic, sz, src, cmp, &old))
            return false;
        if (d->rtn) put64(w, in->vdst, lane, old, sz);
        break;
    }
    }
    tr->lanes[XM_LDS]++;
    tr->bytes[XM_LDS] += sz;
    return true;
}

/* LDS as the workgroup's page table (NULL in single-step use, which has no rdna3_wg). */
static const rdna3_wg *wg_pages(const rdna3_wave *w)
{
    return (w->warp && w->warp->wg) ? w->warp->wg->isa : NULL;
}

/* Byte offsets of the one or two accesses of each lane. */
typedef struct ds_offsets {
    uint32_t first, second;
    bool two;
} ds_offsets;

static ds_offsets ds_offsets_of(const rdna3_inst *in, const ds_op *d)
{
    bool two = d->kind == DS_LOAD2 || d->kind == DS_STORE2;
    uint32_t scale = d->st64 ? d->size * 64u : d->size;
    return two ? (ds_offsets){ off0(in) * scale, in->offset1 * scale, true } : (ds_offsets){ off16(in), 0, false };
}

/* Lanes of mask whose access [base + off, + size) leaves the LDS allocation (one block of host
 * memory, rdna3_wg.lds: an access may cross a page). The first test takes every lane in 32-bit
 * arithmetic (a loop that vectorises); only when some lane fails it, which may be an inactive
 * lane's stale address, are the active lanes looked at. */
static inline __attribute__((always_inline)) bool any_lane_not_simple(const uint32_t *base, unsigned n, uint64_t mask, uint32_t off, unsigned size,
                                uint32_t lds_size)
{
    if (lds_size < size) return mask != 0;
    uint32_t last = lds_size - size, bad = 0;
    for (unsigned l = 0; l < n; l++) bad |= (uint32_t)(base[l] + off > last);   /* LDS addresses wrap at 32 bits */
    if (!bad) return false;
    for (uint64_t m = mask; m; m &= m - 1)
        if (base[__builtin_ctzll(m)] + off > last) return true;
    return false;
}

static inline uint8_t *lds_at(const rdna3_wg *g, uint32_t a) { return g->lds + a; }

/* LDS -> VGPRs reg.. (dwords dw) of the lanes of mask (not empty), at base + off; and the other
 * way. */
static inline __attribute__((always_inline)) void lds_to_vgprs(rdna3_wave *w, const rdna3_wg *g, uint64_t mask, const uint32_t *base, uint32_t off,
                         unsigned reg, unsigned dw)
{
    uint32_t first = base[__builtin_ctzll(mask)], differ = 0;
    for (unsigned l = 0, n = w->wave_size; l < n; l++) differ |= base[l] ^ first;
    if (!differ) {   /* one address for the whole wave (a broadcast from a shared tile) */
        const uint8_t *p = lds_at(g, first + off);
        for (unsigned i = 0; i < dw; i++) {
            uint32_t v, *d = rdna3_vreg(w, reg + i);
            memcpy(&v, p + 4u * i, 4);
            RDNA3_FOR_LANES(w, mask, { d[l] = v; });
        }
        return;
    }
    if (dw == 1) {
        uint32_t *d = rdna3_vreg(w, reg);
        const uint8_t *p0 = g->lds;   /* a gather from one base */
        RDNA3_FOR_LANES(w, mask, { memcpy(&d[l], p0 + (uint32_t)(base[l] + off), 4); });
        return;
    }
    RDNA3_FOR_LANES(w, mask, { rdna3_lane_from_bytes(w, reg, l, lds_at(g, base[l] + off), 4u * dw); });
}

static inline __attribute__((always_inline)) void vgprs_to_lds(rdna3_wave *w, const rdna3_wg *g, uint64_t mask, const uint32_t *base, uint32_t off,
                         unsigned reg, unsigned dw)
{
    RDNA3_FOR_LANES(w, mask, { rdna3_lane_to_bytes(w, reg, l, lds_at(g, base[l] + off), 4u * dw); });
}

/* Whole-dword loads and stores (4 to 16 bytes, one or two addresses) when every active lane's
 * access is in the LDS allocation, in the unaligned alignment mode: straight copies between the
 * LDS block and the VGPRs. Lanes go in order, the first address of the two-address
 * forms before the second, as in the per-lane path (it decides which of two lanes storing to
 * one address wins; loads read before any VGPR is written, as base holds the addresses).
 * False, having done nothing, sends the instruction to the per-lane path, which also reports
 * faults. */
static inline __attribute__((always_inline)) bool ds_whole_wave(rdna3_wave *w, const rdna3_inst *in, const ds_op *d, uint64_t mask, const uint32_t *base)
{
    const rdna3_wg *g = wg_pages(w);
    bool simple_kind = d->kind == DS_LOAD || d->kind == DS_STORE || d->kind == DS_LOAD2 || d->kind == DS_STORE2;
    if (!g || !simple_kind || d->size < 4 || rdna3_align_mode(w) != AMD_ALIGN_UNALIGNED) return false;
    unsigned sz = d->size, dw = sz / 4u, n = w->wave_size;
    ds_offsets o = ds_offsets_of(in, d);
    if (!mask) return true;
    if (any_lane_not_simple(base, n, mask, o.first, sz, g->lds_size) ||
        (o.two && any_lane_not_simple(base, n, mask, o.second, sz, g->lds_size)))
        return false;
    switch (d->kind) {
    case DS_LOAD: lds_to_vgprs(w, g, mask, base, o.first, in->vdst, dw); break;
    case DS_LOAD2:   /* the two values of a lane land in different VGPRs: order does not matter */
        lds_to_vgprs(w, g, mask, base, o.first, in->vdst, dw);
        lds_to_vgprs(w, g, mask, base, o.second, in->vdst + dw, dw);
        break;
    case DS_STORE: vgprs_to_lds(w, g, mask, base, o.first, in->data0, dw); break;
    default: /* DS_STORE2: per lane, first then second */
        RDNA3_FOR_LANES(w, mask, {
            rdna3_lane_to_bytes(w, in->data0, l, lds_at(g, base[l] + o.first), sz);
            rdna3_lane_to_bytes(w, in->data1, l, lds_at(g, base[l] + o.second), sz);
        });
        break;
    }
    uint64_t lanes = (uint64_t)umb_popcount64(mask) * (o.two ? 2u : 1u);
    xm_traffic tr = { { 0 }, { 0 } };
    tr.lanes[XM_LDS] = lanes;
    tr.bytes[XM_LDS] = lanes * sz;
    rdna3_xm_count(w, &tr, d->kind == DS_STORE || d->kind == DS_STORE2 ? 1 : 0);
    return true;
}

/* Built for x86-64-v3 too: the whole-wave checks and copies above are inlined here. */
RDNA3_LANE_FN static void exec_ds(rdna3_wave *w, const rdna3_inst *in)
{
    const ds_op *d = &ds_ops[in->op & 0xffu];
    uint64_t mask = rdna3_exec(w);
    /* Every address first: a load may overwrite its own address VGPR. */
    uint32_t base[RDNA3_MAX_LANES];
    memcpy(base, rdna3_vreg(w, in->addr), sizeof(uint32_t) * w->wave_size);
    if (ds_whole_wave(w, in, d, mask, base)) return;
    xm_traffic tr = { { 0 }, { 0 } };
    xm_pages pc;
    xm_pages_init(&pc, w);
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        if (!ds_lane(w, in, d, &pc, lane, base[lane], &tr)) return;
    }
    int kind = d->kind == DS_ATOMIC || d->kind == DS_XCHG2 ? 2 : (d->kind == DS_STORE || d->kind == DS_STORE2) ? 1 : 0;
    rdna3_xm_count(w, &tr, kind);
}

static void exec_ds_nop(rdna3_wave *w, const rdna3_inst *in) { (void)w; (void)in; }

/* ---- cross-lane: no LDS access ---- */

/* ds_swizzle_b32: offset[15] = 1 is the quad permute (offset[7:0] = four 2-bit selects within
 * each group of 4 lanes); offset[15] = 0 is the bit-masked mode within groups of 32 lanes:
 * src = ((lane & and_mask) | or_mask) ^ xor_mask with the masks at offset[4:0], [9:5], [14:10].
 * A lane reading an inactive lane gets 0. */
static void exec_ds_swizzle(rdna3_wave *w, const rdna3_inst *in)
{
    uint32_t pat = off16(in);
    uint64_t mask = rdna3_exec(w);
    const uint32_t *src = rdna3_vreg(w, in->addr);   /* "ds_swizzle_b32 vdst, vsrc": the ADDR field */
    uint32_t out[RDNA3_MAX_LANES];
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m), from;
        if (pat & 0x8000u) {
            from = (lane & ~3u) | ((pat >> (2u * (lane & 3u))) & 3u);
        } else {
            unsigned and_m = pat & 31u, or_m = (pat >> 5) & 31u, xor_m = (pat >> 10) & 31u;
            from = (lane & ~31u) | ((((lane & 31u) & and_m) | or_m) ^ xor_m);
        }
        out[lane] = (mask >> from) & 1u ? src[from] : 0u;
    }
    uint32_t *dst = rdna3_vreg(w, in->vdst);
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        dst[lane] = out[lane];
    }
}

/* ds_permute_b32 (forward: lane i writes its data to lane (addr+offset)/4) and ds_bpermute_b32
 * (backward: lane i reads lane (addr+offset)/4), lane index modulo the wave size. Lanes nobody
 * writes, and reads of inactive lanes, give 0. */
static void exec_ds_permute(rdna3_wave *w, const rdna3_inst *in)
{
    uint64_t mask = rdna3_exec(w);
    const uint32_t *a = rdna3_vreg(w, in->addr), *src = rdna3_vreg(w, in->data0);
    uint32_t out[RDNA3_MAX_LANES] = { 0 };
    bool back = in->op == 0xB3;
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        unsigned other = ((a[lane] + off16(in)) >> 2) & (w->wave_size - 1u);
        if (back) out[lane] = (mask >> other) & 1u ? src[other] : 0u;
        else out[other] = src[lane];
    }
    uint32_t *dst = rdna3_vreg(w, in->vdst);
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        dst[lane] = out[lane];
    }
}

/* GDS memory, ordered count and the GS registers: not part of what OpenCL and HIP on amdhsa use. */
static void exec_gds_unsupported(rdna3_wave *w, const rdna3_inst *in)
{
    rdna3_fault(w, in, UMB_ERR_UNSUPPORTED,
                "GDS (global data share) instructions are not supported by umbra (only the GWS barriers and "
                "semaphores, ds_gws_*, are)");
}

int rdna3_ds_class(const rdna3_inst *in)
{
    if (in->fmt != RDNA3_FMT_DS || in->gds) return RDNA3_DS_OTHER;
    switch (ds_ops[in->op & 0xffu].kind) {
    case DS_LOAD: case DS_LOAD_D16: case DS_LOAD2: return RDNA3_DS_READS;
    case DS_NOP: case DS_SWIZZLE: case DS_PERMUTE: case DS_BPERMUTE: return RDNA3_DS_LANES;
    default: return RDNA3_DS_OTHER;
    }
}

rdna3_exec_fn rdna3_ds_handler(const rdna3_inst *in)
{
    if (in->gds) {
        rdna3_exec_fn gws = rdna3_gws_handler(in);   /* exec_gws.c */
        return gws ? gws : exec_gds_unsupported;
    }
    switch (ds_ops[in->op & 0xffu].kind) {
    case DS_NONE: return NULL;
    case DS_NOP: return exec_ds_nop;
    case DS_SWIZZLE: return exec_ds_swizzle;
    case DS_PERMUTE: case DS_BPERMUTE: return exec_ds_permute;
    default: return exec_ds;
    }
}
