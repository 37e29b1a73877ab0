#!/usr/bin/env bash
# scripts/bench-against.sh refuses what it cannot compare before it installs or builds
# anything: exit 2 and one line that names the problem.
#   bench_against_args_test.sh SOURCE_DIR
set -u
script=$1/scripts/bench-against.sh
expect() {  # expect MESSAGE [ARGS...]
  local want=$1
  shift
  local out rc
  out=$(bash "$script" "$@" 2>&1)
  rc=$?
  if [[ $rc -ne 2 || $out != "$want" ]]; then
    echo "bench-against.sh $*: exit $rc and '$out'; wanted exit 2 and '$want'"
    exit 1
  fi
}
expect "usage: scripts/bench-against.sh BASE [PAIRS]"
expect "bench-against: no commit 'no-such-commit'" no-such-commit
expect "bench-against: PAIRS must be a positive integer, got '0'" HEAD 0
expect "bench-against: PAIRS must be a positive integer, got 'three'" HEAD three
echo "bench-against.sh: 4 refusals as expected"
