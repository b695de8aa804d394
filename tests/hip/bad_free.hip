// hipFree of pointers it did not allocate. Expected (ROCm returns hipErrorInvalidValue; CUDA
// documents cudaErrorInvalidValue, older releases cudaErrorInvalidDevicePointer: both accepted):
//   hipFree(nullptr) = hipSuccess (freeing NULL does nothing);
//   hipFree((void*)0x1234), hipFree(a host malloc pointer), and a second hipFree of the same
//   hipMalloc pointer: hipErrorInvalidValue or hipErrorInvalidDevicePointer;
//   hipGetLastError then returns that error once; memory still works afterwards: a fresh hipMalloc,
//   a kernel writing out[i] = 5i, and a clean hipFree.
#include "hip_test.h"

__global__ void times_five(int *out) { out[threadIdx.x] = 5 * threadIdx.x; }

int main()
{
  HIP_CHECK(hipFree(nullptr));
  EXPECT_ERR(hipFree(reinterpret_cast<void *>(0x1234)), hipErrorInvalidValue, hipErrorInvalidDevicePointer);
  void *host = malloc(256);
  EXPECT_ERR(hipFree(host), hipErrorInvalidValue, hipErrorInvalidDevicePointer);
  free(host);
  int *p;
  HIP_CHECK(hipMalloc(&p, 1024));
  HIP_CHECK(hipFree(p));
  EXPECT_ERR(hipFree(p), hipErrorInvalidValue, hipErrorInvalidDevicePointer);
  EXPECT_ERR(hipGetLastError(), hipErrorInvalidValue, hipErrorInvalidDevicePointer);
  EXPECT_ERR(hipGetLastError(), hipSuccess, hipSuccess);

  int *q, h[32];
  HIP_CHECK(hipMalloc(&q, sizeof h));
  times_five<<<1, 32>>>(q);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(h, q, sizeof h, hipMemcpyDeviceToHost));
  for (int i = 0; i < 32; i++) EXPECT(h[i] == 5 * i, "out[%d] = %d", i, h[i]);
  HIP_CHECK(hipFree(q));
  return ht_finish("bad_free");
}
