#!/usr/bin/env bash
# The README's first command (scripts/run.sh) builds the `run` flavour on a machine without
# the test packages. This configures that flavour with every test-only package and program
# out of reach (hide_test_packages.cmake) and fails when configuring fails.
#   run_flavour_test.sh SOURCE_DIR WORK_DIR
set -euo pipefail
source_dir="${1:?usage: run_flavour_test.sh SOURCE_DIR WORK_DIR}"
work="${2:?usage: run_flavour_test.sh SOURCE_DIR WORK_DIR}"
rm -rf "$work"
mkdir -p "$work"
PIVOT_BUILD_DIR="$work/build" PIVOT_CONFIGURE_ONLY=1 \
  PIVOT_CMAKE_ARGS="-DCMAKE_PROJECT_INCLUDE_BEFORE=$source_dir/tests/setup/hide_test_packages.cmake" \
  bash "$source_dir/scripts/build.sh" run
echo "run flavour configures without the test packages"
