/* Programs: from source (clang through umb_rdna3_compile) or binary (code object or bitcode),
 * build, compile, link, and their queries. */
#include <stdlib.h>
#include <string.h>

#include "ocl_compile.h"

static bool is_elf(const uint8_t *b, size_t n) { return n >= 4 && !memcmp(b, "\x7f" "ELF", 4); }
static bool is_bitcode(const uint8_t *b, size_t n) { return n >= 4 && !memcmp(b, "BC\xc0\xde", 4); }

static cl_program new_program(cl_context ctx)
{
    cl_program p = ocl_obj_alloc(sizeof *p);
    if (!p) return NULL;
    p->ctx = ctx;
    p->status = CL_BUILD_NONE;
    p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
    ocl_retain(ctx);
    ocl_register(p, OCL_PROGRAM);
    return p;
}

static void unload(cl_program p)
{
    if (!p->prog) return;
    cl_device_id d = ocl_device();
    plat_lock(&d->p);
    umb_rdna3_program_destroy(p->prog);
    plat_unlock(&d->p);
    p->prog = NULL;
}

void ocl_program_destroy(cl_program p)
{
    unload(p);
    free(p->source), free(p->binary), free(p->options), free(p->log);
    cl_context ctx = p->ctx;
    ocl_obj_free(p);
    if (ocl_release_last(ctx)) ocl_free_object(ctx);
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context ctx, cl_uint count, const char **strings,
                                                              const size_t *lengths, cl_int *errcode_ret)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    if (count == 0 || !strings) OCL_ERR(CL_INVALID_VALUE);
    size_t total = 1;
    for (cl_uint i = 0; i < count; i++) {
        if (!strings[i]) OCL_ERR(CL_INVALID_VALUE);
        total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    }
    char *src = malloc(total), *w = src;
    if (!src) OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    for (cl_uint i = 0; i < count; i++) {
        size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
        memcpy(w, strings[i], n), w += n;
    }
    *w = 0;
    cl_program p = new_program(ctx);
    if (!p) return free(src), NULL;
    p->source = src;
    OCL_OK(p);
}

/* A code object must load (and be for gfx1100); bitcode is taken as a compiled object, wrapped
 * bitcode with umbra's library tag as a library (ocl_compile.h). */
