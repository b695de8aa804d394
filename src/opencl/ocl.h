/* The umbra OpenCL platform (an ICD for the ocl-icd loader): objects and shared helpers.
 *
 * A client of libumbra's public API: buffers are umb_mem allocations, programs are code objects
 * loaded with umb_rdna3_program_load_memory, kernels run with umb_rdna3_run. Every object starts
 * with the ICD dispatch pointer; a registry of live handles lets every entry point reject NULL and
 * released objects with the specified error instead of touching freed memory.
 *
 * Queues and events run on the platform layer's engine (plat_stream.c): a queue is a plat_stream,
 * a command a plat_cmd, an event's status lives in its plat_event (see ocl_queue.c).
 *
 * Locking: one platform lock (ocl_lock) guards the registry, event callbacks and profiling times,
 * mappings and kernel arguments; it may be held while calling the engine (whose own lock is taken
 * after it), never the other way round. The device lock (device->p.run_lock) serialises every
 * call into libumbra (launches and copies).
 */
#ifndef UMBRA_OCL_H
#define UMBRA_OCL_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "umbra/rdna3.h"
#include "umbra/timing.h"
#include "umbra/umbra.h"
#include "platform/platform.h"

/* A macro's value as a string literal (ocl_compile.c spells __OPENCL_VERSION__ from OCL_VERSION_*). */
#define OCL_STRINGIFY_(x) #x
#define OCL_STRINGIFY(x) OCL_STRINGIFY_(x)

typedef enum ocl_kind {
    OCL_PLATFORM = 1, OCL_DEVICE, OCL_CONTEXT, OCL_QUEUE, OCL_MEM, OCL_PROGRAM, OCL_KERNEL, OCL_EVENT, OCL_SAMPLER,
} ocl_kind;

/* The header of every object: the ICD loader reads the dispatch pointer first. */
typedef struct ocl_obj {
    const struct _cl_icd_dispatch *dispatch;
    ocl_kind kind;
    atomic_uint refs;
    size_t block;   /* bytes of the object's memory block (ocl_obj_alloc) */
} ocl_obj;

extern const struct _cl_icd_dispatch ocl_dispatch;
extern pthread_mutex_t ocl_lock;

struct _cl_platform_id { ocl_obj h; };

struct _cl_device_id {
    ocl_obj h;
    umb_platform p;               /* the simulated device, shared with the HIP runtime's design */
    /* What a kernel that fails on the device does to the program (ocl_kernel.c run_kernel):
     * true (default): the program goes on, the failure sticks to the queue (CL_OUT_OF_RESOURCES
     * from its next synchronising call), as the HIP room's sticky errors;
     * false (UMBRA_KERNEL_FAULT=abort): umbra's report, then abort(), as ROCm's OpenCL does. */
    bool fault_continues;
};

/* A context's destructor callback (clSetContextDestructorCallback): called on its last release,
 * the most recently set first. */
typedef struct ocl_release_callback {
    struct ocl_release_callback *next;
    void (CL_CALLBACK *fn)(cl_context, void *);
    void *data;
} ocl_release_callback;

struct _cl_context {
    ocl_obj h;
    ocl_release_callback *destructors;
    cl_context_properties props[8];
    size_t props_size;            /* bytes of props to report (0: none given) */
    void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
    void *notify_data;
};

typedef struct ocl_cmd ocl_cmd;

struct _cl_command_queue {
    ocl_obj h;
    cl_context ctx;
    cl_command_queue_properties props;
    cl_queue_properties props_array[5];   /* clCreateCommandQueueWithProperties' list */
    size_t props_array_size;              /* bytes of it to report (0: none given) */
    plat_stream *ps;              /* its commands, run by the stream's worker */
    cl_ulong device_clock;        /* UMBRA_TIMING: simulated time its last command ended (ocl_timing.c) */
    /* UMBRA_KERNEL_FAULT=continue: a kernel of this queue failed and no synchronising call
     * (clFinish, a blocking enqueue) has returned CL_OUT_OF_RESOURCES for it yet */
    atomic_bool failed;
};

typedef struct ocl_mapping {
    struct ocl_mapping *next;
    void *ptr;
    size_t offset, size;
    cl_map_flags flags;
    bool owned;                   /* ptr was allocated for the mapping */
    bool image;                   /* an image's box (ocl_image.c): */
    uint64_t origin[3], region[3], row, slice;   /* the box, the mapping's pitches */
} ocl_mapping;

