/* Double precision: fma, division and sqrt (correctly rounded expansions). */
__kernel void double_prec(__global const double *x, __global const double *y, __global double *out,
                          double a, uint n)
{
    size_t i = get_global_id(0);
    if (i >= n) return;
    double xv = x[i], yv = y[i];
    out[3 * i] = fma(a, xv, yv);
    out[3 * i + 1] = yv / xv;
    out[3 * i + 2] = sqrt(xv * yv);
}
