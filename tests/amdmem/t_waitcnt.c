/* --check-waitcnt: silent on what clang-19 emits (kernels/waitcnt.cl at several -O levels and
 * both wave sizes, results checked), and it reports the missing wait when a kernel's s_waitcnt is
 * removed from the assembly (the hand-edited kernel still computes the right values when the
 * check is off, because umbra completes every load at once). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "amt.h"
#include "umbra/rdna3.h"
#include "umbra/timing.h"

#define N 256
#define LOCAL 64

typedef struct kenv {
    umb_timing *timing;         /* UMBRA_TIMING=MACHINE: the same checks under the timing model */
    umb_device *dev;
    umb_rdna3_program *prog;
    char co[256];
} kenv;

static void kenv_fini(kenv *k)
{
    if (k->prog) umb_rdna3_program_destroy(k->prog);
    if (k->dev) umb_device_destroy(k->dev);
    umb_timing_destroy(k->timing);
    if (k->co[0]) unlink(k->co);
    memset(k, 0, sizeof *k);
}

static bool kenv_load(amt *t, kenv *k)
{
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    char err[512] = "";
    const char *machine = getenv("UMBRA_TIMING");
    if (machine && umb_timing_create(machine, &k->timing, err, sizeof err) != UMB_OK) {
        amt_fail(t, __FILE__, __LINE__, "timing model %s: %s", machine, err);
        return false;
    }
    cfg.timing = k->timing;
    if (umb_device_create(&cfg, &k->dev) != UMB_OK) return false;
    if (umb_rdna3_program_load_file(k->dev, k->co, &k->prog, err, sizeof err) != UMB_OK) {
        amt_fail(t, __FILE__, __LINE__, "load %s: %s", k->co, err);
        return false;
    }
    return true;
}

static void tmp_name(kenv *k, const char *tag)
{
    snprintf(k->co, sizeof k->co, "/tmp/amdmem_wc_%s_%d.co", tag, (int)getpid());
}

static bool compile(amt *t, kenv *k, int opt, bool wave64)
{
    tmp_name(k, wave64 ? "w64" : "w32");
    umb_rdna3_cc_options o;
    memset(&o, 0, sizeof o);
    o.input = AMT_SOURCE_DIR "/kernels/waitcnt.cl";
    o.output = k->co;
    o.opt_level = opt;
    o.wave64 = wave64;
    o.build_options = "-cl-std=CL2.0";
    o.clang = AMT_CLANG;
    o.lld = AMT_LLD;
    char err[512];
    if (umb_rdna3_compile(&o, err, sizeof err) != UMB_OK) {
        amt_fail(t, __FILE__, __LINE__, "compile: %s", err);
        return false;
    }
    return kenv_load(t, k);
}

static int sh(const char *cmd)
{
    int rc = system(cmd);
    return rc;
}

/* Compile to assembly, drop the first s_waitcnt after every line containing `trigger` (all of
 * them when trigger is NULL), assemble and link. */
static bool compile_stripped(amt *t, kenv *k, const char *trigger)
{
    char s[300], s2[300], o[300], cmd[2048];
    tmp_name(k, "strip");
    snprintf(s, sizeof s, "%s.s", k->co);
    snprintf(s2, sizeof s2, "%s.edited.s", k->co);
    snprintf(o, sizeof o, "%s.o", k->co);
    snprintf(cmd, sizeof cmd,
             "%s -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -mno-wavefrontsize64 -O3 "
             "--rocm-device-lib-path=%s -mllvm -amdgpu-internalize-symbols -S %s/kernels/waitcnt.cl -o %s",
             AMT_CLANG, AMT_DEVICE_LIB_DIR, AMT_SOURCE_DIR, s);
    if (sh(cmd) != 0) { amt_fail(t, __FILE__, __LINE__, "clang -S failed"); return false; }
    FILE *in = fopen(s, "r"), *out = fopen(s2, "w");
    if (!in || !out) { amt_fail(t, __FILE__, __LINE__, "temporary files"); if (in) fclose(in); if (out) fclose(out); return false; }
    char line[1024];
    bool armed = trigger == NULL;
    unsigned dropped = 0;
    while (fgets(line, sizeof line, in)) {
        if (trigger && strstr(line, trigger)) armed = true;
        if (armed && strstr(line, "s_waitcnt") && !strstr(line, "s_waitcnt_vscnt") && line[0] != '.' ) {
            dropped++;
            if (trigger) armed = false;
            continue;
        }
        fputs(line, out);
    }
    fclose(in);
    fclose(out);
    if (!dropped) { amt_fail(t, __FILE__, __LINE__, "no s_waitcnt to drop after %s", trigger ? trigger : "(any)"); return false; }
    snprintf(cmd, sizeof cmd, "%s -target amdgcn-amd-amdhsa -mcpu=gfx1100 -c %s -o %s && %s -shared %s -o %s",
             AMT_CLANG, s2, o, AMT_LLD, o, k->co);
    int rc = sh(cmd);
    unlink(s);
    unlink(s2);
    unlink(o);
    if (rc != 0) { amt_fail(t, __FILE__, __LINE__, "assembling the edited kernel failed"); return false; }
    return kenv_load(t, k);
}

