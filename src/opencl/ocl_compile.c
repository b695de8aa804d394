/* OpenCL C -> code object through umb_rdna3_compile, with an on-disk cache.
 *
 * The cache is keyed by a 128-bit hash of the compiler (clang-19's resolved path, size and time),
 * umbra's version, what is emitted, the device libraries (folder, ocml.bc's size and time), the
 * build options and the source (or the linked bitcode), as PoCL keys its own; a
 * program's second build reads the code object back without running clang. The folder is
 * $UMBRA_CACHE_DIR, else $XDG_CACHE_HOME/umbra, else ~/.cache/umbra; UMBRA_CACHE_DIR=off disables it.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ocl_compile.h"
#include "core/file_cache.h"

typedef umb_hash128 hash128;

/* ---------------- files ---------------- */

/* ---------------- the cache key ---------------- */

/* The compiler: the clang-19 that PATH finds, by its resolved path, size and time (cheaper than
 * running it for its version, and it changes whenever the package does). */
static void hash_compiler(hash128 *h)
{
    const char *path = getenv("PATH");
    char dir[PATH_MAX], full[PATH_MAX + 16], real[PATH_MAX];
    for (const char *p = path ? path : "/usr/bin"; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(dir, sizeof dir, "%.*s", (int)n, p);
        snprintf(full, sizeof full, "%s/clang-19", n ? dir : ".");
        struct stat sb;
        if (stat(full, &sb) == 0 && realpath(full, real)) {
            struct stat rb;
            if (stat(real, &rb) == 0) sb = rb;
            umb_hash_str(h, real);
            uint64_t id[2] = { (uint64_t)sb.st_size, (uint64_t)sb.st_mtime };
            umb_hash_bytes(h, id, sizeof id);
            return;
        }
        p += n + (p[n] == ':');
    }
    umb_hash_str(h, "no clang-19");
}

/* The device libraries linked in: their folder and ocml.bc's size and time. */
static void hash_device_lib(hash128 *h)
{
    char dir[PATH_MAX], ocml[PATH_MAX + 16];
    struct stat sb;
    if (!umb_rdna3_find_device_lib(dir, sizeof dir)) return;
    umb_hash_str(h, dir);
    snprintf(ocml, sizeof ocml, "%s/ocml.bc", dir);
    if (stat(ocml, &sb) == 0) {
        uint64_t id[2] = { (uint64_t)sb.st_size, (uint64_t)sb.st_mtime };
        umb_hash_bytes(h, id, sizeof id);
    }
}

static bool cache_path(const hash128 *key, const char *ext, char *out, size_t len)
{
    char dir[PATH_MAX - 64];
    if (!umb_cache_default_dir(dir, sizeof dir)) return false;
    umb_cache_path(dir, key, ext, out, len);
    return true;
}

/* The arguments that make clang's predefined macros match the device (ocl_features.c). */
typedef struct compiler_extra {
    const char *args[OCL_COMPILER_ARGS_MAX];
    uint32_t n;
    char cl_ext[OCL_CL_EXT_MAX];
} compiler_extra;

static void extra_for(compiler_extra *x, const char *options)
{
    x->n = ocl_compiler_args(options, x->args, x->cl_ext);
}

static hash128 key_start(bool bitcode, const char *options)
{
    hash128 h = umb_hash_start();
    /* the number changes whenever umbra's compile steps change what they produce (2: printf
     * formats with %F/%A rewritten before LLVM 19's printf lowering) */
    umb_hash_str(&h, "umbra-opencl-cache-2 " UMBRA_VERSION_STRING);
    hash_compiler(&h);
    umb_hash_str(&h, bitcode ? "bitcode" : "code-object");
    hash_device_lib(&h);
    umb_hash_str(&h, options);
    compiler_extra x;
    extra_for(&x, options);
    for (uint32_t i = 0; i < x.n; i++) umb_hash_str(&h, x.args[i]);
    return h;
}

