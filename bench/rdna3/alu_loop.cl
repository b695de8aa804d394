/* An ALU-bound kernel for bench_rdna3: per work-item a chain of dependent float and integer
 * operations, no memory traffic inside the loop. */
__kernel void alu_loop(__global float *out, int iters)
{
    size_t gid = get_global_id(0);
    float a = (float)gid * 1e-3f, b = 1.0f, c = 0.5f;
    uint h = (uint)gid;
    for (int i = 0; i < iters; i++) {
        a = fma(a, 0.999f, b);
        b = b * 0.5f + c;
        c = c - a * 1e-4f;
        h = (h ^ (h << 5)) + (uint)i;
        h = h * 2654435761u;
    }
    out[gid] = a + b + c + (float)(h & 1023u);
}
