#!/usr/bin/env bash
# The long-run soak of the shipped scenes (bench/scene_soak.cpp): every scene with every
# method for a simulated time, then the stacks for longer with the default method at
# other d and h, written as a section of docs/robustness.md. Each run ends after WALL
# seconds of wall time (a method that cannot keep up with a scene: its row says so).
#   scripts/soak-scenes.sh [SECONDS] [STACK_SECONDS] [WALL]   defaults 60, 3600 and 600
# Exits 1 when any run had a failed step or ended at its wall limit (the table is written
# either way).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
seconds="${1:-60}"
stack_seconds="${2:-3600}"
wall="${3:-600}"
# The commit the programs are built from, taken now: the runs take an hour and HEAD may move.
commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- src include bench || commit="$commit with uncommitted changes"
scripts/build.sh soak || exit 1
soak=build-soak/bench/scene_soak
out=$(mktemp -d)
failed=0
scenes=()
for s in scenes/*.json; do [[ $s == *schema* ]] || scenes+=("$s"); done
stacks=(scenes/block_tower_10.json scenes/block_stack_5.json scenes/block_stack_rotated_5.json)

"$soak" --duration "$seconds" --wall-limit "$wall" "${scenes[@]}" | tee "$out/all.md" || failed=1
{
  "$soak" --duration "$stack_seconds" --wall-limit "$wall" --method reduced "${stacks[@]}" || failed=1
  for variant in "-d 8" "-d 16" "--h 0.005"; do
    # shellcheck disable=SC2086
    "$soak" --duration "$stack_seconds" --wall-limit "$wall" --method reduced $variant "${stacks[@]}" |
      tail -n +3 || failed=1
  done
} > >(tee "$out/stacks.md")
wait $!  # the tee of the process substitution has written the whole table

begin="<!-- BEGIN scene-soak: written by scripts/soak-scenes.sh -->"
end="<!-- END scene-soak -->"
{
  echo "$begin"
  echo "### Scene soak"
  echo
  echo "Every shipped scene for $seconds s of simulated time with each method, then the three"
  echo "stacks for $stack_seconds s with the default method at the scene's d and h, at d = 8"
  echo "and 16, and at h = 0.005 s. A run stops after 10 failed steps or $wall s of wall time"
  echo "(\"of N (wall limit)\": the method did not keep up). Largest displacement: of any"
  echo "dynamic body from where it started (the drift of a scene at rest)."
  echo
  echo "- machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; date: $(date -u +%Y-%m-%d)"
  echo "- command: \`scripts/soak-scenes.sh $seconds $stack_seconds $wall\` at $commit"
  echo
  cat "$out/all.md"
  echo
  cat "$out/stacks.md"
  echo "$end"
} > "$out/section.md"
scripts/replace-doc-section.sh docs/robustness.md "$begin" "$end" "$out/section.md"
rm -rf "$out"
echo "soak-scenes: wrote docs/robustness.md"
exit "$failed"
