// A HIP vector add: the kind of program `umbra hip` runs unmodified. Built with clang++-19 for
// gfx1100 (scripts/example.sh), run with `umbra hip -- ./vadd`.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                                              \
    do {                                                                                      \
        hipError_t e_ = (x);                                                                  \
        if (e_ != hipSuccess) {                                                               \
            fprintf(stderr, "%s: %s\n", #x, hipGetErrorString(e_));                           \
            return 1;                                                                         \
        }                                                                                     \
    } while (0)

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    if (i == 0) printf("device: %u threads in %u blocks\n", (unsigned)(gridDim.x * blockDim.x), (unsigned)gridDim.x);
}

int main()
{
    const int n = 1 << 16;
    std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; i++) a[i] = i, b[i] = 2.0f * i;
    hipDeviceProp_t prop;
    CHECK(hipGetDeviceProperties(&prop, 0));
    printf("device: %s (%s), %d compute units\n", prop.name, prop.gcnArchName, prop.multiProcessorCount);
    float *da, *db, *dc;
    CHECK(hipMalloc(&da, n * sizeof(float)));
    CHECK(hipMalloc(&db, n * sizeof(float)));
    CHECK(hipMalloc(&dc, n * sizeof(float)));
    CHECK(hipMemcpy(da, a.data(), n * sizeof(float), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(db, b.data(), n * sizeof(float), hipMemcpyHostToDevice));
    hipEvent_t start, stop;
    CHECK(hipEventCreate(&start));
    CHECK(hipEventCreate(&stop));
    CHECK(hipEventRecord(start, nullptr));
    vadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    CHECK(hipGetLastError());
    CHECK(hipEventRecord(stop, nullptr));
    CHECK(hipMemcpy(c.data(), dc, n * sizeof(float), hipMemcpyDeviceToHost));
    float ms = 0;
    CHECK(hipEventElapsedTime(&ms, start, stop));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += c[i] != 3.0f * i;
    printf("vadd of %d floats: %s (kernel %.3f ms by hipEvent)\n", n, bad ? "FAILED" : "PASSED", ms);
    CHECK(hipFree(da));
    CHECK(hipFree(db));
    CHECK(hipFree(dc));
    return bad != 0;
}
