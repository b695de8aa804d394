/* Kernels that read and write images (the MIMG instructions behind read_image* / write_image*),
 * checked against C references, each at -O0 and -O3: nearest and linear sampling with
 * normalized and unnormalized coordinates, clamp-to-edge / repeat / mirrored repeat, samplers
 * passed as arguments and declared in the kernel, sampler-less reads (read_imagei/ui with int
 * coordinates), writes with format conversion, 2D arrays and 3D images, 1D images and 1D arrays
 * with the border colour of CL_ADDRESS_CLAMP; normalized sampling of an image 177 texels wide;
 * depth images (cl_khr_depth_images: CL_DEPTH with UNORM_INT16 and FLOAT, 2D and 2D arrays) and
 * CL_sRGBA images (decoded to linear before filtering, fill colours encoded), as ROCm offers them;
 * 2D images viewing 2D images with a compatible order.
 *
 * Registered in CTest only when the tree has the MIMG executor (tests/opencl/CMakeLists.txt). */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
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

static const char *src =
    "__constant sampler_t near_edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "__kernel void sample2d(__read_only image2d_t img, sampler_t s, __global const float2 *coord,\n"
    "                       __global float4 *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = read_imagef(img, s, coord[i]);\n"
    "}\n"
    "__kernel void sample2d_const(__read_only image2d_t img, __global float4 *out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  out[y * get_global_size(0) + x] = read_imagef(img, near_edge, (float2)(x + 0.5f, y + 0.5f));\n"
    "}\n"
    "__kernel void load_ui(__read_only image2d_t img, __global uint4 *out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  out[y * get_global_size(0) + x] = read_imageui(img, (int2)(x, y));\n"
    "}\n"
    "__kernel void load_i_array(__read_only image2d_array_t img, __global int4 *out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  out[(z * get_global_size(1) + y) * get_global_size(0) + x] = read_imagei(img, (int4)(x, y, z, 0));\n"
    "}\n"
    "__kernel void load_3d(__read_only image3d_t img, sampler_t s, __global float4 *out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  out[(z * get_global_size(1) + y) * get_global_size(0) + x] = read_imagef(img, s, (int4)(x, y, z, 0));\n"
    "}\n"
    "__kernel void sample1d(__read_only image1d_t a, __read_only image1d_array_t b, sampler_t s,\n"
    "                       __global float4 *out) {\n"
    "  int i = get_global_id(0);\n"
    "  out[2 * i] = read_imagef(a, s, (float)i - 1.5f);\n"
    "  out[2 * i + 1] = read_imagef(b, s, (float2)((float)i - 1.5f, 1.0f));\n"
    "}\n"
    "__kernel void store_f(__write_only image2d_t img, __global const float4 *in) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  write_imagef(img, (int2)(x, y), in[y * get_global_size(0) + x]);\n"
    "}\n"
    "__kernel void store_i(__write_only image2d_t img, __global const int4 *in) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  write_imagei(img, (int2)(x, y), in[y * get_global_size(0) + x]);\n"
    "}\n";

static const char *depth_src =
    "#pragma OPENCL EXTENSION cl_khr_depth_images : enable\n"
    "__kernel void depth_store(__write_only image2d_depth_t img, __global const float *in) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  write_imagef(img, (int2)(x, y), in[y * get_global_size(0) + x]);\n"
    "}\n"
    "__kernel void depth_read(__read_only image2d_depth_t img, sampler_t s, __global const float2 *coord,\n"
    "                         __global float *out) {\n"
    "  int i = get_global_id(0);\n"
    "  out[2 * i] = read_imagef(img, s, coord[i]);\n"
    "  out[2 * i + 1] = read_imagef(img, (int2)(i % get_image_width(img), i / get_image_width(img)));\n"
    "}\n"
    "__kernel void depth_array(__write_only image2d_array_depth_t o, __read_only image2d_array_depth_t img,\n"
    "                          __global const float *in, __global float *out, int store) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  int i = (z * get_global_size(1) + y) * get_global_size(0) + x;\n"
    "  if (store) write_imagef(o, (int4)(x, y, z, 0), in[i]);\n"
    "  else out[i] = read_imagef(img, (int4)(x, y, z, 0)) + get_image_array_size(img) * 1000;\n"
    "}\n";

static cl_program program_of(const char *text, const char *options)
{
    cl_int e;
    cl_program p = clCreateProgramWithSource(ctx, 1, &text, NULL, &e);
    if (!e) e = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    if (e) {
        char log[8192] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build %s: %d\n%s\n", options, e, log);
        exit(1);
    }
    return p;
}

static cl_program program(const char *options) { return program_of(src, options); }

static cl_mem image2d(cl_channel_order o, cl_channel_type t, size_t w, size_t h, const void *host)
{
    cl_image_format f = { o, t };
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h };
    cl_int e;
    cl_mem m = clCreateImage(ctx, host ? CL_MEM_COPY_HOST_PTR : 0, &f, &d, (void *)host, &e);
    if (e) fprintf(stderr, "clCreateImage: %d\n", e), exit(1);
    return m;
}

static cl_mem buffer(size_t size, const void *host)
{
    cl_int e;
    cl_mem m = clCreateBuffer(ctx, host ? CL_MEM_COPY_HOST_PTR : 0, size, (void *)host, &e);
    if (e) fprintf(stderr, "clCreateBuffer: %d\n", e), exit(1);
    return m;
}

