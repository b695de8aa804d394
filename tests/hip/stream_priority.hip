// Stream priorities when streams contend for the device: the waiting command of the stream with
// the most urgent priority starts first (hipStreamCreateWithPriority; CLR's levels -1 high, 0
// normal, 1 low). A long kernel on a fourth stream holds the device while one kernel is enqueued on
// each of a low, a normal and a high priority stream (in that order); once the long kernel is
// known to be still running after the three had time to queue up, each kernel takes a ticket from
// a device counter. Expected tickets: high 0, normal 1, low 2 (in enqueue order they would be
// low 0, normal 1, high 2). If the long kernel ends before the check (a very slow host), it is run
// again twice as long, up to 6 times.
#include "hip_test.h"
#include <chrono>
#include <thread>

__global__ void spin(unsigned *sink, unsigned iters)
{
  unsigned v = threadIdx.x;
  for (unsigned i = 0; i < iters; i++) v = v * 1664525u + 1013904223u;
  if (v == 0x12345678u) *sink = v;   // keeps the loop
}

__global__ void take_ticket(unsigned *counter, unsigned *ticket)
{
  if (threadIdx.x == 0) *ticket = atomicAdd(counter, 1u);
}

int main()
{
  int least = 0, greatest = 0;
  HIP_CHECK(hipDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT(least == 1 && greatest == -1, "priority range %d..%d", least, greatest);
  hipStream_t gate, s[3];   // s[0] low, s[1] normal, s[2] high
  const int prio[3] = { least, 0, greatest };
  HIP_CHECK(hipStreamCreateWithFlags(&gate, hipStreamNonBlocking));
  for (int k = 0; k < 3; k++) HIP_CHECK(hipStreamCreateWithPriority(&s[k], hipStreamNonBlocking, prio[k]));
  unsigned *counter, *tickets, *sink;
  HIP_CHECK(hipMalloc(&counter, sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&tickets, 3 * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&sink, sizeof(unsigned)));
  unsigned iters = 1u << 21;
  bool contended = false;
  for (int attempt = 0; attempt < 6 && !contended; attempt++, iters *= 2) {
    HIP_CHECK(hipMemset(counter, 0, sizeof(unsigned)));
    HIP_CHECK(hipMemset(tickets, 0xff, 3 * sizeof(unsigned)));
    HIP_CHECK(hipDeviceSynchronize());
    hipLaunchKernelGGL(spin, dim3(1), dim3(32), 0, gate, sink, iters);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));   // the gate kernel has the device
    for (int k = 0; k < 3; k++) hipLaunchKernelGGL(take_ticket, dim3(1), dim3(32), 0, s[k], counter, tickets + k);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));   // the three queue up for it
    contended = hipStreamQuery(gate) == hipErrorNotReady;
    HIP_CHECK(hipDeviceSynchronize());
  }
  EXPECT(contended, "the gate kernel never outlasted the wait: the order was not tested");
  unsigned got[3];
  HIP_CHECK(hipMemcpy(got, tickets, sizeof got, hipMemcpyDeviceToHost));
  printf("tickets: low %u, normal %u, high %u\n", got[0], got[1], got[2]);
  EXPECT(got[2] == 0 && got[1] == 1 && got[0] == 2, "tickets low %u normal %u high %u, want 2 1 0", got[0], got[1], got[2]);
  int p = 99;
  HIP_CHECK(hipStreamGetPriority(s[2], &p));
  EXPECT(p == -1, "the high stream's priority %d", p);
  for (int k = 0; k < 3; k++) HIP_CHECK(hipStreamDestroy(s[k]));
  HIP_CHECK(hipStreamDestroy(gate));
  HIP_CHECK(hipFree(counter));
  HIP_CHECK(hipFree(tickets));
  HIP_CHECK(hipFree(sink));
  return ht_finish("stream_priority");
}
