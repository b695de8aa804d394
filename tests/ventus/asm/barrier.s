# Workgroup barrier with 4 warps x 4 threads and 2 workgroups, through local memory.
# Warp w first spins 30*w iterations, then every thread writes v = tid*3 + 1 + 1000*wg to local
# memory (CSR_LDS + 4*tid), waits at the barrier, and reads the slot of tid+4 (mod 16): a warp
# of the next number, which is still spinning when the reader arrives unless the barrier holds.
# Each workgroup has its own local memory, so the values never mix across workgroups.
# results[16*wg + tid] = ((tid + 4) % 16) * 3 + 1 + 1000*wg
# Two host threads run the two workgroups at once (the results do not depend on it).
# RUN: --warps 4 --lanes 4 --workgroups 2 --threads 2
# EXPECT: results = 13 16 19 22 25 28 31 34 37 40 43 46 1 4 7 10
# EXPECT: results+64 = 1013 1016 1019 1022 1025 1028 1031 1034 1037 1040 1043 1046 1001 1004 1007 1010
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    vt_tid  v1, t0
    csrr    s1, 0x805            # CSR_WID
    li      t0, 30
    mul     s1, s1, t0
spin:
    beqz    s1, spun
    addi    s1, s1, -1
    j       spin
spun:
    csrr    s2, 0x808            # CSR_GDX: workgroup id x
    li      t0, 1000
    mul     s3, s2, t0
    li      t0, 3
    vmul.vx v2, v1, t0
    vadd.vi v2, v2, 1
    vadd.vx v2, v2, s3
    csrr    s4, 0x806            # CSR_LDS
    vsll.vi v3, v1, 2
    vadd.vx v3, v3, s4
    vsw12   2, 0, 3
    barrier
    vadd.vi v4, v1, 4
    vand.vi v4, v4, 15
    vsll.vi v4, v4, 2
    vadd.vx v4, v4, s4
    vlw12   5, 0, 4
    slli    t0, s2, 4            # 16 * wg
    vadd.vx v6, v1, t0
    vt_addr v7, v6, results, t1
    vsw12   5, 0, 7
    endprg

    .data
    .p2align 2
results: .zero 128
