// Texture references of a module through the driver API (argv[1]: texref_module_kernels' code
// object): hipModuleGetTexRef("tex2d"), the same reference again for the same name, and
// hipErrorNotFound for a name the module lacks; clamp addressing, point filter and flags set with
// hipTexRefSet*, read back with hipTexRefGet*; hipTexRefSetArray (flags HIP_TRSA_OVERRIDE_FORMAT)
// binds a 5x3 float array and read2d returns every texel; hipTexRefSetAddress binds linear memory
// in the reference's format (hipTexRefSetFormat): offset 0 for an aligned pointer and 4 for one
// 4 bytes past it, fetch1d returns the buffer's floats, hipTexRefGetAddress the aligned base;
// errors: flags other than HIP_TRSA_OVERRIDE_FORMAT and no format for linear memory are
// hipErrorInvalidValue, an array of another format than the reference's hipErrorNotSupported;
// after hipModuleUnload a binding of its reference is hipErrorInvalidHandle.
#include <vector>

#include "hip_test.h"

static std::vector<char> read_file(const char *path)
{
  std::vector<char> data;
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(2);
  }
  char buf[65536];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, f)) > 0) data.insert(data.end(), buf, buf + got);
  fclose(f);
  return data;
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: %s CODE_OBJECT\n", argv[0]);
    return 2;
  }
  std::vector<char> image = read_file(argv[1]);
  hipModule_t mod;
  HIP_CHECK(hipModuleLoadData(&mod, image.data()));
  hipFunction_t read2d, fetch1d;
  HIP_CHECK(hipModuleGetFunction(&read2d, mod, "read2d"));
  HIP_CHECK(hipModuleGetFunction(&fetch1d, mod, "fetch1d"));

  textureReference *ref, *again, *none = nullptr;
  HIP_CHECK(hipModuleGetTexRef(&ref, mod, "tex2d"));
  HIP_CHECK(hipModuleGetTexRef(&again, mod, "tex2d"));
  EXPECT(ref == again, "two references for one name: %p %p", (void *)ref, (void *)again);
  EXPECT_ERR(hipModuleGetTexRef(&none, mod, "no_such_texture"), hipErrorNotFound, hipErrorNotFound);

  // settings, read back
  HIP_CHECK(hipTexRefSetAddressMode(ref, 0, hipAddressModeClamp));
  HIP_CHECK(hipTexRefSetAddressMode(ref, 1, hipAddressModeClamp));
  HIP_CHECK(hipTexRefSetFilterMode(ref, hipFilterModePoint));
  HIP_CHECK(hipTexRefSetFlags(ref, HIP_TRSF_READ_AS_INTEGER | HIP_TRSF_NORMALIZED_COORDINATES));
  unsigned flags = 0;
  HIP_CHECK(hipTexRefGetFlags(&flags, ref));
  EXPECT(flags == (HIP_TRSF_READ_AS_INTEGER | HIP_TRSF_NORMALIZED_COORDINATES), "flags 0x%x", flags);
  HIP_CHECK(hipTexRefSetFlags(ref, HIP_TRSF_READ_AS_INTEGER));   // unnormalized coordinates for read2d
  hipTextureAddressMode am;
  HIP_CHECK(hipTexRefGetAddressMode(&am, ref, 1));
  EXPECT(am == hipAddressModeClamp, "address mode %d", (int)am);
  hipTextureFilterMode fm;
  HIP_CHECK(hipTexRefGetFilterMode(&fm, ref));
  EXPECT(fm == hipFilterModePoint, "filter mode %d", (int)fm);
  EXPECT_ERR(hipTexRefSetAddressMode(ref, 3, hipAddressModeClamp), hipErrorInvalidValue, hipErrorInvalidValue);

  // an array
  const int W = 5, H = 3;
  std::vector<float> px(W * H);
  for (int i = 0; i < W * H; i++) px[i] = 0.25f * i - 1.0f;
  HIP_ARRAY_DESCRIPTOR ad = { W, H, HIP_AD_FORMAT_FLOAT, 1 };
  hipArray *a;
  HIP_CHECK(hipArrayCreate(&a, &ad));
  HIP_CHECK(hipMemcpy2DToArray(a, 0, 0, px.data(), W * sizeof(float), W * sizeof(float), H, hipMemcpyHostToDevice));
  EXPECT_ERR(hipTexRefSetArray(ref, a, 0), hipErrorInvalidValue, hipErrorInvalidValue);
  HIP_CHECK(hipTexRefSetFormat(ref, HIP_AD_FORMAT_UNSIGNED_INT8, 4));
  EXPECT_ERR(hipTexRefSetArray(ref, a, HIP_TRSA_OVERRIDE_FORMAT), hipErrorNotSupported, hipErrorNotSupported);
  HIP_CHECK(hipTexRefSetFormat(ref, HIP_AD_FORMAT_FLOAT, 1));
  hipArray_Format fmt;
  int channels;
  HIP_CHECK(hipTexRefGetFormat(&fmt, &channels, ref));
  EXPECT(fmt == HIP_AD_FORMAT_FLOAT && channels == 1, "format 0x%x x %d", (unsigned)fmt, channels);
  HIP_CHECK(hipTexRefSetArray(ref, a, HIP_TRSA_OVERRIDE_FORMAT));
  float *d;
  HIP_CHECK(hipMalloc(&d, 64 * sizeof(float)));
  int w = W, h = H;
  void *args2d[] = { &d, &w, &h };
  HIP_CHECK(hipModuleLaunchKernel(read2d, 1, 1, 1, W, H, 1, 0, nullptr, args2d, nullptr));
  std::vector<float> got(W * H);
  HIP_CHECK(hipMemcpy(got.data(), d, W * H * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < W * H; i++) EXPECT(got[i] == px[i], "tex2D texel %d = %g, want %g", i, got[i], px[i]);
  hipDeviceptr_t where;
  EXPECT_ERR(hipTexRefGetAddress(&where, ref), hipErrorInvalidValue, hipErrorInvalidValue);

  // linear memory
  textureReference *lin;
  HIP_CHECK(hipModuleGetTexRef(&lin, mod, "tex1d"));
  const int N = 40;
  std::vector<float> v(N + 1);
  for (int i = 0; i <= N; i++) v[i] = 3.0f * i + 0.5f;
  float *buf;
  HIP_CHECK(hipMalloc(&buf, (N + 1) * sizeof(float)));
  HIP_CHECK(hipMemcpy(buf, v.data(), (N + 1) * sizeof(float), hipMemcpyHostToDevice));
  size_t off = 99;
  EXPECT_ERR(hipTexRefSetAddress(&off, lin, buf, N * sizeof(float)), hipErrorInvalidValue, hipErrorInvalidValue);
  HIP_CHECK(hipTexRefSetFormat(lin, HIP_AD_FORMAT_FLOAT, 1));
  HIP_CHECK(hipTexRefSetAddress(&off, lin, buf, N * sizeof(float)));
  EXPECT(off == 0, "offset of an aligned pointer %zu", off);
  int n = N;
  void *args1d[] = { &d, &n };
  HIP_CHECK(hipModuleLaunchKernel(fetch1d, 1, 1, 1, N, 1, 1, 0, nullptr, args1d, nullptr));
  std::vector<float> g1(N);
  HIP_CHECK(hipMemcpy(g1.data(), d, N * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) EXPECT(g1[i] == v[i], "tex1Dfetch [%d] = %g, want %g", i, g1[i], v[i]);
  HIP_CHECK(hipTexRefSetAddress(&off, lin, buf + 1, N * sizeof(float)));
  EXPECT(off == 4, "offset of a pointer 4 bytes in %zu", off);
  HIP_CHECK(hipTexRefGetAddress(&where, lin));
  EXPECT(where == (hipDeviceptr_t)buf, "bound at %p, want the aligned %p", where, (void *)buf);
  HIP_CHECK(hipModuleLaunchKernel(fetch1d, 1, 1, 1, N, 1, 1, 0, nullptr, args1d, nullptr));
  HIP_CHECK(hipMemcpy(g1.data(), d, N * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) EXPECT(g1[i] == v[i], "tex1Dfetch from the aligned base [%d] = %g, want %g", i, g1[i], v[i]);

  HIP_CHECK(hipFree(buf));
  HIP_CHECK(hipFree(d));
  HIP_CHECK(hipArrayDestroy(a));
  HIP_CHECK(hipModuleUnload(mod));
  // a reference of an unloaded module: binding it fails, its settings stay readable
  EXPECT_ERR(hipTexRefSetAddress(&off, lin, buf, N * sizeof(float)), hipErrorInvalidHandle, hipErrorInvalidHandle);
  HIP_CHECK(hipTexRefGetFormat(&fmt, &channels, lin));
  EXPECT(fmt == HIP_AD_FORMAT_FLOAT && channels == 1, "format after unload 0x%x x %d", (unsigned)fmt, channels);
  return ht_finish("texref_module");
}
