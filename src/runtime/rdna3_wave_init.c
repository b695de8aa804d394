/* Launch state of one wave: what the SPI writes into a wave's registers before its first
 * instruction (AMDGPUUsage "Initial Kernel Execution State", RDNA3 ISA §3.5, spec §6).
 *
 * SGPRs: the enabled user SGPRs packed in HSA order from s0, padding up to USER_SGPR_COUNT (the
 * gfx1100 wave32 FeatureUserSGPRInit16Bug padding), then the enabled system SGPRs: workgroup id
 * x, y, z, and the workgroup-info word. gfx11 has architected flat scratch, so the scratch base
 * goes to FLAT_SCRATCH and there is no private-segment wave offset SGPR.
 * VGPRs: v0 = X[9:0] | Y[19:10] | Z[29:20] (packed work-item ids); Y and Z only when
 * VGPR_WORKITEM_ID enables them, since LLVM uses v0 unmasked when only X is enabled.
 */
#include <string.h>

#include "runtime/rdna3_runtime.h"

/* The HSA scratch V# of gfx11 (ROCr FillBufRsrcWord*_Gfx11): swizzled, 4-byte elements, TID added. */
static void scratch_vsharp(uint32_t out[4], uint64_t base, uint64_t size, uint32_t wave_size)
{
    out[0] = (uint32_t)base;
    out[1] = (uint32_t)(base >> 32) & 0xffffu;
    out[1] |= 1u << 30;                                        /* SWIZZLE_ENABLE = 1 */
    out[2] = size > 0xffffffffu ? 0xffffffffu : (uint32_t)size; /* NUM_RECORDS */
    out[3] = 4u | 5u << 3 | 6u << 6 | 7u << 9                  /* DST_SEL XYZW */
             | 20u << 12                                       /* FORMAT 32_UINT */
             | (wave_size == 64 ? 3u : 2u) << 21               /* INDEX_STRIDE 64 / 32 */
             | 1u << 23                                        /* ADD_TID_ENABLE */
             | 2u << 28;                                       /* OOB_SELECT 2 */
}

static void put64(uint32_t *s, uint64_t v)
{
    s[0] = (uint32_t)v;
    s[1] = (uint32_t)(v >> 32);
}

/* The user SGPRs in HSA order; returns how many were written, or -1 if they do not fit. */
static int user_sgprs(const rdna3_dispatch_state *ds, uint64_t scratch, uint32_t *s, uint32_t count)
{
    uint16_t kcp = ds->ki->kd.kernel_code_properties;
    uint32_t tmp[32];
    uint32_t n = 0;
    if (kcp & UMB_RDNA3_KCP_PRIVATE_SEGMENT_BUFFER) {
        scratch_vsharp(tmp + n, scratch, ds->scratch_per_wave, ds->wave_size);
        n += 4;
    }
    if (kcp & UMB_RDNA3_KCP_DISPATCH_PTR) put64(tmp + n, ds->dispatch_ptr), n += 2;
    if (kcp & UMB_RDNA3_KCP_QUEUE_PTR) put64(tmp + n, ds->queue_ptr), n += 2;
    if (kcp & UMB_RDNA3_KCP_KERNARG_SEGMENT_PTR) put64(tmp + n, ds->kernarg_addr), n += 2;
    if (kcp & UMB_RDNA3_KCP_DISPATCH_ID) put64(tmp + n, ds->dispatch_id), n += 2;
    if (kcp & UMB_RDNA3_KCP_FLAT_SCRATCH_INIT) put64(tmp + n, scratch), n += 2;
    if (kcp & UMB_RDNA3_KCP_PRIVATE_SEGMENT_SIZE) tmp[n++] = ds->scratch_per_lane;
    if (n > count) return -1;
    memcpy(s, tmp, n * sizeof *s);
    return (int)n;
}

/* Work-items of this workgroup per dimension: the enqueued size, or the remainder for the last. */
static void actual_group_size(const rdna3_dispatch_state *ds, const umb_workgroup *wg, uint32_t out[3])
{
    for (int d = 0; d < 3; d++) {
        uint64_t start = (uint64_t)wg->id[d] * ds->group_size[d];
        uint64_t left = ds->grid_size[d] - start;
        out[d] = left < ds->group_size[d] ? (uint32_t)left : ds->group_size[d];
    }
}

