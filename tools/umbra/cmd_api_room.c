/* umbra opencl|hip [options] -- PROGRAM ARGS...: run an unmodified OpenCL or HIP host program on
 * the simulated GPU. Both API rooms read the same environment (src/platform/platform.h), which
 * the options set; each room then puts its own library in front of the program:
 *   opencl  OCL_ICD_VENDORS names umbra's vendor file, so the ICD loader sees no other platform
 *           (docs/OPENCL.md)
 *   hip     LD_LIBRARY_PATH starts with the folder of umbra's libamdhip64.so.5 (docs/HIP.md) */
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

typedef struct api_room {
    const char *name;             /* "opencl", "hip" */
    const char *what;             /* the usage line's description */
    const char *lib_flag, *lib_help;   /* the option naming the room's library (file or folder) */
    bool (*find_lib)(char *out, size_t len);
    bool (*use_lib)(const char *lib);  /* put it in front of the program; false after a message */
} api_room;

static void room_usage(const api_room *r, FILE *f)
{
    fprintf(f, "usage: umbra %s [options] -- PROGRAM [ARGS...]\n%s\n", r->name, r->what);
    fprintf(f,
            "  --stats FILE.json      append each kernel's statistics, one JSON document a line (UMBRA_STATS)\n"
            "  --report FILE.html     when the program ends, its kernels' statistics as an HTML page (umbra report)\n"
            "  --threads N            host threads running workgroups (UMBRA_THREADS)\n"
            "  --cus N                compute units workgroups are dispatched to (UMBRA_CUS; default 96);\n"
            "                         reported as N/2 WGPs, as ROCm does (CL_DEVICE_MAX_COMPUTE_UNITS,\n"
            "                         multiProcessorCount)\n"
            "  --trace FILE|-         per-instruction trace (UMBRA_TRACE)\n"
            "  --check-waitcnt        fault on a register read before its s_waitcnt (UMBRA_CHECK_WAITCNT)\n"
            "  --jit off|auto|always  translate kernels to host code with LLVM (default auto), docs/TRANSLATOR.md (UMBRA_JIT)\n"
            "  --global-mem SIZE      CL_DEVICE_GLOBAL_MEM_SIZE, e.g. 8G (UMBRA_GLOBAL_MEM)\n"
            "  --max-work-group-size N  CL_DEVICE_MAX_WORK_GROUP_SIZE, 1 to 256 (UMBRA_MAX_WORK_GROUP_SIZE)\n"
            "  --quick                a small device for benchmarks sized by the device (clpeak): 2 compute units,\n"
            "                         512 MiB of global memory, work-groups of at most 32 (the options above)\n"
            "  --timing MACHINE       run kernels on the timing model (a machines/*.yaml name or file); profiling\n"
            "                         events report simulated device time (UMBRA_TIMING)\n"
            "  --max-instructions N   per-launch budget of wave-instructions (UMBRA_MAX_INSTRUCTIONS)\n"
            "  --cache-dir DIR|off    the compile cache (UMBRA_CACHE_DIR)\n"
            "  --identity umbra|rocm  the names the platform and device report: umbra's (default), or ROCm's\n"
            "                         for an RX 7900 XTX (OpenCL: \"Advanced Micro Devices, Inc.\", gfx1100,\n"
            "                         cl_amd_device_attribute_query; HIP: \"Radeon RX 7900 XTX\"), for programs\n"
            "                         that choose code paths by vendor or name (UMBRA_IDENTITY)\n"
            "  --kernel-fault continue|abort  (OpenCL) after a kernel fails on the device (umbra's report on stderr),\n"
            "                         the program goes on and the queue's next synchronising call returns\n"
            "                         CL_OUT_OF_RESOURCES (continue, the default), or it ends as on ROCm (abort)\n"
            "                         (UMBRA_KERNEL_FAULT)\n");
    fprintf(f, "  %-22s %s\n", r->lib_flag, r->lib_help);
}

