/* Kernels: arguments, queries, and NDRange launches through umb_rdna3_run. */
#include <stdlib.h>
#include <string.h>

#include "ocl.h"
#include "platform/plat_image.h"

#define DEVICE_LDS_BYTES (64u << 10)

static cl_kernel new_kernel(cl_program p, const umb_rdna3_kernel_info *ki)
{
    cl_kernel k = ocl_obj_alloc(sizeof *k);
    if (!k) return NULL;
    k->args = calloc(ki->nexplicit ? ki->nexplicit : 1, sizeof *k->args);
    if (!k->args) return ocl_obj_free(k), NULL;
    k->program = p, k->ki = ki;
    ocl_retain(p);
    atomic_fetch_add(&p->kernels, 1);
    ocl_register(k, OCL_KERNEL);
    return k;
}

static void clear_arg(ocl_arg *a)
{
    if (a->sampler && ocl_release_last(a->sampler)) ocl_free_object(a->sampler);
    free(a->big);
    memset(a, 0, sizeof *a);
}

void ocl_kernel_destroy(cl_kernel k)
{
    for (uint32_t i = 0; i < k->ki->nexplicit; i++) clear_arg(&k->args[i]);
    free(k->args);
    cl_program p = k->program;
    atomic_fetch_sub(&p->kernels, 1);
    ocl_obj_free(k);
    if (ocl_release_last(p)) ocl_free_object(p);
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program p, const char *name, cl_int *errcode_ret)
{
    if (!ocl_valid(p, OCL_PROGRAM)) OCL_ERR(CL_INVALID_PROGRAM);
    if (!p->prog) OCL_ERR(CL_INVALID_PROGRAM_EXECUTABLE);
    if (!name) OCL_ERR(CL_INVALID_VALUE);
    const umb_rdna3_kernel_info *ki = umb_rdna3_program_find_kernel(p->prog, name);
    if (!ki || strcmp(ki->name, name)) OCL_ERR(CL_INVALID_KERNEL_NAME);
    cl_kernel k = new_kernel(p, ki);
    if (!k) OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    OCL_OK(k);
}

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program p, cl_uint n, cl_kernel *out, cl_uint *num)
{
    if (!ocl_valid(p, OCL_PROGRAM)) return CL_INVALID_PROGRAM;
    if (!p->prog) return CL_INVALID_PROGRAM_EXECUTABLE;
    uint32_t count = umb_rdna3_program_kernel_count(p->prog);
    if (out && n < count) return CL_INVALID_VALUE;
    for (uint32_t i = 0; out && i < count; i++) {
        out[i] = new_kernel(p, umb_rdna3_program_kernel(p->prog, i));
        if (!out[i]) {
            while (i--) clReleaseKernel(out[i]);
            return CL_OUT_OF_HOST_MEMORY;
        }
    }
    if (num) *num = count;
    return CL_SUCCESS;
}

/* A copy of the kernel with the arguments set so far (OpenCL 2.1). */
CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel src, cl_int *errcode_ret)
{
    if (!ocl_valid(src, OCL_KERNEL)) OCL_ERR(CL_INVALID_KERNEL);
    cl_kernel k = new_kernel(src->program, src->ki);
    if (!k) OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    pthread_mutex_lock(&ocl_lock);
    bool ok = true;
    for (uint32_t i = 0; i < src->ki->nexplicit; i++) {
        const ocl_arg *from = &src->args[i];
        ocl_arg *to = &k->args[i];
        *to = *from;
        to->big = NULL;
        if (from->big && !(to->big = malloc(from->size))) {
            to->set = false, to->mem = NULL;
            ok = false;
            continue;
        }
        if (from->big) memcpy(to->big, from->big, from->size);
        if (to->sampler) ocl_retain(to->sampler);   /* buffers and images: no reference, as set */
    }
    pthread_mutex_unlock(&ocl_lock);
    if (!ok) {
        clReleaseKernel(k);
        OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    }
    OCL_OK(k);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel k)
{
    if (!ocl_valid(k, OCL_KERNEL)) return CL_INVALID_KERNEL;
    ocl_retain(k);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel k)
{
    if (!ocl_valid(k, OCL_KERNEL)) return CL_INVALID_KERNEL;
    if (ocl_release_last(k)) ocl_free_object(k);
    return CL_SUCCESS;
}

