/* One RDNA3 dispatch, set up the way the ROCm runtime and the command processor do it:
 *
 *   device memory   [dispatch packet 64 B][queue 256 B][multi-grid sync 64 B][kernarg segment]   one allocation
 *                   [scratch: one slice per wave of the grid]              if the kernel has scratch
 *   LDS             [group_segment_fixed_size][__local args, each aligned] per workgroup
 *
 * The kernarg segment holds the explicit arguments at their metadata offsets and every hidden
 * argument the metadata lists (COV5: block counts = full groups, group sizes, remainders, global
 * offsets, grid dims, ...). Then the core runs the workgroups; each wave's registers come from
 * rdna3_runtime_init_wave.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/guest_text.h"
#include "isa/rdna3/gws.h"
#include "isa/rdna3/translate.h"
#include "runtime/rdna3_jit_cache.h"
#include "runtime/rdna3_hostcall.h"
#include "runtime/rdna3_runtime.h"
#include "timing/timing.h"
#include "umbra/timing.h"


#define LAUNCH_HDR_SIZE 512u       /* dispatch packet + queue + multi-grid sync, before the kernarg segment */
#define MG_INFO_OFFSET 320u        /* the multi-grid sync block of a cooperative launch (mg_info_at) */
#define MAX_SCRATCH_BYTES (8ull << 30)

typedef struct launch_plan {
    const umb_rdna3_kernel_info *ki;
    char name[UMB_GUEST_TEXT_MAX];   /* the kernel's name as messages show it (escaped) */
    uint64_t global[3], offset[3];
    uint32_t local[3], ngroups[3], full[3], rem[3];
    uint32_t work_dim;
    uint32_t lds_size, dynamic_lds;
    uint32_t *cus, ncus;             /* the CUs the CU mask enables (NULL: every CU) */
    uint8_t kernarg[1u << 16];
} launch_plan;

__attribute__((format(printf, 3, 4))) static umb_status bad(umb_device *dev, umb_status st, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    umb_device_set_error(dev, "%s", msg);
    return st;
}

/* Grid and workgroup sizes: 1..3 dimensions, partial last groups allowed. */
static umb_status plan_sizes(umb_device *dev, const umb_rdna3_dispatch *d, launch_plan *pl)
{
    const umb_rdna3_kernel_info *ki = pl->ki;
    if (d->work_dim < 1 || d->work_dim > 3)
        return bad(dev, UMB_ERR_INVALID, "kernel %s: work_dim %u (must be 1, 2 or 3)", pl->name, d->work_dim);
    pl->work_dim = d->work_dim;
    bool choose = !d->local_size[0] && !d->local_size[1] && !d->local_size[2];
    uint64_t items = 1;
    for (uint32_t i = 0; i < 3; i++) {
        bool used = i < d->work_dim;
        pl->global[i] = used ? d->global_size[i] : 1;
        pl->offset[i] = used ? d->global_offset[i] : 0;
        uint32_t l = used ? d->local_size[i] : 1;
        if (choose) l = i == 0 ? (pl->global[0] < 64 ? (uint32_t)pl->global[0] : 64u) : 1u;
        pl->local[i] = l;
        if (pl->global[i] == 0 || pl->global[i] > 0xffffffffu)
            return bad(dev, UMB_ERR_INVALID, "kernel %s: global size %llu in dimension %u (must be 1..2^32-1)",
                       pl->name, (unsigned long long)pl->global[i], i);
        if (l == 0 || l > 1024)
            return bad(dev, UMB_ERR_INVALID, "kernel %s: local size %u in dimension %u (must be 1..1024)", pl->name, l, i);
        pl->full[i] = (uint32_t)(pl->global[i] / l);
        pl->rem[i] = (uint32_t)(pl->global[i] % l);
        pl->ngroups[i] = pl->full[i] + (pl->rem[i] != 0);
        items *= l;
    }
    if ((uint64_t)pl->ngroups[0] * pl->ngroups[1] > (1ull << 40) / pl->ngroups[2])
        return bad(dev, UMB_ERR_INVALID, "kernel %s: %u x %u x %u workgroups are more than umbra runs (2^40)", pl->name,
                   pl->ngroups[0], pl->ngroups[1], pl->ngroups[2]);
    if (items > ki->max_flat_workgroup_size)
        return bad(dev, UMB_ERR_INVALID,
                   "kernel %s: workgroup of %llu work-items exceeds its .max_flat_workgroup_size %u",
                   pl->name, (unsigned long long)items, ki->max_flat_workgroup_size);
    return UMB_OK;
}

static void put(uint8_t *kernarg, uint32_t off, uint64_t v, uint32_t size)
{
    for (uint32_t i = 0; i < size; i++) kernarg[off + i] = (uint8_t)(v >> (8 * i));
}

