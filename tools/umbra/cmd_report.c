/* umbra report — one HTML page from statistics JSON files (libumbra's umbra/report.h), and the
 * helpers the run commands use for --report and for the JSON header they share. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "umbra/report.h"
#include "umbra/umbra.h"

static void report_usage(FILE *f)
{
    fprintf(f, "usage: umbra report STATS.json [more.json ...] -o REPORT.html [--title TEXT] [--label NAME]...\n"
               "Writes one self-contained HTML page (inline SVG charts, no network needed) from the statistics\n"
               "that umbra run --stats / umbra ventus run --stats write. Several files are shown side by side.\n"
               "  -o FILE        the page to write (required)\n"
               "  --title TEXT   the page's title (default: umbra report)\n"
               "  --label NAME   the name of the next statistics file on the page (default: its file name)\n");
}

int cmd_report(int argc, char **argv)
{
    const char **paths = calloc((size_t)argc, sizeof *paths), **labels = calloc((size_t)argc, sizeof *labels);
    const char *out = NULL, *title = NULL, *next_label = NULL;
    size_t n = 0;
    int rc = 2;
    if (!paths || !labels) goto done;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            report_usage(stdout);
            rc = 0;
            goto done;
        } else if (!strcmp(a, "-o") && more) out = argv[++i];
        else if (!strcmp(a, "--title") && more) title = argv[++i];
        else if (!strcmp(a, "--label") && more) next_label = argv[++i];
        else if (a[0] != '-' || !strcmp(a, "-")) {
            labels[n] = next_label;
            paths[n++] = a;
            next_label = NULL;
        } else {
            fprintf(stderr, "umbra report: unknown or incomplete option '%s'\n", a);
            report_usage(stderr);
            goto done;
        }
    }
    if (!n || !out) {
        report_usage(stderr);
        goto done;
    }
    char err[1024];
    if (umb_report_write_files(paths, labels, n, title, out, err, sizeof err) != UMB_OK) {
        fprintf(stderr, "umbra report: %s (no page written)\n", err);
        rc = 1;
    } else {
        rc = 0;
    }
done:
    free(paths);
    free(labels);
    return rc;
}

void cli_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

void cli_json_run_header(FILE *f, const char *isa, const umb_device_config *cfg, int argc, char **argv)
{
    fprintf(f, "  \"umbra\": {\"version\": \"%s\", \"isa\": \"%s\", \"command\": \"umbra", UMBRA_VERSION_STRING, isa);
    for (int i = 0; i < argc; i++) {
        fputc(' ', f);
        /* the arguments inside the one JSON string: escape them as cli_json_string does */
        for (const char *s = argv[i]; *s; s++) {
            unsigned char c = (unsigned char)*s;
            if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
            else if (c < 0x20) fprintf(f, "\\u%04x", c);
            else fputc(c, f);
        }
    }
    fprintf(f, "\"},\n  \"device\": {\"compute_units\": %u, \"host_threads\": %u, \"quantum\": %u, "
               "\"max_instructions\": %llu}",
            cfg->compute_units, cfg->host_threads, cfg->quantum, (unsigned long long)cfg->max_instructions);
}

int cli_write_report(const char *json, size_t len, const char *name, const char *html_path, const char *who)
{
    umb_report_input in = { .name = name, .json = json, .len = len };
    char *page = NULL, err[1024];
    size_t plen = 0;
    FILE *mem = open_memstream(&page, &plen);
    if (!mem) return fprintf(stderr, "%s: out of memory\n", who), 1;
    umb_status st = umb_report_render(&in, 1, NULL, mem, err, sizeof err);
    fclose(mem);
    if (st == UMB_OK) st = umb_report_save(page, plen, html_path, err, sizeof err);
    free(page);
    if (st != UMB_OK) return fprintf(stderr, "%s: --report: %s\n", who, err), 1;
    return 0;
}
