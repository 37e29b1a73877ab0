#!/usr/bin/env bash
# Lloyd's LCP experiments (bench/lcp_bench.cpp): builds Release in build-bench/, runs the
# benchmark once, plots peg-in-hole with gnuplot and rewrites the LCP section of
# docs/benchmarks.md (tables, plot, machine, command).
#   scripts/bench-lcp.sh           standard, structural and reduced Lemke
#   scripts/bench-lcp.sh --peers   also DART's and Siconos' Lemke (Debian packages)
set -euo pipefail
cd "$(dirname "$0")/.."
peers=OFF
if [[ "${1:-}" == "--peers" ]]; then peers=ON; fi

scripts/install-deps.sh
packages=(gnuplot-nox)
if [[ $peers == ON ]]; then packages+=(libdart-dev libsiconos-numerics-dev); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -q
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

dir=build-bench
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPIVOT_BUILD_VIEWER=OFF -DBUILD_TESTING=OFF \
  -DPIVOT_BENCH_PEERS="$peers" > "$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
cmake --build "$dir" --target lcp_bench -j "$(nproc)"

out="$dir/lcp"
mkdir -p "$out"
command=("$dir/bench/lcp_bench" --lcp_markdown="$out/tables.md" --lcp_plot_data="$out/peg.dat")
status=0
"${command[@]}" | tee "$out/run.txt" || status=$?

plot=docs/lcp_peg_in_hole.png
gnuplot <<GNUPLOT
set terminal pngcairo size 900,560 font ",11" noenhanced
set output "$plot"
set logscale xy
set xrange [7:36]
set xlabel "contacts n"
set ylabel "median solve time, thread CPU [us]"
set title "Peg-in-hole (Lloyd Fig. 5-6): d = 8, mu in [0.2, 0.3], 20 random wrenches"
set key left top
set grid
set xtics (8, 12, 16, 20, 24, 28, 32)
plot for [c=2:*] "$out/peg.dat" using 1:c with linespoints lw 2 pt 7 title columnheader(c)
GNUPLOT

# The LCP section of docs/benchmarks.md, between its markers (other sections are kept).
begin="<!-- BEGIN lcp-bench: written by scripts/bench-lcp.sh -->"
end="<!-- END lcp-bench -->"
section="$out/section.md"
{
  echo "$begin"
  echo "## LCP: Lloyd (2005) Sec. 5.4 reproduced"
  echo
  echo "Standard Lemke (dense M of eq. (8), \`lemke_standard.cpp\`) against Lloyd's structural and"
  echo "reduced fast Lemke (\`lemke_fast.cpp\`), one run on one machine. Times are thread CPU"
  echo "time (the machine is shared; load average at the end of the run: $(cut -d' ' -f1-3 /proc/loadavg))"
  echo "and include each method's setup from the contact problem (forming M for the dense"
  echo "solvers, \`normalize_contacts\` for the fast ones) and its own acceptance check. Every"
  echo "answer is checked again by the benchmark with the acceptance rule. See"
  echo "[lemke-fast.md](lemke-fast.md) for the method."
  echo
  echo "- machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
  echo "- date: $(date -u +%Y-%m-%d)"
  echo "- command: \`scripts/bench-lcp.sh${1:+ $1}\`, which runs \`${command[*]}\`"
  echo
  if [[ $peers == ON ]]; then
    echo "- peers: DART $(dpkg-query -W -f='${Version}' libdart-dev) \`dart::lcpsolver::Lemke\` and"
    echo "  Siconos $(dpkg-query -W -f='${Version}' libsiconos-numerics-dev) \`lcp_lexicolemke\` on the same"
    echo "  dense M (formed first, as for the standard method); their failures are answers the"
    echo "  acceptance rule rejects or that the library itself flags."
  fi
  echo
  echo "![peg-in-hole times](lcp_peg_in_hole.png)"
  cat "$out/tables.md"
  echo "$end"
} > "$section"
doc=docs/benchmarks.md
if [[ ! -f $doc ]]; then
  printf '# Benchmarks\n\nResults of the programs in `bench/`, each with its command and machine.\n\n' > "$doc"
fi
scripts/replace-doc-section.sh "$doc" "$begin" "$end" "$section"
echo "bench-lcp: wrote $doc and $plot"
exit "$status"