/* ---------------- arguments ---------------- */

static cl_int set_buffer_arg(ocl_arg *a, cl_kernel k, size_t size, const void *value)
{
    if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
    cl_mem m = value ? *(const cl_mem *)value : NULL;
    if (m && !ocl_valid(m, OCL_MEM)) return CL_INVALID_MEM_OBJECT;
    if (m && (m->ctx != k->program->ctx || m->image)) return CL_INVALID_MEM_OBJECT;
    clear_arg(a);
    a->set = a->is_mem = true, a->mem = m, a->size = 8;
    a->mem_serial = m ? m->serial : 0;
    return CL_SUCCESS;
}

/* An image argument is the address of the image's descriptor (T# and metadata, ocl_image.c), the
 * same for every access qualifier: read_only, write_only and read_write arguments all read the T#
 * (read_write: image_load and image_store on it). clSetKernelArg's CL_INVALID_ARG_VALUE (OpenCL
 * 3.0 §5.9.2): a read_only argument given a CL_MEM_WRITE_ONLY image, a write_only one given a
 * CL_MEM_READ_ONLY image. A read_write argument takes an image of any access flags: the
 * specification lists no error for it (what the kernel reads from a WRITE_ONLY image or writes
 * into a READ_ONLY one is undefined; here it reads and writes the image's memory). */
static cl_int set_image_arg(ocl_arg *a, const umb_rdna3_arg_info *ai, cl_kernel k, size_t size, const void *value)
{
    if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
    cl_mem m = value ? *(const cl_mem *)value : NULL;
    if (!m || !ocl_valid(m, OCL_MEM) || !m->image || m->ctx != k->program->ctx) return CL_INVALID_MEM_OBJECT;
    if ((ai->access == UMB_RDNA3_ACCESS_READ_ONLY && (m->flags & CL_MEM_WRITE_ONLY)) ||
        (ai->access == UMB_RDNA3_ACCESS_WRITE_ONLY && (m->flags & CL_MEM_READ_ONLY)))
        return CL_INVALID_ARG_VALUE;
    if (!ocl_image_arg_addr(m)) {
        fprintf(stderr, "umbra opencl: clSetKernelArg: image arguments need the T# encoder (src/mem/amd_image.h), "
                        "which this build does not have\n");
        return CL_INVALID_OPERATION;
    }
    clear_arg(a);
    a->set = a->is_mem = true, a->mem = m, a->size = 8;
    a->mem_serial = m->serial;
    return CL_SUCCESS;
}

/* A sampler argument is the address of the sampler's S#. */
static cl_int set_sampler_arg(ocl_arg *a, cl_kernel k, size_t size, const void *value)
{
    if (size != sizeof(cl_sampler)) return CL_INVALID_ARG_SIZE;
    cl_sampler s = value ? *(const cl_sampler *)value : NULL;
    if (!s || !ocl_valid(s, OCL_SAMPLER) || s->ctx != k->program->ctx) return CL_INVALID_SAMPLER;
    if (!s->addr) {
        fprintf(stderr, "umbra opencl: clSetKernelArg: sampler arguments need the S# encoder "
                        "(src/mem/amd_image.h), which this build does not have\n");
        return CL_INVALID_OPERATION;
    }
    ocl_retain(s);
    clear_arg(a);
    a->set = true, a->sampler = s, a->size = 8;
    memcpy(a->value, &s->addr, 8);
    return CL_SUCCESS;
}

