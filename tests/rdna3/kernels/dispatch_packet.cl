/* The HSA launch state a kernel can read: the dispatch packet (dispatch ptr), its kernarg address,
 * the queue pointer: several user SGPRs enabled at once, in HSA order. */
__kernel void dispatch_packet(__global uint *out)
{
    __local uint scratch_lds[100];
    __constant uchar *p = (__constant uchar *)__builtin_amdgcn_dispatch_ptr();
    scratch_lds[get_local_id(0) + 10 * get_local_id(1)] = (uint)get_global_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_global_id(0) == 0 && get_global_id(1) == 0) {
        out[0] = *(__constant ushort *)(p + 2);    /* setup: dimensions */
        out[1] = *(__constant ushort *)(p + 4);    /* workgroup size x, y, z */
        out[2] = *(__constant ushort *)(p + 6);
        out[3] = *(__constant ushort *)(p + 8);
        out[4] = *(__constant uint *)(p + 12);     /* grid size x, y, z (work-items) */
        out[5] = *(__constant uint *)(p + 16);
        out[6] = *(__constant uint *)(p + 20);
        out[7] = *(__constant uint *)(p + 28);     /* group segment size */
        out[8] = *(__constant ulong *)(p + 40) == (ulong)__builtin_amdgcn_kernarg_segment_ptr();
        out[9] = *(__constant uint *)(p + 24);     /* private segment size */
        out[10] = __builtin_amdgcn_queue_ptr() != 0;
        out[11] = scratch_lds[1];
    }
}
