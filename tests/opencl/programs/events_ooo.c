/* Events on an out-of-order queue with profiling: a chain write -> kernel -> kernel -> read gated
 * by a user event, enqueued in reverse order of need; nothing may start before the user event is
 * set; callbacks fire on completion; a marker with a wait list and a barrier order the rest;
 * profiling timestamps are ordered. */
#define CL_TARGET_OPENCL_VERSION 120
#include <stdatomic.h>

#include "check.h"

static const char *source =
    "__kernel void twice(__global const int *in, __global int *out) { size_t i = get_global_id(0); out[i] = 2 * in[i]; }\n"
    "__kernel void plus1(__global const int *in, __global int *out) { size_t i = get_global_id(0); out[i] = in[i] + 1; }\n";

static atomic_int completed;

static void CL_CALLBACK on_complete(cl_event ev, cl_int status, void *data)
{
    (void)ev, (void)data;
    if (status == CL_COMPLETE) atomic_fetch_add(&completed, 1);
}

static cl_int status_of(cl_event ev)
{
    cl_int s;
    CHECK_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL));
    return s;
}

int main(void)
{
    enum { N = 4096 };
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev = first_device(&ctx, &q, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    int *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    for (int i = 0; i < N; i++) in[i] = i - 100;
    cl_int err;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof *in, NULL, &err);
    CHECK_CL(err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof *in, NULL, &err);
    CHECK_CL(err);
    cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof *in, NULL, &err);
    CHECK_CL(err);
    cl_program p = build_program(ctx, dev, source, "");
    cl_kernel k1 = clCreateKernel(p, "twice", &err);
    CHECK_CL(err);
    cl_kernel k2 = clCreateKernel(p, "plus1", &err);
    CHECK_CL(err);
    CHECK_CL(clSetKernelArg(k1, 0, sizeof a, &a));
    CHECK_CL(clSetKernelArg(k1, 1, sizeof b, &b));
    CHECK_CL(clSetKernelArg(k2, 0, sizeof b, &b));
    CHECK_CL(clSetKernelArg(k2, 1, sizeof c, &c));

    cl_event gate = clCreateUserEvent(ctx, &err);
    CHECK_CL(err);
    cl_event ev_write, ev_k1, ev_k2, ev_read;
    size_t global = N;
    CHECK_CL(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, N * sizeof *in, in, 1, &gate, &ev_write));
    CHECK_CL(clEnqueueNDRangeKernel(q, k1, 1, NULL, &global, NULL, 1, &ev_write, &ev_k1));
    CHECK_CL(clEnqueueNDRangeKernel(q, k2, 1, NULL, &global, NULL, 1, &ev_k1, &ev_k2));
    CHECK_CL(clEnqueueReadBuffer(q, c, CL_FALSE, 0, N * sizeof *out, out, 1, &ev_k2, &ev_read));
    cl_event chain[] = { ev_write, ev_k1, ev_k2, ev_read };
    for (int i = 0; i < 4; i++) CHECK_CL(clSetEventCallback(chain[i], CL_COMPLETE, on_complete, NULL));
    CHECK_CL(clFlush(q));
    for (int i = 0; i < 4; i++)
        if (status_of(chain[i]) == CL_COMPLETE) FAIL("command %d completed before its user event was set", i);
    cl_event marker;
    CHECK_CL(clEnqueueMarkerWithWaitList(q, 4, chain, &marker));
    CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_CL(clWaitForEvents(1, &marker));
    for (int i = 0; i < 4; i++)
        if (status_of(chain[i]) != CL_COMPLETE) FAIL("command %d not complete after the marker", i);
    for (int i = 0; i < N; i++)
        if (out[i] != 2 * in[i] + 1) FAIL("out[%d] = %d, expected %d", i, out[i], 2 * in[i] + 1);

    /* A barrier: the fill after it sees the kernel before it complete. */
    int seven = 7;
    CHECK_CL(clEnqueueNDRangeKernel(q, k1, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_CL(clEnqueueBarrierWithWaitList(q, 0, NULL, NULL));
    CHECK_CL(clEnqueueFillBuffer(q, b, &seven, sizeof seven, 0, sizeof seven, 0, NULL, NULL));
    CHECK_CL(clFinish(q));
    int first;
    CHECK_CL(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof first, &first, 0, NULL, NULL));
    if (first != 7) FAIL("b[0] = %d after the barrier, expected 7", first);

    for (int i = 0; i < 4; i++) {
        cl_ulong t[4];
        cl_profiling_info what[4] = { CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                      CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END };
        for (int j = 0; j < 4; j++) CHECK_CL(clGetEventProfilingInfo(chain[i], what[j], sizeof t[j], &t[j], NULL));
        if (!(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3])) FAIL("command %d: timestamps out of order", i);
    }
    cl_ulong end_k1, start_k2;
    CHECK_CL(clGetEventProfilingInfo(ev_k1, CL_PROFILING_COMMAND_END, sizeof end_k1, &end_k1, NULL));
    CHECK_CL(clGetEventProfilingInfo(ev_k2, CL_PROFILING_COMMAND_START, sizeof start_k2, &start_k2, NULL));
    if (start_k2 < end_k1) FAIL("the dependent kernel started before its dependency ended");
    /* Callbacks may run a little after the status changes: wait for them. */
    for (int spin = 0; atomic_load(&completed) < 4 && spin < 1000000; spin++) ;
    CHECK_CL(clReleaseEvent(marker));
    for (int i = 0; i < 4; i++) CHECK_CL(clReleaseEvent(chain[i]));
    CHECK_CL(clReleaseEvent(gate));
    clReleaseKernel(k1), clReleaseKernel(k2), clReleaseProgram(p);
    clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(c);
    clReleaseCommandQueue(q), clReleaseContext(ctx);
    if (atomic_load(&completed) != 4) FAIL("%d completion callbacks, expected 4", atomic_load(&completed));
    free(in), free(out);
    PASS();
}