/* Explicit arguments: values, buffer addresses, __local sizes (placed after the static LDS). */
static umb_status plan_args(umb_device *dev, const umb_rdna3_dispatch *d, launch_plan *pl)
{
    const umb_rdna3_kernel_info *ki = pl->ki;
    if (d->nargs != ki->nexplicit)
        return bad(dev, UMB_ERR_INVALID, "kernel %s takes %u arguments, %u given", pl->name, ki->nexplicit, d->nargs);
    /* no limit on the number of arguments but the kernarg segment's size (OpenCL's
     * CL_DEVICE_MAX_PARAMETER_SIZE of 1024 bytes allows 1024 char arguments) */
    if (ki->kernarg_segment_size > sizeof pl->kernarg)
        return bad(dev, UMB_ERR_UNSUPPORTED, "kernel %s: kernarg segment of %u bytes (umbra supports %zu)", pl->name,
                   ki->kernarg_segment_size, sizeof pl->kernarg);
    uint64_t lds = ki->group_segment_fixed_size;
    for (uint32_t i = 0; i < ki->nexplicit; i++) {
        const umb_rdna3_arg_info *a = &ki->args[i];
        const umb_rdna3_arg *v = &d->args[i];
        switch (a->kind) {
        case UMB_RDNA3_ARG_DYNAMIC_SHARED_POINTER: {
            uint32_t align = a->pointee_align > 4 ? a->pointee_align : 4;
            lds = (lds + align - 1) / align * align;
            if (v->size == 0)
                return bad(dev, UMB_ERR_INVALID, "kernel %s: __local argument %u needs a size in bytes", pl->name, i);
            put(pl->kernarg, a->offset, lds, 4);
            lds += v->size;
            break;
        }
        case UMB_RDNA3_ARG_BY_VALUE:
        case UMB_RDNA3_ARG_GLOBAL_BUFFER:
        case UMB_RDNA3_ARG_IMAGE:     /* the address of the image's descriptor (T# and metadata) */
        case UMB_RDNA3_ARG_SAMPLER:   /* the address of the sampler's S# */
            if (v->size != a->size || !v->value)
                return bad(dev, UMB_ERR_INVALID, "kernel %s: argument %u (%s%s%s) is %u bytes, %u given", pl->name, i,
                           a->type_name[0] ? a->type_name : umb_rdna3_value_kind_name(a->kind),
                           a->name[0] ? " " : "", a->name, a->size, v->size);
            memcpy(pl->kernarg + a->offset, v->value, a->size);
            break;
        default:
            return bad(dev, UMB_ERR_UNSUPPORTED, "kernel %s: argument %u is a %s, which umbra does not support",
                       pl->name, i, umb_rdna3_value_kind_name(a->kind));
        }
    }
    lds += d->dynamic_lds_size;
    if (lds > 65536)
        return bad(dev, UMB_ERR_INVALID, "kernel %s: %llu bytes of LDS (static %u + __local arguments + dynamic) exceed 64 KiB",
                   pl->name, (unsigned long long)lds, ki->group_segment_fixed_size);
    pl->lds_size = (uint32_t)lds;
    pl->dynamic_lds = (uint32_t)lds - ki->group_segment_fixed_size;
    return UMB_OK;
}

/* Buffers the runtime provides through hidden arguments (0: none); mg_info is
 * hidden_multigrid_sync_arg, 0 unless the launch is cooperative. */
typedef struct hidden_buffers {
    uint64_t queue, printf, hostcall, heap, mg_info;
} hidden_buffers;