static cl_int set_value_arg(ocl_arg *a, const umb_rdna3_arg_info *ai, size_t size, const void *value)
{
    if (size != ai->size) return CL_INVALID_ARG_SIZE;
    if (!value) return CL_INVALID_ARG_VALUE;
    uint8_t *big = NULL;
    if (size > sizeof a->value) {
        big = malloc(size);
        if (!big) return CL_OUT_OF_HOST_MEMORY;
        memcpy(big, value, size);
    }
    clear_arg(a);
    if (big) a->big = big;
    else memcpy(a->value, value, size);
    a->set = true, a->size = (uint32_t)size;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel k, cl_uint index, size_t size, const void *value)
{
    if (!ocl_valid(k, OCL_KERNEL)) return CL_INVALID_KERNEL;
    if (index >= k->ki->nexplicit) return CL_INVALID_ARG_INDEX;
    const umb_rdna3_arg_info *ai = &k->ki->args[index];
    ocl_arg *a = &k->args[index];   /* one kernel's arguments are set from one thread at a time (spec A.2) */
    switch (ai->kind) {
    case UMB_RDNA3_ARG_GLOBAL_BUFFER: return set_buffer_arg(a, k, size, value);
    case UMB_RDNA3_ARG_DYNAMIC_SHARED_POINTER:
        if (value) return CL_INVALID_ARG_VALUE;
        if (size == 0 || size > DEVICE_LDS_BYTES) return CL_INVALID_ARG_SIZE;
        clear_arg(a);
        a->set = a->is_local = true, a->size = (uint32_t)size;
        return CL_SUCCESS;
    case UMB_RDNA3_ARG_BY_VALUE: return set_value_arg(a, ai, size, value);
    case UMB_RDNA3_ARG_SAMPLER: return set_sampler_arg(a, k, size, value);
    case UMB_RDNA3_ARG_IMAGE: return set_image_arg(a, ai, k, size, value);
    case UMB_RDNA3_ARG_PIPE: return CL_INVALID_MEM_OBJECT;
    default: return CL_INVALID_ARG_VALUE;
    }
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel k, cl_uint index, const void *value)
{
    if (!ocl_valid(k, OCL_KERNEL)) return CL_INVALID_KERNEL;
    if (index >= k->ki->nexplicit) return CL_INVALID_ARG_INDEX;
    const umb_rdna3_arg_info *ai = &k->ki->args[index];
    if (ai->kind != UMB_RDNA3_ARG_GLOBAL_BUFFER || ai->size != sizeof(uint64_t)) return CL_INVALID_ARG_VALUE;   /* not a pointer */
    /* any address inside an SVM buffer, or NULL: the device uses the host's pointer as it is */
    uint64_t addr = (uint64_t)(uintptr_t)value;
    ocl_arg *a = &k->args[index];
    clear_arg(a);
    memcpy(a->value, &addr, sizeof addr);
    a->set = true, a->size = sizeof addr;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel k, cl_kernel_exec_info param, size_t size,
                                                    const void *value)
{
    if (!ocl_valid(k, OCL_KERNEL)) return CL_INVALID_KERNEL;
    switch (param) {
    /* every SVM buffer is mapped in the device for as long as it lives: nothing to record */
    case CL_KERNEL_EXEC_INFO_SVM_PTRS:
        if (size % sizeof(void *) || (size && !value)) return CL_INVALID_VALUE;
        return CL_SUCCESS;
    case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
        if (size != sizeof(cl_bool) || !value) return CL_INVALID_VALUE;
        /* CL_DEVICE_SVM_FINE_GRAIN_SYSTEM is not reported */
        return *(const cl_bool *)value ? CL_INVALID_OPERATION : CL_SUCCESS;
    default: return CL_INVALID_VALUE;
    }
}

/* ---------------- queries ---------------- */

/* CL_KERNEL_ATTRIBUTES: the attributes the kernel was declared with, as OpenCL C spells them,
 * from the code object's metadata (reqd_work_group_size, work_group_size_hint, vec_type_hint). */
