/* Ventus launch files: .metadata / .data parsing, buffer replay, launch order (see the header). */
#include "loader/ventus_launch.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/guest_text.h"
#include "loader/elf.h"

static umb_status errf(char *err, size_t errlen, umb_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static umb_status errf(char *err, size_t errlen, umb_status st, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return st;
}

static char *path_join(const char *dir, const char *name, const char *ext)
{
    size_t n = strlen(dir) + strlen(name) + strlen(ext) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s%s", dir, name, ext);
    return p;
}

char *umb_vt_read_text(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        errf(err, errlen, UMB_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1) break;
        char *nb = realloc(buf, cap * 2);
        if (!nb) { free(buf); buf = NULL; break; }
        buf = nb;
        cap *= 2;
    }
    bool bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        errf(err, errlen, UMB_ERR_IO, "%s: %s", path, buf ? "read error" : "out of memory");
        return NULL;
    }
    buf[n] = 0;
    if (len) *len = n;
    return buf;
}

/* ---- line reader shared by .metadata and .data ---- */

typedef struct line_reader {
    const char *p, *end;
    unsigned lineno;            /* number of the line last returned (1-based) */
} line_reader;

/* Next line without its terminator and trailing blanks; false at end of text. */
static bool next_line(line_reader *r, const char **s, size_t *n)
{
    if (r->p >= r->end) return false;
    const char *b = r->p, *e = memchr(b, '\n', (size_t)(r->end - b));
    r->p = e ? e + 1 : r->end;
    if (!e) e = r->end;
    while (e > b && isspace((unsigned char)e[-1])) e--;
    while (b < e && isspace((unsigned char)*b)) b++;
    r->lineno++;
    *s = b;
    *n = (size_t)(e - b);
    return true;
}

/* True if only blank lines remain. */
static bool only_blank_left(line_reader *r)
{
    line_reader t = *r;
    const char *s;
    size_t n;
    while (next_line(&t, &s, &n))
        if (n) return false;
    return true;
}

/* A line holding one 32-bit hex word: 1..8 hex digits, optionally after "0x". */
static bool parse_hex_word(const char *s, size_t n, uint32_t *out)
{
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2, n -= 2;
    if (n == 0 || n > 8) return false;
    uint32_t v = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)s[i], d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return false;
        v = v << 4 | (uint32_t)d;
    }
    *out = v;
    return true;
}

/* Read one word; on failure err names file and line (`what` says which value was expected). */
static umb_status read_word(line_reader *r, const char *path, const char *what, uint32_t *out,
                            char *err, size_t errlen)
{
    const char *s;
    size_t n;
    if (!next_line(r, &s, &n))
        return errf(err, errlen, UMB_ERR_FORMAT, "%s:%u: file ends where %s was expected",
                    path, r->lineno + 1, what);
    if (!parse_hex_word(s, n, out))
        return errf(err, errlen, UMB_ERR_FORMAT, "%s:%u: '%s' is not a 32-bit hex word (%s)", path, r->lineno,
                    umb_guest_text_n(&(umb_guest_text_buf){0}, s, n > 40 ? 40 : n), what);
    return UMB_OK;
}

/* A 64-bit field: two lines, low word first. */
static umb_status read_field(line_reader *r, const char *path, const char *what, uint64_t *out,
                             char *err, size_t errlen)
{
    uint32_t lo, hi;
    char w[96];
    snprintf(w, sizeof w, "low word of %s", what);
    umb_status st = read_word(r, path, w, &lo, err, errlen);
    if (st != UMB_OK) return st;
    snprintf(w, sizeof w, "high word of %s", what);
    st = read_word(r, path, w, &hi, err, errlen);
    if (st != UMB_OK) return st;
    *out = (uint64_t)hi << 32 | lo;
    return UMB_OK;
}

/* ---- .metadata ---- */

/* Sanity limits: beyond them a file is corrupt, not a real launch. */
enum { MAX_BUFFERS = 4096, MAX_THREADS_PER_WARP = 1024, MAX_WARPS_PER_WG = 1024 };

