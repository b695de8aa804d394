/* clCompileProgram with embedded headers (OpenCL 1.2 §5.6.3): #include "name" finds the source of
 * input_headers[i] under header_include_names[i], names with folders included ("ops/scale.h"),
 * and a header that includes another by its own name ("ops/scale.h" includes "base.h"). The
 * compiled object, linked, computes out[i] = 3 * (i + 7) + 100: out[0] = 121, out[9] = 148. */
#define CL_TARGET_OPENCL_VERSION 120
#include <string.h>

#include "check.h"

static const char *base_h = "#define BASE 7\n";
static const char *scale_h = "#include \"base.h\"\n#define SCALE(x) (3 * ((x) + BASE))\n";
static const char *offset_h = "#define OFFSET 100\n";
static const char *kernel_src =
    "#include \"ops/scale.h\"\n"
    "#include \"more/deep/offset.h\"\n"
    "__kernel void f(__global int *out) { int i = (int)get_global_id(0); out[i] = SCALE(i) + OFFSET; }\n";

static cl_program from_source(cl_context ctx, const char *src)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK_CL(err);
    return p;
}

int main(void)
{
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev = first_device(&ctx, &q, 0);
    cl_program headers[3] = { from_source(ctx, base_h), from_source(ctx, scale_h), from_source(ctx, offset_h) };
    const char *names[3] = { "base.h", "ops/scale.h", "more/deep/offset.h" };
    cl_program p = from_source(ctx, kernel_src);
    cl_int err = clCompileProgram(p, 1, &dev, "", 3, headers, names, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        FAIL("clCompileProgram with 3 embedded headers returned %d; log:\n%s", err, log);
    }
    /* without the headers the same source does not compile */
    cl_program bare = from_source(ctx, kernel_src);
    err = clCompileProgram(bare, 1, &dev, "", 0, NULL, NULL, NULL, NULL);
    if (err != CL_COMPILE_PROGRAM_FAILURE) FAIL("compiling without the headers returned %d, want %d", err,
                                                 CL_COMPILE_PROGRAM_FAILURE);
    cl_program linked = clLinkProgram(ctx, 1, &dev, "", 1, &p, NULL, NULL, &err);
    CHECK_CL(err);
    cl_kernel k = clCreateKernel(linked, "f", &err);
    CHECK_CL(err);
    enum { N = 64 };
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * sizeof(cl_int), NULL, &err);
    CHECK_CL(err);
    CHECK_CL(clSetKernelArg(k, 0, sizeof buf, &buf));
    size_t global = N;
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    cl_int out[N];
    CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        if (out[i] != 3 * (i + 7) + 100) FAIL("out[%d] = %d, want %d", i, out[i], 3 * (i + 7) + 100);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(linked);
    clReleaseProgram(bare);
    clReleaseProgram(p);
    for (int i = 0; i < 3; i++) clReleaseProgram(headers[i]);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    PASS();
}
