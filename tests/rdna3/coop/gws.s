.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
// Hand-written GWS kernels (tests/rdna3/coop/coop_test.py runs them; one wave32 per workgroup
// unless said). s[0:1] kernarg pointer, s2 workgroup id x.
//
// gws_encodings: every GWS instruction with assorted operands and offsets (never run: its
//   disassembly is compared with llvm-objdump-19's).
// gws_rounds(vals, res, rounds, n): resource 0 through M0[21:16] = 63 + offset 1 (mod 64), resource
//   9 (initialised by workgroup 0 with ds_gws_init) through M0[21:16] = 8 + offset 1; the count for
//   the next barrier is taken from the first active lane (lane 4; the others hold junk). Each
//   round: store vals[g] = 7g + r, barrier, res[r*n + g] = vals[(g + 1) % n], barrier.
// gws_sema(res, counters, n): workgroups 1..n-1 wait at a semaphore (resource 20) that workgroup 0
//   releases with ds_gws_sema_br (n - 2) and ds_gws_sema_v once they all arrived; res[n] = how
//   many had passed before (0), res[g] = how many passed, after a barrier (n - 1).
// gws_release_all(res): one workgroup of 4 waves; waves 1-3 queue at resource 22, wave 0 releases
//   them with ds_gws_sema_release_all; res[w] = 1 for w = 1..3.
// gws_deadlock(n): workgroup 0 initialises resource 3 for n + 1 waves; all n wait there forever.
// gws_exec0: ds_gws_barrier with EXEC = 0 (no lane supplies the count).
.text

.globl gws_encodings
.p2align 8
.type gws_encodings,@function
gws_encodings:
  ds_gws_init v1 gds
  ds_gws_init v255 offset:63 gds
  ds_gws_init v7 offset:65535 gds
  ds_gws_barrier v0 gds
  ds_gws_barrier v2 offset:5 gds
  ds_gws_barrier v200 offset:258 gds
  ds_gws_sema_v gds
  ds_gws_sema_v offset:17 gds
  ds_gws_sema_br v3 gds
  ds_gws_sema_br v9 offset:1 gds
  ds_gws_sema_p gds
  ds_gws_sema_p offset:3 gds
  ds_gws_sema_release_all gds
  ds_gws_sema_release_all offset:2 gds
  s_endpgm
.Lend_enc:
  .size gws_encodings, .Lend_enc-gws_encodings

.globl gws_rounds
.p2align 8
.type gws_rounds,@function
gws_rounds:
  s_load_b64 s[4:5], s[0:1], 0x0        // vals
  s_load_b64 s[6:7], s[0:1], 0x8        // res
  s_load_b64 s[8:9], s[0:1], 0x10       // s8 rounds, s9 n
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s10, 0                      // round
  s_add_i32 s11, s9, -1                 // n - 1: the count of every barrier
  v_mbcnt_lo_u32_b32 v5, -1, 0          // lane id
  v_add_nc_u32 v1, 1000, v5             // junk in every lane but 4
  v_mov_b32 v6, s11
  v_cmp_eq_u32 vcc_lo, 4, v5
  v_cndmask_b32 v1, v1, v6, vcc_lo      // lane 4: n - 1
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc0 .Lr_init_done
  s_mov_b32 m0, 0x80000                 // resource 8 + 1 = 9
  s_mov_b32 exec_lo, 0xfffffff0
  ds_gws_init v1 offset:1 gds
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  s_mov_b32 exec_lo, -1
.Lr_init_done:
  s_mov_b32 m0, -1                      // M0[21:16] = 63: (63 + 1) % 64 = resource 0
  s_mov_b32 exec_lo, 0xfffffff0
  ds_gws_barrier v1 offset:1 gds        // orders the init before any use of resource 9
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  s_mov_b32 exec_lo, -1
  s_lshl_b32 s12, s2, 2
  v_mov_b32 v2, s12                     // 4g
  s_add_u32 s12, s2, 1
  s_cmp_eq_u32 s12, s9
  s_cselect_b32 s12, 0, s12
  s_lshl_b32 s12, s12, 2
  v_mov_b32 v3, s12                     // 4((g + 1) % n)
