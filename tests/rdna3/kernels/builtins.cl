/* The device header's vector, geometric, conversion and load/store functions.
 * Contraction off: every result has an exact C reference. */
#pragma OPENCL FP_CONTRACT OFF
__kernel void builtins(__global const float *in, __global float *outf, __global int *outi, uint n)
{
    size_t i = get_global_id(0);
    if (i >= n) return;
    float4 v = vload4(i, in);
    float3 w = vload3(i, in + 4 * n);
    float4 s = sqrt(fabs(v)) + fmin(v, (float4)(0.5f)) + fmax(v, (float4)(-0.5f));
    vstore4(s, i, outf);
    outf[4 * n + i] = dot(v, v);
    outf[5 * n + i] = length(w);
    vstore3(cross(w, (float3)(1.0f, 2.0f, 3.0f)), i, outf + 6 * n);
    outf[9 * n + i] = fmod(v.x * 10.0f, 3.0f);
    outf[10 * n + i] = ldexp(v.y, 5);
    outf[11 * n + i] = mix(v.x, v.y, 0.25f);
    outf[12 * n + i] = step(0.0f, v.z) + select(1.0f, 2.0f, (int)(v.w > 0.0f));
    float4 c = clamp(v, (float4)(-1.0f), (float4)(1.0f));
    outf[13 * n + i] = c.x + c.y * 2.0f + c.z * 4.0f + c.w * 8.0f;
    int4 ci = convert_int4(v * 100.0f);
    vstore4(ci, i, outi);
    outi[4 * n + i] = isnan(sqrt(v.x)) | isinf(1.0f / (v.y - v.y)) << 1;
    uint4 cu = convert_uint4(convert_uchar4(ci & 255));
    outi[5 * n + i] = (int)(cu.x + cu.y + cu.z + cu.w) + max(ci, (int4)(0)).x * 1000;
}
