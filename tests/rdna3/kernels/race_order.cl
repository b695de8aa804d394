/* A kernel whose results depend on the order in which waves run (not part of the corpus): per
 * round, each wave does a different amount of register-only work, then takes tickets with an
 * atomic and does an unsynchronised read-modify-write. The tickets record the global order of the
 * waves' memory operations; cli_test.py's "schedule" case checks that umbra's fast path (which runs
 * register-only instructions ahead of their round-robin turn) gives exactly the results of the
 * plain one-instruction round robin that a traced run uses. */
__kernel void race_order(__global uint *order, __global uint *ticket, __global uint *shared_val, uint rounds)
{
    uint gid = get_global_id(0), wave = get_local_id(0) / 32u;
    uint h = gid;
    for (uint r = 0; r < rounds; r++) {
        uint work = (wave * 5u + r * 3u) % 11u;
        for (uint i = 0; i < work; i++) h = h * 2654435761u + i;
        order[gid * rounds + r] = atomic_inc(ticket);
        uint v = shared_val[0];
        shared_val[0] = v + (h & 7u) + 1u;
        if (r % 3u == 2u) barrier(CLK_GLOBAL_MEM_FENCE);
    }
    shared_val[1 + gid] = h;
}