static void kernel_attributes(const umb_rdna3_kernel_info *ki, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    const uint32_t *r = ki->reqd_workgroup_size, *h = ki->workgroup_size_hint;
    if (r[0] && n < len)
        n += (size_t)snprintf(buf + n, len - n, "%sreqd_work_group_size(%u,%u,%u)", n ? " " : "", r[0], r[1], r[2]);
    if (h[0] && n < len)
        n += (size_t)snprintf(buf + n, len - n, "%swork_group_size_hint(%u,%u,%u)", n ? " " : "", h[0], h[1], h[2]);
    if (ki->vec_type_hint[0] && n < len)
        snprintf(buf + n, len - n, "%svec_type_hint(%s)", n ? " " : "", ki->vec_type_hint);
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel k, cl_kernel_info param, size_t size, void *value,
                                                size_t *ret)
{
    if (!ocl_valid(k, OCL_KERNEL)) return CL_INVALID_KERNEL;
    switch (param) {
    case CL_KERNEL_FUNCTION_NAME: OCL_INFO_STR(k->ki->name);
    case CL_KERNEL_NUM_ARGS: OCL_INFO(cl_uint, k->ki->nexplicit);
    case CL_KERNEL_REFERENCE_COUNT: OCL_INFO(cl_uint, atomic_load(&k->h.refs));
    case CL_KERNEL_CONTEXT: OCL_INFO(cl_context, k->program->ctx);
    case CL_KERNEL_PROGRAM: OCL_INFO(cl_program, k->program);
    case CL_KERNEL_ATTRIBUTES: {
        char attrs[256];
        kernel_attributes(k->ki, attrs, sizeof attrs);
        OCL_INFO_STR(attrs);
    }
    default: return CL_INVALID_VALUE;
    }
}

static cl_kernel_arg_address_qualifier address_qualifier(const umb_rdna3_arg_info *ai)
{
    if (ai->kind == UMB_RDNA3_ARG_DYNAMIC_SHARED_POINTER) return CL_KERNEL_ARG_ADDRESS_LOCAL;
    if (ai->kind == UMB_RDNA3_ARG_IMAGE) return CL_KERNEL_ARG_ADDRESS_GLOBAL;   /* image memory objects */
    if (ai->kind != UMB_RDNA3_ARG_GLOBAL_BUFFER) return CL_KERNEL_ARG_ADDRESS_PRIVATE;
    return ai->address_space == UMB_RDNA3_AS_CONSTANT ? CL_KERNEL_ARG_ADDRESS_CONSTANT : CL_KERNEL_ARG_ADDRESS_GLOBAL;
}

/* From the code object's `.is_const`/`.is_restrict`/`.is_volatile` (clang sets them for what the
 * pointer points to, as §5.9.3 reports); a __constant argument is const too. */
static cl_kernel_arg_type_qualifier type_qualifier(const umb_rdna3_arg_info *ai)
{
    cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
    if (ai->is_const || ai->address_space == UMB_RDNA3_AS_CONSTANT) q |= CL_KERNEL_ARG_TYPE_CONST;
    if (ai->is_restrict) q |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (ai->is_volatile) q |= CL_KERNEL_ARG_TYPE_VOLATILE;
    return q;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel k, cl_uint index, cl_kernel_arg_info param, size_t size,
                                                   void *value, size_t *ret)
{
    if (!ocl_valid(k, OCL_KERNEL)) return CL_INVALID_KERNEL;
    if (index >= k->ki->nexplicit) return CL_INVALID_ARG_INDEX;
    const umb_rdna3_arg_info *ai = &k->ki->args[index];
    switch (param) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER: OCL_INFO(cl_kernel_arg_address_qualifier, address_qualifier(ai));
    case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
        static const cl_kernel_arg_access_qualifier access[] = {
            CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
            CL_KERNEL_ARG_ACCESS_READ_WRITE,
        };
        OCL_INFO(cl_kernel_arg_access_qualifier, ai->kind == UMB_RDNA3_ARG_IMAGE ? access[ai->access] : CL_KERNEL_ARG_ACCESS_NONE);
    }
    case CL_KERNEL_ARG_TYPE_NAME:
        if (!ai->type_name[0]) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
        OCL_INFO_STR(ai->type_name);
    case CL_KERNEL_ARG_TYPE_QUALIFIER:
        OCL_INFO(cl_kernel_arg_type_qualifier, type_qualifier(ai));
    case CL_KERNEL_ARG_NAME:
        if (!ai->name[0]) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
        OCL_INFO_STR(ai->name);
    default: return CL_INVALID_VALUE;
    }
}

static uint64_t local_arg_bytes(cl_kernel k)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < k->ki->nexplicit; i++)
        if (k->args[i].is_local) n += (k->args[i].size + 15u) & ~15u;
    return n;
}

