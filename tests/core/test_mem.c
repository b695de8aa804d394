/* Sparse device memory: mapping, lazy pages, faults, the heap. */
#include <stdlib.h>

#include "check.h"
#include "core/core.h"
#include "umbra/umbra.h"

static void test_sparse_map(void)
{
    umb_mem *m = umb_mem_create();
    /* A 256 MiB window costs no page storage until written. */
    CHECK(umb_mem_map_range(m, 0x80000000ull, 0x10000000ull));
    CHECK_EQ_U64(m->mapped_pages, 0x10000);
    CHECK_EQ_U64(atomic_load(&m->backed_pages), 0);
    uint32_t v = 0xdeadbeef;
    CHECK(umb_mem_load(m, 0x8ffffffcull, &v, 4));
    CHECK_EQ_U64(v, 0);                       /* mapped, never written: zero */
    CHECK_EQ_U64(atomic_load(&m->backed_pages), 0);
    v = 0x12345678;
    CHECK(umb_mem_store(m, 0x80000ffeull, &v, 4)); /* crosses a page boundary */
    CHECK_EQ_U64(atomic_load(&m->backed_pages), 2);
    uint8_t b[4];
    CHECK(umb_mem_load(m, 0x80000ffeull, b, 4));
    CHECK_EQ_U64(b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24, 0x12345678);
    /* Outside the mapping: faults, and a faulting store has no partial effect. */
    CHECK(!umb_mem_load(m, 0x90000000ull, &v, 4));
    CHECK(!umb_mem_store(m, 0x7ffffffeull, &v, 4));
    CHECK(umb_mem_load(m, 0x80000000ull, &v, 4));
    CHECK_EQ_U64(v, 0);
    /* 64-bit addresses far apart. */
    CHECK(umb_mem_map_range(m, 0xfffffffffffff000ull, 0x1000));
    uint64_t q = 0x0123456789abcdefull;
    CHECK(umb_mem_store(m, 0xfffffffffffffff8ull, &q, 8));
    q = 0;
    CHECK(umb_mem_load(m, 0xfffffffffffffff8ull, &q, 8));
    CHECK_EQ_U64(q, 0x0123456789abcdefull);
    CHECK(!umb_mem_map_range(m, 0xfffffffffffff000ull, 0x2000)); /* wraps */
    umb_mem_unmap_range(m, 0x80000000ull, 0x1000);
    CHECK(!umb_mem_load(m, 0x80000000ull, &v, 4));
    CHECK(umb_mem_load(m, 0x80001000ull, &v, 4));
    umb_mem_destroy(m);
}

/* umb_mem_zero_written (an ELF's .bss over an earlier image): written bytes in the range become
 * zero, bytes outside it stay, and pages without storage get none (a 4 GiB .bss costs nothing). */
static void test_zero_written(void)
{
    umb_mem *m = umb_mem_create();
    CHECK(umb_mem_map_range(m, 0x10000ull, 0x4000));
    uint64_t q = 0x1111111111111111ull;
    CHECK(umb_mem_store(m, 0x10ff0ull, &q, 8));
    CHECK(umb_mem_store(m, 0x10ff8ull, &q, 8));
    CHECK(umb_mem_store(m, 0x12ffcull, &q, 8));   /* pages 0x12000 and 0x13000 */
    CHECK_EQ_U64(atomic_load(&m->backed_pages), 3);
    umb_mem_zero_written(m, 0x10ff8ull, 0x2008);   /* to 0x13000: the store's last 4 bytes stay */
    CHECK(umb_mem_load(m, 0x10ff0ull, &q, 8));
    CHECK_EQ_U64(q, 0x1111111111111111ull);
    CHECK(umb_mem_load(m, 0x10ff8ull, &q, 8));
    CHECK_EQ_U64(q, 0);
    CHECK(umb_mem_load(m, 0x12ffcull, &q, 8));
    CHECK_EQ_U64(q, 0x1111111100000000ull);
    CHECK_EQ_U64(atomic_load(&m->backed_pages), 3);
    /* unmapped and mapped-but-untouched pages: nothing to do, nothing allocated */
    CHECK(umb_mem_map_range(m, 0x100000000ull, 0x100000000ull));
    umb_mem_zero_written(m, 0xfff00000ull, 0x100100000ull);
    CHECK_EQ_U64(atomic_load(&m->backed_pages), 3);
    umb_mem_zero_written(m, 0xfffffffffffff000ull, 0x1000);   /* the last page of the space */
    umb_mem_destroy(m);
}

/* umb_mem_next_mapped: the first mapped page at or after an address, below an end; what a dump
 * of a huge range visits (umbra ventus run-elf --dump-range). */
