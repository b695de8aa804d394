/* umb_slab: fixed-size objects that are zero when new, 64-byte aligned, distinct while live, and
 * reused after umb_slab_free (src/core/slab.h). Under AddressSanitizer the slab takes each object
 * from the heap; the mapped path runs in the release and ThreadSanitizer builds. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "core/slab.h"

static bool all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) return false;
    return true;
}

/* Enough objects of `size` bytes to span several 4 MB mappings: each new one zero, aligned and
 * apart from every other; then freed and taken again. */
static void many(size_t size, size_t count)
{
    umb_slab *s = umb_slab_create(size);
    CHECK(s != NULL);
    if (!s) return;
    unsigned char **obj = calloc(count, sizeof *obj);
    size_t fresh_zero = 0, aligned = 0;
    for (size_t i = 0; i < count; i++) {
        bool fresh = false;
        obj[i] = umb_slab_alloc(s, &fresh);
        if (!obj[i] || !fresh) break;
        fresh_zero += all_zero(obj[i], size);
        aligned += ((uintptr_t)obj[i] % 64) == 0;
        memset(obj[i], (int)(i % 251) + 1, size);   /* every byte written: overlaps would show */
    }
    CHECK_EQ_U64(fresh_zero, count);
    CHECK_EQ_U64(aligned, count);
    size_t intact = 0;
    for (size_t i = 0; i < count; i++) {
        unsigned char want = (unsigned char)(i % 251 + 1);
        bool ok = obj[i] != NULL;
        for (size_t b = 0; ok && b < size; b += 61) ok = obj[i][b] == want;
        intact += ok && obj[i][size - 1] == want;
    }
    CHECK_EQ_U64(intact, count);
    /* give half back, take as many again: the slab reuses them or hands out new zero objects */
    for (size_t i = 0; i < count; i += 2) umb_slab_free(s, obj[i]);
    size_t reused_or_zero = 0;
    for (size_t i = 0; i < count; i += 2) {
        bool fresh = false;
        obj[i] = umb_slab_alloc(s, &fresh);
        reused_or_zero += obj[i] && (!fresh || all_zero(obj[i], size));
        if (obj[i]) memset(obj[i], (int)(i % 251) + 1, size);
    }
    CHECK_EQ_U64(reused_or_zero, (count + 1) / 2);
    umb_slab_free(s, NULL);   /* a no-op */
    free(obj);
    umb_slab_destroy(s);
}

int main(void)
{
    many(1, 10000);                /* rounded up to 64 bytes */
    many(66 * 1024 + 64, 200);     /* an RDNA3 wave's size: 13 MB, four mappings */
    many(5 * 1024 * 1024, 3);      /* larger than a mapping: one object each */
    umb_slab_destroy(NULL);        /* a no-op */
    return check_report("test_slab");
}
