"""The examples under examples/python/ run as a user would run them, and say what they
must: the controller seats the peg, the plot is a PNG showing the jam held at mu 0.3 and
the peg seated at mu 0.05, the mu sweep finds the jam threshold the scene predicts."""

import re
import subprocess
import sys

import matplotlib.image
import pytest


@pytest.fixture
def run_example(source_dir, tmp_path):
    def run(name, *args):
        done = subprocess.run([sys.executable, str(source_dir / "examples" / "python" / name),
                               *args], cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout
    return run


def test_control_loop_seats_the_peg(run_example):
    assert run_example("control_loop.py").splitlines()[-1] == "seated"


def test_plot_writes_the_png(run_example, tmp_path):
    out = run_example("plot_normal_impulses.py", str(tmp_path / "f.png"))
    image = matplotlib.image.imread(str(tmp_path / "f.png"))
    assert image.shape[:2] == (380, 750)
    jammed = re.search(r"mu 0.3: rims ([\d.]+) N, seat ([\d.]+) N", out)
    slipped = re.search(r"mu 0.05: rims ([\d.]+) N, seat ([\d.]+) N", out)
    # Jammed, the rims hold at least the wedge's 533 N (the scene's closed form) and the
    # head never reaches the block; slipped in, the block carries the head.
    assert float(jammed[1]) >= 533 and float(jammed[2]) == 0.0
    assert float(slipped[2]) > 0.0


def test_mu_sweep_finds_the_jam_threshold(run_example):
    out = run_example("mu_sweep.py")
    # The threshold is mu = 60 / 533 = 0.113; the sweep's step is 0.02.
    assert "threshold between mu 0.10 and 0.12 (predicted 0.113)" in out
