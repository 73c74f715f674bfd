#!/usr/bin/python3
"""Test of analysis/async_effects.py (time and energy to a target accuracy of FedAvg,
FedAsync and FedBuff by the spread of the devices' speeds and the share of the time they
are there) on hand-made fedavg run folders, against a table worked out by hand (target 0.7).

rounds.csv rows of node -1 (round: time s, energy_j J, accuracy); each run also has rows to
ignore (node -1 loss and energy_j.compute, node 0's accuracy 0.99). Availability: the runs
A to E are always there (A1 and B1 with meanOnTime_s = meanOffTime_s = 0 as the program
writes them, the others without the parameters: share 1); G1 (meanOnTime_s 60,
meanOffTime_s 30), G2 (120, 60) and H (60, 30) are there 60 / 90 = 120 / 180 = 2/3 of the
time (the test computes the share itself: 0.666667 in the table, "there 67 % of the
time" in the titles); G1 and G2 are one point (the same share).

  spread 0.5, always there
  A1 fedavg, overSelection 1 (= none), seed 1: 0: 0, 0, 0.1; 1: 10, 100, 0.5;
     2: 20, 200, 0.75; 3: 30, 300, 0.8 -> to target 20 s, 200 J; final 0.8, 30 s, 300 J
  A2 fedavg, no overSelection, seed 2: 0: 0, 0, 0.1; 1: 15, 160, 0.72; 2: 30, 320, 0.9
     -> 15 s, 160 J; final 0.9, 30 s, 320 J
     -> FedAvg: runs 2, reached 2, time 17.5 s, sd 5/sqrt(2) = 3.5355339 -> 3.53553;
        energy 180 J, sd 40/sqrt(2) = 28.284271 -> 28.2843; final 0.85, sd
        0.1/sqrt(2) = 0.0707107 -> 0.0707; time 30 s; energy 310 J
  B1 fedbuff, seed 1: 0: 0, 0, 0.1; 1: 5, 50, 0.4; 2: 12, 130, 0.7 (= the target: reached);
     3: 30, 250, 0.71 -> 12 s, 130 J; final 0.71, 30 s, 250 J
  B2 fedbuff, seed 2, never reaches 0.7: 0: 0, 0, 0.1; 1: 10, 90, 0.6; 2: 25, 210, 0.65
     -> FedBuff: runs 2, reached 1, time 12 s, sd 0; energy 130 J, sd 0; final 0.68, sd
        0.06/sqrt(2) = 0.0424264 -> 0.0424; time 27.5 s; energy 230 J
  spread 0.5, there 2/3 of the time
  G1 fedavg, seed 1: 0: 0, 0, 0.1; 1: 20, 150, 0.6; 2: 40, 300, 0.72 -> 40 s, 300 J;
     final 0.72, 40 s, 300 J
  G2 fedavg, seed 2: 0: 0, 0, 0.1; 1: 25, 200, 0.75; 2: 45, 380, 0.78 -> 25 s, 200 J;
     final 0.78, 45 s, 380 J
     -> FedAvg: runs 2, reached 2, time 32.5 s, sd 15/sqrt(2) = 10.6066; energy 250 J, sd
        100/sqrt(2) = 70.7107; final 0.75, sd 0.06/sqrt(2) -> 0.0424; 42.5 s; 340 J
  spread 1.5, always there
  C  fedavg, overSelection 1.5, never reaches: 0: 0, 0, 0.1; 1: 20, 300, 0.5;
     2: 35, 500, 0.6 -> "FedAvg, over-selection 1.5": runs 1, reached 0, empty cells for
     the time and energy to target; final 0.6, sd 0; 35 s; 500 J
  D  fedasync: 0: 0, 0, 0.1; 1: 8, 40, 0.3; 2: 16, 90, 0.8; 3: 24, 140, 0.85 -> 16 s,
     90 J, sd 0; final 0.85; 24 s; 140 J
  E  fedprox (another algorithm: its name): 0: 0, 0, 0.1; 1: 30, 400, 0.75 -> 30 s, 400 J;
     final 0.75; 30 s; 400 J
  spread 1.5, there 2/3 of the time
  H  fedasync: 0: 0, 0, 0.1; 1: 10, 60, 0.5; 2: 30, 200, 0.7 -> 30 s, 200 J; final 0.7;
     30 s; 200 J
Rows: 0.5 always: FedAvg, FedBuff; 0.5 2/3: FedAvg; 1.5 always: FedAvg over-selection 1.5,
FedAsync, fedprox; 1.5 2/3: FedAsync.

--target 0.6: FedBuff reaches in both runs: B1 at 12 s (0.4 at 5 s is below), B2 at 10 s
-> reached 2, time 11 s, sd 2/sqrt(2) = 1.41421; energy (130 + 90) / 2 = 110 J, sd
40/sqrt(2) = 28.2843; C reaches at 35 s, 500 J; FedAvg at 2/3: G1 at 20 s, 150 J, G2 at
25 s, 200 J -> 22.5 s, sd 3.53553; 175 J, sd 35.3553.

The figure (figure_checks: labelled axes, no accuracy outside [0, 1]): 2 rows x 4 columns
(spread, availability: 0.5 always, 0.5 2/3, 1.5 always, 1.5 2/3);
FedAvg's mean curve at 0.5, always there, against time on the union grid 0, 10, 15, 20, 30 (up to
min(30, 30)): at 15 s A1 holds 0.5 and A2 is at 0.72 -> 0.61, at 20 s (0.75 + 0.72) / 2 =
0.735, at 30 s (0.8 + 0.9) / 2 = 0.85; against energy up to min(300, 320) = 300 J: at
160 J 0.61, at 200 J 0.735, at 300 J (0.8 + 0.72) / 2 = 0.76 (A2 holds 0.72); FedBuff's
against time ends at min(30, 25) = 25 s. FedAvg's at 0.5, there 2/3 of the time, against
time on 0, 20, 25, 40 (up to min(40, 45)): at 20 s G1 is at 0.6 and G2 holds its round 0's
0.1 -> 0.35, at 25 s (0.6 + 0.75) / 2 = 0.675, at 40 s (0.72 + 0.75) / 2 = 0.735 (the
always-there runs do not enter it). Each panel has the dashed target line at 0.7.

And: --target 0 and 1.5 refused, a missing folder, a run without energy_j rows, one
without run.json parameters, one with meanOnTime_s 60 and meanOffTime_s 0, one with a
negative meanOffTime_s and one with an availabilityFile: one line each, exit 2, nothing
written.

Run it: /usr/bin/python3 tests/analysis/test_async_effects.py
"""
import csv
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import figure_checks  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(TOP, "analysis", "async_effects.py")
check = figure_checks.check


