/* hipRTC: HIP source compiled at run time into a gfx1100 code object (docs/HIP.md, "hipRTC").
 *
 * HIP 5.2 keeps the hipRTC API inside libamdhip64 (hiprtc* at version hip_4.2). umbra compiles
 * with clang-19 in a child process, as src/runtime/rdna3_cc.c does for OpenCL:
 *
 *   clang-19 -x hip --offload-arch=gfx1100 --cuda-device-only --no-gpu-bundle-output
 *            --rocm-path=/usr --rocm-device-lib-path=DEVICELIB -mcode-object-version=5
 *            -O3 -std=c++14 -D__HIPCC_RTC__ -include TMP/b/hiprtc_runtime.h -I TMP/h
 *            [translated user options] -c TMP/s/source.hip -o TMP/out.co
 *
 * in a fresh temporary folder TMP (removed afterwards) holding the program's headers under their
 * include names, the built-in header and the source. Like ROCm's hipRTC the program does not
 * include hip_runtime.h itself: the built-in header includes Debian's HIP headers in their RTC mode
 * (__HIPCC_RTC__: no C++ library) plus the warp functions that mode leaves out; clang adds its own
 * __clang_hip_runtime_wrapper.h (the math functions). -O3 and -std=c++14 are ROCm's defaults; the
 * user's options come after them and win. The output is a bare ELF code object, which
 * hipModuleLoadData takes. The log is clang's diagnostics (stdout and stderr) after umbra's notes
 * on options it ignored.
 *
 * Name expressions: for each expression E added before compiling, the source gets
 *
 *   extern "C" __device__ const void *const __umbra_hiprtc_ref_N = (const void *)&(E);
 *
 * Taking the address instantiates a template kernel (or variable) and makes it part of the code
 * object; ld.lld leaves an R_AMDGPU_RELATIVE64 dynamic relocation at the variable whose addend is
 * the address of the entity, and the symbol at that address is E's lowered (mangled) name. A
 * leading '&' of E is dropped first (NVRTC's "&f<int>" form).
 *
 * Programs are independent: each has its own lock, and the only global state is the registry of
 * live programs, which lets every call refuse a handle that is not a live program instead of
 * crashing. A handle is held (reference count) while a call uses it, so destroying a program while
 * another thread compiles it frees it when that compile ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <hip/hiprtc.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hip_internal.h"
#include "core/text_buf.h"
#include "loader/elf.h"
#include "umbra/rdna3.h"

extern char **environ;

#define RTC_MAX_CODE_BYTES (1ull << 30)
#define RTC_REF_PREFIX "__umbra_hiprtc_ref_"

/* ---------------- growable strings and argument vectors ---------------- */

typedef struct arg_vec {
    char **v;                    /* each argument malloc'd; NULL-terminated */
    size_t n, cap;
    bool nomem;
} arg_vec;

static void av_push(arg_vec *a, const char *s)
{
    if (a->nomem) return;
    if (a->n + 2 > a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 64;
        char **v = realloc(a->v, cap * sizeof *v);
        if (!v) {
            a->nomem = true;
            return;
        }
        a->v = v, a->cap = cap;
    }
    if (!(a->v[a->n] = strdup(s))) {
        a->nomem = true;
        return;
    }
    a->v[++a->n] = NULL;
}

/* Two words joined ("-D" "X" -> "-DX"). */
static void av_push2(arg_vec *a, const char *prefix, const char *value)
{
    size_t n = strlen(prefix) + strlen(value) + 1;
    char *s = malloc(n);
    if (!s) {
        a->nomem = true;
        return;
    }
    snprintf(s, n, "%s%s", prefix, value);
    av_push(a, s);
    free(s);
}

static void av_free(arg_vec *a)
{
    for (size_t i = 0; i < a->n; i++) free(a->v[i]);
    free(a->v);
    *a = (arg_vec){ 0 };
}

/* ---------------- programs and their registry ---------------- */

typedef struct name_expr {
    char *expr;                  /* as added */
    char *lowered;               /* after a successful compile; NULL if it named nothing */
} name_expr;

