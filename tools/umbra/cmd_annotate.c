/* umbra annotate: `umbra run` under the timing model, printing each kernel's instructions with
 * their issue counts and stall cycles, hottest first (docs/TIMING.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cmd_annotate(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        printf("usage: umbra annotate KERNEL.co --kernel NAME --global X[,Y[,Z]] [umbra run options] [--lines N]\n"
               "Runs the kernel under the timing model (--machine FILE|NAME to pick one) and prints every\n"
               "instruction that issued: issue count, stall cycles before it issued, disassembly; hottest\n"
               "(issues + stall cycles) first, at most N lines per kernel (default 40, 0 = all).\n");
        return argc < 2 ? 2 : 0;
    }
    /* umbra run ARGS --quiet --annotate N */
    char **args = calloc((size_t)argc + 4, sizeof *args);
    if (!args) return 2;
    const char *lines = "40";
    int n = 0;
    args[n++] = "run";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--lines") && i + 1 < argc) lines = argv[++i];
        else args[n++] = argv[i];
    }
    args[n++] = "--quiet";
    args[n++] = "--annotate";
    args[n++] = (char *)lines;
    int rc = cmd_run(n, args);
    free(args);
    return rc;
}
