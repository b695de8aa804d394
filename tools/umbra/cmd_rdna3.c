/* umbra cc | run | disasm — the RDNA3 (gfx1100) commands, thin clients of umbra/rdna3.h. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_args.h"
#include "core/guest_text.h"
#include "timing_opts.h"
#include "umbra/rdna3.h"
#include "umbra/umbra.h"

/* ---------------- umbra cc ---------------- */

static void cc_usage(FILE *f)
{
    fprintf(f, "usage: umbra cc KERNEL.cl -o KERNEL.co [-O0|-O1|-O2|-O3] [--wave64] [BUILD OPTIONS]...\n"
               "       umbra cc KERNEL.cl -o KERNEL.bc --bitcode [...]      (compile only, for a later link)\n"
               "       umbra cc A.bc B.bc ... -o KERNEL.co [...]            (link bitcode units)\n"
               "       umbra cc A.bc B.bc ... -o LIB.bc --bitcode           (merge them, for a later link)\n"
               "Compiles OpenCL C for gfx1100 with clang-19 and ld.lld-19 against AMD's ROCm device libraries.\n"
               "Build options are OpenCL's (clBuildProgram): -D NAME[=VALUE], -I DIR, -cl-std=CL1.2 (default)|CL2.0|\n"
               "CL3.0, -cl-fast-relaxed-math, -cl-denorms-are-zero, -cl-mad-enable, -cl-finite-math-only, ... -w,\n"
               "-Werror; --options \"STRING\" passes a whole options string. Other flags: --clang PATH, --lld PATH,\n"
               "--device-lib DIR (default: $UMBRA_DEVICE_LIB_DIR or the build's devicelib/), -Xclang-arg ARG, -v.\n"
               "Default -O3, wave32.\n");
}

/* Append one word to an options string, quoted so that the library splits it back unchanged. */
static bool append_option(char **opts, size_t *len, const char *word)
{
    size_t need = *len + 4 * strlen(word) + 4;
    char *s = realloc(*opts, need);
    if (!s) return false;
    char *w = s + *len;
    if (*len) *w++ = ' ';
    *w++ = '\'';
    for (const char *c = word; *c; c++) {
        if (*c == '\'') { memcpy(w, "'\\''", 4); w += 4; }
        else *w++ = *c;
    }
    *w++ = '\'';
    *w = '\0';
    *opts = s;
    *len = (size_t)(w - s);
    return true;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

int cmd_cc(int argc, char **argv)
{
    umb_rdna3_cc_options o = { .opt_level = 3 };
    const char **extra = calloc((size_t)argc + 1, sizeof *extra), **inputs = calloc((size_t)argc + 1, sizeof *inputs);
    char *opts = NULL;
    size_t optlen = 0;
    int rc = 2;
    if (!extra || !inputs) goto out;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool takes_value = !strcmp(a, "-D") || !strcmp(a, "-I");
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { cc_usage(stdout); rc = 0; goto out; }
        else if (!strcmp(a, "-o") && i + 1 < argc) o.output = argv[++i];
        else if (!strncmp(a, "-O", 2) && strlen(a) == 3 && a[2] >= '0' && a[2] <= '3') o.opt_level = a[2] - '0';
        else if (!strcmp(a, "--wave64")) o.wave64 = true;
        else if (!strcmp(a, "--wave32")) o.wave64 = false;
        else if (!strcmp(a, "--bitcode")) o.emit = UMB_RDNA3_EMIT_BITCODE;
        else if (takes_value && i + 1 < argc) {
            if (!append_option(&opts, &optlen, a) || !append_option(&opts, &optlen, argv[++i])) goto out;
        } else if (!takes_value && (!strncmp(a, "-D", 2) || !strncmp(a, "-I", 2) || !strncmp(a, "-cl-", 4) ||
                                    !strcmp(a, "-w") || !strcmp(a, "-Werror") || !strcmp(a, "-g"))) {
            if (!append_option(&opts, &optlen, a)) goto out;
        } else if (!strcmp(a, "--options") && i + 1 < argc) {
            /* a whole options string: appended as it is, split by the library */
            size_t n = strlen(argv[++i]);
            char *s = realloc(opts, optlen + n + 2);
            if (!s) goto out;
            opts = s;
            if (optlen) opts[optlen++] = ' ';
            memcpy(opts + optlen, argv[i], n + 1);
            optlen += n;
        }
        else if (!strcmp(a, "--device-lib") && i + 1 < argc) o.device_lib_dir = argv[++i];
        else if (!strcmp(a, "--clang") && i + 1 < argc) o.clang = argv[++i];
        else if (!strcmp(a, "--lld") && i + 1 < argc) o.lld = argv[++i];
        else if (!strcmp(a, "-Xclang-arg") && i + 1 < argc) extra[o.nextra++] = argv[++i];
        else if (!strcmp(a, "-v")) o.verbose = true;
        else if (a[0] != '-' && ends_with(a, ".bc")) inputs[o.ninputs++] = a;
        else if (a[0] != '-' && !o.input) o.input = a;
        else {
            fprintf(stderr, "umbra cc: unknown or incomplete option '%s'\n", a);
            cc_usage(stderr);
            goto out;
        }
    }
    if ((!o.input && !o.ninputs) || (o.input && o.ninputs) || !o.output) {
        cc_usage(stderr);
        goto out;
    }
    o.inputs = inputs;
    o.build_options = opts;
    o.extra = extra;
    char err[1024];
    if (umb_rdna3_compile(&o, err, sizeof err)) {
        fprintf(stderr, "umbra cc: %s\n", err);
        rc = 1;
    } else {
        rc = 0;
    }
out:
    free(extra);
    free(inputs);
    free(opts);
    return rc;
}

