/* 3x3 convolution with clamped edges on a W x H image; 2D NDRange with partial groups.
 * Contraction off and a fixed summation order: the C reference is bit-exact. */
#pragma OPENCL FP_CONTRACT OFF
__kernel void conv2d(__global const float *img, __constant float *filt, __global float *out, int W, int H)
{
    int x = (int)get_global_id(0), y = (int)get_global_id(1);
    if (x >= W || y >= H) return;
    float acc = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int sx = clamp(x + dx, 0, W - 1), sy = clamp(y + dy, 0, H - 1);
            acc = acc + img[sy * W + sx] * filt[(dy + 1) * 3 + dx + 1];
        }
    out[y * W + x] = acc;
}
