/* Streams and events on the platform layer's ordered streams (plat_stream).
 *
 * The null stream's rules (HIP's default, "legacy" semantics): a command on the null stream waits
 * for everything enqueued before it on every blocking stream (created without
 * hipStreamNonBlocking), and a command on a blocking stream waits for everything enqueued before
 * it on the null stream. Non-blocking streams order only their own commands. hipStreamPerThread is
 * a blocking stream of the calling thread. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hip_internal.h"

static _Thread_local hipStream_t per_thread_stream;

static pthread_mutex_t clock_lock = PTHREAD_MUTEX_INITIALIZER;

void hip_clock_advance(hip_runtime *rt, uint64_t ns)
{
    pthread_mutex_lock(&clock_lock);
    rt->device_clock += ns;
    pthread_mutex_unlock(&clock_lock);
}

uint64_t hip_clock_now(hip_runtime *rt)
{
    pthread_mutex_lock(&clock_lock);
    uint64_t t = rt->device_clock;
    pthread_mutex_unlock(&clock_lock);
    return t;
}

/* ---------------- commands ---------------- */

static void cmd_run(plat_cmd *pc)
{
    hip_cmd *c = (hip_cmd *)pc;
    c->exec(c);
}

static void cmd_done(plat_cmd *pc)
{
    hip_cmd *c = (hip_cmd *)pc;
    if (c->sync_result) *c->sync_result = c->result;
    if (c->free_payload) c->free_payload(c->payload);
    free(c);
}

hip_cmd *hip_cmd_new(void (*exec)(hip_cmd *), void *payload, void (*free_payload)(void *))
{
    hip_cmd *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->pc.run = cmd_run, c->pc.done = cmd_done;
    c->exec = exec, c->payload = payload, c->free_payload = free_payload;
    return c;
}

static bool is_blocking(const hipStream_t s) { return !s->is_null && !(s->flags & hipStreamNonBlocking); }

/* Enqueue c on s after the null stream's implicit dependencies and, if given, one more; 0 (nothing
 * enqueued) when the extra dependency cannot be recorded. */
static uint64_t enqueue_after(hip_runtime *rt, hipStream_t s, hip_cmd *c, const plat_dep *extra)
{
    c->stream = s;
    uint32_t n = 0, cap = extra ? 1 : 0;
    pthread_mutex_lock(&rt->lock);
    if (s->is_null)
        for (hipStream_t o = rt->streams; o; o = o->next) cap += is_blocking(o);
    else if (is_blocking(s))
        cap++;
    plat_dep *deps = cap ? calloc(cap, sizeof *deps) : NULL;
    if (extra && !deps) {   /* the wait cannot be recorded: the caller reports it */
        pthread_mutex_unlock(&rt->lock);
        return 0;
    }
    for (hipStream_t o = s->is_null ? rt->streams : NULL; o && deps; o = o->next) {
        uint64_t last = is_blocking(o) ? plat_stream_last(o->ps) : 0;
        if (last && !plat_stream_reached(o->ps, last)) deps[n++] = (plat_dep){ .stream = o->ps, .seq = last };
    }
    if (deps && is_blocking(s)) {
        uint64_t last = plat_stream_last(rt->null_stream->ps);
        if (last && !plat_stream_reached(rt->null_stream->ps, last))
            deps[n++] = (plat_dep){ .stream = rt->null_stream->ps, .seq = last };
    }
    if (deps && extra) deps[n++] = *extra;
    if (!n) free(deps), deps = NULL;   /* the worker frees the deps it is given, even an empty array */
    uint64_t seq = plat_stream_enqueue(s->ps, &c->pc, deps, n);
    pthread_mutex_unlock(&rt->lock);
    return seq;
}

uint64_t hip_enqueue(hip_runtime *rt, hipStream_t s, hip_cmd *c) { return enqueue_after(rt, s, c, NULL); }

