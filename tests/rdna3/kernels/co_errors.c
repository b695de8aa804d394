/* Guest-error paths of the RDNA3 runtime:  rdna3_co_errors SRC_DIR INCLUDE_DIR WORK_DIR CASE
 *
 * Malformed code objects: a valid vec_add code object is built with clang-19 at test time, one
 * thing in it is broken, and the loader must fail with UMB_ERR_FORMAT and a message naming the
 * file and what is wrong. `unsupported`: a kernel executing ds_bvh_stack_rtn_b32 (decoded, not
 * implemented) must stop with UMB_ERR_UNSUPPORTED and a message naming the mnemonic, encoding, PC and
 * kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/elf.h"
#include "umbra/rdna3.h"

#define NAME "broken.co"

static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) free(b), b = NULL;
    fclose(f);
    *size = (size_t)n;
    return b;
}

/* Replace every occurrence of the first len bytes of from by to; returns how many. */
static int patch_all(uint8_t *d, size_t n, const char *from, const char *to, size_t len)
{
    int k = 0;
    for (size_t i = 0; i + len <= n; i++)
        if (!memcmp(d + i, from, len)) memcpy(d + i, to, len), k++;
    return k;
}

/* The metadata note: returns the offset of its descsz field. */
static size_t find_note(const uint8_t *d, size_t n)
{
    for (size_t i = 0; i + 20 <= n; i += 4) {
        uint32_t namesz, type;
        memcpy(&namesz, d + i, 4);
        memcpy(&type, d + i + 8, 4);
        if (namesz == 7 && type == 32 && !memcmp(d + i + 12, "AMDGPU", 7)) return i + 4;
    }
    return 0;
}

static int expect_load_error(const uint8_t *img, size_t n, const char *what, const char *const *needles)
{
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    umb_device *dev;
    if (umb_device_create(&cfg, &dev)) return 1;
    umb_rdna3_program *p = NULL;
    char err[1024] = "";
    umb_status st = umb_rdna3_program_load_memory(dev, NAME, img, n, &p, err, sizeof err);
    int bad = 0;
    if (st != UMB_ERR_FORMAT || p) {
        fprintf(stderr, "FAIL %s: load returned %s, want UMB_ERR_FORMAT\n", what, umb_status_name(st));
        bad = 1;
    }
    if (!strstr(err, NAME) || strcmp(err, umb_device_last_error(dev))) {
        fprintf(stderr, "FAIL %s: the message must name the file and be the device's last error: '%s'\n", what, err);
        bad = 1;
    }
    for (const char *const *s = needles; *s; s++)
        if (!strstr(err, *s)) {
            fprintf(stderr, "FAIL %s: message '%s' lacks '%s'\n", what, err, *s);
            bad = 1;
        }
    if (!bad) printf("ok   %s: %s\n", what, err);
    umb_rdna3_program_destroy(p);
    umb_device_destroy(dev);
    return bad;
}

