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

  vtlog.py refcheck DIR LAUNCH...
      A reference log must agree with itself (see cmd_refcheck).

  vtlog.py selftest REF.log WORKDIR
      The comparator must see a changed stored value, a changed register write and a missing
      instruction in copies of REF.log (a comparator that cannot fail checks nothing).

  vtlog.py kmeans DUMP DIR
      kmeans' logs (and the centroids its pocl.log prints) predate a golden-model fix to vector
      compares; the check evaluates object.cl's two kernels on the inputs in DUMP (see
      cmd_kmeans).

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
# older golden-model builds (matadd_4x4) print a vector write as one long hex number, no mask
VWRITE_OLD = re.compile(r'(?<![\w])v(\d+)\s+0x([0-9a-fA-F]{9,})(?![\w])')
MEM = re.compile(r'(?<![\w])mem 0x([0-9a-fA-F]+)(?:\s+0x([0-9a-fA-F]+))?')
SIMT_MASK = re.compile(r'current mask:\s*([0-9a-fA-F]+)')
SIMT_SIZE = re.compile(r'stack size:\s*(\d+)')


def is_barrier(insn):
    return insn & 0xFC00707F == 0x0400400B      # barrier / barriersub (funct7 000001x)


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
        for m in VWRITE_OLD.finditer(rest):
            h = m.group(2)
            self.v.append((int(m.group(1)), None, [int(h[i:i + 8], 16) for i in range(0, len(h), 8)]))
        self.mem = [(int(m.group(1), 16), int(m.group(2), 16) if m.group(2) else None)
                    for m in MEM.finditer(rest)]
        mk, sz = SIMT_MASK.search(rest), SIMT_SIZE.search(rest)
        self.simt = (int(mk.group(1), 16), int(sz.group(1))) if mk and sz else None


def parse_log(path):
    """Per-warp lists of kernel records (boot ROM and post-endprg records removed). Lines that do
    not start with "core" continue the record before them (older logs print the SIMT state on
    lines of its own)."""
    warps, ended, last_disasm = {}, set(), {}
    pending = None

    def finish(p):
        core, pc, insn, rest, n, line, dis = p
        if BOOT_LO <= pc < BOOT_HI:
            ended.discard(core)          # a new workgroup starts at the boot ROM
            return
        if core in ended:
            return
        recs = warps.setdefault(core, [])
        # The golden model logs a barrier again when it releases a warp that waited there
        # ("Executed 2 times", matadd_0.log): one barrier crossing is one record here.
        if is_barrier(insn) and recs and recs[-1].pc == pc and recs[-1].insn == insn:
            return
        recs.append(Record(core, pc, insn, rest, n, line, dis))
        if insn == ENDPRG:
            ended.add(core)

    try:
        f = open(path, encoding='utf-8', errors='replace')
    except OSError as e:
        sys.exit(f'vtlog: {path}: {e.strerror}')
    with f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.startswith('core'):
                if pending:
                    pending[3] += ' ' + line
                continue
            if pending:
                finish(pending)
                pending = None
            m = COMMIT.match(line)
            if m:
                core = int(m.group(1))
                pending = [core, int(m.group(2), 16), int(m.group(3), 16), m.group(4), n, line,
                           last_disasm.get(core, '')]
                continue
            d = DISASM.match(line)
            if d:
                last_disasm[int(d.group(1))] = d.group(4).strip()
    if pending:
        finish(pending)
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
    if len(a.v) != len(b.v):
        return f'vector writes: reference {len(a.v)} registers, umbra {len(b.v)}'
    for (ra, ma, ea), (rb, mb, eb) in zip(a.v, b.v):
        if ra != rb:
            return f'vector write: reference v{ra}, umbra v{rb}'
        if ma is not None and ma != mb:      # older logs print no mask
            return f'v{ra} mask: reference {ma:08x}, umbra {mb if mb is None else format(mb, "08x")}'
        if ea != eb:
            # elements are printed highest lane first
            n = len(ea)
            lanes = [n - 1 - i for i in range(min(n, len(eb))) if ea[i] != eb[i]]
            return (f'v{ra} elements differ in lanes {sorted(lanes)[:8]} '
                    f'(reference {" ".join(f"{e:08x}" for e in ea)}; umbra {" ".join(f"{e:08x}" for e in eb)})')
    if a.mem != b.mem:
        fa = ' '.join(f'0x{x:08x}' + ('' if v is None else f'=0x{v:x}') for x, v in a.mem)
        fb = ' '.join(f'0x{x:08x}' + ('' if v is None else f'=0x{v:x}') for x, v in b.mem)
        return f'memory accesses: reference [{fa}], umbra [{fb}]'
    if use_csr and a.csr != b.csr:
        return f'CSR writes: reference {a.csr}, umbra {b.csr}'
    if use_simt and a.simt is not None and a.simt != b.simt:
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

