/* umbra/report.h — one self-contained HTML page (inline CSS, SVG charts and script; no network)
 * from one or more statistics JSON documents as `umbra run --stats`, `umbra ventus run --stats`
 * write them. Several documents are shown side by side (grouped bars). docs/REPORT.md describes
 * the page and the JSON it reads. */
#ifndef UMBRA_REPORT_H
#define UMBRA_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "umbra/device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One statistics document. */
typedef struct umb_report_input {
    const char *name;           /* where it came from (a file name), for errors and the page */
    const char *label;          /* its name on the page (e.g. "-O3"); NULL: name without folder and .json */
    const char *json;           /* the JSON text */
    size_t len;                 /* bytes of json */
} umb_report_input;

/* Render the page of n >= 1 documents to out. Every document is parsed and checked first: on a
 * malformed (truncated, not JSON) or foreign document (JSON that is not umbra statistics)
 * nothing is written, UMB_ERR_FORMAT is returned and err names the document, with the line and
 * column for a JSON syntax error. title may be NULL. */
umb_status umb_report_render(const umb_report_input *in, size_t n, const char *title, FILE *out, char *err,
                             size_t errlen);

/* Read the statistics files paths[0..n) (labels may be NULL, or hold NULL entries) and write the
 * page to html_path. The page is written only if every file reads and renders; otherwise no file
 * is created (an existing one is left as it was) and err says why. */
umb_status umb_report_write_files(const char *const *paths, const char *const *labels, size_t n, const char *title,
                                  const char *html_path, char *err, size_t errlen);

/* Write an already rendered page (html, len bytes) to path through a temporary file renamed into
 * place, so that a failed write leaves no half page. */
umb_status umb_report_save(const char *html, size_t len, const char *path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
