"""Sweep the friction coefficient over the jammed peg (scenes/peg_in_hole_jam.json): a
200 N side force wedges the peg between two rims, a 60 N push then tries to insert it.
Friction holds the push while mu > 60 / 533 = 0.11 (the scene's description derives it);
below that the peg slips in. Prints, for each mu, how far the peg went down in 1 s.

    PYTHONPATH=build/python python3 examples/python/mu_sweep.py [SCENE]
"""

import pathlib
import sys

import numpy as np
import pivot

HERE = pathlib.Path(__file__).resolve().parent
SCENE = HERE.parents[1] / "scenes" / "peg_in_hole_jam.json"
PREDICTED_THRESHOLD = 60.0 / 533.0
# Slipping means going in: a tenth of the 0.1 m travel. A jammed peg still creeps about a
# millimetre while the side force tilts it into the rims.
SLIP_M = 0.01


def insertion_depth(scene, mu, seconds=1.0):
    """How far the peg goes down [m] in `seconds` with every contact's friction at mu."""
    world = pivot.World(scene)
    world.mu = mu  # the global override; world.set_material_friction changes one material
    peg = world.body_names.index("peg")
    z0 = world.positions[peg, 2]
    world.step(round(seconds / world.h))
    return z0 - world.positions[peg, 2]


def main():
    scene = pivot.load_scene(sys.argv[1] if len(sys.argv) > 1 else str(SCENE))
    mus = np.round(np.arange(0.02, 0.31, 0.02), 2)
    depths = [insertion_depth(scene, mu) for mu in mus]
    print("   mu   depth [mm]")
    for mu, depth in zip(mus, depths):
        print(f"{mu:5.2f}   {1000 * depth:9.3f}   {'slips' if depth > SLIP_M else 'jammed'}")
    jammed = [mu for mu, depth in zip(mus, depths) if depth <= SLIP_M]
    slipping = [mu for mu, depth in zip(mus, depths) if depth > SLIP_M]
    if jammed and slipping:
        print(f"threshold between mu {max(slipping):.2f} and {min(jammed):.2f} "
              f"(predicted {PREDICTED_THRESHOLD:.3f})")


if __name__ == "__main__":
    main()