def f32(x):
    """Round a Python float (double) to the nearest float32."""
    return struct.unpack('<f', struct.pack('<f', x))[0]


def cmd_kmeans(args):
    """kmeans' .log files predate a golden-model fix to vector compares, so they cannot be the
    oracle. Neither can the centroids pocl.log prints: they are what that pre-fix run produced
    (centroid 4 is the mean of all 32 points and centroids 0-3 are the initial points 0-3, i.e.
    every point went to the last cluster, the signature of compares that were true in every
    lane); this is reported, not required. The oracle is object.cl itself, the OpenCL source of
    both kernels, evaluated here on the inputs found in DUMP:
      kmeans_swap:      feature_swap[i * npoints + tid] == feature[tid * nfeatures + i], exactly;
      kmeans_kernel_c:  membership[p] == argmin over clusters of the float32 sum over features
                        of (f - c)^2, accumulated with a fused multiply-add as the compiled code
                        does (vfmadd.vv), first minimum wins;
    and pocl.log's "Number of objects/features" must equal the launch arguments. The clusters
    are the ones in DUMP: kmeans_kernel_c_1.data lacks the clusters the host rewrote before that
    launch (see `refcheck`), so a replay runs it on the first clusters."""
    if len(args) != 2:
        sys.exit('usage: vtlog.py kmeans DUMP DIR')
    dump, d = read_dump(args[0]), args[1]
    text = open(f'{d}/pocl.log').read()
    npoints = int(re.search(r'Number of objects:\s*(\d+)', text).group(1))
    nfeat = int(re.search(r'Number of features:\s*(\d+)', text).group(1))

    def word(a):
        if a not in dump:
            sys.exit(f'vtlog: 0x{a:08x} is not in the dump')
        return dump[a]

    def fl(a):
        return struct.unpack('<f', struct.pack('<I', word(a)))[0]

    def args_of(launch, n):
        w = read_words(f'{d}/{launch}.metadata')
        knl = w[14] | w[15] << 32                  # metaDataBaseAddr; word 1 there = argument base
        base = word(knl + 4)
        return [word(base + 4 * k) for k in range(n)]

    bad = 0
    feature, feature_swap, sw_np, sw_nf = args_of('kmeans_swap_0', 4)
    if (sw_np, sw_nf) != (npoints, nfeat):
        print(f'kmeans: swap arguments npoints {sw_np}, nfeatures {sw_nf}; pocl.log {npoints}, {nfeat}')
        return 1
    for tid in range(npoints):
        for i in range(nfeat):
            want, got = word(feature + 4 * (tid * nfeat + i)), word(feature_swap + 4 * (i * npoints + tid))
            if want != got:
                bad += 1
                if bad <= 5:
                    print(f'kmeans_swap: feature_swap[{i * npoints + tid}] = 0x{got:08x}, want 0x{want:08x}')
    feat_s, clusters, membership, c_np, nclusters, c_nf = args_of('kmeans_kernel_c_1', 6)
    if (c_np, c_nf) != (npoints, nfeat) or feat_s != feature_swap:
        print(f'kmeans: kernel_c arguments {args_of("kmeans_kernel_c_1", 6)} do not match')
        return 1
    memb = [word(membership + 4 * p) for p in range(npoints)]
    want_memb = []
    for p in range(npoints):
        best, index = float('inf'), 0
        for c in range(nclusters):
            ans = 0.0
            for l in range(nfeat):
                diff = f32(fl(feat_s + 4 * (l * npoints + p)) - fl(clusters + 4 * (c * nfeat + l)))
                ans = f32(diff * diff + ans)        # exact product in a double, one rounding
            if ans < best:
                best, index = ans, c
        want_memb.append(index)
    if memb != want_memb:
        bad += 1
        print(f'kmeans_kernel_c: membership {memb}, object.cl gives {want_memb}')
    # what pocl.log printed, for the record
    cent = {int(m.group(1)): [float(x) for x in m.group(2).split()]
            for m in re.finditer(r'^(\d+):((?: -?\d+\.\d+)+)\s*$', text, re.M)}
    allmean = [sum(fl(feature + 4 * (p * nfeat + l)) for p in range(npoints)) / npoints for l in range(nfeat)]
    if nclusters - 1 in cent and all(abs(round(a, 2) - b) < 0.006 for a, b in zip(allmean, cent[nclusters - 1])):
        print(f'kmeans: note: pocl.log centroid {nclusters - 1} is the mean of all {npoints} points: '
              f'the pre-fix run put every point in the last cluster')
    if bad:
        return 1
    print(f'kmeans: swap transposes {npoints}x{nfeat} features exactly; membership {memb} as object.cl')
    return 0


