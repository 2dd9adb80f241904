#!/usr/bin/env python3
"""Plots for bench/RESULTS.md, drawn with gnuplot (Debian: gnuplot-nox) from the files that
tools/run_benchmarks.sh writes into a results directory:

  robots.json          `grbda bench --json`                     -> robots_fd.png, robots_all.png
  scaling.json         bench_scaling --benchmark_format=json    -> scaling_chains.png, scaling_osim.png,
                                                                   branch_depth.png, locality.png
  accuracy_1.50hz.dat  grbda_accuracy --out DIR                 -> accuracy_traces.png
  contacts_instructions.dat  tools/count_contact_instructions.sh --data -> contacts.png
  cfa.json             bench_cfa --benchmark_format=json        -> cfa_chains.png
  seed003_chain.dat, seed003_ladder.dat  tools/count_seed003.sh  -> seed003_chains.png, seed003_ladder.png

usage: tools/plot_results.py RESULTS_DIR PLOTS_DIR [--only seed003]
Missing inputs are skipped with a note. Only the Python standard library is used.
"""
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

TERMINAL = "set terminal pngcairo noenhanced size 1100,{h} font 'sans,10'"


def gnuplot(script, data_files):
    """Runs one gnuplot script; data_files maps a name used in the script to rows of numbers."""
    for path, rows in data_files.items():
        with open(path, "w") as f:
            for row in rows:
                f.write(" ".join(str(x) for x in row) + "\n")
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def load_scaling(path, field="cpu_time"):
    """{method: {system: microseconds}} from Google Benchmark JSON (CPU time by default: a loaded
    shared machine blurs wall time more; "real_time" where the work runs on several threads)."""
    with open(path) as f:
        data = json.load(f)
    scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
    times = defaultdict(dict)
    for b in data.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration":
            continue
        parts = b["name"].split("/")
        times[parts[0]][parts[1]] = b[field] * scale[b.get("time_unit", "ns")]
    return times


def chain_plots(times, plots, work):
    methods = [("ClusterABA", "C-ABA"), ("ProjectionFD", "projection"), ("LagrangeFD", "Lagrange"),
               ("Proximal1FD", "proximal, 1 it."), ("Proximal5FD", "proximal, 5 it."),
               ("ApproximateABA", "approximate ABA")]
    families = [("revolute_rotor_chain", "geared chain (link + rotor)"),
                ("revolute_belt_pair_chain", "belt chain (pairs)")]
    for out, mlist, title in [("scaling_chains.png", methods, "forward dynamics"),
                              ("scaling_osim.png", [("ClusterEFPA", "C-EFPA"), ("ProjectedOSIM", "projected OSIM")],
                               "inverse OSIM")]:
        panels, files = [], {}
        for fam, fam_title in families:
            curves = []
            for key, label in mlist:
                rows = sorted((int(s.rsplit("_", 1)[1]), t) for s, t in times.get(key, {}).items()
                              if re.fullmatch(fam + r"_\d+", s))
                if rows:
                    path = os.path.join(work, f"{fam}_{key}.dat")
                    files[path] = rows
                    curves.append(f"'{path}' using 1:2 with linespoints title '{label}'")
            if curves:
                panels.append(f"set title '{fam_title}: {title}'\nplot " + ", ".join(curves))
        if not panels:
            print(f"plot_results: no chain data for {out}")
            continue
        gnuplot(TERMINAL.format(h=450) + f"\nset output '{os.path.join(plots, out)}'\n"
                "set multiplot layout 1,2\nset logscale xy\nset xlabel 'links'\nset ylabel 'time per call (us)'\n"
                "set key left top\nset grid\n" + "\n".join(panels) + "\nunset multiplot\n", files)


