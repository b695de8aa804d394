/* OpenCL printf records -> text (see rdna3_printf.h for the buffer and record layout).
 *
 * Each conversion is handed to the host C library's snprintf with the argument converted to the C
 * type the conversion and its length modifier name, so the text is exactly what C printf makes of
 * the value; OpenCL's vector conversions (%v4hlf, %v2hhx, ...) format each element that way and
 * join them with ','.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text_buf.h"
#include "runtime/rdna3_printf.h"

/* ---------------- the metadata's format strings ---------------- */

static bool parse_uint(const char **s, uint32_t *out)
{
    const char *p = *s;
    uint64_t v = 0;
    if (*p < '0' || *p > '9') return false;
    while (*p >= '0' && *p <= '9') {
        v = v * 10 + (uint64_t)(*p++ - '0');
        if (v > 0xffffffffu) return false;
    }
    if (*p != ':') return false;
    *out = (uint32_t)v;
    *s = p + 1;
    return true;
}

/* Undo the escapes AMDGPUPrintfRuntimeBinding writes (\a \b \f \n \r \v, \72 for ':'). */
static void unescape(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (*r != '\\') { *w++ = *r; continue; }
        switch (r[1]) {
        case 'a': *w++ = '\a'; r++; break;
        case 'b': *w++ = '\b'; r++; break;
        case 'f': *w++ = '\f'; r++; break;
        case 'n': *w++ = '\n'; r++; break;
        case 'r': *w++ = '\r'; r++; break;
        case 'v': *w++ = '\v'; r++; break;
        case '7':
            if (r[2] == '2') { *w++ = ':'; r += 2; break; }
            /* fall through */
        default: *w++ = '\\'; break;
        }
    }
    *w = '\0';
}

static umb_status parse_format(const char *str, rdna3_printf_format *f)
{
    const char *p = str;
    if (!parse_uint(&p, &f->id) || !parse_uint(&p, &f->nargs) || f->nargs > 4096) return UMB_ERR_FORMAT;
    f->sizes = calloc(f->nargs ? f->nargs : 1, sizeof *f->sizes);
    if (!f->sizes) return UMB_ERR_NOMEM;
    /* A size per argument the compiler stored. LLVM 19's printf lowering (AMDGPUPrintfRuntimeBinding)
     * stores only the first k arguments, k the conversions its scanner knows (not %F, %A, %n; later
     * LLVM knows them), and lists k sizes, so there may be fewer than NARGS. The format part has
     * every ':' escaped (\72), so "DIGITS:" after NARGS is always a size. */
    uint64_t total = 4;
    for (f->nstored = 0; f->nstored < f->nargs && parse_uint(&p, &f->sizes[f->nstored]); f->nstored++) {
        if (f->sizes[f->nstored] == 0 || f->sizes[f->nstored] > 1024) return UMB_ERR_FORMAT;
        total += f->sizes[f->nstored];
    }
    f->record_size = (uint32_t)total;
    f->text = strdup(p);
    if (!f->text) return UMB_ERR_NOMEM;
    unescape(f->text);
    return UMB_OK;
}

static uint32_t count_conversions(const char *text);

/* Say (once per format, when the code object is loaded) that the compiler left values out. */
static void warn_lost_values(const char *path, const rdna3_printf_format *f)
{
    uint32_t conversions = count_conversions(f->text);
    uint32_t wanted = conversions < f->nargs ? conversions : f->nargs;
    if (f->nstored >= wanted) return;
    fprintf(stderr, "umbra: %s: printf format %u (\"%.60s%s\") has %u conversions but the compiler stored only %u "
                    "of its %u values: LLVM 19's printf lowering does not recognise %%F, %%A and %%n, and "
                    "leaves out their values and every later one; those conversions print as written "
                    "(umbra cc and umbra's OpenCL compiler rewrite them; this code object was built without)\n",
            path, f->id, f->text, strlen(f->text) > 60 ? "..." : "", conversions, f->nstored, f->nargs);
}

