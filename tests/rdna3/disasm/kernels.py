#!/usr/bin/env python3
"""Compile OpenCL C kernels with clang-19 for gfx1100 (-O0/-O3, wave32/wave64) and require umbra's
disassembly of every instruction to equal llvm-objdump-19's.

usage: kernels.py R3DIS HEADER|DEVICE_LIB_DIR CLANG FILE.cl|DIR ...   (a DIR means every *.cl in it)
HEADER: a device header force-included without device libraries (shared/reference/ocl_min.h);
DEVICE_LIB_DIR: the ROCm device-library folder, as `umbra cc` compiles (builtins from ocml/ockl)."""
import glob, os, subprocess, sys, tempfile
from common import objdump_file, compare

def main():
    if len(sys.argv) < 5: sys.exit(__doc__)
    r3dis, lib, clang = sys.argv[1:4]
    if os.path.isdir(lib):
        lib_flags = ["-cl-std=CL2.0", "--rocm-device-lib-path=" + lib]
    else:
        lib_flags = ["-cl-std=CL2.0", "-nogpulib", "-include", lib]
    srcs = []
    for a in sys.argv[4:]:
        srcs += sorted(glob.glob(os.path.join(a, "*.cl"))) if os.path.isdir(a) else [a]
    bad = total = 0
    with tempfile.TemporaryDirectory() as d:
        for src in srcs:
            for opt in ("-O0", "-O3"):
                for wave in ("", "-mwavefrontsize64"):
                    o = os.path.join(d, "k.o")
                    cmd = [clang, "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", opt] + lib_flags + \
                          ["-mllvm", "-amdgpu-internalize-symbols", "-c", src, "-o", o]
                    subprocess.run(cmd + ([wave] if wave else []), check=True)
                    insts = objdump_file(o)
                    total += len(insts)
                    bad += compare(r3dis, insts, "%s %s %s" % (os.path.basename(src), opt, wave or "wave32"), show=10)
    print("%d kernel files, %d instructions, %d mismatches" % (len(srcs), total, bad))
    if bad or total < 1000:
        sys.exit(1)

if __name__ == "__main__":
    main()
