#!/usr/bin/env python3
"""VGPR bank conflicts under the gfx1100 timing model (docs/TIMING.md "VGPR banks").

usage: vgpr_banks.py UMBRA CLANG LLD SRC_DIR MACHINE WORK_DIR

1. Microbenchmarks (tests/timing/vgpr_banks.s): one wave whose VALU instructions read three VGPRs
   of one bank takes, per instruction, the cycles the machine file's bank model says more than one
   whose sources are in three banks; the SIMD's VALU is held (four waves a SIMD: as much more per
   wave); reading the registers the previous instruction read costs nothing (the operand cache);
   with vgpr_banks: 0 (the old model) the kernels take the same cycles.
2. The published dual-FMAC loop: seb-v's kernel 5 inner loop (the compiler's v_dual_fmac_f32
   sequence) copied into a loop "cannot exceed 75%" VALU utilization on a 7900 XTX; his kernel 6
   loop (the same products with the VGPR banks redistributed) issues one dual FMAC a cycle. The
   kernels are generated here from the register numbers of both loops as his post prints them.

Every kernel's output is checked against a Python reference and against functional mode."""
import json
import os
import re
import shutil
import struct
import sys

from asm_test_util import machine_number, sh

umbra, clang, lld, src, machine, work = sys.argv[1:7]
os.makedirs(work, exist_ok=True)
failures = []


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)




BANKS, PORTS = machine_number(machine, "vgpr_banks"), machine_number(machine, "vgpr_bank_ports")
no_banks = os.path.join(work, "gfx1100-no-banks.yaml")
with open(machine) as f, open(no_banks, "w") as g:
    g.write(re.sub(r"^(\s+vgpr_banks:\s+)\d+", r"\g<1>0", f.read(), flags=re.M))


