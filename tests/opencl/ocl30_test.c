/* OpenCL 3.0 on the umbra platform: the version and every 2.x/3.0 query, the OpenCL C features
 * it reports (each checked against the macros the compiler defines, and each run in a kernel
 * whose result is computed here in C), coarse-grained SVM, and the 2.x/3.0 entry points.
 * Kernels run at -O0 and -O3 where the optimizer matters. Runs through the ICD loader
 * (OCL_ICD_VENDORS = umbra.icd). usage: opencl_ocl30 CASE (one case) or opencl_ocl30 (all). */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"

static cl_platform_id plat;
static cl_device_id dev;
static cl_context ctx;
static cl_command_queue queue;

static void setup(void)
{
    cl_int e;
    if (clGetPlatformIDs(1, &plat, NULL) || clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL)) {
        fprintf(stderr, "no OpenCL platform (is OCL_ICD_VENDORS set to umbra.icd?)\n");
        exit(1);
    }
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    if (!e) queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &e);
    if (e) {
        fprintf(stderr, "context or queue: %d\n", e);
        exit(1);
    }
}

static cl_program build(const char *src, const char *options)
{
    cl_int e;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    if (e == CL_SUCCESS) e = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    if (e) {
        char log[16384] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed (%d, options '%s'):\n%s\n", e, options, log);
        exit(1);
    }
    return p;
}

static cl_mem buffer(size_t size, const void *init)
{
    cl_int e;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), size, (void *)init, &e);
    if (e) {
        fprintf(stderr, "clCreateBuffer: %d\n", e);
        exit(1);
    }
    return m;
}

/* Run kernel `name` of p over global x local (1-D) with the buffer as argument 0, then read it. */
static cl_int run1(cl_program p, const char *name, cl_mem m, size_t global, size_t local, void *out, size_t bytes)
{
    cl_int e;
    cl_kernel k = clCreateKernel(p, name, &e);
    if (e) return e;
    e = clSetKernelArg(k, 0, sizeof m, &m);
    if (!e) e = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL);
    if (!e && out) e = clEnqueueReadBuffer(queue, m, CL_TRUE, 0, bytes, out, 0, NULL, NULL);
    clReleaseKernel(k);
    return e;
}

static const char *const opt_levels[] = { "-cl-std=CL3.0 -O0", "-cl-std=CL3.0" };

/* ---------------- the version and the queries ---------------- */

static size_t name_versions(cl_device_info param, cl_name_version *out, size_t max)
{
    size_t bytes = 0;
    OK(clGetDeviceInfo(dev, param, 0, NULL, &bytes));
    EXPECT(bytes % sizeof(cl_name_version) == 0 && bytes / sizeof(cl_name_version) <= max);
    if (bytes > max * sizeof(cl_name_version)) return 0;
    OK(clGetDeviceInfo(dev, param, bytes, out, NULL));
    return bytes / sizeof(cl_name_version);
}

/* The OpenCL C 3.0 optional features umbra implements, as docs/OPENCL.md lists them. */
static const char *const features_expected[] = {
    "__opencl_c_int64", "__opencl_c_fp64", "__opencl_c_generic_address_space",
    "__opencl_c_program_scope_global_variables", "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_work_group_collective_functions", "__opencl_c_subgroups", "__opencl_c_images",
    "__opencl_c_3d_image_writes", "__opencl_c_read_write_images",
};
#define NFEATURES (sizeof features_expected / sizeof features_expected[0])

static void versions(void)
{
    char s[1024];
    OK(clGetPlatformInfo(plat, CL_PLATFORM_VERSION, sizeof s, s, NULL));
    EXPECT(!strcmp(s, "OpenCL 3.0 umbra"));
    OK(clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof s, s, NULL));
    /* no other version number in it: programs search it for "1.0" / "1.1" (OpenCL-SDK) */
    EXPECT(!strcmp(s, "OpenCL 3.0 umbra"));
    OK(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_VERSION, sizeof s, s, NULL));
    EXPECT(!strcmp(s, "OpenCL C 1.2 "));   /* 3.0 requires 1.2; without pipes it cannot claim 2.0 */
    cl_version v = 0;
    OK(clGetPlatformInfo(plat, CL_PLATFORM_NUMERIC_VERSION, sizeof v, &v, NULL));
    EXPECT(v == CL_MAKE_VERSION(3, 0, 0));
    OK(clGetDeviceInfo(dev, CL_DEVICE_NUMERIC_VERSION, sizeof v, &v, NULL));
    EXPECT(v == CL_MAKE_VERSION(3, 0, 0));
    cl_name_version nv[32];
    size_t n = name_versions(CL_DEVICE_OPENCL_C_ALL_VERSIONS, nv, 32);
    const cl_version want[] = { CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0), CL_MAKE_VERSION(1, 2, 0),
                                CL_MAKE_VERSION(3, 0, 0) };
    EXPECT(n == 4);
    for (size_t i = 0; i < n && i < 4; i++) EXPECT(!strcmp(nv[i].name, "OpenCL C") && nv[i].version == want[i]);
    n = name_versions(CL_DEVICE_OPENCL_C_FEATURES, nv, 32);
    EXPECT(n == NFEATURES);
    for (size_t i = 0; i < n && i < NFEATURES; i++)
        EXPECT(!strcmp(nv[i].name, features_expected[i]) && nv[i].version == CL_MAKE_VERSION(3, 0, 0));
    /* the extensions with their versions are the extension string's words, in order */
    OK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof s, s, NULL));
    n = name_versions(CL_DEVICE_EXTENSIONS_WITH_VERSION, nv, 32);
    char joined[1024] = "";
    for (size_t i = 0; i < n; i++) {
        if (i) strcat(joined, " ");
        strcat(joined, nv[i].name);
        EXPECT(nv[i].version == CL_MAKE_VERSION(1, 0, 0));
    }
    EXPECT(!strcmp(joined, s));
    EXPECT(strstr(s, "cl_khr_subgroups") != NULL && strstr(s, "cl_khr_3d_image_writes") != NULL &&
           strstr(s, "cl_khr_mipmap_image") == NULL);
    OK(clGetPlatformInfo(plat, CL_PLATFORM_EXTENSIONS_WITH_VERSION, sizeof nv, nv, &n));
    EXPECT(n == sizeof(cl_name_version) && !strcmp(nv[0].name, "cl_khr_icd"));
    cl_ulong res = 0;
    OK(clGetPlatformInfo(plat, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof res, &res, NULL));
    EXPECT(res == 1);
}

