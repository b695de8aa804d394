/* The OpenCL API surface of command queues, commands and events over the platform layer's queue
 * engine (src/platform/plat_stream.c, platform.h): a cl_command_queue is a plat_stream (out of
 * order with CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE), a command an ocl_cmd embedding a plat_cmd,
 * and a cl_event's status a plat_event, which the engine moves through QUEUED, SUBMITTED, RUNNING
 * and COMPLETE (or an error) and which commands of any queue depend on. What is OpenCL's stays
 * here: the event hooks record profiling times (ocl_timing.c), write a kernel's printf output
 * before its event completes, and run the callbacks; a command's run and done functions run and
 * retire it (releasing the memory objects and kernel it holds) on the queue's worker. */
#include <stdlib.h>
#include <string.h>

#include "ocl.h"

_Static_assert(PLAT_COMPLETE == CL_COMPLETE && PLAT_RUNNING == CL_RUNNING && PLAT_SUBMITTED == CL_SUBMITTED &&
                   PLAT_QUEUED == CL_QUEUED && PLAT_DEPENDENCY_FAILED == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
               "the engine's statuses are OpenCL's");

/* ---------------- events ---------------- */

/* Callbacks registered for this state or an earlier one, taken off the list (caller holds ocl_lock). */
static ocl_event_callback *take_callbacks(cl_event ev, cl_int status)
{
    ocl_event_callback *due = NULL, **pp = &ev->callbacks;
    while (*pp) {
        ocl_event_callback *c = *pp;
        if (status <= c->on) {
            *pp = c->next;
            c->next = due, due = c;
        } else {
            pp = &c->next;
        }
    }
    return due;
}

static void run_callbacks(cl_event ev, ocl_event_callback *due, cl_int status)
{
    /* Reverse the list so callbacks run in registration order. */
    ocl_event_callback *rev = NULL;
    while (due) {
        ocl_event_callback *n = due->next;
        due->next = rev, rev = due, due = n;
    }
    for (ocl_event_callback *c = rev, *n; c; c = n) {
        n = c->next;
        c->fn(ev, status < 0 ? status : c->on, c->data);
        free(c);
    }
}

/* A kernel's printf output goes to stdout before its event completes, as on ROCm. */
static void flush_printf(cl_event ev)
{
    pthread_mutex_lock(&ocl_lock);
    char *text = ev->printf_text;
    size_t len = ev->printf_len;
    ev->printf_text = NULL, ev->printf_len = 0;
    pthread_mutex_unlock(&ocl_lock);
    if (!text) return;
    fwrite(text, 1, len, stdout);
    fflush(stdout);
    free(text);
}

/* Before the engine makes the new status visible: output and profiling times. */
static void event_stamp(plat_event *pe, int status)
{
    cl_event ev = plat_event_owner(pe);
    if (status <= CL_COMPLETE) flush_printf(ev);
    if (!ev->profiling) return;
    pthread_mutex_lock(&ocl_lock);
    cl_ulong now = ocl_profile_time(ev, status == CL_SUBMITTED ? CL_PROFILING_COMMAND_SUBMIT
                                        : status == CL_RUNNING ? CL_PROFILING_COMMAND_START
                                                               : CL_PROFILING_COMMAND_END);
    if (status == CL_SUBMITTED) ev->times[1] = now;
    else if (status == CL_RUNNING) ev->times[2] = now;
    else ev->times[3] = now;
    pthread_mutex_unlock(&ocl_lock);
}

/* After: the callbacks due. */
static void event_notify(plat_event *pe, int status)
{
    cl_event ev = plat_event_owner(pe);
    pthread_mutex_lock(&ocl_lock);
    ocl_event_callback *due = take_callbacks(ev, status);
    pthread_mutex_unlock(&ocl_lock);
    run_callbacks(ev, due, status);
}

static const plat_event_hooks event_hooks = { event_stamp, event_notify };

cl_event ocl_event_new(cl_context ctx, cl_command_queue q, cl_command_type type)
{
    cl_event ev = ocl_obj_alloc(sizeof *ev);
    if (!ev) return NULL;
    ev->ctx = ctx, ev->queue = q, ev->type = type;
    ev->profiling = q && (q->props & CL_QUEUE_PROFILING_ENABLE);
    if (!(ev->pe = plat_event_create(q ? CL_QUEUED : CL_SUBMITTED, &event_hooks, ev))) {
        ocl_obj_free(ev);
        return NULL;
    }
    ocl_retain(ctx);
    ocl_register(ev, OCL_EVENT);
    if (ev->profiling) ev->times[0] = ocl_profile_time(ev, CL_PROFILING_COMMAND_QUEUED);
    return ev;
}

