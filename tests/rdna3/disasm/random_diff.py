#!/usr/bin/env python3
"""Random encodings, umbra vs llvm-objdump-19: validity, length and text.

Draws first dwords from every encoding family (random opcode and field bits) followed by random
dwords, disassembles each with llvm-objdump (each probe followed by s_nop padding so that
objdump's view of one probe cannot run into the next) and with umbra. Where objdump decodes an
instruction, umbra must decode the same number of dwords and print the same text; where objdump
rejects the encoding, umbra must reject it too.

usage: random_diff.py R3DIS COUNT SEED"""
import os, random, re, subprocess, sys, tempfile
from common import MC, OBJDUMP

FAMILY_TOPS = [  # (value, mask of the fixed top bits)
    (0xbe800000, 0xff800000), (0x80000000, 0xc0000000), (0xb0000000, 0xf0000000), (0xbf000000, 0xff800000),
    (0xbf800000, 0xff800000), (0xf4000000, 0xfc000000), (0x7e000000, 0xfe000000), (0x00000000, 0x80000000),
    (0x7c000000, 0xfe000000), (0xd4000000, 0xfc000000), (0xcc000000, 0xff000000), (0xc8000000, 0xfc000000),
    (0xd8000000, 0xfc000000), (0xdc000000, 0xfc000000), (0xe0000000, 0xfc000000), (0xe8000000, 0xfc000000),
]
PAD = [0xbf800000] * 3

def main():
    if len(sys.argv) != 4: sys.exit(__doc__)
    r3dis, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    probes = []
    for i in range(count):
        top, mask = FAMILY_TOPS[i % len(FAMILY_TOPS)]
        w0 = top | (rng.getrandbits(32) & ~mask & 0xffffffff)
        ws = [w0, rng.getrandbits(32), rng.getrandbits(32)]
        # sources that ask for a literal/DPP dword are common in practice: bias some fields
        if rng.random() < 0.3 and (w0 >> 26) == 0x35: ws[1] = (ws[1] & ~0x1ff) | rng.choice([250, 233, 234, 255, 242, 256 + 7])
        probes.append(ws)
    words, starts = [], []
    for p in probes:
        starts.append(4 * len(words))
        words += p + PAD
    with tempfile.TemporaryDirectory() as d:
        s, o = os.path.join(d, "r.s"), os.path.join(d, "r.o")
        with open(s, "w") as f:
            f.write(".text\n")
            for i in range(0, len(words), 8):
                f.write(".long " + ",".join("0x%08x" % w for w in words[i:i + 8]) + "\n")
        subprocess.run([MC, "-triple=amdgcn", "-mcpu=gfx1100", "-filetype=obj", s, "-o", o], check=True)
        r = subprocess.run([OBJDUMP, "-d", "--mcpu=gfx1100", o], capture_output=True, text=True, check=True)
    at = {}
    for l in r.stdout.splitlines():
        m = re.match(r"\t(.*?)\s*// ([0-9A-F]+): ([0-9A-F ]+?)\s*(<.*>|; Warning.*)?$", l)
        if m:
            at[int(m.group(2), 16)] = (m.group(1), len(m.group(3).split()))
    src = "".join(" ".join("%08x" % w for w in p) + "\n" for p in probes)
    mine = subprocess.run([r3dis, "--size"], input=src, capture_output=True, text=True, check=True).stdout.splitlines()
    stats = {"valid": 0, "invalid": 0}
    bad = []
    for p, st, got in zip(probes, starts, mine):
        ref = at.get(st)
        valid = ref is not None and ref[0] != "<unknown>" and not ref[0].startswith(".") and "/*" not in ref[0]
        if not valid:
            stats["invalid"] += 1
            if ref is not None and "/*" in ref[0]:
                continue           # objdump prints encodings it considers invalid with a comment
            if not got.startswith("ERROR"):
                bad.append((p, ref[0] if ref else "?", got))
            continue
        stats["valid"] += 1
        exp = "%d\t%s" % (ref[1], ref[0])
        if got != exp:
            bad.append((p, exp, got))
    for p, e, g in bad[:int(os.environ.get("SHOW", "40"))]:
        print("MISMATCH %s\n   objdump: %s\n   umbra:   %s" % (" ".join("%08x" % w for w in p), e, g))
    print("random: %d probes, %d valid, %d invalid, %d mismatches" % (count, stats["valid"], stats["invalid"], len(bad)))
    sys.exit(1 if bad or stats["valid"] < count // 10 else 0)

if __name__ == "__main__":
    main()
