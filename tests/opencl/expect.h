/* The checks of the OpenCL C-API test programs (api_test.c, ocl30_test.c, image_test.c,
 * image_kernel_test.c): each failed check prints where and what, and counts in `failures`,
 * which the program's main turns into its exit status. */
#ifndef UMBRA_TESTS_OPENCL_EXPECT_H
#define UMBRA_TESTS_OPENCL_EXPECT_H

#include <CL/cl.h>
#include <stdio.h>

static int failures;

#define EXPECT(cond)                                                             \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                          \
        }                                                                        \
    } while (0)
/* A call's status must be the given code. */
#define EXPECT_ERR(call, code)                                                                      \
    do {                                                                                            \
        cl_int got_ = (call);                                                                       \
        if (got_ != (code)) {                                                                       \
            fprintf(stderr, "%s:%d: %s returned %d, expected %s (%d)\n", __FILE__, __LINE__, #call, \
                    got_, #code, (int)(code));                                                      \
            failures++;                                                                             \
        }                                                                                           \
    } while (0)
#define OK(call) EXPECT_ERR(call, CL_SUCCESS)

#endif