static uint64_t buf(amt *t, kenv *k, const void *data, size_t size)
{
    uint64_t a = 0;
    if (umb_mem_alloc(k->dev, size, 4096, &a) != UMB_OK) amt_fail(t, __FILE__, __LINE__, "alloc");
    if (data && umb_mem_copy_to_device(k->dev, a, data, size) != UMB_OK) amt_fail(t, __FILE__, __LINE__, "copy");
    return a;
}

static void get(amt *t, kenv *k, uint64_t a, void *dst, size_t size)
{
    if (umb_mem_copy_from_device(k->dev, a, dst, size) != UMB_OK) amt_fail(t, __FILE__, __LINE__, "copy back");
}

/* Launch kernel over N work-items in groups of LOCAL with --check-waitcnt as asked. */
static umb_status launch(kenv *k, const char *kernel, const umb_rdna3_arg *args, unsigned nargs, bool check)
{
    umb_rdna3_dispatch d;
    memset(&d, 0, sizeof d);
    d.kernel = kernel;
    d.work_dim = 1;
    d.global_size[0] = N;
    d.local_size[0] = LOCAL;
    d.args = args;
    d.nargs = nargs;
    d.check_waitcnt = check;
    return umb_rdna3_run(k->dev, k->prog, &d, NULL);
}

#define ARG(v) { &(v), sizeof(v) }

static void must_run(amt *t, kenv *k, const char *kernel, const umb_rdna3_arg *args, unsigned nargs)
{
    if (launch(k, kernel, args, nargs, true) != UMB_OK)
        amt_fail(t, __FILE__, __LINE__, "%s under --check-waitcnt: %s", kernel, umb_device_last_error(k->dev));
}

