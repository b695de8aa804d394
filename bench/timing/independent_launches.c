/* Do two timing simulations slow each other down when they share a process?
 *
 * The parallel timing mode (docs/TIMING.md "Several host threads") runs one launch's partitions on
 * two host threads, and each thread then spends more CPU time per wave-instruction than one thread
 * running the whole launch (docs/PERFORMANCE.md). This program separates what the process and
 * the host cost from what the partitioned launch costs: it runs N complete, independent launches
 * of one of bench_rdna3's kernels under the gfx1100 timing model (each on a device and timing
 * model of its own, one host thread each), one per host thread of this process, at once, and
 * prints each thread's CPU seconds for its launch. Run it with 1 and with 2: if two independent
 * launches cost what one does, the process (allocator, address space, host) is not where the
 * partitioned launch's extra time comes from.
 *
 *   independent_launches CODE_OBJECT WORK_ITEMS THREADS
 *
 * CODE_OBJECT is bench/rdna3's alu_loop.w32.co (WORK_ITEMS a multiple of 256) or nbody.w32.co
 * (WORK_ITEMS bodies, a multiple of 64), as bench_rdna3 builds them (bench/timing/threads_speedup.sh
 * does); the kernel is told by the file name, its arguments are threads_speedup.sh's. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "umbra/device.h"
#include "umbra/rdna3.h"
#include "umbra/timing.h"

enum { MAX_THREADS = 8 };

typedef struct job {
    const char *code_object;
    bool nbody;                 /* nbody.w32.co (else alu_loop.w32.co) */
    uint32_t work_items;
    double cpu_seconds;
    int failed;
} job;

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A device buffer of `bytes` bytes, every float `fill` (0: zeros). */
static bool buffer(umb_device *dev, uint64_t bytes, float fill, uint64_t *addr)
{
    if (umb_mem_alloc(dev, bytes, 4096, addr)) return false;
    if (fill == 0.0f) return true;
    float *host = malloc(bytes);
    if (!host) return false;
    for (uint64_t i = 0; i < bytes / 4; i++) host[i] = fill;
    bool ok = !umb_mem_copy_to_device(dev, *addr, host, bytes);
    free(host);
    return ok;
}

/* The launch: threads_speedup.sh's arguments of the kernel. */
static umb_status launch(umb_device *dev, umb_rdna3_program *prog, const job *j)
{
    uint64_t buf[5] = { 0 };
    uint32_t n = j->work_items;
    int32_t iters = 256;
    float dt = 0.01f, eps2 = 0.01f;
    umb_rdna3_arg args[8];
    umb_rdna3_dispatch d = { .work_dim = 1, .args = args, .global_size = { n, 1, 1 } };
    if (j->nbody) {
        static const float fills[5] = { 0.5f, 0.1f, 0.0f, 0.0f, 0.0f };
        for (int i = 0; i < 5; i++)
            if (!buffer(dev, (uint64_t)n * (i < 4 ? 16 : 4), fills[i], &buf[i])) return UMB_ERR_NOMEM;
        for (int i = 0; i < 5; i++) args[i] = (umb_rdna3_arg){ .value = &buf[i], .size = 8 };
        args[5] = (umb_rdna3_arg){ .value = &n, .size = 4 };
        args[6] = (umb_rdna3_arg){ .value = &dt, .size = 4 };
        args[7] = (umb_rdna3_arg){ .value = &eps2, .size = 4 };
        d.kernel = "nbody", d.nargs = 8, d.local_size[0] = 64;
    } else {
        if (!buffer(dev, (uint64_t)n * 4, 0.0f, &buf[0])) return UMB_ERR_NOMEM;
        args[0] = (umb_rdna3_arg){ .value = &buf[0], .size = 8 };
        args[1] = (umb_rdna3_arg){ .value = &iters, .size = 4 };
        d.kernel = "alu_loop", d.nargs = 2, d.local_size[0] = 256;
    }
    d.local_size[1] = d.local_size[2] = 1;
    umb_stats stats = { 0 };
    return umb_rdna3_run(dev, prog, &d, &stats);
}

static void *run_launch(void *arg)
{
    job *j = arg;
    char err[1024];
    umb_timing *timing = NULL;
    umb_device *dev = NULL;
    umb_rdna3_program *prog = NULL;
    j->failed = 1;
    if (umb_timing_create("gfx1100", &timing, err, sizeof err)) {
        fprintf(stderr, "independent_launches: timing: %s\n", err);
        return NULL;
    }
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    cfg.timing = timing;
    if (umb_device_create(&cfg, &dev) || umb_rdna3_program_load_file(dev, j->code_object, &prog, err, sizeof err)) {
        fprintf(stderr, "independent_launches: %s\n", dev ? umb_device_last_error(dev) : err);
    } else {
        double t0 = thread_cpu_seconds();
        if (launch(dev, prog, j)) fprintf(stderr, "independent_launches: run: %s\n", umb_device_last_error(dev));
        else j->failed = 0;
        j->cpu_seconds = thread_cpu_seconds() - t0;
    }
    umb_rdna3_program_destroy(prog);
    umb_device_destroy(dev);
    umb_timing_destroy(timing);
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc == 4 ? atoi(argv[3]) : 0;
    long items = argc == 4 ? atol(argv[2]) : 0;
    bool nbody = argc == 4 && strstr(argv[1], "nbody") != NULL;
    long group = nbody ? 64 : 256;
    if (n < 1 || n > MAX_THREADS || items < group || items % group || items > 1L << 28) {
        fprintf(stderr, "usage: independent_launches CODE_OBJECT WORK_ITEMS THREADS(1..%d)\n"
                        "  alu_loop.w32.co: work-items a multiple of 256; nbody.w32.co: bodies a multiple of 64\n", MAX_THREADS);
        return 2;
    }
    pthread_t threads[MAX_THREADS];
    job jobs[MAX_THREADS];
    for (int i = 0; i < n; i++) {
        jobs[i] = (job){ .code_object = argv[1], .nbody = nbody, .work_items = (uint32_t)items };
        if (pthread_create(&threads[i], NULL, run_launch, &jobs[i])) return fprintf(stderr, "independent_launches: pthread_create failed\n"), 1;
    }
    int failed = 0;
    for (int i = 0; i < n; i++) pthread_join(threads[i], NULL), failed |= jobs[i].failed;
    if (failed) return 1;
    printf("%d independent launch%s, CPU seconds per launch:", n, n > 1 ? "es" : "");
    for (int i = 0; i < n; i++) printf(" %.3f", jobs[i].cpu_seconds);
    printf("\n");
    return 0;
}
