#!/usr/bin/env bash
# Speed against an earlier commit, in one run (issue 15's targets are ratios "in the same
# run, built from the previous commit as the baseline"): builds BASE's step_bench and
# lcp_bench from a worktree in build-against/BASE, this tree's in build-bench/, runs them
# alternately PAIRS times (default 3) and prints, per scene and per LCP configuration, the
# median over the pairs of new/old: steps/s for step_bench, each method's median solve time
# for lcp_bench (Pivot's methods only). Both sides run with the same fixed glibc mmap and
# trim thresholds (lcp_bench sets them itself since 321b735; an older one takes them from
# GLIBC_TUNABLES), so neither side's times carry page faults the other's do not.
#   scripts/bench-against.sh BASE [PAIRS]
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 1 ]]; then
  echo "usage: scripts/bench-against.sh BASE [PAIRS]" >&2
  exit 2
fi
base=$(git rev-parse --short "$1^{commit}" 2> /dev/null) || { echo "bench-against: no commit '$1'" >&2; exit 2; }
pairs=${2:-3}
[[ $pairs =~ ^[1-9][0-9]*$ ]] || { echo "bench-against: PAIRS must be a positive integer, got '$pairs'" >&2; exit 2; }

scripts/install-deps.sh --test
build() {  # build SOURCE_DIR BUILD_DIR
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DPIVOT_BUILD_VIEWER=OFF -DBUILD_TESTING=OFF \
    > "$2.configure.log" 2>&1 || { cat "$2.configure.log"; exit 1; }
  cmake --build "$2" --target step_bench lcp_bench -j "$(nproc)"
}
tree=build-against/$base
if [[ ! -d $tree ]]; then
  mkdir -p build-against
  git worktree add --detach "$tree" "$base" > /dev/null
fi
build "$tree" "$tree/build-bench"
build . build-bench

export GLIBC_TUNABLES=glibc.malloc.mmap_threshold=67108864:glibc.malloc.trim_threshold=268435456
out=build-against/$base-runs
rm -rf "$out"
mkdir -p "$out"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; $(uptime)"
echo "base $base, new $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' + changes'), $pairs pairs"
for ((i = 1; i <= pairs; ++i)); do
  for side in old new; do
    dir=build-bench
    [[ $side == old ]] && dir=$tree/build-bench
    "$dir/bench/step_bench" --benchmark_filter='^step/' > "$out/step-$side-$i.md" 2> /dev/null
    "$dir/bench/lcp_bench" --benchmark_filter='-.*(dart|siconos).*' \
      --lcp_markdown="$out/lcp-$side-$i.md" > /dev/null 2>&1
  done
done
echo "machine after: $(uptime)"
/usr/bin/python3 - "$out" "$pairs" <<'PYTHON'
import statistics
import sys

out, pairs = sys.argv[1], int(sys.argv[2])


def rows(path, first_value):
    """Markdown table rows of path as {first column: [numbers from column first_value on]}."""
    table = {}
    for line in open(path):
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if len(cells) <= first_value or cells[0] in table:
            continue
        try:
            table[cells[0]] = [float(c.replace(",", "")) for c in cells[first_value:first_value + 3]]
        except ValueError:
            pass
    return table


def report(title, kind, first_value, columns, note):
    print(f"\n{title}\n")
    print("| " + " | ".join(["case"] + [f"{c}: old / new, medians" for c in columns]
                            + [f"{c}: new/old, median of pairs (range)" for c in columns]) + " |")
    print("|" + "---|" * (1 + 2 * len(columns)))
    runs = [(rows(f"{out}/{kind}-old-{i}.md", first_value), rows(f"{out}/{kind}-new-{i}.md", first_value))
            for i in range(1, pairs + 1)]
    for case in runs[0][0]:
        if not all(case in old and case in new for old, new in runs):
            continue
        levels, ratios = [], []
        for k in range(len(columns)):
            old = [o[case][k] for o, _ in runs]
            new = [n[case][k] for _, n in runs]
            r = sorted(n / o for o, n in zip(old, new))
            levels.append(f"{statistics.median(old):,.1f} / {statistics.median(new):,.1f}")
            ratios.append(f"{statistics.median(r):.2f} ({r[0]:.2f}-{r[-1]:.2f})")
        print("| " + " | ".join([case] + levels + ratios) + " |")
    print(f"\n{note}")


report("step_bench: steps/s", "step", 3, ["steps/s"], "Above 1: the new code steps faster.")
report("lcp_bench: median solve time [us]", "lcp", 3, ["standard", "structural", "reduced"],
       "Below 1: the new code solves faster.")
PYTHON
