#!/usr/bin/env bash
# The viewer's own drawing per frame (scene, overlays, ImGui; no simulation) for every
# shipped scene under Xvfb with Mesa's software rasteriser (llvmpipe), at the default
# 1280 x 800 window. Builds Release pivot-viewer in build-bench/, runs each scene for
# warm-up + 100 frames with --frame-stats, prints the table and rewrites the viewer section
# of docs/benchmarks.md (between its markers; other sections are kept).
#   scripts/bench-viewer.sh
#   PIVOT_VIEWER=path/to/pivot-viewer scripts/bench-viewer.sh   time another build
set -euo pipefail
cd "$(dirname "$0")/.."

dir=build-bench
viewer=${PIVOT_VIEWER:-}
if [[ -z $viewer ]]; then
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPIVOT_BUILD_VIEWER=ON > "$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log"; exit 1; }
  cmake --build "$dir" --target pivot-viewer -j 2
  viewer=$dir/pivot-viewer
fi

# The first frames compile shaders (llvmpipe JIT); --frame-stats summarises the last 100.
warmup=30
frames=$((warmup + 100))
out=$dir/viewer
mkdir -p "$out"
# A configuration directory of its own: the user's saved panel layout is not measured.
export XDG_CONFIG_HOME=$PWD/$out/config
rm -rf "$XDG_CONFIG_HOME"
table=$out/table.md
renderer=""
{
  echo "| scene | median draw [ms] | p95 draw [ms] | all opaque: median [ms] | p95 [ms] |"
  echo "|---|---|---|---|---|"
} > "$table"
# "median p95" of a finished run's log, or nothing.
draw_times() { sed -n 's/^draw time .*: median \([0-9.]*\) ms, p95 \([0-9.]*\) ms$/\1 \2/p' "$1"; }
failed=0
for scene in scenes/*.json; do
  [[ $scene == *schema* ]] && continue
  name=$(basename "$scene")
  log=$out/${name%.json}.txt
  status=0
  LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s '-screen 0 1280x800x24' \
    "$viewer" "$scene" --frames "$frames" --frame-stats > "$log" 2>&1 || status=$?
  # The same scene with every body opaque: what the translucent containers cost.
  script=$out/${name%.json}.opaque.txt
  printf 'load %s\nalpha fixed 1\nalpha moving 1\nplay\nwait %d\nquit\n' "$scene" "$frames" > "$script"
  opaque_log=$out/${name%.json}.opaque.txt.log
  LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s '-screen 0 1280x800x24' \
    "$viewer" --script "$script" --frame-stats > "$opaque_log" 2>&1 || status=$?
  found=$(sed -n 's/^GL renderer: //p' "$log")
  renderer=${found:-$renderer}
  median="" p95="" opaque_median="" opaque_p95=""
  read -r median p95 < <(draw_times "$log") || true
  read -r opaque_median opaque_p95 < <(draw_times "$opaque_log") || true
  if [[ $status -ne 0 || -z $median || -z $opaque_median ]]; then
    echo "| \`$name\` | failed (exit $status, see $log) | | | |" | tee -a "$table"
    failed=1
    continue
  fi
  printf '| `%s` | %.1f | %.1f | %.1f | %.1f |\n' "$name" "$median" "$p95" "$opaque_median" "$opaque_p95" |
    tee -a "$table"
done

begin="<!-- BEGIN viewer-bench: written by scripts/bench-viewer.sh -->"
end="<!-- END viewer-bench -->"
section=$out/section.md
{
  echo "$begin"
  echo "## Viewer: drawing time per frame under Mesa's software rasteriser"
  echo
  echo "The viewer's own drawing per frame: wall time from its first GL call after the"
  echo "simulation to the finished frame (\`glFinish\`), covering the bodies, the ground grid,"
  echo "the overlays and the ImGui panels; the simulation and the buffer swap are not in it."
  echo "Each scene is opened as shipped, playing, in the default 1280 x 800 window under Xvfb;"
  echo "the first $warmup frames (shader compilation) are left out, the next 100 summarised."
  echo "Containers are drawn translucent as shipped (docs/viewer.md); the last two columns"
  echo "draw the same scene with every body opaque (a script: \`alpha fixed 1\`, \`alpha moving 1\`)."
  echo
  echo "- machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, shared"
  echo "  (load average at the end of the run: $(cut -d' ' -f1-3 /proc/loadavg))"
  echo "- renderer: ${renderer:-unknown}"
  echo "- date: $(date -u +%Y-%m-%d)"
  echo "- command: \`scripts/bench-viewer.sh\`, which runs \`LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s"
  echo "  '-screen 0 1280x800x24' pivot-viewer SCENE --frames $frames --frame-stats\` per scene"
  echo
  cat "$table"
  echo "$end"
} > "$section"
doc=docs/benchmarks.md
scripts/replace-doc-section.sh "$doc" "$begin" "$end" "$section"
echo "bench-viewer: wrote $doc"
exit "$failed"
