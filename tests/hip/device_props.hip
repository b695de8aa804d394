// Device queries: what a HIP program learns about umbra's simulated gfx1100 before it launches
// anything. Expected (umbra's defaults): one device; gcnArchName contains "gfx1100"; 96 compute
// units (argv[1] overrides, for `umbra hip --cus N`); warpSize 32; 1024 threads per block and per
// dimension x; 64 KiB of shared memory per block; compute capability 11.0; host memory can be
// mapped; cooperative launches are supported; hipDeviceGetAttribute agrees with the properties.
// A kernel reports the device-side warpSize: EXPECT_WAVE (32, or 64 with -mwavefrontsize64).
// hipDeviceProp_t.arch equals the device code's __HIP_ARCH_HAS_* macros (as hip-tests'
// Unit_hipGetDeviceProperties_ArchPropertiesTst checks: CLR reports no funnel shift, no
// __syncthreads_count/and/or flag, no surfaces, no dynamic parallelism); the HDP flush registers
// come back from hipDeviceGetAttribute as the pointers the properties hold, writable; every
// attribute CLR 5.2 answers is answered.
#include "hip_test.h"

#ifndef EXPECT_WAVE
#define EXPECT_WAVE 32
#endif

__global__ void device_warp_size(int *out) { out[0] = warpSize; }

// The architecture macros in the order of hipDeviceArch_t's fields
__global__ void device_arch_macros(int *out)
{
  out[0] = __HIP_ARCH_HAS_GLOBAL_INT32_ATOMICS__, out[1] = __HIP_ARCH_HAS_GLOBAL_FLOAT_ATOMIC_EXCH__;
  out[2] = __HIP_ARCH_HAS_SHARED_INT32_ATOMICS__, out[3] = __HIP_ARCH_HAS_SHARED_FLOAT_ATOMIC_EXCH__;
  out[4] = __HIP_ARCH_HAS_FLOAT_ATOMIC_ADD__, out[5] = __HIP_ARCH_HAS_GLOBAL_INT64_ATOMICS__;
  out[6] = __HIP_ARCH_HAS_SHARED_INT64_ATOMICS__, out[7] = __HIP_ARCH_HAS_DOUBLES__;
  out[8] = __HIP_ARCH_HAS_WARP_VOTE__, out[9] = __HIP_ARCH_HAS_WARP_BALLOT__;
  out[10] = __HIP_ARCH_HAS_WARP_SHUFFLE__, out[11] = __HIP_ARCH_HAS_WARP_FUNNEL_SHIFT__;
  out[12] = __HIP_ARCH_HAS_THREAD_FENCE_SYSTEM__, out[13] = __HIP_ARCH_HAS_SYNC_THREAD_EXT__;
  out[14] = __HIP_ARCH_HAS_SURFACE_FUNCS__, out[15] = __HIP_ARCH_HAS_3DGRID__;
  out[16] = __HIP_ARCH_HAS_DYNAMIC_PARALLEL__;
}