struct _hiprtcProgram {
    struct _hiprtcProgram *next; /* the registry */
    unsigned refs;               /* calls using it (registry lock) */
    bool destroyed;              /* out of the registry: freed when refs drops to 0 */
    pthread_mutex_t lock;        /* everything below */
    char *name, *source;
    int nheaders;
    char **headers, **include_names;
    name_expr *exprs;
    size_t nexprs, cap_exprs;
    char **retired;              /* lowered names of earlier compiles: callers may still hold them */
    size_t nretired;
    bool compiled;               /* the last compile succeeded */
    char *log;                   /* NUL-terminated; never NULL */
    uint8_t *code;
    size_t code_size;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct _hiprtcProgram *registry;

static void program_free(hiprtcProgram p)
{
    free(p->name);
    free(p->source);
    for (int i = 0; i < p->nheaders; i++) {
        if (p->headers) free(p->headers[i]);
        if (p->include_names) free(p->include_names[i]);
    }
    free(p->headers);
    free(p->include_names);
    for (size_t i = 0; i < p->nexprs; i++) {
        free(p->exprs[i].expr);
        free(p->exprs[i].lowered);
    }
    free(p->exprs);
    for (size_t i = 0; i < p->nretired; i++) free(p->retired[i]);
    free(p->retired);
    free(p->log);
    free(p->code);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

/* The live program p names, held (and locked) for the caller; NULL if it is not one. */
static hiprtcProgram program_get(hiprtcProgram p)
{
    if (!p) return NULL;
    pthread_mutex_lock(&registry_lock);
    hiprtcProgram q = registry;
    while (q && q != p) q = q->next;
    if (q) q->refs++;
    pthread_mutex_unlock(&registry_lock);
    if (q) pthread_mutex_lock(&q->lock);
    return q;
}

static void program_put(hiprtcProgram p)
{
    pthread_mutex_unlock(&p->lock);
    pthread_mutex_lock(&registry_lock);
    bool last = --p->refs == 0 && p->destroyed;
    pthread_mutex_unlock(&registry_lock);
    if (last) program_free(p);
}

/* ---------------- the simple entry points ---------------- */

HIP_EXPORT const char *hiprtcGetErrorString(hiprtcResult result)
{
    switch (result) {
    case HIPRTC_SUCCESS: return "HIPRTC_SUCCESS";
    case HIPRTC_ERROR_OUT_OF_MEMORY: return "HIPRTC_ERROR_OUT_OF_MEMORY";
    case HIPRTC_ERROR_PROGRAM_CREATION_FAILURE: return "HIPRTC_ERROR_PROGRAM_CREATION_FAILURE";
    case HIPRTC_ERROR_INVALID_INPUT: return "HIPRTC_ERROR_INVALID_INPUT";
    case HIPRTC_ERROR_INVALID_PROGRAM: return "HIPRTC_ERROR_INVALID_PROGRAM";
    case HIPRTC_ERROR_INVALID_OPTION: return "HIPRTC_ERROR_INVALID_OPTION";
    case HIPRTC_ERROR_COMPILATION: return "HIPRTC_ERROR_COMPILATION";
    case HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE: return "HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE";
    case HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION: return "HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION";
    case HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION: return "HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION";
    case HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID: return "HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID";
    case HIPRTC_ERROR_INTERNAL_ERROR: return "HIPRTC_ERROR_INTERNAL_ERROR";
    }
    return "Invalid HIPRTC error code";
}

/* The HIP version whose hipRTC this is (Debian's HIP 5.2). */
HIP_EXPORT hiprtcResult hiprtcVersion(int *major, int *minor)
{
    if (!major || !minor) return HIPRTC_ERROR_INVALID_INPUT;
    *major = HIP_VERSION_MAJOR;
    *minor = HIP_VERSION_MINOR;
    return HIPRTC_SUCCESS;
}

/* An include name the program can be given: relative, not empty. */
static bool valid_include_name(const char *n)
{
    return n && n[0] && n[0] != '/';
}

HIP_EXPORT hiprtcResult hiprtcCreateProgram(hiprtcProgram *prog, const char *src, const char *name, int numHeaders,
                                            const char **headers, const char **includeNames)
{
    if (!prog) return HIPRTC_ERROR_INVALID_PROGRAM;
    if (!src || numHeaders < 0 || (numHeaders > 0 && (!headers || !includeNames))) return HIPRTC_ERROR_INVALID_INPUT;
    for (int i = 0; i < numHeaders; i++)
        if (!headers[i] || !valid_include_name(includeNames[i])) return HIPRTC_ERROR_INVALID_INPUT;
    hiprtcProgram p = calloc(1, sizeof *p);
    if (!p) return HIPRTC_ERROR_OUT_OF_MEMORY;
    pthread_mutex_init(&p->lock, NULL);
    bool ok = (p->name = strdup(name && name[0] ? name : "default_program")) && (p->source = strdup(src)) &&
              (p->log = strdup(""));
    if (ok && numHeaders > 0) {
        p->headers = calloc((size_t)numHeaders, sizeof *p->headers);
        p->include_names = calloc((size_t)numHeaders, sizeof *p->include_names);
        ok = p->headers && p->include_names;
        if (ok) p->nheaders = numHeaders;
        for (int i = 0; ok && i < numHeaders; i++)
            ok = (p->headers[i] = strdup(headers[i])) && (p->include_names[i] = strdup(includeNames[i]));
    }
    if (!ok) {
        program_free(p);
        return HIPRTC_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_lock(&registry_lock);
    p->next = registry, registry = p;
    pthread_mutex_unlock(&registry_lock);
    *prog = p;
    return HIPRTC_SUCCESS;
}

HIP_EXPORT hiprtcResult hiprtcDestroyProgram(hiprtcProgram *prog)
{
    if (!prog) return HIPRTC_ERROR_INVALID_INPUT;
    pthread_mutex_lock(&registry_lock);
    hiprtcProgram *pp = &registry;
    while (*pp && *pp != *prog) pp = &(*pp)->next;
    hiprtcProgram p = *pp;
    bool free_now = false;
    if (p) {
        *pp = p->next;
        p->destroyed = true;
        free_now = p->refs == 0;
    }
    pthread_mutex_unlock(&registry_lock);
    if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
    if (free_now) program_free(p);
    *prog = NULL;
    return HIPRTC_SUCCESS;
}

HIP_EXPORT hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog, const char *name_expression)
{
    hiprtcProgram p = program_get(prog);
    if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
    hiprtcResult r = HIPRTC_SUCCESS;
    if (!name_expression || !name_expression[strspn(name_expression, " \t\r\n&")]) {
        r = HIPRTC_ERROR_INVALID_INPUT;
    } else if (p->compiled) {
        r = HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
    } else {
        bool seen = false;
        for (size_t i = 0; i < p->nexprs && !seen; i++) seen = !strcmp(p->exprs[i].expr, name_expression);
        if (!seen && p->nexprs == p->cap_exprs) {
            size_t cap = p->cap_exprs ? 2 * p->cap_exprs : 8;
            name_expr *g = realloc(p->exprs, cap * sizeof *g);
            if (g) p->exprs = g, p->cap_exprs = cap;
        }
        if (!seen && p->nexprs < p->cap_exprs) {
            char *e = strdup(name_expression);
            if (e) p->exprs[p->nexprs++] = (name_expr){ e, NULL };
            else r = HIPRTC_ERROR_OUT_OF_MEMORY;
        } else if (!seen) {
            r = HIPRTC_ERROR_OUT_OF_MEMORY;
        }
    }
    program_put(p);
    return r;
}

/* An expression without white space and a leading '&' (how NVRTC and ROCm compare them). */
static void normalize_expr(const char *in, char *out, size_t len)
{
    size_t n = 0;
    while (*in == ' ' || *in == '\t' || *in == '\r' || *in == '\n') in++;
    if (*in == '&') in++;
    for (; *in && n + 1 < len; in++)
        if (!(*in == ' ' || *in == '\t' || *in == '\r' || *in == '\n')) out[n++] = *in;
    if (len) out[n] = '\0';
}

HIP_EXPORT hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog, const char *name_expression, const char **lowered_name)
{
    hiprtcProgram p = program_get(prog);
    if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
    hiprtcResult r = HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
    if (!name_expression || !lowered_name) {
        r = HIPRTC_ERROR_INVALID_INPUT;
    } else if (!p->compiled) {
        r = HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
    } else {
        const name_expr *hit = NULL;
        for (size_t i = 0; i < p->nexprs && !hit; i++)
            if (!strcmp(p->exprs[i].expr, name_expression)) hit = &p->exprs[i];
        size_t len = strlen(name_expression) + 1;
        char *want = hit ? NULL : malloc(len), *have = NULL;
        if (want) normalize_expr(name_expression, want, len);
        for (size_t i = 0; i < p->nexprs && !hit && want; i++) {
            size_t hl = strlen(p->exprs[i].expr) + 1;
            char *g = realloc(have, hl);
            if (!g) break;
            have = g;
            normalize_expr(p->exprs[i].expr, have, hl);
            if (!strcmp(have, want)) hit = &p->exprs[i];
        }
        free(want);
        free(have);
        if (hit && hit->lowered) {
            *lowered_name = hit->lowered;
            r = HIPRTC_SUCCESS;
        }
    }
    program_put(p);
    return r;
}

HIP_EXPORT hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog, size_t *logSizeRet)
{
    hiprtcProgram p = program_get(prog);
    if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
    hiprtcResult r = HIPRTC_ERROR_INVALID_INPUT;
    /* ROCm's rule: no log, size 0 (programs print the log when the size is not 0); a log counts
     * its NUL, which hiprtcGetProgramLog writes (NVRTC's rule, for programs that print it with %s) */
    size_t n = strlen(p->log);
    if (logSizeRet) *logSizeRet = n ? n + 1 : 0, r = HIPRTC_SUCCESS;
    program_put(p);
    return r;
}

