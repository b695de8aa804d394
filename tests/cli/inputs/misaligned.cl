/* Loads at an address only the run knows (off; the work-item's index keeps it in a VGPR): clang
 * emits global_load_b32 / _b64, whose alignment SH_MEM_CONFIG.alignment_mode rules
 * (umbra run --alignment-mode). */
kernel void load32(global uint *out, global const uchar *in, uint off)
{
    size_t i = get_global_id(0);
    out[i] = *(global const uint *)(in + off + 8 * i);
}

kernel void load64(global ulong *out, global const uchar *in, uint off)
{
    size_t i = get_global_id(0);
    out[i] = *(global const ulong *)(in + off + 8 * i);
}
