"""Contact forces over time without parsing files: the jammed peg of
scenes/peg_in_hole_jam.json (a 200 N side force wedges it between two rims, a 60 N push
from 0.1 s tries to insert it) at mu 0.3, where friction holds it, and at mu 0.05, where
it slips in and seats. Plots each step's normal impulses divided by h (the mean contact
force) on the hole's walls and on the block's top face, written as a PNG.

    PYTHONPATH=build/python python3 examples/python/plot_normal_impulses.py [OUT.png]
"""

import pathlib
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no window
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pivot  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
SCENE = HERE.parents[1] / "scenes" / "peg_in_hole_jam.json"
STEPS = 150


def contact_forces(scene, mu):
    """Per step: time [s], wall force and seat force [N] (normal impulse sums / h)."""
    world = pivot.World(scene)
    world.mu = mu
    rows = []
    for _ in range(STEPS):
        world.step()
        c = world.contacts()
        seat = np.abs(c.normals[:, 2]) > 0.5  # the head on the block's top face
        rows.append((world.time, c.normal_impulses[~seat].sum() / world.h,
                     c.normal_impulses[seat].sum() / world.h))
    return np.array(rows)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "normal_impulses.png"
    scene = pivot.load_scene(str(SCENE))
    fig, ax = plt.subplots(figsize=(7.5, 3.8), dpi=100)
    for mu, color in ((0.3, "tab:red"), (0.05, "tab:blue")):
        f = contact_forces(scene, mu)
        ax.plot(f[:, 0], f[:, 1], color=color, label=f"mu {mu}: rims of the hole")
        ax.plot(f[:, 0], f[:, 2], color=color, linestyle="--", label=f"mu {mu}: head on block")
        peak = f[:, 2].argmax()
        if f[peak, 2] > 700:
            ax.annotate(f"seating impact {f[peak, 2]:.0f} N", (f[peak, 0], 690),
                        xytext=(f[peak, 0] + 0.1, 640), color=color,
                        arrowprops={"arrowstyle": "->", "color": color})
        print(f"mu {mu}: rims {f[-1, 1]:.1f} N, seat {f[-1, 2]:.1f} N at t = {f[-1, 0]:.2f} s")
    ax.set_ylim(0, 700)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("normal impulse / h [N]")
    ax.set_title("peg_in_hole_jam.json: contact forces from World.contacts()")
    ax.legend(loc="center right", fontsize=8)
    fig.tight_layout()
    fig.savefig(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
