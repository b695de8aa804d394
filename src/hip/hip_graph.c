/* Graphs, executable graphs and stream capture (HIP 5.2's hipGraph* and hipStream*Capture* API).
 *
 * A graph is a set of nodes and the edges between them. A node keeps the parameters its Get calls
 * answer and, for the kinds that run a command (kernels, copies, fills, host functions), the
 * command's template: the exec function and payload of a hip_cmd, built (and so validated) when
 * the node is made or its parameters set, by the same code the stream API uses (hip_launch_cmd,
 * hip_copy3d_job, hip_fill_job).
 *
 * Instantiation clones the graph (so that later changes to it do not reach the executable graph)
 * and orders the clone's nodes topologically (ties in the order the nodes were made). A launch
 * enqueues the nodes on the stream in that order: a stream runs its commands in order, so every
 * edge holds; child graphs are launched in place, event nodes record and wait as the stream calls
 * do. A launch of an executable graph starts after its previous launch ended, on whatever stream
 * (CUDA's rule: an executable graph never runs concurrently with itself), which also lets the
 * launches share the clone's payloads.
 *
 * Capture: while a stream captures, the launches, copies, fills and callbacks enqueued on it
 * become nodes of the capture's graph, each depending on the stream's current "frontier" (the
 * nodes its last captured operation produced), and nothing runs. An event recorded in a capturing
 * stream remembers the frontier; a stream that waits for it joins the capture (a fork) or merges
 * the frontier into its own (a join). hipStreamEndCapture on the stream that began the capture
 * returns the graph, once every stream that joined has been joined back to it.
 *
 * Locking: rt->graph_lock guards every graph, node, executable graph and capture, and the capture
 * fields of streams and events. It is taken before rt->lock (the stream engine's), never after,
 * and never held while waiting for a stream. */
#include <stdlib.h>
#include <string.h>

#include "hip_internal.h"

typedef struct node_list {
    hipGraphNode_t *v;
    size_t n, cap;
} node_list;

struct hipGraphNode {
    hipGraph_t graph;
    hipGraphNodeType type;
    node_list deps, outs;         /* the nodes it depends on / that depend on it */
    /* What runs (kernels, copies, fills, host functions): a hip_cmd's exec and payload. The node
       owns the payload; payload_size > 0: a plain copy of it is a valid payload (cloning). */
    void (*exec)(hip_cmd *);
    void *payload;
    void (*free_payload)(void *);
    size_t payload_size;
    /* What the Get calls answer (by type) */
    struct {
        hipFunction_t f;
        const void *host_fn;      /* the host stub given (hipKernelNodeParams.func), or NULL */
        dim3 grid, block;
        unsigned shared;
        uint8_t *values;          /* the argument values, copied */
        void **argv;              /* one pointer into values per explicit argument */
    } kernel;
    hipMemcpy3DParms m3;          /* hipGraphNodeTypeMemcpy */
    hip_copy_job job;             /* copies and fills */
    hipMemsetParams ms;           /* hipGraphNodeTypeMemset */
    hipHostNodeParams host;       /* hipGraphNodeTypeHost */
    hipGraph_t child;             /* hipGraphNodeTypeGraph: a graph of the node's own */
    hipEvent_t event;             /* hipGraphNodeTypeEventRecord / WaitEvent */
    hipGraphNode_t original;      /* in a clone: the node it copies */
    size_t index;                 /* scratch of the graph walks */
};

struct ihipGraph {
    node_list nodes;              /* in the order they were made */
    bool owned;                   /* a child-graph node's: not for hipGraphDestroy */
    struct ihipGraph *next;       /* rt->graphs */
};

struct hipGraphExec {
    hipGraph_t g;                 /* the clone it runs */
    hipGraphNode_t *order;        /* g's nodes, topologically */
    size_t n;
    plat_stream *last_ps;         /* where its last launch ended (retained), or NULL */
    uint64_t last_seq;
    struct hipGraphExec *next;    /* rt->execs */
};

typedef struct hip_capture {
    unsigned long long id;
    hipGraph_t graph;
    hipStream_t origin;           /* the stream that began it (NULL once destroyed) */
    hipStreamCaptureMode mode;
    bool invalidated;
    pthread_t thread;             /* that began it (thread-local mode) */
    hipStream_t *joined;          /* other streams that joined it */
    size_t njoined, capjoined;
    struct hip_capture *next;     /* rt->captures */
} hip_capture;

static _Thread_local hipStreamCaptureMode thread_capture_mode = hipStreamCaptureModeGlobal;

#define RT_OR_FAIL()                                            \
    hip_runtime *rt = hip_rt();                                 \
    if (!rt) return hip_ret(hipErrorNoDevice)

/* ---------------- lists, graphs, nodes ---------------- */

static bool list_push(node_list *l, hipGraphNode_t n)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 4;
        hipGraphNode_t *v = realloc(l->v, cap * sizeof *v);
        if (!v) return false;
        l->v = v, l->cap = cap;
    }
    l->v[l->n++] = n;
    return true;
}

static bool list_has(const node_list *l, hipGraphNode_t n)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i] == n) return true;
    return false;
}

static void list_remove(node_list *l, hipGraphNode_t n)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i] == n) {
            memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof *l->v);
            l->n--;
            return;
        }
}

static hipGraph_t graph_new(hip_runtime *rt, bool owned)
{
    hipGraph_t g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->owned = owned;
    g->next = rt->graphs, rt->graphs = g;
    return g;
}

static bool graph_live(hip_runtime *rt, hipGraph_t g)
{
    for (hipGraph_t o = rt->graphs; o && g; o = o->next)
        if (o == g) return true;
    return false;
}

/* The node is in a live graph (a handle a program may pass). */
static bool node_live(hip_runtime *rt, hipGraphNode_t n)
{
    if (!n) return false;
    for (hipGraph_t g = rt->graphs; g; g = g->next)
        if (list_has(&g->nodes, n)) return true;
    return false;
}

static bool exec_live(hip_runtime *rt, hipGraphExec_t x)
{
    for (hipGraphExec_t o = rt->execs; o && x; o = o->next)
        if (o == x) return true;
    return false;
}

static void graph_free(hip_runtime *rt, hipGraph_t g);

static void template_clear(hipGraphNode_t n)
{
    if (n->free_payload) n->free_payload(n->payload);
    n->exec = NULL, n->payload = NULL, n->free_payload = NULL, n->payload_size = 0;
}

static void node_free(hip_runtime *rt, hipGraphNode_t n)
{
    template_clear(n);
    free(n->kernel.values);
    free(n->kernel.argv);
    if (n->child) graph_free(rt, n->child);
    free(n->deps.v);
    free(n->outs.v);
    free(n);
}

static void graph_free(hip_runtime *rt, hipGraph_t g)
{
    for (hipGraph_t *pp = &rt->graphs; *pp; pp = &(*pp)->next)
        if (*pp == g) {
            *pp = g->next;
            break;
        }
    for (size_t i = 0; i < g->nodes.n; i++) node_free(rt, g->nodes.v[i]);
    free(g->nodes.v);
    free(g);
}

/* Put a new node into g after deps (each a node of g, no two the same). */
static hipError_t graph_insert(hipGraph_t g, hipGraphNode_t n, const hipGraphNode_t *deps, size_t ndeps, const char *api)
{
    if (ndeps && !deps) return hip_fail(hipErrorInvalidValue, api, "%zu dependencies but no array", ndeps);
    for (size_t i = 0; i < ndeps; i++) {
        if (!list_has(&g->nodes, deps[i]))   /* before any use: the handle may be anything */
            return hip_fail(hipErrorInvalidValue, api, "dependency %zu is not a node of the graph", i);
        for (size_t k = 0; k < i; k++)
            if (deps[k] == deps[i]) return hip_fail(hipErrorInvalidValue, api, "dependency %zu is given twice", i);
    }
    if (!list_push(&g->nodes, n)) return hip_ret(hipErrorOutOfMemory);
    n->graph = g;
    for (size_t i = 0; i < ndeps; i++)
        if (!list_push(&n->deps, deps[i]) || !list_push(&deps[i]->outs, n)) return hip_ret(hipErrorOutOfMemory);
    return hipSuccess;
}

/* ---------------- node parameters and their command templates ---------------- */

static void template_take(hipGraphNode_t n, hip_cmd *c, size_t payload_size)
{
    template_clear(n);
    n->exec = c->exec, n->payload = c->payload, n->free_payload = c->free_payload, n->payload_size = payload_size;
    free(c);   /* the shell only: the payload is the node's now */
}

static hipError_t template_copy_of(hipGraphNode_t n, void (*exec)(hip_cmd *), const void *payload, size_t size)
{
    void *p = malloc(size);
    if (!p) return hip_ret(hipErrorOutOfMemory);
    memcpy(p, payload, size);
    template_clear(n);
    n->exec = exec, n->payload = p, n->free_payload = free, n->payload_size = size;
    return hipSuccess;
}

/* A kernel node's parameters: the launch p checked and its arguments copied (from p's argument
 * pointers or its packed buffer). host_fn: the host stub the program named, if any. */
static hipError_t kernel_set(hip_runtime *rt, hipGraphNode_t n, const void *host_fn, const hip_launch_params *p,
                             const char *api)
{
    hip_cmd *c = NULL;
    hipError_t e = hip_launch_cmd(rt, p, api, &c);   /* loads the module: f->ki is known after */
    if (e) return e;
    const umb_rdna3_kernel_info *ki = p->f->ki;
    size_t bytes = 0;
    for (uint32_t i = 0; i < ki->nexplicit; i++) bytes += ki->args[i].size;
    uint8_t *values = malloc(bytes ? bytes : 1);
    void **v = calloc(ki->nexplicit ? ki->nexplicit : 1, sizeof *v);
    if (!values || !v) {
        free(values), free(v);
        c->pc.done(&c->pc);
        return hip_ret(hipErrorOutOfMemory);
    }
    uint8_t *w = values;
    for (uint32_t i = 0; i < ki->nexplicit; i++) {   /* hip_launch_cmd checked every source */
        const void *src = p->arg_buffer ? p->arg_buffer + ki->args[i].offset : p->args[i];
        memcpy(w, src, ki->args[i].size);
        v[i] = w;
        w += ki->args[i].size;
    }
    template_take(n, c, 0);
    free(n->kernel.values), free(n->kernel.argv);
    n->kernel.f = p->f, n->kernel.host_fn = host_fn;
    n->kernel.grid = p->grid, n->kernel.block = p->block, n->kernel.shared = (unsigned)p->shared;
    n->kernel.values = values, n->kernel.argv = v;
    return hipSuccess;
}