int main(int argc, char **argv)
{
  // ROCm reports WGPs (two CUs each) on gfx10+: 48 for the RX 7900 XTX's 96 CUs
  const int want_cus = argc > 1 ? atoi(argv[1]) : 48;
  int count = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  EXPECT(count == 1, "hipGetDeviceCount = %d", count);
  HIP_CHECK(hipSetDevice(0));
  int dev = -1;
  HIP_CHECK(hipGetDevice(&dev));
  EXPECT(dev == 0, "hipGetDevice = %d", dev);

  hipDeviceProp_t p;
  memset(&p, 0, sizeof p);
  HIP_CHECK(hipGetDeviceProperties(&p, 0));
  printf("name=%s gcnArchName=%s CUs=%d warpSize=%d maxThreadsPerBlock=%d sharedMemPerBlock=%zu "
         "totalGlobalMem=%zu major=%d minor=%d clockRate=%d l2CacheSize=%d\n",
         p.name, p.gcnArchName, p.multiProcessorCount, p.warpSize, p.maxThreadsPerBlock,
         p.sharedMemPerBlock, p.totalGlobalMem, p.major, p.minor, p.clockRate, p.l2CacheSize);
  EXPECT(strstr(p.gcnArchName, "gfx1100") != nullptr, "gcnArchName = \"%s\"", p.gcnArchName);
  const char *identity = getenv("UMBRA_IDENTITY");   // hip.device_props_rocm: ROCm's name for the card
  const char *want_name = identity && !strcmp(identity, "rocm") ? "Radeon RX 7900 XTX"
                                                               : "umbra AMD Radeon RX 7900 XTX (simulated gfx1100)";
  EXPECT(strcmp(p.name, want_name) == 0, "name = \"%s\", want \"%s\"", p.name, want_name);
  EXPECT(p.multiProcessorCount == want_cus, "multiProcessorCount = %d, want %d", p.multiProcessorCount, want_cus);
  EXPECT(p.maxThreadsPerMultiProcessor == 2048, "maxThreadsPerMultiProcessor = %d, want 2048 (2 CUs x 32 waves of 32)",
         p.maxThreadsPerMultiProcessor);
  EXPECT(p.warpSize == 32, "warpSize = %d", p.warpSize);
  EXPECT(p.maxThreadsPerBlock == 1024, "maxThreadsPerBlock = %d", p.maxThreadsPerBlock);
  EXPECT(p.maxThreadsDim[0] == 1024, "maxThreadsDim[0] = %d", p.maxThreadsDim[0]);
  EXPECT(p.maxGridSize[0] > 0, "maxGridSize[0] = %d", p.maxGridSize[0]);
  EXPECT(p.sharedMemPerBlock == 65536, "sharedMemPerBlock = %zu", p.sharedMemPerBlock);
  EXPECT(p.totalGlobalMem > 0, "totalGlobalMem = %zu", p.totalGlobalMem);
  EXPECT(p.major == 11 && p.minor == 0, "compute capability %d.%d", p.major, p.minor);
  EXPECT(p.canMapHostMemory == 1, "canMapHostMemory = %d", p.canMapHostMemory);
  EXPECT(p.cooperativeLaunch == 1, "cooperativeLaunch = %d", p.cooperativeLaunch);
  EXPECT(p.clockRate > 0, "clockRate = %d", p.clockRate);

  struct { hipDeviceAttribute_t a; int want; const char *name; } attrs[] = {
    {hipDeviceAttributeWarpSize, p.warpSize, "WarpSize"},
    {hipDeviceAttributeMultiprocessorCount, p.multiProcessorCount, "MultiprocessorCount"},
    {hipDeviceAttributeMaxThreadsPerBlock, p.maxThreadsPerBlock, "MaxThreadsPerBlock"},
    {hipDeviceAttributeMaxBlockDimX, p.maxThreadsDim[0], "MaxBlockDimX"},
    {hipDeviceAttributeMaxSharedMemoryPerBlock, (int)p.sharedMemPerBlock, "MaxSharedMemoryPerBlock"},
    {hipDeviceAttributeComputeCapabilityMajor, p.major, "ComputeCapabilityMajor"},
    {hipDeviceAttributeCooperativeLaunch, 1, "CooperativeLaunch"},
  };
  for (auto &a : attrs) {
    int v = -1;
    HIP_CHECK(hipDeviceGetAttribute(&v, a.a, 0));
    EXPECT(v == a.want, "hipDeviceGetAttribute(%s) = %d, want %d", a.name, v, a.want);
  }

  char name[256] = {0};
  HIP_CHECK(hipDeviceGetName(name, sizeof name, 0));
  EXPECT(strcmp(name, p.name) == 0, "hipDeviceGetName = \"%s\", properties say \"%s\"", name, p.name);
  int rt = 0, drv = 0;
  HIP_CHECK(hipRuntimeGetVersion(&rt));
  HIP_CHECK(hipDriverGetVersion(&drv));
  printf("runtime version %d, driver version %d\n", rt, drv);
  size_t free_b = 0, total_b = 0;
  HIP_CHECK(hipMemGetInfo(&free_b, &total_b));
  EXPECT(total_b > 0 && free_b <= total_b, "hipMemGetInfo free %zu total %zu", free_b, total_b);

  hipFuncAttributes fa;
  HIP_CHECK(hipFuncGetAttributes(&fa, reinterpret_cast<const void *>(device_warp_size)));
  EXPECT(fa.maxThreadsPerBlock > 0, "hipFuncGetAttributes maxThreadsPerBlock = %d", fa.maxThreadsPerBlock);

  int *d = nullptr, h = 0;
  HIP_CHECK(hipMalloc(&d, sizeof(int)));
  device_warp_size<<<1, 1>>>(d);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(&h, d, sizeof h, hipMemcpyDeviceToHost));
  EXPECT(h == EXPECT_WAVE, "device-side warpSize = %d, want %d", h, EXPECT_WAVE);
  HIP_CHECK(hipFree(d));

  int *dm = nullptr, macros[17] = {0};
  HIP_CHECK(hipMalloc(&dm, sizeof macros));
  device_arch_macros<<<1, 1>>>(dm);
  HIP_CHECK(hipMemcpy(macros, dm, sizeof macros, hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(dm));
  const hipDeviceArch_t &ar = p.arch;
  const int flags[17] = {
    (int)ar.hasGlobalInt32Atomics, (int)ar.hasGlobalFloatAtomicExch, (int)ar.hasSharedInt32Atomics,
    (int)ar.hasSharedFloatAtomicExch, (int)ar.hasFloatAtomicAdd, (int)ar.hasGlobalInt64Atomics,
    (int)ar.hasSharedInt64Atomics, (int)ar.hasDoubles, (int)ar.hasWarpVote, (int)ar.hasWarpBallot,
    (int)ar.hasWarpShuffle, (int)ar.hasFunnelShift, (int)ar.hasThreadFenceSystem, (int)ar.hasSyncThreadsExt,
    (int)ar.hasSurfaceFuncs, (int)ar.has3dGrid, (int)ar.hasDynamicParallelism};
  for (int i = 0; i < 17; i++)
    EXPECT(flags[i] == macros[i], "hipDeviceProp_t.arch field %d = %d, the device macro says %d", i, flags[i], macros[i]);
  EXPECT(ar.hasFunnelShift == 0 && ar.hasSyncThreadsExt == 0 && ar.hasWarpShuffle == 1,
         "arch: funnel shift %d, sync threads ext %d, warp shuffle %d (CLR: 0, 0, 1)", (int)ar.hasFunnelShift,
         (int)ar.hasSyncThreadsExt, (int)ar.hasWarpShuffle);

  // HDP flush registers: pointers, written through the int* as CLR does; writes are harmless
  unsigned int *hdp[2] = {nullptr, nullptr};
  HIP_CHECK(hipDeviceGetAttribute(reinterpret_cast<int *>(&hdp[0]), hipDeviceAttributeHdpMemFlushCntl, 0));
  HIP_CHECK(hipDeviceGetAttribute(reinterpret_cast<int *>(&hdp[1]), hipDeviceAttributeHdpRegFlushCntl, 0));
  EXPECT(hdp[0] == p.hdpMemFlushCntl && hdp[0] != nullptr, "HdpMemFlushCntl %p, properties %p", (void *)hdp[0],
         (void *)p.hdpMemFlushCntl);
  EXPECT(hdp[1] == p.hdpRegFlushCntl && hdp[1] != nullptr, "HdpRegFlushCntl %p, properties %p", (void *)hdp[1],
         (void *)p.hdpRegFlushCntl);
  if (hdp[0]) *hdp[0] = 1;   // a program flushing the host data path after writing device memory
  if (hdp[1]) *hdp[1] = 1;

  const hipDeviceAttribute_t more[] = {
    hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc, hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim,
    hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim, hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem};
  const int more_want[] = {p.cooperativeMultiDeviceUnmatchedFunc, p.cooperativeMultiDeviceUnmatchedGridDim,
                           p.cooperativeMultiDeviceUnmatchedBlockDim, p.cooperativeMultiDeviceUnmatchedSharedMem};
  for (int i = 0; i < 4; i++) {
    int v = -1;
    HIP_CHECK(hipDeviceGetAttribute(&v, more[i], 0));
    EXPECT(v == more_want[i], "cooperative multi-device attribute %d = %d, properties say %d", (int)more[i], v, more_want[i]);
  }
  return ht_finish("device_props");
}