static cl_ulong dev_ulong(cl_device_info param, size_t size)
{
    cl_ulong v = 0;
    size_t got = 0;
    OK(clGetDeviceInfo(dev, param, size, &v, &got));
    EXPECT(got == size);
    return v;
}

static void queries(void)
{
    const cl_ulong orders = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                            CL_DEVICE_ATOMIC_ORDER_SEQ_CST;
    const cl_ulong scopes = CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE |
                            CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
    EXPECT(dev_ulong(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, 8) == (orders | scopes));
    EXPECT(dev_ulong(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, 8) == (orders | scopes | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM));
    EXPECT(dev_ulong(CL_DEVICE_SVM_CAPABILITIES, 8) == CL_DEVICE_SVM_COARSE_GRAIN_BUFFER);
    EXPECT(dev_ulong(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, 4) == CL_TRUE);
    EXPECT(dev_ulong(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, 4) == CL_TRUE);
    EXPECT(dev_ulong(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, 4) == CL_TRUE);
    EXPECT(dev_ulong(CL_DEVICE_PIPE_SUPPORT, 4) == CL_FALSE);
    EXPECT(dev_ulong(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, 8) == 0);
    EXPECT(dev_ulong(CL_DEVICE_MAX_ON_DEVICE_QUEUES, 4) == 0);
    EXPECT(dev_ulong(CL_DEVICE_MAX_ON_DEVICE_EVENTS, 4) == 0);
    EXPECT(dev_ulong(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, 8) == 0);
    EXPECT(dev_ulong(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, 4) == 0);
    EXPECT(dev_ulong(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, 8) ==
           (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
    EXPECT(dev_ulong(CL_DEVICE_MAX_PIPE_ARGS, 4) == 0);
    size_t per_dim[3];
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof per_dim, per_dim, NULL));
    EXPECT(dev_ulong(CL_DEVICE_MAX_NUM_SUB_GROUPS, 4) == (per_dim[0] + 31) / 32);   /* waves of 32 */
    EXPECT(dev_ulong(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, 4) == CL_FALSE);
    EXPECT(dev_ulong(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof(size_t)) >= 65536);
    EXPECT(dev_ulong(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, sizeof(size_t)) >= 65536);
    EXPECT(dev_ulong(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(size_t)) == 32);
    EXPECT(dev_ulong(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, 4) == 0);
    char s[256];
    size_t n = 99;
    OK(clGetDeviceInfo(dev, CL_DEVICE_IL_VERSION, sizeof s, s, &n));
    EXPECT(n == 1 && s[0] == 0);
    OK(clGetDeviceInfo(dev, CL_DEVICE_ILS_WITH_VERSION, 0, NULL, &n));
    EXPECT(n == 0);
    OK(clGetDeviceInfo(dev, CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, 0, NULL, &n));
    EXPECT(n == 0);
    OK(clGetDeviceInfo(dev, CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, sizeof s, s, NULL));
    EXPECT(!strcmp(s, "v0000-01-01-00"));
}

/* ---------------- the compiler's macros match what the device reports ---------------- */

/* Every OpenCL C 3.0 feature macro; each is defined exactly when the device reports it. */
static const char *const all_features[] = {
    "__opencl_c_3d_image_writes", "__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices", "__opencl_c_device_enqueue",
    "__opencl_c_generic_address_space", "__opencl_c_fp64", "__opencl_c_images", "__opencl_c_int64",
    "__opencl_c_pipes", "__opencl_c_program_scope_global_variables", "__opencl_c_read_write_images",
    "__opencl_c_subgroups", "__opencl_c_work_group_collective_functions", "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed", "__opencl_c_ext_fp32_global_atomic_add",
    "cl_khr_fp64", "cl_khr_fp16", "cl_khr_subgroups", "cl_khr_3d_image_writes", "cl_khr_mipmap_image",
    "cl_khr_mipmap_image_writes", "cl_khr_int64_base_atomics", "cl_khr_byte_addressable_store",
    "cl_khr_global_int32_base_atomics", "cl_khr_local_int32_extended_atomics", "cl_khr_depth_images",
    "cl_khr_integer_dot_product", "cl_khr_subgroup_ballot", "cl_khr_extended_bit_ops",
};
#define NALL (sizeof all_features / sizeof all_features[0])

static bool reported(const char *name)
{
    char ext[2048];
    OK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    size_t n = strlen(name);
    for (const char *s = ext; (s = strstr(s, name)); s += n)
        if ((s == ext || s[-1] == ' ') && (!s[n] || s[n] == ' ')) return true;
    for (size_t i = 0; i < NFEATURES; i++)
        if (!strcmp(features_expected[i], name)) return true;
    return false;
}

