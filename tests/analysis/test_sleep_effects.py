#!/usr/bin/python3
"""Test of analysis/sleep_effects.py (the energy page's table and figure of sleep) on
hand-made fedavg run folders, against a table worked out by hand.

  A fedavg, no sleep, seed 1, 2 devices: energy.csv radio_idle 3 J + d2s_tx 5 J + d2s_idle
    2 J (+ compute 100 J, not a radio) -> 10 J / 2 = 5 J per device; messages.csv: two
    delivered, latencies 0.1 and 0.3 s (sleep_wait 0), one not delivered (latency 9 s,
    ignored) -> 0.2 s; rounds.csv node -1 accuracy 0.5 at round 2 (4 s), node 0's 0.9
    ignored -> accuracy 0.5, time 4 s
  B the same, seed 2: d2s_tx 8 J -> 4 J per device; latencies 0.2, 0.2 s -> 0.2 s;
    accuracy 0.7 at 6 s
    -> point (fedavg, none): runs 2, energy 4.5 J (sd 0.707107), latency 0.2 s (sd 0),
       accuracy 0.6, time 5 s
  C fedavg, --d2sDrx=100ms,10ms,20ms and --sleepWhileTraining: d2s_sleep 1 J + d2s_tx 3 J
    -> 2 J per device; latencies 0.3 and 0.5 s, sleep waits 0.1 and 0.3 s -> 0.4 s, wait
    0.2 s -> (fedavg, "DRX 100ms/10ms/20ms + sleep while training")
  D decentralized, --drx=20ms,2ms: one setting only -> its panel says so
Rows: fedavg's "none" first, then C; then D. The figure (figure_checks: labelled axes, no
value outside the metric's domain): fedavg's panel with two points, decentralized's with
its no-data text. And: a folder without run.json, and a run without a delivered message,
are one line each and exit 2 with nothing written.

Run it: /usr/bin/python3 tests/analysis/test_sleep_effects.py
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
SCRIPT = os.path.join(TOP, "analysis", "sleep_effects.py")
check = figure_checks.check


def run_dir(root, name, params, energy, messages, rounds):
    """energy [(component, J)], messages [(t_send, t_recv, delivered, sleep_wait)], rounds
    [(round, time, node, accuracy)]."""
    d = os.path.join(root, name)
    os.makedirs(d)
    base = {"algorithm": "fedavg", "nDevices": 2, "drx": "", "d2sDrx": "",
            "sleepWhileTraining": False}
    base.update(params)
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump({"parameters": base}, f)
    with open(os.path.join(d, "energy.csv"), "w") as f:
        f.write("sim_time_s,node,component,energy_j,remaining_j,start_s,duration_s,power_w,"
                "periods\n")
        for i, (comp, e) in enumerate(energy):
            f.write("1.000000000,%d,%s,%g,100,0.000000000,1.000000000,%g,1\n"
                    % (i % 2, comp, e, e))
    with open(os.path.join(d, "messages.csv"), "w") as f:
        f.write("msg_id,kind,src,dst,bytes,t_send_s,t_recv_s,delivered,sleep_wait_s\n")
        for i, (ts, tr, ok, wait) in enumerate(messages):
            f.write("%d,update,0,1,100,%g,%g,%d,%g\n" % (i + 1, ts, tr, ok, wait))
    with open(os.path.join(d, "rounds.csv"), "w") as f:
        f.write("round,sim_time_s,node,metric,value\n")
        for r, t, node, v in rounds:
            f.write("%d,%g,%d,accuracy,%g\n" % (r, t, node, v))
    return d


def main():
    with tempfile.TemporaryDirectory() as tmp:
        runs = [
            run_dir(tmp, "A", {"seed": 1},
                    [("radio_idle", 3), ("d2s_tx", 5), ("d2s_idle", 2), ("compute", 100)],
                    [(1, 1.1, 1, 0), (2, 2.3, 1, 0), (3, 12, 0, 0)],
                    [(0, 0, -1, 0.1), (2, 4, -1, 0.5), (2, 4, 0, 0.9)]),
            run_dir(tmp, "B", {"seed": 2}, [("d2s_tx", 8)], [(1, 1.2, 1, 0), (2, 2.2, 1, 0)],
                    [(0, 0, -1, 0.1), (2, 6, -1, 0.7)]),
            run_dir(tmp, "C", {"d2sDrx": "100ms,10ms,20ms", "sleepWhileTraining": True},
                    [("d2s_sleep", 1), ("d2s_tx", 3)], [(1, 1.3, 1, 0.1), (2, 2.5, 1, 0.3)],
                    [(2, 5, -1, 0.6)]),
            run_dir(tmp, "D", {"algorithm": "decentralized", "drx": "20ms,2ms"},
                    [("radio_tx", 2)], [(1, 1.05, 1, 0.01)], [(1, 1, -1, 0.3)]),
        ]
        table = os.path.join(tmp, "t.csv")
        figs = os.path.join(tmp, "figs")
        p = subprocess.run(["/usr/bin/python3", SCRIPT, *runs, "--table", table, "--figure",
                            figs], capture_output=True, text=True)
        check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
        rows = list(csv.DictReader(open(table))) if p.returncode == 0 else []
        want = [
            ("fedavg", "none", 2, 4.5, 0.707107, 0.2, 0.0, 0.0, 0.6, 5.0),
            ("fedavg", "DRX 100ms/10ms/20ms + sleep while training", 1, 2.0, 0.0, 0.4, 0.0,
             0.2, 0.6, 5.0),
            ("decentralized", "DRX 20ms/2ms", 1, 1.0, 0.0, 0.05, 0.0, 0.01, 0.3, 1.0),
        ]
        # sorted by algorithm: decentralized first
        want = sorted(want, key=lambda w: w[0])
        check([(r["algorithm"], r["setting"]) for r in rows] == [w[:2] for w in want],
              "rows %s" % [(r["algorithm"], r["setting"]) for r in rows])
        keys = ["runs", "radio_energy_j", "radio_energy_sd", "latency_s", "latency_sd",
                "sleep_wait_s", "accuracy", "time_s"]
        for row, w in zip(rows, want):
            for key, v in zip(keys, w[2:]):
                check(math.isclose(float(row[key]), v, rel_tol=1e-5, abs_tol=1e-9),
                      "%s %s %s = %s, want %g" % (w[0], w[1], key, row[key], v))
        png = os.path.join(figs, "sleep_effects.png")
        check(os.path.isfile(png) and os.path.getsize(png) > 10000, "no figure at %s" % png)
        rc, _, drawn = figure_checks.render("sleep_effects",
                                            [*runs, "--figure", os.path.join(tmp, "f2")])
        check(rc == 0, "in process: exit %d" % rc)
        fig = drawn[0][1] if drawn else None
        problems = figure_checks.all_problems(drawn)
        check(problems == [], "figure problems: %s" % problems)
        check(fig is not None and len(fig.axes) == 2, "two panels")
        check(fig is not None and len(figure_checks.no_data_texts(fig)) == 1,
              "decentralized's panel says it has one setting only")
        bad = run_dir(tmp, "E", {}, [("d2s_tx", 1)], [(1, 2, 0, 0)], [(1, 1, -1, 0.3)])
        out = os.path.join(tmp, "never.csv")
        why = figure_checks.refusal_problem(SCRIPT, [runs[0], bad, "--table", out], out,
                                            "delivered")
        check(not why, "a run without a delivered message: %s" % why)
        os.remove(os.path.join(runs[0], "run.json"))
        why = figure_checks.refusal_problem(SCRIPT, [runs[0], "--table", out], out, "run.json")
        check(not why, "a folder without run.json: %s" % why)
    figure_checks.finish("test_sleep_effects")


if __name__ == "__main__":
    main()
