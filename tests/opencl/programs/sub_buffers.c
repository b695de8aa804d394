/* Sub-buffers: a kernel scales each of four regions of one buffer by its own factor, launched on
 * the sub-buffers; the parent is then mapped for reading and checked; a misaligned origin fails. */
#define CL_TARGET_OPENCL_VERSION 120
#include "check.h"

static const char *source =
    "__kernel void scale(__global int *a, int f)\n"
    "{\n"
    "    a[get_global_id(0)] *= f;\n"
    "}\n";

int main(void)
{
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev = first_device(&ctx, &q, 0);
    cl_uint align_bits;
    CHECK_CL(clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
    size_t region_bytes = align_bits / 8 > 1024 ? align_bits / 8 : 1024, count = region_bytes / sizeof(int);
    size_t total = 4 * count;
    int *host = malloc(total * sizeof *host);
    for (size_t i = 0; i < total; i++) host[i] = (int)i;
    cl_int err;
    cl_mem parent = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, total * sizeof *host, host, &err);
    CHECK_CL(err);
    cl_program p = build_program(ctx, dev, source, "");
    cl_kernel k = clCreateKernel(p, "scale", &err);
    CHECK_CL(err);
    cl_mem subs[4];
    for (int r = 0; r < 4; r++) {
        cl_buffer_region reg = { r * region_bytes, region_bytes };
        subs[r] = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
        CHECK_CL(err);
        size_t off;
        CHECK_CL(clGetMemObjectInfo(subs[r], CL_MEM_OFFSET, sizeof off, &off, NULL));
        if (off != reg.origin) FAIL("CL_MEM_OFFSET %zu, expected %zu", off, reg.origin);
        int f = r + 2;
        CHECK_CL(clSetKernelArg(k, 0, sizeof subs[r], &subs[r]));
        CHECK_CL(clSetKernelArg(k, 1, sizeof f, &f));
        CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &count, NULL, 0, NULL, NULL));
    }
    cl_buffer_region bad = { 4, 16 };
    cl_mem none = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &bad, &err);
    if (none || err != CL_MISALIGNED_SUB_BUFFER_OFFSET) FAIL("misaligned sub-buffer: error %d", err);
    cl_buffer_region past = { 0, total * sizeof(int) + 4 };
    none = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &past, &err);
    if (none || err != CL_INVALID_VALUE) FAIL("sub-buffer past the end: error %d", err);
    int *mapped = clEnqueueMapBuffer(q, parent, CL_TRUE, CL_MAP_READ, 0, total * sizeof(int), 0, NULL, NULL, &err);
    CHECK_CL(err);
    for (size_t i = 0; i < total; i++)
        if (mapped[i] != (int)i * (int)(i / count + 2)) FAIL("a[%zu] = %d, expected %d", i, mapped[i], (int)i * (int)(i / count + 2));
    CHECK_CL(clEnqueueUnmapMemObject(q, parent, mapped, 0, NULL, NULL));
    CHECK_CL(clFinish(q));
    for (int r = 0; r < 4; r++) CHECK_CL(clReleaseMemObject(subs[r]));
    clReleaseKernel(k), clReleaseProgram(p), clReleaseMemObject(parent);
    clReleaseCommandQueue(q), clReleaseContext(ctx);
    free(host);
    PASS();
}
