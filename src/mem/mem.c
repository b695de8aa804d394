/* Sparse 64-bit memory (see mem.h for the design). */
#include "mem/mem.h"

#include <stdlib.h>

const uint8_t umb_zero_page[UMB_PAGE_SIZE];

/* Leaf values other than real pages. The zero page doubles as "mapped, not yet written". */
#define LEAF_UNMAPPED NULL
#define LEAF_ZERO ((void *)umb_zero_page)

/* The shared leaf node of a fully mapped, never written 32 MiB block: every slot is the zero
 * page. Read-only; a write below it first replaces it with a private copy (cow_leaf). */
static const umb_radix_node zero_leaf = {
    .slot = { [0 ... UMB_RADIX_SIZE - 1] = (void *)umb_zero_page },
};
#define ZERO_NODE ((void *)&zero_leaf)

/* Pages per leaf node, and the levels: root (depth 0) -> 1 -> 2 -> leaf node (depth 3). */
#define BLOCK_PAGES ((uint64_t)UMB_RADIX_SIZE)

umb_mem *umb_mem_create(void)
{
    return calloc(1, sizeof(umb_mem));
}

static inline void own_set(umb_radix_node *n, unsigned i)
{
    atomic_fetch_or_explicit(&n->own[i >> 6], 1ull << (i & 63), memory_order_relaxed);
}

static inline void own_clear(umb_radix_node *n, unsigned i)
{
    atomic_fetch_and_explicit(&n->own[i >> 6], ~(1ull << (i & 63)), memory_order_relaxed);
}

static inline bool own_test(const umb_radix_node *n, unsigned i)
{
    return (atomic_load_explicit(&((umb_radix_node *)n)->own[i >> 6], memory_order_relaxed) >> (i & 63)) & 1;
}

/* Own bits (umb_radix_node.own) mark the slots clearing must visit: at depths 0 and 1 the
 * interior children, at depth 2 every leaf node (private, or the shared zero node), at depth 3
 * the pages with storage of their own. */

/* Free a private leaf node's pages, and the node. */
static void free_leaf_node(umb_radix_node *n)
{
    for (unsigned wd = 0; wd < UMB_RADIX_SIZE / 64; wd++)
        for (uint64_t bits = atomic_load_explicit(&n->own[wd], memory_order_relaxed); bits; bits &= bits - 1)
            free(atomic_load_explicit(&n->slot[wd * 64 + (unsigned)__builtin_ctzll(bits)], memory_order_relaxed));
    free(n);
}

/* Unmap everything below n (depth 0..2). Interior nodes stay allocated and empty when
 * keep_nodes (clearing: the next mapping reuses them), else they are freed (destroying). */
static void clear_level(umb_radix_node *n, int depth, bool keep_nodes)
{
    for (unsigned wd = 0; wd < UMB_RADIX_SIZE / 64; wd++) {
        uint64_t bits = atomic_load_explicit(&n->own[wd], memory_order_relaxed);
        for (; bits; bits &= bits - 1) {
            unsigned i = wd * 64 + (unsigned)__builtin_ctzll(bits);
            void *p = atomic_load_explicit(&n->slot[i], memory_order_relaxed);
            if (depth < 2) {
                clear_level(p, depth + 1, keep_nodes);
                if (keep_nodes) continue;
                free(p);
            } else if (p != ZERO_NODE) {
                free_leaf_node(p);
            }
            atomic_store_explicit(&n->slot[i], NULL, memory_order_relaxed);
            own_clear(n, i);
        }
    }
}

void umb_mem_clear(umb_mem *m)
{
    /* Nothing mapped: already empty. The nodes that stay (interior ones, leaf nodes whose pages
     * were all unmapped) are what the next mapping reuses; a workgroup's LDS unmapped at its end
     * made every workgroup free and re-create a 64 KiB leaf node here. */
    if (m->mapped_pages == 0) return;
    clear_level(&m->root, 0, true);
    m->mapped_pages = 0;
    atomic_store(&m->backed_pages, 0);
}

