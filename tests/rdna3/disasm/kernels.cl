/* Kernels for the disassembly test: compiled at test time with clang-19 for gfx1100 at -O0 and
 * -O3, wave32 and wave64; llvm-objdump-19 and umbra must print the same text for every
 * instruction clang emits. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void vadd(__global float *a, __global const float *b, __global const float *c, int n)
{
    int i = get_global_id(0);
    if (i < n) a[i] = b[i] + c[i] * 2.5f;
}

__kernel void reduce(__global int *out, __global const int *in, __local int *tmp)
{
    int l = get_local_id(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (l < s) tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) atomic_add(out, tmp[0]);
}

__kernel void dbl(__global double *a, __global long *b, int n)
{
    int i = get_global_id(0);
    a[i] = sqrt(a[i]) / (double)b[i];
    b[i] = b[i] / (long)n + (b[i] % 7);
}

__kernel void mixed(__global half *h, __global short *s, __global char *c, __global float *f, __global uint *u)
{
    int i = get_global_id(0);
    h[i] = h[i] * h[i + 1] + (half)1.5f;
    s[i] = s[i] * s[i + 1] + c[i];
    f[i] = fma(f[i], (float)s[i], 1.0f) / f[i + 1];
    u[i] = (u[i] >> 3) ^ (u[i + 1] << 5) | popcount(u[i]) | clz(u[i + 2]);
    f[i + 2] = fmin(fabs(f[i]), floor(f[i + 1])) + rsqrt(f[i + 3]) + native_sin(f[i]);
}

__kernel void priv(__global int *o, int k)
{
    int arr[64];
    for (int i = 0; i < 64; i++) arr[i] = o[i] * k;
    o[get_global_id(0)] = arr[(k + get_global_id(0)) & 63];
}

__kernel void loc2d(__global float *out, __global const float *in, __local float *tile, int w)
{
    int x = get_local_id(0), y = get_local_id(1);
    tile[y * 17 + x] = in[get_global_id(1) * w + get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0) * w + get_global_id(1)] = tile[x * 17 + y] + tile[(x + 1) % 16 * 17 + y];
}

__kernel void atomics(__global int *g, __local int *l, __global float *f)
{
    int i = get_global_id(0);
    atomic_min(&g[0], i);
    atomic_max(&g[1], i);
    atomic_xchg(&g[2], i);
    atomic_cmpxchg(&g[3], i, i + 1);
    atomic_or(&g[4], 1 << (i & 31));
    l[i & 7] = 0;
    atomic_add(&l[i & 7], 1);
    g[5 + i] = atomic_inc(&g[4 + (i & 1)]) + l[(i + 1) & 7];
}
