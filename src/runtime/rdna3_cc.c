/* OpenCL C -> gfx1100 code object, against AMD's ROCm device libraries (the way ROCm compiles):
 *
 *   clang-19 -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -m[no-]wavefrontsize64
 *            --rocm-device-lib-path=DIR -O<n> -mllvm -amdgpu-internalize-symbols [build options]
 *            -c in.cl -o tmp.o
 *   ld.lld-19 -shared tmp.o -o out.co
 *
 * (at -O0, and for printf, through bitcode and opt-19: see compile_via_bitcode)
 *
 * clang's driver links opencl.bc, ocml.bc, ockl.bc and the oclc_* control files that the build
 * options select (-cl-denorms-are-zero -> oclc_daz_opt_on, -cl-fast-relaxed-math -> unsafe math and
 * finite only, ...). Debian's rocm-device-libs has no gfx1100 ISA-version file; the build generates
 * it (device/oclc_isa_version_1100.ll) into a folder that also links Debian's files.
 *
 * clCompileProgram / clLinkProgram: a unit is compiled to bitcode with the builtins it calls linked
 * in (internal to the unit, so units never clash) and without internalizing its own functions; a
 * link merges units with llvm-link-19 and generates code from the merged module, or (a library,
 * emit = bitcode) keeps the merged module as it is, for a later link.
 *
 * printf: clang links the device libraries before the optimizer, and LLVM's
 * AMDGPUPrintfRuntimeBinding (part of the optimizer) only then turns printf calls into calls of
 * the library's __printf_alloc, which is left undefined. A kernel whose object calls an undefined
 * __printf_alloc is compiled again with -mlink-builtin-bitcode-postopt (libraries linked after the
 * optimizer, so the library functions it calls are not inlined into it); kernels without printf
 * keep the normal, fully optimized build. Bitcode units are always built that way (the link step
 * optimizes the merged module again).
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loader/elf.h"
#include "runtime/rdna3_printf.h"
#include "umbra/rdna3.h"

extern char **environ;

/* ---------------- a growable argument vector ---------------- */

typedef struct arg_vec {
    const char **v;
    size_t n, cap;
    bool nomem;
} arg_vec;

static void push(arg_vec *a, const char *s)
{
    if (a->nomem) return;
    if (a->n + 2 > a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 32;
        const char **v = realloc(a->v, cap * sizeof *v);
        if (!v) {
            a->nomem = true;
            return;
        }
        a->v = v, a->cap = cap;
    }
    a->v[a->n++] = s;
    a->v[a->n] = NULL;
}

/* ---------------- running the tools ---------------- */

