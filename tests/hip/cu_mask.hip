// CU masks (hipExtStreamCreateWithCUMask, hipExtStreamGetCUMask), CLR's rules: a mask bit is a
// compute unit as the device reports them (multiProcessorCount: 48 WGPs of an RX 7900 XTX); the
// null stream and an unmasked stream report every unit; a custom mask reads back as given; a mask
// that enables no unit is ignored (the stream uses, and reports, every unit); bits past the last
// unit are ignored; NULL or empty arguments are hipErrorInvalidValue; such a stream has the
// default flags and priority. Launches on a masked stream give the same results; which CUs they
// ran on is checked from the timing model's statistics by cu_mask.sh: `fill_masked` (on units 0
// and 5) only on CUs 0, 1, 10 and 11, `fill_all` on more.
#include "hip_test.h"
#include <vector>

__global__ void fill_masked(int *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3 * i + 1;
}

__global__ void fill_all(int *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 5 * i + 2;
}

int main()
{
  hipDeviceProp_t props;
  HIP_CHECK(hipGetDeviceProperties(&props, 0));
  int units = props.multiProcessorCount;
  std::vector<uint32_t> all((units + 31) / 32, 0);
  for (int i = 0; i < units; i++) all[i / 32] |= 1u << (i % 32);

  uint32_t got[4] = { 9, 9, 9, 9 };
  HIP_CHECK(hipExtStreamGetCUMask(0, 4, got));
  bool ok = true;
  for (size_t w = 0; w < 4; w++) ok &= got[w] == (w < all.size() ? all[w] : 0u);
  EXPECT(ok, "null stream mask %08x %08x, want every one of %d units", got[1], got[0], units);

  uint32_t mask[2] = { (1u << 0) | (1u << 5), 0xffff0000u };   // units 0 and 5; bits 48.. past the last
  hipStream_t s;
  HIP_CHECK(hipExtStreamCreateWithCUMask(&s, units > 32 ? 2 : 1, mask));
  HIP_CHECK(hipExtStreamGetCUMask(s, 4, got));
  EXPECT(got[0] == mask[0] && got[1] == (units > 32 ? (mask[1] & all[1]) : 0u) && got[2] == 0, "custom mask %08x %08x", got[1], got[0]);
  unsigned flags = 99;
  int prio = 99;
  HIP_CHECK(hipStreamGetFlags(s, &flags));
  HIP_CHECK(hipStreamGetPriority(s, &prio));
  EXPECT(flags == hipStreamDefault && prio == 0, "flags %u, priority %d", flags, prio);

  uint32_t none[2] = { 0, 0 };
  hipStream_t z;
  HIP_CHECK(hipExtStreamCreateWithCUMask(&z, 2, none));
  HIP_CHECK(hipExtStreamGetCUMask(z, 2, got));
  EXPECT(got[0] == all[0], "an all-zero mask is ignored: %08x", got[0]);

  EXPECT_ERR(hipExtStreamCreateWithCUMask(nullptr, 1, mask), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipExtStreamCreateWithCUMask(&z, 0, mask), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipExtStreamCreateWithCUMask(&z, 1, nullptr), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipExtStreamGetCUMask(s, 0, got), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipExtStreamGetCUMask(s, 1, nullptr), hipErrorInvalidValue, hipErrorInvalidValue);

  const int n = 64 * 1024;
  int *d;
  HIP_CHECK(hipMalloc(&d, n * sizeof(int)));
  std::vector<int> h(n);
  hipLaunchKernelGGL(fill_masked, dim3(n / 256), dim3(256), 0, s, d, n);
  HIP_CHECK(hipStreamSynchronize(s));
  HIP_CHECK(hipMemcpy(h.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) bad += h[i] != 3 * i + 1;
  EXPECT(bad == 0, "masked launch: %d wrong", bad);
  hipLaunchKernelGGL(fill_all, dim3(n / 256), dim3(256), 0, 0, d, n);
  HIP_CHECK(hipMemcpy(h.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
  bad = 0;
  for (int i = 0; i < n; i++) bad += h[i] != 5 * i + 2;
  EXPECT(bad == 0, "unmasked launch: %d wrong", bad);
  HIP_CHECK(hipFree(d));
  HIP_CHECK(hipStreamDestroy(s));
  HIP_CHECK(hipStreamDestroy(z));
  return ht_finish("cu_mask");
}
