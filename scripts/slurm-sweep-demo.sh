#!/usr/bin/env bash
# Runs the Slurm array of docs/sweeps.md for real and checks its table: the peg insertion
# sweep (examples/sweeps/peg_insertion.json), samples 0..LAST, K samples per array task
# (default 1; K must divide LAST+1) through scripts/sweep-array.sbatch on a single-node
# Slurm on localhost
# (scripts/slurm-local.sh), gathered with the documented command and compared with
# `pivot sweep --jobs 2`'s table row for row in every column but the timing one, solve_ms.
# Prints the wall times of both. As root, with slurm-wlm and munge installed; not part of
# the test suite (docs/sweeps.md says why).
#   scripts/slurm-sweep-demo.sh [BUILD_DIR (build)] [LAST (399)] [K (1)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z ${SLURM_CONF:-} ]]; then
  exec "$root/scripts/slurm-local.sh" "$0" "$@"
fi
build=$(cd "${1:-$root/build}" && pwd)
sweep=$root/examples/sweeps/peg_insertion.json
export PATH=$build:$PATH
work=$(mktemp -d /tmp/pivot-slurm-demo.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
last=${2:-399}
k=${3:-1}
if (((last + 1) % k != 0)); then
  echo "slurm-sweep-demo: K=$k does not divide the $((last + 1)) samples 0..$last" >&2
  exit 2
fi

start=$(date +%s%N)
pivot sweep "$sweep" --jobs 2 --out local.csv > /dev/null 2>&1
local_ms=$((($(date +%s%N) - start) / 1000000))

# The documented commands, from the folder the tasks start in.
mkdir -p rows
start=$(date +%s%N)
sbatch --wait --array=0-$(((last + 1) / k - 1)) "$root/scripts/sweep-array.sbatch" "$sweep" "$k" \
  > sbatch.out
slurm_ms=$((($(date +%s%N) - start) / 1000000))
{ pivot sweep "$sweep" --columns; sort -t, -k1,1n rows/*.csv; } > peg.csv

if [[ -n $(cat rows/*.err) ]]; then
  echo "slurm-sweep-demo: tasks wrote errors:" >&2
  cat rows/*.err >&2
  exit 1
fi
rows=$(($(wc -l < peg.csv) - 1))
if [[ $rows -ne $((last + 1)) ]]; then
  echo "slurm-sweep-demo: $rows rows gathered, expected $((last + 1))" >&2
  exit 1
fi
# All but the last cell (solve_ms) of the header and the first LAST+1 rows.
head -n $((last + 2)) local.csv | sed 's/,[^,]*$//' > local.cut
sed 's/,[^,]*$//' peg.csv > slurm.cut
if ! diff -q local.cut slurm.cut > /dev/null; then
  echo "slurm-sweep-demo: the Slurm table differs from pivot sweep --jobs 2's:" >&2
  diff local.cut slurm.cut | head -n 20 >&2
  exit 1
fi
echo "slurm-sweep-demo: $(cat sbatch.out); $rows rows equal to pivot sweep --jobs 2's in every column but solve_ms"
echo "slurm-sweep-demo: wall: pivot sweep --jobs 2 (all 400 samples) $local_ms ms;" \
  "Slurm array of $(((last + 1) / k)) tasks of $k (sbatch --wait) $slurm_ms ms"
echo "slurm-sweep-demo: load average $(cut -d' ' -f1-3 /proc/loadavg)"
