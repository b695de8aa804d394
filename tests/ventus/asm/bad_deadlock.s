# A barrier that can never complete: warp 1 ends (endprg) while warp 0 waits at the barrier.
# On Ventus every warp of the workgroup must arrive (an exited warp never will): a deadlock.
# RUN: --warps 2 --lanes 4
# ERROR: deadlock
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    csrr    t0, 0x805
    bnez    t0, leave
    barrier
leave:
    endprg