static void run(cl_kernel k, cl_uint dims, const size_t *global)
{
    OK(clEnqueueNDRangeKernel(q, k, dims, NULL, global, NULL, 0, NULL, NULL));
    OK(clFinish(q));
}

/* Run kernel `name` (image, sampler, coordinates, results) over n items; read the results back. */
static void sample_kernel(cl_program p, const char *name, cl_mem img, cl_sampler s, cl_mem coords, cl_mem results,
                          size_t n, void *host, size_t bytes)
{
    cl_int e;
    cl_kernel k = clCreateKernel(p, name, &e);
    OK(e);
    OK(clSetKernelArg(k, 0, sizeof img, &img));
    OK(clSetKernelArg(k, 1, sizeof s, &s));
    OK(clSetKernelArg(k, 2, sizeof coords, &coords));
    OK(clSetKernelArg(k, 3, sizeof results, &results));
    run(k, 1, &n);
    OK(clEnqueueReadBuffer(q, results, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
    clReleaseKernel(k);
}

/* ---------------- C references ---------------- */

#define W 8
#define H 6

static float texel(const float *img, int x, int y, int c) { return img[(y * W + x) * 4 + c]; }

/* OpenCL 1.2 §8.2: address mode applied to an integer texel coordinate. */
static int wrap(int i, int n, cl_addressing_mode am)
{
    switch (am) {
    case CL_ADDRESS_REPEAT: return ((i % n) + n) % n;
    case CL_ADDRESS_MIRRORED_REPEAT: { int p = ((i % (2 * n)) + 2 * n) % (2 * n); return p < n ? p : 2 * n - 1 - p; }
    default: return i < 0 ? 0 : i >= n ? n - 1 : i;   /* clamp to edge */
    }
}

/* read_imagef of an RGBA float image at (u, v): nearest or bilinear per §8.2 (for repeat modes
 * the texel coordinate is u * width). */
static void reference(const float *img, float u, float v, bool norm, cl_addressing_mode am, bool linear, float out[4])
{
    float x = norm ? u * W : u, y = norm ? v * H : v;
    if (!linear) {
        int i = wrap((int)floorf(x), W, am), j = wrap((int)floorf(y), H, am);
        for (int c = 0; c < 4; c++) out[c] = texel(img, i, j, c);
        return;
    }
    float fx = x - 0.5f, fy = y - 0.5f;
    int i0 = (int)floorf(fx), j0 = (int)floorf(fy);
    float a = fx - floorf(fx), b = fy - floorf(fy);
    int i1 = wrap(i0 + 1, W, am), j1 = wrap(j0 + 1, H, am);
    i0 = wrap(i0, W, am), j0 = wrap(j0, H, am);
    for (int c = 0; c < 4; c++)
        out[c] = (1 - a) * (1 - b) * texel(img, i0, j0, c) + a * (1 - b) * texel(img, i1, j0, c) +
                 (1 - a) * b * texel(img, i0, j1, c) + a * b * texel(img, i1, j1, c);
}

/* ---------------- cases ---------------- */

/* Coordinates at quarter-texel steps keep the bilinear weights exact in the hardware's fixed
 * point, so the comparison is tight (1e-5). */
static void sampling(cl_program p, const char *opt)
{
    float img[W * H * 4];
    for (int i = 0; i < W * H * 4; i++) img[i] = (float)((i * 37) % 101) / 4.0f;
    cl_mem im = image2d(CL_RGBA, CL_FLOAT, W, H, img);
    enum { N = 64 };
    float coord[N * 2];
    struct { bool norm; cl_addressing_mode am; bool linear; } modes[] = {
        { false, CL_ADDRESS_CLAMP_TO_EDGE, false }, { false, CL_ADDRESS_CLAMP_TO_EDGE, true },
        { true, CL_ADDRESS_CLAMP_TO_EDGE, false }, { true, CL_ADDRESS_CLAMP_TO_EDGE, true },
        { true, CL_ADDRESS_REPEAT, false }, { true, CL_ADDRESS_REPEAT, true },
        { true, CL_ADDRESS_MIRRORED_REPEAT, false }, { true, CL_ADDRESS_MIRRORED_REPEAT, true },
    };
    cl_int e;
    cl_kernel k = clCreateKernel(p, "sample2d", &e);
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
        for (int i = 0; i < N; i++) {
            float x = -1.0f + 0.75f * (float)(i % 16);    /* -1 .. 10.25 texels, past both edges */
            float y = -0.75f + 1.25f * (float)(i / 16);   /* -0.75 .. 3 */
            coord[2 * i] = modes[m].norm ? x / W : x;
            coord[2 * i + 1] = modes[m].norm ? y / H : y;
        }
        cl_sampler s = clCreateSampler(ctx, modes[m].norm, modes[m].am,
                                       modes[m].linear ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &e);
        cl_mem cb = buffer(sizeof coord, coord), ob = buffer(N * 16, NULL);
        OK(clSetKernelArg(k, 0, sizeof im, &im));
        OK(clSetKernelArg(k, 1, sizeof s, &s));
        OK(clSetKernelArg(k, 2, sizeof cb, &cb));
        OK(clSetKernelArg(k, 3, sizeof ob, &ob));
        run(k, 1, (size_t[]){ N });
        float got[N * 4];
        OK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        for (int i = 0; i < N; i++) {
            float want[4];
            reference(img, coord[2 * i], coord[2 * i + 1], modes[m].norm, modes[m].am, modes[m].linear, want);
            for (int c = 0; c < 4; c++)
                if (fabsf(got[i * 4 + c] - want[c]) > 1e-5f * (1.0f + fabsf(want[c]))) {
                    fprintf(stderr, "%s mode %zu coord (%g, %g) channel %d: got %g, expected %g\n", opt, m,
                            coord[2 * i], coord[2 * i + 1], c, got[i * 4 + c], want[c]);
                    failures++;
                    break;
                }
        }
        clReleaseMemObject(cb), clReleaseMemObject(ob), clReleaseSampler(s);
    }
    clReleaseKernel(k), clReleaseMemObject(im);
}

/* A width that is not a power of two (177 x 2, texel (x, y) = (x, 1000 y + x, 0, 1)).
 * Nearest with normalized coordinates at every texel centre, (k + 0.5) / 177: OpenCL 1.2 §8.2
 * selects texel k. The device library snaps such a coordinate to floor(c * w) * (1 / w), which in
 * f32 times 177 is k - epsilon for some k; the texture unit's 16.8 fixed-point conversion of the
 * scaled coordinate gives k back (docs/MEMORY_MODEL.md §12a).
 * Linear with u - 0.5 = k + 1 - 2^-12 (normalized, repeat): §8.2 weights the right texel by
 * 0.99976; the hardware's 8-bit weight (round to nearest 1/256) gives weight 1, so the result is
 * within 1/512 texel value of the reference (truncating the weight to 255/256 is 0.0037 off). */
static void npot_width(cl_program p, const char *opt)
{
    enum { NW = 177, NH = 2 };
    static float img[NW * NH * 4];
    for (int y = 0; y < NH; y++)
        for (int x = 0; x < NW; x++) {
            float *t = &img[(y * NW + x) * 4];
            t[0] = (float)x, t[1] = (float)(1000 * y + x), t[2] = 0.0f, t[3] = 1.0f;
        }
    cl_mem im = image2d(CL_RGBA, CL_FLOAT, NW, NH, img);
    cl_int e;
    cl_kernel k = clCreateKernel(p, "sample2d", &e);
    static const cl_addressing_mode am[3] = { CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT };
    static float coord[NW * 2], got[NW * 4];
    for (int m = 0; m < 4; m++) {
        bool linear = m == 3;
        for (int i = 0; i < NW; i++) {
            coord[2 * i] = linear ? ((float)(i % (NW - 1)) + 1.5f - 1.0f / 4096) / NW : ((float)i + 0.5f) / NW;
            coord[2 * i + 1] = (float)(1 + 2 * (i % 2)) / 4.0f;   /* row centre 0 or 1 */
        }
        cl_sampler s = clCreateSampler(ctx, CL_TRUE, linear ? CL_ADDRESS_REPEAT : am[m],
                                       linear ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &e);
        cl_mem cb = buffer(sizeof coord, coord), ob = buffer(sizeof got, NULL);
        OK(clSetKernelArg(k, 0, sizeof im, &im));
        OK(clSetKernelArg(k, 1, sizeof s, &s));
        OK(clSetKernelArg(k, 2, sizeof cb, &cb));
        OK(clSetKernelArg(k, 3, sizeof ob, &ob));
        run(k, 1, (size_t[]){ NW });
        OK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        for (int i = 0; i < NW; i++) {
            int y = i % 2;
            float x = linear ? (float)(i % (NW - 1)) + 1.0f - 1.0f / 4096 : (float)i;   /* exact reference */
            float want[4] = { x, 1000.0f * (float)y + x, 0.0f, 1.0f };
            float tol = linear ? 1.0f / 512 : 0.0f;
            for (int c = 0; c < 4; c++)
                if (!(fabsf(got[i * 4 + c] - want[c]) <= tol)) {
                    fprintf(stderr, "%s npot_width case %d coord (%.9g, %g) channel %d: got %.9g, expected %.9g\n", opt, m,
                            coord[2 * i], coord[2 * i + 1], c, got[i * 4 + c], want[c]);
                    failures++;
                    break;
                }
        }
        clReleaseMemObject(cb), clReleaseMemObject(ob), clReleaseSampler(s);
    }
    clReleaseKernel(k), clReleaseMemObject(im);
}

/* A sampler declared in the kernel; unorm8 BGRA texels read back as c / 255 in RGBA order. */
static void constant_sampler(cl_program p, const char *opt)
{
    uint8_t px[W * H * 4];
    for (int i = 0; i < W * H * 4; i++) px[i] = (uint8_t)(i * 11 + 3);
    cl_mem im = image2d(CL_BGRA, CL_UNORM_INT8, W, H, px);
    cl_mem ob = buffer(W * H * 16, NULL);
    cl_int e;
    cl_kernel k = clCreateKernel(p, "sample2d_const", &e);
    OK(clSetKernelArg(k, 0, sizeof im, &im));
    OK(clSetKernelArg(k, 1, sizeof ob, &ob));
    run(k, 2, (size_t[]){ W, H });
    float got[W * H * 4];
    OK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    for (int i = 0; i < W * H; i++) {
        const uint8_t *b = &px[i * 4];
        float want[4] = { b[2] / 255.0f, b[1] / 255.0f, b[0] / 255.0f, b[3] / 255.0f };
        for (int c = 0; c < 4; c++)
            if (fabsf(got[i * 4 + c] - want[c]) > 1e-6f) {
                fprintf(stderr, "%s texel %d channel %d: got %g, expected %g\n", opt, i, c, got[i * 4 + c], want[c]);
                failures++;
            }
    }
    clReleaseKernel(k), clReleaseMemObject(im), clReleaseMemObject(ob);
}

/* read_imageui of RG uint16: (r, g, 0, 1); read_imagei of a 2D array of R int8 (sign extended). */
static void integer_loads(cl_program p, const char *opt)
{
    uint16_t px[W * H * 2];
    for (int i = 0; i < W * H * 2; i++) px[i] = (uint16_t)(i * 1001 + 7);
    cl_mem im = image2d(CL_RG, CL_UNSIGNED_INT16, W, H, px);
    cl_mem ob = buffer(W * H * 16, NULL);
    cl_int e;
    cl_kernel k = clCreateKernel(p, "load_ui", &e);
    OK(clSetKernelArg(k, 0, sizeof im, &im));
    OK(clSetKernelArg(k, 1, sizeof ob, &ob));
    run(k, 2, (size_t[]){ W, H });
    uint32_t got[W * H * 4];
    OK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    for (int i = 0; i < W * H; i++)
        if (got[i * 4] != px[i * 2] || got[i * 4 + 1] != px[i * 2 + 1] || got[i * 4 + 2] != 0 || got[i * 4 + 3] != 1) {
            fprintf(stderr, "%s load_ui texel %d: %u %u %u %u\n", opt, i, got[i * 4], got[i * 4 + 1], got[i * 4 + 2],
                    got[i * 4 + 3]);
            failures++;
        }
    clReleaseKernel(k), clReleaseMemObject(im), clReleaseMemObject(ob);

    enum { L = 3 };
    int8_t ar[W * H * L];
    for (int i = 0; i < W * H * L; i++) ar[i] = (int8_t)(i * 13 - 100);
    cl_image_format f = { CL_R, CL_SIGNED_INT8 };
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = W, .image_height = H,
                        .image_array_size = L };
    cl_mem am = clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &f, &d, ar, &e);
    cl_mem ob2 = buffer(W * H * L * 16, NULL);
    k = clCreateKernel(p, "load_i_array", &e);
    OK(clSetKernelArg(k, 0, sizeof am, &am));
    OK(clSetKernelArg(k, 1, sizeof ob2, &ob2));
    run(k, 3, (size_t[]){ W, H, L });
    int32_t goti[W * H * L * 4];
    OK(clEnqueueReadBuffer(q, ob2, CL_TRUE, 0, sizeof goti, goti, 0, NULL, NULL));
    for (int i = 0; i < W * H * L; i++)
        if (goti[i * 4] != ar[i] || goti[i * 4 + 1] != 0 || goti[i * 4 + 3] != 1) {
            fprintf(stderr, "%s load_i_array texel %d: %d (expected %d)\n", opt, i, goti[i * 4], ar[i]);
            failures++;
        }
    clReleaseKernel(k), clReleaseMemObject(am), clReleaseMemObject(ob2);
}

