"""A scene stepped from Python and recorded gives the same files, byte for byte, as
`pivot run --record`, whether stepped one call per step or in one step(n)."""

import subprocess

import numpy as np
import pivot
import pytest

STEPS = 150  # 1.5 s of peg_in_hole: the push starts at 0.1 s, the head seats before 1 s


@pytest.fixture(scope="module")
def cli_recording(tmp_path_factory, cli, scenes):
    path = tmp_path_factory.mktemp("cli") / "run.csv"
    subprocess.run([cli, "run", str(scenes / "peg_in_hole.json"), "--duration", "1.5",
                    "--record", str(path)], check=True, capture_output=True)
    return path


@pytest.mark.parametrize("per_call", [True, False])
def test_python_recording_is_bit_identical_to_pivot_run(tmp_path, cli_recording, scenes,
                                                         per_call):
    scene_path = str(scenes / "peg_in_hole.json")
    world = pivot.World(pivot.load_scene(scene_path))
    path = tmp_path / "py.csv"
    with pivot.RecordingWriter(str(path), world, scene_path=scene_path) as rec:
        rec.record(world)
        if per_call:
            for _ in range(STEPS):
                world.step()
                rec.record(world)
        else:
            world.step(STEPS, recorder=rec)
    assert path.read_bytes() == cli_recording.read_bytes()
    assert (tmp_path / "py.csv.json").read_bytes() == \
        cli_recording.with_name("run.csv.json").read_bytes()


def test_read_recording_gives_the_worlds_states(tmp_path, scenes):
    world = pivot.World(pivot.load_scene(str(scenes / "block_stack_2.json")))
    path = tmp_path / "r.csv"
    states = []
    with pivot.RecordingWriter(str(path), world, record_every=5) as rec:
        for _ in range(4):
            world.step(5, recorder=rec)
            states.append(world.positions)
    recording = pivot.read_recording(str(path))
    assert len(recording) == 4
    assert recording.body_names == world.body_names
    np.testing.assert_array_equal(recording.steps, [5, 10, 15, 20])
    # The CSV holds every number in a form that reads back exactly.
    np.testing.assert_array_equal(recording.positions, np.stack(states))
    assert recording.positions.shape == (4, 3, 3)
    assert recording.orientations.shape == (4, 3, 4)
    frame = recording.state(3)
    np.testing.assert_array_equal(frame.positions, world.positions)
    with pytest.raises(IndexError, match="no frame 4 in a recording of 4"):
        recording.state(4)


def test_recording_as_dataframe(tmp_path, scenes):
    world = pivot.World(pivot.load_scene(str(scenes / "block_stack_2.json")))
    path = tmp_path / "r.csv"
    with pivot.RecordingWriter(str(path), world) as rec:
        rec.record(world)
        world.step(3, recorder=rec)
    df = pivot.read_recording(str(path)).to_dataframe()
    assert list(df.columns[:4]) == ["step", "t", "body", "px"]
    assert len(df) == 4 * 3
    assert list(df[df.step == 3].body) == ["ground", "block1", "block2"]
    np.testing.assert_array_equal(df[df.step == 3][["px", "py", "pz"]].to_numpy(),
                                  world.positions)


def test_abandoned_recording_leaves_the_old_file(tmp_path, scenes):
    world = pivot.World(pivot.load_scene(str(scenes / "block_stack_2.json")))
    path = tmp_path / "r.csv"
    path.write_text("old")
    with pytest.raises(RuntimeError, match="boom"):
        with pivot.RecordingWriter(str(path), world) as rec:
            rec.record(world)
            raise RuntimeError("boom")
    assert path.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]
