// Atomics from 64 blocks of 128 threads (N = 8192 threads, thread g), each result against the
// host's reference:
//   atomicAdd(int, 1) = N; atomicAdd(int, g) = N(N-1)/2 = 33550336; atomicSub(1000000, 3) each;
//   atomicAdd(float, 0.5f) = 4096; atomicAdd(float, (g%4)/4) = 3072 (exact in any order);
//   atomicAdd(unsigned long long, 2^33 + g); a double sum of g%7 through an atomicCAS loop;
//   atomicCAS claims: 100 slots, exactly one winner each; atomicMax/atomicMin(int) of
//   (37g)%1001-500, atomicMax(unsigned) of g^0x5a5a; atomicOr of 1<<(g%32) = 0xffffffff;
//   atomicAnd of ~(1<<(g%31)) = 0x80000000; atomicXor of g*2654435761u; atomicExch: the old values and the last value are each thread's g (and the
//   initial -1) exactly once; a 37-bin histogram built with atomicAdd in __shared__ memory.
// (Not atomicInc/atomicDec: HIP 5.2's headers implement them with an LLVM intrinsic that LLVM 19
// no longer has, so clang-19 cannot link them.)
#include "hip_test.h"
#include <vector>

enum { CNT, SUMG, SUB, MAXI, MINI, ORV, ANDV, XORV, EXCH, WINNERS, NI };
enum { BINS = 37, SLOTS = 100 };

__device__ double cas_add(double *p, double v)
{
  unsigned long long *a = (unsigned long long *)p, old = *a, assumed;
  do {
    assumed = old;
    old = atomicCAS(a, assumed, (unsigned long long)__double_as_longlong(__longlong_as_double(assumed) + v));
  } while (old != assumed);
  return __longlong_as_double(old);
}

__global__ void atomics(int *iv, unsigned *umax, float *fv, unsigned long long *u64, double *dsum,
                        int *slots, int *olds, int *hist)
{
  __shared__ int bins[BINS];
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = threadIdx.x; i < BINS; i += blockDim.x) bins[i] = 0;
  __syncthreads();
  atomicAdd(&iv[CNT], 1);
  atomicAdd(&iv[SUMG], g);
  atomicSub(&iv[SUB], 3);
  const int key = (37 * g) % 1001 - 500;
  atomicMax(&iv[MAXI], key);
  atomicMin(&iv[MINI], key);
  atomicMax(umax, (unsigned)g ^ 0x5a5au);
  atomicOr((unsigned *)&iv[ORV], 1u << (g % 32));
  atomicAnd((unsigned *)&iv[ANDV], ~(1u << (g % 31)));
  atomicXor((unsigned *)&iv[XORV], (unsigned)g * 2654435761u);
  olds[g] = atomicExch(&iv[EXCH], g);
  atomicAdd(&fv[0], 0.5f);
  atomicAdd(&fv[1], (g % 4) * 0.25f);
  atomicAdd(u64, (1ull << 33) + (unsigned long long)g);
  cas_add(dsum, (double)(g % 7));
  if (atomicCAS(&slots[g % SLOTS], 0, g + 1) == 0) atomicAdd(&iv[WINNERS], 1);
  atomicAdd(&bins[(g * 13 + 5) % BINS], 1);
  __syncthreads();
  for (int i = threadIdx.x; i < BINS; i += blockDim.x) atomicAdd(&hist[i], bins[i]);
}

