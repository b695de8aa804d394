/* The report page: sections over the runs read by report_model.c, charts from svg_chart.c, one
 * inline style sheet and one inline script (sortable tables, tooltips, a self-check that marks
 * the page ready). Nothing is loaded from anywhere. Sections in page order:
 *   summary, launches, instruction mix, SIMT, memory, hottest instructions, timing.
 * The timing section renders the "timing" object of the statistics when a document has one
 * (docs/REPORT.md says which shapes are drawn how). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"
#include "umbra/umbra.h"

#define HOT_ROWS 20   /* hottest instructions listed per run */

/* ---- small builders ---- */

/* calloc that never asks for 0 bytes (an empty chart is still drawn) */
static void *zalloc(size_t n, size_t size) { return calloc(n ? n : 1, size); }

static const char *const class_titles[UMB_CLASS_COUNT] = {
#define X(name, str) str,
    UMB_INSN_CLASSES(X)
#undef X
};

static void cell_count(FILE *o, const char *key, uint64_t v)
{
    char b[40];
    rep_fmt_count(b, sizeof b, v);
    fprintf(o, "<td class=\"num\" data-key=\"%s\" data-value=\"%" PRIu64 "\">%s</td>", key, v, b);
}

static void cell_real(FILE *o, const char *key, double v, const char *text)
{
    fprintf(o, "<td class=\"num\" data-key=\"%s\" data-value=\"%.17g\">%s</td>", key, v, text);
}

static void cell_text(FILE *o, const char *s)
{
    fputs("<td>", o);
    rep_html_text(o, s);
    fputs("</td>", o);
}

static double simt_pct(const umb_stats *s)
{
    return 100.0 * umb_stats_simt_efficiency(s);
}

static double speed(const umb_stats *s)
{
    return s->host_seconds > 0 ? (double)s->warp_insts / s->host_seconds : 0.0;
}

/* The names of runs, for chart series. */
static const char **run_labels(const rep_run *runs, size_t n)
{
    const char **l = calloc(n, sizeof *l);
    for (size_t i = 0; l && i < n; i++) l[i] = runs[i].label;
    return l;
}

static void section_open(FILE *o, const char *id, const char *title)
{
    fprintf(o, "<section id=\"%s\"><h2>%s</h2>\n", id, title);
}

static void note(FILE *o, const char *text)
{
    fputs("<p class=\"note\">", o);
    rep_html_text(o, text);
    fputs("</p>\n", o);
}

/* ---- summary ---- */

static void summary_cards(FILE *o, const rep_run *r)
{
    char a[48], b[48], c[48], d[48];
    rep_fmt_count(a, sizeof a, r->total.warp_insts);
    snprintf(b, sizeof b, "%.2f %%", simt_pct(&r->total));
    snprintf(c, sizeof c, "%.6f s", r->total.host_seconds);
    snprintf(d, sizeof d, "%.2f M/s", speed(&r->total) / 1e6);
    fputs("<div class=\"cards\"><div class=\"run-name\">", o);
    rep_html_text(o, r->label);
    if (r->isa[0]) fprintf(o, " <span class=\"isa\">%s</span>", r->isa);
    fputs("</div>", o);
    fprintf(o, "<div class=\"card\"><b>%s</b><span>warp-instructions</span></div>", a);
    fprintf(o, "<div class=\"card\"><b>%s</b><span>SIMT efficiency</span></div>", b);
    fprintf(o, "<div class=\"card\"><b>%s</b><span>wall time</span></div>", c);
    fprintf(o, "<div class=\"card\"><b>%s</b><span>simulation speed (warp-instructions)</span></div></div>\n", d);
}

/* The info keys of one part ("device: ..." for prefix "device: "; prefix "" takes the keys of no
 * part), as rows; columns = runs. */
static bool in_part(const char *key, const char *prefix)
{
    return prefix[0] ? !strncmp(key, prefix, strlen(prefix)) : !strstr(key, ": ");
}

static const char *info_value(const rep_run *r, const char *key)
{
    for (size_t m = 0; m < r->ninfo; m++)
        if (!strcmp(r->info[m].key, key)) return r->info[m].value;
    return "";
}

static bool key_seen_before(const rep_run *runs, size_t i, size_t k)
{
    const char *key = runs[i].info[k].key;
    for (size_t j = 0; j <= i; j++)
        for (size_t m = 0; m < (j < i ? runs[j].ninfo : k); m++)
            if (!strcmp(runs[j].info[m].key, key)) return true;
    return false;
}

static void info_table(FILE *o, const rep_run *runs, size_t n, const char *prefix, const char *caption)
{
    bool open = false;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < runs[i].ninfo; k++) {
            const char *key = runs[i].info[k].key;
            if (!in_part(key, prefix) || key_seen_before(runs, i, k)) continue;
            if (!open) {
                fprintf(o, "<table class=\"info\"><caption>%s</caption>", caption);
                if (n > 1) {
                    fputs("<thead><tr><th></th>", o);
                    for (size_t j = 0; j < n; j++) fputs("<th>", o), rep_html_text(o, runs[j].label), fputs("</th>", o);
                    fputs("</tr></thead>", o);
                }
                fputs("<tbody>\n", o);
                open = true;
            }
            fputs("<tr><th>", o);
            rep_html_text(o, key + strlen(prefix));
            fputs("</th>", o);
            for (size_t j = 0; j < n; j++) {
                fprintf(o, "<td%s>", !strcmp(key, "command") ? " class=\"mono small\"" : "");
                rep_html_text(o, info_value(&runs[j], key));
                fputs("</td>", o);
            }
            fputs("</tr>\n", o);
        }
    if (open) fputs("</tbody></table>\n", o);
}

