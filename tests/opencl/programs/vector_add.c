/* c = a + b over a million floats, with a NULL local size; checked on the host. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static const char *source =
    "__kernel void add(__global const float *a, __global const float *b, __global float *c, uint n)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

int main(void)
{
    enum { N = 1 << 16 };
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev = first_device(&ctx, &q, 0);
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = (float)(2 * i) + 0.5f;
    cl_int err;
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *a, a, &err);
    CHECK_CL(err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *b, b, &err);
    CHECK_CL(err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * sizeof *c, NULL, &err);
    CHECK_CL(err);
    cl_program p = build_program(ctx, dev, source, "");
    cl_kernel k = clCreateKernel(p, "add", &err);
    CHECK_CL(err);
    cl_uint n = N;
    CHECK_CL(clSetKernelArg(k, 0, sizeof da, &da));
    CHECK_CL(clSetKernelArg(k, 1, sizeof db, &db));
    CHECK_CL(clSetKernelArg(k, 2, sizeof dc, &dc));
    CHECK_CL(clSetKernelArg(k, 3, sizeof n, &n));
    size_t global = N;
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, N * sizeof *c, c, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        if (c[i] != a[i] + b[i]) FAIL("c[%d] = %g, expected %g", i, c[i], a[i] + b[i]);
    clReleaseKernel(k), clReleaseProgram(p);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dc);
    clReleaseCommandQueue(q), clReleaseContext(ctx);
    free(a), free(b), free(c);
    PASS();
}
