/* Images and samplers through the OpenCL API: device limits, formats, creation of every image type
 * and its errors, queries, read/write/copy/fill/map and image <-> buffer copies with expected
 * bytes, samplers; kernels that read and write images (C references) once the build has the MIMG
 * descriptors. One CTest test per case of the table at the end; a case this build cannot run exits 77. */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#define EXPECT_OBJ_ERR(expr, code)                      \
    do {                                                \
        cl_int e_ = 12345;                              \
        void *o_ = (void *)(expr);                      \
        EXPECT_ERR(e_, code);                           \
        EXPECT((o_ != NULL) == ((code) == CL_SUCCESS)); \
        if (o_) clReleaseMemObject((cl_mem)o_);         \
    } while (0)
#define ERR (&e_)

static cl_device_id dev;
static cl_context ctx;
static cl_command_queue q;
static int skipped;

static void setup(void)
{
    cl_platform_id plat;
    cl_int e;
    if (clGetPlatformIDs(1, &plat, NULL) || clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL)) {
        fprintf(stderr, "no OpenCL platform (is OCL_ICD_VENDORS set to umbra.icd?)\n");
        exit(1);
    }
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    if (!e) q = clCreateCommandQueue(ctx, dev, 0, &e);
    if (e) { fprintf(stderr, "context/queue: %d\n", e); exit(1); }
}

static cl_mem image(cl_mem_object_type t, cl_channel_order o, cl_channel_type ty, size_t w, size_t h, size_t d,
                    size_t a, cl_mem_flags f, void *host)
{
    cl_image_format fmt = { o, ty };
    cl_image_desc desc = { .image_type = t, .image_width = w, .image_height = h, .image_depth = d,
                           .image_array_size = a };
    cl_int e;
    cl_mem m = clCreateImage(ctx, f, &fmt, &desc, host, &e);
    if (e) fprintf(stderr, "clCreateImage: %d\n", e), failures++;
    return m;
}

static size_t image_info(cl_mem m, cl_image_info p)
{
    size_t v = 12345;
    OK(clGetImageInfo(m, p, sizeof v, &v, NULL));
    return v;
}

/* ---------------- the device ---------------- */

static size_t dev_size(cl_device_info p)
{
    size_t v = 0;
    OK(clGetDeviceInfo(dev, p, sizeof v, &v, NULL));
    return v;
}

static cl_uint dev_uint(cl_device_info p)
{
    cl_uint v = 0;
    OK(clGetDeviceInfo(dev, p, sizeof v, &v, NULL));
    return v;
}

/* ROCm's figures for a gfx1100 (each above OpenCL 1.2's minimum, given in the comment). */
static void device_limits(void)
{
    cl_bool b = CL_FALSE;
    OK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof b, &b, NULL));
    EXPECT(b == CL_TRUE);
    EXPECT(dev_size(CL_DEVICE_IMAGE2D_MAX_WIDTH) == 16384);    /* 8192 */
    EXPECT(dev_size(CL_DEVICE_IMAGE2D_MAX_HEIGHT) == 16384);   /* 8192 */
    EXPECT(dev_size(CL_DEVICE_IMAGE3D_MAX_WIDTH) == 16384);    /* 2048 */
    EXPECT(dev_size(CL_DEVICE_IMAGE3D_MAX_HEIGHT) == 16384);   /* 2048 */
    EXPECT(dev_size(CL_DEVICE_IMAGE3D_MAX_DEPTH) == 8192);     /* 2048 */
    EXPECT(dev_size(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) == 134217728);   /* 65536 */
    EXPECT(dev_size(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) == 8192);  /* 2048 */
    EXPECT(dev_uint(CL_DEVICE_MAX_READ_IMAGE_ARGS) == 128);    /* 128 */
    EXPECT(dev_uint(CL_DEVICE_MAX_WRITE_IMAGE_ARGS) == 8);     /* 8 */
    EXPECT(dev_uint(CL_DEVICE_MAX_SAMPLERS) == 16);            /* 16 */
}

/* ---------------- formats ---------------- */

static bool has_format(const cl_image_format *f, cl_uint n, cl_channel_order o, cl_channel_type t)
{
    for (cl_uint i = 0; i < n; i++)
        if (f[i].image_channel_order == o && f[i].image_channel_data_type == t) return true;
    return false;
}

static void formats(void)
{
    static const cl_mem_object_type types[] = {
        CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
        CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D,
    };
    /* OpenCL 1.2 table 5.8: the formats every device with images supports. */
    static const cl_channel_type rgba[] = {
        CL_UNORM_INT8, CL_UNORM_INT16, CL_SIGNED_INT8, CL_SIGNED_INT16, CL_SIGNED_INT32, CL_UNSIGNED_INT8,
        CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT,
    };
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
        cl_uint n = 0;
        OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, types[t], 0, NULL, &n));
        /* ROCm's 81, and CL_DEPTH (UNORM_INT16, FLOAT) for 2D images and 2D arrays; CL_sRGBA is
         * listed for reading only (image_kernel_test.c) */
        bool two_d = types[t] == CL_MEM_OBJECT_IMAGE2D || types[t] == CL_MEM_OBJECT_IMAGE2D_ARRAY;
        EXPECT(n == (two_d ? 83u : 81u));
        cl_image_format f[128];
        OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, types[t], 128, f, NULL));
        for (size_t i = 0; i < sizeof rgba / sizeof *rgba; i++) EXPECT(has_format(f, n, CL_RGBA, rgba[i]));
        EXPECT(has_format(f, n, CL_BGRA, CL_UNORM_INT8));
        EXPECT(has_format(f, n, CL_R, CL_FLOAT) && has_format(f, n, CL_RG, CL_HALF_FLOAT));
        EXPECT(has_format(f, n, CL_INTENSITY, CL_UNORM_INT8) && has_format(f, n, CL_RGB, CL_UNORM_INT_101010));
        EXPECT(!has_format(f, n, CL_RGB, CL_UNORM_SHORT_565));   /* no hardware format umbra executes */
        EXPECT(!has_format(f, n, CL_RGB, CL_UNORM_INT8));   /* 3-byte pixels: no hardware format */
    }
    cl_image_format two[2] = { { 0, 0 }, { 0, 0 } };
    OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 1, two, NULL));
    EXPECT(two[0].image_channel_order != 0 && two[1].image_channel_order == 0);   /* only as many as asked */
    cl_uint n;
    EXPECT_ERR(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0, NULL, &n), CL_INVALID_VALUE);
    EXPECT_ERR(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, two, &n), CL_INVALID_VALUE);
    EXPECT_ERR(clGetSupportedImageFormats(NULL, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
               CL_INVALID_CONTEXT);
}

