/* The simulated device as the UMBRA_* environment describes it, and device memory under its lock. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "platform.h"

#include "jit/jit_policy.h"

static uint32_t env_u32(const char *name, uint32_t dflt)
{
    const char *v = getenv(name);
    return v && *v ? (uint32_t)strtoul(v, NULL, 0) : dflt;
}

/* "24G", "512M", "1073741824"; below 64 MiB: the default. */
static uint64_t env_bytes(const char *name, uint64_t dflt)
{
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    char *end;
    uint64_t n = strtoull(v, &end, 0);
    switch (*end) {
    case 'k': case 'K': n <<= 10; break;
    case 'm': case 'M': n <<= 20; break;
    case 'g': case 'G': n <<= 30; break;
    default: break;
    }
    return n >= (64u << 20) ? n : dflt;
}

/* UMBRA_MAX_WORK_GROUP_SIZE: 1..256 (256 is what a kernel without reqd_work_group_size is
 * compiled for). A device reporting less is a smaller GPU: every work-group, and every dimension
 * of one, is bounded by it. */
static bool init_work_group_limits(umb_platform *pl)
{
    pl->max_work_group = 256, pl->max_work_item = 1024;
    const char *v = getenv("UMBRA_MAX_WORK_GROUP_SIZE");
    if (!v || !*v) return true;
    char *end;
    unsigned long n = strtoul(v, &end, 0);
    if (*end || n < 1 || n > 256) {
        fprintf(stderr, "%s: UMBRA_MAX_WORK_GROUP_SIZE=%s: give a number from 1 to 256\n", pl->who, v);
        return false;
    }
    pl->max_work_group = (uint32_t)n;
    if (n < 256) pl->max_work_item = (uint32_t)n;
    return true;
}

/* UMBRA_TIMING=MACHINE: launches run on the timing model, and the device is the machine's (its
 * CUs and clock). */
static bool init_timing(umb_platform *pl, umb_device_config *cfg)
{
    const char *machine = getenv("UMBRA_TIMING");
    if (!machine || !*machine) return true;
    char err[1024];
    if (umb_timing_create(machine, &pl->timing, err, sizeof err) != UMB_OK) {
        fprintf(stderr, "%s: UMBRA_TIMING=%s: %s\n", pl->who, machine, err);
        return false;
    }
    uint32_t cus = umb_timing_compute_units(pl->timing);
    if (pl->compute_units != 96 && pl->compute_units != cus)
        fprintf(stderr, "%s: UMBRA_CUS=%u ignored: the timing machine %s has %u compute units "
                        "(copy its file and change cus)\n", pl->who, pl->compute_units,
                umb_timing_machine_name(pl->timing), cus);
    pl->compute_units = cus;
    pl->clock_mhz = (uint32_t)(umb_timing_clock_mhz(pl->timing) + 0.5);
    cfg->timing = pl->timing;
    /* host_threads (UMBRA_THREADS) run the model's partitions: the same results at any count */
    return true;
}

const char *plat_board_name(const umb_platform *pl)
{
    return pl->compute_units == 96 ? "Radeon RX 7900 XTX" : "AMD Radeon Graphics";
}

uint32_t plat_reported_units(uint32_t compute_units)
{
    return compute_units >= 2 ? compute_units / 2 : 1;
}

