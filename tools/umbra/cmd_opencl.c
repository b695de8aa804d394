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
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "umbra/report.h"
#include "umbra/timing.h"

static void opencl_usage(FILE *f)
{
    fprintf(f,
            "usage: umbra opencl [options] -- PROGRAM [ARGS...]\n"
            "Runs PROGRAM with umbra's OpenCL platform (the simulated RDNA3 gfx1100) as its only platform.\n"
            "  --stats FILE.json      append each kernel's statistics, one JSON document a line (UMBRA_STATS)\n"
            "  --report FILE.html     when the program ends, its kernels' statistics as an HTML page (umbra report)\n"
            "  --threads N            host threads running workgroups (UMBRA_THREADS)\n"
            "  --cus N                compute units workgroups are dispatched to (UMBRA_CUS)\n"
            "  --trace FILE|-         per-instruction trace (UMBRA_TRACE)\n"
            "  --check-waitcnt        fault on a register read before its s_waitcnt (UMBRA_CHECK_WAITCNT)\n"
            "  --global-mem SIZE      CL_DEVICE_GLOBAL_MEM_SIZE, e.g. 8G (UMBRA_GLOBAL_MEM)\n"
            "  --max-work-group-size N  CL_DEVICE_MAX_WORK_GROUP_SIZE, 1 to 256 (UMBRA_MAX_WORK_GROUP_SIZE)\n"
            "  --quick                a small device for benchmarks sized by the device (clpeak): 2 compute units,\n"
            "                         512 MiB of global memory, work-groups of at most 32 (the options above)\n"
            "  --timing MACHINE       run kernels on the timing model (a machines/*.yaml name or file); profiling\n"
            "                         events report simulated device time (UMBRA_TIMING)\n"
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
            int w = snprintf(out, len, "%s%s", exe, rel[i]);
            if (w > 0 && (size_t)w < len && is_file(out)) return true;   /* a cut path is no path */
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
    { "--cache-dir", "UMBRA_CACHE_DIR" }, { "--max-work-group-size", "UMBRA_MAX_WORK_GROUP_SIZE" },
    { "--timing", "UMBRA_TIMING" },
};

/* --quick: a smaller GPU of the same kind (2 CUs, as the RDNA2 graphics of AMD's Ryzen 7000
 * processors), for programs that size their work by the device: clpeak runs work-groups per
 * compute unit times the work-group size (one wave32 here) and sizes buffers by the largest
 * allocation (a quarter of the global memory, at least 128 MiB as OpenCL 1.2 requires). Two CUs
 * let two host threads (--threads 2) share a launch. Options given after it win. */
static void set_quick(void)
{
    setenv("UMBRA_CUS", "2", 1);
    setenv("UMBRA_GLOBAL_MEM", "512M", 1);
    setenv("UMBRA_MAX_WORK_GROUP_SIZE", "32", 1);
}

/* --timing: load the machine now, so that a bad name or file is an error before the program runs. */
static bool timing_machine_ok(void)
{
    const char *machine = getenv("UMBRA_TIMING");
    if (!machine || !*machine) return true;
    umb_timing *t = NULL;
    char err[1024];
    if (umb_timing_create(machine, &t, err, sizeof err) != UMB_OK) {
        fprintf(stderr, "umbra opencl: --timing %s: %s\n", machine, err);
        return false;
    }
    umb_timing_destroy(t);
    return true;
}

/* --report: run the program as a child, then render the statistics it appended. */
static int run_and_report(char **prog, const char *report, const char *stats, bool temp_stats)
{
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "umbra opencl: cannot start %s: %s\n", prog[0], strerror(errno));
        return 127;
    }
    if (pid == 0) {
        execvp(prog[0], prog);
        fprintf(stderr, "umbra opencl: cannot run %s: %s\n", prog[0], strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return 127;
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    char err[1024];
    const char *paths[1] = { stats }, *slash = strrchr(prog[0], '/');
    const char *labels[1] = { slash ? slash + 1 : prog[0] };
    if (!is_file(stats)) {
        fprintf(stderr, "umbra opencl: %s launched no kernel: no report written\n", prog[0]);
        if (!rc) rc = 1;
    } else if (umb_report_write_files(paths, labels, 1, prog[0], report, err, sizeof err) != UMB_OK) {
        fprintf(stderr, "umbra opencl: --report: %s\n", err);
        if (!rc) rc = 1;
    }
    if (temp_stats) unlink(stats);
    return rc;
}

int cmd_opencl(int argc, char **argv)
{
    char icd[PATH_MAX] = "", temp_stats[64] = "";
    const char *report = NULL;
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
        } else if (!strcmp(a, "--report") && more) {
            report = argv[++i];
        } else if (!strcmp(a, "--quick")) {
            set_quick();
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
    if (!timing_machine_ok()) return 2;
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
    if (report) {
        const char *stats = getenv("UMBRA_STATS");
        bool temp = !stats || !*stats;
        if (temp) {
            snprintf(temp_stats, sizeof temp_stats, "/tmp/umbra-opencl-stats.XXXXXX");
            int fd = mkstemp(temp_stats);
            if (fd < 0) {
                fprintf(stderr, "umbra opencl: cannot create a temporary statistics file: %s\n", strerror(errno));
                return 2;
            }
            close(fd);
            unlink(temp_stats);   /* the platform creates it at the first kernel */
            setenv("UMBRA_STATS", temp_stats, 1);
            stats = temp_stats;
        }
        return run_and_report(argv + i, report, stats, temp);
    }
    execvp(argv[i], argv + i);
    fprintf(stderr, "umbra opencl: cannot run %s: %s\n", argv[i], strerror(errno));
    return 127;
}
