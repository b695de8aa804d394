// Managed (unified) memory.
//   hipMallocManaged: the host writes p[i] = i, a kernel makes it 3p[i] + 1, the host reads it
//   after hipDeviceSynchronize (3i + 1), adds 5 to every element, a second kernel triples again:
//   3(3i + 6) + 1 = 9i + 19. hipMemPrefetchAsync to the device is accepted; hipPointerGetAttributes
//   marks the pointer isManaged. A __managed__ variable (counter = 10 statically) is
//   incremented by every one of the 1000 threads with atomicAdd and read by the host: 2010.
// Advice and what hipMemRangeGetAttribute(s) report (CUDA's rules, hip-tests' hipMemRangeGetAttribute
// tests), on a managed allocation of 4 pages (16 KiB): before any hint, read-mostly 0, preferred and
// last prefetch hipInvalidDeviceId, accessed-by [-2, -2], coherency fine-grain; after
// SetReadMostly on pages 0-1, SetPreferredLocation(device) on pages 0-3, SetAccessedBy(CPU) on page
// 1, SetCoarseGrain on page 0 and a prefetch of pages 2-3 to the CPU: pages 0-1 read-mostly 1,
// 0-3 read-mostly 0, preferred 0, accessed-by over page 1 [-1, -2] and over 0-1 [-2, -2], last
// prefetch over 2-3 -1 and over 1-2 -2, coherency over 0 coarse, over 0-1 indeterminate; errors:
// a 3-byte result, a range past the allocation, a hipMalloc pointer, hipMemAdvise to device 7
// (hipErrorInvalidDevice); hipMemRangeGetAttributes of two attributes at once. More managed memory
// than the device has free is refused (hipErrorOutOfMemory: gfx1100 keeps it in device memory).
#include "hip_test.h"
#include <vector>

__managed__ int counter = 10;

__global__ void step(int *p, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i] = 3 * p[i] + 1;
    atomicAdd(&counter, 1);
  }
}

