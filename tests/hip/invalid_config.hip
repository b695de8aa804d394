// Launch-configuration errors, reported by hipGetLastError / hipPeekAtLastError:
//   a block of 2048 threads (over maxThreadsPerBlock = 1024): hipErrorInvalidConfiguration, as
//   CUDA documents (cudaErrorInvalidConfiguration) and as ROCm's hipLaunchKernel validation
//   returns; hipErrorInvalidValue (what ROCm's hipModuleLaunchKernel returns) is accepted too;
//   dim3(1024, 2) threads (2048 in all): the same; a grid of 0 blocks: the same;
//   2 MiB of dynamic shared memory: an error (any);
//   hipGetLastError resets the error (a second call returns hipSuccess), hipPeekAtLastError does
//   not; afterwards a valid launch still works: out[i] = i + 1 for 64 threads.
#include "hip_test.h"

__global__ void plus_one(int *out) { out[threadIdx.x] = threadIdx.x + 1; }

int main()
{
  int *d;
  HIP_CHECK(hipMalloc(&d, 64 * sizeof(int)));
  HIP_CHECK(hipGetLastError());   // nothing pending

  plus_one<<<1, 2048>>>(d);
  EXPECT_ERR(hipGetLastError(), hipErrorInvalidConfiguration, hipErrorInvalidValue);
  EXPECT_ERR(hipGetLastError(), hipSuccess, hipSuccess);

  plus_one<<<1, dim3(1024, 2)>>>(d);
  EXPECT_ERR(hipPeekAtLastError(), hipErrorInvalidConfiguration, hipErrorInvalidValue);
  EXPECT_ERR(hipPeekAtLastError(), hipErrorInvalidConfiguration, hipErrorInvalidValue);
  EXPECT_ERR(hipGetLastError(), hipErrorInvalidConfiguration, hipErrorInvalidValue);
  EXPECT_ERR(hipGetLastError(), hipSuccess, hipSuccess);

  plus_one<<<0, 64>>>(d);
  EXPECT_ERR(hipGetLastError(), hipErrorInvalidConfiguration, hipErrorInvalidValue);

  plus_one<<<1, 64, 2 << 20>>>(d);
  hipError_t e = hipGetLastError();
  printf("2 MiB of dynamic shared memory -> %s\n", hipGetErrorName(e));
  EXPECT(e != hipSuccess, "a launch with 2 MiB of dynamic shared memory returned hipSuccess");

  HIP_CHECK(hipMemset(d, 0, 64 * sizeof(int)));
  plus_one<<<1, 64>>>(d);
  HIP_CHECK(hipGetLastError());
  int h[64];
  HIP_CHECK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) EXPECT(h[i] == i + 1, "valid launch after the errors: out[%d] = %d", i, h[i]);
  HIP_CHECK(hipFree(d));
  return ht_finish("invalid_config");
}