/* v0 and EXEC: lane l of wave n is work-item n*wave_size + l of the workgroup, X fastest. */
static uint64_t workitem_ids(const rdna3_dispatch_state *ds, const uint32_t gs[3], uint32_t wave,
                             uint32_t *v0)
{
    uint32_t vid = RDNA3_RSRC2_VGPR_WORKITEM_ID(ds->ki->kd.compute_pgm_rsrc2);
    uint64_t nitems = (uint64_t)gs[0] * gs[1] * gs[2];
    uint64_t exec = 0;
    for (uint32_t l = 0; l < ds->wave_size; l++) {
        uint64_t t = (uint64_t)wave * ds->wave_size + l;
        if (t >= nitems) {
            v0[l] = 0;
            continue;
        }
        uint32_t x = (uint32_t)(t % gs[0]);
        uint32_t y = (uint32_t)(t / gs[0] % gs[1]);
        uint32_t z = (uint32_t)(t / ((uint64_t)gs[0] * gs[1]));
        v0[l] = x | (vid >= 1 ? y << 10 : 0u) | (vid >= 2 ? z << 20 : 0u);
        exec |= 1ull << l;
    }
    return exec;
}

umb_status rdna3_runtime_init_wave(rdna3_kernel *k, umb_workgroup *wg, umb_warp *warp, rdna3_wave *w)
{
    const rdna3_dispatch_state *ds = k->runtime;
    const umb_rdna3_kernel_descriptor *kd = &ds->ki->kd;
    uint32_t rsrc2 = kd->compute_pgm_rsrc2;
    uint64_t wave_global = wg->linear_id * ds->waves_per_wg + warp->id;
    uint64_t scratch = ds->scratch_per_wave ? ds->scratch_base + wave_global * ds->scratch_per_wave : 0;

    memset(w->sgpr, 0, sizeof w->sgpr);
    w->wave_size = ds->wave_size;
    w->lane_mask = ds->wave_size == 64 ? ~0ull : (1ull << ds->wave_size) - 1;
    uint32_t nuser = RDNA3_RSRC2_USER_SGPR_COUNT(rsrc2);
    if (user_sgprs(ds, scratch, w->sgpr, nuser) < 0) {
        umb_device_set_error(k->dev, "kernel %s: the enabled user SGPRs do not fit in USER_SGPR_COUNT %u",
                             ds->ki->name, nuser);
        return UMB_ERR_FORMAT;
    }
    uint32_t s = nuser;
    if (RDNA3_RSRC2_TGID_X(rsrc2)) w->sgpr[s++] = wg->id[0];
    if (RDNA3_RSRC2_TGID_Y(rsrc2)) w->sgpr[s++] = wg->id[1];
    if (RDNA3_RSRC2_TGID_Z(rsrc2)) w->sgpr[s++] = wg->id[2];
    /* workgroup info: waves in the group [5:0], first wave of the group [31] */
    if (RDNA3_RSRC2_TG_SIZE(rsrc2)) w->sgpr[s++] = (ds->waves_per_wg & 63u) | (warp->id == 0 ? 1u << 31 : 0u);

    uint32_t gs[3];
    actual_group_size(ds, wg, gs);
    uint64_t exec = workitem_ids(ds, gs, warp->id, rdna3_vreg(w, 0));
    rdna3_set_exec(w, exec);
    w->flat_scratch = RDNA3_RSRC2_ENABLE_PRIVATE_SEGMENT(rsrc2) ? scratch : 0;
    w->pc = w->next_pc = ds->entry_pc;
    w->scc = false;
    w->mode = ds->mode;
    w->trapsts = 0;
    warp->pc = w->pc;
    /* a wave of a partial workgroup with no work-item is never launched by the hardware */
    w->state = exec ? UMB_WARP_RUNNABLE : UMB_WARP_EXITED;
    warp->state = w->state;
    return UMB_OK;
}
