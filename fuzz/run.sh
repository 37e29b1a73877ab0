#!/usr/bin/env bash
# Runs the fuzz targets of a built fuzz tree (scripts/build.sh fuzz), as many at once as the
# machine has cores (FUZZ_JOBS), each from its seeds plus what earlier runs found, and fails
# when any target ends in a crash, leak, timeout or sanitizer report (libFuzzer exits
# non-zero and leaves crash-*/timeout-* in the work directory).
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
jobs="${FUZZ_JOBS:-$(nproc)}"
# A single input that takes this long is a hang, and a failure like a crash.
per_input_timeout=10

# Runs one target to its bound; its whole output goes to its work directory's log.txt.
fuzz_one() {
  local target="$1" exe="$build/fuzz/${1}_fuzz" work="$build/fuzz/work/$1"
  mkdir -p "$work/corpus"
  local limits=(-max_total_time="$seconds") dict=()
  [[ -n "${FUZZ_RUNS:-}" ]] && limits=(-runs="$FUZZ_RUNS")
  [[ -f "$build/fuzz/$target.dict" ]] && dict=(-dict="$build/fuzz/$target.dict")
  # detect_leaks stays on: a leak on a rejected input is a bug like any other.
  ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$exe" "${limits[@]}" -timeout="$per_input_timeout" -rss_limit_mb=2048 -max_len=65536 \
    "${dict[@]}" -artifact_prefix="$work/" -print_final_stats=1 \
    "$work/corpus" "$build/fuzz/seeds/$target" > "$work/log.txt" 2>&1
}

declare -A pid_of=()
failed=()
# Waits for one running target and reports it; a failed one is remembered, not fatal yet,
# so every target started still finishes and leaves its log.
reap_one() {
  local done_pid status=0 target
  wait -n -p done_pid || status=$?
  for target in "${!pid_of[@]}"; do
    [[ ${pid_of[$target]} == "$done_pid" ]] || continue
    unset "pid_of[$target]"
    local work="$build/fuzz/work/$target"
    if (( status != 0 )); then
      tail -n 60 "$work/log.txt"
      echo "fuzz $target: FAILED; the input is in $work/ (see $work/log.txt)" >&2
      failed+=("$target")
    else
      echo "=== fuzz $target: done"
      grep -E "^stat::number_of_executed_units|^Done" "$work/log.txt" || true
    fi
  done
}

for target in "${targets[@]}"; do
  while (( ${#pid_of[@]} >= jobs )); do reap_one; done
  echo "=== fuzz $target: ${FUZZ_RUNS:-$seconds s} ${FUZZ_RUNS:+runs}"
  fuzz_one "$target" &
  pid_of[$target]=$!
done
while (( ${#pid_of[@]} > 0 )); do reap_one; done
(( ${#failed[@]} == 0 )) || { echo "fuzz: failed targets: ${failed[*]}" >&2; exit 1; }