/* ---------------- creation ---------------- */

static void create_errors(void)
{
    cl_image_format fmt = { CL_RGBA, CL_UNORM_INT8 };
    cl_image_desc d2 = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 16, .image_height = 8 };
    uint8_t host[16 * 8 * 4];
    EXPECT_OBJ_ERR(clCreateImage(NULL, 0, &fmt, &d2, NULL, ERR), CL_INVALID_CONTEXT);
    EXPECT_OBJ_ERR(clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &fmt, &d2, NULL, ERR), CL_INVALID_VALUE);
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, NULL, &d2, NULL, ERR), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    cl_image_format bad = { 0x1234, CL_UNORM_INT8 };
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &bad, &d2, NULL, ERR), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    cl_image_format bgra16 = { CL_BGRA, CL_UNORM_INT16 };   /* BGRA is 8-bit only */
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &bgra16, &d2, NULL, ERR), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    cl_image_format lum_int = { CL_LUMINANCE, CL_SIGNED_INT8 };
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &lum_int, &d2, NULL, ERR), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    cl_image_format rgb8 = { CL_RGB, CL_UNORM_INT8 };
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &rgb8, &d2, NULL, ERR), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    cl_image_format rx = { CL_Rx, CL_FLOAT };   /* valid, not offered */
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &rx, &d2, NULL, ERR), CL_IMAGE_FORMAT_NOT_SUPPORTED);
    cl_image_format r565 = { CL_RGB, CL_UNORM_SHORT_565 };
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &r565, &d2, NULL, ERR), CL_IMAGE_FORMAT_NOT_SUPPORTED);
    cl_image_format srgb = { CL_sRGBA, CL_UNORM_INT8 };   /* offered for reading only */
    EXPECT_OBJ_ERR(clCreateImage(ctx, CL_MEM_READ_WRITE, &srgb, &d2, NULL, ERR), CL_IMAGE_FORMAT_NOT_SUPPORTED);
    cl_image_format sbgra = { CL_sBGRA, CL_UNORM_INT8 };   /* valid, not offered */
    EXPECT_OBJ_ERR(clCreateImage(ctx, CL_MEM_READ_ONLY, &sbgra, &d2, NULL, ERR), CL_IMAGE_FORMAT_NOT_SUPPORTED);
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, NULL, NULL, ERR), CL_INVALID_IMAGE_DESCRIPTOR);
    cl_image_desc d = d2;
    d.image_type = CL_MEM_OBJECT_BUFFER;
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_DESCRIPTOR);
    d = d2, d.num_mip_levels = 2;
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_DESCRIPTOR);
    d = d2, d.image_width = 0;
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_SIZE);
    d = d2, d.image_width = 16385;
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_SIZE);
    d = (cl_image_desc){ .image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 4, .image_height = 4, .image_depth = 8193 };
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_SIZE);
    d = (cl_image_desc){ .image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = 4, .image_height = 4 };
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_SIZE);   /* array size 0 */
    EXPECT_OBJ_ERR(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &fmt, &d2, NULL, ERR), CL_INVALID_HOST_PTR);
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d2, host, ERR), CL_INVALID_HOST_PTR);
    d = d2, d.image_row_pitch = 64;   /* a pitch without host memory */
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_DESCRIPTOR);
    d = d2, d.image_row_pitch = 60;   /* below width * 4 */
    EXPECT_OBJ_ERR(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &fmt, &d, host, ERR), CL_INVALID_IMAGE_DESCRIPTOR);
    d = d2, d.image_row_pitch = 66;   /* not a multiple of the pixel */
    EXPECT_OBJ_ERR(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &fmt, &d, host, ERR), CL_INVALID_IMAGE_DESCRIPTOR);
    /* 1D buffer images: the buffer is required, must be a buffer and large enough. */
    cl_int e;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256, NULL, &e);
    d = (cl_image_desc){ .image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 64 };
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_DESCRIPTOR);
    d.buffer = buf, d.image_width = 65;
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_SIZE);
    d.image_width = 64;
    EXPECT_OBJ_ERR(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &fmt, &d, host, ERR), CL_INVALID_VALUE);
    /* a 2D image from a buffer (cl_khr_image2d_from_buffer): its pitch, 0 here, so width * 4, must
     * be a multiple of 256 pixels (image_rw_test.c checks the rest) */
    d = d2, d.buffer = buf;
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    d = d2, d.image_type = CL_MEM_OBJECT_IMAGE3D, d.image_depth = 2, d.buffer = buf;   /* other types: none */
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_DESCRIPTOR);
    EXPECT_OBJ_ERR(clCreateImage3D(ctx, 0, &fmt, 4, 4, 1, 0, 0, NULL, ERR), CL_INVALID_IMAGE_SIZE);
    cl_mem img = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 4, 4, 0, 0, 0, NULL);
    cl_buffer_region r = { 0, 16 };
    EXPECT_OBJ_ERR(clCreateSubBuffer(img, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, ERR), CL_INVALID_MEM_OBJECT);
    d = (cl_image_desc){ .image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 4, .buffer = img };
    EXPECT_OBJ_ERR(clCreateImage(ctx, 0, &fmt, &d, NULL, ERR), CL_INVALID_IMAGE_DESCRIPTOR);
    clReleaseMemObject(img), clReleaseMemObject(buf);
}

