.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
// Kernels for tests/timing/vgpr_banks.py: VGPR bank conflicts under the timing model
// (docs/TIMING.md "VGPR banks"). A VGPR's bank is its number mod 4 (RDNA3 ISA 7.6). Each kernel
// takes one buffer (kernarg 0) and writes out[id] = 5 (as u32) for its lane: v8 * v12 + v16 with
// v8 = 1, v12 = 2, v16 = 3, and every other source register holding the same values by bank
// position, so that the output can be checked against functional mode. 512 VALU instructions,
// none depending on another (the destinations are never read), in CU mode.
//   bank_conflict  pairs of v_fma_f32 whose three sources are all in bank 0 and not read by the
//                  instruction before: three bank-0 reads per instruction
//   bank_distinct  the same with sources in banks 0, 1 and 2: one read per bank
//   bank_reuse     one v_fma_f32 reading three bank-0 registers, 512 times: after the first, the
//                  operand cache (the previous instruction read the same registers) serves them

.macro PROLOGUE
  s_load_b64 s[4:5], s[0:1], 0x0        // the buffer
  v_lshlrev_b32 v2, 2, v0               // byte offset of the lane's word
  v_mov_b32 v8, 1.0
  v_mov_b32 v20, 1.0
  v_mov_b32 v12, 2.0
  v_mov_b32 v13, 2.0
  v_mov_b32 v24, 2.0
  v_mov_b32 v25, 2.0
  v_mov_b32 v16, 4.0
  v_mov_b32 v18, 4.0
  v_mov_b32 v28, 4.0
  v_mov_b32 v30, 4.0
  v_add_f32 v16, -1.0, v16              // 3.0 (4.0 - 1.0: an inline constant of its own)
  v_add_f32 v18, -1.0, v18
  v_add_f32 v28, -1.0, v28
  v_add_f32 v30, -1.0, v30
  s_waitcnt lgkmcnt(0)
.endm

.macro EPILOGUE
  s_waitcnt_depctr depctr_va_vdst(0)
  v_cvt_u32_f32 v3, v3
  global_store_b32 v2, v3, s[4:5]
  s_endpgm
.endm

.text
.p2align 8
.globl bank_conflict
.type bank_conflict,@function
bank_conflict:
  PROLOGUE
  .rept 256
  v_fma_f32 v3, v8, v12, v16            // banks 0, 0, 0
  v_fma_f32 v7, v20, v24, v28           // banks 0, 0, 0, other registers
  .endr
  EPILOGUE

.p2align 8
.globl bank_distinct
.type bank_distinct,@function
bank_distinct:
  PROLOGUE
  .rept 256
  v_fma_f32 v3, v8, v13, v18            // banks 0, 1, 2
  v_fma_f32 v7, v20, v25, v30           // banks 0, 1, 2, other registers
  .endr
  EPILOGUE

.p2align 8
.globl bank_reuse
.type bank_reuse,@function
bank_reuse:
  PROLOGUE
  .rept 512
  v_fma_f32 v3, v8, v12, v16            // banks 0, 0, 0, the same registers each time
  .endr
  EPILOGUE

.rodata
.macro DESCRIPTOR name
.p2align 6
.amdhsa_kernel \name
  .amdhsa_workgroup_processor_mode 0
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_count 2
  .amdhsa_wavefront_size32 1
  .amdhsa_system_vgpr_workitem_id 0
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 32
  .amdhsa_next_free_sgpr 16
.end_amdhsa_kernel
.endm
DESCRIPTOR bank_conflict
DESCRIPTOR bank_distinct
DESCRIPTOR bank_reuse

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - { .name: bank_conflict, .symbol: bank_conflict.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 16,
      .vgpr_count: 32, .max_flat_workgroup_size: 256,
      .args: [ { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: bank_distinct, .symbol: bank_distinct.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 16,
      .vgpr_count: 32, .max_flat_workgroup_size: 256,
      .args: [ { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: bank_reuse, .symbol: bank_reuse.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 16,
      .vgpr_count: 32, .max_flat_workgroup_size: 256,
      .args: [ { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
...
.end_amdgpu_metadata
