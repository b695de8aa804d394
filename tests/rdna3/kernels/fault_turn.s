.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
// fault_turn: two waves of one workgroup meet at a barrier, then each faults with the first
// instruction of its next turn: wave 0 with s_movrels (M0 out of range), wave 1 with a global
// store to the unmapped address 0. Round robin gives wave 0 its turn first, so wave 0's fault is
// the one reported. The instruction that opens a turn reports its fault at once, in translated
// code as in the interpreter: wave 0's s_movrels runs there through a handler call and wave 1's
// store through the inline slow path, so a translator that kept the first fault for a later turn
// would report wave 1's (tests/rdna3/jit/jit_test.py, case fault_turn).
.text
.globl fault_turn
.p2align 8
.type fault_turn,@function
fault_turn:
  v_readfirstlane_b32 s4, v0
  s_cmp_eq_u32 s4, 0
  s_cbranch_scc0 .Lwave1
  s_mov_b32 m0, 1000
  s_barrier
  s_movrels_b32 s5, s6
  s_endpgm
.Lwave1:
  v_mov_b32 v2, 0
  v_mov_b32 v3, 0
  s_barrier
  global_store_b32 v[2:3], v1, off
  s_endpgm
.Lend:
  .size fault_turn, .Lend-fault_turn

.rodata
.p2align 6
.amdhsa_kernel fault_turn
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
  - .name: fault_turn
    .symbol: fault_turn.kd
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
