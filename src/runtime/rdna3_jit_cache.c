/* The device's translations: memory and disk caches of translated kernels (rdna3_jit_cache.h). */
#include "runtime/rdna3_jit_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if UMBRA_HAVE_JIT

#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "core/file_cache.h"
#include "jit/jit.h"
#include "umbra/device.h"
#include "umbra/umbra.h"

/* Translations kept linked per device; past it the least recently used one no launch runs is
 * freed (a CTS-style run with --jit always translates thousands of small programs). */
#define JIT_MAX_OBJS 256u
/* Places code was launched from, remembered for `auto`'s counts and the memory lookup. */
#define JIT_MAX_SITES 4096u

/* One translation: linked into the device's JIT, or being made on the translator thread, or
 * failed. */
typedef struct jit_obj {
    umb_hash128 key;
    umb_jit_unit *unit;
    rdna3_jit_code code;
    _Atomic(const rdna3_jit_code *) published;   /* &code once it can run; launches' tickets */
    rdna3_inst *recs;           /* owned; code.recs */
    uint32_t insts, inlined;
    uint32_t refs;              /* launches holding it */
    uint64_t last_use;
    bool pending;               /* queued for or on the translator thread */
    bool failed;                /* the translator thread could not make it (err) */
    char err[256];
    /* the translator thread's job */
    rdna3_jit_plan plan;
    unsigned wave_size;
    bool inline_ok;
    char disk[PATH_MAX];        /* "" or the disk entry to write */
    struct jit_obj *next_job;
} jit_obj;

/* Where code was launched from, and what it was translated from there. */
typedef struct jit_site {
    uint64_t code_base, code_size, entry_pc;
    unsigned wave_size;
    bool inline_ok;
    uint64_t work;              /* wave-instructions run interpreted from here (auto's count) */
    uint64_t last_use;
    jit_obj *obj;               /* NULL until translated */
    uint64_t span_lo, span_len; /* code offsets the translation's instructions cover */
    uint8_t *span;              /* their bytes when it was made */
} jit_site;

typedef struct rdna3_jit_cache {
    pthread_mutex_t lock;
    umb_jit *jit;               /* created on the first translation */
    jit_obj **objs;
    size_t nobjs, capobjs;
    jit_site *sites;
    size_t nsites, capsites;
    uint64_t tick;
    /* the translator thread (started with the first background translation) */
    pthread_t worker;
    bool worker_started, stopping;
    pthread_cond_t work;
    jit_obj *jobs, *jobs_tail;
    umb_hash128 build;          /* umbra's binary and the host (disk keys) */
    bool build_known;           /* false: no disk cache (umbra's own file could not be named) */
} rdna3_jit_cache;

static void obj_free(rdna3_jit_cache *c, jit_obj *o)
{
    umb_jit_remove(c->jit, o->unit);
    rdna3_jit_plan_free(&o->plan);
    free(o->recs);
    free(o);
}

static void cache_release(void *p)
{
    rdna3_jit_cache *c = p;
    if (c->worker_started) {   /* the device is going: no launch waits for a translation */
        pthread_mutex_lock(&c->lock);
        c->stopping = true;
        pthread_cond_signal(&c->work);
        pthread_mutex_unlock(&c->lock);
        pthread_join(c->worker, NULL);
    }
    pthread_cond_destroy(&c->work);
    for (size_t i = 0; i < c->nobjs; i++) obj_free(c, c->objs[i]);
    for (size_t i = 0; i < c->nsites; i++) free(c->sites[i].span);
    free(c->objs);
    free(c->sites);
    umb_jit_destroy(c->jit);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

/* What a disk entry depends on besides the code: this build of umbra (its library file, by path,
 * size and time: any rebuild changes the translator's output) and the host LLVM generates for. */
static void hash_build(rdna3_jit_cache *c)
{
    Dl_info info;
    struct stat sb;
    c->build = umb_hash_start();
    if (!dladdr((void *)&rdna3_jit_acquire, &info) || !info.dli_fname || stat(info.dli_fname, &sb) != 0) return;
    umb_hash_str(&c->build, "umbra-rdna3-jit-1 " UMBRA_VERSION_STRING);
    umb_hash_str(&c->build, info.dli_fname);
    uint64_t id[3] = { (uint64_t)sb.st_size, (uint64_t)sb.st_mtim.tv_sec, (uint64_t)sb.st_mtim.tv_nsec };
    umb_hash_bytes(&c->build, id, sizeof id);
    char host[1024];
    if (!umb_jit_host_id(host, sizeof host)) return;   /* the process is exiting: no disk cache */
    umb_hash_str(&c->build, host);
    c->build_known = true;
}

/* The device's cache, made on first use (the device frees it). */
static rdna3_jit_cache *cache_of(umb_device *dev)
{
    rdna3_jit_cache *c = umb_device_slot_get(dev, UMB_DEVICE_SLOT_RDNA3_JIT);
    if (c) return c;
    if (!(c = calloc(1, sizeof *c))) return NULL;
    if (pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c);
        return NULL;
    }
    if (pthread_cond_init(&c->work, NULL) != 0) {
        pthread_mutex_destroy(&c->lock);
        free(c);
        return NULL;
    }
    hash_build(c);
    umb_device_slot_set(dev, UMB_DEVICE_SLOT_RDNA3_JIT, c, cache_release);
    return c;
}

