/* Pointer chasing for load-to-use latency (bench/timing/microbench.c). One work-item follows
 * next[] `steps` times; every load's address depends on the one before, so the time per step is
 * the latency of the level the footprint fits in. */

/* The address depends on the work-item id: a vector (VMEM) load per step. */
__kernel void chase_vector(__global const uint *next, __global uint *out, uint steps)
{
    uint p = get_global_id(0);
    for (uint i = 0; i < steps; i++) p = next[p];
    out[get_global_id(0)] = p;
}

/* Uniform address from read-only memory: the compiler uses scalar loads (SMEM). */
__kernel void chase_scalar(__global const uint *restrict next, __global uint *restrict out, uint steps)
{
    uint p = 0;
    for (uint i = 0; i < steps; i++) p = next[p];
    out[0] = p;
}

/* The same in LDS: the chain is copied into local memory first. */
__kernel void chase_lds(__global const uint *next, __global uint *out, uint steps, uint n, __local uint *lds)
{
    for (uint i = get_local_id(0); i < n; i += get_local_size(0)) lds[i] = next[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint p = get_local_id(0);
    for (uint i = 0; i < steps; i++) p = lds[p];
    out[get_global_id(0)] = p;
}

/* The chain for the chases: line i points at line i + 1 (the last back to the first), `stride`
 * words apart. Only the lines of the chain are written. */
__kernel void chain_init(__global uint *next, uint stride, uint nlines)
{
    uint i = get_global_id(0);
    if (i < nlines) next[i * stride] = ((i + 1) % nlines) * stride;
}

/* Bandwidth: every work-item sums float4s with a grid stride, `passes` times over the buffer. */
__kernel void read_bw(__global const float4 *in, __global float *out, uint n4, uint passes)
{
    float4 s = 0;
    uint gs = get_global_size(0);
    for (uint p = 0; p < passes; p++)
        for (uint i = get_global_id(0); i < n4; i += gs) s += in[i];
    out[get_global_id(0)] = s.x + s.y + s.z + s.w;
}

/* Bandwidth of a level that holds `mask4 + 1` float4s: every workgroup reads the same small
 * buffer, lanes on consecutive float4s (a wave takes four 128-byte lines a load), so each CU's L0
 * (or each shader array's L1) serves it once it is warm. The grid is four rounds of `round`
 * workgroups (one per WGP); the workgroups of round k (group id / `round`) start k quarters of the
 * buffer further on, so that no two workgroups sharing a CU read the same line at the same time
 * (one would hit the line the other just brought into the L0): in CU mode a CU runs one workgroup
 * of the first two rounds and one of the last two, in WGP mode (the waves of a workgroup on both
 * CUs of a WGP) one of each round. */
__kernel void read_small_bw(__global const float4 *in, __global float *out, uint mask4, uint iters, uint round)
{
    uint l = get_local_id(0), n = get_local_size(0);
    uint phase = (get_group_id(0) / round) * ((mask4 + 1) / 4);
    float4 s = 0;
    for (uint i = 0; i < iters; i++) s += in[(phase + l + i * n) & mask4];
    out[get_global_id(0)] = s.x + s.y + s.z + s.w;
}

/* LDS bandwidth: each work-item reads float4s of local memory at its own index. */
__kernel void lds_bw(__global float *out, uint iters, __local float4 *lds)
{
    uint l = get_local_id(0);
    lds[l] = (float4)(l);
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 s = 0;
    for (uint i = 0; i < iters; i++) s += lds[(l + i) & (get_local_size(0) - 1)];
    out[get_global_id(0)] = s.x + s.y + s.z + s.w;
}

/* FP32 throughput: eight independent multiply-add chains per work-item, x += b * c with b and c
 * in VGPRs, which the compiler pairs into VOPD v_dual_fmac_f32 (dual issue). */
__kernel void fp32_fma(__global const float *in, __global float *out, uint iters)
{
    uint l = get_local_id(0);
    float b0 = in[l], c0 = in[l + 1], b1 = in[l + 2], c1 = in[l + 3];
    float x0 = get_global_id(0), x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;
    float x4 = x0 + 4, x5 = x0 + 5, x6 = x0 + 6, x7 = x0 + 7;
    for (uint i = 0; i < iters; i++) {
        x0 = fma(b0, c0, x0); x1 = fma(b1, c1, x1); x2 = fma(b0, c0, x2); x3 = fma(b1, c1, x3);
        x4 = fma(b0, c0, x4); x5 = fma(b1, c1, x5); x6 = fma(b0, c0, x6); x7 = fma(b1, c1, x7);
    }
    out[get_global_id(0)] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

/* FP16 WMMA throughput: four independent accumulators a wave (a chain's result latency stays
 * hidden behind the other three's 32 cycles each), 16 x 16 x 16 x 2 = 8192 FLOP a WMMA. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void wmma_f16(__global const half *in, __global float *out, uint iters)
{
    uint l = get_local_id(0) % 32;
    half16 a = vload16(l % 16, in), b = vload16(l % 16 + 16, in);
    float8 c0 = (float8)(0.0f), c1 = c0, c2 = c0, c3 = c0;
    for (uint i = 0; i < iters; i++) {
        c0 = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a, b, c0);
        c1 = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a, b, c1);
        c2 = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a, b, c2);
        c3 = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a, b, c3);
    }
    float8 s = c0 + c1 + c2 + c3;
    out[get_global_id(0)] = s.s0 + s.s1 + s.s2 + s.s3 + s.s4 + s.s5 + s.s6 + s.s7;
}
