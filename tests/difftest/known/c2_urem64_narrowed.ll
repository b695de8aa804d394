; C2: llc-19 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100 -O3 computes the urem on the low dword only
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @f(ptr addrspace(1) %out, i1 %c, i32 %d32) {
  %x = select i1 %c, i64 -1, i64 2
  %d = and i32 %d32, 31
  %d64 = zext i32 %d to i64
  %r = urem i64 %x, %d64
  store i64 %r, ptr addrspace(1) %out
  ret void
}