/* Run argv with stderr going to log_fd (when >= 0); UMB_OK if it exited with status 0. */
static umb_status run_tool(const char *const *argv, bool verbose, int log_fd, char *err, size_t errlen)
{
    if (verbose) {
        for (const char *const *a = argv; *a; a++) fprintf(stderr, "%s%s", a == argv ? "" : " ", *a);
        fputc('\n', stderr);
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (log_fd >= 0) posix_spawn_file_actions_adddup2(&fa, log_fd, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) {
        snprintf(err, errlen, "cannot run %s: %s%s", argv[0], strerror(rc),
                 rc == ENOENT ? " (install LLVM 19: apt-get install clang-19 lld-19 llvm-19)" : "");
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

/* The whole of a log file as a malloc'd string ("" if empty or unreadable). */
static char *slurp_log(FILE *f)
{
    long size = (f && fseek(f, 0, SEEK_END) == 0) ? ftell(f) : 0;
    char *s = malloc(size > 0 ? (size_t)size + 1 : 1);
    if (!s) return NULL;
    size_t got = 0;
    if (size > 0 && fseek(f, 0, SEEK_SET) == 0) got = fread(s, 1, (size_t)size, f);
    s[got] = '\0';
    return s;
}

/* ---------------- the device library ---------------- */

static bool is_device_lib_dir(const char *dir)
{
    char p[4096];
    struct stat sb;
    if (!dir || !dir[0]) return false;
    snprintf(p, sizeof p, "%s/oclc_isa_version_1100.bc", dir);
    if (stat(p, &sb) != 0) return false;
    snprintf(p, sizeof p, "%s/ocml.bc", dir);
    return stat(p, &sb) == 0;
}

bool umb_rdna3_find_device_lib(char *out, size_t len)
{
    const char *candidates[] = {
        getenv("UMBRA_DEVICE_LIB_DIR"),
#ifdef UMBRA_BUILD_DEVICE_LIB_DIR
        UMBRA_BUILD_DEVICE_LIB_DIR,     /* the build tree this library was built in */
#endif
#ifdef UMBRA_INSTALL_DEVICE_LIB_DIR
        UMBRA_INSTALL_DEVICE_LIB_DIR,   /* where `cmake --install` puts it */
#endif
    };
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (is_device_lib_dir(candidates[i]) && (size_t)snprintf(out, len, "%s", candidates[i]) < len) return true;
    if (len) out[0] = '\0';
    return false;
}

/* ---------------- OpenCL build options ---------------- */

/* Split a build-options string into words: white space separates, single or double quotes group,
 * a backslash escapes the next character. The words point into *storage (the caller frees it). */
static umb_status split_words(const char *s, char **storage, arg_vec *words, char *err, size_t errlen)
{
    char *buf = malloc(strlen(s) + 1), *w = buf;
    *storage = buf;
    if (!buf) return UMB_ERR_NOMEM;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
        if (!*s) break;
        char *start = w, quote = 0;
        for (; *s && (quote || !(*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')); s++) {
            if (quote && *s == quote) quote = 0;
            else if (!quote && (*s == '"' || *s == '\'')) quote = *s;
            else if (*s == '\\' && s[1] && quote != '\'') *w++ = *++s;
            else *w++ = *s;
        }
        if (quote) {
            snprintf(err, errlen, "build options: unterminated %c quote", quote);
            return UMB_ERR_INVALID;
        }
        *w++ = '\0';
        push(words, start);
    }
    return words->nomem ? UMB_ERR_NOMEM : UMB_OK;
}

/* Options passed to clang as they are (OpenCL 1.2 §5.6.4 and the 2.0/3.0 additions). */
static const char *const passthrough_options[] = {
    "-cl-single-precision-constant", "-cl-denorms-are-zero", "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
    "-cl-fast-relaxed-math", "-cl-uniform-work-group-size", "-cl-no-subgroup-ifp", "-cl-kernel-arg-info",
    "-w", "-Werror", "-g",
};

static bool is_passthrough(const char *w)
{
    for (size_t i = 0; i < sizeof passthrough_options / sizeof passthrough_options[0]; i++)
        if (!strcmp(w, passthrough_options[i])) return true;
    return false;
}

static bool is_known_cl_std(const char *v)
{
    static const char *const stds[] = { "CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0" };
    for (size_t i = 0; i < sizeof stds / sizeof stds[0]; i++)
        if (!strcmp(v, stds[i])) return true;
    return false;
}

/* Translate the build-options words into clang arguments. -O<n> / -cl-opt-disable set *opt_level;
 * *has_std tells whether -cl-std was given. */
static umb_status translate_options(const arg_vec *words, arg_vec *out, int *opt_level, bool *has_std, char *err,
                                    size_t errlen)
{
    for (size_t i = 0; i < words->n; i++) {
        const char *w = words->v[i];
        if ((!strcmp(w, "-D") || !strcmp(w, "-I"))) {
            if (i + 1 == words->n) {
                snprintf(err, errlen, "build options: %s needs a value", w);
                return UMB_ERR_INVALID;
            }
            push(out, w);
            push(out, words->v[++i]);
        } else if (!strncmp(w, "-D", 2) || !strncmp(w, "-I", 2) || is_passthrough(w)) {
            push(out, w);
        } else if (!strncmp(w, "-cl-std=", 8)) {
            if (!is_known_cl_std(w + 8)) {
                snprintf(err, errlen, "build options: unknown OpenCL C version '%s' (CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0)",
                         w + 8);
                return UMB_ERR_INVALID;
            }
            *has_std = true;
            push(out, w);
        } else if (!strcmp(w, "-cl-opt-disable")) {
            *opt_level = 0;
        } else if (w[0] == '-' && w[1] == 'O' && w[2] >= '0' && w[2] <= '3' && !w[3]) {
            *opt_level = w[2] - '0';
        } else {
            snprintf(err, errlen, "build options: unknown option '%s'", w);
            return UMB_ERR_INVALID;
        }
    }
    return out->nomem ? UMB_ERR_NOMEM : UMB_OK;
}

/* ---------------- the steps ---------------- */

typedef struct cc_job {
    const umb_rdna3_cc_options *o;
    char libdir_arg[4200];          /* --rocm-device-lib-path=DIR */
    char media_ops_h[4300];         /* DIR/amd_media_ops.h ("" when the folder has none) */
    char opt[8];                    /* -O<n> */
    arg_vec options;                /* translated build options, defines, extra */
    bool has_std;
    int log_fd;                     /* diagnostics file, or -1 for stderr */
    char *err;
    size_t errlen;
} cc_job;

static void push_target(cc_job *j, arg_vec *a)
{
    push(a, "-target");
    push(a, "amdgcn-amd-amdhsa");
    push(a, "-mcpu=gfx1100");
    /* clang-19's driver would link the device libraries' ABI-4 control file while the back end
     * emits code object v5; naming the version makes both agree (COV5 implicit arguments) */
    push(a, "-mcode-object-version=5");
    push(a, j->o->wave64 ? "-mwavefrontsize64" : "-mno-wavefrontsize64");
    push(a, j->opt);
}

static umb_status run_args(cc_job *j, arg_vec *a)
{
    if (a->nomem) return UMB_ERR_NOMEM;
    return run_tool(a->v, j->o->verbose, j->log_fd, j->err, j->errlen);
}

/* .cl -> object (for a code object) or bitcode (for a later link); postopt links the device
 * libraries after the optimizer (see the top of the file). */
static umb_status compile_source(cc_job *j, const char *out, bool bitcode, bool postopt, bool no_passes)
{
    const umb_rdna3_cc_options *o = j->o;
    arg_vec a = { 0 };
    push(&a, o->clang ? o->clang : "clang-19");
    push(&a, "-x");
    push(&a, "cl");
    if (!j->has_std) push(&a, "-cl-std=CL1.2");
    push_target(j, &a);
    push(&a, j->libdir_arg);
    if (j->media_ops_h[0]) {   /* AMD's media built-ins, missing from clang-19's declarations */
        push(&a, "-include");
        push(&a, j->media_ops_h);
    }
    /* internalizing non-kernel functions lets them be inlined and dropped, but a unit compiled for
     * a later link must keep them visible to the other units */
    if (!bitcode) {
        push(&a, "-mllvm");
        push(&a, "-amdgpu-internalize-symbols");
    }
    for (size_t i = 0; i < j->options.n; i++) push(&a, j->options.v[i]);
    if (postopt) {
        push(&a, "-Xclang");
        push(&a, "-mlink-builtin-bitcode-postopt");
    }
    if (no_passes) {   /* the module as the front end made it, the library linked: printf not lowered yet */
        push(&a, "-Xclang");
        push(&a, "-disable-llvm-passes");
    }
    if (bitcode) push(&a, "-emit-llvm");
    push(&a, "-c");
    push(&a, o->input);
    push(&a, "-o");
    push(&a, out);
    umb_status st = run_args(j, &a);
    free(a.v);
    return st;
}

/* A whole file as a string (NULL: unreadable or out of memory). */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *s = NULL;
    size_t len = 0, cap = 0, n;
    char chunk[65536];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            char *t = realloc(s, cap);
            if (!t) {
                free(s);
                fclose(f);
                return NULL;
            }
            s = t;
        }
        memcpy(s + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (!s) s = calloc(1, 1);
    else s[len] = '\0';
    return s;
}

/* Might the OpenCL source printf a %F or %A (a '%', flags to length, then F or A)? Decides whether
 * the bitcode goes through fix_printf_formats; a false alarm costs a disassembly, nothing else. */
static bool may_print_upper(const char *path)
{
    char *s = read_text(path);
    bool found = false;
    for (const char *p = s ? s : ""; !found && (p = strchr(p, '%'));) {
        p++;
        p += strspn(p, "-+ #0123456789.vhlLjzt");
        found = *p == 'F' || *p == 'A';
    }
    free(s);
    return found;
}

/* LLVM 19's printf lowering (in the back end) drops the values of %F and %A conversions: rewrite
 * the module's printf formats first (rdna3_printf_fix_ir: llvm-dis-19, the rewrite, llvm-as-19). */
static umb_status fix_printf_formats(cc_job *j, const char *bc)
{
    char ll[4300];
    snprintf(ll, sizeof ll, "%s.ll", bc);
    const char *dis[] = { "llvm-dis-19", bc, "-o", ll, NULL };
    umb_status st = run_tool(dis, j->o->verbose, j->log_fd, j->err, j->errlen);
    char *ir = st == UMB_OK ? read_text(ll) : NULL;
    if (st == UMB_OK && !ir) st = UMB_ERR_IO;
    bool changed = false;
    char *fixed = ir ? rdna3_printf_fix_ir(ir, &changed) : NULL;
    if (ir && !fixed) st = UMB_ERR_NOMEM;
    if (st == UMB_OK && changed) {
        FILE *f = fopen(ll, "wb");
        bool ok = f && fwrite(fixed, 1, strlen(fixed), f) == strlen(fixed);
        if (f && fclose(f)) ok = false;
        const char *as[] = { "llvm-as-19", ll, "-o", bc, NULL };
        st = ok ? run_tool(as, j->o->verbose, j->log_fd, j->err, j->errlen) : UMB_ERR_IO;
    }
    if (st == UMB_ERR_IO && !j->err[0]) snprintf(j->err, j->errlen, "compile: cannot read or write %s", ll);
    free(ir);
    free(fixed);
    unlink(ll);
    return st;
}

/* Lower the rewritten module's printf calls now (opt-19's amdgpu-printf-runtime-binding) and link
 * the library code they call (__printf_alloc in opencl.bc, what it uses in ockl.bc): the module
 * left the front end unoptimized, before any call to __printf_alloc existed to pull it in. */
static umb_status lower_printf(cc_job *j, const char *bc)
{
    const char *dir = j->libdir_arg + strlen("--rocm-device-lib-path=");
    char opencl[4300], ockl[4300];
    snprintf(opencl, sizeof opencl, "%s/opencl.bc", dir);
    snprintf(ockl, sizeof ockl, "%s/ockl.bc", dir);
    const char *lower[] = { "opt-19", "-passes=amdgpu-printf-runtime-binding", bc, "-o", bc, NULL };
    const char *link[] = { "llvm-link-19", bc, "--only-needed", opencl, ockl, "-o", bc, NULL };
    umb_status st = run_tool(lower, j->o->verbose, j->log_fd, j->err, j->errlen);
    return st == UMB_OK ? run_tool(link, j->o->verbose, j->log_fd, j->err, j->errlen) : st;
}

/* bitcode units -> one merged bitcode module (llvm-link-19: a symbol defined twice is an error). */
static umb_status merge_bitcode(cc_job *j, const char *merged)
{
    const umb_rdna3_cc_options *o = j->o;
    arg_vec a = { 0 };
    push(&a, o->llvm_link ? o->llvm_link : "llvm-link-19");
    for (uint32_t i = 0; i < o->ninputs; i++) push(&a, o->inputs[i]);
    push(&a, "-o");
    push(&a, merged);
    umb_status st = run_args(j, &a);
    free(a.v);
    return st;
}

/* bitcode units -> one merged bitcode -> object. */
static umb_status link_bitcode(cc_job *j, const char *merged, const char *obj)
{
    const umb_rdna3_cc_options *o = j->o;
    arg_vec a = { 0 };
    umb_status st = merge_bitcode(j, merged);
    if (st == UMB_OK) {
        push(&a, o->clang ? o->clang : "clang-19");
        push(&a, "-x");
        push(&a, "ir");
        push(&a, "-nogpulib");   /* the units carry the library code they call */
        push_target(j, &a);
        push(&a, "-mllvm");
        push(&a, "-amdgpu-internalize-symbols");
        for (uint32_t i = 0; i < o->nextra; i++) push(&a, o->extra[i]);
        push(&a, "-c");
        push(&a, merged);
        push(&a, "-o");
        push(&a, obj);
        st = run_args(j, &a);
    }
    free(a.v);
    return st;
}

/* Source -> bitcode with the library linked -> opt-19 -> object, for two cases the direct
 * compile gets wrong:
 * - -O0: the kernel's own code stays unoptimized (optnone), but AMD's library functions it calls
 *   keep code for other ISAs behind tests of __oclc_ISA_version that only the optimizer removes,
 *   and clang-19's -O0 back end cannot select the GFX9-only DPP controls of those dead branches
 *   ("Invalid dpp_ctrl value: wavefront shifts are not supported on GFX10+", e.g. every
 *   work_group_* and sub_group_* collective);
 * - printf (postopt: the library linked after the optimizer, see the top of the file): the
 *   library functions nobody calls stay in the module, and clang-19's AMDGPU resource-usage
 *   analysis crashes on some of them (a kernel with printf and a work-group collective).
 * opt-19 folds the constant ISA tests and drops what is dead (ipsccp, simplifycfg, globaldce;
 * optnone functions, the user's at -O0, are left as they are), then the back end (and at -O1..3
 * the optimizer, again) runs on the result. */
static umb_status compile_via_bitcode(cc_job *j, const char *bc, const char *obj, bool postopt)
{
    /* clang's optimizer lowers printf, so a module whose formats need rewriting leaves the front end
     * unoptimized, is rewritten, and is optimized by the last step below */
    bool fix = may_print_upper(j->o->input);
    umb_status st = compile_source(j, bc, true, postopt && !fix, fix);
    if (st == UMB_OK && fix) st = fix_printf_formats(j, bc);
    if (st == UMB_OK && fix) st = lower_printf(j, bc);
    arg_vec a = { 0 };
    if (st == UMB_OK) {
        push(&a, "opt-19");
        push(&a, "-passes=ipsccp,simplifycfg,globaldce");
        push(&a, bc);
        push(&a, "-o");
        push(&a, bc);
        st = run_args(j, &a);
        a.n = 0;
    }
    if (st == UMB_OK) {
        push(&a, j->o->clang ? j->o->clang : "clang-19");
        push(&a, "-x");
        push(&a, "ir");
        push(&a, "-nogpulib");   /* the bitcode carries the library code it calls */
        push_target(j, &a);
        push(&a, "-mllvm");
        push(&a, "-amdgpu-internalize-symbols");
        push(&a, "-c");
        push(&a, bc);
        push(&a, "-o");
        push(&a, obj);
        st = run_args(j, &a);
    }
    free(a.v);
    return st;
}

/* Does the object call __printf_alloc without defining it? */
static bool calls_undefined_printf_alloc(const char *obj)
{
    umb_elf e;
    if (umb_elf_open_file(&e, obj) != UMB_OK) return false;
    bool undefined = false;
    for (uint32_t i = 1; i < umb_elf_symbol_count(&e) && !undefined; i++) {
        umb_elf_sym sym;
        if (umb_elf_symbol(&e, i, &sym) != UMB_OK) break;
        undefined = sym.shndx == UMB_SHN_UNDEF && !strcmp(sym.name, "__printf_alloc");
    }
    umb_elf_close(&e);
    return undefined;
}

static umb_status link_shared(cc_job *j, const char *obj)
{
    const char *ld[] = { j->o->lld ? j->o->lld : "ld.lld-19", "-shared", obj, "-o", j->o->output, NULL };
    return run_tool(ld, j->o->verbose, j->log_fd, j->err, j->errlen);
}

/* A unique temporary file next to the output ("OUT.XXXXXX.ext"). */
static umb_status temp_next_to(const char *output, const char *ext, char *path, size_t len, char *err, size_t errlen)
{
    if ((size_t)snprintf(path, len, "%s.XXXXXX%s", output, ext) >= len) {
        snprintf(err, errlen, "compile: output path too long");
        return UMB_ERR_INVALID;
    }
    int fd = mkstemps(path, (int)strlen(ext));
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a temporary file next to %s: %s", output, strerror(errno));
        path[0] = '\0';
        return UMB_ERR_IO;
    }
    close(fd);
    return UMB_OK;
}

static umb_status check_options(const umb_rdna3_cc_options *o, char *err, size_t errlen)
{
    if (!o || !o->output || (!o->input) == (!o->ninputs)) {
        snprintf(err, errlen, "compile: an output and either an input source or bitcode inputs are required");
        return UMB_ERR_INVALID;
    }
    if (o->ninputs && !o->inputs) {
        snprintf(err, errlen, "compile: %u bitcode inputs but no input list", o->ninputs);
        return UMB_ERR_INVALID;
    }
    if (o->opt_level < 0 || o->opt_level > 3) {
        snprintf(err, errlen, "compile: -O%d (use -O0..-O3)", o->opt_level);
        return UMB_ERR_INVALID;
    }
    struct stat sb;
    for (uint32_t i = 0; i < (o->input ? 1 : o->ninputs); i++) {
        const char *in = o->input ? o->input : o->inputs[i];
        if (!in || stat(in, &sb) != 0) {
            snprintf(err, errlen, "%s: %s", in ? in : "(null input)", in ? strerror(errno) : "missing");
            return UMB_ERR_IO;
        }
    }
    return UMB_OK;
}

/* Everything after the checks: options, device library, the steps. */
static umb_status compile_job(cc_job *j)
{
    const umb_rdna3_cc_options *o = j->o;
    char *storage = NULL;
    arg_vec words = { 0 };
    int opt_level = o->opt_level;
    umb_status st = split_words(o->build_options ? o->build_options : "", &storage, &words, j->err, j->errlen);
    if (st == UMB_OK) st = translate_options(&words, &j->options, &opt_level, &j->has_std, j->err, j->errlen);
    for (uint32_t i = 0; st == UMB_OK && i < o->ndefines; i++) {
        push(&j->options, "-D");
        push(&j->options, o->defines[i]);
    }
    for (uint32_t i = 0; st == UMB_OK && i < o->nextra; i++) push(&j->options, o->extra[i]);
    snprintf(j->opt, sizeof j->opt, "-O%d", opt_level);

    char libdir[4096] = "";
    if (st == UMB_OK && o->input) {
        if (o->device_lib_dir ? !is_device_lib_dir(o->device_lib_dir) : !umb_rdna3_find_device_lib(libdir, sizeof libdir)) {
            snprintf(j->err, j->errlen,
                     "no ROCm device library for gfx1100 %s%s (a folder with ocml.bc and oclc_isa_version_1100.bc: "
                     "the build tree's devicelib/, or set UMBRA_DEVICE_LIB_DIR)",
                     o->device_lib_dir ? "in " : "found", o->device_lib_dir ? o->device_lib_dir : "");
            st = UMB_ERR_IO;
        }
        snprintf(j->libdir_arg, sizeof j->libdir_arg, "--rocm-device-lib-path=%s",
                 o->device_lib_dir ? o->device_lib_dir : libdir);
        snprintf(j->media_ops_h, sizeof j->media_ops_h, "%s/amd_media_ops.h",
                 o->device_lib_dir ? o->device_lib_dir : libdir);
        if (access(j->media_ops_h, R_OK) != 0) j->media_ops_h[0] = 0;   /* a folder without it: no media built-ins */
    }

    char obj[4200] = "", merged[4200] = "";
    if (st == UMB_OK && o->input && o->emit == UMB_RDNA3_EMIT_BITCODE) {
        /* a unit whose printf formats need rewriting leaves the front end unoptimized (its printf
         * not lowered yet), is rewritten and lowered; the link optimizes it */
        bool fix = may_print_upper(o->input);
        st = compile_source(j, o->output, true, !fix, fix);
        if (st == UMB_OK && fix) st = fix_printf_formats(j, o->output);
        if (st == UMB_OK && fix) st = lower_printf(j, o->output);
    } else if (st == UMB_OK && o->emit == UMB_RDNA3_EMIT_BITCODE) {
        st = merge_bitcode(j, o->output);   /* a library: the units merged, no code generated */
    } else if (st == UMB_OK) {
        st = temp_next_to(o->output, ".o", obj, sizeof obj, j->err, j->errlen);
        if (st == UMB_OK && o->input && opt_level == 0) {
            st = temp_next_to(o->output, ".bc", merged, sizeof merged, j->err, j->errlen);
            if (st == UMB_OK) st = compile_via_bitcode(j, merged, obj, false);
            if (st == UMB_OK && calls_undefined_printf_alloc(obj)) st = compile_via_bitcode(j, merged, obj, true);
        } else if (st == UMB_OK && o->input) {
            st = compile_source(j, obj, false, false, false);
            if (st == UMB_OK && calls_undefined_printf_alloc(obj)) {
                st = temp_next_to(o->output, ".bc", merged, sizeof merged, j->err, j->errlen);
                if (st == UMB_OK) st = compile_via_bitcode(j, merged, obj, true);
            }
        } else if (st == UMB_OK && (st = temp_next_to(o->output, ".bc", merged, sizeof merged, j->err, j->errlen)) == UMB_OK) {
            st = link_bitcode(j, merged, obj);
        }
        if (st == UMB_OK) st = link_shared(j, obj);
    }
    if (obj[0]) unlink(obj);
    if (merged[0]) unlink(merged);
    free(words.v);
    free(storage);
    return st;
}

umb_status umb_rdna3_compile(const umb_rdna3_cc_options *o, char *err, size_t errlen)
{
    char dummy[8];
    if (!err || !errlen) err = dummy, errlen = sizeof dummy;
    if (o && o->log) *o->log = NULL;
    umb_status st = check_options(o, err, errlen);
    if (st != UMB_OK) {
        if (o && o->log) *o->log = strdup("");
        return st;
    }
    cc_job j = { .o = o, .log_fd = -1, .err = err, .errlen = errlen };
    FILE *log = o->log ? tmpfile() : NULL;
    if (log) j.log_fd = fileno(log);
    st = compile_job(&j);
    if (o->log) {
        *o->log = slurp_log(log);
        if (!*o->log && st == UMB_OK) st = UMB_ERR_NOMEM;
    }
    if (log) fclose(log);
    free(j.options.v);
    if (st == UMB_ERR_NOMEM) snprintf(err, errlen, "compile: out of host memory");
    return st;
}
