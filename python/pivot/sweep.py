"""Run a sweep's samples on a Dask distributed cluster into the table `pivot sweep` writes.

    python3 -m pivot.sweep FILE --scheduler tcp://HOST:8786 [--out results.csv] [--resume]
    python3 -m pivot.sweep FILE --workers 2          # a LocalCluster on this machine

Each task runs a chunk of sample indices through pivot.Sweep.run, the same function as
`pivot sweep FILE --index I`, so the rows equal the local run's (all but the timing column).
Workers must see the sweep file and its scene at the same paths (a shared filesystem) and
import pivot (PYTHONPATH). A worker lost mid-sweep loses no sample: the scheduler runs its
tasks again elsewhere (docs/sweeps.md).
"""

import argparse
import functools
import os
import sys

import pivot


@functools.lru_cache(maxsize=8)
def _sweep(path):
    # Once per worker process and file: reading checks every listed value against the scene.
    return pivot.Sweep(path)


def run_chunk(path, indices, failure_dir=""):
    """The rows of samples `indices` of the sweep file at `path` (runs on a worker)."""
    sweep = _sweep(path)
    return [sweep.run(i, failure_dir) for i in indices]


def chunks(indices, size):
    return [indices[k:k + size] for k in range(0, len(indices), size)]


def run(path, client, out, resume=False, chunk_size=0, failure_dir="", progress=sys.stderr):
    """Runs every sample of the sweep at `path` not already in `out` (with resume) on the
    cluster of `client`, writes the table, and returns the number of rows in it."""
    path = os.path.abspath(path)
    sweep = pivot.Sweep(path)
    sweep.validate()  # a scene the sweep makes invalid is an error before any task starts
    rows = sweep.read_table(out) if resume and os.path.exists(out) else []
    done = {int(row[0]) for row in rows}
    pending = [i for i in range(len(sweep)) if i not in done]
    if chunk_size <= 0:
        # Several chunks per worker thread so a lost worker costs little and loads balance.
        threads = max(1, sum(client.nthreads().values()))
        chunk_size = max(1, len(pending) // (8 * threads))
    parts = chunks(pending, chunk_size)
    print(f"pivot.sweep: {len(sweep)} samples, {len(pending)} to run in {len(parts)} tasks",
          file=progress)
    from distributed import as_completed

    # By reference to the importable module, also under `python3 -m pivot.sweep` (where this
    # file runs as __main__, which workers cannot import).
    import pivot.sweep as module

    futures = client.map(module.run_chunk, [path] * len(parts), parts, [failure_dir] * len(parts),
                         pure=False)
    finished = len(rows)
    try:
        for _, chunk_rows in as_completed(futures, with_results=True):
            rows.extend(chunk_rows)
            finished += len(chunk_rows)
            print(f"pivot.sweep: {finished}/{len(sweep)} samples", file=progress)
    finally:
        # Whatever finished is kept, also when interrupted: --resume runs the rest.
        sweep.write_table(out, rows)
    return len(rows)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m pivot.sweep", description=__doc__.split("\n")[0])
    parser.add_argument("file", help="sweep file (JSON, docs/sweeps.md)")
    parser.add_argument("--scheduler", help="address of a running dask scheduler, tcp://HOST:8786")
    parser.add_argument("--workers", type=int, default=0,
                        help="without --scheduler: LocalCluster worker processes (default: the cores)")
    parser.add_argument("--out", help="results CSV (+ OUT.json); default: FILE's stem.csv")
    parser.add_argument("--resume", action="store_true", help="keep the rows already in --out")
    parser.add_argument("--chunk-size", type=int, default=0, help="samples per task")
    parser.add_argument("--failure-dir", default="", help="where failed solves' problems go")
    args = parser.parse_args(argv)
    out = args.out or os.path.splitext(os.path.basename(args.file))[0] + ".csv"

    from distributed import Client, LocalCluster

    try:
        if args.scheduler:
            with Client(args.scheduler) as client:
                rows = run(args.file, client, out, args.resume, args.chunk_size, args.failure_dir)
        else:
            workers = args.workers or os.cpu_count() or 1
            with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster, Client(cluster) as client:
                rows = run(args.file, client, out, args.resume, args.chunk_size, args.failure_dir)
    except pivot.InputError as e:
        print(f"pivot.sweep: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"pivot.sweep: interrupted; the finished rows are in {out}", file=sys.stderr)
        return 130
    print(f"pivot.sweep: {rows} rows in {out} (+ {out}.json)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
