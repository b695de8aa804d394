// Streams, events and callbacks. Four streams (hipStreamCreate; hipStreamCreateWithFlags
// non-blocking for stream 1; hipStreamCreateWithPriority for stream 2 with the greatest priority
// of the range, which is CLR's 1 .. -1, out-of-range priorities clamped), each with pinned buffers:
//   H2D copy (in[k][i] = i + 1000k) -> callback 0 -> kernel: v = (7v + k) mod 1000003, 400
//   times on stream 0 (slow) and once on the others -> callback 1 -> [stream 1 only:
//   hipStreamWaitEvent on an event recorded on stream 0 after its kernel, then d1[i] += d0[i]]
//   -> D2H copy -> callback 2, which checks that the copied data is already in host memory.
// Expected: every output equals the host's recomputation; each stream's callbacks run in the order
// 0, 1, 2 (12 in all); hipEventElapsedTime between events around stream 0's work is >= 0 and
// hipEventQuery/hipStreamQuery report hipSuccess once synchronized; a kernel on the null stream,
// launched without synchronizing, sees the finished results of the blocking streams 0, 2, 3
// (sum of their d[k][5]).
// Pageable host memory: hipMemcpyAsync and hipMemcpyDtoHAsync into malloc'd memory after a slow
// kernel on a created stream hold the data when they return, without a synchronisation (CLR makes
// such copies synchronous, as CUDA documents for pageable memory); hipMemcpyHtoDAsync from a
// malloc'd buffer that is overwritten at once copies what the buffer held at the call.
#include "hip_test.h"
#include <mutex>
#include <vector>

enum { NS = 4, N = 4096 };

__global__ void transform(int *d, int n, int k, int iters)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long v = d[i];
  for (int j = 0; j < iters; j++) v = (7 * v + k) % 1000003;
  d[i] = (int)v;
}

__global__ void combine(int *dst, const int *src, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] += src[i];
}

__global__ void gather(int *const *bufs, int nbufs, int idx, long long *out)
{
  if (threadIdx.x == 0) {
    long long s = 0;
    for (int b = 0; b < nbufs; b++) s += bufs[b][idx];
    *out = s;
  }
}

static std::mutex log_lock;
static std::vector<int> cb_log;
static int *g_hout[NS];
static std::vector<int> g_want[NS];
static int cb_bad_data[NS];
static int cb_bad_status;

struct CbArg { int stream, stage; };

static void callback(hipStream_t, hipError_t status, void *user)
{
  CbArg *a = static_cast<CbArg *>(user);
  std::lock_guard<std::mutex> g(log_lock);
  if (status != hipSuccess) cb_bad_status++;
  cb_log.push_back(a->stream * 10 + a->stage);
  if (a->stage == 2)
    for (int i = 0; i < N; i++)
      if (g_hout[a->stream][i] != g_want[a->stream][i]) cb_bad_data[a->stream]++;
}

static int host_transform(int v, int k, int iters)
{
  long long x = v;
  for (int j = 0; j < iters; j++) x = (7 * x + k) % 1000003;
  return (int)x;
}

