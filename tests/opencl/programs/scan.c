/* Exclusive prefix sum of 2^16 integers: a Hillis-Steele scan per work-group in __local memory,
 * a scan of the group totals, then adding each group's offset (three kernels, one queue). */
#define CL_TARGET_OPENCL_VERSION 120
#include "check.h"

static const char *source =
    "__kernel void scan_groups(__global const int *in, __global int *out, __global int *totals, __local int *t)\n"
    "{\n"
    "    int lid = get_local_id(0), ls = get_local_size(0), gid = get_global_id(0);\n"
    "    int x = in[gid];\n"
    "    t[lid] = x;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int d = 1; d < ls; d <<= 1) {\n"
    "        int v = lid >= d ? t[lid - d] : 0;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        t[lid] += v;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    out[gid] = t[lid] - x;\n"
    "    if (lid == ls - 1) totals[get_group_id(0)] = t[lid];\n"
    "}\n"
    "__kernel void scan_serial(__global int *totals, int n)\n"
    "{\n"
    "    int acc = 0;\n"
    "    for (int i = 0; i < n; i++) { int v = totals[i]; totals[i] = acc; acc += v; }\n"
    "}\n"
    "__kernel void add_offsets(__global int *out, __global const int *totals)\n"
    "{\n"
    "    out[get_global_id(0)] += totals[get_group_id(0)];\n"
    "}\n";

int main(void)
{
    enum { N = 1 << 16, LOCAL = 128, GROUPS = N / LOCAL };
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev = first_device(&ctx, &q, 0);
    int *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    for (int i = 0; i < N; i++) in[i] = (i * 7919) % 13 - 6;
    cl_int err;
    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *in, in, &err);
    CHECK_CL(err);
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof *in, NULL, &err);
    CHECK_CL(err);
    cl_mem dtot = clCreateBuffer(ctx, CL_MEM_READ_WRITE, GROUPS * sizeof *in, NULL, &err);
    CHECK_CL(err);
    cl_program p = build_program(ctx, dev, source, "");
    cl_kernel k1 = clCreateKernel(p, "scan_groups", &err);
    CHECK_CL(err);
    cl_kernel k2 = clCreateKernel(p, "scan_serial", &err);
    CHECK_CL(err);
    cl_kernel k3 = clCreateKernel(p, "add_offsets", &err);
    CHECK_CL(err);
    CHECK_CL(clSetKernelArg(k1, 0, sizeof din, &din));
    CHECK_CL(clSetKernelArg(k1, 1, sizeof dout, &dout));
    CHECK_CL(clSetKernelArg(k1, 2, sizeof dtot, &dtot));
    CHECK_CL(clSetKernelArg(k1, 3, LOCAL * sizeof(int), NULL));
    int groups = GROUPS;
    CHECK_CL(clSetKernelArg(k2, 0, sizeof dtot, &dtot));
    CHECK_CL(clSetKernelArg(k2, 1, sizeof groups, &groups));
    CHECK_CL(clSetKernelArg(k3, 0, sizeof dout, &dout));
    CHECK_CL(clSetKernelArg(k3, 1, sizeof dtot, &dtot));
    size_t global = N, local = LOCAL;
    CHECK_CL(clEnqueueNDRangeKernel(q, k1, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_CL(clEnqueueTask(q, k2, 0, NULL, NULL));
    CHECK_CL(clEnqueueNDRangeKernel(q, k3, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, N * sizeof *out, out, 0, NULL, NULL));
    int acc = 0;
    for (int i = 0; i < N; i++) {
        if (out[i] != acc) FAIL("out[%d] = %d, expected %d", i, out[i], acc);
        acc += in[i];
    }
    clReleaseKernel(k1), clReleaseKernel(k2), clReleaseKernel(k3), clReleaseProgram(p);
    clReleaseMemObject(din), clReleaseMemObject(dout), clReleaseMemObject(dtot);
    clReleaseCommandQueue(q), clReleaseContext(ctx);
    free(in), free(out);
    PASS();
}