static hipError_t kernel_params_set(hip_runtime *rt, hipGraphNode_t n, const hipKernelNodeParams *kp, const char *api)
{
    if (!kp || !kp->func) return hip_fail(hipErrorInvalidValue, api, "no parameters or no function");
    hip_launch_params p = { .grid = kp->gridDim, .block = kp->blockDim, .shared = kp->sharedMemBytes, .args = kp->kernelParams };
    hipError_t e = hip_function_for_host(rt, kp->func, &p.f, api);
    if (e) return hip_ret(hipErrorInvalidDeviceFunction);
    if (kp->kernelParams && kp->extra) return hip_fail(hipErrorInvalidValue, api, "both kernelParams and extra given");
    if (kp->extra && (e = hip_launch_extra(kp->extra, &p, api))) return e;
    return kernel_set(rt, n, kp->func, &p, api);
}

static hipError_t copy_job_set(hipGraphNode_t n, const hip_copy_job *j)
{
    hipError_t e = template_copy_of(n, hip_copy_exec, j, sizeof *j);
    if (!e) n->job = *j;
    return e;
}

static hipError_t memcpy3d_set(hipGraphNode_t n, const hipMemcpy3DParms *p, const char *api)
{
    if (!p) return hip_fail(hipErrorInvalidValue, api, "no parameters");
    hip_copy_job j;
    hipError_t e = hip_copy3d_job(p, &j, api);
    if (!e && (!j.dst || !j.src)) e = hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    if (!e && !(j.width && j.height && j.depth)) e = hip_fail(hipErrorInvalidValue, api, "an empty extent");
    if (!e && (e = copy_job_set(n, &j)) == hipSuccess) n->m3 = *p;
    return e;
}

static bool kind_ok(hipMemcpyKind k) { return k >= hipMemcpyHostToHost && k <= hipMemcpyDefault; }

/* A side the kind says is on the device must be memory the runtime gave out (the device heap, or
 * pinned, registered or managed memory), as CLR finds a memory object for it; a side it says is
 * on the host may be anything (CLR copies from where the memory really is). */
static bool kind_matches(hip_runtime *rt, void *dst, const void *src, hipMemcpyKind kind)
{
    bool dd = !hip_pageable_host(rt, dst), sd = !hip_pageable_host(rt, src);
    switch (kind) {
    case hipMemcpyHostToDevice: return dd;
    case hipMemcpyDeviceToHost: return sd;
    case hipMemcpyDeviceToDevice: return dd && sd;
    default: return true;
    }
}

static hipError_t memcpy1d_set(hip_runtime *rt, hipGraphNode_t n, void *dst, const void *src, size_t count,
                               hipMemcpyKind kind, const char *api)
{
    if (!dst || !src) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    if (!count) return hip_fail(hipErrorInvalidValue, api, "a copy of 0 bytes");
    if (!kind_ok(kind)) return hip_fail(hipErrorInvalidValue, api, "kind %d is not a hipMemcpyKind", (int)kind);
    uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    if (d < s + count && s < d + count) return hip_fail(hipErrorInvalidValue, api, "source and destination overlap");
    if (hip_alloc_room(rt, dst) < count || hip_alloc_room(rt, src) < count)
        return hip_fail(hipErrorInvalidValue, api, "%zu bytes run past the end of an allocation", count);
    if (!kind_matches(rt, dst, src, kind))
        return hip_fail(hipErrorInvalidValue, api, "kind %d does not match where %p and %p are", (int)kind, dst, src);
    hip_copy_job j = { .dst = dst, .src = src, .dpitch = count, .spitch = count, .width = count, .height = 1, .depth = 1 };
    return copy_job_set(n, &j);
}

/* A copy to (to_symbol) or from a __device__ variable. */
static hipError_t symbol_set(hip_runtime *rt, hipGraphNode_t n, void *other, const void *symbol, size_t count,
                             size_t offset, hipMemcpyKind kind, bool to_symbol, const char *api)
{
    if (!symbol) return hip_fail(hipErrorInvalidSymbol, api, "NULL symbol");
    uint8_t *var;
    hipError_t e = hip_symbol_range(symbol, count, offset, &var, api);
    if (e) return e;
    if (to_symbol && (kind == hipMemcpyDeviceToHost || kind == hipMemcpyHostToHost))
        return hip_fail(hipErrorInvalidValue, api, "a copy to a device variable cannot have kind %d", (int)kind);
    if (!to_symbol && (kind == hipMemcpyHostToDevice || kind == hipMemcpyHostToHost))
        return hip_fail(hipErrorInvalidValue, api, "a copy from a device variable cannot have kind %d", (int)kind);
    return to_symbol ? memcpy1d_set(rt, n, var, other, count, kind, api) : memcpy1d_set(rt, n, other, var, count, kind, api);
}

static hipError_t memset_set(hipGraphNode_t n, const hipMemsetParams *p, const char *api)
{
    if (!p) return hip_fail(hipErrorInvalidValue, api, "no parameters");
    unsigned es = p->elementSize;
    if (es != 1 && es != 2 && es != 4) return hip_fail(hipErrorInvalidValue, api, "element size %u (1, 2 or 4)", es);
    if (es < 4 && p->value >> (8 * es)) return hip_fail(hipErrorInvalidValue, api, "value %#x wider than %u bytes", p->value, es);
    size_t pitch = p->height > 1 ? p->pitch : p->width * es;   /* a pitch matters between rows only */
    hip_copy_job j;
    hipError_t e = hip_fill_job(p->dst, pitch, p->width, p->height, 1, 0, p->value, es, &j, api);
    if (!e && (e = copy_job_set(n, &j)) == hipSuccess) n->ms = *p;
    return e;
}

static void exec_host(hip_cmd *c)
{
    const hipHostNodeParams *h = c->payload;
    h->fn(h->userData);
}

static hipError_t host_set(hipGraphNode_t n, const hipHostNodeParams *p, const char *api)
{
    if (!p || !p->fn) return hip_fail(hipErrorInvalidValue, api, "no host function");
    hipError_t e = template_copy_of(n, exec_host, p, sizeof *p);
    if (!e) n->host = *p;
    return e;
}

static hipGraph_t graph_clone(hip_runtime *rt, hipGraph_t g, bool owned);

static hipError_t child_set(hip_runtime *rt, hipGraphNode_t n, hipGraph_t child, const char *api)
{
    if (!graph_live(rt, child)) return hip_fail(hipErrorInvalidValue, api, "not a graph");
    hipGraph_t c = graph_clone(rt, child, true);
    if (!c) return hip_ret(hipErrorOutOfMemory);
    if (n->child) graph_free(rt, n->child);
    n->child = c;
    return hipSuccess;
}

static hipError_t event_set(hip_runtime *rt, hipGraphNode_t n, hipEvent_t e, const char *api)
{
    if (!e || !hip_event_valid(rt, e)) return hip_fail(hipErrorInvalidValue, api, "not an event");
    n->event = e;
    return hipSuccess;
}

/* The same parameters in node d as in node s (same type); d's own command. */
static hipError_t params_copy(hip_runtime *rt, hipGraphNode_t d, hipGraphNode_t s)
{
    d->type = s->type;
    switch (s->type) {
    case hipGraphNodeTypeKernel:
        return kernel_set(rt, d, s->kernel.host_fn,
                          &(hip_launch_params){ .f = s->kernel.f, .grid = s->kernel.grid, .block = s->kernel.block,
                                                .shared = s->kernel.shared, .args = s->kernel.argv },
                          "hipGraphClone");
    case hipGraphNodeTypeGraph: return child_set(rt, d, s->child, "hipGraphClone");
    case hipGraphNodeTypeEventRecord: case hipGraphNodeTypeWaitEvent: d->event = s->event; return hipSuccess;
    case hipGraphNodeTypeEmpty: return hipSuccess;
    default:   /* copies, fills, host functions: a plain copy of the payload */
        d->m3 = s->m3, d->job = s->job, d->ms = s->ms, d->host = s->host;
        return s->payload_size ? template_copy_of(d, s->exec, s->payload, s->payload_size) : hipSuccess;
    }
}

/* ---------------- clones and order ---------------- */

static hipGraph_t graph_clone(hip_runtime *rt, hipGraph_t g, bool owned)
{
    hipGraph_t c = graph_new(rt, owned);
    if (!c) return NULL;
    for (size_t i = 0; i < g->nodes.n; i++) {
        hipGraphNode_t s = g->nodes.v[i], d = calloc(1, sizeof *d);
        if (!d || !list_push(&c->nodes, d)) {
            free(d);
            graph_free(rt, c);
            return NULL;
        }
        d->graph = c, d->original = s;
        s->index = i;
        if (params_copy(rt, d, s)) {
            graph_free(rt, c);
            return NULL;
        }
    }
    for (size_t i = 0; i < g->nodes.n; i++) {
        hipGraphNode_t s = g->nodes.v[i], d = c->nodes.v[i];
        for (size_t k = 0; k < s->deps.n; k++) {
            hipGraphNode_t dep = c->nodes.v[s->deps.v[k]->index];
            if (!list_push(&d->deps, dep) || !list_push(&dep->outs, d)) {
                graph_free(rt, c);
                return NULL;
            }
        }
    }
    return c;
}

/* g's nodes in an order every edge agrees with (ties: the order they were made), in a new array;
 * NULL with *n = 0 if there is none (a cycle) or no memory. */
static hipGraphNode_t *graph_order(hipGraph_t g, size_t *n)
{
    size_t total = g->nodes.n, head = 0, tail = 0;
    hipGraphNode_t *q = malloc((total ? total : 1) * sizeof *q);
    *n = 0;
    if (!q) return NULL;
    for (size_t i = 0; i < total; i++) {
        hipGraphNode_t v = g->nodes.v[i];
        v->index = v->deps.n;   /* dependencies not yet placed */
        if (!v->index) q[tail++] = v;
    }
    while (head < tail) {
        hipGraphNode_t v = q[head++];
        for (size_t k = 0; k < v->outs.n; k++)
            if (--v->outs.v[k]->index == 0) q[tail++] = v->outs.v[k];
    }
    if (tail != total) {
        free(q);
        return NULL;
    }
    *n = total;
    return q;
}

/* ---------------- launches ---------------- */

/* Enqueue node n's command. A copy to or from pageable host memory completes before
 * hipGraphLaunch returns (*sync_seq: the position to wait for), as the stream API's copies do
 * and as CLR runs them: programs read the host buffer right after the launch. */
