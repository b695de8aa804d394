/* Caches (set associative, LRU, write-back at L2 and below, write-through without allocation at
 * L0/L1/scalar), DRAM (GDDR channels and banks, or one queue with a bandwidth), and LDS banks.
 *
 * Time: an access takes its level's port for line / bytes_per_cycle cycles (so a level
 * saturates at its bandwidth) and, if it hits, returns `latency` cycles after it got the port:
 * the latency figures are load-to-use as microbenchmarks measure them. A miss goes to the next
 * level when it got the port. A line is entered when it is missed, with the cycle its data
 * arrives: a request that finds it still on its way waits for it (as a miss-status register
 * merges requests for a line in flight), not only for the hit latency. Port times are kept in 1/256 cycle so fractional bandwidths add up.
 */
#include "timing/memsys.h"

#include <stdlib.h>
#include <string.h>

#include "timing/event.h"

#define FRAC 256u

static unsigned log2u(uint64_t v)
{
    unsigned s = 0;
    while ((1ull << s) < v) s++;
    return s;
}

static bool cache_init(tm_cache *k, const tm_cache_cfg *c)
{
    k->assoc = c->assoc;
    k->sets = (uint32_t)(c->size / c->line / c->assoc);
    k->line_shift = log2u(c->line);
    k->tag = calloc((size_t)k->sets * k->assoc, sizeof *k->tag);
    k->ready = calloc((size_t)k->sets * k->assoc, sizeof *k->ready);
    k->mshr_free = c->mshrs ? calloc(c->mshrs, sizeof *k->mshr_free) : NULL;
    return k->tag && k->ready && (!c->mshrs || k->mshr_free);
}

bool tm_memsys_init(tm_memsys *ms, const tm_machine *m)
{
    memset(ms, 0, sizeof *ms);
    ms->m = m;
    if (!(ms->lds_memo = calloc(TM_LDS_MEMO, sizeof *ms->lds_memo))) return false;
    if (m->icache.size) {
        if (!(ms->icache = umb_calloc_lines(m->cus, sizeof *ms->icache))) return false;
        ms->nicache = m->cus;
        for (uint32_t i = 0; i < m->cus; i++)
            if (!cache_init(&ms->icache[i], &m->icache)) return false;
    }
    const tm_dram_cfg *d = &m->dram;
    if (d->channels) {
        ms->chan = calloc(d->channels, sizeof *ms->chan);
        ms->bank = calloc((size_t)d->channels * d->banks, sizeof *ms->bank);
        ms->group_free = calloc((size_t)d->channels * d->bank_groups, sizeof *ms->group_free);
        if (!ms->chan || !ms->bank || !ms->group_free) return false;
    }
    for (int l = 0; l < LVL_N; l++) {
        const tm_cache_cfg *c = &m->cache[l];
        if (!c->size) continue;
        uint32_t n = c->cus_per_instance ? (m->cus + c->cus_per_instance - 1) / c->cus_per_instance : 1;
        ms->inst[l] = umb_calloc_lines(n, sizeof(tm_cache));
        if (!ms->inst[l]) return false;
        ms->ninst[l] = n;
        for (uint32_t i = 0; i < n; i++)
            if (!cache_init(&ms->inst[l][i], c)) return false;
    }
    return true;
}

void tm_memsys_fini(tm_memsys *ms)
{
    for (int l = 0; l < LVL_N; l++) {
        for (uint32_t i = 0; i < ms->ninst[l]; i++) {
            free(ms->inst[l][i].tag);
            free(ms->inst[l][i].ready);
            free(ms->inst[l][i].mshr_free);
        }
        free(ms->inst[l]);
    }
    for (uint32_t i = 0; i < ms->nicache; i++) {
        free(ms->icache[i].tag);
        free(ms->icache[i].ready);
    }
    free(ms->icache);
    free(ms->lds_memo);
    free(ms->chan);
    free(ms->bank);
    free(ms->group_free);
    memset(ms, 0, sizeof *ms);
}

static void write_back(tm_memsys *ms, uint32_t cu, int l, uint64_t byte_addr, uint64_t t);

void tm_memsys_begin_launch(tm_memsys *ms, uint64_t t)
{
    for (int l = 0; l < LVL_N; l++) {
        const tm_cache_cfg *cfg = &ms->m->cache[l];
        if (!cfg->invalidate_at_launch) continue;
        for (uint32_t k = 0; k < ms->ninst[l]; k++) {
            tm_cache *c = &ms->inst[l][k];
            size_t n = (size_t)c->sets * c->assoc;
            for (size_t i = 0; i < n; i++)   /* a write-back level: its dirty lines go down first */
                if (c->tag[i] & 1u) write_back(ms, k * cfg->cus_per_instance, l, ((c->tag[i] - 2) >> 1) << c->line_shift, t);
            memset(c->tag, 0, n * sizeof *c->tag);
            memset(c->ready, 0, n * sizeof *c->ready);
        }
    }
    for (uint32_t k = 0; k < ms->nicache; k++) {   /* instructions are written by the host too */
        tm_cache *c = &ms->icache[k];
        memset(c->tag, 0, (size_t)c->sets * c->assoc * sizeof *c->tag);
        memset(c->ready, 0, (size_t)c->sets * c->assoc * sizeof *c->ready);
        c->fill_until = 0;
    }
}

/* Look line up in its set; on a hit move it to the front (most recent). Returns the hit way's
 * slot or NULL; *ready gets the cycle its data is there. */
static uint64_t *lookup(tm_cache *k, uint64_t line, uint64_t *ready)
{
    size_t base = (size_t)(line % k->sets) * k->assoc;
    uint64_t *set = &k->tag[base], *rdy = &k->ready[base];
    for (uint32_t w = 0; w < k->assoc; w++) {
        if (set[w] && (set[w] - 2) >> 1 == line) {
            uint64_t t = set[w], r = rdy[w];
            memmove(&set[1], &set[0], w * sizeof *set);
            memmove(&rdy[1], &rdy[0], w * sizeof *rdy);
            set[0] = t;
            rdy[0] = r;
            if (ready) *ready = r;
            return &set[0];
        }
    }
    return NULL;
}