/* Every kernel of waitcnt.cl, checked, with its results verified. */
static void run_all(amt *t, kenv *k)
{
    static float fa[N], fb[N];
    static int ia[N], ib[N], idx[N];
    for (int i = 0; i < N; i++) {
        fa[i] = (float)i * 0.5f;
        ia[i] = i * 3 + 1;
        idx[i] = (i * 37 + 11) % N;
    }
    uint64_t a = buf(t, k, fa, sizeof fa), b = buf(t, k, NULL, sizeof fb);
    int n = N;
    umb_rdna3_arg copy_args[] = { ARG(a), ARG(b), ARG(n) };
    must_run(t, k, "wc_copy", copy_args, 3);
    get(t, k, b, fb, sizeof fb);
    for (int i = 0; i < N; i++)
        if (fb[i] != fa[i] * 2.0f + 1.0f) { amt_fail(t, __FILE__, __LINE__, "wc_copy[%d] = %g", i, fb[i]); break; }

    uint64_t b4 = buf(t, k, NULL, sizeof fb);
    umb_rdna3_arg vec_args[] = { ARG(a), ARG(b4) };
    umb_rdna3_dispatch d;
    memset(&d, 0, sizeof d);
    d.kernel = "wc_vec4";
    d.work_dim = 1;
    d.global_size[0] = N / 4;
    d.local_size[0] = 16;
    d.args = vec_args;
    d.nargs = 2;
    d.check_waitcnt = true;
    if (umb_rdna3_run(k->dev, k->prog, &d, NULL) != UMB_OK)
        amt_fail(t, __FILE__, __LINE__, "wc_vec4: %s", umb_device_last_error(k->dev));
    get(t, k, b4, fb, sizeof fb);
    for (int i = 0; i < N; i++)
        if (fb[i] != fa[(i & ~3) + 3 - (i & 3)] + fa[i]) { amt_fail(t, __FILE__, __LINE__, "wc_vec4[%d] = %g", i, fb[i]); break; }

    uint64_t ga = buf(t, k, ia, sizeof ia), gb = buf(t, k, NULL, sizeof ib);
    umb_rdna3_arg lds_args[] = { ARG(ga), ARG(gb) };
    must_run(t, k, "wc_lds", lds_args, 2);
    get(t, k, gb, ib, sizeof ib);
    for (int i = 0; i < N; i++) {
        int g = i / LOCAL * LOCAL, l = i % LOCAL;
        int want = ia[g + LOCAL - 1 - l] + 2 * ia[g + (l + 1) % LOCAL];
        if (ib[i] != want) { amt_fail(t, __FILE__, __LINE__, "wc_lds[%d] = %d, expected %d", i, ib[i], want); break; }
    }

    int zero[2] = { 0, 0 };
    uint64_t ctr = buf(t, k, zero, sizeof zero), out = buf(t, k, NULL, sizeof ib);
    umb_rdna3_arg at_args[] = { ARG(ctr), ARG(out) };
    must_run(t, k, "wc_atomic", at_args, 2);
    int c2[2];
    get(t, k, ctr, c2, sizeof c2);
    get(t, k, out, ib, sizeof ib);
    EQ(t, c2[0], N);
    EQ(t, c2[1], N - 1);
    static unsigned char seen[N];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < N; i++)
        if (ib[i] >= 0 && ib[i] < N) seen[ib[i]] = 1;
    for (int i = 0; i < N; i++)
        if (!seen[i]) { amt_fail(t, __FILE__, __LINE__, "wc_atomic: no work-item got %d", i); break; }

    int kk = 5;
    umb_rdna3_arg pr_args[] = { ARG(ga), ARG(gb), ARG(kk) };
    must_run(t, k, "wc_private", pr_args, 3);
    get(t, k, gb, ib, sizeof ib);
    for (int i = 0; i < N; i++) {
        int l = i % LOCAL;
        int want = ia[(i + 5) % 64] + ia[(i + ((35 + l) & 31)) % 64];
        if (ib[i] != want) { amt_fail(t, __FILE__, __LINE__, "wc_private[%d] = %d, expected %d", i, ib[i], want); break; }
    }

    uint64_t gi = buf(t, k, idx, sizeof idx);
    umb_rdna3_arg ch_args[] = { ARG(gi), ARG(ga), ARG(gb) };
    must_run(t, k, "wc_chain", ch_args, 3);
    get(t, k, gb, ib, sizeof ib);
    for (int i = 0; i < N; i++)
        if (ib[i] != ia[idx[i]] + ia[idx[idx[i]]]) { amt_fail(t, __FILE__, __LINE__, "wc_chain[%d]", i); break; }
}

static void clang_silent(amt *t, int opt, bool wave64)
{
    kenv k = { 0 };
    if (compile(t, &k, opt, wave64)) run_all(t, &k);
    kenv_fini(&k);
}
static void waitcnt_clang_silent_O0_w32(amt *t) { clang_silent(t, 0, false); }
static void waitcnt_clang_silent_O1_w32(amt *t) { clang_silent(t, 1, false); }
static void waitcnt_clang_silent_O3_w32(amt *t) { clang_silent(t, 3, false); }
static void waitcnt_clang_silent_O3_w64(amt *t) { clang_silent(t, 3, true); }

/* Run `kernel` of the edited program with the check on: it must fault naming `text`; with the
 * check off it must run. */
static void expect_report(amt *t, kenv *k, const char *kernel, const char *text)
{
    int ia[N];
    for (int i = 0; i < N; i++) ia[i] = i;
    uint64_t a = buf(t, k, ia, sizeof ia), b = buf(t, k, NULL, sizeof ia), c = buf(t, k, NULL, sizeof ia);
    int n = N;
    umb_rdna3_arg args[] = { ARG(a), ARG(b), ARG(c) };
    unsigned nargs = !strcmp(kernel, "wc_copy") ? 3 : !strcmp(kernel, "wc_chain") ? 3 : 2;
    if (!strcmp(kernel, "wc_copy")) args[2] = (umb_rdna3_arg)ARG(n);
    if (launch(k, kernel, args, nargs, false) != UMB_OK)
        amt_fail(t, __FILE__, __LINE__, "%s without the check: %s", kernel, umb_device_last_error(k->dev));
    if (launch(k, kernel, args, nargs, true) == UMB_OK)
        amt_fail(t, __FILE__, __LINE__, "%s: the missing s_waitcnt was not reported", kernel);
    else if (!strstr(umb_device_last_error(k->dev), text))
        amt_fail(t, __FILE__, __LINE__, "%s: report \"%s\" lacks \"%s\"", kernel, umb_device_last_error(k->dev), text);
    else if (getenv("AMT_VERBOSE"))
        printf("%s\n", umb_device_last_error(k->dev));
}

