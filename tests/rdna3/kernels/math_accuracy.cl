/* The transcendental functions of the device header against the C library, with the OpenCL
 * full-profile ulp bounds (the back end's expansions around v_exp/v_log/v_sin/v_rsq/v_sqrt). */
__kernel void math_accuracy(__global const float *x, __global const float *y, __global float *out, uint n)
{
    size_t i = get_global_id(0);
    if (i >= n) return;
    float a = x[i], b = y[i];
    out[0 * n + i] = exp(a);
    out[1 * n + i] = exp2(a);
    out[2 * n + i] = log(b);
    out[3 * n + i] = log2(b);
    out[4 * n + i] = sqrt(b);
    out[5 * n + i] = rsqrt(b);
    out[6 * n + i] = sin(a);
    out[7 * n + i] = cos(a);
    out[8 * n + i] = pow(b, a * 0.25f);
    out[9 * n + i] = pow(-b, 3.0f);
    out[10 * n + i] = a / b;
}