/* A 3D luminance image of unorm16: (L, L, L, 1), through a sampler argument and int coordinates. */
static void volume(cl_program p, const char *opt)
{
    enum { D = 4 };
    uint16_t px[W * H * D];
    for (int i = 0; i < W * H * D; i++) px[i] = (uint16_t)(i * 997);
    cl_image_format f = { CL_LUMINANCE, CL_UNORM_INT16 };
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = W, .image_height = H, .image_depth = D };
    cl_int e;
    cl_mem im = clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &f, &d, px, &e);
    cl_sampler s = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &e);
    cl_mem ob = buffer(W * H * D * 16, NULL);
    cl_kernel k = clCreateKernel(p, "load_3d", &e);
    OK(clSetKernelArg(k, 0, sizeof im, &im));
    OK(clSetKernelArg(k, 1, sizeof s, &s));
    OK(clSetKernelArg(k, 2, sizeof ob, &ob));
    run(k, 3, (size_t[]){ W, H, D });
    float got[W * H * D * 4];
    OK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    for (int i = 0; i < W * H * D; i++) {
        float l = px[i] / 65535.0f;
        if (fabsf(got[i * 4] - l) > 1e-6f || fabsf(got[i * 4 + 2] - l) > 1e-6f || got[i * 4 + 3] != 1.0f) {
            fprintf(stderr, "%s volume texel %d: %g %g %g %g (expected L %g)\n", opt, i, got[i * 4], got[i * 4 + 1],
                    got[i * 4 + 2], got[i * 4 + 3], l);
            failures++;
        }
    }
    clReleaseKernel(k), clReleaseMemObject(im), clReleaseMemObject(ob), clReleaseSampler(s);
}