hipError_t hip_run_sync(hip_runtime *rt, hipStream_t s, hip_cmd *c)
{
    hipError_t result = hipSuccess;
    c->sync_result = &result;
    uint64_t seq = hip_enqueue(rt, s, c);
    plat_stream_wait(s->ps, seq);
    if (result == hipSuccess) result = hip_sticky();
    return result;
}

/* ---------------- streams ---------------- */

static hipStream_t stream_new(hip_runtime *rt, unsigned flags, int priority)
{
    hipStream_t s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->flags = flags, s->priority = priority;
    if (!(s->ps = plat_stream_create(s, 0))) return free(s), NULL;
    plat_stream_set_priority(s->ps, priority);   /* CLR's -1..1 are the platform's levels */
    pthread_mutex_lock(&rt->lock);
    s->next = rt->streams, rt->streams = s;
    pthread_mutex_unlock(&rt->lock);
    return s;
}

hipStream_t hip_stream_resolve(hip_runtime *rt, hipStream_t s)
{
    if (!s) return rt->null_stream;
    if (s == hipStreamPerThread) {
        if (!per_thread_stream) per_thread_stream = stream_new(rt, hipStreamDefault, 0);
        return per_thread_stream;
    }
    pthread_mutex_lock(&rt->lock);
    hipStream_t o = rt->streams;
    while (o && o != s) o = o->next;
    pthread_mutex_unlock(&rt->lock);
    return o;
}

static hipError_t create(hipStream_t *out, unsigned flags, int priority, const char *api)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!out || (flags & ~(unsigned)hipStreamNonBlocking)) return hip_ret(hipErrorInvalidValue);
    hipStream_t s = stream_new(rt, flags, priority);
    if (!s) return hip_fail(hipErrorOutOfMemory, api, "no memory or thread for a stream");
    *out = s;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipStreamCreate(hipStream_t *s) { return create(s, hipStreamDefault, 0, "hipStreamCreate"); }
HIP_EXPORT hipError_t hipStreamCreateWithFlags(hipStream_t *s, unsigned flags) { return create(s, flags, 0, "hipStreamCreateWithFlags"); }
/* CLR's three levels: -1 (high) .. 1 (low), other values clamped to them. When streams contend
 * for the device, the command of the stream with the most urgent priority starts first (the
 * platform's device lock serves waiting streams by priority), as a GPU's dispatcher favours a
 * high-priority queue; a running command is not preempted. */
HIP_EXPORT hipError_t hipStreamCreateWithPriority(hipStream_t *s, unsigned flags, int priority)
{
    int p = priority < HIP_STREAM_PRIORITY_HIGH ? HIP_STREAM_PRIORITY_HIGH
          : priority > HIP_STREAM_PRIORITY_LOW ? HIP_STREAM_PRIORITY_LOW : priority;
    return create(s, flags, p, "hipStreamCreateWithPriority");
}

/* The reported compute units' mask (bit i: unit i of multiProcessorCount, a WGP of two CUs on
 * gfx10+ as CLR reports them) as a mask of the device's CUs. */
static bool device_mask(hip_runtime *rt, hipStream_t s)
{
    uint32_t cus = rt->plat.compute_units, reported = rt->plat.reported_units, per = reported ? cus / reported : 1;
    uint32_t words = (cus + 31) / 32;
    if (!(s->cu_mask_device = calloc(words, sizeof *s->cu_mask_device))) return false;
    s->cu_mask_device_words = words;
    for (uint32_t i = 0; i < reported && i / 32 < s->cu_mask_words; i++)
        if ((s->cu_mask[i / 32] >> (i % 32)) & 1u)
            for (uint32_t c = i * per; c < (i + 1) * per && c < cus; c++) s->cu_mask_device[c / 32] |= 1u << (c % 32);
    return true;
}

/* CLR's rules: a mask that enables none of the device's units is ignored (the stream uses every
 * unit), bits past the last unit are ignored. */
