// Bad input to umbra's HIP runtime: each case must end in the HIP error a GPU runtime gives, with
// umbra's message on stderr, and never crash the host program. Prints "case NAME: ok" per case
// and "ALL PASSED" at the end; exits 1 on the first case that does not hold.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" void **__hipRegisterFatBinary(const void *data);

__global__ void add_one(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

__global__ void write_null(int *p) { p[threadIdx.x] = 42; }

static int failures;

static void expect(const char *name, hipError_t got, hipError_t want)
{
    if (got == want) {
        printf("case %s: ok (%s)\n", name, hipGetErrorName(got));
    } else {
        printf("case %s: FAILED: got %s (%d), want %s (%d)\n", name, hipGetErrorName(got), got, hipGetErrorName(want), want);
        failures++;
    }
}

int main(int argc, char **argv)
{
    const char *co = argc > 1 ? argv[1] : nullptr;   // a code object with kernel "scale"

    // A module image that is not a code object, a bundle nor a fat binary.
    hipModule_t m;
    static const char garbage[4096] = "this is not a code object";
    expect("module_garbage", hipModuleLoadData(&m, garbage), hipErrorInvalidImage);

    // A bundle whose entry count is absurd.
    static char bundle[4096];
    memcpy(bundle, "__CLANG_OFFLOAD_BUNDLE__", 24);
    uint64_t n = 1ull << 40;
    memcpy(bundle + 24, &n, 8);
    expect("bundle_entries", hipModuleLoadData(&m, bundle), hipErrorInvalidImage);

    // A bundle with one entry for another GPU only: no code for gfx1100, the message names gfx90a.
    static char other[4096];
    memcpy(other, "__CLANG_OFFLOAD_BUNDLE__", 24);
    uint64_t one = 1, off = 1024, size = 64, tlen = 32;
    memcpy(other + 24, &one, 8);
    memcpy(other + 32, &off, 8);
    memcpy(other + 40, &size, 8);
    memcpy(other + 48, &tlen, 8);
    memcpy(other + 56, "hipv4-amdgcn-amd-amdhsa--gfx90a:", 32);
    expect("no_gfx1100_code", hipModuleLoadData(&m, other), hipErrorNoBinaryForGpu);

    // A corrupt fat binary registered like a compiler would (its wrapper points at garbage): the
    // first use of its kernels fails, the program goes on.
    static const uint32_t wrapper[6] = { 0x48495046u, 1, 0, 0, 0, 0 };
    void **h = __hipRegisterFatBinary(wrapper);
    printf("case corrupt_fatbin_registered: %s\n", h ? "ok (registered, checked on use)" : "FAILED (no handle)");
    if (!h) failures++;

    // Module API misuse.
    expect("missing_file", hipModuleLoad(&m, "/nonexistent/k.co"), hipErrorFileNotFound);
    if (co) {
        expect("module_load", hipModuleLoad(&m, co), hipSuccess);
        hipFunction_t f;
        expect("missing_kernel", hipModuleGetFunction(&f, m, "no_such_kernel"), hipErrorNotFound);
        expect("get_function", hipModuleGetFunction(&f, m, "scale"), hipSuccess);
        // scale(float *p, float s, int n): 16 bytes of arguments; give 8.
        struct { void *p; } small = { nullptr };
        size_t small_size = sizeof small;
        void *extra[] = { HIP_LAUNCH_PARAM_BUFFER_POINTER, &small, HIP_LAUNCH_PARAM_BUFFER_SIZE, &small_size, HIP_LAUNCH_PARAM_END };
        expect("argument_buffer_too_small", hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, extra), hipErrorInvalidValue);
        expect("module_unload", hipModuleUnload(m), hipSuccess);
        expect("module_unload_twice", hipModuleUnload(m), hipErrorInvalidHandle);
    }

    // Launch configurations a GPU refuses.
    int *d = nullptr;
    expect("malloc", hipMalloc(&d, 256 * sizeof(int)), hipSuccess);
    hipLaunchKernelGGL(add_one, dim3(1), dim3(2048), 0, 0, d, 256);
    expect("block_too_large", hipGetLastError(), hipErrorInvalidConfiguration);
    hipLaunchKernelGGL(add_one, dim3(0), dim3(64), 0, 0, d, 256);
    expect("empty_grid", hipGetLastError(), hipErrorInvalidConfiguration);
    hipLaunchKernelGGL(add_one, dim3(1), dim3(64), 70000, 0, d, 256);
    expect("shared_too_large", hipGetLastError(), hipErrorInvalidValue);
    expect("launch_not_a_kernel", hipLaunchKernel((const void *)&expect, dim3(1), dim3(1), nullptr, 0, nullptr),
           hipErrorInvalidDeviceFunction);
    expect("bad_stream", hipStreamSynchronize((hipStream_t)&failures), hipErrorInvalidHandle);

    // Memory misuse.
    int host;
    expect("free_host_pointer", hipFree(&host), hipErrorInvalidValue);
    expect("free_interior_pointer", hipFree(d + 1), hipErrorInvalidValue);
    expect("host_free_device_pointer", hipHostFree(d), hipErrorInvalidValue);
    void *huge;
    expect("malloc_too_much", hipMalloc(&huge, (size_t)1 << 50), hipErrorOutOfMemory);
    expect("memcpy_bad_kind", hipMemcpy(d, &host, 4, (hipMemcpyKind)42), hipErrorInvalidMemcpyDirection);
    expect("symbol_not_registered", hipMemcpyToSymbol(&host, &host, 4, 0, hipMemcpyHostToDevice), hipErrorInvalidSymbol);

    // An API umbra does not implement: hipErrorNotSupported and a message, never a fake success.
    hipMemPoolPtrExportData export_data;
    expect("unsupported_api", hipMemPoolExportPointer(&export_data, d), hipErrorNotSupported);
    hipGetLastError();

    // Graph handles that are not graphs, nodes or executable graphs: refused, never followed.
    hipGraph_t gg;
    hipGraphNode_t node, bogus_node = reinterpret_cast<hipGraphNode_t>(&host);
    expect("graph_create", hipGraphCreate(&gg, 0), hipSuccess);
    expect("graph_bad_graph", hipGraphAddEmptyNode(&node, reinterpret_cast<hipGraph_t>(&host), nullptr, 0),
           hipErrorInvalidValue);
    expect("graph_bad_dependency", hipGraphAddEmptyNode(&node, gg, &bogus_node, 1), hipErrorInvalidValue);
    hipGraphNodeType type;
    expect("graph_bad_node_type", hipGraphNodeGetType(bogus_node, &type), hipErrorInvalidValue);
    expect("graph_launch_bad_exec", hipGraphLaunch(reinterpret_cast<hipGraphExec_t>(&host), 0), hipErrorInvalidValue);
    expect("graph_destroy", hipGraphDestroy(gg), hipSuccess);
    expect("graph_destroy_twice", hipGraphDestroy(gg), hipErrorInvalidValue);
    hipGetLastError();

    // A kernel that faults: the next synchronising call reports it, and it stays reported.
    hipLaunchKernelGGL(write_null, dim3(1), dim3(32), 0, 0, (int *)nullptr);
    expect("fault_sync", hipDeviceSynchronize(), hipErrorIllegalAddress);
    expect("fault_sticky", hipMemcpy(&host, d, 4, hipMemcpyDeviceToHost), hipErrorIllegalAddress);

    if (failures) {
        printf("%d case(s) FAILED\n", failures);
        return 1;
    }
    printf("ALL PASSED\n");
    return 0;
}