/* ---------------- umbra disasm ---------------- */

/* Every name here comes from the guest's metadata: printed escaped. */
static void print_kernels(const umb_rdna3_program *p)
{
    umb_guest_text_buf g1, g2;
    printf("target %s\n", umb_guest_text(&g1, umb_rdna3_program_target(p)));
    for (uint32_t i = 0; i < umb_rdna3_program_kernel_count(p); i++) {
        const umb_rdna3_kernel_info *k = umb_rdna3_program_kernel(p, i);
        printf("kernel %s: wave%u, entry 0x%" PRIx64 ", kernarg %u B, LDS %u B, scratch %u B/lane, sgprs %u, "
               "vgprs %u\n  rsrc1 0x%08x rsrc2 0x%08x rsrc3 0x%08x kcp 0x%04x (user SGPRs %u)\n",
               umb_guest_text(&g1, k->name), k->wavefront_size, k->entry_vaddr, k->kernarg_segment_size, k->group_segment_fixed_size,
               k->private_segment_fixed_size, k->sgpr_count, k->vgpr_count, k->kd.compute_pgm_rsrc1,
               k->kd.compute_pgm_rsrc2, k->kd.compute_pgm_rsrc3, k->kd.kernel_code_properties,
               (k->kd.compute_pgm_rsrc2 >> 1) & 31u);
        for (uint32_t a = 0; a < k->nargs; a++) {
            const umb_rdna3_arg_info *ai = &k->args[a];
            printf("  %s%u: offset %u size %u %s %s%s%s\n", a < k->nexplicit ? "arg " : "hidden ", a, ai->offset,
                   ai->size, umb_rdna3_value_kind_name(ai->kind), umb_guest_text(&g1, ai->type_name),
                   ai->name[0] ? " " : "", umb_guest_text(&g2, ai->name));
        }
    }
}

int cmd_disasm(int argc, char **argv)
{
    const char *path = NULL;
    bool info = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--kernels")) info = true;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: umbra disasm KERNEL.co [--kernels]\n  --kernels  print the kernels' descriptors "
                   "and arguments instead of the code\n");
            return 0;
        } else if (!path) path = argv[i];
        else {
            fprintf(stderr, "umbra disasm: unexpected '%s'\n", argv[i]);
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: umbra disasm KERNEL.co [--kernels]\n");
        return 2;
    }
    umb_rdna3_program *p;
    char err[UMB_CLI_ERROR_MAX];
    if (umb_rdna3_program_load_file(NULL, path, &p, err, sizeof err)) {
        fprintf(stderr, "umbra disasm: %s\n", err);
        return 1;
    }
    umb_status st = info ? (print_kernels(p), UMB_OK) : umb_rdna3_program_disasm(p, stdout);
    umb_rdna3_program_destroy(p);
    if (st) fprintf(stderr, "umbra disasm: %s: %s\n", path, umb_status_name(st));
    return st ? 1 : 0;
}

/* ---------------- umbra run ---------------- */

#define MAX_RUN_ARGS 64

typedef struct run_arg {
    const char *spec;
    uint8_t scalar[8];              /* a TYPE:V value, or a buffer's address */
    uint8_t *hex;                   /* hex:BYTES (structs and vectors of any size), malloc'd */
    uint32_t size;
    bool is_buf, is_local;
    uint64_t addr, bytes;            /* buffers */
} run_arg;

typedef struct run_opts {
    const char *co, *kernel, *stats_path, *trace_path, *report_path;
    bool profile_pcs;           /* --profile-pcs or --report: per-PC issue counts */
    int argc;                   /* the command line, for the statistics' header */
    char **argv;
    uint32_t dim;
    uint64_t global[3], offset[3];
    uint32_t local[3];
    run_arg args[MAX_RUN_ARGS];
    uint32_t nargs;
    const char *outs[MAX_RUN_ARGS], *prints[MAX_RUN_ARGS];
    uint32_t nouts, nprints;
    uint64_t max_insts, printf_buffer, stall_limit;
    uint32_t threads, cus;
    uint32_t alignment_mode;        /* umb_rdna3_dispatch.alignment_mode */
    bool check_waitcnt, quiet, cooperative, jit_log;
    uint32_t jit;                    /* UMB_RDNA3_JIT_* (--jit) */
    const char *jit_cache;           /* --jit-cache DIR|off; NULL: umb_cache_default_dir */
    cli_timing timing;               /* --timing, --machine, --timeline, --issue-trace (timing_opts.c) */
} run_opts;