typedef struct ocl_mem_callback {
    struct ocl_mem_callback *next;
    void (CL_CALLBACK *fn)(cl_mem, void *);
    void *data;
} ocl_mem_callback;

struct _cl_mem {
    ocl_obj h;
    cl_context ctx;
    cl_mem_flags flags;
    size_t size;
    void *host_ptr;               /* CL_MEM_USE_HOST_PTR (sub-buffers: parent's + origin) */
    uint64_t addr;                /* device address */
    cl_mem parent;                /* sub-buffers */
    bool svm;                     /* CL_MEM_USE_HOST_PTR on SVM memory: addr is that memory itself */
    size_t origin;
    ocl_mapping *maps;
    cl_uint map_count;
    ocl_mem_callback *callbacks;
    uint64_t serial;              /* unique per buffer ever created (a kernel argument names it by this
                                     too: the object's memory may hold a later buffer once released) */
    struct ocl_image *image;      /* images (ocl_image.c); NULL for buffers */
    bool listed_props;            /* made by clCreate*WithProperties with a (necessarily empty) list:
                                     CL_MEM_PROPERTIES returns it, {0}, else nothing (OpenCL 3.0) */
};

struct _cl_sampler {
    ocl_obj h;
    cl_context ctx;
    cl_bool normalized;
    cl_addressing_mode address;
    cl_filter_mode filter;
    uint64_t addr;                /* its S# in device memory (what a sampler argument points to) */
    cl_sampler_properties props[7];   /* the list clCreateSamplerWithProperties got (3 pairs and 0), */
    uint32_t nprops;                  /* returned by CL_SAMPLER_PROPERTIES; 0: none was given */
};

/* One compiled-or-loaded program for the device. */
struct _cl_program {
    ocl_obj h;
    cl_context ctx;
    char *source;                 /* NULL for programs from binary */
    uint8_t *binary;              /* code object (executable) or bitcode (compiled object) */
    size_t binary_size;
    cl_program_binary_type binary_type;
    cl_build_status status;
    char *options, *log;
    umb_rdna3_program *prog;      /* loaded executable */
    size_t globals_size;          /* bytes of its program-scope variables */
    bool nonuniform;              /* built for OpenCL C 2.0/3.0 without -cl-uniform-work-group-size */
    atomic_uint kernels;          /* kernel objects attached */
};

typedef struct ocl_arg {
    bool set, is_mem, is_local;
    uint32_t size;                /* bytes of value, or __local bytes */
    uint8_t value[8];             /* small values inline */
    uint8_t *big;                 /* values larger than 8 bytes */
    cl_mem mem;                   /* the buffer or image, not retained (OpenCL: setting an argument
                                     takes no reference; NULL buffer: is_mem with mem NULL) */
    uint64_t mem_serial;          /* mem->serial when set: the enqueue checks it is still that object */
    cl_sampler sampler;           /* retained sampler (its S# address is the value) */
} ocl_arg;

struct _cl_kernel {
    ocl_obj h;
    cl_program program;
    const umb_rdna3_kernel_info *ki;
    ocl_arg *args;                /* ki->nexplicit */
};

typedef struct ocl_event_callback {
    struct ocl_event_callback *next;
    cl_int on;                    /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
    void (CL_CALLBACK *fn)(cl_event, cl_int, void *);
    void *data;
} ocl_event_callback;

struct _cl_event {
    ocl_obj h;
    cl_context ctx;
    cl_command_queue queue;       /* NULL for user events */
    cl_command_type type;
    plat_event *pe;               /* the status (CL_QUEUED ... CL_COMPLETE, or an error) */
    bool profiling;
    cl_ulong times[4];            /* QUEUED, SUBMIT, START, END */
    cl_ulong device_ns;           /* UMBRA_TIMING: the command's simulated duration */
    ocl_event_callback *callbacks;
    char *printf_text;            /* kernel printf output, written when the event completes */
    size_t printf_len;
};

