/* The timing options every run command shares: --timing, --machine FILE|NAME, --timeline FILE,
 * --issue-trace FILE.
 * (timing_opts.c; the model itself is libumbra's, include/umbra/timing.h) */
#ifndef UMBRA_CLI_TIMING_OPTS_H
#define UMBRA_CLI_TIMING_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#include "umbra/stats.h"
#include "umbra/timing.h"

typedef struct cli_timing {
    bool on;
    bool annotate;               /* --annotate N: print the hottest N lines (0: all) of each kernel */
    unsigned annotate_lines;
    const char *machine, *timeline, *issue_trace;
    umb_timing *model;
} cli_timing;

/* If argv[*i] is a timing option, take it (and its value) and return true. */
bool cli_timing_option(cli_timing *ct, int argc, char **argv, int *i);
/* Load the machine and put the model into cfg (no-op without --timing). False: message printed. */
bool cli_timing_start(cli_timing *ct, umb_device_config *cfg, const char *cmd);
/* The text report on out (no-op without --timing). */
void cli_timing_report(const cli_timing *ct, FILE *out);
/* With --annotate N: the per-instruction profile (hottest N lines per kernel) on out. */
void cli_timing_annotate(const cli_timing *ct, FILE *out);
/* The statistics JSON, with a "timing" object when the model ran. False: could not write. */
bool cli_timing_write_stats(const cli_timing *ct, const umb_stats *stats, const char *path);
void cli_timing_end(cli_timing *ct);

#define CLI_TIMING_USAGE "[--timing [--machine FILE|NAME] [--timeline FILE.json] [--issue-trace FILE]]"

#endif
