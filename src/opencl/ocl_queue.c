/* Command queues (a worker thread each), commands, events, user events, markers and barriers. */
#include <stdlib.h>
#include <string.h>

#include "ocl.h"

/* ---------------- events ---------------- */

cl_event ocl_event_new(cl_context ctx, cl_command_queue q, cl_command_type type)
{
    cl_event ev = ocl_obj_alloc(sizeof *ev);
    if (!ev) return NULL;
    ev->ctx = ctx, ev->queue = q, ev->type = type;
    ev->status = q ? CL_QUEUED : CL_SUBMITTED;
    ev->profiling = q && (q->props & CL_QUEUE_PROFILING_ENABLE);
    ocl_retain(ctx);
    ocl_register(ev, OCL_EVENT);
    if (ev->profiling) ev->times[0] = ocl_profile_time(ev, CL_PROFILING_COMMAND_QUEUED);
    return ev;
}

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

void ocl_event_set_status(cl_event ev, cl_int status)
{
    if (status <= CL_COMPLETE) flush_printf(ev);
    pthread_mutex_lock(&ocl_lock);
    if (ev->profiling) {
        cl_ulong now = ocl_profile_time(ev, status == CL_SUBMITTED ? CL_PROFILING_COMMAND_SUBMIT
                                            : status == CL_RUNNING ? CL_PROFILING_COMMAND_START
                                                                   : CL_PROFILING_COMMAND_END);
        if (status == CL_SUBMITTED) ev->times[1] = now;
        else if (status == CL_RUNNING) ev->times[2] = now;
        else ev->times[3] = now;
    }
    ev->status = status;
    ocl_event_callback *due = take_callbacks(ev, status);
    pthread_cond_broadcast(&ocl_cond);
    pthread_mutex_unlock(&ocl_lock);
    run_callbacks(ev, due, status);
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event ev, cl_event_info param, size_t size, void *value,
                                               size_t *ret)
{
    if (!ocl_valid(ev, OCL_EVENT)) return CL_INVALID_EVENT;
    switch (param) {
    case CL_EVENT_COMMAND_QUEUE: OCL_INFO(cl_command_queue, ev->queue);
    case CL_EVENT_CONTEXT: OCL_INFO(cl_context, ev->ctx);
    case CL_EVENT_COMMAND_TYPE: OCL_INFO(cl_command_type, ev->type);
    case CL_EVENT_REFERENCE_COUNT: OCL_INFO(cl_uint, atomic_load(&ev->h.refs));
    case CL_EVENT_COMMAND_EXECUTION_STATUS: {
        pthread_mutex_lock(&ocl_lock);
        cl_int s = ev->status;
        pthread_mutex_unlock(&ocl_lock);
        OCL_INFO(cl_int, s);
    }
    default: return CL_INVALID_VALUE;
    }
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event ev, cl_profiling_info param, size_t size,
                                                        void *value, size_t *ret)
{
    if (!ocl_valid(ev, OCL_EVENT)) return CL_INVALID_EVENT;
    pthread_mutex_lock(&ocl_lock);
    bool avail = ev->profiling && ev->status == CL_COMPLETE;
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
    pthread_mutex_lock(&ocl_lock);
    bool already = ev->status <= CL_COMPLETE;
    pthread_mutex_unlock(&ocl_lock);
    if (already) return CL_INVALID_OPERATION;
    ocl_event_set_status(ev, status);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event ev, cl_int on, void (CL_CALLBACK *fn)(cl_event, cl_int, void *),
                                                   void *data)
{
    if (!ocl_valid(ev, OCL_EVENT)) return CL_INVALID_EVENT;
    if (!fn || (on != CL_SUBMITTED && on != CL_RUNNING && on != CL_COMPLETE)) return CL_INVALID_VALUE;
    ocl_event_callback *c = calloc(1, sizeof *c);
    if (!c) return CL_OUT_OF_HOST_MEMORY;
    c->on = on, c->fn = fn, c->data = data;
    pthread_mutex_lock(&ocl_lock);
    cl_int status = ev->status;
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
    pthread_mutex_lock(&ocl_lock);
    for (cl_uint i = 0; i < n; i++) {
        while (list[i]->status > CL_COMPLETE) pthread_cond_wait(&ocl_cond, &ocl_lock);
        if (list[i]->status < 0) st = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    }
    pthread_mutex_unlock(&ocl_lock);
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

/* ---------------- commands and the worker ---------------- */

ocl_cmd *ocl_cmd_new(void) { return calloc(1, sizeof(ocl_cmd)); }

void ocl_cmd_free(ocl_cmd *c)
{
    if (c->done) c->done(c);
    for (int i = 0; i < 2; i++)
        if (c->mem[i] && ocl_release_last(c->mem[i])) ocl_free_object(c->mem[i]);
    if (c->kernel && ocl_release_last(c->kernel)) ocl_free_object(c->kernel);
    for (cl_uint i = 0; i < c->nwait; i++)
        if (ocl_release_last(c->wait[i])) ocl_free_object(c->wait[i]);
    free(c->wait);
    if (c->ev && ocl_release_last(c->ev)) ocl_free_object(c->ev);
    free(c);
}

/* Caller holds ocl_lock. */
static bool deps_complete(const ocl_cmd *c)
{
    for (cl_uint i = 0; i < c->nwait; i++)
        if (c->wait[i]->status > CL_COMPLETE) return false;
    return true;
}

static bool deps_failed(const ocl_cmd *c)
{
    for (cl_uint i = 0; i < c->nwait; i++)
        if (c->wait[i]->status < 0) return true;
    return false;
}

/* The next command to run, unlinked: in order, the head once its wait list completed; out of
 * order, the first whose wait list completed. Caller holds ocl_lock. */
static ocl_cmd *take_ready(cl_command_queue q)
{
    bool in_order = !(q->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    for (ocl_cmd **pp = &q->head, *prev = NULL; *pp; prev = *pp, pp = &(*pp)->next) {
        ocl_cmd *c = *pp;
        if (deps_complete(c)) {
            *pp = c->next;
            if (q->tail == c) q->tail = prev;
            c->next = NULL;
            return c;
        }
        if (in_order) break;
    }
    return NULL;
}

static void queue_free(cl_command_queue q)
{
    if (q->barrier && ocl_release_last(q->barrier)) ocl_free_object(q->barrier);
    cl_context ctx = q->ctx;
    ocl_obj_free(q);
    if (ocl_release_last(ctx)) ocl_free_object(ctx);
}

static void *worker(void *arg)
{
    cl_command_queue q = arg;
    pthread_mutex_lock(&ocl_lock);
    for (;;) {
        ocl_cmd *c = take_ready(q);
        if (!c) {
            if (q->closing && !q->head) break;
            pthread_cond_wait(&ocl_cond, &ocl_lock);
            continue;
        }
        q->running = c;
        bool failed = deps_failed(c);
        pthread_mutex_unlock(&ocl_lock);
        ocl_event_set_status(c->ev, CL_SUBMITTED);
        ocl_event_set_status(c->ev, CL_RUNNING);
        cl_int st = failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : c->run ? c->run(c) : CL_COMPLETE;
        ocl_timing_command_done(c, !failed);
        ocl_event_set_status(c->ev, st);
        /* clFinish returns only once the command's references are dropped, so that objects the
         * program released before are gone when it returns */
        pthread_mutex_lock(&ocl_lock);
        q->running = NULL, q->retiring = true;
        pthread_mutex_unlock(&ocl_lock);
        ocl_cmd_free(c);
        pthread_mutex_lock(&ocl_lock);
        q->retiring = false;
        pthread_cond_broadcast(&ocl_cond);
    }
    pthread_mutex_unlock(&ocl_lock);
    queue_free(q);
    return NULL;
}

cl_int ocl_check_wait_list(cl_command_queue q, cl_uint n, const cl_event *list)
{
    if ((n == 0) != (list == NULL)) return CL_INVALID_EVENT_WAIT_LIST;
    for (cl_uint i = 0; i < n; i++) {
        if (!ocl_valid(list[i], OCL_EVENT)) return CL_INVALID_EVENT_WAIT_LIST;
        if (list[i]->ctx != q->ctx) return CL_INVALID_CONTEXT;
    }
    return CL_SUCCESS;
}

/* Out of order, a barrier (or a marker without a wait list) waits for every command queued before it. */
static cl_int gather_queue_events(cl_command_queue q, ocl_cmd *c)
{
    size_t n = q->running != NULL;
    for (ocl_cmd *p = q->head; p; p = p->next) n++;
    cl_event *w = realloc(c->wait, (c->nwait + n) * sizeof *w);
    if (!w && n) return CL_OUT_OF_HOST_MEMORY;
    if (n) c->wait = w;
    if (q->running) ocl_retain(q->running->ev), c->wait[c->nwait++] = q->running->ev;
    for (ocl_cmd *p = q->head; p; p = p->next) ocl_retain(p->ev), c->wait[c->nwait++] = p->ev;
    return CL_SUCCESS;
}

static cl_int copy_wait_list(ocl_cmd *c, cl_uint nwait, const cl_event *wait, cl_event extra)
{
    c->wait = calloc((size_t)nwait + 1, sizeof *c->wait);
    if (!c->wait) return CL_OUT_OF_HOST_MEMORY;
    for (cl_uint i = 0; i < nwait; i++) ocl_retain(wait[i]), c->wait[c->nwait++] = wait[i];
    if (extra) ocl_retain(extra), c->wait[c->nwait++] = extra;
    return CL_SUCCESS;
}

cl_int ocl_enqueue(cl_command_queue q, ocl_cmd *c, cl_command_type type, cl_uint nwait, const cl_event *wait,
                   cl_event *out, bool blocking)
{
    c->ev = ocl_event_new(q->ctx, q, type);
    bool ooo = q->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    bool is_barrier = type == CL_COMMAND_BARRIER || (type == CL_COMMAND_MARKER && nwait == 0);
    pthread_mutex_lock(&ocl_lock);
    cl_int st = c->ev ? copy_wait_list(c, nwait, wait, ooo ? q->barrier : NULL) : CL_OUT_OF_HOST_MEMORY;
    if (!st && ooo && is_barrier) st = gather_queue_events(q, c);
    if (st) {
        pthread_mutex_unlock(&ocl_lock);
        ocl_cmd_free(c);
        return st;
    }
    if (ooo && type == CL_COMMAND_BARRIER) {
        if (q->barrier && ocl_release_last(q->barrier)) ocl_free_object(q->barrier);
        ocl_retain(c->ev), q->barrier = c->ev;
    }
    cl_event ev = c->ev;
    ocl_retain(ev);   /* ours until the end of this call */
    if (q->tail) q->tail->next = c;
    else q->head = c;
    q->tail = c;
    pthread_cond_broadcast(&ocl_cond);
    pthread_mutex_unlock(&ocl_lock);
    if (out) ocl_retain(ev), *out = ev;
    st = blocking ? ocl_wait_events(1, &ev) : CL_SUCCESS;
    if (ocl_release_last(ev)) ocl_free_object(ev);
    return st;
}

/* ---------------- queues ---------------- */

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
    ocl_register(q, OCL_QUEUE);
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &attr, worker, q);
    pthread_attr_destroy(&attr);
    if (rc) {
        ocl_unregister(q);
        queue_free(q);
        OCL_ERR(CL_OUT_OF_RESOURCES);
    }
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
    for (size_t i = 0; props && props[i]; i += 2) {
        if (props[i] == CL_QUEUE_PROPERTIES) p = (cl_command_queue_properties)props[i + 1];
        else if (props[i] == CL_QUEUE_SIZE) OCL_ERR(CL_INVALID_QUEUE_PROPERTIES);
        else OCL_ERR(CL_INVALID_VALUE);
    }
    return new_queue(ctx, d, p, errcode_ret);
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
    pthread_mutex_lock(&ocl_lock);
    q->closing = true;
    pthread_cond_broadcast(&ocl_cond);
    pthread_mutex_unlock(&ocl_lock);
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
    return ocl_valid(q, OCL_QUEUE) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;   /* the worker never idles */
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue q)
{
    if (!ocl_valid(q, OCL_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
    pthread_mutex_lock(&ocl_lock);
    while (q->head || q->running || q->retiring) pthread_cond_wait(&ocl_cond, &ocl_lock);
    pthread_mutex_unlock(&ocl_lock);
    return CL_SUCCESS;
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
