// Virtual memory management (CUDA's cuMem* rules, HIP 5.2's hipMem* names): a physical
// allocation of 4 granules mapped twice, at two reserved ranges (A: all 4 granules; B: granules
// 2-3 only, offset 2 granules), read-write access set on both. A kernel writes i * 3 + 1 through
// A; hipMemcpy from B reads back A's second half (the same bytes); a kernel adds 5 through B and
// A's second half shows it. hipMemset on a mapped range works (an allocation the runtime knows).
// Queries: granularity (4096, the same for both options), properties from the handle, access
// read-write where mapped and none elsewhere, hipMemRetainAllocationHandle gives the handle back.
// Refused: mapping over a mapping, unmapping half a mapping, freeing a reservation that is still
// mapped (hipErrorInvalidValue), read-only access (hipErrorNotSupported), shareable handles
// (hipErrorNotSupported). Released and unmapped in any order, then the reservations freed.
#include "hip_test.h"
#include <vector>

__global__ void write_through(int *p, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i * 3 + 1;
}

__global__ void add_through(int *p, int n, int k)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += k;
}

int main()
{
  hipMemAllocationProp prop{};
  prop.type = hipMemAllocationTypePinned;
  prop.location.type = hipMemLocationTypeDevice;
  prop.location.id = 0;
  size_t g = 0, g2 = 0;
  HIP_CHECK(hipMemGetAllocationGranularity(&g, &prop, hipMemAllocationGranularityMinimum));
  HIP_CHECK(hipMemGetAllocationGranularity(&g2, &prop, hipMemAllocationGranularityRecommended));
  EXPECT(g == 4096 && g2 == 4096, "granularity %zu / %zu", g, g2);
  const size_t size = 4 * g, half = 2 * g;
  const int n = (int)(size / sizeof(int)), nh = (int)(half / sizeof(int));
  hipMemGenericAllocationHandle_t h;
  HIP_CHECK(hipMemCreate(&h, size, &prop, 0));
  hipMemAllocationProp back{};
  HIP_CHECK(hipMemGetAllocationPropertiesFromHandle(&back, h));
  EXPECT(back.type == hipMemAllocationTypePinned && back.location.id == 0, "properties");

  void *a = nullptr, *b = nullptr;
  HIP_CHECK(hipMemAddressReserve(&a, size, 0, nullptr, 0));
  HIP_CHECK(hipMemAddressReserve(&b, half, 0, nullptr, 0));
  EXPECT(a && b && a != b, "reservations %p %p", a, b);
  HIP_CHECK(hipMemMap(a, size, 0, h, 0));
  HIP_CHECK(hipMemMap(b, half, half, h, 0));
  hipMemAccessDesc rw{};
  rw.location = prop.location;
  rw.flags = hipMemAccessFlagsProtReadWrite;
  HIP_CHECK(hipMemSetAccess(a, size, &rw, 1));
  HIP_CHECK(hipMemSetAccess(b, half, &rw, 1));

  hipLaunchKernelGGL(write_through, dim3(n / 256), dim3(256), 0, 0, (int *)a, n);
  std::vector<int> hb(nh), ha(n);
  HIP_CHECK(hipMemcpy(hb.data(), b, half, hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < nh; i++) bad += hb[i] != (nh + i) * 3 + 1;
  EXPECT(bad == 0, "B does not see A's second half: %d wrong, [0] = %d", bad, hb[0]);
  hipLaunchKernelGGL(add_through, dim3(nh / 256), dim3(256), 0, 0, (int *)b, nh, 5);
  HIP_CHECK(hipMemcpy(ha.data(), a, size, hipMemcpyDeviceToHost));
  bad = 0;
  for (int i = 0; i < n; i++) bad += ha[i] != i * 3 + 1 + (i >= nh ? 5 : 0);
  EXPECT(bad == 0, "A after the kernel through B: %d wrong", bad);
  HIP_CHECK(hipMemset(a, 0, 16));
  HIP_CHECK(hipMemcpy(ha.data(), a, 16, hipMemcpyDeviceToHost));
  EXPECT(ha[0] == 0 && ha[3] == 0 && ha[4] != 0, "hipMemset through A");

  unsigned long long fl = 99;
  HIP_CHECK(hipMemGetAccess(&fl, &prop.location, (char *)a + 8));
  EXPECT(fl == hipMemAccessFlagsProtReadWrite, "access %llu", fl);
  hipMemGenericAllocationHandle_t again = nullptr;
  HIP_CHECK(hipMemRetainAllocationHandle(&again, (char *)b + 100));
  EXPECT(again == h, "retained handle %p, want %p", (void *)again, (void *)h);
  HIP_CHECK(hipMemRelease(again));

  EXPECT_ERR(hipMemMap(a, g, 0, h, 0), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipMemUnmap(a, g), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipMemAddressFree(a, size), hipErrorInvalidValue, hipErrorInvalidValue);
  hipMemAccessDesc ro = rw;
  ro.flags = hipMemAccessFlagsProtRead;
  EXPECT_ERR(hipMemSetAccess(a, size, &ro, 1), hipErrorNotSupported, hipErrorNotSupported);
  hipMemAllocationProp shared = prop;
  shared.requestedHandleType = hipMemHandleTypePosixFileDescriptor;
  hipMemGenericAllocationHandle_t h2;
  EXPECT_ERR(hipMemCreate(&h2, size, &shared, 0), hipErrorNotSupported, hipErrorNotSupported);

  HIP_CHECK(hipMemRelease(h));   // still mapped: the memory stays until the mappings go
  HIP_CHECK(hipMemcpy(hb.data(), b, half, hipMemcpyDeviceToHost));
  EXPECT(hb[0] == (nh * 3 + 1) + 5, "after the release the mapping still reads %d", hb[0]);
  HIP_CHECK(hipMemUnmap(a, size));
  HIP_CHECK(hipMemUnmap(b, half));
  HIP_CHECK(hipMemGetAccess(&fl, &prop.location, a));
  EXPECT(fl == hipMemAccessFlagsProtNone, "access after unmapping %llu", fl);
  HIP_CHECK(hipMemAddressFree(a, size));
  HIP_CHECK(hipMemAddressFree(b, half));
  return ht_finish("vmm");
}
