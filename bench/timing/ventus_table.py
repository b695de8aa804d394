#!/usr/bin/env python3
"""The Ventus timing tables of docs/VENTUS.md: every shipped program (../shared/testcases/ventus)
under `umbra ventus run DIR --timing`, summed over its launches (cycles, wave-instructions,
wave-cycle breakdown, cache hits, DRAM bytes), then each launch's cycles on machines/ventus.yaml
and machines/ventus-fixed-latency.yaml, as Markdown.

    ventus_table.py UMBRA [VENTUS_DIR] [WORK_DIR]"""
import json
import os
import subprocess
import sys
import tempfile

PROGRAMS = "bfs_4x16 gaussian_4x8 kmeans_4w16t matadd_4x4 nn_4x8 vecadd_4x8".split()
STATES = ["issue", "dependency", "barrier", "pipeline_busy"]


def run(umbra, program_dir, machine, stats):
    p = subprocess.run([umbra, "ventus", "run", program_dir, "--timing", "--machine", machine, "--stats", stats,
                        "--quiet"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"ventus_table: {program_dir} on {machine}: exit {p.returncode}\n{p.stderr}")
    return json.load(open(stats))["timing"]["launches"]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    umbra = sys.argv[1]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ventus = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "..", "shared", "testcases", "ventus")
    work = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="umbra-ventus-")
    machines = [os.path.join(root, "machines", m) for m in ("ventus.yaml", "ventus-fixed-latency.yaml")]
    summary, per_launch = [], []
    for prog in PROGRAMS:
        runs = [run(umbra, os.path.join(ventus, prog), m, os.path.join(work, f"{prog}.{i}.json"))
                for i, m in enumerate(machines)]
        launches = runs[0]
        cycles = sum(l["cycles"] for l in launches)
        insts = sum(l["wave_instructions"] for l in launches)
        states = {s: sum(l["wave_cycles"][s] for l in launches) for s in launches[0]["wave_cycles"] if s != "idle"}
        busy = sum(states.values()) or 1
        hits = {lvl: [sum(l["caches"].get(lvl, {}).get(k, 0) for l in launches) for k in ("hits", "misses")]
                for lvl in ("l0", "l2")}
        dram = sum(l["dram"]["read_bytes"] + l["dram"]["write_bytes"] for l in launches)
        summary.append(f"| {prog} | {len(launches)} | {cycles} | {insts} | "
                       + " | ".join(f"{100 * states[s] / busy:.1f}%" for s in STATES)
                       + f" | {hits['l0'][0]}/{sum(hits['l0'])} | {hits['l2'][0]}/{sum(hits['l2'])} | {dram} |")
        for a, b in zip(runs[0], runs[1]):
            per_launch.append(f"| {prog}/{a['kernel']} | {a['cycles']} | {b['cycles']} |")
    print("| program | launches | cycles | wave-insts | " + " | ".join(s.replace("_", " ") for s in STATES)
          + " | dcache hits/accesses | L2 hits/accesses | DRAM bytes |")
    print("|---" * (8 + len(STATES) - 1) + "|")
    print("\n".join(summary))
    print()
    print("| launch | umbra, ventus.yaml | umbra, ventus-fixed-latency.yaml |")
    print("|---|---|---|")
    print("\n".join(per_launch))


if __name__ == "__main__":
    main()
