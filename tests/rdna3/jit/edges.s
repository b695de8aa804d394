.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
// tests/rdna3/jit (jit_test.py "edges"): the inline carry arithmetic, f32 rcp/rsq/sqrt at their
// edge values, the same instructions for wave32 and wave64, with one lane of each 32 off in EXEC.
// and the 64-bit shifts and v_mad_u64_u32 (a destination pair that is also the source pair; a carry out to null).
// Arguments: out (31 dwords per work-item), in (x, y per work-item). One workgroup of 64.
// Assembled twice: as it is for wave32, with --defsym W64=1 and +wavefrontsize64 for wave64.
.macro EDGES VCC, MA, MB, MC, MD, ME, MF, EXEC_OFF, EXEC_OFF_HI, EXEC_ON
  s_load_b128 s[4:7], s[0:1], 0
  v_lshlrev_b32 v1, 3, v0
  s_waitcnt lgkmcnt(0)
  global_load_b64 v[2:3], v1, s[6:7]
  .irp r, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34
    v_mov_b32 v\r, 0xdeadbeef
  .endr
  s_waitcnt vmcnt(0)
  \EXEC_OFF
  \EXEC_OFF_HI
  v_cmp_lt_u32_e32 \VCC, v3, v2
  v_add_co_ci_u32_e32 v4, \VCC, v2, v3, \VCC
  v_cndmask_b32_e64 v5, 0, 1, \VCC
  v_cmp_lt_u32_e64 \MA, v2, v3
  v_sub_co_ci_u32_e64 v6, \MB, v2, v3, \MA
  v_cndmask_b32_e64 v7, 0, 1, \MB
  v_subrev_co_ci_u32_e32 v8, \VCC, v2, v3, \VCC
  v_cndmask_b32_e64 v9, 0, 1, \VCC
  v_add_co_u32 v10, \MC, v2, v3
  v_cndmask_b32_e64 v11, 0, 1, \MC
  v_sub_co_u32 v12, \MD, v2, v3
  v_cndmask_b32_e64 v13, 0, 1, \MD
  v_subrev_co_u32 v14, \ME, v2, v3
  v_cndmask_b32_e64 v15, 0, 1, \ME
  v_rsq_f32_e32 v16, v2
  v_sqrt_f32_e32 v17, v2
  v_rcp_f32_e32 v18, v2
  v_rsq_f32_e64 v19, v3
  v_sqrt_f32_e64 v20, v3
  v_rcp_f32_e64 v21, v3
  v_lshlrev_b64 v[22:23], v2, v[2:3]
  v_lshrrev_b64 v[24:25], v3, v[2:3]
  v_ashrrev_i64 v[26:27], v2, v[2:3]
  v_mad_u64_u32 v[28:29], \MF, v2, v3, v[2:3]
  v_cndmask_b32_e64 v30, 0, 1, \MF
  v_mov_b32 v31, v2
  v_mov_b32 v32, v3
  v_lshlrev_b64 v[31:32], v32, v[31:32]
  v_mad_u64_u32 v[33:34], null, v3, v2, v[2:3]
  \EXEC_ON
  v_mul_u32_u24 v1, 124, v0
  global_store_b128 v1, v[4:7], s[4:5]
  global_store_b128 v1, v[8:11], s[4:5] offset:16
  global_store_b128 v1, v[12:15], s[4:5] offset:32
  global_store_b128 v1, v[16:19], s[4:5] offset:48
  global_store_b128 v1, v[20:23], s[4:5] offset:64
  global_store_b128 v1, v[24:27], s[4:5] offset:80
  global_store_b128 v1, v[28:31], s[4:5] offset:96
  global_store_b96 v1, v[32:34], s[4:5] offset:112
  s_endpgm
.endm

.text
.globl jit_edges
.p2align 8
.type jit_edges,@function
jit_edges:
.ifdef W64
  EDGES vcc, "s[12:13]", "s[14:15]", "s[16:17]", "s[18:19]", "s[20:21]", "s[22:23]", "s_mov_b32 exec_lo, 0xffffffdf", "s_mov_b32 exec_hi, 0xffffffdf", "s_mov_b64 exec, -1"
.else
  EDGES vcc_lo, s12, s13, s14, s15, s16, s17, "s_mov_b32 exec_lo, 0xffffffdf", "s_nop 0", "s_mov_b32 exec_lo, -1"
.endif
.Lend:
  .size jit_edges, .Lend-jit_edges
// The kernel descriptor and metadata are appended by jit_test.py (kernel_footer).
