#!/usr/bin/env python3
"""The committed opcode table must be what op_tables.py derives from llvm-objdump-19 today.

usage: table_current.py OP_TABLES_PY OP_TABLES_DEF"""
import difflib, os, subprocess, sys, tempfile

def main():
    if len(sys.argv) != 3: sys.exit(__doc__)
    gen, committed = sys.argv[1:]
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "op_tables.def")
        subprocess.run([sys.executable, gen, out], check=True)
        new, old = open(out).read().splitlines(), open(committed).read().splitlines()
    diff = list(difflib.unified_diff(old, new, "committed", "regenerated", lineterm="", n=0))
    for l in diff[:60]:
        print(l)
    print("op_tables.def: %d rows, %s" % (sum(l.startswith("R3OP") for l in new), "differs" if diff else "up to date"))
    sys.exit(1 if diff else 0)

if __name__ == "__main__":
    main()