static void totals_table(FILE *o, const rep_run *runs, size_t n)
{
    fputs("<table class=\"totals\" id=\"totals\"><caption>totals</caption><thead><tr><th></th>", o);
    for (size_t i = 0; i < n; i++) fputs("<th>", o), rep_html_text(o, runs[i].label), fputs("</th>", o);
    fputs("</tr></thead><tbody>\n", o);
    struct { const char *title, *key; size_t off; } rows[] = {
        { "launches", "launches", offsetof(umb_stats, launches) },
        { "workgroups", "workgroups", offsetof(umb_stats, workgroups) },
        { "warps", "warps", offsetof(umb_stats, warps) },
        { "warp-instructions", "warp_instructions", offsetof(umb_stats, warp_insts) },
        { "thread-instructions", "thread_instructions", offsetof(umb_stats, thread_insts) },
        { "lane slots", "lane_slots", offsetof(umb_stats, lane_slots) },
        { "divergent branches", "divergent_branches", offsetof(umb_stats, divergent_branches) },
        { "barriers", "barriers", offsetof(umb_stats, barriers) },
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        fprintf(o, "<tr><th>%s</th>", rows[k].title);
        for (size_t i = 0; i < n; i++) {
            uint64_t v;
            memcpy(&v, (const char *)&runs[i].total + rows[k].off, sizeof v);
            cell_count(o, rows[k].key, v);
        }
        fputs("</tr>\n", o);
    }
    char t[64];
    fputs("<tr><th>SIMT efficiency</th>", o);
    for (size_t i = 0; i < n; i++) {
        snprintf(t, sizeof t, "%.2f %%", simt_pct(&runs[i].total));
        cell_real(o, "simt_efficiency", umb_stats_simt_efficiency(&runs[i].total), t);
    }
    fputs("</tr>\n<tr><th>wall time</th>", o);
    for (size_t i = 0; i < n; i++) {
        snprintf(t, sizeof t, "%.6f s", runs[i].total.host_seconds);
        cell_real(o, "host_seconds", runs[i].total.host_seconds, t);
    }
    fputs("</tr>\n<tr><th>simulation speed</th>", o);
    for (size_t i = 0; i < n; i++) {
        snprintf(t, sizeof t, "%.2f M warp-instructions/s", speed(&runs[i].total) / 1e6);
        cell_real(o, "warp_instructions_per_second", speed(&runs[i].total), t);
    }
    fputs("</tr>\n</tbody></table>\n", o);
}

static void section_summary(FILE *o, const rep_run *runs, size_t n)
{
    section_open(o, "summary", "Summary");
    for (size_t i = 0; i < n; i++) summary_cards(o, &runs[i]);
    fputs("<div class=\"two\">", o);
    totals_table(o, runs, n);
    info_table(o, runs, n, "kernel: ", "kernel");
    info_table(o, runs, n, "grid: ", "grid");
    info_table(o, runs, n, "device: ", "device");
    fputs("</div>\n", o);
    info_table(o, runs, n, "", "run");
    fputs("</section>\n", o);
}

/* ---- launches ---- */

/* Launch names of every run, first seen first (runs of the same program line up). */
static const char **launch_names(const rep_run *runs, size_t n, size_t *count)
{
    size_t cap = 0;
    for (size_t i = 0; i < n; i++) cap += runs[i].nlaunches;
    const char **names = calloc(cap ? cap : 1, sizeof *names);
    size_t k = 0;
    for (size_t i = 0; names && i < n; i++)
        for (size_t j = 0; j < runs[i].nlaunches; j++) {
            bool seen = false;
            for (size_t m = 0; m < k && !seen; m++) seen = !strcmp(names[m], runs[i].launches[j].name);
            if (!seen) names[k++] = runs[i].launches[j].name;
        }
    *count = k;
    return names;
}

static const umb_stats *launch_of(const rep_run *r, const char *name)
{
    for (size_t j = 0; j < r->nlaunches; j++)
        if (!strcmp(r->launches[j].name, name)) return &r->launches[j].st;
    return NULL;
}

typedef double (*stat_fn)(const umb_stats *s);
static double f_warp_insts(const umb_stats *s) { return (double)s->warp_insts; }
static double f_seconds(const umb_stats *s) { return s->host_seconds; }
static double f_divergent(const umb_stats *s) { return (double)s->divergent_branches; }

/* A chart of one figure per launch, runs side by side. */
static void launch_chart(FILE *o, const rep_run *runs, size_t n, const char **names, size_t nn, const char *id,
                         const char *title, const char *unit, stat_fn f, bool pct)
{
    double *v = zalloc(nn * n, sizeof *v);
    const char **series = run_labels(runs, n);
    const char *seg[] = { title };
    if (!v || !series) goto out;
    for (size_t g = 0; g < nn; g++)
        for (size_t s = 0; s < n; s++) {
            const umb_stats *st = launch_of(&runs[s], names[g]);
            v[g * n + s] = st ? f(st) : 0;
        }
    rep_chart c = { .id = id, .title = title, .unit = unit, .groups = names, .ngroups = nn, .series = series,
                    .nseries = n, .segs = seg, .nsegs = 1, .v = v, .fixed_100 = pct };
    rep_svg_chart(o, &c);
out:
    free(v);
    free(series);
}