/* 1D images and 1D arrays through a CL_ADDRESS_CLAMP sampler (unnormalized, nearest): texels
 * inside read back, texels outside read the border: (0, 0, 0, 0) for RGBA, (0, 0, 0, 1) for R. */
static void border_1d(cl_program p, const char *opt)
{
    enum { L = 5 };
    float rgba[L * 4], r[L * 2];
    for (int i = 0; i < L * 4; i++) rgba[i] = 1.0f + i;
    for (int i = 0; i < L * 2; i++) r[i] = 100.0f + i;
    cl_int e;
    cl_image_format f4 = { CL_RGBA, CL_FLOAT }, f1 = { CL_R, CL_FLOAT };
    cl_image_desc d1 = { .image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = L };
    cl_image_desc da = { .image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY, .image_width = L, .image_array_size = 2 };
    cl_mem a = clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &f4, &d1, rgba, &e);
    cl_mem b = clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &f1, &da, r, &e);
    cl_sampler s = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &e);
    cl_mem ob = buffer((L + 3) * 2 * 16, NULL);
    cl_kernel k = clCreateKernel(p, "sample1d", &e);
    OK(clSetKernelArg(k, 0, sizeof a, &a));
    OK(clSetKernelArg(k, 1, sizeof b, &b));
    OK(clSetKernelArg(k, 2, sizeof s, &s));
    OK(clSetKernelArg(k, 3, sizeof ob, &ob));
    run(k, 1, (size_t[]){ L + 3 });
    float got[(L + 3) * 2 * 4];
    OK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    for (int i = 0; i < L + 3; i++) {
        int x = i - 2;   /* floor(i - 1.5) */
        bool in = x >= 0 && x < L;
        for (int c = 0; c < 4; c++) {
            float wa = in ? rgba[x * 4 + c] : 0.0f;
            float wb = c == 0 ? (in ? r[L + x] : 0.0f) : c == 3 ? 1.0f : 0.0f;
            if (got[i * 8 + c] != wa || got[i * 8 + 4 + c] != wb) {
                fprintf(stderr, "%s border_1d x %d channel %d: %g %g, expected %g %g\n", opt, x, c, got[i * 8 + c],
                        got[i * 8 + 4 + c], wa, wb);
                failures++;
            }
        }
    }
    clReleaseKernel(k), clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(ob), clReleaseSampler(s);
}

