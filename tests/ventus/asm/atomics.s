# A extension with 4 warps (scalar instructions run once per warp): AMOs on shared words, and
# LR/SC on a word of each warp's own. Order-independent results:
#   counter: 4 x amoadd 1 = 4;  maxw: amomax.w of the warp ids = 3;  bits: amoor 1 << wid = 0xf;
#   minu: amominu.w of (10 + wid) over an initial 0xffffffff = 10;  swap: amoswap leaves one of the
#   warp ids: checked as (swapped | 3) == 3 by storing the OR;
#   per warp w: sc after lr succeeds (0) and stores 100 + w; a second sc without lr fails (1)
#   and stores nothing.
# RUN: --warps 4 --lanes 4
# EXPECT: counter = 4 3 0xf 10
# EXPECT: lrsc = 100 101 102 103
# EXPECT: scres = 0 0 0 0
# EXPECT: scres2 = 1 1 1 1
# EXPECT: swapped_or3 = 3
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    csrr    s1, 0x805            # warp id
    la      s0, counter
    li      t0, 1
    amoadd.w zero, t0, (s0)
    addi    t1, s0, 4
    amomax.w zero, s1, (t1)
    sll     t0, t0, s1
    addi    t1, s0, 8
    amoor.w zero, t0, (t1)
    addi    t0, s1, 10
    addi    t1, s0, 12
    amominu.w zero, t0, (t1)
    la      t1, swapped
    amoswap.w zero, s1, (t1)
    slli    s2, s1, 2
    la      t1, lrsc
    add     t1, t1, s2
    lr.w    t2, (t1)
    addi    t3, s1, 100
    sc.w    t4, t3, (t1)
    la      t5, scres
    add     t5, t5, s2
    sw      t4, 0(t5)
    li      t3, 999
    sc.w    t4, t3, (t1)
    la      t5, scres2
    add     t5, t5, s2
    sw      t4, 0(t5)
    barrier
    bnez    s1, done             # warp 0 checks the swap result after everyone swapped
    la      t1, swapped
    lw      t0, 0(t1)
    ori     t0, t0, 3
    la      t1, swapped_or3
    sw      t0, 0(t1)
done:
    endprg

    .data
    .p2align 2
counter: .word 0, 0, 0, 0xffffffff
lrsc:    .zero 16
scres:   .word 7, 7, 7, 7
scres2:  .word 7, 7, 7, 7
swapped: .word 0x55
swapped_or3: .word 0