.Lr_round:
  s_cmp_ge_u32 s10, s8
  s_cbranch_scc1 .Lr_done
  s_mul_i32 s14, s2, 7
  s_add_u32 s14, s14, s10
  v_mov_b32 v7, s14
  global_store_b32 v2, v7, s[4:5]
  s_waitcnt_vscnt null, 0
  s_mov_b32 m0, -1
  s_mov_b32 exec_lo, 0xfffffff0
  ds_gws_barrier v1 offset:1 gds
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  s_mov_b32 exec_lo, -1
  global_load_b32 v8, v3, s[4:5] glc
  s_waitcnt vmcnt(0)
  s_mul_i32 s13, s10, s9
  s_add_u32 s13, s13, s2
  s_lshl_b32 s13, s13, 2
  v_mov_b32 v4, s13
  global_store_b32 v4, v8, s[6:7]
  s_waitcnt_vscnt null, 0
  s_mov_b32 m0, 0x80000
  s_mov_b32 exec_lo, 0xfffffff0
  ds_gws_barrier v1 offset:1 gds
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  s_mov_b32 exec_lo, -1
  s_add_u32 s10, s10, 1
  s_branch .Lr_round
.Lr_done:
  s_endpgm
.Lend_rounds:
  .size gws_rounds, .Lend_rounds-gws_rounds

.globl gws_sema
.p2align 8
.type gws_sema,@function
gws_sema:
  s_load_b64 s[4:5], s[0:1], 0x0        // res
  s_load_b64 s[6:7], s[0:1], 0x8        // counters: [0] arrived, [1] passed
  s_load_b32 s9, s[0:1], 0x10           // n
  s_waitcnt lgkmcnt(0)
  s_mov_b32 exec_lo, 1                  // one lane does it all
  s_add_i32 s11, s9, -1
  v_mov_b32 v10, 0
  v_mov_b32 v11, 4
  v_mov_b32 v12, 1
  v_mov_b32 v15, s11                    // n - 1: the barrier's count
  s_mov_b32 m0, 0x140000                // resource 20
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc1 .Ls_wg0
  global_atomic_add_u32 v10, v12, s[6:7]
  s_waitcnt_vscnt null, 0
  ds_gws_sema_p gds
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  global_atomic_add_u32 v11, v12, s[6:7]
  s_waitcnt_vscnt null, 0
  s_branch .Ls_sync
.Ls_wg0:
  global_load_b32 v13, v10, s[6:7] glc
  s_waitcnt vmcnt(0)
  v_readfirstlane_b32 s12, v13
  s_cmp_lt_u32 s12, s11
  s_cbranch_scc1 .Ls_wg0
  global_load_b32 v13, v11, s[6:7] glc  // passed so far: none (the count is 0)
  s_waitcnt vmcnt(0)
  s_lshl_b32 s13, s9, 2
  v_mov_b32 v16, s13
  global_store_b32 v16, v13, s[4:5]     // res[n]
  s_waitcnt_vscnt null, 0
  s_add_i32 s13, s9, -2
  v_mov_b32 v14, s13
  ds_gws_sema_br v14 gds                // n - 2 of them
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  ds_gws_sema_v gds                     // and the last one
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
.Ls_sync:
  s_mov_b32 m0, 0
  ds_gws_barrier v15 gds
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  global_load_b32 v13, v11, s[6:7] glc
  s_waitcnt vmcnt(0)
  s_lshl_b32 s13, s2, 2
  v_mov_b32 v16, s13
  global_store_b32 v16, v13, s[4:5]     // res[g]
  s_endpgm
.Lend_sema:
  .size gws_sema, .Lend_sema-gws_sema

