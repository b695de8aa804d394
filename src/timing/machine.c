/* Machine descriptions: YAML files read with libfyaml. Every key is required, so a description
 * says all its numbers (and where they come from, in its comments). */
#include "timing/machine.h"

#include <errno.h>
#include <libfyaml.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct yaml_reader {
    struct fy_document *doc;
    const char *path;
    char *err;
    size_t errlen;
    bool failed;
} yaml_reader;

static void reader_error(yaml_reader *r, struct fy_node *n, const char *key, const char *what)
{
    if (r->failed) return;
    r->failed = true;
    struct fy_token *tok = n && fy_node_is_scalar(n) ? fy_node_get_scalar_token(n) : NULL;
    const struct fy_mark *m = tok ? fy_token_start_mark(tok) : NULL;
    if (m) snprintf(r->err, r->errlen, "%s:%d: %s: %s", r->path, m->line + 1, key, what);
    else snprintf(r->err, r->errlen, "%s: %s: %s", r->path, key, what);
}

/* The number at path ("/compute/cus"); must be > 0 unless zero_ok. */
static double read_number(yaml_reader *r, const char *path, bool zero_ok)
{
    if (r->failed) return 0;
    struct fy_node *n = fy_node_by_path(fy_document_root(r->doc), path, (size_t)-1, FYNWF_DONT_FOLLOW);
    if (!n) {
        reader_error(r, NULL, path, "missing");
        return 0;
    }
    size_t len = 0;
    const char *s = fy_node_is_scalar(n) ? fy_node_get_scalar(n, &len) : NULL;
    char buf[64];
    if (!s || len == 0 || len >= sizeof buf) {
        reader_error(r, n, path, "not a number");
        return 0;
    }
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end == buf || *end || errno || !isfinite(v) || v < 0 || (!zero_ok && v == 0))
        reader_error(r, n, path, zero_ok ? "not a number >= 0" : "not a number > 0");
    return v;
}

static uint32_t read_u32(yaml_reader *r, const char *path, bool zero_ok)
{
    double v = read_number(r, path, zero_ok);
    if (!r->failed && (v != floor(v) || v > 4294967295.0)) reader_error(r, NULL, path, "not a whole number");
    return r->failed ? 0 : (uint32_t)v;
}

static bool read_bool(yaml_reader *r, const char *path)
{
    if (r->failed) return false;
    struct fy_node *n = fy_node_by_path(fy_document_root(r->doc), path, (size_t)-1, FYNWF_DONT_FOLLOW);
    size_t len = 0;
    const char *s = n && fy_node_is_scalar(n) ? fy_node_get_scalar(n, &len) : NULL;
    if (s && len == 4 && !memcmp(s, "true", 4)) return true;
    if (s && len == 5 && !memcmp(s, "false", 5)) return false;
    reader_error(r, n, path, n ? "not true or false" : "missing");
    return false;
}

/* One of two words at path: true for `yes`, false for `no`. */
static bool read_choice(yaml_reader *r, const char *path, const char *yes, const char *no)
{
    if (r->failed) return false;
    struct fy_node *n = fy_node_by_path(fy_document_root(r->doc), path, (size_t)-1, FYNWF_DONT_FOLLOW);
    size_t len = 0;
    const char *s = n && fy_node_is_scalar(n) ? fy_node_get_scalar(n, &len) : NULL;
    if (s && len == strlen(yes) && !memcmp(s, yes, len)) return true;
    if (s && len == strlen(no) && !memcmp(s, no, len)) return false;
    char what[96];
    snprintf(what, sizeof what, n ? "not %s or %s" : "missing", yes, no);
    reader_error(r, n, path, what);
    return false;
}

static bool has_key(yaml_reader *r, const char *path)
{
    return !r->failed && fy_node_by_path(fy_document_root(r->doc), path, (size_t)-1, FYNWF_DONT_FOLLOW);
}