/* A command: the queue's worker runs it once its wait list has completed. */
struct ocl_cmd {
    plat_cmd pc;                  /* first: the engine's command */
    cl_event ev;
    cl_int (*run)(ocl_cmd *);     /* returns CL_COMPLETE or a negative status */
    void (*done)(ocl_cmd *);      /* frees the payload */
    cl_mem mem[2];                /* retained */
    void *ptr;
    const void *src;              /* clEnqueueSVMMemcpy's source */
    size_t off[2], size;
    size_t origin[2][3], region[3], pitch[2][2];   /* Rect forms: [buffer, host|dst][row, slice] */
    uint8_t pattern[128];
    cl_kernel kernel;             /* retained */
    void *launch;                 /* kernel launch payload */
    cl_ulong device_ns;           /* UMBRA_TIMING: a kernel's simulated duration */
    ocl_mapping *map;
};

/* The failure a kernel of q left (UMBRA_KERNEL_FAULT=continue), reported once by the next
 * synchronising call: CL_OUT_OF_RESOURCES, or CL_SUCCESS if none. */
cl_int ocl_queue_take_failure(cl_command_queue q);

/* ---- objects: ocl_objects.c ---- */
/* Objects' memory is never returned to the system: the ICD loader reads the dispatch pointer of
 * any handle it is given, released ones included, so a released object keeps a valid header and
 * its block is reused for a later object of the same size. */
void *ocl_obj_alloc(size_t size);
void ocl_obj_free(void *obj);
void ocl_register(void *obj, ocl_kind kind);
void ocl_unregister(void *obj);
bool ocl_valid(const void *obj, ocl_kind kind);   /* a live object of this kind */
bool ocl_valid_locked(const void *obj, ocl_kind kind);   /* the same, for a caller holding ocl_lock */
void ocl_retain(void *obj);
bool ocl_release_last(void *obj);   /* drops a reference; true when it was the last */
void ocl_free_object(void *obj);    /* the kind's destructor (after the last release) */
uint64_t ocl_mem_new_serial(void);  /* the next cl_mem serial (never 0) */
cl_int ocl_info(size_t size, void *value, size_t *ret, const void *src, size_t n);
cl_platform_id ocl_platform(void);
cl_int ocl_add_release_callback(ocl_release_callback **list, const ocl_release_callback *c);
void ocl_run_release_callbacks(cl_context c, ocl_release_callback **list);
cl_device_id ocl_device(void);
cl_ulong ocl_device_max_alloc(void);
#define OCL_BASE_ADDR_ALIGN_BITS 2048u   /* CL_DEVICE_MEM_BASE_ADDR_ALIGN (sub-buffer origins) */

/* ---- the OpenCL the platform reports: ocl_features.c and these constants (the one place) ----
 * CL_PLATFORM_VERSION and CL_DEVICE_VERSION are OCL_VERSION_STRING; OCL_VERSION is that version
 * as __OPENCL_VERSION__ spells it (300 for 3.0). */
#define OCL_VERSION_MAJOR 3
#define OCL_VERSION_MINOR 0
#define OCL_VERSION (OCL_VERSION_MAJOR * 100 + OCL_VERSION_MINOR * 10)
#define OCL_NUMERIC_VERSION CL_MAKE_VERSION(OCL_VERSION_MAJOR, OCL_VERSION_MINOR, 0)
/* No release number after the name (CL_DRIVER_VERSION has it): programs find the version by
 * searching the string for "1.0" or "1.1" (the Khronos SDK's multi-device sample does), which
 * "umbra 0.1.0" holds. */
#define OCL_VERSION_STRING "OpenCL 3.0 umbra"
#define OCL_OPENCL_C_VERSION_STRING "OpenCL C 1.2 "   /* the highest OpenCL C the device fully supports */
/* ocl_amd.c: the names the platform reports (umbra's, or ROCm's with UMBRA_IDENTITY=rocm) and
 * AMD's device attribute queries (*found false: not one of them, or not ROCm's identity) */
