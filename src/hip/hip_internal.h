/* umbra's HIP runtime (libamdhip64.so.5): what its files share.
 *
 * A client of libumbra through the platform layer (src/platform), beside the OpenCL platform:
 * the device comes from the same UMBRA_* environment, launches go through plat_run, HIP streams
 * are plat_streams. The API types and prototypes are Debian's HIP 5.2 headers themselves, so
 * every entry point has exactly the signature programs were compiled against.
 *
 *   hip_runtime.c    the runtime's one instance, device properties and attributes, errors
 *   hip_memory.c     device, pinned, registered and managed memory; copies and fills
 *   hip_module.c     fat binaries, offload bundles, code objects, kernels and variables
 *   hip_launch.c     launch configurations, kernel launches, occupancy, function attributes
 *   hip_stream.c     streams, events, callbacks and the null stream's rules
 *   hip_image.c      arrays, texture and surface objects (on the platform layer's images)
 *   hip_graph.c      graphs, executable graphs and stream capture
 *   hip_texref.c     texture references (`texture<>` variables) and their bindings
 *   hip_mempool.c    memory pools of stream-ordered allocation
 *   hip_vmm.c        virtual memory management (reserve, create, map, access)
 *   hip_rtc.c        hipRTC on clang-19
 *   hip_unsupported.c  every other entry point of Debian's libamdhip64: hipErrorNotSupported
 */
#ifndef UMBRA_HIP_INTERNAL_H
#define UMBRA_HIP_INTERNAL_H

#include <hip/hip_runtime_api.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "platform/platform.h"

#define HIP_EXPORT __attribute__((visibility("default")))

/* ---- the runtime: hip_runtime.c ---- */
typedef struct hip_alloc hip_alloc;

typedef struct hip_runtime {
    umb_platform plat;
    uint64_t va_base, va_size;    /* the host address range reserved for device memory */
    pthread_mutex_t lock;         /* registries: allocations, modules, functions, streams */
    hipStream_t null_stream;
    hipError_t sticky;            /* a kernel's failure: every later synchronising call returns it */
    hipDeviceProp_t props;
    hip_alloc *allocs;            /* sorted by base */
    size_t nallocs, cap;
    struct ihipStream_t *streams; /* every live stream but the null stream */
    struct ihipEvent_t *events;   /* every live event */
    struct hip_image_obj *images; /* arrays, texture and surface objects (hip_image.c) */
    struct texref_binding *texrefs; /* texture references' bindings (hip_texref.c) */
    struct module_texref *module_texrefs; /* hipModuleGetTexRef's references (hip_texref.c) */
    struct ihipMemPoolHandle_t *pools; /* live memory pools (hip_mempool.c; under `lock`) */
    struct hip_vmm *vmm;          /* virtual memory management (hip_vmm.c; under `lock`), or NULL */
    struct ihipMemPoolHandle_t *default_pool, *current_pool;
    uint64_t device_clock;        /* with a timing machine: simulated ns of the device's work so far
                                     (commands run one at a time, in the order the streams run them) */
    /* What hipDeviceProp_t.hdpMemFlushCntl / hdpRegFlushCntl point to: on a real card the host
       data path's flush registers, which a program writes to make its writes to device memory
       visible; umbra's device sees host writes at once, so writes here need do nothing */
    unsigned int hdp_mem_flush, hdp_reg_flush;
    uint32_t last_alloc_id;       /* the allocations' unique ids (hip_alloc.id) */
    /* graphs and stream capture (hip_graph.c): one lock for every graph, executable graph and
       capture sequence, the streams' and events' capture fields; taken before `lock`, never after */
    pthread_mutex_t graph_lock;
    struct ihipGraph *graphs;     /* every live graph (also those a child-graph node owns) */
    struct hipGraphExec *execs;   /* every live executable graph */
    struct hip_capture *captures; /* capture sequences begun and not ended */
    unsigned long long last_capture_id;
} hip_runtime;

/* The runtime, initialised on first use; NULL if the device could not be created (a message
 * was printed). */
hip_runtime *hip_rt(void);
/* Every API call's result passes through here: errors are remembered for hipGetLastError. */
hipError_t hip_ret(hipError_t e);
/* An error with umbra's explanation on stderr ("umbra hip: FUNCTION: why"). */
__attribute__((format(printf, 3, 4))) hipError_t hip_fail(hipError_t e, const char *fn, const char *fmt, ...);
hipError_t hip_status_error(umb_status st, const char *message);
void hip_set_sticky(hipError_t e);
hipError_t hip_sticky(void);