/* A cached result: the binary and the build log that came with it. */
static bool cache_get(const hash128 *key, ocl_compile_result *r)
{
    char path[PATH_MAX], logpath[PATH_MAX];
    if (!cache_path(key, ".bin", path, sizeof path) || !cache_path(key, ".log", logpath, sizeof logpath)) return false;
    uint8_t *log;
    size_t loglen;
    if (!umb_cache_read(logpath, &log, &loglen)) return false;
    if (!umb_cache_read(path, &r->binary, &r->size)) return free(log), false;
    r->log = (char *)log;
    return true;
}

static void cache_put(const hash128 *key, const ocl_compile_result *r)
{
    char path[PATH_MAX], logpath[PATH_MAX];
    if (!cache_path(key, ".bin", path, sizeof path) || !cache_path(key, ".log", logpath, sizeof logpath)) return;
    umb_cache_write(path, r->binary, r->size);   /* the binary first: the log marks a whole entry */
    umb_cache_write(logpath, r->log ? r->log : "", r->log ? strlen(r->log) : 0);
}

/* ---------------- compiling ---------------- */

void ocl_compile_result_free(ocl_compile_result *r)
{
    free(r->binary);
    free(r->log);
    memset(r, 0, sizeof *r);
}

static char *strdup_or_empty(const char *s)
{
    char *d = strdup(s ? s : "");
    return d;
}

/* A private temporary folder for clang's input and output files. */
static bool make_tmpdir(char *out, size_t len)
{
    const char *t = getenv("TMPDIR");
    snprintf(out, len, "%s/umbra-ocl-XXXXXX", t && *t ? t : "/tmp");
    return mkdtemp(out) != NULL;
}

static void remove_tmpdir(const char *dir, const char *const *files, size_t n)
{
    char p[PATH_MAX];
    for (size_t i = 0; i < n; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        unlink(p);
    }
    rmdir(dir);
}

/* Option errors (the library's message starts "build options:") are the caller's; anything else
 * is a failed compile whose diagnostics are in the log. */
static cl_int run_compiler(umb_rdna3_cc_options *o, const char *out_path, ocl_compile_result *r)
{
    char *log = NULL;
    char err[1024] = "";
    o->log = &log;
    umb_status st = umb_rdna3_compile(o, err, sizeof err);
    if (st != UMB_OK) {
        size_t n = (log ? strlen(log) : 0) + strlen(err) + 2;
        r->log = malloc(n);
        if (r->log) snprintf(r->log, n, "%s%s\n", log ? log : "", err);
        free(log);
        if (st == UMB_ERR_NOMEM) return CL_OUT_OF_HOST_MEMORY;
        return !strncmp(err, "build options:", 14) ? CL_INVALID_BUILD_OPTIONS : CL_BUILD_PROGRAM_FAILURE;
    }
    r->log = log ? log : strdup_or_empty("");
    if (!umb_cache_read(out_path, &r->binary, &r->size)) return CL_OUT_OF_RESOURCES;
    return CL_SUCCESS;
}

/* Put before every program's source (then "#line 1" gives its diagnostics their own line
 * numbers): built-in functions whose definition in AMD's device library does not compute what
 * the specification says, defined here as the specification says, as always-inlined C99 inline
 * definitions (no symbol of their own, so programs linked together do not collide, and valid in
 * every OpenCL C version: 1.0 and 1.1 have no `static`); the library's is then never linked in.
 * - abs_diff for int and long (and their vectors): the library subtracts in signed arithmetic,
 *   whose overflow C leaves undefined, and LLVM folds it at -O3 into a wrapping v_sub + v_max:
 *   abs_diff(INT_MIN, 1) gave INT_MAX instead of 2^31 + 1 (docs/BUILTINS.md). ROCm on the
 *   hardware gives the same wrong answer; umbra's OpenCL gives the specification's (§6.12.3).
 *   Every type gets its overload here: a program-declared abs_diff hides clang's built-in
 *   declarations of the name, so the other types must be defined too (|x - y| of the unsigned
 *   reinterpretations, which wraps exactly onto the result's range). */
