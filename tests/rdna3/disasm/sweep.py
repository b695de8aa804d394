#!/usr/bin/env python3
"""RDNA3 disassembly sweep: every opcode of every family, many operand combinations.

For each row of src/isa/rdna3/op_tables.def it writes assembly text (registers of each file,
inline integer and float constants, literals, special registers, source modifiers, clamp/omod,
op_sel, DPP16/DPP8 controls, VOPD pairs, memory offsets and cache bits, buffer formats), assembles
it with llvm-mc-19 --show-encoding (lines llvm-mc rejects are dropped), disassembles the bytes
with llvm-objdump-19 and with umbra (r3dis), and requires identical text. It also requires that
nearly every table row was exercised.

usage: sweep.py R3DIS OP_TABLES_DEF [family ...]
"""
import re, sys
from common import assemble_lines, objdump_bytes, compare

ROW = re.compile(r'^R3OP\((\w+), 0x([0-9a-f]+), "([^"]+)", (\w+), ([^"]+), "([^"]*)", (K0|K\([^)]*\)(?:\|KT16)?), (K0|K\([^)]*\)(?:\|KT16)?), (K0|K\([^)]*\)(?:\|KT16)?), (K0|K\([^)]*\)(?:\|KT16)?)\)')

def kind(s):
    if s == 'K0': return None
    t16 = s.endswith('|KT16')
    n, sc, ty = s[2:s.index(')')].split(',')
    return int(n), sc == '1', ty, t16

def rows(path):
    for l in open(path):
        m = ROW.match(l)
        if m:
            fam, op, name, cls, fl, tmpl, d, a, b, c = m.groups()
            yield dict(fam=fam, op=int(op, 16), name=name, flags=set(re.sub(r'\(\d+\)', '', fl.rstrip(', ')).split('|')), tmpl=tmpl.split(',') if tmpl else [],
                       k=[kind(d), kind(a), kind(b), kind(c)])

def reg(f, lo, n):
    return '%s%d' % (f, lo) if n == 1 else '%s[%d:%d]' % (f, lo, lo + n - 1)

# ---- value alternatives for a source operand ----
def src_alts(k, i, allow_vgpr=True, allow_sgpr=True):
    n = k[0] if k else 1
    base = [20, 30, 40][i]
    alts = []
    if allow_vgpr: alts += [reg('v', base, n), reg('v', 255 - n + 1, n)]
    if allow_sgpr:
        alts += [reg('s', base + 2 * i, n), reg('s', 104 if n <= 2 else 100, n)]
        alts += ['vcc' if n == 2 else 'vcc_lo', 'exec' if n == 2 else 'exec_lo', 'm0', 'null']
        if n == 1: alts += ['vcc_hi', 'exec_hi', 'ttmp5', 'src_scc', 'src_vccz', 'src_execz']
        if n == 2: alts += ['src_shared_base', 'src_private_base', 'src_shared_limit', 'src_private_limit', 'ttmp[4:5]']
    alts += ['0', '64', '-16', '7', '-1', '0.5', '-4.0', '1.0', '2.0', '0.15915494', '0x1234', '0xffff', '0x3f800000',
             '0x3c00', '0x12345678', '-100', '0xfffffff0', '65']
    return alts

def fill(tmpl, k, vals, dst):
    out = []
    for t in tmpl:
        if t == 'D': out.append(dst)
        elif t in ('0', '1', '2'): out.append(vals[int(t)])
        elif t == 'S': out.append('s6')
        elif t == 'K': out.append('0x4900' if k[1] and k[1][2] == 'F16' else '0x41200000')
        else: out.append(t)
    return ', '.join(out)

def dst_of(k, vgpr_base=10):
    if not k: return ''
    n, sc, ty, t16 = k
    if sc: return reg('s', 10 if n <= 2 else 12, n) if n <= 2 else reg('s', 12, n)
    if t16: return 'v10.l'
    return reg('v', vgpr_base, n)

