/* Unit tests of the Ventus launch-file loader (src/loader/ventus_launch.c).
 *
 * usage: test_launch SHARED_TESTCASES_DIR SCRATCH_DIR
 * - launch order of every shipped directory, against the order /work/shared/README.md states;
 * - the order without pocl.log (a scratch copy of gaussian's files), by counter and object.cl;
 * - vecadd_0.metadata field values (read off the file by hand);
 * - malformed .metadata / .data built here, each with the message it must give (file:line);
 * - replaying vecadd_0 into a device and reading it back, ELF segment loading.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "loader/elf.h"
#include "loader/ventus_launch.h"

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

static const char *shared;
static char err[1024];

static void check_order(const char *dir, const char *const *want, size_t nwant, const char *skipped)
{
    char path[1024], src[160];
    snprintf(path, sizeof path, "%s/%s", shared, dir);
    char **names, **skip;
    uint32_t n, nskip;
    umb_status st = umb_vt_launch_order(path, &names, &n, &skip, &nskip, src, sizeof src, err, sizeof err);
    CHECK(st == UMB_OK, "%s: %s", dir, err);
    if (st != UMB_OK) return;
    CHECK(n == nwant, "%s: %u launches, want %zu", dir, n, nwant);
    for (uint32_t i = 0; i < n && i < nwant; i++)
        CHECK(!strcmp(names[i], want[i]), "%s: launch %u is %s, want %s", dir, i, names[i], want[i]);
    if (skipped) CHECK(nskip == 1 && !strcmp(skip[0], skipped), "%s: skipped %u", dir, nskip);
    else CHECK(nskip == 0, "%s: skipped %u", dir, nskip);
    for (uint32_t i = 0; i < n; i++) free(names[i]);
    for (uint32_t i = 0; i < nskip; i++) free(skip[i]);
    free(names);
    free(skip);
}

/* The orders stated in /work/shared/README.md. */
static void check_shipped_orders(void)
{
    static const char *const vecadd[] = {"vecadd_0"}, *const matadd[] = {"matadd_0"},
                             *const nn[] = {"NearestNeighbor_0"};
    static const char *const gaussian[] = {"Fan1_0", "Fan2_0", "Fan1_1", "Fan2_1",
                                           "Fan1_2", "Fan2_2", "Fan1_3", "Fan2_3"};
    static const char *const bfs[] = {"BFS_1_0", "BFS_2_0", "BFS_1_1", "BFS_2_1", "BFS_1_2",
                                      "BFS_2_2", "BFS_1_3", "BFS_2_3", "BFS_1_4", "BFS_2_4"};
    static const char *const kmeans[] = {"kmeans_swap_0", "kmeans_kernel_c_0", "kmeans_kernel_c_1"};
    check_order("vecadd_4x8", vecadd, 1, NULL);
    check_order("matadd_4x4", matadd, 1, "matadd");
    check_order("nn_4x8", nn, 1, NULL);
    check_order("gaussian_4x8", gaussian, 8, NULL);
    check_order("bfs_4x16", bfs, 10, NULL);
    check_order("kmeans_4w16t", kmeans, 3, NULL);
}

static void copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    CHECK(a && b, "copy %s -> %s", from, to);
    char buf[8192];
    size_t n;
    while (a && b && (n = fread(buf, 1, sizeof buf, a)) > 0) fwrite(buf, 1, n, b);
    if (a) fclose(a);
    if (b) fclose(b);
}