HIP_EXPORT hipError_t hipExtStreamCreateWithCUMask(hipStream_t *stream, uint32_t cuMaskSize, const uint32_t *cuMask)
{
    static const char api[] = "hipExtStreamCreateWithCUMask";
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!stream || !cuMaskSize || !cuMask) return hip_fail(hipErrorInvalidValue, api, "NULL pointer or empty mask");
    uint32_t reported = rt->plat.reported_units, words = (reported + 31) / 32;
    bool any = false;
    for (uint32_t i = 0; i < reported && i / 32 < cuMaskSize; i++) any |= (cuMask[i / 32] >> (i % 32)) & 1u;
    hipStream_t s = stream_new(rt, hipStreamDefault, 0);
    if (!s) return hip_fail(hipErrorOutOfMemory, api, "no memory or thread for a stream");
    if (any) {
        if (!(s->cu_mask = calloc(words, sizeof *s->cu_mask))) return hipStreamDestroy(s), hip_ret(hipErrorOutOfMemory);
        s->cu_mask_words = words;
        for (uint32_t i = 0; i < reported && i / 32 < cuMaskSize; i++)
            if ((cuMask[i / 32] >> (i % 32)) & 1u) s->cu_mask[i / 32] |= 1u << (i % 32);
        if (!device_mask(rt, s)) return hipStreamDestroy(s), hip_ret(hipErrorOutOfMemory);
    }
    *stream = s;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipExtStreamGetCUMask(hipStream_t stream, uint32_t cuMaskSize, uint32_t *cuMask)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!cuMask || !cuMaskSize) return hip_fail(hipErrorInvalidValue, "hipExtStreamGetCUMask", "NULL or empty mask");
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_ret(hipErrorInvalidHandle);
    uint32_t reported = rt->plat.reported_units;
    for (uint32_t w = 0; w < cuMaskSize; w++) {
        uint32_t all = w * 32 >= reported ? 0 : reported - w * 32 >= 32 ? 0xffffffffu : (1u << (reported - w * 32)) - 1;
        cuMask[w] = s->cu_mask ? (w < s->cu_mask_words ? s->cu_mask[w] : 0) : all;
    }
    return hipSuccess;
}

HIP_EXPORT hipError_t hipStreamDestroy(hipStream_t stream)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!stream || stream == hipStreamPerThread) return hip_ret(hipErrorInvalidHandle);
    pthread_mutex_lock(&rt->lock);
    hipStream_t *pp = &rt->streams;
    while (*pp && *pp != stream) pp = &(*pp)->next;
    bool found = *pp != NULL;
    if (found) *pp = stream->next;
    pthread_mutex_unlock(&rt->lock);
    if (!found) return hip_ret(hipErrorInvalidHandle);
    hip_capture_forget_stream(stream);
    plat_stream *ps = stream->ps;
    plat_stream_wait(ps, plat_stream_last(ps));   /* its work completes first, as HIP requires */
    plat_stream_close(ps, NULL);
    free(stream->cu_mask);
    free(stream->cu_mask_device);
    free(stream);
    return hipSuccess;
}

/* Wait for what the streams (every one, or the blocking ones) hold now: positions taken under
 * the lock, waited for without it. */
static void wait_streams(hip_runtime *rt, bool blocking_only)
{
    pthread_mutex_lock(&rt->lock);
    uint32_t n = 0;
    for (hipStream_t o = rt->streams; o; o = o->next) n += !blocking_only || is_blocking(o);
    plat_dep *deps = calloc(n ? n : 1, sizeof *deps);
    n = 0;
    for (hipStream_t o = rt->streams; o && deps; o = o->next)
        if (!blocking_only || is_blocking(o))
            plat_stream_retain(o->ps), deps[n++] = (plat_dep){ .stream = o->ps, .seq = plat_stream_last(o->ps) };
    pthread_mutex_unlock(&rt->lock);
    for (uint32_t i = 0; i < n; i++) {
        plat_stream_wait(deps[i].stream, deps[i].seq);
        plat_stream_release(deps[i].stream);
    }
    free(deps);
}

