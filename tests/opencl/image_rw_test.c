/* OpenCL 3.0's optional image features umbra offers as ROCm does on gfx1100 (issue 20):
 *
 * - read-write image arguments (__opencl_c_read_write_images): the queries, kernels that read a
 *   texel, change it and write it back in place, then read it again after
 *   atomic_work_item_fence(CLK_IMAGE_MEM_FENCE) (float, int, uint and unorm formats; 1D, 1D
 *   buffer, 1D array, 2D, 2D array, 3D; -cl-std=CL3.0 and CL2.0, -O0 and -O3) against a C
 *   reference, the argument's access qualifier and clSetKernelArg's rules;
 * - 2D images made from buffers (cl_khr_image2d_from_buffer): every creation error, and the image
 *   aliasing its buffer (host commands and kernels on either side seen through the other,
 *   CL_MEM_USE_HOST_PTR and sub-buffers, the buffer kept alive by the image).
 *
 * The read-write cases also run on PoCL (opencl.pocl.image_rw_*), which offers read-write images
 * but not cl_khr_image2d_from_buffer; a case a platform does not offer exits 77. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"

static cl_device_id dev;
static cl_context ctx;
static cl_command_queue q;
static int skipped;

#define EXPECT_OBJ_ERR(expr, code)                      \
    do {                                                \
        cl_int e_ = 12345;                              \
        void *o_ = (void *)(expr);                      \
        EXPECT_ERR(e_, code);                           \
        EXPECT((o_ != NULL) == ((code) == CL_SUCCESS)); \
        if (o_) clReleaseMemObject((cl_mem)o_);         \
    } while (0)
#define ERR (&e_)

static void setup(void)
{
    cl_platform_id plat;
    cl_int e;
    if (clGetPlatformIDs(1, &plat, NULL) || clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL)) {
        fprintf(stderr, "no OpenCL platform (is OCL_ICD_VENDORS set?)\n");
        exit(1);
    }
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    if (!e) q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &e);
    if (e) {
        fprintf(stderr, "context/queue: %d\n", e);
        exit(1);
    }
}

static bool has_extension(const char *name)
{
    char ext[4096] = "";
    OK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    size_t n = strlen(name);
    for (const char *s = ext; (s = strstr(s, name)); s += n)
        if ((s == ext || s[-1] == ' ') && (!s[n] || s[n] == ' ')) return true;
    return false;
}

static cl_uint rw_args(void)
{
    cl_uint n = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, sizeof n, &n, NULL));
    return n;
}

static bool is_umbra(void)
{
    char s[256] = "";
    OK(clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof s, s, NULL));
    return strstr(s, "umbra") != NULL;
}

static cl_program build(const char *src, const char *options)
{
    cl_int e;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    if (!e) e = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    if (e) {
        char log[16384] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build %s: %d\n%s\n", options, e, log);
        failures++;
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

/* ---------------- read-write images: the queries ---------------- */

/* ROCm's limit, the formats (every format, OpenCL 3.0's minimum list for reading and writing
 * among them) and the OpenCL C feature. */
static void rw_queries(void)
{
    if (!rw_args()) {
        skipped++;
        return;
    }
    if (is_umbra()) EXPECT(rw_args() == 64);   /* ROCr: HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES */
    static const cl_mem_object_type types[] = {
        CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
        CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D,
    };
    static const cl_channel_type minimum[] = {
        CL_UNORM_INT8, CL_SIGNED_INT8, CL_SIGNED_INT16, CL_SIGNED_INT32, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
        CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT,
    };
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
        cl_image_format rw[256], all[256];
        cl_uint nrw = 0, nall = 0;
        OK(clGetSupportedImageFormats(ctx, CL_MEM_KERNEL_READ_AND_WRITE, types[t], 256, rw, &nrw));
        OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, types[t], 256, all, &nall));
        cl_uint want = types[t] == CL_MEM_OBJECT_IMAGE2D || types[t] == CL_MEM_OBJECT_IMAGE2D_ARRAY ? 83 : 81;
        if (is_umbra()) EXPECT(nrw == want && nall == want && !memcmp(rw, all, nrw * sizeof *rw));   /* as ROCm */
        for (size_t m = 0; m < sizeof minimum / sizeof *minimum; m++)
            for (int o = 0; o < 2; o++) {
                cl_channel_order order = o ? CL_RGBA : CL_R;
                bool found = false;
                for (cl_uint i = 0; i < nrw && i < 256; i++)
                    found |= rw[i].image_channel_order == order && rw[i].image_channel_data_type == minimum[m];
                if (!found)
                    fprintf(stderr, "type %#x: no read-write %#x/%#x\n", types[t], order, minimum[m]), failures++;
            }
    }
    cl_name_version nv[64];
    size_t size = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, sizeof nv, nv, &size));
    bool listed = false;
    for (size_t i = 0; i < size / sizeof *nv; i++) listed |= !strcmp(nv[i].name, "__opencl_c_read_write_images");
    EXPECT(listed);
}

