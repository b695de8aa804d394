/* printf test kernels (tests/rdna3/printf/printf_test.c formats the same values with the host's C
 * printf and compares). OpenCL C 1.2 with cl_khr_fp16 for the half vector. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void conversions(int base)
{
    int g = (int)get_global_id(0);
    int i = g * 37 - 100 + base;
    uint u = (uint)g * 2654435761u;
    long l = (long)g * -1234567890123L;
    ulong ul = (ulong)g * 0x9e3779b97f4a7c15UL;
    float f = (float)g * 1.25f - 3.0f;
    double d = (double)g * -2.5e10 + 0.125;
    printf("%d %i %u %x %X %o|%5d|%-5d|%05d|%+d|% d|%#x|%#o\n", i, i, u, u, u, u, i, i, i, i, i, u, u);
    printf("%c%c %s|%-6s|%6s|%.2s|%s|\n", 'A' + g % 26, 'a' + g % 26, "str", "ab", "cd", "xyz", "");
    printf("%f %e %g %a %E %G %.3f|%10.2e|%-12.4g|%+f\n", f, f, f, f, f, f, f, f, f, f);
    printf("%f %e %g %a %.10f\n", d, d, d, d, d);
    printf("%hhd %hd %hhu %hu %ld %lu %lx %lo %% literal\n", i, i, u, u, l, ul, ul, ul);
    printf("%p %s\n", (__global void *)(ulong)(0x1000 + g * 16), "a longer constant string: 123");
}

__kernel void vectors(void)
{
    int g = (int)get_global_id(0);
    float4 f4 = (float4)(g, g + 0.5f, -g, 1.0f / (g + 1));
    int2 i2 = (int2)(g, -g);
    char4 c4 = (char4)((char)g, (char)-g, 100, -100);
    char2 c2 = (char2)((char)(g * 3), (char)-7);
    short8 s8 = (short8)(g, -g, 2 * g, -2 * g, 300, -300, 32767, -32768);
    uchar16 u16 = (uchar16)(g, g + 1, g + 2, g + 3, 4, 5, 6, 7, 8, 9, 10, 11, 200, 250, 255, 0);
    long2 l2 = (long2)((long)g << 40, -((long)g << 33));
    double2 d2 = (double2)(g * 0.25, -1e300);
    float3 f3 = (float3)(1.5f, -g, 0.0f);
    half4 h4 = (half4)((half)g, (half)0.5f, (half)-2.0f, (half)1024.25f);
    printf("%v4hlf|%v2hld|%v4hhd|%v2hhd|%v8hd|%v16hhx|%v2ld|%v2lf|%v3hlf|%v4hf|%v4hle\n",
           f4, i2, c4, c2, s8, u16, l2, d2, f3, h4, f4);
}

__kernel void many(void)
{
    int g = (int)get_global_id(0);
    printf("a %d\n", g);
    printf("b %d %d\n", g, g * g);
    printf("c %d\n", -g);
}

__kernel void print_then_fault(__global int *p)
{
    int g = (int)get_global_id(0);
    printf("before %d\n", g);
    p[g * 100000000] = 1;
}
