"""Shared by the RDNA3 disassembly tests: run llvm-mc/llvm-objdump and umbra's r3dis, compare."""
import os, re, subprocess, sys, tempfile

MC = os.environ.get("LLVM_MC", "llvm-mc-19")
OBJDUMP = os.environ.get("LLVM_OBJDUMP", "llvm-objdump-19")

def assemble_lines(lines, mcpu="gfx1100", attrs=None):
    """Assemble each line with llvm-mc --show-encoding; returns the list of encodings (byte lists)
    of the lines it accepted (lines it rejects are skipped: the generator tries combinations)."""
    cmd = [MC, "-triple=amdgcn", "-mcpu=" + mcpu, "--show-encoding"]
    if attrs: cmd.append("-mattr=" + attrs)
    r = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True, text=True)
    encs = []
    for l in r.stdout.splitlines():
        m = re.search(r"; encoding: \[(.*)\]", l)
        if m:
            encs.append([int(x, 16) for x in m.group(1).split(",")])
    return encs

def objdump_bytes(encs, mcpu="gfx1100"):
    """Put the encodings in one .text section and disassemble it with llvm-objdump.
    Returns [(dwords, text)] in order."""
    with tempfile.TemporaryDirectory() as d:
        s, o = os.path.join(d, "t.s"), os.path.join(d, "t.o")
        with open(s, "w") as f:
            f.write(".text\n")
            for e in encs:
                f.write(".byte " + ",".join("0x%02x" % x for x in e) + "\n")
        subprocess.run([MC, "-triple=amdgcn", "-mcpu=" + mcpu, "-filetype=obj", s, "-o", o], check=True)
        return objdump_file(o, mcpu)

def objdump_file(path, mcpu="gfx1100"):
    r = subprocess.run([OBJDUMP, "-d", "--mcpu=" + mcpu, path], capture_output=True, text=True, check=True)
    out = []
    for l in r.stdout.splitlines():
        m = re.match(r"\t(.*?)\s*// ([0-9A-F]+): ([0-9A-F ]+?)\s*(<.*>|; Warning.*)?$", l)
        if m:
            out.append(([int(x, 16) for x in m.group(3).split()], m.group(1)))
    return out

def umbra_disasm(r3dis, insts):
    """Run umbra's r3dis on [(dwords, ...)]; returns its text per instruction."""
    src = "".join(" ".join("%08x" % w for w in ws) + "\n" for ws, _ in insts)
    r = subprocess.run([r3dis], input=src, capture_output=True, text=True, check=True)
    out = r.stdout.splitlines()
    if len(out) != len(insts):
        sys.exit("r3dis printed %d lines for %d instructions" % (len(out), len(insts)))
    return out

def compare(r3dis, insts, label, show=40):
    """Compare objdump's text with umbra's; print mismatches; return number of mismatches."""
    mine = umbra_disasm(r3dis, insts)
    bad = 0
    for (ws, ref), got in zip(insts, mine):
        if ref == "<unknown>" or ref.startswith("."):
            continue
        if ref != got:
            bad += 1
            if bad <= show:
                print("MISMATCH %-28s objdump: %s\n%37s umbra: %s" % (" ".join("%08x" % w for w in ws), ref, "", got))
    print("%s: %d instructions compared, %d mismatches" % (label, len(insts), bad))
    return bad
