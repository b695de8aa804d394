/* Buffers and sub-buffers on umb_mem allocations; the commands that move their bytes. */
#include <stdlib.h>
#include <string.h>

#include "ocl.h"

/* ---------------- device access (always under the device lock) ---------------- */

static cl_int to_device(uint64_t addr, const void *src, size_t size)
{
    cl_device_id d = ocl_device();
    umb_status st = plat_to_device(&d->p, addr, src, size);
    return st ? CL_OUT_OF_RESOURCES : CL_COMPLETE;
}

static cl_int from_device(uint64_t addr, void *dst, size_t size)
{
    cl_device_id d = ocl_device();
    umb_status st = plat_from_device(&d->p, addr, dst, size);
    return st ? CL_OUT_OF_RESOURCES : CL_COMPLETE;
}

/* A CL_MEM_USE_HOST_PTR buffer behaves like AMD's zero-copy host buffers: its host memory holds
 * what the device wrote once a command completes, and a kernel sees what the host wrote there.
 * The device copy is refreshed before each kernel and mirrored after every command that writes it. */
cl_int ocl_mem_host_sync(cl_mem m, size_t off, size_t size, bool to_host)
{
    if (!m) return CL_COMPLETE;
    /* an image (one made from a buffer has no host memory of its own: its buffer's is synchronised) */
    if (m->image) return ocl_image_host_sync(m, to_host);
    if (!m->host_ptr || m->svm || (m->parent && m->parent->svm)) return CL_COMPLETE;   /* SVM: the same bytes */
    uint8_t *h = (uint8_t *)m->host_ptr + off;
    return to_host ? from_device(m->addr + off, h, size) : to_device(m->addr + off, h, size);
}

/* ---------------- creation ---------------- */

static const cl_mem_flags access_flags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
static const cl_mem_flags host_ptr_flags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
static const cl_mem_flags host_access_flags = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

static bool at_most_one(cl_mem_flags f) { return (f & (f - 1)) == 0; }

static bool flags_valid(cl_mem_flags f)
{
    if (f & ~(access_flags | host_ptr_flags | host_access_flags)) return false;
    if (!at_most_one(f & access_flags) || !at_most_one(f & host_access_flags)) return false;
    if ((f & CL_MEM_USE_HOST_PTR) && (f & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))) return false;
    return true;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host_ptr,
                                               cl_int *errcode_ret)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    if (!flags_valid(flags)) OCL_ERR(CL_INVALID_VALUE);
    if (size == 0 || size > ocl_device_max_alloc()) OCL_ERR(CL_INVALID_BUFFER_SIZE);
    bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    if (wants_ptr != (host_ptr != NULL)) OCL_ERR(CL_INVALID_HOST_PTR);
    if (!(flags & access_flags)) flags |= CL_MEM_READ_WRITE;
    cl_mem m = ocl_obj_alloc(sizeof *m);
    if (!m) OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    /* CL_MEM_USE_HOST_PTR on an SVM buffer: the buffer is that memory, which the device sees at
     * the same address (OpenCL 2.0 §5.2.1, CL_MEM_USES_SVM_POINTER) */
    void *svm_base;
    size_t svm_size;
    if ((flags & CL_MEM_USE_HOST_PTR) && ocl_svm_lookup(host_ptr, &svm_base, &svm_size)) {
        if (size > svm_size - (size_t)((uint8_t *)host_ptr - (uint8_t *)svm_base)) {
            ocl_obj_free(m);
            OCL_ERR(CL_INVALID_BUFFER_SIZE);
        }
        m->ctx = ctx, m->flags = flags, m->size = size, m->svm = true;
        m->addr = (uint64_t)(uintptr_t)host_ptr;
        m->host_ptr = host_ptr;
        ocl_retain(ctx);
        m->serial = ocl_mem_new_serial();
        ocl_register(m, OCL_MEM);
        OCL_OK(m);
    }
    cl_device_id d = ocl_device();
    umb_status st = plat_alloc(&d->p, size, &m->addr);
    if (st) {
        ocl_obj_free(m);
        OCL_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
    m->ctx = ctx, m->flags = flags, m->size = size;
    if (flags & CL_MEM_USE_HOST_PTR) m->host_ptr = host_ptr;
    if (wants_ptr && to_device(m->addr, host_ptr, size) != CL_COMPLETE) {
        plat_free(&d->p, m->addr);
        ocl_obj_free(m);
        OCL_ERR(CL_OUT_OF_RESOURCES);
    }
    ocl_retain(ctx);
    m->serial = ocl_mem_new_serial();
    ocl_register(m, OCL_MEM);
    OCL_OK(m);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context ctx, const cl_mem_properties *props,
                                                             cl_mem_flags flags, size_t size, void *host_ptr,
                                                             cl_int *errcode_ret)
{
    if (props && props[0]) OCL_ERR(CL_INVALID_PROPERTY);
    cl_mem m = clCreateBuffer(ctx, flags, size, host_ptr, errcode_ret);
    if (m && props) m->listed_props = true;
    return m;
}

