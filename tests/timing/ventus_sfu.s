# Two kernels that differ only in the operation of a chain of 16 dependent vector instructions:
# vadd.vx (the VALU) and vdivu.vx (the SFU). tests/timing/ventus_sfu.py runs both on the timing
# model and expects the second to take 16 x (trans_latency - valu_latency) cycles more.
    .include "prelude.inc"
    .text
    .globl add_chain
    .globl div_chain
add_chain:
    vt_init
    li      t0, 1
    vmv.v.x v1, t0
    .rept 16
    vadd.vx v1, v1, t0
    .endr
    endprg
div_chain:
    vt_init
    li      t0, 1
    vmv.v.x v1, t0
    .rept 16
    vdivu.vx v1, v1, t0
    .endr
    endprg
