/* gfx11 decoder + disassembler on random words (seeds: .text of the RDNA3 test kernels): decode
 * at every dword of the input, with exactly the dwords that remain (an exact-size heap copy, so a
 * read past them shows), and disassemble what decodes. */
#include <stdlib.h>

#include "fuzz_common.h"
#include "isa/rdna3/rdna3.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = size / 4;
    if (n == 0) return 0;
    uint32_t *w = malloc(n * sizeof *w);
    if (!w) return 0;
    memcpy(w, data, n * sizeof *w);
    for (size_t i = 0; i < n; i++) {
        rdna3_inst in;
        char err[256], text[256];
        unsigned avail = (unsigned)(n - i > 8 ? 8 : n - i);
        if (!rdna3_decode(w + i, avail, &in, err, sizeof err)) continue;
        if (in.size < 4 || in.size > 4 * avail) abort();   /* claims words it was not given */
        rdna3_disasm(&in, text, sizeof text);
        rdna3_mnemonic(&in);
        char tiny[8];                                       /* truncation must stay in bounds */
        rdna3_disasm(&in, tiny, sizeof tiny);
    }
    free(w);
    return 0;
}
