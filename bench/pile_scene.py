"""Writes the pile of issue 21 as a scene file: N boxes of 0.16 x 0.12 x 0.10 m (density
500 kg/m^3, mu 0.5) one above the other, every 25 cm upward from 20 cm, within 10 cm of
the vertical axis and turned at random, over a fixed ground; h = 0.01 s, d = 4, the
reduced method. The same N and SEED give the same scene on every machine (Python's
random.Random is specified: Mersenne Twister, uniform by its documented formula).
With --grid NX NY LAYERS it writes the same boxes at rest instead: NX x NY columns of
LAYERS boxes, each resting flat on the one below, the columns 2 cm apart (no seed).
bench/pile_bench.cpp steps these files (scripts/bench-piles.sh).

    /usr/bin/python3 bench/pile_scene.py N [SEED] [--nonconvex max|sum|off] > pile.json
    /usr/bin/python3 bench/pile_scene.py --grid 10 10 2 [--nonconvex ...] > grid.json
"""

import argparse
import json
import math
import random


HALF_EXTENTS = [0.08, 0.06, 0.05]
GRID_GAP = 0.02


def ground():
    return {"name": "ground", "fixed": True, "material": "wood",
            "shape": {"type": "half_space", "normal": [0, 0, 1], "offset": 0}}


def box(name, position, orientation=None):
    body = {"name": name, "material": "wood", "density": 500,
            "shape": {"type": "box", "half_extents": HALF_EXTENTS}, "position": position}
    if orientation is not None:
        body["orientation"] = orientation
    return body


def random_turn(rng):
    """A quaternion [w, x, y, z] turning by an angle in [0, pi) about an axis in the cube."""
    angle = rng.uniform(0.0, math.pi)
    axis = [rng.uniform(-1.0, 1.0) for _ in range(3)]
    norm = math.sqrt(sum(a * a for a in axis))
    return [math.cos(angle / 2)] + [math.sin(angle / 2) * a / norm for a in axis]


def scene(bodies, description, nonconvex):
    return {"version": 1, "description": description,
            "settings": {"gravity": [0, 0, -9.81], "time_step": 0.01,
                         "friction_directions": 4, "solver": "reduced",
                         "nonconvex": nonconvex},
            "materials": [{"name": "wood", "friction": 0.5}],
            "bodies": bodies}


def pile_scene(n, seed, nonconvex):
    rng = random.Random(seed)
    bodies = [ground()]
    for k in range(n):
        turn = random_turn(rng)
        bodies.append(box(f"box{k}", [rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1),
                                      0.2 + 0.25 * k], turn))
    return scene(bodies, f"{n} boxes dropped one above the other onto the ground "
                         f"(bench/pile_scene.py {n} {seed}, issue 21)", nonconvex)


def grid_scene(nx, ny, layers, nonconvex):
    bodies = [ground()]
    pitch = [2 * HALF_EXTENTS[0] + GRID_GAP, 2 * HALF_EXTENTS[1] + GRID_GAP]
    for i in range(nx):
        for j in range(ny):
            for k in range(layers):
                bodies.append(box(f"box{i}_{j}_{k}",
                                  [pitch[0] * (i - (nx - 1) / 2), pitch[1] * (j - (ny - 1) / 2),
                                   HALF_EXTENTS[2] * (2 * k + 1)]))
    return scene(bodies, f"{nx} x {ny} columns of {layers} boxes at rest "
                         f"(bench/pile_scene.py --grid {nx} {ny} {layers}, issue 21)", nonconvex)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, nargs="?")
    parser.add_argument("seed", type=int, nargs="?", default=1)
    parser.add_argument("--grid", type=int, nargs=3, metavar=("NX", "NY", "LAYERS"))
    parser.add_argument("--nonconvex", choices=["max", "sum", "off"], default="max")
    args = parser.parse_args()
    if args.grid:
        if args.n is not None or min(args.grid) < 1:
            parser.error("--grid takes NX NY LAYERS >= 1 and no N")
        print(json.dumps(grid_scene(*args.grid, args.nonconvex), indent=1))
        return
    if args.n is None or args.n < 1:
        parser.error("N must be >= 1")
    print(json.dumps(pile_scene(args.n, args.seed, args.nonconvex), indent=1))


if __name__ == "__main__":
    main()
