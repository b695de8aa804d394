# Standard RVV memory and FP vector instructions with Ventus per-thread semantics (spec §1):
# addresses are the RVV ones, each thread loads/stores its own element. 1 warp of 8 threads.
# vle32.v from src (element i = src[i]); vse32.v to r_vse; vlse32.v with stride 8
# (element i = src[2i]); vluxei32.v with byte offsets 4*(7-i) (element i = src[7-i])
# EXPECT: r_vse = 10 11 12 13 14 15 16 17
# EXPECT: r_vlse = 10 12 14 16 18 20 22 24
# EXPECT: r_vlux = 17 16 15 14 13 12 11 10
# vfadd.vv / vfmul.vf / vfmadd: x = float(i): x + x, x * 0.5, (x * x) + 1.0
# EXPECT: r_fadd = 0x00000000 0x40000000 0x40800000 0x40c00000 0x41000000 0x41200000 0x41400000 0x41600000
# EXPECT: r_fmadd = 0x3f800000 0x40000000 0x40a00000 0x41200000 0x41880000 0x41d00000 0x42140000 0x42480000
# vmflt.vf x < 3.0: 0/1 in each thread's own element
# EXPECT: r_flt = 1 1 1 0 0 0 0 0
# vmerge.vvm reads v0 as an RVV bit mask (bit i = lane i): v0 = 0xa5, lane i = bit ? 100+i : i
# EXPECT: r_merge = 100 1 102 3 4 105 6 107
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    vid.v   v1
    la      a0, src
    vle32.v v2, (a0)
    la      a1, r_vse
    vse32.v v2, (a1)
    li      t0, 8
    vlse32.v v3, (a0), t0
    vt_addr v10, v1, r_vlse, t1
    vsw12   3, 0, 10
    li      t0, 7
    vrsub.vx v4, v1, t0
    vsll.vi v4, v4, 2
    vluxei32.v v5, (a0), v4
    vt_addr v10, v1, r_vlux, t1
    vsw12   5, 0, 10
    vfcvt.f.xu.v v6, v1
    vfadd.vv v7, v6, v6
    vt_addr v10, v1, r_fadd, t1
    vsw12   7, 0, 10
    li      t0, 0x3f800000
    fmv.w.x fa0, t0
    vfmv.v.f v8, fa0
    vfmadd.vv v6, v6, v8              # v6 = v6 * v6 + v8
    vt_addr v10, v1, r_fmadd, t1
    vsw12   6, 0, 10
    vfcvt.f.xu.v v6, v1
    li      t0, 0x40400000
    fmv.w.x fa1, t0
    vmflt.vf v9, v6, fa1
    vt_addr v10, v1, r_flt, t1
    vsw12   9, 0, 10
    li      t0, 100
    vadd.vx v11, v1, t0
    li      t0, 0xa5
    vmv.v.x v0, t0
    vmerge.vvm v12, v1, v11, v0
    vt_addr v10, v1, r_merge, t1
    vsw12   12, 0, 10
    endprg

    .data
    .p2align 2
src:     .word 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25
r_vse:   .zero 32
r_vlse:  .zero 32
r_vlux:  .zero 32
r_fadd:  .zero 32
r_fmadd: .zero 32
r_flt:   .zero 32
r_merge: .zero 32
