/* umbra/device.h — the device: configuration, sparse 64-bit device memory, errors. */
#ifndef UMBRA_DEVICE_H
#define UMBRA_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every fallible call returns one of these; 0 is success. */
typedef enum umb_status {
    UMB_OK = 0,
    UMB_ERR_INVALID,      /* bad argument from the host program */
    UMB_ERR_NOMEM,        /* host out of memory */
    UMB_ERR_IO,           /* a file could not be read or written */
    UMB_ERR_FORMAT,       /* malformed input file (ELF, metadata, data, code object) */
    UMB_ERR_GUEST_FAULT,  /* the guest program faulted (see umb_device_last_error) */
    UMB_ERR_BUDGET,       /* the instruction budget ran out (runaway kernel) */
    UMB_ERR_DEADLOCK,     /* a barrier that can never complete */
    UMB_ERR_UNSUPPORTED,  /* an instruction or feature umbra does not implement */
} umb_status;

const char *umb_status_name(umb_status s);

/* The folder umbra's caches use unless told otherwise (the OpenCL compile cache, the translator's
 * machine code: umb_rdna3_dispatch.jit_cache_dir): $UMBRA_CACHE_DIR, else $XDG_CACHE_HOME/umbra,
 * else ~/.cache/umbra, created if missing. false (no cache) when UMBRA_CACHE_DIR=off, or no folder
 * can be named or made. */
bool umb_cache_default_dir(char *out, size_t len);

typedef struct umb_device umb_device;

/* How the simulated device is built and how launches run by default. */
typedef struct umb_device_config {
    uint32_t compute_units;     /* CUs that workgroups are dispatched to (default 1) */
    uint32_t host_threads;      /* host threads running workgroups in parallel (default 1) */
    uint32_t quantum;           /* instructions a warp runs before the scheduler moves on
                                   (default 1: round robin, like the Ventus golden model) */
    uint64_t max_instructions;  /* per-launch budget of warp-instructions; 0 = unlimited */
    uint64_t stall_limit;       /* "no forward progress": after this many warp-instructions
                                   in which no workgroup finished, no barrier completed and
                                   nothing was written to global or local memory, look for a
                                   proof that the launch can never progress (every resident wave
                                   back in a state it was in, with nothing written since: see
                                   src/core/sched.c); stop the launch only on that proof, never
                                   on the count alone; 0 = the default, 2^28 */
    bool progress;              /* print a progress line on stderr for long runs (if a terminal) */
    struct umb_timing *timing;  /* non-NULL: launches run on this timing model (umbra/timing.h) */
    uint64_t heap_base;         /* where umb_mem_alloc places allocations: [heap_base, heap_base +
                                   heap_size), page aligned; 0, 0 = the default [4 GiB, 128 TiB).
                                   A host runtime that hands device addresses to host code reserves
                                   this range in its own address space, so that no host pointer is
                                   ever a device address (the HIP runtime does) */
    uint64_t heap_size;
} umb_device_config;

#define UMB_DEFAULT_STALL_LIMIT (1ull << 28)
void umb_device_config_default(umb_device_config *cfg);

umb_status umb_device_create(const umb_device_config *cfg, umb_device **out);
void umb_device_destroy(umb_device *dev);
const umb_device_config *umb_device_get_config(const umb_device *dev);
void umb_device_set_config(umb_device *dev, const umb_device_config *cfg);

/* The last error of this device as a full human-readable message (file/line, PC, warp, lane,
 * address, disassembly as they apply). Empty string when there was none. */
const char *umb_device_last_error(const umb_device *dev);

/* ---- device memory: sparse 64-bit, pages exist only where mapped ---- */

/* Map [addr, addr+size) at a fixed address (page granular, zero-filled, lazily backed). */
umb_status umb_mem_map(umb_device *dev, uint64_t addr, uint64_t size);
/* Unmap [addr, addr+size); guest accesses there fault afterwards. */
umb_status umb_mem_unmap(umb_device *dev, uint64_t addr, uint64_t size);
/* Allocate size bytes from the device heap (aligned to align, a power of two >= 4096) and map it. */
umb_status umb_mem_alloc(umb_device *dev, uint64_t size, uint64_t align, uint64_t *addr_out);
/* Free an allocation made by umb_mem_alloc. */
umb_status umb_mem_free(umb_device *dev, uint64_t addr);
/* Host copies; every byte must be mapped. */
umb_status umb_mem_copy_to_device(umb_device *dev, uint64_t addr, const void *src, uint64_t size);
umb_status umb_mem_copy_from_device(umb_device *dev, uint64_t addr, void *dst, uint64_t size);
bool umb_mem_is_mapped(const umb_device *dev, uint64_t addr, uint64_t size);
/* Map host memory [host, host+size) into the device at [addr, addr+size) (all page aligned):
 * the device reads and writes the host bytes themselves (pinned, mapped host memory). The range
 * must not overlap the heap. umb_mem_unmap removes it; the host memory stays the caller's. */
umb_status umb_mem_map_host(umb_device *dev, uint64_t addr, void *host, uint64_t size);

#ifdef __cplusplus
}
#endif
#endif