static hipError_t wait_stream(hip_runtime *rt, hipStream_t s)
{
    plat_stream_wait(s->ps, plat_stream_last(s->ps));
    if (s->is_null) wait_streams(rt, true);   /* the null stream also covers what blocking streams had */
    return hip_sticky();
}

HIP_EXPORT hipError_t hipStreamSynchronize(hipStream_t stream)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_ret(hipErrorInvalidHandle);
    hipError_t e = hip_capture_forbids_sync(s, "hipStreamSynchronize");
    return e ? e : hip_ret(wait_stream(rt, s));
}

hipError_t hip_sync_all(hip_runtime *rt)
{
    wait_stream(rt, rt->null_stream);
    wait_streams(rt, false);
    return hip_sticky();
}

HIP_EXPORT hipError_t hipStreamQuery(hipStream_t stream)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_ret(hipErrorInvalidHandle);
    if (hip_capturing(s)) return hip_fail(hipErrorStreamCaptureUnsupported, "hipStreamQuery", "the stream is capturing");
    return plat_stream_reached(s->ps, plat_stream_last(s->ps)) ? hipSuccess : hipErrorNotReady;
}

HIP_EXPORT hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int *flags)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!flags) return hip_ret(hipErrorInvalidValue);
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_ret(hipErrorInvalidHandle);
    *flags = s->flags;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipStreamGetPriority(hipStream_t stream, int *priority)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!priority) return hip_ret(hipErrorInvalidValue);
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_ret(hipErrorInvalidHandle);
    *priority = s->priority;
    return hipSuccess;
}

HIP_EXPORT int hipGetStreamDeviceId(hipStream_t stream)
{
    hip_runtime *rt = hip_rt();
    return rt && hip_stream_resolve(rt, stream) ? 0 : -1;
}

typedef struct callback_job {
    hipStreamCallback_t fn;
    void *data;
} callback_job;

static void exec_callback(hip_cmd *c)
{
    callback_job *j = c->payload;
    j->fn(c->stream->is_null ? NULL : c->stream, hip_sticky(), j->data);
}

HIP_EXPORT hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void *userData,
                                           unsigned int flags)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!callback || flags) return hip_ret(hipErrorInvalidValue);
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_ret(hipErrorInvalidHandle);
    callback_job *j = malloc(sizeof *j);
    hip_cmd *c = j ? hip_cmd_new(exec_callback, j, free) : NULL;
    if (!c) return free(j), hip_ret(hipErrorOutOfMemory);
    j->fn = callback, j->data = userData;
    if (hip_capturing(s)) return hip_capture_host_cmd(rt, s, c, "hipStreamAddCallback");
    hip_enqueue(rt, s, c);
    return hipSuccess;
}

/* ---------------- events ---------------- */

bool hip_event_valid(hip_runtime *rt, hipEvent_t e)
{
    pthread_mutex_lock(&rt->lock);
    hipEvent_t o = rt->events;
    while (o && o != e) o = o->next;
    pthread_mutex_unlock(&rt->lock);
    return e && o;
}

HIP_EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    const unsigned known = hipEventBlockingSync | hipEventDisableTiming | hipEventInterprocess |
                           hipEventReleaseToDevice | hipEventReleaseToSystem;
    if (!event || (flags & ~known)) return hip_ret(hipErrorInvalidValue);
    if ((flags & hipEventInterprocess) && !(flags & hipEventDisableTiming)) return hip_ret(hipErrorInvalidValue);
    hipEvent_t e = calloc(1, sizeof *e);
    if (!e) return hip_ret(hipErrorOutOfMemory);
    e->flags = flags;
    pthread_mutex_lock(&rt->lock);
    e->next = rt->events, rt->events = e;
    pthread_mutex_unlock(&rt->lock);
    *event = e;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipEventCreate(hipEvent_t *event) { return hipEventCreateWithFlags(event, hipEventDefault); }