/* A sub-buffer's flags: given ones must not contradict the parent's; missing ones are inherited. */
static bool sub_flags(cl_mem parent, cl_mem_flags *flags)
{
    cl_mem_flags f = *flags, pf = parent->flags;
    if (f & host_ptr_flags) return false;
    if ((pf & CL_MEM_WRITE_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) return false;
    if ((pf & CL_MEM_READ_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) return false;
    if ((pf & CL_MEM_HOST_WRITE_ONLY) && (f & CL_MEM_HOST_READ_ONLY)) return false;
    if ((pf & CL_MEM_HOST_READ_ONLY) && (f & CL_MEM_HOST_WRITE_ONLY)) return false;
    if ((pf & CL_MEM_HOST_NO_ACCESS) && (f & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))) return false;
    if (!(f & access_flags)) f |= pf & access_flags;
    if (!(f & host_access_flags)) f |= pf & host_access_flags;
    f |= pf & host_ptr_flags;
    *flags = f;
    return true;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem parent, cl_mem_flags flags, cl_buffer_create_type type,
                                                  const void *info, cl_int *errcode_ret)
{
    if (!ocl_valid(parent, OCL_MEM) || parent->parent || parent->image) OCL_ERR(CL_INVALID_MEM_OBJECT);
    if (!flags_valid(flags) || !sub_flags(parent, &flags)) OCL_ERR(CL_INVALID_VALUE);
    if (type != CL_BUFFER_CREATE_TYPE_REGION || !info) OCL_ERR(CL_INVALID_VALUE);
    const cl_buffer_region *r = info;
    if (r->size == 0) OCL_ERR(CL_INVALID_BUFFER_SIZE);
    if (r->origin > parent->size || r->size > parent->size - r->origin) OCL_ERR(CL_INVALID_VALUE);
    if (r->origin % (OCL_BASE_ADDR_ALIGN_BITS / 8)) OCL_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET);
    cl_mem m = ocl_obj_alloc(sizeof *m);
    if (!m) OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    m->ctx = parent->ctx, m->flags = flags, m->size = r->size, m->origin = r->origin;
    m->addr = parent->addr + r->origin;
    m->parent = parent;
    if (parent->host_ptr) m->host_ptr = (uint8_t *)parent->host_ptr + r->origin;
    ocl_retain(parent);
    ocl_retain(m->ctx);
    m->serial = ocl_mem_new_serial();
    ocl_register(m, OCL_MEM);
    OCL_OK(m);
}