static umb_status check_launch(const char *path, const umb_ventus_launch *l, char *err, size_t errlen)
{
    for (int d = 0; d < 3; d++)
        if (l->grid[d] == 0 || l->grid[d] > 0xffffffffu)
            return errf(err, errlen, UMB_ERR_FORMAT, "%s: kernel_size[%d] = %llu workgroups is out of "
                        "range (1..2^32-1)", path, d, (unsigned long long)l->grid[d]);
    if (l->wf_size == 0 || l->wf_size > MAX_THREADS_PER_WARP)
        return errf(err, errlen, UMB_ERR_FORMAT, "%s: wf_size = %llu threads per warp is out of range "
                    "(1..%d)", path, (unsigned long long)l->wf_size, MAX_THREADS_PER_WARP);
    if (l->wg_size == 0 || l->wg_size > MAX_WARPS_PER_WG)
        return errf(err, errlen, UMB_ERR_FORMAT, "%s: wg_size = %llu warps per workgroup is out of "
                    "range (1..%d)", path, (unsigned long long)l->wg_size, MAX_WARPS_PER_WG);
    return UMB_OK;
}

umb_status umb_vt_parse_metadata(const char *path, const char *text, size_t len,
                                 umb_vt_launch_file *lf, char *err, size_t errlen)
{
    line_reader r = {text, text + len, 0};
    umb_ventus_launch *l = &lf->launch;
    /* The order of the fields in the file (ventus-driver struct meta_data plus start_pc). */
    struct { const char *name; uint64_t *dst; } fields[] = {
        {"start_pc", &l->start_pc}, {"kernel_id", &l->kernel_id},
        {"kernel_size[0]", &l->grid[0]}, {"kernel_size[1]", &l->grid[1]}, {"kernel_size[2]", &l->grid[2]},
        {"wf_size", &l->wf_size}, {"wg_size", &l->wg_size}, {"metaDataBaseAddr", &l->metadata_base},
        {"ldsSize", &l->lds_size}, {"pdsSize", &l->pds_size}, {"sgprUsage", &l->sgpr_usage},
        {"vgprUsage", &l->vgpr_usage}, {"pdsBaseAddr", &l->pds_base},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        umb_status st = read_field(&r, path, fields[i].name, fields[i].dst, err, errlen);
        if (st != UMB_OK) return st;
    }
    umb_status st = check_launch(path, l, err, errlen);
    if (st != UMB_OK) return st;
    uint64_t nbuf;
    st = read_field(&r, path, "num_buffer", &nbuf, err, errlen);
    if (st != UMB_OK) return st;
    if (nbuf > MAX_BUFFERS)
        return errf(err, errlen, UMB_ERR_FORMAT, "%s:%u: num_buffer = %llu is implausible (at most %d)",
                    path, r.lineno - 1, (unsigned long long)nbuf, MAX_BUFFERS);
    lf->bufs = calloc(nbuf ? nbuf : 1, sizeof *lf->bufs);
    if (!lf->bufs) return errf(err, errlen, UMB_ERR_NOMEM, "%s: out of memory", path);
    lf->nbuf = (uint32_t)nbuf;
    static const char *const table[3] = {"buffer_base", "buffer_size", "buffer_allocsize"};
    for (int t = 0; t < 3; t++) {
        for (uint32_t i = 0; i < lf->nbuf; i++) {
            char what[48];
            snprintf(what, sizeof what, "%s[%u]", table[t], i);
            uint64_t *dst = t == 0 ? &lf->bufs[i].base : t == 1 ? &lf->bufs[i].size : &lf->bufs[i].allocsize;
            st = read_field(&r, path, what, dst, err, errlen);
            if (st != UMB_OK) return st;
        }
    }
    if (!only_blank_left(&r))
        return errf(err, errlen, UMB_ERR_FORMAT, "%s:%u: unexpected extra line after the buffer table "
                    "(%u buffers end at line %u)", path, r.lineno + 1, lf->nbuf, r.lineno);
    for (uint32_t i = 0; i < lf->nbuf; i++) {
        const umb_vt_buffer *b = &lf->bufs[i];
        if (b->size > b->allocsize)
            return errf(err, errlen, UMB_ERR_FORMAT, "%s: buffer %u at 0x%llx: size 0x%llx is larger "
                        "than its allocsize 0x%llx", path, i, (unsigned long long)b->base,
                        (unsigned long long)b->size, (unsigned long long)b->allocsize);
        /* Ventus is RV32: every buffer lies below 4 GiB */
        if (b->base > 0xffffffffull || b->allocsize > 0x100000000ull - b->base)
            return errf(err, errlen, UMB_ERR_FORMAT, "%s: buffer %u [0x%llx, +0x%llx) is outside the "
                        "32-bit address space", path, i, (unsigned long long)b->base,
                        (unsigned long long)b->allocsize);
    }
    return UMB_OK;
}

