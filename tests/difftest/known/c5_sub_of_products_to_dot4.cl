/* C5 (docs/DIFFTEST.md): clang-19's AMDGPU back end at -O3 turns the byte arithmetic
 * v = c * a - v; (branch: a changes or not); v = c * a' - v  =  c * a' - c * a + v0
 * into one `v_dot4_u32_u8 v, [a, a', 0, 0], [c, c, 0, 0], v0` (two v_perm_b32 build the byte
 * vectors), i.e. c * a + c * a' + v0: the subtraction of the first product is lost. The -O3 IR
 * clang emits is right (`mul i8`, `sub i8`, `add i8`); -O0 code is right too. With inputs from
 * a seeded generator, 245 of 256 work-items differ from a C reference at -O3 (work-item 0: 0xb4
 * instead of 0x00), none at -O0; umbra executes v_dot4_u32_u8 as the ISA says (unsigned bytes,
 * no negation). Found by the differential run of seeds 700-714 (seed 708 k14, every -O3 build,
 * also under the timing model), reduced by reduce.py and by hand. Launch: 256 work-items in one
 * workgroup, out = ulong[256 * 8] (word 7 of each work-item), in = 256 words. */
static char mul_char(char a, char b) { return (char)((uint)a * (uint)b); }
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void k14(__global ulong *out, __global const uint *in, __global uint *ctr)
{
    uint lid = get_local_id(0), gid = get_global_id(0);
    char v3 = ((char)(in[(gid * 5u + 87u) & 255u]));
    uchar v7 = ((uchar)(in[(gid * 11u + 216u) & 255u]));
    uchar z = (uchar)in[(gid + 57u) & 255u];
    uchar p0 = (uchar)in[gid & 255u], p1 = (uchar)in[(gid + 3u) & 255u];
    uchar v0 = (uchar)(lid & 1u);
    for (uint i1 = 0; i1 < 2; i1++) {
        v0 = (uchar)((uchar)v3 * v7 - v0);
        if (lid >= 235u) {
            v7 = (uchar)i1;
        } else {
            if (min(mul_char((char)i1, (char)(i1 ? p1 : p0)), (char)i1) < v3) {
            } else {
                v7 = (uchar)(in[i1] & z);
            }
        }
    }
    out[gid * 8u + 7u] = (ulong)v0;
}