def base_vals(r):
    vals = []
    for i in range(3):
        k = r['k'][1 + i]
        n = k[0] if k else 1
        if k and k[3]: vals.append('v%d.l' % (20 + 10 * i))
        else: vals.append(reg('v', 20 + 10 * i, n))
    return vals

def srcs_of(r):
    return [int(t) for t in r['tmpl'] if t in ('0', '1', '2')]

def gen_valu(r, suffix):
    """VOP1/VOP2/VOPC (e32, DPP) and VOP3 (e64, DPP)."""
    name = r['name'] + suffix
    d = dst_of(r['k'][0])
    v = base_vals(r)
    out = [name + ' ' + fill(r['tmpl'], r['k'], v, d)]
    for i in srcs_of(r):
        k = r['k'][1 + i]
        if k and k[3]: continue
        for a in src_alts(k, i):
            vv = list(v); vv[i] = a
            out.append(name + ' ' + fill(r['tmpl'], r['k'], vv, d))
    # scalar sources everywhere (readlane/writelane/cndmask masks) and all-constant forms
    out.append(name + ' ' + fill(r['tmpl'], r['k'], ['s1', 's2', 's3'], d))
    out.append(name + ' ' + fill(r['tmpl'], r['k'], ['s1', 'v2', 's[4:5]'], d))
    out.append(name + ' ' + fill(r['tmpl'], r['k'], ['v1', 's2', 'vcc_lo'], d))
    out.append(name + ' ' + fill(r['tmpl'], r['k'], ['1.0', 'v2', 'vcc'], d))
    return out

def gen_vop3_mods(r):
    name = r['name'] + ('_e64' if 'F_E64' in r['flags'] else '')
    d = dst_of(r['k'][0])
    v = base_vals(r)
    s = srcs_of(r)
    out = []
    fl = r['flags']
    def line(vals, mods=''):
        return name + ' ' + fill(r['tmpl'], r['k'], vals, d) + mods
    for i in s:
        for m in ('-%s', '|%s|', '-|%s|'):
            vv = list(v); vv[i] = m % v[i]
            out.append(line(vv))
        vv = list(v); vv[i] = '-|1.0|'
        out.append(line(vv))
        vv = list(v); vv[i] = '-0x1234'
        out.append(line(vv))
    out += [line(v, ' clamp'), line(v, ' mul:2'), line(v, ' mul:4'), line(v, ' div:2'), line(v, ' clamp div:2')]
    n = len(s) + 1
    for bits_ in (1, 2, 3, (1 << n) - 1, 1 << (n - 1)):
        sel = ','.join(str(bits_ >> j & 1) for j in range(n))
        out.append(line(v, ' op_sel:[%s]' % sel))
        out.append(line(v, ' op_sel:[%s] clamp' % sel))
    return out

DPP16 = ['quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf', 'quad_perm:[0,1,2,3] row_mask:0x5 bank_mask:0xa bound_ctrl:1',
         'row_shl:1 row_mask:0xf bank_mask:0xf', 'row_shr:15 row_mask:0x3 bank_mask:0xf fi:1',
         'row_ror:7 row_mask:0xf bank_mask:0x1', 'row_mirror row_mask:0xf bank_mask:0xf',
         'row_half_mirror row_mask:0xf bank_mask:0xf', 'row_share:3 row_mask:0xf bank_mask:0xf',
         'row_xmask:9 row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1']
DPP8 = ['dpp8:[7,6,5,4,3,2,1,0]', 'dpp8:[0,1,2,3,4,5,6,7] fi:1', 'dpp8:[1,1,1,1,1,1,1,1]']

