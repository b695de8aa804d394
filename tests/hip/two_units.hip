// A program whose kernels live in two translation units, as most real HIP programs: each unit
// registers its own fat binary (__hipRegisterFatBinary at start-up) and unregisters it at exit
// (__hipUnregisterFatBinary from each unit's __hip_module_dtor). Kernel add_one is here, kernel
// times_two in two_units_b.hip; x[i] = i becomes (i + 1) * 2, checked exactly. Expected: "PASS",
// and exit status 0: the second unit's unregistering used to find the first one's functions
// removed from the launch table and crash the finished program (found by seb-v/fp32_sgemm_amd,
// whose kernels are in separate files; docs/HIP.md).
#include "hip_test.h"
#include <vector>

__global__ void add_one(int *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1;
}

void launch_times_two(int *x, int n);   // two_units_b.hip

int main()
{
  const int n = 1000;
  std::vector<int> h(n);
  for (int i = 0; i < n; i++) h[i] = i;
  int *d;
  HIP_CHECK(hipMalloc(&d, n * sizeof(int)));
  HIP_CHECK(hipMemcpy(d, h.data(), n * sizeof(int), hipMemcpyHostToDevice));
  add_one<<<(n + 255) / 256, 256>>>(d, n);
  HIP_CHECK(hipGetLastError());
  launch_times_two(d, n);
  HIP_CHECK(hipMemcpy(h.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(h[i] == (i + 1) * 2, "x[%d] = %d, want %d", i, h[i], (i + 1) * 2);
  HIP_CHECK(hipFree(d));
  return ht_finish("two_units");
}
