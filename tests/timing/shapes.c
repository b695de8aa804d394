/* Shape tests of the timing model: well-known effects keep their direction and rough size.
 *   timing_shapes CASE      (one CTest test per case: timing.CASE)
 * The kernels are shapes.cl, compiled at test time; the machine is the bundled gfx1100. */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "umbra/rdna3.h"
#include "umbra/timing.h"

typedef struct env {
    umb_device *dev;
    umb_rdna3_program *prog;
    umb_timing *tm;
    int failures;
} env;

#define CHECK(e, cond, ...)                                                 \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
            (e)->failures++;                                                \
        }                                                                   \
    } while (0)

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "FAIL %s: %s\n", what, detail);
    exit(1);
}

static void env_init_machine(env *e, const char *machine)
{
    char err[1024], co[256];
    memset(e, 0, sizeof *e);
    if (umb_timing_create(machine, &e->tm, err, sizeof err)) die("machine", err);
    snprintf(co, sizeof co, "%s/shapes.%d.co", SH_WORK_DIR, (int)getpid());
    umb_rdna3_cc_options o = { .input = SH_SOURCE_DIR "/shapes.cl", .output = co, .opt_level = 3 };
    if (umb_rdna3_compile(&o, err, sizeof err)) die("compile", err);
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    cfg.timing = e->tm;
    if (umb_device_create(&cfg, &e->dev)) die("device", "cannot create");
    if (umb_rdna3_program_load_file(e->dev, co, &e->prog, err, sizeof err)) die("load", err);
    unlink(co);
}

static void env_init(env *e) { env_init_machine(e, "gfx1100"); }

static void env_fini(env *e)
{
    umb_rdna3_program_destroy(e->prog);
    umb_device_destroy(e->dev);
    umb_timing_destroy(e->tm);
}

static uint64_t buffer(env *e, uint64_t bytes)
{
    uint64_t a;
    if (umb_mem_alloc(e->dev, bytes, 65536, &a)) die("alloc", umb_device_last_error(e->dev));
    return a;
}

#define ARG(v) { &(v), sizeof(v) }

/* Run a launch; return the timing JSON object of that launch (caller json_decref's the root). */
static json_t *run(env *e, const char *kernel, const umb_rdna3_arg *args, uint32_t nargs, uint64_t global,
                   uint32_t local, json_t **root)
{
    umb_rdna3_dispatch d = { .kernel = kernel, .work_dim = 1, .args = args, .nargs = nargs };
    d.global_size[0] = global, d.global_size[1] = d.global_size[2] = 1;
    d.local_size[0] = local, d.local_size[1] = d.local_size[2] = 1;
    umb_stats st = { 0 };
    if (umb_rdna3_run(e->dev, e->prog, &d, &st)) die(kernel, umb_device_last_error(e->dev));
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) die("memstream", "no memory");
    umb_timing_write_json(e->tm, f, 0);
    fclose(f);
    *root = json_loads(buf, 0, NULL);
    free(buf);
    json_t *ls = json_object_get(*root, "launches");
    if (!json_is_array(ls) || !json_array_size(ls)) die(kernel, "no launch record");
    return json_array_get(ls, json_array_size(ls) - 1);
}

static double num(json_t *o, const char *path)
{
    char key[128];
    snprintf(key, sizeof key, "%s", path);
    json_t *cur = o;
    for (char *k = strtok(key, "."); k && cur; k = strtok(NULL, ".")) cur = json_object_get(cur, k);
    if (!cur || !json_is_number(cur)) die("json", path);
    return json_number_value(cur);
}

/* A wave reading 32 consecutive words is one line; with stride 32 words it is 32 lines. */
static int coalesced_vs_strided(void)
{
    env e;
    env_init(&e);
    uint32_t n = 8192;
    uint64_t in = buffer(&e, n * 32u * 4u), out = buffer(&e, n * 4u);
    double cycles[2], l0[2];
    uint32_t strides[2] = { 1, 32 };
    for (int k = 0; k < 2; k++) {
        json_t *root, *l;
        umb_rdna3_arg a[] = { ARG(in), ARG(out), ARG(strides[k]) };
        l = run(&e, "gather", a, 3, n, 256, &root);
        cycles[k] = num(l, "cycles");
        l0[k] = num(l, "caches.l0.hits") + num(l, "caches.l0.misses");
        json_decref(root);
    }
    printf("gather: stride 1 %.0f cycles, %.0f L0 accesses; stride 32 %.0f cycles, %.0f L0 accesses\n", cycles[0], l0[0],
           cycles[1], l0[1]);
    CHECK(&e, l0[1] >= 16 * l0[0], "strided L0 accesses %.0f vs coalesced %.0f", l0[1], l0[0]);
    CHECK(&e, cycles[1] > 2 * cycles[0], "strided %.0f cycles vs coalesced %.0f", cycles[1], cycles[0]);
    env_fini(&e);
    return e.failures;
}