static const char spec_fixes[] =
    "#define UMBRA_ABS_DIFF_(T, U) inline __attribute__((overloadable, always_inline)) U abs_diff(T x, T y) "
    "{ return x > y ? as_##U(x) - as_##U(y) : as_##U(y) - as_##U(x); }\n"
    "#define UMBRA_ABS_DIFF(T, U) UMBRA_ABS_DIFF_(T, U) UMBRA_ABS_DIFF_(T##2, U##2) UMBRA_ABS_DIFF_(T##4, U##4) "
    "UMBRA_ABS_DIFF_(T##8, U##8) UMBRA_ABS_DIFF_(T##16, U##16)\n"
    "UMBRA_ABS_DIFF(char, uchar) UMBRA_ABS_DIFF(uchar, uchar) UMBRA_ABS_DIFF(short, ushort)\n"
    "UMBRA_ABS_DIFF(ushort, ushort) UMBRA_ABS_DIFF(int, uint) UMBRA_ABS_DIFF(uint, uint)\n"
    "UMBRA_ABS_DIFF(long, ulong) UMBRA_ABS_DIFF(ulong, ulong)\n"
    "#if __OPENCL_C_VERSION__ >= 110\n"
    "UMBRA_ABS_DIFF_(char3, uchar3) UMBRA_ABS_DIFF_(uchar3, uchar3) UMBRA_ABS_DIFF_(short3, ushort3)\n"
    "UMBRA_ABS_DIFF_(ushort3, ushort3) UMBRA_ABS_DIFF_(int3, uint3) UMBRA_ABS_DIFF_(uint3, uint3)\n"
    "UMBRA_ABS_DIFF_(long3, ulong3) UMBRA_ABS_DIFF_(ulong3, ulong3)\n"
    "#endif\n"
    "#undef UMBRA_ABS_DIFF\n"
    "#undef UMBRA_ABS_DIFF_\n"
    "#line 1\n";

/* __OPENCL_VERSION__ as the platform reports it (clang defines it only for SPIR targets). */
#define OPENCL_VERSION_DEFINE "__OPENCL_VERSION__=" OCL_STRINGIFY(OCL_VERSION_MAJOR) OCL_STRINGIFY(OCL_VERSION_MINOR) "0"

/* The program's source as clang reads it: spec_fixes first. */
static bool write_source(const char *path, const char *source)
{
    size_t nf = strlen(spec_fixes), ns = strlen(source);
    char *text = malloc(nf + ns);
    if (!text) return false;
    memcpy(text, spec_fixes, nf);
    memcpy(text + nf, source, ns);
    bool ok = umb_cache_write(path, text, nf + ns);
    free(text);
    return ok;
}

/* Write the embedded headers under hdir (hdir/NAME, making NAME's folders). The files written are
 * listed in *written (relative to hdir, the folders last) for removal. False if a write fails. */
static bool write_headers(const char *hdir, const ocl_header *h, size_t n, char **written, size_t *nwritten)
{
    char path[PATH_MAX];
    for (size_t i = 0; i < n; i++) {
        int len = snprintf(path, sizeof path, "%s/%s", hdir, h[i].name);
        if (len < 0 || (size_t)len >= sizeof path) return false;
        /* mkdir -p of the folders inside hdir, each remembered for removal */
        for (char *s = path + strlen(hdir) + 1; (s = strchr(s, '/')); s++) {
            *s = 0;
            if (mkdir(path, 0700) == 0 && !(written[(*nwritten)++] = strdup(path))) return false;
            *s = '/';
        }
        if (!umb_cache_write(path, h[i].source, strlen(h[i].source))) return false;
        if (!(written[(*nwritten)++] = strdup(path))) return false;
    }
    return true;
}