static void launch_table(FILE *o, const rep_run *r)
{
    uint64_t heaviest = 0;
    for (size_t j = 0; j < r->nlaunches; j++)
        if (r->launches[j].st.warp_insts > heaviest) heaviest = r->launches[j].st.warp_insts;
    fputs("<table class=\"launches sortable\"><caption>", o);
    rep_html_text(o, r->label);
    fputs("</caption><thead><tr><th>#</th><th>launch</th><th title=\"workgroups (WGs), warps x threads\">shape</th><th>workgroups</th><th>warps</th>"
          "<th>warp-instructions</th><th>share</th><th>thread-instructions</th><th>SIMT</th><th>divergent branches</th>"
          "<th>wall time</th><th>speed</th></tr></thead><tbody>\n", o);
    for (size_t j = 0; j < r->nlaunches; j++) {
        const umb_stats *s = &r->launches[j].st;
        double share = r->total.warp_insts ? 100.0 * (double)s->warp_insts / (double)r->total.warp_insts : 0;
        fprintf(o, "<tr%s><td class=\"num\" data-value=\"%zu\">%zu</td>", s->warp_insts == heaviest && r->nlaunches > 1 ? " class=\"heavy\"" : "",
                j + 1, j + 1);
        cell_text(o, r->launches[j].name);
        fputs("<td class=\"nowrap\">", o);
        rep_html_text(o, r->launches[j].shape);
        fputs("</td>", o);
        cell_count(o, "workgroups", s->workgroups);
        cell_count(o, "warps", s->warps);
        cell_count(o, "warp_instructions", s->warp_insts);
        fprintf(o, "<td class=\"num\" data-value=\"%.6f\"><span class=\"minibar\" style=\"width:%.1fpx\"></span>%.1f %%</td>",
                share, share * 0.6, share);
        cell_count(o, "thread_instructions", s->thread_insts);
        char t[48];
        snprintf(t, sizeof t, "%.2f %%", simt_pct(s));
        cell_real(o, "simt_efficiency", umb_stats_simt_efficiency(s), t);
        cell_count(o, "divergent_branches", s->divergent_branches);
        snprintf(t, sizeof t, "%.6f s", s->host_seconds);
        cell_real(o, "host_seconds", s->host_seconds, t);
        snprintf(t, sizeof t, "%.2f M/s", speed(s) / 1e6);
        cell_real(o, "warp_instructions_per_second", speed(s), t);
        fputs("</tr>\n", o);
    }
    fputs("</tbody></table>\n", o);
}

static void section_launches(FILE *o, const rep_run *runs, size_t n)
{
    section_open(o, "launches", "Launches");
    size_t nn;
    const char **names = launch_names(runs, n, &nn);
    if (!names) {   /* out of memory: the section stays empty */
        fputs("</section>\n", o);
        return;
    }
    for (size_t i = 0; i < n; i++) launch_table(o, &runs[i]);
    launch_chart(o, runs, n, names, nn, "chart-launch-insts", "warp-instructions per launch", "count", f_warp_insts, false);
    launch_chart(o, runs, n, names, nn, "chart-launch-time", "wall time per launch", "s", f_seconds, false);
    free(names);
    fputs("</section>\n", o);
}

/* ---- instruction mix ---- */

/* Classes that any run executed (the others would be empty legend entries). */
static size_t used_classes(const rep_run *runs, size_t n, int cls[UMB_CLASS_COUNT])
{
    size_t k = 0;
    for (int c = 0; c < UMB_CLASS_COUNT; c++) {
        bool any = false;
        for (size_t i = 0; i < n; i++) any |= runs[i].total.by_class[c] != 0;
        if (any) cls[k++] = c;
    }
    return k;
}

/* Stacked bars of the classes, one bar per stats in list. */
static void mix_chart(FILE *o, const char *id, const char *title, const char **groups, const umb_stats *const *st,
                      size_t ng, const int *cls, size_t ncls)
{
    const char *series[] = { "" };
    const char *segs[UMB_CLASS_COUNT];
    double *v = zalloc(ng * ncls, sizeof *v);
    if (!v) return;
    for (size_t k = 0; k < ncls; k++) segs[k] = class_titles[cls[k]];
    for (size_t g = 0; g < ng; g++)
        for (size_t k = 0; k < ncls; k++) v[g * ncls + k] = (double)st[g]->by_class[cls[k]];
    rep_chart c = { .id = id, .title = title, .unit = "count", .groups = groups, .ngroups = ng, .series = series,
                    .nseries = 1, .segs = segs, .nsegs = ncls, .v = v };
    rep_svg_chart(o, &c);
    free(v);
}

static void section_mix(FILE *o, const rep_run *runs, size_t n)
{
    section_open(o, "mix", "Instruction mix");
    int cls[UMB_CLASS_COUNT];
    size_t ncls = used_classes(runs, n, cls);
    const char **labels = run_labels(runs, n);
    const umb_stats **st = calloc(n, sizeof *st);
    if (labels && st) {
        for (size_t i = 0; i < n; i++) st[i] = &runs[i].total;
        mix_chart(o, "chart-mix", "warp-instructions by class (all launches)", labels, st, n, cls, ncls);
    }
    free(labels);
    free(st);
    if (n == 1 && runs[0].nlaunches > 1) {   /* one program: how the mix changes from launch to launch */
        const rep_run *r = &runs[0];
        const char **names = calloc(r->nlaunches, sizeof *names);
        const umb_stats **ls = calloc(r->nlaunches, sizeof *ls);
        for (size_t j = 0; names && ls && j < r->nlaunches; j++) names[j] = r->launches[j].name, ls[j] = &r->launches[j].st;
        if (names && ls) mix_chart(o, "chart-mix-launch", "warp-instructions by class, per launch", names, ls, r->nlaunches, cls, ncls);
        free(names);
        free(ls);
    }
    fputs("<table class=\"mix sortable\"><thead><tr><th>class</th>", o);
    for (size_t i = 0; i < n; i++) fputs("<th>", o), rep_html_text(o, runs[i].label), fputs("</th><th>%</th>", o);
    fputs("</tr></thead><tbody>\n", o);
    for (int c = 0; c < UMB_CLASS_COUNT; c++) {
        fprintf(o, "<tr><td>%s</td>", class_titles[c]);
        for (size_t i = 0; i < n; i++) {
            char key[64], t[32];
            snprintf(key, sizeof key, "instructions_by_class.%s", class_titles[c]);
            cell_count(o, key, runs[i].total.by_class[c]);
            double p = runs[i].total.warp_insts ? 100.0 * (double)runs[i].total.by_class[c] / (double)runs[i].total.warp_insts : 0;
            snprintf(t, sizeof t, "%.1f %%", p);
            cell_real(o, "share", p, t);
        }
        fputs("</tr>\n", o);
    }
    fputs("</tbody></table></section>\n", o);
}