static int malformed(const char *which, uint8_t *d, size_t n)
{
    const uint16_t em_riscv = 243;
    if (!strcmp(which, "truncated")) {
        return expect_load_error(d, 40, which, (const char *[]){ "truncated", NULL });
    } else if (!strcmp(which, "truncated_segments")) {
        return expect_load_error(d, n / 2, which, (const char *[]){ "past the end", NULL });
    } else if (!strcmp(which, "not_elf")) {
        return expect_load_error((const uint8_t *)"hello, world, not an ELF file", 29, which,
                                 (const char *[]){ "not an ELF", NULL });
    } else if (!strcmp(which, "wrong_machine")) {
        memcpy(d + 18, &em_riscv, 2);
        return expect_load_error(d, n, which, (const char *[]){ "e_machine is 243", "EM_AMDGPU", NULL });
    } else if (!strcmp(which, "wrong_gpu")) {
        d[48] = 0x3f;   /* e_flags low byte: EF_AMDGPU_MACH gfx90a */
        return expect_load_error(d, n, which, (const char *[]){ "0x3f", "not gfx1100", NULL });
    } else if (!strcmp(which, "relocatable")) {
        d[16] = 1;      /* e_type = ET_REL */
        return expect_load_error(d, n, which, (const char *[]){ "relocatable", "ld.lld", NULL });
    } else if (!strcmp(which, "bad_note")) {
        size_t ds = find_note(d, n);
        if (!ds) return fprintf(stderr, "FAIL: no metadata note found\n"), 1;
        d[ds + 16] = 0xc1;  /* first msgpack byte (after namesz, descsz, type, "AMDGPU\0\0"): never used */
        return expect_load_error(d, n, which, (const char *[]){ "metadata note", "malformed msgpack", NULL });
    } else if (!strcmp(which, "truncated_note")) {
        size_t ds = find_note(d, n);
        if (!ds) return fprintf(stderr, "FAIL: no metadata note found\n"), 1;
        /* the top-level map claims 15 entries but holds 3: the data ends before the map does */
        if ((d[ds + 16] & 0xf0) != 0x80) return fprintf(stderr, "FAIL: metadata is not a fixmap\n"), 1;
        d[ds + 16] = 0x8f;
        return expect_load_error(d, n, which, (const char *[]){ "metadata note", "truncated msgpack", NULL });
    } else if (!strcmp(which, "missing_key")) {
        if (!patch_all(d, n, ".kernarg_segment_size", ".kernarg_segment_sizX", 21))
            return fprintf(stderr, "FAIL: key not found\n"), 1;
        return expect_load_error(d, n, which,
                                 (const char *[]){ "kernel 'vec_add'", "missing .kernarg_segment_size", NULL });
    } else if (!strcmp(which, "bad_value_kind")) {
        if (!patch_all(d, n, "global_buffer", "global_bufxer", 13)) return fprintf(stderr, "FAIL: not found\n"), 1;
        return expect_load_error(d, n, which, (const char *[]){ ".args[0]", "unknown .value_kind 'global_bufxer'", NULL });
    } else if (!strcmp(which, "missing_kd")) {
        /* rename the descriptor symbol in the string tables (NUL-terminated there, not in msgpack) */
        if (!patch_all(d, n, "vec_add.kd\0", "vec_add.kx\0", 11)) return fprintf(stderr, "FAIL: symbol not found\n"), 1;
        return expect_load_error(d, n, which, (const char *[]){ "no kernel descriptor symbol 'vec_add.kd'", NULL });
    } else if (!strcmp(which, "bad_entry")) {
        umb_elf e;
        umb_elf_sym s;
        if (umb_elf_open_memory(&e, NAME, d, n) || umb_elf_find_symbol(&e, "vec_add.kd", &s))
            return fprintf(stderr, "FAIL: cannot find the descriptor\n"), 1;
        uint8_t *kd = (uint8_t *)umb_elf_vaddr_data(&e, s.value, 64);
        int64_t off = 0x7fff0000;   /* far outside every segment */
        memcpy(kd + 16, &off, 8);
        umb_elf_close(&e);
        return expect_load_error(d, n, which, (const char *[]){ "kernel 'vec_add'", "not in an executable segment", NULL });
    } else if (!strcmp(which, "wave_mismatch")) {
        umb_elf e;
        umb_elf_sym s;
        if (umb_elf_open_memory(&e, NAME, d, n) || umb_elf_find_symbol(&e, "vec_add.kd", &s))
            return fprintf(stderr, "FAIL: cannot find the descriptor\n"), 1;
        uint8_t *kd = (uint8_t *)umb_elf_vaddr_data(&e, s.value, 64);
        kd[57] &= (uint8_t)~0x04;   /* clear ENABLE_WAVEFRONT_SIZE32 (kcp bit 10) */
        umb_elf_close(&e);
        return expect_load_error(d, n, which, (const char *[]){ "wave64", ".wavefront_size 32", NULL });
    }
    fprintf(stderr, "unknown case %s\n", which);
    return 2;
}

/* Deterministic mutations of a valid code object (bytes flipped in the header, tables, note and
 * code, and truncations): every load must succeed or fail with UMB_ERR_FORMAT and a message naming
 * the file, never crash (the test runs under ASan/UBSan). */