def gen_dpp(r, vop3):
    name = r['name'] + ('_e64_dpp' if vop3 else '_dpp')
    d = dst_of(r['k'][0])
    v = base_vals(r)
    out = []
    ctrls = (DPP16 if 'F_DPP16' in r['flags'] else []) + (DPP8 if 'F_DPP8' in r['flags'] else [])
    for c in ctrls:
        out.append(name + ' ' + fill(r['tmpl'], r['k'], v, d) + ' ' + c)
        vv = list(v); vv[0] = '-|%s|' % v[0]
        out.append(name + ' ' + fill(r['tmpl'], r['k'], vv, d) + ' ' + c)
        if len(srcs_of(r)) > 1:
            vv = list(v); vv[1] = '-%s' % v[1]
            out.append(name + ' ' + fill(r['tmpl'], r['k'], vv, d) + ' ' + c)
            vv = list(v); vv[1] = 's5'
            out.append(name + ' ' + fill(r['tmpl'], r['k'], vv, d) + ' ' + c)
    if vop3 and ctrls:
        out.append(name + ' ' + fill(r['tmpl'], r['k'], v, d) + ' clamp ' + ctrls[0])
        out.append(name + ' ' + fill(r['tmpl'], r['k'], v, d) + ' mul:2 ' + ctrls[0])
    return out

def gen_vop3p(r):
    name = r['name']
    d = dst_of(r['k'][0])
    v = base_vals(r)
    s = srcs_of(r)
    n = len(s)
    out = gen_valu(r, '')
    def bl(x): return '[' + ','.join(str(x >> j & 1) for j in range(n)) + ']'
    for x in range(1, 1 << n):
        for mod in ('op_sel', 'op_sel_hi', 'neg_lo', 'neg_hi'):
            out.append(name + ' ' + fill(r['tmpl'], r['k'], v, d) + ' %s:%s' % (mod, bl(x)))
    out.append(name + ' ' + fill(r['tmpl'], r['k'], v, d) + ' op_sel:%s op_sel_hi:%s neg_lo:%s neg_hi:%s clamp' % (bl(1), bl(2), bl(1), bl((1 << n) - 1)))
    out.append(name + ' ' + fill(r['tmpl'], r['k'], v, d) + ' clamp')
    out.append(name + ' ' + fill(r['tmpl'], r['k'], v, d) + ' op_sel_hi:%s' % bl(0))
    return out