/* Every type: its queries, and host memory copied in with given pitches reads back. */
static void create_types(void)
{
    uint8_t host[8 * 4 * 3 * 4 * 2];
    for (size_t i = 0; i < sizeof host; i++) host[i] = (uint8_t)(i * 7 + 1);
    struct { cl_mem_object_type t; size_t w, h, d, a, height_q, depth_q, array_q; } cases[] = {
        { CL_MEM_OBJECT_IMAGE1D, 8, 0, 0, 0, 0, 0, 0 },
        { CL_MEM_OBJECT_IMAGE1D_ARRAY, 8, 0, 0, 3, 0, 0, 3 },
        { CL_MEM_OBJECT_IMAGE2D, 8, 4, 0, 0, 4, 0, 0 },
        { CL_MEM_OBJECT_IMAGE2D_ARRAY, 8, 4, 0, 3, 4, 0, 3 },
        { CL_MEM_OBJECT_IMAGE3D, 8, 4, 3, 0, 4, 3, 0 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        cl_image_format fmt = { CL_RGBA, CL_UNSIGNED_INT8 };
        /* host rows of 40 bytes (8 pixels + 8 bytes), slices of 2 rows more than needed */
        size_t row = 40, rows = cases[k].t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : cases[k].h ? cases[k].h : 1;
        bool sliced = cases[k].t != CL_MEM_OBJECT_IMAGE1D && cases[k].t != CL_MEM_OBJECT_IMAGE2D;
        size_t slice = sliced ? row * (rows + 1) : 0;
        cl_image_desc d = { .image_type = cases[k].t, .image_width = cases[k].w, .image_height = cases[k].h,
                            .image_depth = cases[k].d, .image_array_size = cases[k].a, .image_row_pitch = row,
                            .image_slice_pitch = slice };
        cl_int e;
        cl_mem m = clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &fmt, &d, host, &e);
        EXPECT_ERR(e, CL_SUCCESS);
        if (!m) continue;
        cl_mem_object_type t;
        OK(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, NULL));
        EXPECT(t == cases[k].t);
        EXPECT(image_info(m, CL_IMAGE_WIDTH) == 8);
        EXPECT(image_info(m, CL_IMAGE_HEIGHT) == cases[k].height_q);
        EXPECT(image_info(m, CL_IMAGE_DEPTH) == cases[k].depth_q);
        EXPECT(image_info(m, CL_IMAGE_ARRAY_SIZE) == cases[k].array_q);
        EXPECT(image_info(m, CL_IMAGE_ELEMENT_SIZE) == 4);
        EXPECT(image_info(m, CL_IMAGE_ROW_PITCH) == 256);   /* device rows: 256-byte aligned */
        cl_image_format f;
        OK(clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof f, &f, NULL));
        EXPECT(f.image_channel_order == CL_RGBA && f.image_channel_data_type == CL_UNSIGNED_INT8);
        /* read back packed and compare with the host layout */
        size_t layers = cases[k].a ? cases[k].a : cases[k].d ? cases[k].d : 1;
        size_t origin[3] = { 0, 0, 0 };
        size_t region[3] = { 8, cases[k].t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? layers : rows,
                             cases[k].t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : layers };
        uint8_t got[8 * 4 * 4 * 3];
        OK(clEnqueueReadImage(q, m, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL));
        bool same = true;
        for (size_t z = 0; z < layers; z++)
            for (size_t y = 0; y < rows; y++)
                same &= !memcmp(got + (z * rows + y) * 32, host + z * (sliced ? slice : 0) + y * row, 32);
        EXPECT(same);
        clReleaseMemObject(m);
    }
    /* 1D buffer image: the buffer's bytes */
    cl_int e;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 64, host, &e);
    cl_image_format fmt = { CL_R, CL_UNSIGNED_INT32 };
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 16, .buffer = buf };
    cl_mem m = clCreateImage(ctx, 0, &fmt, &d, NULL, &e);
    EXPECT_ERR(e, CL_SUCCESS);
    cl_mem got_buf = NULL;
    OK(clGetImageInfo(m, CL_IMAGE_BUFFER, sizeof got_buf, &got_buf, NULL));
    EXPECT(got_buf == buf);
    OK(clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof got_buf, &got_buf, NULL));
    EXPECT(got_buf == buf);
    cl_mem_flags fl;
    OK(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof fl, &fl, NULL));
    EXPECT(fl == (CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR));   /* inherited, host-pointer flags too */
    uint8_t px[64];
    size_t o[3] = { 2, 0, 0 }, r[3] = { 3, 1, 1 };
    OK(clEnqueueReadImage(q, m, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL));
    EXPECT(!memcmp(px, host + 8, 12));
    uint32_t w = 0xdeadbeef;
    OK(clEnqueueWriteImage(q, m, CL_TRUE, o, (size_t[3]){ 1, 1, 1 }, 0, 0, &w, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 8, 4, px, 0, NULL, NULL));
    EXPECT(!memcmp(px, &w, 4));   /* the buffer sees the image's write */
    clReleaseMemObject(buf);      /* the image keeps it */
    OK(clEnqueueReadImage(q, m, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL));
    EXPECT(!memcmp(px, &w, 4));
    clReleaseMemObject(m);
    /* the 1.1 forms */
    cl_mem m2 = clCreateImage2D(ctx, 0, &(cl_image_format){ CL_RGBA, CL_FLOAT }, 5, 3, 0, NULL, &e);
    EXPECT_ERR(e, CL_SUCCESS);
    EXPECT(image_info(m2, CL_IMAGE_ELEMENT_SIZE) == 16 && image_info(m2, CL_IMAGE_HEIGHT) == 3);
    cl_mem m3 = clCreateImage3D(ctx, 0, &(cl_image_format){ CL_R, CL_HALF_FLOAT }, 5, 3, 2, 0, 0, NULL, &e);
    EXPECT_ERR(e, CL_SUCCESS);
    EXPECT(image_info(m3, CL_IMAGE_DEPTH) == 2 && image_info(m3, CL_IMAGE_SLICE_PITCH) == 256 * 3);
    size_t sz = 0;
    OK(clGetMemObjectInfo(m3, CL_MEM_SIZE, sizeof sz, &sz, NULL));
    EXPECT(sz == 256 * 3 * 2);
    EXPECT_ERR(clGetImageInfo(m3, 0x7777, sizeof sz, &sz, NULL), CL_INVALID_VALUE);
    clReleaseMemObject(m2), clReleaseMemObject(m3);
}

/* ---------------- read, write, copy, fill, map ---------------- */

