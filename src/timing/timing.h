/* The timing model's entry from the core (src/core/sched.c) — see include/umbra/timing.h. */
#ifndef UMBRA_TIMING_TIMING_H
#define UMBRA_TIMING_TIMING_H

#include "core/core.h"
#include "umbra/timing.h"

/* Run every workgroup of l under the timing model t (one host thread). Same contract as
 * umb_launch_run: statistics into *stats, the device's last error set on failure. */
umb_status umb_timing_run_launch(umb_timing *t, umb_launch *l, umb_stats *stats);

/* Waves the machine keeps resident at most: CUs x SIMDs per CU x wave slots per SIMD (the RDNA3
 * runtime sizes a launch's hostcall buffer by it). */
uint32_t umb_timing_wave_slots(const umb_timing *t);

#endif
