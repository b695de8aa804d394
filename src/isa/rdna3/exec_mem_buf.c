/* MUBUF and MTBUF (spec/rdna3.md §1-4; rdna3-vector-memory-buffer-instructions.zh.md).
 *
 * Per lane: index and offset from VADDR (IDXEN/OFFEN) and add_tid, the address from the V#
 * (linear or swizzled), the OOB_SELECT range check (per dword for B64/B96/B128, all or nothing
 * for format operations and atomics), then the data with format conversion and DST_SEL. */
#include "isa/rdna3/exec_mem.h"
#include "mem/amd_buffer.h"
#include "mem/amd_format.h"

#include <string.h>

/* What every buffer handler starts from. */
typedef struct buf_ctx {
    amd_vsharp v;
    uint32_t soff;
    bool unbound;
    uint64_t mask;
    uint32_t index[RDNA3_MAX_LANES], offset[RDNA3_MAX_LANES];
} buf_ctx;

static void buf_setup(rdna3_wave *w, const rdna3_inst *in, buf_ctx *c)
{
    amd_vsharp_decode(&w->sgpr[in->saddr & 124u], &c->v);
    c->soff = rdna3_mem_scalar_operand(w, in->soffset);
    c->unbound = amd_vsharp_unbound(&c->v, in->fmt == RDNA3_FMT_MUBUF);
    c->mask = rdna3_exec(w);
    const uint32_t *a0 = rdna3_vreg(w, in->addr), *a1 = rdna3_vreg(w, in->addr + 1u);
    uint32_t ioff = (uint32_t)in->offset & 0xfffu;
    /* Read every address VGPR first: a load may overwrite its own address. */
    for (uint64_t m = c->mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint32_t vidx = in->idxen ? a0[lane] : 0;
        uint32_t voff = in->offen ? (in->idxen ? a1[lane] : a0[lane]) : 0;
        c->index[lane] = amd_buf_index(&c->v, in->idxen, vidx, lane);
        c->offset[lane] = voff + ioff;
    }
}

/* A V# whose TYPE is not "buffer" makes the instruction a no-op [ISA §9.6]. */
static bool type_mismatch(const buf_ctx *c) { return c->v.type != 0; }

/* Bytes [off, off+size) of record `index`, as addresses: each dword of the offset is placed on
 * its own (a swizzled buffer scatters them). Calls fn per contiguous piece. */
static bool buf_xfer(rdna3_wave *w, const rdna3_inst *in, const buf_ctx *c, unsigned lane, uint32_t index,
                     uint32_t off, uint8_t *buf, unsigned size, bool store)
{
    unsigned done = 0;
    while (done < size) {
        uint32_t o = off + done;
        unsigned n = amd_vsharp_element_size(&c->v) ? 4u - (o & 3u) : size - done;
        if (n > size - done) n = size - done;
        uint64_t a = amd_buf_address(&c->v, c->soff, index, o);
        bool ok = store ? rdna3_xm_store(w, in, lane, XM_GLOBAL, a, buf + done, n)
                        : rdna3_xm_load(w, in, lane, XM_GLOBAL, a, buf + done, n);
        if (!ok) return false;
        done += n;
    }
    return true;
}

static void count(rdna3_wave *w, uint64_t lanes, uint64_t bytes, int kind)
{
    xm_traffic t = { { lanes, 0, 0 }, { bytes, 0, 0 } };
    rdna3_xm_count(w, &t, kind);
}

/* Alignment of a non-format access per SH_MEM_CONFIG.alignment_mode; in mode 0 the offset is
 * moved down with the address. False after a MEMVIOL. */
static bool buf_align(rdna3_wave *w, const rdna3_inst *in, const buf_ctx *c, unsigned lane, uint32_t *off,
                      unsigned size)
{
    uint64_t a = amd_buf_address(&c->v, c->soff, c->index[lane], *off), b = a;
    if (!amd_align_check(rdna3_align_mode(w), &b, size, false)) {
        rdna3_memviol(w, in, lane, a, "misaligned buffer access");
        return false;
    }
    *off -= (uint32_t)(a - b);
    return true;
}

/* ---- non-format loads and stores (0x10..0x25): range checked per dword ---- */

