// Warp-level operations, in wave32 (default) and wave64 (-mwavefrontsize64, EXPECT_WAVE=64):
// 4 blocks of 256 threads; thread g (lane L of its warp, W = warpSize) holds v = 3g + 1.
//   __shfl(v, 3)          -> v of lane 3            __shfl(v, (L+1)%W) -> v of lane L+1 (rotation)
//   __shfl(v, 0, 16)      -> v of lane L & ~15      __shfl_down(v, 5)  -> v of lane L+5, own if L+5 >= W
//   __shfl_up(v, 2)       -> v of lane L-2, own if L < 2
//   __shfl_xor(v, 9)      -> v of lane L^9
//   sum over the warp by a __shfl_down tree (broadcast from lane 0) and by a __shfl_xor butterfly
//   __ballot(L % 3 == 0 || (block 1 && L == W-1)) -> the matching lane mask (bits >= W clear),
//   __popcll / __popc of it, __any(L == W-1) = 1, __all(L < W) = 1, __all(L != 5) = 0,
//   float __shfl_down(0.5g, 1).
// The host recomputes each value from W, which must be EXPECT_WAVE.
#include "hip_test.h"
#include <vector>

#ifndef EXPECT_WAVE
#define EXPECT_WAVE 32
#endif

enum { BCAST, ROT, SEG, DOWN, UP, XOR, WSUM, XSUM, POPC, POPC32, ANY, ALL, NOTALL, NOUT };

__global__ void warp_ops(int *out, unsigned long long *ballots, float *fout, int *wave)
{
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int W = warpSize, L = threadIdx.x % W;
  const int v = 3 * g + 1;
  int *o = out + (size_t)g * NOUT;
  o[BCAST] = __shfl(v, 3);
  o[ROT] = __shfl(v, (L + 1) % W);
  o[SEG] = __shfl(v, 0, 16);
  o[DOWN] = __shfl_down(v, 5);
  o[UP] = __shfl_up(v, 2);
  o[XOR] = __shfl_xor(v, 9);
  int s = v;
  for (int off = W / 2; off > 0; off /= 2) s += __shfl_down(s, off);
  o[WSUM] = __shfl(s, 0);
  int x = v;
  for (int m = 1; m < W; m *= 2) x += __shfl_xor(x, m);
  o[XSUM] = x;
  const bool pred = (L % 3 == 0) || (blockIdx.x == 1 && L == W - 1);
  unsigned long long b = __ballot(pred);
  ballots[g] = b;
  o[POPC] = __popcll(b);
  o[POPC32] = __popc((unsigned)b);
  o[ANY] = __any(L == W - 1);
  o[ALL] = __all(L < W);
  o[NOTALL] = __all(L != 5);
  fout[g] = __shfl_down(0.5f * g, 1);
  if (g == 0) *wave = W;
}

int main()
{
  const int blocks = 4, block = 256, n = blocks * block;
  int *dout, *dwave, W = 0;
  unsigned long long *dball;
  float *dfout;
  HIP_CHECK(hipMalloc(&dout, (size_t)n * NOUT * sizeof(int)));
  HIP_CHECK(hipMalloc(&dball, n * sizeof(unsigned long long)));
  HIP_CHECK(hipMalloc(&dfout, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dwave, sizeof(int)));
  warp_ops<<<blocks, block>>>(dout, dball, dfout, dwave);
  HIP_CHECK(hipGetLastError());
  std::vector<int> out((size_t)n * NOUT);
  std::vector<unsigned long long> ball(n);
  std::vector<float> fout(n);
  HIP_CHECK(hipMemcpy(out.data(), dout, out.size() * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(ball.data(), dball, n * sizeof(unsigned long long), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(fout.data(), dfout, n * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&W, dwave, sizeof W, hipMemcpyDeviceToHost));
  printf("warpSize = %d (want %d)\n", W, EXPECT_WAVE);
  if (W != EXPECT_WAVE) {
    EXPECT(W == EXPECT_WAVE, "warpSize %d", W);
    return ht_finish("shuffle");
  }
  auto V = [](int g) { return 3 * g + 1; };
  for (int g = 0; g < n; g++) {
    const int L = (g % block) % W, base = g - L, blk = g / block;
    const int *o = &out[(size_t)g * NOUT];
    EXPECT(o[BCAST] == V(base + 3), "__shfl(v,3) at %d = %d", g, o[BCAST]);
    EXPECT(o[ROT] == V(base + (L + 1) % W), "__shfl rotation at %d = %d", g, o[ROT]);
    EXPECT(o[SEG] == V(base + (L & ~15)), "__shfl(v,0,16) at %d = %d", g, o[SEG]);
    EXPECT(o[DOWN] == (L + 5 < W ? V(g + 5) : V(g)), "__shfl_down(v,5) at %d = %d", g, o[DOWN]);
    EXPECT(o[UP] == (L >= 2 ? V(g - 2) : V(g)), "__shfl_up(v,2) at %d = %d", g, o[UP]);
    EXPECT(o[XOR] == V(base + (L ^ 9)), "__shfl_xor(v,9) at %d = %d", g, o[XOR]);
    int sum = 0;
    unsigned long long mask = 0;
    for (int l = 0; l < W; l++) {
      sum += V(base + l);
      if (l % 3 == 0 || (blk == 1 && l == W - 1)) mask |= 1ull << l;
    }
    EXPECT(o[WSUM] == sum, "__shfl_down warp sum at %d = %d, want %d", g, o[WSUM], sum);
    EXPECT(o[XSUM] == sum, "__shfl_xor warp sum at %d = %d, want %d", g, o[XSUM], sum);
    EXPECT(ball[g] == mask, "__ballot at %d = %#llx, want %#llx", g, ball[g], mask);
    EXPECT(o[POPC] == __builtin_popcountll(mask), "__popcll at %d = %d", g, o[POPC]);
    EXPECT(o[POPC32] == __builtin_popcount((unsigned)mask), "__popc at %d = %d", g, o[POPC32]);
    EXPECT(o[ANY] == 1 && o[ALL] == 1 && o[NOTALL] == 0, "__any/__all at %d = %d %d %d", g, o[ANY],
           o[ALL], o[NOTALL]);
    float fwant = L + 1 < W ? 0.5f * (g + 1) : 0.5f * g;
    EXPECT(fout[g] == fwant, "float __shfl_down at %d = %g, want %g", g, fout[g], fwant);
  }
  printf("warp sum of warp 0 = %d, ballot of warp 0 = %#llx\n", out[WSUM], ball[0]);
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(dball));
  HIP_CHECK(hipFree(dfout));
  HIP_CHECK(hipFree(dwave));
  return ht_finish("shuffle");
}