static cl_int classify_binary(const uint8_t *b, size_t n, cl_program_binary_type *type)
{
    if (ocl_binary_is_library(b, n)) {
        *type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
        return CL_SUCCESS;
    }
    if (is_bitcode(b, n)) {
        *type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
        return CL_SUCCESS;
    }
    if (!is_elf(b, n)) return CL_INVALID_BINARY;
    umb_rdna3_program *prog;
    if (umb_rdna3_program_load_memory(NULL, "binary", b, n, &prog, NULL, 0)) return CL_INVALID_BINARY;
    const char *target = umb_rdna3_program_target(prog);
    bool ours = target && strstr(target, "gfx1100");
    umb_rdna3_program_destroy(prog);
    *type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    return ours ? CL_SUCCESS : CL_INVALID_BINARY;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(cl_context ctx, cl_uint ndev, const cl_device_id *devs,
                                                              const size_t *lengths, const unsigned char **binaries,
                                                              cl_int *binary_status, cl_int *errcode_ret)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    if (ndev == 0 || !devs) OCL_ERR(CL_INVALID_VALUE);
    for (cl_uint i = 0; i < ndev; i++)
        if (devs[i] != ocl_device()) OCL_ERR(CL_INVALID_DEVICE);
    if (ndev != 1) OCL_ERR(CL_INVALID_DEVICE);   /* the one device, listed once */
    if (!lengths || !binaries || !lengths[0] || !binaries[0]) {
        if (binary_status) binary_status[0] = CL_INVALID_VALUE;
        OCL_ERR(CL_INVALID_VALUE);
    }
    cl_program_binary_type type;
    cl_int st = classify_binary(binaries[0], lengths[0], &type);
    if (binary_status) binary_status[0] = st;
    if (st) OCL_ERR(st);
    cl_program p = new_program(ctx);
    uint8_t *copy = malloc(lengths[0]);
    if (!p || !copy) {
        free(copy);
        if (p && ocl_release_last(p)) ocl_free_object(p);
        OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    }
    memcpy(copy, binaries[0], lengths[0]);
    p->binary = copy, p->binary_size = lengths[0], p->binary_type = type;
    OCL_OK(p);
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context ctx, cl_uint ndev,
                                                                      const cl_device_id *devs, const char *names,
                                                                      cl_int *errcode_ret)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    if (ndev == 0 || !devs || !names) OCL_ERR(CL_INVALID_VALUE);
    for (cl_uint i = 0; i < ndev; i++)
        if (devs[i] != ocl_device()) OCL_ERR(CL_INVALID_DEVICE);
    OCL_ERR(CL_INVALID_VALUE);   /* CL_DEVICE_BUILT_IN_KERNELS is empty */
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context ctx, const void *il, size_t length,
                                                          cl_int *errcode_ret)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    if (!il || !length) OCL_ERR(CL_INVALID_VALUE);
    OCL_ERR(CL_INVALID_OPERATION);   /* no device in the context takes an IL */
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program p)
{
    if (!ocl_valid(p, OCL_PROGRAM)) return CL_INVALID_PROGRAM;
    ocl_retain(p);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program p)
{
    if (!ocl_valid(p, OCL_PROGRAM)) return CL_INVALID_PROGRAM;
    if (ocl_release_last(p)) ocl_free_object(p);
    return CL_SUCCESS;
}

/* ---------------- building ---------------- */

/* Link options the platform itself answers, taken out before the compiler sees the string. */
static char *compiler_options(const char *options, bool *create_library)
{
    char *out = strdup(options ? options : "");
    if (!out) return NULL;
    static const char *const ours[] = { "-create-library", "-enable-link-options" };
    for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++) {
        size_t n = strlen(ours[i]);
        for (char *s = out; (s = strstr(s, ours[i]));) {
            bool word = (s == out || s[-1] == ' ' || s[-1] == '\t') && (!s[n] || s[n] == ' ' || s[n] == '\t');
            if (!word) { s += n; continue; }
            if (i == 0 && create_library) *create_library = true;
            memset(s, ' ', n);
        }
    }
    return out;
}

static cl_int check_devices(cl_uint ndev, const cl_device_id *devs)
{
    if ((ndev == 0) != (devs == NULL)) return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < ndev; i++)
        if (devs[i] != ocl_device()) return CL_INVALID_DEVICE;
    return CL_SUCCESS;
}

/* Claim the program for a build: no kernels attached, no build running. */
static cl_int begin_build(cl_program p, const char *options)
{
    pthread_mutex_lock(&ocl_lock);
    cl_int st = atomic_load(&p->kernels) ? CL_INVALID_OPERATION
                : p->status == CL_BUILD_IN_PROGRESS ? CL_INVALID_OPERATION : CL_SUCCESS;
    if (!st) p->status = CL_BUILD_IN_PROGRESS;
    pthread_mutex_unlock(&ocl_lock);
    if (st) return st;
    free(p->options);
    p->options = strdup(options ? options : "");
    free(p->log);
    p->log = NULL;
    return CL_SUCCESS;
}

static void end_build(cl_program p, cl_int st)
{
    pthread_mutex_lock(&ocl_lock);
    p->status = st == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    pthread_mutex_unlock(&ocl_lock);
}

static void append_log(cl_program p, const char *text)
{
    size_t old = p->log ? strlen(p->log) : 0, n = strlen(text);
    char *l = realloc(p->log, old + n + 2);
    if (!l) return;
    memcpy(l + old, text, n);
    l[old + n] = '\n', l[old + n + 1] = 0;
    p->log = l;
}