void umb_mem_destroy(umb_mem *m)
{
    if (!m) return;
    clear_level(&m->root, 0, false);
    free(m);
}

/* A private copy of the shared zero leaf node, installed in parent->slot[i] (which held
 * ZERO_NODE). Several host threads may race here (materialise): one copy wins. */
static umb_radix_node *cow_leaf(umb_radix_node *parent, unsigned i)
{
    umb_radix_node *copy = malloc(sizeof *copy);
    if (!copy) return NULL;
    for (unsigned k = 0; k < UMB_RADIX_SIZE; k++) atomic_init(&copy->slot[k], LEAF_ZERO);
    for (unsigned k = 0; k < UMB_RADIX_SIZE / 64; k++) atomic_init(&copy->own[k], 0);
    void *expected = ZERO_NODE;
    if (atomic_compare_exchange_strong_explicit(&parent->slot[i], &expected, copy, memory_order_acq_rel,
                                                memory_order_acquire)) {
        own_set(parent, i);
        return copy;
    }
    free(copy);
    return expected;   /* another thread's copy (or, after an unmap race, whatever is there) */
}

enum { WALK_READ, WALK_WRITE /* copy a shared zero leaf node */, WALK_CREATE /* and create nodes */ };

/* The node at depth 2 whose slot points to the leaf node of page pn (creating interior nodes
 * when asked). NULL if absent / host OOM. */
static umb_radix_node *parent_of_leaf(umb_mem *m, uint64_t pn, int mode)
{
    umb_radix_node *n = &m->root;
    for (int shift = 39; shift > 13; shift -= 13) {
        unsigned idx = (unsigned)((pn >> shift) & UMB_RADIX_MASK);
        umb_radix_node *next = atomic_load_explicit(&n->slot[idx], memory_order_acquire);
        if (!next) {
            if (mode != WALK_CREATE) return NULL;
            next = calloc(1, sizeof(umb_radix_node));
            if (!next) return NULL;
            atomic_store_explicit(&n->slot[idx], next, memory_order_release);
            own_set(n, idx);
        }
        n = next;
    }
    return n;
}

/* The leaf node of page pn: with WALK_READ possibly the shared zero node; with WALK_WRITE a
 * private node (copied from the zero node if needed); WALK_CREATE also creates missing nodes
 * (a new leaf node starts unmapped). */
static umb_radix_node *leaf_node(umb_mem *m, uint64_t pn, int mode)
{
    umb_radix_node *p = parent_of_leaf(m, pn, mode);
    if (!p) return NULL;
    unsigned idx = (unsigned)((pn >> 13) & UMB_RADIX_MASK);
    umb_radix_node *n = atomic_load_explicit(&p->slot[idx], memory_order_acquire);
    if (!n) {
        if (mode != WALK_CREATE) return NULL;
        n = calloc(1, sizeof(umb_radix_node));
        if (!n) return NULL;
        atomic_store_explicit(&p->slot[idx], n, memory_order_release);
        own_set(p, idx);
    } else if (n == ZERO_NODE && mode != WALK_READ) {
        n = cow_leaf(p, idx);
    }
    return n;
}

static inline uint64_t first_page(uint64_t addr) { return addr >> UMB_PAGE_BITS; }
/* One past the last page; size > 0 and the range must not wrap (checked by callers). */
static inline uint64_t end_page(uint64_t addr, uint64_t size) { return ((addr + size - 1) >> UMB_PAGE_BITS) + 1; }

static bool range_ok(uint64_t addr, uint64_t size) { return size > 0 && addr + size - 1 >= addr; }

/* The end of the block (leaf node) holding page pn, capped at e. */
static inline uint64_t block_end(uint64_t pn, uint64_t e)
{
    uint64_t b = (pn | (BLOCK_PAGES - 1)) + 1;   /* pn < 2^52: no overflow */
    return b < e ? b : e;
}