static hipError_t enqueue_template(hip_runtime *rt, hipStream_t s, hipGraphNode_t n, uint64_t *sync_seq)
{
    hip_cmd *c = hip_cmd_new(n->exec, n->payload, NULL);   /* the payload stays the node's */
    if (!c) return hip_ret(hipErrorOutOfMemory);
    uint64_t seq = hip_enqueue(rt, s, c);
    if (n->exec == hip_copy_exec && !n->job.fill &&
        (hip_pageable_host(rt, n->job.dst) || hip_pageable_host(rt, n->job.src)))
        *sync_seq = seq;
    return hipSuccess;
}

static hipError_t launch_graph(hip_runtime *rt, hipGraphNode_t *order, size_t n, hipStream_t s, uint64_t *sync_seq)
{
    for (size_t i = 0; i < n; i++) {
        hipGraphNode_t v = order[i];
        hipError_t e = hipSuccess;
        switch (v->type) {
        case hipGraphNodeTypeEmpty: break;
        case hipGraphNodeTypeEventRecord: e = hip_event_record(rt, v->event, s, "hipGraphLaunch"); break;
        case hipGraphNodeTypeWaitEvent: e = hip_stream_wait_event(rt, s, v->event); break;
        case hipGraphNodeTypeGraph: {
            size_t cn;
            hipGraphNode_t *co = graph_order(v->child, &cn);
            if (!co && v->child->nodes.n) return hip_fail(hipErrorInvalidValue, "hipGraphLaunch", "a child graph has a cycle");
            e = launch_graph(rt, co, cn, s, sync_seq);
            free(co);
            break;
        }
        default: e = v->exec ? enqueue_template(rt, s, v, sync_seq) : hipSuccess; break;
        }
        if (e) return e;
    }
    return hipSuccess;
}

/* ---------------- graphs ---------------- */

HIP_EXPORT hipError_t hipGraphCreate(hipGraph_t *pGraph, unsigned int flags)
{
    RT_OR_FAIL();
    if (!pGraph || flags) return hip_fail(hipErrorInvalidValue, "hipGraphCreate", "NULL pointer or flags %u", flags);
    pthread_mutex_lock(&rt->graph_lock);
    hipGraph_t g = graph_new(rt, false);
    pthread_mutex_unlock(&rt->graph_lock);
    if (!g) return hip_ret(hipErrorOutOfMemory);
    *pGraph = g;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipGraphDestroy(hipGraph_t graph)
{
    RT_OR_FAIL();
    pthread_mutex_lock(&rt->graph_lock);
    bool ok = graph_live(rt, graph) && !graph->owned;
    if (ok) graph_free(rt, graph);
    pthread_mutex_unlock(&rt->graph_lock);
    return ok ? hipSuccess : hip_fail(hipErrorInvalidValue, "hipGraphDestroy", "not a graph");
}

/* The common start of the hipGraphAdd*Node calls: a new node of type t for graph g after deps, its
 * parameters set by set(n) under the lock; the node is discarded if they are refused. */
typedef hipError_t (*node_setter)(hip_runtime *rt, hipGraphNode_t n, const void *arg, const char *api);

static hipError_t add_node(hipGraphNode_t *out, hipGraph_t g, const hipGraphNode_t *deps, size_t ndeps,
                           hipGraphNodeType t, node_setter set, const void *arg, const char *api)
{
    RT_OR_FAIL();
    if (!out) return hip_fail(hipErrorInvalidValue, api, "NULL node pointer");
    pthread_mutex_lock(&rt->graph_lock);
    hipError_t e = graph_live(rt, g) ? hipSuccess : hip_fail(hipErrorInvalidValue, api, "not a graph");
    hipGraphNode_t n = e ? NULL : calloc(1, sizeof *n);
    if (!e && !n) e = hip_ret(hipErrorOutOfMemory);
    if (!e && ndeps && !deps) e = hip_fail(hipErrorInvalidValue, api, "%zu dependencies but no array", ndeps);
    if (n) n->type = t;
    if (!e && set) e = set(rt, n, arg, api);
    if (!e) e = graph_insert(g, n, deps, ndeps, api);
    if (e && n) {
        list_remove(&g->nodes, n);
        for (size_t i = 0; i < n->deps.n; i++) list_remove(&n->deps.v[i]->outs, n);
        node_free(rt, n);
    }
    pthread_mutex_unlock(&rt->graph_lock);
    if (!e) *out = n;
    return e;
}

static hipError_t set_kernel(hip_runtime *rt, hipGraphNode_t n, const void *a, const char *api) { return kernel_params_set(rt, n, a, api); }
static hipError_t set_memcpy(hip_runtime *rt, hipGraphNode_t n, const void *a, const char *api) { (void)rt; return memcpy3d_set(n, a, api); }
static hipError_t set_memset(hip_runtime *rt, hipGraphNode_t n, const void *a, const char *api) { (void)rt; return memset_set(n, a, api); }
static hipError_t set_host(hip_runtime *rt, hipGraphNode_t n, const void *a, const char *api) { (void)rt; return host_set(n, a, api); }
static hipError_t set_child(hip_runtime *rt, hipGraphNode_t n, const void *a, const char *api) { return child_set(rt, n, (hipGraph_t)a, api); }
static hipError_t set_event(hip_runtime *rt, hipGraphNode_t n, const void *a, const char *api) { return event_set(rt, n, (hipEvent_t)a, api); }

typedef struct copy1d_args {
    void *dst;
    const void *src;
    size_t count, offset;
    hipMemcpyKind kind;
    const void *symbol;
} copy1d_args;

static hipError_t set_memcpy1d(hip_runtime *rt, hipGraphNode_t n, const void *a, const char *api)
{
    const copy1d_args *c = a;
    return memcpy1d_set(rt, n, c->dst, c->src, c->count, c->kind, api);
}

static hipError_t set_from_symbol(hip_runtime *rt, hipGraphNode_t n, const void *a, const char *api)
{
    const copy1d_args *c = a;
    return symbol_set(rt, n, c->dst, c->symbol, c->count, c->offset, c->kind, false, api);
}

static hipError_t set_to_symbol(hip_runtime *rt, hipGraphNode_t n, const void *a, const char *api)
{
    const copy1d_args *c = a;
    return symbol_set(rt, n, (void *)c->src, c->symbol, c->count, c->offset, c->kind, true, api);
}

HIP_EXPORT hipError_t hipGraphAddKernelNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                            size_t numDependencies, const hipKernelNodeParams *pNodeParams)
{
    return add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeKernel, set_kernel, pNodeParams,
                    "hipGraphAddKernelNode");
}

HIP_EXPORT hipError_t hipGraphAddMemcpyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                            size_t numDependencies, const hipMemcpy3DParms *pCopyParams)
{
    return add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeMemcpy, set_memcpy, pCopyParams,
                    "hipGraphAddMemcpyNode");
}

HIP_EXPORT hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                              size_t numDependencies, void *dst, const void *src, size_t count,
                                              hipMemcpyKind kind)
{
    copy1d_args a = { .dst = dst, .src = src, .count = count, .kind = kind };
    return add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeMemcpy1D, set_memcpy1d, &a,
                    "hipGraphAddMemcpyNode1D");
}

HIP_EXPORT hipError_t hipGraphAddMemcpyNodeFromSymbol(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                                      const hipGraphNode_t *pDependencies, size_t numDependencies,
                                                      void *dst, const void *symbol, size_t count, size_t offset,
                                                      hipMemcpyKind kind)
{
    copy1d_args a = { .dst = dst, .symbol = symbol, .count = count, .offset = offset, .kind = kind };
    return add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeMemcpyFromSymbol, set_from_symbol,
                    &a, "hipGraphAddMemcpyNodeFromSymbol");
}

HIP_EXPORT hipError_t hipGraphAddMemcpyNodeToSymbol(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                                    const hipGraphNode_t *pDependencies, size_t numDependencies,
                                                    const void *symbol, const void *src, size_t count, size_t offset,
                                                    hipMemcpyKind kind)
{
    copy1d_args a = { .src = src, .symbol = symbol, .count = count, .offset = offset, .kind = kind };
    return add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeMemcpyToSymbol, set_to_symbol, &a,
                    "hipGraphAddMemcpyNodeToSymbol");
}

HIP_EXPORT hipError_t hipGraphAddMemsetNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                            size_t numDependencies, const hipMemsetParams *pMemsetParams)
{
    return add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeMemset, set_memset, pMemsetParams,
                    "hipGraphAddMemsetNode");
}

HIP_EXPORT hipError_t hipGraphAddHostNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                          size_t numDependencies, const hipHostNodeParams *pNodeParams)
{
    return add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeHost, set_host, pNodeParams,
                    "hipGraphAddHostNode");
}

HIP_EXPORT hipError_t hipGraphAddChildGraphNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                                const hipGraphNode_t *pDependencies, size_t numDependencies,
                                                hipGraph_t childGraph)
{
    /* a graph may be its own child: the node holds a copy of the graph as it is now (as in CLR) */
    return add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeGraph, set_child, childGraph,
                    "hipGraphAddChildGraphNode");
}

HIP_EXPORT hipError_t hipGraphAddEmptyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                           size_t numDependencies)
{
    return add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeEmpty, NULL, NULL,
                    "hipGraphAddEmptyNode");
}

HIP_EXPORT hipError_t hipGraphAddEventRecordNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                                 const hipGraphNode_t *pDependencies, size_t numDependencies,
                                                 hipEvent_t event)
{
    return add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeEventRecord, set_event, event,
                    "hipGraphAddEventRecordNode");
}

HIP_EXPORT hipError_t hipGraphAddEventWaitNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                               const hipGraphNode_t *pDependencies, size_t numDependencies,
                                               hipEvent_t event)
{
    return add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeWaitEvent, set_event, event,
                    "hipGraphAddEventWaitNode");
}

/* ---------------- edges and queries ---------------- */

static hipError_t edges_check(hip_runtime *rt, hipGraph_t g, const hipGraphNode_t *from, const hipGraphNode_t *to,
                              size_t n, const char *api)
{
    if (!graph_live(rt, g)) return hip_fail(hipErrorInvalidValue, api, "not a graph");
    if (n && (!from || !to)) return hip_fail(hipErrorInvalidValue, api, "%zu edges but no arrays", n);
    for (size_t i = 0; i < n; i++) {
        if (!list_has(&g->nodes, from[i]) || !list_has(&g->nodes, to[i]))
            return hip_fail(hipErrorInvalidValue, api, "edge %zu: a node not of the graph", i);
        if (from[i] == to[i]) return hip_fail(hipErrorInvalidValue, api, "edge %zu: a node cannot depend on itself", i);
    }
    return hipSuccess;
}

