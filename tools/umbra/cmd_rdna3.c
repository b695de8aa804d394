/* PLACEHOLDER — replaced by the RDNA3 runtime work. */
#include <stdio.h>
#include "cli.h"
int cmd_run(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "umbra run: not built yet\n"); return 2; }
int cmd_cc(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "umbra cc: not built yet\n"); return 2; }
int cmd_disasm(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "umbra disasm: not built yet\n"); return 2; }