static void read_write(void)
{
    cl_mem m = image(CL_MEM_OBJECT_IMAGE3D, CL_RG, CL_UNSIGNED_INT16, 10, 6, 4, 0, 0, NULL);
    uint16_t src[10 * 6 * 4 * 2], got[sizeof src / 2];
    for (size_t i = 0; i < sizeof src / 2; i++) src[i] = (uint16_t)(i * 31 + 5);
    size_t all[3] = { 10, 6, 4 }, zero[3] = { 0, 0, 0 };
    OK(clEnqueueWriteImage(q, m, CL_TRUE, zero, all, 0, 0, src, 0, NULL, NULL));
    /* a box with host pitches: rows of 20 bytes (3 pixels used), slices of 3 rows */
    size_t o[3] = { 4, 2, 1 }, r[3] = { 3, 2, 2 };
    uint8_t box[20 * 3 * 2];
    memset(box, 0xee, sizeof box);
    OK(clEnqueueReadImage(q, m, CL_TRUE, o, r, 20, 60, box, 0, NULL, NULL));
    bool same = true;
    for (size_t z = 0; z < 2; z++)
        for (size_t y = 0; y < 2; y++)
            same &= !memcmp(box + z * 60 + y * 20, &src[(((1 + z) * 6 + 2 + y) * 10 + 4) * 2], 12);
    EXPECT(same && box[12] == 0xee);   /* bytes between rows untouched */
    /* a non-blocking write from memory reused at once */
    uint16_t one[2] = { 0xabcd, 0x1234 };
    size_t p[3] = { 9, 5, 3 }, unit[3] = { 1, 1, 1 };
    OK(clEnqueueWriteImage(q, m, CL_FALSE, p, unit, 0, 0, one, 0, NULL, NULL));
    one[0] = 0;
    OK(clFinish(q));
    OK(clEnqueueReadImage(q, m, CL_TRUE, zero, all, 0, 0, got, 0, NULL, NULL));
    src[((3 * 6 + 5) * 10 + 9) * 2] = 0xabcd, src[((3 * 6 + 5) * 10 + 9) * 2 + 1] = 0x1234;
    EXPECT(!memcmp(got, src, sizeof src));
    /* errors */
    size_t out[3] = { 8, 0, 0 }, big[3] = { 3, 1, 1 };
    EXPECT_ERR(clEnqueueReadImage(q, m, CL_TRUE, out, big, 0, 0, got, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueReadImage(q, m, CL_TRUE, zero, (size_t[3]){ 1, 0, 1 }, 0, 0, got, 0, NULL, NULL),
               CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueReadImage(q, m, CL_TRUE, NULL, unit, 0, 0, got, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueReadImage(q, m, CL_TRUE, zero, unit, 0, 0, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueReadImage(q, m, CL_TRUE, zero, (size_t[3]){ 2, 1, 1 }, 4, 0, got, 0, NULL, NULL),
               CL_INVALID_VALUE);   /* row pitch below 2 pixels */
    EXPECT_ERR(clEnqueueReadImage(q, m, CL_TRUE, zero, (size_t[3]){ 1, 2, 1 }, 4, 4, got, 0, NULL, NULL),
               CL_INVALID_VALUE);   /* slice pitch below 2 rows */
    cl_int e;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &e);
    EXPECT_ERR(clEnqueueReadImage(q, buf, CL_TRUE, zero, unit, 0, 0, got, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, got, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clEnqueueReadImage(NULL, m, CL_TRUE, zero, unit, 0, 0, got, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    cl_mem m2 = image(CL_MEM_OBJECT_IMAGE2D, CL_R, CL_FLOAT, 4, 4, 0, 0, 0, NULL);
    EXPECT_ERR(clEnqueueReadImage(q, m2, CL_TRUE, zero, (size_t[3]){ 1, 1, 2 }, 0, 0, got, 0, NULL, NULL),
               CL_INVALID_VALUE);   /* a 2D image has one slice */
    EXPECT_ERR(clEnqueueReadImage(q, m2, CL_TRUE, zero, unit, 0, 16, got, 0, NULL, NULL), CL_INVALID_VALUE);
    cl_mem wo = image(CL_MEM_OBJECT_IMAGE2D, CL_R, CL_FLOAT, 4, 4, 0, 0, CL_MEM_HOST_WRITE_ONLY, NULL);
    EXPECT_ERR(clEnqueueReadImage(q, wo, CL_TRUE, zero, unit, 0, 0, got, 0, NULL, NULL), CL_INVALID_OPERATION);
    cl_mem ro = image(CL_MEM_OBJECT_IMAGE2D, CL_R, CL_FLOAT, 4, 4, 0, 0, CL_MEM_HOST_READ_ONLY, NULL);
    EXPECT_ERR(clEnqueueWriteImage(q, ro, CL_TRUE, zero, unit, 0, 0, got, 0, NULL, NULL), CL_INVALID_OPERATION);
    clReleaseMemObject(m), clReleaseMemObject(m2), clReleaseMemObject(wo), clReleaseMemObject(ro);
    clReleaseMemObject(buf);
}

static void copy(void)
{
    cl_mem a = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 8, 8, 0, 0, 0, NULL);
    cl_mem b = image(CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_UNORM_INT8, 4, 4, 2, 0, 0, NULL);
    uint32_t px[64], got[64];
    for (int i = 0; i < 64; i++) px[i] = 0x01010101u * (uint32_t)i;
    size_t zero[3] = { 0, 0, 0 }, a_all[3] = { 8, 8, 1 };
    OK(clEnqueueWriteImage(q, a, CL_TRUE, zero, a_all, 0, 0, px, 0, NULL, NULL));
    /* a's 3x2 box at (5,6) -> b's slice 1 at (1,2) */
    OK(clEnqueueCopyImage(q, a, b, (size_t[3]){ 5, 6, 0 }, (size_t[3]){ 1, 2, 1 }, (size_t[3]){ 3, 2, 1 }, 0, NULL,
                          NULL));
    OK(clEnqueueReadImage(q, b, CL_TRUE, (size_t[3]){ 1, 2, 1 }, (size_t[3]){ 3, 2, 1 }, 0, 0, got, 0, NULL, NULL));
    EXPECT(got[0] == px[6 * 8 + 5] && got[2] == px[6 * 8 + 7] && got[3] == px[7 * 8 + 5] && got[5] == px[7 * 8 + 7]);
    /* within one image, boxes apart */
    OK(clEnqueueCopyImage(q, a, a, zero, (size_t[3]){ 4, 4, 0 }, (size_t[3]){ 4, 4, 1 }, 0, NULL, NULL));
    OK(clEnqueueReadImage(q, a, CL_TRUE, zero, a_all, 0, 0, got, 0, NULL, NULL));
    EXPECT(got[4 * 8 + 4] == px[0] && got[7 * 8 + 7] == px[3 * 8 + 3] && got[0] == px[0]);
    EXPECT_ERR(clEnqueueCopyImage(q, a, a, zero, (size_t[3]){ 2, 2, 0 }, (size_t[3]){ 4, 4, 1 }, 0, NULL, NULL),
               CL_MEM_COPY_OVERLAP);
    cl_mem c = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_SIGNED_INT8, 8, 8, 0, 0, 0, NULL);
    EXPECT_ERR(clEnqueueCopyImage(q, a, c, zero, zero, (size_t[3]){ 1, 1, 1 }, 0, NULL, NULL), CL_IMAGE_FORMAT_MISMATCH);
    EXPECT_ERR(clEnqueueCopyImage(q, a, b, zero, zero, (size_t[3]){ 5, 1, 1 }, 0, NULL, NULL), CL_INVALID_VALUE);
    /* image <-> buffer */
    cl_int e;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256, NULL, &e);
    OK(clEnqueueCopyImageToBuffer(q, a, buf, (size_t[3]){ 1, 1, 0 }, (size_t[3]){ 2, 3, 1 }, 8, 0, NULL, NULL));
    uint32_t lin[8];
    OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 8, 24, lin, 0, NULL, NULL));
    EXPECT(lin[0] == got[9] && lin[1] == got[10] && lin[2] == got[17] && lin[5] == got[26]);
    uint32_t fresh[4] = { 0x11111111, 0x22222222, 0x33333333, 0x44444444 };
    OK(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, 16, fresh, 0, NULL, NULL));
    OK(clEnqueueCopyBufferToImage(q, buf, b, 0, (size_t[3]){ 2, 2, 0 }, (size_t[3]){ 2, 1, 2 }, 0, NULL, NULL));
    uint32_t b2[2];
    OK(clEnqueueReadImage(q, b, CL_TRUE, (size_t[3]){ 2, 2, 1 }, (size_t[3]){ 2, 1, 1 }, 0, 0, b2, 0, NULL, NULL));
    EXPECT(b2[0] == fresh[2] && b2[1] == fresh[3]);
    EXPECT_ERR(clEnqueueCopyImageToBuffer(q, a, buf, zero, (size_t[3]){ 8, 8, 1 }, 4, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueCopyBufferToImage(q, buf, b, 250, zero, (size_t[3]){ 2, 1, 1 }, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueCopyImageToBuffer(q, buf, buf, zero, (size_t[3]){ 1, 1, 1 }, 0, 0, NULL, NULL),
               CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clEnqueueCopyBufferToImage(q, a, b, 0, zero, (size_t[3]){ 1, 1, 1 }, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clEnqueueCopyBuffer(q, a, buf, 0, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(c), clReleaseMemObject(buf);
}

/* The fill colour converted as OpenCL's rules say: round to nearest even, saturate. */
static void fill(void)
{
    size_t zero[3] = { 0, 0, 0 }, two[3] = { 2, 1, 1 };
    struct { cl_channel_order o; cl_channel_type t; float f[4]; int32_t i[4]; size_t bytes; uint8_t want[16]; } c[] = {
        { CL_RGBA, CL_UNORM_INT8, { 0.5f, 1.5f, -1.0f, 0.25f }, { 0 }, 4, { 128, 255, 0, 64 } },
        { CL_BGRA, CL_UNORM_INT8, { 1.0f, 0.0f, 0.2f, 0.6f }, { 0 }, 4, { 51, 0, 255, 153 } },
        { CL_RGBA, CL_SNORM_INT8, { -2.0f, 0.5f, -0.5f, 1.0f }, { 0 }, 4, { 0x81, 64, 0xc0, 127 } },
        { CL_R, CL_UNORM_INT16, { 0.5f, 0, 0, 0 }, { 0 }, 2, { 0x00, 0x80 } },
        { CL_RG, CL_HALF_FLOAT, { 1.0f, -2.5f, 0, 0 }, { 0 }, 4, { 0x00, 0x3c, 0x00, 0xc1 } },
        { CL_A, CL_FLOAT, { 1.0f, 2.0f, 3.0f, 0.75f }, { 0 }, 4, { 0x00, 0x00, 0x40, 0x3f } },
        { CL_RGB, CL_UNORM_INT_101010, { 1.0f, 0.0f, 1.0f, 0.0f }, { 0 }, 4, { 0xff, 0x03, 0xf0, 0x3f } },
        { CL_RGBA, CL_SIGNED_INT8, { 0 }, { -300, 5, 127, 200 }, 4, { 0x80, 5, 127, 127 } },
        { CL_RA, CL_UNSIGNED_INT16, { 0 }, { 70000, 2, 3, 9 }, 4, { 0xff, 0xff, 9, 0 } },
        { CL_R, CL_SIGNED_INT32, { 0 }, { -7, 0, 0, 0 }, 4, { 0xf9, 0xff, 0xff, 0xff } },
    };
    for (size_t k = 0; k < sizeof c / sizeof *c; k++) {
        cl_mem m = image(CL_MEM_OBJECT_IMAGE2D, c[k].o, c[k].t, 3, 2, 0, 0, 0, NULL);
        bool integer = c[k].t == CL_SIGNED_INT8 || c[k].t == CL_UNSIGNED_INT16 || c[k].t == CL_SIGNED_INT32;
        OK(clEnqueueFillImage(q, m, integer ? (const void *)c[k].i : (const void *)c[k].f, (size_t[3]){ 1, 1, 0 }, two,
                              0, NULL, NULL));
        uint8_t got[3 * 2 * 16];
        memset(got, 0x5a, sizeof got);
        OK(clEnqueueReadImage(q, m, CL_TRUE, (size_t[3]){ 1, 1, 0 }, two, 0, 0, got, 0, NULL, NULL));
        bool ok = !memcmp(got, c[k].want, c[k].bytes) && !memcmp(got + c[k].bytes, c[k].want, c[k].bytes);
        if (!ok) fprintf(stderr, "fill case %zu: got %02x %02x %02x %02x\n", k, got[0], got[1], got[2], got[3]);
        EXPECT(ok);
        clReleaseMemObject(m);
    }
    cl_mem m = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 3, 2, 0, 0, 0, NULL);
    float col[4] = { 1, 2, 3, 4 };
    EXPECT_ERR(clEnqueueFillImage(q, m, NULL, zero, two, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueFillImage(q, m, col, zero, (size_t[3]){ 4, 1, 1 }, 0, NULL, NULL), CL_INVALID_VALUE);
    clReleaseMemObject(m);
}

static void map(void)
{
    size_t zero[3] = { 0, 0, 0 };
    /* a device image: a packed copy of the box */
    cl_mem m = image(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_R, CL_UNSIGNED_INT8, 6, 4, 0, 3, 0, NULL);
    uint8_t src[6 * 4 * 3];
    for (int i = 0; i < 72; i++) src[i] = (uint8_t)i;
    OK(clEnqueueWriteImage(q, m, CL_TRUE, zero, (size_t[3]){ 6, 4, 3 }, 0, 0, src, 0, NULL, NULL));
    size_t row = 0, slice = 0;
    cl_int e;
    uint8_t *p = clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, (size_t[3]){ 1, 1, 1 },
                                   (size_t[3]){ 3, 2, 2 }, &row, &slice, 0, NULL, NULL, &e);
    EXPECT_ERR(e, CL_SUCCESS);
    EXPECT(row >= 3 && slice >= 2 * row);
    cl_uint count = 0;
    OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    EXPECT(count == 1);
    if (p) {
        EXPECT(p[0] == src[24 + 6 + 1] && p[row + 2] == src[24 + 12 + 3] && p[slice] == src[48 + 6 + 1]);
        p[slice + row + 2] = 200;   /* pixel (3, 2) of slice 2 */
        OK(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
    }
    uint8_t got[72];
    OK(clEnqueueReadImage(q, m, CL_TRUE, zero, (size_t[3]){ 6, 4, 3 }, 0, 0, got, 0, NULL, NULL));
    src[48 + 12 + 3] = 200;
    EXPECT(!memcmp(got, src, 72));
    EXPECT_OBJ_ERR(clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_READ, zero, (size_t[3]){ 1, 1, 1 }, &row, NULL, 0, NULL,
                                     NULL, ERR), CL_INVALID_VALUE);   /* arrays need the slice pitch */
    EXPECT_OBJ_ERR(clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_READ, zero, (size_t[3]){ 7, 1, 1 }, &row, &slice, 0,
                                     NULL, NULL, ERR), CL_INVALID_VALUE);
    clReleaseMemObject(m);
    /* CL_MEM_USE_HOST_PTR: the map is the host memory; kernels' and commands' results land there */
    uint32_t host[4 * 5];   /* rows of 5 pixels, 4 used */
    for (int i = 0; i < 20; i++) host[i] = (uint32_t)i;
    cl_image_format fmt = { CL_R, CL_UNSIGNED_INT32 };
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4,
                        .image_row_pitch = 20 };
    cl_mem u = clCreateImage(ctx, CL_MEM_USE_HOST_PTR, &fmt, &d, host, &e);
    EXPECT_ERR(e, CL_SUCCESS);
    uint32_t *hp = clEnqueueMapImage(q, u, CL_TRUE, CL_MAP_WRITE, (size_t[3]){ 1, 2, 0 }, (size_t[3]){ 2, 1, 1 },
                                     &row, NULL, 0, NULL, NULL, &e);
    EXPECT_ERR(e, CL_SUCCESS);
    EXPECT(hp == &host[2 * 5 + 1] && row == 20);
    if (hp) {
        hp[0] = 777;
        OK(clEnqueueUnmapMemObject(q, u, hp, 0, NULL, NULL));
    }
    uint32_t v = 0;
    OK(clEnqueueReadImage(q, u, CL_TRUE, (size_t[3]){ 1, 2, 0 }, (size_t[3]){ 1, 1, 1 }, 0, 0, &v, 0, NULL, NULL));
    EXPECT(v == 777);
    uint32_t fillv[4] = { 99, 0, 0, 0 };
    OK(clEnqueueFillImage(q, u, fillv, (size_t[3]){ 3, 3, 0 }, (size_t[3]){ 1, 1, 1 }, 0, NULL, NULL));
    OK(clFinish(q));
    EXPECT(host[3 * 5 + 3] == 99 && host[3 * 5 + 4] == 19);   /* the padding pixel untouched */
    clReleaseMemObject(u);
}

/* ---------------- samplers ---------------- */

static void samplers(void)
{
    cl_int e;
    cl_sampler s = clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &e);
    EXPECT_ERR(e, CL_SUCCESS);
    cl_bool norm = CL_FALSE;
    cl_addressing_mode am = 0;
    cl_filter_mode fm = 0;
    cl_uint refs = 0;
    cl_context c = NULL;
    OK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
    OK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
    OK(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL));
    OK(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof c, &c, NULL));
    EXPECT(norm == CL_TRUE && am == CL_ADDRESS_REPEAT && fm == CL_FILTER_LINEAR && c == ctx);
    OK(clRetainSampler(s));
    OK(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    EXPECT(refs == 2);
    EXPECT_ERR(clGetSamplerInfo(s, 0x7777, sizeof refs, &refs, NULL), CL_INVALID_VALUE);
    OK(clReleaseSampler(s));
    OK(clReleaseSampler(s));
    EXPECT_ERR(clReleaseSampler(s), CL_INVALID_SAMPLER);
    EXPECT_ERR(clRetainSampler(NULL), CL_INVALID_SAMPLER);
    EXPECT_ERR(clGetSamplerInfo(NULL, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_INVALID_SAMPLER);
    /* repeat modes need normalized coordinates; unknown values */
    EXPECT(!clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &e) && e == CL_INVALID_VALUE);
    EXPECT(!clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST, &e) && e == CL_INVALID_VALUE);
    EXPECT(!clCreateSampler(ctx, CL_TRUE, 0x7777, CL_FILTER_NEAREST, &e) && e == CL_INVALID_VALUE);
    EXPECT(!clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x7777, &e) && e == CL_INVALID_VALUE);
    EXPECT(!clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &e) && e == CL_INVALID_CONTEXT);
    /* the 2.0 form: defaults normalized, clamp, nearest */
    cl_sampler_properties props[] = { CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0 };
    s = clCreateSamplerWithProperties(ctx, props, &e);
    EXPECT_ERR(e, CL_SUCCESS);
    OK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
    OK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
    EXPECT(norm == CL_TRUE && am == CL_ADDRESS_CLAMP);
    clReleaseSampler(s);
    cl_sampler_properties badp[] = { 0x7777, 1, 0 };
    EXPECT(!clCreateSamplerWithProperties(ctx, badp, &e) && e == CL_INVALID_VALUE);
}

