# Synthetic ALU loop for the Ventus benchmark: per iteration 8 vector integer/FP ops and a
# scalar loop counter with a branch (10 warp-instructions). a0 = iterations (set below).
    .text
    .globl _start
_start:
    li      t0, 1024
    vsetvli t0, t0, e32, m1, ta, ma     # vl = threads per warp
    vid.v   v1
    vmv.v.i v2, 1
    li      t1, 0x3f800000
    vmv.v.x v7, t1                      # 1.0f
    vmv.v.x v8, t1
    li      a0, ITERATIONS
1:
    vadd.vv   v3, v1, v2
    vmul.vv   v4, v3, v1
    vxor.vv   v5, v4, v2
    vsll.vi   v6, v5, 3
    vsub.vv   v1, v6, v3
    vand.vv   v2, v1, v4
    vfadd.vv  v7, v7, v8
    vfmul.vv  v8, v8, v7
    addi      a0, a0, -1
    bnez      a0, 1b
    .word 0x0000400b                    # endprg
