#!/usr/bin/env bash
# Configures and builds one flavour of Pivot.
#   scripts/build.sh release   -> build/          (Release)
#   scripts/build.sh asan      -> build-asan/     (RelWithDebInfo + ASan + UBSan, no benchmarks)
set -euo pipefail
cd "$(dirname "$0")/.."
flavour="${1:-release}"
jobs="$(nproc)"
case "$flavour" in
  release) dir=build;      args=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan)    dir=build-asan; args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPIVOT_SANITIZE=ON -DPIVOT_BUILD_BENCH=OFF) ;;
  *) echo "build.sh: unknown flavour '$flavour' (release | asan)" >&2; exit 2 ;;
esac
cmake -S . -B "$dir" "${args[@]}" > "$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
cmake --build "$dir" -j "$jobs"
