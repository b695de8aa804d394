#!/usr/bin/env python3
"""Regenerates op_tables.def, umbra's gfx11 opcode table, from llvm-objdump-19 sweeps.

For every encoding family it disassembles probe encodings of every opcode (several operand
variants, constants of each kind, every modifier bit) and records what llvm-objdump-19 prints:
the mnemonic, the operand template, register widths, the operand type (how constants print),
which modifiers exist and which DPP forms decode. The result is a table of facts about the
encoding; umbra's decoder and disassembler are written against it, and the disassembly sweep
test (tests/rdna3/disasm) checks them against llvm-objdump on freshly assembled code.

usage: op_tables.py OUT.def        (needs llvm-mc-19 and llvm-objdump-19; about 30 s)
"""
import itertools, json, os, re, subprocess, sys, tempfile

# ---- batch disassembly ----

PAD = [0xbf800000] * 3

def _bytes(ws):
    b = []
    for w in ws:
        b += [(w >> (8 * i)) & 0xff for i in range(4)]
    return b

def disasm(lines_words, mcpu="gfx1100"):
    starts, words, off = [], [], 0
    for ws in lines_words:
        starts.append((off, 4 * len(ws)))
        words += list(ws) + PAD
        off += 4 * (len(ws) + len(PAD))
    with tempfile.TemporaryDirectory() as d:
        s = os.path.join(d, "p.s"); o = os.path.join(d, "p.o")
        with open(s, "w") as f:
            f.write(".text\n")
            for i in range(0, len(words), 8):
                f.write(".long " + ",".join("0x%08x" % w for w in words[i:i + 8]) + "\n")
        subprocess.run(["llvm-mc-19", "-triple=amdgcn", "-mcpu=" + mcpu, "-filetype=obj", s, "-o", o], check=True)
        r = subprocess.run(["llvm-objdump-19", "-d", "--mcpu=" + mcpu, o], capture_output=True, text=True)
    at = {}
    for l in r.stdout.splitlines():
        m = re.match(r"\s+(.*?)\s*// ([0-9A-F]+): ([0-9A-F ]+)", l)
        if m:
            at[int(m.group(2), 16)] = (m.group(1), 4 * len(m.group(3).split()))
    res = []
    for st, n in starts:
        t = at.get(st)
        res.append(t[0] if t and t[1] == n and t[0] != "<unknown>" and not t[0].startswith(".") else None)
    return res

# ---- probe helpers ----

REG = re.compile(r'^(-?)(\|?)([sv])(?:(\d+)|\[(\d+):(\d+)\])(\.[lh])?\|?$')

def parse_reg(tok):
    m = REG.match(tok)
    if not m: return None
    f = m.group(3)
    if m.group(4) is not None: lo = hi = int(m.group(4))
    else: lo, hi = int(m.group(5)), int(m.group(6))
    return f, lo, hi - lo + 1, m.group(7) or ''

def split_ops(text):
    """mnemonic, operand tokens, trailing modifier string."""
    parts = text.split(' ', 1)
    mn = parts[0]
    if len(parts) == 1: return mn, [], ''
    rest = parts[1]
    ops = rest.split(', ')
    last = ops[-1]
    mods = ''
    # modifiers follow the last operand after a space (but keep 'sendmsg(...)' etc intact)
    if ' ' in last and not last.startswith(('hwreg', 'sendmsg', 'instid', 'vmcnt', 'expcnt', 'lgkmcnt', 'depctr')):
        last, mods = last.split(' ', 1)
        ops[-1] = last
    return mn, ops, mods

def template(ops, regmap):
    """Replace probe registers by placeholders. regmap: {(file or None, lo): ch}."""
    out, kinds = [], {}
    for t in ops:
        r = parse_reg(t)
        ch = None
        if r:
            f, lo, n, sfx = r
            ch = regmap.get((f, lo)) or regmap.get((None, lo))
        if ch:
            out.append(ch)
            kinds[ch] = (f, n, sfx)
        else:
            out.append(t)
    return out, kinds

def run(probes):
    res = disasm([p for p in probes])
    return [None if (r is None or '/*' in r) else r for r in res]

# ---- probes ----

CONSTS = [('242', 242, None), ('248', 248, None), ('l3c00', 255, 0x3c00), ('l3f80', 255, 0x3f800000),
          ('lneg', 255, 0xfffffffc), ('l3c003c00', 255, 0x3c003c00), ('l3ff0', 255, 0x3ff00000), ('l5', 255, 5)]

def classify(n, c):
    if n >= 2:
        return 'F64' if c.get('l3ff0') == '1.0' else 'I64'
    if c.get('242') == '0x3c00': return 'I16'
    if c.get('l3f80') == '0': return 'F16' if c.get('l3c00') == '1.0' else 'BF16'
    if c.get('l3c00') == '1.0': return 'V2F16'
    if c.get('l3f80') == '0x3f800000': return 'V2B16'
    return 'B32'

