// Texture and surface objects in kernels (the MIMG instructions): an 8 x 6 float array
// img[y][x] = 10y + x (+ 0.25 for odd x);
//   tex2D<float> with point filtering and unnormalized coordinates at texel centres -> img;
//   tex2D<float> with linear filtering at quarter-texel coordinates (clamp) -> the bilinear C
//   reference (exact at these weights);
//   tex2D<float> with normalized coordinates and wrap, coordinates past 1 -> the wrapped texel;
//   surf2Dwrite<float>(2 * img + 1) into a second array, read back with hipMemcpy2DFromArray, and
//   surf2Dread of it in a kernel -> 2 * img + 1;
//   a uchar4 array read through a texture with sRGB set (and normalized floats): colour decoded
//   to linear by IEC 61966-2-1, alpha linear; sRGB without normalized floats is hipErrorInvalidValue
//   (as ROCm: no CL_sRGBA format of 8-bit integers); a one-channel uchar texture ignores the flag;
//   maxAnisotropy 4, a mipmap level bias or a level clamp -> hipErrorNotSupported (as ROCm 5.2).
// Registered in CTest once the tree has the MIMG executor (tests/hip/CMakeLists.txt).
#include "hip_test.h"
#include <cmath>
#include <vector>

enum { W = 8, H = 6, N = 64 };

__global__ void sample(hipTextureObject_t t, const float2 *c, float *out)
{
  int i = threadIdx.x;
  out[i] = tex2D<float>(t, c[i].x, c[i].y);
}

__global__ void write_surface(hipSurfaceObject_t s, hipTextureObject_t t)
{
  int x = threadIdx.x, y = threadIdx.y;
  surf2Dwrite(2.0f * tex2D<float>(t, x + 0.5f, y + 0.5f) + 1.0f, s, x * (int)sizeof(float), y);
}

__global__ void read_surface(hipSurfaceObject_t s, float *out)
{
  int x = threadIdx.x, y = threadIdx.y;
  float v;
  surf2Dread(&v, s, x * (int)sizeof(float), y);
  out[y * W + x] = v;
}

__global__ void sample4(hipTextureObject_t t, float4 *out)
{
  int x = threadIdx.x, y = threadIdx.y;
  out[y * W + x] = tex2D<float4>(t, x + 0.5f, y + 0.5f);
}

