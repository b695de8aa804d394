/* RDNA3 waves: the pre-decoded instruction cache, the step loop and the umb_frontend.
 *
 * How a launch uses it (src/runtime):
 *   1. fill an rdna3_kernel (code_base/code_size, memory, apertures, lds_size, init_wave);
 *   2. rdna3_kernel_prepare(k) creates the instruction cache (decode once, shared by every wave
 *      and host thread of the launch);
 *   3. umb_launch { .fe = &rdna3_frontend, .kernel = k, .threads_per_warp = 32 or 64, ... };
 *      wg_init maps kernel->lds_size bytes of LDS at address 0 of wg->local, the core's (empty)
 *      local memory (rdna3_wg_create); warp_init takes a zeroed rdna3_wave (wave_size,
 *      lane_mask, kernel, stats, mode) and calls k->init_wave to set PC, SGPRs, VGPRs, EXEC,
 *      FLAT_SCRATCH and MODE;
 *   4. rdna3_kernel_release(k) after the launch.
 */
#ifndef UMBRA_RDNA3_WAVE_H
#define UMBRA_RDNA3_WAVE_H

#include "isa/rdna3/rdna3.h"

extern const umb_frontend rdna3_frontend;
/* rdna3_frontend with the launch's translated code (rdna3_kernel.jit, docs/TRANSLATOR.md) */
extern const umb_frontend rdna3_frontend_jit;

/* MODE register bits the wave setup uses (exec_alu.h has the full field list). */
#define RDNA3_MODE_DX10_CLAMP_BIT (1u << 8)
#define RDNA3_MODE_IEEE_BIT (1u << 9)

/* Create / free the instruction cache of k (idempotent). */
umb_status rdna3_kernel_prepare(rdna3_kernel *k);
void rdna3_kernel_release(rdna3_kernel *k);

/* Per code dword of k, 1 where no LDS write can be reached before a barrier (lds_quiet.c), for
 * the run-ahead of LDS loads; NULL on host OOM (then loads keep their turns). Free with free(). */
uint8_t *rdna3_lds_quiet_map(rdna3_kernel *k, uint64_t entry_pc);

/* May w run an LDS load ahead of its turn now (lds_quiet.c's argument): the UNALIGNED alignment
 * mode, and every other wave of its workgroup that has not exited is at quiet code. */
bool rdna3_lds_quiet(const rdna3_wave *w);

/* A workgroup's front-end state: maps lds_size bytes of LDS, zeroed, at address 0 of local, one
 * block of host memory (rdna3_wg in rdna3.h). NULL on host OOM. */
rdna3_wg *rdna3_wg_create(umb_mem *local, uint32_t lds_size);
/* Unmap the LDS from its local memory and free it (g may be NULL). */
void rdna3_wg_destroy(rdna3_wg *g);

/* MODE as the hardware initialises it from COMPUTE_PGM_RSRC1 (round, denorm, DX10 clamp, IEEE). */
uint32_t rdna3_mode_from_rsrc1(uint32_t rsrc1);

/* Set up w (zeroed) for a wave of wave_size lanes of kernel k. */
void rdna3_wave_reset(rdna3_wave *w, rdna3_kernel *k, unsigned wave_size, umb_stats *stats);

/* Run up to max_insts instructions of w. Stops early when the wave leaves RUNNABLE (barrier,
 * s_endpgm, fault). Returns the state; *executed counts the instructions retired. */
umb_warp_state rdna3_wave_run(rdna3_wave *w, uint64_t max_insts, uint64_t *executed);

/* The instruction at pc as the cache holds it (decoding it if needed); NULL with err filled if
 * pc is outside the code or not a valid encoding. local is used when the cache cannot hold it. */
const rdna3_inst *rdna3_fetch(rdna3_wave *w, uint64_t pc, rdna3_inst *local, char *err, size_t errlen);

/* The instruction at pc, decoded into k's cache (waiting for another thread that is publishing
 * it), so that the pointer lives as long as the cache; NULL with err filled if it cannot be. */
const rdna3_inst *rdna3_kernel_decode(rdna3_kernel *k, uint64_t pc, char *err, size_t errlen);

/* "PC 0x... : <dwords> <disassembly>" of the instruction at pc (for reports). */
void rdna3_describe(rdna3_kernel *k, uint64_t pc, char *buf, size_t len);

/* Timing mode: the umb_frontend timing callbacks (timing.c, src/timing/event.h). */
struct umb_tinst;
struct umb_tevent;
uint64_t rdna3_timing_pc(const umb_warp *warp);
bool rdna3_timing_static(void *kernel, umb_warp *warp, struct umb_tinst *ti);
void rdna3_timing_dynamic(void *kernel, const umb_warp *warp, const struct umb_tinst *ti, struct umb_tevent *ev);
void rdna3_timing_prefetch(void *kernel, const void *isa, const struct umb_tinst *ti);

#endif
