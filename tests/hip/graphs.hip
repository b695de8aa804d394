// Graphs and stream capture, checked against host recomputation and the error codes CUDA's runtime
// documents for the same calls (HIP 5.2 follows them; where CLR 5.2 differs, the comment says so).
//
// Explicit graph (a = 0..N-1 in host memory):
//   n1 memcpy1D d_a <- h_a          n2 memset d_b = 7 (4-byte elements)
//   n3 kernel add: d_c = d_a + d_b   (after n1, n2)
//   n4 host node: counts its runs    (after n3)
//   n5 child graph { scale: d_c *= 3 }  (after n3)
//   n6 memcpy (3D parameters) h_c <- d_c  (after n5)
//   n7 event record                  (after n6)
// Expected after a launch: h_c[i] = 3 (i + 7), one host-node run per launch; after
// hipGraphExecKernelNodeSetParams gives n3's copy (d_a, d_a, d_c): h_c[i] = 3 (2i), while the graph
// itself keeps its parameters (GetParams). Queries: 7 nodes, 6 edges, roots {n1, n2}, n3 has 2
// dependencies and 2 dependents, node types as made, the clone's copy of n3 found and of type kernel.
// A cycle cannot be instantiated; an edge given twice is refused; hipGraphExecUpdate with another
// topology fails with hipGraphExecUpdateErrorTopologyChanged. An executable graph launched 50 times
// (25 on each of two streams, alternating) runs 50 times: d_x = 50. A graph copying into pageable
// host memory has the data there when hipGraphLaunch returns (as CLR's copies to pageable memory).
//
// Capture (d_x = 42 before): s0 memset d_x = 0, inc (d_x += 1), record fork; s1 waits for fork,
// twice (d_y = 2 d_x), records join; s0 add5 (d_x += 5), waits for join, copies d_y to h_y.
// While capturing nothing runs (d_x still 42 after hipStreamEndCapture), both streams report the
// same capture id and an active status; the graph has 5 nodes (memset, 3 kernels, memcpy1D) and 5
// edges. After a launch: h_y[i] = 2, d_x[i] = 6. Errors: ending a capture whose forked stream was
// not joined back (hipErrorStreamCaptureUnjoined), synchronizing a capturing stream
// (hipErrorStreamCaptureUnsupported, then hipStreamEndCapture hipErrorStreamCaptureInvalidated),
// ending in another stream (hipErrorStreamCaptureUnmatched), ending a stream that does not capture
// and beginning twice (hipErrorIllegalState), capturing the null stream
// (hipErrorStreamCaptureUnsupported). A graph launched into a capturing stream is a child-graph node;
// hipStreamUpdateCaptureDependencies with an empty set makes the next node a root. The graph being
// captured cannot be destroyed before the capture ends; a stream destroyed while it captures takes
// its capture with it.
#include "hip_test.h"
#include <vector>

enum { N = 1024, B = 256 };

__global__ void add(const int *a, const int *b, int *c, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void scale(int *c, int k, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] *= k;
}

__global__ void inc(int *x, int by, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += by;
}

__global__ void twice(const int *x, int *y, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * x[i];
}

static int host_runs = 0;
static void count_run(void *p) { (*static_cast<int *>(p))++; }

static hipKernelNodeParams kernel_params(const void *fn, void **args)
{
  hipKernelNodeParams p{};
  p.func = const_cast<void *>(fn);
  p.gridDim = dim3(N / B);
  p.blockDim = dim3(B);
  p.kernelParams = args;
  return p;
}

static size_t count_nodes(hipGraph_t g)
{
  size_t n = 0;
  HIP_CHECK(hipGraphGetNodes(g, nullptr, &n));
  return n;
}

static size_t count_edges(hipGraph_t g)
{
  size_t n = 0;
  HIP_CHECK(hipGraphGetEdges(g, nullptr, nullptr, &n));
  return n;
}

static void read_all(const int *d, std::vector<int> &h)
{
  h.assign(N, -1);
  HIP_CHECK(hipMemcpy(h.data(), d, N * sizeof(int), hipMemcpyDeviceToHost));
}

