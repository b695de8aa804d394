/* umbra ventus — run Ventus test directories and ELF kernels, disassemble Ventus ELFs.
 *
 *   umbra ventus run DIR [options]           every launch of a test directory, in driver order
 *   umbra ventus run-elf FILE --entry SYM|ADDR [options]   one kernel of an ELF, set up here
 *   umbra ventus disasm FILE.riscv           the listing llvm-objdump-19 -d prints
 *
 * A thin client of libumbra: the loaders (src/loader) prepare memory, umb_ventus_run executes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_args.h"
#include "timing_opts.h"
#include "core/core.h"
#include "loader/elf.h"
#include "loader/ventus_launch.h"
#include "umbra/umbra.h"
#include "umbra/ventus.h"

/* Exit statuses: 0 success, 1 the program or its input failed, 2 bad command line. */
enum { EXIT_RUN_FAILED = 1, EXIT_USAGE = 2 };

/* ---- options ---- */

typedef struct dump_range { char *what; uint64_t len; } dump_range;

typedef struct vt_opts {
    const char *input;          /* DIR or FILE */
    const char *dump, *stats, *trace, *report;
    bool profile_pcs;           /* --profile-pcs or --report: per-PC issue counts */
    int argc;                   /* the command line, for the statistics' header */
    char **argv;
    uint64_t max_insts;
    uint32_t host_threads;
    bool quiet;
    /* run-elf */
    const char *entry;
    uint32_t warps, lanes, grid[3];
    uint64_t lds, pds;
    dump_range ranges[64];
    uint32_t nranges;
    cli_timing timing;          /* --timing, --machine, --timeline, --issue-trace, --annotate (timing_opts.c) */
} vt_opts;

static void usage_run(FILE *o)
{
    fprintf(o,
        "usage: umbra ventus run DIR [options]\n"
        "  Runs every launch of a Ventus test directory (<launch>.metadata/.data, object.riscv)\n"
        "  in the order the driver ran them (pocl.log), in one memory image.\n"
        "options:\n"
        "  --dump FILE              write the final contents of every buffer the metadata lists\n"
        "                           (its size bytes, and the written pages of the rest of its\n"
        "                           allocsize) and of the ELF's segments: '0xADDRESS 0xWORD' lines\n"
        "  --stats FILE.json        statistics per launch and in total, as JSON\n"
        "  --report FILE.html       the statistics as an HTML page with charts (umbra report)\n"
        "  --profile-pcs            per-PC issue counts in --stats (--report implies it)\n"
        "  --trace PATH             commit trace in the golden model's .log format; PATH may be a\n"
        "                           directory (one <launch>.log each) or contain %%s (launch name)\n"
        "  --max-instructions N     stop a launch after N warp-instructions (runaway kernels)\n"
        "  --threads N              host threads running workgroups in parallel\n"
        "  --quiet                  print nothing but errors\n"
        "  --timing [--machine FILE|NAME] [--timeline FILE.json] [--issue-trace FILE] [--annotate N]\n"
        "                           run on the timing model (default machine: ventus); cycles and\n"
        "                           their breakdown on stdout and in --stats (docs/TIMING.md)\n"
        "\n"
        "usage: umbra ventus run-elf FILE --entry SYMBOL|ADDR [options]\n"
        "  Runs one kernel of a Ventus ELF (for hand-written assembly): PT_LOAD segments loaded,\n"
        "  a kernel metadata block at 0x90000000 and private memory after it.\n"
        "  --warps N  --lanes N  --workgroups X[,Y[,Z]]  --lds BYTES  --pds BYTES-PER-THREAD\n"
        "  --dump FILE --dump-range SYMBOL|ADDR:LEN (repeatable)  --trace FILE  --stats FILE.json\n"
        "  --report FILE.html  --profile-pcs\n"
        "  --max-instructions N  --threads N  --quiet\n"
        "\n"
        "usage: umbra ventus disasm FILE.riscv\n");
}

static bool parse_u64(const char *s, uint64_t *out) { return cli_parse_u64(s, 0, UINT64_MAX, out); }

/* --workgroups X[,Y[,Z]]: each 1 .. 2^32-1, no empty part. */
static bool parse_grid(const char *s, uint32_t grid[3])
{
    for (int d = 0;; d++) {
        char part[24];
        size_t len = strcspn(s, ",");
        if (d > 2 || len >= sizeof part) return false;
        memcpy(part, s, len);
        part[len] = '\0';
        if (!cli_parse_u32(part, 1, UINT32_MAX, &grid[d])) return false;
        if (!s[len]) return true;
        s += len + 1;
    }
}

static int bad_value(const char *opt, const char *val)
{
    fprintf(stderr, "umbra ventus: bad value '%s' for %s\n", val ? val : "(missing)", opt);
    return EXIT_USAGE;
}