bool umb_mem_map_range(umb_mem *m, uint64_t addr, uint64_t size)
{
    if (size == 0) return true;
    if (!range_ok(addr, size)) return false;
    for (uint64_t pn = first_page(addr), e = end_page(addr, size); pn != e;) {
        uint64_t be = block_end(pn, e);
        if (be - pn == BLOCK_PAGES) {
            /* a whole block: share the zero leaf node when nothing is mapped there yet */
            umb_radix_node *p = parent_of_leaf(m, pn, WALK_CREATE);
            if (!p) return false;
            _Atomic(void *) *s = &p->slot[(pn >> 13) & UMB_RADIX_MASK];
            void *cur = atomic_load_explicit(s, memory_order_relaxed);
            if (cur == NULL) {
                atomic_store_explicit(s, ZERO_NODE, memory_order_release);
                own_set(p, (unsigned)((pn >> 13) & UMB_RADIX_MASK));
                m->mapped_pages += BLOCK_PAGES;
            }
            if (cur == NULL || cur == ZERO_NODE) {
                pn = be;
                continue;
            }
        }
        umb_radix_node *n = leaf_node(m, pn, WALK_CREATE);
        if (!n) return false;
        if (n != ZERO_NODE)
            for (; pn != be; pn++) {
                _Atomic(void *) *s = &n->slot[pn & UMB_RADIX_MASK];
                if (atomic_load_explicit(s, memory_order_relaxed) == LEAF_UNMAPPED) {
                    atomic_store_explicit(s, LEAF_ZERO, memory_order_release);
                    m->mapped_pages++;
                }
            }
        pn = be;
    }
    return true;
}

void umb_mem_unmap_range(umb_mem *m, uint64_t addr, uint64_t size)
{
    if (!range_ok(addr, size)) return;
    for (uint64_t pn = first_page(addr), e = end_page(addr, size); pn != e;) {
        uint64_t be = block_end(pn, e);
        umb_radix_node *p = parent_of_leaf(m, pn, WALK_READ);
        unsigned pidx = (unsigned)((pn >> 13) & UMB_RADIX_MASK);
        void *cur = p ? atomic_load_explicit(&p->slot[pidx], memory_order_relaxed) : NULL;
        if (!cur) {
            pn = be;
            continue;
        }
        if (cur == ZERO_NODE && be - pn == BLOCK_PAGES) {
            atomic_store_explicit(&p->slot[pidx], NULL, memory_order_release);
            own_clear(p, pidx);
            m->mapped_pages -= BLOCK_PAGES;
            pn = be;
            continue;
        }
        umb_radix_node *n = cur == ZERO_NODE ? cow_leaf(p, pidx) : cur;
        if (!n) return;   /* host OOM copying the zero node: the rest stays mapped */
        for (; pn != be; pn++) {
            unsigned i = (unsigned)(pn & UMB_RADIX_MASK);
            void *pg = atomic_load_explicit(&n->slot[i], memory_order_relaxed);
            if (pg == LEAF_UNMAPPED) continue;
            if (own_test(n, i)) {
                free(pg);
                own_clear(n, i);
                atomic_fetch_sub(&m->backed_pages, 1);
            }
            atomic_store_explicit(&n->slot[i], LEAF_UNMAPPED, memory_order_release);
            m->mapped_pages--;
        }
    }
}

/* Host pages as device pages: each leaf slot points into the caller's memory and is not owned
 * (unmapping or clearing never frees it). A page that was mapped before is replaced; if it had
 * storage of its own, that storage is freed first. */
