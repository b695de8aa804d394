// The module API on a code object built apart (module_kernels.hip; argv[1] is its path):
//   hipModuleLoadData from memory and hipModuleLoad from the file; hipModuleGetFunction for
//   "scale_add" and "fill_index"; a name that is not there -> hipErrorNotFound;
//   hipModuleGetGlobal("mod_offset") -> 4 bytes, set to 0.5 with hipMemcpyHtoD;
//   hipModuleLaunchKernel with kernelParams: out[i] = 3 in[i] + 0.5 for in[i] = i (n = 1000);
//   hipModuleLaunchKernel with `extra` (HIP_LAUNCH_PARAM_BUFFER_POINTER/SIZE, a packed argument
//   struct of 24 bytes): a = -1 -> out[i] = 0.5 - i;
//   fill_index with 256 bytes of dynamic shared memory (64 threads): out[i] = 2 (block base +
//   63 - t); "mod_calls" = 2 afterwards (read with hipMemcpyDtoH); hipModuleUnload.
#include "hip_test.h"
#include <vector>

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
  printf("code object %s: %zu bytes, starts with \"%.8s\"\n", argv[1], image.size(), image.data());
  hipModule_t mod, mod2;
  HIP_CHECK(hipModuleLoadData(&mod, image.data()));
  hipFunction_t scale_add, fill_index, missing = nullptr;
  HIP_CHECK(hipModuleGetFunction(&scale_add, mod, "scale_add"));
  HIP_CHECK(hipModuleGetFunction(&fill_index, mod, "fill_index"));
  EXPECT_ERR(hipModuleGetFunction(&missing, mod, "no_such_kernel"), hipErrorNotFound, hipErrorNotFound);

  hipDeviceptr_t offset_ptr;
  size_t offset_bytes = 0;
  HIP_CHECK(hipModuleGetGlobal(&offset_ptr, &offset_bytes, mod, "mod_offset"));
  EXPECT(offset_bytes == sizeof(float), "mod_offset has %zu bytes", offset_bytes);
  float half = 0.5f;
  HIP_CHECK(hipMemcpyHtoD(offset_ptr, &half, sizeof half));

  const int n = 1000;
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; i++) in[i] = (float)i;
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(float), hipMemcpyHostToDevice));

  float a = 3.0f;
  int nn = n;
  void *params[] = {&dout, &din, &a, &nn};
  HIP_CHECK(hipModuleLaunchKernel(scale_add, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, params, nullptr));
  HIP_CHECK(hipMemcpy(out.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(out[i] == 3.0f * i + 0.5f, "kernelParams launch: out[%d] = %g", i, out[i]);

  struct {
    float *out;
    const float *in;
    float a;
    int n;
  } packed = {dout, din, -1.0f, n};
  static_assert(sizeof packed == 24, "the argument block of scale_add is 24 bytes");
  size_t packed_size = sizeof packed;
  void *extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &packed, HIP_LAUNCH_PARAM_BUFFER_SIZE, &packed_size,
                   HIP_LAUNCH_PARAM_END};
  HIP_CHECK(hipModuleLaunchKernel(scale_add, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, nullptr, extra));
  HIP_CHECK(hipMemcpy(out.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(out[i] == 0.5f - i, "extra launch: out[%d] = %g", i, out[i]);

  // The same code object loaded from its file: a second module with its own globals.
  HIP_CHECK(hipModuleLoad(&mod2, argv[1]));
  hipFunction_t fill2;
  HIP_CHECK(hipModuleGetFunction(&fill2, mod2, "fill_index"));
  int *dint;
  std::vector<int> iout(n);
  HIP_CHECK(hipMalloc(&dint, n * sizeof(int)));
  void *fparams[] = {&dint, &nn};
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  HIP_CHECK(hipModuleLaunchKernel(fill2, (n + 63) / 64, 1, 1, 64, 1, 1, 64 * sizeof(int), s, fparams, nullptr));
  HIP_CHECK(hipStreamSynchronize(s));
  HIP_CHECK(hipMemcpy(iout.data(), dint, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int want = 2 * (i / 64 * 64 + 63 - i % 64);
    EXPECT(iout[i] == want, "fill_index: out[%d] = %d, want %d", i, iout[i], want);
  }

  hipDeviceptr_t calls_ptr;
  size_t calls_bytes = 0;
  int calls = -1;
  HIP_CHECK(hipModuleGetGlobal(&calls_ptr, &calls_bytes, mod, "mod_calls"));
  HIP_CHECK(hipMemcpyDtoH(&calls, calls_ptr, sizeof calls));
  EXPECT(calls == 2, "mod_calls = %d", calls);
  printf("out[10] = %g, fill_index out[10] = %d, mod_calls = %d\n", out[10], iout[10], calls);
  HIP_CHECK(hipStreamDestroy(s));
  HIP_CHECK(hipModuleUnload(mod));
  HIP_CHECK(hipModuleUnload(mod2));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(dint));
  return ht_finish("module");
}
