#!/usr/bin/env python3
"""Generate an assembly sweep of every standard instruction in src/isa/ventus/insns.def.

Each table row with a standard RISC-V operand format gets one or more instructions written in
llvm-mc syntax (plain, masked and alias-triggering forms). llvm-mc-19 assembles the file and
llvm-objdump-19 disassembles it: that listing is the oracle test_disasm compares against.
Custom Ventus rows are not assembled here (llvm-mc does not know them); test_disasm checks them
against the shipped object.dump files.
"""
import re
import sys

T = {
    'VT_F_R': ['{n} a0, a1, a2'],
    'VT_F_I': ['{n} a0, a1, -44', '{n} s2, t6, 2047'],
    'VT_F_ISH': ['{n} a0, a1, 3'],
    'VT_F_LD': ['{n} a0, 8(a1)', '{n} t0, -2048(sp)'],
    'VT_F_ST': ['{n} a2, -8(a1)'],
    'VT_F_B': ['{n} a0, a1, 16', '{n} t3, s1, -32'],
    'VT_F_U': ['{n} a0, 0x12345', '{n} t1, 0x80000'],
    'VT_F_J': ['{n} a0, 32'],
    'VT_F_JALR': ['{n} a0, 12(a1)'],
    'VT_F_FENCE': ['fence rw, w', 'fence iorw, iorw'],
    'VT_F_FENCEI': ['fence.i'],
    'VT_F_CSR': ['{n} a0, mscratch, a1', '{n} a0, 0x805, a1'],
    'VT_F_CSRI': ['{n} a0, mscratch, 5'],
    'VT_F_AMO': ['{n} a0, a1, (a2)', '{n}.aq a0, a1, (a2)', '{n}.aqrl a0, a1, (a2)'],
    'VT_F_LR': ['{n} a0, (a1)', '{n}.rl a0, (a1)'],
    'VT_F_FLD': ['{n} fa0, 8(a1)'],
    'VT_F_FST': ['{n} fa2, -8(a1)'],
    'VT_F_FR': ['{n} fa0, fa1, fa2'],
    'VT_F_FRRM': ['{n} fa0, fa1, fa2', '{n} fa0, fa1, fa2, rtz', '{n} ft0, fs1, ft11, rmm'],
    'VT_F_FR4': ['{n} fa0, fa1, fa2, fa3', '{n} fa0, fa1, fa2, fa3, rdn'],
    'VT_F_F1RM': ['{n} fa0, fa1', '{n} fa0, fa1, rup'],
    'VT_F_FCMP': ['{n} a0, fa1, fa2'],
    'VT_F_FCVT_XF': ['{n} a0, fa1', '{n} a0, fa1, rtz'],
    'VT_F_FCVT_FX': ['{n} fa0, a1', '{n} fa0, a1, rne'],
    'VT_F_FMV_XF': ['{n} a0, fa1'],
    'VT_F_FCLASS': ['{n} a0, fa1'],
    'VT_F_FMV_FX': ['{n} fa0, a1'],
    'VT_F_VSETVLI': ['{n} a0, a1, e32, m1, ta, ma', '{n} zero, zero, e32, mf2, tu, mu'],
    'VT_F_VSETIVLI': ['{n} a0, 8, e32, m2, tu, mu'],
    'VT_F_VSETVL': ['{n} a0, a1, a2'],
    'VT_F_VLU': ['{n} v1, (a0)', '{n} v4, (s1), v0.t'],
    'VT_F_VSU': ['{n} v1, (a0)', '{n} v4, (s1), v0.t'],
    'VT_F_VLS': ['{n} v1, (a0), a1'],
    'VT_F_VSS': ['{n} v1, (a0), a1'],
    'VT_F_VLX': ['{n} v1, (a0), v2'],
    'VT_F_VSX': ['{n} v1, (a0), v2'],
    'VT_F_VV': ['{n} v1, v2, v3', '{n} v31, v30, v29, v0.t'],
    'VT_F_VX': ['{n} v1, v2, a0', '{n} v8, v9, t6, v0.t'],
    'VT_F_VI': ['{n} v1, v2, -5', '{n} v1, v2, 15'],
    'VT_F_VIU': ['{n} v1, v2, 7', '{n} v1, v2, 31'],
    'VT_F_VF': ['{n} v1, v2, fa0'],
    'VT_F_VMA_VV': ['{n} v1, v2, v3', '{n} v1, v2, v3, v0.t'],
    'VT_F_VMA_VX': ['{n} v1, a0, v3'],
    'VT_F_VMA_VF': ['{n} v1, fa0, v3'],
    'VT_F_V2': ['{n} v1, v2', '{n} v1, v2, v0.t'],
    'VT_F_VID': ['{n} v3'],
    'VT_F_VMV_VV': ['{n} v1, v2'],
    'VT_F_VMV_VX': ['{n} v1, a0'],
    'VT_F_VMV_VI': ['{n} v1, -3'],
    'VT_F_VFMV_VF': ['{n} v1, fa0'],
    'VT_F_VMV_XS': ['{n} a0, v1'],
    'VT_F_VMV_SX': ['{n} v1, a0'],
    'VT_F_VFMV_FS': ['{n} fa0, v1'],
    'VT_F_VFMV_SF': ['{n} v1, fa0'],
    'VT_F_VMERGE_VV': ['{n} v1, v2, v3, v0'],
    'VT_F_VMERGE_VX': ['{n} v1, v2, a0, v0'],
    'VT_F_VMERGE_VI': ['{n} v1, v2, 5, v0'],
    'VT_F_VFMERGE': ['{n} v1, v2, fa0, v0'],
}