static void feature_macros(void)
{
    char src[8192] = "kernel void k(global int *out) {\n";
    for (size_t i = 0; i < NALL; i++) {
        char line[256];
        snprintf(line, sizeof line, "#ifdef %s\n out[%zu] = 1;\n#else\n out[%zu] = 0;\n#endif\n", all_features[i], i, i);
        strcat(src, line);
    }
    strcat(src, "}\n");
    cl_program p = build(src, "-cl-std=CL3.0");
    int out[NALL];
    memset(out, 0xff, sizeof out);
    cl_mem m = buffer(sizeof out, out);
    OK(run1(p, "k", m, 1, 1, out, sizeof out));
    for (size_t i = 0; i < NALL; i++)
        if (out[i] != (int)reported(all_features[i])) {
            fprintf(stderr, "%s: macro %s, device %s\n", all_features[i], out[i] ? "defined" : "undefined",
                    reported(all_features[i]) ? "reports it" : "does not");
            failures++;
        }
    clReleaseMemObject(m), clReleaseProgram(p);
    /* -cl-std=CL2.0 and CL3.0 are accepted, and a 1.2 program sees no 3.0 feature macro; every
     * version sees __IMAGE_SUPPORT__ = 1 (OpenCL C 3.0 §6.12, 1.2 §6.10: defined to 1 when
     * CL_DEVICE_IMAGE_SUPPORT is true; clang defines it only for SPIR targets, ROCm's driver
     * passes it; the CTS's kernel_preprocessor_macros checks it) */
    const char *ver = "kernel void k(global int *out) { out[0] = __OPENCL_C_VERSION__;\n"
                      "#ifdef __opencl_c_generic_address_space\n out[1] = 1;\n#else\n out[1] = 0;\n#endif\n"
                      "#ifdef __IMAGE_SUPPORT__\n out[2] = __IMAGE_SUPPORT__;\n#else\n out[2] = 0;\n#endif\n}\n";
    const struct { const char *opt; int version, generic; } cases[] = {
        { "", 120, 0 }, { "-cl-std=CL1.2", 120, 0 }, { "-cl-std=CL2.0", 200, 1 }, { "-cl-std=CL3.0", 300, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        p = build(ver, cases[i].opt);
        int o[3] = { 0, 0, 0 };
        m = buffer(sizeof o, o);
        OK(run1(p, "k", m, 1, 1, o, sizeof o));
        EXPECT(o[0] == cases[i].version && o[1] == cases[i].generic && o[2] == 1);
        clReleaseMemObject(m), clReleaseProgram(p);
    }
}

/* ---------------- generic address space ---------------- */

static const char *generic_src =
    "int bump(int *p, int by) { *p += by; return *p; }\n"                    /* a generic pointer */
    "int where(const int *p) { return to_global(p) ? 1 : to_local(p) ? 2 : to_private(p) ? 3 : 0; }\n"
    "kernel void k(global int *out, global int *in) {\n"
    "  local int lds[64];\n"
    "  int lid = (int)get_local_id(0), gid = (int)get_global_id(0);\n"
    "  int priv = gid * 3;\n"
    "  lds[lid] = gid * 5;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int *pick = &priv;\n"                                   /* generic, from three address spaces */
    "  if (gid % 3 == 0) pick = &in[gid]; else if (gid % 3 == 1) pick = &lds[63 - lid];\n"
    "  int a = bump(pick, 7);\n"
    "  out[4 * gid + 0] = a;\n"
    "  out[4 * gid + 1] = where(pick);\n"
    "  out[4 * gid + 2] = (int)get_fence(pick);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[4 * gid + 3] = lds[lid] + bump(&in[gid], 0);\n"
    "}\n";

static void generic_address_space(void)
{
    enum { N = 128, L = 64 };
    for (int o = 0; o < 2; o++) {
        cl_program p = build(generic_src, opt_levels[o]);
        int in[N], out[4 * N];
        for (int i = 0; i < N; i++) in[i] = 1000 + i;
        cl_mem mo = buffer(sizeof out, NULL), mi = buffer(sizeof in, in);
        cl_int e;
        cl_kernel k = clCreateKernel(p, "k", &e);
        OK(e);
        OK(clSetKernelArg(k, 0, sizeof mo, &mo));
        OK(clSetKernelArg(k, 1, sizeof mi, &mi));
        size_t g = N, l = L;
        OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL));
        OK(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        int bad = 0;
        for (int gid = 0; gid < N; gid++) {
            int lid = gid % L, group = gid / L, kind = gid % 3;
            int partner = group * L + (L - 1 - lid);   /* whose lds slot this one bumped */
            int a = kind == 0 ? 1000 + gid + 7 : kind == 1 ? partner * 5 + 7 : gid * 3 + 7;
            /* get_fence of a private pointer is left to the implementation (OpenCL C 3.0 §6.15.5) */
            int fence = kind == 0 ? 2 /* CLK_GLOBAL_MEM_FENCE */ : kind == 1 ? 1 /* CLK_LOCAL_MEM_FENCE */ : -1;
            int lds_now = lid * 0 + gid * 5 + ((group * L + (L - 1 - lid)) % 3 == 1 ? 7 : 0);
            int in_now = 1000 + gid + (kind == 0 ? 7 : 0);
            int want[4] = { a, kind + 1, fence, lds_now + in_now };
            for (int j = 0; j < 4; j++)
                if (out[4 * gid + j] != want[j] && !(j == 2 && kind == 2) && bad++ < 5)
                    fprintf(stderr, "%s: work-item %d word %d: %d, expected %d\n", opt_levels[o], gid, j,
                            out[4 * gid + j], want[j]);
        }
        EXPECT(bad == 0);
        clReleaseKernel(k), clReleaseMemObject(mo), clReleaseMemObject(mi), clReleaseProgram(p);
    }
}

/* ---------------- work-group collective functions ---------------- */

static const char *wg_src =
    "kernel void k(global int *out, global const int *in) {\n"
    "  size_t g = get_global_id(0); int x = in[g];\n"
    "  size_t b = 10 * g;\n"
    "  out[b + 0] = work_group_reduce_add(x);\n"
    "  out[b + 1] = work_group_reduce_min(x);\n"
    "  out[b + 2] = work_group_reduce_max(x);\n"
    "  out[b + 3] = work_group_scan_inclusive_add(x);\n"
    "  out[b + 4] = work_group_scan_exclusive_add(x);\n"
    "  out[b + 5] = work_group_scan_inclusive_max(x);\n"
    "  out[b + 6] = work_group_scan_exclusive_min(x);\n"
    "  out[b + 7] = work_group_broadcast(x, 5);\n"
    "  out[b + 8] = work_group_all(x > -40);\n"
    "  out[b + 9] = work_group_any(x == 77);\n"
    "}\n";

static void wg_reference(const int *in, int n, int group, int *want)
{
    int lo = (n / group) * 0, base;
    (void)lo;
    for (base = 0; base < n; base += group) {
        int sum = 0, mn = in[base], mx = in[base], all = 1, any = 0;
        for (int i = base; i < base + group; i++) {
            sum += in[i];
            mn = in[i] < mn ? in[i] : mn, mx = in[i] > mx ? in[i] : mx;
            all &= in[i] > -40, any |= in[i] == 77;
        }
        int run = 0, runmax = -2147483647 - 1, runmin = 2147483647;
        for (int i = base; i < base + group; i++) {
            int *w = &want[10 * i];
            w[0] = sum, w[1] = mn, w[2] = mx;
            w[4] = run, w[6] = runmin;   /* exclusive: before this element (identity first) */
            run += in[i];
            runmax = in[i] > runmax ? in[i] : runmax;
            runmin = in[i] < runmin ? in[i] : runmin;
            w[3] = run, w[5] = runmax;
            w[7] = in[base + 5], w[8] = all, w[9] = any;
        }
    }
}

