/* C4 again (docs/DIFFTEST.md), through a conversion: clang-19's AMDGPU back end (at -O0 as well
 * as -O3) compiles `(double)(0.0f - g)` to `v_cvt_f64_f32_e64 v[1:2], -v1`, the subtraction
 * folded into a negate source modifier of the conversion. For group 0, g = +0.0 and the source's
 * 0.0f - 0.0f = +0.0 (0x0000000000000000, PoCL), where the gfx1100 code gives -(+0.0) = -0.0
 * (0x8000000000000000, umbra, as the instruction says). The IR is right (`fsub float 0.0, %g`
 * then `fpext`, no no-signed-zeros flag); see `llvm-objdump-19 -d` of the code object.
 * Found by the translator's record (seed 40463 k21, -O3 wave32 builds there; the interpreter and
 * the translator alike). */
__kernel void f(__global ulong *out)
{
    float g = (float)get_group_id(0);
    out[get_global_id(0)] = as_ulong((double)(0.0f - g));
}
