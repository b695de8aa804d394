/* Host memory on cache lines of its own.
 *
 * What host threads write at every simulated instruction (a partition's counters, a cache's port,
 * a warp's PC) must not share a 64-byte line with what another thread writes or reads: a line
 * written by two cores moves between them at each write, and the parallel timing mode lost a
 * third of its speed to that (docs/PERFORMANCE.md). Types that are written so carry
 * alignas(UMB_LINE) on their first member; arrays of them come from umb_calloc_lines. */
#ifndef UMBRA_CORE_LINES_H
#define UMBRA_CORE_LINES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define UMB_LINE 64

/* n zeroed objects of `size` bytes, starting on a line boundary and padded to whole lines;
 * free() releases them. NULL on host OOM or overflow. */
static inline void *umb_calloc_lines(size_t n, size_t size)
{
    if (size && n > (SIZE_MAX - UMB_LINE) / size) return NULL;
    size_t bytes = (n * size + UMB_LINE - 1) / UMB_LINE * UMB_LINE;
    if (!bytes) bytes = UMB_LINE;
    void *p = aligned_alloc(UMB_LINE, bytes);
    if (p) memset(p, 0, bytes);
    return p;
}

#endif
