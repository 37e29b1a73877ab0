"""The impulses on nonconvex group sides from Python: Egan, Berard and Trinkle's worked
example (scenes/egan_corner.json, one step of h = 2 s), whose point b rests on the floor
side y = 0 with p_2n = 0.5 N s and nothing on the wall side x = 0 (the paper's z_b3)."""

import numpy as np
import pivot


def test_group_sides_carry_the_papers_impulses(scenes):
    world = pivot.World(pivot.load_scene(str(scenes / "egan_corner.json")))
    assert len(world.group_sides()) == 0  # before the first step
    world.step()
    sides = world.group_sides()
    assert sides.groups > 0 and len(sides) >= 2 * sides.groups
    assert sides.group.min() == 0 and sides.group.max() == sides.groups - 1
    point_b = world.body_names.index("point_b")
    start = np.array([1.0, 1.0])  # point_b's position before the step (the paper's Fig. 3)
    # A side's point is on body_b's surface; the point on body_a is gap along the normal.
    on_a = sides.points + sides.gaps[:, None] * sides.normals
    at_b = [i for i in range(len(sides))
            if sides.body_a[i] == point_b and np.linalg.norm(on_a[i, :2] - start) < 1e-9]
    assert len(at_b) == 2, at_b
    floor = [i for i in at_b if abs(sides.normals[i, 1] - 1.0) < 1e-12]
    wall = [i for i in at_b if abs(sides.normals[i, 0] - 1.0) < 1e-12]
    assert len(floor) == 1 and len(wall) == 1
    assert abs(sides.normal_impulses[floor[0]] - 0.5) < 1e-12
    assert abs(sides.normal_impulses[wall[0]]) < 1e-12
    # The point's momentum change is the sides' impulses: (-2, -1) + (0, 0.5) = (-2, -0.5).
    np.testing.assert_allclose(world.linear_velocities[point_b, :2], [-2.0, -0.5], atol=1e-12)
    # Convex contacts have no group.
    contacts = world.contacts()
    assert (contacts.group == -1).all() and (contacts.side == -1).all()
