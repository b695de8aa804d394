/* A kernel that executes an instruction umbra does not implement (image_load: there is no image
 * support). The run must stop with an error naming the mnemonic, encoding, PC and kernel. */
__kernel void uses_image(__global uint *out)
{
    out[get_global_id(0)] = 1u;
    __asm volatile("image_load v[4:7], v0, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D\n"
                   "s_waitcnt vmcnt(0)" ::: "v4", "v5", "v6", "v7", "memory");
    out[get_global_id(0)] = 2u;
}
