/* The AMDGPU metadata note (code object v4/v5): a msgpack map read with msgpack-c.
 *
 * Shape (AMDGPUUsage "Code Object V3+ Metadata"):
 *   { "amdhsa.version": [1, 2], "amdhsa.target": "amdgcn-amd-amdhsa--gfx1100",
 *     "amdhsa.kernels": [ { ".name": ..., ".symbol": "NAME.kd", ".kernarg_segment_size": ...,
 *                           ".args": [ { ".offset", ".size", ".value_kind", ".address_space"? } ] } ] }
 * Unknown keys are ignored (the format grows); a missing required key, a wrong type or an
 * inconsistent argument layout is an error naming the kernel and the key.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "core/guest_text.h"
#include "loader/amdgpu_co.h"

typedef struct md_ctx {
    const char *name;           /* file name for messages */
    char *err;
    size_t errlen;
    char where[UMB_GUEST_TEXT_MAX + 64]; /* "kernel 'vadd': .args[2]" (the name escaped) */
} md_ctx;

__attribute__((format(printf, 2, 3))) static umb_status md_fail(md_ctx *c, const char *fmt, ...)
{
    char msg[2 * UMB_GUEST_TEXT_MAX + 256];   /* room for the escaped guest strings it shows */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->err && c->errlen)
        snprintf(c->err, c->errlen, "%s: metadata note: %s%s%s", c->name, c->where,
                 c->where[0] ? ": " : "", msg);
    return UMB_ERR_FORMAT;
}

static bool key_is(const msgpack_object *k, const char *s)
{
    size_t n = strlen(s);
    return k->type == MSGPACK_OBJECT_STR && k->via.str.size == n && !memcmp(k->via.str.ptr, s, n);
}

/* Value of key s in map m, or NULL. */
static const msgpack_object *map_get(const msgpack_object *m, const char *s)
{
    for (uint32_t i = 0; i < m->via.map.size; i++)
        if (key_is(&m->via.map.ptr[i].key, s)) return &m->via.map.ptr[i].val;
    return NULL;
}

static umb_status get_u32(md_ctx *c, const msgpack_object *m, const char *key, bool required,
                          uint32_t *out)
{
    const msgpack_object *v = map_get(m, key);
    if (!v) return required ? md_fail(c, "missing %s", key) : UMB_OK;
    if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER || v->via.u64 > UINT32_MAX)
        return md_fail(c, "%s is not an unsigned 32-bit integer", key);
    *out = (uint32_t)v->via.u64;
    return UMB_OK;
}

/* `.reqd_workgroup_size`: three sizes of 1..max, or absent (left 0, 0, 0). */
static umb_status get_size3(md_ctx *c, const msgpack_object *m, const char *key, uint32_t max, uint32_t out[3])
{
    const msgpack_object *v = map_get(m, key);
    if (!v) return UMB_OK;
    if (v->type != MSGPACK_OBJECT_ARRAY || v->via.array.size != 3) return md_fail(c, "%s is not an array of 3", key);
    for (uint32_t i = 0; i < 3; i++) {
        const msgpack_object *e = &v->via.array.ptr[i];
        if (e->type != MSGPACK_OBJECT_POSITIVE_INTEGER || e->via.u64 == 0 || e->via.u64 > max)
            return md_fail(c, "%s[%u] is not a size of 1..%u", key, i, max);
        out[i] = (uint32_t)e->via.u64;
    }
    return UMB_OK;
}

static umb_status get_bool(md_ctx *c, const msgpack_object *m, const char *key, bool *out)
{
    const msgpack_object *v = map_get(m, key);
    if (!v) return UMB_OK;
    if (v->type == MSGPACK_OBJECT_BOOLEAN) *out = v->via.boolean;
    else if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER) *out = v->via.u64 != 0; /* wgp mode is 0/1 */
    else return md_fail(c, "%s is not a boolean", key);
    return UMB_OK;
}

/* Copy a string value into dst (NUL-terminated). Too long is an error: names must match exactly. */
static umb_status get_str(md_ctx *c, const msgpack_object *m, const char *key, bool required,
                          char *dst, size_t cap)
{
    const msgpack_object *v = map_get(m, key);
    if (!v) return required ? md_fail(c, "missing %s", key) : UMB_OK;
    if (v->type != MSGPACK_OBJECT_STR) return md_fail(c, "%s is not a string", key);
    if (v->via.str.size >= cap) return md_fail(c, "%s is longer than %zu bytes", key, cap - 1);
    memcpy(dst, v->via.str.ptr, v->via.str.size);
    dst[v->via.str.size] = '\0';
    return UMB_OK;
}