HIP_EXPORT hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog, char *log)
{
    hiprtcProgram p = program_get(prog);
    if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
    hiprtcResult r = HIPRTC_ERROR_INVALID_INPUT;
    size_t n = strlen(p->log);
    if (log) memcpy(log, p->log, n ? n + 1 : 0), r = HIPRTC_SUCCESS;   /* an empty log writes nothing */
    program_put(p);
    return r;
}

/* Before a successful compile the code is empty: size 0, and hiprtcGetCode copies nothing (as
 * ROCm's hipRTC does). */
HIP_EXPORT hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog, size_t *codeSizeRet)
{
    hiprtcProgram p = program_get(prog);
    if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
    hiprtcResult r = HIPRTC_ERROR_INVALID_INPUT;
    if (codeSizeRet) *codeSizeRet = p->code_size, r = HIPRTC_SUCCESS;
    program_put(p);
    return r;
}

HIP_EXPORT hiprtcResult hiprtcGetCode(hiprtcProgram prog, char *code)
{
    hiprtcProgram p = program_get(prog);
    if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
    hiprtcResult r = HIPRTC_ERROR_INVALID_INPUT;
    if (code) {
        if (p->code_size) memcpy(code, p->code, p->code_size);
        r = HIPRTC_SUCCESS;
    }
    program_put(p);
    return r;
}

/* ---------------- options ---------------- */

/* The value of "--opt=V" or of "--opt V" (the next word, consumed); NULL if opt does not match
 * w. When the option matches but has no value, *missing is set and the value is "". */
static const char *opt_value(const char *w, const char *opt, int *i, int n, const char **options, bool *missing)
{
    size_t l = strlen(opt);
    if (strncmp(w, opt, l)) return NULL;
    if (w[l] == '=') return w + l + 1;
    if (w[l]) return NULL;
    if (*i + 1 >= n) {
        *missing = true;
        return "";
    }
    return options[++*i];
}

