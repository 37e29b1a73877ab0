#!/usr/bin/env bash
# The installed package works for a project of its own: installs the build into a fresh
# prefix, configures and builds examples/cpp with only find_package(pivot), runs it on a
# resting stack and checks that its contact impulses carry the stack's weight for one step.
# With PYTHON (the build has the module), also imports the module installed in the
# prefix's SITE folder, with PRELOAD (the sanitizer runtimes of a sanitized build) preloaded.
#   install_example_test.sh SOURCE_DIR BUILD_DIR WORK_DIR CXX_COMPILER [PYTHON SITE [PRELOAD]]
set -euo pipefail
source_dir="${1:?usage: install_example_test.sh SOURCE_DIR BUILD_DIR WORK_DIR CXX_COMPILER}"
build_dir="${2:?}"
work="${3:?}"
cxx="${4:?}"
python="${5:-}"
site="${6:-}"
preload="${7:-}"
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build_dir" --prefix "$work/prefix" > "$work/install.log"
# Only the prefix: nothing of the source or build tree may be needed.
cmake -S "$source_dir/examples/cpp" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release > "$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/build/contact_impulses" "$source_dir/scenes/block_stack_2.json" 100 | tee "$work/out.txt"
# A resting stack: eight contacts, and the fixed ground pushes up with the weight of both
# blocks for one step. Relative 1e-9: the LCP is solved to round-off, the stack is at rest.
contacts=$(sed -n 's/^t = .*, \([0-9]*\) contacts$/\1/p' "$work/out.txt")
[[ "$contacts" == 8 ]] || { echo "expected 8 contacts, got '$contacts'"; exit 1; }
ground=$(sed -n 's/^vertical impulse from fixed bodies *//p' "$work/out.txt" | cut -d' ' -f1)
weight=$(sed -n 's/^weight x h *//p' "$work/out.txt" | cut -d' ' -f1)
awk -v a="$ground" -v b="$weight" 'BEGIN { d = a - b; if (d < 0) d = -d;
  if (!(b > 0 && d <= 1e-9 * b)) { print "ground " a " N s, weight x h " b " N s"; exit 1 } }'
echo "installed package builds and runs examples/cpp"
if [[ -n "$python" ]]; then
  LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 PYTHONPATH="$work/prefix/$site" "$python" -c \
    'import pivot, sys; assert pivot.__file__.startswith(sys.argv[1]), pivot.__file__; print("installed module", pivot.__file__)' \
    "$work/prefix/"
fi