/* ---------------- kernels ---------------- */

static cl_kernel kernel(const char *src, const char *name, const char *options)
{
    cl_int e;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    if (!e) e = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    if (e) {
        char log[8192] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build: %d\n%s\n", e, log);
        failures++;
        return NULL;
    }
    cl_kernel k = clCreateKernel(p, name, &e);
    clReleaseProgram(p);
    return k;
}

/* The image queries a kernel makes read the descriptor's T# fields and metadata words (scalar
 * loads, no image instruction): at -O0 and -O3. */
static void kernel_queries(void)
{
    static const char *src =
        "__kernel void q(__read_only image2d_t a, __write_only image3d_t b, __read_only image2d_array_t c,\n"
        "                __read_only image1d_t d, sampler_t s, __global int *out) {\n"
        "  out[0] = get_image_width(a); out[1] = get_image_height(a);\n"
        "  out[2] = get_image_channel_data_type(a); out[3] = get_image_channel_order(a);\n"
        "  out[4] = get_image_width(b); out[5] = get_image_height(b); out[6] = get_image_depth(b);\n"
        "  out[7] = get_image_channel_data_type(b); out[8] = get_image_channel_order(b);\n"
        "  out[9] = get_image_width(c); out[10] = get_image_height(c); out[11] = (int)get_image_array_size(c);\n"
        "  out[12] = get_image_channel_order(c); out[13] = get_image_width(d);\n"
        "  out[14] = get_image_channel_data_type(d); out[15] = get_image_channel_order(d);\n"
        "}\n";
    for (int opt = 0; opt < 2; opt++) {
        cl_kernel k = kernel(src, "q", opt ? "-O3" : "-O0");
        if (!k) return;
        cl_mem a = image(CL_MEM_OBJECT_IMAGE2D, CL_BGRA, CL_UNORM_INT8, 33, 17, 0, 0, 0, NULL);
        cl_mem b = image(CL_MEM_OBJECT_IMAGE3D, CL_RG, CL_HALF_FLOAT, 9, 8, 7, 0, 0, NULL);
        cl_mem c = image(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_INTENSITY, CL_FLOAT, 5, 4, 0, 6, 0, NULL);
        cl_mem d = image(CL_MEM_OBJECT_IMAGE1D, CL_RGBA, CL_SIGNED_INT16, 1000, 0, 0, 0, 0, NULL);
        cl_int e;
        cl_sampler s = clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &e);
        cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16 * sizeof(int), NULL, &e);
        OK(clSetKernelArg(k, 0, sizeof a, &a));
        OK(clSetKernelArg(k, 1, sizeof b, &b));
        OK(clSetKernelArg(k, 2, sizeof c, &c));
        OK(clSetKernelArg(k, 3, sizeof d, &d));
        OK(clSetKernelArg(k, 4, sizeof s, &s));
        OK(clSetKernelArg(k, 5, sizeof out, &out));
        EXPECT_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_INVALID_MEM_OBJECT);   /* a buffer for an image */
        EXPECT_ERR(clSetKernelArg(k, 5, sizeof a, &a), CL_INVALID_MEM_OBJECT);       /* an image for a buffer */
        EXPECT_ERR(clSetKernelArg(k, 4, sizeof out, &out), CL_INVALID_SAMPLER);
        EXPECT_ERR(clSetKernelArg(k, 4, 4, &s), CL_INVALID_ARG_SIZE);
        cl_kernel_arg_access_qualifier acc[4];
        cl_kernel_arg_address_qualifier as;
        for (int i = 0; i < 4; i++) OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc[i], &acc[i], NULL));
        EXPECT(acc[0] == CL_KERNEL_ARG_ACCESS_READ_ONLY && acc[1] == CL_KERNEL_ARG_ACCESS_WRITE_ONLY &&
               acc[2] == CL_KERNEL_ARG_ACCESS_READ_ONLY && acc[3] == CL_KERNEL_ARG_ACCESS_READ_ONLY);
        OK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof as, &as, NULL));
        EXPECT(as == CL_KERNEL_ARG_ADDRESS_GLOBAL);
        OK(clGetKernelArgInfo(k, 4, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc[0], &acc[0], NULL));
        EXPECT(acc[0] == CL_KERNEL_ARG_ACCESS_NONE);   /* the sampler */
        size_t one = 1;
        OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
        int got[16];
        OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        const int want[16] = { 33, 17, CL_UNORM_INT8, CL_BGRA, 9, 8, 7, CL_HALF_FLOAT, CL_RG, 5, 4, 6, CL_INTENSITY,
                               1000, CL_SIGNED_INT16, CL_RGBA };
        for (int i = 0; i < 16; i++)
            if (got[i] != want[i]) fprintf(stderr, "-O%d query %d: got %#x, expected %#x\n", opt * 3, i, got[i], want[i]),
                                   failures++;
        clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(c), clReleaseMemObject(d);
        clReleaseMemObject(out), clReleaseSampler(s), clReleaseKernel(k);
    }
}