/* Hidden arguments, each at the offset the metadata gives it. */
static void plan_hidden(launch_plan *pl, const hidden_buffers *hb)
{
    const umb_rdna3_kernel_info *ki = pl->ki;
    for (uint32_t i = ki->nexplicit; i < ki->nargs; i++) {
        const umb_rdna3_arg_info *a = &ki->args[i];
        uint64_t v = 0;
        switch (a->kind) {
        case UMB_RDNA3_ARG_HIDDEN_BLOCK_COUNT_X: case UMB_RDNA3_ARG_HIDDEN_BLOCK_COUNT_Y:
        case UMB_RDNA3_ARG_HIDDEN_BLOCK_COUNT_Z:
            v = pl->full[a->kind - UMB_RDNA3_ARG_HIDDEN_BLOCK_COUNT_X];
            break;
        case UMB_RDNA3_ARG_HIDDEN_GROUP_SIZE_X: case UMB_RDNA3_ARG_HIDDEN_GROUP_SIZE_Y:
        case UMB_RDNA3_ARG_HIDDEN_GROUP_SIZE_Z:
            v = pl->local[a->kind - UMB_RDNA3_ARG_HIDDEN_GROUP_SIZE_X];
            break;
        case UMB_RDNA3_ARG_HIDDEN_REMAINDER_X: case UMB_RDNA3_ARG_HIDDEN_REMAINDER_Y:
        case UMB_RDNA3_ARG_HIDDEN_REMAINDER_Z:
            v = pl->rem[a->kind - UMB_RDNA3_ARG_HIDDEN_REMAINDER_X];
            break;
        case UMB_RDNA3_ARG_HIDDEN_GLOBAL_OFFSET_X: case UMB_RDNA3_ARG_HIDDEN_GLOBAL_OFFSET_Y:
        case UMB_RDNA3_ARG_HIDDEN_GLOBAL_OFFSET_Z:
            v = pl->offset[a->kind - UMB_RDNA3_ARG_HIDDEN_GLOBAL_OFFSET_X];
            break;
        case UMB_RDNA3_ARG_HIDDEN_GRID_DIMS: v = pl->work_dim; break;
        case UMB_RDNA3_ARG_HIDDEN_DYNAMIC_LDS_SIZE: v = pl->dynamic_lds; break;
        case UMB_RDNA3_ARG_HIDDEN_PRIVATE_BASE: v = RDNA3_PRIVATE_APERTURE_BASE >> 32; break;
        case UMB_RDNA3_ARG_HIDDEN_SHARED_BASE: v = RDNA3_SHARED_APERTURE_BASE >> 32; break;
        case UMB_RDNA3_ARG_HIDDEN_QUEUE_PTR: v = hb->queue; break;
        case UMB_RDNA3_ARG_HIDDEN_PRINTF_BUFFER: v = hb->printf; break;
        case UMB_RDNA3_ARG_HIDDEN_HOSTCALL_BUFFER: v = hb->hostcall; break;
        case UMB_RDNA3_ARG_HIDDEN_HEAP_V1: v = hb->heap; break;
        case UMB_RDNA3_ARG_HIDDEN_MULTIGRID_SYNC_ARG: v = hb->mg_info; break;
        default: v = 0; break; /* default queue, completion action: none (null) */
        }
        put(pl->kernarg, a->offset, v, a->size < 8 ? a->size : 8);
    }
}

/* hsa_kernel_dispatch_packet_t, 64 bytes. */
static void fill_packet(uint8_t pkt[64], const launch_plan *pl, uint64_t kd_addr, uint64_t kernarg)
{
    memset(pkt, 0, 64);
    put(pkt, 0, 2u | 2u << 9 | 2u << 11, 2);   /* KERNEL_DISPATCH, system acquire/release fences */
    put(pkt, 2, pl->work_dim, 2);               /* setup.dimensions */
    for (int d = 0; d < 3; d++) {
        put(pkt, 4 + 2 * d, pl->local[d], 2);
        put(pkt, 12 + 4 * d, pl->global[d], 4);
    }
    put(pkt, 24, pl->ki->private_segment_fixed_size, 4);
    put(pkt, 28, pl->lds_size, 4);
    put(pkt, 32, kd_addr, 8);
    put(pkt, 40, kernarg, 8);
}

/* Scratch: one slice per wave of the grid, so host threads never share one. Pages are backed
 * only when touched. */
static umb_status plan_scratch(umb_device *dev, const char *name, rdna3_dispatch_state *ds, uint64_t nwaves,
                                uint64_t *base)
{
    const umb_rdna3_kernel_info *ki = ds->ki;
    uint32_t per_lane = ki->private_segment_fixed_size;
    if (ki->uses_dynamic_stack) per_lane += 16384;   /* unknown depth: a generous fixed stack */
    per_lane = (per_lane + 15u) & ~15u;
    *base = 0;
    if (!per_lane && !RDNA3_RSRC2_ENABLE_PRIVATE_SEGMENT(ki->kd.compute_pgm_rsrc2)) return UMB_OK;
    if (!per_lane) per_lane = 16;
    ds->scratch_per_lane = per_lane;
    ds->scratch_per_wave = ((uint64_t)per_lane * ds->wave_size + 255u) & ~255ull;
    uint64_t total = nwaves > MAX_SCRATCH_BYTES / ds->scratch_per_wave ? MAX_SCRATCH_BYTES + 1
                                                                         : ds->scratch_per_wave * nwaves;
    if (total > MAX_SCRATCH_BYTES)
        return bad(dev, UMB_ERR_INVALID, "kernel %s: %llu waves x %llu bytes of scratch exceed %llu GiB", name,
                   (unsigned long long)nwaves, (unsigned long long)ds->scratch_per_wave, MAX_SCRATCH_BYTES >> 30);
    umb_status st = umb_mem_alloc(dev, total, 4096, base);
    if (st) return bad(dev, st, "kernel %s: no device memory for %llu bytes of scratch", name, (unsigned long long)total);
    ds->scratch_base = *base;
    return UMB_OK;
}

/* How many workgroups of this kernel one CU holds at once (gfx1100 in CU mode: 2 SIMD32 with 16 wave
 * slots each; 1536 VGPRs per lane per SIMD in wave32, 768 in wave64, allocated in granules of 24
 * and 12, as LLVM's AMDGPU target describes gfx1100; 64 KiB of LDS). */
