/* The OpenCL API of the umbra platform: each entry point's success path and the error codes the
 * OpenCL 1.2 specification gives it (the 2.x/3.0 features: ocl30_test.c). Runs through the ICD loader (OCL_ICD_VENDORS = umbra.icd).
 * usage: opencl_api CASE (one case) or opencl_api (all). */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
/* A call returning an object: the error code and whether an object came back. */
#define EXPECT_OBJ_ERR(expr, code)                                 \
    do {                                                           \
        cl_int e_ = 12345;                                         \
        void *o_ = (void *)(expr);                                 \
        EXPECT_ERR(e_, code);                                      \
        EXPECT((o_ != NULL) == ((code) == CL_SUCCESS));            \
    } while (0)
#define ERR (&e_)

static cl_platform_id plat;
static cl_device_id dev;

static void setup(void)
{
    if (clGetPlatformIDs(1, &plat, NULL) || clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL)) {
        fprintf(stderr, "no OpenCL platform (is OCL_ICD_VENDORS set to umbra.icd?)\n");
        exit(1);
    }
}

static cl_context new_context(void)
{
    cl_int e;
    cl_context c = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    if (e) { fprintf(stderr, "clCreateContext: %d\n", e); exit(1); }
    return c;
}

static cl_command_queue new_queue(cl_context c, cl_command_queue_properties props)
{
    cl_int e;
    cl_command_queue q = clCreateCommandQueue(c, dev, props, &e);
    if (e) { fprintf(stderr, "clCreateCommandQueue: %d\n", e); exit(1); }
    return q;
}

static cl_program build(cl_context c, const char *src, const char *options)
{
    cl_int e;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    if (e == CL_SUCCESS) e = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    if (e) {
        char log[8192] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed (%d):\n%s\n", e, log);
        exit(1);
    }
    return p;
}

static cl_mem new_buffer(cl_context c, cl_mem_flags f, size_t size, void *host)
{
    cl_int e;
    cl_mem m = clCreateBuffer(c, f, size, host, &e);
    if (e) { fprintf(stderr, "clCreateBuffer: %d\n", e); exit(1); }
    return m;
}

static const char *fill_src =
    "__kernel void fill(__global int *out, int v) { out[get_global_id(0)] = v + (int)get_global_id(0); }\n"
    "__kernel void loc(__global int *out, __local int *tmp, __constant int *c)\n"
    "{ tmp[get_local_id(0)] = c[0]; barrier(CLK_LOCAL_MEM_FENCE); out[get_global_id(0)] = tmp[0]; }\n";

/* ---------------- platform and device ---------------- */

static void platform(void)
{
    cl_platform_id p;
    cl_uint n = 0;
    OK(clGetPlatformIDs(0, NULL, &n));
    EXPECT(n == 1);
    EXPECT_ERR(clGetPlatformIDs(0, &p, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clGetPlatformIDs(0, NULL, NULL), CL_INVALID_VALUE);
    char s[256];
    size_t len;
    OK(clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof s, s, &len));
    EXPECT(!strcmp(s, "umbra") && len == 6);
    OK(clGetPlatformInfo(plat, CL_PLATFORM_VERSION, sizeof s, s, NULL));
    EXPECT(!strncmp(s, "OpenCL 3.0 ", 11));
    OK(clGetPlatformInfo(plat, CL_PLATFORM_PROFILE, sizeof s, s, NULL));
    EXPECT(!strcmp(s, "FULL_PROFILE"));
    OK(clGetPlatformInfo(plat, CL_PLATFORM_VENDOR, sizeof s, s, NULL));
    OK(clGetPlatformInfo(plat, CL_PLATFORM_EXTENSIONS, sizeof s, s, NULL));
    EXPECT(strstr(s, "cl_khr_icd") != NULL);
    EXPECT_ERR(clGetPlatformInfo(plat, CL_PLATFORM_NAME, 2, s, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clGetPlatformInfo(plat, 0x7777, sizeof s, s, NULL), CL_INVALID_VALUE);
    OK(clUnloadPlatformCompiler(plat));
    OK(clUnloadCompiler());
    EXPECT(clGetExtensionFunctionAddressForPlatform(plat, "clNoSuchFunction") == NULL);
}

static void device(void)
{
    cl_device_id d;
    cl_uint n;
    OK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 1, &d, &n));
    EXPECT(d == dev && n == 1);
    OK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_DEFAULT, 1, &d, NULL));
    EXPECT_ERR(clGetDeviceIDs(plat, CL_DEVICE_TYPE_CPU, 1, &d, &n), CL_DEVICE_NOT_FOUND);
    EXPECT_ERR(clGetDeviceIDs(plat, 1u << 20, 1, &d, NULL), CL_INVALID_DEVICE_TYPE);
    EXPECT_ERR(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 0, &d, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 0, NULL, NULL), CL_INVALID_VALUE);
    char s[1024];
    OK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof s, s, NULL));
    EXPECT(!strcmp(s, "umbra RDNA3 gfx1100"));
    OK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof s, s, NULL));
    EXPECT(strstr(s, "cl_khr_fp64") && strstr(s, "cl_khr_int64_base_atomics") && strstr(s, "cl_khr_byte_addressable_store"));
    cl_uint u;
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof u, &u, NULL));
    EXPECT(u == 48);   /* as ROCm reports the RX 7900 XTX: 48 WGPs of its 96 CUs (clinfo) */
    size_t z, sizes[3];
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof z, &z, NULL));
    EXPECT(z == 256);   /* as ROCm: the compiler's default flat work-group size for OpenCL */
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, NULL));
    EXPECT(sizes[0] == 1024 && sizes[2] == 1024);
    cl_ulong ul;
    OK(clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof ul, &ul, NULL));
    EXPECT(ul == 65536);
    cl_bool b;
    OK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof b, &b, NULL));
    EXPECT(b == CL_TRUE);   /* the image API's cases: image_test.c */
    cl_device_type t;
    OK(clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof t, &t, NULL));
    EXPECT(t == CL_DEVICE_TYPE_GPU);
    cl_platform_id p;
    OK(clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof p, &p, NULL));
    EXPECT(p == plat);
    EXPECT_ERR(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, 1, &u, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clGetDeviceInfo(dev, 0x7777, sizeof u, &u, NULL), CL_INVALID_VALUE);
    OK(clRetainDevice(dev));
    OK(clReleaseDevice(dev));
    cl_device_partition_property props[] = { CL_DEVICE_PARTITION_EQUALLY, 8, 0 };
    EXPECT_ERR(clCreateSubDevices(dev, props, 1, &d, NULL), CL_INVALID_VALUE);
}

/* ---------------- contexts and queues ---------------- */

static void context(void)
{
    cl_int e_;
    cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0 };
    cl_context c = clCreateContext(props, 1, &dev, NULL, NULL, &e_);
    OK(e_);
    cl_uint u;
    OK(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof u, &u, NULL));
    EXPECT(u == 1);
    cl_device_id d;
    OK(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof d, &d, NULL));
    EXPECT(d == dev);
    cl_context_properties got[3];
    size_t len;
    OK(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof got, got, &len));
    EXPECT(len == sizeof props && got[1] == props[1]);
    OK(clRetainContext(c));
    OK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof u, &u, NULL));
    EXPECT(u == 2);
    OK(clReleaseContext(c));
    EXPECT_ERR(clGetContextInfo(c, 0x7777, sizeof u, &u, NULL), CL_INVALID_VALUE);
    OK(clReleaseContext(c));
    EXPECT_ERR(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof u, &u, NULL), CL_INVALID_CONTEXT);
    EXPECT_ERR(clReleaseContext(c), CL_INVALID_CONTEXT);
    EXPECT_ERR(clRetainContext(NULL), CL_INVALID_CONTEXT);

    EXPECT_OBJ_ERR(clCreateContext(NULL, 0, &dev, NULL, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateContext(NULL, 1, NULL, NULL, NULL, ERR), CL_INVALID_VALUE);
    cl_device_id null_dev = NULL;
    EXPECT_OBJ_ERR(clCreateContext(NULL, 1, &null_dev, NULL, NULL, ERR), CL_INVALID_DEVICE);
    EXPECT_OBJ_ERR(clCreateContext(NULL, 1, &dev, NULL, &u, ERR), CL_INVALID_VALUE);
    cl_context_properties badprop[] = { 0x7777, 1, 0 };
    EXPECT_OBJ_ERR(clCreateContext(badprop, 1, &dev, NULL, NULL, ERR), CL_INVALID_PROPERTY);

    c = clCreateContextFromType(props, CL_DEVICE_TYPE_GPU, NULL, NULL, &e_);
    OK(e_);
    OK(clReleaseContext(c));
    c = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, NULL, NULL, &e_);
    OK(e_);
    OK(clReleaseContext(c));
    EXPECT_OBJ_ERR(clCreateContextFromType(props, CL_DEVICE_TYPE_CPU, NULL, NULL, ERR), CL_DEVICE_NOT_FOUND);
}

static void queue(void)
{
    cl_int e_;
    cl_context c = new_context();
    cl_command_queue_properties qp = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, got;
    cl_command_queue q = clCreateCommandQueue(c, dev, qp, &e_);
    OK(e_);
    OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof got, &got, NULL));
    EXPECT(got == qp);
    cl_context qc;
    OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL));
    EXPECT(qc == c);
    cl_device_id d;
    OK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof d, &d, NULL));
    EXPECT(d == dev);
    cl_uint refs;
    OK(clRetainCommandQueue(q));
    OK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    EXPECT(refs == 2);
    OK(clReleaseCommandQueue(q));
    EXPECT_ERR(clGetCommandQueueInfo(q, 0x7777, sizeof got, &got, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, NULL), CL_INVALID_OPERATION);
    OK(clFlush(q));
    OK(clFinish(q));
    OK(clReleaseCommandQueue(q));
    EXPECT_ERR(clFinish(q), CL_INVALID_COMMAND_QUEUE);
    EXPECT_ERR(clFlush(NULL), CL_INVALID_COMMAND_QUEUE);
    EXPECT_ERR(clReleaseCommandQueue(q), CL_INVALID_COMMAND_QUEUE);
    EXPECT_OBJ_ERR(clCreateCommandQueue(c, dev, 1u << 10, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateCommandQueue(NULL, dev, 0, ERR), CL_INVALID_CONTEXT);
    EXPECT_OBJ_ERR(clCreateCommandQueue(c, NULL, 0, ERR), CL_INVALID_DEVICE);
    cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
    q = clCreateCommandQueueWithProperties(c, dev, props, &e_);
    OK(e_);
    OK(clReleaseCommandQueue(q));
    OK(clReleaseContext(c));
}