/* Is arch (an --offload-arch / -arch value) gfx1100? "gfx1100", "gfx1100:<features>" and
 * "amdgcn-amd-amdhsa--gfx1100" count. */
static bool is_gfx1100(const char *arch)
{
    const char *a = arch;
    if (!strncmp(a, "amdgcn-amd-amdhsa--", 19)) a += 19;
    return !strncmp(a, "gfx1100", 7) && (a[7] == '\0' || a[7] == ':');
}

static bool has_prefix(const char *w, const char *p) { return !strncmp(w, p, strlen(p)); }

/* Options clang takes as they are: one word. */
static bool passthrough(const char *w)
{
    static const char *const prefixes[] = { "-D", "-U", "-I", "-O", "-std=", "-W", "-w", "-g", "-R", "-f", "-m" };
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (has_prefix(w, prefixes[i]) && strlen(w) > (i < 5 ? strlen(prefixes[i]) : 1)) return true;
    return !strcmp(w, "-w") || !strcmp(w, "-g") || !strcmp(w, "-O");
}

/* Translate the user's options into clang arguments (out) and notes in the log: the target (gfx1100
 * only), NVRTC's spellings, options with no use here (a note), clang's own options. */
static hiprtcResult translate_options(int n, const char **options, arg_vec *out, umb_text_buf *log)
{
    for (int i = 0; i < n; i++) {
        const char *w = options[i], *v;
        bool missing = false;
        int at = i;
        /* the target: gfx1100 or nothing */
        if ((v = opt_value(w, "--gpu-architecture", &i, n, options, &missing)) ||
            (v = opt_value(w, "--offload-arch", &i, n, options, &missing)) ||
            (v = opt_value(w, "-arch", &i, n, options, &missing)) || (v = opt_value(w, "-mcpu", &i, n, options, &missing)) ||
            (v = opt_value(w, "-march", &i, n, options, &missing)) ||
            (v = opt_value(w, "--amdgpu-target", &i, n, options, &missing))) {
            if (!missing && !is_gfx1100(v)) {
                umb_text_printf(log, "hiprtc: error: option '%s%s%s': umbra simulates gfx1100 and compiles only for it "
                               "(use --gpu-architecture=gfx1100, or no architecture option)\n",
                          w, i != at ? " " : "", i != at ? v : "");
                return HIPRTC_ERROR_INVALID_OPTION;
            }
            /* gfx1100: --offload-arch=gfx1100 is always passed */
        } else if ((v = opt_value(w, "--std", &i, n, options, &missing))) {
            av_push2(out, "-std=", v);
        } else if ((v = opt_value(w, "--define-macro", &i, n, options, &missing))) {
            av_push2(out, "-D", v);
        } else if ((v = opt_value(w, "--undefine-macro", &i, n, options, &missing))) {
            av_push2(out, "-U", v);
        } else if ((v = opt_value(w, "--include-path", &i, n, options, &missing))) {
            av_push2(out, "-I", v);
        } else if ((v = opt_value(w, "--pre-include", &i, n, options, &missing))) {
            av_push(out, "-include");
            av_push(out, v);
        } else if (!strcmp(w, "--use_fast_math") || !strcmp(w, "-use_fast_math")) {
            av_push(out, "-ffast-math");
        } else if ((v = opt_value(w, "--fmad", &i, n, options, &missing)) || (v = opt_value(w, "-fmad", &i, n, options, &missing))) {
            av_push(out, strcmp(v, "false") ? "-ffp-contract=fast" : "-ffp-contract=off");
        } else if ((v = opt_value(w, "--ftz", &i, n, options, &missing)) || (v = opt_value(w, "-ftz", &i, n, options, &missing))) {
            av_push(out, strcmp(v, "false") ? "-fgpu-flush-denormals-to-zero" : "-fno-gpu-flush-denormals-to-zero");
        } else if (!strcmp(w, "--device-debug") || !strcmp(w, "-G")) {
            av_push(out, "-g");
        } else if (!strcmp(w, "--generate-line-info") || !strcmp(w, "-lineinfo")) {
            av_push(out, "-gline-tables-only");
        } else if (!strcmp(w, "--disable-warnings")) {
            av_push(out, "-w");
        } else if (!strcmp(w, "-fgpu-rdc") || !strcmp(w, "-dc") || !strcmp(w, "--device-c") ||
                   !strcmp(w, "-rdc=true") || !strcmp(w, "--relocatable-device-code=true")) {
            umb_text_printf(log, "hiprtc: error: option '%s': relocatable device code is not supported (HIP 5.2's hipRTC "
                           "has no link step); compile whole programs\n", w);
            return HIPRTC_ERROR_INVALID_OPTION;
        } else if (!strcmp(w, "-hip-pch") || !strcmp(w, "--save-temps") || !strcmp(w, "-default-device") ||
                   !strcmp(w, "--device-as-default-execution-space") || !strcmp(w, "-fno-gpu-rdc") ||
                   !strcmp(w, "-rdc=false") || !strcmp(w, "--relocatable-device-code=false") ||
                   !strcmp(w, "-nogpuinc") || !strcmp(w, "-nogpulib") || !strcmp(w, "--cuda-device-only") ||
                   has_prefix(w, "--maxrregcount") || has_prefix(w, "-maxrregcount") ||
                   has_prefix(w, "--prec-div") || has_prefix(w, "-prec-div") || has_prefix(w, "--prec-sqrt") ||
                   has_prefix(w, "-prec-sqrt") || has_prefix(w, "--hip-version")) {
            umb_text_printf(log, "hiprtc: note: option '%s' ignored (umbra's hipRTC has no use for it)\n", w);
        } else if (!strcmp(w, "-D") || !strcmp(w, "-U") || !strcmp(w, "-I") || !strcmp(w, "-include") ||
                   !strcmp(w, "-isystem") || !strcmp(w, "-idirafter") || !strcmp(w, "-iquote") ||
                   !strcmp(w, "-mllvm") || !strcmp(w, "-Xclang")) {
            if (i + 1 >= n) {
                missing = true;
            } else {
                av_push(out, w);
                av_push(out, options[++i]);
            }
        } else if (!strcmp(w, "-fsyntax-only")) {
            umb_text_printf(log, "hiprtc: error: option '%s': a compile makes a code object\n", w);
            return HIPRTC_ERROR_INVALID_OPTION;
        } else if (passthrough(w)) {
            av_push(out, w);
        } else {
            umb_text_printf(log, "hiprtc: error: unknown option '%s'\n", w);
            return HIPRTC_ERROR_INVALID_OPTION;
        }
        if (missing) {
            umb_text_printf(log, "hiprtc: error: option '%s' needs a value\n", w);
            return HIPRTC_ERROR_INVALID_OPTION;
        }
    }
    return out->nomem || log->nomem ? HIPRTC_ERROR_OUT_OF_MEMORY : HIPRTC_SUCCESS;
}