static uint32_t workgroups_per_cu(const umb_rdna3_kernel_info *ki, uint32_t waves_per_wg, uint32_t lds_size)
{
    bool w64 = ki->wavefront_size == 64;
    uint32_t granule = w64 ? 12u : 24u, file = w64 ? 768u : 1536u;
    uint32_t vgprs = ki->vgpr_count ? (ki->vgpr_count + granule - 1) / granule * granule : granule;
    uint32_t per_simd = file / vgprs < 16u ? file / vgprs : 16u;
    uint32_t n = 2u * per_simd / waves_per_wg;
    if (lds_size && 65536u / lds_size < n) n = 65536u / lds_size;
    return n ? n : 1u;
}

uint32_t umb_rdna3_workgroups_per_cu(const umb_rdna3_kernel_info *ki, uint32_t block_threads, uint32_t lds_bytes)
{
    if (!ki || !block_threads) return 0;
    uint32_t waves = (block_threads + ki->wavefront_size - 1) / ki->wavefront_size;
    if (waves > 32 || lds_bytes > 65536) return 0;
    return workgroups_per_cu(ki, waves, lds_bytes);
}

/* The modelled GPU's compute units: the timing model's machine when one is attached. */
static uint32_t device_cus(umb_device *dev)
{
    const umb_device_config *cfg = umb_device_get_config(dev);
    return cfg->timing ? umb_timing_compute_units(cfg->timing) : cfg->compute_units;
}

/* The dispatch's CU mask as the list of CUs it enables. */
static umb_status plan_cus(umb_device *dev, const umb_rdna3_dispatch *d, launch_plan *pl)
{
    if (!d->cu_mask || !d->cu_mask_words) return UMB_OK;
    uint32_t cus = device_cus(dev), n = 0;
    if (!(pl->cus = malloc(cus * sizeof *pl->cus))) return UMB_ERR_NOMEM;
    for (uint32_t c = 0; c < cus && c / 32 < d->cu_mask_words; c++)
        if ((d->cu_mask[c / 32] >> (c % 32)) & 1u) pl->cus[n++] = c;
    if (!n) return bad(dev, UMB_ERR_INVALID, "kernel %s: the CU mask enables none of the device's %u CUs", pl->name, cus);
    pl->ncus = n;
    return UMB_OK;
}

/* A cooperative launch: every workgroup must be resident at once, as its waves wait for each other
 * at the GWS barrier (the hardware runtime refuses a larger one: hipErrorCooperativeLaunchTooLarge). */
static umb_status check_cooperative(umb_device *dev, const launch_plan *pl, uint32_t waves_per_wg, uint64_t ngroups)
{
    uint32_t per_cu = workgroups_per_cu(pl->ki, waves_per_wg, pl->lds_size);
    uint32_t cus = pl->cus ? pl->ncus : device_cus(dev);   /* the modelled GPU's, or those the CU mask enables */
    if (ngroups > RDNA3_GWS_COUNTER_MASK + 1u)   /* ockl's grid sync: one wave per workgroup at one resource */
        return bad(dev, UMB_ERR_INVALID,
                   "kernel %s: cooperative launch of %llu workgroups: a GWS barrier's 12-bit counter counts at most "
                   "4096 waves", pl->name, (unsigned long long)ngroups);
    if (ngroups <= (uint64_t)per_cu * cus) return UMB_OK;
    return bad(dev, UMB_ERR_INVALID,
               "kernel %s: cooperative launch of %llu workgroups, but only %llu can be resident at once (%u per CU "
               "x %u CUs for workgroups of %u waves, %u VGPRs, %u bytes of LDS): every workgroup of a cooperative "
               "launch must be", pl->name, (unsigned long long)ngroups, (unsigned long long)per_cu * cus, per_cu, cus,
               waves_per_wg, pl->ki->vgpr_count, pl->lds_size);
}

/* The multi-grid sync block ockl reads through hidden_multigrid_sync_arg (its mg_info: the sync
 * words' address, grid id, number of grids, work-items of the grids before this one and of all
 * of them; then the sync words themselves), for one grid. */
static void mg_info_at(uint8_t out[64], uint64_t addr, const launch_plan *pl)
{
    memset(out, 0, 64);
    put(out, 0, addr + 32, 8);                 /* mgs: the two sync words at +32 */
    put(out, 8, 0, 4);                         /* grid_id */
    put(out, 12, 1, 4);                        /* num_grids */
    put(out, 16, 0, 8);                        /* prev_sum */
    put(out, 24, pl->global[0] * pl->global[1] * pl->global[2], 8);   /* all_sum */
}

static bool has_hidden(const umb_rdna3_kernel_info *ki, umb_rdna3_value_kind kind)
{
    for (uint32_t i = ki->nexplicit; i < ki->nargs; i++)
        if (ki->args[i].kind == kind) return true;
    return false;
}

