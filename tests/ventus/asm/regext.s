# regext (spec §2): the next instruction's register numbers get high bits from imm12
# (imm[2:0] -> rd, [5:3] -> rs1, [8:6] -> rs2), for v registers beyond v31.
# 1 warp of 8 threads. v1 = 0x77 stays untouched while "vadd.vv v1, v2, v3" under regext rd=1
# writes v33 = tid + 5; a second regext (rs2 high = 1) reads v33 back as vs2 into v4 = v33 + v0.
# Then v65 = v4 (rd high 2), v66 = v65 + v4 (rd and rs2 high 2), v5 = v66 (rs1 high 2).
# RUN: --warps 1 --lanes 8
# EXPECT: r_v4 = 105 106 107 108 109 110 111 112
# EXPECT: r_v1 = 0x77 0x77 0x77 0x77 0x77 0x77 0x77 0x77
# EXPECT: r_v66 = 210 212 214 216 218 220 222 224
# regexti imm12 (imm[2:0] -> rd high bits, imm[11:6] -> bits [10:5] of the immediate): vadd.vi's
# simm5 becomes simm11. +100 = 3<<5 | 4; -100 = 0x79c = 60<<5 | 0x1c (simm5 field -4).
# v33 = tid + 100 (rd high 1), v5 = tid - 100
# EXPECT: r_vi_pos = 100 101 102 103 104 105 106 107
# EXPECT: r_vi_neg = -100 -99 -98 -97 -96 -95 -94 -93
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    vt_tid  v2, t0
    li      t0, 5
    vmv.v.x v3, t0
    li      t0, 0x77
    vmv.v.x v1, t0
    li      t0, 100
    vmv.v.x v0, t0
    regext  1                    # rd += 32
    vadd.vv v1, v2, v3           # v33 = tid + 5
    regext  (1 << 6)             # vs2 (rs2 field) += 32
    vadd.vv v4, v1, v0           # v4 = v33 + v0 = tid + 105
    regext  (2 << 0)             # rd += 64
    vadd.vi v1, v4, 0            # v65 = v4
    regext  (2 << 0) | (2 << 6)  # rd += 64, vs2 += 64
    vadd.vv v2, v1, v4           # v66 = v65 + v4 = 2 * (tid + 105)
    regext  (2 << 3)             # vs1 (rs1 field) += 64
    vmv.v.v v5, v2               # v5 = v66
    vt_tid  v2, t0
    .insn i 0x0b, 3, x0, x0, (3 << 6) | 1  # regexti: rd += 32, imm bits [10:5] = 3
    vadd.vi v1, v2, 4                      # v33 = tid + 100
    vmv.v.i v0, 0
    regext  (1 << 6)
    vadd.vv v6, v1, v0                     # v6 = v33
    .insn i 0x0b, 3, x0, x0, -256          # regexti: imm12 = 60 << 6 (bits [10:5] = 111100)
    vadd.vi v7, v2, -4                     # v7 = tid - 100
    vt_tid  v9, t0
    vt_addr v10, v9, r_vi_pos, t1
    vsw12   6, 0, 10
    vt_addr v10, v9, r_vi_neg, t1
    vsw12   7, 0, 10
    vt_addr v10, v9, r_v4, t1
    vsw12   4, 0, 10
    vt_addr v10, v9, r_v1, t1
    vsw12   1, 0, 10
    vt_addr v10, v9, r_v66, t1
    vsw12   5, 0, 10
    endprg

    .data
    .p2align 2
r_v4:  .zero 32
r_v1:  .zero 32
r_v66: .zero 32
r_vi_pos: .zero 32
r_vi_neg: .zero 32
