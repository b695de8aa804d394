// Arrays and texture objects through HIP's driver API (hipArray3DCreate, hipTexObjectCreate and
// its getters), which convert their HIP_* descriptors to the runtime API's as ROCm 5.2 does:
//   * a 4x3x2 float array from hipArray3DCreate, point-sampled with tex3D at texel centres in
//     unnormalized coordinates: every texel's value;
//   * a 4x3 array of 4 x 8-bit unsigned (Depth 0: 2D), read without HIP_TRSF_READ_AS_INTEGER: the
//     bytes as normalized floats, byte / 255; with HIP_TRSF_NORMALIZED_COORDINATES and
//     coordinates (x + 0.5) / W: the same texels;
//   * a layered array (hipArrayLayered, Depth = 3 layers) read with tex2DLayered: each layer's texels;
//   * linear memory (HIP_RESOURCE_TYPE_LINEAR, HIP_AD_FORMAT_SIGNED_INT32 x 1, read as integer):
//     tex1Dfetch<int> returns the ints;
//   * the getters return the descriptors given (resource type, array, format and channels, size,
//     address and filter modes, flags);
//   * resource views (as ROCm 5.2 makes them: the view's format reinterprets the array's texels):
//     a 4-byte unsigned array viewed as HIP_RES_VIEW_FORMAT_FLOAT_1X32 reads the floats whose bits
//     it holds; the view comes back from hipTexObjectGetResourceViewDesc as given; a view of
//     another texel size and a view of linear memory are hipErrorInvalidValue, a block-compressed
//     one hipErrorNotSupported;
//   * errors: 3 channels and a bad format are hipErrorInvalidValue, the cubemap flag (as ROCm 5.2's
//     driver path) hipErrorNotSupported, null arguments hipErrorInvalidValue.
#include <vector>

#include "hip_test.h"

