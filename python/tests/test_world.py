"""The world from Python: state arrays and step-back, reset, live settings (mu override and
per material, gravity, d, method, nonconvex), each checked against what it must change."""

import numpy as np
import pytest
import pivot


def test_state_arrays_have_the_documented_shapes(scenes):
    world = pivot.World(pivot.load_scene(str(scenes / "block_stack_5.json")))
    b = len(world.body_names)
    assert world.positions.shape == (b, 3)
    assert world.orientations.shape == (b, 4)
    assert world.linear_velocities.shape == (b, 3)
    assert world.angular_velocities.shape == (b, 3)
    np.testing.assert_array_equal(world.orientations[:, 0], 1.0)  # w first, identity


def test_step_back_with_get_and_set_state_repeats_exactly(scenes):
    world = pivot.World(pivot.load_scene(str(scenes / "drop_and_tumble.json")))
    world.step(20)
    saved = world.get_state()
    world.step(30)
    after = world.positions, world.orientations, world.time
    world.set_state(saved)
    assert world.time == saved.time and world.step_count == 20
    world.step(30)
    np.testing.assert_array_equal(world.positions, after[0])
    np.testing.assert_array_equal(world.orientations, after[1])
    assert world.time == after[2]
    world.reset()
    assert world.time == 0.0 and world.step_count == 0


def test_written_state_moves_the_body(scenes):
    world = pivot.World(pivot.load_scene(str(scenes / "box_on_plane.json")))
    state = world.get_state()
    positions = state.positions
    positions[1, 2] += 1.0
    state.positions = positions
    velocities = state.linear_velocities
    velocities[1] = (2.0, 0.0, 0.0)
    state.linear_velocities = velocities
    world.set_state(state)
    world.step()
    # Free flight for one step: x moves by v h, and gravity's first-order step lowers z.
    h, g = world.h, world.gravity[2]
    assert world.positions[1, 0] == positions[1, 0] + 2.0 * h
    assert abs(world.positions[1, 2] - (positions[1, 2] + g * h * h)) < 1e-12


def sliding_distance(world, steps=50):
    world.set_applied_wrench(1, force=(30.0, 0.0, 0.0))
    x0 = world.positions[1, 0]
    world.step(steps)
    return world.positions[1, 0] - x0


def test_mu_override_and_material_friction_change_sliding(scenes):
    scene = pivot.load_scene(str(scenes / "box_on_plane.json"))
    mass = scene.masses[1]
    g = 9.81
    base = pivot.World(scene)
    material = scene.material_names[0]
    mu0 = base.materials[material]
    # The push is 30 N; the box slides when 30 > mu m g, sticks otherwise.
    stick_mu, slide_mu = 1.1 * 30.0 / (mass * g), 0.5 * 30.0 / (mass * g)
    world = pivot.World(scene)
    world.mu = stick_mu
    assert abs(sliding_distance(world)) < 1e-9
    world = pivot.World(scene)
    world.mu = slide_mu
    slid = sliding_distance(world)
    # Sliding at a = 30/m - mu g from rest: x = a t^2 / 2 to first order in h.
    a = 30.0 / mass - slide_mu * g
    t = 50 * world.h
    assert abs(slid - 0.5 * a * t * t) < 0.05 * 0.5 * a * t * t + a * t * world.h
    world = pivot.World(scene)
    world.set_material_friction(material, slide_mu)
    assert world.materials[material] == slide_mu and base.materials[material] == mu0
    assert sliding_distance(world) == slid
    world.mu = None
    assert world.mu is None


def test_gravity_d_method_nonconvex_are_live(scenes):
    world = pivot.World(pivot.load_scene(str(scenes / "box_on_plane.json")))
    world.gravity = (0.0, 0.0, 0.0)
    world.step()
    assert world.contacts().normal_impulses.sum() == 0.0  # nothing pushes the box down
    world.gravity = np.array([0.0, 0.0, -9.81])
    world.step()
    assert world.contacts().normal_impulses.sum() > 0.0
    world.d = 8
    world.method = "standard"
    world.nonconvex = "sum"
    assert (world.d, world.method, world.nonconvex) == (8, "standard", "sum")
    assert world.scene.to_json().count('"friction_directions": 8') == 1
    world.step()
    assert world.stats.contacts == 4


