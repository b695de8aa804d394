/* SMEM: scalar loads through the constant cache (spec/rdna3.md §1 "Scalar buffer loads", §2
 * SMEM; rdna3-scalar-memory.zh.md "标量内存寻址" and "使用缓冲区常量加载"). */
#include "isa/rdna3/exec_mem.h"

#include <string.h>

/* Destination SGPRs sdata..sdata+n-1 must exist; NULL discards the data. */
static bool sdst_ok(rdna3_wave *w, const rdna3_inst *in, unsigned sdata, unsigned n)
{
    if (sdata + n <= RDNA3_NUM_SGPR_SLOTS) return true;
    rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "SMEM destination s%u..s%u out of range", sdata, sdata + n - 1);
    return false;
}



static void count(rdna3_wave *w, unsigned n)
{
    if (w->stats) umb_count_mem(w->stats, UMB_SPACE_CONSTANT, 0, 1, 4ull * n);
}

/* The host bytes of the page holding [addr, addr + bytes), or NULL when the range crosses a page
 * or the page is unmapped. A workgroup's s_loads read its kernarg segment, dispatch packet and a
 * few descriptors, so a radix walk a page serves them all (for workgroups of one wave, the walks
 * were a tenth of the time). */
static const uint8_t *smem_page(rdna3_wave *w, uint64_t addr, unsigned bytes)
{
    uint64_t off = addr & UMB_PAGE_MASK;
    if (off + bytes > UMB_PAGE_SIZE) return NULL;
    uint64_t tag = (addr >> UMB_PAGE_BITS) + 1u;
    unsigned way = (unsigned)tag % RDNA3_SMEM_PAGES;
    if (w->smem_page_tag[way] == tag) return w->smem_page[way];
    const uint8_t *p = umb_mem_page_for_read(w->kernel->global, addr);
    if (p && p != umb_zero_page) {
        w->smem_page_tag[way] = tag;
        w->smem_page[way] = p;
    }
    return p;
}

/* n (1, 2, 4, 8 or 16) dwords: a copy of a constant size each, where a loop became `rep movsq`
 * (its start-up cost is most of a short copy's). */
static void copy_dwords(uint32_t *dst, const void *src, unsigned n)
{
    switch (n) {
    case 1: memcpy(dst, src, 4); break;
    case 2: memcpy(dst, src, 8); break;
    case 4: memcpy(dst, src, 16); break;
    case 8: memcpy(dst, src, 32); break;
    default: memcpy(dst, src, 64); break;
    }
}

static void put_sgprs(rdna3_wave *w, unsigned sdata, const void *src, unsigned n)
{
    if (sdata != RDNA3_SRC_NULL) copy_dwords(&w->sgpr[sdata], src, n);
}

/* s_load_b32..b512 (ops 0..4): ADDR = SGPR[base] + inst_offset + {M0 | SGPR | 0}, two LSBs
 * ignored. A negative sum is "illegal and undefined"; umbra adds it as a signed 32-bit value. */
static void exec_s_load(rdna3_wave *w, const rdna3_inst *in)
{
    unsigned n = 1u << in->op, sdata = smem_sdata(in);
    if (!sdst_ok(w, in, sdata, n)) return;
    int32_t off = (int32_t)((uint32_t)in->offset + rdna3_mem_scalar_operand(w, in->soffset));
    uint64_t addr = (rdna3_sgpr64(w, in->saddr) + (uint64_t)(int64_t)off) & ~3ull;
    uint32_t v[16];
    const uint8_t *page = smem_page(w, addr, 4 * n);
    const void *src = v;
    if (page) src = page + (addr & UMB_PAGE_MASK);
    else if (!umb_mem_load(w->kernel->global, addr, v, 4 * n)) {
        rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "s_load from unmapped address 0x%llx (%u bytes)",
                    (unsigned long long)addr, 4 * n);
        return;
    }
    put_sgprs(w, sdata, src, n);
    count(w, n);
}

/* s_buffer_load_b32..b512 (ops 8..12): base, stride and num_records come from the V#; a dword
 * is out of range (reads 0) when offset >= (stride ? stride : 1) * num_records. */
static void exec_s_buffer_load(rdna3_wave *w, const rdna3_inst *in)
{
    unsigned n = 1u << (in->op - 8), sdata = smem_sdata(in);
    if (!sdst_ok(w, in, sdata, n)) return;
    if (in->offset < 0) {
        rdna3_memviol(w, in, 0, (uint64_t)(int64_t)in->offset, "negative s_buffer_load offset");
        return;
    }
    const uint32_t *vs = &w->sgpr[in->saddr & 124u];
    uint64_t base = ((uint64_t)vs[0] | ((uint64_t)(vs[1] & 0xffffu) << 32)) & ~3ull;
    uint32_t stride = (vs[1] >> 16) & 0x3fffu;
    uint64_t size = (uint64_t)(stride ? stride : 1u) * vs[2];
    uint64_t off = (uint64_t)(uint32_t)in->offset + rdna3_mem_scalar_operand(w, in->soffset);
    uint32_t v[16];
    unsigned loaded = 0;
    for (unsigned i = 0; i < n; i++) {
        v[i] = 0;
        if (off + 4u * i >= size) continue;
        uint64_t a = base + (off & ~3ull) + 4u * i;
        if (!umb_mem_load(w->kernel->global, a, &v[i], 4)) {
            rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "s_buffer_load from unmapped address 0x%llx",
                        (unsigned long long)a);
            return;
        }
        loaded++;
    }
    put_sgprs(w, sdata, v, n);
    count(w, loaded);
}

/* s_gl1_inv / s_dcache_inv: umbra models no caches, so there is nothing to invalidate. */
static void exec_s_inv(rdna3_wave *w, const rdna3_inst *in) { (void)w; (void)in; }

rdna3_exec_fn rdna3_smem_handler(const rdna3_inst *in)
{
    if (in->op <= 4) return exec_s_load;
    if (in->op >= 8 && in->op <= 12) return exec_s_buffer_load;
    if (in->op == 0x20 || in->op == 0x21) return exec_s_inv;
    return NULL;
}