/* The cache at /memory/NAME, or at NAME itself when it begins with '/'. */
static void read_cache(yaml_reader *r, const char *name, tm_cache_cfg *c)
{
    char p[96];
#define KEY(k) (snprintf(p, sizeof p, name[0] == '/' ? "%s/%s" : "/memory/%s/%s", name, k), p)
    c->size = (uint64_t)read_number(r, KEY("size"), true);
    if (c->size == 0) return;   /* absent level */
    c->line = read_u32(r, KEY("line"), false);
    c->assoc = read_u32(r, KEY("assoc"), false);
    c->latency = read_u32(r, KEY("latency"), false);
    c->bytes_per_cycle = read_number(r, KEY("bytes_per_cycle"), false);
    if (name[0] == '/') {   /* the front end's icache: one per CU, emptied at each launch */
        c->cus_per_instance = 1;
        c->invalidate_at_launch = true;
    } else {
        c->cus_per_instance = read_u32(r, KEY("cus_per_instance"), true);
        c->invalidate_at_launch = read_bool(r, KEY("invalidate_at_launch"));
        if (has_key(r, KEY("mshrs"))) c->mshrs = read_u32(r, KEY("mshrs"), true);
        if (!r->failed && c->mshrs > TM_MSHRS_MAX) reader_error(r, NULL, KEY("mshrs"), "more than 64");
        if (has_key(r, KEY("miss_cycles"))) c->miss_cycles = read_u32(r, KEY("miss_cycles"), true);
        /* L2 and below are replayed across host threads (--threads): their misses are not bounded */
        if (!r->failed && c->mshrs && (!strcmp(name, "l2") || !strcmp(name, "l3")))
            reader_error(r, NULL, KEY("mshrs"), "only l0, l1 and scalar_cache take mshrs");
        if (!r->failed && c->miss_cycles && (!strcmp(name, "l2") || !strcmp(name, "l3")))
            reader_error(r, NULL, KEY("miss_cycles"), "only l0, l1 and scalar_cache take miss_cycles");
    }
    if (!r->failed && (c->line & (c->line - 1u))) reader_error(r, NULL, KEY("line"), "not a power of two");
    if (!r->failed && c->size % ((uint64_t)c->line * c->assoc))
        reader_error(r, NULL, KEY("size"), "not a multiple of line * assoc");
#undef KEY
}

/* Nanoseconds at path as core clock cycles, rounded up (a timing is a minimum). */
static uint32_t read_ns_or_zero(yaml_reader *r, const char *path, double clock_mhz, bool zero_ok)
{
    double ns = read_number(r, path, zero_ok);
    return r->failed ? 0 : (uint32_t)ceil(ns * clock_mhz / 1000.0 - 1e-9);
}

static uint32_t read_ns(yaml_reader *r, const char *path, double clock_mhz)
{
    return read_ns_or_zero(r, path, clock_mhz, false);
}

/* /memory/dram's bank model: `channels: 0` keeps DRAM one queue (the other keys are not read). */
static void read_dram(yaml_reader *r, tm_machine *m)
{
    tm_dram_cfg *d = &m->dram;
    d->channels = read_u32(r, "/memory/dram/channels", true);
    if (!d->channels) return;
    d->banks = read_u32(r, "/memory/dram/banks", false);
    d->bank_groups = read_u32(r, "/memory/dram/bank_groups", false);
    d->row_bytes = read_u32(r, "/memory/dram/row_bytes", false);
    d->burst_bytes = read_u32(r, "/memory/dram/burst_bytes", false);
    d->interleave_bytes = read_u32(r, "/memory/dram/interleave_bytes", false);
    d->t_rcd = read_ns(r, "/memory/dram/t_rcd_ns", m->clock_mhz);
    d->t_rp = read_ns(r, "/memory/dram/t_rp_ns", m->clock_mhz);
    d->t_ras = read_ns(r, "/memory/dram/t_ras_ns", m->clock_mhz);
    d->t_cl = read_ns(r, "/memory/dram/t_cl_ns", m->clock_mhz);
    d->ccdl_bursts = read_u32(r, "/memory/dram/ccdl_bursts", false);
    d->t_wtr = read_ns(r, "/memory/dram/t_wtr_ns", m->clock_mhz);
    d->t_rtw = read_ns(r, "/memory/dram/t_rtw_ns", m->clock_mhz);
    d->t_rfc = read_ns(r, "/memory/dram/t_rfc_ns", m->clock_mhz);
    d->t_refi = read_ns(r, "/memory/dram/t_refi_ns", m->clock_mhz);
    d->t_rrd = read_ns_or_zero(r, "/memory/dram/t_rrd_ns", m->clock_mhz, true);   /* 0 and 0: activations */
    d->t_faw = read_ns_or_zero(r, "/memory/dram/t_faw_ns", m->clock_mhz, true);   /* not limited */
    if (r->failed) return;
    if (d->banks > 64) reader_error(r, NULL, "/memory/dram/banks", "more than 64");
    else if (d->banks % d->bank_groups) reader_error(r, NULL, "/memory/dram/bank_groups", "does not divide banks");
    else if (d->row_bytes % d->interleave_bytes || d->row_bytes < d->interleave_bytes) reader_error(r, NULL, "/memory/dram/interleave_bytes", "does not divide row_bytes");
    else if (d->t_rfc >= d->t_refi) reader_error(r, NULL, "/memory/dram/t_rfc_ns", "not below t_refi_ns");
}

