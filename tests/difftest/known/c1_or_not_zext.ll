; C1: llc-19 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100 -O3 stores s0 as the high dword
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @f(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %in, i32 %t
  %s = load i32, ptr addrspace(1) %p1
  %p2 = getelementptr inbounds i32, ptr addrspace(1) %p1, i32 64
  %x = load i32, ptr addrspace(1) %p2
  %s64 = zext i32 %s to i64
  %sh = shl i64 %s64, 48
  %sx = ashr exact i64 %sh, 48
  %a = add nsw i64 %sx, 2410518570
  %z = zext i32 %x to i64
  %n = xor i64 %z, -1
  %o = or i64 %a, %n
  %q = getelementptr inbounds i64, ptr addrspace(1) %out, i32 %t
  store i64 %o, ptr addrspace(1) %q, align 8
  ret void
}
