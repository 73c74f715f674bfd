#!/usr/bin/python3
"""doc/data/energy-by-component: the manual's table recomputed from results.csv.

bench/energy_numbers.py writes results.csv (energy per program, radio powers and component,
summed from the runs' energy.csv) and table.md from it. This test reads both and recomputes,
with code of its own, every cell of every row: each component's joules, the total, the share
of idle listening (radio_idle + d2s_idle over the total, in %), the simulated time; and
checks that each program has a row with the former powers and one with the present, that
with the present powers no program that sends no D2D messages (server FedAvg) has D2D energy,
and that the table has no row results.csv lacks.
"""

import csv
import os
import sys

FOLDER = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "doc", "data", "energy-by-component")
HEADINGS = {"D2D transmit (J)": "radio_tx", "D2D receive (J)": "radio_rx",
            "D2D idle (J)": "radio_idle", "D2S transmit (J)": "d2s_tx",
            "D2S receive (J)": "d2s_rx", "D2S idle (J)": "d2s_idle", "compute (J)": "compute"}
failures = 0


def check(ok, what):
    global failures
    if not ok:
        print("FAIL: " + what)
        failures += 1


def main():
    energy, times = {}, {}
    with open(os.path.join(FOLDER, "results.csv"), newline="") as f:
        for r in csv.DictReader(f):
            key = (r["program"], r["powers"])
            energy.setdefault(key, {})
            energy[key][r["component"]] = energy[key].get(r["component"], 0.0) + float(
                r["energy_j"])
            times[key] = float(r["simulated_time_s"])
    with open(os.path.join(FOLDER, "table.md")) as f:
        lines = [line.strip() for line in f if line.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = [dict(zip(head, (c.strip() for c in line.strip("|").split("|"))))
            for line in lines[2:]]
    seen = set()
    for row in rows:
        powers = "former" if row["radio powers"].startswith("former") else "now"
        key = (row["program"], powers)
        seen.add(key)
        check(key in energy, f"table row {key} has no results")
        if key not in energy:
            continue
        e = energy[key]
        for heading, component in HEADINGS.items():
            check(float(row[heading]) == round(e.get(component, 0.0), 1),
                  f"{key} {heading}: {row[heading]}, results.csv {e.get(component, 0.0):.3f}")
        total = sum(e.values())
        check(float(row["total (J)"]) == round(total, 1),
              f"{key} total {row['total (J)']}, results.csv {total:.3f}")
        idle = 100.0 * (e.get("radio_idle", 0.0) + e.get("d2s_idle", 0.0)) / total
        check(row["idle listening (%)"] == "%.0f" % idle,
              f"{key} idle share {row['idle listening (%)']}, recomputed {idle:.1f}")
        check(float(row["simulated (s)"]) == round(times[key], 1), f"{key} simulated time")
    programs = {p for p, _ in energy}
    for program in programs:
        for powers in ("former", "now"):
            check((program, powers) in seen, f"no table row for {program}, {powers} powers")
    # Server FedAvg sends no D2D messages: its D2D radios are off with the present powers.
    fedavg = energy.get(("fedavg", "now"), {})
    check(fedavg and all(j == 0.0 for c, j in fedavg.items() if c.startswith("radio_")),
          "fedavg now: D2D radio energy is 0 J")
    if failures:
        sys.exit(f"test_energy_numbers: {failures} failure(s)")
    print(f"test_energy_numbers: {len(rows)} rows recomputed from results.csv")


if __name__ == "__main__":
    main()
