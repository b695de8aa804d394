// Pitched 2D memory: a W x H = 100 x 37 float image.
//   hipMallocPitch: pitch >= 400 bytes and a multiple of 4;
//   hipMemset2D(0x3f over all rows) -> every float reads 0x3f3f3f3f, copied back with
//   hipMemcpy2D into a host image of pitch (W+3) floats whose padding keeps its -1 sentinel;
//   hipMemcpy2D host->device of img[y][x] = 1000y + x, a kernel through the pitch:
//   v = 2v + y (so 2001y + 2x), hipMemset2D of the sub-rectangle rows 2..5, columns 4..9 to 0;
//   hipMemcpy2D device->device of the 50 x 20 block at (x 20, y 10) into a second pitched
//   allocation; hipMemcpy2DAsync / hipMemset2DAsync on a stream (rows 0..2 of the second image
//   to byte 0) -> each copy back is compared with the host's model. hipMemcpyParam2D of rows 4..9
//   (srcY 4) of the second image to host memory with dstPitch 0: tightly packed rows (a zero
//   pitch is the width, as CLR takes it); with srcPitch 0 from a packed host buffer back.
// hipDrvMemcpy3D (the driver API's 3D copy: X in bytes, each side its own pitch and height): a
// 6 x 4 x 3 box of ints of a 10 x 8 x 5 host volume, from (2, 1, 1), into a 3D array at element
// (1, 2, 0) (X 4 bytes), then the array's whole 8 x 6 x 3 volume back into host memory with a pitch
// of 40 bytes and a height of 7 rows: the box lands where it should, the rest reads 0 (the
// array was zeroed through a first hipDrvMemcpy3D), and the padding keeps its sentinel.
#include "hip_test.h"
#include <vector>

enum { W = 100, H = 37, HP = W + 3, W2 = 50, H2 = 20 };

__global__ void pitched(float *img, size_t pitch, int w, int h)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float *row = (float *)((char *)img + y * pitch);
    row[x] = 2 * row[x] + y;
  }
}

static void expect_image(const char *what, const std::vector<float> &host, const std::vector<float> &model,
                         int w, int h, int hp)
{
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      float a = host[y * hp + x], b = model[y * w + x];
      EXPECT(memcmp(&a, &b, 4) == 0, "%s: (%d,%d) = %g, want %g", what, x, y, a, b);
    }
    for (int x = w; x < hp; x++) EXPECT(host[y * hp + x] == -1.0f, "%s: padding (%d,%d) overwritten", what, x, y);
  }
}

