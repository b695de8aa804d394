/* Profiling under the timing model: `umbra opencl --timing gfx1100 --stats STATS -- profiling_timing STATS`.
 *
 * With UMBRA_TIMING, a kernel event's END - START is the kernel's simulated time: the cycles the
 * timing model reports for that launch (the "timing" object of its UMBRA_STATS line) divided by
 * the machine's clock. The test runs a kernel with N and 2N iterations of a dependent loop and
 * checks: each event's END - START against the statistics (within 1 ns of rounding), the doubled
 * kernel taking more simulated time (between 1.5 and 2.5 times as long), QUEUED <= SUBMIT <=
 * START <= END, each command starting after the previous one ended on the in-order queue, and
 * a buffer write taking the documented PCIe time (1 us + bytes / 25 GB/s). Prints PASS. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITEMS 4096
#define LOCAL 64
#define ITERS 4096

static const char *source =
    "__kernel void chain(__global float *p, int n) {\n"
    "    size_t i = get_global_id(0);\n"
    "    float x = p[i];\n"
    "    for (int k = 0; k < n; k++) x = x * 0.999f + 0.5f;\n"
    "    p[i] = x;\n"
    "}\n";

static int failures;

#define CHECK(cond, ...)                                             \
    do {                                                             \
        if (!(cond)) {                                               \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);     \
            fprintf(stderr, __VA_ARGS__);                            \
            fputc('\n', stderr);                                     \
            failures++;                                              \
        }                                                            \
    } while (0)

#define CL_OK(call)                                                              \
    do {                                                                         \
        cl_int st_ = (call);                                                     \
        if (st_ != CL_SUCCESS) {                                                 \
            fprintf(stderr, "FAIL %s:%d: %s = %d\n", __FILE__, __LINE__, #call, st_); \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

typedef struct times { cl_ulong queued, submit, start, end; } times;

static times profile(cl_event ev)
{
    times t;
    CL_OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED, sizeof t.queued, &t.queued, NULL));
    CL_OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_SUBMIT, sizeof t.submit, &t.submit, NULL));
    CL_OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t.start, &t.start, NULL));
    CL_OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t.end, &t.end, NULL));
    CHECK(t.queued <= t.submit && t.submit <= t.start && t.start <= t.end,
          "QUEUED %llu SUBMIT %llu START %llu END %llu out of order", (unsigned long long)t.queued,
          (unsigned long long)t.submit, (unsigned long long)t.start, (unsigned long long)t.end);
    return t;
}

/* The simulated nanoseconds of each launch in the statistics file: cycles / clock. */
static size_t launch_ns(const char *path, double *ns, size_t max)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "FAIL: cannot read %s\n", path);
        exit(1);
    }
    char line[1 << 16];
    size_t n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        json_error_t err;
        json_t *doc = json_loads(line, 0, &err);
        json_t *timing = json_object_get(doc, "timing");
        json_t *cycles = json_object_get(timing, "cycles"), *mhz = json_object_get(timing, "clock_mhz");
        if (!json_is_integer(cycles) || !json_is_number(mhz)) {
            fprintf(stderr, "FAIL: %s line %zu has no timing.cycles and timing.clock_mhz\n", path, n + 1);
            exit(1);
        }
        ns[n++] = (double)json_integer_value(cycles) * 1000.0 / json_number_value(mhz);
        json_decref(doc);
    }
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: profiling_timing STATS.jsonl (the file UMBRA_STATS names)\n");
        return 2;
    }
    cl_platform_id platform;
    cl_device_id device;
    cl_int st;
    CL_OK(clGetPlatformIDs(1, &platform, NULL));
    CL_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL));
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &st);
    CL_OK(st);
    cl_command_queue q = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &st);
    CL_OK(st);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &st);
    CL_OK(st);
    CL_OK(clBuildProgram(prog, 1, &device, "", NULL, NULL));
    cl_kernel k = clCreateKernel(prog, "chain", &st);
    CL_OK(st);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, ITEMS * sizeof(float), NULL, &st);
    CL_OK(st);

    static float host[ITEMS];
    for (int i = 0; i < ITEMS; i++) host[i] = (float)i;
    cl_event ev[3];
    CL_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof host, host, 0, NULL, &ev[0]));
    size_t global = ITEMS, local = LOCAL;
    for (int r = 0; r < 2; r++) {
        cl_int n = ITERS << r;
        CL_OK(clSetKernelArg(k, 0, sizeof buf, &buf));
        CL_OK(clSetKernelArg(k, 1, sizeof n, &n));
        CL_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev[1 + r]));
    }
    CL_OK(clFinish(q));

    times t[3];
    for (int i = 0; i < 3; i++) t[i] = profile(ev[i]);
    for (int i = 1; i < 3; i++)
        CHECK(t[i].start >= t[i - 1].end, "command %d started at %llu before command %d ended at %llu", i,
              (unsigned long long)t[i].start, i - 1, (unsigned long long)t[i - 1].end);

    double pcie = 1000.0 + sizeof host / 25.0;
    CHECK(fabs((double)(t[0].end - t[0].start) - pcie) <= 1.0, "write of %zu bytes took %llu ns, want %.0f",
          sizeof host, (unsigned long long)(t[0].end - t[0].start), pcie);

    double ns[2];
    CHECK(launch_ns(argv[1], ns, 2) == 2, "%s: want a statistics line per kernel", argv[1]);
    for (int r = 0; r < 2; r++) {
        double got = (double)(t[1 + r].end - t[1 + r].start);
        printf("kernel n=%d: END - START %.0f ns, statistics %.1f ns\n", ITERS << r, got, ns[r]);
        CHECK(ns[r] > 0 && fabs(got - ns[r]) <= 1.0, "kernel %d: END - START %.0f ns, cycles / clock %.3f ns", r, got,
              ns[r]);
    }
    double ratio = (double)(t[2].end - t[2].start) / (double)(t[1].end - t[1].start);
    CHECK(ratio > 1.5 && ratio < 2.5, "twice the iterations took %.2f times the simulated time", ratio);

    for (int i = 0; i < 3; i++) clReleaseEvent(ev[i]);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    if (failures) return 1;
    printf("PASS\n");
    return 0;
}
