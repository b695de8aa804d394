/* --check-waitcnt: a checker of the s_waitcnt discipline (gfx11 counters).
 *
 * The step loop calls rdna3_waitcnt_step before executing each instruction, but only when
 * kernel->check_waitcnt is set, so the mode costs one predictable branch when it is off. The
 * checker tracks the wave's outstanding memory operations per counter (vmcnt: VMEM loads and
 * returning atomics; vscnt: VMEM stores and non-returning atomics; lgkmcnt: LDS, SMEM, FLAT),
 * retires them at s_waitcnt / s_waitcnt_{vm,vs,lgkm}cnt as the hardware ordering rules allow, and
 * faults the wave (with PC, register and the load's PC) when an instruction reads or overwrites
 * a register that an outstanding load will still write. See docs/MEMORY_MODEL.md §waitcnt.
 */
#ifndef UMBRA_RDNA3_WAITCNT_H
#define UMBRA_RDNA3_WAITCNT_H

#include "isa/rdna3/rdna3.h"

void rdna3_waitcnt_step(rdna3_wave *w, const rdna3_inst *in);
/* Free the checker state of w (safe when there is none). */
void rdna3_waitcnt_free(rdna3_wave *w);

/* Timing mode: the registers an instruction reads and writes and the counters it increments
 * (bit 0 vmcnt, 1 lgkmcnt, 2 vscnt), from the checker's analysis. */
#define RDNA3_EFFECT_REFS 12
typedef struct rdna3_regref { uint8_t vector; uint16_t first, count; } rdna3_regref;
typedef struct rdna3_effect {
    rdna3_regref reads[RDNA3_EFFECT_REFS], writes[RDNA3_EFFECT_REFS];
    unsigned nreads, nwrites;
    uint8_t counters, out_of_order;
} rdna3_effect;
void rdna3_inst_effect(unsigned wave_size, const rdna3_inst *in, rdna3_effect *out);

#endif