def cmd_refcheck(args):
    """A reference must agree with itself: every scalar load from global memory returns what
    the launch's .data replay or the last logged store put there (local memory left out: the
    crt's stack lives there and other workgroups reuse it)."""
    if len(args) < 2:
        sys.exit('usage: vtlog.py refcheck DIR LAUNCH...')
    d, launches = args[0], args[1:]
    mem, src, loads, bad = {}, {}, 0, 0
    for launch in launches:
        replay(mem, src, d, launch)
        recs = sorted((r for rs in parse_log(f'{d}/{launch}.log').values() for r in rs),
                      key=lambda r: r.line)
        for r in recs:
            op, f3 = r.insn & 0x7F, (r.insn >> 12) & 7
            if op == 0x03 and f3 == 2 and r.x and r.mem:           # lw with a logged result
                a = r.mem[0][0]
                if not LOCAL_LO <= a < LOCAL_HI and all(a + b in mem for b in range(4)):
                    loads += 1
                    v = sum(mem[a + b] << (8 * b) for b in range(4))
                    if v != r.x[0][1]:
                        bad += 1
                        if bad <= 10:
                            print(f'{d}/{launch}.log:{r.line}: lw 0x{a:08x} gives {r.x[0][0]}=0x{r.x[0][1]:08x}, '
                                  f'memory holds 0x{v:08x}')
            size = store_size(r.insn)
            for a, v in r.mem:
                if v is not None and size:
                    for b in range(size):
                        mem[a + b] = (v >> (8 * b)) & 0xFF
    print(f'refcheck: {loads} global loads checked, {bad} inconsistent')
    return 1 if bad else 0


def cmd_selftest(args):
    import contextlib
    import io
    ref, work = args
    lines = open(ref).read().split('\n')
    commits = [i for i, l in enumerate(lines) if COMMIT.match(l) and not BOOT_LO <= int(COMMIT.match(l).group(2), 16) < BOOT_HI]
    store = next(i for i in commits if re.search(r'mem 0x[0-9a-f]+ 0x', lines[i]))
    xw = next(i for i in commits if XWRITE.search(lines[i]))
    mutants = {
        'stored value': (store, re.sub(r'(mem 0x[0-9a-f]+ 0x[0-9a-f]*)([0-9a-f])', lambda m: m.group(1) + ('1' if m.group(2) != '1' else '2'), lines[store], count=1)),
        'register write': (xw, XWRITE.sub(lambda m: f'{m.group(1)}{m.group(2)} 0x{int(m.group(3), 16) ^ 1:08x}', lines[xw], count=1)),
        'missing instruction': (commits[len(commits) // 2], None),
    }
    bad = 0
    for what, (i, new) in mutants.items():
        mut = lines[:i] + ([] if new is None else [new]) + lines[i + 1:]
        path = f'{work}/mutant.log'
        with open(path, 'w') as f:
            f.write('\n'.join(mut))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = cmd_trace([ref, path])
        if rc == 0:
            bad += 1
            print(f'selftest: a {what} at line {i + 1} went unnoticed')
        else:
            print(f'selftest: {what} at line {i + 1} found: {out.getvalue().splitlines()[0]}')
    with contextlib.redirect_stdout(io.StringIO()):
        same = cmd_trace([ref, ref])
    if same != 0:
        bad += 1
        print('selftest: a log differs from itself')
    return 1 if bad else 0


def main():
    cmds = {'trace': cmd_trace, 'mem': cmd_mem, 'kmeans': cmd_kmeans, 'selftest': cmd_selftest,
            'refcheck': cmd_refcheck}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        print(__doc__)
        return 2
    return cmds[sys.argv[1]](sys.argv[2:])


if __name__ == '__main__':
    sys.exit(main())