HIP_EXPORT hipError_t hipGraphAddDependencies(hipGraph_t graph, const hipGraphNode_t *from, const hipGraphNode_t *to,
                                              size_t numDependencies)
{
    RT_OR_FAIL();
    const char *api = "hipGraphAddDependencies";
    pthread_mutex_lock(&rt->graph_lock);
    hipError_t e = edges_check(rt, graph, from, to, numDependencies, api);
    for (size_t i = 0; !e && i < numDependencies; i++)
        if (list_has(&to[i]->deps, from[i])) e = hip_fail(hipErrorInvalidValue, api, "edge %zu exists already", i);
    for (size_t i = 0; !e && i < numDependencies; i++)
        if (!list_push(&to[i]->deps, from[i]) || !list_push(&from[i]->outs, to[i])) e = hip_ret(hipErrorOutOfMemory);
    pthread_mutex_unlock(&rt->graph_lock);
    return e;
}

HIP_EXPORT hipError_t hipGraphRemoveDependencies(hipGraph_t graph, const hipGraphNode_t *from, const hipGraphNode_t *to,
                                                 size_t numDependencies)
{
    RT_OR_FAIL();
    const char *api = "hipGraphRemoveDependencies";
    pthread_mutex_lock(&rt->graph_lock);
    hipError_t e = edges_check(rt, graph, from, to, numDependencies, api);
    for (size_t i = 0; !e && i < numDependencies; i++)
        if (!list_has(&to[i]->deps, from[i])) e = hip_fail(hipErrorInvalidValue, api, "edge %zu does not exist", i);
    for (size_t i = 0; !e && i < numDependencies; i++) {
        list_remove(&to[i]->deps, from[i]);
        list_remove(&from[i]->outs, to[i]);
    }
    pthread_mutex_unlock(&rt->graph_lock);
    return e;
}

/* The count-then-fill protocol of the Get calls: out NULL: *n = how many; else up to *n of them,
 * the rest of out NULL, *n the number written. */
static void answer_list(const node_list *l, hipGraphNode_t *out, size_t *n)
{
    if (!out) {
        *n = l->n;
        return;
    }
    size_t k = 0;
    for (; k < *n && k < l->n; k++) out[k] = l->v[k];
    for (size_t i = k; i < *n; i++) out[i] = NULL;
    *n = k;
}

HIP_EXPORT hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t *nodes, size_t *numNodes)
{
    RT_OR_FAIL();
    if (!numNodes) return hip_fail(hipErrorInvalidValue, "hipGraphGetNodes", "NULL count");
    pthread_mutex_lock(&rt->graph_lock);
    bool ok = graph_live(rt, graph);
    if (ok) answer_list(&graph->nodes, nodes, numNodes);
    pthread_mutex_unlock(&rt->graph_lock);
    return ok ? hipSuccess : hip_fail(hipErrorInvalidValue, "hipGraphGetNodes", "not a graph");
}

HIP_EXPORT hipError_t hipGraphGetRootNodes(hipGraph_t graph, hipGraphNode_t *pRootNodes, size_t *pNumRootNodes)
{
    RT_OR_FAIL();
    if (!pNumRootNodes) return hip_fail(hipErrorInvalidValue, "hipGraphGetRootNodes", "NULL count");
    pthread_mutex_lock(&rt->graph_lock);
    bool ok = graph_live(rt, graph);
    node_list roots = { 0 };
    for (size_t i = 0; ok && i < graph->nodes.n; i++)
        if (!graph->nodes.v[i]->deps.n && !list_push(&roots, graph->nodes.v[i])) ok = false;
    if (ok) answer_list(&roots, pRootNodes, pNumRootNodes);
    free(roots.v);
    pthread_mutex_unlock(&rt->graph_lock);
    return ok ? hipSuccess : hip_fail(hipErrorInvalidValue, "hipGraphGetRootNodes", "not a graph");
}

HIP_EXPORT hipError_t hipGraphGetEdges(hipGraph_t graph, hipGraphNode_t *from, hipGraphNode_t *to, size_t *numEdges)
{
    RT_OR_FAIL();
    const char *api = "hipGraphGetEdges";
    if (!numEdges || (!from) != (!to)) return hip_fail(hipErrorInvalidValue, api, "NULL count, or one array of two");
    pthread_mutex_lock(&rt->graph_lock);
    bool ok = graph_live(rt, graph);
    size_t k = 0;
    for (size_t i = 0; ok && i < graph->nodes.n; i++) {
        hipGraphNode_t v = graph->nodes.v[i];
        for (size_t j = 0; j < v->outs.n; j++, k++)
            if (from && k < *numEdges) from[k] = v, to[k] = v->outs.v[j];
    }
    if (ok && from) {
        for (size_t i = k; i < *numEdges; i++) from[i] = to[i] = NULL;
        if (k < *numEdges) *numEdges = k;
    } else if (ok) {
        *numEdges = k;
    }
    pthread_mutex_unlock(&rt->graph_lock);
    return ok ? hipSuccess : hip_fail(hipErrorInvalidValue, api, "not a graph");
}

static hipError_t node_list_query(hipGraphNode_t node, bool deps, hipGraphNode_t *out, size_t *n, const char *api)
{
    RT_OR_FAIL();
    if (!n) return hip_fail(hipErrorInvalidValue, api, "NULL count");
    pthread_mutex_lock(&rt->graph_lock);
    bool ok = node_live(rt, node);
    if (ok) answer_list(deps ? &node->deps : &node->outs, out, n);
    pthread_mutex_unlock(&rt->graph_lock);
    return ok ? hipSuccess : hip_fail(hipErrorInvalidValue, api, "not a graph node");
}

HIP_EXPORT hipError_t hipGraphNodeGetDependencies(hipGraphNode_t node, hipGraphNode_t *pDependencies, size_t *pNumDependencies)
{
    return node_list_query(node, true, pDependencies, pNumDependencies, "hipGraphNodeGetDependencies");
}

HIP_EXPORT hipError_t hipGraphNodeGetDependentNodes(hipGraphNode_t node, hipGraphNode_t *pDependentNodes,
                                                    size_t *pNumDependentNodes)
{
    return node_list_query(node, false, pDependentNodes, pNumDependentNodes, "hipGraphNodeGetDependentNodes");
}

HIP_EXPORT hipError_t hipGraphNodeGetType(hipGraphNode_t node, hipGraphNodeType *pType)
{
    RT_OR_FAIL();
    if (!pType) return hip_fail(hipErrorInvalidValue, "hipGraphNodeGetType", "NULL pointer");
    pthread_mutex_lock(&rt->graph_lock);
    bool ok = node_live(rt, node);
    if (ok) *pType = node->type;
    pthread_mutex_unlock(&rt->graph_lock);
    return ok ? hipSuccess : hip_fail(hipErrorInvalidValue, "hipGraphNodeGetType", "not a graph node");
}

HIP_EXPORT hipError_t hipGraphDestroyNode(hipGraphNode_t node)
{
    RT_OR_FAIL();
    pthread_mutex_lock(&rt->graph_lock);
    bool ok = node_live(rt, node);
    if (ok) {
        for (size_t i = 0; i < node->deps.n; i++) list_remove(&node->deps.v[i]->outs, node);
        for (size_t i = 0; i < node->outs.n; i++) list_remove(&node->outs.v[i]->deps, node);
        list_remove(&node->graph->nodes, node);
        node_free(rt, node);
    }
    pthread_mutex_unlock(&rt->graph_lock);
    return ok ? hipSuccess : hip_fail(hipErrorInvalidValue, "hipGraphDestroyNode", "not a graph node");
}

HIP_EXPORT hipError_t hipGraphClone(hipGraph_t *pGraphClone, hipGraph_t originalGraph)
{
    RT_OR_FAIL();
    if (!pGraphClone) return hip_fail(hipErrorInvalidValue, "hipGraphClone", "NULL pointer");
    pthread_mutex_lock(&rt->graph_lock);
    hipError_t e = graph_live(rt, originalGraph) ? hipSuccess : hip_fail(hipErrorInvalidValue, "hipGraphClone", "not a graph");
    hipGraph_t c = e ? NULL : graph_clone(rt, originalGraph, false);
    if (!e && !c) e = hip_ret(hipErrorOutOfMemory);
    pthread_mutex_unlock(&rt->graph_lock);
    if (!e) *pGraphClone = c;
    return e;
}

HIP_EXPORT hipError_t hipGraphNodeFindInClone(hipGraphNode_t *pNode, hipGraphNode_t originalNode, hipGraph_t clonedGraph)
{
    RT_OR_FAIL();
    const char *api = "hipGraphNodeFindInClone";
    if (!pNode) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    pthread_mutex_lock(&rt->graph_lock);
    hipError_t e = graph_live(rt, clonedGraph) && node_live(rt, originalNode) ? hipSuccess
                 : hip_fail(hipErrorInvalidValue, api, "not a graph or not a node");
    hipGraphNode_t found = NULL;
    for (size_t i = 0; !e && i < clonedGraph->nodes.n && !found; i++)
        if (clonedGraph->nodes.v[i]->original == originalNode) found = clonedGraph->nodes.v[i];
    if (!e && !found) e = hip_fail(hipErrorInvalidValue, api, "the node has no copy in that graph");
    pthread_mutex_unlock(&rt->graph_lock);
    if (!e) *pNode = found;
    return e;
}

/* ---------------- node parameters: get and set ---------------- */

/* A node of the type given (any memcpy type when t is hipGraphNodeTypeMemcpy and any_copy) under
 * the lock: hipSuccess, else the lock is released and the error returned. */
static hipError_t node_locked(hip_runtime *rt, hipGraphNode_t n, hipGraphNodeType t, const char *api)
{
    pthread_mutex_lock(&rt->graph_lock);
    if (node_live(rt, n) && n->type == t) return hipSuccess;
    pthread_mutex_unlock(&rt->graph_lock);
    return hip_fail(hipErrorInvalidValue, api, "not a graph node of that type");
}

/* The Get calls that copy a field: field(n) of node n (of type t), size bytes, into out. */
static const void *memset_field(hipGraphNode_t n) { return &n->ms; }
static const void *host_field(hipGraphNode_t n) { return &n->host; }
static const void *child_field(hipGraphNode_t n) { return &n->child; }
static const void *event_field(hipGraphNode_t n) { return &n->event; }

