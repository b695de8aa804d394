/* A 5-point Jacobi stencil on a 128x96 grid, 2D NDRange over the interior through a global
 * offset of (1,1), ten sweeps ping-ponging two buffers; checked against the same sweeps on the host. */
#define CL_TARGET_OPENCL_VERSION 120
#include <math.h>

#include "check.h"

static const char *source =
    "__kernel void jacobi(__global const float *in, __global float *out, int w)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    out[y * w + x] = 0.25f * (in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] + in[(y + 1) * w + x]);\n"
    "}\n";

int main(void)
{
    enum { W = 128, H = 96, SWEEPS = 10 };
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev = first_device(&ctx, &q, 0);
    float *a = calloc(W * H, sizeof *a), *b = calloc(W * H, sizeof *b), *got = malloc(W * H * sizeof *got);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) a[y * W + x] = b[y * W + x] = (x == 0 || y == 0) ? 1.0f : (float)((x * y) % 7);
    cl_int err;
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, W * H * sizeof *a, a, &err);
    CHECK_CL(err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, W * H * sizeof *a, b, &err);
    CHECK_CL(err);
    cl_program p = build_program(ctx, dev, source, "");
    cl_kernel k = clCreateKernel(p, "jacobi", &err);
    CHECK_CL(err);
    int w = W;
    size_t offset[2] = { 1, 1 }, global[2] = { W - 2, H - 2 }, local[2] = { 18, 2 };
    for (int s = 0; s < SWEEPS; s++) {
        cl_mem in = s % 2 ? db : da, out = s % 2 ? da : db;
        CHECK_CL(clSetKernelArg(k, 0, sizeof in, &in));
        CHECK_CL(clSetKernelArg(k, 1, sizeof out, &out));
        CHECK_CL(clSetKernelArg(k, 2, sizeof w, &w));
        CHECK_CL(clEnqueueNDRangeKernel(q, k, 2, offset, global, s % 2 ? NULL : local, 0, NULL, NULL));
        float *hin = s % 2 ? b : a, *hout = s % 2 ? a : b;
        for (int y = 1; y < H - 1; y++)
            for (int x = 1; x < W - 1; x++)
                hout[y * W + x] = 0.25f * (hin[y * W + x - 1] + hin[y * W + x + 1] + hin[(y - 1) * W + x] +
                                           hin[(y + 1) * W + x]);
    }
    cl_mem last = SWEEPS % 2 ? db : da;
    float *expect = SWEEPS % 2 ? b : a;
    CHECK_CL(clEnqueueReadBuffer(q, last, CL_TRUE, 0, W * H * sizeof *got, got, 0, NULL, NULL));
    for (int i = 0; i < W * H; i++)
        if (fabsf(got[i] - expect[i]) > 1e-5f) FAIL("cell %d: %g, expected %g", i, got[i], expect[i]);
    clReleaseKernel(k), clReleaseProgram(p), clReleaseMemObject(da), clReleaseMemObject(db);
    clReleaseCommandQueue(q), clReleaseContext(ctx);
    free(a), free(b), free(got);
    PASS();
}
