/* Resident workgroups: a kernel with a software grid barrier (grid_barrier.cl) completes with the
 * right result when the device holds all its workgroups at once, on one and on two host threads,
 * and stops with "no forward progress" when it does not ("stuck": every spinning wave is proven to
 * be in a closed loop). "long": a legal kernel whose resident workgroups all loop far longer than
 * the stall limit before they write (long_loop: 8,000 iterations over global loads, one store at
 * the end) is never stopped, and its every output equals the C reference.
 *
 *   grid_barrier_test SRC_DIR WORK_DIR complete|stuck|long THREADS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "umbra/rdna3.h"
#include "umbra/umbra.h"

enum { LOCAL = 64, GROUPS = 40, N = LOCAL * GROUPS, PHASES = 3 };

/* long_loop on 240 workgroups of 32 (64 resident at once on 4 CUs), 8,000 iterations each: about
 * 8e5 warp-instructions per workgroup before its only store, 5e7 before the first workgroup
 * ends, far beyond the stall limit of 2^22 set below. */
static int run_long_loop(umb_device *dev, umb_rdna3_program *p)
{
    enum { WGS = 240, WG = 32, ITEMS = WGS * WG, ITERS = 8000, IN = 1000 };
    uint64_t in, out;
    if (umb_mem_alloc(dev, IN * 4, 4096, &in) || umb_mem_alloc(dev, ITEMS * 4, 4096, &out))
        return fprintf(stderr, "FAIL alloc\n"), 1;
    static int32_t host_in[IN], got[ITEMS];
    for (int i = 0; i < IN; i++) host_in[i] = i * 7 - 3000;
    umb_mem_copy_to_device(dev, in, host_in, sizeof host_in);
    int32_t iters = ITERS, n = IN;
    umb_rdna3_arg args[4] = { { &in, 8 }, { &out, 8 }, { &iters, 4 }, { &n, 4 } };
    umb_rdna3_dispatch d = { .kernel = "long_loop", .work_dim = 1, .global_size = { ITEMS }, .local_size = { WG },
                             .args = args, .nargs = 4 };
    umb_status st = umb_rdna3_run(dev, p, &d, NULL);
    if (st != UMB_OK) return fprintf(stderr, "FAIL long: %s: %s\n", umb_status_name(st), umb_device_last_error(dev)), 1;
    umb_mem_copy_from_device(dev, out, got, sizeof got);
    int failures = 0;
    for (int g = 0; g < ITEMS && failures < 10; g++) {
        int32_t want = 0;
        for (int i = 0; i < ITERS; i++) want += host_in[(g + i) % IN] ^ i;
        if (got[g] != want) fprintf(stderr, "FAIL out[%d] = %d, want %d\n", g, got[g], want), failures++;
    }
    if (!failures) printf("long loop: %d workgroups x %d iterations, no store before the end: ok\n", WGS, ITERS);
    return failures;
}

int main(int argc, char **argv)
{
    if (argc != 5) return fprintf(stderr, "usage: grid_barrier_test SRC_DIR WORK_DIR complete|stuck|long THREADS\n"), 2;
    bool stuck = !strcmp(argv[3], "stuck");
    uint32_t threads = (uint32_t)atoi(argv[4]);
    char src[1024], co[1024], err[1024];
    snprintf(src, sizeof src, "%s/grid_barrier.cl", argv[1]);
    snprintf(co, sizeof co, "%s/grid_barrier.%s.t%u.co", argv[2], argv[3], threads);
    umb_rdna3_cc_options o = { .input = src, .output = co, .opt_level = 3 };
    if (umb_rdna3_compile(&o, err, sizeof err)) return fprintf(stderr, "FAIL compile: %s\n", err), 1;

    /* 2 waves per workgroup and few VGPRs: a CU holds 16 of them (32 wave slots). 4 CUs hold 64
     * (more than the 40 launched, more than one CU's 16); 1 CU holds 16, fewer than 40. */
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    cfg.compute_units = stuck ? 1 : 4;
    cfg.host_threads = threads;
    cfg.stall_limit = 1u << 22;
    cfg.max_instructions = 1ull << 32;
    umb_device *dev;
    umb_rdna3_program *p;
    if (umb_device_create(&cfg, &dev) || umb_rdna3_program_load_file(dev, co, &p, err, sizeof err))
        return fprintf(stderr, "FAIL load: %s\n", err), 1;
    if (!strcmp(argv[3], "long")) {
        int failures = run_long_loop(dev, p);
        umb_rdna3_program_destroy(p);
        umb_device_destroy(dev);
        return failures ? 1 : 0;
    }
    uint64_t count, data, out;
    if (umb_mem_alloc(dev, 4096, 4096, &count) || umb_mem_alloc(dev, N * 4, 4096, &data) ||
        umb_mem_alloc(dev, (uint64_t)PHASES * N * 4, 4096, &out))
        return fprintf(stderr, "FAIL alloc\n"), 1;
    int32_t phases = PHASES;
    umb_rdna3_arg args[4] = { { &count, 8 }, { &data, 8 }, { &out, 8 }, { &phases, 4 } };
    umb_rdna3_dispatch d = { .kernel = "grid_phases", .work_dim = 1, .global_size = { N }, .local_size = { LOCAL },
                             .args = args, .nargs = 4 };
    umb_status st = umb_rdna3_run(dev, p, &d, NULL);
    int failures = 0;
    if (stuck) {
        const char *msg = umb_device_last_error(dev);
        if (st != UMB_ERR_DEADLOCK || !strstr(msg, "no forward progress") || !strstr(msg, "warp 0 at PC") ||
            !strstr(msg, "grid_phases"))
            fprintf(stderr, "FAIL stuck: %s: %s\n", umb_status_name(st), msg), failures++;
        else
            printf("stuck as expected: %s\n", msg);
    } else if (st != UMB_OK) {
        fprintf(stderr, "FAIL complete: %s: %s\n", umb_status_name(st), umb_device_last_error(dev));
        failures++;
    } else {
        int32_t *got = malloc((size_t)PHASES * N * 4);
        umb_mem_copy_from_device(dev, out, got, (uint64_t)PHASES * N * 4);
        for (int ph = 0; ph < PHASES && failures < 10; ph++)
            for (int g = 0; g < N && failures < 10; g++) {
                int src_item = (g + LOCAL) % N;
                int want = (ph + 1) * src_item + ph * (ph + 1) / 2;   /* sum over q <= ph of (item + q) */
                if (got[ph * N + g] != want)
                    fprintf(stderr, "FAIL out[%d][%d] = %d, want %d\n", ph, g, got[ph * N + g], want), failures++;
            }
        free(got);
        if (!failures) printf("grid barrier: %d workgroups, %d phases, %u host threads: ok\n", GROUPS, PHASES, threads);
    }
    umb_rdna3_program_destroy(p);
    umb_device_destroy(dev);
    return failures ? 1 : 0;
}