def const_tokens(base_ops, slot_ch, tmpl, texts):
    """texts: name -> probe text; return name -> printed token at the slot position."""
    idx = tmpl.index(slot_ch)
    out = {}
    for name, t in texts.items():
        if t is None: continue
        mn, ops, mods = split_ops(t)
        if idx < len(ops):
            tok = ops[idx]
            out[name] = tok
    return out

# ---------------- VOP3 / VOP3P generic probing ----------------
def vop3_enc(op, vdst=10, s=(276,286,296), abs_=0, neg=0, clamp=0, omod=0, opsel=0, lit=None, sdst=None):
    hi = (abs_ | (opsel << 3)) if sdst is None else sdst
    w = [(0x35<<26)|(op<<16)|(clamp<<15)|(hi<<8)|vdst, s[0]|(s[1]<<9)|(s[2]<<18)|(omod<<27)|(neg<<29)]
    return w + ([lit] if lit is not None else [])

def vop3p_enc(op, vdst=10, s=(276,286,296), neg_hi=0, neg=0, clamp=0, opsel=0, opsel_hi=7, lit=None):
    w = [(0xcc<<24)|(op<<16)|(clamp<<15)|(((opsel_hi>>2)&1)<<14)|(opsel<<11)|(neg_hi<<8)|vdst,
         s[0]|(s[1]<<9)|(s[2]<<18)|((opsel_hi&3)<<27)|(neg<<29)]
    return w + ([lit] if lit is not None else [])

VREG = [276, 286, 296]; SREG = [20, 30, 40]
def src_variants():
    out = []
    for ns in (3, 2, 1, 0):
        for files in itertools.product((0, 1), repeat=ns):
            s = [SREG[i] if files[i] else VREG[i] for i in range(ns)] + [0]*(3-ns)
            for vd in (10, 0):
                out.append((ns, tuple(s), vd))
    return out
SV = src_variants()

REGMAP = {('v', 10): 'D', ('s', 10): 'D', ('v', 20): '0', ('s', 20): '0', ('v', 30): '1', ('s', 30): '1',
          ('v', 40): '2', ('s', 40): '2', ('s', 0): 'S', ('v', 11): 'E', ('v', 50): '3'}

def probe_vop(ops, encf):
    probes = [encf(op, vd, s) for op in ops for (ns, s, vd) in SV]
    r = run(probes)
    base, k = {}, 0
    for op in ops:
        for v in SV:
            if r[k] and op not in base: base[op] = (v, r[k])
            k += 1
    probes, keys = [], []
    for op, ((ns, s, vd), text) in base.items():
        for i in range(ns):
            for name, val, lit in CONSTS:
                ss = list(s); ss[i] = val
                probes.append(encf(op, vd, ss, lit=lit)); keys.append((op, 'c', i, name))
        msk = (1 << ns) - 1
        if encf is vop3_enc:
            mods = [('clamp', dict(clamp=1)), ('omod', dict(omod=1)), ('opsel', dict(opsel=msk | 8)), ('opseld', dict(opsel=8))]
            for i in range(ns):          # source modifiers one source at a time
                mods += [('abs%d' % i, dict(abs_=1 << i)), ('neg%d' % i, dict(neg=1 << i)), ('opselb%d' % i, dict(opsel=1 << i))]
            mods += [('opselb3', dict(opsel=8))]
        else:
            mods = [('neg', dict(neg=msk)), ('neg_hi', dict(neg_hi=msk)), ('clamp', dict(clamp=1)),
                    ('opsel', dict(opsel=msk)), ('opsel_hi', dict(opsel_hi=0))]
            for i in range(ns):          # one bit at a time: which are accepted
                mods += [('neg%d' % i, dict(neg=1 << i)), ('neghi%d' % i, dict(neg_hi=1 << i)),
                         ('opsel%d' % i, dict(opsel=1 << i)), ('opselhi%d' % i, dict(opsel_hi=7 ^ (1 << i)))]
        for name, kw in mods:
            probes.append(encf(op, vd, s, **kw)); keys.append((op, 'm', 0, name))
    r = run(probes)
    res = {}
    for op, ((ns, s, vd), text) in base.items():
        mn, ops_, mods = split_ops(text)
        tmpl, kinds = template(ops_, REGMAP)
        res[op] = dict(name=mn, text=text, tmpl=tmpl, kinds=kinds, ns=ns, s=s, vd=vd, c={}, m={})
    for (op, kind, i, name), t in zip(keys, r):
        if kind == 'm': res[op]['m'][name] = t
        else: res[op]['c'].setdefault(i, {})[name] = t
    for op, d in res.items():
        types = {}
        for i in range(d['ns']):
            ch = str(i)
            if ch not in d['tmpl']: continue
            toks = const_tokens(None, ch, d['tmpl'], d['c'].get(i, {}))
            types[ch] = classify(d['kinds'][ch][1], toks)
        d['types'] = types
    return res

def mods_printed(d):
    """name -> 'P' printed, 'I' valid but ignored, None invalid."""
    out = {}
    for k, t in d['m'].items():
        out[k] = None if t is None else ('P' if t != d['text'] else 'I')
    return out