/* gaussian's launches without pocl.log: counter first, then Fan1 before Fan2 as in object.cl. */
static void check_fallback_order(const char *scratch)
{
    char dir[1024], from[1200], to[1200];
    snprintf(dir, sizeof dir, "%s/gaussian_nopocl", scratch);
    mkdir(dir, 0777);
    static const char *const files[] = {"Fan1_0", "Fan1_1", "Fan1_2", "Fan1_3",
                                        "Fan2_0", "Fan2_1", "Fan2_2", "Fan2_3"};
    /* numbered 10 too, to check that counters compare as numbers (10 after 2) */
    for (int i = 0; i < 8; i++) {
        snprintf(from, sizeof from, "%s/gaussian_4x8/%s.metadata", shared, files[i]);
        snprintf(to, sizeof to, "%s/%s.metadata", dir, files[i]);
        copy_file(from, to);
    }
    snprintf(to, sizeof to, "%s/Fan2_10.metadata", dir);
    copy_file(from, to);
    snprintf(from, sizeof from, "%s/gaussian_4x8/object.cl", shared);
    snprintf(to, sizeof to, "%s/object.cl", dir);
    copy_file(from, to);
    char **names;
    uint32_t n;
    char src[160];
    umb_status st = umb_vt_launch_order(dir, &names, &n, NULL, NULL, src, sizeof src, err, sizeof err);
    CHECK(st == UMB_OK, "%s", err);
    static const char *const want[] = {"Fan1_0", "Fan2_0", "Fan1_1", "Fan2_1", "Fan1_2",
                                       "Fan2_2", "Fan1_3", "Fan2_3", "Fan2_10"};
    CHECK(st != UMB_OK || n == 9, "fallback: %u launches", n);
    for (uint32_t i = 0; st == UMB_OK && i < n && i < 9; i++)
        CHECK(!strcmp(names[i], want[i]), "fallback launch %u is %s, want %s", i, names[i], want[i]);
    CHECK(st != UMB_OK || strstr(src, "object.cl"), "source: %s", src);
    for (uint32_t i = 0; st == UMB_OK && i < n; i++) free(names[i]);
    if (st == UMB_OK) free(names);
    /* a directory with no launches at all */
    snprintf(dir, sizeof dir, "%s/empty_dir", scratch);
    mkdir(dir, 0777);
    st = umb_vt_launch_order(dir, &names, &n, NULL, NULL, NULL, 0, err, sizeof err);
    CHECK(st == UMB_ERR_FORMAT && strstr(err, "no .metadata files") && strstr(err, "empty_dir"), "%s", err);
    st = umb_vt_launch_order("/nonexistent/dir", &names, &n, NULL, NULL, NULL, 0, err, sizeof err);
    CHECK(st == UMB_ERR_IO && strstr(err, "/nonexistent/dir"), "%s", err);
}

/* vecadd_0.metadata as read by hand: 1x1x1 workgroups of 4 warps x 8 threads, metadata block at
 * 0x90024000, 7 buffers (a, b, c, the argument block, the code image, private, metadata). */
static void check_vecadd_metadata(umb_vt_launch_file *lf)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/vecadd_4x8", shared);
    umb_status st = umb_vt_launch_file_load(dir, "vecadd_0", lf, err, sizeof err);
    CHECK(st == UMB_OK, "%s", err);
    if (st != UMB_OK) return;
    const umb_ventus_launch *l = &lf->launch;
    CHECK(l->start_pc == 0x80000000u && l->kernel_id == 0, "pc");
    CHECK(l->grid[0] == 1 && l->grid[1] == 1 && l->grid[2] == 1, "grid");
    CHECK(l->wf_size == 8 && l->wg_size == 4, "wf %llu wg %llu", (unsigned long long)l->wf_size,
          (unsigned long long)l->wg_size);
    CHECK(l->metadata_base == 0x90024000u && l->lds_size == 0x1000 && l->pds_size == 0x1000, "knl");
    CHECK(l->sgpr_usage == 0x40 && l->vgpr_usage == 0x40 && l->pds_base == 0x90004000u, "pds");
    CHECK(!strcmp(l->name, "vecadd_0"), "name");
    CHECK(lf->nbuf == 7, "nbuf %u", lf->nbuf);
    static const uint64_t base[7] = {0x90000000u, 0x90001000u, 0x90002000u, 0x90003000u,
                                     0x80000000u, 0x90004000u, 0x90024000u};
    static const uint64_t size[7] = {0x80, 0x80, 0x80, 0xc, 0x410, 0, 0x40};
    for (int i = 0; i < 7 && lf->nbuf == 7; i++)
        CHECK(lf->bufs[i].base == base[i] && lf->bufs[i].size == size[i], "buffer %d", i);
    /* 0x80*3 + 0xc + 0x410 + 0 + 0x40 bytes = 375 words = the 375 lines of vecadd_0.data */
    CHECK(lf->nwords == 375, "nwords %zu", lf->nwords);
    CHECK(lf->words[1] == 0x3f800000u && lf->words[2] == 0x40000000u, "first words of a");
}

