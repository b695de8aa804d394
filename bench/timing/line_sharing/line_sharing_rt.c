/* Which cache lines do umbra's host threads share while they run in parallel?
 *
 * A runtime for GCC's ThreadSanitizer instrumentation that is not ThreadSanitizer: code compiled
 * with -fsanitize=thread calls __tsan_readN / __tsan_writeN before each load and store and
 * __tsan_atomicN_* for each atomic operation; this file provides those functions and keeps, for
 * every 64-byte line, which threads read it and which wrote it in the current epoch. An epoch
 * ends at every atomic read-modify-write (in the parallel timing mode: the quantum barriers'
 * arrivals and releases), so what is counted is sharing between two synchronisations: an access
 * to a line that another thread wrote in the same epoch, or a write to a line another thread read
 * or wrote in it. Those are the accesses that move a line between cores while both threads run
 * (true sharing, and false sharing of different bytes on one line). The counts go, by the code
 * address that made the access (as an offset into its object, for addr2line) and the line's
 * address, to $LINE_SHARING_OUT (default line_sharing.out) at exit.
 *
 * Not seen: accesses made inside uninstrumented code (libc's memcpy and memset, LLVM), and
 * prefetches. The shadow table is direct-mapped (4 M lines) and updated without locks, so the
 * counts are approximate. bench/timing/line_sharing/run.sh builds and runs it; docs/PERFORMANCE.md
 * ("Timing mode on several host threads", session 26) has what it found. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SHADOW_BITS = 22, SITE_BITS = 16, SITE_PROBES = 8 };

typedef struct line_state {
    uint64_t line;
    uint32_t epoch;
    uint8_t readers, writers;   /* bit t: thread t (threads numbered 0..7 by first access) */
} line_state;

typedef struct site {
    uintptr_t pc;
    uint64_t hits;
    uint64_t last_line;
} site;

/* This runtime's state: one process, set up by __tsan_init before any instrumented code runs. */
static line_state *shadow;
static site *sites;
static uint32_t epoch;
static int threads_seen;
static __thread int thread_index = -1;

static uint64_t mix(uint64_t x) { return x * 0x9E3779B97F4A7C15ull; }

static int this_thread(void)
{
    if (thread_index < 0) thread_index = __atomic_fetch_add(&threads_seen, 1, __ATOMIC_RELAXED) & 7;
    return thread_index;
}

static void count_site(uintptr_t pc, uint64_t line)
{
    uint64_t h = mix(pc) >> (64 - SITE_BITS);
    for (unsigned i = 0; i < SITE_PROBES; i++) {
        site *s = &sites[(h + i) & ((1u << SITE_BITS) - 1u)];
        if (s->pc == pc || s->pc == 0) {
            s->pc = pc;
            s->hits++;
            s->last_line = line;
            return;
        }
    }
}

static void touch(const volatile void *addr, int write, uintptr_t pc)
{
    if (!shadow) return;
    uint64_t line = (uint64_t)(uintptr_t)addr >> 6;
    line_state *s = &shadow[mix(line) >> (64 - SHADOW_BITS)];
    uint8_t me = (uint8_t)(1u << this_thread()), others = (uint8_t)~me;
    uint32_t now = __atomic_load_n(&epoch, __ATOMIC_RELAXED);
    if (s->line != line || s->epoch != now) *s = (line_state){ .line = line, .epoch = now };
    if (write ? (s->readers | s->writers) & others : s->writers & others) count_site(pc, line);
    if (write) s->writers |= me;
    else s->readers |= me;
}

static void new_epoch(void) { __atomic_fetch_add(&epoch, 1, __ATOMIC_RELAXED); }

#define CALLER ((uintptr_t)__builtin_return_address(0))
#define PLAIN(n)                                                                        \
    void __tsan_read##n(void *a) { touch(a, 0, CALLER); }                               \
    void __tsan_write##n(void *a) { touch(a, 1, CALLER); }                              \
    void __tsan_unaligned_read##n(void *a) { touch(a, 0, CALLER); }                     \
    void __tsan_unaligned_write##n(void *a) { touch(a, 1, CALLER); }                    \
    void __tsan_volatile_read##n(void *a) { touch(a, 0, CALLER); }                      \
    void __tsan_volatile_write##n(void *a) { touch(a, 1, CALLER); }