bool umb_mem_map_host_range(umb_mem *m, uint64_t addr, void *host, uint64_t size)
{
    if (size == 0) return true;
    if (!range_ok(addr, size) || (addr & UMB_PAGE_MASK) || ((uintptr_t)host & UMB_PAGE_MASK) ||
        (size & UMB_PAGE_MASK))
        return false;
    uint8_t *h = host;
    for (uint64_t pn = first_page(addr), e = end_page(addr, size); pn != e; pn++, h += UMB_PAGE_SIZE) {
        umb_radix_node *n = leaf_node(m, pn, WALK_CREATE);
        if (!n) return false;
        if (n == ZERO_NODE) n = leaf_node(m, pn, WALK_WRITE);
        if (!n || n == ZERO_NODE) return false;
        unsigned i = (unsigned)(pn & UMB_RADIX_MASK);
        void *old = atomic_load_explicit(&n->slot[i], memory_order_relaxed);
        if (own_test(n, i)) {
            free(old);
            own_clear(n, i);
            atomic_fetch_sub(&m->backed_pages, 1);
        }
        if (old == LEAF_UNMAPPED) m->mapped_pages++;
        atomic_store_explicit(&n->slot[i], h, memory_order_release);
    }
    return true;
}

bool umb_mem_range_mapped(const umb_mem *m, uint64_t addr, uint64_t size)
{
    if (size == 0) return true;
    if (!range_ok(addr, size)) return false;
    for (uint64_t pn = first_page(addr), e = end_page(addr, size); pn != e;) {
        uint64_t be = block_end(pn, e);
        umb_radix_node *n = leaf_node((umb_mem *)m, pn, WALK_READ);
        if (!n) return false;
        if (n != ZERO_NODE)
            for (; pn != be; pn++)
                if (!atomic_load_explicit(&n->slot[pn & UMB_RADIX_MASK], memory_order_acquire)) return false;
        pn = be;
    }
    return true;
}

bool umb_mem_next_mapped(const umb_mem *m, uint64_t addr, uint64_t end, uint64_t *page)
{
    if (end <= addr) return false;
    uint64_t pn = addr >> UMB_PAGE_BITS, last = (end - 1) >> UMB_PAGE_BITS;
    while (pn <= last) {
        const umb_radix_node *n = &m->root;
        unsigned shift = 39;   /* page-number bits below the current level's index */
        for (;;) {
            void *child = atomic_load_explicit(&((umb_radix_node *)n)->slot[(pn >> shift) & UMB_RADIX_MASK],
                                               memory_order_acquire);
            if (!child) break;                 /* nothing mapped in this slot's 2^shift pages */
            if (shift == 0) {                  /* a leaf: the zero page or a page of its own */
                *page = pn << UMB_PAGE_BITS;
                return true;
            }
            n = child;
            shift -= UMB_RADIX_BITS;
        }
        pn = ((pn >> shift) + 1) << shift;     /* the next slot at that level (past 2^52: done) */
    }
    return false;
}

uint8_t *umb_mem_materialise(umb_mem *m, uint64_t addr)
{
    uint64_t pn = addr >> UMB_PAGE_BITS;
    umb_radix_node *n = leaf_node(m, pn, WALK_WRITE);
    if (!n) return NULL;
    unsigned i = (unsigned)(pn & UMB_RADIX_MASK);
    _Atomic(void *) *s = &n->slot[i];
    void *cur = atomic_load_explicit(s, memory_order_acquire);
    if (cur != LEAF_ZERO) return cur; /* unmapped (NULL), or another thread won the race */
    uint8_t *page = calloc(1, UMB_PAGE_SIZE);
    if (!page) return NULL;
    if (atomic_compare_exchange_strong_explicit(s, &cur, page, memory_order_acq_rel, memory_order_acquire)) {
        own_set(n, i);
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

void umb_mem_zero_written(umb_mem *m, uint64_t addr, uint64_t size)
{
    while (size) {
        uint64_t off = addr & UMB_PAGE_MASK;
        uint64_t n = UMB_PAGE_SIZE - off < size ? UMB_PAGE_SIZE - off : size;
        uint8_t *p = umb_mem_leaf(m, addr);
        if (p && p != umb_zero_page) memset(p + off, 0, n);
        if (addr + n < addr) break;   /* the last page of the address space */
        addr += n, size -= n;
    }
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
