#!/bin/sh
# `umbra opencl -- clinfo`: one platform (umbra), its device, and no query left unanswered
# (clinfo prints an error code or "Invalid ..." where a query fails).
# With a third argument `rocm`: `--identity rocm`, ROCm's names and AMD's attribute queries
# (cl_amd_device_attribute_query), every one of which clinfo asks then.
# usage: clinfo_check.sh UMBRA CLINFO [rocm]
set -u
identity=${3:-umbra}
out=$("$1" opencl --identity "$identity" -- "$2" 2>&1) || { echo "clinfo failed"; echo "$out"; exit 1; }
fail() { echo "FAIL: $1"; echo "$out"; exit 1; }
echo "$out" | grep -Eq "^Number of platforms +1$" || fail "not exactly one platform"
if [ "$identity" = rocm ]; then
  echo "$out" | grep -Eq "^ +Platform Name +AMD Accelerated Parallel Processing$" || fail "not ROCm's platform name"
  echo "$out" | grep -Eq "^ +Device Name +gfx1100$" || fail "no gfx1100 device"
  echo "$out" | grep -Eq "^ +Device Board Name \(AMD\) +Radeon RX 7900 XTX$" || fail "board name"
  echo "$out" | grep -Eq "^ +Wavefront width \(AMD\) +32$" || fail "wavefront width"
else
  echo "$out" | grep -Eq "^ +Platform Name +umbra$" || fail "the platform is not umbra"
  echo "$out" | grep -Eq "^ +Device Name +umbra RDNA3 gfx1100$" || fail "no umbra RDNA3 gfx1100 device"
fi
echo "$out" | grep -Eq "^ +Max compute units +48$" || fail "compute units (48 WGPs of 96 CUs, as ROCm reports the card)"
echo "$out" | grep -Eq "^ +Platform Version +OpenCL 3\.0 umbra$" || fail "platform version 3.0"
echo "$out" | grep -Eq "^ +Device Version +OpenCL 3\.0 umbra$" || fail "device version 3.0"
echo "$out" | grep -Eq "^ +Device OpenCL C features +__opencl_c_int64 " || fail "OpenCL C features"
echo "$out" | grep -Eq "^ +Generic address space support +Yes$" || fail "generic address space"
echo "$out" | grep -Eq "^ +Image support +Yes$" || fail "image support"
echo "$out" | grep -Eq "^ +Max 2D image size +16384x16384 pixels$" || fail "2D image size"
bad=$(echo "$out" | grep -E "<error|error -[0-9]|Invalid|CL_INVALID|not available|Unknown" || true)
[ -z "$bad" ] || fail "unanswered queries: $bad"
echo PASS
