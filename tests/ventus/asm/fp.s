# F extension: rounding modes, IEEE special cases and fflags (RISC-V unprivileged spec ch. "F":
# canonical NaN 0x7fc00000, fmin/fmax NaN rules, saturating conversions; fflags NV=0x10,
# DZ=0x08, OF=0x04, UF=0x02, NX=0x01).
# 1 + 2^-24 lies halfway between 1 and the next float: RNE 1.0 (even), RTZ 1.0, RDN 1.0,
# RUP 1+2^-23, RMM 1+2^-23; for -(1 + 2^-24) RDN and RMM round away, the others toward zero.
# The golden model writes an x register's value into the f register of the same number too (and
# back), so the f registers used here are ones whose x twin the test never writes (not ft0: x0 is
# written by fsflags zero; not ft5/ft6: t0/t1).
# RUN: --warps 1 --lanes 1
# EXPECT: r_round = 0x3f800000 0x3f800000 0x3f800000 0x3f800001 0x3f800001
# EXPECT: r_nround = 0xbf800000 0xbf800000 0xbf800001 0xbf800000 0xbf800001
# 1/0 = +inf (DZ); sqrt(-1) = canonical NaN (NV); fmin(qNaN, 2) = 2 (no flag);
# fmin(sNaN, 2) = 2 (NV); fmax(qNaN, qNaN) = canonical NaN; flags after each
# EXPECT: r_special = 0x7f800000 0x08 0x7fc00000 0x10 0x40000000 0x00 0x40000000 0x10 0x7fc00000 0x00
# fcvt.w.s: NaN -> 0x7fffffff (NV); -3e9 -> 0x80000000 (NV); fcvt.wu.s -1.0 -> 0 (NV);
# 2.5 -> 2 (rne), 3 (rmm), -2.5 -> -3 (rdn), 2 (rtz) with NX
# EXPECT: r_cvt = 0x7fffffff 0x80000000 0 2 3 0xfffffffd 2 0x01
# fclass.s: -0.0 -> bit 3, +inf -> bit 7, sNaN -> bit 8, qNaN -> bit 9, -1.0 -> bit 1
# EXPECT: r_class = 0x008 0x080 0x100 0x200 0x002
# fmadd.s 3*4+0.5 = 12.5; 0x7f7fffff * 2 -> +inf with OF|NX (0x05)
# EXPECT: r_misc = 0x41480000 0x7f800000 0x05
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    li      t0, 0x3f800000       # 1.0
    fmv.w.x fa0, t0
    li      t0, 0x33800000       # 2^-24
    fmv.w.x fa1, t0
    la      s0, r_round
    fadd.s  ft4, fa0, fa1, rne
    fsw     ft4, 0(s0)
    fadd.s  ft4, fa0, fa1, rtz
    fsw     ft4, 4(s0)
    fadd.s  ft4, fa0, fa1, rdn
    fsw     ft4, 8(s0)
    fadd.s  ft4, fa0, fa1, rup
    fsw     ft4, 12(s0)
    fadd.s  ft4, fa0, fa1, rmm
    fsw     ft4, 16(s0)
    fneg.s  fa0, fa0
    fneg.s  fa1, fa1
    la      s0, r_nround
    fadd.s  ft4, fa0, fa1, rne
    fsw     ft4, 0(s0)
    fadd.s  ft4, fa0, fa1, rtz
    fsw     ft4, 4(s0)
    fadd.s  ft4, fa0, fa1, rdn
    fsw     ft4, 8(s0)
    fadd.s  ft4, fa0, fa1, rup
    fsw     ft4, 12(s0)
    fadd.s  ft4, fa0, fa1, rmm
    fsw     ft4, 16(s0)

    la      s0, r_special
    li      t0, 0x3f800000
    fmv.w.x fa0, t0              # 1.0
    fmv.w.x fa1, zero            # +0.0
    fsflags zero
    fdiv.s  ft4, fa0, fa1
    frflags t1
    fsw     ft4, 0(s0)
    sw      t1, 4(s0)
    fneg.s  fa2, fa0             # -1.0
    fsflags zero
    fsqrt.s ft4, fa2
    frflags t1
    fsw     ft4, 8(s0)
    sw      t1, 12(s0)
    li      t0, 0x7fc00000
    fmv.w.x fa3, t0              # qNaN
    li      t0, 0x40000000
    fmv.w.x fa4, t0              # 2.0
    li      t0, 0x7f800001
    fmv.w.x fa5, t0              # sNaN
    fsflags zero
    fmin.s  ft4, fa3, fa4
    frflags t1
    fsw     ft4, 16(s0)
    sw      t1, 20(s0)
    fsflags zero
    fmin.s  ft4, fa5, fa4
    frflags t1
    fsw     ft4, 24(s0)
    sw      t1, 28(s0)
    fsflags zero
    fmax.s  ft4, fa3, fa3
    frflags t1
    fsw     ft4, 32(s0)
    sw      t1, 36(s0)

    la      s0, r_cvt
    fcvt.w.s t0, fa3
    sw      t0, 0(s0)
    li      t0, 0xcf32d05e       # -3e9
    fmv.w.x ft1, t0
    fcvt.w.s t0, ft1
    sw      t0, 4(s0)
    fcvt.wu.s t0, fa2
    sw      t0, 8(s0)
    li      t0, 0x40200000       # 2.5
    fmv.w.x ft2, t0
    fcvt.w.s t0, ft2, rne
    sw      t0, 12(s0)
    fcvt.w.s t0, ft2, rmm
    sw      t0, 16(s0)
    fneg.s  ft3, ft2
    fcvt.w.s t0, ft3, rdn
    sw      t0, 20(s0)
    fsflags zero
    fcvt.w.s t0, ft2, rtz
    frflags t1
    sw      t0, 24(s0)
    sw      t1, 28(s0)

    la      s0, r_class
    fneg.s  ft4, fa1             # -0.0
    fclass.s t0, ft4
    sw      t0, 0(s0)
    li      t0, 0x7f800000
    fmv.w.x ft4, t0
    fclass.s t0, ft4
    sw      t0, 4(s0)
    fclass.s t0, fa5
    sw      t0, 8(s0)
    fclass.s t0, fa3
    sw      t0, 12(s0)
    fclass.s t0, fa2
    sw      t0, 16(s0)

    la      s0, r_misc
    li      t0, 0x40400000       # 3.0
    fmv.w.x ft4, t0
    li      t0, 0x40800000       # 4.0
    fmv.w.x ft1, t0
    li      t0, 0x3f000000       # 0.5
    fmv.w.x ft2, t0
    fmadd.s ft3, ft4, ft1, ft2
    fsw     ft3, 0(s0)
    li      t0, 0x7f7fffff
    fmv.w.x ft4, t0
    fsflags zero
    fadd.s  ft3, ft4, ft4
    frflags t1
    fsw     ft3, 4(s0)
    sw      t1, 8(s0)
    endprg

    .data
    .p2align 2
r_round:   .zero 20
r_nround:  .zero 20
r_special: .zero 40
r_cvt:     .zero 32
r_class:   .zero 20
r_misc:    .zero 12
