/* PLACEHOLDER — replaced by the Ventus runtime work. */
#include <stdio.h>
#include "cli.h"
int cmd_ventus(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "umbra ventus: not built yet\n"); return 2; }