# ---------------- e32 families ----------------
def e32_enc(fam, op, vd, s0, v1, lit=None):
    if fam == 'vop1': w = (0x3f << 25) | (vd << 17) | (op << 9) | s0
    elif fam == 'vop2': w = (op << 25) | (vd << 17) | (v1 << 9) | s0
    else: w = (0x3e << 25) | (op << 17) | (v1 << 9) | s0
    return [w] + ([lit] if lit is not None else [])

def probe_e32(fam, nops):
    vars_ = [(s0, v1, vd, k) for k in (None, 0x11223344) for s0 in (276, 20) for v1 in (30, 0) for vd in (10, 0)]
    probes = [e32_enc(fam, op, vd, s0, v1, k) for op in range(nops) for (s0, v1, vd, k) in vars_]
    r = run(probes)
    base, k = {}, 0
    for op in range(nops):
        for v in vars_:
            if r[k] and op not in base: base[op] = (v, r[k])
            k += 1
    res = {}
    probes, keys = [], []
    for op, ((s0, v1, vd, kk), text) in base.items():
        mn, ops_, mods = split_ops(text)
        rm = {('v', 10): 'D', ('s', 10): 'D', ('v', 20): '0', ('s', 20): '0', ('v', 30): '1'}
        tmpl, kinds = template(ops_, rm)
        tmpl = ['K' if t == '0x11223344' else t for t in tmpl]
        res[op] = dict(name=mn, text=text, tmpl=tmpl, kinds=kinds, v=(s0, v1, vd, kk), c={}, dpp=False, dpp8=False)
        if '0' in tmpl:
            for name, val, lit in CONSTS:
                if kk is not None and lit is not None: continue
                probes.append(e32_enc(fam, op, vd, val, v1, lit if lit is not None else kk)); keys.append((op, 'c', name))
        # DPP16 (quad_perm identity, row/bank masks 0xf) and DPP8 (identity selects)
        if kk is None:
            probes.append(e32_enc(fam, op, vd, 250, v1) + [20 | (0xe4 << 8) | (0xff << 24)]); keys.append((op, 'dpp', None))
            probes.append(e32_enc(fam, op, vd, 233, v1) + [20 | (0xfac688 << 8)]); keys.append((op, 'dpp8', None))
            # neg bits of both sources: an integer operand prints them as sext(...)
            probes.append(e32_enc(fam, op, vd, 250, v1) + [20 | (0xe4 << 8) | (5 << 20) | (0xff << 24)]); keys.append((op, 'dppneg', None))
            probes.append(e32_enc(fam, op, vd, 250, v1) + [20 | (0xe4 << 8) | (10 << 20) | (0xff << 24)]); keys.append((op, 'dppabs', None))
        # 16-bit operands of e32 encodings only reach v0..v127 (bit 7 would select a high half)
        if vd: probes.append(e32_enc(fam, op, 200, s0, v1, kk)); keys.append((op, 'hi_D', None))
        if s0 >= 256: probes.append(e32_enc(fam, op, vd, 256 + 200, v1, kk)); keys.append((op, 'hi_0', None))
        if v1: probes.append(e32_enc(fam, op, vd, s0, 200, kk)); keys.append((op, 'hi_1', None))
    r = run(probes)
    for (op, kind, name), t in zip(keys, r):
        if kind == 'c': res[op]['c'][name] = t
        elif kind.startswith('hi_'): res[op][kind] = t
        elif kind == 'dppneg': res[op]['dppneg'] = t
        elif kind == 'dppabs': res[op]['dppabs'] = t
        elif kind == 'dpp': res[op]['dpp'] = t is not None; res[op]['dpptext'] = t
        else: res[op]['dpp8'] = t is not None; res[op]['dpp8text'] = t
    for op, d in res.items():
        d['types'] = {}
        if '0' in d['tmpl']:
            d['types']['0'] = classify(d['kinds']['0'][1], const_tokens(None, '0', d['tmpl'], d['c']))
    return res

def vop3_dpp_flags(vop3, encf=vop3_enc):
    probes, keys = [], []
    for op, d in vop3.items():
        if d['ns'] == 0: continue
        s = list(d['s'])
        if s[0] < 256: continue
        s[0] = 250
        probes.append(encf(op, d['vd'], s) + [20 | (0xe4 << 8) | (0xff << 24)]); keys.append((op, 'dpp'))
        s[0] = 233
        probes.append(encf(op, d['vd'], s) + [20 | (0xfac688 << 8)]); keys.append((op, 'dpp8'))
    r = run(probes)
    for (op, k), t in zip(keys, r):
        vop3[op][k] = t is not None
        vop3[op][k + 'text'] = t

# ---------------- VOPD ----------------
def vopd_enc(opx, opy, lit=None, v1x=30, v1y=50):
    w0 = (0x32 << 26) | (opx << 22) | (opy << 17) | (v1x << 9) | 276
    w1 = 296 | (v1y << 9) | ((11 >> 1) << 17) | (10 << 24)
    return [w0, w1] + ([lit] if lit is not None else [])

