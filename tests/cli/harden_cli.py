#!/usr/bin/env python3
"""Regression tests of issue 13's command-line and message defects, and the alignment modes
through `umbra run` (each case one CTest test, cli.<case>).

usage: harden_cli.py UMBRA CLANG LLD LLVM_MC LLVM_OBJDUMP VT_SHARED INPUTS WORK CASE

Expected values are stated here, or come from llvm-objdump-19 (disassembly) and from the ELF
files' own program headers (which pages a dump may show).
"""
import os
import random
import shutil
import struct
import subprocess
import sys
import time

umbra, clang, lld, mc, objdump, vt_shared, inputs, work, case = sys.argv[1:10]
work = os.path.join(work, case)
os.makedirs(work, exist_ok=True)


def fail(msg):
    sys.exit(f"FAIL ({case}): {msg}")


def check(cond, msg):
    if not cond:
        fail(msg)


def run(args, ok=True, timeout=120):
    p = subprocess.run([umbra] + args, capture_output=True, timeout=timeout)
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr
    shown = " ".join(a if len(a) < 80 else a[:60] + "..." for a in args)
    if p.returncode < 0:
        fail(f"umbra {shown} crashed (signal {-p.returncode})")
    if ok and p.returncode != 0:
        fail(f"umbra {shown} exited {p.returncode}\n{err.decode('utf-8', 'replace')}")
    if not ok and p.returncode == 0:
        fail(f"umbra {shown} should have failed\n{out}")
    try:
        text = err.decode("utf-8")
    except UnicodeDecodeError as e:
        fail(f"umbra {shown}: stderr is not valid UTF-8 ({e}): {err!r}")
    return out, text


