/* Statistics: merging, derived figures, JSON and text output. */
#include <inttypes.h>
#include <string.h>

#include "umbra/stats.h"

static const char *const class_names[] = {
#define UMB_X_NAME(name, str) str,
    UMB_INSN_CLASSES(UMB_X_NAME)
#undef UMB_X_NAME
};

static const char *const space_names[] = {
#define UMB_X_NAME(name, str) str,
    UMB_ADDR_SPACES(UMB_X_NAME)
#undef UMB_X_NAME
};

const char *umb_insn_class_name(umb_insn_class c)
{
    return (unsigned)c < UMB_CLASS_COUNT ? class_names[c] : "?";
}

const char *umb_addr_space_name(umb_addr_space s)
{
    return (unsigned)s < UMB_SPACE_COUNT ? space_names[s] : "?";
}

void umb_stats_add(umb_stats *d, const umb_stats *s)
{
    d->launches += s->launches;
    d->workgroups += s->workgroups;
    d->warps += s->warps;
    d->warp_insts += s->warp_insts;
    d->thread_insts += s->thread_insts;
    d->lane_slots += s->lane_slots;
    for (int i = 0; i < UMB_CLASS_COUNT; i++) d->by_class[i] += s->by_class[i];
    d->barriers += s->barriers;
    d->divergent_branches += s->divergent_branches;
    for (int i = 0; i < UMB_SPACE_COUNT; i++) {
        d->mem[i].loads += s->mem[i].loads;
        d->mem[i].stores += s->mem[i].stores;
        d->mem[i].atomics += s->mem[i].atomics;
        d->mem[i].bytes_read += s->mem[i].bytes_read;
        d->mem[i].bytes_written += s->mem[i].bytes_written;
    }
    d->host_seconds += s->host_seconds;
}

double umb_stats_simt_efficiency(const umb_stats *s)
{
    return s->lane_slots ? (double)s->thread_insts / (double)s->lane_slots : 1.0;
}

static double rate(uint64_t n, double seconds) { return seconds > 0 ? n / seconds : 0.0; }

void umb_stats_write_json(const umb_stats *s, FILE *o, int indent)
{
    fprintf(o, "{%s", indent > 0 ? "\n" : "");
    umb_stats_write_json_members(s, o, indent);
    fprintf(o, "}");
}

void umb_stats_write_json_members(const umb_stats *s, FILE *o, int indent)
{
    char pad[64], pad2[64];
    int n = indent < 0 ? 0 : indent > 20 ? 20 : indent;
    memset(pad, ' ', (size_t)n), pad[n] = 0;
    memset(pad2, ' ', (size_t)n * 2), pad2[n * 2] = 0;
    const char *nl = n ? "\n" : "";
    fprintf(o, "%s\"launches\": %" PRIu64 ",%s", pad, s->launches, nl);
    fprintf(o, "%s\"workgroups\": %" PRIu64 ",%s", pad, s->workgroups, nl);
    fprintf(o, "%s\"warps\": %" PRIu64 ",%s", pad, s->warps, nl);
    fprintf(o, "%s\"warp_instructions\": %" PRIu64 ",%s", pad, s->warp_insts, nl);
    fprintf(o, "%s\"thread_instructions\": %" PRIu64 ",%s", pad, s->thread_insts, nl);
    fprintf(o, "%s\"lane_slots\": %" PRIu64 ",%s", pad, s->lane_slots, nl);
    fprintf(o, "%s\"simt_efficiency\": %.6f,%s", pad, umb_stats_simt_efficiency(s), nl);
    fprintf(o, "%s\"barriers\": %" PRIu64 ",%s", pad, s->barriers, nl);
    fprintf(o, "%s\"divergent_branches\": %" PRIu64 ",%s", pad, s->divergent_branches, nl);
    fprintf(o, "%s\"instructions_by_class\": {%s", pad, nl);
    for (int i = 0; i < UMB_CLASS_COUNT; i++)
        fprintf(o, "%s\"%s\": %" PRIu64 "%s%s", pad2, class_names[i], s->by_class[i],
                i + 1 < UMB_CLASS_COUNT ? "," : "", nl);
    fprintf(o, "%s},%s", pad, nl);
    fprintf(o, "%s\"memory\": {%s", pad, nl);
    for (int i = 0; i < UMB_SPACE_COUNT; i++) {
        const umb_mem_traffic *t = &s->mem[i];
        fprintf(o,
                "%s\"%s\": {\"loads\": %" PRIu64 ", \"stores\": %" PRIu64 ", \"atomics\": %" PRIu64
                ", \"bytes_read\": %" PRIu64 ", \"bytes_written\": %" PRIu64 "}%s%s",
                pad2, space_names[i], t->loads, t->stores, t->atomics, t->bytes_read, t->bytes_written,
                i + 1 < UMB_SPACE_COUNT ? "," : "", nl);
    }
    fprintf(o, "%s},%s", pad, nl);
    fprintf(o, "%s\"host_seconds\": %.6f,%s", pad, s->host_seconds, nl);
    fprintf(o, "%s\"warp_instructions_per_second\": %.0f%s", pad, rate(s->warp_insts, s->host_seconds), nl);
}

void umb_stats_write_text(const umb_stats *s, FILE *o)
{
    fprintf(o, "  launches %" PRIu64 ", workgroups %" PRIu64 ", warps %" PRIu64 ", barriers %" PRIu64 "\n",
            s->launches, s->workgroups, s->warps, s->barriers);
    fprintf(o, "  warp instructions  %12" PRIu64 "   (%.2f M/s in %.3f s)\n", s->warp_insts,
            rate(s->warp_insts, s->host_seconds) / 1e6, s->host_seconds);
    fprintf(o, "  thread instructions%12" PRIu64 "   SIMT efficiency %.1f%%, divergent branches %" PRIu64 "\n",
            s->thread_insts, 100.0 * umb_stats_simt_efficiency(s), s->divergent_branches);
    fprintf(o, "  by class:");
    int col = 0;
    for (int i = 0; i < UMB_CLASS_COUNT; i++) {
        if (!s->by_class[i]) continue;
        fprintf(o, "%s%s %" PRIu64, col++ % 4 == 0 ? "\n    " : ", ", class_names[i], s->by_class[i]);
    }
    fprintf(o, "\n  memory (lane accesses / bytes):\n");
    for (int i = 0; i < UMB_SPACE_COUNT; i++) {
        const umb_mem_traffic *t = &s->mem[i];
        if (!t->loads && !t->stores && !t->atomics) continue;
        fprintf(o, "    %-8s loads %" PRIu64 " (%" PRIu64 " B), stores %" PRIu64 " (%" PRIu64 " B), atomics %" PRIu64 "\n",
                space_names[i], t->loads, t->bytes_read, t->stores, t->bytes_written, t->atomics);
    }
}