/* write_imagef into unorm8 RGBA (round to nearest even, saturate) and write_imagei into int16 RG
 * (saturate). */
static void stores(cl_program p, const char *opt)
{
    float in[W * H * 4];
    for (int i = 0; i < W * H * 4; i++) in[i] = (float)(i % 23) / 20.0f - 0.1f;   /* -0.1 .. 1.0 */
    cl_mem im = image2d(CL_RGBA, CL_UNORM_INT8, W, H, NULL);
    cl_mem ib = buffer(sizeof in, in);
    cl_int e;
    cl_kernel k = clCreateKernel(p, "store_f", &e);
    OK(clSetKernelArg(k, 0, sizeof im, &im));
    OK(clSetKernelArg(k, 1, sizeof ib, &ib));
    run(k, 2, (size_t[]){ W, H });
    uint8_t got[W * H * 4];
    OK(clEnqueueReadImage(q, im, CL_TRUE, (size_t[3]){ 0, 0, 0 }, (size_t[3]){ W, H, 1 }, 0, 0, got, 0, NULL, NULL));
    for (int i = 0; i < W * H * 4; i++) {
        /* §8.3.1.1: saturate, then round to nearest even within 0.6 ulp of the exact f * 255 (so
         * 0.3f, 76.50000304 exactly, may be 76 or 77) */
        double v = in[i] < 0 ? 0 : in[i] > 1 ? 1 : in[i], exact = v * 255.0;
        if (fabs(got[i] - exact) > 0.6) {
            fprintf(stderr, "%s store_f byte %d: got %d, expected %g within 0.6 (from %g)\n", opt, i, got[i], exact, in[i]);
            failures++;
        }
    }
    clReleaseKernel(k), clReleaseMemObject(im), clReleaseMemObject(ib);

    int32_t ii[W * H * 4];
    /* -65536 .. 65535, half of them outside the channel's range: OpenCL 1.2 §6.12.14.4 saturates
     * (convert_short_sat); the device library passes the ints to image_store unchanged and the
     * texture unit's store conversion clamps them (docs/MEMORY_MODEL.md §12a) */
    for (int i = 0; i < W * H * 4; i++) ii[i] = (i * 4099) % 131072 - 65536;
    cl_mem im2 = image2d(CL_RG, CL_SIGNED_INT16, W, H, NULL);
    cl_mem ib2 = buffer(sizeof ii, ii);
    k = clCreateKernel(p, "store_i", &e);
    OK(clSetKernelArg(k, 0, sizeof im2, &im2));
    OK(clSetKernelArg(k, 1, sizeof ib2, &ib2));
    run(k, 2, (size_t[]){ W, H });
    int16_t got2[W * H * 2];
    OK(clEnqueueReadImage(q, im2, CL_TRUE, (size_t[3]){ 0, 0, 0 }, (size_t[3]){ W, H, 1 }, 0, 0, got2, 0, NULL, NULL));
    for (int i = 0; i < W * H; i++)
        for (int c = 0; c < 2; c++) {
            int32_t want = ii[i * 4 + c] < -32768 ? -32768 : ii[i * 4 + c] > 32767 ? 32767 : ii[i * 4 + c];
            if (got2[i * 2 + c] != want) {
                fprintf(stderr, "%s store_i texel %d.%d: got %d, expected %d\n", opt, i, c, got2[i * 2 + c], want);
                failures++;
            }
        }
    clReleaseKernel(k), clReleaseMemObject(im2), clReleaseMemObject(ib2);
}

/* ---------------- depth and sRGB images ---------------- */

static bool listed(cl_mem_flags flags, cl_mem_object_type type, cl_channel_order o, cl_channel_type t)
{
    cl_image_format f[256];
    cl_uint n = 0;
    OK(clGetSupportedImageFormats(ctx, flags, type, 256, f, &n));
    for (cl_uint i = 0; i < n && i < 256; i++)
        if (f[i].image_channel_order == o && f[i].image_channel_data_type == t) return true;
    return false;
}

/* What ROCm lists (CLR's Image::getSupportedFormats): CL_DEPTH for 2D images and 2D arrays only,
 * CL_sRGBA where no kernel writes and not for 1D buffer images; creating anything else with them
 * is CL_IMAGE_FORMAT_NOT_SUPPORTED. */
