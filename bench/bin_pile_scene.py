"""Writes issue 21's bin as a scene file: N bodies (box, cylinder and sphere in turn; 3 to
15 cm across, density 500 kg/m^3, mu 0.5) released at rest from up to 1 m above the ground
into an open bin of 0.6 x 0.4 m inside, whose four fixed box walls are 0.3 m tall and 2 cm
thick and stand on the ground (its floor); h = 0.01 s, d = 4, the reduced method, the max
formulation. Each body is turned at random and placed, lowest of 30 random places inside
the walls, where its bounding sphere clears the walls, the floor and every body placed
before it by 1 cm: a loose stack, so nothing touches at the start and the top is near 1 m. The same N and SEED give the same scene on every machine (Python's
random.Random, as bench/pile_scene.py). scenes/bin_pile_40.json is what

    /usr/bin/python3 bench/bin_pile_scene.py 40 1 > scenes/bin_pile_40.json

writes; tests/scenes/bin_pile_test.cpp checks what it claims.
"""

import argparse
import json
import math
import random

from pile_scene import ground, random_turn, scene

INNER_HALF = [0.3, 0.2]  # half the bin's inside, x and y [m]
WALL_HEIGHT = 0.3
WALL_HALF_THICKNESS = 0.01
HALF_SIZE = (0.015, 0.075)  # half extents, radii and half lengths are drawn from this [m]
CLEARANCE = 0.01  # between bounding spheres, and from the walls and the floor, at the start
CANDIDATES = 30  # places tried per body, the lowest kept


def walls():
    """Four fixed boxes whose inner faces are at x = +-INNER_HALF[0] and y = +-INNER_HALF[1];
    the x walls span the bin's whole outside length, the y walls fit between them."""
    t = WALL_HALF_THICKNESS
    z = WALL_HEIGHT / 2
    bodies = []
    for sign, side in ((1, "east"), (-1, "west")):
        bodies.append({"name": f"wall_{side}", "fixed": True, "material": "wood",
                       "shape": {"type": "box", "half_extents": [t, INNER_HALF[1] + 2 * t, z]},
                       "position": [round(sign * (INNER_HALF[0] + t), 4), 0, z]})
    for sign, side in ((1, "north"), (-1, "south")):
        bodies.append({"name": f"wall_{side}", "fixed": True, "material": "wood",
                       "shape": {"type": "box", "half_extents": [INNER_HALF[0], t, z]},
                       "position": [0, round(sign * (INNER_HALF[1] + t), 4), z]})
    return bodies


def random_shape(k, rng):
    """The k-th body's shape and its bounding radius about the centre."""
    def size():
        return round(rng.uniform(*HALF_SIZE), 4)

    if k % 3 == 0:
        half = [size() for _ in range(3)]
        return {"type": "box", "half_extents": half}, math.sqrt(sum(h * h for h in half))
    if k % 3 == 1:
        radius, half_length = size(), size()
        return ({"type": "cylinder", "radius": radius, "half_length": half_length},
                math.hypot(radius, half_length))
    radius = size()
    return {"type": "sphere", "radius": radius}, radius


def place(radius, placed, rng):
    """The lowest of CANDIDATES centres at random over the bin's inside, each as low as its
    bounding sphere clears the floor and every (centre, radius) in placed by CLEARANCE: the
    bodies start stacked loosely as their spheres would settle, no higher than they must."""
    reach = radius + CLEARANCE
    best = None
    for _ in range(CANDIDATES):
        x = rng.uniform(-INNER_HALF[0] + reach, INNER_HALF[0] - reach)
        y = rng.uniform(-INNER_HALF[1] + reach, INNER_HALF[1] - reach)
        z = reach
        for c, r in placed:
            apart = radius + r + CLEARANCE
            across = math.hypot(x - c[0], y - c[1])
            if across < apart:
                z = max(z, c[2] + math.sqrt(apart * apart - across * across))
        if best is None or z < best[2]:
            best = [x, y, z]
    return best


def bin_scene(n, seed):
    rng = random.Random(seed)
    bodies = [ground()] + walls()
    placed = []
    for k in range(n):
        shape, radius = random_shape(k, rng)
        centre = place(radius, placed, rng)
        placed.append((centre, radius))
        bodies.append({"name": f"{shape['type']}{k}", "material": "wood", "density": 500,
                       "shape": shape, "position": [round(c, 4) for c in centre],
                       "orientation": [round(q, 9) for q in random_turn(rng)]})
    result = scene(bodies, f"{n} boxes, cylinders and spheres (3 to 15 cm, density 500) "
                           f"released from up to 1 m into an open 0.6 x 0.4 x 0.3 m bin of "
                           f"fixed walls on the ground; they come to rest inside it "
                           f"(bench/bin_pile_scene.py {n} {seed}, issue 21; "
                           f"tests/scenes/bin_pile_test.cpp)", "max")
    result["camera"] = {"target": [0, 0, 0.35], "yaw_deg": 30, "pitch_deg": 30, "distance": 2.4}
    return {"$schema": "./scene.schema.json", **result}


def dump(scene_object):
    """The scene as JSON with one line per body, to read and diff as a shipped scene."""
    lines = ["{"]
    keys = list(scene_object)
    for i, key in enumerate(keys):
        end = "," if i + 1 < len(keys) else ""
        if key == "bodies":
            rows = [f"    {json.dumps(b)}" for b in scene_object[key]]
            lines.append('  "bodies": [\n' + ",\n".join(rows) + f"\n  ]{end}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(scene_object[key])}{end}")
    lines.append("}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("seed", type=int, nargs="?", default=1)
    args = parser.parse_args()
    if args.n < 1:
        parser.error("N must be >= 1")
    print(dump(bin_scene(args.n, args.seed)))


if __name__ == "__main__":
    main()
