# An illegal instruction must stop the run with its PC, warp, workgroup, encoding and disassembly.
# The word 0xffffffff (no RV32 instruction) is at 0x80000010, right after vt_init's 4 instructions;
# warp 1 of workgroup 0 runs into it too, but warp 0 reaches it first.
# RUN: --warps 2 --lanes 4
# ERROR: 0x80000010
# ERROR: ffffffff
# ERROR: warp 0
# ERROR: workgroup
# ERROR: illegal
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    .word 0xffffffff
    endprg