int main()
{
  const int n = 1000;
  int *p = nullptr;
  HIP_CHECK(hipMallocManaged(&p, n * sizeof(int)));
  for (int i = 0; i < n; i++) p[i] = i;
  HIP_CHECK(hipMemPrefetchAsync(p, n * sizeof(int), 0, 0));
  step<<<(n + 127) / 128, 128>>>(p, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  for (int i = 0; i < n; i++) EXPECT(p[i] == 3 * i + 1, "after one step p[%d] = %d", i, p[i]);
  for (int i = 0; i < n; i++) p[i] += 5;
  step<<<(n + 127) / 128, 128>>>(p, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  for (int i = 0; i < n; i++) EXPECT(p[i] == 9 * i + 19, "after two steps p[%d] = %d", i, p[i]);

  {
    const size_t PG = 4096, SZ = 4 * PG;
    char *m = nullptr;
    HIP_CHECK(hipMallocManaged(&m, SZ));
    auto get = [&](hipMemRangeAttribute a, size_t off, size_t len) {
      int v = 12345;
      HIP_CHECK(hipMemRangeGetAttribute(&v, sizeof v, a, m + off, len));
      return v;
    };
    auto accessed = [&](size_t off, size_t len, int *out2) {
      HIP_CHECK(hipMemRangeGetAttribute(out2, 2 * sizeof(int), hipMemRangeAttributeAccessedBy, m + off, len));
    };
    int acc[2];
    EXPECT(get(hipMemRangeAttributeReadMostly, 0, SZ) == 0, "fresh read-mostly");
    EXPECT(get(hipMemRangeAttributePreferredLocation, 0, SZ) == hipInvalidDeviceId, "fresh preferred");
    EXPECT(get(hipMemRangeAttributeLastPrefetchLocation, 0, SZ) == hipInvalidDeviceId, "fresh prefetch");
    EXPECT(get(hipMemRangeAttributeCoherencyMode, 0, SZ) == hipMemRangeCoherencyModeFineGrain, "fresh coherency");
    accessed(0, SZ, acc);
    EXPECT(acc[0] == hipInvalidDeviceId && acc[1] == hipInvalidDeviceId, "fresh accessed-by %d %d", acc[0], acc[1]);
    HIP_CHECK(hipMemAdvise(m, 2 * PG, hipMemAdviseSetReadMostly, 0));
    HIP_CHECK(hipMemAdvise(m, SZ, hipMemAdviseSetPreferredLocation, 0));
    HIP_CHECK(hipMemAdvise(m + PG, PG, hipMemAdviseSetAccessedBy, hipCpuDeviceId));
    HIP_CHECK(hipMemAdvise(m, PG, hipMemAdviseSetCoarseGrain, 0));
    HIP_CHECK(hipMemPrefetchAsync(m + 2 * PG, 2 * PG, hipCpuDeviceId, 0));
    EXPECT(get(hipMemRangeAttributeReadMostly, 0, 2 * PG) == 1, "read-mostly over pages 0-1");
    EXPECT(get(hipMemRangeAttributeReadMostly, 0, SZ) == 0, "read-mostly over pages 0-3");
    EXPECT(get(hipMemRangeAttributePreferredLocation, 100, SZ - 200) == 0, "preferred over 0-3");
    accessed(PG, PG, acc);
    EXPECT(acc[0] == hipCpuDeviceId && acc[1] == hipInvalidDeviceId, "accessed-by page 1: %d %d", acc[0], acc[1]);
    accessed(0, 2 * PG, acc);
    EXPECT(acc[0] == hipInvalidDeviceId && acc[1] == hipInvalidDeviceId, "accessed-by pages 0-1: %d %d", acc[0], acc[1]);
    EXPECT(get(hipMemRangeAttributeLastPrefetchLocation, 2 * PG, 2 * PG) == hipCpuDeviceId, "prefetch over 2-3");
    EXPECT(get(hipMemRangeAttributeLastPrefetchLocation, PG, 2 * PG) == hipInvalidDeviceId, "prefetch over 1-2");
    EXPECT(get(hipMemRangeAttributeCoherencyMode, 0, PG) == hipMemRangeCoherencyModeCoarseGrain, "coherency page 0");
    EXPECT(get(hipMemRangeAttributeCoherencyMode, 0, 2 * PG) == hipMemRangeCoherencyModeIndeterminate,
           "coherency pages 0-1");
    char three[3];
    EXPECT_ERR(hipMemRangeGetAttribute(three, 3, hipMemRangeAttributeReadMostly, m, PG), hipErrorInvalidValue,
               hipErrorInvalidValue);
    int v = 0;
    EXPECT_ERR(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributeReadMostly, m, SZ + 1), hipErrorInvalidValue,
               hipErrorInvalidValue);
    void *dev = nullptr;
    HIP_CHECK(hipMalloc(&dev, PG));
    EXPECT_ERR(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributeReadMostly, dev, PG), hipErrorInvalidValue,
               hipErrorInvalidValue);
    EXPECT_ERR(hipMemAdvise(m, PG, hipMemAdviseSetReadMostly, 7), hipErrorInvalidDevice, hipErrorInvalidDevice);
    (void)hipGetLastError();
    int rm = -1, pref = -1;
    void *outs[2] = {&rm, &pref};
    size_t sizes[2] = {4, 4};
    hipMemRangeAttribute which[2] = {hipMemRangeAttributeReadMostly, hipMemRangeAttributePreferredLocation};
    HIP_CHECK(hipMemRangeGetAttributes(outs, sizes, which, 2, m, PG));
    EXPECT(rm == 1 && pref == 0, "hipMemRangeGetAttributes: read-mostly %d preferred %d", rm, pref);
    HIP_CHECK(hipFree(dev));
    HIP_CHECK(hipFree(m));
  }

  hipPointerAttribute_t attr;
  HIP_CHECK(hipPointerGetAttributes(&attr, p));
  EXPECT(attr.isManaged == 1, "isManaged = %d", attr.isManaged);
  printf("p[999]=%d counter=%d\n", p[n - 1], counter);
  EXPECT(counter == 10 + 2 * n, "__managed__ counter = %d, want %d", counter, 10 + 2 * n);
  HIP_CHECK(hipFree(p));
  {
    size_t free_bytes = 0, total = 0;
    HIP_CHECK(hipMemGetInfo(&free_bytes, &total));
    void *too_much = nullptr;
    EXPECT_ERR(hipMallocManaged(&too_much, free_bytes + 1, hipMemAttachGlobal), hipErrorOutOfMemory, hipErrorOutOfMemory);
    EXPECT(too_much == nullptr, "a refused allocation returned %p", too_much);
  }
  return ht_finish("managed");
}