/* ---- .data ---- */

umb_status umb_vt_parse_data(const char *path, const char *text, size_t len,
                             umb_vt_launch_file *lf, char *err, size_t errlen)
{
    size_t want = 0;
    for (uint32_t i = 0; i < lf->nbuf; i++) want += (size_t)((lf->bufs[i].size + 3) / 4);
    /* every word takes a line of at least 2 bytes: a file too short for the table fails here,
     * before a corrupt size makes us allocate for it */
    if (want > len / 2 + 1) {
        line_reader r = {text, text + len, 0};
        const char *ls;
        size_t ln;
        while (next_line(&r, &ls, &ln)) {}
        return errf(err, errlen, UMB_ERR_FORMAT, "%s:%u: file ends, but the metadata's %u buffers "
                    "need %zu words (lines)", path, r.lineno + 1, lf->nbuf, want);
    }
    lf->words = calloc(want ? want : 1, sizeof *lf->words);
    if (!lf->words) return errf(err, errlen, UMB_ERR_NOMEM, "%s: out of memory (%zu words)", path, want);
    lf->nwords = want;
    line_reader r = {text, text + len, 0};
    size_t k = 0;
    for (uint32_t i = 0; i < lf->nbuf; i++) {
        size_t nw = (size_t)((lf->bufs[i].size + 3) / 4);
        for (size_t j = 0; j < nw; j++, k++) {
            char what[96];
            snprintf(what, sizeof what, "word %zu of buffer %u (0x%llx, %llu bytes)", j, i,
                     (unsigned long long)lf->bufs[i].base, (unsigned long long)lf->bufs[i].size);
            umb_status st = read_word(&r, path, what, &lf->words[k], err, errlen);
            if (st != UMB_OK) return st;
        }
    }
    if (!only_blank_left(&r))
        return errf(err, errlen, UMB_ERR_FORMAT, "%s:%u: unexpected extra line: the metadata's %u "
                    "buffers need %zu words", path, r.lineno + 1, lf->nbuf, want);
    return UMB_OK;
}

void umb_vt_launch_file_free(umb_vt_launch_file *lf)
{
    free(lf->bufs);
    free(lf->words);
    memset(lf, 0, sizeof *lf);
}

umb_status umb_vt_launch_file_load(const char *dir, const char *name, umb_vt_launch_file *lf,
                                   char *err, size_t errlen)
{
    memset(lf, 0, sizeof *lf);
    snprintf(lf->name, sizeof lf->name, "%s", name);
    lf->launch.name = lf->name;
    char *mpath = path_join(dir, name, ".metadata"), *dpath = path_join(dir, name, ".data");
    char *mtext = NULL, *dtext = NULL;
    size_t mlen = 0, dlen = 0;
    umb_status st = UMB_ERR_NOMEM;
    if (mpath && dpath) {
        st = UMB_ERR_IO;
        mtext = umb_vt_read_text(mpath, &mlen, err, errlen);
        if (mtext) st = umb_vt_parse_metadata(mpath, mtext, mlen, lf, err, errlen);
        if (st == UMB_OK) {
            dtext = umb_vt_read_text(dpath, &dlen, err, errlen);
            st = dtext ? umb_vt_parse_data(dpath, dtext, dlen, lf, err, errlen) : UMB_ERR_IO;
        }
    }
    free(mtext);
    free(dtext);
    free(mpath);
    free(dpath);
    if (st != UMB_OK) {
        umb_vt_launch_file_free(lf);
        return st;
    }
    lf->launch.name = lf->name;
    return UMB_OK;
}

/* ---- replay ---- */

