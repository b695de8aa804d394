// OpenCL C 1.2 §6.12.1 work-item functions. Every work-item writes one record of NV values at the
// index of its position in the NDRange (computed from the ids and offsets it reads).
#define NV 28
kernel void workitem(global uint *out)
{
    size_t gx = get_global_id(0) - get_global_offset(0), gy = get_global_id(1) - get_global_offset(1);
    size_t gz = get_global_id(2) - get_global_offset(2);
    size_t idx = (gz * get_global_size(1) + gy) * get_global_size(0) + gx;
    global uint *r = out + idx * NV;
    r[0] = get_work_dim();
    for (uint d = 0; d < 3; d++) {
        r[1 + d] = get_global_size(d);
        r[4 + d] = get_global_id(d);
        r[7 + d] = get_local_size(d);
        r[10 + d] = get_local_id(d);
        r[13 + d] = get_num_groups(d);
        r[16 + d] = get_group_id(d);
        r[19 + d] = get_global_offset(d);
    }
    // out-of-range dimension indexes (§6.12.1: 1 for sizes, 0 for ids and offsets)
    uint bad = get_work_dim() + 2;
    r[22] = get_global_size(bad);
    r[23] = get_global_id(bad);
    r[24] = get_local_size(bad);
    r[25] = get_local_id(bad);
    r[26] = get_num_groups(bad) + 16 * get_group_id(bad);
    r[27] = get_global_offset(bad);
}
