#!/usr/bin/env bash
# The whole test suite, from a bare Debian 12 machine: installs packages, builds Release
# and runs all of CTest (the viewer tests open real windows under xvfb-run with Mesa),
# then does the same under AddressSanitizer + UndefinedBehaviorSanitizer, and last runs
# each libFuzzer target of fuzz/ for 30 s (clang-14; any crash, hang or sanitizer report
# fails the suite; docs/robustness.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
export LIBGL_ALWAYS_SOFTWARE=1
for flavour in release asan; do
  echo "=== $flavour: build"
  scripts/build.sh "$flavour"
  dir=build; [[ $flavour == asan ]] && dir=build-asan
  echo "=== $flavour: test"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$dir" --output-on-failure -j "$(nproc)"
done
echo "=== fuzz: build"
scripts/build.sh fuzz
fuzz/run.sh build-fuzz 30
echo "=== all tests passed (release, asan and 30 s of each fuzz target)"
