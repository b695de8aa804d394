# A read of a CSR number that names no CSR (0xde0) is an illegal instruction; the message names
# the number and says that no such CSR exists (it printed "(null)" before, issue 13).
# RUN: --warps 1 --lanes 4
# ERROR: CSR 0xde0 (no such CSR) is not accessible
# ERROR: illegal instruction
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    csrr    t0, 0xde0
    endprg
