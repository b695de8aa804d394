.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
// Kernels for tests/timing/delay_alu.py: s_delay_alu, the VALU interlock, VA_VDST, s_clause and
// WGP mode under the timing model. Each takes one buffer (kernarg 0) and writes out[id] for its
// lane, so that the results can be checked against functional mode and a Python reference. One
// workgroup of 256 work-items: eight wave32 waves; in CU mode (.amdhsa_workgroup_processor_mode 0,
// all kernels but chain_unannounced_wgp) four on each SIMD of one CU.
//   chain_announced    out[i] = i + 256: 256 dependent v_add_f32, each announced (VALU_DEP_1)
//   chain_unannounced  the same chain without s_delay_alu: each add stalls the SIMD's VALU
//   chain_unannounced_wgp  the same in WGP mode: the waves spread over the WGP's four SIMDs
//   trans_announced    out[i] = i after 16 dependent v_sqrt_f32 of squares (TRANS32_DEP_1)
//   trans_depctr       out[i] = i: a VALU use of v_sqrt_f32's result after s_waitcnt_depctr
//   trans_no_depctr    the same without the s_waitcnt_depctr: the use stalls the SIMD's VALU
//   store_after_valu   out[i] = i: a store of v0 right after a v_sqrt_f64 it does not read
//   loads_clause       out[i] = 8 * in[i]: eight loads of one word; in waves other than wave 0
//                      in an s_clause; wave 0 (the oldest) reaches its own copy of the loads a
//                      few cycles later, while a younger wave holds its clause
//   loads_noclause     the same without s_clause: wave 0 takes the port at once (oldest first)

.macro PROLOGUE
  s_load_b64 s[4:5], s[0:1], 0x0        // the buffer
  v_lshlrev_b32 v2, 2, v0               // byte offset of the lane's word
  v_cvt_f32_u32 v1, v0
  s_waitcnt lgkmcnt(0)
.endm

.macro STORE_F32_AS_U32 reg, dep
  s_delay_alu instid0(\dep)
  v_cvt_u32_f32 \reg, \reg
  global_store_b32 v2, \reg, s[4:5]
  s_endpgm
.endm

.text
.p2align 8
.globl chain_announced
.type chain_announced,@function
chain_announced:
  PROLOGUE
  .rept 256
  s_delay_alu instid0(VALU_DEP_1)
  v_add_f32 v1, 1.0, v1
  .endr
  STORE_F32_AS_U32 v1, VALU_DEP_1

.p2align 8
.globl chain_unannounced
.type chain_unannounced,@function
chain_unannounced:
  PROLOGUE
  .rept 256
  v_add_f32 v1, 1.0, v1
  .endr
  STORE_F32_AS_U32 v1, VALU_DEP_1

.p2align 8
.globl chain_unannounced_wgp
.type chain_unannounced_wgp,@function
chain_unannounced_wgp:
  PROLOGUE
  .rept 256
  v_add_f32 v1, 1.0, v1
  .endr
  STORE_F32_AS_U32 v1, VALU_DEP_1

.p2align 8
.globl trans_announced
.type trans_announced,@function
trans_announced:
  PROLOGUE
  .rept 16
  s_delay_alu instid0(TRANS32_DEP_1)
  v_mul_f32 v1, v1, v1                  // x * x, then sqrt: x again (exact for these values)
  s_delay_alu instid0(VALU_DEP_1)
  v_sqrt_f32 v1, v1
  .endr
  STORE_F32_AS_U32 v1, TRANS32_DEP_1

// out[i] = i: sqrt(x) * 0 added to x, 16 times; the multiply waits for the square root with
// s_waitcnt_depctr depctr_va_vdst(0) (as clang-19 emits after a transcendental), or not at all.
.macro DEPCTR_KERNEL name, wait
.p2align 8
.globl \name
.type \name,@function
\name:
  PROLOGUE
  .rept 16
  v_sqrt_f32 v3, v1
  .if \wait
  s_waitcnt_depctr depctr_va_vdst(0)
  .endif
  v_mul_f32 v3, 0, v3
  s_delay_alu instid0(VALU_DEP_1)
  v_add_f32 v1, v1, v3
  s_delay_alu instid0(VALU_DEP_1)
  .endr
  STORE_F32_AS_U32 v1, VALU_DEP_1
.endm

DEPCTR_KERNEL trans_depctr, 1
DEPCTR_KERNEL trans_no_depctr, 0

