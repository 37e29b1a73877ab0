"""Samples per second of the peg insertion sweep (examples/sweeps/peg_insertion.json, 400
samples of 0.5 s) on each runner, and what each adds per sample to a bare `pivot run` of
the same scene (docs/benchmarks.md, docs/sweeps.md):

- bare: `pivot run scenes/peg_in_hole_jam.json --duration 0.5 --mu MU --json` for the
  sweep's 20 values of mu, its own wall time of the stepping loop, and the whole process;
- `pivot sweep --jobs 1` and `--jobs 2` (threads);
- GNU parallel -j 2 over `pivot sweep --index` (a process per sample);
- pivot.sweep.run on a Dask LocalCluster of 2 worker processes (started beforehand, not
  timed);
- with --slurm, the Slurm array of docs/sweeps.md (scripts/sweep-array.sbatch) on the
  cluster of SLURM_CONF, from sbatch to the last task's end, with as many tasks at once as
  the machine has cores: a task per sample over the first SLURM_SAMPLES samples, and 20
  tasks of 20 samples over all 400.

Overhead per sample = wall x parallelism / samples - bare stepping time per sample.
Each runner REPEAT times in turn, medians.

    PYTHONPATH=build/python /usr/bin/python3 bench/sweep_throughput.py build/pivot [REPEAT]
    scripts/slurm-local.sh env PYTHONPATH=build/python \\
        /usr/bin/python3 bench/sweep_throughput.py build/pivot [REPEAT] --slurm
"""

import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import tempfile
import time

import pivot
import pivot.sweep

ROOT = pathlib.Path(__file__).resolve().parents[1]
SWEEP = ROOT / "examples" / "sweeps" / "peg_insertion.json"
SCENE = ROOT / "scenes" / "peg_in_hole_jam.json"
ARRAY_JOB = ROOT / "scripts" / "sweep-array.sbatch"
# Slurm starts a wave of tasks once a second (its controller's scheduling tick), so all 400
# samples would take minutes per repeat; the first 100 measure the same per-sample cost.
SLURM_SAMPLES = 100


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


def slurm_wall(cli, work, tasks, per_task):
    """Seconds from sbatch to the end of the last of `tasks` array tasks of `per_task`
    samples each, polling squeue every 0.1 s (sbatch --wait polls every 2 to 32 s); checks
    every task wrote its rows and no error."""
    rows = work / "rows"
    shutil.rmtree(rows, ignore_errors=True)
    rows.mkdir(parents=True)
    env = dict(os.environ, PATH=f"{pathlib.Path(cli).resolve().parent}:{os.environ['PATH']}")
    start = time.perf_counter()
    job = subprocess.run(["sbatch", "--parsable", f"--array=0-{tasks - 1}", str(ARRAY_JOB),
                          str(SWEEP), str(per_task)], cwd=work, env=env, check=True,
                         capture_output=True, text=True).stdout.strip().split(";")[0]
    while subprocess.run(["squeue", "-h", "-j", job, "-o", "%i"], check=True,
                         capture_output=True, text=True).stdout.strip():
        time.sleep(0.1)
    elapsed = time.perf_counter() - start
    for t in range(tasks):
        lines = (rows / f"{t}.csv").read_text().splitlines()
        error = (rows / f"{t}.err").read_text()
        indices = [line.split(",")[0] for line in lines]
        if indices != [str(t * per_task + j) for j in range(per_task)] or error:
            raise RuntimeError(f"Slurm task {t} wrote rows {indices}, errors {error!r}")
    return elapsed


def main(cli, repeat, slurm):
    from distributed import Client, LocalCluster

    sweep = pivot.Sweep(str(SWEEP))
    samples = len(sweep)
    # The grid's last parameter, mu, varies fastest: samples 0..19 hold its 20 values.
    mus = sorted({float(sweep.run(i)[2]) for i in range(20)})
    tmp = pathlib.Path(tempfile.mkdtemp())
    out = str(tmp / "t.csv")
    indices = [str(i) for i in range(samples)]
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    times = {k: [] for k in ("bare", "bare process", "jobs 1", "jobs 2", "parallel", "dask",
                             "slurm", "slurm 20")}
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
            if slurm:
                times["slurm"].append(slurm_wall(cli, tmp, SLURM_SAMPLES, 1))
                times["slurm 20"].append(slurm_wall(cli, tmp, samples // 20, 20))
    bare = statistics.median(times["bare"])
    print(f"bare pivot run, per sample: stepping {bare * 1e3:.2f} ms, whole process "
          f"{statistics.median(times['bare process']) * 1e3:.2f} ms (mean over {len(mus)} mu)")
    print("| runner | wall [s] (min-max) | samples/s | overhead per sample [ms] |")
    print("|---|---|---|---|")
    # (times key, table label, samples at once, samples)
    runners = [("jobs 1", "jobs 1", 1, samples), ("jobs 2", "jobs 2", 2, samples),
               ("parallel", "parallel", 2, samples), ("dask", "dask", 2, samples)]
    if slurm:
        runners.append(("slurm", f"slurm, samples 0-{SLURM_SAMPLES - 1}", os.cpu_count(),
                        SLURM_SAMPLES))
        runners.append(("slurm 20", "slurm, 20 tasks of 20", os.cpu_count(), samples))
    for key, label, parallelism, n in runners:
        t = statistics.median(times[key])
        overhead = t * parallelism / n - bare
        print(f"| {label} | {t:.2f} ({min(times[key]):.2f}-{max(times[key]):.2f}) | "
              f"{n / t:.1f} | {overhead * 1e3:.2f} |")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cli", help="the pivot program")
    parser.add_argument("repeat", type=int, nargs="?", default=3, help="runs of each runner")
    parser.add_argument("--slurm", action="store_true",
                        help="also the Slurm array, on the cluster of SLURM_CONF")
    args = parser.parse_args()
    main(args.cli, args.repeat, args.slurm)