umb_status rdna3_printf_table_build(const umb_amdgpu_metadata *md, const char *path, rdna3_printf_table *t,
                                    char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (!md->nprintf) return UMB_OK;
    t->formats = calloc(md->nprintf, sizeof *t->formats);
    if (!t->formats) return UMB_ERR_NOMEM;
    for (uint32_t i = 0; i < md->nprintf; i++) {
        umb_status st = parse_format(md->printf_formats[i], &t->formats[i]);
        t->n = i + 1;
        if (st == UMB_ERR_FORMAT && err && errlen)
            snprintf(err, errlen, "%s: metadata note: amdhsa.printf[%u] is not \"ID:NARGS:SIZE...:FORMAT\" "
                     "with sizes of 1-1024 bytes", path, i);
        if (st) {
            rdna3_printf_table_free(t);
            return st;
        }
        if (t->formats[i].record_size > t->max_record) t->max_record = t->formats[i].record_size;
        warn_lost_values(path, &t->formats[i]);
    }
    return UMB_OK;
}

void rdna3_printf_table_free(rdna3_printf_table *t)
{
    for (uint32_t i = 0; i < t->n; i++) {
        free(t->formats[i].sizes);
        free(t->formats[i].text);
    }
    free(t->formats);
    memset(t, 0, sizeof *t);
}

/* ---------------- formatting ---------------- */

/* One conversion specification: %[flags][width][.precision][vN][length]conv */
typedef struct conv_spec {
    char flags[8];
    int width, precision;       /* -1: not given */
    bool width_star, precision_star;   /* HIP: '*', the value is an argument */
    uint32_t vector;            /* elements; 0 for a scalar */
    char length[3];             /* "", "hh", "h", "hl", "l", "ll", "j", "z", "t", "L" */
    char conv;
} conv_spec;

/* OpenCL's conversions (vectors, no '*', no %n), or with `hip` C's as HIP's printf takes them ('*'
 * widths and precisions, %n; no vectors). */
static bool parse_spec(const char **pp, conv_spec *c, bool hip)
{
    const char *p = *pp;
    memset(c, 0, sizeof *c);
    c->width = c->precision = -1;
    size_t nf = 0;
    while (*p && strchr("-+ #0", *p) && nf < sizeof c->flags - 1) c->flags[nf++] = *p++;
    if (hip && *p == '*') {
        c->width_star = true;
        p++;
    } else if (*p >= '0' && *p <= '9') {
        c->width = 0;
        while (*p >= '0' && *p <= '9' && c->width < 100000) c->width = c->width * 10 + (*p++ - '0');
    }
    if (*p == '.') {
        p++;
        c->precision = 0;
        if (hip && *p == '*') {
            c->precision_star = true;
            p++;
        }
        while (!c->precision_star && *p >= '0' && *p <= '9' && c->precision < 100000)
            c->precision = c->precision * 10 + (*p++ - '0');
    }
    if (!hip && *p == 'v') {
        p++;
        while (*p >= '0' && *p <= '9' && c->vector < 100) c->vector = c->vector * 10 + (uint32_t)(*p++ - '0');
        if (c->vector != 2 && c->vector != 3 && c->vector != 4 && c->vector != 8 && c->vector != 16) return false;
    }
    static const char *const lengths[] = { "hh", "hl", "ll", "h", "l", "j", "z", "t", "L" };
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        if (hip && !strcmp(lengths[i], "hl")) continue;   /* OpenCL's (a 32-bit vector element) */
        if (!strncmp(p, lengths[i], strlen(lengths[i]))) {
            strcpy(c->length, lengths[i]);
            p += strlen(lengths[i]);
            break;
        }
    }
    /* umbra's compiler writes OpenCL's %F and %A as %<marker>f and %<marker>a, which LLVM 19's
     * printf lowering knows (RDNA3_PRINTF_UPPER_MARK, rdna3_cc.c) */
    bool upper = !hip && *p == RDNA3_PRINTF_UPPER_MARK && (p[1] == 'f' || p[1] == 'a');
    if (upper) p++;
    if (!*p || !strchr(hip ? "diouxXcspfFeEgGaAn" : "diouxXcspfFeEgGaA", *p)) return false;
    c->conv = upper ? (char)(*p++ - 'a' + 'A') : *p++;
    *pp = p;
    return true;
}

