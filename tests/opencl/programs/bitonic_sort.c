/* Bitonic sort of 2^14 floats: one launch per (stage, pass), arguments changed between launches
 * of one kernel object; the result is compared with qsort. */
#define CL_TARGET_OPENCL_VERSION 120
#include <string.h>

#include "check.h"

static const char *source =
    "__kernel void bitonic(__global float *a, uint j, uint k)\n"
    "{\n"
    "    uint i = get_global_id(0), l = i ^ j;\n"
    "    if (l > i) {\n"
    "        float x = a[i], y = a[l];\n"
    "        bool up = (i & k) == 0;\n"
    "        if ((x > y) == up) { a[i] = y; a[l] = x; }\n"
    "    }\n"
    "}\n";

static int cmp(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    enum { N = 1 << 14 };
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev = first_device(&ctx, &q, 0);
    float *data = malloc(N * sizeof *data), *ref = malloc(N * sizeof *ref);
    unsigned s = 12345;
    for (int i = 0; i < N; i++) s = s * 1103515245u + 12345u, data[i] = (float)(s >> 8) / 65536.0f - 100.0f;
    memcpy(ref, data, N * sizeof *data);
    qsort(ref, N, sizeof *ref, cmp);
    cl_int err;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof *data, data, &err);
    CHECK_CL(err);
    cl_program p = build_program(ctx, dev, source, "");
    cl_kernel k = clCreateKernel(p, "bitonic", &err);
    CHECK_CL(err);
    CHECK_CL(clSetKernelArg(k, 0, sizeof buf, &buf));
    size_t global = N, local = 64;
    for (cl_uint kk = 2; kk <= N; kk <<= 1)
        for (cl_uint j = kk >> 1; j > 0; j >>= 1) {
            CHECK_CL(clSetKernelArg(k, 1, sizeof j, &j));
            CHECK_CL(clSetKernelArg(k, 2, sizeof kk, &kk));
            CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
        }
    CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, N * sizeof *data, data, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        if (data[i] != ref[i]) FAIL("a[%d] = %g, expected %g", i, data[i], ref[i]);
    clReleaseKernel(k), clReleaseProgram(p), clReleaseMemObject(buf);
    clReleaseCommandQueue(q), clReleaseContext(ctx);
    free(data), free(ref);
    PASS();
}