static void run_usage(FILE *f)
{
    fprintf(f,
            "usage: umbra run KERNEL.co --kernel NAME --global X[,Y[,Z]] [--local X[,Y[,Z]]] [--offset X[,Y[,Z]]]\n"
            "                 --arg SPEC ... [--out N:FILE] [--print N:TYPE[:COUNT]] [--stats FILE.json]\n"
            "                 [--max-instructions N] [--trace FILE|-] [--check-waitcnt] [--threads N] [--cus N]\n"
            "                 [--alignment-mode 0|1|2|3] [--align-dword] [--printf-buffer BYTES] [--stall-limit N] [--quiet]\n"
            "                 [--cooperative] [--jit off|auto|always] [--jit-log] [--jit-cache DIR|off]\n"
            "                 [--report FILE.html] [--profile-pcs] " CLI_TIMING_USAGE "\n"
            "Arguments, in kernel order (N counts from 0):\n"
            "  buf:FILE                 a buffer holding the bytes of FILE\n"
            "  buf:zeros:BYTES          a zero-filled buffer\n"
            "  buf:iota:TYPE:COUNT      0, 1, 2, ... as TYPE (u8 u16 u32 u64 i32 i64 f32 f64)\n"
            "  buf:fill:TYPE:COUNT:V    COUNT copies of V\n"
            "  buf:rand:u32:COUNT[:SEED] pseudo-random words\n"
            "  i8: u8: i16: u16: i32:V u32:V i64:V u64:V f32:V f64:V   a value\n"
            "  hex:BYTES                a by-value argument of any size as little-endian hex bytes\n"
            "  local:BYTES              a __local pointer argument of BYTES bytes of LDS\n"
            "--out N:FILE writes buffer N to FILE after the run; --print N:TYPE[:COUNT] prints it.\n"
            "--alignment-mode is SH_MEM_CONFIG.alignment_mode: 0 DWORD (misaligned addresses aligned down),\n"
            "1 DWORD_STRICT and 2 STRICT (misaligned access: MEMVIOL), 3 UNALIGNED (the default, as ROCm);\n"
            "--align-dword is --alignment-mode 0.\n"
            "Statistics go to stderr (text) and to --stats as JSON; --report writes them as an HTML page\n"
            "with charts and the hottest instructions (umbra report); --profile-pcs adds per-PC issue\n"
            "counts to --stats (--report implies it). The kernel's printf output goes to stdout\n"
            "when it ends (OpenCL; buffer: --printf-buffer BYTES, default 1 MiB), or as it prints (HIP,\n"
            "through hostcalls, as HIP's malloc and assert). The device has 96 CUs (--cus N), each\n"
            "holding as many workgroups at once as the kernel's registers and LDS allow; a launch that runs\n"
            "--stall-limit warp-instructions (default 2^28) with every resident wave waiting stops with\n"
            "\"no forward progress\".\n"
            "--cooperative launches as hipLaunchCooperativeKernel does: every workgroup resident at once (or the\n"
            "launch fails), the GWS barriers and semaphores (ds_gws_*) available, grid.sync() and grid.is_valid()\n"
            "working.\n"
            "--jit translates the kernel to host code with LLVM (docs/TRANSLATOR.md): auto (the default: the\n"
            "interpreter, and the kernel translated while it runs once it has run long enough to pay for the\n"
            "translation), off (the interpreter only), always (translated before it runs); results and\n"
            "statistics are the same. --trace, --check-waitcnt, --profile-pcs/--report and --timing keep the\n"
            "interpreter. --jit-log prints a line per translation on stderr. Translated code is kept on disk\n"
            "for later runs in --jit-cache DIR (default: the compile cache, $UMBRA_CACHE_DIR or ~/.cache/umbra;\n"
            "off: not kept).\n");
}

/* X[,Y[,Z]] (',' or 'x' between; each may be 0x hex), each in [min, max]. */
static bool parse_dims(const char *s, uint64_t out[3], uint32_t *dim, uint64_t unset, uint64_t min, uint64_t max)
{
    char part[32];
    uint32_t n = 0;
    out[0] = out[1] = out[2] = unset;
    for (;;) {
        size_t prefix = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 2 : 0;   /* not a separator */
        size_t len = prefix + strcspn(s + prefix, ",x");
        if (n == 3 || len >= sizeof part) return false;
        memcpy(part, s, len);
        part[len] = '\0';
        if (!cli_parse_u64(part, min, max, &out[n++])) return false;
        if (!s[len]) break;
        s += len + 1;
    }
    if (dim) *dim = n;
    return true;
}

typedef enum { T_U8, T_U16, T_U32, T_U64, T_I8, T_I16, T_I32, T_I64, T_F32, T_F64, T_BAD } vtype;

static vtype parse_type(const char *s, size_t n)
{
    static const char *const names[] = { "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64" };
    for (int i = 0; i < T_BAD; i++)
        if (strlen(names[i]) == n && !strncmp(s, names[i], n)) return (vtype)i;
    return T_BAD;
}

static uint32_t type_size(vtype t)
{
    static const uint32_t sz[] = { 1, 2, 4, 8, 1, 2, 4, 8, 4, 8 };
    return sz[t];
}

