/* The translator's cache (src/runtime/rdna3_jit_cache.c, docs/TRANSLATOR.md "The translation
 * cache"), through the library as a runtime uses it:
 *   cache_test SRC_DIR WORK_DIR CASE
 * memory   a second launch of the same kernel on a device uses the translation in memory; code
 *          rewritten in place (another program's bytes copied over it) is translated again and
 *          runs the new code
 * disk     a kernel translated on one device is loaded from the disk cache on a new device
 *          (as a later process would); a damaged entry is translated again
 * auto     `auto` translates code once the wave-instructions its launches ran interpreted reach
 *          8192 per byte of the kernel's code, on the device's translator thread: launches of
 *          64 waves run interpreted (no log line) until the one during which the sum passes the
 *          threshold, which asks for the translation mid-launch (saying how much ran before it);
 *          later ones find it in memory once it is made. The launch is computed from the
 *          kernel's code size and the wave-instructions of one launch (umb_stats).
 * foreground  as `auto` in a process that set umb_jit_foreground_first (the HIP and OpenCL
 *          rooms, whose devices live until the program exits): the process's first translation
 *          is made during the launch that asks for it, not in the background (a program exiting
 *          during it crashed: src/jit/jit.c, the exit gate), so the next launch finds it in memory.
 * Every launch's results are checked against out[i] = i * SCALE; the translation log lines
 * (umb_rdna3_dispatch.jit_log) say where each translation came from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jit/jit_policy.h"
#include "umbra/rdna3.h"
#include "umbra/umbra.h"

#define ITEMS 2048u

static const char *src_dir, *work, *which;
static int failures;

#define CHECK(cond, ...)                                                                          \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "FAIL line %d: ", __LINE__);                                          \
            fprintf(stderr, __VA_ARGS__);                                                         \
            fputc('\n', stderr);                                                                  \
            failures++;                                                                           \
        }                                                                                         \
    } while (0)

static void build(int scale, char *co, size_t len)
{
    char src[1024], def[32], err[1024];
    snprintf(src, sizeof src, "%s/scale.cl", src_dir);
    /* named by the case too: CTest runs the cases at once, and clang and lld remove an output
     * before writing it, so a shared name lets one case load a file another is rebuilding */
    snprintf(co, len, "%s/jit-cache-%s-scale%d.co", work, which, scale);
    snprintf(def, sizeof def, "SCALE=%d", scale);
    const char *defs[1] = { def };
    umb_rdna3_cc_options o = { .input = src, .output = co, .opt_level = 3, .defines = defs, .ndefines = 1 };
    if (umb_rdna3_compile(&o, err, sizeof err)) {
        fprintf(stderr, "FAIL: compile %s: %s\n", src, err);
        exit(1);
    }
}

static umb_device *new_device(void)
{
    umb_device *dev;
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    if (umb_device_create(&cfg, &dev)) {
        fprintf(stderr, "FAIL: no device\n");
        exit(1);
    }
    return dev;
}

static umb_rdna3_program *load(umb_device *dev, const char *co)
{
    umb_rdna3_program *p;
    char err[1024];
    if (umb_rdna3_program_load_file(dev, co, &p, err, sizeof err)) {
        fprintf(stderr, "FAIL: load %s: %s\n", co, err);
        exit(1);
    }
    return p;
}

/* One launch of `scale` over `items` work-items in groups of 32 (one wave each); checks the
 * results; returns the translation log line it printed ("" if none). */
static uint64_t last_warp_insts;   /* of the last launch */

static const char *launch(umb_device *dev, umb_rdna3_program *p, uint32_t mode, const char *disk, int scale,
                          uint32_t items, char *line, size_t len)
{
    uint64_t buf;
    line[0] = '\0';
    if (umb_mem_alloc(dev, (uint64_t)items * 4, 256, &buf)) {
        CHECK(0, "no device memory");
        return line;
    }
    FILE *log = tmpfile();
    umb_rdna3_arg arg = { .value = &buf, .size = 8 };
    umb_rdna3_dispatch d = { .kernel = "scale", .work_dim = 1, .global_size = { items, 1, 1 },
                             .local_size = { 32, 1, 1 }, .args = &arg, .nargs = 1, .jit = mode, .jit_log = log,
                             .jit_cache_dir = disk };
    umb_stats st = { 0 };
    umb_status s = umb_rdna3_run(dev, p, &d, &st);
    CHECK(s == UMB_OK, "launch: %s: %s", umb_status_name(s), umb_device_last_error(dev));
    last_warp_insts = st.warp_insts;
    int32_t *out = malloc((size_t)items * 4);
    if (out && umb_mem_copy_from_device(dev, buf, out, (uint64_t)items * 4) == UMB_OK) {
        for (uint32_t i = 0; i < items; i++)
            if (out[i] != (int32_t)(i * (uint32_t)scale)) {
                CHECK(0, "out[%u] = %d, expected %d (SCALE %d)", i, out[i], (int32_t)(i * (uint32_t)scale), scale);
                break;
            }
    }
    free(out);
    umb_mem_free(dev, buf);
    rewind(log);
    if (!fgets(line, (int)len, log)) line[0] = '\0';
    fclose(log);
    return line;
}

