/* The host side of AMD's hostcall mechanism (see rdna3_hostcall.h for the buffer and
 * docs/RDNA3.md "Hostcall" for the rules).
 *
 * ROCm runs a listener thread that wakes on the doorbell signal and serves whatever packets are
 * ready. umbra serves them synchronously instead, in the guest instruction that rings the doorbell:
 * ockl's __ockl_hsa_signal_add stores the signal's event id into its event mailbox and executes
 * s_sendmsg(MSG_INTERRUPT), and the wait loops execute s_sleep; both call hostcall_service (the
 * rdna3_host of the launch), which takes the whole ready stack under the buffer's mutex and serves
 * its packets in the order they were pushed, each packet's lanes in lane order. So a wave never
 * waits for the host, the host does no work at all in kernels without hostcalls, and with one
 * host thread the order of everything (printf text, allocation addresses) is deterministic.
 *
 * Services: 2 (printf: multi-packet messages per lane, formatted by rdna3_printf_format_hip) and
 * 3 (device memory for ockl's malloc: allocate, free). Anything else fails the launch.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/guest_text.h"
#include "runtime/rdna3_hostcall.h"
#include "runtime/rdna3_printf.h"

/* Layout (rdna3_hostcall.h) */
enum {
    HC_HEADERS = 0, HC_PAYLOADS = 8, HC_DOORBELL = 16, HC_FREE_STACK = 24, HC_READY_STACK = 32, HC_INDEX_MASK = 40,
    HC_SIGNAL = 64, HC_MAILBOX = 128, HC_PACKET_HEADERS = 256,
    HC_HEADER_SIZE = 24, HC_PAYLOAD_SIZE = 64 * 8 * 8, HC_SLOT_SIZE = 8 * 8,
    HC_CONTROL_READY = 1,
};
#define AMD_SIGNAL_KIND_USER 1u
#define HEAP_V1_SIZE (128u << 10)   /* as ROCm allocates it; ockl's heap state is 100872 bytes */
#define MiB2 (2ull << 20)

/* ---------------- per-device state: the device-malloc heap ---------------- */

typedef struct devmem_block {
    uint64_t addr, size;
    bool freed;                 /* freed by a kernel of the running launch; released after it */
} devmem_block;

typedef struct rdna3_device_state {
    uint64_t heap;              /* hidden_heap_v1, 0 until a kernel needs it */
    devmem_block *blocks;       /* what SERVICE_DEVMEM allocated and not yet released, by address */
    size_t nblocks, cap;
} rdna3_device_state;

static void device_state_release(void *p)
{
    rdna3_device_state *s = p;
    free(s->blocks);
    free(s);   /* the device memory goes with the device */
}

static rdna3_device_state *device_state(umb_device *dev)
{
    rdna3_device_state *s = umb_device_slot_get(dev, UMB_DEVICE_SLOT_RDNA3);
    if (s) return s;
    if (!(s = calloc(1, sizeof *s))) return NULL;
    umb_device_slot_set(dev, UMB_DEVICE_SLOT_RDNA3, s, device_state_release);
    return s;
}

umb_status rdna3_device_heap(umb_device *dev, uint64_t *addr)
{
    rdna3_device_state *s = device_state(dev);
    if (!s) return UMB_ERR_NOMEM;
    if (!s->heap) {
        umb_status st = umb_mem_alloc(dev, HEAP_V1_SIZE, 4096, &s->heap);
        if (st) return st;   /* freshly mapped memory reads as zeros: ockl's empty heap */
    }
    *addr = s->heap;
    return UMB_OK;
}

/* The block at addr (binary search), or NULL. */
static devmem_block *find_block(rdna3_device_state *s, uint64_t addr, size_t *at)
{
    size_t lo = 0, hi = s->nblocks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->blocks[mid].addr < addr) lo = mid + 1;
        else hi = mid;
    }
    *at = lo;
    return lo < s->nblocks && s->blocks[lo].addr == addr ? &s->blocks[lo] : NULL;
}