/* The printf buffer of a kernel that prints: header {0 bytes used, size}, then room for records. */
static umb_status plan_printf(umb_device *dev, const char *name, const umb_rdna3_dispatch *d,
                              const umb_rdna3_kernel_info *ki, uint64_t *addr, uint32_t *size)
{
    *addr = 0, *size = 0;
    if (!has_hidden(ki, UMB_RDNA3_ARG_HIDDEN_PRINTF_BUFFER)) return UMB_OK;
    uint64_t bytes = d->printf_buffer_size ? d->printf_buffer_size : UMB_RDNA3_PRINTF_BUFFER_DEFAULT;
    if (bytes < RDNA3_PRINTF_HEADER || bytes > 0xffffffffu)
        return bad(dev, UMB_ERR_INVALID, "kernel %s: printf buffer of %llu bytes (must be 8 bytes to 4 GiB - 1)",
                   name, (unsigned long long)bytes);
    umb_status st = umb_mem_alloc(dev, bytes, 4096, addr);
    if (st) return bad(dev, st, "kernel %s: no device memory for a %llu-byte printf buffer", name,
                       (unsigned long long)bytes);
    uint32_t header[2] = { 0, (uint32_t)bytes };
    *size = (uint32_t)bytes;
    return umb_mem_copy_to_device(dev, *addr, header, sizeof header);
}

/* Read the records the kernel wrote and print them. */
static void flush_printf(umb_device *dev, const umb_rdna3_program *p, const umb_rdna3_dispatch *d,
                         const char *kernel, uint64_t addr, uint32_t size)
{
    uint32_t header[2];
    if (umb_mem_copy_from_device(dev, addr, header, sizeof header)) return;
    uint64_t bytes = (uint64_t)RDNA3_PRINTF_HEADER + header[0];
    if (bytes > size) bytes = size;
    uint8_t *buf = malloc(bytes);
    if (!buf || umb_mem_copy_from_device(dev, addr, buf, bytes)) {
        fprintf(stderr, "umbra: kernel %s: could not read the printf buffer\n", kernel);
        free(buf);
        return;
    }
    rdna3_printf_emit(&p->printf_formats, buf, bytes, kernel, d->printf_fn, d->printf_ctx);
    free(buf);
}

int umb_rdna3_jit_mode(const char *name)
{
    if (!name) return -1;
    if (!strcmp(name, "off")) return UMB_RDNA3_JIT_OFF;
    if (!strcmp(name, "auto")) return UMB_RDNA3_JIT_AUTO;
    if (!strcmp(name, "always")) return UMB_RDNA3_JIT_ALWAYS;
    return -1;
}

/* `auto` (docs/TRANSLATOR.md): a kernel's code is translated once the wave-instructions its
 * launches ran interpreted reach this many per byte of the code: about the translation's cost
 * (about 1 ms of one host thread per instruction, docs/PERFORMANCE.md) in interpreted work (30-70 M
 * wave-instructions a second), so code that runs long (a loop over a matrix per work-item, or
 * short launches repeated) is translated, once its interpreted time has paid for it, and code
 * that ends sooner never pays for it. The count is summed over the launches of the code (the
 * translation is asked at the start of the launch that finds it passed) and, within a launch,
 * round by round (the translation is asked mid-launch, on the translator thread, and the later
 * rounds run it). A translation in memory, or on disk once the count is reached, is used at once. */
#define JIT_AUTO_WORK_PER_BYTE 8192u
#define JIT_AUTO_DEFAULT_CODE_BYTES 4096u   /* when the code object gives no function size */

/* `auto`'s trigger on work for one launch (rdna3_jit_trigger, fired on a host thread running it) */
typedef struct launch_trigger {
    rdna3_jit_trigger t;
    umb_device *dev;
    rdna3_jit_request rq;
    _Atomic(const rdna3_jit_code *) *ticket;   /* what the firing got (released after the launch) */
    uint64_t work_before;                      /* run interpreted by earlier launches of the code */
    uint64_t work_at_fire;                     /* ... and by this one when it fired */
} launch_trigger;

/* Ask for the launch's translation on the translator thread; the next rounds use it once it is
 * published. A failure leaves the launch interpreted, as `auto` does at a launch's start. */
static void fire_translation(rdna3_jit_trigger *t, rdna3_kernel *k)
{
    launch_trigger *lt = (launch_trigger *)t;
    lt->work_at_fire = atomic_load_explicit(&t->work, memory_order_relaxed);
    rdna3_jit_result res;
    char err[512];
    if (!rdna3_jit_acquire(lt->dev, k, &lt->rq, &res, err, sizeof err) || !res.ticket) return;
    lt->ticket = res.ticket;
    atomic_store_explicit(&k->jit, res.ticket, memory_order_release);
}

static const char *jit_source_name(rdna3_jit_source s)
{
    return s == RDNA3_JIT_FROM_MEMORY ? "in memory"
           : s == RDNA3_JIT_FROM_DISK ? "from the disk cache"
           : s == RDNA3_JIT_BACKGROUND ? "translating in the background"
                                       : "translated";
}

