#!/usr/bin/env bash
# The whole test suite, from a bare Debian 12 machine: installs packages, builds Release
# and runs all of CTest (the viewer tests open real windows under xvfb-run with Mesa),
# then does the same under AddressSanitizer + UndefinedBehaviorSanitizer (all but the tests
# labelled heavy, tests/heavy_tests.cmake), and last runs each libFuzzer target of fuzz/
# for 30 s, as many at once as there are cores (clang-14; any crash, hang or sanitizer
# report fails the suite; docs/robustness.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
export LIBGL_ALWAYS_SOFTWARE=1
for flavour in release asan; do
  echo "=== $flavour: build"
  scripts/build.sh "$flavour"
  dir=build; filter=()
  if [[ $flavour == asan ]]; then
    dir=build-asan; filter=(-LE heavy)
    echo "=== asan: the tests labelled heavy ran in the release pass only (tests/heavy_tests.cmake)"
  fi
  echo "=== $flavour: test"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$dir" --output-on-failure -j "$(nproc)" "${filter[@]}"
  if [[ $flavour == release ]]; then
    # A renamed test would drop out of the heavy list without a word from CTest; checked
    # here, before the long sanitizer build, so such a run fails early.
    listed=$(grep -cE '^  [A-Za-z0-9_]+\.[A-Za-z0-9_]+$' tests/heavy_tests.cmake)
    labelled=$(ctest --test-dir build -N -L heavy | grep -cE 'Test +#')
    if (( listed != labelled )); then
      echo "tests/heavy_tests.cmake names $listed tests, of which $labelled exist" >&2
      exit 1
    fi
  fi
done
echo "=== fuzz: build"
scripts/build.sh fuzz
fuzz/run.sh build-fuzz 30
echo "=== all tests passed (release, asan and 30 s of each fuzz target)"