def ratio_plot(times, plots, work, out, pattern, xlabel, title_of, group_label):
    """Proximal (1 iteration) time over C-ABA time against x, one curve per group, one panel per kind."""
    panels, files = [], {}
    for kind, kind_title in title_of:
        groups = defaultdict(list)
        for system, t in times.get("ClusterABA", {}).items():
            m = re.fullmatch(pattern.format(kind=kind), system)
            prox = times.get("Proximal1FD", {}).get(system)
            if m and prox:
                groups[int(m.group(1))].append((int(m.group(2)), prox / t))
        curves = []
        for g in sorted(groups):
            path = os.path.join(work, f"{out}_{kind}_{g}.dat")
            files[path] = sorted(groups[g])
            curves.append(f"'{path}' using 1:2 with linespoints title '{group_label} {g}'")
        if curves:
            panels.append(f"set title '{kind_title}'\nplot " + ", ".join(curves) + ", 1 with lines dt 2 lc 'black' notitle")
    if not panels:
        print(f"plot_results: no data for {out}")
        return
    gnuplot(TERMINAL.format(h=420) + f"\nset output '{os.path.join(plots, out)}'\n"
            f"set multiplot layout 1,{len(panels)}\nset xlabel '{xlabel}'\n"
            "set ylabel 'proximal (1 it.) time / C-ABA time'\nset key left top\nset grid\n"
            + "\n".join(panels) + "\nunset multiplot\n", files)


def robot_plots(path, plots, work):
    with open(path) as f:
        robots = json.load(f)["robots"]
    groups = [("robots_fd.png", "forward dynamics, time relative to C-ABA",
               ["cluster_aba", "projection_fd", "lagrange_fd", "proximal_fd_1", "proximal_fd_5", "approximate_aba"],
               "cluster_aba"),
              ("robots_id_osim.png", "inverse dynamics and OSIM, time relative to the cluster algorithm",
               ["cluster_rnea", "projected_rnea", "approximate_rnea", "cluster_efpa", "projected_osim"], None)]
    for out, title, keys, base in groups:
        rows = []
        for r in robots:
            t = r["times_us"]
            row = [r["name"]]
            for k in keys:
                ref = t[base] if base else (t["cluster_rnea"] if "rnea" in k else t["cluster_efpa"])
                row.append(t[k] / ref if k in t and t[k] else "NaN")
            rows.append(row)
        dat = os.path.join(work, out + ".dat")
        cols = ", ".join(f"'{dat}' using {i + 2}:xtic(1) title '{k}'" for i, k in enumerate(keys))
        gnuplot(TERMINAL.format(h=450) + f"\nset output '{os.path.join(plots, out)}'\n"
                f"set title '{title}'\nset style data histograms\nset style histogram clustered gap 1\n"
                "set style fill solid 0.8 border -1\nset ylabel 'relative time'\nset yrange [0:*]\n"
                "set grid ytics\nset key outside right\nset xtics rotate by -20\n"
                f"plot {cols}, 1 with lines dt 2 lc 'black' notitle\n", {dat: rows})


def accuracy_plot(path, plots):
    gnuplot(TERMINAL.format(h=500) + f"\nset output '{os.path.join(plots, 'accuracy_traces.png')}'\n"
            "set multiplot layout 2,1\nset xlabel 't (s)'\nset ylabel 'torque (N m)'\nset grid\nset key outside right\n"
            "set title 'MIT Humanoid leg, q = 0.5 sin(2 pi 1.5 t): knee'\n"
            f"plot '{path}' using 1:2 with lines lw 2 title 'exact (C-RNEA)', '' using 1:3 with lines title 'approximate', "
            "'' using 1:4 with lines title 'unconstrained'\n"
            "set title 'ankle'\n"
            f"plot '{path}' using 1:5 with lines lw 2 title 'exact (C-RNEA)', '' using 1:6 with lines title 'approximate', "
            "'' using 1:7 with lines title 'unconstrained'\nunset multiplot\n", {})


