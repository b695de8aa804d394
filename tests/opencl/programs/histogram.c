/* A 64-bin histogram of 2^16 bytes: per-group bins in __local memory with atomic_inc, merged into
 * the global histogram with atomic_add; a second kernel counts with 64-bit global atomics. */
#define CL_TARGET_OPENCL_VERSION 120
#include <string.h>

#include "check.h"

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "__kernel void hist(__global const uchar *data, __global uint *bins, uint n)\n"
    "{\n"
    "    __local uint local_bins[64];\n"
    "    uint lid = get_local_id(0);\n"
    "    for (uint i = lid; i < 64; i += get_local_size(0)) local_bins[i] = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&local_bins[data[i] & 63]);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint i = lid; i < 64; i += get_local_size(0)) atomic_add(&bins[i], local_bins[i]);\n"
    "}\n"
    "__kernel void count_odd(__global const uchar *data, __global ulong *count)\n"
    "{\n"
    "    if (data[get_global_id(0)] & 1) atom_add(count, (ulong)1);\n"
    "}\n";

int main(void)
{
    enum { N = 1 << 16 };
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev = first_device(&ctx, &q, 0);
    unsigned char *data = malloc(N);
    cl_uint expect[64] = { 0 }, bins[64];
    cl_ulong odd = 0;
    unsigned s = 7;
    for (int i = 0; i < N; i++) {
        s = s * 1664525u + 1013904223u;
        data[i] = (unsigned char)(s >> 24);
        expect[data[i] & 63]++;
        odd += data[i] & 1;
    }
    cl_int err;
    cl_mem dd = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N, data, &err);
    CHECK_CL(err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof bins, NULL, &err);
    CHECK_CL(err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_ulong), NULL, &err);
    CHECK_CL(err);
    cl_uint zero = 0;
    cl_ulong zero64 = 0;
    CHECK_CL(clEnqueueFillBuffer(q, db, &zero, sizeof zero, 0, sizeof bins, 0, NULL, NULL));
    CHECK_CL(clEnqueueFillBuffer(q, dc, &zero64, sizeof zero64, 0, sizeof zero64, 0, NULL, NULL));
    cl_program p = build_program(ctx, dev, source, "");
    cl_kernel k = clCreateKernel(p, "hist", &err);
    CHECK_CL(err);
    cl_kernel k2 = clCreateKernel(p, "count_odd", &err);
    CHECK_CL(err);
    cl_uint n = N;
    CHECK_CL(clSetKernelArg(k, 0, sizeof dd, &dd));
    CHECK_CL(clSetKernelArg(k, 1, sizeof db, &db));
    CHECK_CL(clSetKernelArg(k, 2, sizeof n, &n));
    size_t global = 4096, local = 128;
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_CL(clSetKernelArg(k2, 0, sizeof dd, &dd));
    CHECK_CL(clSetKernelArg(k2, 1, sizeof dc, &dc));
    size_t all = N;
    CHECK_CL(clEnqueueNDRangeKernel(q, k2, 1, NULL, &all, NULL, 0, NULL, NULL));
    cl_ulong got_odd;
    CHECK_CL(clEnqueueReadBuffer(q, db, CL_FALSE, 0, sizeof bins, bins, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(q, dc, CL_FALSE, 0, sizeof got_odd, &got_odd, 0, NULL, NULL));
    CHECK_CL(clFinish(q));
    for (int i = 0; i < 64; i++)
        if (bins[i] != expect[i]) FAIL("bin %d = %u, expected %u", i, bins[i], expect[i]);
    if (got_odd != odd) FAIL("odd count %llu, expected %llu", (unsigned long long)got_odd, (unsigned long long)odd);
    clReleaseKernel(k), clReleaseKernel(k2), clReleaseProgram(p);
    clReleaseMemObject(dd), clReleaseMemObject(db), clReleaseMemObject(dc);
    clReleaseCommandQueue(q), clReleaseContext(ctx);
    free(data);
    PASS();
}