umb_status umb_vt_launch_replay(umb_device *dev, const umb_vt_launch_file *lf, char *err, size_t errlen)
{
    size_t k = 0;
    for (uint32_t i = 0; i < lf->nbuf; i++) {
        const umb_vt_buffer *b = &lf->bufs[i];
        uint64_t extent = b->allocsize > b->size ? b->allocsize : b->size;
        umb_status st = umb_mem_map(dev, b->base, extent);
        if (st != UMB_OK)
            return errf(err, errlen, st, "%s: cannot map buffer %u [0x%llx, +0x%llx): %s", lf->name, i,
                        (unsigned long long)b->base, (unsigned long long)extent, umb_status_name(st));
        size_t nw = (size_t)((b->size + 3) / 4);
        /* .data words are little-endian values; the device is little-endian too. */
        uint8_t tmp[4096];
        for (uint64_t off = 0; off < b->size;) {
            uint64_t chunk = b->size - off < sizeof tmp ? b->size - off : sizeof tmp;
            for (uint64_t j = 0; j < chunk; j++) {
                uint32_t w = lf->words[k + (off + j) / 4];
                tmp[j] = (uint8_t)(w >> (8 * ((off + j) & 3)));
            }
            st = umb_mem_copy_to_device(dev, b->base + off, tmp, chunk);
            if (st != UMB_OK)
                return errf(err, errlen, st, "%s: cannot copy buffer %u to 0x%llx: %s", lf->name, i,
                            (unsigned long long)(b->base + off), umb_device_last_error(dev));
            off += chunk;
        }
        k += nw;
    }
    return UMB_OK;
}

/* ---- launch order ----
 *
 * The Ventus pocl driver names each launch `<kernel>_<n>`: n counts the launches of that kernel.
 * The order in which it ran them is what it printed in pocl.log ("... renamed successfully to
 * <launch>.log"), so that is the order when pocl.log has those lines. Without pocl.log, launches
 * run by counter (every kernel's launch 0, then every launch 1, ...), and kernels with the same
 * counter in the order object.cl defines them (host programs such as gaussian and bfs call their
 * kernels in that order; it is a guess only for directories that have no pocl.log).
 *
 * A `.metadata` file without the `_<n>` suffix (matadd_4x4 has matadd.metadata next to
 * matadd_0.metadata) is not one of the driver's counted launches. In matadd_4x4 the two differ:
 * matadd.metadata describes 1 warp of 32 threads, matadd_0 the 4 warps x 4 threads the directory
 * is named after and that matadd_0.log traces; running both would run the kernel twice. So an
 * unnumbered file is skipped (and reported) whenever numbered launches exist, and used only in a
 * directory that has nothing else.
 */

typedef struct launch_name {
    char *name;
    char *kernel;               /* name without _<n> */
    long counter;               /* -1 when unnumbered */
    int kernel_rank;            /* position of the kernel in object.cl, or INT32_MAX */
} launch_name;

static void split_name(launch_name *ln)
{
    ln->counter = -1;
    ln->kernel = strdup(ln->name);
    if (!ln->kernel) return;
    char *us = strrchr(ln->kernel, '_');
    if (!us || !us[1]) return;
    for (const char *c = us + 1; *c; c++)
        if (!isdigit((unsigned char)*c)) return;
    ln->counter = strtol(us + 1, NULL, 10);
    *us = 0;
}

/* Rank of kernel `k` by the position of "__kernel void k" in object.cl (INT32_MAX if absent). */
static int kernel_rank(const char *cl, const char *k)
{
    if (!cl) return INT32_MAX;
    int rank = 0;
    for (const char *p = strstr(cl, "__kernel"); p; p = strstr(p + 8, "__kernel"), rank++) {
        const char *q = p + 8;
        while (*q && isspace((unsigned char)*q)) q++;
        if (!strncmp(q, "void", 4)) q += 4;
        while (*q && isspace((unsigned char)*q)) q++;
        size_t n = strlen(k);
        if (!strncmp(q, k, n) && !(isalnum((unsigned char)q[n]) || q[n] == '_')) return rank;
    }
    return INT32_MAX;
}

static int cmp_fallback(const void *a, const void *b)
{
    const launch_name *x = a, *y = b;
    if (x->counter != y->counter) return x->counter < y->counter ? -1 : 1;
    if (x->kernel_rank != y->kernel_rank) return x->kernel_rank < y->kernel_rank ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Launch names in the order pocl.log printed their logs; NULL entries never. */
static uint32_t pocl_order(const char *pocl, char ***out)
{
    static const char key[] = "renamed successfully to ";
    uint32_t n = 0, cap = 0;
    char **v = NULL;
    for (const char *p = pocl ? strstr(pocl, key) : NULL; p; p = strstr(p, key)) {
        p += sizeof key - 1;
        const char *e = p;
        while (*e && !isspace((unsigned char)*e)) e++;
        size_t len = (size_t)(e - p);
        if (len > 5 && !strncmp(e - 5, ".log.", 5)) len -= 5;      /* "X.log." */
        else if (len > 4 && !strncmp(e - 4, ".log", 4)) len -= 4;
        else continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **nv = realloc(v, cap * sizeof *nv);
            if (!nv) break;
            v = nv;
        }
        v[n] = strndup(p, len);
        if (v[n]) n++;
    }
    *out = v;
    return n;
}

