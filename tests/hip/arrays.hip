// Arrays, texture objects and surface objects on what runs without the MIMG instructions.
//   hipMallocArray float2 37 x 5: hipGetChannelDesc (32, 32, 0, 0, float), the hipArray fields;
//   hipMemcpy2DToArray of img[y][x] = (1000y + x, -y) from a host pitch of 40 float2, then
//   hipMemcpy2DFromArray of the 3 x 2 block at byte 8 (x 1), row 2 -> exactly those values;
//   hipMemcpyToArray of 50 floats into a 1D float array of 64 from element 10 and
//   hipMemcpyFromArray of all 64 back (untouched elements keep a first full copy);
//   hipMemcpyHtoA of 13 floats at byte 20 of a 2D float array of 6 x 4 (crossing rows 0-2) and
//   hipMemcpyAtoH of all 24 back, then of 5 floats from byte 36: the array's rows end to end;
//   AtoH past the array's end -> hipErrorInvalidValue, into a 3D array -> hipErrorNotSupported;
//   a region outside the array -> hipErrorInvalidValue; hipFreeArray twice -> hipErrorInvalidValue;
//   hipArrayCreate (driver form: 4 x uint8, 16 x 4): Format and NumChannels.
//   A texture object over linear memory (resType Linear, 1000 x uchar4, normalized-float reads;
//   4 bytes off the 256-byte textureAlignment -> hipErrorInvalidValue, as CLR checks):
//   tex1Dfetch<float4>(t, i) = bytes / 255 in RGBA order; element-type reads of int: the ints;
//   hipGetTextureObjectResourceDesc / TextureDesc return what was given.
//   A surface object of a 2D array: created and destroyed; a texture object of an array.
//   hipMemcpy3D into a 6 x 4 x 3 float array and the 3 x 2 x 2 box at element (2, 1, 1) back; a box
//   past the width -> hipErrorInvalidValue; hipMemcpyParam2D into a layered array at (1 float, row 1).
//   hipMalloc3DArray with hipArrayCubemap -> hipErrorNotSupported (a valid flag umbra does not
//   offer), with an unknown flag bit -> hipErrorInvalidValue.
#include "hip_test.h"
#include <vector>

__global__ void fetch_f4(hipTextureObject_t t, float4 *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float4>(t, i);
}

__global__ void fetch_i(hipTextureObject_t t, int *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(t, i);
}

