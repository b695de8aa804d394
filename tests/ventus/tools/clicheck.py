#!/usr/bin/env python3
"""The `umbra ventus` command line: options and output formats.

usage: clicheck.py UMBRA SHARED_TESTCASES_DIR SCRATCH_DIR
"""
import json
import os
import re
import subprocess
import sys

failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        print(f'FAIL {what}')
    else:
        print(f'ok   {what}')


def run(*args):
    return subprocess.run(list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def main():
    umbra, shared, work = sys.argv[1:4]
    os.makedirs(f'{work}/traces_pat', exist_ok=True)
    g, v = f'{shared}/gaussian_4x8', f'{shared}/vecadd_4x8'
    order = ['Fan1_0', 'Fan2_0', 'Fan1_1', 'Fan2_1', 'Fan1_2', 'Fan2_2', 'Fan1_3', 'Fan2_3']

    # per-launch trace files from a %s pattern, JSON statistics, quiet
    r = run(umbra, 'ventus', 'run', g, '--quiet', '--trace', f'{work}/traces_pat/%s.trace',
            '--stats', f'{work}/g.json', '--dump', f'{work}/g.dump')
    check(r.returncode == 0, f'gaussian runs ({r.stderr.strip()})')
    check(r.stdout == '', '--quiet prints nothing on stdout')
    check(all(os.path.getsize(f'{work}/traces_pat/{n}.trace') > 0 for n in order
              if os.path.exists(f'{work}/traces_pat/{n}.trace'))
          and sorted(os.listdir(f'{work}/traces_pat')) == sorted(n + '.trace' for n in order),
          '--trace PATTERN writes one trace per launch')
    try:
        s = json.load(open(f'{work}/g.json'))
        names = [l['name'] for l in s['launches']]
        total = s['total']['warp_instructions']
        parts = sum(l['stats']['warp_instructions'] for l in s['launches'])
        check(names == order, f'--stats lists the launches in order ({names})')
        check(total == parts and total > 0, f'--stats total = sum of launches ({total} = {parts})')
    except (OSError, ValueError, KeyError) as e:
        check(False, f'--stats is JSON with launches and total ({e})')
    lines = open(f'{work}/g.dump').read().splitlines()
    fmt = all(re.fullmatch(r'0x[0-9a-f]{8} 0x[0-9a-f]{8}', l) for l in lines)
    addrs = [int(l.split()[0], 16) for l in lines]
    check(fmt and len(lines) > 0, '--dump lines are "0xADDRESS 0xWORD"')
    check(all(a % 4 == 0 for a in addrs) and all(a < b for a, b in zip(addrs, addrs[1:])),
          '--dump addresses are word-aligned and increasing')

    # a single trace file for every launch; the human-readable summary
    r = run(umbra, 'ventus', 'run', v, '--trace', f'{work}/v.trace')
    t = open(f'{work}/v.trace').read() if os.path.exists(f'{work}/v.trace') else ''
    check(r.returncode == 0 and all(f'core   {w}: 3 0x' in t for w in range(4)),
          '--trace FILE holds every warp')
    check('results:' in r.stdout and re.search(r'vecadd_0 .* ok', r.stdout) and 'total: 1 launch' in r.stdout,
          'the summary names each launch and its status')

    # command-line errors
    r = run(umbra, 'ventus')
    check(r.returncode == 2 and 'usage' in r.stderr, 'no subcommand: usage, exit 2')
    r = run(umbra, 'ventus', 'frobnicate')
    check(r.returncode == 2 and "unknown subcommand 'frobnicate'" in r.stderr, 'unknown subcommand')
    r = run(umbra, 'ventus', 'run', v, '--bogus')
    check(r.returncode == 2 and '--bogus' in r.stderr, 'unknown option')
    r = run(umbra, 'ventus', 'run')
    check(r.returncode == 2 and 'missing DIR' in r.stderr, 'missing DIR')
    r = run(umbra, 'ventus', 'disasm', f'{work}/nonexistent.riscv')
    check(r.returncode == 1 and 'nonexistent.riscv: cannot open' in r.stderr, 'disasm of a missing file')
    elf = f'{shared}/nn_4x8/object.riscv'
    r = run(umbra, 'ventus', 'run-elf', elf, '--entry', 'no_such_kernel')
    check(r.returncode == 1 and 'no_such_kernel: no such symbol' in r.stderr, 'run-elf with an unknown entry')
    r = run(umbra, 'ventus', 'run-elf', elf)
    check(r.returncode == 2 and '--entry' in r.stderr, 'run-elf without --entry')
    r = run(umbra, 'ventus', 'run-elf', elf, '--entry', '_start', '--lanes', '0')
    check(r.returncode == 2 and "bad value '0' for --lanes" in r.stderr, 'run-elf --lanes 0')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
