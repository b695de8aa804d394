// Texture references (`texture<T, dim, mode>` variables, CUDA's deprecated texture API that
// hipified programs use), checked against the host's own arrays:
//  * texture<float, 2> bound to a 16 x 8 array (hipBindTextureToArray), point sampling, wrap
//    addressing, unnormalized coordinates: tex2D(x + 0.5, y + 0.5) = a[y][x]; at x = -1 (wrap)
//    a[y][15];
//  * texture<int, 1> bound to linear memory (hipBindTexture): tex1Dfetch(i) = v[i]; bound at
//    v + 1 (4 bytes past a 256-byte boundary) it reports offset 4 (hipBindTexture's and
//    hipGetTextureAlignmentOffset's) and tex1Dfetch(i + offset / 4) = v[i + 1]; without a place for
//    the offset the unaligned bind is hipErrorInvalidValue;
//  * texture<float, 2> over pitched memory (hipBindTexture2D, pitch from hipMallocPitch);
//  * texture<float, hipTextureType2DLayered> over a layered array: tex2DLayered(x, y, l) =
//    a[l][y][x];
//  * hipGetTextureReference returns the variable itself; hipUnbindTexture clears the device
//    copy's textureObject (read back with hipMemcpyFromSymbol); a pointer that is no texture
//    reference is refused.
#include "hip_test.h"
#include <vector>

texture<float, 2, hipReadModeElementType> tex_arr;
texture<int, 1, hipReadModeElementType> tex_lin;
texture<float, 2, hipReadModeElementType> tex_pitch;
texture<float, hipTextureType2DLayered> tex_layers;

enum { W = 16, H = 8, L = 3, N = 256 };

__global__ void read2d(float *out, int wrap)
{
  int x = threadIdx.x, y = blockIdx.x;
  out[y * W + x] = tex2D(tex_arr, (x - wrap) + 0.5f, y + 0.5f);
}

__global__ void read_pitch(float *out)
{
  int x = threadIdx.x, y = blockIdx.x;
  out[y * W + x] = tex2D(tex_pitch, x + 0.5f, y + 0.5f);
}

__global__ void read_layers(float *out)
{
  int x = threadIdx.x, y = blockIdx.x, l = blockIdx.y;
  out[(l * H + y) * W + x] = tex2DLayered(tex_layers, x + 0.5f, y + 0.5f, l);
}

__global__ void fetch(int *out, int shift)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex1Dfetch(tex_lin, i + shift);
}

