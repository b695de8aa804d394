.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
// tests/rdna3/jit (jit_test.py "runs"): one straight run of register-only instructions, which the
// translator counts once and keeps in host registers (translate.c: pending counts, the VGPR
// cache). Float instructions whose inputs are NaN in some waves call their handlers: the handler
// must read a row the run wrote and has not yet written back (v4, v7), and the instructions after
// it must read what the handler wrote (v5, v8, v9). Then a computed jump (s_setpc_b64) into the
// middle of a run, where no turn enters translated code: the interpreter runs from there until
// a point where one may. Arguments: out (12 dwords per work-item), in (x, y per work-item). One
// workgroup of 64, one lane of each 32 off in EXEC. wave32 as it is, wave64 with --defsym W64=1.
.macro RUNS EXEC_OFF, EXEC_OFF_HI, EXEC_ON, VCC, MUL89, ADD89
  s_load_b128 s[4:7], s[0:1], 0
  v_lshlrev_b32 v1, 3, v0
  s_waitcnt lgkmcnt(0)
  global_load_b64 v[2:3], v1, s[6:7]
  .irp r, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    v_mov_b32 v\r, 0xdeadbeef
  .endr
  s_waitcnt vmcnt(0)
  \EXEC_OFF
  \EXEC_OFF_HI
  v_add_nc_u32 v4, 1, v2
  v_mul_f32 v5, v4, v3
  v_add_f32 v6, v5, v4
  v_xor_b32 v7, v6, v4
  \MUL89
  \ADD89
  v_fma_f32 v10, v8, v9, v5
  v_sub_f32 v11, v10, v8
  v_cmp_lt_f32 \VCC, v11, v3
  v_cndmask_b32 v12, v11, v10, \VCC
  v_rsq_f32 v13, v12
  s_getpc_b64 s[8:9]
.Lpc:
  s_add_u32 s8, s8, .Lmid-.Lpc
  s_addc_u32 s9, s9, 0
  s_setpc_b64 s[8:9]
  v_add_nc_u32 v14, 100, v14
.Lmid:
  v_add_nc_u32 v14, v13, v12
  v_mul_f32 v15, v14, v13
  v_xor_b32 v15, v15, v4
  \EXEC_ON
  v_mul_u32_u24 v1, 48, v0
  global_store_b128 v1, v[4:7], s[4:5]
  global_store_b128 v1, v[8:11], s[4:5] offset:16
  global_store_b128 v1, v[12:15], s[4:5] offset:32
  s_endpgm
.endm

.text
.globl jit_runs
.p2align 8
.type jit_runs,@function
jit_runs:
.ifdef W64
  RUNS "s_mov_b32 exec_lo, 0xffffffdf", "s_mov_b32 exec_hi, 0xffffffdf", "s_mov_b64 exec, -1", vcc, "v_mul_f32 v8, v5, v6", "v_add_f32 v9, v7, v3"
.else
  RUNS "s_mov_b32 exec_lo, 0xffffffdf", "s_nop 0", "s_mov_b32 exec_lo, -1", vcc_lo, "v_dual_mul_f32 v8, v5, v6 :: v_dual_add_f32 v9, v7, v3", "s_nop 0"
.endif
.Lend:
  .size jit_runs, .Lend-jit_runs
// The kernel descriptor and metadata are appended by jit_test.py (kernel_footer).