/* ---------------- buffers ---------------- */

static atomic_int destructor_calls;
static void CL_CALLBACK on_destroy(cl_mem m, void *data)
{
    (void)m;
    /* destructors run most recent first: the second registered (data 2) before the first (1) */
    atomic_store(&destructor_calls, atomic_load(&destructor_calls) * 10 + (int)(size_t)data);
}

static void buffers(void)
{
    cl_int e_;
    cl_context c = new_context();
    int host[64];
    EXPECT_OBJ_ERR(clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateBuffer(c, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateBuffer(c, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 64, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateBuffer(c, 1u << 30, 64, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateBuffer(c, CL_MEM_READ_WRITE, 0, NULL, ERR), CL_INVALID_BUFFER_SIZE);
    cl_ulong max;
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max, &max, NULL));
    EXPECT_OBJ_ERR(clCreateBuffer(c, CL_MEM_READ_WRITE, (size_t)max + 1, NULL, ERR), CL_INVALID_BUFFER_SIZE);
    EXPECT_OBJ_ERR(clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, 64, NULL, ERR), CL_INVALID_HOST_PTR);
    EXPECT_OBJ_ERR(clCreateBuffer(c, CL_MEM_READ_WRITE, 64, host, ERR), CL_INVALID_HOST_PTR);
    EXPECT_OBJ_ERR(clCreateBuffer(NULL, CL_MEM_READ_WRITE, 64, NULL, ERR), CL_INVALID_CONTEXT);

    cl_mem m = clCreateBuffer(c, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY, sizeof host, host, &e_);
    OK(e_);
    cl_mem_object_type type;
    cl_mem_flags flags;
    size_t size;
    void *ptr;
    cl_context mc;
    OK(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof type, &type, NULL));
    OK(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    OK(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL));
    OK(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof ptr, &ptr, NULL));
    OK(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof mc, &mc, NULL));
    EXPECT(type == CL_MEM_OBJECT_BUFFER && flags == (CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY));
    EXPECT(size == sizeof host && ptr == host && mc == c);
    EXPECT_ERR(clGetMemObjectInfo(m, 0x7777, sizeof size, &size, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clSetMemObjectDestructorCallback(m, NULL, NULL), CL_INVALID_VALUE);
    OK(clSetMemObjectDestructorCallback(m, on_destroy, (void *)1));
    OK(clSetMemObjectDestructorCallback(m, on_destroy, (void *)2));
    OK(clRetainMemObject(m));
    OK(clReleaseMemObject(m));
    EXPECT(atomic_load(&destructor_calls) == 0);
    OK(clReleaseMemObject(m));
    EXPECT(atomic_load(&destructor_calls) == 21);
    EXPECT_ERR(clReleaseMemObject(m), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL), CL_INVALID_MEM_OBJECT);
    m = clCreateBufferWithProperties(c, NULL, CL_MEM_ALLOC_HOST_PTR, 4096, NULL, &e_);
    OK(e_);
    OK(clReleaseMemObject(m));
    OK(clReleaseContext(c));
}