/* The kernel's own bound (its flat work-group size), within what the device runs. */
static size_t kernel_max_group(cl_kernel k)
{
    uint32_t m = k->ki->max_flat_workgroup_size, dev = ocl_device()->p.max_work_item;
    return m && m < dev ? m : dev;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_work_group_info param,
                                                         size_t size, void *value, size_t *ret)
{
    if (!ocl_valid(k, OCL_KERNEL)) return CL_INVALID_KERNEL;
    if (d && d != ocl_device()) return CL_INVALID_DEVICE;
    switch (param) {
    case CL_KERNEL_WORK_GROUP_SIZE: OCL_INFO(size_t, kernel_max_group(k));
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
        const uint32_t *r = k->ki->reqd_workgroup_size;
        size_t s[3] = { r[0], r[1], r[2] };
        return ocl_info(size, value, ret, s, sizeof s);
    }
    case CL_KERNEL_LOCAL_MEM_SIZE: OCL_INFO(cl_ulong, k->ki->group_segment_fixed_size + local_arg_bytes(k));
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: OCL_INFO(size_t, k->ki->wavefront_size);
    case CL_KERNEL_PRIVATE_MEM_SIZE: OCL_INFO(cl_ulong, k->ki->private_segment_fixed_size);
    case CL_KERNEL_GLOBAL_WORK_SIZE: return CL_INVALID_VALUE;   /* only for built-in kernels */
    default: return CL_INVALID_VALUE;
    }
}

/* ---------------- sub-groups (cl_khr_subgroups, OpenCL 2.1) ---------------- */

/* The work-items of a local size given as 1 to 3 size_t values; 0 if the input is malformed. */
static size_t local_items(size_t in_size, const void *in)
{
    if (!in || in_size == 0 || in_size % sizeof(size_t) || in_size > 3 * sizeof(size_t)) return 0;
    const size_t *l = in;
    size_t n = 1;
    for (size_t i = 0; i < in_size / sizeof(size_t); i++) n *= l[i];
    return n;
}

/* A sub-group is one wave: work-item i of a work-group (in flat order) is in sub-group i / wave. */
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_sub_group_info param,
                                                        size_t in_size, const void *in, size_t size, void *value,
                                                        size_t *ret)
{
    if (!ocl_valid(k, OCL_KERNEL)) return CL_INVALID_KERNEL;
    if (d && d != ocl_device()) return CL_INVALID_DEVICE;
    size_t wave = k->ki->wavefront_size ? k->ki->wavefront_size : 32, items;
    switch (param) {
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
        if (!(items = local_items(in_size, in))) return CL_INVALID_VALUE;
        OCL_INFO(size_t, items < wave ? items : wave);
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE:
        if (!(items = local_items(in_size, in))) return CL_INVALID_VALUE;
        OCL_INFO(size_t, (items + wave - 1) / wave);
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
        if (!in || in_size != sizeof(size_t)) return CL_INVALID_VALUE;
        size_t count = *(const size_t *)in, dims = size / sizeof(size_t);
        if (value && (dims < 1 || dims > 3 || size % sizeof(size_t))) return CL_INVALID_VALUE;
        size_t local[3] = { 0, 0, 0 };
        if (count && count * wave <= kernel_max_group(k)) local[0] = count * wave, local[1] = local[2] = 1;
        if (!value) dims = 3;
        return ocl_info(size, value, ret, local, dims * sizeof(size_t));
    }
    case CL_KERNEL_MAX_NUM_SUB_GROUPS: OCL_INFO(size_t, (kernel_max_group(k) + wave - 1) / wave);
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: OCL_INFO(size_t, 0);   /* OpenCL C has no attribute for it */
    default: return CL_INVALID_VALUE;
    }
}

/* ---------------- launches ---------------- */

typedef struct launch {
    umb_rdna3_dispatch d;
    umb_rdna3_arg *args;
    uint8_t *values;              /* the argument bytes, snapshot at enqueue */
    cl_mem *mems;                 /* retained buffers */
    uint32_t nmems;
} launch;

static void free_launch(ocl_cmd *c)
{
    launch *l = c->launch;
    if (!l) return;
    for (uint32_t i = 0; i < l->nmems; i++)
        if (ocl_release_last(l->mems[i])) ocl_free_object(l->mems[i]);
    free(l->mems), free(l->values), free(l->args), free(l);
}