/* A 1D buffer image is read and written with buffer_load/store_format through its V#: the
 * channel conversion and swizzle of the format, the buffer seeing the writes. */
static void kernel_buffer_image(void)
{
    static const char *src =
        "__kernel void k(__read_only image1d_buffer_t a, __write_only image1d_buffer_t b, __global float4 *out) {\n"
        "  int i = get_global_id(0);\n"
        "  out[i] = read_imagef(a, i);\n"
        "  write_imageui(b, i, (uint4)(i * 3, i + 100, 7, 9));\n"
        "}\n";
    enum { N = 40 };
    uint8_t px[N * 4];
    for (int i = 0; i < N * 4; i++) px[i] = (uint8_t)(i * 5 + 1);
    cl_int e;
    cl_mem abuf = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof px, px, &e);
    cl_mem bbuf = clCreateBuffer(ctx, 0, N * 4 * 2, NULL, &e);
    cl_image_format fa = { CL_BGRA, CL_UNORM_INT8 }, fb = { CL_RG, CL_UNSIGNED_INT16 };
    cl_image_desc da = { .image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = N, .buffer = abuf };
    cl_image_desc db = { .image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = N * 2, .buffer = bbuf };
    cl_mem a = clCreateImage(ctx, CL_MEM_READ_ONLY, &fa, &da, NULL, &e);
    cl_mem b = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &fb, &db, NULL, &e);
    cl_mem out = clCreateBuffer(ctx, 0, N * 16, NULL, &e);
    for (int opt = 0; opt < 2; opt++) {
        cl_kernel k = kernel(src, "k", opt ? "-O3" : "-O0");
        if (!k) break;
        OK(clSetKernelArg(k, 0, sizeof a, &a));
        OK(clSetKernelArg(k, 1, sizeof b, &b));
        OK(clSetKernelArg(k, 2, sizeof out, &out));
        size_t n = N;
        OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
        float got[N * 4];
        uint16_t w[N * 2 * 2];
        OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        OK(clEnqueueReadBuffer(q, bbuf, CL_TRUE, 0, sizeof w, w, 0, NULL, NULL));
        for (int i = 0; i < N; i++) {
            const uint8_t *p = &px[i * 4];   /* B G R A in memory, R G B A read */
            float want[4] = { p[2] / 255.0f, p[1] / 255.0f, p[0] / 255.0f, p[3] / 255.0f };
            for (int c = 0; c < 4; c++)
                if (fabsf(got[i * 4 + c] - want[c]) > 1e-6f)
                    fprintf(stderr, "-O%d texel %d.%d: %g, expected %g\n", opt * 3, i, c, got[i * 4 + c], want[c]),
                        failures++;
            if (w[i * 2] != i * 3 || w[i * 2 + 1] != i + 100)
                fprintf(stderr, "-O%d written %d: %u %u\n", opt * 3, i, w[i * 2], w[i * 2 + 1]), failures++;
        }
        clReleaseKernel(k);
    }
    clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(abuf), clReleaseMemObject(bbuf);
    clReleaseMemObject(out);
}

