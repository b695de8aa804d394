/* The OpenCL image kernel (images.cl): descriptors built here with umbra's T#/S# encoder
 * (src/mem/amd_image.h) in the layout ROCr gives the device library: 8 dwords of T#, then
 * dword 8 = channel data type, 9 = channel order (HSA enums), 10 = width; samplers are 4 dwords
 * of S#. References: plain C (8-bit UNORM -> b / 255, bilinear weights of 8 fractional bits). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "mem/amd_image.h"
#include "umbra/device.h"

enum { W = 16, H = 8, PITCH = 64, SLICES = 3 };
/* HSA (= OpenCL - 0x10D0 / 0x10B0) enums */
enum { HSA_UNORM_INT8 = 2, HSA_SIGNED_INT32 = 10, HSA_UNSIGNED_INT32 = 13, HSA_FLOAT = 15, HSA_ORDER_RGBA = 8, HSA_ORDER_R = 1 };

static uint64_t dev_alloc(tctx *t, const void *data, size_t size)
{
    uint64_t a = 0;
    if (umb_mem_alloc(t->dev, size, 256, &a) != UMB_OK) { fprintf(stderr, "image allocation failed\n"); exit(1); }
    if (data && umb_mem_copy_to_device(t->dev, a, data, size) != UMB_OK) { fprintf(stderr, "image copy failed\n"); exit(1); }
    tc_track(t, a, size);
    return a;
}

/* The image argument: T# + ROCr's metadata dwords. */
static uint64_t image_arg(tctx *t, const amd_tsharp *d, uint32_t dtype, uint32_t order)
{
    uint32_t desc[12] = { 0 };
    amd_tsharp_encode(d, desc);
    desc[8] = dtype;
    desc[9] = order;
    desc[10] = d->width;
    return tc_arg_buf(t, desc, sizeof desc);
}

static amd_tsharp tsharp(uint64_t base, unsigned type, unsigned fmt, uint32_t w, uint32_t h)
{
    amd_tsharp d;
    memset(&d, 0, sizeof d);
    d.base = base;
    d.type = (uint8_t)type;
    d.format = (uint8_t)fmt;
    d.width = w;
    d.height = h;
    for (unsigned c = 0; c < 4; c++) d.dst_sel[c] = (uint8_t)(4 + c);
    return d;
}

static uint8_t px(int x, int y, int c) { return (uint8_t)(x * 13 + y * 29 + c * 61 + 7); }
static float unorm8(uint8_t b) { return (float)b / 255.0f; }
static float texf(int x, int y, int c)
{
    x = x < 0 ? 0 : x > W - 1 ? W - 1 : x;
    y = y < 0 ? 0 : y > H - 1 ? H - 1 : y;
    return unorm8(px(x, y, c));
}