/* The host format for one value: flags, width, precision, then `length` and the conversion. */
static void host_format(const conv_spec *c, const char *length, char conv, char *out, size_t n)
{
    int k = snprintf(out, n, "%%%s", c->flags);
    if (c->width >= 0) k += snprintf(out + k, n - (size_t)k, "%d", c->width);
    if (c->precision >= 0) k += snprintf(out + k, n - (size_t)k, ".%d", c->precision);
    snprintf(out + k, n - (size_t)k, "%s%c", length, conv);
}

static uint64_t load_le(const uint8_t *p, uint32_t size)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < size && i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static double half_to_double(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* Format one scalar value of `size` bytes at p. */
static void format_value(umb_text_buf *b, const conv_spec *c, const uint8_t *p, uint32_t size)
{
    char fmt[64];
    uint64_t raw = load_le(p, size);
    bool is_signed = c->conv == 'd' || c->conv == 'i';
    switch (c->conv) {
    case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': {
        /* the value as stored (sign-extended from its width for signed conversions), then the
         * length modifier's narrowing, as C's va_arg + conversion would see it */
        int64_t sv = size >= 8 ? (int64_t)raw : size == 2 ? (int16_t)raw : size == 1 ? (int8_t)raw : (int32_t)raw;
        uint64_t uv = size >= 8 ? raw : raw & ((1ull << (8 * size)) - 1);
        if (!strcmp(c->length, "hh")) sv = (signed char)sv, uv = (unsigned char)uv;
        else if (!strcmp(c->length, "h")) sv = (short)sv, uv = (unsigned short)uv;
        else if (!c->length[0] || !strcmp(c->length, "hl")) sv = (int32_t)sv, uv = (uint32_t)uv;
        host_format(c, "ll", c->conv, fmt, sizeof fmt);
        if (is_signed) umb_text_printf(b, fmt, (long long)sv);
        else umb_text_printf(b, fmt, (unsigned long long)uv);
        break;
    }
    case 'c':
        host_format(c, "", 'c', fmt, sizeof fmt);
        umb_text_printf(b, fmt, (int)(unsigned char)raw);
        break;
    case 'p':
        host_format(c, "", 'p', fmt, sizeof fmt);
        umb_text_printf(b, fmt, (void *)(uintptr_t)raw);
        break;
    case 's': {
        /* a constant string's bytes (no NUL stored); 0xffffff00 marks "" */
        size_t n = 0;
        if (!(size == 4 && raw == 0xffffff00u))
            while (n < size && p[n]) n++;
        char *s = malloc(n + 1);
        if (!s) {
            b->nomem = true;
            return;
        }
        memcpy(s, p, n);
        s[n] = '\0';
        host_format(c, "", 's', fmt, sizeof fmt);
        umb_text_printf(b, fmt, s);
        free(s);
        break;
    }
    default: {   /* f F e E g G a A */
        double v;
        if (size == 2) v = half_to_double((uint16_t)raw);
        else if (size == 4) {
            float f;
            uint32_t r32 = (uint32_t)raw;
            memcpy(&f, &r32, 4);
            v = f;
        } else memcpy(&v, &raw, 8);
        host_format(c, "", c->conv, fmt, sizeof fmt);
        umb_text_printf(b, fmt, v);
        break;
    }
    }
}

/* A vector argument: its elements (alloc size / slots each; 3 elements take 4 slots), joined by ','. */
static void format_vector(umb_text_buf *b, const conv_spec *c, const uint8_t *p, uint32_t size)
{
    uint32_t slots = c->vector == 3 ? 4 : c->vector;
    uint32_t elem = size / slots;
    if (elem == 0 || elem > 8 || elem * slots != size) {
        umb_text_printf(b, "<vector of %u bytes for %%v%u>", size, c->vector);
        return;
    }
    for (uint32_t i = 0; i < c->vector; i++) {
        if (i) umb_text_append(b, ",", 1);
        format_value(b, c, p + i * elem, elem);
    }
}

/* The conversions of an OpenCL format, as rdna3_printf_format_record walks them. */
static uint32_t count_conversions(const char *text)
{
    uint32_t n = 0;
    for (const char *s = text; (s = strchr(s, '%'));) {
        if (s[1] == '%') {
            s += 2;
            continue;
        }
        const char *after = s + 1;
        conv_spec c;
        if (parse_spec(&after, &c, false)) n++;
        s = after > s + 1 ? after : s + 1;
    }
    return n;
}