static void explicit_graph(hipStream_t s, hipStream_t s2)
{
  int *d_a, *d_b, *d_c, *h_a, *h_c;
  HIP_CHECK(hipMalloc(&d_a, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_b, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_c, N * sizeof(int)));
  HIP_CHECK(hipHostMalloc(&h_a, N * sizeof(int)));
  HIP_CHECK(hipHostMalloc(&h_c, N * sizeof(int)));
  for (int i = 0; i < N; i++) h_a[i] = i, h_c[i] = -1;

  hipGraph_t g, child;
  HIP_CHECK(hipGraphCreate(&g, 0));
  HIP_CHECK(hipGraphCreate(&child, 0));
  hipGraphNode_t n1, n2, n3, n4, n5, n6, n7, cs;
  HIP_CHECK(hipGraphAddMemcpyNode1D(&n1, g, nullptr, 0, d_a, h_a, N * sizeof(int), hipMemcpyHostToDevice));
  hipMemsetParams ms{};
  ms.dst = d_b, ms.elementSize = 4, ms.width = N, ms.height = 1, ms.value = 7;
  HIP_CHECK(hipGraphAddMemsetNode(&n2, g, nullptr, 0, &ms));
  int n = N, k3 = 3;
  void *add_args[] = { &d_a, &d_b, &d_c, &n };
  hipKernelNodeParams kp = kernel_params((const void *)add, add_args);
  hipGraphNode_t deps12[] = { n1, n2 };
  HIP_CHECK(hipGraphAddKernelNode(&n3, g, deps12, 2, &kp));
  hipHostNodeParams hp{ count_run, &host_runs };
  HIP_CHECK(hipGraphAddHostNode(&n4, g, &n3, 1, &hp));
  void *scale_args[] = { &d_c, &k3, &n };
  hipKernelNodeParams sp = kernel_params((const void *)scale, scale_args);
  HIP_CHECK(hipGraphAddKernelNode(&cs, child, nullptr, 0, &sp));
  HIP_CHECK(hipGraphAddChildGraphNode(&n5, g, &n3, 1, child));
  hipMemcpy3DParms m3{};
  m3.srcPtr = make_hipPitchedPtr(d_c, N * sizeof(int), N * sizeof(int), 1);
  m3.dstPtr = make_hipPitchedPtr(h_c, N * sizeof(int), N * sizeof(int), 1);
  m3.extent = make_hipExtent(N * sizeof(int), 1, 1);
  m3.kind = hipMemcpyDeviceToHost;
  HIP_CHECK(hipGraphAddMemcpyNode(&n6, g, &n5, 1, &m3));
  hipEvent_t ev;
  HIP_CHECK(hipEventCreate(&ev));
  HIP_CHECK(hipGraphAddEventRecordNode(&n7, g, &n6, 1, ev));

  // queries
  EXPECT(count_nodes(g) == 7, "%zu nodes", count_nodes(g));
  EXPECT(count_edges(g) == 6, "%zu edges", count_edges(g));
  hipGraphNode_t roots[4] = {};
  size_t nroots = 4;
  HIP_CHECK(hipGraphGetRootNodes(g, roots, &nroots));
  EXPECT(nroots == 2 && roots[0] == n1 && roots[1] == n2 && roots[2] == nullptr, "roots %zu", nroots);
  size_t ndeps = 0, nouts = 0;
  HIP_CHECK(hipGraphNodeGetDependencies(n3, nullptr, &ndeps));
  HIP_CHECK(hipGraphNodeGetDependentNodes(n3, nullptr, &nouts));
  EXPECT(ndeps == 2 && nouts == 2, "n3: %zu dependencies, %zu dependents", ndeps, nouts);
  hipGraphNodeType t[7];
  hipGraphNode_t all[] = { n1, n2, n3, n4, n5, n6, n7 };
  const hipGraphNodeType want_t[] = { hipGraphNodeTypeMemcpy1D, hipGraphNodeTypeMemset, hipGraphNodeTypeKernel,
                                      hipGraphNodeTypeHost, hipGraphNodeTypeGraph, hipGraphNodeTypeMemcpy,
                                      hipGraphNodeTypeEventRecord };
  for (int i = 0; i < 7; i++) {
    HIP_CHECK(hipGraphNodeGetType(all[i], &t[i]));
    EXPECT(t[i] == want_t[i], "node %d type %d, want %d", i + 1, (int)t[i], (int)want_t[i]);
  }
  hipMemsetParams ms_back{};
  HIP_CHECK(hipGraphMemsetNodeGetParams(n2, &ms_back));
  EXPECT(ms_back.dst == d_b && ms_back.value == 7 && ms_back.width == N && ms_back.elementSize == 4, "memset params");

  // errors
  EXPECT_ERR(hipGraphAddDependencies(g, &n1, &n3, 1), hipErrorInvalidValue, hipErrorInvalidValue);   // exists
  EXPECT_ERR(hipGraphAddDependencies(g, &n3, &n3, 1), hipErrorInvalidValue, hipErrorInvalidValue);   // self
  EXPECT_ERR(hipGraphGetNodes(g, nullptr, nullptr), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT_ERR(hipGraphDestroy(nullptr), hipErrorInvalidValue, hipErrorInvalidValue);
  hipGraphNode_t bad;
  ms.elementSize = 3;
  EXPECT_ERR(hipGraphAddMemsetNode(&bad, g, nullptr, 0, &ms), hipErrorInvalidValue, hipErrorInvalidValue);
  EXPECT(count_nodes(g) == 7, "a refused node was added");
  hipGraphExec_t x;
  HIP_CHECK(hipGraphAddDependencies(g, &n7, &n1, 1));   // a cycle
  EXPECT_ERR(hipGraphInstantiate(&x, g, nullptr, nullptr, 0), hipErrorInvalidValue, hipErrorInvalidValue);
  HIP_CHECK(hipGraphRemoveDependencies(g, &n7, &n1, 1));

  // clone
  hipGraph_t clone;
  hipGraphNode_t n3c;
  HIP_CHECK(hipGraphClone(&clone, g));
  HIP_CHECK(hipGraphNodeFindInClone(&n3c, n3, clone));
  hipGraphNodeType tc;
  HIP_CHECK(hipGraphNodeGetType(n3c, &tc));
  EXPECT(n3c != n3 && tc == hipGraphNodeTypeKernel && count_nodes(clone) == 7, "clone");

  // launch
  HIP_CHECK(hipGraphInstantiate(&x, g, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(x, s));
  HIP_CHECK(hipStreamSynchronize(s));
  int bad_c = 0;
  for (int i = 0; i < N; i++) bad_c += h_c[i] != 3 * (i + 7);
  EXPECT(bad_c == 0 && host_runs == 1, "first launch: %d wrong, %d host runs", bad_c, host_runs);
  HIP_CHECK(hipEventSynchronize(ev));
  EXPECT(hipEventQuery(ev) == hipSuccess, "the event node recorded");

  // the executable graph's copy of n3 changes; the graph keeps its parameters
  void *add2_args[] = { &d_a, &d_a, &d_c, &n };
  hipKernelNodeParams kp2 = kernel_params((const void *)add, add2_args);
  HIP_CHECK(hipGraphExecKernelNodeSetParams(x, n3, &kp2));
  HIP_CHECK(hipGraphLaunch(x, s));
  HIP_CHECK(hipStreamSynchronize(s));
  bad_c = 0;
  for (int i = 0; i < N; i++) bad_c += h_c[i] != 3 * (2 * i);
  EXPECT(bad_c == 0 && host_runs == 2, "after hipGraphExecKernelNodeSetParams: %d wrong, %d host runs", bad_c, host_runs);
  hipKernelNodeParams back{};
  HIP_CHECK(hipGraphKernelNodeGetParams(n3, &back));
  EXPECT(back.func == (void *)add && back.gridDim.x == N / B && back.blockDim.x == B &&
         *static_cast<int **>(back.kernelParams[1]) == d_b, "the graph's kernel node kept its parameters");

  // update with another topology
  hipGraph_t small;
  hipGraphNode_t e1, err_node = nullptr;
  hipGraphExecUpdateResult r = hipGraphExecUpdateSuccess;
  HIP_CHECK(hipGraphCreate(&small, 0));
  HIP_CHECK(hipGraphAddEmptyNode(&e1, small, nullptr, 0));
  EXPECT_ERR(hipGraphExecUpdate(x, small, &err_node, &r), hipErrorGraphExecUpdateFailure, hipErrorGraphExecUpdateFailure);
  EXPECT(r == hipGraphExecUpdateErrorTopologyChanged, "update result %d", (int)r);

  // one executable graph, 50 launches over two streams
  int *d_x;
  HIP_CHECK(hipMalloc(&d_x, N * sizeof(int)));
  HIP_CHECK(hipMemset(d_x, 0, N * sizeof(int)));
  hipGraph_t gi;
  hipGraphNode_t ni;
  int one = 1;
  void *inc_args[] = { &d_x, &one, &n };
  hipKernelNodeParams ip = kernel_params((const void *)inc, inc_args);
  HIP_CHECK(hipGraphCreate(&gi, 0));
  HIP_CHECK(hipGraphAddKernelNode(&ni, gi, nullptr, 0, &ip));
  one = 1000;   // the node copied the value at hipGraphAddKernelNode
  hipGraphExec_t xi;
  HIP_CHECK(hipGraphInstantiate(&xi, gi, nullptr, nullptr, 0));
  for (int l = 0; l < 50; l++) HIP_CHECK(hipGraphLaunch(xi, l % 2 ? s2 : s));
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<int> hx;
  read_all(d_x, hx);
  int bad_x = 0;
  for (int i = 0; i < N; i++) bad_x += hx[i] != 50;
  EXPECT(bad_x == 0, "50 launches: %d wrong (x[0] = %d)", bad_x, hx[0]);

  // pageable host memory: the data is there when hipGraphLaunch returns
  std::vector<int> pageable(N, -1);
  hipGraph_t gp;
  hipGraphNode_t np;
  HIP_CHECK(hipGraphCreate(&gp, 0));
  HIP_CHECK(hipGraphAddMemcpyNode1D(&np, gp, nullptr, 0, pageable.data(), d_x, N * sizeof(int), hipMemcpyDeviceToHost));
  hipGraphExec_t xp;
  HIP_CHECK(hipGraphInstantiate(&xp, gp, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(xp, s));
  EXPECT(pageable[0] == 50 && pageable[N - 1] == 50, "pageable copy: %d %d", pageable[0], pageable[N - 1]);
  HIP_CHECK(hipStreamSynchronize(s));

  HIP_CHECK(hipGraphExecDestroy(xp));
  HIP_CHECK(hipGraphExecDestroy(xi));
  HIP_CHECK(hipGraphExecDestroy(x));
  EXPECT_ERR(hipGraphExecDestroy(x), hipErrorInvalidValue, hipErrorInvalidValue);
  for (hipGraph_t d : { gp, gi, small, clone, child, g }) HIP_CHECK(hipGraphDestroy(d));
  HIP_CHECK(hipEventDestroy(ev));
  HIP_CHECK(hipFree(d_x));
  HIP_CHECK(hipFree(d_a));
  HIP_CHECK(hipFree(d_b));
  HIP_CHECK(hipFree(d_c));
  HIP_CHECK(hipHostFree(h_a));
  HIP_CHECK(hipHostFree(h_c));
}

static void captured_graph(hipStream_t s0, hipStream_t s1)
{
  int *d_x, *d_y, *h_y, n = N;
  HIP_CHECK(hipMalloc(&d_x, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_y, N * sizeof(int)));
  HIP_CHECK(hipHostMalloc(&h_y, N * sizeof(int)));
  std::vector<int> h(N, 42);
  HIP_CHECK(hipMemcpy(d_x, h.data(), N * sizeof(int), hipMemcpyHostToDevice));
  for (int i = 0; i < N; i++) h_y[i] = -1;
  hipEvent_t fork, join;
  HIP_CHECK(hipEventCreateWithFlags(&fork, hipEventDisableTiming));
  HIP_CHECK(hipEventCreateWithFlags(&join, hipEventDisableTiming));

  HIP_CHECK(hipStreamBeginCapture(s0, hipStreamCaptureModeGlobal));
  HIP_CHECK(hipMemsetAsync(d_x, 0, N * sizeof(int), s0));
  inc<<<N / B, B, 0, s0>>>(d_x, 1, n);
  HIP_CHECK(hipEventRecord(fork, s0));
  HIP_CHECK(hipStreamWaitEvent(s1, fork, 0));
  twice<<<N / B, B, 0, s1>>>(d_x, d_y, n);
  HIP_CHECK(hipEventRecord(join, s1));
  inc<<<N / B, B, 0, s0>>>(d_x, 5, n);
  hipStreamCaptureStatus st0, st1;
  unsigned long long id0 = 0, id1 = 0;
  HIP_CHECK(hipStreamGetCaptureInfo(s0, &st0, &id0));
  HIP_CHECK(hipStreamGetCaptureInfo(s1, &st1, &id1));
  EXPECT(st0 == hipStreamCaptureStatusActive && st1 == hipStreamCaptureStatusActive && id0 && id0 == id1,
         "capture status %d %d ids %llu %llu", (int)st0, (int)st1, id0, id1);
  hipGraph_t inside = nullptr;
  const hipGraphNode_t *front = nullptr;
  size_t nfront = 0;
  HIP_CHECK(hipStreamGetCaptureInfo_v2(s0, &st0, nullptr, &inside, &front, &nfront));
  EXPECT(inside != nullptr && nfront == 1, "capture info v2: graph %p, %zu dependencies", (void *)inside, nfront);
  HIP_CHECK(hipStreamWaitEvent(s0, join, 0));
  HIP_CHECK(hipMemcpyAsync(h_y, d_y, N * sizeof(int), hipMemcpyDeviceToHost, s0));
  hipGraph_t g;
  HIP_CHECK(hipStreamEndCapture(s0, &g));
  HIP_CHECK(hipStreamIsCapturing(s0, &st0));
  HIP_CHECK(hipStreamIsCapturing(s1, &st1));
  EXPECT(st0 == hipStreamCaptureStatusNone && st1 == hipStreamCaptureStatusNone, "still capturing: %d %d", (int)st0, (int)st1);
  std::vector<int> hx;
  read_all(d_x, hx);
  EXPECT(hx[0] == 42 && hx[N - 1] == 42 && h_y[0] == -1, "work ran during the capture: x %d, y %d", hx[0], h_y[0]);
  EXPECT(count_nodes(g) == 5 && count_edges(g) == 5, "captured %zu nodes, %zu edges", count_nodes(g), count_edges(g));
  hipGraphNode_t nodes[5];
  size_t nn = 5;
  HIP_CHECK(hipGraphGetNodes(g, nodes, &nn));
  const hipGraphNodeType want_t[] = { hipGraphNodeTypeMemset, hipGraphNodeTypeKernel, hipGraphNodeTypeKernel,
                                      hipGraphNodeTypeKernel, hipGraphNodeTypeMemcpy1D };
  for (size_t i = 0; i < nn; i++) {
    hipGraphNodeType t;
    HIP_CHECK(hipGraphNodeGetType(nodes[i], &t));
    EXPECT(t == want_t[i], "captured node %zu: type %d, want %d", i, (int)t, (int)want_t[i]);
  }
  hipGraphExec_t x;
  HIP_CHECK(hipGraphInstantiate(&x, g, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(x, s0));
  HIP_CHECK(hipStreamSynchronize(s0));
  read_all(d_x, hx);
  int bad = 0;
  for (int i = 0; i < N; i++) bad += h_y[i] != 2 || hx[i] != 6;
  EXPECT(bad == 0, "captured graph: %d wrong (y %d, x %d)", bad, h_y[0], hx[0]);

  // a graph launched into a capture becomes a child-graph node; an empty dependency set, a root
  hipGraph_t outer;
  HIP_CHECK(hipStreamBeginCapture(s0, hipStreamCaptureModeRelaxed));
  HIP_CHECK(hipGraphLaunch(x, s0));
  HIP_CHECK(hipStreamUpdateCaptureDependencies(s0, nullptr, 0, hipStreamSetCaptureDependencies));
  inc<<<N / B, B, 0, s0>>>(d_x, 1, n);
  HIP_CHECK(hipStreamEndCapture(s0, &outer));
  hipGraphNode_t on[2];
  size_t non = 2, nroot = 0;
  HIP_CHECK(hipGraphGetNodes(outer, on, &non));
  HIP_CHECK(hipGraphGetRootNodes(outer, nullptr, &nroot));
  hipGraphNodeType t0 = hipGraphNodeTypeCount;
  if (non == 2) HIP_CHECK(hipGraphNodeGetType(on[0], &t0));
  EXPECT(non == 2 && t0 == hipGraphNodeTypeGraph && nroot == 2, "outer: %zu nodes, type %d, %zu roots", non, (int)t0, nroot);

  // errors
  hipGraph_t none = reinterpret_cast<hipGraph_t>(1);
  HIP_CHECK(hipStreamBeginCapture(s0, hipStreamCaptureModeGlobal));
  HIP_CHECK(hipEventRecord(fork, s0));
  HIP_CHECK(hipStreamWaitEvent(s1, fork, 0));
  inc<<<N / B, B, 0, s1>>>(d_x, 1, n);
  EXPECT_ERR(hipStreamEndCapture(s1, &none), hipErrorStreamCaptureUnmatched, hipErrorStreamCaptureUnmatched);
  EXPECT_ERR(hipStreamEndCapture(s0, &none), hipErrorStreamCaptureUnjoined, hipErrorStreamCaptureInvalidated);
  EXPECT(none == nullptr, "a failed capture returned a graph");
  HIP_CHECK(hipStreamIsCapturing(s1, &st1));
  EXPECT(st1 == hipStreamCaptureStatusNone, "the forked stream still captures");

  HIP_CHECK(hipStreamBeginCapture(s0, hipStreamCaptureModeGlobal));
  EXPECT_ERR(hipStreamBeginCapture(s0, hipStreamCaptureModeGlobal), hipErrorIllegalState, hipErrorIllegalState);
  inc<<<N / B, B, 0, s0>>>(d_x, 1, n);
  EXPECT_ERR(hipStreamSynchronize(s0), hipErrorStreamCaptureUnsupported, hipErrorStreamCaptureUnsupported);
  HIP_CHECK(hipStreamIsCapturing(s0, &st0));
  EXPECT(st0 == hipStreamCaptureStatusInvalidated, "status after a sync: %d", (int)st0);
  EXPECT_ERR(hipMemcpyWithStream(h_y, d_y, 4, hipMemcpyDeviceToHost, s0), hipErrorStreamCaptureUnsupported,
             hipErrorStreamCaptureInvalidated);
  EXPECT_ERR(hipStreamEndCapture(s0, &none), hipErrorStreamCaptureInvalidated, hipErrorStreamCaptureInvalidated);
  EXPECT_ERR(hipStreamEndCapture(s0, &none), hipErrorIllegalState, hipErrorIllegalState);
  EXPECT_ERR(hipStreamBeginCapture(nullptr, hipStreamCaptureModeGlobal), hipErrorStreamCaptureUnsupported,
             hipErrorStreamCaptureUnsupported);
  hipStreamCaptureMode mode = hipStreamCaptureModeRelaxed;
  HIP_CHECK(hipThreadExchangeStreamCaptureMode(&mode));
  EXPECT(mode == hipStreamCaptureModeGlobal, "the thread's previous mode %d", (int)mode);
  HIP_CHECK(hipThreadExchangeStreamCaptureMode(&mode));

  // the graph being captured is the capture's: hipGraphDestroy refuses it until the capture ends
  hipGraph_t inside2 = nullptr, ended = nullptr;
  HIP_CHECK(hipStreamBeginCapture(s0, hipStreamCaptureModeGlobal));
  inc<<<N / B, B, 0, s0>>>(d_x, 1, n);
  HIP_CHECK(hipStreamGetCaptureInfo_v2(s0, &st0, nullptr, &inside2, nullptr, nullptr));
  EXPECT_ERR(hipGraphDestroy(inside2), hipErrorInvalidValue, hipErrorInvalidValue);
  HIP_CHECK(hipStreamEndCapture(s0, &ended));
  EXPECT(ended == inside2, "the captured graph %p, %p while capturing", (void *)ended, (void *)inside2);
  HIP_CHECK(hipGraphDestroy(ended));
  // a stream destroyed while it captures: the capture goes with it (nothing leaks, nothing runs)
  hipStream_t s2;
  HIP_CHECK(hipStreamCreate(&s2));
  HIP_CHECK(hipStreamBeginCapture(s2, hipStreamCaptureModeRelaxed));
  inc<<<N / B, B, 0, s2>>>(d_x, 1000, n);
  HIP_CHECK(hipStreamDestroy(s2));

  // nothing of the failed captures ran: d_x is still 6
  read_all(d_x, hx);
  EXPECT(hx[0] == 6, "x %d after the failed captures", hx[0]);
  HIP_CHECK(hipGraphExecDestroy(x));
  HIP_CHECK(hipGraphDestroy(outer));
  HIP_CHECK(hipGraphDestroy(g));
  HIP_CHECK(hipEventDestroy(fork));
  HIP_CHECK(hipEventDestroy(join));
  HIP_CHECK(hipFree(d_x));
  HIP_CHECK(hipFree(d_y));
  HIP_CHECK(hipHostFree(h_y));
}

int main()
{
  hipStream_t s0, s1;
  HIP_CHECK(hipStreamCreate(&s0));
  HIP_CHECK(hipStreamCreate(&s1));
  explicit_graph(s0, s1);
  captured_graph(s0, s1);
  HIP_CHECK(hipStreamDestroy(s0));
  HIP_CHECK(hipStreamDestroy(s1));
  return ht_finish("graphs");
}
