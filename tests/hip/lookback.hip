// Decoupled look-back across workgroups with 16-byte values, as rocPRIM's lookback_scan_state
// does for values of more than 8 bytes: a flag array (char: EMPTY 0, PARTIAL 1, COMPLETE 2) beside
// separate arrays of partial and complete values; a writer stores the value volatile, then
// __threadfence(), then the flag volatile; a reader spins on a volatile load of the flag with
// __threadfence() after each load, then loads the value volatile. Workgroups take their scan
// position from an atomic ticket (rocPRIM's ordered_block_id), so a workgroup only waits on ones
// that started before it.
//
// 300 workgroups of 256 threads scan 4 items a thread (307200 items) of {double x, y} with
// x = (i % 7) + 0.25 and y = (i % 5) * 2 - 3.5: every partial sum is a multiple of 0.25 below
// 2^20, exact in double in any order, so the result must equal the host's sequential inclusive
// scan exactly (last item: x = 998395, y = 153600).
//
// Three forms of the volatile value accesses, one kernel each:
//   member  - volatile double loads and stores of the two members;
//   words   - rocPRIM 5.2's store_volatile/load_volatile: the value as two volatile 64-bit words.
//             Reading a struct of doubles through unsigned long long lvalues breaks C++'s
//             aliasing rules, and with strict aliasing clang-19 drops the words loaded into the
//             local copy and keeps the copy's constructor values (rocPRIM's custom_test_type<double>
//             device_scan failures, docs/HIP-SAMPLES.md); this program is therefore built with
//             -fno-strict-aliasing, under which the form is well defined;
//   vector  - one volatile 16-byte access (a double2 vector: global_load_b128/global_store_b128).
#include "hip_test.h"
#include <vector>

enum { BLOCKS = 300, THREADS = 256, ITEMS = 4, PER_BLOCK = THREADS * ITEMS, N = BLOCKS * PER_BLOCK };
enum : char { EMPTY = 0, PARTIAL = 1, COMPLETE = 2 };

struct pair_d {
  double x, y;
  // Like rocPRIM's custom_test_type: a default that is not the identity, so a lost value shows.
  __host__ __device__ pair_d() : x(12), y(34) {}
  __host__ __device__ pair_d(double a, double b) : x(a), y(b) {}
};
__host__ __device__ static inline pair_d operator+(pair_d a, pair_d b) { return pair_d(a.x + b.x, a.y + b.y); }

typedef double double2_v __attribute__((ext_vector_type(2)));
enum form { MEMBER, WORDS, VECTOR };

template <form F> __device__ static void store_value(pair_d *p, pair_d v)
{
  if (F == MEMBER) {
    volatile pair_d *q = p;
    q->x = v.x;
    q->y = v.y;
  } else if (F == WORDS) {
    volatile unsigned long long *out = reinterpret_cast<volatile unsigned long long *>(p);
    const unsigned long long *in = reinterpret_cast<const unsigned long long *>(&v);
    for (int i = 0; i < 2; i++) out[i] = in[i];
  } else {
    double2_v w = {v.x, v.y};
    *reinterpret_cast<volatile double2_v *>(p) = w;
  }
}

template <form F> __device__ static pair_d load_value(pair_d *p)
{
  pair_d r;
  if (F == MEMBER) {
    volatile pair_d *q = p;
    r.x = q->x;
    r.y = q->y;
  } else if (F == WORDS) {
    volatile unsigned long long *out = reinterpret_cast<volatile unsigned long long *>(&r);
    volatile unsigned long long *in = reinterpret_cast<volatile unsigned long long *>(p);
    for (int i = 0; i < 2; i++) out[i] = in[i];
  } else {
    double2_v w = *reinterpret_cast<volatile double2_v *>(p);
    r = pair_d(w.x, w.y);
  }
  return r;
}

template <form F> __device__ static void publish(char *flags, pair_d *values, int b, pair_d v, char flag)
{
  store_value<F>(&values[b], v);
  __threadfence();
  *(volatile char *)&flags[b] = flag;
}

