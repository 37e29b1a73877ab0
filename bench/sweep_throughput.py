"""Samples per second of the peg insertion sweep (examples/sweeps/peg_insertion.json, 400
samples of 0.5 s) on each runner, and what each adds per sample to a bare `pivot run` of
the same scene (docs/benchmarks.md, docs/sweeps.md):

- bare: `pivot run scenes/peg_in_hole_jam.json --duration 0.5 --mu MU --json` for the
  sweep's 20 values of mu, its own wall time of the stepping loop, and the whole process;
- `pivot sweep --jobs 1` and `--jobs 2` (threads);
- GNU parallel -j 2 over `pivot sweep --index` (a process per sample);
- pivot.sweep.run on a Dask LocalCluster of 2 worker processes (started beforehand, not
  timed).

Overhead per sample = wall x parallelism / samples - bare stepping time per sample.
Each runner REPEAT times in turn, medians.

    PYTHONPATH=build/python /usr/bin/python3 bench/sweep_throughput.py build/pivot [REPEAT]
"""

import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import pivot
import pivot.sweep

ROOT = pathlib.Path(__file__).resolve().parents[1]
SWEEP = ROOT / "examples" / "sweeps" / "peg_insertion.json"
SCENE = ROOT / "scenes" / "peg_in_hole_jam.json"


def wall(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def bare_seconds(cli, mus):
    """Mean over mu of (stepping loop, whole process) of one `pivot run`."""
    loops, processes = [], []
    for mu in mus:
        start = time.perf_counter()
        out = subprocess.run([cli, "run", str(SCENE), "--duration", "0.5", "--mu", repr(mu),
                              "--json"], check=True, capture_output=True, text=True).stdout
        processes.append(time.perf_counter() - start)
        loops.append(json.loads(out)["wall_time_s"])
    return statistics.mean(loops), statistics.mean(processes)


def main(cli, repeat):
    from distributed import Client, LocalCluster

    sweep = pivot.Sweep(str(SWEEP))
    samples = len(sweep)
    # The grid's last parameter, mu, varies fastest: samples 0..19 hold its 20 values.
    mus = sorted({float(sweep.run(i)[2]) for i in range(20)})
    tmp = pathlib.Path(tempfile.mkdtemp())
    out = str(tmp / "t.csv")
    indices = [str(i) for i in range(samples)]
    times = {k: [] for k in ("bare", "bare process", "jobs 1", "jobs 2", "parallel", "dask")}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        for _ in range(repeat):
            loop, process = bare_seconds(cli, mus)
            times["bare"].append(loop)
            times["bare process"].append(process)
            times["jobs 1"].append(wall([cli, "sweep", str(SWEEP), "--jobs", "1", "--out", out]))
            times["jobs 2"].append(wall([cli, "sweep", str(SWEEP), "--jobs", "2", "--out", out]))
            times["parallel"].append(wall(["parallel", "-j", "2", cli, "sweep", str(SWEEP),
                                           "--index", "{}", ":::"] + indices))
            start = time.perf_counter()
            pivot.sweep.run(str(SWEEP), client, out, progress=open(os.devnull, "w"))
            times["dask"].append(time.perf_counter() - start)
    bare = statistics.median(times["bare"])
    print(f"bare pivot run, per sample: stepping {bare * 1e3:.2f} ms, whole process "
          f"{statistics.median(times['bare process']) * 1e3:.2f} ms (mean over {len(mus)} mu)")
    print("| runner | wall [s] (min-max) | samples/s | overhead per sample [ms] |")
    print("|---|---|---|---|")
    for name, parallelism in (("jobs 1", 1), ("jobs 2", 2), ("parallel", 2), ("dask", 2)):
        t = statistics.median(times[name])
        overhead = t * parallelism / samples - bare
        print(f"| {name} | {t:.2f} ({min(times[name]):.2f}-{max(times[name]):.2f}) | "
              f"{samples / t:.0f} | {overhead * 1e3:.2f} |")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3)
