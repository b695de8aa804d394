/* The single-step API (umbra/rdna3_step.h): one wave outside any launch.
 *
 * The stepper owns a one-wave workgroup and launch of its own, so that executors see the same
 * structures as in a real dispatch: LDS is wg->local, faults go through umb_fault_report into
 * the stepper's launch, statistics into its umb_stats.
 */
#include "umbra/rdna3_step.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "isa/rdna3/wave.h"
#include "isa/rdna3/waitcnt.h"

struct umb_rdna3_stepper {
    umb_device *dev;
    rdna3_kernel kernel;
    umb_launch launch;
    umb_workgroup wg;
    umb_warp warp;
    umb_stats stats;
    uint64_t code_base, code_bytes;   /* currently mapped code (for unmapping) */
    rdna3_wave wave;                  /* last: large */
};

umb_status umb_rdna3_step_create(umb_device *dev, unsigned wave_size, umb_rdna3_stepper **out)
{
    *out = NULL;
    if (!dev || (wave_size != 32 && wave_size != 64)) return UMB_ERR_INVALID;
    umb_rdna3_stepper *s = aligned_alloc(alignof(umb_rdna3_stepper), sizeof *s);   /* the VGPR file is aligned */
    if (!s) return UMB_ERR_NOMEM;
    memset(s, 0, sizeof *s);
    s->dev = dev;
    rdna3_kernel *k = &s->kernel;
    k->dev = dev;
    k->global = umb_device_memory(dev);
    k->name = "step";
    k->shared_base = UMB_RDNA3_STEP_SHARED_BASE;
    k->private_base = UMB_RDNA3_STEP_PRIVATE_BASE;
    k->alignment_mode = 3;
    s->launch.dev = dev;
    s->launch.fe = &rdna3_frontend;
    s->launch.kernel = k;
    s->launch.grid[0] = s->launch.grid[1] = s->launch.grid[2] = 1;
    s->launch.warps_per_wg = 1;
    s->launch.threads_per_warp = wave_size;
    s->launch.kernel_name = k->name;
    s->wg.launch = &s->launch;
    s->wg.nwarps = 1;
    s->wg.warps = &s->warp;
    s->wg.stats = &s->stats;
    s->wg.local = umb_mem_create();
    s->wg.isa = s->wg.local ? rdna3_wg_create(s->wg.local, 0) : NULL;
    if (!s->wg.isa) {
        if (s->wg.local) umb_mem_destroy(s->wg.local);
        free(s);
        return UMB_ERR_NOMEM;
    }
    s->warp.wg = &s->wg;
    s->warp.width = wave_size;
    s->warp.isa = &s->wave;
    rdna3_wave_reset(&s->wave, k, wave_size, &s->stats);
    s->wave.warp = &s->warp;
    rdna3_set_exec(&s->wave, ~0ull);
    *out = s;
    return UMB_OK;
}

void umb_rdna3_step_destroy(umb_rdna3_stepper *s)
{
    if (!s) return;
    rdna3_waitcnt_free(&s->wave);
    rdna3_kernel_release(&s->kernel);
    if (s->code_bytes) umb_mem_unmap(s->dev, s->code_base, s->code_bytes);
    rdna3_wg_destroy(s->wg.isa);
    umb_mem_destroy(s->wg.local);
    free(s);
}

umb_status umb_rdna3_step_load_at(umb_rdna3_stepper *s, uint64_t addr, const void *code, size_t bytes)
{
    if (!s || !code || bytes == 0 || (bytes & 3u) || (addr & 3u)) return UMB_ERR_INVALID;
    rdna3_kernel_release(&s->kernel);
    if (s->code_bytes) umb_mem_unmap(s->dev, s->code_base, s->code_bytes);
    s->code_bytes = 0;
    umb_status st = umb_mem_map(s->dev, addr, bytes);
    if (st != UMB_OK) return st;
    st = umb_mem_copy_to_device(s->dev, addr, code, bytes);
    if (st != UMB_OK) return st;
    s->code_base = addr;
    s->code_bytes = bytes;
    s->kernel.code_base = addr;
    s->kernel.code_size = bytes;
    st = rdna3_kernel_prepare(&s->kernel);
    if (st != UMB_OK) return st;
    s->wave.pc = addr;
    s->wave.state = UMB_WARP_RUNNABLE;
    s->warp.state = UMB_WARP_RUNNABLE;
    return UMB_OK;
}

