/* --timing, --machine, --timeline, --issue-trace and the statistics JSON with its "timing" object. */
#include "timing_opts.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

bool cli_timing_option(cli_timing *ct, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    bool more = *i + 1 < argc;
    if (!strcmp(a, "--timing")) ct->on = true;
    else if (!strcmp(a, "--machine") && more) ct->machine = argv[++*i], ct->on = true;
    else if (!strcmp(a, "--timeline") && more) ct->timeline = argv[++*i], ct->on = true;
    else if (!strcmp(a, "--issue-trace") && more) ct->issue_trace = argv[++*i], ct->on = true;
    else if (!strcmp(a, "--annotate") && more) ct->annotate_lines = (unsigned)strtoul(argv[++*i], NULL, 0), ct->annotate = ct->on = true;
    else return false;
    return true;
}

bool cli_timing_start(cli_timing *ct, umb_device_config *cfg, const char *cmd)
{
    if (!ct->on) return true;
    char err[1024];
    if (umb_timing_create(ct->machine, &ct->model, err, sizeof err) != UMB_OK) {
        fprintf(stderr, "%s: %s\n", cmd, err);
        return false;
    }
    if (ct->timeline && umb_timing_set_timeline(ct->model, ct->timeline) != UMB_OK) {
        fprintf(stderr, "%s: cannot write %s: %s\n", cmd, ct->timeline, strerror(errno));
        return false;
    }
    if (ct->issue_trace && umb_timing_set_issue_trace(ct->model, ct->issue_trace) != UMB_OK) {
        fprintf(stderr, "%s: cannot write %s: %s\n", cmd, ct->issue_trace, strerror(errno));
        return false;
    }
    cfg->timing = ct->model;
    /* --threads N runs the model's partitions on N host threads (docs/TIMING.md, the same results) */
    return true;
}

void cli_timing_report(const cli_timing *ct, FILE *out)
{
    if (ct->model) umb_timing_write_text(ct->model, out);
}

void cli_timing_annotate(const cli_timing *ct, FILE *out)
{
    if (ct->model && ct->annotate) umb_timing_write_profile(ct->model, out, ct->annotate_lines);
}

/* umb_stats_write_json's object, with the timing model's report added under "timing". */
bool cli_timing_write_stats(const cli_timing *ct, const umb_stats *stats, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return false;
    if (!ct->model) {
        umb_stats_write_json(stats, f, 2);
        fputc('\n', f);
        return fclose(f) == 0;
    }
    char *sbuf = NULL, *tbuf = NULL;
    size_t slen = 0, tlen = 0;
    FILE *s = open_memstream(&sbuf, &slen), *t = open_memstream(&tbuf, &tlen);
    if (s) umb_stats_write_json(stats, s, 0);
    if (t) umb_timing_write_json(ct->model, t, 0);
    if (s) fclose(s);
    if (t) fclose(t);
    json_t *root = sbuf ? json_loads(sbuf, 0, NULL) : NULL;
    json_t *timing = tbuf ? json_loads(tbuf, 0, NULL) : NULL;
    bool ok = root && timing && json_is_object(root);
    if (ok) {
        json_object_set_new(root, "timing", timing);
        timing = NULL;
        ok = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0;
        fputc('\n', f);
    }
    json_decref(root);
    json_decref(timing);
    free(sbuf);
    free(tbuf);
    return fclose(f) == 0 && ok;
}

void cli_timing_end(cli_timing *ct)
{
    umb_timing_destroy(ct->model);
    ct->model = NULL;
}