static void work_group_functions(void)
{
    enum { N = 192 };
    int in[N];
    unsigned seed = 12345;
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        in[i] = (int)((seed >> 16) % 200) - 50;   /* -50..149 */
    }
    in[100] = 77;   /* work_group_any is true in one group only */
    const size_t groups[] = { 32, 64, 96, 192 };   /* one wave, two, three, six */
    for (size_t run = 0; run < 2 * sizeof groups / sizeof groups[0]; run++) {
        size_t gi = run % 4;
        cl_program p = build(wg_src, opt_levels[run / 4]);
        int out[10 * N], want[10 * N];
        wg_reference(in, N, (int)groups[gi], want);
        cl_mem mo = buffer(sizeof out, NULL), mi = buffer(sizeof in, in);
        cl_int e;
        cl_kernel k = clCreateKernel(p, "k", &e);
        OK(clSetKernelArg(k, 0, sizeof mo, &mo));
        OK(clSetKernelArg(k, 1, sizeof mi, &mi));
        size_t g = N;
        OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &groups[gi], 0, NULL, NULL));
        OK(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        int bad = 0;
        for (int i = 0; i < 10 * N; i++)
            if (out[i] != want[i] && bad++ < 5)
                fprintf(stderr, "%s, group %zu: work-item %d function %d: %d, expected %d\n", opt_levels[run / 4],
                        groups[gi], i / 10, i % 10, out[i], want[i]);
        EXPECT(bad == 0);
        clReleaseKernel(k), clReleaseMemObject(mo), clReleaseMemObject(mi), clReleaseProgram(p);
    }
    /* printf in a kernel with a collective (its build goes through bitcode: rdna3_cc.c) */
    const char *with_printf = "kernel void k(global int *out) {\n"
                              "  int s = work_group_reduce_add(1);\n"
                              "  if (get_global_id(0) == 0) printf(\"sum %d\\n\", s);\n"
                              "  out[get_global_id(0)] = s; }\n";
    for (int o = 0; o < 2; o++) {
        cl_program p = build(with_printf, opt_levels[o]);
        int out[64];
        cl_mem m = buffer(sizeof out, NULL);
        OK(run1(p, "k", m, 64, 64, out, sizeof out));
        EXPECT(out[0] == 64 && out[63] == 64);
        clReleaseMemObject(m), clReleaseProgram(p);
    }
}

/* ---------------- program-scope variables ---------------- */

static const char *globals_src =
    "global int counter = 40;\n"
    "global float table[5] = { 0.5f, 1.5f, 2.5f, 3.5f, 4.5f };\n"
    "typedef struct { int a; short b; long c; } rec;\n"
    "global rec r = { 7, -3, 1234567890123L };\n"
    "global int *global where = &counter;\n"          /* a pointer to a program-scope variable */
    "global uint zeroed[16];\n"                          /* no initializer: zero */
    "kernel void bump(global int *out) {\n"
    "  atomic_fetch_add_explicit((volatile global atomic_int *)&counter, 1, memory_order_relaxed, memory_scope_device);\n"
    "  zeroed[get_global_id(0) % 16] += 0;\n"
    "}\n"
    "kernel void read(global long *out) {\n"
    "  static global int calls = 0;\n"                   /* a function-scope static in the global space */
    "  calls++;\n"
    "  out[0] = counter; out[1] = (long)(table[4] * 2.0f); out[2] = r.a; out[3] = r.b; out[4] = r.c;\n"
    "  out[5] = *where; out[6] = zeroed[3]; out[7] = calls;\n"
    "}\n";

static void program_scope_globals(void)
{
    for (int o = 0; o < 2; o++) {
        cl_program p = build(globals_src, opt_levels[o]);
        cl_program p2 = build(globals_src, opt_levels[o]);   /* its own copy of every variable */
        size_t total = 0;
        OK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, sizeof total, &total, NULL));
        /* counter 4, table 20, r 16, where 8, zeroed 64, calls 4 */
        EXPECT(total == 4 + 20 + 16 + 8 + 64 + 4);
        cl_mem m = buffer(8 * sizeof(cl_long), NULL);
        OK(run1(p, "bump", m, 64, 32, NULL, 0));
        OK(run1(p, "bump", m, 64, 32, NULL, 0));   /* the value persists between launches */
        cl_long out[8];
        OK(run1(p, "read", m, 1, 1, NULL, 0));
        OK(run1(p, "read", m, 1, 1, out, sizeof out));
        const cl_long want[8] = { 40 + 128, 9, 7, -3, 1234567890123LL, 40 + 128, 0, 2 };
        for (int i = 0; i < 8; i++) EXPECT(out[i] == want[i]);
        OK(run1(p2, "read", m, 1, 1, out, sizeof out));
        EXPECT(out[0] == 40 && out[5] == 40 && out[7] == 1);
        cl_bool dtors = CL_TRUE;
        OK(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, sizeof dtors, &dtors, NULL));
        EXPECT(dtors == CL_FALSE);
        clReleaseMemObject(m), clReleaseProgram(p), clReleaseProgram(p2);
    }
}

/* ---------------- atomics with orders and scopes ---------------- */

static const char *atomics_src =
    "kernel void k(global int *out, global atomic_int *cnt, local atomic_int *lc, global atomic_long *big) {\n"
    "  int lid = (int)get_local_id(0);\n"
    "  if (lid == 0) atomic_init(lc, 0);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  atomic_fetch_add_explicit(&cnt[0], 1, memory_order_relaxed, memory_scope_device);\n"
    "  atomic_fetch_add_explicit(&cnt[1], 2, memory_order_acq_rel, memory_scope_all_svm_devices);\n"
    "  atomic_fetch_add(&cnt[2], 3);\n"                                     /* seq_cst, device */
    "  atomic_fetch_max_explicit(&cnt[3], lid, memory_order_seq_cst, memory_scope_work_group);\n"
    "  atomic_fetch_sub_explicit(lc, 1, memory_order_acq_rel, memory_scope_work_group);\n"
    "  atomic_fetch_add_explicit(big, 0x100000001L, memory_order_relaxed, memory_scope_device);\n"
    "  int expected = atomic_load_explicit(&cnt[4], memory_order_acquire, memory_scope_device);\n"
    "  while (!atomic_compare_exchange_weak_explicit(&cnt[4], &expected, expected + 5, memory_order_acq_rel,\n"
    "                                               memory_order_relaxed, memory_scope_device)) {}\n"
    /* message passing in the group: one work-item publishes with release, the others acquire */
    "  local int data; local atomic_int flag;\n"
    "  if (lid == 0) { atomic_store_explicit(&flag, 0, memory_order_relaxed, memory_scope_work_group); }\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (lid == 0) { data = 4242; atomic_store_explicit(&flag, 1, memory_order_release, memory_scope_work_group); }\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);\n"
    "  int seen = atomic_load_explicit(&flag, memory_order_acquire, memory_scope_work_group) ? data : -1;\n"
    "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = seen + atomic_load(lc);\n"
    "  int old = atomic_exchange_explicit(&cnt[5], lid, memory_order_acq_rel, memory_scope_device);\n"
    "  (void)old;\n"
    "}\n";