template <form F>
__global__ void lookback_scan(const pair_d *in, pair_d *out, unsigned *ticket, char *flags,
                              pair_d *partial, pair_d *complete)
{
  // (__shared__ variables cannot have constructors: plain doubles.)
  __shared__ unsigned bid_s;
  __shared__ double sum_x[THREADS], sum_y[THREADS], prefix_xy[2];
  const int t = threadIdx.x;
  if (t == 0) bid_s = atomicAdd(ticket, 1u);
  __syncthreads();
  const int b = (int)bid_s;

  // Each thread's items, their inclusive scan, and an inclusive scan of the thread sums.
  pair_d v[ITEMS];
  const int base = b * PER_BLOCK + t * ITEMS;
  v[0] = in[base];
  for (int i = 1; i < ITEMS; i++) v[i] = v[i - 1] + in[base + i];
  sum_x[t] = v[ITEMS - 1].x;
  sum_y[t] = v[ITEMS - 1].y;
  __syncthreads();
  for (int d = 1; d < THREADS; d *= 2) {
    const double ax = t >= d ? sum_x[t - d] : 0, ay = t >= d ? sum_y[t - d] : 0;
    __syncthreads();
    sum_x[t] += ax;
    sum_y[t] += ay;
    __syncthreads();
  }
  const pair_d aggregate(sum_x[THREADS - 1], sum_y[THREADS - 1]);

  if (t == 0) {
    pair_d prefix(0, 0);
    if (b == 0) {
      publish<F>(flags, complete, 0, aggregate, COMPLETE);
    } else {
      publish<F>(flags, partial, b, aggregate, PARTIAL);
      for (int p = b - 1;; p--) {
        char flag = *(volatile char *)&flags[p];
        __threadfence();
        while (flag == EMPTY) {
          flag = *(volatile char *)&flags[p];
          __threadfence();
        }
        if (flag == PARTIAL) {
          prefix = load_value<F>(&partial[p]) + prefix;
        } else {
          prefix = load_value<F>(&complete[p]) + prefix;
          break;
        }
      }
      publish<F>(flags, complete, b, prefix + aggregate, COMPLETE);
    }
    prefix_xy[0] = prefix.x;
    prefix_xy[1] = prefix.y;
  }
  __syncthreads();
  pair_d offset(prefix_xy[0], prefix_xy[1]);
  if (t > 0) offset = offset + pair_d(sum_x[t - 1], sum_y[t - 1]);
  for (int i = 0; i < ITEMS; i++) out[base + i] = offset + v[i];
}

static int run(const char *name, void (*kernel)(const pair_d *, pair_d *, unsigned *, char *, pair_d *, pair_d *),
               const pair_d *d_in, const std::vector<pair_d> &expect)
{
  pair_d *d_out, *d_partial, *d_complete;
  unsigned *d_ticket;
  char *d_flags;
  HIP_CHECK(hipMalloc(&d_out, N * sizeof(pair_d)));
  HIP_CHECK(hipMalloc(&d_partial, BLOCKS * sizeof(pair_d)));
  HIP_CHECK(hipMalloc(&d_complete, BLOCKS * sizeof(pair_d)));
  HIP_CHECK(hipMalloc(&d_ticket, sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&d_flags, BLOCKS));
  HIP_CHECK(hipMemset(d_ticket, 0, sizeof(unsigned)));
  HIP_CHECK(hipMemset(d_flags, EMPTY, BLOCKS));
  HIP_CHECK(hipMemset(d_partial, 0xff, BLOCKS * sizeof(pair_d)));   // NaNs until written
  HIP_CHECK(hipMemset(d_complete, 0xff, BLOCKS * sizeof(pair_d)));
  hipLaunchKernelGGL(kernel, dim3(BLOCKS), dim3(THREADS), 0, 0, d_in, d_out, d_ticket, d_flags,
                     d_partial, d_complete);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<pair_d> got(N);
  std::vector<char> flags(BLOCKS);
  unsigned ticket = 0;
  HIP_CHECK(hipMemcpy(got.data(), d_out, N * sizeof(pair_d), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(flags.data(), d_flags, BLOCKS, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&ticket, d_ticket, sizeof ticket, hipMemcpyDeviceToHost));
  const int before = ht_failures;
  EXPECT(ticket == BLOCKS, "%s: ticket %u", name, ticket);
  for (int b = 0; b < BLOCKS; b++)
    EXPECT(flags[b] == COMPLETE, "%s: flag of workgroup %d is %d", name, b, flags[b]);
  for (int i = 0; i < N; i++)
    EXPECT(got[i].x == expect[i].x && got[i].y == expect[i].y, "%s: item %d (workgroup %d) is (%g, %g), want (%g, %g)",
           name, i, i / PER_BLOCK, got[i].x, got[i].y, expect[i].x, expect[i].y);
  printf("%s: last item (%g, %g), %s\n", name, got[N - 1].x, got[N - 1].y,
         ht_failures == before ? "all items right" : "MISMATCHES");
  HIP_CHECK(hipFree(d_out));
  HIP_CHECK(hipFree(d_partial));
  HIP_CHECK(hipFree(d_complete));
  HIP_CHECK(hipFree(d_ticket));
  HIP_CHECK(hipFree(d_flags));
  return 0;
}

int main()
{
  std::vector<pair_d> in(N), expect(N);
  pair_d sum(0, 0);
  for (int i = 0; i < N; i++) {
    in[i] = pair_d((i % 7) + 0.25, (i % 5) * 2 - 3.5);
    sum = sum + in[i];
    expect[i] = sum;
  }
  EXPECT(expect[N - 1].x == 998395.0 && expect[N - 1].y == 153600.0, "host reference ends at (%g, %g)",
         expect[N - 1].x, expect[N - 1].y);
  pair_d *d_in;
  HIP_CHECK(hipMalloc(&d_in, N * sizeof(pair_d)));
  HIP_CHECK(hipMemcpy(d_in, in.data(), N * sizeof(pair_d), hipMemcpyHostToDevice));
  run("member", lookback_scan<MEMBER>, d_in, expect);
  run("words", lookback_scan<WORDS>, d_in, expect);
  run("vector", lookback_scan<VECTOR>, d_in, expect);
  HIP_CHECK(hipFree(d_in));
  return ht_finish("lookback");
}
