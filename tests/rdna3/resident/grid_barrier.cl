/* Workgroups that wait on each other: a software grid barrier (the pattern of SHOC's
 * BFS_kernel_SM_block). Each phase every work-item updates its element, all workgroups meet at a
 * grid barrier (an atomic arrival count, then a spin on a volatile load), read an element another
 * workgroup wrote in this phase, and meet again before the next phase overwrites it. It completes
 * only if every workgroup of the launch is resident at once. */
static void grid_barrier(__global volatile int *count, int target)
{
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        atomic_add(count, 1);
        while (*count < target) {
        }
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
}

__kernel void grid_phases(__global volatile int *count, __global int *data, __global int *out, int phases)
{
    int gid = (int)get_global_id(0), n = (int)get_global_size(0), ls = (int)get_local_size(0);
    int ng = (int)get_num_groups(0);
    for (int p = 0; p < phases; p++) {
        data[gid] += gid + p;
        grid_barrier(count, (2 * p + 1) * ng);
        out[p * n + gid] = data[(gid + ls) % n];
        grid_barrier(count, (2 * p + 2) * ng);
    }
}

/* A legal kernel that runs long without writing (the case "no forward progress" once stopped):
 * every work-item loops `iters` times over global loads and writes once at the end. */
__kernel void long_loop(__global const int *in, __global int *out, int iters, int n)
{
    int gid = (int)get_global_id(0), acc = 0;
    for (int i = 0; i < iters; i++)
        acc += in[(gid + i) % n] ^ i;
    out[gid] = acc;
}
