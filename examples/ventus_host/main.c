/* ventus_host — a host program on umbra's Ventus driver API (umbra/vt_driver.h).
 *
 * It does what the Ventus pocl driver does for one clEnqueueNDRangeKernel: upload the kernel
 * ELF, allocate and fill buffers, write the argument block and the 64-byte kernel metadata block,
 * start the launch, wait, read the result back. The kernel is matadd from
 * testcases/ventus/matadd_4x4/object.riscv (C = A + B over a 2-D range; vecadd_4x8 ships no ELF,
 * only launch images, so its 2-D sibling is the kernel a host program can upload). The inputs are
 * this program's own (not the test case's), on a larger range than the test case used: 8x8 items
 * in 2x2 workgroups of 4 warps x 4 threads. The expected result is computed here on the host.
 *
 * usage: ventus_host [object.riscv]      exit status 0 when every element matches
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "umbra/vt_driver.h"

#ifndef VENTUS_HOST_DEFAULT_ELF
#define VENTUS_HOST_DEFAULT_ELF "matadd_4x4/object.riscv"
#endif

enum { W = 8, H = 8, N = W * H, LX = 4, LY = 4 };

#define CHECK_VT(call)                                                                    \
    do {                                                                                  \
        if ((call) != 0) {                                                                \
            fprintf(stderr, "ventus_host: %s failed: %s\n", #call, vt_umbra_last_error(dev)); \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

static int run(vt_device_h dev, const char *elf)
{
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.25f - 3.0f;
        b[i] = 1000.0f / (float)(i + 1);
        c[i] = -1.0f;
    }
    CHECK_VT(vt_root_mem_alloc(dev, 0));
    CHECK_VT(vt_upload_kernel_file(dev, elf, 0));
    uint64_t entry;
    CHECK_VT(vt_umbra_kernel_symbol(dev, "matadd", &entry));

    uint64_t da, db, dc, args, pds, knl;
    const uint64_t pds_per_thread = 0x1000, nwg = (W / LX) * (H / LY);
    CHECK_VT(vt_buf_alloc(dev, sizeof a, &da, VT_BUF_RO, 0, 0));
    CHECK_VT(vt_buf_alloc(dev, sizeof b, &db, VT_BUF_RO, 0, 0));
    CHECK_VT(vt_buf_alloc(dev, sizeof c, &dc, VT_BUF_RW, 0, 0));
    CHECK_VT(vt_buf_alloc(dev, 12, &args, VT_BUF_RO, 0, 0));
    CHECK_VT(vt_buf_alloc(dev, pds_per_thread * LX * LY * nwg, &pds, VT_BUF_RW, 0, 0));
    CHECK_VT(vt_buf_alloc(dev, 64, &knl, VT_BUF_RO, 0, 0));
    CHECK_VT(vt_copy_to_dev(dev, da, a, sizeof a, 0, 0));
    CHECK_VT(vt_copy_to_dev(dev, db, b, sizeof b, 0, 0));
    CHECK_VT(vt_copy_to_dev(dev, dc, c, sizeof c, 0, 0));
    uint32_t argv[3] = {(uint32_t)da, (uint32_t)db, (uint32_t)dc};
    CHECK_VT(vt_copy_to_dev(dev, args, argv, sizeof argv, 0, 0));
    /* kernel metadata block: entry, args, work_dim, global size, local size, offsets, print */
    uint32_t block[16] = {(uint32_t)entry, (uint32_t)args, 2, W, H, 1, LX, LY, 1, 0, 0, 0, 0, 0, 0, 0};
    CHECK_VT(vt_copy_to_dev(dev, knl, block, sizeof block, 0, 0));

    struct meta_data m = {
        .kernel_id = 0, .kernel_size = {W / LX, H / LY, 1}, .wf_size = LX, .wg_size = LY,
        .metaDataBaseAddr = knl, .ldsSize = 0x1000, .pdsSize = pds_per_thread,
        .sgprUsage = 64, .vgprUsage = 64, .pdsBaseAddr = pds,
    };
    CHECK_VT(vt_start(dev, &m, 0));
    CHECK_VT(vt_ready_wait(dev, 1000));
    CHECK_VT(vt_copy_from_dev(dev, dc, c, sizeof c, 0, 0));

    int bad = 0;
    for (int i = 0; i < N; i++) {
        float want = a[i] + b[i];
        if (memcmp(&c[i], &want, sizeof want)) {
            if (bad++ < 10)
                fprintf(stderr, "ventus_host: C[%d] (x %d, y %d) = %g, want %g\n", i, i % W, i / W, c[i], want);
        }
    }
    printf("ventus_host: matadd %dx%d in %dx%d workgroups: %d of %d elements correct\n", W, H, W / LX,
           H / LY, N - bad, N);
    vt_dump_perf(dev, stdout);
    CHECK_VT(vt_buf_free(dev, 0, NULL, 0, 0));
    CHECK_VT(vt_root_mem_free(dev, 0));
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *elf = argc > 1 ? argv[1] : VENTUS_HOST_DEFAULT_ELF;
    vt_device_h dev;
    if (vt_dev_open(&dev) != 0) {
        fprintf(stderr, "ventus_host: vt_dev_open failed\n");
        return 1;
    }
    int rc = run(dev, elf);
    vt_dev_close(dev);
    return rc;
}