.globl gws_release_all
.p2align 8
.type gws_release_all,@function
gws_release_all:
  s_load_b64 s[4:5], s[0:1], 0x0        // res: [0..3] markers, [4] arrived
  s_waitcnt lgkmcnt(0)
  v_readfirstlane_b32 s8, v0            // work-item id of lane 0
  s_lshr_b32 s8, s8, 5                  // wave index
  s_mov_b32 exec_lo, 1
  v_mov_b32 v10, 16                     // &arrived
  v_mov_b32 v12, 1
  s_mov_b32 m0, 0x160000                // resource 22
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc1 .La_wave0
  global_atomic_add_u32 v10, v12, s[4:5]
  s_waitcnt_vscnt null, 0
  ds_gws_sema_p gds
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  s_lshl_b32 s9, s8, 2
  v_mov_b32 v11, s9
  global_store_b32 v11, v12, s[4:5]     // res[wave] = 1
  s_endpgm
.La_wave0:
  global_load_b32 v13, v10, s[4:5] glc
  s_waitcnt vmcnt(0)
  v_readfirstlane_b32 s9, v13
  s_cmp_lt_u32 s9, 3
  s_cbranch_scc1 .La_wave0
  s_nop 7                               // they queue in the meantime
  s_nop 7
  ds_gws_sema_release_all gds
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  s_endpgm
.Lend_rel:
  .size gws_release_all, .Lend_rel-gws_release_all

.globl gws_deadlock
.p2align 8
.type gws_deadlock,@function
gws_deadlock:
  s_load_b32 s9, s[0:1], 0x0            // n
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, s9                      // n: one more than there are waves
  s_add_i32 s10, s9, -1
  v_mov_b32 v2, s10
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc0 .Ld_go
  s_mov_b32 m0, 0x30000                 // resource 3
  ds_gws_init v1 gds
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
.Ld_go:
  s_mov_b32 m0, 0
  ds_gws_barrier v2 gds
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  s_mov_b32 m0, 0x30000
  ds_gws_barrier v2 gds
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  s_endpgm
.Lend_dead:
  .size gws_deadlock, .Lend_dead-gws_deadlock

.globl gws_exec0
.p2align 8
.type gws_exec0,@function
gws_exec0:
  v_mov_b32 v1, 0
  s_mov_b32 m0, 0
  s_mov_b32 exec_lo, 0
  ds_gws_barrier v1 gds
  s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  s_endpgm
.Lend_exec0:
  .size gws_exec0, .Lend_exec0-gws_exec0

.rodata
.macro KD name, kernarg
.p2align 6
.amdhsa_kernel \name
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_count 2
  .amdhsa_wavefront_size32 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_vgpr_workitem_id 0
  .amdhsa_kernarg_size \kernarg
  .amdhsa_next_free_vgpr 24
  .amdhsa_next_free_sgpr 24
.end_amdhsa_kernel
.endm
KD gws_encodings, 0
KD gws_rounds, 24
KD gws_sema, 24
KD gws_release_all, 8
KD gws_deadlock, 4
KD gws_exec0, 0

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: gws_encodings
    .symbol: gws_encodings.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 24
    .vgpr_count: 24
    .max_flat_workgroup_size: 256
    .args: []
  - .name: gws_rounds
    .symbol: gws_rounds.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 24
    .vgpr_count: 24
    .max_flat_workgroup_size: 256
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .offset: 16, .size: 4, .value_kind: by_value }
      - { .offset: 20, .size: 4, .value_kind: by_value }
  - .name: gws_sema
    .symbol: gws_sema.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 24
    .vgpr_count: 24
    .max_flat_workgroup_size: 256
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .offset: 16, .size: 4, .value_kind: by_value }
  - .name: gws_release_all
    .symbol: gws_release_all.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 24
    .vgpr_count: 24
    .max_flat_workgroup_size: 256
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: gws_deadlock
    .symbol: gws_deadlock.kd
    .kernarg_segment_size: 4
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 24
    .vgpr_count: 24
    .max_flat_workgroup_size: 256
    .args:
      - { .offset: 0, .size: 4, .value_kind: by_value }
  - .name: gws_exec0
    .symbol: gws_exec0.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 24
    .vgpr_count: 24
    .max_flat_workgroup_size: 256
    .args: []
...
.end_amdgpu_metadata
