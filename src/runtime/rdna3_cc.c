/* `umbra cc`: OpenCL C -> gfx1100 code object, by running clang-19 and ld.lld-19 (spec §6).
 *
 *   clang-19 -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -nogpulib -O<n>
 *            -include umbra_ocl.h -mllvm -amdgpu-internalize-symbols [-mwavefrontsize64] [-D..]
 *            -c in.cl -o tmp.o
 *   ld.lld-19 -shared tmp.o -o out.co
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "umbra/rdna3.h"

extern char **environ;

/* Run argv; 0 if it exited with status 0. */
static umb_status run_tool(const char *const *argv, bool verbose, char *err, size_t errlen)
{
    if (verbose) {
        for (const char *const *a = argv; *a; a++) fprintf(stderr, "%s%s", a == argv ? "" : " ", *a);
        fputc('\n', stderr);
    }
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], NULL, NULL, (char *const *)argv, environ);
    if (rc) {
        snprintf(err, errlen, "cannot run %s: %s%s", argv[0], strerror(rc),
                 rc == ENOENT ? " (install LLVM 19: apt-get install clang-19 lld-19, or pass --clang/--lld)" : "");
        return UMB_ERR_IO;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            snprintf(err, errlen, "waiting for %s: %s", argv[0], strerror(errno));
            return UMB_ERR_IO;
        }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return UMB_OK;
    if (WIFEXITED(status)) snprintf(err, errlen, "%s failed (exit status %d)", argv[0], WEXITSTATUS(status));
    else snprintf(err, errlen, "%s was killed by signal %d", argv[0], WTERMSIG(status));
    return UMB_ERR_INVALID;
}

umb_status umb_rdna3_compile(const umb_rdna3_cc_options *o, char *err, size_t errlen)
{
    char dummy[8];
    if (!err || !errlen) err = dummy, errlen = sizeof dummy;
    if (!o || !o->input || !o->output || !o->include_dir) {
        snprintf(err, errlen, "compile: input, output and include_dir are required");
        return UMB_ERR_INVALID;
    }
    if (o->opt_level < 0 || o->opt_level > 3) {
        snprintf(err, errlen, "compile: -O%d (use -O0..-O3)", o->opt_level);
        return UMB_ERR_INVALID;
    }
    struct stat sb;
    if (stat(o->input, &sb) != 0) {
        snprintf(err, errlen, "%s: %s", o->input, strerror(errno));
        return UMB_ERR_IO;
    }
    char header[4096], obj[4096], opt[8];
    snprintf(header, sizeof header, "%s/umbra_ocl.h", o->include_dir);
    if (stat(header, &sb) != 0) {
        snprintf(err, errlen, "device header %s not found (pass --include-dir DIR)", header);
        return UMB_ERR_IO;
    }
    /* the object goes next to the output, under a unique name */
    if ((size_t)snprintf(obj, sizeof obj, "%s.XXXXXX.o", o->output) >= sizeof obj) {
        snprintf(err, errlen, "compile: output path too long");
        return UMB_ERR_INVALID;
    }
    int fd = mkstemps(obj, 2);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a temporary object next to %s: %s", o->output, strerror(errno));
        return UMB_ERR_IO;
    }
    close(fd);
    snprintf(opt, sizeof opt, "-O%d", o->opt_level);

    size_t cap = 32 + 2 * (size_t)o->ndefines + o->nextra;
    const char **argv = calloc(cap, sizeof *argv);
    if (!argv) {
        unlink(obj);
        return UMB_ERR_NOMEM;
    }
    size_t n = 0;
    argv[n++] = o->clang ? o->clang : "clang-19";
    argv[n++] = "-cl-std=CL2.0";
    argv[n++] = "-target";
    argv[n++] = "amdgcn-amd-amdhsa";
    argv[n++] = "-mcpu=gfx1100";
    argv[n++] = o->wave64 ? "-mwavefrontsize64" : "-mno-wavefrontsize64";
    argv[n++] = "-nogpulib";
    argv[n++] = opt;
    argv[n++] = "-include";
    argv[n++] = header;
    argv[n++] = "-mllvm";
    argv[n++] = "-amdgpu-internalize-symbols";
    for (uint32_t i = 0; i < o->ndefines; i++) {
        argv[n++] = "-D";
        argv[n++] = o->defines[i];
    }
    for (uint32_t i = 0; i < o->nextra; i++) argv[n++] = o->extra[i];
    argv[n++] = "-c";
    argv[n++] = o->input;
    argv[n++] = "-o";
    argv[n++] = obj;
    argv[n] = NULL;
    umb_status st = run_tool(argv, o->verbose, err, errlen);
    if (st == UMB_OK) {
        const char *ld[] = { o->lld ? o->lld : "ld.lld-19", "-shared", obj, "-o", o->output, NULL };
        st = run_tool(ld, o->verbose, err, errlen);
    }
    unlink(obj);
    free(argv);
    return st;
}
