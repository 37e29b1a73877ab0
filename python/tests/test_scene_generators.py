"""The shipped scenes written by a generator in bench/ are what it writes: the bin of issue
21 is reproducible from its seed, and an edit to either shows here."""

import subprocess
import sys


def test_bin_pile_40_is_what_bin_pile_scene_writes(source_dir, scenes):
    done = subprocess.run([sys.executable, str(source_dir / "bench" / "bin_pile_scene.py"), "40", "1"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (scenes / "bin_pile_40.json").read_text()