bool plat_init(umb_platform *pl, const char *who, plat_heap heap)
{
    memset(pl, 0, sizeof *pl);
    pl->who = who;
    pthread_mutex_init(&pl->run_lock.m, NULL);
    pthread_cond_init(&pl->run_lock.free, NULL);
    umb_jit_foreground_first();   /* the rooms' devices live until the program exits: jit.h */
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    cfg.host_threads = env_u32("UMBRA_THREADS", cfg.host_threads);
    cfg.max_instructions = env_bytes("UMBRA_MAX_INSTRUCTIONS", 0);
    cfg.heap_base = heap.base, cfg.heap_size = heap.size;
    pl->global_mem_size = env_bytes("UMBRA_GLOBAL_MEM", 24ull << 30);
    /* a given heap must hold the memory with room for code, kernargs and scratch */
    if (heap.size && pl->global_mem_size > heap.size / 2) {
        fprintf(stderr, "%s: only %llu GiB of address space could be reserved for device memory: the device "
                        "has %llu GiB (not %llu)\n", who, (unsigned long long)(heap.size >> 30),
                (unsigned long long)(heap.size / 2 >> 30), (unsigned long long)(pl->global_mem_size >> 30));
        pl->global_mem_size = heap.size / 2;
    }
    pl->compute_units = env_u32("UMBRA_CUS", 96);
    if (pl->compute_units == 0) pl->compute_units = 96;
    pl->clock_mhz = 2500;
    const char *t = getenv("UMBRA_TRACE");
    if (t && *t) {
        pl->trace = !strcmp(t, "-") ? stderr : fopen(t, "w");
        if (!pl->trace) fprintf(stderr, "%s: cannot open UMBRA_TRACE file %s\n", who, t);
    }
    const char *id = getenv("UMBRA_IDENTITY");
    if (id && *id && strcmp(id, "umbra") && strcmp(id, "rocm"))
        fprintf(stderr, "%s: UMBRA_IDENTITY=%s: expected umbra or rocm; umbra's own names are reported\n", who, id);
    pl->rocm_identity = id && !strcmp(id, "rocm");
    const char *w = getenv("UMBRA_CHECK_WAITCNT");
    pl->check_waitcnt = w && *w && strcmp(w, "0");
    /* UMBRA_JIT=off|auto|always: the translator (docs/TRANSLATOR.md); unset: auto */
    const char *j = getenv("UMBRA_JIT");
    int jm = j && *j ? umb_rdna3_jit_mode(j) : UMB_RDNA3_JIT_AUTO;
    if (jm < 0) {
        fprintf(stderr, "%s: UMBRA_JIT=%s: expected off, auto or always; the default (auto) runs\n", who, j);
        jm = UMB_RDNA3_JIT_AUTO;
    }
    pl->jit = (uint32_t)jm;
    if (jm != UMB_RDNA3_JIT_OFF && !umb_cache_default_dir(pl->jit_cache_dir, sizeof pl->jit_cache_dir))
        pl->jit_cache_dir[0] = '\0';
    const char *jl = getenv("UMBRA_JIT_LOG");   /* a line on stderr per translation */
    pl->jit_log = jl && *jl && strcmp(jl, "0");
    const char *s = getenv("UMBRA_STATS");
    if (s) snprintf(pl->stats_path, sizeof pl->stats_path, "%s", s);
    if (!init_work_group_limits(pl) || !init_timing(pl, &cfg)) return false;
    /* the simulated device has the compute units it reports, so that as many workgroups are
     * resident at once as a program sizing its grid by the CU count expects */
    cfg.compute_units = pl->compute_units;
    pl->reported_units = plat_reported_units(pl->compute_units);
    pl->host_threads = cfg.host_threads;
    if (umb_device_create(&cfg, &pl->dev) != UMB_OK) {
        fprintf(stderr, "%s: the simulated device could not be created\n", who);
        return false;
    }
    return true;
}

/* ---------------- the device lock ---------------- */

/* The thread's priority in a pthread key, not in ELF thread-local storage: the OpenCL platform is a
 * library the ICD loader dlopen()s, where a _Thread_local lives in dynamically allocated TLS,
 * which LeakSanitizer's exit-time scan of the threads' stacks and TLS trips over (a crash of the
 * sanitizer's tracer, seen in the test suite). The key's value is the priority + 2 (0: not set). */
static pthread_key_t priority_key;
static pthread_once_t priority_once = PTHREAD_ONCE_INIT;

static void priority_key_init(void) { pthread_key_create(&priority_key, NULL); }