static bool is_file(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

static bool is_dir(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* The first of `rel` (paths relative to the umbra executable's folder) that test accepts. */
static bool find_near_exe(const char *const *rel, size_t n, bool (*test)(const char *), char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t r = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (r <= 0) return false;
    exe[r] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(out, len, "%s%s", exe, rel[i]);
        if (w > 0 && (size_t)w < len && test(out)) return true;   /* a cut path is no path */
    }
    return false;
}

/* The build tree puts umbra.icd next to the umbra executable; an install puts it in
 * /etc/OpenCL/vendors (or PREFIX/etc/OpenCL/vendors). */
static bool find_icd(char *out, size_t len)
{
    const char *rel[] = { "/umbra.icd", "/../etc/OpenCL/vendors/umbra.icd" };
    if (find_near_exe(rel, 2, is_file, out, len)) return true;
    snprintf(out, len, "/etc/OpenCL/vendors/umbra.icd");
    return is_file(out);
}

static bool use_icd(const char *icd)
{
    if (!is_file(icd)) {
        fprintf(stderr, "umbra opencl: %s: no such file\n", icd);
        return false;
    }
    setenv("OCL_ICD_VENDORS", icd, 1);
    return true;
}

static bool has_hip_lib(const char *dir)
{
    char p[PATH_MAX];
    int w = snprintf(p, sizeof p, "%s/libamdhip64.so.5", dir);
    return w > 0 && (size_t)w < sizeof p && is_file(p);
}

/* The build tree puts libamdhip64.so.5 in hip/ next to the umbra executable; an install in
 * <libdir>/umbra/hip. */
static bool find_hip_lib(char *out, size_t len)
{
    const char *rel[] = { "/hip", "/../lib/umbra/hip", "/../lib/x86_64-linux-gnu/umbra/hip", "/../lib64/umbra/hip" };
    return find_near_exe(rel, sizeof rel / sizeof rel[0], has_hip_lib, out, len);
}

static bool use_hip_lib(const char *dir)
{
    if (!is_dir(dir) || !has_hip_lib(dir)) {
        fprintf(stderr, "umbra hip: %s: no libamdhip64.so.5 there\n", dir);
        return false;
    }
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t n = strlen(dir) + (old ? strlen(old) : 0) + 2;
    char *path = malloc(n);
    if (!path) return false;
    snprintf(path, n, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
    setenv("LD_LIBRARY_PATH", path, 1);
    free(path);
    return true;
}

static const api_room opencl_room = {
    "opencl", "Runs PROGRAM with umbra's OpenCL platform (the simulated RDNA3 gfx1100) as its only platform.",
    "--icd FILE", "the vendor file to use (default: the build tree's or the installed umbra.icd)", find_icd, use_icd,
};

static const api_room hip_room = {
    "hip", "Runs the HIP program PROGRAM on umbra's HIP runtime (the simulated RDNA3 gfx1100) instead of ROCm's.",
    "--lib-dir DIR", "the folder of umbra's libamdhip64.so.5 (default: the build tree's or the installed one)",
    find_hip_lib, use_hip_lib,
};

/* Options that set one environment variable from their argument. */
static const struct { const char *flag, *env; } valued[] = {
    { "--stats", "UMBRA_STATS" },       { "--threads", "UMBRA_THREADS" },
    { "--cus", "UMBRA_CUS" },           { "--trace", "UMBRA_TRACE" },
    { "--global-mem", "UMBRA_GLOBAL_MEM" }, { "--max-instructions", "UMBRA_MAX_INSTRUCTIONS" },
    { "--cache-dir", "UMBRA_CACHE_DIR" }, { "--max-work-group-size", "UMBRA_MAX_WORK_GROUP_SIZE" },
    { "--timing", "UMBRA_TIMING" }, { "--kernel-fault", "UMBRA_KERNEL_FAULT" }, { "--jit", "UMBRA_JIT" },
    { "--identity", "UMBRA_IDENTITY" },
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
static bool timing_machine_ok(const api_room *r)
{
    const char *machine = getenv("UMBRA_TIMING");
    if (!machine || !*machine) return true;
    umb_timing *t = NULL;
    char err[1024];
    if (umb_timing_create(machine, &t, err, sizeof err) != UMB_OK) {
        fprintf(stderr, "umbra %s: --timing %s: %s\n", r->name, machine, err);
        return false;
    }
    umb_timing_destroy(t);
    return true;
}

/* --report: run the program as a child, then render the statistics it appended. */
static int run_and_report(const api_room *r, char **prog, const char *report, const char *stats, bool temp_stats)
{
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "umbra %s: cannot start %s: %s\n", r->name, prog[0], strerror(errno));
        return 127;
    }
    if (pid == 0) {
        execvp(prog[0], prog);
        fprintf(stderr, "umbra %s: cannot run %s: %s\n", r->name, prog[0], strerror(errno));
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
        fprintf(stderr, "umbra %s: %s launched no kernel: no report written\n", r->name, prog[0]);
        if (!rc) rc = 1;
    } else if (umb_report_write_files(paths, labels, 1, prog[0], report, err, sizeof err) != UMB_OK) {
        fprintf(stderr, "umbra %s: --report: %s\n", r->name, err);
        if (!rc) rc = 1;
    }
    if (temp_stats) unlink(stats);
    return rc;
}

static int run_room(const api_room *r, int argc, char **argv)
{
    char lib[PATH_MAX] = "", temp_stats[64] = "";
    const char *report = NULL;
    size_t lib_flag_len = strcspn(r->lib_flag, " ");
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        size_t v = 0;
        while (v < sizeof valued / sizeof valued[0] && strcmp(a, valued[v].flag)) v++;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            room_usage(r, stdout);
            return 0;
        } else if (v < sizeof valued / sizeof valued[0] && more) {
            setenv(valued[v].env, argv[++i], 1);
        } else if (!strcmp(a, "--report") && more) {
            report = argv[++i];
        } else if (!strcmp(a, "--quick")) {
            set_quick();
        } else if (!strcmp(a, "--check-waitcnt")) {
            setenv("UMBRA_CHECK_WAITCNT", "1", 1);
        } else if (strlen(a) == lib_flag_len && !strncmp(a, r->lib_flag, lib_flag_len) && more) {
            snprintf(lib, sizeof lib, "%s", argv[++i]);
        } else {
            fprintf(stderr, "umbra %s: unknown or incomplete option '%s'\n", r->name, a);
            room_usage(r, stderr);
            return 2;
        }
    }
    if (i < argc && !strcmp(argv[i], "--")) i++;   /* the program may also follow the options directly */
    if (!timing_machine_ok(r)) return 2;
    if (i >= argc) {
        fprintf(stderr, "umbra %s: no program given (umbra %s [options] -- PROGRAM ARGS...)\n", r->name, r->name);
        return 2;
    }
    if (!lib[0] && !r->find_lib(lib, sizeof lib)) {
        fprintf(stderr, "umbra %s: umbra's %s library was not found next to the umbra executable nor where it "
                        "installs (build the umbra_%s target, or pass %s)\n", r->name, r->name, r->name, r->lib_flag);
        return 2;
    }
    if (!r->use_lib(lib)) return 2;
    if (report) {
        const char *stats = getenv("UMBRA_STATS");
        bool temp = !stats || !*stats;
        if (temp) {
            snprintf(temp_stats, sizeof temp_stats, "/tmp/umbra-%s-stats.XXXXXX", r->name);
            int fd = mkstemp(temp_stats);
            if (fd < 0) {
                fprintf(stderr, "umbra %s: cannot create a temporary statistics file: %s\n", r->name, strerror(errno));
                return 2;
            }
            close(fd);
            unlink(temp_stats);   /* the library creates it at the first kernel */
            setenv("UMBRA_STATS", temp_stats, 1);
            stats = temp_stats;
        }
        return run_and_report(r, argv + i, report, stats, temp);
    }
    execvp(argv[i], argv + i);
    fprintf(stderr, "umbra %s: cannot run %s: %s\n", r->name, argv[i], strerror(errno));
    return 127;
}

int cmd_opencl(int argc, char **argv) { return run_room(&opencl_room, argc, argv); }
int cmd_hip(int argc, char **argv) { return run_room(&hip_room, argc, argv); }