/* ---------------- read-write images: kernels ---------------- */

/* Each kernel reads its texel, writes OP of it back in place, fences the image for the work-item
 * and reads the texel again into `after`. */
static const char *rw_src =
    "#define GID (get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2)))\n"
    "#define RW(name, T, C, COORD, R, W, V, OP)                                                    \\\n"
    "  kernel void name(read_write T img, global V *after) {                                     \\\n"
    "    C c = COORD;                                                                             \\\n"
    "    V v = R(img, c);                                                                         \\\n"
    "    W(img, c, OP);                                                                           \\\n"
    "    atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item); \\\n"
    "    after[GID] = R(img, c);                                                                  \\\n"
    "  }\n"
    "#define C1 (int)get_global_id(0)\n"
    "#define C2 (int2)((int)get_global_id(0), (int)get_global_id(1))\n"
    "#define C4 (int4)((int)get_global_id(0), (int)get_global_id(1), (int)get_global_id(2), 0)\n"
    "#define OPF (v * 2.0f + (float4)(1.0f, 2.0f, 3.0f, 4.0f))\n"
    "#define OPI (v * 3 - 7)\n"
    "#define OPU (v ^ (uint4)(0x5a))\n"
    "#define OPN ((float4)(1.0f) - v)\n"
    "#define ALL(T, s, C, COORD)                                   \\\n"
    "  RW(rw_##s##_f, T, C, COORD, read_imagef, write_imagef, float4, OPF) \\\n"
    "  RW(rw_##s##_i, T, C, COORD, read_imagei, write_imagei, int4, OPI)   \\\n"
    "  RW(rw_##s##_u, T, C, COORD, read_imageui, write_imageui, uint4, OPU) \\\n"
    "  RW(rw_##s##_n, T, C, COORD, read_imagef, write_imagef, float4, OPN)\n"
    "ALL(image1d_t, 1d, int, C1)\n"
    "ALL(image1d_buffer_t, 1db, int, C1)\n"
    "ALL(image1d_array_t, 1da, int2, C2)\n"
    "ALL(image2d_t, 2d, int2, C2)\n"
    "ALL(image2d_array_t, 2da, int4, C4)\n"
    "ALL(image3d_t, 3d, int4, C4)\n";

enum { W = 7, H = 3, D = 2 };   /* odd width; 1D arrays: H layers; 2D arrays and 3D: D slices */

typedef struct rw_type {
    const char *suffix;
    cl_mem_object_type type;
    size_t global[3];
} rw_type;

static const rw_type rw_types[] = {
    { "1d", CL_MEM_OBJECT_IMAGE1D, { W, 1, 1 } },
    { "1db", CL_MEM_OBJECT_IMAGE1D_BUFFER, { W, 1, 1 } },
    { "1da", CL_MEM_OBJECT_IMAGE1D_ARRAY, { W, H, 1 } },
    { "2d", CL_MEM_OBJECT_IMAGE2D, { W, H, 1 } },
    { "2da", CL_MEM_OBJECT_IMAGE2D_ARRAY, { W, H, D } },
    { "3d", CL_MEM_OBJECT_IMAGE3D, { W, H, D } },
};

/* The formats: RGBA float (f), RGBA int16 (i), R uint8 (u), RGBA unorm8 (n). */
typedef struct rw_format {
    char kind;
    cl_image_format format;
    size_t channels, bytes;   /* stored channels, bytes per channel */
} rw_format;

static const rw_format rw_formats[] = {
    { 'f', { CL_RGBA, CL_FLOAT }, 4, 4 },
    { 'i', { CL_RGBA, CL_SIGNED_INT16 }, 4, 2 },
    { 'u', { CL_R, CL_UNSIGNED_INT8 }, 1, 1 },
    { 'n', { CL_RGBA, CL_UNORM_INT8 }, 4, 1 },
};

/* Initial channel k of the image, as stored. */
static double initial(char kind, size_t k)
{
    switch (kind) {
    case 'f': return (double)k * 0.25 - 3.0;
    case 'i': return (double)(k % 200) - 100.0;
    case 'u': return (double)((k * 37 + 11) & 0xff);
    default: return (double)((k * 53 + 5) & 0xff);
    }
}

/* The C reference: channel c of the texel after the kernel wrote OP of it, as stored. */
static double updated(char kind, double v, int c)
{
    switch (kind) {
    case 'f': return v * 2.0 + (c + 1);
    case 'i': return v * 3.0 - 7.0;   /* within int16 for |v| <= 100 */
    case 'u': return (double)((unsigned)v ^ 0x5au);
    default: return 255.0 - v;   /* 1 - k/255 = (255 - k)/255 exactly: the stored byte is 255 - k */
    }
}