__global__ void read3d(hipTextureObject_t t, float *out, int w, int h, int d)
{
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  if (x < w && y < h && z < d) out[(z * h + y) * w + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

__global__ void read2d(hipTextureObject_t t, float4 *out, int w, int h, int normalized)
{
  int x = threadIdx.x, y = threadIdx.y;
  if (x >= w || y >= h) return;
  float u = x + 0.5f, v = y + 0.5f;
  if (normalized) u /= w, v /= h;
  out[y * w + x] = tex2D<float4>(t, u, v);
}

__global__ void read_layers(hipTextureObject_t t, float *out, int w, int h, int layers)
{
  int x = threadIdx.x, y = threadIdx.y, l = threadIdx.z;
  if (x < w && y < h && l < layers) out[(l * h + y) * w + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, l);
}

__global__ void fetch_ints(hipTextureObject_t t, int *out, int n)
{
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(t, i);
}

static HIP_TEXTURE_DESC point_clamp(unsigned flags)
{
  HIP_TEXTURE_DESC td;
  memset(&td, 0, sizeof td);
  for (int i = 0; i < 3; i++) td.addressMode[i] = HIP_TR_ADDRESS_MODE_CLAMP;
  td.filterMode = HIP_TR_FILTER_MODE_POINT;
  td.flags = flags;
  return td;
}

static HIP_RESOURCE_DESC array_resource(hipArray *a)
{
  HIP_RESOURCE_DESC rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = HIP_RESOURCE_TYPE_ARRAY;
  rd.res.array.hArray = a;
  return rd;
}

// Copy a host block of w x h x d elements of `bytes` each into an array.
static void fill(hipArray *a, const void *src, size_t w, size_t h, size_t d, size_t bytes)
{
  hipMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_hipPitchedPtr(const_cast<void *>(src), w * bytes, w, h);
  p.dstArray = a;
  p.extent = make_hipExtent(w, h, d);
  p.kind = hipMemcpyHostToDevice;
  HIP_CHECK(hipMemcpy3D(&p));
}

static void volume()
{
  const int W = 4, H = 3, D = 2;
  HIP_ARRAY3D_DESCRIPTOR ad = { W, H, D, HIP_AD_FORMAT_FLOAT, 1, 0 };
  hipArray *a;
  HIP_CHECK(hipArray3DCreate(&a, &ad));
  std::vector<float> v(W * H * D);
  for (int i = 0; i < W * H * D; i++) v[i] = 1.5f * i - 7.0f;
  fill(a, v.data(), W, H, D, sizeof(float));
  HIP_RESOURCE_DESC rd = array_resource(a);
  HIP_TEXTURE_DESC td = point_clamp(0);
  hipTextureObject_t t;
  HIP_CHECK(hipTexObjectCreate(&t, &rd, &td, nullptr));
  float *d;
  HIP_CHECK(hipMalloc(&d, v.size() * sizeof(float)));
  hipLaunchKernelGGL(read3d, dim3(1), dim3(W, H, D), 0, 0, t, d, W, H, D);
  std::vector<float> got(v.size());
  HIP_CHECK(hipMemcpy(got.data(), d, v.size() * sizeof(float), hipMemcpyDeviceToHost));
  for (size_t i = 0; i < v.size(); i++) EXPECT(got[i] == v[i], "tex3D texel %zu = %g, want %g", i, got[i], v[i]);

  HIP_RESOURCE_DESC rg;
  HIP_CHECK(hipTexObjectGetResourceDesc(&rg, t));
  EXPECT(rg.resType == HIP_RESOURCE_TYPE_ARRAY && rg.res.array.hArray == a, "resource type %d, array %p",
         (int)rg.resType, (void *)rg.res.array.hArray);
  HIP_TEXTURE_DESC tg;
  HIP_CHECK(hipTexObjectGetTextureDesc(&tg, t));
  EXPECT(tg.addressMode[0] == HIP_TR_ADDRESS_MODE_CLAMP && tg.addressMode[2] == HIP_TR_ADDRESS_MODE_CLAMP &&
             tg.filterMode == HIP_TR_FILTER_MODE_POINT && tg.flags == 0,
         "texture desc: address %d %d, filter %d, flags 0x%x", (int)tg.addressMode[0], (int)tg.addressMode[2],
         (int)tg.filterMode, tg.flags);
  HIP_RESOURCE_VIEW_DESC vg;
  HIP_CHECK(hipTexObjectGetResourceViewDesc(&vg, t));
  EXPECT(vg.format == HIP_RES_VIEW_FORMAT_NONE && vg.width == 0, "view format %d", (int)vg.format);
  HIP_CHECK(hipTexObjectDestroy(t));
  HIP_CHECK(hipArrayDestroy(a));
  HIP_CHECK(hipFree(d));
}

static void bytes_2d()
{
  const int W = 4, H = 3;
  HIP_ARRAY3D_DESCRIPTOR ad = { W, H, 0, HIP_AD_FORMAT_UNSIGNED_INT8, 4, 0 };
  hipArray *a;
  HIP_CHECK(hipArray3DCreate(&a, &ad));
  std::vector<unsigned char> px(W * H * 4);
  for (size_t i = 0; i < px.size(); i++) px[i] = (unsigned char)(i * 37 + 11);
  fill(a, px.data(), W, H, 1, 4);
  HIP_RESOURCE_DESC rd = array_resource(a);
  float4 *d;
  HIP_CHECK(hipMalloc(&d, W * H * sizeof(float4)));
  for (int normalized = 0; normalized < 2; normalized++) {
    HIP_TEXTURE_DESC td = point_clamp(normalized ? HIP_TRSF_NORMALIZED_COORDINATES : 0);
    hipTextureObject_t t;
    HIP_CHECK(hipTexObjectCreate(&t, &rd, &td, nullptr));
    hipLaunchKernelGGL(read2d, dim3(1), dim3(W, H), 0, 0, t, d, W, H, normalized);
    std::vector<float4> got(W * H);
    HIP_CHECK(hipMemcpy(got.data(), d, W * H * sizeof(float4), hipMemcpyDeviceToHost));
    for (int i = 0; i < W * H; i++) {
      const float g[4] = { got[i].x, got[i].y, got[i].z, got[i].w };
      for (int c = 0; c < 4; c++) {
        float want = px[i * 4 + c] / 255.0f;
        EXPECT(fabsf(g[c] - want) <= 1e-7f, "normalized %d texel %d channel %d = %.9g, want %.9g", normalized, i, c,
               g[c], want);
      }
    }
    HIP_TEXTURE_DESC tg;
    HIP_CHECK(hipTexObjectGetTextureDesc(&tg, t));
    EXPECT(tg.flags == td.flags, "flags 0x%x, want 0x%x", tg.flags, td.flags);
    HIP_CHECK(hipTexObjectDestroy(t));
  }
  HIP_CHECK(hipArrayDestroy(a));
  HIP_CHECK(hipFree(d));
}

static void layers()
{
  const int W = 3, H = 2, L = 3;
  HIP_ARRAY3D_DESCRIPTOR ad = { W, H, L, HIP_AD_FORMAT_FLOAT, 1, hipArrayLayered };
  hipArray *a;
  HIP_CHECK(hipArray3DCreate(&a, &ad));
  std::vector<float> v(W * H * L);
  for (int i = 0; i < W * H * L; i++) v[i] = 100.0f + i;
  fill(a, v.data(), W, H, L, sizeof(float));
  HIP_RESOURCE_DESC rd = array_resource(a);
  HIP_TEXTURE_DESC td = point_clamp(0);
  hipTextureObject_t t;
  HIP_CHECK(hipTexObjectCreate(&t, &rd, &td, nullptr));
  float *d;
  HIP_CHECK(hipMalloc(&d, v.size() * sizeof(float)));
  hipLaunchKernelGGL(read_layers, dim3(1), dim3(W, H, L), 0, 0, t, d, W, H, L);
  std::vector<float> got(v.size());
  HIP_CHECK(hipMemcpy(got.data(), d, v.size() * sizeof(float), hipMemcpyDeviceToHost));
  for (size_t i = 0; i < v.size(); i++) EXPECT(got[i] == v[i], "tex2DLayered texel %zu = %g, want %g", i, got[i], v[i]);
  HIP_CHECK(hipTexObjectDestroy(t));
  HIP_CHECK(hipArrayDestroy(a));
  HIP_CHECK(hipFree(d));
}

static void linear_ints()
{
  const int N = 64;
  std::vector<int> v(N);
  for (int i = 0; i < N; i++) v[i] = i * i - 1000;
  int *buf, *d;
  HIP_CHECK(hipMalloc(&buf, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&d, N * sizeof(int)));
  HIP_CHECK(hipMemcpy(buf, v.data(), N * sizeof(int), hipMemcpyHostToDevice));
  HIP_RESOURCE_DESC rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = HIP_RESOURCE_TYPE_LINEAR;
  rd.res.linear.devPtr = buf;
  rd.res.linear.format = HIP_AD_FORMAT_SIGNED_INT32;
  rd.res.linear.numChannels = 1;
  rd.res.linear.sizeInBytes = N * sizeof(int);
  HIP_TEXTURE_DESC td = point_clamp(HIP_TRSF_READ_AS_INTEGER);
  hipTextureObject_t t;
  HIP_CHECK(hipTexObjectCreate(&t, &rd, &td, nullptr));
  hipLaunchKernelGGL(fetch_ints, dim3(1), dim3(N), 0, 0, t, d, N);
  std::vector<int> got(N);
  HIP_CHECK(hipMemcpy(got.data(), d, N * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) EXPECT(got[i] == v[i], "tex1Dfetch<int> [%d] = %d, want %d", i, got[i], v[i]);
  HIP_RESOURCE_DESC rg;
  HIP_CHECK(hipTexObjectGetResourceDesc(&rg, t));
  EXPECT(rg.resType == HIP_RESOURCE_TYPE_LINEAR && rg.res.linear.devPtr == buf &&
             rg.res.linear.format == HIP_AD_FORMAT_SIGNED_INT32 && rg.res.linear.numChannels == 1 &&
             rg.res.linear.sizeInBytes == N * sizeof(int),
         "linear resource: type %d, format 0x%x, %u channels, %zu bytes", (int)rg.resType,
         (unsigned)rg.res.linear.format, rg.res.linear.numChannels, rg.res.linear.sizeInBytes);
  HIP_TEXTURE_DESC tg;
  HIP_CHECK(hipTexObjectGetTextureDesc(&tg, t));
  EXPECT(tg.flags == HIP_TRSF_READ_AS_INTEGER, "flags 0x%x", tg.flags);
  HIP_CHECK(hipTexObjectDestroy(t));
  HIP_CHECK(hipFree(buf));
  HIP_CHECK(hipFree(d));
}

__global__ void read1d(hipTextureObject_t t, float *out, int n)
{
  int i = threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, i + 0.5f);
}

static void views()
{
  const int N = 16;
  HIP_ARRAY3D_DESCRIPTOR ad = { N, 0, 0, HIP_AD_FORMAT_UNSIGNED_INT32, 1, 0 };
  hipArray *a;
  HIP_CHECK(hipArray3DCreate(&a, &ad));
  std::vector<float> f(N);
  for (int i = 0; i < N; i++) f[i] = 0.75f * i - 3.0f;   // stored as their bits in the uint array
  HIP_CHECK(hipMemcpyHtoA(a, 0, f.data(), N * sizeof(float)));
  HIP_RESOURCE_DESC rd = array_resource(a);
  HIP_TEXTURE_DESC td = point_clamp(HIP_TRSF_READ_AS_INTEGER);
  HIP_RESOURCE_VIEW_DESC view;
  memset(&view, 0, sizeof view);
  view.format = HIP_RES_VIEW_FORMAT_FLOAT_1X32;
  view.width = N;
  hipTextureObject_t t;
  HIP_CHECK(hipTexObjectCreate(&t, &rd, &td, &view));
  float *d;
  HIP_CHECK(hipMalloc(&d, N * sizeof(float)));
  hipLaunchKernelGGL(read1d, dim3(1), dim3(N), 0, 0, t, d, N);
  std::vector<float> got(N);
  HIP_CHECK(hipMemcpy(got.data(), d, N * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) EXPECT(got[i] == f[i], "viewed texel %d = %g, want %g", i, got[i], f[i]);
  HIP_RESOURCE_VIEW_DESC vg;
  HIP_CHECK(hipTexObjectGetResourceViewDesc(&vg, t));
  EXPECT(vg.format == HIP_RES_VIEW_FORMAT_FLOAT_1X32 && vg.width == (size_t)N, "view format %d width %zu",
         (int)vg.format, vg.width);
  HIP_CHECK(hipTexObjectDestroy(t));

  view.format = HIP_RES_VIEW_FORMAT_FLOAT_2X32;   // 8-byte texels over 4-byte ones
  EXPECT_ERR(hipTexObjectCreate(&t, &rd, &td, &view), hipErrorInvalidValue, hipErrorInvalidValue);
  view.format = HIP_RES_VIEW_FORMAT_UNSIGNED_BC1;
  EXPECT_ERR(hipTexObjectCreate(&t, &rd, &td, &view), hipErrorNotSupported, hipErrorNotSupported);
  HIP_RESOURCE_DESC lin;
  memset(&lin, 0, sizeof lin);
  lin.resType = HIP_RESOURCE_TYPE_LINEAR;
  lin.res.linear.devPtr = d;
  lin.res.linear.format = HIP_AD_FORMAT_FLOAT;
  lin.res.linear.numChannels = 1;
  lin.res.linear.sizeInBytes = N * sizeof(float);
  view.format = HIP_RES_VIEW_FORMAT_FLOAT_1X32;
  EXPECT_ERR(hipTexObjectCreate(&t, &lin, &td, &view), hipErrorInvalidValue, hipErrorInvalidValue);
  HIP_CHECK(hipArrayDestroy(a));
  HIP_CHECK(hipFree(d));
}

static void errors()
{
  hipArray *a = nullptr;
  HIP_ARRAY3D_DESCRIPTOR three = { 4, 4, 0, HIP_AD_FORMAT_FLOAT, 3, 0 };
  EXPECT_ERR(hipArray3DCreate(&a, &three), hipErrorInvalidValue, hipErrorInvalidValue);
  HIP_ARRAY3D_DESCRIPTOR bad = { 4, 4, 0, (hipArray_Format)0x7f, 1, 0 };
  EXPECT_ERR(hipArray3DCreate(&a, &bad), hipErrorInvalidValue, hipErrorInvalidValue);
  HIP_ARRAY3D_DESCRIPTOR cube = { 4, 4, 6, HIP_AD_FORMAT_FLOAT, 1, hipArrayCubemap };
  EXPECT_ERR(hipArray3DCreate(&a, &cube), hipErrorNotSupported, hipErrorNotSupported);
  EXPECT_ERR(hipArray3DCreate(&a, nullptr), hipErrorInvalidValue, hipErrorInvalidValue);

  HIP_ARRAY3D_DESCRIPTOR ad = { 4, 4, 0, HIP_AD_FORMAT_FLOAT, 1, 0 };
  HIP_CHECK(hipArray3DCreate(&a, &ad));
  HIP_RESOURCE_DESC rd = array_resource(a);
  HIP_TEXTURE_DESC td = point_clamp(0);
  hipTextureObject_t t;
  EXPECT_ERR(hipTexObjectCreate(nullptr, &rd, &td, nullptr), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipTexObjectCreate(&t, nullptr, &td, nullptr), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipTexObjectCreate(&t, &rd, nullptr, nullptr), hipErrorInvalidValue, hipErrorInvalidValue);
  HIP_RESOURCE_DESC three_ch = rd;
  three_ch.resType = HIP_RESOURCE_TYPE_LINEAR;
  three_ch.res.linear.format = HIP_AD_FORMAT_FLOAT;
  three_ch.res.linear.numChannels = 3;
  EXPECT_ERR(hipTexObjectCreate(&t, &three_ch, &td, nullptr), hipErrorInvalidValue, hipErrorInvalidValue);
  HIP_RESOURCE_DESC got;
  EXPECT_ERR(hipTexObjectGetResourceDesc(&got, nullptr), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipTexObjectGetResourceDesc(nullptr, (hipTextureObject_t)&rd), hipErrorInvalidValue, hipErrorInvalidValue);
  HIP_CHECK(hipArrayDestroy(a));
}

int main()
{
  volume();
  bytes_2d();
  layers();
  linear_ints();
  views();
  errors();
  return ht_finish("driver_textures");
}
