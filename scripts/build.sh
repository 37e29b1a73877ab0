#!/usr/bin/env bash
# Configures and builds one flavour of Pivot.
#   scripts/build.sh release   -> build/          (Release)
#   scripts/build.sh asan      -> build-asan/     (RelWithDebInfo + ASan + UBSan, no benchmarks)
#   scripts/build.sh fuzz      -> build-fuzz/     (clang-14 libFuzzer targets of fuzz/, ASan + UBSan)
#   scripts/build.sh soak      -> build-soak/     (Release, lcp_soak only; docs/robustness.md)
# PIVOT_JOBS overrides the number of parallel jobs (default: all cores).
set -euo pipefail
cd "$(dirname "$0")/.."
flavour="${1:-release}"
jobs="${PIVOT_JOBS:-$(nproc)}"
targets=()
case "$flavour" in
  release) dir=build;      args=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan)    dir=build-asan; args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPIVOT_SANITIZE=ON -DPIVOT_BUILD_BENCH=OFF) ;;
  fuzz)    dir=build-fuzz; targets=(--target fuzz)
           args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPIVOT_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-14
                 -DCMAKE_C_COMPILER=clang-14 -DBUILD_TESTING=OFF -DPIVOT_BUILD_VIEWER=OFF
                 -DPIVOT_BUILD_BENCH=OFF) ;;
  soak)    dir=build-soak; targets=(--target lcp_soak)
           args=(-DCMAKE_BUILD_TYPE=Release -DPIVOT_BUILD_VIEWER=OFF -DBUILD_TESTING=OFF) ;;
  *) echo "build.sh: unknown flavour '$flavour' (release | asan | fuzz | soak)" >&2; exit 2 ;;
esac
cmake -S . -B "$dir" "${args[@]}" > "$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
cmake --build "$dir" -j "$jobs" "${targets[@]}"
