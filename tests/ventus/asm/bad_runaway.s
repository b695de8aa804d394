# A kernel that never ends stops at the instruction budget with a clear message.
# RUN: --warps 1 --lanes 4 --max-instructions 5000
# ERROR: instruction budget
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
forever:
    j       forever
