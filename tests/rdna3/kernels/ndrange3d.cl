/* A 3D NDRange with partial last groups: the packed work-item ids of all three dimensions. */
__kernel void ndrange3d(__global uint *out, uint X, uint Y)
{
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    __global uint *o = out + ((z * Y + y) * X + x) * 4;
    o[0] = (uint)get_local_id(0) | (uint)get_local_id(1) << 10 | (uint)get_local_id(2) << 20;
    o[1] = (uint)get_group_id(0) | (uint)get_group_id(1) << 10 | (uint)get_group_id(2) << 20;
    o[2] = (uint)get_local_size(0) | (uint)get_local_size(1) << 10 | (uint)get_local_size(2) << 20;
    o[3] = (uint)get_global_linear_id();
}
