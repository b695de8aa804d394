// hipRTC on umbra (src/hip/hip_rtc.c): a program compiled at run time, loaded with
// hipModuleLoadData and launched with hipModuleLaunchKernel (kernelParams and the `extra` buffer),
// a template kernel found by its name expression, headers given to hiprtcCreateProgram, options,
// and the errors: bad arguments, a compile error with its log, another architecture, an unknown
// option. Prints "PASS hiprtc" and exits 0 when every check holds.
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

static int failures = 0;

#define EXPECT(cond, ...)                                                                          \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      failures++;                                                                                  \
      fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond);                          \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
    }                                                                                              \
  } while (0)

#define HIP_CHECK(expr)                                                                            \
  do {                                                                                             \
    hipError_t e_ = (expr);                                                                        \
    if (e_ != hipSuccess) {                                                                        \
      printf("FAIL hiprtc: %s returned %s\n", #expr, hipGetErrorName(e_));                         \
      exit(2);                                                                                     \
    }                                                                                              \
  } while (0)

#define RTC_EXPECT(expr, want)                                                                     \
  do {                                                                                             \
    hiprtcResult r_ = (expr);                                                                      \
    EXPECT(r_ == (want), "%s returned %s, want %s", #expr, hiprtcGetErrorString(r_),               \
           hiprtcGetErrorString(want));                                                            \
  } while (0)

static std::string program_log(hiprtcProgram p)
{
  size_t n = 0;
  if (hiprtcGetProgramLogSize(p, &n) != HIPRTC_SUCCESS || n == 0) return "<no log>";
  std::string log(n, '\0');
  if (hiprtcGetProgramLog(p, &log[0]) != HIPRTC_SUCCESS) return "<no log>";
  EXPECT(log[n - 1] == '\0', "the log size counts its NUL");
  log.resize(n - 1);
  return log;
}

static const char *kSource = R"(
#include "params.h"
#include "util/twice.h"

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

namespace ns {
template <typename T, int K>
__global__ void add_k(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = twice(p[i]) + (T)(K * MULT) + (T)BIAS;
}
}  // namespace ns

// a warp function (not in HIP's RTC-mode headers by themselves) and a math function
extern "C" __global__ void lane_sum(float *out) {
  float v = sqrtf((float)(threadIdx.x * threadIdx.x));
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor(v, o);
  if (threadIdx.x == 0) out[0] = v;
}
)";

static const char *kParams = "#pragma once\n#define BIAS 1\n";
static const char *kTwice = "#pragma once\ntemplate <typename T> __device__ T twice(T v) { return v + v; }\n";

static hipModule_t load(hiprtcProgram prog)
{
  size_t size = 0;
  RTC_EXPECT(hiprtcGetCodeSize(prog, &size), HIPRTC_SUCCESS);
  EXPECT(size > 64, "a code object (%zu bytes)", size);
  std::vector<char> code(size);
  RTC_EXPECT(hiprtcGetCode(prog, code.data()), HIPRTC_SUCCESS);
  EXPECT(!memcmp(code.data(), "\177ELF", 4), "an ELF code object");
  hipModule_t m;
  HIP_CHECK(hipModuleLoadData(&m, code.data()));
  return m;
}