static double now_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---------------- sites ---------------- */

static bool site_is(const jit_site *s, const rdna3_kernel *k, const rdna3_jit_request *rq)
{
    return s->code_base == k->code_base && s->code_size == k->code_size && s->entry_pc == rq->entry_pc &&
           s->wave_size == rq->wave_size && s->inline_ok == rq->inline_ok;
}

static void site_forget_translation(jit_site *s)
{
    free(s->span);
    s->span = NULL;
    s->span_len = 0;
    s->obj = NULL;
}

static jit_site *site_for(rdna3_jit_cache *c, const rdna3_kernel *k, const rdna3_jit_request *rq)
{
    for (size_t i = 0; i < c->nsites; i++)
        if (site_is(&c->sites[i], k, rq)) return &c->sites[i];
    if (c->nsites == JIT_MAX_SITES) {   /* forget the least recently launched */
        size_t old = 0;
        for (size_t i = 1; i < c->nsites; i++)
            if (c->sites[i].last_use < c->sites[old].last_use) old = i;
        site_forget_translation(&c->sites[old]);
        c->sites[old] = c->sites[--c->nsites];
    }
    if (c->nsites == c->capsites) {
        size_t cap = c->capsites ? 2 * c->capsites : 16;
        jit_site *p = realloc(c->sites, cap * sizeof *p);
        if (!p) return NULL;
        c->sites = p, c->capsites = cap;
    }
    jit_site *s = &c->sites[c->nsites++];
    *s = (jit_site){ .code_base = k->code_base, .code_size = k->code_size, .entry_pc = rq->entry_pc,
                     .wave_size = rq->wave_size, .inline_ok = rq->inline_ok };
    return s;
}

/* Does the code still hold the bytes the site's translation was made from? */
static bool site_code_unchanged(umb_device *dev, const jit_site *s)
{
    uint8_t *now = malloc(s->span_len ? s->span_len : 1);
    bool same = now && umb_mem_copy_from_device(dev, s->code_base + s->span_lo, now, s->span_len) == UMB_OK &&
                memcmp(now, s->span, s->span_len) == 0;
    free(now);
    return same;
}

/* ---------------- translations ---------------- */

static void plan_span(const rdna3_jit_plan *p, uint64_t *lo, uint64_t *len)
{
    uint64_t a = UINT64_MAX, b = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->offsets[i] < a) a = p->offsets[i];
        if (p->offsets[i] + p->recs[i].size > b) b = p->offsets[i] + p->recs[i].size;
    }
    *lo = p->n ? a : 0;
    *len = p->n ? b - a : 0;
}

/* The disk key: the build, what the code generator is asked for, and every instruction's offset
 * and bytes (the decoded records are a function of those). */
static umb_hash128 plan_key(const rdna3_jit_cache *c, const rdna3_jit_plan *p, const rdna3_jit_request *rq,
                            uint64_t span_lo, const uint8_t *span, uint64_t span_len)
{
    umb_hash128 h = c->build;
    uint64_t head[5] = { rq->wave_size, rq->inline_ok, p->code_size, p->entry, span_lo };
    umb_hash_bytes(&h, head, sizeof head);
    umb_hash_bytes(&h, p->offsets, p->n * sizeof p->offsets[0]);
    umb_hash_bytes(&h, span, span_len);
    return h;
}

