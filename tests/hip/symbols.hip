// __device__ and __constant__ variables reached from the host by symbol:
//   dev_init = 42 (an initialized __device__ int, read back with hipMemcpyFromSymbol before any
//   launch); coeffs[16] = 0.5k and cscale = 3 (__constant__, set with hipMemcpyToSymbol);
//   dev_table[64] = 100 + k written in two halves, the second with an offset of 32 floats;
//   the kernel writes out[i] = coeffs[i%16] * cscale + dev_table[i%64] and counts itself in
//   dev_counter (so dev_counter = 1000 afterwards, read with hipMemcpyFromSymbolAsync);
//   hipGetSymbolAddress(dev_table) is a device pointer hipMemcpy reads the table through, and
//   hipGetSymbolSize(dev_table) = 256; the kernel stores 7 into dev_written[i] = 7*i, read through
//   hipGetSymbolAddress as well.
#include "hip_test.h"
#include <vector>

__device__ int dev_init = 42;
__device__ int dev_counter;
__device__ float dev_table[64];
__device__ int dev_written[128];
__constant__ float coeffs[16];
__constant__ int cscale;

__global__ void use_symbols(float *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = coeffs[i % 16] * cscale + dev_table[i % 64];
    atomicAdd(&dev_counter, 1);
  }
  if (i < 128) dev_written[i] = 7 * i;
}

int main()
{
  const int n = 1000;
  int init = 0;
  HIP_CHECK(hipMemcpyFromSymbol(&init, HIP_SYMBOL(dev_init), sizeof(int)));
  EXPECT(init == 42, "dev_init = %d", init);

  float hc[16], ht[64];
  for (int k = 0; k < 16; k++) hc[k] = 0.5f * k;
  for (int k = 0; k < 64; k++) ht[k] = 100.0f + k;
  const int scale = 3, zero = 0;
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coeffs), hc, sizeof hc));
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(cscale), &scale, sizeof scale, 0, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(dev_table), ht, 32 * sizeof(float)));
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(dev_table), ht + 32, 32 * sizeof(float), 32 * sizeof(float)));
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(dev_counter), &zero, sizeof zero));

  float *dout;
  HIP_CHECK(hipMalloc(&dout, n * sizeof(float)));
  use_symbols<<<(n + 127) / 128, 128>>>(dout, n);
  HIP_CHECK(hipGetLastError());
  std::vector<float> out(n);
  HIP_CHECK(hipMemcpy(out.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float want = hc[i % 16] * scale + ht[i % 64];
    EXPECT(out[i] == want, "out[%d] = %g, want %g", i, out[i], want);
  }

  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  int counter = -1;
  HIP_CHECK(hipMemcpyFromSymbolAsync(&counter, HIP_SYMBOL(dev_counter), sizeof counter, 0,
                                     hipMemcpyDeviceToHost, s));
  HIP_CHECK(hipStreamSynchronize(s));
  EXPECT(counter == n, "dev_counter = %d, want %d", counter, n);

  void *table = nullptr;
  size_t size = 0;
  HIP_CHECK(hipGetSymbolAddress(&table, HIP_SYMBOL(dev_table)));
  HIP_CHECK(hipGetSymbolSize(&size, HIP_SYMBOL(dev_table)));
  EXPECT(size == 64 * sizeof(float), "hipGetSymbolSize(dev_table) = %zu", size);
  float back[64];
  HIP_CHECK(hipMemcpy(back, table, sizeof back, hipMemcpyDeviceToHost));
  for (int k = 0; k < 64; k++) EXPECT(back[k] == ht[k], "dev_table[%d] = %g", k, back[k]);

  void *written = nullptr;
  int hw[128];
  HIP_CHECK(hipGetSymbolAddress(&written, HIP_SYMBOL(dev_written)));
  HIP_CHECK(hipMemcpyAsync(hw, written, sizeof hw, hipMemcpyDeviceToHost, s));
  HIP_CHECK(hipStreamSynchronize(s));
  for (int k = 0; k < 128; k++) EXPECT(hw[k] == 7 * k, "dev_written[%d] = %d", k, hw[k]);

  // hipMemcpyToSymbolAsync, then the kernel again: every out[i] changes with the new scale.
  const int scale2 = -2;
  HIP_CHECK(hipMemcpyToSymbolAsync(HIP_SYMBOL(cscale), &scale2, sizeof scale2, 0, hipMemcpyHostToDevice, s));
  hipLaunchKernelGGL(use_symbols, dim3((n + 127) / 128), dim3(128), 0, s, dout, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpyAsync(out.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost, s));
  HIP_CHECK(hipStreamSynchronize(s));
  for (int i = 0; i < n; i++) {
    float want = hc[i % 16] * scale2 + ht[i % 64];
    EXPECT(out[i] == want, "second launch: out[%d] = %g, want %g", i, out[i], want);
  }
  HIP_CHECK(hipMemcpyFromSymbol(&counter, HIP_SYMBOL(dev_counter), sizeof counter));
  EXPECT(counter == 2 * n, "dev_counter after two launches = %d", counter);
  printf("dev_init=%d out[17]=%g dev_counter=%d table=%p\n", init, out[17], counter, table);
  HIP_CHECK(hipStreamDestroy(s));
  HIP_CHECK(hipFree(dout));
  return ht_finish("symbols");
}
