/* Tests of the vt_* driver API (src/runtime/vt_driver.c).
 *
 * usage: test_vt_driver SHARED_TESTCASES_DIR
 * - vecadd through the API, with this test's own data: vecadd_4x8 ships no ELF, so its kernel is
 *   the code image of vecadd_0.data (buffer 0x80000000), uploaded with vt_upload_kernel_bytes as
 *   raw code; the kernel entry is word 0 of the launch's metadata block (KNL_ENTRY). 64 elements
 *   in 2 workgroups of 4 warps x 8 threads; expected c[i] = a[i] + b[i] computed here.
 * - buffer allocation like pocl: page-aligned bump allocation from 0x90000000;
 * - error paths: bad handles, unmapped copies, unknown buffers, a runaway kernel, all with
 *   messages from vt_umbra_last_error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/ventus_launch.h"
#include "umbra/vt_driver.h"

static int failures;
#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            failures++;                                                        \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);    \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
        }                                                                      \
    } while (0)

/* The code image and the kernel entry of vecadd_0 (read with the launch-file loader). */
static bool vecadd_code(const char *shared, uint32_t **code, size_t *bytes, uint32_t *entry)
{
    char dir[1024], err[512];
    snprintf(dir, sizeof dir, "%s/vecadd_4x8", shared);
    umb_vt_launch_file lf;
    if (umb_vt_launch_file_load(dir, "vecadd_0", &lf, err, sizeof err) != UMB_OK) {
        fprintf(stderr, "%s\n", err);
        return false;
    }
    size_t k = 0;
    *code = NULL;
    for (uint32_t i = 0; i < lf.nbuf; i++) {
        size_t nw = (size_t)((lf.bufs[i].size + 3) / 4);
        if (lf.bufs[i].base == 0x80000000u) {
            *bytes = (size_t)lf.bufs[i].size;
            *code = malloc(nw * 4);
            memcpy(*code, lf.words + k, nw * 4);
        }
        if (lf.bufs[i].base == lf.launch.metadata_base) *entry = lf.words[k];
        k += nw;
    }
    umb_vt_launch_file_free(&lf);
    return *code != NULL;
}

static void check_vecadd(const char *shared)
{
    uint32_t *code, entry = 0;
    size_t bytes;
    if (!vecadd_code(shared, &code, &bytes, &entry)) {
        CHECK(0, "no vecadd code image");
        return;
    }
    CHECK(entry > 0x80000000u && entry < 0x80000000u + bytes, "entry 0x%x", entry);
    enum { N = 64, LANES = 8, WARPS = 4 };
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) a[i] = (float)i * 1.5f, b[i] = 100.0f - (float)i * 0.25f, c[i] = 0;
    vt_device_h h;
    CHECK(vt_dev_open(&h) == 0, "open");
    CHECK(vt_upload_kernel_bytes(h, code, bytes, 0) == 0, "%s", vt_umbra_last_error(h));
    uint64_t da, db, dc, args, pds, knl;
    CHECK(vt_buf_alloc(h, sizeof a, &da, VT_BUF_RO, 0, 0) == 0, "alloc");
    CHECK(vt_buf_alloc(h, sizeof b, &db, VT_BUF_RO, 0, 0) == 0, "alloc");
    CHECK(vt_buf_alloc(h, sizeof c, &dc, VT_BUF_RW, 0, 0) == 0, "alloc");
    CHECK(vt_buf_alloc(h, 12, &args, VT_BUF_RO, 0, 0) == 0, "alloc");
    CHECK(vt_buf_alloc(h, 0x1000 * N, &pds, VT_BUF_RW, 0, 0) == 0, "alloc");
    CHECK(vt_buf_alloc(h, 64, &knl, VT_BUF_RO, 0, 0) == 0, "alloc");
    /* pocl's layout: page-aligned, one after the other from 0x90000000 */
    CHECK(da == 0x90000000u && db == 0x90001000u && dc == 0x90002000u && args == 0x90003000u &&
          pds == 0x90004000u && knl == pds + 0x1000 * N, "addresses 0x%llx ... 0x%llx",
          (unsigned long long)da, (unsigned long long)knl);
    CHECK(vt_copy_to_dev(h, da, a, sizeof a, 0, 0) == 0, "copy a");
    CHECK(vt_copy_to_dev(h, db, b, sizeof b, 0, 0) == 0, "copy b");
    CHECK(vt_copy_to_dev(h, dc, c, sizeof c, 0, 0) == 0, "copy c");
    uint32_t argv[3] = {(uint32_t)da, (uint32_t)db, (uint32_t)dc};
    CHECK(vt_copy_to_dev(h, args, argv, sizeof argv, 0, 0) == 0, "copy args");
    uint32_t block[16] = {entry, (uint32_t)args, 1, N, 1, 1, LANES * WARPS, 1, 1};
    CHECK(vt_copy_to_dev(h, knl, block, sizeof block, 0, 0) == 0, "copy knl");
    struct meta_data m = {.kernel_size = {N / (LANES * WARPS), 1, 1}, .wf_size = LANES,
                          .wg_size = WARPS, .metaDataBaseAddr = knl, .ldsSize = 0x1000,
                          .pdsSize = 0x1000, .sgprUsage = 64, .vgprUsage = 64, .pdsBaseAddr = pds};
    CHECK(vt_start(h, &m, 0) == 0, "%s", vt_umbra_last_error(h));
    CHECK(vt_ready_wait(h, 100) == 0, "wait");
    CHECK(vt_copy_from_dev(h, dc, c, sizeof c, 0, 0) == 0, "copy back");
    for (int i = 0; i < N; i++) {
        float want = a[i] + b[i];
        CHECK(!memcmp(&c[i], &want, 4), "c[%d] = %g, want %g", i, c[i], want);
    }
    umb_stats st;
    CHECK(vt_umbra_stats(h, &st) == 0 && st.workgroups == 2 && st.warps == 8, "stats: %llu wg",
          (unsigned long long)st.workgroups);
    FILE *perf = tmpfile();
    CHECK(perf && vt_dump_perf(h, perf) == 0 && ftell(perf) > 0, "dump_perf");
    if (perf) fclose(perf);

    /* a runaway launch: the budget stops it and vt_ready_wait reports the failure */
    uint32_t loop = 0x0000006f;                       /* j . */
    CHECK(vt_copy_to_dev(h, 0x80000000u, &loop, 4, 0, 0) == 0, "patch");
    CHECK(vt_umbra_set_max_instructions(h, 1000) == 0, "budget");
    CHECK(vt_start(h, &m, 0) == -1, "runaway launch succeeded");
    CHECK(strstr(vt_umbra_last_error(h), "budget") != NULL, "message: %s", vt_umbra_last_error(h));
    CHECK(vt_ready_wait(h, 100) == -1, "wait after failure");
    CHECK(vt_buf_free(h, 0, NULL, 0, 0) == 0, "free all");
    CHECK(vt_copy_to_dev(h, da, a, 4, 0, 0) == -1, "copy to a freed buffer");
    CHECK(vt_dev_close(h) == 0, "close");
    free(code);
}

