#!/usr/bin/env python3
"""Bad input to `umbra ventus run`: each case must fail (exit != 0) with a message naming what is
wrong. The inputs are made here from copies of the shipped test directories.

usage: badinput.py UMBRA SHARED_TESTCASES_DIR SCRATCH_DIR
"""
import os
import shutil
import subprocess
import sys


def copy_dir(src, dst):
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    for root, _, files in os.walk(dst):
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)
        os.chmod(root, 0o755)


def edit_lines(path, fn):
    with open(path) as f:
        lines = f.read().split('\n')
    with open(path, 'w') as f:
        f.write('\n'.join(fn(lines)))


def truncate(path, n):
    with open(path, 'rb') as f:
        b = f.read()
    with open(path, 'wb') as f:
        f.write(b[:n])


def main():
    umbra, shared, scratch = sys.argv[1:4]
    os.makedirs(scratch, exist_ok=True)
    vec, nn = f'{shared}/vecadd_4x8', f'{shared}/nn_4x8'

    def case_meta_truncated(d):
        copy_dir(vec, d)
        edit_lines(f'{d}/vecadd_0.metadata', lambda l: l[:20])
        return [d], ['vecadd_0.metadata:21', 'file ends', 'low word of sgprUsage']

    def case_meta_badword(d):
        copy_dir(vec, d)
        edit_lines(f'{d}/vecadd_0.metadata', lambda l: l[:6] + ['0x1g'] + l[7:])
        return [d], ['vecadd_0.metadata:7', "'0x1g' is not a 32-bit hex word"]

    def case_data_badword(d):
        copy_dir(vec, d)
        edit_lines(f'{d}/vecadd_0.data', lambda l: l[:4] + ['hello'] + l[5:])
        return [d], ['vecadd_0.data:5', "'hello'"]

    def case_data_short(d):
        copy_dir(vec, d)
        edit_lines(f'{d}/vecadd_0.data', lambda l: l[:100])
        return [d], ['vecadd_0.data:101', 'file ends']

    def case_data_long(d):
        copy_dir(vec, d)
        edit_lines(f'{d}/vecadd_0.data', lambda l: l + ['00000001'])
        return [d], ['vecadd_0.data:376', 'extra line']

    def case_elf_truncated(d):
        copy_dir(nn, d)
        truncate(f'{d}/object.riscv', 100)
        return [d], ['object.riscv', 'extends past the end of the file']

    def case_elf_garbage(d):
        copy_dir(nn, d)
        with open(f'{d}/object.riscv', 'wb') as f:
            f.write(b'#!/bin/sh\necho not an elf\n')
        return [d], ['object.riscv', 'not an ELF file']

    def case_no_dir(d):
        return [f'{d}/does-not-exist'], ['does-not-exist', 'cannot open directory']

    def case_empty_dir(d):
        os.makedirs(d, exist_ok=True)
        return [d], ['no .metadata files']

    def case_bad_option(d):
        return [vec, '--max-instructions', 'lots'], ["bad value 'lots' for --max-instructions"]

    cases = [case_meta_truncated, case_meta_badword, case_data_badword, case_data_short,
             case_data_long, case_elf_truncated, case_elf_garbage, case_no_dir, case_empty_dir,
             case_bad_option]
    failed = 0
    for case in cases:
        name = case.__name__[5:]
        args, want = case(f'{scratch}/{name}')
        r = subprocess.run([umbra, 'ventus', 'run'] + args + ['--quiet'], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        missing = [w for w in want if w not in r.stderr]
        if 'Sanitizer' in r.stderr:
            missing.append('(no sanitizer report)')
        if r.returncode == 0 or missing:
            failed += 1
            print(f'FAIL {name}: exit {r.returncode}, stderr lacks {missing}:\n  {r.stderr.strip()}')
        else:
            print(f'ok   {name}: exit {r.returncode}: {r.stderr.strip()}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
