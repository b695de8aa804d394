/* tests/rdna3/jit: faults inside translated loops. fault_loop: work-item 37 stores to an unmapped
 * address in iteration 77 of a register-heavy loop (a memory instruction that faults at its own
 * turn); the others finish. */
__kernel void fault_loop(__global uint *out, int n)
{
    uint id = (uint)get_global_id(0), acc = id;
    for (int i = 0; i < n; i++) {
        acc = (acc ^ (acc << 5)) + (uint)i;
        acc = acc * 2654435761u;
        if (i == 77 && id == 37) out[1u << 30] = acc;
    }
    out[id] = acc;
}
