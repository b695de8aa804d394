/* Ventus decoder + disassemblers on random words (seeds: .text of the shipped object.riscv
 * files): the table decoder and the indexed one must agree; llvm-objdump-style and golden-model
 * text, also into buffers too small for them; regext folding of each word into the next. */
#include <stdlib.h>

#include "fuzz_common.h"
#include "isa/ventus/ventus_isa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static vt_decode_index *ix;
    if (!ix) {
        ix = malloc(sizeof *ix);
        if (!ix) return 0;
        vt_decode_index_build(ix);
    }
    size_t pos = 0;
    for (size_t i = 0; i + 4 <= size; i += 4) {
        uint32_t bits = fuzz_u32(data, size, &pos);
        uint32_t pc = 0x80000000u + (uint32_t)i;
        vt_insn a, b;
        vt_decode(bits, pc, &a);
        vt_decode_indexed(ix, bits, pc, &b);
        if (a.op != b.op || a.rd != b.rd || a.rs1 != b.rs1 || a.rs2 != b.rs2 || a.imm != b.imm) abort();
        char text[256], tiny[6];
        vt_disasm_llvm(&a, text, sizeof text);
        vt_disasm_llvm(&a, tiny, sizeof tiny);
        vt_disasm_spike(bits, pc, text, sizeof text);
        vt_disasm_spike(bits, pc, tiny, sizeof tiny);
        umb_ventus_disasm(bits, pc, text, sizeof text);
        if (i + 8 <= size) {   /* this word as a regext prefix of the next one */
            size_t p2 = pos;
            vt_insn next;
            vt_decode(fuzz_u32(data, size, &p2), pc + 4, &next);
            vt_apply_regext(&next, bits & 0x1000, bits >> 20);
            vt_disasm_llvm(&next, text, sizeof text);
        }
    }
    return 0;
}
