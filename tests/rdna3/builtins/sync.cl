// OpenCL C 1.2 §6.12.8 synchronization (barrier) and §6.12.9 explicit memory fences
// (mem_fence, read_mem_fence, write_mem_fence). ROUNDS rounds of exchanges between the
// work-items of a workgroup through local and global memory, each ordered by a barrier.
#define ROUNDS 4
kernel void barrier_local(global const uint *in, global uint *out, local uint *lds)
{
    size_t l = get_local_id(0), L = get_local_size(0);
    uint v = in[get_global_id(0)];
    for (uint r = 0; r < ROUNDS; r++) {
        lds[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        v = lds[(l + 1 + r) % L] * 3u + r;  // a neighbour's value of this round
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = v;
}

kernel void barrier_global(global const uint *in, global uint *out, global uint *scratch)
{
    size_t l = get_local_id(0), L = get_local_size(0), base = get_group_id(0) * L;
    uint v = in[get_global_id(0)];
    for (uint r = 0; r < ROUNDS; r++) {
        scratch[base + l] = v;
        barrier(CLK_GLOBAL_MEM_FENCE);
        v = scratch[base + (l + 5 + r) % L] ^ (r * 0x9e3779b9u);
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = v;
}

// Fences order one work-item's own accesses: data then flag written with write_mem_fence
// between them, read back (after a barrier) with read_mem_fence / mem_fence between the reads.
kernel void fences(global uint *data, global uint *flag, global uint *out, local uint *lds)
{
    size_t g = get_global_id(0), l = get_local_id(0), L = get_local_size(0);
    data[g] = (uint)g * 7u + 1u;
    lds[l] = (uint)g * 5u;
    write_mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    flag[g] = 1u;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    size_t p = get_group_id(0) * L + (l + 1) % L;
    uint f = flag[p];
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    uint d = data[p];
    mem_fence(CLK_LOCAL_MEM_FENCE);
    out[g] = f ? d + lds[(l + 1) % L] : 0xdeadu;
}
