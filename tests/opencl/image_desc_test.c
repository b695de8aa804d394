/* The descriptors behind image and sampler kernel arguments (src/platform/plat_image_desc.c).
 *
 * S#: two oracles. ROCr's gfx11 image manager (PopulateSamplerSrd: clamp modes, FORCE_UNNORMALIZED,
 * MAX_LOD 4095, XY filters, transparent-black border, nothing else) gives the words exactly; AMD's
 * device library (ROCm-Device-Libs' __translate_sampler_initializer table for gfx10+ in opencl.bc,
 * what samplers declared in kernels compile to; four dwords per normalized x addressing mode x
 * filter) must agree with it in every field that decides an OpenCL read: word0's clamp and
 * FORCE_UNNORMALIZED bits, word1, word2's filter bits.
 * T#: decoded back with amd_tsharp_decode; the metadata dwords are ockl's (type, order, width). */
#include <stdio.h>
#include <string.h>

#include "mem/amd_format.h"
#include "mem/amd_image.h"
#include "platform/plat_image.h"

static int failures;
#define EXPECT(c) do { if (!(c)) { fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #c); failures++; } } while (0)

int main(void)
{
    /* word0 per addressing mode (none, clamp-to-edge, clamp, repeat, mirrored) x {unnormalized,
     * normalized}; words 1-3 by filter. Values of the device library's table. */
    static const uint32_t word0[5][2] = {
        { 0x1000b1b6, 0x100031b6 }, { 0x1000b092, 0x10003092 }, { 0x1000b1b6, 0x100031b6 },
        { 0x1000b000, 0x10003000 }, { 0x1000b049, 0x10003049 },
    };
    static const plat_address_mode modes[5] = {
        PLAT_ADDRESS_NONE, PLAT_ADDRESS_CLAMP_TO_EDGE, PLAT_ADDRESS_CLAMP, PLAT_ADDRESS_REPEAT,
        PLAT_ADDRESS_MIRRORED_REPEAT,
    };
    for (int a = 0; a < 5; a++)
        for (int n = 0; n < 2; n++)
            for (int lin = 0; lin < 2; lin++) {
                plat_sampler s = { .normalized = n, .address = modes[a], .linear = lin };
                uint32_t w[4];
                EXPECT(plat_sampler_descriptor(&s, w));
                /* the device library's table, and its fields ROCr's runtime sampler also sets */
                uint32_t lib[4] = { word0[a][n], 0x00fff000, lin ? 0x20500000 : 0x20000000, 0x40000000 };
                const uint32_t shared[4] = { 0x000081ff, 0xffffffff, 0x0ff00000, 0 };
                uint32_t want[4];
                for (int k = 0; k < 4; k++) want[k] = lib[k] & shared[k];
                if (memcmp(w, want, sizeof w)) {
                    fprintf(stderr, "S# address %d norm %d linear %d: %08x %08x %08x %08x\n", a, n, lin, w[0], w[1],
                            w[2], w[3]);
                    failures++;
                }
            }
    /* a 2D RGBA8 image and a 2D array of R32F */
    plat_image im = { .dim = PLAT_IMAGE_2D, .format = { PLAT_ORDER_BGRA, PLAT_TYPE_UNORM_INT8 }, .width = 100,
                      .height = 7, .addr = 0x123400 };
    EXPECT(plat_image_layout(&im) && im.row_pitch == 512 && im.size == 512 * 7);
    uint32_t d[PLAT_IMAGE_DESC_DWORDS];
    EXPECT(plat_image_descriptor(&im, d));
    amd_tsharp t;
    amd_tsharp_decode(d, 8, &t);
    EXPECT(t.base == 0x123400 && t.width == 100 && t.height == 7 && t.type == AMD_IMG_2D);
    EXPECT(amd_tsharp_pitch(&t) == 128 && !strcmp(amd_buf_format_info(t.format)->name, "8_8_8_8_UNORM"));
    EXPECT(t.dst_sel[0] == 6 && t.dst_sel[1] == 5 && t.dst_sel[2] == 4 && t.dst_sel[3] == 7);   /* Z Y X W */
    EXPECT(t.bc_swizzle == 4 && t.sw_mode == 0);   /* ZYXW: the border's alpha stays in W */
    EXPECT(d[8] == 2 && d[9] == 9 && d[10] == 100 && d[11] == 0);   /* HSA UNORM_INT8, BGRA */
    plat_image ar = { .dim = PLAT_IMAGE_2D_ARRAY, .format = { PLAT_ORDER_R, PLAT_TYPE_FLOAT }, .width = 3,
                      .height = 2, .array_size = 5, .addr = 0x10000 };
    EXPECT(plat_image_layout(&ar) && ar.slice_pitch == 512 && ar.size == 2560);
    EXPECT(plat_image_descriptor(&ar, d));
    amd_tsharp_decode(d, 8, &t);
    EXPECT(t.type == AMD_IMG_2D_ARRAY && amd_tsharp_last_array(&t) == 4 && !strcmp(amd_buf_format_info(t.format)->name, "32_FLOAT"));
    amd_img_level lv;
    amd_img_level_layout(&t, 4, 5, 0, &lv);
    EXPECT(lv.pitch * 4 == ar.row_pitch && lv.slice_bytes == ar.slice_pitch);   /* one layout, both sides */
    /* a 2D image made from a buffer (cl_khr_image2d_from_buffer): the T# points at the buffer's
     * bytes with the buffer's row pitch (OpenCL: 512 pixels, 2048 bytes), not the 256-byte padding */
    plat_image fb = { .dim = PLAT_IMAGE_2D, .format = { PLAT_ORDER_R, PLAT_TYPE_UNSIGNED_INT32 }, .width = 300,
                      .height = 5, .addr = 0x7fff1000 };
    EXPECT(plat_image_layout(&fb) && fb.row_pitch == 1280);
    fb.row_pitch = 2048, fb.slice_pitch = fb.size = 2048 * 5;   /* what ocl_image.c sets */
    EXPECT(plat_image_descriptor(&fb, d));
    amd_tsharp_decode(d, 8, &t);
    EXPECT(t.base == 0x7fff1000 && t.width == 300 && t.height == 5 && amd_tsharp_pitch(&t) == 512);
    amd_img_level_layout(&t, 4, 1, 0, &lv);
    EXPECT(lv.pitch == 512 && lv.offset == 0);   /* texel (x, y) at base + (y * 512 + x) * 4 */
    plat_image rgb565 = { .dim = PLAT_IMAGE_2D, .format = { PLAT_ORDER_RGB, PLAT_TYPE_UNORM_SHORT_565 }, .width = 2,
                          .height = 2 };
    EXPECT(plat_image_layout(&rgb565) && !plat_image_descriptor(&rgb565, d));   /* no executor format */
    printf(failures ? "FAIL\n" : "ok\n");
    return failures != 0;
}