static void depth_srgb_lists(void)
{
    EXPECT(listed(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, CL_DEPTH, CL_UNORM_INT16));
    EXPECT(listed(CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_DEPTH, CL_FLOAT));
    EXPECT(!listed(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE3D, CL_DEPTH, CL_FLOAT));
    EXPECT(!listed(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE1D, CL_DEPTH, CL_FLOAT));
    EXPECT(listed(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, CL_sRGBA, CL_UNORM_INT8));
    EXPECT(listed(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE3D, CL_sRGBA, CL_UNORM_INT8));
    EXPECT(!listed(CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D, CL_sRGBA, CL_UNORM_INT8));
    EXPECT(!listed(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, CL_sRGBA, CL_UNORM_INT8));
    EXPECT(!listed(CL_MEM_KERNEL_READ_AND_WRITE, CL_MEM_OBJECT_IMAGE2D, CL_sRGBA, CL_UNORM_INT8));
    EXPECT(!listed(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_sRGBA, CL_UNORM_INT8));
    EXPECT(!listed(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, CL_sRGB, CL_UNORM_INT8));
    cl_int e;
    cl_image_format f = { CL_DEPTH, CL_FLOAT };
    cl_image_desc d3 = { .image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 4, .image_height = 4, .image_depth = 2 };
    EXPECT(!clCreateImage(ctx, CL_MEM_READ_WRITE, &f, &d3, NULL, &e) && e == CL_IMAGE_FORMAT_NOT_SUPPORTED);
    cl_image_format g = { CL_sRGBA, CL_UNORM_INT8 };
    cl_image_desc d2 = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4 };
    EXPECT(!clCreateImage(ctx, CL_MEM_WRITE_ONLY, &g, &d2, NULL, &e) && e == CL_IMAGE_FORMAT_NOT_SUPPORTED);
    cl_mem m = clCreateImage(ctx, CL_MEM_READ_ONLY, &g, &d2, NULL, &e);
    EXPECT(m && e == CL_SUCCESS);
    if (m) clReleaseMemObject(m);
}

/* depth_store writes W x H depths (UNORM_INT16: rounded to 1/65535; FLOAT: exact), read back by
 * the host and by depth_read (nearest and bilinear at quarter-texel steps, sampler-less); a 2D
 * depth array written and read by depth_array. */
static void depth_images(cl_program p, const char *opt)
{
    static const cl_channel_type types[2] = { CL_UNORM_INT16, CL_FLOAT };
    for (int ti = 0; ti < 2; ti++) {
        bool unorm = types[ti] == CL_UNORM_INT16;
        float in[W * H], stored[W * H];
        for (int i = 0; i < W * H; i++) {
            in[i] = (float)((i * 29) % 97) / 96.0f * (unorm ? 1.2f : 3.0f) - (unorm ? 0.1f : 1.0f);
            float c = unorm ? (in[i] < 0 ? 0 : in[i] > 1 ? 1 : in[i]) : in[i];
            stored[i] = unorm ? (float)(rint(c * 65535.0) / 65535.0) : c;   /* §8.3.1.1 round to nearest */
        }
        cl_image_format f = { CL_DEPTH, types[ti] };
        cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H };
        cl_int e;
        cl_mem im = clCreateImage(ctx, CL_MEM_READ_WRITE, &f, &d, NULL, &e);
        OK(e);
        cl_mem ib = buffer(sizeof in, in);
        cl_kernel k = clCreateKernel(p, "depth_store", &e);
        OK(clSetKernelArg(k, 0, sizeof im, &im));
        OK(clSetKernelArg(k, 1, sizeof ib, &ib));
        run(k, 2, (size_t[]){ W, H });
        clReleaseKernel(k);
        uint8_t raw[W * H * 4];
        OK(clEnqueueReadImage(q, im, CL_TRUE, (size_t[3]){ 0, 0, 0 }, (size_t[3]){ W, H, 1 }, 0, 0, raw, 0, NULL, NULL));
        for (int i = 0; i < W * H; i++) {
            float got;
            if (unorm) {
                uint16_t u;
                memcpy(&u, raw + 2 * i, 2);
                got = (float)(u / 65535.0);
            } else {
                memcpy(&got, raw + 4 * i, 4);
            }
            if (got != stored[i]) {
                fprintf(stderr, "%s depth %d texel %d: stored %.9g, expected %.9g\n", opt, ti, i, got, stored[i]);
                failures++;
            }
        }
        enum { N = W * H };
        float coord[N * 2], out[N * 2];
        for (int i = 0; i < N; i++) coord[2 * i] = 0.25f * (float)(i % 32), coord[2 * i + 1] = 0.5f + 0.25f * (float)(i / 32);
        cl_mem cb = buffer(sizeof coord, coord), ob = buffer(sizeof out, NULL);
        for (int lin = 0; lin < 2; lin++) {
            cl_sampler s = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, lin ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &e);
            sample_kernel(p, "depth_read", im, s, cb, ob, N, out, sizeof out);
            for (int i = 0; i < N; i++) {
                float img4[W * H * 4], want[4];
                for (int t = 0; t < W * H; t++) for (int c = 0; c < 4; c++) img4[t * 4 + c] = stored[t];
                reference(img4, coord[2 * i], coord[2 * i + 1], false, CL_ADDRESS_CLAMP_TO_EDGE, lin, want);
                if (fabsf(out[2 * i] - want[0]) > 1e-5f * (1 + fabsf(want[0])) || out[2 * i + 1] != stored[i]) {
                    fprintf(stderr, "%s depth %d %s %d: got %.9g / %.9g, expected %.9g / %.9g\n", opt, ti,
                            lin ? "linear" : "nearest", i, out[2 * i], out[2 * i + 1], want[0], stored[i]);
                    failures++;
                }
            }
            clReleaseSampler(s);
        }
        clReleaseMemObject(cb), clReleaseMemObject(ob), clReleaseMemObject(ib), clReleaseMemObject(im);
    }
    /* a 2D depth array of 3 slices */
    enum { L = 3 };
    float in[W * H * L], out[W * H * L];
    for (int i = 0; i < W * H * L; i++) in[i] = (float)i * 0.125f - 7.0f;
    cl_image_format f = { CL_DEPTH, CL_FLOAT };
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = W, .image_height = H, .image_array_size = L };
    cl_int e;
    cl_mem im = clCreateImage(ctx, CL_MEM_READ_WRITE, &f, &d, NULL, &e);
    OK(e);
    cl_mem ib = buffer(sizeof in, in), ob = buffer(sizeof out, NULL);
    cl_kernel k = clCreateKernel(p, "depth_array", &e);
    for (int store = 1; store >= 0; store--) {
        OK(clSetKernelArg(k, 0, sizeof im, &im));
        OK(clSetKernelArg(k, 1, sizeof im, &im));
        OK(clSetKernelArg(k, 2, sizeof ib, &ib));
        OK(clSetKernelArg(k, 3, sizeof ob, &ob));
        OK(clSetKernelArg(k, 4, sizeof store, &store));
        run(k, 3, (size_t[]){ W, H, L });
    }
    OK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < W * H * L; i++)
        if (out[i] != in[i] + L * 1000) {
            fprintf(stderr, "%s depth array %d: got %.9g, expected %.9g\n", opt, i, out[i], in[i] + L * 1000);
            failures++;
        }
    clReleaseKernel(k), clReleaseMemObject(im), clReleaseMemObject(ib), clReleaseMemObject(ob);
}