static int fuzz(const uint8_t *orig, size_t n)
{
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    umb_device *dev;
    if (umb_device_create(&cfg, &dev)) return 1;
    uint8_t *d = malloc(n);
    uint64_t seed = 0x243f6a8885a308d3ull;
    int bad = 0, ok = 0, rejected = 0;
    for (int iter = 0; iter < 3000 && !bad; iter++) {
        memcpy(d, orig, n);
        size_t len = n;
        int flips = 1 + iter % 4;
        for (int f = 0; f < flips; f++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            /* half of the mutations hit the first 4 KiB (headers, note, descriptors) */
            size_t pos = (seed >> 8) % ((seed & 1) ? n : (n < 4096 ? n : 4096));
            d[pos] ^= (uint8_t)(1u << ((seed >> 40) & 7));
            if ((seed >> 50) % 7 == 0) d[pos] = (uint8_t)(seed >> 32);
        }
        if (iter % 50 == 49) len = (seed >> 12) % n;
        umb_rdna3_program *p = NULL;
        char err[1024] = "";
        umb_status st = umb_rdna3_program_load_memory(dev, NAME, d, len, &p, err, sizeof err);
        if (st == UMB_OK) {
            ok++;
            umb_rdna3_program_destroy(p);
        } else if (st == UMB_ERR_FORMAT && strstr(err, NAME)) {
            rejected++;
        } else {
            fprintf(stderr, "FAIL fuzz iteration %d: status %s, message '%s'\n", iter, umb_status_name(st), err);
            bad = 1;
        }
    }
    free(d);
    umb_device_destroy(dev);
    if (!bad) printf("ok   fuzz: %d loaded, %d rejected with a message, no crash\n", ok, rejected);
    return bad;
}

/* Mutated code (bits flipped in vec_add's .text) must run to completion or stop with a clean
 * error (guest fault, unsupported, budget, deadlock), never crash the simulator. */
static int run_fuzz(const uint8_t *orig, size_t n)
{
    umb_elf e;
    if (umb_elf_open_memory(&e, NAME, orig, n)) return fprintf(stderr, "FAIL: %s\n", e.error), 1;
    const umb_elf_shdr *text = umb_elf_section_by_name(&e, ".text");
    if (!text) return fprintf(stderr, "FAIL: no .text\n"), 1;
    size_t off = (size_t)text->offset, len = (size_t)text->size;
    umb_elf_close(&e);
    uint8_t *d = malloc(n);
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    int counts[UMB_ERR_UNSUPPORTED + 1] = { 0 }, bad = 0;
    for (int iter = 0; iter < 400 && !bad; iter++) {
        memcpy(d, orig, n);
        for (int k = 0; k < 1 + iter % 3; k++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            d[off + (seed >> 8) % len] ^= (uint8_t)(1u << ((seed >> 40) & 7));
        }
        umb_device_config cfg;
        umb_device_config_default(&cfg);
        cfg.max_instructions = 100000;
        umb_device *dev;
        umb_rdna3_program *p;
        char err[512];
        if (umb_device_create(&cfg, &dev)) return 1;
        if (umb_rdna3_program_load_memory(dev, NAME, d, n, &p, err, sizeof err)) {
            umb_device_destroy(dev);
            continue;
        }
        uint64_t buf[3];
        uint32_t count = 1000;
        umb_rdna3_arg args[4] = { { &buf[0], 8 }, { &buf[1], 8 }, { &buf[2], 8 }, { &count, 4 } };
        for (int b = 0; b < 3; b++) umb_mem_alloc(dev, 4096, 4096, &buf[b]);
        umb_rdna3_dispatch dd = { .kernel = "vec_add", .work_dim = 1, .global_size = { 100, 1, 1 },
                                  .local_size = { 64, 1, 1 }, .args = args, .nargs = 4 };
        umb_status st = umb_rdna3_run(dev, p, &dd, NULL);
        if (st > UMB_ERR_UNSUPPORTED || st == UMB_ERR_INVALID || st == UMB_ERR_NOMEM ||
            (st && !umb_device_last_error(dev)[0])) {
            fprintf(stderr, "FAIL run fuzz iteration %d: %s '%s'\n", iter, umb_status_name(st), umb_device_last_error(dev));
            bad = 1;
        } else {
            counts[st]++;
        }
        umb_rdna3_program_destroy(p);
        umb_device_destroy(dev);
    }
    free(d);
    if (!bad)
        printf("ok   run fuzz: %d completed, %d guest faults, %d unsupported, %d budget, %d deadlock\n", counts[UMB_OK],
               counts[UMB_ERR_GUEST_FAULT], counts[UMB_ERR_UNSUPPORTED], counts[UMB_ERR_BUDGET], counts[UMB_ERR_DEADLOCK]);
    return bad;
}