static void store(const rw_format *f, uint8_t *p, double v)
{
    switch (f->kind) {
    case 'f': { float x = (float)v; memcpy(p, &x, 4); break; }
    case 'i': { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
    default: *p = (uint8_t)v; break;
    }
}

static double load(const rw_format *f, const uint8_t *p)
{
    switch (f->kind) {
    case 'f': { float x; memcpy(&x, p, 4); return x; }
    case 'i': { int16_t x; memcpy(&x, p, 2); return x; }
    default: return *p;
    }
}

/* What read_image{f,i,ui} returns for channel c (0..3) of a texel whose stored channels are s.
 * CL_R reads (r, 0, 0, 1) (OpenCL 3.0 §5.3.1.1's channel mapping); PoCL 3.1 reads alpha 0 from an
 * integer CL_R image, which is left unchecked there. */
static bool pocl_alpha;

static double as_read(const rw_format *f, const double *s, int c)
{
    if (f->kind == 'u') return c == 0 ? s[0] : c == 3 ? 1 : 0;   /* CL_R: (r, 0, 0, 1) */
    return f->kind == 'n' ? s[c] / 255.0 : s[c];
}

static cl_mem rw_image(const rw_type *t, const rw_format *f, const void *host, size_t bytes, cl_mem *buffer)
{
    cl_image_desc d = { .image_type = t->type, .image_width = W };
    if (t->type == CL_MEM_OBJECT_IMAGE1D_ARRAY) d.image_array_size = H;
    if (t->type == CL_MEM_OBJECT_IMAGE2D || t->type == CL_MEM_OBJECT_IMAGE2D_ARRAY || t->type == CL_MEM_OBJECT_IMAGE3D)
        d.image_height = H;
    if (t->type == CL_MEM_OBJECT_IMAGE2D_ARRAY) d.image_array_size = D;
    if (t->type == CL_MEM_OBJECT_IMAGE3D) d.image_depth = D;
    cl_int e;
    *buffer = NULL;
    if (t->type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
        *buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)host, &e);
        OK(e);
        d.buffer = *buffer;
        cl_mem m = clCreateImage(ctx, CL_MEM_READ_WRITE, &f->format, &d, NULL, &e);
        OK(e);
        return m;
    }
    cl_mem m = clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &f->format, &d, (void *)host, &e);
    OK(e);
    return m;
}

/* One kernel: the image afterwards and what the kernel read back, against the reference. */
static void rw_case(cl_program p, const char *opt, const rw_type *t, const rw_format *f)
{
    char name[32];
    snprintf(name, sizeof name, "rw_%s_%c", t->suffix, f->kind);
    size_t texels = t->global[0] * t->global[1] * t->global[2], px = f->channels * f->bytes;
    uint8_t *host = malloc(texels * px), *got = malloc(texels * px);
    int32_t *raw = malloc(texels * 16);
    for (size_t k = 0; k < texels * f->channels; k++) store(f, host + k * f->bytes, initial(f->kind, k));
    cl_mem buffer, img = rw_image(t, f, host, texels * px, &buffer);
    cl_int e;
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, texels * 16, NULL, &e);
    cl_kernel k = clCreateKernel(p, name, &e);
    OK(e);
    OK(clSetKernelArg(k, 0, sizeof img, &img));
    OK(clSetKernelArg(k, 1, sizeof out, &out));
    OK(clEnqueueNDRangeKernel(q, k, 3, NULL, t->global, NULL, 0, NULL, NULL));
    size_t region[3] = { t->global[0], t->global[1], t->global[2] };
    OK(clEnqueueReadImage(q, img, CL_TRUE, (size_t[3]){ 0, 0, 0 }, region, 0, 0, got, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, texels * 16, raw, 0, NULL, NULL));
    int bad = 0;
    for (size_t i = 0; i < texels; i++) {
        double want[4] = { 0, 0, 0, 0 };
        for (size_t c = 0; c < f->channels; c++) {
            want[c] = updated(f->kind, initial(f->kind, i * f->channels + c), (int)c);
            double have = load(f, got + i * px + c * f->bytes);
            if (have != want[c] && bad++ < 4)
                fprintf(stderr, "%s %s texel %zu.%zu: stored %g, expected %g\n", opt, name, i, c, have, want[c]);
        }
        for (int c = 0; c < 4; c++) {
            double w = as_read(f, want, c), have;
            if (f->kind == 'f' || f->kind == 'n') {
                float x;
                memcpy(&x, &raw[i * 4 + c], 4);
                have = x;
            } else {
                have = f->kind == 'u' ? (double)(uint32_t)raw[i * 4 + c] : raw[i * 4 + c];
            }
            if (pocl_alpha && f->kind == 'u' && c == 3) continue;
            if (fabs(have - w) > (f->kind == 'n' ? 1e-6 : 0) && bad++ < 4)
                fprintf(stderr, "%s %s texel %zu.%d read after the fence %g, expected %g\n", opt, name, i, c, have, w);
        }
    }
    failures += bad;
    clReleaseKernel(k), clReleaseMemObject(img), clReleaseMemObject(out);
    if (buffer) clReleaseMemObject(buffer);
    free(host), free(got), free(raw);
}

