#!/usr/bin/env python3
"""Checks of umbra's Ventus runs against the golden model's commit logs (testcases/ventus/*.log).

  vtlog.py trace REF.log UMBRA.log [--no-csr] [--no-simt]
      Compare two commit traces warp by warp ("core N" = warp N): PCs, instruction words,
      x/f/v register writes, CSR writes, memory addresses and stored values, SIMT mask and stack
      depth. Boot-ROM records (the golden model's loader at 0x1000, before the kernel's crt) and
      whatever a warp does after its endprg (the golden model's tohost handshake) are left out.
      The first difference is reported with both lines and the records before it.

  vtlog.py mem DUMP DIR LAUNCH... [--skip-logless]
      Expected final memory from the launches in order: each launch's .data replay, then every
      store its .log makes (last store per byte). Every byte the logs store must be in DUMP (the
      'ADDRESS WORD' lines of `umbra ventus run --dump`) with that value. Not checked: local
      memory 0x70000000-0x7fffffff (per-workgroup scratch of the golden model, not global state),
      and stores after endprg (the golden model's tohost store at 0x80001000 that ends its
      simulation; umbra ends a warp at endprg).

  vtlog.py kmeans DUMP DIR
      kmeans' logs predate a golden-model fix, so its check is the host's printed result: the
      final centroids of pocl.log, recomputed from the features and the membership in DUMP.

Exit status 0 when everything matches, 1 on a difference (with a report), 2 on bad input.
"""
import re
import struct
import sys

BOOT_LO, BOOT_HI = 0x1000, 0x10000           # the golden model's boot ROM
LOCAL_LO, LOCAL_HI = 0x70000000, 0x80000000  # local memory window
ENDPRG = 0x0000400B

COMMIT = re.compile(r'^core\s+(\d+): 3 0x([0-9a-fA-F]+) \(0x([0-9a-fA-F]+)\)(.*)$')
DISASM = re.compile(r'^core\s+(\d+): 0x([0-9a-fA-F]+) \(0x([0-9a-fA-F]+)\)\s*(.*)$')
XWRITE = re.compile(r'(?<![\w])([xf])(\d+)\s+0x([0-9a-fA-F]+)')
CWRITE = re.compile(r'(?<![\w])c(\d+)_(\w+)\s+0x([0-9a-fA-F]+)')
VWRITE = re.compile(r'(?<![\w])v(\d+)\s+([0-9a-fA-F]{8})\s+0x([0-9a-fA-F]+)((?:\s+[0-9a-fA-F]{8}(?![\w]))*)')
MEM = re.compile(r'(?<![\w])mem 0x([0-9a-fA-F]+)(?:\s+0x([0-9a-fA-F]+))?')
SIMT_MASK = re.compile(r'current mask:\s*([0-9a-fA-F]+)')
SIMT_SIZE = re.compile(r'stack size:\s*(\d+)')


class Record:
    __slots__ = ('core', 'pc', 'insn', 'x', 'csr', 'v', 'mem', 'simt', 'line', 'text', 'disasm')

    def __init__(self, core, pc, insn, rest, line, text, disasm):
        self.core, self.pc, self.insn, self.line, self.text = core, pc, insn, line, text
        self.disasm = disasm
        self.x = [(m.group(1) + m.group(2), int(m.group(3), 16)) for m in XWRITE.finditer(rest)]
        self.csr = [(int(m.group(1)), int(m.group(3), 16)) for m in CWRITE.finditer(rest)]
        self.v = [(int(m.group(1)), int(m.group(2), 16),
                   [int(m.group(3), 16)] + [int(e, 16) for e in m.group(4).split()])
                  for m in VWRITE.finditer(rest)]
        self.mem = [(int(m.group(1), 16), int(m.group(2), 16) if m.group(2) else None)
                    for m in MEM.finditer(rest)]
        mk, sz = SIMT_MASK.search(rest), SIMT_SIZE.search(rest)
        self.simt = (int(mk.group(1), 16), int(sz.group(1))) if mk and sz else None


