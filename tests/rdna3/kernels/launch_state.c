/* Launch registers as the kernels of launch_state.s dump them: user SGPRs in HSA order, padding up
 * to USER_SGPR_COUNT, system SGPRs at s[USER_SGPR_COUNT], packed work-item ids in v0 (Y and Z only
 * when VGPR_WORKITEM_ID enables them), EXEC of a partial workgroup, VGPRs that read 0 in every new
 * wave.
 *   rdna3_launch_state CODE_OBJECT */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "umbra/rdna3.h"

static int failures;

static void expect(const char *what, unsigned g, unsigned i, uint32_t got, uint32_t want)
{
    if (got == want) return;
    if (++failures <= 20)
        fprintf(stderr, "FAIL %s: group %u [%u]: got 0x%08" PRIx32 ", want 0x%08" PRIx32 "\n", what, g, i, got, want);
}

static int run(umb_device *dev, umb_rdna3_program *p, const char *kernel, uint64_t out, size_t bytes)
{
    uint32_t fill[1024];
    for (size_t i = 0; i < 1024; i++) fill[i] = 0xdeadbeefu;
    umb_mem_copy_to_device(dev, out, fill, bytes);
    umb_rdna3_arg arg = { .value = &out, .size = 8 };
    /* 6 x 8 x 2 work-items in 4 x 4 x 2 groups: 2 x 2 groups, those with x = 1 have 2 x 4 x 2 items */
    umb_rdna3_dispatch d = { .kernel = kernel, .work_dim = 3, .global_size = { 6, 8, 2 }, .local_size = { 4, 4, 2 },
                             .args = &arg, .nargs = 1 };
    umb_status st = umb_rdna3_run(dev, p, &d, NULL);
    if (st) fprintf(stderr, "FAIL %s: %s: %s\n", kernel, umb_status_name(st), umb_device_last_error(dev)), failures++;
    return st;
}

static uint32_t packed(unsigned lane, unsigned ax, int dims)
{
    unsigned x = lane % ax, y = lane / ax % 4, z = lane / (ax * 4);
    return x | (dims >= 2 ? y << 10 : 0u) | (dims >= 3 ? z << 20 : 0u);
}

int main(int argc, char **argv)
{
    if (argc != 2) return fprintf(stderr, "usage: rdna3_launch_state CODE_OBJECT\n"), 2;
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    umb_device *dev;
    umb_rdna3_program *p;
    char err[1024];
    uint64_t out;
    if (umb_device_create(&cfg, &dev) || umb_rdna3_program_load_file(dev, argv[1], &p, err, sizeof err) ||
        umb_mem_alloc(dev, 4096, 4096, &out))
        return fprintf(stderr, "FAIL: setup: %s\n", err), 1;

    uint32_t r[4][64];
    if (!run(dev, p, "dump_state", out, sizeof r)) {
        umb_mem_copy_from_device(dev, out, r, sizeof r);
        for (unsigned g = 0; g < 4; g++) {
            unsigned gx = g % 2, gy = g / 2, ax = gx ? 2 : 4;
            uint32_t *s = r[g];
            uint64_t dispatch = s[0] | (uint64_t)s[1] << 32, queue = s[2] | (uint64_t)s[3] << 32;
            if (!dispatch || !queue || dispatch == queue) expect("dispatch/queue ptr set and distinct", g, 0, 0, 1);
            expect("kernarg ptr lo = packet kernarg_address lo", g, 4, s[4], s[16]);
            expect("kernarg ptr hi = packet kernarg_address hi", g, 5, s[5], s[17]);
            expect("dispatch id lo", g, 6, s[6], 0);
            expect("dispatch id hi", g, 7, s[7], 0);
            expect("private segment size", g, 8, s[8], 32);
            for (unsigned i = 9; i < 12; i++) expect("padding up to USER_SGPR_COUNT", g, i, s[i], 0);
            expect("workgroup id x at s[USER_SGPR_COUNT]", g, 12, s[12], gx);
            expect("workgroup id y", g, 13, s[13], gy);
            expect("workgroup id z", g, 14, s[14], 0);
            expect("workgroup info: 1 wave, first", g, 15, s[15], 1u | 1u << 31);
            for (unsigned l = 0; l < 32; l++)
                expect("v0 packed X|Y|Z (inactive lanes untouched)", g, l, s[32 + l],
                       l < ax * 8 ? packed(l, ax, 3) : 0xdeadbeefu);
        }
    }
    uint32_t v[4][32];
    if (!run(dev, p, "dump_v0x", out, sizeof v)) {
        umb_mem_copy_from_device(dev, out, v, sizeof v);
        for (unsigned g = 0; g < 4; g++) {
            unsigned ax = g % 2 ? 2 : 4;
            for (unsigned l = 0; l < 32; l++)
                expect("v0 = X only (VGPR_WORKITEM_ID 0)", g, l, v[g][l], l < ax * 8 ? packed(l, ax, 1) : 0xdeadbeefu);
        }
    }
    uint32_t z[4][2][32];   /* the groups run one after another: groups 1-3 reuse group 0's wave */
    if (!run(dev, p, "vgprs_start_zero", out, sizeof z)) {
        umb_mem_copy_from_device(dev, out, z, sizeof z);
        for (unsigned g = 0; g < 4; g++) {
            unsigned ax = g % 2 ? 2 : 4;
            for (unsigned l = 0; l < 32; l++) {
                expect("v40 of a new wave is 0", g, l, z[g][0][l], l < ax * 8 ? 0u : 0xdeadbeefu);
                expect("v200 of a new wave is 0", g, l, z[g][1][l], l < ax * 8 ? 0u : 0xdeadbeefu);
            }
        }
    }
    umb_rdna3_program_destroy(p);
    umb_device_destroy(dev);
    if (failures) return fprintf(stderr, "FAIL: %d mismatches\n", failures), 1;
    printf("ok   launch state: user SGPRs, padding, system SGPRs, packed ids, partial-group EXEC, zero VGPRs\n");
    return 0;
}
