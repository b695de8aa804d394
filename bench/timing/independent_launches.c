/* Do two timing simulations slow each other down when they share a process?
 *
 * The parallel timing mode (docs/TIMING.md "Several host threads") runs one launch's partitions on
 * two host threads, and each thread then spends more CPU time per wave-instruction than one thread
 * running the whole launch (docs/PERFORMANCE.md). This program separates what the process and the
 * host cost from what the partitioned launch costs: it runs N complete, independent launches of
 * bench/rdna3's alu_loop under the gfx1100 timing model (each on a device and timing model of its
 * own, one host thread each), one per host thread of this process, at once, and prints each
 * thread's CPU seconds for its launch. Run it with 1 and with 2: if two independent launches cost
 * what one does, the process (allocator, address space, host) is not where the partitioned
 * launch's extra time comes from.
 *
 *   independent_launches CODE_OBJECT WORK_ITEMS THREADS
 *
 * CODE_OBJECT is bench/rdna3's alu_loop.w32.co (built by bench_rdna3, or bench/timing/threads_speedup.sh). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "umbra/device.h"
#include "umbra/rdna3.h"
#include "umbra/timing.h"

enum { MAX_THREADS = 8 };

typedef struct job {
    const char *code_object;
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
    uint64_t out = 0;
    int32_t iters = 256;
    if (umb_device_create(&cfg, &dev) || umb_rdna3_program_load_file(dev, j->code_object, &prog, err, sizeof err) ||
        umb_mem_alloc(dev, (uint64_t)j->work_items * 4, 4096, &out)) {
        fprintf(stderr, "independent_launches: %s\n", dev ? umb_device_last_error(dev) : err);
    } else {
        umb_rdna3_arg args[2] = { { .value = &out, .size = 8 }, { .value = &iters, .size = 4 } };
        umb_rdna3_dispatch d = { .kernel = "alu_loop", .work_dim = 1, .args = args, .nargs = 2,
                                 .global_size = { j->work_items, 1, 1 }, .local_size = { 256, 1, 1 } };
        umb_stats stats = { 0 };
        double t0 = thread_cpu_seconds();
        if (umb_rdna3_run(dev, prog, &d, &stats)) fprintf(stderr, "independent_launches: run: %s\n", umb_device_last_error(dev));
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
    if (n < 1 || n > MAX_THREADS || items < 256 || items % 256) {
        fprintf(stderr, "usage: independent_launches CODE_OBJECT WORK_ITEMS(a multiple of 256) THREADS(1..%d)\n", MAX_THREADS);
        return 2;
    }
    pthread_t threads[MAX_THREADS];
    job jobs[MAX_THREADS];
    for (int i = 0; i < n; i++) {
        jobs[i] = (job){ .code_object = argv[1], .work_items = (uint32_t)items };
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
