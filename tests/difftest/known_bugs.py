#!/usr/bin/env python3
"""Known compiler bugs the differential tester found (docs/DIFFTEST.md, tests/difftest/known/):
umbra must execute the code clang-19 emits, wrong or not. For each case a Python model of the
source and a model of what the miscompiled gfx1100 code computes (read off llvm-objdump-19) are
checked against umbra's output in every build: the builds clang compiles right must equal the
source's model, the miscompiled one the miscompiled model (and differ from the source's, or the
case no longer shows the bug and the docs must change).

usage: known_bugs.py UMBRA WORKDIR
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402  (the tester's inputs)

M32, M64 = 0xFFFFFFFF, (1 << 64) - 1


def s16(x):
    x &= 0xFFFF
    return x - 0x10000 if x & 0x8000 else x


def rotl64(v, s):
    s %= 64
    return ((v << s) | (v >> (64 - s))) & M64 if s else v


def c6_model(inw, gid, miscompiled):
    """known/c6_or_minus_one_fold.cl, word 7 of work-item gid (workgroups of 32). miscompiled:
    the -O3 wave32 code, which runs the dead arm pa[...] where `cond` is false instead of w0.s1
    (`s_xor_b32 s15, vcc_lo, -1` / `s_and_saveexec_b32`; the `(char)lid >= 0` mask was folded
    away as `or x, -1 -> x`)."""
    lid = gid % 32
    v1, v4, v6 = 0, inw[(gid + 104) & 255], 0x9D
    w0s1 = inw[(gid + 214) & 255] & 0xFF
    v2 = s16(inw[(gid + 120) & 255])
    pa = [s16(inw[(gid + q * 3) & 255]) for q in range(8)]
    for i0 in range(gid % 5):
        for i1 in range(gid % 5):
            idx = (v1 * (pa[(~i1) & 7] & M32)) & 255
            case = ((min(lid, inw[idx]) * 7) & M32) & 3
            if case == 0:   # falls through to cases 1-2 and the default
                if ((v4 << (i0 & 63)) & M64) == 0:
                    v1 = lid
                elif not miscompiled:   # (char)lid >= 0 always holds: lid < 32
                    v1 = w0s1
                else:   # the code clang emitted: pa[(v2 < (short)in[i0] ? gid : in[(v1 >> gid) & 255]) & 7]
                    j = gid if v2 < s16(inw[i0 & 255]) else inw[(v1 >> (gid & 31)) & 255]
                    v1 = pa[j & 7] & M32
            if case <= 2:
                v6 = (v6 - ((pa[lid & 7] + lid) & 0xFFFF)) & 0xFFFF
            v4 = rotl64(v4, v4 | gid)
    return v6


def run_c6(umbra, work):
    src = os.path.join(HERE, "known", "c6_or_minus_one_fold.cl")
    inb, ctrb = run.inputs(13)
    inw = [int.from_bytes(inb[i * 4:i * 4 + 4], "little") for i in range(256)]
    for name, data in (("in.bin", inb), ("ctr.bin", ctrb)):
        with open(os.path.join(work, name), "wb") as f:
            f.write(data)
    source = [c6_model(inw, g, False) for g in range(256)]
    wrong = [c6_model(inw, g, True) for g in range(256)]
    apart = sum(a != b for a, b in zip(source, wrong))
    failures = 0
    if apart == 0:
        print("c6: the two models agree on every work-item: the inputs no longer show the bug")
        return 1
    for opt, wave, miscompiled in ((0, 32, False), (3, 64, False), (3, 32, True)):
        co = os.path.join(work, f"c6_O{opt}_w{wave}.co")
        out = os.path.join(work, f"c6_O{opt}_w{wave}.out")
        cc = [umbra, "cc", src, f"-O{opt}", "-o", co, "-Xclang-arg", "-w"] + (["--wave64"] if wave == 64 else [])
        subprocess.run(cc, check=True)
        subprocess.run([umbra, "run", co, "--kernel", "k4", "--global", "256", "--local", "32",
                        "--arg", f"buf:zeros:{256 * 8 * 8}", "--arg", "buf:" + os.path.join(work, "in.bin"),
                        "--arg", "buf:" + os.path.join(work, "ctr.bin"), "--out", f"0:{out}", "--quiet"],
                       check=True)
        data = open(out, "rb").read()
        got = [int.from_bytes(data[(g * 8 + 7) * 8:(g * 8 + 8) * 8], "little") for g in range(256)]
        want = wrong if miscompiled else source
        bad = [g for g in range(256) if got[g] != want[g]]
        label = "the miscompiled code's model" if miscompiled else "the source's model"
        if bad:
            failures += 1
            g = bad[0]
            print(f"c6 -O{opt} wave{wave}: {len(bad)} of 256 work-items differ from {label}; "
                  f"work-item {g}: {got[g]:#x}, expected {want[g]:#x}")
            if miscompiled and got == source:
                print("  (it equals the source's model: clang-19 no longer miscompiles this kernel; "
                      "update docs/DIFFTEST.md C6)")
        else:
            print(f"c6 -O{opt} wave{wave}: all 256 work-items equal {label} ({apart} work-items "
                  f"tell the two models apart)")
    return failures


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    umbra, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    return 1 if run_c6(umbra, work) else 0


if __name__ == "__main__":
    sys.exit(main())
