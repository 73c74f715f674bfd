#!/usr/bin/python3
"""Test of analysis/propagation_effects.py (the manual's "Choosing a propagation model") on
hand-made d2d-exchange and fedavg run folders, against a table worked out by hand.

Link runs: node 0 at (0, 0, 0), node 1 at (3, 4, 0) (5 m from node 0: bin [0, 25)), node 2
at (30, 40, 0) (50 m: bin [50, 75)); a server (node 3 of 3 devices) at (0, 0, 12), 13 m
from node 1 (sqrt(3^2 + 4^2 + 12^2)). Rows are (src, dst, complete, p_drop, rss_w):

  A channel, log-distance, seed 1: 10 rows 0 -> 1 (p_drop 0.1, rss_w 1e-9 W = -60 dBm, one
    not complete); 10 rows 2 -> 0 (p_drop 0.5, rss_w 1e-12 W = -90 dBm, five not
    complete); 2 rows 1 -> 3 (D2S, 13 m: p_drop 0.2, rss_w 1e-10 W = -70 dBm, both
    complete); one row 0 -> 1 with reason unfinished (left out)
  B channel, log-distance, seed 2: 10 rows 1 -> 0 (p_drop 0.3, rss_w 1e-11 W = -80 dBm,
    three not complete); 10 rows 0 -> 2 (p_drop 0.7, rss_w 1e-13 W = -100 dBm, seven not
    complete)
    -> (channel, log-distance, d2d, [0, 25)): 20 rows, P_D (10 x 0.1 + 10 x 0.3) / 20 =
       0.2, loss 4 / 20 = 0.2, RSS (-60 - 80) / 2 = -70 dBm;
       (channel, log-distance, d2d, [50, 75)): 20 rows, P_D 0.6, loss 12 / 20 = 0.6,
       RSS -95 dBm; (channel, log-distance, d2s, [0, 25)): 2 rows, P_D 0.2, loss 0,
       RSS -70 dBm
  C channel, 3gpp-umi: 10 rows 0 -> 1 (p_drop 0, rss_w 1e-8 W = -50 dBm, all complete) and
    10 rows 0 -> 2 (p_drop 0.25, rss_w 1e-11 W = -80 dBm, two not complete)
    -> [0, 25): 10 rows, P_D 0, loss 0, RSS -50; [50, 75): 10 rows, P_D 0.25, loss 0.2,
       RSS -80
  D wifi, log-distance (messages.csv without p_drop's meaning nor rss_w): 10 rows 0 -> 1
    all complete, 10 rows 0 -> 2 none complete, one unfinished row (left out)
    -> [0, 25): 10 rows, loss 0; [50, 75): 10 rows, loss 1; P_D and RSS empty
Learning runs (run.json with rounds):
  E fedavg, channel, log-distance, seed 1: node -1 accuracy 0.6 at round 2 (4 s) -> round
    time 2 s; F seed 2: accuracy 0.8 at round 2 (6 s) -> 3 s
    -> (channel, log-distance): 2 runs, round time 2.5 s (sd 0.707107), accuracy 0.7
       (sd 0.141421)
  G fedavg, channel, 3gpp-umi: accuracy 0.5 at round 5 (20 s) -> 1 run, 4 s (sd 0), 0.5
Rows: the channel's link rows by preset (log-distance, then 3gpp-umi), link and bin, then
Wi-Fi's, then fedavg's by preset. The figure (figure_checks: labelled axes, rates within
[0, 1], no empty panel) has its six panels. And: a folder without run.json, a link run
whose devices move, and a row whose node has no position are one line each and exit 2
with nothing written.

Run it: /usr/bin/python3 tests/analysis/test_propagation_effects.py
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
SCRIPT = os.path.join(TOP, "analysis", "propagation_effects.py")
POSITIONS = [(0, 0, 0), (3, 4, 0), (30, 40, 0), (0, 0, 12)]
check = figure_checks.check


def link_run(root, name, params, groups, unfinished=False, positions=POSITIONS):
    """groups [(count, src, dst, not complete, p_drop, rss_w)]."""
    d = os.path.join(root, name)
    os.makedirs(d)
    base = {"backend": "channel", "propagation": "log-distance", "nDevices": 3,
            "speedMps": 0, "mobility": "constant"}
    base.update(params)
    channel = base["backend"] == "channel"
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump({"parameters": base}, f)
    with open(os.path.join(d, "positions.csv"), "w") as f:
        f.write("sim_time_s,node,x_m,y_m,z_m\n")
        for t in (0, 5):  # a later sample (not read: the devices are at rest)
            for node, (x, y, z) in enumerate(positions):
                f.write("%d.000000000,%d,%g,%g,%g\n" % (t, node, x + t, y, z))
    with open(os.path.join(d, "messages.csv"), "w") as f:
        f.write("msg_id,kind,src,dst,bytes,t_send_s,t_recv_s,fragments,fragments_lost,"
                "retransmissions,delivered,complete,mode,p_drop,reason"
                + (",rss_w,sinr\n" if channel else "\n"))
        k = 0
        for count, src, dst, lost, p, rss in groups:
            for i in range(count):
                k += 1
                ok = 0 if i < lost else 1
                tail = ",%g,%g" % (rss, rss / 1e-13) if channel else ""
                f.write("%d,data,%d,%d,1000,1,%s,1,%d,0,%d,%d,unreliable,%s,%s%s\n"
                        % (k, src, dst, "1.001" if ok else "", 1 - ok, ok, ok,
                           p if channel else 0, "" if ok else "loss", tail))
        if unfinished:
            f.write("%d,data,0,1,1000,9,,1,0,0,0,0,unreliable,%s,unfinished%s\n"
                    % (k + 1, "0.1" if channel else "0", ",1e-09,10000" if channel else ""))
    return d


def fedavg_run(root, name, params, rounds):
    d = os.path.join(root, name)
    os.makedirs(d)
    base = {"algorithm": "fedavg", "backend": "channel", "propagation": "log-distance",
            "rounds": 5, "nDevices": 10}
    base.update(params)
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump({"parameters": base}, f)
    with open(os.path.join(d, "rounds.csv"), "w") as f:
        f.write("round,sim_time_s,node,metric,value\n")
        for r, t, v in rounds:
            f.write("%d,%g,-1,accuracy,%g\n%d,%g,0,accuracy,0.99\n" % (r, t, v, r, t))
    with open(os.path.join(d, "energy.csv"), "w") as f:
        f.write("sim_time_s,node,component,energy_j,remaining_j,start_s,duration_s,power_w,"
                "periods\n1.000000000,0,radio_tx,1,100,0.000000000,1.000000000,1,1\n")
    return d


def main():
    with tempfile.TemporaryDirectory() as tmp:
        runs = [
            link_run(tmp, "A", {"seed": 1}, [(10, 0, 1, 1, 0.1, 1e-9), (10, 2, 0, 5, 0.5, 1e-12),
                                             (2, 1, 3, 0, 0.2, 1e-10)], unfinished=True),
            link_run(tmp, "B", {"seed": 2}, [(10, 1, 0, 3, 0.3, 1e-11),
                                             (10, 0, 2, 7, 0.7, 1e-13)]),
            link_run(tmp, "C", {"propagation": "3gpp-umi"}, [(10, 0, 1, 0, 0.0, 1e-8),
                                                             (10, 0, 2, 2, 0.25, 1e-11)]),
            link_run(tmp, "D", {"backend": "wifi"}, [(10, 0, 1, 0, 0, 0), (10, 0, 2, 10, 0, 0)],
                     unfinished=True),
            fedavg_run(tmp, "E", {"seed": 1}, [(0, 0, 0.1), (2, 4, 0.6)]),
            fedavg_run(tmp, "F", {"seed": 2}, [(0, 0, 0.1), (2, 6, 0.8)]),
            fedavg_run(tmp, "G", {"propagation": "3gpp-umi"}, [(5, 20, 0.5)]),
        ]
        table = os.path.join(tmp, "t.csv")
        figs = os.path.join(tmp, "figs")
        p = subprocess.run(["/usr/bin/python3", SCRIPT, *runs, "--table", table, "--figure",
                            figs], capture_output=True, text=True)
        check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
        rows = list(csv.DictReader(open(table))) if p.returncode == 0 else []
        E = None  # an empty cell
        # part, backend, propagation, link, from, to, rows, P_D, loss, RSS
        want_links = [
            ("channel", "log-distance", "d2d", 0, 25, 20, 0.2, 0.2, -70.0),
            ("channel", "log-distance", "d2d", 50, 75, 20, 0.6, 0.6, -95.0),
            ("channel", "log-distance", "d2s", 0, 25, 2, 0.2, 0.0, -70.0),
            ("channel", "3gpp-umi", "d2d", 0, 25, 10, 0.0, 0.0, -50.0),
            ("channel", "3gpp-umi", "d2d", 50, 75, 10, 0.25, 0.2, -80.0),
            ("wifi", "log-distance", "d2d", 0, 25, 10, E, 0.0, E),
            ("wifi", "log-distance", "d2d", 50, 75, 10, E, 1.0, E),
        ]
        # backend, propagation, runs, round time, sd, accuracy, sd
        want_fedavg = [("channel", "log-distance", 2, 2.5, 0.707107, 0.7, 0.141421),
                       ("channel", "3gpp-umi", 1, 4.0, 0.0, 0.5, 0.0)]
        links = [r for r in rows if r["part"] == "links"]
        fed = [r for r in rows if r["part"] == "fedavg"]
        check([r["part"] for r in rows] == ["links"] * len(want_links)
              + ["fedavg"] * len(want_fedavg), "parts %s" % [r["part"] for r in rows])

        def same(cell, v):
            if v is None:
                return cell == ""
            return cell != "" and math.isclose(float(cell), v, rel_tol=1e-5, abs_tol=1e-9)

        keys = ["backend", "propagation", "link", "distance_from_m", "distance_to_m", "rows",
                "p_drop_model", "message_loss", "rss_dbm"]
        check(len(links) == len(want_links), "%d link rows, want %d" % (len(links),
                                                                        len(want_links)))
        for row, w in zip(links, want_links):
            check([row[k] for k in keys[:3]] == list(w[:3]), "row %s, want %s"
                  % ([row[k] for k in keys[:3]], w[:3]))
            for k, v in zip(keys[3:], w[3:]):
                check(same(row[k], v), "%s %s = %r, want %s" % (w[:5], k, row[k], v))
            for k in ("runs", "round_time_s", "accuracy"):
                check(row[k] == "", "%s: %s not empty" % (w[:5], k))
        keys = ["backend", "propagation", "runs", "round_time_s", "round_time_sd_s",
                "accuracy", "accuracy_sd"]
        check(len(fed) == len(want_fedavg), "%d fedavg rows" % len(fed))
        for row, w in zip(fed, want_fedavg):
            check([row["backend"], row["propagation"]] == list(w[:2]), "fedavg row %s"
                  % ([row["backend"], row["propagation"]],))
            for k, v in zip(keys[2:], w[2:]):
                check(same(row[k], v), "%s %s = %r, want %s" % (w[:2], k, row[k], v))
            check(row["rows"] == "" and row["link"] == "", "%s: link columns not empty" % (w,))
        png = os.path.join(figs, "propagation_effects.png")
        check(os.path.isfile(png) and os.path.getsize(png) > 10000, "no figure at %s" % png)
        rc, _, drawn = figure_checks.render("propagation_effects",
                                            [*runs, "--figure", os.path.join(tmp, "f2")])
        check(rc == 0, "in process: exit %d" % rc)
        fig = drawn[0][1] if drawn else None
        problems = figure_checks.all_problems(drawn)
        check(problems == [], "figure problems: %s" % problems)
        shown = [ax for ax in fig.axes if ax.axison] if fig else []
        check(len(shown) == 6, "six panels, got %d" % len(shown))
        check(fig is not None and figure_checks.no_data_texts(fig) == [], "no empty panel")
        # The channel's P_D panel: one line per preset through the bins' centres.
        pd = shown[0] if shown else None
        lines = {ln.get_label(): (list(ln.get_xdata()), list(ln.get_ydata()))
                 for ln in pd.lines} if pd else {}
        xs, ys = lines.get("log-distance", ([], []))
        check(xs == [12.5, 62.5] and len(ys) == 2 and all(
            math.isclose(y, v) for y, v in zip(ys, [0.2, 0.6])),
            "log-distance's P_D line: %s" % (lines.get("log-distance"),))
        check(pd is not None and pd.get_ylim() == (0.0, 1.0), "P_D on [0, 1]")
        # Only the channel: the Wi-Fi panel and the learning panels are left out, named.
        rc, _, drawn = figure_checks.render("propagation_effects",
                                            [runs[0], runs[1], "--figure",
                                             os.path.join(tmp, "f3")])
        fig = drawn[0][1] if drawn else None
        check(rc == 0 and figure_checks.all_problems(drawn) == [], "channel only: %d %s"
              % (rc, figure_checks.all_problems(drawn)))
        check(fig is not None and len([ax for ax in fig.axes if ax.axison]) == 3,
              "channel only: three panels")
        check(fig is not None and "Wi-Fi (802.11a): messages lost" in fig.texts[-1].get_text(),
              "the panels left out named: %s" % ([t.get_text() for t in fig.texts]
                                                 if fig else None))
        out = os.path.join(tmp, "never.csv")
        for bad, needle in [
                (link_run(tmp, "M", {"speedMps": 5}, [(1, 0, 1, 0, 0.1, 1e-9)]), "move"),
                (link_run(tmp, "N", {}, [(1, 0, 2, 0, 0.1, 1e-9)], positions=POSITIONS[:2]),
                 "node 2 has no position")]:
            why = figure_checks.refusal_problem(SCRIPT, [runs[0], bad, "--table", out], out,
                                                needle)
            check(not why, "%s: %s" % (needle, why))
        os.remove(os.path.join(runs[0], "run.json"))
        why = figure_checks.refusal_problem(SCRIPT, [runs[0], "--table", out], out, "run.json")
        check(not why, "a folder without run.json: %s" % why)
    figure_checks.finish("test_propagation_effects")


if __name__ == "__main__":
    main()