/* Parse the options common to run and run-elf; returns 0 or an exit status. */
static int parse_opts(int argc, char **argv, vt_opts *o, bool elf_mode)
{
    memset(o, 0, sizeof *o);
    o->argc = argc, o->argv = argv;
    o->warps = 1, o->lanes = 8;
    o->grid[0] = o->grid[1] = o->grid[2] = 1;
    o->lds = 0x1000, o->pds = 0x1000;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage_run(stdout); exit(0); }
        else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) o->quiet = true;
        else if (!strcmp(a, "--dump") && v) o->dump = v, i++;
        else if (!strcmp(a, "--stats") && v) o->stats = v, i++;
        else if (!strcmp(a, "--report") && v) o->report = v, o->profile_pcs = true, i++;
        else if (!strcmp(a, "--profile-pcs")) o->profile_pcs = true;
        else if (!strcmp(a, "--trace") && v) o->trace = v, i++;
        else if (!strcmp(a, "--max-instructions")) {
            if (!parse_u64(v, &o->max_insts) || o->max_insts == 0) return bad_value(a, v);
            i++;
        } else if (!strcmp(a, "--threads")) {
            if (!cli_parse_u32(v, 1, CLI_MAX_THREADS, &o->host_threads)) return bad_value(a, v);
            i++;
        } else if (elf_mode && !strcmp(a, "--entry") && v) o->entry = v, i++;
        else if (elf_mode && (!strcmp(a, "--warps") || !strcmp(a, "--lanes"))) {
            if (!parse_u64(v, &n) || n == 0 || n > 1024) return bad_value(a, v);
            if (a[2] == 'w') o->warps = (uint32_t)n; else o->lanes = (uint32_t)n;
            i++;
        } else if (elf_mode && !strcmp(a, "--workgroups") && v) {
            if (!parse_grid(v, o->grid)) return bad_value(a, v);
            i++;
        } else if (elf_mode && (!strcmp(a, "--lds") || !strcmp(a, "--pds"))) {
            if (!parse_u64(v, &n) || n > (1u << 28)) return bad_value(a, v);
            if (a[2] == 'l') o->lds = n; else o->pds = n;
            i++;
        } else if (elf_mode && !strcmp(a, "--dump-range") && v) {
            const char *colon = strrchr(v, ':');
            if (!colon || !parse_u64(colon + 1, &n) || n == 0 || o->nranges == 64) return bad_value(a, v);
            o->ranges[o->nranges].what = strndup(v, (size_t)(colon - v));
            o->ranges[o->nranges++].len = n;
            i++;
        } else if (cli_timing_option(&o->timing, argc, argv, &i)) {
            if (!o->timing.machine) o->timing.machine = "ventus";
        } else if (a[0] == '-') {
            fprintf(stderr, "umbra ventus: unknown option or missing value: %s\n", a);
            return EXIT_USAGE;
        } else if (!o->input) o->input = a;
        else {
            fprintf(stderr, "umbra ventus: unexpected argument '%s'\n", a);
            return EXIT_USAGE;
        }
    }
    if (!o->input) {
        fprintf(stderr, "umbra ventus: missing %s\n\n", elf_mode ? "FILE" : "DIR");
        usage_run(stderr);
        return EXIT_USAGE;
    }
    if (elf_mode && !o->entry) {
        fprintf(stderr, "umbra ventus run-elf: --entry SYMBOL|ADDR is required\n");
        return EXIT_USAGE;
    }
    return 0;
}

static void free_opts(vt_opts *o)
{
    for (uint32_t i = 0; i < o->nranges; i++) free(o->ranges[i].what);
    cli_timing_end(&o->timing);
}

static umb_status make_device(vt_opts *o, umb_device **dev)
{
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    if (!cli_timing_start(&o->timing, &cfg, "umbra ventus")) return UMB_ERR_INVALID;
    if (o->max_insts) cfg.max_instructions = o->max_insts;
    if (o->host_threads) cfg.host_threads = o->host_threads;
    if (o->timing.model) cfg.host_threads = 1;
    if (o->trace && cfg.host_threads > 1) {
        /* a commit trace is one sequence, in the golden model's order: one host thread */
        if (!o->quiet) fprintf(stderr, "umbra ventus: --trace: running on 1 host thread\n");
        cfg.host_threads = 1;
    }
    cfg.progress = !o->quiet;
    umb_status st = umb_device_create(&cfg, dev);
    if (st != UMB_OK) fprintf(stderr, "umbra ventus: cannot create the device: %s\n", umb_status_name(st));
    return st;
}

/* ---- memory dump ---- */

typedef struct range { uint64_t lo, hi; } range;