cl_int ocl_event_status(cl_event ev) { return plat_event_status(ev->pe); }

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event ev, cl_event_info param, size_t size, void *value,
                                               size_t *ret)
{
    if (!ocl_valid(ev, OCL_EVENT)) return CL_INVALID_EVENT;
    switch (param) {
    case CL_EVENT_COMMAND_QUEUE: OCL_INFO(cl_command_queue, ev->queue);
    case CL_EVENT_CONTEXT: OCL_INFO(cl_context, ev->ctx);
    case CL_EVENT_COMMAND_TYPE: OCL_INFO(cl_command_type, ev->type);
    case CL_EVENT_REFERENCE_COUNT: OCL_INFO(cl_uint, atomic_load(&ev->h.refs));
    case CL_EVENT_COMMAND_EXECUTION_STATUS: OCL_INFO(cl_int, ocl_event_status(ev));
    default: return CL_INVALID_VALUE;
    }
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event ev, cl_profiling_info param, size_t size,
                                                        void *value, size_t *ret)
{
    if (!ocl_valid(ev, OCL_EVENT)) return CL_INVALID_EVENT;
    bool avail = ev->profiling && ocl_event_status(ev) == CL_COMPLETE;   /* END was stamped before */
    pthread_mutex_lock(&ocl_lock);
    cl_ulong t[4];
    memcpy(t, ev->times, sizeof t);
    pthread_mutex_unlock(&ocl_lock);
    if (!avail) return CL_PROFILING_INFO_NOT_AVAILABLE;
    switch (param) {
    case CL_PROFILING_COMMAND_QUEUED: OCL_INFO(cl_ulong, t[0]);
    case CL_PROFILING_COMMAND_SUBMIT: OCL_INFO(cl_ulong, t[1]);
    case CL_PROFILING_COMMAND_START: OCL_INFO(cl_ulong, t[2]);
    case CL_PROFILING_COMMAND_END: case CL_PROFILING_COMMAND_COMPLETE: OCL_INFO(cl_ulong, t[3]);
    default: return CL_INVALID_VALUE;
    }
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event ev)
{
    if (!ocl_valid(ev, OCL_EVENT)) return CL_INVALID_EVENT;
    ocl_retain(ev);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event ev)
{
    if (!ocl_valid(ev, OCL_EVENT)) return CL_INVALID_EVENT;
    if (ocl_release_last(ev)) ocl_free_object(ev);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context c, cl_int *errcode_ret)
{
    if (!ocl_valid(c, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    cl_event ev = ocl_event_new(c, NULL, CL_COMMAND_USER);
    if (!ev) OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    OCL_OK(ev);
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event ev, cl_int status)
{
    if (!ocl_valid(ev, OCL_EVENT) || ev->type != CL_COMMAND_USER) return CL_INVALID_EVENT;
    if (status > CL_COMPLETE) return CL_INVALID_VALUE;
    return plat_event_set(ev->pe, status) ? CL_SUCCESS : CL_INVALID_OPERATION;   /* set once */
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event ev, cl_int on, void (CL_CALLBACK *fn)(cl_event, cl_int, void *),
                                                   void *data)
{
    if (!ocl_valid(ev, OCL_EVENT)) return CL_INVALID_EVENT;
    if (!fn || (on != CL_SUBMITTED && on != CL_RUNNING && on != CL_COMPLETE)) return CL_INVALID_VALUE;
    ocl_event_callback *c = calloc(1, sizeof *c);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    c->on = on, c->fn = fn, c->data = data;
    /* under ocl_lock: a change of status notifies (event_notify) after this, or is seen here */
    pthread_mutex_lock(&ocl_lock);
    cl_int status = ocl_event_status(ev);
    bool now = status <= on;
    if (!now) c->next = ev->callbacks, ev->callbacks = c;
    pthread_mutex_unlock(&ocl_lock);
    if (now) run_callbacks(ev, c, status);
    return CL_SUCCESS;
}

/* Wait until every event has completed; an error status in any makes the answer an error. */
cl_int ocl_wait_events(cl_uint n, const cl_event *list)
{
    cl_int st = CL_SUCCESS;
    for (cl_uint i = 0; i < n; i++)
        if (plat_event_wait(list[i]->pe) < 0) st = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    return st;
}

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event *list)
{
    if (n == 0 || !list) return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < n; i++) {
        if (!ocl_valid(list[i], OCL_EVENT)) return CL_INVALID_EVENT;
        if (list[i]->ctx != list[0]->ctx) return CL_INVALID_CONTEXT;
    }
    return ocl_wait_events(n, list);
}

/* ---------------- commands ---------------- */

ocl_cmd *ocl_cmd_new(void) { return calloc(1, sizeof(ocl_cmd)); }

