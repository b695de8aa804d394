/* Slabs of fixed-size objects in anonymous mappings (see slab.h). */
#include "core/slab.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Under AddressSanitizer every object is a heap allocation of its own, so that ASan sees its
 * bounds, its use after free and its leaks; the slab keeps a list of them for umb_slab_destroy. */
#if defined(__SANITIZE_ADDRESS__)
#define SLAB_USE_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLAB_USE_HEAP 1
#endif
#endif

#define SLAB_CHUNK_BYTES (4u << 20)   /* a mapping holds at least this much (or one object) */
#define SLAB_ALIGN 64u

typedef struct slab_chunk {
    struct slab_chunk *next;
    void *base;
    size_t bytes;
} slab_chunk;

typedef struct free_obj {
    struct free_obj *next;
} free_obj;

/* The heap mode's header, SLAB_ALIGN bytes before each object. */
typedef struct heap_obj {
    struct heap_obj *prev, *next;
} heap_obj;

struct umb_slab {
    size_t size;               /* object size, a multiple of SLAB_ALIGN */
    slab_chunk *chunks;
    char *cursor, *limit;      /* the never-used rest of the newest chunk */
    free_obj *free;            /* objects given back */
    heap_obj *live;            /* heap mode: every object not given back */
};

umb_slab *umb_slab_create(size_t size)
{
    umb_slab *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->size = size ? (size + SLAB_ALIGN - 1) / SLAB_ALIGN * SLAB_ALIGN : SLAB_ALIGN;
    return s;
}

#ifdef SLAB_USE_HEAP

void *umb_slab_alloc(umb_slab *s, bool *fresh)
{
    heap_obj *h = aligned_alloc(SLAB_ALIGN, SLAB_ALIGN + s->size);
    if (!h) return NULL;
    memset(h, 0, SLAB_ALIGN + s->size);
    h->next = s->live;
    if (s->live) s->live->prev = h;
    s->live = h;
    *fresh = true;
    return (char *)h + SLAB_ALIGN;
}

void umb_slab_free(umb_slab *s, void *p)
{
    if (!p) return;
    heap_obj *h = (heap_obj *)(void *)((char *)p - SLAB_ALIGN);
    if (h->prev) h->prev->next = h->next;
    else s->live = h->next;
    if (h->next) h->next->prev = h->prev;
    free(h);
}

void umb_slab_destroy(umb_slab *s)
{
    if (!s) return;
    for (heap_obj *h = s->live, *n; h; h = n) {
        n = h->next;
        free(h);
    }
    free(s);
}

#else

/* Map a new chunk and make it the source of fresh objects. */
static bool slab_grow(umb_slab *s)
{
    size_t bytes = s->size > SLAB_CHUNK_BYTES ? s->size : SLAB_CHUNK_BYTES / s->size * s->size;
    slab_chunk *c = malloc(sizeof *c);
    if (!c) return false;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        free(c);
        return false;
    }
    *c = (slab_chunk){ s->chunks, p, bytes };
    s->chunks = c;
    s->cursor = p;
    s->limit = (char *)p + bytes;
    return true;
}

void *umb_slab_alloc(umb_slab *s, bool *fresh)
{
    if (s->free) {
        free_obj *o = s->free;
        s->free = o->next;
        *fresh = false;
        return o;
    }
    if ((size_t)(s->limit - s->cursor) < s->size && !slab_grow(s)) return NULL;
    void *p = s->cursor;
    s->cursor += s->size;
    *fresh = true;
    return p;
}

void umb_slab_free(umb_slab *s, void *p)
{
    if (!p) return;
    free_obj *o = p;
    o->next = s->free;
    s->free = o;
}

void umb_slab_destroy(umb_slab *s)
{
    if (!s) return;
    for (slab_chunk *c = s->chunks, *n; c; c = n) {
        n = c->next;
        munmap(c->base, c->bytes);
        free(c);
    }
    free(s);
}

#endif
