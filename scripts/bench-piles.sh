#!/usr/bin/env bash
# Issue 21's scaling benchmark (bench/pile_bench.cpp): builds Release with the peers in
# build-bench/, writes piles of 10, 20, 40, 80 and 160 boxes (seed = N) and the 10 x 10 x 2
# grid with bench/pile_scene.py, and steps each with Pivot and ODE's dWorldStep, once per
# nonconvex formulation. Prints the tables; docs/benchmarks.md records them by hand.
#   scripts/bench-piles.sh [--nonconvex "off max"] [pile_bench options...]
# pile_bench's defaults: --seconds 10 --wall-limit 60 (per scene and engine, also capping
# Pivot's step), --step-limit 0 (no cap of its own).
set -euo pipefail
cd "$(dirname "$0")/.."
modes="off max"
if [[ "${1:-}" == "--nonconvex" ]]; then modes=$2; shift 2; fi

scripts/install-deps.sh --bench

dir=build-bench
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPIVOT_BUILD_VIEWER=OFF -DBUILD_TESTING=OFF \
  -DPIVOT_BENCH_PEERS=ON > "$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
cmake --build "$dir" --target pile_bench -j "$(nproc)"

out="$dir/piles"
mkdir -p "$out"
scenes=()
for n in 10 20 40 80 160; do
  /usr/bin/python3 bench/pile_scene.py "$n" "$n" > "$out/pile_$n.json"
  scenes+=("$out/pile_$n.json")
done
/usr/bin/python3 bench/pile_scene.py --grid 10 10 2 > "$out/grid_10x10x2.json"
scenes+=("$out/grid_10x10x2.json")

echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; $(uptime)"
for mode in $modes; do
  echo
  echo "nonconvex $mode: $dir/bench/pile_bench --nonconvex $mode $* ${scenes[*]}"
  "$dir/bench/pile_bench" --nonconvex "$mode" "$@" "${scenes[@]}" | tee "$out/table-$mode.md"
done
echo "machine after: $(uptime)"