char *rdna3_printf_format_record(const rdna3_printf_format *f, const uint8_t *args, size_t *len)
{
    umb_text_buf b = { 0 };
    umb_text_append(&b, "", 0);
    uint32_t next = 0, offset = 0;
    for (const char *s = f->text; *s;) {
        const char *pct = strchr(s, '%');
        if (!pct) {
            umb_text_append(&b, s, strlen(s));
            break;
        }
        umb_text_append(&b, s, (size_t)(pct - s));
        if (pct[1] == '%') {
            umb_text_append(&b, "%", 1);
            s = pct + 2;
            continue;
        }
        const char *after = pct + 1;
        conv_spec c;
        if (!parse_spec(&after, &c, false) || next >= f->nstored) {
            /* not a conversion C or OpenCL knows, or no argument stored for it: kept as written */
            umb_text_append(&b, pct, (size_t)(after - pct));
            s = after > pct + 1 ? after : pct + 1;
            continue;
        }
        uint32_t size = f->sizes[next];
        if (c.vector) format_vector(&b, &c, args + offset, size);
        else format_value(&b, &c, args + offset, size);
        offset += size;
        next++;
        s = after;
    }
    if (b.nomem) {
        free(b.s);
        return NULL;
    }
    *len = b.len;
    return b.s;
}

/* ---------------- the buffer ---------------- */

static const rdna3_printf_format *find_format(const rdna3_printf_table *t, uint32_t id)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (t->formats[i].id == id) return &t->formats[i];
    return NULL;
}

void rdna3_printf_emit(const rdna3_printf_table *t, const uint8_t *buffer, size_t bytes, const char *kernel,
                       umb_rdna3_printf_fn fn, void *ctx)
{
    if (bytes < RDNA3_PRINTF_HEADER) return;
    uint32_t used = (uint32_t)load_le(buffer, 4), capacity = (uint32_t)load_le(buffer + 4, 4);
    size_t end = RDNA3_PRINTF_HEADER + (size_t)used;
    if (end > bytes) {
        fprintf(stderr, "umbra: kernel %s: printf buffer header says %u bytes of records in a %zu-byte buffer; "
                        "printing what fits\n", kernel, used, bytes - RDNA3_PRINTF_HEADER);
        end = bytes;
    }
    for (size_t at = RDNA3_PRINTF_HEADER; at + 4 <= end;) {
        uint32_t id = (uint32_t)load_le(buffer + at, 4);
        const rdna3_printf_format *f = find_format(t, id);
        if (!f || at + f->record_size > end) {
            fprintf(stderr, "umbra: kernel %s: printf buffer offset %zu: %s (format ID %u); the rest is not printed\n",
                    kernel, at - RDNA3_PRINTF_HEADER, f ? "record runs past the written bytes" : "unknown format", id);
            return;
        }
        size_t len = 0;
        char *text = rdna3_printf_format_record(f, buffer + at + 4, &len);
        if (!text) {
            fprintf(stderr, "umbra: kernel %s: out of host memory formatting printf output\n", kernel);
            return;
        }
        if (fn) fn(ctx, text, len);
        else fwrite(text, 1, len, stdout);
        free(text);
        at += f->record_size;
    }
    if (!fn) fflush(stdout);
    /* __printf_alloc drops a record that does not fit and counts nothing: a buffer with no room
     * left for this program's largest record may have dropped some */
    if ((uint64_t)RDNA3_PRINTF_HEADER + used + t->max_record > capacity)
        fprintf(stderr, "umbra: kernel %s: the printf buffer (%u bytes) is full: records that did not fit were lost, "
                        "as on ROCm (a larger buffer: --printf-buffer BYTES)\n", kernel, capacity);
}

/* ---------------- HIP printf messages (hostcall) ---------------- */

/* C's rules for a '*' width or precision taken from an argument word. */
static void star_values(conv_spec *c, int64_t width, int64_t precision)
{
    if (c->width_star) {
        int v = (int)width;
        if (v < 0) {
            if (!strchr(c->flags, '-') && strlen(c->flags) < sizeof c->flags - 1) strcat(c->flags, "-");
            v = v == INT_MIN ? INT_MAX : -v;
        }
        c->width = v;
    }
    if (c->precision_star) c->precision = (int)precision < 0 ? -1 : (int)precision;
}