def tool(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        fail(f"{' '.join(cmd)}: {p.stderr}")
    return p.stdout


def compile_cl(name, extra=()):
    co = os.path.join(work, name + ".co")
    run(["cc", os.path.join(inputs, name + ".cl"), "-o", co, *extra])
    return co


def vt_elf(src, text=None):
    """Assemble and link a Ventus assembly file, or the text as SRC.s (as tests/ventus/tools/asmtest.py)."""
    base = os.path.join(work, os.path.splitext(os.path.basename(src))[0])
    if text is not None:
        src = base + ".s"
        with open(src, "w") as f:
            f.write(text)
    tool([mc, "-triple=riscv32", "-mattr=+m,+a,+f,+zve32f", "-filetype=obj", src, "-o", base + ".o"])
    tool([lld, "-Ttext=0x80000000", "-e", "_start", base + ".o", "-o", base + ".elf"])
    return base + ".elf"


M32 = ["--kernel", "load32", "--global", "1", "--local", "1"]


def load32_args(off="u32:0"):
    return M32 + ["--arg", "buf:zeros:4", "--arg", "buf:iota:u8:16", "--arg", off]


# ---- --print / --out beyond 64 (parse_run_opts wrote past its arrays) ----
if case == "print_out_limit":
    co = compile_cl("misaligned")
    out, _ = run(["run", co, *load32_args(), "--quiet"] + ["--print", "0:u32"] * 64)
    check(out.split() == ["50462976"] * 64, f"64 --print gave {out.split()[:4]}... ({len(out.split())} values)")
    for opt, n in (("--print", 65), ("--print", 200), ("--out", 65), ("--out", 200)):
        value = "0:u32" if opt == "--print" else "0:" + os.path.join(work, "o.bin")
        _, err = run(["run", co, *load32_args(), "--quiet"] + [opt, value] * n, ok=False)
        check(f"more than 64 {opt}" in err, f"{n} {opt}: {err}")

# ---- one strict number parser: every option and argument value ----
elif case == "numbers":
    co = compile_cl("misaligned")
    # accepted: the limits themselves, hex numbers, 256 threads
    for off, want in (("u32:0", "50462976"), ("u32:0x4", "117835012"), ("hex:08000000", "185207048"),
                      ("i32:12", "252579084")):
        out, _ = run(["run", co, *load32_args(off), "--quiet", "--print", "0:u32"])
        check(out.split() == [want], f"--arg {off}: printed {out!r}, expected {want}")
    run(["run", co, *load32_args(), "--quiet", "--threads", "256", "--max-instructions", "0x100000"])
    for g in ("0x1", "1x1", "0x1x0x1,1", "1,1"):   # 'x' separates dimensions except in a 0x prefix
        out, _ = run(["run", co, "--kernel", "load32", "--arg", "buf:zeros:4", "--arg", "buf:iota:u8:16",
                      "--arg", "u32:0", "--global", g, "--quiet", "--print", "0:u32"])
        check(out.split() == ["50462976"], f"--global {g}: {out!r}")
    refused_args = ["hex:-1-1-1-1", "hex: 1 1 1 1", "hex:+1+1+1+1", "hex:0x010203", "u32:99999999999",
                    "u32:4294967296", "u32:-1", "u32:+5", "u32: 5", "u32:5 ", "u32:", "u32:010x",
                    "i32:2147483648", "i32:-2147483649", "i32:--1", "f32:1e39", "f32:1.0x", "f32: 1"]
    for a in refused_args:
        _, err = run(["run", co, *load32_args(a), "--quiet"], ok=False)
        check(a in err, f"--arg {a!r} refused without naming it: {err}")
    refused_opts = [("--max-instructions", "abc"), ("--max-instructions", "0"), ("--max-instructions", "-5"),
                    ("--max-instructions", "99999999999999999999"), ("--threads", "4294967295"),
                    ("--threads", "257"), ("--threads", "0"), ("--threads", "4x"), ("--threads", " 2"),
                    ("--cus", "0"), ("--cus", "abc"), ("--alignment-mode", "4"), ("--alignment-mode", "-1"),
                    ("--printf-buffer", "1M"), ("--printf-buffer", "0"), ("--stall-limit", "abc"), ("--stall-limit", "0")]
    for opt, v in refused_opts:
        _, err = run(["run", co, *load32_args(), "--quiet", opt, v], ok=False)
        check(f"bad value '{v}' for {opt}" in err, f"{opt} {v!r}: {err}")
    for opt, v in (("--global", "0"), ("--global", "1,,2"), ("--global", "1,2,3,4"), ("--global", "-1"),
                   ("--local", "2000"), ("--local", "0"), ("--offset", "-1"), ("--offset", "1x")):
        cmd = ["run", co, "--kernel", "load32", "--arg", "buf:zeros:4", "--arg", "buf:iota:u8:16", "--arg", "u32:0",
               "--global", v if opt == "--global" else "1", "--quiet"]
        if opt != "--global":
            cmd += [opt, v]
        _, err = run(cmd, ok=False)
        check(f"bad {opt} '{v}'" in err, f"{opt} {v!r}: {err}")
    for spec in ("buf:zeros:abc", "buf:zeros:-4", "buf:iota:u8:1x", "buf:rand:u32:4:seedx", "buf:fill:u8:4:256",
                 "local:0x"):
        cmd = ["run", co, "--kernel", "load32", "--global", "1", "--arg", "buf:zeros:4", "--arg", spec,
               "--arg", "u32:0", "--quiet"]
        _, err = run(cmd, ok=False)
        check(spec in err, f"--arg {spec}: {err}")
    _, err = run(["run", co, *load32_args(), "--quiet", "--print", "0:u32:abc"], ok=False)
    check("bad count" in err, err)
    # umbra ventus: the same parser and the same thread bound
    vec = os.path.join(vt_shared, "vecadd_4x8")
    run(["ventus", "run", vec, "--threads", "256", "--quiet"])
    for opt, v in (("--max-instructions", "abc"), ("--max-instructions", "0"), ("--threads", "257"),
                   ("--threads", "4294967295"), ("--threads", "-1")):
        _, err = run(["ventus", "run", vec, opt, v, "--quiet"], ok=False)
        check(f"bad value '{v}' for {opt}" in err, f"ventus {opt} {v!r}: {err}")
    elf = vt_elf(os.path.join(inputs, "vt_store.s"))
    for opt, v in (("--warps", "-1"), ("--lanes", "0x"), ("--workgroups", "1,,2"), ("--workgroups", "1,2,3,4"),
                   ("--workgroups", "0"), ("--lds", "1e3"), ("--dump-range", "result:abc"), ("--dump-range", "result:-4")):
        _, err = run(["ventus", "run-elf", elf, "--entry", "_start", opt, v, "--quiet"], ok=False)
        check(f"bad value '{v}' for {opt}" in err, f"ventus run-elf {opt} {v!r}: {err}")

# ---- hex: by-value arguments of any size up to the argument segment; messages not truncated ----
elif case == "byvalue388":
    co = compile_cl("byval388")
    words = [0xa5000000 | (i * 0x10203) & 0xffffff for i in range(97)]
    hexarg = "hex:" + struct.pack("<97I", *words).hex()
    out_path = os.path.join(work, "out.bin")
    run(["run", co, "--kernel", "byval388", "--global", "128", "--local", "64", "--arg", hexarg,
         "--arg", "buf:zeros:388", "--out", f"1:{out_path}", "--quiet"])
    got = list(struct.unpack("<97I", open(out_path, "rb").read()))
    check(got == words, f"the struct argument arrived as {[hex(w) for w in got[:4]]}...")
    # one byte more fits the argument segment but not the argument: refused, the message whole
    long_arg = hexarg + "ff"
    _, err = run(["run", co, "--kernel", "byval388", "--global", "1", "--arg", long_arg, "--arg", "buf:zeros:388",
                  "--quiet"], ok=False)
    check(f"argument 0 ('{long_arg}') does not fit the kernel's by_value" in err and err.rstrip().endswith("of 388 bytes"),
          f"message cut or wrong: ...{err[-200:]!r}")
    # beyond the argument segment: refused by the parser, naming the limit, the message whole
    huge = "hex:" + "ab" * 5000
    _, err = run(["run", co, "--kernel", "byval388", "--global", "1", "--arg", huge, "--arg", "buf:zeros:388",
                  "--quiet"], ok=False)
    check(huge in err and err.rstrip().endswith("(the kernel's argument segment)"), f"message cut: ...{err[-200:]!r}")

# ---- guest bytes in messages: escaped, the message valid UTF-8 ----
elif case == "messages_utf8":
    co = compile_cl("byval388")
    blob = open(co, "rb").read()
    # a .value_kind with raw bytes: "by_value" -> b"b\xff\xfe_valu" (same length: the msgpack stays valid)
    check(blob.count(b"by_value") >= 1, "no by_value in the metadata note")
    bad = os.path.join(work, "bad_kind.co")
    open(bad, "wb").write(blob.replace(b"by_value", b"b\xff\xfe_valu", 1))
    for cmd in (["disasm", bad], ["run", bad, "--kernel", "byval388", "--global", "1"]):
        _, err = run(cmd, ok=False)
        check("unknown .value_kind 'b\\xff\\xfe_valu'" in err, f"umbra {cmd[0]}: {err}")
    # a kernel .name with raw bytes: the descriptor (.symbol) still matches, the name does not
    key = b"\xa5.name\xa8byval388"
    check(key in blob, "no .name byval388 in the note")
    bad = os.path.join(work, "bad_name.co")
    open(bad, "wb").write(blob.replace(key, b"\xa5.name\xa8by\x80\x81l388", 1))
    _, err = run(["run", bad, "--kernel", "byval388", "--global", "1"], ok=False)
    check("its kernels: by\\x80\\x81l388" in err, err)
    # a Ventus launch file whose name is not text
    d = os.path.join(work, "vecadd")
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(os.path.join(vt_shared, "vecadd_4x8"), d)
    open(os.path.join(os.fsencode(d), b"vec\xffadd_0.metadata"), "wb").write(b"")
    _, err = run(["ventus", "run", d, "--quiet"], ok=False)
    check("'vec\\xffadd_0.metadata': not a launch file name" in err, err)
    # an ELF section name with raw bytes in a message (the symbol table's, with a bad entry size)
    elf = bytearray(open(vt_elf(os.path.join(inputs, "vt_store.s")), "rb").read())
    shoff, = struct.unpack_from("<I", elf, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x2e)
    stroff, = struct.unpack_from("<I", elf, shoff + shstrndx * shentsize + 16)
    for i in range(shnum):
        sh = shoff + i * shentsize
        name, stype = struct.unpack_from("<II", elf, sh)
        if stype == 2:   # SHT_SYMTAB
            struct.pack_into("<I", elf, sh + 36, 1)
            check(elf[stroff + name:stroff + name + 7] == b".symtab", "symtab name")
            elf[stroff + name:stroff + name + 7] = b".sy\xff\x01ab"
    bad = os.path.join(work, "bad_symtab.elf")
    open(bad, "wb").write(elf)
    _, err = run(["ventus", "disasm", bad], ok=False)
    check("symbol table '.sy\\xff\\x01ab': entry size 1" in err, err)

# ---- umbra disasm: <.text> for code without a symbol at the section start, as llvm-objdump-19 ----
elif case == "disasm_text_label":
    obj, co = os.path.join(work, "notext.o"), os.path.join(work, "notext.co")
    tool([clang, "-x", "assembler", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-c",
          os.path.join(inputs, "notext.s"), "-o", obj])
    tool([lld, "-shared", obj, "-o", co])
    want = tool([objdump, "-d", co])
    got, _ = run(["disasm", co])
    check("<.text>:" in want, "llvm-objdump-19 printed no <.text> label: the oracle changed")
    check(got == want, f"umbra disasm differs from llvm-objdump-19:\n--- umbra\n{got}\n--- llvm-objdump-19\n{want}")

# ---- umbra ventus run-elf --dump-range over the whole address space: only mapped pages ----
elif case == "dump_range":
    elf = vt_elf(os.path.join(inputs, "vt_store.s"))
    data = open(elf, "rb").read()
    phoff, = struct.unpack_from("<I", data, 0x1c)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x2a)
    pages = set()
    for i in range(phnum):
        ptype, _, vaddr, _, _, memsz = struct.unpack_from("<IIIIII", data, phoff + i * phentsize)
        if ptype == 1 and memsz:
            pages.update(range(vaddr >> 12, (vaddr + memsz + 4095) >> 12))
    pages.add(0x90000000 >> 12)                                   # the kernel metadata block
    pages.update(range(0x90001000 >> 12, (0x90001000 + 0x1000 * 8) >> 12))  # --pds 4096 x 8 lanes
    dump = os.path.join(work, "all.dump")
    t0 = time.time()
    run(["ventus", "run-elf", elf, "--entry", "_start", "--dump", dump, "--dump-range", "0:0xffffffffffffffff",
         "--dump-range", "result:0xffffffffffffffff", "--quiet"], timeout=60)
    took = time.time() - t0
    check(took < 10, f"dumping the whole address space took {took:.1f} s")
    lines = [l.split() for l in open(dump)]
    addrs = [int(a, 16) for a, _ in lines]
    check(addrs == sorted(set(addrs)), "dump not sorted or with duplicates")
    check(all(a >> 12 in pages for a in addrs), f"dumped unmapped memory: {[hex(a) for a in addrs if a >> 12 not in pages][:4]}")
    check(len(addrs) == 1024 * len(pages), f"{len(addrs)} words dumped, {1024 * len(pages)} mapped")
    syms = {}
    for line in tool([objdump, "-t", elf]).splitlines():
        p = line.split()
        if p and p[-1] == "result":
            syms["result"] = int(p[0], 16)
    words = dict((int(a, 16), int(w, 16)) for a, w in lines)
    check(words.get(syms.get("result", -1)) == 0x12345678, "the stored word is not in the dump")