const char *ocl_platform_name(void);
const char *ocl_platform_vendor(void);
const char *ocl_device_vendor(void);
const char *ocl_device_name(void);
cl_int ocl_amd_device_info(cl_device_info param, size_t size, void *value, size_t *ret, bool *found);
cl_int ocl_extensions_string(size_t size, void *value, size_t *ret);
cl_int ocl_extensions_with_version(size_t size, void *value, size_t *ret);
cl_int ocl_opencl_c_features(size_t size, void *value, size_t *ret);
cl_int ocl_opencl_c_all_versions(size_t size, void *value, size_t *ret);
bool ocl_options_has(const char *options, const char *std);
#define OCL_CL_EXT_MAX 1024
#define OCL_COMPILER_ARGS_MAX 8
uint32_t ocl_compiler_args(const char *options, const char **args, char *buf);

/* ---- events and queues: ocl_queue.c ---- */
cl_event ocl_event_new(cl_context ctx, cl_command_queue q, cl_command_type type);
cl_int ocl_event_status(cl_event ev);
cl_int ocl_check_wait_list(cl_command_queue q, cl_uint n, const cl_event *list);
/* Queue a command built by the caller; on error the command is freed. */
cl_int ocl_enqueue(cl_command_queue q, ocl_cmd *c, cl_command_type type, cl_uint nwait,
                   const cl_event *wait, cl_event *out, bool blocking);
/* A map command (c->map the new mapping of m) registered and enqueued: the mapped pointer, or NULL
 * with *errcode_ret (ocl_mem.c). */
void *ocl_enqueue_map(cl_command_queue q, cl_mem m, ocl_cmd *c, cl_command_type type, cl_uint n,
                      const cl_event *list, cl_event *out, cl_bool blocking, cl_int *errcode_ret);
ocl_cmd *ocl_cmd_new(void);
void ocl_cmd_free(ocl_cmd *c);   /* releases what it holds */
cl_int ocl_wait_events(cl_uint n, const cl_event *list);

/* ---- simulated device time: ocl_timing.c ---- */
bool ocl_timing_on(void);   /* UMBRA_TIMING is set */
cl_ulong ocl_timing_cycles_to_ns(uint64_t cycles);
/* After a command ran (or did not: ran false), its simulated duration into its event. */
void ocl_timing_command_done(ocl_cmd *c, bool ran);
/* The profiling clock: host nanoseconds, or with UMBRA_TIMING simulated device time for START
 * and END. Caller holds ocl_lock, except for QUEUED. */
cl_ulong ocl_profile_time(cl_event ev, cl_profiling_info stage);

/* ---- memory: ocl_mem.c ---- */
void ocl_mem_destroy(cl_mem m);
/* CL_MEM_USE_HOST_PTR buffers: copy [off, off+size) between the host memory and the device. */
cl_int ocl_mem_host_sync(cl_mem m, size_t off, size_t size, bool to_host);
bool ocl_mem_overlap(cl_mem a, size_t aoff, cl_mem b, size_t boff, size_t size);

/* ---- shared virtual memory: ocl_svm.c ---- */
/* Is p inside a live SVM buffer? Its start and size if so (either may be NULL). */
bool ocl_svm_lookup(const void *p, void **base, size_t *size);
/* ---- images and samplers: ocl_image.c ---- */
void ocl_image_destroy(cl_mem m);
cl_mem_object_type ocl_image_type(cl_mem m);
/* CL_MEM_USE_HOST_PTR images: the whole image between the host memory (its pitches) and the device. */
cl_int ocl_image_host_sync(cl_mem m, bool to_host);
/* Unmapping an image's box: written back when it was mapped for writing. */
cl_int ocl_image_unmap(cl_mem m, const ocl_mapping *mp);
/* What a kernel's image argument holds: the address of the image's descriptor. */
uint64_t ocl_image_arg_addr(cl_mem m);
void ocl_sampler_destroy(cl_sampler s);

/* ---- programs and kernels ---- */
void ocl_program_destroy(cl_program p);
void ocl_kernel_destroy(cl_kernel k);

/* Helpers for the entry points. */
#define OCL_ERR(code) do { if (errcode_ret) *errcode_ret = (code); return NULL; } while (0)
#define OCL_OK(obj) do { if (errcode_ret) *errcode_ret = CL_SUCCESS; return (obj); } while (0)
#define OCL_INFO(type, v) do { type info_v_ = (v); return ocl_info(size, value, ret, &info_v_, sizeof info_v_); } while (0)
#define OCL_INFO_STR(s) do { const char *info_s_ = (s); return ocl_info(size, value, ret, info_s_, strlen(info_s_) + 1); } while (0)

#endif
