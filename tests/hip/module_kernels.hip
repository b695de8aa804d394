// Device code for module.hip, compiled on its own into a code object (--cuda-device-only, or
// hipcc --genco) that module.hip loads at run time with the module API.
#include <hip/hip_runtime.h>

__device__ float mod_offset = 0.0f;   // set by the host through hipModuleGetGlobal
__device__ int mod_calls = 0;

extern "C" __global__ void scale_add(float *out, const float *in, float a, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = a * in[i] + mod_offset;
    if (i == 0) atomicAdd(&mod_calls, 1);
  }
}

extern "C" __global__ void fill_index(int *out, int n)
{
  extern __shared__ int tile[];
  tile[threadIdx.x] = blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2 * tile[blockDim.x - 1 - threadIdx.x];
}
