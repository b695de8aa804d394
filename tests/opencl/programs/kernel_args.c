/* Argument kinds: a struct by value, char/short/long/double/float4 scalars, a NULL buffer the
 * kernel tests for, a __constant buffer, and a global offset seen through get_global_offset. */
#define CL_TARGET_OPENCL_VERSION 120
#include <math.h>
#include <string.h>

#include "check.h"

typedef struct params {
    cl_float scale;
    cl_int bias;
    cl_char tag;
    cl_long big;
} params;

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "typedef struct { float scale; int bias; char tag; long big; } params;\n"
    "__kernel void args(__global double *out, params p, char c, short s, long l, double d, float4 v,\n"
    "                   __global int *maybe, __constant int *table)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    double x = p.scale * (double)i + p.bias + p.tag + (double)(p.big >> 32) + c + s + (double)l + d;\n"
    "    x += v.x + v.y * 2 + v.z * 3 + v.w * 4 + table[i % 4];\n"
    "    x += maybe ? 1000.0 : 0.0;\n"
    "    out[i - get_global_offset(0)] = x;\n"
    "}\n";

int main(void)
{
    enum { N = 96, OFFSET = 32 };
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev = first_device(&ctx, &q, 0);
    char ext[4096];
    CHECK_CL(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    if (!strstr(ext, "cl_khr_fp64")) FAIL("the device has no cl_khr_fp64");
    cl_int err;
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * sizeof(double), NULL, &err);
    CHECK_CL(err);
    cl_int table[4] = { 10, 20, 30, 40 };
    cl_mem tab = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof table, table, &err);
    CHECK_CL(err);
    cl_program p = build_program(ctx, dev, source, "");
    cl_kernel k = clCreateKernel(p, "args", &err);
    CHECK_CL(err);
    params prm = { 0.5f, -3, 5, (cl_long)7 << 32 };
    cl_char c = -2;
    cl_short s = 300;
    cl_long l = -5000000000LL;
    cl_double d = 0.25;
    cl_float4 v = { { 1.0f, 2.0f, 3.0f, 4.0f } };
    cl_mem null_buf = NULL;
    CHECK_CL(clSetKernelArg(k, 0, sizeof out, &out));
    CHECK_CL(clSetKernelArg(k, 1, sizeof prm, &prm));
    CHECK_CL(clSetKernelArg(k, 2, sizeof c, &c));
    CHECK_CL(clSetKernelArg(k, 3, sizeof s, &s));
    CHECK_CL(clSetKernelArg(k, 4, sizeof l, &l));
    CHECK_CL(clSetKernelArg(k, 5, sizeof d, &d));
    CHECK_CL(clSetKernelArg(k, 6, sizeof v, &v));
    CHECK_CL(clSetKernelArg(k, 7, sizeof null_buf, &null_buf));
    CHECK_CL(clSetKernelArg(k, 8, sizeof tab, &tab));
    size_t offset = OFFSET, global = N, local = 32;
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, &offset, &global, &local, 0, NULL, NULL));
    double got[N];
    CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    for (int j = 0; j < N; j++) {
        size_t i = j + OFFSET;
        double x = 0.5 * (double)i - 3 + 5 + 7 - 2 + 300 - 5000000000.0 + 0.25;
        x += 1 + 4 + 9 + 16 + table[i % 4];
        if (fabs(got[j] - x) > 1e-6) FAIL("out[%d] = %.17g, expected %.17g", j, got[j], x);
    }
    clReleaseKernel(k), clReleaseProgram(p), clReleaseMemObject(out), clReleaseMemObject(tab);
    clReleaseCommandQueue(q), clReleaseContext(ctx);
    PASS();
}
