// C++ in kernels: templates, classes, functors, lambdas, virtual functions.
//   sum_squares<T> over v[i] = i % 11 - 5 for int, float and double (n = 3000): 29980 each;
//   apply<Op> with the functors Affine{3, -2} and Clamp{-1, 4} and with a __device__ lambda
//   capturing k = 7: out[i] = 3v - 2, clamp(v, -1, 4), v*7 + i;
//   Vec3<float>: a small class with operators and a __host__ __device__ dot(): dot(a+b, a-b) for
//   a = (i, 1, 2), b = (1, i, 3) = -5 (exactly, for every i);
//   a constexpr template recursion Fact<6> = 720 in device code;
//   virtual functions: each thread builds a Square(side) or a Tri(base, h) in its own
//   storage and calls area() through a Shape*: side^2 or base*h/2 (the host does the same).
#include "hip_test.h"
#include <new>
#include <vector>

template <typename T>
__global__ void sum_squares(const int *v, int n, T *out)
{
  __shared__ T part[128];
  T s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += (T)v[i] * (T)v[i];
  part[threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    T t = 0;
    for (int j = 0; j < (int)blockDim.x; j++) t += part[j];
    *out = t;
  }
}

struct Affine {
  int a, b;
  __host__ __device__ int operator()(int v, int) const { return a * v + b; }
};
struct Clamp {
  int lo, hi;
  __host__ __device__ int operator()(int v, int) const { return v < lo ? lo : (v > hi ? hi : v); }
};

template <typename Op>
__global__ void apply(const int *v, int *out, int n, Op op)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(v[i], i);
}

template <typename T>
class Vec3 {
 public:
  T x, y, z;
  __host__ __device__ Vec3(T x_, T y_, T z_) : x(x_), y(y_), z(z_) {}
  __host__ __device__ Vec3 operator+(const Vec3 &o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
  __host__ __device__ Vec3 operator-(const Vec3 &o) const { return Vec3(x - o.x, y - o.y, z - o.z); }
  __host__ __device__ T dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
};

__global__ void vec_kernel(float *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Vec3<float> a((float)i, 1.0f, 2.0f), b(1.0f, (float)i, 3.0f);
    out[i] = (a + b).dot(a - b);
  }
}

template <int N> struct Fact { static constexpr int value = N * Fact<N - 1>::value; };
template <> struct Fact<0> { static constexpr int value = 1; };

struct Shape {
  __device__ virtual float area() const = 0;
  __device__ virtual ~Shape() {}
};
struct Square : Shape {
  float s;
  __device__ explicit Square(float s_) : s(s_) {}
  __device__ float area() const override { return s * s; }
};
struct Tri : Shape {
  float b, h;
  __device__ Tri(float b_, float h_) : b(b_), h(h_) {}
  __device__ float area() const override { return 0.5f * b * h; }
};

__global__ void shapes(float *out, int *fact, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  alignas(16) unsigned char storage[64];
  Shape *s;
  if (i % 3 == 0)
    s = new (storage) Square((float)(i % 50));
  else
    s = new (storage) Tri((float)(i % 20), (float)(i % 7 + 1));
  out[i] = s->area();
  s->~Shape();
  if (i == 0) *fact = Fact<6>::value;
}

int main()
{
  const int n = 3000;
  std::vector<int> v(n);
  for (int i = 0; i < n; i++) v[i] = i % 11 - 5;
  int *dv, *dout, *dfact;
  HIP_CHECK(hipMalloc(&dv, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dfact, sizeof(int)));
  HIP_CHECK(hipMemcpy(dv, v.data(), n * sizeof(int), hipMemcpyHostToDevice));
  long long want_sq = 0;
  for (int i = 0; i < n; i++) want_sq += (long long)v[i] * v[i];

  int *di; float *df; double *dd;
  int si = 0; float sf = 0; double sd = 0;
  HIP_CHECK(hipMalloc(&di, sizeof(int)));
  HIP_CHECK(hipMalloc(&df, sizeof(float)));
  HIP_CHECK(hipMalloc(&dd, sizeof(double)));
  sum_squares<int><<<1, 128>>>(dv, n, di);
  sum_squares<float><<<1, 128>>>(dv, n, df);
  sum_squares<double><<<1, 128>>>(dv, n, dd);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(&si, di, sizeof si, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&sf, df, sizeof sf, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&sd, dd, sizeof sd, hipMemcpyDeviceToHost));
  printf("sum of squares: int %d float %g double %g (want %lld)\n", si, sf, sd, want_sq);
  EXPECT(si == want_sq && want_sq == 29980, "int sum %d", si);
  EXPECT(sf == (float)want_sq, "float sum %g", sf);
  EXPECT(sd == (double)want_sq, "double sum %g", sd);

  std::vector<int> out(n);
  const Affine aff{3, -2};
  const Clamp clamp{-1, 4};
  const int k = 7;
  auto lam = [=] __device__(int x, int i) { return x * k + i; };
  apply<<<(n + 255) / 256, 256>>>(dv, dout, n, aff);
  HIP_CHECK(hipMemcpy(out.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(out[i] == aff(v[i], i), "Affine: out[%d] = %d", i, out[i]);
  apply<<<(n + 255) / 256, 256>>>(dv, dout, n, clamp);
  HIP_CHECK(hipMemcpy(out.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(out[i] == clamp(v[i], i), "Clamp: out[%d] = %d", i, out[i]);
  apply<<<(n + 255) / 256, 256>>>(dv, dout, n, lam);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(out.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(out[i] == v[i] * k + i, "lambda: out[%d] = %d", i, out[i]);

  float *dfl;
  std::vector<float> fo(n);
  HIP_CHECK(hipMalloc(&dfl, n * sizeof(float)));
  vec_kernel<<<(n + 255) / 256, 256>>>(dfl, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(fo.data(), dfl, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    Vec3<float> a((float)i, 1.0f, 2.0f), b(1.0f, (float)i, 3.0f);
    float want = (a + b).dot(a - b);
    EXPECT(fo[i] == want && want == -5.0f, "Vec3: out[%d] = %g, want %g", i, fo[i], want);
  }

  int fact = 0;
  shapes<<<(n + 127) / 128, 128>>>(dfl, dfact, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(fo.data(), dfl, n * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&fact, dfact, sizeof fact, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float want = i % 3 == 0 ? (float)(i % 50) * (float)(i % 50) : 0.5f * (float)(i % 20) * (float)(i % 7 + 1);
    EXPECT(fo[i] == want, "virtual area(): out[%d] = %g, want %g", i, fo[i], want);
  }
  EXPECT(fact == 720, "Fact<6> = %d", fact);
  printf("area[3] = %g, area[4] = %g, Fact<6> = %d\n", fo[3], fo[4], fact);

  HIP_CHECK(hipFree(dv));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(dfact));
  HIP_CHECK(hipFree(di));
  HIP_CHECK(hipFree(df));
  HIP_CHECK(hipFree(dd));
  HIP_CHECK(hipFree(dfl));
  return ht_finish("templates");
}
