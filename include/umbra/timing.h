/* umbra/timing.h — the cycle-approximate timing model (docs/TIMING.md).
 *
 * Create a model from a machine description (a YAML file, machines/NAME.yaml), put it in the
 * device configuration (umb_device_config.timing) and every launch on that device runs under
 * it: same functional results, plus simulated cycles and where they went. The model keeps the
 * cache contents between launches, as a GPU does, and a record of each launch.
 */
#ifndef UMBRA_TIMING_H
#define UMBRA_TIMING_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "umbra/device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct umb_timing umb_timing;

/* The directory of the bundled machine descriptions (gfx1100.yaml, ventus.yaml). */
const char *umb_timing_machines_dir(void);

/* Load a machine description: a file path, or the name of a bundled one ("gfx1100"). On an
 * error returns non-OK with a message (file, line, key) in err. */
umb_status umb_timing_create(const char *machine, umb_timing **out, char *err, size_t errlen);
void umb_timing_destroy(umb_timing *t);

/* The machine's name, clock (MHz) and compute units. */
const char *umb_timing_machine_name(const umb_timing *t);
double umb_timing_clock_mhz(const umb_timing *t);
uint32_t umb_timing_compute_units(const umb_timing *t);

/* Simulated cycles of every launch so far. */
uint64_t umb_timing_total_cycles(const umb_timing *t);

/* Drop the records of the launches so far (what the reports below describe), keeping the caches'
 * contents and the clock: a client running many launches (the OpenCL platform) reports each one
 * and then forgets it, so the model's memory does not grow. umb_timing_total_cycles still counts
 * every launch. */
void umb_timing_forget_launches(umb_timing *t);

/* Write a Chrome trace-event timeline (waves on SIMDs, workgroups on CUs) of the launches that
 * run from now on to path; NULL stops recording. */
umb_status umb_timing_set_timeline(umb_timing *t, const char *path);

/* Write every instruction issue of the launches that run from now on to path, a line each:
 * "KERNEL CYCLE cuN wgX,Y,Z wW 0xPC" (the cycle counted from the launch's start), in issue order;
 * NULL stops. Like the timeline, it keeps the run on one host thread. docs/TIMING.md. */
umb_status umb_timing_set_issue_trace(umb_timing *t, const char *path);

/* Reports: a text summary, and the "timing" object of the statistics JSON (its "cycles" and
 * "seconds" are those of the launches recorded, i.e. since the last umb_timing_forget_launches). */
void umb_timing_write_text(const umb_timing *t, FILE *out);
void umb_timing_write_json(const umb_timing *t, FILE *out, int indent);

/* Per-instruction profile of every launch so far: for each PC of each kernel, issue count and
 * stall cycles, hottest first (umbra annotate). describe(pc) gives the disassembly text. */
void umb_timing_write_profile(const umb_timing *t, FILE *out, unsigned max_lines);

#ifdef __cplusplus
}
#endif
#endif