static bool says(const char *line, const char *what) { return strstr(line, what) != NULL; }

static void case_memory(const char *co1000, const char *co3000)
{
    char line[512];
    umb_device *dev = new_device();
    umb_rdna3_program *a = load(dev, co1000), *b = load(dev, co3000);
    launch(dev, a, UMB_RDNA3_JIT_ALWAYS, NULL, 1000, ITEMS, line, sizeof line);
    CHECK(says(line, ", translated,"), "first launch: '%s', expected a translation", line);
    launch(dev, a, UMB_RDNA3_JIT_ALWAYS, NULL, 1000, ITEMS, line, sizeof line);
    CHECK(says(line, ", in memory,"), "second launch: '%s', expected the translation in memory", line);
    /* b's kernel runs its own translation (other bytes at another address) */
    launch(dev, b, UMB_RDNA3_JIT_ALWAYS, NULL, 3000, ITEMS, line, sizeof line);
    CHECK(says(line, ", translated,"), "other program: '%s', expected a translation", line);

    /* copy b's image over a's: a's kernel now holds b's code, at a's address */
    uint64_t size = (umb_rdna3_program_code_words(a) * 4u);
    CHECK(size == (umb_rdna3_program_code_words(b) * 4u), "the two builds differ in size (%llu, %llu)",
          (unsigned long long)size, (unsigned long long)(umb_rdna3_program_code_words(b) * 4u));
    uint8_t *img = malloc(size);
    CHECK(img && !umb_mem_copy_from_device(dev, umb_rdna3_program_base(b), img, size) &&
              !umb_mem_copy_to_device(dev, umb_rdna3_program_base(a), img, size),
          "could not copy the image");
    free(img);
    launch(dev, a, UMB_RDNA3_JIT_ALWAYS, NULL, 3000, ITEMS, line, sizeof line);
    /* the same bytes as b's: b's translation serves it (found by its bytes), never a's old one */
    CHECK(says(line, ", in memory,"), "rewritten code: '%s', expected b's translation from memory", line);
    umb_rdna3_program_destroy(a);
    umb_rdna3_program_destroy(b);
    umb_device_destroy(dev);
}

static void case_disk(const char *co1000)
{
    char line[512], dir[1024], cmd[1200];
    snprintf(dir, sizeof dir, "%s/jit-cache-disk", work);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0 || mkdir(dir, 0755) != 0) {
        CHECK(0, "cannot make %s", dir);
        return;
    }
    for (int round = 0; round < 3; round++) {
        umb_device *dev = new_device();   /* a new device: an empty memory cache, as a new process */
        umb_rdna3_program *a = load(dev, co1000);
        launch(dev, a, UMB_RDNA3_JIT_ALWAYS, dir, 1000, ITEMS, line, sizeof line);
        const char *want = round == 1 ? ", from the disk cache," : ", translated,";
        CHECK(says(line, want), "round %d: '%s', expected '%s'", round, line, want);
        umb_rdna3_program_destroy(a);
        umb_device_destroy(dev);
        if (round == 1) {   /* damage the entry: the next round must translate again */
            snprintf(cmd, sizeof cmd, "for f in '%s'/*.rdna3jit; do head -c 100 \"$f\" > \"$f.cut\" && mv \"$f.cut\" \"$f\"; done", dir);
            CHECK(system(cmd) == 0, "could not damage the cache entry");
        }
    }
}

static bool foreground;   /* case foreground: the first translation in the foreground */

