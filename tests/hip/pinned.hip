// Pinned and mapped host memory.
//   hipHostMalloc (default flags) buffers as the source and destination of hipMemcpy;
//   hipHostMalloc(hipHostMallocMapped): hipHostGetDevicePointer gives a device pointer through
//   which a kernel reads in[i] = i and writes out[i] = 3i + 1 straight into host memory (seen by the
//   host after hipDeviceSynchronize, no copy); hipHostGetFlags reports hipHostMallocMapped;
//   hipPointerGetAttributes says host memory for it and device memory for a hipMalloc pointer;
//   hipPointerGetAttribute of a pointer 100 bytes into the hipMalloc buffer: MAPPED and
//   SYNC_MEMOPS true, written as one byte each (the next byte of the variable untouched), the
//   range start and 32-bit size of the allocation, a non-zero BUFFER_ID different from the mapped
//   buffer's, HOST_POINTER -> hipErrorInvalidValue (device memory), as CLR answers;
//   hipHostRegister(malloc'ed memory, hipHostRegisterMapped) + hipHostGetDevicePointer: the kernel
//   writes 3i + 1 into it as well, then hipHostUnregister.
#include "hip_test.h"
#include <vector>

__global__ void triple_plus_one(const int *in, int *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3 * in[i] + 1;
}

