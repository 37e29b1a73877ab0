"""A controller in the loop: a PD law written in Python pushes the peg of
scenes/peg_in_hole.json into its hole through World.set_applied_wrench. The scene's own
scripted push is removed, and there is no gravity, so only the controller moves the peg.

    PYTHONPATH=build/python python3 examples/python/control_loop.py
"""

import json
import pathlib

import numpy as np
import pivot

HERE = pathlib.Path(__file__).resolve().parent
SCENE = HERE.parents[1] / "scenes" / "peg_in_hole.json"
TRAVEL_M = 0.1  # from the start to the head resting on the block
MAX_PUSH_N = 60.0


def controller(world, peg, goal_z):
    """PD on the height (aiming 1 cm below the seat, so the head presses once seated) and
    on the centring of the shaft; returns force [N] and torque [N m], world axes."""
    p, v = world.positions[peg], world.linear_velocities[peg]
    fz = np.clip(600.0 * (goal_z - 0.01 - p[2]) - 60.0 * v[2], -MAX_PUSH_N, MAX_PUSH_N)
    fxy = -2000.0 * p[:2] - 100.0 * v[:2]
    torque = -5.0 * world.angular_velocities[peg]
    return np.array([fxy[0], fxy[1], fz]), torque


def main():
    data = json.loads(SCENE.read_text())
    del data["wrenches"]  # the controller does the pushing
    world = pivot.World(pivot.scene_from_json(data, name=str(SCENE)))
    peg = world.body_names.index("peg")
    goal_z = world.positions[peg, 2] - TRAVEL_M
    print("  t [s]   height above seat [mm]   push [N]   contacts")
    for k in range(150):
        force, torque = controller(world, peg, goal_z)
        world.set_applied_wrench("peg", force, torque)
        stats = world.step()
        if k % 10 == 9:
            print(f"{world.time:7.2f}   {1000 * (world.positions[peg, 2] - goal_z):22.3f}"
                  f"   {-force[2]:8.2f}   {stats.contacts:8d}")
    seated = abs(world.positions[peg, 2] - goal_z) < 1e-6
    print("seated" if seated else "not seated")
    return 0 if seated else 1


if __name__ == "__main__":
    raise SystemExit(main())