static int cmp_range(const void *a, const void *b)
{
    const range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Write every mapped 32-bit word of the union of the ranges, sorted, as "0xADDRESS 0xWORD". Only
 * mapped pages are visited, so a range may be as large as the address space. */
static int write_dump(umb_device *dev, range *r, size_t n, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "umbra ventus: cannot write %s: %s\n", path, strerror(errno));
        return EXIT_RUN_FAILED;
    }
    /* Ends are exclusive and clamped to the last word's address: an end past it cannot be
     * represented, so that one word of the address space is never dumped. */
    const uint64_t top = ~(uint64_t)3;
    for (size_t i = 0; i < n; i++) {
        r[i].lo &= ~(uint64_t)3;
        r[i].hi = r[i].hi > top ? top : (r[i].hi + 3) & ~(uint64_t)3;
    }
    qsort(r, n, sizeof *r, cmp_range);
    const umb_mem *m = umb_device_memory(dev);
    uint64_t done = 0;          /* everything below this was written */
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        uint64_t a = any && r[i].lo < done ? done : r[i].lo, page;
        while (a < r[i].hi && umb_mem_next_mapped(m, a, r[i].hi, &page)) {
            if (a < page) a = page;
            uint64_t page_end = page + UMB_PAGE_SIZE;   /* 0 for the last page of the address space */
            uint64_t stop = page_end && page_end < r[i].hi ? page_end : r[i].hi;
            for (; a < stop; a += 4) {
                uint32_t w;
                if (umb_mem_copy_from_device(dev, a, &w, 4) == UMB_OK)
                    fprintf(f, "0x%08" PRIx64 " 0x%08" PRIx32 "\n", a, w);
            }
        }
        if (!any || r[i].hi > done) done = r[i].hi;
        any = true;
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "umbra ventus: cannot write %s: %s\n", path, strerror(errno));
        return EXIT_RUN_FAILED;
    }
    return 0;
}

/* A growable list of address ranges. */
typedef struct range_list { range *r; size_t n, cap; bool oom; } range_list;

static void add_range(range_list *l, uint64_t lo, uint64_t hi)
{
    if (l->oom || hi <= lo) return;
    if (l->n > 0 && l->r[l->n - 1].hi == lo) { l->r[l->n - 1].hi = hi; return; } /* extend */
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        range *nr = realloc(l->r, cap * sizeof *nr);
        if (!nr) { l->oom = true; return; }
        l->r = nr, l->cap = cap;
    }
    l->r[l->n++] = (range){lo, hi};
}

/* The pages of [lo, hi) that hold data of their own (written by the host or the kernels);
 * mapped pages that were never written read as zeros and are left out of the dump. */
static void add_written_pages(range_list *l, umb_mem *m, uint64_t lo, uint64_t hi)
{
    for (uint64_t p = lo & ~(uint64_t)UMB_PAGE_MASK; p < hi; p += UMB_PAGE_SIZE) {
        const void *leaf = umb_mem_leaf(m, p);
        if (leaf && leaf != (const void *)umb_zero_page)
            add_range(l, p < lo ? lo : p, p + UMB_PAGE_SIZE < hi ? p + UMB_PAGE_SIZE : hi);
    }
}

/* The dump of a test directory: every buffer of every launch's metadata — its size bytes (what
 * the host copied and reads back), and the written pages of the rest of its allocsize (the
 * private-memory buffer has size 0 and the code window's allocsize is 256 MiB, so only what was
 * really stored there: spills, the crt's globals) — and the ELF's PT_LOAD segments. */
static int dump_program(umb_device *dev, const umb_vt_program *p, const char *path)
{
    range_list l = {0};
    umb_mem *m = umb_device_memory(dev);
    for (uint32_t i = 0; i < p->nlaunches; i++) {
        const umb_vt_launch_file *lf = &p->launches[i];
        for (uint32_t b = 0; b < lf->nbuf; b++) {
            const umb_vt_buffer *buf = &lf->bufs[b];
            add_range(&l, buf->base, buf->base + buf->size);
            add_written_pages(&l, m, buf->base + buf->size, buf->base + buf->allocsize);
        }
    }
    umb_elf e;
    if (p->elf_path && umb_elf_open_file(&e, p->elf_path) == UMB_OK) {
        for (uint32_t i = 0; i < e.phnum; i++)
            if (e.phdrs[i].type == UMB_PT_LOAD)
                add_range(&l, e.phdrs[i].vaddr, e.phdrs[i].vaddr + e.phdrs[i].memsz);
        umb_elf_close(&e);
    }
    if (l.oom) {
        free(l.r);
        fprintf(stderr, "umbra ventus: out of memory\n");
        return EXIT_RUN_FAILED;
    }
    int rc = write_dump(dev, l.r, l.n, path);
    free(l.r);
    return rc;
}

/* ---- statistics output ---- */

/* ---- per-PC profile (--profile-pcs, --report) ---- */

/* Counters for the executable PT_LOAD segments of the program's ELF, summed over its launches. */
typedef struct vt_profile {
    uint64_t *counts;
    uint64_t base, words;
} vt_profile;

enum { PROFILE_MAX_WORDS = 1u << 24 };   /* 64 MiB of code: far beyond any Ventus kernel */