/* ---------------- files ---------------- */

/* The header every program starts with (-include): HIP's device side in RTC mode. */
static const char builtin_header[] =
    "/* umbra's hipRTC: what every hipRTC program sees before its own source */\n"
    "#pragma once\n"
    "#pragma push_macro(\"CHAR_BIT\")\n"
    "#pragma push_macro(\"INT_MAX\")\n"
    "#define CHAR_BIT __CHAR_BIT__\n"
    "#define INT_MAX __INT_MAX__\n"
    "#include <hip/hip_version.h>\n"
    "#include <hip/hip_runtime.h>\n"
    "#include <hip/hip_fp16.h>\n"
    "#include <hip/amd_detail/amd_warp_functions.h>\n"
    "#pragma pop_macro(\"CHAR_BIT\")\n"
    "#pragma pop_macro(\"INT_MAX\")\n";

static bool write_file(const char *path, const void *data, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    const char *p = data;
    while (size) {
        ssize_t w = write(fd, p, size);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            close(fd);
            return false;
        }
        p += w, size -= (size_t)w;
    }
    return close(fd) == 0;
}

/* Make every folder of path's parent (path is inside a folder we made). */
static bool make_parents(char *path, size_t root_len)
{
    for (char *s = path + root_len + 1; (s = strchr(s, '/')); s++) {
        *s = '\0';
        bool ok = mkdir(path, 0700) == 0 || errno == EEXIST;
        *s = '/';
        if (!ok) return false;
    }
    return true;
}

/* The number of ".." components of an include name. */
static int dotdots(const char *n)
{
    int k = 0;
    for (const char *s = n; *s;) {
        size_t l = strcspn(s, "/");
        if (l == 2 && s[0] == '.' && s[1] == '.') k++;
        s += l;
        if (*s) s++;
    }
    return k;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* The whole of a file (malloc'd, with a NUL after it); NULL if unreadable or too large. */
static char *read_file(const char *path, size_t *size, size_t max)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 1 >= cap) {
            cap = cap ? 2 * cap : 1 << 16;
            char *g = cap <= max + 1 ? realloc(buf, cap) : NULL;
            if (!g) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = g;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0) break;
    }
    fclose(f);
    buf[n] = '\0';
    *size = n;
    return buf;
}

/* ---------------- running clang ---------------- */

/* Run argv with stdout and stderr into log_path. 0: exited with status 0; 1: failed (log says
 * why); -1: could not run (*why set). */
static int run_clang(char *const *argv, const char *log_path, umb_text_buf *why)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) {
        umb_text_printf(why, "hiprtc: error: cannot run %s: %s%s\n", argv[0], strerror(rc),
                  rc == ENOENT ? " (install LLVM 19: apt-get install clang-19 lld-19)" : "");
        return -1;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno == EINTR) continue;
        /* ECHILD: the program ignores SIGCHLD, so the child was reaped for us; its output tells */
        return errno == ECHILD ? 0 : (umb_text_printf(why, "hiprtc: error: waiting for %s: %s\n", argv[0], strerror(errno)), -1);
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    if (WIFSIGNALED(status)) umb_text_printf(why, "hiprtc: error: %s was killed by signal %d\n", argv[0], WTERMSIG(status));
    return 1;
}

/* ---------------- name expressions in the code object ---------------- */

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* The name of the entity a reference variable at vaddr points to. */
static const char *symbol_at(umb_elf *e, uint64_t addr)
{
    const char *best = NULL;
    for (uint32_t i = 1; i < umb_elf_symbol_count(e); i++) {
        umb_elf_sym s;
        if (umb_elf_symbol(e, i, &s)) break;
        if (s.value != addr || s.shndx == UMB_SHN_UNDEF || !s.name[0]) continue;
        if (s.type != UMB_STT_FUNC && s.type != UMB_STT_OBJECT) continue;
        size_t l = strlen(s.name);
        if ((l > 3 && !strcmp(s.name + l - 3, ".kd")) || has_prefix(s.name, RTC_REF_PREFIX)) continue;
        if (!best || s.bind != UMB_STB_LOCAL) best = s.name;
        if (s.bind != UMB_STB_LOCAL) break;
    }
    return best;
}

