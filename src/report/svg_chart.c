/* SVG bar charts, written by umbra (no charting library): horizontal bars, grouped (one bar per
 * run in a group) and stacked (segments), with a value axis, a legend and a tooltip per segment.
 * Every element carries data-* attributes with the exact value, which the page's script and the
 * tests read. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "report/report.h"

enum {
    WIDTH = 900,        /* whole chart */
    LABEL_W = 210,      /* group / series labels */
    VALUE_W = 120,      /* the bar's total, right of the longest bar */
    AXIS_H = 20,        /* tick labels above the bars */
    BAR_H = 16,
    ROW_H = 21,         /* a bar and the gap below it */
    HEAD_H = 18,        /* the group label above a group's bars when there are several series */
    GROUP_GAP = 6,
};

static const char *const palette[] = {
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
    "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#86bcb6", "#d37295",
};

const char *rep_color(size_t i)
{
    return palette[i % (sizeof palette / sizeof palette[0])];
}

void rep_html_text(FILE *o, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", o); break;
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '"': fputs("&quot;", o); break;
        case '\'': fputs("&#39;", o); break;
        default: fputc(*s, o);
        }
    }
}

void rep_fmt_count(char *buf, size_t len, uint64_t v)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < len; i++) {
        if (i && (n - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o < len ? o : len - 1] = '\0';
}

void rep_fmt_value(char *buf, size_t len, double v, const char *unit)
{
    if (!strcmp(unit, "%")) snprintf(buf, len, "%.1f %%", v);
    else if (!strcmp(unit, "s")) snprintf(buf, len, "%.6f s", v);
    else if (!strcmp(unit, "bytes")) {
        char c[40];
        rep_fmt_count(c, sizeof c, (uint64_t)llround(v));
        snprintf(buf, len, "%s B", c);
    } else if (!strcmp(unit, "count") || (v == floor(v) && fabs(v) < 1e15 && v >= 0))
        rep_fmt_count(buf, len, (uint64_t)llround(v));
    else snprintf(buf, len, "%.4g", v);   /* "number": a figure that need not be whole */
}

/* A tick label: 0, 250, 1.5k, 2M, 0.002 s */
static void fmt_tick(char *buf, size_t len, double v, const char *unit)
{
    if (!strcmp(unit, "s") && v > 0 && v < 1) {   /* seconds of short launches: ms or µs */
        if (v < 1e-3) snprintf(buf, len, "%.3g µs", v * 1e6);
        else snprintf(buf, len, "%.3g ms", v * 1e3);
        return;
    }
    const char *suffix = !strcmp(unit, "%") ? "%" : !strcmp(unit, "s") ? " s" : !strcmp(unit, "bytes") ? " B" : "";
    static const char *const si[] = { "", "k", "M", "G", "T", "P" };
    int k = 0;
    while (fabs(v) >= 1000 && k < 5 && strcmp(unit, "s") && strcmp(unit, "%")) v /= 1000, k++;
    snprintf(buf, len, "%.3g%s%s", v, si[k], suffix);
}

/* The axis end: the smallest 1, 2, 2.5, 5 x 10^k at or above max. */
static double nice_max(double max)
{
    if (!(max > 0)) return 1.0;
    double step = pow(10.0, floor(log10(max)));
    static const double m[] = { 1, 2, 2.5, 5, 10 };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (m[i] * step >= max * (1 - 1e-12)) return m[i] * step;
    return 10 * step;
}

static double bar_total(const rep_chart *c, size_t g, size_t s)
{
    double t = 0;
    for (size_t k = 0; k < c->nsegs; k++) t += c->v[(g * c->nseries + s) * c->nsegs + k];
    return t;
}

/* What distinguishes the bars by colour: segments if stacked, else series if grouped. */
static bool colour_by_series(const rep_chart *c) { return c->nsegs == 1 && c->nseries > 1; }

static void legend(FILE *o, const rep_chart *c)
{
    bool by_series = colour_by_series(c);
    size_t n = by_series ? c->nseries : c->nsegs > 1 ? c->nsegs : 0;
    if (!n) return;
    fputs("<div class=\"legend\">", o);
    for (size_t i = 0; i < n; i++) {
        fprintf(o, "<span><i style=\"background:%s\"></i>", rep_color(i));
        rep_html_text(o, by_series ? c->series[i] : c->segs[i]);
        fputs("</span>", o);
    }
    fputs("</div>\n", o);
}

static size_t chart_height(const rep_chart *c)
{
    size_t per_group = c->nseries > 1 ? HEAD_H + c->nseries * ROW_H : ROW_H;
    return AXIS_H + c->ngroups * (per_group + (c->nseries > 1 ? GROUP_GAP : 0)) + 4;
}

static void axis(FILE *o, const rep_chart *c, double max, size_t height)
{
    const double plot_w = WIDTH - LABEL_W - VALUE_W;
    for (int i = 0; i <= 4; i++) {
        double x = LABEL_W + plot_w * i / 4.0;
        char t[32];
        fmt_tick(t, sizeof t, max * i / 4.0, c->unit);
        fprintf(o, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%zu\"/>", x, AXIS_H - 4, x, height);
        fprintf(o, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", x, AXIS_H - 8, t);
    }
    fputc('\n', o);
}

static void one_bar(FILE *o, const rep_chart *c, size_t g, size_t s, double y, double scale)
{
    double x = LABEL_W;
    fputs("<g class=\"bar\" data-group=\"", o);
    rep_html_text(o, c->groups[g]);
    fputs("\" data-series=\"", o);
    rep_html_text(o, c->series[s]);
    fputs("\">", o);
    for (size_t k = 0; k < c->nsegs; k++) {
        double v = c->v[(g * c->nseries + s) * c->nsegs + k];
        if (!(v > 0)) continue;
        char val[48];
        rep_fmt_value(val, sizeof val, v, c->unit);
        double w = v * scale;
        fprintf(o, "<rect class=\"seg\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\" data-value=\"%.17g\" data-seg=\"",
                x, y, w > 0.5 ? w : 0.5, BAR_H, rep_color(colour_by_series(c) ? s : k), v);
        rep_html_text(o, c->segs[k]);
        fputs("\"><title>", o);
        rep_html_text(o, c->groups[g]);
        if (c->nseries > 1) fputs(" · ", o), rep_html_text(o, c->series[s]);
        if (c->nsegs > 1) fputs(" · ", o), rep_html_text(o, c->segs[k]);
        fprintf(o, ": %s</title></rect>", val);
        x += w;
    }
    char total[48];
    rep_fmt_value(total, sizeof total, bar_total(c, g, s), c->unit);
    fprintf(o, "<text class=\"val\" x=\"%.2f\" y=\"%.1f\">%s</text></g>\n", x + 5, y + BAR_H - 4, total);
}

static void label(FILE *o, const char *cls, double x, double y, const char *text)
{
    fprintf(o, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", cls, x, y);
    /* long names (kernels, launch names) are cut; the tooltip keeps the whole */
    size_t n = strlen(text);
    if (n > 30) {
        fputs("<title>", o);
        rep_html_text(o, text);
        fputs("</title>", o);
        char cut[40];
        snprintf(cut, sizeof cut, "%.28s…", text);
        rep_html_text(o, cut);
    } else {
        rep_html_text(o, text);
    }
    fputs("</text>", o);
}

void rep_svg_chart(FILE *o, const rep_chart *c)
{
    double max = 0;
    for (size_t g = 0; g < c->ngroups; g++)
        for (size_t s = 0; s < c->nseries; s++) {
            double t = bar_total(c, g, s);
            max = t > max ? t : max;
        }
    max = c->fixed_100 ? 100.0 : nice_max(max);
    double scale = (WIDTH - LABEL_W - VALUE_W) / max;
    size_t height = chart_height(c);
    fputs("<figure class=\"chart\" id=\"", o);
    rep_html_text(o, c->id);   /* ids of timing charts are the statistics' own member names */
    fprintf(o, "\" data-groups=\"%zu\" data-series=\"%zu\" data-segments=\"%zu\"><figcaption>", c->ngroups,
            c->nseries, c->nsegs);
    rep_html_text(o, c->title);
    fputs("</figcaption>\n", o);
    legend(o, c);
    fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" viewBox=\"0 0 %d %zu\" role=\"img\">\n",
            WIDTH, height, WIDTH, height);
    axis(o, c, max, height);
    double y = AXIS_H;
    for (size_t g = 0; g < c->ngroups; g++) {
        if (c->nseries > 1) {
            fprintf(o, "<text class=\"group\" x=\"4\" y=\"%.1f\">", y + HEAD_H - 5);
            rep_html_text(o, c->groups[g]);
            fputs("</text>\n", o);
            y += HEAD_H;
        }
        for (size_t s = 0; s < c->nseries; s++) {
            label(o, c->nseries > 1 ? "series" : "glabel", LABEL_W - 6, y + BAR_H - 4,
                  c->nseries > 1 ? c->series[s] : c->groups[g]);
            one_bar(o, c, g, s, y, scale);
            y += ROW_H;
        }
        if (c->nseries > 1) y += GROUP_GAP;
    }
    fputs("</svg></figure>\n", o);
}
