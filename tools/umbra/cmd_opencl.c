/* umbra opencl [options] -- PROGRAM ARGS...: run an unmodified OpenCL host program with umbra as
 * its only platform. The options become the environment variables the platform reads
 * (docs/OPENCL.md); OCL_ICD_VENDORS names umbra's vendor file, so the ICD loader sees no other. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static void opencl_usage(FILE *f)
{
    fprintf(f,
            "usage: umbra opencl [options] -- PROGRAM [ARGS...]\n"
            "Runs PROGRAM with umbra's OpenCL platform (the simulated RDNA3 gfx1100) as its only platform.\n"
            "  --stats FILE.json      append each kernel's statistics, one JSON object a line (UMBRA_STATS)\n"
            "  --threads N            host threads running workgroups (UMBRA_THREADS)\n"
            "  --cus N                compute units workgroups are dispatched to (UMBRA_CUS)\n"
            "  --trace FILE|-         per-instruction trace (UMBRA_TRACE)\n"
            "  --check-waitcnt        fault on a register read before its s_waitcnt (UMBRA_CHECK_WAITCNT)\n"
            "  --global-mem SIZE      CL_DEVICE_GLOBAL_MEM_SIZE, e.g. 8G (UMBRA_GLOBAL_MEM)\n"
            "  --max-instructions N   per-launch budget of wave-instructions (UMBRA_MAX_INSTRUCTIONS)\n"
            "  --cache-dir DIR|off    the compile cache (UMBRA_CACHE_DIR)\n"
            "  --icd FILE             the vendor file to use (default: the build tree's or the installed umbra.icd)\n");
}

static bool is_file(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* The build tree puts umbra.icd next to the umbra executable; an install puts it in
 * /etc/OpenCL/vendors (or PREFIX/etc/OpenCL/vendors). */
static bool find_icd(char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) *slash = '\0';
        const char *rel[] = { "/umbra.icd", "/../etc/OpenCL/vendors/umbra.icd" };
        for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
            snprintf(out, len, "%s%s", exe, rel[i]);
            if (is_file(out)) return true;
        }
    }
    snprintf(out, len, "/etc/OpenCL/vendors/umbra.icd");
    return is_file(out);
}

/* Options that set one environment variable from their argument. */
static const struct { const char *flag, *env; } valued[] = {
    { "--stats", "UMBRA_STATS" },       { "--threads", "UMBRA_THREADS" },
    { "--cus", "UMBRA_CUS" },           { "--trace", "UMBRA_TRACE" },
    { "--global-mem", "UMBRA_GLOBAL_MEM" }, { "--max-instructions", "UMBRA_MAX_INSTRUCTIONS" },
    { "--cache-dir", "UMBRA_CACHE_DIR" },
};

int cmd_opencl(int argc, char **argv)
{
    char icd[PATH_MAX] = "";
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        size_t v = 0;
        while (v < sizeof valued / sizeof valued[0] && strcmp(a, valued[v].flag)) v++;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            opencl_usage(stdout);
            return 0;
        } else if (v < sizeof valued / sizeof valued[0] && more) {
            setenv(valued[v].env, argv[++i], 1);
        } else if (!strcmp(a, "--check-waitcnt")) {
            setenv("UMBRA_CHECK_WAITCNT", "1", 1);
        } else if (!strcmp(a, "--icd") && more) {
            snprintf(icd, sizeof icd, "%s", argv[++i]);
        } else {
            fprintf(stderr, "umbra opencl: unknown or incomplete option '%s'\n", a);
            opencl_usage(stderr);
            return 2;
        }
    }
    if (i < argc && !strcmp(argv[i], "--")) i++;   /* the program may also follow the options directly */
    if (i >= argc) {
        fprintf(stderr, "umbra opencl: no program given (umbra opencl [options] -- PROGRAM ARGS...)\n");
        return 2;
    }
    if (!icd[0] && !find_icd(icd, sizeof icd)) {
        fprintf(stderr, "umbra opencl: umbra.icd not found next to the umbra executable nor in "
                        "/etc/OpenCL/vendors (build the umbra_opencl target, or pass --icd FILE)\n");
        return 2;
    }
    if (!is_file(icd)) {
        fprintf(stderr, "umbra opencl: %s: no such file\n", icd);
        return 2;
    }
    setenv("OCL_ICD_VENDORS", icd, 1);
    execvp(argv[i], argv + i);
    fprintf(stderr, "umbra opencl: cannot run %s: %s\n", argv[i], strerror(errno));
    return 127;
}
