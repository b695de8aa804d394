/* Statistics documents -> runs: parsed by jansson, checked, and read into umb_stats.
 *
 * Two shapes are umbra statistics (docs/REPORT.md):
 *   one launch     the umb_stats members at the top level (umbra run), with "kernel", "grid";
 *   many launches  "launches": [{"name", "kernel", "stats": {...}}, ...] and "total": {...}
 *                  (umbra ventus run).
 * Both may carry "umbra" (version, isa, command), "device", "pc_profile" and "timing".
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

__attribute__((format(printf, 3, 4))) static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

/* A counter: absent is 0, anything but a non-negative number is an error naming the key. */
static bool get_u64(json_t *o, const char *key, uint64_t *out, const char *doc, const char *where, char *err,
                    size_t errlen)
{
    json_t *v = json_object_get(o, key);
    if (!v) return true;
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *out = (uint64_t)json_integer_value(v);
        return true;
    }
    if (json_is_real(v) && json_real_value(v) >= 0 && json_real_value(v) < 1.8e19) {
        *out = (uint64_t)json_real_value(v);
        return true;
    }
    return fail(err, errlen, "%s: %s\"%s\" is not a non-negative number", doc, where, key);
}

static bool read_memory(json_t *mem, umb_stats *s, const char *doc, const char *where, char *err, size_t errlen)
{
    if (!mem) return true;
    if (!json_is_object(mem)) return fail(err, errlen, "%s: %s\"memory\" is not an object", doc, where);
    for (int i = 0; i < UMB_SPACE_COUNT; i++) {
        json_t *t = json_object_get(mem, umb_addr_space_name((umb_addr_space)i));
        if (!t) continue;
        char w[160];
        snprintf(w, sizeof w, "%smemory.%s.", where, umb_addr_space_name((umb_addr_space)i));
        if (!json_is_object(t)) return fail(err, errlen, "%s: %s is not an object", doc, w);
        umb_mem_traffic *m = &s->mem[i];
        if (!get_u64(t, "loads", &m->loads, doc, w, err, errlen) || !get_u64(t, "stores", &m->stores, doc, w, err, errlen) ||
            !get_u64(t, "atomics", &m->atomics, doc, w, err, errlen) ||
            !get_u64(t, "bytes_read", &m->bytes_read, doc, w, err, errlen) ||
            !get_u64(t, "bytes_written", &m->bytes_written, doc, w, err, errlen))
            return false;
    }
    return true;
}

/* An umb_stats object as umb_stats_write_json writes it; where = "total." etc. for messages. */
static bool read_stats(json_t *o, umb_stats *s, const char *doc, const char *where, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    if (!json_is_object(o)) return fail(err, errlen, "%s: %sstats is not an object", doc, where);
    if (!json_object_get(o, "warp_instructions"))
        return fail(err, errlen, "%s: %s\"warp_instructions\" is missing", doc, where);
    struct { const char *key; uint64_t *dst; } f[] = {
        { "launches", &s->launches }, { "workgroups", &s->workgroups }, { "warps", &s->warps },
        { "warp_instructions", &s->warp_insts }, { "thread_instructions", &s->thread_insts },
        { "lane_slots", &s->lane_slots }, { "barriers", &s->barriers },
        { "divergent_branches", &s->divergent_branches },
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (!get_u64(o, f[i].key, f[i].dst, doc, where, err, errlen))
            return false;
    json_t *cls = json_object_get(o, "instructions_by_class");
    if (cls && !json_is_object(cls)) return fail(err, errlen, "%s: %s\"instructions_by_class\" is not an object", doc, where);
    char w[160];
    snprintf(w, sizeof w, "%sinstructions_by_class.", where);
    for (int i = 0; cls && i < UMB_CLASS_COUNT; i++)
        if (!get_u64(cls, umb_insn_class_name((umb_insn_class)i), &s->by_class[i], doc, w, err, errlen)) return false;
    if (!read_memory(json_object_get(o, "memory"), s, doc, where, err, errlen)) return false;
    json_t *t = json_object_get(o, "host_seconds");
    if (t && !json_is_number(t)) return fail(err, errlen, "%s: %s\"host_seconds\" is not a number", doc, where);
    s->host_seconds = t ? json_number_value(t) : 0.0;
    return true;
}

/* "wavefront_size" -> "wavefront size" */
static void humanize(char *dst, size_t len, const char *key)
{
    snprintf(dst, len, "%s", key);
    for (char *p = dst; *p; p++)
        if (*p == '_') *p = ' ';
}

/* A scalar or an array of scalars as text ("4 x 1 x 1"); false for anything else. */
static bool value_text(json_t *v, char *buf, size_t len)
{
    if (json_is_string(v)) return snprintf(buf, len, "%s", json_string_value(v)) >= 0;
    if (json_is_integer(v)) return snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v)) >= 0;
    if (json_is_real(v)) return snprintf(buf, len, "%g", json_real_value(v)) >= 0;
    if (json_is_boolean(v)) return snprintf(buf, len, "%s", json_is_true(v) ? "yes" : "no") >= 0;
    if (json_is_null(v)) return snprintf(buf, len, "(chosen by umbra)") >= 0;
    if (!json_is_array(v) || json_array_size(v) == 0) return false;
    size_t n = 0, i;
    json_t *e;
    buf[0] = '\0';
    json_array_foreach(v, i, e) {
        char one[64];
        if (json_is_array(e) || json_is_object(e) || !value_text(e, one, sizeof one)) return false;
        if (n + 1 >= len) break;   /* full: the rest is cut */
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " x " : "", one);
    }
    return true;
}

