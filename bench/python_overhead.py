"""What stepping from Python costs over the `pivot` program: the 16-contact peg of
scenes/peg_in_hole.json stepped 10,000 times by `pivot run` (its own wall time of the
stepping loop, --json), by World.step() once per step, and by one World.step(10000).
Each is run REPEAT times in turn; prints the medians and the ratios to `pivot run`
(docs/benchmarks.md). The budget (issue 17): per step at most 1.3x, batched 1.05x.

    PYTHONPATH=build/python python3 bench/python_overhead.py build/pivot [REPEAT]
"""

import json
import pathlib
import statistics
import subprocess
import sys
import time

import pivot

SCENE = pathlib.Path(__file__).resolve().parents[1] / "scenes" / "peg_in_hole.json"
STEPS = 10_000


def cli_seconds(cli):
    h = pivot.load_scene(str(SCENE)).time_step
    out = subprocess.run([cli, "run", str(SCENE), "--duration", str(STEPS * h), "--json"],
                         check=True, capture_output=True, text=True).stdout
    summary = json.loads(out)
    assert summary["steps"] == STEPS
    return summary["wall_time_s"]


def python_seconds(batched):
    world = pivot.World(pivot.load_scene(str(SCENE)))
    start = time.perf_counter()
    if batched:
        world.step(STEPS)
    else:
        for _ in range(STEPS):
            world.step()
    elapsed = time.perf_counter() - start
    assert world.step_count == STEPS
    return elapsed


def main():
    cli = sys.argv[1]
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    runs = {"pivot run": [], "step() per step": [], "step(10000)": []}
    for _ in range(repeat):  # in turn, so drift of a shared machine hits all alike
        runs["pivot run"].append(cli_seconds(cli))
        runs["step() per step"].append(python_seconds(batched=False))
        runs["step(10000)"].append(python_seconds(batched=True))
    base = runs["pivot run"]
    print(f"{STEPS} steps of {SCENE.name}, {repeat} runs each (median, min-max) [s]")
    for name, times in runs.items():
        # Ratios pair by pair (run k against run k of pivot run), then their median.
        ratio = statistics.median(t / b for t, b in zip(times, base))
        print(f"{name:16s} {statistics.median(times):7.3f}  ({min(times):.3f}-{max(times):.3f})"
              f"   ratio to pivot run {ratio:.3f}")


if __name__ == "__main__":
    main()
