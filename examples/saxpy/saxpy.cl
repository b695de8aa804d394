/* y = a*x + y, the bundled RDNA3 example (see scripts/example.sh). */
__kernel void saxpy(__global const float *x, __global float *y, float a)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
