// Managed (unified) memory.
//   hipMallocManaged: the host writes p[i] = i, a kernel makes it 3p[i] + 1, the host reads it
//   after hipDeviceSynchronize (3i + 1), adds 5 to every element, a second kernel triples again:
//   3(3i + 6) + 1 = 9i + 19. hipMemPrefetchAsync to the device is accepted; hipPointerGetAttributes
//   marks the pointer isManaged. A __managed__ variable (counter = 10 statically) is
//   incremented by every one of the 1000 threads with atomicAdd and read by the host: 2010.
#include "hip_test.h"

__managed__ int counter = 10;

__global__ void step(int *p, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i] = 3 * p[i] + 1;
    atomicAdd(&counter, 1);
  }
}

int main()
{
  const int n = 1000;
  int *p = nullptr;
  HIP_CHECK(hipMallocManaged(&p, n * sizeof(int)));
  for (int i = 0; i < n; i++) p[i] = i;
  HIP_CHECK(hipMemPrefetchAsync(p, n * sizeof(int), 0, 0));
  step<<<(n + 127) / 128, 128>>>(p, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  for (int i = 0; i < n; i++) EXPECT(p[i] == 3 * i + 1, "after one step p[%d] = %d", i, p[i]);
  for (int i = 0; i < n; i++) p[i] += 5;
  step<<<(n + 127) / 128, 128>>>(p, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  for (int i = 0; i < n; i++) EXPECT(p[i] == 9 * i + 19, "after two steps p[%d] = %d", i, p[i]);

  hipPointerAttribute_t attr;
  HIP_CHECK(hipPointerGetAttributes(&attr, p));
  EXPECT(attr.isManaged == 1, "isManaged = %d", attr.isManaged);
  printf("p[999]=%d counter=%d\n", p[n - 1], counter);
  EXPECT(counter == 10 + 2 * n, "__managed__ counter = %d, want %d", counter, 10 + 2 * n);
  HIP_CHECK(hipFree(p));
  return ht_finish("managed");
}
