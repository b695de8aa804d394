.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
// tests/rdna3/jit: a loop of register-only instructions the translator inlines or calls, then an
// instruction umbra decodes but does not implement (ds_bvh_stack_rtn_b32): the translated code
// calls its handler, which faults as in the interpreter (same report, PC on it).
.text
.globl jit_unsupported
.p2align 8
.type jit_unsupported,@function
jit_unsupported:
  s_mov_b32 s4, 0
.Lloop:
  v_add_nc_u32 v1, 3, v1
  v_xor_b32 v1, v0, v1
  s_add_i32 s4, s4, 1
  s_cmp_lt_u32 s4, 100
  s_cbranch_scc1 .Lloop
  ds_bvh_stack_rtn_b32 v5, v0, v1, v[0:3]
  s_endpgm
.Lend:
  .size jit_unsupported, .Lend-jit_unsupported

.rodata
.p2align 6
.amdhsa_kernel jit_unsupported
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
  - .name: jit_unsupported
    .symbol: jit_unsupported.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 32
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 64
    .args:
      - { .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
