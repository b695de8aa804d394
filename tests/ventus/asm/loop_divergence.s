# A loop whose trip count differs per thread (thread t runs t + 1 iterations), the way compiled
# kernels loop under divergence: the back edge is a vbranch, exiting threads wait at the join
# until the last one leaves, and the SIMT stack grows by one reconvergence entry per divergent
# iteration (spec §3). 1 warp of 8 threads: acc = 1 + 2 + ... + (t + 1) = (t + 1)(t + 2) / 2,
# iterations counted per thread in v2.
# RUN: --warps 1 --lanes 8
# EXPECT: r_acc = 1 3 6 10 15 21 28 36
# EXPECT: r_iter = 1 2 3 4 5 6 7 8
    .include "prelude.inc"
    .text
    .globl _start
_start:
    vt_init
    vt_tid  v1, t0
    vmv.v.i v2, 0
    vmv.v.i v3, 0
loop:
    vadd.vi v2, v2, 1
    vadd.vv v3, v3, v2
    setrpc_label done
    vbge    1, 2, again          # threads with tid >= count keep looping
    j       done
again:
    j       loop
done:
    join
    vt_addr v10, v1, r_acc, t1
    vsw12   3, 0, 10
    vt_addr v10, v1, r_iter, t1
    vsw12   2, 0, 10
    endprg

    .data
    .p2align 2
r_acc:  .zero 32
r_iter: .zero 32
