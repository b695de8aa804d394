/* umbra cc | run | disasm — the RDNA3 (gfx1100) commands, thin clients of umbra/rdna3.h. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "umbra/rdna3.h"
#include "umbra/umbra.h"

/* ---------------- umbra cc ---------------- */

static void cc_usage(FILE *f)
{
    fprintf(f, "usage: umbra cc KERNEL.cl -o KERNEL.co [-O0|-O1|-O2|-O3] [--wave64] [BUILD OPTIONS]...\n"
               "       umbra cc KERNEL.cl -o KERNEL.bc --bitcode [...]      (compile only, for a later link)\n"
               "       umbra cc A.bc B.bc ... -o KERNEL.co [...]            (link bitcode units)\n"
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

static void print_kernels(const umb_rdna3_program *p)
{
    printf("target %s\n", umb_rdna3_program_target(p));
    for (uint32_t i = 0; i < umb_rdna3_program_kernel_count(p); i++) {
        const umb_rdna3_kernel_info *k = umb_rdna3_program_kernel(p, i);
        printf("kernel %s: wave%u, entry 0x%" PRIx64 ", kernarg %u B, LDS %u B, scratch %u B/lane, sgprs %u, "
               "vgprs %u\n  rsrc1 0x%08x rsrc2 0x%08x rsrc3 0x%08x kcp 0x%04x (user SGPRs %u)\n",
               k->name, k->wavefront_size, k->entry_vaddr, k->kernarg_segment_size, k->group_segment_fixed_size,
               k->private_segment_fixed_size, k->sgpr_count, k->vgpr_count, k->kd.compute_pgm_rsrc1,
               k->kd.compute_pgm_rsrc2, k->kd.compute_pgm_rsrc3, k->kd.kernel_code_properties,
               (k->kd.compute_pgm_rsrc2 >> 1) & 31u);
        for (uint32_t a = 0; a < k->nargs; a++) {
            const umb_rdna3_arg_info *ai = &k->args[a];
            printf("  %s%u: offset %u size %u %s %s%s%s\n", a < k->nexplicit ? "arg " : "hidden ", a, ai->offset,
                   ai->size, umb_rdna3_value_kind_name(ai->kind), ai->type_name, ai->name[0] ? " " : "", ai->name);
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
    char err[1024];
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
    uint8_t value[256];             /* by-value bytes (hex: allows structs and vectors) */
    uint32_t size;
    bool is_buf, is_local;
    uint64_t addr, bytes;            /* buffers */
} run_arg;

typedef struct run_opts {
    const char *co, *kernel, *stats_path, *trace_path;
    uint32_t dim;
    uint64_t global[3], offset[3];
    uint32_t local[3];
    run_arg args[MAX_RUN_ARGS];
    uint32_t nargs;
    const char *outs[MAX_RUN_ARGS], *prints[MAX_RUN_ARGS];
    uint32_t nouts, nprints;
    uint64_t max_insts;
    uint32_t threads, cus;
    bool check_waitcnt, quiet, align_dword;
} run_opts;

static void run_usage(FILE *f)
{
    fprintf(f,
            "usage: umbra run KERNEL.co --kernel NAME --global X[,Y[,Z]] [--local X[,Y[,Z]]] [--offset X[,Y[,Z]]]\n"
            "                 --arg SPEC ... [--out N:FILE] [--print N:TYPE[:COUNT]] [--stats FILE.json]\n"
            "                 [--max-instructions N] [--trace FILE|-] [--check-waitcnt] [--threads N] [--cus N]\n"
            "                 [--align-dword] [--quiet]\n"
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
            "Statistics go to stderr (text) and to --stats as JSON.\n");
}

static bool parse_dims(const char *s, uint64_t out[3], uint32_t *dim, uint64_t unset)
{
    char *end;
    uint32_t n = 0;
    out[0] = out[1] = out[2] = unset;
    while (n < 3) {
        errno = 0;
        unsigned long long v = strtoull(s, &end, 0);
        if (end == s || errno) return false;
        out[n++] = v;
        if (*end == '\0') break;
        if (*end != ',' && *end != 'x') return false;
        s = end + 1;
    }
    if (*end) return false;
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
    char *end;
    errno = 0;
    memset(out, 0, 8);
    if (t == T_F32 || t == T_F64) {
        double d = strtod(v, &end);
        if (end == v || *end) return false;
        if (t == T_F32) {
            float f = (float)d;
            memcpy(out, &f, 4);
        } else {
            memcpy(out, &d, 8);
        }
        return true;
    }
    uint64_t x;
    if (t >= T_I8) x = (uint64_t)strtoll(v, &end, 0);
    else x = strtoull(v, &end, 0);
    if (end == v || *end || errno) return false;
    memcpy(out, &x, 8);   /* little-endian: the low bytes are the value */
    return true;
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
static uint8_t *make_buffer(const char *spec, size_t *bytes, char *err, size_t errlen)
{
    const char *b = spec + 4;
    if (!strncmp(b, "zeros:", 6)) {
        char *end;
        unsigned long long n = strtoull(b + 6, &end, 0);
        if (*end || !n || n > (1ull << 32)) return snprintf(err, errlen, "bad size in '%s'", spec), NULL;
        *bytes = n;
        uint8_t *p = calloc(1, n);
        if (!p) snprintf(err, errlen, "out of memory for '%s'", spec);
        return p;
    }
    bool iota = !strncmp(b, "iota:", 5), fill = !strncmp(b, "fill:", 5), rnd = !strncmp(b, "rand:", 5);
    if (iota || fill || rnd) {
        const char *ty = b + 5, *c1 = strchr(ty, ':');
        if (!c1) return snprintf(err, errlen, "'%s': expected TYPE:COUNT", spec), NULL;
        vtype t = parse_type(ty, (size_t)(c1 - ty));
        if (t == T_BAD || (rnd && t != T_U32)) return snprintf(err, errlen, "'%s': bad type", spec), NULL;
        char *end;
        unsigned long long count = strtoull(c1 + 1, &end, 0);
        if (!count || count > (1ull << 30) || (*end && *end != ':') || (iota && *end))
            return snprintf(err, errlen, "'%s': bad count", spec), NULL;
        uint8_t fv[8] = { 0 };
        uint64_t seed = 0x2545f4914f6cdd1dull;
        if (fill && (*end != ':' || !encode_value(t, end + 1, fv)))
            return snprintf(err, errlen, "'%s': bad fill value", spec), NULL;
        if (rnd && *end == ':') seed ^= strtoull(end + 1, NULL, 0);
        uint32_t es = type_size(t);
        *bytes = count * es;
        uint8_t *p = calloc(1, *bytes);
        if (!p) return snprintf(err, errlen, "out of memory for '%s'", spec), NULL;
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
    if (!p) snprintf(err, errlen, "cannot read '%s': %s", b, strerror(errno));
    else if (*bytes == 0) snprintf(err, errlen, "'%s' is empty", b), free(p), p = NULL;
    return p;
}

static bool parse_arg(run_arg *a, char *err, size_t errlen)
{
    const char *s = a->spec, *colon = strchr(s, ':');
    if (!colon) return snprintf(err, errlen, "argument '%s': expected KIND:VALUE", s), false;
    if (!strncmp(s, "buf:", 4)) return a->is_buf = true;
    if (!strncmp(s, "local:", 6)) {
        char *end;
        unsigned long n = strtoul(s + 6, &end, 0);
        if (*end || !n || n > 65536) return snprintf(err, errlen, "argument '%s': bad LDS size", s), false;
        a->is_local = true;
        a->size = (uint32_t)n;
        return true;
    }
    if (!strncmp(s, "hex:", 4)) {   /* raw little-endian bytes, e.g. a float4 or a struct */
        const char *h = s + 4;
        size_t n = strlen(h);
        if (!n || n % 2 || n / 2 > sizeof a->value)
            return snprintf(err, errlen, "argument '%s': hex: needs an even number of digits (at most %zu bytes)", s,
                            sizeof a->value), false;
        for (size_t i = 0; i < n / 2; i++) {
            unsigned b;
            if (sscanf(h + 2 * i, "%2x", &b) != 1) return snprintf(err, errlen, "argument '%s': bad hex digits", s), false;
            a->value[i] = (uint8_t)b;
        }
        a->size = (uint32_t)(n / 2);
        return true;
    }
    vtype t = parse_type(s, (size_t)(colon - s));
    if (t == T_BAD || !encode_value(t, colon + 1, a->value))
        return snprintf(err, errlen, "argument '%s': not a buf:, local:, hex: or TYPE:VALUE argument", s), false;
    a->size = type_size(t);
    return true;
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
            if (!parse_dims(argv[++i], o->global, &o->dim, 1)) return fprintf(stderr, "umbra run: bad --global '%s'\n", argv[i]), false;
        } else if (!strcmp(a, "--local") && more) {
            uint64_t l[3];
            if (!parse_dims(argv[++i], l, NULL, 1) || l[0] > 1024 || l[1] > 1024 || l[2] > 1024)
                return fprintf(stderr, "umbra run: bad --local '%s'\n", argv[i]), false;
            for (int d = 0; d < 3; d++) o->local[d] = (uint32_t)l[d];
        } else if (!strcmp(a, "--offset") && more) {
            if (!parse_dims(argv[++i], o->offset, NULL, 0)) return fprintf(stderr, "umbra run: bad --offset '%s'\n", argv[i]), false;
        } else if (!strcmp(a, "--arg") && more) {
            if (o->nargs == MAX_RUN_ARGS) return fprintf(stderr, "umbra run: too many --arg\n"), false;
            o->args[o->nargs++].spec = argv[++i];
        } else if (!strcmp(a, "--out") && more) o->outs[o->nouts++] = argv[++i];
        else if (!strcmp(a, "--print") && more) o->prints[o->nprints++] = argv[++i];
        else if (!strcmp(a, "--stats") && more) o->stats_path = argv[++i];
        else if (!strcmp(a, "--trace") && more) o->trace_path = argv[++i];
        else if (!strcmp(a, "--max-instructions") && more) o->max_insts = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--threads") && more) o->threads = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(a, "--cus") && more) o->cus = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(a, "--check-waitcnt")) o->check_waitcnt = true;
        else if (!strcmp(a, "--align-dword")) o->align_dword = true;
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
    char *end;
    unsigned long n = strtoul(s, &end, 10);
    if (end == s || *end != ':' || n >= o->nargs || !o->args[n].is_buf) {
        fprintf(stderr, "umbra run: '%s' does not name a buffer argument (N:... with N counted from 0)\n", s);
        return NULL;
    }
    *rest = end + 1;
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
        uint64_t es = type_size(t), count = a->bytes / es;
        if (c) count = strtoull(c + 1, NULL, 0) < count ? strtoull(c + 1, NULL, 0) : count;
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

static int run_loaded(umb_device *dev, umb_rdna3_program *p, run_opts *o, FILE *trace)
{
    const umb_rdna3_kernel_info *ki = umb_rdna3_program_find_kernel(p, o->kernel);
    if (!ki) {
        fprintf(stderr, "umbra run: %s has no kernel '%s'; its kernels:", o->co, o->kernel);
        for (uint32_t i = 0; i < umb_rdna3_program_kernel_count(p); i++)
            fprintf(stderr, " %s", umb_rdna3_program_kernel(p, i)->name);
        fputc('\n', stderr);
        return 1;
    }
    if (o->nargs != ki->nexplicit) {
        fprintf(stderr, "umbra run: kernel %s takes %u arguments, %u --arg given\n", ki->name, ki->nexplicit, o->nargs);
        return 1;
    }
    umb_rdna3_arg args[MAX_RUN_ARGS];
    char err[512];
    for (uint32_t i = 0; i < o->nargs; i++) {
        run_arg *a = &o->args[i];
        const umb_rdna3_arg_info *ai = &ki->args[i];
        if (!parse_arg(a, err, sizeof err)) return fprintf(stderr, "umbra run: %s\n", err), 1;
        bool want_buf = ai->kind == UMB_RDNA3_ARG_GLOBAL_BUFFER, want_local = ai->kind == UMB_RDNA3_ARG_DYNAMIC_SHARED_POINTER;
        if (a->is_buf != want_buf || a->is_local != want_local || (!a->is_buf && !a->is_local && a->size != ai->size)) {
            fprintf(stderr, "umbra run: argument %u ('%s') does not fit the kernel's %s %s of %u bytes\n", i, a->spec,
                    umb_rdna3_value_kind_name(ai->kind), ai->type_name, ai->size);
            return 1;
        }
        if (a->is_buf) {
            size_t bytes = 0;
            uint8_t *host = make_buffer(a->spec, &bytes, err, sizeof err);
            if (!host) return fprintf(stderr, "umbra run: %s\n", err), 1;
            umb_status st = umb_mem_alloc(dev, bytes, 4096, &a->addr);
            if (!st) st = umb_mem_copy_to_device(dev, a->addr, host, bytes);
            free(host);
            if (st) return fprintf(stderr, "umbra run: buffer '%s': %s\n", a->spec, umb_device_last_error(dev)), 1;
            a->bytes = bytes;
            memcpy(a->value, &a->addr, 8);
            a->size = 8;
        }
        args[i] = (umb_rdna3_arg){ .value = a->is_local ? NULL : a->value, .size = a->size };
    }
    umb_rdna3_dispatch d = {
        .kernel = o->kernel, .work_dim = o->dim, .args = args, .nargs = o->nargs, .trace = trace,
        .check_waitcnt = o->check_waitcnt, .alignment_mode = o->align_dword ? UMB_RDNA3_ALIGN_DWORD : 0,
    };
    for (int i = 0; i < 3; i++) d.global_size[i] = o->global[i], d.local_size[i] = o->local[i], d.global_offset[i] = o->offset[i];
    umb_stats stats = { 0 };
    umb_status st = umb_rdna3_run(dev, p, &d, &stats);
    if (!o->quiet) umb_stats_write_text(&stats, stderr);
    if (o->stats_path) {
        FILE *f = fopen(o->stats_path, "w");
        if (!f) fprintf(stderr, "umbra run: cannot write %s: %s\n", o->stats_path, strerror(errno));
        else {
            umb_stats_write_json(&stats, f, 2);
            fputc('\n', f);
            fclose(f);
        }
    }
    if (st) {
        fprintf(stderr, "umbra run: %s: %s\n", umb_status_name(st), umb_device_last_error(dev));
        return 1;
    }
    return write_outputs(dev, o) ? 0 : 1;
}

int cmd_run(int argc, char **argv)
{
    run_opts *o = calloc(1, sizeof *o);
    if (!o) return 2;
    int rc = 2;
    umb_device *dev = NULL;
    umb_rdna3_program *p = NULL;
    FILE *trace = NULL;
    if (!parse_run_opts(argc, argv, o)) goto out;
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    if (o->max_insts) cfg.max_instructions = o->max_insts;
    if (o->threads) cfg.host_threads = o->threads;
    if (o->cus) cfg.compute_units = o->cus;
    else if (o->threads) cfg.compute_units = o->threads;
    rc = 1;
    if (umb_device_create(&cfg, &dev)) {
        fprintf(stderr, "umbra run: cannot create the device\n");
        goto out;
    }
    char err[1024];
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
    free(o);
    return rc;
}