static const char *const kind_names[] = {
#define UMB_X_STR(name, str) str,
    UMB_RDNA3_VALUE_KINDS(UMB_X_STR)
#undef UMB_X_STR
};

const char *umb_rdna3_value_kind_name(umb_rdna3_value_kind k)
{
    return (unsigned)k < UMB_RDNA3_ARG_KIND_COUNT ? kind_names[k] : "?";
}

static bool kind_is_hidden(umb_rdna3_value_kind k) { return k >= UMB_RDNA3_ARG_HIDDEN_GLOBAL_OFFSET_X; }

static umb_status parse_kind(md_ctx *c, const msgpack_object *a, umb_rdna3_value_kind *out)
{
    char s[64] = "";
    umb_status st = get_str(c, a, ".value_kind", true, s, sizeof s);
    if (st) return st;
    for (unsigned k = 0; k < UMB_RDNA3_ARG_KIND_COUNT; k++)
        if (!strcmp(s, kind_names[k])) { *out = (umb_rdna3_value_kind)k; return UMB_OK; }
    umb_guest_text_buf g;
    return md_fail(c, "unknown .value_kind '%s'", umb_guest_text(&g, s));
}

static umb_status parse_addr_space(md_ctx *c, const msgpack_object *a, umb_rdna3_addr_space *out)
{
    static const char *const names[] = { "", "private", "global", "constant", "local", "generic", "region" };
    char s[32] = "";
    umb_status st = get_str(c, a, ".address_space", false, s, sizeof s);
    if (st || !s[0]) return st;
    for (unsigned i = 1; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i])) { *out = (umb_rdna3_addr_space)i; return UMB_OK; }
    umb_guest_text_buf g;
    return md_fail(c, "unknown .address_space '%s'", umb_guest_text(&g, s));
}

static umb_status parse_access(md_ctx *c, const msgpack_object *a, umb_rdna3_access *out)
{
    static const char *const names[] = { "", "read_only", "write_only", "read_write" };
    char s[32] = "";
    umb_status st = get_str(c, a, ".access", false, s, sizeof s);
    if (st || !s[0]) return st;
    for (unsigned i = 1; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i])) { *out = (umb_rdna3_access)i; return UMB_OK; }
    umb_guest_text_buf g;
    return md_fail(c, "unknown .access '%s'", umb_guest_text(&g, s));
}

static umb_status parse_arg(md_ctx *c, const msgpack_object *a, umb_rdna3_arg_info *arg)
{
    if (a->type != MSGPACK_OBJECT_MAP) return md_fail(c, "is not a map");
    umb_status st;
    if ((st = get_u32(c, a, ".offset", true, &arg->offset)) || (st = get_u32(c, a, ".size", true, &arg->size)) ||
        (st = parse_kind(c, a, &arg->kind)) || (st = parse_addr_space(c, a, &arg->address_space)) ||
        (st = get_u32(c, a, ".pointee_align", false, &arg->pointee_align)) ||
        (st = get_str(c, a, ".name", false, arg->name, sizeof arg->name)) || (st = parse_access(c, a, &arg->access)) ||
        (st = get_bool(c, a, ".is_const", &arg->is_const)) || (st = get_bool(c, a, ".is_restrict", &arg->is_restrict)) ||
        (st = get_bool(c, a, ".is_volatile", &arg->is_volatile)))
        return st;
    /* type names can be long (struct types); keep a truncated copy, it is only for display */
    const msgpack_object *tn = map_get(a, ".type_name");
    if (tn && tn->type == MSGPACK_OBJECT_STR) {
        size_t n = tn->via.str.size < sizeof arg->type_name - 1 ? tn->via.str.size : sizeof arg->type_name - 1;
        memcpy(arg->type_name, tn->via.str.ptr, n);
        arg->type_name[n] = '\0';
    }
    if (arg->size == 0 || arg->size > 4096) return md_fail(c, ".size %u is not a plausible argument size", arg->size);
    if (arg->kind == UMB_RDNA3_ARG_GLOBAL_BUFFER && arg->size != 8)
        return md_fail(c, "global_buffer of .size %u (a 64-bit pointer has 8)", arg->size);
    if ((arg->kind == UMB_RDNA3_ARG_IMAGE || arg->kind == UMB_RDNA3_ARG_SAMPLER) && arg->size != 8)
        return md_fail(c, "%s of .size %u (a descriptor pointer has 8)", arg->kind == UMB_RDNA3_ARG_IMAGE ? "image" : "sampler",
                       arg->size);
    if (arg->kind == UMB_RDNA3_ARG_DYNAMIC_SHARED_POINTER && arg->size != 4)
        return md_fail(c, "dynamic_shared_pointer of .size %u (a local pointer has 4)", arg->size);
    return UMB_OK;
}