/* Encode the text value v as type t into out; false if it does not parse. */
static bool encode_value(vtype t, const char *v, uint8_t out[8])
{
    memset(out, 0, 8);
    if (t == T_F32 || t == T_F64) {
        double d;
        if (!cli_parse_f64(v, &d)) return false;
        if (t == T_F32) {
            float f = (float)d;
            if (isinf(f) && !isinf(d)) return false;   /* beyond float's range */
            memcpy(out, &f, 4);
        } else {
            memcpy(out, &d, 8);
        }
        return true;
    }
    unsigned bits = 8 * type_size(t);
    uint64_t x;
    if (t >= T_I8) {
        int64_t lim = bits == 64 ? INT64_MAX : (INT64_C(1) << (bits - 1)) - 1, i;
        if (!cli_parse_i64(v, -lim - 1, lim, &i)) return false;
        x = (uint64_t)i;
    } else if (!cli_parse_u64(v, 0, bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1, &x)) {
        return false;
    }
    memcpy(out, &x, 8);   /* little-endian: the low bytes are the value */
    return true;
}

/* "umbra run: MESSAGE" on stderr, printed whole; returns NULL for the callers' failure paths. */
__attribute__((format(printf, 1, 2))) static void *run_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("umbra run: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return NULL;
}

static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) { free(buf); fclose(f); return NULL; }
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    fclose(f);
    *size = n;
    return buf;
}

/* buf:... -> host bytes. */
static uint8_t *make_buffer(const char *spec, size_t *bytes)
{
    const char *b = spec + 4;
    if (!strncmp(b, "zeros:", 6)) {
        uint64_t n;
        if (!cli_parse_u64(b + 6, 1, 1ull << 32, &n)) return run_error("bad size in '%s' (1 to 2^32 bytes)", spec);
        *bytes = n;
        uint8_t *p = calloc(1, n);
        return p ? p : run_error("out of memory for '%s'", spec);
    }
    bool iota = !strncmp(b, "iota:", 5), fill = !strncmp(b, "fill:", 5), rnd = !strncmp(b, "rand:", 5);
    if (iota || fill || rnd) {
        const char *ty = b + 5, *c1 = strchr(ty, ':');
        if (!c1) return run_error("'%s': expected TYPE:COUNT", spec);
        vtype t = parse_type(ty, (size_t)(c1 - ty));
        if (t == T_BAD || (rnd && t != T_U32)) return run_error("'%s': bad type", spec);
        const char *c2 = strchr(c1 + 1, ':');   /* before the fill value or the seed */
        char count_text[32];
        size_t clen = c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1);
        uint64_t count;
        if (clen >= sizeof count_text || (iota && c2)) return run_error("'%s': bad count", spec);
        memcpy(count_text, c1 + 1, clen);
        count_text[clen] = '\0';
        if (!cli_parse_u64(count_text, 1, 1ull << 30, &count)) return run_error("'%s': bad count (1 to 2^30)", spec);
        uint8_t fv[8] = { 0 };
        uint64_t seed = 0x2545f4914f6cdd1dull, user_seed;
        if (fill && (!c2 || !encode_value(t, c2 + 1, fv))) return run_error("'%s': bad fill value", spec);
        if (rnd && c2) {
            if (!cli_parse_u64(c2 + 1, 0, UINT64_MAX, &user_seed)) return run_error("'%s': bad seed", spec);
            seed ^= user_seed;
        }
        uint32_t es = type_size(t);
        *bytes = count * es;
        uint8_t *p = calloc(1, *bytes);
        if (!p) return run_error("out of memory for '%s'", spec);
        for (uint64_t i = 0; i < count; i++) {
            uint8_t v[8];
            if (fill) memcpy(v, fv, 8);
            else if (rnd) {
                seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
                uint32_t r = (uint32_t)(seed >> 16);
                memcpy(v, &r, 4);
            } else if (t == T_F32) {
                float f = (float)i;
                memcpy(v, &f, 4);
            } else if (t == T_F64) {
                double d = (double)i;
                memcpy(v, &d, 8);
            } else {
                memcpy(v, &i, 8);
            }
            memcpy(p + i * es, v, es);
        }
        return p;
    }
    uint8_t *p = read_file(b, bytes);
    if (!p) return run_error("cannot read '%s': %s", b, strerror(errno));
    if (*bytes == 0) return free(p), run_error("'%s' is empty", b);
    return p;
}

