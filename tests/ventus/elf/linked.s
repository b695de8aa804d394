# A tiny RV32 program linked at test time for the ELF reader test (test_elf.c check_linked):
# .text starts at 0x80000000 (-Ttext), so _start = 0x80000000 and value_word = 0x80000010.
    .text
    .globl _start
_start:
    addi a0, zero, 1
    addi a1, zero, 2
    add  a2, a0, a1
    nop
    .globl value_word
value_word:
    .word 0x12345678