# ---- umbra ventus disasm: one symbol lookup per label and per branch (was quadratic) ----
elif case == "vt_disasm_symbols":
    # 4000 branches whose targets lie far from any symbol (the nearest one below is _start), then
    # 200 symbols: the old lookup walked back word by word, scanning every symbol at each step.
    rnd = random.Random(13)
    nbr, nsym = 4000, 200
    # ties as llvm-objdump-19 resolves them: of several symbols at one address, the greatest name,
    # whatever the binding (fn_alias over _start; local zz over global aa)
    src = ["    .text", "    .globl _start", "    .globl fn_alias", "_start:", "fn_alias:", "    nop"]
    for k in range(1, nbr + 1):
        back = 4 * rnd.randrange(0, min(k, 1000))          # within a branch's -4 KiB
        src.append(f"    beq a0, a1, .-{back}" if k % 3 else f"    jal x0, .-{4 * rnd.randrange(0, k)}")
    for s in range(nsym):
        src += [f"    .globl fn{s}" if s % 2 == 0 else f"    .local fn{s}", f"fn{s}:", "    nop"]
    src += ["    .globl aa", "aa:", "zz:", "    nop", "    j aa"]
    elf = vt_elf("branches.s", "\n".join(src) + "\n")
    check(os.path.getsize(elf) > 16000, "the test ELF is smaller than intended")
    t0 = time.time()
    got, _ = run(["ventus", "disasm", elf])
    took = time.time() - t0
    check(took < 2, f"umbra ventus disasm took {took:.1f} s")
    want = tool([objdump, "-d", elf])
    norm = lambda t: [l.rstrip() for l in t.splitlines() if l.strip() and "file format" not in l]
    g, w = norm(got), norm(want)
    diff = [(a, b) for a, b in zip(g, w) if a != b]
    check(len(g) == len(w) and not diff, f"{len(diff)} lines differ from llvm-objdump-19, first {diff[:2]}; "
          f"{len(g)} vs {len(w)} lines")