/* ---- SIMT ---- */

static double f_simt(const umb_stats *s) { return simt_pct(s); }

static void section_simt(FILE *o, const rep_run *runs, size_t n)
{
    section_open(o, "simt", "SIMT efficiency and divergence");
    fputs("<p class=\"note\">SIMT efficiency: active lanes of the issued instructions over the lanes they could have "
          "used (thread-instructions / lane slots). A divergent branch is one that split a warp.</p>\n", o);
    size_t nn;
    const char **names = launch_names(runs, n, &nn);
    if (!names) {   /* out of memory: the section stays empty */
        fputs("</section>\n", o);
        return;
    }
    launch_chart(o, runs, n, names, nn, "chart-simt", "SIMT efficiency per launch", "%", f_simt, true);
    launch_chart(o, runs, n, names, nn, "chart-divergence", "divergent branches per launch", "count", f_divergent, false);
    free(names);
    fputs("</section>\n", o);
}

/* ---- memory ---- */

static void memory_chart(FILE *o, const rep_run *runs, size_t n, bool bytes)
{
    const char *groups[UMB_SPACE_COUNT];
    for (int s = 0; s < UMB_SPACE_COUNT; s++) groups[s] = umb_addr_space_name((umb_addr_space)s);
    const char *access[] = { "loads", "stores", "atomics" }, *volume[] = { "bytes read", "bytes written" };
    size_t nsegs = bytes ? 2 : 3;
    double *v = calloc((size_t)UMB_SPACE_COUNT * n * nsegs, sizeof *v);
    const char **series = run_labels(runs, n);
    if (v && series) {
        for (int g = 0; g < UMB_SPACE_COUNT; g++)
            for (size_t s = 0; s < n; s++) {
                const umb_mem_traffic *t = &runs[s].total.mem[g];
                double *d = &v[((size_t)g * n + s) * nsegs];
                if (bytes) d[0] = (double)t->bytes_read, d[1] = (double)t->bytes_written;
                else d[0] = (double)t->loads, d[1] = (double)t->stores, d[2] = (double)t->atomics;
            }
        rep_chart c = { .id = bytes ? "chart-mem-bytes" : "chart-mem-accesses",
                        .title = bytes ? "bytes by address space" : "lane accesses by address space",
                        .unit = bytes ? "bytes" : "count", .groups = groups, .ngroups = UMB_SPACE_COUNT,
                        .series = series, .nseries = n, .segs = bytes ? volume : access, .nsegs = nsegs, .v = v };
        rep_svg_chart(o, &c);
    }
    free(v);
    free(series);
}

static void section_memory(FILE *o, const rep_run *runs, size_t n)
{
    section_open(o, "memory", "Memory traffic");
    fputs("<p class=\"note\">Lane accesses: one per active lane of a memory instruction (a scalar load counts one). "
          "An atomic counts its bytes as read and written.</p>\n", o);
    memory_chart(o, runs, n, false);
    memory_chart(o, runs, n, true);
    fputs("<table class=\"memory\"><thead><tr><th>run</th><th>space</th><th>loads</th><th>stores</th><th>atomics</th>"
          "<th>bytes read</th><th>bytes written</th></tr></thead><tbody>\n", o);
    for (size_t i = 0; i < n; i++)
        for (int s = 0; s < UMB_SPACE_COUNT; s++) {
            const umb_mem_traffic *t = &runs[i].total.mem[s];
            const char *sp = umb_addr_space_name((umb_addr_space)s);
            char k[5][64];
            snprintf(k[0], sizeof k[0], "memory.%s.loads", sp);
            snprintf(k[1], sizeof k[1], "memory.%s.stores", sp);
            snprintf(k[2], sizeof k[2], "memory.%s.atomics", sp);
            snprintf(k[3], sizeof k[3], "memory.%s.bytes_read", sp);
            snprintf(k[4], sizeof k[4], "memory.%s.bytes_written", sp);
            fputs("<tr>", o);
            cell_text(o, runs[i].label);
            cell_text(o, sp);
            cell_count(o, k[0], t->loads);
            cell_count(o, k[1], t->stores);
            cell_count(o, k[2], t->atomics);
            cell_count(o, k[3], t->bytes_read);
            cell_count(o, k[4], t->bytes_written);
            fputs("</tr>\n", o);
        }
    fputs("</tbody></table></section>\n", o);
}

/* ---- hottest instructions ---- */

static void hot_table(FILE *o, const rep_run *r)
{
    size_t rows = r->nhot < HOT_ROWS ? r->nhot : HOT_ROWS;
    fputs("<table class=\"hot\"><caption>", o);
    rep_html_text(o, r->label);
    fprintf(o, ": the %zu hottest of %zu executed instructions</caption>", rows, r->nhot);
    fputs("<thead><tr><th>#</th><th>PC</th><th>issues</th><th>share</th><th>instruction</th></tr></thead><tbody>\n", o);
    for (size_t j = 0; j < rows; j++) {
        const rep_hot *h = &r->hot[j];
        double share = r->hot_total ? 100.0 * (double)h->count / (double)r->hot_total : 0;
        fprintf(o, "<tr><td class=\"num\">%zu</td><td class=\"mono\">", j + 1);
        rep_html_text(o, h->pc);
        fputs("</td>", o);
        cell_count(o, "count", h->count);
        fprintf(o, "<td class=\"num\"><span class=\"minibar\" style=\"width:%.1fpx\"></span>%.1f %%</td><td class=\"mono\">",
                share * 1.2, share);
        rep_html_text(o, h->disasm);
        fputs("</td></tr>\n", o);
    }
    fputs("</tbody></table>\n", o);
}

