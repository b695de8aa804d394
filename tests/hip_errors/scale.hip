// A device-only code object for the module API cases of bad_input.hip.
#include <hip/hip_runtime.h>
extern "C" __global__ void scale(float *p, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= s;
}