static int unsupported(const char *co)
{
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    umb_device *dev;
    umb_rdna3_program *p;
    char err[1024];
    if (umb_device_create(&cfg, &dev) || umb_rdna3_program_load_file(dev, co, &p, err, sizeof err))
        return fprintf(stderr, "FAIL: load: %s\n", err), 1;
    uint64_t buf;
    if (umb_mem_alloc(dev, 4096, 4096, &buf)) return 1;
    umb_rdna3_arg arg = { .value = &buf, .size = 8 };
    umb_rdna3_dispatch d = { .kernel = "uses_bvh", .work_dim = 1, .global_size = { 64, 1, 1 },
                             .local_size = { 32, 1, 1 }, .args = &arg, .nargs = 1 };
    umb_status st = umb_rdna3_run(dev, p, &d, NULL);
    const char *msg = umb_device_last_error(dev);
    int bad = 0;
    if (st != UMB_ERR_UNSUPPORTED) fprintf(stderr, "FAIL: run returned %s, want UMB_ERR_UNSUPPORTED\n", umb_status_name(st)), bad = 1;
    /* ds_bvh_stack_rtn_b32 v1, v2, v3, v[4:7] = dab40000 01040302 (llvm-mc-19) */
    const char *needles[] = { "ds_bvh_stack_rtn_b32", "dab40000 01040302", "PC 0x", "uses_bvh", "not supported", NULL };
    for (const char *const *s = needles; *s; s++)
        if (!strstr(msg, *s)) fprintf(stderr, "FAIL: message '%s' lacks '%s'\n", msg, *s), bad = 1;
    /* the store before the instruction happened, the one after did not */
    uint32_t out[64];
    umb_mem_copy_from_device(dev, buf, out, sizeof out);
    if (out[0] != 1u) fprintf(stderr, "FAIL: out[0] = %u, want 1 (the run stops at the instruction)\n", out[0]), bad = 1;
    if (!bad) printf("ok   unsupported: %s\n", msg);
    umb_rdna3_program_destroy(p);
    umb_device_destroy(dev);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: rdna3_co_errors SRC_DIR BUILD_OPTIONS WORK_DIR CASE\n");
        return 2;
    }
    const char *which = argv[4];
    bool unsup = !strcmp(which, "unsupported");
    char src[1024], co[1024], err[1024];
    snprintf(src, sizeof src, "%s/%s.cl", argv[1], unsup ? "errors/uses_bvh" : "vec_add");
    snprintf(co, sizeof co, "%s/errors-%s.co", argv[3], which);
    umb_rdna3_cc_options o = { .input = src, .output = co, .opt_level = 3, .build_options = argv[2] };
    if (umb_rdna3_compile(&o, err, sizeof err)) return fprintf(stderr, "FAIL: compile: %s\n", err), 1;
    if (unsup) return unsupported(co);
    size_t n;
    uint8_t *d = slurp(co, &n);
    if (!d) return fprintf(stderr, "FAIL: cannot read %s\n", co), 1;
    int rc = !strcmp(which, "fuzz") ? fuzz(d, n) : !strcmp(which, "run_fuzz") ? run_fuzz(d, n) : malformed(which, d, n);
    free(d);
    return rc;
}