static void test_next_mapped(void)
{
    umb_mem *m = umb_mem_create();
    uint64_t p = 0;
    CHECK(!umb_mem_next_mapped(m, 0, UINT64_MAX, &p));               /* nothing mapped */
    CHECK(umb_mem_map_range(m, 0x80000000ull, 0x3000));
    CHECK(umb_mem_map_range(m, 0x123456789000ull, 0x1000));
    CHECK(umb_mem_map_range(m, 0xfffffffffffff000ull, 0x1000));      /* the last page */
    umb_mem_unmap_range(m, 0x80001000ull, 0x1000);                   /* a hole in the first range */
    CHECK(umb_mem_next_mapped(m, 0, UINT64_MAX, &p));
    CHECK_EQ_U64(p, 0x80000000ull);
    CHECK(umb_mem_next_mapped(m, 0x80000abcull, UINT64_MAX, &p));    /* the page of the address */
    CHECK_EQ_U64(p, 0x80000000ull);
    CHECK(umb_mem_next_mapped(m, 0x80001000ull, UINT64_MAX, &p));    /* skips the hole */
    CHECK_EQ_U64(p, 0x80002000ull);
    CHECK(umb_mem_next_mapped(m, 0x80003000ull, UINT64_MAX, &p));    /* skips 2^44 bytes */
    CHECK_EQ_U64(p, 0x123456789000ull);
    CHECK(!umb_mem_next_mapped(m, 0x80003000ull, 0x123456789000ull, &p));   /* end is exclusive */
    CHECK(umb_mem_next_mapped(m, 0x12345678a000ull, UINT64_MAX, &p));
    CHECK_EQ_U64(p, 0xfffffffffffff000ull);
    CHECK(!umb_mem_next_mapped(m, 5, 5, &p));                        /* empty range */
    umb_mem_destroy(m);
}

static void test_device_heap(void)
{
    umb_device *dev;
    CHECK(umb_device_create(NULL, &dev) == UMB_OK);
    uint64_t a, b, c;
    CHECK(umb_mem_alloc(dev, 100, 0, &a) == UMB_OK);
    CHECK(umb_mem_alloc(dev, 0x3000, 0x10000, &b) == UMB_OK);
    CHECK_EQ_U64(a & 0xfff, 0);
    CHECK_EQ_U64(b & 0xffff, 0);
    CHECK(b >= a + 0x1000);
    uint32_t in[4] = {1, 2, 3, 4}, out[4] = {0};
    CHECK(umb_mem_copy_to_device(dev, b + 0x2ff0, in, sizeof in) == UMB_OK);
    CHECK(umb_mem_copy_from_device(dev, b + 0x2ff0, out, sizeof out) == UMB_OK);
    CHECK_EQ_U64(out[3], 4);
    CHECK(umb_mem_copy_to_device(dev, b + 0x2ffc, in, sizeof in) != UMB_OK); /* runs off the end */
    CHECK_CONTAINS(umb_device_last_error(dev), "not mapped");
    CHECK(umb_mem_free(dev, a) == UMB_OK);
    CHECK(!umb_mem_is_mapped(dev, a, 4));
    CHECK(umb_mem_alloc(dev, 0x1000, 0, &c) == UMB_OK);
    CHECK_EQ_U64(c, a); /* first fit reuses the hole */
    CHECK(umb_mem_free(dev, 0x1234) != UMB_OK);
    CHECK(umb_mem_alloc(dev, 0, 0, &c) != UMB_OK);
    umb_device_destroy(dev);
}

/* umb_mem_clear: every page gone (written, zero and host pages), and the memory usable again; a
 * workgroup's LDS cycle (host pages mapped, unmapped, then a clear) leaves nothing mapped either. */
static void test_clear(void)
{
    umb_mem *m = umb_mem_create();
    static _Alignas(4096) uint8_t host[2 * 4096];
    uint32_t v = 7;
    CHECK(umb_mem_map_range(m, 0x200000ull, 0x3000));
    CHECK(umb_mem_store(m, 0x201000ull, &v, 4));
    CHECK(umb_mem_map_host_range(m, 0, host, sizeof host));
    umb_mem_clear(m);
    CHECK_EQ_U64(m->mapped_pages, 0);
    CHECK_EQ_U64(atomic_load(&m->backed_pages), 0);
    CHECK(!umb_mem_load(m, 0x201000ull, &v, 4));
    CHECK(!umb_mem_load(m, 0, &v, 4));
    for (int round = 0; round < 3; round++) {   /* the LDS of three workgroups in turn */
        host[4] = (uint8_t)(round + 1);
        CHECK(umb_mem_map_host_range(m, 0, host, sizeof host));
        uint8_t b = 0;
        CHECK(umb_mem_load(m, 4, &b, 1));
        CHECK_EQ_U64(b, (uint64_t)round + 1);
        umb_mem_unmap_range(m, 0, sizeof host);
        umb_mem_clear(m);   /* nothing mapped: nothing to do, the leaf node stays for the next */
        CHECK(!umb_mem_load(m, 4, &b, 1));
        CHECK_EQ_U64(m->mapped_pages, 0);
    }
    CHECK(umb_mem_map_range(m, 0x201000ull, 0x1000));
    v = 1;
    CHECK(umb_mem_load(m, 0x201000ull, &v, 4));
    CHECK_EQ_U64(v, 0);   /* mapped again after a clear: zero, not the old bytes */
    umb_mem_destroy(m);
}

int main(void)
{
    test_sparse_map();
    test_zero_written();
    test_next_mapped();
    test_device_heap();
    test_clear();
    return check_report("test_mem");
}
