# zve32f integer basics with per-thread semantics (spec §1): each lane computes on its own
# element; compares write 0/1 into the lane's own element. 1 warp of 8 threads, tid = 0..7.
# RUN: --warps 1 --lanes 8
# v2 = tid * 3 + 100            (vmul.vx, vadd.vi)
# EXPECT: r_arith = 100 103 106 109 112 115 118 121
# v3 = (tid - 4) >> 1 arithmetic (vsub.vx, vsra.vi): -2 -2 -1 -1 0 0 1 1
# EXPECT: r_sra = -2 -2 -1 -1 0 0 1 1
# v4 = tid < 3 (vmslt.vx, one 0/1 per thread)
# EXPECT: r_cmp = 1 1 1 0 0 0 0 0
# v5 = 20 / (tid - 2) unsigned division; tid 2 divides by zero: all ones
# EXPECT: r_div = 0 0 0xffffffff 20 10 6 5 4
# v6 = max(tid, 5) signed; vmv.x.s of v9 (20 in every lane: with several active lanes every
# lane writes x, so only a uniform vector has a defined result, spec §1)
# EXPECT: r_max = 5 5 5 5 5 5 6 7
# EXPECT: r_mvxs = 20
# v7 = float(tid) * 0.5 (vfcvt.f.xu.v, vfmul.vf)
# EXPECT: r_fp = 0x00000000 0x3f000000 0x3f800000 0x3fc00000 0x40000000 0x40200000 0x40400000 0x40600000
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    vt_tid  v1, t0
    li      t0, 3
    vmul.vx v2, v1, t0
    vadd.vi v2, v2, 15
    li      t0, 85
    vadd.vx v2, v2, t0
    vt_addr v10, v1, r_arith, t1
    vsw12   2, 0, 10
    li      t0, 4
    vsub.vx v3, v1, t0
    vsra.vi v3, v3, 1
    vt_addr v10, v1, r_sra, t1
    vsw12   3, 0, 10
    li      t0, 3
    vmslt.vx v4, v1, t0
    vt_addr v10, v1, r_cmp, t1
    vsw12   4, 0, 10
    li      t0, 2
    vsub.vx v8, v1, t0
    li      t0, 20
    vmv.v.x v9, t0
    vdivu.vv v5, v9, v8
    vt_addr v10, v1, r_div, t1
    vsw12   5, 0, 10
    li      t0, 5
    vmax.vx v6, v1, t0
    vt_addr v10, v1, r_max, t1
    vsw12   6, 0, 10
    vmv.x.s a0, v9
    la      t1, r_mvxs
    sw      a0, 0(t1)
    vfcvt.f.xu.v v7, v1
    li      t0, 0x3f000000
    fmv.w.x ft0, t0
    vfmul.vf v7, v7, ft0
    vt_addr v10, v1, r_fp, t1
    vsw12   7, 0, 10
    endprg

    .data
    .p2align 2
r_arith: .zero 32
r_sra:   .zero 32
r_cmp:   .zero 32
r_div:   .zero 32
r_max:   .zero 32
r_mvxs:  .zero 4
r_fp:    .zero 32