/* Every type with every format, for OpenCL C 3.0 (the feature) and 2.0 (read_write is core), at
 * -O0 and -O3. */
static void rw_kernels(void)
{
    if (!rw_args()) {
        skipped++;
        return;
    }
    const char *opts[] = { "-cl-std=CL3.0 -O0", "-cl-std=CL3.0 -O3", "-cl-std=CL2.0 -O0", "-cl-std=CL2.0 -O3" };
    /* PoCL 3.1 refuses -O<n> (CL_INVALID_BUILD_OPTIONS): the specification's spelling there */
    static const char *portable[] = { "-cl-std=CL3.0 -cl-opt-disable", "-cl-std=CL3.0", "-cl-std=CL2.0 -cl-opt-disable",
                                      "-cl-std=CL2.0" };
    if (!is_umbra()) memcpy(opts, portable, sizeof opts);
    char name[256] = "";
    OK(clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof name, name, NULL));
    pocl_alpha = strstr(name, "PoCL") != NULL;
    for (size_t o = 0; o < sizeof opts / sizeof *opts; o++) {
        cl_program p = build(rw_src, opts[o]);
        if (!p) continue;
        for (size_t t = 0; t < sizeof rw_types / sizeof *rw_types; t++)
            for (size_t f = 0; f < sizeof rw_formats / sizeof *rw_formats; f++)
                rw_case(p, opts[o], &rw_types[t], &rw_formats[f]);
        clReleaseProgram(p);
    }
}

/* The access qualifier of a read_write argument, clSetKernelArg's rules for images of each access
 * flag, and OpenCL C 1.2 refusing read_write. */
static void rw_arguments(void)
{
    if (!rw_args()) {
        skipped++;
        return;
    }
    static const char *src =
        "kernel void k(read_write image2d_t a, read_only image2d_t b, write_only image2d_t c) {\n"
        "  int2 p = (int2)(0, 0);\n"
        "  write_imagef(a, p, read_imagef(a, p) + read_imagef(b, p));\n"
        "  write_imagef(c, p, (float4)(0.5f));\n"
        "}\n";
    cl_program p = build(src, "-cl-std=CL3.0 -cl-kernel-arg-info");
    if (!p) return;
    cl_int e;
    cl_kernel k = clCreateKernel(p, "k", &e);
    OK(e);
    cl_kernel_arg_access_qualifier acc[3] = { 0, 0, 0 };
    for (cl_uint i = 0; i < 3; i++)
        OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc[i], &acc[i], NULL));
    EXPECT(acc[0] == CL_KERNEL_ARG_ACCESS_READ_WRITE && acc[1] == CL_KERNEL_ARG_ACCESS_READ_ONLY &&
           acc[2] == CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
    char type[64] = "";
    OK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL));
    EXPECT(!strcmp(type, "image2d_t"));
    cl_image_format fmt = { CL_RGBA, CL_FLOAT };
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 1, .image_height = 1 };
    float one[4] = { 1, 2, 3, 4 };
    cl_mem rw = clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &fmt, &d, one, &e);
    cl_mem ro = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fmt, &d, one, &e);
    cl_mem wo = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &fmt, &d, NULL, &e);
    /* OpenCL 3.0 §5.9.2: CL_INVALID_ARG_VALUE for read_only given CL_MEM_WRITE_ONLY and write_only
     * given CL_MEM_READ_ONLY; read_write has no such error (only the kernel's use is undefined) */
    cl_int want = is_umbra() ? CL_INVALID_ARG_VALUE : CL_SUCCESS;   /* PoCL 3.1 does not check */
    EXPECT_ERR(clSetKernelArg(k, 1, sizeof wo, &wo), want);
    EXPECT_ERR(clSetKernelArg(k, 2, sizeof ro, &ro), want);
    OK(clSetKernelArg(k, 0, sizeof ro, &ro));
    OK(clSetKernelArg(k, 0, sizeof wo, &wo));
    OK(clSetKernelArg(k, 0, sizeof rw, &rw));
    OK(clSetKernelArg(k, 1, sizeof rw, &rw));   /* CL_MEM_READ_WRITE suits every qualifier */
    OK(clSetKernelArg(k, 2, sizeof wo, &wo));
    OK(clSetKernelArg(k, 1, sizeof ro, &ro));
    size_t g = 1;
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    float got[4] = { 0, 0, 0, 0 }, half[4] = { 0, 0, 0, 0 };
    OK(clEnqueueReadImage(q, rw, CL_TRUE, (size_t[3]){ 0, 0, 0 }, (size_t[3]){ 1, 1, 1 }, 0, 0, got, 0, NULL, NULL));
    OK(clEnqueueReadImage(q, wo, CL_TRUE, (size_t[3]){ 0, 0, 0 }, (size_t[3]){ 1, 1, 1 }, 0, 0, half, 0, NULL, NULL));
    EXPECT(got[0] == 2 && got[1] == 4 && got[2] == 6 && got[3] == 8);
    EXPECT(half[0] == 0.5f && half[3] == 0.5f);
    clReleaseKernel(k), clReleaseProgram(p);
    clReleaseMemObject(rw), clReleaseMemObject(ro), clReleaseMemObject(wo);
    /* OpenCL C 1.2 has no read_write images: the build fails */
    cl_program old = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    EXPECT_ERR(clBuildProgram(old, 1, &dev, "-cl-std=CL1.2", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    clReleaseProgram(old);
}

/* ---------------- 2D images from buffers ---------------- */

static bool from_buffer_offered(void)
{
    cl_uint pitch = 0, base = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof pitch, &pitch, NULL));
    OK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, sizeof base, &base, NULL));
    if (!has_extension("cl_khr_image2d_from_buffer")) {
        EXPECT(pitch == 0 && base == 0);
        skipped++;
        return false;
    }
    EXPECT(pitch == 256 && base == 256);   /* ROCm's (CLR), in pixels */
    return true;
}

