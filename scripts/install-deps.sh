#!/usr/bin/env bash
# Installs the Debian 12 packages Pivot needs. Idempotent and non-interactive: does
# nothing when everything is present; runs apt-get as root or through sudo.
#   scripts/install-deps.sh            build + run packages (scripts/run.sh; EGL and Mesa's
#                                      drivers for `pivot render` without a display)
#   scripts/install-deps.sh --test     also what the test suite needs (GoogleTest, Google
#                                      Benchmark, Xvfb, ffmpeg and ffprobe for the videos
#                                      of the viewer and `pivot render`, clang fuzzing,
#                                      pytest, matplotlib and pandas for the Python
#                                      module's tests and examples, Dask distributed and
#                                      GNU parallel for the sweep runners' tests)
#   scripts/install-deps.sh --bench    also the benchmarks' peer engines, used only with
#                                      -DPIVOT_BENCH_PEERS=ON (ODE for step_bench and
#                                      pile_bench, DART for those and lcp_bench)
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  libeigen3-dev libccd-dev libfcl-dev
  libglfw3-dev libgl-dev libimgui-dev libstb-dev python3-glad
  libegl1 libegl-mesa0 libgl1-mesa-dri
  nlohmann-json3-dev libcli11-dev
  pybind11-dev python3-dev python3-numpy
)
if [[ "${1:-}" == "--test" || "${1:-}" == "--bench" ]]; then
  packages+=(libgtest-dev libbenchmark-dev xvfb xauth ffmpeg clang-14
             libclang-rt-14-dev python3-pytest python3-matplotlib python3-pandas
             python3-distributed parallel)
fi
if [[ "${1:-}" == "--bench" ]]; then
  packages+=(libode-dev libdart-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