/* ---- malformed files ---- */

/* A metadata text: the 13 fields + num_buffer + one buffer (base, size, allocsize). */
static void make_metadata(char *out, size_t len, uint32_t size, uint32_t alloc)
{
    const uint32_t f[] = {0x80000000u, 0, 0, 0, 1, 0, 1, 0, 1, 0, 8, 0, 2, 0, 0x90001000u, 0,
                          0x1000, 0, 0x1000, 0, 0x40, 0, 0x40, 0, 0x90002000u, 0, 1, 0,
                          0x90000000u, 0, size, 0, alloc, 0};
    size_t k = 0;
    out[0] = 0;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        k += (size_t)snprintf(out + k, len - k, "%08x\n", f[i]);
}

static void expect_meta_fail(const char *text, const char *want, const char *what)
{
    umb_vt_launch_file lf;
    memset(&lf, 0, sizeof lf);
    umb_status st = umb_vt_parse_metadata("bad.metadata", text, strlen(text), &lf, err, sizeof err);
    CHECK(st == UMB_ERR_FORMAT, "%s: status %d", what, (int)st);
    CHECK(strstr(err, want) != NULL, "%s: message '%s' lacks '%s'", what, err, want);
    umb_vt_launch_file_free(&lf);
}

static void expect_data_fail(const char *meta, const char *data, const char *want, const char *what)
{
    umb_vt_launch_file lf;
    memset(&lf, 0, sizeof lf);
    umb_status st = umb_vt_parse_metadata("m.metadata", meta, strlen(meta), &lf, err, sizeof err);
    CHECK(st == UMB_OK, "%s: metadata: %s", what, err);
    st = umb_vt_parse_data("bad.data", data, strlen(data), &lf, err, sizeof err);
    CHECK(st == UMB_ERR_FORMAT, "%s: status %d", what, (int)st);
    CHECK(strstr(err, want) != NULL, "%s: message '%s' lacks '%s'", what, err, want);
    umb_vt_launch_file_free(&lf);
}

static void check_malformed(void)
{
    char good[1024], t[1024];
    make_metadata(good, sizeof good, 6, 0x1000);
    umb_vt_launch_file lf;
    memset(&lf, 0, sizeof lf);
    CHECK(umb_vt_parse_metadata("good.metadata", good, strlen(good), &lf, err, sizeof err) == UMB_OK, "%s", err);
    CHECK(umb_vt_parse_data("good.data", "11223344\n00005566\n\n", 19, &lf, err, sizeof err) == UMB_OK, "%s", err);
    CHECK(lf.nwords == 2 && lf.words[0] == 0x11223344u && lf.words[1] == 0x5566, "data words");
    umb_vt_launch_file_free(&lf);

    /* truncated after 10 lines (fields are 2 lines each: 1-2 start_pc, 3-4 kernel_id,
     * 5-10 kernel_size, 11-12 wf_size) */
    size_t cut = 0;
    for (int i = 0; i < 10; i++) cut = (size_t)(strchr(good + cut, '\n') - good) + 1;
    memcpy(t, good, cut);
    t[cut] = 0;
    expect_meta_fail(t, "bad.metadata:11: file ends where low word of wf_size was expected", "truncated");
    expect_meta_fail("", "bad.metadata:1: file ends where low word of start_pc", "empty");
    snprintf(t, sizeof t, "%s", good);
    memcpy(t + 9 * 3, "zz", 2);                       /* line 4: "zz000000" */
    expect_meta_fail(t, "bad.metadata:4: 'zz000000' is not a 32-bit hex word (high word of kernel_id)", "bad hex");
    snprintf(t, sizeof t, "%s123456789\n", good);
    expect_meta_fail(t, "bad.metadata:35: unexpected extra line", "extra line");
    make_metadata(t, sizeof t, 0x2000, 0x1000);
    expect_meta_fail(t, "size 0x2000 is larger than its allocsize 0x1000", "size > allocsize");
    snprintf(t, sizeof t, "%s", good);
    memcpy(t + 9 * 10, "00000000", 8);               /* line 11: wf_size = 0 */
    expect_meta_fail(t, "wf_size = 0 threads per warp", "wf_size 0");
    snprintf(t, sizeof t, "%s", good);
    memcpy(t + 9 * 26, "00010000", 8);               /* line 27: num_buffer = 65536 */
    expect_meta_fail(t, "bad.metadata:27: num_buffer = 65536 is implausible", "num_buffer");

    expect_data_fail(good, "11223344\n", "bad.data:2: file ends where word 1 of buffer 0", "data short");
    expect_data_fail(good, "11223344\nxyz\n", "bad.data:2: 'xyz' is not a 32-bit hex word", "data bad word");
    expect_data_fail(good, "11223344\n1\n2\n", "bad.data:3: unexpected extra line", "data long");
    expect_data_fail(good, "112233445\n1\n", "bad.data:1: '112233445'", "data word too long");
}

