// A failing device-side assert (needs the hostcall service, which prints the message on stderr):
// thread 37 of a 64-thread launch fails assert(v != 37). Expected: the message
// "...device_assert.hip:<line>: ...: Device-side assertion `v != 37' failed." on stderr, the
// launch ends with an error (the assert traps), and hipDeviceSynchronize returns a HIP error,
// which the program prints. It exits 0 when it saw the error, 1 if the kernel "succeeded".
#undef NDEBUG
#include "hip_test.h"
#include <cassert>

__global__ void check(const int *in)
{
  int v = in[threadIdx.x];
  assert(v != 37);
}

int main()
{
  int *d, h[64];
  for (int i = 0; i < 64; i++) h[i] = i;
  HIP_CHECK(hipMalloc(&d, sizeof h));
  HIP_CHECK(hipMemcpy(d, h, sizeof h, hipMemcpyHostToDevice));
  check<<<1, 64>>>(d);
  hipError_t launch = hipGetLastError();
  hipError_t sync = hipDeviceSynchronize();
  printf("launch: %s; hipDeviceSynchronize: %s\n", hipGetErrorName(launch), hipGetErrorName(sync));
  // hipGetLastError right after the launch may already report the kernel's failure (CUDA and HIP
  // document that it can return errors of earlier asynchronous launches); it must not be any
  // other error.
  EXPECT(launch == hipSuccess || launch == sync, "the launch itself failed: %s", hipGetErrorName(launch));
  EXPECT(sync != hipSuccess, "hipDeviceSynchronize returned hipSuccess after a failed assert");
  return ht_finish("device_assert");
}
