/* umbra — command-line front door. Each command lives in its own file (see cli.h). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "umbra/umbra.h"

static void usage(FILE *out)
{
    fprintf(out,
            "umbra %s — a GPGPU simulator (Ventus and AMD RDNA3)\n"
            "\n"
            "usage:\n"
            "  umbra ventus run DIR [options]      run every launch of a Ventus test directory\n"
            "  umbra ventus disasm FILE.riscv      disassemble a Ventus ELF\n"
            "  umbra cc KERNEL.cl -o KERNEL.co     compile OpenCL C for gfx1100 (clang-19)\n"
            "  umbra run KERNEL.co --kernel NAME --global X[,Y[,Z]] [options]\n"
            "  umbra disasm KERNEL.co              disassemble an AMDGPU code object\n"
            "  umbra opencl [options] -- PROGRAM   run an OpenCL host program on the simulated GPU\n"
            "  umbra hip [options] -- PROGRAM      run a HIP program on the simulated GPU\n"
            "  umbra annotate KERNEL.co --kernel NAME ... per-instruction cycles under the timing model\n"
            "  umbra report STATS.json -o P.html   statistics as an HTML page with charts\n"
            "\n"
            "Run `umbra COMMAND --help` for the options of a command.\n",
            UMBRA_VERSION_STRING);
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("umbra %s\n", UMBRA_VERSION_STRING);
        return 0;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "ventus")) return cmd_ventus(argc - 1, argv + 1);
    if (!strcmp(cmd, "run")) return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "cc")) return cmd_cc(argc - 1, argv + 1);
    if (!strcmp(cmd, "disasm")) return cmd_disasm(argc - 1, argv + 1);
    if (!strcmp(cmd, "opencl")) return cmd_opencl(argc - 1, argv + 1);
    if (!strcmp(cmd, "hip")) return cmd_hip(argc - 1, argv + 1);
    if (!strcmp(cmd, "annotate")) return cmd_annotate(argc - 1, argv + 1);
    if (!strcmp(cmd, "report")) return cmd_report(argc - 1, argv + 1);
    fprintf(stderr, "umbra: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
