/* One n-body step: softened gravity with rsqrt, positions tiled through LDS; the speed uses sqrt. */
#define TILE 64
__kernel void nbody(__global const float4 *pos, __global const float4 *vel, __global float4 *npos,
                    __global float4 *nvel, __global float *speed, uint n, float dt, float eps2)
{
    __local float4 sh[TILE];
    size_t i = get_global_id(0);
    float4 p = i < n ? pos[i] : (float4)(0.0f);
    float3 a = (float3)(0.0f);
    for (uint t = 0; t < n; t += TILE) {
        uint j = t + get_local_id(0);
        sh[get_local_id(0)] = j < n ? pos[j] : (float4)(0.0f);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < TILE && t + k < n; k++) {
            float4 q = sh[k];
            float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
            float r2 = dx * dx + dy * dy + dz * dz + eps2;
            float inv = rsqrt(r2);
            float s = q.w * inv * inv * inv;
            a.x += dx * s; a.y += dy * s; a.z += dz * s;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (i < n) {
        float4 v = vel[i];
        v.x += a.x * dt; v.y += a.y * dt; v.z += a.z * dt;
        nvel[i] = v;
        npos[i] = (float4)(p.x + v.x * dt, p.y + v.y * dt, p.z + v.z * dt, p.w);
        speed[i] = sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    }
}
