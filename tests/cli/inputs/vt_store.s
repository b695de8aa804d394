# One store into .data, for umbra ventus run-elf --dump-range over the whole address space.
    .text
    .globl _start
_start:
    li      t4, 32
    vsetvli t4, t4, e32, m1, ta, ma
    la      s0, result
    li      t0, 0x12345678
    sw      t0, 0(s0)
    .word 0x0000400b          # endprg
    .data
    .p2align 2
    .globl result
result: .word 0