static cl_image_desc desc2d(size_t w, size_t h, size_t pitch, cl_mem buf)
{
    return (cl_image_desc){ .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h,
                            .image_row_pitch = pitch, .buffer = buf };
}

/* Every error of clCreateImage for a 2D image from a buffer (OpenCL 3.0 §5.3.1), with RGBA8
 * pixels: the row pitch must be a multiple of 256 pixels = 1024 bytes. */
static void from_buffer_errors(void)
{
    if (!from_buffer_offered()) return;
    cl_int e;
    cl_image_format fmt = { CL_RGBA, CL_UNORM_INT8 };
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 65536, NULL, &e);
    OK(e);
    cl_image_desc d = desc2d(100, 10, 1024, buf);
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_SUCCESS);
    d.image_row_pitch = 2048;
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_SUCCESS);
    d = desc2d(256, 64, 0, buf);   /* pitch 0: width * 4 = 1024, a multiple; 64 rows fill the buffer */
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_SUCCESS);
    d = desc2d(256, 65, 0, buf);   /* one row more than the buffer holds */
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_SIZE);
    d = desc2d(100, 10, 0, buf);   /* pitch 0: 400 bytes, not a multiple of 256 pixels */
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    d.image_row_pitch = 1028;      /* whole pixels, not a multiple of 256 of them */
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    d.image_row_pitch = 1026;      /* not a multiple of the pixel */
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_DESCRIPTOR);
    d = desc2d(300, 2, 1024, buf); /* below width * 4 */
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_DESCRIPTOR);
    d = desc2d(100, 10, 1024, buf), d.image_slice_pitch = 10240;   /* no host_ptr: must be 0 */
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_DESCRIPTOR);
    d = desc2d(0, 10, 1024, buf);
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_SIZE);
    d = desc2d(16385, 1, 0, buf);
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_SIZE);
    cl_image_format rx = { CL_Rx, CL_FLOAT }, bad = { CL_RGB, CL_UNORM_INT8 };
    d = desc2d(256, 4, 4096, buf);
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &rx, &d, NULL, ERR), CL_IMAGE_FORMAT_NOT_SUPPORTED);
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &bad, &d, NULL, ERR), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    d = desc2d(100, 10, 1024, buf);   /* host-pointer flags and a host pointer come from the buffer */
    EXPECT_OBJ_ERR(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &fmt, &d, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateImage(ctx, CL_MEM_USE_HOST_PTR, &fmt, &d, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateImage(ctx, CL_MEM_ALLOC_HOST_PTR, &fmt, &d, NULL, ERR), CL_INVALID_VALUE);
    uint8_t host[16];
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, host, ERR), CL_INVALID_HOST_PTR);
    /* access flags contradicting the buffer's; missing ones are inherited */
    cl_mem ro = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 16384, NULL, &e);
    d = desc2d(100, 10, 1024, ro);
    EXPECT_OBJ_ERR(clCreateImage(ctx, CL_MEM_WRITE_ONLY, &fmt, &d, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &d, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateImage(ctx, CL_MEM_HOST_READ_ONLY, &fmt, &d, NULL, ERR), CL_INVALID_VALUE);
    cl_mem img = clCreateImage(ctx, 0, &fmt, &d, NULL, &e);
    OK(e);
    cl_mem_flags f = 0;
    OK(clGetMemObjectInfo(img, CL_MEM_FLAGS, sizeof f, &f, NULL));
    EXPECT(f == (CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
    clReleaseMemObject(img), clReleaseMemObject(ro);
    /* a CL_MEM_USE_HOST_PTR buffer's host memory starts on a multiple of 256 pixels (1024 bytes) */
    uint8_t *mem = aligned_alloc(4096, 8192);
    cl_mem at = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 4096, mem + 1024, &e);
    cl_mem off = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 4096, mem + 512, &e);
    d = desc2d(256, 4, 0, at);
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_SUCCESS);
    d = desc2d(256, 4, 0, off);
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    clReleaseMemObject(at), clReleaseMemObject(off);
    free(mem);
    /* a row pitch the T# cannot hold (more than 16384 pixels) */
    cl_mem wide = clCreateBuffer(ctx, 0, (16384 + 256) * 4, NULL, &e);
    d = desc2d(16384, 1, (16384 + 256) * 4, wide);
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_SIZE);
    d.image_row_pitch = 16384 * 4;
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_SUCCESS);
    clReleaseMemObject(wide);
    /* mem_object: an image (a view: the same or a compatible order, image_kernel_test.c checks the
     * views' pixels; CL_RG is compatible with nothing), or given to a type other than 1D buffer and 2D */
    cl_image_desc plain = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4 };
    cl_mem base = clCreateImage(ctx, 0, &fmt, &plain, NULL, &e);
    d = plain, d.mem_object = base;
    cl_mem same = clCreateImage(ctx, 0, &fmt, &d, NULL, &e);
    EXPECT(same && e == CL_SUCCESS);
    if (same) clReleaseMemObject(same);
    cl_image_format rg = { CL_RG, fmt.image_channel_data_type };
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &rg, &d, NULL, ERR), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    d = (cl_image_desc){ .image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = 4, .image_height = 4,
                         .image_array_size = 2, .mem_object = buf };
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_DESCRIPTOR);
    clReleaseMemObject(base), clReleaseMemObject(buf);
}

