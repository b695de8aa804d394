/* The report's internals: statistics documents read into runs (report_model.c), SVG charts
 * (svg_chart.c) and the page (report_html.c). See docs/REPORT.md. */
#ifndef UMBRA_REPORT_INTERNAL_H
#define UMBRA_REPORT_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "umbra/report.h"
#include "umbra/stats.h"

/* A "key: value" line of a summary (device, kernel, grid). */
typedef struct rep_kv {
    char key[48];
    char value[208];
} rep_kv;

typedef struct rep_launch {
    char name[128];
    char shape[160];            /* grid and workgroup shape, "" if the document has none */
    umb_stats st;
} rep_launch;

/* One line of the per-PC profile. */
typedef struct rep_hot {
    char pc[24];
    uint64_t count;
    char disasm[200];
} rep_hot;

/* One statistics document. */
typedef struct rep_run {
    char label[96];
    char name[512];
    char isa[16];               /* "rdna3", "ventus" or "" */
    rep_kv *info;               /* input, command, device, kernel and grid lines */
    size_t ninfo;
    umb_stats total;
    rep_launch *launches;
    size_t nlaunches;
    rep_hot *hot;               /* executed PCs, hottest first */
    size_t nhot;
    uint64_t hot_total;         /* issues counted by the profile */
    json_t *doc;                /* the parsed document (owned) */
    json_t *timing;             /* doc's "timing" object or NULL (borrowed) */
} rep_run;

/* Parse and check a document; on failure err names it (line and column for syntax errors). */
bool rep_run_read(rep_run *r, const umb_report_input *in, char *err, size_t errlen);
void rep_run_free(rep_run *r);

/* ---- SVG charts ---- */

/* Horizontal bars: one row per group, in it one bar per series (runs side by side), each bar
 * stacked from segments. v[(g * nseries + s) * nsegs + k]. A segment of value 0 draws nothing. */
typedef struct rep_chart {
    const char *id;             /* element id (test hook) */
    const char *title;
    const char *unit;           /* "count", "bytes", "s", "%", "number": how values are printed */
    const char *const *groups;
    size_t ngroups;
    const char *const *series;
    size_t nseries;
    const char *const *segs;
    size_t nsegs;
    const double *v;
    bool fixed_100;             /* axis 0..100 (percentages) */
} rep_chart;

void rep_svg_chart(FILE *o, const rep_chart *c);

/* ---- text helpers shared by the page and the charts ---- */

void rep_html_text(FILE *o, const char *s);          /* escaped for HTML text and attributes */
void rep_fmt_count(char *buf, size_t len, uint64_t v);   /* 1,234,567 */
void rep_fmt_value(char *buf, size_t len, double v, const char *unit);
const char *rep_color(size_t i);                      /* the palette */

void rep_page(FILE *o, const rep_run *runs, size_t n, const char *title);

#endif
