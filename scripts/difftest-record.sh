#!/usr/bin/env bash
# A long random-program record of the translator (issue 22, docs/DIFFTEST.md): batches of 40 small
# programs through tests/difftest/run.py --jit-only, one process per batch (one process that loads
# too many PoCL kernel libraries hits vm.max_map_count after about 10,000 programs), each batch a
# line in LOG. It resumes after the last seed LOG holds, and stops after the batch that is running
# when WORK/STOP exists (a batch stopped half-way would report its killed runs as differences).
#
#   scripts/difftest-record.sh UMBRA WORK [FIRST_SEED] [JOBS]
#
# UMBRA: an umbra executable (a copy, so that rebuilding the tree does not change the binary under
# a running record); WORK: a scratch folder (LOG is WORK/record.jsonl, the summaries
# WORK/record.out); FIRST_SEED: where to start when LOG is empty (default 40001); JOBS: run.py's
# --jobs (default: the machine's cores). Differences are kept in WORK/batch/diffs/ until the next
# batch starts: copy them out (or reduce them, tests/difftest/reduce.py) before.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: scripts/difftest-record.sh UMBRA WORK [FIRST_SEED] [JOBS]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
umbra=$(realpath "$1")
work=$(mkdir -p "$2" && cd "$2" && pwd)
jobs=${4:-$(nproc)}
log="$work/record.jsonl"
seed=${3:-40001}
if [ -s "$log" ]; then
  seed=$(($(tail -n 1 "$log" | python3 -c 'import json, sys; print(json.load(sys.stdin)["seed"])') + 1))
fi
[ -x "$umbra" ] || { echo "difftest-record.sh: not an executable: $1" >&2; exit 2; }
python=/usr/bin/python3   # Debian's, which has pyopencl (PoCL is the reference)
while [ ! -e "$work/STOP" ]; do
  rm -rf "$work/batch"
  if ! "$python" "$root/tests/difftest/run.py" --umbra "$umbra" --seed "$seed" --programs 40 --kernels 40 \
       --size small --work "$work/batch" --jit-only --jobs "$jobs" --require-pocl --log "$log" >> "$work/record.out" 2>&1; then
    tail -n 4 "$work/record.out" >&2
    echo "difftest-record.sh: seed $seed has differences or errors: read them ($work/batch/diffs/,"\
         "docs/DIFFTEST.md), then run again to go on from seed $((seed + 1))" >&2
    exit 1
  fi
  tail -n 1 "$work/record.out"
  seed=$((seed + 1))
done
echo "difftest-record.sh: stopped ($work/STOP); next seed $seed"