/* The translation of k for the launch when d asks for it and nothing needs the interpreter (a
 * trace, a per-PC profile, waitcnt checking and the timing model see every instruction).
 * *out stays NULL when the launch runs in the interpreter. `always` translates before the launch
 * and fails it if it cannot; `auto` has new translations made on the device's translator thread
 * while the launch starts in the interpreter. Release *out with rdna3_jit_release after the
 * launch. */
static umb_status translate(umb_device *dev, const umb_rdna3_dispatch *d, const char *name, rdna3_kernel *k,
                            uint64_t entry_pc, uint32_t wave_size, uint64_t code_bytes,
                            _Atomic(const rdna3_jit_code *) **out, launch_trigger *lt)
{
    *out = NULL;
    if (d->jit == UMB_RDNA3_JIT_OFF) return UMB_OK;
    if (d->jit != UMB_RDNA3_JIT_AUTO && d->jit != UMB_RDNA3_JIT_ALWAYS)
        return bad(dev, UMB_ERR_INVALID, "kernel %s: unknown translator mode %u", name, d->jit);
    if (d->trace || d->pc_counts || d->check_waitcnt || umb_device_get_config(dev)->timing) return UMB_OK;
    bool always = d->jit == UMB_RDNA3_JIT_ALWAYS;
    if (!always && !rdna3_jit_available()) return UMB_OK;
    uint64_t min_work = (uint64_t)JIT_AUTO_WORK_PER_BYTE * (code_bytes ? code_bytes : JIT_AUTO_DEFAULT_CODE_BYTES);
    rdna3_jit_request rq = { .entry_pc = entry_pc, .wave_size = wave_size, .inline_ok = true,
                             .min_work = always ? 0 : min_work, .background = !always,
                             .disk_dir = d->jit_cache_dir };
    rdna3_jit_result res;
    char err[512];
    if (!rdna3_jit_acquire(dev, k, &rq, &res, err, sizeof err)) {
        if (!always) return UMB_OK;   /* the interpreter runs it */
        return bad(dev, UMB_ERR_UNSUPPORTED, "kernel %s: cannot translate: %s", name, err);
    }
    if (!res.ticket) {   /* auto, too little work yet: translate if the launch turns out long */
        *lt = (launch_trigger){ .dev = dev, .rq = rq, .work_before = res.work };
        lt->rq.min_work = 0;   /* (the trigger has counted up to it) */
        /* past min_work with no ticket: an earlier translation of this code failed, stay interpreted */
        lt->t.threshold = res.work < min_work ? min_work - res.work : UINT64_MAX;
        lt->t.fire = fire_translation;
        k->jit_trigger = &lt->t;
        return UMB_OK;
    }
    if (d->jit_log && res.source == RDNA3_JIT_BACKGROUND)
        fprintf(d->jit_log, "umbra: kernel %s (wave%u): %u instructions, %s, %.3f s (%.3f s CPU)\n", name,
                wave_size, res.insts, jit_source_name(res.source), res.seconds, res.cpu_seconds);
    else if (d->jit_log)
        fprintf(d->jit_log, "umbra: kernel %s (wave%u): %u instructions, %u inline, %s, %.3f s (%.3f s CPU)\n",
                name, wave_size, res.insts, res.inlined, jit_source_name(res.source), res.seconds, res.cpu_seconds);
    atomic_store_explicit(&k->jit, res.ticket, memory_order_release);
    *out = res.ticket;
    return UMB_OK;
}