int main()
{
  float a[H][W], layers[L][H][W];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      a[y][x] = y * 100.0f + x;
      for (int l = 0; l < L; l++) layers[l][y][x] = l * 1000.0f + y * 10.0f + x;
    }
  float *out;
  HIP_CHECK(hipMalloc(&out, L * H * W * sizeof(float)));
  std::vector<float> h(L * H * W);

  // 2D array
  hipChannelFormatDesc fd = hipCreateChannelDesc<float>();
  hipArray *arr;
  HIP_CHECK(hipMallocArray(&arr, &fd, W, H));
  HIP_CHECK(hipMemcpy2DToArray(arr, 0, 0, a, W * sizeof(float), W * sizeof(float), H, hipMemcpyHostToDevice));
  tex_arr.addressMode[0] = tex_arr.addressMode[1] = hipAddressModeWrap;
  tex_arr.filterMode = hipFilterModePoint;
  tex_arr.normalized = 0;
  HIP_CHECK(hipBindTextureToArray(tex_arr, arr, fd));
  for (int wrap = 0; wrap <= 1; wrap++) {
    hipLaunchKernelGGL(read2d, dim3(H), dim3(W), 0, 0, out, wrap);
    HIP_CHECK(hipMemcpy(h.data(), out, H * W * sizeof(float), hipMemcpyDeviceToHost));
    int bad = 0;
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) bad += h[y * W + x] != a[y][(x - wrap + W) % W];
    EXPECT(bad == 0, "array texture (shift %d): %d wrong, [0][0] = %g", wrap, bad, h[0]);
  }

  // linear memory, aligned and 4 bytes past the boundary
  int *v, hv[N + 64];
  for (int i = 0; i < N + 64; i++) hv[i] = 3 * i + 1;
  HIP_CHECK(hipMalloc(&v, (N + 64) * sizeof(int)));
  HIP_CHECK(hipMemcpy(v, hv, sizeof hv, hipMemcpyHostToDevice));
  int *iout;
  HIP_CHECK(hipMalloc(&iout, N * sizeof(int)));
  std::vector<int> hi(N);
  size_t offset = 99;
  HIP_CHECK(hipBindTexture(&offset, tex_lin, v, N * sizeof(int)));
  EXPECT(offset == 0, "aligned bind offset %zu", offset);
  hipLaunchKernelGGL(fetch, dim3(N / 64), dim3(64), 0, 0, iout, 0);
  HIP_CHECK(hipMemcpy(hi.data(), iout, N * sizeof(int), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < N; i++) bad += hi[i] != hv[i];
  EXPECT(bad == 0, "tex1Dfetch: %d wrong", bad);
  HIP_CHECK(hipBindTexture(&offset, tex_lin, v + 1, N * sizeof(int)));
  size_t off2 = 0;
  HIP_CHECK(hipGetTextureAlignmentOffset(&off2, &tex_lin));
  EXPECT(offset == 4 && off2 == 4, "unaligned bind offset %zu, %zu", offset, off2);
  hipLaunchKernelGGL(fetch, dim3(N / 64), dim3(64), 0, 0, iout, (int)(offset / sizeof(int)));
  HIP_CHECK(hipMemcpy(hi.data(), iout, N * sizeof(int), hipMemcpyDeviceToHost));
  bad = 0;
  for (int i = 0; i < N; i++) bad += hi[i] != hv[i + 1];
  EXPECT(bad == 0, "tex1Dfetch after an unaligned bind: %d wrong, [0] = %d", bad, hi[0]);
  EXPECT_ERR(hipBindTexture(nullptr, &tex_lin, v + 1, &tex_lin.channelDesc, N * sizeof(int)), hipErrorInvalidValue,
             hipErrorInvalidValue);

  // pitched memory
  float *pm;
  size_t pitch;
  HIP_CHECK(hipMallocPitch((void **)&pm, &pitch, W * sizeof(float), H));
  HIP_CHECK(hipMemcpy2D(pm, pitch, a, W * sizeof(float), W * sizeof(float), H, hipMemcpyHostToDevice));
  HIP_CHECK(hipBindTexture2D(nullptr, tex_pitch, pm, fd, W, H, pitch));
  hipLaunchKernelGGL(read_pitch, dim3(H), dim3(W), 0, 0, out);
  HIP_CHECK(hipMemcpy(h.data(), out, H * W * sizeof(float), hipMemcpyDeviceToHost));
  bad = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) bad += h[y * W + x] != a[y][x];
  EXPECT(bad == 0, "pitched texture: %d wrong", bad);

  // layered array
  hipArray *larr;
  HIP_CHECK(hipMalloc3DArray(&larr, &fd, make_hipExtent(W, H, L), hipArrayLayered));
  hipMemcpy3DParms p{};
  p.srcPtr = make_hipPitchedPtr(layers, W * sizeof(float), W, H);
  p.dstArray = larr;
  p.extent = make_hipExtent(W, H, L);
  p.kind = hipMemcpyHostToDevice;
  HIP_CHECK(hipMemcpy3D(&p));
  HIP_CHECK(hipBindTextureToArray(tex_layers, larr, fd));
  hipLaunchKernelGGL(read_layers, dim3(H, L), dim3(W), 0, 0, out);
  HIP_CHECK(hipMemcpy(h.data(), out, L * H * W * sizeof(float), hipMemcpyDeviceToHost));
  bad = 0;
  for (int l = 0; l < L; l++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) bad += h[(l * H + y) * W + x] != layers[l][y][x];
  EXPECT(bad == 0, "layered texture: %d wrong", bad);

  // references, unbinding, refusals
  const textureReference *ref = nullptr;
  HIP_CHECK(hipGetTextureReference(&ref, &tex_arr));
  EXPECT(ref == &tex_arr, "hipGetTextureReference %p, want %p", (const void *)ref, (const void *)&tex_arr);
  HIP_CHECK(hipUnbindTexture(tex_arr));
  textureReference dev;
  HIP_CHECK(hipMemcpyFromSymbol(&dev, HIP_SYMBOL(tex_arr), sizeof dev, 0, hipMemcpyDeviceToHost));
  EXPECT(dev.textureObject == nullptr && tex_arr.textureObject == nullptr, "unbound reference still has an object");
  textureReference not_a_var{};
  EXPECT_ERR(hipBindTextureToArray(&not_a_var, arr, &fd), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipGetTextureReference(&ref, &hv[0]), hipErrorInvalidValue, hipErrorInvalidSymbol);

  HIP_CHECK(hipUnbindTexture(tex_lin));
  HIP_CHECK(hipUnbindTexture(tex_pitch));
  HIP_CHECK(hipUnbindTexture(tex_layers));
  HIP_CHECK(hipFreeArray(arr));
  HIP_CHECK(hipFreeArray(larr));
  HIP_CHECK(hipFree(pm));
  HIP_CHECK(hipFree(v));
  HIP_CHECK(hipFree(iout));
  HIP_CHECK(hipFree(out));
  return ht_finish("texref");
}