umb_status umb_rdna3_step_load(umb_rdna3_stepper *s, const void *code, size_t bytes)
{
    return umb_rdna3_step_load_at(s, UMB_RDNA3_STEP_CODE_BASE, code, bytes);
}

umb_status umb_rdna3_step_run(umb_rdna3_stepper *s, uint64_t max_insts, uint64_t *executed)
{
    uint64_t done = 0;
    if (executed) *executed = 0;
    if (!s || !s->code_bytes) return UMB_ERR_INVALID;
    rdna3_wave *w = &s->wave;
    if (w->state == UMB_WARP_EXITED) return UMB_OK;
    if (w->state == UMB_WARP_FAULTED) return s->launch.fault.status ? s->launch.fault.status : UMB_ERR_GUEST_FAULT;
    atomic_store(&s->launch.failed, 0);
    memset(w->smem_page_tag, 0, sizeof w->smem_page_tag);   /* the caller may have remapped device memory since the last run */
    s->launch.fault.status = UMB_OK;
    s->launch.fault.message[0] = '\0';
    while (done < max_insts) {
        w->state = UMB_WARP_RUNNABLE;   /* a lone wave passes every barrier */
        s->warp.state = UMB_WARP_RUNNABLE;
        umb_warp_state ws = rdna3_wave_run(w, max_insts - done, &done);
        if (ws != UMB_WARP_AT_BARRIER) break;
    }
    if (executed) *executed = done;
    if (w->state == UMB_WARP_FAULTED)
        return s->launch.fault.status ? s->launch.fault.status : UMB_ERR_GUEST_FAULT;
    return UMB_OK;
}

umb_rdna3_step_state umb_rdna3_step_get_state(const umb_rdna3_stepper *s)
{
    switch (s->wave.state) {
    case UMB_WARP_EXITED: return UMB_RDNA3_STEP_ENDED;
    case UMB_WARP_FAULTED: return UMB_RDNA3_STEP_FAULTED;
    default: return UMB_RDNA3_STEP_RUNNING;
    }
}

const char *umb_rdna3_step_error(const umb_rdna3_stepper *s)
{
    return s->wave.state == UMB_WARP_FAULTED ? s->launch.fault.message : "";
}