/* One --arg SPEC; hex: values may be as large as the kernel's argument segment. */
static bool parse_arg(run_arg *a, uint32_t kernarg_segment_size)
{
    const char *s = a->spec, *colon = strchr(s, ':');
    if (!colon) return run_error("argument '%s': expected KIND:VALUE", s), false;
    if (!strncmp(s, "buf:", 4)) return a->is_buf = true;
    if (!strncmp(s, "local:", 6)) {
        if (!cli_parse_u32(s + 6, 1, 65536, &a->size))
            return run_error("argument '%s': bad LDS size (1 to 65536 bytes)", s), false;
        a->is_local = true;
        return true;
    }
    if (!strncmp(s, "hex:", 4)) {   /* raw little-endian bytes, e.g. a float4 or a struct */
        size_t n;
        if (!cli_parse_hex_bytes(s + 4, kernarg_segment_size, &a->hex, &n))
            return run_error("argument '%s': hex: needs pairs of hex digits, at most %u bytes (the kernel's argument "
                             "segment)", s, kernarg_segment_size), false;
        a->size = (uint32_t)n;
        return true;
    }
    vtype t = parse_type(s, (size_t)(colon - s));
    if (t == T_BAD || !encode_value(t, colon + 1, a->scalar))
        return run_error("argument '%s': not a buf:, local:, hex: or TYPE:VALUE argument (a value of TYPE in range)",
                         s), false;
    a->size = type_size(t);
    return true;
}

static bool bad_run_value(const char *opt, const char *value)
{
    fprintf(stderr, "umbra run: bad value '%s' for %s\n", value, opt);
    return false;
}

static bool parse_run_opts(int argc, char **argv, run_opts *o)
{
    o->dim = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { run_usage(stdout); exit(0); }
        else if (!strcmp(a, "--kernel") && more) o->kernel = argv[++i];
        else if (!strcmp(a, "--global") && more) {
            if (!parse_dims(argv[++i], o->global, &o->dim, 1, 1, UINT32_MAX))
                return fprintf(stderr, "umbra run: bad --global '%s'\n", argv[i]), false;
        } else if (!strcmp(a, "--local") && more) {
            uint64_t l[3];
            if (!parse_dims(argv[++i], l, NULL, 1, 1, 1024))
                return fprintf(stderr, "umbra run: bad --local '%s'\n", argv[i]), false;
            for (int d = 0; d < 3; d++) o->local[d] = (uint32_t)l[d];
        } else if (!strcmp(a, "--offset") && more) {
            if (!parse_dims(argv[++i], o->offset, NULL, 0, 0, UINT32_MAX))
                return fprintf(stderr, "umbra run: bad --offset '%s'\n", argv[i]), false;
        } else if (!strcmp(a, "--arg") && more) {
            if (o->nargs == MAX_RUN_ARGS) return fprintf(stderr, "umbra run: too many --arg\n"), false;
            o->args[o->nargs++].spec = argv[++i];
        } else if ((!strcmp(a, "--out") || !strcmp(a, "--print")) && more) {
            bool out = a[2] == 'o';
            uint32_t *n = out ? &o->nouts : &o->nprints;
            if (*n == MAX_RUN_ARGS) return fprintf(stderr, "umbra run: more than %d %s\n", MAX_RUN_ARGS, a), false;
            (out ? o->outs : o->prints)[(*n)++] = argv[++i];
        }
        else if (!strcmp(a, "--stats") && more) o->stats_path = argv[++i];
        else if (!strcmp(a, "--report") && more) o->report_path = argv[++i], o->profile_pcs = true;
        else if (!strcmp(a, "--profile-pcs")) o->profile_pcs = true;
        else if (!strcmp(a, "--trace") && more) o->trace_path = argv[++i];
        else if (!strcmp(a, "--max-instructions") && more) {
            if (!cli_parse_u64(argv[++i], 1, UINT64_MAX, &o->max_insts)) return bad_run_value(a, argv[i]);
        } else if (!strcmp(a, "--printf-buffer") && more) {   /* the runtime checks its own limits */
            if (!cli_parse_u64(argv[++i], 1, UINT64_MAX, &o->printf_buffer)) return bad_run_value(a, argv[i]);
        } else if (!strcmp(a, "--stall-limit") && more) {
            if (!cli_parse_u64(argv[++i], 1, UINT64_MAX, &o->stall_limit)) return bad_run_value(a, argv[i]);
        } else if (!strcmp(a, "--threads") && more) {
            if (!cli_parse_u32(argv[++i], 1, CLI_MAX_THREADS, &o->threads)) return bad_run_value(a, argv[i]);
        } else if (!strcmp(a, "--cus") && more) {
            if (!cli_parse_u32(argv[++i], 1, 1024, &o->cus)) return bad_run_value(a, argv[i]);
        } else if (!strcmp(a, "--alignment-mode") && more) {
            uint32_t m;
            if (!cli_parse_u32(argv[++i], 0, 3, &m)) return bad_run_value(a, argv[i]);
            o->alignment_mode = m ? m : UMB_RDNA3_ALIGN_DWORD;
        } else if (!strcmp(a, "--check-waitcnt")) o->check_waitcnt = true;
        else if (!strcmp(a, "--cooperative")) o->cooperative = true;
        else if ((!strcmp(a, "--jit") && more) || !strncmp(a, "--jit=", 6)) {
            const char *v = a[5] == '=' ? a + 6 : argv[++i];
            int m = umb_rdna3_jit_mode(v);
            if (m < 0) return bad_run_value("--jit", v);
            o->jit = (uint32_t)m;
        } else if (!strcmp(a, "--jit-log")) o->jit_log = true;
        else if ((!strcmp(a, "--jit-cache") && more) || !strncmp(a, "--jit-cache=", 12))
            o->jit_cache = a[11] == '=' ? a + 12 : argv[++i];
        else if (!strcmp(a, "--align-dword")) o->alignment_mode = UMB_RDNA3_ALIGN_DWORD;
        else if (cli_timing_option(&o->timing, argc, argv, &i)) continue;
        else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) o->quiet = true;
        else if (a[0] != '-' && !o->co) o->co = a;
        else return fprintf(stderr, "umbra run: unknown or incomplete option '%s'\n", a), false;
    }
    if (!o->co || !o->kernel || !o->dim) {
        run_usage(stderr);
        return false;
    }
    return true;
}