static bool add_block(rdna3_device_state *s, uint64_t addr, uint64_t size)
{
    size_t at;
    if (find_block(s, addr, &at)) return true;
    if (s->nblocks == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        devmem_block *b = realloc(s->blocks, cap * sizeof *b);
        if (!b) return false;
        s->blocks = b, s->cap = cap;
    }
    memmove(&s->blocks[at + 1], &s->blocks[at], (s->nblocks - at) * sizeof *s->blocks);
    s->blocks[at] = (devmem_block){ addr, size, false };
    s->nblocks++;
    return true;
}

/* ---------------- the launch's buffer ---------------- */

typedef struct hc_message {     /* a printf message being assembled (ROCm's message ids) */
    uint8_t *data;
    size_t len, cap;
    bool live;
} hc_message;

typedef struct hc_stderr {      /* a finished message for stderr (HIP: a failed assertion's) */
    char *text;
    size_t len;
    uint64_t activemask, batch;   /* of its last packet */
    uint32_t lane;
    bool claimed;                 /* shown in a trap report instead */
} hc_stderr;

struct rdna3_hostcall {
    rdna3_host host;            /* first: rdna3_kernel.host points here */
    umb_device *dev;
    umb_mem *mem;
    rdna3_device_state *devstate;
    char kernel[UMB_GUEST_TEXT_MAX];
    uint64_t lanes;             /* the wave's lanes */
    uint64_t base, headers, payloads, index_mask;
    uint64_t *ready_stack;      /* host pointer to the buffer's ready_stack */
    uint32_t npackets;
    umb_rdna3_printf_fn printf_fn;
    void *printf_ctx;
    pthread_mutex_t lock;       /* host threads run waves: one service at a time */
    uint64_t *popped;           /* the ready stack taken by one service */
    uint64_t batches;           /* services that found packets */
    hc_message *msgs;
    size_t nmsgs, capmsgs;
    uint64_t *free_ids;
    size_t nfree, capfree;
    hc_stderr *errs;
    size_t nerrs, caperrs;
};