static bool profile_open(vt_profile *pr, const char *elf_path)
{
    memset(pr, 0, sizeof *pr);
    umb_elf e;
    if (!elf_path || umb_elf_open_file(&e, elf_path) != UMB_OK) return false;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t i = 0; i < e.phnum; i++)
        if (e.phdrs[i].type == UMB_PT_LOAD && (e.phdrs[i].flags & UMB_PF_X) && e.phdrs[i].memsz) {
            if (e.phdrs[i].vaddr < lo) lo = e.phdrs[i].vaddr;
            if (e.phdrs[i].vaddr + e.phdrs[i].memsz > hi) hi = e.phdrs[i].vaddr + e.phdrs[i].memsz;
        }
    umb_elf_close(&e);
    if (hi <= lo || (hi - lo) / 4 > PROFILE_MAX_WORDS) return false;
    pr->base = lo & ~(uint64_t)3;
    pr->words = (hi - pr->base + 3) / 4;
    pr->counts = calloc(pr->words, sizeof *pr->counts);
    return pr->counts != NULL;
}

/* Every executed instruction in address order: PC, issues, disassembly (docs/REPORT.md). */
static void json_pc_profile(FILE *f, umb_device *dev, const vt_profile *pr)
{
    uint64_t total = 0;
    for (uint64_t i = 0; i < pr->words; i++) total += pr->counts[i];
    fprintf(f, ",\n  \"pc_profile\": {\"total\": %" PRIu64 ", \"instructions\": [", total);
    bool first = true;
    for (uint64_t i = 0; i < pr->words; i++) {
        if (!pr->counts[i]) continue;
        uint64_t pc = pr->base + 4 * i;
        uint32_t word = 0;
        char dis[160] = "(unmapped)";
        if (umb_mem_copy_from_device(dev, pc, &word, 4) == UMB_OK) umb_ventus_disasm(word, pc, dis, sizeof dis);
        for (char *c = dis; *c; c++)
            if (*c == '\t') *c = ' ';
        fprintf(f, "%s\n    {\"pc\": \"0x%08" PRIx64 "\", \"offset\": %" PRIu64 ", \"count\": %" PRIu64 ", \"disasm\": ",
                first ? "" : ",", pc, pc, pr->counts[i]);
        cli_json_string(f, dis);
        fputc('}', f);
        first = false;
    }
    fprintf(f, "\n  ]}");
}

/* A launch's shape and resources (the report's launch table). */
static void json_launch_kernel(FILE *f, const umb_ventus_launch *l)
{
    fprintf(f, "\"kernel\": {\"start_pc\": %" PRIu64 ", \"grid\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64 "], "
               "\"warps_per_workgroup\": %" PRIu64 ", \"threads_per_warp\": %" PRIu64 ", \"lds_bytes\": %" PRIu64
               ", \"private_bytes_per_thread\": %" PRIu64 "}",
            l->start_pc, l->grid[0], l->grid[1], l->grid[2], l->wg_size, l->wf_size, l->lds_size, l->pds_size);
}

static void write_stats_doc(FILE *f, const vt_opts *o, umb_device *dev, const umb_ventus_launch *const *launches,
                            const umb_stats *per, uint32_t n, const umb_stats *total, const vt_profile *pr)
{
    fprintf(f, "{\n");
    cli_json_run_header(f, "ventus", umb_device_get_config(dev), o->argc, o->argv);
    fprintf(f, ",\n  \"input\": ");
    cli_json_string(f, o->input);
    fprintf(f, ",\n  \"launches\": [");
    for (uint32_t i = 0; i < n; i++) {
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        cli_json_string(f, launches[i]->name ? launches[i]->name : "?");
        fprintf(f, ", ");
        json_launch_kernel(f, launches[i]);
        fprintf(f, ", \"stats\": ");
        umb_stats_write_json(&per[i], f, 0);
        fprintf(f, "}");
    }
    fprintf(f, "\n  ]");
    if (pr && pr->counts) json_pc_profile(f, dev, pr);
    fprintf(f, ",\n  \"total\": ");
    umb_stats_write_json(total, f, 2);
    if (o->timing.model) {
        fprintf(f, ",\n  \"timing\": ");
        umb_timing_write_json(o->timing.model, f, 2);
    }
    fprintf(f, "\n}\n");
}

/* --stats FILE.json and --report FILE.html (docs/REPORT.md). */
static int write_stats_json(const vt_opts *o, umb_device *dev, const umb_ventus_launch *const *launches,
                            const umb_stats *per, uint32_t n, const umb_stats *total, const vt_profile *pr)
{
    if (!o->stats && !o->report) return 0;
    char *doc = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&doc, &len);
    if (!m) {
        fprintf(stderr, "umbra ventus: out of memory\n");
        return EXIT_RUN_FAILED;
    }
    write_stats_doc(m, o, dev, launches, per, n, total, pr);
    fclose(m);
    int rc = 0;
    if (o->stats) {
        FILE *f = fopen(o->stats, "w");
        bool ok = f && fwrite(doc, 1, len, f) == len;
        if (f && fclose(f) != 0) ok = false;
        if (!ok) {
            fprintf(stderr, "umbra ventus: cannot write %s: %s\n", o->stats, strerror(errno));
            rc = EXIT_RUN_FAILED;
        }
    }
    if (o->report && cli_write_report(doc, len, o->stats ? o->stats : o->input, o->report, "umbra ventus"))
        rc = EXIT_RUN_FAILED;
    free(doc);
    return rc;
}