/* Parse "N:REST" of --out/--print; N must name a buffer argument. */
static run_arg *buffer_ref(run_opts *o, const char *s, const char **rest)
{
    const char *colon = strchr(s, ':');
    char index[16] = "";
    size_t len = colon ? (size_t)(colon - s) : 0;
    uint32_t n = 0;
    bool fits = len > 0 && len < sizeof index;
    if (fits) memcpy(index, s, len);
    if (!fits || !cli_parse_u32(index, 0, MAX_RUN_ARGS - 1, &n) || n >= o->nargs || !o->args[n].is_buf) {
        fprintf(stderr, "umbra run: '%s' does not name a buffer argument (N:... with N counted from 0)\n", s);
        return NULL;
    }
    *rest = colon + 1;
    return &o->args[n];
}

static bool write_outputs(umb_device *dev, run_opts *o)
{
    for (uint32_t i = 0; i < o->nouts; i++) {
        const char *path;
        run_arg *a = buffer_ref(o, o->outs[i], &path);
        if (!a) return false;
        uint8_t *buf = malloc(a->bytes);
        FILE *f = buf ? fopen(path, "wb") : NULL;
        bool ok = f && !umb_mem_copy_from_device(dev, a->addr, buf, a->bytes) && fwrite(buf, 1, a->bytes, f) == a->bytes;
        if (f && fclose(f)) ok = false;
        free(buf);
        if (!ok) return fprintf(stderr, "umbra run: cannot write %s: %s\n", path, strerror(errno)), false;
    }
    for (uint32_t i = 0; i < o->nprints; i++) {
        const char *rest;
        run_arg *a = buffer_ref(o, o->prints[i], &rest);
        if (!a) return false;
        const char *c = strchr(rest, ':');
        vtype t = parse_type(rest, c ? (size_t)(c - rest) : strlen(rest));
        if (t == T_BAD) return fprintf(stderr, "umbra run: --print '%s': bad type\n", o->prints[i]), false;
        uint64_t es = type_size(t), count = a->bytes / es, want;
        if (c && !cli_parse_u64(c + 1, 0, UINT64_MAX, &want))
            return fprintf(stderr, "umbra run: --print '%s': bad count\n", o->prints[i]), false;
        if (c && want < count) count = want;
        uint8_t *buf = malloc(count * es + 8);
        if (!buf || umb_mem_copy_from_device(dev, a->addr, buf, count * es)) return free(buf), false;
        for (uint64_t k = 0; k < count; k++) {
            uint64_t u = 0;
            memcpy(&u, buf + k * es, es);
            switch (t) {
            case T_F32: { float f; memcpy(&f, &u, 4); printf("%.9g", f); break; }
            case T_F64: { double d; memcpy(&d, &u, 8); printf("%.17g", d); break; }
            case T_I8: printf("%d", (int8_t)u); break;
            case T_I16: printf("%d", (int16_t)u); break;
            case T_I32: printf("%" PRId32, (int32_t)u); break;
            case T_I64: printf("%" PRId64, (int64_t)u); break;
            default: printf("%" PRIu64, u); break;
            }
            putchar(k + 1 == count ? '\n' : ' ');
        }
        free(buf);
    }
    return true;
}

/* ---- statistics JSON (docs/REPORT.md): header, kernel, grid, profile, then the counters ---- */

static void json_dims(FILE *f, const char *key, const uint64_t *v, uint32_t dim)
{
    fprintf(f, "\"%s\": [", key);
    for (uint32_t i = 0; i < dim; i++) fprintf(f, "%s%" PRIu64, i ? ", " : "", v[i]);
    fputc(']', f);
}

static void json_kernel_and_grid(FILE *f, const umb_rdna3_program *p, const umb_rdna3_kernel_info *ki, const run_opts *o)
{
    fprintf(f, ",\n  \"kernel\": {\"name\": ");
    cli_json_string(f, ki->name);
    fprintf(f, ", \"code_object\": ");
    cli_json_string(f, o->co);
    fprintf(f, ", \"target\": ");
    cli_json_string(f, umb_rdna3_program_target(p));
    fprintf(f, ", \"wavefront_size\": %u, \"sgprs\": %u, \"vgprs\": %u, \"lds_bytes\": %u, "
               "\"scratch_bytes_per_lane\": %u, \"code_bytes\": %" PRIu64 "}",
            ki->wavefront_size, ki->sgpr_count, ki->vgpr_count, ki->group_segment_fixed_size,
            ki->private_segment_fixed_size, ki->code_size);
    uint64_t local[3] = { o->local[0], o->local[1], o->local[2] }, groups[3];
    bool chosen = !local[0] && !local[1] && !local[2];
    fprintf(f, ",\n  \"grid\": {\"work_dim\": %u, ", o->dim);
    json_dims(f, "global_size", o->global, o->dim);
    fprintf(f, ", ");
    if (chosen) {
        fprintf(f, "\"local_size\": null");   /* umbra chose it */
    } else {
        json_dims(f, "local_size", local, o->dim);
        for (uint32_t i = 0; i < 3; i++) groups[i] = local[i] ? (o->global[i] + local[i] - 1) / local[i] : 1;
        fprintf(f, ", ");
        json_dims(f, "workgroups", groups, o->dim);
    }
    fprintf(f, ", ");
    json_dims(f, "global_offset", o->offset, o->dim);
    fprintf(f, "}");
}