static void section_hot(FILE *o, const rep_run *runs, size_t n)
{
    section_open(o, "hot", "Hottest instructions");
    bool any = false;
    for (size_t i = 0; i < n; i++)
        if (runs[i].nhot) hot_table(o, &runs[i]), any = true;
    if (!any)
        note(o, "These statistics hold no per-PC profile: `--report FILE.html` on umbra run and umbra ventus run "
                "(or --profile-pcs with --stats) counts how often each instruction issued.");
    fputs("</section>\n", o);
}

/* ---- timing (the timing model's "timing" object) ---- */

/* Every member name of the runs' timing objects, first seen first. */
static const char **timing_keys(const rep_run *runs, size_t n, size_t *count)
{
    size_t cap = 0;
    for (size_t i = 0; i < n; i++) cap += runs[i].timing ? json_object_size(runs[i].timing) : 0;
    const char **keys = calloc(cap ? cap : 1, sizeof *keys);
    size_t k = 0;
    for (size_t i = 0; keys && i < n; i++) {
        const char *key;
        json_t *v;
        if (!runs[i].timing) continue;
        json_object_foreach(runs[i].timing, key, v) {
            bool seen = false;
            for (size_t m = 0; m < k && !seen; m++) seen = !strcmp(keys[m], key);
            if (!seen) keys[k++] = key;
        }
    }
    *count = k;
    return keys;
}

static json_t *timing_member(const rep_run *r, const char *key)
{
    return r->timing ? json_object_get(r->timing, key) : NULL;
}

static bool all_numbers(json_t *o)
{
    const char *k;
    json_t *v;
    if (!json_is_object(o) || !json_object_size(o)) return false;
    json_object_foreach(o, k, v) if (!json_is_number(v)) return false;
    return true;
}

/* {"L0": {"hits": .., "misses": ..}, ...}: cache levels. */
static bool cache_levels(json_t *o)
{
    const char *k;
    json_t *v;
    if (!json_is_object(o) || !json_object_size(o)) return false;
    json_object_foreach(o, k, v) if (!json_is_number(json_object_get(v, "hits")) || !json_is_number(json_object_get(v, "misses"))) return false;
    return true;
}

/* Scalars of the timing objects: one table, a column per run. */
static void timing_scalars(FILE *o, const rep_run *runs, size_t n, const char **keys, size_t nk)
{
    bool header = false;
    for (size_t k = 0; k < nk; k++) {
        bool scalar = false;
        for (size_t i = 0; i < n; i++) {
            json_t *v = timing_member(&runs[i], keys[k]);
            scalar |= json_is_number(v) || json_is_string(v);
        }
        if (!scalar) continue;
        if (!header) {
            fputs("<table class=\"timing\"><thead><tr><th></th>", o);
            for (size_t i = 0; i < n; i++) fputs("<th>", o), rep_html_text(o, runs[i].label), fputs("</th>", o);
            fputs("</tr></thead><tbody>\n", o);
            header = true;
        }
        fputs("<tr><th>", o);
        rep_html_text(o, keys[k]);
        fputs("</th>", o);
        for (size_t i = 0; i < n; i++) {
            json_t *v = timing_member(&runs[i], keys[k]);
            char t[64] = "";
            if (json_is_integer(v)) rep_fmt_count(t, sizeof t, (uint64_t)json_integer_value(v));
            else if (json_is_real(v)) snprintf(t, sizeof t, "%.6g", json_real_value(v));
            else if (json_is_string(v)) snprintf(t, sizeof t, "%s", json_string_value(v));
            if (json_is_number(v)) cell_real(o, keys[k], json_number_value(v), t);
            else cell_text(o, t);
        }
        fputs("</tr>\n", o);
    }
    if (header) fputs("</tbody></table>\n", o);
}

/* The keys of the timing object `key` over all runs whose object passes `accept`, first seen
 * first, at most `max`: the union that gives every run's chart the same segments. */
static size_t union_of_keys(const rep_run *runs, size_t n, const char *key, bool (*accept)(json_t *),
                            const char **out, size_t max)
{
    size_t nk = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *obj = timing_member(&runs[i], key), *v;
        const char *k;
        if (!accept(obj)) continue;
        json_object_foreach(obj, k, v) {
            bool seen = false;
            for (size_t m = 0; m < nk && !seen; m++) seen = !strcmp(out[m], k);
            if (!seen && nk < max) out[nk++] = k;
        }
    }
    return nk;
}

/* An object of numbers (a stall breakdown by state): one stacked bar per run. */
static void timing_breakdown(FILE *o, const rep_run *runs, size_t n, const char *key)
{
    const char *segs[64];
    size_t ns = union_of_keys(runs, n, key, all_numbers, segs, 64);
    const char **labels = run_labels(runs, n);
    double *val = zalloc(n * ns, sizeof *val);
    const char *series[] = { "" };
    if (labels && val && ns) {
        for (size_t i = 0; i < n; i++)
            for (size_t s = 0; s < ns; s++) {
                json_t *v = json_object_get(timing_member(&runs[i], key), segs[s]);
                val[i * ns + s] = json_is_number(v) ? json_number_value(v) : 0;
            }
        char id[96];
        snprintf(id, sizeof id, "chart-timing-%s", key);
        rep_chart c = { .id = id, .title = key, .unit = "number", .groups = labels, .ngroups = n, .series = series,
                        .nseries = 1, .segs = segs, .nsegs = ns, .v = val };
        rep_svg_chart(o, &c);
    }
    free(labels);
    free(val);
}