static void waitcnt_missing_all(amt *t)
{
    kenv k = { 0 };
    if (compile_stripped(t, &k, NULL)) expect_report(t, &k, "wc_copy", "missing s_waitcnt lgkmcnt");
    kenv_fini(&k);
}

static void waitcnt_missing_vmcnt(amt *t)
{
    kenv k = { 0 };
    if (compile_stripped(t, &k, "global_load")) {
        expect_report(t, &k, "wc_copy", "missing s_waitcnt vmcnt");
        expect_report(t, &k, "wc_chain", "waitcnt: reads v");
    }
    kenv_fini(&k);
}

static void waitcnt_missing_lds(amt *t)
{
    kenv k = { 0 };
    if (compile_stripped(t, &k, "ds_load")) expect_report(t, &k, "wc_lds", "ds_load");
    kenv_fini(&k);
}

/* ---- the counting rules, one wave at a time (single-step API) ---- */

#define G 0x100000ull

static void wc_begin(amt *t)
{
    amt_begin(t, 32);
    amt_map(t, G, 0x1000);
    umb_rdna3_step_set_lds_size(t->s, 256);
    amt_vall(t, 0, (uint32_t)G);
    amt_vall(t, 1, 0);
    amt_vall(t, 10, 0);
    amt_s64(t, 20, G);
    umb_rdna3_step_set_check_waitcnt(t->s, true);
}

/* VMEM loads return in order: vmcnt(1) completes the older of two. */
static void waitcnt_vmcnt_in_order(amt *t)
{
    wc_begin(t);
    amt_code(t, "global_load_b32 v2, v[0:1], off\n"
                "global_load_b32 v3, v[0:1], off offset:4\n"
                "s_waitcnt vmcnt(1)\n"
                "v_mov_b32 v4, v2");
    RUNS(t);
    wc_begin(t);
    amt_code(t, "global_load_b32 v2, v[0:1], off\n"
                "global_load_b32 v3, v[0:1], off offset:4\n"
                "s_waitcnt vmcnt(1)\n"
                "v_mov_b32 v4, v3");
    FAULTS(t, "reads v3 before the global_load_b32");
    wc_begin(t);
    amt_code(t, "global_load_b64 v[2:3], v[0:1], off\n"
                "s_waitcnt_vmcnt null, 0x0\n"
                "v_mov_b32 v4, v3");
    RUNS(t);
}

/* SMEM returns out of order: only lgkmcnt(0) proves a scalar load complete. */
static void waitcnt_smem_out_of_order(amt *t)
{
    wc_begin(t);
    amt_code(t, "s_load_b32 s4, s[20:21], 0x0\n"
                "s_load_b32 s5, s[20:21], 0x4\n"
                "s_waitcnt lgkmcnt(1)\n"
                "s_mov_b32 s6, s4");
    FAULTS(t, "reads s4 before the s_load_b32");
    wc_begin(t);
    amt_code(t, "s_load_b32 s4, s[20:21], 0x0\n"
                "s_load_b32 s5, s[20:21], 0x4\n"
                "s_waitcnt lgkmcnt(0)\n"
                "s_add_u32 s6, s4, s5");
    RUNS(t);
    wc_begin(t);
    amt_code(t, "s_load_b64 s[4:5], s[20:21], 0x0\n"
                "global_load_b32 v2, v1, s[4:5]");     /* a pending SGPR used as an address */
    FAULTS(t, "reads s4");
}

/* LDS operations return in order among themselves, but not with SMEM. */
static void waitcnt_lds_order(amt *t)
{
    wc_begin(t);
    amt_code(t, "ds_load_b32 v2, v10\n"
                "ds_load_b32 v3, v10 offset:4\n"
                "s_waitcnt lgkmcnt(1)\n"
                "v_mov_b32 v4, v2");
    RUNS(t);
    wc_begin(t);
    amt_code(t, "ds_load_b32 v2, v10\n"
                "s_load_b32 s4, s[20:21], 0x0\n"
                "s_waitcnt lgkmcnt(1)\n"
                "v_mov_b32 v4, v2");
    FAULTS(t, "reads v2 before the ds_load_b32");
}

