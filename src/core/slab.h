/* Slabs: fixed-size host objects in memory mapped from the kernel.
 *
 * A simulator keeps many large per-wave states (an RDNA3 wave is 66 KiB, most of it VGPR rows a
 * kernel never touches). Taken from the C heap, each must be zeroed by writing every byte; taken
 * from fresh anonymous mappings, it is zero already and only the pages a wave touches are ever
 * materialised. A slab hands out objects of one size from such mappings and keeps freed ones for
 * reuse (a reused object holds its old contents: the caller clears what it needs).
 *
 * umb_slab_destroy releases every object, given back or not.
 *
 * Not thread-safe: the owner serialises calls. */
#ifndef UMBRA_CORE_SLAB_H
#define UMBRA_CORE_SLAB_H

#include <stdbool.h>
#include <stddef.h>

typedef struct umb_slab umb_slab;

/* A slab of objects of `size` bytes, each aligned to 64 bytes. NULL on host OOM. */
umb_slab *umb_slab_create(size_t size);

/* An object: *fresh tells whether it was never handed out before (then it is all zero). NULL on
 * host OOM. */
void *umb_slab_alloc(umb_slab *s, bool *fresh);

/* Give p (from this slab) back for reuse. */
void umb_slab_free(umb_slab *s, void *p);

/* Release every object of the slab (given back or not) and the slab. */
void umb_slab_destroy(umb_slab *s);

#endif
