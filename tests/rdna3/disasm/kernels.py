#!/usr/bin/env python3
"""Compile kernels.cl with clang-19 for gfx1100 (-O0/-O3, wave32/wave64) and require umbra's
disassembly of every instruction to equal llvm-objdump-19's.

usage: kernels.py R3DIS KERNELS_CL OCL_HEADER [CLANG]"""
import os, subprocess, sys, tempfile
from common import objdump_file, compare

def main():
    if len(sys.argv) < 4: sys.exit(__doc__)
    r3dis, src, hdr = sys.argv[1:4]
    clang = sys.argv[4] if len(sys.argv) > 4 else "clang-19"
    bad = total = 0
    with tempfile.TemporaryDirectory() as d:
        for opt in ("-O0", "-O3"):
            for wave in ("", "-mwavefrontsize64"):
                o = os.path.join(d, "k%s%s.o" % (opt, wave))
                cmd = [clang, "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-nogpulib", opt,
                       "-include", hdr, "-c", src, "-o", o] + ([wave] if wave else [])
                subprocess.run(cmd, check=True)
                insts = objdump_file(o)
                total += len(insts)
                bad += compare(r3dis, insts, "kernels.cl %s %s" % (opt, wave or "wave32"))
    if bad or total < 1000:
        sys.exit(1)

if __name__ == "__main__":
    main()
