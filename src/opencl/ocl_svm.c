/* Shared virtual memory: coarse-grained SVM buffers (OpenCL 2.0 §5.6).
 *
 * An SVM buffer is host memory that the device maps at its own address (plat_host_alloc, as the
 * HIP runtime maps pinned host memory): the pointer the host gets is the address kernels use, and
 * both read and write the same bytes. The device heap lies in a reserved range of the host's
 * address space (ocl_objects.c), so an SVM buffer never collides with a cl_mem buffer. Map and
 * unmap therefore move no bytes; they are still commands, ordered like any other, so that events
 * and the queue's order behave as the specification describes. Fine-grained buffers, fine-grained
 * system SVM and SVM atomics are not reported (docs/OPENCL.md "OpenCL 3.0"). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ocl.h"

typedef struct svm_alloc {
    uint8_t *base;
    size_t size;
    cl_context ctx;
} svm_alloc;

/* The live SVM buffers, sorted by base; guarded by ocl_lock. */
static struct {
    svm_alloc *v;
    size_t n, cap;
} svm;

/* Caller holds ocl_lock. Index of the first allocation with base > p. */
static size_t svm_upper(const void *p)
{
    size_t lo = 0, hi = svm.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if ((const uint8_t *)p >= svm.v[mid].base) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

bool ocl_svm_lookup(const void *p, void **base, size_t *size)
{
    bool found = false;
    pthread_mutex_lock(&ocl_lock);
    size_t i = svm_upper(p);
    if (i > 0 && (const uint8_t *)p - svm.v[i - 1].base < (ptrdiff_t)svm.v[i - 1].size) {
        if (base) *base = svm.v[i - 1].base;
        if (size) *size = svm.v[i - 1].size;
        found = true;
    }
    pthread_mutex_unlock(&ocl_lock);
    return found;
}

static bool svm_add(svm_alloc a)
{
    pthread_mutex_lock(&ocl_lock);
    bool ok = true;
    if (svm.n == svm.cap) {
        size_t cap = svm.cap ? svm.cap * 2 : 32;
        svm_alloc *v = realloc(svm.v, cap * sizeof *v);
        if (v) svm.v = v, svm.cap = cap;
        else ok = false;
    }
    if (ok) {
        size_t i = svm_upper(a.base);
        memmove(&svm.v[i + 1], &svm.v[i], (svm.n - i) * sizeof *svm.v);
        svm.v[i] = a;
        svm.n++;
    }
    pthread_mutex_unlock(&ocl_lock);
    return ok;
}

/* Remove the allocation that starts at p; false if there is none. */
static bool svm_take(const void *p, svm_alloc *out)
{
    pthread_mutex_lock(&ocl_lock);
    size_t i = svm_upper(p);
    bool found = i > 0 && svm.v[i - 1].base == p;
    if (found) {
        *out = svm.v[i - 1];
        memmove(&svm.v[i - 1], &svm.v[i], (svm.n - i) * sizeof *svm.v);
        svm.n--;
    }
    pthread_mutex_unlock(&ocl_lock);
    return found;
}

/* ---------------- allocation ---------------- */

#define LARGEST_TYPE_BYTES 128   /* long16 / double16: the largest alignment clSVMAlloc takes */

CL_API_ENTRY void *CL_API_CALL clSVMAlloc(cl_context ctx, cl_svm_mem_flags flags, size_t size, cl_uint align)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) return NULL;
    const cl_svm_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
    if (flags & ~access) return NULL;   /* fine-grained buffers and SVM atomics are not supported */
    if ((flags & access) & ((flags & access) - 1)) return NULL;
    if (size == 0 || size > ocl_device_max_alloc()) return NULL;
    if ((align & (align - 1)) || align > LARGEST_TYPE_BYTES) return NULL;   /* pages are aligned to more */
    cl_device_id d = ocl_device();
    void *p = plat_host_alloc(&d->p, size);
    if (!p) return NULL;
    if (!svm_add((svm_alloc){ p, size, ctx })) {
        plat_host_free(&d->p, p, size);
        return NULL;
    }
    return p;
}

static void svm_free(void *p)
{
    svm_alloc a;
    if (!p || !svm_take(p, &a)) return;
    cl_device_id d = ocl_device();
    plat_host_free(&d->p, a.base, a.size);
}

/* A pointer clSVMAlloc did not return is ignored (the call has no way to report it). */
CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context ctx, void *ptr)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) return;
    svm_free(ptr);
}

/* ---------------- commands ---------------- */

static cl_int run_nothing(ocl_cmd *c)
{
    (void)c;
    return CL_COMPLETE;
}

static cl_int run_memcpy(ocl_cmd *c)
{
    memmove(c->ptr, c->src, c->size);
    return CL_COMPLETE;
}

static cl_int run_memfill(ocl_cmd *c)
{
    size_t psize = c->off[0];
    for (size_t o = 0; o < c->size; o += psize) memcpy((uint8_t *)c->ptr + o, c->pattern, psize);
    return CL_COMPLETE;
}

