/* The umbra CLI: a thin client of libumbra. One file per command family. */
#ifndef UMBRA_CLI_H
#define UMBRA_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "umbra/device.h"

int cmd_ventus(int argc, char **argv);   /* cmd_ventus.c: umbra ventus run|disasm ... */
int cmd_run(int argc, char **argv);      /* cmd_rdna3.c: umbra run kernel.co --kernel ... */
int cmd_cc(int argc, char **argv);       /* cmd_rdna3.c: umbra cc kernel.cl -o kernel.co */
int cmd_disasm(int argc, char **argv);   /* cmd_rdna3.c: umbra disasm kernel.co */
int cmd_opencl(int argc, char **argv);   /* cmd_api_room.c: umbra opencl [options] -- PROGRAM ARGS... */
int cmd_hip(int argc, char **argv);      /* cmd_api_room.c: umbra hip [options] -- PROGRAM ARGS... */
int cmd_annotate(int argc, char **argv); /* cmd_annotate.c: umbra annotate kernel.co --kernel ... */
int cmd_report(int argc, char **argv);   /* cmd_report.c: umbra report stats.json ... -o page.html */

/* cmd_report.c: shared by the run commands' --stats and --report */
void cli_json_string(FILE *f, const char *s);
/* The members "umbra" (version, isa, command line) and "device" of a statistics document,
 * indented by two, without a trailing comma. */
void cli_json_run_header(FILE *f, const char *isa, const umb_device_config *cfg, int argc, char **argv);
/* Render the statistics document json as a page at html_path; 0, or 1 after a message. */
int cli_write_report(const char *json, size_t len, const char *name, const char *html_path, const char *who);

#endif
