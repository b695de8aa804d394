/* Ventus benchmark: warp-instructions per second for a synthetic ALU loop, a synthetic memory
 * loop and the largest shipped program, on one host thread; peak resident memory.
 *
 *   bench_ventus [--threads N] [--repeat N] [--quantum N]
 *
 * Results are checked (the memory loop's buffer must hold the iteration count) so that a fast
 * but wrong simulator cannot report a figure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "loader/elf.h"
#include "loader/ventus_launch.h"
#include "umbra/umbra.h"
#include "umbra/ventus.h"

#define BUF_BASE 0x90000000ull
#define META_BASE 0x9f000000ull

typedef struct bench_opts {
    uint32_t threads, repeat, quantum;
    const char *only;           /* run just this benchmark (for profiling) */
} bench_opts;

static bool wanted(const bench_opts *o, const char *name) { return !o->only || !strcmp(o->only, name); }

static umb_device *new_device(const bench_opts *o)
{
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    cfg.host_threads = o->threads;
    cfg.compute_units = o->threads > 1 ? o->threads : 1;
    cfg.quantum = o->quantum;
    cfg.progress = false;
    umb_device *dev;
    if (umb_device_create(&cfg, &dev) != UMB_OK) exit(1);
    return dev;
}

static void report(const char *name, const umb_stats *s)
{
    printf("%-28s %12llu warp-insts  %8.3f s  %8.2f M warp-insts/s  SIMT eff %.2f\n", name,
           (unsigned long long)s->warp_insts, s->host_seconds,
           s->host_seconds > 0 ? s->warp_insts / s->host_seconds / 1e6 : 0.0, umb_stats_simt_efficiency(s));
}

/* A synthetic kernel: 8 warps x 32 threads per workgroup, `groups` workgroups. */
static int run_synthetic(const bench_opts *o, const char *name, uint32_t groups, bool check_buffer)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.elf", BENCH_DIR, name);
    umb_device *dev = new_device(o);
    umb_elf elf;
    if (umb_elf_open_file(&elf, path) != UMB_OK || umb_elf_load_segments(&elf, dev, 0) != UMB_OK) {
        fprintf(stderr, "bench: %s: %s\n", path, elf.error);
        return 1;
    }
    const uint32_t warps = 8, lanes = 32;
    uint64_t words = (uint64_t)groups * warps * lanes;
    umb_mem_map(dev, BUF_BASE, words * 4);
    umb_mem_map(dev, META_BASE, 4096);
    umb_ventus_launch l = {.start_pc = elf.entry, .grid = {groups, 1, 1}, .wf_size = lanes, .wg_size = warps,
                           .metadata_base = META_BASE, .lds_size = warps * 1024, .pds_size = 0,
                           .pds_base = META_BASE + 2048, .name = name};
    umb_stats s = {0};
    int rc = 0;
    for (uint32_t r = 0; r < o->repeat && rc == 0; r++) {
        if (umb_ventus_run(dev, &l, NULL, &s) != UMB_OK) {
            fprintf(stderr, "bench: %s: %s\n", name, umb_device_last_error(dev));
            rc = 1;
        }
    }
    if (rc == 0 && check_buffer) {
        uint32_t *buf = malloc(words * 4);
        umb_mem_copy_from_device(dev, BUF_BASE, buf, words * 4);
        for (uint64_t i = 0; i < words; i++)
            if (buf[i] != (uint32_t)BENCH_ITERATIONS * o->repeat) {
                fprintf(stderr, "bench: %s: word %llu = %u, expected %u\n", name, (unsigned long long)i, buf[i],
                        (uint32_t)BENCH_ITERATIONS * o->repeat);
                rc = 1;
                break;
            }
        free(buf);
    }
    if (rc == 0) report(name, &s);
    umb_elf_close(&elf);
    umb_device_destroy(dev);
    return rc;
}

/* The largest shipped program: every launch of its directory in order, `repeat` times. */
static int run_shipped(const bench_opts *o, const char *dirname)
{
    char dir[1024], err[1024];
    snprintf(dir, sizeof dir, "%s/testcases/ventus/%s", BENCH_SHARED_DIR, dirname);
    umb_vt_program prog;
    if (umb_vt_program_open(dir, &prog, err, sizeof err) != UMB_OK) {
        fprintf(stderr, "bench: %s\n", err);
        return 1;
    }
    umb_stats s = {0};
    int rc = 0;
    for (uint32_t r = 0; r < o->repeat && rc == 0; r++) {
        umb_device *dev = new_device(o);
        for (uint32_t i = 0; i < prog.nlaunches && rc == 0; i++) {
            if (umb_vt_program_prepare(&prog, i, dev, err, sizeof err) != UMB_OK) {
                fprintf(stderr, "bench: %s\n", err);
                rc = 1;
            } else if (umb_ventus_run(dev, &prog.launches[i].launch, NULL, &s) != UMB_OK) {
                fprintf(stderr, "bench: %s: %s\n", dirname, umb_device_last_error(dev));
                rc = 1;
            }
        }
        umb_device_destroy(dev);
    }
    umb_vt_program_close(&prog);
    if (rc == 0) report(dirname, &s);
    return rc;
}

int main(int argc, char **argv)
{
    bench_opts o = {.threads = 1, .repeat = 1, .quantum = 1};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--threads")) o.threads = (uint32_t)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--repeat")) o.repeat = (uint32_t)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--quantum")) o.quantum = (uint32_t)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--only")) o.only = argv[i + 1];
    }
    printf("umbra Ventus benchmark: %u host thread(s), quantum %u, repeat %u\n", o.threads, o.quantum, o.repeat);
    int rc = 0;
    if (wanted(&o, "alu_loop")) rc |= run_synthetic(&o, "alu_loop", 4, false);
    if (wanted(&o, "mem_loop")) rc |= run_synthetic(&o, "mem_loop", 4, true);
    if (wanted(&o, "kmeans_4w16t")) rc |= run_shipped(&o, "kmeans_4w16t");
    if (wanted(&o, "bfs_4x16")) rc |= run_shipped(&o, "bfs_4x16");
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak resident memory: %.1f MiB\n", ru.ru_maxrss / 1024.0);
    return rc;
}