def gen_scalar(r):
    name, fam = r['name'], r['fam']
    d = dst_of(r['k'][0])
    out = []
    if fam in ('SOPP', 'SOPK'):
        imms = ['0', '1', '18', '0x1234', '0xffff', '0x8000', '65535', '0x7fff', '3', '0x10', '0xfc07', '0x3f7',
                'vmcnt(0)', 'vmcnt(1) lgkmcnt(2)', 'expcnt(3)', 'vmcnt(0) expcnt(0) lgkmcnt(0)',
                'sendmsg(MSG_DEALLOC_VGPRS)', 'sendmsg(MSG_INTERRUPT)', 'sendmsg(2, 0, 0)', 'sendmsg(MSG_RTN_GET_REALTIME)',
                'hwreg(HW_REG_MODE)', 'hwreg(HW_REG_MODE, 0, 4)', 'hwreg(HW_REG_HW_ID1, 8, 8)', 'hwreg(4, 1, 1)', 'hwreg(HW_REG_SH_MEM_BASES)',
                'instid0(VALU_DEP_1)', 'instid0(VALU_DEP_2) | instskip(NEXT) | instid1(SALU_CYCLE_1)', 'instid0(TRANS32_DEP_3) | instskip(SKIP_4)',
                'instskip(SKIP_1) | instid1(FMA_ACCUM_CYCLE_1)', 'depctr_va_vdst(0)', 'depctr_sa_sdst(0) depctr_vm_vsrc(2)',
                'depctr_va_vcc(0)', 'depctr_hold_cnt(0) depctr_va_sdst(1)', '0x12', '0x1f', '-1', '-4', '0xfff']
        for im in imms:
            ops = []
            for t in r['tmpl']:
                ops.append(d if t == 'D' else im if t == 'I' else '0x12345678' if t == 'K' else t)
            out.append(name + (' ' + ', '.join(ops) if ops else ''))
            if not r['tmpl']:
                out.append(name + ' ' + im)
        if 'D' in r['tmpl']:
            for dd in ('null', 'vcc_lo', 'm0', 's105', 'exec_lo'):
                out.append(name + ' ' + ', '.join(dd if t == 'D' else '0x10' if t == 'I' else t for t in r['tmpl']))
        return out
    v = base_vals(r)
    v = [x.replace('v', 's') for x in v]
    out.append(name + ' ' + fill(r['tmpl'], r['k'], v, d))
    for i in srcs_of(r):
        for a in src_alts(r['k'][1 + i], i, allow_vgpr=False):
            vv = list(v); vv[i] = a
            out.append(name + ' ' + fill(r['tmpl'], r['k'], vv, d))
    if 'D' in r['tmpl']:
        n = r['k'][0][0] if r['k'][0] else 1
        for dd in (['null', 'vcc_lo', 'm0', 'exec_lo', 's105', 'ttmp3'] if n == 1 else ['vcc', 'exec', 's[104:105]', 'null']):
            out.append(name + ' ' + fill(r['tmpl'], r['k'], v, dd))
    if name.startswith('s_sendmsg_rtn'):
        for m in ('sendmsg(MSG_RTN_GET_REALTIME)', 'sendmsg(MSG_RTN_GET_DOORBELL)', 'sendmsg(MSG_RTN_SAVE_WAVE)', 'sendmsg(MSG_RTN_GET_TBA)'):
            out.append('%s %s, %s' % (name, d, m))
    return out

def gen_smem(r):
    name = r['name']
    out = []
    if not r['tmpl']:
        return [name]
    d = dst_of(r['k'][0])
    base = 's[20:23]' if 'buffer' in name else 's[20:21]'
    if name.startswith('s_atc_probe'): d = '7'
    for tail in ('0x10', '0x0', 'null', 's5', 's5 offset:0x10', 'm0', 'm0 offset:0xfffff', '0xfffff', '-0x100000', '-0x10',
                 '0x10 glc', '0x10 dlc', '0x10 glc dlc', 's7 offset:0x4 glc'):
        out.append('%s %s, %s, %s' % (name, d, base, tail))
    out.append('%s %s, s[2:3], 0x4' % (name, d) if 'buffer' not in name else '%s %s, s[4:7], 0x4' % (name, d))
    return out

def gen_ds(r):
    name = r['name']
    out = []
    ops = []
    for t in r['tmpl']:
        if t == 'D': ops.append(reg('v', 10, r['k'][0][0]))
        elif t == 'A': ops.append('v20')
        elif t == '0': ops.append(reg('v', 30, r['k'][2][0]))
        elif t == '1': ops.append(reg('v', 40, r['k'][3][0]))
    text = name + (' ' + ', '.join(ops) if ops else '')
    out.append(text)
    if 'F_2ADDR' in r['flags']:
        out += [text + ' offset0:1 offset1:255', text + ' offset1:7', text + ' offset0:9', text + ' offset0:3 offset1:4 gds']
    elif 'F_SWIZZLE' in r['flags']:
        out += [text + ' offset:swizzle(QUAD_PERM,1,0,3,2)', text + ' offset:swizzle(BITMASK_PERM,"01pi0")',
                text + ' offset:swizzle(SWAP,4)', text + ' offset:swizzle(REVERSE,8)', text + ' offset:swizzle(BROADCAST,4,1)',
                text + ' offset:0xffff', text + ' offset:0x1234']
    else:
        out += [text + ' offset:65535', text + ' offset:4', text + ' offset:256', text + ' offset:16 gds', text + ' gds']
    if ops:
        out.append(name + ' ' + ', '.join(o.replace('v10', 'v255').replace('v20', 'v0') for o in ops) + ' offset:8')
    return out