/* Load the code object held in p->binary into device memory. */
static cl_int load_executable(cl_program p)
{
    unload(p);
    char err[1024] = "";
    cl_device_id d = ocl_device();
    plat_lock(&d->p);
    umb_status st = umb_rdna3_program_load_memory(d->p.dev, "program", p->binary, p->binary_size, &p->prog, err,
                                                   sizeof err);
    plat_unlock(&d->p);
    if (st) {
        append_log(p, err);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    p->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    return CL_SUCCESS;
}

static void take_result(cl_program p, ocl_compile_result *r, cl_program_binary_type type)
{
    if (r->log && *r->log) append_log(p, r->log);
    if (r->binary) {
        free(p->binary);
        p->binary = r->binary, p->binary_size = r->size, p->binary_type = type;
        r->binary = NULL;
    }
    ocl_compile_result_free(r);
}

/* OpenCL C 2.0 and later allow a partial last work-group unless told otherwise (§5.8.4.3). */
static bool allows_nonuniform(const char *options)
{
    return (ocl_options_has(options, "-cl-std=CL2.0") || ocl_options_has(options, "-cl-std=CL3.0")) &&
           !ocl_options_has(options, "-cl-uniform-work-group-size");
}

static cl_int build(cl_program p, const char *options)
{
    bool lib = false;
    char *opts = compiler_options(options, &lib);
    if (!opts) return CL_OUT_OF_HOST_MEMORY;
    cl_int st;
    ocl_compile_result r;
    if (p->source) {
        st = ocl_compile_source(p->source, opts, false, NULL, 0, &r);
        take_result(p, &r, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
        p->nonuniform = allows_nonuniform(options);
    } else if (p->binary_type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
               p->binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY) {
        const uint8_t *bc = p->binary;
        st = ocl_link_bitcode(&bc, &p->binary_size, 1, opts, false, &r);
        if (st == CL_LINK_PROGRAM_FAILURE) st = CL_BUILD_PROGRAM_FAILURE;
        if (st == CL_INVALID_LINKER_OPTIONS) st = CL_INVALID_BUILD_OPTIONS;
        take_result(p, &r, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    } else {
        st = p->binary ? CL_SUCCESS : CL_INVALID_BINARY;
    }
    free(opts);
    if (st == CL_SUCCESS) st = load_executable(p);
    return st;
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program p, cl_uint ndev, const cl_device_id *devs,
                                               const char *options, void (CL_CALLBACK *notify)(cl_program, void *),
                                               void *data)
{
    if (!ocl_valid(p, OCL_PROGRAM)) return CL_INVALID_PROGRAM;
    cl_int st = check_devices(ndev, devs);
    if (st) return st;
    if (!notify && data) return CL_INVALID_VALUE;
    if ((st = begin_build(p, options))) return st;
    st = build(p, options);
    end_build(p, st);
    if (notify) notify(p, data);
    return st;
}

/* clCompileProgram's embedded headers (OpenCL 1.2 §5.6.3): programs created from source, each
 * found by #include under its name. A name is a relative path inside the headers' folder: no
 * leading '/', no empty, "." or ".." component. */
static bool header_name_ok(const char *name)
{
    if (!name || !*name || name[0] == '/') return false;
    for (const char *c = name; *c;) {
        size_t n = strcspn(c, "/");
        if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.')) return false;
        c += n;
        if (*c == '/') c++;
        if (!*c && c[-1] == '/') return false;   /* ends with '/' */
    }
    return true;
}

static cl_int collect_headers(cl_uint n, const cl_program *headers, const char **names, ocl_header **out)
{
    for (cl_uint i = 0; i < n; i++) {
        if (!ocl_valid(headers[i], OCL_PROGRAM)) return CL_INVALID_PROGRAM;
        if (!headers[i]->source) {
            fprintf(stderr, "umbra: clCompileProgram: input header %u (\"%s\") was not created from source\n", i,
                    names[i] ? names[i] : "(null)");
            return CL_INVALID_OPERATION;
        }
        if (!header_name_ok(names[i])) {
            fprintf(stderr, "umbra: clCompileProgram: header include name %u \"%s\" is not a relative path "
                    "inside the program (no leading '/', no \".\" or \"..\" part)\n", i, names[i] ? names[i] : "(null)");
            return CL_INVALID_VALUE;
        }
    }
    ocl_header *hs = calloc(n, sizeof *hs);
    if (!hs) return CL_OUT_OF_HOST_MEMORY;
    for (cl_uint i = 0; i < n; i++) hs[i] = (ocl_header){ .name = names[i], .source = headers[i]->source };
    *out = hs;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program p, cl_uint ndev, const cl_device_id *devs,
                                                 const char *options, cl_uint nheaders, const cl_program *headers,
                                                 const char **header_names,
                                                 void (CL_CALLBACK *notify)(cl_program, void *), void *data)
{
    if (!ocl_valid(p, OCL_PROGRAM)) return CL_INVALID_PROGRAM;
    cl_int st = check_devices(ndev, devs);
    if (st) return st;
    if (!notify && data) return CL_INVALID_VALUE;
    if ((nheaders == 0) != (headers == NULL) || (nheaders == 0) != (header_names == NULL)) return CL_INVALID_VALUE;
    if (!p->source) return CL_INVALID_OPERATION;
    ocl_header *hs = NULL;
    if (nheaders && (st = collect_headers(nheaders, headers, header_names, &hs))) return st;
    if ((st = begin_build(p, options))) return free(hs), st;
    char *opts = compiler_options(options, NULL);
    ocl_compile_result r;
    st = opts ? ocl_compile_source(p->source, opts, true, hs, nheaders, &r) : CL_OUT_OF_HOST_MEMORY;
    free(opts);
    free(hs);
    if (st == CL_BUILD_PROGRAM_FAILURE) st = CL_COMPILE_PROGRAM_FAILURE;
    if (st != CL_OUT_OF_HOST_MEMORY) take_result(p, &r, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    p->nonuniform = allows_nonuniform(options);
    unload(p);
    end_build(p, st);
    if (notify) notify(p, data);
    return st;
}

/* clLinkProgram's options (OpenCL 3.0 §5.8.7): the library linking options -create-library and
 * -enable-link-options (only with -create-library), and the program linking options, which allow
 * optimizations and require none: the units keep the code their compile generated (the device
 * library's included), so a link applies none of them. -cl-uniform-work-group-size is umbra's
 * own: the executable then requires uniform work-groups even where its units allow others.
 * Anything else is CL_INVALID_LINKER_OPTIONS, with the option named on stderr. */
static cl_int check_link_options(const char *options, bool *library)
{
    static const char *const accepted[] = {
        "-create-library", "-enable-link-options", "-cl-denorms-are-zero", "-cl-no-signed-zeros",
        "-cl-unsafe-math-optimizations", "-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-no-subgroup-ifp",
        "-cl-uniform-work-group-size",
    };
    bool create = false, enable = false;
    for (const char *s = options ? options : ""; *s;) {
        s += strspn(s, " \t\n\r");
        size_t n = strcspn(s, " \t\n\r");
        if (!n) break;
        size_t i = 0;
        while (i < sizeof accepted / sizeof accepted[0] && !(strlen(accepted[i]) == n && !memcmp(s, accepted[i], n))) i++;
        if (i == sizeof accepted / sizeof accepted[0]) {
            fprintf(stderr, "umbra: clLinkProgram: '%.*s' is not a linker option (-create-library, "
                    "-enable-link-options, and the program linking options of OpenCL 3.0 §5.8.7.2)\n", (int)n, s);
            return CL_INVALID_LINKER_OPTIONS;
        }
        create |= i == 0, enable |= i == 1;
        s += n;
    }
    if (enable && !create) {
        fprintf(stderr, "umbra: clLinkProgram: -enable-link-options is an option of -create-library\n");
        return CL_INVALID_LINKER_OPTIONS;
    }
    *library = create;
    return CL_SUCCESS;
}

/* An input of clLinkProgram: a compiled object or a library whose compile or link completed. */
static cl_int check_link_input(cl_program in)
{
    if (!ocl_valid(in, OCL_PROGRAM)) return CL_INVALID_PROGRAM;
    pthread_mutex_lock(&ocl_lock);
    cl_build_status status = in->status;
    pthread_mutex_unlock(&ocl_lock);
    if (status == CL_BUILD_IN_PROGRESS || status == CL_BUILD_ERROR) return CL_INVALID_OPERATION;
    if (in->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && in->binary_type != CL_PROGRAM_BINARY_TYPE_LIBRARY)
        return CL_INVALID_OPERATION;
    return CL_SUCCESS;
}

/* Link the inputs into p: a library (bitcode, for a later link) or a loaded executable. */
static cl_int link_into(cl_program p, const uint8_t *const *bc, const size_t *sizes, cl_uint n, const char *opts,
                        bool library)
{
    ocl_compile_result r;
    cl_int st = ocl_link_bitcode(bc, sizes, n, opts, library, &r);
    take_result(p, &r, library ? CL_PROGRAM_BINARY_TYPE_LIBRARY : CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    if (st == CL_SUCCESS && !library && load_executable(p) != CL_SUCCESS) st = CL_LINK_PROGRAM_FAILURE;
    return st;
}

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context ctx, cl_uint ndev, const cl_device_id *devs,
                                                  const char *options, cl_uint nprog, const cl_program *progs,
                                                  void (CL_CALLBACK *notify)(cl_program, void *), void *data,
                                                  cl_int *errcode_ret)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    cl_int st = check_devices(ndev, devs);
    if (st) OCL_ERR(st);
    if (!notify && data) OCL_ERR(CL_INVALID_VALUE);
    if (nprog == 0 || !progs) OCL_ERR(CL_INVALID_VALUE);
    for (cl_uint i = 0; i < nprog; i++)
        if ((st = check_link_input(progs[i]))) OCL_ERR(st);
    bool lib = false;
    if ((st = check_link_options(options, &lib))) OCL_ERR(st);
    const uint8_t **bc = calloc(nprog, sizeof *bc);
    size_t *sizes = calloc(nprog, sizeof *sizes);
    char *opts = compiler_options(options, NULL);
    cl_program p = bc && sizes && opts ? new_program(ctx) : NULL;
    if (!p) {
        free(bc), free(sizes), free(opts);
        OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    }
    bool nonuniform = true;   /* when every unit allows it */
    for (cl_uint i = 0; i < nprog; i++)
        bc[i] = progs[i]->binary, sizes[i] = progs[i]->binary_size, nonuniform &= progs[i]->nonuniform;
    p->options = strdup(options ? options : "");
    p->nonuniform = nonuniform && !ocl_options_has(options, "-cl-uniform-work-group-size");
    st = link_into(p, bc, sizes, nprog, opts, lib);
    free(bc), free(sizes), free(opts);
    end_build(p, st);
    if (errcode_ret) *errcode_ret = st;
    /* A failed link still returns the program, so that its log can be read; a link that could
     * not run (out of memory or resources) returns none, and calls no callback. */
    if (st != CL_SUCCESS && st != CL_LINK_PROGRAM_FAILURE) {
        if (ocl_release_last(p)) ocl_free_object(p);
        return NULL;
    }
    if (notify) notify(p, data);
    return p;
}

/* ---------------- queries ---------------- */

static cl_int kernel_names(cl_program p, size_t size, void *value, size_t *ret)
{
    size_t n = 1;
    uint32_t count = umb_rdna3_program_kernel_count(p->prog);
    for (uint32_t i = 0; i < count; i++) n += strlen(umb_rdna3_program_kernel(p->prog, i)->name) + 1;
    char *s = calloc(1, n);
    if (!s) return CL_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < count; i++) {
        if (i) strcat(s, ";");
        strcat(s, umb_rdna3_program_kernel(p->prog, i)->name);
    }
    cl_int st = ocl_info(size, value, ret, s, strlen(s) + 1);
    free(s);
    return st;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program p, cl_program_info param, size_t size, void *value,
                                                 size_t *ret)
{
    if (!ocl_valid(p, OCL_PROGRAM)) return CL_INVALID_PROGRAM;
    switch (param) {
    case CL_PROGRAM_REFERENCE_COUNT: OCL_INFO(cl_uint, atomic_load(&p->h.refs));
    case CL_PROGRAM_CONTEXT: OCL_INFO(cl_context, p->ctx);
    case CL_PROGRAM_NUM_DEVICES: OCL_INFO(cl_uint, 1);
    case CL_PROGRAM_DEVICES: OCL_INFO(cl_device_id, ocl_device());
    case CL_PROGRAM_SOURCE: OCL_INFO_STR(p->source ? p->source : "");
    case CL_PROGRAM_BINARY_SIZES: OCL_INFO(size_t, p->binary_size);
    case CL_PROGRAM_BINARIES: {
        if (value && size < sizeof(unsigned char *)) return CL_INVALID_VALUE;
        if (ret) *ret = sizeof(unsigned char *);
        unsigned char **dst = value;
        if (dst && dst[0] && p->binary) memcpy(dst[0], p->binary, p->binary_size);
        return CL_SUCCESS;
    }
    case CL_PROGRAM_NUM_KERNELS:
        if (!p->prog) return CL_INVALID_PROGRAM_EXECUTABLE;
        OCL_INFO(size_t, umb_rdna3_program_kernel_count(p->prog));
    case CL_PROGRAM_KERNEL_NAMES:
        if (!p->prog) return CL_INVALID_PROGRAM_EXECUTABLE;
        return kernel_names(p, size, value, ret);
    case CL_PROGRAM_IL: return ocl_info(size, value, ret, NULL, 0);   /* never made from an IL */
    /* OpenCL C has no constructors or destructors of program-scope variables */
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT: case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
        if (!p->prog) return CL_INVALID_PROGRAM_EXECUTABLE;
        OCL_INFO(cl_bool, CL_FALSE);
    default: return CL_INVALID_VALUE;
    }
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program p, cl_device_id d, cl_program_build_info param,
                                                      size_t size, void *value, size_t *ret)
{
    if (!ocl_valid(p, OCL_PROGRAM)) return CL_INVALID_PROGRAM;
    if (d != ocl_device()) return CL_INVALID_DEVICE;
    switch (param) {
    case CL_PROGRAM_BUILD_STATUS: OCL_INFO(cl_build_status, p->status);
    case CL_PROGRAM_BUILD_OPTIONS: OCL_INFO_STR(p->options ? p->options : "");
    case CL_PROGRAM_BUILD_LOG: OCL_INFO_STR(p->log ? p->log : "");
    case CL_PROGRAM_BINARY_TYPE: OCL_INFO(cl_program_binary_type, p->binary_type);
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
        OCL_INFO(size_t, p->prog ? (size_t)umb_rdna3_program_globals_size(p->prog) : 0);
    default: return CL_INVALID_VALUE;
    }
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program p, void (CL_CALLBACK *fn)(cl_program, void *),
                                                            void *data)
{
    if (!ocl_valid(p, OCL_PROGRAM)) return CL_INVALID_PROGRAM;
    if (!fn) return CL_INVALID_VALUE;
    /* OpenCL 3.0: CL_INVALID_OPERATION when no device supports destructors of program-scope
     * variables (CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT): OpenCL C has none */
    return CL_INVALID_OPERATION;
}