PLAIN(1) PLAIN(2) PLAIN(4) PLAIN(8) PLAIN(16)

void __tsan_read_range(void *a, unsigned long n) { (void)n; touch(a, 0, CALLER); }
void __tsan_write_range(void *a, unsigned long n) { (void)n; touch(a, 1, CALLER); }
void __tsan_func_entry(void *pc) { (void)pc; }
void __tsan_func_exit(void) {}
void __tsan_atomic_thread_fence(int mo) { (void)mo; __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __tsan_atomic_signal_fence(int mo) { (void)mo; __atomic_signal_fence(__ATOMIC_SEQ_CST); }

/* Every atomic is performed sequentially consistent (stronger than asked: harmless here). */
#define RMW(N, T, op, builtin)                                                          \
    T __tsan_atomic##N##_##op(volatile T *a, T v, int mo)                               \
    {                                                                                   \
        (void)mo;                                                                       \
        touch(a, 1, CALLER);                                                            \
        new_epoch();                                                                    \
        return builtin(a, v, __ATOMIC_SEQ_CST);                                         \
    }
#define CAS(N, T, name, weak)                                                           \
    int __tsan_atomic##N##_##name(volatile T *a, T *c, T v, int mo, int fmo)           \
    {                                                                                   \
        (void)mo, (void)fmo;                                                            \
        touch(a, 1, CALLER);                                                            \
        new_epoch();                                                                    \
        return __atomic_compare_exchange_n(a, c, v, weak, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    }
#define ATOMICS(N, T)                                                                   \
    T __tsan_atomic##N##_load(const volatile T *a, int mo)                              \
    {                                                                                   \
        (void)mo;                                                                       \
        touch(a, 0, CALLER);                                                            \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                    \
    }                                                                                   \
    void __tsan_atomic##N##_store(volatile T *a, T v, int mo)                           \
    {                                                                                   \
        (void)mo;                                                                       \
        touch(a, 1, CALLER);                                                            \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                       \
    }                                                                                   \
    RMW(N, T, exchange, __atomic_exchange_n) RMW(N, T, fetch_add, __atomic_fetch_add)   \
    RMW(N, T, fetch_sub, __atomic_fetch_sub) RMW(N, T, fetch_and, __atomic_fetch_and)   \
    RMW(N, T, fetch_or, __atomic_fetch_or) RMW(N, T, fetch_xor, __atomic_fetch_xor)     \
    RMW(N, T, fetch_nand, __atomic_fetch_nand)                                          \
    CAS(N, T, compare_exchange_strong, 0) CAS(N, T, compare_exchange_weak, 1)           \
    T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo) \
    {                                                                                   \
        (void)mo, (void)fmo;                                                            \
        touch(a, 1, CALLER);                                                            \
        new_epoch();                                                                    \
        __atomic_compare_exchange_n(a, &c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);   \
        return c;                                                                       \
    }
ATOMICS(8, uint8_t) ATOMICS(16, uint16_t) ATOMICS(32, uint32_t) ATOMICS(64, uint64_t)

static void write_report(void)
{
    const char *path = getenv("LINE_SHARING_OUT") ? getenv("LINE_SHARING_OUT") : "line_sharing.out";
    FILE *f = fopen(path, "w");
    if (!f) return;
    for (unsigned i = 0; i < (1u << SITE_BITS); i++) {
        const site *s = &sites[i];
        if (!s->hits) continue;
        Dl_info di;
        int known = dladdr((void *)s->pc, &di) && di.dli_fname;
        fprintf(f, "%llu %s 0x%lx line 0x%llx\n", (unsigned long long)s->hits, known ? di.dli_fname : "?",
                (unsigned long)(known ? s->pc - (uintptr_t)di.dli_fbase : s->pc), (unsigned long long)(s->last_line << 6));
    }
    fclose(f);
}

void __tsan_init(void)
{
    if (shadow) return;
    shadow = calloc((size_t)1 << SHADOW_BITS, sizeof *shadow);
    sites = calloc((size_t)1 << SITE_BITS, sizeof *sites);
    if (!shadow || !sites) {
        fprintf(stderr, "line_sharing: out of memory\n");
        exit(1);
    }
    atexit(write_report);
}
