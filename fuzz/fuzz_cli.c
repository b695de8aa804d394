/* The umbra command line in process: the input is the argument list (arguments separated by NUL
 * bytes), run through the CLI's own main. The CLI sources are compiled for this target with
 * main renamed umbra_cli_main and exit() renamed umbra_fuzz_exit (fuzz/CMakeLists.txt), which
 * returns here. Left out: `umbra cc` (it runs clang) and lists with -h/--help, whose exit(0)
 * leaves what the command allocated to the process's end (a leak report here, nothing real).
 * Run it in a scratch directory (scripts/fuzz.sh does): options such as --out write files. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdlib.h>

#include "fuzz_common.h"

#define MAX_ARGS 256

int umbra_cli_main(int argc, char **argv);
_Noreturn void umbra_fuzz_exit(int status);

/* The CLI is single-threaded and libFuzzer runs one input at a time: one jump target. */
static jmp_buf exit_jump;

_Noreturn void umbra_fuzz_exit(int status)
{
    longjmp(exit_jump, status == 0 ? 256 : status);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    char **argv = malloc((MAX_ARGS + 2) * sizeof *argv);
    if (!buf || !argv) { free(buf); free(argv); return 0; }
    memcpy(buf, data, size);
    buf[size] = 0;
    int argc = 0;
    argv[argc++] = "umbra";
    for (size_t i = 0; i < size && argc <= MAX_ARGS; i += strlen(buf + i) + 1) argv[argc++] = buf + i;
    argv[argc] = NULL;
    bool skip = argc > 1 && !strcmp(argv[1], "cc");
    for (int i = 1; i < argc; i++) skip |= !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help");
    if (!skip) {
        volatile int argc_v = argc;   /* keep across setjmp */
        if (setjmp(exit_jump) == 0) umbra_cli_main(argc_v, argv);
    }
    fflush(stdout);
    free(argv);
    free(buf);
    return 0;
}