/* [addr, addr + size) lies in a loaded module's image (its code and its __device__ variables):
 * device memory the allocation registry does not hold (hip_module.c). */
bool hip_module_holds(uint64_t addr, uint64_t size);


/* Stream priorities as CLR numbers them (hipDeviceGetStreamPriorityRange: least, greatest) */
enum { HIP_STREAM_PRIORITY_HIGH = -1, HIP_STREAM_PRIORITY_LOW = 1 };

/* ---- memory: hip_memory.c ---- */
typedef enum hip_mem_kind { HIP_MEM_DEVICE = 1, HIP_MEM_HOST, HIP_MEM_REGISTERED, HIP_MEM_MANAGED } hip_mem_kind;

struct hip_alloc {
    uint64_t base, size;          /* device address range (for host kinds: the host address) */
    hip_mem_kind kind;
    unsigned flags;
    uint64_t map_base, map_size;  /* host kinds: the page-aligned range mapped into the device */
    uint32_t id;                  /* unique over the run (HIP_POINTER_ATTRIBUTE_BUFFER_ID) */
    struct hip_page_advice *advice; /* managed: what hipMemAdvise / hipMemPrefetchAsync said of each
                                       4 KiB page (NULL until the first), hipMemRangeGetAttribute */
    struct ihipMemPoolHandle_t *pool; /* the memory pool it came from (hipMallocAsync,
                                       hipMallocFromPoolAsync), or NULL (hip_mempool.c) */
};

/* ---- virtual memory management: hip_vmm.c ---- */
typedef struct hip_vmm hip_vmm;
/* Device addresses [base, base + size) (outside the device heap) for hipMemAddressReserve. */
bool hip_vmm_init(hip_runtime *rt, uint64_t base, uint64_t size);
/* [addr, addr + size) is mapped by hipMemMap. */
bool hip_vmm_holds(hip_runtime *rt, uint64_t addr, uint64_t size);

/* ---- memory pools: hip_mempool.c ---- */
/* An allocation from pool (at ptr, size bytes) is made / freed: the pool's counters follow. Under
 * rt->lock. */
void hip_pool_charge(struct ihipMemPoolHandle_t *pool, uint64_t size);
void hip_pool_release(struct ihipMemPoolHandle_t *pool, uint64_t size);
/* The device's current pool (its default pool until hipDeviceSetMemPool; NULL on host OOM). */
struct ihipMemPoolHandle_t *hip_pool_current(hip_runtime *rt);

/* A copy of the allocation holding p (any kind) in *out; false if the runtime knows none. The
 * copy's `advice` may be freed once the lock is released: not to be followed. */
bool hip_alloc_lookup(hip_runtime *rt, const void *p, hip_alloc *out);

/* p lies in the device heap (device allocations, module images); p is host memory the runtime
 * knows nothing of (not pinned, registered or managed); the bytes from p to the end of the
 * allocation holding it (UINT64_MAX: no allocation the runtime knows holds it). */
bool hip_in_device_heap(const hip_runtime *rt, const void *p);
bool hip_pageable_host(hip_runtime *rt, const void *p);
uint64_t hip_alloc_room(hip_runtime *rt, const void *p);

/* A device allocation of size bytes charged to pool (NULL: none); hipMallocAsync's and
 * hipMallocFromPoolAsync's. */
hipError_t hip_pool_alloc(hip_runtime *rt, void **ptr, size_t size, struct ihipMemPoolHandle_t *pool, const char *api);

/* A 2D copy between any two kinds of memory on stream s (async: returns once enqueued). */
hipError_t hip_copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                      hipMemcpyKind kind, hipStream_t s, bool async, const char *api);

/* ---- arrays: hip_image.c ---- */
/* The device address of byte off[0] of row off[1] of slice off[2] of array a, its row and slice
 * pitches and pixel size, after checking that the region of ext[0] bytes, ext[1] rows and ext[2]
 * slices lies inside it (else hipErrorInvalidValue with a message). */
hipError_t hip_array_region(hip_runtime *rt, const hipArray *a, const size_t off[3], const size_t ext[3], uint8_t **at,
                            size_t *pitch, size_t *slice, size_t *elem, const char *api);

