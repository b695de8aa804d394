/* Command streams on worker threads, and the events their commands set and depend on: the queue
 * engine of HIP streams and OpenCL command queues (see platform.h). */
#include <stdlib.h>
#include <string.h>

#include "platform.h"

struct plat_event {
    int status;                   /* under the lock */
    bool finishing;               /* a final status is being stamped: it is taken */
    unsigned refs;                /* under the lock */
    const plat_event_hooks *hooks;
    void *owner;
};

struct plat_stream {
    void *owner;
    unsigned flags;               /* PLAT_STREAM_* */
    plat_cmd *head, *tail;        /* waiting commands, oldest first */
    plat_event *running;          /* the event of the command the worker has taken, until done */
    plat_event *fence;            /* out of order: the last PLAT_CMD_FENCE command's event */
    uint64_t enqueued, completed;
    unsigned refs;                /* under the lock */
    bool closing;
    void (*ended)(void *owner);
    int priority;                 /* PLAT_PRIORITY_*: the worker's turn for the device */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;

/* ---------------- events ---------------- */

static bool final(int status) { return status <= PLAT_COMPLETE; }

plat_event *plat_event_create(int status, const plat_event_hooks *hooks, void *owner)
{
    plat_event *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->status = status, e->hooks = hooks, e->owner = owner;
    e->refs = 1;
    return e;
}

void *plat_event_owner(const plat_event *e) { return e->owner; }

static void event_release_locked(plat_event *e)
{
    if (--e->refs == 0) free(e);
}

void plat_event_retain(plat_event *e)
{
    pthread_mutex_lock(&lock);
    e->refs++;
    pthread_mutex_unlock(&lock);
}

void plat_event_release(plat_event *e)
{
    pthread_mutex_lock(&lock);
    event_release_locked(e);
    pthread_mutex_unlock(&lock);
}

int plat_event_status(plat_event *e)
{
    pthread_mutex_lock(&lock);
    int s = e->status;
    pthread_mutex_unlock(&lock);
    return s;
}

/* The change itself: stamp, publish, notify. The caller owns the change (the event's worker, or
 * the host that claimed a final status). */
static void change(plat_event *e, int status)
{
    const plat_event_hooks *h = e->hooks;
    if (h && h->stamp) h->stamp(e, status);
    pthread_mutex_lock(&lock);
    e->status = status;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    if (h && h->notify) h->notify(e, status);
}

bool plat_event_set(plat_event *e, int status)
{
    pthread_mutex_lock(&lock);
    bool taken = final(e->status) || e->finishing;
    if (!taken && final(status)) e->finishing = true;
    pthread_mutex_unlock(&lock);
    if (taken) return false;
    change(e, status);
    return true;
}

int plat_event_wait(plat_event *e)
{
    pthread_mutex_lock(&lock);
    while (!final(e->status)) pthread_cond_wait(&changed, &lock);
    int s = e->status;
    pthread_mutex_unlock(&lock);
    return s;
}

/* ---------------- streams ---------------- */

static void release_locked(plat_stream *s)
{
    if (--s->refs == 0) free(s);
}

void plat_stream_retain(plat_stream *s)
{
    pthread_mutex_lock(&lock);
    s->refs++;
    pthread_mutex_unlock(&lock);
}

void plat_stream_release(plat_stream *s)
{
    pthread_mutex_lock(&lock);
    release_locked(s);
    pthread_mutex_unlock(&lock);
}


/* Caller holds the lock. */
static bool dep_holds(const plat_dep *d)
{
    return d->event ? final(d->event->status) : d->stream->completed >= d->seq;
}

static bool ready(const plat_cmd *c)
{
    for (uint32_t i = 0; i < c->ndeps; i++)
        if (!dep_holds(&c->deps[i])) return false;
    return true;
}

/* The next command to run, unlinked: in order the head once it is ready, out of order the oldest
 * ready one. Caller holds the lock. */
static plat_cmd *take_ready(plat_stream *s)
{
    bool in_order = !(s->flags & PLAT_STREAM_OUT_OF_ORDER);
    for (plat_cmd **pp = &s->head, *prev = NULL; *pp; prev = *pp, pp = &(*pp)->next) {
        plat_cmd *c = *pp;
        if (ready(c)) {
            *pp = c->next;
            if (s->tail == c) s->tail = prev;
            c->next = NULL;
            return c;
        }
        if (in_order) break;
    }
    return NULL;
}

/* Drop the command's dependencies; true if one of them is a failed event. Caller holds the lock. */
static bool drop_deps(plat_cmd *c)
{
    bool failed = false;
    for (uint32_t i = 0; i < c->ndeps; i++) {
        plat_dep *d = &c->deps[i];
        if (d->event) {
            failed |= d->event->status < 0;
            event_release_locked(d->event);
        } else {
            release_locked(d->stream);
        }
    }
    free(c->deps);
    c->deps = NULL, c->ndeps = 0;
    return failed;
}

static void *worker(void *arg)
{
    plat_stream *s = arg;
    pthread_mutex_lock(&lock);
    for (;;) {
        plat_cmd *c = take_ready(s);
        if (!c) {
            if (s->closing && !s->head) break;
            pthread_cond_wait(&changed, &lock);
            continue;
        }
        bool failed = drop_deps(c);
        plat_event *ev = c->event;
        int priority = s->priority;
        s->running = ev;
        pthread_mutex_unlock(&lock);

        if (ev) change(ev, PLAT_SUBMITTED), change(ev, PLAT_RUNNING);
        plat_set_thread_priority(priority);
        c->status = failed ? PLAT_DEPENDENCY_FAILED : PLAT_COMPLETE;
        if (!failed) c->run(c);
        if (ev) change(ev, c->status);
        if (c->done) c->done(c);
        else free(c);

        pthread_mutex_lock(&lock);
        s->running = NULL;
        s->completed = (s->head ? s->head->seq : s->enqueued + 1) - 1;
        if (ev) event_release_locked(ev);
        pthread_cond_broadcast(&changed);
    }
    void (*ended)(void *) = s->ended;
    void *owner = s->owner;
    pthread_mutex_unlock(&lock);
    if (ended) ended(owner);
    plat_stream_release(s);   /* the worker's reference */
    return NULL;
}

void plat_stream_set_priority(plat_stream *s, int priority)
{
    pthread_mutex_lock(&lock);
    s->priority = priority;
    pthread_mutex_unlock(&lock);
}

plat_stream *plat_stream_create(void *owner, unsigned flags)
{
    plat_stream *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->owner = owner, s->flags = flags;
    s->refs = 2;   /* the creator's and the worker's */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t t;
    int err = pthread_create(&t, &attr, worker, s);
    pthread_attr_destroy(&attr);
    if (err) {
        free(s);
        return NULL;
    }
    return s;
}

void plat_stream_close(plat_stream *s, void (*ended)(void *owner))
{
    pthread_mutex_lock(&lock);
    s->closing = true, s->ended = ended;
    if (s->fence) event_release_locked(s->fence), s->fence = NULL;
    pthread_cond_broadcast(&changed);
    release_locked(s);
    pthread_mutex_unlock(&lock);
}

/* Out of order: the events c waits for besides its own dependencies (the last fence; with
 * PLAT_CMD_AFTER_ALL every command not complete yet), appended to its deps. Caller holds the lock. */
static bool add_implicit_deps(plat_stream *s, plat_cmd *c, plat_dep **deps, uint32_t *ndeps)
{
    size_t extra = s->fence != NULL;
    if (c->flags & PLAT_CMD_AFTER_ALL) {
        extra += s->running != NULL;
        for (plat_cmd *p = s->head; p; p = p->next) extra++;
    }
    if (!extra) return true;
    /* with no dependencies of its own the caller keeps its array */
    plat_dep *d = *ndeps ? realloc(*deps, (*ndeps + extra) * sizeof *d) : malloc(extra * sizeof *d);
    if (!d) return false;
    *deps = d;
    uint32_t n = *ndeps;
    if (s->fence) d[n++] = (plat_dep){ .event = s->fence };
    if (c->flags & PLAT_CMD_AFTER_ALL) {
        if (s->running && !final(s->running->status)) d[n++] = (plat_dep){ .event = s->running };
        for (plat_cmd *p = s->head; p; p = p->next)
            if (!final(p->event->status)) d[n++] = (plat_dep){ .event = p->event };
    }
    *ndeps = n;
    return true;
}

uint64_t plat_stream_enqueue(plat_stream *s, plat_cmd *c, plat_dep *deps, uint32_t ndeps)
{
    bool ooo = s->flags & PLAT_STREAM_OUT_OF_ORDER;
    plat_event *made = NULL;
    if (ooo && !c->event && !(c->event = made = plat_event_create(PLAT_QUEUED, NULL, NULL))) return 0;
    pthread_mutex_lock(&lock);
    if (ooo && !add_implicit_deps(s, c, &deps, &ndeps)) {
        pthread_mutex_unlock(&lock);
        if (made) free(made), c->event = NULL;
        return 0;
    }
    for (uint32_t i = 0; i < ndeps; i++) {
        if (deps[i].event) deps[i].event->refs++;
        else deps[i].stream->refs++;
    }
    if (ooo && (c->flags & PLAT_CMD_FENCE)) {
        if (s->fence) event_release_locked(s->fence);
        s->fence = c->event;
        s->fence->refs++;
    }
    c->deps = ndeps ? deps : NULL, c->ndeps = ndeps;
    c->next = NULL;
    uint64_t seq = c->seq = ++s->enqueued;
    if (s->tail) s->tail->next = c;
    else s->head = c;
    s->tail = c;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    return seq;   /* c is the worker's now: it may be gone already */
}

uint64_t plat_stream_last(plat_stream *s)
{
    pthread_mutex_lock(&lock);
    uint64_t n = s->enqueued;
    pthread_mutex_unlock(&lock);
    return n;
}

bool plat_stream_reached(plat_stream *s, uint64_t seq)
{
    pthread_mutex_lock(&lock);
    bool r = s->completed >= seq;
    pthread_mutex_unlock(&lock);
    return r;
}

void plat_stream_wait(plat_stream *s, uint64_t seq)
{
    pthread_mutex_lock(&lock);
    while (s->completed < seq) pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
}