def probe_vopd():
    X, Y = {}, {}
    probes, keys = [], []
    for opx in range(16):
        for opy in range(32):
            for lit in (None, 0x11223344):
                for v1x in (30, 0):
                    for v1y in (50, 0):
                        probes.append(vopd_enc(opx, opy, lit, v1x, v1y)); keys.append((opx, opy, lit))
    r = run(probes)
    for (opx, opy, lit), t in zip(keys, r):
        if not t: continue
        xs, ys = t.split(' :: ')
        if opx not in X: X[opx] = xs
        if opy not in Y: Y[opy] = ys
    def mk(d, regs):
        out = {}
        for op, t in d.items():
            mn, ops_, mods = split_ops(t)
            tmpl, kinds = template(ops_, regs)
            tmpl = ['K' if x == '0x11223344' else x for x in tmpl]
            out[op] = dict(name=mn, text=t, tmpl=tmpl, kinds=kinds)
        return out
    return (mk(X, {('v', 10): 'D', ('v', 20): '0', ('s', 20): '0', ('v', 30): '1'}),
            mk(Y, {('v', 11): 'D', ('v', 40): '0', ('s', 40): '0', ('v', 50): '1'}))

# ---------------- scalar ----------------
def probe_scalar():
    fams = {
        'sop2': (0x60, lambda op, d, a, b, k: [(2 << 30) | (op << 23) | (d << 16) | (b << 8) | a]),
        'sopk': (0x1d, lambda op, d, a, b, k: [(0xb << 28) | (op << 23) | (d << 16) | (k & 0xffff)] + ([0x11223344] if k >> 16 else [])),
        'sop1': (256, lambda op, d, a, b, k: [0xbe800000 | (d << 16) | (op << 8) | a]),
        'sopc': (128, lambda op, d, a, b, k: [0xbf000000 | (op << 16) | (b << 8) | a]),
        'sopp': (128, lambda op, d, a, b, k: [0xbf800000 | (op << 16) | k]),
    }
    out = {}
    for fam, (n, f) in fams.items():
        vars_ = [(10, 20, 30, 0x12), (0, 20, 30, 0x12), (10, 0, 30, 0x12), (0, 0, 0, 0x12), (0, 0, 0, 0), (10, 0, 0, 0)]
        if fam == 'sopk': vars_.append((0, 0, 0, 0x10012))     # s_setreg_imm32_b32: a literal follows
        probes = [f(op, *v) for op in range(n) for v in vars_]
        r = run(probes)
        res, k = {}, 0
        for op in range(n):
            for v in vars_:
                if r[k] and op not in res:
                    mn, ops_, mods = split_ops(r[k])
                    tmpl, kinds = template(ops_, {('s', 10): 'D', ('s', 20): '0', ('s', 30): '1'})
                    res[op] = dict(name=mn, text=r[k], tmpl=tmpl, kinds=kinds, v=v)
                k += 1
        out[fam] = res
    return out

def probe_smem():
    res = {}
    probes = [[(0x3d << 26) | (op << 18) | (16 << 6) | 10, 0x10 | (0x7c << 25)] for op in range(256)]
    probes += [[(0x3d << 26) | (op << 18), 0x7c << 25] for op in range(256)]
    r = run(probes)
    for op in range(256):
        t = r[op] or r[256 + op]
        if t:
            mn, ops_, mods = split_ops(t)
            tmpl, kinds = template(ops_, {('s', 16): 'D', ('s', 20): 'S'})
            res[op] = dict(name=mn, text=t, tmpl=tmpl, kinds=kinds)
    return res

# ---------------- memory ----------------
def probe_ds():
    vars_ = [v for v in itertools.product((10, 0), (20, 0), (30, 0), (40, 0))]
    vars_.sort(key=lambda v: -sum(1 for x in v if x))
    enc = lambda op, vd, a, d0, d1, off=0, gds=0: [(0x36 << 26) | (op << 18) | (gds << 17) | off, a | (d0 << 8) | (d1 << 16) | (vd << 24)]
    probes = [enc(op, *v) for op in range(256) for v in vars_]
    r = run(probes)
    res, k = {}, 0
    for op in range(256):
        for v in vars_:
            if r[k] and op not in res:
                res[op] = dict(text=r[k], v=v)
            k += 1
    # GWS (ds_gws_*) exists only with gds set: probe the opcodes still missing with gds = 1
    missing = [op for op in range(256) if op not in res]
    r = run([enc(op, *v, gds=1) for op in missing for v in vars_])
    k = 0
    for op in missing:
        for v in vars_:
            if r[k] and op not in res:
                res[op] = dict(text=r[k], v=v, gdsonly=True)
            k += 1
    probes, keys = [], []
    for op, d in res.items():
        g = 1 if d.get('gdsonly') else 0
        probes.append(enc(op, *d['v'], off=0x0201, gds=g)); keys.append((op, 'off'))
        probes.append(enc(op, *d['v'], gds=1)); keys.append((op, 'gds'))
    r = run(probes)
    for (op, k2), t in zip(keys, r): res[op][k2] = t
    for op, d in res.items():
        text = d['text'][:-4] if d.get('gdsonly') and d['text'].endswith(' gds') else d['text']
        mn, ops_, mods = split_ops(text)
        tmpl, kinds = template(ops_, {('v', 10): 'D', ('v', 20): 'A', ('v', 30): '0', ('v', 40): '1'})
        d.update(name=mn, tmpl=tmpl, kinds=kinds)
    return res

