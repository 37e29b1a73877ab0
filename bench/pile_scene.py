"""Writes the pile of issue 21 as a scene file: N boxes of 0.16 x 0.12 x 0.10 m (density
500 kg/m^3, mu 0.5) one above the other, every 25 cm upward from 20 cm, within 10 cm of
the vertical axis and turned at random, over a fixed ground; h = 0.01 s, d = 4, the
reduced method. The same N and SEED give the same scene on every machine (Python's
random.Random is specified: Mersenne Twister, uniform by its documented formula).

    /usr/bin/python3 bench/pile_scene.py N [SEED] [--nonconvex max|sum|off] > pile.json
"""

import argparse
import json
import math
import random


def pile_scene(n, seed, nonconvex):
    rng = random.Random(seed)
    bodies = [{"name": "ground", "fixed": True, "material": "wood",
               "shape": {"type": "half_space", "normal": [0, 0, 1], "offset": 0}}]
    for k in range(n):
        angle = rng.uniform(0.0, math.pi)
        axis = [rng.uniform(-1.0, 1.0) for _ in range(3)]
        norm = math.sqrt(sum(a * a for a in axis))
        turn = [math.cos(angle / 2)] + [math.sin(angle / 2) * a / norm for a in axis]
        bodies.append({"name": f"box{k}", "material": "wood", "density": 500,
                       "shape": {"type": "box", "half_extents": [0.08, 0.06, 0.05]},
                       "position": [rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1),
                                    0.2 + 0.25 * k],
                       "orientation": turn})
    return {"version": 1,
            "description": f"{n} boxes dropped one above the other onto the ground "
                           f"(bench/pile_scene.py {n} {seed}, issue 21)",
            "settings": {"gravity": [0, 0, -9.81], "time_step": 0.01,
                         "friction_directions": 4, "solver": "reduced",
                         "nonconvex": nonconvex},
            "materials": [{"name": "wood", "friction": 0.5}],
            "bodies": bodies}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("seed", type=int, nargs="?", default=1)
    parser.add_argument("--nonconvex", choices=["max", "sum", "off"], default="max")
    args = parser.parse_args()
    if args.n < 1:
        parser.error("N must be >= 1")
    print(json.dumps(pile_scene(args.n, args.seed, args.nonconvex), indent=1))


if __name__ == "__main__":
    main()
