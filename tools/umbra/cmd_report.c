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

/* Bytes of the UTF-8 sequence at s, or 0 if it is not one (JSON text must be UTF-8). */
static int utf8_length(const unsigned char *s)
{
    int n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 && s[0] >= 0xc2 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
          : (s[0] & 0xf8) == 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    return n;
}

void cli_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
        int n = utf8_length(p);
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else if (n == 0) fputs("\\ufffd", f);   /* a byte that is not UTF-8 (a file name in another encoding) */
        else fwrite(p, 1, (size_t)n, f);
        p += n ? n : 1;
    }
    fputc('"', f);
}

void cli_json_run_header(FILE *f, const char *isa, const umb_device_config *cfg, int argc, char **argv)
{
    char *cmd = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&cmd, &len);
    if (m) {
        fputs("umbra", m);
        for (int i = 0; i < argc; i++) fprintf(m, " %s", argv[i]);
        fclose(m);
    }
    fprintf(f, "  \"umbra\": {\"version\": \"%s\", \"isa\": \"%s\", \"command\": ", UMBRA_VERSION_STRING, isa);
    cli_json_string(f, m ? cmd : "umbra");
    free(cmd);
    fprintf(f, "},\n  \"device\": {\"compute_units\": %u, \"host_threads\": %u, \"quantum\": %u, "
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