static void exec_buf_data(rdna3_wave *w, const rdna3_inst *in)
{
    const vm_op *d = rdna3_vm_op(in->op);
    buf_ctx c;
    buf_setup(w, in, &c);
    if (type_mismatch(&c)) return;
    unsigned vd = buf_vdata(in), ndw = d->size >= 4 ? d->size / 4u : 1u;
    uint64_t lanes = 0, bytes = 0;
    for (uint64_t m = c.mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint32_t off = c.offset[lane];
        uint8_t buf[16] = { 0 };
        if (!buf_align(w, in, &c, lane, &off, d->size)) return;
        if (d->kind == VM_STORE) {
            if (d->size < 4) {
                uint32_t v = rdna3_vreg(w, vd)[lane] >> (d->d16 == 2 ? 16 : 0);
                memcpy(buf, &v, d->size);
            } else {
                rdna3_lane_to_bytes(w, vd, lane, buf, d->size);
            }
        }
        for (unsigned i = 0; i < ndw && i < 4; i++) {
            unsigned n = d->size < 4 ? d->size : 4u;
            if (c.unbound || !amd_buf_in_range(&c.v, c.soff, c.index[lane], off + 4 * i, n)) {
                memset(buf + 4 * i, 0, n);   /* out of range: loads read 0, stores dropped */
                continue;
            }
            if (!buf_xfer(w, in, &c, lane, c.index[lane], off + 4 * i, buf + 4 * i, n, d->kind == VM_STORE)) return;
            bytes += n;
        }
        lanes++;
        if (d->kind == VM_STORE) continue;
        if (d->kind == VM_LOAD_D16) {
            uint32_t v = d->size == 1 ? (d->sext ? (uint32_t)(int32_t)(int8_t)buf[0] : buf[0])
                                      : (uint32_t)(buf[0] | buf[1] << 8);
            uint32_t *r = &rdna3_vreg(w, vd)[lane];
            *r = d->d16 == 2 ? (*r & 0xffffu) | (v << 16) : (*r & 0xffff0000u) | (v & 0xffffu);
        } else if (d->size == 1) {
            rdna3_vreg(w, vd)[lane] = d->sext ? (uint32_t)(int32_t)(int8_t)buf[0] : buf[0];
        } else if (d->size == 2) {
            uint16_t h = (uint16_t)(buf[0] | buf[1] << 8);
            rdna3_vreg(w, vd)[lane] = d->sext ? (uint32_t)(int32_t)(int16_t)h : h;
        } else {
            rdna3_lane_from_bytes(w, vd, lane, buf, d->size);
        }
        if (in->tfe) rdna3_vreg(w, vd + ndw)[lane] = 0;
    }
    count(w, lanes, bytes, d->kind == VM_STORE ? 1 : 0);
}

/* ---- format loads and stores ---- */

typedef struct fmt_op {
    uint8_t ncomp;   /* components the instruction transfers */
    uint8_t store;
    uint8_t d16;     /* 0, 1 = packed halves from the low one, 2 = _hi (bits 31:16 only) */
} fmt_op;

static fmt_op fmt_op_of(const rdna3_inst *in)
{
    unsigned op = in->op;
    if (in->fmt == RDNA3_FMT_MUBUF && op == 0x26) return (fmt_op){ 1, 0, 2 };
    if (in->fmt == RDNA3_FMT_MUBUF && op == 0x27) return (fmt_op){ 1, 1, 2 };
    return (fmt_op){ (uint8_t)((op & 3u) + 1u), (uint8_t)((op >> 2) & 1u), (uint8_t)((op >> 3) & 1u) };
}

/* Format alignment: 1-, 2- and >= 4-byte formats need 1-, 2- and 4-byte alignment. */
static uint32_t fmt_align(const amd_buf_format *f) { return f->bytes >= 4 ? 4u : f->bytes; }

/* Which memory component (or constant) feeds component c: MUBUF uses the V#'s DST_SEL, MTBUF
 * the identity (X, Y, Z, W). */
static unsigned sel_of(const rdna3_inst *in, const buf_ctx *c, unsigned comp)
{
    return in->fmt == RDNA3_FMT_MUBUF ? c->v.dst_sel[comp] : AMD_SEL_X + comp;
}

static void put_half(rdna3_wave *w, unsigned reg, unsigned lane, bool hi, uint16_t v)
{
    uint32_t *r = &rdna3_vreg(w, reg)[lane];
    *r = hi ? (*r & 0xffffu) | ((uint32_t)v << 16) : (*r & 0xffff0000u) | v;
}

static uint16_t get_half(rdna3_wave *w, unsigned reg, unsigned lane, bool hi)
{
    uint32_t r = rdna3_vreg(w, reg)[lane];
    return (uint16_t)(hi ? r >> 16 : r);
}

