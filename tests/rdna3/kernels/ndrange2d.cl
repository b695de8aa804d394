/* Every work-item function in a 2D NDRange with a global offset and partial last groups. */
__kernel void ndrange2d(__global uint *out, uint W)
{
    size_t gx = get_global_id(0), gy = get_global_id(1);
    size_t x = gx - get_global_offset(0), y = gy - get_global_offset(1);
    __global uint *o = out + (y * W + x) * 12;
    o[0] = (uint)gx; o[1] = (uint)gy;
    o[2] = (uint)get_local_id(0); o[3] = (uint)get_local_id(1);
    o[4] = (uint)get_group_id(0); o[5] = (uint)get_group_id(1);
    o[6] = (uint)get_local_size(0); o[7] = (uint)get_local_size(1);
    o[8] = (uint)get_num_groups(0) | (uint)get_num_groups(1) << 16;
    o[9] = (uint)get_global_size(0) | (uint)get_global_size(1) << 16;
    o[10] = get_work_dim() | (uint)get_enqueued_local_size(0) << 8 | (uint)get_enqueued_local_size(1) << 16;
    o[11] = (uint)get_local_linear_id();
}
