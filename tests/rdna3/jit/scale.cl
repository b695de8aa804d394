/* The translation cache's test kernel (cache_test.c): built twice, with SCALE 1000 and 3000, into
 * code objects of the same size whose code differs only in the literal. */
__kernel void scale(__global int *out)
{
    out[get_global_id(0)] = (int)get_global_id(0) * SCALE;
}
