"""Plots a run written by `grbda simulate ... --out run.csv`: torso height, normal forces and energy
against time, one panel each, into a PNG (matplotlib, no display needed).

    python3 examples/python/plot_run.py run.csv run.png [--title TEXT] [--height-column q:NAME]

The torso height is the first `q:...:z` column (a floating base's z), the normal forces are
`normal_force_sum` and the `fn:LINK` columns of a run with a world (--ground), the energy is
`energy`; a panel whose columns the file lacks is left out. Also importable:
`plot_run(csv, png)` returns the panels drawn and the run's touchdown time, peak total normal
force and lowest torso height.
"""
import argparse
import csv
import math
import pathlib


def read_run(path):
    """The CSV as {column: list of floats}; an empty field (a link touching nothing) is NaN."""
    with open(path, newline="") as f:
        rows = [row for row in csv.reader(f) if row]
    if not rows or rows[0][0].strip() != "t":
        raise ValueError(f"{path}: not a run file (the first column must be 't')")
    header, body = [h.strip() for h in rows[0]], rows[1:]
    if not body:
        raise ValueError(f"{path}: no rows after the header")
    columns = {name: [] for name in header}
    for line, row in enumerate(body, start=2):
        if len(row) != len(header):
            raise ValueError(f"{path}:{line}: {len(row)} fields, but the header has {len(header)}")
        for name, field in zip(header, row):
            columns[name].append(float(field) if field.strip() else math.nan)
    return columns


def torso_height_column(columns):
    """The first floating base's z position column (q:...:z), or None."""
    return next((name for name in columns if name.startswith("q:") and name.endswith(":z")), None)


def summarize(columns, height_column=None):
    """Touchdown (first time the total normal force is positive), peak total normal force and
    lowest torso height; None where the file lacks the columns."""
    t = columns["t"]
    summary = {"touchdown": None, "peak_normal_force": None, "lowest_torso": None}
    if "normal_force_sum" in columns:
        force = columns["normal_force_sum"]
        summary["peak_normal_force"] = max(force)
        summary["touchdown"] = next((ti for ti, f in zip(t, force) if f > 0.0), None)
    height_column = height_column or torso_height_column(columns)
    if height_column:
        summary["lowest_torso"] = min(columns[height_column])
    return summary


def plot_run(csv_path, png_path, title=None, height_column=None):
    """Writes the PNG; returns {"panels": [...], **summarize(...)}."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = read_run(csv_path)
    height_column = height_column or torso_height_column(columns)
    if height_column and height_column not in columns:
        raise ValueError(f"{csv_path}: no column {height_column!r}")
    summary = summarize(columns, height_column)
    links = [name for name in columns if name.startswith("fn:")]
    panels = [name for name, present in (("torso height", height_column),
                                         ("normal force", "normal_force_sum" in columns or links),
                                         ("energy", "energy" in columns)) if present]
    if not panels:
        raise ValueError(f"{csv_path}: nothing to plot (no q:...:z, normal_force_sum, fn: or energy column)")
    t = columns["t"]
    fig, axes = plt.subplots(len(panels), 1, figsize=(7, 2.5 * len(panels)), sharex=True, squeeze=False)
    for ax, panel in zip(axes[:, 0], panels):
        if panel == "torso height":
            ax.plot(t, columns[height_column], color="tab:blue")
            ax.set_ylabel("torso height (m)")
            ax.set_title(height_column[2:], fontsize=9, loc="left")
        elif panel == "normal force":
            for name in links:
                ax.plot(t, columns[name], lw=0.8, label=name[3:])
            if "normal_force_sum" in columns:
                ax.plot(t, columns["normal_force_sum"], color="black", lw=1.6, label="sum")
            ax.set_ylabel("normal force (N)")
            ax.legend(fontsize=7, ncol=3)
        else:
            ax.plot(t, columns["energy"], color="tab:red")
            ax.set_ylabel("energy (J)")
        if summary["touchdown"] is not None:
            ax.axvline(summary["touchdown"], color="grey", ls=":", lw=1)
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("time (s)")
    notes = [f"touchdown {summary['touchdown']:.3f} s" if summary["touchdown"] is not None else None,
             f"peak sum Fn {summary['peak_normal_force']:.0f} N" if summary["peak_normal_force"] else None,
             f"lowest torso {summary['lowest_torso']:.3f} m" if summary["lowest_torso"] is not None else None]
    fig.suptitle(title or pathlib.Path(csv_path).name, fontsize=10)
    axes[0, 0].text(0.99, 0.95, ", ".join(n for n in notes if n), transform=axes[0, 0].transAxes, ha="right",
                    va="top", fontsize=8)
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)
    plt.close(fig)
    return {"panels": panels, **summary}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", help="the run, from grbda simulate --out")
    parser.add_argument("png", help="where to write the plot")
    parser.add_argument("--title", help="the plot's title (default: the file name)")
    parser.add_argument("--height-column", help="the torso height column (default: the first q:...:z)")
    args = parser.parse_args()
    result = plot_run(args.csv, args.png, args.title, args.height_column)
    print(f"{args.png}: {', '.join(result['panels'])}", *(f"{k} {v:.4g}" for k, v in result.items()
                                                            if k != "panels" and v is not None), sep="; ")


if __name__ == "__main__":
    main()