# ---- SH_MEM_CONFIG.alignment_mode through umbra run (and the dispatch API under it) ----
elif case == "alignment_modes":
    co = compile_cl("misaligned")

    def load(kernel, off, mode):
        extra = [] if mode is None else (["--align-dword"] if mode == "dword" else ["--alignment-mode", str(mode)])
        args = ["run", co, "--kernel", kernel, "--global", "1", "--arg", "buf:zeros:8", "--arg", "buf:iota:u8:32",
                "--arg", f"u32:{off}", "--quiet", "--print", "0:" + ("u32" if kernel == "load32" else "u64"), *extra]
        p = subprocess.run([umbra] + args, capture_output=True, text=True, timeout=60)
        check(p.returncode >= 0, f"{kernel} off {off} mode {mode}: crashed")
        return (int(p.stdout.split()[0]) if p.returncode == 0 else None), p.stderr

    def le(first, n):
        return int.from_bytes(bytes(range(first, first + n)), "little")

    cases = [
        # kernel, offset, mode, value (None: MEMVIOL)
        ("load32", 1, None, le(1, 4)), ("load32", 1, 3, le(1, 4)), ("load32", 1, 0, le(0, 4)),
        ("load32", 1, "dword", le(0, 4)), ("load32", 1, 1, None), ("load32", 1, 2, None),
        ("load32", 4, 1, le(4, 4)), ("load32", 4, 2, le(4, 4)),
        ("load64", 2, 3, le(2, 8)), ("load64", 2, 0, le(0, 8)), ("load64", 2, 1, None), ("load64", 2, 2, None),
        ("load64", 4, 0, le(4, 8)), ("load64", 4, 1, le(4, 8)), ("load64", 4, 2, None), ("load64", 8, 2, le(8, 8)),
    ]
    for kernel, off, mode, want in cases:
        got, err = load(kernel, off, mode)
        if want is None:
            check(got is None and "MEMVIOL" in err and "misaligned" in err,
                  f"{kernel} at offset {off}, mode {mode}: expected MEMVIOL, got {got} {err}")
        else:
            check(got == want, f"{kernel} at offset {off}, mode {mode}: {got} (expected {want:#x}) {err}")

else:
    sys.exit(f"unknown case {case}")
print(f"ok {case}")