int main()
{
  // ---- 2D array of float2
  enum { W = 37, H = 5, HP = 40 };
  hipChannelFormatDesc cd = hipCreateChannelDesc<float2>();
  hipArray_t a = nullptr;
  HIP_CHECK(hipMallocArray(&a, &cd, W, H));
  hipChannelFormatDesc got_cd;
  HIP_CHECK(hipGetChannelDesc(&got_cd, a));
  EXPECT(got_cd.x == 32 && got_cd.y == 32 && got_cd.z == 0 && got_cd.w == 0 && got_cd.f == hipChannelFormatKindFloat,
         "channel desc %d %d %d %d %d", got_cd.x, got_cd.y, got_cd.z, got_cd.w, (int)got_cd.f);
  EXPECT(a->width == W && a->height == H && a->NumChannels == 2 && a->Format == HIP_AD_FORMAT_FLOAT,
         "array fields %u %u %u %d", a->width, a->height, a->NumChannels, (int)a->Format);
  std::vector<float2> img(HP * H);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < HP; x++) img[y * HP + x] = make_float2(1000.0f * y + x, -(float)y);
  HIP_CHECK(hipMemcpy2DToArray(a, 0, 0, img.data(), HP * sizeof(float2), W * sizeof(float2), H, hipMemcpyHostToDevice));
  float2 block[2][3];
  HIP_CHECK(hipMemcpy2DFromArray(block, 3 * sizeof(float2), a, 1 * sizeof(float2), 2, 3 * sizeof(float2), 2,
                                 hipMemcpyDeviceToHost));
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 3; x++)
      EXPECT(block[y][x].x == 1000.0f * (2 + y) + 1 + x && block[y][x].y == -(float)(2 + y), "block (%d,%d) = %g %g", x,
             y, block[y][x].x, block[y][x].y);
  EXPECT_ERR(hipMemcpy2DToArray(a, 0, 3, img.data(), HP * sizeof(float2), W * sizeof(float2), H, hipMemcpyHostToDevice),
             hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipMemcpy2DFromArray(block, 3 * sizeof(float2), a, 36 * sizeof(float2), 0, 2 * sizeof(float2), 1,
                                  hipMemcpyDeviceToHost), hipErrorInvalidValue, hipErrorInvalidValue);

  // ---- a texture object of the array, and a surface object
  hipResourceDesc rd = {};
  rd.resType = hipResourceTypeArray;
  rd.res.array.array = a;
  hipTextureDesc td = {};
  td.addressMode[0] = hipAddressModeClamp;
  td.filterMode = hipFilterModePoint;
  td.readMode = hipReadModeElementType;
  hipTextureObject_t ta = 0;
  HIP_CHECK(hipCreateTextureObject(&ta, &rd, &td, nullptr));
  EXPECT(ta != 0, "texture object 0");
  hipSurfaceObject_t sa = 0;
  HIP_CHECK(hipCreateSurfaceObject(&sa, &rd));
  EXPECT(sa != 0, "surface object 0");
  HIP_CHECK(hipDestroySurfaceObject(sa));
  HIP_CHECK(hipDestroyTextureObject(ta));
  HIP_CHECK(hipFreeArray(a));
  EXPECT_ERR(hipFreeArray(a), hipErrorInvalidValue, hipErrorInvalidValue);

  // ---- 1D array, linear copies
  hipChannelFormatDesc fd = hipCreateChannelDesc<float>();
  hipArray_t l = nullptr;
  HIP_CHECK(hipMallocArray(&l, &fd, 64, 0));
  std::vector<float> base(64), part(50), back(64);
  for (int i = 0; i < 64; i++) base[i] = i * 0.5f;
  for (int i = 0; i < 50; i++) part[i] = -1.0f - i;
  HIP_CHECK(hipMemcpyToArray(l, 0, 0, base.data(), 64 * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpyToArray(l, 10 * sizeof(float), 0, part.data(), 50 * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpyFromArray(back.data(), l, 0, 0, 64 * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) {
    float want = i >= 10 && i < 60 ? -1.0f - (i - 10) : i * 0.5f;
    EXPECT(back[i] == want, "1D array [%d] = %g, want %g", i, back[i], want);
  }
  HIP_CHECK(hipFreeArray(l));

  // ---- byte offsets: hipMemcpyHtoA / hipMemcpyAtoH over a 2D array's rows laid end to end
  {
    hipArray_t a2 = nullptr;
    HIP_CHECK(hipMallocArray(&a2, &fd, 6, 4));
    std::vector<float> zero(24, 0.0f), in(13), all(24), five(5);
    for (int i = 0; i < 13; i++) in[i] = 100.0f + i;
    HIP_CHECK(hipMemcpyHtoA(a2, 0, zero.data(), 24 * sizeof(float)));
    HIP_CHECK(hipMemcpyHtoA(a2, 5 * sizeof(float), in.data(), 13 * sizeof(float)));
    HIP_CHECK(hipMemcpyAtoH(all.data(), a2, 0, 24 * sizeof(float)));
    for (int i = 0; i < 24; i++) {
      float want = i >= 5 && i < 18 ? 100.0f + (i - 5) : 0.0f;
      EXPECT(all[i] == want, "AtoH element %d (row %d) = %g, want %g", i, i / 6, all[i], want);
    }
    HIP_CHECK(hipMemcpyAtoH(five.data(), a2, 9 * sizeof(float), 5 * sizeof(float)));
    for (int i = 0; i < 5; i++)
      EXPECT(five[i] == 104.0f + i, "AtoH from byte 36, element %d = %g, want %g", i, five[i], 104.0f + i);
    EXPECT_ERR(hipMemcpyAtoH(five.data(), a2, 22 * sizeof(float), 5 * sizeof(float)), hipErrorInvalidValue,
               hipErrorInvalidValue);
    HIP_CHECK(hipFreeArray(a2));
    hipArray_t a3 = nullptr;
    HIP_CHECK(hipMalloc3DArray(&a3, &fd, make_hipExtent(4, 4, 2), 0));
    EXPECT_ERR(hipMemcpyAtoH(five.data(), a3, 0, 5 * sizeof(float)), hipErrorNotSupported, hipErrorNotSupported);
    HIP_CHECK(hipFreeArray(a3));
  }

  // ---- a 3D array through hipMemcpy3D (extent and array position in elements), a layered 2D
  // array through hipMemcpyParam2D (its first layer)
  {
    enum { X = 6, Y = 4, Z = 3 };
    hipArray_t v = nullptr;
    HIP_CHECK(hipMalloc3DArray(&v, &fd, make_hipExtent(X, Y, Z), 0));
    EXPECT(v->depth == Z && v->textureType == hipTextureType3D, "3D array fields %u %u", v->depth, v->textureType);
    std::vector<float> vol(X * Y * Z), vback(X * Y * Z, -1.0f);
    for (int i = 0; i < X * Y * Z; i++) vol[i] = i * 3.0f + 1.0f;
    hipMemcpy3DParms p = {};
    p.srcPtr = make_hipPitchedPtr(vol.data(), X * sizeof(float), X, Y);
    p.dstArray = v;
    p.extent = make_hipExtent(X, Y, Z);
    p.kind = hipMemcpyHostToDevice;
    HIP_CHECK(hipMemcpy3D(&p));
    hipMemcpy3DParms b = {};
    b.srcArray = v;
    b.srcPos = make_hipPos(2, 1, 1);   // elements
    b.dstPtr = make_hipPitchedPtr(vback.data(), 3 * sizeof(float), 3, 2);
    b.extent = make_hipExtent(3, 2, 2);
    b.kind = hipMemcpyDeviceToHost;
    HIP_CHECK(hipMemcpy3D(&b));
    for (int z = 0; z < 2; z++)
      for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++) {
          float want = vol[((1 + z) * Y + 1 + y) * X + 2 + x], got = vback[(z * 2 + y) * 3 + x];
          EXPECT(got == want, "hipMemcpy3D back (%d,%d,%d) = %g, want %g", x, y, z, got, want);
        }
    b.srcPos = make_hipPos(4, 0, 0);   // 4 + 3 elements > 6
    EXPECT_ERR(hipMemcpy3D(&b), hipErrorInvalidValue, hipErrorInvalidValue);
    HIP_CHECK(hipFreeArray(v));

    hipArray_t cube = nullptr;
    EXPECT_ERR(hipMalloc3DArray(&cube, &fd, make_hipExtent(8, 8, 6), hipArrayCubemap), hipErrorNotSupported,
               hipErrorNotSupported);
    EXPECT_ERR(hipMalloc3DArray(&cube, &fd, make_hipExtent(8, 8, 6), 0x100u), hipErrorInvalidValue, hipErrorInvalidValue);
    hipArray_t lay = nullptr;
    HIP_CHECK(hipMalloc3DArray(&lay, &fd, make_hipExtent(X, Y, 2), hipArrayLayered));
    EXPECT(lay->textureType == hipTextureType2DLayered, "layered type %u", lay->textureType);
    hip_Memcpy2D m = {};
    m.srcMemoryType = hipMemoryTypeHost;
    m.srcHost = vol.data();
    m.srcPitch = X * sizeof(float);
    m.dstMemoryType = hipMemoryTypeArray;
    m.dstArray = lay;
    m.dstXInBytes = sizeof(float);
    m.dstY = 1;
    m.WidthInBytes = 2 * sizeof(float);
    m.Height = 2;
    HIP_CHECK(hipMemcpyParam2D(&m));
    float two[2][2] = {};
    HIP_CHECK(hipMemcpy2DFromArray(two, 2 * sizeof(float), lay, sizeof(float), 1, 2 * sizeof(float), 2,
                                   hipMemcpyDeviceToHost));
    EXPECT(two[0][0] == vol[0] && two[0][1] == vol[1] && two[1][0] == vol[X] && two[1][1] == vol[X + 1],
           "hipMemcpyParam2D into a layered array: %g %g %g %g", two[0][0], two[0][1], two[1][0], two[1][1]);
    HIP_CHECK(hipFreeArray(lay));
  }

  // ---- hipArrayCreate
  HIP_ARRAY_DESCRIPTOR ad = {};
  ad.Width = 16, ad.Height = 4, ad.Format = HIP_AD_FORMAT_UNSIGNED_INT8, ad.NumChannels = 4;
  hipArray_t d = nullptr;
  HIP_CHECK(hipArrayCreate(&d, &ad));
  EXPECT(d->Format == HIP_AD_FORMAT_UNSIGNED_INT8 && d->NumChannels == 4 && d->width == 16, "hipArrayCreate fields");
  HIP_CHECK(hipArrayDestroy(d));
  ad.NumChannels = 3;
  EXPECT_ERR(hipArrayCreate(&d, &ad), hipErrorInvalidValue, hipErrorInvalidValue);
  (void)hipGetLastError();   // the expected errors above are the last error: clear it

  // ---- texture objects over linear memory: tex1Dfetch (buffer loads through the V#)
  enum { N = 1000 };
  std::vector<uchar4> px(N);
  for (int i = 0; i < N; i++) px[i] = make_uchar4(i & 255, (i * 7) & 255, (i * 13) & 255, 255 - (i & 255));
  uchar4 *dpx = nullptr;
  float4 *dout = nullptr;
  HIP_CHECK(hipMalloc(&dpx, N * sizeof(uchar4)));
  HIP_CHECK(hipMalloc(&dout, N * sizeof(float4)));
  HIP_CHECK(hipMemcpy(dpx, px.data(), N * sizeof(uchar4), hipMemcpyHostToDevice));
  hipResourceDesc lr = {};
  lr.resType = hipResourceTypeLinear;
  lr.res.linear.devPtr = dpx;
  // Debian's HIP 5.2 headers give hipCreateChannelDesc<uchar4>() the kind Signed (a header bug:
  // on ROCm 5.2 it reads SNORM too), so the descriptor is spelled out.
  lr.res.linear.desc = hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindUnsigned);
  lr.res.linear.sizeInBytes = N * sizeof(uchar4);
  hipTextureDesc ltd = {};
  ltd.readMode = hipReadModeNormalizedFloat;
  hipTextureObject_t t = 0;
  {
    hipResourceDesc odd = lr;   // linear memory off the 256-byte textureAlignment: refused, as CLR does
    odd.res.linear.devPtr = (char *)dpx + 4;
    odd.res.linear.sizeInBytes -= 4;
    EXPECT_ERR(hipCreateTextureObject(&t, &odd, &ltd, nullptr), hipErrorInvalidValue, hipErrorInvalidValue);
    (void)hipGetLastError();
  }
  HIP_CHECK(hipCreateTextureObject(&t, &lr, &ltd, nullptr));
  hipLaunchKernelGGL(fetch_f4, dim3((N + 255) / 256), dim3(256), 0, 0, t, dout, N);
  HIP_CHECK(hipGetLastError());
  std::vector<float4> out(N);
  HIP_CHECK(hipMemcpy(out.data(), dout, N * sizeof(float4), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) {
    float4 w = make_float4(px[i].x / 255.0f, px[i].y / 255.0f, px[i].z / 255.0f, px[i].w / 255.0f);
    EXPECT(out[i].x == w.x && out[i].y == w.y && out[i].z == w.z && out[i].w == w.w,
           "tex1Dfetch [%d] = %g %g %g %g, want %g %g %g %g", i, out[i].x, out[i].y, out[i].z, out[i].w, w.x, w.y, w.z, w.w);
  }
  hipResourceDesc got_rd;
  hipTextureDesc got_td;
  HIP_CHECK(hipGetTextureObjectResourceDesc(&got_rd, t));
  HIP_CHECK(hipGetTextureObjectTextureDesc(&got_td, t));
  EXPECT(got_rd.resType == hipResourceTypeLinear && got_rd.res.linear.devPtr == dpx &&
         got_td.readMode == hipReadModeNormalizedFloat, "object descriptions");
  HIP_CHECK(hipDestroyTextureObject(t));
  EXPECT_ERR(hipGetTextureObjectTextureDesc(&got_td, t), hipErrorInvalidValue, hipErrorInvalidValue);

  // element-type reads of int
  int *di = nullptr, *dio = nullptr;
  std::vector<int> iv(N), io(N);
  for (int i = 0; i < N; i++) iv[i] = i * i - 5000;
  HIP_CHECK(hipMalloc(&di, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&dio, N * sizeof(int)));
  HIP_CHECK(hipMemcpy(di, iv.data(), N * sizeof(int), hipMemcpyHostToDevice));
  lr.res.linear.devPtr = di;
  lr.res.linear.desc = hipCreateChannelDesc<int>();
  lr.res.linear.sizeInBytes = N * sizeof(int);
  ltd.readMode = hipReadModeElementType;
  HIP_CHECK(hipCreateTextureObject(&t, &lr, &ltd, nullptr));
  hipLaunchKernelGGL(fetch_i, dim3((N + 255) / 256), dim3(256), 0, 0, t, dio, N);
  HIP_CHECK(hipMemcpy(io.data(), dio, N * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) EXPECT(io[i] == iv[i], "tex1Dfetch<int> [%d] = %d, want %d", i, io[i], iv[i]);
  HIP_CHECK(hipDestroyTextureObject(t));
  HIP_CHECK(hipFree(dpx));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(di));
  HIP_CHECK(hipFree(dio));
  return ht_finish("arrays");
}
