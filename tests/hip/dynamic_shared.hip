// Dynamic shared memory: `extern __shared__` arrays sized by the launch's shared-memory argument.
//  1. chunk_reverse: every block of B threads reverses its chunk of B*K floats in place through
//     a dynamic buffer of B*K*4 bytes: B=256, K=48 (48 KiB, most of the 64 KiB a block may use)
//     and B=64, K=4 (1 KiB). out[i] = in[chunk_start + chunk_len-1 - (i - chunk_start)].
//  2. mixed: a static __shared__ int hdr[32] next to a dynamic int dyn[B]; hdr[k] = 1000000 +
//     100*block + k and dyn[t] = 3t must not overlap: out[2g] = hdr[t%32], out[2g+1] = dyn[B-1-t].
#include "hip_test.h"
#include <vector>

__global__ void chunk_reverse(const float *in, float *out, int k)
{
  extern __shared__ float buf[];
  const int len = blockDim.x * k, base = blockIdx.x * len;
  for (int j = threadIdx.x; j < len; j += blockDim.x) buf[j] = in[base + j];
  __syncthreads();
  for (int j = threadIdx.x; j < len; j += blockDim.x) out[base + j] = buf[len - 1 - j];
}

__global__ void mixed(int *out)
{
  __shared__ int hdr[32];
  extern __shared__ int dyn[];
  const int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t < 32) hdr[t] = 1000000 + 100 * blockIdx.x + t;
  dyn[t] = 3 * t;
  __syncthreads();
  out[2 * g] = hdr[t % 32];
  out[2 * g + 1] = dyn[blockDim.x - 1 - t];
}

static void run_reverse(int block, int k, int blocks)
{
  const int len = block * k, n = len * blocks;
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; i++) in[i] = (float)i + 0.25f;
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(float), hipMemcpyHostToDevice));
  const size_t shared = (size_t)len * sizeof(float);
  hipLaunchKernelGGL(chunk_reverse, dim3(blocks), dim3(block), shared, 0, din, dout, k);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(out.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int base = i / len * len;
    float want = in[base + len - 1 - (i - base)];
    EXPECT(out[i] == want, "block %d k %d: out[%d] = %g, want %g", block, k, i, out[i], want);
  }
  printf("chunk_reverse block=%d k=%d shared=%zu bytes: out[0]=%g\n", block, k, shared, out[0]);
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
}

int main()
{
  run_reverse(256, 48, 6);
  run_reverse(64, 4, 10);

  const int block = 128, blocks = 4, n = block * blocks;
  int *dout;
  std::vector<int> out(2 * n);
  HIP_CHECK(hipMalloc(&dout, 2 * n * sizeof(int)));
  mixed<<<blocks, block, block * sizeof(int)>>>(dout);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(out.data(), dout, 2 * n * sizeof(int), hipMemcpyDeviceToHost));
  for (int g = 0; g < n; g++) {
    int b = g / block, t = g % block;
    EXPECT(out[2 * g] == 1000000 + 100 * b + t % 32, "mixed: hdr seen by thread %d = %d", g, out[2 * g]);
    EXPECT(out[2 * g + 1] == 3 * (block - 1 - t), "mixed: dyn seen by thread %d = %d", g, out[2 * g + 1]);
  }
  HIP_CHECK(hipFree(dout));
  return ht_finish("dynamic_shared");
}
