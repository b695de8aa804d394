/* clLinkProgram with libraries (OpenCL 3.0 §5.8.3, §5.8.7): several compiled objects linked into a
 * library (-create-library), two libraries and an object linked into an executable that runs, a
 * library's binary read back with clCreateProgramWithBinary and linked into a library of its own
 * (a library holding a library), kernels defined inside libraries, the callback form, and the
 * errors: a function defined twice and a function defined nowhere (CL_LINK_PROGRAM_FAILURE with the
 * linker's message naming it in the build log), options that are not linker options
 * (CL_INVALID_LINKER_OPTIONS), an executable given as a link input and a library given to
 * clCompileProgram (CL_INVALID_OPERATION), a cut library binary (CL_INVALID_BINARY).
 * Every result is checked against the same functions computed in C.
 *
 * PoCL 3.1 (the oracle) differs from the specification in three places, which the test states
 * where it meets them: clCreateKernel of a library is CL_INVALID_KERNEL_NAME (not
 * CL_INVALID_PROGRAM_EXECUTABLE), a failed link returns no program (the specification returns one
 * whose build log holds the linker's message), and a cut binary stops PoCL on an assertion; it
 * also rejects the program linking options (-cl-denorms-are-zero...) when linking an executable
 * (CL_INVALID_LINKER_OPTIONS; it takes them for a library made with -enable-link-options). */
#define CL_TARGET_OPENCL_VERSION 120
#include <stdbool.h>
#include <string.h>

#include "check.h"

/* The units, and the same functions in C. */
static const char *src_add3 = "int add3(int x) { return x + 3; }\n";
static const char *src_mul5 =
    "int mul5(int x) { return x * 5; }\n"
    "__kernel void scale5(__global int *o) { size_t i = get_global_id(0); o[i] = mul5(o[i]); }\n";
static const char *src_square = "int square(int x) { return x * x; }\n";
static const char *src_mix = "int mix(int x) { return (x ^ 0x55) - (x >> 2); }\n";
static const char *src_main =
    "int add3(int x); int mul5(int x); int square(int x); int mix(int x);\n"
    "__kernel void combine(__global int *o) {\n"
    "    int i = (int)get_global_id(0);\n"
    "    o[i] = add3(i) + mul5(i) - square(i) + mix(i);\n"
    "}\n";
static const char *src_add3_again = "int add3(int x) { return x + 4; }\n";

static int add3(int x) { return x + 3; }
static int mul5(int x) { return x * 5; }
static int square(int x) { return x * x; }
static int mix(int x) { return (x ^ 0x55) - (x >> 2); }
static int combine(int i) { return add3(i) + mul5(i) - square(i) + mix(i); }

enum { N = 200 };

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;
static bool pocl;   /* the platform is PoCL: its differences (top of the file) are expected */

static cl_program compiled(const char *src)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK_CL(err);
    err = clCompileProgram(p, 1, &dev, "", 0, NULL, NULL, NULL, NULL);
    if (err != CL_SUCCESS) FAIL("clCompileProgram returned %d for:\n%s", err, src);
    return p;
}

static void build_log(cl_program p, char *log, size_t len)
{
    log[0] = 0;
    CHECK_CL(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL));
}

static cl_program link_ok(const char *options, cl_uint n, const cl_program *in, const char *what)
{
    cl_int err;
    cl_program p = clLinkProgram(ctx, 1, &dev, options, n, in, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        char log[8192] = "";
        if (p) build_log(p, log, sizeof log);
        FAIL("linking %s returned %d; log:\n%s", what, err, log);
    }
    return p;
}

static cl_program_binary_type binary_type(cl_program p)
{
    cl_program_binary_type t;
    CHECK_CL(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, NULL));
    return t;
}

/* The program's one binary (malloc'd). */
static unsigned char *binary_of(cl_program p, size_t *size)
{
    CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL));
    if (*size == 0) FAIL("a library's CL_PROGRAM_BINARY_SIZES is 0");
    unsigned char *bin = malloc(*size);
    if (!bin) FAIL("out of memory");
    CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
    return bin;
}