void umb_rdna3_step_set_sgpr(umb_rdna3_stepper *s, unsigned n, uint32_t v)
{
    if (n < RDNA3_NUM_SGPR_SLOTS) s->wave.sgpr[n] = v;
}
uint32_t umb_rdna3_step_get_sgpr(const umb_rdna3_stepper *s, unsigned n)
{
    return n < RDNA3_NUM_SGPR_SLOTS ? s->wave.sgpr[n] : 0;
}
void umb_rdna3_step_set_vgpr(umb_rdna3_stepper *s, unsigned reg, unsigned lane, uint32_t v)
{
    if (reg < RDNA3_NUM_VGPRS && lane < RDNA3_MAX_LANES) s->wave.vgpr[reg * RDNA3_MAX_LANES + lane] = v;
}
uint32_t umb_rdna3_step_get_vgpr(const umb_rdna3_stepper *s, unsigned reg, unsigned lane)
{
    return (reg < RDNA3_NUM_VGPRS && lane < RDNA3_MAX_LANES) ? s->wave.vgpr[reg * RDNA3_MAX_LANES + lane] : 0;
}
void umb_rdna3_step_set_exec(umb_rdna3_stepper *s, uint64_t exec) { rdna3_set_exec(&s->wave, exec); }
uint64_t umb_rdna3_step_get_exec(const umb_rdna3_stepper *s) { return rdna3_exec(&s->wave); }
void umb_rdna3_step_set_vcc(umb_rdna3_stepper *s, uint64_t vcc)
{
    vcc &= s->wave.lane_mask;
    s->wave.sgpr[RDNA3_SRC_VCC_LO] = (uint32_t)vcc;
    s->wave.sgpr[RDNA3_SRC_VCC_HI] = (uint32_t)(vcc >> 32);
}
uint64_t umb_rdna3_step_get_vcc(const umb_rdna3_stepper *s) { return rdna3_vcc(&s->wave); }
void umb_rdna3_step_set_scc(umb_rdna3_stepper *s, bool scc) { s->wave.scc = scc; }
bool umb_rdna3_step_get_scc(const umb_rdna3_stepper *s) { return s->wave.scc; }
void umb_rdna3_step_set_m0(umb_rdna3_stepper *s, uint32_t m0) { s->wave.sgpr[RDNA3_SRC_M0] = m0; }
uint32_t umb_rdna3_step_get_m0(const umb_rdna3_stepper *s) { return s->wave.sgpr[RDNA3_SRC_M0]; }
void umb_rdna3_step_set_pc(umb_rdna3_stepper *s, uint64_t pc) { s->wave.pc = pc; }
uint64_t umb_rdna3_step_get_pc(const umb_rdna3_stepper *s) { return s->wave.pc; }
void umb_rdna3_step_set_mode(umb_rdna3_stepper *s, uint32_t mode) { s->wave.mode = mode; }
uint32_t umb_rdna3_step_get_mode(const umb_rdna3_stepper *s) { return s->wave.mode; }

void umb_rdna3_step_set_scratch(umb_rdna3_stepper *s, uint64_t flat_scratch, uint32_t bytes_per_lane)
{
    s->wave.flat_scratch = flat_scratch;
    s->kernel.scratch_per_lane = bytes_per_lane;
}

void umb_rdna3_step_set_alignment_mode(umb_rdna3_stepper *s, uint32_t mode) { s->kernel.alignment_mode = mode & 3u; }
void umb_rdna3_step_set_check_waitcnt(umb_rdna3_stepper *s, bool on)
{
    rdna3_waitcnt_free(&s->wave);
    s->kernel.check_waitcnt = on;
}

umb_status umb_rdna3_step_set_lds_size(umb_rdna3_stepper *s, uint32_t bytes)
{
    if (bytes > 65536u) return UMB_ERR_INVALID;
    rdna3_wg_destroy(s->wg.isa);
    umb_mem_clear(s->wg.local);
    s->kernel.lds_size = bytes;
    s->wg.isa = rdna3_wg_create(s->wg.local, bytes);
    return s->wg.isa ? UMB_OK : UMB_ERR_NOMEM;
}

umb_status umb_rdna3_step_lds_write(umb_rdna3_stepper *s, uint32_t addr, const void *src, uint32_t bytes)
{
    if ((uint64_t)addr + bytes > s->kernel.lds_size) return UMB_ERR_INVALID;
    return umb_mem_write_bytes(s->wg.local, addr, src, bytes) ? UMB_OK : UMB_ERR_INVALID;
}

umb_status umb_rdna3_step_lds_read(const umb_rdna3_stepper *s, uint32_t addr, void *dst, uint32_t bytes)
{
    if ((uint64_t)addr + bytes > s->kernel.lds_size) return UMB_ERR_INVALID;
    return umb_mem_read_bytes(s->wg.local, addr, dst, bytes) ? UMB_OK : UMB_ERR_INVALID;
}

const umb_stats *umb_rdna3_step_stats(const umb_rdna3_stepper *s) { return &s->stats; }