void ocl_mem_destroy(cl_mem m)
{
    for (ocl_mem_callback *c = m->callbacks, *n; c; c = n) {
        n = c->next;
        c->fn(m, c->data);   /* most recently registered first */
        free(c);
    }
    for (ocl_mapping *p = m->maps, *n; p; p = n) {
        n = p->next;
        if (p->owned) free(p->ptr);
        free(p);
    }
    if (m->image) ocl_image_destroy(m);
    if (m->parent) {
        if (ocl_release_last(m->parent)) ocl_free_object(m->parent);
    } else if (!m->svm) {
        cl_device_id d = ocl_device();
        plat_free(&d->p, m->addr);
    }
    cl_context ctx = m->ctx;
    ocl_obj_free(m);
    if (ocl_release_last(ctx)) ocl_free_object(ctx);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem m)
{
    if (!ocl_valid(m, OCL_MEM)) return CL_INVALID_MEM_OBJECT;
    ocl_retain(m);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem m)
{
    if (!ocl_valid(m, OCL_MEM)) return CL_INVALID_MEM_OBJECT;
    if (ocl_release_last(m)) ocl_free_object(m);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem m, void (CL_CALLBACK *fn)(cl_mem, void *),
                                                                 void *data)
{
    if (!ocl_valid(m, OCL_MEM)) return CL_INVALID_MEM_OBJECT;
    if (!fn) return CL_INVALID_VALUE;
    ocl_mem_callback *c = calloc(1, sizeof *c);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    c->fn = fn, c->data = data;
    pthread_mutex_lock(&ocl_lock);
    c->next = m->callbacks, m->callbacks = c;
    pthread_mutex_unlock(&ocl_lock);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem m, cl_mem_info param, size_t size, void *value, size_t *ret)
{
    if (!ocl_valid(m, OCL_MEM)) return CL_INVALID_MEM_OBJECT;
    switch (param) {
    case CL_MEM_TYPE: OCL_INFO(cl_mem_object_type, m->image ? ocl_image_type(m) : CL_MEM_OBJECT_BUFFER);
    case CL_MEM_FLAGS: OCL_INFO(cl_mem_flags, m->flags);
    case CL_MEM_SIZE: OCL_INFO(size_t, m->size);
    case CL_MEM_HOST_PTR: OCL_INFO(void *, m->host_ptr);
    case CL_MEM_MAP_COUNT: OCL_INFO(cl_uint, m->map_count);
    case CL_MEM_REFERENCE_COUNT: OCL_INFO(cl_uint, atomic_load(&m->h.refs));
    case CL_MEM_CONTEXT: OCL_INFO(cl_context, m->ctx);
    case CL_MEM_ASSOCIATED_MEMOBJECT: OCL_INFO(cl_mem, m->parent);
    case CL_MEM_OFFSET: OCL_INFO(size_t, m->origin);
    case CL_MEM_USES_SVM_POINTER: OCL_INFO(cl_bool, m->svm || (m->parent && m->parent->svm));
    case CL_MEM_PROPERTIES: {   /* none are defined: the list given ({0}) or nothing */
        const cl_mem_properties end = 0;
        return ocl_info(size, value, ret, m->listed_props ? &end : NULL, m->listed_props ? sizeof end : 0);
    }
    default: return CL_INVALID_VALUE;
    }
}

uint64_t ocl_mem_new_serial(void)
{
    static _Atomic uint64_t last;   /* the platform's one counter, like its registry */
    return atomic_fetch_add(&last, 1) + 1;
}

/* Two buffer ranges share bytes (sub-buffers of one parent included). */
bool ocl_mem_overlap(cl_mem a, size_t aoff, cl_mem b, size_t boff, size_t size)
{
    uint64_t x = a->addr + aoff, y = b->addr + boff;
    return x < y + size && y < x + size;
}

/* ---------------- checks shared by the enqueue calls ---------------- */

static cl_int check_queue_mem(cl_command_queue q, cl_mem m)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    if (!ocl_valid(m, OCL_MEM)) return CL_INVALID_MEM_OBJECT;
    if (m->ctx != q->ctx) return CL_INVALID_CONTEXT;
    return CL_SUCCESS;
}

/* Buffer commands: an image is not a buffer. */
static cl_int check_queue_buffer(cl_command_queue q, cl_mem m)
{
    cl_int st = check_queue_mem(q, m);
    return !st && m->image ? CL_INVALID_MEM_OBJECT : st;
}

static bool in_range(const cl_mem m, size_t off, size_t size)
{
    return off <= m->size && size <= m->size - off;
}

