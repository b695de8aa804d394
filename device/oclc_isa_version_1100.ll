; The gfx1100 ISA-version control file of AMD's device libraries (ROCm's oclc_isa_version_1100.bc).
; Debian's rocm-device-libs 5.2.3 predates gfx11 and lacks it; the device libraries read only this
; constant from it (major * 1000 + minor * 100 + stepping: 11.0.0). The build assembles it with
; llvm-as-19 into the device-library folder beside Debian's bitcode (device/CMakeLists.txt).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 11000, align 4