static void symbol_name(const umb_hash128 *key, char *out, size_t len)
{
    snprintf(out, len, "umbra_rdna3_%016" PRIx64 "%016" PRIx64, key->a, key->b);
}

/* Disk entries: a header, then the object file. */
#define DISK_MAGIC "umbra-rdna3-jit\n"
typedef struct disk_header {
    char magic[16];
    uint64_t key_a, key_b;
    uint32_t insts, inlined;
    uint64_t object_bytes;
} disk_header;

static bool disk_path(const rdna3_jit_cache *c, const rdna3_jit_request *rq, const umb_hash128 *key, char *out, size_t len)
{
    if (!rq->disk_dir || !*rq->disk_dir || !c->build_known) return false;
    umb_cache_path(rq->disk_dir, key, ".rdna3jit", out, len);
    return true;
}

/* The object of a disk entry for key (malloc'd into *obj), or false. */
static bool disk_get(const char *path, const umb_hash128 *key, const rdna3_jit_plan *p, uint8_t **file,
                     const uint8_t **obj, size_t *objlen, uint32_t *inlined)
{
    size_t n;
    if (!umb_cache_read(path, file, &n)) return false;
    disk_header h;
    if (n < sizeof h) return free(*file), false;
    memcpy(&h, *file, sizeof h);
    if (memcmp(h.magic, DISK_MAGIC, sizeof h.magic) || h.key_a != key->a || h.key_b != key->b || h.insts != p->n ||
        h.object_bytes != n - sizeof h)
        return free(*file), false;   /* not ours, or cut short: translate again */
    *obj = *file + sizeof h;
    *objlen = (size_t)h.object_bytes;
    *inlined = h.inlined;
    return true;
}

static void disk_put(const char *path, const umb_hash128 *key, const rdna3_jit_plan *p, const void *obj, size_t len,
                     uint32_t inlined)
{
    disk_header h = { .key_a = key->a, .key_b = key->b, .insts = (uint32_t)p->n, .inlined = inlined,
                      .object_bytes = len };
    memcpy(h.magic, DISK_MAGIC, sizeof h.magic);
    uint8_t *buf = malloc(sizeof h + len);
    if (!buf) return;
    memcpy(buf, &h, sizeof h);
    memcpy(buf + sizeof h, obj, len);
    umb_cache_write(path, buf, sizeof h + len);   /* a failed write is only a later miss */
    free(buf);
}

static jit_obj *obj_find(rdna3_jit_cache *c, const umb_hash128 *key)
{
    for (size_t i = 0; i < c->nobjs; i++)
        if (c->objs[i]->key.a == key->a && c->objs[i]->key.b == key->b) return c->objs[i];
    return NULL;
}

/* Remove o from the cache, its sites and its code (the lock held). */
static void obj_drop(rdna3_jit_cache *c, jit_obj *o)
{
    for (size_t i = 0; i < c->nobjs; i++)
        if (c->objs[i] == o) {
            c->objs[i] = c->objs[--c->nobjs];
            break;
        }
    for (size_t i = 0; i < c->nsites; i++)
        if (c->sites[i].obj == o) site_forget_translation(&c->sites[i]);
    obj_free(c, o);
}

/* Free least recently used translations no launch runs until at most JIT_MAX_OBJS - 1 remain. */
static void evict(rdna3_jit_cache *c)
{
    while (c->nobjs >= JIT_MAX_OBJS) {
        size_t old = SIZE_MAX;
        for (size_t i = 0; i < c->nobjs; i++)
            if (!c->objs[i]->refs && !c->objs[i]->pending &&
                (old == SIZE_MAX || c->objs[i]->last_use < c->objs[old]->last_use))
                old = i;
        if (old == SIZE_MAX) return;   /* every one is running or being made: keep them */
        obj_drop(c, c->objs[old]);
    }
}

