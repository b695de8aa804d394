/* umbra/vt_driver.h — a host API compatible with the Ventus driver (ventus-driver include/ventus.h,
 * spec/ventus.md §6), running kernels on umbra instead of the RTL or the golden model.
 *
 * Every function returns 0 on success and -1 on failure; vt_umbra_last_error() then says why.
 * Memory follows the Ventus pocl device: local memory 0x70000000-0x7fffffff (per workgroup), the
 * code window 0x80000000-0x8fffffff (mapped at vt_dev_open, where kernels are uploaded), buffers
 * bump-allocated page-aligned from 0x90000000. Launches run on vt_start; vt_ready_wait reports
 * how it ended. taskID / kernelID arguments are accepted for compatibility: umbra has one flat
 * address space (no page tables), so they select nothing.
 */
#ifndef UMBRA_VT_DRIVER_H
#define UMBRA_VT_DRIVER_H

#include <stdint.h>
#include <stdio.h>

#include "umbra/device.h"
#include "umbra/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void *vt_device_h;

/* Launch parameters as the Ventus driver takes them (all 64-bit). */
struct meta_data {
    uint64_t kernel_id;
    uint64_t kernel_size[3];    /* workgroups in x, y, z */
    uint64_t wf_size;           /* threads per warp */
    uint64_t wg_size;           /* warps per workgroup */
    uint64_t metaDataBaseAddr;  /* the 64-byte kernel metadata block (CSR_KNL) */
    uint64_t ldsSize;           /* local memory bytes per workgroup */
    uint64_t pdsSize;           /* private memory bytes per thread */
    uint64_t sgprUsage;
    uint64_t vgprUsage;
    uint64_t pdsBaseAddr;       /* private memory base (CSR_PDS) */
};

/* Buffer types (BUF_TYPE of vt_buf_alloc): recorded, every buffer is read-write. */
enum { VT_BUF_RW = 0, VT_BUF_RO = 1, VT_BUF_WO = 2 };

#define VT_CODE_BASE 0x80000000ull
#define VT_CODE_SIZE 0x10000000ull
#define VT_BUF_BASE 0x90000000ull

int vt_dev_open(vt_device_h *hdevice);
int vt_dev_close(vt_device_h hdevice);

/* Page-table roots of a task: nothing to build on umbra's flat memory; checks the handle. */
int vt_root_mem_alloc(vt_device_h hdevice, int taskID);
int vt_root_mem_free(vt_device_h hdevice, int taskID);

/* Allocate size bytes (rounded up to 4 KiB pages) at the next free address from 0x90000000. */
int vt_buf_alloc(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, int BUF_TYPE,
                 uint64_t taskID, uint64_t kernelID);
/* Free the buffer at *vaddr; with vaddr NULL (or *vaddr 0) free every buffer. */
int vt_buf_free(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, uint64_t taskID, uint64_t kernelID);
/* Free the one buffer at *vaddr. */
int vt_one_buf_free(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, uint64_t taskID, uint64_t kernelID);

int vt_copy_to_dev(vt_device_h hdevice, uint64_t dev_vaddr, const void *src, uint64_t size,
                   uint64_t taskID, uint64_t kernelID);
int vt_copy_from_dev(vt_device_h hdevice, uint64_t dev_vaddr, void *dst, uint64_t size,
                     uint64_t taskID, uint64_t kernelID);

/* Run a kernel: the crt at the uploaded program's entry (0x80000000) starts every warp. */
int vt_start(vt_device_h hdevice, void *metaData, uint64_t taskID);
/* The result of the last vt_start (the simulation has finished when vt_start returns). */
int vt_ready_wait(vt_device_h hdevice, uint64_t timeout);

/* Upload a kernel: an ELF image (its PT_LOAD segments), or raw code placed at 0x80000000. */
int vt_upload_kernel_bytes(vt_device_h hdevice, const void *content, uint64_t size, int taskID);
int vt_upload_kernel_file(vt_device_h hdevice, const char *filename, int taskID);

/* Statistics of every launch so far, human readable. */
int vt_dump_perf(vt_device_h hdevice, FILE *stream);

/* ---- umbra extensions ---- */

/* The message of the last failure of this device ("" if none). */
const char *vt_umbra_last_error(vt_device_h hdevice);
/* Address of a symbol of the uploaded ELF (the kernel entry for the metadata block). */
int vt_umbra_kernel_symbol(vt_device_h hdevice, const char *name, uint64_t *addr);
/* Commit trace of the following launches (golden-model .log format), NULL to stop. */
int vt_umbra_set_trace(vt_device_h hdevice, FILE *trace);
/* Instruction budget per launch (0 = unlimited): a runaway kernel fails instead of hanging. */
int vt_umbra_set_max_instructions(vt_device_h hdevice, uint64_t n);
/* Accumulated statistics. */
int vt_umbra_stats(vt_device_h hdevice, umb_stats *out);

#ifdef __cplusplus
}
#endif
#endif
