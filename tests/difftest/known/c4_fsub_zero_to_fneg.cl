/* C4 (docs/DIFFTEST.md): clang-19's AMDGPU back end (at -O0 as well as -O3) turns
 * `m + (0.0f - g)` into `v_add_f32 v, m, -g`, i.e. it drops the `0.0f +` of `0.0f - g`
 * (`fsub 0.0, g` = `fadd 0.0, -g`, then `0.0 + x` -> `x`, which is wrong for x = -0.0: no
 * no-signed-zeros flag is set). With t = 0, group 0 and in[0] = 1.0f: m = 0 * -1 = -0.0, and
 * m + (0.0f - 0.0f) = -0.0 + +0.0 = +0.0 (0x00000000, PoCL), where the gfx1100 code gives
 * -0.0 + -0.0 = -0.0 (0x80000000). The IR is right (`fsub float 0.0, %g` then `fadd`); see
 * `llvm-objdump-19 -d` of the code object for the folded instruction.
 * Found by the long differential run (seed 500371 k12, -O3 only there). */
__kernel void f(__global uint *out, __global const float *in)
{
    uint t = get_global_id(0);
    float g = (float)get_group_id(0);
    float m = (float)t * -in[t];
    out[t] = as_uint(m + (0.0f - g));
}