/* Cache levels: hit rate per level, runs side by side. */
static void timing_caches(FILE *o, const rep_run *runs, size_t n, const char *key)
{
    const char *levels[32];
    size_t nl = union_of_keys(runs, n, key, cache_levels, levels, 32);
    const char **series = run_labels(runs, n);
    double *val = zalloc(nl * n, sizeof *val);
    const char *seg[] = { "hit rate" };
    if (series && val && nl) {
        for (size_t g = 0; g < nl; g++)
            for (size_t s = 0; s < n; s++) {
                json_t *lv = json_object_get(timing_member(&runs[s], key), levels[g]);
                double h = json_number_value(json_object_get(lv, "hits")), m = json_number_value(json_object_get(lv, "misses"));
                val[g * n + s] = h + m > 0 ? 100.0 * h / (h + m) : 0;
            }
        char id[96], title[128];
        snprintf(id, sizeof id, "chart-timing-%s", key);
        snprintf(title, sizeof title, "%s: hit rate per level", key);
        rep_chart c = { .id = id, .title = title, .unit = "%", .groups = levels, .ngroups = nl, .series = series,
                        .nseries = n, .segs = seg, .nsegs = 1, .v = val, .fixed_100 = true };
        rep_svg_chart(o, &c);
    }
    free(series);
    free(val);
}

/* A timeline: [{"track"|"tid", "name", "start"|"ts", "end" | "dur"}, ...] as a Gantt chart of
 * its first 48 tracks. */
static void timing_timeline(FILE *o, const rep_run *r, json_t *events)
{
    enum { W = 900, LW = 130, ROW = 12, MAXTRACKS = 48 };
    const char *tracks[MAXTRACKS];
    char tnum[MAXTRACKS][24];
    size_t nt = 0, i;
    double t0 = 1e300, t1 = -1e300;
    json_t *e;
    json_array_foreach(events, i, e) {
        json_t *st = json_object_get(e, "start"), *ts = json_object_get(e, "ts");
        json_t *en = json_object_get(e, "end"), *du = json_object_get(e, "dur");
        double a = json_is_number(st) ? json_number_value(st) : json_number_value(ts);
        double b = json_is_number(en) ? json_number_value(en) : a + json_number_value(du);
        t0 = a < t0 ? a : t0;
        t1 = b > t1 ? b : t1;
    }
    if (!(t1 > t0)) return;
    char (*tr)[24] = tnum;
    size_t *row = calloc(json_array_size(events) + 1, sizeof *row);
    if (!row) return;
    json_array_foreach(events, i, e) {
        json_t *t = json_object_get(e, "track");
        if (!t) t = json_object_get(e, "tid");
        char name[24];
        if (json_is_string(t)) snprintf(name, sizeof name, "%s", json_string_value(t));
        else snprintf(name, sizeof name, "%" JSON_INTEGER_FORMAT, json_integer_value(t));
        size_t k = 0;
        while (k < nt && strcmp(tracks[k], name)) k++;
        if (k == nt && nt < MAXTRACKS) snprintf(tr[nt], sizeof tr[nt], "%s", name), tracks[nt] = tr[nt], nt++;
        row[i] = k;   /* k == MAXTRACKS: not drawn */
    }
    size_t h = 20 + nt * ROW;
    fputs("<figure class=\"chart timeline\"><figcaption>timeline: ", o);
    rep_html_text(o, r->label);
    fprintf(o, "</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\">", W, h);
    for (size_t k = 0; k < nt; k++) {
        fprintf(o, "<text class=\"series\" x=\"%d\" y=\"%zu\" text-anchor=\"end\">", LW - 4, 20 + k * ROW + ROW - 3);
        rep_html_text(o, tracks[k]);
        fputs("</text>", o);
    }
    double scale = (W - LW - 10) / (t1 - t0);
    for (int k = 0; k <= 4; k++) {   /* time axis, in the events' own unit */
        double x = LW + (W - LW - 10) * k / 4.0;
        fprintf(o, "<line class=\"grid\" x1=\"%.1f\" y1=\"14\" x2=\"%.1f\" y2=\"%zu\"/>"
                   "<text class=\"tick\" x=\"%.1f\" y=\"11\" text-anchor=\"middle\">%.4g</text>",
                x, x, h, x, t0 + (t1 - t0) * k / 4.0);
    }
    json_array_foreach(events, i, e) {
        if (row[i] >= nt) continue;
        json_t *st = json_object_get(e, "start"), *ts = json_object_get(e, "ts");
        json_t *en = json_object_get(e, "end"), *du = json_object_get(e, "dur");
        double a = json_is_number(st) ? json_number_value(st) : json_number_value(ts);
        double b = json_is_number(en) ? json_number_value(en) : a + json_number_value(du);
        const char *name = json_string_value(json_object_get(e, "name"));
        size_t hash = 0;
        for (const char *p = name ? name : ""; *p; p++) hash = hash * 31 + (unsigned char)*p;
        fprintf(o, "<rect class=\"event\" x=\"%.2f\" y=\"%zu\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>",
                LW + (a - t0) * scale, 20 + row[i] * ROW, (b - a) * scale > 0.5 ? (b - a) * scale : 0.5, ROW - 2,
                rep_color(hash));
        rep_html_text(o, name ? name : "");
        fprintf(o, " %.6g..%.6g</title></rect>", a, b);
    }
    fputs("</svg></figure>\n", o);
    free(row);
}