static bool host_may_read(cl_mem m) { return !(m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)); }
static bool host_may_write(cl_mem m) { return !(m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)); }

static ocl_cmd *mem_cmd(cl_mem a, cl_mem b)
{
    ocl_cmd *c = ocl_cmd_new();
    if (!c) return NULL;
    if (a) ocl_retain(a), c->mem[0] = a;
    if (b) ocl_retain(b), c->mem[1] = b;
    return c;
}

/* ---------------- read, write, copy, fill ---------------- */

static cl_int run_read(ocl_cmd *c) { return from_device(c->mem[0]->addr + c->off[0], c->ptr, c->size); }
static cl_int run_write(ocl_cmd *c)
{
    cl_int st = to_device(c->mem[0]->addr + c->off[0], c->ptr, c->size);
    return st == CL_COMPLETE ? ocl_mem_host_sync(c->mem[0], c->off[0], c->size, true) : st;
}
static void free_ptr(ocl_cmd *c) { free(c->ptr); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, size_t off,
                                                    size_t size, void *ptr, cl_uint n, const cl_event *list,
                                                    cl_event *out)
{
    cl_int st = check_queue_buffer(q, m);
    if (!st) st = ocl_check_wait_list(q, n, list);
    if (st) return st;
    if (!ptr || size == 0 || !in_range(m, off, size)) return CL_INVALID_VALUE;
    if (!host_may_read(m)) return CL_INVALID_OPERATION;
    ocl_cmd *c = mem_cmd(m, NULL);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    c->off[0] = off, c->size = size, c->ptr = ptr, c->run = run_read;
    return ocl_enqueue(q, c, CL_COMMAND_READ_BUFFER, n, list, out, blocking);
}

/* A non-blocking write keeps its own copy, so the host may reuse ptr at once (allowed, and safer). */
CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, size_t off,
                                                     size_t size, const void *ptr, cl_uint n, const cl_event *list,
                                                     cl_event *out)
{
    cl_int st = check_queue_buffer(q, m);
    if (!st) st = ocl_check_wait_list(q, n, list);
    if (st) return st;
    if (!ptr || size == 0 || !in_range(m, off, size)) return CL_INVALID_VALUE;
    if (!host_may_write(m)) return CL_INVALID_OPERATION;
    ocl_cmd *c = mem_cmd(m, NULL);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    c->off[0] = off, c->size = size, c->run = run_write;
    if (blocking) {
        c->ptr = (void *)ptr;
    } else {
        c->ptr = malloc(size);
        if (!c->ptr) return ocl_cmd_free(c), CL_OUT_OF_HOST_MEMORY;
        memcpy(c->ptr, ptr, size);
        c->done = free_ptr;
    }
    return ocl_enqueue(q, c, CL_COMMAND_WRITE_BUFFER, n, list, out, blocking);
}

static cl_int run_copy(ocl_cmd *c)
{
    void *tmp = malloc(c->size);
    if (!tmp) return CL_OUT_OF_HOST_MEMORY;
    cl_int st = from_device(c->mem[0]->addr + c->off[0], tmp, c->size);
    if (st == CL_COMPLETE) st = to_device(c->mem[1]->addr + c->off[1], tmp, c->size);
    free(tmp);
    return st == CL_COMPLETE ? ocl_mem_host_sync(c->mem[1], c->off[1], c->size, true) : st;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t soff,
                                                    size_t doff, size_t size, cl_uint n, const cl_event *list,
                                                    cl_event *out)
{
    cl_int st = check_queue_buffer(q, src);
    if (!st) st = check_queue_buffer(q, dst);
    if (!st) st = ocl_check_wait_list(q, n, list);
    if (st) return st;
    if (size == 0 || !in_range(src, soff, size) || !in_range(dst, doff, size)) return CL_INVALID_VALUE;
    if (ocl_mem_overlap(src, soff, dst, doff, size)) return CL_MEM_COPY_OVERLAP;
    ocl_cmd *c = mem_cmd(src, dst);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    c->off[0] = soff, c->off[1] = doff, c->size = size, c->run = run_copy;
    return ocl_enqueue(q, c, CL_COMMAND_COPY_BUFFER, n, list, out, false);
}

