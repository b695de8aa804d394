# SIMT divergence with vbranch/setrpc/join (spec §3), nested two deep, 1 warp of 8 threads.
#   tid < 4:  v3 = 100, then nested: tid < 2: v3 += 10, else v3 += 20
#   tid >= 4: v3 = 200
# after both joins every lane is active again and adds 1000; a vbranch whose condition holds in
# every lane (tid >= 0) just jumps (nothing pushed) and one that holds nowhere falls through.
# RUN: --warps 1 --lanes 8
# EXPECT: results = 1110 1110 1120 1120 1200 1200 1200 1200
# EXPECT: uniform = 7 7 7 7 7 7 7 7
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    vt_tid  v1, t0
    li      t0, 4
    vmv.v.x v2, t0
    vmv.v.i v3, 0
    setrpc_label outer_join
    vblt    1, 2, low            # lanes with tid < 4 go to low
    li      t0, 200
    vmv.v.x v3, t0
    j       outer_join
low:
    li      t0, 100
    vmv.v.x v3, t0
    li      t0, 2
    vmv.v.x v4, t0
    setrpc_label inner_join
    vblt    1, 4, lowest         # tid < 2
    vadd.vi v3, v3, 15
    vadd.vi v3, v3, 5
    j       inner_join
lowest:
    vadd.vi v3, v3, 10
inner_join:
    join
    j       outer_join
outer_join:
    join
    li      t0, 1000
    vadd.vx v3, v3, t0
    vt_addr v10, v1, results, t1
    vsw12   3, 0, 10
    # uniform branches: all lanes taken, then no lane taken
    vmv.v.i v5, 0
    vmv.v.i v6, 7
    setrpc_label u_join
    vbge    1, 5, u_taken        # tid >= 0 everywhere: a plain jump
    vmv.v.i v6, 1                # never runs
u_taken:
    vbne    1, 1, u_join         # never true: falls through
    vmv.v.i v7, 0
u_join:
    join
    vt_addr v10, v1, uniform, t1
    vsw12   6, 0, 10
    endprg

    .data
    .p2align 2
results: .zero 32
uniform: .zero 32
