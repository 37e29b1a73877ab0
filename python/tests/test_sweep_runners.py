"""One sweep, four runners, one table: `pivot sweep --jobs 2`, GNU parallel over `--index`,
`python3 -m pivot.sweep` on a LocalCluster, and a real dask-scheduler with two dask-workers
of which one is killed mid-sweep. Rows must be equal in every column but the timing one."""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import pivot
import pivot.sweep
import pytest
from distributed import Client

SAMPLES = 200


@pytest.fixture(scope="module")
def sweep_file(tmp_path_factory, scenes):
    # The box on a plane pushed sideways: 10 x 20 samples of 1 s (100 steps) each.
    path = tmp_path_factory.mktemp("sweep") / "box.json"
    path.write_text(json.dumps({
        "scene": str(scenes / "box_on_plane.json"),
        "duration": 1.0,
        "parameters": [
            {"target": "mu", "range": {"from": 0.0, "to": 0.9, "count": 10}},
            {"target": "box.rotate.z", "range": {"from": 0, "to": 38, "count": 20}},
        ],
        "outcomes": {"poses": ["box"], "predicates": {"turned": "box.qz > 0.1"}},
    }))
    return path


def deterministic(table_path):
    """The table's lines without their last (timing) cell."""
    lines = table_path.read_text().splitlines()
    return [line.rsplit(",", 1)[0] for line in lines]


@pytest.fixture(scope="module")
def local_table(tmp_path_factory, cli, sweep_file):
    out = tmp_path_factory.mktemp("local") / "local.csv"
    subprocess.run([cli, "sweep", str(sweep_file), "--jobs", "2", "--out", str(out)],
                   check=True, capture_output=True)
    table = deterministic(out)
    assert len(table) == SAMPLES + 1
    return table


def test_python_runs_the_row_the_cli_prints(cli, sweep_file, local_table):
    sweep = pivot.Sweep(str(sweep_file))
    assert len(sweep) == SAMPLES
    assert ",".join(sweep.columns) == local_table[0] + ",solve_ms"
    assert ",".join(sweep.run(123)).rsplit(",", 1)[0] == local_table[124]


def test_gnu_parallel_over_index_gives_the_local_table(cli, sweep_file, local_table):
    header = subprocess.run([cli, "sweep", str(sweep_file), "--columns"], check=True,
                            capture_output=True, text=True).stdout
    rows = subprocess.run(["parallel", "-k", "-j", "2", cli, "sweep", str(sweep_file), "--index",
                           "{}", ":::"] + [str(i) for i in range(SAMPLES)],
                          check=True, capture_output=True, text=True).stdout
    lines = (header + rows).splitlines()
    assert [line.rsplit(",", 1)[0] for line in lines] == local_table


def test_module_on_a_local_cluster_gives_the_local_table(tmp_path, sweep_file, local_table):
    out = tmp_path / "dask.csv"
    run = subprocess.run([sys.executable, "-m", "pivot.sweep", str(sweep_file), "--workers", "2",
                          "--out", str(out)], capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stderr
    assert deterministic(out) == local_table
    sidecar = json.loads((tmp_path / "dask.csv.json").read_text())
    assert sidecar["rows"] == SAMPLES and sidecar["timing_columns"] == ["solve_ms"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class KillAfter:
    """A progress stream that kills a worker once `after` samples are reported done."""

    def __init__(self, worker, after):
        self.worker, self.after, self.killed_at = worker, after, None

    def write(self, text):
        done = text.split("/")[0].rsplit(" ", 1)[-1] if "/" in text else ""
        if self.killed_at is None and done.isdigit() and int(done) >= self.after:
            self.worker.send_signal(signal.SIGKILL)
            self.worker.wait()
            self.killed_at = int(done)

    def flush(self):
        pass


def test_dask_cluster_loses_no_sample_when_a_worker_is_killed(tmp_path, sweep_file, local_table):
    address = f"tcp://127.0.0.1:{free_port()}"
    env = dict(os.environ)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env}
    scheduler = subprocess.Popen(["dask-scheduler", "--host", "127.0.0.1", "--port",
                                  address.rsplit(":", 1)[1], "--dashboard-address", ":0"], **quiet)
    workers = [subprocess.Popen(["dask-worker", address, "--nworkers", "1", "--nthreads", "1",
                                 "--no-dashboard", "--local-directory", str(tmp_path / f"w{k}")],
                                **quiet)
               for k in range(2)]
    try:
        with Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
            out = tmp_path / "cluster.csv"
            # Chunks of 2 samples: 100 tasks, so both workers hold work when one dies.
            progress = KillAfter(workers[0], after=40)
            rows = pivot.sweep.run(str(sweep_file), client, str(out), chunk_size=2,
                                   progress=progress)
            assert progress.killed_at is not None and progress.killed_at < SAMPLES
            assert workers[0].returncode == -signal.SIGKILL
            deadline = time.time() + 30
            while len(client.scheduler_info()["workers"]) != 1 and time.time() < deadline:
                time.sleep(0.1)
            assert len(client.scheduler_info()["workers"]) == 1
        assert rows == SAMPLES
        assert deterministic(out) == local_table
    finally:
        for p in workers + [scheduler]:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