static cl_int run_fill(ocl_cmd *c)
{
    size_t psize = c->off[1];
    uint8_t *tmp = malloc(c->size);
    if (!tmp) return CL_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; i < c->size; i += psize) memcpy(tmp + i, c->pattern, psize);
    cl_int st = to_device(c->mem[0]->addr + c->off[0], tmp, c->size);
    free(tmp);
    return st == CL_COMPLETE ? ocl_mem_host_sync(c->mem[0], c->off[0], c->size, true) : st;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem m, const void *pattern, size_t psize,
                                                    size_t off, size_t size, cl_uint n, const cl_event *list,
                                                    cl_event *out)
{
    cl_int st = check_queue_buffer(q, m);
    if (!st) st = ocl_check_wait_list(q, n, list);
    if (st) return st;
    if (!pattern || psize == 0 || psize > 128 || (psize & (psize - 1))) return CL_INVALID_VALUE;
    if (off % psize || size % psize || !in_range(m, off, size)) return CL_INVALID_VALUE;
    ocl_cmd *c = mem_cmd(m, NULL);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    memcpy(c->pattern, pattern, psize);
    c->off[0] = off, c->off[1] = psize, c->size = size, c->run = run_fill;
    return ocl_enqueue(q, c, CL_COMMAND_FILL_BUFFER, n, list, out, false);
}

/* ---------------- the Rect forms ---------------- */

typedef struct rect {
    size_t origin[3], row, slice;
} rect;

/* Default pitches, their rules, and whether the region fits in limit bytes (SIZE_MAX: host memory). */
static cl_int rect_check(rect *r, const size_t *region, size_t limit)
{
    if (!r->row) r->row = region[0];
    else if (r->row < region[0]) return CL_INVALID_VALUE;
    if (!r->slice) r->slice = region[1] * r->row;
    else if (r->slice < region[1] * r->row || r->slice % r->row) return CL_INVALID_VALUE;
    size_t last = (r->origin[2] + region[2] - 1) * r->slice + (r->origin[1] + region[1] - 1) * r->row +
                  r->origin[0] + region[0];
    return last > limit ? CL_INVALID_VALUE : CL_SUCCESS;
}

static size_t rect_offset(const size_t *origin, const size_t pitch[2], size_t y, size_t z)
{
    return (origin[2] + z) * pitch[1] + (origin[1] + y) * pitch[0] + origin[0];
}

/* c->origin[0]/pitch[0] describe the buffer (mem[0]); [1] the host memory, or mem[1] for copies. */
static cl_int run_rect(ocl_cmd *c, int dir)
{
    for (size_t z = 0; z < c->region[2]; z++)
        for (size_t y = 0; y < c->region[1]; y++) {
            size_t bo = rect_offset(c->origin[0], c->pitch[0], y, z), ho = rect_offset(c->origin[1], c->pitch[1], y, z);
            cl_int st;
            if (dir == 0) st = from_device(c->mem[0]->addr + bo, (uint8_t *)c->ptr + ho, c->region[0]);
            else if (dir == 1) st = to_device(c->mem[0]->addr + bo, (uint8_t *)c->ptr + ho, c->region[0]);
            else {
                st = from_device(c->mem[0]->addr + bo, c->ptr, c->region[0]);
                if (st == CL_COMPLETE) st = to_device(c->mem[1]->addr + ho, c->ptr, c->region[0]);
            }
            if (st != CL_COMPLETE) return st;
        }
    return CL_COMPLETE;
}

static cl_int run_read_rect(ocl_cmd *c) { return run_rect(c, 0); }

static cl_int run_write_rect(ocl_cmd *c)
{
    cl_int st = run_rect(c, 1);
    return st == CL_COMPLETE ? ocl_mem_host_sync(c->mem[0], 0, c->mem[0]->size, true) : st;
}

