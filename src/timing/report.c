/* The timing model's public side: creating a model from a machine file, and its reports (text,
 * the "timing" object of the statistics JSON, the per-instruction profile). */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "timing/engine.h"

#ifndef UMBRA_MACHINES_DIR
#define UMBRA_MACHINES_DIR "machines"
#endif

const char *umb_timing_machines_dir(void) { return UMBRA_MACHINES_DIR; }

/* A path (has a '/' or ends in .yaml) or the name of a bundled description. */
static void machine_path(const char *machine, char *out, size_t len)
{
    size_t n = strlen(machine);
    bool is_path = strchr(machine, '/') || (n > 5 && !strcmp(machine + n - 5, ".yaml"));
    if (is_path) snprintf(out, len, "%s", machine);
    else snprintf(out, len, "%s/%s.yaml", UMBRA_MACHINES_DIR, machine);
}

umb_status umb_timing_create(const char *machine, umb_timing **out, char *err, size_t errlen)
{
    *out = NULL;
    if (!machine || !*machine) machine = "gfx1100";
    char path[1024];
    machine_path(machine, path, sizeof path);
    umb_timing *t = calloc(1, sizeof *t);
    if (!t) return UMB_ERR_NOMEM;
    umb_status st = tm_machine_load(path, &t->m, err, errlen);
    if (st != UMB_OK) {
        free(t);
        return st;
    }
    if (!tm_memsys_init(&t->ms, &t->m) || pthread_mutex_init(&t->lock, NULL) != 0) {
        tm_memsys_fini(&t->ms);
        free(t);
        snprintf(err, errlen, "%s: out of host memory for the caches", path);
        return UMB_ERR_NOMEM;
    }
    *out = t;
    return UMB_OK;
}

static void free_records(umb_timing *t)
{
    for (size_t i = 0; i < t->nrec; i++) {
        free(t->rec[i].cu);
        free(t->rec[i].prof);
    }
    t->nrec = 0;
}