/* A JSON string (kernel names are identifiers, but never trust that). */
/* printf records, kept with the event until it completes. */
static void collect_printf(void *ctx, const char *text, size_t len)
{
    cl_event ev = ctx;
    pthread_mutex_lock(&ocl_lock);
    char *grown = realloc(ev->printf_text, ev->printf_len + len);
    if (grown) {
        memcpy(grown + ev->printf_len, text, len);
        ev->printf_text = grown, ev->printf_len += len;
    }
    pthread_mutex_unlock(&ocl_lock);
}

/* A kernel that failed (a fault, budget exhaustion, a deadlock; plat_run has printed umbra's
 * report). ROCm's OpenCL has no error code for this: its HSA queue callback prints
 * "Device::callbackQueue aborting with error" and calls abort() (ROCm/clr, rocdevice.cpp), so no
 * later call returns at all. umbra does that with UMBRA_KERNEL_FAULT=abort. By default a host
 * program must not die of its guest's fault: the event gets CL_OUT_OF_RESOURCES and the queue's
 * next synchronising call returns it (the rule of drivers that let the program go on). */
static cl_int kernel_failed(ocl_cmd *c, umb_status st)
{
    /* what a wave did (a fault, a deadlock, the budget); not a launch refused before any wave
     * ran (arguments, memory, a feature umbra lacks), which fails its event and sticks below */
    bool on_device = st == UMB_ERR_GUEST_FAULT || st == UMB_ERR_DEADLOCK || st == UMB_ERR_BUDGET;
    if (on_device && !ocl_device()->fault_continues) {
        fprintf(stderr, "umbra opencl: kernel %s failed on the device: ending the program, as ROCm's OpenCL does "
                "after a device fault (UMBRA_KERNEL_FAULT=abort; the default lets it go on with CL_OUT_OF_RESOURCES)\n",
                c->kernel->ki->name);
        fflush(stderr);
        abort();
    }
    atomic_store(&c->ev->queue->failed, true);
    return CL_OUT_OF_RESOURCES;
}

/* A fault, budget exhaustion or deadlock: umbra's report on stderr, then kernel_failed. */
static cl_int run_kernel(ocl_cmd *c)
{
    launch *l = c->launch;
    cl_device_id d = ocl_device();
    for (uint32_t i = 0; i < l->nmems; i++) ocl_mem_host_sync(l->mems[i], 0, l->mems[i]->size, false);
    l->d.printf_fn = collect_printf, l->d.printf_ctx = c->ev;
    uint64_t ns = 0;
    umb_status st = plat_run(&d->p, c->kernel->program->prog, &l->d, &ns);
    if (d->p.timing) c->device_ns = ns;
    for (uint32_t i = 0; i < l->nmems; i++)
        if (!(l->mems[i]->flags & CL_MEM_READ_ONLY))   /* the host memory may be read-only too */
            ocl_mem_host_sync(l->mems[i], 0, l->mems[i]->size, true);
    return st ? kernel_failed(c, st) : CL_COMPLETE;
}

/* Snapshot the kernel's arguments (they may change after the enqueue). Caller holds ocl_lock. */
static cl_int snapshot_args(cl_kernel k, launch *l)
{
    uint32_t n = k->ki->nexplicit;
    size_t bytes = 0;
    for (uint32_t i = 0; i < n; i++) bytes += k->args[i].is_local ? 0 : k->args[i].size;
    l->args = calloc(n ? n : 1, sizeof *l->args);
    l->values = malloc(bytes ? bytes : 1);
    l->mems = calloc(n ? n : 1, sizeof *l->mems);
    if (!l->args || !l->values || !l->mems) return CL_OUT_OF_HOST_MEMORY;
    uint8_t *w = l->values;
    for (uint32_t i = 0; i < n; i++) {
        const ocl_arg *a = &k->args[i];
        l->args[i].size = a->size;
        if (a->is_local) continue;
        l->args[i].value = w;
        if (a->is_mem) {
            /* the program released the buffer or image after setting it (its memory may even hold
             * a newer one now): the argument no longer has a value */
            if (a->mem && (!ocl_valid_locked(a->mem, OCL_MEM) || a->mem->serial != a->mem_serial)) {
                fprintf(stderr, "umbra opencl: kernel %s: argument %u names a memory object that was released\n",
                        k->ki->name, i);
                return CL_INVALID_KERNEL_ARGS;
            }
            uint64_t addr = !a->mem ? 0 : a->mem->image ? ocl_image_arg_addr(a->mem) : a->mem->addr;
            memcpy(w, &addr, 8);
            if (a->mem) ocl_retain(a->mem), l->mems[l->nmems++] = a->mem;
        } else {
            memcpy(w, a->big ? a->big : a->value, a->size);
        }
        w += a->size;
    }
    return CL_SUCCESS;
}