/* The argument list: explicit arguments first, then hidden ones, all inside the segment. */
static umb_status parse_args(md_ctx *c, const msgpack_object *k, umb_rdna3_kernel_info *ki)
{
    const msgpack_object *args = map_get(k, ".args");
    if (!args) return UMB_OK; /* a kernel without arguments has no .args */
    if (args->type != MSGPACK_OBJECT_ARRAY) return md_fail(c, ".args is not an array");
    if (args->via.array.size > 1024) return md_fail(c, ".args has %u entries", args->via.array.size);
    ki->nargs = args->via.array.size;
    ki->args = calloc(ki->nargs ? ki->nargs : 1, sizeof *ki->args);
    if (!ki->args) return UMB_ERR_NOMEM;
    size_t wlen = strlen(c->where);
    bool seen_hidden = false;
    for (uint32_t i = 0; i < ki->nargs; i++) {
        snprintf(c->where + wlen, sizeof c->where - wlen, ": .args[%u]", i);
        umb_rdna3_arg_info *a = &ki->args[i];
        umb_status st = parse_arg(c, &args->via.array.ptr[i], a);
        if (st) return st;
        if ((uint64_t)a->offset + a->size > ki->kernarg_segment_size)
            return md_fail(c, "bytes [%u, %u) are outside .kernarg_segment_size %u", a->offset,
                           a->offset + a->size, ki->kernarg_segment_size);
        if (kind_is_hidden(a->kind)) seen_hidden = true;
        else if (seen_hidden) return md_fail(c, "explicit argument after a hidden one");
        else ki->nexplicit++;
    }
    c->where[wlen] = '\0';
    return UMB_OK;
}

static umb_status parse_kernel(md_ctx *c, const msgpack_object *k, uint32_t index, umb_rdna3_kernel_info *ki)
{
    snprintf(c->where, sizeof c->where, "amdhsa.kernels[%u]", index);
    if (k->type != MSGPACK_OBJECT_MAP) return md_fail(c, "is not a map");
    umb_status st = get_str(c, k, ".name", true, ki->name, sizeof ki->name);
    if (st) return st;
    umb_guest_text_buf g;
    snprintf(c->where, sizeof c->where, "kernel '%s'", umb_guest_text(&g, ki->name));
    ki->kernarg_segment_align = 8;
    ki->wavefront_size = 0;
    if ((st = get_str(c, k, ".symbol", true, ki->symbol, sizeof ki->symbol)) ||
        (st = get_u32(c, k, ".kernarg_segment_size", true, &ki->kernarg_segment_size)) ||
        (st = get_u32(c, k, ".kernarg_segment_align", false, &ki->kernarg_segment_align)) ||
        (st = get_u32(c, k, ".group_segment_fixed_size", true, &ki->group_segment_fixed_size)) ||
        (st = get_u32(c, k, ".private_segment_fixed_size", true, &ki->private_segment_fixed_size)) ||
        (st = get_u32(c, k, ".wavefront_size", true, &ki->wavefront_size)) ||
        (st = get_u32(c, k, ".sgpr_count", false, &ki->sgpr_count)) ||
        (st = get_u32(c, k, ".vgpr_count", false, &ki->vgpr_count)) ||
        (st = get_u32(c, k, ".sgpr_spill_count", false, &ki->sgpr_spill_count)) ||
        (st = get_u32(c, k, ".vgpr_spill_count", false, &ki->vgpr_spill_count)) ||
        (st = get_u32(c, k, ".max_flat_workgroup_size", false, &ki->max_flat_workgroup_size)) ||
        (st = get_bool(c, k, ".uses_dynamic_stack", &ki->uses_dynamic_stack)) ||
        (st = get_bool(c, k, ".workgroup_processor_mode", &ki->workgroup_processor_mode)) ||
        (st = get_size3(c, k, ".reqd_workgroup_size", 1024, ki->reqd_workgroup_size)) ||
        /* a hint may name any size; it only informs */
        (st = get_size3(c, k, ".workgroup_size_hint", UINT32_MAX, ki->workgroup_size_hint)) ||
        (st = get_str(c, k, ".vec_type_hint", false, ki->vec_type_hint, sizeof ki->vec_type_hint)))
        return st;
    if (ki->wavefront_size != 32 && ki->wavefront_size != 64)
        return md_fail(c, ".wavefront_size %u (gfx1100 runs 32 or 64)", ki->wavefront_size);
    if (ki->kernarg_segment_size > (1u << 20))
        return md_fail(c, ".kernarg_segment_size %u is implausibly large", ki->kernarg_segment_size);
    if (ki->max_flat_workgroup_size == 0) ki->max_flat_workgroup_size = 1024;
    if (ki->max_flat_workgroup_size > 1024)
        return md_fail(c, ".max_flat_workgroup_size %u exceeds 1024", ki->max_flat_workgroup_size);
    return parse_args(c, k, ki);
}

