/* Kernels see __OPENCL_VERSION__ as the device reports its version: CL_DEVICE_VERSION "OpenCL X.Y"
 * gives X * 100 + Y * 10 (OpenCL 1.2 §6.10: 120 on a 1.2 device, 300 on a 3.0 one); and
 * CL_VERSION_1_2 is defined as 120. */
#define CL_TARGET_OPENCL_VERSION 120
#include <string.h>

#include "check.h"

static const char *src =
    "__kernel void v(__global int *out) {\n"
    "#ifdef __OPENCL_VERSION__\n"
    "  out[0] = __OPENCL_VERSION__;\n"
    "#else\n"
    "  out[0] = -1;\n"
    "#endif\n"
    "  out[1] = CL_VERSION_1_2;\n"
    "}\n";

int main(void)
{
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev = first_device(&ctx, &q, 0);
    char version[256] = "";
    CHECK_CL(clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof version, version, NULL));
    int major = 0, minor = 0;
    if (sscanf(version, "OpenCL %d.%d", &major, &minor) != 2) FAIL("CL_DEVICE_VERSION \"%s\"", version);
    cl_program p = build_program(ctx, dev, src, "");
    cl_int err;
    cl_kernel k = clCreateKernel(p, "v", &err);
    CHECK_CL(err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 2 * sizeof(cl_int), NULL, &err);
    CHECK_CL(err);
    CHECK_CL(clSetKernelArg(k, 0, sizeof buf, &buf));
    size_t one = 1;
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    cl_int out[2];
    CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    if (out[0] != major * 100 + minor * 10)
        FAIL("__OPENCL_VERSION__ = %d, want %d (CL_DEVICE_VERSION \"%s\"; -1: not defined)", out[0],
             major * 100 + minor * 10, version);
    if (out[1] != 120) FAIL("CL_VERSION_1_2 = %d, want 120", out[1]);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    PASS();
}
