# Private memory (opcode 0x2b): per-thread words in the swizzled layout of spec §2,
#   addr = CSR_PDS + (a & ~3) * NUMW * NUMT + (a & 3) + (CSR_TID + lane) * 4,  a = vs1 + imm.
# 2 warps x 4 threads; CSR_PDS = 0x90001000 (umbra ventus run-elf). Thread t stores 0x100 + t at
# a = 8 (word 8*2*4 = 64 bytes in: 0x90001040 + 4t) and the byte 0xa0 + t at a = 13 (12*8 + 1:
# byte 1 of 0x90001060 + 4t), then reads both back with vlw.v / vlbu.v.
# RUN: --warps 2 --lanes 4
# EXPECT: 0x90001040 = 0x100 0x101 0x102 0x103 0x104 0x105 0x106 0x107
# EXPECT: 0x90001060 = 0xa000 0xa100 0xa200 0xa300 0xa400 0xa500 0xa600 0xa700
# EXPECT: back = 0x100 0x101 0x102 0x103 0x104 0x105 0x106 0x107
# EXPECT: back_b = 0xa0 0xa1 0xa2 0xa3 0xa4 0xa5 0xa6 0xa7
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    vt_tid  v1, t0
    vmv.v.i v6, 0                # vs1 = 0: the offset alone is the private address
    li      t0, 0x100
    vadd.vx v2, v1, t0
    vsw_p   2, 8, 6
    li      t0, 0xa0
    vadd.vx v3, v1, t0
    vmv.v.i v7, 5
    vsb_p   3, 8, 7              # a = 5 + 8 = 13
    vlw_p   4, 8, 6
    vlbu_p  5, 13, 6
    vt_addr v10, v1, back, t1
    vsw12   4, 0, 10
    vt_addr v10, v1, back_b, t1
    vsw12   5, 0, 10
    endprg

    .data
    .p2align 2
back:   .zero 32
back_b: .zero 32
