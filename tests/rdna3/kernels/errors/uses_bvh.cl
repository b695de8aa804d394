/* A kernel that executes an instruction umbra decodes but does not implement: ds_bvh_stack_rtn_b32
 * (the ray-tracing BVH stack, never emitted for OpenCL C). The run must stop at it with an error
 * naming the mnemonic, encoding, PC and kernel. */
__kernel void uses_bvh(__global uint *out)
{
    out[get_global_id(0)] = 1u;
    __asm volatile("ds_bvh_stack_rtn_b32 v1, v2, v3, v[4:7]\n"
                   "s_waitcnt lgkmcnt(0)" ::: "v1", "v2", "v3", "v4", "v5", "v6", "v7", "memory");
    out[get_global_id(0)] = 2u;
}
