"""A PD controller written in Python seats the peg of peg_in_hole.json through
set_applied_wrench: the scene's own scripted push is removed, there is no gravity, so only
the controller can move the peg the 0.1 m from its start to the head resting on the block."""

import json

import numpy as np
import pivot

TRAVEL_M = 0.1  # the head's underside starts 0.1 m above the block's top face
PUSH_LIMIT_N = 60.0  # the scene's own push


def peg_world(scenes):
    data = json.loads((scenes / "peg_in_hole.json").read_text())
    del data["wrenches"]
    return pivot.World(pivot.scene_from_json(data, "peg_in_hole.json"))


def pd_push(world, goal_z):
    """Force and torque on the peg: PD on height (aiming 1 cm below the seat, so it presses
    once seated) and on the shaft's centring, the push limited to the scene's 60 N."""
    p = world.positions[1]
    v = world.linear_velocities[1]
    fz = np.clip(600.0 * (goal_z - 0.01 - p[2]) - 60.0 * v[2], -PUSH_LIMIT_N, PUSH_LIMIT_N)
    fxy = -2000.0 * p[:2] - 100.0 * v[:2]
    torque = -5.0 * world.angular_velocities[1]
    return np.array([fxy[0], fxy[1], fz]), torque


def test_without_the_controller_the_peg_stays(scenes):
    world = peg_world(scenes)
    start = world.positions
    world.step(100)
    np.testing.assert_array_equal(world.positions, start)


def test_pd_controller_seats_the_peg(scenes):
    world = peg_world(scenes)
    peg = world.body_names.index("peg")
    seat_z = world.positions[peg, 2] - TRAVEL_M
    for _ in range(150):
        force, torque = pd_push(world, seat_z)
        world.set_applied_wrench("peg", force, torque)
        world.step()
    # Seated: the head rests on the block (the contact is solved to round-off, 1 um is
    # far below the 0.5 mm clearance) and has stopped.
    assert abs(world.positions[peg, 2] - seat_z) < 1e-6
    assert np.abs(world.linear_velocities[peg]).max() < 1e-9
    # The block's upward impulses carry the controller's push for the step.
    contacts = world.contacts()
    up = contacts.normal_impulses * contacts.normals[:, 2]
    push_n = -pd_push(world, seat_z)[0][2]
    assert push_n > 0
    assert abs(up.sum() - push_n * world.h) < 1e-9 * push_n * world.h


def test_wrench_by_index_matches_by_name(scenes):
    a, b = peg_world(scenes), peg_world(scenes)
    start_z = a.positions[1, 2]
    a.set_applied_wrench("peg", (0, 0, -30))
    b.set_applied_wrench(1, force=(0, 0, -30))
    a.step(20)
    b.step(20)
    np.testing.assert_array_equal(a.positions, b.positions)
    # 30 N on 33.4 kg for 0.2 s, against wall friction that is zero without side load:
    # a t^2 / 2 = 0.018 m (first-order stepping moves a little further).
    assert start_z - a.positions[1, 2] > 0.015