def contacts_plot(path, plots, work):
    """Instructions per call against the number of Mini Cheetah feet in contact, per method."""
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.startswith("mini_cheetah"):
                continue
            fields = line.split('"')
            numbers = fields[2].split()
            rows.append([int(numbers[0]) // 3] + [float(x) for x in numbers[1:]])
    if not rows:
        return
    data = os.path.join(work, "contacts.dat")
    columns = [(2, "C-ABA, no contacts"), (3, "PV"), (4, "PV-soft"), (5, "KKT (dense)"), (6, "proximal, 1 it."),
               (7, "PV-early"), (8, "LTL"), (9, "LTL-soft"), (10, "proximal-sparse, 1 it.")]
    columns = [(c, t) for c, t in columns if all(len(r) >= c for r in rows)]  # older data files lack the last
    curves = ", ".join(f"'{data}' using 1:(${c}/1000) with linespoints title '{t}'" for c, t in columns)
    gnuplot(TERMINAL.format(h=500) + f"""
set output '{os.path.join(plots, "contacts.png")}'
set title 'Mini Cheetah (exact rotors): forward dynamics with foot contacts (callgrind)'
set xlabel 'feet in contact (3 rows each)'
set ylabel 'thousand instructions per call'
set key left top
set grid
set xtics 1
plot {curves}
""", {data: rows})


def cfa_plot(path, plots, work):
    """Serial and parallel CFA against ABA on chains N = 8..4096, log-log, wall time."""
    times = load_scaling(path, "real_time")  # {method: {N: µs}}
    series = {method: [(int(n), t) for n, t in by_n.items()] for method, by_n in times.items()}
    labels = [("CFA", "serial CFA (block Thomas)"), ("ParallelCFA1", "parallel CFA, 1 thread (cyclic reduction)"),
              ("ParallelCFA2", "parallel CFA, 2 threads"), ("ClusterABA", "C-ABA (forwardDynamics)"),
              ("TreeABA", "tree ABA")]
    files, plot = {}, []
    for method, title in labels:
        if method not in series:
            continue
        name = os.path.join(work, f"cfa_{method}.dat")
        files[name] = sorted(series[method])
        plot.append(f"'{name}' using 1:2 with linespoints title '{title}'")
    if not plot:
        return
    gnuplot(TERMINAL.format(h=500) + f"\nset output '{os.path.join(plots, 'cfa_chains.png')}'\n"
            "set logscale xy\nset xlabel 'chain length N (revolute links)'\nset ylabel 'microseconds per call (wall)'\n"
            "set key top left\nset grid\nset title 'Forward dynamics of a chain: CFA vs ABA'\n"
            "plot " + ", ".join(plot) + "\n", files)


def loops_plot(path, plots, work):
    """Hybrid loops on the locality family: instructions per call against loop size, loops embedded
    (C-ABA), kept as rows (PV) and chosen by `auto`, one panel per kind of loop."""
    rows = [line.split() for line in open(path) if line.strip() and not line.startswith("#")]
    if not rows:
        return
    out = TERMINAL.format(h=450) + f"\nset output '{os.path.join(plots, 'loops.png')}'\n" + \
        "set multiplot layout 1,2\nset logscale y\nset grid\nset key left top\n" + \
        "set xlabel 'loop size l (bodies)'\nset ylabel 'thousand instructions per call'\n"
    files = {}
    for kind, title in (("explicit", "explicit transmission"), ("implicit", "implicit connecting rod")):
        curves = []
        for colour, depth in enumerate(sorted({int(r[1]) for r in rows if r[0] == kind}), start=1):
            name = os.path.join(work, f"loops_{kind}_{depth}.dat")
            files[name] = sorted([int(r[2]), float(r[3]), float(r[4]), float(r[5])]
                                 for r in rows if r[0] == kind and int(r[1]) == depth)
            curves += [f"'{name}' using 1:($2/1000) with linespoints lt {colour} dt 1 title 'embed, d={depth}'",
                       f"'{name}' using 1:($3/1000) with linespoints lt {colour} dt 2 title 'constrain'",
                       f"'{name}' using 1:($4/1000) with points lt {colour} pt 6 ps 1.5 notitle"]
        out += f"set title '{title} (circles: auto)'\nplot " + ", ".join(curves) + "\n"
    gnuplot(out + "unset multiplot\n", files)


def read_columns(path):
    """A whitespace table whose first line is '# name name ...': {name: [values]} ('nan' = missing)."""
    with open(path) as f:
        lines = [line.split() for line in f if line.strip()]
    names = lines[0][1:]
    return {name: [float(row[i]) for row in lines[1:]] for i, name in enumerate(names)}


def seed003_plots(results, plots, work):
    """Seed 003's scaling studies from tools/count_seed003.sh: chains (ours vs KDL) and the ladder."""
    series = [
        ("seed003_chain.dat", "seed003_chains.png", "N", "[5:110]",
         "Chains of N revolute joints (z/y axes), 6-D tip constraint: instructions per call (callgrind)",
         "chain length N", [("treeABA", "tree ABA (no constraint)"), ("CABA", "C-ABA (no constraint)"),
                            ("PV_W", "PV, 6-D weld"), ("PVe_W", "PV-early, 6-D weld"), ("LTL_W", "LTL, 6-D weld"),
                            ("PVs_W", "PV-soft, 6-D weld"), ("LTLs_W", "LTL-soft, 6-D weld"),
                            ("KKT_W", "KKT (dense), 6-D weld"), ("KDLfree", "KDL Vereshchagin, no constraint"),
                            ("KDL", "KDL Vereshchagin, 6-D constraint")]),
        ("seed003_ladder.dat", "seed003_ladder.png", "M", "[1:10]",
         "Ladder: M rungs of 7 links, every rung tip welded (6M rows): instructions per call (callgrind)",
         "rungs M (10 links each)", [("CABA", "C-ABA (no constraints)"), ("PV", "PV"), ("PVe", "PV-early"),
                                     ("LTL", "LTL"), ("PVs", "PV-soft"), ("LTLs", "LTL-soft"), ("KKT", "KKT (dense)")]),
    ]
    for source, out, x, xrange, title, xlabel, curves in series:
        path = os.path.join(results, source)
        if not os.path.exists(path):
            print(f"plot_results: {path} missing, no {out}")
            continue
        table = read_columns(path)
        files, plot = {}, []
        for column, label in curves:
            points = [(a, b) for a, b in zip(table[x], table.get(column, [])) if b == b]  # drop nan
            if not points:
                continue
            name = os.path.join(work, f"{out}_{column}.dat")
            files[name] = [(int(a), b / 1000.0) for a, b in points]
            plot.append(f"'{name}' using 1:2 with linespoints title '{label}'")
        gnuplot(TERMINAL.format(h=500) + f"\nset output '{os.path.join(plots, out)}'\n"
                f"set title '{title}'\nset xlabel '{xlabel}'\nset ylabel 'thousand instructions per call'\n"
                f"set logscale xy\nset xrange {xrange}\nset key top left\nset grid\nplot " + ", ".join(plot) + "\n", files)


def main():
    if len(sys.argv) not in (3, 5) or (len(sys.argv) == 5 and sys.argv[3:] != ["--only", "seed003"]):
        sys.exit(__doc__)
    results, plots = sys.argv[1], sys.argv[2]
    os.makedirs(plots, exist_ok=True)
    work = os.path.join(results, "plotdata")
    os.makedirs(work, exist_ok=True)
    if len(sys.argv) == 5:
        seed003_plots(results, plots, work)
        return
    seed003_plots(results, plots, work)
    scaling = os.path.join(results, "scaling.json")
    if os.path.exists(scaling):
        times = load_scaling(scaling)
        chain_plots(times, plots, work)
        ratio_plot(times, plots, work, "branch_depth.png", r"{kind}_branch_(\d+)_(\d+)", "depth",
                   [("revolute_rotor", "link + rotor"), ("revolute_rotor_pair", "belt pair"), ("four_bar", "four-bar")],
                   "branches")
        ratio_plot(times, plots, work, "locality.png", r"parallel_chain_{kind}_d(\d+)_l(\d+)", "loop size",
                   [("explicit", "explicit transmission"), ("implicit", "implicit connecting rod")], "depth")
    else:
        print(f"plot_results: {scaling} missing, no scaling plots")
    robots = os.path.join(results, "robots.json")
    if os.path.exists(robots):
        robot_plots(robots, plots, work)
    else:
        print(f"plot_results: {robots} missing, no robot plots")
    contacts = os.path.join(results, "contacts_instructions.dat")
    if os.path.exists(contacts):
        contacts_plot(contacts, plots, work)
    else:
        print(f"plot_results: {contacts} missing, no contacts plot")
    loops = os.path.join(results, "loops_instructions.dat")
    if os.path.exists(loops):
        loops_plot(loops, plots, work)
    cfa = os.path.join(results, "cfa.json")
    if os.path.exists(cfa):
        cfa_plot(cfa, plots, work)
    else:
        print(f"plot_results: {cfa} missing, no CFA plot")
    accuracy = os.path.join(results, "accuracy_1.50hz.dat")
    if os.path.exists(accuracy):
        accuracy_plot(accuracy, plots)
    else:
        print(f"plot_results: {accuracy} missing, no accuracy plot")


if __name__ == "__main__":
    main()
