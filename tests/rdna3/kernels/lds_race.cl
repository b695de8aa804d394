/* LDS reads whose values depend on the interleaving of waves (cli_test.py "schedule_lds"): a
 * first phase between barriers only reads LDS (there the fast path runs LDS loads ahead of their
 * turns), a second phase reads and writes it with no barrier (there it must not). The fast path
 * must give the bytes of plain round robin (a traced run). */
__kernel void lds_race(__global uint *out, uint rounds)
{
    __local uint tile[256];
    __local uint box[64];
    uint lid = get_local_id(0);
    tile[lid] = lid * 7u + get_group_id(0);
    if (lid < 64) box[lid] = lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint acc = 0;
    for (uint k = 0; k < 64; k++) acc += tile[(lid + k) & 255u] * (k + 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint r = 0; r < rounds; r++) {
        box[(lid + r) & 63u] = acc + r;
        acc = acc * 31u + box[(lid * 3u + r) & 63u];
    }
    out[get_global_id(0)] = acc;
}