/* The address held by the 8 bytes at vaddr: a dynamic relocation's (RELATIVE64: the addend;
 * ABS64: symbol + addend), else the bytes themselves. Sets *sym_name for an ABS64 against a named
 * symbol. false if vaddr holds nothing readable. */
static bool pointer_at(umb_elf *e, uint64_t vaddr, uint64_t *target, const char **sym_name)
{
    *sym_name = NULL;
    for (uint32_t s = 0; s < e->shnum; s++) {
        const umb_elf_shdr *sh = &e->shdrs[s];
        if (sh->type != 4 /* SHT_RELA */) continue;
        const uint8_t *d = umb_elf_section_data(e, sh);
        if (!d) continue;
        for (uint64_t off = 0; off + 24 <= sh->size; off += 24) {
            if (rd64(d + off) != vaddr) continue;
            uint64_t info = rd64(d + off + 8), addend = rd64(d + off + 16);
            uint32_t type = (uint32_t)info, symi = (uint32_t)(info >> 32);
            if (type == 13 /* R_AMDGPU_RELATIVE64 */) {
                *target = addend;
                return true;
            }
            if (type == 1 /* R_AMDGPU_ABS64 */ && sh->link < e->shnum) {
                /* the symbol table the relocation section names (.dynsym) */
                const umb_elf_shdr *st = &e->shdrs[sh->link];
                const uint8_t *sd = umb_elf_section_data(e, st);
                const umb_elf_shdr *str = st->link < e->shnum ? &e->shdrs[st->link] : NULL;
                const uint8_t *strd = str ? umb_elf_section_data(e, str) : NULL;
                if (!sd || !strd || (uint64_t)symi * 24 + 24 > st->size) return false;
                uint32_t name = (uint32_t)rd64(sd + (uint64_t)symi * 24) & 0xffffffffu;
                if (name < str->size && memchr(strd + name, 0, str->size - name)) *sym_name = (const char *)strd + name;
                *target = rd64(sd + (uint64_t)symi * 24 + 8) + addend;
                return true;
            }
        }
    }
    const uint8_t *p = umb_elf_vaddr_data(e, vaddr, 8);
    if (!p) return false;
    *target = rd64(p);
    return true;
}

/* Fill in each name expression's lowered name from the code object. */
static hiprtcResult resolve_names(hiprtcProgram p, umb_text_buf *log)
{
    if (!p->nexprs) return HIPRTC_SUCCESS;
    umb_elf e;
    if (umb_elf_open_memory(&e, p->name, p->code, p->code_size)) {
        umb_text_printf(log, "hiprtc: error: reading the code object: %s\n", e.error);
        return HIPRTC_ERROR_INTERNAL_ERROR;
    }
    hiprtcResult r = HIPRTC_SUCCESS;
    for (size_t i = 0; i < p->nexprs; i++) {
        char var[64];
        snprintf(var, sizeof var, RTC_REF_PREFIX "%zu", i);
        umb_elf_sym s;
        uint64_t target;
        const char *name = NULL;
        if (!umb_elf_find_symbol(&e, var, &s) && pointer_at(&e, s.value, &target, &name) && !name)
            name = symbol_at(&e, target);
        if (!name) {
            umb_text_printf(log, "hiprtc: warning: name expression '%s' names nothing in the code object\n", p->exprs[i].expr);
            continue;
        }
        if (!(p->exprs[i].lowered = strdup(name))) r = HIPRTC_ERROR_OUT_OF_MEMORY;
    }
    umb_elf_close(&e);
    return r;
}

/* ---------------- compiling ---------------- */

/* The source as clang reads it: a #line naming the program, the program, then the name
 * expressions' reference variables. */
static void build_source(hiprtcProgram p, umb_text_buf *src)
{
    umb_text_str(src, "#line 1 \"");
    for (const char *s = p->name; *s; s++) {
        if (*s == '"' || *s == '\\') umb_text_append(src, "\\", 1);
        umb_text_append(src, (unsigned char)*s < ' ' ? "_" : s, 1);
    }
    umb_text_str(src, "\"\n");
    umb_text_str(src, p->source);
    umb_text_str(src, "\n");
    for (size_t i = 0; i < p->nexprs; i++) {
        const char *e = p->exprs[i].expr;
        e += strspn(e, " \t\r\n");
        if (*e == '&') e++;
        umb_text_printf(src, "#line 1 \"name expression %zu\"\nextern \"C\" __device__ const void *const " RTC_REF_PREFIX
                       "%zu = (const void *)&(%s\n);\n", i + 1, i, e);
    }
}

typedef struct compile_job {
    char dir[4096];               /* the temporary folder */
    umb_text_buf log;                   /* umbra's notes, then clang's diagnostics */
} compile_job;

