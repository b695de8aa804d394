/* Sum of 2^18 integers: a work-group tree reduction in __local memory (its size set with
 * clSetKernelArg(NULL)), partial sums reduced again on the device until one remains. */
#define CL_TARGET_OPENCL_VERSION 120
#include <stdint.h>

#include "check.h"

static const char *source =
    "__kernel void reduce(__global const uint *in, __global uint *out, __local uint *tmp, uint n)\n"
    "{\n"
    "    uint lid = get_local_id(0), gid = get_global_id(0), ls = get_local_size(0);\n"
    "    tmp[lid] = gid < n ? in[gid] : 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint s = ls / 2; s > 0; s >>= 1) {\n"
    "        if (lid < s) tmp[lid] += tmp[lid + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (lid == 0) out[get_group_id(0)] = tmp[0];\n"
    "}\n";

int main(void)
{
    enum { N = 1 << 18, LOCAL = 256 };
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev = first_device(&ctx, &q, 0);
    cl_uint *data = malloc(N * sizeof *data);
    uint64_t expect = 0;
    for (cl_uint i = 0; i < N; i++) data[i] = (i * 2654435761u) >> 20, expect += data[i];
    cl_int err;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof *data, data, &err);
    CHECK_CL(err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N / LOCAL * sizeof *data, NULL, &err);
    CHECK_CL(err);
    cl_program p = build_program(ctx, dev, source, "");
    cl_kernel k = clCreateKernel(p, "reduce", &err);
    CHECK_CL(err);
    cl_uint n = N;
    cl_mem in = a, out = b;
    while (n > 1) {
        size_t groups = (n + LOCAL - 1) / LOCAL, global = groups * LOCAL, local = LOCAL;
        CHECK_CL(clSetKernelArg(k, 0, sizeof in, &in));
        CHECK_CL(clSetKernelArg(k, 1, sizeof out, &out));
        CHECK_CL(clSetKernelArg(k, 2, LOCAL * sizeof(cl_uint), NULL));
        CHECK_CL(clSetKernelArg(k, 3, sizeof n, &n));
        CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
        n = (cl_uint)groups;
        cl_mem t = in;
        in = out, out = t;
    }
    cl_uint sum;
    CHECK_CL(clEnqueueReadBuffer(q, in, CL_TRUE, 0, sizeof sum, &sum, 0, NULL, NULL));
    if (sum != (cl_uint)expect) FAIL("sum %u, expected %u", sum, (cl_uint)expect);
    clReleaseKernel(k), clReleaseProgram(p), clReleaseMemObject(a), clReleaseMemObject(b);
    clReleaseCommandQueue(q), clReleaseContext(ctx);
    free(data);
    PASS();
}
