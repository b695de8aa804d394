/* What clang-19's printf lowering emits for formats its scanner does not fully know
 * (LLVM 19's AMDGPUPrintfRuntimeBinding: no %F, %A, %n): fewer argument sizes than arguments in
 * the amdhsa.printf metadata. The program must load and print what was stored (CTS test_printf
 * string, float_limits, double_limits, mixed_format_random had kernels like these). */
__kernel void llvm19_formats(void)
{
    printf("a %d %A %d|\n", 7, 1.5f, 9);   /* stored: 7 and 1.5 (two conversions found), not 9 */
    printf("\n", "foo");                   /* an argument and no conversion: nothing stored */
    printf("%F|\n", 1.0f / 0.0f);          /* nothing stored */
}
