/* The timing model's entry from the core (src/core/sched.c) — see include/umbra/timing.h. */
#ifndef UMBRA_TIMING_TIMING_H
#define UMBRA_TIMING_TIMING_H

#include "core/core.h"
#include "umbra/timing.h"

/* Run every workgroup of l under the timing model t (one host thread). Same contract as
 * umb_launch_run: statistics into *stats, the device's last error set on failure. */
umb_status umb_timing_run_launch(umb_timing *t, umb_launch *l, umb_stats *stats);

#endif
