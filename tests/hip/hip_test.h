// Shared by the HIP test programs (tests/hip): checking HIP calls, counting mismatches, and the
// verdict line. Every program prints "PASS <name>" and exits 0 when all its checks hold, or prints
// "FAIL <name>: ..." and exits 1 (2 when a HIP call that must succeed fails).
#pragma once
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define HIP_CHECK(expr)                                                                            \
  do {                                                                                             \
    hipError_t e_ = (expr);                                                                        \
    if (e_ != hipSuccess) {                                                                        \
      fprintf(stderr, "%s:%d: %s returned %s (%d): %s\n", __FILE__, __LINE__, #expr,               \
              hipGetErrorName(e_), (int)e_, hipGetErrorString(e_));                                \
      printf("FAIL: %s returned %s\n", #expr, hipGetErrorName(e_));                                \
      exit(2);                                                                                     \
    }                                                                                              \
  } while (0)

static int ht_failures = 0;

// EXPECT(cond, fmt, ...): count a mismatch and describe the first 20 of them on stderr.
#define EXPECT(cond, ...)                                                                          \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      if (ht_failures++ < 20) {                                                                    \
        fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond);                        \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fputc('\n', stderr);                                                                       \
      }                                                                                            \
    }                                                                                              \
  } while (0)

// An expected HIP error code (one of two accepted ones).
#define EXPECT_ERR(expr, want1, want2)                                                             \
  do {                                                                                             \
    hipError_t e_ = (expr);                                                                        \
    printf("%s -> %s\n", #expr, hipGetErrorName(e_));                                              \
    EXPECT(e_ == (want1) || e_ == (want2), "%s returned %s (%d), want %s or %s", #expr,            \
           hipGetErrorName(e_), (int)e_, hipGetErrorName(want1), hipGetErrorName(want2));          \
  } while (0)

static inline int ht_finish(const char *name)
{
  fflush(stderr);
  if (ht_failures) {
    printf("FAIL %s: %d mismatches\n", name, ht_failures);
    return 1;
  }
  printf("PASS %s\n", name);
  return 0;
}
