// The second translation unit of two_units.hip: its own kernel, so its own fat binary.
#include "hip_test.h"

__global__ void times_two(int *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2;
}

void launch_times_two(int *x, int n)
{
  times_two<<<(n + 255) / 256, 256>>>(x, n);
  HIP_CHECK(hipGetLastError());
}