enum { FW = 300, FH = 5, FP = 512 };   /* R32UI: 300 pixels a row, rows 512 pixels (2048 bytes) apart */

static uint32_t word(size_t i) { return (uint32_t)(i * 2654435761u); }

/* The image is the buffer's bytes: pixel (x, y) is word y * 512 + x. Host commands and kernels on
 * either object are seen through the other; the queries; the buffer lives while the image does. */
static void from_buffer_alias(void)
{
    if (!from_buffer_offered()) return;
    cl_int e;
    enum { WORDS = FP * FH + 64 };
    uint32_t *init = malloc(WORDS * 4), *got = malloc(WORDS * 4), px[FW * FH];
    for (size_t i = 0; i < WORDS; i++) init[i] = word(i);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, WORDS * 4, init, &e);
    cl_image_format fmt = { CL_R, CL_UNSIGNED_INT32 };
    cl_image_desc d = desc2d(FW, FH, FP * 4, buf);
    cl_mem img = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &d, NULL, &e);
    OK(e);
    size_t v = 0;
    OK(clGetImageInfo(img, CL_IMAGE_ROW_PITCH, sizeof v, &v, NULL));
    EXPECT(v == 2048);
    OK(clGetImageInfo(img, CL_IMAGE_WIDTH, sizeof v, &v, NULL));
    EXPECT(v == FW);
    OK(clGetImageInfo(img, CL_IMAGE_HEIGHT, sizeof v, &v, NULL));
    EXPECT(v == FH);
    cl_mem m = NULL;
    OK(clGetImageInfo(img, CL_IMAGE_BUFFER, sizeof m, &m, NULL));
    EXPECT(m == buf);
    m = NULL;
    OK(clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof m, &m, NULL));
    EXPECT(m == buf);
    cl_mem_object_type t = 0;
    OK(clGetMemObjectInfo(img, CL_MEM_TYPE, sizeof t, &t, NULL));
    EXPECT(t == CL_MEM_OBJECT_IMAGE2D);
    cl_uint refs = 0;
    OK(clGetMemObjectInfo(buf, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    EXPECT(refs == 2);   /* the program's and the image's */

    /* 1. the buffer's bytes read through the image */
    size_t o[3] = { 0, 0, 0 }, r[3] = { FW, FH, 1 };
    OK(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL));
    for (size_t y = 0; y < FH; y++)
        for (size_t x = 0; x < FW; x++)
            if (px[y * FW + x] != word(y * FP + x))
                fprintf(stderr, "pixel %zu,%zu: %#x, expected word %zu %#x\n", x, y, px[y * FW + x], y * FP + x,
                        word(y * FP + x)), failures++;

    /* 2. a write into the image lands at the pitch, the rest of the buffer untouched */
    uint32_t box[3 * 10];
    for (int i = 0; i < 30; i++) box[i] = 0xa0000000u + (uint32_t)i;
    const size_t bo[3] = { 290, 2, 0 }, br[3] = { 10, 3, 1 };
    OK(clEnqueueWriteImage(q, img, CL_TRUE, bo, br, 0, 0, box, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, WORDS * 4, got, 0, NULL, NULL));
    for (size_t i = 0; i < WORDS; i++) {
        size_t y = i / FP, x = i % FP;
        bool in_box = y >= 2 && y < 5 && x >= 290 && x < 300;
        uint32_t want = in_box ? 0xa0000000u + (uint32_t)((y - 2) * 10 + x - 290) : word(i);
        if (got[i] != want) fprintf(stderr, "word %zu: %#x, expected %#x\n", i, got[i], want), failures++;
    }

    /* 3. a kernel's read_write access (image_load/image_store with the buffer's pitch), the buffer
     * sees it; then a buffer write, and a kernel reads it through the image */
    static const char *src =
        "kernel void twice(read_write image2d_t im) {\n"
        "  int2 c = (int2)((int)get_global_id(0), (int)get_global_id(1));\n"
        "  write_imageui(im, c, read_imageui(im, c) * 2u + 1u);\n"
        "}\n"
        "kernel void copy(read_only image2d_t im, global uint *out) {\n"
        "  int x = get_global_id(0), y = get_global_id(1);\n"
        "  out[y * get_global_size(0) + x] = read_imageui(im, (int2)(x, y)).x;\n"
        "}\n"
        "kernel void fill(write_only image2d_t im) {\n"
        "  int x = get_global_id(0), y = get_global_id(1);\n"
        "  write_imageui(im, (int2)(x, y), (uint4)(x * 1000u + y));\n"
        "}\n";
    for (int opt = 0; opt < 2; opt++) {
        cl_program p = build(src, opt ? "-cl-std=CL3.0 -O3" : "-cl-std=CL3.0 -O0");
        if (!p) break;
        OK(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, WORDS * 4, init, 0, NULL, NULL));
        cl_kernel k = clCreateKernel(p, "twice", &e);
        OK(clSetKernelArg(k, 0, sizeof img, &img));
        size_t g[2] = { FW, FH };
        OK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL));
        OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, WORDS * 4, got, 0, NULL, NULL));
        for (size_t i = 0; i < WORDS; i++) {
            uint32_t want = i / FP < FH && i % FP < FW ? word(i) * 2u + 1u : word(i);   /* padding untouched */
            if (got[i] != want) fprintf(stderr, "-O%d twice word %zu: %#x, expected %#x\n", opt * 3, i, got[i], want),
                                failures++;
        }
        clReleaseKernel(k);
        for (size_t i = 0; i < WORDS; i++) got[i] = ~word(i);
        OK(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, WORDS * 4, got, 0, NULL, NULL));
        cl_mem out = clCreateBuffer(ctx, 0, sizeof px, NULL, &e);
        k = clCreateKernel(p, "copy", &e);
        OK(clSetKernelArg(k, 0, sizeof img, &img));
        OK(clSetKernelArg(k, 1, sizeof out, &out));
        OK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL));
        OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof px, px, 0, NULL, NULL));
        for (size_t y = 0; y < FH; y++)
            for (size_t x = 0; x < FW; x++)
                if (px[y * FW + x] != ~word(y * FP + x))
                    fprintf(stderr, "-O%d copy %zu,%zu: %#x, expected %#x\n", opt * 3, x, y, px[y * FW + x],
                            ~word(y * FP + x)), failures++;
        clReleaseKernel(k), clReleaseMemObject(out), clReleaseProgram(p);
    }

    /* 4. the image keeps its buffer: the program's reference released, the image still reads it */
    OK(clReleaseMemObject(buf));
    OK(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL));
    EXPECT(px[0] == ~word(0) && px[FW * FH - 1] == ~word((FH - 1) * FP + FW - 1));
    OK(clReleaseMemObject(img));
    free(init), free(got);
}

