// hip_bfloat16 (HIP's hip_bfloat16.h, rocPRIM's rocprim::bfloat16) on the device against a host
// reference written here from the definition of round-to-nearest-even, not from the header:
//   bfloat16 -> float: all 65536 patterns, the float whose upper 16 bits they are;
//   float -> bfloat16: every upper half with the lower halves 0, 1, 0x7fff, 0x8000, 0x8001,
//     0xffff and a pseudo-random one (458752 floats): the nearer of the two bfloat16 values
//     around the float, the even one on a tie; infinities kept; NaN stays NaN of the same sign;
//   bfloat16 + bfloat16: 2^20 pseudo-random pairs (any pattern, and values of 1 to 10 beside
//     sums up to 2^23 as rocPRIM's scan tests add them): the float sum rounded as above, and
//     five sums stated exactly:
//       3407872 + 22528 = 3424256 (the sum rounds down to a multiple of 16384),
//       1048576 + 22528 = 1073152 (multiple of 8192: rounds up from 1071104),
//       4096 + 5.5 = 4096 (below half an ulp of 32), and the ties 256 + 1 = 256, 258 + 1 = 260
//       (to the even one).
// clang-19 lowers hip_bfloat16's conversions to integer ALU code on gfx1100 (the header's
// u.int32 += 0x7fff + ((u.int32 >> 16) & 1)) and its sum to v_add_f32, so any difference is an
// ALU bug in the simulator.
#include "hip_test.h"
#include <hip/hip_bfloat16.h>
#include <cmath>
#include <cstdint>
#include <vector>

enum { CONV_LOWS = 7, NCONV = 65536 * CONV_LOWS, NADD = 1 << 20 };

__global__ void to_float(float *out)
{
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  hip_bfloat16 h;
  h.data = (uint16_t)i;
  out[i] = (float)h;
}

__global__ void from_float(const float *in, uint16_t *out, unsigned n)
{
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = hip_bfloat16(in[i]).data;
}

__global__ void add(const uint16_t *a, const uint16_t *b, uint16_t *out, unsigned n)
{
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    hip_bfloat16 x, y;
    x.data = a[i];
    y.data = b[i];
    out[i] = (x + y).data;
  }
}

static float bits_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t float_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bf16_float(uint16_t h) { return bits_float((uint32_t)h << 16); }

// Round to nearest even by comparing distances: lo is the float truncated to bfloat16, hi the next
// bfloat16 away from zero; both and f are floats, so the differences are exact in double.
static uint16_t ref_round(float f)
{
  const uint32_t u = float_bits(f);
  if (std::isnan(f)) return 0;   // the caller checks NaN-ness and sign only
  if (std::isinf(f)) return (uint16_t)(u >> 16);
  const uint16_t lo = (uint16_t)(u >> 16), hi = (uint16_t)(lo + 1);
  const double dlo = std::fabs((double)f - (double)bf16_float(lo));
  const double dhi = std::isinf(bf16_float(hi)) ? std::ldexp(1.0, 128) - std::fabs((double)f)
                                                : std::fabs((double)bf16_float(hi) - (double)f);
  if (dlo < dhi) return lo;
  if (dhi < dlo) return hi;
  return (lo & 1) ? hi : lo;
}

// A NaN input converts to a NaN of its sign; a NaN sum is only checked to be NaN (IEEE 754 leaves
// the sign and payload of a NaN from an addition unspecified).
static bool same_result(uint16_t got, float exact_input, bool check_nan_sign)
{
  if (std::isnan(exact_input))
    return std::isnan(bf16_float(got)) && (!check_nan_sign || (got >> 15) == (float_bits(exact_input) >> 31));
  return got == ref_round(exact_input);
}

static uint32_t rng_state = 0x2545f491u;
static uint32_t next_random()
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}

// A bfloat16 operand: any pattern, a value of 1 to 10, or a running-sum-sized value up to 2^23.
static uint16_t random_operand()
{
  const uint32_t r = next_random();
  switch (r & 3) {
  case 0:
  case 1: return (uint16_t)(r >> 16);
  case 2: return hip_bfloat16(1.0f + 9.0f * (float)(r >> 8) / 16777216.0f).data;
  default: return hip_bfloat16((float)(r >> 9)).data;
  }
}

static unsigned blocks(unsigned n) { return (n + 255) / 256; }

