/* Kernels for the --check-waitcnt tests: every kind of memory access clang-19 emits for OpenCL
 * (SMEM kernel arguments, GLOBAL loads/stores/atomics, LDS with barriers, scratch, generic
 * pointers, dependent loads). Each one computes something the test checks. */

kernel void wc_copy(global const float *a, global float *b, int n)
{
    int i = get_global_id(0);
    if (i < n) b[i] = a[i] * 2.0f + 1.0f;
}

kernel void wc_vec4(global const float4 *a, global float4 *b)
{
    int i = get_global_id(0);
    b[i] = a[i].wzyx + a[i];
}

kernel void wc_lds(global const int *a, global int *b)
{
    local int tile[256];
    int l = get_local_id(0), n = 64;   /* the tests launch groups of 64 */
    tile[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    b[get_global_id(0)] = tile[n - 1 - l] + 2 * tile[(l + 1) % n];
}

kernel void wc_atomic(global int *ctr, global int *out)
{
    int old = atomic_add(ctr, 1);
    out[get_global_id(0)] = old;
    atomic_max(ctr + 1, (int)get_global_id(0));
}

kernel void wc_private(global const int *a, global int *b, int k)
{
    int p[32];
    for (int j = 0; j < 32; j++) p[j] = a[(get_global_id(0) + j) % 64];
    b[get_global_id(0)] = p[k & 31] + p[(k * 7 + get_local_id(0)) & 31];
}

kernel void wc_chain(global const int *idx, global const int *val, global int *out)
{
    int i = get_global_id(0);
    out[i] = val[idx[i]] + val[idx[idx[i]]];
}