HIP_EXPORT hipError_t hipEventDestroy(hipEvent_t event)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    pthread_mutex_lock(&rt->lock);
    hipEvent_t *pp = &rt->events;
    while (*pp && *pp != event) pp = &(*pp)->next;
    bool found = event && *pp;
    if (found) *pp = event->next;
    pthread_mutex_unlock(&rt->lock);
    if (!found) return hip_ret(hipErrorInvalidHandle);
    hip_capture_forget_event(event);
    if (event->ps) {   /* its marker writes into it: let it run first */
        plat_stream_wait(event->ps, event->seq);
        plat_stream_release(event->ps);
    }
    free(event);
    return hipSuccess;
}

typedef struct marker_job {
    hipEvent_t event;
    uint64_t gen;                 /* the record this marker belongs to */
} marker_job;

static void exec_marker(hip_cmd *c)
{
    hip_runtime *rt = hip_rt();
    marker_job *j = c->payload;
    uint64_t t = rt->plat.timing ? hip_clock_now(rt) : plat_host_ns();
    pthread_mutex_lock(&rt->lock);
    if (j->event->gen == j->gen) j->event->time_ns = t;
    pthread_mutex_unlock(&rt->lock);
}

hipError_t hip_event_record(hip_runtime *rt, hipEvent_t e, hipStream_t s, const char *api)
{
    marker_job *j = malloc(sizeof *j);
    hip_cmd *c = j ? hip_cmd_new(exec_marker, j, free) : NULL;
    if (!c) {
        free(j);
        return hip_fail(hipErrorOutOfMemory, api, "no memory for the event's marker");
    }
    j->event = e;
    pthread_mutex_lock(&rt->lock);
    uint64_t gen = j->gen = ++e->gen;   /* j belongs to the worker once enqueued */
    pthread_mutex_unlock(&rt->lock);
    uint64_t seq = hip_enqueue(rt, s, c);
    plat_stream_retain(s->ps);
    pthread_mutex_lock(&rt->lock);
    plat_stream *old = NULL;
    if (e->gen == gen) {
        old = e->ps;
        e->ps = s->ps, e->seq = seq;
    } else {
        old = s->ps;   /* a later record on another thread won */
    }
    pthread_mutex_unlock(&rt->lock);
    if (old) plat_stream_release(old);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!hip_event_valid(rt, event)) return hip_ret(hipErrorInvalidHandle);
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_ret(hipErrorInvalidHandle);
    bool captured = false;
    hipError_t e = hip_capture_event_record(rt, s, event, &captured);
    return captured ? e : hip_event_record(rt, event, s, "hipEventRecord");
}

/* The event's record position (retained stream, or NULL if never recorded). */
static plat_stream *event_position(hip_runtime *rt, hipEvent_t e, uint64_t *seq)
{
    pthread_mutex_lock(&rt->lock);
    plat_stream *ps = e->ps;
    *seq = e->seq;
    if (ps) plat_stream_retain(ps);
    pthread_mutex_unlock(&rt->lock);
    return ps;
}

HIP_EXPORT hipError_t hipEventSynchronize(hipEvent_t event)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!hip_event_valid(rt, event)) return hip_ret(hipErrorInvalidHandle);
    uint64_t seq;
    plat_stream *ps = event_position(rt, event, &seq);
    if (!ps) return hipSuccess;   /* never recorded: nothing to wait for */
    plat_stream_wait(ps, seq);
    plat_stream_release(ps);
    return hip_ret(hip_sticky());
}

HIP_EXPORT hipError_t hipEventQuery(hipEvent_t event)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!hip_event_valid(rt, event)) return hip_ret(hipErrorInvalidHandle);
    uint64_t seq;
    plat_stream *ps = event_position(rt, event, &seq);
    if (!ps) return hipSuccess;
    bool done = plat_stream_reached(ps, seq);
    plat_stream_release(ps);
    return done ? hipSuccess : hipErrorNotReady;
}

