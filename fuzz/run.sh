#!/usr/bin/env bash
# Runs the fuzz targets of a built fuzz tree (scripts/build.sh fuzz), one after another,
# each from its seeds plus what earlier runs found, and fails on the first crash, leak,
# timeout or sanitizer report (libFuzzer exits non-zero and leaves crash-*/timeout-* in
# the work directory).
#   fuzz/run.sh BUILD_DIR SECONDS [TARGET...]       bounded by time (scripts/test.sh: 30)
#   FUZZ_RUNS=1000000 fuzz/run.sh BUILD_DIR 0 ...   bounded by executions instead
# Default targets: scene_file problem_file recording lcp_solve collision_pair. Work directory (kept
# corpus, crash inputs, logs): BUILD_DIR/fuzz/work/<target>/.
set -euo pipefail
build="$(cd "${1:?usage: fuzz/run.sh BUILD_DIR SECONDS [TARGET...]}" && pwd)"
seconds="${2:?usage: fuzz/run.sh BUILD_DIR SECONDS [TARGET...]}"
shift 2
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(scene_file problem_file recording lcp_solve collision_pair)
# A single input that takes this long is a hang, and a failure like a crash.
per_input_timeout=10
for target in "${targets[@]}"; do
  exe="$build/fuzz/${target}_fuzz"
  work="$build/fuzz/work/$target"
  mkdir -p "$work/corpus"
  limits=(-max_total_time="$seconds")
  [[ -n "${FUZZ_RUNS:-}" ]] && limits=(-runs="$FUZZ_RUNS")
  dict=()
  [[ -f "$build/fuzz/$target.dict" ]] && dict=(-dict="$build/fuzz/$target.dict")
  echo "=== fuzz $target: ${FUZZ_RUNS:-$seconds s} ${FUZZ_RUNS:+runs}"
  # detect_leaks stays on: a leak on a rejected input is a bug like any other.
  if ! ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      "$exe" "${limits[@]}" -timeout="$per_input_timeout" -rss_limit_mb=2048 -max_len=65536 \
      "${dict[@]}" -artifact_prefix="$work/" -print_final_stats=1 \
      "$work/corpus" "$build/fuzz/seeds/$target" > "$work/log.txt" 2>&1; then
    tail -n 60 "$work/log.txt"
    echo "fuzz $target: FAILED; the input is in $work/ (see $work/log.txt)" >&2
    exit 1
  fi
  grep -E "^stat::number_of_executed_units|^Done" "$work/log.txt" || true
done
