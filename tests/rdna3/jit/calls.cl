/* A kernel calling a function that is not inlined (jit_test.py "calls"): the translator finds
 * the callee from the s_getpc_b64 / s_add_u32 / s_addc_u32 / s_swappc_b64 sequence. */
__attribute__((noinline)) int mix(int x, int k)
{
    for (int i = 0; i < k; i++) x = x * 1664525 + 1013904223 + i;
    return x;
}

__kernel void calls(__global int *out, int k)
{
    int i = (int)get_global_id(0);
    out[i] = mix(i, k) ^ mix(i + 7, k + 1);
}
