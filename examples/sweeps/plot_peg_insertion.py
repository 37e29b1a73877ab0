"""Heat map of the peg insertion sweep: how far the tilted peg went in, over clearance x mu.

    pivot sweep examples/sweeps/peg_insertion.json --out peg_insertion.csv
    /usr/bin/python3 examples/sweeps/plot_peg_insertion.py peg_insertion.csv peg_insertion.png

The clearance per side is the hole's half width (0.0505 m in scenes/peg_in_hole_jam.json)
minus the peg's half width, the sweep's first parameter.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402

HOLE_HALF_WIDTH_M = 0.0505


def main(table_path, png_path):
    with open(table_path, newline="") as f:
        rows = list(csv.DictReader(f))
    clearances = sorted({round((HOLE_HALF_WIDTH_M - float(r["peg_half_width_m"])) * 1000, 6) for r in rows})
    mus = sorted({float(r["mu"]) for r in rows})
    depth = [[float("nan")] * len(clearances) for _ in mus]
    inserted = [[0.0] * len(clearances) for _ in mus]
    start_z = max(float(r["peg.z"]) for r in rows)  # the jammed pegs have not moved
    for r in rows:
        i = mus.index(float(r["mu"]))
        j = clearances.index(round((HOLE_HALF_WIDTH_M - float(r["peg_half_width_m"])) * 1000, 6))
        depth[i][j] = (start_z - float(r["peg.z"])) * 1000
        inserted[i][j] = float(r["inserted"])

    fig, ax = plt.subplots(figsize=(7, 5), dpi=100)
    mesh = ax.pcolormesh(clearances, mus, depth, shading="nearest", cmap="viridis")
    fig.colorbar(mesh, ax=ax, label="peg travel into the hole [mm]")
    ax.contour(clearances, mus, inserted, levels=[0.5], colors="white", linewidths=1.5)
    ax.set_xlabel("clearance per side [mm]")
    ax.set_ylabel("friction coefficient mu")
    ax.set_title("Tilted square peg under a 60 N push, 0.5 s (white: inserted / jammed)")
    fig.tight_layout()
    fig.savefig(png_path)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot_peg_insertion.py RESULTS.csv OUT.png")
    main(sys.argv[1], sys.argv[2])