/* Stride 1: every lane its own bank; stride 32: all lanes one bank, 32-way serialised. */
static int lds_bank_conflicts(void)
{
    env e;
    env_init(&e);
    uint64_t out = buffer(&e, 4096 * 4);
    double cycles[2], conflicts[2];
    uint32_t strides[2] = { 1, 32 }, iters = 64;
    for (int k = 0; k < 2; k++) {
        json_t *root, *l;
        umb_rdna3_arg a[] = { ARG(out), ARG(strides[k]), ARG(iters) };
        l = run(&e, "lds_stride", a, 3, 4096, 256, &root);
        cycles[k] = num(l, "cycles");
        conflicts[k] = num(l, "lds.bank_conflict_cycles");
        json_decref(root);
    }
    printf("lds_stride: stride 1 %.0f cycles, %.0f conflict cycles; stride 32 %.0f cycles, %.0f conflict cycles\n",
           cycles[0], conflicts[0], cycles[1], conflicts[1]);
    CHECK(&e, conflicts[0] == 0, "stride 1 has %.0f conflict cycles", conflicts[0]);
    /* 16 waves x 64 reads x 31 extra cycles each, at least */
    CHECK(&e, conflicts[1] >= 16.0 * 64 * 31, "stride 32: %.0f conflict cycles", conflicts[1]);
    CHECK(&e, cycles[1] > 3 * cycles[0], "stride 32 %.0f cycles vs stride 1 %.0f", cycles[1], cycles[0]);
    env_fini(&e);
    return e.failures;
}

/* One CU: 8 waves chasing 8 times as many chains take far less than 8 times as long. */
static int more_waves_hide_latency(void)
{
    env e;
    env_init(&e);
    /* lines 4 KB apart (no two in one cache line; written by chain_init, so L2 hits), 128 per wave */
    uint32_t stride = 1024, nlines = 8 * 128, steps = 64, spacing = 128 * 1024;
    uint64_t next = buffer(&e, (uint64_t)nlines * stride * 4), out = buffer(&e, 4096 * 4);
    json_t *root, *l;
    umb_rdna3_arg init[] = { ARG(next), ARG(stride), ARG(nlines) };
    l = run(&e, "chain_init", init, 3, nlines, 256, &root);
    json_decref(root);
    umb_rdna3_arg a[] = { ARG(next), ARG(out), ARG(steps), ARG(spacing) };
    l = run(&e, "chase_many", a, 4, 32, 32, &root);
    double c1 = num(l, "cycles");
    json_decref(root);
    l = run(&e, "chase_many", a, 4, 256, 256, &root);
    double c8 = num(l, "cycles");
    json_decref(root);
    printf("chase_many: 1 wave %.0f cycles, 8 waves %.0f cycles (%.2fx the time for 8x the work)\n", c1, c8, c8 / c1);
    CHECK(&e, c8 < 2 * c1, "8 waves took %.0f cycles, 1 wave %.0f", c8, c1);
    CHECK(&e, c1 / steps >= 200, "1 wave: %.0f cycles per dependent load, not latency-bound (L2: 225)", c1 / steps);
    env_fini(&e);
    return e.failures;
}