/* ---- traces ---- */

/* The trace file of one launch: PATH/<name>.log for a directory, PATH with %s replaced, or the
 * single file PATH shared by every launch (opened once, appended to). */
static FILE *open_trace(const char *path, const char *name, FILE *shared, bool *owned)
{
    *owned = false;
    if (!path) return NULL;
    struct stat sb;
    char buf[4096];
    const char *pct = strstr(path, "%s");
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        snprintf(buf, sizeof buf, "%s/%s.log", path, name);
    } else if (pct) {
        snprintf(buf, sizeof buf, "%.*s%s%s", (int)(pct - path), path, name, pct + 2);
    } else {
        return shared;
    }
    *owned = true;
    FILE *f = fopen(buf, "w");
    if (!f) fprintf(stderr, "umbra ventus: cannot write trace %s: %s\n", buf, strerror(errno));
    return f;
}

/* ---- run one launch ---- */

static void print_launch_header(uint32_t i, uint32_t n, const umb_ventus_launch *l)
{
    printf("[%u/%u] %s: %" PRIu64 "x%" PRIu64 "x%" PRIu64 " workgroups of %" PRIu64 " warps x %" PRIu64
           " threads\n", i + 1, n, l->name, l->grid[0], l->grid[1], l->grid[2], l->wg_size, l->wf_size);
}

/* Run a prepared launch; on failure print the device's message and return the status. */
static umb_status run_launch(umb_device *dev, const umb_ventus_launch *l, FILE *trace, umb_stats *st,
                             const char *where, const vt_profile *pr)
{
    umb_ventus_options opt = {.trace = trace, .pc_counts = pr->counts, .pc_base = pr->base, .pc_words = pr->words};
    memset(st, 0, sizeof *st);
    umb_status s = umb_ventus_run(dev, l, &opt, st);
    if (s != UMB_OK) {
        const char *msg = umb_device_last_error(dev);
        fprintf(stderr, "umbra ventus: %s: launch %s failed: %s%s%s\n", where, l->name ? l->name : "?",
                umb_status_name(s), msg && *msg ? ": " : "", msg ? msg : "");
    }
    return s;
}

/* One line per launch: what ran, how much, and how it ended; then the totals. */
static void print_summary(const umb_vt_program *p, const umb_stats *per, uint32_t ran, int rc,
                          const umb_stats *total)
{
    printf("\nresults:\n  %-20s %10s %6s %14s %8s %9s  %s\n", "launch", "workgroups", "warps",
           "warp-insts", "SIMT", "seconds", "status");
    for (uint32_t i = 0; i < p->nlaunches && i <= ran; i++) {
        const char *status = i < ran ? "ok" : rc ? "FAILED" : NULL;
        if (!status) break;
        if (i < ran)
            printf("  %-20s %10" PRIu64 " %6" PRIu64 " %14" PRIu64 " %7.1f%% %9.3f  %s\n", p->launches[i].name,
                   per[i].workgroups, per[i].warps, per[i].warp_insts,
                   100.0 * umb_stats_simt_efficiency(&per[i]), per[i].host_seconds, status);
        else
            printf("  %-20s %10s %6s %14s %8s %9s  %s\n", p->launches[i].name, "-", "-", "-", "-", "-", status);
    }
    if (rc) return;
    printf("\ntotal: %u launch%s completed\n", ran, ran == 1 ? "" : "es");
    umb_stats_write_text(total, stdout);
}