int main()
{
  const int blocks = 64, block = 128, N = blocks * block;
  int hiv[NI] = {0};
  hiv[SUB] = 1000000;
  hiv[MAXI] = -2147483647 - 1;
  hiv[MINI] = 2147483647;
  hiv[ANDV] = -1;
  hiv[EXCH] = -1;
  unsigned humax = 0;
  float hfv[2] = {0, 0};
  unsigned long long hu64 = 0;
  double hdsum = 0;
  int *div, *dslots, *dolds, *dhist;
  unsigned *dumax;
  float *dfv;
  unsigned long long *du64;
  double *ddsum;
  HIP_CHECK(hipMalloc(&div, sizeof hiv));
  HIP_CHECK(hipMalloc(&dumax, sizeof humax));
  HIP_CHECK(hipMalloc(&dfv, sizeof hfv));
  HIP_CHECK(hipMalloc(&du64, sizeof hu64));
  HIP_CHECK(hipMalloc(&ddsum, sizeof hdsum));
  HIP_CHECK(hipMalloc(&dslots, SLOTS * sizeof(int)));
  HIP_CHECK(hipMalloc(&dolds, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&dhist, BINS * sizeof(int)));
  HIP_CHECK(hipMemcpy(div, hiv, sizeof hiv, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dumax, &humax, sizeof humax, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dfv, hfv, sizeof hfv, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(du64, &hu64, sizeof hu64, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(ddsum, &hdsum, sizeof hdsum, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dslots, 0, SLOTS * sizeof(int)));
  HIP_CHECK(hipMemset(dhist, 0, BINS * sizeof(int)));
  atomics<<<blocks, block>>>(div, dumax, dfv, du64, ddsum, dslots, dolds, dhist);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());

  std::vector<int> slots(SLOTS), olds(N), hist(BINS);
  HIP_CHECK(hipMemcpy(hiv, div, sizeof hiv, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&humax, dumax, sizeof humax, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(hfv, dfv, sizeof hfv, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&hu64, du64, sizeof hu64, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&hdsum, ddsum, sizeof hdsum, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(slots.data(), dslots, SLOTS * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(olds.data(), dolds, N * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(hist.data(), dhist, BINS * sizeof(int), hipMemcpyDeviceToHost));

  int wmax = -2147483647 - 1, wmin = 2147483647;
  unsigned wumax = 0, wxor = 0;
  unsigned long long wu64 = 0;
  double wd = 0;
  std::vector<int> whist(BINS, 0);
  for (int g = 0; g < N; g++) {
    int key = (37 * g) % 1001 - 500;
    wmax = key > wmax ? key : wmax;
    wmin = key < wmin ? key : wmin;
    wumax = ((unsigned)g ^ 0x5a5au) > wumax ? ((unsigned)g ^ 0x5a5au) : wumax;
    wxor ^= (unsigned)g * 2654435761u;
    wu64 += (1ull << 33) + (unsigned long long)g;
    wd += g % 7;
    whist[(g * 13 + 5) % BINS]++;
  }
  printf("count=%d sum=%d sub=%d max=%d min=%d umax=%u or=%#x and=%#x xor=%#x winners=%d\n",
         hiv[CNT], hiv[SUMG], hiv[SUB], hiv[MAXI], hiv[MINI], humax, (unsigned)hiv[ORV],
         (unsigned)hiv[ANDV], (unsigned)hiv[XORV], hiv[WINNERS]);
  printf("float sums %g %g, u64 %llu, CAS double sum %g\n", hfv[0], hfv[1], hu64, hdsum);
  EXPECT(hiv[CNT] == N, "atomicAdd count %d", hiv[CNT]);
  EXPECT(hiv[SUMG] == 33550336, "atomicAdd sum %d", hiv[SUMG]);
  EXPECT(hiv[SUB] == 1000000 - 3 * N, "atomicSub %d", hiv[SUB]);
  EXPECT(hiv[MAXI] == wmax, "atomicMax %d, want %d", hiv[MAXI], wmax);
  EXPECT(hiv[MINI] == wmin, "atomicMin %d, want %d", hiv[MINI], wmin);
  EXPECT(humax == wumax, "atomicMax unsigned %u, want %u", humax, wumax);
  EXPECT((unsigned)hiv[ORV] == 0xffffffffu, "atomicOr %#x", (unsigned)hiv[ORV]);
  EXPECT((unsigned)hiv[ANDV] == 0x80000000u, "atomicAnd %#x", (unsigned)hiv[ANDV]);
  EXPECT((unsigned)hiv[XORV] == wxor, "atomicXor %#x, want %#x", (unsigned)hiv[XORV], wxor);
  EXPECT(hiv[WINNERS] == SLOTS, "atomicCAS winners %d", hiv[WINNERS]);
  EXPECT(hfv[0] == 4096.0f, "atomicAdd float %g", hfv[0]);
  EXPECT(hfv[1] == 3072.0f, "atomicAdd float quarters %g", hfv[1]);
  EXPECT(hu64 == wu64, "atomicAdd u64 %llu, want %llu", hu64, wu64);
  EXPECT(hdsum == wd, "CAS-loop double sum %g, want %g", hdsum, wd);
  for (int s = 0; s < SLOTS; s++)
    EXPECT(slots[s] >= 1 && (slots[s] - 1) % SLOTS == s, "slot %d claimed by %d", s, slots[s]);
  std::vector<int> seen(N + 1, 0);   // seen[v + 1]: -1 (the initial value) and 0..N-1
  seen[hiv[EXCH] + 1]++;
  for (int g = 0; g < N; g++)
    if (olds[g] >= -1 && olds[g] < N) seen[olds[g] + 1]++;
  for (int v = -1; v < N; v++) EXPECT(seen[v + 1] == 1, "atomicExch: value %d seen %d times", v, seen[v + 1]);
  for (int b = 0; b < BINS; b++) EXPECT(hist[b] == whist[b], "histogram bin %d = %d, want %d", b, hist[b], whist[b]);
  HIP_CHECK(hipFree(div));
  HIP_CHECK(hipFree(dumax));
  HIP_CHECK(hipFree(dfv));
  HIP_CHECK(hipFree(du64));
  HIP_CHECK(hipFree(ddsum));
  HIP_CHECK(hipFree(dslots));
  HIP_CHECK(hipFree(dolds));
  HIP_CHECK(hipFree(dhist));
  return ht_finish("atomics");
}
