"""Errors cross into Python as exceptions carrying libpivot's message: InputError with
file:line:column for bad files, ValueError for bad arguments, SolverFailure naming the
problem file it wrote."""

import numpy as np
import pivot
import pytest


def test_bad_scene_file_raises_input_error_with_place(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{\n  "version": 1,\n  "bodies": [\n    {"name": 3}\n  ]\n}\n')
    with pytest.raises(pivot.InputError) as error:
        pivot.load_scene(str(path))
    e = error.value
    assert (e.file, e.line, e.column) == (str(path), 4, 14)
    assert str(e) == f"{path}:4:14: {e.message}"
    assert "name" in e.message
    assert isinstance(e, ValueError)


def test_scene_from_dict_error_names_the_label():
    with pytest.raises(pivot.InputError, match=r"^mine\.json:\d+:\d+: .*'bodies'"):
        pivot.scene_from_json({"version": 1, "bodies": 3}, name="mine.json")


def test_missing_file_raises_input_error(tmp_path):
    with pytest.raises(pivot.InputError, match="nothing.json"):
        pivot.load_scene(str(tmp_path / "nothing.json"))


def test_bad_problem_file_names_its_line(tmp_path):
    path = tmp_path / "p.lcp"
    path.write_text("pivot-lcp 1\nn 2\nM\n1 0\n0 x\nq 1 1\n")
    with pytest.raises(pivot.InputError) as error:
        pivot.solve_contact_problem(str(path))
    assert error.value.line == 5
    assert str(error.value).startswith(f"{path}:5: ")


def test_bad_settings_and_arguments_raise_value_error(scenes):
    world = pivot.World(pivot.load_scene(str(scenes / "block_stack_2.json")))
    with pytest.raises(ValueError, match=r"^d must be in \[2, 256\]$"):
        world.d = 1
    with pytest.raises(ValueError, match="method must be standard, structural or reduced, got 'x'"):
        world.method = "x"
    with pytest.raises(ValueError, match="nonconvex must be max, sum or off"):
        world.nonconvex = "min"
    with pytest.raises(ValueError, match="mu must be finite and >= 0"):
        world.mu = -1
    with pytest.raises(ValueError, match="h must be finite and > 0"):
        world.h = 0
    with pytest.raises(ValueError, match=r"force must be an array of shape \(1, 3\)"):
        world.set_applied_wrench("block1", (1, 2))
    with pytest.raises(ValueError, match="applied wrench is not finite|not finite"):
        world.set_applied_wrench("block1", (np.nan, 0, 0))
    with pytest.raises(IndexError, match="no body 7 in a scene of 3"):
        world.set_applied_wrench(7, (0, 0, 1))
    with pytest.raises(KeyError, match="no material named 'oak'"):
        world.set_material_friction("oak", 0.2)
    with pytest.raises(ValueError, match="step\\(n\\): n must be >= 1"):
        world.step(0)
    # Nothing above changed the world's settings.
    assert (world.d, world.method, world.nonconvex, world.mu) == (4, "reduced", "max", None)


def test_state_of_another_scene_is_refused_with_libpivots_message(scenes):
    two = pivot.World(pivot.load_scene(str(scenes / "block_stack_2.json")))
    five = pivot.World(pivot.load_scene(str(scenes / "block_stack_5.json")))
    with pytest.raises(ValueError, match="^state has 6 bodies, the scene 3$"):
        two.set_state(five.get_state())
    state = two.get_state()
    quaternions = state.orientations
    quaternions[2] = (2.0, 0.0, 0.0, 0.0)  # the last one wrong: nothing may be written
    quaternions[1] = (0.0, 1.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="unit quaternions"):
        state.orientations = quaternions
    np.testing.assert_array_equal(state.orientations[1], (1.0, 0.0, 0.0, 0.0))
    state.carried_substeps = 0
    with pytest.raises(ValueError, match="^state's carried_substeps must be 1 to 64, got 0$"):
        two.set_state(state)


def test_solver_failure_carries_the_problem_file(tmp_path, scenes):
    failure_dir = tmp_path / "made" / "when missing"
    world = pivot.World(pivot.load_scene(str(scenes / "block_stack_2.json")),
                        failure_dir=str(failure_dir), max_pivots=1)
    assert failure_dir.is_dir()
    with pytest.raises(pivot.SolverFailure) as error:
        world.step(10)
    problem = error.value.problem_file
    assert problem in str(error.value)
    assert isinstance(error.value, RuntimeError)
    # The problem written is one the solver answers without the pivot limit.
    assert pivot.solve_contact_problem(problem).solved


def test_failure_dir_that_cannot_be_made_is_reported_before_any_step(tmp_path, scenes):
    blocker = tmp_path / "a file"
    blocker.write_text("")
    with pytest.raises(RuntimeError, match="^cannot create failure_dir '.*a file/dir': "):
        pivot.World(pivot.load_scene(str(scenes / "block_stack_2.json")),
                    failure_dir=str(blocker / "dir"))