int main()
{
  const int n = 10000;
  const size_t bytes = n * sizeof(int);
  const int grid = (n + 255) / 256;

  // Pinned staging buffers for ordinary copies.
  int *pin_in, *pin_out, *din, *dout;
  HIP_CHECK(hipHostMalloc(&pin_in, bytes));
  HIP_CHECK(hipHostMalloc(&pin_out, bytes, hipHostMallocDefault));
  HIP_CHECK(hipMalloc(&din, bytes));
  HIP_CHECK(hipMalloc(&dout, bytes));
  for (int i = 0; i < n; i++) pin_in[i] = i, pin_out[i] = 0;
  HIP_CHECK(hipMemcpy(din, pin_in, bytes, hipMemcpyHostToDevice));
  triple_plus_one<<<grid, 256>>>(din, dout, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(pin_out, dout, bytes, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(pin_out[i] == 3 * i + 1, "pinned copy: out[%d] = %d", i, pin_out[i]);

  // Mapped (zero-copy) memory.
  int *map_in, *map_out, *dmap_in = nullptr, *dmap_out = nullptr;
  HIP_CHECK(hipHostMalloc(&map_in, bytes, hipHostMallocMapped));
  HIP_CHECK(hipHostMalloc(&map_out, bytes, hipHostMallocMapped));
  for (int i = 0; i < n; i++) map_in[i] = i, map_out[i] = -1;
  HIP_CHECK(hipHostGetDevicePointer((void **)&dmap_in, map_in, 0));
  HIP_CHECK(hipHostGetDevicePointer((void **)&dmap_out, map_out, 0));
  EXPECT(dmap_in != nullptr && dmap_out != nullptr, "null device pointers for mapped memory");
  unsigned flags = 0;
  HIP_CHECK(hipHostGetFlags(&flags, map_out));
  EXPECT(flags & hipHostMallocMapped, "hipHostGetFlags = %#x", flags);
  triple_plus_one<<<grid, 256>>>(dmap_in, dmap_out, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  for (int i = 0; i < n; i++) EXPECT(map_out[i] == 3 * i + 1, "mapped: out[%d] = %d", i, map_out[i]);

  hipPointerAttribute_t attr;
  HIP_CHECK(hipPointerGetAttributes(&attr, map_out));
  EXPECT(attr.memoryType == hipMemoryTypeHost, "mapped memory: memoryType %d", (int)attr.memoryType);
  EXPECT(attr.hostPointer == map_out, "mapped memory: hostPointer %p, want %p", attr.hostPointer, (void *)map_out);
  EXPECT(attr.devicePointer == dmap_out, "mapped memory: devicePointer %p, want %p", attr.devicePointer, (void *)dmap_out);
  HIP_CHECK(hipPointerGetAttributes(&attr, dout));
  EXPECT(attr.memoryType == hipMemoryTypeDevice, "hipMalloc memory: memoryType %d", (int)attr.memoryType);
  {
    hipDeviceptr_t inner = (char *)dout + 100;
    bool flags[2] = {false, false};
    unsigned char guard[2] = {0x5a, 0x5a};   // byte 1 of each: must stay
    HIP_CHECK(hipPointerGetAttribute(&guard[0], HIP_POINTER_ATTRIBUTE_MAPPED, inner));
    flags[0] = guard[0];
    HIP_CHECK(hipPointerGetAttribute(&flags[1], HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, inner));
    EXPECT(flags[0] && flags[1] && guard[1] == 0x5a, "MAPPED %d SYNC_MEMOPS %d, the byte after %#x", flags[0],
           flags[1], guard[1]);
    void *start = nullptr;
    unsigned size = 0, id = 0, id_mapped = 0;
    HIP_CHECK(hipPointerGetAttribute(&start, HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR, inner));
    HIP_CHECK(hipPointerGetAttribute(&size, HIP_POINTER_ATTRIBUTE_RANGE_SIZE, inner));
    EXPECT(start == (void *)dout && size == bytes, "range %p + %u, want %p + %zu", start, size, (void *)dout,
           (size_t)bytes);
    // the driver API's several-at-once form gives the same answers
    void *start2 = nullptr;
    unsigned size2 = 0;
    hipPointer_attribute which[2] = { HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR, HIP_POINTER_ATTRIBUTE_RANGE_SIZE };
    void *into[2] = { &start2, &size2 };
    HIP_CHECK(hipDrvPointerGetAttributes(2, which, into, inner));
    EXPECT(start2 == start && size2 == size, "hipDrvPointerGetAttributes: %p + %u", start2, size2);
    HIP_CHECK(hipPointerGetAttribute(&id, HIP_POINTER_ATTRIBUTE_BUFFER_ID, inner));
    HIP_CHECK(hipPointerGetAttribute(&id_mapped, HIP_POINTER_ATTRIBUTE_BUFFER_ID, dmap_out));
    EXPECT(id != 0 && id_mapped != 0 && id != id_mapped, "buffer ids %u and %u", id, id_mapped);
    void *hp = (void *)1;
    EXPECT_ERR(hipPointerGetAttribute(&hp, HIP_POINTER_ATTRIBUTE_HOST_POINTER, inner), hipErrorInvalidValue,
               hipErrorInvalidValue);
    (void)hipGetLastError();   // the expected error is the last one: clear it
  }

  // Registered malloc memory.
  std::vector<int> reg(n + 64, -7);
  int *reg_host = reg.data(), *dreg = nullptr;
  HIP_CHECK(hipHostRegister(reg_host, bytes, hipHostRegisterMapped));
  HIP_CHECK(hipHostGetDevicePointer((void **)&dreg, reg_host, 0));
  triple_plus_one<<<grid, 256>>>(dmap_in, dreg, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  for (int i = 0; i < n; i++) EXPECT(reg[i] == 3 * i + 1, "registered: out[%d] = %d", i, reg[i]);
  for (int i = n; i < n + 64; i++) EXPECT(reg[i] == -7, "registered: past the end [%d] = %d", i, reg[i]);
  HIP_CHECK(hipHostUnregister(reg_host));

  printf("pinned out[9999]=%d mapped out[9999]=%d registered out[9999]=%d\n", pin_out[n - 1],
         map_out[n - 1], reg[n - 1]);
  HIP_CHECK(hipHostFree(pin_in));
  HIP_CHECK(hipHostFree(pin_out));
  HIP_CHECK(hipHostFree(map_in));
  HIP_CHECK(hipHostFree(map_out));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  return ht_finish("pinned");
}
