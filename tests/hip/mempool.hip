// Memory pools of stream-ordered allocation, against CUDA's documented rules (HIP 5.2 follows
// them): the default pool is the device's current pool until hipDeviceSetMemPool; hipMallocAsync
// charges the current pool, hipMallocFromPoolAsync the pool named; UsedMemCurrent counts the
// bytes allocated and not freed (1 MiB, then 0 after hipFreeAsync), UsedMemHigh keeps the mark
// until reset with 0 (then it is the current value); ReservedMem* equal them (umbra's pools cache
// nothing, so hipMemPoolTrimTo releases nothing); the release threshold and reuse flags read back
// as set. A created pool: its allocations are not the default pool's; as the current pool it
// takes hipMallocAsync's; destroyed with an allocation outstanding, its handle is refused, the
// allocation is still freed, and the current pool is the default one again. Refused: shareable
// handles (hipErrorNotSupported), device 3 (hipErrorInvalidDevice), destroying the default pool,
// setting a current value, taking the device's own access away (hipErrorInvalidValue). The
// memory works: a kernel fills an async allocation, i * 7.
#include "hip_test.h"
#include <vector>

__global__ void fill(int *p, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i * 7;
}

static uint64_t attr(hipMemPool_t p, hipMemPoolAttr a)
{
  uint64_t v = 12345;
  HIP_CHECK(hipMemPoolGetAttribute(p, a, &v));
  return v;
}

int main()
{
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  hipMemPool_t def = nullptr, cur = nullptr;
  HIP_CHECK(hipDeviceGetDefaultMemPool(&def, 0));
  HIP_CHECK(hipDeviceGetMemPool(&cur, 0));
  EXPECT(def && def == cur, "default %p, current %p", (void *)def, (void *)cur);

  const int n = 1 << 18;   // 1 MiB of ints
  int *d = nullptr;
  HIP_CHECK(hipMallocAsync((void **)&d, n * sizeof(int), s));
  EXPECT(attr(def, hipMemPoolAttrUsedMemCurrent) == n * sizeof(int), "used %llu",
         (unsigned long long)attr(def, hipMemPoolAttrUsedMemCurrent));
  EXPECT(attr(def, hipMemPoolAttrReservedMemCurrent) == n * sizeof(int), "reserved");
  hipLaunchKernelGGL(fill, dim3(n / 256), dim3(256), 0, s, d, n);
  std::vector<int> h(n);
  HIP_CHECK(hipMemcpyAsync(h.data(), d, n * sizeof(int), hipMemcpyDeviceToHost, s));
  HIP_CHECK(hipStreamSynchronize(s));
  int bad = 0;
  for (int i = 0; i < n; i++) bad += h[i] != i * 7;
  EXPECT(bad == 0, "async allocation: %d wrong", bad);
  HIP_CHECK(hipFreeAsync(d, s));
  EXPECT(attr(def, hipMemPoolAttrUsedMemCurrent) == 0, "used after free");
  EXPECT(attr(def, hipMemPoolAttrUsedMemHigh) == n * sizeof(int), "high %llu", (unsigned long long)attr(def, hipMemPoolAttrUsedMemHigh));
  uint64_t zero = 0, big = UINT64_MAX, one = 1;
  HIP_CHECK(hipMemPoolSetAttribute(def, hipMemPoolAttrUsedMemHigh, &zero));
  HIP_CHECK(hipMemPoolSetAttribute(def, hipMemPoolAttrReservedMemHigh, &zero));
  EXPECT(attr(def, hipMemPoolAttrUsedMemHigh) == 0 && attr(def, hipMemPoolAttrReservedMemHigh) == 0, "reset marks");
  HIP_CHECK(hipMemPoolSetAttribute(def, hipMemPoolAttrReleaseThreshold, &big));
  EXPECT(attr(def, hipMemPoolAttrReleaseThreshold) == UINT64_MAX, "release threshold");
  int no = 0, flag = 7;
  HIP_CHECK(hipMemPoolSetAttribute(def, hipMemPoolReuseAllowOpportunistic, &no));
  HIP_CHECK(hipMemPoolGetAttribute(def, hipMemPoolReuseAllowOpportunistic, &flag));
  EXPECT(flag == 0, "reuse flag %d", flag);
  HIP_CHECK(hipMemPoolTrimTo(def, 0));
  EXPECT_ERR(hipMemPoolSetAttribute(def, hipMemPoolAttrUsedMemCurrent, &one), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipMemPoolSetAttribute(def, hipMemPoolAttrUsedMemHigh, &one), hipErrorInvalidValue, hipErrorInvalidValue);

  hipMemPoolProps props{};
  props.allocType = hipMemAllocationTypePinned;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = 0;
  hipMemPool_t mine;
  HIP_CHECK(hipMemPoolCreate(&mine, &props));
  void *a = nullptr, *b = nullptr;
  HIP_CHECK(hipMallocFromPoolAsync(&a, 65536, mine, s));
  EXPECT(attr(mine, hipMemPoolAttrUsedMemCurrent) == 65536 && attr(def, hipMemPoolAttrUsedMemCurrent) == 0,
         "pool accounting: mine %llu, default %llu", (unsigned long long)attr(mine, hipMemPoolAttrUsedMemCurrent),
         (unsigned long long)attr(def, hipMemPoolAttrUsedMemCurrent));
  HIP_CHECK(hipDeviceSetMemPool(0, mine));
  HIP_CHECK(hipDeviceGetMemPool(&cur, 0));
  HIP_CHECK(hipMallocAsync(&b, 4096, s));
  EXPECT(cur == mine && attr(mine, hipMemPoolAttrUsedMemCurrent) == 65536 + 4096, "current pool");
  HIP_CHECK(hipFreeAsync(b, s));
  hipMemAccessFlags fl = hipMemAccessFlagsProtNone;
  hipMemLocation loc{ hipMemLocationTypeDevice, 0 };
  HIP_CHECK(hipMemPoolGetAccess(&fl, mine, &loc));
  EXPECT(fl == hipMemAccessFlagsProtReadWrite, "access %d", (int)fl);
  hipMemAccessDesc none{ loc, hipMemAccessFlagsProtNone };
  EXPECT_ERR(hipMemPoolSetAccess(mine, &none, 1), hipErrorInvalidValue, hipErrorInvalidValue);
  HIP_CHECK(hipMemPoolDestroy(mine));   // with `a` outstanding
  EXPECT_ERR(hipMemPoolGetAttribute(mine, hipMemPoolAttrUsedMemCurrent, &big), hipErrorInvalidValue, hipErrorInvalidValue);
  HIP_CHECK(hipDeviceGetMemPool(&cur, 0));
  EXPECT(cur == def, "the current pool after destroying it");
  HIP_CHECK(hipFreeAsync(a, s));

  props.handleTypes = hipMemHandleTypePosixFileDescriptor;
  EXPECT_ERR(hipMemPoolCreate(&mine, &props), hipErrorNotSupported, hipErrorNotSupported);
  props.handleTypes = hipMemHandleTypeNone;
  props.location.id = 3;
  EXPECT_ERR(hipMemPoolCreate(&mine, &props), hipErrorInvalidDevice, hipErrorInvalidDevice);
  EXPECT_ERR(hipMemPoolDestroy(def), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipDeviceGetDefaultMemPool(&cur, 3), hipErrorInvalidDevice, hipErrorInvalidDevice);
  HIP_CHECK(hipStreamDestroy(s));
  return ht_finish("mempool");
}