static hipError_t node_get(hipGraphNode_t n, hipGraphNodeType t, void *out, size_t size,
                           const void *(*field)(hipGraphNode_t), const char *api)
{
    RT_OR_FAIL();
    if (!out) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    hipError_t e = node_locked(rt, n, t, api);
    if (e) return e;
    memcpy(out, field(n), size);
    pthread_mutex_unlock(&rt->graph_lock);
    return hipSuccess;
}

/* The Set calls: node n (of type t) gets its new parameters from set(arg) under the lock. */
static hipError_t node_set(hipGraphNode_t n, hipGraphNodeType t, node_setter set, const void *arg, const char *api)
{
    RT_OR_FAIL();
    hipError_t e = node_locked(rt, n, t, api);
    if (e) return e;
    e = set(rt, n, arg, api);
    pthread_mutex_unlock(&rt->graph_lock);
    return e;
}

HIP_EXPORT hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t node, hipKernelNodeParams *pNodeParams)
{
    RT_OR_FAIL();
    if (!pNodeParams) return hip_fail(hipErrorInvalidValue, "hipGraphKernelNodeGetParams", "NULL pointer");
    hipError_t e = node_locked(rt, node, hipGraphNodeTypeKernel, "hipGraphKernelNodeGetParams");
    if (e) return e;
    *pNodeParams = (hipKernelNodeParams){ .blockDim = node->kernel.block, .gridDim = node->kernel.grid,
                                          .func = (void *)(node->kernel.host_fn ? node->kernel.host_fn : (const void *)node->kernel.f),
                                          .kernelParams = node->kernel.argv, .sharedMemBytes = node->kernel.shared };
    pthread_mutex_unlock(&rt->graph_lock);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t node, const hipKernelNodeParams *pNodeParams)
{
    return node_set(node, hipGraphNodeTypeKernel, set_kernel, pNodeParams, "hipGraphKernelNodeSetParams");
}

/* A memcpy node's parameters as hipMemcpy3DParms (given so, or made from its job). */
static hipMemcpy3DParms memcpy_params(const hipGraphNode_t n)
{
    if (n->type == hipGraphNodeTypeMemcpy && (n->m3.srcPtr.ptr || n->m3.srcArray)) return n->m3;
    const hip_copy_job *j = &n->job;
    hipMemcpy3DParms p = { 0 };
    p.srcPtr = make_hipPitchedPtr((void *)j->src, j->spitch, j->width, j->height > 1 && j->spitch ? j->sslice / j->spitch : j->height);
    p.dstPtr = make_hipPitchedPtr(j->dst, j->dpitch, j->width, j->height > 1 && j->dpitch ? j->dslice / j->dpitch : j->height);
    p.extent = make_hipExtent(j->width, j->height, j->depth);
    p.kind = hipMemcpyDefault;
    return p;
}

HIP_EXPORT hipError_t hipGraphMemcpyNodeGetParams(hipGraphNode_t node, hipMemcpy3DParms *pNodeParams)
{
    RT_OR_FAIL();
    if (!pNodeParams) return hip_fail(hipErrorInvalidValue, "hipGraphMemcpyNodeGetParams", "NULL pointer");
    hipError_t e = node_locked(rt, node, hipGraphNodeTypeMemcpy, "hipGraphMemcpyNodeGetParams");
    if (e) return e;
    *pNodeParams = memcpy_params(node);
    pthread_mutex_unlock(&rt->graph_lock);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipGraphMemcpyNodeSetParams(hipGraphNode_t node, const hipMemcpy3DParms *pNodeParams)
{
    return node_set(node, hipGraphNodeTypeMemcpy, set_memcpy, pNodeParams, "hipGraphMemcpyNodeSetParams");
}

HIP_EXPORT hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t node, void *dst, const void *src, size_t count,
                                                    hipMemcpyKind kind)
{
    copy1d_args a = { .dst = dst, .src = src, .count = count, .kind = kind };
    return node_set(node, hipGraphNodeTypeMemcpy1D, set_memcpy1d, &a, "hipGraphMemcpyNodeSetParams1D");
}

HIP_EXPORT hipError_t hipGraphMemcpyNodeSetParamsFromSymbol(hipGraphNode_t node, void *dst, const void *symbol, size_t count,
                                                            size_t offset, hipMemcpyKind kind)
{
    copy1d_args a = { .dst = dst, .symbol = symbol, .count = count, .offset = offset, .kind = kind };
    return node_set(node, hipGraphNodeTypeMemcpyFromSymbol, set_from_symbol, &a, "hipGraphMemcpyNodeSetParamsFromSymbol");
}

HIP_EXPORT hipError_t hipGraphMemcpyNodeSetParamsToSymbol(hipGraphNode_t node, const void *symbol, const void *src,
                                                          size_t count, size_t offset, hipMemcpyKind kind)
{
    copy1d_args a = { .src = src, .symbol = symbol, .count = count, .offset = offset, .kind = kind };
    return node_set(node, hipGraphNodeTypeMemcpyToSymbol, set_to_symbol, &a, "hipGraphMemcpyNodeSetParamsToSymbol");
}

HIP_EXPORT hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t node, hipMemsetParams *pNodeParams)
{
    return node_get(node, hipGraphNodeTypeMemset, pNodeParams, sizeof *pNodeParams, memset_field, "hipGraphMemsetNodeGetParams");
}

HIP_EXPORT hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t node, const hipMemsetParams *pNodeParams)
{
    return node_set(node, hipGraphNodeTypeMemset, set_memset, pNodeParams, "hipGraphMemsetNodeSetParams");
}

HIP_EXPORT hipError_t hipGraphHostNodeGetParams(hipGraphNode_t node, hipHostNodeParams *pNodeParams)
{
    return node_get(node, hipGraphNodeTypeHost, pNodeParams, sizeof *pNodeParams, host_field, "hipGraphHostNodeGetParams");
}

HIP_EXPORT hipError_t hipGraphHostNodeSetParams(hipGraphNode_t node, const hipHostNodeParams *pNodeParams)
{
    return node_set(node, hipGraphNodeTypeHost, set_host, pNodeParams, "hipGraphHostNodeSetParams");
}

HIP_EXPORT hipError_t hipGraphChildGraphNodeGetGraph(hipGraphNode_t node, hipGraph_t *pGraph)
{
    return node_get(node, hipGraphNodeTypeGraph, pGraph, sizeof *pGraph, child_field, "hipGraphChildGraphNodeGetGraph");
}

static hipError_t event_get(hipGraphNode_t node, hipGraphNodeType t, hipEvent_t *out, const char *api)
{
    return node_get(node, t, out, sizeof *out, event_field, api);
}

static hipError_t event_node_set(hipGraphNode_t node, hipGraphNodeType t, hipEvent_t ev, const char *api)
{
    return node_set(node, t, set_event, ev, api);
}

HIP_EXPORT hipError_t hipGraphEventRecordNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out)
{
    return event_get(node, hipGraphNodeTypeEventRecord, event_out, "hipGraphEventRecordNodeGetEvent");
}

HIP_EXPORT hipError_t hipGraphEventRecordNodeSetEvent(hipGraphNode_t node, hipEvent_t event)
{
    return event_node_set(node, hipGraphNodeTypeEventRecord, event, "hipGraphEventRecordNodeSetEvent");
}

HIP_EXPORT hipError_t hipGraphEventWaitNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out)
{
    return event_get(node, hipGraphNodeTypeWaitEvent, event_out, "hipGraphEventWaitNodeGetEvent");
}

HIP_EXPORT hipError_t hipGraphEventWaitNodeSetEvent(hipGraphNode_t node, hipEvent_t event)
{
    return event_node_set(node, hipGraphNodeTypeWaitEvent, event, "hipGraphEventWaitNodeSetEvent");
}

/* ---------------- executable graphs ---------------- */

static hipError_t instantiate(hipGraphExec_t *out, hipGraph_t graph, const char *api)
{
    RT_OR_FAIL();
    if (!out) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    pthread_mutex_lock(&rt->graph_lock);
    hipError_t e = graph_live(rt, graph) ? hipSuccess : hip_fail(hipErrorInvalidValue, api, "not a graph");
    hipGraphExec_t x = e ? NULL : calloc(1, sizeof *x);
    if (!e && !x) e = hip_ret(hipErrorOutOfMemory);
    if (!e && !(x->g = graph_clone(rt, graph, true))) e = hip_ret(hipErrorOutOfMemory);
    if (!e && !(x->order = graph_order(x->g, &x->n)) && graph->nodes.n)
        e = hip_fail(hipErrorInvalidValue, api, "the graph has a cycle");
    if (e && x) {
        if (x->g) graph_free(rt, x->g);
        free(x);
    } else if (!e) {
        x->next = rt->execs, rt->execs = x;
    }
    pthread_mutex_unlock(&rt->graph_lock);
    if (!e) *out = x;
    return e;
}

HIP_EXPORT hipError_t hipGraphInstantiate(hipGraphExec_t *pGraphExec, hipGraph_t graph, hipGraphNode_t *pErrorNode,
                                          char *pLogBuffer, size_t bufferSize)
{
    (void)pErrorNode;
    if (pLogBuffer && bufferSize) pLogBuffer[0] = 0;
    return instantiate(pGraphExec, graph, "hipGraphInstantiate");
}

HIP_EXPORT hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t *pGraphExec, hipGraph_t graph, unsigned long long flags)
{
    /* hipGraphInstantiateFlagAutoFreeOnLaunch concerns memory-allocation nodes, which HIP 5.2 has not */
    if (flags & ~(unsigned long long)hipGraphInstantiateFlagAutoFreeOnLaunch)
        return hip_fail(hipErrorInvalidValue, "hipGraphInstantiateWithFlags", "flags %#llx", flags);
    return instantiate(pGraphExec, graph, "hipGraphInstantiateWithFlags");
}

/* The position where x's last launch ends (retained; NULL: none), for a wait outside the lock. */
static plat_stream *last_launch(hipGraphExec_t x, uint64_t *seq)
{
    if (x->last_ps) plat_stream_retain(x->last_ps);
    *seq = x->last_seq;
    return x->last_ps;
}

static void wait_released(plat_stream *ps, uint64_t seq)
{
    if (!ps) return;
    plat_stream_wait(ps, seq);
    plat_stream_release(ps);
}

static hipError_t capture_child(hip_runtime *rt, hipStream_t s, hipGraph_t g, const char *api);