def parse_log(path):
    """Per-warp lists of kernel records (boot ROM and post-endprg records removed)."""
    warps, ended, last_disasm = {}, set(), {}
    try:
        f = open(path, encoding='utf-8', errors='replace')
    except OSError as e:
        sys.exit(f'vtlog: {path}: {e.strerror}')
    with f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            m = COMMIT.match(line)
            if not m:
                d = DISASM.match(line)
                if d:
                    last_disasm[int(d.group(1))] = d.group(4).strip()
                continue
            core, pc, insn = int(m.group(1)), int(m.group(2), 16), int(m.group(3), 16)
            if BOOT_LO <= pc < BOOT_HI:
                ended.discard(core)      # a new workgroup starts at the boot ROM
                continue
            if core in ended:
                continue
            r = Record(core, pc, insn, m.group(4), n, line, last_disasm.get(core, ''))
            warps.setdefault(core, []).append(r)
            if insn == ENDPRG:
                ended.add(core)
    return warps


# ---- trace comparison ----

def fmt_x(ws):
    return ' '.join(f'{r}=0x{v:08x}' for r, v in ws) or '-'


def diff_records(a, b, use_csr, use_simt):
    """The first field in which record a (reference) and b (umbra) differ, or None."""
    if a.pc != b.pc:
        return f'PC: reference 0x{a.pc:08x}, umbra 0x{b.pc:08x}'
    if a.insn != b.insn:
        return f'instruction: reference 0x{a.insn:08x}, umbra 0x{b.insn:08x}'
    if a.x != b.x:
        return f'scalar register writes: reference {fmt_x(a.x)}, umbra {fmt_x(b.x)}'
    if a.v != b.v:
        for (ra, ma, ea), (rb, mb, eb) in zip(a.v, b.v):
            if ra != rb:
                return f'vector write: reference v{ra}, umbra v{rb}'
            if ma != mb:
                return f'v{ra} mask: reference {ma:08x}, umbra {mb:08x}'
            if ea != eb:
                # elements are printed highest lane first
                n = len(ea)
                lanes = [n - 1 - i for i in range(min(n, len(eb))) if ea[i] != eb[i]]
                return (f'v{ra} elements differ in lanes {sorted(lanes)[:8]} '
                        f'(reference {" ".join(f"{e:08x}" for e in ea)}; umbra {" ".join(f"{e:08x}" for e in eb)})')
        return f'vector writes: reference {len(a.v)} registers, umbra {len(b.v)}'
    if a.mem != b.mem:
        fa = ' '.join(f'0x{x:08x}' + ('' if v is None else f'=0x{v:x}') for x, v in a.mem)
        fb = ' '.join(f'0x{x:08x}' + ('' if v is None else f'=0x{v:x}') for x, v in b.mem)
        return f'memory accesses: reference [{fa}], umbra [{fb}]'
    if use_csr and a.csr != b.csr:
        return f'CSR writes: reference {a.csr}, umbra {b.csr}'
    if use_simt and a.simt != b.simt:
        return f'SIMT state (mask, stack depth): reference {a.simt}, umbra {b.simt}'
    return None