/* ---- streams: hip_stream.c ---- */
struct ihipStream_t {
    plat_stream *ps;
    unsigned flags;               /* hipStreamDefault or hipStreamNonBlocking */
    int priority;
    bool is_null;
    struct ihipStream_t *next;    /* the runtime's list */
    /* Stream capture (hip_graph.c, under its lock): the capture sequence the stream takes part in
       (0: none) and the nodes its next captured operation depends on */
    unsigned long long capture_id;
    hipGraphNode_t *cap_deps;
    size_t ncap_deps, cap_deps_cap;
    /* hipExtStreamCreateWithCUMask: the mask as given (bit i: compute unit i as the device reports
       them, multiProcessorCount) and as the device's CUs (NULL: every CU) */
    uint32_t *cu_mask, *cu_mask_device;
    uint32_t cu_mask_words, cu_mask_device_words;
};

struct ihipEvent_t {
    unsigned flags;
    plat_stream *ps;              /* where the last record was enqueued (retained), or NULL */
    uint64_t seq;                 /* its marker's sequence number there */
    uint64_t time_ns;             /* when the marker ran: host ns, or the simulated device clock */
    uint64_t gen;                 /* records so far */
    struct ihipEvent_t *next;
    /* recorded in a capturing stream (hip_graph.c, under its lock): the capture and the nodes the
       record stood after */
    unsigned long long capture_id;
    hipGraphNode_t *cap_nodes;
    size_t ncap_nodes;
};

/* A command of a HIP stream: embeds plat_cmd first. */
typedef struct hip_cmd {
    plat_cmd pc;
    hipStream_t stream;
    void (*exec)(struct hip_cmd *c);
    void *payload;
    void (*free_payload)(void *payload);
    hipError_t result;
    hipError_t *sync_result;      /* a synchronous caller's: result is copied there */
} hip_cmd;

/* The stream a call names (NULL or hipStreamPerThread: the null stream); NULL if invalid. */
hipStream_t hip_stream_resolve(hip_runtime *rt, hipStream_t s);
/* Enqueue exec(c) on stream s with the null stream's implicit ordering. Returns the sequence
 * number; *out (if not NULL) gets the command (valid until it completes). */
uint64_t hip_enqueue(hip_runtime *rt, hipStream_t s, hip_cmd *c);
hip_cmd *hip_cmd_new(void (*exec)(hip_cmd *), void *payload, void (*free_payload)(void *));
/* Enqueue and wait (the synchronous API calls): returns the command's result. */
hipError_t hip_run_sync(hip_runtime *rt, hipStream_t s, hip_cmd *c);
hipError_t hip_sync_all(hip_runtime *rt);   /* every stream drained; the sticky error */

/* Make stream s wait for position seq of ps (a marker command); hipErrorOutOfMemory if it cannot. */
hipError_t hip_stream_wait_position(hip_runtime *rt, hipStream_t s, plat_stream *ps, uint64_t seq);
/* hipStreamWaitEvent without the capture rules and the handle checks. */
hipError_t hip_stream_wait_event(hip_runtime *rt, hipStream_t s, hipEvent_t e);
bool hip_event_valid(hip_runtime *rt, hipEvent_t e);

/* ---- copies and fills: hip_memory.c ---- */
typedef struct hip_copy_job {
    uint8_t *dst;
    const uint8_t *src;
    size_t dpitch, spitch, dslice, sslice;   /* bytes between rows and between slices */
    size_t width, height, depth;              /* bytes per row, rows, slices */
    /* fills */
    bool fill;
    uint8_t pattern[4];
    uint32_t pattern_size;
} hip_copy_job;

/* hip_cmd.exec of a copy or fill: its payload is a hip_copy_job. */
void hip_copy_exec(hip_cmd *c);
/* hipMemcpy3D's parameters as a job (validated). */
hipError_t hip_copy3d_job(const struct hipMemcpy3DParms *p, hip_copy_job *out, const char *api);
/* A fill of depth slices of height rows of width elements of psize bytes (validated). */
hipError_t hip_fill_job(void *dst, size_t pitch, size_t width, size_t height, size_t depth, size_t slice, uint32_t value,
                        uint32_t psize, hip_copy_job *out, const char *api);

/* ---- modules and kernels: hip_module.c ---- */
struct ihipModule_t;
struct ihipModuleSymbol_t {
    struct ihipModule_t *module;
    char *name;                   /* the kernel's symbol (mangled) */
    const umb_rdna3_kernel_info *ki;   /* once the module is loaded */
    struct ihipModuleSymbol_t *next;
};

/* The kernel a host stub (or hipFunction_t) names, its module loaded. */
hipError_t hip_function_for_host(hip_runtime *rt, const void *host_fn, hipFunction_t *out, const char *api);
hipError_t hip_function_ready(hip_runtime *rt, hipFunction_t f, const char *api);
const umb_rdna3_program *hip_function_program(hipFunction_t f);
/* Bytes [offset, offset + count) of the `__device__` variable whose host shadow is symbol: their
 * device address in *addr (hip_memory.c), or the error with a message. */
