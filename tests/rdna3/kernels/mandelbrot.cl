/* Escape-time Mandelbrot: a divergent loop per pixel. Explicit fma and no contraction, so the
 * iteration counts match the C reference exactly. */
#pragma OPENCL FP_CONTRACT OFF
__kernel void mandelbrot(__global uint *iters, int W, int H, float x0, float y0, float step, uint maxit)
{
    int px = (int)get_global_id(0), py = (int)get_global_id(1);
    if (px >= W || py >= H) return;
    float cx = x0 + (float)px * step, cy = y0 + (float)py * step;
    float x = 0.0f, y = 0.0f;
    uint it = 0;
    while (it < maxit && fma(x, x, y * y) <= 4.0f) {
        float xt = fma(x, x, fma(-y, y, cx));
        y = fma(2.0f * x, y, cy);
        x = xt;
        it++;
    }
    iters[py * W + px] = it;
}