def cmd_trace(args):
    use_csr = '--no-csr' not in args
    use_simt = '--no-simt' not in args
    files = [a for a in args if not a.startswith('--')]
    if len(files) != 2:
        sys.exit('usage: vtlog.py trace REF.log UMBRA.log [--no-csr] [--no-simt]')
    ref, out = parse_log(files[0]), parse_log(files[1])
    total = 0
    for core in sorted(set(ref) | set(out)):
        ra, rb = ref.get(core, []), out.get(core, [])
        for i, (a, b) in enumerate(zip(ra, rb)):
            why = diff_records(a, b, use_csr, use_simt)
            if why:
                print(f'warp {core}, kernel instruction {i}: {why}')
                print(f'  reference {files[0]}:{a.line}: {a.text.strip()}')
                print(f'            ({a.disasm})')
                print(f'  umbra     {files[1]}:{b.line}: {b.text.strip()}')
                print(f'  preceding (reference):')
                for p in ra[max(0, i - 3):i]:
                    print(f'    {files[0]}:{p.line}: 0x{p.pc:08x} {p.disasm}')
                return 1
        if len(ra) != len(rb):
            longer, name = (ra, files[0]) if len(ra) > len(rb) else (rb, files[1])
            extra = longer[min(len(ra), len(rb))]
            print(f'warp {core}: reference has {len(ra)} kernel instructions, umbra {len(rb)}; '
                  f'first extra in {name}:{extra.line}: {extra.text.strip()}')
            return 1
        total += len(ra)
    print(f'trace: {len(ref)} warps, {total} kernel instructions identical')
    return 0


# ---- final memory ----

def store_size(insn):
    """Bytes written by a store instruction word (the ones the Ventus kernels use)."""
    op, f3 = insn & 0x7F, (insn >> 12) & 7
    if op == 0x23:                       # sb sh sw
        return {0: 1, 1: 2, 2: 4}.get(f3)
    if op == 0x7B:                       # vsw12.v / vsh12.v / vsb12.v (funct3 6, 3, 7)
        return {6: 4, 3: 2, 7: 1}.get(f3)
    if op == 0x2B:                       # private stores (funct3 2, 1, 0)
        return {2: 4, 1: 2, 0: 1}.get(f3)
    if op == 0x27:                       # fsw, vse8/16/32
        return {2: 4, 0: 1, 5: 2, 6: 4}.get(f3)
    if op == 0x2F:                       # AMOs, sc.w
        return 4
    return None


def read_words(path):
    try:
        return [int(w, 16) for w in open(path).read().split()]
    except (OSError, ValueError) as e:
        sys.exit(f'vtlog: {path}: {e}')