__global__ void sample1(hipTextureObject_t t, float *out)
{
  int x = threadIdx.x, y = threadIdx.y;
  out[y * W + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

static double srgb_decode(int b)
{
  double c = b / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

static void srgb_textures()
{
  std::vector<uchar4> px(W * H);
  for (int i = 0; i < W * H; i++)
    px[i] = make_uchar4((unsigned char)(i * 37 + 3), (unsigned char)(i * 11 + 200), (unsigned char)(i * 5), (unsigned char)(255 - i));
  // explicitly unsigned: Debian's HIP 5.2.3 header gives hipCreateChannelDesc<uchar4>() the kind
  // hipChannelFormatKindSigned (so its normalized reads are SNORM, on ROCm as here)
  hipChannelFormatDesc fd = hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindUnsigned);
  hipArray_t a = nullptr;
  HIP_CHECK(hipMallocArray(&a, &fd, W, H, 0));
  HIP_CHECK(hipMemcpy2DToArray(a, 0, 0, px.data(), W * 4, W * 4, H, hipMemcpyHostToDevice));
  hipResourceDesc rd = {};
  rd.resType = hipResourceTypeArray;
  rd.res.array.array = a;
  hipTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = hipAddressModeClamp;
  td.sRGB = 1;
  td.readMode = hipReadModeElementType;
  hipTextureObject_t t = 0;
  EXPECT(hipCreateTextureObject(&t, &rd, &td, nullptr) == hipErrorInvalidValue, "sRGB with element reads accepted");
  td.readMode = hipReadModeNormalizedFloat;
  HIP_CHECK(hipCreateTextureObject(&t, &rd, &td, nullptr));
  float4 *d = nullptr;
  HIP_CHECK(hipMalloc(&d, W * H * sizeof(float4)));
  hipLaunchKernelGGL(sample4, dim3(1), dim3(W, H), 0, 0, t, d);
  std::vector<float4> got(W * H);
  HIP_CHECK(hipMemcpy(got.data(), d, W * H * sizeof(float4), hipMemcpyDeviceToHost));
  for (int i = 0; i < W * H; i++) {
    float want[4] = { (float)srgb_decode(px[i].x), (float)srgb_decode(px[i].y), (float)srgb_decode(px[i].z),
                      (float)(px[i].w / 255.0) };
    float g[4] = { got[i].x, got[i].y, got[i].z, got[i].w };
    for (int c = 0; c < 4; c++) EXPECT(g[c] == want[c], "sRGB texel %d.%d = %.9g, want %.9g", i, c, g[c], want[c]);
  }
  HIP_CHECK(hipDestroyTextureObject(t));
  HIP_CHECK(hipFreeArray(a));
  // one channel: the flag is ignored (ROCm maps one and two channels to CL_R / CL_RG)
  std::vector<unsigned char> one(W * H);
  for (int i = 0; i < W * H; i++) one[i] = (unsigned char)(i * 41 + 7);
  hipChannelFormatDesc f1 = hipCreateChannelDesc<unsigned char>();
  HIP_CHECK(hipMallocArray(&a, &f1, W, H, 0));
  HIP_CHECK(hipMemcpy2DToArray(a, 0, 0, one.data(), W, W, H, hipMemcpyHostToDevice));
  rd.res.array.array = a;
  // what ROCm 5.2's sampler cannot hold is refused as there (hipErrorNotSupported), not ignored
  hipTextureDesc refused = td;
  refused.maxAnisotropy = 4;
  EXPECT(hipCreateTextureObject(&t, &rd, &refused, nullptr) == hipErrorNotSupported, "maxAnisotropy 4 accepted");
  refused = td;
  refused.mipmapLevelBias = 0.5f;
  EXPECT(hipCreateTextureObject(&t, &rd, &refused, nullptr) == hipErrorNotSupported, "a mipmap level bias accepted");
  refused = td;
  refused.maxMipmapLevelClamp = 3.0f;
  EXPECT(hipCreateTextureObject(&t, &rd, &refused, nullptr) == hipErrorNotSupported, "a mipmap level clamp accepted");
  HIP_CHECK(hipCreateTextureObject(&t, &rd, &td, nullptr));
  float *d1 = nullptr;
  HIP_CHECK(hipMalloc(&d1, W * H * sizeof(float)));
  hipLaunchKernelGGL(sample1, dim3(1), dim3(W, H), 0, 0, t, d1);
  std::vector<float> g1(W * H);
  HIP_CHECK(hipMemcpy(g1.data(), d1, W * H * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < W * H; i++) EXPECT(g1[i] == (float)(one[i] / 255.0), "R8 texel %d = %.9g", i, g1[i]);
  HIP_CHECK(hipDestroyTextureObject(t));
  HIP_CHECK(hipFreeArray(a));
  HIP_CHECK(hipFree(d));
  HIP_CHECK(hipFree(d1));
}

static float texel(const std::vector<float> &img, int x, int y)
{
  x = x < 0 ? 0 : x >= W ? W - 1 : x;
  y = y < 0 ? 0 : y >= H ? H - 1 : y;
  return img[y * W + x];
}

int main()
{
  std::vector<float> img(W * H);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) img[y * W + x] = 10.0f * y + x + (x & 1 ? 0.25f : 0.0f);
  hipChannelFormatDesc fd = hipCreateChannelDesc<float>();
  hipArray_t a = nullptr, b = nullptr;
  HIP_CHECK(hipMallocArray(&a, &fd, W, H, 0));
  HIP_CHECK(hipMallocArray(&b, &fd, W, H, hipArraySurfaceLoadStore));
  HIP_CHECK(hipMemcpy2DToArray(a, 0, 0, img.data(), W * sizeof(float), W * sizeof(float), H, hipMemcpyHostToDevice));
  hipResourceDesc rd = {};
  rd.resType = hipResourceTypeArray;
  rd.res.array.array = a;
  float2 *dc = nullptr;
  float *dout = nullptr;
  HIP_CHECK(hipMalloc(&dc, N * sizeof(float2)));
  HIP_CHECK(hipMalloc(&dout, W * H * sizeof(float)));
  std::vector<float2> c(N);
  std::vector<float> out(W * H);

  struct { hipTextureFilterMode filter; int norm; hipTextureAddressMode am; } modes[] = {
    { hipFilterModePoint, 0, hipAddressModeClamp },
    { hipFilterModeLinear, 0, hipAddressModeClamp },
    { hipFilterModePoint, 1, hipAddressModeWrap },
  };
  for (auto &m : modes) {
    hipTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = m.am;
    td.filterMode = m.filter;
    td.normalizedCoords = m.norm;
    hipTextureObject_t t = 0;
    HIP_CHECK(hipCreateTextureObject(&t, &rd, &td, nullptr));
    for (int i = 0; i < N; i++) {
      float x = m.filter == hipFilterModeLinear ? -0.5f + 0.25f * (i % 16) * 2.5f : (i % W) + 0.5f + (m.norm ? W : 0);
      float y = m.filter == hipFilterModeLinear ? 0.25f + 1.25f * (i / 16) : (i / W % H) + 0.5f;
      c[i] = m.norm ? make_float2(x / W, y / H) : make_float2(x, y);
    }
    HIP_CHECK(hipMemcpy(dc, c.data(), N * sizeof(float2), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(sample, dim3(1), dim3(N), 0, 0, t, dc, dout);
    std::vector<float> got(N);
    HIP_CHECK(hipMemcpy(got.data(), dout, N * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
      float x = m.norm ? c[i].x * W : c[i].x, y = m.norm ? c[i].y * H : c[i].y, want;
      if (m.filter == hipFilterModePoint) {
        int ix = (int)floorf(x), iy = (int)floorf(y);
        if (m.norm) ix = ((ix % W) + W) % W, iy = ((iy % H) + H) % H;
        want = texel(img, ix, iy);
      } else {
        float fx = x - 0.5f, fy = y - 0.5f;
        int i0 = (int)floorf(fx), j0 = (int)floorf(fy);
        float p = fx - floorf(fx), q = fy - floorf(fy);
        want = (1 - p) * (1 - q) * texel(img, i0, j0) + p * (1 - q) * texel(img, i0 + 1, j0) +
               (1 - p) * q * texel(img, i0, j0 + 1) + p * q * texel(img, i0 + 1, j0 + 1);
      }
      EXPECT(fabsf(got[i] - want) <= 1e-5f * (1 + fabsf(want)), "filter %d norm %d: tex2D(%g, %g) = %g, want %g",
             (int)m.filter, m.norm, c[i].x, c[i].y, got[i], want);
    }
    HIP_CHECK(hipDestroyTextureObject(t));
  }

  // surfaces
  hipTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = hipAddressModeClamp;
  hipTextureObject_t t = 0;
  HIP_CHECK(hipCreateTextureObject(&t, &rd, &td, nullptr));
  hipResourceDesc sd = {};
  sd.resType = hipResourceTypeArray;
  sd.res.array.array = b;
  hipSurfaceObject_t s = 0;
  HIP_CHECK(hipCreateSurfaceObject(&s, &sd));
  hipLaunchKernelGGL(write_surface, dim3(1), dim3(W, H), 0, 0, s, t);
  HIP_CHECK(hipMemcpy2DFromArray(out.data(), W * sizeof(float), b, 0, 0, W * sizeof(float), H, hipMemcpyDeviceToHost));
  for (int i = 0; i < W * H; i++) EXPECT(out[i] == 2 * img[i] + 1, "surf2Dwrite [%d] = %g, want %g", i, out[i], 2 * img[i] + 1);
  hipLaunchKernelGGL(read_surface, dim3(1), dim3(W, H), 0, 0, s, dout);
  HIP_CHECK(hipMemcpy(out.data(), dout, W * H * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < W * H; i++) EXPECT(out[i] == 2 * img[i] + 1, "surf2Dread [%d] = %g, want %g", i, out[i], 2 * img[i] + 1);
  HIP_CHECK(hipDestroySurfaceObject(s));
  HIP_CHECK(hipDestroyTextureObject(t));
  HIP_CHECK(hipFreeArray(a));
  HIP_CHECK(hipFreeArray(b));
  HIP_CHECK(hipFree(dc));
  HIP_CHECK(hipFree(dout));
  srgb_textures();
  return ht_finish("textures");
}