static void atomics_scopes(void)
{
    enum { N = 256, L = 64 };
    for (int o = 0; o < 2; o++) {
        cl_program p = build(atomics_src, opt_levels[o]);
        int cnt[6] = { 0, 0, 0, -1, 0, -7 };
        cl_long big = 0;
        cl_mem mo = buffer(N * sizeof(int), NULL), mc = buffer(sizeof cnt, cnt), mb = buffer(sizeof big, &big);
        cl_int e;
        cl_kernel k = clCreateKernel(p, "k", &e);
        OK(e);
        OK(clSetKernelArg(k, 0, sizeof mo, &mo));
        OK(clSetKernelArg(k, 1, sizeof mc, &mc));
        OK(clSetKernelArg(k, 2, sizeof(int), NULL));
        OK(clSetKernelArg(k, 3, sizeof mb, &mb));
        size_t g = N, l = L;
        OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL));
        int out[N];
        OK(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        OK(clEnqueueReadBuffer(queue, mc, CL_TRUE, 0, sizeof cnt, cnt, 0, NULL, NULL));
        OK(clEnqueueReadBuffer(queue, mb, CL_TRUE, 0, sizeof big, &big, 0, NULL, NULL));
        EXPECT(cnt[0] == N && cnt[1] == 2 * N && cnt[2] == 3 * N && cnt[3] == L - 1 && cnt[4] == 5 * N);
        EXPECT(cnt[5] >= 0 && cnt[5] < L);
        EXPECT(big == (cl_long)N * 0x100000001LL);
        int bad = 0;
        for (int i = 0; i < N; i++) bad += out[i] != 4242 - L;
        EXPECT(bad == 0);
        clReleaseKernel(k), clReleaseMemObject(mo), clReleaseMemObject(mc), clReleaseMemObject(mb);
        clReleaseProgram(p);
    }
}

/* ---------------- non-uniform work-groups ---------------- */

static const char *sizes_src =
    "kernel void k(global int *out) {\n"
    "  size_t g = get_global_id(0);\n"
    "  out[3 * g] = (int)get_local_size(0);\n"
    "#if __OPENCL_C_VERSION__ >= 200\n"
    "  out[3 * g + 1] = (int)get_enqueued_local_size(0);\n"
    "#endif\n"
    "  out[3 * g + 2] = (int)get_num_groups(0);\n"
    "}\n";

static void nonuniform_work_groups(void)
{
    enum { N = 100, L = 32 };
    cl_program p = build(sizes_src, "-cl-std=CL3.0");
    int out[3 * N];
    cl_mem m = buffer(sizeof out, NULL);
    OK(run1(p, "k", m, N, L, out, sizeof out));
    for (int g = 0; g < N; g++)
        EXPECT(out[3 * g] == (g < 96 ? L : N % L) && out[3 * g + 1] == L && out[3 * g + 2] == 4);
    clReleaseProgram(p);
    /* OpenCL C 1.2, or -cl-uniform-work-group-size: the global size must be a multiple */
    const char *uniform[] = { "", "-cl-std=CL3.0 -cl-uniform-work-group-size" };
    for (int i = 0; i < 2; i++) {
        p = build(sizes_src, uniform[i]);
        EXPECT_ERR(run1(p, "k", m, N, L, NULL, 0), CL_INVALID_WORK_GROUP_SIZE);
        clReleaseProgram(p);
    }
    clReleaseMemObject(m);
}

/* ---------------- sub-groups (cl_khr_subgroups: a sub-group is a wave) ---------------- */

static const char *subgroup_src =
    "kernel void k(global int *out, global const int *in) {\n"
    "  size_t g = get_global_id(0), b = 9 * g; int x = in[g];\n"
    "  out[b + 0] = (int)get_sub_group_size();\n"
    "  out[b + 1] = (int)get_max_sub_group_size();\n"
    "  out[b + 2] = (int)get_num_sub_groups();\n"
    "  out[b + 3] = (int)get_sub_group_id();\n"
    "  out[b + 4] = (int)get_sub_group_local_id();\n"
    "  out[b + 5] = sub_group_reduce_add(x);\n"
    "  out[b + 6] = sub_group_scan_inclusive_max(x);\n"
    "  out[b + 7] = sub_group_broadcast(x, 3);\n"
    "  sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[b + 8] = sub_group_any(x == 7) + 2 * sub_group_all(x >= 0);\n"
    "}\n";