void ocl_cmd_free(ocl_cmd *c)
{
    if (c->done) c->done(c);
    for (int i = 0; i < 2; i++)
        if (c->mem[i] && ocl_release_last(c->mem[i])) ocl_free_object(c->mem[i]);
    if (c->kernel && ocl_release_last(c->kernel)) ocl_free_object(c->kernel);
    if (c->ev && ocl_release_last(c->ev)) ocl_free_object(c->ev);
    free(c);
}

/* On the worker, once the wait list has completed without an error (else the engine completes
 * the event with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST and the command does not run). */
static void cmd_run(plat_cmd *pc)
{
    ocl_cmd *c = (ocl_cmd *)pc;
    pc->status = c->run ? c->run(c) : CL_COMPLETE;
    ocl_timing_command_done(c, true);
}

/* After its event completed: retire what it holds. clFinish returns only after this, so that
 * objects the program released before are gone when it returns. */
static void cmd_done(plat_cmd *pc) { ocl_cmd_free((ocl_cmd *)pc); }

cl_int ocl_check_wait_list(cl_command_queue q, cl_uint n, const cl_event *list)
{
    if ((n == 0) != (list == NULL)) return CL_INVALID_EVENT_WAIT_LIST;
    for (cl_uint i = 0; i < n; i++) {
        if (!ocl_valid(list[i], OCL_EVENT)) return CL_INVALID_EVENT_WAIT_LIST;
        if (list[i]->ctx != q->ctx) return CL_INVALID_CONTEXT;
    }
    return CL_SUCCESS;
}

cl_int ocl_enqueue(cl_command_queue q, ocl_cmd *c, cl_command_type type, cl_uint nwait, const cl_event *wait,
                   cl_event *out, bool blocking)
{
    plat_dep *deps = nwait ? calloc(nwait, sizeof *deps) : NULL;
    c->ev = ocl_event_new(q->ctx, q, type);
    if (!c->ev || (nwait && !deps)) {
        free(deps);
        ocl_cmd_free(c);
        return CL_OUT_OF_HOST_MEMORY;
    }
    for (cl_uint i = 0; i < nwait; i++) deps[i].event = wait[i]->pe;
    c->pc.run = cmd_run, c->pc.done = cmd_done;
    c->pc.event = c->ev->pe;
    plat_event_retain(c->pc.event);   /* the engine's */
    /* Out of order, a barrier (or a marker without a wait list) waits for every command queued
     * before it, and later commands wait for a barrier; in order, the order says as much. */
    if (type == CL_COMMAND_BARRIER) c->pc.flags = PLAT_CMD_AFTER_ALL | PLAT_CMD_FENCE;
    else if (type == CL_COMMAND_MARKER && nwait == 0) c->pc.flags = PLAT_CMD_AFTER_ALL;
    cl_event ev = c->ev;
    ocl_retain(ev);   /* ours until the end of this call */
    if (!plat_stream_enqueue(q->ps, &c->pc, deps, nwait)) {
        free(deps);
        plat_event_release(c->pc.event);
        ocl_cmd_free(c);
        if (ocl_release_last(ev)) ocl_free_object(ev);
        return CL_OUT_OF_HOST_MEMORY;
    }
    if (out) ocl_retain(ev), *out = ev;
    cl_int st = blocking ? ocl_wait_events(1, &ev) : CL_SUCCESS;
    if (blocking && st == CL_SUCCESS) st = ocl_queue_take_failure(q);
    if (ocl_release_last(ev)) ocl_free_object(ev);
    return st;
}

/* ---------------- queues ---------------- */

static void queue_free(cl_command_queue q)
{
    cl_context ctx = q->ctx;
    ocl_obj_free(q);
    if (ocl_release_last(ctx)) ocl_free_object(ctx);
}

/* The queue's worker, once a released queue has drained. */
static void queue_ended(void *owner) { queue_free(owner); }