/* Remove what write_headers wrote: files, then folders, deepest first (they were made in order). */
static void remove_headers(char **written, size_t n)
{
    for (size_t i = n; i-- > 0;) {
        if (unlink(written[i]) != 0) rmdir(written[i]);
        free(written[i]);
    }
}

cl_int ocl_compile_source(const char *source, const char *options, bool bitcode, const ocl_header *headers,
                          size_t nheaders, ocl_compile_result *r)
{
    memset(r, 0, sizeof *r);
    hash128 key = key_start(bitcode, options);
    umb_hash_str(&key, OPENCL_VERSION_DEFINE);
    umb_hash_str(&key, spec_fixes);
    umb_hash_str(&key, source);
    for (size_t i = 0; i < nheaders; i++) {
        umb_hash_str(&key, headers[i].name);
        umb_hash_str(&key, headers[i].source);
    }
    if (cache_get(&key, r)) return CL_SUCCESS;
    char dir[PATH_MAX - 32], in[PATH_MAX], out[PATH_MAX], hdir[PATH_MAX];
    if (!make_tmpdir(dir, sizeof dir)) return CL_OUT_OF_RESOURCES;
    snprintf(in, sizeof in, "%s/program.cl", dir);
    snprintf(out, sizeof out, "%s/program.out", dir);
    snprintf(hdir, sizeof hdir, "%s/headers", dir);
    /* each header: its file and at most one folder per '/' of its name */
    size_t cap = 0, nwritten = 0;
    for (size_t i = 0; i < nheaders; i++) {
        cap++;
        for (const char *c = headers[i].name; *c; c++) cap += *c == '/';
    }
    char **written = calloc(cap ? cap : 1, sizeof *written);
    cl_int st = written ? CL_OUT_OF_RESOURCES : CL_OUT_OF_HOST_MEMORY;
    bool have_hdir = nheaders && mkdir(hdir, 0700) == 0;
    if (written && (!nheaders || have_hdir) && write_source(in, source) &&
        write_headers(hdir, headers, nheaders, written, &nwritten)) {
        compiler_extra x;
        extra_for(&x, options);
        /* the device's arguments (ocl_features.c), then the headers' folder: searched after the
         * options' -I folders (clang arguments in that order) */
        const char *extra[OCL_COMPILER_ARGS_MAX + 2];
        uint32_t nextra = 0;
        for (uint32_t i = 0; i < x.n; i++) extra[nextra++] = x.args[i];
        if (nheaders) extra[nextra++] = "-I", extra[nextra++] = hdir;
        const char *defines[] = { OPENCL_VERSION_DEFINE };
        umb_rdna3_cc_options o = { .input = in, .output = out, .opt_level = 3, .build_options = options,
                                   .emit = bitcode ? UMB_RDNA3_EMIT_BITCODE : UMB_RDNA3_EMIT_CODE_OBJECT,
                                   .defines = defines, .ndefines = 1, .extra = extra, .nextra = nextra };
        st = run_compiler(&o, out, r);
    }
    if (written) remove_headers(written, nwritten);
    free(written);
    if (have_hdir) rmdir(hdir);
    const char *files[] = { "program.cl", "program.out" };
    remove_tmpdir(dir, files, 2);
    if (st == CL_SUCCESS) cache_put(&key, r);
    return st;
}

/* ---------------- library binaries ---------------- */

enum { WRAPPER_HEADER = 20, LIBRARY_TAG_BYTES = 24, LIBRARY_OFFSET = WRAPPER_HEADER + LIBRARY_TAG_BYTES };
static const char library_tag[] = "umbra-opencl-library";
static const uint32_t wrapper_magic = 0x0B17C0DEu;

static uint32_t get_le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

static void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> 8 * i);
}