# Encodings that llvm-objdump prints as an alias.
ALIASES = '''
addi zero, zero, 0
addi a0, zero, 5
addi a0, a1, 0
xori a0, a1, -1
sub a0, zero, a1
sltiu a0, a1, 1
sltu a0, zero, a1
slt a0, a1, zero
slt a0, zero, a1
beq a0, zero, -8
bne a0, zero, 8
blt a0, zero, 8
bge a0, zero, 8
blt zero, a0, 8
bge zero, a0, 8
jal zero, -16
jal ra, 64
jalr zero, 0(ra)
jalr zero, 0(a1)
jalr ra, 0(a1)
jalr zero, 4(t1)
jalr ra, 4(t1)
csrrs a0, mstatus, zero
csrrs a0, 0x805, zero
csrrw zero, mtvec, a1
csrrs zero, mstatus, a1
csrrc zero, mstatus, a1
csrrwi zero, mstatus, 5
csrrsi zero, mstatus, 5
csrrci zero, mstatus, 5
csrrs a0, fflags, zero
csrrs a0, frm, zero
csrrs a0, fcsr, zero
csrrw a0, fflags, a1
csrrw zero, frm, a1
csrrw a0, fcsr, a1
csrrwi a0, frm, 3
csrrwi zero, fflags, 1
csrrs a0, cycle, zero
csrrs a0, time, zero
csrrs a0, instret, zero
csrrs a0, cycleh, zero
fsgnj.s fa0, fa1, fa1
fsgnjn.s fa0, fa1, fa1
fsgnjx.s fa0, fa1, fa1
vrsub.vx v1, v2, zero
vxor.vi v1, v2, -1
vfsgnjn.vv v1, v2, v2
vfsgnjx.vv v1, v2, v2
vsetvli t4, t4, e32, m1, ta, ma
'''

def main():
    rows = re.findall(r'^(VT_INSN|VI3U|VI3|VI2|VIXI|VM2|VF2)\((.*)\)\s*$', open(sys.argv[1]).read(), re.M)
    out = ['    .text', '    .option norvc']
    count = 0
    for kind, args in rows:
        a = [x.strip() for x in args.split(',')]
        if '##' in args:
            continue   # the row-generating macros' own definitions
        if kind == 'VT_INSN':
            insns = [(a[1].strip('"'), a[4])]
        elif kind in ('VI3', 'VI3U'):
            nm = a[1].strip('"')
            insns = [(nm + '.vv', 'VT_F_VV'), (nm + '.vx', 'VT_F_VX'), (nm + '.vi', 'VT_F_VIU' if kind == 'VI3U' else 'VT_F_VI')]
        elif kind == 'VI2':
            nm = a[1].strip('"')
            insns = [(nm + '.vv', 'VT_F_VV'), (nm + '.vx', 'VT_F_VX')]
        elif kind == 'VIXI':
            nm = a[1].strip('"')
            insns = [(nm + '.vx', 'VT_F_VX'), (nm + '.vi', 'VT_F_VI')]
        elif kind == 'VM2':
            nm = a[1].strip('"')
            insns = [(nm + '.vv', a[4]), (nm + '.vx', a[5])]
        else:  # VF2
            nm = a[1].strip('"')
            insns = [(nm + '.vv', a[3]), (nm + '.vf', a[4])]
        for name, fmt in insns:
            if fmt not in T:
                continue   # custom Ventus formats and unsupported catch-all rows
            for t in T[fmt]:
                out.append('    ' + t.format(n=name))
                count += 1
    for line in ALIASES.strip().splitlines():
        out.append('    ' + line)
    open(sys.argv[2], 'w').write('\n'.join(out) + '\n')
    print(f'{count} table instructions, {len(ALIASES.strip().splitlines())} alias forms')

main()
