// malloc and free inside kernels (device heap; needs the hostcall service for more memory).
//   1. each of 8 x 64 threads mallocs 16 + 8*(g%8) ints, fills a[j] = g + j, sums them into
//      out[g] = len*g + len(len-1)/2, and frees the block; a null result counts as a failure;
//   2. thread 0 of each of 8 blocks mallocs 256 ints for its block and publishes the pointer in
//      __shared__ memory; the block fills it (a[t] = 1000*block + t) and the pointer is kept in
//      ptrs[block]; a second kernel (a later launch) sums each block's buffer and frees it:
//      sum = 256000*block + 32640, the 8 pointers distinct and non-null;
//   3. one thread mallocs 1 MiB, touches its first and last byte, frees it: non-null.
#include "hip_test.h"
#include <set>
#include <vector>

__global__ void per_thread(long long *out, int *nulls)
{
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int len = 16 + 8 * (g % 8);
  int *a = (int *)malloc(len * sizeof(int));
  if (!a) {
    atomicAdd(nulls, 1);
    out[g] = -1;
    return;
  }
  for (int j = 0; j < len; j++) a[j] = g + j;
  long long s = 0;
  for (int j = 0; j < len; j++) s += a[j];
  out[g] = s;
  free(a);
}

__global__ void per_block(int **ptrs)
{
  __shared__ int *buf;
  if (threadIdx.x == 0) buf = (int *)malloc(256 * sizeof(int));
  __syncthreads();
  if (buf) buf[threadIdx.x] = 1000 * blockIdx.x + threadIdx.x;
  if (threadIdx.x == 0) ptrs[blockIdx.x] = buf;
}

__global__ void sum_and_free(int **ptrs, long long *sums)
{
  int *buf = ptrs[blockIdx.x];
  if (threadIdx.x == 0) {
    long long s = 0;
    if (buf)
      for (int t = 0; t < 256; t++) s += buf[t];
    sums[blockIdx.x] = s;
    free(buf);
  }
}

__global__ void big(int *ok)
{
  char *p = (char *)malloc(1 << 20);
  if (p) {
    p[0] = 1;
    p[(1 << 20) - 1] = 2;
    *ok = p[0] + p[(1 << 20) - 1];
    free(p);
  } else {
    *ok = -1;
  }
}

int main()
{
  const int blocks = 8, block = 64, n = blocks * block;
  long long *dout, *dsums;
  int *dnulls, **dptrs, *dok;
  HIP_CHECK(hipMalloc(&dout, n * sizeof(long long)));
  HIP_CHECK(hipMalloc(&dnulls, sizeof(int)));
  HIP_CHECK(hipMemset(dnulls, 0, sizeof(int)));
  per_thread<<<blocks, block>>>(dout, dnulls);
  HIP_CHECK(hipGetLastError());
  std::vector<long long> out(n);
  int nulls = -1;
  HIP_CHECK(hipMemcpy(out.data(), dout, n * sizeof(long long), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&nulls, dnulls, sizeof nulls, hipMemcpyDeviceToHost));
  EXPECT(nulls == 0, "%d per-thread mallocs returned NULL", nulls);
  for (int g = 0; g < n; g++) {
    long long len = 16 + 8 * (g % 8);
    long long want = len * g + len * (len - 1) / 2;
    EXPECT(out[g] == want, "thread %d: sum %lld, want %lld", g, out[g], want);
  }

  HIP_CHECK(hipMalloc(&dptrs, blocks * sizeof(int *)));
  HIP_CHECK(hipMalloc(&dsums, blocks * sizeof(long long)));
  per_block<<<blocks, 256>>>(dptrs);
  HIP_CHECK(hipGetLastError());
  std::vector<int *> ptrs(blocks);
  HIP_CHECK(hipMemcpy(ptrs.data(), dptrs, blocks * sizeof(int *), hipMemcpyDeviceToHost));
  sum_and_free<<<blocks, 32>>>(dptrs, dsums);
  HIP_CHECK(hipGetLastError());
  std::vector<long long> sums(blocks);
  HIP_CHECK(hipMemcpy(sums.data(), dsums, blocks * sizeof(long long), hipMemcpyDeviceToHost));
  std::set<int *> distinct(ptrs.begin(), ptrs.end());
  EXPECT(distinct.size() == (size_t)blocks && !distinct.count(nullptr), "%zu distinct non-null block buffers",
         distinct.size() - distinct.count(nullptr));
  for (int b = 0; b < blocks; b++)
    EXPECT(sums[b] == 256000LL * b + 32640, "block %d: sum %lld, want %lld", b, sums[b], 256000LL * b + 32640);

  int ok = 0;
  HIP_CHECK(hipMalloc(&dok, sizeof(int)));
  big<<<1, 1>>>(dok);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(&ok, dok, sizeof ok, hipMemcpyDeviceToHost));
  EXPECT(ok == 3, "1 MiB device malloc: %d (-1: NULL)", ok);
  printf("thread 511 sum %lld, block 7 sum %lld, block buffer 0 at %p, 1 MiB malloc %s\n", out[n - 1], sums[7],
         (void *)ptrs[0], ok == 3 ? "ok" : "failed");
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(dsums));
  HIP_CHECK(hipFree(dnulls));
  HIP_CHECK(hipFree(dptrs));
  HIP_CHECK(hipFree(dok));
  return ht_finish("device_malloc");
}