int main()
{
  float *d = nullptr, *d2 = nullptr;
  size_t pitch = 0, pitch2 = 0;
  HIP_CHECK(hipMallocPitch((void **)&d, &pitch, W * sizeof(float), H));
  printf("pitch for %zu-byte rows: %zu\n", W * sizeof(float), pitch);
  EXPECT(pitch >= W * sizeof(float) && pitch % 4 == 0, "pitch %zu", pitch);
  std::vector<float> model(W * H), host(HP * H);

  HIP_CHECK(hipMemset2D(d, pitch, 0x3f, W * sizeof(float), H));
  float f3f;
  memset(&f3f, 0x3f, 4);
  for (auto &v : model) v = f3f;
  std::fill(host.begin(), host.end(), -1.0f);
  HIP_CHECK(hipMemcpy2D(host.data(), HP * sizeof(float), d, pitch, W * sizeof(float), H, hipMemcpyDeviceToHost));
  expect_image("hipMemset2D", host, model, W, H, HP);

  std::vector<float> src(W * H);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) src[y * W + x] = 1000.0f * y + x;
  HIP_CHECK(hipMemcpy2D(d, pitch, src.data(), W * sizeof(float), W * sizeof(float), H, hipMemcpyHostToDevice));
  dim3 block(32, 8), grid((W + 31) / 32, (H + 7) / 8);
  pitched<<<grid, block>>>(d, pitch, W, H);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemset2D((char *)d + 2 * pitch + 4 * sizeof(float), pitch, 0, 6 * sizeof(float), 4));
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) model[y * W + x] = (y >= 2 && y <= 5 && x >= 4 && x <= 9) ? 0.0f : 2001.0f * y + 2.0f * x;
  std::fill(host.begin(), host.end(), -1.0f);
  HIP_CHECK(hipMemcpy2D(host.data(), HP * sizeof(float), d, pitch, W * sizeof(float), H, hipMemcpyDeviceToHost));
  expect_image("kernel + sub-rectangle hipMemset2D", host, model, W, H, HP);

  HIP_CHECK(hipMallocPitch((void **)&d2, &pitch2, W2 * sizeof(float), H2));
  HIP_CHECK(hipMemcpy2D(d2, pitch2, (char *)d + 10 * pitch + 20 * sizeof(float), pitch, W2 * sizeof(float), H2,
                        hipMemcpyDeviceToDevice));
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  HIP_CHECK(hipMemset2DAsync(d2, pitch2, 0, W2 * sizeof(float), 3, s));
  std::vector<float> model2(W2 * H2), host2((W2 + 3) * H2, -1.0f);
  for (int y = 0; y < H2; y++)
    for (int x = 0; x < W2; x++) model2[y * W2 + x] = y < 3 ? 0.0f : model[(y + 10) * W + x + 20];
  HIP_CHECK(hipMemcpy2DAsync(host2.data(), (W2 + 3) * sizeof(float), d2, pitch2, W2 * sizeof(float), H2,
                             hipMemcpyDeviceToHost, s));
  HIP_CHECK(hipStreamSynchronize(s));
  expect_image("device-to-device block + hipMemset2DAsync", host2, model2, W2, H2, W2 + 3);
  printf("img(7,30) = %g (want %g), block(0,5) = %g (want %g)\n", host[30 * HP + 7], model[30 * W + 7],
         host2[5 * (W2 + 3)], model2[5 * W2]);
  HIP_CHECK(hipStreamDestroy(s));

  std::vector<float> packed(W2 * 6, -1.0f);
  hip_Memcpy2D m = {};
  m.srcMemoryType = hipMemoryTypeDevice, m.srcDevice = d2, m.srcPitch = pitch2, m.srcY = 4;
  m.dstMemoryType = hipMemoryTypeHost, m.dstHost = packed.data(), m.dstPitch = 0;
  m.WidthInBytes = W2 * sizeof(float), m.Height = 6;
  HIP_CHECK(hipMemcpyParam2D(&m));
  int bad = 0;
  for (int y = 0; y < 6; y++)
    for (int x = 0; x < W2; x++) bad += packed[y * W2 + x] != model2[(y + 4) * W2 + x];
  EXPECT(bad == 0, "hipMemcpyParam2D with dstPitch 0: %d of %d values differ from packed rows 4..9", bad, W2 * 6);
  for (auto &v : packed) v = 5.0f;
  m = {};
  m.srcMemoryType = hipMemoryTypeHost, m.srcHost = packed.data(), m.srcPitch = 0;
  m.dstMemoryType = hipMemoryTypeDevice, m.dstDevice = d2, m.dstPitch = pitch2;
  m.WidthInBytes = W2 * sizeof(float), m.Height = 6;
  HIP_CHECK(hipMemcpyParam2D(&m));
  HIP_CHECK(hipMemcpy2D(host2.data(), (W2 + 3) * sizeof(float), d2, pitch2, W2 * sizeof(float), H2,
                        hipMemcpyDeviceToHost));
  for (int y = 0; y < 6; y++)
    for (int x = 0; x < W2; x++) model2[y * W2 + x] = 5.0f;
  expect_image("hipMemcpyParam2D with srcPitch 0", host2, model2, W2, H2, W2 + 3);
  HIP_CHECK(hipFree(d));
  HIP_CHECK(hipFree(d2));
  {
    enum { VX = 10, VY = 8, VZ = 5, AX = 8, AY = 6, AZ = 3, BX = 6, BY = 4, BZ = 3, OP = 10, OH = 7 };
    std::vector<int> vol(VX * VY * VZ), zero(AX * AY * AZ, 0), out(OP * OH * AZ, -7);
    for (int i = 0; i < VX * VY * VZ; i++) vol[i] = i;
    hipChannelFormatDesc d = hipCreateChannelDesc<int>();
    hipArray *arr;
    HIP_CHECK(hipMalloc3DArray(&arr, &d, make_hipExtent(AX, AY, AZ), 0));
    HIP_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = hipMemoryTypeHost, c.srcHost = zero.data(), c.srcPitch = AX * 4, c.srcHeight = AY;
    c.dstMemoryType = hipMemoryTypeArray, c.dstArray = arr;
    c.WidthInBytes = AX * 4, c.Height = AY, c.Depth = AZ;
    HIP_CHECK(hipDrvMemcpy3D(&c));
    memset(&c, 0, sizeof c);
    c.srcMemoryType = hipMemoryTypeHost, c.srcHost = vol.data(), c.srcPitch = VX * 4, c.srcHeight = VY;
    c.srcXInBytes = 2 * 4, c.srcY = 1, c.srcZ = 1;
    c.dstMemoryType = hipMemoryTypeArray, c.dstArray = arr, c.dstXInBytes = 1 * 4, c.dstY = 2, c.dstZ = 0;
    c.WidthInBytes = BX * 4, c.Height = BY, c.Depth = BZ;
    HIP_CHECK(hipDrvMemcpy3D(&c));
    memset(&c, 0, sizeof c);
    c.srcMemoryType = hipMemoryTypeArray, c.srcArray = arr;
    c.dstMemoryType = hipMemoryTypeHost, c.dstHost = out.data(), c.dstPitch = OP * 4, c.dstHeight = OH;
    c.WidthInBytes = AX * 4, c.Height = AY, c.Depth = AZ;
    HIP_CHECK(hipDrvMemcpy3DAsync(&c, 0));
    HIP_CHECK(hipDeviceSynchronize());
    int bad3 = 0;
    for (int z = 0; z < AZ; z++)
      for (int y = 0; y < OH; y++)
        for (int x = 0; x < OP; x++) {
          int got = out[(z * OH + y) * OP + x], want;
          if (x >= AX || y >= AY) want = -7;   // padding of the host side
          else if (x >= 1 && x < 1 + BX && y >= 2 && y < 2 + BY && z < BZ)
            want = vol[((z + 1) * VY + (y - 2 + 1)) * VX + (x - 1 + 2)];
          else want = 0;
          if (got != want && bad3++ < 5) fprintf(stderr, "3D (%d,%d,%d): %d, want %d\n", x, y, z, got, want);
        }
    EXPECT(bad3 == 0, "hipDrvMemcpy3D: %d values differ", bad3);
    HIP_CHECK(hipFreeArray(arr));
  }
  return ht_finish("memory2d");
}
