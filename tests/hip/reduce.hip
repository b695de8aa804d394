// Block reduction in __shared__ memory with __syncthreads: n = 262144 ints v[i] =
// (i * 7919) % 1000 - 300 are summed (and their maximum taken) by 64 blocks of 256 threads, each
// writing one partial result; a second launch of one block reduces the 64 partials. The sum and
// the maximum are compared with the host's: sum 52297824, maximum 699.
#include "hip_test.h"
#include <vector>

template <int BLOCK>
__global__ void block_reduce(const int *in, int n, long long *sums, int *maxes)
{
  __shared__ long long s_sum[BLOCK];
  __shared__ int s_max[BLOCK];
  const int t = threadIdx.x;
  long long sum = 0;
  int mx = -2147483647 - 1;
  for (int i = blockIdx.x * BLOCK + t; i < n; i += gridDim.x * BLOCK) {
    sum += in[i];
    mx = max(mx, in[i]);
  }
  s_sum[t] = sum;
  s_max[t] = mx;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride) {
      s_sum[t] += s_sum[t + stride];
      s_max[t] = max(s_max[t], s_max[t + stride]);
    }
    __syncthreads();
  }
  if (t == 0) {
    sums[blockIdx.x] = s_sum[0];
    maxes[blockIdx.x] = s_max[0];
  }
}

// The second pass: one block of BLOCK threads over the partial results.
template <int BLOCK>
__global__ void final_reduce(const long long *sums, const int *maxes, int parts, long long *sum_out,
                             int *max_out)
{
  __shared__ long long s_sum[BLOCK];
  __shared__ int s_max[BLOCK];
  const int t = threadIdx.x;
  s_sum[t] = t < parts ? sums[t] : 0;
  s_max[t] = t < parts ? maxes[t] : -2147483647 - 1;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride) {
      s_sum[t] += s_sum[t + stride];
      s_max[t] = max(s_max[t], s_max[t + stride]);
    }
    __syncthreads();
  }
  if (t == 0) {
    *sum_out = s_sum[0];
    *max_out = s_max[0];
  }
}

int main()
{
  const int n = 1 << 18, blocks = 64;
  std::vector<int> v(n);
  long long want_sum = 0;
  int want_max = -2147483647 - 1;
  for (int i = 0; i < n; i++) {
    v[i] = (int)(((long long)i * 7919) % 1000) - 300;
    want_sum += v[i];
    want_max = v[i] > want_max ? v[i] : want_max;
  }
  int *din, *dmaxes, *dmax;
  long long *dsums, *dsum;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dsums, blocks * sizeof(long long)));
  HIP_CHECK(hipMalloc(&dmaxes, blocks * sizeof(int)));
  HIP_CHECK(hipMalloc(&dsum, sizeof(long long)));
  HIP_CHECK(hipMalloc(&dmax, sizeof(int)));
  HIP_CHECK(hipMemcpy(din, v.data(), n * sizeof(int), hipMemcpyHostToDevice));
  block_reduce<256><<<blocks, 256>>>(din, n, dsums, dmaxes);
  HIP_CHECK(hipGetLastError());
  final_reduce<64><<<1, 64>>>(dsums, dmaxes, blocks, dsum, dmax);
  HIP_CHECK(hipGetLastError());

  std::vector<long long> parts(blocks);
  long long got_sum = 0;
  int got_max = 0;
  HIP_CHECK(hipMemcpy(parts.data(), dsums, blocks * sizeof(long long), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&got_sum, dsum, sizeof got_sum, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&got_max, dmax, sizeof got_max, hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    long long want = 0;
    for (int i = b * 256; i < n; i += blocks * 256)
      for (int t = 0; t < 256 && i + t < n; t++) want += v[i + t];
    EXPECT(parts[b] == want, "partial sum of block %d = %lld, want %lld", b, parts[b], want);
  }
  printf("sum=%lld (want %lld) max=%d (want %d)\n", got_sum, want_sum, got_max, want_max);
  EXPECT(got_sum == want_sum && want_sum == 52297824, "sum %lld, want %lld", got_sum, want_sum);
  EXPECT(got_max == want_max && want_max == 699, "max %d, want %d", got_max, want_max);
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dsums));
  HIP_CHECK(hipFree(dmaxes));
  HIP_CHECK(hipFree(dsum));
  HIP_CHECK(hipFree(dmax));
  return ht_finish("reduce");
}