/* NULL local size: per dimension the largest divisor of the global size within a budget of
 * CL_DEVICE_MAX_WORK_GROUP_SIZE work-items (and the kernel's limit), so the grid divides evenly
 * as OpenCL 1.2 requires. */
static void choose_local(cl_uint dim, const size_t *global, size_t kmax, uint32_t *local)
{
    size_t dev = ocl_device()->p.max_work_group, budget = kmax < dev ? kmax : dev;
    for (cl_uint i = 0; i < 3; i++) {
        size_t g = i < dim ? global[i] : 1, best = 1;
        for (size_t l = budget < g ? budget : g; l > 1; l--)
            if (g % l == 0) { best = l; break; }
        local[i] = (uint32_t)best;
        budget /= best;
    }
}

static cl_int check_sizes(cl_kernel k, cl_uint dim, const size_t *offset, const size_t *global, const size_t *local)
{
    if (dim < 1 || dim > 3) return CL_INVALID_WORK_DIMENSION;
    if (!global) return CL_INVALID_GLOBAL_WORK_SIZE;
    size_t items = 1;
    for (cl_uint i = 0; i < dim; i++) {
        /* a size of 0 is an empty launch (OpenCL 2.1 and later: clEnqueueNDRangeKernel) */
        if (global[i] > 0xffffffffu) return CL_INVALID_GLOBAL_WORK_SIZE;
        if (offset && offset[i] > SIZE_MAX - global[i]) return CL_INVALID_GLOBAL_OFFSET;
        if (!local) continue;
        if (local[i] == 0) return CL_INVALID_WORK_GROUP_SIZE;
        if (local[i] > ocl_device()->p.max_work_item) return CL_INVALID_WORK_ITEM_SIZE;
        if (global[i] % local[i] && !k->program->nonuniform) return CL_INVALID_WORK_GROUP_SIZE;
        items *= local[i];
    }
    if (local && items > kernel_max_group(k)) return CL_INVALID_WORK_GROUP_SIZE;
    /* __attribute__((reqd_work_group_size(X, Y, Z))): the local size must be exactly that */
    const uint32_t *r = k->ki->reqd_workgroup_size;
    for (cl_uint i = 0; r[0] && i < 3; i++) {
        size_t want = r[i], got = i < dim ? (local ? local[i] : want) : 1;
        if (got != want || (i < dim && global[i] % want && !k->program->nonuniform)) return CL_INVALID_WORK_GROUP_SIZE;
    }
    if (r[0] && (uint64_t)r[0] * r[1] * r[2] > kernel_max_group(k)) return CL_INVALID_WORK_GROUP_SIZE;
    return CL_SUCCESS;
}

/* OpenCL 3.0 clEnqueueNDRangeKernel: CL_OUT_OF_RESOURCES when the kernel's read-only, write-only
 * or read-write image arguments or its sampler arguments exceed the device's
 * CL_DEVICE_MAX_READ_IMAGE_ARGS, _WRITE_IMAGE_ARGS, _READ_WRITE_IMAGE_ARGS or _SAMPLERS (samplers
 * the kernel declares in its source are not counted: the metadata does not list them). */
