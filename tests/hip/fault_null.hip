// A kernel that stores through a NULL pointer (passed as an argument, so the compiler cannot see
// it). Expected: the launch itself succeeds, hipDeviceSynchronize returns a HIP error (any; real
// ROCm reports a memory access fault) and umbra's fault report appears on stderr (the test matches
// it). hipGetLastError just after the launch may report hipSuccess or the same error. The
// program exits 0 when it saw the error, 1 when the faulting kernel "succeeded".
#include "hip_test.h"

__global__ void poke(int *p, int v) { p[threadIdx.x] = v; }

int main()
{
  poke<<<1, 64>>>(nullptr, 42);
  hipError_t launch = hipGetLastError();
  hipError_t sync = hipDeviceSynchronize();
  printf("launch: %s; hipDeviceSynchronize: %s (%s)\n", hipGetErrorName(launch), hipGetErrorName(sync),
         hipGetErrorString(sync));
  // hipGetLastError right after the launch may already report the kernel's failure (CUDA and HIP
  // document that it can return errors of earlier asynchronous launches); it must not be any
  // other error.
  EXPECT(launch == hipSuccess || launch == sync, "the launch itself failed: %s", hipGetErrorName(launch));
  EXPECT(sync != hipSuccess, "hipDeviceSynchronize returned hipSuccess after a NULL store");
  return ht_finish("fault_null");
}
