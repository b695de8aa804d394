/* One kernel launch for an API room: the device lock, simulated time, the failure report and the
 * statistics line. */
#include <string.h>

#include "platform.h"

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\') fprintf(f, "\\%c", *c);
        else if (*c < 0x20 || *c >= 0x7f) fprintf(f, "\\u%04x", *c);
        else fputc(*c, f);
    }
    fputc('"', f);
}

/* With UMBRA_STATS: one statistics document a line, in the shape of `umbra run --stats` (one
 * launch: kernel, grid, the counters, and with a timing machine the launch's "timing" object), so
 * that `umbra report` reads the file as one run of many launches. */
static void append_stats(umb_platform *pl, const umb_rdna3_dispatch *d, const umb_stats *s)
{
    if (!pl->stats_path[0]) return;
    FILE *f = fopen(pl->stats_path, "a");
    if (!f) {
        fprintf(stderr, "%s: cannot append to UMBRA_STATS file %s\n", pl->who, pl->stats_path);
        return;
    }
    fprintf(f, "{\"kernel\": {\"name\": ");
    json_string(f, d->kernel);
    fprintf(f, "}, \"grid\": {\"work_dim\": %u, \"global_size\": [%llu, %llu, %llu], \"local_size\": [%u, %u, %u]}, ",
            d->work_dim, (unsigned long long)d->global_size[0], (unsigned long long)d->global_size[1],
            (unsigned long long)d->global_size[2], d->local_size[0], d->local_size[1], d->local_size[2]);
    umb_stats_write_json_members(s, f, 0);
    if (pl->timing) {
        fprintf(f, ", \"timing\": ");
        umb_timing_write_json(pl->timing, f, -1);
    }
    fprintf(f, "}\n");
    fclose(f);
}

umb_status plat_run(umb_platform *pl, const umb_rdna3_program *p, umb_rdna3_dispatch *d, uint64_t *device_ns)
{
    umb_stats stats;
    memset(&stats, 0, sizeof stats);
    plat_lock(pl);
    d->trace = pl->trace;
    d->check_waitcnt = pl->check_waitcnt;
    d->jit = pl->jit;
    d->jit_log = pl->jit_log ? stderr : NULL;
    d->jit_cache_dir = pl->jit_cache_dir[0] ? pl->jit_cache_dir : NULL;
    uint64_t cycles = pl->timing ? umb_timing_total_cycles(pl->timing) : 0;
    umb_status st = umb_rdna3_run(pl->dev, p, d, &stats);
    if (device_ns) *device_ns = pl->timing ? plat_cycles_to_ns(pl, umb_timing_total_cycles(pl->timing) - cycles) : 0;
    if (st) fprintf(stderr, "%s: kernel %s failed (%s):\n%s\n", pl->who, d->kernel, umb_status_name(st),
                    umb_device_last_error(pl->dev));
    else append_stats(pl, d, &stats);
    if (pl->timing) umb_timing_forget_launches(pl->timing);   /* reported; keep no record per launch */
    plat_unlock(pl);
    return st;
}
