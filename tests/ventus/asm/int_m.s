# RV32I and M edge cases, scalar (once per warp). Expected values: the RISC-V unprivileged spec
# (division by zero gives all ones / the dividend; overflow gives -2^31 / 0; shifts use 5 bits).
# RUN: --warps 1 --lanes 4
# EXPECT: results = 0xffffffff 0xffffffff 7 7 0x80000000 0 0xfffffffd 0xffffffff
# EXPECT: results+32 = 0x40000000 0xfffffffe 0xffffffff 0x242d2080 0xf8cc93d6
# EXPECT: results+52 = 0xf8000000 0x08000000 2 1 0 0x12345000 0x800000f0
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    la      s0, results
    li      a0, 7
    li      a1, 0
    div     t0, a0, a1
    sw      t0, 0(s0)
    divu    t0, a0, a1
    sw      t0, 4(s0)
    rem     t0, a0, a1
    sw      t0, 8(s0)
    remu    t0, a0, a1
    sw      t0, 12(s0)
    li      a0, 0x80000000
    li      a1, -1
    div     t0, a0, a1
    sw      t0, 16(s0)
    rem     t0, a0, a1
    sw      t0, 20(s0)
    li      a0, -7
    li      a1, 2
    div     t0, a0, a1
    sw      t0, 24(s0)
    rem     t0, a0, a1
    sw      t0, 28(s0)
    li      a0, 0x80000000
    mulh    t0, a0, a0
    sw      t0, 32(s0)
    li      a0, -1
    mulhu   t0, a0, a0
    sw      t0, 36(s0)
    mulhsu  t0, a0, a0
    sw      t0, 40(s0)
    li      a0, 0x12345678
    li      a1, 0x9abcdef0
    mul     t0, a0, a1
    sw      t0, 44(s0)
    mulh    t0, a0, a1
    sw      t0, 48(s0)
    li      a0, 0x80000000
    srai    t0, a0, 4
    sw      t0, 52(s0)
    srli    t0, a0, 4
    sw      t0, 56(s0)
    li      a0, 1
    li      a1, 33
    sll     t0, a0, a1
    sw      t0, 60(s0)
    li      a0, -1
    slt     t0, a0, a1
    sw      t0, 64(s0)
    sltu    t0, a0, a1
    sw      t0, 68(s0)
    lui     t0, 0x12345
    sw      t0, 72(s0)
    auipc   t0, 0            # this instruction is at 0x800000f0 (llvm-objdump of the linked test)
    sw      t0, 76(s0)
    endprg

    .data
    .p2align 2
results:
    .zero 128