/* A kernel with many VGPRs fits fewer waves per SIMD (1536 VGPRs, 24-register granule). */
static int vgpr_limited_occupancy(void)
{
    env e;
    env_init(&e);
    const umb_rdna3_kernel_info *kl = umb_rdna3_program_find_kernel(e.prog, "light");
    const umb_rdna3_kernel_info *kh = umb_rdna3_program_find_kernel(e.prog, "heavy");
    if (!kl || !kh) die("kernels", "light/heavy missing");
    uint32_t n = 96u * 2 * 16 * 32;   /* enough waves to fill every slot once */
    uint64_t in = buffer(&e, 65536 * 4), out = buffer(&e, n * 4ull);
    umb_rdna3_arg a[] = { ARG(in), ARG(out) };
    json_t *root, *l;
    l = run(&e, "light", a, 2, n, 256, &root);
    double lim_l = num(l, "occupancy_limit_waves_per_simd"), occ_l = num(l, "occupancy");
    json_decref(root);
    l = run(&e, "heavy", a, 2, n, 256, &root);
    double lim_h = num(l, "occupancy_limit_waves_per_simd"), occ_h = num(l, "occupancy");
    const char *by = json_string_value(json_object_get(l, "occupancy_limited_by"));
    char by_h[32];
    snprintf(by_h, sizeof by_h, "%s", by ? by : "?");
    json_decref(root);
    uint32_t alloc = (kh->vgpr_count + 23) / 24 * 24, expect = 1536 / alloc;
    if (expect > 16) expect = 16;
    printf("light: %u VGPRs, limit %.0f waves/SIMD, occupancy %.3f; heavy: %u VGPRs, limit %.0f (%s), occupancy %.3f\n",
           kl->vgpr_count, lim_l, occ_l, kh->vgpr_count, lim_h, by_h, occ_h);
    CHECK(&e, kh->vgpr_count > 96, "heavy uses only %u VGPRs", kh->vgpr_count);
    CHECK(&e, lim_l == 16, "light limit %.0f", lim_l);
    CHECK(&e, lim_h == expect, "heavy limit %.0f, expected 1536 / %u = %u", lim_h, alloc, expect);
    CHECK(&e, !strcmp(by_h, "VGPRs"), "heavy limited by %s", by_h);
    CHECK(&e, occ_h < occ_l, "heavy occupancy %.3f vs light %.3f", occ_h, occ_l);
    env_fini(&e);
    return e.failures;
}

/* DRAM keeps its rate when streams interleave: the same 24 MB read as 1, 2, 8 and 32 streams
 * (each work-item reads word i of every stream). A GDDR6 controller serves ready transfers of
 * other banks while a bank opens a row (FR-FCFS: Rixner et al., ISCA 2000) and keeps a stream's
 * consecutive chunks in one row, so interleaving costs only the row conflicts of streams sharing a
 * bank: the bound is 0.80 of one stream's rate (measured at commit: 1 stream 845 GB/s; 2, 8, 32
 * streams 0.92, 0.85, 0.96 of it; with activations limited by tRRD/tFAW, session 12: 0.88, 0.86,
 * 0.95). Reads only, so it does not exercise the read/write mixing
 * that collapsed FluidX3D under the arrival-order model (that model gave 646 GB/s and 0.90, 0.96,
 * 0.96 here). A fresh device each: its caches start empty. */
static int dram_streams_keep_rate(void)
{
    const uint32_t total = 24u << 20, counts[] = { 1, 2, 8, 32 };
    const double bound[] = { 1.0, 0.80, 0.80, 0.80 };
    double gbs[4] = { 0 };
    int failures = 0;
    for (int k = 0; k < 4; k++) {
        env e;
        env_init(&e);
        uint32_t ns = counts[k], len = total / 4u / ns;
        uint64_t in = buffer(&e, total), out = buffer(&e, 4096);
        json_t *root, *l;
        umb_rdna3_arg a[] = { ARG(in), ARG(out), ARG(ns), ARG(len) };
        l = run(&e, "streams", a, 4, len, 256, &root);
        gbs[k] = num(l, "dram.bandwidth_gb_s");
        double rd = num(l, "dram.read_bytes"), hits = num(l, "dram.row_hits"), miss = num(l, "dram.row_misses");
        printf("%2u streams: %.0f GB/s, %.0f MB read, row hits %.0f of %.0f\n", ns, gbs[k], rd / 1e6, hits, hits + miss);
        CHECK(&e, rd >= 0.99 * total, "%u streams read only %.0f bytes from DRAM", ns, rd);
        CHECK(&e, gbs[k] >= bound[k] * gbs[0], "%u streams %.0f GB/s, below %.2f of one stream's %.0f", ns, gbs[k],
              bound[k], gbs[0]);
        json_decref(root);
        env_fini(&e);
        failures += e.failures;
    }
    return failures;
}