static void images(tctx *t)
{
    uint8_t *src = tc_alloc(PITCH * H * 4);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int c = 0; c < 4; c++) src[(y * PITCH + x) * 4 + c] = px(x, y, c);
    int32_t *arr = tc_alloc(PITCH * H * SLICES * 4);
    for (int s = 0; s < SLICES; s++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) arr[(s * H + y) * PITCH + x] = s * 1000 - y * 100 + x;   /* 32_SINT, pitch of the linear layout */
    uint32_t *cnt = tc_alloc(PITCH * H * 4);
    for (int i = 0; i < PITCH * H; i++) cnt[i] = 5000u + (uint32_t)i;

    uint64_t dsrc = dev_alloc(t, src, PITCH * H * 4), ddst = dev_alloc(t, NULL, PITCH * H * 16);
    uint64_t darr = dev_alloc(t, arr, PITCH * H * SLICES * 4), dcnt = dev_alloc(t, cnt, PITCH * H * 4);
    amd_tsharp ts = tsharp(dsrc, AMD_IMG_2D, 42 /* 8_8_8_8_UNORM */, W, H);
    amd_tsharp_set_pitch(&ts, PITCH);
    amd_tsharp td = tsharp(ddst, AMD_IMG_2D, 63 /* 32_32_32_32_FLOAT */, W, H);
    amd_tsharp_set_pitch(&td, PITCH);
    amd_tsharp ta = tsharp(darr, AMD_IMG_2D_ARRAY, 21 /* 32_SINT */, W, H);
    ta.depth = SLICES - 1;
    amd_tsharp tn = tsharp(dcnt, AMD_IMG_2D, 20 /* 32_UINT */, W, H);
    amd_tsharp_set_pitch(&tn, PITCH);
    tn.dst_sel[1] = tn.dst_sel[2] = 0;
    tn.dst_sel[3] = 1;
    amd_ssharp s;
    memset(&s, 0, sizeof s);
    s.clamp_x = s.clamp_y = s.clamp_z = AMD_TEX_CLAMP_LAST_TEXEL;
    s.xy_mag_filter = s.xy_min_filter = AMD_TEX_XY_BILINEAR;
    s.max_lod = 0xfff;
    uint32_t sw[4];
    amd_ssharp_encode(&s, sw);

    image_arg(t, &ts, HSA_UNORM_INT8, HSA_ORDER_RGBA);
    image_arg(t, &td, HSA_FLOAT, HSA_ORDER_RGBA);
    tc_arg_buf(t, sw, sizeof sw);
    image_arg(t, &ta, HSA_SIGNED_INT32, HSA_ORDER_R);
    image_arg(t, &tn, HSA_UNSIGNED_INT32, HSA_ORDER_R);
    uint64_t dout = tc_arg_buf(t, NULL, W * H * 4 * 16), dinfo = tc_arg_buf(t, NULL, 8 * 4);
    if (tc_launch(t, 2, W, H, 1, 8, 4, 1)) {
        float *got = tc_alloc(W * H * 64), *want = tc_alloc(W * H * 64);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int i = y * W + x;
                for (int c = 0; c < 4; c++) {
                    float v = texf(x, y, c);
                    want[16 * i + c] = v;
                    /* u - 0.5 = x + 0.25 exactly: weights 0.75 / 0.25 (8-bit exact); y at the centre */
                    want[16 * i + 4 + c] = 0.75f * v + 0.25f * texf(x + 1, y, c);
                    want[16 * i + 8 + c] = v;   /* repeat: one period left and two down is the same texel */
                    want[16 * i + 12 + c] = c == 0 ? (float)((i % 3) * 1000 - y * 100 + x) : c == 3 ? 1.0f : 0.0f;
                }
            }
        tc_read(t, dout, got, W * H * 64);
        /* the bilinear sum: exact weights, one rounding per term and sum (2 ulps) */
        tc_check_f32(t, "read_imagef", got, want, W * H * 16, 2);
        float *dst = tc_alloc(PITCH * H * 16), *dwant = tc_alloc(W * H * 16), *dgot = tc_alloc(W * H * 16);
        tc_read(t, ddst, dst, PITCH * H * 16);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int c = 0; c < 4; c++) {
                    dgot[(y * W + x) * 4 + c] = dst[(y * PITCH + x) * 4 + c];
                    dwant[(y * W + x) * 4 + c] = 2.0f * texf(x, y, c);
                }
        tc_check_f32(t, "write_imagef", dgot, dwant, W * H * 4, 0);
        uint32_t *ngot = tc_alloc(PITCH * H * 4), *cg = tc_alloc(W * H * 4), *cw = tc_alloc(W * H * 4);
        tc_read(t, dcnt, ngot, PITCH * H * 4);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                cg[y * W + x] = ngot[y * PITCH + x];
                cw[y * W + x] = 5000u + (uint32_t)(y * PITCH + x) + (uint32_t)(y * W + x);
            }
        tc_check_u32(t, "read_write image", cg, cw, W * H);
        uint32_t info[8], iw[6] = { W, H, 0x10B5 /* CL_RGBA */, 0x10D2 /* CL_UNORM_INT8 */, SLICES, W };
        tc_read(t, dinfo, info, sizeof info);
        tc_check_u32(t, "image queries", info, iw, 6);
        free(got), free(want), free(dst), free(dwant), free(dgot), free(ngot), free(cg), free(cw);
    }
    free(src), free(arr), free(cnt);
}

const tcase tc_cases_image[] = { { "images", images } };
const size_t tc_ncases_image = sizeof tc_cases_image / sizeof tc_cases_image[0];
