/* Ordered command streams, each run by a worker thread (see platform.h). */
#include <stdlib.h>

#include "platform.h"

struct plat_stream {
    void *owner;
    plat_cmd *head, *tail;
    uint64_t enqueued, completed;
    unsigned refs;                /* under the lock */
    bool closing;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static _Thread_local bool on_worker;

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

void *plat_stream_owner(const plat_stream *s) { return s->owner; }
bool plat_stream_on_worker(void) { return on_worker; }

static plat_cmd *next_command(plat_stream *s)
{
    pthread_mutex_lock(&lock);
    while (!s->head && !s->closing) pthread_cond_wait(&changed, &lock);
    plat_cmd *c = s->head;
    if (c) {
        s->head = c->next;
        if (!s->head) s->tail = NULL;
    }
    pthread_mutex_unlock(&lock);
    return c;
}

static void wait_deps(plat_cmd *c)
{
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < c->ndeps; i++) {
        plat_dep *d = &c->deps[i];
        while (d->stream->completed < d->seq) pthread_cond_wait(&changed, &lock);
        release_locked(d->stream);
    }
    pthread_mutex_unlock(&lock);
    free(c->deps);
    c->deps = NULL, c->ndeps = 0;
}

static void *worker(void *arg)
{
    plat_stream *s = arg;
    on_worker = true;
    for (plat_cmd *c; (c = next_command(s));) {
        wait_deps(c);
        c->run(c);
        uint64_t seq = c->seq;
        if (c->done) c->done(c);
        else free(c);
        pthread_mutex_lock(&lock);
        s->completed = seq;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&lock);
    }
    plat_stream_release(s);   /* the worker's reference */
    return NULL;
}

plat_stream *plat_stream_create(void *owner)
{
    plat_stream *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->owner = owner;
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

void plat_stream_close(plat_stream *s)
{
    pthread_mutex_lock(&lock);
    s->closing = true;
    pthread_cond_broadcast(&changed);
    release_locked(s);
    pthread_mutex_unlock(&lock);
}

uint64_t plat_stream_enqueue(plat_stream *s, plat_cmd *c, plat_dep *deps, uint32_t ndeps)
{
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < ndeps; i++) deps[i].stream->refs++;
    c->deps = deps, c->ndeps = ndeps;
    c->next = NULL;
    uint64_t seq = c->seq = ++s->enqueued;   /* not c->seq after the unlock: the worker may have freed c */
    if (s->tail) s->tail->next = c;
    else s->head = c;
    s->tail = c;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    return seq;
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
