/* C = A x B (96x80 by 80x64 floats) with 16x16 tiles in __local memory; the kernel is built with
 * -D TILE=16 and checked against a host product. */
#define CL_TARGET_OPENCL_VERSION 120
#include <math.h>

#include "check.h"

static const char *source =
    "__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int M, int N, int K)\n"
    "{\n"
    "    __local float As[TILE][TILE], Bs[TILE][TILE];\n"
    "    int col = get_global_id(0), row = get_global_id(1), lx = get_local_id(0), ly = get_local_id(1);\n"
    "    float acc = 0.0f;\n"
    "    for (int t = 0; t < K; t += TILE) {\n"
    "        As[ly][lx] = A[row * K + t + lx];\n"
    "        Bs[ly][lx] = B[(t + ly) * N + col];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int i = 0; i < TILE; i++) acc += As[ly][i] * Bs[i][lx];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    C[row * N + col] = acc;\n"
    "}\n";

int main(void)
{
    enum { M = 96, N = 64, K = 80 };
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev = first_device(&ctx, &q, 0);
    float *A = malloc(M * K * sizeof *A), *B = malloc(K * N * sizeof *B), *C = malloc(M * N * sizeof *C);
    for (int i = 0; i < M * K; i++) A[i] = (float)((i * 37) % 17) * 0.25f - 2.0f;
    for (int i = 0; i < K * N; i++) B[i] = (float)((i * 11) % 23) * 0.125f - 1.0f;
    cl_int err;
    cl_mem dA = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, M * K * sizeof *A, A, &err);
    CHECK_CL(err);
    cl_mem dB = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, K * N * sizeof *B, B, &err);
    CHECK_CL(err);
    cl_mem dC = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, M * N * sizeof *C, NULL, &err);
    CHECK_CL(err);
    cl_program p = build_program(ctx, dev, source, "-D TILE=16");
    cl_kernel k = clCreateKernel(p, "matmul", &err);
    CHECK_CL(err);
    int m = M, n = N, kk = K;
    CHECK_CL(clSetKernelArg(k, 0, sizeof dA, &dA));
    CHECK_CL(clSetKernelArg(k, 1, sizeof dB, &dB));
    CHECK_CL(clSetKernelArg(k, 2, sizeof dC, &dC));
    CHECK_CL(clSetKernelArg(k, 3, sizeof m, &m));
    CHECK_CL(clSetKernelArg(k, 4, sizeof n, &n));
    CHECK_CL(clSetKernelArg(k, 5, sizeof kk, &kk));
    size_t global[2] = { N, M }, local[2] = { 16, 16 };
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(q, dC, CL_TRUE, 0, M * N * sizeof *C, C, 0, NULL, NULL));
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            double ref = 0;
            for (int i = 0; i < K; i++) ref += (double)A[r * K + i] * B[i * N + c];
            if (fabs(C[r * N + c] - ref) > 1e-3) FAIL("C[%d][%d] = %g, expected %g", r, c, C[r * N + c], ref);
        }
    clReleaseKernel(k), clReleaseProgram(p);
    clReleaseMemObject(dA), clReleaseMemObject(dB), clReleaseMemObject(dC);
    clReleaseCommandQueue(q), clReleaseContext(ctx);
    free(A), free(B), free(C);
    PASS();
}