def test_warm_starts_and_warm_paths_are_counted_apart(scenes):
    # The jammed peg moves: most steps take the previous basis, two in 3 s (measured) take
    # Lemke's path from it, and those pivot.
    world = pivot.World(pivot.load_scene(str(scenes / "peg_in_hole_jam.json")))
    warm_starts = warm_paths = 0
    for _ in range(300):
        world.step()
        stats = world.stats
        assert stats.warm_starts + stats.warm_paths <= stats.islands
        if stats.warm_paths:
            assert stats.pivots > 0
        warm_starts += stats.warm_starts
        warm_paths += stats.warm_paths
    assert warm_paths > 0 and warm_starts > 250


def test_scene_round_trips_through_json(scenes):
    scene = pivot.load_scene(str(scenes / "peg_in_hole.json"))
    again = pivot.scene_from_json(scene.to_json())
    assert again.to_json() == scene.to_json()
    a, b = pivot.World(scene), pivot.World(again)
    a.step(120)
    b.step(120)
    np.testing.assert_array_equal(a.positions, b.positions)


def test_a_step_past_its_time_limit_is_abandoned_and_changes_nothing(scenes):
    # The resting stack's first step pivots; a limit of 1 ns has passed before the
    # solver's first look at the clock.
    scene = pivot.load_scene(str(scenes / "block_stack_5.json"))
    world = pivot.World(scene, step_time_limit=1e-9)
    before = world.positions.copy()
    stats = world.step(5)
    assert stats.cancelled
    assert world.step_count == 0 and world.time == 0.0
    np.testing.assert_array_equal(world.positions, before)
    free = pivot.World(scene)
    assert not free.step(5).cancelled and free.step_count == 5
    with pytest.raises(ValueError, match="step_time_limit must be finite and >= 0"):
        pivot.World(scene, step_time_limit=-1.0)


def test_islands_on_two_threads_give_the_same_steps(scenes):
    # drop_and_tumble: bodies falling apart and onto one another, several islands a step.
    scene = pivot.load_scene(str(scenes / "drop_and_tumble.json"))
    one, two = pivot.World(scene), pivot.World(scene, threads=2)
    islands = 0
    for _ in range(100):
        islands += one.step().islands
        two.step()
        np.testing.assert_array_equal(one.positions, two.positions)
        np.testing.assert_array_equal(one.orientations, two.orientations)
        np.testing.assert_array_equal(one.linear_velocities, two.linear_velocities)
    assert islands > 100
    with pytest.raises(ValueError, match="threads must be >= 1"):
        pivot.World(scene, threads=0)


def test_a_step_that_strays_from_its_linearisation_is_retaken_in_substeps(source_dir):
    # tests/world/corner_strike.json: a box falling at 12.4 m/s past a spinning box's corner.
    # Taken whole, the first step left the corner 34 mm inside the falling box; it is
    # retaken in 6 substeps, the next steps start in as many, one fewer a step
    # (docs/stewart-trinkle.md), and the boxes come to rest above the ground.
    path = source_dir / "tests" / "world" / "corner_strike.json"
    world = pivot.World(pivot.load_scene(str(path)))
    world.step()
    assert world.stats.retaken and not world.stats.carried and world.stats.substeps == 6
    assert world.stats.substep_cause == "retaken"
    saved = world.get_state()
    assert saved.carried_substeps == 6  # the state carries it: set again, it steps on alike
    world.step()
    assert world.stats.carried and not world.stats.retaken and world.stats.substeps == 6
    assert world.stats.substep_cause == "carried"
    world.set_state(saved)
    world.step()
    assert world.stats.carried and world.stats.substeps == 6
    for _ in range(98):
        world.step()
    assert not world.stats.carried and world.stats.substeps == 1
    assert world.stats.substep_cause == "none"
    assert np.abs(world.linear_velocities).max() < 1e-3
    for name in ("spinning", "falling"):  # above the ground by at least the least half extent
        assert world.positions[world.body_names.index(name), 2] > 0.05 - 1e-3


def test_a_needle_spinning_about_its_axis_is_stepped_in_substeps(source_dir):
    # tests/world/needle_drop.json: its impact spins it about its axis too fast for one
    # rotation a step, so those steps run as substeps (docs/stewart-trinkle.md), and it
    # falls over and lies on the floor, its centre one radius (2 mm) up.
    world = pivot.World(pivot.load_scene(str(source_dir / "tests" / "world" / "needle_drop.json")))
    substeps, causes = [], set()
    for _ in range(300):
        world.step()
        substeps.append(world.stats.substeps)
        causes.add(world.stats.substep_cause)
    assert substeps[0] == 1 and max(substeps) >= 5
    assert "fast_spin" in causes and "none" in causes
    needle = world.body_names.index("needle")
    assert world.positions[needle, 2] == pytest.approx(0.002, abs=1e-4)