static void free_names(char **v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

/* A launch is named <kernel>_<n> after a kernel: printable ASCII that fits umb_vt_launch_file.name.
 * Other names (a corrupted or foreign directory) are refused here, so that no message or trace
 * file name downstream carries raw bytes. */
static bool plausible_launch_name(const char *s, size_t len)
{
    if (len == 0 || len >= sizeof ((umb_vt_launch_file *)0)->name) return false;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e) return false;
    return true;
}

static umb_status list_metadata(const char *dir, launch_name **out, uint32_t *count, char *err, size_t errlen)
{
    *out = NULL;
    *count = 0;
    DIR *d = opendir(dir);
    if (!d) return errf(err, errlen, UMB_ERR_IO, "%s: cannot open directory: %s", dir, strerror(errno));
    launch_name *v = NULL;
    uint32_t n = 0, cap = 0;
    struct dirent *de;
    umb_status st = UMB_OK;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len <= 9 || strcmp(de->d_name + len - 9, ".metadata")) continue;
        if (!plausible_launch_name(de->d_name, len - 9)) {
            errf(err, errlen, UMB_ERR_FORMAT, "%s: '%s': not a launch file name (<kernel>_<n>.metadata, printable "
                 "ASCII, shorter than %zu bytes)", dir, umb_guest_text_n(&(umb_guest_text_buf){0}, de->d_name, len),
                 sizeof ((umb_vt_launch_file *)0)->name);
            st = UMB_ERR_FORMAT;
            break;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            launch_name *nv = realloc(v, cap * sizeof *nv);
            if (!nv) { st = UMB_ERR_NOMEM; break; }
            v = nv;
        }
        memset(&v[n], 0, sizeof v[n]);
        v[n].name = strndup(de->d_name, len - 9);
        if (!v[n].name) { st = UMB_ERR_NOMEM; break; }
        split_name(&v[n]);
        if (!v[n].kernel) { free(v[n].name); st = UMB_ERR_NOMEM; break; }
        n++;
    }
    closedir(d);
    *out = v;
    *count = n;
    if (st == UMB_ERR_FORMAT) return st;
    if (st != UMB_OK) return errf(err, errlen, st, "%s: out of memory", dir);
    if (n == 0) return errf(err, errlen, UMB_ERR_FORMAT, "%s: no .metadata files: not a Ventus test "
                            "directory", dir);
    return UMB_OK;
}

static void free_launch_names(launch_name *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) { free(v[i].name); free(v[i].kernel); }
    free(v);
}