void plat_set_thread_priority(int priority)
{
    int p = priority < PLAT_PRIORITY_HIGH ? PLAT_PRIORITY_HIGH : priority > PLAT_PRIORITY_LOW ? PLAT_PRIORITY_LOW : priority;
    pthread_once(&priority_once, priority_key_init);
    pthread_setspecific(priority_key, (void *)(intptr_t)(p + 2));
}

int plat_thread_priority(void)
{
    pthread_once(&priority_once, priority_key_init);
    intptr_t v = (intptr_t)pthread_getspecific(priority_key);
    return v ? (int)v - 2 : PLAT_PRIORITY_NORMAL;
}

/* A thread of priority level `level` waits while the device is held or a more urgent thread waits. */
static bool must_wait(const plat_device_lock *l, int level)
{
    if (l->held) return true;
    for (int k = 0; k < level; k++)
        if (l->waiting[k]) return true;
    return false;
}

void plat_lock(umb_platform *pl)
{
    plat_device_lock *l = &pl->run_lock;
    int level = plat_thread_priority() - PLAT_PRIORITY_HIGH;
    pthread_mutex_lock(&l->m);
    l->waiting[level]++;
    while (must_wait(l, level)) pthread_cond_wait(&l->free, &l->m);
    l->waiting[level]--;
    l->held = true;
    pthread_mutex_unlock(&l->m);
}

void plat_unlock(umb_platform *pl)
{
    plat_device_lock *l = &pl->run_lock;
    pthread_mutex_lock(&l->m);
    l->held = false;
    pthread_cond_broadcast(&l->free);   /* every waiter looks again: the most urgent one takes it */
    pthread_mutex_unlock(&l->m);
}

uint64_t plat_max_alloc(const umb_platform *pl)
{
    return pl->global_mem_size / 4 > (128u << 20) ? pl->global_mem_size / 4 : (128u << 20);
}

umb_status plat_alloc(umb_platform *pl, uint64_t size, uint64_t *addr)
{
    plat_lock(pl);
    umb_status st = umb_mem_alloc(pl->dev, size, 4096, addr);
    plat_unlock(pl);
    return st;
}

umb_status plat_free(umb_platform *pl, uint64_t addr)
{
    plat_lock(pl);
    umb_status st = umb_mem_free(pl->dev, addr);
    plat_unlock(pl);
    return st;
}

umb_status plat_to_device(umb_platform *pl, uint64_t addr, const void *src, uint64_t size)
{
    plat_lock(pl);
    umb_status st = umb_mem_copy_to_device(pl->dev, addr, src, size);
    plat_unlock(pl);
    return st;
}

umb_status plat_from_device(umb_platform *pl, uint64_t addr, void *dst, uint64_t size)
{
    plat_lock(pl);
    umb_status st = umb_mem_copy_from_device(pl->dev, addr, dst, size);
    plat_unlock(pl);
    return st;
}

#define BOUNCE_BYTES (1u << 20)

/* Through a host buffer a megabyte at a time; overlapping ranges copy as memmove does. */
umb_status plat_device_copy(umb_platform *pl, uint64_t dst, uint64_t src, uint64_t size)
{
    if (!size) return UMB_OK;
    uint8_t *buf = malloc(size < BOUNCE_BYTES ? size : BOUNCE_BYTES);
    if (!buf) return UMB_ERR_NOMEM;
    umb_status st = UMB_OK;
    bool backwards = dst > src && dst < src + size;
    plat_lock(pl);
    for (uint64_t done = 0; done < size && !st;) {
        uint64_t n = size - done < BOUNCE_BYTES ? size - done : BOUNCE_BYTES;
        uint64_t off = backwards ? size - done - n : done;
        st = umb_mem_copy_from_device(pl->dev, src + off, buf, n);
        if (!st) st = umb_mem_copy_to_device(pl->dev, dst + off, buf, n);
        done += n;
    }
    plat_unlock(pl);
    free(buf);
    return st;
}

