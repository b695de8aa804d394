/* A memory-bound kernel for bench_rdna3: STREAM's triad, two loads, one FMA and one store per
 * work-item, each work-item striding over the arrays so that a launch moves many bytes. */
__kernel void triad(__global float *a, __global const float *b, __global const float *c, float s, int n)
{
    for (int i = (int)get_global_id(0); i < n; i += (int)get_global_size(0)) a[i] = fma(s, c[i], b[i]);
}