static void read_machine(yaml_reader *r, tm_machine *m)
{
    struct fy_node *n = fy_node_by_path(fy_document_root(r->doc), "/name", (size_t)-1, FYNWF_DONT_FOLLOW);
    size_t len = 0;
    const char *s = n && fy_node_is_scalar(n) ? fy_node_get_scalar(n, &len) : NULL;
    if (!s) reader_error(r, n, "/name", "missing");
    else snprintf(m->name, sizeof m->name, "%.*s", (int)len, s);
    m->clock_mhz = read_number(r, "/clock_mhz", false);
    m->cus = read_u32(r, "/compute/compute_units", false);
    m->simds_per_cu = read_u32(r, "/compute/simds_per_cu", false);
    m->waves_per_simd = read_u32(r, "/compute/waves_per_simd", false);
    m->vgprs_per_simd = read_u32(r, "/compute/vgprs_per_simd", false);
    m->vgpr_granule = read_u32(r, "/compute/vgpr_granule", false);
    m->sgprs_per_simd = read_u32(r, "/compute/sgprs_per_simd", false);
    m->sgpr_granule = read_u32(r, "/compute/sgpr_granule", false);
    m->lds_per_cu = read_u32(r, "/compute/lds_per_cu", false);
    m->lds_granule = read_u32(r, "/compute/lds_granule", false);
    m->max_wgs_per_cu = read_u32(r, "/compute/max_workgroups_per_cu", false);
    m->cus_per_wgp = read_u32(r, "/compute/cus_per_wgp", false);
    m->dispatch_cycles = read_u32(r, "/compute/dispatch_cycles", true);
    m->salu_latency = read_u32(r, "/pipeline/salu_latency", false);
    m->valu_latency = read_u32(r, "/pipeline/valu_latency", false);
    m->trans_latency = read_u32(r, "/pipeline/trans_latency", false);
    m->dp_latency = read_u32(r, "/pipeline/dp_latency", false);
    m->trans_issue = read_u32(r, "/pipeline/trans_issue", false);
    m->dp_issue = read_u32(r, "/pipeline/dp_issue", false);
    m->wave64_passes = read_u32(r, "/pipeline/wave64_passes", false);
    m->vopd_dual_issue = read_bool(r, "/pipeline/vopd_dual_issue");
    m->branch_cycles = read_u32(r, "/pipeline/branch_cycles", false);
    m->barrier_cycles = read_u32(r, "/pipeline/barrier_cycles", false);
    m->unannounced_stall_simd = read_choice(r, "/pipeline/unannounced_dependency", "stall_simd", "wave_waits");
    m->mem_waits_for_valu = read_bool(r, "/pipeline/memory_waits_for_valu");
    m->vgpr_banks = read_u32(r, "/pipeline/vgpr_banks", true);
    if (m->vgpr_banks) {   /* the bank model's other keys matter (and are required) only with banks */
        m->vgpr_bank_ports = read_u32(r, "/pipeline/vgpr_bank_ports", false);
        m->vgpr_operand_reuse = read_bool(r, "/pipeline/vgpr_operand_reuse");
        m->vgpr_bank_writes = read_bool(r, "/pipeline/vgpr_bank_writes");
    }
    static const char *const level[LVL_N] = { "scalar_cache", "l0", "l1", "l2", "l3" };
    for (int i = 0; i < LVL_N; i++) read_cache(r, level[i], &m->cache[i]);
    m->dram_latency = read_u32(r, "/memory/dram/latency", false);
    m->dram_bytes_per_cycle = read_number(r, "/memory/dram/bytes_per_cycle", false);
    read_dram(r, m);
    m->store_latency = read_u32(r, "/memory/store_latency", false);
    m->vmem_lines_per_cycle = read_u32(r, "/memory/vmem_lines_per_cycle", false);
    m->lds_latency = read_u32(r, "/lds/latency", false);
    m->lds_banks = read_u32(r, "/lds/banks", false);
    m->lds_bank_bytes = read_u32(r, "/lds/bank_bytes", false);
    m->lds_at_home = has_key(r, "/lds/at_home") && read_bool(r, "/lds/at_home");   /* optional: false */
    /* the in-order front end (optional; every key required when the section is there) */
    if (has_key(r, "/frontend")) {
        m->single_issue = read_bool(r, "/frontend/single_issue");
        m->last_warp_first = read_bool(r, "/frontend/last_warp_first");
        m->branch_waits_fetch = read_bool(r, "/frontend/branch_waits_fetch");
        m->wave_issue_interval = read_u32(r, "/frontend/wave_issue_interval", false);
        m->collector_cycles = read_u32(r, "/frontend/collector_cycles", true);
        m->operand_cycles = read_u32(r, "/frontend/operand_cycles", true);
        m->fetch_bytes = read_u32(r, "/frontend/fetch_bytes", false);
        m->fetch_ahead = read_u32(r, "/frontend/fetch_ahead", false);
        m->in_order_memory_unit = read_bool(r, "/frontend/in_order_memory_unit");
        m->block_waits_first_slot = read_bool(r, "/frontend/block_waits_first_slot");
        read_cache(r, "/frontend/icache", &m->icache);
        m->l2_flush_at_end = read_bool(r, "/frontend/l2_flush_at_end");
        if (!r->failed && (m->fetch_bytes & (m->fetch_bytes - 1u)))
            reader_error(r, NULL, "/frontend/fetch_bytes", "not a power of two");
        if (!r->failed && (m->fetch_ahead < 1 || m->fetch_ahead > TM_MAX_FETCH_AHEAD))
            reader_error(r, NULL, "/frontend/fetch_ahead", "must be 1 to 8");
        if (!r->failed && m->icache.size && m->icache.line != m->fetch_bytes)
            reader_error(r, NULL, "/frontend/icache/line", "must equal fetch_bytes");
    }
    if (!r->failed && m->cus % m->cus_per_wgp)
        reader_error(r, NULL, "/compute/cus_per_wgp", "does not divide compute_units");
    if (!r->failed && m->vgpr_banks > TM_MAX_VGPR_BANKS)
        reader_error(r, NULL, "/pipeline/vgpr_banks", "must be at most 8");
    if (!r->failed && m->vgpr_banks && m->vgpr_bank_ports > 64)
        reader_error(r, NULL, "/pipeline/vgpr_bank_ports", "must be at most 64");
    if (!r->failed && m->vgpr_banks) m->vgpr_bank_over = (127u - m->vgpr_bank_ports) * 0x0101010101010101ull;
    if (!r->failed && m->wave64_passes > 2) reader_error(r, NULL, "/pipeline/wave64_passes", "must be 1 or 2");
}

umb_status tm_machine_load(const char *path, tm_machine *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    FILE *probe = fopen(path, "r");
    if (!probe) {
        snprintf(err, errlen, "%s: cannot open machine description: %s", path, strerror(errno));
        return UMB_ERR_IO;
    }
    fclose(probe);
    struct fy_parse_cfg cfg = { .flags = FYPCF_QUIET };
    struct fy_document *doc = fy_document_build_from_file(&cfg, path);
    if (!doc) {
        snprintf(err, errlen, "%s: not a valid YAML document", path);
        return UMB_ERR_FORMAT;
    }
    yaml_reader r = { .doc = doc, .path = path, .err = err, .errlen = errlen };
    read_machine(&r, m);
    fy_document_destroy(doc);
    return r.failed ? UMB_ERR_FORMAT : UMB_OK;
}