HIP_EXPORT hipError_t hipGraphLaunch(hipGraphExec_t graphExec, hipStream_t stream)
{
    RT_OR_FAIL();
    const char *api = "hipGraphLaunch";
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_fail(hipErrorInvalidValue, api, "not a stream");
    pthread_mutex_lock(&rt->graph_lock);
    hipError_t e = exec_live(rt, graphExec) ? hipSuccess : hip_fail(hipErrorInvalidValue, api, "not an executable graph");
    if (!e && s->capture_id) {   /* launched into a capture: the graph becomes a child-graph node */
        e = capture_child(rt, s, graphExec->g, api);
        pthread_mutex_unlock(&rt->graph_lock);
        return e;
    }
    if (!e && graphExec->last_ps && graphExec->last_ps != s->ps &&
        !plat_stream_reached(graphExec->last_ps, graphExec->last_seq))
        e = hip_stream_wait_position(rt, s, graphExec->last_ps, graphExec->last_seq);   /* after its last launch */
    uint64_t sync_seq = 0;
    if (!e) e = launch_graph(rt, graphExec->order, graphExec->n, s, &sync_seq);
    if (!e) {
        plat_stream_retain(s->ps);
        if (graphExec->last_ps) plat_stream_release(graphExec->last_ps);
        graphExec->last_ps = s->ps, graphExec->last_seq = plat_stream_last(s->ps);
    }
    pthread_mutex_unlock(&rt->graph_lock);
    if (!e && sync_seq) plat_stream_wait(s->ps, sync_seq);   /* outside the lock: host nodes may call HIP */
    return e ? e : hip_sticky() ? hip_ret(hip_sticky()) : hipSuccess;
}

HIP_EXPORT hipError_t hipGraphExecDestroy(hipGraphExec_t graphExec)
{
    RT_OR_FAIL();
    pthread_mutex_lock(&rt->graph_lock);
    bool ok = false;
    for (hipGraphExec_t *pp = &rt->execs; *pp; pp = &(*pp)->next)
        if (*pp == graphExec && graphExec) {
            *pp = graphExec->next, ok = true;
            break;
        }
    pthread_mutex_unlock(&rt->graph_lock);
    if (!ok) return hip_fail(hipErrorInvalidValue, "hipGraphExecDestroy", "not an executable graph");
    wait_released(graphExec->last_ps, graphExec->last_seq);   /* its commands use its payloads */
    pthread_mutex_lock(&rt->graph_lock);
    graph_free(rt, graphExec->g);
    pthread_mutex_unlock(&rt->graph_lock);
    free(graphExec->order);
    free(graphExec);
    return hipSuccess;
}

/* The copy in x of the graph's node n (NULL if none), under the lock. */
static hipGraphNode_t exec_node(hipGraphExec_t x, hipGraphNode_t n)
{
    for (size_t i = 0; i < x->g->nodes.n; i++)
        if (x->g->nodes.v[i]->original == n) return x->g->nodes.v[i];
    return NULL;
}

/* The start of the hipGraphExec*SetParams calls: x's copy of node n (of type t), once x's last
 * launch has ended (its commands read the payloads), with the lock held; else the error. */
/* Take the lock once x has no launch in flight (its commands read the payloads a change would
 * free); false (lock not held) if x is not a live executable graph. */
static bool lock_idle(hip_runtime *rt, hipGraphExec_t x)
{
    for (;;) {
        pthread_mutex_lock(&rt->graph_lock);
        if (!exec_live(rt, x)) {
            pthread_mutex_unlock(&rt->graph_lock);
            return false;
        }
        uint64_t seq = 0;
        plat_stream *ps = last_launch(x, &seq);
        if (!ps || plat_stream_reached(ps, seq)) {
            if (ps) plat_stream_release(ps);
            return true;
        }
        pthread_mutex_unlock(&rt->graph_lock);   /* wait without it: host nodes may call HIP */
        wait_released(ps, seq);
    }
}

static hipError_t exec_node_locked(hip_runtime *rt, hipGraphExec_t x, hipGraphNode_t n, hipGraphNodeType t,
                                   hipGraphNode_t *out, const char *api)
{
    if (!lock_idle(rt, x)) return hip_fail(hipErrorInvalidValue, api, "not an executable graph");
    hipGraphNode_t c = node_live(rt, n) ? exec_node(x, n) : NULL;
    if (c && c->type == t && n->type == t) {
        *out = c;
        return hipSuccess;
    }
    pthread_mutex_unlock(&rt->graph_lock);
    return hip_fail(hipErrorInvalidValue, api, "the node is not of the executable graph, or not of this type");
}

/* The Exec*Set calls: x's copy of node n (of type t) gets its new parameters from set(arg). */
static hipError_t exec_set(hipGraphExec_t x, hipGraphNode_t n, hipGraphNodeType t, node_setter set, const void *arg,
                           const char *api)
{
    RT_OR_FAIL();
    hipGraphNode_t c = NULL;
    hipError_t e = exec_node_locked(rt, x, n, t, &c, api);
    if (e) return e;
    e = set(rt, c, arg, api);
    pthread_mutex_unlock(&rt->graph_lock);
    return e;
}

HIP_EXPORT hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                                      const hipKernelNodeParams *pNodeParams)
{
    return exec_set(hGraphExec, node, hipGraphNodeTypeKernel, set_kernel, pNodeParams, "hipGraphExecKernelNodeSetParams");
}

HIP_EXPORT hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                                      hipMemcpy3DParms *pNodeParams)
{
    return exec_set(hGraphExec, node, hipGraphNodeTypeMemcpy, set_memcpy, pNodeParams, "hipGraphExecMemcpyNodeSetParams");
}

HIP_EXPORT hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t hGraphExec, hipGraphNode_t node, void *dst,
                                                        const void *src, size_t count, hipMemcpyKind kind)
{
    copy1d_args a = { .dst = dst, .src = src, .count = count, .kind = kind };
    return exec_set(hGraphExec, node, hipGraphNodeTypeMemcpy1D, set_memcpy1d, &a, "hipGraphExecMemcpyNodeSetParams1D");
}

HIP_EXPORT hipError_t hipGraphExecMemcpyNodeSetParamsFromSymbol(hipGraphExec_t hGraphExec, hipGraphNode_t node, void *dst,
                                                                const void *symbol, size_t count, size_t offset,
                                                                hipMemcpyKind kind)
{
    copy1d_args a = { .dst = dst, .symbol = symbol, .count = count, .offset = offset, .kind = kind };
    return exec_set(hGraphExec, node, hipGraphNodeTypeMemcpyFromSymbol, set_from_symbol, &a,
                    "hipGraphExecMemcpyNodeSetParamsFromSymbol");
}

HIP_EXPORT hipError_t hipGraphExecMemcpyNodeSetParamsToSymbol(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                                              const void *symbol, const void *src, size_t count,
                                                              size_t offset, hipMemcpyKind kind)
{
    copy1d_args a = { .src = src, .symbol = symbol, .count = count, .offset = offset, .kind = kind };
    return exec_set(hGraphExec, node, hipGraphNodeTypeMemcpyToSymbol, set_to_symbol, &a,
                    "hipGraphExecMemcpyNodeSetParamsToSymbol");
}

HIP_EXPORT hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                                      const hipMemsetParams *pNodeParams)
{
    return exec_set(hGraphExec, node, hipGraphNodeTypeMemset, set_memset, pNodeParams, "hipGraphExecMemsetNodeSetParams");
}

HIP_EXPORT hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                                    const hipHostNodeParams *pNodeParams)
{
    return exec_set(hGraphExec, node, hipGraphNodeTypeHost, set_host, pNodeParams, "hipGraphExecHostNodeSetParams");
}

HIP_EXPORT hipError_t hipGraphExecChildGraphNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                                          hipGraph_t childGraph)
{
    return exec_set(hGraphExec, node, hipGraphNodeTypeGraph, set_child, childGraph, "hipGraphExecChildGraphNodeSetParams");
}

HIP_EXPORT hipError_t hipGraphExecEventRecordNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, hipEvent_t event)
{
    return exec_set(hGraphExec, hNode, hipGraphNodeTypeEventRecord, set_event, event, "hipGraphExecEventRecordNodeSetEvent");
}

HIP_EXPORT hipError_t hipGraphExecEventWaitNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, hipEvent_t event)
{
    return exec_set(hGraphExec, hNode, hipGraphNodeTypeWaitEvent, set_event, event, "hipGraphExecEventWaitNodeSetEvent");
}

/* Whether graph g can replace the graph x was made from (HIP 5.2's rules): the same nodes in the
 * same order, of the same types, with the same edges; unlike CUDA, a kernel node may change its
 * function (CLR 5.2 allows it, and hip-tests' ExecUpdate test does it). */
static hipGraphExecUpdateResult update_check(hipGraphExec_t x, hipGraph_t g, hipGraphNode_t *bad)
{
    hipGraph_t o = x->g;
    *bad = NULL;
    if (o->nodes.n != g->nodes.n) return hipGraphExecUpdateErrorTopologyChanged;
    for (size_t i = 0; i < g->nodes.n; i++) g->nodes.v[i]->index = i, o->nodes.v[i]->index = i;
    for (size_t i = 0; i < g->nodes.n; i++) {
        hipGraphNode_t a = o->nodes.v[i], b = g->nodes.v[i];
        *bad = b;
        if (a->type != b->type) return hipGraphExecUpdateErrorNodeTypeChanged;
        if (a->deps.n != b->deps.n) return hipGraphExecUpdateErrorTopologyChanged;
        for (size_t k = 0; k < a->deps.n; k++) {
            bool found = false;
            for (size_t j = 0; j < b->deps.n && !found; j++) found = b->deps.v[j]->index == a->deps.v[k]->index;
            if (!found) return hipGraphExecUpdateErrorTopologyChanged;
        }
        if (a->type == hipGraphNodeTypeGraph) return hipGraphExecUpdateErrorNotSupported;
    }
    *bad = NULL;
    return hipGraphExecUpdateSuccess;
}

HIP_EXPORT hipError_t hipGraphExecUpdate(hipGraphExec_t hGraphExec, hipGraph_t hGraph, hipGraphNode_t *hErrorNode_out,
                                         hipGraphExecUpdateResult *updateResult_out)
{
    RT_OR_FAIL();
    const char *api = "hipGraphExecUpdate";
    if (!hErrorNode_out || !updateResult_out) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    if (!lock_idle(rt, hGraphExec)) return hip_fail(hipErrorInvalidValue, api, "not an executable graph");
    if (!graph_live(rt, hGraph)) {
        pthread_mutex_unlock(&rt->graph_lock);
        return hip_fail(hipErrorInvalidValue, api, "not a graph");
    }
    hipError_t e = hipSuccess;
    hipGraphExecUpdateResult r = update_check(hGraphExec, hGraph, hErrorNode_out);
    for (size_t i = 0; r == hipGraphExecUpdateSuccess && i < hGraph->nodes.n; i++) {
        hipGraphNode_t d = hGraphExec->g->nodes.v[i], s = hGraph->nodes.v[i];
        if (params_copy(rt, d, s)) r = hipGraphExecUpdateError, *hErrorNode_out = s;
        d->original = s;   /* the Exec*SetParams calls name the new graph's nodes now */
    }
    if (r != hipGraphExecUpdateSuccess) e = hip_fail(hipErrorGraphExecUpdateFailure, api, "update result %d", (int)r);
    *updateResult_out = r;
    pthread_mutex_unlock(&rt->graph_lock);
    return e;
}