static int cmd_vt_run_dir(int argc, char **argv)
{
    vt_opts o;
    int rc = parse_opts(argc, argv, &o, false);
    if (rc) {
        free_opts(&o);
        return rc;
    }
    char err[UMB_CLI_ERROR_MAX];
    umb_vt_program p;
    if (umb_vt_program_open(o.input, &p, err, sizeof err) != UMB_OK) {
        fprintf(stderr, "umbra ventus: %s\n", err);
        free_opts(&o);
        return EXIT_RUN_FAILED;
    }
    umb_device *dev;
    if (make_device(&o, &dev) != UMB_OK) {
        umb_vt_program_close(&p);
        return EXIT_RUN_FAILED;
    }
    if (!o.quiet) {
        printf("umbra ventus: %s: %u launch%s (order: %s)\n", o.input, p.nlaunches,
               p.nlaunches == 1 ? "" : "es", p.order_source);
        for (uint32_t i = 0; i < p.nskipped; i++)
            printf("  not run: %s.metadata (not a counted launch <kernel>_<n> of the driver)\n", p.skipped[i]);
    }
    FILE *shared_trace = NULL;
    if (o.trace) {
        struct stat sb;
        if (!strstr(o.trace, "%s") && !(stat(o.trace, &sb) == 0 && S_ISDIR(sb.st_mode))) {
            shared_trace = fopen(o.trace, "w");
            if (!shared_trace) {
                fprintf(stderr, "umbra ventus: cannot write trace %s: %s\n", o.trace, strerror(errno));
                rc = EXIT_RUN_FAILED;
            }
        }
    }
    umb_stats *per = calloc(p.nlaunches ? p.nlaunches : 1, sizeof *per);
    const umb_ventus_launch **names = calloc(p.nlaunches ? p.nlaunches : 1, sizeof *names);
    umb_stats total;
    memset(&total, 0, sizeof total);
    vt_profile prof = {0};
    if (o.profile_pcs && !profile_open(&prof, p.elf_path) && !o.quiet)
        fprintf(stderr, "umbra ventus: %s: no executable segment to profile\n", o.input);
    uint32_t ran = 0;
    for (uint32_t i = 0; rc == 0 && per && names && i < p.nlaunches; i++) {
        const umb_vt_launch_file *lf = &p.launches[i];
        names[i] = &lf->launch;
        if (umb_vt_program_prepare(&p, i, dev, err, sizeof err) != UMB_OK) {
            fprintf(stderr, "umbra ventus: %s\n", err);
            rc = EXIT_RUN_FAILED;
            break;
        }
        if (!o.quiet) print_launch_header(i, p.nlaunches, &lf->launch);
        bool owned;
        FILE *tr = open_trace(o.trace, lf->name, shared_trace, &owned);
        if (o.trace && !tr) { rc = EXIT_RUN_FAILED; break; }
        umb_status s = run_launch(dev, &lf->launch, tr, &per[i], o.input, &prof);
        if (owned && tr) fclose(tr);
        if (s != UMB_OK) { rc = EXIT_RUN_FAILED; break; }
        ran++;
        umb_stats_add(&total, &per[i]);
        if (!o.quiet) umb_stats_write_text(&per[i], stdout);
    }
    if (shared_trace) fclose(shared_trace);
    if (!per || !names) { fprintf(stderr, "umbra ventus: out of memory\n"); rc = EXIT_RUN_FAILED; }
    if (!o.quiet && per && names) print_summary(&p, per, ran, rc, &total);
    if (!o.quiet) cli_timing_report(&o.timing, stdout);
    cli_timing_annotate(&o.timing, stdout);
    /* dump and stats also after a failure: they show how far the program got */
    if (o.dump && ran + (rc != 0) > 0) {
        int r2 = dump_program(dev, &p, o.dump);
        if (!rc) rc = r2;
    }
    if (per && names) {
        int r2 = write_stats_json(&o, dev, names, per, ran, &total, &prof);
        if (!rc) rc = r2;
    }
    free(per);
    free(names);
    free(prof.counts);
    umb_device_destroy(dev);
    umb_vt_program_close(&p);
    free_opts(&o);
    return rc;
}

/* ---- run-elf ---- */

enum { ELF_KNL_BASE = 0x90000000u, ELF_PDS_BASE = 0x90001000u };

/* SYMBOL or a number. */
static bool resolve(umb_elf *e, const char *what, uint64_t *out)
{
    if (parse_u64(what, out)) return true;
    umb_elf_sym s;
    if (umb_elf_find_symbol(e, what, &s) != UMB_OK) return false;
    *out = s.value;
    return true;
}

/* The 64-byte kernel metadata block (spec §4): entry, argument base, work dim, global and local
 * sizes, offsets, print buffer. */
static umb_status write_knl_block(umb_device *dev, const vt_opts *o, uint64_t entry)
{
    uint32_t k[16] = {0};
    uint32_t local = o->warps * o->lanes;
    k[0] = (uint32_t)entry;
    k[1] = ELF_KNL_BASE + 64;                   /* no arguments: an empty block after this one */
    k[2] = o->grid[2] > 1 ? 3 : o->grid[1] > 1 ? 2 : 1;
    k[3] = o->grid[0] * local, k[4] = o->grid[1], k[5] = o->grid[2];
    k[6] = local, k[7] = 1, k[8] = 1;
    umb_status st = umb_mem_map(dev, ELF_KNL_BASE, 4096);
    return st == UMB_OK ? umb_mem_copy_to_device(dev, ELF_KNL_BASE, k, sizeof k) : st;
}