static umb_status execute(umb_device *dev, const umb_rdna3_program *p, const umb_rdna3_dispatch *d,
                          launch_plan *pl, umb_stats *stats, uint64_t *allocs)
{
    const umb_rdna3_kernel_info *ki = pl->ki;
    rdna3_dispatch_state ds = { .ki = ki };
    ds.wave_size = ki->wavefront_size;
    uint32_t items = pl->local[0] * pl->local[1] * pl->local[2];
    ds.waves_per_wg = (items + ds.wave_size - 1) / ds.wave_size;
    uint64_t ngroups = (uint64_t)pl->ngroups[0] * pl->ngroups[1] * pl->ngroups[2];
    umb_status st;
    if (d->cooperative && (st = check_cooperative(dev, pl, ds.waves_per_wg, ngroups))) return st;

    uint64_t hdr;
    uint32_t ksize = (ki->kernarg_segment_size + 63u) & ~63u;
    st = umb_mem_alloc(dev, LAUNCH_HDR_SIZE + ksize + 64, 4096, &hdr);
    if (st) return bad(dev, st, "kernel %s: no device memory for the kernarg segment", pl->name);
    allocs[0] = hdr;
    ds.dispatch_ptr = hdr;
    ds.queue_ptr = hdr + 64;
    ds.kernarg_addr = hdr + LAUNCH_HDR_SIZE;
    ds.dispatch_id = 0;
    ds.entry_pc = p->base + ki->entry_vaddr;
    for (int i = 0; i < 3; i++) {
        ds.grid_size[i] = pl->global[i];
        ds.group_size[i] = pl->local[i];
        ds.ngroups[i] = pl->ngroups[i];
    }
    ds.mode = rdna3_mode_from_rsrc1(ki->kd.compute_pgm_rsrc1);
    if ((st = plan_scratch(dev, pl->name, &ds, ngroups * ds.waves_per_wg, &allocs[1]))) return st;
    uint32_t printf_size;
    if ((st = plan_printf(dev, pl->name, d, ki, &allocs[2], &printf_size))) return st;
    hidden_buffers hb = { .queue = ds.queue_ptr, .printf = allocs[2] };
    if (has_hidden(ki, UMB_RDNA3_ARG_HIDDEN_HEAP_V1) && (st = rdna3_device_heap(dev, &hb.heap)))
        return bad(dev, st, "kernel %s: no device memory for the device-malloc heap", pl->name);
    rdna3_hostcall *hc = NULL;
    if (has_hidden(ki, UMB_RDNA3_ARG_HIDDEN_HOSTCALL_BUFFER)) {
        /* one packet per wave slot of the device's CUs (the timing model's machine when it runs) */
        const umb_device_config *cfg = umb_device_get_config(dev);
        uint64_t slots = cfg->timing ? umb_timing_wave_slots(cfg->timing) : (uint64_t)cfg->compute_units * RDNA3_WAVE_SLOTS_PER_CU;
        uint32_t packets = rdna3_hostcall_packets(ngroups * ds.waves_per_wg, slots);
        if ((st = rdna3_hostcall_create(dev, pl->name, ds.wave_size, packets, d->printf_fn, d->printf_ctx, &hc)))
            return st;
        hb.hostcall = rdna3_hostcall_address(hc);
    }

    uint64_t mg = d->cooperative ? hdr + MG_INFO_OFFSET : 0;
    hb.mg_info = mg;
    plan_hidden(pl, &hb);
    uint8_t pkt[64], mg_info[64];
    fill_packet(pkt, pl, p->base + ki->kd_vaddr, ds.kernarg_addr);
    mg_info_at(mg_info, mg, pl);
    if ((st = umb_mem_copy_to_device(dev, ds.dispatch_ptr, pkt, sizeof pkt)) ||
        (mg && (st = umb_mem_copy_to_device(dev, mg, mg_info, sizeof mg_info))) ||
        (st = umb_mem_copy_to_device(dev, ds.kernarg_addr, pl->kernarg, ki->kernarg_segment_size))) {
        rdna3_hostcall_destroy(hc);
        return bad(dev, st, "kernel %s: could not write the kernarg segment", pl->name);
    }

    rdna3_kernel rk = {
        .dev = dev,
        .global = umb_device_memory(dev),
        .code_base = p->base,
        .code_size = p->co.image_size,
        .name = pl->name,
        .shared_base = RDNA3_SHARED_APERTURE_BASE,
        .private_base = RDNA3_PRIVATE_APERTURE_BASE,
        .lds_size = pl->lds_size,
        .scratch_per_lane = ds.scratch_per_lane,
        .alignment_mode = d->alignment_mode == UMB_RDNA3_ALIGN_DWORD ? 0u
                          : d->alignment_mode ? d->alignment_mode & 3u : 3u,
        .check_waitcnt = d->check_waitcnt,
        .trace = d->trace,
        .pc_counts = d->pc_counts,
        .runtime = &ds,
        .init_wave = rdna3_runtime_init_wave,
        .host = hc ? rdna3_hostcall_host(hc) : NULL,
    };
    umb_launch l = {
        .dev = dev,
        .fe = &rdna3_frontend,
        .kernel = &rk,
        .grid = { pl->ngroups[0], pl->ngroups[1], pl->ngroups[2] },
        .warps_per_wg = ds.waves_per_wg,
        .threads_per_warp = ds.wave_size,
        .kernel_name = pl->name,
        .concurrent_wgs = true,
        .all_resident = d->cooperative,
        .wgs_per_cu = workgroups_per_cu(ki, ds.waves_per_wg, pl->lds_size),
        .vgprs_per_warp = ki->vgpr_count, .sgprs_per_warp = ki->sgpr_count, .lds_per_wg = pl->lds_size,
        .wgp_mode = (ki->kd.compute_pgm_rsrc1 >> 29) & 1u,   /* WGP_MODE: what the hardware reads */
        .cus = pl->cus, .ncus = pl->ncus,
    };
    /* A cooperative launch owns the GWS; resource 0 counts a barrier of all its workgroups (minus
     * one, as the ds_gws_init ROCm's runtime issues before such a launch), the one ockl's
     * __ockl_grid_sync uses. */
    if (d->cooperative) {
        if (!(rk.gws = rdna3_gws_create())) {
            rdna3_hostcall_destroy(hc);
            return bad(dev, UMB_ERR_NOMEM, "kernel %s: no host memory for GWS", pl->name);
        }
        rdna3_gws_init(rk.gws, 0, (uint32_t)(ngroups - 1));
    }
    /* decode once per launch: the instruction cache is shared by every wave and host thread */
    if ((st = rdna3_kernel_prepare(&rk))) {
        rdna3_hostcall_destroy(hc);
        rdna3_gws_destroy(rk.gws);
        return bad(dev, st, "kernel %s: no memory for the instruction cache", pl->name);
    }
    /* where LDS loads may run ahead of their turns (NULL on host OOM: they keep their turns) */
    if (rk.lds_size) rk.lds_quiet = rdna3_lds_quiet_map(&rk, ds.entry_pc);
    _Atomic(const rdna3_jit_code *) *jit = NULL;
    launch_trigger trigger = { 0 };
    if ((st = translate(dev, d, pl->name, &rk, ds.entry_pc, ds.wave_size, ki->code_size, &jit, &trigger))) {
        rdna3_kernel_release(&rk);
        rdna3_hostcall_destroy(hc);
        rdna3_gws_destroy(rk.gws);
        return st;
    }
    if (jit || rk.jit_trigger) l.fe = &rdna3_frontend_jit;
    bool ready = jit && atomic_load(jit);
    st = umb_launch_run(&l, stats);
    if (jit && !ready && d->jit_log)
        fprintf(d->jit_log, "umbra: kernel %s: %s\n", pl->name,
                atomic_load(jit) ? "translated in the background while it ran; its later rounds ran translated"
                                 : "ran in the interpreter (its translation was not ready)");
    if (trigger.ticket && d->jit_log)   /* (the launch's host threads have ended: no race on trigger) */
        fprintf(d->jit_log, "umbra: kernel %s: translation asked after %" PRIu64 " wave-instructions ran "
                "interpreted (%" PRIu64 " by earlier launches); %s\n", pl->name,
                trigger.work_before + trigger.work_at_fire, trigger.work_before,
                atomic_load(trigger.ticket) ? "its later rounds ran translated"
                                            : "the launch ended before the translation was ready");
    if (rk.jit_trigger && !trigger.ticket)   /* the launch ran interpreted: count its work */
        rdna3_jit_add_work(dev, &rk, &trigger.rq, atomic_load_explicit(&trigger.t.work, memory_order_relaxed));
    rdna3_jit_release(dev, jit);
    rdna3_jit_release(dev, trigger.ticket);
    rdna3_kernel_release(&rk);
    rdna3_hostcall_destroy(hc);   /* device stderr text, memory the kernel freed, the buffer */
    rdna3_gws_destroy(rk.gws);
    /* also after a fault: what the kernel printed comes before the fault report */
    if (allocs[2]) flush_printf(dev, p, d, pl->name, allocs[2], printf_size);
    return st;
}

