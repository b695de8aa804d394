/* Kernel printf: eight work-items print a formatted line each (ints, a float, a string, a char,
 * hex with '#'); the program captures its own stdout around clFinish and checks every line
 * (in any order: work-items print concurrently) against the C library's formatting. */
#define CL_TARGET_OPENCL_VERSION 120
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static const char *source =
    "__kernel void say(int n)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    printf(\"item %d of %d: %.2f %s %c %#x\\n\", i, n, i * 0.5f, \"str\", 'A' + i, i * 255);\n"
    "}\n";

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(void)
{
    enum { N = 8 };
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev = first_device(&ctx, &q, 0);
    cl_int err;
    cl_program p = build_program(ctx, dev, source, "");
    cl_kernel k = clCreateKernel(p, "say", &err);
    CHECK_CL(err);
    int n = N;
    CHECK_CL(clSetKernelArg(k, 0, sizeof n, &n));
    char path[] = "/tmp/ocl-printf-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) FAIL("mkstemp");
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    size_t global = N;
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_CL(clFinish(q));
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    FILE *f = fopen(path, "r");
    char *lines[64];
    int count = 0;
    char buf[256];
    while (f && count < 64 && fgets(buf, sizeof buf, f)) lines[count++] = strdup(buf);
    if (f) fclose(f);
    unlink(path);
    if (count != N) FAIL("%d lines of printf output, expected %d", count, N);
    qsort(lines, count, sizeof *lines, cmp);
    for (int i = 0; i < N; i++) {
        char want[256];
        snprintf(want, sizeof want, "item %d of %d: %.2f %s %c %#x\n", i, N, i * 0.5f, "str", 'A' + i, i * 255);
        if (strcmp(lines[i], want)) FAIL("line %d: '%s', expected '%s'", i, lines[i], want);
        free(lines[i]);
    }
    clReleaseKernel(k), clReleaseProgram(p), clReleaseCommandQueue(q), clReleaseContext(ctx);
    PASS();
}