char *rdna3_printf_format_hip(const uint8_t *data, size_t nwords, size_t *len)
{
    size_t nbytes = nwords * 8u;
    size_t flen = strnlen((const char *)data, nbytes);
    char *fmt = malloc(flen + 1);
    if (!fmt) return NULL;
    memcpy(fmt, data, flen);
    fmt[flen] = '\0';
    size_t at = flen < nbytes ? (flen + 8u) / 8u : nwords;   /* the string, its NUL, padding */
    umb_text_buf b = { 0 };
    umb_text_append(&b, "", 0);
    for (const char *s = fmt; *s;) {
        const char *pct = strchr(s, '%');
        if (!pct) {
            umb_text_append(&b, s, strlen(s));
            break;
        }
        umb_text_append(&b, s, (size_t)(pct - s));
        if (pct[1] == '%') {
            umb_text_append(&b, "%", 1);
            s = pct + 2;
            continue;
        }
        if (at >= nwords) break;   /* no argument left: ROCm stops printing here */
        const char *after = pct + 1;
        conv_spec c;
        if (!parse_spec(&after, &c, true)) {
            /* Not a C conversion: ROCm hands the text up to the next conversion character to the C
             * library (which prints it as it is) with one argument; without one, it stops. */
            const char *conv = strpbrk(pct + 1, "diouxXfFeEgGaAcspn");
            if (!conv) break;
            umb_text_append(&b, pct, (size_t)(conv + 1 - pct));
            at++;
            s = conv + 1;
            continue;
        }
        size_t stars = (size_t)c.width_star + (size_t)c.precision_star;
        if (nwords - at < stars + 1) break;   /* ROCm: not enough arguments for the '*'s: stops */
        int64_t sv[2] = { 0, 0 };
        for (size_t i = 0; i < stars; i++) sv[i] = (int64_t)load_le(data + 8u * at++, 8);
        star_values(&c, c.width_star ? sv[0] : 0, c.precision_star ? sv[c.width_star ? 1 : 0] : 0);
        if (c.conv == 'n') {
            at++;   /* ignored, as ROCm does; its argument is skipped */
        } else if (c.conv == 's') {
            /* the string's bytes, NUL, padding to 8 bytes (the device sent it with its length) */
            const uint8_t *str = data + 8u * at;
            size_t room = nbytes - 8u * at, slen = strnlen((const char *)str, room);
            char *copy = malloc(slen + 1), hf[64];
            if (!copy) {
                b.nomem = true;
                break;
            }
            memcpy(copy, str, slen);
            copy[slen] = '\0';
            host_format(&c, "", 's', hf, sizeof hf);
            umb_text_printf(&b, hf, copy);
            free(copy);
            at += slen < room ? (slen + 8u) / 8u : room / 8u;
        } else {
            format_value(&b, &c, data + 8u * at++, 8);   /* integers, %c, %p, doubles: one word */
        }
        s = after;
    }
    free(fmt);
    if (b.nomem) {
        free(b.s);
        return NULL;
    }
    *len = b.len;
    return b.s;
}

/* ---------------- before LLVM 19's printf lowering: %F and %A ----------------
 *
 * LLVM 19's AMDGPUPrintfRuntimeBinding (the back end's printf lowering for OpenCL) finds the
 * conversions of a format with a letter set that lacks F, A and n, and stores only as many
 * arguments as conversions it found: a format with %F or %A loses that value and every later one
 * (later LLVM has the letters). Before code generation umbra writes each %F/%A of a printf format
 * as %<mark>f/%<mark>a: conversions LLVM 19 knows, with a byte parse_spec reads back as the upper
 * case. Only the globals passed as printf's format are touched. */

static bool ir_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '$' || c == '-';
}

/* Is the global `name` (without '@', n bytes) the format argument of a printf call in ir? */
static bool is_printf_format(const char *ir, const char *name, size_t n)
{
    for (const char *s = ir; (s = strstr(s, "@printf(")); ) {
        s += 8;
        size_t arg_end = strcspn(s, ",\n");   /* the first argument: "ptr addrspace(4) noundef @NAME" */
        const char *at = memchr(s, '@', arg_end);
        if (at && !strncmp(at + 1, name, n) && !ir_name_char(at[1 + n])) return true;
    }
    return false;
}