def close(got, want):
    return math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12)


def run_dir(root, name, params, rounds, energy=True):
    """rounds [(round, time, energy_j, accuracy)]."""
    d = os.path.join(root, name)
    os.makedirs(d)
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump({"parameters": params}, f)
    with open(os.path.join(d, "rounds.csv"), "w") as f:
        f.write("round,sim_time_s,node,metric,value\n")
        for r, t, e, a in rounds:
            f.write("%d,%.9f,-1,accuracy,%r\n" % (r, t, a))
            f.write("%d,%.9f,-1,loss,%r\n" % (r, t, 2.0 - a))
            f.write("%d,%.9f,0,accuracy,0.99\n" % (r, t))
            if energy:
                f.write("%d,%.9f,-1,energy_j,%r\n" % (r, t, float(e)))
                f.write("%d,%.9f,-1,energy_j.compute,%r\n" % (r, t, e / 2))
    return d


def table(runs, path, *extra):
    p = subprocess.run(["/usr/bin/python3", SCRIPT, *runs, "--table", path, *extra],
                       capture_output=True, text=True)
    check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
    return p, (list(csv.DictReader(open(path))) if p.returncode == 0 else [])


def main():
    with tempfile.TemporaryDirectory() as tmp:
        runs = [
            run_dir(tmp, "A1", {"algorithm": "fedavg", "overSelection": 1.0,
                                "computeSpread": 0.5, "seed": 1, "meanOnTime_s": 0,
                                "meanOffTime_s": -0.0},
                    [(0, 0, 0, 0.1), (1, 10, 100, 0.5), (2, 20, 200, 0.75),
                     (3, 30, 300, 0.8)]),
            run_dir(tmp, "A2", {"algorithm": "fedavg", "computeSpread": 0.5, "seed": 2},
                    [(0, 0, 0, 0.1), (1, 15, 160, 0.72), (2, 30, 320, 0.9)]),
            run_dir(tmp, "B1", {"algorithm": "fedbuff", "computeSpread": 0.5, "seed": 1,
                                "meanOnTime_s": 0, "meanOffTime_s": 0,
                                "availabilityFile": ""},
                    [(0, 0, 0, 0.1), (1, 5, 50, 0.4), (2, 12, 130, 0.7), (3, 30, 250, 0.71)]),
            run_dir(tmp, "B2", {"algorithm": "fedbuff", "computeSpread": 0.5, "seed": 2},
                    [(0, 0, 0, 0.1), (1, 10, 90, 0.6), (2, 25, 210, 0.65)]),
            run_dir(tmp, "C", {"algorithm": "fedavg", "overSelection": 1.5,
                               "computeSpread": 1.5, "seed": 1},
                    [(0, 0, 0, 0.1), (1, 20, 300, 0.5), (2, 35, 500, 0.6)]),
            run_dir(tmp, "D", {"algorithm": "fedasync", "computeSpread": 1.5, "seed": 1},
                    [(0, 0, 0, 0.1), (1, 8, 40, 0.3), (2, 16, 90, 0.8), (3, 24, 140, 0.85)]),
            run_dir(tmp, "E", {"algorithm": "fedprox", "computeSpread": 1.5, "seed": 1},
                    [(0, 0, 0, 0.1), (1, 30, 400, 0.75)]),
            run_dir(tmp, "G1", {"algorithm": "fedavg", "computeSpread": 0.5, "seed": 1,
                                "meanOnTime_s": 60, "meanOffTime_s": 30},
                    [(0, 0, 0, 0.1), (1, 20, 150, 0.6), (2, 40, 300, 0.72)]),
            run_dir(tmp, "G2", {"algorithm": "fedavg", "computeSpread": 0.5, "seed": 2,
                                "meanOnTime_s": 120.0, "meanOffTime_s": 60.0},
                    [(0, 0, 0, 0.1), (1, 25, 200, 0.75), (2, 45, 380, 0.78)]),
            run_dir(tmp, "H", {"algorithm": "fedasync", "computeSpread": 1.5, "seed": 1,
                               "meanOnTime_s": 60, "meanOffTime_s": 30},
                    [(0, 0, 0, 0.1), (1, 10, 60, 0.5), (2, 30, 200, 0.7)]),
        ]
        # The share of the time a device is there, worked out here: T_on / (T_on + T_off).
        share = 60 / (60 + 30)
        check(close(share, 120 / (120 + 60)), "G1 and G2: one share")
        out = os.path.join(tmp, "t.csv")
        p, rows = table(runs, out)
        check("wrote %s" % out in p.stdout and "target accuracy 0.7)" in p.stdout,
              "the message names the file and the target: %r" % p.stdout)
        header = open(out).readline().strip() if os.path.exists(out) else ""
        check(header == "spread,available_share,protocol,runs,reached,time_to_target_s,time_to_target_sd,"
              "energy_to_target_j,energy_to_target_sd,final_accuracy,final_accuracy_sd,"
              "time_s,energy_j", "header %r" % header)
        # (spread, available share, protocol, runs, reached, time, time sd, energy, energy
        #  sd, final accuracy, its sd, time_s, energy_j); None: an empty cell
        want = [
            (0.5, 1, "FedAvg", 2, 2, 17.5, 3.53553, 180, 28.2843, 0.85, 0.0707, 30, 310),
            (0.5, 1, "FedBuff", 2, 1, 12, 0, 130, 0, 0.68, 0.0424, 27.5, 230),
            (0.5, share, "FedAvg", 2, 2, 32.5, 10.6066, 250, 70.7107, 0.75, 0.0424, 42.5,
             340),
            (1.5, 1, "FedAvg, over-selection 1.5", 1, 0, None, None, None, None, 0.6, 0, 35,
             500),
            (1.5, 1, "FedAsync", 1, 1, 16, 0, 90, 0, 0.85, 0, 24, 140),
            (1.5, 1, "fedprox", 1, 1, 30, 0, 400, 0, 0.75, 0, 30, 400),
            (1.5, share, "FedAsync", 1, 1, 30, 0, 200, 0, 0.7, 0, 30, 200),
        ]
        got = [(r["spread"], r["available_share"], r["protocol"]) for r in rows]
        check(len(rows) == len(want)
              and all(close(float(r["spread"]), w[0]) and r["protocol"] == w[2]
                      and math.isclose(float(r["available_share"]), w[1], rel_tol=1e-5)
                      for r, w in zip(rows, want)), "rows %s" % got)
        # the share as %.6g, like the spread
        check([r["available_share"] for r in rows] == ["%.6g" % w[1] for w in want],
              "available_share cells %s" % [r["available_share"] for r in rows])
        keys = ["runs", "reached", "time_to_target_s", "time_to_target_sd",
                "energy_to_target_j", "energy_to_target_sd", "final_accuracy",
                "final_accuracy_sd", "time_s", "energy_j"]
        for row, w in zip(rows, want):
            for key, v in zip(keys, w[3:]):
                if v is None:
                    check(row[key] == "", "%s %.6g %s: %s = %r, want an empty cell"
                          % (w[0], w[1], w[2], key, row[key]))
                else:
                    check(row[key] != "" and close(float(row[key]), v),
                          "%s %.6g %s: %s = %r, want %g"
                          % (w[0], w[1], w[2], key, row[key], v))
        check(rows and rows[0]["final_accuracy"] == "0.8500", "accuracies as %.4f")

        # --target 0.6: FedBuff reached 2, 11 s (sd 1.41421), 110 J (sd 28.2843); C at 35 s;
        # FedAvg at 2/3: 22.5 s (sd 3.53553), 175 J (sd 35.3553)
        out6 = os.path.join(tmp, "t6.csv")
        p, rows6 = table(runs, out6, "--target", "0.6")
        check("target accuracy 0.6)" in p.stdout, "the message names the target 0.6: %r" % p.stdout)
        by = {(r["spread"], r["available_share"], r["protocol"]): r for r in rows6}
        buff = ("0.5", "1", "FedBuff")
        over = ("1.5", "1", "FedAvg, over-selection 1.5")
        away = ("0.5", "%.6g" % share, "FedAvg")
        for name, key, v in ((buff, "reached", 2), (buff, "time_to_target_s", 11),
                             (buff, "time_to_target_sd", 1.41421),
                             (buff, "energy_to_target_j", 110),
                             (buff, "energy_to_target_sd", 28.2843),
                             (over, "reached", 1), (over, "time_to_target_s", 35),
                             (over, "energy_to_target_j", 500),
                             (away, "reached", 2), (away, "time_to_target_s", 22.5),
                             (away, "time_to_target_sd", 3.53553),
                             (away, "energy_to_target_j", 175),
                             (away, "energy_to_target_sd", 35.3553)):
            got = by.get(name, {}).get(key, "")
            check(got != "" and close(float(got), v),
                  "--target 0.6: %s %s = %r, want %g" % (name, key, got, v))

        # The figure, in this process (figure_checks inspects the matplotlib objects).
        if importlib.util.find_spec("matplotlib") is None:
            print("skipped the figure: matplotlib is not importable by %s" % sys.executable)
        else:
            rc, _, drawn = figure_checks.render("async_effects",
                                                [*runs, "--figure", os.path.join(tmp, "f")])
            check(rc == 0, "in process: exit %d" % rc)
            png = os.path.join(tmp, "f", "async_effects.png")
            check(os.path.isfile(png) and os.path.getsize(png) > 10000, "no figure at %s" % png)
            fig = drawn[0][1] if drawn else None
            problems = figure_checks.all_problems(drawn)
            check(problems == [], "figure problems: %s" % problems)
            axes = fig.axes if fig is not None else []
            check(len(axes) == 8, "2 x 4 panels, got %d" % len(axes))
            there = "there %d %% of the time" % round(100 * share)  # 67 %
            check([ax.get_title() for ax in axes] == ["spread 0.5, always there",
                                                      "spread 0.5, " + there,
                                                      "spread 1.5, always there",
                                                      "spread 1.5, " + there] * 2,
                  "titles %s" % [ax.get_title() for ax in axes])
            for ax in axes:
                check(ax.get_ylim() == (0.0, 1.0), "accuracy limits %s" % (ax.get_ylim(),))
                dashed = [ln for ln in ax.lines if ln.get_linestyle() == "--"
                          and list(ln.get_ydata()) == [0.7, 0.7]]
                check(len(dashed) == 1, "%s: the dashed target line" % ax.get_title())
            if len(axes) == 8:
                # subplots(2, columns): axes 0-3 the top row (time), 4-7 the bottom (energy)
                for ax, at in ((axes[0], {15: 0.61, 20: 0.735, 30: 0.85}),
                               (axes[4], {160: 0.61, 200: 0.735, 300: 0.76}),
                               (axes[1], {20: 0.35, 25: 0.675, 40: 0.735})):
                    line = next((ln for ln in ax.lines
                                 if ln.get_label() == "FedAvg"), None)
                    check(line is not None, "a FedAvg line in %s, %s"
                          % (ax.get_title(), ax.get_xlabel()))
                    if line is None:
                        continue
                    xs, ys = list(line.get_xdata()), list(line.get_ydata())
                    for x, v in at.items():
                        check(x in xs and close(ys[xs.index(x)], v),
                              "%s, %s: FedAvg's mean at %g = %s, want %g"
                              % (ax.get_title(), ax.get_xlabel(), x,
                                 ys[xs.index(x)] if x in xs else "-", v))
                    check(max(xs) == max(at), "FedAvg's mean ends at %g, want %g"
                          % (max(xs), max(at)))
                buff = next((ln for ln in axes[0].lines
                             if ln.get_label() == "FedBuff"), None)
                check(buff is not None and max(buff.get_xdata()) == 25,
                      "FedBuff's mean against time ends at min(30, 25) = 25 s")
                colours = {}  # protocol -> the colours of its lines in every panel
                for ax in axes:
                    for ln in ax.lines:
                        colours.setdefault(ln.get_label(), set()).add(ln.get_color())
                check(all(len(c) == 1 for c in colours.values())
                      and len(colours.get("FedAvg", ())) == 1,
                      "one colour per protocol in every panel: %s" % colours)

        # Bad input: one line, exit 2, nothing written.
        never = os.path.join(tmp, "never.csv")
        for target in ("0", "1.5"):
            why = figure_checks.refusal_problem(SCRIPT, [runs[0], "--table", never,
                                                         "--target", target], never,
                                                "--target")
            check(not why, "--target %s: %s" % (target, why))
        table([runs[0]], os.path.join(tmp, "t1.csv"), "--target", "1")  # 1: in range
        why = figure_checks.refusal_problem(SCRIPT, [runs[0], os.path.join(tmp, "none"),
                                                     "--table", never], never, "not found")
        check(not why, "a missing folder: %s" % why)
        bare = run_dir(tmp, "F", {"algorithm": "fedbuff"}, [(0, 0, 0, 0.1), (1, 5, 0, 0.5)],
                       energy=False)
        why = figure_checks.refusal_problem(SCRIPT, [runs[0], bare, "--table", never], never,
                                            "no node -1 energy_j rows")
        check(not why, "a run without energy_j rows: %s" % why)
        with open(os.path.join(runs[1], "run.json"), "w") as f:
            json.dump({"summary": {}}, f)
        why = figure_checks.refusal_problem(SCRIPT, [runs[1], "--table", never], never,
                                            "parameters")
        check(not why, "a run.json without parameters: %s" % why)
        for name, params, needle in (
                ("I1", {"meanOnTime_s": 60, "meanOffTime_s": 0}, "both > 0"),
                ("I2", {"meanOnTime_s": 60, "meanOffTime_s": -30}, "negative"),
                ("I3", {"availabilityFile": "trace.csv"}, "availabilityFile")):
            bad = run_dir(tmp, name, dict(params, algorithm="fedavg"),
                          [(0, 0, 0, 0.1), (1, 5, 50, 0.5)])
            why = figure_checks.refusal_problem(SCRIPT, [runs[0], bad, "--table", never],
                                                never, needle)
            check(not why, "%s %s: %s" % (name, params, why))
    figure_checks.finish("test_async_effects")


if __name__ == "__main__":
    main()
