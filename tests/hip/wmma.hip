// RDNA3's matrix instructions from HIP as programs use them: clang's gfx11 WMMA built-ins
// (__builtin_amdgcn_wmma_*_w32, or _w64 when built with -mwavefrontsize64: EXPECT_WAVE 64), one
// wave per 16 x 16 tile of the result, K walked in steps of 16. Each lane passes row (lane % 16)
// of A's tile and column (lane % 16) of B's, and gets back rows (W / 16) v + lane / 16 of its
// column, v = 0 .. 256 / W - 1 (W the wave size): the layout of AMD's WMMA documentation
// (GPUOpen's "How to accelerate AI applications on RDNA 3 using WMMA" and the Matrix Instruction
// Calculator). Checked against the products computed here on the host:
//   f16 x f16 -> f32, 64 x 64 x 64, inputs multiples of 1/4 in [-2, 2]: every sum exact in f32,
//   so the result is fixed whatever order the hardware adds in; compared exactly;
//   f16 x f16 -> f16 (results in the low halves), 32 x 32 x 32, integers in [-2, 2]: exact in f16;
//   iu8 x iu8 -> i32, 48 x 32 x 64, signed A and unsigned B, then with clamp on a C near INT32_MAX.
#include "hip_test.h"
#include <cstdint>
#include <vector>

#ifndef EXPECT_WAVE
#define EXPECT_WAVE 32
#endif
enum { WAVE = EXPECT_WAVE, NV = 256 / EXPECT_WAVE, ROWSTEP = EXPECT_WAVE / 16 };

typedef _Float16 half16 __attribute__((ext_vector_type(16)));
typedef _Float16 halfacc __attribute__((ext_vector_type(2 * NV)));
typedef float floatacc __attribute__((ext_vector_type(NV)));
typedef int int4v __attribute__((ext_vector_type(4)));
typedef int intacc __attribute__((ext_vector_type(NV)));

#if EXPECT_WAVE == 64
#define WMMA_F32_F16 __builtin_amdgcn_wmma_f32_16x16x16_f16_w64
#define WMMA_F16_F16 __builtin_amdgcn_wmma_f16_16x16x16_f16_w64
#define WMMA_I32_IU8 __builtin_amdgcn_wmma_i32_16x16x16_iu8_w64
#else
#define WMMA_F32_F16 __builtin_amdgcn_wmma_f32_16x16x16_f16_w32
#define WMMA_F16_F16 __builtin_amdgcn_wmma_f16_16x16x16_f16_w32
#define WMMA_I32_IU8 __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32
#endif

// c (m x n) = a (m x k) * b (k x n), row-major; blockDim.x = WAVE, one wave a 16 x 16 tile.
__global__ void gemm_f16(const _Float16 *a, const _Float16 *b, float *c, int n, int k)
{
  const int lane = threadIdx.x, r = lane % 16, ti = blockIdx.y * 16, tj = blockIdx.x * 16;
  floatacc acc = {};
  for (int k0 = 0; k0 < k; k0 += 16) {
    half16 fa, fb;
    for (int e = 0; e < 16; e++) {
      fa[e] = a[(ti + r) * k + k0 + e];
      fb[e] = b[(k0 + e) * n + tj + r];
    }
    acc = WMMA_F32_F16(fa, fb, acc);
  }
  for (int v = 0; v < NV; v++) c[(ti + ROWSTEP * v + lane / 16) * n + tj + r] = acc[v];
}

// The same with a 16-bit accumulator: element 2v (the low half of register v) holds row
// ROWSTEP v + lane / 16 (op_sel false).
__global__ void gemm_f16_f16(const _Float16 *a, const _Float16 *b, _Float16 *c, int n, int k)
{
  const int lane = threadIdx.x, r = lane % 16, ti = blockIdx.y * 16, tj = blockIdx.x * 16;
  halfacc acc = {};
  for (int k0 = 0; k0 < k; k0 += 16) {
    half16 fa, fb;
    for (int e = 0; e < 16; e++) {
      fa[e] = a[(ti + r) * k + k0 + e];
      fb[e] = b[(k0 + e) * n + tj + r];
    }
    acc = WMMA_F16_F16(fa, fb, acc, false);
  }
  for (int v = 0; v < NV; v++) c[(ti + ROWSTEP * v + lane / 16) * n + tj + r] = acc[2 * v];
}

// The same with signed 8-bit A and unsigned 8-bit B, the accumulator starting at c0 (clamped
// sums when `clamp`).
template <bool clamp>
__global__ void gemm_iu8(const int8_t *a, const uint8_t *b, int c0, int *c, int n, int k)
{
  const int lane = threadIdx.x, r = lane % 16, ti = blockIdx.y * 16, tj = blockIdx.x * 16;
  intacc acc;
  for (int v = 0; v < NV; v++) acc[v] = c0;
  for (int k0 = 0; k0 < k; k0 += 16) {
    int4v fa, fb;
    for (int w = 0; w < 4; w++) {
      unsigned xa = 0, xb = 0;
      for (int e = 0; e < 4; e++) {
        xa |= (unsigned)(uint8_t)a[(ti + r) * k + k0 + 4 * w + e] << (8 * e);
        xb |= (unsigned)b[(k0 + 4 * w + e) * n + tj + r] << (8 * e);
      }
      fa[w] = (int)xa, fb[w] = (int)xb;
    }
    acc = WMMA_I32_IU8(true, fa, false, fb, acc, clamp);
  }
  for (int v = 0; v < NV; v++) c[(ti + ROWSTEP * v + lane / 16) * n + tj + r] = acc[v];
}