void umb_timing_destroy(umb_timing *t)
{
    if (!t) return;
    umb_timing_set_timeline(t, NULL);
    umb_timing_set_issue_trace(t, NULL);
    free_records(t);
    free(t->rec);
    tm_memsys_fini(&t->ms);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

const char *umb_timing_machine_name(const umb_timing *t) { return t->m.name; }
double umb_timing_clock_mhz(const umb_timing *t) { return t->m.clock_mhz; }
uint32_t umb_timing_compute_units(const umb_timing *t) { return t->m.cus; }
uint32_t umb_timing_wave_slots(const umb_timing *t) { return t->m.cus * t->m.simds_per_cu * t->m.waves_per_simd; }
uint64_t umb_timing_total_cycles(const umb_timing *t) { return t->total_cycles; }

void umb_timing_forget_launches(umb_timing *t)
{
    pthread_mutex_lock(&t->lock);
    free_records(t);
    pthread_mutex_unlock(&t->lock);
}

umb_status umb_timing_set_timeline(umb_timing *t, const char *path)
{
    if (t->timeline) {
        fputs("\n]}\n", t->timeline);
        fclose(t->timeline);
        t->timeline = NULL;
    }
    if (!path) return UMB_OK;
    t->timeline = fopen(path, "w");
    if (!t->timeline) return UMB_ERR_IO;
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", t->timeline);
    t->timeline_started = false;
    return UMB_OK;
}

umb_status umb_timing_set_issue_trace(umb_timing *t, const char *path)
{
    if (t->issue_trace) {
        fclose(t->issue_trace);
        t->issue_trace = NULL;
    }
    if (!path) return UMB_OK;
    t->issue_trace = fopen(path, "w");
    return t->issue_trace ? UMB_OK : UMB_ERR_IO;
}

/* ---- derived figures ---- */

static uint64_t wave_cycles(const uint64_t *state)
{
    uint64_t s = 0;
    for (int i = 0; i < TM_ST_N; i++) s += state[i];
    return s;
}

static double occupancy(const umb_timing *t, const tm_launch_rec *r)
{
    double slots = (double)r->cycles * t->m.cus * t->m.simds_per_cu * t->m.waves_per_simd;
    return slots > 0 ? r->resident_wave_cycles / slots : 0;
}

/* ---- JSON ---- */

static json_t *states_json(const uint64_t *state, uint64_t idle)
{
    json_t *o = json_object();
    for (int i = 0; i < TM_ST_N; i++) json_object_set_new(o, tm_state_name[i], json_integer((json_int_t)state[i]));
    json_object_set_new(o, "idle", json_integer((json_int_t)idle));
    return o;
}

static json_t *launch_json(const umb_timing *t, const tm_launch_rec *r)
{
    const tm_machine *m = &t->m;
    json_t *o = json_object();
    json_object_set_new(o, "kernel", json_string(r->kernel));
    json_object_set_new(o, "cycles", json_integer((json_int_t)r->cycles));
    json_object_set_new(o, "seconds", json_real(r->cycles / (m->clock_mhz * 1e6)));
    json_object_set_new(o, "wave_instructions", json_integer((json_int_t)r->insts));
    json_object_set_new(o, "workgroups", json_integer((json_int_t)r->workgroups));
    json_object_set_new(o, "waves", json_integer((json_int_t)r->waves));
    json_object_set_new(o, "ipc_per_cu", json_real(r->cycles ? (double)r->insts / r->cycles / m->cus : 0));
    json_object_set_new(o, "ipc", json_real(r->cycles ? (double)r->insts / r->cycles : 0));
    json_object_set_new(o, "occupancy", json_real(occupancy(t, r)));
    json_object_set_new(o, "occupancy_limit_waves_per_simd", json_integer(r->occ_limit));
    json_object_set_new(o, "occupancy_limited_by", json_string(r->occ_limiter ? r->occ_limiter : "?"));
    uint64_t slots = r->cycles * (uint64_t)m->cus * m->simds_per_cu * m->waves_per_simd;
    json_object_set_new(o, "wave_cycles", states_json(r->state_cycles, slots - r->resident_wave_cycles));
    json_t *caches = json_object();
    for (int l = 0; l < LVL_N; l++) {
        if (!m->cache[l].size) continue;
        json_t *c = json_object();
        json_object_set_new(c, "hits", json_integer((json_int_t)r->level[l].hits));
        json_object_set_new(c, "misses", json_integer((json_int_t)r->level[l].misses));
        json_object_set_new(c, "bytes", json_integer((json_int_t)r->level[l].bytes));
        json_object_set_new(caches, tm_level_name[l], c);
    }
    if (m->icache.size) {
        json_t *c = json_object();
        json_object_set_new(c, "hits", json_integer((json_int_t)r->ifetch.hits));
        json_object_set_new(c, "misses", json_integer((json_int_t)r->ifetch.misses));
        json_object_set_new(c, "bytes", json_integer((json_int_t)r->ifetch.bytes));
        json_object_set_new(caches, "icache", c);
    }
    json_object_set_new(o, "caches", caches);
    json_t *d = json_object();
    json_object_set_new(d, "read_bytes", json_integer((json_int_t)r->dram_read_bytes));
    json_object_set_new(d, "write_bytes", json_integer((json_int_t)r->dram_write_bytes));
    json_object_set_new(d, "row_hits", json_integer((json_int_t)r->dram_row_hits));
    json_object_set_new(d, "row_misses", json_integer((json_int_t)r->dram_row_misses));
    double sec = r->cycles / (m->clock_mhz * 1e6);
    json_object_set_new(d, "bandwidth_gb_s", json_real(sec > 0 ? (r->dram_read_bytes + r->dram_write_bytes) / sec / 1e9 : 0));
    json_object_set_new(o, "dram", d);
    json_t *lds = json_object();
    json_object_set_new(lds, "accesses", json_integer((json_int_t)r->lds_accesses));
    json_object_set_new(lds, "bank_conflict_cycles", json_integer((json_int_t)r->lds_conflict_cycles));
    json_object_set_new(o, "lds", lds);
    json_t *valu = json_object();
    json_object_set_new(valu, "vgpr_bank_conflict_cycles", json_integer((json_int_t)r->vgpr_bank_cycles));
    json_object_set_new(o, "valu", valu);
    json_t *cus = json_array();
    for (uint32_t c = 0; c < r->ncu; c++) {
        const tm_cu_rec *cu = &r->cu[c];
        if (!cu->waves) continue;
        json_t *x = json_object();
        json_object_set_new(x, "cu", json_integer(c));
        json_object_set_new(x, "wave_instructions", json_integer((json_int_t)cu->insts));
        json_object_set_new(x, "ipc", json_real(r->cycles ? (double)cu->insts / r->cycles : 0));
        double cslots = (double)r->cycles * m->simds_per_cu * m->waves_per_simd;
        json_object_set_new(x, "occupancy", json_real(cslots > 0 ? cu->resident_wave_cycles / cslots : 0));
        json_object_set_new(x, "wave_cycles", states_json(cu->state_cycles, (uint64_t)cslots - cu->resident_wave_cycles));
        json_array_append_new(cus, x);
    }
    json_object_set_new(o, "per_cu", cus);
    json_t *hot = json_array();
    for (size_t i = 0; i < r->nprof && i < 20; i++) {
        json_t *x = json_object();
        json_object_set_new(x, "pc", json_integer((json_int_t)r->prof[i].pc));
        json_object_set_new(x, "issues", json_integer((json_int_t)r->prof[i].issues));
        json_object_set_new(x, "stall_cycles", json_integer((json_int_t)r->prof[i].stall_cycles));
        json_object_set_new(x, "text", json_string(r->prof[i].text));
        json_array_append_new(hot, x);
    }
    json_object_set_new(o, "hottest", hot);
    return o;
}

void umb_timing_write_json(const umb_timing *t, FILE *out, int indent)
{
    uint64_t cycles = 0;   /* of the recorded launches: every launch unless some were forgotten */
    for (size_t i = 0; i < t->nrec; i++) cycles += t->rec[i].cycles;
    json_t *o = json_object();
    json_object_set_new(o, "machine", json_string(t->m.name));
    json_object_set_new(o, "clock_mhz", json_real(t->m.clock_mhz));
    json_object_set_new(o, "cycles", json_integer((json_int_t)cycles));
    json_object_set_new(o, "seconds", json_real(cycles / (t->m.clock_mhz * 1e6)));
    json_t *ls = json_array();
    for (size_t i = 0; i < t->nrec; i++) json_array_append_new(ls, launch_json(t, &t->rec[i]));
    json_object_set_new(o, "launches", ls);
    json_dumpf(o, out, JSON_INDENT(indent < 0 ? 0 : indent) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
    json_decref(o);
}

/* ---- text ---- */

void umb_timing_write_text(const umb_timing *t, FILE *out)
{
    const tm_machine *m = &t->m;
    fprintf(out, "timing (%s at %.0f MHz): %" PRIu64 " cycles, %.3f us\n", m->name, m->clock_mhz, t->total_cycles,
            t->total_cycles / m->clock_mhz);
    for (size_t i = 0; i < t->nrec; i++) {
        const tm_launch_rec *r = &t->rec[i];
        uint64_t wc = wave_cycles(r->state_cycles);
        fprintf(out, "  %s: %" PRIu64 " cycles (%.3f us), %" PRIu64 " wave-insts, IPC %.3f (%.4f per CU), "
                "occupancy %.1f%% (limit %u waves/SIMD by %s)\n", r->kernel, r->cycles, r->cycles / m->clock_mhz,
                r->insts, r->cycles ? (double)r->insts / r->cycles : 0, r->cycles ? (double)r->insts / r->cycles / m->cus : 0,
                100 * occupancy(t, r), r->occ_limit, r->occ_limiter ? r->occ_limiter : "?");
        fprintf(out, "    wave-cycles:");
        for (int s = 0; s < TM_ST_N; s++)
            fprintf(out, " %s %.1f%%", tm_state_name[s], wc ? 100.0 * r->state_cycles[s] / wc : 0);
        fputc('\n', out);
        fprintf(out, "    caches:");
        for (int l = 0; l < LVL_N; l++) {
            if (!m->cache[l].size) continue;
            uint64_t a = r->level[l].hits + r->level[l].misses;
            fprintf(out, " %s %" PRIu64 "/%" PRIu64 " hits", tm_level_name[l], r->level[l].hits, a);
        }
        if (m->icache.size)
            fprintf(out, " icache %" PRIu64 "/%" PRIu64 " hits", r->ifetch.hits, r->ifetch.hits + r->ifetch.misses);
        double sec = r->cycles / (m->clock_mhz * 1e6);
        fprintf(out, "; DRAM %" PRIu64 " B read, %" PRIu64 " B written, %.1f GB/s; LDS %" PRIu64
                " accesses, %" PRIu64 " bank-conflict cycles\n", r->dram_read_bytes, r->dram_write_bytes,
                sec > 0 ? (r->dram_read_bytes + r->dram_write_bytes) / sec / 1e9 : 0, r->lds_accesses,
                r->lds_conflict_cycles);
        if (m->vgpr_banks)
            fprintf(out, "    VALU: %" PRIu64 " cycles of VGPR bank conflicts\n", r->vgpr_bank_cycles);
    }
}

void umb_timing_write_profile(const umb_timing *t, FILE *out, unsigned max_lines)
{
    for (size_t i = 0; i < t->nrec; i++) {
        const tm_launch_rec *r = &t->rec[i];
        fprintf(out, "kernel %s: %" PRIu64 " cycles, %" PRIu64 " wave-insts\n", r->kernel, r->cycles, r->insts);
        fprintf(out, "%10s %12s  %s\n", "issues", "stall_cyc", "instruction");
        for (size_t k = 0; k < r->nprof && (!max_lines || k < max_lines); k++)
            fprintf(out, "%10" PRIu64 " %12" PRIu64 "  %s\n", r->prof[k].issues, r->prof[k].stall_cycles, r->prof[k].text);
    }
}