static void subgroups(void)
{
    enum { N = 144 };
    int in[N];
    for (int i = 0; i < N; i++) in[i] = (i * 37) % 101 - (i == 50 ? 200 : 0);
    in[70] = 7;
    cl_program p0 = build(subgroup_src, opt_levels[0]), p = build(subgroup_src, opt_levels[1]);
    cl_int e;
    cl_kernel k0 = clCreateKernel(p0, "k", &e), k = clCreateKernel(p, "k", &e);
    OK(e);
    const size_t groups[] = { 48, 72, 144 };   /* a wave and a partial one, 2 + 8 lanes, 4 + 16 */
    for (size_t run = 0; run < 6; run++) {
        size_t gi = run % 3;
        cl_kernel kk = run < 3 ? k0 : k;
        size_t L = groups[gi], sg_max = 0, count = 0;
        OK(clGetKernelSubGroupInfo(kk, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof L, &L, sizeof sg_max,
                                   &sg_max, NULL));
        OK(clGetKernelSubGroupInfo(kk, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof L, &L, sizeof count, &count,
                                   NULL));
        EXPECT(sg_max == 32 && count == (L + 31) / 32);
        int out[9 * N];
        cl_mem mo = buffer(sizeof out, NULL), mi = buffer(sizeof in, in);
        OK(clSetKernelArg(kk, 0, sizeof mo, &mo));
        OK(clSetKernelArg(kk, 1, sizeof mi, &mi));
        size_t g = N;
        OK(clEnqueueNDRangeKernel(queue, kk, 1, NULL, &g, &L, 0, NULL, NULL));
        OK(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        int bad = 0;
        for (int i = 0; i < N; i++) {
            int lid = i % (int)L, sg = lid / 32, first = i - lid + 32 * sg;
            int size = (int)L - 32 * sg < 32 ? (int)L - 32 * sg : 32;
            int sum = 0, run = -2147483647 - 1, any = 0, all = 1;
            for (int j = first; j < first + size; j++) {
                sum += in[j];
                if (j <= i) run = in[j] > run ? in[j] : run;
                any |= in[j] == 7, all &= in[j] >= 0;
            }
            int want[9] = { size, 32, (int)(L + 31) / 32, sg, lid % 32, sum, run, in[first + 3], any + 2 * all };
            for (int w = 0; w < 9; w++)
                if (out[9 * i + w] != want[w] && bad++ < 5)
                    fprintf(stderr, "%s, group %zu: work-item %d word %d: %d, expected %d\n", opt_levels[run / 3], L, i,
                            w, out[9 * i + w], want[w]);
        }
        EXPECT(bad == 0);
        clReleaseMemObject(mo), clReleaseMemObject(mi);
    }
    size_t want_count = 3, local[3] = { 9, 9, 9 }, n = 0;
    OK(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof want_count, &want_count,
                               sizeof local, local, &n));
    EXPECT(local[0] == 96 && local[1] == 1 && local[2] == 1 && n == sizeof local);
    want_count = 1000;   /* more waves than a work-group holds: zeros */
    OK(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof want_count, &want_count,
                               sizeof(size_t), local, NULL));
    EXPECT(local[0] == 0);
    size_t maxn = 0, wg = 0;
    OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    OK(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof maxn, &maxn, NULL));
    EXPECT(maxn == (wg + 31) / 32);
    OK(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, NULL, sizeof maxn, &maxn, NULL));
    EXPECT(maxn == 0);
    EXPECT_ERR(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 0, NULL, sizeof maxn, &maxn,
                                       NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clGetKernelSubGroupInfo(NULL, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof maxn, &maxn, NULL),
               CL_INVALID_KERNEL);
    clReleaseKernel(k), clReleaseProgram(p), clReleaseKernel(k0), clReleaseProgram(p0);
}

/* ---------------- coarse-grained SVM ---------------- */

typedef struct node {
    struct node *next;   /* an SVM address: the same for the host and the kernel */
    int value;
    int pad;
} node;

static const char *svm_src =
    "typedef struct node { global struct node *next; int value; int pad; } node;\n"
    "kernel void walk(global int *out, global node *head) {\n"
    "  int sum = 0, n = 0;\n"
    "  for (global node *p = head; p; p = p->next) { sum += p->value; p->value *= 2; n++; }\n"
    "  out[0] = sum; out[1] = n;\n"
    "}\n"
    "kernel void scale(global int *a, int by) { a[get_global_id(0)] *= by; }\n";

static void svm_free_cb(cl_command_queue q, cl_uint n, void *ptrs[], void *data)
{
    (void)q;
    int *calls = data;
    for (cl_uint i = 0; i < n; i++) clSVMFree(ctx, ptrs[i]);
    *calls += (int)n;
}

static void svm_coarse(void)
{
    enum { NODES = 10, N = 1024 };
    cl_program p = build(svm_src, "-cl-std=CL3.0");
    /* a linked list built by the host in one SVM buffer, walked and changed by the kernel */
    node *list = clSVMAlloc(ctx, CL_MEM_READ_WRITE, NODES * sizeof(node), 0);
    int *out = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 2 * sizeof(int), 16);
    EXPECT(list && out);
    if (!list || !out) return;
    OK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, list, NODES * sizeof(node), 0, NULL, NULL));
    for (int i = 0; i < NODES; i++) list[i] = (node){ i + 1 < NODES ? &list[(i * 3 + 1) % NODES] : NULL, i + 1, 0 };
    /* a chain through every node: 0 -> 1 -> 4 -> 3 -> 0 would loop, so link in order instead */
    for (int i = 0; i < NODES; i++) list[i].next = i + 1 < NODES ? &list[i + 1] : NULL;
    OK(clEnqueueSVMUnmap(queue, list, 0, NULL, NULL));
    cl_int e;
    cl_kernel k = clCreateKernel(p, "walk", &e);
    OK(e);
    OK(clSetKernelArgSVMPointer(k, 0, out));
    OK(clSetKernelArgSVMPointer(k, 1, list));
    void *used[2] = { list, out };
    OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof used, used));
    cl_bool fgs = CL_TRUE;
    EXPECT_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof fgs, &fgs), CL_INVALID_OPERATION);
    size_t one = 1;
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, &one, 0, NULL, NULL));
    OK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, out, 2 * sizeof(int), 0, NULL, NULL));
    OK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, list, NODES * sizeof(node), 0, NULL, NULL));
    EXPECT(out[0] == NODES * (NODES + 1) / 2 && out[1] == NODES);
    for (int i = 0; i < NODES; i++) EXPECT(list[i].value == 2 * (i + 1));
    OK(clEnqueueSVMUnmap(queue, out, 0, NULL, NULL));
    OK(clEnqueueSVMUnmap(queue, list, 0, NULL, NULL));
    /* a pointer inside a buffer; memcpy, fill, a buffer made on SVM memory */
    int *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N * sizeof(int), 0);
    int *host = malloc(N * sizeof(int));
    for (int i = 0; i < N; i++) host[i] = i;
    OK(clEnqueueSVMMemcpy(queue, CL_TRUE, a, host, N * sizeof(int), 0, NULL, NULL));
    cl_kernel ks = clCreateKernel(p, "scale", &e);
    int by = 3;
    OK(clSetKernelArgSVMPointer(ks, 0, a + N / 2));
    OK(clSetKernelArg(ks, 1, sizeof by, &by));
    size_t half = N / 2;
    OK(clEnqueueNDRangeKernel(queue, ks, 1, NULL, &half, NULL, 0, NULL, NULL));
    int pattern = -5;
    OK(clEnqueueSVMMemFill(queue, a, &pattern, sizeof pattern, 4 * sizeof(int), 0, NULL, NULL));
    OK(clEnqueueSVMMemcpy(queue, CL_TRUE, host, a, N * sizeof(int), 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += host[i] != (i < 4 ? -5 : i < N / 2 ? i : 3 * i);
    EXPECT(bad == 0);
    cl_mem wrap = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N * sizeof(int), a, &e);
    OK(e);
    cl_bool uses = CL_FALSE;
    OK(clGetMemObjectInfo(wrap, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
    EXPECT(uses == CL_TRUE);
    OK(clSetKernelArg(ks, 0, sizeof wrap, &wrap));
    by = -1;
    OK(clSetKernelArg(ks, 1, sizeof by, &by));
    OK(clEnqueueNDRangeKernel(queue, ks, 1, NULL, &half, NULL, 0, NULL, NULL));
    OK(clFinish(queue));
    EXPECT(a[0] == 5 && a[10] == -10 && a[N - 1] == 3 * (N - 1));   /* the SVM bytes themselves */
    clReleaseMemObject(wrap);
    /* errors */
    EXPECT(clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0) == NULL);
    EXPECT(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 3) == NULL);
    EXPECT(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 0, 0) == NULL);
    EXPECT(clSVMAlloc(NULL, CL_MEM_READ_WRITE, 64, 0) == NULL);
    EXPECT_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, a, a + 4, 16 * sizeof(int), 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    EXPECT_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, NULL, a, 4, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueSVMMemFill(queue, (char *)a + 2, &pattern, 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, a, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clSetKernelArgSVMPointer(ks, 1, a), CL_INVALID_ARG_VALUE);   /* an int argument */
    EXPECT_ERR(clSetKernelArgSVMPointer(ks, 5, a), CL_INVALID_ARG_INDEX);
    /* freeing through the queue: the callback gets the pointers, after the commands before it */
    int calls = 0;
    void *three[3] = { list, out, a };
    cl_event ev;
    OK(clEnqueueSVMFree(queue, 3, three, svm_free_cb, &calls, 0, NULL, &ev));
    OK(clWaitForEvents(1, &ev));
    cl_command_type type = 0;
    OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_COMMAND_SVM_FREE && calls == 3);
    clReleaseEvent(ev);
    void *b = clSVMAlloc(ctx, CL_MEM_READ_ONLY, 100, 128);
    EXPECT(b && (uintptr_t)b % 128 == 0);
    OK(clEnqueueSVMFree(queue, 1, &b, NULL, NULL, 0, NULL, NULL));
    const void *mig = host;
    OK(clEnqueueSVMMigrateMem(queue, 1, &mig, NULL, 0, 0, NULL, NULL));
    OK(clFinish(queue));
    free(host);
    clReleaseKernel(k), clReleaseKernel(ks), clReleaseProgram(p);
}

