.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
// tests/rdna3/jit (jit_test.py "lds"): LDS stores and loads the translator inlines (ds_store_b32,
// ds_load_b32/b64/b96/b128, ds_load_2addr(_stride64)_b32/b64) with lanes in range, misaligned,
// out of range and wrapping at 2^32, stores of several lanes to one address, an address VGPR that
// is also the destination, and one lane of 32 off in EXEC. One wave per workgroup; arguments: out
// (19 dwords per work-item), in (an LDS address per work-item). Assembled for wave32 as it is,
// for wave64 with --defsym W64=1 (+wavefrontsize64); jit_test.py gives the workgroup 1 KiB of LDS
// or 8 KiB (more than a page: the handler's path). A third store writes across the
// first page's end (0xfe0 + 4 * lane: out of range with 1 KiB).
.macro LDS_BODY WAVE, EXEC_OFF, EXEC_OFF_HI, EXEC_ON
  s_load_b128 s[4:7], s[0:1], 0
  s_mul_i32 s8, s2, \WAVE
  v_add_nc_u32 v9, s8, v0
  v_lshlrev_b32 v1, 2, v9
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[6:7]
  v_lshlrev_b32 v4, 2, v0
  v_mul_u32_u24 v5, 0x101, v0
  s_lshl_b32 s9, s2, 16
  s_or_b32 s9, s9, 0xa0000000
  v_or_b32 v5, s9, v5
  ds_store_b32 v4, v5
  v_and_b32 v6, 3, v0
  v_lshl_add_u32 v6, v6, 2, 0x80
  v_or_b32 v7, 0xc0000000, v0
  ds_store_b32 v6, v7
  v_add_nc_u32 v8, 0xfe0, v4
  v_or_b32 v7, 0xb0000000, v0
  ds_store_b32 v8, v7
  .irp r, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28
    v_mov_b32 v\r, 0xdeadbeef
  .endr
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_mov_b32 v3, v2
  \EXEC_OFF
  \EXEC_OFF_HI
  ds_load_b32 v10, v2
  ds_load_b64 v[11:12], v2 offset:4
  ds_load_b96 v[13:15], v2 offset:8
  ds_load_b128 v[16:19], v2
  ds_load_2addr_b32 v[20:21], v2 offset0:1 offset1:3
  ds_load_2addr_stride64_b32 v[22:23], v2 offset1:1
  ds_load_2addr_b64 v[24:27], v2 offset0:1 offset1:2
  ds_load_b32 v3, v3 offset:2
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v28, v3
  \EXEC_ON
  v_mul_u32_u24 v1, 76, v9
  global_store_b128 v1, v[10:13], s[4:5]
  global_store_b128 v1, v[14:17], s[4:5] offset:16
  global_store_b128 v1, v[18:21], s[4:5] offset:32
  global_store_b128 v1, v[22:25], s[4:5] offset:48
  global_store_b96 v1, v[26:28], s[4:5] offset:64
  s_endpgm
.endm

.text
.globl jit_lds
.p2align 8
.type jit_lds,@function
jit_lds:
.ifdef W64
  LDS_BODY 64, "s_mov_b32 exec_lo, 0xffffffdf", "s_mov_b32 exec_hi, 0xffffffdf", "s_mov_b64 exec, -1"
.else
  LDS_BODY 32, "s_mov_b32 exec_lo, 0xffffffdf", "s_nop 0", "s_mov_b32 exec_lo, -1"
.endif
.Lend:
  .size jit_lds, .Lend-jit_lds
// The kernel descriptor and metadata are appended by jit_test.py (kernel_footer).