static void sub_buffers(void)
{
    cl_int e_;
    cl_context c = new_context();
    cl_uint bits;
    OK(clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL));
    size_t align = bits / 8;
    cl_mem parent = new_buffer(c, CL_MEM_READ_ONLY, 4 * align, NULL);
    cl_buffer_region r = { align, 2 * align };
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e_);
    OK(e_);
    cl_mem assoc;
    size_t off;
    cl_mem_flags flags;
    OK(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    OK(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof off, &off, NULL));
    OK(clGetMemObjectInfo(sub, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    EXPECT(assoc == parent && off == align && (flags & CL_MEM_READ_ONLY));
    EXPECT_OBJ_ERR(clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, ERR), CL_INVALID_MEM_OBJECT);
    cl_buffer_region mis = { align / 2, 16 }, past = { 3 * align, 2 * align }, empty = { 0, 0 };
    EXPECT_OBJ_ERR(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &mis, ERR), CL_MISALIGNED_SUB_BUFFER_OFFSET);
    EXPECT_OBJ_ERR(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &past, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &empty, ERR), CL_INVALID_BUFFER_SIZE);
    EXPECT_OBJ_ERR(clCreateSubBuffer(parent, 0, 0x7777, &r, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateSubBuffer(parent, CL_MEM_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateSubBuffer(parent, CL_MEM_COPY_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION, &r, ERR), CL_INVALID_VALUE);
    /* the sub-buffer keeps its parent alive */
    OK(clReleaseMemObject(parent));
    cl_command_queue q = new_queue(c, 0);
    int v[4] = { 1, 2, 3, 4 }, back[4];
    OK(clEnqueueWriteBuffer(q, sub, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, sub, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    EXPECT(!memcmp(v, back, sizeof v));
    OK(clReleaseMemObject(sub));
    OK(clReleaseCommandQueue(q));
    OK(clReleaseContext(c));
}

static void read_write(void)
{
    cl_context c = new_context(), c2 = new_context();
    cl_command_queue q = new_queue(c, 0);
    cl_mem m = new_buffer(c, CL_MEM_READ_WRITE, 256, NULL);
    cl_mem other = new_buffer(c2, CL_MEM_READ_WRITE, 256, NULL);
    cl_mem noacc = new_buffer(c, CL_MEM_HOST_NO_ACCESS, 256, NULL);
    cl_mem wo = new_buffer(c, CL_MEM_HOST_WRITE_ONLY, 256, NULL);
    unsigned char in[256], out[256];
    for (int i = 0; i < 256; i++) in[i] = (unsigned char)i;
    cl_event ev;
    OK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, 256, in, 0, NULL, &ev));
    OK(clEnqueueReadBuffer(q, m, CL_TRUE, 16, 100, out, 1, &ev, NULL));
    EXPECT(!memcmp(out, in + 16, 100));
    cl_command_type ct;
    OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
    EXPECT(ct == CL_COMMAND_WRITE_BUFFER);
    EXPECT_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 256, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 200, 100, out, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 0, out, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 257, in, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueReadBuffer(q, other, CL_TRUE, 0, 16, out, 0, NULL, NULL), CL_INVALID_CONTEXT);
    EXPECT_ERR(clEnqueueReadBuffer(q, noacc, CL_TRUE, 0, 16, out, 0, NULL, NULL), CL_INVALID_OPERATION);
    EXPECT_ERR(clEnqueueWriteBuffer(q, noacc, CL_TRUE, 0, 16, in, 0, NULL, NULL), CL_INVALID_OPERATION);
    EXPECT_ERR(clEnqueueReadBuffer(q, wo, CL_TRUE, 0, 16, out, 0, NULL, NULL), CL_INVALID_OPERATION);
    OK(clEnqueueWriteBuffer(q, wo, CL_TRUE, 0, 16, in, 0, NULL, NULL));
    EXPECT_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 16, out, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    EXPECT_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 16, out, 0, &ev, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_event bogus = (cl_event)out;
    EXPECT_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 16, out, 1, &bogus, NULL), CL_INVALID_EVENT_WAIT_LIST);
    EXPECT_ERR(clEnqueueReadBuffer(q, NULL, CL_TRUE, 0, 16, out, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clEnqueueReadBuffer(NULL, m, CL_TRUE, 0, 16, out, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    OK(clReleaseEvent(ev));
    clReleaseMemObject(m), clReleaseMemObject(other), clReleaseMemObject(noacc), clReleaseMemObject(wo);
    clReleaseCommandQueue(q), clReleaseContext(c), clReleaseContext(c2);
}

static void copy_fill(void)
{
    cl_context c = new_context();
    cl_command_queue q = new_queue(c, 0);
    cl_mem a = new_buffer(c, CL_MEM_READ_WRITE, 1024, NULL), b = new_buffer(c, CL_MEM_READ_WRITE, 1024, NULL);
    cl_uint pat = 0xdeadbeef, out[256];
    OK(clEnqueueFillBuffer(q, a, &pat, 4, 0, 1024, 0, NULL, NULL));
    OK(clEnqueueCopyBuffer(q, a, b, 0, 512, 512, 0, NULL, NULL));
    OK(clEnqueueCopyBuffer(q, a, a, 0, 512, 512, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 1024, out, 0, NULL, NULL));
    EXPECT(out[128] == pat && out[255] == pat);
    EXPECT_ERR(clEnqueueCopyBuffer(q, a, a, 0, 100, 200, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    EXPECT_ERR(clEnqueueCopyBuffer(q, a, b, 1000, 0, 100, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueCopyBuffer(q, a, b, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueFillBuffer(q, a, &pat, 3, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueFillBuffer(q, a, &pat, 4, 2, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueFillBuffer(q, a, &pat, 4, 0, 10, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueFillBuffer(q, a, NULL, 4, 0, 16, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueFillBuffer(q, a, &pat, 4, 1020, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    clReleaseMemObject(a), clReleaseMemObject(b), clReleaseCommandQueue(q), clReleaseContext(c);
}

static void rect(void)
{
    cl_context c = new_context();
    cl_command_queue q = new_queue(c, 0);
    cl_mem a = new_buffer(c, CL_MEM_READ_WRITE, 64 * 16, NULL);
    unsigned char host[64 * 16], back[64 * 16];
    for (int i = 0; i < 64 * 16; i++) host[i] = (unsigned char)(i * 3);
    size_t o[3] = { 0, 0, 0 }, r[3] = { 64, 16, 1 }, r0[3] = { 0, 1, 1 }, big[3] = { 64, 17, 1 }, o8[3] = { 8, 2, 0 },
           r8[3] = { 8, 4, 1 };
    OK(clEnqueueWriteBufferRect(q, a, CL_TRUE, o, o, r, 64, 0, 64, 0, host, 0, NULL, NULL));
    memset(back, 0, sizeof back);
    OK(clEnqueueReadBufferRect(q, a, CL_TRUE, o8, o8, r8, 64, 0, 64, 0, back, 0, NULL, NULL));
    for (int y = 2; y < 6; y++) EXPECT(!memcmp(back + y * 64 + 8, host + y * 64 + 8, 8));
    EXPECT(back[0] == 0);
    size_t d[3] = { 32, 8, 0 };
    OK(clEnqueueCopyBufferRect(q, a, a, o, d, r8, 64, 0, 64, 0, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    EXPECT(!memcmp(back + 8 * 64 + 32, host, 8) && !memcmp(back + 11 * 64 + 32, host + 3 * 64, 8));
    EXPECT_ERR(clEnqueueReadBufferRect(q, a, CL_TRUE, o, o, r0, 64, 0, 64, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueReadBufferRect(q, a, CL_TRUE, o, o, big, 64, 0, 64, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueReadBufferRect(q, a, CL_TRUE, o, o, r, 32, 0, 64, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueWriteBufferRect(q, a, CL_TRUE, o, o, r, 64, 0, 64, 0, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    /* columns 0..7 of rows 0..3 and columns 8..15 of rows 2..5 share no byte (Appendix E); columns
     * 4..11 of rows 2..5 share rows 2..3, columns 4..7 */
    OK(clEnqueueCopyBufferRect(q, a, a, o, o8, r8, 64, 0, 64, 0, 0, NULL, NULL));
    size_t o4[3] = { 4, 2, 0 };
    EXPECT_ERR(clEnqueueCopyBufferRect(q, a, a, o, o4, r8, 64, 0, 64, 0, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    EXPECT_ERR(clEnqueueCopyBufferRect(q, a, a, o, d, r, 64, 0, 64, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    clReleaseMemObject(a), clReleaseCommandQueue(q), clReleaseContext(c);
}

static void map(void)
{
    cl_int e_;
    cl_context c = new_context();
    cl_command_queue q = new_queue(c, 0);
    cl_mem a = new_buffer(c, CL_MEM_READ_WRITE, 4096, NULL);
    cl_mem ro = new_buffer(c, CL_MEM_HOST_READ_ONLY, 64, NULL);
    int *p = clEnqueueMapBuffer(q, a, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 4096, 0, NULL, NULL, &e_);
    OK(e_);
    for (int i = 0; i < 1024; i++) p[i] = i;
    cl_uint count;
    OK(clGetMemObjectInfo(a, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    EXPECT(count == 1);
    EXPECT_ERR(clEnqueueUnmapMemObject(q, a, p + 1, 0, NULL, NULL), CL_INVALID_VALUE);
    OK(clEnqueueUnmapMemObject(q, a, p, 0, NULL, NULL));
    cl_event ev;
    int *r = clEnqueueMapBuffer(q, a, CL_FALSE, CL_MAP_READ, 1024, 1024, 0, NULL, &ev, &e_);
    OK(e_);
    OK(clWaitForEvents(1, &ev));
    EXPECT(r[0] == 256 && r[255] == 511);
    OK(clEnqueueUnmapMemObject(q, a, r, 0, NULL, NULL));
    OK(clReleaseEvent(ev));
    EXPECT_OBJ_ERR(clEnqueueMapBuffer(q, a, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, NULL, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clEnqueueMapBuffer(q, a, CL_TRUE, 1u << 7, 0, 16, 0, NULL, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clEnqueueMapBuffer(q, a, CL_TRUE, CL_MAP_READ, 4090, 16, 0, NULL, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clEnqueueMapBuffer(q, a, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clEnqueueMapBuffer(q, ro, CL_TRUE, CL_MAP_WRITE, 0, 16, 0, NULL, NULL, ERR), CL_INVALID_OPERATION);
    OK(clFinish(q));
    OK(clGetMemObjectInfo(a, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    EXPECT(count == 0);
    clReleaseMemObject(a), clReleaseMemObject(ro), clReleaseCommandQueue(q), clReleaseContext(c);
}

static void migrate(void)
{
    cl_context c = new_context();
    cl_command_queue q = new_queue(c, 0);
    cl_mem a = new_buffer(c, CL_MEM_READ_WRITE, 64, NULL);
    cl_event ev;
    OK(clEnqueueMigrateMemObjects(q, 1, &a, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &ev));
    OK(clWaitForEvents(1, &ev));
    cl_command_type t;
    OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
    EXPECT(t == CL_COMMAND_MIGRATE_MEM_OBJECTS);
    OK(clReleaseEvent(ev));
    EXPECT_ERR(clEnqueueMigrateMemObjects(q, 0, &a, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueMigrateMemObjects(q, 1, &a, 1u << 5, 0, NULL, NULL), CL_INVALID_VALUE);
    cl_mem bad = NULL;
    EXPECT_ERR(clEnqueueMigrateMemObjects(q, 1, &bad, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(a), clReleaseCommandQueue(q), clReleaseContext(c);
}

/* ---------------- programs ---------------- */

static atomic_int notified;
static void CL_CALLBACK on_build(cl_program p, void *data)
{
    (void)p;
    atomic_fetch_add(&notified, (int)(size_t)data);
}

static void program_source(void)
{
    cl_int e_;
    cl_context c = new_context();
    EXPECT_OBJ_ERR(clCreateProgramWithSource(c, 0, &fill_src, NULL, ERR), CL_INVALID_VALUE);
    const char *nulls[1] = { NULL };
    EXPECT_OBJ_ERR(clCreateProgramWithSource(c, 1, nulls, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateProgramWithSource(NULL, 1, &fill_src, NULL, ERR), CL_INVALID_CONTEXT);
    /* two strings, the first with an explicit length */
    const char *parts[2] = { fill_src, "__kernel void extra(__global int *x) { x[0] = 1; }\n" };
    size_t lens[2] = { strlen(fill_src), 0 };
    cl_program p = clCreateProgramWithSource(c, 2, parts, lens, &e_);
    OK(e_);
    size_t n;
    EXPECT_ERR(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
    cl_build_status bs;
    OK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL));
    EXPECT(bs == CL_BUILD_NONE);
    EXPECT_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, &n), CL_INVALID_VALUE);
    EXPECT_ERR(clBuildProgram(p, 1, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
    OK(clBuildProgram(p, 1, &dev, "-D UNUSED=1 -cl-mad-enable -cl-kernel-arg-info", on_build, (void *)5));
    EXPECT(atomic_load(&notified) == 5);
    OK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL));
    EXPECT(bs == CL_BUILD_SUCCESS);
    char s[256];
    OK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_OPTIONS, sizeof s, s, NULL));
    EXPECT(!strcmp(s, "-D UNUSED=1 -cl-mad-enable -cl-kernel-arg-info"));
    cl_program_binary_type bt;
    OK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
    EXPECT(bt == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    OK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL));
    EXPECT(n == 3);
    OK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof s, s, NULL));
    EXPECT(strstr(s, "fill") && strstr(s, "loc") && strstr(s, "extra") && strchr(s, ';'));
    size_t srclen;
    OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, 0, NULL, &srclen));
    EXPECT(srclen == strlen(fill_src) + strlen(parts[1]) + 1);
    cl_uint ndev;
    OK(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL));
    EXPECT(ndev == 1);
    EXPECT_ERR(clGetProgramInfo(p, 0x7777, sizeof n, &n, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clGetProgramBuildInfo(p, NULL, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL), CL_INVALID_DEVICE);
    /* a kernel attached: no rebuild */
    cl_kernel k = clCreateKernel(p, "fill", &e_);
    OK(e_);
    EXPECT_ERR(clBuildProgram(p, 1, &dev, NULL, NULL, NULL), CL_INVALID_OPERATION);
    OK(clReleaseKernel(k));
    OK(clRetainProgram(p));
    OK(clReleaseProgram(p));
    OK(clReleaseProgram(p));
    EXPECT_ERR(clReleaseProgram(p), CL_INVALID_PROGRAM);
    EXPECT_ERR(clBuildProgram(p, 1, &dev, NULL, NULL, NULL), CL_INVALID_PROGRAM);

    /* a compile error: the build log holds clang's diagnostic */
    const char *broken = "__kernel void k(__global int *x) { x[0] = undeclared_thing; }\n";
    p = clCreateProgramWithSource(c, 1, &broken, NULL, &e_);
    OK(e_);
    EXPECT_ERR(clBuildProgram(p, 1, &dev, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char log[4096] = "";
    OK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    EXPECT(strstr(log, "undeclared_thing") != NULL);
    OK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL));
    EXPECT(bs == CL_BUILD_ERROR);
    EXPECT_OBJ_ERR(clCreateKernel(p, "k", ERR), CL_INVALID_PROGRAM_EXECUTABLE);
    EXPECT_ERR(clBuildProgram(p, 1, &dev, "-no-such-option", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
    /* -Werror turns a warning into a failure */
    const char *warns = "#warning look here\n__kernel void k(__global int *x) { x[0] = 1; }\n";
    cl_program pw = clCreateProgramWithSource(c, 1, &warns, NULL, &e_);
    OK(clBuildProgram(pw, 1, &dev, "", NULL, NULL));
    OK(clGetProgramBuildInfo(pw, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    EXPECT(strstr(log, "look here") != NULL);
    EXPECT_ERR(clBuildProgram(pw, 1, &dev, "-Werror", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    OK(clBuildProgram(pw, 1, &dev, "-w -Werror", NULL, NULL));
    clReleaseProgram(pw);
    clReleaseProgram(p);
    clReleaseContext(c);
}

static void program_binary(void)
{
    cl_int e_;
    cl_context c = new_context();
    cl_program p = build(c, fill_src, "");
    size_t size;
    OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    EXPECT(size > 64);
    unsigned char *bin = malloc(size);
    unsigned char *bins[1] = { bin };
    OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
    EXPECT(!memcmp(bin, "\x7f" "ELF", 4));
    cl_int status = 99;
    const unsigned char *cbin = bin;
    cl_program pb = clCreateProgramWithBinary(c, 1, &dev, &size, &cbin, &status, &e_);
    OK(e_);
    EXPECT(status == CL_SUCCESS);
    OK(clBuildProgram(pb, 1, &dev, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(pb, "fill", &e_);
    OK(e_);
    cl_command_queue q = new_queue(c, 0);
    cl_mem m = new_buffer(c, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL);
    int v = 100, out[64];
    OK(clSetKernelArg(k, 0, sizeof m, &m));
    OK(clSetKernelArg(k, 1, sizeof v, &v));
    size_t g = 64;
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    EXPECT(out[0] == 100 && out[63] == 163);
    unsigned char junk[64] = "not a code object";
    const unsigned char *cj = junk;
    size_t jl = sizeof junk;
    EXPECT_OBJ_ERR(clCreateProgramWithBinary(c, 1, &dev, &jl, &cj, &status, ERR), CL_INVALID_BINARY);
    EXPECT(status == CL_INVALID_BINARY);
    EXPECT_OBJ_ERR(clCreateProgramWithBinary(c, 1, &dev, NULL, &cj, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateProgramWithBinary(c, 0, &dev, &jl, &cj, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateProgramWithBuiltInKernels(c, 1, &dev, "none", ERR), CL_INVALID_VALUE);
    clReleaseKernel(k), clReleaseProgram(p), clReleaseProgram(pb), clReleaseMemObject(m);
    clReleaseCommandQueue(q), clReleaseContext(c);
    free(bin);
}

static void compile_link(void)
{
    cl_int e_;
    cl_context c = new_context();
    const char *lib_src = "int twice(int x) { return 2 * x; }\n";
    const char *main_src = "int twice(int x);\n__kernel void k(__global int *o) { o[get_global_id(0)] = twice(OFFSET + (int)get_global_id(0)); }\n";
    cl_program lib = clCreateProgramWithSource(c, 1, &lib_src, NULL, &e_);
    cl_program mainp = clCreateProgramWithSource(c, 1, &main_src, NULL, &e_);
    OK(clCompileProgram(lib, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL));
    OK(clCompileProgram(mainp, 1, &dev, "-D OFFSET=7", 0, NULL, NULL, NULL, NULL));
    cl_program_binary_type bt;
    OK(clGetProgramBuildInfo(lib, dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
    EXPECT(bt == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    cl_program both[2] = { mainp, lib };
    cl_program linked = clLinkProgram(c, 1, &dev, NULL, 2, both, NULL, NULL, &e_);
    OK(e_);
    if (e_ && linked) {
        char log[4096] = "";
        clGetProgramBuildInfo(linked, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "link log:\n%s\n", log);
    }
    cl_kernel k = clCreateKernel(linked, "k", &e_);
    OK(e_);
    cl_command_queue q = new_queue(c, 0);
    cl_mem m = new_buffer(c, CL_MEM_READ_WRITE, 16 * sizeof(int), NULL);
    OK(clSetKernelArg(k, 0, sizeof m, &m));
    size_t g = 16;
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    int out[16];
    OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    EXPECT(out[0] == 14 && out[15] == 44);
    /* a library, then linked into an executable */
    cl_program library = clLinkProgram(c, 1, &dev, "-create-library", 1, &lib, NULL, NULL, &e_);
    OK(e_);
    OK(clGetProgramBuildInfo(library, dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
    EXPECT(bt == CL_PROGRAM_BINARY_TYPE_LIBRARY);
    cl_program withlib[2] = { mainp, library };
    cl_program linked2 = clLinkProgram(c, 1, &dev, NULL, 2, withlib, NULL, NULL, &e_);
    OK(e_);
    /* errors */
    cl_program exe = build(c, fill_src, "");
    EXPECT_OBJ_ERR(clLinkProgram(c, 1, &dev, NULL, 1, &exe, NULL, NULL, ERR), CL_INVALID_OPERATION);
    EXPECT_OBJ_ERR(clLinkProgram(c, 1, &dev, NULL, 0, NULL, NULL, NULL, ERR), CL_INVALID_VALUE);
    const char *bad = "__kernel void k(void) { nope; }\n";
    cl_program pbad = clCreateProgramWithSource(c, 1, &bad, NULL, &e_);
    EXPECT_ERR(clCompileProgram(pbad, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL), CL_COMPILE_PROGRAM_FAILURE);
    cl_program only_main = mainp;
    cl_program unresolved = clLinkProgram(c, 1, &dev, NULL, 1, &only_main, NULL, NULL, &e_);
    EXPECT_ERR(e_, CL_LINK_PROGRAM_FAILURE);
    if (unresolved) {
        char log[4096] = "";
        OK(clGetProgramBuildInfo(unresolved, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
        EXPECT(strstr(log, "twice") != NULL);
        clReleaseProgram(unresolved);
    }
    clReleaseKernel(k), clReleaseProgram(lib), clReleaseProgram(mainp), clReleaseProgram(linked);
    clReleaseProgram(library), clReleaseProgram(linked2), clReleaseProgram(exe), clReleaseProgram(pbad);
    clReleaseMemObject(m), clReleaseCommandQueue(q), clReleaseContext(c);
}

/* ---------------- kernels ---------------- */

static void kernels(void)
{
    cl_int e_;
    cl_context c = new_context();
    cl_program p = build(c, fill_src, "-cl-kernel-arg-info");
    EXPECT_OBJ_ERR(clCreateKernel(p, "nope", ERR), CL_INVALID_KERNEL_NAME);
    EXPECT_OBJ_ERR(clCreateKernel(p, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateKernel(NULL, "fill", ERR), CL_INVALID_PROGRAM);
    cl_kernel ks[2];
    cl_uint nk;
    EXPECT_ERR(clCreateKernelsInProgram(p, 1, ks, &nk), CL_INVALID_VALUE);
    OK(clCreateKernelsInProgram(p, 2, ks, &nk));
    EXPECT(nk == 2);
    clReleaseKernel(ks[0]), clReleaseKernel(ks[1]);
    cl_kernel k = clCreateKernel(p, "loc", &e_);
    OK(e_);
    char s[128];
    cl_uint n;
    cl_program kp;
    OK(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof s, s, NULL));
    EXPECT(!strcmp(s, "loc"));
    OK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL));
    EXPECT(n == 3);
    OK(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof kp, &kp, NULL));
    EXPECT(kp == p);
    OK(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof s, s, NULL));
    EXPECT_ERR(clGetKernelInfo(k, 0x7777, sizeof n, &n, NULL), CL_INVALID_VALUE);
    cl_kernel_arg_address_qualifier aq[3];
    for (cl_uint i = 0; i < 3; i++) OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq[i], &aq[i], NULL));
    EXPECT(aq[0] == CL_KERNEL_ARG_ADDRESS_GLOBAL && aq[1] == CL_KERNEL_ARG_ADDRESS_LOCAL && aq[2] == CL_KERNEL_ARG_ADDRESS_CONSTANT);
    OK(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_NAME, sizeof s, s, NULL));
    EXPECT(!strcmp(s, "tmp"));
    OK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof s, s, NULL));
    EXPECT(!strcmp(s, "int*"));
    cl_kernel_arg_access_qualifier acc;
    OK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL));
    EXPECT(acc == CL_KERNEL_ARG_ACCESS_NONE);
    cl_kernel_arg_type_qualifier tq;
    OK(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
    EXPECT(tq & CL_KERNEL_ARG_TYPE_CONST);
    EXPECT_ERR(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_NAME, sizeof s, s, NULL), CL_INVALID_ARG_INDEX);
    {   /* type qualifiers of what each pointer points to (CTS get_kernel_arg_info) */
        cl_program qp = build(c, "__kernel void qual(__global const int *restrict a, __global volatile int *b, "
                              "__constant int *c, int d) { b[0] = a[0] + c[0] + d; }\n", "-cl-kernel-arg-info");
        cl_kernel qk = clCreateKernel(qp, "qual", &e_);
        OK(e_);
        const cl_kernel_arg_type_qualifier want[4] = { CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT,
                                                       CL_KERNEL_ARG_TYPE_VOLATILE, CL_KERNEL_ARG_TYPE_CONST,
                                                       CL_KERNEL_ARG_TYPE_NONE };
        for (cl_uint i = 0; i < 4; i++) {
            OK(clGetKernelArgInfo(qk, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
            EXPECT(tq == want[i]);
        }
        clReleaseKernel(qk), clReleaseProgram(qp);
        /* CL_KERNEL_ATTRIBUTES as the kernel was declared (CTS kernel_attributes); none: "" */
        OK(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof s, s, NULL));
        EXPECT(!strcmp(s, ""));
        qp = build(c, "__kernel __attribute__((vec_type_hint(uchar2))) __attribute__((work_group_size_hint(4,2,1))) "
                      "__attribute__((reqd_work_group_size(8,4,2))) void va(__global int *a) { a[0] = 1; }\n", "");
        qk = clCreateKernel(qp, "va", &e_);
        OK(e_);
        OK(clGetKernelInfo(qk, CL_KERNEL_ATTRIBUTES, sizeof s, s, NULL));
        EXPECT(!strcmp(s, "reqd_work_group_size(8,4,2) work_group_size_hint(4,2,1) vec_type_hint(uchar2)"));
        clReleaseKernel(qk), clReleaseProgram(qp);
    }
    size_t wg, pref, cwg[3];
    cl_ulong lm;
    OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    EXPECT(wg >= 64 && wg <= 1024);
    OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof pref, &pref, NULL));
    EXPECT(pref == 32);
    OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg, cwg, NULL));
    OK(clSetKernelArg(k, 1, 1000, NULL));
    OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL));
    EXPECT(lm >= 1000);
    OK(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof lm, &lm, NULL));
    EXPECT_ERR(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof cwg, cwg, NULL), CL_INVALID_VALUE);
    OK(clRetainKernel(k));
    OK(clReleaseKernel(k));
    /* the kernel keeps its program alive */
    OK(clReleaseProgram(p));
    OK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL));
    OK(clReleaseKernel(k));
    EXPECT_ERR(clReleaseKernel(k), CL_INVALID_KERNEL);
    EXPECT_ERR(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL), CL_INVALID_KERNEL);
    clReleaseContext(c);
}

static void set_args(void)
{
    cl_context c = new_context();
    cl_program p = build(c, fill_src, "");
    cl_kernel k = clCreateKernel(p, "loc", NULL), f = clCreateKernel(p, "fill", NULL);
    cl_mem m = new_buffer(c, CL_MEM_READ_WRITE, 64, NULL);
    int v = 1;
    EXPECT_ERR(clSetKernelArg(k, 3, sizeof m, &m), CL_INVALID_ARG_INDEX);
    EXPECT_ERR(clSetKernelArg(k, 0, 4, &m), CL_INVALID_ARG_SIZE);
    cl_mem bogus = (cl_mem)&v;
    EXPECT_ERR(clSetKernelArg(k, 0, sizeof bogus, &bogus), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clSetKernelArg(k, 1, 16, &v), CL_INVALID_ARG_VALUE);
    EXPECT_ERR(clSetKernelArg(k, 1, 0, NULL), CL_INVALID_ARG_SIZE);
    EXPECT_ERR(clSetKernelArg(f, 1, 8, &v), CL_INVALID_ARG_SIZE);
    EXPECT_ERR(clSetKernelArg(f, 1, sizeof v, NULL), CL_INVALID_ARG_VALUE);
    EXPECT_ERR(clSetKernelArg(NULL, 0, sizeof m, &m), CL_INVALID_KERNEL);
    OK(clSetKernelArg(k, 0, sizeof m, &m));
    OK(clSetKernelArg(k, 0, sizeof m, NULL));   /* a NULL buffer */
    OK(clSetKernelArg(k, 1, 256, NULL));
    OK(clSetKernelArg(f, 1, sizeof v, &v));
    clReleaseKernel(k), clReleaseKernel(f), clReleaseProgram(p), clReleaseMemObject(m), clReleaseContext(c);
}

static void ndrange(void)
{
    cl_context c = new_context(), c2 = new_context();
    cl_command_queue q = new_queue(c, 0), q2 = new_queue(c2, 0);
    cl_program p = build(c, fill_src, "");
    cl_kernel k = clCreateKernel(p, "fill", NULL);
    cl_mem m = new_buffer(c, CL_MEM_READ_WRITE, 1024 * sizeof(int), NULL);
    size_t g = 64, l = 32, g3[3] = { 4, 4, 4 }, l3[3] = { 2, 2, 2 };
    EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    EXPECT_ERR(clEnqueueTask(q, k, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    int v = 1000;
    OK(clSetKernelArg(k, 0, sizeof m, &m));
    OK(clSetKernelArg(k, 1, sizeof v, &v));
    EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 0, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
    EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 4, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
    EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, NULL, &l, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
    size_t zero = 0, odd = 33, huge = 2048, max_off = (size_t)-10;
    {   /* a global size of 0: an empty launch that succeeds with its event (OpenCL 2.1+, 3.0 §5.10) */
        int zeros[4] = { 0 }, back[4] = { 9, 9, 9, 9 };
        OK(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, sizeof zeros, zeros, 0, NULL, NULL));
        size_t g2z[2] = { 4, 0 };
        cl_event ev;
        OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &zero, NULL, 0, NULL, &ev));
        OK(clEnqueueNDRangeKernel(q, k, 2, NULL, g2z, NULL, 1, &ev, NULL));
        OK(clWaitForEvents(1, &ev));
        cl_int status = -1;
        cl_command_type type = 0;
        OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
        OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
        EXPECT(status == CL_COMPLETE && type == CL_COMMAND_NDRANGE_KERNEL);
        OK(clReleaseEvent(ev));
        OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
        EXPECT(!memcmp(back, zeros, sizeof back));   /* nothing ran */
    }
    EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &odd, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &zero, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &huge, &huge, 0, NULL, NULL), CL_INVALID_WORK_ITEM_SIZE);
    EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, &max_off, &g, &l, 0, NULL, NULL), CL_INVALID_GLOBAL_OFFSET);
    size_t wg;
    OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    size_t g2[2] = { 2 * wg, 2 }, l2[2] = { wg, 2 };
    EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 2, NULL, g2, l2, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    EXPECT_ERR(clEnqueueNDRangeKernel(q2, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_CONTEXT);
    EXPECT_ERR(clEnqueueNDRangeKernel(q, NULL, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL);
    EXPECT_ERR(clEnqueueNativeKernel(q, NULL, NULL, 0, 0, NULL, NULL, 0, NULL, NULL), CL_INVALID_OPERATION);
    /* success: an offset, a prime global size with a NULL local size, 3D, a task */
    size_t off = 100, prime = 97;
    int out[1024];
    OK(clEnqueueNDRangeKernel(q, k, 1, &off, &prime, NULL, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, m, CL_TRUE, 100 * sizeof(int), 97 * sizeof(int), out, 0, NULL, NULL));
    EXPECT(out[0] == 1100 && out[96] == 1196);
    OK(clEnqueueNDRangeKernel(q, k, 3, NULL, g3, l3, 0, NULL, NULL));
    v = -5;
    OK(clSetKernelArg(k, 1, sizeof v, &v));
    OK(clEnqueueTask(q, k, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof(int), out, 0, NULL, NULL));
    EXPECT(out[0] == -5);
    /* reqd_work_group_size: reported, enforced, and used for a NULL local size; 1024 work-items */
    const char *reqd = "__kernel __attribute__((reqd_work_group_size(1024, 1, 1))) void r(__global int *o)\n"
                       "{ o[get_global_id(0)] = (int)get_local_size(0); }\n";
    cl_program pr = build(c, reqd, "");
    cl_kernel kr = clCreateKernel(pr, "r", NULL);
    OK(clSetKernelArg(kr, 0, sizeof m, &m));
    size_t cwg[3];
    OK(clGetKernelWorkGroupInfo(kr, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg, cwg, NULL));
    EXPECT(cwg[0] == 1024 && cwg[1] == 1 && cwg[2] == 1);
    OK(clGetKernelWorkGroupInfo(kr, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    EXPECT(wg == 1024);
    size_t g1024 = 1024, l512 = 512;
    EXPECT_ERR(clEnqueueNDRangeKernel(q, kr, 1, NULL, &g1024, &l512, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    OK(clEnqueueNDRangeKernel(q, kr, 1, NULL, &g1024, NULL, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    EXPECT(out[0] == 1024 && out[1023] == 1024);
    clReleaseKernel(kr), clReleaseProgram(pr);
    /* a CL_MEM_USE_HOST_PTR buffer works like zero-copy host memory across a kernel */
    int host[64];
    for (int i = 0; i < 64; i++) host[i] = -1;
    cl_mem u = new_buffer(c, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof host, host);
    v = 7;
    OK(clSetKernelArg(k, 0, sizeof u, &u));
    OK(clSetKernelArg(k, 1, sizeof v, &v));
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    OK(clFinish(q));
    EXPECT(host[0] == 7 && host[63] == 70);
    clReleaseMemObject(u);
    clReleaseKernel(k), clReleaseProgram(p), clReleaseMemObject(m);
    clReleaseCommandQueue(q), clReleaseCommandQueue(q2), clReleaseContext(c), clReleaseContext(c2);
}

/* ---------------- events ---------------- */

static atomic_int callback_sum;
static void CL_CALLBACK on_event(cl_event ev, cl_int status, void *data)
{
    (void)ev;
    atomic_fetch_add(&callback_sum, status < 0 ? 1000 : (int)(size_t)data);
}

static cl_int status_of(cl_event ev)
{
    cl_int s = 99;
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
    return s;
}

static void events(void)
{
    cl_int e_;
    cl_context c = new_context();
    cl_command_queue q = new_queue(c, 0);
    cl_event u = clCreateUserEvent(c, &e_);
    OK(e_);
    EXPECT(status_of(u) == CL_SUBMITTED);
    cl_command_type t;
    OK(clGetEventInfo(u, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
    EXPECT(t == CL_COMMAND_USER);
    cl_context ec;
    OK(clGetEventInfo(u, CL_EVENT_CONTEXT, sizeof ec, &ec, NULL));
    EXPECT(ec == c);
    EXPECT_ERR(clSetEventCallback(u, 77, on_event, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clSetEventCallback(u, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
    OK(clSetEventCallback(u, CL_COMPLETE, on_event, (void *)1));
    cl_mem m = new_buffer(c, CL_MEM_READ_WRITE, 64, NULL);
    int pat = 5, out = 0;
    cl_event fill, marker, read;
    OK(clEnqueueFillBuffer(q, m, &pat, sizeof pat, 0, 64, 1, &u, &fill));
    OK(clSetEventCallback(fill, CL_COMPLETE, on_event, (void *)10));
    OK(clSetEventCallback(fill, CL_RUNNING, on_event, (void *)100));
    OK(clEnqueueMarker(q, &marker));
    OK(clEnqueueReadBuffer(q, m, CL_FALSE, 0, sizeof out, &out, 0, NULL, &read));
    EXPECT(status_of(fill) == CL_QUEUED && status_of(read) == CL_QUEUED);
    EXPECT_ERR(clGetEventProfilingInfo(fill, CL_PROFILING_COMMAND_END, sizeof(cl_ulong), &(cl_ulong){0}, NULL),
               CL_PROFILING_INFO_NOT_AVAILABLE);
    EXPECT_ERR(clSetUserEventStatus(u, 1), CL_INVALID_VALUE);
    EXPECT_ERR(clSetUserEventStatus(fill, CL_COMPLETE), CL_INVALID_EVENT);
    OK(clSetUserEventStatus(u, CL_COMPLETE));
    EXPECT_ERR(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_OPERATION);
    OK(clWaitForEvents(1, &read));
    EXPECT(out == 5 && status_of(marker) == CL_COMPLETE);
    OK(clFinish(q));
    /* callbacks for a state already reached run at once */
    OK(clSetEventCallback(read, CL_SUBMITTED, on_event, (void *)10000));
    EXPECT(atomic_load(&callback_sum) == 10111);
    EXPECT_ERR(clWaitForEvents(0, &read), CL_INVALID_VALUE);
    EXPECT_ERR(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
    cl_event gone = clCreateUserEvent(c, NULL);
    OK(clReleaseEvent(gone));
    EXPECT_ERR(clWaitForEvents(1, &gone), CL_INVALID_EVENT);
    EXPECT_ERR(clEnqueueMarker(q, NULL), CL_INVALID_VALUE);
    OK(clEnqueueBarrier(q));
    OK(clEnqueueWaitForEvents(q, 1, &read));
    EXPECT_ERR(clEnqueueWaitForEvents(q, 0, NULL), CL_INVALID_VALUE);
    cl_uint refs;
    OK(clRetainEvent(read));
    OK(clGetEventInfo(read, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    EXPECT(refs >= 2);
    OK(clReleaseEvent(read));
    EXPECT_ERR(clGetEventInfo(read, 0x7777, sizeof refs, &refs, NULL), CL_INVALID_VALUE);

    /* a user event set to an error: the commands waiting on it fail, the wait says so */
    cl_event u2 = clCreateUserEvent(c, &e_), f2, after;
    OK(clEnqueueFillBuffer(q, m, &pat, sizeof pat, 0, 64, 1, &u2, &f2));
    OK(clEnqueueMarkerWithWaitList(q, 1, &f2, &after));
    OK(clSetUserEventStatus(u2, -42));
    EXPECT_ERR(clWaitForEvents(1, &f2), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT_ERR(clWaitForEvents(1, &after), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT(status_of(f2) < 0 && status_of(after) < 0);
    EXPECT_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, &out, 1, &u2, NULL), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    OK(clFinish(q));
    clReleaseEvent(u), clReleaseEvent(fill), clReleaseEvent(marker), clReleaseEvent(read);
    clReleaseEvent(u2), clReleaseEvent(f2), clReleaseEvent(after);
    EXPECT_ERR(clReleaseEvent(u), CL_INVALID_EVENT);
    clReleaseMemObject(m), clReleaseCommandQueue(q), clReleaseContext(c);
}

static void profiling(void)
{
    cl_context c = new_context();
    cl_command_queue q = new_queue(c, CL_QUEUE_PROFILING_ENABLE);
    cl_mem m = new_buffer(c, CL_MEM_READ_WRITE, 4096, NULL);
    char zero = 0;
    cl_event ev;
    OK(clEnqueueFillBuffer(q, m, &zero, 1, 0, 4096, 0, NULL, &ev));
    OK(clWaitForEvents(1, &ev));
    cl_ulong t[4];
    OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED, sizeof t[0], &t[0], NULL));
    OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_SUBMIT, sizeof t[1], &t[1], NULL));
    OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t[2], &t[2], NULL));
    OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t[3], &t[3], NULL));
    EXPECT(t[0] > 0 && t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3]);
    EXPECT_ERR(clGetEventProfilingInfo(ev, 0x7777, sizeof t[0], &t[0], NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 4, &t[0], NULL), CL_INVALID_VALUE);
    cl_event u = clCreateUserEvent(c, NULL);
    clSetUserEventStatus(u, CL_COMPLETE);
    EXPECT_ERR(clGetEventProfilingInfo(u, CL_PROFILING_COMMAND_END, sizeof t[0], &t[0], NULL), CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(ev), clReleaseEvent(u), clReleaseMemObject(m), clReleaseCommandQueue(q), clReleaseContext(c);
}

/* The queue engine's rules across queues (the platform layer's plat_stream): out of order, a
 * command blocked on a user event does not hold back later independent ones, a marker without a
 * wait list and a barrier wait for everything before them and later commands for the barrier;
 * an event of another queue is a dependency; a failed event fails what waits on it, in any queue;
 * a queue released with commands pending runs them and retires what they hold. */
static atomic_int stages, mem_gone;
static void CL_CALLBACK on_stage(cl_event ev, cl_int status, void *data)
{
    (void)ev;
    /* in order: SUBMITTED (1), RUNNING (10), COMPLETE (100); a digit out of place shows */
    int want = (int)(size_t)data, have = atomic_load(&stages);
    atomic_store(&stages, status == CL_COMPLETE && want == 100 && have == 11 ? 111
                          : status == CL_RUNNING && want == 10 && have == 1   ? 11
                          : status == CL_SUBMITTED && want == 1 && have == 0  ? 1
                                                                              : -1);
}
static void CL_CALLBACK on_mem_gone(cl_mem m, void *data) { (void)m, (void)data; atomic_store(&mem_gone, 1); }

static void queue_engine(void)
{
    cl_int e_;
    cl_context c = new_context();
    cl_command_queue ooo = new_queue(c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE), q2 = new_queue(c, 0);
    cl_mem a = new_buffer(c, CL_MEM_READ_WRITE, 64, NULL), b = new_buffer(c, CL_MEM_READ_WRITE, 64, NULL);
    cl_event u = clCreateUserEvent(c, &e_), fa, fb, mk, bar, fa2, rd;
    OK(e_);
    int one = 1, two = 2, three = 3, out[16] = { 0 }, out2[16] = { 0 };
    OK(clEnqueueFillBuffer(ooo, a, &one, sizeof one, 0, 64, 1, &u, &fa));
    OK(clSetEventCallback(fa, CL_SUBMITTED, on_stage, (void *)1));
    OK(clSetEventCallback(fa, CL_RUNNING, on_stage, (void *)10));
    OK(clSetEventCallback(fa, CL_COMPLETE, on_stage, (void *)100));
    OK(clEnqueueFillBuffer(ooo, b, &two, sizeof two, 0, 64, 0, NULL, &fb));
    OK(clEnqueueMarkerWithWaitList(ooo, 0, NULL, &mk));
    OK(clEnqueueBarrierWithWaitList(ooo, 0, NULL, &bar));
    OK(clEnqueueFillBuffer(ooo, b, &three, sizeof three, 0, 4, 0, NULL, &fa2));
    /* another queue waits for an event of this one */
    OK(clEnqueueReadBuffer(q2, a, CL_FALSE, 0, 64, out, 1, &fa, &rd));
    OK(clWaitForEvents(1, &fb));   /* the independent fill ran past the blocked one */
    cl_command_queue q3 = new_queue(c, 0);   /* some time for what must not run to show */
    OK(clEnqueueReadBuffer(q3, b, CL_TRUE, 0, 64, out2, 0, NULL, NULL));
    EXPECT(out2[0] == 2 && out2[15] == 2);
    clReleaseCommandQueue(q3);
    EXPECT(status_of(fa) == CL_QUEUED && status_of(mk) > CL_COMPLETE && status_of(bar) > CL_COMPLETE);
    EXPECT(status_of(fa2) > CL_COMPLETE && status_of(rd) > CL_COMPLETE);
    EXPECT(atomic_load(&stages) == 0);
    OK(clSetUserEventStatus(u, CL_COMPLETE));
    cl_event all[] = { fa, mk, bar, fa2, rd };
    OK(clWaitForEvents(5, all));
    EXPECT(out[0] == 1 && out[15] == 1);
    OK(clEnqueueReadBuffer(ooo, b, CL_TRUE, 0, 64, out2, 0, NULL, NULL));
    EXPECT(out2[0] == 3 && out2[1] == 2);   /* the fill after the barrier came after the one before */
    OK(clFinish(ooo));
    for (int spin = 0; atomic_load(&stages) != 111 && spin < 100000000; spin++) ;
    EXPECT(atomic_load(&stages) == 111);
    for (int i = 0; i < 5; i++) clReleaseEvent(all[i]);
    clReleaseEvent(fb), clReleaseEvent(u);

    /* a failed user event fails its dependents here and in the other queue, and a barrier after them */
    cl_event u2 = clCreateUserEvent(c, &e_), f, after, other, ok;
    OK(clEnqueueFillBuffer(ooo, a, &two, sizeof two, 0, 64, 1, &u2, &f));
    OK(clEnqueueBarrierWithWaitList(ooo, 0, NULL, &after));
    OK(clEnqueueMarkerWithWaitList(q2, 1, &f, &other));
    OK(clEnqueueFillBuffer(q2, b, &three, sizeof three, 0, 64, 0, NULL, &ok));
    OK(clSetUserEventStatus(u2, -7));
    EXPECT_ERR(clWaitForEvents(1, &f), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT_ERR(clWaitForEvents(1, &after), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT_ERR(clWaitForEvents(1, &other), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    OK(clWaitForEvents(1, &ok));   /* in order, what comes after a failed command still runs */
    EXPECT(status_of(u2) == -7 && status_of(f) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    OK(clFinish(ooo));
    OK(clFinish(q2));
    clReleaseEvent(u2), clReleaseEvent(f), clReleaseEvent(after), clReleaseEvent(other), clReleaseEvent(ok);

    /* released with commands pending: they run, and what they hold is released on the worker */
    cl_command_queue gone = new_queue(c, 0);
    cl_mem m = new_buffer(c, CL_MEM_READ_WRITE, 64, NULL);
    OK(clSetMemObjectDestructorCallback(m, on_mem_gone, NULL));
    cl_event u3 = clCreateUserEvent(c, &e_), r3;
    int got[16] = { 0 };
    OK(clEnqueueFillBuffer(gone, m, &three, sizeof three, 0, 64, 1, &u3, NULL));
    OK(clEnqueueReadBuffer(gone, m, CL_FALSE, 0, 64, got, 0, NULL, &r3));
    OK(clReleaseMemObject(m));
    OK(clReleaseCommandQueue(gone));
    EXPECT(atomic_load(&mem_gone) == 0);
    OK(clSetUserEventStatus(u3, CL_COMPLETE));
    OK(clWaitForEvents(1, &r3));
    EXPECT(got[0] == 3 && got[15] == 3);
    for (int spin = 0; !atomic_load(&mem_gone) && spin < 100000000; spin++) ;
    EXPECT(atomic_load(&mem_gone) == 1);
    clReleaseEvent(u3), clReleaseEvent(r3);
    clReleaseMemObject(a), clReleaseMemObject(b);
    clReleaseCommandQueue(ooo), clReleaseCommandQueue(q2), clReleaseContext(c);
}

/* A kernel that faults, with UMBRA_KERNEL_FAULT=continue (main sets it for the suite): its event
 * completes with CL_OUT_OF_RESOURCES, what waits on it fails, the queue's next synchronising call
 * (clFinish, then a blocking read after a second fault) returns CL_OUT_OF_RESOURCES once, and the
 * host goes on. */
static void kernel_fault(void)
{
    cl_context c = new_context();
    cl_command_queue q = new_queue(c, 0);
    const char *src = "__kernel void wild(__global int *p) { p[0x40000000] = 1; }\n";
    cl_program p = build(c, src, "");
    cl_kernel k = clCreateKernel(p, "wild", NULL);
    cl_mem m = new_buffer(c, CL_MEM_READ_WRITE, 64, NULL);
    OK(clSetKernelArg(k, 0, sizeof m, &m));
    size_t g = 1;
    cl_event ev, after;
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, &ev));
    int out;
    OK(clEnqueueReadBuffer(q, m, CL_FALSE, 0, 4, &out, 1, &ev, &after));
    EXPECT_ERR(clWaitForEvents(1, &ev), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT_ERR(clFinish(q), CL_OUT_OF_RESOURCES);   /* the failure, once */
    OK(clFinish(q));
    EXPECT(status_of(ev) == CL_OUT_OF_RESOURCES && status_of(after) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    /* the queue still works */
    OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, &out, 0, NULL, NULL));
    /* a second fault: the next blocking call on the queue reports it (its read is done) */
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    EXPECT_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, &out, 0, NULL, NULL), CL_OUT_OF_RESOURCES);
    OK(clFinish(q));
    clReleaseEvent(ev), clReleaseEvent(after), clReleaseKernel(k), clReleaseProgram(p), clReleaseMemObject(m);
    clReleaseCommandQueue(q), clReleaseContext(c);
}

/* ---------------- NULL and released objects everywhere ---------------- */

static void misuse(void)
{
    size_t z;
    cl_uint u;
    EXPECT_ERR(clGetDeviceInfo(NULL, CL_DEVICE_NAME, 0, NULL, &z), CL_INVALID_DEVICE);
    EXPECT_ERR(clGetContextInfo(NULL, CL_CONTEXT_NUM_DEVICES, sizeof u, &u, NULL), CL_INVALID_CONTEXT);
    EXPECT_ERR(clGetCommandQueueInfo(NULL, CL_QUEUE_CONTEXT, 0, NULL, &z), CL_INVALID_COMMAND_QUEUE);
    EXPECT_ERR(clGetMemObjectInfo(NULL, CL_MEM_SIZE, 0, NULL, &z), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clGetProgramInfo(NULL, CL_PROGRAM_SOURCE, 0, NULL, &z), CL_INVALID_PROGRAM);
    EXPECT_ERR(clGetKernelInfo(NULL, CL_KERNEL_NUM_ARGS, 0, NULL, &z), CL_INVALID_KERNEL);
    EXPECT_ERR(clGetEventInfo(NULL, CL_EVENT_COMMAND_TYPE, 0, NULL, &z), CL_INVALID_EVENT);
    EXPECT_ERR(clRetainMemObject(NULL), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clRetainProgram(NULL), CL_INVALID_PROGRAM);
    EXPECT_ERR(clRetainKernel(NULL), CL_INVALID_KERNEL);
    EXPECT_ERR(clRetainEvent(NULL), CL_INVALID_EVENT);
    EXPECT_ERR(clRetainCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
    EXPECT_ERR(clCreateUserEvent(NULL, NULL) == NULL ? CL_INVALID_CONTEXT : CL_SUCCESS, CL_INVALID_CONTEXT);
    /* released objects of every kind */
    cl_context c = new_context();
    cl_command_queue q = new_queue(c, 0);
    cl_mem m = new_buffer(c, CL_MEM_READ_WRITE, 64, NULL);
    cl_program p = build(c, fill_src, "");
    cl_kernel k = clCreateKernel(p, "fill", NULL);
    cl_event ev;
    OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &ev));
    OK(clFinish(q));
    OK(clReleaseEvent(ev));
    OK(clReleaseKernel(k));
    OK(clReleaseProgram(p));
    OK(clReleaseMemObject(m));
    OK(clReleaseCommandQueue(q));
    EXPECT_ERR(clWaitForEvents(1, &ev), CL_INVALID_EVENT);
    EXPECT_ERR(clSetKernelArg(k, 0, sizeof m, &m), CL_INVALID_KERNEL);
    EXPECT_ERR(clCreateKernel(p, "fill", NULL) == NULL ? CL_INVALID_PROGRAM : CL_SUCCESS, CL_INVALID_PROGRAM);
    EXPECT_ERR(clEnqueueMarkerWithWaitList(q, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    EXPECT_ERR(clRetainMemObject(m), CL_INVALID_MEM_OBJECT);
    OK(clReleaseContext(c));
    /* a context nothing else holds any more */
    cl_context alone = new_context();
    OK(clReleaseContext(alone));
    cl_int e = 0;
    EXPECT(clCreateBuffer(alone, CL_MEM_READ_WRITE, 64, NULL, &e) == NULL && e == CL_INVALID_CONTEXT);
}

/* ---------------- threads ---------------- */

typedef struct worker_arg {
    cl_context c;
    cl_command_queue shared;
    cl_kernel k;
    int id, ok;
} worker_arg;

static void *worker(void *arg)
{
    worker_arg *w = arg;
    cl_command_queue own = clCreateCommandQueue(w->c, dev, 0, NULL);
    cl_mem m = clCreateBuffer(w->c, CL_MEM_READ_WRITE, 256 * sizeof(int), NULL, NULL);
    cl_program p;
    clGetKernelInfo(w->k, CL_KERNEL_PROGRAM, sizeof p, &p, NULL);
    cl_kernel mine = clCreateKernel(p, "fill", NULL);
    w->ok = 1;
    for (int round = 0; round < 20; round++) {
        int v = w->id * 1000 + round, out[256];
        cl_command_queue q = round % 2 ? own : w->shared;
        clSetKernelArg(mine, 0, sizeof m, &m);
        clSetKernelArg(mine, 1, sizeof v, &v);
        size_t g = 256;
        if (clEnqueueNDRangeKernel(q, mine, 1, NULL, &g, NULL, 0, NULL, NULL) ||
            clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL))
            w->ok = 0;
        for (int i = 0; i < 256; i++)
            if (out[i] != v + i) w->ok = 0;
    }
    clReleaseKernel(mine), clReleaseMemObject(m), clReleaseCommandQueue(own);
    return NULL;
}

static void threads(void)
{
    enum { T = 4 };
    cl_context c = new_context();
    cl_command_queue shared = new_queue(c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_program p = build(c, fill_src, "");
    cl_kernel k = clCreateKernel(p, "fill", NULL);
    pthread_t t[T];
    worker_arg w[T];
    for (int i = 0; i < T; i++) {
        w[i] = (worker_arg){ c, shared, k, i, 0 };
        pthread_create(&t[i], NULL, worker, &w[i]);
    }
    for (int i = 0; i < T; i++) {
        pthread_join(t[i], NULL);
        EXPECT(w[i].ok);
    }
    clReleaseKernel(k), clReleaseProgram(p), clReleaseCommandQueue(shared), clReleaseContext(c);
}

/* ---------------- the table ---------------- */

typedef struct test_case {
    const char *name;
    void (*fn)(void);
} test_case;

/* CL_DEVICE_MAX_WORK_GROUP_SIZE and what follows from it. Default: 256, 1024 per dimension. With
 * UMBRA_MAX_WORK_GROUP_SIZE below 256 (opencl.api.small_work_groups_32): a smaller GPU, whose
 * every dimension and every kernel, reqd_work_group_size ones included, is bounded by it. */
static void CL_CALLBACK on_destroy_count(cl_mem m, void *data);

/* clSetKernelArg takes no reference on a buffer (CTS retain_mem_object_set_kernel_arg): releasing
 * the buffer after setting it runs its destructor callback at once; an enqueue with that argument
 * is then CL_INVALID_KERNEL_ARGS, also when a new buffer took the old one's memory; set again, the
 * kernel runs (out[0] = 7). */
static void arg_release(void)
{
    cl_context c = new_context();
    cl_command_queue q = new_queue(c, 0);
    cl_program p = build(c, "__kernel void seven(__global int *out) { out[0] = 7; }\n", "");
    cl_int e_;
    cl_kernel k = clCreateKernel(p, "seven", &e_);
    OK(e_);
    cl_mem m = new_buffer(c, CL_MEM_READ_WRITE, 32, NULL);
    static int destroyed;
    destroyed = 0;
    OK(clSetMemObjectDestructorCallback(m, on_destroy_count, &destroyed));
    OK(clSetKernelArg(k, 0, sizeof m, &m));
    OK(clReleaseMemObject(m));
    EXPECT(destroyed == 1);
    size_t g = 1;
    EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    cl_mem again = new_buffer(c, CL_MEM_READ_WRITE, 32, NULL);   /* may reuse the released object's memory */
    EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    OK(clSetKernelArg(k, 0, sizeof again, &again));
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    int out = 0;
    OK(clEnqueueReadBuffer(q, again, CL_TRUE, 0, 4, &out, 0, NULL, NULL));
    EXPECT(out == 7);
    clReleaseMemObject(again), clReleaseKernel(k), clReleaseProgram(p), clReleaseCommandQueue(q), clReleaseContext(c);
}

static void CL_CALLBACK on_destroy_count(cl_mem m, void *data)
{
    (void)m;
    ++*(int *)data;
}

/* A kernel with as many arguments as CL_DEVICE_MAX_PARAMETER_SIZE allows of chars and more than
 * any small fixed limit: 200 char arguments (i + 1 each) and a buffer; out[0] = 1 + ... + 200 =
 * 20100 (CTS test_api min_max_parameter_size). */
static void many_args(void)
{
    enum { N = 200 };
    static char src[N * 40 + 256];
    size_t n = (size_t)snprintf(src, sizeof src, "__kernel void many(__global int *out");
    for (int i = 0; i < N; i++) n += (size_t)snprintf(src + n, sizeof src - n, ", uchar a%d", i);
    n += (size_t)snprintf(src + n, sizeof src - n, ") { int s = 0;");
    for (int i = 0; i < N; i++) n += (size_t)snprintf(src + n, sizeof src - n, " s += a%d;", i);
    snprintf(src + n, sizeof src - n, " out[0] = s; }\n");
    size_t max_param;
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_PARAMETER_SIZE, sizeof max_param, &max_param, NULL));
    EXPECT(max_param >= 8 + N);
    cl_context c = new_context();
    cl_command_queue q = new_queue(c, 0);
    cl_program p = build(c, src, "");
    cl_int e_;
    cl_kernel k = clCreateKernel(p, "many", &e_);
    OK(e_);
    cl_mem m = new_buffer(c, CL_MEM_WRITE_ONLY, 4, NULL);
    OK(clSetKernelArg(k, 0, sizeof m, &m));
    for (cl_uint i = 0; i < N; i++) {
        cl_uchar v = (cl_uchar)(i % 255 + 1);
        OK(clSetKernelArg(k, i + 1, 1, &v));
    }
    size_t g = 1;
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    cl_int out = 0;
    OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, &out, 0, NULL, NULL));
    EXPECT(out == N * (N + 1) / 2);
    clReleaseMemObject(m), clReleaseKernel(k), clReleaseProgram(p), clReleaseCommandQueue(q), clReleaseContext(c);
}

static void small_work_groups(void)
{
    size_t max_wg, items[3];
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL));
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL));
    const char *want = getenv("UMBRA_MAX_WORK_GROUP_SIZE");
    size_t expect = want ? strtoul(want, NULL, 0) : 256;
    EXPECT(max_wg == expect);
    size_t per_dim = expect < 256 ? expect : 1024;
    EXPECT(items[0] == per_dim && items[1] == per_dim && items[2] == per_dim);
    cl_context c = new_context();
    cl_command_queue q = new_queue(c, 0);
    const char *src = "__kernel void ls(__global int *o) { o[get_global_id(0)] = (int)get_local_size(0); }\n"
                      "__kernel __attribute__((reqd_work_group_size(1024, 1, 1))) void r(__global int *o)\n"
                      "{ o[get_global_id(0)] = 1; }\n";
    cl_program p = build(c, src, "");
    cl_kernel k = clCreateKernel(p, "ls", NULL), kr = clCreateKernel(p, "r", NULL);
    cl_mem m = new_buffer(c, CL_MEM_READ_WRITE, 2048 * sizeof(int), NULL);
    OK(clSetKernelArg(k, 0, sizeof m, &m));
    OK(clSetKernelArg(kr, 0, sizeof m, &m));
    size_t wg;
    OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    EXPECT(wg == max_wg);
    int out[2048];
    /* the largest group runs; one more work-item in a dimension or in the group does not */
    size_t g = 2 * max_wg, over = 2 * max_wg, g2[2] = { max_wg, 2 }, l2[2] = { max_wg, 2 };
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &max_wg, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof(int), out, 0, NULL, NULL));
    EXPECT(out[0] == (int)max_wg);
    EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &over, 0, NULL, NULL),
               over > per_dim ? CL_INVALID_WORK_ITEM_SIZE : CL_INVALID_WORK_GROUP_SIZE);
    EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 2, NULL, g2, l2, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    /* a NULL local size picks a group within the maximum */
    size_t g1024 = 1024;
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g1024, NULL, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 1024 * sizeof(int), out, 0, NULL, NULL));
    EXPECT(out[0] >= 1 && (size_t)out[0] <= max_wg && out[1023] == out[0]);
    /* a kernel that requires 1024 work-items runs only where the device has them */
    OK(clGetKernelWorkGroupInfo(kr, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    EXPECT(wg == per_dim);
    EXPECT_ERR(clEnqueueNDRangeKernel(q, kr, 1, NULL, &g1024, NULL, 0, NULL, NULL),
               per_dim < 1024 ? CL_INVALID_WORK_GROUP_SIZE : CL_SUCCESS);
    OK(clFinish(q));
    clReleaseMemObject(m), clReleaseKernel(k), clReleaseKernel(kr), clReleaseProgram(p);
    clReleaseCommandQueue(q), clReleaseContext(c);
}

/* The names the platform reports: umbra's by default; with UMBRA_IDENTITY=rocm (opencl.api.
 * identity_rocm) ROCm's for an RX 7900 XTX, and AMD's attribute queries with the values ROCm's CLR
 * gives gfx1100 (its ISA table and rocdevice.cpp, docs/OPENCL.md "Identity"), which programs such
 * as OpenMM read to choose their AMD code path. */
static void identity(void)
{
    const char *id = getenv("UMBRA_IDENTITY");
    int rocm = id && !strcmp(id, "rocm");
    char s[1024];
    cl_uint u;
    OK(clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof s, s, NULL));
    EXPECT(!strcmp(s, rocm ? "AMD Accelerated Parallel Processing" : "umbra"));
    OK(clGetPlatformInfo(plat, CL_PLATFORM_VENDOR, sizeof s, s, NULL));
    EXPECT(!strcmp(s, rocm ? "Advanced Micro Devices, Inc." : "umbra"));
    OK(clGetDeviceInfo(dev, CL_DEVICE_VENDOR, sizeof s, s, NULL));
    EXPECT(!strcmp(s, rocm ? "Advanced Micro Devices, Inc." : "umbra (simulated AMD RDNA3)"));
    OK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof s, s, NULL));
    EXPECT(!strcmp(s, rocm ? "gfx1100" : "umbra RDNA3 gfx1100"));
    OK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof s, s, NULL));
    EXPECT((strstr(s, "cl_amd_device_attribute_query") != NULL) == (rocm != 0));
    if (!rocm) {   /* the queries of an extension not reported */
        EXPECT_ERR(clGetDeviceInfo(dev, 0x4043 /* WAVEFRONT_WIDTH_AMD */, sizeof u, &u, NULL), CL_INVALID_VALUE);
        EXPECT_ERR(clGetDeviceInfo(dev, 0x4038 /* BOARD_NAME_AMD */, sizeof s, s, NULL), CL_INVALID_VALUE);
        return;
    }
    static const struct { cl_uint param, want; } amd[] = {
        { 0x4040, 4 },     /* SIMD_PER_COMPUTE_UNIT: 2 per CU, doubled in WGP mode (48 WGPs reported) */
        { 0x4041, 32 },    /* SIMD_WIDTH */
        { 0x4042, 1 },     /* SIMD_INSTRUCTION_WIDTH */
        { 0x4043, 32 },    /* WAVEFRONT_WIDTH */
        { 0x4044, 12 },    /* GLOBAL_MEM_CHANNELS: a 384-bit bus / 32 */
        { 0x4045, 4 },     /* GLOBAL_MEM_CHANNEL_BANKS */
        { 0x4046, 256 },   /* GLOBAL_MEM_CHANNEL_BANK_WIDTH */
        { 0x4047, 65536 }, /* LOCAL_MEM_SIZE_PER_COMPUTE_UNIT */
        { 0x4048, 32 },    /* LOCAL_MEM_BANKS */
        { 0x404A, 11 },    /* GFXIP_MAJOR */
        { 0x404B, 0 },     /* GFXIP_MINOR */
        { 0x404C, 8 },     /* AVAILABLE_ASYNC_QUEUES */
        { 0x4034, 0x744c },/* PCIE_ID: Navi 31 */
    };
    for (size_t i = 0; i < sizeof amd / sizeof amd[0]; i++) {
        u = 0xdead;
        OK(clGetDeviceInfo(dev, amd[i].param, sizeof u, &u, NULL));
        if (u != amd[i].want) fprintf(stderr, "AMD query 0x%x: %u, expected %u\n", amd[i].param, u, amd[i].want);
        EXPECT(u == amd[i].want);
    }
    OK(clGetDeviceInfo(dev, 0x4038, sizeof s, s, NULL));
    EXPECT(!strcmp(s, "Radeon RX 7900 XTX"));   /* rocminfo's marketing name for the card */
    size_t free_kib[2];   /* total free and the largest free block, KiB; one value when one fits */
    OK(clGetDeviceInfo(dev, 0x4039, sizeof free_kib, free_kib, NULL));
    EXPECT(free_kib[0] == (24ull << 20) && free_kib[1] <= free_kib[0]);
    size_t n;
    OK(clGetDeviceInfo(dev, 0x4039, sizeof free_kib[0], free_kib, &n));
    EXPECT(n == sizeof free_kib[0]);
    EXPECT_ERR(clGetDeviceInfo(dev, 0x4043, 2, &u, NULL), CL_INVALID_VALUE);
    /* reported, so a kernel sees its macro (as every reported extension) */
    cl_context c = new_context();
    cl_program p = build(c, "#ifndef cl_amd_device_attribute_query\n#error no macro\n#endif\n"
                            "__kernel void k(__global int *o) { o[0] = 1; }\n", "");
    clReleaseProgram(p);
    clReleaseContext(c);
}

#define C(fn) { #fn, fn }
static const test_case cases[] = {
    C(platform), C(device), C(context), C(queue), C(buffers), C(sub_buffers), C(read_write), C(copy_fill),
    C(rect), C(map), C(migrate), C(program_source), C(program_binary), C(compile_link), C(kernels),
    C(set_args), C(ndrange), C(events), C(queue_engine), C(profiling), C(kernel_fault), C(misuse), C(threads),
    C(small_work_groups), C(many_args), C(arg_release), C(identity),
};

/* UMBRA_KERNEL_FAULT=abort: a kernel that faults ends the program after umbra's
 * report, as ROCm's OpenCL does (abort() in its HSA queue callback). Run alone (opencl.api.
 * kernel_fault_abort expects the report on stderr and never "returned"). */
static void kernel_fault_abort(void)
{
    cl_context c = new_context();
    cl_command_queue q = new_queue(c, 0);
    cl_program p = build(c, "__kernel void wild(__global int *p) { p[0x40000000] = 1; }\n", "");
    cl_kernel k = clCreateKernel(p, "wild", NULL);
    cl_mem m = new_buffer(c, CL_MEM_READ_WRITE, 64, NULL);
    OK(clSetKernelArg(k, 0, sizeof m, &m));
    size_t g = 1;
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    cl_int st = clFinish(q);
    printf("kernel_fault_abort: clFinish returned %d\n", st);   /* must not be reached */
    failures++;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "kernel_fault_abort")) {
        setup();
        kernel_fault_abort();
        return 1;
    }
    unsetenv("UMBRA_KERNEL_FAULT");   /* kernel_fault tests the default: the program goes on */
    setup();
    int ran = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (argc > 1 && strcmp(argv[1], cases[i].name)) continue;
        int before = failures;
        cases[i].fn();
        printf("%s %s\n", failures == before ? "ok  " : "FAIL", cases[i].name);
        ran++;
    }
    if (!ran) {
        fprintf(stderr, "no case named %s\n", argv[1]);
        return 2;
    }
    return failures ? 1 : 0;
}