/* IEC 61966-2-1: sRGB-encoded byte -> linear, and linear -> encoded before UNORM rounding. */
static double srgb_decode(int b)
{
    double c = b / 255.0;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}
static double srgb_encode(double x) { return x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055; }

/* A CL_sRGBA image read with sample2d: colour decoded to linear before filtering (the reference
 * filters the decoded texels), alpha linear; the table value 188 -> 0.50289 checked first; a fill
 * with a linear colour stores the encoded bytes. */
static void srgb_images(cl_program p, const char *opt)
{
    EXPECT(fabs(srgb_decode(188) - 0.50289) < 1e-5);
    uint8_t bytes[W * H * 4];
    for (int i = 0; i < W * H * 4; i++) bytes[i] = (uint8_t)((i * 53 + 11) % 256);
    cl_image_format f = { CL_sRGBA, CL_UNORM_INT8 };
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H };
    cl_int e;
    cl_mem im = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d, bytes, &e);
    OK(e);
    float lin[W * H * 4];
    for (int i = 0; i < W * H * 4; i++) lin[i] = (float)(i % 4 == 3 ? bytes[i] / 255.0 : srgb_decode(bytes[i]));
    enum { N = 64 };
    float coord[N * 2], out[N * 4];
    for (int i = 0; i < N; i++) coord[2 * i] = -0.5f + 0.25f * (float)(i % 40), coord[2 * i + 1] = 0.25f + 0.75f * (float)(i / 8);
    cl_mem cb = buffer(sizeof coord, coord), ob = buffer(sizeof out, NULL);
    for (int l = 0; l < 2; l++) {
        cl_sampler s = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, l ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &e);
        sample_kernel(p, "sample2d", im, s, cb, ob, N, out, sizeof out);
        for (int i = 0; i < N; i++) {
            float want[4];
            reference(lin, coord[2 * i], coord[2 * i + 1], false, CL_ADDRESS_CLAMP_TO_EDGE, l, want);
            for (int c = 0; c < 4; c++)
                if (fabsf(out[4 * i + c] - want[c]) > 2e-6f) {
                    fprintf(stderr, "%s sRGB %s %d.%d: got %.9g, expected %.9g\n", opt, l ? "linear" : "nearest", i, c,
                            out[4 * i + c], want[c]);
                    failures++;
                }
        }
        clReleaseSampler(s);
    }
    const float color[4] = { 0.5f, 0.2f, 1.0f, 0.25f };
    OK(clEnqueueFillImage(q, im, color, (size_t[3]){ 1, 1, 0 }, (size_t[3]){ 2, 2, 1 }, 0, NULL, NULL));
    uint8_t px[4];
    OK(clEnqueueReadImage(q, im, CL_TRUE, (size_t[3]){ 2, 2, 0 }, (size_t[3]){ 1, 1, 1 }, 0, 0, px, 0, NULL, NULL));
    for (int c = 0; c < 4; c++) {
        int want = (int)rint((c < 3 ? srgb_encode(color[c]) : color[c]) * 255.0);   /* 188, 124, 255, 64 */
        EXPECT(px[c] == want);
    }
    clReleaseMemObject(cb), clReleaseMemObject(ob), clReleaseMemObject(im);
}