HIP_EXPORT hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!ms) return hip_ret(hipErrorInvalidValue);
    if (!hip_event_valid(rt, start) || !hip_event_valid(rt, stop)) return hip_ret(hipErrorInvalidHandle);
    if ((start->flags | stop->flags) & hipEventDisableTiming) return hip_ret(hipErrorInvalidHandle);
    uint64_t s1, s2;
    plat_stream *p1 = event_position(rt, start, &s1), *p2 = event_position(rt, stop, &s2);
    hipError_t e = hipSuccess;
    if (!p1 || !p2) e = hipErrorInvalidHandle;   /* not recorded */
    else if (!plat_stream_reached(p1, s1) || !plat_stream_reached(p2, s2)) e = hipErrorNotReady;
    if (p1) plat_stream_release(p1);
    if (p2) plat_stream_release(p2);
    if (e) return hip_ret(e);
    pthread_mutex_lock(&rt->lock);
    double d = (double)stop->time_ns - (double)start->time_ns;
    pthread_mutex_unlock(&rt->lock);
    *ms = (float)(d / 1e6);
    return hipSuccess;
}

static void exec_nothing(hip_cmd *c) { (void)c; }

hipError_t hip_stream_wait_position(hip_runtime *rt, hipStream_t s, plat_stream *ps, uint64_t seq)
{
    hip_cmd *c = hip_cmd_new(exec_nothing, NULL, NULL);
    if (!c) return hip_ret(hipErrorOutOfMemory);
    bool queued = enqueue_after(rt, s, c, &(plat_dep){ .stream = ps, .seq = seq }) != 0;   /* retains ps */
    if (!queued) free(c);
    return queued ? hipSuccess : hip_ret(hipErrorOutOfMemory);
}

hipError_t hip_stream_wait_event(hip_runtime *rt, hipStream_t s, hipEvent_t e)
{
    uint64_t seq;
    plat_stream *ps = event_position(rt, e, &seq);
    if (!ps) return hipSuccess;   /* never recorded: no dependency */
    hipError_t r = hip_stream_wait_position(rt, s, ps, seq);
    plat_stream_release(ps);
    return r;
}

HIP_EXPORT hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (flags) return hip_ret(hipErrorInvalidValue);
    if (!hip_event_valid(rt, event)) return hip_ret(hipErrorInvalidHandle);
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_ret(hipErrorInvalidHandle);
    bool captured = false;
    hipError_t e = hip_capture_wait_event(rt, s, event, &captured);
    return captured ? e : hip_stream_wait_event(rt, s, event);
}

/* ---------------- stream memory operations ---------------- */

/* hipStreamWriteValue* / hipStreamWaitValue*: a 4- or 8-byte word of memory the runtime gave out
 * (device memory, or pinned, registered or managed host memory), written or watched in stream
 * order. A wait polls the word (through the device lock for device memory, so a kernel that runs
 * holds it off until it ends) with a sleep that grows to a millisecond; like the GPU's, it waits
 * for as long as the condition does not hold. */
typedef struct memop_job {
    uint8_t *ptr;
    uint64_t value, mask;
    unsigned width;               /* 4 or 8 */
    unsigned cond;                /* hipStreamWaitValue*; UINT32_MAX: a write */
} memop_job;

static uint64_t memop_read(hip_runtime *rt, const memop_job *j)
{
    uint64_t v = 0;
    if (hip_in_device_heap(rt, j->ptr)) {
        plat_from_device(&rt->plat, (uint64_t)(uintptr_t)j->ptr, &v, j->width);
    } else if (j->width == 8) {
        v = __atomic_load_n((uint64_t *)j->ptr, __ATOMIC_ACQUIRE);
    } else {
        v = __atomic_load_n((uint32_t *)j->ptr, __ATOMIC_ACQUIRE);
    }
    return v;
}

