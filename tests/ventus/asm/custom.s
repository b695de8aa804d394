# Ventus custom instructions other than the SIMT ones (spec §2) and the launch CSRs (spec §4).
# 2 warps x 4 threads; tid = CSR_TID + lane = 0..7.
# RUN: --warps 2 --lanes 4
# vadd12.vi / vsub12.vi take 12-bit immediates: v2 = tid + 1000, v3 = tid - 2000 (sign-extended)
# EXPECT: r_add12 = 1000 1001 1002 1003 1004 1005 1006 1007
# EXPECT: r_sub12 = 2000 2001 2002 2003 2004 2005 2006 2007
# vlb12.v sign-extends the byte 0x80 + tid; vlbu12.v zero-extends; vlh12.v sign-extends 0x8000+tid
# EXPECT: r_lb = 0xffffff80 0xffffff81 0xffffff82 0xffffff83 0xffffff84 0xffffff85 0xffffff86 0xffffff87
# EXPECT: r_lbu = 0x80 0x81 0x82 0x83 0x84 0x85 0x86 0x87
# EXPECT: r_lh = 0xffff8000 0xffff8001 0xffff8002 0xffff8003 0xffff8004 0xffff8005 0xffff8006 0xffff8007
# vsh12.v / vsb12.v store the low 16 / 8 bits of 0x12345678 + tid into a zeroed word per lane
# EXPECT: r_sh = 0x5678 0x5679 0x567a 0x567b 0x567c 0x567d 0x567e 0x567f
# EXPECT: r_sb = 0x78 0x79 0x7a 0x7b 0x7c 0x7d 0x7e 0x7f
# CSRs per warp w (2 warps): NUMW, NUMT, WID, TID, KNL (0x90000000 under run-elf), GDX
# EXPECT: r_csr = 2 4 0 0 0x90000000 0 2 4 1 4 0x90000000 0
# setrpc rd, rs1, imm: rd = rs1 + imm = 0x1234 + 0x56; barriersub is a no-op
# EXPECT: r_rpc = 0x128a
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    vt_tid  v1, t0
    .insn i 0x0b, 0, x2, x1, 1000          # vadd12.vi v2, v1, 1000
    vt_addr v10, v1, r_add12, t1
    vsw12   2, 0, 10
    .insn i 0x0b, 1, x3, x1, -2000         # vsub12.vi v3, v1, -2000: v1 - (-2000)
    vt_addr v10, v1, r_sub12, t1
    vsw12   3, 0, 10
    vt_addr v11, v1, bytes, t1             # byte table: 0x80 + i at bytes + 4i
    .insn i 0x7b, 0, x4, x11, 0            # vlb12.v v4, 0(v11)
    vt_addr v10, v1, r_lb, t1
    vsw12   4, 0, 10
    .insn i 0x7b, 4, x5, x11, 0            # vlbu12.v v5, 0(v11)
    vt_addr v10, v1, r_lbu, t1
    vsw12   5, 0, 10
    vt_addr v12, v1, halves, t1
    .insn i 0x7b, 1, x6, x12, 0            # vlh12.v v6, 0(v12)
    vt_addr v10, v1, r_lh, t1
    vsw12   6, 0, 10
    li      t0, 0x12345678
    vadd.vx v7, v1, t0
    vt_addr v10, v1, r_sh, t1
    .insn s 0x7b, 3, x7, 0(x10)            # vsh12.v v7, 0(v10)
    vt_addr v10, v1, r_sb, t1
    .insn s 0x7b, 7, x7, 0(x10)            # vsb12.v v7, 0(v10)
    # CSRs, one row of 6 words per warp
    csrr    s1, 0x805                      # WID
    li      t0, 24
    mul     s2, s1, t0
    la      s0, r_csr
    add     s0, s0, s2
    csrr    t0, 0x801
    sw      t0, 0(s0)
    csrr    t0, 0x802
    sw      t0, 4(s0)
    sw      s1, 8(s0)
    csrr    t0, 0x800
    sw      t0, 12(s0)
    csrr    t0, 0x803
    sw      t0, 16(s0)
    csrr    t0, 0x808
    sw      t0, 20(s0)
    li      t0, 0x1234
    .insn i 0x5b, 3, x7, x5, 0x56          # setrpc t2, t0, 0x56
    .insn r 0x0b, 4, 3, x0, x0, x0         # barriersub
    bnez    s1, out
    la      t1, r_rpc
    sw      t2, 0(t1)
out:
    endprg

    .data
    .p2align 2
bytes:  .word 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87
halves: .word 0x8000, 0x8001, 0x8002, 0x8003, 0x8004, 0x8005, 0x8006, 0x8007
r_add12: .zero 32
r_sub12: .zero 32
r_lb:    .zero 32
r_lbu:   .zero 32
r_lh:    .zero 32
r_sh:    .zero 32
r_sb:    .zero 32
r_csr:   .zero 48
r_rpc:   .zero 4