uint32_t rdna3_hostcall_packets(uint64_t grid_waves, uint64_t wave_slots)
{
    uint64_t n = wave_slots < grid_waves ? wave_slots : grid_waves;
    if (n > (1u << 24)) n = 1u << 24;   /* 64 GiB of payloads: more wave slots than any device has */
    return n ? (uint32_t)n : 1u;
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

uint64_t rdna3_hostcall_address(const rdna3_hostcall *h) { return h->base; }
rdna3_host *rdna3_hostcall_host(rdna3_hostcall *h) { return &h->host; }

/* ---- printf messages ---- */

static hc_message *new_message(rdna3_hostcall *h, uint64_t *id)
{
    if (h->nfree) {
        *id = h->free_ids[--h->nfree];
    } else {
        if (h->nmsgs == h->capmsgs) {
            size_t cap = h->capmsgs ? 2 * h->capmsgs : 64;
            hc_message *m = realloc(h->msgs, cap * sizeof *m);
            if (!m) return NULL;
            h->msgs = m, h->capmsgs = cap;
        }
        h->msgs[h->nmsgs] = (hc_message){ 0 };
        *id = h->nmsgs++;
    }
    h->msgs[*id].live = true;
    h->msgs[*id].len = 0;
    return &h->msgs[*id];
}

static bool end_message(rdna3_hostcall *h, uint64_t id)
{
    h->msgs[id].live = false;
    h->msgs[id].len = 0;
    if (h->nfree == h->capfree) {
        size_t cap = h->capfree ? 2 * h->capfree : 64;
        uint64_t *f = realloc(h->free_ids, cap * sizeof *f);
        if (!f) return false;
        h->free_ids = f, h->capfree = cap;
    }
    h->free_ids[h->nfree++] = id;
    return true;
}

static bool append(hc_message *m, const uint64_t *words, unsigned n)
{
    size_t bytes = (size_t)n * 8u;
    if (m->len + bytes > m->cap) {
        size_t cap = m->cap ? m->cap : 256;
        while (cap < m->len + bytes) cap *= 2;
        uint8_t *d = realloc(m->data, cap);
        if (!d) return false;
        m->data = d, m->cap = cap;
    }
    memcpy(m->data + m->len, words, bytes);
    m->len += bytes;
    return true;
}

/* A finished stderr message: kept for a trap report, or for stderr after the launch. */
static bool keep_stderr(rdna3_hostcall *h, char *text, size_t len, uint64_t activemask, uint32_t lane)
{
    if (h->nerrs == h->caperrs) {
        size_t cap = h->caperrs ? 2 * h->caperrs : 16;
        hc_stderr *e = realloc(h->errs, cap * sizeof *e);
        if (!e) return false;
        h->errs = e, h->caperrs = cap;
    }
    h->errs[h->nerrs++] = (hc_stderr){ text, len, activemask, h->batches, lane, false };
    return true;
}

/* Message descriptor (slot[0]): bit 0 BEGIN, bit 1 END, bits 2-4 reserved, bits 5-7 words that
 * follow in this packet, bits 8-63 the message id (the host's answer to BEGIN). The message:
 * a control word (bit 0: stderr), then rdna3_printf_format_hip's words. The END packet returns
 * the printed length (or -1 for an unknown control word) in slot[0]. */
static umb_status printf_lane(rdna3_hostcall *h, uint64_t slot[8], uint32_t lane, uint64_t activemask, char *err,
                              size_t errlen)
{
    uint64_t desc = slot[0], id = desc >> 8;
    unsigned words = (unsigned)(desc >> 5) & 7u;
    if (desc & 0x1cu) {
        snprintf(err, errlen, "printf: lane %u sent message descriptor 0x%" PRIx64 " with reserved bits set", lane, desc);
        return UMB_ERR_GUEST_FAULT;
    }
    hc_message *m;
    if (desc & 1u) {
        if (!(m = new_message(h, &id))) return UMB_ERR_NOMEM;
        desc = (desc & 0xfeu) | id << 8;
        slot[0] = desc;
    } else if (id >= h->nmsgs || !h->msgs[id].live) {
        snprintf(err, errlen, "printf: lane %u continues message %" PRIu64 ", which no BEGIN opened", lane, id);
        return UMB_ERR_GUEST_FAULT;
    } else {
        m = &h->msgs[id];
    }
    if (!append(m, slot + 1, words)) return UMB_ERR_NOMEM;
    if (!(desc & 2u)) return UMB_OK;
    int64_t result = -1;
    uint64_t control = m->len >= 8 ? le64(m->data) : ~0ull;
    if (!(control & ~1ull)) {
        size_t len = 0;
        char *text = rdna3_printf_format_hip(m->data + 8, m->len / 8u - 1u, &len);
        if (!text) return UMB_ERR_NOMEM;
        result = (int64_t)len;
        if (control & 1u) {   /* stderr: assert's message, named by the trap that follows */
            if (!keep_stderr(h, text, len, activemask, lane)) {
                free(text);
                return UMB_ERR_NOMEM;
            }
        } else {
            if (h->printf_fn) h->printf_fn(h->printf_ctx, text, len);
            else fwrite(text, 1, len, stdout);
            free(text);
        }
    }
    slot[0] = (uint64_t)result;
    return end_message(h, id) ? UMB_OK : UMB_ERR_NOMEM;
}

/* ---- device memory (ockl's __ockl_devmem_request) ---- */

/* slot[0] != 0: free that address; else allocate slot[1] bytes (2 MiB requests, ockl's slabs,
 * 2 MiB aligned, as ROCm does); the address, or 0 when there is none, goes back in slot[0].
 * Device memory is mapped while other host threads run guest code: that is safe for a range
 * nothing has mapped (every leaf it changes was unmapped, every node it creates was absent), but
 * unmapping is not, so a freed block stays mapped (and unused) until the launch ends. */
static umb_status devmem_lane(rdna3_hostcall *h, uint64_t slot[8], uint32_t lane, char *err, size_t errlen)
{
    rdna3_device_state *s = h->devstate;
    if (slot[0]) {
        size_t at;
        devmem_block *b = find_block(s, slot[0], &at);
        if (!b || b->freed) {
            snprintf(err, errlen, "free: lane %u frees 0x%" PRIx64 ", which device malloc did not return%s", lane,
                     slot[0], b ? " (freed twice)" : "");
            return UMB_ERR_GUEST_FAULT;
        }
        b->freed = true;
        slot[0] = 0;
        return UMB_OK;
    }
    uint64_t size = slot[1], va = 0;
    if (size) {   /* (0, 0) is free(NULL): nothing; ROCm's runtime aborts on it */
        char saved[256];   /* a failed allocation is the kernel's NULL, not the device's error */
        snprintf(saved, sizeof saved, "%s", umb_device_last_error(h->dev));
        umb_status st = umb_mem_alloc(h->dev, size, size == MiB2 ? MiB2 : 4096, &va);
        if (st != UMB_OK) {
            va = 0;   /* malloc returns NULL, as on ROCm */
            umb_device_set_error(h->dev, "%s", saved);
        } else if (!add_block(s, va, size)) {
            umb_mem_free(h->dev, va);
            return UMB_ERR_NOMEM;
        }
    }
    slot[0] = va;
    return UMB_OK;
}

/* ---- serving ---- */

static const char *service_name(uint32_t service)
{
    switch (service) {
    case RDNA3_HOSTCALL_FUNCTION_CALL: return "function call: a host function pointer; umbra runs no host code for the device";
    case RDNA3_HOSTCALL_SANITIZER: return "device AddressSanitizer reports";
    default: return "unknown";
    }
}

/* Serve packet p (a tagged pointer) and clear its ready bit. */
static umb_status serve_packet(rdna3_hostcall *h, uint64_t p, char *err, size_t errlen)
{
    uint64_t idx = p & h->index_mask, haddr = h->headers + idx * HC_HEADER_SIZE;
    uint8_t hdr[HC_HEADER_SIZE];
    if (!umb_mem_read_bytes(h->mem, haddr, hdr, sizeof hdr)) {
        snprintf(err, errlen, "packet header at 0x%" PRIx64 " is not mapped", haddr);
        return UMB_ERR_GUEST_FAULT;
    }
    uint64_t active = le64(hdr + 8) & h->lanes;
    uint32_t service;
    memcpy(&service, hdr + 16, 4);
    if (service != RDNA3_HOSTCALL_PRINTF && service != RDNA3_HOSTCALL_DEVMEM) {
        snprintf(err, errlen, "a packet asks for service %u (%s), which umbra does not provide (it provides 2, "
                 "printf, and 3, device malloc/free)", service, service_name(service));
        return UMB_ERR_UNSUPPORTED;
    }
    uint64_t payload = h->payloads + idx * HC_PAYLOAD_SIZE;
    for (uint64_t m = active; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(m);
        uint64_t addr = payload + (uint64_t)lane * HC_SLOT_SIZE, slot[8];
        uint8_t raw[HC_SLOT_SIZE];
        if (!umb_mem_read_bytes(h->mem, addr, raw, sizeof raw)) {
            snprintf(err, errlen, "payload at 0x%" PRIx64 " is not mapped", addr);
            return UMB_ERR_GUEST_FAULT;
        }
        for (int i = 0; i < 8; i++) slot[i] = le64(raw + 8 * i);
        umb_status st = service == RDNA3_HOSTCALL_PRINTF ? printf_lane(h, slot, lane, active, err, errlen)
                                                          : devmem_lane(h, slot, lane, err, errlen);
        if (st != UMB_OK) return st;
        put64(raw, slot[0]);
        put64(raw + 8, slot[1]);
        umb_mem_write_bytes(h->mem, addr, raw, 16);   /* the lane's return values */
    }
    uint32_t *control = (haddr & 3u) ? NULL : umb_mem_atomic_ptr(h->mem, haddr + 20);
    if (control) __atomic_fetch_and(control, ~(uint32_t)HC_CONTROL_READY, __ATOMIC_RELEASE);
    return UMB_OK;
}

static void hostcall_service(rdna3_host *host, rdna3_wave *w, const rdna3_inst *in)
{
    rdna3_hostcall *h = (rdna3_hostcall *)host;
    char err[400] = "";
    umb_status st = UMB_OK;
    uint32_t n = 0;
    /* a kernel's own s_sleep (a spin on another workgroup) usually finds nothing: no lock then */
    if (!__atomic_load_n(h->ready_stack, __ATOMIC_ACQUIRE)) return;
    pthread_mutex_lock(&h->lock);
    uint64_t top = __atomic_exchange_n(h->ready_stack, 0, __ATOMIC_ACQ_REL);
    /* the ready stack is last-pushed first: take it whole, serve it in push order */
    for (uint64_t p = top; p;) {
        uint64_t idx = p & h->index_mask;
        uint8_t next[8];
        if (idx >= h->npackets || n == h->npackets ||
            !umb_mem_read_bytes(h->mem, h->headers + idx * HC_HEADER_SIZE, next, 8)) {
            snprintf(err, sizeof err, "the ready stack holds 0x%" PRIx64 ", which is not a packet of the buffer "
                     "(did the kernel write over it?)", p);
            st = UMB_ERR_GUEST_FAULT;
            break;
        }
        h->popped[n++] = p;
        p = le64(next);
    }
    if (n) h->batches++;
    for (uint32_t i = n; i-- > 0 && st == UMB_OK;) st = serve_packet(h, h->popped[i], err, sizeof err);
    pthread_mutex_unlock(&h->lock);
    if (n && w->warp && w->warp->wg) w->warp->wg->progress++;   /* the host's work counts as progress */
    if (st == UMB_ERR_NOMEM && !err[0]) snprintf(err, sizeof err, "out of host memory");
    if (st != UMB_OK) rdna3_fault(w, in, st, "hostcall: %s", err);
}

/* The trap of a failed assert(): HIP's __assert_fail sends its message to stderr by hostcall, then
 * executes s_trap 2, with the same lanes active. The message is the latest unclaimed one whose
 * packet had exactly the trapping wave's EXEC as active mask (exact when one wave asserts; waves
 * that fail with the same lanes at the same time may see each other's identical text). */
static void hostcall_trap_reason(rdna3_host *host, rdna3_wave *w, char *buf, size_t len)
{
    rdna3_hostcall *h = (rdna3_hostcall *)host;
    uint64_t exec = rdna3_exec(w);
    buf[0] = '\0';
    pthread_mutex_lock(&h->lock);
    size_t pick = h->nerrs;
    for (size_t i = h->nerrs; i-- > 0;)
        if (!h->errs[i].claimed && h->errs[i].activemask == exec) {
            pick = i;
            break;
        }
    if (pick < h->nerrs) {
        uint64_t batch = h->errs[pick].batch;
        size_t first = pick, count = 0;
        for (size_t i = 0; i < h->nerrs; i++) {
            hc_stderr *e = &h->errs[i];
            if (e->claimed || e->batch != batch || e->activemask != exec) continue;
            if (!count || e->lane < h->errs[first].lane) first = i;
            e->claimed = true;
            count++;
        }
        const hc_stderr *e = &h->errs[first];
        size_t tl = e->len;
        while (tl && (e->text[tl - 1] == '\n' || e->text[tl - 1] == '\r')) tl--;
        umb_guest_text_buf text;
        char lanes[48] = "";
        if (count > 1) snprintf(lanes, sizeof lanes, " (of %zu lanes that sent one)", count);
        snprintf(buf, len, "device message of lane %u%s: \"%s\"", e->lane, lanes, umb_guest_text_n(&text, e->text, tl));
    }
    pthread_mutex_unlock(&h->lock);
}

/* ---- the buffer ---- */

umb_status rdna3_hostcall_create(umb_device *dev, const char *kernel, uint32_t wave_size, uint32_t npackets,
                                 umb_rdna3_printf_fn printf_fn, void *printf_ctx, rdna3_hostcall **out)
{
    *out = NULL;
    if (npackets == 0) npackets = 1;
    rdna3_hostcall *h = calloc(1, sizeof *h);
    if (!h || !(h->popped = calloc(npackets, sizeof *h->popped)) || !(h->devstate = device_state(dev))) {
        if (h) free(h->popped);
        free(h);
        umb_device_set_error(dev, "kernel %s: out of host memory for the hostcall buffer", kernel);
        return UMB_ERR_NOMEM;
    }
    h->host.service = hostcall_service;
    h->host.trap_reason = hostcall_trap_reason;
    h->dev = dev;
    h->mem = umb_device_memory(dev);
    snprintf(h->kernel, sizeof h->kernel, "%s", kernel);
    h->lanes = wave_size == 64 ? ~0ull : 0xffffffffull;
    h->npackets = npackets;
    h->printf_fn = printf_fn;
    h->printf_ctx = printf_ctx;
    uint64_t mask = 1;
    while (mask < npackets) mask <<= 1;
    h->index_mask = mask - 1;
    uint64_t payload_off = ((uint64_t)HC_PACKET_HEADERS + (uint64_t)npackets * HC_HEADER_SIZE + 4095u) & ~4095ull;
    uint64_t bytes = payload_off + (uint64_t)npackets * HC_PAYLOAD_SIZE;
    umb_status st = umb_mem_alloc(dev, bytes, 4096, &h->base);
    if (st != UMB_OK) {
        free(h->popped);
        free(h);
        umb_device_set_error(dev, "kernel %s: no device memory for a hostcall buffer of %u packets", kernel, npackets);
        return st;
    }
    pthread_mutex_init(&h->lock, NULL);
    h->headers = h->base + HC_PACKET_HEADERS;
    h->payloads = h->base + payload_off;
    /* the free stack: packet k's next is k-1 (the top is N-1); packet 1's next is packet 0 with
     * tag 1 (the pointer 0 would mean empty); packet 0 ends it */
    uint8_t *hdrs = calloc(npackets, HC_HEADER_SIZE);
    if (!hdrs) {
        rdna3_hostcall_destroy(h);
        umb_device_set_error(dev, "kernel %s: out of host memory for the hostcall buffer", kernel);
        return UMB_ERR_NOMEM;
    }
    for (uint32_t k = 1; k < npackets; k++) put64(hdrs + (size_t)k * HC_HEADER_SIZE, k == 1 ? mask : k - 1u);
    uint8_t head[HC_PACKET_HEADERS] = { 0 };
    put64(head + HC_HEADERS, h->headers);
    put64(head + HC_PAYLOADS, h->payloads);
    put64(head + HC_DOORBELL, h->base + HC_SIGNAL);
    put64(head + HC_FREE_STACK, npackets > 1 ? npackets - 1u : mask);
    put64(head + HC_READY_STACK, 0);
    put64(head + HC_INDEX_MASK, h->index_mask);
    put64(head + HC_SIGNAL, AMD_SIGNAL_KIND_USER);     /* kind */
    put64(head + HC_SIGNAL + 16, h->base + HC_MAILBOX); /* event_mailbox_ptr; value and event_id 0 */
    bool ok = umb_mem_write_bytes(h->mem, h->base, head, sizeof head) &&
              umb_mem_write_bytes(h->mem, h->headers, hdrs, (uint64_t)npackets * HC_HEADER_SIZE);
    free(hdrs);
    if (ok) ok = (h->ready_stack = umb_mem_atomic_ptr(h->mem, h->base + HC_READY_STACK)) != NULL;
    if (!ok) {
        rdna3_hostcall_destroy(h);
        umb_device_set_error(dev, "kernel %s: could not write the hostcall buffer", kernel);
        return UMB_ERR_NOMEM;
    }
    *out = h;
    return UMB_OK;
}

void rdna3_hostcall_destroy(rdna3_hostcall *h)
{
    if (!h) return;
    for (size_t i = 0; i < h->nerrs; i++) {
        if (!h->errs[i].claimed) fwrite(h->errs[i].text, 1, h->errs[i].len, stderr);
        free(h->errs[i].text);
    }
    if (h->nerrs) fflush(stderr);
    if (!h->printf_fn) fflush(stdout);
    /* what the kernel freed: unmapped now that no guest code runs */
    rdna3_device_state *s = h->devstate;
    size_t kept = 0;
    for (size_t i = 0; s && i < s->nblocks; i++) {
        if (s->blocks[i].freed) umb_mem_free(h->dev, s->blocks[i].addr);
        else s->blocks[kept++] = s->blocks[i];
    }
    if (s) s->nblocks = kept;
    for (size_t i = 0; i < h->nmsgs; i++) free(h->msgs[i].data);
    free(h->msgs);
    free(h->free_ids);
    free(h->errs);
    free(h->popped);
    if (h->base) {
        umb_mem_free(h->dev, h->base);
        pthread_mutex_destroy(&h->lock);
    }
    free(h);
}
