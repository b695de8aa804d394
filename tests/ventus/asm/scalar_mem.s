# Scalar loads and stores (once per warp): sign/zero extension and sub-word stores into words.
# EXPECT: r_ld = 0xffffff80 0x80 0xffff8001 0x8001 0x80018001
# sb/sh into words of 0x11111111 at byte offsets 1 and 2
# EXPECT: r_st = 0x1111ab11 0xcdef1111
# RUN: --warps 1 --lanes 4
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    la      s0, data
    la      s1, r_ld
    lb      t0, 0(s0)
    sw      t0, 0(s1)
    lbu     t0, 0(s0)
    sw      t0, 4(s1)
    lh      t0, 4(s0)
    sw      t0, 8(s1)
    lhu     t0, 4(s0)
    sw      t0, 12(s1)
    lw      t0, 4(s0)
    sw      t0, 16(s1)
    la      s1, r_st
    li      t0, 0xab
    sb      t0, 1(s1)
    li      t0, 0xcdef
    sh      t0, 6(s1)
    endprg

    .data
    .p2align 2
data:  .word 0x00000080, 0x80018001
r_ld:  .zero 20
r_st:  .word 0x11111111, 0x11111111
