/* ventus_host — a host program on umbra's Ventus driver API (umbra/vt_driver.h).
 *
 * It does what the Ventus pocl driver does for a clEnqueueNDRangeKernel: upload the kernel,
 * allocate and fill buffers, write the argument block and the 64-byte kernel metadata block,
 * start the launch, wait, read the result back. Two kernels of testcases/ventus, each on this
 * program's own data (not the test case's) and a larger range than the test case used, with the
 * expected result computed here on the host:
 *  - vecadd (c = a + b): vecadd_4x8 ships no ELF, only launch images, so its code is the image
 *    vecadd_0.data holds for the buffer at 0x80000000, uploaded as raw code
 *    (vt_upload_kernel_bytes); its entry is word 0 of that launch's metadata block (KNL_ENTRY).
 *    64 items in 2 workgroups of 4 warps x 8 threads.
 *  - matadd (C = A + B, 2-D) from matadd_4x4/object.riscv (vt_upload_kernel_file, entry from
 *    the ELF's symbol table): 8x8 items in 2x2 workgroups of 4 warps x 4 threads.
 *
 * usage: ventus_host [TESTCASES_DIR]      exit status 0 when every element matches
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "umbra/vt_driver.h"

#ifndef VENTUS_HOST_TESTCASES
#define VENTUS_HOST_TESTCASES "testcases/ventus"
#endif

enum { W = 8, H = 8, N = W * H, LX = 4, LY = 4 };

#define CHECK_VT(call)                                                                    \
    do {                                                                                  \
        if ((call) != 0) {                                                                \
            fprintf(stderr, "ventus_host: %s failed: %s\n", #call, vt_umbra_last_error(dev)); \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

/* ---- vecadd from its launch image ---- */

/* Read a file of hex words, one per line (the .metadata / .data format). */
static uint32_t *read_words(const char *path, size_t *n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "ventus_host: cannot open %s\n", path);
        return NULL;
    }
    size_t cap = 1024;
    uint32_t *w = malloc(cap * sizeof *w);
    unsigned v;
    *n = 0;
    while (w && fscanf(f, "%x", &v) == 1) {
        if (*n == cap) {
            uint32_t *nw = realloc(w, (cap *= 2) * sizeof *w);
            if (!nw) { free(w); w = NULL; break; }
            w = nw;
        }
        w[(*n)++] = v;
    }
    fclose(f);
    return w;
}

/* The code image (buffer at 0x80000000) and KNL_ENTRY of dir/vecadd_0. The metadata holds 13
 * 64-bit fields (two lines each, low word first; field 7 is metaDataBaseAddr), num_buffer, then
 * the buffer bases, sizes and allocsizes; the .data holds the buffers back to back. */
static uint32_t *vecadd_code(const char *dir, size_t *bytes, uint32_t *entry)
{
    char path[1024];
    size_t nm, nd;
    snprintf(path, sizeof path, "%s/vecadd_4x8/vecadd_0.metadata", dir);
    uint32_t *m = read_words(path, &nm);
    snprintf(path, sizeof path, "%s/vecadd_4x8/vecadd_0.data", dir);
    uint32_t *d = read_words(path, &nd);
    uint32_t *code = NULL;
    if (m && d && nm >= 28) {
        uint32_t knl = m[14], nbuf = m[26];
        size_t at = 0;
        for (uint32_t i = 0; i < nbuf && 28 + 2 * (2 * nbuf + i) < nm; i++) {
            uint32_t base = m[28 + 2 * i], size = m[28 + 2 * (nbuf + i)];
            size_t words = (size + 3) / 4;
            if (at + words > nd) break;
            if (base == knl) *entry = d[at];
            if (base == 0x80000000u) {
                code = malloc(words * 4);
                if (code) memcpy(code, d + at, words * 4);
                *bytes = size;
            }
            at += words;
        }
    }
    free(m);
    free(d);
    return code;
}

/* Device copies of a, b and c (n floats each) and the kernels' argument block {a, b, c}. */
typedef struct sum_buffers {
    uint64_t a, b, c, args;
} sum_buffers;

static int upload_sum_buffers(vt_device_h dev, const float *a, const float *b, const float *c, int n, sum_buffers *d)
{
    size_t bytes = sizeof(float) * (size_t)n;
    CHECK_VT(vt_buf_alloc(dev, bytes, &d->a, VT_BUF_RO, 0, 0));
    CHECK_VT(vt_buf_alloc(dev, bytes, &d->b, VT_BUF_RO, 0, 0));
    CHECK_VT(vt_buf_alloc(dev, bytes, &d->c, VT_BUF_RW, 0, 0));
    CHECK_VT(vt_buf_alloc(dev, 12, &d->args, VT_BUF_RO, 0, 0));
    CHECK_VT(vt_copy_to_dev(dev, d->a, a, bytes, 0, 0));
    CHECK_VT(vt_copy_to_dev(dev, d->b, b, bytes, 0, 0));
    CHECK_VT(vt_copy_to_dev(dev, d->c, c, bytes, 0, 0));
    uint32_t argv[3] = {(uint32_t)d->a, (uint32_t)d->b, (uint32_t)d->c};
    CHECK_VT(vt_copy_to_dev(dev, d->args, argv, sizeof argv, 0, 0));
    return 0;
}

/* Run the launch m describes and read c back. */
static int launch_and_read(vt_device_h dev, struct meta_data *m, uint64_t dc, float *c, int n)
{
    CHECK_VT(vt_start(dev, m, 0));
    CHECK_VT(vt_ready_wait(dev, 1000));
    CHECK_VT(vt_copy_from_dev(dev, dc, c, sizeof(float) * (size_t)n, 0, 0));
    return 0;
}