static bool within_image_limits(cl_kernel k)
{
    uint32_t n[4] = { 0, 0, 0, 0 }, samplers = 0;   /* images by umb_rdna3_access */
    for (uint32_t i = 0; i < k->ki->nexplicit; i++) {
        const umb_rdna3_arg_info *ai = &k->ki->args[i];
        if (ai->kind == UMB_RDNA3_ARG_IMAGE && ai->access < 4) n[ai->access]++;
        samplers += ai->kind == UMB_RDNA3_ARG_SAMPLER;
    }
    return n[UMB_RDNA3_ACCESS_READ_ONLY] + n[UMB_RDNA3_ACCESS_NONE] <= PLAT_IMAGE_MAX_READ_ARGS &&
           n[UMB_RDNA3_ACCESS_WRITE_ONLY] <= PLAT_IMAGE_MAX_WRITE_ARGS &&
           n[UMB_RDNA3_ACCESS_READ_WRITE] <= PLAT_IMAGE_MAX_READ_WRITE_ARGS && samplers <= PLAT_IMAGE_MAX_SAMPLERS;
}

static cl_int check_args_set(cl_kernel k)
{
    for (uint32_t i = 0; i < k->ki->nexplicit; i++)
        if (!k->args[i].set) return CL_INVALID_KERNEL_ARGS;
    if (k->ki->group_segment_fixed_size + local_arg_bytes(k) > DEVICE_LDS_BYTES) return CL_OUT_OF_RESOURCES;
    if (!within_image_limits(k)) return CL_OUT_OF_RESOURCES;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim,
                                                       const size_t *offset, const size_t *global,
                                                       const size_t *local, cl_uint n, const cl_event *list,
                                                       cl_event *out)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    if (!ocl_valid(k, OCL_KERNEL)) return CL_INVALID_KERNEL;
    if (k->program->ctx != q->ctx) return CL_INVALID_CONTEXT;
    cl_int st = check_sizes(k, dim, offset, global, local);
    if (!st) st = ocl_check_wait_list(q, n, list);
    if (st) return st;
    bool empty = false;
    for (cl_uint i = 0; i < dim; i++) empty |= global[i] == 0;
    if (empty) {   /* OpenCL 3.0 §5.10: trivially succeeds once its wait list has, with its event */
        pthread_mutex_lock(&ocl_lock);
        st = check_args_set(k);
        pthread_mutex_unlock(&ocl_lock);
        ocl_cmd *c = st ? NULL : ocl_cmd_new();
        if (st || !c) return st ? st : CL_OUT_OF_HOST_MEMORY;
        return ocl_enqueue(q, c, CL_COMMAND_NDRANGE_KERNEL, n, list, out, false);
    }
    ocl_cmd *c = ocl_cmd_new();
    launch *l = calloc(1, sizeof *l);
    if (!c || !l) return free(c), free(l), CL_OUT_OF_HOST_MEMORY;
    ocl_retain(k), c->kernel = k;
    c->launch = l, c->run = run_kernel, c->done = free_launch;
    pthread_mutex_lock(&ocl_lock);
    st = check_args_set(k);
    if (!st) st = snapshot_args(k, l);
    pthread_mutex_unlock(&ocl_lock);
    if (st) return ocl_cmd_free(c), st;
    l->d.kernel = k->ki->name;
    l->d.work_dim = dim;
    l->d.args = l->args, l->d.nargs = k->ki->nexplicit;
    if (k->ki->reqd_workgroup_size[0]) {
        for (cl_uint i = 0; i < 3; i++) l->d.local_size[i] = k->ki->reqd_workgroup_size[i];
    } else if (local) {
        for (cl_uint i = 0; i < 3; i++) l->d.local_size[i] = i < dim ? (uint32_t)local[i] : 1;
    } else {
        choose_local(dim, global, kernel_max_group(k), l->d.local_size);
    }
    for (cl_uint i = 0; i < 3; i++) l->d.global_size[i] = 1;
    for (cl_uint i = 0; i < dim; i++) {
        l->d.global_size[i] = global[i];
        l->d.global_offset[i] = offset ? offset[i] : 0;
    }
    return ocl_enqueue(q, c, CL_COMMAND_NDRANGE_KERNEL, n, list, out, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint n, const cl_event *list,
                                              cl_event *out)
{
    size_t one = 1;
    return clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, n, list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue q, void (CL_CALLBACK *fn)(void *), void *args,
                                                      size_t cb_args, cl_uint nmem, const cl_mem *mems,
                                                      const void **locs, cl_uint n, const cl_event *list,
                                                      cl_event *out)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    return CL_INVALID_OPERATION;   /* CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL */
}