hipError_t hip_symbol_range(const void *symbol, size_t count, size_t offset, uint8_t **addr, const char *api);
/* A `__device__` variable by its host shadow: device address and size. */
hipError_t hip_symbol_lookup(hip_runtime *rt, const void *host_var, uint64_t *addr, size_t *size, const char *api);
/* The driver API's element description (HIP_AD_FORMAT_*, 1, 2 or 4 channels) as a channel format
 * descriptor; false for anything else (hip_image.c). */
bool hip_driver_channel_desc(hipArray_Format format, unsigned channels, hipChannelFormatDesc *cd);
/* A module is being unloaded: its texture references (hipModuleGetTexRef) are unbound and no
 * longer write its memory; the host structs stay, so that late calls fail instead of touching
 * freed memory (hip_texref.c). */
void hip_texref_forget_module(hip_runtime *rt, hipModule_t mod);

/* ---- launches: hip_launch.c ---- */
typedef struct hip_launch_params {
    hipFunction_t f;
    dim3 grid, block;             /* blocks in the grid, threads in a block */
    size_t shared;                /* dynamic shared memory */
    void **args;                  /* one pointer per explicit argument */
    const uint8_t *arg_buffer;    /* or: the packed kernarg bytes (hipModuleLaunchKernel's extra) */
    size_t arg_buffer_size;
    bool cooperative;
    hipEvent_t start, stop;       /* hipExtLaunchKernel, hipExtModuleLaunchKernel */
} hip_launch_params;

hipError_t hip_launch(hip_runtime *rt, const hip_launch_params *p, hipStream_t stream, const char *api);
/* The launch's command (configuration checked, arguments copied), not enqueued. */
hipError_t hip_launch_cmd(hip_runtime *rt, const hip_launch_params *p, const char *api, hip_cmd **out);
/* hipModuleLaunchKernel's `extra` array into p's argument buffer. */
hipError_t hip_launch_extra(void **extra, hip_launch_params *p, const char *api);
/* Resident workgroups of f per compute unit at this block size and dynamic LDS. */
uint32_t hip_blocks_per_cu(hipFunction_t f, uint32_t block_threads, size_t dynamic_lds);

/* The simulated device clock: advance it by a command's duration (timing machines only). */
void hip_clock_advance(hip_runtime *rt, uint64_t ns);
uint64_t hip_clock_now(hip_runtime *rt);
/* Enqueue hipEventRecord's marker (hipExtLaunchKernel's start and stop events). */
hipError_t hip_event_record(hip_runtime *rt, hipEvent_t e, hipStream_t s, const char *api);
/* ---- graphs and stream capture: hip_graph.c ---- */
/* s takes part in a capture sequence (active or invalidated): its work is recorded, not run. */
bool hip_capturing(hipStream_t s);
/* Record a launch / a copy or fill as a node of s's capture (sync: the call was a synchronous one,
 * which a capture refuses and which invalidates it). */
hipError_t hip_capture_launch(hip_runtime *rt, hipStream_t s, const hip_launch_params *p, const char *api);
hipError_t hip_capture_copy(hip_runtime *rt, hipStream_t s, const hip_copy_job *j, bool sync, const char *api);
/* Record hipStreamAddCallback's command as a host node (the node owns c's payload; c is freed). */
hipError_t hip_capture_host_cmd(hip_runtime *rt, hipStream_t s, hip_cmd *c, const char *api);
/* hipEventRecord / hipStreamWaitEvent on a stream taking part in a capture, or waiting for an
 * event recorded in one: the capture's rules. *handled false: not a capture matter. */
hipError_t hip_capture_event_record(hip_runtime *rt, hipStream_t s, hipEvent_t e, bool *handled);
hipError_t hip_capture_wait_event(hip_runtime *rt, hipStream_t s, hipEvent_t e, bool *handled);
/* A call that waits for s (or, s NULL, for the device): refused while s (any stream) captures,
 * and the capture invalidated, as CUDA and CLR do; hipSuccess otherwise. */
hipError_t hip_capture_forbids_sync(hipStream_t s, const char *api);
/* The event is being destroyed / the stream too: forget what capture knows of it. */
void hip_capture_forget_event(hipEvent_t e);
void hip_capture_forget_stream(hipStream_t s);
#endif