/* Random edits of a real .metadata/.data pair: the parser must accept or reject each one with a
 * message naming the file, and never crash (ASan/UBSan watch the reads). */
static void check_fuzz(void)
{
    char dir[1024], mp[1200], dp[1200];
    snprintf(dir, sizeof dir, "%s/vecadd_4x8", shared);
    snprintf(mp, sizeof mp, "%s/vecadd_0.metadata", dir);
    snprintf(dp, sizeof dp, "%s/vecadd_0.data", dir);
    size_t ml, dl;
    char *meta = umb_vt_read_text(mp, &ml, err, sizeof err), *data = umb_vt_read_text(dp, &dl, err, sizeof err);
    CHECK(meta && data, "%s", err);
    if (!meta || !data) { free(meta); free(data); return; }
    static const char alphabet[] = "0123456789abcdefxX \n\r\tzg-";
    uint32_t rng = 12345;
    for (int round = 0; round < 3000; round++) {
        char *m = malloc(ml + 1), *d = malloc(dl + 1);
        memcpy(m, meta, ml + 1);
        memcpy(d, data, dl + 1);
        for (int k = 0; k < 1 + round % 3; k++) {
            rng = rng * 1103515245u + 12345u;
            size_t at = (rng >> 8) % ml;
            rng = rng * 1103515245u + 12345u;
            m[at] = alphabet[(rng >> 16) % (sizeof alphabet - 1)];
            rng = rng * 1103515245u + 12345u;
            d[(rng >> 8) % dl] = alphabet[(rng >> 20) % (sizeof alphabet - 1)];
        }
        size_t mlen = round % 7 == 0 ? (rng >> 4) % ml : ml;     /* sometimes truncated too */
        umb_vt_launch_file lf;
        memset(&lf, 0, sizeof lf);
        umb_status st = umb_vt_parse_metadata("f.metadata", m, mlen, &lf, err, sizeof err);
        CHECK(st == UMB_OK || (st == UMB_ERR_FORMAT && !strncmp(err, "f.metadata", 10)), "meta: %s", err);
        if (st == UMB_OK) {
            st = umb_vt_parse_data("f.data", d, dl, &lf, err, sizeof err);
            CHECK(st == UMB_OK || ((st == UMB_ERR_FORMAT || st == UMB_ERR_NOMEM) && !strncmp(err, "f.data", 6)),
                  "data: %s", err);
        }
        umb_vt_launch_file_free(&lf);
        free(m);
        free(d);
    }
    free(meta);
    free(data);
}