/* ---------------- the 2.x and 3.0 entry points ---------------- */

static void release_order(cl_context c, void *data)
{
    (void)c;
    int *log = data;
    log[log[0]++ + 1] = 10;
}

static void release_order2(cl_context c, void *data)
{
    (void)c;
    int *log = data;
    log[log[0]++ + 1] = 20;
}

static void program_released(cl_program p, void *data)
{
    (void)p;
    (*(int *)data)++;
}

static void entry_points(void)
{
    cl_int e;
    /* queues with properties */
    cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, props, &e);
    OK(e);
    cl_queue_properties back[8];
    size_t n = 0;
    OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof back, back, &n));
    EXPECT(n == sizeof props && back[0] == CL_QUEUE_PROPERTIES && back[1] == CL_QUEUE_PROFILING_ENABLE && back[2] == 0);
    cl_uint qsize;
    EXPECT_ERR(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof qsize, &qsize, NULL), CL_INVALID_COMMAND_QUEUE);
    cl_command_queue dq = (cl_command_queue)1;
    OK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof dq, &dq, NULL));
    EXPECT(dq == NULL);
    OK(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &n));
    EXPECT(n == 0);
    cl_queue_properties on_dev[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, 0 };
    EXPECT(clCreateCommandQueueWithProperties(ctx, dev, on_dev, &e) == NULL);
    EXPECT_ERR(e, CL_INVALID_QUEUE_PROPERTIES);
    EXPECT_ERR(clSetDefaultDeviceCommandQueue(ctx, dev, q), CL_INVALID_OPERATION);
    clReleaseCommandQueue(q);
    /* timers: the device's and the host's clocks, nanoseconds, moving forward */
    cl_ulong d0, h0, d1, h1, h2;
    OK(clGetDeviceAndHostTimer(dev, &d0, &h0));
    OK(clGetHostTimer(dev, &h1));
    OK(clGetDeviceAndHostTimer(dev, &d1, &h2));
    EXPECT(h1 >= h0 && h2 >= h1 && d1 >= d0 && d0 > 0);
    EXPECT_ERR(clGetHostTimer(dev, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clGetHostTimer(NULL, &h1), CL_INVALID_DEVICE);
    /* buffers with (no) properties */
    cl_mem_properties none[] = { 0 };
    cl_mem m = clCreateBufferWithProperties(ctx, none, CL_MEM_READ_WRITE, 64, NULL, &e);
    OK(e);
    /* OpenCL 3.0 §5.5.6: the list given, as given ({0} here); nothing for one made without a list */
    OK(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &n));
    EXPECT(n == sizeof(cl_mem_properties));
    cl_mem_properties got_props[2] = { 7, 7 };
    OK(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, sizeof got_props, got_props, NULL));
    EXPECT(got_props[0] == 0 && got_props[1] == 7);
    cl_mem plain = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &e);
    OK(e);
    OK(clGetMemObjectInfo(plain, CL_MEM_PROPERTIES, 0, NULL, &n));
    EXPECT(n == 0);
    OK(clReleaseMemObject(plain));
    cl_mem_properties bogus[] = { 0x7777, 1, 0 };
    EXPECT(clCreateBufferWithProperties(ctx, bogus, CL_MEM_READ_WRITE, 64, NULL, &e) == NULL);
    EXPECT_ERR(e, CL_INVALID_PROPERTY);
    /* images: the 3.0 forms with properties (none are defined for images and samplers but the
     * sampler's own), and an unknown property refused */
    cl_bool images = CL_FALSE;
    OK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    EXPECT(images == CL_TRUE);
    cl_sampler_properties sp[] = { CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0 };
    cl_sampler smp = clCreateSamplerWithProperties(ctx, sp, &e);
    OK(e);
    cl_bool norm = CL_TRUE;
    OK(clGetSamplerInfo(smp, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
    EXPECT(norm == CL_FALSE);
    /* CL_SAMPLER_PROPERTIES: the list as given (§5.7.2), nothing for a NULL list */
    cl_sampler_properties got_sp[8] = { 0 };
    OK(clGetSamplerInfo(smp, CL_SAMPLER_PROPERTIES, 0, NULL, &n));
    EXPECT(n == sizeof sp);
    OK(clGetSamplerInfo(smp, CL_SAMPLER_PROPERTIES, sizeof got_sp, got_sp, NULL));
    EXPECT(!memcmp(got_sp, sp, sizeof sp));
    OK(clReleaseSampler(smp));
    smp = clCreateSamplerWithProperties(ctx, NULL, &e);   /* a NULL list */
    OK(e);
    OK(clGetSamplerInfo(smp, CL_SAMPLER_PROPERTIES, 0, NULL, &n));
    EXPECT(n == 0);
    OK(clReleaseSampler(smp));
    cl_image_format fmt = { CL_RGBA, CL_UNORM_INT8 };
    cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4 };
    cl_mem img = clCreateImageWithProperties(ctx, NULL, CL_MEM_READ_ONLY, &fmt, &desc, NULL, &e);
    OK(e);
    OK(clGetMemObjectInfo(img, CL_MEM_PROPERTIES, 0, NULL, &n));
    EXPECT(n == 0);   /* a NULL list */
    /* the optional image features are consistent (the CTS's consistency_* tests): read-write
     * image arguments (ROCm's 64) with read-write formats; 2D images from buffers (ROCm's
     * alignments, 256 pixels, cl_khr_image2d_from_buffer, and such an image is created) */
    cl_uint rw_args = 9, nfmt = 9, nro = 9, align = 9;
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, sizeof rw_args, &rw_args, NULL));
    OK(clGetSupportedImageFormats(ctx, CL_MEM_KERNEL_READ_AND_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &nfmt));
    OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &nro));
    /* ROCm's lists: 81 formats, the two CL_DEPTH ones for 2D images, CL_sRGBA for reading only */
    EXPECT(rw_args == 64 && nfmt == 83 && nro == 84);
    OK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof align, &align, NULL));
    EXPECT(align == 256);
    OK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, sizeof align, &align, NULL));
    EXPECT(align == 256);
    char ext[1024] = "";
    OK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    EXPECT(strstr(ext, "cl_khr_image2d_from_buffer") != NULL);
    cl_mem backing = clCreateBuffer(ctx, CL_MEM_READ_ONLY, 4096, NULL, &e);
    OK(e);
    cl_image_desc from_buffer = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4,
                                  .image_row_pitch = 1024, .mem_object = backing };   /* 256 RGBA8 pixels */
    cl_mem view = clCreateImage(ctx, CL_MEM_READ_ONLY, &fmt, &from_buffer, NULL, &e);
    OK(e);
    OK(clReleaseMemObject(view));
    OK(clReleaseMemObject(backing));
    size_t w = 0;
    OK(clGetImageInfo(img, CL_IMAGE_WIDTH, sizeof w, &w, NULL));
    EXPECT(w == 4);
    OK(clReleaseMemObject(img));
    EXPECT(clCreateImageWithProperties(ctx, bogus, CL_MEM_READ_ONLY, &fmt, &desc, NULL, &e) == NULL);
    EXPECT_ERR(e, CL_INVALID_PROPERTY);
    EXPECT(clCreatePipe(ctx, CL_MEM_READ_WRITE, 4, 16, NULL, &e) == NULL);
    EXPECT_ERR(e, CL_INVALID_OPERATION);
    const char il[] = "\x03\x02\x23\x07";
    EXPECT(clCreateProgramWithIL(ctx, il, 4, &e) == NULL);
    EXPECT_ERR(e, CL_INVALID_OPERATION);
    /* clone a kernel: same arguments, then independent */
    cl_program p = build("kernel void f(global int *o, int v) { o[get_global_id(0)] = v; }\n", "-cl-std=CL3.0");
    cl_kernel k = clCreateKernel(p, "f", &e);
    int v = 11;
    OK(clSetKernelArg(k, 0, sizeof m, &m));
    OK(clSetKernelArg(k, 1, sizeof v, &v));
    cl_kernel c = clCloneKernel(k, &e);
    OK(e);
    v = 22;
    OK(clSetKernelArg(k, 1, sizeof v, &v));
    size_t g = 16;
    int out[16];
    OK(clEnqueueNDRangeKernel(queue, c, 1, NULL, &g, NULL, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    EXPECT(out[0] == 11 && out[15] == 11);
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    EXPECT(out[0] == 22);
    char name[16];
    OK(clGetKernelInfo(c, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
    EXPECT(!strcmp(name, "f"));
    EXPECT(clCloneKernel(NULL, &e) == NULL);
    EXPECT_ERR(e, CL_INVALID_KERNEL);

    /* release callbacks: a program has none to run (OpenCL C has no destructors of program-scope
     * variables, so 3.0 says CL_INVALID_OPERATION); a context's run most recent first */
    int released = 0;
    EXPECT_ERR(clSetProgramReleaseCallback(p, program_released, &released), CL_INVALID_OPERATION);
    EXPECT_ERR(clSetProgramReleaseCallback(p, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clSetProgramReleaseCallback(NULL, program_released, NULL), CL_INVALID_PROGRAM);
    clReleaseKernel(k), clReleaseKernel(c), clReleaseMemObject(m);
    clReleaseProgram(p);
    EXPECT(released == 0);
    cl_context c2 = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    int log[4] = { 0 };
    OK(clSetContextDestructorCallback(c2, release_order, log));
    OK(clSetContextDestructorCallback(c2, release_order2, log));
    EXPECT_ERR(clSetContextDestructorCallback(c2, NULL, NULL), CL_INVALID_VALUE);
    clReleaseContext(c2);
    EXPECT(log[0] == 2 && log[1] == 20 && log[2] == 10);
}

typedef struct test_case {
    const char *name;
    void (*fn)(void);
} test_case;

#define C(fn) { #fn, fn }
static const test_case cases[] = {
    C(versions), C(queries), C(feature_macros), C(generic_address_space), C(work_group_functions),
    C(program_scope_globals), C(atomics_scopes), C(nonuniform_work_groups), C(subgroups), C(svm_coarse), C(entry_points),
};

int main(int argc, char **argv)
{
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