/* Elements of c that are not bit-exactly a + b; the first ten are printed (with their x, y in a
 * row of `width` elements when width > 0). */
static int wrong_sums(const float *a, const float *b, const float *c, int n, int width, const char *what)
{
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float want = a[i] + b[i];
        if (!memcmp(&c[i], &want, sizeof want) || bad++ >= 10) continue;
        if (width > 0)
            fprintf(stderr, "ventus_host: %s C[%d] (x %d, y %d) = %g, want %g\n", what, i, i % width, i / width, c[i], want);
        else
            fprintf(stderr, "ventus_host: %s c[%d] = %g, want %g\n", what, i, c[i], want);
    }
    return bad;
}

static int run_vecadd(vt_device_h dev, const char *dir)
{
    enum { N = 64, LANES = 8, WARPS = 4 };
    size_t bytes = 0;
    uint32_t entry = 0;
    uint32_t *code = vecadd_code(dir, &bytes, &entry);
    if (!code || !entry) {
        fprintf(stderr, "ventus_host: no vecadd code image in %s/vecadd_4x8\n", dir);
        free(code);
        return 1;
    }
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) a[i] = 0.5f * (float)i, b[i] = 3.0f - (float)(i * i) / 64.0f, c[i] = 0;
    int rc = vt_upload_kernel_bytes(dev, code, bytes, 0);
    free(code);
    CHECK_VT(rc);
    sum_buffers d;
    uint64_t pds, knl;
    if (upload_sum_buffers(dev, a, b, c, N, &d)) return 1;
    CHECK_VT(vt_buf_alloc(dev, 0x1000 * N, &pds, VT_BUF_RW, 0, 0));
    CHECK_VT(vt_buf_alloc(dev, 64, &knl, VT_BUF_RO, 0, 0));
    uint32_t block[16] = {entry, (uint32_t)d.args, 1, N, 1, 1, LANES * WARPS, 1, 1};
    CHECK_VT(vt_copy_to_dev(dev, knl, block, sizeof block, 0, 0));
    struct meta_data m = {
        .kernel_id = 0, .kernel_size = {N / (LANES * WARPS), 1, 1}, .wf_size = LANES,
        .wg_size = WARPS, .metaDataBaseAddr = knl, .ldsSize = 0x1000, .pdsSize = 0x1000,
        .sgprUsage = 64, .vgprUsage = 64, .pdsBaseAddr = pds,
    };
    if (launch_and_read(dev, &m, d.c, c, N)) return 1;
    int bad = wrong_sums(a, b, c, N, 0, "vecadd");
    printf("ventus_host: vecadd of %d items in %d workgroups: %d of %d elements correct\n", N,
           N / (LANES * WARPS), N - bad, N);
    CHECK_VT(vt_buf_free(dev, 0, NULL, 0, 0));
    return bad ? 1 : 0;
}

/* ---- matadd from object.riscv ---- */

static int run_matadd(vt_device_h dev, const char *dir)
{
    char elf[1024];
    snprintf(elf, sizeof elf, "%s/matadd_4x4/object.riscv", dir);
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.25f - 3.0f;
        b[i] = 1000.0f / (float)(i + 1);
        c[i] = -1.0f;
    }
    CHECK_VT(vt_upload_kernel_file(dev, elf, 0));
    uint64_t entry;
    CHECK_VT(vt_umbra_kernel_symbol(dev, "matadd", &entry));

    sum_buffers d;
    uint64_t pds, knl;
    const uint64_t pds_per_thread = 0x1000, nwg = (W / LX) * (H / LY);
    if (upload_sum_buffers(dev, a, b, c, N, &d)) return 1;
    CHECK_VT(vt_buf_alloc(dev, pds_per_thread * LX * LY * nwg, &pds, VT_BUF_RW, 0, 0));
    CHECK_VT(vt_buf_alloc(dev, 64, &knl, VT_BUF_RO, 0, 0));
    /* kernel metadata block: entry, args, work_dim, global size, local size, offsets, print */
    uint32_t block[16] = {(uint32_t)entry, (uint32_t)d.args, 2, W, H, 1, LX, LY, 1, 0, 0, 0, 0, 0, 0, 0};
    CHECK_VT(vt_copy_to_dev(dev, knl, block, sizeof block, 0, 0));

    struct meta_data m = {
        .kernel_id = 0, .kernel_size = {W / LX, H / LY, 1}, .wf_size = LX, .wg_size = LY,
        .metaDataBaseAddr = knl, .ldsSize = 0x1000, .pdsSize = pds_per_thread,
        .sgprUsage = 64, .vgprUsage = 64, .pdsBaseAddr = pds,
    };
    if (launch_and_read(dev, &m, d.c, c, N)) return 1;
    int bad = wrong_sums(a, b, c, N, W, "matadd");
    printf("ventus_host: matadd %dx%d in %dx%d workgroups: %d of %d elements correct\n", W, H, W / LX,
           H / LY, N - bad, N);
    CHECK_VT(vt_buf_free(dev, 0, NULL, 0, 0));
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : VENTUS_HOST_TESTCASES;
    vt_device_h dev;
    if (vt_dev_open(&dev) != 0) {
        fprintf(stderr, "ventus_host: vt_dev_open failed\n");
        return 1;
    }
    int rc = vt_root_mem_alloc(dev, 0);
    if (rc == 0) rc = run_vecadd(dev, dir);
    if (rc == 0) rc = run_matadd(dev, dir);
    if (rc == 0) vt_dump_perf(dev, stdout);
    vt_root_mem_free(dev, 0);
    vt_dev_close(dev);
    return rc;
}
