/* A by-value struct argument of 388 bytes (the size of Rodinia heartwall's params struct):
 * every word is copied out, so the test sees the argument as the kernel received it. */
typedef struct params {
    uint words[97];
} params;

kernel void byval388(params p, global uint *out)
{
    uint i = get_global_id(0);
    if (i < 97) out[i] = p.words[i];
}
