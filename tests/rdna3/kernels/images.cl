/* OpenCL image builtins through AMD's device library (ockl): read_imagef / read_imagei /
 * read_imageui with integer coordinates, write_imagef / write_imageui, read_imagef with a sampler
 * argument (normalized coordinates, clamp to edge, linear) and with a constant sampler (repeat,
 * nearest), get_image_width / height / channel order and data type, and a 2D image array. The
 * driver (cases_image.c) builds the descriptors (T# + ROCr's metadata dwords, S#) in device
 * memory. */
__kernel void images(read_only image2d_t src, write_only image2d_t dst, sampler_t smp,
                     read_only image2d_array_t arr, read_write image2d_t cnt,
                     __global float4 *out, __global int *info)
{
    const sampler_t rep = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_image_width(src), h = get_image_height(src);
    int i = y * get_global_size(0) + x;
    float4 v = read_imagef(src, (int2)(x, y));
    write_imagef(dst, (int2)(x, y), v * 2.0f);
    /* linear filtering at a quarter texel right of the texel centre */
    float2 c = (float2)((x + 0.75f) / w, (y + 0.5f) / h);
    out[4 * i + 0] = v;
    out[4 * i + 1] = read_imagef(src, smp, c);
    out[4 * i + 2] = read_imagef(src, rep, (float2)((x + 0.5f) / w - 1.0f, (y + 0.5f) / h + 2.0f));
    out[4 * i + 3] = convert_float4(read_imagei(arr, (int4)(x, y, i % 3, 0)));
    uint4 k = read_imageui(cnt, (int2)(x, y));
    write_imageui(cnt, (int2)(x, y), k + (uint4)(i, 0, 0, 0));
    if (i == 0) {
        info[0] = w;
        info[1] = h;
        info[2] = get_image_channel_order(src);
        info[3] = get_image_channel_data_type(src);
        info[4] = get_image_array_size(arr);
        info[5] = get_image_width(arr);
    }
}