def probe_flat(seg):
    enc = lambda op, vd, a, d, sa, sve=0: [(0x37 << 26) | (op << 18) | (seg << 16), a | (d << 8) | (sa << 16) | (sve << 23) | (vd << 24)]
    vars_ = [v for v in itertools.product((10, 0), (20,), (30, 0))]
    vars_.sort(key=lambda v: -sum(1 for x in v if x))
    sa, sve = (0x7c, 1) if seg == 1 else (0x7c, 0)
    probes = [enc(op, vd, a, d, sa, sve) for op in range(128) for (vd, a, d) in vars_]
    r = run(probes)
    res, k = {}, 0
    for op in range(128):
        for v in vars_:
            if r[k] and op not in res:
                mn, ops_, mods = split_ops(r[k])
                tmpl, kinds = template(ops_, {('v', 10): 'D', ('v', 20): 'A', ('v', 30): '0'})
                res[op] = dict(name=mn, text=r[k], tmpl=tmpl, kinds=kinds, v=v)
            k += 1
    return res

def probe_buf(mt):
    def enc(op, vd, a):
        if mt: w0 = (0x3a << 26) | (22 << 19) | (op << 15)
        else: w0 = (0x38 << 26) | (op << 18)
        return [w0, a | (vd << 8) | (8 << 16) | ((1 << 22) if a else 0) | (40 << 24)]
    n = 16 if mt else 256
    vars_ = [(10, 20), (0, 20), (0, 0)]
    probes = [enc(op, *v) for op in range(n) for v in vars_]
    probes += [[(0x38 << 26) | (op << 18), 0] for op in range(n)] if not mt else []
    r = run(probes)
    res, k = {}, 0
    for op in range(n):
        for v in vars_:
            if r[k] and op not in res:
                mn, ops_, mods = split_ops(r[k])
                tmpl, kinds = template(ops_, {('v', 10): 'D', ('v', 20): 'A', ('s', 32): 'R', ('s', 40): 'O'})
                res[op] = dict(name=mn, text=r[k], tmpl=tmpl, kinds=kinds, v=v)
            k += 1
    if not mt:
        for op in range(n):
            t = r[3 * n + op]
            if t and op not in res:
                mn, ops_, mods = split_ops(t)
                res[op] = dict(name=mn, text=t, tmpl=[], kinds={}, v=(0, 0))
    return res

def probe_mimg():
    """MIMG opcodes: names as llvm-objdump prints them. The non-sampler opcodes decode only with
    a zero SSAMP field; atomics need dmask 1 or 3; the BVH opcodes need r128 and no dim."""
    def enc(op, dmask, samp, bvh=False):
        if bvh: return [(0x3c << 26) | (op << 18) | (0xf << 8) | (1 << 15) | (1 << 7), (1 << 16) | (4 << 8) | 9]
        return [(0x3c << 26) | (op << 18) | (dmask << 8) | (1 << 2), (2 << 16) | (samp << 26)]
    vars_ = [(0xf, 0), (1, 0), (3, 0), (0xf, 2), (0, 0, True)]
    probes = [enc(op, *v) for op in range(256) for v in vars_]
    r = run(probes)
    res = {}
    for op in range(256):
        for i, v in enumerate(vars_):
            t = r[op * len(vars_) + i]
            if t and op not in res:
                res[op] = dict(name=t.split(' ', 1)[0], text=t)
    return res

def mimg_template(name):
    """The address components of an image opcode, in register order, from LLVM's naming of the
    MIMG base opcodes (MIMGInstructions.td): O offset, B bias, Z depth compare, G gradients
    (H: 16-bit, _g16), X coordinates, L lod / clamp / mip level; then S: takes a sampler,
    W: vdata is written to memory (store), P: gather4 (four texels, one component each),
    Q: resinfo (mip level only), M: msaa_load (the dmask component of four samples), Y: BVH ray."""
    n = name[len('image_'):]
    sampler = n.startswith(('sample', 'gather4', 'get_lod'))   # LLVM: BaseOpcode.Sampler
    if n.startswith('bvh'): return ['Y']
    if n == 'get_resinfo': return ['L', 'Q']
    parts = n.split('_')
    t = []
    if 'o' in parts: t.append('O')
    if 'b' in parts: t.append('B')
    if 'c' in parts: t.append('Z')
    if 'd' in parts: t.append('H' if 'g16' in parts else 'G')
    t.append('X')
    if 'l' in parts or 'cl' in parts or 'mip' in parts: t.append('L')
    if sampler: t.append('S')
    if parts[0] == 'store': t.append('W')
    if parts[0].startswith('gather4'): t.append('P')
    if n == 'msaa_load': t.append('M')
    return t