int main()
{
  hipStream_t s[NS];
  HIP_CHECK(hipStreamCreate(&s[0]));
  HIP_CHECK(hipStreamCreateWithFlags(&s[1], hipStreamNonBlocking));
  int lo = 0, hi = 0;
  HIP_CHECK(hipDeviceGetStreamPriorityRange(&lo, &hi));
  HIP_CHECK(hipStreamCreateWithPriority(&s[2], hipStreamDefault, hi));
  HIP_CHECK(hipStreamCreate(&s[3]));
  // CLR's range and clamping (hip-tests' Unit_hipStreamGetPriority_higher/_lower)
  EXPECT(lo == 1 && hi == -1, "hipDeviceGetStreamPriorityRange: least %d, greatest %d (CLR: 1, -1)", lo, hi);
  int prio = 0;
  HIP_CHECK(hipStreamGetPriority(s[2], &prio));
  EXPECT(prio == hi, "stream 2 priority %d, want %d", prio, hi);
  for (int want : {-5, 7}) {
    hipStream_t t;
    HIP_CHECK(hipStreamCreateWithPriority(&t, hipStreamNonBlocking, want));
    HIP_CHECK(hipStreamGetPriority(t, &prio));
    EXPECT(prio == (want < hi ? hi : lo), "priority %d asked, %d kept (want it clamped to [%d, %d])", want, prio, hi, lo);
    HIP_CHECK(hipStreamDestroy(t));
  }
  unsigned flags = 0;
  HIP_CHECK(hipStreamGetFlags(s[1], &flags));
  EXPECT(flags == hipStreamNonBlocking, "hipStreamGetFlags(stream 1) = %u", flags);

  int *hin[NS], *d[NS];
  for (int k = 0; k < NS; k++) {
    HIP_CHECK(hipHostMalloc(&hin[k], N * sizeof(int)));
    HIP_CHECK(hipHostMalloc(&g_hout[k], N * sizeof(int)));
    HIP_CHECK(hipMalloc(&d[k], N * sizeof(int)));
    for (int i = 0; i < N; i++) hin[k][i] = i + 1000 * k, g_hout[k][i] = -1;
  }
  const int iters[NS] = {400, 1, 1, 1};
  for (int k = 0; k < NS; k++) {
    g_want[k].resize(N);
    for (int i = 0; i < N; i++) g_want[k][i] = host_transform(hin[k][i], k, iters[k]);
  }
  for (int i = 0; i < N; i++) g_want[1][i] += g_want[0][i];

  hipEvent_t start, stop, k0_done;
  HIP_CHECK(hipEventCreate(&start));
  HIP_CHECK(hipEventCreate(&stop));
  HIP_CHECK(hipEventCreateWithFlags(&k0_done, hipEventDisableTiming));
  static CbArg args[NS][3];
  const int grid = (N + 255) / 256;
  HIP_CHECK(hipEventRecord(start, s[0]));
  for (int k = 0; k < NS; k++) {
    for (int st = 0; st < 3; st++) args[k][st] = {k, st};
    HIP_CHECK(hipMemcpyAsync(d[k], hin[k], N * sizeof(int), hipMemcpyHostToDevice, s[k]));
    HIP_CHECK(hipStreamAddCallback(s[k], callback, &args[k][0], 0));
    hipLaunchKernelGGL(transform, dim3(grid), dim3(256), 0, s[k], d[k], N, k, iters[k]);
    HIP_CHECK(hipGetLastError());
    if (k == 0) HIP_CHECK(hipEventRecord(k0_done, s[0]));
    HIP_CHECK(hipStreamAddCallback(s[k], callback, &args[k][1], 0));
    if (k == 1) {
      HIP_CHECK(hipStreamWaitEvent(s[1], k0_done, 0));
      hipLaunchKernelGGL(combine, dim3(grid), dim3(256), 0, s[1], d[1], d[0], N);
      HIP_CHECK(hipGetLastError());
    }
    HIP_CHECK(hipMemcpyAsync(g_hout[k], d[k], N * sizeof(int), hipMemcpyDeviceToHost, s[k]));
    HIP_CHECK(hipStreamAddCallback(s[k], callback, &args[k][2], 0));
  }
  HIP_CHECK(hipEventRecord(stop, s[0]));

  // The null stream waits for the blocking streams 0, 2 and 3 (not for the non-blocking 1).
  int **dbufs;
  long long *dsum, sum = 0;
  HIP_CHECK(hipMalloc(&dbufs, 3 * sizeof(int *)));
  HIP_CHECK(hipMalloc(&dsum, sizeof(long long)));
  int *blocking[3] = {d[0], d[2], d[3]};
  HIP_CHECK(hipMemcpyAsync(dbufs, blocking, sizeof blocking, hipMemcpyHostToDevice, 0));
  gather<<<1, 32>>>(dbufs, 3, 5, dsum);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(&sum, dsum, sizeof sum, hipMemcpyDeviceToHost));
  long long want_sum = (long long)g_want[0][5] + g_want[2][5] + g_want[3][5];
  EXPECT(sum == want_sum, "null-stream gather = %lld, want %lld", sum, want_sum);

  HIP_CHECK(hipEventSynchronize(stop));
  HIP_CHECK(hipEventQuery(stop));
  float ms = -1;
  HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
  EXPECT(ms >= 0, "hipEventElapsedTime = %g ms", ms);
  for (int k = 0; k < NS; k++) HIP_CHECK(hipStreamSynchronize(s[k]));
  HIP_CHECK(hipDeviceSynchronize());
  for (int k = 0; k < NS; k++) HIP_CHECK(hipStreamQuery(s[k]));

  for (int k = 0; k < NS; k++)
    for (int i = 0; i < N; i++)
      EXPECT(g_hout[k][i] == g_want[k][i], "stream %d: out[%d] = %d, want %d", k, i, g_hout[k][i], g_want[k][i]);
  {
    std::lock_guard<std::mutex> g(log_lock);
    EXPECT(cb_log.size() == NS * 3, "%zu callbacks ran, want %d", cb_log.size(), NS * 3);
    int next[NS] = {0};
    for (int e : cb_log) {
      int k = e / 10, st = e % 10;
      EXPECT(k >= 0 && k < NS && st == next[k], "callback (stream %d, stage %d) out of order", k, st);
      if (k >= 0 && k < NS) next[k] = st + 1;
    }
    printf("callback order:");
    for (int e : cb_log) printf(" %d.%d", e / 10, e % 10);
    printf("\n");
  }
  for (int k = 0; k < NS; k++)
    EXPECT(cb_bad_data[k] == 0, "stream %d: the last callback saw %d values not yet copied", k, cb_bad_data[k]);
  EXPECT(cb_bad_status == 0, "%d callbacks got an error status", cb_bad_status);
  printf("elapsed %g ms; out[1][7] = %d; null-stream gather = %lld\n", ms, g_hout[1][7], sum);

  for (int k = 0; k < NS; k++) {
    HIP_CHECK(hipStreamDestroy(s[k]));
    HIP_CHECK(hipHostFree(hin[k]));
    HIP_CHECK(hipHostFree(g_hout[k]));
    HIP_CHECK(hipFree(d[k]));
  }
  HIP_CHECK(hipEventDestroy(start));
  HIP_CHECK(hipEventDestroy(stop));
  HIP_CHECK(hipEventDestroy(k0_done));
  HIP_CHECK(hipFree(dbufs));
  HIP_CHECK(hipFree(dsum));

  {
    hipStream_t ps;
    HIP_CHECK(hipStreamCreate(&ps));
    std::vector<int> src(N), dst(N, -1), dst2(N, -1);
    for (int i = 0; i < N; i++) src[i] = 3 * i + 1;
    int *dp = nullptr;
    HIP_CHECK(hipMalloc(&dp, N * sizeof(int)));
    HIP_CHECK(hipMemcpyHtoDAsync(dp, src.data(), N * sizeof(int), ps));
    for (int i = 0; i < N; i++) src[i] = -7;   // reused at once: the copy has taken the old values
    hipLaunchKernelGGL(transform, dim3(N / 256), dim3(256), 0, ps, dp, N, 5, 300);
    HIP_CHECK(hipMemcpyAsync(dst.data(), dp, N * sizeof(int), hipMemcpyDeviceToHost, ps));
    HIP_CHECK(hipMemcpyDtoHAsync(dst2.data(), dp, N * sizeof(int), ps));
    int bad = 0, bad2 = 0;   // read before any synchronisation
    for (int i = 0; i < N; i++) {
      long long v = 3 * i + 1;
      for (int j = 0; j < 300; j++) v = (7 * v + 5) % 1000003;
      bad += dst[i] != (int)v, bad2 += dst2[i] != (int)v;
    }
    EXPECT(bad == 0 && bad2 == 0, "pageable async copies: %d / %d of %d values not there when the call returned",
           bad, bad2, (int)N);
    HIP_CHECK(hipStreamSynchronize(ps));
    HIP_CHECK(hipFree(dp));
    HIP_CHECK(hipStreamDestroy(ps));
  }
  return ht_finish("streams");
}