/* Insert line at the front, its data there at cycle `ready`; returns the evicted entry (0 if
 * none). */
static uint64_t insert(tm_cache *k, uint64_t line, bool dirty, uint64_t ready)
{
    size_t base = (size_t)(line % k->sets) * k->assoc;
    uint64_t *set = &k->tag[base], *rdy = &k->ready[base];
    uint64_t victim = set[k->assoc - 1];
    memmove(&set[1], &set[0], (k->assoc - 1) * sizeof *set);
    memmove(&rdy[1], &rdy[0], (k->assoc - 1) * sizeof *rdy);
    set[0] = (line << 1 | (dirty ? 1u : 0u)) + 2;
    rdy[0] = ready;
    return victim;
}

/* The time, in 1/FRAC cycles, that moving `bytes` holds a port of bytes_per_cycle. */
static uint64_t transfer_frac(double bytes, double bytes_per_cycle)
{
    return (uint64_t)(bytes * FRAC / bytes_per_cycle + 0.5);
}

static uint64_t port(uint64_t *free_at, uint64_t t, uint32_t bytes, double bytes_per_cycle)
{
    uint64_t start = t * FRAC > *free_at ? t * FRAC : *free_at;
    *free_at = start + transfer_frac(bytes, bytes_per_cycle);
    return (start + FRAC - 1) / FRAC;
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* tm_cache_cfg.mshrs: a read miss needs a miss register from the cycle it goes down until its
 * line is back; with all of them busy it waits for the first to free. Returns the register that
 * frees first (the miss starts no earlier; the caller writes when it is free again). */
static uint64_t *miss_register(const tm_cache *k, uint32_t n)
{
    uint64_t *best = &k->mshr_free[0];
    for (uint32_t i = 1; i < n; i++)
        if (k->mshr_free[i] < *best) best = &k->mshr_free[i];
    return best;
}

/* A cache with miss registers is in order (the Ventus RTL's l1_dcache): with all its registers busy
 * it accepts no request, hit or miss, until one frees (its first stage is not ready while the MSHR
 * reports PRIMARY_FULL), and it accepts a write only once no read miss is in flight (nor while the
 * MSHR is not empty: inflight_read_write_miss). The request, and every request behind it at the
 * cache's port, starts no earlier. */
static uint64_t wait_for_register(tm_cache *k, const tm_cache_cfg *c, uint64_t s, int kind)
{
    uint64_t ready = *miss_register(k, c->mshrs);
    if (kind != TM_READ)
        for (uint32_t i = 0; i < c->mshrs; i++)
            if (k->mshr_free[i] > ready) ready = k->mshr_free[i];
    if (ready <= s) return s;
    uint64_t held = ready * FRAC + transfer_frac(c->line, c->bytes_per_cycle);
    if (held > k->free_at) k->free_at = held;
    return ready;
}

/* The number of refresh windows of a channel (its first at `off`) begun by cycle t, and the first
 * cycle of window k (k >= 1). */
static uint64_t refresh_epoch(const tm_dram_cfg *d, uint64_t off, uint64_t t)
{
    return t >= off ? (t - off) / d->t_refi + 1 : 0;
}
/* Where channel c's refresh windows begin within tREFI: spread over the interval by a hash of
 * the channel (even steps of tREFI / channels line up with a stride through the channels, and a
 * pointer chase then keeps meeting them). */
static uint64_t refresh_offset(const tm_dram_cfg *d, uint32_t c)
{
    return ((c + 1) * 0x9E3779B97F4A7C15ull >> 32) % d->t_refi;
}
static uint64_t window_start(const tm_dram_cfg *d, uint64_t off, uint64_t k) { return off + (k - 1) * d->t_refi; }

/* ---- bookings with bounded reordering (tm_busy) ---- */

/* The earliest start >= from (1/256 cycles) of `len` free units: in an open gap or at the end. */
static uint64_t busy_find(const tm_busy *b, uint64_t from, uint64_t len)
{
    uint64_t best = max_u64(from, b->end);
    for (int i = 0; i < TM_DRAM_GAPS; i++) {
        if (!b->gap_to[i]) continue;
        uint64_t s = max_u64(b->gap_from[i], from);
        if (s + len <= b->gap_to[i] && s < best) best = s;
    }
    return best;
}

/* Keep [from, to) open if it can hold `min` units; when every slot is taken it replaces the gap
 * that closes first (the oldest: the window slides with time). */
static void busy_gap(tm_busy *b, uint64_t from, uint64_t to, uint64_t min)
{
    if (to < from + min) return;
    int victim = 0;
    for (int i = 0; i < TM_DRAM_GAPS; i++) {
        if (!b->gap_to[i]) {
            victim = i;
            break;
        }
        if (b->gap_to[i] < b->gap_to[victim]) victim = i;
    }
    if (b->gap_to[victim] && b->gap_to[victim] >= to) return;
    b->gap_from[victim] = from, b->gap_to[victim] = to;
}

/* Book [s, s + len), s as busy_find gave it; the pieces of a gap it splits stay open. */
static void busy_book(tm_busy *b, uint64_t s, uint64_t len, uint64_t min)
{
    if (s >= b->end) {
        busy_gap(b, b->end, s, min);
        b->end = s + len;
        return;
    }
    for (int i = 0; i < TM_DRAM_GAPS; i++)
        if (b->gap_to[i] && b->gap_from[i] <= s && s + len <= b->gap_to[i]) {
            uint64_t from = b->gap_from[i], to = b->gap_to[i];
            b->gap_to[i] = 0;
            busy_gap(b, from, s, min);
            busy_gap(b, s + len, to, min);
            return;
        }
}

/* The earliest start >= from of `len` free units, booked (gaps shorter than len are not kept). */
static uint64_t busy_take(tm_busy *b, uint64_t from, uint64_t len)
{
    uint64_t s = busy_find(b, from, len);
    busy_book(b, s, len, len);
    return s;
}

/* One access of `bytes` at byte_addr to GDDR (tm_dram_cfg), reaching the memory controller at
 * cycle t; returns when its data is back (reads) or written. Addresses go round the channels every
 * interleave_bytes; a channel's chunks go round its bank groups, then fill the columns of one row
 * in each (row:bank:column:group, the bank index XORed with the row's). A bank holds one row open:
 * a hit needs only the column access (tCL), a precharged bank an activation first (tRCD), a bank
 * with another row open a precharge before that (tRP, no earlier than tRAS after its activation).
 * Activations of a channel are tRRD apart, four at most within tFAW (activation_slot).
 * Banks work in parallel: a bank's precharge and activation do not hold the channel, only its own
 * transfer does; the data bus and each bank group's column path are booked as intervals, and a
 * request whose data is ready sooner takes a free interval before transfers booked earlier (the
 * first-ready part of FR-FCFS, over a window of TM_DRAM_GAPS intervals). Each channel refreshes
 * all banks for tRFC every tREFI (staggered over the channels), which closes their rows; within a
 * bank group bursts follow each other no faster than tCCDL (ccdl_bursts burst times); the bus
 * turns around between read and write batches (tWTR + tRTW once per DRAM_WRITE_BATCH writes).
 * `latency` is an access to a precharged bank of an idle channel; what it has beyond tRCD + tCL +
 * the transfer (controller, fabric) is fixed. */
typedef struct gddr_place {
    uint32_t chan, bank, group;
    uint64_t row;           /* + 1 */
} gddr_place;

/* Writes a controller drains per switch of the bus direction: Ramulator 2's generic DRAM
 * controller drains its 32-entry write buffer from the high watermark (0.8) to the low (0.2). */
#define DRAM_WRITE_BATCH 19u

static gddr_place gddr_map(const tm_dram_cfg *d, uint64_t byte_addr)
{
    uint64_t chunk = byte_addr / d->interleave_bytes;
    uint64_t local = chunk / d->channels;   /* the channel's chunks */
    uint32_t per_group = d->banks / d->bank_groups, cols = d->row_bytes / d->interleave_bytes;
    /* consecutive chunks change bank group (tCCDL spaces bursts within one group), then move
       along the columns of one row in each group, then to the group's next bank, then rows */
    uint64_t group = local % d->bank_groups;
    uint64_t rest = local / d->bank_groups / cols;
    uint64_t in_group = rest % per_group, row = rest / per_group;
    /* the bank index XORed with all of the row's bits folded to the bank index's width
       (permutation-based interleaving, Zhang et al., MICRO 2000: strides that are a multiple of
       the banks' span do not keep hitting one bank; folding the higher row bits in too spreads
       streams whose rows differ by a multiple of the banks); a bank group is a range of
       consecutive bank indices, and the group is the high bits, so consecutive chunks still change
       groups */
    uint64_t fold = 0;
    unsigned bank_bits = log2u(d->banks);
    for (uint64_t r = row; r && bank_bits; r >>= bank_bits) fold ^= r;
    uint32_t b = (uint32_t)(((group * per_group + in_group) ^ fold) % d->banks);
    return (gddr_place){ (uint32_t)(chunk % d->channels), b, b / per_group, row + 1 };
}

/* A channel's activation slot, in 1/256 cycles (0: activations are not limited). */
static uint64_t activation_len(const tm_dram_cfg *d)
{
    return (uint64_t)(d->t_rrd > (d->t_faw + 3) / 4 ? d->t_rrd : (d->t_faw + 3) / 4) * FRAC;
}

/* The first cycle >= at that the channel may activate a row, booked: activations are at least
 * tRRD apart and at most four fall within tFAW. Each takes a slot of max(tRRD, tFAW / 4) on the
 * channel's activation bookings (with the data sheet's figures tRRD binds: 4 x tRRD > tFAW; where
 * tFAW / 4 is longer this spaces activations evenly instead of allowing bursts of four, the same
 * rate). A slot may fill a gap left earlier, as transfers do, so a request that is ready sooner
 * activates before ones booked before it. */
static uint64_t activation_slot(const tm_dram_cfg *d, tm_dram_chan *ch, uint64_t at)
{
    uint64_t len = activation_len(d);
    if (!len) return at;
    return (busy_take(&ch->acts, at * FRAC, len) + FRAC - 1) / FRAC;
}

/* The earliest start >= from at which both the channel's bus (for xfer) and the bank group's
 * column path (for group_time) are free. */
static uint64_t gddr_slot(const tm_busy *bus, const tm_busy *group, uint64_t from, uint64_t xfer, uint64_t group_time)
{
    uint64_t s = from;
    for (int i = 0; i < 2 * TM_DRAM_GAPS; i++) {   /* each round moves past a gap of one of them */
        uint64_t g = busy_find(group, s, group_time);
        uint64_t u = busy_find(bus, g, xfer);
        if (u == g) return g;
        s = u;
    }
    return max_u64(max_u64(s, bus->end), group->end);   /* after both: always free */
}

/* The access on channel state ch, bank bk and its group's bookings; *row_hit says whether it
 * found its row open. */
static uint64_t gddr(const tm_machine *m, gddr_place p, tm_dram_chan *ch, tm_dram_bank *bk, tm_busy *group,
                     uint64_t t, uint32_t bytes, bool write, bool *row_hit)
{
    const tm_dram_cfg *d = &m->dram;
    uint32_t c = p.chan;
    uint64_t row = p.row;
    /* refresh: the channel's k-th window covers [off + (k-1) * tREFI, + tRFC) */
    uint64_t off = refresh_offset(d, c);
    uint64_t epoch = refresh_epoch(d, off, t);
    if (epoch && t < window_start(d, off, epoch) + d->t_rfc) t = window_start(d, off, epoch) + d->t_rfc;
    if (bk->epoch != epoch) {
        bk->epoch = epoch;
        bk->row = 0;
    }
    uint64_t cmd;
    *row_hit = bk->row == row;
    if (*row_hit) {
        cmd = max_u64(t, bk->ready);
    } else {
        uint64_t act = max_u64(t, bk->ready);
        if (bk->row) act = max_u64(act, bk->act_at + d->t_ras) + d->t_rp;
        act = activation_slot(d, ch, act);
        bk->act_at = act;
        bk->row = row;
        cmd = act + d->t_rcd;
    }
    double per_cycle = m->dram_bytes_per_cycle / d->channels;
    uint32_t moved = (bytes + d->burst_bytes - 1) / d->burst_bytes * d->burst_bytes;   /* whole bursts */
    uint64_t xfer = transfer_frac(moved, per_cycle);
    uint64_t group_time = xfer * d->ccdl_bursts;   /* tCCDL: a burst every ccdl_bursts burst times */
    uint64_t bus_time = xfer;
    if (write && ch->writes++ % DRAM_WRITE_BATCH == 0)   /* a batch of writes turns the bus twice */
        bus_time += (uint64_t)(d->t_wtr + d->t_rtw) * FRAC;
    uint64_t start = gddr_slot(&ch->bus, group, (cmd + d->t_cl) * FRAC, bus_time, group_time);
    /* a refresh that came after the command: the transfer waits for it and the row to be opened
       again */
    uint64_t late = refresh_epoch(d, off, (start + FRAC - 1) / FRAC);
    if (late != bk->epoch) {
        start = gddr_slot(&ch->bus, group, (window_start(d, off, late) + d->t_rfc + d->t_rcd + d->t_cl) * FRAC,
                          bus_time, group_time);
        bk->epoch = late;
    }
    busy_book(group, start, group_time, xfer);
    busy_book(&ch->bus, start, bus_time, xfer);
    bk->ready = cmd + (group_time + FRAC - 1) / FRAC;
    uint64_t end = (start + bus_time + FRAC - 1) / FRAC;
    uint64_t xfer_cycles = (xfer + FRAC - 1) / FRAC, path = (uint64_t)d->t_rcd + d->t_cl + xfer_cycles;
    return end + (m->dram_latency > path ? m->dram_latency - path : 0);
}

static uint64_t dram(tm_memsys *ms, uint64_t t, uint64_t byte_addr, uint32_t bytes, bool write)
{
    if (write) ms->dram_write_bytes += bytes;
    else ms->dram_read_bytes += bytes;
    const tm_dram_cfg *d = &ms->m->dram;
    if (d->channels) {
        gddr_place p = gddr_map(d, byte_addr);
        bool hit = false;
        uint64_t done = gddr(ms->m, p, &ms->chan[p.chan], &ms->bank[(size_t)p.chan * d->banks + p.bank],
                             &ms->group_free[(size_t)p.chan * d->bank_groups + p.group], t, bytes, write, &hit);
        if (hit) ms->dram_row_hits++;
        else ms->dram_row_misses++;
        tm_dram_chan *ch = &ms->chan[p.chan];
        ch->miss_q16 = ch->miss_q16 - (ch->miss_q16 >> 5) + (hit ? 0 : 65536u >> 5);
        return done;
    }
    return port(&ms->dram_free_at, t, bytes, ms->m->dram_bytes_per_cycle) + ms->m->dram_latency;
}

static int next_level(const tm_machine *m, int l)
{
    if (l == LVL_SCALAR) l = LVL_L0;   /* the scalar cache is backed by L1, not by L0 */
    for (l++; l < LVL_N; l++)
        if (m->cache[l].size) return l;
    return LVL_N;
}

/* A dirty line leaving level l: written into the next level (or DRAM) in the background. */
static void write_back(tm_memsys *ms, uint32_t cu, int l, uint64_t byte_addr, uint64_t t)
{
    int n = next_level(ms->m, l);
    if (n == LVL_N) {
        dram(ms, t, byte_addr, ms->m->cache[l].line, true);
        return;
    }
    tm_cache *k = &ms->inst[n][ms->m->cache[n].cus_per_instance ? cu / ms->m->cache[n].cus_per_instance : 0];
    uint64_t line = byte_addr >> k->line_shift;
    uint64_t *slot = lookup(k, line, NULL);
    if (slot) {
        *slot |= 1u;
        return;
    }
    uint64_t victim = insert(k, line, true, t);
    if (victim & 1u) write_back(ms, cu, n, ((victim - 2) >> 1) << k->line_shift, t);
}

/* The scalar path skips the vector memory pipeline (lane address coalescing, the L0's stages), so
 * a scalar read that misses its cache returns earlier than a vector read served by the same level:
 * by the difference of the two first-level latencies. The latencies of L1 and below in a machine
 * file are the vector path's (for gfx1100, [C&C2] measured the Infinity Cache at 128.4 ns scalar
 * and 150.3 ns vector). */
static uint64_t scalar_miss_done(const tm_machine *m, uint64_t got_port, uint64_t done)
{
    uint32_t scalar = m->cache[LVL_SCALAR].latency, vector = m->cache[LVL_L0].latency;
    uint64_t saving = m->cache[LVL_L0].size && vector > scalar ? vector - scalar : 0;
    uint64_t earliest = got_port + scalar;
    return done > earliest + saving ? done - saving : done > earliest ? earliest : done;
}

/* Levels that keep written data (write-back): L2 and below. Above it, writes pass through. */
static bool writes_allocate(int l) { return l >= LVL_L2; }

static uint64_t shared_access(tm_memsys *ms, uint32_t cu, int l, uint64_t byte_addr, int kind, unsigned policy,
                              uint64_t t);

static uint64_t access_level(tm_memsys *ms, uint32_t cu, int l, uint64_t byte_addr, int kind, unsigned policy,
                             uint64_t t)
{
    const tm_machine *m = ms->m;
    if (ms->shared && l >= LVL_L2) return shared_access(ms, cu, l, byte_addr, kind, policy, t);
    if (l == LVL_N) return dram(ms, t, byte_addr, m->cache[LVL_L2].size ? m->cache[LVL_L2].line : 64, kind == TM_WRITE);
    const tm_cache_cfg *c = &m->cache[l];
    tm_cache *k = &ms->inst[l][c->cus_per_instance ? cu / c->cus_per_instance : 0];
    uint64_t s = port(&k->free_at, t, c->line, c->bytes_per_cycle);
    if (c->mshrs) s = wait_for_register(k, c, s, kind);
    ms->level[l].bytes += c->line;
    uint64_t line = byte_addr >> k->line_shift;
    /* GLC: the L0 (and scalar cache) does not keep the line; DLC: nor does L1; SLC: streaming,
     * L2 does not allocate it. Atomics execute at L2. Writes pass through L0 and L1. */
    bool bypass = ((policy & UMB_TPOL_GLC) && (l == LVL_L0 || l == LVL_SCALAR)) ||
                  ((policy & UMB_TPOL_DLC) && l == LVL_L1) || (kind != TM_READ && l < LVL_L2);
    if (bypass) {
        if (kind != TM_READ && l < LVL_L2) {   /* invalidate a stale copy on the way */
            uint64_t *slot = lookup(k, line, NULL);
            if (slot) *slot = 0;
        }
        uint64_t done = access_level(ms, cu, next_level(m, l), byte_addr, kind, policy, s);
        return l == LVL_SCALAR && kind == TM_READ ? scalar_miss_done(m, s, done) : done;
    }
    uint64_t ready = 0;
    uint64_t *slot = lookup(k, line, &ready);
    if (slot) {
        ms->level[l].hits++;
        if (kind != TM_READ) *slot |= 1u;
        uint64_t done = s + (kind == TM_WRITE ? m->store_latency > c->latency ? c->latency : m->store_latency : c->latency);
        return kind == TM_READ && ready > done ? ready : done;   /* still being filled: when it arrives */
    }
    ms->level[l].misses++;
    /* the register that frees first, which wait_for_register has waited for (only the levels above
     * L2 have miss registers: machine.c); busy until the line has come back through this level */
    uint64_t *reg = c->mshrs && kind == TM_READ ? miss_register(k, c->mshrs) : NULL;
    uint64_t done = access_level(ms, cu, next_level(m, l), byte_addr, kind == TM_WRITE ? TM_WRITE : TM_READ,
                                 policy, s);
    if (kind == TM_READ) done += c->miss_cycles;
    if (reg) *reg = done + c->latency;
    if (l == LVL_SCALAR && kind == TM_READ) done = scalar_miss_done(m, s, done);
    bool allocate = !((policy & UMB_TPOL_SLC) && l == LVL_L2) && (kind == TM_READ || writes_allocate(l));
    if (allocate) {
        uint64_t victim = insert(k, line, kind != TM_READ, kind == TM_READ ? done : s);
        if (victim & 1u) write_back(ms, cu, l, ((victim - 2) >> 1) << k->line_shift, s);
    }
    if (kind == TM_WRITE && writes_allocate(l)) return s + m->store_latency;   /* acknowledged here */
    return done;
}

/* ---- the parallel mode's views of the shared levels ---- */

static uint64_t access_level(tm_memsys *ms, uint32_t cu, int l, uint64_t byte_addr, int kind, unsigned policy,
                             uint64_t t);

/* The view's port copy of instance i of shared level l (copied at its first use in the quantum). */
static uint64_t *view_port(tm_view *v, const tm_memsys *sh, int l, uint32_t i)
{
    if (v->port_q[l] != v->quantum) {
        for (uint32_t k = 0; k < sh->ninst[l]; k++) v->free_at[l][k] = sh->inst[l][k].free_at;
        v->port_q[l] = v->quantum;
    }
    return &v->free_at[l][i];
}

/* Whether line is in instance k without touching its LRU order; *ready: when its data is there. */
static bool peek(const tm_cache *k, uint64_t line, uint64_t *ready)
{
    size_t base = (size_t)(line % k->sets) * k->assoc;
    for (uint32_t w = 0; w < k->assoc; w++)
        if (k->tag[base + w] && (k->tag[base + w] - 2) >> 1 == line) {
            *ready = k->ready[base + w];
            return true;
        }
    return false;
}

static unsigned fill_slot(uint64_t line, int l) { return (unsigned)(((line * 4 + (unsigned)l) * 0x9E3779B97F4A7C15ull) >> 55); }

static bool view_fill_get(const tm_view *v, int l, uint64_t line, uint64_t *ready)
{
    unsigned i = fill_slot(line, l);
    if (v->fill[i].quantum != v->quantum || v->fill[i].line != line || v->fill[i].level != l) return false;
    *ready = v->fill[i].ready;
    return true;
}

static void view_fill_put(tm_view *v, int l, uint64_t line, uint64_t ready)
{
    unsigned i = fill_slot(line, l);
    v->fill[i].line = line, v->fill[i].ready = ready, v->fill[i].quantum = v->quantum, v->fill[i].level = l;
}

static uint64_t view_dram(tm_view *v, const tm_memsys *sh, uint64_t t, uint64_t byte_addr, uint32_t bytes, bool write)
{
    const tm_machine *m = sh->m;
    const tm_dram_cfg *d = &m->dram;
    if (!d->channels) {
        if (v->dram_q != v->quantum) v->dram_free_at = sh->dram_free_at, v->dram_q = v->quantum;
        return port(&v->dram_free_at, t, bytes * sh->share, m->dram_bytes_per_cycle) + m->dram_latency;
    }
    /* the channel's data bus as the replay left it, plus the array's own transfers; the banks'
       state (rows, refresh) reaches the array through that backlog, not request by request */
    gddr_place p = gddr_map(d, byte_addr);
    if (v->chan_q[p.chan] != v->quantum) {
        v->chan[p.chan] = sh->chan[p.chan];
        v->chan_q[p.chan] = v->quantum;
    }
    double per_cycle = m->dram_bytes_per_cycle / d->channels;
    uint32_t moved = (bytes + d->burst_bytes - 1) / d->burst_bytes * d->burst_bytes;
    uint64_t len = transfer_frac((double)moved * sh->share, per_cycle);
    tm_dram_chan *ch = &v->chan[p.chan];
    /* activations: the view does not know the banks' rows, so each access books its share of
       the channel's activation slots in the proportion of row openings the replay saw last */
    uint64_t from = t * FRAC, alen = (uint64_t)((double)activation_len(d) * sh->share * ch->miss_q16 / 65536.0);
    if (alen) from = busy_take(&ch->acts, from, alen);   /* (never earlier than from) */
    uint64_t start = busy_take(&ch->bus, from, len);
    (void)write;
    return (start + FRAC - 1) / FRAC + m->dram_latency;
}

/* access_level of a shared level (l >= LVL_L2) on the view: the same timing rules, with the
 * shared state read only and the view's copies changed; no statistics (the replay counts). */
static uint64_t view_access(tm_memsys *ms, tm_view *v, uint32_t cu, int l, uint64_t byte_addr, int kind,
                            unsigned policy, uint64_t t)
{
    const tm_machine *m = ms->m;
    const tm_memsys *sh = ms->shared;
    if (l == LVL_N) return view_dram(v, sh, t, byte_addr, m->cache[LVL_L2].size ? m->cache[LVL_L2].line : 64, kind == TM_WRITE);
    const tm_cache_cfg *c = &m->cache[l];
    uint32_t i = c->cus_per_instance ? cu / c->cus_per_instance : 0;
    const tm_cache *k = &sh->inst[l][i];
    uint64_t s = port(view_port(v, sh, l, i), t, c->line * sh->share, c->bytes_per_cycle);
    uint64_t line = byte_addr >> k->line_shift, ready = 0;
    if (view_fill_get(v, l, line, &ready) || peek(k, line, &ready)) {
        uint64_t done = s + (kind == TM_WRITE ? m->store_latency > c->latency ? c->latency : m->store_latency : c->latency);
        return kind == TM_READ && ready > done ? ready : done;
    }
    uint64_t done = view_access(ms, v, cu, next_level(m, l), byte_addr, kind == TM_WRITE ? TM_WRITE : TM_READ, policy, s);
    if (!((policy & UMB_TPOL_SLC) && l == LVL_L2)) view_fill_put(v, l, line, kind == TM_READ ? done : s);
    if (kind == TM_WRITE) return s + m->store_latency;   /* acknowledged here (writes allocate from L2 on) */
    return done;
}

/* A partition's request for shared level l: logged for the replay, answered from its array's view. */
static uint64_t shared_access(tm_memsys *ms, uint32_t cu, int l, uint64_t byte_addr, int kind, unsigned policy,
                              uint64_t t)
{
    if (ms->nlog == ms->caplog) {
        size_t cap = ms->caplog ? 2 * ms->caplog : 4096;
        tm_req *n = realloc(ms->log, cap * sizeof *n);
        if (!n) ms->log_failed = true;
        else ms->log = n, ms->caplog = cap;
    }
    if (ms->nlog < ms->caplog)
        ms->log[ms->nlog++] = (tm_req){ .t = t, .addr = byte_addr, .cu = cu, .seq = ms->cu_seq[cu]++, .level = (uint8_t)l,
                                        .kind = (uint8_t)kind, .policy = (uint8_t)policy };
    return view_access(ms, &ms->views[cu / ms->unit_cus], cu, l, byte_addr, kind, policy, t);
}

static int req_cmp(const void *a, const void *b)
{
    const tm_req *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    if (x->cu != y->cu) return x->cu < y->cu ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

void tm_mem_replay(tm_memsys *shared, tm_req *reqs, size_t n)
{
    if (!n) return;   /* (reqs may be NULL: a quantum without shared requests) */
    qsort(reqs, n, sizeof *reqs, req_cmp);
    for (size_t i = 0; i < n; i++)
        access_level(shared, reqs[i].cu, reqs[i].level, reqs[i].addr, reqs[i].kind, reqs[i].policy, reqs[i].t);
}

tm_view *tm_views_create(const tm_memsys *shared, uint32_t units)
{
    const tm_machine *m = shared->m;
    tm_view *v = umb_calloc_lines(units, sizeof *v);
    if (!v) return NULL;
    for (uint32_t u = 0; u < units; u++) {
        v[u].quantum = 1;   /* every copy stale */
        for (int l = LVL_L2; l < LVL_N; l++)
            if (shared->ninst[l] && !(v[u].free_at[l] = umb_calloc_lines(shared->ninst[l], sizeof *v[u].free_at[l]))) goto fail;
        if (m->dram.channels) {
            v[u].chan = umb_calloc_lines(m->dram.channels, sizeof *v[u].chan);
            v[u].chan_q = umb_calloc_lines(m->dram.channels, sizeof *v[u].chan_q);
            if (!v[u].chan || !v[u].chan_q) goto fail;
        }
    }
    return v;
fail:
    tm_views_destroy(v, units);
    return NULL;
}

void tm_views_destroy(tm_view *v, uint32_t units)
{
    if (!v) return;
    for (uint32_t u = 0; u < units; u++) {
        for (int l = 0; l < LVL_N; l++) free(v[u].free_at[l]);
        free(v[u].chan);
        free(v[u].chan_q);
    }
    free(v);
}

bool tm_memsys_partition(tm_memsys *part, tm_memsys *shared, tm_view *views, uint32_t unit_cus)
{
    memset(part, 0, sizeof *part);
    part->m = shared->m;
    for (int l = 0; l < LVL_N; l++) part->inst[l] = shared->inst[l], part->ninst[l] = shared->ninst[l];
    part->shared = shared;
    part->views = views;
    part->unit_cus = unit_cus;
    part->lds_memo = calloc(TM_LDS_MEMO, sizeof *part->lds_memo);
    part->cu_seq = calloc(shared->m->cus, sizeof *part->cu_seq);
    return part->lds_memo && part->cu_seq;
}

void tm_memsys_partition_fini(tm_memsys *part)
{
    free(part->lds_memo);
    free(part->cu_seq);
    free(part->log);
    memset(part, 0, sizeof *part);
}

uint64_t tm_mem_line(tm_memsys *ms, uint32_t cu, int first, uint64_t line_addr, int kind, unsigned policy,
                     uint64_t t)
{
    int l = first;
    if (l == LVL_SCALAR && !ms->m->cache[l].size) l = LVL_L0;   /* no scalar cache: the vector path */
    if (!ms->m->cache[l].size) l = next_level(ms->m, l);
    return access_level(ms, cu, l, line_addr, kind, policy, t);
}

uint64_t tm_mem_fetch(tm_memsys *ms, uint32_t cu, uint64_t byte_addr, uint64_t t)
{
    const tm_machine *m = ms->m;
    if (!ms->nicache) return t + 1;
    tm_cache *k = &ms->icache[cu < ms->nicache ? cu : 0];
    uint64_t s = port(&k->free_at, t, m->icache.line, m->icache.bytes_per_cycle);
    uint64_t line = byte_addr >> k->line_shift, ready = 0;
    if (lookup(k, line, &ready)) {
        ms->ifetch.hits++;
        uint64_t done = s + m->icache.latency;
        return ready > done ? ready : done;   /* still being filled: when it arrives */
    }
    ms->ifetch.misses++;
    ms->ifetch.bytes += m->icache.line;
    int below = next_level(m, LVL_L1);
    uint64_t done = access_level(ms, cu, below, (line << k->line_shift), TM_READ, 0, s) + m->icache.latency;
    insert(k, line, false, done);
    if (done > k->fill_until) k->fill_until = done;
    return done;
}

uint64_t tm_mem_fetch_idle(const tm_memsys *ms, uint32_t cu, uint64_t t)
{
    if (!ms->nicache) return t;
    uint64_t f = ms->icache[cu < ms->nicache ? cu : 0].fill_until;
    return f > t ? f : t;
}

uint64_t tm_mem_l0_accepts(const tm_memsys *ms, uint32_t cu, uint64_t t)
{
    const tm_machine *m = ms->m;
    int l = m->cache[LVL_L0].size ? LVL_L0 : next_level(m, LVL_L0);
    if (l == LVL_N || (ms->shared && l >= LVL_L2)) return t;
    const tm_cache_cfg *c = &m->cache[l];
    const tm_cache *k = &ms->inst[l][c->cus_per_instance ? cu / c->cus_per_instance : 0];
    uint64_t free = (k->free_at + FRAC - 1) / FRAC;
    if (c->mshrs) free = max_u64(free, *miss_register(k, c->mshrs));
    return max_u64(free, t);
}

uint64_t tm_memsys_flush_l2(tm_memsys *ms, uint64_t t)
{
    const tm_cache_cfg *cfg = &ms->m->cache[LVL_L2];
    uint64_t done = t;
    for (uint32_t i = 0; i < ms->ninst[LVL_L2]; i++) {
        tm_cache *c = &ms->inst[LVL_L2][i];
        size_t n = (size_t)c->sets * c->assoc;
        for (size_t j = 0; j < n; j++) {
            if (!(c->tag[j] & 1u)) continue;
            uint64_t byte_addr = ((c->tag[j] - 2) >> 1) << c->line_shift;
            c->tag[j] &= ~(uint64_t)1;
            uint64_t d = dram(ms, t, byte_addr, cfg->line, true);
            if (d > done) done = d;
        }
    }
    return done;
}

/* Add word to the pass's set; true if it was not there. */
static bool lds_word_new(tm_memsys *ms, uint64_t word)
{
    unsigned h = (unsigned)((word * 0x9E3779B97F4A7C15ull) >> 55);
    while (ms->lds_stamp[h] == ms->lds_gen) {
        if (ms->lds_word[h] == word) return false;
        h = (h + 1) & 511u;
    }
    ms->lds_stamp[h] = ms->lds_gen;
    ms->lds_word[h] = word;
    return true;
}

/* a / d and a % d, by a shift and a mask when d is a power of two (a 64-bit division costs
 * tens of cycles, and these run per lane) */
static inline uint64_t div_u(uint64_t a, uint32_t d) { return d & (d - 1) ? a / d : a >> __builtin_ctz(d); }
static inline uint64_t mod_u(uint64_t a, uint32_t d) { return d & (d - 1) ? a % d : a & (d - 1); }

/* One more LDS word asked for by a pass: counted on its bank if no lane asked for it before. */
static inline void lds_count(const tm_machine *m, uint64_t word, uint8_t *per_bank, unsigned *distinct,
                             unsigned *worst)
{
    (*distinct)++;
    unsigned bank = (unsigned)mod_u(word, m->lds_banks) & 63u;
    if (++per_bank[bank] > *worst) *worst = per_bank[bank];
}

/* The pass's words without a set, in the common cases: each lane asks either for words beyond
 * every earlier lane's (ascending addresses) or only for words one earlier run of lanes asked for
 * already (a repeated row); run_first/run_end keep those words as ascending disjoint ranges.
 * False for any other pattern (the caller then counts with a set). */
static bool lds_pass_runs(const tm_machine *m, const uint64_t *addr, uint64_t pass, unsigned words,
                          uint8_t *per_bank, unsigned *distinct, unsigned *worst)
{
    uint64_t run_first[64], run_end[64], prev = ~0ull;
    unsigned nrun = 0;
    for (uint64_t b = pass; b; b &= b - 1) {
        uint64_t a = addr[__builtin_ctzll(b)];
        if (a == prev) continue;   /* the same words as the lane before (broadcast) */
        prev = a;
        uint64_t word = div_u(a, m->lds_bank_bytes);
        if (nrun && word < run_end[nrun - 1]) {   /* only words asked for already? */
            unsigned r = 0;
            while (r < nrun && !(run_first[r] <= word && word + words <= run_end[r])) r++;
            if (r == nrun) return false;
            continue;
        }
        for (unsigned k = 0; k < words; k++) lds_count(m, word + k, per_bank, distinct, worst);
        if (nrun && word == run_end[nrun - 1]) {
            run_end[nrun - 1] += words;
        } else {
            run_first[nrun] = word;
            run_end[nrun++] = word + words;
        }
    }
    return true;
}

/* Cycles of one pass of lanes: each bank delivers one word per cycle; lanes asking for the same
 * word share it. *ideal gets the cycles without conflicts. */
static uint32_t lds_pass(tm_memsys *ms, const uint64_t *addr, uint64_t pass, unsigned words, uint32_t *ideal)
{
    const tm_machine *m = ms->m;
    uint8_t per_bank[64] = {0};
    unsigned distinct = 0, worst = 0;
    if (lds_pass_runs(m, addr, pass, words, per_bank, &distinct, &worst)) goto done;
    memset(per_bank, 0, sizeof per_bank);
    distinct = worst = 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint64_t b = pass; b; b &= b - 1) {
        uint64_t a = addr[__builtin_ctzll(b)];
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
    }
    uint64_t first = div_u(lo, m->lds_bank_bytes), span = div_u(hi, m->lds_bank_bytes) + words - first;
    uint64_t prev = ~0ull;
    if (span <= TM_LDS_SPAN_WORDS) {   /* the words as bits from the lowest one */
        uint64_t *seen = ms->lds_seen;
        for (uint64_t b = pass; b; b &= b - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(b);
            if (addr[lane] == prev) continue;
            prev = addr[lane];
            uint64_t i = div_u(addr[lane], m->lds_bank_bytes) - first;
            for (unsigned k = 0; k < words; k++, i++) {
                uint64_t bit = 1ull << (i % 64);
                if (seen[i / 64] & bit) continue;
                seen[i / 64] |= bit;
                lds_count(m, first + i, per_bank, &distinct, &worst);
            }
        }
        memset(seen, 0, (size_t)(span + 63) / 64 * sizeof *seen);
    } else {
        if (++ms->lds_gen == 0) {   /* wrapped: forget every stamp */
            memset(ms->lds_stamp, 0, sizeof ms->lds_stamp);
            ms->lds_gen = 1;
        }
        for (uint64_t b = pass; b; b &= b - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(b);
            if (addr[lane] == prev) continue;
            prev = addr[lane];
            for (unsigned k = 0; k < words; k++) {
                uint64_t word = addr[lane] / m->lds_bank_bytes + k;
                if (lds_word_new(ms, word)) lds_count(m, word, per_bank, &distinct, &worst);
            }
        }
    }
done:;
    uint32_t need = (distinct + m->lds_banks - 1) / m->lds_banks;
    *ideal += need;
    return worst > need ? worst : need;
}

/* The memo's place for a pass: a hash of the lanes taking part, the first lane's phase, the
 * words, and three lanes' addresses relative to the first one's (enough to tell the patterns of
 * one kernel apart; the entry is compared in full). */
static uint32_t lds_memo_slot(const uint64_t *addr, uint64_t pass, unsigned base, unsigned n, uint64_t a0,
                              uint64_t phase, unsigned words)
{
    uint64_t h = pass * 0x9E3779B97F4A7C15ull ^ phase * 0xC2B2AE3D27D4EB4Full ^ words;
    const unsigned probe[3] = { 1, n / 2, n - 1 };
    for (unsigned k = 0; k < 3; k++) {
        unsigned i = base + probe[k];
        uint64_t d = (pass >> i) & 1u ? addr[i] - a0 : 0;
        h = (h ^ d) * 0x9E3779B97F4A7C15ull;
    }
    return (uint32_t)(h >> 40) % TM_LDS_MEMO;
}

/* Whether entry e holds the pass's pattern. The comparison takes every lane of the window without
 * a branch (a lane outside the pass compares 0 with its stored 0), so it vectorises. */
static bool lds_memo_match(const tm_lds_memo *e, const uint64_t *addr, uint64_t pass, unsigned base, unsigned n,
                           uint64_t a0, uint64_t phase, unsigned words)
{
    if (e->pass != pass || e->phase != phase || e->words != words) return false;
    uint64_t diff = 0;
    const uint64_t *a = addr + base;
    const int32_t *d = e->delta;
    if (n == 32 && (uint32_t)(pass >> base) == UINT32_MAX) {   /* every lane (the common case) */
        for (unsigned i = 0; i < 32; i++) diff |= (a[i] - a0) ^ (uint64_t)(int64_t)d[i];
        return !diff;
    }
    for (unsigned i = 0; i < n; i++) {
        uint64_t on = 0 - ((pass >> (base + i)) & 1u);
        diff |= ((a[i] - a0) & on) ^ (uint64_t)(int64_t)d[i];
    }
    return !diff;
}

/* lds_pass, looked up in (or entered into) the memo first. */
static uint32_t lds_pass_memo(tm_memsys *ms, const uint64_t *addr, uint64_t pass, unsigned base, unsigned n,
                              unsigned words, uint32_t *ideal)
{
    const tm_machine *m = ms->m;   /* banks and bank bytes are not 0 (machine.c) */
    uint64_t a0 = addr[__builtin_ctzll(pass)];
    /* a pass's distinct words and its busiest bank do not change when every word moves to the
       next bank (with at most 64 banks, lds_count's bank index is the word modulo the banks) */
    uint64_t phase = a0 % (m->lds_banks <= 64 ? m->lds_bank_bytes : (uint64_t)m->lds_banks * m->lds_bank_bytes);
    tm_lds_memo *e = &ms->lds_memo[lds_memo_slot(addr, pass, base, n, a0, phase, words)];
    if (lds_memo_match(e, addr, pass, base, n, a0, phase, words)) {
        *ideal += e->ideal;
        return e->cycles;
    }
    uint32_t id = 0, cycles = lds_pass(ms, addr, pass, words, &id);
    *ideal += id;
    int32_t delta[64];
    for (unsigned i = 0; i < n; i++) {   /* enter it, if every address is within 2 GiB of the first */
        int64_t d = (pass >> (base + i)) & 1u ? (int64_t)(addr[base + i] - a0) : 0;
        if (d != (int64_t)(int32_t)d) return cycles;
        delta[i] = (int32_t)d;
    }
    *e = (tm_lds_memo){ .pass = pass, .phase = phase, .words = words, .cycles = cycles, .ideal = id };
    memcpy(e->delta, delta, n * sizeof *delta);
    return cycles;
}

uint32_t tm_lds_cycles(tm_memsys *ms, const uint64_t *addr, uint64_t exec, unsigned bytes_per_lane,
                       unsigned lanes_per_pass, uint32_t *conflict)
{
    const tm_machine *m = ms->m;
    uint32_t total = 0, ideal = 0;
    unsigned words = bytes_per_lane > m->lds_bank_bytes ? bytes_per_lane / m->lds_bank_bytes : 1;
    if (words > 4) words = 4;
    if (lanes_per_pass > 64 || !lanes_per_pass) lanes_per_pass = 64;
    for (unsigned base = 0; base < 64; base += lanes_per_pass) {
        uint64_t lanes = lanes_per_pass >= 64 ? ~0ull : ((1ull << lanes_per_pass) - 1) << base;
        uint64_t pass = exec & lanes;
        if (pass) total += lds_pass_memo(ms, addr, pass, base, 64 - base < lanes_per_pass ? 64 - base : lanes_per_pass, words, &ideal);
    }
    *conflict = total - ideal;
    return total ? total : 1;
}