umb_status umb_vt_launch_order(const char *dir, char ***names, uint32_t *count,
                               char ***skipped, uint32_t *nskipped,
                               char *source, size_t sourcelen, char *err, size_t errlen)
{
    *names = NULL;
    *count = 0;
    if (skipped) { *skipped = NULL; *nskipped = 0; }
    launch_name *all = NULL;
    uint32_t n = 0;
    umb_status st = list_metadata(dir, &all, &n, err, errlen);
    if (st != UMB_OK) { free_launch_names(all, n); return st; }

    bool any_numbered = false;
    for (uint32_t i = 0; i < n; i++) any_numbered |= all[i].counter >= 0;
    char **order = calloc(n, sizeof *order), **skip = calloc(n, sizeof *skip);
    uint32_t norder = 0, nskip = 0;
    if (!order || !skip) { st = UMB_ERR_NOMEM; goto out; }

    char *pocl_path = path_join(dir, "pocl", ".log"), *cl_path = path_join(dir, "object", ".cl");
    char *pocl = pocl_path ? umb_vt_read_text(pocl_path, NULL, NULL, 0) : NULL;
    char *cl = cl_path ? umb_vt_read_text(cl_path, NULL, NULL, 0) : NULL;
    free(pocl_path);
    free(cl_path);
    char **printed = NULL;
    uint32_t nprinted = pocl_order(pocl, &printed);
    bool *used = calloc(n, sizeof *used);
    if (!used) { st = UMB_ERR_NOMEM; free(pocl); free(cl); free_names(printed, nprinted); goto out; }
    /* 1. the launches pocl.log printed, in its order */
    for (uint32_t j = 0; j < nprinted; j++)
        for (uint32_t i = 0; i < n; i++)
            if (!used[i] && (all[i].counter >= 0 || !any_numbered) && !strcmp(all[i].name, printed[j])) {
                used[i] = true;
                order[norder++] = strdup(all[i].name);
            }
    uint32_t from_pocl = norder;
    /* 2. the rest by counter, then object.cl order */
    for (uint32_t i = 0; i < n; i++) all[i].kernel_rank = kernel_rank(cl, all[i].kernel);
    qsort(all, n, sizeof *all, cmp_fallback);
    for (uint32_t i = 0; i < n; i++) {
        /* qsort moved the entries: find "used" again by name among the pocl-ordered ones */
        bool done = false;
        for (uint32_t j = 0; j < from_pocl && !done; j++) done = !strcmp(order[j], all[i].name);
        if (done) continue;
        if (all[i].counter < 0 && any_numbered) skip[nskip++] = strdup(all[i].name);
        else order[norder++] = strdup(all[i].name);
    }
    if (source && sourcelen) {
        if (from_pocl == norder)
            snprintf(source, sourcelen, "pocl.log");
        else if (from_pocl > 0)
            snprintf(source, sourcelen, "pocl.log, then %u more by counter", norder - from_pocl);
        else
            snprintf(source, sourcelen, "file names (counter, then %s)", cl ? "object.cl order" : "name");
    }
    free(used);
    free(pocl);
    free(cl);
    free_names(printed, nprinted);
    for (uint32_t i = 0; i < norder; i++) if (!order[i]) st = UMB_ERR_NOMEM;
    for (uint32_t i = 0; i < nskip; i++) if (!skip[i]) st = UMB_ERR_NOMEM;
out:
    free_launch_names(all, n);
    if (st != UMB_OK || norder == 0) {
        if (st == UMB_OK) st = UMB_ERR_FORMAT;
        free_names(order, norder);
        free_names(skip, nskip);
        return errf(err, errlen, st, "%s: %s", dir, st == UMB_ERR_NOMEM ? "out of memory" : "no launches");
    }
    *names = order;
    *count = norder;
    if (skipped) { *skipped = skip; *nskipped = nskip; }
    else free_names(skip, nskip);
    return UMB_OK;
}

/* ---- whole program ---- */

void umb_vt_program_close(umb_vt_program *p)
{
    for (uint32_t i = 0; i < p->nlaunches; i++) umb_vt_launch_file_free(&p->launches[i]);
    free(p->launches);
    free_names(p->skipped, p->nskipped);
    free(p->dir);
    free(p->elf_path);
    memset(p, 0, sizeof *p);
}

umb_status umb_vt_program_open(const char *dir, umb_vt_program *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    char **names;
    uint32_t n;
    umb_status st = umb_vt_launch_order(dir, &names, &n, &p->skipped, &p->nskipped, p->order_source,
                                        sizeof p->order_source, err, errlen);
    if (st != UMB_OK) return st;
    p->dir = strdup(dir);
    p->launches = calloc(n, sizeof *p->launches);
    if (!p->dir || !p->launches) st = errf(err, errlen, UMB_ERR_NOMEM, "%s: out of memory", dir);
    for (uint32_t i = 0; i < n && st == UMB_OK; i++) {
        st = umb_vt_launch_file_load(dir, names[i], &p->launches[i], err, errlen);
        if (st == UMB_OK) p->nlaunches++;
    }
    free_names(names, n);
    char *elf = path_join(dir, "object", ".riscv");
    FILE *f = elf ? fopen(elf, "rb") : NULL;
    if (f) {
        fclose(f);
        p->elf_path = elf;
    } else {
        free(elf);
    }
    if (st != UMB_OK) umb_vt_program_close(p);
    return st;
}

umb_status umb_vt_program_prepare(const umb_vt_program *p, uint32_t i, umb_device *dev,
                                  char *err, size_t errlen)
{
    if (i >= p->nlaunches) return errf(err, errlen, UMB_ERR_INVALID, "launch %u of %u", i, p->nlaunches);
    if (p->elf_path) {
        umb_elf e;
        umb_status st = umb_elf_open_file(&e, p->elf_path);
        if (st == UMB_OK) st = umb_elf_load_segments(&e, dev, 0);
        if (st != UMB_OK) {
            errf(err, errlen, st, "%s", e.error);
            umb_elf_close(&e);
            return st;
        }
        umb_elf_close(&e);
    }
    return umb_vt_launch_replay(dev, &p->launches[i], err, errlen);
}