static void section_timing(FILE *o, const rep_run *runs, size_t n)
{
    section_open(o, "timing", "Timing");
    size_t nk;
    const char **keys = timing_keys(runs, n, &nk);
    if (!keys || nk == 0) {
        note(o, "No timing data: these statistics come from functional simulation. When the timing model runs "
                "(--timing), its cycles, stall breakdown, cache hit rates per level, occupancy and timeline are "
                "shown here.");
        free(keys);
        fputs("</section>\n", o);
        return;
    }
    timing_scalars(o, runs, n, keys, nk);
    for (size_t k = 0; k < nk; k++) {
        bool numbers = false, caches = false;
        for (size_t i = 0; i < n; i++) {
            numbers |= all_numbers(timing_member(&runs[i], keys[k]));
            caches |= cache_levels(timing_member(&runs[i], keys[k]));
        }
        if (caches) timing_caches(o, runs, n, keys[k]);
        else if (numbers) timing_breakdown(o, runs, n, keys[k]);
        for (size_t i = 0; i < n; i++) {
            json_t *v = timing_member(&runs[i], keys[k]);
            if (json_is_array(v) && json_array_size(v)) timing_timeline(o, &runs[i], v);
        }
    }
    free(keys);
    fputs("</section>\n", o);
}

/* ---- the page ---- */

static const char *const style =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;color:#222;background:#f4f5f7}"
    "header{background:#1f2d3d;color:#fff;padding:18px 32px}header h1{margin:0;font-size:22px}"
    "header p{margin:4px 0 0;color:#c9d3de}main{padding:8px 32px 40px;max-width:1200px}"
    "section{background:#fff;border-radius:6px;box-shadow:0 1px 3px rgba(0,0,0,.12);padding:12px 20px;margin:16px 0}"
    "h2{font-size:17px;margin:4px 0 10px;color:#1f2d3d}"
    "table{border-collapse:collapse;margin:8px 0 14px;font-size:13px}caption{text-align:left;font-weight:600;padding:4px 0}"
    "th,td{padding:3px 10px;border-bottom:1px solid #e3e6ea;text-align:left;vertical-align:top}thead th{background:#eef1f4}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}.mono{font-family:ui-monospace,Menlo,Consolas,monospace}.small{font-size:11px;max-width:560px}.nowrap{white-space:nowrap}"
    "tr.heavy td{background:#fff4e0;font-weight:600}table.sortable th{cursor:pointer}"
    ".minibar{display:inline-block;height:9px;background:#4e79a7;margin-right:6px;vertical-align:middle}"
    ".cards{display:flex;gap:10px;flex-wrap:wrap;align-items:stretch;margin:6px 0}"
    ".run-name{font-weight:600;min-width:140px;align-self:center}.isa{background:#e0e7ef;border-radius:3px;padding:1px 5px;font-size:12px}"
    ".card{background:#f7f9fb;border:1px solid #e3e6ea;border-radius:5px;padding:6px 12px;min-width:150px}"
    ".card b{display:block;font-size:18px}.card span{color:#667;font-size:12px}"
    ".two{display:flex;gap:24px;flex-wrap:wrap;align-items:flex-start}"
    "figure.chart{margin:10px 0 18px}figcaption{font-weight:600;margin-bottom:4px}"
    ".legend{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:12px;margin:2px 0 6px}"
    ".legend i{display:inline-block;width:11px;height:11px;margin-right:4px;vertical-align:-1px;border-radius:2px}"
    "svg text{font:12px system-ui,sans-serif;fill:#333}svg text.tick{fill:#889;font-size:11px}"
    "svg text.group{font-weight:600}svg text.val{fill:#556;font-size:11px}svg line.grid{stroke:#e6e8eb}"
    "svg rect.seg:hover,svg rect.event:hover{opacity:.75}.note{color:#556;margin:4px 0 8px}"
    "#script-errors{background:#fdd;color:#900;padding:8px 32px;white-space:pre-wrap}"
    "#tooltip{position:fixed;pointer-events:none;background:#1f2d3d;color:#fff;padding:3px 8px;border-radius:3px;"
    "font-size:12px;display:none;z-index:9}footer{color:#778;font-size:12px;padding:0 32px 24px}";

/* Runs first: errors go into the page (the tests read them back through the DOM). */
static const char *const script_head =
    "window.onerror=function(msg,src,line,col){var e=document.getElementById('script-errors');"
    "if(e){e.hidden=false;e.textContent+=msg+' (line '+line+':'+col+')\\n';}"
    "document.documentElement.setAttribute('data-script-errors','1');};";

/* Sortable tables, tooltips, and a self-check of the charts; marks the page ready at the end. */
static const char *const script_tail =
    "(function(){\n"
    "var tip=document.getElementById('tooltip');\n"
    "document.querySelectorAll('svg rect').forEach(function(r){var t=r.querySelector('title');if(!t)return;\n"
    " r.addEventListener('mousemove',function(ev){tip.textContent=t.textContent;tip.style.display='block';\n"
    "  tip.style.left=(ev.clientX+12)+'px';tip.style.top=(ev.clientY+12)+'px';});\n"
    " r.addEventListener('mouseleave',function(){tip.style.display='none';});});\n"
    "function key(td){var v=td.getAttribute('data-value');return v!==null?parseFloat(v):td.textContent.toLowerCase();}\n"
    "document.querySelectorAll('table.sortable').forEach(function(tb){\n"
    " tb.querySelectorAll('thead th').forEach(function(th,col){var asc=false;th.title='sort';\n"
    "  th.addEventListener('click',function(){asc=!asc;var body=tb.tBodies[0];var rows=Array.prototype.slice.call(body.rows);\n"
    "   rows.sort(function(a,b){var x=key(a.cells[col]),y=key(b.cells[col]);return (x<y?-1:x>y?1:0)*(asc?1:-1);});\n"
    "   rows.forEach(function(r){body.appendChild(r);});});});});\n"
    "var charts=document.querySelectorAll('figure.chart[data-groups]'),bars=0;\n"
    "charts.forEach(function(f){var want=f.getAttribute('data-groups')*f.getAttribute('data-series');\n"
    " var got=f.querySelectorAll('g.bar').length;bars+=got;\n"
    " if(got!==want)throw new Error('chart '+f.id+': '+got+' bars, expected '+want);\n"
    " f.querySelectorAll('rect.seg').forEach(function(r){if(!(parseFloat(r.getAttribute('width'))>0))"
    "throw new Error('chart '+f.id+': a segment without width');});});\n"
    "var s=document.getElementById('report-status');s.setAttribute('data-ready','1');\n"
    "s.setAttribute('data-charts',charts.length);s.setAttribute('data-bars',bars);\n"
    "s.textContent='page ready: '+charts.length+' charts, '+bars+' bars';\n"
    "})();\n";

