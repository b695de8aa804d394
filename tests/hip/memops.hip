// Stream memory operations (hipStreamWaitValue32/64, hipStreamWriteValue32/64) with the header's
// conditions: Gte (*p & mask) >= v, Eq ==, And ((*p & mask) & v) != 0, Nor ~((*p & mask) | (v & mask)) != 0.
// A non-blocking stream A waits (Gte 5) on a word of signal memory (hipExtMallocWithFlags with
// hipMallocSignalMemory), then runs a kernel that sets a pinned flag; after 200 ms A is still
// waiting (hipStreamQuery hipErrorNotReady, the flag 0); stream B runs a kernel, then writes 7 to
// the word (hipStreamWriteValue32); A then finishes (flag 1, and B's kernel's output was there
// before it: A's kernel copies it). Conditions that hold at once: Eq on a 64-bit word of pinned
// memory with a mask, And (7 & 4), Nor (0 and 1 under mask 0xf); hipStreamWriteValue64 to pinned
// memory. Refused: pageable memory, a misaligned pointer, an unknown condition (hipErrorInvalidValue).
// hipDeviceAttributeCanUseStreamWaitValue is 1.
#include "hip_test.h"
#include <chrono>
#include <thread>
#include <vector>

__global__ void produce(int *buf) { buf[threadIdx.x] = 100 + threadIdx.x; }

__global__ void consume(const int *buf, int *copy, volatile int *flag)
{
  copy[threadIdx.x] = buf[threadIdx.x];
  if (threadIdx.x == 0) *flag = 1;
}

int main()
{
  int can = 0;
  HIP_CHECK(hipDeviceGetAttribute(&can, hipDeviceAttributeCanUseStreamWaitValue, 0));
  EXPECT(can == 1, "hipDeviceAttributeCanUseStreamWaitValue %d", can);
  hipStream_t a, b;
  HIP_CHECK(hipStreamCreateWithFlags(&a, hipStreamNonBlocking));
  HIP_CHECK(hipStreamCreateWithFlags(&b, hipStreamNonBlocking));
  uint32_t *sig;
  HIP_CHECK(hipExtMallocWithFlags((void **)&sig, 64, hipMallocSignalMemory));
  HIP_CHECK(hipMemset(sig, 0, 64));
  int *buf, *copy, *flag;
  uint64_t *h64;
  HIP_CHECK(hipMalloc(&buf, 32 * sizeof(int)));
  HIP_CHECK(hipMalloc(&copy, 32 * sizeof(int)));
  HIP_CHECK(hipMemset(buf, 0, 32 * sizeof(int)));
  HIP_CHECK(hipHostMalloc(&flag, sizeof(int)));
  HIP_CHECK(hipHostMalloc(&h64, 2 * sizeof(uint64_t)));
  *flag = 0;

  HIP_CHECK(hipStreamWaitValue32(a, sig, 5, hipStreamWaitValueGte, 0xffffffffu));
  hipLaunchKernelGGL(consume, dim3(1), dim3(32), 0, a, buf, copy, flag);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT(hipStreamQuery(a) == hipErrorNotReady && *(volatile int *)flag == 0, "stream A did not wait (flag %d)", *flag);
  hipLaunchKernelGGL(produce, dim3(1), dim3(32), 0, b, buf);
  HIP_CHECK(hipStreamWriteValue32(b, sig, 7, 0));
  HIP_CHECK(hipStreamSynchronize(a));
  std::vector<int> h(32);
  HIP_CHECK(hipMemcpy(h.data(), copy, 32 * sizeof(int), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < 32; i++) bad += h[i] != 100 + i;
  EXPECT(*flag == 1 && bad == 0, "after the write: flag %d, %d values not B's", *flag, bad);

  h64[0] = 0x123400000000ffull;
  HIP_CHECK(hipStreamWaitValue64(a, h64, 0xff, hipStreamWaitValueEq, 0xffff));
  HIP_CHECK(hipStreamWaitValue32(a, sig, 4, hipStreamWaitValueAnd, 0xffffffffu));
  HIP_CHECK(hipStreamWaitValue32(a, sig + 1, 1, hipStreamWaitValueNor, 0xf));
  HIP_CHECK(hipStreamWriteValue64(a, h64 + 1, 0xfedcba9876543210ull, 0));
  HIP_CHECK(hipStreamSynchronize(a));
  EXPECT(h64[1] == 0xfedcba9876543210ull, "hipStreamWriteValue64 wrote %llx", (unsigned long long)h64[1]);

  std::vector<uint32_t> pageable(4);
  EXPECT_ERR(hipStreamWriteValue32(a, pageable.data(), 1, 0), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipStreamWaitValue64(a, (char *)h64 + 4, 1, hipStreamWaitValueGte, ~0ull), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipStreamWaitValue32(a, sig, 1, 9, 0xffffffffu), hipErrorInvalidValue, hipErrorInvalidValue);

  HIP_CHECK(hipStreamDestroy(a));
  HIP_CHECK(hipStreamDestroy(b));
  HIP_CHECK(hipFree(sig));
  HIP_CHECK(hipFree(buf));
  HIP_CHECK(hipFree(copy));
  HIP_CHECK(hipHostFree(flag));
  HIP_CHECK(hipHostFree(h64));
  return ht_finish("memops");
}