.p2align 8
.globl store_after_valu
.type store_after_valu,@function
store_after_valu:
  PROLOGUE
  v_cvt_f64_u32 v[6:7], v0
  s_delay_alu instid0(VALU_DEP_1)
  v_sqrt_f64 v[6:7], v[6:7]             // double precision: 16 issue cycles, then its latency
  global_store_b32 v2, v0, s[4:5]       // does not read v[6:7]: waits for VA_VDST only
  s_endpgm

.macro LOADS
  global_load_b32 v3, v2, s[4:5]
  global_load_b32 v4, v2, s[4:5]
  global_load_b32 v5, v2, s[4:5]
  global_load_b32 v6, v2, s[4:5]
  global_load_b32 v7, v2, s[4:5]
  global_load_b32 v8, v2, s[4:5]
  global_load_b32 v9, v2, s[4:5]
  global_load_b32 v10, v2, s[4:5]
.endm

.macro SUM_AND_STORE
  s_waitcnt vmcnt(0)
  v_add_nc_u32 v3, v3, v4
  v_add_nc_u32 v5, v5, v6
  v_add_nc_u32 v7, v7, v8
  v_add_nc_u32 v9, v9, v10
  v_add_nc_u32 v3, v3, v5
  v_add_nc_u32 v7, v7, v9
  v_add_nc_u32 v3, v3, v7
  global_store_b32 v2, v3, s[4:5]
  s_endpgm
.endm

// Wave 0 (lane 0 has work-item 0) runs three more VALU instructions, then its own copy of the
// loads (their PCs tell its waits apart in the per-instruction profile).
.macro LOAD_KERNEL name, clause
.p2align 8
.globl \name
.type \name,@function
\name:
  s_load_b64 s[4:5], s[0:1], 0x0
  v_lshlrev_b32 v2, 2, v0
  v_readfirstlane_b32 s6, v0
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s6, 0
  s_cbranch_scc1 .Lold_\name
  .if \clause
  s_clause 0x7
  .endif
  LOADS
  SUM_AND_STORE
.Lold_\name:
  v_mov_b32 v11, 1
  v_mov_b32 v12, 2
  v_mov_b32 v13, 3
  LOADS
  SUM_AND_STORE
.endm

LOAD_KERNEL loads_clause, 1
LOAD_KERNEL loads_noclause, 0

.rodata
.macro DESCRIPTOR name, wgp=0
.p2align 6
.amdhsa_kernel \name
  .amdhsa_workgroup_processor_mode \wgp
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_count 2
  .amdhsa_wavefront_size32 1
  .amdhsa_system_vgpr_workitem_id 0
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 16
  .amdhsa_next_free_sgpr 16
.end_amdhsa_kernel
.endm
DESCRIPTOR chain_announced
DESCRIPTOR chain_unannounced
DESCRIPTOR chain_unannounced_wgp, 1
DESCRIPTOR trans_announced
DESCRIPTOR trans_depctr
DESCRIPTOR trans_no_depctr
DESCRIPTOR store_after_valu
DESCRIPTOR loads_clause
DESCRIPTOR loads_noclause

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - { .name: chain_announced, .symbol: chain_announced.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 16,
      .vgpr_count: 16, .max_flat_workgroup_size: 256,
      .args: [ { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: chain_unannounced, .symbol: chain_unannounced.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 16,
      .vgpr_count: 16, .max_flat_workgroup_size: 256,
      .args: [ { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: chain_unannounced_wgp, .symbol: chain_unannounced_wgp.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 16,
      .vgpr_count: 16, .max_flat_workgroup_size: 256, .workgroup_processor_mode: 1,
      .args: [ { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: trans_announced, .symbol: trans_announced.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 16,
      .vgpr_count: 16, .max_flat_workgroup_size: 256,
      .args: [ { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: trans_depctr, .symbol: trans_depctr.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 16,
      .vgpr_count: 16, .max_flat_workgroup_size: 256,
      .args: [ { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: trans_no_depctr, .symbol: trans_no_depctr.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 16,
      .vgpr_count: 16, .max_flat_workgroup_size: 256,
      .args: [ { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: store_after_valu, .symbol: store_after_valu.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 16,
      .vgpr_count: 16, .max_flat_workgroup_size: 256,
      .args: [ { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: loads_clause, .symbol: loads_clause.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 16,
      .vgpr_count: 16, .max_flat_workgroup_size: 256,
      .args: [ { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: loads_noclause, .symbol: loads_noclause.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 16,
      .vgpr_count: 16, .max_flat_workgroup_size: 256,
      .args: [ { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
...
.end_amdgpu_metadata
