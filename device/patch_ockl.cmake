# cmake -DIN=ockl.ll -DOUT=ockl-gfx11.ll -P patch_ockl.cmake
#
# Debian's ockl.bc (ROCm 5.2.3) predates gfx11: its clocks call llvm.amdgcn.s.memrealtime, an
# instruction gfx11 removed (the real-time clock is s_sendmsg_rtn_b64 MSG_RTN_GET_REALTIME there,
# which is what later ROCm releases use). clang-15 refuses such a kernel ("Cannot select"), clang-19
# compiles the call to nothing, so `now` is garbage and device malloc's slab allocator, which
# rate-limits new slabs by that clock, waits forever. This rewrites each call into the gfx11 message
# and drops the "+s-memrealtime" target feature of the functions that made them. A library without
# such calls is copied unchanged.
file(READ ${IN} text)
string(REPLACE "call i64 @llvm.amdgcn.s.memrealtime()" "call i64 @llvm.amdgcn.s.sendmsg.rtn.i64(i32 131)" patched "${text}")
if(NOT patched STREQUAL text)
  string(REPLACE "\"target-features\"=\"+s-memrealtime\"" "" patched "${patched}")
  string(APPEND patched "\ndeclare i64 @llvm.amdgcn.s.sendmsg.rtn.i64(i32 immarg)\n")
endif()
file(WRITE ${OUT} "${patched}")