static bool add_info(rep_run *r, const char *key, const char *value)
{
    rep_kv *nv = realloc(r->info, (r->ninfo + 1) * sizeof *nv);
    if (!nv) return false;
    r->info = nv;
    snprintf(nv[r->ninfo].key, sizeof nv[r->ninfo].key, "%s", key);
    snprintf(nv[r->ninfo].value, sizeof nv[r->ninfo].value, "%.*s", (int)sizeof nv[r->ninfo].value - 1, value);
    r->ninfo++;
    return true;
}

/* Every scalar member of an object as "prefix key: value". */
static bool add_object_info(rep_run *r, json_t *o, const char *prefix)
{
    if (!json_is_object(o)) return true;
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        char key[48], h[40], val[208];
        if (!value_text(v, val, sizeof val)) continue;
        humanize(h, sizeof h, k);
        snprintf(key, sizeof key, "%s%s", prefix, h);
        if (!add_info(r, key, val)) return false;
    }
    return true;
}

/* "4 x 1 x 1 workgroups, 4 warps x 16 threads" from a Ventus launch's "kernel" object. */
static void launch_shape(json_t *k, char *buf, size_t len)
{
    char grid[64] = "";
    json_t *g = json_object_get(k, "grid");
    json_t *w = json_object_get(k, "warps_per_workgroup"), *t = json_object_get(k, "threads_per_warp");
    buf[0] = '\0';
    if (g && !value_text(g, grid, sizeof grid)) grid[0] = '\0';
    for (char *r = grid, *q = grid; ; q++) {   /* "4 x 1 x 1" -> "4x1x1": the table column stays narrow */
        if (*q != ' ') *r++ = *q;
        if (!*q) break;
    }
    if (grid[0] && json_is_integer(w) && json_is_integer(t))
        snprintf(buf, len, "%s WGs, %" JSON_INTEGER_FORMAT " warps x %" JSON_INTEGER_FORMAT, grid,
                 json_integer_value(w), json_integer_value(t));
    else if (grid[0])
        snprintf(buf, len, "%s WGs", grid);
}

static int cmp_hot(const void *a, const void *b)
{
    const rep_hot *x = a, *y = b;
    return (x->count < y->count) - (x->count > y->count);
}

static bool read_profile(rep_run *r, json_t *prof, char *err, size_t errlen)
{
    if (!prof) return true;
    json_t *list = json_object_get(prof, "instructions");
    if (!json_is_object(prof) || !json_is_array(list))
        return fail(err, errlen, "%s: \"pc_profile\" must be an object with an \"instructions\" array", r->name);
    size_t n = json_array_size(list), i;
    r->hot = calloc(n ? n : 1, sizeof *r->hot);
    if (!r->hot) return fail(err, errlen, "out of memory");
    json_t *e;
    json_array_foreach(list, i, e) {
        rep_hot *h = &r->hot[i];
        json_t *pc = json_object_get(e, "pc"), *dis = json_object_get(e, "disasm");
        if (!json_is_string(pc) || !json_is_string(dis))
            return fail(err, errlen, "%s: pc_profile.instructions[%zu] needs \"pc\" and \"disasm\" strings", r->name, i);
        if (!get_u64(e, "count", &h->count, r->name, "pc_profile.instructions[].", err, errlen)) return false;
        snprintf(h->pc, sizeof h->pc, "%s", json_string_value(pc));
        snprintf(h->disasm, sizeof h->disasm, "%s", json_string_value(dis));
        r->hot_total += h->count;
    }
    r->nhot = n;
    qsort(r->hot, n, sizeof *r->hot, cmp_hot);
    return true;
}