static uint32_t next_rand(uint32_t *s)
{
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

static bool check_f16()
{
  const int m = 64, n = 64, k = 64;
  std::vector<_Float16> a(m * k), b(k * n);
  std::vector<float> fa(m * k), fb(k * n), c(m * n);
  uint32_t seed = 2024;
  for (int i = 0; i < m * k; i++) fa[i] = (float)((int)(next_rand(&seed) % 17) - 8) / 4, a[i] = (_Float16)fa[i];
  for (int i = 0; i < k * n; i++) fb[i] = (float)((int)(next_rand(&seed) % 17) - 8) / 4, b[i] = (_Float16)fb[i];
  _Float16 *da, *db;
  float *dc;
  HIP_CHECK(hipMalloc(&da, a.size() * sizeof a[0]));
  HIP_CHECK(hipMalloc(&db, b.size() * sizeof b[0]));
  HIP_CHECK(hipMalloc(&dc, c.size() * sizeof c[0]));
  HIP_CHECK(hipMemcpy(da, a.data(), a.size() * sizeof a[0], hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), b.size() * sizeof b[0], hipMemcpyHostToDevice));
  hipLaunchKernelGGL(gemm_f16, dim3(n / 16, m / 16), dim3(WAVE), 0, 0, da, db, dc, n, k);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(c.data(), dc, c.size() * sizeof c[0], hipMemcpyDeviceToHost));
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int e = 0; e < k; e++) s += (double)fa[i * k + e] * fb[e * n + j];
      EXPECT(c[i * n + j] == (float)s, "f16 C[%d][%d] = %a, want %a", i, j, c[i * n + j], s);
    }
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dc));
  return true;
}

static void check_f16_f16()
{
  const int m = 32, n = 32, k = 32;
  std::vector<_Float16> a(m * k), b(k * n), c(m * n);
  std::vector<int> ia(m * k), ib(k * n);
  uint32_t seed = 31;
  for (int i = 0; i < m * k; i++) ia[i] = (int)(next_rand(&seed) % 5) - 2, a[i] = (_Float16)ia[i];
  for (int i = 0; i < k * n; i++) ib[i] = (int)(next_rand(&seed) % 5) - 2, b[i] = (_Float16)ib[i];
  _Float16 *da, *db, *dc;
  HIP_CHECK(hipMalloc(&da, a.size() * sizeof a[0]));
  HIP_CHECK(hipMalloc(&db, b.size() * sizeof b[0]));
  HIP_CHECK(hipMalloc(&dc, c.size() * sizeof c[0]));
  HIP_CHECK(hipMemcpy(da, a.data(), a.size() * sizeof a[0], hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), b.size() * sizeof b[0], hipMemcpyHostToDevice));
  hipLaunchKernelGGL(gemm_f16_f16, dim3(n / 16, m / 16), dim3(WAVE), 0, 0, da, db, dc, n, k);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(c.data(), dc, c.size() * sizeof c[0], hipMemcpyDeviceToHost));
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      int s = 0;
      for (int e = 0; e < k; e++) s += ia[i * k + e] * ib[e * n + j];
      EXPECT((float)c[i * n + j] == (float)s, "f16 acc C[%d][%d] = %g, want %d", i, j, (double)(float)c[i * n + j], s);
    }
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dc));
}

static void check_iu8()
{
  const int m = 48, n = 32, k = 64;
  std::vector<int8_t> a(m * k);
  std::vector<uint8_t> b(k * n);
  std::vector<int> c(m * n), cc(m * n);
  uint32_t seed = 77;
  for (auto &x : a) x = (int8_t)next_rand(&seed);
  for (auto &x : b) x = (uint8_t)next_rand(&seed);
  int8_t *da;
  uint8_t *db;
  int *dc, *dcc;
  HIP_CHECK(hipMalloc(&da, a.size()));
  HIP_CHECK(hipMalloc(&db, b.size()));
  HIP_CHECK(hipMalloc(&dc, c.size() * sizeof(int)));
  HIP_CHECK(hipMalloc(&dcc, cc.size() * sizeof(int)));
  HIP_CHECK(hipMemcpy(da, a.data(), a.size(), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), b.size(), hipMemcpyHostToDevice));
  const int c0 = -12345, big = INT32_MAX - 100000;
  hipLaunchKernelGGL(gemm_iu8<false>, dim3(n / 16, m / 16), dim3(WAVE), 0, 0, da, db, c0, dc, n, k);
  hipLaunchKernelGGL(gemm_iu8<true>, dim3(n / 16, m / 16), dim3(WAVE), 0, 0, da, db, big, dcc, n, k);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(c.data(), dc, c.size() * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(cc.data(), dcc, cc.size() * sizeof(int), hipMemcpyDeviceToHost));
  int clamped = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      int64_t s = c0, t = big;   // clamp applies to each instruction's sum: K = 64 is four of them
      for (int k0 = 0; k0 < k; k0 += 16) {
        int64_t part = 0;
        for (int e = k0; e < k0 + 16; e++) part += (int64_t)a[i * k + e] * b[e * n + j];
        s += part;
        t += part;
        t = t > INT32_MAX ? INT32_MAX : t < INT32_MIN ? INT32_MIN : t;
      }
      clamped += t == INT32_MAX;
      EXPECT(c[i * n + j] == (int)s, "iu8 C[%d][%d] = %d, want %lld", i, j, c[i * n + j], (long long)s);
      EXPECT(cc[i * n + j] == (int)t, "iu8 clamp C[%d][%d] = %d, want %lld", i, j, cc[i * n + j], (long long)t);
    }
  EXPECT(clamped > 0 && clamped < m * n, "%d of %d clamped sums saturate (some, not all, should)", clamped, m * n);
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dc));
  HIP_CHECK(hipFree(dcc));
}

int main()
{
  check_f16();
  check_f16_f16();
  check_iu8();
  return ht_finish("wmma");
}