static int cmd_vt_run_elf(int argc, char **argv)
{
    vt_opts o;
    int rc = parse_opts(argc, argv, &o, true);
    if (rc) {
        free_opts(&o);
        return rc;
    }
    umb_elf e;
    if (umb_elf_open_file(&e, o.input) != UMB_OK) {
        fprintf(stderr, "umbra ventus: %s\n", e.error);
        free_opts(&o);
        return EXIT_RUN_FAILED;
    }
    uint64_t entry;
    if (!resolve(&e, o.entry, &entry)) {
        fprintf(stderr, "umbra ventus: %s: --entry %s: no such symbol\n", o.input, o.entry);
        umb_elf_close(&e);
        free_opts(&o);
        return EXIT_RUN_FAILED;
    }
    umb_device *dev = NULL;
    if (make_device(&o, &dev) != UMB_OK) rc = EXIT_RUN_FAILED;
    if (!rc && umb_elf_load_segments(&e, dev, 0) != UMB_OK) {
        fprintf(stderr, "umbra ventus: %s\n", e.error);
        rc = EXIT_RUN_FAILED;
    }
    uint64_t nwg = (uint64_t)o.grid[0] * o.grid[1] * o.grid[2];
    uint64_t pds_bytes = o.pds * o.warps * o.lanes * nwg;
    if (!rc && (write_knl_block(dev, &o, entry) != UMB_OK ||
                (pds_bytes && umb_mem_map(dev, ELF_PDS_BASE, pds_bytes) != UMB_OK))) {
        fprintf(stderr, "umbra ventus: cannot set up launch memory: %s\n", umb_device_last_error(dev));
        rc = EXIT_RUN_FAILED;
    }
    const char *base = strrchr(o.input, '/');
    umb_ventus_launch l = {
        .start_pc = entry, .kernel_id = 0, .grid = {o.grid[0], o.grid[1], o.grid[2]},
        .wf_size = o.lanes, .wg_size = o.warps, .metadata_base = ELF_KNL_BASE,
        .lds_size = o.lds, .pds_size = o.pds, .sgpr_usage = 64, .vgpr_usage = 64,
        .pds_base = ELF_PDS_BASE, .name = base ? base + 1 : o.input,
    };
    FILE *tr = NULL;
    if (!rc && o.trace && !(tr = fopen(o.trace, "w"))) {
        fprintf(stderr, "umbra ventus: cannot write trace %s: %s\n", o.trace, strerror(errno));
        rc = EXIT_RUN_FAILED;
    }
    umb_stats st;
    memset(&st, 0, sizeof st);
    vt_profile prof = {0};
    if (!rc && o.profile_pcs && !profile_open(&prof, o.input) && !o.quiet)
        fprintf(stderr, "umbra ventus: %s: no executable segment to profile\n", o.input);
    if (!rc && run_launch(dev, &l, tr, &st, o.input, &prof) != UMB_OK) rc = EXIT_RUN_FAILED;
    if (tr) fclose(tr);
    if (!rc && !o.quiet) {
        print_launch_header(0, 1, &l);
        umb_stats_write_text(&st, stdout);
        cli_timing_report(&o.timing, stdout);
    }
    if (dev && o.dump) {
        range r[64];
        uint32_t n = 0;
        for (uint32_t i = 0; i < o.nranges; i++) {
            uint64_t a;
            if (!resolve(&e, o.ranges[i].what, &a)) {
                fprintf(stderr, "umbra ventus: --dump-range %s: no such symbol in %s\n", o.ranges[i].what, o.input);
                rc = rc ? rc : EXIT_USAGE;
                continue;
            }
            uint64_t len = o.ranges[i].len;
            r[n++] = (range){a, len > UINT64_MAX - a ? UINT64_MAX : a + len};   /* to the top at most */
        }
        int r2 = write_dump(dev, r, n, o.dump);
        if (!rc) rc = r2;
    }
    if (dev) {
        const umb_ventus_launch *launches[1] = {&l};
        int r2 = write_stats_json(&o, dev, launches, &st, rc ? 0 : 1, &st, &prof);
        if (!rc) rc = r2;
    }
    free(prof.counts);
    umb_device_destroy(dev);
    umb_elf_close(&e);
    free_opts(&o);
    return rc;
}

/* ---- disasm ---- */

