/* out[x][y] = in[y][x] through a padded 16x17 LDS tile (no bank conflicts), W x H not multiples of 16. */
#define T 16
__kernel void transpose_lds(__global const uint *in, __global uint *out, uint W, uint H)
{
    __local uint tile[T][T + 1];
    uint x = get_group_id(0) * T + get_local_id(0);
    uint y = get_group_id(1) * T + get_local_id(1);
    if (x < W && y < H) tile[get_local_id(1)][get_local_id(0)] = in[y * W + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint ox = get_group_id(1) * T + get_local_id(0);   /* column in out = row in in */
    uint oy = get_group_id(0) * T + get_local_id(1);
    if (ox < H && oy < W) out[oy * H + ox] = tile[get_local_id(0)][get_local_id(1)];
}