/* umbra ventus run: launches[] and total. */
static bool read_many(rep_run *r, json_t *doc, char *err, size_t errlen)
{
    json_t *ls = json_object_get(doc, "launches");
    if (!read_stats(json_object_get(doc, "total"), &r->total, r->name, "total.", err, errlen)) return false;
    r->nlaunches = json_array_size(ls);
    r->launches = calloc(r->nlaunches ? r->nlaunches : 1, sizeof *r->launches);
    if (!r->launches) return fail(err, errlen, "out of memory");
    size_t i;
    json_t *e;
    json_array_foreach(ls, i, e) {
        char where[64];
        snprintf(where, sizeof where, "launches[%zu].", i);
        json_t *name = json_object_get(e, "name");
        if (!json_is_object(e) || !json_is_string(name))
            return fail(err, errlen, "%s: %s is not an object with a \"name\" string", r->name, where);
        if (!read_stats(json_object_get(e, "stats"), &r->launches[i].st, r->name, where, err, errlen)) return false;
        snprintf(r->launches[i].name, sizeof r->launches[i].name, "%s", json_string_value(name));
        launch_shape(json_object_get(e, "kernel"), r->launches[i].shape, sizeof r->launches[i].shape);
    }
    return true;
}

/* umbra run: the statistics at the top level, one launch. */
static bool read_one(rep_run *r, json_t *doc, char *err, size_t errlen)
{
    if (!read_stats(doc, &r->total, r->name, "", err, errlen)) return false;
    r->launches = calloc(1, sizeof *r->launches);
    if (!r->launches) return fail(err, errlen, "out of memory");
    r->nlaunches = 1;
    r->launches[0].st = r->total;
    json_t *k = json_object_get(doc, "kernel"), *name = json_object_get(k, "name");
    snprintf(r->launches[0].name, sizeof r->launches[0].name, "%s", json_is_string(name) ? json_string_value(name) : "launch");
    json_t *g = json_object_get(doc, "grid");
    char gl[64] = "", lo[64] = "";
    if (value_text(json_object_get(g, "global_size"), gl, sizeof gl)) {
        if (!value_text(json_object_get(g, "local_size"), lo, sizeof lo)) snprintf(lo, sizeof lo, "?");
        snprintf(r->launches[0].shape, sizeof r->launches[0].shape, "global %s, local %s", gl, lo);
    }
    return true;
}

static void default_label(char *dst, size_t len, const char *name)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    size_t n = strlen(base);
    if (n > 5 && !strcmp(base + n - 5, ".json")) n -= 5;
    snprintf(dst, len, "%.*s", (int)n, base);
}

/* One document (parsed, owned by r from here on) into r. */
static bool read_document(rep_run *r, json_t *doc, char *err, size_t errlen)
{
    r->doc = doc;
    if (!json_is_object(doc)) return fail(err, errlen, "%s: not umbra statistics (the top level is not an object)", r->name);
    bool many = json_is_array(json_object_get(doc, "launches")) && json_object_get(doc, "total");
    if (!many && !json_object_get(doc, "warp_instructions"))
        return fail(err, errlen,
                    "%s: not umbra statistics (no \"warp_instructions\", nor \"launches\" and \"total\", at the top level)",
                    r->name);
    if (!(many ? read_many(r, doc, err, errlen) : read_one(r, doc, err, errlen))) return false;
    json_t *u = json_object_get(doc, "umbra"), *isa = json_object_get(u, "isa");
    if (json_is_string(isa)) snprintf(r->isa, sizeof r->isa, "%s", json_string_value(isa));
    char v[208];
    bool ok = add_info(r, "file", r->name);
    if (ok && value_text(json_object_get(doc, "input"), v, sizeof v)) ok = add_info(r, "input", v);
    ok = ok && add_object_info(r, u, "") && add_object_info(r, json_object_get(doc, "device"), "device: ") &&
         add_object_info(r, json_object_get(doc, "kernel"), "kernel: ") &&
         add_object_info(r, json_object_get(doc, "grid"), "grid: ");
    if (!ok) return fail(err, errlen, "out of memory");
    if (!read_profile(r, json_object_get(doc, "pc_profile"), err, errlen)) return false;
    json_t *t = json_object_get(doc, "timing");
    if (t && !json_is_object(t)) return fail(err, errlen, "%s: \"timing\" is not an object", r->name);
    r->timing = t;
    return true;
}