static hiprtcResult write_inputs(hiprtcProgram p, compile_job *j, char *hdr_dir, size_t hlen, char *src_path,
                                 size_t slen, char *builtin_path, size_t blen)
{
    /* headers under TMP/h/d/d/... deep enough that "../x.h" stays inside TMP */
    int depth = 0;
    for (int i = 0; i < p->nheaders; i++)
        if (dotdots(p->include_names[i]) > depth) depth = dotdots(p->include_names[i]);
    size_t n = (size_t)snprintf(hdr_dir, hlen, "%s/h", j->dir);
    int d = 0;
    for (; d < depth && n + 3 < hlen; d++) n += (size_t)snprintf(hdr_dir + n, hlen - n, "/d");
    if (d < depth) {
        umb_text_printf(&j->log, "hiprtc: error: header names with %d '..' components are not supported\n", depth);
        return HIPRTC_ERROR_INVALID_INPUT;
    }
    char path[8192];
    snprintf(path, sizeof path, "%s/x", hdr_dir);
    if (!make_parents(path, strlen(j->dir))) goto io;
    for (int i = 0; i < p->nheaders; i++) {
        if ((size_t)snprintf(path, sizeof path, "%s/%s", hdr_dir, p->include_names[i]) >= sizeof path) {
            umb_text_printf(&j->log, "hiprtc: error: header name '%s' is too long\n", p->include_names[i]);
            return HIPRTC_ERROR_INVALID_INPUT;
        }
        if (!make_parents(path, strlen(j->dir)) || !write_file(path, p->headers[i], strlen(p->headers[i]))) {
            umb_text_printf(&j->log, "hiprtc: error: cannot write header '%s' (as %s): %s\n", p->include_names[i], path,
                      strerror(errno));
            return HIPRTC_ERROR_INVALID_INPUT;
        }
    }
    snprintf(builtin_path, blen, "%s/b/hiprtc_runtime.h", j->dir);
    snprintf(src_path, slen, "%s/s/source.hip", j->dir);
    umb_text_buf src = { 0 };
    build_source(p, &src);
    if (src.nomem) return HIPRTC_ERROR_OUT_OF_MEMORY;
    bool ok = make_parents(builtin_path, strlen(j->dir)) && make_parents(src_path, strlen(j->dir)) &&
              write_file(builtin_path, builtin_header, sizeof builtin_header - 1) && write_file(src_path, src.s, src.len);
    free(src.s);
    if (ok) return HIPRTC_SUCCESS;
io:
    umb_text_printf(&j->log, "hiprtc: error: cannot write the compiler's input in %s: %s\n", j->dir, strerror(errno));
    return HIPRTC_ERROR_INTERNAL_ERROR;
}

static hiprtcResult compile(hiprtcProgram p, int numOptions, const char **options, compile_job *j)
{
    arg_vec user = { 0 }, a = { 0 };
    hiprtcResult r = translate_options(numOptions, options, &user, &j->log);
    char libdir[4096];
    if (!r && !umb_rdna3_find_device_lib(libdir, sizeof libdir)) {
        umb_text_printf(&j->log, "hiprtc: error: no ROCm device library for gfx1100 found (a folder with ocml.bc and "
                           "oclc_isa_version_1100.bc: the build tree's devicelib/, or set UMBRA_DEVICE_LIB_DIR)\n");
        r = HIPRTC_ERROR_INTERNAL_ERROR;
    }
    const char *tmp = getenv("TMPDIR");
    if (!r && (size_t)snprintf(j->dir, sizeof j->dir, "%s/umbra-hiprtc-XXXXXX", tmp && tmp[0] ? tmp : "/tmp") >= 3000) {
        snprintf(j->dir, sizeof j->dir, "/tmp/umbra-hiprtc-XXXXXX");
    }
    if (!r && !mkdtemp(j->dir)) {
        umb_text_printf(&j->log, "hiprtc: error: cannot make a temporary folder %s: %s\n", j->dir, strerror(errno));
        j->dir[0] = '\0';
        r = HIPRTC_ERROR_INTERNAL_ERROR;
    }
    char hdr_dir[4200], src_path[4200], builtin_path[4200], out_path[4200], log_path[4200];
    if (!r) r = write_inputs(p, j, hdr_dir, sizeof hdr_dir, src_path, sizeof src_path, builtin_path, sizeof builtin_path);
    if (!r) {
        snprintf(out_path, sizeof out_path, "%s/out.co", j->dir);
        snprintf(log_path, sizeof log_path, "%s/clang.log", j->dir);
        const char *fixed[] = { "clang-19", "-x", "hip", "--offload-arch=gfx1100", "--cuda-device-only",
                                "--no-gpu-bundle-output", "--rocm-path=/usr", "-mcode-object-version=5", "-O3",
                                "-std=c++14", "-D__HIPCC_RTC__", "-include", builtin_path };
        for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) av_push(&a, fixed[i]);
        av_push2(&a, "--rocm-device-lib-path=", libdir);
        av_push2(&a, "-I", hdr_dir);
        for (size_t i = 0; i < user.n; i++) av_push(&a, user.v[i]);
        const char *tail[] = { "-c", src_path, "-o", out_path };
        for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++) av_push(&a, tail[i]);
        if (a.nomem) r = HIPRTC_ERROR_OUT_OF_MEMORY;
    }
    if (!r) {
        umb_text_buf why = { 0 };
        int rc = run_clang(a.v, log_path, &why);
        size_t n = 0;
        char *diag = read_file(log_path, &n, 64u << 20);
        if (diag) umb_text_append(&j->log, diag, n);
        free(diag);
        if (why.s) umb_text_str(&j->log, why.s);
        free(why.s);
        if (rc < 0) r = HIPRTC_ERROR_INTERNAL_ERROR;
        else if (rc > 0) r = HIPRTC_ERROR_COMPILATION;
    }
    if (!r) {
        size_t n = 0;
        char *code = read_file(out_path, &n, RTC_MAX_CODE_BYTES);
        if (!code || n < 4 || memcmp(code, "\177ELF", 4)) {
            umb_text_printf(&j->log, "hiprtc: error: clang-19 made no code object\n");
            free(code);
            r = HIPRTC_ERROR_COMPILATION;
        } else {
            p->code = (uint8_t *)code, p->code_size = n;
            r = resolve_names(p, &j->log);
        }
    }
    av_free(&user);
    av_free(&a);
    return r;
}

