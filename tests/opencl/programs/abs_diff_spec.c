/* abs_diff as OpenCL 1.2 §6.12.3 defines it, |x - y| without modulo overflow, where AMD's device
 * library at -O3 wraps for int and long (docs/BUILTINS.md; umbra's OpenCL compiles the
 * specification's definition instead). Expected: abs_diff(INT_MIN, 1) = 2^31 + 1 = 2147483649,
 * abs_diff(INT_MAX, INT_MIN) = 2^32 - 1, abs_diff(-5, 7) = 12; abs_diff(LONG_MIN, 1) = 2^63 + 1,
 * abs_diff(LONG_MAX, LONG_MIN) = 2^64 - 1; the same through int4 and long2 vectors; and the other
 * types still resolve (char 100, -100: 200; uchar 5, 250: 245; short -32768, 32767: 65535;
 * uint 5, 2^32 - 1: 2^32 - 6; char2 (100, 5), (-100, 250 as char -6): (200, 11)). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>

#include "check.h"

static const char *src =
    "__kernel void d(__global const int *a, __global const long *b, __global uint *o, __global ulong *p,\n"
    "                __global const int *e, __global uint *r) {\n"
    "  r[0] = abs_diff((char)e[0], (char)e[1]);\n"
    "  r[1] = abs_diff((uchar)e[2], (uchar)e[3]);\n"
    "  r[2] = abs_diff((short)e[4], (short)e[5]);\n"
    "  r[3] = abs_diff((uint)e[6], (uint)e[7]);\n"
    "  uchar2 c2 = abs_diff((char2)((char)e[0], (char)e[2]), (char2)((char)e[1], (char)e[3]));\n"
    "  r[4] = c2.x; r[5] = c2.y;\n"
    "  for (int i = 0; i < 4; i++) o[i] = abs_diff(a[2 * i], a[2 * i + 1]);\n"
    "  int4 x = vload4(0, a), y = vload4(1, a);\n"
    "  vstore4(abs_diff(x, y), 1, o);\n"
    "  for (int i = 0; i < 2; i++) p[i] = abs_diff(b[2 * i], b[2 * i + 1]);\n"
    "  long2 u = vload2(0, b), v = vload2(1, b);\n"
    "  vstore2(abs_diff(u, v), 1, p);\n"
    "}\n";

int main(void)
{
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev = first_device(&ctx, &q, 0);
    /* -O3 (every build's default) and -O0, in each OpenCL C version a program may ask for: the
     * platform's definitions must compile in all of them (OpenCL C 1.1 has no `static`) */
    static const char *const options[] = { "", "-cl-opt-disable", "-cl-std=CL1.1", "-cl-std=CL1.1 -cl-opt-disable",
                                           "-cl-std=CL1.2" };
    for (size_t opt = 0; opt < sizeof options / sizeof options[0]; opt++) {
    cl_program prog = build_program(ctx, dev, src, options[opt]);
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "d", &err);
    CHECK_CL(err);
    const cl_int a[8] = { INT32_MIN, 1, INT32_MAX, INT32_MIN, -5, 7, 0, INT32_MIN };
    const cl_long b[4] = { INT64_MIN, 1, INT64_MAX, INT64_MIN };
    /* scalar pairs (a[2i], a[2i+1]); vector: a[0..3] against a[4..7] */
    const cl_uint want_o[8] = { 2147483649u, 4294967295u, 12u, 2147483648u,
                                /* |INT_MIN + 5|, |1 - 7|, |INT_MAX - 0|, |INT_MIN - INT_MIN| */
                                2147483643u, 6u, 2147483647u, 0u };
    const cl_ulong want_p[4] = { 9223372036854775809ull, 18446744073709551615ull,
                                 /* (LONG_MIN, 1) vs (LONG_MAX, LONG_MIN): */ 18446744073709551615ull,
                                 9223372036854775809ull };
    cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, (void *)a, &err);
    CHECK_CL(err);
    cl_mem bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, (void *)b, &err);
    CHECK_CL(err);
    cl_mem bo = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof want_o, NULL, &err);
    CHECK_CL(err);
    cl_mem bp = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof want_p, NULL, &err);
    CHECK_CL(err);
    const cl_int e[8] = { 100, -100, 5, 250, -32768, 32767, 5, -1 };
    const cl_uint want_r[6] = { 200u, 245u, 65535u, 4294967290u, 200u, 11u };
    cl_mem be = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof e, (void *)e, &err);
    CHECK_CL(err);
    cl_mem br = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof want_r, NULL, &err);
    CHECK_CL(err);
    CHECK_CL(clSetKernelArg(k, 0, sizeof ba, &ba));
    CHECK_CL(clSetKernelArg(k, 1, sizeof bb, &bb));
    CHECK_CL(clSetKernelArg(k, 2, sizeof bo, &bo));
    CHECK_CL(clSetKernelArg(k, 3, sizeof bp, &bp));
    CHECK_CL(clSetKernelArg(k, 4, sizeof be, &be));
    CHECK_CL(clSetKernelArg(k, 5, sizeof br, &br));
    size_t one = 1;
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    cl_uint o[8];
    cl_ulong p[4];
    CHECK_CL(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(q, bp, CL_TRUE, 0, sizeof p, p, 0, NULL, NULL));
    cl_uint r[6];
    CHECK_CL(clEnqueueReadBuffer(q, br, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL));
    for (int i = 0; i < 6; i++)
        if (r[i] != want_r[i]) FAIL("%s: other-type abs_diff %d: %u, want %u", options[opt], i, r[i], want_r[i]);
    for (int i = 0; i < 8; i++)
        if (o[i] != want_o[i]) FAIL("%s: int abs_diff %d: %u, want %u", options[opt], i, o[i], want_o[i]);
    for (int i = 0; i < 4; i++)
        if (p[i] != want_p[i]) FAIL("%s: long abs_diff %d: %llu, want %llu", options[opt], i, (unsigned long long)p[i],
                                    (unsigned long long)want_p[i]);
    clReleaseMemObject(ba), clReleaseMemObject(bb), clReleaseMemObject(bo), clReleaseMemObject(bp);
    clReleaseMemObject(be), clReleaseMemObject(br);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    PASS();
}