/* ---------------- stream capture ---------------- */

static hip_capture *capture_of(hip_runtime *rt, unsigned long long id)
{
    for (hip_capture *c = rt->captures; c && id; c = c->next)
        if (c->id == id) return c;
    return NULL;
}

bool hip_capturing(hipStream_t s)
{
    hip_runtime *rt = hip_rt();
    if (!rt || !s) return false;
    pthread_mutex_lock(&rt->graph_lock);
    bool on = s->capture_id != 0;
    pthread_mutex_unlock(&rt->graph_lock);
    return on;
}

static bool frontier_set(hipStream_t s, const hipGraphNode_t *v, size_t n)
{
    if (n > s->cap_deps_cap) {
        hipGraphNode_t *d = realloc(s->cap_deps, n * sizeof *d);
        if (!d) return false;
        s->cap_deps = d, s->cap_deps_cap = n;
    }
    if (n) memmove(s->cap_deps, v, n * sizeof *v);
    s->ncap_deps = n;
    return true;
}

static bool frontier_add(hipStream_t s, hipGraphNode_t n)
{
    for (size_t i = 0; i < s->ncap_deps; i++)
        if (s->cap_deps[i] == n) return true;
    if (s->ncap_deps == s->cap_deps_cap) {
        size_t cap = s->cap_deps_cap ? 2 * s->cap_deps_cap : 4;
        hipGraphNode_t *d = realloc(s->cap_deps, cap * sizeof *d);
        if (!d) return false;
        s->cap_deps = d, s->cap_deps_cap = cap;
    }
    s->cap_deps[s->ncap_deps++] = n;
    return true;
}

static void stream_leave(hipStream_t s)
{
    s->capture_id = 0;
    s->ncap_deps = 0;
}

/* End capture c on every stream taking part, and forget it (its graph is the caller's). */
static void capture_end(hip_runtime *rt, hip_capture *c)
{
    if (c->origin) stream_leave(c->origin);
    for (size_t i = 0; i < c->njoined; i++) stream_leave(c->joined[i]);
    for (hip_capture **pp = &rt->captures; *pp; pp = &(*pp)->next)
        if (*pp == c) {
            *pp = c->next;
            break;
        }
    free(c->joined);
    free(c);
}

static hipError_t invalidate(hip_capture *c, hipError_t e, const char *api, const char *why)
{
    c->invalidated = true;
    return hip_fail(e, api, "%s: the capture is invalidated", why);
}

/* Append node n (its parameters set) to s's capture after s's frontier; n becomes the frontier.
 * Under the lock; n is freed on failure. */
static hipError_t capture_append(hip_runtime *rt, hipStream_t s, hipGraphNode_t n, const char *api)
{
    hip_capture *c = capture_of(rt, s->capture_id);
    hipError_t e = !c ? hip_fail(hipErrorStreamCaptureInvalidated, api, "the capture has ended")
                 : c->invalidated ? hip_fail(hipErrorStreamCaptureInvalidated, api, "the stream's capture was invalidated")
                 : graph_insert(c->graph, n, s->cap_deps, s->ncap_deps, api);
    if (e) {
        if (c) {
            list_remove(&c->graph->nodes, n);
            for (size_t i = 0; i < n->deps.n; i++) list_remove(&n->deps.v[i]->outs, n);
        }
        node_free(rt, n);
        return e;
    }
    if (!frontier_set(s, &n, 1)) return invalidate(c, hipErrorOutOfMemory, api, "no memory");
    return hipSuccess;
}

hipError_t hip_capture_launch(hip_runtime *rt, hipStream_t s, const hip_launch_params *p, const char *api)
{
    hipGraphNode_t n = calloc(1, sizeof *n);
    if (!n) return hip_ret(hipErrorOutOfMemory);
    n->type = hipGraphNodeTypeKernel;
    hip_launch_params q = *p;
    q.start = q.stop = NULL;
    bool captured;
    hipError_t e = p->start ? hip_capture_event_record(rt, s, p->start, &captured) : hipSuccess;
    pthread_mutex_lock(&rt->graph_lock);
    if (!e) e = kernel_set(rt, n, NULL, &q, api);   /* a refused launch is refused as on a stream */
    if (e) node_free(rt, n);
    else e = capture_append(rt, s, n, api);
    pthread_mutex_unlock(&rt->graph_lock);
    if (!e && p->stop) e = hip_capture_event_record(rt, s, p->stop, &captured);
    return e;
}

hipError_t hip_capture_copy(hip_runtime *rt, hipStream_t s, const hip_copy_job *j, bool sync, const char *api)
{
    pthread_mutex_lock(&rt->graph_lock);
    hip_capture *c = capture_of(rt, s->capture_id);
    hipError_t e = hipSuccess;
    if (sync && c) e = invalidate(c, hipErrorStreamCaptureUnsupported, api, "a synchronous copy or fill in a capturing stream");
    hipGraphNode_t n = e ? NULL : calloc(1, sizeof *n);
    if (!e && !n) e = hip_ret(hipErrorOutOfMemory);
    if (!e) {
        n->type = j->fill ? hipGraphNodeTypeMemset : j->height == 1 && j->depth == 1 ? hipGraphNodeTypeMemcpy1D
                                                                                     : hipGraphNodeTypeMemcpy;
        if (j->fill) {
            unsigned value = 0;
            memcpy(&value, j->pattern, j->pattern_size);
            n->ms = (hipMemsetParams){ .dst = j->dst, .elementSize = j->pattern_size, .height = j->height,
                                       .pitch = j->dpitch, .value = value, .width = j->width / j->pattern_size };
        }
        e = copy_job_set(n, j);
        if (e) node_free(rt, n);
        else e = capture_append(rt, s, n, api);
    }
    pthread_mutex_unlock(&rt->graph_lock);
    return e;
}

hipError_t hip_capture_host_cmd(hip_runtime *rt, hipStream_t s, hip_cmd *cmd, const char *api)
{
    hipGraphNode_t n = calloc(1, sizeof *n);
    if (!n) return cmd->pc.done(&cmd->pc), hip_ret(hipErrorOutOfMemory);
    n->type = hipGraphNodeTypeHost;
    template_take(n, cmd, 0);
    pthread_mutex_lock(&rt->graph_lock);
    hipError_t e = capture_append(rt, s, n, api);
    pthread_mutex_unlock(&rt->graph_lock);
    return e;
}

/* A graph launched into a capturing stream: a child-graph node (under the lock). */
static hipError_t capture_child(hip_runtime *rt, hipStream_t s, hipGraph_t g, const char *api)
{
    hipGraphNode_t n = calloc(1, sizeof *n);
    if (!n) return hip_ret(hipErrorOutOfMemory);
    n->type = hipGraphNodeTypeGraph;
    hipError_t e = child_set(rt, n, g, api);
    if (e) {
        node_free(rt, n);
        return e;
    }
    return capture_append(rt, s, n, api);
}

hipError_t hip_capture_event_record(hip_runtime *rt, hipStream_t s, hipEvent_t e, bool *handled)
{
    pthread_mutex_lock(&rt->graph_lock);
    hip_capture *c = capture_of(rt, s->capture_id);
    *handled = c != NULL;
    hipError_t r = hipSuccess;
    if (c && c->invalidated) {
        r = hip_fail(hipErrorStreamCaptureInvalidated, "hipEventRecord", "the stream's capture was invalidated");
    } else if (c) {
        hipGraphNode_t *v = s->ncap_deps ? malloc(s->ncap_deps * sizeof *v) : NULL;
        if (s->ncap_deps && !v) {
            r = invalidate(c, hipErrorOutOfMemory, "hipEventRecord", "no memory");
        } else {
            if (v) memcpy(v, s->cap_deps, s->ncap_deps * sizeof *v);
            free(e->cap_nodes);
            e->cap_nodes = v, e->ncap_nodes = s->ncap_deps;
            e->capture_id = c->id;
        }
    }
    pthread_mutex_unlock(&rt->graph_lock);
    return r;
}

static bool joined_room(hip_capture *c)
{
    if (c->njoined < c->capjoined) return true;
    size_t cap = c->capjoined ? 2 * c->capjoined : 4;
    hipStream_t *v = realloc(c->joined, cap * sizeof *v);
    if (!v) return false;
    c->joined = v, c->capjoined = cap;
    return true;
}

hipError_t hip_capture_wait_event(hip_runtime *rt, hipStream_t s, hipEvent_t e, bool *handled)
{
    const char *api = "hipStreamWaitEvent";
    pthread_mutex_lock(&rt->graph_lock);
    hip_capture *ec = capture_of(rt, e->capture_id), *sc = capture_of(rt, s->capture_id);
    hipError_t r = hipSuccess;
    *handled = ec || sc;
    if (!ec && sc) {
        /* work outside the capture: a captured graph cannot wait for it (CUDA's isolation rule) */
        r = e->ps ? invalidate(sc, hipErrorStreamCaptureIsolation, api, "a wait for an event recorded outside the capture")
                  : hipSuccess;
    } else if (ec && sc && ec != sc) {
        r = invalidate(sc, hipErrorStreamCaptureMerge, api, "a wait joining two capture sequences");
    } else if (ec && ec->invalidated) {
        r = hip_fail(hipErrorStreamCaptureInvalidated, api, "the event's capture was invalidated");
    } else if (ec && !sc) {   /* a fork: s joins the capture after the event's nodes */
        if (s->is_null) {
            r = invalidate(ec, hipErrorStreamCaptureImplicit, api, "the null stream cannot join a capture");
        } else if (!joined_room(ec) || !frontier_set(s, e->cap_nodes, e->ncap_nodes)) {
            r = hip_ret(hipErrorOutOfMemory);
        } else {
            ec->joined[ec->njoined++] = s;
            s->capture_id = ec->id;
        }
    } else if (ec) {   /* a join: the event's nodes also come before s's next work */
        for (size_t i = 0; i < e->ncap_nodes && !r; i++)
            if (!frontier_add(s, e->cap_nodes[i])) r = invalidate(ec, hipErrorOutOfMemory, api, "no memory");
    }
    pthread_mutex_unlock(&rt->graph_lock);
    return r;
}