void rep_page(FILE *o, const rep_run *runs, size_t n, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", o);
    rep_html_text(o, title ? title : "umbra report");
    fprintf(o, "</title>\n<style>%s</style>\n<script>%s</script>\n</head><body>\n", style, script_head);
    fputs("<div id=\"script-errors\" hidden></div><div id=\"tooltip\"></div>\n<header><h1>", o);
    rep_html_text(o, title ? title : "umbra report");
    fputs("</h1><p>", o);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? " · " : "", o);
        rep_html_text(o, runs[i].label);
        if (runs[i].isa[0]) fprintf(o, " (%s)", runs[i].isa);
    }
    fputs("</p></header>\n<main>\n", o);
    section_summary(o, runs, n);
    section_launches(o, runs, n);
    section_mix(o, runs, n);
    section_simt(o, runs, n);
    section_memory(o, runs, n);
    section_hot(o, runs, n);
    section_timing(o, runs, n);
    fprintf(o, "</main>\n<footer>generated by umbra %s from", UMBRA_VERSION_STRING);
    for (size_t i = 0; i < n; i++) fputs(" ", o), rep_html_text(o, runs[i].name);
    fputs(". Every figure comes from the statistics JSON; hover a bar for its value, click a column to sort."
          " <span id=\"report-status\" data-ready=\"0\">script did not run</span></footer>\n", o);
    fprintf(o, "<script>\n%s</script>\n</body></html>\n", script_tail);
}

/* ---- API ---- */

umb_status umb_report_render(const umb_report_input *in, size_t n, const char *title, FILE *out, char *err,
                             size_t errlen)
{
    if (!in || !n || !out) {
        snprintf(err, errlen, "no statistics to report");
        return UMB_ERR_INVALID;
    }
    rep_run *runs = calloc(n, sizeof *runs);
    if (!runs) return snprintf(err, errlen, "out of memory"), UMB_ERR_NOMEM;
    umb_status st = UMB_OK;
    for (size_t i = 0; i < n && st == UMB_OK; i++)
        if (!rep_run_read(&runs[i], &in[i], err, errlen)) st = UMB_ERR_FORMAT;
    if (st == UMB_OK) rep_page(out, runs, n, title);
    for (size_t i = 0; i < n; i++) rep_run_free(&runs[i]);
    free(runs);
    return st;
}

static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
    bool std_in = !strcmp(path, "-");
    FILE *f = std_in ? stdin : fopen(path, "rb");
    if (!f) return snprintf(err, errlen, "%s: %s", path, strerror(errno)), NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            char *nb = realloc(buf, cap = cap ? cap * 2 : 65536);
            if (!nb) {
                free(buf);
                if (!std_in) fclose(f);
                return snprintf(err, errlen, "%s: out of memory", path), NULL;
            }
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    bool bad = ferror(f);
    if (!std_in) fclose(f);
    if (bad) {
        free(buf);
        return snprintf(err, errlen, "%s: read error", path), NULL;
    }
    *len = n;
    return buf;
}

umb_status umb_report_save(const char *html, size_t len, const char *path, char *err, size_t errlen)
{
    size_t pl = strlen(path) + 32;
    char *tmp = malloc(pl);
    if (!tmp) return snprintf(err, errlen, "out of memory"), UMB_ERR_NOMEM;
    snprintf(tmp, pl, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wx");   /* created with the user's umask, never over another file */
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        free(tmp);
        return UMB_ERR_IO;
    }
    bool ok = fwrite(html, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (ok) ok = rename(tmp, path) == 0;
    if (!ok) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return ok ? UMB_OK : UMB_ERR_IO;
}

umb_status umb_report_write_files(const char *const *paths, const char *const *labels, size_t n, const char *title,
                                  const char *html_path, char *err, size_t errlen)
{
    umb_report_input *in = calloc(n ? n : 1, sizeof *in);
    if (!in) return snprintf(err, errlen, "out of memory"), UMB_ERR_NOMEM;
    umb_status st = UMB_OK;
    for (size_t i = 0; i < n && st == UMB_OK; i++) {
        in[i].name = paths[i];
        in[i].label = labels ? labels[i] : NULL;
        char *text = slurp(paths[i], &in[i].len, err, errlen);
        if (!text) st = UMB_ERR_IO;
        in[i].json = text;
    }
    char *page = NULL;
    size_t len = 0;
    FILE *mem = st == UMB_OK ? open_memstream(&page, &len) : NULL;
    if (st == UMB_OK && !mem) st = UMB_ERR_NOMEM, snprintf(err, errlen, "out of memory");
    if (mem) {
        st = umb_report_render(in, n, title, mem, err, errlen);
        fclose(mem);
    }
    if (st == UMB_OK) st = umb_report_save(page, len, html_path, err, errlen);
    free(page);
    for (size_t i = 0; i < n; i++) free((char *)in[i].json);
    free(in);
    return st;
}
