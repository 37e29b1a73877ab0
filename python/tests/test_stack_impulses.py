"""Contact impulses read from Python carry the weight: on a resting stack of five blocks
the ground's normal impulses sum to the whole weight times h, and each interface carries
the weight of the blocks above it; friction is zero."""

import numpy as np
import pivot


def test_resting_stack_impulses_sum_to_weight_times_h(scenes):
    scene = pivot.load_scene(str(scenes / "block_stack_5.json"))
    world = pivot.World(scene)
    world.step(50)
    contacts = world.contacts()
    g = np.linalg.norm(world.gravity)
    h = world.h
    masses = scene.masses
    assert len(contacts) == 20
    # The LCP at rest is solved to round-off: relative 1e-9 of the impulses.
    tol = 1e-9 * masses.sum() * g * h
    # Each block's load: what the contacts under it carry (normal from below, +z).
    dynamic = [k for k in range(len(masses)) if not scene.fixed[k]]
    heights = world.positions[:, 2]
    for k in dynamic:
        above = [j for j in dynamic if heights[j] > heights[k]]
        weight_above = (masses[k] + masses[above].sum()) * g
        # Contacts between body k and whatever is under it: k is body_a with the normal
        # pointing up toward it, or body_b with the normal pointing down toward the other.
        under = ((contacts.body_a == k) & (contacts.normals[:, 2] > 0.5)) | \
                ((contacts.body_b == k) & (contacts.normals[:, 2] < -0.5))
        assert under.sum() == 4
        carried = np.abs(contacts.normal_impulses[under] * contacts.normals[under, 2]).sum()
        assert abs(carried - weight_above * h) < tol, f"block {scene.body_names[k]}"
    ground = np.array(scene.fixed)[contacts.body_b]
    assert abs((contacts.normal_impulses[ground]).sum() - masses.sum() * g * h) < tol
    np.testing.assert_allclose(contacts.friction_impulses, 0.0, atol=tol)
    assert np.all(contacts.normal_impulses >= -tol)  # z >= 0 up to the round-off above


def test_contacts_before_the_first_step_are_empty(scenes):
    world = pivot.World(pivot.load_scene(str(scenes / "block_stack_5.json")))
    contacts = world.contacts()
    assert len(contacts) == 0
    assert contacts.points.shape == (0, 3)