def replay(mem, src, d, launch):
    """Apply a launch's .data to the byte model (what the host copied before the launch)."""
    w = read_words(f'{d}/{launch}.metadata')
    q = [w[i] | w[i + 1] << 32 for i in range(0, len(w) - 1, 2)]
    nb = q[13]
    bases, sizes = q[14:14 + nb], q[14 + nb:14 + 2 * nb]
    data = read_words(f'{d}/{launch}.data')
    k = 0
    for base, size in zip(bases, sizes):
        for j in range(size):
            mem[base + j] = (data[k + j // 4] >> (8 * (j % 4))) & 0xFF
            src.pop(base + j, None)
        k += (size + 3) // 4


def read_dump(path):
    dump = {}
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                p = line.split()
                if len(p) != 2:
                    sys.exit(f'vtlog: {path}:{n}: not an "ADDRESS WORD" line')
                dump[int(p[0], 16)] = int(p[1], 16)
    except OSError as e:
        sys.exit(f'vtlog: {path}: {e.strerror}')
    return dump


def cmd_mem(args):
    if len(args) < 3:
        sys.exit('usage: vtlog.py mem DUMP DIR LAUNCH...')
    dump, d, launches = read_dump(args[0]), args[1], args[2:]
    mem, src = {}, {}          # byte address -> value / where the last store came from
    nstores = 0
    for launch in launches:
        replay(mem, src, d, launch)
        for core, recs in parse_log(f'{d}/{launch}.log').items():
            for r in recs:
                stores = [(a, v) for a, v in r.mem if v is not None]
                if not stores:
                    continue
                size = store_size(r.insn)
                if size is None:
                    sys.exit(f'vtlog: {d}/{launch}.log:{r.line}: store of unknown size: {r.text}')
                for a, v in stores:
                    if LOCAL_LO <= a < LOCAL_HI:
                        continue
                    nstores += 1
                    for b in range(size):
                        mem[a + b] = (v >> (8 * b)) & 0xFF
                        src[a + b] = (launch, r.line, core, r.pc)
    bad = []
    for a in sorted(src):
        word = dump.get(a & ~3)
        got = None if word is None else (word >> (8 * (a & 3))) & 0xFF
        if got != mem[a]:
            bad.append((a, got, mem[a], src[a]))
    checked = len(src)
    if bad:
        print(f'mem: {len(bad)} of {checked} stored bytes differ; first ones:')
        for a, got, want, (launch, line, core, pc) in bad[:20]:
            g = 'not in the dump' if got is None else f'0x{got:02x}'
            print(f'  0x{a:08x}: umbra {g}, expected 0x{want:02x} (stored by warp {core} at '
                  f'PC 0x{pc:08x}, {d}/{launch}.log:{line})')
        return 1
    print(f'mem: {nstores} stores, {checked} bytes in {len(launches)} launches: all match')
    return 0


# ---- kmeans ----

def cmd_kmeans(args):
    if len(args) != 2:
        sys.exit('usage: vtlog.py kmeans DUMP DIR')
    dump, d = read_dump(args[0]), args[1]
    text = open(f'{d}/pocl.log').read()
    npoints = int(re.search(r'Number of objects:\s*(\d+)', text).group(1))
    nfeat = int(re.search(r'Number of features:\s*(\d+)', text).group(1))
    cent = {int(m.group(1)): [float(x) for x in m.group(2).split()]
            for m in re.finditer(r'^(\d+):((?: -?\d+\.\d+)+)\s*$', text, re.M)}
    # The argument block of the last kernel_c launch names the buffers: feature (swapped),
    # clusters, membership, npoints, nclusters, nfeatures (metadata word 1 = argument base).
    w = read_words(f'{d}/kmeans_kernel_c_1.metadata')
    knl = w[14] | w[15] << 32
    def word(a):
        if a not in dump:
            sys.exit(f'vtlog: 0x{a:08x} is not in the dump')
        return dump[a]
    arg = word(knl + 4)
    feature_swap, clusters, membership = word(arg), word(arg + 4), word(arg + 8)
    if (word(arg + 12), word(arg + 20)) != (npoints, nfeat):
        print(f'kmeans: argument block at 0x{arg:08x} does not hold npoints {npoints}, nfeatures {nfeat}')
        return 1
    nclusters = word(arg + 16)
    f32 = lambda a: struct.unpack('<f', struct.pack('<I', word(a)))[0]
    feat = [[f32(feature_swap + 4 * (l * npoints + p)) for l in range(nfeat)] for p in range(npoints)]
    memb = [word(membership + 4 * p) for p in range(npoints)]
    bad = 0
    if sorted(cent) != list(range(nclusters)):
        print(f'kmeans: pocl.log prints clusters {sorted(cent)}, the launch has {nclusters}')
        return 1
    for c in range(nclusters):
        members = [p for p in range(npoints) if memb[p] == c]
        if members:
            want = [sum(feat[p][l] for p in members) / len(members) for l in range(nfeat)]
        else:
            # an empty cluster keeps its centre: the clusters buffer the kernel read
            want = [f32(clusters + 4 * (c * nfeat + l)) for l in range(nfeat)]
        for l in range(nfeat):
            if abs(round(want[l], 2) - cent[c][l]) > 0.0051:
                bad += 1
                if bad <= 10:
                    print(f'kmeans: centroid {c} feature {l}: pocl.log {cent[c][l]:.2f}, from umbra\'s '
                          f'membership {want[l]:.4f} (members {members})')
    if bad:
        print(f'kmeans: {bad} centroid values differ; membership {memb}')
        return 1
    print(f'kmeans: {nclusters} centroids x {nfeat} features match pocl.log (membership {memb})')
    return 0


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ('trace', 'mem', 'kmeans'):
        print(__doc__)
        return 2
    return {'trace': cmd_trace, 'mem': cmd_mem, 'kmeans': cmd_kmeans}[sys.argv[1]](sys.argv[2:])


if __name__ == '__main__':
    sys.exit(main())