hipError_t hip_capture_forbids_sync(hipStream_t s, const char *api)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return hipSuccess;
    pthread_mutex_lock(&rt->graph_lock);
    hipError_t e = hipSuccess;
    if (s) {
        hip_capture *c = capture_of(rt, s->capture_id);
        if (c) e = invalidate(c, hipErrorStreamCaptureUnsupported, api, "waiting for a capturing stream");
    } else {
        for (hip_capture *c = rt->captures; c; c = c->next)
            if (c->mode != hipStreamCaptureModeRelaxed)
                e = invalidate(c, hipErrorStreamCaptureUnsupported, api, "waiting for the device while a stream captures");
    }
    pthread_mutex_unlock(&rt->graph_lock);
    return e;
}

void hip_capture_forget_event(hipEvent_t e)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return;
    pthread_mutex_lock(&rt->graph_lock);
    free(e->cap_nodes);
    e->cap_nodes = NULL, e->ncap_nodes = 0, e->capture_id = 0;
    pthread_mutex_unlock(&rt->graph_lock);
}

void hip_capture_forget_stream(hipStream_t s)
{
    hip_runtime *rt = hip_rt();
    if (!rt) return;
    pthread_mutex_lock(&rt->graph_lock);
    for (hip_capture *c = rt->captures, *next; c; c = next) {
        next = c->next;
        if (c->origin == s) c->origin = NULL, c->invalidated = true;
        for (size_t i = 0; i < c->njoined; i++)
            if (c->joined[i] == s) {
                c->joined[i] = c->joined[--c->njoined];
                c->invalidated = true;
                break;
            }
        if (!c->origin && !c->njoined) {   /* nobody can end it any more: gone with its graph */
            hipGraph_t g = c->graph;
            capture_end(rt, c);
            graph_free(rt, g);
        }
    }
    free(s->cap_deps);
    s->cap_deps = NULL, s->ncap_deps = s->cap_deps_cap = 0, s->capture_id = 0;
    pthread_mutex_unlock(&rt->graph_lock);
}

HIP_EXPORT hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode)
{
    RT_OR_FAIL();
    const char *api = "hipStreamBeginCapture";
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_fail(hipErrorInvalidValue, api, "not a stream");
    if (mode > hipStreamCaptureModeRelaxed) return hip_fail(hipErrorInvalidValue, api, "mode %d", (int)mode);
    if (s->is_null) return hip_fail(hipErrorStreamCaptureUnsupported, api, "the null stream cannot capture");
    pthread_mutex_lock(&rt->graph_lock);
    hipError_t e = s->capture_id ? hip_fail(hipErrorIllegalState, api, "the stream is capturing already") : hipSuccess;
    hip_capture *c = e ? NULL : calloc(1, sizeof *c);
    /* the graph is the capture's until it ends (hipStreamGetCaptureInfo_v2 shows it; hipGraphDestroy
       refuses it meanwhile) */
    if (!e && (!c || !(c->graph = graph_new(rt, true)))) e = hip_ret(hipErrorOutOfMemory);
    if (!e) {
        c->id = ++rt->last_capture_id;
        c->origin = s, c->mode = mode, c->thread = pthread_self();
        c->next = rt->captures, rt->captures = c;
        s->capture_id = c->id, s->ncap_deps = 0;
    } else {
        free(c);
    }
    pthread_mutex_unlock(&rt->graph_lock);
    return e;
}

/* Every node of s's frontier comes before (or is) a node of the origin's frontier. */
static bool joined_back(hip_capture *c, hipStream_t s)
{
    hipGraph_t g = c->graph;
    for (size_t i = 0; i < g->nodes.n; i++) g->nodes.v[i]->index = 0;   /* 1: reaches the origin's frontier */
    hipGraphNode_t *stack = malloc((g->nodes.n ? g->nodes.n : 1) * sizeof *stack);
    if (!stack) return false;
    size_t top = 0;
    for (size_t i = 0; c->origin && i < c->origin->ncap_deps; i++) {
        c->origin->cap_deps[i]->index = 1;
        stack[top++] = c->origin->cap_deps[i];
    }
    while (top) {
        hipGraphNode_t v = stack[--top];
        for (size_t k = 0; k < v->deps.n; k++)
            if (!v->deps.v[k]->index) v->deps.v[k]->index = 1, stack[top++] = v->deps.v[k];
    }
    free(stack);
    for (size_t i = 0; i < s->ncap_deps; i++)
        if (!s->cap_deps[i]->index) return false;
    return true;
}

HIP_EXPORT hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t *pGraph)
{
    RT_OR_FAIL();
    const char *api = "hipStreamEndCapture";
    if (!pGraph) return hip_fail(hipErrorInvalidValue, api, "NULL pointer");
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_fail(hipErrorInvalidValue, api, "not a stream");
    pthread_mutex_lock(&rt->graph_lock);
    hip_capture *c = capture_of(rt, s->capture_id);
    hipError_t e = hipSuccess;
    if (!c) {
        e = hip_fail(hipErrorIllegalState, api, "the stream is not capturing");
    } else if (c->origin != s) {
        e = invalidate(c, hipErrorStreamCaptureUnmatched, api, "the capture was begun in another stream");
    } else if (c->mode == hipStreamCaptureModeThreadLocal && !pthread_equal(c->thread, pthread_self())) {
        e = invalidate(c, hipErrorStreamCaptureWrongThread, api, "a thread-local capture ended by another thread");
    } else {
        for (size_t i = 0; i < c->njoined && !e && !c->invalidated; i++)
            if (!joined_back(c, c->joined[i]))
                e = invalidate(c, hipErrorStreamCaptureUnjoined, api, "a stream that joined the capture was not joined back");
        if (!e && c->invalidated) e = hip_fail(hipErrorStreamCaptureInvalidated, api, "the capture was invalidated");
        hipGraph_t g = c->graph;
        capture_end(rt, c);
        if (e) graph_free(rt, g), g = NULL;
        else g->owned = false;   /* the program's now */
        *pGraph = g;
    }
    pthread_mutex_unlock(&rt->graph_lock);
    return e;
}

static hipError_t capture_info(hipStream_t stream, hipStreamCaptureStatus *status, unsigned long long *id,
                               hipGraph_t *graph, const hipGraphNode_t **deps, size_t *ndeps, const char *api)
{
    RT_OR_FAIL();
    if (!status) return hip_fail(hipErrorInvalidValue, api, "NULL status pointer");
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_fail(hipErrorInvalidHandle, api, "not a stream");
    pthread_mutex_lock(&rt->graph_lock);
    hip_capture *c = capture_of(rt, s->capture_id);
    hipError_t e = hipSuccess;
    if (!c && s->is_null)   /* the legacy null stream while a blocking stream captures (CUDA's rule) */
        for (hip_capture *o = rt->captures; o && !e; o = o->next)
            if (o->mode != hipStreamCaptureModeRelaxed && o->origin && !(o->origin->flags & hipStreamNonBlocking))
                e = hip_fail(hipErrorStreamCaptureImplicit, api, "the null stream, while a blocking stream captures");
    if (!e) {
        *status = !c ? hipStreamCaptureStatusNone : c->invalidated ? hipStreamCaptureStatusInvalidated
                                                                   : hipStreamCaptureStatusActive;
        if (id && c) *id = c->id;
        if (graph) *graph = c ? c->graph : NULL;
        if (deps) *deps = c ? s->cap_deps : NULL;
        if (ndeps) *ndeps = c ? s->ncap_deps : 0;
    }
    pthread_mutex_unlock(&rt->graph_lock);
    return e;
}

HIP_EXPORT hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus)
{
    return capture_info(stream, pCaptureStatus, NULL, NULL, NULL, NULL, "hipStreamIsCapturing");
}

HIP_EXPORT hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus,
                                              unsigned long long *pId)
{
    return capture_info(stream, pCaptureStatus, pId, NULL, NULL, NULL, "hipStreamGetCaptureInfo");
}

HIP_EXPORT hipError_t hipStreamGetCaptureInfo_v2(hipStream_t stream, hipStreamCaptureStatus *captureStatus_out,
                                                 unsigned long long *id_out, hipGraph_t *graph_out,
                                                 const hipGraphNode_t **dependencies_out, size_t *numDependencies_out)
{
    return capture_info(stream, captureStatus_out, id_out, graph_out, dependencies_out, numDependencies_out,
                        "hipStreamGetCaptureInfo_v2");
}

HIP_EXPORT hipError_t hipStreamUpdateCaptureDependencies(hipStream_t stream, hipGraphNode_t *dependencies,
                                                         size_t numDependencies, unsigned int flags)
{
    RT_OR_FAIL();
    const char *api = "hipStreamUpdateCaptureDependencies";
    if (flags > hipStreamSetCaptureDependencies) return hip_fail(hipErrorInvalidValue, api, "flags %u", flags);
    if (numDependencies && !dependencies) return hip_fail(hipErrorInvalidValue, api, "no array");
    hipStream_t s = hip_stream_resolve(rt, stream);
    if (!s) return hip_fail(hipErrorInvalidHandle, api, "not a stream");
    pthread_mutex_lock(&rt->graph_lock);
    hip_capture *c = capture_of(rt, s->capture_id);
    hipError_t e = !c ? hip_fail(hipErrorIllegalState, api, "the stream is not capturing")
                 : c->invalidated ? hip_fail(hipErrorStreamCaptureInvalidated, api, "the capture was invalidated")
                 : hipSuccess;
    for (size_t i = 0; !e && i < numDependencies; i++)
        if (!list_has(&c->graph->nodes, dependencies[i]))
            e = hip_fail(hipErrorInvalidValue, api, "dependency %zu is not a node of the capture's graph", i);
    if (!e && flags == hipStreamSetCaptureDependencies) s->ncap_deps = 0;
    for (size_t i = 0; !e && i < numDependencies; i++)
        if (!frontier_add(s, dependencies[i])) e = hip_ret(hipErrorOutOfMemory);
    pthread_mutex_unlock(&rt->graph_lock);
    return e;
}

HIP_EXPORT hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode *mode)
{
    if (!mode || *mode > hipStreamCaptureModeRelaxed)
        return hip_fail(hipErrorInvalidValue, "hipThreadExchangeStreamCaptureMode", "NULL or not a mode");
    hipStreamCaptureMode old = thread_capture_mode;
    thread_capture_mode = *mode;
    *mode = old;
    return hipSuccess;
}