static void check_errors(const char *shared)
{
    CHECK(vt_dev_close(NULL) == -1, "close NULL");
    CHECK(vt_buf_alloc(NULL, 16, NULL, 0, 0, 0) == -1, "alloc on NULL");
    CHECK(strstr(vt_umbra_last_error(NULL), "not a device") != NULL, "NULL message");
    vt_device_h h;
    CHECK(vt_dev_open(&h) == 0, "open");
    CHECK(vt_root_mem_alloc(h, 1) == 0 && vt_root_mem_free(h, 1) == 0, "root mem");
    uint64_t x = 0x12345000, a = 0, b = 0;
    uint32_t w = 1;
    CHECK(vt_copy_to_dev(h, x, &w, 4, 0, 0) == -1 && strstr(vt_umbra_last_error(h), "0x12345000"),
          "unmapped copy: %s", vt_umbra_last_error(h));
    CHECK(vt_copy_from_dev(h, x, &w, 4, 0, 0) == -1, "unmapped read");
    CHECK(vt_one_buf_free(h, 0, &x, 0, 0) == -1 && strstr(vt_umbra_last_error(h), "not a buffer"),
          "unknown buffer: %s", vt_umbra_last_error(h));
    CHECK(vt_buf_alloc(h, 1, &a, 0, 0, 0) == 0 && vt_buf_alloc(h, 4097, &b, 0, 0, 0) == 0 &&
          a == 0x90000000u && b == 0x90001000u, "small allocations are page-aligned");
    CHECK(vt_one_buf_free(h, 0, &a, 0, 0) == 0 && vt_copy_to_dev(h, a, &w, 4, 0, 0) == -1, "free one");
    CHECK(vt_copy_to_dev(h, b + 4096, &w, 4, 0, 0) == 0, "second page of a 4097-byte buffer");
    CHECK(vt_upload_kernel_file(h, "/nonexistent/k.riscv", 0) == -1 &&
          strstr(vt_umbra_last_error(h), "/nonexistent/k.riscv"), "missing ELF: %s", vt_umbra_last_error(h));
    uint8_t bad_elf[20] = {0x7f, 'E', 'L', 'F', 9};
    CHECK(vt_upload_kernel_bytes(h, bad_elf, sizeof bad_elf, 0) == -1 &&
          strstr(vt_umbra_last_error(h), "ELF class"), "bad ELF: %s", vt_umbra_last_error(h));
    uint64_t sym;
    CHECK(vt_umbra_kernel_symbol(h, "matadd", &sym) == -1, "symbol without an ELF");
    char path[1024];
    snprintf(path, sizeof path, "%s/matadd_4x4/object.riscv", shared);
    CHECK(vt_upload_kernel_file(h, path, 0) == 0, "%s", vt_umbra_last_error(h));
    CHECK(vt_umbra_kernel_symbol(h, "matadd", &sym) == 0 && sym == 0x800000a8u, "matadd at 0x%llx",
          (unsigned long long)sym);
    CHECK(vt_umbra_kernel_symbol(h, "nope", &sym) == -1 && strstr(vt_umbra_last_error(h), "nope"),
          "missing symbol: %s", vt_umbra_last_error(h));
    struct meta_data m = {.kernel_size = {1, 1, 1}, .wf_size = 0, .wg_size = 1};
    CHECK(vt_start(h, NULL, 0) == -1, "NULL metadata");
    CHECK(vt_start(h, &m, 0) == -1 && vt_umbra_last_error(h)[0], "wf_size 0: %s", vt_umbra_last_error(h));
    CHECK(vt_dev_close(h) == 0, "close");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s SHARED_TESTCASES_DIR\n", argv[0]);
        return 2;
    }
    check_vecadd(argv[1]);
    check_errors(argv[1]);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("vt_driver: all checks passed\n");
    return 0;
}
