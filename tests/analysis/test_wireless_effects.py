#!/usr/bin/python3
"""Test of analysis/wireless_effects.py (the manual's "What the wireless parameters do") on
hand-made fedavg run folders, against a table worked out by hand.

  A fedavg, channel, server at the centre, at rest, seed 1: node -1 accuracy 0.1 at round 0
    (0 s), 0.6 at round 2 (4 s); node 0's 0.9 ignored; energy.csv 5 + 15 J over 10 devices
    -> accuracy 0.6, round time 4 / 2 = 2 s, energy 2 J
  B the same, seed 2: accuracy 0.8 at round 2 (6 s), 40 J -> 0.8, 3 s, 4 J
    -> A and B are the base: the point x = 0 of the server sweep and of the speed sweep:
       accuracy 0.7 (sd 0.141421), round time 2.5 s (sd 0.707107), energy 3 J (sd 1.41421)
  C server at "0,0,0" of a 50 m square: distance sqrt(25^2 + 25^2) = 35.3553 m; accuracy
    0.5 at round 2 (8 s), 10 J -> 0.5, 4 s, 1 J; server sweep only
  D decentralized, --dropProbability 0.01: accuracy 0.3 at round 1 (1.5 s), 3 J -> drop
    sweep only, x 0.01, round time 1.5 s, energy 0.3 J
  E moves the server and the speed: in no sweep
And: a folder without run.json is one line and exit 2; the figure is written, and passes
figure_checks (only the server sweep has a line: its column alone, the others named once).
"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import figure_checks  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(TOP, "analysis", "wireless_effects.py")
check = figure_checks.check


def run_dir(root, name, params, rounds, energy):
    d = os.path.join(root, name)
    os.makedirs(d)
    base = {"algorithm": "fedavg", "backend": "channel", "areaSideM": 50, "nDevices": 10,
            "serverPosition": "centre", "speedMps": 0, "dropProbability": -1}
    base.update(params)
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump({"parameters": base}, f)
    with open(os.path.join(d, "rounds.csv"), "w") as f:
        f.write("round,sim_time_s,node,metric,value\n")
        for r, t, node, v in rounds:
            f.write("%d,%g,%d,accuracy,%g\n%d,%g,%d,loss,1.0\n" % (r, t, node, v, r, t, node))
    with open(os.path.join(d, "energy.csv"), "w") as f:
        f.write("sim_time_s,node,component,energy_j,remaining_j,start_s,duration_s,power_w,"
                "periods\n")
        for i, e in enumerate(energy):
            f.write("1.000000000,%d,radio_tx,%g,100,0.000000000,1.000000000,%g,1\n" % (i, e, e))
    return d


def main():
    with tempfile.TemporaryDirectory() as tmp:
        runs = [
            run_dir(tmp, "A", {"seed": 1}, [(0, 0, -1, 0.1), (2, 4, -1, 0.6), (2, 4, 0, 0.9)],
                    [5, 15]),
            run_dir(tmp, "B", {"seed": 2}, [(0, 0, -1, 0.1), (2, 6, -1, 0.8)], [40]),
            run_dir(tmp, "C", {"serverPosition": "0,0,0"}, [(0, 0, -1, 0.1), (2, 8, -1, 0.5)],
                    [10]),
            run_dir(tmp, "D", {"algorithm": "decentralized", "dropProbability": 0.01},
                    [(0, 0, -1, 0.1), (1, 1.5, -1, 0.3)], [3]),
            run_dir(tmp, "E", {"serverPosition": "0,0", "speedMps": 5}, [(1, 1, -1, 0.2)], [1]),
        ]
        table = os.path.join(tmp, "t.csv")
        figs = os.path.join(tmp, "figs")
        p = subprocess.run(["/usr/bin/python3", SCRIPT, *runs, "--table", table, "--figure", figs],
                           capture_output=True, text=True)
        check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
        rows = {(r["sweep"], r["algorithm"], r["x"]): r for r in csv.DictReader(open(table))}
        want = {
            ("server", "fedavg", "0"): (2, 0.7, 0.141421, 2.5, 0.707107, 3.0, 1.41421),
            ("speedMps", "fedavg", "0"): (2, 0.7, 0.141421, 2.5, 0.707107, 3.0, 1.41421),
            ("server", "fedavg", "35.3553"): (1, 0.5, 0.0, 4.0, 0.0, 1.0, 0.0),
            ("dropProbability", "decentralized", "0.01"): (1, 0.3, 0.0, 1.5, 0.0, 0.3, 0.0),
        }
        check(set(rows) == set(want), "points %s, want %s" % (sorted(rows), sorted(want)))
        keys = ["runs", "accuracy", "accuracy_sd", "round_time_s", "round_time_sd", "energy_j",
                "energy_sd"]
        for point, values in want.items():
            row = rows.get(point)
            if not row:
                continue
            for key, v in zip(keys, values):
                check(math.isclose(float(row[key]), v, rel_tol=1e-5, abs_tol=1e-9),
                      "%s %s = %s, want %g" % (point, key, row[key], v))
        png = os.path.join(figs, "wireless_effects.png")
        check(os.path.isfile(png) and os.path.getsize(png) > 10000, "no figure at %s" % png)
        # The figure drawn here (figure_checks): only the server sweep has a series of
        # two points; the drop-probability and speed columns would be empty panels, so
        # they are left out and named once beneath.
        rc, _, drawn = figure_checks.render("wireless_effects",
                                            [*runs, "--figure", os.path.join(tmp, "f2")])
        check(rc == 0, "in process: exit %d" % rc)
        fig = drawn[0][1] if drawn else None
        problems = figure_checks.all_problems(drawn)
        check(problems == [], "figure problems: %s" % problems)
        check(fig is not None and len([ax for ax in fig.axes if ax.axison]) == 3,
              "one column of three panels")
        check(fig is not None and figure_checks.no_data_texts(fig) == [], "no empty panel")
        check(fig is not None and [t.get_text() for t in fig.texts][1:] == [
            "Not shown: no series has two points of the sweep of dropProbability or "
            "speedMps."], "the sweeps left out named: %s"
            % ([t.get_text() for t in fig.texts] if fig else None))
        os.remove(os.path.join(runs[0], "run.json"))
        p = subprocess.run(["/usr/bin/python3", SCRIPT, runs[0], "--table", table],
                           capture_output=True, text=True)
        check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
              and "run.json" in p.stderr, "a folder without run.json: %d %r"
              % (p.returncode, p.stderr))
    figure_checks.finish("test_wireless_effects")


if __name__ == "__main__":
    main()
