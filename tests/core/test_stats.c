/* Statistics: merging, SIMT efficiency, JSON shape. */
#include <stdlib.h>

#include "check.h"
#include "umbra/umbra.h"

int main(void)
{
    umb_stats a = {0}, b = {0};
    a.warp_insts = 10, a.thread_insts = 30, a.lane_slots = 40;
    a.by_class[UMB_CLASS_VALU_FP] = 7;
    a.mem[UMB_SPACE_GLOBAL].loads = 8, a.mem[UMB_SPACE_GLOBAL].bytes_read = 32;
    b.warp_insts = 5, b.thread_insts = 10, b.lane_slots = 20;
    b.by_class[UMB_CLASS_VALU_FP] = 1;
    umb_stats_add(&a, &b);
    CHECK_EQ_U64(a.warp_insts, 15);
    CHECK_EQ_U64(a.by_class[UMB_CLASS_VALU_FP], 8);
    CHECK(umb_stats_simt_efficiency(&a) > 0.6666 && umb_stats_simt_efficiency(&a) < 0.6667);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    umb_stats_write_json(&a, f, 2);
    fclose(f);
    CHECK_CONTAINS(buf, "\"warp_instructions\": 15,");
    CHECK_CONTAINS(buf, "\"vector_fp\": 8,");
    CHECK_CONTAINS(buf, "\"global\": {\"loads\": 8, \"stores\": 0, \"atomics\": 0, \"bytes_read\": 32,");
    CHECK_CONTAINS(buf, "\"simt_efficiency\": 0.666667,");
    free(buf);
    CHECK(!strcmp(umb_insn_class_name(UMB_CLASS_LDS), "local_mem"));
    CHECK(!strcmp(umb_addr_space_name(UMB_SPACE_PRIVATE), "private"));
    return check_report("test_stats");
}
