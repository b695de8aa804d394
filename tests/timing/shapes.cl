/* Kernels of the timing model's shape tests (shapes.c). */

/* out[i] = in[i * stride]: stride 1 coalesces a wave into one 128-byte line, stride 32 spreads it
 * over 32 lines. */
__kernel void gather(__global const uint *in, __global uint *out, uint stride)
{
    uint i = get_global_id(0);
    out[i] = in[i * stride];
}

/* Each lane reads LDS word (lane * stride) mod 1024, `iters` times: stride 1 touches 32 banks,
 * stride 32 one bank. */
__kernel void lds_stride(__global uint *out, uint stride, uint iters)
{
    __local uint tile[1024];
    uint l = get_local_id(0);
    for (uint i = l; i < 1024; i += get_local_size(0)) tile[i] = i;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint s = 0;
    for (uint k = 0; k < iters; k++) s += tile[(l * stride + k) & 1023];
    out[get_global_id(0)] = s;
}

/* The first lane of every wave follows its own chain of `steps` dependent loads, starting
 * `spacing` words after the previous wave's: a latency-bound wave. */
__kernel void chase_many(__global const uint *next, __global uint *out, uint steps, uint spacing)
{
    if (get_local_id(0) % 32) return;
    uint p = get_global_id(0) / 32 * spacing;
    for (uint i = 0; i < steps; i++) p = next[p];
    out[get_global_id(0)] = p;
}

__kernel void chain_init(__global uint *next, uint stride, uint nlines)
{
    uint i = get_global_id(0);
    if (i < nlines) next[i * stride] = ((i + 1) % nlines) * stride;
}

/* Light and heavy register use, same shape of work. */
__kernel void light(__global const float *in, __global float *out)
{
    uint g = get_global_id(0);
    out[g] = in[g] * 2.0f + 1.0f;
}

__kernel void heavy(__global const float *in, __global float *out)
{
    uint g = get_global_id(0);
    float a[128];
    for (int i = 0; i < 128; i++) a[i] = in[(g + i * 977) & 65535];
    float s = 0;
    for (int k = 1; k < 4; k++)
        for (int i = 0; i < 128; i++) s = fma(a[i], a[(i + k) & 127], s);
    out[g] = s;
}

/* Work-item i reads word i of each of `nstreams` arrays of `len` words laid end to end: a wave
 * reads one 128-byte line from each of nstreams streams, so the streams reach DRAM interleaved.
 * The buffer holds zeros: the sum is 0 and nothing is written (the streams stay reads). */
__kernel void streams(__global const uint *in, __global uint *out, uint nstreams, uint len)
{
    uint i = get_global_id(0), s = 0;
    for (uint k = 0; k < nstreams; k++) s += in[k * len + i];
    if (s == 1u) out[0] = s;
}

/* Work-item i reads one word of a pseudo-random 128-byte line of `nlines` (a buffer far larger
 * than the Infinity Cache): each line once, in no order DRAM rows can serve twice, so nearly
 * every access opens a row and the channels' activation rate (tRRD, tFAW) is what limits DRAM. */
__kernel void random_lines(__global const uint *in, __global uint *out, uint nlines)
{
    uint i = get_global_id(0);
    uint h = i * 0x9E3779B1u;                 /* a bijection of the index space (odd multiplier) */
    h ^= h >> 15;
    uint line = h % nlines;
    uint s = in[(ulong)line * 32u];
    if (s == 1u) out[0] = s;
}

/* One workgroup of 256 work-items storing 16 bytes each, four times an iteration (ds_store_b128;
 * volatile, so that every store stays): the LDS bandwidth one workgroup gets. */
__kernel void lds_store_b128(__global float4 *out, int iters)
{
    __local float4 buf[256 * 4];
    volatile __local float4 *p = buf;
    int l = get_local_id(0);
    float4 v = (float4)(l, 1, 2, 3);
    for (int i = 0; i < iters; i++) {
        p[l] = v;
        p[l + 256] = v;
        p[l + 512] = v;
        p[l + 768] = v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = buf[(l * 7) & 1023];
}

/* One wave, a chain of n dependent WMMAs on one accumulator: each holds the SIMD's VALU for the
 * 32 cycles AMD's Matrix Instruction Calculator gives v_wmma_f32_16x16x16_f16. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void wmma_chain(__global const half *a, __global float *out, uint n)
{
    uint lane = get_local_id(0);
    half16 fa = vload16(lane % 16, a), fb = vload16(lane % 16 + 16, a);
    float8 acc = (float8)(0.0f);
    for (uint i = 0; i < n; i++) acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(fa, fb, acc);
    vstore8(acc, get_global_id(0), out);
}
