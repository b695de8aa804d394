"""What the timing tests of hand-written kernels share (delay_alu.py, vgpr_banks.py): running a tool
and reading a number of the machine file."""
import re
import subprocess
import sys


def sh(*args):
    """Run a command; stop the test with its output if it fails; return its standard output."""
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(args)}: exit {p.returncode}\n{p.stdout}{p.stderr}")
    return p.stdout


def machine_number(machine, key):
    """The integer value of `key:` in the machine file (YAML, one key per line)."""
    with open(machine) as f:
        return int(re.search(rf"^\s+{key}:\s+(\d+)", f.read(), re.M).group(1))