static bool memop_holds(const memop_job *j, uint64_t v)
{
    uint64_t m = v & j->mask;
    switch (j->cond) {
    case hipStreamWaitValueGte: return m >= j->value;
    case hipStreamWaitValueEq: return m == j->value;
    case hipStreamWaitValueAnd: return (m & j->value) != 0;
    default: return (~(m | (j->value & j->mask)) & (j->width == 4 ? 0xffffffffu : UINT64_MAX)) != 0;   /* Nor */
    }
}

static void exec_memop(hip_cmd *c)
{
    hip_runtime *rt = hip_rt();
    const memop_job *j = c->payload;
    if (j->cond == UINT32_MAX) {
        if (hip_in_device_heap(rt, j->ptr)) plat_to_device(&rt->plat, (uint64_t)(uintptr_t)j->ptr, &j->value, j->width);
        else if (j->width == 8) __atomic_store_n((uint64_t *)j->ptr, j->value, __ATOMIC_RELEASE);
        else __atomic_store_n((uint32_t *)j->ptr, (uint32_t)j->value, __ATOMIC_RELEASE);
        return;
    }
    long ns = 20000;
    while (!memop_holds(j, memop_read(rt, j))) {
        nanosleep(&(struct timespec){ 0, ns }, NULL);
        if (ns < 1000000) ns *= 2;
    }
}

static hipError_t memop(hipStream_t stream, void *ptr, uint64_t value, uint64_t mask, unsigned width, unsigned cond,
                        const char *api)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hip_ret(hipErrorNoDevice);
    if (!ptr || (uintptr_t)ptr % width) return hip_fail(hipErrorInvalidValue, api, "%p is NULL or not %u-byte aligned", ptr, width);
    if (cond != UINT32_MAX && cond > hipStreamWaitValueNor) return hip_fail(hipErrorInvalidValue, api, "flags %u", cond);
    if (hip_pageable_host(rt, ptr) || hip_alloc_room(rt, ptr) < width)
        return hip_fail(hipErrorInvalidValue, api, "%p is not memory the runtime gave out", ptr);
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_ret(hipErrorInvalidHandle);
    if (hip_capturing(s))
        return hip_fail(hipErrorStreamCaptureUnsupported, api, "stream memory operations cannot be captured");
    memop_job *j = malloc(sizeof *j);
    hip_cmd *c = j ? hip_cmd_new(exec_memop, j, free) : NULL;
    if (!c) return free(j), hip_ret(hipErrorOutOfMemory);
    *j = (memop_job){ .ptr = ptr, .value = value, .mask = mask, .width = width, .cond = cond };
    hip_enqueue(rt, s, c);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipStreamWaitValue32(hipStream_t stream, void *ptr, uint32_t value, unsigned int flags, uint32_t mask)
{
    return memop(stream, ptr, value, mask, 4, flags, "hipStreamWaitValue32");
}

HIP_EXPORT hipError_t hipStreamWaitValue64(hipStream_t stream, void *ptr, uint64_t value, unsigned int flags, uint64_t mask)
{
    return memop(stream, ptr, value, mask, 8, flags, "hipStreamWaitValue64");
}

HIP_EXPORT hipError_t hipStreamWriteValue32(hipStream_t stream, void *ptr, uint32_t value, unsigned int flags)
{
    (void)flags;   /* reserved */
    return memop(stream, ptr, value, UINT64_MAX, 4, UINT32_MAX, "hipStreamWriteValue32");
}

HIP_EXPORT hipError_t hipStreamWriteValue64(hipStream_t stream, void *ptr, uint64_t value, unsigned int flags)
{
    (void)flags;
    return memop(stream, ptr, value, UINT64_MAX, 8, UINT32_MAX, "hipStreamWriteValue64");
}
