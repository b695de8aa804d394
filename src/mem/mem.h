/* Sparse 64-bit memory: the one memory system both front ends share.
 *
 * A 4-level radix table over the 52-bit page number (4 KiB pages). A leaf is either NULL
 * (unmapped: guest accesses fault), the shared zero page (mapped but never written: reads
 * return zeros without allocating — a 256 MiB code window costs nothing until touched), or
 * the page's own storage. Pages are materialised on first write with a compare-and-swap, so
 * several host threads may run guest code on one memory without locks on the access path.
 * Mapping and unmapping are host operations and must not race with guest execution.
 * A whole leaf node's worth of mapped, never written pages (8192 pages, 32 MiB) is one shared
 * read-only node of zero-page leaves, copied on the first write under it: mapping a 256 MiB
 * window costs eight pointer stores.
 */
#ifndef UMBRA_MEM_H
#define UMBRA_MEM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define UMB_PAGE_BITS 12u
#define UMB_PAGE_SIZE (1u << UMB_PAGE_BITS)
#define UMB_PAGE_MASK ((uint64_t)UMB_PAGE_SIZE - 1u)

#define UMB_RADIX_BITS 13u
#define UMB_RADIX_SIZE (1u << UMB_RADIX_BITS)
#define UMB_RADIX_MASK (UMB_RADIX_SIZE - 1u)

typedef struct umb_mem umb_mem;

typedef struct umb_radix_node {
    _Atomic(void *) slot[UMB_RADIX_SIZE];
    /* Bit i set: slot[i] holds storage of this memory's own (a child node or a page) that
     * clearing frees; lets umb_mem_clear visit only those instead of every slot. */
    _Atomic uint64_t own[UMB_RADIX_SIZE / 64];
} umb_radix_node;

struct umb_mem {
    umb_radix_node root;
    uint64_t mapped_pages;      /* pages currently mapped */
    _Atomic uint64_t backed_pages; /* pages with their own storage */
};

/* The shared all-zero page that mapped-but-untouched leaves point to. */
extern const uint8_t umb_zero_page[UMB_PAGE_SIZE];

umb_mem *umb_mem_create(void);
void umb_mem_destroy(umb_mem *m);
/* Map / unmap [addr, addr+size), page granular. Return false on host OOM. */
bool umb_mem_map_range(umb_mem *m, uint64_t addr, uint64_t size);
void umb_mem_unmap_range(umb_mem *m, uint64_t addr, uint64_t size);
/* Map host memory as the device pages [addr, addr+size): device accesses read and write the
 * host bytes directly (addr, host and size page aligned). Unmapping never frees host memory.
 * False on host OOM or a misaligned range. */
bool umb_mem_map_host_range(umb_mem *m, uint64_t addr, void *host, uint64_t size);
/* Drop every page (zero the memory, keep nothing mapped). */
void umb_mem_clear(umb_mem *m);
bool umb_mem_range_mapped(const umb_mem *m, uint64_t addr, uint64_t size);
/* The first mapped page at or after addr's page and below end: its address in *page, or false.
 * Skips unmapped stretches a radix level at a time (a dump of a huge range costs what is mapped). */
bool umb_mem_next_mapped(const umb_mem *m, uint64_t addr, uint64_t end, uint64_t *page);

/* Host copies: false if any byte is unmapped (nothing is copied then). */
bool umb_mem_write_bytes(umb_mem *m, uint64_t addr, const void *src, uint64_t size);
bool umb_mem_read_bytes(const umb_mem *m, uint64_t addr, void *dst, uint64_t size);
/* Zero the bytes of [addr, addr+size) that have storage of their own; mapped but never written
 * pages read as zero already and stay without storage (zeroing a 4 GiB .bss costs no memory). */
void umb_mem_zero_written(umb_mem *m, uint64_t addr, uint64_t size);

/* Slow path of umb_mem_page_for_write: materialise a zero page. NULL if unmapped / OOM. */
uint8_t *umb_mem_materialise(umb_mem *m, uint64_t addr);

/* Leaf slot lookup (NULL pointer if the radix path does not exist). */
static inline void *umb_mem_leaf(const umb_mem *m, uint64_t addr)
{
    uint64_t pn = addr >> UMB_PAGE_BITS; /* 52 bits: 13+13+13+13 */
    umb_radix_node *n1 = atomic_load_explicit(
        &((umb_radix_node *)&m->root)->slot[(pn >> 39) & UMB_RADIX_MASK], memory_order_acquire);
    if (!n1) return NULL;
    umb_radix_node *n2 = atomic_load_explicit(&n1->slot[(pn >> 26) & UMB_RADIX_MASK], memory_order_acquire);
    if (!n2) return NULL;
    umb_radix_node *n3 = atomic_load_explicit(&n2->slot[(pn >> 13) & UMB_RADIX_MASK], memory_order_acquire);
    if (!n3) return NULL;
    return atomic_load_explicit(&n3->slot[pn & UMB_RADIX_MASK], memory_order_acquire);
}

/* Page containing addr for reading, or NULL if unmapped. */
static inline const uint8_t *umb_mem_page_for_read(const umb_mem *m, uint64_t addr)
{
    return (const uint8_t *)umb_mem_leaf(m, addr);
}

/* Page containing addr for writing (materialised), or NULL if unmapped. */
static inline uint8_t *umb_mem_page_for_write(umb_mem *m, uint64_t addr)
{
    uint8_t *p = (uint8_t *)umb_mem_leaf(m, addr);
    if (p == umb_zero_page) return umb_mem_materialise(m, addr);
    return p;
}

/* Guest accesses of 1..16 bytes. Return false when a byte is unmapped (the caller reports
 * the fault with its PC, lane and address). Accesses crossing a page go byte by byte. */
bool umb_mem_load_slow(const umb_mem *m, uint64_t addr, void *dst, unsigned size);
bool umb_mem_store_slow(umb_mem *m, uint64_t addr, const void *src, unsigned size);

static inline bool umb_mem_load(const umb_mem *m, uint64_t addr, void *dst, unsigned size)
{
    uint64_t off = addr & UMB_PAGE_MASK;
    if (off + size <= UMB_PAGE_SIZE) {
        const uint8_t *p = umb_mem_page_for_read(m, addr);
        if (!p) return false;
        memcpy(dst, p + off, size);
        return true;
    }
    return umb_mem_load_slow(m, addr, dst, size);
}

static inline bool umb_mem_store(umb_mem *m, uint64_t addr, const void *src, unsigned size)
{
    uint64_t off = addr & UMB_PAGE_MASK;
    if (off + size <= UMB_PAGE_SIZE) {
        uint8_t *p = umb_mem_page_for_write(m, addr);
        if (!p) return false;
        memcpy(p + off, src, size);
        return true;
    }
    return umb_mem_store_slow(m, addr, src, size);
}

/* Host pointer for an atomic read-modify-write of size bytes (naturally aligned, so it never
 * crosses a page). NULL if unmapped. */
static inline void *umb_mem_atomic_ptr(umb_mem *m, uint64_t addr)
{
    uint8_t *p = umb_mem_page_for_write(m, addr);
    return p ? p + (addr & UMB_PAGE_MASK) : NULL;
}

#endif