static void fmt_load_lane(rdna3_wave *w, const rdna3_inst *in, const buf_ctx *c, const fmt_op *o,
                          const amd_buf_format *f, unsigned lane, const uint8_t *elem, bool in_range)
{
    unsigned vd = buf_vdata(in);
    for (unsigned k = 0; k < o->ncomp; k++) {
        unsigned sel = sel_of(in, c, k), mc = sel - AMD_SEL_X;
        uint32_t v32 = 0;
        uint16_t v16 = 0;
        if (sel == AMD_SEL_1) {
            v32 = amd_fmt_one32(f->num);
            v16 = amd_fmt_one16(f->num);
        } else if (sel >= AMD_SEL_X && in_range && mc < f->ncomp) {
            uint32_t raw = amd_fmt_get_raw(f, elem, mc);
            if (o->d16) v16 = amd_fmt_load16(f->num, f->bits[mc], raw);
            else v32 = amd_fmt_load32(f->num, f->bits[mc], raw);
        }
        if (o->d16 == 2) put_half(w, vd, lane, true, v16);
        else if (o->d16) put_half(w, vd + k / 2u, lane, k & 1u, v16);
        else rdna3_vreg(w, vd + k)[lane] = v32;
    }
    unsigned nregs = o->d16 == 2 ? 1u : o->d16 ? (o->ncomp + 1u) / 2u : o->ncomp;
    if (in->tfe) rdna3_vreg(w, vd + nregs)[lane] = 0;
}

/* Store: memory component k takes what its DST_SEL names among the instruction's components
 * (a component the instruction does not supply is 0). */
static void fmt_store_lane(rdna3_wave *w, const rdna3_inst *in, const buf_ctx *c, const fmt_op *o,
                           const amd_buf_format *f, unsigned lane, uint8_t *elem)
{
    unsigned vd = buf_vdata(in);
    for (unsigned k = 0; k < f->ncomp; k++) {
        unsigned sel = sel_of(in, c, k), j = sel - AMD_SEL_X;
        uint32_t raw = 0;
        if (sel == AMD_SEL_1) {
            raw = o->d16 ? amd_fmt_store16(f->num, f->bits[k], amd_fmt_one16(f->num))
                         : amd_fmt_store32(f->num, f->bits[k], amd_fmt_one32(f->num));
        } else if (sel >= AMD_SEL_X && j < o->ncomp) {
            if (o->d16 == 2) raw = amd_fmt_store16(f->num, f->bits[k], get_half(w, vd, lane, true));
            else if (o->d16) raw = amd_fmt_store16(f->num, f->bits[k], get_half(w, vd + j / 2u, lane, j & 1u));
            else raw = amd_fmt_store32(f->num, f->bits[k], rdna3_vreg(w, vd + j)[lane]);
        }
        amd_fmt_put_raw(f, elem, k, raw);
    }
}

static void exec_buf_format(rdna3_wave *w, const rdna3_inst *in)
{
    buf_ctx c;
    buf_setup(w, in, &c);
    if (type_mismatch(&c)) return;
    unsigned fmt = in->fmt == RDNA3_FMT_MTBUF ? in->mem_format : c.v.format;
    const amd_buf_format *f = amd_buf_format_info(fmt);
    fmt_op o = fmt_op_of(in);
    if (!f && !c.unbound) {
        rdna3_fault(w, in, UMB_ERR_UNSUPPORTED, "buffer format %u is not a buffer format", fmt);
        return;
    }
    static const amd_buf_format none = { "INVALID", 1, { 32, 0, 0, 0 }, AMD_NUM_UINT, 4, 0 };
    if (!f) f = &none;   /* unbound: every load reads 0 (SEL_1 still reads 1), stores vanish */
    uint64_t lanes = 0, bytes = 0;
    for (uint64_t m = c.mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint8_t elem[16] = { 0 };
        uint32_t off = c.offset[lane];
        uint64_t a = amd_buf_address(&c.v, c.soff, c.index[lane], off);
        if (a & (fmt_align(f) - 1u)) {
            if (!o.store) fmt_load_lane(w, in, &c, &o, f, lane, elem, false);
            rdna3_memviol(w, in, lane, a, "misaligned format access");
            return;
        }
        bool ok = !c.unbound && amd_buf_in_range(&c.v, c.soff, c.index[lane], off, f->bytes);
        if (o.store) {
            if (!ok) continue;
            fmt_store_lane(w, in, &c, &o, f, lane, elem);
            if (!buf_xfer(w, in, &c, lane, c.index[lane], off, elem, f->bytes, true)) return;
        } else {
            if (ok && !buf_xfer(w, in, &c, lane, c.index[lane], off, elem, f->bytes, false)) return;
            fmt_load_lane(w, in, &c, &o, f, lane, elem, ok);
        }
        lanes += ok;
        bytes += ok ? f->bytes : 0;
    }
    count(w, lanes, bytes, o.store ? 1 : 0);
}

