.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
// fault_order: in workgroup 1 two waves fault. In plain round robin wave 1's global store to the
// unmapped address 0 comes about 18 rounds before wave 0's s_movrels with M0 out of range;
// umbra's run-ahead executes wave 0's register-only instructions early (workgroup 0, which faults
// nowhere, has filled the decoded-instruction cache), and must still report wave 1's fault
// (tests/rdna3/kernels/cli_test.py, case fault_order).
.text
.globl fault_order
.p2align 8
.type fault_order,@function
fault_order:
  s_load_b64 s[6:7], s[0:1], 0x0        // the buffer argument
  s_mul_i32 s8, s2, 1000                // workgroup id x * 1000: M0 in range only in group 0
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s2, 0
  s_cselect_b64 s[6:7], s[6:7], 0       // store address: the buffer in group 0, else 0
  v_readfirstlane_b32 s4, v0
  s_cmp_eq_u32 s4, 0
  s_cbranch_scc0 .Lwave1
  .rept 24                              // register-only work
  v_add_nc_u32 v1, 1, v1
  .endr
  s_mov_b32 m0, s8
  s_movrels_b32 s5, s6
  s_endpgm
.Lwave1:
  .rept 4
  v_add_nc_u32 v1, 1, v1
  .endr
  v_mov_b32 v2, s6
  v_mov_b32 v3, s7
  global_store_b32 v[2:3], v1, off
  s_endpgm
.Lend:
  .size fault_order, .Lend-fault_order

.rodata
.p2align 6
.amdhsa_kernel fault_order
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_count 2
  .amdhsa_wavefront_size32 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_vgpr_workitem_id 0
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: fault_order
    .symbol: fault_order.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 64
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
