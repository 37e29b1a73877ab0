#!/usr/bin/env bash
# The main job, from a bare Debian 12 machine: installs packages, builds Release, then
# opens the viewer when a display is present, otherwise runs the same job headless and
# prints a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh run
scene="${1:-scenes/peg_in_hole.json}"  # the viewer's default scene
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
  exec build/pivot-viewer "$scene"
fi
echo "=== no display: running $scene headless for 5 s of simulated time"
exec build/pivot run "$scene" --duration 5