def main():
    out = {}
    out['vop3'] = probe_vop(range(1024), vop3_enc)
    vop3_dpp_flags(out['vop3'])
    out['vop3p'] = probe_vop(range(128), vop3p_enc)
    vop3_dpp_flags(out['vop3p'], vop3p_enc)
    for fam in ('vop3', 'vop3p'):
        for d in out[fam].values(): d['mp'] = mods_printed(d)
    out['vop1'] = probe_e32('vop1', 256)
    out['vop2'] = probe_e32('vop2', 0x3e)
    out['vopc'] = probe_e32('vopc', 256)
    out['vopdx'], out['vopdy'] = probe_vopd()
    out.update(probe_scalar())
    out['smem'] = probe_smem()
    out['ds'] = probe_ds()
    out['flat'] = probe_flat(0); out['scratch'] = probe_flat(1); out['global'] = probe_flat(2)
    out['mubuf'] = probe_buf(False); out['mtbuf'] = probe_buf(True)
    out['mimg'] = probe_mimg()
    return out



# ---- emit ----
def emit(o, path):
    TY = {'B32': 'B32', 'F16': 'F16', 'I16': 'I16', 'BF16': 'BF16', 'V2F16': 'V2F16', 'V2B16': 'V2B16', 'I64': 'I64', 'F64': 'F64'}

    def cls(fam, name):
        n = name
        if fam in ('sop1', 'sop2', 'sopk', 'sopc', 'sopp'):
            if 'saveexec' in n or 'wrexec' in n: return 'DIVERGENCE'
            if n.startswith(('s_branch', 's_cbranch', 's_setpc', 's_swappc', 's_call', 's_rfe', 's_subvector')): return 'BRANCH'
            if n.startswith(('s_waitcnt', 's_barrier', 's_wait_', 's_sleep', 's_icache_inv')): return 'SYNC'
            if fam == 'sopp': return 'OTHER'
            return 'SALU'
        if fam == 'smem':
            return 'SYNC' if n in ('s_gl1_inv', 's_dcache_inv') else 'SCALAR_MEM'
        if fam == 'ds':
            return 'SYNC' if n.startswith('ds_gws_') else 'LDS'
        if fam in ('flat', 'global', 'scratch', 'mubuf', 'mtbuf', 'mimg'):
            if n.endswith(('gl0_inv', 'gl1_inv')): return 'SYNC'
            if '_atomic_' in n: return 'ATOMIC'
            if '_store' in n: return 'VECTOR_STORE'
            return 'VECTOR_LOAD'
        if n.startswith('v_cmpx'): return 'DIVERGENCE'
        if re.search(r'(_f16|_f32|_f64|_bf16)', n) and not n.startswith(('v_cvt_pk_u8', 'v_cndmask', 'v_mov')): return 'VALU_FP'
        return 'VALU_INT'

    def kind(kinds, ch, types=None):
        if ch not in kinds: return 'K0'
        f, n, sfx = kinds[ch]
        t = (types or {}).get(ch)
        if t is None: t = 'I64' if n == 2 and f == 's' else 'B32'
        return 'K(%d,%d,%s)%s' % (n, 1 if f == 's' else 0, TY[t], '|KT16' if sfx else '')

    def strip_sfx(name):
        for s in ('_e32', '_e64'):
            if name.endswith(s): return name[:-4], s
        return name, ''

    lines = []
    def row(fam, op, name, flags, tmpl, d, a, b, c):
        lines.append('R3OP(%s, 0x%x, "%s", %s, %s, "%s", %s, %s, %s, %s)' % (fam.upper(), op, name, cls(fam.lower(), name),
                     '|'.join(flags) if flags else '0', ','.join(tmpl), d, a, b, c))

    def items(fam):
        return sorted(((int(k), v) for k, v in o[fam].items()), key=lambda x: x[0])

    for fam in ('sop1', 'sop2', 'sopk', 'sopc', 'sopp'):
        for op, x in items(fam):
            name = x['name']
            tmpl, inside = [], False
            for t in x['tmpl']:
                if inside:                      # rest of a split "hwreg(A, B, C)" token
                    inside = not t.endswith(')')
                    continue
                if t in ('D', '0', '1'):
                    tmpl.append(t)
                elif t == '0x11223344':
                    tmpl.append('K')
                else:
                    tmpl.append('I')
                    inside = t.startswith(('hwreg(', 'sendmsg(')) and not t.endswith(')')
            out = tmpl
            row(fam, op, name, ['F_LITK'] if 'K' in out else [], out, kind(x['kinds'], 'D'), kind(x['kinds'], '0'), kind(x['kinds'], '1'), 'K0')

    for op, x in items('smem'):
        row('smem', op, x['name'], [], x['tmpl'][:2], kind(x['kinds'], 'D'), kind(x['kinds'], 'S'), 'K0', 'K0')

    for fam in ('vop1', 'vop2', 'vopc'):
        for op, x in items(fam):
            name, sfx = strip_sfx(x['name'])
            fl = []
            if sfx == '_e32': fl.append('F_E32')
            if x.get('dpp'): fl.append('F_DPP16')
            if x.get('dpp8'): fl.append('F_DPP8')
            if 'K' in x['tmpl']: fl.append('F_LITK')
            lo = sum(1 << i for i, k in enumerate(('hi_D', 'hi_0', 'hi_1')) if k in x and x[k] is None)
            if lo: fl.append('F_LO128(%d)' % lo)
            if x.get('dppneg'):
                ops_ = split_ops(x['dppneg'])[1]
                for ch, flag in (('0', 'F_SEXT0'), ('1', 'F_SEXT1')):
                    if ch in x['tmpl'] and x['tmpl'].index(ch) < len(ops_) and ops_[x['tmpl'].index(ch)].startswith('sext('):
                        fl.append(flag)
            types = dict(x['types'])
            # the e64 twin knows the types of every source (e32 probing only varies src0)
            twin = o['vop3'].get({'vop1': 0x180, 'vop2': 0x100, 'vopc': 0}[fam] + op)
            if twin and strip_sfx(twin['name'])[0] == name:
                for ch, ty in twin['types'].items(): types.setdefault(ch, ty)
                absm = sum(1 << i for i in range(2) if twin['mp'].get('abs%d' % i) == 'P')   # DPP source modifiers
                negm = sum(1 << i for i in range(2) if twin['mp'].get('neg%d' % i) == 'P')
                if absm: fl.append('F_ABSM(%d)' % absm)
                if negm: fl.append('F_NEGM(%d)' % negm)
            elif x.get('dpp'):          # no e64 twin: what the DPP form accepts
                nsrc = sum(1 for ch in '01' if ch in x['tmpl'])
                if x.get('dppabs'): fl.append('F_ABSM(%d)' % ((1 << nsrc) - 1))
                if x.get('dppneg') and 'sext(' not in x['dppneg']: fl.append('F_NEGM(%d)' % ((1 << nsrc) - 1))
            if 'K' in x['tmpl'] and name.endswith('_f16'):
                types = {'0': 'F16', '1': 'F16'}   # literal probes cannot be made: K is the literal
            if 'K' in x['tmpl']: types['K'] = types.get('0', 'B32')
            k0 = kind(x['kinds'], '0', types)
            if 'K' in x['tmpl'] and '0' in x['kinds']:
                # K shares the type of src0
                pass
            row(fam, op, name, fl, x['tmpl'], kind(x['kinds'], 'D'), k0, kind(x['kinds'], '1', types), 'K0')

    for op, x in items('vop3'):
        name, sfx = strip_sfx(x['name'])
        mp = x['mp']
        fl = []
        if sfx == '_e64': fl.append('F_E64')
        sd = 'S' in x['tmpl']
        absm = 0 if sd else sum(1 << i for i in range(3) if mp.get('abs%d' % i) == 'P')
        negm = sum(1 << i for i in range(3) if mp.get('neg%d' % i) == 'P')
        absi = 0 if sd else sum(1 << i for i in range(3) if mp.get('abs%d' % i) == 'I')
        negi = sum(1 << i for i in range(3) if mp.get('neg%d' % i) == 'I')
        sext = sum(1 << i for i in range(3) if mp.get('neg%d' % i) == 'P' and 'sext(' in (x['m'].get('neg%d' % i) or ''))
        if sext: fl.append('F_SEXTM(%d)' % sext)
        if absi: fl.append('F_ABSIGN(%d)' % absi)
        if negi: fl.append('F_NEGIGN(%d)' % negi)
        if sd: fl.append('F_SD')
        else:
            if mp.get('opsel') == 'P':
                fl.append('F_OPSEL')
                m_ = re.search(r'op_sel:\[([01,]*)\]', x['m']['opsel'])
                fl.append('F_OPSELN(%d)' % len(m_.group(1).split(',')))
            elif mp.get('opsel') == 'I': fl.append('F_OPSEL_IGN')
            bitsel = [i if i < x['ns'] else 3 for i in (0, 1, 2, 3) if i < x['ns'] or i == 3]
            pm = sum(1 << i for i in bitsel if mp.get('opselb%d' % i) == 'P')
            okm = sum(1 << i for i in bitsel if mp.get('opselb%d' % i) is not None)
            if pm: fl.append('F_OPSELPM(%d)' % pm)
            if okm: fl.append('F_OPSELOKM(%d)' % okm)
        if absm: fl.append('F_ABSM(%d)' % absm)
        if negm: fl.append('F_NEGM(%d)' % negm)
        if x['ns'] == 3 and x['s'][2] < 256: fl.append('F_XEXEC2')
        if mp.get('clamp') == 'P': fl.append('F_CLAMP')
        if mp.get('omod') == 'P': fl.append('F_OMOD')
        if x.get('dpp'): fl.append('F_DPP16')
        if x.get('dpp8'): fl.append('F_DPP8')
        row('vop3', op, name, fl, x['tmpl'], kind(x['kinds'], 'D'), kind(x['kinds'], '0', x['types']),
            kind(x['kinds'], '1', x['types']), kind(x['kinds'], '2', x['types']))

    for op, x in items('vop3p'):
        mp = x['mp']
        fl = []
        if mp.get('neg') == 'P': fl.append('F_NEG')
        if mp.get('neg_hi') == 'P': fl.append('F_NEGHI')
        if mp.get('clamp') == 'P': fl.append('F_CLAMP')
        if mp.get('opsel') == 'P': fl.append('F_OPSEL')
        if mp.get('opsel_hi') == 'P': fl.append('F_OPSELHI')
        if 'op_sel_hi' in x['text']: fl.append('F_MIX')
        if x.get('dpp'): fl.append('F_DPP16')
        if x.get('dpp8'): fl.append('F_DPP8')
        ok = lambda nm: sum(1 << i for i in range(3) if mp.get('%s%d' % (nm, i)) is not None)
        fl += ['F_NEGM(%d)' % ok('neg'), 'F_NEGHIM(%d)' % ok('neghi'), 'F_OPSELM(%d)' % ok('opsel'), 'F_OPSELHIM(%d)' % ok('opselhi')]
        row('vop3p', op, x['name'], fl, x['tmpl'], kind(x['kinds'], 'D'), kind(x['kinds'], '0', x['types']),
            kind(x['kinds'], '1', x['types']), kind(x['kinds'], '2', x['types']))

    for fam in ('vopdx', 'vopdy'):
        for op, x in items(fam):
            fl = ['F_LITK'] if 'K' in x['tmpl'] else []
            row(fam, op, x['name'], fl, x['tmpl'], kind(x['kinds'], 'D'), kind(x['kinds'], '0'), kind(x['kinds'], '1'), 'K0')

    for op, x in items('ds'):
        fl = []
        if x.get('off') and 'offset0' in x['off']: fl.append('F_2ADDR')
        if x.get('off') and 'swizzle' in x['off']: fl.append('F_SWIZZLE')
        if x.get('off') is None: fl.append('F_NOOFF')
        if x.get('gds'): fl.append('F_GDS')
        if x.get('gdsonly'): fl.append('F_GDSONLY')
        row('ds', op, x['name'], fl, x['tmpl'], kind(x['kinds'], 'D'), kind(x['kinds'], 'A'), kind(x['kinds'], '0'), kind(x['kinds'], '1'))

    for fam in ('flat', 'global', 'scratch'):
        for op, x in items(fam):
            fl = ['F_ATOMIC'] if '_atomic_' in x['name'] else []
            tm = [t for t in x['tmpl'] if t != 'off']
            row(fam, op, x['name'], fl, tm, kind(x['kinds'], 'D'), kind(x['kinds'], 'A'), kind(x['kinds'], '0'), 'K0')

    for fam in ('mubuf', 'mtbuf'):
        for op, x in items(fam):
            fl = ['F_ATOMIC'] if '_atomic_' in x['name'] else []
            tm = [t for t in x['tmpl'] if t != 'off']
            row(fam, op, x['name'], fl, tm, kind(x['kinds'], 'D'), kind(x['kinds'], 'A'), kind(x['kinds'], 'R'), kind(x['kinds'], 'O'))

    for op, x in items('mimg'):
        fl = ['F_ATOMIC'] if '_atomic_' in x['name'] else []
        row('mimg', op, x['name'], fl, mimg_template(x['name']), 'K0', 'K0', 'K0', 'K0')

    hdr = '''/* gfx11 (RDNA3) opcode table: one row per opcode of every compute encoding family.
     *
     * GENERATED by op_tables.py from llvm-objdump-19 --mcpu=gfx1100 sweeps (facts about the encoding;
     * regenerate rather than edit). Columns:
     *   R3OP(family, opcode, mnemonic (no _e32/_e64), umb_insn_class, flags, operand template,
     *        kind of dst, kind of operand 0, 1, 2)
     * Template tokens: D dst, S VOP3 scalar dst, 0/1/2 sources (memory: A address, 0/1 data,
     * R resource, O soffset), K literal constant, I SOPP/SOPK immediate; anything else is printed as is.
 * MIMG rows: the template lists the address components and properties (op_tables.py mimg_template).
     * Kinds: K(number of registers, scalar register file, operand type); K0 = none.
     */
    '''
    hdr = '\n'.join(l[4:] if l.startswith('    ') else l for l in hdr.splitlines()) + '\n'
    open(path, 'w').write(hdr + '\n'.join(lines) + '\n')
    return len(lines)


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print(emit(main(), sys.argv[1]), 'rows')