/* Replay vecadd_0 and read every buffer back. */
static void check_replay(const umb_vt_launch_file *lf)
{
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    umb_device *dev;
    CHECK(umb_device_create(&cfg, &dev) == UMB_OK, "device");
    CHECK(umb_vt_launch_replay(dev, lf, err, sizeof err) == UMB_OK, "%s", err);
    size_t k = 0;
    for (uint32_t i = 0; i < lf->nbuf; i++) {
        const umb_vt_buffer *b = &lf->bufs[i];
        CHECK(umb_mem_is_mapped(dev, b->base, b->allocsize ? b->allocsize : 1), "buffer %u mapped", i);
        for (uint64_t w = 0; w < b->size / 4; w++) {
            uint32_t v = 0;
            umb_mem_copy_from_device(dev, b->base + 4 * w, &v, 4);
            CHECK(v == lf->words[k + w], "buffer %u word %llu: 0x%08x != 0x%08x", i,
                  (unsigned long long)w, v, lf->words[k + w]);
        }
        k += (size_t)((b->size + 3) / 4);
    }
    umb_device_destroy(dev);
}

/* nn_4x8: object.riscv's PT_LOAD segments; its .text must equal the code image that
 * NearestNeighbor_0.data holds for the buffer at 0x80000000, and .bss tails must be zeroed. */
static void check_elf_load(void)
{
    char dir[1024], path[1200];
    snprintf(dir, sizeof dir, "%s/nn_4x8", shared);
    snprintf(path, sizeof path, "%s/object.riscv", dir);
    umb_vt_launch_file lf;
    CHECK(umb_vt_launch_file_load(dir, "NearestNeighbor_0", &lf, err, sizeof err) == UMB_OK, "%s", err);
    size_t code = 0;
    uint64_t code_size = 0;
    for (uint32_t i = 0; i < lf.nbuf; i++) {
        if (lf.bufs[i].base == 0x80000000u) { code_size = lf.bufs[i].size; break; }
        code += (size_t)((lf.bufs[i].size + 3) / 4);
    }
    CHECK(code_size > 0, "no code buffer");
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    umb_device *dev;
    CHECK(umb_device_create(&cfg, &dev) == UMB_OK, "device");
    umb_elf e;
    CHECK(umb_elf_open_file(&e, path) == UMB_OK, "%s", e.error);
    /* scribble on the tails first: loading must zero everything past filesz */
    for (uint32_t i = 0; i < e.phnum; i++) {
        const umb_elf_phdr *ph = &e.phdrs[i];
        if (ph->type != UMB_PT_LOAD || ph->memsz == ph->filesz) continue;
        umb_mem_map(dev, ph->vaddr, ph->memsz);
        uint32_t junk = 0xdeadbeef;
        umb_mem_copy_to_device(dev, ph->vaddr + ph->memsz - 4, &junk, 4);
    }
    CHECK(umb_elf_load_segments(&e, dev, 0) == UMB_OK, "%s", e.error);
    const umb_elf_shdr *text = umb_elf_section_by_name(&e, ".text");
    CHECK(text && text->addr == 0x80000000u && text->size == code_size, ".text");
    for (uint64_t w = 0; text && w < text->size / 4; w++) {
        uint32_t v = 0;
        umb_mem_copy_from_device(dev, 0x80000000u + 4 * w, &v, 4);
        CHECK(v == lf.words[code + w], ".text word %llu", (unsigned long long)w);
    }
    for (uint32_t i = 0; i < e.phnum; i++) {
        const umb_elf_phdr *ph = &e.phdrs[i];
        if (ph->type != UMB_PT_LOAD || ph->memsz == ph->filesz) continue;
        uint32_t v = 1;
        umb_mem_copy_from_device(dev, ph->vaddr + ph->memsz - 4, &v, 4);
        CHECK(v == 0, "segment %u tail not zero-filled: 0x%x", i, v);
    }
    umb_elf_close(&e);
    umb_device_destroy(dev);
    umb_vt_launch_file_free(&lf);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s SHARED_TESTCASES_DIR SCRATCH_DIR\n", argv[0]);
        return 2;
    }
    shared = argv[1];
    mkdir(argv[2], 0777);
    check_shipped_orders();
    check_fallback_order(argv[2]);
    umb_vt_launch_file lf;
    check_vecadd_metadata(&lf);
    check_malformed();
    check_fuzz();
    if (lf.nbuf) check_replay(&lf);
    check_elf_load();
    umb_vt_launch_file_free(&lf);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("launch: all checks passed\n");
    return 0;
}