def gen_flat(r):
    name, fam = r['name'], r['fam']
    out = []
    data = reg('v', 30, r['k'][2][0]) if r['k'][2] else None
    dst = reg('v', 10, r['k'][0][0]) if r['k'][0] else None
    atomic = 'F_ATOMIC' in r['flags']
    if atomic and r['k'][2]:
        n = r['k'][2][0]
        rtn = reg('v', 10, n // 2 if 'cmpswap' in name else n)
    addrs = {'FLAT': [('v[20:21]', None)], 'GLOBAL': [('v[20:21]', 'off'), ('v20', 's[30:31]'), ('v20', 'vcc')],
             'SCRATCH': [('v20', 'off'), ('off', 's30'), ('v20', 's30'), ('off', 'off'), ('off', 'm0'), ('v20', 'vcc_lo')]}[fam]
    offs = [''] + ([' offset:4095', ' offset:16'] if fam == 'FLAT' else [' offset:-4096', ' offset:4095', ' offset:-8'])
    cache = ['', ' glc', ' slc', ' dlc', ' glc slc dlc']
    for a, s in addrs:
        for o in offs:
            for c in cache:
                ops = []
                for t in r['tmpl']:
                    if t == 'D': ops.append(dst)
                    elif t == 'A': ops.append(a)
                    elif t == '0': ops.append(data)
                if s is not None: ops.append(s)
                if 'addtid' in name: ops = [x for x in ops if x != a or t == 'A'] if False else ops
                out.append(name + ' ' + ', '.join(ops) + o + c)
                if atomic and 'glc' in c:
                    out.append(name + ' ' + ', '.join([rtn] + ops) + o + c)
    return out

FORMATS = ['', ' format:[BUF_FMT_32_FLOAT]', ' format:[BUF_FMT_8_UNORM]', ' format:[BUF_FMT_32_32_32_32_UINT]',
           ' format:[BUF_FMT_INVALID]', ' format:[BUF_FMT_10_11_11_FLOAT]', ' format:[BUF_FMT_16_16_SNORM]', ' format:77']

def gen_buf(r):
    name, fam = r['name'], r['fam']
    out = []
    if not r['tmpl']:
        return [name]
    n = r['k'][0][0] if r['k'][0] else 1
    atomic = 'F_ATOMIC' in r['flags']
    data = reg('v', 10, n)
    for addr, mode in (('off', ''), ('v20', ' offen'), ('v20', ' idxen'), ('v[20:21]', ' idxen offen')):
        for so in ('s40', '0', 'm0', 'null', '-1', '0.5'):
            for o in ('', ' offset:4095', ' offset:1'):
                for c in (['', ' glc', ' slc dlc', ' glc slc dlc'] if so == 's40' and o == '' else ['']):
                    for f in (FORMATS if fam == 'MTBUF' and so == 's40' and c == '' else ['']):
                        ops = []
                        for t in r['tmpl']:
                            if t == 'D': ops.append(data)
                            elif t == 'A': ops.append(addr)
                            elif t == 'R': ops.append('s[32:35]')
                            elif t == 'O': ops.append(so)
                        out.append(name + ' ' + ', '.join(ops) + f + mode + o + c)
    if not atomic and 'load' in name:
        out.append('%s %s, v20, s[32:35], s40 offen tfe' % (name, reg('v', 10, n + 1)))
    return out

DIMS = ['1D', '2D', '3D', 'CUBE', '1D_ARRAY', '2D_ARRAY', '2D_MSAA', '2D_MSAA_ARRAY']
DIM_COORDS = [1, 2, 3, 3, 2, 3, 3, 4]
DIM_GRADS = [2, 4, 6, 4, 2, 4, 4, 4]

def mimg_addr(tmpl, dim, a16):
    """Address dwords per LLVM's getAddrSizeMIMGOp (gfx11: G16 exists, so A16 leaves _d gradients
    32-bit). Lines are also generated with one dword less and more: llvm-mc rejects wrong sizes,
    so a wrong formula here shows up as lines objdump prints differently from umbra."""
    words = comps = 0
    for t in tmpl:
        if t in 'OBZ': words += 1
        elif t == 'X': comps += DIM_COORDS[dim]
        elif t == 'L': comps += 1
        elif t == 'G': words += DIM_GRADS[dim]
        elif t == 'H': words += (DIM_GRADS[dim] // 2 + 1) // 2 * 2
    return words + ((comps + 1) // 2 if a16 else comps)

def gen_mimg(r):
    name, t = r['name'], r['tmpl']
    if 'Y' in t:
        return ['%s v[4:7], v[9:%d], s[4:7]' % (name, 9 + n - 1) + a for n, a in
                ((11, ''), (12, ''), (8, ' a16'), (9, ' a16'))]
    out = []
    samp = ', s[12:15]' if 'S' in t else ''
    atomic = 'F_ATOMIC' in r['flags']
    def line(vd, addr, dmask, dim, mods='', nsa=False):
        return '%s %s, %s, s[8:15]%s dmask:0x%x dim:SQ_RSRC_IMG_%s%s' % (name, vd, addr, samp, dmask, DIMS[dim], mods)
    def ncomp(dmask):
        return 4 if ('P' in t or 'M' in t) else max(1, bin(dmask).count('1'))
    for dim in range(8):
        for a16 in (False, True):
            n = mimg_addr(t, dim, a16)
            for dn in ((-1, 0, 1) if dim in (1, 5) else (0,)):
                if n + dn < 1: continue
                dm = 3 if atomic else 1 if 'M' in t else 0xf
                out.append(line(reg('v', 10, ncomp(dm)), reg('v', 20, n + dn), dm, dim, ' a16' if a16 else ''))
            if n > 1 and n + 20 < 256:      # NSA: every address register apart (partial NSA past 5)
                regs = ['v%d' % (30 + 3 * i) for i in range(min(n, 4))]
                if n > 4: regs.append(reg('v', 60, n - 4))
                dm = 3 if atomic else 1 if 'M' in t else 0xf
                out.append(line(reg('v', 10, ncomp(dm)), '[' + ', '.join(regs) + ']', dm, dim, ' a16' if a16 else ''))
    n = mimg_addr(t, 1, False)
    a = reg('v', 20, n)
    if atomic:
        dms = (3, 0xf) if 'cmpswap' in name else (1, 3)
        for dm in dms:
            for mods in ('', ' glc', ' slc dlc', ' glc slc dlc', ' unorm'):
                out.append(line(reg('v', 10, ncomp(dm)), a, dm, 1, mods))
        return out
    for dm in (1, 2, 3, 4, 5, 7, 8, 0xc, 0xf):
        out.append(line(reg('v', 10, ncomp(dm)), a, dm, 1))
        out.append(line(reg('v', 10, (ncomp(dm) + 1) // 2), a, dm, 1, ' d16'))
    for mods in (' unorm', ' glc', ' slc', ' dlc', ' glc slc dlc', ' unorm glc'):
        out.append(line(reg('v', 10, ncomp(0xf)), a, 0xf, 1, mods))
    if 'W' not in t:
        for mods, extra in ((' tfe', 1), (' lwe', 0), (' tfe lwe', 1)):
            out.append(line(reg('v', 10, ncomp(0x3) + extra), a, 0x3, 1, mods))
            if 'P' not in t and 'M' not in t:   # gather4 / msaa_load with tfe d16: llvm-objdump prints a different vaddr width (see docs)
                out.append(line(reg('v', 10, (ncomp(0x3) + 1) // 2 + extra), a, 0x3, 1, mods + ' d16'))
    out.append(line(reg('v', 250, ncomp(0xf)), reg('v', 255 - n + 1, n), 0xf, 1))
    out.append(line(reg('v', 0, ncomp(0xf)), a, 0xf, 1).replace('s[8:15]', 's[96:103]').replace('s[12:15]', 's[100:103]'))
    return out

def gen_vopd(rx_all, ry_all):
    out = []
    def half(r, dst, s0, s1):
        ops = []
        for t in r['tmpl']:
            if t == 'D': ops.append(dst)
            elif t == '0': ops.append(s0)
            elif t == '1': ops.append(s1)
            elif t == 'K': ops.append('0x41200000')
        return r['name'] + ' ' + ', '.join(ops)
    for rx in rx_all:
        for ry in ry_all:
            for (x0, y0) in (('v1', 'v4'), ('s1', 'v4'), ('v1', 's4'), ('1.0', 'v4'), ('v1', '0x41200000'), ('0x41200000', 'v4'), ('-1', '0.5')):
                out.append(half(rx, 'v10', x0, 'v2') + ' :: ' + half(ry, 'v11', y0, 'v7'))
    return out

def generate(rs, fams):
    lines = []
    by = {}
    for r in rs:
        by.setdefault(r['fam'], []).append(r)
    for r in rs:
        f = r['fam']
        if fams and f not in fams: continue
        if f in ('VOP1', 'VOP2', 'VOPC'):
            lines += gen_valu(r, '_e32' if 'F_E32' in r['flags'] else '')
            if {'F_DPP16', 'F_DPP8'} & r['flags']: lines += gen_dpp(r, False)
        elif f == 'VOP3':
            lines += gen_valu(r, '_e64' if 'F_E64' in r['flags'] else '')
            lines += gen_vop3_mods(r)
            if {'F_DPP16', 'F_DPP8'} & r['flags']: lines += gen_dpp(r, True)
        elif f == 'VOP3P':
            lines += gen_vop3p(r)
            if {'F_DPP16', 'F_DPP8'} & r['flags']: lines += gen_dpp(r, True)
        elif f in ('SOP1', 'SOP2', 'SOPK', 'SOPC', 'SOPP'): lines += gen_scalar(r)
        elif f == 'SMEM': lines += gen_smem(r)
        elif f == 'DS': lines += gen_ds(r)
        elif f in ('FLAT', 'GLOBAL', 'SCRATCH'): lines += gen_flat(r)
        elif f in ('MUBUF', 'MTBUF'): lines += gen_buf(r)
        elif f == 'MIMG': lines += gen_mimg(r)
    if not fams or 'VOPD' in fams:
        lines += gen_vopd(by.get('VOPDX', []), by.get('VOPDY', []))
    return lines

def main():
    if len(sys.argv) < 3: sys.exit(__doc__)
    r3dis, deffile, fams = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    rs = list(rows(deffile))
    lines = generate(rs, fams)
    encs = assemble_lines(lines)
    insts = objdump_bytes(encs)
    bad = compare(r3dis, insts, 'sweep (%d generated lines, %d assembled)' % (len(lines), len(encs)))
    # coverage: every table row must have been seen at least once (by mnemonic)
    seen = set()
    for _, t in insts:
        mn = t.split(' ', 1)[0]
        seen.add(re.sub(r'(_e32|_e64|_e64_dpp|_dpp)$', '', mn))
        for part in t.split(' :: ')[1:]:
            seen.add(part.split(' ', 1)[0])
    missing = sorted({r['name'] for r in rs if (not fams or r['fam'] in fams or r['fam'].startswith('VOPD') and 'VOPD' in fams)} - seen)
    print('rows: %d, mnemonics never exercised: %d %s' % (len(rs), len(missing), ' '.join(missing[:60])))
    if bad or missing or len(insts) < 400:
        sys.exit(1)

if __name__ == '__main__':
    main()