/* amdhsa.printf: an array of strings (the format records of AMDGPUPrintfRuntimeBinding); their
 * syntax is checked by the printf runtime (rdna3_printf.c) when the program is loaded. */
static umb_status parse_printf(md_ctx *c, const msgpack_object *root, umb_amdgpu_metadata *md)
{
    const msgpack_object *pf = map_get(root, "amdhsa.printf");
    if (!pf) return UMB_OK;
    if (pf->type != MSGPACK_OBJECT_ARRAY) return md_fail(c, "amdhsa.printf is not an array");
    md->printf_formats = calloc(pf->via.array.size ? pf->via.array.size : 1, sizeof *md->printf_formats);
    if (!md->printf_formats) return UMB_ERR_NOMEM;
    for (uint32_t i = 0; i < pf->via.array.size; i++) {
        const msgpack_object *e = &pf->via.array.ptr[i];
        if (e->type != MSGPACK_OBJECT_STR) return md_fail(c, "amdhsa.printf[%u] is not a string", i);
        char *str = malloc(e->via.str.size + 1);
        if (!str) return UMB_ERR_NOMEM;
        memcpy(str, e->via.str.ptr, e->via.str.size);
        str[e->via.str.size] = '\0';
        md->printf_formats[md->nprintf++] = str;
    }
    return UMB_OK;
}