/* A new translation entry for key, with no code yet (the lock held). */
static jit_obj *obj_new(rdna3_jit_cache *c, const umb_hash128 *key, char *err, size_t errlen)
{
    if (!c->jit && !(c->jit = umb_jit_create(err, errlen))) return NULL;
    evict(c);
    if (c->nobjs == c->capobjs) {
        size_t cap = c->capobjs ? 2 * c->capobjs : 16;
        jit_obj **q = realloc(c->objs, cap * sizeof *q);
        if (!q) goto oom;
        c->objs = q, c->capobjs = cap;
    }
    jit_obj *o = calloc(1, sizeof *o);
    if (!o) goto oom;
    o->key = *key;
    atomic_init(&o->published, NULL);
    c->objs[c->nobjs++] = o;
    return o;
oom:
    snprintf(err, errlen, "out of host memory for the translation cache");
    return NULL;
}


/* UMBRA_JIT_PERF_MAP=1: a line for the function in /tmp/perf-PID.map, the file `perf report`
 * reads to name samples in code it cannot map to a file (without it, `perf` puts samples of
 * translated code on unrelated symbols). Appended line by line (O_APPEND: whole lines from
 * several devices' threads). */
static void perf_map_add(rdna3_jit_fn fn, const void *object, size_t len, const char *name)
{
    const char *on = getenv("UMBRA_JIT_PERF_MAP");
    if (!on || !*on || !strcmp(on, "0")) return;
    char path[64], line[160];
    snprintf(path, sizeof path, "/tmp/perf-%ld.map", (long)getpid());
    uint64_t size = umb_jit_object_symbol_size(object, len, name);
    int n = snprintf(line, sizeof line, "%" PRIxPTR " %" PRIx64 " %s\n", (uintptr_t)fn, size ? size : 1, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return;
    if (write(fd, line, (size_t)n) != n) { /* a profiling aid: nothing to do */ }
    close(fd);
}

/* Link the object file into the device's JIT as o's code, and find its function (no lock needed:
 * ORC locks itself, and o is not yet published; its counts are set by the caller under the lock,
 * where launches read them). Takes recs. */
static bool obj_attach(rdna3_jit_cache *c, jit_obj *o, rdna3_inst **recs, const void *object, size_t len, char *err,
                       size_t errlen)
{
    if (!(o->unit = umb_jit_add_object(c->jit, object, len, err, errlen))) return false;
    char name[64];
    symbol_name(&o->key, name, sizeof name);
    if (!(o->code.fn = (rdna3_jit_fn)umb_jit_lookup(c->jit, name, err, errlen))) {
        umb_jit_remove(c->jit, o->unit);
        o->unit = NULL;
        return false;
    }
    perf_map_add(o->code.fn, object, len, name);
    o->recs = *recs;
    o->code.recs = *recs;
    *recs = NULL;
    return true;
}

static void publish(jit_obj *o, size_t insts, uint32_t inlined)
{
    o->insts = (uint32_t)insts;
    o->inlined = inlined;
    atomic_store_explicit(&o->published, &o->code, memory_order_release);
}

/* ---------------- the translator thread ---------------- */

/* Make one queued translation (without the lock: LLVM's work takes its time). */
static void run_job(rdna3_jit_cache *c, jit_obj *o)
{
    char name[64], err[256] = "";
    void *made = NULL;
    size_t len = 0;
    uint32_t inlined = 0;
    symbol_name(&o->key, name, sizeof name);
    bool ok = rdna3_jit_generate(&o->plan, o->wave_size, o->inline_ok, name, &made, &len, &inlined, err, sizeof err) &&
              obj_attach(c, o, &o->plan.recs, made, len, err, sizeof err);
    if (ok && o->disk[0]) disk_put(o->disk, &o->key, &o->plan, made, len, inlined);
    free(made);
    pthread_mutex_lock(&c->lock);
    o->pending = false;
    if (ok) publish(o, o->plan.n, inlined);
    else o->failed = true, snprintf(o->err, sizeof o->err, "%s", err);
    rdna3_jit_plan_free(&o->plan);
    pthread_mutex_unlock(&c->lock);
}

static void *translator_thread(void *arg)
{
    rdna3_jit_cache *c = arg;
    pthread_mutex_lock(&c->lock);
    for (;;) {
        while (!c->jobs && !c->stopping) pthread_cond_wait(&c->work, &c->lock);
        if (c->stopping) break;
        jit_obj *o = c->jobs;
        if (!(c->jobs = o->next_job)) c->jobs_tail = NULL;
        pthread_mutex_unlock(&c->lock);
        run_job(c, o);
        pthread_mutex_lock(&c->lock);
    }
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/* Queue o (its plan filled) for the translator thread (the lock held). */
static bool queue_job(rdna3_jit_cache *c, jit_obj *o, char *err, size_t errlen)
{
    if (!c->worker_started) {
        if (pthread_create(&c->worker, NULL, translator_thread, c) != 0) {
            snprintf(err, errlen, "could not start the translator thread");
            return false;
        }
        c->worker_started = true;
    }
    o->pending = true;
    o->next_job = NULL;
    if (c->jobs_tail) c->jobs_tail->next_job = o;
    else c->jobs = o;
    c->jobs_tail = o;
    pthread_cond_signal(&c->work);
    return true;
}

/* The translation of plan: in memory already (another site with the same bytes, perhaps still
 * being made), on disk, made now, or queued for the translator thread (rq->background). */
static jit_obj *obj_for_plan(rdna3_jit_cache *c, const rdna3_jit_request *rq, rdna3_jit_plan *p, const uint8_t *span,
                             uint64_t span_lo, uint64_t span_len, rdna3_jit_result *res, char *err, size_t errlen)
{
    umb_hash128 key = plan_key(c, p, rq, span_lo, span, span_len);
    jit_obj *o = obj_find(c, &key);
    if (o) {
        res->source = o->pending ? RDNA3_JIT_BACKGROUND : RDNA3_JIT_FROM_MEMORY;
        return o;
    }
    char path[PATH_MAX], name[64];
    bool disk = disk_path(c, rq, &key, path, sizeof path);
    if (!(o = obj_new(c, &key, err, errlen))) return NULL;
    uint8_t *file = NULL;
    const uint8_t *object;
    size_t len;
    uint32_t inlined = 0;
    if (disk && disk_get(path, &key, p, &file, &object, &len, &inlined)) {
        bool ok = obj_attach(c, o, &p->recs, object, len, err, errlen);
        free(file);
        if (ok) {
            publish(o, p->n, inlined);
            res->source = RDNA3_JIT_FROM_DISK;
            return o;
        }
        /* an entry LLVM refuses (another LLVM's, damaged): translate again and replace it */
    }
    if (rq->background && umb_jit_background_ok()) {   /* else the process's first generation: jit.h */
        o->plan = *p;   /* the job takes the plan */
        *p = (rdna3_jit_plan){ 0 };
        o->wave_size = rq->wave_size;
        o->inline_ok = rq->inline_ok;
        snprintf(o->disk, sizeof o->disk, "%s", disk ? path : "");
        if (!queue_job(c, o, err, errlen)) {
            obj_drop(c, o);
            return NULL;
        }
        res->source = RDNA3_JIT_BACKGROUND;
        return o;
    }
    void *made = NULL;
    symbol_name(&key, name, sizeof name);
    bool ok = rdna3_jit_generate(p, rq->wave_size, rq->inline_ok, name, &made, &len, &inlined, err, errlen) &&
              obj_attach(c, o, &p->recs, made, len, err, errlen);
    if (ok && disk) disk_put(path, &key, p, made, len, inlined);
    free(made);
    if (!ok) {
        obj_drop(c, o);
        return NULL;
    }
    publish(o, p->n, inlined);
    res->source = RDNA3_JIT_TRANSLATED;
    return o;
}

/* Translate at site s (the lock held). */
static jit_obj *translate_site(umb_device *dev, rdna3_jit_cache *c, jit_site *s, rdna3_kernel *k,
                               const rdna3_jit_request *rq, rdna3_jit_result *res, char *err, size_t errlen)
{
    rdna3_jit_plan p;
    if (!rdna3_jit_discover(k, rq->entry_pc, &p, err, errlen)) return NULL;
    uint64_t lo, len;
    plan_span(&p, &lo, &len);
    uint8_t *span = malloc(len ? len : 1);
    if (!span || umb_mem_copy_from_device(dev, k->code_base + lo, span, len) != UMB_OK) {
        snprintf(err, errlen, "could not read the kernel's code (%" PRIu64 " bytes at offset 0x%" PRIx64 ")", len, lo);
        free(span);
        rdna3_jit_plan_free(&p);
        return NULL;
    }
    jit_obj *o = obj_for_plan(c, rq, &p, span, lo, len, res, err, errlen);
    rdna3_jit_plan_free(&p);
    if (!o) {
        free(span);
        return NULL;
    }
    site_forget_translation(s);
    s->obj = o;
    s->span = span, s->span_lo = lo, s->span_len = len;
    return o;
}

bool rdna3_jit_acquire(umb_device *dev, rdna3_kernel *k, const rdna3_jit_request *rq, rdna3_jit_result *res,
                       char *err, size_t errlen)
{
    *res = (rdna3_jit_result){ 0 };
    double t0 = now_seconds(CLOCK_MONOTONIC), c0 = now_seconds(CLOCK_THREAD_CPUTIME_ID);
    rdna3_jit_cache *c = cache_of(dev);
    if (!c) {
        snprintf(err, errlen, "out of host memory for the translation cache");
        return false;
    }
    pthread_mutex_lock(&c->lock);
    bool ok = true;
    jit_site *s = site_for(c, k, rq);
    if (!s) {
        snprintf(err, errlen, "out of host memory for the translation cache");
        ok = false;
        goto out;
    }
    res->work = s->work;
    s->last_use = ++c->tick;
    jit_obj *o = NULL;
    if (s->obj && site_code_unchanged(dev, s)) {
        o = s->obj;
        res->source = o->pending ? RDNA3_JIT_BACKGROUND : RDNA3_JIT_FROM_MEMORY;
    } else if (s->work >= rq->min_work) {
        ok = (o = translate_site(dev, c, s, k, rq, res, err, errlen)) != NULL;
    }
    if (o && o->failed) {   /* a translation of this code failed in the background: stay interpreted */
        if (rq->min_work == 0) {
            snprintf(err, errlen, "%s", o->err);
            ok = false;
        }
        o = NULL;
    }
    if (o) {
        o->refs++;
        o->last_use = c->tick;
        res->ticket = &o->published;
        res->insts = o->pending ? (uint32_t)o->plan.n : o->insts;
        res->inlined = o->inlined;
    }
out:
    pthread_mutex_unlock(&c->lock);
    res->seconds = now_seconds(CLOCK_MONOTONIC) - t0;
    res->cpu_seconds = now_seconds(CLOCK_THREAD_CPUTIME_ID) - c0;
    return ok;
}

void rdna3_jit_release(umb_device *dev, _Atomic(const rdna3_jit_code *) *ticket)
{
    if (!ticket) return;
    rdna3_jit_cache *c = umb_device_slot_get(dev, UMB_DEVICE_SLOT_RDNA3_JIT);
    if (!c) return;
    pthread_mutex_lock(&c->lock);
    for (size_t i = 0; i < c->nobjs; i++)
        if (&c->objs[i]->published == ticket && c->objs[i]->refs) c->objs[i]->refs--;
    pthread_mutex_unlock(&c->lock);
}

void rdna3_jit_add_work(umb_device *dev, const rdna3_kernel *k, const rdna3_jit_request *rq, uint64_t work)
{
    rdna3_jit_cache *c = umb_device_slot_get(dev, UMB_DEVICE_SLOT_RDNA3_JIT);
    if (!c || !work) return;
    pthread_mutex_lock(&c->lock);
    jit_site *s = site_for(c, k, rq);
    if (s) s->work = s->work + work < s->work ? UINT64_MAX : s->work + work;
    pthread_mutex_unlock(&c->lock);
}

#else   /* built without UMBRA_JIT */

bool rdna3_jit_acquire(umb_device *dev, rdna3_kernel *k, const rdna3_jit_request *rq, rdna3_jit_result *res,
                       char *err, size_t errlen)
{
    (void)dev, (void)k, (void)rq;
    *res = (rdna3_jit_result){ 0 };
    snprintf(err, errlen, "umbra was built without the translator (UMBRA_JIT=OFF: no llvm-19-dev)");
    return false;
}

void rdna3_jit_release(umb_device *dev, _Atomic(const rdna3_jit_code *) *ticket) { (void)dev, (void)ticket; }

void rdna3_jit_add_work(umb_device *dev, const rdna3_kernel *k, const rdna3_jit_request *rq, uint64_t work)
{
    (void)dev, (void)k, (void)rq, (void)work;
}

#endif
