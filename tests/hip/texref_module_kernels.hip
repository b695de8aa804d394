// Device code of hip.texref_module (texref_module.hip), built apart as a code object: two texture
// references as module variables, read by kernels the host launches with hipModuleLaunchKernel.
#include <hip/hip_runtime.h>

texture<float, hipTextureType2D, hipReadModeElementType> tex2d;
texture<float, hipTextureType1D, hipReadModeElementType> tex1d;

extern "C" __global__ void read2d(float *out, int w, int h)
{
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D(tex2d, x + 0.5f, y + 0.5f);
}

extern "C" __global__ void fetch1d(float *out, int n)
{
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch(tex1d, i);
}