/* 2D images viewing 2D images (OpenCL 3.0 §5.3.1.2): a CL_sRGBA view (read only) of a CL_RGBA
 * UNORM_INT8 image reads its bytes decoded, a CL_DEPTH view of a CL_R FLOAT image reads its
 * floats; writes through the parent are seen through the view; the rules refused. */
static void image_views(cl_program p, cl_program dp, const char *opt)
{
    uint8_t bytes[W * H * 4];
    for (int i = 0; i < W * H * 4; i++) bytes[i] = (uint8_t)((i * 71 + 5) % 256);
    cl_int e;
    cl_mem rgba = image2d(CL_RGBA, CL_UNORM_INT8, W, H, bytes);
    cl_image_format sf = { CL_sRGBA, CL_UNORM_INT8 };
    cl_image_desc vd = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H, .mem_object = rgba };
    cl_mem view = clCreateImage(ctx, 0, &sf, &vd, NULL, &e);   /* inherits READ_WRITE: sRGB is read only */
    EXPECT(!view && e == CL_IMAGE_FORMAT_NOT_SUPPORTED);
    view = clCreateImage(ctx, CL_MEM_READ_ONLY, &sf, &vd, NULL, &e);
    OK(e);
    cl_mem assoc = NULL, ibuf = (cl_mem)1;
    OK(clGetMemObjectInfo(view, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    OK(clGetImageInfo(view, CL_IMAGE_BUFFER, sizeof ibuf, &ibuf, NULL));
    EXPECT(assoc == rgba && ibuf == NULL);
    enum { N = W * H };
    float coord[N * 2], out[N * 4];
    for (int i = 0; i < N; i++) coord[2 * i] = (float)(i % W) + 0.5f, coord[2 * i + 1] = (float)(i / W) + 0.5f;
    cl_mem cb = buffer(sizeof coord, coord), ob = buffer(sizeof out, NULL);
    cl_sampler s = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &e);
    sample_kernel(p, "sample2d", view, s, cb, ob, N, out, sizeof out);
    for (int i = 0; i < N * 4; i++) {
        float want = (float)(i % 4 == 3 ? bytes[i] / 255.0 : srgb_decode(bytes[i]));
        if (out[i] != want) {
            fprintf(stderr, "%s sRGB view %d: got %.9g, expected %.9g\n", opt, i, out[i], want);
            failures++;
        }
    }
    /* CL_DEPTH view of CL_R FLOAT; the parent written by the host after the view was made */
    float depth[W * H], dout[2 * N];
    for (int i = 0; i < W * H; i++) depth[i] = 0.25f * (float)i - 3.0f;
    cl_mem r = image2d(CL_R, CL_FLOAT, W, H, NULL);
    cl_image_format df = { CL_DEPTH, CL_FLOAT };
    vd.mem_object = r;
    cl_mem dv = clCreateImage(ctx, CL_MEM_READ_ONLY, &df, &vd, NULL, &e);
    OK(e);
    OK(clEnqueueWriteImage(q, r, CL_TRUE, (size_t[3]){ 0, 0, 0 }, (size_t[3]){ W, H, 1 }, 0, 0, depth, 0, NULL, NULL));
    cl_mem dob = buffer(sizeof dout, NULL);
    sample_kernel(dp, "depth_read", dv, s, cb, dob, N, dout, sizeof dout);
    for (int i = 0; i < N; i++) EXPECT(dout[2 * i] == depth[i] && dout[2 * i + 1] == depth[i]);
    /* refused: incompatible orders or types, another size, a 3D or non-2D parent */
    cl_image_format rf = { CL_sRGBA, CL_UNORM_INT8 };
    EXPECT(!clCreateImage(ctx, CL_MEM_READ_ONLY, &rf, &vd, NULL, &e) && e == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    cl_image_format d16 = { CL_DEPTH, CL_UNORM_INT16 };
    EXPECT(!clCreateImage(ctx, CL_MEM_READ_ONLY, &d16, &vd, NULL, &e) && e == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    vd.image_width = W / 2;
    EXPECT(!clCreateImage(ctx, CL_MEM_READ_ONLY, &df, &vd, NULL, &e) && e == CL_INVALID_IMAGE_DESCRIPTOR);
    clReleaseSampler(s);
    clReleaseMemObject(dv), clReleaseMemObject(r), clReleaseMemObject(dob);
    clReleaseMemObject(view), clReleaseMemObject(rgba), clReleaseMemObject(cb), clReleaseMemObject(ob);
}

int main(void)
{
    cl_platform_id plat;
    cl_int e;
    if (clGetPlatformIDs(1, &plat, NULL) || clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL)) {
        fprintf(stderr, "no OpenCL platform\n");
        return 1;
    }
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    q = clCreateCommandQueue(ctx, dev, 0, &e);
    depth_srgb_lists();
    const char *opts[] = { "-O0", "-O3" };
    for (int o = 0; o < 2; o++) {
        cl_program p = program(opts[o]);
        sampling(p, opts[o]);
        npot_width(p, opts[o]);
        constant_sampler(p, opts[o]);
        integer_loads(p, opts[o]);
        volume(p, opts[o]);
        border_1d(p, opts[o]);
        stores(p, opts[o]);
        srgb_images(p, opts[o]);
        cl_program dp = program_of(depth_src, opts[o]);
        depth_images(dp, opts[o]);
        image_views(p, dp, opts[o]);
        clReleaseProgram(dp);
        clReleaseProgram(p);
    }
    clReleaseCommandQueue(q), clReleaseContext(ctx);
    printf("%s\n", failures ? "FAIL" : "ok");
    return failures != 0;
}