HIP_EXPORT hiprtcResult hiprtcCompileProgram(hiprtcProgram prog, int numOptions, const char **options)
{
    hiprtcProgram p = program_get(prog);
    if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
    if (numOptions < 0 || (numOptions > 0 && !options)) {
        program_put(p);
        return HIPRTC_ERROR_INVALID_INPUT;
    }
    for (int i = 0; i < numOptions; i++)
        if (!options[i]) {
            program_put(p);
            return HIPRTC_ERROR_INVALID_INPUT;
        }
    /* a new compile replaces what the last one made */
    free(p->code);
    p->code = NULL, p->code_size = 0;
    p->compiled = false;
    for (size_t i = 0; i < p->nexprs; i++) {
        if (!p->exprs[i].lowered) continue;
        char **g = realloc(p->retired, (p->nretired + 1) * sizeof *g);
        if (g) p->retired = g, p->retired[p->nretired++] = p->exprs[i].lowered;
        else free(p->exprs[i].lowered);   /* no memory to keep it: a caller's copy dangles */
        p->exprs[i].lowered = NULL;
    }
    compile_job j = { 0 };
    hiprtcResult r = compile(p, numOptions, options, &j);
    if (j.dir[0]) nftw(j.dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    if (j.log.nomem && !r) r = HIPRTC_ERROR_OUT_OF_MEMORY;
    if (r) {
        free(p->code);
        p->code = NULL, p->code_size = 0;
    } else {
        p->compiled = true;
    }
    char *log = j.log.s && !j.log.nomem ? j.log.s : strdup("");
    if (log != j.log.s) free(j.log.s);
    if (log) {
        free(p->log);
        p->log = log;
    }
    program_put(p);
    return r;
}

/* ---------------- the precompiled header ---------------- */

/* __hipGetPCH: ROCm's runtime carries the HIP headers precompiled for hipRTC; umbra makes the same
 * thing on first request: its built-in header (above) precompiled by clang-19 with hipRTC's
 * defaults (a clang PCH, "CPCH"), kept for the life of the process. Programs built with
 * __HIP_ENABLE_PCH check that it is there. Empty (size 0) if clang-19 cannot make it; the reason
 * goes to stderr. */
static pthread_once_t pch_once = PTHREAD_ONCE_INIT;
static char *pch_data;
static size_t pch_size;

static void build_pch(void)
{
    char libdir[4096], dir[4200], hdr[4300], out[4300], log[4300];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/umbra-hippch-XXXXXX", tmp && tmp[0] && strlen(tmp) < 3000 ? tmp : "/tmp");
    if (!umb_rdna3_find_device_lib(libdir, sizeof libdir) || !mkdtemp(dir)) {
        fprintf(stderr, "umbra hip: __hipGetPCH: no device library or temporary folder: no precompiled header\n");
        return;
    }
    snprintf(hdr, sizeof hdr, "%s/hiprtc_runtime.h", dir);
    snprintf(out, sizeof out, "%s/hip.pch", dir);
    snprintf(log, sizeof log, "%s/clang.log", dir);
    arg_vec a = { 0 };
    const char *fixed[] = { "clang-19", "-x", "hip", "--offload-arch=gfx1100", "--cuda-device-only", "--rocm-path=/usr",
                            "-mcode-object-version=5", "-O3", "-std=c++14", "-D__HIPCC_RTC__", "-Xclang", "-emit-pch",
                            "-S", hdr, "-o", out };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) av_push(&a, fixed[i]);
    av_push2(&a, "--rocm-device-lib-path=", libdir);
    umb_text_buf why = { 0 };
    if (!a.nomem && write_file(hdr, builtin_header, sizeof builtin_header - 1) && run_clang(a.v, log, &why) == 0)
        pch_data = read_file(out, &pch_size, 256u << 20);
    if (!pch_data) {
        size_t n = 0;
        char *diag = read_file(log, &n, 1u << 16);
        fprintf(stderr, "umbra hip: __hipGetPCH: clang-19 could not precompile the HIP headers: %s%s\n", why.s ? why.s : "",
                diag ? diag : "");
        free(diag);
        pch_size = 0;
    }
    free(why.s);
    av_free(&a);
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

HIP_EXPORT void __hipGetPCH(const char **pch, unsigned int *size)
{
    pthread_once(&pch_once, build_pch);
    if (pch) *pch = pch_data;
    if (size) *size = (unsigned int)pch_size;
}
