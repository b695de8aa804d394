/* Sparse 64-bit memory (see mem.h for the design). */
#include "mem/mem.h"

#include <stdlib.h>

const uint8_t umb_zero_page[UMB_PAGE_SIZE];

/* Leaf values other than real pages. The zero page doubles as "mapped, not yet written". */
#define LEAF_UNMAPPED NULL
#define LEAF_ZERO ((void *)umb_zero_page)

umb_mem *umb_mem_create(void)
{
    return calloc(1, sizeof(umb_mem));
}

static void free_level(umb_radix_node *n, int depth, umb_mem *m)
{
    for (unsigned i = 0; i < UMB_RADIX_SIZE; i++) {
        void *p = atomic_load_explicit(&n->slot[i], memory_order_relaxed);
        if (!p) continue;
        if (depth < 3) {
            free_level(p, depth + 1, m);
            free(p);
        } else if (p != LEAF_ZERO) {
            free(p);
        }
        atomic_store_explicit(&n->slot[i], NULL, memory_order_relaxed);
    }
}

void umb_mem_clear(umb_mem *m)
{
    free_level(&m->root, 0, m);
    m->mapped_pages = 0;
    atomic_store(&m->backed_pages, 0);
}

void umb_mem_destroy(umb_mem *m)
{
    if (!m) return;
    umb_mem_clear(m);
    free(m);
}

/* The slot of page `pn`, creating interior nodes when `create` (host side only). */
static _Atomic(void *) *leaf_slot(umb_mem *m, uint64_t pn, bool create)
{
    umb_radix_node *n = &m->root;
    for (int shift = 39; shift > 0; shift -= 13) {
        _Atomic(void *) *s = &n->slot[(pn >> shift) & UMB_RADIX_MASK];
        umb_radix_node *next = atomic_load_explicit(s, memory_order_acquire);
        if (!next) {
            if (!create) return NULL;
            next = calloc(1, sizeof(umb_radix_node));
            if (!next) return NULL;
            atomic_store_explicit(s, next, memory_order_release);
        }
        n = next;
    }
    return &n->slot[pn & UMB_RADIX_MASK];
}

static inline uint64_t first_page(uint64_t addr) { return addr >> UMB_PAGE_BITS; }
/* One past the last page; size > 0 and the range must not wrap (checked by callers). */
static inline uint64_t end_page(uint64_t addr, uint64_t size) { return ((addr + size - 1) >> UMB_PAGE_BITS) + 1; }

static bool range_ok(uint64_t addr, uint64_t size) { return size > 0 && addr + size - 1 >= addr; }

bool umb_mem_map_range(umb_mem *m, uint64_t addr, uint64_t size)
{
    if (size == 0) return true;
    if (!range_ok(addr, size)) return false;
    for (uint64_t pn = first_page(addr), e = end_page(addr, size); pn != e; pn++) {
        _Atomic(void *) *s = leaf_slot(m, pn, true);
        if (!s) return false;
        if (atomic_load_explicit(s, memory_order_relaxed) == LEAF_UNMAPPED) {
            atomic_store_explicit(s, LEAF_ZERO, memory_order_release);
            m->mapped_pages++;
        }
    }
    return true;
}

void umb_mem_unmap_range(umb_mem *m, uint64_t addr, uint64_t size)
{
    if (!range_ok(addr, size)) return;
    for (uint64_t pn = first_page(addr), e = end_page(addr, size); pn != e; pn++) {
        _Atomic(void *) *s = leaf_slot(m, pn, false);
        if (!s) continue;
        void *p = atomic_load_explicit(s, memory_order_relaxed);
        if (p == LEAF_UNMAPPED) continue;
        if (p != LEAF_ZERO) {
            free(p);
            atomic_fetch_sub(&m->backed_pages, 1);
        }
        atomic_store_explicit(s, LEAF_UNMAPPED, memory_order_release);
        m->mapped_pages--;
    }
}

bool umb_mem_range_mapped(const umb_mem *m, uint64_t addr, uint64_t size)
{
    if (size == 0) return true;
    if (!range_ok(addr, size)) return false;
    for (uint64_t pn = first_page(addr), e = end_page(addr, size); pn != e; pn++)
        if (!umb_mem_leaf(m, pn << UMB_PAGE_BITS)) return false;
    return true;
}

uint8_t *umb_mem_materialise(umb_mem *m, uint64_t addr)
{
    _Atomic(void *) *s = leaf_slot(m, addr >> UMB_PAGE_BITS, false);
    if (!s) return NULL;
    void *cur = atomic_load_explicit(s, memory_order_acquire);
    if (cur != LEAF_ZERO) return cur; /* unmapped (NULL), or another thread won the race */
    uint8_t *page = calloc(1, UMB_PAGE_SIZE);
    if (!page) return NULL;
    if (atomic_compare_exchange_strong_explicit(s, &cur, page, memory_order_acq_rel, memory_order_acquire)) {
        atomic_fetch_add(&m->backed_pages, 1);
        return page;
    }
    free(page);
    return cur;
}

bool umb_mem_write_bytes(umb_mem *m, uint64_t addr, const void *src, uint64_t size)
{
    if (!umb_mem_range_mapped(m, addr, size)) return false;
    const uint8_t *s = src;
    while (size) {
        uint64_t off = addr & UMB_PAGE_MASK;
        uint64_t n = UMB_PAGE_SIZE - off < size ? UMB_PAGE_SIZE - off : size;
        uint8_t *p = umb_mem_page_for_write(m, addr);
        if (!p) return false;
        memcpy(p + off, s, n);
        addr += n, s += n, size -= n;
    }
    return true;
}

bool umb_mem_read_bytes(const umb_mem *m, uint64_t addr, void *dst, uint64_t size)
{
    if (!umb_mem_range_mapped(m, addr, size)) return false;
    uint8_t *d = dst;
    while (size) {
        uint64_t off = addr & UMB_PAGE_MASK;
        uint64_t n = UMB_PAGE_SIZE - off < size ? UMB_PAGE_SIZE - off : size;
        const uint8_t *p = umb_mem_page_for_read(m, addr);
        if (!p) return false;
        memcpy(d, p + off, n);
        addr += n, d += n, size -= n;
    }
    return true;
}

bool umb_mem_load_slow(const umb_mem *m, uint64_t addr, void *dst, unsigned size)
{
    /* Check every byte first so that a faulting access has no partial effect. */
    if (!umb_mem_range_mapped(m, addr, size)) return false;
    return umb_mem_read_bytes(m, addr, dst, size);
}

bool umb_mem_store_slow(umb_mem *m, uint64_t addr, const void *src, unsigned size)
{
    if (!umb_mem_range_mapped(m, addr, size)) return false;
    return umb_mem_write_bytes(m, addr, src, size);
}
