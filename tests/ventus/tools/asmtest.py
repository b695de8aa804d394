#!/usr/bin/env python3
"""Assemble, link and run one Ventus assembly test through `umbra ventus run-elf`.

usage: asmtest.py UMBRA LLVM_MC LD_LLD LLVM_READELF SOURCE.s WORKDIR

The test source states what to do and what to expect, in comment lines:
  # RUN: <options of umbra ventus run-elf>     (--entry _start is added when absent)
  # EXPECT: SYMBOL[+OFFSET] = WORD WORD ...     consecutive 32-bit words expected after the run
  # ERROR: TEXT                                 the run must fail (exit != 0) and stderr must
                                                contain TEXT (several lines: all of them)
Words are C integer literals (0x.., decimal, negative numbers as two's complement).
"""
import os
import re
import subprocess
import sys


def fail(msg):
    print(f'asmtest: {msg}')
    sys.exit(1)


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def symbols(readelf, elf):
    out = run([readelf, '-sW', elf])
    if out.returncode:
        fail(f'{readelf} failed: {out.stderr}')
    syms = {}
    for line in out.stdout.splitlines():
        p = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(p) >= 8 and re.fullmatch(r'\d+:', p[0]) and p[6] != 'UND':
            syms.setdefault(p[7], int(p[1], 16))
    return syms


def main():
    if len(sys.argv) != 7:
        print(__doc__)
        return 2
    umbra, mc, lld, readelf, src, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    name = os.path.splitext(os.path.basename(src))[0]
    text = open(src).read()
    run_opts, expects, errors = [], [], []
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r'\s*#\s*(RUN|EXPECT|ERROR):\s*(.*)$', line)
        if not m:
            continue
        kind, rest = m.group(1), m.group(2).strip()
        if kind == 'RUN':
            run_opts += rest.split()
        elif kind == 'ERROR':
            errors.append(rest)
        else:
            e = re.match(r'([A-Za-z_.$][\w.$]*|0x[0-9a-fA-F]+)(?:\+(\w+))?\s*=\s*(.+)$', rest)
            if not e:
                fail(f'{src}:{n}: bad EXPECT line')
            words = [int(w, 0) & 0xffffffff for w in e.group(3).split()]
            expects.append((e.group(1), int(e.group(2) or '0', 0), words, n))
    if not expects and not errors:
        fail(f'{src}: states no EXPECT or ERROR: a test must check something')

    obj, elf = f'{work}/{name}.o', f'{work}/{name}.elf'
    r = run([mc, '-triple=riscv32', '-mattr=+m,+a,+f,+zve32f', '-filetype=obj',
             '-I', os.path.dirname(os.path.abspath(src)), src, '-o', obj])
    if r.returncode:
        fail(f'assembling {src} failed:\n{r.stderr}')
    r = run([lld, '-Ttext=0x80000000', '-e', '_start', obj, '-o', elf])
    if r.returncode:
        fail(f'linking {src} failed:\n{r.stderr}')
    syms = symbols(readelf, elf)

    dump = f'{work}/{name}.dump'
    cmd = [umbra, 'ventus', 'run-elf', elf, '--quiet'] + run_opts
    if '--entry' not in run_opts:
        cmd += ['--entry', '_start']
    where = []
    for sym, off, words, n in expects:
        if sym.startswith('0x'):
            addr = int(sym, 16) + off
        elif sym in syms:
            addr = syms[sym] + off
        else:
            fail(f'{src}:{n}: no symbol {sym} in {elf}')
        where.append(addr)
        cmd += ['--dump-range', f'0x{addr:x}:{4 * len(words)}']
    if expects:
        cmd += ['--dump', dump]
    r = run(cmd)
    if 'Sanitizer' in r.stderr:
        fail(f'{name}: the sanitizers reported a problem:\n{r.stderr}')
    if errors:
        if r.returncode == 0:
            fail(f'{name}: the run succeeded, expected an error containing {errors}')
        missing = [e for e in errors if e not in r.stderr]
        if missing:
            fail(f'{name}: exit {r.returncode}, but stderr lacks {missing}:\n{r.stderr}')
        print(f'{name}: failed as expected (exit {r.returncode}): {r.stderr.strip()}')
        return 0
    if r.returncode:
        fail(f'{name}: {" ".join(cmd)} exited {r.returncode}:\n{r.stderr}')
    mem = {}
    for line in open(dump):
        a, w = line.split()
        mem[int(a, 16)] = int(w, 16)
    bad = 0
    for (sym, off, words, n), addr in zip(expects, where):
        for i, want in enumerate(words):
            got = mem.get(addr + 4 * i)
            if got != want:
                bad += 1
                g = 'missing' if got is None else f'0x{got:08x}'
                print(f'{src}:{n}: {sym}+{off + 4 * i} (0x{addr + 4 * i:08x}) = {g}, expected 0x{want:08x}')
    if bad:
        return 1
    print(f'{name}: {sum(len(e[2]) for e in expects)} words as expected')
    return 0


if __name__ == '__main__':
    sys.exit(main())