static int hex_value(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The bytes of an IR string literal (after c"), up to its closing quote; *end: past the quote. */
static size_t decode_ir_string(const char *p, uint8_t *out, const char **end)
{
    size_t n = 0;
    while (*p && *p != '"') {
        if (*p == '\\' && hex_value(p[1]) >= 0 && hex_value(p[2]) >= 0) {
            out[n++] = (uint8_t)(hex_value(p[1]) * 16 + hex_value(p[2]));
            p += 3;
        } else {
            out[n++] = (uint8_t)*p++;
        }
    }
    *end = *p == '"' ? p + 1 : p;
    return n;
}

/* Rewrite the %F/%A conversions of a format's bytes; the result's length. */
static size_t mark_upper_conversions(const uint8_t *in, size_t n, uint8_t *out)
{
    size_t w = 0;
    for (size_t i = 0; i < n;) {
        if (in[i] != '%') {
            out[w++] = in[i++];
            continue;
        }
        size_t j = i + 1;
        if (j < n && in[j] == '%') {
            out[w++] = '%', out[w++] = '%';
            i = j + 1;
            continue;
        }
        while (j < n && in[j] && strchr("-+ #0123456789.vhlLjzt", in[j])) j++;   /* flags ... length */
        memcpy(out + w, in + i, j - i);
        w += j - i;
        i = j;
        if (i < n && (in[i] == 'F' || in[i] == 'A')) {
            out[w++] = RDNA3_PRINTF_UPPER_MARK;
            out[w++] = (uint8_t)(in[i++] - 'A' + 'a');
        }
    }
    return w;
}

static void encode_ir_string(umb_text_buf *o, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char tmp[4];
        if (b[i] >= 0x20 && b[i] < 0x7f && b[i] != '"' && b[i] != '\\') {
            tmp[0] = (char)b[i];
            umb_text_append(o, tmp, 1);
        } else {
            snprintf(tmp, sizeof tmp, "\\%02X", b[i]);
            umb_text_append(o, tmp, 3);
        }
    }
}

/* One line "@NAME = ... [N x i8] c"..."...": rewritten into o if it is a printf format with %F or
 * %A; false if the line is to be copied as it is. */
static bool fix_format_line(umb_text_buf *o, const char *ir, const char *line, size_t len)
{
    if (line[0] != '@') return false;
    size_t name_len = 0;
    while (name_len + 1 < len && ir_name_char(line[1 + name_len])) name_len++;
    const char *lit = strstr(line, " x i8] c\"");
    if (!name_len || !lit || lit > line + len) return false;
    const char *count = lit;
    while (count > line && count[-1] >= '0' && count[-1] <= '9') count--;
    if (count == lit || count[-1] != '[') return false;
    const char *body = lit + 9, *after;
    uint8_t *bytes = malloc(len), *fixed = malloc(2 * len);
    if (!bytes || !fixed) {
        free(bytes), free(fixed);
        o->nomem = true;
        return false;
    }
    size_t n = decode_ir_string(body, bytes, &after), m = mark_upper_conversions(bytes, n, fixed);
    bool fix = m != n && after <= line + len && is_printf_format(ir, line + 1, name_len);
    if (fix) {
        char num[24];
        umb_text_append(o, line, (size_t)(count - line));
        snprintf(num, sizeof num, "%zu", m);
        umb_text_append(o, num, strlen(num));
        umb_text_append(o, " x i8] c\"", 9);
        encode_ir_string(o, fixed, m);
        umb_text_append(o, "\"", 1);
        umb_text_append(o, after, (size_t)(line + len - after));
    }
    free(bytes), free(fixed);
    return fix;
}

char *rdna3_printf_fix_ir(const char *ir, bool *changed)
{
    umb_text_buf o = { 0 };
    *changed = false;
    umb_text_append(&o, "", 0);
    for (const char *line = ir; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (fix_format_line(&o, ir, line, len)) *changed = true;
        else umb_text_append(&o, line, len);
        if (nl) umb_text_append(&o, "\n", 1);
        line += len + (nl ? 1 : 0);
    }
    if (o.nomem) {
        free(o.s);
        return NULL;
    }
    return o.s;
}