/* Every executed instruction in address order: PC, issues, disassembly. */
static void json_pc_profile(FILE *f, const umb_rdna3_program *p, const uint64_t *counts)
{
    uint64_t words = umb_rdna3_program_code_words(p), total = 0;
    for (uint64_t i = 0; i < words; i++) total += counts[i];
    fprintf(f, ",\n  \"pc_profile\": {\"total\": %" PRIu64 ", \"instructions\": [", total);
    bool first = true;
    for (uint64_t i = 0; i < words; i++) {
        if (!counts[i]) continue;
        char dis[256];
        umb_rdna3_program_disasm_at(p, i * 4, dis, sizeof dis);
        fprintf(f, "%s\n    {\"pc\": \"0x%" PRIx64 "\", \"offset\": %" PRIu64 ", \"count\": %" PRIu64 ", \"disasm\": ",
                first ? "" : ",", umb_rdna3_program_base(p) + i * 4, i * 4, counts[i]);
        cli_json_string(f, dis);
        fputc('}', f);
        first = false;
    }
    fprintf(f, "\n  ]}");
}

static void json_run_document(FILE *f, umb_device *dev, const umb_rdna3_program *p, const umb_rdna3_kernel_info *ki,
                              const run_opts *o, const umb_stats *stats, const uint64_t *counts)
{
    fprintf(f, "{\n");
    cli_json_run_header(f, "rdna3", umb_device_get_config(dev), o->argc, o->argv);
    json_kernel_and_grid(f, p, ki, o);
    if (counts) json_pc_profile(f, p, counts);
    if (o->timing.model) {   /* the timing model's figures (docs/TIMING.md), read by umbra report */
        fprintf(f, ",\n  \"timing\": ");
        umb_timing_write_json(o->timing.model, f, 2);
    }
    fprintf(f, ",\n");
    umb_stats_write_json_members(stats, f, 2);
    fprintf(f, "}\n");
}

/* --stats and --report; false after a message if one could not be written. */
static bool write_run_stats(umb_device *dev, const umb_rdna3_program *p, const umb_rdna3_kernel_info *ki,
                            const run_opts *o, const umb_stats *stats, const uint64_t *counts)
{
    if (!o->stats_path && !o->report_path) return true;
    char *doc = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&doc, &len);
    if (!m) return fprintf(stderr, "umbra run: out of memory\n"), false;
    json_run_document(m, dev, p, ki, o, stats, counts);
    fclose(m);
    bool ok = true;
    if (o->stats_path) {
        FILE *f = fopen(o->stats_path, "w");
        ok = f && fwrite(doc, 1, len, f) == len;
        if (f && fclose(f)) ok = false;
        if (!ok) fprintf(stderr, "umbra run: cannot write %s: %s\n", o->stats_path, strerror(errno));
    }
    if (o->report_path && cli_write_report(doc, len, o->stats_path ? o->stats_path : o->co, o->report_path, "umbra run"))
        ok = false;
    free(doc);
    return ok;
}

