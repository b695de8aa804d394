// Kernel names of C++ templates run long (rocPRIM's are hundreds of bytes): a kernel whose
// mangled name is longer than 127 bytes (the limit umbra once had) launches like any other.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstring>

template <int N> struct a_rather_long_template_parameter_type_name_for_testing_kernel_names { static constexpr int value = N; };

template <class A, class B, class C, class D, class E, class F>
__global__ void kernel_with_a_long_name(int *out)
{
    out[threadIdx.x] = A::value + B::value + C::value + D::value + E::value + F::value + (int)threadIdx.x;
}

#define T(n) a_rather_long_template_parameter_type_name_for_testing_kernel_names<n>

int main()
{
    int *d;
    if (hipMalloc(&d, 64 * sizeof(int))) return 1;
    auto k = kernel_with_a_long_name<T(1), T(2), T(3), T(4), T(5), T(6)>;
    hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, d);
    int h[64];
    if (hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost)) return 1;
    int bad = 0;
    for (int i = 0; i < 64; i++) bad += h[i] != 21 + i;
    hipFuncAttributes attr;
    if (hipFuncGetAttributes(&attr, (const void *)k)) return 1;
    printf("%s\n", bad ? "FAILED" : "PASSED");
    return bad != 0;
}