static cl_int run_copy_rect(ocl_cmd *c)
{
    cl_int st = run_rect(c, 2);
    return st == CL_COMPLETE ? ocl_mem_host_sync(c->mem[1], 0, c->mem[1]->size, true) : st;
}

static bool region_valid(const size_t *region)
{
    return region && region[0] && region[1] && region[2];
}

static void set_rect(ocl_cmd *c, int i, const rect *r)
{
    memcpy(c->origin[i], r->origin, sizeof r->origin);
    c->pitch[i][0] = r->row, c->pitch[i][1] = r->slice;
}

static cl_int enqueue_host_rect(cl_command_queue q, cl_mem m, bool write, cl_bool blocking, const size_t *borigin,
                                const size_t *horigin, const size_t *region, size_t brow, size_t bslice,
                                size_t hrow, size_t hslice, void *ptr, cl_uint n, const cl_event *list, cl_event *out)
{
    cl_int st = check_queue_buffer(q, m);
    if (!st) st = ocl_check_wait_list(q, n, list);
    if (st) return st;
    if (!ptr || !borigin || !horigin || !region_valid(region)) return CL_INVALID_VALUE;
    if (write ? !host_may_write(m) : !host_may_read(m)) return CL_INVALID_OPERATION;
    rect b = { { borigin[0], borigin[1], borigin[2] }, brow, bslice };
    rect h = { { horigin[0], horigin[1], horigin[2] }, hrow, hslice };
    if (rect_check(&b, region, m->size) || rect_check(&h, region, SIZE_MAX)) return CL_INVALID_VALUE;
    ocl_cmd *c = mem_cmd(m, NULL);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    set_rect(c, 0, &b), set_rect(c, 1, &h);
    memcpy(c->region, region, sizeof c->region);
    c->ptr = ptr;
    c->run = write ? run_write_rect : run_read_rect;
    /* A non-blocking rect write reads the host memory when it runs, as the specification allows. */
    return ocl_enqueue(q, c, write ? CL_COMMAND_WRITE_BUFFER_RECT : CL_COMMAND_READ_BUFFER_RECT, n, list, out,
                       blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
                                                        const size_t *borigin, const size_t *horigin,
                                                        const size_t *region, size_t brow, size_t bslice,
                                                        size_t hrow, size_t hslice, void *ptr, cl_uint n,
                                                        const cl_event *list, cl_event *out)
{
    return enqueue_host_rect(q, m, false, blocking, borigin, horigin, region, brow, bslice, hrow, hslice, ptr, n,
                             list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
                                                         const size_t *borigin, const size_t *horigin,
                                                         const size_t *region, size_t brow, size_t bslice,
                                                         size_t hrow, size_t hslice, const void *ptr, cl_uint n,
                                                         const cl_event *list, cl_event *out)
{
    return enqueue_host_rect(q, m, true, blocking, borigin, horigin, region, brow, bslice, hrow, hslice,
                             (void *)ptr, n, list, out);
}

/* The overlap rule of clEnqueueCopyBufferRect within one buffer (OpenCL 1.2 §5.2.3 and Appendix
 * E): the regions overlap unless their byte spans are disjoint, or one region's columns fit in the
 * gap that the other leaves between the end of its row and the start of its next row (region[0]
 * against row_pitch), or likewise its rows in the gap between the other's slices (a slice's bytes
 * against slice_pitch). Both regions have the same pitches (checked before). */
static bool rect_copy_overlaps(const rect *s, const rect *d, const size_t *region)
{
    size_t row = s->row, slice = s->slice;
    size_t slice_bytes = (region[1] - 1) * row + region[0];
    size_t block = (region[2] - 1) * slice + slice_bytes;
    size_t s0 = s->origin[2] * slice + s->origin[1] * row + s->origin[0];
    size_t d0 = d->origin[2] * slice + d->origin[1] * row + d->origin[0];
    if (d0 + block <= s0 || s0 + block <= d0) return false;
    size_t sx = s->origin[0] % row, dx = d->origin[0] % row;
    if ((dx >= sx + region[0] && dx + region[0] <= sx + row) || (sx >= dx + region[0] && sx + region[0] <= dx + row))
        return false;
    size_t sy = (s->origin[1] * row + s->origin[0]) % slice, dy = (d->origin[1] * row + d->origin[0]) % slice;
    if ((dy >= sy + slice_bytes && dy + slice_bytes <= sy + slice) ||
        (sy >= dy + slice_bytes && sy + slice_bytes <= dy + slice))
        return false;
    return true;
}

/* Different buffer objects that may share memory (sub-buffers of one parent, with pitches of their
 * own): their byte spans. */
static bool rect_spans_overlap(const rect *a, const rect *b, const size_t *region, cl_mem sa, cl_mem sb)
{
    size_t a0 = a->origin[2] * a->slice + a->origin[1] * a->row + a->origin[0];
    size_t b0 = b->origin[2] * b->slice + b->origin[1] * b->row + b->origin[0];
    size_t alen = (region[2] - 1) * a->slice + (region[1] - 1) * a->row + region[0];
    size_t blen = (region[2] - 1) * b->slice + (region[1] - 1) * b->row + region[0];
    uint64_t x = sa->addr + a0, y = sb->addr + b0;
    return x < y + blen && y < x + alen;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst,
                                                        const size_t *sorigin, const size_t *dorigin,
                                                        const size_t *region, size_t srow, size_t sslice,
                                                        size_t drow, size_t dslice, cl_uint n, const cl_event *list,
                                                        cl_event *out)
{
    cl_int st = check_queue_buffer(q, src);
    if (!st) st = check_queue_buffer(q, dst);
    if (!st) st = ocl_check_wait_list(q, n, list);
    if (st) return st;
    if (!sorigin || !dorigin || !region_valid(region)) return CL_INVALID_VALUE;
    rect s = { { sorigin[0], sorigin[1], sorigin[2] }, srow, sslice };
    rect d = { { dorigin[0], dorigin[1], dorigin[2] }, drow, dslice };
    if (rect_check(&s, region, src->size) || rect_check(&d, region, dst->size)) return CL_INVALID_VALUE;
    if (src == dst && (srow != drow || sslice != dslice)) return CL_INVALID_VALUE;
    if (src == dst ? rect_copy_overlaps(&s, &d, region) : rect_spans_overlap(&s, &d, region, src, dst))
        return CL_MEM_COPY_OVERLAP;
    ocl_cmd *c = mem_cmd(src, dst);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    c->ptr = malloc(region[0]);
    if (!c->ptr) return ocl_cmd_free(c), CL_OUT_OF_HOST_MEMORY;
    set_rect(c, 0, &s), set_rect(c, 1, &d);
    memcpy(c->region, region, sizeof c->region);
    c->run = run_copy_rect, c->done = free_ptr;
    return ocl_enqueue(q, c, CL_COMMAND_COPY_BUFFER_RECT, n, list, out, false);
}

/* ---------------- map, unmap, migrate ---------------- */

static cl_int run_map(ocl_cmd *c)
{
    ocl_mapping *mp = c->map;
    if (mp->flags & CL_MAP_WRITE_INVALIDATE_REGION) return CL_COMPLETE;
    return from_device(c->mem[0]->addr + mp->offset, mp->ptr, mp->size);
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, cl_map_flags flags,
                                                  size_t off, size_t size, cl_uint n, const cl_event *list,
                                                  cl_event *out, cl_int *errcode_ret)
{
    cl_int st = check_queue_buffer(q, m);
    if (!st) st = ocl_check_wait_list(q, n, list);
    if (st) OCL_ERR(st);
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if ((flags & ~known) || ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
        OCL_ERR(CL_INVALID_VALUE);
    if (size == 0 || !in_range(m, off, size)) OCL_ERR(CL_INVALID_VALUE);
    if ((flags & CL_MAP_READ) && !host_may_read(m)) OCL_ERR(CL_INVALID_OPERATION);
    if ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && !host_may_write(m)) OCL_ERR(CL_INVALID_OPERATION);
    ocl_mapping *mp = calloc(1, sizeof *mp);
    ocl_cmd *c = mem_cmd(m, NULL);
    if (!mp || !c) {
        free(mp);
        if (c) ocl_cmd_free(c);
        OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    }
    mp->offset = off, mp->size = size, mp->flags = flags;
    mp->owned = !m->host_ptr;
    mp->ptr = m->host_ptr ? (uint8_t *)m->host_ptr + off : malloc(size);
    if (!mp->ptr) {
        free(mp), ocl_cmd_free(c);
        OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    }
    c->map = mp, c->run = run_map;
    return ocl_enqueue_map(q, m, c, CL_COMMAND_MAP_BUFFER, n, list, out, blocking, errcode_ret);
}

/* Register the mapping c->map of m (a buffer or an image) and enqueue its map command c: the
 * mapped pointer, or NULL with the error (the mapping withdrawn again if the command was not
 * enqueued). */
void *ocl_enqueue_map(cl_command_queue q, cl_mem m, ocl_cmd *c, cl_command_type type, cl_uint n,
                      const cl_event *list, cl_event *out, cl_bool blocking, cl_int *errcode_ret)
{
    ocl_mapping *mp = c->map;
    void *ptr = mp->ptr;
    pthread_mutex_lock(&ocl_lock);
    mp->next = m->maps, m->maps = mp;
    m->map_count++;
    pthread_mutex_unlock(&ocl_lock);
    cl_int st = ocl_enqueue(q, c, type, n, list, out, blocking);
    if (st == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST || st == CL_SUCCESS) {
        if (errcode_ret) *errcode_ret = st;
        return st == CL_SUCCESS ? ptr : NULL;
    }
    pthread_mutex_lock(&ocl_lock);
    for (ocl_mapping **pp = &m->maps; *pp; pp = &(*pp)->next)
        if (*pp == mp) { *pp = mp->next; break; }
    m->map_count--;
    pthread_mutex_unlock(&ocl_lock);
    if (mp->owned) free(mp->ptr);
    free(mp);
    OCL_ERR(st);
}

static cl_int run_unmap(ocl_cmd *c)
{
    ocl_mapping *mp = c->map;
    if (mp->image) return ocl_image_unmap(c->mem[0], mp);
    cl_int st = CL_COMPLETE;
    if (mp->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
        st = to_device(c->mem[0]->addr + mp->offset, mp->ptr, mp->size);
    return st;
}

static void free_mapping(ocl_cmd *c)
{
    if (c->map->owned) free(c->map->ptr);
    free(c->map);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *ptr, cl_uint n,
                                                        const cl_event *list, cl_event *out)
{
    cl_int st = check_queue_mem(q, m);
    if (!st) st = ocl_check_wait_list(q, n, list);
    if (st) return st;
    ocl_mapping *mp = NULL;
    pthread_mutex_lock(&ocl_lock);
    for (ocl_mapping **pp = &m->maps; *pp; pp = &(*pp)->next)
        if ((*pp)->ptr == ptr) {
            mp = *pp, *pp = mp->next;
            m->map_count--;
            break;
        }
    pthread_mutex_unlock(&ocl_lock);
    if (!mp) return CL_INVALID_VALUE;
    ocl_cmd *c = mem_cmd(m, NULL);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    c->map = mp, c->run = run_unmap, c->done = free_mapping;
    return ocl_enqueue(q, c, CL_COMMAND_UNMAP_MEM_OBJECT, n, list, out, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint nmem, const cl_mem *mems,
                                                           cl_mem_migration_flags flags, cl_uint n,
                                                           const cl_event *list, cl_event *out)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    if (nmem == 0 || !mems) return CL_INVALID_VALUE;
    if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < nmem; i++) {
        cl_int st = check_queue_mem(q, mems[i]);
        if (st) return st;
    }
    cl_int st = ocl_check_wait_list(q, n, list);
    if (st) return st;
    ocl_cmd *c = ocl_cmd_new();   /* one memory: migration moves nothing */
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    return ocl_enqueue(q, c, CL_COMMAND_MIGRATE_MEM_OBJECTS, n, list, out, false);
}