/* The last "0x" number of a disassembly (a branch target is printed last), or NULL. */
static const char *strrstr_0x(const char *s)
{
    const char *last = NULL;
    for (const char *p = strstr(s, "0x"); p; p = strstr(p + 2, "0x")) last = p;
    if (!last || last[2] == 0) return NULL;
    for (const char *q = last + 2; *q; q++)
        if (!((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f'))) return NULL;
    return last;
}

/* The labels llvm-objdump prints: per (section, address) one symbol — of several at one address,
 * the greatest name (llvm-objdump-19 sorts them by name and shows the last, whatever their
 * binding) — section and mapping symbols never. Sorted, so that a label and a branch target's
 * nearest label are one binary search each. */
typedef struct vt_label {
    uint64_t addr;
    uint16_t shndx;
    const char *name;
} vt_label;

typedef struct label_table { vt_label *v; size_t n; } label_table;

static int cmp_label(const void *pa, const void *pb)
{
    const vt_label *a = pa, *b = pb;
    if (a->shndx != b->shndx) return a->shndx < b->shndx ? -1 : 1;
    if (a->addr != b->addr) return a->addr < b->addr ? -1 : 1;
    return -strcmp(a->name, b->name);   /* the greatest name first: the one kept */
}

static bool build_labels(umb_elf *e, label_table *t)
{
    uint32_t n = umb_elf_symbol_count(e);
    t->n = 0;
    t->v = malloc((n ? n : 1) * sizeof *t->v);
    if (!t->v) return false;
    for (uint32_t i = 1; i < n; i++) {
        umb_elf_sym s;
        if (umb_elf_symbol(e, i, &s) != UMB_OK) break;   /* the rest is unreadable: as before, ignored */
        if (!s.name[0] || s.type == UMB_STT_SECTION || !strncmp(s.name, "$x", 2) || !strncmp(s.name, "$d", 2))
            continue;
        t->v[t->n++] = (vt_label){ s.value, s.shndx, s.name };
    }
    qsort(t->v, t->n, sizeof *t->v, cmp_label);
    size_t k = 0;   /* keep the first entry of each (section, address) */
    for (size_t i = 0; i < t->n; i++)
        if (!k || t->v[k - 1].shndx != t->v[i].shndx || t->v[k - 1].addr != t->v[i].addr) t->v[k++] = t->v[i];
    t->n = k;
    return true;
}

/* The label of section shndx at the greatest address <= addr, or NULL. */
static const vt_label *label_floor(const label_table *t, uint16_t shndx, uint64_t addr)
{
    size_t lo = 0, hi = t->n;   /* the first entry past (shndx, addr) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const vt_label *l = &t->v[mid];
        if (l->shndx < shndx || (l->shndx == shndx && l->addr <= addr)) lo = mid + 1;
        else hi = mid;
    }
    return lo && t->v[lo - 1].shndx == shndx ? &t->v[lo - 1] : NULL;
}

static const char *label_at(const label_table *t, uint64_t addr, uint16_t shndx)
{
    const vt_label *l = label_floor(t, shndx, addr);
    return l && l->addr == addr ? l->name : NULL;
}

/* llvm-objdump's " <symbol+0xoff>" after a branch or jump target: the nearest symbol at or
 * below the target in the section. */
static void symbolize_target(const label_table *t, uint32_t w, char *text, size_t len, uint16_t shndx,
                             uint64_t lo, uint64_t hi)
{
    uint32_t op = w & 0x7f;
    if (op != 0x63 && op != 0x6f && op != 0x5b) return;           /* branch, jal, vbranch */
    const char *hex = strrstr_0x(text);
    if (!hex) return;
    uint64_t target = strtoull(hex, NULL, 16);
    if (target < lo || target >= hi) return;
    const vt_label *l = label_floor(t, shndx, target);
    if (!l || l->addr < lo) return;
    size_t n = strlen(text);
    if (l->addr == target) snprintf(text + n, len - n, " <%s>", l->name);
    else snprintf(text + n, len - n, " <%s+0x%" PRIx64 ">", l->name, target - l->addr);
}

static int cmd_vt_disasm(int argc, char **argv)
{
    if (argc < 3 || argv[2][0] == '-') {
        fprintf(stderr, "usage: umbra ventus disasm FILE.riscv\n");
        return EXIT_USAGE;
    }
    const char *path = argv[2];
    umb_elf e;
    if (umb_elf_open_file(&e, path) != UMB_OK) {
        fprintf(stderr, "umbra ventus: %s\n", e.error);
        return EXIT_RUN_FAILED;
    }
    label_table labels;
    if (!build_labels(&e, &labels)) {
        fprintf(stderr, "umbra ventus: out of memory\n");
        umb_elf_close(&e);
        return EXIT_RUN_FAILED;
    }
    printf("\n%s:\tfile format elf32-littleriscv\n", path);
    enum { SHF_EXECINSTR = 4 };
    for (uint32_t s = 0; s < e.shnum; s++) {
        const umb_elf_shdr *sh = &e.shdrs[s];
        const uint8_t *d = umb_elf_section_data(&e, sh);
        if (!(sh->flags & SHF_EXECINSTR) || !d) continue;
        printf("\nDisassembly of section %s:\n", sh->name);
        for (uint64_t off = 0; off + 4 <= sh->size; off += 4) {
            uint64_t pc = sh->addr + off;
            const char *lab = label_at(&labels, pc, (uint16_t)s);
            if (lab) printf("\n%08" PRIx64 " <%s>:\n", pc, lab);
            uint32_t w = (uint32_t)d[off] | (uint32_t)d[off + 1] << 8 | (uint32_t)d[off + 2] << 16 |
                         (uint32_t)d[off + 3] << 24;
            char text[160];
            umb_ventus_disasm(w, pc, text, sizeof text);
            symbolize_target(&labels, w, text, sizeof text, (uint16_t)s, sh->addr, sh->addr + sh->size);
            printf("%08" PRIx64 ": %08" PRIx32 "     \t%s\n", pc, w, text);
        }
    }
    free(labels.v);
    umb_elf_close(&e);
    return 0;
}

int cmd_ventus(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage_run(argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : 0;
    }
    if (!strcmp(argv[1], "run")) return cmd_vt_run_dir(argc, argv);
    if (!strcmp(argv[1], "run-elf")) return cmd_vt_run_elf(argc, argv);
    if (!strcmp(argv[1], "disasm")) return cmd_vt_disasm(argc, argv);
    fprintf(stderr, "umbra ventus: unknown subcommand '%s' (run, run-elf, disasm)\n\n", argv[1]);
    usage_run(stderr);
    return EXIT_USAGE;
}