/* ---- atomics: all or nothing; out of range drops the operation and returns 0 ---- */

static void exec_buf_atomic(rdna3_wave *w, const rdna3_inst *in)
{
    const vm_op *d = rdna3_vm_op(in->op);
    buf_ctx c;
    buf_setup(w, in, &c);
    if (type_mismatch(&c)) return;
    unsigned vd = buf_vdata(in), dw = d->size / 4u;
    bool cmp_op = d->atomic == AMD_AT_CMPSWAP || d->atomic == AMD_AT_FCMPSWAP;
    uint64_t lanes = 0;
    for (uint64_t m = c.mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint64_t src = rdna3_vgpr64(w, vd, lane), cmp = cmp_op ? rdna3_vgpr64(w, vd + dw, lane) : 0, old = 0;
        if (dw == 1) { src &= 0xffffffffu; cmp &= 0xffffffffu; }
        uint32_t off = c.offset[lane];
        uint64_t a = amd_buf_address(&c.v, c.soff, c.index[lane], off);
        if (!c.unbound && amd_buf_in_range(&c.v, c.soff, c.index[lane], off, d->size)) {
            if (!rdna3_xm_atomic(w, in, lane, XM_GLOBAL, a, (amd_atomic_op)d->atomic, d->size, src, cmp, &old))
                return;
            lanes++;
        } else if (a & (d->size - 1u)) {
            rdna3_memviol(w, in, lane, a, "misaligned atomic");
            return;
        }
        if (in->glc) {
            rdna3_vreg(w, vd)[lane] = (uint32_t)old;
            if (dw == 2) rdna3_vreg(w, vd + 1)[lane] = (uint32_t)(old >> 32);
            if (in->tfe) rdna3_vreg(w, vd + dw)[lane] = 0;
        }
    }
    count(w, lanes, lanes * d->size, 2);
}

/* ---- loads into LDS (0x2D..0x32): LDS address = M0[15:0] + inst_offset + lane*4 ---- */

static void exec_buf_load_lds(rdna3_wave *w, const rdna3_inst *in)
{
    static const uint8_t size[6] = { 1, 1, 2, 2, 4, 0 };
    unsigned k = in->op - 0x2Du;
    buf_ctx c;
    buf_setup(w, in, &c);
    if (type_mismatch(&c)) return;
    const amd_buf_format *f = k == 5 ? amd_buf_format_info(c.v.format) : NULL;
    unsigned sz = k == 5 ? (f ? f->bytes : 4u) : size[k];
    uint32_t lds_base = (w->sgpr[RDNA3_SRC_M0] & 0xffffu) + ((uint32_t)in->offset & 0xfffu);
    uint64_t lanes = 0;
    for (uint64_t m = c.mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint8_t buf[16] = { 0 };
        uint32_t off = c.offset[lane], v = 0;
        bool ok = !c.unbound && amd_buf_in_range(&c.v, c.soff, c.index[lane], off, sz);
        if (ok && !buf_xfer(w, in, &c, lane, c.index[lane], off, buf, sz, false)) return;
        if (k == 5) v = f ? (ok ? amd_fmt_load32(f->num, f->bits[0], amd_fmt_get_raw(f, buf, 0)) : 0) : 0;
        else if (sz == 1) v = (k & 1u) ? (uint32_t)(int32_t)(int8_t)buf[0] : buf[0];
        else if (sz == 2) { uint16_t h = (uint16_t)(buf[0] | buf[1] << 8); v = (k & 1u) ? (uint32_t)(int32_t)(int16_t)h : h; }
        else memcpy(&v, buf, 4);
        if (!rdna3_xm_store(w, in, lane, XM_LDS, lds_base + 4u * lane, &v, 4)) return;
        lanes += ok;
    }
    count(w, lanes, lanes * sz, 0);
}

/* buffer_gl0_inv / buffer_gl1_inv: umbra models no caches. */
static void exec_buf_inv(rdna3_wave *w, const rdna3_inst *in) { (void)w; (void)in; }

rdna3_exec_fn rdna3_buf_handler(const rdna3_inst *in)
{
    if (in->fmt == RDNA3_FMT_MTBUF) return in->op <= 15 ? exec_buf_format : NULL;
    unsigned op = in->op;
    if (op <= 0x0F || op == 0x26 || op == 0x27) return exec_buf_format;
    if (op == 0x2B || op == 0x2C) return exec_buf_inv;
    if (op >= 0x2D && op <= 0x32) return exec_buf_load_lds;
    const vm_op *d = rdna3_vm_op(op);
    if (!d) return NULL;
    return d->kind == VM_ATOMIC ? exec_buf_atomic : exec_buf_data;
}