static int run_loaded(umb_device *dev, umb_rdna3_program *p, run_opts *o, FILE *trace)
{
    const umb_rdna3_kernel_info *ki = umb_rdna3_program_find_kernel(p, o->kernel);
    umb_guest_text_buf g;
    if (!ki) {
        fprintf(stderr, "umbra run: %s has no kernel '%s'; its kernels:", o->co, o->kernel);
        for (uint32_t i = 0; i < umb_rdna3_program_kernel_count(p); i++)
            fprintf(stderr, " %s", umb_guest_text(&g, umb_rdna3_program_kernel(p, i)->name));
        fputc('\n', stderr);
        return 1;
    }
    if (o->nargs != ki->nexplicit) {
        fprintf(stderr, "umbra run: kernel %s takes %u arguments, %u --arg given\n", umb_guest_text(&g, ki->name),
                ki->nexplicit, o->nargs);
        return 1;
    }
    umb_rdna3_arg args[MAX_RUN_ARGS];
    for (uint32_t i = 0; i < o->nargs; i++) {
        run_arg *a = &o->args[i];
        const umb_rdna3_arg_info *ai = &ki->args[i];
        if (!parse_arg(a, ki->kernarg_segment_size)) return 1;
        bool want_buf = ai->kind == UMB_RDNA3_ARG_GLOBAL_BUFFER, want_local = ai->kind == UMB_RDNA3_ARG_DYNAMIC_SHARED_POINTER;
        if (a->is_buf != want_buf || a->is_local != want_local || (!a->is_buf && !a->is_local && a->size != ai->size)) {
            fprintf(stderr, "umbra run: argument %u ('%s') does not fit the kernel's %s %s of %u bytes\n", i, a->spec,
                    umb_rdna3_value_kind_name(ai->kind), umb_guest_text(&g, ai->type_name), ai->size);
            return 1;
        }
        if (a->is_buf) {
            size_t bytes = 0;
            uint8_t *host = make_buffer(a->spec, &bytes);
            if (!host) return 1;
            umb_status st = umb_mem_alloc(dev, bytes, 4096, &a->addr);
            if (!st) st = umb_mem_copy_to_device(dev, a->addr, host, bytes);
            free(host);
            if (st) return fprintf(stderr, "umbra run: buffer '%s': %s\n", a->spec, umb_device_last_error(dev)), 1;
            a->bytes = bytes;
            memcpy(a->scalar, &a->addr, 8);
            a->size = 8;
        }
        args[i] = (umb_rdna3_arg){ .value = a->is_local ? NULL : a->hex ? a->hex : a->scalar, .size = a->size };
    }
    umb_rdna3_dispatch d = {
        .kernel = o->kernel, .work_dim = o->dim, .args = args, .nargs = o->nargs, .trace = trace,
        .check_waitcnt = o->check_waitcnt, .alignment_mode = o->alignment_mode,
        .printf_buffer_size = o->printf_buffer, .cooperative = o->cooperative,
        .jit = o->jit, .jit_log = o->jit_log ? stderr : NULL,
    };
    char jit_dir[4096];
    if (o->jit != UMB_RDNA3_JIT_OFF) {
        if (!o->jit_cache) d.jit_cache_dir = umb_cache_default_dir(jit_dir, sizeof jit_dir) ? jit_dir : NULL;
        else if (strcmp(o->jit_cache, "off")) d.jit_cache_dir = o->jit_cache;
    }
    for (int i = 0; i < 3; i++) d.global_size[i] = o->global[i], d.local_size[i] = o->local[i], d.global_offset[i] = o->offset[i];
    umb_stats stats = { 0 };
    uint64_t *counts = o->profile_pcs ? calloc(umb_rdna3_program_code_words(p) + 1, sizeof *counts) : NULL;
    if (o->profile_pcs && !counts) return fprintf(stderr, "umbra run: out of memory for --profile-pcs\n"), 1;
    d.pc_counts = counts;
    umb_status st = umb_rdna3_run(dev, p, &d, &stats);
    if (!o->quiet) umb_stats_write_text(&stats, stderr);
    if (!o->quiet) cli_timing_report(&o->timing, stderr);
    cli_timing_annotate(&o->timing, stdout);
    bool stats_ok = write_run_stats(dev, p, ki, o, &stats, counts);
    free(counts);
    if (st) {
        fprintf(stderr, "umbra run: %s: %s\n", umb_status_name(st), umb_device_last_error(dev));
        return 1;
    }
    return write_outputs(dev, o) && stats_ok ? 0 : 1;
}

int cmd_run(int argc, char **argv)
{
    run_opts *o = calloc(1, sizeof *o);
    if (!o) return 2;
    int rc = 2;
    umb_device *dev = NULL;
    umb_rdna3_program *p = NULL;
    FILE *trace = NULL;
    o->argc = argc, o->argv = argv;
    if (!parse_run_opts(argc, argv, o)) goto out;
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    if (o->max_insts) cfg.max_instructions = o->max_insts;
    if (o->stall_limit) cfg.stall_limit = o->stall_limit;
    if (o->threads) cfg.host_threads = o->threads;
    /* the RX 7900 XTX's 96 CUs unless told otherwise: as many workgroups resident as on it */
    cfg.compute_units = o->cus ? o->cus : 96;
    rc = 1;
    if (!cli_timing_start(&o->timing, &cfg, "umbra run")) goto out;
    if (umb_device_create(&cfg, &dev)) {
        fprintf(stderr, "umbra run: cannot create the device\n");
        goto out;
    }
    char err[UMB_CLI_ERROR_MAX];
    if (umb_rdna3_program_load_file(dev, o->co, &p, err, sizeof err)) {
        fprintf(stderr, "umbra run: %s\n", err);
        goto out;
    }
    if (o->trace_path) {
        trace = strcmp(o->trace_path, "-") ? fopen(o->trace_path, "w") : stdout;
        if (!trace) {
            fprintf(stderr, "umbra run: cannot write %s: %s\n", o->trace_path, strerror(errno));
            goto out;
        }
    }
    rc = run_loaded(dev, p, o, trace);
out:
    if (trace && trace != stdout) fclose(trace);
    umb_rdna3_program_destroy(p);
    if (dev) umb_device_destroy(dev);
    for (uint32_t i = 0; i < o->nargs; i++) free(o->args[i].hex);
    cli_timing_end(&o->timing);
    free(o);
    return rc;
}
