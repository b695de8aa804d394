/* A private array indexed with run-time values: it lives in scratch (architected flat scratch). */
__kernel void private_array(__global const uint *idx, __global uint *out, uint n)
{
    volatile uint a[96];
    size_t g = get_global_id(0);
    if (g >= n) return;
    for (uint i = 0; i < 96; i++) a[i] = i * 2654435761u + (uint)g;
    uint s = 0, k = idx[g];
    for (uint r = 0; r < 16; r++) {
        uint j = (k >> (r & 15)) % 96u;
        a[j] ^= s;
        s += a[(j * 7 + r) % 96u];
    }
    out[g] = s;
}