/* A kernel with n image arguments of one access qualifier (or n samplers), set and launched: within
 * the device's limit it runs, one over it clEnqueueNDRangeKernel says CL_OUT_OF_RESOURCES
 * (OpenCL 3.0 §5.10: more read-only, write-only or read-write images, or samplers, than
 * CL_DEVICE_MAX_READ_IMAGE_ARGS, _WRITE_IMAGE_ARGS, _READ_WRITE_IMAGE_ARGS, _SAMPLERS). */
static cl_int launch_with_args(const char *qual, cl_uint n)
{
    static char src[65536];
    size_t at = (size_t)snprintf(src, sizeof src, "__kernel void k(__global int *out");
    for (cl_uint i = 0; i < n; i++) {
        if (qual) at += (size_t)snprintf(src + at, sizeof src - at, ", %s image2d_t a%u", qual, i);
        else at += (size_t)snprintf(src + at, sizeof src - at, ", sampler_t a%u", i);
    }
    snprintf(src + at, sizeof src - at, ") { out[0] = %u; }\n", n);
    cl_kernel k = kernel(src, "k", "-cl-std=CL3.0");
    if (!k) return CL_BUILD_PROGRAM_FAILURE;
    cl_int e;
    cl_mem img = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 4, 4, 0, 0, 0, NULL);
    cl_sampler s = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &e);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(int), NULL, &e);
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    for (cl_uint i = 0; i < n; i++) OK(clSetKernelArg(k, i + 1, qual ? sizeof img : sizeof s, qual ? (void *)&img : (void *)&s));
    size_t one = 1;
    cl_int st = clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL);
    if (st == CL_SUCCESS) {
        int got = -1;
        OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL));
        EXPECT(got == (int)n);
    }
    clReleaseMemObject(img), clReleaseMemObject(out), clReleaseSampler(s), clReleaseKernel(k);
    return st;
}