/* Run `combine` and `scale5` of an executable and check both against C. */
static void run_and_check(cl_program exe, const char *what)
{
    cl_int err;
    cl_kernel k = clCreateKernel(exe, "combine", &err);
    CHECK_CL(err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(cl_int), NULL, &err);
    CHECK_CL(err);
    CHECK_CL(clSetKernelArg(k, 0, sizeof buf, &buf));
    size_t global = N;
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    cl_int out[N];
    CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        if (out[i] != combine(i)) FAIL("%s: combine: out[%d] = %d, want %d", what, i, out[i], combine(i));
    /* scale5 is defined in a unit of a library: it multiplies what combine wrote */
    cl_kernel k5 = clCreateKernel(exe, "scale5", &err);
    CHECK_CL(err);
    CHECK_CL(clSetKernelArg(k5, 0, sizeof buf, &buf));
    CHECK_CL(clEnqueueNDRangeKernel(q, k5, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        if (out[i] != mul5(combine(i))) FAIL("%s: scale5: out[%d] = %d, want %d", what, i, out[i], mul5(combine(i)));
    clReleaseMemObject(buf);
    clReleaseKernel(k5);
    clReleaseKernel(k);
}

/* A link that must fail with CL_LINK_PROGRAM_FAILURE, its log naming `symbol`. */
static void link_fails(const char *options, cl_uint n, const cl_program *in, const char *symbol, const char *what)
{
    cl_int err;
    cl_program p = clLinkProgram(ctx, 1, &dev, options, n, in, NULL, NULL, &err);
    if (err != CL_LINK_PROGRAM_FAILURE) FAIL("%s: clLinkProgram returned %d, want CL_LINK_PROGRAM_FAILURE (%d)", what,
                                             err, CL_LINK_PROGRAM_FAILURE);
    if (!p && pocl) return;
    if (!p) FAIL("%s: a failed link returned no program (its log cannot be read)", what);
    char log[8192];
    build_log(p, log, sizeof log);
    if (!strstr(log, symbol)) FAIL("%s: the build log does not name %s:\n%s", what, symbol, log);
    cl_build_status status;
    CHECK_CL(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
    if (status != CL_BUILD_ERROR) FAIL("%s: build status %d, want CL_BUILD_ERROR", what, status);
    clReleaseProgram(p);
}

static void link_error(const char *options, cl_uint n, const cl_program *in, cl_int want, const char *what)
{
    cl_int err;
    cl_program p = clLinkProgram(ctx, 1, &dev, options, n, in, NULL, NULL, &err);
    if (err != want) FAIL("%s: clLinkProgram returned %d, want %d", what, err, want);
    if (p) FAIL("%s: clLinkProgram returned a program with error %d", what, err);
}

static void CL_CALLBACK linked_callback(cl_program p, void *data)
{
    cl_build_status status = CL_BUILD_NONE;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
    *(cl_build_status *)data = status;
}

int main(void)
{
    dev = first_device(&ctx, &q, 0);
    cl_platform_id plat;
    char name[256] = "";
    CHECK_CL(clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL));
    CHECK_CL(clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof name, name, NULL));
    pocl = strstr(name, "Portable Computing Language") != NULL;
    cl_program add3_o = compiled(src_add3), mul5_o = compiled(src_mul5), square_o = compiled(src_square);
    cl_program mix_o = compiled(src_mix), main_o = compiled(src_main), add3_again_o = compiled(src_add3_again);

    /* two objects into each library; two libraries and an object into an executable */
    cl_program in1[2] = { add3_o, mul5_o }, in2[2] = { square_o, mix_o };
    cl_program lib1 = link_ok("-create-library", 2, in1, "add3 and mul5 into a library");
    cl_program lib2 = link_ok("-create-library -enable-link-options", 2, in2, "square and mix into a library");
    if (binary_type(lib1) != CL_PROGRAM_BINARY_TYPE_LIBRARY || binary_type(lib2) != CL_PROGRAM_BINARY_TYPE_LIBRARY)
        FAIL("a library's CL_PROGRAM_BINARY_TYPE is %lu and %lu, want CL_PROGRAM_BINARY_TYPE_LIBRARY",
             (unsigned long)binary_type(lib1), (unsigned long)binary_type(lib2));
    cl_int err;
    cl_int no_executable = pocl ? CL_INVALID_KERNEL_NAME : CL_INVALID_PROGRAM_EXECUTABLE;
    if (clCreateKernel(lib1, "scale5", &err) || err != no_executable)
        FAIL("clCreateKernel of a library returned %d, want %d", err, no_executable);
    cl_program exe_in[3] = { lib1, lib2, main_o };
    cl_program exe = link_ok(NULL, 3, exe_in, "two libraries and an object");
    if (binary_type(exe) != CL_PROGRAM_BINARY_TYPE_EXECUTABLE) FAIL("the executable's binary type is not EXECUTABLE");
    run_and_check(exe, "two libraries and an object");

    /* the library's binary read back, a library of it and an object, an executable of that */
    size_t size;
    unsigned char *bin = binary_of(lib1, &size);
    const unsigned char *cbin = bin;
    cl_int status;
    cl_program lib1_again = clCreateProgramWithBinary(ctx, 1, &dev, &size, &cbin, &status, &err);
    CHECK_CL(err);
    CHECK_CL(status);
    if (binary_type(lib1_again) != CL_PROGRAM_BINARY_TYPE_LIBRARY) FAIL("a library's binary read back is no library");
    cl_program nest_in[2] = { lib1_again, square_o };
    cl_program nested = link_ok("-create-library", 2, nest_in, "a library and an object into a library");
    cl_program exe2_in[3] = { mix_o, nested, main_o };
    cl_build_status cb_status = CL_BUILD_NONE;
    cl_program exe2 = clLinkProgram(ctx, 1, &dev, "", 3, exe2_in, linked_callback, &cb_status, &err);
    CHECK_CL(err);
    clFinish(q);
    if (cb_status != CL_BUILD_SUCCESS) FAIL("the link callback saw build status %d, want CL_BUILD_SUCCESS", cb_status);
    run_and_check(exe2, "a library holding a read-back library");

    /* a library may leave functions undefined; an executable may not */
    cl_program lib_main = link_ok("-create-library", 1, &main_o, "an object with undefined functions into a library");
    cl_program missing_in[2] = { lib1, lib_main };
    link_fails(NULL, 2, missing_in, "square", "an executable calling square, defined nowhere");
    /* a function defined twice: in two objects of a library, in a library and an object */
    cl_program dup_in[2] = { add3_o, add3_again_o };
    link_fails("-create-library", 2, dup_in, "add3", "a library of two objects defining add3");
    cl_program dup_exe_in[4] = { lib1, lib2, add3_again_o, main_o };
    link_fails(NULL, 4, dup_exe_in, "add3", "an executable whose library and object both define add3");

    /* options, inputs and binaries that are not right */
    link_error("-enable-link-options", 2, in1, CL_INVALID_LINKER_OPTIONS, "-enable-link-options without -create-library");
    link_error("-create-library -not-a-linker-option", 2, in1, CL_INVALID_LINKER_OPTIONS, "an unknown option");
    cl_program exe_and_object[2] = { exe, add3_o };
    link_error(NULL, 2, exe_and_object, CL_INVALID_OPERATION, "an executable as a link input");
    link_error("-create-library", 2, exe_and_object, CL_INVALID_OPERATION, "an executable as a library input");
    err = clCompileProgram(lib1, 1, &dev, "", 0, NULL, NULL, NULL, NULL);
    if (err != CL_INVALID_OPERATION) FAIL("clCompileProgram of a library returned %d, want CL_INVALID_OPERATION", err);
    size_t cut = 12;
    if (!pocl && (clCreateProgramWithBinary(ctx, 1, &dev, &cut, &cbin, &status, &err) || err != CL_INVALID_BINARY ||
                  status != CL_INVALID_BINARY))
        FAIL("a library binary cut to 12 bytes: error %d, status %d, want CL_INVALID_BINARY", err, status);
    /* the program linking options (§5.8.7.2): for a library made with -enable-link-options, and for
     * an executable; they allow optimizations, so the results stay exact for these integers */
    cl_program opt_in[2] = { lib2, lib1 };
    cl_program lib_opts = link_ok("-create-library -enable-link-options -cl-denorms-are-zero -cl-no-signed-zeros", 2,
                                  opt_in, "a library with program linking options");
    cl_program exe3_in[2] = { lib_opts, main_o };
    const char *exe_opts = "-cl-denorms-are-zero -cl-no-signed-zeros -cl-unsafe-math-optimizations "
                           "-cl-finite-math-only -cl-fast-relaxed-math";
    if (pocl) {
        link_error(exe_opts, 2, exe3_in, CL_INVALID_LINKER_OPTIONS, "PoCL: program linking options for an executable");
    } else {
        cl_program exe3 = link_ok(exe_opts, 2, exe3_in, "an executable with the program linking options");
        run_and_check(exe3, "linked with the program linking options");
        clReleaseProgram(exe3);
    }
    clReleaseProgram(lib_opts);

    free(bin);
    cl_program all[] = { add3_o, mul5_o, square_o, mix_o, main_o, add3_again_o, lib1, lib2, exe, lib1_again,
                         nested, exe2, lib_main };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) clReleaseProgram(all[i]);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    PASS();
}