int main()
{
  // bfloat16 -> float, all patterns.
  float *d_f;
  HIP_CHECK(hipMalloc(&d_f, 65536 * sizeof(float)));
  hipLaunchKernelGGL(to_float, dim3(256), dim3(256), 0, 0, d_f);
  HIP_CHECK(hipGetLastError());
  std::vector<float> f(65536);
  HIP_CHECK(hipMemcpy(f.data(), d_f, 65536 * sizeof(float), hipMemcpyDeviceToHost));
  int bad = 0;
  for (uint32_t h = 0; h < 65536; h++)
    if (float_bits(f[h]) != h << 16) {
      EXPECT(false, "bfloat16 0x%04x -> float 0x%08x, want 0x%08x", h, float_bits(f[h]), h << 16);
      bad++;
    }
  printf("bfloat16 -> float: %d of 65536 wrong\n", bad);
  HIP_CHECK(hipFree(d_f));

  // float -> bfloat16.
  std::vector<float> in(NCONV);
  const uint16_t lows[CONV_LOWS - 1] = {0, 1, 0x7fff, 0x8000, 0x8001, 0xffff};
  for (uint32_t hi = 0; hi < 65536; hi++)
    for (int k = 0; k < CONV_LOWS; k++) {
      const uint32_t low = k < CONV_LOWS - 1 ? lows[k] : (next_random() & 0xffff);
      in[hi * CONV_LOWS + k] = bits_float(hi << 16 | low);
    }
  float *d_in;
  uint16_t *d_h;
  HIP_CHECK(hipMalloc(&d_in, NCONV * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_h, NCONV * sizeof(uint16_t)));
  HIP_CHECK(hipMemcpy(d_in, in.data(), NCONV * sizeof(float), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(from_float, dim3(blocks(NCONV)), dim3(256), 0, 0, d_in, d_h, (unsigned)NCONV);
  HIP_CHECK(hipGetLastError());
  std::vector<uint16_t> h(NCONV);
  HIP_CHECK(hipMemcpy(h.data(), d_h, NCONV * sizeof(uint16_t), hipMemcpyDeviceToHost));
  bad = 0;
  for (int i = 0; i < NCONV; i++)
    if (!same_result(h[i], in[i], true)) {
      EXPECT(false, "float 0x%08x -> bfloat16 0x%04x, want 0x%04x", float_bits(in[i]), h[i], ref_round(in[i]));
      bad++;
    }
  printf("float -> bfloat16: %d of %d wrong\n", bad, (int)NCONV);
  HIP_CHECK(hipFree(d_in));
  HIP_CHECK(hipFree(d_h));

  // bfloat16 + bfloat16: the directed sums first, then the random pairs.
  const float directed[][3] = {{3407872.0f, 22528.0f, 3424256.0f}, {1048576.0f, 22528.0f, 1073152.0f},
                               {4096.0f, 5.5f, 4096.0f}, {256.0f, 1.0f, 256.0f}, {258.0f, 1.0f, 260.0f}};
  const int ndir = sizeof directed / sizeof directed[0];
  std::vector<uint16_t> a(NADD), b(NADD);
  for (int i = 0; i < NADD; i++) {
    if (i < ndir) {
      a[i] = hip_bfloat16(directed[i][0]).data;
      b[i] = hip_bfloat16(directed[i][1]).data;
      EXPECT(bf16_float(a[i]) == directed[i][0] && bf16_float(b[i]) == directed[i][1],
             "directed operands %g, %g are bfloat16 values", directed[i][0], directed[i][1]);
    } else {
      a[i] = random_operand();
      b[i] = random_operand();
    }
  }
  uint16_t *d_a, *d_b, *d_s;
  HIP_CHECK(hipMalloc(&d_a, NADD * sizeof(uint16_t)));
  HIP_CHECK(hipMalloc(&d_b, NADD * sizeof(uint16_t)));
  HIP_CHECK(hipMalloc(&d_s, NADD * sizeof(uint16_t)));
  HIP_CHECK(hipMemcpy(d_a, a.data(), NADD * sizeof(uint16_t), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(d_b, b.data(), NADD * sizeof(uint16_t), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(add, dim3(blocks(NADD)), dim3(256), 0, 0, d_a, d_b, d_s, (unsigned)NADD);
  HIP_CHECK(hipGetLastError());
  std::vector<uint16_t> s(NADD);
  HIP_CHECK(hipMemcpy(s.data(), d_s, NADD * sizeof(uint16_t), hipMemcpyDeviceToHost));
  for (int i = 0; i < ndir; i++)
    EXPECT(bf16_float(s[i]) == directed[i][2], "%g + %g = %g, want %g", directed[i][0], directed[i][1],
           bf16_float(s[i]), directed[i][2]);
  bad = 0;
  for (int i = 0; i < NADD; i++) {
    const float exact = bf16_float(a[i]) + bf16_float(b[i]);   // the float sum (IEEE, as v_add_f32)
    if (!same_result(s[i], exact, false)) {
      EXPECT(false, "bfloat16 0x%04x + 0x%04x = 0x%04x, want 0x%04x", a[i], b[i], s[i], ref_round(exact));
      bad++;
    }
  }
  printf("bfloat16 + bfloat16: %d of %d wrong\n", bad, (int)NADD);
  HIP_CHECK(hipFree(d_a));
  HIP_CHECK(hipFree(d_b));
  HIP_CHECK(hipFree(d_s));
  return ht_finish("bfloat16");
}