static umb_status parse_root(md_ctx *c, const msgpack_object *root, umb_amdgpu_metadata *md)
{
    if (root->type != MSGPACK_OBJECT_MAP) return md_fail(c, "the top level is not a map");
    const msgpack_object *ver = map_get(root, "amdhsa.version");
    if (!ver) return md_fail(c, "missing amdhsa.version");
    if (ver->type != MSGPACK_OBJECT_ARRAY || ver->via.array.size != 2 ||
        ver->via.array.ptr[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
        ver->via.array.ptr[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return md_fail(c, "amdhsa.version is not [major, minor]");
    md->version[0] = (uint32_t)ver->via.array.ptr[0].via.u64;
    md->version[1] = (uint32_t)ver->via.array.ptr[1].via.u64;
    if (md->version[0] != 1)
        return md_fail(c, "amdhsa.version %u.%u is not a code object v3+ metadata version", md->version[0],
                       md->version[1]);
    umb_status st = get_str(c, root, "amdhsa.target", false, md->target, sizeof md->target);
    if (st || (st = parse_printf(c, root, md))) return st;
    const msgpack_object *ks = map_get(root, "amdhsa.kernels");
    if (!ks) return md_fail(c, "missing amdhsa.kernels");
    if (ks->type != MSGPACK_OBJECT_ARRAY) return md_fail(c, "amdhsa.kernels is not an array");
    md->nkernels = ks->via.array.size;
    md->kernels = calloc(md->nkernels ? md->nkernels : 1, sizeof *md->kernels);
    if (!md->kernels) return UMB_ERR_NOMEM;
    for (uint32_t i = 0; i < md->nkernels; i++)
        if ((st = parse_kernel(c, &ks->via.array.ptr[i], i, &md->kernels[i]))) return st;
    for (uint32_t i = 0; i < md->nkernels; i++)
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(md->kernels[i].name, md->kernels[j].name)) {
                c->where[0] = '\0';
                umb_guest_text_buf g;
                return md_fail(c, "two kernels named '%s'", umb_guest_text(&g, md->kernels[i].name));
            }
    return UMB_OK;
}

static uint64_t be(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v = v << 8 | p[i];
    return v;
}

/* msgpack-c allocates room for every element an array or map header announces before it reads
 * them, so a corrupted count (up to 2^32) in a malformed note would make it allocate gigabytes.
 * Walk the token headers once and reject any count or length larger than the bytes that remain;
 * the decoding itself is msgpack-c's. Returns 0, or 1 (size beyond the end) / 2 (the unused type
 * byte 0xc1) with *bad_at set. */
static int msgpack_sizes_plausible(const uint8_t *p, size_t n, size_t *bad_at)
{
    static const uint8_t fixed_len[32] = {
        /* 0xc0..0xdf: bytes after the type byte for fixed-size tokens (0xff = variable) */
        0, 0xff, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 4, 8, 1, 2, 4, 8,
        1, 2, 4, 8, 2, 3, 5, 9, 17, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    };
    size_t i = 0;
    while (i < n) {
        uint8_t t = p[i++];
        size_t left = n - i;
        uint64_t elems = 0, payload = 0;
        unsigned hdr = 0;
        if (t <= 0x7f || t >= 0xe0) continue;                       /* fixint */
        if (t <= 0x8f) elems = 2u * (t & 15u);                       /* fixmap */
        else if (t <= 0x9f) elems = t & 15u;                         /* fixarray */
        else if (t <= 0xbf) payload = t & 31u;                       /* fixstr */
        else if (t == 0xc1) return *bad_at = i - 1, 2;               /* never used */
        else if (t >= 0xc4 && t <= 0xc6) hdr = 1u << (t - 0xc4), payload = left >= hdr ? be(p + i, hdr) : 0; /* bin */
        else if (t >= 0xc7 && t <= 0xc9) hdr = 1u << (t - 0xc7), payload = (left >= hdr ? be(p + i, hdr) : 0) + 1; /* ext */
        else if (t >= 0xd9 && t <= 0xdb) hdr = 1u << (t - 0xd9), payload = left >= hdr ? be(p + i, hdr) : 0; /* str */
        else if (t == 0xdc || t == 0xdd) hdr = t == 0xdc ? 2 : 4, elems = left >= hdr ? be(p + i, hdr) : 0;
        else if (t == 0xde || t == 0xdf) hdr = t == 0xde ? 2 : 4, elems = 2 * (left >= hdr ? be(p + i, hdr) : 0);
        else payload = fixed_len[t - 0xc0];                          /* nil, bool, numbers, fixext */
        if (hdr > left || payload > left - hdr || elems > left - hdr) return *bad_at = i - 1, 1;
        i += hdr + (size_t)payload;
    }
    return 0;
}

umb_status umb_amdgpu_metadata_parse(const char *name, const void *blob, size_t size,
                                     umb_amdgpu_metadata *md, char *err, size_t errlen)
{
    md_ctx c = { .name = name, .err = err, .errlen = errlen };
    memset(md, 0, sizeof *md);
    size_t bad_at = 0;
    int why = msgpack_sizes_plausible(blob, size, &bad_at);
    if (why == 1)
        return md_fail(&c, "truncated msgpack data: the header at byte %zu of %zu announces more than follows",
                       bad_at, size);
    if (why == 2) return md_fail(&c, "malformed msgpack data: byte %zu is 0xc1, which msgpack never uses", bad_at);
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    umb_status st;
    msgpack_unpack_return r = msgpack_unpack_next(&u, (const char *)blob, size, &off);
    if (r == MSGPACK_UNPACK_SUCCESS || r == MSGPACK_UNPACK_EXTRA_BYTES) {
        st = parse_root(&c, &u.data, md);
    } else {
        st = md_fail(&c, "%s msgpack data (%zu bytes)",
                     r == MSGPACK_UNPACK_CONTINUE ? "truncated" : r == MSGPACK_UNPACK_NOMEM_ERROR ? "out of memory reading" : "malformed",
                     size);
    }
    msgpack_unpacked_destroy(&u);
    if (st) {
        if (st == UMB_ERR_NOMEM && err && errlen) snprintf(err, errlen, "%s: out of memory", name);
        umb_amdgpu_metadata_free(md);
    }
    return st;
}

void umb_amdgpu_metadata_free(umb_amdgpu_metadata *md)
{
    if (md->kernels)
        for (uint32_t i = 0; i < md->nkernels; i++) free(md->kernels[i].args);
    free(md->kernels);
    for (uint32_t i = 0; i < md->nprintf; i++) free(md->printf_formats[i]);
    free(md->printf_formats);
    memset(md, 0, sizeof *md);
}