static void arg_limits(void)
{
    static const struct { const char *qual; cl_device_info limit; } kinds[] = {
        { "__read_only", CL_DEVICE_MAX_READ_IMAGE_ARGS }, { "__write_only", CL_DEVICE_MAX_WRITE_IMAGE_ARGS },
        { "__read_write", CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS }, { NULL, CL_DEVICE_MAX_SAMPLERS },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        cl_uint max = dev_uint(kinds[i].limit);
        EXPECT(max >= 8 && max <= 128);
        cl_int at = launch_with_args(kinds[i].qual, max), over = launch_with_args(kinds[i].qual, max + 1);
        if (at != CL_SUCCESS || over != CL_OUT_OF_RESOURCES)
            fprintf(stderr, "%s x %u: %d (expected 0), x %u: %d (expected CL_OUT_OF_RESOURCES)\n",
                    kinds[i].qual ? kinds[i].qual : "sampler_t", max, at, max + 1, over), failures++;
    }
}

typedef struct { const char *name; void (*fn)(void); } test_case;
#define C(fn) { #fn, fn }
static const test_case cases[] = {
    C(device_limits), C(formats), C(create_errors), C(create_types), C(read_write), C(copy), C(fill), C(map),
    C(samplers), C(kernel_queries), C(kernel_buffer_image), C(arg_limits),
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
