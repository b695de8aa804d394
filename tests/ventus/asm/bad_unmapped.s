# A per-lane load from unmapped memory: the message names the address and the lane.
# Lane 0 reads 0x10000000 (never mapped by umbra ventus run-elf).
# RUN: --warps 1 --lanes 4
# ERROR: 0x10000000
# ERROR: lane 0
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    vid.v   v1
    vsll.vi v1, v1, 2
    li      t0, 0x10000000
    vadd.vx v1, v1, t0
    vlw12   2, 0, 1
    endprg