/* A CL_MEM_USE_HOST_PTR buffer: a kernel's writes through the image reach the host memory (umbra
 * keeps a USE_HOST_PTR buffer's host memory current when a command completes, docs/OPENCL.md; any
 * platform does once it is mapped); and an image made from a sub-buffer starts at its origin. */
static void from_buffer_host_and_sub(void)
{
    if (!from_buffer_offered()) return;
    static const char *src =
        "kernel void fill(write_only image2d_t im) {\n"
        "  int x = get_global_id(0), y = get_global_id(1);\n"
        "  write_imagef(im, (int2)(x, y), (float4)(x / 255.0f, y / 255.0f, 0.5f, 1.0f));\n"
        "}\n";
    cl_program p = build(src, "-cl-std=CL3.0");
    if (!p) return;
    cl_int e;
    cl_image_format fmt = { CL_RGBA, CL_UNORM_INT8 };
    enum { PW = 256, PH = 4 };
    uint8_t *mem = aligned_alloc(4096, PW * PH * 4 * 2);
    memset(mem, 0xee, PW * PH * 4 * 2);
    cl_mem hb = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, PW * PH * 4, mem, &e);
    cl_image_desc d = desc2d(200, PH, PW * 4, hb);
    cl_mem img = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &fmt, &d, NULL, &e);
    OK(e);
    cl_kernel k = clCreateKernel(p, "fill", &e);
    OK(clSetKernelArg(k, 0, sizeof img, &img));
    size_t g[2] = { 200, PH };
    OK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL));
    OK(clFinish(q));
    int bad = 0;
    for (size_t y = 0; y < PH; y++)
        for (size_t x = 0; x < PW; x++) {
            const uint8_t *px = mem + (y * PW + x) * 4;
            uint8_t want[4] = { (uint8_t)x, (uint8_t)y, 128, 255 };   /* 0.5 * 255 = 127.5: to even, 128 */
            if (x >= 200) memset(want, 0xee, 4);   /* the padding of each row untouched */
            if (memcmp(px, want, 4) && bad++ < 4)
                fprintf(stderr, "host pixel %zu,%zu: %u %u %u %u\n", x, y, px[0], px[1], px[2], px[3]);
        }
    failures += bad;
    clReleaseMemObject(img), clReleaseMemObject(hb);

    /* a sub-buffer at 4096 bytes: the image's pixel (0, 0) is the parent's byte 4096 */
    cl_mem parent = clCreateBuffer(ctx, 0, 8192, NULL, &e);
    uint8_t zero[8192];
    memset(zero, 0, sizeof zero);
    OK(clEnqueueWriteBuffer(q, parent, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL));
    cl_buffer_region reg = { 4096, 4096 };
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &reg, &e);
    OK(e);
    d = desc2d(PW, PH, 0, sub);
    img = clCreateImage(ctx, 0, &fmt, &d, NULL, &e);
    OK(e);
    OK(clSetKernelArg(k, 0, sizeof img, &img));
    g[0] = PW;
    OK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL));
    uint8_t all[8192];
    OK(clEnqueueReadBuffer(q, parent, CL_TRUE, 0, sizeof all, all, 0, NULL, NULL));
    bad = 0;
    for (size_t i = 0; i < sizeof all; i += 4) {
        size_t pxl = (i - 4096) / 4;
        uint8_t want[4] = { 0, 0, 0, 0 };
        if (i >= 4096) want[0] = (uint8_t)(pxl % PW), want[1] = (uint8_t)(pxl / PW), want[2] = 128, want[3] = 255;
        if (memcmp(all + i, want, 4) && bad++ < 4)
            fprintf(stderr, "parent byte %zu: %u %u %u %u\n", i, all[i], all[i + 1], all[i + 2], all[i + 3]);
    }
    failures += bad;
    clReleaseKernel(k), clReleaseProgram(p);
    clReleaseMemObject(img), clReleaseMemObject(sub), clReleaseMemObject(parent);
    free(mem);
}

typedef struct { const char *name; void (*fn)(void); } test_case;
#define C(fn) { #fn, fn }
static const test_case cases[] = {
    C(rw_queries), C(rw_kernels), C(rw_arguments), C(from_buffer_errors), C(from_buffer_alias),
    C(from_buffer_host_and_sub),
};

int main(int argc, char **argv)
{
    setup();
    int ran = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (argc > 1 && strcmp(argv[1], cases[i].name)) continue;
        int before = failures, skipped_before = skipped;
        cases[i].fn();
        printf("%s %s\n", failures != before ? "FAIL" : skipped != skipped_before ? "skip" : "ok  ", cases[i].name);
        ran++;
    }
    clReleaseCommandQueue(q), clReleaseContext(ctx);
    if (!ran) {
        fprintf(stderr, "no case named %s\n", argv[1]);
        return 2;
    }
    return failures ? 1 : skipped ? 77 : 0;
}
