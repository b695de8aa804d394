.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
// tests/rdna3/jit (jit_test.py "global"): the global loads the translator inlines (global_load_b32,
// b64, b96, b128; GVS: saddr + vaddr32 + offset, GV: vaddr64 + offset) with lanes in one page, in
// two pages, across page ends and over three pages, misaligned, a destination pair that is its
// address pair, and one lane of 32 off in EXEC with a wild offset; then global_store_b32 of each
// work-item's id into sink at the same offsets (GVS, and GV 2 bytes further: lanes and stores
// overlap). One workgroup of 64; arguments: out (18 dwords per work-item), data, offs (a byte
// offset into data per work-item), sink. Assembled for
// wave32 as it is, for wave64 with --defsym W64=1 (+wavefrontsize64).
.macro GLOBAL_BODY CARRY, EXEC_OFF, EXEC_OFF_HI, EXEC_ON
  s_load_b128 s[4:7], s[0:1], 0
  s_load_b64 s[8:9], s[0:1], 16
  s_load_b64 s[12:13], s[0:1], 24
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[8:9]
  .irp r, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 22, 23, 24, 25, 26, 27
    v_mov_b32 v\r, 0xdeadbeef
  .endr
  s_waitcnt vmcnt(0)
  v_add_co_u32 v20, \CARRY, s6, v2
  v_add_co_ci_u32_e64 v21, \CARRY, s7, 0, \CARRY
  v_mov_b32 v28, v20
  v_mov_b32 v29, v21
  \EXEC_OFF
  \EXEC_OFF_HI
  global_load_b32 v10, v2, s[6:7]
  global_load_b64 v[11:12], v2, s[6:7] offset:4
  global_load_b96 v[13:15], v2, s[6:7] offset:8
  global_load_b128 v[16:19], v2, s[6:7]
  global_load_b128 v[22:25], v[20:21], off offset:16
  global_load_b64 v[28:29], v[28:29], off offset:4
  s_waitcnt vmcnt(0)
  v_mov_b32 v26, v28
  v_mov_b32 v27, v29
  v_or_b32 v30, 0xab000000, v0
  v_or_b32 v31, 0xcd000000, v0
  global_store_b32 v2, v30, s[12:13]
  v_add_co_u32 v20, \CARRY, s12, v2
  v_add_co_ci_u32_e64 v21, \CARRY, s13, 0, \CARRY
  global_store_b32 v[20:21], v31, off offset:2
  \EXEC_ON
  v_mul_u32_u24 v1, 72, v0
  global_store_b128 v1, v[10:13], s[4:5]
  global_store_b128 v1, v[14:17], s[4:5] offset:16
  global_store_b128 v1, v[18:21], s[4:5] offset:32
  global_store_b128 v1, v[22:25], s[4:5] offset:48
  global_store_b64 v1, v[26:27], s[4:5] offset:64
  s_endpgm
.endm

.text
.globl jit_global
.p2align 8
.type jit_global,@function
jit_global:
.ifdef W64
  GLOBAL_BODY "s[10:11]", "s_mov_b32 exec_lo, 0xffffffdf", "s_mov_b32 exec_hi, 0xffffffdf", "s_mov_b64 exec, -1"
.else
  GLOBAL_BODY s10, "s_mov_b32 exec_lo, 0xffffffdf", "s_nop 0", "s_mov_b32 exec_lo, -1"
.endif
.Lend:
  .size jit_global, .Lend-jit_global
// The kernel descriptor and metadata are appended by jit_test.py (kernel_footer).