def assemble(name, text=None):
    s = os.path.join(work, f"{name}.s") if text else os.path.join(src, f"{name}.s")
    if text:
        open(s, "w").write(text)
    obj, co = os.path.join(work, f"{name}.o"), os.path.join(work, f"{name}.co")
    sh(clang, "-x", "assembler", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-c", s, "-o", obj)
    sh(lld, "-shared", obj, "-o", co)
    return co


def run(co, kernel, n, expected, machine_file=machine):
    """Run n work-items (one workgroup) in timing mode and in functional mode; returns the
    launch's statistics."""
    base = os.path.join(work, f"{kernel}.{n}.{os.path.basename(machine_file)}")
    launch = ["run", co, "--kernel", kernel, "--global", str(n), "--local", str(n), "--arg", f"buf:iota:u32:{n}"]
    sh(umbra, *launch, "--out", f"0:{base}.plain", "--quiet")
    sh(umbra, *launch, "--out", f"0:{base}.timed", "--machine", machine_file, "--stats", f"{base}.json", "--quiet")
    out = list(struct.unpack(f"{n}I", open(f"{base}.timed", "rb").read()))
    expect(open(f"{base}.plain", "rb").read() == open(f"{base}.timed", "rb").read(),
           f"{kernel}: the same output in timing and functional mode")
    expect(out == [expected] * n, f"{kernel}: output {expected} (got {out[:2]}...)")
    return json.load(open(f"{base}.json"))["timing"]["launches"][0]


# ---- 1. microbenchmarks ----
co = assemble("vgpr_banks")
INSTS = 512
extra = -(-3 // PORTS) - 1          # three reads in one bank, PORTS accesses a cycle
stats = {(k, n): run(co, k, n, 5) for k in ("bank_conflict", "bank_distinct", "bank_reuse") for n in (32, 256)}
c1, d1, r1 = (stats[(k, 32)] for k in ("bank_conflict", "bank_distinct", "bank_reuse"))
expect(c1["valu"]["vgpr_bank_conflict_cycles"] == INSTS * extra,
       f"one wave, three bank-0 reads: {INSTS} x {extra} conflict cycles (got {c1['valu']['vgpr_bank_conflict_cycles']})")
expect(d1["valu"]["vgpr_bank_conflict_cycles"] == 0, "one wave, sources in three banks: no conflict cycles")
expect(c1["cycles"] - d1["cycles"] == INSTS * extra,
       f"one wave: conflicting banks take {INSTS * extra} cycles more (got {c1['cycles']} - {d1['cycles']})")
expect(r1["valu"]["vgpr_bank_conflict_cycles"] == extra and r1["cycles"] - d1["cycles"] == extra,
       f"one wave, the same three bank-0 registers each time: only the first instruction conflicts "
       f"(got {r1['valu']['vgpr_bank_conflict_cycles']} cycles, {r1['cycles']} vs {d1['cycles']})")
c8, d8 = stats[("bank_conflict", 256)], stats[("bank_distinct", 256)]
expect(c8["cycles"] - d8["cycles"] >= 0.95 * 4 * INSTS * extra,
       f"four waves a SIMD: the conflicts hold the SIMD's VALU, {4 * INSTS * extra} cycles more "
       f"(got {c8['cycles']} - {d8['cycles']})")
c0, d0 = run(co, "bank_conflict", 32, 5, no_banks), run(co, "bank_distinct", 32, 5, no_banks)
expect(c0["cycles"] == d0["cycles"] and c0["valu"]["vgpr_bank_conflict_cycles"] == 0,
       f"vgpr_banks: 0: no bank model, the same cycles ({c0['cycles']}, {d0['cycles']})")

# ---- 2. the dual-FMAC loops of seb-v's kernels 5 and 6 ----
# (dst, src0, src1) of each v_dual_fmac_f32 half (one triple: a v_fmac_f32_e32), as printed in
# "Optimizing Matrix Multiplication on RDNA3" (seb-v.github.io, 2025-01-20): kernel 5's inner loop
# as the HIP compiler made it (the listing after "Let's take a look at what the HIP compiler has
# generated for us", complete in src/kernel6_valu_optim_reference.s of seb-v/fp32_sgemm_amd) and
# kernel 6's ("Re-write dual_fmas"), A and B in VGPRs 184-213, the 128 accumulators in 2-133, 214.
K5 = """
124,184,192 | 133,184,193 | 132,184,194 129,185,192 | 131,184,195 128,185,193 |
127,185,194 122,186,193 | 126,185,195 123,186,192 | 121,186,194 116,187,193 |
120,186,195 117,187,192 | 115,187,194 112,184,197 | 114,187,195 113,184,196 |
111,184,198 108,185,197 | 110,184,199 109,185,196 | 107,185,198 104,186,197 |
106,185,199 105,186,196 | 103,186,198 100,187,197 | 102,186,199 101,187,196 |
99,187,198 96,184,201 | 98,187,199 97,184,200 | 95,184,202 92,185,201 | 94,184,203 93,185,200 |
91,185,202 88,186,201 | 90,185,203 89,186,200 | 87,186,202 84,187,201 | 86,186,203 85,187,200 |
83,187,202 80,184,205 | 82,187,203 81,184,204 | 79,184,206 76,185,205 | 78,184,207 77,185,204 |
75,185,206 72,186,205 | 74,185,207 73,186,204 | 71,186,206 68,187,205 | 70,186,207 69,187,204 |
67,187,206 64,188,193 | 66,187,207 65,188,192 | 63,188,194 60,189,193 | 62,188,195 61,189,192 |
59,189,194 56,190,193 | 58,189,195 57,190,192 | 55,190,194 52,191,193 | 54,190,195 53,191,192 |
51,191,194 48,188,197 | 50,191,195 49,188,196 | 47,188,198 44,189,197 | 46,188,199 45,189,196 |
43,189,198 40,190,197 | 42,189,199 41,190,196 | 39,190,198 36,191,197 | 38,190,199 37,191,196 |
35,191,198 32,188,201 | 34,191,199 33,188,200 | 31,188,202 28,189,201 | 30,188,203 29,189,200 |
27,189,202 24,190,201 | 26,189,203 25,190,200 | 23,190,202 20,191,201 | 22,190,203 21,191,200 |
19,191,202 16,188,205 | 18,191,203 17,188,204 | 15,188,206 12,189,205 | 14,188,207 13,189,204 |
11,189,206 8,190,205 | 10,189,207 9,190,204 | 7,190,206 4,191,205 | 6,190,207 5,191,204 |
3,191,206 | 2,191,207
"""
K6 = """
5,186,184 2,187,185 | 3,186,185 4,187,184 | 9,186,188 6,187,189 | 7,187,188 8,186,189 |
13,190,188 10,191,189 | 11,190,189 12,191,188 | 17,190,184 14,191,185 | 15,191,184 16,190,185 |
21,194,184 18,195,185 | 19,194,185 20,195,184 | 25,194,188 22,195,189 | 23,195,188 24,194,189 |
29,198,188 26,199,189 | 27,198,189 28,199,188 | 33,198,192 30,199,193 | 31,199,192 32,198,193 |
37,186,192 34,187,193 | 35,186,193 36,187,192 | 41,186,196 38,187,197 | 39,187,196 40,186,197 |
45,190,196 42,191,197 | 43,190,197 44,191,196 | 49,190,192 46,191,193 | 47,191,192 48,190,193 |
53,194,192 50,195,193 | 51,194,193 52,195,192 | 57,194,196 54,195,197 | 55,195,196 56,194,197 |
61,198,196 58,199,197 | 59,198,197 60,199,196 | 65,198,200 62,199,201 | 63,199,200 64,198,201 |
69,186,200 66,187,201 | 67,186,201 68,187,200 | 73,186,204 70,187,205 | 71,187,204 72,186,205 |
77,190,204 74,191,205 | 75,190,205 76,191,204 | 81,190,200 78,191,201 | 79,191,200 80,190,201 |
85,194,200 82,195,201 | 83,194,201 84,195,200 | 89,194,204 86,195,205 | 87,195,204 88,194,205 |
93,198,204 90,199,205 | 91,198,205 92,199,204 | 97,198,208 94,199,209 | 95,199,208 96,198,209 |
101,186,208 98,187,209 | 99,186,209 100,187,208 | 105,186,212 102,187,213 |
103,187,212 104,186,213 | 109,190,212 106,191,213 | 107,190,213 108,191,212 |
113,190,208 110,191,209 | 111,191,208 112,190,209 | 117,194,208 114,195,209 |
115,194,209 116,195,208 | 121,194,212 122,195,213 | 123,195,212 120,194,213 |
129,198,212 126,199,213 | 127,198,213 124,199,212 | 133,198,184 214,199,185 |
131,199,184 128,198,185
"""
COPIES = 8                  # copies of the block per loop iteration (seb-v: 32 in one kernel)
ITERS = (2, 6)              # two runs: the difference is the loop's steady state


def parse(table):
    return [[tuple(int(x) for x in h.split(",")) for h in row.split()] for row in table.replace("\n", " ").split("|")]


def fmac_kernel(name, block, iters):
    """A wave that zeroes the accumulators, sets A and B to 1.0 and runs `iters` iterations of
    COPIES copies of `block`; each accumulator ends at iters * COPIES, stored as u32 from v124."""
    acc = sorted({h[0] for row in block for h in row})
    ab = sorted({r for row in block for h in row for r in h[1:]})
    lines = [f".globl {name}", f".type {name},@function", ".p2align 8", f"{name}:",
             "  s_load_b64 s[4:5], s[0:1], 0x0", "  v_lshlrev_b32 v1, 2, v0"]
    lines += [f"  v_mov_b32 v{r}, 0" for r in acc] + [f"  v_mov_b32 v{r}, 1.0" for r in ab]
    lines += [f"  s_mov_b32 s6, {iters}", "  s_waitcnt lgkmcnt(0)", f".L{name}_loop:"]
    for _ in range(COPIES):
        for row in block:
            if len(row) == 1:
                lines.append("  v_fmac_f32_e32 v%d, v%d, v%d" % row[0])
            else:
                lines.append("  v_dual_fmac_f32 v%d, v%d, v%d :: v_dual_fmac_f32 v%d, v%d, v%d" % (row[0] + row[1]))
    lines += ["  s_sub_u32 s6, s6, 1", "  s_cmp_lg_u32 s6, 0", f"  s_cbranch_scc1 .L{name}_loop",
              "  s_waitcnt_depctr depctr_va_vdst(0)", "  v_cvt_u32_f32 v124, v124",
              "  global_store_b32 v1, v124, s[4:5]", "  s_endpgm"]
    return "\n".join(lines) + "\n"


def descriptor(name):
    return f""".rodata
.p2align 6
.amdhsa_kernel {name}
  .amdhsa_workgroup_processor_mode 0
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_count 2
  .amdhsa_wavefront_size32 1
  .amdhsa_system_vgpr_workitem_id 0
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 216
  .amdhsa_next_free_sgpr 16
.end_amdhsa_kernel
.text
"""


def metadata(names):
    out = ".amdgpu_metadata\n---\namdhsa.version: [ 1, 2 ]\namdhsa.target: amdgcn-amd-amdhsa--gfx1100\namdhsa.kernels:\n"
    for n in names:
        out += (f"  - {{ .name: {n}, .symbol: {n}.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,\n"
                "      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32,\n"
                "      .sgpr_count: 16, .vgpr_count: 216, .max_flat_workgroup_size: 32,\n"
                "      .args: [ { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }\n")
    return out + "...\n.end_amdgpu_metadata\n"


blocks = {"k5": parse(K5), "k6": parse(K6)}
names = [f"fmac_{k}_{i}" for k in blocks for i in ITERS]
text = '.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n.text\n'
for k, block in blocks.items():
    for i in ITERS:
        text += fmac_kernel(f"fmac_{k}_{i}", block, i) + descriptor(f"fmac_{k}_{i}")
co = assemble("fmac_loops", text + metadata(names))


def utilisation(k, machine_file=machine):
    """VALU instructions issued per cycle in the loop's steady state (one wave)."""
    s = [run(co, f"fmac_{k}_{i}", 32, i * COPIES, machine_file) for i in ITERS]
    valu = (ITERS[1] - ITERS[0]) * COPIES * len(blocks[k])
    return valu / (s[1]["cycles"] - s[0]["cycles"])


PUBLISHED, TOLERANCE = 0.75, 0.05
u5, u6, u5_off = utilisation("k5"), utilisation("k6"), utilisation("k5", no_banks)
print(f"VALU utilisation: kernel 5 loop {u5:.3f}, kernel 6 loop {u6:.3f}; without banks {u5_off:.3f}")
expect(abs(u5 - PUBLISHED) <= TOLERANCE,
       f"kernel 5's dual-FMAC loop: VALU utilisation {u5:.3f}, published 75% (+-{TOLERANCE:.2f})")
expect(u6 >= 0.97, f"kernel 6's re-banked loop: one dual FMAC a cycle (utilisation {u6:.3f})")
expect(u5_off >= 0.97, f"without the bank model kernel 5's loop issues every cycle ({u5_off:.3f})")

if failures:
    sys.exit("vgpr_banks: %d failure(s)" % len(failures))
print("vgpr_banks: all checks passed")
