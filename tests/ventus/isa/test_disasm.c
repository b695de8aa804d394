/* ventus.isa.disasm: umb_ventus_disasm against two oracles written by others.
 *
 *   test_disasm SWEEP.dis OBJECT.dump...
 *
 * SWEEP.dis is llvm-objdump-19's listing of the instruction sweep (gen_sweep.py: every
 * standard row of insns.def, plain, masked and alias forms); for each word the text must equal
 * llvm-objdump's exactly (the " <symbol+off>" suffix of branch targets aside). Every standard
 * table row must occur in the sweep.
 * The OBJECT.dump files are the Ventus toolchain's disassembly of the shipped programs: for the
 * custom opcodes (0x0b, 0x2b, 0x5b, 0x7b) the text must equal the toolchain's; for every other
 * word the mnemonic must (the toolchain prints decimal immediates and numeric CSRs, llvm-19 hex).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/ventus/ventus_isa.h"
#include "umbra/ventus.h"

static int failures;

static void strip_symbol(char *t)
{
    char *p = strstr(t, " <");
    if (p) *p = 0;
    size_t n = strlen(t);
    while (n && (t[n - 1] == '\n' || t[n - 1] == ' ' || t[n - 1] == '\r')) t[--n] = 0;
}

static int check_sweep(const char *path, bool *seen)
{
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "cannot open %s\n", path); return -1; }
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned addr, word;
        int off = 0;
        if (sscanf(line, " %x: %8x %n", &addr, &word, &off) != 2 || off == 0) continue;
        char *text = line + off;
        while (*text == ' ' || *text == '\t') text++;
        strip_symbol(text);
        char mine[256];
        umb_ventus_disasm(word, addr, mine, sizeof mine);
        vt_insn in;
        vt_decode(word, addr, &in);
        if (in.op < VT_OP_COUNT) seen[in.op] = true;
        n++;
        if (strcmp(mine, text) != 0) {
            failures++;
            printf("FAIL 0x%08x at 0x%x: llvm-objdump \"%s\", umbra \"%s\"\n", word, addr, text, mine);
        }
    }
    fclose(f);
    return n;
}

static bool is_custom(uint32_t w)
{
    uint32_t op = w & 0x7f;
    return op == 0x0b || op == 0x2b || op == 0x5b || op == 0x7b;
}

/* object.dump lines: "80000000: 97 41 00 00  \tauipc\tgp, 4" */
static int check_dump(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "cannot open %s\n", path); return -1; }
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned addr, b[4];
        int off = 0;
        if (sscanf(line, "%x: %2x %2x %2x %2x %n", &addr, &b[0], &b[1], &b[2], &b[3], &off) != 5 || !off) continue;
        if (!strchr(line, '\t')) continue;
        uint32_t word = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
        char *text = strchr(line, '\t') + 1;
        strip_symbol(text);
        char mine[256];
        umb_ventus_disasm(word, addr, mine, sizeof mine);
        n++;
        if (is_custom(word)) {
            if (strcmp(mine, text) != 0) {
                failures++;
                printf("FAIL %s 0x%08x: toolchain \"%s\", umbra \"%s\"\n", path, word, text, mine);
            }
        } else {
            size_t a = strcspn(text, "\t"), m = strcspn(mine, "\t");
            if (a != m || strncmp(text, mine, a) != 0) {
                failures++;
                printf("FAIL %s 0x%08x: toolchain mnemonic \"%.*s\", umbra \"%.*s\"\n", path, word, (int)a,
                       text, (int)m, mine);
            }
        }
    }
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: test_disasm SWEEP.dis [OBJECT.dump...]\n"); return 2; }
    bool seen[VT_OP_COUNT] = {0};
    int n = check_sweep(argv[1], seen);
    if (n <= 0) { printf("FAIL: no instructions in %s\n", argv[1]); return 1; }
    printf("sweep: %d words compared with llvm-objdump-19\n", n);
    int missing = 0;
    for (int i = 0; i < VT_OP_COUNT; i++) {
        uint32_t op = vt_insn_table[i].match & 0x7f;
        bool custom = op == 0x0b || op == 0x2b || op == 0x5b || op == 0x7b;
        if (!seen[i] && !custom && vt_insn_table[i].fmt != VT_F_NONE) {
            printf("FAIL: table row %s is not in the sweep\n", vt_insn_table[i].name);
            missing++;
        }
    }
    failures += missing;
    for (int i = 2; i < argc; i++) {
        int k = check_dump(argv[i]);
        if (k <= 0) { printf("FAIL: no instructions in %s\n", argv[i]); failures++; }
        else printf("%s: %d words\n", argv[i], k);
    }
    /* an unknown encoding reads "unknown 0x........" */
    char t[64];
    umb_ventus_disasm(0xffffffffu, 0, t, sizeof t);
    if (strcmp(t, "unknown 0xffffffff") != 0) { printf("FAIL unknown word: \"%s\"\n", t); failures++; }
    printf("%s: %d failures\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
