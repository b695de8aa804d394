/* The RDNA3 runtime: programs (loaded code objects) and dispatches, as the CP and SPI set them up.
 *
 * rdna3_program.c  load / find / disassemble a code object (umbra/rdna3.h)
 * rdna3_launch.c   one dispatch: kernarg segment, dispatch packet, LDS layout, scratch, launch state
 * rdna3_cc.c       `umbra cc`: clang-19 + ld.lld-19 against AMD's device libraries
 * rdna3_printf.c   printf records -> text
 *
 * The RDNA3 front end (src/isa/rdna3/wave.c) calls rdna3_kernel.init_wave (= rdna3_runtime_init_wave)
 * from its warp_init; rdna3_kernel.runtime points at the rdna3_dispatch_state.
 */
#ifndef UMBRA_RUNTIME_RDNA3_RUNTIME_H
#define UMBRA_RUNTIME_RDNA3_RUNTIME_H

#include "isa/rdna3/rdna3.h"
#include "isa/rdna3/wave.h"
#include "loader/amdgpu_co.h"
#include "runtime/rdna3_printf.h"
#include "umbra/rdna3.h"

struct umb_rdna3_program {
    umb_amdgpu_co co;
    rdna3_printf_table printf_formats;   /* amdhsa.printf, parsed */
    void *image;                /* owned copy of the file bytes (load_memory) */
    umb_device *dev;            /* NULL: parsed only (disassembly) */
    uint64_t base;              /* device address of vaddr 0 */
};

/* Apertures (Linux KFD values, spec §5). */
#define RDNA3_SHARED_APERTURE_BASE (1ull << 48)
#define RDNA3_PRIVATE_APERTURE_BASE (2ull << 48)

/* rsrc1 / rsrc2 fields used at launch */
#define RDNA3_RSRC2_ENABLE_PRIVATE_SEGMENT(r) ((r) & 1u)
#define RDNA3_RSRC2_USER_SGPR_COUNT(r) (((r) >> 1) & 31u)
#define RDNA3_RSRC2_TGID_X(r) (((r) >> 7) & 1u)
#define RDNA3_RSRC2_TGID_Y(r) (((r) >> 8) & 1u)
#define RDNA3_RSRC2_TGID_Z(r) (((r) >> 9) & 1u)
#define RDNA3_RSRC2_TG_SIZE(r) (((r) >> 10) & 1u)
#define RDNA3_RSRC2_VGPR_WORKITEM_ID(r) (((r) >> 11) & 3u)

/* What every wave of one dispatch needs to build its launch state (rdna3_kernel.runtime). */
typedef struct rdna3_dispatch_state {
    const umb_rdna3_kernel_info *ki;
    uint64_t entry_pc;
    uint64_t kernarg_addr, dispatch_ptr, queue_ptr, dispatch_id;
    uint64_t grid_size[3];      /* work-items per dimension */
    uint32_t group_size[3];     /* enqueued workgroup size */
    uint32_t ngroups[3];        /* workgroups per dimension (the last may be partial) */
    uint32_t wave_size, waves_per_wg;
    uint64_t scratch_base;      /* scratch of wave 0; wave n is at scratch_base + n*scratch_per_wave */
    uint64_t scratch_per_wave;  /* 0: no private segment */
    uint32_t scratch_per_lane;
    uint32_t mode;              /* initial MODE register */
} rdna3_dispatch_state;

/* Initialise one wave's registers as the hardware does at dispatch (rdna3_kernel.init_wave; the
 * front end calls it from warp_init). See docs/RDNA3.md. */
umb_status rdna3_runtime_init_wave(rdna3_kernel *k, umb_workgroup *wg, umb_warp *warp, rdna3_wave *w);

#endif
