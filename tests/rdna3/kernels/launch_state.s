.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
// Hand-written kernels that dump their launch registers (tests/rdna3/kernels/launch_state.c checks
// them): dump_state enables every HSA user SGPR gfx11 allows, pads USER_SGPR_COUNT to 12, and
// enables workgroup id x/y/z, the workgroup-info word and VGPR_WORKITEM_ID = 2; dump_v0x has only
// the kernarg pointer and VGPR_WORKITEM_ID = 0 (v0 must then hold X alone); vgprs_start_zero reads
// VGPRs before writing them.
.text
.globl dump_state
.p2align 8
.type dump_state,@function
dump_state:
  s_load_b64 s[30:31], s[4:5], 0x0      // out (kernarg ptr after dispatch and queue ptrs)
  s_load_b64 s[32:33], s[0:1], 40       // the dispatch packet's kernarg_address
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s29, s13, 1                // linear group = x + 2*y (2 groups in x)
  s_add_u32 s29, s29, s12
  s_lshl_b32 s29, s29, 8                // 256 bytes per group
  s_add_u32 s30, s30, s29
  s_addc_u32 s31, s31, 0
  v_mov_b32 v1, 0
  v_mov_b32 v2, s0
  global_store_b32 v1, v2, s[30:31] offset:0
  v_mov_b32 v2, s1
  global_store_b32 v1, v2, s[30:31] offset:4
  v_mov_b32 v2, s2
  global_store_b32 v1, v2, s[30:31] offset:8
  v_mov_b32 v2, s3
  global_store_b32 v1, v2, s[30:31] offset:12
  v_mov_b32 v2, s4
  global_store_b32 v1, v2, s[30:31] offset:16
  v_mov_b32 v2, s5
  global_store_b32 v1, v2, s[30:31] offset:20
  v_mov_b32 v2, s6
  global_store_b32 v1, v2, s[30:31] offset:24
  v_mov_b32 v2, s7
  global_store_b32 v1, v2, s[30:31] offset:28
  v_mov_b32 v2, s8
  global_store_b32 v1, v2, s[30:31] offset:32
  v_mov_b32 v2, s9
  global_store_b32 v1, v2, s[30:31] offset:36
  v_mov_b32 v2, s10
  global_store_b32 v1, v2, s[30:31] offset:40
  v_mov_b32 v2, s11
  global_store_b32 v1, v2, s[30:31] offset:44
  v_mov_b32 v2, s12
  global_store_b32 v1, v2, s[30:31] offset:48
  v_mov_b32 v2, s13
  global_store_b32 v1, v2, s[30:31] offset:52
  v_mov_b32 v2, s14
  global_store_b32 v1, v2, s[30:31] offset:56
  v_mov_b32 v2, s15
  global_store_b32 v1, v2, s[30:31] offset:60
  v_mov_b32 v2, s32
  global_store_b32 v1, v2, s[30:31] offset:64
  v_mov_b32 v2, s33
  global_store_b32 v1, v2, s[30:31] offset:68
  v_mbcnt_lo_u32_b32 v3, -1, 0          // lane id
  v_lshlrev_b32 v3, 2, v3
  global_store_b32 v3, v0, s[30:31] offset:128
  s_endpgm
.Lend0:
  .size dump_state, .Lend0-dump_state

.globl dump_v0x
.p2align 8
.type dump_v0x,@function
dump_v0x:
  s_load_b64 s[30:31], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s29, s3, 1                 // workgroup id x in s2, y in s3 (USER_SGPR_COUNT 2)
  s_add_u32 s29, s29, s2
  s_lshl_b32 s29, s29, 7                // 128 bytes per group
  s_add_u32 s30, s30, s29
  s_addc_u32 s31, s31, 0
  v_mbcnt_lo_u32_b32 v3, -1, 0
  v_lshlrev_b32 v3, 2, v3
  global_store_b32 v3, v0, s[30:31]
  s_endpgm
.Lend1:
  .size dump_v0x, .Lend1-dump_v0x

// vgprs_start_zero: every wave stores v40 and v200 before writing them (a new wave's VGPRs read 0,
// also when umbra reuses the storage of an ended wave), then dirties them.
.globl vgprs_start_zero
.p2align 8
.type vgprs_start_zero,@function
vgprs_start_zero:
  s_load_b64 s[30:31], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s29, s3, 1
  s_add_u32 s29, s29, s2
  s_lshl_b32 s29, s29, 8                // 256 bytes per group: v40, then v200, of 32 lanes
  s_add_u32 s30, s30, s29
  s_addc_u32 s31, s31, 0
  v_mbcnt_lo_u32_b32 v3, -1, 0
  v_lshlrev_b32 v3, 2, v3
  global_store_b32 v3, v40, s[30:31]
  global_store_b32 v3, v200, s[30:31] offset:128
  v_mov_b32 v40, 0x1234
  v_mov_b32 v200, 0x5678
  s_endpgm
.Lend2:
  .size vgprs_start_zero, .Lend2-vgprs_start_zero

.rodata
.p2align 6
.amdhsa_kernel dump_state
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_user_sgpr_queue_ptr 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_dispatch_id 1
  .amdhsa_user_sgpr_private_segment_size 1
  .amdhsa_user_sgpr_count 12
  .amdhsa_wavefront_size32 1
  .amdhsa_enable_private_segment 1
  .amdhsa_private_segment_fixed_size 32
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_sgpr_workgroup_id_y 1
  .amdhsa_system_sgpr_workgroup_id_z 1
  .amdhsa_system_sgpr_workgroup_info 1
  .amdhsa_system_vgpr_workitem_id 2
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 40
.end_amdhsa_kernel

.p2align 6
.amdhsa_kernel dump_v0x
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_count 2
  .amdhsa_wavefront_size32 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_sgpr_workgroup_id_y 1
  .amdhsa_system_vgpr_workitem_id 0
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 40
.end_amdhsa_kernel

.p2align 6
.amdhsa_kernel vgprs_start_zero
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_count 2
  .amdhsa_wavefront_size32 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_sgpr_workgroup_id_y 1
  .amdhsa_system_vgpr_workitem_id 0
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 208
  .amdhsa_next_free_sgpr 40
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: dump_state
    .symbol: dump_state.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 32
    .wavefront_size: 32
    .sgpr_count: 40
    .vgpr_count: 8
    .max_flat_workgroup_size: 256
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: dump_v0x
    .symbol: dump_v0x.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 40
    .vgpr_count: 8
    .max_flat_workgroup_size: 256
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: vgprs_start_zero
    .symbol: vgprs_start_zero.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 40
    .vgpr_count: 208
    .max_flat_workgroup_size: 256
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