typedef struct svm_free_payload {
    cl_command_queue q;
    cl_uint n;
    void **ptrs;                  /* a copy: the caller's array may be gone by then */
    void (CL_CALLBACK *fn)(cl_command_queue, cl_uint, void *[], void *);
    void *data;
} svm_free_payload;

static cl_int run_svm_free(ocl_cmd *c)
{
    svm_free_payload *f = c->launch;
    if (f->fn) f->fn(f->q, f->n, f->ptrs, f->data);
    else
        for (cl_uint i = 0; i < f->n; i++) svm_free(f->ptrs[i]);
    return CL_COMPLETE;
}

static void free_svm_free(ocl_cmd *c)
{
    svm_free_payload *f = c->launch;
    if (f) free(f->ptrs), free(f);
}

/* The checks every SVM command shares; a new command on success. */
static cl_int svm_begin(cl_command_queue q, cl_uint n, const cl_event *l, ocl_cmd **out)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    cl_int st = ocl_check_wait_list(q, n, l);
    if (st) return st;
    *out = ocl_cmd_new();
    return *out ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue q, cl_uint np, void *ptrs[],
                                                 void (CL_CALLBACK *fn)(cl_command_queue, cl_uint, void *[], void *),
                                                 void *data, cl_uint n, const cl_event *l, cl_event *e)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    if ((np == 0) != (ptrs == NULL)) return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < np; i++)
        if (!ptrs[i]) return CL_INVALID_VALUE;
    ocl_cmd *c;
    cl_int st = svm_begin(q, n, l, &c);
    if (st) return st;
    svm_free_payload *f = calloc(1, sizeof *f);
    void **copy = malloc((np ? np : 1) * sizeof *copy);
    if (!f || !copy) return free(f), free(copy), free(c), CL_OUT_OF_HOST_MEMORY;
    if (np) memcpy(copy, ptrs, np * sizeof *copy);
    *f = (svm_free_payload){ q, np, copy, fn, data };
    c->launch = f, c->run = run_svm_free, c->done = free_svm_free;
    return ocl_enqueue(q, c, CL_COMMAND_SVM_FREE, n, l, e, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue q, cl_bool blocking, void *dst, const void *src,
                                                   size_t size, cl_uint n, const cl_event *l, cl_event *e)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    if (!dst || !src) return CL_INVALID_VALUE;
    const uint8_t *d = dst, *s = src;
    if (size && d < s + size && s < d + size) return CL_MEM_COPY_OVERLAP;
    ocl_cmd *c;
    cl_int st = svm_begin(q, n, l, &c);
    if (st) return st;
    c->ptr = dst, c->src = src, c->size = size, c->run = run_memcpy;
    return ocl_enqueue(q, c, CL_COMMAND_SVM_MEMCPY, n, l, e, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue q, void *p, const void *pattern, size_t psize,
                                                    size_t size, cl_uint n, const cl_event *l, cl_event *e)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    if (!p || !pattern || psize == 0 || psize > 128 || (psize & (psize - 1))) return CL_INVALID_VALUE;
    if ((uintptr_t)p % psize || size % psize) return CL_INVALID_VALUE;
    ocl_cmd *c;
    cl_int st = svm_begin(q, n, l, &c);
    if (st) return st;
    memcpy(c->pattern, pattern, psize);
    c->ptr = p, c->off[0] = psize, c->size = size, c->run = run_memfill;
    return ocl_enqueue(q, c, CL_COMMAND_SVM_MEMFILL, n, l, e, false);
}

/* The device works on the host's own bytes: a map or unmap is ordering only. */
static cl_int svm_ordering(cl_command_queue q, cl_command_type type, bool blocking, cl_uint n, const cl_event *l,
                           cl_event *e)
{
    ocl_cmd *c;
    cl_int st = svm_begin(q, n, l, &c);
    if (st) return st;
    c->run = run_nothing;
    return ocl_enqueue(q, c, type, n, l, e, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue q, cl_bool blocking, cl_map_flags f, void *p,
                                                size_t size, cl_uint n, const cl_event *l, cl_event *e)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if (!p || size == 0 || (f & ~known)) return CL_INVALID_VALUE;
    if ((f & CL_MAP_WRITE_INVALIDATE_REGION) && (f & (CL_MAP_READ | CL_MAP_WRITE))) return CL_INVALID_VALUE;
    return svm_ordering(q, CL_COMMAND_SVM_MAP, blocking, n, l, e);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue q, void *p, cl_uint n, const cl_event *l,
                                                  cl_event *e)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    if (!p) return CL_INVALID_VALUE;
    return svm_ordering(q, CL_COMMAND_SVM_UNMAP, false, n, l, e);
}

/* One device, whose memory is the host's: nothing to migrate. */
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue q, cl_uint np, const void **p,
                                                       const size_t *sizes, cl_mem_migration_flags f, cl_uint n,
                                                       const cl_event *l, cl_event *e)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    if (np == 0 || !p) return CL_INVALID_VALUE;
    if (f & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < np; i++)
        if (!p[i]) return CL_INVALID_VALUE;
    (void)sizes;
    return svm_ordering(q, CL_COMMAND_SVM_MIGRATE_MEM, false, n, l, e);
}
