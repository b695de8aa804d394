// A cooperative kernel with grid-wide barriers (cooperative_groups::this_grid().sync()).
// hipOccupancyMaxActiveBlocksPerMultiprocessor(block 256) gives B >= 1 resident blocks per
// multiprocessor (a WGP of two CUs, as ROCm counts them); the grid is min(B, 2) *
// multiProcessorCount blocks (96 with umbra's defaults: 48 WGPs), launched
// with hipLaunchCooperativeKernel. The kernel:
//   - checks grid.size() = blocks * 256 and grid.thread_rank() = the flat global index;
//   - runs 6 rounds of a rotation through two buffers, with a grid sync between rounds:
//     next[i] = cur[(i + 1) % n] + 1 where cur[i] starts as 5i, so after 6 rounds
//     x[i] = 5 * ((i + 6) % n) + 6 — any missing or broken barrier reads stale data;
//   - after a last sync, thread 0 sums the final buffer (every block's writes must be visible).
// The device attribute hipDeviceAttributeCooperativeLaunch must be 1. A cooperative launch with
// more blocks than can be resident (B * multiProcessorCount + 1) must fail with hipErrorCooperativeLaunchTooLarge.
#include "hip_test.h"
#include <hip/hip_cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

enum { ROUNDS = 6, BLOCK = 256 };

__global__ void rotate_rounds(int *a, int *b, int n, int *bad, long long *total)
{
  cg::grid_group grid = cg::this_grid();
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = gridDim.x * blockDim.x;
  if (grid.size() != (unsigned long long)stride || grid.thread_rank() != (unsigned long long)gid) atomicAdd(bad, 1);
  for (int i = gid; i < n; i += stride) a[i] = 5 * i;
  grid.sync();
  int *cur = a, *next = b;
  for (int r = 0; r < ROUNDS; r++) {
    for (int i = gid; i < n; i += stride) next[i] = cur[(i + 1) % n] + 1;
    grid.sync();
    int *t = cur;
    cur = next;
    next = t;
  }
  if (gid == 0) {
    long long s = 0;
    for (int i = 0; i < n; i++) s += cur[i];
    *total = s;
  }
}

int main()
{
  int coop = 0, cus = 0, per_mp = 0;
  HIP_CHECK(hipDeviceGetAttribute(&coop, hipDeviceAttributeCooperativeLaunch, 0));
  HIP_CHECK(hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 0));
  EXPECT(coop == 1, "hipDeviceAttributeCooperativeLaunch = %d", coop);
  HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_mp, rotate_rounds, BLOCK, 0));
  printf("%d multiprocessors, %d resident blocks of %d threads each\n", cus, per_mp, BLOCK);
  EXPECT(per_mp >= 1, "hipOccupancyMaxActiveBlocksPerMultiprocessor = %d", per_mp);
  if (per_mp < 1) return ht_finish("cooperative");
  const int blocks = (per_mp < 2 ? per_mp : 2) * cus;
  const int n = blocks * BLOCK * 2 + 77;   // two elements per thread and a few more

  int *a, *b, *dbad, bad = -1;
  long long *dtotal, total = 0;
  HIP_CHECK(hipMalloc(&a, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&b, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dbad, sizeof(int)));
  HIP_CHECK(hipMalloc(&dtotal, sizeof(long long)));
  HIP_CHECK(hipMemset(dbad, 0, sizeof(int)));
  int nn = n;
  void *args[] = {&a, &b, &nn, &dbad, &dtotal};
  HIP_CHECK(hipLaunchCooperativeKernel(reinterpret_cast<const void *>(rotate_rounds), dim3(blocks), dim3(BLOCK),
                                       args, 0, 0));
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<int> x(n);
  HIP_CHECK(hipMemcpy(x.data(), ROUNDS % 2 ? b : a, n * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&bad, dbad, sizeof bad, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&total, dtotal, sizeof total, hipMemcpyDeviceToHost));
  long long want_total = 0;
  for (int i = 0; i < n; i++) {
    int want = 5 * ((i + ROUNDS) % n) + ROUNDS;
    want_total += want;
    EXPECT(x[i] == want, "x[%d] = %d, want %d", i, x[i], want);
  }
  EXPECT(bad == 0, "%d threads saw a wrong grid size or rank", bad);
  EXPECT(total == want_total, "sum after the last sync %lld, want %lld", total, want_total);
  printf("%d blocks, n=%d: x[0]=%d x[n-1]=%d total=%lld\n", blocks, n, x[0], x[n - 1], total);

  const int too_many = per_mp * cus + 1;
  hipError_t e = hipLaunchCooperativeKernel(reinterpret_cast<const void *>(rotate_rounds), dim3(too_many),
                                            dim3(BLOCK), args, 0, 0);
  printf("cooperative launch of %d blocks: %s\n", too_many, hipGetErrorName(e));
  EXPECT(e == hipErrorCooperativeLaunchTooLarge, "a too-large cooperative launch returned %s", hipGetErrorName(e));
  (void)hipGetLastError();
  HIP_CHECK(hipFree(a));
  HIP_CHECK(hipFree(b));
  HIP_CHECK(hipFree(dbad));
  HIP_CHECK(hipFree(dtotal));
  return ht_finish("cooperative");
}
