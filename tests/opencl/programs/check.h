/* Helpers shared by the self-checking OpenCL host programs: plain OpenCL 1.2, nothing of umbra's,
 * so that each program runs unchanged on any platform (the tests run them on umbra and PoCL). */
#ifndef OCL_CHECK_H
#define OCL_CHECK_H

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define FAIL(...) do { fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); \
                       fprintf(stderr, "\n"); exit(1); } while (0)
#define CHECK_CL(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) FAIL("%s returned %d", #x, e_); } while (0)
#define PASS() do { printf("PASS\n"); return 0; } while (0)

/* The first device of the first platform, a context and a queue with the given properties. */
static inline cl_device_id first_device(cl_context *ctx, cl_command_queue *q, cl_command_queue_properties props)
{
    cl_platform_id plat;
    cl_device_id dev;
    cl_int err;
    CHECK_CL(clGetPlatformIDs(1, &plat, NULL));
    CHECK_CL(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    *ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK_CL(err);
    *q = clCreateCommandQueue(*ctx, dev, props, &err);
    CHECK_CL(err);
    return dev;
}

/* Build from source; on failure print the build log. */
static inline cl_program build_program(cl_context ctx, cl_device_id dev, const char *src, const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK_CL(err);
    err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t n = 0;
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
        char *log = malloc(n + 1);
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL);
        log[n] = 0;
        FAIL("clBuildProgram returned %d; log:\n%s", err, log);
    }
    return p;
}

#endif