umb_status umb_rdna3_run(umb_device *dev, const umb_rdna3_program *p, const umb_rdna3_dispatch *d,
                         umb_stats *stats)
{
    if (!dev || !p || !d || (d->nargs && !d->args)) return UMB_ERR_INVALID;
    umb_device_clear_error(dev);
    if (p->dev != dev)
        return bad(dev, UMB_ERR_INVALID, "%s: the program was not loaded on this device", p->co.elf.path);
    const umb_rdna3_kernel_info *ki = umb_rdna3_program_find_kernel(p, d->kernel);
    if (!ki) {
        char names[512] = "";
        size_t n = 0;
        umb_guest_text_buf esc;
        for (uint32_t i = 0; i < p->co.md.nkernels && n < sizeof names; i++)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "",
                                  umb_guest_text(&esc, p->co.md.kernels[i].name));
        umb_guest_text_buf asked;
        return bad(dev, UMB_ERR_INVALID, "%s: no kernel '%s' (kernels: %s)", umb_guest_text(&esc, p->co.elf.path),
                   umb_guest_text(&asked, d->kernel), names);
    }
    launch_plan *pl = calloc(1, sizeof *pl);
    if (!pl) return UMB_ERR_NOMEM;
    pl->ki = ki;
    umb_guest_text_buf name;
    snprintf(pl->name, sizeof pl->name, "%s", umb_guest_text(&name, ki->name));
    uint64_t allocs[3] = { 0, 0, 0 };   /* kernarg + packet, scratch, printf buffer */
    umb_status st = plan_sizes(dev, d, pl);
    if (st == UMB_OK) st = plan_args(dev, d, pl);
    if (st == UMB_OK) st = plan_cus(dev, d, pl);
    if (st == UMB_OK) st = execute(dev, p, d, pl, stats, allocs);
    for (int i = 0; i < 3; i++)
        if (allocs[i]) umb_mem_free(dev, allocs[i]);
    free(pl->cus);
    free(pl);
    return st;
}