umb_status plat_fill(umb_platform *pl, uint64_t addr, const void *pattern, uint32_t pattern_size, uint64_t size)
{
    if (!size) return UMB_OK;
    if (!pattern_size || size % pattern_size) return UMB_ERR_INVALID;
    uint64_t chunk = size < BOUNCE_BYTES ? size : BOUNCE_BYTES / pattern_size * pattern_size;
    uint8_t *buf = malloc(chunk);
    if (!buf) return UMB_ERR_NOMEM;
    for (uint64_t i = 0; i < chunk; i += pattern_size) memcpy(buf + i, pattern, pattern_size);
    umb_status st = UMB_OK;
    plat_lock(pl);
    for (uint64_t done = 0; done < size && !st; done += chunk) {
        uint64_t n = size - done < chunk ? size - done : chunk;
        st = umb_mem_copy_to_device(pl->dev, addr + done, buf, n);
    }
    plat_unlock(pl);
    free(buf);
    return st;
}

/* ---------------- device and host addresses that coincide ---------------- */

#define HEAP_ALIGN (2ull << 20)

/* Where the device range is asked for first: the same address in every run, so that device
 * addresses, and with them the timing model's cache sets, DRAM channels and banks, do not change
 * with address-space randomisation (a HIP program's timing varied by up to 2% from run to run).
 * Taken only if free (MAP_FIXED_NOREPLACE); otherwise anywhere. */
#define HEAP_HINT 0x200000000000ull   /* 32 TiB: far from the program's and the libraries' mappings */
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000   /* Linux 4.17 */
#endif

#if defined(__SANITIZE_THREAD__)
#define UMBRA_TSAN_LAYOUT 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UMBRA_TSAN_LAYOUT 1
#endif
#endif

static void *reserve_at_hint(uint64_t bytes)
{
#ifdef UMBRA_TSAN_LAYOUT
    (void)bytes;   /* ThreadSanitizer keeps that range for itself and refuses a mapping there */
    return MAP_FAILED;
#else
    void *hint = (void *)(uintptr_t)HEAP_HINT;
    void *p = mmap(hint, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == MAP_FAILED || p == NULL) return MAP_FAILED;
    if (p != hint) {   /* a kernel without the flag took it as a hint only */
        munmap(p, bytes);
        return MAP_FAILED;
    }
    return p;
#endif
}

bool plat_reserve_heap(plat_heap *out)
{
    for (uint64_t bytes = 256ull << 30; bytes >= (4ull << 30); bytes /= 2) {
        void *p = reserve_at_hint(bytes + HEAP_ALIGN);
        if (p == MAP_FAILED)
            p = mmap(NULL, bytes + HEAP_ALIGN, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) continue;
        out->base = ((uint64_t)(uintptr_t)p + HEAP_ALIGN - 1) & ~(HEAP_ALIGN - 1);
        out->size = bytes;
        return true;
    }
    return false;
}

umb_status plat_map_host(umb_platform *pl, void *host, uint64_t size)
{
    plat_lock(pl);
    umb_status st = umb_mem_map_host(pl->dev, (uint64_t)(uintptr_t)host, host, size);
    plat_unlock(pl);
    return st;
}

void plat_unmap_host(umb_platform *pl, void *host, uint64_t size)
{
    plat_lock(pl);
    umb_mem_unmap(pl->dev, (uint64_t)(uintptr_t)host, size);
    plat_unlock(pl);
}

static uint64_t page_up(uint64_t size) { return (size + 4095) & ~4095ull; }

void *plat_host_alloc(umb_platform *pl, uint64_t size)
{
    if (size == 0 || size > (1ull << 62)) return NULL;
    void *p = mmap(NULL, page_up(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    if (plat_map_host(pl, p, page_up(size)) != UMB_OK) {
        munmap(p, page_up(size));
        return NULL;
    }
    return p;
}

void plat_host_free(umb_platform *pl, void *p, uint64_t size)
{
    if (!p) return;
    plat_unmap_host(pl, p, page_up(size));
    munmap(p, page_up(size));
}
