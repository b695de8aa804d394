#!/usr/bin/env python3
"""`umbra ventus disasm FILE` against two disassemblers written by others:
 - llvm-objdump-19 -d: every line it decodes (labels, addresses, words, text) must be identical;
 - the Ventus toolchain's object.dump shipped with the test program: for the custom instructions
   llvm-objdump-19 cannot decode (<unknown>), umbra's mnemonic and operands must be the ones the
   Ventus LLVM printed (branch targets compared as addresses; that older objdump prints byte
   groups and some immediates in decimal, so only these lines are compared with it).

usage: disasmcheck.py UMBRA LLVM_OBJDUMP FILE.riscv OBJECT.dump
"""
import re
import subprocess
import sys


def listing(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        sys.exit(f'disasmcheck: {" ".join(cmd)} failed: {r.stderr}')
    return r.stdout.splitlines()


INSN = re.compile(r'^([0-9a-f]{8}):\s+((?:[0-9a-f]{2} ){4}|[0-9a-f]{8})\s*\t(.*)$')


def insns(lines):
    out = {}
    for l in lines:
        m = INSN.match(l)
        if m:
            out[int(m.group(1), 16)] = m.group(3).strip()
    return out


def norm(text):
    """mnemonic + operands, branch targets as plain numbers, no symbol suffix."""
    text = re.sub(r'\s*<[^>]*>$', '', text)
    parts = text.split(None, 1)
    ops = [o.strip() for o in parts[1].split(',')] if len(parts) > 1 else []
    ops = [str(int(o, 0)) if re.fullmatch(r'-?(0x[0-9a-f]+|\d+)', o) else o for o in ops]
    return parts[0], ops


def main():
    umbra, objdump, elf, ventus_dump = sys.argv[1:5]
    mine = listing([umbra, 'ventus', 'disasm', elf])
    ref = listing([objdump, '-d', '--mattr=+m,+a,+f,+zve32f', elf])
    custom = insns(open(ventus_dump).read().splitlines())
    # llvm-objdump's own header line names the file as given; so does umbra's
    if len(mine) != len(ref):
        print(f'disasmcheck: {len(mine)} lines, llvm-objdump-19 {len(ref)}')
    bad = checked = checked_custom = 0
    for i, (a, b) in enumerate(zip(mine, ref)):
        if '<unknown>' in b:
            m = INSN.match(a)
            addr = int(m.group(1), 16) if m else None
            if addr is None or addr not in custom:
                bad += 1
                print(f'line {i + 1}: no Ventus-toolchain text for: {a}')
                continue
            checked_custom += 1
            if norm(m.group(3)) != norm(custom[addr]):
                bad += 1
                print(f'line {i + 1}: umbra "{m.group(3).strip()}", Ventus objdump "{custom[addr]}"')
            continue
        checked += 1
        if a != b:
            bad += 1
            print(f'line {i + 1}: umbra "{a}"\n{" " * (len(str(i + 1)) + 6)}llvm  "{b}"')
    if bad or len(mine) != len(ref):
        print(f'disasmcheck: {bad} differences')
        return 1
    print(f'disasmcheck: {checked} lines as llvm-objdump-19, {checked_custom} custom instructions as '
          f'the Ventus toolchain')
    return 0


if __name__ == '__main__':
    sys.exit(main())