/* gfx1100.yaml with `key: value` lines replaced (keys under memory/dram), into SH_WORK_DIR; the
 * path, or NULL. */
static const char *machine_variant(const char *name, const char *const *keys, const char *const *values, int n)
{
    static char path[512];
    char src[512], line[512];
    snprintf(src, sizeof src, "%s/gfx1100.yaml", umb_timing_machines_dir());
    snprintf(path, sizeof path, "%s/%s.%d.yaml", SH_WORK_DIR, name, (int)getpid());
    FILE *in = fopen(src, "r"), *out = fopen(path, "w");
    if (!in || !out) {
        if (in) fclose(in);
        if (out) fclose(out);
        return NULL;
    }
    while (fgets(line, sizeof line, in)) {
        const char *indent = line + strspn(line, " ");
        int k = 0;
        for (; k < n; k++)
            if (!strncmp(indent, keys[k], strlen(keys[k])) && indent[strlen(keys[k])] == ':') break;
        if (k < n) fprintf(out, "%.*s%s: %s\n", (int)(indent - line), line, keys[k], values[k]);
        else fputs(line, out);
    }
    fclose(in);
    fclose(out);
    return path;
}

/* Activations of a DRAM channel are at least tRRD apart (at most four in tFAW): random 128-byte
 * lines over 256 MB open a row nearly every access, so the rate of row openings per channel must
 * stay within 1 / tRRD (the data sheet's 4.58 ns in gfx1100.yaml) and come close to it (the
 * kernel has the parallelism to saturate it); with t_rrd_ns and t_faw_ns 0 (a copy of the
 * machine) the same accesses open rows faster than that, so it is the limit that holds them. */
static int dram_activations_bound(void)
{
    const uint32_t nlines = (256u << 20) / 128u, items = 65536;
    const double t_rrd_s = 4.58e-9, channels = 24;
    const char *keys[] = { "t_rrd_ns", "t_faw_ns" }, *zero[] = { "0", "0" };
    const char *unlimited = machine_variant("no_act_limit", keys, zero, 2);
    if (!unlimited) die("machine copy", SH_WORK_DIR);
    double rate[2] = { 0 };
    int failures = 0;
    for (int k = 0; k < 2; k++) {
        env e;
        env_init_machine(&e, k == 0 ? "gfx1100" : unlimited);
        uint64_t in = buffer(&e, (uint64_t)nlines * 128u), out = buffer(&e, 4096);
        json_t *root, *l;
        umb_rdna3_arg a[] = { ARG(in), ARG(out), ARG(nlines) };
        l = run(&e, "random_lines", a, 3, items, 256, &root);
        double hits = num(l, "dram.row_hits"), miss = num(l, "dram.row_misses"), secs = num(l, "seconds");
        rate[k] = miss / channels / secs;
        printf("%s: %.0f of %.0f DRAM accesses opened a row; %.1f M activations a second a channel "
               "(1 / tRRD = %.1f M)\n", k == 0 ? "gfx1100" : "without tRRD/tFAW", miss, hits + miss, rate[k] / 1e6,
               1e-6 / t_rrd_s);
        CHECK(&e, miss >= 0.95 * items && miss <= 1.01 * items, "%.0f row openings for %u random lines", miss, items);
        if (k == 0) {
            CHECK(&e, rate[0] <= 1.01 / t_rrd_s, "%.1f M activations a second a channel, above 1 / tRRD", rate[0] / 1e6);
            CHECK(&e, rate[0] >= 0.60 / t_rrd_s, "%.1f M activations a second a channel: far below 1 / tRRD (not "
                  "activation-bound)", rate[0] / 1e6);
        }
        json_decref(root);
        env_fini(&e);
        failures += e.failures;
    }
    unlink(unlimited);
    if (rate[1] < 1.2 * rate[0]) {
        fprintf(stderr, "FAIL: without tRRD/tFAW %.1f M activations a second a channel, not above the limited %.1f M\n",
                rate[1] / 1e6, rate[0] / 1e6);
        failures++;
    }
    return failures;
}

