/* 64-bit integer hashing: splitmix64 and the murmur3 finaliser, rotates, 64-bit multiply. */
static ulong splitmix64(ulong z)
{
    z += 0x9e3779b97f4a7c15UL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
    return z ^ (z >> 31);
}
static ulong fmix64(ulong k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdUL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53UL;
    return k ^ (k >> 33);
}
__kernel void hash64(__global const ulong *in, __global ulong *out, uint n, uint rounds)
{
    size_t i = get_global_id(0);
    if (i >= n) return;
    ulong h = in[i];
    for (uint r = 0; r < rounds; r++) {
        h = splitmix64(h) ^ rotate(fmix64(h + r), (ulong)(r * 7 + 3));
        h += (ulong)i * 0x100000001b3UL;
    }
    out[i] = h;
}
