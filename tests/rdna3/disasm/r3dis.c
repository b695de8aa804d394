/* r3dis: umbra's RDNA3 decoder/disassembler on raw dwords, for the tests.
 *
 *   r3dis              one instruction per stdin line (hex dwords); prints its disassembly, or
 *                      "ERROR: <message>" if umbra rejects it, or "SIZE <n>" if umbra decodes a
 *                      different length than the line holds.
 *   r3dis --size       same, but decodes a prefix of the line's dwords and prints
 *                      "<dwords used>\t<disassembly>" (for comparing on random words)
 *   r3dis --fuzz N S   decodes and disassembles N random / mutated dword sequences (seed S) and
 *                      checks that the decoder never claims more dwords than it was given.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/rdna3/rdna3.h"

static int run_lines(bool with_size)
{
    char line[1024];
    while (fgets(line, sizeof line, stdin)) {
        uint32_t w[8];
        unsigned n = 0;
        char *p = line, *end;
        while (n < 8) {
            unsigned long v = strtoul(p, &end, 16);
            if (end == p) break;
            w[n++] = (uint32_t)v;
            p = end;
        }
        if (n == 0) continue;
        rdna3_inst in;
        char err[256], text[512];
        if (!rdna3_decode(w, n, &in, err, sizeof err)) {
            printf("ERROR: %s\n", err);
            continue;
        }
        if (with_size) {
            rdna3_disasm(&in, text, sizeof text);
            printf("%u\t%s\n", in.size / 4, text);
            continue;
        }
        if (in.size != 4 * n) {
            printf("SIZE %u\n", in.size);
            continue;
        }
        rdna3_disasm(&in, text, sizeof text);
        printf("%s\n", text);
    }
    return 0;
}

/* xorshift64*: deterministic, no global state */
static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12; *s ^= *s << 25; *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

static int run_fuzz(unsigned long count, uint64_t seed)
{
    /* First dwords that start every family, so that mutations reach deep into each decoder. */
    static const uint32_t seeds[] = { 0xbe800000, 0x80000000, 0xb0000000, 0xbf000000, 0xbf800000, 0xf4000000,
                                      0x7e000000, 0x02000000, 0x7c000000, 0xd4000000, 0xd5000000, 0xd6000000,
                                      0xd7000000, 0xcc000000, 0xc8000000, 0xd8000000, 0xdc000000, 0xe0000000,
                                      0xe8000000, 0xf0000000, 0xf8000000, 0xcd000000, 0xce000000 };
    uint64_t s = seed ? seed : 1;
    unsigned long ok = 0;
    for (unsigned long i = 0; i < count; i++) {
        uint32_t w[4];
        unsigned avail = 1 + (unsigned)(next(&s) % 4);
        for (unsigned j = 0; j < 4; j++) w[j] = (uint32_t)next(&s);
        if (i & 1) w[0] = seeds[next(&s) % (sizeof seeds / sizeof seeds[0])] | ((uint32_t)next(&s) & 0x03ffffffu);
        /* copy to an exactly sized heap block so that ASan catches any read past avail */
        uint32_t *h = malloc(avail * sizeof *h);
        if (!h) return 2;
        memcpy(h, w, avail * sizeof *h);
        rdna3_inst in;
        char err[64], text[48];
        if (rdna3_decode(h, avail, &in, err, sizeof err)) {
            ok++;
            if (in.size == 0 || in.size > 4 * avail || !in.exec) {
                fprintf(stderr, "decoder claimed %u bytes of %u (words %08x %08x)\n", in.size, 4 * avail, w[0], w[1]);
                free(h);
                return 1;
            }
            rdna3_disasm(&in, text, sizeof text);   /* small buffer: must truncate, not overflow */
            if (strlen(text) >= sizeof text) { free(h); return 1; }
        } else if (err[0] == 0) {
            fprintf(stderr, "rejected without a message (word %08x)\n", w[0]);
            free(h);
            return 1;
        }
        free(h);
    }
    printf("fuzz: %lu sequences, %lu decoded, no crash\n", count, ok);
    return ok > 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--fuzz")) return run_fuzz(strtoul(argv[2], NULL, 10), strtoull(argv[3], NULL, 10));
    return run_lines(argc == 2 && !strcmp(argv[1], "--size"));
}