bool ocl_binary_is_library(const uint8_t *b, size_t n)
{
    if (n < LIBRARY_OFFSET || get_le32(b) != wrapper_magic || get_le32(b + 4) != 0) return false;
    uint32_t offset = get_le32(b + 8), size = get_le32(b + 12);
    return offset == LIBRARY_OFFSET && size >= 4 && (uint64_t)offset + size <= n &&
           !memcmp(b + WRAPPER_HEADER, library_tag, sizeof library_tag) && !memcmp(b + offset, "BC\xc0\xde", 4);
}

uint8_t *ocl_library_wrap(const uint8_t *bc, size_t n, size_t *size)
{
    if (n > UINT32_MAX - LIBRARY_OFFSET) return NULL;
    uint8_t *w = calloc(1, LIBRARY_OFFSET + n);
    if (!w) return NULL;
    put_le32(w, wrapper_magic);
    put_le32(w + 8, LIBRARY_OFFSET);
    put_le32(w + 12, (uint32_t)n);
    memcpy(w + WRAPPER_HEADER, library_tag, sizeof library_tag);
    memcpy(w + LIBRARY_OFFSET, bc, n);
    *size = LIBRARY_OFFSET + n;
    return w;
}

/* The merged module read back from the linker becomes a library binary. */
static cl_int wrap_result(ocl_compile_result *r)
{
    size_t size;
    uint8_t *w = ocl_library_wrap(r->binary, r->size, &size);
    if (!w) return CL_OUT_OF_HOST_MEMORY;
    free(r->binary);
    r->binary = w, r->size = size;
    return CL_SUCCESS;
}

/* ---------------- linking ---------------- */

cl_int ocl_link_bitcode(const uint8_t *const *bc, const size_t *sizes, size_t n, const char *options, bool library,
                        ocl_compile_result *r)
{
    memset(r, 0, sizeof *r);
    hash128 key = key_start(library, options);
    umb_hash_str(&key, library ? "library" : "executable");
    for (size_t i = 0; i < n; i++) umb_hash_bytes(&key, bc[i], sizes[i]);
    if (cache_get(&key, r)) return CL_SUCCESS;
    char dir[PATH_MAX - 32], out[PATH_MAX];
    if (!make_tmpdir(dir, sizeof dir)) return CL_OUT_OF_RESOURCES;
    char **paths = calloc(n ? n : 1, sizeof *paths);
    const char **names = calloc(n + 1, sizeof *names);
    cl_int st = paths && names ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; i < n && st == CL_SUCCESS; i++) {
        paths[i] = malloc(PATH_MAX);
        if (!paths[i]) { st = CL_OUT_OF_HOST_MEMORY; break; }
        snprintf(paths[i], PATH_MAX, "%s/in%zu.bc", dir, i);
        names[i] = strrchr(paths[i], '/') + 1;
        if (!umb_cache_write(paths[i], bc[i], sizes[i])) st = CL_OUT_OF_RESOURCES;
    }
    snprintf(out, sizeof out, "%s/program.out", dir);
    if (st == CL_SUCCESS) {
        umb_rdna3_cc_options o = { .inputs = (const char *const *)paths, .ninputs = (uint32_t)n, .output = out,
                                   .opt_level = 3, .build_options = options,
                                   .emit = library ? UMB_RDNA3_EMIT_BITCODE : UMB_RDNA3_EMIT_CODE_OBJECT };
        st = run_compiler(&o, out, r);
        if (st == CL_BUILD_PROGRAM_FAILURE) st = CL_LINK_PROGRAM_FAILURE;
        if (st == CL_INVALID_BUILD_OPTIONS) st = CL_INVALID_LINKER_OPTIONS;
        if (st == CL_SUCCESS && library) st = wrap_result(r);
    }
    if (names) {
        names[n] = "program.out";
        remove_tmpdir(dir, names, n + 1);
    } else {
        rmdir(dir);
    }
    for (size_t i = 0; paths && i < n; i++) free(paths[i]);
    free(paths);
    free(names);
    if (st == CL_SUCCESS) cache_put(&key, r);
    return st;
}