static void case_auto(const char *co1000)
{
    char line[512];
    umb_device *dev = new_device();
    umb_rdna3_program *a = load(dev, co1000);
    const umb_rdna3_kernel_info *ki = umb_rdna3_program_find_kernel(a, "scale");
    CHECK(ki && ki->code_size, "no code size for kernel scale");
    uint64_t threshold = 8192u * (ki ? ki->code_size : 0);
    launch(dev, a, UMB_RDNA3_JIT_AUTO, NULL, 1000, ITEMS, line, sizeof line);
    uint64_t per_launch = last_warp_insts;
    CHECK(!line[0], "launch 1 (%llu wave-instructions): '%s', expected the interpreter",
          (unsigned long long)per_launch, line);
    /* the launch during which the sum passes the threshold asks for the translation */
    uint64_t firing = (threshold + per_launch - 1) / per_launch;
    CHECK(firing > 2 && firing < 5000, "%llu launches to pay for the translation (%llu bytes of code)",
          (unsigned long long)firing, (unsigned long long)(ki ? ki->code_size : 0));
    uint64_t i = 2;
    for (; i < firing && !failures; i++) {
        launch(dev, a, UMB_RDNA3_JIT_AUTO, NULL, 1000, ITEMS, line, sizeof line);
        CHECK(!line[0], "launch %llu (%llu wave-instructions so far): '%s', expected the interpreter",
              (unsigned long long)i, (unsigned long long)(i * per_launch), line);
    }
    launch(dev, a, UMB_RDNA3_JIT_AUTO, NULL, 1000, ITEMS, line, sizeof line);
    char want[160];
    snprintf(want, sizeof want, "interpreted (%llu by earlier launches)", (unsigned long long)((firing - 1) * per_launch));
    CHECK(says(line, "translation asked after ") && says(line, want), "launch %llu: '%s', expected '%s'",
          (unsigned long long)firing, line, want);
    if (foreground) {   /* made during that launch: the next one has it */
        CHECK(!says(line, "background"), "launch %llu: '%s', expected a translation in the foreground",
              (unsigned long long)firing, line);
        launch(dev, a, UMB_RDNA3_JIT_AUTO, NULL, 1000, ITEMS, line, sizeof line);
        CHECK(says(line, ", in memory,"), "launch %llu: '%s', expected the translation in memory",
              (unsigned long long)firing + 1, line);
        printf("foreground: translation asked and made in launch %llu\n", (unsigned long long)firing);
        umb_rdna3_program_destroy(a);
        umb_device_destroy(dev);
        return;
    }
    /* later launches run interpreted (while it is being made) until it is published */
    for (i = firing + 1; i < firing + 20000; i++) {
        launch(dev, a, UMB_RDNA3_JIT_AUTO, NULL, 1000, ITEMS, line, sizeof line);
        if (!says(line, ", translating in the background,")) break;
    }
    CHECK(says(line, ", in memory,"), "launch %llu: '%s', expected the translation in memory", (unsigned long long)i, line);
    launch(dev, a, UMB_RDNA3_JIT_AUTO, NULL, 1000, ITEMS, line, sizeof line);
    CHECK(says(line, ", in memory,"), "launch %llu: '%s', expected the translation in memory", (unsigned long long)i + 1, line);
    printf("auto: %llu bytes of code, %llu wave-instructions a launch: translation asked in launch %llu, "
           "in memory from launch %llu\n", (unsigned long long)(ki ? ki->code_size : 0), (unsigned long long)per_launch,
           (unsigned long long)firing, (unsigned long long)i);
    umb_rdna3_program_destroy(a);
    umb_device_destroy(dev);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: cache_test SRC_DIR WORK_DIR memory|disk|auto|foreground\n");
        return 2;
    }
    src_dir = argv[1], work = argv[2], which = argv[3];
    char co1000[1024], co3000[1024];
    build(1000, co1000, sizeof co1000);
    build(3000, co3000, sizeof co3000);
    if (!strcmp(argv[3], "memory")) case_memory(co1000, co3000);
    else if (!strcmp(argv[3], "disk")) case_disk(co1000);
    else if (!strcmp(argv[3], "auto")) case_auto(co1000);
    else if (!strcmp(argv[3], "foreground")) {
        umb_jit_foreground_first();
        foreground = true;
        case_auto(co1000);
    }
    else return fprintf(stderr, "unknown case %s\n", argv[3]), 2;
    if (failures) return 1;
    printf("%s: ok\n", argv[3]);
    return 0;
}