/* FLAT counts on vmcnt and lgkmcnt: both must be waited for. */
static void waitcnt_flat_both_counters(amt *t)
{
    wc_begin(t);
    amt_code(t, "flat_load_b32 v2, v[0:1]\n"
                "s_waitcnt vmcnt(0)\n"
                "v_mov_b32 v4, v2");
    FAULTS(t, "missing s_waitcnt lgkmcnt");
    wc_begin(t);
    amt_code(t, "flat_load_b32 v2, v[0:1]\n"
                "s_waitcnt lgkmcnt(0)\n"
                "v_mov_b32 v4, v2");
    FAULTS(t, "missing s_waitcnt vmcnt");
    wc_begin(t);
    amt_code(t, "flat_load_b32 v2, v[0:1]\n"
                "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
                "v_mov_b32 v4, v2");
    RUNS(t);
}

/* gfx10+ decrement lgkmcnt in order for FLAT (and with LDS): lgkmcnt(1) completes the older of two
 * flat loads, as clang-19 relies on for volatile generic loads (tests/hip/lookback.hip); SMEM
 * still returns out of order. */
static void waitcnt_flat_lgkm_in_order(amt *t)
{
    static const char *const two_loads = "flat_load_b64 v[2:3], v[0:1] glc dlc\n"
                                         "s_waitcnt vmcnt(0)\n"
                                         "flat_load_b64 v[4:5], v[0:1] offset:8 glc dlc\n"
                                         "s_waitcnt vmcnt(0)\n"
                                         "s_waitcnt lgkmcnt(1)\n";
    char code[512];
    wc_begin(t);
    snprintf(code, sizeof code, "%sv_add_f64 v[6:7], v[2:3], v[2:3]", two_loads);
    amt_code(t, code);
    RUNS(t);
    wc_begin(t);
    snprintf(code, sizeof code, "%sv_add_f64 v[6:7], v[4:5], v[4:5]", two_loads);
    amt_code(t, code);
    FAULTS(t, "reads v4 before the flat_load_b64");
    wc_begin(t);
    amt_code(t, "ds_load_b32 v2, v10\n"
                "flat_load_b32 v3, v[0:1]\n"
                "s_waitcnt vmcnt(0) lgkmcnt(1)\n"
                "v_mov_b32 v4, v2");
    RUNS(t);
    wc_begin(t);
    amt_code(t, "flat_load_b32 v2, v[0:1]\n"
                "s_load_b32 s4, s[20:21], 0x0\n"
                "s_waitcnt vmcnt(0) lgkmcnt(1)\n"
                "v_mov_b32 v4, v2");
    FAULTS(t, "reads v2 before the flat_load_b32");
}

/* Stores and non-returning atomics use vscnt and write no register; a returning atomic is a
 * load. Overwriting a pending load's destination is reported too. */
static void waitcnt_stores_atomics_waw(amt *t)
{
    wc_begin(t);
    amt_code(t, "global_store_b32 v[0:1], v2, off\n"
                "global_atomic_add_u32 v[0:1], v2, off\n"
                "v_mov_b32 v2, 5\n"
                "s_waitcnt_vscnt null, 0x0");
    RUNS(t);
    wc_begin(t);
    amt_code(t, "global_atomic_add_u32 v3, v[0:1], v2, off glc\n"
                "v_add_nc_u32 v4, v3, v3");
    FAULTS(t, "reads v3 before the global_atomic_add_u32");
    wc_begin(t);
    amt_code(t, "global_load_b32 v2, v[0:1], off\n"
                "v_mov_b32 v2, 7");
    FAULTS(t, "overwrites v2 before the global_load_b32");
    wc_begin(t);   /* the mode is off: nothing is checked */
    umb_rdna3_step_set_check_waitcnt(t->s, false);
    amt_code(t, "global_load_b32 v2, v[0:1], off\n"
                "v_mov_b32 v3, v2");
    RUNS(t);
}

#define C(fn) { #fn, fn }
const amt_case amt_cases_waitcnt[] = {
    C(waitcnt_vmcnt_in_order), C(waitcnt_smem_out_of_order), C(waitcnt_lds_order),
    C(waitcnt_flat_both_counters), C(waitcnt_flat_lgkm_in_order), C(waitcnt_stores_atomics_waw),
    C(waitcnt_clang_silent_O0_w32), C(waitcnt_clang_silent_O1_w32), C(waitcnt_clang_silent_O3_w32),
    C(waitcnt_clang_silent_O3_w64), C(waitcnt_missing_all), C(waitcnt_missing_vmcnt), C(waitcnt_missing_lds),
    { NULL, NULL },
};
