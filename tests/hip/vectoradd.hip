// Vector addition, the first HIP program: c[i] = a[i] + b[i] for n = 65549 floats (not a multiple
// of the 256-thread block), launched once with hipLaunchKernelGGL and once with <<<>>>.
// a[i] = i/2 and b[i] = 2i+1, so every c[i] = 2.5i + 1 is exact in float and compared exactly.
// The kernel also reports warpSize: EXPECT_WAVE (32; 64 when built with -mwavefrontsize64).
#include "hip_test.h"
#include <vector>

#ifndef EXPECT_WAVE
#define EXPECT_WAVE 32
#endif

__global__ void vector_add(const float *a, const float *b, float *c, int n, int *wave)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
  if (i == 0) *wave = warpSize;
}

int main()
{
  const int n = 65549, block = 256, grid = (n + block - 1) / block;
  std::vector<float> a(n), b(n), c(n), ref(n);
  for (int i = 0; i < n; i++) {
    a[i] = i * 0.5f;
    b[i] = 2.0f * i + 1.0f;
    ref[i] = a[i] + b[i];
  }
  float *da, *db, *dc;
  int *dw, wave = 0;
  HIP_CHECK(hipMalloc(&da, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&db, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dc, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dw, sizeof(int)));
  HIP_CHECK(hipMemcpy(da, a.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), n * sizeof(float), hipMemcpyHostToDevice));
  for (int round = 0; round < 2; round++) {
    HIP_CHECK(hipMemset(dc, 0, n * sizeof(float)));
    if (round == 0)
      hipLaunchKernelGGL(vector_add, dim3(grid), dim3(block), 0, 0, da, db, dc, n, dw);
    else
      vector_add<<<grid, block>>>(da, db, dc, n, dw);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(c.data(), dc, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(c[i] == ref[i], "round %d: c[%d] = %g, want %g", round, i, c[i], ref[i]);
  }
  HIP_CHECK(hipMemcpy(&wave, dw, sizeof wave, hipMemcpyDeviceToHost));
  printf("n=%d c[0]=%g c[n-1]=%g (want %g) warpSize=%d\n", n, c[0], c[n - 1], ref[n - 1], wave);
  EXPECT(wave == EXPECT_WAVE, "warpSize = %d, want %d", wave, EXPECT_WAVE);
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dc));
  HIP_CHECK(hipFree(dw));
  return ht_finish("vectoradd");
}