/* A later document of a stream (statistics appended to one file, run after run): its launches
 * follow r's, its counters add to r's totals, its per-PC counts to r's at the same PC. The
 * first document's summary and timing stay the run's. */
static bool merge_document(rep_run *r, rep_run *t, char *err, size_t errlen)
{
    rep_launch *l = realloc(r->launches, (r->nlaunches + t->nlaunches + 1) * sizeof *l);
    rep_hot *h = l ? realloc(r->hot, (r->nhot + t->nhot + 1) * sizeof *h) : NULL;
    if (l) r->launches = l;
    if (h) r->hot = h;
    if (!l || !h) return fail(err, errlen, "out of memory");
    memcpy(l + r->nlaunches, t->launches, t->nlaunches * sizeof *l);
    r->nlaunches += t->nlaunches;
    umb_stats_add(&r->total, &t->total);
    for (size_t i = 0; i < t->nhot; i++) {
        size_t j = 0;
        while (j < r->nhot && strcmp(r->hot[j].pc, t->hot[i].pc)) j++;
        if (j == r->nhot) r->hot[r->nhot++] = t->hot[i];
        else r->hot[j].count += t->hot[i].count;
    }
    r->hot_total += t->hot_total;
    qsort(r->hot, r->nhot, sizeof *r->hot, cmp_hot);
    return true;
}

/* Line and column in the whole text of jansson's line/column inside the part that starts at off. */
static void text_position(const char *text, size_t off, const json_error_t *je, int *line, int *col)
{
    int lines = 0;
    size_t line_start = 0;
    for (size_t i = 0; i < off; i++)
        if (text[i] == '\n') lines++, line_start = i + 1;
    *line = je->line + lines;
    *col = je->line == 1 ? je->column + (int)(off - line_start) : je->column;
}

/* A kernel launched again keeps its name with " #2", " #3", ...: charts and tables key
 * launches by name, and runs line up launch by launch. */
static bool unique_launch_names(rep_run *r, char *err, size_t errlen)
{
    char (*orig)[sizeof r->launches[0].name] = malloc((r->nlaunches + 1) * sizeof *orig);
    if (!orig) return fail(err, errlen, "out of memory");
    for (size_t i = 0; i < r->nlaunches; i++) memcpy(orig[i], r->launches[i].name, sizeof orig[i]);
    for (size_t i = 0; i < r->nlaunches; i++) {
        unsigned seen = 0;
        for (size_t j = 0; j < i; j++) seen += !strcmp(orig[j], orig[i]);
        if (seen)
            snprintf(r->launches[i].name, sizeof r->launches[i].name, "%.100s #%u", orig[i], seen + 1);
    }
    free(orig);
    return true;
}

bool rep_run_read(rep_run *r, const umb_report_input *in, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", in->name ? in->name : "(statistics)");
    if (in->label && in->label[0]) snprintf(r->label, sizeof r->label, "%s", in->label);
    else default_label(r->label, sizeof r->label, r->name);
    const char *text = in->json ? in->json : "";
    size_t len = in->json ? in->len : 0, off = 0;
    for (unsigned ndoc = 1;; ndoc++) {
        while (off < len && (text[off] == ' ' || text[off] == '\n' || text[off] == '\r' || text[off] == '\t')) off++;
        if (ndoc > 1 && off == len) return unique_launch_names(r, err, errlen);
        json_error_t je;
        json_t *doc = json_loadb(text + off, len - off, JSON_DISABLE_EOF_CHECK, &je);
        if (!doc) {
            int line, col;
            text_position(text, off, &je, &line, &col);
            return fail(err, errlen, "%s: line %d, column %d: %s", r->name, line, col, je.text);
        }
        off += (size_t)je.position;   /* the bytes this document took */
        if (ndoc == 1) {
            if (!read_document(r, doc, err, errlen)) return false;
            continue;
        }
        rep_run t;
        memset(&t, 0, sizeof t);
        snprintf(t.name, sizeof t.name, "%.480s (document %u)", r->name, ndoc);
        bool ok = read_document(&t, doc, err, errlen) && merge_document(r, &t, err, errlen);
        rep_run_free(&t);
        if (!ok) return false;
    }
}

void rep_run_free(rep_run *r)
{
    free(r->info);
    free(r->launches);
    free(r->hot);
    if (r->doc) json_decref(r->doc);
    memset(r, 0, sizeof *r);
}
