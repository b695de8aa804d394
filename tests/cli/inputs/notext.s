# A code object with code but no kernel (no symbol at the start of .text): llvm-objdump-19 labels
# the section start <.text> and symbolizes branch targets against it.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.text
	s_mov_b32 s0, 1
	s_cbranch_scc0 .Lskip
	s_add_u32 s0, s0, 2
.Lskip:
	s_branch .Lend
	s_nop 0
.Lend:
	s_endpgm
	.amdgpu_metadata
---
amdhsa.kernels: []
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.version: [1, 2]
...
	.end_amdgpu_metadata
