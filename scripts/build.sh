#!/usr/bin/env bash
# Configures and builds one flavour of Pivot.
#   scripts/build.sh run       -> build/          (Release, the programs only: needs none of
#                                                  the test packages; scripts/run.sh)
#   scripts/build.sh release   -> build/          (Release, programs, tests and benchmarks)
#   scripts/build.sh asan      -> build-asan/     (RelWithDebInfo at -g1 + ASan + UBSan, no benchmarks;
#                                                  the Python tests preload the ASan runtime)
#   scripts/build.sh fuzz      -> build-fuzz/     (clang-14 libFuzzer targets of fuzz/, ASan + UBSan)
#   scripts/build.sh soak      -> build-soak/     (Release, lcp_soak and scene_soak only;
#                                                  docs/robustness.md)
# PIVOT_JOBS overrides the number of parallel jobs (default: all cores). For the suite's
# own check of a flavour: PIVOT_BUILD_DIR overrides the build folder, PIVOT_CMAKE_ARGS adds
# configure arguments (split on spaces) and PIVOT_CONFIGURE_ONLY=1 stops after configuring.
set -euo pipefail
cd "$(dirname "$0")/.."
flavour="${1:-release}"
jobs="${PIVOT_JOBS:-$(nproc)}"
targets=()
# The sanitizer flavours keep line tables only (-g1): a report names every frame's file and
# line, and the compile takes a quarter less time than with -g (narrowphase.cpp: half).
line_tables=("-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")
case "$flavour" in
  run)     dir=build;      args=(-DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DPIVOT_BUILD_BENCH=OFF) ;;
  release) dir=build;      args=(-DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON -DPIVOT_BUILD_BENCH=ON) ;;
  asan)    dir=build-asan; args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPIVOT_SANITIZE=ON -DPIVOT_BUILD_BENCH=OFF
                                  "${line_tables[@]}") ;;
  fuzz)    dir=build-fuzz; targets=(--target fuzz)
           args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPIVOT_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-14
                 -DCMAKE_C_COMPILER=clang-14 -DBUILD_TESTING=OFF -DPIVOT_BUILD_VIEWER=OFF
                 -DPIVOT_BUILD_BENCH=OFF -DPIVOT_BUILD_PYTHON=OFF "${line_tables[@]}") ;;
  soak)    dir=build-soak; targets=(--target lcp_soak scene_soak)
           args=(-DCMAKE_BUILD_TYPE=Release -DPIVOT_BUILD_VIEWER=OFF -DBUILD_TESTING=OFF) ;;
  *) echo "build.sh: unknown flavour '$flavour' (run | release | asan | fuzz | soak)" >&2; exit 2 ;;
esac
dir="${PIVOT_BUILD_DIR:-$dir}"
read -r -a extra <<< "${PIVOT_CMAKE_ARGS:-}"
cmake -S . -B "$dir" "${args[@]}" "${extra[@]}" > "$dir.configure.log" 2>&1 ||
  { cat "$dir.configure.log"; exit 1; }
[[ "${PIVOT_CONFIGURE_ONLY:-0}" == 1 ]] && exit 0
cmake --build "$dir" -j "$jobs" "${targets[@]}"