/* In WGP mode a workgroup's waves run on both CUs of a WGP, but its LDS lies in one CU's half of
 * the WGP's LDS (lds.at_home), whose port (32 banks x 4 bytes a cycle) serves them all: one
 * 256-work-item workgroup storing with ds_store_b128 gets at most 128 bytes a cycle, near the 100.21
 * measured on an RX 7900 XT (G1 in ../shared/reference/rdna3-measurements.md; its loop has more
 * than the stores); with at_home false (a copy of the machine) each CU's half serves its own
 * waves and the same workgroup gets up to twice that, which the measurement rules out. */
static int lds_one_workgroup_one_half(void)
{
    const uint32_t iters = 256;
    const double bytes = 256.0 * 16 * 4 * iters;
    const char *keys[] = { "at_home" }, *off[] = { "false" };
    const char *both = machine_variant("lds_both_halves", keys, off, 1);
    if (!both) die("machine copy", SH_WORK_DIR);
    double per_cycle[2];
    int failures = 0;
    for (int k = 0; k < 2; k++) {
        env e;
        env_init_machine(&e, k == 0 ? "gfx1100" : both);
        uint64_t out = buffer(&e, 256 * 16);
        json_t *root, *l;
        umb_rdna3_arg a[] = { ARG(out), ARG(iters) };
        l = run(&e, "lds_store_b128", a, 2, 256, 256, &root);
        per_cycle[k] = bytes / num(l, "cycles");
        json_decref(root);
        env_fini(&e);
        failures += e.failures;
    }
    unlink(both);
    printf("one workgroup, ds_store_b128: %.1f bytes a cycle (the RX 7900 XT measured 100.21); with each CU's "
           "half serving its own waves %.1f\n", per_cycle[0], per_cycle[1]);
    if (!(per_cycle[0] <= 128.0 && per_cycle[0] >= 100.21 * 0.8)) {
        fprintf(stderr, "FAIL: %.1f bytes a cycle, not within one half's 128 and near the measured 100.21\n", per_cycle[0]);
        failures++;
    }
    if (!(per_cycle[1] > 1.5 * per_cycle[0])) {
        fprintf(stderr, "FAIL: both halves give %.1f bytes a cycle, not above one half's %.1f\n", per_cycle[1], per_cycle[0]);
        failures++;
    }
    return failures;
}

/* WMMA: a dependent chain of v_wmma_f32_16x16x16_f16 costs each instruction its 32 execution
 * cycles (AMD's Matrix Instruction Calculator) plus at most the VALU result latency: the cycles of
 * 320 against 64 of them in one wave, per instruction, within [32, 40]. */
static int wmma_holds_valu(void)
{
    env e;
    env_init(&e);
    uint64_t a = buffer(&e, 32 * 16 * 2), out = buffer(&e, 32 * 8 * 4);
    double cycles[2];
    uint32_t n[2] = { 64, 320 };
    for (int k = 0; k < 2; k++) {
        json_t *root, *l;
        umb_rdna3_arg args[] = { ARG(a), ARG(out), ARG(n[k]) };
        l = run(&e, "wmma_chain", args, 3, 32, 32, &root);
        cycles[k] = num(l, "cycles");
        json_decref(root);
    }
    double per = (cycles[1] - cycles[0]) / (n[1] - n[0]);
    printf("wmma_chain: %.0f cycles for %u, %.0f for %u: %.2f cycles a WMMA\n", cycles[0], n[0], cycles[1], n[1], per);
    CHECK(&e, per >= 32.0 && per <= 40.0, "%.2f cycles a dependent WMMA", per);
    env_fini(&e);
    return e.failures;
}

#define C(fn) { #fn, fn }
static const struct { const char *name; int (*fn)(void); } cases[] = {
    C(coalesced_vs_strided), C(lds_bank_conflicts), C(more_waves_hide_latency), C(vgpr_limited_occupancy), C(dram_streams_keep_rate), C(dram_activations_bound),
    C(lds_one_workgroup_one_half), C(wmma_holds_valu),
};

int main(int argc, char **argv)
{
    if (argc != 2) return fprintf(stderr, "usage: timing_shapes CASE\n"), 2;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(cases[i].name, argv[1])) {
            int f = cases[i].fn();
            printf("%s %s\n", f ? "FAIL" : "PASS", argv[1]);
            return f ? 1 : 0;
        }
    return fprintf(stderr, "no case %s\n", argv[1]), 2;
}