static void test_saxpy_and_template()
{
  const char *headers[] = { kParams, kTwice };
  const char *names[] = { "params.h", "util/twice.h" };
  hiprtcProgram prog;
  RTC_EXPECT(hiprtcCreateProgram(&prog, kSource, "saxpy.cu", 2, headers, names), HIPRTC_SUCCESS);
  RTC_EXPECT(hiprtcAddNameExpression(prog, "ns::add_k<float, 3>"), HIPRTC_SUCCESS);
  RTC_EXPECT(hiprtcAddNameExpression(prog, "&ns::add_k<int, 5>"), HIPRTC_SUCCESS);
  RTC_EXPECT(hiprtcAddNameExpression(prog, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  const char *lowered = nullptr;
  RTC_EXPECT(hiprtcGetLoweredName(prog, "ns::add_k<float, 3>", &lowered), HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION);
  const char *opts[] = { "--gpu-architecture=gfx1100", "-std=c++17", "-DMULT=2", "--fmad=true", "-O3" };
  hiprtcResult r = hiprtcCompileProgram(prog, 5, opts);
  std::string log = program_log(prog);
  EXPECT(r == HIPRTC_SUCCESS, "compile: %s; log:\n%s", hiprtcGetErrorString(r), log.c_str());
  if (r != HIPRTC_SUCCESS) return;
  RTC_EXPECT(hiprtcAddNameExpression(prog, "ns::add_k<double, 1>"), HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION);

  const char *lf = nullptr, *li = nullptr;
  RTC_EXPECT(hiprtcGetLoweredName(prog, "ns::add_k<float, 3>", &lf), HIPRTC_SUCCESS);
  RTC_EXPECT(hiprtcGetLoweredName(prog, "ns::add_k<int,5>", &li), HIPRTC_SUCCESS);   // spaces and & do not matter
  RTC_EXPECT(hiprtcGetLoweredName(prog, "ns::add_k<char, 1>", &lowered), HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID);
  RTC_EXPECT(hiprtcGetLoweredName(prog, "ns::add_k<float, 3>", nullptr), HIPRTC_ERROR_INVALID_INPUT);
  EXPECT(lf && !strcmp(lf, "_ZN2ns5add_kIfLi3EEEvPT_i"), "lowered name of add_k<float, 3>: %s", lf ? lf : "(null)");
  EXPECT(li && !strcmp(li, "_ZN2ns5add_kIiLi5EEEvPT_i"), "lowered name of add_k<int, 5>: %s", li ? li : "(null)");
  printf("lowered: %s %s\n", lf ? lf : "-", li ? li : "-");

  hipModule_t mod = load(prog);
  const int n = 1000;
  std::vector<float> x(n), y(n), want(n);
  for (int i = 0; i < n; i++) x[i] = 0.5f * i, y[i] = 1000.0f - i;
  float *dx, *dy;
  HIP_CHECK(hipMalloc(&dx, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dy, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice));

  // saxpy with kernelParams
  hipFunction_t saxpy;
  HIP_CHECK(hipModuleGetFunction(&saxpy, mod, "saxpy"));
  float a = 2.5f;
  int nn = n;
  void *params[] = { &a, &dx, &dy, &nn };
  HIP_CHECK(hipModuleLaunchKernel(saxpy, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  for (int i = 0; i < n; i++) want[i] = a * x[i] + y[i];
  std::vector<float> got(n);
  HIP_CHECK(hipMemcpy(got.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) bad += got[i] != want[i];
  EXPECT(bad == 0, "saxpy (kernelParams): %d wrong, y[7] = %g want %g", bad, got[7], want[7]);

  // saxpy again with the packed argument buffer (extra)
  struct {
    float a;
    const float *x;
    float *y;
    int n;
  } args = { -1.0f, dx, dy, n };
  size_t args_size = sizeof args;
  void *extra[] = { HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &args_size, HIP_LAUNCH_PARAM_END };
  HIP_CHECK(hipModuleLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, nullptr, extra));
  for (int i = 0; i < n; i++) want[i] = -1.0f * x[i] + want[i];
  HIP_CHECK(hipMemcpy(got.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  bad = 0;
  for (int i = 0; i < n; i++) bad += got[i] != want[i];
  EXPECT(bad == 0, "saxpy (extra): %d wrong, y[7] = %g want %g", bad, got[7], want[7]);

  // the template kernels by their lowered names: p[i] = 2 p[i] + K * MULT + BIAS
  if (lf) {
    hipFunction_t f;
    HIP_CHECK(hipModuleGetFunction(&f, mod, lf));
    void *p2[] = { &dx, &nn };
    HIP_CHECK(hipModuleLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, p2, nullptr));
    HIP_CHECK(hipMemcpy(got.data(), dx, n * sizeof(float), hipMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < n; i++) bad += got[i] != 2 * x[i] + 3 * 2 + 1;
    EXPECT(bad == 0, "add_k<float, 3>: %d wrong, p[3] = %g want %g", bad, got[3], 2 * x[3] + 7);
  }
  if (li) {
    hipFunction_t f;
    HIP_CHECK(hipModuleGetFunction(&f, mod, li));
    std::vector<int> v(n), vg(n);
    for (int i = 0; i < n; i++) v[i] = i - 500;
    int *dv;
    HIP_CHECK(hipMalloc(&dv, n * sizeof(int)));
    HIP_CHECK(hipMemcpy(dv, v.data(), n * sizeof(int), hipMemcpyHostToDevice));
    void *p3[] = { &dv, &nn };
    HIP_CHECK(hipModuleLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, p3, nullptr));
    HIP_CHECK(hipMemcpy(vg.data(), dv, n * sizeof(int), hipMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < n; i++) bad += vg[i] != 2 * v[i] + 5 * 2 + 1;
    EXPECT(bad == 0, "add_k<int, 5>: %d wrong, p[3] = %d want %d", bad, vg[3], 2 * v[3] + 11);
    HIP_CHECK(hipFree(dv));
  }

  // a warp function and sqrtf: sum of lanes 0..31
  hipFunction_t lane_sum;
  HIP_CHECK(hipModuleGetFunction(&lane_sum, mod, "lane_sum"));
  void *p4[] = { &dy };
  HIP_CHECK(hipModuleLaunchKernel(lane_sum, 1, 1, 1, 32, 1, 1, 0, nullptr, p4, nullptr));
  float sum = 0;
  HIP_CHECK(hipMemcpy(&sum, dy, sizeof sum, hipMemcpyDeviceToHost));
  EXPECT(sum == 496.0f, "lane_sum: %g, want 496", sum);

  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dy));
  HIP_CHECK(hipModuleUnload(mod));
  hiprtcProgram copy = prog;
  RTC_EXPECT(hiprtcDestroyProgram(&prog), HIPRTC_SUCCESS);
  RTC_EXPECT(hiprtcDestroyProgram(&copy), HIPRTC_ERROR_INVALID_PROGRAM);
  size_t sz;
  RTC_EXPECT(hiprtcGetCodeSize(copy, &sz), HIPRTC_ERROR_INVALID_PROGRAM);
}

static void test_errors()
{
  int major = 0, minor = 0;
  RTC_EXPECT(hiprtcVersion(&major, &minor), HIPRTC_SUCCESS);
  EXPECT(major == 5 && minor == 2, "hiprtcVersion %d.%d", major, minor);
  RTC_EXPECT(hiprtcVersion(nullptr, &minor), HIPRTC_ERROR_INVALID_INPUT);
  EXPECT(!strcmp(hiprtcGetErrorString(HIPRTC_ERROR_COMPILATION), "HIPRTC_ERROR_COMPILATION"), "error string");
  EXPECT(!strcmp(hiprtcGetErrorString((hiprtcResult)999), "Invalid HIPRTC error code"), "bad error string");

  hiprtcProgram prog = nullptr;
  RTC_EXPECT(hiprtcCreateProgram(nullptr, "", "x", 0, nullptr, nullptr), HIPRTC_ERROR_INVALID_PROGRAM);
  RTC_EXPECT(hiprtcCreateProgram(&prog, nullptr, "x", 0, nullptr, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  RTC_EXPECT(hiprtcCreateProgram(&prog, "", "x", -1, nullptr, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  RTC_EXPECT(hiprtcCreateProgram(&prog, "", "x", 1, nullptr, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  RTC_EXPECT(hiprtcCompileProgram(nullptr, 0, nullptr), HIPRTC_ERROR_INVALID_PROGRAM);
  RTC_EXPECT(hiprtcCompileProgram((hiprtcProgram)&major, 0, nullptr), HIPRTC_ERROR_INVALID_PROGRAM);
  RTC_EXPECT(hiprtcDestroyProgram(nullptr), HIPRTC_ERROR_INVALID_INPUT);

  // a compile error: HIPRTC_ERROR_COMPILATION, and the log names the file and the error
  const char *broken = "extern \"C\" __global__ void k(int *p) {\n  p[0] = undeclared_thing;\n}\n";
  RTC_EXPECT(hiprtcCreateProgram(&prog, broken, "broken.cu", 0, nullptr, nullptr), HIPRTC_SUCCESS);
  RTC_EXPECT(hiprtcCompileProgram(prog, 0, nullptr), HIPRTC_ERROR_COMPILATION);
  std::string log = program_log(prog);
  EXPECT(log.find("broken.cu:2:") != std::string::npos && log.find("undeclared_thing") != std::string::npos &&
             log.find("error") != std::string::npos, "the log names the error:\n%s", log.c_str());
  size_t size = 1;
  RTC_EXPECT(hiprtcGetCodeSize(prog, &size), HIPRTC_SUCCESS);
  EXPECT(size == 0, "no code after a failed compile (%zu bytes)", size);
  RTC_EXPECT(hiprtcGetProgramLogSize(prog, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  RTC_EXPECT(hiprtcGetProgramLog(prog, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  RTC_EXPECT(hiprtcDestroyProgram(&prog), HIPRTC_SUCCESS);

  // another architecture, an unknown option, a name expression that names nothing
  const char *ok = "extern \"C\" __global__ void k(int *p) { p[0] = 1; }\n";
  RTC_EXPECT(hiprtcCreateProgram(&prog, ok, "ok.cu", 0, nullptr, nullptr), HIPRTC_SUCCESS);
  const char *arch[] = { "--gpu-architecture=gfx90a" };
  RTC_EXPECT(hiprtcCompileProgram(prog, 1, arch), HIPRTC_ERROR_INVALID_OPTION);
  log = program_log(prog);
  EXPECT(log.find("gfx90a") != std::string::npos && log.find("gfx1100") != std::string::npos,
         "the log says why:\n%s", log.c_str());
  const char *bogus[] = { "--no-such-option" };
  RTC_EXPECT(hiprtcCompileProgram(prog, 1, bogus), HIPRTC_ERROR_INVALID_OPTION);
  log = program_log(prog);
  EXPECT(log.find("--no-such-option") != std::string::npos, "the log names the option:\n%s", log.c_str());
  const char *null_opt[] = { nullptr };
  RTC_EXPECT(hiprtcCompileProgram(prog, 1, null_opt), HIPRTC_ERROR_INVALID_INPUT);
  // compiled twice: a lowered name from the first compile stays readable
  RTC_EXPECT(hiprtcAddNameExpression(prog, "k"), HIPRTC_SUCCESS);
  const char *first = nullptr, *second = nullptr;
  RTC_EXPECT(hiprtcCompileProgram(prog, 0, nullptr), HIPRTC_SUCCESS);
  // a clean compile leaves no log: size 0, as ROCm's hipRTC (rocm-examples' runtime_compilation
  // prints the log whenever the size is not 0), and reading it writes nothing
  size_t clean_log = 7;
  RTC_EXPECT(hiprtcGetProgramLogSize(prog, &clean_log), HIPRTC_SUCCESS);
  EXPECT(clean_log == 0, "a clean compile's log size is %zu, want 0", clean_log);
  char untouched[2] = { 'x', 'y' };
  RTC_EXPECT(hiprtcGetProgramLog(prog, untouched), HIPRTC_SUCCESS);
  EXPECT(untouched[0] == 'x', "an empty log wrote into the caller's buffer");
  RTC_EXPECT(hiprtcGetLoweredName(prog, "k", &first), HIPRTC_SUCCESS);
  RTC_EXPECT(hiprtcCompileProgram(prog, 0, nullptr), HIPRTC_SUCCESS);
  RTC_EXPECT(hiprtcGetLoweredName(prog, "k", &second), HIPRTC_SUCCESS);
  EXPECT(first && second && !strcmp(first, "k") && !strcmp(second, "k"), "lowered names of k: %s %s",
         first ? first : "(null)", second ? second : "(null)");
  RTC_EXPECT(hiprtcDestroyProgram(&prog), HIPRTC_SUCCESS);
  RTC_EXPECT(hiprtcCreateProgram(&prog, ok, "ok.cu", 0, nullptr, nullptr), HIPRTC_SUCCESS);
  RTC_EXPECT(hiprtcAddNameExpression(prog, "no_such_kernel"), HIPRTC_SUCCESS);
  RTC_EXPECT(hiprtcCompileProgram(prog, 0, nullptr), HIPRTC_ERROR_COMPILATION);
  log = program_log(prog);
  EXPECT(log.find("no_such_kernel") != std::string::npos, "the log names the bad expression:\n%s", log.c_str());
  RTC_EXPECT(hiprtcDestroyProgram(&prog), HIPRTC_SUCCESS);
}

// Two programs compiled at once on two threads.
static void test_threads()
{
  hiprtcResult r[2];
  size_t size[2] = { 0, 0 };
  std::thread t[2];
  for (int i = 0; i < 2; i++)
    t[i] = std::thread([i, &r, &size] {
      std::string src = "extern \"C\" __global__ void k" + std::to_string(i) + "(int *p) { p[threadIdx.x] = " +
                        std::to_string(i + 40) + "; }\n";
      hiprtcProgram p;
      r[i] = hiprtcCreateProgram(&p, src.c_str(), "t.cu", 0, nullptr, nullptr);
      if (r[i] == HIPRTC_SUCCESS) r[i] = hiprtcCompileProgram(p, 0, nullptr);
      if (r[i] == HIPRTC_SUCCESS) r[i] = hiprtcGetCodeSize(p, &size[i]);
      hiprtcDestroyProgram(&p);
    });
  for (int i = 0; i < 2; i++) t[i].join();
  for (int i = 0; i < 2; i++) EXPECT(r[i] == HIPRTC_SUCCESS && size[i] > 0, "thread %d: %s", i, hiprtcGetErrorString(r[i]));
}

int main()
{
  test_errors();
  test_saxpy_and_template();
  test_threads();
  if (failures) {
    printf("FAIL hiprtc: %d mismatches\n", failures);
    return 1;
  }
  printf("PASS hiprtc\n");
  return 0;
}