static cl_command_queue new_queue(cl_context ctx, cl_device_id d, cl_command_queue_properties props,
                                  cl_int *errcode_ret)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    if (!d || d != ocl_device()) OCL_ERR(CL_INVALID_DEVICE);
    const cl_command_queue_properties known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE |
                                              CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
    if (props & ~known) OCL_ERR(CL_INVALID_VALUE);
    if (props & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)) OCL_ERR(CL_INVALID_QUEUE_PROPERTIES);
    cl_command_queue q = ocl_obj_alloc(sizeof *q);
    if (!q) OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    q->ctx = ctx, q->props = props;
    ocl_retain(ctx);
    q->ps = plat_stream_create(q, props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE ? PLAT_STREAM_OUT_OF_ORDER : 0);
    if (!q->ps) {
        queue_free(q);
        OCL_ERR(CL_OUT_OF_RESOURCES);
    }
    ocl_register(q, OCL_QUEUE);
    OCL_OK(q);
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context ctx, cl_device_id d,
                                                               cl_command_queue_properties props, cl_int *errcode_ret)
{
    return new_queue(ctx, d, props, errcode_ret);
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context ctx, cl_device_id d,
                                                                             const cl_queue_properties *props,
                                                                             cl_int *errcode_ret)
{
    cl_command_queue_properties p = 0;
    size_t n = 0;
    for (; props && props[n]; n += 2) {
        if (n >= 4) OCL_ERR(CL_INVALID_VALUE);   /* each of the two names at most once */
        if (props[n] == CL_QUEUE_PROPERTIES) p = (cl_command_queue_properties)props[n + 1];
        else if (props[n] == CL_QUEUE_SIZE) OCL_ERR(CL_INVALID_QUEUE_PROPERTIES);   /* device queues only */
        else OCL_ERR(CL_INVALID_VALUE);
    }
    cl_command_queue q = new_queue(ctx, d, p, errcode_ret);
    if (q && props) {   /* CL_QUEUE_PROPERTIES_ARRAY gives back what was given, terminator included */
        memcpy(q->props_array, props, (n + 1) * sizeof *props);
        q->props_array_size = (n + 1) * sizeof *props;
    }
    return q;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue q)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    ocl_retain(q);
    return CL_SUCCESS;
}

/* The last release: the worker finishes what is queued, then frees the queue. */
CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    if (!ocl_release_last(q)) return CL_SUCCESS;
    ocl_unregister(q);
    plat_stream_close(q->ps, queue_ended);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info param, size_t size,
                                                      void *value, size_t *ret)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    switch (param) {
    case CL_QUEUE_CONTEXT: OCL_INFO(cl_context, q->ctx);
    case CL_QUEUE_DEVICE: OCL_INFO(cl_device_id, ocl_device());
    case CL_QUEUE_REFERENCE_COUNT: OCL_INFO(cl_uint, atomic_load(&q->h.refs));
    case CL_QUEUE_PROPERTIES: OCL_INFO(cl_command_queue_properties, q->props);
    case CL_QUEUE_PROPERTIES_ARRAY: return ocl_info(size, value, ret, q->props_array, q->props_array_size);
    case CL_QUEUE_SIZE: return CL_INVALID_COMMAND_QUEUE;   /* a host queue has no size (§5.1) */
    case CL_QUEUE_DEVICE_DEFAULT: OCL_INFO(cl_command_queue, NULL);   /* no device queues */
    default: return CL_INVALID_VALUE;
    }
}

CL_API_ENTRY cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue q, cl_command_queue_properties props,
                                                          cl_bool enable, cl_command_queue_properties *old)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    return CL_INVALID_OPERATION;   /* deprecated in 1.1; properties are fixed at creation */
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue q)
{
    return ocl_valid(q, OCL_QUEUE) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;   /* the engine never holds back */
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue q)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    /* every command queued before this call has completed and been retired */
    plat_stream_wait(q->ps, plat_stream_last(q->ps));
    return ocl_queue_take_failure(q);
}

cl_int ocl_queue_take_failure(cl_command_queue q)
{
    return atomic_exchange(&q->failed, false) ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}

/* ---------------- markers, barriers, waits ---------------- */

static cl_int enqueue_sync(cl_command_queue q, cl_command_type type, cl_uint n, const cl_event *list, cl_event *out)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    cl_int st = ocl_check_wait_list(q, n, list);
    if (st) return st;
    ocl_cmd *c = ocl_cmd_new();
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    /* In order, a marker or barrier without a wait list waits for everything before it anyway. */
    return ocl_enqueue(q, c, type, n, list, out, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n, const cl_event *list,
                                                            cl_event *out)
{
    return enqueue_sync(q, CL_COMMAND_MARKER, n, list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n, const cl_event *list,
                                                             cl_event *out)
{
    return enqueue_sync(q, CL_COMMAND_BARRIER, n, list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue q, cl_event *out)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    if (!out) return CL_INVALID_VALUE;
    return enqueue_sync(q, CL_COMMAND_MARKER, 0, NULL, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue q)
{
    return enqueue_sync(q, CL_COMMAND_BARRIER, 0, NULL, NULL);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue q, cl_uint n, const cl_event *list)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    if (n == 0 || !list) return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < n; i++) {
        if (!ocl_valid(list[i], OCL_EVENT)) return CL_INVALID_EVENT;
        if (list[i]->ctx != q->ctx) return CL_INVALID_CONTEXT;
    }
    return enqueue_sync(q, CL_COMMAND_BARRIER, n, list, NULL);
}
