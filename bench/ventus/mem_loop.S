# Synthetic memory loop for the Ventus benchmark: each thread loads, increments and stores its
# own word of a global buffer with the Ventus per-thread vlw12.v / vsw12.v (5 warp-insts per
# iteration: 2 memory ops, 1 vector add, loop counter and branch).
    .text
    .globl _start
_start:
    li      t0, 1024
    vsetvli t0, t0, e32, m1, ta, ma
    csrr    t2, 0x800                   # CSR_TID: thread id of lane 0 in the workgroup
    csrr    t4, 0x808                   # CSR_GDX: workgroup id
    slli    t4, t4, 8                   # x 256 threads per workgroup
    add     t2, t2, t4
    vid.v   v1
    vadd.vx v1, v1, t2
    vsll.vi v1, v1, 2                   # byte offset of this thread's word
    li      t3, 0x90000000
    vadd.vx v1, v1, t3                  # per-thread address
    li      a0, ITERATIONS
1:
    .word 0x0000a17b                    # vlw12.v v2, 0(v1)
    vadd.vi v2, v2, 1
    .word 0x0020e07b                    # vsw12.v v2, 0(v1)
    addi    a0, a0, -1
    bnez    a0, 1b
    .word 0x0000400b                    # endprg
