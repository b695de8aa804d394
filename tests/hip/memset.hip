// hipMemset and its relatives on a 4096-byte buffer (its bytes start at 0x00 via hipMemset):
//   hipMemset(buf + 3, 0xab, 1001)        bytes 3..1003 = 0xab, neighbours untouched
//   hipMemsetAsync(buf + 1024, 0x11, 512) on a stream
//   hipMemsetD32(buf + 2048, 0xdeadbeef, 100 words); hipMemsetD16(buf + 2560, 0x1234, 50);
//   hipMemsetD8(buf + 2700, 0x5a, 7); hipMemsetD32Async(buf + 3072, 0x01020304, 64) on a stream;
//   ordering on one stream: a kernel writes words 960..1023 = index, hipMemsetAsync zeroes bytes
//   3840..3967 (words 960..991), a kernel adds 1 to words 960..1023: 1 for the zeroed ones, the
//   index + 1 for the others.
// The whole buffer is compared byte for byte with the host's model.
// What CLR refuses (hip-tests' Unit_hipMemset_InvalidPtrTests, Unit_hipMemset3DAsync_Negative):
// a fill of malloc'd host memory, one running 1 byte past its allocation, hipMemset3D with a
// depth of SIZE_MAX, and a pitched pointer into no allocation -> hipErrorInvalidValue; a
// zero extent with that pointer -> hipSuccess. A __device__ variable (a module's global, outside
// the allocation registry) is filled through hipGetSymbolAddress.
#include "hip_test.h"
#include <limits>
#include <vector>

__device__ unsigned global_words[16];

__global__ void write_index(unsigned *w, int first, int count)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) w[first + i] = first + i;
}

__global__ void add_one(unsigned *w, int first, int count)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) w[first + i] += 1;
}

int main()
{
  const int n = 4096;
  unsigned char *buf;
  std::vector<unsigned char> model(n, 0), got(n);
  HIP_CHECK(hipMalloc(&buf, n));
  HIP_CHECK(hipMemset(buf, 0, n));
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));

  HIP_CHECK(hipMemset(buf + 3, 0xab, 1001));
  memset(&model[3], 0xab, 1001);
  HIP_CHECK(hipMemsetAsync(buf + 1024, 0x11, 512, s));
  memset(&model[1024], 0x11, 512);
  HIP_CHECK(hipStreamSynchronize(s));
  HIP_CHECK(hipMemsetD32(buf + 2048, (int)0xdeadbeefu, 100));
  for (int i = 0; i < 100; i++) {
    unsigned v = 0xdeadbeefu;
    memcpy(&model[2048 + 4 * i], &v, 4);
  }
  HIP_CHECK(hipMemsetD16(buf + 2560, 0x1234, 50));
  for (int i = 0; i < 50; i++) {
    unsigned short v = 0x1234;
    memcpy(&model[2560 + 2 * i], &v, 2);
  }
  HIP_CHECK(hipMemsetD8(buf + 2700, 0x5a, 7));
  memset(&model[2700], 0x5a, 7);
  HIP_CHECK(hipMemsetD32Async(buf + 3072, 0x01020304, 64, s));
  for (int i = 0; i < 64; i++) {
    unsigned v = 0x01020304;
    memcpy(&model[3072 + 4 * i], &v, 4);
  }
  unsigned *words = (unsigned *)buf;
  hipLaunchKernelGGL(write_index, dim3(1), dim3(64), 0, s, words, 960, 64);
  HIP_CHECK(hipMemsetAsync(buf + 3840, 0, 128, s));
  hipLaunchKernelGGL(add_one, dim3(1), dim3(64), 0, s, words, 960, 64);
  HIP_CHECK(hipGetLastError());
  for (int w = 960; w < 1024; w++) {
    unsigned v = w < 992 ? 1 : w + 1;
    memcpy(&model[4 * w], &v, 4);
  }
  HIP_CHECK(hipStreamSynchronize(s));
  HIP_CHECK(hipMemcpy(got.data(), buf, n, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(got[i] == model[i], "byte %d = %#x, want %#x", i, got[i], model[i]);
  printf("bytes 2..4 = %02x %02x %02x, word 512 = %#x, word 1000 = %u\n", got[2], got[3], got[4],
         ((unsigned *)got.data())[512], ((unsigned *)got.data())[1000]);
  HIP_CHECK(hipStreamDestroy(s));

  std::vector<char> pageable(256);
  EXPECT_ERR(hipMemset(pageable.data(), 1, 256), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipMemset(buf + 1, 1, n), hipErrorInvalidValue, hipErrorInvalidValue);
  hipPitchedPtr pp = make_hipPitchedPtr(buf, 64, 64, 8);
  EXPECT_ERR(hipMemset3D(pp, 0, make_hipExtent(64, 8, std::numeric_limits<size_t>::max())), hipErrorInvalidValue,
             hipErrorInvalidValue);
  hipPitchedPtr past = make_hipPitchedPtr(buf + (1 << 30), 64, 64, 8);   // in no allocation
  EXPECT_ERR(hipMemset3D(past, 0, make_hipExtent(64, 8, 1)), hipErrorInvalidValue, hipErrorInvalidValue);
  HIP_CHECK(hipMemset3D(past, 0, make_hipExtent(0, 0, 0)));
  void *gw = nullptr;
  HIP_CHECK(hipGetSymbolAddress(&gw, HIP_SYMBOL(global_words)));
  HIP_CHECK(hipMemsetD32(gw, 0x5eed, 16));
  unsigned gh[16] = {0};
  HIP_CHECK(hipMemcpyFromSymbol(gh, HIP_SYMBOL(global_words), sizeof gh));
  for (int i = 0; i < 16; i++) EXPECT(gh[i] == 0x5eed, "global_words[%d] = %#x after hipMemsetD32", i, gh[i]);
  HIP_CHECK(hipFree(buf));
  return ht_finish("memset");
}
