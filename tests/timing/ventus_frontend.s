# Kernels for tests/timing/ventus_frontend.py: the in-order front end of machines/ventus-rtl.yaml
# (docs/VENTUS.md "Against the Verilog RTL"). One warp of 32 lanes each; the script reads the
# issue trace (--issue-trace) and the statistics.
    .include "prelude.inc"
    .text
    .globl vx_chain
    .globl vi_chain
    .globl gather_alu
    .globl jumps
    .globl gather_store
    .globl gather_load
    .globl vv_run

# A scalar load and a vector instruction, eight times. vadd.vx reads the loaded t0 (a scalar
# source of a vector instruction): it waits for the load; vadd.vi does not.
# Two passes: the second runs from the icache.
vx_chain:
    vt_init
    la      t1, words
    li      s1, 2
1:
    .rept 8
    lw      t0, 0(t1)
    vadd.vx v1, v1, t0
    .endr
    addi    s1, s1, -1
    bnez    s1, 1b
    endprg
vi_chain:
    vt_init
    la      t1, words
    li      s1, 2
1:
    .rept 8
    lw      t0, 0(t1)
    vadd.vi v1, v1, 1
    .endr
    addi    s1, s1, -1
    bnez    s1, 1b
    endprg

# Two gathers (each lane its own 8-byte line: 32 lines each) and then an independent vector
# instruction: the second gather waits for the memory unit, and with in_order_memory_unit the
# vadd.vi after it waits until the unit takes it.
gather_alu:
    vt_init
    vt_tid  v1, t0
    vsll.vi v2, v1, 3
    la      t1, lines
    vadd.vx v2, v2, t1
    vlw12   3, 0, 2
    vlw12   4, 0, 2
    vadd.vi v5, v5, 1
    endprg

# A vector load of two lines that miss (lanes 0-15 and 16-31 each read one word), then a scalar
# load whose value a vector instruction uses, with a store before the load (gather_store) or a
# nop (gather_load); the scalar load's line was read first (a hit). Two of the dcache's four miss
# registers are busy, so the load goes at once, but the dcache takes the store only once the vector
# load's misses are back, and the load behind it waits too.
.macro two_line_load_then between:vararg
    vt_init
    vt_tid  v1, t0
    vsrl.vi v2, v1, 4
    vsll.vi v2, v2, 3
    la      t1, far
    vadd.vx v2, v2, t1
    la      t2, words
    lw      t4, 4(t2)
    addi    t4, t4, 1
    vlw12   3, 0, 2
    \between
    lw      t3, 4(t2)
    vadd.vx v5, v5, t3
    endprg
.endm
gather_store:
    two_line_load_then sw t0, 0(t2)
gather_load:
    two_line_load_then nop

# Jumps over one 8-byte fetch block to the start of the block after it. The jump shares its
# block with an instruction that waits for a load that misses (a line 64 bytes from the last):
# while it waits, fetch_ahead 2 brings the target's block in, fetch_ahead 1 only the next block.
jumps:
    vt_init
    la      t1, lines
    .p2align 3
    .irp k, 0, 1, 2, 3, 4, 5, 6, 7
    lw      t0, 64*\k(t1)
    nop
    addi    t0, t0, 1
    j       1f
    nop
    nop
1:
    addi    t2, t2, 1
    nop
    .endr
    endprg

# Independent two-operand vector instructions: the SM's operand collector reads one operand at a
# time, so several warps running this share it.
vv_run:
    vt_init
    .rept 16
    vadd.vv v1, v2, v3
    .endr
    endprg

    .data
    .p2align 3
words: .word 1, 2
lines: .zero 512
far:   .zero 256
